"""Smash Up: the 16 base abilities (games/smash_up/bases.rules) and digest scenarios 1, 3, 4, 5,
6 and 10 (shared/rules/smash_up_cards.md).

Every test builds an exact position from a real match's `state()` (components moved between zone
lists, `at` and `vp` set), restores it with `rulelang.Match.from_state`, plays actions and answers
choices by their texts, and checks the exact result. Only minions whose abilities are on-play (or
none) are put in play, and no hand holds a card that answers a scoring window, so the faction
abilities do not change these positions. Every player is still asked the window before a base
scores (it is opened `always`, so that being asked tells nothing) and passes: `pass_windows`.

SMASH_UP_RULES=path/to/smash_up.rules runs the tests against another copy of the rules.
"""
from __future__ import annotations

import os
from pathlib import Path

import rulelang
from shipped import shipped
from opening import kept  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


game = rulelang.load(os.environ["SMASH_UP_RULES"]) if os.environ.get("SMASH_UP_RULES") else shipped("smash_up")

TWO = "aliens+dinosaurs,ninjas+pirates"
THREE = "aliens+dinosaurs,ninjas+pirates,robots+zombies"


class Position:
    """A position built from scratch: bases, minions, hands, decks, discards, VP. Every card not
    placed goes to its owner's deck under the cards given for the deck; every base not placed goes
    to the base deck under the bases given for it. Decks are listed top first."""

    def __init__(self, players: int = 2, factions: str = TWO, seed: int = 0):
        self.st = kept(game.new_match(players, seed=seed, options={"factions": factions})).state()
        comps = self.st["components"]
        self.labels = [c["label"] for c in comps]
        self.kinds = [c["kind"] for c in comps]
        self.owners = [c["fields"].get("owner") for c in comps]
        self.players = players
        self.placed: set[int] = set()
        self.z = {"hand": [[] for _ in range(players)], "deck_top": [[] for _ in range(players)],
                  "discard": [[] for _ in range(players)], "bases": [], "base_deck_top": [],
                  "field": [], "attached": [], "parked": []}

    def take(self, label: str, owner: int | None = None) -> int:
        for c, name in enumerate(self.labels):
            if name == label and c not in self.placed and (owner is None or self.owners[c] == owner):
                self.placed.add(c)
                return c
        raise ValueError(f"no free {label!r} of P{(owner or 0) + 1}")

    def base_id(self, label: str) -> int:
        return self.labels.index(label)

    def bases(self, *labels):
        self.z["bases"] += [self.take(x) for x in labels]
        return self

    def base_deck(self, *labels):                      # top first
        self.z["base_deck_top"] += [self.take(x) for x in labels]
        return self

    def minion(self, label: str, owner: int, base: str) -> int:
        c = self.take(label, owner)
        self.z["field"].append(c)
        self.st["vars"]["at"][c] = self.base_id(base)
        return c

    def minions(self, owner: int, base: str, *labels):
        for x in labels:
            self.minion(x, owner, base)
        return self

    def action_on_base(self, label: str, owner: int, base: str) -> int:
        c = self.take(label, owner)
        self.z["attached"].append(c)
        self.st["vars"]["on_base"][c] = self.base_id(base)
        return c

    def hand(self, p: int, *labels):
        self.z["hand"][p] += [self.take(x, p) for x in labels]
        return self

    def deck(self, p: int, *labels):                   # top first
        self.z["deck_top"][p] += [self.take(x, p) for x in labels]
        return self

    def discard(self, p: int, *labels):                # bottom first
        self.z["discard"][p] += [self.take(x, p) for x in labels]
        return self

    def park(self, p: int):
        """Every card of p not placed yet goes out of the game's way (the `resolving` pile, empty between plays),
        so that p's deck holds only the cards given for it."""
        for c in range(len(self.labels)):
            if self.kinds[c] == "Card" and self.owners[c] == p and c not in self.placed:
                self.placed.add(c)
                self.z["parked"].append(c)
        return self

    def scored_bases(self, *labels):                   # the base discard, bottom first
        self.z.setdefault("base_discard", [])
        self.z["base_discard"] += [self.take(x) for x in labels]
        return self

    def park_bases(self):
        """Every base not placed yet goes out of the game (the `resolving` pile): the base deck
        holds only the bases given for it."""
        for c in range(len(self.labels)):
            if self.kinds[c] == "Base" and c not in self.placed:
                self.placed.add(c)
                self.z["parked"].append(c)
        return self

    def vp(self, *points):
        self.st["vars"]["vp"] = list(points)
        return self

    def turn(self, p: int):
        self.st["current"] = self.st["actor"] = p
        self.st["vars"]["minion_plays"] = [1 if q == p else 0 for q in range(self.players)]
        self.st["vars"]["action_plays"] = [1 if q == p else 0 for q in range(self.players)]
        return self

    def match(self) -> rulelang.Match:
        st, z = self.st, self.z
        rest = [c for c in range(len(self.labels)) if c not in self.placed]
        zones = st["zones"]
        for p in range(self.players):
            under = [c for c in st["zones"]["deck"][p] + st["zones"]["hand"][p] if c in rest]
            zones["deck"][p] = under + list(reversed(z["deck_top"][p]))
            zones["hand"][p] = list(z["hand"][p])
            zones["discard"][p] = list(z["discard"][p])
        base_rest = [c for c in rest if self.kinds[c] == "Base"]
        zones["base_deck"] = base_rest + list(reversed(z["base_deck_top"]))
        zones["bases"] = list(z["bases"])
        zones["base_discard"] = list(z.get("base_discard", []))
        zones["field"] = list(z["field"])
        zones["attached"] = list(z["attached"])
        zones["resolving"] = list(z["parked"])
        return rulelang.Match.from_state(game, st)


# ---- reading a match ----------------------------------------------------------------------------
def labels(m, ids):
    names = [c["label"] for c in m.state()["components"]]
    return [names[c] for c in ids]


def zone(m, name, p=None):
    """Labels in a zone (a pile bottom first)."""
    z = m.state()["zones"][name]
    return labels(m, z if p is None else z[p])


def var(m, name):
    return m.state()["vars"][name]


def where(m, c):
    """The label of the base a card in play is on."""
    b = var(m, "at")[c]
    return None if b is None else labels(m, [b])[0]


def options(m):
    return list(m.question["options"])


def legal(m):
    return [a.text for a in m.legal_actions()]


def answer(m, *texts):
    for t in texts:
        assert t in legal(m), (t, m.question)
        m.apply(t)


def sorted_labels(xs):
    return sorted(xs)


