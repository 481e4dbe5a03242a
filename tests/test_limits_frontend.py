"""The front end's limits: a rule file or a YAML content file is untrusted input, so whatever it
holds, reading it ends in a clear diagnostic (a code, a file:line:col, one line) — never a Python
traceback, never a hang, never the machine's memory. See rulelang/core/limits.py and docs/diagnostics.md
(E003-E006, E203, E506, W210-W213).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import rulelang
from rulelang.ir import validate
from rulelang.language import checker, compiler, content, parser
from rulelang.core import limits
from rulelang.core.errors import RuleError

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))

HEAD = 'game "X" {\n  players 2\n  var n: int = 0\n  enum Suit { a, b }\n  def f(a, b) = a + b\n'
TAIL = '  turn { step s { action a { finish draw } } }\n}\n'


def game(setup: str = "n = 1", defs: str = "") -> str:
    """A small game: HEAD (4 lines), then `defs` (one line), then the setup on its own line."""
    return HEAD + f"  {defs}\n  setup {{\n    {setup}\n  }}\n" + TAIL


SETUP_LINE = 8          # the line `setup` statements are on in game()
DEF_LINE = 6            # the line of `defs`


def lint(tmp_path, text: str, name: str = "x.rules"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])
    for d in diagnostics:                       # every finding is one line, inside the file
        assert "\n" not in d.message and d.span is not None, d.headline()
    return diagnostics


def codes(diagnostics, severity: str | None = None):
    return [(d.code, d.line, d.column) for d in diagnostics if severity in (None, d.severity)]


def errors(tmp_path, text: str):
    return codes(lint(tmp_path, text), "error")


def nest(fmt: str, inner: str, k: int) -> str:
    for _ in range(k):
        inner = fmt.format(inner)
    return inner


def col(text: str, line: int, needle: str, nth: int = 1) -> int:
    """The 1-based column of the nth `needle` on a line of `text`."""
    src = text.splitlines()[line - 1]
    at = -1
    for _ in range(nth):
        at = src.index(needle, at + 1)
    return at + 1


# ---- 1. nesting and size of a rule file ------------------------------------------------------

@pytest.mark.parametrize("depth", [13, 21, 200, 400, 5000])
def test_nested_ifs_past_the_limit_are_one_error_at_the_first_block_past_it(tmp_path, depth):
    text = game(nest("if n == 0 {{ {} }}", "n = 1", depth))
    want = ("E004", SETUP_LINE, col(text, SETUP_LINE, "if", limits.NESTING_LIMIT + 1))
    assert errors(tmp_path, text) == [want]
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(text, "x.rules")
    assert [d.code for d in err.value.diagnostics] == ["E004"]


def test_twenty_one_nested_fors_are_an_error_and_twelve_are_not(tmp_path):
    fors = lambda k: "".join(f"for i{j} in 1..2 {{ " for j in range(k)) + "n += 1" + " }" * k
    text = game(fors(21))
    assert errors(tmp_path, text) == [("E004", SETUP_LINE, col(text, SETUP_LINE, "for", limits.NESTING_LIMIT + 1))]
    assert errors(tmp_path, game(fors(limits.NESTING_LIMIT))) == []


@pytest.mark.parametrize("depth", [13, 100, 300])
def test_nested_may_blocks_past_the_limit_are_an_error_as_ifs_are(tmp_path, depth):
    """A fuzz trial: 100 nested `may` linted clean and failed to compile (E301, a path of 816
    characters); 300 gave E006 at 1:1."""
    text = game(nest("may {{ {} }}", "n = 1", depth))
    assert errors(tmp_path, text) == [("E004", SETUP_LINE, col(text, SETUP_LINE, "may", limits.NESTING_LIMIT + 1))]
    assert errors(tmp_path, game(nest("choose x in [1, 2] {{ {} }}", "n = x", limits.NESTING_LIMIT))) == []


def test_a_comprehensions_further_fors_count_as_its_depth(tmp_path):
    """A fuzz trial: each further `for` of a comprehension started the depth count anew, so a
    file nested past the limit linted clean and then failed to compile."""
    deep = nest("[1 for a in [1] for b in {}]", "[1]", 60)
    assert [c for c, _, _ in errors(tmp_path, game(defs=f"def deep = size({deep})"))] == ["E005"]


def test_an_else_if_chain_is_not_nesting_but_has_a_bound_of_its_own(tmp_path):
    chain = lambda k: "if n == 0 { n = 1 }" + "".join(f" else if n == {i} {{ n = {i + 1} }}" for i in range(1, k + 1))
    assert errors(tmp_path, game(chain(20))) == []                 # a 21-way chain on a rank is fine
    text = game(chain(parser.ELSE_IF_LIMIT + 1))
    assert errors(tmp_path, text) == [("E004", SETUP_LINE, col(text, SETUP_LINE, "if", parser.ELSE_IF_LIMIT + 2))]


def test_a_400_term_sum_is_an_error_at_its_start_and_a_64_term_one_is_fine(tmp_path):
    text = game("n = v", "def v = " + " + ".join(["n"] * 400))
    assert errors(tmp_path, text) == [("E005", DEF_LINE, col(text, DEF_LINE, "n + n"))]
    assert errors(tmp_path, game("n = v", "def v = " + " + ".join(["n"] * limits.EXPR_DEPTH_LIMIT))) == []


@pytest.mark.parametrize("expr, needle", [
    (" and ".join(["n == 1"] * 400), "n == 1"),                      # a long `and` chain
    ("size(" + nest("[{}]", "1", 400) + ") == 1", "["),                # nested lists
    (nest("not {}", "true", 400), "not"),
    (nest("abs({})", "1", 400) + " == 1", "abs"),                     # nested calls
    (nest("if true then 1 else {}", "1", 400) + " == 1", "if"),
    ("[[1]]" + "[0]" * 400 + " == 1", "["),
    (nest("sum({} for i in [1])", "1", 400) + " == 1", "sum"),
])
def test_deep_expressions_are_one_error_never_a_traceback(tmp_path, expr, needle):
    found = errors(tmp_path, game("if v { n = 1 }", f"def v = {expr}"))
    assert [(c, line) for c, line, _ in found] == [("E005", DEF_LINE)]


def test_deep_parentheses_add_no_depth(tmp_path):
    assert errors(tmp_path, game("n = v", "def v = " + "(" * 5000 + "n" + ")" * 5000)) == []


def test_a_deeply_nested_type_is_an_error(tmp_path):
    deep = "list[" * 200 + "int" + "]" * 200
    text = HEAD.replace("  var n: int = 0\n", f"  var n: int = 0\n  var t: {deep} = []\n")
    text += "  setup { n = 1 }\n" + TAIL
    assert codes(lint(tmp_path, text), "error") == [("E005", 4, col(text, 4, "list", limits.EXPR_DEPTH_LIMIT + 1))]


def test_a_rule_file_over_the_size_limit_is_refused_before_it_is_parsed(monkeypatch):
    text = game() + "#" * limits.SOURCE_LIMIT
    monkeypatch.setattr(parser, "_lark", lambda: pytest.fail("a file over the size limit was parsed"))
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(text, "big.rules")
    assert [(d.code, d.line, d.column) for d in err.value.diagnostics] == [("E003", 1, 1)]


def test_a_number_past_the_integer_limit_is_an_error_never_a_traceback(tmp_path):
    text = game("n = " + "9" * 5000)
    assert errors(tmp_path, text) == [("E203", SETUP_LINE, 9)]
    assert errors(tmp_path, game(f"n = {limits.INT_LIMIT + 1}")) == [("E203", SETUP_LINE, 9)]
    assert errors(tmp_path, game(f"n = {limits.INT_LIMIT}")) == []
    assert errors(tmp_path, game(defs="def v = 4000000000000000000 * 4000000000000000000 * 4000000000000000000 * "
                                      "4000000000000000000 * 4000000000000000000 * 4000000000000000000",
                                 setup="if v > 3 { n = 1 } else { n = 2 }")) == []


def test_the_real_games_stay_well_within_the_limits(monkeypatch):
    monkeypatch.setattr(parser, "NESTING_LIMIT", limits.NESTING_LIMIT // 2)
    monkeypatch.setattr(parser, "EXPR_DEPTH_LIMIT", limits.EXPR_DEPTH_LIMIT // 4)
    monkeypatch.setattr(parser, "ELSE_IF_LIMIT", parser.ELSE_IF_LIMIT // 4)
    for path in GAMES:
        text = path.read_text(encoding="utf-8")
        assert len(text) < limits.SOURCE_LIMIT // 5      # (the largest, with every card's rules text: ~45,000)
        parser.parse(text, str(path))                 # no E004 / E005 at a quarter of the limits


# The deepest rule file the limits allow: blocks nested to the limit, an `else if` chain to its
# limit inside them, and in there an expression nested to the limit. It must lint, compile (the IR
# within IR_DEPTH_LIMIT), load and play: no pass may run out of Python's stack on the way.
DEEPEST = {
    "calls": nest("abs({})", "1", limits.EXPR_DEPTH_LIMIT - 1),
    "sum": " + ".join(["n"] * limits.EXPR_DEPTH_LIMIT),
    "aggregates": nest("sum({} for i in [1])", "1", (limits.EXPR_DEPTH_LIMIT - 2) // 2),
    "defs": nest("f({}, 1)", "1", limits.EXPR_DEPTH_LIMIT - 1),
    "enum lists": "size(" + nest("[{}]", "Suit", limits.EXPR_DEPTH_LIMIT - 3) + ")",
    "conditions": nest("if n == 0 then 1 else {}", "1", (limits.EXPR_DEPTH_LIMIT - 1) // 2),
}


@pytest.mark.parametrize("kind", list(DEEPEST))
def test_the_deepest_file_the_limits_allow_lints_compiles_loads_and_plays(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    expr = DEEPEST[kind]
    chain = "if n == 0 { n = 1 }" + " else if n == 1 { n = 2 }" * (parser.ELSE_IF_LIMIT - 1) \
        + f" else if n == 2 {{ n = {expr} }}"
    blocks = "".join(f"for i{j} in 1..1 {{ " for j in range(limits.NESTING_LIMIT - 1)) + chain \
        + " }" * (limits.NESTING_LIMIT - 1)
    text = game(blocks).replace("action a { finish draw }", f"action a {{ n = {expr}  finish draw }}")
    assert errors(tmp_path, text) == []
    game_ = rulelang.load(str(tmp_path / "x.rules"))
    match = game_.new_match(players=2, seed=1)
    match.apply(match.legal_actions()[0])
    assert match.is_over


def test_long_chains_of_defs_and_procs_lint_without_running_out_of_stack(tmp_path):
    k = 1500
    defs = "".join(f"  def d{i} = d{i + 1} + 1\n" for i in range(k)) + f"  def d{k} = 1\n"
    procs = "".join(f"  proc p{i}() {{ p{i + 1}() }}\n" for i in range(k)) + f"  proc p{k}() {{ finish draw }}\n"
    cycle = "".join(f"  proc q{i}() {{ if n < 5 {{ n += 1  q{(i + 1) % k}() }} }}\n" for i in range(k))
    text = HEAD + defs + procs + cycle + "  setup { n = d0  if d0 == 3 { q0() } }\n" \
        + "  turn { step s { action a { p0() } } }\n}\n"
    found = lint(tmp_path, text)
    assert {d.code for d in found} <= {"W201", "W207"}        # (HEAD's unused enum and def)


def test_a_choice_passed_down_long_or_branching_chains_of_procs_lints_in_bounded_work(tmp_path, monkeypatch):
    """W250 follows a simultaneous choice into the procedures it is passed to: a chain of 40, each
    calling the next three times, was followed along all 3^39 paths (a lint that never ended), and
    a chain of 1,500 ran out of stack (E006 for a file that linted clean)."""
    from rulelang.language import lints
    calls = []
    follow = lints.StaticLint._kept_secret

    def counted(self, *args):
        calls.append(1)
        return follow(self, *args)
    monkeypatch.setattr(lints.StaticLint, "_kept_secret", counted)
    head = 'game "Deep" {\n  players 2\n  var v: int = 0 per player, owner\n'
    tail = '  setup { goto s }\n  step s simultaneous {\n    action a(n in 1..3) { p0(n) }\n' \
        '    reveal { finish draw }\n  }\n}\n'
    branching = "".join(f"  proc p{i}(x: int) {{ p{i + 1}(x)  p{i + 1}(x + 1)  p{i + 1}(x + 2) }}\n"
                        for i in range(39)) + "  proc p39(x: int) { v[me] = x }\n"
    found = lint(tmp_path, head + branching + tail)
    assert [d.code for d in found] == ["W250"] and len(calls) < 200
    long = "".join(f"  proc p{i}(x: int) {{ p{i + 1}(x) }}\n" for i in range(1500)) + "  proc p1500(x: int) { log text(x) }\n"
    assert [d.code for d in lint(tmp_path, head + long + tail)] == ["W201"]     # (`v`, never written)
    # (a review: six parameters, each call passing them shuffled, gave choices^parameters memo keys)
    calls.clear()
    params = ", ".join(f"x{j}: int" for j in range(6))
    orders = [[1, 2, 3, 4, 5, 0], [1, 0, 2, 3, 4, 5], [0, 0, 2, 3, 4, 5]]
    shuffled = "".join(f"  proc p{i}({params}) {{ " + "  ".join(
        f"p{i + 1}(" + ", ".join(f"x{j}" for j in order) + ")" for order in orders) + " }\n" for i in range(39))
    shuffled += f"  proc p39({params}) {{ log text(x0) }}\n"     # (nothing kept: every way is followed)
    action = "    action a(" + ", ".join(f"n{j} in 1..2" for j in range(6)) + ") { p0(" \
        + ", ".join(f"n{j}" for j in range(6)) + ") }\n"
    found = lint(tmp_path, head + shuffled + tail.replace("    action a(n in 1..3) { p0(n) }\n", action))
    assert [d.code for d in found] == ["W201"] and len(calls) < 2500


def test_a_recursion_error_in_the_checker_or_compiler_is_a_diagnostic(monkeypatch):
    tree = parser.parse(game(), "x.rules")

    def overflow(self):
        raise RecursionError
    monkeypatch.setattr(checker.Checker, "run", overflow)
    assert [(d.code, d.line) for d in checker.check(tree).diagnostics] == [("E006", 1)]
    monkeypatch.undo()
    checked = checker.check(tree)
    monkeypatch.setattr(compiler.Compiler, "run", overflow)
    with pytest.raises(RuleError) as err:
        compiler.compile_checked(checked)
    assert [d.code for d in err.value.diagnostics] == ["E006"]


def test_spans_count_lines_as_the_caret_line_does_with_carriage_returns():
    text = game("n = 1 1").replace("\n", "\r")
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(text, "x.rules")
    d = err.value.diagnostics[0]
    assert (d.code, d.line, d.column) == ("E001", SETUP_LINE, 11)
    assert d.format(text).splitlines()[1].strip() == "n = 1 1"


def test_a_stray_line_separator_is_pointed_at_on_its_own_line():
    text = game().replace("players 2", "players 2 \u2028 @")
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(text, "x.rules")
    d = err.value.diagnostics[0]
    assert (d.code, d.line, d.column) == ("E002", 2, 13)          # splitlines ends line 2 at U+2028:
    assert d.column == len(text.splitlines()[d.line - 1]) + 1       # the caret is just after its end


# ---- the IR of a deep or large rule file validates in bounded depth and time ----------------

def test_validate_ir_still_finds_a_bad_node_deep_inside(tmp_path):
    ir = rulelang.compile_source(game("n = v", "def v = " + nest("-{}", "1", 60)), "x.rules")
    e = ir["defs"]["v"]["body"]
    path = ["defs", "v", "body"]
    for _ in range(50):
        e = e["x"]
        path.append("x")
    e["k"] = "evil"
    with pytest.raises(RuleError) as err:
        validate.validate_ir(ir)
    assert all(d.code == "E301" for d in err.value.diagnostics)
    assert any("/".join(path) in d.message for d in err.value.diagnostics)


def test_validate_ir_validates_many_alike_statements_once(monkeypatch):
    ir = rulelang.compile_source(game("n = 1"), "x.rules")
    ir["setup"] = [{"s": "set", "target": {"k": "var", "n": "n", "i": None}, "op": "=",
                    "v": {"k": "lit", "v": i}, "line": 8} for i in range(5_000)]
    validate.validate_ir(ir)
    validators, calls = validate._validators(), []

    class Counted:                                  # counts the parts jsonschema is asked to validate
        def __init__(self, validator):
            self.validator = validator

        def iter_errors(self, part):
            calls.append(part)
            return self.validator.iter_errors(part)
    counted = {key: Counted(v) for key, v in validators.items()}
    with monkeypatch.context() as m:
        m.setattr(validate, "_quick_checks", lambda: {})        # (they pass these parts without jsonschema)
        m.setattr(validate, "_validators", lambda: counted)
        validate.validate_ir(ir)
    assert 0 < len(calls) < 100                     # the 5,000 alike statements are validated once
    ir["setup"][4_000]["op"] = "*="
    with pytest.raises(RuleError) as err:
        validate.validate_ir(ir)
    assert "setup/4000/op" in err.value.diagnostics[0].message


# ---- 2. YAML content ----------------------------------------------------------------------

RULES = """game "Chips" {
  players 2
  enum Colour { warm, cold }
  kind Chip { name: text  v: int = 0  colour: Colour = warm  label name }
  zone pool: pile, public
  zone hand: set per player, owner
  setup { create Chip from "chips.yaml" in pool }
  turn {
    step take {
      action take(c in pool) { move c to hand[me]  if size(pool) == 0 { finish draw }  end turn }
    }
  }
}
"""
CREATE = (7, 28)          # where the content path is written in RULES
CPU_LIMIT = 5.0           # CPU seconds one lint may take before it counts as a hang (the slowest: ~0.05 s)


@pytest.fixture()
def chips(tmp_path, monkeypatch):
    """Write chips.yaml (text or bytes) beside the rules; lint; the diagnostics as (file, code, line, column)."""
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "chips.rules"
    rules.write_text(RULES, encoding="utf-8")

    def run(data, rules_text: str = RULES):
        rules.write_text(rules_text, encoding="utf-8")
        target = tmp_path / "chips.yaml"
        if data is not None:
            (target.write_bytes if isinstance(data, bytes) else target.write_text)(data)
        started = time.process_time()
        diagnostics, _ = rulelang.lint([str(rules)])
        used = time.process_time() - started
        assert used < CPU_LIMIT, f"{used:.1f} s of CPU time: a hang?"
        for d in diagnostics:
            assert "\n" not in d.message and len(d.message) < 400, d.headline()
        return [(Path(d.file).name, d.code, d.line, d.column) for d in diagnostics]
    run.dir = tmp_path
    return run


def test_copies_over_the_limit_are_refused_at_once(chips):
    assert chips("- {name: red, copies: 100000}\n") == [("chips.yaml", "E506", 1, 23)]
    assert chips(f"- {{name: red, copies: {limits.COPIES_LIMIT}}}\n") == []


def test_more_components_than_a_match_holds_are_refused(chips):
    rows = limits.COMPONENT_LIMIT // limits.COPIES_LIMIT
    assert chips(f"- {{name: red, copies: {limits.COPIES_LIMIT}}}\n" * rows) == []
    assert chips(f"- {{name: red, copies: {limits.COPIES_LIMIT}}}\n" * (rows + 1)) == \
        [("chips.yaml", "E506", rows + 1, 3)]
    twice = RULES.replace('in pool }', 'in pool\n          create Chip from "chips.yaml" in pool }')
    assert chips(f"- {{name: red, copies: {limits.COPIES_LIMIT}}}\n" * (rows // 2 + 1), twice) == \
        [("chips.rules", "E506", 8, 11)]


def test_a_content_file_over_the_size_limit_is_refused_unread(chips):
    assert chips("- {name: " + "x" * limits.YAML_SIZE_LIMIT + "}\n") == [("chips.rules", "E506", *CREATE)]


def test_an_alias_bomb_is_refused_without_expanding_it(chips):
    bomb = "- &a0 {name: x}\n" + "".join(f"- &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10))
    assert chips(bomb) == [("chips.yaml", "E506", 6, 23)]
    assert chips("- &r [*r]\n") == [("chips.yaml", "E506", 1, 7)]              # an alias inside itself
    assert chips("- &r {name: a, v: *r}\n") == [("chips.yaml", "E506", 1, 19)]


def test_aliases_and_merge_keys_within_the_limits_make_rows(chips, tmp_path):
    assert chips("- &base {name: a, v: 1}\n- {<<: *base, v: 2}\n- {<<: [*base], name: b, colour: cold}\n") == []
    m = rulelang.load(str(tmp_path / "chips.rules")).new_match(2, seed=0)
    assert [c["fields"] for c in m.state()["components"]] == [
        {"name": "a", "v": 1, "colour": "warm"}, {"name": "a", "v": 2, "colour": "warm"},
        {"name": "b", "v": 1, "colour": "cold"}]


def test_nesting_past_the_yaml_depth_limit_is_refused(chips):
    assert chips("- name: a\n  v: " + "[" * 500 + "]" * 500 + "\n") == [("chips.yaml", "E506", 2, 36)]


@pytest.mark.parametrize("yaml, want", [
    ("- {[1, 2]: 3, name: a}\n", ("E502", 1, 4)),                        # a list as a key
    ("- {{a: 1}: 3, name: a}\n", ("E502", 1, 4)),                        # a mapping as a key
    ("- {1: 3, name: a}\n", ("E503", 1, 4)),
    ("- {name: !!python/object/apply:os.system [echo hi]}\n", ("E501", 1, 10)),
    ("- {name: !custom x}\n", ("E501", 1, 10)),
    ("- {name: !!binary aGVsbG8=}\n", ("E504", 1, 10)),
    ("- {name: a, v: " + "9" * 5000 + "}\n", ("E504", 1, 16)),          # too many digits to read
    ("- {name: a, v: 0x" + "f" * 5000 + "}\n", ("E504", 1, 16)),
    ("- {name: a, v: 99999999999999999999}\n", ("E504", 1, 16)),        # past INT_LIMIT
    ("- {name: a, v: 1.5}\n", ("E504", 1, 16)),
    ("- {name: a, v: .inf}\n", ("E504", 1, 16)),
    ("- {name: a, copies: 2.0}\n", ("E504", 1, 21)),
    ("- {name: a, v: 2020-01-01}\n", ("E504", 1, 16)),
    ("- {name: a, v: !!set {x, y}}\n", ("E504", 1, 16)),
    ("- {name: a}\n- \x00\n", ("E501", 2, 3)),                           # a character YAML refuses
    ("- &a {name: a}\n- &a {name: b}\n", ("E501", 2, 3)),
    ("- {name: a}\n---\n- {name: b}\n", ("E501", 2, 1)),
    ("- *nowhere\n", ("E501", 1, 3)),
    ('- {name: a, v: !!int ""}\n', ("E501", 1, 16)),                    # PyYAML raises IndexError here
    ('- {name: a, v: !!bool "maybe"}\n', ("E501", 1, 16)),
    ('- {name: a, v: !!timestamp "x"}\n', ("E501", 1, 16)),
])
def test_yaml_weirdness_is_one_diagnostic(chips, yaml, want):
    assert chips(yaml) == [("chips.yaml", *want)]


def test_a_content_file_that_is_not_utf8_is_refused(chips):
    assert chips(b"- {name: \xff\xfe}\n") == [("chips.yaml", "E501", 1, 10)]     # (at the byte: an attacker's trial)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs symbolic links and named pipes")
def test_links_out_of_the_folder_devices_and_pipes_are_refused_without_reading(chips):
    target = chips.dir / "chips.yaml"
    for dest in ("/dev/zero", "/etc/hostname"):
        target.unlink(missing_ok=True)
        target.symlink_to(dest)
        assert chips(None) == [("chips.rules", "E501", *CREATE)]
    target.unlink()
    os.mkfifo(target)
    assert chips(None) == [("chips.rules", "E501", *CREATE)]
    assert content.file_hash(target) is None and content.file_hash(Path("/dev/zero")) is None


def test_the_hash_in_the_ir_is_the_hash_the_cache_checks(chips, tmp_path):
    assert chips("- {name: red}\r\n- {name: blue}\r\n") == []
    ir = rulelang.compile_file(str(tmp_path / "chips.rules"))
    assert ir["imports"][0]["sha256"] == content.file_hash(tmp_path / "chips.yaml")


# ---- 3. lint warnings where a run-time limit will be hit ------------------------------------

LIMITS_GAME = """game "X" {
  players 2..4
  var n: int = 0
  zone pool: pile, public, capacity 30
  setup {
    for i in 1..200000 { n += 1 }
    repeat 20000 { n += 1 }
    repeat 5000 { repeat 5000 { n += 1 } }
    repeat 100 { for i in 1..100 { if n > 0 { repeat 300 { n += 1 } } } }
    repeat 100 { repeat 100 { n += 1 } }
    if n in 1..150000 { create Chip(v: 1) in pool }
  }
  kind Chip { v: int }
  turn { step s {
    action a(xs subset of 1..20) { finish draw }
    action b(xs subset of 1..20 size 1..3) { finish draw }
    action c(xs subset of pool) { finish draw }
    action d(xs subset of pool size 2) { finish draw }
    action e(xs subset of [1, 2, 3] size 0..9) { finish draw }
    action f(xs subset of players) { finish draw }
  } }
}
"""


def test_limits_a_rule_will_hit_are_warned_where_the_constants_show_them(tmp_path):
    found = [x for x in codes(lint(tmp_path, LIMITS_GAME), "warning") if x[0] in ("W210", "W211", "W212", "W213")]
    assert found == [("W210", 6, 14), ("W211", 7, 5), ("W213", 8, 19), ("W213", 9, 47), ("W210", 11, 13),
                     ("W212", 15, 14), ("W212", 17, 14)]


@pytest.mark.parametrize("setup, params", [
    ("for i in 1..200000 { n += 1 }", ""),
    ("if n in 1..150000 { n = 1 }", ""),
    ("repeat 20000 { n += 1 }", ""),
    ("repeat 5000 { repeat 5000 { n += 1 } }", ""),
    ("n = 1", "(xs subset of 1..20)"),
])
def test_each_warned_limit_is_one_the_engine_enforces(setup, params):
    text = game(setup).replace("action a {", f"action a{params} {{")
    with pytest.raises(rulelang.RuleRuntimeError, match="limit"):
        match = rulelang.Game(rulelang.compile_source(text, "x.rules")).new_match(2, seed=1)
        match.legal_actions()


# ---- 4. `create` in a `proc` is part of the language --------------------------------------

def test_create_inside_a_proc_is_accepted_and_runs(chips, tmp_path):
    rules = RULES.replace('  setup { create Chip from "chips.yaml" in pool }',
                          '  proc deal(k) { create Chip(name: "x", v: k) in pool }\n'
                          '  proc more() { create Chip from "chips.yaml" in pool }\n'
                          '  setup { deal(1)  more() }')
    assert chips("- {name: red, copies: 2}\n", rules) == []
    m = rulelang.load(str(tmp_path / "chips.rules")).new_match(2, seed=0)
    assert [c["label"] for c in m.state()["components"]] == ["x", "red", "red"]


# ---- 5. what mutating the real games turned up -----------------------------------------------

@pytest.mark.parametrize("zone, want", [
    ("zone pool: pile, capacity\n", ("E103", 4, 20)),          # was a traceback (AssertionError)
    ("zone pool: pile, capacity -1\n", ("E204", 4, 29)),       # the IR would be refused at load
    ("zone pool: pile, capacity 1 + 1\n", ("E204", 4, 29)),    # the capacity was silently dropped
])
def test_a_capacity_is_a_number_written_out(tmp_path, zone, want):
    text = HEAD.replace("  enum Suit", f"  {zone}  enum Suit") + "  setup { n = size(pool) }\n" + TAIL
    assert errors(tmp_path, text) == [want]


@pytest.mark.parametrize("option, want", [
    ("option o: int = 1 + 1", ("E204", DEF_LINE, 19)),
    ("option o: text = none", ("E204", DEF_LINE, 20)),
    ("option o: player = 0", ("E201", DEF_LINE, 13)),
    ("option o: Suit = a", ("E201", DEF_LINE, 13)),
    ("option o: int = -3", None),
])
def test_an_option_is_what_the_compiled_game_can_hold(tmp_path, option, want):
    text = game("log o", option)
    assert errors(tmp_path, text) == ([want] if want else [])
    if want is None:
        rulelang.Game(rulelang.compile_source(text, "x.rules")).new_match(2, seed=0)


def test_a_game_takes_at_most_64_players(tmp_path):
    assert errors(tmp_path, game().replace("players 2", "players 2..65")) == [("E203", 2, 3)]
    assert errors(tmp_path, game().replace("players 2", f"players 2..{checker.PLAYER_LIMIT}")) == []


def test_the_flow_lint_asks_each_events_handlers_once_not_once_per_emit(tmp_path, monkeypatch):
    """A fuzz trial: 6,000 handlers of one event and 20,000 `emit`s of it (352 kB, under the size
    limit) took 110 s of CPU to lint — every `emit` asked every handler how it ends the effect. The
    answer is kept per event: the handlers' bodies are asked a bounded number of times."""
    from rulelang.language.lint_flow import FlowLints
    asked = [0]
    call_exits = FlowLints.call_exits

    def counted(self, name, quiet):
        asked[0] += 1
        return call_exits(self, name, quiet)
    monkeypatch.setattr(FlowLints, "call_exits", counted)
    handlers, emits = 300, 600
    text = ('game "E" {\n  players 2\n  var s: int = 0\n  event ev(x: int)\n' + "  on ev(x) { s += 1 }\n" * handlers
            + "  turn { step st { action a {\n" + "emit ev(0)\n" * emits
            + "    if s > 3 { finish draw }\n    end turn } } }\n}\n")
    assert codes(lint(tmp_path, text), "error") == []
    assert asked[0] <= 8 * handlers, asked[0]              # (it was handlers × emits: 180,000)
