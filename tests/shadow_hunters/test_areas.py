"""Shadow Hunters: moving, the six areas, attacks, decks, death, turn order (rules H4–H8 of the
digest, and the "Turn and board", "Areas" and "Rulings" parts of the card reference).

Every position is built with sh_helpers.Position: the areas lie in the order
(cabin, gate), (church, cemetery), (woods, altar) — three pairs — unless a test lays them out.
"""
from __future__ import annotations

import pytest

from sh_helpers import Position, labels, legal, play, var, zones

# the areas' texts (what a "Which area do you move to?" choice offers and a move message names)
AREA = {"cabin": "Hermit's Cabin (2-3)", "gate": "Underworld Gate (4-5)", "church": "Church (6)",
        "cemetery": "Cemetery (8)", "woods": "Weird Woods (9)", "altar": "Erstwhile Altar (10)"}
ALL_AREAS = [AREA[a] for a in ("cabin", "gate", "church", "cemetery", "woods", "altar")]

# four characters of whom one death never ends the game: two Shadows, two Hunters
SH = ["Vampire", "Emi", "George", "Werewolf"]


def new_messages(m, before: int, p: int = 0) -> list[str]:
    return m.messages_for(p)[before:]


def equipment_of(m, p: int) -> list[str]:
    return sorted(labels(m, zones(m)["equipment"][p]))


# ---- H4: moving ------------------------------------------------------------------------------------

@pytest.mark.parametrize("d6,d4,area", [
    (1, 1, "cabin"), (2, 1, "cabin"), (1, 3, "gate"), (4, 1, "gate"), (2, 4, "church"),
    (4, 4, "cemetery"), (6, 3, "woods"), (6, 4, "altar"),
])
def test_the_roll_moves_to_the_area_with_that_number(d6, d4, area):
    m = Position(SH).turn(0, "move").rolls((6, d6), (4, d4)).match()
    assert legal(m) == ["roll", "reveal"]
    play(m, "roll")
    assert m.question is None                       # no choice: the roll names one area
    assert var(m, "at") == [area, None, None, None]
    assert m.messages_for(0) == [f"P1 rolls {d6} + {d4} = {d6 + d4}", f"P1 moves to {AREA[area]}"]
    assert m.state()["step"] == "area"


def test_a_hidden_player_begins_then_must_move():
    m = Position(SH).turn(0, "start").match()
    assert legal(m) == ["begin", "reveal"]          # moving is mandatory: no skip, no pass
    play(m, "begin")
    assert legal(m) == ["roll", "reveal"]


def test_a_revealed_player_goes_straight_to_moving():
    m = Position(SH).reveal(0).turn(3, "end").match()
    play(m, "end turn")
    assert m.state()["current"] == 0 and m.state()["step"] == "move"
    assert legal(m) == ["roll"]                      # revealed: no `reveal`, nothing to begin


def test_a_seven_lets_the_mover_choose_any_area_but_the_current_one():
    m = Position(SH).at("church", "gate", "woods", "woods").turn(0, "move").rolls((6, 4), (4, 3)).match()
    play(m, "roll")
    q = m.question
    assert q["chooser"] == 0 and q["prompt"] == "Which area do you move to?"
    assert q["options"] == [AREA[a] for a in ("cabin", "gate", "cemetery", "woods", "altar")]
    assert legal(m) == q["options"]
    play(m, AREA["cemetery"])
    assert var(m, "at") == ["cemetery", "gate", "woods", "woods"]
    assert m.messages_for(0) == ["P1 rolls 4 + 3 = 7", "P1 moves to Cemetery (8)"]


def test_a_seven_before_the_first_move_offers_all_six_areas():
    m = Position(SH).turn(0, "move").rolls((6, 5), (4, 2)).match()
    play(m, "roll")
    assert legal(m) == ALL_AREAS
    play(m, AREA["altar"])
    assert var(m, "at")[0] == "altar"


def test_a_roll_naming_the_current_area_is_rolled_again():
    # at the gate: 4 and then 5 both name the gate; the third roll, 9, moves
    m = Position(SH).at("gate", None, None, None).turn(0, "move").rolls(
        (6, 2), (4, 2), (6, 1), (4, 4), (6, 6), (4, 3)).match()
    play(m, "roll")
    assert var(m, "at")[0] == "woods"
    assert m.messages_for(0) == ["P1 rolls 2 + 2 = 4: the area they are on, so they roll again", "P1 rolls 1 + 4 = 5: the area they are on, so they roll again", "P1 rolls 6 + 3 = 9",
                                 "P1 moves to Weird Woods (9)"]


def test_a_seven_is_not_rolled_again_even_when_it_could_name_anything():
    m = Position(SH).at("cabin", None, None, None).turn(0, "move").rolls((6, 6), (4, 1)).match()
    play(m, "roll")
    assert legal(m) == [a for a in ALL_AREAS if a != AREA["cabin"]]


