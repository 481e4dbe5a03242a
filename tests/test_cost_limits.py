"""Limits that bound cost, not counts: one cost model (docs/language.md, "Limits").

Each reproducer below is a lint-clean rule file (or a crafted IR) that used to hang for minutes or
exhaust the machine's memory. Each now ends within seconds with a clear one-line rule error naming
the limit (or a lint warning, or a load error), because

- every effect has WORK_LIMIT units of work, and a unit is a loop turn, a call, or one element of a
  list or character of a text built, copied, scanned or printed (list `+`, `sort`, `distinct`,
  `in`, `text(…)`, comprehensions...), so costly iterations are charged as what they do;
- texts (TEXT_LIMIT) and lists grown by `+`, `*` or `append` (LIST_LIMIT) are measured where they
  are made, before they are made, in any expression; a list of lists is measured as a whole
  (VALUE_LIMIT); constant folding measures before it computes;
- a zone or variable family has at most FAMILY_LIMIT members, checked when the game is loaded (and
  the linter warns, W221); a position holds at most STATE_LIMIT elements and characters, measured
  after an action that did much work and after every 64th.

Every case runs in a child process with its address space capped at 1 GB and its CPU time at 60 s,
so that an unbounded allocation or a hang fails the test instead of the machine. The child reports
its CPU time and peak memory; no wall clock is read.
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.core.limits import FAMILY_LIMIT, LIST_LIMIT, STATE_LIMIT, TEXT_LIMIT, WORK_LIMIT

ROOT = Path(__file__).resolve().parent.parent
MEMORY_CAP = 1 << 30            # bytes of address space a child may map
CPU_CAP = 60                    # CPU seconds before the kernel stops a child (a hang)
CPU_LIMIT = 20.0                # CPU seconds a case may take (they take about one)
RSS_LIMIT_MB = 250              # peak memory a case may use (the interpreter and rulelang: ~40)

CHILD = r"""
import json, resource, sys, time
spec = json.loads(sys.stdin.read())
import rulelang
start = time.process_time()
out = {"error": None, "message": ""}
try:
    if "ir" in spec:
        game = rulelang.Game(spec["ir"], "crafted.json")
    else:
        game = rulelang.Game(rulelang.compile_source(spec["source"], "cost.rules"), "cost.rules")
    match = game.new_match(1)
    for action in spec.get("actions", []):
        match.apply(action)
    if spec.get("list"):
        out["legal"] = len(match.legal_actions())
except rulelang.RulelangError as err:
    out["error"], out["message"] = type(err).__name__, str(err)
except MemoryError:
    out["error"] = "MemoryError"
out["cpu"] = time.process_time() - start
# (the peak of this process's own memory, VmHWM: ru_maxrss keeps the forking parent's peak across
# fork and exec, so a test worker grown past 256 MB by earlier tests failed every case here)
try:
    out["rss_mb"] = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024
except (OSError, StopIteration, ValueError):
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def _caps():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP, CPU_CAP))


def run_capped(spec: dict) -> dict:
    """Run a case in a child process within the caps; its report (error, message, cpu, rss_mb)."""
    done = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(spec), capture_output=True, text=True,
                          preexec_fn=_caps, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip(), \
        f"the child was stopped (a hang or an unbounded allocation): {done.returncode} {done.stderr[-2000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def game(body: str, decls: str = "") -> str:
    text = '  var s: text = "ab"\n' if "s + s" in body or "twice" in body or 's = "' in body else ""
    return (f'game "Cost" {{\n  players 1..2\n  var k: int = 0\n{text}{decls}\n  setup {{ }}\n'
            f"  turn {{\n    step play {{\n      action go {{\n        {body}\n        log text(k)  finish draw\n      }}\n"
            f"    }}\n  }}\n}}\n")


def lint_clean(source: str, tmp_path) -> None:
    path = tmp_path / "cost.rules"
    path.write_text(source, encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])
    assert diagnostics == [], [d.headline() for d in diagnostics]


