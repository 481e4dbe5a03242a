"""Smash Up: Tooth and Claw... and Guns against a minion's own Special ("if an ability would
affect this minion, destroy this card instead and the ability does not affect the minion"). Found
by a card-by-card audit: Scout went back to hand past it (its ability moved it without the
`return_to_hand` Tooth and Claw stops), and a Pirate King or First Mate stopped once was offered
its Special again in the same window and moved the second time. A Special is used once per
scoring, whatever it did."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_bases import Position, legal, pass_windows, where  # noqa: E402

BASES = ("Jungle Oasis", "Tar Pits", "Tortuga")
CLAW = "Tooth and Claw... and Guns"


def claw_on(pos, minion: int) -> int:
    card = pos.take(CLAW, 1)
    pos.z["attached"].append(card)
    pos.st["vars"]["on_minion"][card] = minion
    return card


def test_scout_carrying_tooth_and_claw_stays_and_is_discarded_with_the_base():
    pos = Position(factions="aliens+pirates,dinosaurs+ninjas").bases(*BASES).base_deck("The Central Brain")
    scout = pos.minion("Scout", 0, "Jungle Oasis")
    pos.minions(1, "Jungle Oasis", "King Rex", "Laseratops")          # 3 + 7 + 4 = 14: it scores
    claw = claw_on(pos, scout)
    m = pos.match()
    m.apply("done")
    pass_windows(m)
    m.apply("Scout")
    zones = m.state()["zones"]
    assert claw in zones["discard"][1]
    assert scout not in zones["hand"][0] and scout in zones["discard"][0]


def test_a_pirate_king_stopped_by_tooth_and_claw_is_not_offered_again_for_that_base():
    pos = Position(factions="pirates+aliens,dinosaurs+ninjas").bases(*BASES).base_deck("The Central Brain")
    king = pos.minion("Pirate King", 0, "Tar Pits")
    claw_on(pos, king)
    pos.minions(1, "Jungle Oasis", "King Rex", "Laseratops")
    pos.minions(0, "Jungle Oasis", "Invader")                         # 14: Jungle Oasis scores
    m = pos.match()
    m.apply("done")
    assert "Pirate King" in legal(m)
    m.apply("Pirate King")                                            # stopped: the claw is destroyed
    assert where(m, king) == "Tar Pits"
    while m.question is not None and "about to score" in m.question["prompt"]:
        assert "Pirate King" not in legal(m)
        m.apply("pass")
    assert where(m, king) == "Tar Pits"


def test_a_first_mate_stopped_by_tooth_and_claw_goes_to_the_discard_with_its_base():
    pos = Position(factions="pirates+aliens,dinosaurs+ninjas").bases(*BASES).base_deck("The Central Brain")
    mate = pos.minion("First Mate", 0, "Jungle Oasis")
    claw = claw_on(pos, mate)
    pos.minions(1, "Jungle Oasis", "King Rex", "Laseratops")
    m = pos.match()
    m.apply("done")
    pass_windows(m)
    m.apply("First Mate")
    m.apply("Tar Pits")                                               # stopped: the claw is destroyed
    while m.question is not None:                                     # (not offered again)
        assert "First Mate" not in legal(m)
        m.apply("pass")
    zones = m.state()["zones"]
    assert claw in zones["discard"][1] and mate in zones["discard"][0]


def on_minion(pos, label: str, owner: int, minion: int) -> int:
    card = pos.take(label, owner)
    pos.z["attached"].append(card)
    pos.st["vars"]["on_minion"][card] = minion
    return card


def crop_circles_on(guard) -> tuple:
    """P2's Crop Circles (return each minion on a base to its owner's hand) on the base of P1's
    King Rex, which carries Tooth and Claw and is guarded by `guard(pos, rex)` too."""
    pos = Position(factions="dinosaurs+ninjas,aliens+pirates").bases(*BASES).hand(1, "Crop Circles").turn(1)
    rex = pos.minion("King Rex", 0, "Jungle Oasis")
    claw = on_minion(pos, CLAW, 0, rex)
    guard(pos, rex)
    m = pos.match()
    m.apply("act Crop Circles")
    m.apply("Jungle Oasis")
    return m, rex, claw


def test_tooth_and_claw_stays_when_another_protection_already_stops_the_ability():
    """A rules audit: Tooth and Claw ("if an ability would affect this minion, destroy this card
    instead") was spent on another player's action that Wildlife Preserve or Smoke Bomb already
    kept from the minion ("not affected by other players' actions"): the minion was not going to
    be affected. Which went first was only the order of the cards' files."""
    for guard in (lambda pos, rex: pos.action_on_base("Wildlife Preserve", 0, "Jungle Oasis"),
                  lambda pos, rex: on_minion(pos, "Smoke Bomb", 0, rex)):
        m, rex, claw = crop_circles_on(guard)
        assert where(m, rex) == "Jungle Oasis"
        assert claw in m.state()["zones"]["attached"] and claw not in m.state()["zones"]["discard"][0]


def test_tooth_and_claw_on_a_warbot_stays_when_a_destroy_could_not_destroy_it():
    pos = Position(factions="robots+dinosaurs,ninjas+pirates").bases(*BASES).hand(1, "Ninja Master").turn(1)
    bot = pos.minion("Warbot", 0, "Jungle Oasis")
    claw = on_minion(pos, CLAW, 0, bot)
    m = pos.match()
    m.apply("play Ninja Master on Jungle Oasis")
    m.apply(next(a for a in legal(m) if a.startswith("Warbot")))
    assert where(m, bot) == "Jungle Oasis" and claw in m.state()["zones"]["attached"]


def test_tooth_and_claw_still_stops_what_would_affect_the_minion():
    m, rex, claw = crop_circles_on(lambda pos, rex: None)
    assert where(m, rex) == "Jungle Oasis" and claw in m.state()["zones"]["discard"][0]
