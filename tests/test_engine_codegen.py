"""The compiled engine keeps the language's meaning: enumeration order, pruning that never changes
which bindings are legal or which error is raised, the random generator's calls, copies that stay
independent. Each rule file here is tiny and the expected result is worked out by plain Python."""
from __future__ import annotations

import json
from itertools import combinations

import pytest

import rulelang
from rulelang import Match
from rulelang.engine.chance import listing_generator

CARDS = """
game "Cards" {{
  players 1..2
  kind Card {{
    v: int
    label "c" + text(v)
  }}
  zone pool: pile, public
  zone hand: pile per player, public
  zone box: pile, public, capacity 3
  var lim: int = 2
  setup {{ for v in [{values}] {{ create Card(v: v) in pool }} }}
  turn {{
    step s {{
      {actions}
      action stop {{ finish draw }}
    }}
  }}
}}
"""


def game(tmp_path, actions: str, values: str = "3, 0, 4, 1, 5, 2, 2", name: str = "cards") -> rulelang.Game:
    path = tmp_path / f"{name}.rules"
    path.write_text(CARDS.format(values=values, actions=actions), encoding="utf-8")
    return rulelang.load(str(path))


def texts(m) -> list[str]:
    return [str(a) for a in m.legal_actions()]


@pytest.mark.parametrize("size", ["1..3", "2", "0..2", "1..lim", "0..lim"])
def test_subsets_come_in_combination_order_filtered_by_require(tmp_path, size):
    """(The empty subset reads `pick`, not `pick `: a new author's Yahtzee could not `apply("keep")`.)"""
    g = game(tmp_path, f"action pick(xs subset of pool size {size}) require sum(x.v for x in xs) % 2 == 0 "
                       "{ move xs to hand[me] }")
    m = g.new_match(1, 0)
    values = [3, 0, 4, 1, 5, 2, 2]
    lo, hi = {"1..3": (1, 3), "2": (2, 2), "0..2": (0, 2), "1..lim": (1, 2), "0..lim": (0, 2)}[size]
    want, seen = [], set()
    for k in range(lo, hi + 1):
        for combo in combinations(values, k):
            text = " ".join(["pick"] + [f"c{v}" for v in combo])
            if sum(combo) % 2 == 0 and text not in seen:      # two cards are labelled c2: first one wins
                seen.add(text)
                want.append(text)
    assert texts(m) == want + ["stop"]
    if lo == 0:
        m.clone().apply("pick ")               # (the text an empty subset had before: in old saves)
    m.apply(want[-1])
    assert [c["label"] for c in m.view(0)["zones"][1]["cards"]] == want[-1].split()[1:]


def test_a_pair_of_parameters_pruned_early_gives_the_same_bindings(tmp_path):
    g = game(tmp_path, "action two(x in pool, y in pool) require x.v > 1 and y.v < x.v and (x.v + y.v) % 3 != 0 "
                       "{ move x to hand[me] }")
    values = [3, 0, 4, 1, 5, 2, 2]
    want = list(dict.fromkeys(f"two c{x} c{y}" for x in values for y in values
                              if x > 1 and y < x and (x + y) % 3 != 0))
    assert texts(g.new_match(1, 0)) == want + ["stop"]


def test_a_pruning_test_that_fails_reports_the_error_of_the_binding_the_rules_reach_first(tmp_path):
    # 10 / x.v fails for the card 0; it depends on x only, so it is tested before y is bound;
    # the error must still be the one the rules give at (c0, the first y), on the require's line
    g = game(tmp_path, "action two(x in pool, y in [1, 2]) require 10 / x.v > 1 and y > 0 { finish draw }")
    with pytest.raises(rulelang.RuleRuntimeError, match=r"cards\.rules:\d+: division by zero"):
        g.new_match(1, 0)
    # and a test after a cheaper one that fails first raises nothing at all
    ok = game(tmp_path, "action two(x in pool, y in [1, 2]) require y > 5 and 10 / x.v > 1 { finish draw }",
              name="ok")
    assert texts(ok.new_match(1, 0)) == ["stop"]


