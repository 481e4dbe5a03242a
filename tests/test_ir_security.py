"""Compiled IR is untrusted: nothing in it may run code, and a bad one is a RuleError, never a traceback.

The reproducers of the security issue (an operator string pasted into generated Python, through
a `let` value, a variable target's index and a `repeat` count), the closed tables the generator
dispatches on, and 100 hand-edited IR mutants: schema-valid or not, `Game(ir)` and a few actions on
the match either work or fail with rulelang's own errors.
"""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.ir import spec as irspec
from rulelang.ir.check import check_ir
from rulelang.engine.codegen import Lowerer
from rulelang.engine.codegen.constants import PY_ASSIGN, PY_BINARY, PY_UNARY
from rulelang.ir.validate import validate_ir
from rulelang.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
PAYLOAD = "+ __import__('os').system('touch pwned') +"


def evil_bin() -> dict:
    return {"k": "bin", "op": PAYLOAD, "l": {"k": "builtin", "n": "player_count"}, "r": {"k": "lit", "v": 0}}


def regicide_ir() -> dict:
    return rulelang.compile_file(str(ROOT / "games" / "regicide.rules"))


def with_let(ir):
    ir["setup"].insert(0, {"s": "let", "n": "x", "v": evil_bin()})


def with_target_index(ir):
    var = next(v for v in ir["vars"] if v["per"] == "player")
    ir["setup"].insert(0, {"s": "set", "target": {"k": "var", "n": var["name"], "i": evil_bin()}, "op": "=",
                           "v": {"k": "lit", "v": 0}})


def with_repeat(ir):
    ir["setup"].insert(0, {"s": "repeat", "n": evil_bin(), "body": []})


def with_statement_kind(ir):
    ir["setup"].insert(0, {"s": "__class__"})


def with_builtin_call(ir):
    ir["setup"].insert(0, {"s": "let", "n": "x", "v": {"k": "call", "f": "__import__", "a": [{"k": "lit", "v": "os"}]}})


def with_text_how(ir):
    ir["setup"].insert(0, {"s": "log", "v": {"k": "text", "x": {"k": "lit", "v": 1}, "as": "x') or exec('1"}})


@pytest.mark.parametrize("inject", [with_let, with_target_index, with_repeat, with_statement_kind,
                                    with_builtin_call, with_text_how])
def test_injected_ir_is_refused_before_any_code_runs(inject, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ir = regicide_ir()
    inject(ir)
    with pytest.raises(rulelang.RuleError) as err:
        Game(ir)                                  # the engine's own check, without the schema
    assert "not a usable compiled game" in str(err.value.diagnostics[0].message)
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps(ir), encoding="utf-8")
    with pytest.raises(rulelang.RuleError):
        rulelang.load(str(evil))                  # through the schema as well
    with pytest.raises(rulelang.RuleError):
        validate_ir(ir)
    assert not (tmp_path / "pwned").exists()


def test_rulelang_play_on_an_injected_ir_prints_one_line_and_runs_nothing(tmp_path, monkeypatch, capsys):
    from rulelang.cli import main
    monkeypatch.chdir(tmp_path)
    ir = regicide_ir()
    with_let(ir)
    (tmp_path / "evil.json").write_text(json.dumps(ir), encoding="utf-8")
    code = main(["simulate", "evil.json", "--games", "1"])
    out = capsys.readouterr()
    assert code != 0 and "Traceback" not in out.err + out.out
    assert not (tmp_path / "pwned").exists()


def test_the_generator_dispatches_on_exactly_irspec_s_tables():
    assert set(Lowerer.EXPR_LOWERING) == set(irspec.EXPRESSIONS)
    assert set(Lowerer.STMT_LOWERING) == set(irspec.STATEMENTS)
    assert set(PY_BINARY) == set(irspec.BINARY_OPS)
    assert set(PY_UNARY) == set(irspec.UNARY_OPS)
    assert set(PY_ASSIGN) == set(irspec.ASSIGN_OPS)


def test_the_schema_file_is_generated_from_irspec():
    schema = json.loads((ROOT / "rulelang" / "ir" / "schema.json").read_text(encoding="utf-8"))
    assert {k: schema["$defs"][k] for k in ("expr", "stmt")} == irspec.schema_defs(), \
        "run `python -m rulelang.ir.spec` to regenerate rulelang/ir/schema.json"