def test_mystic_compass_rolls_twice_and_the_mover_picks_either():
    m = (Position(SH).at("church", None, None, None).equipment(0, "Mystic Compass").turn(0, "move")
         .rolls((6, 1), (4, 2), (6, 5), (4, 4)).match())
    play(m, "roll")
    assert m.messages_for(0) == ["P1 rolls 1 + 2 = 3", "P1 rolls a second time (Mystic Compass: either roll may be used)",
                                 "P1 rolls 5 + 4 = 9"]
    assert m.question["prompt"] == "Which area do you move to?"
    assert legal(m) == [AREA["cabin"], AREA["woods"]]
    play(m, AREA["woods"])
    assert var(m, "at")[0] == "woods"


def test_mystic_compass_each_roll_rerolls_on_the_current_area():
    m = (Position(SH).at("church", None, None, None).equipment(0, "Mystic Compass").turn(0, "move")
         .rolls((6, 5), (4, 1), (6, 1), (4, 1), (6, 6), (4, 4)).match())
    play(m, "roll")
    assert m.messages_for(0) == ["P1 rolls 5 + 1 = 6: the area they are on, so they roll again", "P1 rolls 1 + 1 = 2",
                                 "P1 rolls a second time (Mystic Compass: either roll may be used)", "P1 rolls 6 + 4 = 10"]
    assert legal(m) == [AREA["cabin"], AREA["altar"]]


def test_mystic_compass_with_a_seven_on_either_roll_allows_any_other_area():
    m = (Position(SH).at("church", None, None, None).equipment(0, "Mystic Compass").turn(0, "move")
         .rolls((6, 1), (4, 1), (6, 3), (4, 4)).match())
    play(m, "roll")
    assert legal(m) == [a for a in ALL_AREAS if a != AREA["church"]]


def test_mystic_compass_with_the_same_area_twice_moves_without_a_question():
    m = (Position(SH).at("church", None, None, None).equipment(0, "Mystic Compass").turn(0, "move")
         .rolls((6, 6), (4, 3), (6, 5), (4, 4)).match())
    play(m, "roll")
    assert m.question is None
    assert var(m, "at")[0] == "woods"
    assert m.state()["step"] == "area"


def test_without_the_compass_only_one_roll_is_made():
    m = Position(SH).at("church", None, None, None).turn(0, "move").rolls((6, 1), (4, 2), (6, 5), (4, 4)).match()
    play(m, "roll")
    assert m.messages_for(0) == ["P1 rolls 1 + 2 = 3", "P1 moves to Hermit's Cabin (2-3)"]


# ---- H5: the six area actions -------------------------------------------------------------------------

def test_each_area_offers_its_own_action_and_skip():
    expected = {
        "cabin": ["draw a hermit card", "skip", "reveal"],
        "gate": ["draw a white card", "draw a black card", "draw a hermit card", "skip", "reveal"],
        "church": ["draw a white card", "skip", "reveal"],
        "cemetery": ["draw a black card", "skip", "reveal"],
        "woods": ["wound P1 (2 damage)", "wound P2 (2 damage)", "wound P3 (2 damage)", "wound P4 (2 damage)",
                  "heal P1 (1 damage)", "heal P2 (1 damage)", "heal P3 (1 damage)", "heal P4 (1 damage)", "skip", "reveal"],
        "altar": ["take P2 Talisman", "skip", "reveal"],
    }
    for area, actions in expected.items():
        m = Position(SH).at(area, "gate", "woods", "woods").equipment(1, "Talisman").turn(0, "area").match()
        assert legal(m) == actions, area


def test_skip_goes_to_the_attack():
    m = Position(SH).at("church", "cemetery", "woods", "woods").turn(0, "area").match()
    play(m, "skip")
    assert m.state()["step"] == "fight"
    assert legal(m) == ["attack P2", "pass", "reveal"]


def test_hermits_cabin_draws_a_hermit_card_to_give_to_another_living_player():
    m = (Position(SH).at("cabin", "gate", "woods", "woods").dead(2).deck("hermit", "Hermit's Slap")
         .turn(0, "area").match())
    play(m, "draw a hermit card")
    assert m.question["chooser"] == 0 and m.question["prompt"] == "Who do you give the hermit card to?"
    assert legal(m) == ["P2", "P4"]                  # P3 is dead, P1 is the drawer


def test_underworld_gate_draws_from_the_deck_of_ones_choice():
    pos = lambda: (Position(SH).at("gate", "cabin", "woods", "woods").deck("white", "Talisman")
                   .deck("black", "Chainsaw").deck("hermit", "Hermit's Slap").turn(0, "area"))
    m = pos().match()
    play(m, "draw a white card")
    assert equipment_of(m, 0) == ["Talisman"]
    assert m.state()["step"] == "fight"
    m = pos().match()
    play(m, "draw a black card")
    assert equipment_of(m, 0) == ["Chainsaw"]
    assert m.messages_for(1) == ["P1 draws Chainsaw", "P1 takes Chainsaw"]
    m = pos().match()
    play(m, "draw a hermit card")
    assert m.question["prompt"] == "Who do you give the hermit card to?"
    assert m.messages_for(0) == ["you draw Hermit's Slap", "P1 draws a hermit card"]
    assert m.messages_for(1) == ["P1 draws a hermit card"]


