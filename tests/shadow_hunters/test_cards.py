"""Shadow Hunters: the 16 white, 16 black and 16 hermit cards (shadow_hunters_cards.md), both
versions of Chocolate, Disenchant Mirror, Hermit's Bully and Hermit's Tough Lesson, and the hermit
card procedure (H5, H11, H13).

The expected behaviour is worked out here from the card reference's tables (faction and HP of each
character below), not from the rule file.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest

import rulelang

from sh_helpers import Position, game, labels, legal, play, player_lines, shown, var, zones

# name: (faction, HP, edition) — the card reference's character table
CHARACTERS = {
    "Unknown": ("Shadow", 11, "base"), "Vampire": ("Shadow", 13, "base"), "Werewolf": ("Shadow", 14, "base"),
    "Ultra Soul": ("Shadow", 11, "expansion"), "Valkyrie": ("Shadow", 13, "expansion"),
    "Wight": ("Shadow", 14, "expansion"),
    "Emi": ("Hunter", 10, "base"), "Franklin": ("Hunter", 12, "base"), "George": ("Hunter", 14, "base"),
    "Ellen": ("Hunter", 10, "expansion"), "Fu-ka": ("Hunter", 12, "expansion"), "Gregor": ("Hunter", 14, "expansion"),
    "Allie": ("Neutral", 8, "base"), "Bob": ("Neutral", 10, "base"), "Charles": ("Neutral", 11, "base"),
    "Daniel": ("Neutral", 13, "base"), "Agnes": ("Neutral", 8, "expansion"), "Bryan": ("Neutral", 10, "expansion"),
    "Catherine": ("Neutral", 11, "expansion"), "David": ("Neutral", 13, "expansion"),
}
BASE = [c for c, (_, _, e) in CHARACTERS.items() if e == "base"]
ALL = list(CHARACTERS)
BASE_OPTS = {"characters": "base"}

# Chocolate, Disenchant Mirror, Hermit's Bully and Hermit's Tough Lesson have a base and an
# expansion version: two declarations named apart ("Chocolate (expansion)"), shown alike.
TWO_VERSIONS = ("Chocolate", "Disenchant Mirror", "Hermit's Bully", "Hermit's Tough Lesson")

# the four cards with two versions: who they apply to
CHOCOLATE_BASE = {"Allie", "Emi", "Unknown"}
CHOCOLATE_EXP = CHOCOLATE_BASE | {"Agnes", "Ellen", "Ultra Soul"}
BULLY_BASE = {"Allie", "Bob", "Charles", "Emi", "Unknown"}
LESSON_BASE = {"Daniel", "Franklin", "George", "Vampire", "Werewolf"}

# hermit card: (applies to (character name, base version?) -> bool, effect kind, amount)
HERMIT = {
    "Hermit's Aid": (lambda c, base: faction(c) == "Hunter", "heal_or_hurt", 1),
    "Hermit's Anger": (lambda c, base: faction(c) in ("Hunter", "Shadow"), "give_or_hurt", 1),
    "Hermit's Blackmail": (lambda c, base: faction(c) in ("Hunter", "Neutral"), "give_or_hurt", 1),
    "Hermit's Bully": (lambda c, base: c in BULLY_BASE if base else hp(c) <= 11, "damage", 1),
    "Hermit's Exorcism": (lambda c, base: faction(c) == "Shadow", "damage", 2),
    "Hermit's Greed": (lambda c, base: faction(c) in ("Neutral", "Shadow"), "give_or_hurt", 1),
    "Hermit's Huddle": (lambda c, base: faction(c) == "Shadow", "heal_or_hurt", 1),
    "Hermit's Nurturance": (lambda c, base: faction(c) == "Neutral", "heal_or_hurt", 1),
    "Hermit's Prediction": (lambda c, base: True, "prediction", 0),
    "Hermit's Slap": (lambda c, base: faction(c) == "Hunter", "damage", 1),
    "Hermit's Spell": (lambda c, base: faction(c) == "Shadow", "damage", 1),
    "Hermit's Tough Lesson": (lambda c, base: c in LESSON_BASE if base else hp(c) >= 12, "damage", 2),
}


def faction(c: str) -> str:
    return CHARACTERS[c][0]


def hp(c: str) -> int:
    return CHARACTERS[c][1]


def cast(*chars: str, base: bool = False) -> list[str]:
    """The given characters for P1, P2…, then fillers up to four players: a Hunter and a Shadow
    besides the given ones are in play, so nobody's condition holds and one damage ends nothing."""
    pool = BASE if base else ALL
    out = list(chars)
    for want in ("Hunter", "Shadow", "Hunter"):
        if len(out) < 4:
            out.append(next(c for c in ("George", "Franklin", "Emi", "Werewolf", "Vampire", "Unknown")
                            if c in pool and c not in out and faction(c) == want))
    return out


def pos(chars, base=False) -> Position:
    return Position(chars, options=BASE_OPTS if base else None)


def eq(m, p):
    return sorted(labels(m, zones(m)["equipment"][p]))


def discarded(m, color):
    return labels(m, zones(m)[f"{color}_discard"])


def draw_white(card, chars=("Emi", "Vampire", "George", "Werewolf"), base=False, setup=None):
    p = pos(list(chars), base).at("church", "cemetery", "woods", "woods").deck("white", card).turn(0, "area")
    if setup:
        setup(p)
    m = p.match()
    play(m, "draw a white card")
    return m


def draw_black(card, chars=("Emi", "Vampire", "George", "Werewolf"), base=False, setup=None):
    p = pos(list(chars), base).at("cemetery", "church", "woods", "woods").deck("black", card).turn(0, "area")
    if setup:
        setup(p)
    m = p.match()
    play(m, "draw a black card")
    return m


# ---- the decks ------------------------------------------------------------------------------------

