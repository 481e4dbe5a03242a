"""The ten minimum scenarios of the Shadow Hunters digest (shared/rules/shadow_hunters.md,
"Scenarios (minimum tests)"), each played from an exact position with stacked dice and decks.

Default layout pairs: (cabin, gate), (church, cemetery), (woods, altar)."""
from __future__ import annotations

import json

from sh_helpers import Position, labels, legal, play, player_lines, shown, var, winners, zones

ALL_AREAS = ["Hermit's Cabin (2-3)", "Underworld Gate (4-5)", "Church (6)", "Cemetery (8)",
             "Weird Woods (9)", "Erstwhile Altar (10)"]


def step(m) -> str:
    return m.state()["step"]


def current(m) -> int:
    return m.state()["current"]


# ---- 1. moving: a 7 picks any other area; a roll naming the current area rolls again ------------
def test_1_roll_seven_offers_every_area_but_the_current_one():
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .turn(0, "move").rolls((6, 3), (4, 4)).match())
    play(m, "roll")
    assert m.question["chooser"] == 0
    assert m.question["prompt"] == "Which area do you move to?"
    assert legal(m) == [a for a in ALL_AREAS if a != "Hermit's Cabin (2-3)"]
    play(m, "Cemetery (8)")
    assert var(m, "at") == ["cemetery", "gate", "church", "woods"]
    assert step(m) == "area" and current(m) == 0
    assert m.messages_for(1)[-2:] == ["P1 rolls 3 + 4 = 7", "P1 moves to Cemetery (8)"]


def test_1_roll_seven_off_the_board_offers_all_six_areas():
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at(None, None, None, None)
         .turn(0, "move").rolls((6, 5), (4, 2)).match())
    play(m, "roll")
    assert legal(m) == ALL_AREAS


def test_1_rolling_the_current_area_rolls_again():
    # at the Church (6): 4 + 2 = 6 names it, so roll again: 5 + 3 = 8, the Cemetery
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("church", "gate", "cabin", "woods")
         .turn(0, "move").rolls((6, 4), (4, 2), (6, 5), (4, 3)).match())
    play(m, "roll")
    assert m.question is None                       # one destination: no question
    assert var(m, "at")[0] == "cemetery"
    assert step(m) == "area"
    assert m.messages_for(2)[-3:] == ["P1 rolls 4 + 2 = 6: the area they are on, so they roll again", "P1 rolls 5 + 3 = 8", "P1 moves to Cemetery (8)"]


def test_1_either_number_of_the_cabin_rolls_again_from_the_cabin():
    # the Cabin is 2-3: a 3 rolls again, then 2 + 2 = 4 is the Gate
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .turn(0, "move").rolls((6, 1), (4, 2), (6, 2), (4, 2)).match())
    play(m, "roll")
    assert var(m, "at")[0] == "gate"
    assert [t for t in m.messages_for(0) if "rolls" in t] == ["P1 rolls 1 + 2 = 3: the area they are on, so they roll again", "P1 rolls 2 + 2 = 4"]


def test_1_seven_after_a_reroll_still_excludes_the_current_area():
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("woods", "gate", "church", "cabin")
         .turn(0, "move").rolls((6, 6), (4, 3), (6, 4), (4, 3)).match())
    play(m, "roll")
    assert legal(m) == [a for a in ALL_AREAS if a != "Weird Woods (9)"]


