"""The `turn limit` against the `when` rules: a win made on the last turn is a win (an author's
draughts ended "a draw: 18 turns played" with the loser's last piece taken on turn 18)."""
from __future__ import annotations

import rulelang

RACE = """
game "Race" {
  players 2
  var steps: int = 0 per player
  turn { step s {
    action walk { steps[me] += 1  end turn }
    action wait { end turn }
  } }
  when any(steps[p] >= 2 for p in players) { finish win for first(p for p in players where steps[p] >= 2) "reached 2" }
  turn limit 4 { finish draw "4 turns played" }
}
"""


def played(source: str, moves: list[str]):
    m = rulelang.Game(rulelang.compile_source(source, "race.rules")).new_match(2, seed=1)
    for a in moves:
        m.apply(a)
    return m


def test_a_when_that_holds_on_the_last_turn_ends_the_game_before_the_limit():
    m = played(RACE, ["wait", "walk", "wait", "walk"])        # P2's second walk is turn 4's
    assert m.outcome == {"results": ["lose", "win"], "scores": None, "reason": "reached 2"}


def test_the_limit_still_ends_a_game_no_when_rule_ended():
    m = played(RACE, ["wait", "walk", "walk", "wait"])
    assert m.outcome["results"] == ["draw", "draw"] and m.outcome["reason"] == "4 turns played"


def test_the_same_holds_when_the_game_may_ask_questions():
    """(games whose effects may pause settle the `when` rules through the waiting triggers' drain)"""
    asking = RACE.replace("action wait { end turn }",
                          'action wait { choose n in [1, 2] { log "chose " + text(n) }  end turn }')
    m = rulelang.Game(rulelang.compile_source(asking, "race.rules")).new_match(2, seed=1)
    for a in ["wait", "walk", "wait", "walk"]:
        m.apply(a)
        if m.pending:                                          # the question: answer its first option
            m.apply(m.legal_actions()[0])
    assert m.outcome is not None and m.outcome["reason"] == "reached 2"
