"""Equipment cards (games/dozen_war/equipment.rules): boosts carry their stars into the attack, defences
answer only attacks with no more stars; attack cards with targets of their own."""
from __future__ import annotations

import pytest

from dw_helpers import CLASSES, Position, hp, legal, play, units_at, var, where


def test_war_axe_makes_a_two_star_attack_a_wooden_shield_cannot_answer():
    p = (Position(2).soldier(0, "infantry", "e5").soldier(1, "infantry", "f5").hand(0, "War Axe")
         .hand(1, "Wooden Shield", "Iron Shield").turn(0))
    target = p.unit_at("f5")
    m = p.match()
    play(m, "equip War Axe", "attack e5 infantry (+1 to its next attack with 2 stars) f5 infantry")
    assert legal(m) == ["Iron Shield", "pass"]               # 2 stars: the 1-star shield may not answer
    play(m, "pass")
    assert units_at(m, "f5") == [] and hp(m, target) <= 0


def test_sharp_sword_plus_one_and_a_wooden_shield_takes_one_off():
    p = (Position(2).soldier(0, "infantry", "e5").soldier(1, "infantry", "f5").hand(0, "Sharp Sword")
         .hand(1, "Wooden Shield").turn(0))
    target = p.unit_at("f5")
    m = p.match()
    play(m, "equip Sharp Sword", "attack e5 infantry (+1 to its next attack with 1 star) f5 infantry", "Wooden Shield")
    assert hp(m, target) == 1                                # 2 - 1
    assert len(m.state()["zones"]["hand"][1]) == 0


def test_a_wooden_shield_that_takes_all_the_damage_off_says_so():
    """A browser trial: an attack cut to 0 damage was followed by no line at all."""
    p = (Position(2).soldier(0, "infantry", "e5").soldier(1, "infantry", "f5").hand(1, "Wooden Shield").turn(0))
    target = p.unit_at("f5")
    m = p.match()
    play(m, "attack e5 infantry f5 infantry", "Wooden Shield")
    assert hp(m, target) == 2
    assert m.messages_for(0)[-1] == "the attack does no damage (1 taken off)"


def test_fire_arrow_and_bomb_and_horseshoe_and_banner():
    m = (Position(2).soldier(0, "archer", "b5").soldier(1, "infantry", "e5", hp=1).hand(0, "Fire Arrow")
         .turn(0).match())
    play(m, "equip Fire Arrow")                              # 3 cells east of the archer
    assert units_at(m, "e5") == []
    m = (Position(2).soldier(0, "cavalry", "b5").soldier(1, "infantry", "c5").hand(0, "Bomb").turn(0).match())
    play(m, "equip Bomb")
    assert units_at(m, "c5") == []
    m = Position(2).soldier(0, "infantry", "b5").hand(0, "Horseshoe").turn(0).match()
    play(m, "move b5 infantry c5")
    assert not any(a.startswith("move c5") for a in legal(m))
    play(m, "equip Horseshoe")
    assert any(a.startswith("move c5 infantry") for a in legal(m))
    m = Position(2).hand(0, "War Banner").turn(0).match()
    play(m, "equip War Banner", "archer castle")
    assert units_at(m, "h11") == ["archer"]


