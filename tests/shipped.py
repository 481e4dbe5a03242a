"""The shipped games, each loaded once in a test process. Every xdist worker imports every test
module, and five modules loading Smash Up when imported built its engine five times in each."""
from __future__ import annotations

import functools
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def shipped(name: str) -> rulelang.Game:
    """games/NAME.rules, loaded once: a test plays matches of it, and one that patches it must undo
    the patch (`monkeypatch`), as other modules' tests in its process share it."""
    return rulelang.load(str(ROOT / "games" / f"{name}.rules"))
