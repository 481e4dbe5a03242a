"""Regicide (games/regicide.rules) against its rules digest (shared/rules/regicide.md).

Every scenario builds its exact position through the public API (`state()` edited, then
`Match.from_state`), plays the actions as texts and checks the exact result.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import rulelang
from positions import GAME, build, hand, legal, pile, shown, var
from playouts import record_playout

SUIT_NAMES = {"♥": "hearts", "♦": "diamonds", "♣": "clubs", "♠": "spades"}


def ids_of(m, zone, owner=None):
    z = m.state()["zones"][zone]
    return list(z[owner]) if owner is not None else list(z)


def same_cards(a, b):
    return Counter(a) == Counter(b)


# ---------------------------------------------------------------------------
# The 13 digest scenarios
# ---------------------------------------------------------------------------

def test_s01_eight_diamonds_with_ace_of_clubs_against_jack_of_spades():
    # 4 players, limit 5. After the play the hands hold 1/3/0/4 cards: room 4/2/5/1 = 12 ≥ 9.
    draws = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣"]      # tavern, top first
    m = build(4, enemy="J♠",
              hands=[["8♦", "A♣", "2♥"], ["3♥", "4♥", "5♥"], [], ["6♥", "7♥", "8♥", "9♥"]],
              tavern=["2♠", "3♠"] + draws[::-1])
    assert "play 8♦ A♣" in legal(m)
    m.apply("play 8♦ A♣")
    # attack 9: 9 cards drawn round the table from P1: P1 P2 P3 P4 P1 P2 P3 (P4 full) P1 (P2 full) P3
    assert same_cards(hand(m, 0), ["2♥", "2♣", "6♣", "9♣"])
    assert same_cards(hand(m, 1), ["3♥", "4♥", "5♥", "3♣", "7♣"])
    assert same_cards(hand(m, 2), ["4♣", "8♣", "10♣"])
    assert same_cards(hand(m, 3), ["6♥", "7♥", "8♥", "9♥", "5♣"])
    assert pile(m, "tavern") == ["2♠", "3♠"]
    assert var(m, "damage") == 18                       # clubs: 9 counted twice
    assert pile(m, "table") == ["8♦", "A♣"]
    assert pile(m, "enemy") == ["J♠"]
    # not defeated (18 < 20): P1 now suffers the full 10
    assert m.state()["step"] == "suffer" and m.current_player == 0
    assert var(m, "due") == 10


def test_s02_three_threes_against_jack_of_hearts():
    draws = ["A♠", "2♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠", "10♠"]     # top first
    m = build(2, enemy="J♥",
              hands=[["3♦", "3♣", "3♠"], ["A♥", "2♥", "4♥", "5♥", "6♥"]],
              tavern=["2♣", "4♣"] + draws[::-1])
    m.apply("play 3♦ 3♣ 3♠")
    # 9 drawn: P1 P2 P1 P2 (P2 full at 7) then P1 five more
    assert same_cards(hand(m, 0), ["A♠", "4♠", "6♠", "7♠", "8♠", "9♠", "10♠"])
    assert same_cards(hand(m, 1), ["A♥", "2♥", "4♥", "5♥", "6♥", "2♠", "5♠"])
    assert pile(m, "tavern") == ["2♣", "4♣"]
    assert var(m, "shield") == 9
    assert var(m, "damage") == 18
    assert shown(m, "Enemy attack") == 1                 # 10 − 9
    assert m.state()["step"] == "suffer" and var(m, "due") == 1


def test_s03_hearts_against_jack_of_hearts_is_immune():
    discard = ["2♣", "3♣", "4♣", "5♣", "6♣"]
    m = build(2, enemy="J♥", hands=[["7♥", "2♦"], ["9♠"]], discard=discard)
    tavern_before = ids_of(m, "tavern")
    discard_before = ids_of(m, "discard")
    m.apply("play 7♥")
    assert ids_of(m, "discard") == discard_before        # nothing moved (not even shuffled)
    assert ids_of(m, "tavern") == tavern_before
    assert var(m, "damage") == 7
    assert pile(m, "table") == ["7♥"]
    assert var(m, "due") == 10


@pytest.mark.parametrize("damage_before, jack_to", [(0, "tavern"), (1, "discard")])
def test_s04_exact_kill_puts_the_jack_on_top_of_the_tavern(damage_before, jack_to):
    # 10♣ against J♠: 20 damage (clubs). 0 + 20 = 20 exactly; 1 + 20 = 21 overkill.
    m = build(2, enemy="J♠", hands=[["10♣", "2♥"], ["9♠"]], vars={"damage": damage_before})
    tavern_before = pile(m, "tavern")
    jack = ids_of(m, "enemy")[0]
    m.apply("play 10♣")
    assert pile(m, "enemy") == ["J♣"]                    # next castle card revealed
    if jack_to == "tavern":
        assert pile(m, "tavern") == tavern_before + ["J♠"]    # on top
        assert pile(m, "discard") == ["10♣"]
        for p in range(2):                               # face down: nobody sees it
            seen = [c["id"] for z in m.view(p)["zones"] if z["cards"] for c in z["cards"]]
            assert jack not in seen
    else:
        assert pile(m, "tavern") == tavern_before
        assert sorted(pile(m, "discard")) == sorted(["J♠", "10♣"])
    assert pile(m, "table") == []
    assert var(m, "damage") == 0
    # the damage dealt is said (a first hour read only "J♠ is defeated", not why it was no exact kill)
    said = [x["text"] for x in m.message_log() if "defeated" in x["text"]]
    assert said == (["J♠ is defeated by exact damage (20): it goes on top of the tavern"] if jack_to == "tavern"
                    else ["J♠ is defeated by 21 damage (health 20): it goes to the discard pile"])


def test_s05_legal_combinations():
    m = build(2, enemy="J♣", hands=[["6♣", "6♦", "5♣", "5♦", "A♠", "Jester"], ["9♥"]])
    assert sorted(legal(m)) == sorted([
        "play 6♣", "play 6♦", "play 5♣", "play 5♦", "play A♠", "play Jester",
        "play 6♣ A♠", "play 6♦ A♠", "play 5♣ A♠", "play 5♦ A♠",
        "play 5♣ 5♦",
        "yield",
    ])
    before = m.state()
    for bad in ("play 6♣ 6♦", "play A♠ Jester", "play 5♣ 5♦ A♠"):
        with pytest.raises(rulelang.IllegalAction):
            m.apply(bad)
        assert m.state() == before
    m.apply("play 5♣ 5♦")
    assert pile(m, "table") == ["5♣", "5♦"]
    assert var(m, "damage") == 10                        # clubs immune against J♣: not doubled


def test_s06_jester_makes_earlier_spades_shield():
    m = build(2, enemy="J♠", hands=[["4♠", "10♥", "2♥"], ["Jester", "3♥"]])
    m.apply("play 4♠")
    assert shown(m, "Enemy attack") == 10                # spades immune: no shield yet
    assert var(m, "due") == 10
    m.apply("discard 10♥")                               # 10 paid: turn over
    assert m.current_player == 1 and m.state()["step"] == "play"
    assert hand(m, 0) == ["2♥"]
    m.apply("play Jester")
    assert shown(m, "Enemy attack") == 6                 # the 4♠ now shields
    assert var(m, "immunity_cancelled") is True
    assert var(m, "damage") == 4                         # a Jester deals nothing
    assert sorted(legal(m)) == ["next turn P1", "next turn P2"]
    assert hand(m, 1) == ["3♥"]                          # P2 suffers nothing (step 4 skipped)
    m.apply("next turn P1")
    m.apply("yield")
    assert var(m, "due") == 6


def test_s07_clubs_before_the_jester_are_not_doubled_afterwards():
    m = build(2, enemy="J♣", hands=[["5♣", "10♥"], ["Jester", "4♣", "2♥"]])
    m.apply("play 5♣")
    assert var(m, "damage") == 5
    m.apply("discard 10♥")
    m.apply("play Jester")
    m.apply("next turn P2")                              # R23: may choose themselves
    assert m.current_player == 1 and m.state()["current"] == 1
    m.apply("play 4♣")
    assert var(m, "damage") == 5 + 8


def test_s08_no_yield_when_every_other_player_yielded():
    m = build(3, enemy="J♥", hands=[["2♥"], ["3♥"], ["4♥"]], vars={"yielded": [False, True, True]})
    assert legal(m) == ["play 2♥"]
    before = m.state()
    with pytest.raises(rulelang.IllegalAction):
        m.apply("yield")
    assert m.state() == before
    # control: one of them did not yield → P1 may yield
    m = build(3, enemy="J♥", hands=[["2♥"], ["3♥"], ["4♥"]], vars={"yielded": [False, True, False]})
    assert "yield" in legal(m)


def test_yield_says_who_may_and_why_not():
    # solo: never (R26); the screen says so instead of a `yielded: P1 no` row
    m = build(1, enemy="J♥", hands=[["2♥"]])
    assert "yield" not in legal(m)
    assert shown(m, "Yield") == "never in a solo game"
    assert all(v["name"] != "yielded" or v.get("internal") for v in m.view(0)["values"])
    m = build(3, enemy="J♥", hands=[["2♥"], ["3♥"], ["4♥"]], vars={"yielded": [False, True, True]})
    assert shown(m, "Yield", 1) == "P1 may not yield: every other player yielded on their last turn (yielded on their last turn: P2 P3)"
    m = build(3, enemy="J♥", hands=[["2♥"], ["3♥"], ["4♥"]], vars={"yielded": [False, True, False]})
    assert shown(m, "Yield") == "P1 may yield (yielded on their last turn: P2)"


def test_an_attack_of_0_says_there_is_nothing_to_discard():
    m = build(2, enemy="J♥", hands=[["2♥", "5♥"], ["3♥"]], vars={"shield": 10})
    m.apply("yield")
    assert m.current_player == 1
    assert m.messages_for(0)[-1] == "J♥'s attack is 0 after shields: nothing to discard"


def test_diamonds_say_why_fewer_cards_were_drawn():
    # ♦5 with room for 2 only (limit 7: P1 holds 6 after the play, P2 6): the other 3 are skipped
    m = build(2, enemy="J♠", hands=[["5♦", "2♥", "3♥", "4♥", "6♥", "7♥", "8♥"], ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣"]])
    m.apply("play 5♦")
    assert len(hand(m, 0)) == 7 and len(hand(m, 1)) == 7
    assert "2 of 5 cards are drawn round the table: every hand is full" in m.messages_for(0)
    m = build(2, enemy="J♠", hands=[["5♦"], []])
    m.apply("play 5♦")
    assert "5 cards are drawn round the table" in m.messages_for(0)
    m = build(2, enemy="J♠", hands=[["A♦"], []])
    m.apply("play A♦")
    assert "1 card is drawn round the table" in m.messages_for(0)
    # solo: drawn, not round a table (a first hour read "1 of 6 cards are drawn round the table")
    m = build(1, enemy="J♠", hands=[["5♦", "2♥", "3♥", "4♥", "6♥", "7♥", "8♥", "9♥"]])
    m.apply("play 5♦")
    assert len(hand(m, 0)) == 8
    assert "1 of 5 cards is drawn: the hand is full" in m.messages_for(0), m.messages_for(0)


def test_s08_yields_played_through_the_engine():
    # shield 10 against J♥: attack 0, so a yield costs nothing and the turn passes
    m = build(3, enemy="J♥", hands=[["2♥", "5♥"], ["3♥"], ["4♥"]], vars={"shield": 10})
    m.apply("yield")
    assert m.current_player == 1
    m.apply("yield")
    assert m.current_player == 2
    assert var(m, "yielded") == [True, True, False]
    assert legal(m) == ["play 4♥"]
    m.apply("play 4♥")
    assert var(m, "yielded") == [True, True, False]
    assert m.current_player == 0
    assert "yield" in legal(m)                           # P3 played: P1 may yield again
    m.apply("play 2♥")                                    # P1's most recent turn is now a play
    assert var(m, "yielded") == [False, True, False]
    assert m.current_player == 1
    assert legal(m) == ["play 3♥", "yield"]


def test_s09_hand_too_small_loses_at_once():
    m = build(2, enemy="J♥", hands=[["5♥"], ["9♠"]], vars={"shield": 4})
    assert shown(m, "Enemy attack") == 6
    m.apply("yield")
    assert m.is_over
    assert m.outcome["results"] == ["lose", "lose"]
    assert hand(m, 0) == ["5♥"]                          # no card-by-card discarding first


def test_s09_hand_worth_enough_pays_card_by_card():
    m = build(2, enemy="J♥", hands=[["5♥", "A♦", "3♣"], ["9♠"]], vars={"shield": 4})
    m.apply("yield")
    assert not m.is_over and m.state()["step"] == "suffer"
    assert var(m, "due") == 6
    assert sorted(legal(m)) == sorted(["discard 5♥", "discard A♦", "discard 3♣"])
    m.apply("discard 5♥")
    assert m.current_player == 0 and var(m, "due") == 1   # 5 < 6: still paying
    m.apply("discard 3♣")                                # overpaying is allowed (R25a)
    assert m.current_player == 1 and m.state()["step"] == "play"
    assert hand(m, 0) == ["A♦"]
    assert pile(m, "discard") == ["5♥", "3♣"]


def test_s10_draw_stops_when_everyone_is_full():
    draws = ["2♠", "3♠", "4♠", "5♠", "6♠"]             # top first
    m = build(3, enemy="J♠",
              hands=[["5♦", "2♥", "3♥", "4♥", "6♥", "7♥"], ["2♣", "3♣", "4♣", "5♣", "6♣"],
                     ["A♥", "8♥", "9♥", "10♥", "A♣", "7♣"]],
              tavern=["8♣"] + draws[::-1])
    m.apply("play 5♦")
    assert same_cards(hand(m, 0), ["2♥", "3♥", "4♥", "6♥", "7♥", "2♠"])
    assert same_cards(hand(m, 1), ["2♣", "3♣", "4♣", "5♣", "6♣", "3♠"])
    assert len(hand(m, 2)) == 6
    assert pile(m, "tavern") == ["8♣", "6♠", "5♠", "4♠"]    # 2 drawn in all, not 5
    assert var(m, "damage") == 5


def test_s11_hearts_heal_exactly_n_cards():
    discard = ["A♣", "2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣"]
    m = build(2, enemy="J♠", hands=[["4♥", "2♦"], ["9♥"]], discard=discard)
    tavern_before = ids_of(m, "tavern")
    discard_before = ids_of(m, "discard")
    m.apply("play 4♥")
    tavern, disc = ids_of(m, "tavern"), ids_of(m, "discard")
    assert len(tavern) == len(tavern_before) + 4
    assert tavern[4:] == tavern_before                   # the 4 went under the old tavern
    healed = tavern[:4]
    assert len(disc) == 6
    assert sorted(healed + disc) == sorted(discard_before)
    assert pile(m, "table") == ["4♥"]
    assert var(m, "damage") == 4


def test_s12_solo_jester_flip():
    tavern = [f"{r}{s}" for s in "♣♠" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]]
    m = build(1, enemy="J♠", hands=[["2♥", "3♥", "4♦"]], tavern=tavern, jesters_aside=["Jester", "Jester"])
    assert "flip jester" in legal(m)
    m.apply("flip jester")
    assert same_cards(pile(m, "discard"), ["2♥", "3♥", "4♦"])
    assert same_cards(hand(m, 0), tavern[-8:])
    assert len(pile(m, "jesters_aside")) == 1 and len(pile(m, "jesters_used")) == 1
    assert var(m, "immunity_cancelled") is False         # R27: never cancels immunity
    m.apply("flip jester")
    assert same_cards(pile(m, "discard"), ["2♥", "3♥", "4♦"] + tavern[-8:])
    assert same_cards(hand(m, 0), tavern[-16:-8])
    assert pile(m, "jesters_aside") == [] and len(pile(m, "jesters_used")) == 2
    assert "flip jester" not in legal(m)
    before = m.state()
    with pytest.raises(rulelang.IllegalAction):
        m.apply("flip jester")
    assert m.state() == before


def test_s13_defeat_then_same_player_plays_again_with_no_damage():
    m = build(2, enemy="J♠", hands=[["10♣", "2♥", "3♥"], ["4♥"]],
              vars={"damage": 1, "shield": 3, "immunity_cancelled": True})
    m.apply("play 10♣")                                   # 1 + 20 = 21: defeated
    s = m.state()
    assert pile(m, "enemy") == ["J♣"]
    assert s["step"] == "play" and s["current"] == 0 and m.current_player == 0
    assert hand(m, 0) == ["2♥", "3♥"]                    # nothing discarded for damage
    assert hand(m, 1) == ["4♥"]
    assert sorted(pile(m, "discard")) == sorted(["J♠", "10♣"])
    assert s["vars"]["damage"] == 0 and s["vars"]["shield"] == 0
    assert s["vars"]["immunity_cancelled"] is False
    assert s["vars"]["due"] == 0
    assert sorted(legal(m)) == sorted(["play 2♥", "play 3♥", "yield"])


# ---------------------------------------------------------------------------
# Setup (R1–R8, R26)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_setup_castle_tavern_hands_jesters(players, seed):
    m = GAME.new_match(players=players, seed=seed)
    s = m.state()
    comps = s["components"]
    z = s["zones"]
    rank = lambda c: comps[c]["fields"]["rank"]          # noqa: E731
    # R5: Kings at the bottom, Queens on them, Jacks on top; the top Jack revealed
    castle = z["castle"] + z["enemy"]
    assert [rank(c) for c in castle] == [13] * 4 + [12] * 4 + [11] * 4
    assert len(z["enemy"]) == 1
    # R7 / R26: hand sizes
    size = {1: 8, 2: 7, 3: 6, 4: 5}[players]
    assert [len(h) for h in z["hand"]] == [size] * players
    # R6 / R26: Jesters by player count
    in_play = z["tavern"] + [c for h in z["hand"] for c in h]
    jesters = sum(comps[c]["fields"]["jester"] for c in in_play)
    assert jesters == {1: 0, 2: 0, 3: 1, 4: 2}[players]
    assert len(z["jesters_aside"]) == (2 if players == 1 else 0)
    assert len(z["box"]) == 2 - jesters - len(z["jesters_aside"])
    # R1: the 40 player cards are all in the tavern or the hands
    player_cards = [c for c in in_play if not comps[c]["fields"]["jester"]]
    assert len(player_cards) == 40 and all(1 <= rank(c) <= 10 for c in player_cards)
    assert len(z["tavern"]) == 40 + jesters - players * size
    assert s["current"] == 0 and s["step"] == "play"      # R8: player 1 starts
    assert shown(m, "Hand limit") == size


def test_setup_is_shuffled():
    orders = {tuple(GAME.new_match(players=2, seed=s).state()["zones"]["tavern"]) for s in range(5)}
    assert len(orders) == 5
    kings = {tuple(GAME.new_match(players=2, seed=s).state()["zones"]["castle"][:4]) for s in range(8)}
    assert len(kings) > 1                                 # R5: each group shuffled


def test_card_values_r1_r2_r3():
    comps = GAME.new_match(players=4, seed=0).state()["components"]
    assert len(comps) == 54
    by_label = {c["label"]: c["fields"] for c in comps}
    for s in "♥♦♣♠":
        for r in range(1, 11):
            f = by_label[("A" if r == 1 else str(r)) + s]
            assert f["value"] == r and f["suit"] == SUIT_NAMES[s] and not f["jester"]
        assert (by_label["J" + s]["value"], by_label["J" + s]["health"]) == (10, 20)
        assert (by_label["Q" + s]["value"], by_label["Q" + s]["health"]) == (15, 30)
        assert (by_label["K" + s]["value"], by_label["K" + s]["health"]) == (20, 40)
    jesters = [c["fields"] for c in comps if c["label"] == "Jester"]
    assert len(jesters) == 2 and all(j["value"] == 0 and j["jester"] for j in jesters)


# ---------------------------------------------------------------------------
# More rules
# ---------------------------------------------------------------------------

def test_r17_r18_r19_r25b_combinations():
    m = build(2, enemy="J♥", hands=[["A♥", "A♦", "2♥", "2♦", "2♣", "2♠", "3♥", "3♦", "3♣", "4♥", "4♦",
                                     "4♣", "6♣", "6♦", "J♠", "Jester", "Jester"], ["9♥"]])
    acts = legal(m)
    for good in ("play A♥ A♦", "play 2♥ 2♦ 2♣ 2♠", "play 3♥ 3♦ 3♣", "play 2♥ 2♦ 2♣", "play 4♥ 4♦",
                 "play A♥ J♠", "play A♦ 6♣", "play J♠", "play Jester"):
        assert good in acts, good
    for bad in ("play 4♥ 4♦ 4♣", "play 6♣ 6♦", "play A♥ 2♥ 2♦", "play Jester Jester", "play A♥ Jester",
                "play 2♥ 3♥", "play A♥ A♦ 2♥", "play 2♥ 2♦ 3♥", "play 3♥ 3♦ 3♣ 2♠", "play J♠ Jester"):
        assert bad not in acts, bad
    assert acts.count("play Jester") == 1                # R25b: two Jesters, one choice


def test_r17_ace_and_card_of_the_same_suit_apply_the_power_once():
    m = build(2, enemy="J♠", hands=[["4♦", "A♦"], ["9♥", "9♣", "9♠", "8♥", "8♣", "8♠", "7♥"]])
    n = len(ids_of(m, "tavern"))
    m.apply("play 4♦ A♦")
    assert len(hand(m, 0)) == 5                          # 5 drawn once, not 4 + 1 + 5
    assert len(ids_of(m, "tavern")) == n - 5
    assert var(m, "damage") == 5


def test_r19_an_ace_with_a_jester_is_refused_with_the_jester_named():
    """A differential trial: the refusal read "an Ace with one other card", which A♠ + Jester is."""
    m = build(3, enemy="J♠", hands=[["A♠", "Jester"], ["3♥"], ["4♥"]])
    assert "play A♠ Jester" not in legal(m)
    assert "an Ace with one other card (not a Jester)" in m.refusal("play A♠ Jester")


def test_r10_hearts_with_an_empty_discard_pile_say_nothing_goes_under():
    """A trial read "0 cards from the discard pile go under the tavern"."""
    m = build(2, enemy="J♠", hands=[["5♥"], ["2♣"]], tavern=["3♣"], discard=[])
    m.apply("play 5♥")
    assert "the discard pile is empty: no card goes under the tavern" in m.messages_for(1)
    assert not any(x.startswith("0 cards") for x in m.messages_for(1))


def test_r10_hearts_resolve_before_diamonds():
    # the tavern is empty: only cards healed by ♥ first can be drawn by ♦
    discard = ["A♣", "2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣"]
    full = ["9♥", "9♠", "8♥", "8♠", "7♥", "7♠", "6♠"]
    m = build(2, enemy="J♠", hands=[["5♦", "A♥"], full], tavern=[], discard=discard)
    old_discard = ids_of(m, "discard")
    m.apply("play 5♦ A♥")                                 # attack 6
    drawn = ids_of(m, "hand", 0)
    assert len(drawn) == 6 and set(drawn) <= set(old_discard)
    assert ids_of(m, "tavern") == []
    assert sorted(drawn + ids_of(m, "discard")) == sorted(old_discard)
    assert same_cards(hand(m, 1), full)


def test_r11_heal_with_a_small_discard_moves_all_of_it():
    m = build(2, enemy="J♠", hands=[["7♥"], ["9♥"]], discard=["2♣", "3♣"])
    tavern_before = ids_of(m, "tavern")
    m.apply("play 7♥")
    assert pile(m, "discard") == []
    assert sorted(pile(m, "tavern")[:2]) == sorted(["2♣", "3♣"])
    assert ids_of(m, "tavern")[2:] == tavern_before


def test_r14_shields_add_up_across_players():
    m = build(2, enemy="J♥", hands=[["3♠", "10♦"], ["4♠", "10♣"]])
    m.apply("play 3♠")
    assert var(m, "due") == 7
    m.apply("discard 10♦")
    m.apply("play 4♠")
    assert shown(m, "Enemy attack") == 3 and var(m, "due") == 3
    assert var(m, "shield") == 7


def test_r22_court_card_from_the_tavern_is_a_card():
    # J♦ played against J♠: value 10, diamond power draws 10 (here capped by room)
    m = build(2, enemy="J♠", castle=["K♠", "Q♠", "J♣"], hands=[["J♦", "A♦", "2♥"], ["9♥"]])
    assert "play J♦ A♦" in legal(m)
    n = len(ids_of(m, "tavern"))
    m.apply("play J♦ A♦")                                # 11 damage, 11 drawn round the table
    assert var(m, "damage") == 11
    assert len(hand(m, 0)) == 7 and len(hand(m, 1)) == 6  # P1 1 → 7 (6 drawn), P2 1 → 6 (5 drawn)
    assert n - len(ids_of(m, "tavern")) == 11


@pytest.mark.parametrize("damage_before", [20, 25])
def test_r21_last_king_defeated_everyone_wins(damage_before):
    m = build(3, enemy="K♠", castle=[], hands=[["10♣"], ["2♥"], ["3♥"]], vars={"damage": damage_before})
    m.apply("play 10♣")
    assert m.is_over and m.current_player is None
    assert m.outcome["results"] == ["win", "win", "win"]
    assert m.legal_actions() == []
    with pytest.raises(rulelang.IllegalAction):
        m.apply("yield")


def test_r21_king_not_yet_defeated_is_no_win():
    m = build(3, enemy="K♠", castle=[], hands=[["10♥", "10♦", "10♣"], ["2♥"], ["3♥"]], vars={"damage": 29})
    m.apply("play 10♥")
    assert not m.is_over and var(m, "damage") == 39
    assert m.state()["step"] == "suffer" and var(m, "due") == 20


def test_r23_jester_chooser_may_pick_anyone():
    m = build(3, enemy="J♠", hands=[["Jester", "2♥"], ["3♥"], ["4♥"]])
    m.apply("play Jester")
    assert sorted(legal(m)) == ["next turn P1", "next turn P2", "next turn P3"]
    assert shown(m, "Yield") == "P1 chooses who plays next (yielded on their last turn: nobody)"
    m.apply("next turn P3")
    assert m.current_player == 2 and m.state()["current"] == 2 and m.state()["step"] == "play"
    assert shown(m, "Yield") == "P3 may yield (yielded on their last turn: nobody)"
    assert hand(m, 0) == ["2♥"]                          # no damage suffered by the Jester player


def test_r24_a_player_who_had_no_turn_has_not_yielded():
    m = GAME.new_match(players=3, seed=4)
    assert var(m, "yielded") == [False, False, False]
    assert "yield" in legal(m)


def test_r26_no_yield_in_solo():
    m = GAME.new_match(players=1, seed=4)
    acts = legal(m)
    assert "yield" not in acts
    assert "flip jester" in acts


def test_r27_flip_before_step_4_but_not_once_paying():
    tavern = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "2♠"]   # top: 2♠ 10♣ 9♣ …
    m = build(1, enemy="J♠", hands=[["10♥"]], tavern=tavern, jesters_aside=["Jester", "Jester"])
    m.apply("play 10♥")
    assert not m.is_over                                 # hand 0 < 10, but a Jester can still save
    assert m.state()["step"] == "suffer" and legal(m) == ["flip jester"]
    m.apply("flip jester")
    assert same_cards(hand(m, 0), tavern[-8:])
    assert var(m, "due") == 10
    m.apply("discard 2♠")
    assert var(m, "due") == 8
    assert "flip jester" not in legal(m)                 # paying has begun
    assert len(pile(m, "jesters_aside")) == 1


def test_r27_solo_jesters_each_once_then_lose():
    m = build(1, enemy="J♥", hands=[["2♥"]], tavern=["3♣"], jesters_aside=["Jester", "Jester"])
    m.apply("flip jester")
    assert hand(m, 0) == ["3♣"] and pile(m, "tavern") == []
    m.apply("flip jester")
    assert hand(m, 0) == [] and pile(m, "jesters_aside") == []
    # nothing in hand, no Jester left, no yield in solo: stuck → lose (R25)
    assert m.is_over and m.outcome["results"] == ["lose"]


def test_r25_stuck_solo_loses():
    m = build(1, enemy="J♥", hands=[["5♥", "10♣"]])
    m.apply("play 5♥")                                    # immune: 5 damage, suffer 10
    assert not m.is_over and var(m, "due") == 10
    m.apply("discard 10♣")                                # empty hand, next turn: stuck
    assert m.is_over and m.outcome["results"] == ["lose"]


def test_r25_solo_empty_hand_cannot_pay_loses_at_once():
    m = build(1, enemy="J♥", hands=[["10♥"]])
    m.apply("play 10♥")                                   # hand now worth 0 < 10, no Jester left
    assert m.is_over and m.outcome["results"] == ["lose"]


def test_r25_stuck_with_others_yielded_loses():
    m = build(2, enemy="J♥", hands=[["5♥"], []], vars={"shield": 10})
    m.apply("yield")                                      # attack 0: P2's turn, empty hand, P1 yielded
    assert m.is_over and m.outcome["results"] == ["lose", "lose"]


def test_r25_empty_hand_may_still_yield():
    m = build(2, enemy="J♥", hands=[["5♥"], []], vars={"shield": 10})
    m.apply("play 5♥")
    assert not m.is_over and m.current_player == 1
    assert legal(m) == ["yield"]


# ---------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------

def _walk(obj):
    yield obj
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _walk(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _walk(v)


def _random_play(m, rng, n):
    for _ in range(n):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_actions()))


def _hidden_from(state, p):
    z = state["zones"]
    hidden = list(z["tavern"]) + list(z["castle"]) + list(z["box"]) + list(z["staging"])
    for q, h in enumerate(z["hand"]):
        if q != p:
            hidden += h
    return hidden


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_view_hides_other_hands_tavern_and_castle(players, seed):
    m = GAME.new_match(players=players, seed=seed)
    _random_play(m, random.Random(seed), 4)
    s = m.state()
    names = [c["label"] for c in s["components"]]
    for p in range(players):
        view = m.view(p)
        hidden = set(_hidden_from(s, p))
        assert hidden, "nothing hidden: the test would prove nothing"
        hidden_labels = {names[c] for c in hidden if names[c] != "Jester"}
        shown_ids = set()
        for node in _walk(view):
            if isinstance(node, dict) and "id" in node:
                shown_ids.add(node["id"])
            if isinstance(node, str):
                assert not any(lab in node for lab in hidden_labels), (p, node)
        assert not shown_ids & hidden
        # the player does see their own hand
        assert set(s["zones"]["hand"][p]) <= shown_ids
        # indistinguishability: reshuffling everything hidden from p changes nothing p sees
        data = json.loads(json.dumps(s))
        order = _hidden_from(data, p)
        mixed = list(order)
        random.Random(99).shuffle(mixed)
        assert mixed != order
        it = iter(mixed)
        z = data["zones"]
        for name in ("tavern", "castle", "box", "staging"):
            z[name] = [next(it) for _ in z[name]]
        for q in range(players):
            if q != p:
                z["hand"][q] = [next(it) for _ in z["hand"][q]]
        other = rulelang.Match.from_state(GAME, data)
        assert other.view(p) == view


def test_view_shows_own_hand_and_public_piles():
    m = build(2, enemy="J♠", hands=[["8♦", "A♣"], ["2♠"]], discard=["3♥"])
    v = m.view(0)
    zones = {(z["name"], z["owner"]): z for z in v["zones"]}
    assert [c["label"] for c in zones[("hand", 0)]["cards"]] == ["8♦", "A♣"]
    assert zones[("hand", 1)]["cards"] is None and zones[("hand", 1)]["count"] == 1
    assert [c["label"] for c in zones[("discard", None)]["cards"]] == ["3♥"]
    assert [c["label"] for c in zones[("enemy", None)]["cards"]] == ["J♠"]
    assert zones[("tavern", None)]["cards"] is None


# ---------------------------------------------------------------------------
# Determinism, restore, clone
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_same_seed_same_actions_same_state(players):
    for seed in (5, 6):
        texts, states = record_playout(GAME.new_match(players=players, seed=seed), random.Random(seed))
        assert len(texts) > 3
        m = GAME.new_match(players=players, seed=seed)
        assert m.state() == states[0]
        for t, want in zip(texts, states[1:]):
            m.apply(t)
            assert m.state() == want
        assert m.log == texts
        assert json.loads(json.dumps(states[-1])) == states[-1]       # plain JSON


def test_different_seeds_differ():
    a = GAME.new_match(players=2, seed=1).state()
    b = GAME.new_match(players=2, seed=2).state()
    assert a["zones"] != b["zones"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("how", ["from_state", "clone"])
def test_restored_match_continues_identically(players, how):
    for seed in (11, 12, 13):
        m = GAME.new_match(players=players, seed=seed)
        rng = random.Random(seed)
        record_playout(m, rng, limit=3)
        if m.is_over:
            continue
        if how == "from_state":
            twin = rulelang.Match.from_state(GAME, json.loads(json.dumps(m.state())))
        else:
            twin = m.clone()
        assert twin.state() == m.state()
        while not m.is_over:
            assert legal(twin) == legal(m)
            t = rng.choice(legal(m))
            m.apply(t)
            twin.apply(t)
            assert twin.state() == m.state()
        assert twin.is_over and twin.outcome == m.outcome


@pytest.mark.parametrize("how", ["from_state", "clone"])
def test_restore_keeps_the_random_generator(how):
    # a ♥ heal shuffles the discard: the restored match must shuffle it the same way
    discard = ["A♣", "2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "2♠", "3♠"]
    m = build(2, enemy="J♠", hands=[["5♥"], ["9♥"]], discard=discard, seed=3)
    twin = rulelang.Match.from_state(GAME, m.state()) if how == "from_state" else m.clone()
    m.apply("play 5♥")
    twin.apply("play 5♥")
    assert ids_of(twin, "tavern") == ids_of(m, "tavern")
    assert twin.state() == m.state()
    # control: another generator state gives another heal, so the check above can fail
    data = build(2, enemy="J♠", hands=[["5♥"], ["9♥"]], discard=discard, seed=4).state()
    other = rulelang.Match.from_state(GAME, data)
    other.apply("play 5♥")
    assert ids_of(other, "tavern")[:5] != ids_of(m, "tavern")[:5]


def test_clone_is_independent():
    m = GAME.new_match(players=2, seed=8)
    before = m.state()
    c = m.clone()
    c.apply(c.legal_actions()[0])
    assert m.state() == before
    assert c.state() != before


# ---------------------------------------------------------------------------
# Illegal actions
# ---------------------------------------------------------------------------

def test_illegal_actions_raise_and_leave_the_state_unchanged():
    m = build(2, enemy="J♥", hands=[["6♣", "6♦", "5♣", "A♠", "Jester"], ["9♥"]],
              vars={"yielded": [False, True]})
    before = m.state()
    acts = legal(m)
    for bad in ("play 6♣ 6♦", "play A♠ Jester", "play 9♥", "play 7♣", "discard 5♣", "next turn P2",
                "yield", "flip jester", "play", "", "hello", "play 5♣ 5♣"):
        assert bad not in acts
        with pytest.raises(rulelang.IllegalAction):
            m.apply(bad)
        assert m.state() == before
        assert legal(m) == acts
    m.apply("play 5♣")                                    # and a legal one still works afterwards
    assert var(m, "damage") == 10


def test_illegal_in_suffer_step():
    m = build(2, enemy="J♥", hands=[["5♥", "A♦", "3♣"], ["9♠"]], vars={"shield": 4})
    m.apply("yield")
    before = m.state()
    for bad in ("yield", "play 5♥", "discard 9♠", "discard 5♥ A♦"):
        with pytest.raises(rulelang.IllegalAction):
            m.apply(bad)
        assert m.state() == before


def test_yield_refused_says_why_in_the_rules_words():
    game = GAME
    solo = game.new_match(1, seed=3)
    assert solo.refusal("yield") == ("in a solo game you may never yield (not when every other player "
                                     "yielded: there is none)")
    assert "yield" not in [a.text for a in solo.legal_actions()]
    duo = game.new_match(2, seed=3)
    assert "yield" in [a.text for a in duo.legal_actions()] and duo.refusal("yield") is None
    duo.apply("yield")                       # P1 yields; P2 may not: every other player yielded
    while duo.current_player != 1:
        duo.apply(duo.legal_actions()[0])
    assert duo.refusal("yield") == "every other player yielded on their last turn: you must play a card"


def test_r27_a_solo_jesters_text_says_it_is_flipped_not_played():
    """`look jester` in a solo game read the multi-player Jester (played, cancels immunity, its
    player chooses who plays next): R27's Jester is never played."""
    solo = GAME.new_match(1, seed=3)
    aside = solo.state()["zones"]["jesters_aside"]
    text = solo.rules_text(aside[0], 0)
    assert text.startswith("Jester (solo): never played") and "does not cancel any immunity" in text
    four = GAME.new_match(4, seed=3)
    jester = next(c for c, label in enumerate(four.labels) if label == "Jester")
    assert four.rules_text(jester, 0).startswith("Jester (1 in the tavern with 3 players, 2 with 4): attack 0, "
                                                 "played alone. It cancels")


def test_r6_r23_the_jesters_text_is_true_for_each_player_count():
    """The rulebook and `rules cards` with 3 players told the solo Jester only ("never played, never
    in a hand"): with 3 or 4 players it is played (R23), with 2 there is none (R6)."""
    def text(players):
        m = GAME.new_match(players, seed=3)
        return m.rules_text(next(c for c, label in enumerate(m.labels) if label == "Jester"), 0)
    assert text(2).startswith("Jester: not used with 2 players.")
    for players in (3, 4):
        assert "attack 0, played alone" in text(players)
        assert "its player chooses who plays next, themselves included" in text(players)
        assert "never played" not in text(players)
