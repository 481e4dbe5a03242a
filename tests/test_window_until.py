"""`open W(…) … until C`: a window closes, nobody more asked, once C holds (an attack a defence
stopped); without `until` it goes round until everyone passes in a row."""
from __future__ import annotations

import rulelang

SHIELDS = """game "Shields" {
  players 3
  window guard(t: player)
  kind Card { label card }
  card Card "Shield" { on guard(t) from hand { stopped = true  log text(me) + " shields " + text(t) } }
  zone hand: set per player, owner
  var stopped: bool = false
  setup { create Card(card: "Shield") in hand[1]  create Card(card: "Shield") in hand[2] }
  turn { step s {
    action strike {
      stopped = false
      open guard(next(me)) from next(me) always UNTIL
      log if stopped then "stopped" else "hit"
      end turn
    }
    action stop { finish draw }
  } }
}
"""


def asked(source: str) -> list:
    m = rulelang.Game(rulelang.compile_source(source, "shields.rules")).new_match(3, seed=1)
    m.apply("strike")
    seats = []
    while m.question is not None:
        q = m.question
        seats.append((q["chooser"], sorted(q["options"])))
        m.apply("Shield" if "Shield" in q["options"] and not seats[:-1] else "pass")
    assert m.messages_for(0)[-1] == "stopped"
    return seats


def test_a_window_closes_once_its_until_holds():
    assert asked(SHIELDS.replace("UNTIL", "until stopped")) == [(1, ["Shield", "pass"])]
    assert asked(SHIELDS.replace("UNTIL", "")) == [(1, ["Shield", "pass"]), (2, ["Shield", "pass"]),
                                                    (0, ["pass"]), (1, ["Shield", "pass"])]


def test_until_must_be_a_truth_value():
    _, diags = rulelang.check_source(SHIELDS.replace("UNTIL", "until 3"), "shields.rules")
    assert any(d.code.startswith("E") and "until" in d.message for d in diags), [str(d) for d in diags]
