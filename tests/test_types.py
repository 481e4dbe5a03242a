"""One value check (rulelang/core/types.py) for its three callers, which therefore agree.

Restoring a position (`Match.from_state`), the deep lint's check of every position it reaches
(rulelang/playtest.py) and the YAML content loader (rulelang/language/content.py) each ask whether a value
fits a declared type. Here each is asked the same questions, through its own entry point, and
must give the verdict in the table (the content loader only for the types a YAML row can give).
"""
from __future__ import annotations

import json

import pytest

import rulelang
from rulelang.language import content
from rulelang import playtest
from rulelang.core.errors import Span, StateError
from rulelang.core.types import Context, ValueType

RULES = """
game "Types" {
  players 2
  enum Suit { hearts "H", spades "S" }
  kind Card { rank: int }
  kind Chip { v: int }
  board grid: squares(3, 3)
  zone deck: pile, public
  var n: int = 0
  var b: bool = false
  var t: text = "x"
  var s: Suit = hearts
  var p: player = 0
  var c: cell = none
  var card: Card = none
  var ns: list[int] = []
  var a: any = none
  setup { create Card(rank: 1) in deck  create Chip(v: 1) in deck }
  turn { step go { action stop { finish win for me } } }
}
"""
FIELD_TYPES = {"n": "int", "b": "bool", "t": "text", "s": "enum:Suit"}       # what a YAML row can give
ENUMS = {"Suit": ["hearts", "spades"]}

# (variable, value, fits?) — the variable's type is in RULES; component 0 is a Card, 1 a Chip
CASES = [
    ("n", 3, True), ("n", -3, True), ("n", True, False), ("n", "3", False), ("n", None, False),
    ("n", 2 ** 70, False), ("n", 1.5, False),
    ("b", True, True), ("b", 1, False), ("b", None, False),
    ("t", "x", True), ("t", None, True), ("t", 3, False), ("t", ["x"], False),
    ("s", "hearts", True), ("s", None, True), ("s", "clubs", False), ("s", "Hearts", False), ("s", 0, False),
    ("p", 1, True), ("p", 2, False), ("p", -1, False), ("p", True, False),
    ("c", 8, True), ("c", 9, False), ("c", "a1", False),
    ("card", 0, True), ("card", 1, False), ("card", 5, False),
    ("ns", [1, 2], True), ("ns", [], True), ("ns", [1, "x"], False), ("ns", 1, False),
    ("a", [1, ["x", None]], True), ("a", {"x": 1}, False),
]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("types") / "types.rules"
    path.write_text(RULES, encoding="utf-8")
    return rulelang.load(str(path))


def engine_verdict(game, name, value) -> bool:
    data = game.new_match(2, 1).state()
    data["vars"][name] = value
    try:
        rulelang.Match.from_state(game, data)
    except StateError as err:
        assert f"variable `{name}` holds" in str(err), err
        return False
    return True


def deep_lint_verdict(game, name, value) -> bool:
    match = game.new_match(2, 1)
    data = match.state()
    data["vars"][name] = value
    problem = playtest._invariants(match, game.ir, data)
    assert problem is None or f"variable `{name}` holds" in problem, problem
    return problem is None


def content_verdict(tmp_path, name, value) -> bool:
    (tmp_path / "rows.yaml").write_text(f"- f: {json.dumps(value)}\n", encoding="utf-8")
    rows, diags, _ = content.load_rows(str(tmp_path / "x.rules"), "rows.yaml", Span("x.rules", 1, 1), "K",
                                       {"f": (FIELD_TYPES[name], False)}, ENUMS)
    assert all(d.code == "E504" for d in diags), diags
    return not diags


@pytest.mark.parametrize("name, value, fits", CASES, ids=[f"{n}={v!r}" for n, v, _ in CASES])
def test_the_three_callers_agree(game, tmp_path, name, value, fits):
    declared = ValueType.parse(game.var_types[name])
    context = game.new_match(2, 1).type_context()
    assert declared.fits(value, context) is fits
    assert engine_verdict(game, name, value) is fits
    assert deep_lint_verdict(game, name, value) is fits
    if name in FIELD_TYPES:
        assert content_verdict(tmp_path, name, value) is fits


def test_a_value_that_is_not_an_enum_member_is_named_readably(game, tmp_path):
    data = game.new_match(2, 1).state()
    data["vars"]["s"] = "clubs"
    with pytest.raises(StateError, match="variable `s` holds 'clubs', which is not a Suit value"):
        rulelang.Match.from_state(game, data)
    match = game.new_match(2, 1)
    assert "which is not a Suit value" in playtest._invariants(match, game.ir, data)
    (tmp_path / "rows.yaml").write_text("- f: hearst\n", encoding="utf-8")
    _, diags, _ = content.load_rows(str(tmp_path / "x.rules"), "rows.yaml", Span("x.rules", 1, 1), "K",
                                    {"f": ("enum:Suit", False)}, ENUMS)
    assert [(d.code, d.message, d.suggestion) for d in diags] == [
        ("E504", "field `f` must be one of hearts, spades, not 'hearst'", "hearts")]


def test_type_strings_parse_and_describe():
    assert [ValueType.parse(t).describe() for t in ("int", "text", "enum:Suit", "comp:*", "comp:Card",
                                                    "list:list:player", "cell", "whatever")] == [
        "number", "text", "Suit value", "component", "Card component", "list of list of player", "cell", "value"]
    assert [ValueType.parse(t).with_article() for t in ("int", "text", "enum:Element", "list:int")] == [
        "a number", "text", "an Element value", "a list of number"]
    assert str(ValueType.parse("list:enum:Suit")) == "list:enum:Suit"


def test_ids_are_checked_only_where_the_context_knows_them():
    """The YAML loader has no match: a player, cell or component id is then only a number ≥ 0."""
    loose, tight = Context(), Context(players=2, cells=0, kinds=["Card"])
    for text, value in (("player", 5), ("cell", 3), ("comp:Card", 4)):
        assert ValueType.parse(text).fits(value, loose) and not ValueType.parse(text).fits(value, tight)
        assert not ValueType.parse(text).fits(-1, loose)