def test_a_require_that_rolls_dice_rolls_once_per_binding_in_order(tmp_path):
    """From the position's own generator (chance.list_in_position): a restored match lists what the match
    listed, and listing leaves the match's generator as it was."""
    g = game(tmp_path, "action guess(n in [1, 2, 3], x in pool) require roll(6) + n > 6 { finish draw }",
             values="7, 8")
    m = g.new_match(1, 5)
    data = m.state()
    restored = Match.from_state(g, data)
    rng = listing_generator(restored)
    want = [f"guess {n} c{v}" for n in (1, 2, 3) for v in (7, 8) if rng.randint(1, 6) + n > 6]
    assert texts(restored) == want + ["stop"] == texts(m)
    assert restored.state()["rng"] == data["rng"]


def test_clones_are_independent_even_when_they_create_components(tmp_path):
    g = game(tmp_path, "action make(x in pool) { create Card(v: x.v + 10) in hand[me]  move x to hand[me] }")
    m = g.new_match(2, 3)
    m.apply("make c4")
    before = m.state()
    c = m.clone()
    c.apply("make c5")
    assert m.state() == before
    assert len(c.state()["components"]) == len(before["components"]) + 1
    m.apply("make c1")
    assert [x["label"] for x in m.state()["components"]][-1] == "c11"
    assert [x["label"] for x in c.state()["components"]][-1] == "c15"
    assert Match.from_state(g, c.state()).state() == c.state()


def test_capacity_is_checked_for_named_and_computed_destinations(tmp_path):
    path = tmp_path / "proc.rules"
    path.write_text(CARDS.format(values="1, 2, 3, 4",
                                 actions="action fill(xs subset of pool size 4) { move xs to box }\n"
                                         "      action send(x in pool) { send_to(x, box) }")
                    .replace('  turn {', '  proc send_to(x, z) { move x to z }\n  turn {'), encoding="utf-8")
    g = rulelang.load(str(path))
    m = g.new_match(1, 0)
    with pytest.raises(rulelang.RuleRuntimeError, match="zone `box` holds 4 components, over its capacity 3"):
        m.apply("fill c1 c2 c3 c4")
    m = g.new_match(1, 0)                   # (a rule error leaves its match half-way through the effect)
    for label in ("c1", "c2", "c3"):
        m.apply(f"send {label}")
    with pytest.raises(rulelang.RuleRuntimeError, match="over its capacity 3"):
        m.apply("send c4")


DEF_ERROR = """
game "Shares" {
  players 2
  var n: int = 0
  def share(k) = 10 / k
  def ratio = share(n - 2)
  turn { step act {
    action go { n += 1  if n == 2 { n = ratio }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_rule_error_in_a_def_written_into_its_caller_names_the_def_and_its_line():
    """A new author's trial: `10 / k` failed in `share`, line 5, and the message named only the
    action's line 8 (the def's body is written into the caller's code)."""
    m = rulelang.Game(rulelang.compile_source(DEF_ERROR, "shares.rules")).new_match(2, 0)
    m.apply("go")
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        m.apply("go")
    assert str(err.value) == ("shares.rules:8: division by zero "
                              "(here or in a def this line reads: `ratio` of line 6, `share` of line 5)")


def test_a_flow_that_never_settles_names_the_step_and_what_moves_it():
    source = """
game "Loop" {
  players 2
  var n: int = 0
  turn {
    step a { enter { if n >= 0 { goto b } } action x { finish draw } }
    step b { enter { n += 1  goto a } action y { finish draw } }
  }
}
"""
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        rulelang.Game(rulelang.compile_source(source, "loop.rules")).new_match(2, 0)
    assert str(err.value).startswith("loop.rules:7: the flow never settles: 1000 step changes in one action "
                                     "(last step `b`): ")
    assert "make one of them depend on what an action changes" in str(err.value)


