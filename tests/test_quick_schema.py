"""The quick schema checks (validate._quick_checks) answer as jsonschema does.

validate_ir asks a predicate built from ir.schema.json first and jsonschema only for a part the
predicate does not pass. That is safe only if the predicate never passes what jsonschema refuses;
here it is compared with jsonschema on every part of every game's IR and on thousands of mutants
of those parts, and must agree exactly wherever it gives an answer (it may only give up: _Unsure).
"""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.ir import validate

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
ODD_VALUES = [0, 1, -1, 2, True, False, None, 1.0, 1.5, "", "x", "lit", "var", "0" * 64, [], {}, (), (1,),
              [{"k": "lit", "v": 1}], {"k": "lit", "v": None}, {"s": "goto", "step": "x"}]


def parts(ir: dict):
    """Every part validate_ir validates, with the key of its validator (as validate_ir picks it)."""
    schemas = validate._schemas()
    work = [("ir", ir, [])]
    while work:
        role, doc, path = work.pop()
        part, cuts = validate._slice(doc, "top" if role == "ir" else role, path)
        work.extend(reversed(cuts))
        tag = part.get("k" if role == "expr" else "s") if isinstance(part, dict) else None
        key = (role, tag) if role in ("expr", "stmt") and isinstance(tag, str) and (role, tag) in schemas else role
        yield key, part


def verdicts(key, part) -> tuple:
    """(the quick check's answer or "unsure", whether jsonschema finds no error)."""
    try:
        quick = validate._quick_checks()[key](part)
    except validate._Unsure:
        quick = "unsure"
    return quick, not any(True for _ in validate._validators()[key].iter_errors(part))


def shake(x, rng: random.Random):
    """A copy of a part with one or two small changes: a value swapped, a key dropped or added,
    an item added to a list."""
    x = copy.deepcopy(x)
    for _ in range(rng.randint(1, 2)):
        spots = [(None, None)]
        stack = [x]
        while stack:
            c = stack.pop()
            keys = list(c) if isinstance(c, dict) else range(len(c)) if isinstance(c, list) else ()
            for k in keys:
                spots.append((c, k))
                stack.append(c[k])
        container, key = rng.choice(spots)
        if container is None:
            if isinstance(x, dict):
                x[rng.choice(["extra", "k", "s", "n", "v", "line"])] = rng.choice(ODD_VALUES)
            continue
        how = rng.randrange(4)
        if how == 0 and isinstance(container, dict):
            del container[key]
        elif how == 1 and isinstance(container, list):
            container.append(copy.deepcopy(rng.choice(ODD_VALUES)))
        else:
            container[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    return x


def test_every_schema_has_a_quick_check():
    assert set(validate._quick_checks()) == set(validate._schemas())


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_quick_checks_pass_every_part_of_every_game(path):
    for key, part in parts(rulelang.compile_file(str(path))):
        assert verdicts(key, part) == (True, True), (key, part)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_quick_checks_agree_with_jsonschema_on_mutants(path):
    rng = random.Random(f"quick {path.stem}")
    found = list(parts(rulelang.compile_file(str(path))))
    answered = refused = 0
    for _ in range(1500):
        key, part = rng.choice(found)
        mutant = shake(part, rng)
        for k in {key, "expr" if isinstance(key, tuple) and key[0] == "expr" else "stmt"}:
            quick, valid = verdicts(k, mutant)
            if quick != "unsure":
                assert quick == valid, (k, mutant)
                answered += 1
                refused += not valid
    assert answered > 1000 and refused > 100


def test_json_meanings_the_quick_checks_must_keep():
    check = validate._quick_checks()
    ok = {"k": "lit", "v": 1}
    assert validate._passes(check["expr"], ok)
    assert not validate._passes(check["expr"], {**ok, "k": "nope"})
    assert not validate._passes(check["expr"], {**ok, "extra": 1})          # additionalProperties: false
    ir = rulelang.compile_file(str(ROOT / "games" / "regicide.rules"))
    top, _ = validate._slice(ir, "top", [])
    assert validate._passes(check["ir"], top)
    for value in (True, 1.0, "1"):                    # `ir_version: {const: 1}`: not true, not 1.0, not "1"
        assert not validate._passes(check["ir"], {**top, "ir_version": value})
    assert not validate._passes(check["ir"], {**top, "players": {"min": True, "max": 2}})   # a bool is no integer
    assert not validate._passes(check["ir"], {**top, "setup": tuple(top["setup"])})         # a tuple is no array


def test_validate_ir_reports_exactly_what_jsonschema_alone_reports(monkeypatch):
    rng = random.Random("reports")
    base = rulelang.compile_file(str(ROOT / "games" / "valgard.rules"))
    from test_ir_security import mutate
    mutants = [mutate(base, rng) for _ in range(40)]      # (some valid, some not: see the last assert)

    def report(ir):
        try:
            validate.validate_ir(copy.deepcopy(ir))
        except rulelang.RuleError as err:
            return [(d.code, d.message) for d in err.diagnostics]
        return []
    quick = [report(ir) for ir in mutants]
    monkeypatch.setattr(validate, "_quick_checks", lambda: {})
    assert [report(ir) for ir in mutants] == quick
    assert any(quick) and not all(quick)