def test_the_schema_requires_each_kind_s_fields():
    ir = regicide_ir()
    ir["setup"].insert(0, {"s": "move", "to": {"k": "zone", "n": ir["zones"][0]["name"], "i": None}, "pos": ""})
    with pytest.raises(rulelang.RuleError) as err:
        validate_ir(ir)
    assert "what" in err.value.diagnostics[0].message


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_game_s_ir_passes_both_checks(path):
    ir = rulelang.compile_file(str(path))
    validate_ir(ir)
    check_ir(ir)


# ---- hand-edited IR mutants ----
def nodes(x, path=()):
    """Every (container, key) pair in a JSON tree, in a fixed order."""
    if isinstance(x, dict):
        for k in x:
            yield x, k
            yield from nodes(x[k])
    elif isinstance(x, list):
        for i in range(len(x)):
            yield x, i
            yield from nodes(x[i])


def strings(ir) -> list:
    found = {v for c, k in nodes(ir) if isinstance(v := c[k], str)}
    return sorted(found)


def mutate(ir: dict, rng: random.Random) -> dict:
    ir = copy.deepcopy(ir)
    spots = list(nodes(ir))
    words = strings(ir)
    for _ in range(rng.randint(1, 3)):
        container, key = rng.choice(spots)
        how = rng.randrange(7)
        if how == 0 and isinstance(container, dict):
            container.pop(key, None)
        elif how == 1:
            container[key] = rng.choice(words)
        elif how == 2:
            container[key] = rng.choice([0, -1, 1, 10 ** 9, -10 ** 9, 2 ** 70, True, None, 1.5, "", [], {}])
        elif how == 3:
            other_c, other_k = rng.choice(spots)
            try:
                container[key] = copy.deepcopy(other_c[other_k])
            except (KeyError, IndexError):
                pass
        elif how == 4 and isinstance(container, list) and container:
            container.insert(rng.randrange(len(container) + 1), copy.deepcopy(rng.choice(container)))
        elif how == 5:
            container[key] = {"k": rng.choice(list(irspec.EXPRESSIONS)), "n": rng.choice(words), "v": 1}
        else:
            container[key] = [container[key]]
        spots = list(nodes(ir))
    return ir


MUTANTS = 16        # per game here; `python tests/fuzz.py --kind ir` runs thousands