def test_a_flow_where_every_player_is_stuck_says_on_stuck_runs_turn_after_turn():
    """A new author's Splendor: every player stuck, `on stuck { end turn }`, met the flow limit long
    before its `turn limit 600` — and the message named every cause but `on stuck`."""
    source = """
game "Jammed" {
  players 3
  var door: bool = true
  turn limit 600 { finish draw "the turn limit" }
  turn { step s { action go require door { finish draw "went" } action shut require door { door = false  end turn } } }
  on stuck { end turn }
}
"""
    game = rulelang.Game(rulelang.compile_source(source, "jammed.rules"))
    m = game.new_match(3, 0)
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        m.apply("shut")                          # (now nobody can act, ever)
    assert str(err.value).startswith("jammed.rules:7: the flow never settles: 1000 step changes in one action, "
                                     "and `on stuck` ran "), str(err.value)
    assert "no player can act, turn after turn; end the game in `on stuck` when nobody can" in str(err.value)
    assert [str(a) for a in m.legal_actions()] == ["go", "shut"]      # (the match as it was before)


def test_a_computed_move_target_must_be_a_zone(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(CARDS.format(values="1, 2", actions="action odd(x in pool) { send_to(x, [x]) }")
                    .replace('  turn {', '  proc send_to(x, z) { move x to z }\n  turn {'), encoding="utf-8")
    g = rulelang.load(str(path))
    m = g.new_match(1, 0)
    with pytest.raises(rulelang.RuleRuntimeError, match="not a zone"):
        m.apply("odd c1")


def test_rule_errors_name_the_line_of_the_rule(tmp_path):
    g = game(tmp_path, "action boom(x in pool) { lim = 10 / (x.v - 3) }", values="3")
    m = g.new_match(1, 0)
    line = next(i for i, t in enumerate(open(g.ir["source"], encoding="utf-8").read().splitlines(), 1)
                if "boom" in t)
    with pytest.raises(rulelang.RuleRuntimeError, match=rf"cards\.rules:{line}: division by zero"):
        m.apply("boom c3")


# ---- the second round of speed-ups (docs/performance.md) ----

def test_negated_all_and_any_in_a_require_are_tested_as_loops(tmp_path):
    g = game(tmp_path, "action up(x in pool) require not all(y.v != x.v + 1 for y in pool) { finish draw }\n"
                       "      action top(x in pool) require not any(y.v > x.v for y in pool where y.v != 5) "
                       "{ finish draw }")
    values = [3, 0, 4, 1, 5, 2, 2]
    up = [f"up c{x}" for x in values if not all(y != x + 1 for y in values)]
    top = [f"top c{x}" for x in values if not any(y > x for y in values if y != 5)]
    assert texts(g.new_match(1, 0)) == list(dict.fromkeys(up)) + list(dict.fromkeys(top)) + ["stop"]
    assert "(not all(" not in g.lowerer.python and "(not any(" not in g.lowerer.python


BOARD = """
game "Jumps" {
  players 1..1
  board field: squares(3, 3)
  kind Stone { n: int
    label "s" + text(n) }
  zone stack: pile per cell of field, public
  zone box: pile, public
  def two_away(from) = [last(line(from, d, 2)) for d in directions(field) where size(line(from, d, 2)) == 2]
  setup {
    for n in [1, 2, 3] { create Stone(n: n) in box }
    move top(box) to stack[cell(field, "a1")]
    move top(box) to stack[cell(field, "b2")]
    move top(box) to stack[cell(field, "c1")]
  }
  turn {
    step s {
      action jump(from in cells(field), to in two_away(from)) require size(stack[from]) > 0 and size(stack[to]) == 0 {
        move stack[from] to stack[to]
      }
      action stop { finish draw }
    }
  }
}
"""


def test_memoised_board_defs_of_a_cell_loop_keep_their_results_in_a_table(tmp_path):
    path = tmp_path / "jumps.rules"
    path.write_text(BOARD, encoding="utf-8")
    g = rulelang.load(str(path))
    assert "_fill(" in g.lowerer.python          # two_away(from): a table indexed by cells
    names = [f"{c}{r}" for r in (1, 2, 3) for c in "abc"]

    def want(full):
        out = []
        for f in names:
            if f not in full:
                continue
            c, r = "abc".index(f[0]), int(f[1])
            for dc, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):     # b2, the centre, has no target
                c2, r2 = c + 2 * dc, r + 2 * dr
                t = f"{'abc'[c2]}{r2}" if 0 <= c2 < 3 and 1 <= r2 <= 3 else None
                if t is not None and t not in full:
                    out.append(f"jump {f} {t}")
        return sorted(out, key=lambda a: (names.index(a.split()[1]), a))
    full = {"a1", "b2", "c1"}
    m = g.new_match(1, 0)
    for _ in range(4):                           # the same answers, position after position
        got = [t for t in texts(m) if t != "stop"]
        assert sorted(got) == sorted(want(full)) and len(got) == len(set(got))
        move = got[0].split()
        full = (full - {move[1]}) | {move[2]}
        m.apply(" ".join(move))


