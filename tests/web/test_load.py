"""Load, bounded: a `rulelang serve` process on loopback holds 200 concurrent matches, each a
simulated person (a websocket client) against a random bot, all playing at once. Measured: the
round trip of a person's action — from sending it to receiving the position after it — which
excludes the bot's thinking (the bot answers after that push), and the server's memory (RSS).
The figures are printed (pytest -s) and docs/serve.md quotes them."""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import time

import pytest
import websockets

from .conftest import ROOT, post, serve_process

MATCHES = 200
ACTIONS = 8                      # per simulated person
pytestmark = pytest.mark.slow


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


@pytest.fixture
def server_process(tmp_path):
    url, proc = serve_process(tmp_path, str(ROOT / "games" / "valgard.rules"))
    yield url, proc
    proc.terminate()
    proc.wait(10)


def test_two_hundred_matches_at_once(server_process):
    url, proc = server_process
    idle = rss_mb(proc.pid)
    bodies = []
    for i in range(MATCHES):
        code, body = post(url + "/api/matches", {"game": "valgard", "players": 2, "seats": ["human", "random"],
                                                 "seed": i})
        assert code == 200, body
        bodies.append(body)
    made = rss_mb(proc.pid)
    times: list[float] = []

    async def person(body):
        link = body["links"][0]["url"].replace("http://", "ws://").replace("/play/", "/ws/")
        async with websockets.connect(link, max_size=2 ** 22) as ws:
            state = None
            done = 0
            while done < ACTIONS:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if msg["type"] == "error":
                    raise AssertionError(msg["message"])
                if msg["type"] != "state":
                    continue
                state = msg
                if state["outcome"] or not state["actions"]:
                    if state["outcome"]:
                        return
                    continue
                text = state["actions"][(done * 7 + len(state["actions"]) // 2) % len(state["actions"])]["text"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "text": text, "version": state["version"]}))
                while True:                      # the position after my action (before the bot's answer)
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    if msg["type"] == "error":
                        raise AssertionError(msg["message"])
                    if msg["type"] == "state" and msg["version"] == state["version"] + 1:
                        times.append(time.perf_counter() - sent)
                        break
                done += 1

    async def everyone():
        peak = 0.0

        async def watch():
            nonlocal peak
            while True:
                peak = max(peak, rss_mb(proc.pid))
                await asyncio.sleep(0.2)
        watcher = asyncio.create_task(watch())
        await asyncio.gather(*(person(b) for b in bodies))
        watcher.cancel()
        return peak
    start = time.perf_counter()
    peak = asyncio.run(everyone())
    wall = time.perf_counter() - start
    times.sort()
    median = statistics.median(times) * 1000
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print(f"\nload: {MATCHES} concurrent matches (a websocket person against a random bot each), "
          f"{len(times)} actions in {wall:.1f} s; round trip of an action: median {median:.1f} ms, "
          f"p99 {p99:.1f} ms; server RSS {idle:.0f} MB idle, {made:.0f} MB with the matches made, "
          f"{peak:.0f} MB at the peak")
    assert len(times) >= MATCHES * ACTIONS * 0.9
    assert proc.poll() is None