def test_church_draws_a_white_card():
    m = Position(SH).at("church", "cabin", "woods", "woods").deck("white", "Holy Robe").turn(0, "area").match()
    before = len(zones(m)["white_deck"])
    play(m, "draw a white card")
    assert equipment_of(m, 0) == ["Holy Robe"]
    assert len(zones(m)["white_deck"]) == before - 1
    assert m.messages_for(2) == ["P1 draws Holy Robe", "P1 takes Holy Robe"]


def test_cemetery_draws_a_black_card():
    m = (Position(SH).at("cemetery", "cabin", "woods", "woods").deck("black", "Butcher Knife")
         .turn(0, "area").match())
    play(m, "draw a black card")
    assert equipment_of(m, 0) == ["Butcher Knife"]


def test_a_single_use_card_resolves_at_once_and_goes_to_its_discard_pile():
    m = (Position(SH).at("church", "cabin", "woods", "woods").damage(0, 5).deck("white", "Holy Water of Healing")
         .turn(0, "area").match())
    play(m, "draw a white card")
    assert var(m, "damage")[0] == 3
    assert labels(m, zones(m)["white_discard"]) == ["Holy Water of Healing"]
    assert zones(m)["resolving"] == [] and zones(m)["equipment"][0] == []


def test_weird_woods_deals_2_damage_to_any_player():
    m = Position(SH).at("woods", "cabin", "woods", "woods").damage(2, 1).turn(0, "area").match()
    play(m, "wound P3 (2 damage)")
    assert var(m, "damage") == [0, 0, 3, 0]
    assert m.messages_for(1) == ["P3 takes 2 damage (Weird Woods)"]
    assert m.state()["step"] == "fight"


def test_weird_woods_may_damage_oneself():
    m = Position(SH).at("woods", "cabin", "woods", "woods").turn(0, "area").match()
    play(m, "wound P1 (2 damage)")
    assert var(m, "damage") == [2, 0, 0, 0]


def test_weird_woods_heals_1_damage_of_any_player():
    m = Position(SH).at("woods", "cabin", "woods", "woods").damage(1, 4).damage(0, 2).turn(0, "area").match()
    play(m, "heal P2 (1 damage)")
    assert var(m, "damage") == [2, 3, 0, 0]
    assert m.messages_for(3) == ["P2 heals 1"]
    m = Position(SH).at("woods", "cabin", "woods", "woods").damage(0, 2).turn(0, "area").match()
    play(m, "heal P1 (1 damage)")
    assert var(m, "damage") == [1, 0, 0, 0]


def test_weird_woods_healing_an_undamaged_player_does_nothing():
    m = Position(SH).at("woods", "cabin", "woods", "woods").turn(0, "area").match()
    play(m, "heal P2 (1 damage)")
    assert var(m, "damage") == [0, 0, 0, 0]
    assert m.messages_for(0) == ["P2 has no damage to heal"]     # (a browser trial: nothing said whom)


def test_weird_woods_offers_only_living_players():
    m = Position(SH).at("woods", "cabin", "woods", "woods").dead(1).turn(0, "area").match()
    assert legal(m) == ["wound P1 (2 damage)", "wound P3 (2 damage)", "wound P4 (2 damage)", "heal P1 (1 damage)", "heal P3 (1 damage)", "heal P4 (1 damage)", "skip", "reveal"]


def test_weird_woods_can_kill_oneself_and_the_turn_passes():
    m = Position(SH).at("woods", "cabin", "woods", "woods").damage(0, 12).turn(0, "area").match()
    play(m, "wound P1 (2 damage)")
    assert var(m, "dead") == [True, False, False, False]
    assert m.state()["current"] == 1 and m.state()["step"] == "start"


def test_fortune_brooch_protects_from_weird_woods_damage_but_not_its_healing():
    m = (Position(SH).at("woods", "cabin", "woods", "woods").equipment(1, "Fortune Brooch").damage(1, 3)
         .turn(0, "area").match())
    play(m, "wound P2 (2 damage)")
    assert var(m, "damage") == [0, 3, 0, 0]
    m = (Position(SH).at("woods", "cabin", "woods", "woods").equipment(1, "Fortune Brooch").damage(1, 3)
         .turn(0, "area").match())
    play(m, "heal P2 (1 damage)")
    assert var(m, "damage") == [0, 2, 0, 0]
    # one's own brooch protects oneself too
    m = Position(SH).at("woods", "cabin", "woods", "woods").equipment(0, "Fortune Brooch").turn(0, "area").match()
    play(m, "wound P1 (2 damage)")
    assert var(m, "damage") == [0, 0, 0, 0]