def test_fire_arrow_and_bomb_ask_which_of_your_units_attacks():
    """A rules audit: "one of your archers" / "next to one of your units" — the player picks which
    (it takes any strike back); the engine took the first in army order, a general."""
    p = (Position(2).general(0, "Moon Bow", "c5", hp=1).soldier(0, "archer", "d5").soldier(1, "infantry", "f5")
         .hand(0, "Fire Arrow").hand(1, "Spiked Armour").turn(0))
    bow, archer = p.unit_at("c5"), p.unit_at("d5")
    m = p.match()
    play(m, "equip Fire Arrow")
    assert m.question["chooser"] == 0 and m.question["prompt"] == "Fire Arrow: which of your archers shoots P2 infantry at f5?"
    assert sorted(legal(m)) == ["Moon Bow at c5 (1 health left)", "archer at d5"]
    play(m, "archer at d5", "Spiked Armour")
    assert hp(m, bow) == 1 and where(m, bow) == "c5"         # the archer took the strike back
    assert units_at(m, "d5") == [] and where(m, archer) is None
    p = (Position(2).general(0, "Moon Bow", "e6", hp=1).soldier(0, "infantry", "e4").soldier(1, "infantry", "e5")
         .hand(0, "Bomb").turn(0))
    bow = p.unit_at("e6")
    m = p.match()
    play(m, "equip Bomb")
    assert sorted(legal(m)) == ["Moon Bow at e6 (1 health left)", "infantry at e4"]
    play(m, "infantry at e4")
    assert units_at(m, "e5") == [] and hp(m, bow) == 1
    assert "P1: infantry at e4 attacks P2's infantry at e5 (3 stars)" in m.messages_for(1)


def test_dodge_guards_generals_smoke_bomb_soldiers_spiked_armour_strikes_back():
    p = (Position(2).general(0, "Gold Maker", "e5").soldier(0, "archer", "e4").soldier(1, "infantry", "f5")
         .soldier(1, "infantry", "f4").hand(0, "Dodge", "Smoke Bomb", "Spiked Armour").turn(1))
    attacker = p.unit_at("f4")
    m = p.match()
    play(m, "attack f5 infantry e5 Gold Maker")
    assert sorted(legal(m)) == ["Dodge", "Golden Shield", "Spiked Armour", "pass"]
    m.apply("Dodge")                     # stopped: the window closes (`until atk_stop`), nobody asked again
    assert m.question is None and "the attack is stopped" in m.messages_for(1)
    play(m, "attack f4 infantry e4 archer")
    assert sorted(legal(m)) == ["Golden Shield", "Smoke Bomb", "Spiked Armour", "pass"]
    play(m, "Spiked Armour", "pass")
    if m.question:                                           # P2's f5 infantry may take the blow back
        play(m, "pass")
    assert units_at(m, "e4") == [] and hp(m, attacker) == 1


def test_a_soldier_raised_after_one_fell_this_turn_may_move_and_attack():
    """A first-hour trial: the soldier War Banner raises is the one that fell earlier in the turn
    (back on top of the supply), and it kept that turn's marks: it could not move, attack or warp."""
    p = (Position(2).soldier(0, "cavalry", "f8").soldier(1, "infantry", "f7").hand(0, "War Banner")
         .hand(1, "Spiked Armour").turn(0))
    cavalry = p.unit_at("f8")
    m = p.match()
    play(m, "attack f8 cavalry f7 infantry", "Spiked Armour")
    while m.question:                                        # (P2's other answers: none)
        play(m, "pass")
    assert where(m, cavalry) is None                         # struck back: it fell
    play(m, "equip War Banner", "cavalry castle")
    assert units_at(m, "f11") == ["cavalry"]
    assert any(a.startswith("move f11 cavalry ") for a in legal(m))


def test_horseshoe_lets_a_general_move_again_after_it_handed_over_map_pieces():
    # D20 forbids the giver of map pieces only to attack or use a skill; Horseshoe asks "moved this
    # turn and has not attacked" (an audit found it refused after a hand-over)
    p = (Position(2).general(0, "Iron Warden", "d4", pieces=1).general(0, "Gold Maker", "f4")
         .hand(0, "Horseshoe").turn(0))
    warden = p.unit_at("d4")
    m = p.match()
    play(m, "move d4 Iron Warden e4")
    play(m, "hand over Iron Warden Gold Maker")
    assert "equip Horseshoe" in legal(m)
    play(m, "equip Horseshoe")
    assert "move e4 Iron Warden d4" in legal(m) and where(m, warden) == "e4"