@pytest.mark.parametrize("option", ["base", "expansion", "all"])
def test_the_three_decks_hold_16_cards_each(option):
    m = game.new_match(4, seed=3, options={"characters": option})
    z = zones(m)
    assert Counter(labels(m, z["white_deck"])) == Counter({
        "Advent": 1, "Blessing": 1, "Chocolate": 1, "Concealed Knowledge": 1, "Disenchant Mirror": 1,
        "First Aid": 1, "Flare of Judgement": 1, "Fortune Brooch": 1, "Guardian Angel": 1, "Holy Robe": 1,
        "Holy Water of Healing": 2, "Mystic Compass": 1, "Silver Rosary": 1, "Spear of Longinus": 1,
        "Talisman": 1})
    assert Counter(labels(m, z["black_deck"])) == Counter({
        "Banana Peel": 1, "Bloodthirsty Spider": 1, "Butcher Knife": 1, "Chainsaw": 1,
        "Cursed Sword Masamune": 1, "Diabolic Ritual": 1, "Dynamite": 1, "Handgun": 1, "Machine Gun": 1,
        "Moody Goblin": 2, "Rusted Broad Axe": 1, "Spiritual Doll": 1, "Vampire Bat": 3})
    assert Counter(labels(m, z["hermit_deck"])) == Counter({
        "Hermit's Aid": 1, "Hermit's Anger": 2, "Hermit's Blackmail": 2, "Hermit's Bully": 1,
        "Hermit's Exorcism": 1, "Hermit's Greed": 2, "Hermit's Huddle": 1, "Hermit's Nurturance": 1,
        "Hermit's Prediction": 1, "Hermit's Slap": 2, "Hermit's Spell": 1, "Hermit's Tough Lesson": 1})


@pytest.mark.parametrize("option,version", [("base", "base_only"), ("expansion", "expansion_only"),
                                            ("all", "expansion_only")])
def test_the_versions_of_the_four_changed_cards_follow_the_character_set(option, version):
    st = game.new_match(4, seed=3, options={"characters": option}).state()
    in_decks = {c for z in ("white_deck", "black_deck", "hermit_deck") for c in st["zones"][z]}
    for name in ("Chocolate", "Disenchant Mirror", "Hermit's Bully", "Hermit's Tough Lesson"):
        versions = [st["components"][c]["fields"]["version"] for c in in_decks
                    if st["components"][c]["label"] == name]
        assert versions == [version], name


# ---- white cards ------------------------------------------------------------------------------------

def test_advent_a_hidden_hunter_may_reveal_and_heal_all():
    m = draw_white("Advent", setup=lambda p: p.damage(0, 6))
    assert m.question["chooser"] == 0 and m.question["prompt"] == "Do you reveal yourself to heal all your damage?"
    assert legal(m) == ["reveal and heal all damage", "do nothing"]
    play(m, "reveal and heal all damage")
    assert var(m, "revealed")[0] is True and var(m, "damage")[0] == 0
    assert m.messages_for(1)[-2:] == ["P1 is Emi (Hunter, 10 HP)", "P1 heals 6"]
    assert discarded(m, "white") == ["Advent"]


def test_advent_a_hidden_hunter_may_decline():
    m = draw_white("Advent", setup=lambda p: p.damage(0, 6))
    play(m, "do nothing")
    assert var(m, "revealed")[0] is False and var(m, "damage")[0] == 6
    assert m.messages_for(1) == ["P1 draws Advent"]


def test_advent_a_revealed_hunter_heals_all_at_once():
    m = draw_white("Advent", setup=lambda p: p.damage(0, 6).reveal(0))
    assert m.question is None
    assert var(m, "damage")[0] == 0


def test_advent_a_revealed_character_it_does_not_help_is_not_asked():
    """A first-hour trial: a revealed Vampire was asked "Do you reveal yourself…?" (only `do
    nothing`). Asking hides nothing once everyone knows who it is."""
    m = draw_white("Advent", chars=cast("Vampire"), setup=lambda p: p.damage(0, 3).reveal(0))
    assert m.question is None and var(m, "damage")[0] == 3
    assert m.messages_for(1)[-1] == "P1: nothing happens"


@pytest.mark.parametrize("char", ["Vampire", "Allie", "Unknown", "Daniel"])
def test_advent_anyone_else_is_asked_but_may_only_do_nothing(char):
    m = draw_white("Advent", chars=cast(char), setup=lambda p: p.damage(0, 3))
    assert m.question["chooser"] == 0 and m.question["prompt"] == "Do you reveal yourself to heal all your damage?"
    assert legal(m) == ["do nothing"]
    play(m, "do nothing")
    assert var(m, "damage")[0] == 3 and var(m, "revealed")[0] is False


def test_blessing_another_character_heals_a_d6():
    m = draw_white("Blessing", setup=lambda p: p.damage(1, 5).damage(0, 5).dead(3).rolls((6, 3)))
    assert m.question["prompt"] == "Blessing: who heals a d6 of damage?"
    assert legal(m) == ["P2", "P3"]            # not oneself, not the dead
    play(m, "P2")
    assert var(m, "damage")[:2] == [5, 2]
    assert m.messages_for(2)[-2:] == ["P1 rolls a d6: 3", "P2 heals 3"]


def test_blessing_heals_no_more_than_the_damage():
    m = draw_white("Blessing", setup=lambda p: p.damage(1, 2).rolls((6, 6)))
    play(m, "P2")
    assert var(m, "damage")[1] == 0
    m = draw_white("Blessing", setup=lambda p: p.rolls((6, 4)))
    play(m, "P3")                               # (a browser trial: the messages never said whom)
    assert m.messages_for(1)[-2:] == ["P1 rolls a d6: 4", "P3 has no damage to heal"]


