"""The LALR tables shipped beside the grammar (grammar/rulelang.tables.json) are those Lark builds
from it: a parse with them is the parse without them, and a stale or broken file is not used."""
from __future__ import annotations

import json
from pathlib import Path

import lark
import pytest

from rulelang.language import parser

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "grammar" / parser.TABLES


def test_the_shipped_tables_were_made_from_this_grammar():
    import hashlib
    doc = json.loads(SHIPPED.read_text(encoding="utf-8"))
    text = parser.grammar_text()
    assert doc["grammar"] == hashlib.sha256(text.encode("utf-8")).hexdigest(), \
        "grammar/rulelang.tables.json is stale: run `python -m rulelang.language.parser --tables`"
    # (Lark numbers the states differently from one process to the next, so the file is compared
    # by what it parses, below, not byte for byte with a fresh one)


@pytest.mark.parametrize("game", ["regicide", "valgard", "smash_up", "shadow_hunters", "dozen_war"])
def test_a_parse_with_the_shipped_tables_is_the_parse_without_them(game):
    text = parser.grammar_text()
    shipped = parser._shipped(text)
    if shipped is None:
        pytest.skip(f"the tables were made by another Lark than {lark.__version__}")
    source = (ROOT / "games" / f"{game}.rules").read_text(encoding="utf-8")
    built = parser._build(text)
    a, b = shipped.parse(source, start="start"), built.parse(source, start="start")
    assert a == b
    assert [(t.line, t.column, t.end_line, t.end_column) for t in a.scan_values(lambda v: True)] == \
           [(t.line, t.column, t.end_line, t.end_column) for t in b.scan_values(lambda v: True)]


@pytest.mark.parametrize("content", ["", "{", "[]", '{"grammar": "0", "lark": "1", "tables": {}}', "\u0000" * 10])
def test_stale_or_broken_tables_are_not_used(monkeypatch, content):
    real = parser._grammar_file
    monkeypatch.setattr(parser, "_grammar_file", lambda name: content if name == parser.TABLES else real(name))
    assert parser._shipped(parser.grammar_text()) is None
    parser._lark.cache_clear()
    try:
        tree = parser._lark().parse('game "G" { players 1..1 }', start="start")   # built from the grammar
        assert tree.data == "start"
    finally:
        parser._lark.cache_clear()
