"""Dozen War at a real (pseudo-)terminal, 80×24 (issue 28): each decision fits with the map, no
Python repr is on screen, every card or piece named on screen has rules text (`look NAME`), the
status and the map's key (`board`) are a command away, and the glyphs are the unambiguous ones."""
from __future__ import annotations

import re

import pytest

from test_terminal_fit import PROMPT, REPR, check_fits, sized
from test_terminal_pty import ROOT
from test_terminal_recap_pty import read_paged

DOZEN_WAR = str(ROOT / "games" / "dozen_war.rules")
OLD_GLYPH = re.compile(r"(?<![#\w])[1-4]\d[ICA](?!\w)")     # "11A": owner and count run together


def names_on(screen: list[str]) -> set[str]:
    """Cards and pieces a Dozen War screen names: options with their text, hand, the event."""
    found = set()
    for line in screen:
        for m in re.finditer(r"\d+\. ([A-Z][\w' ]+?) — ", line):
            found.add(m.group(1))
        m = re.search(r"hand \(P1\): \d+ cards?: (.+?)(?: · |$)", line)
        if m:
            found.update(x.strip() for x in m.group(1).split(", "))
        m = re.search(r"Event: \d of 7: ([\w' ]+)", line)
        if m:
            found.add(m.group(1).strip())
    return found


@pytest.mark.slow
def test_dozen_war_against_a_bot_at_80x24():
    term = sized("play", DOZEN_WAR, "--seed", "3", "--players", "2", "--bot", "2=random", columns=80, lines=24)
    found = term.expect(PROMPT)
    screen = check_fits(term, found.start(), 80, 24)
    assert any(line.startswith(" 11 ") for line in screen)            # the map is on the decision's screen
    names = names_on(screen)
    assert "Stone Breaker" in names, names                           # the draft's generals, with their text
    for piece, says in (("infantry", "An infantry soldier: 2 health"), ("Volcano", "The volcano, in the middle"),
                        ("North archer castle", "The North player's archer castle"),
                        ("Cursed Idol", "Curse: 2 damage"), ("Call to Arms", r"An infantry soldier joins")):
        term.line(f"look {piece}")
        term.expect(re.escape(piece) + r" \(\w+\)\n  " + says)
        term.expect(PROMPT)
    term.line("board")                                               # the map and its key, in words
    shown = read_paged(term)                                         # (a screenful at a time: 33 lines
    assert re.search(r"  Key:\n    1A3\+2: P1's archer general", shown)  # scrolled the map away at 24 rows)
    assert shown.index(" 11 ") < shown.index("  Key:") and "-- more" in term.text[term.text.rindex("> board"):]
    seen: set[str] = set()
    for turn in range(70):
        term.line("end turn" if turn % 5 == 4 and re.search(r"\d\. end turn", "\n".join(screen)) else "1")
        found = term.expect(rf"(?:{PROMPT}|Game over)")
        if found.group() == "Game over":
            break
        screen = check_fits(term, found.start(), 80, 24)
        seen |= names_on(screen)
    assert any(" rolls " in x and ": " in x for x in term.text.split("\n") if "> P" in x)   # event outcomes told
    assert re.search(r"Event \d of 7: [\w' ]+ \(1-3: ", term.text)
    assert len(seen) >= 3, seen
    for name in sorted(seen):                                        # every name on screen has text
        term.line(f"look {name}")
        term.expect(re.escape(name) + r" \(\w+\)\n  \S")
        term.expect(PROMPT)
    term.line("quit")
    term.expect(r"Save before leaving")
    term.line("")
    term.close()
    assert not REPR.search(term.text), REPR.search(term.text)
    assert not OLD_GLYPH.search(term.text), OLD_GLYPH.search(term.text)


def test_one_letter_that_starts_words_of_many_actions_is_ambiguous():
    """A first hour at the terminal: a stray `e` played `end turn` (the one action whose text starts
    with it), though a dozen moves go to cells e…; the round's dice then made it impossible to undo.
    A single letter is matched against the start of every word."""
    import io
    import rulelang
    from rulelang.play.repl import run_repl
    game = rulelang.load(DOZEN_WAR)
    out = io.StringIO()
    run_repl(game, 2, 5, {"generals": "random"}, {1: "random"},
             io.StringIO("1\n" * 10 + "e\nquit\nn\n"), out, "dozen_war.rules")
    text = out.getvalue()
    said = text[text.index("P1> e\n"):].splitlines()[1]
    assert said.startswith("ambiguous: 'e' could be ") and "end turn" in said and "move e11" in said, said
    assert "P1 plays: end turn" not in text[text.index("P1> e\n"):]


@pytest.mark.parametrize("game, players, seed, lines, letter, played", [
    ("smash_up", 2, 0, "1 1 1 3 1 7 2", "d", "done"),                  # beside `play Grave Digger on …`
    ("shadow_hunters", 4, 0, "2 1 1 3 #3 1 1 2 1 1 1 2 1 1 1 5 5 1 2 1 1 2 1 1", "p", "pass"),  # beside `attack P2`
])
def test_one_letter_still_plays_the_one_action_it_starts_beside_card_and_seat_names(game, players, seed, lines,
                                                                                   letter, played):
    """A regression check of the one-letter rule above: `d` for done and `p` for pass were said
    "ambiguous" beside a card's word (Grave Digger) or a seat (P2); only a square's name (e11) counts."""
    import io
    import rulelang
    from rulelang.play.repl import run_repl
    out = io.StringIO()
    run_repl(rulelang.load(str(ROOT / "games" / f"{game}.rules")), players, seed, {}, {},
             io.StringIO("\n".join(lines.split() + [letter, "quit", "n"]) + "\n"), out, f"{game}.rules")
    text = out.getvalue()
    said = text[text.index(f"> {letter}\n"):].splitlines()[1]
    assert said.endswith(f"plays: {played}"), said