@pytest.mark.parametrize("char", ALL)
def test_chocolate_expansion_version(char):
    m = draw_white("Chocolate", chars=cast(char), setup=lambda p: p.damage(0, 4))
    options = ["reveal and heal all damage", "do nothing"] if char in CHOCOLATE_EXP else ["do nothing"]
    assert m.question["prompt"] == "Do you reveal yourself to heal all your damage?"
    assert legal(m) == options
    play(m, options[0])
    healed = char in CHOCOLATE_EXP
    assert var(m, "damage")[0] == (0 if healed else 4)
    assert var(m, "revealed")[0] is healed


@pytest.mark.parametrize("char", BASE)
def test_chocolate_base_version(char):
    m = draw_white("Chocolate", chars=cast(char, base=True), base=True, setup=lambda p: p.damage(0, 4))
    options = ["reveal and heal all damage", "do nothing"] if char in CHOCOLATE_BASE else ["do nothing"]
    assert legal(m) == options


def test_chocolate_revealed_and_eligible_heals_at_once():
    m = draw_white("Chocolate", chars=cast("Allie"), setup=lambda p: p.damage(0, 4).reveal(0))
    assert m.question is None and var(m, "damage")[0] == 0


def test_concealed_knowledge_gives_an_extra_turn():
    m = draw_white("Concealed Knowledge")
    assert var(m, "extra") == [1, 0, 0, 0]
    assert discarded(m, "white") == ["Concealed Knowledge"]


@pytest.mark.parametrize("char", ALL)
def test_disenchant_mirror_expansion_version(char):
    m = draw_white("Disenchant Mirror", chars=cast(char))
    reveals = faction(char) == "Shadow" and char != "Unknown"
    assert m.question is None
    assert var(m, "revealed")[0] is reveals
    f, h, _ = CHARACTERS[char]
    assert m.messages_for(1)[1:] == ([f"P1 is {char} ({f}, {h} HP)"] if reveals else ["nothing happens"])


@pytest.mark.parametrize("char", BASE)
def test_disenchant_mirror_base_version(char):
    m = draw_white("Disenchant Mirror", chars=cast(char, base=True), base=True)
    assert var(m, "revealed")[0] is (char in ("Vampire", "Werewolf"))


def test_first_aid_sets_any_characters_damage_to_7():
    m = draw_white("First Aid", setup=lambda p: p.damage(1, 11).dead(3))
    assert m.question["prompt"] == "First Aid: whose damage becomes 7?"
    assert legal(m) == ["P1", "P2", "P3"]       # oneself too; not the dead
    play(m, "P2")
    assert var(m, "damage")[1] == 7
    assert m.messages_for(2)[-1] == "P2's damage is now 7"
    m = draw_white("First Aid")
    play(m, "P1")
    assert var(m, "damage")[0] == 7


def test_flare_of_judgement_deals_2_to_every_other_character():
    m = draw_white("Flare of Judgement", setup=lambda p: p.damage(0, 1).equipment(1, "Talisman")
                   .equipment(2, "Fortune Brooch").var("angel", 3, True))
    assert var(m, "damage") == [1, 2, 2, 2]      # no Talisman, Brooch or Angel protects


def test_flare_of_judgement_kills_together_and_the_drawer_loots_each():
    m = draw_white("Flare of Judgement", chars=("Emi", "Vampire", "George", "Werewolf", "Unknown"),
                   setup=lambda p: p.at("church", "cemetery", "woods", "woods", "gate").damage(1, 11).damage(3, 12)
                   .equipment(1, "Talisman", "Chainsaw").equipment(3, "Handgun"))
    assert var(m, "dead") == [False, True, False, True, False]
    assert m.question["prompt"] == "Which of P2's equipment cards do you take?"
    play(m, "Chainsaw")
    assert m.question["options"] == ["Handgun", "pass"]    # P4's one card: the drawer may take it
    play(m, "Handgun")
    assert m.question is None and m.outcome is None
    assert eq(m, 0) == ["Chainsaw", "Handgun"]
    assert discarded(m, "white") == ["Talisman", "Flare of Judgement"]


def test_fortune_brooch_is_equipment():
    m = draw_white("Fortune Brooch")
    assert eq(m, 0) == ["Fortune Brooch"] and discarded(m, "white") == []


def test_guardian_angel_protects_from_attacks_until_the_next_turn():
    m = draw_white("Guardian Angel")
    assert var(m, "angel") == [True, False, False, False]
    assert m.messages_for(1)[-1] == "P1 takes no damage from attacks until the start of their next turn"
    assert discarded(m, "white") == ["Guardian Angel"]
    # P2 attacks P1 in its turn: nothing; a card still hurts
    p = Position(["Emi", "Vampire", "George", "Werewolf"]).at("church", "cemetery", "woods", "woods")
    p.var("angel", 0, True).equipment(1, "Machine Gun").turn(1, "fight").rolls((6, 6), (4, 1))
    m = p.match()
    play(m, "attack everyone in range: P1")
    assert var(m, "damage") == [0, 0, 0, 0]
    m = draw_black("Bloodthirsty Spider", chars=("Vampire", "Emi", "George", "Werewolf"),
                   setup=lambda p: p.var("angel", 1, True))
    play(m, "P2")
    assert var(m, "damage")[:2] == [2, 2]


def test_the_players_line_words_a_protection_as_its_players():
    m = (Position(["Emi", "Vampire", "George", "Werewolf"]).var("angel", 0, True).var("barrier", 1, True)
         .var("cursed", 2, True).var("extra", 3, 1).match())
    rows = player_lines(shown(m.view(0), "Players"))
    assert rows[0] == "P1 (you): Emi (Hunter, 10 HP), hidden, protected by Guardian Angel (no damage from attacks)"
    assert rows[1:] == ["P2: hidden, protected by Ghostly Barrier (no damage)", "P3: hidden, cursed (no ability any more)",
                        "P4: hidden, 1 more turn to take"]


def test_holy_robe_is_equipment():
    m = draw_white("Holy Robe")
    assert eq(m, 0) == ["Holy Robe"]