def stops(spec: dict, *words: str, error: str = "RuleRuntimeError") -> str:
    report = run_capped(spec)
    assert report["error"] == error, report
    message = report["message"]
    assert "\n" not in message.strip() and "Traceback" not in message and "internal error" not in message
    for word in words:
        assert word in message, message
    assert report["cpu"] < CPU_LIMIT, f"{report['cpu']:.1f} s of CPU time: the limit did not stop it in time"
    assert report["rss_mb"] < RSS_LIMIT_MB, f"{report['rss_mb']:.0f} MB: the limit did not bound memory"
    return message


# ---- costly iterations: each turn of a loop of 99,999 does work as long as a list ----

COSTLY = {
    # the issue's reproducer: 99,999 budget units, each copying 200,000 elements
    "list + (the issue's)": ("let big = [i for i in 1..99999]  k = sum(size(big + big) for i in 1..99999)",
                             "list limit"),
    "list +": ("let big = [i for i in 1..9000]  k = sum(size(big + [i]) for i in 1..99999)", "work limit"),
    "sort": ("let big = [99999 - i for i in 1..99999]  k = sum(size(sort(big)) for i in 1..99999)", "work limit"),
    "distinct": ("let big = [i for i in 1..99999]  k = sum(size(distinct(big)) for i in 1..99999)", "work limit"),
    "x in big": ("let big = [99999 - i for i in 1..99999]  k = size([i for i in 1..99999 where i in big])",
                 "work limit"),
    "text(…)": ("let row = [i for i in 1..1500]  k = size([i for i in 1..99999 where text(row) != text(i)])",
                "work limit"),
    "a loop over a copy": ("let big = [i for i in 1..99999]  for i in 1..99999 { k = k + size(reverse(big)) }",
                           "work limit"),
}


@pytest.mark.parametrize("name", list(COSTLY))
def test_costly_iterations_are_charged_as_the_work_they_do(name, tmp_path):
    body, limit = COSTLY[name]
    source = game(body)
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "cost.rules:", limit)


# ---- texts and lists are measured where they are made ----

def test_a_text_doubled_in_a_loop_stops_at_the_text_limit(tmp_path):
    source = game("repeat 40 { s = s + s }")
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "cost.rules:10:", "text limit", str(TEXT_LIMIT))


def test_a_list_doubled_inside_an_expression_stops_at_the_list_limit(tmp_path):
    source = game("k = size(dbl(40, [1]))", "  def dbl(n, xs) = if n == 0 then xs else dbl(n - 1, xs + xs)")
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "cost.rules:4:", "list limit", str(LIST_LIMIT))


def test_a_text_doubled_inside_an_expression_stops_at_the_text_limit(tmp_path):
    source = game("k = size(twice(40, s))", "  def twice(n, t) = if n == 0 then t else twice(n - 1, t + t)")
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "text limit")


def test_a_list_of_lists_is_measured_as_a_whole(tmp_path):
    # 9,000 references to one list of 9,000: cheap to make, 81 million numbers to print or compare
    source = game("let row = [i for i in 1..9000]  let grid = [row for i in 1..9000]  "
                  "if text(grid) == \"\" { k = 1 }")
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "value limit")


def test_a_list_holding_one_long_row_many_times_is_measured_at_once(tmp_path):
    # a fuzz trial: 99,999 references to one row of 99,999 — each reference's row was scanned for
    # lists inside it before the total was met: 170 s of CPU in one action
    source = game("let row = [i for i in 1..99999]  let grid = [row for i in 1..99999]  k = size(grid)")
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "value limit")


def test_a_def_calling_another_ten_times_nine_deep_is_charged_as_its_calls(tmp_path):
    defs = ["  def f0(x) = x + k"] + [f"  def f{i}(x) = " + " + ".join([f"f{i - 1}(x)"] * 10) for i in range(1, 10)]
    source = game("k = f9(1)", "\n".join(defs))
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "work limit", f"{WORK_LIMIT}")


def test_a_loop_whose_body_is_long_is_charged_as_its_body(tmp_path):
    source = game("repeat 10000 { repeat 200 { " + "k = k + 1  " * 3000 + "} }")
    lint_clean(source, tmp_path)
    stops({"source": source, "actions": ["go"]}, "work limit")