def test_a_batch_of_creates_in_two_zones_gives_every_match_the_same_components(tmp_path):
    g = game(tmp_path, "action take(x in box) { move x to hand[me] }", values="1, 2")
    path = tmp_path / "cards.rules"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "setup {{ for v in [1, 2] {{ create Card(v: v) in pool }} }}".replace("{{", "{").replace("}}", "}"),
        "setup { for v in [1, 2] { create Card(v: v) in pool  create Card(v: v + 10) in bottom of box } }"),
        encoding="utf-8")
    g = rulelang.load(str(path))
    a, b = g.new_match(1, 0), g.new_match(1, 1)
    for m in (a, b):
        zones = m.state()["zones"]
        labels = [c["label"] for c in m.state()["components"]]
        assert [labels[c] for c in zones["pool"]] == ["c1", "c2"]
        assert [labels[c] for c in zones["box"]] == ["c12", "c11"]
    assert a.state()["components"] == b.state()["components"]
    a.apply("take c11")
    assert [x["label"] for x in a.view(0)["zones"][1]["cards"]] == ["c11"]
    assert Match.from_state(g, b.state()).state() == b.state()


def test_a_turn_limit_ends_the_match_when_no_turn_handler_is_declared(tmp_path):
    path = tmp_path / "limit.rules"
    path.write_text(CARDS.format(values="1", actions="action pass_on { end turn }")
                    .replace("  turn {", "  turn limit 5 { finish draw }\n  turn {"), encoding="utf-8")
    g = rulelang.load(str(path))
    m = g.new_match(2, 0)
    seen = []
    while not m.is_over:
        seen.append(m.current_player)
        m.apply("pass on")
    assert seen == [0, 1, 0, 1, 0]
    assert m.outcome["results"] == ["draw", "draw"]


# ---- the third round (issue 17): listing memo, comprehension guards ----

def game_with(tmp_path, defs: str, actions: str, values: str) -> rulelang.Game:
    path = tmp_path / "defs.rules"
    path.write_text(CARDS.format(values=values, actions=actions).replace("  setup {", defs + "\n  setup {"),
                    encoding="utf-8")
    return rulelang.load(str(path))


BIGGER = "  def bigger(x) = [y for y in pool where y.v > x.v]"


def test_a_def_memoised_per_listing_is_fresh_in_each_listing_and_unused_in_effects(tmp_path):
    # `bigger(x)` reads the match (a comprehension over pool): kept while one listing runs, then
    # dropped — after `take` moves a card, the next listing and the effect itself see the change
    g = game_with(tmp_path, BIGGER, "action take(x in pool) require size(bigger(x)) < 3 {\n"
                                    "        let before = size(bigger(top(pool)))\n"
                                    "        move top(pool) to hand[me]\n"
                                    "        log text(before) + \" \" + text(size(bigger(x))) }",
                  values="3, 0, 4, 1, 5, 2")
    assert "bigger" in g.lowerer.listing_memo_defs and "lm = m.lm" in g.lowerer.python
    # (the listing inlines `bigger` and reads no memo, so with the fast path `bare` it opens none:
    # the effect's expressions do, `_scoped`; without `bare` the listing opens one as well)
    assert ("m.lm = {}" in g.lowerer.python) == ("bare" not in g.lowerer.opt)
    m = g.new_match(1, 0)
    pool = [3, 0, 4, 1, 5, 2]
    while True:
        want = [f"take c{x}" for x in pool if sum(y > x for y in pool) < 3]
        assert texts(m) == want + ["stop"]
        assert m.lm is None                     # closed once the listing is made
        if not want:
            break
        x = int(want[0][len("take c"):])
        top = pool[-1]
        before = sum(y > top for y in pool)
        m.apply(want[0])
        pool.pop()
        assert m.messages_for(0)[-1] == f"{before} {sum(y > x for y in pool)}"


