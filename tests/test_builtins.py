"""Builtins are described once (ir/spec.py, `Builtin`): every reader agrees with that description,
and a builtin added there with a runtime function works end to end (`clamp`)."""
from __future__ import annotations

import pytest

import rulelang
from rulelang.editor import lsp
from rulelang.engine.codegen.namespace import NAMESPACE
from rulelang.interop import core as interop
from rulelang.ir.spec import ARG_KINDS, BUILTIN_FUNCTIONS
from rulelang.language.typerules import ARG_TESTS

GAME = """
game "Clamp" {{
  players 1
  var hp: int = 5
  var top_hp: int = 8
  turn {{
    step go {{
      action go {{ {body} }}
      action stop {{ finish draw }}
    }}
  }}
}}
"""


def run(body: str) -> dict:
    game = rulelang.Game(rulelang.compile_source(GAME.format(body=body), "clamp.rules"))
    m = game.new_match(1, seed=0)
    m.apply("go")
    return m.state()["vars"]


@pytest.mark.parametrize("body, hp", [
    ("hp = clamp(hp + 2, 0, top_hp)", 7),
    ("hp = clamp(hp + 9, 0, top_hp)", 8),
    ("hp = clamp(hp - 9, 0, top_hp)", 0),
    ("hp = clamp(3, 3, 3)", 3),
])
def test_clamp_keeps_a_number_within_its_bounds(body, hp):
    assert run(body)["hp"] == hp


def test_clamp_with_its_bounds_the_wrong_way_round_is_a_rule_error_at_its_line():
    with pytest.raises(rulelang.RuleRuntimeError, match="low bound is above the high one") as err:
        run("hp = clamp(hp, 9, 1)")
    assert "clamp.rules:8" in str(err.value)


@pytest.mark.parametrize("body, message", [
    ("hp = clamp(hp, 0)", "`clamp` takes 3 arguments, 2 given"),
    ('hp = clamp("a", 0, 1)', "`clamp` needs a number, not"),
])
def test_clamp_is_checked_from_its_description(body, message):
    with pytest.raises(rulelang.RuleError, match=message):
        rulelang.compile_source(GAME.format(body=body), "clamp.rules")


def test_every_argument_kind_a_description_names_has_a_test_in_the_checker():
    named = {k for b in BUILTIN_FUNCTIONS.values() for k in b.params}
    assert named <= set(ARG_KINDS)
    assert set(ARG_TESTS) == set(ARG_KINDS) - {"any"}


def test_every_builtin_is_documented_and_every_runtime_function_exists():
    for name, b in BUILTIN_FUNCTIONS.items():
        assert b.doc[0].startswith(name) and b.doc[1], name
        assert lsp.BUILTIN_DOCS[name] == b.doc
        assert not b.runtime or NAMESPACE.get(b.runtime) is not None, name
        assert b.low <= b.high
        assert not (b.random and b.pure), name


def test_interop_knows_the_random_builtins_from_the_description():
    assert set(interop.RANDOM_CALLS) == {n for n, b in BUILTIN_FUNCTIONS.items() if b.random} == {"roll", "pick"}


def test_join_puts_a_separator_between_texts():
    game = rulelang.Game(rulelang.compile_source('''game "j" { players 1
      kind C { name: text  label name }
      zone z: set, public
      setup { create C(name: "Ace") in z  create C(name: "King") in z }
      turn { step s { action a { log join([text(c) for c in z], ", ") + "|" + join([], "-") + "|" + join(["x"], "-")
                                 finish draw } } } }''', "j.rules"))
    m = game.new_match(1, seed=0)
    m.apply("a")
    assert m.messages[-1] == "Ace, King||x"


def test_lower_and_trim_read_a_text_as_typed():
    """A browser trial: Smash Up's `factions` option refused "Pirates+Ninjas" and "pirates + ninjas"
    (the rules compared texts as typed, with no way to fold case or drop spaces)."""
    game = rulelang.Game(rulelang.compile_source('''game "t" { players 1
      option name: text = " Pirates + NINJAS "
      turn { step s { action a { log join([lower(trim(x)) for x in split(name, "+")], ",") + "|" + trim("  ")
                                 finish draw } } } }''', "t.rules"))
    m = game.new_match(1, seed=0)
    m.apply("a")
    assert m.messages[-1] == "pirates,ninjas|"
    _, diags = rulelang.check_source('game "t" { players 1  turn { step s { action a { log lower(3) '
                                     ' finish draw } } } }', "t.rules")
    assert [d.code for d in diags if d.severity == "error"] == ["E201"]


def test_join_is_checked_from_its_description():
    _, diags = rulelang.check_source('game "j" { players 1  turn { step s { action a { log join([1, 2], ",") '
                                     ' finish draw } } } }', "j.rules")
    assert [d.message for d in diags if d.severity == "error"] == ["`join` needs a list of texts, not list of int"]


def test_the_text_of_a_zone_is_its_components_labels_as_for_a_list():
    """`text(hand[me])` gave the components' ids (`0, 1`: they follow the order of creation, so
    they could tell which card is which); a new author found it. It reads as `text` of a list."""
    source = """
game "Texts" {
  players 1
  kind Card { n: int  label "C" + text(n) }
  zone hand: set per player, public
  zone pile: pile, public
  setup {
    for i in 1..2 { create Card(n: i) in hand[0] }
    create Card(n: 9) in pile
    log text(hand[0]) + " / " + text([c for c in hand[0]]) + " / " + text(pile)
  }
  turn { step s { action stop { finish draw } } }
}
"""
    m = rulelang.Game(rulelang.compile_source(source, "texts.rules")).new_match(1, seed=0)
    assert m.messages_for(0)[-1] == "C1 C2 / C1 C2 / C9"
