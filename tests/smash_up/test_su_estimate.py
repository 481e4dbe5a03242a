"""Smash Up's `estimate` (for search bots): VP count twice, each base in play the VP its standing
there would give now; 50 + 3 × (one's outlook − the best other outlook), within 0..100."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_bases import Position  # noqa: E402


def test_the_estimate_weighs_vp_and_standings_at_the_bases():
    m = (Position().bases("Tar Pits", "Jungle Oasis", "The Grey Opal")
         .minions(0, "Tar Pits", "Invader")                 # P1: 3 power at Tar Pits (4/3/2 VP)
         .minions(1, "Tar Pits", "Ninja Acolyte")           # P2: 2 there, second
         .minions(1, "Jungle Oasis", "Shinobi")             # P2 alone at Jungle Oasis (2/0/0)
         .vp(5, 3).turn(0).match())
    # P1: 2×5 + 4 = 14; P2: 2×3 + 3 + 2 = 11
    assert [m.estimate(p) for p in (0, 1)] == [0.59, 0.41]


def test_the_estimate_is_even_at_the_start_and_bounded():
    m = Position().bases("Tar Pits", "Jungle Oasis", "The Grey Opal").vp(0, 0).turn(0).match()
    assert [m.estimate(p) for p in (0, 1)] == [0.5, 0.5]
    m = Position().bases("Tar Pits", "Jungle Oasis", "The Grey Opal").vp(14, 0).turn(0).match()
    assert [m.estimate(p) for p in (0, 1)] == [1.0, 0.0]          # 50 ± 84, clamped
