"""The front end's dispatches over node kinds are exhaustive: a kind one of them was not taught is
an AssertionError (a bug in rulelang), never a silent default — and every kind the parser makes,
and every builtin in the engine's table (irspec), is taught to each of them."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulelang.ir import spec as irspec
from rulelang.language import lints, nodes as n
from rulelang.language.checker import Checker
from rulelang.core.errors import Span
from rulelang.language.parser import parse

SPAN = Span("x.rules", 1, 1)
STATEMENTS = (n.Move, n.Shuffle, n.Eliminate, n.Assign, n.Append, n.Remove, n.Let, n.If, n.For, n.While, n.Repeat, n.Goto, n.EndTurn, n.Finish,
              n.CallStmt, n.Create, n.CreateFrom, n.Log, n.CreateCards, n.Choose, n.May, n.Emit, n.Open, n.RunHook,
              n.Reveal, n.Grant, n.Resolve, n.ResolveTriggers)
GAME = """
game "All" {
  players 2
  kind Chip { v: int }
  zone pool: pile, public
  zone hand: set per player, owner
  event taken_one(c: Chip)
  window after_take(c: Chip)
  hook on_take()
  card Chip "One" { v: 1 copies: 1 }
  def worth(c: Chip) = c.v
  var total: int = 0
  var taken: list[int] = []
  proc tally() { total += 1 }
  setup { repeat 3 { create Chip(v: 1) in pool } create cards Chip where v > 0 in pool shuffle pool }
  turn {
    step take {
      action quit { eliminate me  turn_order = reverse(turn_order)  end turn }
      action take(c in pool) {
        let k = c.v
        append k to taken
        remove k from taken
        move c to hand[me]
        if k > 0 { total += k } else { log "nothing" }
        for x in hand[me] { tally() }
        while false { goto take }
        choose d in pool where d.v > 0 optional { reveal d to me }
        may { log "yes" to me }
        modify worth(c) += 1 until turn_end
        emit taken_one(c)
        resolve triggers
        open after_take(c)
        open after_take(c) then resolve t from pool { move t to hand[me] }
        run on_take() of c
        if size(pool) == 0 { finish win for me }
        end turn
      }
    }
  }
}
"""


@dataclass(frozen=True, eq=False)
class Teleport(n.Node):
    """A statement kind no pass knows."""
    where: str = "moon"


def test_every_statement_kind_is_one_the_lints_classify():
    """The statement classes of nodes.py (its "statements" section) are the ones listed here, and
    the lints put each in exactly one class: simple, jump, block or call."""
    source = Path(n.__file__).read_text(encoding="utf-8")
    section = source[source.index("# ---- statements"):source.index("# ---- declarations")]
    declared = {getattr(n, name) for name in re.findall(r"^class (\w+)\((?:Node|While)\)", section, re.M)} - {n.LValue}
    assert declared == set(STATEMENTS)
    kinds = [set(lints.SIMPLE_STATEMENTS), set(lints.JUMPS), {n.If, n.For, n.While, n.Resolve, n.Repeat}, {n.CallStmt},
             set(lints.CHOICES), set(lints.ABILITY_STATEMENTS)]
    assert sorted(c.__name__ for k in kinds for c in k) == sorted(c.__name__ for c in STATEMENTS)


def test_an_unknown_statement_is_a_bug_in_the_checker():
    checker = Checker(parse(GAME, "x.rules"))
    checker.collect()
    with pytest.raises(AssertionError, match="unknown statement node Teleport"):
        checker.stmt(Teleport(SPAN))
    with pytest.raises(AssertionError, match="unknown declaration node Teleport"):
        checker.check_decl(Teleport(SPAN))


def test_an_unknown_statement_is_a_bug_in_the_lints():
    checker = Checker(parse(GAME, "x.rules"))
    checked = checker.run()
    assert checked.ok
    lint = lints.StaticLint(checked)
    for ask in (lambda s: lint.stmt_exits(s, quiet=True, dead=False), lint.no_progress, lints._blocks_of,
                lint.consts.value):
        with pytest.raises(AssertionError, match="unknown (statement|expression) node Teleport"):
            ask(Teleport(SPAN))


def test_every_statement_kind_of_a_real_file_passes_every_dispatch():
    checked = Checker(parse(GAME, "x.rules")).run()
    lint = lints.StaticLint(checked)
    seen = set()
    for x in n.walk(checked.game):
        if isinstance(x, STATEMENTS):
            seen.add(type(x))
            lint.stmt_exits(x, quiet=True, dead=False)
            lints._blocks_of(x)
    assert seen == set(STATEMENTS) - {n.CreateFrom}          # (that one needs a YAML file: tests/test_content.py)


@pytest.mark.parametrize("name", sorted(irspec.BUILTIN_FUNCTIONS))
def test_every_builtin_of_the_engine_has_a_result_type_in_the_checker(name):
    builtin = irspec.BUILTIN_FUNCTIONS[name]
    checker = Checker(parse(GAME, "x.rules"))
    args = [n.Lit(SPAN, 0)] * builtin.low
    t = checker.builtin_result(n.Call(SPAN, name, tuple(args)), name, ["any"] * builtin.low, args)
    assert isinstance(t, str) and t


def test_the_checker_reads_the_engines_builtin_table():
    from rulelang.language import checker
    assert checker.BUILTIN_FUNCTIONS is irspec.BUILTIN_FUNCTIONS
    assert checker.BUILTIN_VALUES is irspec.BUILTIN_VALUES
    assert set(checker.AGGREGATES) <= set(irspec.BUILTIN_FUNCTIONS)
    with pytest.raises(AssertionError, match="no result type for the builtin `teleport`"):
        Checker(parse(GAME, "x.rules")).builtin_result(n.Call(SPAN, "teleport", ()), "teleport", ["any"], [])


def test_every_statement_kind_has_its_own_check():
    from rulelang.language.check_statements import STATEMENT_CHECKS
    assert set(STATEMENT_CHECKS) == set(STATEMENTS)
