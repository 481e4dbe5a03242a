"""Helpers shared by the interaction-model tests (test_interaction*.py)."""
from __future__ import annotations

import rulelang


def build(src: str) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(src, "x.rules"))


def texts(m) -> list[str]:
    return [a.text for a in m.legal_actions()]


def play(m, *answers) -> None:
    for a in answers:
        m.apply(a)


def var(m, name):
    return m.state()["vars"][name]