def test_an_allys_strike_back_that_kills_gives_the_skull_coin_and_map_piece_to_that_ally():
    # D21, D13: the killer's owner takes the skull, the coin and the map pieces; P3 (P1's ally)
    # strikes back with Ash Hound's Bite Back and kills P2's Gold Maker (before: all went to P1)
    p = (Position(4, options={"alliance": True}).general(1, "Gold Maker", "g5", hp=1, pieces=1)
         .soldier(0, "archer", "f5").general(2, "Ash Hound", "e4").general(0, "Iron Warden", "a1")
         .general(2, "Moon Bow", "k3").turn(1))
    hound, bow, warden = p.unit_at("e4"), p.unit_at("k3"), p.unit_at("a1")
    m = p.match()
    play(m, "attack g5 Gold Maker f5 archer")               # (P1, with no defence, passes)
    play(m, "Bite Back")                                     # P3's strike back: 1, Gold Maker has 1
    while m.question:
        play(m, legal(m)[0])
    said = m.messages_for(0)
    assert "P2's Gold Maker at g5 dies" in said
    # (and the blow that kills is said too: a terminal trial never read a killing attack's damage)
    assert said[said.index("P2's Gold Maker at g5 dies") - 1] == "P2's Gold Maker at g5 takes 1 damage"
    assert var(m, "skulls") == [0, 0, 1, 0] and var(m, "coins")[0] == 0 and var(m, "coins")[2] >= 1
    pcs = var(m, "pcs")
    assert pcs[hound] + pcs[bow] == 1 and pcs[warden] == 0


def test_a_bonus_waiting_for_the_next_attack_is_shown_with_its_unit():
    """A terminal trial: `equip war axe` then `equip sharp sword` on a unit: the +1s waiting for its
    next attack were in no status line (only the log said them, once)."""
    p = (Position(2).soldier(0, "infantry", "e5").soldier(1, "infantry", "f5").hand(0, "Sharp Sword")
         .general(0, "Iron Warden", "a1").turn(0))
    m = p.match()
    play(m, "equip Sharp Sword", "infantry at e5")
    units = next(v["value"] for v in m.view(1)["values"] if str(v["name"]).startswith("Units"))
    line = next(x for x in units if x.startswith("e5"))
    assert line.endswith("1 infantry (1 with a bonus to the next attack)"), line
    assert not any("bonus" in x or "next attack" in x for x in units if not x.startswith("e5"))
    play(m, "attack e5 infantry (+1 to its next attack with 1 star) f5 infantry")    # (spent: an audit saw it promised on)
    while m.question:
        m.apply(m.legal_actions()[-1])
    units = next(v["value"] for v in m.view(1)["values"] if str(v["name"]).startswith("Units"))
    assert not any("bonus" in x for x in units), units
    m = p.match()
    play(m, "equip Sharp Sword", "Iron Warden at a1")
    units = next(v["value"] for v in m.view(1)["values"] if str(v["name"]).startswith("Units"))
    line = next(x for x in units if x.startswith("a1"))
    assert "(next attack +1" in line, line


def test_two_strike_backs_are_two_hits_an_infantry_takes_one_at_a_time():
    """A rules audit (D8: an infantry "may take one hit"; each card and skill strikes back on its
    own): Spiked Armour and Ash Hound's Bite Back against one attack were summed into one blow of
    2, and one block (1 health) cancelled both."""
    p = (Position(2).general(0, "Iron Warden", "e5").soldier(0, "infantry", "d5")
         .soldier(1, "archer", "f5").general(1, "Ash Hound", "g5").hand(1, "Spiked Armour").turn(0))
    warden, guard = p.unit_at("e5"), p.unit_at("d5")
    m = p.match()
    play(m, "attack e5 Iron Warden f5 archer", "Spiked Armour", "Bite Back")
    while m.question and m.question.get("kind") == "window":
        play(m, "pass")
    asked = 0
    while m.question:                                        # each blow: may the infantry take it?
        assert m.question["prompt"] == "Let an infantry take the blow struck back at P1 Iron Warden at e5?"
        asked += 1
        play(m, "infantry at d5" if asked == 1 else "pass")
    assert asked == 2 and hp(m, guard) == 1 and hp(m, warden) == 2


