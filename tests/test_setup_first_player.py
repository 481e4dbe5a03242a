"""`end turn to P` at the end of `setup` gives turn 1 to P (documented for a dealer's left-hand
player: a new author designed around it, not knowing it worked)."""
from __future__ import annotations

import rulelang

SOURCE = """
game "Deal" {
  players 3
  var dealer: player = 1
  var starts: int = 0
  on turn_start { starts += 1 }
  setup { end turn to next(dealer) }
  turn { step s { action go { end turn }  action stop { finish draw } } }
}
"""


def test_setup_ending_the_turn_to_a_player_makes_turn_1_theirs():
    m = rulelang.Game(rulelang.compile_source(SOURCE, "deal.rules")).new_match(3, seed=1)
    state = m.state()
    assert (state["current"], state["turn"], state["vars"]["starts"]) == (2, 1, 1)
    m.apply("go")
    assert (m.state()["current"], m.state()["turn"]) == (0, 2)
