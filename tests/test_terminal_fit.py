"""Issue 28 at a real (pseudo-)terminal: each decision fits the screen with what it is about
(80×24 and 120×40), nothing on screen is a Python repr, every card or piece named on screen has
rules text (`look NAME`), the redraw commands, `quit` offering to save, and the thinking line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_terminal_pty import REGICIDE, ROOT, VALGARD, Terminal

SMASH_UP = str(ROOT / "games" / "smash_up.rules")
SHADOW_HUNTERS = str(ROOT / "games" / "shadow_hunters.rules")
DOZEN_WAR = str(ROOT / "games" / "dozen_war.rules")
PROMPT = r"P\d> "
REPR = re.compile(r"\['|\[\]|\{'|\[\d+, \d|'\]|\bNone\b|\bTrue\b|\bFalse\b")


def sized(*args: str, columns: int, lines: int, **env) -> Terminal:
    return Terminal(*args, env={"COLUMNS": str(columns), "LINES": str(lines), "NO_COLOR": "1", **env})


def screen_before(term: Terminal, at: int) -> list[str]:
    """The lines of the decision drawn last before `at`: from its `==` header to the prompt."""
    text = term.text[:at]
    start = text.rindex("\n== ") + 1
    return text[start:].split("\n")


def check_fits(term: Terminal, at: int, columns: int, lines: int) -> list[str]:
    screen = screen_before(term, at)
    assert len(screen) <= lines, f"{len(screen)} lines at {columns}x{lines}:\n" + "\n".join(screen)
    assert all(len(line) <= columns for line in screen), "\n".join(x for x in screen if len(x) > columns)
    body = "\n".join(screen)
    assert re.search(r"^  .*\b1\. ", body, re.M), body          # the choices are on it, with the decision
    return screen


def labels_on(screen: list[str]) -> set[str]:
    """The names of cards and pieces a screen's zone listings show."""
    found = set()
    for line in screen:
        for part in line.split(" · "):
            m = re.search(r"\d+ (?:cards?|warriors?)(?:, bottom to top)?: (.+)$", part)
            if m:
                items = m.group(1)
                found.update(x.strip() for x in (items.split(", ") if ", " in items else items.split()))
    return {x for x in found if x}


@pytest.mark.slow
@pytest.mark.parametrize("columns,lines", [(80, 24), (120, 40)])
def test_regicide_fits_reads_in_words_and_every_card_has_text(columns, lines):
    term = sized("play", REGICIDE, "--seed", "2", "--players", "2", columns=columns, lines=lines)
    term.expect(r"Pass the terminal to P1 and press Enter ")            # (everyone is round it at the start)
    term.line("")
    found = term.expect(PROMPT)
    screen = check_fits(term, found.start(), columns, lines)
    names = labels_on(screen)
    assert {"J♠"} <= names or any(re.fullmatch(r"[JQK].", x) for x in names), names
    for name in sorted(names):                       # every card named on screen has rules text
        term.line(f"look {name}")
        term.expect(rf"{re.escape(name)} \(card\)\n  \S")
        term.expect(PROMPT)
    term.line("help ♥")                              # an enum value's text, by help too
    term.expect(r"Hearts \(♥\): heal")
    term.expect(PROMPT)
    for command, shows in (("hand", r"hand \(P1\): \d+ cards: "), ("table", r"enemy: 1 card"),
                           ("status", r"Enemy health left: \d+ of \d+"), ("board", r"== Regicide")):
        term.line(command)
        term.expect(shows)
        term.expect(PROMPT)
    term.line("1")
    for _ in range(400):                             # play on: every decision fits, with its context
        found = term.expect(rf"(?:{PROMPT}|Pass the terminal to P\d and press Enter |Game over)")
        if found.group().startswith("Game over"):
            break
        if found.group().startswith("Pass"):
            term.line("")
            continue
        check_fits(term, found.start(), columns, lines)
        term.line("1")
    else:
        raise AssertionError("the game did not end")
    assert term.close() == 0
    end = term.text[term.text.rindex("Game over"):]
    assert re.match(r"Game over: (everyone loses|everyone wins)\. Why: (cannot pay \d+ damage: P\d's hand is worth "
                    r"\d+|P\d can neither play a card nor (yield|flip a Jester)|the last King is defeated)", end), end[:200]
    assert not REPR.search(term.text), REPR.search(term.text)


@pytest.mark.slow
def test_valgard_against_a_bot_at_80x24():
    term = sized("play", VALGARD, "--seed", "5", "--bot", "2=random", "--option", "turn_limit=10",
                 columns=80, lines=24)
    found = term.expect(PROMPT)
    check_fits(term, found.start(), 80, 24)
    term.line("look L")
    term.expect(r"L \(warrior\)\n  A warrior of light \(P1\), from row 1\. Alone it marches")
    term.expect(PROMPT)
    term.line("look d")
    term.expect(r"A warrior of the dark \(P2\)")
    term.expect(PROMPT)
    term.line("1")
    for _ in range(200):
        found = term.expect(rf"(?:{PROMPT}|Game over)")
        if found.group() == "Game over":
            break
        check_fits(term, found.start(), 80, 24)
        term.line("1")
    assert term.close() == 0
    assert re.search(r"Game over: (P[12] wins|a draw)\. Why: ", term.text)
    assert "P2 (random) plays: " in term.text
    assert re.search(r"  · L: reserve \(P1\) → [a-g]1", term.text)       # the engine's line for a change
    assert not REPR.search(term.text)