def test_a_listing_that_fails_closes_its_memo(tmp_path):
    g = game_with(tmp_path, BIGGER, "action take(x in pool) require size(bigger(x)) < 3 and (lim > 0 or "
                                    "top(hand[me]).v > 0) { finish draw }\n      action brk { lim = 0 }",
                  values="3, 4")
    m = g.new_match(1, 0)
    assert texts(m) == ["take c3", "take c4", "brk", "stop"]
    with pytest.raises(rulelang.RuleRuntimeError):
        m.apply("brk")                          # the next listing reads top of an empty hand
    assert m.lm is None


def test_a_comprehension_tests_what_does_not_read_its_variable_before_making_its_list(tmp_path):
    # `first_of(p)` fails for a player with an empty hand (a field of `none`); `p == me` does not
    # read `c`, so it is tested first and the other hands' lists are never made
    g = game_with(tmp_path, "  def first_of(p) = [top(hand[p]).v]",
                  "action peek require size(hand[me]) > 0 and "
                  "size([c for p in players for c in first_of(p) where p == me]) == 1 "
                  "{ finish draw }\n      action take(x in pool) { move x to hand[me] }", values="3, 0")
    assert "else ())" in g.lowerer.python
    m = g.new_match(2, 0)
    m.apply("take c3")                           # P1's hand has a card, P2's none
    assert texts(m) == ["peek", "take c0", "stop"]
    # the same lists as without the guard where every list can be made
    g = game_with(tmp_path, "", "action peek(c in [c for p in players for c in hand[p] where p == me and c.v > 1]) "
                                "{ finish draw }\n      action take(x in pool) { move x to hand[me] }",
                  values="3, 0, 4")
    m = g.new_match(2, 0)
    for t in ["take c3", "take c0", "take c4"]:
        m.apply(t)
    assert texts(m) == ["peek c3", "peek c4", "stop"]


def test_a_clone_shares_until_either_side_plays_and_then_neither_sees_the_other(tmp_path):
    # clones cost nothing until played on (Match.own): each of an original and several clones of it
    # (and clones of clones) goes its own way afterwards, whichever plays first
    g = game(tmp_path, "action take(x in pool) { move x to hand[me]  lim += x.v  log text(x) }")
    m = g.new_match(2, 0)
    a, b = m.clone(), m.clone()
    c = a.clone()
    assert a.Z is m.Z and a.V is m.V            # shared, not copied
    start = m.state()
    m.apply("take c4")
    assert a.state() == start and b.state() == start and c.state() == start
    a.apply("take c5")
    b.apply("take c5")
    assert a.state() == b.state() != start and c.state() == start
    assert m.state()["vars"] != a.state()["vars"]
    c.apply("take c1")
    assert a.state() == b.state() and c.messages_for(0)[-1] == "c1" and m.messages_for(0)[-1] == "c4"
    for x in (m, a, b, c):
        assert Match.from_state(g, x.state()).state() == x.state()


def test_a_when_condition_keeps_its_defs_while_it_is_tested_and_sees_each_new_position(tmp_path):
    # `big` (a comprehension) is asked for every player by the `when` condition after every
    # action: memoised while the condition is tested, fresh after each action
    path = tmp_path / "when.rules"
    path.write_text(CARDS.format(values="3, 0, 4, 1, 5", actions="action take(x in pool) { move x to hand[me] }")
                    .replace("  setup {", "  def big = [c for p in players for c in hand[p] where c.v > 2]\n  setup {")
                    .replace("  turn {", "  when any(size(big) >= 2 and size(big) > size(hand[p]) - 2 for p in players) "
                             "{ finish win for current }\n  turn {"), encoding="utf-8")
    g = rulelang.load(str(path))
    assert "big" in g.lowerer.listing_memo_defs and "def ck_when0(m):" in g.lowerer.python
    m = g.new_match(1, 0)
    for label, over in (("c3", False), ("c0", False), ("c4", True)):
        m.apply(f"take {label}")
        assert m.is_over is over and m.lm is None
    assert m.outcome["results"] == ["win"]


