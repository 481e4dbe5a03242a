"""When the game is decided (H12): at the death, before the killer takes any equipment (H8).

A death that meets a win condition ends the game at once: the killer takes nothing from the victim,
is asked nothing, and a card the loot would have given (Bob's fifth) cannot add a winner. A death
that decides nothing is followed by the loot, which may itself end the game.

Default layout pairs: (cabin, gate), (church, cemetery), (woods, altar). Seats are 0-based (P1 = 0)."""
from __future__ import annotations

from sh_helpers import Position, labels, play, var, winners, zones

BOB_4 = ("Fortune Brooch", "Mystic Compass", "Talisman", "Spear of Longinus")   # no attack bonus


def equipment(m, p) -> list[str]:
    return sorted(labels(m, zones(m)["equipment"][p]))


def _ended_without_a_question(m):
    assert m.outcome is not None
    assert m.question is None
    assert m.legal_actions() == []


# ---- the position of issue 27 -------------------------------------------------------------------
def test_bob_does_not_win_with_the_card_of_the_kill_that_ended_the_game():
    # Emi, the last living Hunter (George dead), 9 of 10 damage, holds the Butcher Knife;
    # Bob, with 4 equipment cards, attacks her: d6 2, d4 1 = 1 damage, she dies, the Shadows win
    m = (Position(["Bob", "Vampire", "Werewolf", "Emi", "George"]).at("cabin", "church", "woods", "gate", None)
         .dead(4).damage(3, 9).equipment(0, *BOB_4).equipment(3, "Butcher Knife")
         .turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P4")
    assert var(m, "dead") == [False, False, False, True, True]
    _ended_without_a_question(m)
    assert winners(m) == [1, 2]                       # the Vampire and the Werewolf; not Bob
    assert equipment(m, 0) == sorted(BOB_4)           # the knife was never taken
    assert "P1 takes Butcher Knife" not in m.messages_for(0)
    assert m.outcome["reason"] == ("Shadows win: every Hunter is dead (P4 Emi, P5 George). The winners: "
                                   "P2 Vampire (Shadow), P3 Werewolf (Shadow).")


def test_bob_revealed_does_not_win_with_it_either():
    m = (Position(["Bob", "Vampire", "Werewolf", "Emi", "George"]).at("cabin", "church", "woods", "gate", None)
         .dead(4).reveal(0).damage(3, 9).equipment(0, *BOB_4).equipment(3, "Butcher Knife")
         .turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P4")
    _ended_without_a_question(m)
    assert winners(m) == [1, 2]


# ---- no question once the game is decided ------------------------------------------------------
def test_the_killer_is_asked_nothing_when_the_kill_ends_the_game():
    # the Vampire kills the last Hunter, who holds two cards: no "take one of …" question
    m = (Position(["Vampire", "Werewolf", "Emi", "George"]).at("cabin", "church", "gate", None)
         .dead(3).damage(2, 9).equipment(2, "Talisman", "Chainsaw").turn(0, "fight")
         .rolls((6, 2), (4, 1)).match())
    play(m, "attack P3")
    _ended_without_a_question(m)
    assert winners(m) == [0, 1]
    assert equipment(m, 0) == []
    assert equipment(m, 2) == ["Chainsaw", "Talisman"]


def test_a_kill_that_decides_nothing_still_asks_the_killer():
    m = (Position(["Vampire", "Werewolf", "Emi", "George"]).at("cabin", "church", "gate", "woods")
         .damage(2, 9).equipment(2, "Talisman", "Chainsaw").turn(0, "fight")
         .rolls((6, 2), (4, 1)).match())
    play(m, "attack P3")
    assert m.outcome is None
    assert m.question["prompt"] == "Which of P3's equipment cards do you take?"


# ---- taking all (Silver Rosary; Bob with 7–8 players): nothing once the game is decided ----------
SEVEN = ["Bob", "Vampire", "Werewolf", "Emi", "George", "Allie", "Charles"]


def test_bob_at_seven_players_takes_nothing_when_the_kill_ends_the_game():
    m = (Position(SEVEN).at("cabin", "church", "woods", "gate", None, "altar", "altar").reveal(0).dead(4)
         .damage(3, 9).equipment(3, "Talisman", "Chainsaw").turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P4")
    _ended_without_a_question(m)
    assert winners(m) == [1, 2, 5]                    # the Shadows, and Allie alive
    assert equipment(m, 0) == []
    assert equipment(m, 3) == ["Chainsaw", "Talisman"]


def test_bob_at_seven_players_still_takes_all_when_the_game_goes_on():
    m = (Position(SEVEN).at("cabin", "church", "woods", "gate", "altar", "altar", "altar").reveal(0)
         .damage(3, 9).equipment(3, "Talisman", "Chainsaw").turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P4")
    assert m.outcome is None
    assert equipment(m, 0) == ["Chainsaw", "Talisman"]


def test_silver_rosary_takes_nothing_when_the_kill_ends_the_game():
    m = (Position(["Vampire", "Werewolf", "Emi", "George", "Allie"]).at("cabin", "church", "gate", None, "altar")
         .dead(3).damage(2, 9).equipment(0, "Silver Rosary").equipment(2, "Talisman", "Chainsaw")
         .turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P3")
    _ended_without_a_question(m)
    assert winners(m) == [0, 1, 4]
    assert equipment(m, 0) == ["Silver Rosary"]
    assert equipment(m, 2) == ["Chainsaw", "Talisman"]


def test_silver_rosary_by_weird_woods_takes_nothing_when_the_kill_ends_the_game():
    m = (Position(["Vampire", "Werewolf", "Emi", "George", "Allie"]).at("woods", "church", "gate", None, "altar")
         .dead(3).damage(2, 9).equipment(0, "Silver Rosary").equipment(2, "Talisman", "Chainsaw")
         .turn(0, "area").match())
    play(m, "wound P3 (2 damage)")
    _ended_without_a_question(m)
    assert equipment(m, 0) == ["Silver Rosary"]


# ---- the loot of a kill that decided nothing may itself end the game ----------------------------
def test_bob_wins_with_the_card_of_a_kill_that_decided_nothing():
    # Bob kills the Werewolf (the Vampire lives): the game goes on, he takes the knife, his fifth card
    m = (Position(["Bob", "Vampire", "Werewolf", "Emi", "George"]).at("cabin", "church", "gate", "woods", "altar")
         .damage(2, 13).equipment(0, *BOB_4).equipment(2, "Butcher Knife")
         .turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P3")
    assert m.outcome is None and sorted(m.question["options"]) == ["Butcher Knife", "pass"]    # ("may take")
    play(m, "Butcher Knife")
    assert m.outcome is not None
    assert winners(m) == [0]
    assert equipment(m, 0) == sorted(BOB_4 + ("Butcher Knife",))


# ---- conditions met by a death end the game before the loot --------------------------------------
def test_charles_kill_with_three_dead_ends_the_game_before_the_loot():
    m = (Position(["Charles", "Vampire", "Werewolf", "Emi", "George", "Allie"])
         .at("cabin", "gate", "church", "woods", None, None).dead(4, 5).damage(1, 12)
         .equipment(1, "Talisman", "Chainsaw").turn(0, "fight").rolls((6, 4), (4, 1)).match())
    play(m, "attack P2")
    _ended_without_a_question(m)
    assert winners(m) == [0]
    assert equipment(m, 0) == []


def test_bryan_kill_of_thirteen_hp_ends_the_game_before_the_loot():
    m = (Position(["Bryan", "Vampire", "Emi", "Werewolf", "George"]).at("cabin", "gate", "woods", "church", "altar")
         .damage(1, 12).equipment(1, "Talisman", "Chainsaw").turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    _ended_without_a_question(m)
    assert winners(m) == [0]
    assert equipment(m, 0) == []


def test_daniel_dying_first_ends_the_game_before_the_loot():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Daniel"])
         .at("cabin", "gate", "church", "woods", "gate").damage(4, 12).equipment(4, "Talisman", "Chainsaw")
         .turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P5")
    _ended_without_a_question(m)
    assert winners(m) == [4]
    assert equipment(m, 0) == []


def test_catherine_dying_first_ends_the_game_before_the_loot():
    m = (Position(["Catherine", "Vampire", "Werewolf", "Emi", "George"]).at("gate", "cabin", "church", "woods", "altar")
         .damage(0, 10).equipment(0, "Talisman", "Chainsaw").turn(1, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P1")
    _ended_without_a_question(m)
    assert winners(m) == [0]
    assert equipment(m, 1) == []


def test_third_dead_neutral_ends_the_game_before_the_loot():
    m = (Position(["Vampire", "Emi", "Werewolf", "George", "Allie", "Bob", "Charles"])
         .at("cabin", "church", "woods", "altar", None, None, "gate").dead(4, 5).damage(6, 10)
         .equipment(6, "Talisman", "Chainsaw").turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P7")
    _ended_without_a_question(m)
    assert winners(m) == [0, 2]
    assert equipment(m, 0) == []


# ---- a kill counts for a killer who dies of the same effect ---------------------------------------
def _charles_spider(charles_damage: int, dead: tuple[int, ...]):
    # Charles (P1) draws the Bloodthirsty Spider and aims it at Emi (P4, 8 of 10)
    pos = (Position(["Charles", "Vampire", "Werewolf", "Emi", "George", "Allie"])
           .at("cemetery", "gate", "church", "woods", "altar", None).damage(0, charles_damage).damage(3, 8)
           .deck("black", "Bloodthirsty Spider").turn(0, "area"))
    if dead:
        pos.dead(*dead)
    m = pos.match()
    play(m, "draw a black card", "P4")
    return m


def test_charles_dying_of_his_own_spider_still_wins_by_its_kill():
    # Allie dead; Emi and Charles die together: 3 dead, the kill is Charles's, dead or not
    m = _charles_spider(9, (5,))
    assert var(m, "dead") == [True, False, False, True, False, True]
    _ended_without_a_question(m)
    assert winners(m) == [0]


def test_charles_spider_kill_with_two_dead_in_all_does_not_win():
    m = _charles_spider(9, ())
    assert var(m, "dead") == [True, False, False, True, False, False]
    assert m.outcome is None


def test_charles_killing_only_himself_is_no_kill():
    # two dead already; Charles's Bloody Feast kills him: his own death is no kill of his
    m = (Position(["Charles", "Vampire", "Werewolf", "Emi", "George", "Allie"])
         .at("cabin", "gate", "church", "woods", None, None).dead(4, 5).reveal(0).damage(0, 9)
         .turn(0, "fight").rolls((6, 4), (4, 1)).match())
    play(m, "attack P2", "yes")
    assert var(m, "dead") == [True, False, False, False, True, True]
    assert m.outcome is None


# ---- an attack is one event (games/shadow_hunters.md) ----------------------------------------------
def test_a_machine_gun_attack_giving_bob_his_fifth_card_and_killing_catherine_is_won_by_both():
    # Bob, revealed, with the Machine Gun and 3 more cards, robs Emi of her Chainsaw instead of hurting
    # her, and the same roll (d6 6, d4 1: 5 damage) kills Catherine (7 of 11), the first to die: the end
    # is checked once the attack's deaths are known, so both conditions hold (a lock-step trial read
    # H12 per target and expected Bob alone)
    m = (Position(["Vampire", "Werewolf", "Emi", "George", "Bob", "Catherine"])
         .at("cabin", "woods", "church", "gate", "church", "church").reveal(2).reveal(4).reveal(5)
         .damage(5, 7).equipment(4, "Machine Gun", "Talisman", "Mystic Compass", "Holy Robe")
         .equipment(2, "Chainsaw").turn(4, "fight").rolls((6, 6), (4, 1)).match())
    play(m, "attack everyone in range: P3 P6")
    assert "Robbery" in m.question["prompt"]
    play(m, "yes")
    assert m.outcome is not None and m.question is None
    assert var(m, "dead") == [False, False, False, False, False, True]
    assert equipment(m, 4) == sorted(["Machine Gun", "Talisman", "Mystic Compass", "Holy Robe", "Chainsaw"])
    assert winners(m) == [4, 5]