# ---- a crafted IR: products measured before they are made ----

def crafted(value: dict) -> dict:
    """A small game whose action assigns `value` (an IR expression) to its variable `s`."""
    ir = rulelang.compile_source(game('s = "x"'), "crafted.rules")
    body = ir["steps"][0]["actions"][0]["body"]
    body[0] = dict(body[0], v=value)
    return ir


@pytest.mark.parametrize("value, limit", [
    ({"k": "bin", "op": "*", "l": {"k": "lit", "v": "x"}, "r": {"k": "lit", "v": 2_000_000_000}}, "text limit"),
    ({"k": "bin", "op": "*", "l": {"k": "lit", "v": 2_000_000_000}, "r": {"k": "lit", "v": "xy"}}, "text limit"),
    ({"k": "bin", "op": "*", "l": {"k": "lit", "v": [1, 2]}, "r": {"k": "lit", "v": 2_000_000_000}}, "list limit"),
    # one constant operand, the other read at run time
    ({"k": "bin", "op": "*", "l": {"k": "var", "n": "s"}, "r": {"k": "lit", "v": 2_000_000_000}}, "text limit"),
    ({"k": "bin", "op": "*", "l": {"k": "lit", "v": 2_000_000_000}, "r": {"k": "var", "n": "s"}}, "text limit"),
], ids=["text * n", "n * text", "list * n", "variable * n", "n * variable"])
def test_a_crafted_product_is_measured_before_it_is_made(value, limit):
    ir = crafted(value)
    stops({"ir": ir, "actions": ["go"]}, "crafted.rules:", limit)


@pytest.mark.parametrize("value, words", [
    # found by the cost fuzzer (tests/fuzz.py --cost): `k + (-3 * [1, 2])` in a crafted IR was an
    # "internal error" once `+` and `*` went through the runtime's measuring helpers
    ({"k": "bin", "op": "+", "l": {"k": "var", "n": "k"}, "r": {"k": "bin", "op": "*", "l": {"k": "lit", "v": -3},
                                                                 "r": {"k": "lit", "v": [1, 2]}}},
     "`+` of a number and a list"),
    ({"k": "bin", "op": "*", "l": {"k": "var", "n": "s"}, "r": {"k": "lit", "v": [1, 2]}}, "`*` of a text and a list"),
    ({"k": "bin", "op": "*", "l": {"k": "lit", "v": "x"}, "r": {"k": "var", "n": "s"}}, "`*` of a text and a text"),
], ids=["number + list", "text * list", "text * text"])
def test_a_crafted_ir_mixing_types_in_a_sum_or_product_is_a_rule_error(value, words):
    game = rulelang.Game(crafted(value), "crafted.json")
    match = game.new_match(1)
    with pytest.raises(rulelang.RulelangError) as raised:
        match.apply("go")
    assert type(raised.value).__name__ == "RuleRuntimeError", raised.value
    assert str(raised.value) == f"crafted.rules:10: {words}: they do not go together"
    assert match.log == []                      # the action changed nothing


def test_folding_a_crafted_product_allocates_nothing():
    ir = crafted({"k": "bin", "op": "*", "l": {"k": "lit", "v": "x"}, "r": {"k": "lit", "v": 2_000_000_000}})
    report = run_capped({"ir": ir})                 # loading (and folding), no action
    assert report["error"] is None and report["rss_mb"] < RSS_LIMIT_MB, report


def test_a_crafted_ir_whose_code_would_be_huge_is_refused_before_python_compiles_it():
    # 150,000 statements in a 6 MB IR: Python's compiler would need gigabytes for their code
    ir = rulelang.compile_source(game("k = 1"), "crafted.rules")
    ir["setup"] = [{"s": "log", "v": {"k": "lit", "v": "x"}}] * 150_000
    stops({"ir": ir}, "crafted.rules", "too large for the engine", error="RuleError")


# ---- families: their members counted before they are made ----

