"""The TextMate grammar (editors/) stays valid and in step with the language: every word of the Lark
grammar and every builtin is highlighted, and the generated copies match editors/build.py."""
from __future__ import annotations

import importlib.util
import json
import plistlib
import re
from pathlib import Path

import pytest

from rulelang.ir.spec import BUILTIN_FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent
EDITORS = ROOT / "editors"
GRAMMAR = EDITORS / "rulelang.tmLanguage.json"


def lark_words() -> set[str]:
    text = re.sub(r"//[^\n]*", "", (ROOT / "grammar" / "rulelang.lark").read_text(encoding="utf-8"))
    return set(re.findall(r'"([A-Za-z_][A-Za-z_0-9]*)"', text))


def patterns(node) -> list[tuple[str, str]]:
    """Every (scope name, regex) in a TextMate grammar."""
    found = []
    if isinstance(node, dict):
        for key in ("match", "begin", "end"):
            if key in node:
                found.append((node.get("name", ""), node[key]))
        for value in node.values():
            found += patterns(value)
    elif isinstance(node, list):
        for value in node:
            found += patterns(value)
    return found


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads(GRAMMAR.read_text(encoding="utf-8"))


def scope_of(grammar: dict, text: str) -> str:
    """The scope the first matching pattern (in the grammar's order) gives `text` at its start."""
    repo = grammar["repository"]
    for top in grammar["patterns"]:
        rule = repo[top["include"][1:]]
        for p in [rule] if ("match" in rule or "begin" in rule) else rule["patterns"]:
            regex = p.get("match") or p.get("begin")
            m = re.match(regex, text)
            if m:
                return p.get("name") or p["captures"]["1"]["name"]
    return ""


def test_the_grammar_is_valid_json_for_rule_files(grammar):
    assert grammar["scopeName"] == "source.rulelang" and grammar["fileTypes"] == ["rules"]
    for include in grammar["patterns"]:
        assert include["include"][1:] in grammar["repository"]


def test_every_regex_compiles(grammar):
    found = patterns(grammar)
    assert len(found) > 15
    for _, regex in found:
        re.compile(regex)              # these use no Oniguruma-only syntax


def test_every_word_of_the_language_is_highlighted(grammar):
    text = "\n".join(regex for _, regex in patterns(grammar))
    missing = {w for w in lark_words() | set(BUILTIN_FUNCTIONS)
               if not re.search(rf"(?<![A-Za-z_0-9]){w}(?![A-Za-z_0-9])", text)}
    assert not missing, f"run `python editors/build.py`: not highlighted: {sorted(missing)}"


def test_the_generated_files_are_up_to_date():
    spec = importlib.util.spec_from_file_location("editors_build", EDITORS / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    for path, content in build.outputs().items():
        assert path.read_bytes() == content, f"{path.relative_to(ROOT)} is stale: run `python editors/build.py`"
    sublime = plistlib.loads((EDITORS / "sublime" / "rulelang.tmLanguage").read_bytes())
    assert sublime["scopeName"] == "source.rulelang"


@pytest.mark.parametrize("text, scope", [
    ("# a comment with zone and 12", "comment.line.number-sign.rulelang"),
    ('"a \\" string"', "string.quoted.double.rulelang"),
    ("zone hand: set", "storage.type.rulelang"),
    ("size(hand[me])", "support.function.builtin.rulelang"),
    ("size 1..3", "keyword.other.rulelang"),
    ("finish win", "keyword.control.rulelang"),
    ("sizes", ""),
    ("me", "variable.language.rulelang"),
    ("none", "constant.language.rulelang"),
    ("42", "constant.numeric.integer.rulelang"),
    ("+= 1", "keyword.operator.assignment.rulelang"),
    ("..", "keyword.operator.range.rulelang"),
])
def test_samples_are_coloured_as_expected(grammar, text, scope):
    assert scope_of(grammar, text) == scope


def test_the_vscode_extension_contributes_the_language_and_grammar():
    package = json.loads((EDITORS / "vscode" / "package.json").read_text(encoding="utf-8"))
    [language] = package["contributes"]["languages"]
    [grammar] = package["contributes"]["grammars"]
    assert language["id"] == grammar["language"] == "rulelang" and language["extensions"] == [".rules"]
    assert grammar["scopeName"] == "source.rulelang"
    assert (EDITORS / "vscode" / grammar["path"]).is_file()
    config = json.loads((EDITORS / "vscode" / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#" and ["{", "}"] in config["brackets"]