def test_guardian_angel_does_not_protect_from_weird_woods():
    m = Position(SH).at("woods", "cabin", "woods", "woods").var("angel", 1, True).turn(0, "area").match()
    play(m, "wound P2 (2 damage)")
    assert var(m, "damage") == [0, 2, 0, 0]


def test_erstwhile_altar_takes_one_equipment_card_from_any_other_player():
    m = (Position(SH).at("altar", "cabin", "woods", "woods").equipment(0, "Talisman")
         .equipment(1, "Holy Robe", "Chainsaw").equipment(3, "Handgun").turn(0, "area").match())
    assert legal(m) == ["take P2 Holy Robe", "take P2 Chainsaw", "take P4 Handgun", "skip", "reveal"]
    play(m, "take P2 Chainsaw")
    assert equipment_of(m, 0) == ["Chainsaw", "Talisman"]
    assert equipment_of(m, 1) == ["Holy Robe"]
    assert m.messages_for(2) == ["P1 takes Chainsaw from P2"]
    assert m.state()["step"] == "fight"


def test_erstwhile_altar_with_no_equipment_anywhere_offers_nothing():
    m = Position(SH).at("altar", "cabin", "woods", "woods").turn(0, "area").match()
    assert legal(m) == ["skip", "reveal"]
    # one's own equipment cannot be taken either
    m = Position(SH).at("altar", "cabin", "woods", "woods").equipment(0, "Talisman").turn(0, "area").match()
    assert legal(m) == ["skip", "reveal"]


# ---- H7: attacks ------------------------------------------------------------------------------------

def test_attack_range_is_ones_own_pair():
    # P1 in the church: the church and the cemetery are a pair; the woods and the cabin are not
    m = Position(SH).at("church", "cemetery", "woods", "church").turn(0, "fight").match()
    assert legal(m) == ["attack P2", "attack P4", "pass", "reveal"]
    m = Position(SH).at("woods", "altar", "woods", "gate").turn(0, "fight").match()
    assert legal(m) == ["attack P2", "attack P3", "pass", "reveal"]


def test_attack_range_follows_the_layout():
    m = (Position(SH).layout("church", "woods", "cabin", "gate", "cemetery", "altar")
         .at("church", "woods", "cemetery", "cabin").turn(0, "fight").match())
    assert legal(m) == ["attack P2", "pass", "reveal"]
    m = (Position(SH).layout("church", "woods", "cabin", "gate", "cemetery", "altar")
         .at("cemetery", "woods", "altar", "cabin").turn(0, "fight").match())
    assert legal(m) == ["attack P3", "pass", "reveal"]


def test_nobody_in_range_only_pass():
    m = Position(SH).at("church", "woods", "gate", "altar").turn(0, "fight").match()
    assert legal(m) == ["pass", "reveal"]
    # (a first hour: `attack p4` sent to `help attack`, which said only "not legal now")
    assert m.refusal("attack P4") == "nobody is in your attack range"


def test_dead_and_off_board_players_are_not_targets():
    m = Position(SH).at("church", "church", "cemetery", None).dead(1).turn(0, "fight").match()
    assert legal(m) == ["attack P3", "pass", "reveal"]


def test_handgun_reverses_the_range():
    m = (Position(SH).at("church", "cemetery", "woods", "gate").equipment(0, "Handgun")
         .turn(0, "fight").match())
    assert legal(m) == ["attack P3", "attack P4", "pass", "reveal"]


@pytest.mark.parametrize("d6,d4,dealt", [(6, 4, 2), (1, 4, 3), (6, 1, 5), (3, 3, 0), (4, 4, 0)])
def test_attack_damage_is_the_difference_of_the_dice(d6, d4, dealt):
    m = Position(SH).at("church", "cemetery", "woods", "woods").turn(0, "fight").rolls((6, d6), (4, d4)).match()
    play(m, "attack P2")
    assert var(m, "damage") == [0, dealt, 0, 0]
    if dealt:
        assert m.messages_for(3) == [f"P1 attacks P2: d6 {d6}, d4 {d4}", f"P2 takes {dealt} damage"]
    else:
        assert m.messages_for(3) == [f"P1 attacks P2: d6 {d6}, d4 {d4}: a miss"]
    assert m.state()["step"] == "end"


def test_each_weapon_adds_1_to_a_successful_attack():
    for weapons, dealt in [(["Butcher Knife"], 3), (["Butcher Knife", "Chainsaw"], 4),
                           (["Butcher Knife", "Chainsaw", "Rusted Broad Axe"], 5)]:
        m = (Position(SH).at("church", "cemetery", "woods", "woods").equipment(0, *weapons)
             .turn(0, "fight").rolls((6, 3), (4, 1)).match())
        play(m, "attack P2")
        assert var(m, "damage")[1] == dealt, weapons


