"""Every test runs with an IR cache directory and cache-signing key of the test run's own, never
the user's. The directory is one per test process (an xdist worker), so a shipped game is compiled
once there, not in every test that loads it (a cold compile of one costs 0.4–0.8 s: they were a
sixth of the suite's CPU time); a test about the cache itself points RULELANG_CACHE_DIR at a
folder of its own."""
from __future__ import annotations

import copy
import os
import signal
import sys
from pathlib import Path

import pytest

# Compiled modules are kept (`__pycache__`, ignored by git) even where PYTHONDONTWRITEBYTECODE asks
# otherwise, as on the machine this project is built on: each xdist worker, and every rulelang a
# test starts as a process, compiled the package and rewrote the tests' asserts afresh — 12 s of
# each worker's 13 s collection. (Only this test run's own imports write; a process it starts
# reads what was written.)
sys.dont_write_bytecode = False

import rulelang  # noqa: E402  (after the line above: its modules' bytecode is kept)

# A test run started where interrupts are ignored (a background job of a script, `nohup`) passed
# that on to every program its tests start, and the tests that interrupt a simulation waited for
# it for minutes, then failed: a test's programs get the interrupt as a terminal would give it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject.toml): two test processes more than the machine's cores. A fifth of the
    suite's time is spent waiting — on Chromium, on a server's deadline, on a subprocess — and more
    processes fill it (2 cores: 5:14 against 5:34 for the same run with a third; stop 77, 6:05 and 5:37
    with a fourth against 6:15 and 6:07 with three). PYTEST_XDIST_AUTO_NUM_WORKERS still decides where
    it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 2


@pytest.fixture(scope="session")
def run_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("rulelang-cache")


@pytest.fixture(autouse=True)
def private_cache(run_cache, monkeypatch):
    global _RUN_CACHE
    _RUN_CACHE = str(run_cache / "cache")
    monkeypatch.setenv("RULELANG_CACHE_DIR", _RUN_CACHE)
    monkeypatch.setenv("RULELANG_KEY_FILE", str(run_cache / "key" / "cache-key"))
    return run_cache


# A shipped game is loaded once in a test process, however many tests load it: building its engine
# (0.3-0.8 s of CPU) was some 90 s of the suite's CPU, a few hundred loads of the same five files. Only
# a shipped rule file, unchanged, loaded as typed from the same folder, under this run's cache (a test
# of the cache, with a folder of its own, loads afresh); tests play matches of a Game and never change
# it (a patch, by `monkeypatch`, is undone after its test).
_GAMES = Path(__file__).resolve().parent.parent / "games"
_RUN_CACHE: str | None = None
_real_load = rulelang.load
_loaded: dict = {}


def _load_once(path):
    cache = os.environ.get("RULELANG_CACHE_DIR")
    try:
        found = Path(rulelang._shipped(str(path))).resolve()
        shipped = found.parent == _GAMES and found.suffix == ".rules"
        stamp = found.stat().st_mtime_ns if shipped else None
    except (OSError, ValueError, TypeError):
        shipped = False
    if not shipped or (_RUN_CACHE is not None and cache != _RUN_CACHE):   # (None: collecting, no test yet)
        return _real_load(path)
    key = (str(path), os.getcwd(), stamp, cache)
    if key not in _loaded:
        _loaded[key] = _real_load(path)
    return _loaded[key]


rulelang.load = _load_once


# A shipped rule file is compiled once in a test process too (0.6-0.7 s of CPU for Smash Up or Dozen
# War, asked for by dozens of tests); each caller gets a copy of its own to change as it likes.
_real_compile_file = rulelang.compile_file
_compiled: dict = {}


def _compile_once(path):
    try:
        found = Path(path).resolve()
        key = (str(found), found.stat().st_mtime_ns) if found.parent == _GAMES and found.suffix == ".rules" else None
    except (OSError, ValueError, TypeError):
        key = None
    if key is None:
        return _real_compile_file(path)
    if key not in _compiled:
        _compiled[key] = _real_compile_file(path)
    return copy.deepcopy(_compiled[key])


rulelang.compile_file = _compile_once