def enum(name: str, count: int) -> str:
    return f"  enum {name} {{ " + ", ".join(f"{name.lower()}{i}" for i in range(count)) + " }"


@pytest.mark.parametrize("decl, use", [("zone z: pile per E per F", "k = size(z[e1, f1])"),
                                       ("var v: int = 0 per E per F", "k = v[e1, f1]")])
def test_a_family_of_millions_of_members_is_refused_when_loaded_and_the_linter_warns(decl, use, tmp_path):
    # (two enums of 25,000 values, 625 million members, were the trial's; 4 million, 40 times the
    # limit, would take as long to make and as much memory as the test can tell, at a tenth of its time)
    source = game(use, "\n".join([enum("E", 2_000), enum("F", 2_000), "  " + decl]))
    path = tmp_path / "family.rules"
    path.write_text(source, encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])
    assert [(d.code, d.severity) for d in diagnostics] == [("W221", "warning")]
    assert "4,000,000 members" in diagnostics[0].message and f"{FAMILY_LIMIT:,}" in diagnostics[0].message
    message = stops({"source": source}, "family limit", "4,000,000", error="RuleError")
    assert "cannot be loaded" in message


def test_a_crafted_family_of_four_enums_is_refused_by_the_ir_check():
    ir = rulelang.compile_source(game("k = 1"), "crafted.rules")
    ir["enums"] = {name: [{"name": f"{name.lower()}{i}", "text": str(i)} for i in range(200)] for name in "ABCD"}
    ir["zones"].append({"name": "huge", "ordered": True, "per": "key", "visibility": "public", "capacity": None,
                        "key": ["enum:A", "enum:B", "enum:C", "enum:D"]})
    message = stops({"ir": ir}, "crafted.json", "family limit", "1,600,000,000", error="RuleError")
    assert "E301" in message or "cannot be loaded" in message


def test_many_families_within_the_limit_each_are_refused_together(tmp_path):
    decls = [enum("E", 300), enum("F", 300)] + [f"  var v{i}: int = 0 per E per F" for i in range(12)]
    source = game("k = " + " + ".join(f"v{i}[e1, f1]" for i in range(12)), "\n".join(decls))
    path = tmp_path / "families.rules"
    path.write_text(source, encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])
    assert [d.code for d in diagnostics] == ["W221"] and "in all" in diagnostics[0].message
    stops({"source": source}, "families limit", error="RuleError")


# ---- what the engine keeps for a game is bounded too ----

def test_the_actions_of_a_pair_of_ten_thousand_components_are_listed_in_little_memory(tmp_path):
    # the interned actions of a 2-subset are kept in a table indexed by both components' ids: with
    # 9,990 components, 100 million slots (800 MB) were made before the first listing
    source = game("k = size(cs)", "  kind Chip { n: int  label text(n) }\n  zone pool: pile, hidden\n"
                  "  zone hand: set per player, owner").replace(
        "setup { }", "setup { repeat 10 { repeat 999 { k += 1  create Chip(n: k) in pool } }  "
                     "repeat 5 { move top(pool) to hand[0] } }").replace("action go {", "action go(cs subset of hand[me] size 2) {")
    lint_clean(source, tmp_path)
    report = run_capped({"source": source, "list": True})
    assert report["error"] is None and report["legal"] == 10, report
    assert report["rss_mb"] < RSS_LIMIT_MB and report["cpu"] < CPU_LIMIT, report


def test_a_position_grown_action_by_action_stops_at_the_state_limit(tmp_path):
    # each action keeps 100 new lists of 9,000 numbers (within the work limit): without a bound on
    # what a position holds, a long game (a simulation, a deep lint) grows without end
    values = ", ".join(f"e{i}" for i in range(2000))
    source = game("let n = 0\n        for e in E { if n < 100 and size(g[e]) == 0 { g[e] = [i + k for i in 1..9000]  "
                  "n += 1 } }\n        k += 1\n        if k > 1000 { finish draw }\n        end turn",
                  f"  enum E {{ {values} }}\n  var g: list[int] = [] per E").replace(
        "        log text(k)  finish draw\n", "")
    lint_clean(source, tmp_path)
    report = run_capped({"source": source, "actions": ["go"] * 60})
    assert report["error"] == "RuleRuntimeError" and "state limit" in report["message"], report
    assert f"{STATE_LIMIT}" in report["message"] and "after `go`" in report["message"]
    assert report["cpu"] < CPU_LIMIT and report["rss_mb"] < 2 * RSS_LIMIT_MB, report


