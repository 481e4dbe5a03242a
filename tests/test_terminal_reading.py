"""Issue 28, read at an 80×24 terminal by a person new to the games (the second round of findings):
every line the terminal prints breaks between words, a command typed at the pager's prompt is run
(never lost), a choice of several items says how to answer it and takes several numbers at once, a
player's own secret answer is told to them, a paged list of choices names every kind of action on
its first page, and the smaller things on screen (step names, commands that show nothing, the
board's key, the authors' line under `help ACTION`, who may act out of turn)."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.play.repl import run_repl
from test_terminal_fit import PROMPT, sized

ROOT = Path(__file__).resolve().parent.parent
DOZEN_WAR = str(ROOT / "games" / "dozen_war.rules")
REGICIDE = str(ROOT / "games" / "regicide.rules")


def piped(name: str, players: int, seed: int, lines: list[str], bots=None, screen=(80, 24), pager=True,
          options=None) -> str:
    """The output of a match played with `lines` typed, at a terminal of `screen`'s size."""
    path = str(ROOT / "games" / f"{name}.rules")
    game = rulelang.load(path)
    out = io.StringIO()
    run_repl(game, players, seed, options or {}, {1: "random"} if bots is None else bots,
             io.StringIO("".join(x + "\n" for x in lines)), out, path, screen=screen, pager=pager)
    return out.getvalue()


@pytest.mark.slow
def test_every_line_breaks_between_words_at_an_80_column_terminal():
    """The echo of an answer (`P1 chooses: … (asked: Which general stands in your North infantry
    castle?)`), `help ACTION` and an error were cut by the terminal at column 80, inside a word."""
    term = sized("play", DOZEN_WAR, "--seed", "3", "--players", "2", "--bot", "2=random", columns=80, lines=24)
    for typed in ("1", "1", "1", "1", "1", "help dig", "look grey", "quit"):
        term.expect(PROMPT)
        term.line(typed)
    term.expect(r"Save the match|left the game")
    term.line("")
    term.close()
    text = term.text
    assert "castle?)" in text and "help dig" in text
    long = [line for line in text.split("\n") if len(line.rstrip("\r")) > 80]
    assert not long, long
    said = re.search(r"P1 chooses: \S+ \S+ \(asked: Which general stands in your North infantry\n  castle\?\)", text)
    assert said, text[-3000:]
    assert re.search(r"\n  attack or use a skill this turn", text), text[-3000:]     # help: between words


@pytest.mark.slow
def test_a_command_typed_at_the_pagers_prompt_ends_the_pager_and_is_run():
    """`rules` stopped at `-- more: Enter, q to stop --`; `hand` typed there was taken for "go on"
    and lost. Now it ends the pager and is run as the next command."""
    term = sized("play", REGICIDE, "--seed", "4", columns=80, lines=24)
    term.expect(PROMPT)
    term.line("rules all")
    term.expect(r"-- more: Enter, q to stop --")
    term.line("hand")
    found = term.expect(rf"hand \(P1\): \d+ cards|{re.escape('-- more: Enter, q to stop --')}")
    assert found.group().startswith("hand"), term.text[-2000:]
    term.expect(PROMPT)
    term.line("help")
    term.expect(r"-- more: Enter, q to stop --")     # (an 80×24 screen: help is longer than 23 lines)
    term.line("q")
    term.expect(PROMPT)
    term.line("quit")
    term.expect(r"Save the match|left the game")
    term.line("")
    term.close()


def test_a_command_typed_at_the_pager_is_run_when_input_is_piped_too():
    out = piped("regicide", 1, 4, ["rules all", "log", "quit"], bots={})
    assert "-- more: Enter, q to stop --log" in out
    assert re.search(r"-- more: Enter, q to stop --log\nP1> log\nno actions yet", out), out[-1500:]