def test_a_comprehension_guard_that_fails_is_met_where_the_rules_meet_it(tmp_path):
    # `top(box).v` fails (the box is empty), but the list is empty too: as written, the condition
    # is never tested and the comprehension is empty; the guard must not raise it earlier. With
    # a card in hand, the rules meet the error at the first element, and so does the engine.
    g = game_with(tmp_path, "  def held(p) = [c for c in hand[p] where c.v >= 0]",
                  "action peek require size([c for c in held(me) where top(box).v > 0]) == 0 { finish draw }\n"
                  "      action take(x in pool) { move x to hand[me] }", values="3")
    assert "_unless_false(" in g.lowerer.python
    m = g.new_match(1, 0)
    assert texts(m) == ["peek", "take c3", "stop"]
    with pytest.raises(rulelang.RuleRuntimeError, match="none"):
        m.apply("take c3")


def test_an_expression_of_an_effect_keeps_its_defs_only_while_it_is_evaluated(tmp_path):
    # `big` is asked twice by each condition (memoised within it) and again after each move:
    # every condition sees the cards moved just before it
    g = game_with(tmp_path, "  def big = [c for c in hand[me] where c.v > 2]",
                  "action take_all {\n"
                  "        move top(pool) to hand[me]\n"
                  "        if size(big) == 1 and size(big) > 0 { log \"one\" } else { log \"not one\" }\n"
                  "        move top(pool) to hand[me]\n"
                  "        if size(big) == 2 and size(big) > 1 { log \"two\" } else { log \"not two\" }\n"
                  "        let n = size(big) + size(big)\n"
                  "        log text(n) }", values="1, 4, 3")
    assert "_scoped(m, lambda:" in g.lowerer.python
    m = g.new_match(1, 0)
    m.apply("take all")
    assert m.messages_for(0)[-3:] == ["one", "two", "4"] and m.lm is None


def test_recursion_is_found_by_strongly_connected_components_in_one_pass():
    """A search from every def took minutes for 20,000 chained defs in a shared IR (a fuzzing
    trial); the components are found in one pass, callees first, and a deep chain is no problem."""
    from rulelang.core.graphs import strongly_connected as _strongly_connected
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d", "x"}}
    groups = _strongly_connected(graph)
    assert sorted(map(sorted, groups)) == [["a", "b", "c"], ["d"], ["e"], ["f"], ["x"]]
    position = {x: i for i, group in enumerate(groups) for x in group}
    assert position["d"] < position["c"] and position["d"] < position["f"]        # callees first
    n = 60_000
    chain = {i: {i - 1} for i in range(n, 0, -1)}
    assert [g[0] for g in _strongly_connected(chain)] == list(range(0, n + 1))   # no recursion, no overflow
    chain[0] = {n}
    assert len(_strongly_connected(chain)) == 1                                  # one cycle through all


def test_a_long_chain_of_defs_is_analysed_with_recursion_only_where_it_is():
    body = "\n".join(f"  def f{i}(x) = f{i - 1}(x) + 1" for i in range(1, 400))
    source = ('game "Chain" {\n  players 1\n  def f0(x) = if x > 0 then f399(x - 1) else 0\n' + body +
              '\n  def g(x) = x\n  turn { step s { action go { finish win } } }\n}')
    game = rulelang.Game(rulelang.compile_source(source))
    assert game.lowerer.sh.recursive == {("d", f"f{i}") for i in range(400)}