@pytest.mark.slow
def test_quit_at_a_terminal_offers_to_save(tmp_path):
    save = tmp_path / "quit.json"
    term = sized("play", REGICIDE, "--seed", "4", columns=80, lines=24)
    term.expect(PROMPT)
    term.line("quit")
    term.expect(r"Save before leaving\? File name \(Enter: don't save; back: play on\): ")
    term.line(str(save))
    term.expect(r"saved .*quit\.json\nleft the game")
    assert term.close() == 0 and save.exists()


@pytest.mark.slow
@pytest.mark.parametrize("typed", ["q", "quit"])
def test_q_at_the_offer_to_save_leaves_without_a_file_named_q(typed):
    """A first hour: `quit`, then `q` at "Save before leaving?", wrote a save file named `q`."""
    stray = Path(__file__).resolve().parents[1] / typed          # (the terminal's folder)
    assert not stray.exists()
    term = sized("play", REGICIDE, "--seed", "4", columns=80, lines=24)
    try:
        term.expect(PROMPT)
        term.line("1")
        term.expect(PROMPT)
        term.line("quit")
        term.expect(r"Save before leaving\? File name \(Enter: don't save; back: play on\): ")
        term.line(typed)
        term.expect(r"left the game")
        assert term.close() == 0 and "saved" not in term.text and not stray.exists()
    finally:
        stray.unlink(missing_ok=True)


@pytest.mark.slow
def test_text_typed_at_a_hand_over_prompt_is_said_not_played():
    term = sized("play", REGICIDE, "--seed", "4", "--players", "2", columns=120, lines=40)
    term.expect(r"Pass the terminal to P1 and press Enter ")            # (everyone is round it at the start)
    term.line("")
    for _ in range(50):
        found = term.expect(rf"(?:P1> |Pass the terminal to P2 and press Enter )")
        if found.group().startswith("Pass"):
            break
        term.line("1")
    term.line("yield")            # typed at the hand-over prompt: not played (by whoever typed it), said
    term.expect(r"\(nothing was played: press Enter to take the terminal, then type your move\)\nP2, press Enter ")
    term.line("")
    term.expect(r"P2> ")
    term.line("quit")
    term.expect(r"Save before leaving")
    term.line("")
    assert term.close() == 0


@pytest.mark.slow
@pytest.mark.parametrize("path,players,bots", [(SMASH_UP, 2, ["--bot", "2=random"]),
                                               (SHADOW_HUNTERS, 4, ["--bot", "2=random", "--bot", "3=random",
                                                                    "--bot", "4=random"]),
                                               (DOZEN_WAR, 2, ["--bot", "2=random"])])
def test_the_card_games_fit_at_80x24_and_show_no_repr(path, players, bots):
    """The other three games, as far as their rule files allow today: each decision fits at 80×24
    with its choices, and nothing on screen is a Python repr."""
    term = sized("play", path, "--seed", "3", "--players", str(players), *bots, columns=80, lines=24)
    for _ in range(12):
        found = term.expect(rf"(?:{PROMPT}|Game over)")
        if found.group() == "Game over":
            break
        check_fits(term, found.start(), 80, 24)
        term.line("1")
    term.line("quit")
    term.expect(r"Save before leaving|left the game|Game over")
    term.line("")
    term.close()
    assert not REPR.search(term.text), REPR.search(term.text)


def test_a_board_taller_than_the_terminal_shows_its_middle_under_the_header(tmp_path):
    """A new author's Hive (`hexagon(13)`, 25 rows) at 80x24: the first screen began at the board's row
    18, its header and top rows scrolled off, and only the width's cut was said."""
    path = tmp_path / "tall.rules"
    path.write_text('game "Tall" {\n  players 2\n  board field: squares(3, 26)\n  kind Stone { label "S" }\n'
                    '  zone on: set per cell of field\n'
                    '  setup { create Stone() in on[cell(field, "b13")] }\n'
                    '  turn { step s { action put(c in cells(field)) { create Stone() in on[c]  end turn }'
                    '  action stop { finish draw "stopped" } } }\n}\n', encoding="utf-8")
    term = sized("play", str(path), "--seed", "1", columns=80, lines=24)
    found = term.expect(PROMPT)
    screen = check_fits(term, found.start(), 80, 24)
    assert screen[0].startswith("== Tall · turn 1 · P1's turn"), screen
    assert any(re.match(r"\s*13\b.*S", line) for line in screen), "\n".join(screen)   # (its middle rows)
    assert any(re.fullmatch(r"  \(board: lines \d+–\d+ of \d+; type board\)", line)
               for line in screen), "\n".join(screen)
    term.line("put a1")                           # (the next screen, under the lines the move said, too)
    found = term.expect(PROMPT)
    screen = check_fits(term, found.start(), 80, 24)
    assert screen[0].startswith("== Tall · turn 2 · P2's turn"), screen
    term.line("stop")
    term.expect("Game over")
    term.close()
