"""The 20 characters of Shadow Hunters: every ability (H9, H10), the reveal it needs, its "once per
game" mark, and every win condition (H12), from exact positions with stacked dice.

Default layout pairs: (cabin, gate), (church, cemetery), (woods, altar). Seats are 0-based (P1 = 0).
Positions keep at least one living Shadow and one living Hunter unless a test ends the game."""
from __future__ import annotations

import pytest

from sh_helpers import Position, labels, legal, play, player_lines, shown, var, winners, zones


def step(m) -> str:
    return m.state()["step"]


def current(m) -> int:
    return m.state()["current"]


def interrupts(m, p) -> list[str]:
    return [a.text for a in m.interrupts(p)]


def equipment(m, p) -> list[str]:
    return sorted(labels(m, zones(m)["equipment"][p]))


# ======================================= Shadows ==================================================
# ---- Unknown: Deceit ------------------------------------------------------------------------------
def _hermit_to_p2(chars, card, **extra):
    pos = (Position(chars).at("cabin", "gate", "church", "woods").damage(1, 2)
           .turn(0, "area").deck("hermit", card))
    for name, (p, value) in extra.items():
        pos.var(name, p, value)
    m = pos.match()
    play(m, "draw a hermit card", "P2")
    return m


def test_unknown_hidden_may_lie_about_a_card_that_does_not_apply():
    # Hermit's Slap applies to Hunters: Unknown may still claim it does, and take the 1 damage
    m = _hermit_to_p2(["Emi", "Unknown", "Vampire", "George"], "Hermit's Slap")
    assert m.question["chooser"] == 1
    assert legal(m) == ["it applies", "nothing happens"]
    play(m, "it applies")
    assert var(m, "damage") == [0, 3, 0, 0]
    assert var(m, "revealed") == [False, False, False, False]


def test_unknown_may_deny_a_card_that_applies():
    m = _hermit_to_p2(["Emi", "Unknown", "Vampire", "George"], "Hermit's Spell")
    assert legal(m) == ["it applies", "nothing happens"]
    play(m, "nothing happens")
    assert var(m, "damage") == [0, 2, 0, 0]
    assert m.messages_for(2)[-1] == "P2: nothing happens"


def test_other_shadows_must_answer_truthfully():
    m = _hermit_to_p2(["Emi", "Werewolf", "Vampire", "George"], "Hermit's Spell")
    assert legal(m) == ["it applies"]


def test_cursed_unknown_can_no_longer_lie():
    m = _hermit_to_p2(["Emi", "Unknown", "Vampire", "George"], "Hermit's Spell", cursed=(1, True))
    assert legal(m) == ["it applies"]
    play(m, "it applies")
    assert var(m, "damage") == [0, 3, 0, 0]


# ---- Vampire: Suck Blood --------------------------------------------------------------------------
def _vampire_attacks(revealed=True, cursed=False, rolls=((6, 4), (4, 1))):
    pos = (Position(["Vampire", "Emi", "Werewolf", "George"]).at("cabin", "gate", "church", "woods")
           .damage(0, 5).turn(0, "fight").rolls(*rolls))
    if revealed:
        pos.reveal(0)
    if cursed:
        pos.var("cursed", 0, True)
    m = pos.match()
    play(m, "attack P2")
    return m


def test_vampire_revealed_heals_two_after_dealing_damage():
    m = _vampire_attacks()
    assert var(m, "damage") == [3, 3, 0, 0]
    assert m.messages_for(3)[-1] == "P1 heals 2"


def test_vampire_with_a_machine_gun_heals_two_once_per_attack():
    # P1 (Vampire, 5 damage) hits P2 and P3 in the cabin/gate pair with one roll of 3
    m = (Position(["Vampire", "Emi", "Werewolf", "George"]).at("cabin", "gate", "cabin", "woods")
         .damage(0, 5).reveal(0).equipment(0, "Machine Gun").turn(0, "fight").rolls((6, 4), (4, 1)).match())
    play(m, "attack everyone in range: P2 P3")
    assert m.question is None                              # one trigger: nothing to order
    assert var(m, "damage") == [3, 3, 3, 0]


def test_a_barrier_stops_a_set_damage_that_would_raise_it_but_not_one_that_lowers_it():
    pos = (Position(["Fu-ka", "Gregor", "Vampire", "Werewolf"]).at("cabin", "gate", "church", "woods")
           .reveal(0, 1).var("barrier", 1, True).turn(0, "start"))
    m = pos.damage(1, 2).match()
    play(m, "begin", "P2")
    assert var(m, "damage")[1] == 2 and var(m, "used")[0]
    assert m.messages_for(2)[-1] == "P2's damage stays 2 (Ghostly Barrier)"    # (it said nothing)
    m = (Position(["Fu-ka", "Gregor", "Vampire", "Werewolf"]).at("cabin", "gate", "church", "woods")
         .reveal(0, 1).var("barrier", 1, True).damage(1, 10).turn(0, "start").match())
    play(m, "begin", "P2")
    assert var(m, "damage")[1] == 7


def test_vampire_hidden_does_not_heal():
    m = _vampire_attacks(revealed=False)
    assert var(m, "damage") == [5, 3, 0, 0]
    assert "P1 heals 2" not in m.messages_for(0)


def test_vampire_cursed_does_not_heal():
    m = _vampire_attacks(cursed=True)
    assert var(m, "damage") == [5, 3, 0, 0]


def test_vampire_heals_nothing_on_a_miss():
    m = _vampire_attacks(rolls=((6, 1), (4, 1)))
    assert var(m, "damage") == [5, 0, 0, 0]


def _reveal_now(m, seat):
    m.apply(next(a for a in m.interrupts(seat) if a.text.endswith("reveal")))


def test_an_attacker_revealed_during_its_own_attack_uses_no_ability_of_that_attack():
    """An audit: a hidden attacker that revealed while its attack asked something (the target's
    reveal, a loot) had the Vampire's heal after a kill and Charles's Bloody Feast against a hidden
    target, but neither when nothing was asked — a window that depended on the target. What a
    character does with its own attack needs it revealed before it attacks (games/shadow_hunters.md)."""
    # Charles, hidden, hits hidden Emi: he reveals while Emi is asked whether she reveals
    m = (Position(["Charles", "Emi", "Allie", "Vampire", "George"]).at("church", "cemetery", "woods", "altar", "cabin")
         .turn(0, "fight").rolls((6, 5), (4, 1)).match())
    m.apply("attack P2")
    _reveal_now(m, 0)
    m.apply("stay hidden")
    assert var(m, "revealed")[0] and not (m.question and "Bloody Feast" in m.question["prompt"])
    # the Vampire, hidden (5 damage), kills Emi, who holds a Talisman: he reveals during the loot
    m = (Position(["Vampire", "Emi", "Allie", "Bob", "George"]).at("church", "cemetery", "woods", "altar", "cabin")
         .damage(0, 5).damage(1, 8).equipment(1, "Talisman").turn(0, "fight").rolls((6, 5), (4, 1)).match())
    m.apply("attack P2")
    _reveal_now(m, 0)
    m.apply("pass")
    assert var(m, "revealed")[0] and var(m, "damage")[0] == 5
    # revealed before the attack, both still work
    m = (Position(["Charles", "Emi", "Allie", "Vampire", "George"]).at("church", "cemetery", "woods", "altar", "cabin")
         .reveal(0).turn(0, "fight").rolls((6, 5), (4, 1)).match())
    m.apply("attack P2")
    m.apply("stay hidden")
    assert m.question and "Bloody Feast" in m.question["prompt"]


