"""Every test runs with its own IR cache directory and cache-signing key, never the user's."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    where = tmp_path_factory.mktemp("rulelang-cache")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(where / "cache"))
    monkeypatch.setenv("RULELANG_KEY_FILE", str(where / "key" / "cache-key"))
    return where
