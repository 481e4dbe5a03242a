"""Nothing but printable text reaches the terminal from a rule file or a save: escape sequences,
control characters and bidi overrides in names, labels, actions, logs and messages come out as
visible `\\uXXXX` escapes, wherever rulelang prints them."""
from __future__ import annotations

import io
import json
import re
import sys

import pytest

import rulelang
from rulelang.cli import main
from rulelang.core.textsafe import printable

# Every character a terminal might obey, or that reorders what is shown.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

EVIL = (
    'game "Evil\x1b]0;pwned\x07\x1b[2J" {\n'
    '  players 1..2\n'
    '  enum Colour { red "\x1b[31mred\u202e", blue "blue\u2066" }\n'
    '  kind Chip { v: int  c: Colour = red  label "c" + text(v) + text(c) + "\x9b" }\n'
    '  zone pool: pile, public\n'
    '  zone hand: set per player, public\n'
    '  show def banner = "\x1b[5mblink\\n\x1b[1A"\n'
    '  setup { for v in [1, 2, 3] { create Chip(v: v) in pool } }\n'
    '  turn {\n'
    '    step take {\n'
    '      action take(c in pool) {   # a comment \x1b[31m\n'
    '        move c to hand[me]\n'
    '        log "took\x1b[K" + text(c.v)\n'
    '        if size(pool) == 0 { finish draw }\n'
    '        end turn\n'
    '      }\n'
    '    }\n'
    '  }\n'
    '}\n'
)


@pytest.fixture()
def evil(tmp_path):
    path = tmp_path / "evil.rules"
    path.write_text(EVIL, encoding="utf-8")
    return path


def clean(text: str) -> None:
    assert not UNSAFE.search(text), repr(UNSAFE.search(text).group())
    assert "Traceback" not in text


def run(capsys, monkeypatch, argv, stdin: str = "") -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    clean(out)
    clean(err)
    return code, out + err


# -- the function ------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, shown", [
    ("K♠ Jester Valgarð", "K♠ Jester Valgarð"),
    ("\x1b[31mred", "\\u001b[31mred"),
    ("a\rb\x07c\x00", "a\\u000db\\u0007c\\u0000"),
    ("\x9b2J\x85", "\\u009b2J\\u0085"),
    ("abc\u202edef\u2066x\u2069", "abc\\u202edef\\u2066x\\u2069"),
    ("line\nbreak\ttab", "line\\u000abreak\\u0009tab"),
    ("\ud800", "\\ud800"),
    # (characters that show nothing: two texts that differ look alike — a fuzz trial; ZWJ stays)
    ("a\u200bb\u2060c\ufeffd\U000e0041e", "a\\u200bb\\u2060c\\ufeffd\\udb40\\udc41e"),
    ("👩\u200d💻", "👩\u200d💻"),
    # (and the other blank ones: `concede` twice, one with U+2063, agreed a draw — an attacker's trial)
    ("con\u2063cede\xad\u3164\ufff9\u206a\u180e", "con\\u2063cede\\u00ad\\u3164\\ufff9\\u206a\\u180e"),
    ("café 한국어 e\u0301", "café 한국어 e\u0301"),
    # (a review: variation selectors after a plain letter, and other blank marks; an emoji's and a keycap's stay)
    ("concede\ufe00 x\U000e0100 y\u180b z\U0001d173", "concede\\ufe00 x\\udb40\\udd00 y\\u180b z\\ud834\\udd73"),
    ("❤\ufe0f 1\ufe0f\u20e3 葛\U000e0100", "❤\ufe0f 1\ufe0f\u20e3 葛\U000e0100"),
])
def test_printable_escapes_what_a_terminal_would_obey(raw, shown):
    assert printable(raw) == shown
    assert printable(shown) == shown                      # idempotent


