"""A choice during the setup: the setup is replayed from a copy of the empty match, and the
position it reaches (per-component variables included) is the one a fresh setup would reach."""
from __future__ import annotations

import json

import rulelang

SOURCE = """
game "Deal" {
  players 2
  kind Card { value: int  label "card " + text(value) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  var marked: bool = false per Card
  setup {
    repeat 3 { create Card(value: 1) in deck }
    may by 0 prompt "take a card?" { move top(deck) to hand[0] }
  }
  turn { step s { action stop { finish draw } } }
}
"""


def test_answering_a_setup_choice_keeps_one_value_per_component_and_round_trips():
    game = rulelang.Game(rulelang.compile_source(SOURCE, "deal.rules"))
    m = game.new_match(2)
    assert m.question["prompt"] == "take a card?" and m.state()["pending"]["root"] == ["start"]
    m.apply("yes")
    st = m.state()
    assert st["vars"]["marked"] == [False, False, False]
    assert [len(h) for h in st["zones"]["hand"]] == [1, 0]
    again = rulelang.Match.from_state(game, json.loads(json.dumps(st)))
    assert again.state() == st
    paused = game.new_match(2).state()                # paused in the setup: restored by replaying it
    assert rulelang.Match.from_state(game, json.loads(json.dumps(paused))).state() == paused
