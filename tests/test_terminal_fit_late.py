"""Issue 28, late-game screens at a fixed terminal size (positions reached by a seeded run of
random moves): the viewer's own secrets (`show … , own`) are never cut, the table (`show …,
table`) gives way only after the zones and the rest of the status, `table` redraws it, and when
the actions are paged the status is fitted beside the page printed, not beside every action."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.play.repl import run_repl

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def games():
    return {name: rulelang.load(str(ROOT / "games" / f"{name}.rules"))
            for name in ("shadow_hunters", "smash_up", "dozen_war")}


def position(game, players: int, seed: int, moves: int):
    """The match after `moves` random moves (seeded): a late-game position, the same every run."""
    match = game.new_match(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        match.apply(rng.choice(match.legal_actions()))
    return match


def screen(game, match, size: tuple[int, int], typed: str = "") -> tuple[list[str], str]:
    """The decision's screen drawn for the seat to act at `size`, and all that was printed."""
    out = io.StringIO()
    run_repl(game, match.players, 0, stdin=io.StringIO(typed + "quit\n\n"), stdout=out, match=match, screen=size)
    text = out.getvalue()
    start = text.index("\n== ") + 1
    end = text.index(f"P{match.current_player + 1}> ", start)
    return text[start:end].rstrip("\n").split("\n"), text


def value(match, seat: int, label: str):
    return next(v["value"] for v in match.view(seat)["values"] if v["name"].startswith(label))


def test_the_own_block_is_whole_on_a_crowded_late_screen(games):
    """Shadow Hunters, turn 19 at 80×24: P2 (the Werewolf) is asked whether to counterattack; the
    question, the Werewolf's text and the choices fill the screen, and the "You" block (P2's own
    character, side, HP, win condition and ability) must still be whole on it (it fell behind
    `… more lines of status`)."""
    game = games["shadow_hunters"]
    match = position(game, 4, 4, 77)
    seat = match.current_player
    lines, _ = screen(game, match, (80, 24))
    assert len(lines) <= 20, "\n".join(lines)
    body = " ".join(" ".join(lines).split())
    assert "Counterattack" in body and "1. yes" in body
    for line in value(match, seat, "You"):          # every line of the seat's own secrets
        assert " ".join(line.split()) in body, (line, "\n".join(lines))


def test_the_own_block_is_never_cut_through_a_game(games):
    game = games["shadow_hunters"]
    match = game.new_match(4, seed=3)
    rng = random.Random(3)
    for move in range(110):
        if match.is_over:
            break
        if move % 5 == 0:
            lines, _ = screen(game, match, (80, 24))
            body = " ".join(" ".join(lines).split())
            for line in value(match, match.current_player, "You"):
                assert " ".join(line.split()) in body, (move, line, "\n".join(lines))
        match.apply(rng.choice(match.legal_actions()))


def test_the_table_gives_way_after_the_zones_and_table_redraws_it(games):
    """Smash Up, turn 15 at 80×24: the bases (a shown value marked `table`) were cut to make room
    for the decks and the other player's hand; now those zones give way first, and every base
    with its minions is on screen. `table` redraws the bases too (it drew only the zones)."""
    game = games["smash_up"]
    match = position(game, 2, 3, 58)
    seat = match.current_player
    lines, text = screen(game, match, (80, 24), typed="table\n")
    assert len(lines) <= 20, "\n".join(lines)
    body = "\n".join(lines)
    bases = value(match, seat, "Bases")
    assert len(bases) >= 7
    flat = " ".join(body.split())                    # (a base's line longer than the screen is wrapped)
    for line in bases:
        assert " ".join(line.split()) in flat, (line, body)
    assert "deck (P1): " not in body and re.search(r"\(deck, [\w, ]+: type table\)", body)
    assert re.search(r"1\. \S", body)
    redrawn = text[text.index(f"P{seat + 1}> ", text.index(body)):]
    for line in bases:                               # `table`: the zones and the table's values
        assert " ".join(line.split()) in " ".join(redrawn.split()), (line, redrawn)
    assert re.search(r"deck \(P1\): \d+ cards?, hidden", redrawn)


def test_a_paged_turn_keeps_the_status_beside_the_page(games):
    """Dozen War, late at 120×40: 130 moves do not fit and are paged; the status (points,
    coins, event) must be fitted beside the page printed, not replaced by `(the status: type
    status)` because all the grouped moves would not fit. (Seed 1: seed 3's 133 moves became 106,
    which fit, once alike soldiers were one choice.)"""
    game = games["dozen_war"]
    match = position(game, 2, 1, 80)
    lines, _ = screen(game, match, (120, 40))
    assert len(lines) <= 36, "\n".join(lines)
    body = "\n".join(lines)
    assert re.search(r"… \d+ more(?: choices: type more|; every kind: .*: type more KIND)", body), body
    assert "(the status: type status)" not in body
    assert re.search(r"^  Players: P1: \d+ points?, \d+ pieces?, \d+ coins?", body, re.M), body
    assert "Event: " in body
    assert sum(1 for x in lines if re.search(r"(→ |^  )\d+\. ", x)) >= 6      # a page of choices, not 3 lines


def test_a_table_cut_for_the_actions_leaves_a_line_for_the_rest_of_the_status():
    """A new author's Yahtzee at 80x24: the boxes (a `table` value of 13 lines) were cut to make room
    for a page of rerolls, and "Rolls left" went with no line saying where it was."""
    tall = rulelang.Game(rulelang.compile_source('''game "Tall" {
  players 1
  var rolls: int = 2, public
  show "Rolls left" = rolls
  show "Boxes" = ["box " + text(i) + ": 0" for i in 1..16], table
  turn { step s { action pick(n in 1..40) { finish draw } } }
}''', "tall.rules"))
    out = io.StringIO()
    run_repl(tall, 1, 1, {}, {}, io.StringIO("quit\n"), out, "tall.rules", screen=(80, 24))
    first = out.getvalue().split("P1> ")[0]
    assert "more lines of table: type table" in first
    assert "Rolls left: 2" in first or "type status" in first, first
