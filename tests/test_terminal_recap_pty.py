"""Issue 28 at a real (pseudo-)terminal of 80×24, Smash Up against a random bot: `rules` gives the
basics and the sections a screen at a time (`-- more --`), the bot's turn that scrolled away is
noted on the next screen and `recap` shows it, `log` names who played each move with what it made
happen, `clear` draws the decision again, and `help rules` explains the command."""
from __future__ import annotations

import re

import pytest

from test_terminal_fit import PROMPT, SMASH_UP, check_fits, sized

MORE = r"-- more: Enter, q to stop --"
NOTE = r"\((\d+) lines since your last move scrolled up: type recap\)\n"


def read_paged(term) -> str:
    """What a command prints, Enter at each `-- more --`, up to the next prompt."""
    start, pages = term.seen, []
    for _ in range(100):
        found = term.expect(rf"(?:{MORE}|{PROMPT})")
        pages.append(term.text[start:found.start()])
        if found.group() != MORE:
            return "".join(pages)
        assert len(pages[-1].strip("\n").split("\n")) <= 24
        start = found.end()
        term.line("")
    raise AssertionError("no end to the pages")


@pytest.mark.slow
def test_smash_up_rules_recap_and_log_at_80x24():
    term = sized("play", SMASH_UP, "--seed", "5", "--players", "2", "--bot", "2=random", columns=80, lines=24)
    term.expect(PROMPT)
    term.line("rules")
    found = term.expect(MORE)
    first = term.text[term.text.rindex("P1> rules"):found.start()].rstrip("\n").split("\n")
    assert len(first) <= 24 and "How to win" in first and "Smash Up" in first[1]
    term.line("")
    rest = read_paged(term)
    assert re.search(r"^  rules turn +A turn$", rest, re.M) and re.search(r"^  rules cards +Cards and pieces$", rest, re.M)
    assert "Step `draw cards`: Draw 2 cards" in rest
    term.line("rules robots")
    robots = read_paged(term)
    assert robots.startswith("rules robots\nCards: Robots\n") and "- Warbot: Minion, power 4" in robots
    assert "Cards: Wizards" not in robots
    term.line("help rules")
    assert re.search(r"^  rules KEY +one section", read_paged(term), re.M)
    term.line("keep")                         # (S3: the opening hand)
    term.expect(PROMPT)
    for _ in range(30):                       # play on until the bot's turn has scrolled away
        term.line("1")
        found = term.expect(rf"(?:{NOTE}|{PROMPT})")
        if found.group().startswith("("):
            break
    else:
        raise AssertionError("no note of lines that scrolled away")
    lines = int(found.group(1))
    at = term.expect(PROMPT)
    check_fits(term, at.start(), 80, 23)      # the decision fits below the note
    term.line("recap")
    recap = read_paged(term)
    assert recap.startswith("recap\nSince your last move:\nP1 plays: ") and "P2 (random) plays: " in recap
    assert len(recap.strip("\n").split("\n")) >= lines
    term.line("log")
    log = read_paged(term)
    assert re.search(r"^  1\. P1: .+\n", log, re.M) and re.search(r"^  \d+\. P2: play .+ on .+\n       > P2 plays ", log, re.M)
    term.line("clear")
    at = term.expect(PROMPT)
    check_fits(term, at.start(), 80, 24)
    term.line("quit")
    term.expect(r"Save before leaving")
    term.line("")
    assert term.close() == 0