def test_holy_water_of_healing_heals_2():
    m = draw_white("Holy Water of Healing", setup=lambda p: p.damage(0, 5))
    assert var(m, "damage")[0] == 3
    m = draw_white("Holy Water of Healing", setup=lambda p: p.damage(0, 1))
    assert var(m, "damage")[0] == 0
    assert m.messages_for(1) == ["P1 draws Holy Water of Healing", "P1 heals 1"]
    m = draw_white("Holy Water of Healing")     # (a rules check: at no damage, nothing was said)
    assert m.messages_for(1) == ["P1 draws Holy Water of Healing", "P1 has no damage to heal"]


@pytest.mark.parametrize("card", ["Mystic Compass", "Silver Rosary", "Spear of Longinus", "Talisman"])
def test_white_equipment_goes_in_front_of_its_drawer(card):
    m = draw_white(card)
    assert eq(m, 0) == [card]
    assert m.messages_for(3) == [f"P1 draws {card}", f"P1 takes {card}"]


def test_talisman_protects_from_spider_bat_and_dynamite_only():
    # Spider
    m = draw_black("Bloodthirsty Spider", setup=lambda p: p.equipment(1, "Talisman"))
    play(m, "P2")
    assert var(m, "damage")[:2] == [2, 0]
    m = draw_black("Bloodthirsty Spider", setup=lambda p: p.equipment(0, "Talisman"))
    play(m, "P2")
    assert var(m, "damage")[:2] == [0, 2]
    # Bat
    m = draw_black("Vampire Bat", setup=lambda p: p.equipment(1, "Talisman").damage(0, 2))
    play(m, "P2")
    assert var(m, "damage")[:2] == [1, 0]       # the drawer heals all the same
    # Dynamite: into the cemetery, where P1 (with the Talisman) and P2 stand
    m = draw_black("Dynamite", setup=lambda p: p.at("cemetery", "cemetery", "woods", "woods")
                   .equipment(0, "Talisman").rolls((6, 5), (4, 3)))
    assert var(m, "damage") == [0, 3, 0, 0]
    # not from the Spiritual Doll, Flare of Judgement or the Weird Woods
    m = draw_black("Spiritual Doll", setup=lambda p: p.equipment(1, "Talisman").rolls((6, 1)))
    play(m, "P2")
    assert var(m, "damage")[1] == 3
    # the protection is said, not silent
    m = draw_black("Vampire Bat", setup=lambda p: p.equipment(1, "Talisman"))
    play(m, "P2")
    assert var(m, "damage")[1] == 0
    assert "P2 takes no damage (Vampire Bat): an equipment card protects them" in m.messages_for(2)


# ---- black cards ------------------------------------------------------------------------------------

def test_banana_peel_without_equipment_1_damage():
    m = draw_black("Banana Peel")
    assert var(m, "damage") == [1, 0, 0, 0]
    assert m.messages_for(1) == ["P1 draws Banana Peel", "P1 takes 1 damage (Banana Peel)"]
    assert discarded(m, "black") == ["Banana Peel"]


def test_banana_peel_gives_one_of_ones_equipment_cards_to_another():
    m = draw_black("Banana Peel", setup=lambda p: p.equipment(0, "Talisman", "Chainsaw").dead(3))
    assert m.question["prompt"] == "Banana Peel: which of your equipment cards do you give away?"
    assert sorted(legal(m)) == ["Chainsaw", "Talisman"]
    play(m, "Chainsaw")
    assert m.question["prompt"] == "Banana Peel: who gets Chainsaw?"
    assert legal(m) == ["P2", "P3"]
    play(m, "P3")
    assert eq(m, 0) == ["Talisman"] and eq(m, 2) == ["Chainsaw"]
    assert var(m, "damage") == [0, 0, 0, 0]


def test_bloodthirsty_spider_2_damage_to_a_character_and_2_to_oneself():
    m = draw_black("Bloodthirsty Spider", setup=lambda p: p.dead(2))
    assert m.question["prompt"] == "Bloodthirsty Spider: who takes 2 damage (and you 2)?"
    assert legal(m) == ["P1", "P2", "P4"]                  # any character: the drawer too (not the dead)
    play(m, "P4")
    assert var(m, "damage") == [2, 0, 0, 2]
    m = draw_black("Bloodthirsty Spider", setup=lambda p: p.dead(2))
    play(m, "P1")                                          # on oneself: 2, and 2 more for using it
    assert var(m, "damage") == [4, 0, 0, 0]


def test_bloodthirsty_spider_killing_its_drawer_too_loots_nothing():
    m = draw_black("Bloodthirsty Spider", chars=("Emi", "Vampire", "George", "Werewolf", "Unknown"),
                   setup=lambda p: p.at("cemetery", "church", "woods", "woods", "gate").damage(0, 9).damage(1, 11)
                   .equipment(1, "Holy Robe", "Chainsaw"))
    play(m, "P2")
    assert var(m, "dead") == [True, True, False, False, False]
    assert m.question is None and m.outcome is None
    assert eq(m, 0) == [] and eq(m, 1) == []
    assert discarded(m, "white") == ["Holy Robe"] and discarded(m, "black") == ["Chainsaw", "Bloodthirsty Spider"]
    assert m.state()["current"] == 2 and m.state()["step"] == "start"     # P1 died: P3's turn (P2 is dead)


@pytest.mark.parametrize("card", ["Butcher Knife", "Chainsaw", "Rusted Broad Axe", "Cursed Sword Masamune",
                                  "Handgun", "Machine Gun"])
def test_black_equipment_goes_in_front_of_its_drawer(card):
    m = draw_black(card)
    assert eq(m, 0) == [card]
    assert discarded(m, "black") == []


