"""Regicide: digest rules (shared/rules/regicide.md) no other test checks directly — R16/R22 (a court
card in hand pays its attack value when suffering damage), R21 (an exact kill of a Queen) and R20
(hearts heal against J♥ once a Jester has cancelled its immunity).

Every test builds its exact position through the public API (`positions.build`: `state()` edited, then
`Match.from_state`), plays the actions as texts and checks the exact result.
"""
from __future__ import annotations

from collections import Counter

from positions import build, hand, legal, pile, shown, var


def test_r16_r22_a_jack_in_hand_pays_10_when_suffering_damage():
    m = build(2, enemy="J♥", hands=[["2♥", "J♦"], ["9♠"]])
    m.apply("play 2♥")                                   # J♥ is immune to hearts: 2 damage, no heal
    assert var(m, "damage") == 2
    assert m.state()["step"] == "suffer" and m.current_player == 0
    assert var(m, "due") == 10                           # the Jack's attack, no shield
    assert legal(m) == ["discard J♦"]                    # the Jack alone covers 10 (J = 10, R22)
    m.apply("discard J♦")
    assert not m.is_over
    assert m.current_player == 1 and m.state()["step"] == "play"
    assert var(m, "due") == 0
    assert hand(m, 0) == []
    assert pile(m, "discard") == ["J♦"]                  # played cards stay on the table (R21)
    assert pile(m, "table") == ["2♥"]


def test_r16_r22_a_queen_in_hand_pays_15_when_suffering_damage():
    m = build(2, enemy="Q♥", castle=["K♠"], hands=[["2♥", "Q♦"], ["9♠"]])
    m.apply("play 2♥")
    assert not m.is_over                                 # a hand worth 15 (Q = 15) is enough: not lost
    assert m.state()["step"] == "suffer" and m.current_player == 0
    assert var(m, "due") == 15
    assert legal(m) == ["discard Q♦"]
    m.apply("discard Q♦")
    assert not m.is_over
    assert m.current_player == 1 and m.state()["step"] == "play"
    assert var(m, "due") == 0
    assert pile(m, "discard") == ["Q♦"]
    assert pile(m, "table") == ["2♥"]


def test_r21_an_exact_kill_of_a_queen_puts_it_face_down_on_top_of_the_tavern():
    # 10 damage already; 10♣ against Q♠ deals 20 (clubs): 30 = the Queen's health exactly
    m = build(2, enemy="Q♠", castle=["K♠"], hands=[["10♣", "2♥"], ["9♠"]], vars={"damage": 10})
    tavern_before = pile(m, "tavern")
    queen = m.state()["zones"]["enemy"][0]
    m.apply("play 10♣")
    assert pile(m, "tavern") == tavern_before + ["Q♠"]       # on top of the tavern deck
    assert pile(m, "discard") == ["10♣"]                     # the table goes to the discard, not the Queen
    assert pile(m, "table") == []
    assert pile(m, "enemy") == ["K♠"]                        # the next castle card
    assert var(m, "damage") == 0
    assert m.current_player == 0 and m.state()["step"] == "play"   # same player, step 4 skipped
    assert hand(m, 0) == ["2♥"]
    for p in range(2):                                       # face down: nobody sees it
        seen = [c["id"] for z in m.view(p)["zones"] if z["cards"] for c in z["cards"]]
        assert queen not in seen


def test_r20_hearts_heal_against_the_jack_of_hearts_once_a_jester_cancelled_its_immunity():
    discard = ["2♣", "3♣", "4♣", "5♣", "6♣"]
    m = build(2, enemy="J♥", hands=[["Jester", "2♦"], ["4♥", "3♠"]], discard=discard)
    m.apply("play Jester")
    assert var(m, "immunity_cancelled") is True
    m.apply("next turn P2")
    assert m.current_player == 1
    tavern_before = pile(m, "tavern")
    m.apply("play 4♥")
    tavern = pile(m, "tavern")
    healed = tavern[:len(tavern) - len(tavern_before)]       # hearts: under the tavern deck
    assert len(tavern) == len(tavern_before) + 4
    assert tavern[len(healed):] == tavern_before
    assert len(pile(m, "discard")) == 1
    assert Counter(healed + pile(m, "discard")) == Counter(discard)
    assert var(m, "damage") == 4
    assert pile(m, "table") == ["Jester", "4♥"]
    assert m.state()["step"] == "suffer" and var(m, "due") == 10
    assert shown(m, "Enemy attack") == 10