def play_briefly(game: Game, seed: int) -> None:
    match = game.new_match(game.min_players, seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        if match.is_over:
            break
        actions = match.legal_actions()
        if not actions:
            break
        match.apply(rng.choice(actions))
    match.state()
    for p in range(match.players):
        match.view(p)


@pytest.mark.slow
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_ir_mutants_never_raise_a_python_exception(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = rulelang.compile_file(str(path))
    rng = random.Random(f"mutants {path.stem}")
    problems = []
    # a mutant costs about a compile of the whole game: a game ten times larger gets fewer
    # (`python tests/fuzz.py --kind ir` runs thousands of every game)
    count = max(6, min(MUTANTS, MUTANTS * 25_000 // len(json.dumps(base))))
    for i in range(count):
        ir = mutate(base, rng)
        try:
            validate_ir(ir)
        except rulelang.RuleError:
            pass
        try:
            play_briefly(Game(ir), seed=i)
        except rulelang.RulelangError:
            pass
        except Exception as err:                     # noqa: BLE001 - the point of the test
            problems.append(f"mutant {i}: {type(err).__name__}: {err}")
    assert not problems, "\n".join(problems[:10])
    assert not (tmp_path / "pwned").exists()


def test_the_mutator_makes_schema_valid_mutants():
    """Without it the test above would only ever exercise the validator. A few % of mutants pass;
    searched on the smallest game, where a mutant costs least (a large game's search took 20 s)."""
    base = rulelang.compile_file(str(ROOT / "games" / "regicide.rules"))
    rng = random.Random("mutants regicide")
    valid = 0
    for _ in range(300):
        try:
            validate_ir(mutate(base, rng))
            valid += 1
            break
        except rulelang.RuleError:
            pass
    assert valid > 0


def test_a_deeply_nested_or_huge_ir_file_is_one_error_line(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.load(str(deep))
    assert err.value.diagnostics[0].code == "E300" and "nests deeper" in err.value.diagnostics[0].message


def test_a_device_is_not_read_as_a_rule_file():
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.load("/dev/zero")
    assert "not a regular file" in err.value.diagnostics[0].message


def test_a_compiled_file_whose_types_were_edited_ends_in_a_rule_error_not_an_internal_error(tmp_path):
    """A shared .json whose `top(tavern)` was edited into `top(me)` passes the IR checks (its
    shapes and names are right) and fails in an engine helper handed a number. Read from a file,
    that is the file's fault: a rule error that says to compile it again. Made by the compiler in
    this process, the same fault would be the engine's (EngineFault: please report it)."""
    ir = rulelang.compile_file(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    what = ir["procs"]["draw_round_the_table"]["body"][3]["body"][0]["then"][0]["what"]["a"]
    assert what[0] == {"k": "zone", "n": "tavern", "i": None}
    what[0] = {"k": "builtin", "n": "me"}
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(ir), encoding="utf-8")

    def first_error(game):
        for seed in range(30):
            m, pick = game.new_match(2, seed), random.Random(seed)
            try:
                while not m.is_over:
                    m.apply(pick.choice(m.legal_actions()))
            except rulelang.RulelangError as err:
                return err
        raise AssertionError("no game met the edited rule")
    err = first_error(rulelang.load(str(path)))
    assert type(err) is rulelang.RuleRuntimeError, err
    assert "not subscriptable" in str(err) and "compile it again from its rule file" in str(err)
    assert type(first_error(Game(ir))) is rulelang.EngineFault


@pytest.mark.parametrize("change", ["drop the depth", "a depth on top"])
def test_a_compiled_move_has_a_depth_exactly_when_it_is_an_insert(change):
    """A trial of `insert`: a crafted IR with `"pos": "depth"` and no depth ran as "on top", and a
    depth on a plain move was ignored — both are refused as the game loads now."""
    source = """
game "I" {
  players 1
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile, hidden
  zone hand: set, public
  setup { for i in 1..3 { create Card(n: i) in deck }  create Card(n: 9) in hand }
  turn { step s { action put { insert(top(hand), deck, 1)  finish draw }  action take { move top(deck) to hand  finish draw } } }
}
"""
    ir = rulelang.compile_source(source, "i.rules")
    moves = [x for x in rulelang.ir.spec.walk_ir(ir) if x.get("s") == "move"]
    inserted = next(x for x in moves if x["pos"] == "depth")
    plain = next(x for x in moves if x["pos"] != "depth")
    if change == "drop the depth":
        del inserted["depth"]
    else:
        plain["depth"] = {"k": "lit", "v": 1}
    with pytest.raises(rulelang.RuleError, match="depth"):
        rulelang.Game(ir)


@pytest.mark.parametrize("value, said", [(1e308, r"1e\+308 is written as a decimal number"),
                                         (2.5, "2.5 is written as a decimal number"), (10.0, "10.0 is written as a decimal"),
                                         (2 ** 70, "a number is at most")])
def test_a_literal_that_is_no_whole_number_within_the_limit_is_refused(value, said):
    """An attacker's trial: a compiled IR's `1e308` or `2.5` was accepted in any expression; `n * n` then
    held inf and nan, past the integer limit, and a save of the match could not be replayed."""
    ir = regicide_ir()
    found = next(c[k] for c, k in nodes(ir) if isinstance(c[k], dict) and c[k].get("k") == "lit"
                 and type(c[k].get("v")) is int)
    found["v"] = value
    with pytest.raises(rulelang.RulelangError, match=said):
        check_ir(ir)


def test_the_rule_files_name_an_ir_gives_is_short_and_printable():
    """An attacker's trial: an IR's `source`, said with every rule error, was 3,000,000 characters long."""
    for source in ("x" * 1001, "a\x1b[2Jb"):
        ir = regicide_ir()
        ir["source"] = source
        with pytest.raises(rulelang.RulelangError, match="/source: not the name of a rule file"):
            check_ir(ir)