def test_weapons_add_nothing_to_a_miss():
    m = (Position(SH).at("church", "cemetery", "woods", "woods")
         .equipment(0, "Butcher Knife", "Chainsaw", "Rusted Broad Axe").turn(0, "fight").rolls((6, 2), (4, 2)).match())
    play(m, "attack P2")
    assert var(m, "damage")[1] == 0


def test_spear_of_longinus_adds_2_for_a_revealed_hunter_only():
    def hit(attacker, revealed):
        chars = [attacker, "Vampire", "George", "Werewolf"]
        pos = (Position(chars).at("church", "cemetery", "woods", "woods").equipment(0, "Spear of Longinus")
               .turn(0, "fight").rolls((6, 4), (4, 2)))
        if revealed:
            pos.reveal(0)
        m = pos.match()
        play(m, "attack P2")
        return var(m, "damage")[1]
    assert hit("Emi", True) == 4
    assert hit("Emi", False) == 2
    assert hit("Unknown", True) == 2                              # a revealed Shadow
    assert hit("Allie", True) == 2                                # a revealed Neutral


def test_spear_adds_nothing_to_a_miss():
    m = (Position(SH).at("cemetery", "church", "woods", "woods").equipment(1, "Spear of Longinus").reveal(1)
         .turn(1, "fight").rolls((6, 2), (4, 2)).match())
    play(m, "attack P1")
    assert var(m, "damage") == [0, 0, 0, 0]


def test_holy_robe_reduces_attacks_both_ways():
    def hit(attacker_robe, target_robe, d6, d4, weapons=()):
        pos = Position(SH).at("church", "cemetery", "woods", "woods").turn(0, "fight").rolls((6, d6), (4, d4))
        if attacker_robe:
            pos.equipment(0, "Holy Robe")
        if target_robe:
            pos.equipment(1, "Holy Robe")
        if weapons:
            pos.equipment(0, *weapons)
        m = pos.match()
        play(m, "attack P2")
        return var(m, "damage")[1]
    assert hit(True, False, 6, 2) == 3
    assert hit(False, True, 6, 2) == 3
    assert hit(False, True, 3, 2) == 0          # never below 0
    # the order: weapons first, then the robes
    assert hit(False, True, 2, 1, ["Chainsaw"]) == 1
    assert hit(False, True, 2, 1, ["Chainsaw", "Butcher Knife"]) == 2