# ---- Werewolf: Counterattack ----------------------------------------------------------------------
def _attack_werewolf(revealed=True, wolf_damage=0, rolls=((6, 5), (4, 1), (6, 4), (4, 1))):
    pos = (Position(["Emi", "Werewolf", "Vampire", "George"]).at("cabin", "gate", "church", "woods")
           .damage(1, wolf_damage).turn(0, "fight").rolls(*rolls))
    if revealed:
        pos.reveal(1)
    m = pos.match()
    play(m, "attack P2")
    return m


def test_werewolf_counterattacks_its_attacker():
    m = _attack_werewolf()
    assert m.question["chooser"] == 1 and m.question["prompt"] == "Counterattack: attack P1?"
    play(m, "yes")
    assert var(m, "damage") == [3, 4, 0, 0]
    assert current(m) == 0


def test_werewolf_counterattack_may_miss():
    m = _attack_werewolf(rolls=((6, 5), (4, 1), (6, 2), (4, 2)))
    play(m, "yes")
    assert var(m, "damage") == [0, 4, 0, 0]


def test_werewolf_killed_by_the_attack_does_not_counterattack():
    m = _attack_werewolf(wolf_damage=11)
    assert m.question is None
    assert var(m, "dead") == [False, True, False, False]


def test_werewolf_hidden_does_not_counterattack():
    m = _attack_werewolf(revealed=False)
    assert m.question is None
    assert var(m, "damage") == [0, 4, 0, 0]


def test_werewolf_is_offered_the_counterattack_after_a_miss_too():
    m = _attack_werewolf(rolls=((6, 3), (4, 3), (6, 4), (4, 1)))
    assert legal(m) == ["yes", "no"]
    play(m, "yes")
    assert var(m, "damage") == [3, 0, 0, 0]


def test_dead_werewolf_does_not_counterattack():
    # Charles attacks the Werewolf (10 + 3 = 13 of 14); both triggers wait; Charles resolves his
    # Bloody Feast first and kills the Werewolf (2 more). A dead character leaves the game (H8):
    # it may no longer counterattack.
    m = (Position(["Charles", "Werewolf", "Vampire", "Emi", "George"]).at("cabin", "gate", "church", "woods", "altar")
         .reveal(0, 1).damage(1, 10).turn(0, "fight").rolls((6, 4), (4, 1), (6, 3), (4, 1), (6, 6), (4, 1)).match())
    play(m, "attack P2", "Charles: Bloody Feast", "yes")
    assert var(m, "dead") == [False, True, False, False, False]
    assert var(m, "damage") == [2, 14, 0, 0, 0]
    assert m.question is None                       # the Werewolf is not asked (it would hit 6-1)
    assert var(m, "damage") == [2, 14, 0, 0, 0]


def test_werewolf_does_not_counterattack_a_dead_attacker():
    # Charles (9 of 11) attacks the Werewolf, resolves his Bloody Feast first and dies of it
    m = (Position(["Charles", "Werewolf", "Vampire", "Emi", "George"]).at("cabin", "gate", "church", "woods", "altar")
         .reveal(0, 1).damage(0, 9).turn(0, "fight").rolls((6, 4), (4, 1), (6, 6), (4, 1)).match())
    play(m, "attack P2", "Charles: Bloody Feast", "yes")
    assert var(m, "dead") == [True, False, False, False, False]
    assert m.question is None                       # nobody left to counterattack
    assert (current(m), step(m)) == (1, "move")


def test_a_dead_player_is_not_asked_which_ability_resolves_first():
    # Charles (9 of 11) hits the Werewolf and Emi with the Machine Gun: three triggers wait (his Bloody
    # Feast on each, the Counterattack). He resolves the Feast on Emi first and dies of it (H8: he leaves
    # the game); the two left were asked of him, dead (a fidelity audit) — the next living player orders them.
    m = (Position(["Werewolf", "Emi", "Vampire", "Charles", "George"]).at("cabin", "gate", "woods", "cabin", "altar")
         .reveal(0, 3).damage(3, 9).equipment(3, "Machine Gun").turn(3, "fight").rolls((6, 6), (4, 1)).match())
    play(m, "attack everyone in range: P1 P2")
    assert m.question["chooser"] == 3 and "Charles: Bloody Feast (P2)" in legal(m)
    play(m, "Charles: Bloody Feast (P2)", "yes")
    assert var(m, "dead") == [False, False, False, True, False]
    assert m.question is None or m.question["chooser"] == 4, (m.question, legal(m))


def test_dead_charles_is_not_offered_bloody_feast():
    # Charles (8 of 11) attacks the Werewolf; the Werewolf's counterattack resolves first and kills him
    m = (Position(["Charles", "Werewolf", "Vampire", "Emi", "George"]).at("cabin", "gate", "church", "woods", "altar")
         .reveal(0, 1).damage(0, 8).turn(0, "fight").rolls((6, 4), (4, 1), (6, 4), (4, 1)).match())
    play(m, "attack P2", "Werewolf: Counterattack", "yes")
    assert var(m, "dead") == [True, False, False, False, False]
    assert m.question is None


# ---- Ultra Soul: Murder Ray -----------------------------------------------------------------------
def test_ultra_soul_murder_ray_hits_one_character_in_the_gate_every_turn():
    m = (Position(["Ultra Soul", "Emi", "Vampire", "George"]).at("church", "gate", "woods", "gate")
         .reveal(0).var("extra", 0, 1).turn(0, "start").rolls((6, 1), (4, 1)).match())
    play(m, "begin")
    assert m.question["prompt"] == "Murder Ray: who in the Underworld Gate takes 3 damage?"
    assert legal(m) == ["P2", "P4", "pass"]
    play(m, "P4")
    assert var(m, "damage") == [0, 0, 0, 3]
    assert m.messages_for(1)[-1] == "P4 takes 3 damage (Murder Ray)"
    # the rest of the turn (to the Cabin, nothing else), then the extra turn: the ray again
    play(m, "roll", "skip", "pass")
    assert current(m) == 0 and m.question is not None
    assert legal(m) == ["P2", "P4", "pass"]
    play(m, "P2")
    assert var(m, "damage") == [0, 3, 0, 3]


def test_ultra_soul_in_the_gate_is_one_character_the_ray_may_hit():
    """"One character in the Underworld Gate": Ultra Soul there herself is one (SH audit: she was
    left out)."""
    m = (Position(["Ultra Soul", "Emi", "Vampire", "George"]).at("gate", "gate", "woods", "altar")
         .reveal(0).turn(0, "start").match())
    play(m, "begin")
    assert legal(m) == ["P1", "P2", "pass"]


def test_ultra_soul_hidden_has_no_murder_ray():
    m = (Position(["Ultra Soul", "Emi", "Vampire", "George"]).at("church", "gate", "woods", "gate")
         .turn(0, "start").match())
    play(m, "begin")
    assert m.question is None
    assert legal(m) == ["roll", "reveal"]


def test_ultra_soul_may_reveal_at_the_start_and_then_fire():
    m = (Position(["Ultra Soul", "Emi", "Vampire", "George"]).at("church", "gate", "woods", "cabin")
         .turn(0, "start").match())
    play(m, "reveal", "begin")
    assert legal(m) == ["P2", "pass"]


