"""`rulelang serve` stops when told to, also once search bots have played: Ctrl-C at the terminal
(SIGINT to the whole process group) and a service manager's or `timeout`'s stop (SIGTERM to the
group) reach the bot workers too. A real server process on loopback."""
from __future__ import annotations

import json
import os
import signal
import time
import urllib.request

import pytest

from .conftest import post, serve_process

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_server_stops_on_a_signal_to_its_group_after_a_search_bot_played(tmp_path, sig):
    """A fuzzer: after one `ismcts` move the server never stopped (Ctrl-C printed two tracebacks from
    the workers, and both signals left it waiting for ever on the worker pool): it took `kill -9`."""
    url, proc = serve_process(tmp_path, start_new_session=True)
    try:
        code, body = post(url + "/api/matches", {"game": "regicide", "seats": ["ismcts:20"]})
        assert code == 200, body
        state = url + body["spectator"]["url"].split(url, 1)[1].replace("/play/", "/api/play/")
        for _ in range(1200):                      # until the bot has made a move (in a worker process)
            if json.loads(urllib.request.urlopen(state, timeout=10).read())["log_length"] > 0:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the bot never moved")
        os.killpg(proc.pid, sig)
        proc.wait(60)
        errors = proc.stderr.read().decode()
        assert "Traceback" not in errors, errors
        # (stopped by SIGTERM, it ended by the signal once uvicorn had stopped, before its workers' semaphores
        # were cleaned up: "There appear to be 6 leaked semaphore objects" — an attacker's trial)
        assert "leaked semaphore" not in errors and proc.returncode == 0, (proc.returncode, errors)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_port_in_use_is_one_error_line_before_anything_is_promised(tmp_path):
    """A fuzz trial: `rulelang serve` on a port in use printed "open http://…/ in a browser", then
    uvicorn's line, and exited 3 (not a documented code)."""
    import socket
    import subprocess
    import sys
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for args in (["--port", str(port)], ["--host", "256.0.0.1", "--port", str(port)]):
            done = subprocess.run([sys.executable, "-m", "rulelang", "serve", *args, "--store", ":memory:"],
                                  capture_output=True, text=True, timeout=120, cwd=tmp_path)
            assert done.returncode == 1 and "open http" not in done.stdout, (done.stdout, done.stderr)
            assert done.stderr.startswith(f"error: cannot listen on {args[1] if len(args) > 2 else '127.0.0.1'}:{port}: ")
            assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_client_gone_before_its_request_body_leaves_no_traceback(tmp_path):
    """A fuzz trial: a POST /api/matches whose client closed before sending its whole body printed
    a 17-frame traceback (starlette's ClientDisconnect) in the server's log, each time."""
    import socket
    url, proc = serve_process(tmp_path, start_new_session=True)
    try:
        port = int(url.rsplit(":", 1)[1])
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"game\":")
                time.sleep(0.3)
        code, _ = post(url + "/api/matches", {"game": "regicide", "seats": ["human"]})
        assert code == 200                                     # (still serving)
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(60)
        errors = proc.stderr.read().decode()
        assert "Traceback" not in errors and "ClientDisconnect" not in errors, errors
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_two_bots_starting_the_workers_together_leave_ctrl_c_as_it_was(monkeypatch):
    """An attacker's trial: two matches of search bots made back to back, and Ctrl-C stopped nothing —
    each start of the worker pool ignored Ctrl-C meanwhile, and the second put back the first's
    "ignored" as the handler it found. The pool is started once, whoever asks."""
    import asyncio
    import threading
    from rulelang.web.server import BotPool
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are set in the main thread only")
    pool, made = BotPool(), []

    def start():
        time.sleep(0.2)
        made.append(1)
        pool.pool = object()
        return pool.pool
    monkeypatch.setattr(pool, "_start", start)
    before = signal.getsignal(signal.SIGINT)

    async def both():
        return await asyncio.gather(pool._started(), pool._started())
    first, second = asyncio.run(both())
    assert first is second and made == [1]
    assert signal.getsignal(signal.SIGINT) is before


def test_a_bot_move_back_after_the_server_stopped_is_dropped_quietly():
    """A suite's run: a bot's move came back from a worker after its server's loop had closed, and the
    pool's result thread raised "Event loop is closed" (a traceback from a thread, at a server's stop)."""
    import asyncio
    from collections import deque
    from rulelang.web.server import BotPool

    class Waiting:
        def done(self):
            return False

    class Answers:                           # (a worker pool answering at once, on the caller's thread)
        def apply_async(self, function, args, callback, error_callback):
            callback(("ok", "move"))
    pool, workers = BotPool(), Answers()
    pool.pool, pool.waiting = workers, {"here": deque([(Waiting(), ())])}
    loop = asyncio.new_event_loop()
    loop.close()
    pool._next(workers, loop)                # (raised RuntimeError: Event loop is closed)
    assert pool.busy == 1 and not pool.waiting