def before_scores(m) -> bool:
    """Whether the question is the window opened when a base is about to score."""
    q = m.question
    return q is not None and q["kind"] == "window" and q["prompt"].endswith(" is about to score: play a Special?")


def pass_windows(m) -> list[int]:
    """Answer `pass` for each player asked the before-scores window with nothing else to answer
    (it is opened `always`: every player is asked in turn from the current player, a Special in
    hand or not); the players who passed, in order. Stops at any other question, and at the
    window of another base (one base's window at a time)."""
    passed, prompt = [], m.question and m.question["prompt"]
    while before_scores(m) and m.question["prompt"] == prompt and legal(m) == ["pass"]:
        passed.append(m.question["chooser"])
        m.apply("pass")
    return passed


# ================================================================================================
# The 16 bases
# ================================================================================================

def test_the_homeworld_extra_minion_of_power_2_or_less_anywhere_and_again_if_played_here():
    """The extra minion is kept for later in the play phase (it need not be played at once), with
    its limit: printed power 2 or less, on any base."""
    pos = (Position().bases("The Homeworld", "Jungle Oasis", "Tar Pits")
           .hand(0, "King Rex", "War Raptor", "War Raptor", "Laseratops"))
    m = pos.match()
    m.apply("play King Rex on The Homeworld")
    assert m.question is None and var(m, "extra_small") == 1       # no question: kept for later
    assert sorted(a for a in legal(m) if a.startswith("play ")) == [
        "play War Raptor on Jungle Oasis", "play War Raptor on Tar Pits", "play War Raptor on The Homeworld"]
    answer(m, "play War Raptor on The Homeworld")       # played here: the ability triggers again
    assert var(m, "extra_small") == 1
    answer(m, "play War Raptor on Jungle Oasis")        # played elsewhere: no further extra minion
    assert var(m, "extra_small") == 0 and not any(a.startswith("play ") for a in legal(m))
    field = m.state()["zones"]["field"]
    assert sorted((lbl, where(m, c)) for lbl, c in zip(labels(m, field), field)) == [
        ("King Rex", "The Homeworld"), ("War Raptor", "Jungle Oasis"), ("War Raptor", "The Homeworld")]
    assert zone(m, "hand", 0) == ["Laseratops"]
    assert var(m, "minion_plays")[0] == 0
    assert "done" in legal(m)


def test_the_homeworld_extra_minion_may_be_declined():
    m = Position().bases("The Homeworld", "Jungle Oasis", "Tar Pits").hand(0, "King Rex", "Collector").match()
    m.apply("play King Rex on The Homeworld")
    answer(m, "done")                                # the extra minion is not used
    assert zone(m, "field") == ["King Rex"]


def test_the_homeworld_extra_minion_kept_while_other_cards_are_played():
    """Issue 27: the extra minion of power 2 or less waits while an action is played first."""
    m = (Position().bases("The Homeworld", "Jungle Oasis", "Tar Pits")
         .hand(0, "King Rex", "Howl", "War Raptor").match())
    m.apply("play King Rex on The Homeworld")
    answer(m, "act Howl")
    answer(m, "play War Raptor on Tar Pits")
    assert zone(m, "hand", 0) == [] and var(m, "extra_small") == 0


