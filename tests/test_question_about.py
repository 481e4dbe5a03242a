"""`choose … about C` and `may … about C`: the component a question is about, named to the seats
that see it and to no other (a browser trial: a Shadow Hunters player handed a hermit card read only
"P2 gave you a hermit card: does it apply to you?" on a phone, the card far below)."""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.core.errors import RuleError, RuleRuntimeError
from rulelang.play.repl import run_repl
from rulelang.web.present import spectator_payload

GIFTS = """
game "Gifts" {
  players 3
  kind Gift { name: text  label name }
  zone hand: set per player, owner
  zone given: set per player, owner
  zone table: set, public
  setup { create Gift(name: "Lantern") in hand[0]  create Gift(name: "Bell") in table }
  turn { step s {
    action give(g in hand[me]) {
      choose r in others about g prompt "Who gets it?" {
        reveal g to [me, r]
        may by r about g prompt "Keep it?" { log "kept" } else { log "refused" }
        move g to given[r]
      }
      end turn
    }
    action ring {
      let b = first(table)
      may about b prompt "Ring it?" { log "rung" }
      finish draw "rung"
    }
  } }
}
"""


def test_a_question_about_a_card_names_it_to_those_who_see_it_only():
    m = rulelang.Game(rulelang.compile_source(GIFTS, "gifts.rules")).new_match(seed=1)
    m.apply("give Lantern")
    assert m.view(0)["choice"]["asker"]["label"] == "Lantern"                 # the giver holds it
    assert all("asker" not in m.view(p)["choice"] for p in (1, 2))           # the others do not see it
    assert "asker" not in spectator_payload(m)["view"]["choice"]
    m.apply("P2")
    assert m.question["chooser"] == 1 and m.question["prompt"] == "Keep it?"
    assert [m.view(p)["choice"].get("asker", {}).get("label") for p in range(3)] == ["Lantern", "Lantern", None]
    m.apply("yes")
    assert m.message_log()[-1]["text"] == "kept"


def test_a_question_about_a_public_card_names_it_to_everyone_and_the_terminal_says_it():
    game = rulelang.Game(rulelang.compile_source(GIFTS, "gifts.rules"))
    m = game.new_match(seed=1)
    m.apply("ring")
    assert [m.view(p)["choice"]["asker"]["label"] for p in range(3)] == ["Bell"] * 3
    assert spectator_payload(m)["view"]["choice"]["asker"]["label"] == "Bell"
    out = io.StringIO()
    run_repl(game, 3, 1, {}, {}, io.StringIO("ring\nquit\n"), out, "gifts.rules", screen=(100, 40))
    assert "▶ you must choose: Bell: Ring it?" in out.getvalue()


def test_about_must_be_a_component():
    bad = GIFTS.replace("choose r in others about g", "choose r in others about 3")
    with pytest.raises(RuleError) as caught:
        rulelang.compile_source(bad, "gifts.rules")
    assert "E201" in str(caught.value) and "a question is `about` a component" in str(caught.value)


def test_shadow_hunters_hermit_questions_name_the_card_to_its_giver_and_receiver_only():
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "shadow_hunters.rules"))
    asked = 0
    for seed in range(60):
        m = game.new_match(4, seed)
        rng = random.Random(seed)
        while not m.is_over and asked < 6:
            q = m.question
            prompt = str((q or {}).get("prompt"))
            if "hermit card" in prompt.lower():
                giver = m.current_player if "Who do you give" in prompt else None
                labels = [m.view(p)["choice"].get("asker", {}).get("label") for p in range(4)]
                named = {p for p in range(4) if labels[p] is not None}
                assert named and all(str(labels[p]).startswith("Hermit's") for p in named), labels
                assert all(m.view(p)["choice"]["asker"]["source"] in m.visible_to(p) for p in named)
                assert q["chooser"] in named and len(named) <= 2, (prompt, labels)
                assert "asker" not in spectator_payload(m)["view"]["choice"]
                asked += giver is None
            acts = m.legal_actions()
            m.apply(acts[rng.randrange(len(acts))])
        if asked >= 6:
            break
    assert asked >= 6


@pytest.mark.parametrize("bad", [9999, -5, "abc"])
def test_a_crafted_ir_whose_question_is_about_no_component_is_a_rule_error(bad, tmp_path):
    """IR is shared between people: `about` worked out to no component is a one-line rule error,
    never an IndexError from the views."""
    import json
    ir = rulelang.compile_source(GIFTS, "gifts.rules")

    def walk(x):
        if isinstance(x, dict):
            if x.get("s") in ("choose", "may") and "about" in x:
                x["about"] = {"k": "lit", "v": bad}
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(ir)
    path = tmp_path / "gifts.json"
    path.write_text(json.dumps(ir), encoding="utf-8")
    m = rulelang.load(str(path)).new_match(seed=1)
    with pytest.raises(RuleRuntimeError) as caught:
        m.apply("give Lantern")
    assert "a question is `about` a component, not" in str(caught.value)
    assert [str(a) for a in m.legal_actions()] == ["give Lantern", "ring"]     # (nothing changed)


def test_about_none_names_no_card_even_in_a_cards_hook():
    """A fuzz trial: `may about none …` inside a card's hook still named the hook's card."""
    hooks = rulelang.Game(rulelang.compile_source("""
game "Hooks" {
  players 2
  hook play()
  kind Gift { name: text  label name }
  card Gift "Lantern" { name: "Lantern"
    on play() { may about none prompt "Ring it?" { log "rung" } }
  }
  card Gift "Bell" { name: "Bell"
    on play() { may prompt "Ring it?" { log "rung" } }
  }
  zone hand: set per player, public
  zone table: set, public
  setup { create cards Gift in hand[0] }
  turn { step s {
    action use(g in hand[me]) { run play() of g  move g to table  end turn }
    action skip { finish draw "x" }
  } }
}
""", "hooks.rules"))
    m = hooks.new_match(seed=1)
    m.apply("use Lantern")
    assert "asker" not in m.view(0)["choice"]
    m = hooks.new_match(seed=1)
    m.apply("use Bell")
    assert m.view(0)["choice"]["asker"]["label"] == "Bell"          # (no `about`: the hook's card)