@pytest.mark.parametrize("grow", [
    'for i in 1..400 { for j in 1..1000 { log "" } }',                        # empty messages
    'for i in 1..400 { for j in 1..1000 { modify val(j) += 1 until turn_end } }',   # modifiers, no turn ends
])
def test_empty_messages_and_modifiers_weigh_against_the_state_limit(grow):
    """An exhaustion trial: 400,000 empty messages (or modifiers) an action weighed nothing, and a
    simulation grew to 2 GB (a MemoryError, and "internal error: SystemError")."""
    source = (f'game "Grow" {{\n  players 1..2\n  var k: int = 0\n  def val(x: int) = x\n  setup {{ }}\n'
              f'  turn {{ step play {{\n    action go {{ {grow}  k += 1 }}\n'
              f'    action stop require k > 99999 {{ finish draw }}\n  }} }}\n}}\n')
    report = run_capped({"source": source, "actions": ["go"] * 30})
    assert report["error"] == "RuleRuntimeError" and "state limit" in report["message"], report
    assert report["rss_mb"] < RSS_LIMIT_MB and report["cpu"] < CPU_LIMIT, report


# ---- the real games are not touched by the cost model ----

@pytest.mark.parametrize("path, players", [("games/regicide.rules", 2), ("games/valgard.rules", 2)])
def test_the_benchmarked_games_stay_far_below_the_work_limit(path, players):
    import random
    g = rulelang.load(str(ROOT / path))
    most = 0
    for seed in range(5):
        m = g.new_match(players, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            actions = m.legal_actions()
            most = max(most, WORK_LIMIT - m.work)
            m.apply(rng.choice(actions))
            most = max(most, WORK_LIMIT - m.work)
    assert 0 < most < WORK_LIMIT // 100


def test_a_view_names_each_member_of_a_family_without_searching_its_enum(monkeypatch):
    # fuzz finding (issue 25): `member_text` searched the enum's list once per member shown, so the
    # view of a `per E` variable with 25,000 members took a quadratic 20 s
    source = game("k = v[e1]", "\n".join([enum("E", 2_000), "  var v: int = 0 per E"]))
    g = rulelang.Game(rulelang.compile_source(source, "family.rules"))
    searched = []

    class Members(list):
        def __iter__(self):
            searched.append(1)
            return super().__iter__()

    g.enums["E"] = Members(g.enums["E"])
    view = g.new_match(players=2, seed=1).view(0)
    [family] = [v for v in view["values"] if v["name"] == "v"]
    texts = [m["key_text"] for m in family["per_key"]]
    assert texts[:3] == ["e0", "e1", "e2"] and len(texts) == 2_000
    assert len(searched) < 10                     # the enum read a few times in all, not once per member


# ---- the measures' shortcuts give what the full walks give ----

def _fields_walked(m) -> int:
    """What held_size counted for the component fields before it kept their weight: every column
    walked in full."""
    from rulelang.engine.codegen.runtime import _held
    sizes: dict = {}
    return sum(_held(col, sizes) for col in m.F)


@pytest.mark.parametrize("path, players", [("games/dozen_war.rules", 2), ("games/smash_up.rules", 2)])
def test_the_kept_weight_of_component_fields_is_what_a_full_walk_gives(path, players):
    # fields are fixed once made and components only ever added: the weight kept between measures
    # (Match.fields_held) must equal a walk of every column, at every step and after creating more
    import random
    from rulelang.engine.codegen.runtime import _fields_held
    m = rulelang.load(ROOT / path).new_match(players, seed=4)
    rng = random.Random(4)
    for _ in range(40):
        if m.is_over:
            break
        assert _fields_held(m) == _fields_walked(m)
        m.apply(rng.choice(m.legal_actions()))
    assert m.fields_held[0] == len(m.labels) and m.fields_held[1] == _fields_walked(m) > len(m.labels)


def test_a_list_of_plain_lists_is_charged_as_the_full_measure_charges_it():
    # _built measures a list of plain lists (a nested comprehension) without the general walk: the
    # same work charged, a list held twice walked once, as _sizes does
    import random
    from rulelang.engine.codegen.runtime import _built, _sizes

    class Budget:
        work = 10 ** 9

    rng = random.Random(1)
    checked = 0
    for _ in range(2000):
        pool = [[rng.randint(0, 5) for _ in range(rng.randint(0, 6))] for _ in range(4)]
        value = [rng.choice(pool) if rng.random() < 0.7 else rng.randint(0, 3) for _ in range(rng.randint(1, 8))]
        if not any(type(x) is list for x in value):
            continue
        m = Budget()
        assert _built(m, value) is value
        assert 10 ** 9 - m.work == _sizes(value)[2], value
        checked += 1
    assert checked > 1000


REACH = """
game "Reach" {
  players 2
  board b: squares(3, 3)
  var n: int = 100000000000
  def free(c) = true
  turn { step act { action go { log text(size(reachable(cell(b, "a1"), n, free)))  finish draw } } }
}
"""


def test_reachable_with_a_huge_step_count_stops_once_nothing_new_is_found():
    """A fuzzer's rule file (it lints clean): `reachable(c, 10^11, …)` on a 3×3 board went on for
    every step after the board was covered — 10^9 steps took 50 s, 10^11 never ended. Run in a
    child with a time limit, so that the old behaviour fails the test instead of hanging it."""
    code = ("import rulelang, sys\n"
            f"g = rulelang.Game(rulelang.compile_source({REACH!r}, 'reach.rules'))\n"
            "m = g.new_match(2, seed=1)\n"
            "m.apply('go')\n"
            "print(m.messages_for(0)[-1] if m.messages_for(0) else m.log_for(0))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "8" in done.stdout


SHOWS = """
game "Shows" {
  players 2
  def g(i) = if i <= 0 then 0 else 1 + g(i - 1)
  show "costly" = text(sum(g(150) for j in 1..100000))
  show "cheap" = text(sum(j for j in 1..10))
  turn { step act { action stop { finish draw } } }
}
"""


def test_the_shown_values_of_a_view_share_one_work_budget():
    """A fuzzer's rule file of 300 such `show` lines: each one that spent the budget gave the next a
    fresh one, so one screen cost 300 budgets (a minute, redrawn after every move). The values now
    share the view's budget: once it is spent, the rest are errors at once."""
    m = rulelang.Game(rulelang.compile_source(SHOWS, "shows.rules")).new_match(2, seed=1)
    values = {v["name"]: v for v in m.view(0)["values"]}
    assert "work limit" in values["costly"]["error"]
    assert values["cheap"]["value"] is None and "work limit" in values["cheap"]["error"]


SLOW_TEXTS = """
game "Slow texts" {
  players 2
  kind Card { rank: int  label text(rank)
              text "worth " + text(count(i > rank for i in 1..50000 for j in 1..5)) }
  zone deck: pile
  setup { for r in 1..3000 { create Card(rank: r) in deck } }
  turn { step act { action go { finish draw } } }
}
"""


def test_the_rulebook_works_out_every_components_text_within_one_work_budget():
    """A fuzzer's 10,000 cards whose kind's text costs 0.07 s each: `rulelang rules`, the web
    rulebook page and `look` computed each with a budget of its own (some 12 minutes). The
    rulebook's texts share one budget, and it says how many it left out."""
    from rulelang.play.rulebook import rulebook
    game = rulelang.Game(rulelang.compile_source(SLOW_TEXTS, "slow.rules"))
    text = rulebook(game)
    shown = [line for line in text.split("\n") if ": worth " in line]
    assert 1 <= len(shown) < 3000
    assert f"{3000 - len(shown)} more: not shown: working their texts out took more than the rules' work limit" in text


def test_look_works_the_texts_out_within_one_work_budget():
    """`look NAME` at the terminal worked out every component's text, each with a budget of its
    own (and each label's look-alikes once more): minutes for a fuzzer's costly texts."""
    from rulelang.play.screen import Texts
    game = rulelang.Game(rulelang.compile_source(SLOW_TEXTS, "slow.rules"))
    match = game.new_match(2, seed=1)
    texts = Texts(game, match, 0)
    found = [name for name in texts.names() if texts.find(name)]
    assert 1 <= len(found) < 3000
    assert texts.find(found[0])[0][1].startswith("worth ")


def test_the_texts_of_a_listing_are_charged_as_they_are_made():
    """A fuzzer: 6,000 actions whose texts name a list of 300 long texts (9,000 characters each)
    took 4 GB at set-up, charged nothing. The listing now stops at the work limit."""
    source = ('game "Texts" {\n  players 1\n'
              f'  def big = [[text(x), "{"A" * 3000}"] for x in 1..300]\n'
              '  var n: int = 0\n  setup { }\n  turn limit 5 { finish draw }\n'
              '  turn {\n    step main {\n'
              '      action go(a in 1..6000, xs subset of big size 1..1) { n = a  end turn }\n'
              '    }\n  }\n}\n')
    stops({"source": source, "list": True}, "units of work", str(WORK_LIMIT))


def test_the_work_limit_spent_listing_the_actions_is_said_so():
    """A new author's Quoridor spent it listing the first moves (a path search for each wall), and
    read "… units of work in one effect": the set-up, two assignments, was where they looked."""
    import rulelang
    from rulelang.core.errors import RuleRuntimeError
    game = rulelang.Game(rulelang.compile_source(
        'game "Search" {\n  players 1\n  def deep(n: int) = sum(size([i for i in 1..9999]) for k in 1..n)\n'
        '  turn { step pick { action go(x in 1..9) require deep(x * 50) > 0 { finish draw } } }\n}\n', "search.rules"))
    with pytest.raises(RuleRuntimeError) as err:
        game.new_match(1, 1)
    assert "search.rules:3: more than 2000000 units of work while listing the legal actions at step `pick`" in str(err.value)
    assert "in one effect" not in str(err.value)


def test_one_list_kept_in_many_variables_is_charged_each_time():
    """A fuzzer: `for e in E { a[e] = big }` kept one list of 990,000 elements in 500 variables
    for 500 units of work; the position held 495 million elements between two of its measures, and
    the terminal, the browser's payload (1.9 GB) and the save all choked on it."""
    names = ", ".join(f"v{i}" for i in range(500))
    source = ('game "Held" {\n  players 1\n'
              f'  enum E {{ {names} }}\n'
              '  var big: list[list[int]] = []\n  var a: list[list[int]] = [] per E\n'
              '  setup { big = [[j for j in 1..1000] for i in 1..990] }\n'
              '  turn {\n    step main {\n'
              '      action go { for e in E { a[e] = big }  end turn }\n'
              '      action stop { finish win }\n    }\n  }\n}\n')
    stops({"source": source, "actions": ["go"]}, "units of work", str(WORK_LIMIT))


def test_the_work_limit_spent_at_once_in_the_set_up_names_its_line():
    """A fuzz trial: defs each calling the next twice, 80 deep, called from `setup`: the set-up's
    charge on entry spent the limit and the error had no line (an action's said its own)."""
    defs = "\n".join(f"  def g{i} = g{i + 1} + g{i + 1}" for i in range(40)) + "\n  def g40 = 1"
    source = ("game \"Deep\" {\n  players 2\n  var n: int = 0\n" + defs +
              "\n  setup { n = g0 }\n  turn { step s { action stop { finish draw \"done\" } } }\n}\n")
    game = rulelang.Game(rulelang.compile_source(source, "deep.rules"))
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        game.new_match(2, seed=1)
    assert str(err.value).startswith("deep.rules:45: more than 2000000 units of work"), str(err.value)