def test_holy_robe_and_weapons_say_what_they_change():
    # the target's robe: `P4 attacks P3: d6 5, d4 3` took 1 damage with no word of why
    m = (Position(SH).at("church", "cemetery", "woods", "woods").equipment(1, "Holy Robe")
         .turn(0, "fight").rolls((6, 5), (4, 3)).match())
    play(m, "attack P2")
    assert m.messages_for(2) == ["P1 attacks P2: d6 5, d4 3", "P2's Holy Robe: 1 less damage", "P2 takes 1 damage"]
    # the attacker's own robe takes an attack of 1 down to nothing: said, not silent
    m = (Position(SH).at("church", "cemetery", "woods", "woods").equipment(0, "Holy Robe")
         .turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "damage")[1] == 0
    assert m.messages_for(2) == ["P1 attacks P2: d6 2, d4 1", "P1's Holy Robe: 1 less damage", "P2 takes no damage"]
    # weapons, once per attack; the Spear only for a revealed Hunter
    m = (Position(["Emi", "Vampire", "George", "Werewolf"]).at("church", "cemetery", "woods", "woods").reveal(2)
         .equipment(2, "Spear of Longinus", "Chainsaw").turn(2, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P4")
    assert m.messages_for(0) == ["P3 attacks P4: d6 2, d4 1", "P3's Spear of Longinus: 2 more damage",
                                 "P3's Chainsaw: 1 more damage", "P4 takes 4 damage"]
    # a Ghostly Barrier says so
    m = (Position(SH).at("church", "cemetery", "woods", "woods").var("barrier", 1, True)
         .turn(0, "fight").rolls((6, 5), (4, 3)).match())
    play(m, "attack P2")
    assert m.messages_for(2) == ["P1 attacks P2: d6 5, d4 3", "P2 takes no damage (Ghostly Barrier)"]


def test_spear_weapon_and_own_holy_robe_add_up():
    m = (Position(["Emi", "Vampire", "George", "Werewolf"]).at("church", "cemetery", "woods", "woods").reveal(0)
         .equipment(0, "Spear of Longinus", "Holy Robe", "Chainsaw").turn(0, "fight").rolls((6, 2), (4, 1)).match())
    # 1 (dice) + 1 (Chainsaw) + 2 (Spear) - 1 (own Holy Robe) = 3
    play(m, "attack P2")
    assert var(m, "damage")[1] == 3


def test_guardian_angel_reduces_an_attack_to_nothing():
    m = (Position(SH).at("church", "cemetery", "woods", "woods").var("angel", 1, True)
         .equipment(0, "Chainsaw").turn(0, "fight").rolls((6, 6), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "damage")[1] == 0
    assert m.messages_for(2) == ["P1 attacks P2: d6 6, d4 1", "P2 is protected from attacks"]


def test_guardian_angel_ends_when_its_holders_turn_starts():
    m = Position(SH).at("church", "cemetery", "woods", "woods").var("angel", 1, True).turn(0, "end").match()
    play(m, "end turn", "begin")
    assert var(m, "angel") == [False, False, False, False]


def test_masamune_forces_an_attack_with_a_d4():
    m = (Position(SH).at("church", "cemetery", "church", "woods").equipment(0, "Cursed Sword Masamune")
         .turn(0, "fight").rolls((4, 3)).match())
    assert legal(m) == ["attack P2", "attack P3", "reveal"]            # no pass
    # and typing it says why (a first-hour trial read only "`pass` is not allowed now")
    assert m.refusal("pass") == "your equipment makes you attack when anyone is in your range (Cursed Sword Masamune)"
    play(m, "attack P3")
    assert var(m, "damage") == [0, 0, 3, 0]
    assert m.messages_for(1) == ["P1 attacks P3: d4 3", "P3 takes 3 damage"]


def test_masamune_with_nobody_in_range_may_pass():
    m = (Position(SH).at("church", "gate", "woods", "woods").equipment(0, "Cursed Sword Masamune")
         .turn(0, "fight").match())
    assert legal(m) == ["pass", "reveal"]
    play(m, "reveal")
    assert m.refusal("reveal") == "you are revealed already"


def test_masamune_with_the_handgun_forces_an_attack_outside_the_pair():
    m = (Position(SH).at("church", "cemetery", "woods", "church").equipment(0, "Cursed Sword Masamune", "Handgun")
         .turn(0, "fight").match())
    assert legal(m) == ["attack P3", "reveal"]


def test_masamune_damage_gets_the_weapon_bonus():
    m = (Position(SH).at("church", "cemetery", "woods", "woods").equipment(0, "Cursed Sword Masamune", "Chainsaw")
         .turn(0, "fight").rolls((4, 1)).match())
    play(m, "attack P2")
    assert var(m, "damage")[1] == 2


def test_machine_gun_hits_everyone_in_range_with_one_roll():
    m = (Position(SH).at("church", "cemetery", "church", "woods").equipment(0, "Machine Gun").equipment(2, "Holy Robe")
         .turn(0, "fight").rolls((6, 6), (4, 2)).match())
    assert legal(m) == ["attack everyone in range: P2 P3", "pass", "reveal"]
    play(m, "attack everyone in range: P2 P3")
    assert var(m, "damage") == [0, 4, 3, 0]
    assert m.messages_for(3) == ["P1 attacks P2 P3: d6 6, d4 2", "P2 takes 4 damage", "P3's Holy Robe: 1 less damage",
                                 "P3 takes 3 damage"]


def test_machine_gun_miss_hits_nobody():
    m = (Position(SH).at("church", "cemetery", "church", "woods").equipment(0, "Machine Gun")
         .turn(0, "fight").rolls((6, 2), (4, 2)).match())
    play(m, "attack everyone in range: P2 P3")
    assert var(m, "damage") == [0, 0, 0, 0]


def test_machine_gun_with_nobody_in_range():
    m = Position(SH).at("church", "gate", "woods", "woods").equipment(0, "Machine Gun").turn(0, "fight").match()
    assert legal(m) == ["pass", "reveal"]


def test_machine_gun_with_the_handgun_hits_everyone_outside_the_pair():
    m = (Position(SH).at("church", "cemetery", "woods", "gate").equipment(0, "Machine Gun", "Handgun")
         .turn(0, "fight").rolls((6, 5), (4, 2)).match())
    play(m, "attack everyone in range: P3 P4")
    assert var(m, "damage") == [0, 0, 3, 3]


def test_machine_gun_and_masamune_one_d4_for_everyone():
    m = (Position(SH).at("church", "cemetery", "church", "woods")
         .equipment(0, "Machine Gun", "Cursed Sword Masamune").turn(0, "fight").rolls((4, 2)).match())
    assert legal(m) == ["attack everyone in range: P2 P3", "reveal"]
    play(m, "attack everyone in range: P2 P3")
    assert var(m, "damage") == [0, 2, 2, 0]


# ---- H6: empty decks ------------------------------------------------------------------------------------

@pytest.mark.parametrize("color,action", [("white", "draw a white card"), ("black", "draw a black card"),
                                          ("hermit", "draw a hermit card")])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_empty_deck_is_refilled_from_its_discard_pile(color, action, seed):
    area = {"white": "church", "black": "cemetery", "hermit": "cabin"}[color]
    pos = Position(SH, seed=seed).at(area, "gate", "woods", "woods").turn(0, "area")
    z = pos.st["zones"]
    pile = z[f"{color}_deck"]
    cards = sorted(pile)
    z[f"{color}_discard"].extend(pile)
    pile.clear()
    m = pos.match()
    assert len(zones(m)[f"{color}_deck"]) == 0
    play(m, action)
    if color == "hermit":                  # give it to P2
        play(m, "P2")
    while m.question is not None:          # answer whatever the card asks
        play(m, "pass" if "pass" in legal(m) else legal(m)[0])
    z = zones(m)
    deck = z[f"{color}_deck"]
    assert len(deck) == 15
    drawn = [c for c in cards if c not in deck]
    assert len(drawn) == 1
    if drawn[0] in z["equipment"][0]:      # equipment: kept; otherwise: back to the discard pile alone
        assert z[f"{color}_discard"] == []
    else:
        assert z[f"{color}_discard"] == drawn


def test_a_refilled_deck_is_the_discard_pile_shuffled():
    pos = Position(SH).at("church", "gate", "woods", "woods").turn(0, "area")
    z = pos.st["zones"]
    z["white_discard"].extend(z["white_deck"])
    z["white_deck"].clear()
    ids = sorted(z["white_discard"])
    m = pos.match()
    play(m, "draw a white card")
    z = zones(m)
    held = z["equipment"][0] + z["white_discard"]
    assert len(held) == 1
    assert sorted(z["white_deck"] + held) == ids


def test_a_refill_only_happens_when_the_deck_is_empty():
    m = (Position(SH).at("church", "gate", "woods", "woods").discard("white", "Talisman")
         .deck("white", "Holy Robe").turn(0, "area").match())
    deck = len(zones(m)["white_deck"])
    play(m, "draw a white card")
    assert equipment_of(m, 0) == ["Holy Robe"]
    assert labels(m, zones(m)["white_discard"]) == ["Talisman"]
    assert len(zones(m)["white_deck"]) == deck - 1


# ---- H8: death ------------------------------------------------------------------------------------

def test_the_killer_takes_one_equipment_card_of_their_choice_the_rest_is_discarded():
    m = (Position(SH).at("church", "cemetery", "woods", "woods").equipment(1, "Talisman", "Chainsaw", "Holy Robe")
         .damage(1, 8).turn(0, "fight").rolls((6, 6), (4, 2)).match())
    play(m, "attack P2")
    assert var(m, "dead") == [False, True, False, False]
    assert var(m, "revealed") == [False, True, False, False]
    q = m.question
    assert q["chooser"] == 0 and q["prompt"] == "Which of P2's equipment cards do you take?"
    assert sorted(q["options"]) == ["Chainsaw", "Holy Robe", "Talisman", "pass"]      # ("may take one")
    play(m, "Holy Robe")
    assert equipment_of(m, 0) == ["Holy Robe"]
    assert equipment_of(m, 1) == []
    assert labels(m, zones(m)["white_discard"]) == ["Talisman"]
    assert labels(m, zones(m)["black_discard"]) == ["Chainsaw"]
    assert "P2 dies: Emi (Hunter)" in m.messages_for(3)
    assert m.outcome is None
    # and leaves the board (H8): no area holds the dead any more, nor does the screen's `at` row
    assert var(m, "at") == ["church", None, "woods", "woods"]
    at_row = next(v for v in m.view(3)["values"] if v["name"] == "at")
    assert at_row["per_player"][1] is None


@pytest.mark.parametrize("answer", ["Cursed Sword Masamune", "pass"])
def test_the_killer_may_take_the_victims_one_card_or_none(answer):
    """The card reference's Death: the killer "may take one". An audit: a victim's one card (a Cursed
    Sword Masamune, which forces every later attack) was given without a question."""
    m = (Position(SH).at("church", "cemetery", "woods", "woods").equipment(1, "Cursed Sword Masamune")
         .damage(1, 9).turn(0, "fight").rolls((6, 6), (4, 2)).match())
    play(m, "attack P2")
    assert m.question["chooser"] == 0 and sorted(m.question["options"]) == ["Cursed Sword Masamune", "pass"]
    play(m, answer)
    assert equipment_of(m, 0) == ([] if answer == "pass" else ["Cursed Sword Masamune"])
    assert labels(m, zones(m)["black_discard"]) == ([] if answer != "pass" else ["Cursed Sword Masamune"])


def test_silver_rosary_takes_all_the_victims_equipment():
    m = (Position(SH).at("church", "cemetery", "woods", "woods").equipment(0, "Silver Rosary")
         .equipment(1, "Talisman", "Chainsaw", "Holy Robe").damage(1, 9).turn(0, "fight").rolls((6, 6), (4, 2)).match())
    play(m, "attack P2")
    assert m.question is None
    assert equipment_of(m, 0) == ["Chainsaw", "Holy Robe", "Silver Rosary", "Talisman"]
    assert zones(m)["white_discard"] == [] and zones(m)["black_discard"] == []


@pytest.mark.parametrize("rosary,other", [(1, 2), (2, 1)])
def test_a_silver_rosary_taken_from_one_victim_does_not_take_all_of_the_next(rosary, other):
    """H8: the killer takes one card of each victim; all, only if they held Silver Rosary when they
    killed. A rules audit: Flare of Judgement killed two, the killer took the Rosary from the first
    and then every card of the second — or not, by seat order."""
    m = (Position(["Emi", "Allie", "Agnes", "Vampire", "George", "Werewolf"])
         .at("church", "cabin", "gate", "woods", "altar", "cemetery").damage(1, 7).damage(2, 7)
         .equipment(rosary, "Silver Rosary", "Talisman").equipment(other, "Chainsaw", "Rusted Broad Axe")
         .turn(0, "area").deck("white", "Flare of Judgement").match())
    play(m, "draw a white card")
    asked = []
    while m.question is not None:
        asked.append(sorted(m.question["options"]))
        play(m, "Silver Rosary" if "Silver Rosary" in legal(m) else "Chainsaw")
    assert sorted(asked) == [["Chainsaw", "Rusted Broad Axe", "pass"], ["Silver Rosary", "Talisman", "pass"]]
    assert equipment_of(m, 0) == ["Chainsaw", "Silver Rosary"]


def test_a_kill_by_an_area_is_credited_to_the_player_using_it():
    m = (Position(SH).at("woods", "cemetery", "woods", "woods").equipment(1, "Talisman", "Chainsaw")
         .damage(1, 8).turn(0, "area").match())
    play(m, "wound P2 (2 damage)")
    assert m.question["prompt"] == "Which of P2's equipment cards do you take?" and m.question["chooser"] == 0
    play(m, "Talisman")
    assert equipment_of(m, 0) == ["Talisman"]
    assert labels(m, zones(m)["black_discard"]) == ["Chainsaw"]


def test_a_dead_player_has_no_turn():
    m = Position(SH).dead(1).at("church", None, "woods", "woods").turn(0, "end").match()
    play(m, "end turn")
    assert m.state()["current"] == 2
    m = Position(SH).dead(0, 1).at(None, None, "woods", "woods").turn(3, "end").match()
    play(m, "end turn")
    assert m.state()["current"] == 2


def test_turn_order_is_clockwise():
    m = Position(SH).turn(3, "end").match()
    play(m, "end turn")
    assert m.state()["current"] == 0 and m.state()["step"] == "start"
    m = Position(SH).turn(1, "end").match()
    play(m, "end turn")
    assert m.state()["current"] == 2


def test_a_player_killed_by_a_counterattack_in_their_own_turn_loses_the_rest_of_it():
    # P1 attacks the revealed Werewolf (P4), who counterattacks and kills P1: P2's turn starts
    m = (Position(SH).at("church", "gate", "woods", "cemetery").reveal(3).damage(0, 12)
         .turn(0, "fight").rolls((6, 3), (4, 1), (6, 4), (4, 1)).match())
    play(m, "attack P4")
    assert var(m, "damage")[3] == 2
    assert m.question["chooser"] == 3
    play(m, "yes")
    assert var(m, "dead")[0] is True
    assert m.state()["current"] == 1 and m.state()["step"] == "start"


# ---- extra turns -----------------------------------------------------------------------------------

def test_concealed_knowledge_gives_another_turn_right_after_this_one():
    m = (Position(SH).at("church", "gate", "woods", "woods").deck("white", "Concealed Knowledge")
         .turn(0, "area").match())
    turn = m.state()["turn"]
    play(m, "draw a white card")
    assert var(m, "extra") == [1, 0, 0, 0]
    assert m.messages_for(1) == ["P1 draws Concealed Knowledge", "P1 will take another turn"]
    play(m, "pass", "end turn")
    assert m.state()["current"] == 0 and m.state()["step"] == "start"
    assert m.state()["turn"] == turn + 1
    assert var(m, "extra") == [0, 0, 0, 0]
    play(m, "begin", "roll")
    while m.state()["step"] != "end":
        play(m, "skip" if "skip" in legal(m) else "pass" if "pass" in legal(m) else legal(m)[0])
    play(m, "end turn")
    assert m.state()["current"] == 1


def test_an_extra_turn_is_lost_when_its_player_dies():
    m = (Position(SH).at("woods", "gate", "woods", "woods").var("extra", 0, 1).damage(0, 12)
         .turn(0, "area").match())
    play(m, "wound P1 (2 damage)")
    assert var(m, "dead")[0] is True
    assert m.state()["current"] == 1
    assert var(m, "extra") == [0, 0, 0, 0]
