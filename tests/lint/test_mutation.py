"""Property tests: the linter survives any damage to a real rule file.

Hypothesis mutates every rule file in games/ — deleting, duplicating and swapping tokens
and lines, a few edits at a time — and the linter must never raise (no traceback), must
point every diagnostic at a real place inside the mutated file, and must agree with the
compiler: a file it passes without errors compiles. Derandomized, so CI sees the same
examples every run.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.core.errors import RuleError

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
SOURCES = {p.name: p.read_text(encoding="utf-8") for p in GAMES}
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z_][A-Za-z_0-9]*|\d+|\.\.|[+\-]=|[=!<>]=|\s+|.', re.S)
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def mutate(text: str, edits: list[tuple[str, int, int]]) -> str:
    """Apply (operation, i, j) edits; i and j are taken modulo the current number of units."""
    for op, i, j in edits:
        unit = "line" if op.endswith("line") else "token"
        parts = text.splitlines(keepends=True) if unit == "line" else tokens(text)
        if unit == "token":
            idx = [k for k, t in enumerate(parts) if not t.isspace()]   # never just whitespace
        else:
            idx = list(range(len(parts)))
        if not idx:
            continue
        a, b = idx[i % len(idx)], idx[j % len(idx)]
        if op.startswith("delete"):
            del parts[a]
        elif op.startswith("duplicate"):
            parts.insert(a, parts[a])
        else:                                   # swap
            parts[a], parts[b] = parts[b], parts[a]
        text = "".join(parts)
    return text


OPS = ["delete_token", "duplicate_token", "swap_token", "delete_line", "duplicate_line", "swap_line"]
EDITS = st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 10_000), st.integers(0, 10_000)),
                 min_size=1, max_size=3)


def lint_text(tmp: Path, text: str):
    path = tmp / "mutant.rules"
    path.write_text(text, encoding="utf-8")
    diagnostics, sources = rulelang.lint([str(path)])
    return str(path), diagnostics, sources


def assert_points_inside(path: str, text: str, diagnostics) -> None:
    lines = text.splitlines() or [""]
    for d in diagnostics:
        assert d.severity in ("error", "warning")
        assert re.fullmatch(r"[EW]\d{3}", d.code), d.code
        assert d.message
        assert d.span is not None and d.file == path, d.headline()
        assert 1 <= d.line <= len(lines), d.headline()
        assert 1 <= d.column <= len(lines[d.line - 1]) + 1, d.headline()
        if d.span.end_line:
            assert d.line <= d.span.end_line <= len(lines), d.headline()
        d.format(text)                          # the caret line can be drawn
        d.to_json()


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("mutants")


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_mutated_games_lint_without_a_traceback_and_point_inside_the_file(tmp, name):
    source = SOURCES[name]
    # (a mutant costs about a lint of the whole game: a larger file gets fewer, at least 20 — Dozen
    # War's 40 took a tenth of the suite's CPU; `python tests/fuzz.py` runs thousands)
    examples = max(20, min(40, 40 * 25_000 // len(source)))

    @settings(SETTINGS, max_examples=examples)
    @given(EDITS)
    def check(edits):
        text = mutate(source, edits)
        path, diagnostics, sources = lint_text(tmp, text)
        assert sources == {path: text}
        assert_points_inside(path, text, diagnostics)
        if not any(d.severity == "error" for d in diagnostics):
            try:
                rulelang.compile_source(text, path)          # what lints clean compiles
            except RuleError as err:                         # pragma: no cover - reported with its text
                raise AssertionError(f"lint passed but compile failed: {err}") from None

    check()


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_deep_lint_of_mutated_games_never_raises(tmp, name):
    source = SOURCES[name]

    @settings(max_examples=15, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(EDITS)
    def check(edits):
        text = mutate(source, edits)
        path, diagnostics, _ = lint_text(tmp, text)
        found = rulelang.deep_lint(path, games=2, seed=0, max_actions=60)
        if any(d.severity == "error" for d in diagnostics):
            assert [d.code for d in found] == [d.code for d in diagnostics if d.severity == "error"]
        else:
            assert all(d.code == "W405" or d.code.startswith("E41") for d in found)
            assert_points_inside(path, text, found)

    check()


def test_mutations_do_change_the_text():
    """The strategy is not vacuous: edits really produce other files."""
    source = SOURCES[sorted(SOURCES)[0]]
    assert mutate(source, [("delete_token", 5, 0)]) != source
    assert mutate(source, [("swap_line", 3, 40)]) != source
    assert mutate(source, [("duplicate_line", 7, 0)]).count("\n") == source.count("\n") + 1
    assert "".join(tokens(source)) == source
