"""`append E to xs`: the statement added to show how a statement kind is added (docs/engine.md).

It adds a value at the end of a list — a local, a variable, or one player's entry of a per-player
variable — as a new list, so a clone of the match or a local holding the old list is unaffected.
"""
from __future__ import annotations

import pytest

import rulelang

GAME = """
game "Tally" {
  players 2
  kind Chip { v: int  label text(v) }
  zone pool: pile, public
  var seen: list[int] = []
  var mine: list[Chip] = [] per player
  var tens: list[int] = []
  setup { for v in 1..3 { create Chip(v: v) in pool } }
  turn {
    step take {
      action take(c in pool) {
        append c.v to seen
        append c to mine[me]
        let before = seen
        let xs = []
        for v in seen { append v * 10 to xs }
        append 0 to xs
        tens = xs
        if size(before) != size(seen) { finish lose }
        move c to top of pool
        if size(seen) == 4 { finish draw }
        end turn
      }
    }
  }
}
"""


@pytest.fixture
def game():
    return rulelang.Game(rulelang.compile_source(GAME, "tally.rules"))


def test_append_adds_at_the_end_of_variables_entries_and_locals(game):
    m = game.new_match(2, seed=1)
    m.apply("take 3")                     # the top of the pile: the last one created
    m.apply("take 3")
    state = m.state()
    assert state["vars"]["seen"] == [3, 3]
    chips = {c["label"]: i for i, c in enumerate(state["components"])}
    assert state["vars"]["mine"] == [[chips["3"]], [chips["3"]]]
    assert state["vars"]["tens"] == [30, 30, 0]


def test_a_clone_keeps_its_own_list(game):
    m = game.new_match(2, seed=1)
    m.apply("take 3")
    copy = m.clone()
    m.apply("take 3")
    assert copy.state()["vars"]["seen"] == [3] and m.state()["vars"]["seen"] == [3, 3]


def test_append_is_in_the_ir_and_checked_by_the_engine(game):
    body = game.ir["steps"][0]["actions"][0]["body"]
    assert body[0]["s"] == "append" and body[0]["target"] == {"k": "var", "n": "seen", "i": None}


@pytest.mark.parametrize("stmt, message", [
    ("append 1 to nowhere", "unknown variable `nowhere`"),
    ("append 1 to score", "`append` needs a list, `score` is"),
    ('append "x" to seen', "the value appended to `seen`"),
    ("append 1 to mine", "is per player: say which"),
])
def test_a_wrong_append_is_a_diagnostic(stmt, message):
    source = GAME.replace("append c.v to seen", stmt).replace("var tens", "var score: int = 0\n  var tens")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(source, "tally.rules")
    assert any(message in d.message for d in err.value.diagnostics), err.value.report()


def test_a_list_grows_only_to_the_list_limit(game):
    from rulelang.core.limits import LIST_LIMIT
    # (an append copies the list, and the copy is charged to the work limit: the list is made long at
    # once, then appended to; the loop appending to a copy of it element by element is left out)
    source = GAME.replace("append c.v to seen", f"if size(seen) == 0 {{ seen = 1..{LIST_LIMIT - 1} }}  "
                          "append c.v to seen").replace("for v in seen { append v * 10 to xs }", "")
    g = rulelang.Game(rulelang.compile_source(source, "tally.rules"))
    m = g.new_match(2, seed=1)
    m.apply("take 3")
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        m.apply("take 3")
    assert "list limit" in str(err.value)