@pytest.mark.parametrize("char", ALL)
def test_diabolic_ritual(char):
    m = draw_black("Diabolic Ritual", chars=cast(char), setup=lambda p: p.damage(0, 5))
    shadow = faction(char) == "Shadow"
    assert m.question["prompt"] == "Do you reveal yourself to heal all your damage?"
    assert legal(m) == (["reveal and heal all damage", "do nothing"] if shadow else ["do nothing"])
    play(m, legal(m)[0])
    assert var(m, "damage")[0] == (0 if shadow else 5)
    assert var(m, "revealed")[0] is shadow


def test_diabolic_ritual_gives_a_revealed_shadow_nothing():
    m = draw_black("Diabolic Ritual", chars=cast("Vampire"), setup=lambda p: p.damage(0, 5).reveal(0))
    assert m.question is None                         # (revealed: nothing to hide by asking)
    assert var(m, "damage")[0] == 5 and m.messages_for(1)[-1] == "P1: nothing happens"


def test_dynamite_3_damage_to_everyone_in_the_area_rolled_oneself_included():
    m = draw_black("Dynamite", setup=lambda p: p.at("cemetery", "woods", "woods", "altar").rolls((6, 6), (4, 3)))
    assert var(m, "damage") == [0, 3, 3, 0]
    assert m.messages_for(0)[1:] == ["P1 throws the Dynamite: 6 + 3 = 9, into the Weird Woods (9)",
                                     "P2 takes 3 damage (Dynamite)", "P3 takes 3 damage (Dynamite)"]
    m = draw_black("Dynamite", setup=lambda p: p.at("cemetery", "woods", "woods", "altar").rolls((6, 4), (4, 4)))
    assert var(m, "damage") == [3, 0, 0, 0]


def test_dynamite_a_seven_hits_nobody():
    m = draw_black("Dynamite", setup=lambda p: p.at("cemetery", "woods", "woods", "altar").rolls((6, 4), (4, 3)))
    assert var(m, "damage") == [0, 0, 0, 0]
    assert m.messages_for(0)[1:] == ["P1 throws the Dynamite: 4 + 3 = 7, nobody is hit"]


def test_dynamite_into_either_number_of_a_two_number_area():
    m = draw_black("Dynamite", setup=lambda p: p.at("cemetery", "cabin", "gate", "altar").rolls((6, 1), (4, 2)))
    assert var(m, "damage") == [0, 3, 0, 0]


def test_moody_goblin_takes_an_equipment_card_from_any_character():
    m = draw_black("Moody Goblin", setup=lambda p: p.equipment(1, "Talisman").equipment(3, "Chainsaw", "Handgun")
                   .equipment(0, "Holy Robe"))
    assert m.question["prompt"] == "Moody Goblin: whose equipment card do you take?"
    assert legal(m) == ["P2", "P4"]
    play(m, "P4")
    assert m.question["prompt"] == "Moody Goblin: which of P4's equipment cards do you take?"
    assert sorted(legal(m)) == ["Chainsaw", "Handgun"]
    play(m, "Handgun")
    assert eq(m, 0) == ["Handgun", "Holy Robe"] and eq(m, 3) == ["Chainsaw"]


def test_moody_goblin_with_no_equipment_anywhere_does_nothing():
    m = draw_black("Moody Goblin")
    assert m.question is None
    assert discarded(m, "black") == ["Moody Goblin"]
    assert m.messages_for(2)[-1] == "nobody else holds an equipment card: nothing happens"


@pytest.mark.parametrize("d,target,drawer", [(1, 3, 0), (4, 3, 0), (5, 0, 3), (6, 0, 3)])
def test_spiritual_doll(d, target, drawer):
    m = draw_black("Spiritual Doll", setup=lambda p: p.rolls((6, d)))
    assert m.question["prompt"] == "Spiritual Doll: whom do you curse?"
    assert legal(m) == ["P1", "P2", "P3", "P4"]            # a character: the user too
    said = m.rules_text(m.labels.index("Spiritual Doll"), 0)  # (its text said "another character")
    assert "Pick a character (you too)" in said and "another" not in said
    play(m, "P3")
    assert var(m, "damage") == [drawer, 0, target, 0]
    # the roll's rule is said before its damage
    said = ("1 to 4: the doll strikes P3" if d <= 4 else "5 or 6: the doll turns on its user, P1")
    hurt = "P3" if d <= 4 else "P1"
    assert m.messages_for(1)[-3:] == [f"P1 rolls a d6: {d}", said, f"{hurt} takes 3 damage (Spiritual Doll)"]


def test_vampire_bat_2_damage_and_the_drawer_heals_1():
    m = draw_black("Vampire Bat", setup=lambda p: p.damage(0, 3))
    assert m.question["prompt"] == "Vampire Bat: who takes 2 damage (you heal 1)?"
    assert legal(m) == ["P1", "P2", "P3", "P4"]            # any character: the drawer too
    said = m.rules_text(m.labels.index("Vampire Bat"), 0)     # (its text said "another character")
    assert "any character (you too)" in said and "another" not in said
    play(m, "P2")
    assert var(m, "damage")[:2] == [2, 2]


def test_a_black_card_kill_is_credited_to_the_drawer():
    m = draw_black("Vampire Bat", setup=lambda p: p.damage(1, 12).equipment(1, "Talisman", "Chainsaw").equipment(
        0, "Silver Rosary"))
    play(m, "P2")        # (Talisman: no damage from the Bat)
    assert var(m, "dead")[1] is False
    m = draw_black("Spiritual Doll", setup=lambda p: p.damage(1, 11).equipment(1, "Talisman", "Chainsaw")
                   .equipment(0, "Silver Rosary").rolls((6, 2)))
    play(m, "P2")
    assert var(m, "dead")[1] is True
    assert eq(m, 0) == ["Chainsaw", "Silver Rosary", "Talisman"]


# ---- hermit cards: the procedure ---------------------------------------------------------------------