# ---- 2. attack damage = |d6 - d4|; equal dice miss ---------------------------------------------
def test_2_attack_six_and_four_deals_exactly_two():
    m = (Position(["Emi", "Vampire", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .damage(1, 3).turn(0, "fight").rolls((6, 6), (4, 4)).match())
    assert legal(m) == ["attack P2", "pass", "reveal"]
    play(m, "attack P2")
    assert var(m, "damage") == [0, 5, 0, 0]
    assert step(m) == "end"
    assert m.messages_for(2)[-2:] == ["P1 attacks P2: d6 6, d4 4", "P2 takes 2 damage"]


def test_2_attack_three_and_three_misses():
    m = (Position(["Emi", "Vampire", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .damage(1, 3).turn(0, "fight").rolls((6, 3), (4, 3)).match())
    play(m, "attack P2")
    assert var(m, "damage") == [0, 3, 0, 0]
    assert m.messages_for(3)[-1] == "P1 attacks P2: d6 3, d4 3: a miss"


def test_2_attack_reaches_the_own_area_and_the_paired_area_only():
    m = (Position(["Emi", "Vampire", "Allie", "Bob"]).at("church", "cemetery", "church", "cabin")
         .turn(0, "fight").match())
    assert legal(m) == ["attack P2", "attack P3", "pass", "reveal"]


# ---- 3. hermit card "Shadow: take 2" (Hermit's Exorcism) ----------------------------------------
def _exorcism(receiver_char: str):
    # two Shadows and two Hunters, so that no side has won already
    fourth = "Vampire" if receiver_char == "George" else "George"
    m = (Position(["Emi", receiver_char, "Werewolf", fourth]).at("cabin", "gate", "church", "woods")
         .damage(1, 1).turn(0, "area").deck("hermit", "Hermit's Exorcism").match())
    play(m, "draw a hermit card")
    assert m.question["prompt"] == "Who do you give the hermit card to?"
    assert legal(m) == ["P2", "P3", "P4"]
    play(m, "P2")
    assert m.question["chooser"] == 1
    assert m.question["prompt"] == "P1 gave you a hermit card: does it apply to you?"
    return m


def test_3_exorcism_to_a_hunter_does_nothing():
    m = _exorcism("George")
    assert legal(m) == ["nothing happens"]          # asked all the same
    play(m, "nothing happens")
    assert var(m, "damage") == [0, 1, 0, 0]
    assert step(m) == "fight"
    assert m.messages_for(0)[-1] == "P2: nothing happens"
    assert labels(m, zones(m)["hermit_discard"]) == ["Hermit's Exorcism"]


def test_3_exorcism_to_a_shadow_deals_two():
    m = _exorcism("Vampire")
    assert legal(m) == ["it applies"]
    play(m, "it applies")
    assert var(m, "damage") == [0, 3, 0, 0]
    assert m.messages_for(0)[-1] == "P2 takes 2 damage (hermit card)"


def test_3_unknown_may_say_nothing_happens():
    m = _exorcism("Unknown")
    assert legal(m) == ["it applies", "nothing happens"]
    play(m, "nothing happens")
    assert var(m, "damage") == [0, 1, 0, 0]
    assert var(m, "revealed") == [False] * 4        # lying needs no reveal


def test_3_unknown_may_also_apply_it():
    m = _exorcism("Unknown")
    play(m, "it applies")
    assert var(m, "damage") == [0, 3, 0, 0]


def test_3_the_card_is_seen_by_giver_and_receiver_only():
    m = _exorcism("Vampire")
    play(m, "it applies")
    assert "you draw Hermit's Exorcism" in m.messages_for(0)
    assert "P1 gives you Hermit's Exorcism: If you are a Shadow: take 2 damage. Otherwise nothing happens." \
        in m.messages_for(1)
    for p in (2, 3):
        assert not any("Exorcism" in t for t in m.messages_for(p))


# ---- 4. Werewolf, revealed, counter-attacks out of its turn --------------------------------------
def _werewolf_attacked(revealed: bool, stay_hidden: bool = True):
    pos = (Position(["Emi", "Werewolf", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
           .turn(0, "fight").rolls((6, 5), (4, 1), (6, 4), (4, 1)))
    if revealed:
        pos.reveal(1)
    m = pos.match()
    play(m, "attack P2", stay_hidden=stay_hidden)
    return m


def test_4_revealed_werewolf_counterattacks_the_attacker():
    m = _werewolf_attacked(True)
    assert m.question["chooser"] == 1
    assert m.question["prompt"] == "Counterattack: attack P1?"
    assert legal(m) == ["yes", "no"]
    play(m, "yes")
    assert var(m, "damage") == [3, 4, 0, 0]         # 5-1 to the Werewolf, 4-1 back
    assert current(m) == 0 and step(m) == "end"
    assert m.messages_for(3)[-2:] == ["P2 attacks P1: d6 4, d4 1", "P1 takes 3 damage"]


def test_4_werewolf_may_decline_the_counterattack():
    m = _werewolf_attacked(True)
    play(m, "no")
    assert var(m, "damage") == [0, 4, 0, 0]


OFFER = "P1 attacked you: do you reveal your character now?"


def test_4_hidden_werewolf_is_asked_whether_it_reveals_and_may_then_counterattack():
    m = _werewolf_attacked(False, stay_hidden=False)
    assert var(m, "damage") == [0, 4, 0, 0]
    q = m.question
    assert q["chooser"] == 1 and q["prompt"] == OFFER and q["options"] == ["reveal myself", "stay hidden"]
    play(m, "reveal myself", stay_hidden=False)
    assert var(m, "revealed") == [False, True, False, False]
    assert "P2 is Werewolf (Shadow, 14 HP)" in m.messages_for(0)
    assert m.question["chooser"] == 1 and m.question["prompt"] == "Counterattack: attack P1?"
    play(m, "yes", stay_hidden=False)
    assert m.question["chooser"] == 0 and m.question["prompt"] == "P2 attacked you: do you reveal your character now?"
    play(m, "stay hidden", stay_hidden=False)
    assert var(m, "damage") == [3, 4, 0, 0]          # d6 4, d4 1 back at P1
    assert current(m) == 0 and step(m) == "end"


def test_4_hidden_werewolf_that_stays_hidden_does_not_counterattack():
    m = _werewolf_attacked(False, stay_hidden=False)
    play(m, "stay hidden", stay_hidden=False)
    assert m.question is None
    assert var(m, "damage") == [0, 4, 0, 0] and var(m, "revealed") == [False] * 4
    assert legal(m) == ["end turn", "reveal"]


def test_4_every_hidden_attacked_character_is_asked_the_same_so_asking_betrays_nothing():
    """Emi, a Hunter, attacked by the Werewolf is asked exactly what the Werewolf is asked, and the
    others see only that P2 is choosing."""
    m = (Position(["Werewolf", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P2", stay_hidden=False)
    q = m.question
    assert q["chooser"] == 1 and q["prompt"] == OFFER and q["options"] == ["reveal myself", "stay hidden"]
    for p in (0, 2, 3):
        assert m.view(p)["choice"] == {"chooser": 1, "prompt": OFFER, "kind": "one", "options": None, "running": []}
    play(m, "reveal myself", stay_hidden=False)       # any character may reveal then (H9)
    assert var(m, "revealed") == [False, True, False, False] and m.question is None


def test_4_the_player_asked_whether_to_reveal_is_not_offered_the_any_time_reveal_besides():
    """A first hour at the terminal: asked "do you reveal your character now?", Emi typed the
    any-time `reveal` listed under the question; she was revealed and the same question came back,
    "stay hidden" then read in everyone's log after "P2 is Emi". The question is the offer; the
    others may still reveal meanwhile."""
    m = (Position(["Werewolf", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P2", stay_hidden=False)
    assert m.question["prompt"] == OFFER
    assert [a.text for a in m.interrupts(1)] == []
    assert "P3: reveal" in [a.text for a in m.interrupts(2)]
    play(m, "reveal myself", stay_hidden=False)
    assert var(m, "revealed") == [False, True, False, False] and m.question is None
    assert var(m, "asked_to_reveal") is None


def test_4_daniel_is_asked_too_but_may_only_stay_hidden():
    m = (Position(["Werewolf", "Daniel", "Emi", "George", "Vampire"]).at("cabin", "gate", "church", "woods", "altar")
         .turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P2", stay_hidden=False)
    assert m.question["chooser"] == 1 and m.question["prompt"] == OFFER
    assert m.question["options"] == ["stay hidden"]


def test_4_revealed_or_killed_targets_are_not_asked():
    m = (Position(["Emi", "Werewolf", "Allie", "Bob"]).at("cabin", "gate", "church", "woods").reveal(1)
         .turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P2", stay_hidden=False)
    assert m.question["prompt"] == "Counterattack: attack P1?"          # revealed: straight to its ability
    m = (Position(["Emi", "Vampire", "Werewolf", "George"]).at("cabin", "gate", "church", "woods").damage(1, 12)
         .turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P2", stay_hidden=False)
    assert var(m, "dead")[1] and m.question is None


# ---- 5. Vampire heals 2 when its attack deals damage -------------------------------------------
def test_5_vampire_damaging_attack_heals_two():
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .reveal(0).damage(0, 5).turn(0, "fight").rolls((6, 4), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "damage") == [3, 3, 0, 0]
    assert m.messages_for(1)[-1] == "P1 heals 2"


def test_5_vampire_miss_heals_nothing():
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .reveal(0).damage(0, 5).turn(0, "fight").rolls((6, 2), (4, 2)).match())
    play(m, "attack P2")
    assert var(m, "damage") == [5, 0, 0, 0]


# ---- 6. a kill takes one of the victim's equipment cards, chosen ---------------------------------
def test_6_killer_chooses_one_of_two_equipment_cards():
    m = (Position(["Emi", "Vampire", "Werewolf", "George"]).at("cabin", "gate", "church", "woods")
         .damage(1, 12).equipment(1, "Talisman", "Mystic Compass").turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P2")
    assert var(m, "dead") == [False, True, False, False]
    assert m.question["chooser"] == 0
    assert m.question["prompt"] == "Which of P2's equipment cards do you take?"
    assert sorted(legal(m)) == ["Mystic Compass", "Talisman", "pass"]   # (or none: the killer "may take one")
    play(m, "Mystic Compass")
    z = zones(m)
    assert labels(m, z["equipment"][0]) == ["Mystic Compass"]
    assert z["equipment"][1] == []
    assert labels(m, z["white_discard"]) == ["Talisman"]   # the rest is discarded
    assert m.outcome is None


# ---- 7. all Hunters dead: every Shadow wins, dead ones included; Allie alive wins too ------------
def _last_hunter_killed(allie_dead: bool):
    pos = (Position(["Vampire", "Werewolf", "Emi", "George", "Allie"])
           .at("church", "gate", None, "cabin", "woods").dead(0, 2).damage(3, 13).turn(1, "fight")
           .rolls((6, 2), (4, 1)))
    if allie_dead:
        pos.dead(4)
    m = pos.match()
    play(m, "attack P4")
    return m


def test_7_all_hunters_dead_shadows_win_with_dead_shadows_and_living_allie():
    m = _last_hunter_killed(False)
    assert var(m, "dead") == [True, False, True, True, False]
    assert m.outcome is not None
    assert winners(m) == [0, 1, 4]
    assert m.outcome["reason"] == ("Shadows win: every Hunter is dead (P3 Emi, P4 George). P5 Allie wins: Allie "
                                   "is alive when the game ends. The winners: P1 Vampire (Shadow), P2 Werewolf "
                                   "(Shadow), P5 Allie (Neutral).")


def test_7_dead_allie_does_not_win():
    m = _last_hunter_killed(True)
    assert winners(m) == [0, 1]


# ---- 8. Daniel reveals when another character dies; Daniel dying first wins -----------------------
def test_8_daniel_must_reveal_when_another_character_dies():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Daniel"])
         .at("cabin", "gate", "church", "woods", "altar").damage(1, 12).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    assert "P5: reveal" not in [a.text for a in m.interrupts(4)]    # never at will
    play(m, "attack P2")
    assert m.outcome is None                         # the Werewolf still lives
    assert var(m, "revealed") == [False, True, False, False, True]
    assert "P5 screams" in m.messages_for(0)
    assert "P5 is Daniel (Neutral, 13 HP)" in m.messages_for(0)


def test_8_daniel_may_not_reveal_at_will():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Daniel"])
         .at("cabin", "gate", "church", "woods", "altar").turn(4, "move").match())
    assert legal(m) == ["roll"]
    assert [a.text for a in m.interrupts(0)] == ["P1: reveal"]
    assert [a.text for a in m.interrupts(4)] == []


def test_8_daniel_dying_first_wins():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Daniel"])
         .at("cabin", "gate", "church", "woods", "gate").damage(4, 12).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P5")
    assert var(m, "dead") == [False, False, False, False, True]
    assert winners(m) == [4]


def test_8_daniel_dying_second_does_not_win():
    m = (Position(["Emi", "Vampire", "George", "Werewolf", "Daniel"])
         .at("cabin", "gate", None, "woods", "gate").dead(2).damage(4, 12).turn(0, "fight")
         .rolls((6, 3), (4, 1)).match())
    play(m, "attack P5")
    assert var(m, "dead") == [False, False, True, False, True]
    assert m.outcome is None


# ---- 9. Weird Woods may hurt oneself; the Altar with no equipment anywhere does nothing ----------
def test_9_weird_woods_damages_oneself():
    m = (Position(["Emi", "Vampire", "Allie", "Bob"]).at("woods", "gate", "church", "cabin")
         .turn(0, "area").match())
    play(m, "wound P1 (2 damage)")
    assert var(m, "damage") == [2, 0, 0, 0]
    assert step(m) == "fight"


def test_9_erstwhile_altar_without_equipment_offers_only_skipping():
    m = (Position(["Emi", "Vampire", "Allie", "Bob"]).at("altar", "gate", "church", "cabin")
         .turn(0, "area").match())
    assert legal(m) == ["skip", "reveal"]
    play(m, "skip")
    assert step(m) == "fight"
    assert var(m, "damage") == [0, 0, 0, 0]


def test_9_erstwhile_altar_does_not_take_from_oneself():
    m = (Position(["Emi", "Vampire", "Allie", "Bob"]).at("altar", "gate", "church", "cabin")
         .equipment(0, "Talisman").equipment(2, "Chainsaw").turn(0, "area").match())
    assert legal(m) == ["take P3 Chainsaw", "skip", "reveal"]
    play(m, "take P3 Chainsaw")
    assert sorted(labels(m, zones(m)["equipment"][0])) == ["Chainsaw", "Talisman"]
    assert zones(m)["equipment"][2] == []


# ---- 10. a view never names an unrevealed opponent's character or faction -----------------------
def test_10_view_hides_unrevealed_opponents():
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .reveal(2).turn(0, "fight").rolls((6, 5), (4, 1)).match())
    play(m, "attack P2")
    for viewer in range(4):
        v = m.view(viewer)
        v.pop("game")                                # "Shadow Hunters" itself
        # (your own character's lines name the side you play against: "You win when every Hunter …")
        v["values"] = [x for x in v["values"] if x["name"] != "You"]
        text = json.dumps(v) + json.dumps(m.messages_for(viewer))
        for p, (name, faction) in enumerate([("Vampire", "Shadow"), ("Emi", "Hunter"), ("Bob", "Neutral")]):
            seat = [0, 1, 3][p]
            if seat == viewer:
                assert name in text
            else:
                assert name not in text, (viewer, name)
                # (Allie's "Neutral" is known to all: no other faction word is anywhere, and the
                # hidden player's own line says nothing of it)
                assert faction == "Neutral" or faction not in text, (viewer, name)
                # (the damage taken is public: P2 took 4 from the attack)
                assert player_lines(shown(m.view(viewer), "Players"))[seat] == \
                    f"P{seat + 1}: hidden" + (", 4 damage" if seat == 1 else "")
        assert "Allie" in text                       # revealed: seen by all
