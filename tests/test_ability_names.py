"""A card's ability named as players know it from the card (`on attacked(a, t) as "Counterattack"`):
a Shadow Hunters trial read "which ability resolves first: Werewolf: attacked, Charles: attacked",
the event's name, where the cards say Counterattack and Bloody Feast."""
from __future__ import annotations

import copy

import pytest

import rulelang
from rulelang.core.errors import RuleError

BELLS = """
game "Bells" {
  players 2
  kind Card { label card }
  zone table: set, public, play
  event rang()
  card Card "Bell" { on rang() as "Alarm" "!" { log "alarm" } }
  card Card "Horn" { on rang() { log "horn" } }
  setup { create cards Card in table }
  turn { step s {
    action ring { emit rang()  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_named_ability_is_offered_by_its_name_when_triggers_wait():
    game = rulelang.Game(rulelang.compile_source(BELLS, "bells.rules"))
    m = game.new_match(2, seed=1)
    m.apply("ring")
    assert m.question["prompt"] == "which ability resolves first"
    assert [a.text for a in m.legal_actions()] == ["Bell: Alarm!", "Horn: rang"]
    m.apply("Horn: rang")
    assert [x if isinstance(x, str) else x["text"] for x in m.messages][-2:] == ["horn", "alarm"]


def test_an_abilitys_name_must_have_words():
    for blank in ('""', '"   "'):        # (a review: "   " read "must have 1 to 200 characters, not 3")
        with pytest.raises(RuleError, match=r"E105.*an ability's name \(`as \"…\"`\) needs words"):
            rulelang.compile_source(BELLS.replace('as "Alarm" "!"', "as " + blank), "bells.rules")


def test_only_a_trigger_is_named():
    """A review: `as "Shield Wall"` on a window's response (or a hook) linted clean and showed nowhere."""
    hooked = BELLS.replace("event rang()", "hook rang()").replace("action ring { emit rang()  end turn }",
                                                                   "action ring { run rang() of first(table)  end turn }")
    with pytest.raises(RuleError, match=r"E105.*only an ability set off by an event is named.*`rang` is a hook"):
        rulelang.compile_source(hooked, "bells.rules")


def test_a_compiled_game_may_name_only_a_cards_on_ability():
    """Untrusted IR: a name on a replacement, or on a top-level trigger, is refused at load."""
    ir = rulelang.compile_source(BELLS, "bells.rules")
    named = next(a for a in ir["abilities"] if a.get("text") == "Alarm!")
    for change in ({"card": None}, {"text": "   "}, {"form": "hook"}):     # (a blank name loaded: a review)
        bad = copy.deepcopy(ir)
        next(a for a in bad["abilities"] if a.get("text") == "Alarm!").update(change)
        with pytest.raises(RuleError, match="E301"):
            rulelang.Game(bad)
    assert named["form"] == "trigger" and named["card"] is not None