def give(card, receiver_char, *, base=False, setup=None, giver_char=None):
    """P1 draws `card` in the Hermit's Cabin and gives it to P2 (receiver_char)."""
    giver_char = giver_char or next(c for c in ("George", "Franklin", "Emi") if c != receiver_char)
    chars = cast(giver_char, receiver_char, base=base)
    p = pos(chars, base).at("cabin", "church", "woods", "woods").deck("hermit", card).turn(0, "area")
    if setup:
        setup(p)
    m = p.match()
    play(m, "draw a hermit card")
    assert m.question["chooser"] == 0 and m.question["prompt"] == "Who do you give the hermit card to?"
    play(m, "P2")
    return m


def expected_answers(card, char, base):
    applies = HERMIT[card][0](char, base)
    if char == "Unknown":
        return ["it applies", "nothing happens"]
    return ["it applies"] if applies else ["nothing happens"]


CASES_ALL = [(card, char) for card in HERMIT for char in ALL]
CASES_BASE = [(card, char) for card in HERMIT for char in BASE]


@pytest.mark.parametrize("card,char", CASES_ALL)
def test_hermit_receiver_is_always_asked_and_may_answer_truthfully_only(card, char):
    m = give(card, char)
    q = m.question
    assert q["chooser"] == 1 and q["kind"] == "one" and q["prompt"] == "P1 gave you a hermit card: does it apply to you?"
    assert q["options"] == expected_answers(card, char, False)
    assert legal(m) == q["options"]
    # the others see that P2 is choosing, not what; the giver and the receiver, who see the card,
    # are told the question is about it (`about h`: a browser trial's phone showed no card by it)
    for p in (0, 2, 3):
        assert m.view(p)["choice"] == {"chooser": 1, "prompt": "P1 gave you a hermit card: does it apply to you?", "kind": "one",
                                       "options": None, "running": [],
                                       **({"asker": m.view(1)["choice"]["asker"]} if p == 0 else {})}
    assert m.view(1)["choice"]["asker"]["label"] == card


@pytest.mark.parametrize("card,char", CASES_BASE)
def test_hermit_base_versions(card, char):
    m = give(card, char, base=True)
    assert m.question["options"] == expected_answers(card, char, True)


@pytest.mark.parametrize("card,char,answer", [("Hermit's Bully", "Agnes", "it applies"),
                                              ("Hermit's Tough Lesson", "Gregor", "it applies")])
def test_expansion_hermit_versions_with_only_expansion_characters(card, char, answer):
    chars = ["Fu-ka", char, "Valkyrie", "Wight"] if char != "Fu-ka" else ["Ellen", char, "Valkyrie", "Wight"]
    p = Position(chars, options={"characters": "expansion"}).at("cabin", "church", "woods", "woods")
    m = p.deck("hermit", card).turn(0, "area").match()
    play(m, "draw a hermit card", "P2")
    assert legal(m) == [answer]


def test_expansion_chocolate_with_only_expansion_characters():
    p = Position(["Ultra Soul", "Gregor", "Valkyrie", "Fu-ka"], options={"characters": "expansion"})
    m = p.at("church", "cemetery", "woods", "woods").deck("white", "Chocolate").damage(0, 4).turn(0, "area").match()
    play(m, "draw a white card")
    assert legal(m) == ["reveal and heal all damage", "do nothing"]


def test_with_one_other_living_player_the_card_goes_to_them_without_a_question():
    p = Position(["George", "Vampire", "Emi", "Werewolf"]).at("cabin", "church", "woods", "woods")
    m = p.dead(2, 3).deck("hermit", "Hermit's Spell").turn(0, "area").match()
    play(m, "draw a hermit card")
    assert m.question["chooser"] == 1 and m.question["prompt"] == "P1 gave you a hermit card: does it apply to you?"
    assert m.messages_for(2) == ["P1 draws a hermit card", "P1 gives a hermit card to P2"]


def test_the_drawer_gives_to_another_living_player():
    p = Position(["George", "Vampire", "Emi", "Werewolf", "Allie"]).at("cabin", "church", "woods", "woods", "gate")
    m = p.dead(2).deck("hermit", "Hermit's Slap").turn(0, "area").match()
    play(m, "draw a hermit card")
    assert legal(m) == ["P2", "P4", "P5"]


def test_hermit_card_messages_name_it_only_to_giver_and_receiver():
    m = give("Hermit's Slap", "Emi")
    play(m, "it applies")
    assert m.messages_for(0) == ["you draw Hermit's Slap", "P1 draws a hermit card", "P1 gives a hermit card to P2",
                                 "P2 takes 1 damage (hermit card)"]
    assert m.messages_for(1) == ["P1 draws a hermit card", "P1 gives you Hermit's Slap: If you are a Hunter: take 1 damage. Otherwise nothing happens.",
                                 "P1 gives a hermit card to P2", "P2 takes 1 damage (hermit card)"]
    for p in (2, 3):
        assert m.messages_for(p) == ["P1 draws a hermit card", "P1 gives a hermit card to P2",
                                     "P2 takes 1 damage (hermit card)"]
        assert "Hermit's Slap" not in json.dumps(m.view(p))


def test_the_hermit_card_is_seen_by_giver_and_receiver_while_it_resolves():
    m = give("Hermit's Slap", "Emi")
    for p, sees in ((0, True), (1, True), (2, False), (3, False)):
        assert ("Hermit's Slap" in json.dumps(m.view(p))) is sees, p


def test_the_hermit_card_is_discarded_unseen():
    m = give("Hermit's Slap", "Emi")
    n = len(zones(m)["hermit_deck"])
    # while it is given it is not counted in the deck (a first-hour trial read the full count)
    decks = shown(m.view(2), "Decks")
    assert f", hermit {n - 1} cards (used hermit cards: 0, face down); a hermit card is being given" in decks
    play(m, "it applies")
    assert labels(m, zones(m)["hermit_discard"]) == ["Hermit's Slap"]
    assert len(zones(m)["hermit_deck"]) == n - 1
    for p in range(4):
        v = m.view(p)
        [pile] = [z for z in v["zones"] if z["name"] == "hermit_discard"]     # hidden: its size only
        assert pile["cards"] is None and pile["count"] == 1 and pile.get("internal")
        assert "hermit_discard" not in [z["name"] for z in rulelang.without_internal(v)["zones"]]   # (the screen: in words)
        assert shown(v, "Decks").endswith("(used hermit cards: 1, face down)")
        assert "Hermit's Slap" not in json.dumps(v)
    assert m.state()["step"] == "fight"


