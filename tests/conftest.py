"""Every test runs with an IR cache directory and cache-signing key of the test run's own, never
the user's. The directory is one per test process (an xdist worker), so a shipped game is compiled
once there, not in every test that loads it (a cold compile of one costs 0.4–0.8 s: they were a
sixth of the suite's CPU time); a test about the cache itself points RULELANG_CACHE_DIR at a
folder of its own."""
from __future__ import annotations

import sys

import pytest

# Compiled modules are kept (`__pycache__`, ignored by git) even where PYTHONDONTWRITEBYTECODE asks
# otherwise, as on the machine this project is built on: each xdist worker, and every rulelang a
# test starts as a process, compiled the package and rewrote the tests' asserts afresh — 12 s of
# each worker's 13 s collection. (Only this test run's own imports write; a process it starts
# reads what was written.)
sys.dont_write_bytecode = False


@pytest.fixture(scope="session")
def run_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("rulelang-cache")


@pytest.fixture(autouse=True)
def private_cache(run_cache, monkeypatch):
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(run_cache / "cache"))
    monkeypatch.setenv("RULELANG_KEY_FILE", str(run_cache / "key" / "cache-key"))
    return run_cache