# ---- Valkyrie: Horn of War Outbreak ---------------------------------------------------------------
def test_valkyrie_revealed_rolls_only_the_d4():
    m = (Position(["Valkyrie", "Emi", "Vampire", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(0).turn(0, "fight").rolls((4, 3)).match())
    play(m, "attack P2")
    assert var(m, "damage") == [0, 3, 0, 0]
    assert m.messages_for(2)[-2:] == ["P1 attacks P2: d4 3", "P2 takes 3 damage"]


def test_valkyrie_hidden_rolls_both_dice_and_may_miss():
    m = (Position(["Valkyrie", "Emi", "Vampire", "George"]).at("cabin", "gate", "church", "woods")
         .turn(0, "fight").rolls((6, 3), (4, 3)).match())
    play(m, "attack P2")
    assert var(m, "damage") == [0, 0, 0, 0]
    assert m.messages_for(2)[-1] == "P1 attacks P2: d6 3, d4 3: a miss"


def test_valkyrie_cursed_rolls_both_dice():
    m = (Position(["Valkyrie", "Emi", "Vampire", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(0).var("cursed", 0, True).turn(0, "fight").rolls((6, 6), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "damage") == [0, 5, 0, 0]


# ---- Wight: Multiplication ------------------------------------------------------------------------
def test_wight_takes_as_many_extra_turns_as_dead_characters_once():
    m = (Position(["Wight", "Emi", "Vampire", "George", "Allie", "Bob"])
         .at("church", "gate", None, None, "woods", "altar").dead(2, 3).reveal(0).turn(0, "end")
         .rolls((6, 1), (4, 1), (6, 2), (4, 2)).match())
    play(m, "end turn")
    assert m.question["prompt"] == "Multiplication: take 2 extra turns (once per game)?"
    play(m, "yes")
    assert var(m, "used")[0] is True
    assert current(m) == 0 and step(m) == "move"    # extra turn 1
    play(m, "roll", "skip", "pass")                  # to the Cabin; no second offer at its end
    assert current(m) == 0 and step(m) == "move"    # extra turn 2
    assert m.question is None
    play(m, "roll", "skip", "pass")                  # to the Gate
    assert current(m) == 1                           # then Emi
    assert var(m, "extra") == [0] * 6


def test_wight_declining_keeps_the_turn_order():
    m = (Position(["Wight", "Emi", "Vampire", "George", "Allie", "Bob"])
         .at("church", "gate", None, None, "woods", "altar").dead(2, 3).reveal(0).turn(0, "end").match())
    play(m, "end turn", "no")
    assert current(m) == 1
    assert var(m, "used")[0] is False


def test_wight_without_dead_characters_is_not_asked():
    m = (Position(["Wight", "Emi", "Vampire", "George"]).at("church", "gate", "woods", "altar")
         .reveal(0).turn(0, "end").match())
    play(m, "end turn")
    assert m.question is None and current(m) == 1


def test_wight_hidden_is_not_asked():
    m = (Position(["Wight", "Emi", "Vampire", "George", "Allie", "Bob"])
         .at("church", "gate", None, None, "woods", "altar").dead(2, 3).turn(0, "end").match())
    play(m, "end turn")
    assert m.question is None and current(m) == 1


# ======================================= Hunters ==================================================
# ---- Emi: Teleport ----------------------------------------------------------------------------------
@pytest.mark.parametrize("where, options", [
    # layout: (woods, church), (altar, cabin), (gate, cemetery) -- a ring of six
    ("woods", ["teleport to Church (6)", "teleport to Cemetery (8)"]),
    ("church", ["teleport to Erstwhile Altar (10)", "teleport to Weird Woods (9)"]),
    ("altar", ["teleport to Hermit's Cabin (2-3)", "teleport to Church (6)"]),
    ("cabin", ["teleport to Underworld Gate (4-5)", "teleport to Erstwhile Altar (10)"]),
    ("gate", ["teleport to Cemetery (8)", "teleport to Hermit's Cabin (2-3)"]),
    ("cemetery", ["teleport to Weird Woods (9)", "teleport to Underworld Gate (4-5)"]),
])
def test_emi_teleports_to_the_paired_area_or_the_nearest_of_the_next_pair(where, options):
    """(The areas by their names: a rules audit read `teleport woods`.)"""
    m = (Position(["Emi", "Vampire", "Werewolf", "George"]).layout("woods", "church", "altar", "cabin", "gate", "cemetery")
         .at(where, "gate", "church", "woods").reveal(0).turn(0, "move").match())
    assert legal(m) == ["roll"] + options


def test_emi_teleport_moves_without_rolling():
    m = (Position(["Emi", "Vampire", "Werewolf", "George"]).at("church", "gate", "church", "woods")
         .reveal(0).turn(0, "move").match())
    assert legal(m) == ["roll", "teleport to Cemetery (8)", "teleport to Underworld Gate (4-5)"]
    play(m, "teleport to Underworld Gate (4-5)")
    assert var(m, "at")[0] == "gate"
    assert step(m) == "area"
    assert m.messages_for(1)[-2:] == ["P1 teleports", "P1 moves to Underworld Gate (4-5)"]


def test_emi_hidden_must_roll():
    m = (Position(["Emi", "Vampire", "Werewolf", "George"]).at("church", "gate", "church", "woods")
         .turn(0, "move").match())
    assert legal(m) == ["roll", "reveal"]


def test_emi_off_the_board_has_nowhere_to_teleport():
    m = (Position(["Emi", "Vampire", "Werewolf", "George"]).at(None, None, None, None)
         .reveal(0).turn(0, "move").match())
    assert legal(m) == ["roll"]


def test_emi_cursed_must_roll():
    m = (Position(["Emi", "Vampire", "Werewolf", "George"]).at("church", "gate", "church", "woods")
         .reveal(0).var("cursed", 0, True).turn(0, "move").match())
    assert legal(m) == ["roll"]


# ---- Franklin: Lightning, George: Demolish ---------------------------------------------------------
HP = {"Franklin": 12, "George": 14}
@pytest.mark.parametrize("name, sides, value, prompt", [
    ("Franklin", 6, 5, "Lightning (once per game): who takes a d6 of damage?"),
    ("George", 4, 3, "Demolish (once per game): who takes a d4 of damage?"),
])
def test_franklin_and_george_strike_once_per_game(name, sides, value, prompt):
    other = "Emi"
    m = (Position([name, "Vampire", "Werewolf", other]).at("cabin", "gate", "church", "woods")
         .reveal(0).var("extra", 0, 1).turn(0, "start").rolls((sides, value), (6, 1), (4, 1)).match())
    play(m, "begin")
    assert m.question["prompt"] == prompt
    assert legal(m) == ["P1", "P2", "P3", "P4", "pass"]
    play(m, "P2")
    assert var(m, "damage") == [0, value, 0, 0]
    assert var(m, "used")[0] is True
    assert player_lines(shown(m.view(1), "Players"))[0] == f"P1: {name} (Hunter, {HP[name]} HP), " \
                                                          "ability used, 1 more turn to take"   # (told to every seat)
    assert m.messages_for(2)[-2:] == [f"P1 rolls a d{sides}: {value}", f"P2 takes {value} damage"
                                      + (" (Lightning)" if name == "Franklin" else " (Demolish)")]
    # the extra turn: not offered again
    play(m, "roll", "skip", "pass")
    assert current(m) == 0 and step(m) == "move" and m.question is None


def test_franklin_hidden_is_not_offered_lightning():
    m = (Position(["Franklin", "Vampire", "Werewolf", "Emi"]).at("cabin", "gate", "church", "woods")
         .turn(0, "start").match())
    play(m, "begin")
    assert m.question is None


def test_franklin_may_reveal_at_the_start_of_his_turn_and_strike():
    m = (Position(["Franklin", "Vampire", "Werewolf", "Emi"]).at("cabin", "gate", "church", "woods")
         .turn(0, "start").rolls((6, 6)).match())
    play(m, "reveal", "begin", "P3")
    assert var(m, "damage") == [0, 0, 6, 0]


def test_franklin_passing_keeps_the_ability():
    m = (Position(["Franklin", "Vampire", "Werewolf", "Emi"]).at("cabin", "gate", "church", "woods")
         .reveal(0).turn(0, "start").match())
    play(m, "begin", "pass")
    assert var(m, "used")[0] is False


# ---- Ellen: Chain of Forbidden Curse ---------------------------------------------------------------
def test_ellen_curse_removes_the_werewolf_counterattack():
    m = (Position(["Ellen", "Werewolf", "Vampire", "George"]).at("church", "gate", "woods", "altar")
         .reveal(0, 1).turn(0, "start").rolls((6, 1), (4, 1), (6, 5), (4, 1)).match())
    play(m, "begin")
    assert m.question["prompt"] == "Chain of Forbidden Curse (once per game): who loses its ability?"
    assert legal(m) == ["P1", "P2", "P3", "P4", "pass"]               # a character: herself too
    play(m, "P2")
    assert var(m, "cursed") == [False, True, False, False]
    assert var(m, "used")[0] is True
    assert m.messages_for(3)[-1] == "P2 loses its special ability for the rest of the game"
    play(m, "roll", "skip", "attack P2")           # to the Cabin, then 5-1 on the Werewolf
    assert var(m, "damage") == [0, 4, 0, 0]
    assert m.question is None                       # no counterattack


def test_ellen_curse_is_once_per_game():
    m = (Position(["Ellen", "Werewolf", "Vampire", "George"]).at("church", "gate", "woods", "altar")
         .reveal(0).var("used", 0, True).turn(0, "start").match())
    play(m, "begin")
    assert m.question is None


# ---- Fu-ka: Dynamite Nurse -------------------------------------------------------------------------
def test_fuka_sets_any_damage_to_seven_even_her_own():
    m = (Position(["Fu-ka", "Vampire", "Werewolf", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(0).damage(0, 3).damage(1, 11).turn(0, "start").match())
    play(m, "begin")
    assert m.question["prompt"] == "Dynamite Nurse (once per game): whose damage becomes 7?"
    assert legal(m) == ["P1", "P2", "P3", "P4", "pass"]
    play(m, "P1")
    assert var(m, "damage") == [7, 11, 0, 0]
    assert var(m, "used")[0] is True


def test_fuka_may_lower_damage_to_seven():
    m = (Position(["Fu-ka", "Vampire", "Werewolf", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(0).damage(1, 11).turn(0, "start").match())
    play(m, "begin", "P2")
    assert var(m, "damage") == [0, 7, 0, 0]


def test_fuka_once_per_game():
    m = (Position(["Fu-ka", "Vampire", "Werewolf", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(0).var("used", 0, True).turn(0, "start").match())
    play(m, "begin")
    assert m.question is None


# ---- Gregor: Ghostly Barrier -----------------------------------------------------------------------
def test_gregor_barrier_blocks_damage_until_his_next_turn():
    m = (Position(["Gregor", "Vampire", "Werewolf", "Emi"]).at("cabin", "church", "woods", "altar")
         .reveal(0).turn(0, "end").rolls((6, 3), (4, 2), (6, 6), (4, 1)).match())
    play(m, "end turn")
    assert m.question["prompt"] == "Ghostly Barrier (once per game): no damage until your next turn?"
    play(m, "yes")
    assert var(m, "barrier") == [True, False, False, False]
    assert var(m, "used")[0] is True
    assert current(m) == 1
    play(m, "begin", "roll", "skip", "attack P1")   # P2 rolls 3 + 2 to the Gate, hits 6-1
    assert var(m, "damage") == [0, 0, 0, 0]


def test_gregor_may_reveal_at_the_end_of_his_turn_to_raise_the_barrier():
    m = (Position(["Gregor", "Vampire", "Werewolf", "Emi"]).at("cabin", "church", "woods", "altar")
         .turn(0, "end").match())
    assert legal(m) == ["end turn", "reveal"]
    play(m, "reveal", "end turn", "yes")
    assert var(m, "barrier") == [True, False, False, False]


def test_gregor_barrier_also_stops_area_damage():
    m = (Position(["Gregor", "Vampire", "Werewolf", "Emi"]).at("cabin", "woods", "church", "altar")
         .reveal(0).var("barrier", 0, True).turn(1, "area").match())
    play(m, "wound P1 (2 damage)")
    assert var(m, "damage") == [0, 0, 0, 0]


def test_gregor_barrier_ends_when_his_turn_starts():
    m = (Position(["Gregor", "Vampire", "Werewolf", "Emi"]).at("cabin", "woods", "church", "altar")
         .reveal(0).var("barrier", 0, True).var("used", 0, True).turn(0, "start").match())
    play(m, "begin")
    assert var(m, "barrier") == [False] * 4


def test_gregor_barrier_is_once_per_game():
    m = (Position(["Gregor", "Vampire", "Werewolf", "Emi"]).at("cabin", "church", "woods", "altar")
         .reveal(0).var("used", 0, True).turn(0, "end").match())
    play(m, "end turn")
    assert m.question is None and current(m) == 1


# ======================================= Neutrals =================================================
# ---- Allie: Mother's Love --------------------------------------------------------------------------
def test_allie_mothers_love_out_of_turn_once_per_game():
    m = (Position(["Vampire", "Emi", "Allie", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(2).damage(2, 6).turn(0, "move").match())
    assert interrupts(m, 2) == ["P3: ability (Mother's Love)"]
    assert "ability" not in legal(m)
    m.apply("P3: ability (Mother's Love)")
    assert var(m, "damage") == [0, 0, 0, 0]
    assert var(m, "used")[2] is True
    assert m.messages_for(0)[-2:] == ["P3 uses Mother's Love", "P3 heals 6"]
    assert m.state()["actor"] == 0 and step(m) == "move"   # P1 still to act
    m2 = (Position(["Vampire", "Emi", "Allie", "George"]).at("cabin", "gate", "church", "woods")
          .reveal(2).damage(2, 6).var("used", 2, True).turn(0, "move").match())
    assert interrupts(m2, 2) == []


def test_allie_mothers_love_in_her_own_turn():
    m = (Position(["Vampire", "Emi", "Allie", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(2).damage(2, 4).turn(2, "fight").match())
    assert legal(m) == ["pass", "ability (Mother's Love)"]
    play(m, "ability (Mother's Love)")
    assert var(m, "damage")[2] == 0
    assert step(m) == "fight"


def test_allie_hidden_must_reveal_first():
    m = (Position(["Vampire", "Emi", "Allie", "George"]).at("cabin", "gate", "church", "woods")
         .damage(2, 6).turn(0, "move").match())
    assert interrupts(m, 2) == ["P3: reveal"]
    m.apply("P3: reveal")
    assert interrupts(m, 2) == ["P3: ability (Mother's Love)"]
    m.apply("P3: ability (Mother's Love)")
    assert var(m, "damage")[2] == 0


def test_allie_cursed_has_no_mothers_love():
    m = (Position(["Vampire", "Emi", "Allie", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(2).damage(2, 6).var("cursed", 2, True).turn(0, "move").match())
    assert interrupts(m, 2) == []


def test_allie_dead_wins_nothing_and_has_no_ability():
    m = (Position(["Vampire", "Emi", "Allie", "George"]).at("cabin", "gate", None, "woods")
         .dead(2).damage(2, 8).turn(0, "move").match())
    assert interrupts(m, 2) == []


def test_allie_offered_while_an_answer_is_awaited_from_another_player():
    m = (Position(["Vampire", "Emi", "Allie", "George"]).at("cabin", "gate", "church", "woods")
         .reveal(2).damage(2, 6).turn(0, "move").rolls((6, 3), (4, 4)).match())
    play(m, "roll")                                  # a 7: P1 chooses where to go
    question = m.question
    assert question is not None and question["chooser"] == 0
    assert interrupts(m, 2) == ["P3: ability (Mother's Love)"]       # H9, H10: at any time
    m.apply("P3: ability (Mother's Love)")
    assert var(m, "damage")[2] == 0 and m.question == question and m.state()["actor"] == 0


def test_allie_heals_before_she_answers_the_card_that_would_kill_her():
    # H9/H10: Mother's Love at any time — also while she is asked about a hermit card. At 7 of 8
    # damage, Hermit's Blackmail (give an equipment card or take 1 damage) would kill her.
    m = (Position(["George", "Allie", "Vampire", "Emi"]).at("cabin", "church", "woods", "woods")
         .damage(1, 7).deck("hermit", "Hermit's Blackmail").turn(0, "area").match())
    play(m, "draw a hermit card", "P2")
    assert m.question["chooser"] == 1 and legal(m) == ["it applies"]
    assert interrupts(m, 1) == ["P2: reveal"]        # hidden: she must reveal first (H9)
    m.apply("P2: reveal")
    assert m.question["prompt"] == "P1 gave you a hermit card: does it apply to you?"
    assert interrupts(m, 1) == ["P2: ability (Mother's Love)"]
    m.apply("P2: ability (Mother's Love)")
    assert var(m, "damage")[1] == 0 and legal(m) == ["it applies"]
    play(m, "it applies")                            # no equipment to give: 1 damage
    assert var(m, "damage")[1] == 1 and not var(m, "dead")[1]
    assert m.messages_for(2)[-3:] == ["P2 uses Mother's Love", "P2 heals 7", "P2 takes 1 damage (hermit card)"]
    assert interrupts(m, 1) == []                    # once per game


# ---- Bob: Robbery ------------------------------------------------------------------------------------
def _bob_attacks(chars, rolls, revealed=True, target_damage=0):
    n = len(chars)
    at = ["cabin", "gate"] + ["woods"] * (n - 2)
    pos = (Position(chars).at(*at).equipment(1, "Talisman", "Chainsaw").damage(1, target_damage)
           .turn(0, "fight").rolls(*rolls))
    if revealed:
        pos.reveal(0)
    m = pos.match()
    play(m, "attack P2")
    return m


FIVE = ["Bob", "Vampire", "Werewolf", "Emi", "George"]
SEVEN = ["Bob", "Vampire", "Werewolf", "Emi", "George", "Allie", "Charles"]


def test_bob_robs_an_equipment_card_instead_of_damage():
    m = _bob_attacks(FIVE, [(6, 5), (4, 3)])
    assert m.question["prompt"] == "Robbery: take an equipment card from P2 instead of dealing damage?"
    play(m, "yes")
    assert m.question["prompt"] == "Robbery: which of P2's equipment cards do you take?"
    assert sorted(legal(m)) == ["Chainsaw", "Talisman"]
    play(m, "Chainsaw")
    assert equipment(m, 0) == ["Chainsaw"]
    assert equipment(m, 1) == ["Talisman"]
    assert var(m, "damage") == [0] * 5


def test_bob_may_deal_the_damage_instead():
    m = _bob_attacks(FIVE, [(6, 5), (4, 3)])
    play(m, "no")
    assert var(m, "damage") == [0, 2, 0, 0, 0]
    assert equipment(m, 0) == []


def test_bob_no_robbery_for_one_damage():
    m = _bob_attacks(FIVE, [(6, 4), (4, 3)])
    assert m.question is None
    assert var(m, "damage") == [0, 1, 0, 0, 0]


def test_bob_hidden_does_not_rob():
    m = _bob_attacks(FIVE, [(6, 5), (4, 3)], revealed=False)
    assert m.question is None
    assert var(m, "damage") == [0, 2, 0, 0, 0]


def test_bob_seven_players_no_robbery():
    m = _bob_attacks(SEVEN, [(6, 5), (4, 3)])
    assert m.question is None
    assert var(m, "damage") == [0, 2, 0, 0, 0, 0, 0]


def test_bob_seven_players_kill_takes_all_equipment():
    m = _bob_attacks(SEVEN, [(6, 5), (4, 3)], target_damage=12)
    assert var(m, "dead")[1] is True
    assert m.question is None
    assert equipment(m, 0) == ["Chainsaw", "Talisman"]


def test_bob_four_to_six_players_kill_takes_one():
    m = _bob_attacks(FIVE, [(6, 5), (4, 3)], target_damage=12)
    play(m, "no")                                   # deal the damage: the kill
    assert var(m, "dead")[1] is True
    assert sorted(legal(m)) == ["Chainsaw", "Talisman", "pass"]     # (the killer "may take one")
    play(m, "Talisman")
    assert equipment(m, 0) == ["Talisman"]


def test_bob_target_without_equipment_just_takes_the_damage():
    m = (Position(FIVE).at("cabin", "gate", "woods", "woods", "woods").reveal(0).turn(0, "fight")
         .rolls((6, 5), (4, 3)).match())
    play(m, "attack P2")
    assert m.question is None
    assert var(m, "damage") == [0, 2, 0, 0, 0]


def test_bob_cannot_rob_a_target_under_guardian_angel():
    m = (Position(FIVE).at("cabin", "gate", "woods", "woods", "woods").reveal(0).var("angel", 1, True)
         .equipment(1, "Talisman").turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P2")
    assert m.question is None
    assert var(m, "damage") == [0] * 5
    assert equipment(m, 1) == ["Talisman"]


def test_bob_cannot_rob_gregor_behind_his_barrier():
    m = (Position(["Bob", "Gregor", "Vampire", "Werewolf", "Emi"]).at("cabin", "gate", "church", "woods", "altar")
         .reveal(0, 1).var("barrier", 1, True).equipment(1, "Talisman").turn(0, "fight")
         .rolls((6, 5), (4, 1)).match())
    play(m, "attack P2")
    assert m.question is None
    assert var(m, "damage") == [0] * 5
    assert equipment(m, 1) == ["Talisman"]


def test_bob_seven_players_kill_by_weird_woods_takes_only_one():
    m = (Position(SEVEN).at("woods", "gate", "church", "cabin", "altar", "altar", "altar").reveal(0)
         .damage(1, 12).equipment(1, "Talisman", "Chainsaw").turn(0, "area").match())
    play(m, "wound P2 (2 damage)")
    assert m.question["prompt"] == "Which of P2's equipment cards do you take?"
    play(m, "Talisman")
    assert equipment(m, 0) == ["Talisman"]


def test_bob_cursed_does_not_rob():
    m = (Position(FIVE).at("cabin", "gate", "woods", "woods", "woods").reveal(0).var("cursed", 0, True)
         .equipment(1, "Talisman").turn(0, "fight").rolls((6, 5), (4, 3)).match())
    play(m, "attack P2")
    assert m.question is None
    assert var(m, "damage") == [0, 2, 0, 0, 0]


def test_bob_wins_with_five_equipment_cards():
    m = (Position(["Bob", "Vampire", "Werewolf", "Emi", "George"]).at("altar", "gate", "church", "woods", "cabin")
         .equipment(0, "Talisman", "Chainsaw", "Handgun", "Holy Robe").equipment(1, "Butcher Knife")
         .turn(0, "area").match())
    play(m, "take P2 Butcher Knife")
    assert winners(m) == [0]


def test_bob_with_four_equipment_cards_has_not_won():
    m = (Position(["Bob", "Vampire", "Werewolf", "Emi", "George"]).at("altar", "gate", "church", "woods", "cabin")
         .equipment(0, "Talisman", "Chainsaw", "Handgun").equipment(1, "Butcher Knife")
         .turn(0, "area").match())
    play(m, "take P2 Butcher Knife")
    assert m.outcome is None


# ---- Charles: Bloody Feast ---------------------------------------------------------------------------
def test_charles_bloody_feast_attacks_again_for_two_damage():
    m = (Position(["Charles", "Vampire", "Werewolf", "Emi", "George"]).at("cabin", "gate", "church", "woods", "altar")
         .reveal(0).turn(0, "fight").rolls((6, 4), (4, 1), (6, 6), (4, 2)).match())
    play(m, "attack P2")
    assert var(m, "damage") == [0, 3, 0, 0, 0]
    assert m.question["prompt"] == "Bloody Feast: take 2 damage to attack P2 again?"
    play(m, "yes")
    assert var(m, "damage") == [2, 7, 0, 0, 0]
    assert legal(m) == ["yes", "no"]               # and again, if he likes
    play(m, "no")
    assert var(m, "damage") == [2, 7, 0, 0, 0]
    assert (current(m), step(m)) == (1, "start")   # a revealed player's turn ends by itself


def test_charles_hidden_has_no_bloody_feast():
    m = (Position(["Charles", "Vampire", "Werewolf", "Emi", "George"]).at("cabin", "gate", "church", "woods", "altar")
         .turn(0, "fight").rolls((6, 4), (4, 1)).match())
    play(m, "attack P2")
    assert m.question is None


def test_charles_wins_killing_with_three_dead_that_one_included():
    m = (Position(["Charles", "Vampire", "Werewolf", "Emi", "George", "Allie"])
         .at("cabin", "gate", "church", "woods", None, None).dead(4, 5).damage(1, 12).turn(0, "fight")
         .rolls((6, 4), (4, 1)).match())
    play(m, "attack P2")
    assert winners(m) == [0]


def test_charles_kill_with_two_dead_does_not_win():
    m = (Position(["Charles", "Vampire", "Werewolf", "Emi", "George", "Allie"])
         .at("cabin", "gate", "church", "woods", "altar", None).dead(5).damage(1, 12).turn(0, "fight")
         .rolls((6, 4), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "dead") == [False, True, False, False, False, True]
    assert m.outcome is None


# ---- Daniel: Scream ------------------------------------------------------------------------------------
def test_daniel_screams_when_another_dies_even_by_area_damage():
    m = (Position(["Emi", "Vampire", "Werewolf", "George", "Daniel"])
         .at("woods", "gate", "church", "cabin", "altar").damage(1, 12).turn(0, "area").match())
    play(m, "wound P2 (2 damage)")
    assert var(m, "revealed") == [False, True, False, False, True]
    assert m.messages_for(3)[-2:] == ["P5 screams", "P5 is Daniel (Neutral, 13 HP)"]



def test_daniel_screams_once_when_two_die_at_once_and_no_one_orders_his_screams():
    """A rules audit: Flare of Judgement killed Allie and Charles at once; P1 was asked which of
    "a hidden card's ability" and "… #2" resolves first (every seat saw a hidden card answer deaths)
    and Daniel screamed twice."""
    m = (Position(["Emi", "Allie", "Daniel", "George", "Vampire", "Charles", "Werewolf"])
         .at("church", "gate", "church", "woods", "altar", "cabin", "cabin")
         .damage(1, 6).damage(5, 9).turn(0, "area").deck("white", "Flare of Judgement")).match()
    play(m, "draw a white card")
    assert m.question is None and var(m, "dead")[1] and var(m, "dead")[5]
    said = [t for t in m.messages_for(3) if "scream" in t or "Daniel" in t]
    assert said == ["P3 screams", "P3 is Daniel (Neutral, 13 HP)"]

def test_daniel_wins_when_all_shadows_die_and_he_lives():
    m = (Position(["Emi", "Vampire", "Werewolf", "George", "Daniel"])
         .at("cabin", "gate", None, None, "altar").dead(2, 3).damage(1, 12).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert winners(m) == [0, 3, 4]                # the Hunters (dead George too) and Daniel


def test_dead_daniel_does_not_win_with_the_hunters():
    m = (Position(["Emi", "Vampire", "Werewolf", "George", "Daniel"])
         .at("cabin", "gate", None, None, None).dead(2, 4).damage(1, 12).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert winners(m) == [0, 3]


def test_daniel_dying_together_with_another_first_wins():
    # a Machine Gun hits Daniel and the Werewolf at once; both deaths are the first
    m = (Position(["Emi", "Vampire", "Werewolf", "George", "Daniel"])
         .at("cabin", "woods", "gate", "church", "gate").damage(2, 13).damage(4, 12)
         .equipment(0, "Machine Gun").turn(0, "fight").rolls((6, 3), (4, 1)).match())
    assert legal(m) == ["attack everyone in range: P3 P5", "pass", "reveal"]
    play(m, "attack everyone in range: P3 P5")
    assert var(m, "dead") == [False, False, True, False, True]
    assert winners(m) == [4]
    # (a rules check: the game-over line read Daniel's whole goal, "… or every Shadow is dead …")
    assert "P5 Daniel wins: Daniel is the first character to die." in m.outcome["reason"]


# ---- Agnes: Capriccio --------------------------------------------------------------------------------
AGNES = ["Emi", "Agnes", "Vampire", "Werewolf", "George"]      # P1 on her right, P3 on her left


def _hunters_win(pos):
    """The last Shadow (P3 Vampire; P4 Werewolf dead) is killed by P1 Emi."""
    m = (pos.at("cabin", "woods", "gate", None, "altar").dead(3).damage(2, 12).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P3")
    return m


def test_agnes_wins_with_her_right_hand_neighbour():
    m = _hunters_win(Position(AGNES))
    assert winners(m) == [0, 1, 4]


def test_agnes_wins_with_her_right_hand_neighbour_even_dead():
    m = _hunters_win(Position(AGNES).dead(1))
    assert winners(m) == [0, 1, 4]


def test_agnes_after_capriccio_wins_with_her_left_hand_neighbour():
    m = _hunters_win(Position(AGNES).var("to_left", 1, True))
    assert winners(m) == [0, 4]


def test_agnes_capriccio_at_the_start_of_her_turn():
    m = (Position(AGNES).at("cabin", "woods", "gate", "church", "altar").reveal(1).turn(1, "start").match())
    play(m, "begin")
    assert m.question["prompt"] == "Capriccio: your condition becomes your left-hand neighbour wins?"
    play(m, "yes")
    assert var(m, "to_left") == [False, True, False, False, False]
    assert m.messages_for(1)[-1] == "P2 now wins with the player on the left"
    # every seat reads it on her row, as on her card (P3 on her left now decides her win)
    assert player_lines(shown(m.view(2), "Players"))[1] == "P2: Agnes (Neutral, 8 HP), wins when P3 wins"
    assert step(m) == "move"


def test_agnes_hidden_has_no_capriccio():
    m = (Position(AGNES).at("cabin", "woods", "gate", "church", "altar").turn(1, "start").match())
    play(m, "begin")
    assert m.question is None


# ---- Bryan: Oh My God! -------------------------------------------------------------------------------
BRYAN = ["Bryan", "Vampire", "Werewolf", "Emi", "George"]


def test_bryan_must_reveal_after_killing_twelve_hp_or_less():
    m = (Position(BRYAN).at("cabin", "church", "woods", "gate", "altar").damage(3, 9).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P4")
    assert var(m, "dead")[3] is True
    assert var(m, "revealed")[0] is True
    assert "P1 is Bryan (Neutral, 10 HP)" in m.messages_for(2)
    assert m.outcome is None


def test_bryan_wins_killing_thirteen_hp_or_more_by_attack():
    m = (Position(BRYAN).at("cabin", "gate", "woods", "church", "altar").damage(1, 12).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert winners(m) == [0]


def test_bryan_kill_of_thirteen_hp_by_area_does_not_win():
    m = (Position(BRYAN).at("woods", "gate", "cabin", "church", "altar").damage(1, 12).turn(0, "area").match())
    play(m, "wound P2 (2 damage)")
    assert var(m, "dead")[1] is True
    assert m.outcome is None


@pytest.mark.parametrize("bryan_at, wins", [("altar", [0, 1, 3]), ("cemetery", [1, 3])])
def test_bryan_in_the_altar_when_the_game_ends_wins(bryan_at, wins):
    m = (Position(["Bryan", "Emi", "Vampire", "George", "Werewolf"]).at(bryan_at, "cabin", "gate", "church", None)
         .dead(4).damage(2, 12).turn(1, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P3")
    assert winners(m) == wins                       # the Hunters (Emi, George), and Bryan if in the Altar
    assert ("P1 Bryan wins: Bryan is in the Erstwhile Altar when the game ends." in m.outcome["reason"]) is (0 in wins)


# ---- Catherine: Stigmata -------------------------------------------------------------------------------
CATH = ["Catherine", "Vampire", "Werewolf", "Emi", "George"]


def test_catherine_heals_one_at_the_start_of_her_turn():
    m = (Position(CATH).at("cabin", "gate", "church", "woods", "altar").reveal(0).damage(0, 3)
         .turn(4, "end").match())
    play(m, "end turn")
    assert current(m) == 0 and step(m) == "move"
    assert var(m, "damage")[0] == 2
    assert m.messages_for(1)[-1] == "P1 heals 1"


def test_catherine_hidden_does_not_heal():
    m = (Position(CATH).at("cabin", "gate", "church", "woods", "altar").damage(0, 3).turn(0, "start").match())
    play(m, "begin")
    assert var(m, "damage")[0] == 3


def test_catherine_first_to_die_wins():
    m = (Position(CATH).at("gate", "cabin", "church", "woods", "altar").damage(0, 10).turn(1, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P1")
    assert winners(m) == [0]


def test_catherine_dying_together_with_another_first_wins():
    m = (Position(CATH).at("gate", "church", "gate", "cabin", "altar").damage(0, 10).damage(2, 13)
         .equipment(3, "Machine Gun").turn(3, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack everyone in range: P1 P3")
    assert var(m, "dead") == [True, False, True, False, False]
    assert winners(m) == [0]


def test_catherine_dying_second_does_not_win():
    m = (Position(CATH).at("gate", "cabin", None, "woods", "altar").dead(2).damage(0, 10).turn(1, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P1")
    assert m.outcome is None


def test_catherine_one_of_the_last_two_alive_wins():
    # Vampire and George dead; Emi kills the Werewolf: Emi and Catherine are the last two
    m = (Position(CATH).at("altar", None, "gate", "cabin", None).dead(1, 4).damage(2, 13).turn(3, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P3")
    assert winners(m) == [0, 3, 4]
    assert "P1 Catherine wins: Catherine is one of the last two characters alive." in m.outcome["reason"]


# ---- David: Grave Digger -----------------------------------------------------------------------------
DAVID = ["David", "Vampire", "Werewolf", "Emi", "George"]


def test_david_grave_digger_takes_discarded_equipment_once():
    m = (Position(DAVID).at("cabin", "gate", "church", "woods", "altar").reveal(0)
         .discard("white", "Advent", "Holy Robe").discard("black", "Chainsaw", "Vampire Bat")
         .turn(1, "move").match())
    assert interrupts(m, 0) == ["P1: ability (Grave Digger)"]
    m.apply("P1: ability (Grave Digger)")
    assert m.question["prompt"] == "Grave Digger (once per game): which equipment card do you take from the discards?"
    assert legal(m) == ["Holy Robe", "Chainsaw", "pass"]
    play(m, "Chainsaw")
    assert equipment(m, 0) == ["Chainsaw"]
    assert labels(m, zones(m)["black_discard"]) == ["Vampire Bat"]
    assert var(m, "used")[0] is True
    assert interrupts(m, 0) == []
    assert m.state()["actor"] == 1


def test_david_grave_digger_is_not_offered_inside_its_own_question_and_a_pass_keeps_it():
    """An atomicity trial: while Grave Digger's question waited, `P1: ability` was offered again;
    answered inside, David took two cards (and won with three relics)."""
    m = (Position(DAVID).at("cabin", "gate", "church", "woods", "altar").reveal(0).equipment(0, "Holy Robe")
         .discard("white", "Talisman", "Silver Rosary").turn(1, "move").match())
    m.apply("P1: ability (Grave Digger)")
    assert interrupts(m, 0) == []
    play(m, "pass")
    assert var(m, "used")[0] is False and equipment(m, 0) == ["Holy Robe"]
    assert interrupts(m, 0) == ["P1: ability (Grave Digger)"]
    m.apply("P1: ability (Grave Digger)")
    play(m, "Talisman")
    assert equipment(m, 0) == ["Holy Robe", "Talisman"] and m.outcome is None and interrupts(m, 0) == []


def test_david_hidden_and_empty_discards_offer_nothing():
    m = (Position(DAVID).at("cabin", "gate", "church", "woods", "altar").discard("white", "Holy Robe")
         .turn(1, "move").match())
    assert interrupts(m, 0) == ["P1: reveal"]
    m2 = (Position(DAVID).at("cabin", "gate", "church", "woods", "altar").reveal(0).discard("white", "Advent")
          .turn(1, "move").match())
    assert interrupts(m2, 0) == []


def test_david_wins_with_three_of_the_four_relics():
    m = (Position(DAVID).at("cabin", "gate", "church", "woods", "altar").reveal(0)
         .equipment(0, "Talisman", "Holy Robe").discard("white", "Silver Rosary").turn(1, "move").match())
    m.apply("P1: ability (Grave Digger)")
    play(m, "Silver Rosary")
    assert winners(m) == [0]


def test_david_other_equipment_does_not_count():
    m = (Position(DAVID).at("cabin", "gate", "church", "woods", "altar").reveal(0)
         .equipment(0, "Talisman", "Holy Robe").discard("black", "Chainsaw").turn(1, "move").match())
    m.apply("P1: ability (Grave Digger)")
    play(m, "Chainsaw")
    assert m.outcome is None


# ======================================= Win conditions ===========================================
def test_shadows_win_when_all_hunters_are_dead():
    m = (Position(["Vampire", "Emi", "Werewolf", "George"]).at("cabin", "gate", None, None).dead(2, 3)
         .damage(1, 9).turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert winners(m) == [0, 2]                     # the dead Werewolf too


def test_shadows_win_when_three_neutrals_are_dead():
    m = (Position(["Vampire", "Emi", "Werewolf", "George", "Allie", "Bob", "Charles"])
         .at("cabin", "church", "woods", "altar", None, None, "gate").dead(4, 5).damage(6, 10)
         .turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P7")
    assert winners(m) == [0, 2]


def test_two_dead_neutrals_are_not_enough():
    m = (Position(["Vampire", "Emi", "Werewolf", "George", "Allie", "Bob", "Charles"])
         .at("cabin", "church", "woods", "altar", None, "altar", "gate").dead(4).damage(6, 10)
         .turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P7")
    assert m.outcome is None


def test_hunters_win_when_all_shadows_are_dead():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Bob"]).at("cabin", "gate", None, None, "woods")
         .dead(2, 3).damage(1, 12).turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert winners(m) == [0, 2]                     # the dead George too; not Bob
    assert m.outcome["results"] == ["win", "lose", "win", "lose", "lose"]


def test_allie_alive_wins_alongside():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Allie"]).at("cabin", "gate", None, None, "woods")
         .dead(3).damage(1, 12).turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert winners(m) == [0, 2, 4]


def test_allie_does_not_end_the_game_by_being_alive():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Allie"]).at("cabin", "gate", "church", "woods", "altar")
         .turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert m.outcome is None


def test_allie_and_agnes_win_alongside_a_neutral_own_win():
    # Bob (P2) takes his fifth equipment card; Agnes (P3) has him on her right; Allie lives
    m = (Position(["Vampire", "Bob", "Agnes", "Emi", "Allie", "George"])
         .at("gate", "altar", "church", "woods", "cabin", "cemetery")
         .equipment(1, "Talisman", "Chainsaw", "Handgun", "Holy Robe").equipment(0, "Butcher Knife")
         .turn(1, "area").match())
    play(m, "take P1 Butcher Knife")
    assert winners(m) == [1, 2, 4]


def test_turns_skip_dead_players():
    m = (Position(["Vampire", "Emi", "Werewolf", "George"]).at("cabin", None, "church", "woods").dead(1)
         .turn(0, "end").match())
    play(m, "end turn")
    assert current(m) == 2 and step(m) == "start"


def test_the_game_ends_revealing_everyone():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Allie"]).at("cabin", "gate", None, None, "woods")
         .dead(3).damage(1, 12).turn(0, "fight").rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "revealed") == [True] * 5
    assert m.outcome["reason"] == ("Hunters win: every Shadow is dead (P2 Vampire, P4 Werewolf). P5 Allie wins: "
                                   "Allie is alive when the game ends. The winners: P1 Emi (Hunter), P3 George "
                                   "(Hunter), P5 Allie (Neutral).")
    assert legal(m) == []


# ---- Ellen's curse takes away the forced reveals too (they are special abilities) --------------------
def test_a_cursed_daniel_neither_screams_nor_is_kept_from_revealing():
    """Ellen: "it loses its special ability for the rest of the game"; Daniel's is Scream (must
    reveal when another dies, may not reveal otherwise). A cursed, hidden Daniel kept both."""
    m = (Position(["Vampire", "Daniel", "Ellen", "Emi", "Werewolf"]).at("woods", "gate", "church", "woods", "cabin")
         .reveal(2).var("cursed", 1, True).var("used", 2, True).damage(3, 9).turn(0, "area").match())
    assert [a.text for a in m.interrupts(1)] == ["P2: reveal"]        # he may reveal at will, as anyone
    play(m, "wound P4 (2 damage)")
    assert var(m, "dead")[3] is True
    assert var(m, "revealed")[1] is False                             # and no scream
    assert not any("screams" in x for x in m.messages_for(0))


def test_a_cursed_bryan_is_not_forced_to_reveal_by_his_kill():
    """Bryan's Oh My God! (a kill of 12 HP or less forces his reveal) goes with Ellen's curse."""
    m = (Position(["Bryan", "Ellen", "Emi", "Vampire", "Werewolf"]).at("cabin", "church", "gate", "woods", "altar")
         .reveal(1).var("cursed", 0, True).damage(2, 9).turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P3")
    assert var(m, "dead")[2] is True
    assert var(m, "revealed")[0] is False


# ---- found by a card audit (stop 49) ---------------------------------------------------------------
def test_bob_robbing_his_fifth_card_mid_machine_gun_waits_for_the_attacks_deaths():
    """Bob's Machine Gun brings Emi, the last Hunter, to her 10 HP, then robs the Vampire of his
    5th card: the game ended on the robbery with Emi alive at 10/10 and Bob the only winner. The
    deaths of the attack come first: Emi dies, the Shadows win with Bob."""
    m = (Position(["Bob", "Emi", "Vampire", "George", "Werewolf"])
         .at("cabin", "gate", "cabin", None, "woods").dead(3).reveal(0)
         .damage(1, 9)
         .equipment(0, "Machine Gun", "Fortune Brooch", "Mystic Compass", "Talisman")
         .equipment(2, "Holy Robe")
         .turn(0, "fight").rolls((6, 6), (4, 2)).match())
    play(m, "attack everyone in range: P2 P3", "yes")
    assert var(m, "dead")[1] is True and var(m, "damage")[1] == 10
    assert m.outcome["results"] == ["win", "lose", "win", "lose", "win"]


def test_a_card_bob_robs_mid_attack_does_not_change_the_rest_of_that_attack():
    """One Machine Gun roll, one base damage for every target: robbing P3's Butcher Knife on the
    way gave P4 one more damage than P2."""
    m = (Position(["Bob", "Vampire", "Emi", "George", "Werewolf"])
         .at("cabin", "gate", "cabin", "gate", "altar").reveal(0)
         .equipment(0, "Machine Gun").equipment(2, "Butcher Knife")
         .turn(0, "fight").rolls((6, 6), (4, 2)).match())
    play(m, "attack everyone in range: P2 P3 P4", "yes")
    assert var(m, "damage")[1] == var(m, "damage")[3] == 4
    assert equipment(m, 0) == ["Butcher Knife", "Machine Gun"]


def test_daniel_screams_before_the_killer_takes_a_card():
    """"Daniel must reveal as soon as another character dies": the killer was asked which card
    to take while Daniel was still hidden."""
    m = (Position(["Vampire", "Emi", "Daniel", "George", "Werewolf"])
         .at("cabin", "gate", "church", "woods", "altar")
         .damage(1, 9).equipment(1, "Talisman", "Chainsaw")
         .turn(0, "fight").rolls((6, 2), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "dead")[1] is True
    assert m.question["prompt"] == "Which of P2's equipment cards do you take?"
    assert var(m, "revealed")[2] is True


def test_a_character_whose_damage_reached_its_hp_cannot_act_while_a_robbery_waits():
    """A differential run (H8): Bob's Machine Gun hit Allie (6 of 8 → 8 of 8) and then asked Robbery of
    the next target; the deaths come at the attack's end, and meanwhile the dying Allie used Mother's
    Love and lived. A character at its HP dies: it may neither use its ability nor reveal."""
    chars = ["Bob", "Allie", "Vampire", "George", "Werewolf"]
    pos = (Position(chars).layout("church", "altar", "cabin", "gate", "woods", "cemetery")
           .at("church", "altar", "church", "gate", "woods").damage(1, 6).reveal(0, 1)
           .equipment(0, "Machine Gun").equipment(2, "Talisman").turn(0, "fight").rolls((6, 4), (4, 1)))
    m = pos.match()
    play(m, next(a for a in legal(m) if a.startswith("attack everyone in range")))
    assert m.question["prompt"] == "Robbery: take an equipment card from P3 instead of dealing damage?"
    assert var(m, "damage")[1] == 8 and not var(m, "dead")[1]
    assert [a.text for a in m.interrupts(1)] == []
    play(m, "no")
    assert var(m, "dead")[1]
