"""Lists as values: joining with `+`, `reverse`, `sort`, indexing and `append` together.

Every position is built by a tiny game and checked exactly; a list that doubles in a loop stops at
the list limit, like a number that doubles stops at the integer limit.
"""
from __future__ import annotations

import pytest

import rulelang

GAME = """
game "Lists" {{
  players 1
  kind Chip {{ v: int  label text(v) }}
  zone pool: pile, public
  zone bag: pile, public
  var out: list[int] = []
  var words: list[text] = []
  var chips: list[Chip] = []
  setup {{ for v in [3, 1, 2] {{ create Chip(v: v) in pool }}  create Chip(v: 9) in bag }}
  turn {{
    step go {{
      action go {{ {body} }}
      action stop {{ finish draw }}
    }}
  }}
}}
"""


def run(body: str) -> dict:
    game = rulelang.Game(rulelang.compile_source(GAME.format(body=body), "lists.rules"))
    m = game.new_match(1, seed=0)
    m.apply("go")
    return m.state()["vars"]


def test_a_text_or_a_list_repeats_with_star_as_the_docs_say():
    """A new author's 6 nimmt: `"*" * bulls` was refused (E201: the left side of `*` must be int),
    and the refusal, typed as int, made two errors more; language.md says `*` repeats them."""
    assert run("out = [0] * 2 + 2 * [1]")["out"] == [0, 0, 1, 1]
    assert run("words = [\"*\" * 3, 0 * \"x\"]")["words"] == ["***", ""]
    with pytest.raises(rulelang.RulelangError, match="the number of times `\\*` repeats text must be int, not text"):
        rulelang.compile_source(GAME.format(body='words = ["*" * "x"]'), "lists.rules")


def test_lists_join_with_plus_in_order():
    assert run("out = [1, 2] + [3] + []")["out"] == [1, 2, 3]


def test_zones_join_as_their_components_bottom_first():
    state = run("chips = pool + bag  out = [c.v for c in chips]")
    assert state["out"] == [3, 1, 2, 9]


def test_reverse_and_sort():
    assert run("out = reverse([3, 1, 2])")["out"] == [2, 1, 3]
    assert run("out = sort([3, 1, 2, 1])")["out"] == [1, 1, 2, 3]
    assert run('words = sort(["pear", "apple"])')["words"] == ["apple", "pear"]
    assert run("out = sort([c.v for c in pool])")["out"] == [1, 2, 3]


def test_indexing_a_list_counts_from_zero():
    assert run("let xs = [5, 6, 7]  out = [xs[0], xs[2]]")["out"] == [5, 7]


def test_append_and_join_together():
    assert run("let xs = [1]  append 2 to xs  out = xs + reverse(xs)")["out"] == [1, 2, 2, 1]


@pytest.mark.parametrize("body, message", [
    ("out = [1] + 2", "cannot add int to a list"),
    ('out = [1] + ["a"]', "cannot be joined"),
    ("chips = sort(pool)", "`sort` needs a list of numbers or of texts"),
])
def test_wrong_list_operations_are_diagnostics(body, message):
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(GAME.format(body=body), "lists.rules")
    assert any(message in d.message for d in err.value.diagnostics), err.value.report()


def test_a_list_doubling_in_a_loop_stops_at_the_list_limit():
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        run("out = [1]  repeat 30 { out = out + out }")
    assert "list limit" in str(err.value)


def test_remove_takes_out_the_first_equal_element_only():
    assert run("out = [1, 2, 1, 3]  remove 1 from out")["out"] == [2, 1, 3]
    assert run("out = [1, 2]  remove 9 from out")["out"] == [1, 2]
    assert run("let xs = [4, 5]  remove 4 from xs  out = xs")["out"] == [5]


def test_remove_leaves_a_copy_held_elsewhere_alone():
    assert run("out = [1, 2]  let before = out  remove 1 from out  out = out + before")["out"] == [2, 1, 2]


def test_remove_of_the_wrong_type_is_a_diagnostic():
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(GAME.format(body='remove "a" from out'), "lists.rules")
    assert any("the value removed from `out`" in d.message for d in err.value.diagnostics)
