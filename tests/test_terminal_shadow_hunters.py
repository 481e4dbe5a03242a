"""Shadow Hunters at a real (pseudo-)terminal, 80×24 (issue 28): a seat sees its own character
plainly (side, HP, win condition, ability), each decision fits the screen with what it is about,
nothing is a Python repr, every card, character and area named on screen has rules text
(`look NAME`), the out-of-turn hint names only the other human, and the end says who won and why."""
from __future__ import annotations

import re

import pytest

from test_terminal_fit import PROMPT, REPR, SHADOW_HUNTERS, check_fits, screen_before, sized

HAND_OVER = r"Pass the terminal to P\d and press Enter "


def names_on(screen: list[str]) -> set[str]:
    """Cards and characters the screen names: zone listings, your own character, the areas."""
    found = set()
    for line in screen:
        for part in line.split(" · "):
            m = re.search(r"\d+ (?:cards?|characters?): (.+)$", part)
            if m:
                found.update(x.strip() for x in m.group(1).split(", "))
        m = re.search(r"You are ([\w -]+), a (Shadow|Hunter|Neutral) with", line)
        if m:
            found.add(m.group(1))
        found.update(re.findall(r"((?:Hermit's Cabin|Underworld Gate|Church|Cemetery|Weird Woods|Erstwhile Altar)"
                                r" \([\d-]+\))", line))
    return {x for x in found if x}


@pytest.mark.slow
def test_shadow_hunters_two_people_and_two_bots_at_80x24():
    term = sized("play", SHADOW_HUNTERS, "--seed", "3", "--players", "4", "--bot", "3=random", "--bot", "4=random",
                 columns=80, lines=24)
    term.expect(r"Pass the terminal to P1 and press Enter ")       # (everyone is round it at the start: the
    term.line("")                                                    #  first screen showed P1's character)
    found = term.expect(PROMPT)
    screen = check_fits(term, found.start(), 80, 24)
    body = "\n".join(screen)
    # your own secrets, plainly: character, side, HP, how you win, your ability
    mine = re.search(r"You are ([\w -]+), an? (Shadow|Hunter|Neutral) with (\d+) HP \(hidden: only you know it\)\.",
                     body)
    assert mine, body
    assert "You win when " in body and re.search(r"\((?:Usable once you reveal yourself|Used)\.\)|works while", body)
    assert not re.search(r"^  (?:dead|revealed|used|cursed|barrier|angel|extra): ", body, re.M)   # no flag rows
    assert "max hp" not in body and "pool" not in body
    assert "(out of turn, P2 may act, if allowed: reveal or ability; type as P2)" in term.text[:found.start()]
    assert not re.search(r"out of turn, P1\b|out of turn, [P0-9, ]*P1 may", term.text[:found.start()])
    names = names_on(screen)
    assert mine.group(1) in names and "Church (6)" in names, names
    for name in sorted(names):                        # every card, character and area named has its text
        term.line(f"look {name}")
        term.expect(rf"{re.escape(name)} \([\w ]+\)\n  \S")
        term.expect(PROMPT)
    term.line("look Vampire")                         # any character's rules, for anyone to read
    term.expect(r"Shadow, 13 HP \(dies at 13 damage\)\. Wins when every Hunter character is dead")
    term.expect(PROMPT)
    term.line("look Hermit's Slap")
    term.expect(r"If you are a Hunter: take 1 damage\. Otherwise nothing happens\.")
    term.expect(PROMPT)
    term.line("1")
    ended = False
    for _ in range(160):                              # play on: every decision fits, with its context
        found = term.expect(rf"(?:{PROMPT}|{HAND_OVER}|Game over)")
        if found.group().startswith("Game over"):
            ended = True
            break
        if found.group().startswith("Pass"):
            term.line("")
            continue
        screen = check_fits(term, found.start(), 80, 24)
        seat = found.group()[1]
        hint = re.findall(r"out of turn: as (P\d)", "\n".join(screen_before(term, found.start())))
        assert seat not in hint
        if "attacked you: do you reveal your character now?" in "\n".join(screen):
            assert re.search(r"\d\. reveal myself|\d\. stay hidden", "\n".join(screen))
        term.line("1")
    if not ended:
        term.line("quit")
        term.expect(r"Save before leaving")
        term.line("")
    term.close()
    assert not REPR.search(term.text), REPR.search(term.text)
    assert "P1 gives you Hermit's" in term.text or "you draw Hermit's" in term.text or "hermit" not in term.text
    if ended:
        end = re.sub(r"\n  ", " ", term.text[term.text.rindex("Game over"):])     # (lines wrapped at 80)
        assert re.match(r"Game over: .* wins?\. Why: .*(Hunters win: every Shadow is dead|Shadows win: "
                        r"(every Hunter is dead|3 Neutrals are dead)|wins: ).* The winners: P\d \w", end), end[:300]


def test_the_you_block_says_who_else_knows_a_character_shown_in_secret():
    """A first hour: after Hermit's Prediction showed the character to the giver, the "You" block
    still said "hidden: only you know it" (H13: a player an effect let see it does see it)."""
    import json
    import rulelang
    game = rulelang.load(SHADOW_HUNTERS)
    state = json.loads(json.dumps(game.new_match(4, 0).state()))

    def you(shown: list) -> str:
        state["vars"]["shown_to"][0] = shown
        view = rulelang.Match.from_state(game, state).view(0)
        return next(v["value"][0] for v in view["values"] if v["name"] == "You")
    assert "(hidden: only you know it)" in you([])
    assert "(hidden: you and P2, P4 know it)" in you([1, 3])
