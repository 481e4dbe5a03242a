"""A stack (docs/language.md, "A stack"): `open W(…) then resolve s from Z { … }` puts the window's
question to the players, then resolves the top of Z (last in, first out), again and again while Z
holds anything. The game is the small made-up duel of the docs: Bolts and Negates."""
from __future__ import annotations

import pytest

import rulelang

DUEL = """game "Spell Duel" {
  players 2
  kind Spell { label card }
  zone hand: set per player, owner
  zone stack: pile, public                 # last in, first out
  zone grave: set, public
  var life: int = 2 per player, public
  var cast_by: player = 0 per Spell, public, internal
  hook effect(by: player)
  card Spell "Bolt" { copies: 2  text "1 damage to the other player."
    on effect(by) { life[next(by)] -= 1 } }
  card Spell "Negate" { text "Cast in answer to a spell: that spell does nothing."
    on effect(by) { if size(stack) > 0 { log text(top(stack)) + " is negated"  move top(stack) to grave } } }
  window priority() {
    prompt text(top(stack)) + " is on top of the stack: respond?"      # asked anew for each question
    respond negate where any(c.card == "Negate" for c in hand[me]) {
      let c = first([c for c in hand[me] where c.card == "Negate"])
      cast_by[c] = me
      move c to stack
    }
  }
  setup { for p in players { create cards Spell in hand[p] } }
  turn { step main {
    action cast(c in hand[me]) require c.card == "Bolt" {
      cast_by[c] = me
      move c to stack                                                   # put it on the stack
      open priority() from next(me) then resolve s from stack {   # each may respond; resolve the top
        move s to grave
        run effect(cast_by[s]) of s
      }
      end turn
    }
    action wait { end turn }
  } }
  when any(life[p] <= 0 for p in players) { finish win for first([p for p in players where life[p] > 0]) "out of life" }
  turn limit 30 { finish draw }
}"""


@pytest.fixture(scope="module")
def game():
    return rulelang.Game(rulelang.compile_source(DUEL, "duel.rules"))


def texts(m):
    return [a.text for a in m.legal_actions()]


def test_the_last_spell_put_on_the_stack_resolves_first(game):
    m = game.new_match(2, 1)
    m.apply("cast Bolt")                               # P1's Bolt on the stack; P2 has priority
    assert m.current_player == 1 and m.question["prompt"] == "Bolt is on top of the stack: respond?"
    m.apply("negate")                                  # P2's Negate on top
    assert m.current_player == 0 and m.question["prompt"] == "Negate is on top of the stack: respond?"
    m.apply("negate")                                  # P1 negates the Negate; nobody has another
    st = m.state()
    labels = [c["label"] for c in st["components"]]
    assert st["zones"]["stack"] == [] and sorted(labels[c] for c in st["zones"]["grave"]) == ["Bolt", "Negate", "Negate"]
    assert m.messages_for(0) == ["Negate is negated"]
    assert st["vars"]["life"] == [2, 1]                # the Bolt resolved last: 1 damage to P2
    assert m.log == ["cast Bolt", "negate", "negate"]


def test_a_negated_spell_does_nothing_and_the_stack_empties(game):
    m = game.new_match(2, 1)
    m.apply("cast Bolt")
    m.apply("negate")                                  # P2 negates; P1 passes
    m.apply("pass")
    st = m.state()
    assert st["vars"]["life"] == [2, 2] and st["zones"]["stack"] == []
    assert m.messages_for(1) == ["Bolt is negated"] and m.current_player == 1


def test_nobody_answers_and_the_spell_resolves_at_once(game):
    m = game.new_match(2, 1)
    m.apply("cast Bolt")
    m.apply("pass")                                    # P2 passes; P1 is asked next: passes too
    assert m.question["prompt"] == "Bolt is on top of the stack: respond?" and m.current_player == 0
    m.apply("pass")
    assert m.state()["vars"]["life"] == [2, 1] and m.question is None


def test_a_block_that_never_moves_the_top_is_a_warning():
    src = DUEL.replace("        move s to grave\n        run effect(cast_by[s]) of s\n", "        life[me] -= 1\n")
    found = [(d.code, d.span.line, d.message) for d in rulelang.check_source(src, "duel.rules")[1] if d.code == "W226"]
    assert found == [("W226", 27, "`resolve s`: its block never moves `s` off the stack, so the same top resolves "
                                  "again and again (until the loop limit): `move s to …`")]
    assert not [d for d in rulelang.check_source(DUEL, "duel.rules")[1] if d.severity == "warning" and d.code != "W254"]