def test_a_game_that_ends_while_a_hermit_card_is_answered_shows_it_used():
    """A rules audit: Hermit's Exorcism killed the last Shadow, and the game-over screen still said
    "a hermit card is being given" and showed the giver and receiver the card as in hand."""
    m = (Position(["Emi", "Vampire", "Werewolf", "George", "Allie"]).at("cabin", "gate", "church", "woods", "altar")
         .dead(2).damage(1, 12).turn(0, "area").deck("hermit", "Hermit's Exorcism").match())
    n = len(zones(m)["hermit_deck"])
    play(m, "draw a hermit card", "P2", "it applies")
    assert m.is_over and var(m, "dead")[1]
    assert labels(m, zones(m)["hermit_discard"]) == ["Hermit's Exorcism"] and len(zones(m)["hermit_deck"]) == n - 1
    for p in range(5):
        decks = shown(m.view(p), "Decks")
        assert "being given" not in decks and decks.endswith("(used hermit cards: 1, face down)"), decks
        assert "Hermit's Exorcism" not in json.dumps(shown(m.view(p), "You"))


def test_nothing_happens_is_announced():
    m = give("Hermit's Slap", "Vampire")
    play(m, "nothing happens")
    assert var(m, "damage") == [0, 0, 0, 0]
    assert m.messages_for(3)[-1] == "P2: nothing happens"


@pytest.mark.parametrize("card,amount", [("Hermit's Bully", 1), ("Hermit's Exorcism", 2), ("Hermit's Slap", 1),
                                         ("Hermit's Spell", 1), ("Hermit's Tough Lesson", 2)])
def test_hermit_damage_cards(card, amount):
    char = {"Hermit's Bully": "Charles", "Hermit's Exorcism": "Vampire", "Hermit's Slap": "Emi",
            "Hermit's Spell": "Vampire", "Hermit's Tough Lesson": "Franklin"}[card]
    m = give(card, char, setup=lambda p: p.damage(1, 1))
    play(m, "it applies")
    assert var(m, "damage")[1] == 1 + amount
    assert m.messages_for(2)[-1] == f"P2 takes {amount} damage (hermit card)"


@pytest.mark.parametrize("card,char", [("Hermit's Aid", "Emi"), ("Hermit's Huddle", "Vampire"),
                                       ("Hermit's Nurturance", "Allie")])
def test_heal_or_hurt_heals_1(card, char):
    m = give(card, char, setup=lambda p: p.damage(1, 3))
    play(m, "it applies")
    assert var(m, "damage")[1] == 2


@pytest.mark.parametrize("card,char", [("Hermit's Aid", "Emi"), ("Hermit's Huddle", "Vampire"),
                                       ("Hermit's Nurturance", "Allie")])
def test_heal_or_hurt_at_0_damage_hurts_1(card, char):
    m = give(card, char)
    play(m, "it applies")
    assert var(m, "damage")[1] == 1
    assert m.messages_for(3)[-1] == "P2 takes 1 damage (hermit card)"


@pytest.mark.parametrize("card,char", [("Hermit's Anger", "Vampire"), ("Hermit's Blackmail", "Allie"),
                                       ("Hermit's Greed", "Bob")])
def test_give_or_hurt_without_equipment_hurts_1(card, char):
    m = give(card, char)
    play(m, "it applies")
    assert m.question is None
    assert var(m, "damage")[1] == 1


@pytest.mark.parametrize("card,char", [("Hermit's Anger", "Emi"), ("Hermit's Blackmail", "Emi"),
                                       ("Hermit's Greed", "Vampire")])
def test_give_or_hurt_gives_an_equipment_card_to_the_giver(card, char):
    m = give(card, char, setup=lambda p: p.equipment(1, "Talisman", "Chainsaw"))
    play(m, "it applies")
    q = m.question
    assert q["chooser"] == 1 and q["prompt"] == "The hermit card applies to you: what happens?"
    assert legal(m) == ["give Talisman to P1", "give Chainsaw to P1", "take 1 damage"]
    play(m, "give Chainsaw to P1")
    assert eq(m, 0) == ["Chainsaw"] and eq(m, 1) == ["Talisman"]
    assert var(m, "damage")[1] == 0
    assert m.messages_for(2)[-1] == "P2 gives Chainsaw to P1"


def test_give_or_hurt_may_take_the_damage_instead():
    m = give("Hermit's Anger", "Emi", setup=lambda p: p.equipment(1, "Talisman"))
    play(m, "it applies", "take 1 damage")
    assert eq(m, 1) == ["Talisman"] and var(m, "damage")[1] == 1


# (character, hermit card that applies to it, damage it deals, may the receiver give instead)
HERMIT_DAMAGE = [("Emi", "Hermit's Anger", 1, True), ("Emi", "Hermit's Blackmail", 1, True),
                 ("Vampire", "Hermit's Greed", 1, True), ("Emi", "Hermit's Slap", 1, False),
                 ("Vampire", "Hermit's Spell", 1, False), ("Charles", "Hermit's Bully", 1, False),
                 ("Vampire", "Hermit's Exorcism", 2, False), ("Franklin", "Hermit's Tough Lesson", 2, False),
                 ("Emi", "Hermit's Aid", 1, False), ("Vampire", "Hermit's Huddle", 1, False),
                 ("Allie", "Hermit's Nurturance", 1, False)]