PAUSES = """
game "Pauses" {
  players 2
  var n: int = 0
  proc ask() { choose x in [1, 2] prompt "how many" { n += x } }
  proc asks() { ask() }
  proc quiet() { n += 1 }
  turn { step s {
    action plain { quiet()  if n > 5 { finish draw }  end turn }
    action direct { choose x in [1, 2] prompt "how many" { n += x }  end turn }
    action through { asks()  end turn }
  } }
}
"""


def test_the_actions_that_can_never_pause_are_found_from_the_rules():
    game = rulelang.Game(rulelang.compile_source(PAUSES))
    assert game.can_pause and game.pause_free == {("s", "plain")}
    # a question the flow may ask after any action: none is free of it
    entered = rulelang.Game(rulelang.compile_source(PAUSES.replace(
        "turn { step s {", 'turn { step s { enter { may prompt "go on?" { n += 1 } }')))
    assert entered.pause_free == frozenset()
    # run as they always were: the same positions, and a question still waits to be answered
    m = game.new_match(2, seed=1)
    m.apply("plain")
    assert m.cont is None and m.state()["vars"]["n"] == 1
    m.apply("through")
    assert m.question["prompt"] == "how many"
    m.apply("2")
    assert m.state()["vars"]["n"] == 3 and m.question is None


def test_thousands_of_choices_of_one_text_are_told_apart_without_comparing_each_pair(tmp_path, monkeypatch):
    """A fuzz trial: 4,000 different chips offered as `take a chip` took 16 s to list, each compared
    with every one before it. Now each is keyed once (runtime_actions._choice_key): copies (equal
    fields, one zone) are still one choice, and every other one gets its ordinal, in order. (A
    second choice of a text is first compared with the first one — the common case, a copy of it —
    and only then keyed: one comparison per text, never one per pair.)"""
    from rulelang.engine.codegen import runtime_actions
    compared = []
    real = runtime_actions._copies
    monkeypatch.setattr(runtime_actions, "_copies", lambda m, a, b: compared.append(1) or real(m, a, b))
    many = ", ".join(str(v) for v in range(3000))
    g = game(tmp_path, 'action take(c in pool) as "take a card" { move c to hand[me] }', values=many)
    listed = texts(g.new_match(1, 0))
    assert listed == ["take a card"] + [f"take a card ({n})" for n in range(2, 3001)] + ["stop"]
    twice = game(tmp_path, 'action take(c in pool) as "take a card" { move c to hand[me] }', name="twice",
                 values=", ".join(str(v % 3) for v in range(3000)))
    m = twice.new_match(1, 0)
    assert texts(m) == ["take a card", "take a card (2)", "take a card (3)", "stop"]
    m.apply("take a card (3)")
    assert [c["label"] for c in m.view(0)["zones"][1]["cards"]] == ["c2"]
    assert len(compared) <= 3          # (once per listing: its first choice, then keyed — of 3,000)


def test_names_read_as_another_are_those_of_the_pairwise_test():
    """The step's names are compared through counts and word prefixes (a fuzz trial: the test of
    every pair took 45 s of compiling for 6,000 `anytime` actions): the same verdicts as the pairs."""
    import random
    from rulelang.engine.codegen.enumerator import names_read_as_another

    def pairwise(shown):
        return [any(i != j and (x == y or x.startswith(y + " ") or y.startswith(x + " "))
                    for i, x in enumerate(shown)) for j, y in enumerate(shown)]

    rng = random.Random(5)
    words = ["take", "all", "a", "give", "take all", "", "x"]
    for _ in range(2000):
        shown = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(0, 6))]
        assert names_read_as_another(shown) == pairwise(shown), shown
    assert names_read_as_another(["take", "take all", "give", "give"]) == [True, True, True, True]
    assert names_read_as_another(["take", "give up", "give"]) == [False, True, True]


