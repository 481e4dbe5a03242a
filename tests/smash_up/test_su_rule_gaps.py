"""Smash Up: digest rules (shared/rules/smash_up.md, smash_up_cards.md) no other test checks directly —
S1 (two different factions per player, 40-card decks, the faction draft in reverse seat order), S2
(players + 1 bases, 5-card hands), S8 (a player whose only minion on the base has power 0 still takes a
place) and step 2 of "Scoring order for one base" (a before-scores Special that drops the power below
the breakpoint does not stop the scoring).

Positions are built as in test_bases.py (a real match's `state()` edited, restored with
`rulelang.Match.from_state`); actions and answers are played by their texts.
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from opening import kept  # noqa: E402
from test_bases import Position, answer, game, legal, pass_windows, var, where, zone  # noqa: E402

FACTIONS = ["Aliens", "Dinosaurs", "Ninjas", "Pirates", "Robots", "Tricksters", "Wizards", "Zombies"]


def factions_of(m, p: int) -> Counter:
    """The factions of every card p owns (deck, hand and discard), card by card."""
    st = m.state()
    cards = st["zones"]["deck"][p] + st["zones"]["hand"][p] + st["zones"]["discard"][p]
    return Counter(st["components"][c]["fields"]["faction"] for c in cards)


# ---- S1 --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_s1_random_factions_two_different_per_player_forty_cards_each(players):
    m = kept(game.new_match(players, seed=players))
    taken = []
    for p in range(players):
        by = factions_of(m, p)
        assert sorted(by.values()) == [20, 20]           # two different factions, 20 cards each: 40
        taken += list(by)
    assert len(taken) == len(set(taken)) == 2 * players  # no faction shared between players


def test_s1_draft_in_reverse_seat_order_two_rounds():
    m = game.new_match(3, seed=1, options={"factions": "draft"})
    order, picks = [], {0: [], 1: [], 2: []}
    for pick in ["Aliens", "Ninjas", "Robots", "Dinosaurs", "Pirates", "Zombies"]:
        q = m.question
        assert q["prompt"] == "choose a faction"
        assert sorted(q["options"]) == sorted(f for f in FACTIONS if f not in sum(picks.values(), []))
        order.append(q["chooser"])
        picks[q["chooser"]].append(pick)
        m.apply(pick)
    assert order == [2, 1, 0, 2, 1, 0]                   # P3, P2, P1, P3, P2, P1
    assert m.question["prompt"].startswith("your opening hand")   # the draft is over
    kept(m)
    assert factions_of(m, 0) == {"robots": 20, "zombies": 20}
    assert factions_of(m, 1) == {"ninjas": 20, "pirates": 20}
    assert factions_of(m, 2) == {"aliens": 20, "dinosaurs": 20}


# ---- S2 (and S3's five cards) ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_s2_players_plus_one_bases_revealed_and_five_card_hands(players):
    m = kept(game.new_match(players, seed=players))
    z = m.state()["zones"]
    assert len(z["bases"]) == players + 1
    assert len(z["base_deck"]) == 16 - (players + 1) and z["base_discard"] == []
    assert [len(h) for h in z["hand"]] == [5] * players
    assert [len(d) for d in z["deck"]] == [35] * players


# ---- S8 --------------------------------------------------------------------------------------------------
def test_s8_a_player_whose_only_minion_has_power_0_still_takes_a_place():
    """Mushroom Kingdom (breakpoint 20, VP 5/3/2): P2 15, P3 5, P1's Ninja Acolyte (2) under Poison (−4,
    never below 0) has power 0 — P1 still has a minion there, so takes third place: 2 VP."""
    pos = (Position(3, "ninjas+pirates,aliens+dinosaurs,robots+zombies")
           .bases("Mushroom Kingdom", "Jungle Oasis", "Tar Pits", "Tortuga").base_deck("The Central Brain")
           .minions(1, "Mushroom Kingdom", "King Rex", "Supreme Overlord", "Invader")   # 7 + 5 + 3
           .minions(2, "Mushroom Kingdom", "Nukebot"))                                # 5
    acolyte = pos.minion("Ninja Acolyte", 0, "Mushroom Kingdom")
    poison = pos.take("Poison", 0)
    pos.z["attached"].append(poison)
    pos.st["vars"]["on_minion"][poison] = acolyte
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1, 2]
    assert m.question is None
    assert var(m, "vp") == [2, 5, 3]
    assert zone(m, "base_discard") == ["Mushroom Kingdom"]
    assert zone(m, "bases") == ["The Central Brain", "Jungle Oasis", "Tar Pits", "Tortuga"]   # (in its place)
    assert sorted(zone(m, "discard", 0)) == ["Ninja Acolyte", "Poison"]


# ---- Scoring order for one base, step 2 ---------------------------------------------------------------
def test_scoring_step_2_full_sail_below_the_breakpoint_does_not_stop_the_scoring():
    """Jungle Oasis (breakpoint 12, VP 2/0/0): P1 King Rex 7, P2 Buccaneer 4 + Saucy Wench 3 = 14. In the
    before-scores window P2 plays Full Sail and moves the Wench away: 11 < 12, the base still scores."""
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").base_deck("The Central Brain")
           .minions(0, "Jungle Oasis", "King Rex")
           .minions(1, "Jungle Oasis", "Buccaneer")
           .hand(1, "Full Sail"))
    wench = pos.minion("Saucy Wench", 1, "Jungle Oasis")
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0]
    assert m.question["chooser"] == 1 and legal(m) == ["Full Sail", "pass"]
    answer(m, "Full Sail", "Saucy Wench (P2, Jungle Oasis)", "Tar Pits")
    assert legal(m) == ["Buccaneer (P2, Jungle Oasis)", "pass"]
    answer(m, "pass")                                    # 7 + 4 = 11 left on the Oasis
    assert where(m, wench) == "Tar Pits"
    assert pass_windows(m) == [0, 1]                     # the window closes
    assert m.question is None
    assert var(m, "vp") == [2, 0]                        # scored all the same: P1 first (7 vs 4)
    assert zone(m, "base_discard") == ["Jungle Oasis"]
    assert zone(m, "bases") == ["The Central Brain", "Tar Pits", "Tortuga"]
    assert where(m, wench) == "Tar Pits"
    assert sorted(zone(m, "discard", 1)) == ["Buccaneer", "Full Sail"]
    assert zone(m, "discard", 0) == ["King Rex"]
