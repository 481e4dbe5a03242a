"""Smash Up: what one ability does at once stays at once. Found by a card-by-card audit: one Flame
Trap destroyed two minions played in one effect (its second trigger ran after the trap had gone),
and a Microbot Archive drew one card or two for the same Nukebot depending on the hidden order
the minions had been put in play. Each test builds the exact position and checks the exact result.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_bases import Position, zone  # noqa: E402

BASES = ("Jungle Oasis", "Tar Pits", "Tortuga")


def field(m) -> list[tuple[str, int, str]]:
    st = m.state()
    comps = st["components"]
    return sorted((comps[c]["label"], comps[c]["fields"]["owner"], comps[st["vars"]["at"][c]]["label"])
                  for c in st["zones"]["field"])


def answer_all(m) -> None:
    while m.question:
        m.apply(m.question["options"][0])


def test_flame_trap_destroys_only_the_first_of_two_minions_played_in_one_effect():
    """"After another player plays a minion here: destroy that minion and this card": Hoverbot
    plays the Zapbot it reveals there too; the trap takes the first and itself, and is gone."""
    pos = (Position(factions="tricksters+wizards,robots+zombies").bases(*BASES)
           .hand(1, "Hoverbot").deck(1, "Zapbot").turn(1))
    pos.action_on_base("Flame Trap", 0, "Jungle Oasis")
    m = pos.match()
    m.apply("play Hoverbot on Jungle Oasis")
    m.apply("Zapbot")
    if m.question and m.question["prompt"] == "on which base to play Zapbot":  # (revealed by Hoverbot: named)
        m.apply("Jungle Oasis")
    answer_all(m)
    survivors = field(m)
    assert len(survivors) == 1 and survivors[0][1:] == (1, "Jungle Oasis")
    assert sorted(zone(m, "discard", 1)) == sorted({"Hoverbot", "Zapbot"} - {survivors[0][0]})
    assert zone(m, "discard", 0) == ["Flame Trap"]


def test_microbot_archive_sees_every_microbot_one_nukebot_destroys_in_any_order():
    """Nukebot destroys every minion other players have on its base at once: the Archive draws for
    itself and for the Guard, whichever of the two lies first in the field."""
    drawn = []
    for order in (("Microbot Archive", "Microbot Guard"), ("Microbot Guard", "Microbot Archive")):
        pos = (Position(factions="robots+tricksters,wizards+robots").bases(*BASES).turn(1)
               .hand(1, "Sacrifice").minions(1, "Jungle Oasis", "Nukebot")
               .minions(0, "Jungle Oasis", *order).deck(0, "Warbot", "Zapbot", "Hoverbot"))
        m = pos.match()
        before = len(m.state()["zones"]["hand"][0])
        m.apply("act Sacrifice")
        answer_all(m)
        drawn.append(len(m.state()["zones"]["hand"][0]) - before)
        assert field(m) == []
    assert drawn == [2, 2]


def test_microbot_alpha_destroyed_with_the_others_still_makes_them_microbots_for_the_archive():
    """With Microbot Alpha, every minion of its owner is a Microbot; destroyed together with a
    Zapbot by one Nukebot, Alpha (listed first) still counts: the Archive draws for all three."""
    pos = (Position(factions="robots+tricksters,wizards+robots").bases(*BASES).turn(1)
           .hand(1, "Sacrifice").minions(1, "Jungle Oasis", "Nukebot")
           .minions(0, "Jungle Oasis", "Microbot Alpha", "Zapbot", "Microbot Archive")
           .deck(0, "Warbot", "Zapbot", "Hoverbot", "Microbot Guard"))
    m = pos.match()
    before = len(m.state()["zones"]["hand"][0])
    m.apply("act Sacrifice")
    answer_all(m)
    assert len(m.state()["zones"]["hand"][0]) - before == 3
