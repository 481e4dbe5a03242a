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
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
