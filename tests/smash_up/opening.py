"""Smash Up's opening question (S3): every player is asked, in turn, whether to keep the opening
hand (a hand without a minion may be redrawn once) — asking only those without one told the others."""
from __future__ import annotations


def kept(m):
    """The match with every opening hand kept (the questions S3 asks of each player answered)."""
    while m.question is not None and str(m.question.get("prompt") or "").startswith("your opening hand"):
        m.apply("keep")
    return m