@pytest.mark.parametrize("char,card,amount,may_give", HERMIT_DAMAGE)
def test_a_receiver_holding_equipment_is_asked_alike_by_every_hermit_card_that_hurts(char, card, amount, may_give):
    """H13, a rules audit: only Anger, Blackmail and Greed asked a receiver who holds equipment, so
    the table, seeing a question before the damage, knew which kind of card it was."""
    m = give(card, char, setup=lambda p: p.equipment(1, "Talisman"))
    seen_before = [len(m.messages_for(p)) for p in range(4)]
    play(m, "it applies")
    assert m.question["chooser"] == 1
    for p in (0, 2, 3):
        assert m.view(p)["choice"]["prompt"] == "The hermit card applies to you: what happens?"
        assert m.view(p)["choice"]["options"] is None
    assert legal(m) == (["give Talisman to P1"] if may_give else []) + [f"take {amount} damage"]
    play(m, f"take {amount} damage")
    assert var(m, "damage")[1] == amount and eq(m, 1) == ["Talisman"]
    for p in (2, 3):
        assert m.messages_for(p)[seen_before[p]:] == ["P2 takes " + str(amount) + " damage (hermit card)"]


def test_prediction_shows_the_receivers_character_to_the_giver_only():
    m = give("Hermit's Prediction", "Allie")
    play(m, "it applies")

    allie = zones(m)["character"][1][0]

    def known(p):
        return allie in m.visible_to(p), player_lines(shown(m.view(p), "Players"))[1]
    assert known(0) == (True, "P2: Allie (Neutral, 8 HP), hidden, shown to you")
    assert known(2) == (False, "P2: hidden") and known(3) == (False, "P2: hidden")
    assert "Allie" not in json.dumps(m.view(2)) and "Allie" not in json.dumps(m.view(3))
    assert m.messages_for(0)[-2:] == ["P2 shows you the character card: Allie", "P2 shows P1 the character card"]
    assert m.messages_for(2)[-1] == "P2 shows P1 the character card"
    assert "Allie" not in " ".join(m.messages_for(2) + m.messages_for(3))
    assert var(m, "revealed") == [False, False, False, False]
    # still known to the giver in later turns
    play(m, "pass", "end turn")
    assert known(0) == (True, "P2: Allie (Neutral, 8 HP), hidden, shown to you")


def test_unknown_may_lie_nothing_happens_on_a_card_that_applies():
    m = give("Hermit's Exorcism", "Unknown", setup=lambda p: p.damage(1, 3))
    play(m, "nothing happens")
    assert var(m, "damage")[1] == 3
    assert m.messages_for(2)[-1] == "P2: nothing happens"


def test_unknown_may_act_on_a_card_that_does_not_apply():
    m = give("Hermit's Slap", "Unknown")
    play(m, "it applies")
    assert var(m, "damage")[1] == 1


def test_unknown_may_refuse_the_prediction():
    m = give("Hermit's Prediction", "Unknown")
    play(m, "nothing happens")
    assert "Unknown" not in json.dumps(m.view(0)) and m.messages_for(0)[-1] == "P2: nothing happens"


def test_a_cursed_unknown_must_answer_truthfully():
    m = give("Hermit's Exorcism", "Unknown", setup=lambda p: p.var("cursed", 1, True))
    assert m.question["options"] == ["it applies"]
    m = give("Hermit's Slap", "Unknown", setup=lambda p: p.var("cursed", 1, True))
    assert m.question["options"] == ["nothing happens"]


def test_a_hermit_card_kill_is_credited_to_the_giver():
    m = give("Hermit's Exorcism", "Vampire", setup=lambda p: p.damage(1, 11).equipment(1, "Talisman", "Chainsaw"))
    play(m, "it applies", "take 2 damage")      # (asked: the receiver holds equipment)
    assert var(m, "dead")[1] is True
    assert m.question["chooser"] == 0 and m.question["prompt"] == "Which of P2's equipment cards do you take?"
    play(m, "Talisman")
    assert eq(m, 0) == ["Talisman"]


def test_a_hermit_card_from_the_underworld_gate_works_the_same():
    p = Position(["George", "Emi", "Vampire", "Werewolf"]).at("gate", "church", "woods", "woods")
    m = p.deck("hermit", "Hermit's Slap").turn(0, "area").match()
    play(m, "draw a hermit card", "P2")
    assert m.question["options"] == ["it applies"] and m.question["chooser"] == 1
    play(m, "it applies")
    assert var(m, "damage")[1] == 1


def test_a_revealed_shadow_shown_the_disenchant_mirror_is_told_so():
    """A rules audit: every other reader of the mirror got a line ("nothing happens", or the reveal);
    a Vampire already revealed got none."""
    m = (Position(["Vampire", "Emi", "Werewolf", "George"]).at("church", "gate", "woods", "woods").reveal(0)
         .deck("white", "Disenchant Mirror").turn(0, "area").match())
    play(m, "draw a white card")
    assert m.messages_for(1)[-1] == "P1 is revealed already"


def test_drawing_from_an_empty_deck_and_discard_pile_is_said():
    """A differential run: with the white deck and its discard pile both empty (every white card an
    equipment card in play, the rest out of the game), `draw a white card` did nothing, unsaid."""
    p = Position(["Franklin", "Allie", "Vampire", "George", "Werewolf"]).at("church", "altar", "church", "gate", "woods")
    z, comps = p.st["zones"], p.st["components"]
    whites = list(z["white_deck"])
    z["white_deck"], z["white_discard"] = [], []
    z["equipment"][1] = [c for c in whites if comps[c]["fields"]["equipment"]]
    z["pool"] = z["pool"] + [c for c in whites if not comps[c]["fields"]["equipment"]]
    m = p.turn(0, "area").match()
    play(m, "draw a white card")
    assert m.message_log()[-1]["text"] == "the white deck and its discard pile are empty: P1 draws nothing"
