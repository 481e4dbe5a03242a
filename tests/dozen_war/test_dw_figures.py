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


def test_a_game_scored_after_the_7th_event_is_not_counted_a_win_by_5_map_pieces():
    """`figures.py 3 2 eager` said "ends: 5 map pieces 2" of two games scored after round 8: the
    score's reason, "the best score (then map pieces)", holds the words "map pieces"."""
    p = Position(2).general(0, "Iron Warden", "e5", pieces=1).general(1, "Gold Maker", "a1")
    for e in [i for i, c in enumerate(p.comps) if c["kind"] == "Event"][:7]:     # 7 events past
        p.st["zones"]["events"].remove(e)
        p.st["zones"]["past"].append(e)
    m = p.turn(1, rnd=8).match()
    play(m, "end turn")
    assert m.outcome["reason"].startswith("after the 7th event, the best score (then map pieces)")
    assert figures.ending(m.outcome) == "score"
    m = Position(2).general(0, "Iron Warden", "e8", pieces=4).general(1, "Gold Maker", "a1").bury("f8", "Map piece").turn(0).match()
    play(m, "dig Iron Warden f8")
    assert figures.ending(m.outcome) == "5 map pieces"
    m = Position(2).general(0, "Iron Warden", "e5").general(1, "Gold Maker", "f5", hp=1).turn(0)
    for k in ("South infantry castle", "South cavalry castle", "South archer castle"):
        m.castle(k, 0)
    m = m.match()
    play(m, "attack e5 Iron Warden f5 Gold Maker", "pass")            # (Gold Maker does not defend)
    assert figures.ending(m.outcome) == "last standing"
