"""A real `rulelang serve` server (uvicorn, Starlette) on a free loopback port, in a thread."""
from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
import threading
from pathlib import Path

import pytest

import uvicorn

from rulelang.web.connections import uvicorn_options
from rulelang.web.server import create_app

ROOT = Path(__file__).resolve().parents[2]
SMALL = Path(__file__).resolve().parent / "small.rules"


class Running:
    """A server running in a thread; `url` is its http://127.0.0.1:PORT."""

    def __init__(self, rules=(), store=":memory:", include_shipped=True, keep_days=90.0, **limits):
        self.app, self.server = create_app([str(r) for r in rules], str(store), 0.0, include_shipped, keep_days)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.sock = sock
        config = uvicorn.Config(self.app, lifespan="off", **uvicorn_options(**limits))   # (as `rulelang serve`)
        self.uv = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.uv.serve(sockets=[sock])), daemon=True)
        self.thread.start()
        while not self.uv.started:
            self.thread.join(0.02)
            if not self.thread.is_alive():
                raise RuntimeError("the server did not start")
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.server.close()
        self.uv.should_exit = True
        self.thread.join(30)
        self.server.store.close()
        self.sock.close()


@pytest.fixture
def serve():
    started = []

    def start(*args, **kwargs):
        r = Running(*args, **kwargs)
        started.append(r)
        return r
    yield start
    for r in started:
        r.stop()


def post(url: str, body, headers: dict | None = None) -> tuple[int, dict]:
    import urllib.error
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})},
                                 method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def get(url: str) -> tuple[int, bytes]:
    import urllib.error
    import urllib.request
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def serve_process(tmp_path, *args: str, **popen) -> tuple[str, subprocess.Popen]:
    """`rulelang serve ARGS` as its own process on a free loopback port, once it answers: its URL and
    the process (the caller stops it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "serve", *args, "--port", str(port),
                             "--store", str(tmp_path / "serve.sqlite"), "--bot-delay", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path, **popen)
    url = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            urllib.request.urlopen(url + "/api/games", timeout=2).read()
            return url, proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode())
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not answer")


def without_card_names(raw: str) -> str:
    """A message as the leak scans read it: without `card_names`, every card the rules declare, and
    `worded_cards`, those with words (the rulebook's lists, the same for every reader and every match
    of the game: no secret)."""
    from rulelang.web import present
    msg = json.loads(raw)

    def drop(x):
        if isinstance(x, dict):
            return {k: drop(v) for k, v in x.items() if k not in ("card_names", "worded_cards")}
        if isinstance(x, list):
            return [drop(v) for v in x]
        return x
    return present.dumps(drop(msg))


def wait_until(page, expression: str, arg=None, timeout: float = 60.0) -> None:
    """Until `expression` (a JavaScript expression, or a function of `arg`) holds in the page. Not
    `page.wait_for_function`: once its first check fails it polls through an `eval`, which the
    page's content policy refuses (`'unsafe-eval'`) — a suite run on a busy machine failed so."""
    deadline = time.monotonic() + timeout
    while not (page.evaluate(expression, arg) if arg is not None else page.evaluate(expression)):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {expression}")
        page.wait_for_timeout(10)
