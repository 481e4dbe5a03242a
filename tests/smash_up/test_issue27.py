"""Smash Up, issue 27: the departures from the digest and the card texts that were left as
`# APPROXIMATION:` notes, and copies of a card that collapsed into one action. Each test builds
the exact position (test_bases.Position: a real match's state edited and restored) and checks the
exact result; each fails on the rule files before the issue.

SMASH_UP_RULES=path/to/smash_up.rules runs the tests against another copy of the rules.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_bases import Position, answer, labels, legal, pass_windows, var, zone  # noqa: E402

OASIS, LIBRARY, PITS = "Jungle Oasis", "The Great Library", "Tar Pits"


class Pos(Position):
    def __init__(self, factions: str, *bases: str, current: int = 0):
        super().__init__(factions=factions)
        self.bases(*(bases or (OASIS, LIBRARY, PITS)))
        self.turn(current)

    def on_minion(self, label: str, owner: int, target: int) -> int:
        c = self.take(label, owner)
        self.z["attached"].append(c)
        self.st["vars"]["on_minion"][c] = target
        return c

    def set(self, name: str, key, value):
        self.st["vars"][name][key] = value
        return self


def plays(m):
    return [a for a in legal(m) if a.startswith("play ")]



# ---- limited extra plays, kept for later in the play phase --------------------------------------
def test_fixer_off_turn_not_the_first_minion_that_player_played_this_turn_gives_nothing():
    """Microbot Fixer: "if this is the first minion you played this turn". In P2's scoring, P1
    plays Shinobi, then Hidden Ninja puts Fixer on the base: Fixer is P1's second minion this turn
    (the old rules took every off-turn Fixer to be the first)."""
    pos = (Pos("ninjas+robots,aliens+dinosaurs", current=1)
           .minions(1, OASIS, "King Rex", "Supreme Overlord")          # 12: Jungle Oasis scores
           .hand(0, "Shinobi", "Hidden Ninja", "Microbot Fixer", "Zapbot"))
    m = pos.match()
    answer(m, "done")                                # P2 ends the play phase: the base scores
    assert pass_windows(m) == [1]                    # asked first from the current player, P2 passes
    answer(m, "Shinobi")                             # P1: a minion played this turn (P2's)
    assert m.question["kind"] == "window"
    assert pass_windows(m) == [1]                    # P2 is asked again and passes; then P1 again
    assert m.question["kind"] == "window" and m.question["chooser"] == 0
    answer(m, "Hidden Ninja", "Microbot Fixer")      # the second minion P1 plays this turn
    assert m.question is None or m.question["prompt"] != "play an extra minion"
    assert "Zapbot" in zone(m, "hand", 0)


def test_fixer_off_turn_as_the_first_minion_plays_an_extra_minion_at_once():
    pos = (Pos("ninjas+robots,aliens+dinosaurs", current=1)
           .minions(1, OASIS, "King Rex", "Supreme Overlord")
           .hand(0, "Hidden Ninja", "Microbot Fixer", "Zapbot"))
    m = pos.match()
    answer(m, "done")
    assert pass_windows(m) == [1]                    # P2 (the current player) is asked first, and passes
    answer(m, "Hidden Ninja", "Microbot Fixer")
    assert m.question["prompt"] == "play an extra minion" and m.question["options"] == ["Zapbot", "pass"]


def test_a_minion_played_by_hidden_ninja_asks_in_its_own_name_at_the_terminal():
    """A player's trial: Collector played through Hidden Ninja asked "(because of Hidden Ninja)"
    with Hidden Ninja's text under it; the question is the played minion's, as when it is played."""
    import io
    from rulelang.play.repl import _Session
    pos = (Pos("ninjas+robots,aliens+dinosaurs", current=1)
           .minions(1, OASIS, "King Rex", "Supreme Overlord")
           .hand(0, "Hidden Ninja", "Microbot Fixer", "Zapbot"))
    m = pos.match()
    answer(m, "done")
    assert pass_windows(m) == [1]
    answer(m, "Hidden Ninja", "Microbot Fixer")
    assert m.view(0)["choice"]["asker"]["label"] == "Microbot Fixer"
    out = io.StringIO()
    session = _Session(m.game, 2, 0, {}, {}, io.StringIO(""), out, "smash_up.rules", match=m)
    session.draw(0, m.legal_actions())
    screen = " ".join(out.getvalue().split())           # (wrapped to the terminal's width)
    assert "you must choose: Microbot Fixer: play an extra minion (because of Hidden Ninja)" in screen
    assert "(Microbot Fixer: " in screen                 # its text, after Hidden Ninja's


def test_an_extra_minion_granted_in_ones_own_scoring_phase_is_played_at_once():
    """The play phase and the scoring phase are told apart: Fixer put on a base by Hidden Ninja in
    its owner's own scoring gives its extra minion at once (the old rules added a play nobody
    could use any more)."""
    pos = (Pos("ninjas+robots,aliens+dinosaurs")
           .minions(1, OASIS, "King Rex", "Supreme Overlord")
           .hand(0, "Hidden Ninja", "Microbot Fixer", "Zapbot"))
    m = pos.match()
    answer(m, "done", "Hidden Ninja", "Microbot Fixer")
    assert m.question["prompt"] == "play an extra minion" and m.question["options"] == ["Zapbot", "pass"]
    answer(m, "Zapbot", OASIS)
    # Zapbot's own extra minion (power 2 or less): asked though the hand holds none (`always`)
    assert m.question["prompt"] == "play an extra minion" and m.question["options"] == ["pass"]
    answer(m, "pass")
    assert pass_windows(m) == [1, 0]                 # P2, then P1 again, asked: nothing more, it scores
    assert sorted(zone(m, "discard", 0)) == ["Hidden Ninja", "Microbot Fixer", "Zapbot"]   # scored there


def test_an_extra_action_granted_in_ones_own_scoring_phase_is_played_at_once():
    pos = (Pos("ninjas+wizards,aliens+dinosaurs")
           .minions(1, OASIS, "King Rex", "Supreme Overlord")
           .hand(0, "Hidden Ninja", "Chronomage", "Mystic Studies"))
    m = pos.match()
    answer(m, "done", "Hidden Ninja", "Chronomage")  # (the only minion in hand: asked all the same)
    assert m.question["prompt"] == "play an extra action" and m.question["options"] == ["Mystic Studies", "pass"]


def test_outbreak_extra_minion_waits_and_checks_the_base_when_it_is_played():
    pos = (Pos("zombies+wizards,aliens+dinosaurs")
           .minions(0, OASIS, "Walker")
           .hand(0, "Outbreak", "Grave Digger", "Enchantress"))
    m = pos.match()
    answer(m, "act Outbreak")
    assert m.question is None
    answer(m, f"play Enchantress on {LIBRARY}", "your minion play")     # the turn's play, on purpose
    # the extra one: only where P1 has no minion now (not Jungle Oasis, not The Great Library)
    assert plays(m) == [f"play Grave Digger on {PITS}"]


def test_zapbot_extra_minion_is_lost_at_the_end_of_the_turn():
    pos = Pos("robots+wizards,aliens+dinosaurs").hand(0, "Zapbot", "Microbot Guard")
    m = pos.match()
    answer(m, f"play Zapbot on {OASIS}", "done")
    answer(m, "done")                                # P2's turn, then P1's again
    assert var(m, "extra_small") == 0 and var(m, "minion_plays")[0] == 1


# ---- Mass Enchantment: the played card is its player's -----------------------------------------
def test_mass_enchantment_an_ongoing_action_from_another_deck_is_controlled_by_its_player():
    pos = (Pos("wizards+aliens,zombies+dinosaurs")
           .hand(0, "Mass Enchantment", "Invader").hand(1, "Walker").deck(1, "Overrun"))
    m = pos.match()
    answer(m, "act Mass Enchantment", "Overrun (P2)", OASIS)
    assert f"play Invader on {OASIS}" in legal(m)      # P1 controls Overrun: P1 may play there
    answer(m, "done")
    assert f"play Walker on {OASIS}" not in legal(m) and f"play Walker on {LIBRARY}" in legal(m)
    answer(m, "done")                                # P1's turn: "destroy this card at the start of your turn"
    assert zone(m, "attached") == [] and "Overrun" in zone(m, "discard", 1)


# ---- Smoke Bomb, Wildlife Preserve: enforced when played and when a target is offered ----------
def test_smoke_bomb_is_played_on_ones_own_minion_only():
    pos = Pos("ninjas+pirates,aliens+dinosaurs")
    pos.minion("Shinobi", 0, OASIS)
    pos.minion("King Rex", 1, OASIS)
    pos.hand(0, "Smoke Bomb")
    m = pos.match()
    assert [a for a in legal(m) if a.startswith("attach")] == [f"attach Smoke Bomb to Shinobi (P1) on {OASIS}"]


def test_cannon_does_not_offer_a_minion_smoke_bomb_or_wildlife_preserve_protects():
    pos = Pos("ninjas+dinosaurs,pirates+aliens", current=1)
    bombed = pos.minion("Ninja Acolyte", 0, OASIS)
    pos.on_minion("Smoke Bomb", 0, bombed)
    pos.minion("Ninja Acolyte", 0, LIBRARY)
    pos.action_on_base("Wildlife Preserve", 0, LIBRARY)
    pos.minion("Ninja Acolyte", 0, PITS)            # not sheltered
    pos.minion("First Mate", 1, PITS)
    pos.hand(1, "Cannon")
    m = pos.match()
    answer(m, "act Cannon")
    assert sorted(m.question["options"]) == [f"First Mate (P2, {PITS})", f"Ninja Acolyte (P1, {PITS})", "pass"]


def test_wildlife_preserve_minions_are_not_offered_to_another_players_action_on_a_minion():
    pos = Pos("dinosaurs+aliens,ninjas+pirates", current=1)
    pos.minion("King Rex", 0, OASIS)
    pos.action_on_base("Wildlife Preserve", 0, OASIS)
    pos.minion("Saucy Wench", 1, OASIS)
    pos.hand(1, "Poison")
    m = pos.match()
    assert [a for a in legal(m) if a.startswith("attach")] == [f"attach Poison to Saucy Wench (P2) on {OASIS}"]


# ---- Infiltrate: its controller only may ignore the base -----------------------------------------
def test_infiltrate_only_its_controller_may_ignore_the_base():
    pos = Pos("ninjas+pirates,zombies+aliens")
    pos.action_on_base("Infiltrate", 0, PITS)
    walker = pos.minion("Walker", 1, PITS)
    mate = pos.minion("First Mate", 0, PITS)
    pos.hand(0, "Cannon")
    m = pos.match()
    answer(m, "act Cannon", f"Walker (P2, {PITS})")
    st = m.state()
    assert st["zones"]["deck"][1][0] == walker       # Tar Pits applies to P2: the bottom of P2's deck
    answer(m, f"First Mate (P1, {PITS})")
    assert m.question["chooser"] == 0 and m.question["prompt"] == "ignore the ability of Tar Pits (Infiltrate)?"
    answer(m, "yes")
    assert mate in m.state()["zones"]["discard"][0]  # P1 ignored it: the discard pile


# ---- Mark of Sleep: Specials and extra actions too -----------------------------------------------
def test_hidden_ninja_and_full_sail_not_under_mark_of_sleep():
    pos = (Pos("ninjas+pirates,tricksters+dinosaurs", current=1)
           .minions(1, OASIS, "King Rex")
           .minions(0, LIBRARY, "First Mate")
           .hand(0, "Hidden Ninja", "Full Sail", "Shinobi", "Ninja Master")
           .hand(1, "Mark of Sleep"))
    m = pos.match()
    answer(m, "act Mark of Sleep", "P1", "done")    # P1's next turn: no action at all
    assert "act Full Sail" not in legal(m)
    answer(m, f"play Ninja Master on {OASIS}", "pass", "done")     # 12: Jungle Oasis scores
    assert m.question["kind"] == "window" and m.question["options"] == ["Shinobi", "pass"]


def test_hidden_ninja_is_never_played_with_act():
    m = Pos("ninjas+pirates,aliens+dinosaurs").hand(0, "Hidden Ninja", "Full Sail").match()
    assert "act Hidden Ninja" not in legal(m) and "act Full Sail" in legal(m)


def test_mark_of_sleep_stops_an_extra_action_played_at_once():
    pos = (Pos("wizards+aliens,tricksters+dinosaurs", current=1).hand(0, "Neophyte").hand(1, "Mark of Sleep")
           .deck(0, "Summon"))
    m = pos.match()
    answer(m, "act Mark of Sleep", "P1", "done")
    answer(m, f"play Neophyte on {OASIS}")
    assert m.question is None and "Summon" in zone(m, "hand", 0)


# ---- Archmage: its extra action goes with it ------------------------------------------------------
def test_archmage_leaving_play_takes_its_unused_extra_action():
    pos = (Pos("wizards+aliens,zombies+dinosaurs", current=1).minions(0, OASIS, "Archmage")
           .hand(0, "Supreme Overlord", "Mystic Studies", "Summon"))
    m = pos.match()
    answer(m, "done")                                # P1's turn starts: Archmage's extra action
    answer(m, f"play Supreme Overlord on {LIBRARY}", f"Archmage (P1) on {OASIS}")
    assert "Archmage" in zone(m, "hand", 0)
    answer(m, "act Mystic Studies")                  # the turn's own action play
    assert not any(a.startswith("act ") for a in legal(m))


# ---- copies of a card: one action each, labels that tell them apart -------------------------------
def test_poison_offers_every_war_raptor():
    pos = Pos("ninjas+dinosaurs,dinosaurs+aliens")
    pos.minion("War Raptor", 0, OASIS)
    pos.minion("War Raptor", 1, OASIS)
    upgraded = pos.minion("War Raptor", 1, OASIS)
    pos.on_minion("Upgrade", 1, upgraded)
    pos.minion("War Raptor", 1, LIBRARY)
    pos.hand(0, "Poison")
    m = pos.match()
    assert [a for a in legal(m) if a.startswith("attach")] == [
        f"attach Poison to War Raptor (P1) on {OASIS}", f"attach Poison to War Raptor (P2) on {OASIS}",
        f"attach Poison to War Raptor (P2) on {LIBRARY}"]
    answer(m, f"attach Poison to War Raptor (P2) on {OASIS}")
    assert m.question["options"] == [f"War Raptor (P2) on {OASIS}, power 5",
                                     f"War Raptor (P2) on {OASIS} with Upgrade, power 7"]
    answer(m, f"War Raptor (P2) on {OASIS} with Upgrade, power 7")
    assert var(m, "on_minion")[pos.labels.index("Poison")] == upgraded


def test_same_named_minions_with_different_attachments_are_labelled_by_what_they_carry():
    pos = Pos("ninjas+pirates,dinosaurs+aliens")
    pos.minion("Collector", 1, OASIS)
    other = pos.minion("Collector", 1, OASIS)
    pos.on_minion("Tooth and Claw... and Guns", 1, other)
    pos.hand(0, "Cannon")
    m = pos.match()
    answer(m, "act Cannon")
    assert sorted(m.question["options"]) == [f"Collector (P2, {OASIS})",
                                             f"Collector (P2, {OASIS}) with Tooth and Claw... and Guns", "pass"]


def test_ninja_acolyte_copies_one_use_per_base_and_a_question_when_they_carry_different_actions():
    pos = Pos("ninjas+dinosaurs,aliens+pirates")
    pos.minion("Ninja Acolyte", 0, OASIS)
    upgraded = pos.minion("Ninja Acolyte", 0, OASIS)
    pos.on_minion("Upgrade", 0, upgraded)
    pos.minion("Ninja Acolyte", 0, LIBRARY)
    pos.hand(0, "Shinobi")
    m = pos.match()
    assert [a for a in legal(m) if a.startswith("use")] == [f"use Ninja Acolyte on {OASIS}",
                                                            f"use Ninja Acolyte on {LIBRARY}"]
    answer(m, f"use Ninja Acolyte on {OASIS}")
    assert m.question["options"] == [f"Ninja Acolyte (P1) on {OASIS}, power 2",
                                     f"Ninja Acolyte (P1) on {OASIS} with Upgrade, power 4"]
    answer(m, f"Ninja Acolyte (P1) on {OASIS} with Upgrade, power 4")
    assert upgraded in m.state()["zones"]["hand"][0] and zone(m, "discard", 0) == ["Upgrade"]
