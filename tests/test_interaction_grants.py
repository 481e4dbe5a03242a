"""Timed modifiers: `modify D(args) += E until turn_end` adds to a def for those arguments until
the turn ends; they are part of the match state."""
from __future__ import annotations

import json

import pytest

import rulelang

SOURCE = """
game "Boost" {
  players 2
  kind Unit { base: int  label "unit " + text(base) }
  zone field: set, public
  var rounds: int = 0
  def power(u: Unit) = u.base
  show def powers = [power(u) for u in field]
  setup { create Unit(base: 1) in field  create Unit(base: 2) in field }
  turn { step s {
    action boost(u in field) require rounds < 5 { modify power(u) += 4 until turn_end  rounds += 1 }
    action pass { if rounds > 8 { finish draw }  end turn }
  } }
}
"""


@pytest.fixture(scope="module")
def game():
    return rulelang.Game(rulelang.compile_source(SOURCE, "boost.rules"))


def powers(m):
    return next(v["value"] for v in m.view(0)["values"] if v["name"] == "powers")


def test_a_timed_modifier_adds_until_the_turn_ends_and_stacks(game):
    m = game.new_match(2)
    m.apply("boost unit 1")
    m.apply("boost unit 1")
    assert powers(m) == [9, 2]
    m.apply("pass")                                   # the turn ends: both gone
    assert powers(m) == [1, 2]
    assert "grants" not in m.state()


def test_timed_modifiers_round_trip_and_clone(game):
    m = game.new_match(2)
    m.apply("boost unit 2")
    st = m.state()
    assert st["grants"] == [["power", [1], 4]]
    again = rulelang.Match.from_state(game, json.loads(json.dumps(st)))
    assert powers(again) == [1, 6] and again.state() == st
    copy = m.clone()
    copy.apply("pass")
    assert powers(copy) == [1, 2] and powers(m) == [1, 6]


def test_a_bad_timed_modifier_in_a_state_is_refused(game):
    m = game.new_match(2)
    m.apply("boost unit 2")
    st = m.state()
    st["grants"] = [["nothing", [1], 4]]
    with pytest.raises(rulelang.StateError):
        rulelang.Match.from_state(game, st)


def test_until_something_else_is_an_error():
    bad = SOURCE.replace("until turn_end", "until turn_start")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(bad, "boost.rules")
    assert err.value.diagnostics[0].code == "E105"