def test_nothing_is_offered_or_paid_for_a_soldier_that_cannot_come():
    """A rules audit: with all 14 infantry on the map War Banner and Call to Arms were offered and
    spent for nothing; Mercenaries (4-6) took 2 coins for a cavalry and an archer with room for one."""
    p = (Position(2).soldier(0, "infantry", "b7", n=5).soldier(0, "infantry", "b8", n=5)
         .soldier(0, "infantry", "a7", n=4).castle("North cavalry castle", 0).castle("North archer castle", 0)
         .hand(0, "War Banner").turn(0))
    m = p.match()
    assert "equip War Banner" not in legal(m)
    m = (Position(2).soldier(0, "infantry", "b7", n=4).castle("North cavalry castle", 0)
         .castle("North archer castle", 0).hand(0, "War Banner").turn(0).match())
    assert "equip War Banner" in legal(m)
    # Mercenaries 4-6 with one castle and room for one soldier after the income: said, and only the cavalry comes
    p = Position(2).coins(2, 0).castle("North infantry castle", 0).castle("North archer castle", 0)
    p.soldier(0, "cavalry", "f11", n=3)
    m = p.events_top("Mercenaries").rolls((6, 6), (6, 6)).turn(1).match()
    play(m, "end turn")
    assert m.question["chooser"] == 0 and m.question["prompt"] == (
        "Mercenaries: pay 2 coins for a cavalry and an archer? (only the cavalry can come now: "
        "your castles have room for one soldier)")


@pytest.mark.parametrize("stale", [(1, 0), (1, 2), (0, 3)])
def test_a_raised_soldier_keeps_no_boost_of_an_earlier_life(stale):
    """A differential run: a soldier raised from the barracks still held the +1 (and stars) of an
    attack boost from an earlier life — unread by the rules, but its moves were listed twice beside
    an alike soldier's (`move h1 archer i1`, `move h1 archer i1 (2)`)."""
    probe = Position(2).hand(0, "War Banner").turn(0)
    first = probe.st["zones"]["barracks"][CLASSES.index("archer")][-1]
    m = probe.match()
    play(m, "equip War Banner", "archer castle")
    castle = where(m, first)                                 # (P1's archer castle)
    p = Position(2).soldier(0, "archer", castle).hand(0, "War Banner").turn(0)
    raised = p.st["zones"]["barracks"][CLASSES.index("archer")][-1]
    p.st["vars"]["boost_n"][raised], p.st["vars"]["boost_s"][raised] = stale
    m = p.match()
    play(m, "equip War Banner", "archer castle")
    assert where(m, raised) == castle and units_at(m, castle) == ["archer", "archer"]
    moves = [a for a in legal(m) if a.startswith(f"move {castle} archer ")]
    assert moves and not any(a.endswith(")") for a in moves), moves


def test_a_soldiers_next_attack_says_its_stars():
    """A differential run: two infantry on d1, one boosted by War Axe (2 stars), one by Sharp Sword
    (1 star), were both `infantry (+1 to its next attack)`, told apart only by `(2)`: the stars
    decide which defences may answer the attack (D24)."""
    m = (Position(2).soldier(0, "infantry", "d1", n=2).soldier(1, "infantry", "d2")
         .hand(0, "War Axe", "Sharp Sword").turn(0).match())
    for card in ("War Axe", "Sharp Sword"):
        play(m, f"equip {card}")
        while m.question:
            options = m.question["options"]
            fresh = [o for o in options if "next attack" not in o]
            play(m, (fresh or options)[0])
    attacks = sorted(a for a in legal(m) if a.startswith("attack d1 infantry"))
    assert any("with 2 stars" in a for a in attacks) and any("with 1 star" in a for a in attacks), attacks
    assert not any(a.endswith("(2)") for a in attacks), attacks
