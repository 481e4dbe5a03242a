"""Run-time limits: a rule that would hang the machine or eat its memory stops with a rule error.

The security issue's reproducers (a huge range, a subset parameter over 40 elements, `x = x * x` in
a loop, three nested `repeat 10000`) and their relatives (a branching recursive def, a negative
`repeat` that must not refill the budget). Each must end quickly with a RuleRuntimeError naming
the limit, never a MemoryError, a traceback or a hang.
"""
from __future__ import annotations

import json
import time

import pytest

import rulelang

HEAD = """game "L" {
  players 1..2
  kind Chip { n: int  label text(n) }
  zone pool: set
  var x: int = 0
"""


def game(body: str, setup: str = "", defs: str = "") -> rulelang.Game:
    source = HEAD + defs + f"  setup {{ {setup} }}\n  turn {{ step play {{\n{body}\n" \
        "      action stop { finish draw }\n    } }\n}\n"
    return rulelang.Game(rulelang.compile_source(source, "limits.rules"))


# CPU seconds a run may take before it counts as a hang (the slowest takes about 0.7 s). CPU time,
# unlike the wall clock, does not stretch when the machine is busy with other work.
CPU_LIMIT = 10.0


def fails_quickly(run, *words) -> str:
    start = time.process_time()
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        run()
    used = time.process_time() - start
    assert used < CPU_LIMIT, f"{used:.1f} s of CPU time: the limit did not stop it"
    message = str(err.value)
    assert message.startswith("limits.rules:")
    for word in words:
        assert word in message
    return message


def test_a_huge_range_is_a_rule_error_not_a_memory_error():
    g = game("      action big { x = size(1..1000000000) }")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("big"), "range limit")


def test_a_subset_parameter_with_too_many_choices_is_a_rule_error_not_a_hang():
    g = game("      action choose(cs subset of pool size 1..40) { x = size(cs) }",
             setup="repeat 40 { create Chip(n: 1) in pool }")
    fails_quickly(lambda: g.new_match(1).legal_actions(), "subset limit")


def test_an_unrolled_subset_over_a_large_domain_is_refused_too():
    g = game("      action choose(cs subset of pool size 6) { x = size(cs) }",
             setup="repeat 200 { create Chip(n: 1) in pool }")
    fails_quickly(lambda: g.new_match(1).legal_actions(), "subset limit")


def test_squaring_in_a_loop_stops_at_the_integer_limit():
    g = game("      action grow { x = 2  while x > 0 { x = x * x } }")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("grow"), "integer limit")


def test_doubling_by_addition_stops_at_the_integer_limit():
    g = game("      action grow { x = 1  repeat 100 { x = x + x } }")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("grow"), "integer limit")


@pytest.mark.parametrize("start, step", [("4611686018427387904", "x += 1"), ("-4611686018427387904", "x -= 1")])
def test_a_constant_step_from_the_limit_is_refused_and_changes_nothing(start, step):
    # (found by the cost fuzzer: `n += 1` from a literal at the limit was not checked, and the
    # position it made could not be saved and loaded again)
    g = game(f"      action grow {{ {step} }}", setup=f"x = {start}")
    m = g.new_match(1)
    before = m.state()
    fails_quickly(lambda: m.apply("grow"), "integer limit")
    assert m.state() == before
    assert rulelang.Match.from_state(g, json.loads(json.dumps(before))).state() == before


def test_three_nested_repeats_stop_at_the_work_limit():
    g = game("      action spin { repeat 10000 { repeat 10000 { repeat 10000 { x += 1 } } } }")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("spin"), "work limit")


def test_nested_loops_in_setup_stop_at_the_work_limit():
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        game("", setup="for i in 1..10000 { for j in 1..10000 { x += 1 } }").new_match(1)
    assert "work limit" in str(err.value)


def test_a_negative_repeat_does_not_refill_the_budget():
    g = game("      action spin { repeat -100000000 { x += 1 }  repeat 10000 { repeat 10000 { x += 1 } } }")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("spin"), "work limit")


def test_a_branching_recursive_def_stops_at_the_work_limit():
    g = game("      action count { x = fib(60) }",
             defs="  def fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)\n")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("count"), "work limit")


def test_the_budget_is_per_action_so_long_games_do_not_run_out():
    g = game("      action step { repeat 5000 { x += 1 } }")
    m = g.new_match(1)
    for _ in range(1000):                    # 5,000,000 iterations over the match, 5,000 per action
        m.apply("step")
    assert m.state()["vars"]["x"] == 5_000_000


def test_nested_comprehensions_stop_at_the_work_limit():
    deep = "1"
    for _ in range(14):
        deep = f"sum({deep} for i in 1..4)"
    g = game("      action count { x = v }", defs=f"  def v = {deep}\n")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("count"), "work limit")


def test_a_def_with_a_comprehension_called_per_element_is_charged():
    g = game("      action count { x = sum(f(i) for i in 1..3000) }",
             defs="  def f(i) = sum(1 for j in 1..3000)\n")
    m = g.new_match(1)
    fails_quickly(lambda: m.apply("count"), "work limit")


def test_create_inside_a_proc_compiles_and_runs():
    # the code generator used to crash (AttributeError) on this lint-clean file
    g = game("      action more { make(2) }",
             setup="make(1)", defs="  proc make(v) { create Chip(n: v) in pool }\n")
    m = g.new_match(1)
    m.apply("more")
    assert sorted(c["fields"]["n"] for c in m.state()["components"]) == [1, 2]


def test_a_require_looping_over_a_big_zone_for_every_binding_stops_at_the_work_limit():
    # 5,000 bindings, each testing 5,000 chips: 25,000,000 tests in one listing
    g = game("      action pick(c in pool) require any(x.n == c.n + 1 for x in pool) { x = c.n }",
             setup="for i in 1..5000 { create Chip(n: 1) in pool }")
    fails_quickly(lambda: g.new_match(1).legal_actions(), "work limit")


def test_a_def_in_a_require_is_charged_per_binding():
    g = game("      action pick(c in pool) require later(c) { x = c.n }",
             setup="for i in 1..5000 { create Chip(n: 1) in pool }",
             defs="  def later(c) = size([x for x in pool where x.n > c.n]) > 0\n")
    fails_quickly(lambda: g.new_match(1).legal_actions(), "work limit")
