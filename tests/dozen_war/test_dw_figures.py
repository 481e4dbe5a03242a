"""figures.py, the script behind the guide's figures: its eager policy finishes games, and a game
it does not finish is reported, not a crash."""
from __future__ import annotations

import random

import figures
from dw_helpers import Position, play


def test_the_eager_policy_hands_map_pieces_over_once_a_pair_a_turn():
    """`figures.py 3 2 eager` crashed after ~17 s: the policy, which always hands over before it
    moves, passed map pieces from Iron Warden to Gold Maker and back until the 20,000-action cap."""
    # (the supply empty: Gold Maker's Transmute, played first, would bar him from taking the pieces)
    m = (Position(2).general(0, "Iron Warden", "e5", pieces=2).general(0, "Gold Maker", "f5")
         .var("bank", None, 0).turn(0).match())
    pick, start, hands = figures.Eager(random.Random(0)), m.turn_count, 0
    for _ in range(200):
        if m.turn_count != start:
            break
        a = pick(m)
        hands += a.text.startswith("hand over")
        play(m, a.text)
    assert m.turn_count != start, "P1's turn never ended"
    assert hands == 1


def test_an_unfinished_game_is_reported_not_a_crash(capsys):
    """m.outcome is None at the action cap: `reason = m.outcome["reason"]` was a TypeError."""
    figures.main(2, 1, False, "random", "eager", cap=30)
    out = capsys.readouterr().out
    assert "ends: unfinished (30-action cap) 1" in out
    assert "won by nobody" in out and "win rate by seat: P1 0%, P2 0%" in out