def test_the_mothership_winner_returns_a_minion_of_power_3_or_less():
    pos = (Position().bases("The Mothership", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "The Mothership", "King Rex", "Supreme Overlord", "Invader")
           .minions(1, "The Mothership", "Ninja Master")
           .deck(0, "Beam Up", "Probe"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    q = m.question
    assert q["chooser"] == 0 and q["options"] == ["Invader", "pass"]   # own, power ≤3 only
    answer(m, "Invader")
    assert m.question is None
    assert var(m, "vp") == [4, 2]
    assert sorted(zone(m, "hand", 0)) == ["Beam Up", "Invader", "Probe"]
    assert sorted(zone(m, "discard", 0)) == ["King Rex", "Supreme Overlord"]
    assert zone(m, "discard", 1) == ["Ninja Master"]
    assert sorted(zone(m, "bases")) == ["Jungle Oasis", "Tar Pits", "Tortuga"]
    assert zone(m, "base_discard") == ["The Mothership"]


def test_jungle_oasis_has_no_ability_and_scores_2_0_0():
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").base_deck("The Central Brain")
           .minions(0, "Jungle Oasis", "King Rex", "Collector")
           .minions(1, "Jungle Oasis", "Tiger Assassin"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question is None
    assert var(m, "vp") == [2, 0]
    assert sorted(zone(m, "discard", 0)) == ["Collector", "King Rex"]
    assert zone(m, "discard", 1) == ["Tiger Assassin"]
    assert zone(m, "field") == []
    assert zone(m, "base_discard") == ["Jungle Oasis"]
    assert zone(m, "bases") == ["The Central Brain", "Tar Pits", "Tortuga"]   # (S6: in its place)
    assert m.current_player == 1
    # the screen lists the bases so (a first hour: the new base came last, as if placed elsewhere)
    bases = next(v for v in m.view(0)["values"] if str(v.get("name", "")).startswith("Bases"))
    assert str(bases["value"][0]).startswith("The Central Brain"), bases


def test_tar_pits_a_minion_destroyed_there_goes_to_the_bottom_of_its_owners_deck():
    # Ninja Dojo scores; its winner destroys P2's Saucy Wench on Tar Pits.
    pos = (Position().bases("Ninja Dojo", "Tar Pits", "Jungle Oasis").base_deck("Tortuga")
           .minions(0, "Ninja Dojo", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Ninja Dojo", "Tiger Assassin"))
    wench = pos.minion("Saucy Wench", 1, "Tar Pits")
    pos.minion("Invader", 0, "Tar Pits")
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    answer(m, "Saucy Wench (P2) on Tar Pits")
    assert m.question is None
    assert m.state()["zones"]["deck"][1][0] == wench            # the bottom of P2's deck
    assert "Saucy Wench" not in zone(m, "discard", 1)
    assert zone(m, "discard", 1) == ["Tiger Assassin"]          # discarded with the Dojo
    assert sorted(zone(m, "field")) == ["Invader"]
    assert var(m, "vp") == [2, 3]
    # (said: a rules audit read only "is destroyed", the card's going to the deck nowhere)
    assert "Saucy Wench goes to the bottom of P2's deck (Tar Pits)" in m.messages_for(0)


def test_tar_pits_other_replacements_of_destroy_still_apply():
    # Warbot (robots.rules) cannot be destroyed: it stays on Tar Pits, nothing goes to the deck
    pos = (Position(3, THREE).bases("Ninja Dojo", "Tar Pits", "Jungle Oasis", "Tortuga").base_deck("Cave of Shinies")
           .minions(0, "Ninja Dojo", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Ninja Dojo", "Tiger Assassin"))
    warbot = pos.minion("Warbot", 2, "Tar Pits")
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1, 2]
    answer(m, "Warbot (P3) on Tar Pits")
    assert m.question is None
    assert where(m, warbot) == "Tar Pits" and warbot not in m.state()["zones"]["deck"][2]


def test_tar_pits_minions_discarded_when_it_scores_go_to_the_discard_pile():
    pos = (Position().bases("Tar Pits", "Jungle Oasis", "Tortuga").base_deck("The Central Brain")
           .minions(0, "Tar Pits", "King Rex", "Supreme Overlord")
           .minions(1, "Tar Pits", "Tiger Assassin"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [4, 3]
    assert sorted(zone(m, "discard", 0)) == ["King Rex", "Supreme Overlord"]
    assert zone(m, "discard", 1) == ["Tiger Assassin"]


def test_ninja_dojo_winner_may_destroy_any_one_minion_on_any_base():
    pos = (Position().bases("Ninja Dojo", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "Ninja Dojo", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Ninja Dojo", "Tiger Assassin")
           .minions(1, "Jungle Oasis", "Saucy Wench"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    q = m.question
    assert q["chooser"] == 0
    # (each says whose: a legibility trial's mirror match offered two `Shinobi on Ninja Dojo`)
    assert sorted(q["options"]) == ["King Rex (P1) on Ninja Dojo", "Laseratops (P1) on Ninja Dojo",
                                    "Saucy Wench (P2) on Jungle Oasis", "Supreme Overlord (P1) on Ninja Dojo",
                                    "Tiger Assassin (P2) on Ninja Dojo", "pass"]
    answer(m, "Saucy Wench (P2) on Jungle Oasis")
    assert m.question is None
    assert sorted(zone(m, "discard", 1)) == ["Saucy Wench", "Tiger Assassin"]
    assert zone(m, "field") == []
    assert var(m, "vp") == [2, 3]


# Abilities set off while a base scores act at once (smash_up_cards.md, rulings: "When several things
# trigger at once…", "check again after each"): before the base's cards are discarded, before the next
# ready base is checked, and before S10's 15-VP check — not once the whole score-bases step is over.

def pass_only_windows(m) -> None:
    while m.question is not None and legal(m) == ["pass"]:
        m.apply("pass")


def test_a_minion_destroyed_after_scoring_acts_before_the_next_ready_base_is_checked():
    # the Dojo's winner destroys its own Nukebot on the Jungle Oasis, also ready (18 of 12): Nukebot
    # destroys P2's minions there, so the Oasis (4 of 12) no longer scores and P2 gains no VP there
    pos = (Position(factions="robots+dinosaurs,ninjas+pirates").bases("Ninja Dojo", "Jungle Oasis", "Tar Pits")
           .base_deck("Tortuga", "The Central Brain").turn(0)
           .minions(0, "Ninja Dojo", "King Rex", "Laseratops", "Laseratops", "Warbot")
           .minions(1, "Ninja Dojo", "Shinobi")
           .minions(0, "Jungle Oasis", "Nukebot", "Warbot")
           .minions(1, "Jungle Oasis", "Ninja Master", "Tiger Assassin"))
    m = pos.match()
    m.apply("done")
    answer(m, "Ninja Dojo")                     # which ready base scores first
    pass_windows(m)
    answer(m, "Nukebot (P1) on Jungle Oasis")
    pass_only_windows(m)
    assert var(m, "vp") == [2, 3]
    assert "Jungle Oasis" in zone(m, "bases")
    assert sorted(zone(m, "discard", 1)) == ["Ninja Master", "Shinobi", "Tiger Assassin"]
    # (and says so: a terminal trial saw a base marked "(scores)" silently not score)
    assert "Jungle Oasis no longer scores: its power 4 is below its breakpoint 12" in m.messages_for(1)


def test_a_minion_destroyed_after_scoring_acts_before_the_bases_cards_are_discarded():
    # Nukebot destroyed on the Dojo itself destroys P2's Gremlin there, whose own ability then acts
    # (P2 draws a card, P1 discards one at random) — before the Dojo's cards go to the discard piles
    pos = (Position(factions="robots+dinosaurs,tricksters+pirates").bases("Ninja Dojo", "Jungle Oasis", "Tar Pits")
           .base_deck("Tortuga", "The Central Brain").turn(0)
           .minions(0, "Ninja Dojo", "King Rex", "Laseratops", "Laseratops")
           .minions(1, "Ninja Dojo", "Gremlin")
           .hand(0, "Armor Stego", "Howl")
           .hand(1, "First Mate"))
    pos.minion("Nukebot", 0, "Ninja Dojo")
    m = pos.match()
    m.apply("done")
    pass_windows(m)
    answer(m, "Nukebot (P1) on Ninja Dojo")
    pass_only_windows(m)
    assert len(zone(m, "hand", 1)) == 2 and "First Mate" in zone(m, "hand", 1)
    kept = [c for c in ("Armor Stego", "Howl") if c in zone(m, "hand", 0)]   # (P1 then draws 2 at turn end)
    assert len(kept) == 1 and ({"Armor Stego", "Howl"} - set(kept)) <= set(zone(m, "discard", 0))
    assert "Gremlin" in zone(m, "discard", 1)


def test_vp_gained_from_a_destroy_after_scoring_count_for_the_15_vp_check():
    # P1 has 14 VP after the Dojo and destroys its own Collector on Cave of Shinies: +1 VP, 15 and
    # alone in the lead at the end of the score-bases step: P1 wins (S10)
    pos = (Position().bases("Ninja Dojo", "Cave of Shinies", "Jungle Oasis").base_deck("Tortuga", "Tar Pits").turn(0)
           .minions(0, "Ninja Dojo", "King Rex", "Supreme Overlord", "Laseratops", "Laseratops")
           .minions(1, "Ninja Dojo", "Shinobi")
           .vp(12, 0))
    pos.minion("Collector", 0, "Cave of Shinies")
    m = pos.match()
    m.apply("done")
    pass_windows(m)
    assert var(m, "vp") == [14, 3]
    answer(m, "Collector (P1) on Cave of Shinies")
    pass_only_windows(m)
    assert var(m, "vp") == [15, 3]
    assert m.is_over and m.scores()[0] > m.scores()[1]


def test_temple_of_goju_each_players_highest_minion_to_the_deck_bottom_ties_chosen_by_owner():
    pos = (Position().bases("Temple of Goju", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(1, "Temple of Goju", "Tiger Assassin", "Buccaneer", "Saucy Wench"))
    rex = pos.minion("King Rex", 0, "Temple of Goju")
    pos.minions(0, "Temple of Goju", "Laseratops")
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    q = m.question                                   # P1's King Rex went without a question
    assert q["chooser"] == 1 and q["options"] == ["Tiger Assassin", "Buccaneer"]
    answer(m, "Buccaneer")
    assert m.question is None
    buccaneer = pos.labels.index("Buccaneer")
    assert m.state()["zones"]["deck"][0][0] == rex
    assert m.state()["zones"]["deck"][1][0] == buccaneer
    assert zone(m, "discard", 0) == ["Laseratops"]
    assert sorted(zone(m, "discard", 1)) == ["Saucy Wench", "Tiger Assassin"]
    assert var(m, "vp") == [2, 2]                    # 11 against 11: both first (2 VP)


def test_temple_of_goju_a_tie_of_two_copies_asks_nothing():
    """Two Tiger Assassins on the base are copies: which one goes changes nothing, so the owner is
    not asked (a choice between copies would be `Tiger Assassin` or `Tiger Assassin #2`)."""
    pos = (Position().bases("Temple of Goju", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(1, "Temple of Goju", "Tiger Assassin", "Tiger Assassin", "Saucy Wench"))
    pos.minion("King Rex", 0, "Temple of Goju")
    pos.minions(0, "Temple of Goju", "Laseratops")
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question is None
    tiger1 = pos.labels.index("Tiger Assassin")
    assert m.state()["zones"]["deck"][1][0] == tiger1
    assert sorted(zone(m, "discard", 1)) == ["Saucy Wench", "Tiger Assassin"]


def test_the_grey_opal_losers_may_move_a_minion_away_instead_of_discarding_it():
    pos = (Position().bases("The Grey Opal", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "The Grey Opal", "King Rex", "Supreme Overlord")
           .minions(1, "The Grey Opal", "Tiger Assassin", "Saucy Wench"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    q = m.question                                   # the winner (P1) is not asked
    assert q["chooser"] == 1 and sorted(q["options"]) == ["Saucy Wench", "Tiger Assassin", "pass"]
    answer(m, "Tiger Assassin")
    assert sorted(options(m)) == ["Jungle Oasis", "Tar Pits"]
    answer(m, "Tar Pits")
    assert m.question is None
    field = m.state()["zones"]["field"]
    assert labels(m, field) == ["Tiger Assassin"] and where(m, field[0]) == "Tar Pits"
    assert zone(m, "discard", 1) == ["Saucy Wench"]
    assert sorted(zone(m, "discard", 0)) == ["King Rex", "Supreme Overlord"]
    assert var(m, "vp") == [3, 1]


def test_tortuga_runner_up_moves_a_minion_from_another_base_to_the_replacement():
    pos = (Position().bases("Tortuga", "Jungle Oasis", "Tar Pits").base_deck("The Central Brain")
           .minions(0, "Tortuga", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Tortuga", "Tiger Assassin", "Saucy Wench")
           .minions(1, "Jungle Oasis", "Ninja Master")
           .minions(0, "Tar Pits", "Invader"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    q = m.question                                   # P2 is the runner-up; Tortuga's minions are gone
    assert q["chooser"] == 1 and q["options"] == ["Ninja Master on Jungle Oasis", "pass"]
    assert "The Central Brain" in zone(m, "bases")   # asked after the replacement
    answer(m, "Ninja Master on Jungle Oasis")
    assert m.question is None
    field = m.state()["zones"]["field"]
    assert sorted((lbl, where(m, c)) for lbl, c in zip(labels(m, field), field)) == [
        ("Invader", "Tar Pits"), ("Ninja Master", "The Central Brain")]
    assert var(m, "vp") == [4, 3]


def test_tortuga_with_an_empty_base_deck_is_not_replaced_and_asks_nothing():
    pos = (Position().bases("Tortuga", "Jungle Oasis", "Tar Pits")
           .minions(0, "Tortuga", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Tortuga", "Tiger Assassin", "Saucy Wench")
           .minions(1, "Jungle Oasis", "Ninja Master"))
    pos.park_bases()
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question is None
    assert sorted(zone(m, "bases")) == ["Jungle Oasis", "Tar Pits"]
    assert zone(m, "base_discard") == ["Tortuga"] and var(m, "vp") == [4, 3]


def test_an_empty_base_deck_is_made_anew_from_the_scored_bases():
    """The digest is silent; as an empty draw deck is, the scored bases (the one scoring now aside)
    are shuffled into a new base deck. A rules audit: with none, a tie at 15 VP with no base left
    in play could never end."""
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").scored_bases("Ninja Dojo", "The Central Brain")
           .minions(0, "Jungle Oasis", "King Rex", "Collector").minions(1, "Jungle Oasis", "Tiger Assassin"))
    pos.park_bases()
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question is None and var(m, "vp") == [2, 0]
    assert zone(m, "base_discard") == ["Jungle Oasis"]
    new = [b for b in zone(m, "bases") if b not in ("Tar Pits", "Tortuga")]
    assert len(new) == 1 and sorted(new + zone(m, "base_deck")) == ["Ninja Dojo", "The Central Brain"]
    assert "the base deck has run out: the scored bases are shuffled into a new base deck" in m.messages_for(1)


def test_factory_436_1337_winner_gains_1_vp_per_full_5_power():
    pos = (Position().bases("Factory 436-1337", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "Factory 436-1337", "King Rex", "Supreme Overlord", "Laseratops", "Invader")  # 19
           .minions(1, "Factory 436-1337", "Tiger Assassin", "Ninja Acolyte"))                      # 6
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question is None
    assert var(m, "vp") == [2 + 3, 2]


def test_the_central_brain_gives_every_minion_there_plus_1_power():
    # printed 7+5 and 3+2: 17 < 19; with +1 each: 14 + 7 = 21, so it scores
    pos = (Position().bases("The Central Brain", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "The Central Brain", "King Rex", "Supreme Overlord")
           .minions(1, "The Central Brain", "Saucy Wench", "Ninja Acolyte"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [4, 2]
    assert zone(m, "base_discard") == ["The Central Brain"]
    # without the +1 the same minions do not reach 19
    pos = (Position().bases("Tortuga", "Jungle Oasis", "The Grey Opal").base_deck("Tar Pits")
           .minions(0, "The Grey Opal", "King Rex", "Supreme Overlord")
           .minions(1, "The Grey Opal", "Saucy Wench"))          # 15 < 17
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == []  # it does not score: nobody is asked
    assert var(m, "vp") == [0, 0] and zone(m, "base_discard") == []


def test_cave_of_shinies_owner_of_a_minion_destroyed_there_gains_1_vp():
    pos = (Position().bases("Ninja Dojo", "Cave of Shinies", "Jungle Oasis").base_deck("Tortuga")
           .minions(0, "Ninja Dojo", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Ninja Dojo", "Tiger Assassin")
           .minions(1, "Cave of Shinies", "Saucy Wench"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    answer(m, "Saucy Wench (P2) on Cave of Shinies")
    assert m.question is None
    assert var(m, "vp") == [2, 3 + 1]
    assert sorted(zone(m, "discard", 1)) == ["Saucy Wench", "Tiger Assassin"]


def test_cave_of_shinies_minions_discarded_after_it_scores_give_nothing():
    pos = (Position().bases("Cave of Shinies", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "Cave of Shinies", "King Rex", "Supreme Overlord", "Laseratops", "Laseratops")
           .minions(1, "Cave of Shinies", "Tiger Assassin"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [4, 2]


def test_mushroom_kingdom_at_turn_start_move_another_players_minion_here():
    pos = (Position().bases("Mushroom Kingdom", "Jungle Oasis", "The Great Library")
           .minions(1, "The Great Library", "Tiger Assassin")
           .minions(0, "Mushroom Kingdom", "Invader"))
    rex = pos.minion("King Rex", 0, "Jungle Oasis")
    m = pos.match()
    m.apply("done")                                  # P1 ends the turn; P2's turn starts
    q = m.question
    assert q["chooser"] == 1
    assert q["options"] == ["King Rex of P1 on Jungle Oasis", "pass"]   # not P2's own, not one already here
    answer(m, "King Rex of P1 on Jungle Oasis")
    assert m.question is None and m.current_player == 1
    assert where(m, rex) == "Mushroom Kingdom"
    assert m.state()["step"] == "play"
    # (a browser trial read "… moves to Mushroom Kingdom (Mushroom Kingdom)")
    said = [x if isinstance(x, str) else x["text"] for x in m.messages]
    assert "King Rex (P1) on Jungle Oasis moves to Mushroom Kingdom (the base's ability)" in said


def test_school_of_wizardry_winner_picks_the_replacement_and_orders_the_other_two():
    pos = (Position().bases("School of Wizardry", "Jungle Oasis", "Tar Pits")
           .base_deck("Tortuga", "The Central Brain", "Factory 436-1337", "Cave of Shinies")
           .minions(0, "School of Wizardry", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "School of Wizardry", "Tiger Assassin"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    q = m.question
    assert q["chooser"] == 0 and q["options"] == ["Tortuga", "The Central Brain", "Factory 436-1337"]
    answer(m, "The Central Brain")
    q = m.question                                   # which of the other two goes on top
    assert q["chooser"] == 0 and sorted(q["options"]) == ["Factory 436-1337", "Tortuga"]
    answer(m, "Factory 436-1337")
    assert m.question is None
    assert sorted(zone(m, "bases")) == ["Jungle Oasis", "Tar Pits", "The Central Brain"]
    assert zone(m, "base_deck")[-3:] == ["Cave of Shinies", "Tortuga", "Factory 436-1337"]
    assert var(m, "vp") == [3, 2]


def test_school_of_wizardry_tied_winners_only_the_first_from_the_current_player_uses_it():
    pos = (Position().bases("School of Wizardry", "Jungle Oasis", "Tar Pits").turn(1)
           .base_deck("Tortuga", "The Central Brain")
           .minions(0, "School of Wizardry", "King Rex", "Invader")           # 10
           .minions(1, "School of Wizardry", "Ninja Master", "Tiger Assassin", "Ninja Acolyte"))  # 11
    pos.minion("Saucy Wench", 1, "Tar Pits")
    m = pos.match()
    m.apply("done")                                  # P2 wins alone
    assert pass_windows(m) == [1, 0]
    assert m.question["chooser"] == 1
    # a tie: P2's turn, so P2 (first from the current player) decides, P1 is not asked
    pos = (Position().bases("School of Wizardry", "Jungle Oasis", "Tar Pits").turn(1)
           .base_deck("Tortuga", "The Central Brain").park_bases()
           .minions(0, "School of Wizardry", "King Rex", "Invader")           # 10
           .minions(1, "School of Wizardry", "Ninja Master", "Saucy Wench", "Ninja Acolyte"))  # 10
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [1, 0]
    assert m.question["chooser"] == 1 and m.question["options"] == ["Tortuga", "The Central Brain"]
    answer(m, "The Central Brain")                   # the other one needs no order
    assert m.question is None
    assert var(m, "vp") == [3, 3]
    assert "The Central Brain" in zone(m, "bases") and zone(m, "base_deck") == ["Tortuga"]


def test_the_great_library_each_player_with_a_minion_there_may_draw_1():
    pos = (Position().bases("The Great Library", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "The Great Library", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "The Great Library", "Tiger Assassin", "Ninja Acolyte")
           .deck(0, "Probe", "Beam Up", "Invasion").deck(1, "Poison", "Dinghy"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question["chooser"] == 0 and m.question["kind"] == "may"
    answer(m, "yes")
    assert m.question["chooser"] == 1
    answer(m, "no")
    assert m.question is None
    assert sorted(zone(m, "hand", 0)) == ["Beam Up", "Invasion", "Probe"]   # 1, then 2 at turn end
    assert zone(m, "hand", 1) == []
    assert var(m, "vp") == [4, 2]


def test_evans_city_cemetery_winner_discards_the_hand_and_draws_5():
    pos = (Position().bases("Evans City Cemetery", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "Evans City Cemetery", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Evans City Cemetery", "Tiger Assassin")
           .hand(0, "Invasion", "Collector").hand(1, "Poison")
           .deck(0, "Probe", "Beam Up", "Invader", "Augmentation", "Howl", "Rampage", "Upgrade"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question is None
    assert sorted(zone(m, "hand", 0)) == sorted(["Probe", "Beam Up", "Invader", "Augmentation", "Howl",
                                                  "Rampage", "Upgrade"])    # 5, then 2 at turn end
    assert sorted(zone(m, "discard", 0)) == ["Collector", "Invasion", "King Rex", "Laseratops", "Supreme Overlord"]
    assert zone(m, "hand", 1) == ["Poison"]          # the loser keeps the hand
    assert var(m, "vp") == [5, 3]


def test_rhodes_plaza_mall_1_vp_per_minion_there():
    pos = (Position().bases("Rhodes Plaza Mall", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "Rhodes Plaza Mall", "King Rex", "Supreme Overlord", "Laseratops", "Laseratops")
           .minions(1, "Rhodes Plaza Mall", "Tiger Assassin", "Ninja Acolyte"))
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert m.question is None
    assert var(m, "vp") == [4, 2]


def test_base_ignored_switches_a_base_ability_off():
    # Jammed Signal (aliens.rules) adds to base_ignored(b) for the base it is on.
    pos = (Position().bases("Rhodes Plaza Mall", "The Central Brain", "Tar Pits").base_deck("Tortuga")
           .minions(0, "Rhodes Plaza Mall", "King Rex", "Supreme Overlord", "Laseratops", "Laseratops")
           .minions(1, "Rhodes Plaza Mall", "Tiger Assassin", "Ninja Acolyte"))
    pos.action_on_base("Jammed Signal", 0, "Rhodes Plaza Mall")
    m = pos.match()
    m.apply("done")                                  # Rhodes Plaza Mall scores, and gives nothing
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [0, 0]
    assert zone(m, "base_discard") == ["Rhodes Plaza Mall"]
    pos = (Position().bases("The Central Brain", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "The Central Brain", "King Rex", "Supreme Overlord")
           .minions(1, "The Central Brain", "Saucy Wench", "Ninja Acolyte"))
    pos.action_on_base("Jammed Signal", 0, "The Central Brain")
    m = pos.match()
    m.apply("done")                                  # 17 < 19 without the +1
    assert pass_windows(m) == []  # it does not score: nobody is asked
    assert var(m, "vp") == [0, 0] and zone(m, "base_discard") == []


# ================================================================================================
# Digest scenarios
# ================================================================================================

def scoring_at_mushroom_kingdom(p1, p2, p3, p3_action=False):
    pos = (Position(3, THREE).bases("Mushroom Kingdom", "Jungle Oasis", "Tar Pits", "Tortuga")
           .base_deck("The Central Brain")
           .minions(0, "Mushroom Kingdom", *p1).minions(1, "Mushroom Kingdom", *p2)
           .minions(2, "Mushroom Kingdom", *p3))
    if p3_action:
        pos.action_on_base("Overrun", 2, "Mushroom Kingdom")
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1, 2]
    assert m.question is None
    return m


def test_s1_scoring_places_9_6_5_get_1st_2nd_3rd():
    m = scoring_at_mushroom_kingdom(["King Rex", "Collector"], ["Tiger Assassin", "Ninja Acolyte"], ["Nukebot"])
    assert var(m, "vp") == [5, 3, 2]                 # breakpoint 20, VP 5/3/2
    assert zone(m, "base_discard") == ["Mushroom Kingdom"]


def test_s1_scoring_tie_for_first_both_first_the_next_is_third():
    m = scoring_at_mushroom_kingdom(["King Rex", "Invader"], ["Ninja Master", "Saucy Wench", "Ninja Acolyte"],
                                    ["Nukebot"])
    assert var(m, "vp") == [5, 5, 2]


def test_s1_scoring_a_player_with_only_an_action_there_gets_nothing():
    m = scoring_at_mushroom_kingdom(["King Rex", "Collector"], ["Ninja Master", "Tiger Assassin", "Ninja Acolyte"],
                                    [], p3_action=True)
    assert var(m, "vp") == [3, 5, 0]
    assert zone(m, "discard", 2) == ["Overrun"] and zone(m, "attached") == []


def test_s3_two_bases_ready_the_current_player_chooses_the_order():
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").base_deck("The Central Brain", "Cave of Shinies")
           .minions(0, "Jungle Oasis", "King Rex", "Supreme Overlord")
           .minions(1, "Tar Pits", "Ninja Master", "Tiger Assassin", "Tiger Assassin", "Saucy Wench"))
    m = pos.match()
    m.apply("done")
    q = m.question
    assert q["chooser"] == 0 and sorted(q["options"]) == ["Jungle Oasis", "Tar Pits"]
    answer(m, "Tar Pits")
    assert m.question["prompt"].startswith("Tar Pits is about to score")
    assert pass_windows(m) == [0, 1]                 # Tar Pits scores; both asked before, and pass
    assert m.question["prompt"].startswith("Jungle Oasis is about to score")
    assert pass_windows(m) == [0, 1]                 # Jungle Oasis then scores: both asked, no other question
    assert m.question is None
    assert zone(m, "base_discard") == ["Tar Pits", "Jungle Oasis"]
    assert sorted(zone(m, "bases")) == ["Cave of Shinies", "The Central Brain", "Tortuga"]
    cb = pos.base_id("The Central Brain")
    assert m.state()["zones"]["bases"].index(cb) >= 0
    assert var(m, "vp") == [2, 4]
    # the other order: the bases come out the other way round
    m = pos.match()
    m.apply("done")
    answer(m, "Jungle Oasis")
    assert m.question["prompt"].startswith("Jungle Oasis is about to score")
    assert pass_windows(m) == [0, 1]
    assert m.question["prompt"].startswith("Tar Pits is about to score")
    assert pass_windows(m) == [0, 1]
    assert m.question is None
    assert zone(m, "base_discard") == ["Jungle Oasis", "Tar Pits"]
    assert var(m, "vp") == [2, 4]


def test_s3_the_current_player_chooses_even_on_another_players_turn():
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").turn(1).base_deck("The Central Brain", "Cave of Shinies")
           .minions(0, "Jungle Oasis", "King Rex", "Supreme Overlord")
           .minions(1, "Tar Pits", "Ninja Master", "Tiger Assassin", "Tiger Assassin", "Saucy Wench"))
    m = pos.match()
    m.apply("done")
    assert m.question["chooser"] == 1


def test_s4_a_hand_of_12_after_drawing_discards_down_to_10():
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga")
           .hand(0, "King Rex", "Supreme Overlord", "Laseratops", "Invader", "Collector", "Beam Up", "Probe",
                 "Invasion", "Howl", "Rampage")
           .deck(0, "Upgrade", "Augmentation"))
    m = pos.match()
    m.apply("done")
    q = m.question
    assert q["chooser"] == 0 and q["kind"] == "subset" and len(q["options"]) == 12
    answer(m, "Upgrade", "Probe")
    assert m.question is None
    assert len(zone(m, "hand", 0)) == 10
    assert sorted(zone(m, "discard", 0)) == ["Probe", "Upgrade"]
    assert m.current_player == 1


def test_s4_eleven_cards_after_drawing_discard_one_ten_discard_none():
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga")
           .hand(0, "King Rex", "Supreme Overlord", "Laseratops", "Invader", "Collector", "Beam Up", "Probe",
                 "Invasion", "Howl").deck(0, "Upgrade", "Augmentation"))
    m = pos.match()
    m.apply("done")
    assert m.question["kind"] == "subset"
    answer(m, "King Rex")
    assert m.question is None and len(zone(m, "hand", 0)) == 10
    pos = Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").hand(0, *["Collector"] * 4, *["Invader"] * 2,
                                                                      "Probe", "Howl")
    m = pos.match()
    m.apply("done")
    assert m.question is None and len(zone(m, "hand", 0)) == 10 and m.current_player == 1


def test_s5_an_empty_deck_is_refilled_from_the_shuffled_discard_pile():
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga")
           .deck(0, "Probe").discard(0, "Howl", "Rampage", "Upgrade").park(0))
    m = pos.match()
    m.apply("done")                                  # draw 2: Probe, then the discard becomes the deck
    hand = zone(m, "hand", 0)
    assert hand[0] == "Probe" and len(hand) == 2 and hand[1] in ("Howl", "Rampage", "Upgrade")
    assert zone(m, "discard", 0) == []
    assert sorted(hand[1:] + zone(m, "deck", 0)) == ["Howl", "Rampage", "Upgrade"]


def test_s5_deck_and_discard_both_empty_drawing_stops():
    pos = Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").deck(0, "Probe").hand(0, "Howl").park(0)
    m = pos.match()
    m.apply("done")
    assert sorted(zone(m, "hand", 0)) == ["Howl", "Probe"]   # one card drawn, not two
    assert zone(m, "deck", 0) == [] and zone(m, "discard", 0) == []
    assert m.current_player == 1 and m.state()["step"] == "play"
    # nothing at all to draw
    m = Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").park(0).match()
    m.apply("done")
    assert zone(m, "hand", 0) == [] and m.current_player == 1


def _no_minion(st, p):
    comps = st["components"]
    return not any(comps[c]["fields"]["type"] == "minion" for c in st["zones"]["hand"][p])


def _to_the_minionless(m):
    """The opening hands kept up to the first player whose hand has no minion (asked `keep` or
    `redraw`; each before was offered `keep` only); that player, or None."""
    while m.question is not None:
        q = m.question
        assert q["prompt"].startswith("your opening hand") and q["kind"] == "one"
        if q["options"] == ["keep", "redraw"]:
            assert _no_minion(m.state(), q["chooser"])
            return q["chooser"]
        assert q["options"] == ["keep"] and not _no_minion(m.state(), q["chooser"])
        m.apply("keep")
    return None


def test_s6_a_second_hand_without_minions_is_kept():
    # seed 486: P's opening hand and the five cards under it have no minion
    m = game.new_match(2, seed=486, options={"factions": TWO})
    p = _to_the_minionless(m)
    st = m.state()
    top5 = list(reversed(st["zones"]["deck"][p][-5:]))
    assert not any(st["components"][c]["fields"]["type"] == "minion" for c in top5)   # (the position)
    answer(m, "redraw")
    assert m.state()["zones"]["hand"][p] == top5
    assert m.question is None or m.question["chooser"] != p     # redrawn once: not asked again


def test_s6_mulligan_a_hand_without_minions_may_be_redrawn_once():
    for seed in range(200):
        m = game.new_match(2, seed=seed, options={"factions": TWO})
        assert m.question is not None and m.question["chooser"] == 0    # every player is asked, P1 first
        p = _to_the_minionless(m)
        if p is not None:
            break
    else:
        raise AssertionError("no seed with a minionless opening hand")
    st = m.state()
    old_hand = st["zones"]["hand"][p]
    top5 = list(reversed(st["zones"]["deck"][p][-5:]))           # top first
    keep = m.clone()
    answer(m, "redraw")
    st2 = m.state()
    assert st2["zones"]["discard"][p] == old_hand
    assert st2["zones"]["hand"][p] == top5
    assert len(st2["zones"]["deck"][p]) == 40 - 10
    # the second hand is kept, even without a minion: nobody asks P again
    assert m.question is None or m.question["chooser"] != p
    # declining keeps the hand
    answer(keep, "keep")
    assert keep.state()["zones"]["hand"][p] == old_hand and keep.state()["zones"]["discard"][p] == []


def test_s6_whether_a_hand_has_a_minion_is_not_told_by_who_is_asked():
    """A leak scan: only a player whose hand had no minion was asked (`your hand has no minion: …`),
    in every seat's view and log, though that player kept the hand hidden. Every player is asked the
    same question in turn; only its chooser sees whether `redraw` is offered."""
    for seed in range(200):
        m = game.new_match(2, seed=seed, options={"factions": TWO})
        if _no_minion(m.state(), 1) and not _no_minion(m.state(), 0):
            break
    else:
        raise AssertionError("no seed where only P2's opening hand has no minion")
    asked = []
    while m.question is not None:
        q = m.question
        asked.append((q["chooser"], q["prompt"]))
        assert m.view(1 - q["chooser"])["choice"]["options"] is None      # the other sees no options
        m.apply("keep")
    assert [c for c, _ in asked] == [0, 1] and asked[0][1] == asked[1][1]
    assert m.log_for(0) == m.log_for(1) == m.log_for(None) == ["keep", "keep"]


def test_s10_fifteen_vp_tied_for_the_lead_the_game_goes_on_until_a_single_leader():
    pos = (Position().bases("Jungle Oasis", "Tar Pits", "Tortuga").vp(13, 15)
           .base_deck("The Central Brain", "Cave of Shinies")
           .minions(0, "Jungle Oasis", "Supreme Overlord", "Invader", "Invader")     # 11
           .minions(1, "Jungle Oasis", "Saucy Wench")                                # 3
           .minions(0, "Tar Pits", "Laseratops", "Laseratops", "Collector")         # 10
           .hand(0, "King Rex")
           .deck(0, "Beam Up", "Probe").deck(1, "Tiger Assassin", "Ninja Acolyte"))
    m = pos.match()
    m.apply("done")                                  # Jungle Oasis: P1 13 → 15, tied with P2
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [15, 15]
    assert not m.is_over and m.current_player == 1
    m.apply("done")                                  # P2 scores nothing: still tied
    assert pass_windows(m) == []  # it does not score: nobody is asked
    assert not m.is_over and m.current_player == 0
    m.apply("play King Rex on Tar Pits")                # 17 ≥ 16
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [19, 15]
    assert m.is_over and m.outcome["results"] == ["win", "lose"]


def test_a_minion_played_through_the_homeworld_on_another_turn_acts_for_its_owner():
    """P1's turn, The Homeworld about to score: P2 plays Shinobi there, The Homeworld gives P2 an
    extra minion at once, P2 plays Neophyte and plays the revealed Mystic Studies. It was played for
    P1 ("P1 plays Mystic Studies", P1 drew 2): the base's ability ran with P1 as `me`, and so did the
    Neophyte it let P2 play. (`run on_play … of m by m.owner`: the owner plays a minion.)"""
    m = (Position(factions="aliens+dinosaurs,ninjas+wizards").bases("The Homeworld", "Jungle Oasis", "Rhodes Plaza Mall")
         .base_deck("The Great Library")
         .minions(0, "The Homeworld", "King Rex", "Supreme Overlord", "Laseratops", "Laseratops", "Armor Stego")
         .hand(1, "Shinobi", "Neophyte").deck(1, "Mystic Studies", "Summon", "Portal")
         .deck(0, "Invader", "Scout", "Beam Up").turn(0).match())
    answer(m, "done")
    while m.question is not None:
        texts = legal(m)
        pick = next((t for t in ("Shinobi", "Neophyte", "The Homeworld") if t in texts), None)
        if pick is None:
            prompt = m.question["prompt"] or ""
            pick = next((t for t in texts if t.startswith("yes")), "pass") if "Neophyte" in prompt else \
                ("pass" if "pass" in texts else texts[0])
        m.apply(pick)
    said = [x if isinstance(x, str) else x["text"] for x in m.state()["messages"]]
    assert "P2 plays Mystic Studies" in said and "P1 plays Mystic Studies" not in said
    assert sorted_labels(zone(m, "hand", 1)) == ["Portal", "Summon"]          # P2 drew the 2 cards
    assert sorted_labels(zone(m, "hand", 0)) == ["Invader", "Scout"]          # P1 drew none


def test_an_archmage_that_used_its_extra_and_went_to_the_deck_gives_its_extra_when_played_again():
    """Archmage: "one extra action on each of your turns". Its use this turn was forgotten at the
    next turn's start only for cards in play, hands and discard piles: one sent to the deck bottom
    (Temple of Goju) and played again later gave no extra action (a fidelity audit)."""
    pos = (Position(factions="wizards+tricksters,ninjas+pirates")
           .bases("Temple of Goju", "Jungle Oasis", "Tar Pits").base_deck("The Central Brain"))
    arch = pos.minion("Archmage", 0, "Temple of Goju")                  # 4, P1's highest there
    pos.minions(0, "Temple of Goju", "Chronomage", "Enchantress", "Neophyte")
    pos.minions(1, "Temple of Goju", "Tiger Assassin", "Saucy Wench")   # 18: Temple of Goju scores
    pos.hand(0, "Mystic Studies", "Mystic Studies", "Portal")
    pos.deck(0, "Gnome", "Gnome", "Gnome", "Gremlin", "Summon", "Time Loop")
    pos.park(0)
    m = pos.turn(0).match()
    m.apply("act Mystic Studies")
    m.apply("act Mystic Studies")                                       # (Archmage's extra action)
    assert var(m, "used")[arch]
    m.apply("done")
    while m.question is not None and m.question["kind"] == "window":     # Temple of Goju scores
        m.apply("pass")
    while m.current_player == 1:                                         # P2's turn: nothing
        m.apply("done" if "done" in legal(m) else "pass" if "pass" in legal(m) else legal(m)[0])
    assert arch in m.state()["zones"]["deck"][0] and m.current_player == 0
    m.apply("act Portal")
    while m.question is not None:
        m.apply("Archmage" if "Archmage" in legal(m) else "done" if "done" in legal(m) else legal(m)[0])
    m.apply("play Archmage on Jungle Oasis")
    assert var(m, "action_plays")[0] == 0 and "act Summon" in legal(m)   # the extra action, offered


def test_an_ongoing_action_played_through_mass_enchantment_acts_for_the_player_who_played_it():
    """Mass Enchantment makes P2's Flame Trap P1's: its trigger acts for P1, so P2's Wildlife
    Preserve ("not affected by other players' actions") keeps P2's War Raptor. Before, the trigger
    acted for the card's owner, P2, and the Raptor was destroyed (a fidelity audit)."""
    pos = (Position(factions="wizards+zombies,dinosaurs+tricksters")
           .bases("Jungle Oasis", "Tar Pits", "The Central Brain"))
    pos.action_on_base("Wildlife Preserve", 1, "Jungle Oasis")
    pos.minion("Armor Stego", 1, "Jungle Oasis")
    pos.minion("Walker", 0, "Tar Pits")
    pos.hand(0, "Mass Enchantment")
    pos.deck(1, "Flame Trap")                                     # P2's top card
    pos.hand(1, "War Raptor")
    m = pos.turn(0).match()
    m.apply("act Mass Enchantment")
    m.apply("Flame Trap (P2)")
    m.apply("Jungle Oasis")
    m.apply("done")
    while m.question is not None:
        m.apply("pass")
    assert m.current_player == 1
    m.apply("play War Raptor on Jungle Oasis")
    while m.question is not None:
        m.apply(legal(m)[0])
    assert "War Raptor" in zone(m, "field") and zone(m, "discard", 1) == ["Flame Trap"]


def test_look_at_an_option_of_more_words_than_a_name_reads_its_card():
    """A legibility trial: at Ninja Dojo's "destroy a minion", `look 1` read only `King Rex (P1) on
    Ninja Dojo`; it reads the card the option is, King Rex's rules text."""
    import io
    from rulelang.play.repl import run_repl
    pos = (Position().bases("Ninja Dojo", "Jungle Oasis", "Tar Pits").base_deck("Tortuga")
           .minions(0, "Ninja Dojo", "King Rex", "Supreme Overlord", "Laseratops")
           .minions(1, "Ninja Dojo", "Tiger Assassin"))
    m = pos.match()
    m.apply("done")
    pass_windows(m)
    assert m.question["prompt"] == "destroy a minion"
    first = m.question["options"][0]
    out = io.StringIO()
    run_repl(m.game, 2, 1, {}, {}, io.StringIO("look 1\nquit\n"), out, "smash_up.rules", match=m)
    text = out.getvalue()
    said = text[text.index("> look 1"):]
    card = first.split(" (")[0]
    assert said.startswith(f"> look 1\n  {first}:\n{card} (card)\n") and m.rules_text(
        m.option_components()[first], 0).split(".")[0] in " ".join(said.split())