PASS_ON = """
game "Pass" {
  players 2
  kind Card { v: int }
  zone hand: set per player, owner
  zone passing: set per player, hidden
  setup { for p in players { create Card(v: 1) in hand[p] } }
  turn { step act {
    action pass_on { for p in players { move hand[p] to passing[p + 1] }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_zone_of_each_player_given_no_such_player_is_said_so():
    """A new author's Sushi Go passed hands with `passing[p + 1]`: for the last player the error
    spoke of lists alone. It names the zone of each player, and the way round (`next(p)`)."""
    m = rulelang.Game(rulelang.compile_source(PASS_ON, "pass.rules")).new_match(2, 0)
    with pytest.raises(rulelang.RuleRuntimeError, match=r"pass\.rules:\d+: .*a zone or variable of each player "
                                                       r"given a player the game does not have .*`next\(p\)` goes round"):
        m.apply("pass on")


def test_a_rule_error_in_an_included_file_names_that_file_and_its_line(tmp_path):
    """A designer's error in a card file of an included set was named `main.rules:N` with the
    included file's line N; the deep lint then put it at line N of the main file, or of another
    included file. A line of an included file names that file; the main file's, the main file; the
    rules' fingerprint does not change (saves stay good)."""
    (tmp_path / "main.rules").write_text(
        'game "Inc" {\n  players 2\n  var z: int = 0\n  include "part.rules"\n'
        '  turn { step s { action go { boom()  finish draw "x" }  action two { z = 1 / z } } }\n}\n', encoding="utf-8")
    (tmp_path / "part.rules").write_text("# a part\n\n\nproc boom() {\n  z = 4 / z\n}\n", encoding="utf-8")
    path = str(tmp_path / "main.rules")
    game = rulelang.load(path)
    assert game.ir["line_files"] == ["part.rules"]
    for action, where in (("go", f"{tmp_path}/part.rules:5: division by zero"),
                          ("two", f"{path}:5: division by zero")):
        with pytest.raises(rulelang.RuleRuntimeError) as err:
            game.new_match(2, 0).apply(action)
        assert str(err.value).startswith(where), str(err.value)
    found = [d for d in rulelang.deep_lint(path, games=4) if d.code == "E414"]
    assert {(d.span.file.rsplit("/", 1)[-1], d.span.line) for d in found} == \
        {("part.rules", 5), ("main.rules", 5)}, [d.format() for d in found]
    assert all(d.message.startswith("rule error: division by zero") for d in found)
    import json as _json
    from rulelang.engine.game import Game
    plain = _json.loads(_json.dumps(game.ir).replace("1000005", "5"))      # (as the IR was before)
    plain.pop("line_files")
    assert Game(plain).legacy_fingerprint == game.legacy_fingerprint


def test_a_crafted_included_file_or_line_is_no_place_an_error_names(tmp_path):
    """A fuzzer's IR: `line_files` naming `/etc/passwd` was printed as the error's place; `""` gave no
    name at all; a line of a fourth included file where there is one was line 2 of the main file.
    Such names are refused as the compiler never writes them, and such lines name no line."""
    import copy
    (tmp_path / "main.rules").write_text(
        'game "Inc" {\n  players 2\n  var z: int = 0\n  include "part.rules"\n'
        '  turn { step s { action go { boom()  finish draw "x" } } }\n}\n', encoding="utf-8")
    (tmp_path / "part.rules").write_text("# a part\n\n\nproc boom() {\n  z = 4 / z\n}\n", encoding="utf-8")
    ir = rulelang.compile_file(str(tmp_path / "main.rules"))
    for name in ("/etc/passwd", "../../etc/passwd", "", "a\x1b[2Jb", "x" * 2000, "a//b", "c:\\x"):
        bad = copy.deepcopy(ir)
        bad["line_files"] = [name]
        with pytest.raises(rulelang.RuleError, match="not an included rule file's name"):
            rulelang.Game(bad)
    text = json.dumps(ir)
    assert "1000005" in text
    for line, where in (("4000005", "main.rules: division by zero"), ("-1000005", "main.rules: division by zero"),
                        ("1000005", "part.rules:5: division by zero")):
        game = rulelang.Game(json.loads(text.replace("1000005", line)))
        with pytest.raises(rulelang.RuleRuntimeError) as err:
            game.new_match(2, 0).apply("go")
        assert str(err.value).split("/")[-1].startswith(where), str(err.value)
