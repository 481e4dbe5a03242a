"""Diagnostics of broken copies of games/regicide.rules.

Each case makes one targeted text edit to the real game and checks what `rulelang.lint`
and `rulelang lint` say about it: the code, the message, the did-you-mean suggestion
and the exact line and column, computed from the edited text itself (never hard-coded).
"""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = ROOT / "games" / "regicide.rules"
SOURCE = REGICIDE.read_text(encoding="utf-8")


# -- helpers ----------------------------------------------------------------------

def position(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of text[index], columns counted in characters."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def edited(old: str, new: str) -> tuple[str, int]:
    """The game with the first `old` replaced by `new`, and where the replacement starts."""
    index = SOURCE.index(old)
    return SOURCE[:index] + new + SOURCE[index + len(old):], index


def write(tmp_path: Path, text: str, name: str = "broken.rules") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_lint(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["lint", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def errors_of(diagnostics):
    return [d for d in diagnostics if d.severity == "error"]


def caret_block(out: str, headline: str) -> tuple[str, str]:
    """The source line and the caret line printed under `headline`."""
    lines = out.splitlines()
    at = lines.index(headline)
    return lines[at + 1], lines[at + 2]


@dataclass
class Case:
    id: str
    old: str                 # replaced once in the real game ...
    new: str                 # ... by this
    anchor: str              # the diagnostic points at this part of `new`
    code: str
    message: str             # the exact message
    suggestion: str | None = None

    def build(self) -> tuple[str, int, int]:
        text, start = edited(self.old, self.new)
        line, column = position(text, start + self.new.index(self.anchor))
        return text, line, column


CASES = [
    Case("unknown-zone-name", "hand[me]", "hnd[me]", "hnd", "E101", "unknown name `hnd`", "hand"),
    Case("unknown-zone-in-move", "move table to discard", "move tabel to discard", "tabel",
         "E101", "unknown name `tabel`", "table"),
    Case("bool-added-to-int", "damage += 2 * n", "damage += true", "true",
         "E201", "the right side of `+=` must be int, not bool"),
    Case("unknown-step", "goto suffer\n", "goto suffr\n", "suffr",
         "E101", "unknown step `suffr`", "suffer"),
    # The span of an unknown field is the whole `obj.field` expression (it starts at the object).
    Case("unknown-field", "due -= c.value", "due -= c.valeu", "c.valeu",
         "E104", "no component kind has a field `valeu`", "value"),
    Case("unknown-field-of-def", "current_enemy.suit == s", "current_enemy.siut == s", "current_enemy.siut",
         "E104", "no component kind has a field `siut`", "suit"),
    Case("unknown-field-in-create", "create Card(rank: r, suit: s, value: r)",
         "create Card(rank: r, suit: s, valeu: r)", "valeu: r",
         "E104", "kind `Card` has no field `valeu`", "value"),
    Case("def-too-many-args", "attack_of(cards) <= 10", "attack_of(cards, 1) <= 10", "attack_of(cards, 1)",
         "E103", "`attack_of` takes 1 argument, 2 given"),
    Case("def-too-few-args", "power(cards, hearts)", "power(cards)", "power(cards)",
         "E103", "`power` takes 2 arguments, 1 given"),
    Case("proc-too-many-args", "{ refill(p) }", "{ refill(p, 2) }", "refill(p, 2)",
         "E103", "procedure `refill` takes 1 argument, 2 given"),
    Case("duplicate-zone", "  zone hand:", "  zone table: pile, public\n  zone hand:", "zone table: pile, public",
         "E102", "`table` is already declared as a zone"),
    Case("duplicate-var", "  var due:", "  var damage: int = 0\n  var due:", "var damage: int = 0",
         "E102", "`damage` is already declared as a variable"),
    Case("unknown-zone-shape", "zone castle: pile", "zone castle: pil", "pil",
         "E105", "unknown zone shape `pil` (a zone is a `pile` or a `set`)", "pile"),
    Case("unknown-zone-property", "zone castle: pile, hidden", "zone castle: pile, hiden", "hiden",
         "E105", "unknown zone property `hiden` (known: public, hidden, owner, others, capacity, play, internal, top, uncounted)", "hidden"),
    Case("int-if-condition", "if size(castle) == 0 { finish win", "if 3 { finish win", "3",
         "E201", "an `if` condition must be bool, not int"),
    Case("unknown-type", "rank: int ", "rank: itn ", "itn", "E101", "unknown type `itn`", "int"),
    Case("unknown-function", "require valid_play(cards)", "require valdi_play(cards)", "valdi_play(cards)",
         "E101", "unknown function `valdi_play`", "valid_play"),
    Case("unknown-procedure", "{ defeat_enemy() }", "{ defeat_enemie() }", "defeat_enemie()",
         "E101", "unknown procedure `defeat_enemie`", "defeat_enemy"),
    Case("unknown-event", "on stuck {", "on stuk {", "on stuk", "E106",
         "unknown event `stuk` (events: stuck, turn_start, turn_end, round_start, round_end)", "stuck"),
    Case("bad-player-range", "players 1..4", "players 4..1", "players 4..1",
         "E203", "player counts 4..1 are not a valid range"),
    Case("missing-inner-brace", "hand[p] }\n  }\n\n  proc draw_round", "hand[p] }\n\n  proc draw_round",
         "proc", "E001", None),
    Case("stray-character-after-unicode", 'clubs: "♣ doubles the damage dealt.",',
         'clubs: "♣ doubles the damage dealt.", @', "@",
         "E002", "unexpected character `@`"),
]
# Caret widths that are not simply the anchor's length (the span of `on` is the whole handler).
WIDTHS = {"unknown-event": len('on stuk { finish lose "" + text(me) + stuck_reason }')}


def case_params(skip: tuple[str, ...] = ()):
    return [pytest.param(case, id=case.id) for case in CASES if case.id not in skip]


def expected_error(diagnostics, case: Case):
    """The first error: the one the edit is about."""
    errors = errors_of(diagnostics)
    assert errors, "the edit was not reported at all"
    return errors[0]


# -- the real game is clean -----------------------------------------------------

def test_regicide_lints_clean_through_the_api():
    diagnostics, sources = rulelang.lint([str(REGICIDE)])
    assert diagnostics == []
    assert sources == {str(REGICIDE): SOURCE}


def test_regicide_lints_clean_through_the_cli(capsys):
    code, out, err = run_lint(capsys, str(REGICIDE))
    assert code == 0
    assert out == "ok: 1 file(s) clean\n"
    assert err == ""


def test_regicide_lints_clean_as_a_command():
    done = subprocess.run([sys.executable, "-m", "rulelang", "lint", "games/regicide.rules"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok: 1 file(s) clean"
    assert "Traceback" not in done.stderr


def test_regicide_json_lint_is_an_empty_list(capsys):
    code, out, _ = run_lint(capsys, "--format", "json", str(REGICIDE))
    assert code == 0
    assert json.loads(out) == []


# -- one edit, one exact diagnostic -----------------------------------------------

@pytest.mark.parametrize("case", case_params())
def test_api_reports_code_position_and_suggestion(tmp_path, case):
    text, line, column = case.build()
    path = write(tmp_path, text)
    diagnostics, sources = rulelang.lint([path])
    assert sources == {path: text}
    first = expected_error(diagnostics, case)
    assert (first.code, first.file, first.line, first.column) == (case.code, path, line, column)
    if case.message is not None:
        assert first.message == case.message
    assert first.suggestion == case.suggestion


@pytest.mark.parametrize("case", case_params())
def test_cli_prints_headline_and_caret_under_the_span(tmp_path, capsys, case):
    text, line, column = case.build()
    path = write(tmp_path, text)
    code, out, err = run_lint(capsys, path)
    assert code == 1
    assert "Traceback" not in out + err
    first = expected_error(rulelang.lint([path])[0], case)
    headline = f"{path}:{line}:{column}: error[{case.code}]: {first.message}"
    if case.suggestion:
        headline += f" (did you mean `{case.suggestion}`?)"
    assert out.splitlines()[0] == headline
    source_line, carets = caret_block(out, headline)
    assert source_line == "    " + text.splitlines()[line - 1]
    width = WIDTHS.get(case.id, len(case.anchor))
    assert carets == "    " + " " * (column - 1) + "^" * width
    errors = len(errors_of(rulelang.lint([path])[0]))
    assert out.splitlines()[-1].startswith(f"{errors} error(s), ")


# The second error of a misspelt create field (`value` not given) is true, not a cascade.
@pytest.mark.parametrize("case", case_params(skip=("unknown-field-in-create",)))
def test_one_edit_gives_exactly_one_error(tmp_path, case):
    text, _, _ = case.build()
    diagnostics, _ = rulelang.lint([write(tmp_path, text)])
    errors = errors_of(diagnostics)
    assert [e.code for e in errors] == [case.code], [e.headline() for e in errors]


@pytest.mark.parametrize("case", case_params())
def test_json_format_matches_the_api(tmp_path, capsys, case):
    text, line, column = case.build()
    path = write(tmp_path, text)
    code, out, err = run_lint(capsys, "--format", "json", path)
    assert code == 1 and err == ""
    items = json.loads(out)
    diagnostics, _ = rulelang.lint([path])
    assert items == [d.to_json() for d in diagnostics]
    first = next(item for item in items if item["severity"] == "error")
    assert (first["file"], first["line"], first["column"], first["code"], first["suggestion"]) == \
        (path, line, column, case.code, case.suggestion)
    assert set(first) == {"file", "line", "column", "end", "severity", "code", "message", "suggestion"}


# -- particular edits ------------------------------------------------------------

def test_unknown_zone_name_suggests_hand_and_underlines_the_name(tmp_path, capsys):
    text, start = edited("hand[me]", "hnd[me]")
    line, column = position(text, start)
    path = write(tmp_path, text)
    code, out, _ = run_lint(capsys, path)
    assert code == 1
    headline = f"{path}:{line}:{column}: error[E101]: unknown name `hnd` (did you mean `hand`?)"
    assert headline in out.splitlines()
    _, carets = caret_block(out, headline)
    assert carets == "    " + " " * (column - 1) + "^^^"
    first = errors_of(rulelang.lint([path])[0])[0]
    assert first.span.end_line == line and first.span.end_column == column + len("hnd")


def test_missing_players_declaration_points_at_the_game(tmp_path, capsys):
    text, _ = edited("  players 1..4\n", "")
    line, column = position(text, text.index('game "Regicide"'))
    path = write(tmp_path, text)
    diagnostics, _ = rulelang.lint([path])
    assert [(d.code, d.line, d.column) for d in errors_of(diagnostics)] == [("E110", line, column)]
    assert "add `players 1..4`" in diagnostics[0].message
    code, out, err = run_lint(capsys, path)
    assert code == 1 and "Traceback" not in out + err
    assert out.splitlines()[0] == (f"{path}:{line}:{column}: error[E110]: the game does not say how many "
                                   "players it takes (add `players 1..4`)")
    assert out.splitlines()[2] == "    ^"


def test_missing_inner_brace_is_a_syntax_error_at_the_next_declaration(tmp_path, capsys):
    text, start = edited("hand[p] }\n  }\n\n  proc draw_round", "hand[p] }\n\n  proc draw_round")
    line, column = position(text, text.index("proc draw_round"))
    path = write(tmp_path, text)
    diagnostics, _ = rulelang.lint([path])
    assert len(diagnostics) == 1
    d = diagnostics[0]
    assert (d.code, d.line, d.column) == ("E001", line, column)
    assert d.message.startswith("unexpected `proc`; expected ")
    code, out, err = run_lint(capsys, path)
    assert code == 1 and "Traceback" not in out + err
    assert out.splitlines()[2] == "    " + " " * (column - 1) + "^^^^"


def missing_last_brace() -> str:
    text = SOURCE.rstrip()
    assert text.endswith("}")
    return text[:-1]


def test_missing_last_brace_is_reported_at_the_end_of_the_file(tmp_path, capsys):
    text = missing_last_brace()
    lines = text.splitlines()
    line, column = len(lines), len(lines[-1]) + 1
    path = write(tmp_path, text)
    diagnostics, _ = rulelang.lint([path])
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("E001", line, column)]
    assert diagnostics[0].message.startswith("unexpected end of file; expected ")
    code, out, err = run_lint(capsys, path)
    assert code == 1 and "Traceback" not in out + err
    assert out.splitlines()[0].startswith(f"{path}:{line}:{column}: error[E001]: unexpected end of file")


def test_missing_last_brace_says_a_brace_may_be_missing(tmp_path):
    diagnostics, _ = rulelang.lint([write(tmp_path, missing_last_brace())])
    assert "a `}` may be missing" in diagnostics[0].message


@pytest.mark.parametrize("old, new, at, hint", [
    ("if damage >= current_enemy.health { defeat_enemy() }", "if damage = current_enemy.health { defeat_enemy() }",
     "= current_enemy", "(to compare, write `==`)"),
    ('finish win "the last King is defeated"', 'finish win text(me) + " won"', '+ " won"',
     '(a `finish` reason must start with a string: `"" + text(me) + " wins"`)'),
    ('finish win "the last King is defeated" }', 'finish win me }', "}",
     "(who wins or loses takes `for`: `finish win for me`)"),
    ('finish win "the last King is defeated" }', 'finish draw why }', "}",      # (a new author's Jaipur, in a proc)
     '(a `finish` reason must start with a string: `finish … "" + why`)'),
    ('if size(castle) == 0 { finish win', 'if size(castle) == 9 { } elif size(castle) == 0 { finish win',
     "size(castle) == 0", "(write `else if`)"),
    ("        goto suffer\n      }\n\n      action flip_jester", "        goto suffer\n\n      action flip_jester",
     "flip_jester", "(this `action` is read inside the block above it: a `}` may be missing before it)"),
    ("repeat 2 { create Card(rank: 0, value: 0, jester: true) in box }", "repeat 2 { create Card in box }",
     "in box", "(a kind is made with its fields in brackets, even none: `create Card() in …`)"),
    ("action yield require not all(yielded[p] for p in others)",
     'action yield require not all(yielded[p] for p in others) as "give up"', 'as "give up"',
     '(an action\'s `as` text comes before its `require`: `action bid(q in 1..3) as "bid " + text(q) require q > 1 { … }`)'),
    ("action yield require not all(yielded[p] for p in others)",     # (over two lines: a new author's)
     'action yield\n          require not all(yielded[p] for p in others)\n          as "give up"', 'as "give up"',
     '(an action\'s `as` text comes before its `require`: `action bid(q in 1..3) as "bid " + text(q) require q > 1 { … }`)'),
])
def test_syntax_errors_that_authors_make_carry_a_hint(tmp_path, old, new, at, hint):
    text, start = edited(old, new)
    diagnostics, _ = rulelang.lint([write(tmp_path, text)])
    assert len(diagnostics) == 1 and diagnostics[0].code == "E001"
    assert diagnostics[0].message.endswith(hint)
    assert (diagnostics[0].span.line, diagnostics[0].span.column) == position(text, start + new.index(at))


def test_a_player_written_as_on_screen_says_how_the_rules_name_it(tmp_path):
    text, start = edited("for p in players { refill(p) }", "for p in players { refill(P1) }")
    diagnostics, _ = rulelang.lint([write(tmp_path, text)])
    assert [d.code for d in diagnostics] == ["E101"]
    assert diagnostics[0].message == "unknown name `P1`: in the rules a player is a number from 0 (P1 is `players[0]`)"
    assert (diagnostics[0].span.line, diagnostics[0].span.column) == position(text, text.index("P1)", start))


@pytest.mark.parametrize("old, new, anchor, field, suggestion", [
    ("def attack_of(cards) = sum(c.value for c in cards)", "def attack_of(cards) = sum(c.valeu for c in cards)",
     "c.valeu", "valeu", "value"),
    ("def is_companion(c) = c.rank == 1", "def is_companion(c) = c.rnak == 1", "c.rnak", "rnak", "rank"),
])
def test_unknown_field_of_an_untyped_parameter_is_reported(tmp_path, old, new, anchor, field, suggestion):
    text, start = edited(old, new)
    line, column = position(text, start + new.index(anchor))
    diagnostics, _ = rulelang.lint([write(tmp_path, text)])
    assert [(d.code, d.line, d.column, d.suggestion) for d in errors_of(diagnostics)] == \
        [("E104", line, column, suggestion)]
    assert f"`{field}`" in diagnostics[0].message


def test_tab_indentation_counts_a_tab_as_one_column_and_keeps_it_in_the_caret_line(tmp_path, capsys):
    text, start = edited("        goto suffer\n", "\t\tgoto suffr\n")
    line, column = position(text, start + len("\t\tgoto "))
    assert column == 8
    path = write(tmp_path, text)
    code, out, _ = run_lint(capsys, path)
    assert code == 1
    headline = f"{path}:{line}:{column}: error[E101]: unknown step `suffr` (did you mean `suffer`?)"
    source_line, carets = caret_block(out, headline)
    assert source_line == "    \t\tgoto suffr"
    assert carets == "    \t\t     ^^^^^"


def test_windows_line_endings_give_the_same_positions(tmp_path):
    text, start = edited("goto suffer\n", "goto suffr\n")
    line, column = position(text, start + len("goto "))
    path = tmp_path / "crlf.rules"
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    diagnostics, _ = rulelang.lint([str(path)])
    assert [(d.code, d.line, d.column, d.suggestion) for d in diagnostics] == [("E101", line, column, "suffer")]


def test_several_problems_are_all_reported_in_source_order_of_checking(tmp_path, capsys):
    text, _ = edited("goto suffer\n", "goto suffr\n")
    text = text.replace("damage += 2 * n", "damage += true", 1)
    path = write(tmp_path, text)
    diagnostics, _ = rulelang.lint([path])
    assert sorted(d.code for d in diagnostics) == ["E101", "E201"]
    code, out, _ = run_lint(capsys, path)
    assert code == 1
    assert out.splitlines()[-1] == "2 error(s), 0 warning(s)"


def test_warnings_alone_exit_zero(tmp_path, capsys):
    text, _ = edited("  var due:", "  var spare: int = 0\n  var due:")
    line, column = position(text, text.index("var spare"))
    path = write(tmp_path, text)
    diagnostics, _ = rulelang.lint([path])
    assert [(d.severity, d.code, d.line, d.column) for d in diagnostics] == [("warning", "W201", line, column)]
    code, out, _ = run_lint(capsys, path)
    assert code == 0
    assert out.splitlines()[0] == f"{path}:{line}:{column}: warning[W201]: var `spare` is declared but never used"
    assert out.splitlines()[-1] == "0 error(s), 1 warning(s)"



def test_a_deep_lint_that_finds_warnings_says_how_many_games_it_played(capsys):
    """A new author: a deep lint that found only a warning no longer said how many random games it
    played, which a clean one says."""
    path = str(Path(__file__).resolve().parent / "lint" / "corpus" / "deep_no_end.rules")
    code, out, _ = run_lint(capsys, path, "--deep", "--games", "3", "--max-actions", "50")
    assert code == 0 and "warning[W405]" in out
    assert out.splitlines()[-1] == "0 error(s), 1 warning(s) (lint --deep: 3 random game(s) each)"

# -- files that cannot be read ---------------------------------------------------

def test_clean_and_broken_files_together_exit_one(tmp_path, capsys):
    text, _ = edited("goto suffer\n", "goto suffr\n")
    broken = write(tmp_path, text)
    code, out, err = run_lint(capsys, str(REGICIDE), broken)
    assert code == 1
    assert str(REGICIDE) not in out
    assert out.count(broken) == 1
    assert "Traceback" not in out + err


@pytest.mark.parametrize("make, message", [
    (lambda tmp: str(tmp / "missing.rules"), "no such file: {path}"),
    (lambda tmp: str(tmp), "cannot read {path}: "),
    (lambda tmp: write_bytes(tmp / "latin1.rules", b"game \"R\xe9gicide\" {}"), "{path}:1:8: not UTF-8 text (byte 0xe9)"),
])
def test_unreadable_files_are_one_e000_line(tmp_path, capsys, make, message):
    path = make(tmp_path)
    diagnostics, sources = rulelang.lint([path])
    assert sources == {}
    assert len(diagnostics) == 1 and diagnostics[0].code == "E000"
    assert diagnostics[0].message.startswith(message.format(path=path))
    code, out, err = run_lint(capsys, path)
    assert code == 1
    assert "Traceback" not in out + err
    assert out.splitlines()[0] == f"error[E000]: {diagnostics[0].message}"
    assert out.splitlines()[1] == "1 error(s), 0 warning(s)"


def write_bytes(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_an_empty_file_is_a_syntax_error_at_1_1(tmp_path, capsys):
    path = write(tmp_path, "")
    diagnostics, _ = rulelang.lint([path])
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("E001", 1, 1)]
    assert diagnostics[0].message == "unexpected end of file; expected `game`"
    code, out, err = run_lint(capsys, path)
    assert code == 1 and "Traceback" not in out + err


def test_compile_of_a_broken_file_reports_on_stderr_with_a_caret(tmp_path, capsys):
    text, start = edited("goto suffer\n", "goto suffr\n")
    line, column = position(text, start + len("goto "))
    path = write(tmp_path, text)
    code = main(["compile", path, "-o", str(tmp_path / "out.json")])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert "Traceback" not in captured.err
    assert captured.err.splitlines() == [
        f"{path}:{line}:{column}: error[E101]: unknown step `suffr` (did you mean `suffer`?)",
        "    " + text.splitlines()[line - 1],
        "    " + " " * (column - 1) + "^^^^^",
    ]
    assert not (tmp_path / "out.json").exists()


# -- a byte-order mark, an unclosed string, JSON given to lint, a key twice --------------

def test_a_byte_order_mark_is_not_part_of_the_rules(tmp_path):
    path = write(tmp_path, "\ufeff" + SOURCE)
    diagnostics, _ = rulelang.lint([path])
    assert [d for d in diagnostics if d.severity == "error"] == []
    assert rulelang.load(path).fingerprint == rulelang.load(str(REGICIDE)).fingerprint


def test_an_unclosed_string_and_a_json_file_and_a_key_twice_are_said_plainly(tmp_path):
    broken = SOURCE.replace('about action next_turn "This player takes the next turn."',
                            'about action next_turn "This player takes the next turn.')
    diagnostics, _ = rulelang.lint([write(tmp_path, broken)])
    start = broken.index('"This player takes the next turn.')
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics] == [("E002", *position(broken, start))]
    assert "this string is not closed" in diagnostics[0].message
    diagnostics, _ = rulelang.lint([write(tmp_path, '{"name": "x"}', "game.json")])
    assert diagnostics[0].code == "E001" and "this looks like JSON" in diagnostics[0].message
    twice = SOURCE.replace("table court_name { 11: \"Jack\",", "table court_name { 11: \"Jack\", 11: \"Knave\",")
    diagnostics, _ = rulelang.lint([write(tmp_path, twice)])
    assert [d.message for d in errors_of(diagnostics)] == ["table `court_name` has the key 11 twice"]


def test_a_where_between_two_fors_says_where_it_goes(tmp_path):
    broken = SOURCE.replace("def yielders = [p for p in players where yielded[p]]",
                            "def yielders = [q for p in players where yielded[p] for q in [p]]")
    diagnostics, _ = rulelang.lint([write(tmp_path, broken)])
    assert [d.code for d in diagnostics] == ["E001"]
    assert "`where` comes after the last `for`" in diagnostics[0].message


# From a new author's trial: two warnings that were wrong.
DRAWN_TRACK = """game "Track" {
  players 2
  var at: int = 1, public
  board track: squares(5, 1), draw glyph
  def glyph(c: cell) = if c.col == at then "T" else "."
  turn { step go { action run { at += 1  finish draw } } }
}
"""
SIMULTANEOUS_TAKE = """game "Pick One" {
  players 2
  kind Card { n: int }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone chosen: set per player, public
  setup {
    for i in 1..6 { create Card(n: i) in deck }
    for p in players { move top(deck, 3) to hand[p] }
  }
  turn {
    step sel simultaneous {
      action take(c in hand[me]) { move c to chosen[me] }
      reveal { if size(hand[me]) == 0 { finish draw }  end turn }
    }
  }
}
"""


@pytest.mark.parametrize("source, wrong", [
    (DRAWN_TRACK, "W201"),           # a board drawn on every screen is used, as a `show` def is
    (SIMULTANEOUS_TAKE, "W204"),     # an answer that moves a card makes progress, reveal or not
])
def test_a_drawn_board_and_a_simultaneous_answer_that_moves_a_card_are_no_warnings(tmp_path, source, wrong):
    diagnostics, _ = rulelang.lint([write(tmp_path, source, "game.rules")])
    assert [d.code for d in diagnostics] == []
    pass_instead = source.replace("{ move c to chosen[me] }", "{ }")
    if pass_instead != source:                         # the same answer doing nothing: still warned
        diagnostics, _ = rulelang.lint([write(tmp_path, pass_instead, "game2.rules")])
        assert wrong in [d.code for d in diagnostics]


def test_create_cards_where_a_field_alone_is_told_how_to_write_it(tmp_path):
    """`create cards Card where starter in deck` reads `starter in deck` as a membership test and
    then wants another `in` (at the next line): the message says how to write it."""
    source = """game "Deck" {
  players 2
  kind Card { value: int = 0  starter: bool = false  label card }
  card Card "A" { value: 1  starter: true }
  card Card "B" { value: 3 }
  zone deck: pile, public
  setup {
    create cards Card where starter in deck
    shuffle deck
  }
  turn { step s { action take(c in deck) { move c to deck  finish draw } } }
}
"""
    diagnostics, _ = rulelang.lint([write(tmp_path, source, "deck.rules")])
    (d,) = diagnostics
    assert d.code == "E001" and "end it with a comparison, `where starter == true in deck`" in d.message
    fixed, _ = rulelang.lint([write(tmp_path, source.replace("where starter in", "where starter == true in"), "ok.rules")])
    assert fixed == []


def test_a_cards_field_that_is_a_sum_is_refused_at_its_line_and_a_negative_number_loads(tmp_path):
    """A designer wrote `breakpoint: 23 - 3` in a card: lint said clean, the game then refused to
    load with E301 and no line. A sum is E204 at its place; `-3` is a number and loads."""
    source = """game "C" {
  players 1
  kind Card { v: int = 0  label card }
  card Card "A" { v: VALUE }
  zone deck: pile, public
  setup { create cards Card in deck }
  turn { step s { action stop { finish draw } } }
}
"""
    diagnostics, _ = rulelang.lint([write(tmp_path, source.replace("VALUE", "23 - 3"), "sum.rules")])
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics] == [("E204", 4, 22)]
    path = write(tmp_path, source.replace("VALUE", "-3"), "neg.rules")
    assert rulelang.lint([path])[0] == []
    game = rulelang.load(path)
    assert game.ir["cards"][0]["fields"]["v"] == {"k": "lit", "v": -3}
    assert game.new_match(1, seed=0).legal_actions()


def test_thousands_of_errors_on_one_long_line_print_a_hundred_windows_of_it(tmp_path, capsys):
    """Each diagnostic printed its whole source line: 10,000 errors on a 40 KB line were 600 MB of
    output (a fuzzing trial; 2,000 on an 8 KB line here: 16 MB). Now: the first 100, each with 120 characters around its column, and
    how many more; `--format json` still lists every one."""
    path = tmp_path / "long.rules"
    path.write_text('game "L" { players 2 var x: int = 0 turn { step s { action go { '
                    + " ".join("x=q" for _ in range(2_000)) + " finish draw } } } }\n", encoding="utf-8")
    assert main(["lint", str(path)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(out) < 40_000 and max(map(len, lines)) <= 130
    assert sum(" error[E101]: unknown name `q`" in x for x in lines) == 100
    assert "… and 1,900 more (every one: rulelang lint FILE --format json)" in lines
    assert lines[-1] == "2000 error(s), 0 warning(s)"
    for head, shown, caret in zip(lines[0:300:3], lines[1:300:3], lines[2:300:3]):
        assert shown[caret.index("^"):caret.index("^") + 1] == "q", (head, shown, caret)   # the caret on the name
    assert main(["lint", str(path), "--format", "json"]) == 1
    assert len(json.loads(capsys.readouterr().out)) == 2_000
    assert main(["compile", str(path)]) == 1                      # (every command prints them so)
    err = capsys.readouterr().err
    assert len(err) < 40_000 and "… and 1,900 more" in err


def test_indexing_a_single_zone_says_how_to_take_its_ith_card(tmp_path, capsys):
    """A new author wrote `trick[i]` for the i-th card of the trick (the docs show `hand[p][i]`)."""
    path = write(tmp_path, 'game "Pot" {\n  players 2\n  kind Card { v: int  label "c" + text(v) }\n'
                           '  zone pot: pile, public\n  setup { create Card(v: 1) in pot }\n'
                           '  turn { step act { action take require pot[0].v == 1 { finish win for me } } }\n}\n')
    assert main(["lint", path]) == 1
    out = capsys.readouterr().out
    assert "error[E201]: zone `pot` is not declared `per …` and cannot be indexed (its i-th card, counting " \
           "from 0: `[c for c in pot][i]`)" in out
    assert "1 error(s)" in out and "has no field" not in out       # (not also "zone has no field `v`")


def test_a_part_of_a_rule_file_linted_alone_names_the_file_that_includes_it(tmp_path):
    """A first hour: `rulelang lint games/smash_up/pirates.rules` said only "unexpected `def`;
    expected `game`" — the file is part of smash_up.rules, which `include`s it."""
    (found,), _ = rulelang.lint([str(ROOT / "games" / "smash_up" / "pirates.rules")])
    assert found.code == "E001" and "a file of declarations alone is part of another" in found.message
    assert found.message.endswith("smash_up.rules)") and "games/smash_up.rules" in found.message.replace("\\", "/")
    alone = tmp_path / "part.rules"
    alone.write_text("# helpers\ndef x = 1\n", encoding="utf-8")
    (found,), _ = rulelang.lint([str(alone)])
    assert found.message.endswith("which reads it with `include`: lint that one)")


def test_a_step_named_as_a_builtin_hides_nothing_and_a_list_element_set_is_one_error(tmp_path):
    """A new author: a step `pick` got W220 (a step's name is read by `goto` alone), and `xs[0] = 3`
    on a list variable got a second, misleading error about the value's type."""
    step = tmp_path / "step.rules"
    step.write_text('game "S" {\n  players 1\n  turn { step pick { action a { finish draw } } }\n}\n', encoding="utf-8")
    assert rulelang.lint([str(step)])[0] == []
    xs = tmp_path / "xs.rules"
    xs.write_text('game "X" {\n  players 1\n  var xs: list[int] = []\n'
                  '  turn { step s { action a { xs[0] = 3  finish draw } } }\n}\n', encoding="utf-8")
    (only,), _ = rulelang.lint([str(xs)])
    assert only.code == "E201" and "an element of a list is not set on its own" in only.message


def only_syntax_error(tmp_path, source: str):
    """The one diagnostic of a rule file that does not parse."""
    path = tmp_path / "x.rules"
    path.write_text(source, encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])
    assert [d.code for d in diagnostics] == ["E001"], diagnostics
    return diagnostics[0]


@pytest.mark.parametrize("expr", ["sum(a + b for a in 1..3 where a > 1 for b in 1..3)",
                                  "[a + b for a in 1..3 where a > 1\n                 for b in 1..3]"])
def test_a_where_before_a_second_for_carries_the_hint_in_any_brackets_and_over_lines(tmp_path, expr):
    """A new author's Catan: `sum(… for … where … for …)`, and the same in `[…]` with its second `for`
    on a line of its own, got no hint (it looked for `[` on the line of the error only)."""
    found = only_syntax_error(tmp_path, 'game "W" {\n  players 2\n  def pairs = ' + expr + '\n'
                                        '  turn { step s { action x { finish draw } } }\n}\n')
    assert found.message.endswith("(in a list made with `for`, `where` comes after the last `for`: "
                                  "`[x for a in A for x in B where …]`)")


def test_a_local_named_can_is_said_to_be_a_word_of_the_language_where_it_is_read(tmp_path):
    """A new author's Splendor: `let can = 3` was accepted, and `if can > 2` read "unexpected `>`;
    expected a name" — no word of why (`can` begins `can HOOK(…) of c`)."""
    found = only_syntax_error(tmp_path, 'game "M" {\n  players 2\n  turn { step s { action a { let can = 3\n'
                                        '  if can > 2 { finish draw } } } }\n}\n')
    assert found.message.endswith("(`can` is a word of the language, so your local `can` cannot be "
                                  "read: give it another name)")


def test_a_local_named_by_a_word_of_the_language_is_pointed_at_where_it_cannot_be_read(tmp_path):
    """A new author's Euchre: `let side = 1` was accepted, and `side += 0` read "`side` is a reserved
    word and cannot be used as a name here" — far from the `let` that named it so."""
    found = only_syntax_error(tmp_path, 'game "T" {\n  players 2\n  turn { step s {\n    action go {\n'
                                        '      let side = 1\n      side += 0\n      finish draw\n    }\n  } }\n}\n')
    assert found.span.line == 6
    assert found.message.endswith("(`side` is a word of the language: your `let side` on line 5 names a "
                                  "local so, and it cannot be read back: give it another name)")