def test_multiline_keeps_our_line_breaks_and_json_stays_json():
    assert printable("one\n\ttwo\x1b", multiline=True) == "one\n\ttwo\\u001b"
    data = {"name": "x\x1b[2J\u202e\x9b\U000e0041", "list": ["\x07"]}
    text = printable(json.dumps(data, ensure_ascii=False, indent=1), multiline=True)
    clean(text)
    assert json.loads(text) == data


# -- every door: play, log, save/load, replay, simulate, lint, compile, errors ---------------------------

def test_play_shows_the_rule_files_words_escaped(capsys, monkeypatch, evil, tmp_path):
    save = tmp_path / "evil.json"
    code, out = run(capsys, monkeypatch, ["play", evil, "--seed", "1"], f"1\nlog\nsave {save}\nload {save}\n2\n1\n")
    assert code == 0
    assert out.startswith("Evil\\u001b]0;pwned\\u0007\\u001b[2J: 1 player, seed 1\n")
    assert "P1 plays: take c1\\u001b[31mred\\u202e\\u009b" in out
    assert "banner: \\u001b[5mblink\\u000a\\u001b[1A" in out           # its line break is not ours
    assert "Game over" in out


def test_replay_and_simulate_output_is_escaped(capsys, monkeypatch, evil, tmp_path):
    save = tmp_path / "evil.json"
    run(capsys, monkeypatch, ["play", evil, "--seed", "1"], f"1\nsave {save}\nquit\n")
    code, out = run(capsys, monkeypatch, ["replay", save])
    assert code == 0 and "   1. P1: take c1\\u001b[31mred" in out
    code, out = run(capsys, monkeypatch, ["simulate", evil, "--games", "3"])
    assert code == 0 and out.startswith("Evil\\u001b]0;pwned")
    code, out = run(capsys, monkeypatch, ["simulate", evil, "--games", "3", "--json"])
    assert code == 0 and json.loads(out)["game"] == "Evil\x1b]0;pwned\x07\x1b[2J"


def test_a_save_with_escapes_in_its_words_is_refused_printably(capsys, monkeypatch, evil, tmp_path):
    save = tmp_path / "evil.json"
    run(capsys, monkeypatch, ["play", evil, "--seed", "1"], f"1\nsave {save}\nquit\n")
    data = json.loads(save.read_text(encoding="utf-8"))
    data["name"] = "Evil\x1b[2J\u202e"
    data["log"] = ["take \x1b[31m\n\rthis"] + data["log"]
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(capsys, monkeypatch, ["replay", save, "--rules", evil])
    assert code == 1 and "it is a save of 'Evil\\x1b[2J\\u202e'" in out
    data["name"] = rulelang.load(str(evil)).name
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(capsys, monkeypatch, ["replay", save, "--rules", evil])
    assert code == 1 and "action 1, `take \\u001b[31m\\u000a\\u000dthis`, is not legal" in out
    code, out = run(capsys, monkeypatch, ["play", evil, "--seed", "1"], f"load {save}\nquit\n")
    assert "is not legal at that point" in out


def test_lint_compile_and_errors_quote_the_rule_file_escaped(capsys, monkeypatch, evil, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "X\x1b[2J" {\n  players 1\n  setup { nosuch \u202e }\n}\n', encoding="utf-8")
    code, out = run(capsys, monkeypatch, ["lint", bad])
    assert code == 1 and "unexpected character U+202E (right-to-left override), which does not show" in out
    code, out = run(capsys, monkeypatch, ["lint", "--format", "json", bad])
    assert code == 1 and "U+202E (right-to-left override)" in json.loads(out)[0]["message"]
    code, out = run(capsys, monkeypatch, ["play", bad])
    assert code == 1
    code, out = run(capsys, monkeypatch, ["compile", evil])
    assert code == 0 and json.loads(out)["name"] == "Evil\x1b]0;pwned\x07\x1b[2J"
    code, out = run(capsys, monkeypatch, ["play", evil, "--option", "x\x1b[2J=1"])
    assert code == 1 and out.startswith("error: unknown option `x\\u001b[2J`")
