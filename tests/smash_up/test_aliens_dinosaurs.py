"""Aliens and Dinosaurs: one exact position per card ability (on play, ongoing, special, actions)."""
from __future__ import annotations


import rulelang
from shipped import shipped
from opening import kept  # noqa: E402

game = shipped("smash_up")
VS_NINJAS = "aliens+dinosaurs,ninjas+pirates"
MIRROR = "aliens+dinosaurs,dinosaurs+aliens"        # P2 with the same factions (other players' actions)
BASES = ("Jungle Oasis", "Tar Pits", "The Central Brain")   # Oasis: 12, 2/0/0, no ability


class Position:
    """A match rebuilt from its state: empty hands, the bases named in play, cards placed by hand."""

    def __init__(self, factions: str = VS_NINJAS, bases=BASES, current: int = 0, seed: int = 3):
        m = kept(game.new_match(2, seed=seed, options={"factions": factions}))
        while m.question is not None:           # (each opening hand kept: S3's question, asked of all)
            assert m.question["prompt"].startswith("your opening hand") and m.question["options"][0] == "keep"
            m.apply("keep")
        self.st = m.state()
        self.comps = self.st["components"]
        self.zones = self.st["zones"]
        self.vars = self.st["vars"]
        self.taken: set[int] = set()
        for p in (0, 1):
            self.zones["deck"][p] += self.zones["hand"][p]
            self.zones["hand"][p] = []
        all_bases = self.zones["bases"] + self.zones["base_deck"]
        self.zones["bases"], self.zones["base_deck"] = [], []
        # the base deck: the bases with an ability that could ask something at the bottom
        for b in sorted(all_bases, key=lambda b: self.comps[b]["label"] in ("Mushroom Kingdom", "The Homeworld"),
                        reverse=True):
            (self.zones["bases"] if self.comps[b]["label"] in bases else self.zones["base_deck"]).append(b)
        self.st["current"] = self.st["actor"] = current
        self.vars["minion_plays"] = [int(p == current) for p in (0, 1)]
        self.vars["action_plays"] = [int(p == current) for p in (0, 1)]

    def base(self, name: str) -> int:
        return next(i for i, c in enumerate(self.comps) if c["kind"] == "Base" and c["label"] == name)

    def card(self, name: str, owner: int) -> int:
        """A component of that card and owner not placed yet (taken out of its zone)."""
        i = next(i for i, c in enumerate(self.comps) if c["kind"] == "Card" and c["label"] == name
                 and c["fields"]["owner"] == owner and i not in self.taken)
        self.taken.add(i)
        for z in self.zones.values():
            for zl in (z if z and isinstance(z[0], list) else [z]):
                if i in zl:
                    zl.remove(i)
        return i

    def hand(self, name: str, owner: int) -> int:
        i = self.card(name, owner)
        self.zones["hand"][owner].append(i)
        return i

    def field(self, name: str, owner: int, base: str) -> int:
        i = self.card(name, owner)
        self.zones["field"].append(i)
        self.vars["at"][i] = self.base(base)
        return i

    def on_base(self, name: str, owner: int, base: str) -> int:
        i = self.card(name, owner)
        self.zones["attached"].append(i)
        self.vars["on_base"][i] = self.base(base)
        return i

    def on_minion(self, name: str, owner: int, minion: int) -> int:
        i = self.card(name, owner)
        self.zones["attached"].append(i)
        self.vars["on_minion"][i] = minion
        return i

    def match(self) -> rulelang.Match:
        return rulelang.Match.from_state(game, self.st)


def zones(m):
    return m.state()["zones"]


def var(m, name):
    return m.state()["vars"][name]


def pass_windows(m) -> list[int]:
    """Answer `pass` for each player asked the before-scores window with nothing else to answer
    (it is opened `always`: every player is asked in turn, a Special in hand or not, so that being
    asked tells nothing); the players who passed, in order. Stops at any other question, and at
    the window of another base."""
    passed, prompt = [], m.question and m.question["prompt"]
    while (m.question is not None and m.question["kind"] == "window" and m.question["prompt"] == prompt
           and prompt.endswith(" is about to score: play a Special?")
           and [a.text for a in m.legal_actions()] == ["pass"]):
        passed.append(m.question["chooser"])
        m.apply("pass")
    return passed


# ---- Aliens -----------------------------------------------------------------------------------
def test_invader_on_play_gains_1_vp():
    pos = Position()
    inv = pos.hand("Invader", 0)
    m = pos.match()
    m.apply("play Invader on Jungle Oasis")
    assert var(m, "vp") == [1, 0]
    assert inv in zones(m)["field"] and var(m, "at")[inv] == pos.base("Jungle Oasis")


def test_collector_may_return_a_minion_of_power_3_or_less_here():
    pos = Position()
    pos.hand("Collector", 0)
    wench = pos.field("Saucy Wench", 1, "Jungle Oasis")          # 3: a target
    pos.field("Pirate King", 1, "Jungle Oasis")                  # 5: too strong
    pos.field("First Mate", 1, "Tar Pits")                       # another base
    m = pos.match()
    m.apply("play Collector on Jungle Oasis")
    assert m.question["prompt"] == "return a minion of power 3 or less to its owner's hand"
    assert sorted(m.question["options"]) == ["Collector (P1) on Jungle Oasis", "Saucy Wench (P2) on Jungle Oasis",
                                             "pass"]
    m.apply("Saucy Wench (P2) on Jungle Oasis")
    assert wench in zones(m)["hand"][1] and var(m, "at")[wench] is None


def test_supreme_overlord_may_return_any_minion_or_pass():
    pos = Position()
    pos.hand("Supreme Overlord", 0)
    rex = pos.field("King Rex", 0, "Tar Pits")
    wench = pos.field("Saucy Wench", 1, "The Central Brain")
    m = pos.match()
    m.apply("play Supreme Overlord on Jungle Oasis")
    assert "pass" in m.question["options"] and "Saucy Wench (P2) on The Central Brain" in m.question["options"]
    m.apply("pass")
    assert rex in zones(m)["field"] and wench in zones(m)["field"]


def test_scout_special_after_its_base_scores_goes_to_hand():
    pos = Position()
    scout = pos.field("Scout", 0, "Jungle Oasis")
    rex = pos.field("King Rex", 0, "Jungle Oasis")
    pos.field("Collector", 0, "Jungle Oasis")                    # 3 + 7 + 2 = 12: Oasis scores
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]                             # before it scores: both pass
    assert m.question["prompt"] == "Jungle Oasis has scored: use a Special before its cards are discarded?"
    assert m.question["options"] == ["Scout", "pass"]
    m.apply("Scout")
    z = zones(m)
    assert scout in z["hand"][0] and rex in z["discard"][0]
    assert var(m, "vp") == [2, 0] and pos.base("Jungle Oasis") in z["base_discard"]


def test_jammed_signal_cancels_the_central_brain():
    def play(jam: bool):
        pos = Position()
        for name in ("King Rex", "Supreme Overlord", "Invader", "Armor Stego"):   # 18 printed, +4 from the base
            pos.field(name, 0, "The Central Brain")
        pos.hand("Jammed Signal", 0)
        m = pos.match()
        if jam:
            m.apply("place Jammed Signal on The Central Brain")
        m.apply("done")
        return pos, m, pass_windows(m)
    pos, m, asked = play(False)
    assert asked == [0, 1]                                       # it scores: both asked before
    assert pos.base("The Central Brain") in zones(m)["base_discard"] and var(m, "vp")[0] == 4
    pos, m, asked = play(True)                                   # 18 < 19: it does not score
    assert asked == []                                           # (nobody is asked)
    assert pos.base("The Central Brain") in zones(m)["bases"] and var(m, "vp") == [0, 0]


def test_disintegrator_puts_a_minion_on_the_bottom_of_its_owners_deck():
    pos = Position()
    pos.hand("Disintegrator", 0)
    wench = pos.field("Saucy Wench", 1, "Jungle Oasis")
    pos.field("Ninja Master", 1, "Jungle Oasis")                 # 5: not a target
    m = pos.match()
    m.apply("act Disintegrator")                                 # one target: no question
    z = zones(m)
    assert z["deck"][1][0] == wench and wench not in z["field"]


def test_probe_looks_at_a_hand_and_discards_a_minion():
    pos = Position()
    pos.hand("Probe", 0)
    wench = pos.hand("Saucy Wench", 1)
    pos.hand("Ninja Master", 1)
    cannon = pos.hand("Cannon", 1)
    m = pos.match()
    m.apply("act Probe")
    assert sorted(m.question["options"]) == ["Ninja Master", "Saucy Wench"]
    m.apply("Saucy Wench")
    z = zones(m)
    assert z["discard"][1] == [wench] and cannon in z["hand"][1]


def test_probe_asks_its_player_even_for_a_lone_minion():
    """A leak trial: with one minion in the hand looked at, it was discarded without a question,
    with two there was one — every seat sees a question come, so a third player learned how many
    minions P2 held. The player of Probe is asked in both cases (`always`)."""
    pos = Position()
    pos.hand("Probe", 0)
    wench = pos.hand("Saucy Wench", 1)
    pos.hand("Cannon", 1)
    m = pos.match()
    m.apply("act Probe")
    assert m.question["chooser"] == 0 and m.question["options"] == ["Saucy Wench"]
    assert m.view(1)["choice"]["prompt"] == "the minion they discard"
    m.apply("Saucy Wench")
    assert zones(m)["discard"][1] == [wench]


def test_abduction_returns_a_minion_then_grants_an_extra_minion_play():
    pos = Position()
    pos.hand("Abduction", 0)
    pos.hand("Invader", 0)
    pos.hand("Scout", 0)
    wench = pos.field("Saucy Wench", 1, "Jungle Oasis")
    m = pos.match()
    m.apply("act Abduction")                                     # the only minion: no question
    assert wench in zones(m)["hand"][1] and var(m, "minion_plays") == [2, 0]
    m.apply("play Invader on Jungle Oasis")
    m.apply("play Scout on Tar Pits")
    assert var(m, "minion_plays") == [0, 0]


def test_invasion_moves_a_minion_and_crop_circles_clears_a_base():
    pos = Position()
    pos.hand("Invasion", 0)
    wench = pos.field("Saucy Wench", 1, "Jungle Oasis")
    m = pos.match()
    m.apply("act Invasion")
    assert sorted(m.question["options"]) == ["Tar Pits", "The Central Brain"]
    m.apply("Tar Pits")
    assert var(m, "at")[wench] == pos.base("Tar Pits")

    pos = Position()
    pos.hand("Crop Circles", 0)
    a = pos.field("King Rex", 0, "Tar Pits")
    b = pos.field("Saucy Wench", 1, "Tar Pits")
    c = pos.field("Ninja Master", 1, "Jungle Oasis")
    m = pos.match()
    m.apply("act Crop Circles")
    m.apply("Tar Pits")
    z = zones(m)
    assert a in z["hand"][0] and b in z["hand"][1] and z["field"] == [c]


def test_terraforming_swaps_a_base_and_may_play_an_extra_minion_there():
    pos = Position()
    pos.hand("Terraforming", 0)
    pos.hand("Invader", 0)
    rex = pos.field("King Rex", 0, "Tar Pits")
    jam = pos.on_base("Jammed Signal", 0, "Tar Pits")
    m = pos.match()
    m.apply("act Terraforming")
    m.apply("The Great Library")                                 # from the base deck
    m.apply("Tar Pits")                                          # the base it replaces
    lib, pits = pos.base("The Great Library"), pos.base("Tar Pits")
    z = zones(m)
    assert lib in z["bases"] and pits in z["base_deck"] and var(m, "at")[rex] == lib
    assert jam in z["discard"][0] and var(m, "on_base")[jam] is None
    # the extra minion: on the new base only, kept for later in the play phase (issue 27)
    assert m.question is None and var(m, "extra_on")[lib] == 1
    m.apply("play Invader on The Great Library")                    # both plays fit: which one?
    assert m.question["prompt"] == "which play do you use"
    assert sorted(m.question["options"]) == ["an extra minion on this base", "your minion play"]
    m.apply("an extra minion on this base")
    inv = next(i for i in zones(m)["field"] if pos.comps[i]["label"] == "Invader")
    assert var(m, "at")[inv] == lib and var(m, "vp") == [1, 0] and var(m, "minion_plays") == [1, 0]
    assert var(m, "extra_on")[lib] == 0


def test_terraforming_puts_the_new_base_in_the_old_ones_place():
    """A rules audit: the new base was listed last, wherever the old one had been."""
    pos = Position()
    pos.hand("Terraforming", 0)
    m = pos.match()
    listed = list(zones(m)["bases"])
    oasis, lib = pos.base("Jungle Oasis"), pos.base("The Great Library")
    assert listed[0] == oasis
    m.apply("act Terraforming")
    m.apply("The Great Library")
    m.apply("Jungle Oasis")
    assert zones(m)["bases"] == [lib] + listed[1:]


# ---- Dinosaurs --------------------------------------------------------------------------------
def test_laseratops_must_destroy_a_minion_of_power_2_or_less_here_even_its_own():
    pos = Position()
    pos.hand("Laseratops", 0)
    own = pos.field("Collector", 0, "Jungle Oasis")              # 2
    mate = pos.field("First Mate", 1, "Jungle Oasis")            # 2
    pos.field("War Raptor", 0, "Jungle Oasis")                   # 2 + 1 = 3: not a target
    m = pos.match()
    m.apply("play Laseratops on Jungle Oasis")
    assert sorted(m.question["options"]) == ["Collector (P1) on Jungle Oasis", "First Mate (P2) on Jungle Oasis"]
    m.apply("Collector (P1) on Jungle Oasis")
    z = zones(m)
    assert own in z["discard"][0] and mate in z["field"]


def test_war_raptor_counts_every_war_raptor_here():
    pos = Position()
    for _ in range(3):
        pos.field("War Raptor", 0, "Jungle Oasis")               # 3 x (2 + 3) = 15
    for name in ("Ninja Master", "Tiger Assassin", "Saucy Wench", "Ninja Acolyte"):
        pos.field(name, 1, "Jungle Oasis")                       # 5 + 4 + 3 + 2 = 14
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [2, 0]


def test_armor_stego_has_plus_2_during_other_players_turns():
    pos = Position()
    pos.field("Armor Stego", 0, "Jungle Oasis")
    pos.field("King Rex", 0, "Jungle Oasis")                     # 10 on P1's turn, 12 on P2's
    m = pos.match()
    m.apply("done")
    assert pass_windows(m) == []                                 # 10 < 12 on P1's turn: nobody asked
    assert pos.base("Jungle Oasis") in zones(m)["bases"] and m.current_player == 1
    m.apply("done")
    assert pass_windows(m) == [1, 0]                             # from the current player, P2
    assert pos.base("Jungle Oasis") in zones(m)["base_discard"] and var(m, "vp") == [2, 0]


def test_augmentation_gives_any_minion_4_until_the_end_of_the_turn():
    pos = Position()
    pos.hand("Augmentation", 0)
    pos.field("King Rex", 0, "Jungle Oasis")                     # 7
    master = pos.field("Ninja Master", 1, "Jungle Oasis")
    pos.field("Saucy Wench", 1, "Jungle Oasis")                  # 8, 12 with Augmentation
    m = pos.match()
    m.apply("act Augmentation")
    m.apply("Ninja Master (P2) on Jungle Oasis")
    assert var(m, "bonus")[master] == 4
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [0, 2]

    pos = Position()
    pos.hand("Augmentation", 0)
    rex = pos.field("King Rex", 0, "Tar Pits")
    m = pos.match()
    m.apply("act Augmentation")
    assert var(m, "bonus")[rex] == 4
    bases = table_lines(m)             # the table says the number is this turn's (a legibility audit)
    assert "  P1 11: King Rex 11 (+4 this turn)" in bases, bases
    m.apply("done")                                              # 11 < 16; the turn ends
    assert var(m, "bonus")[rex] == 0
    assert "  P1 7: King Rex 7" in table_lines(m)


def table_lines(m) -> list[str]:
    return next(v["value"] for v in m.view(0)["values"] if v["name"].startswith("Bases (power"))


def test_rampage_says_the_breakpoint_it_lowers_is_this_turns():
    pos = Position()
    pos.hand("Rampage", 0)
    pos.field("King Rex", 0, "Tar Pits")                         # 7; Tar Pits breaks at 16
    m = pos.match()
    m.apply("act Rampage")
    if m.question:
        m.apply(m.legal_actions()[0])
    assert "Tar Pits 7/9 (breakpoint -7 this turn) · VP 4/3/2" in table_lines(m), table_lines(m)


def test_howl_gives_each_of_your_minions_1():
    pos = Position()
    pos.hand("Howl", 0)
    a = pos.field("King Rex", 0, "Jungle Oasis")
    b = pos.field("Collector", 0, "Tar Pits")
    c = pos.field("Saucy Wench", 1, "Jungle Oasis")
    m = pos.match()
    m.apply("act Howl")
    bonus = var(m, "bonus")
    assert (bonus[a], bonus[b], bonus[c]) == (1, 1, 0)


def test_natural_selection_destroys_a_weaker_minion_on_its_base():
    pos = Position()
    pos.hand("Natural Selection", 0)
    pos.field("King Rex", 0, "Jungle Oasis")
    pos.field("Collector", 0, "Tar Pits")
    master = pos.field("Ninja Master", 1, "Jungle Oasis")        # 5 < 7
    pos.field("Pirate King", 1, "Tar Pits")
    m = pos.match()
    m.apply("act Natural Selection")
    m.apply("King Rex (P1) on Jungle Oasis")                     # the only weaker minion: no question
    assert master in zones(m)["discard"][1]


def test_rampage_lowers_the_breakpoint_by_the_minions_power():
    pos = Position()
    pos.hand("Rampage", 0)
    pos.field("King Rex", 0, "Tar Pits")
    pos.field("Armor Stego", 0, "Tar Pits")                      # 10 < 16
    m = pos.match()
    m.apply("act Rampage")
    m.apply("King Rex (P1) on Tar Pits")
    assert var(m, "bp_bonus")[pos.base("Tar Pits")] == -7
    m.apply("done")                                              # 10 >= 9: Tar Pits scores
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [4, 0] and var(m, "bp_bonus")[pos.base("Tar Pits")] == 0


def test_copies_told_apart_by_this_turns_power_in_a_minion_choice():
    """A rules audit: two War Raptors, one given +4 this turn (Augmentation), read alike in Natural
    Selection's and Rampage's choices (`#2` told them apart: 4 or 8 was a guess)."""
    pos = Position()
    pos.hand("Natural Selection", 0)
    pos.field("War Raptor", 0, "Jungle Oasis")
    raised = pos.field("War Raptor", 0, "Jungle Oasis")
    pos.vars["bonus"][raised] = 4
    master = pos.field("Ninja Master", 1, "Jungle Oasis")        # 5: weaker than 8 (2 + 1 + 4 + 1)
    m = pos.match()
    m.apply("act Natural Selection")
    assert m.question["options"] == ["War Raptor (P1) on Jungle Oasis",
                                     "War Raptor (P1) on Jungle Oasis (+4 this turn)"]
    m.apply("War Raptor (P1) on Jungle Oasis (+4 this turn)")
    assert m.question["options"] == ["War Raptor (P1) on Jungle Oasis", "Ninja Master (P2) on Jungle Oasis"]
    m.apply("Ninja Master (P2) on Jungle Oasis")
    assert master in zones(m)["discard"][1]


def test_survival_of_the_fittest_destroys_the_weakest_on_each_base_you_break_ties():
    pos = Position()
    pos.hand("Survival of the Fittest", 0)
    pos.field("King Rex", 0, "Jungle Oasis")
    pos.field("Saucy Wench", 1, "Jungle Oasis")
    mate = pos.field("First Mate", 1, "Jungle Oasis")            # the weakest there
    r1 = pos.field("Armor Stego", 0, "Tar Pits")
    r2 = pos.field("Saucy Wench", 1, "Tar Pits")                 # 3 and 3: nothing is higher
    pos.field("Pirate King", 1, "The Central Brain")
    inv = pos.field("Invader", 0, "The Central Brain")
    wench = pos.field("Saucy Wench", 1, "The Central Brain")     # Invader and Wench tie for the lowest
    m = pos.match()
    m.apply("act Survival of the Fittest")
    assert sorted(m.question["options"]) == ["Invader (P1) on The Central Brain",
                                             "Saucy Wench (P2) on The Central Brain"]
    m.apply("Saucy Wench (P2) on The Central Brain")
    z = zones(m)
    assert mate in z["discard"][1] and wench in z["discard"][1]
    assert r1 in z["field"] and r2 in z["field"] and inv in z["field"]


def test_upgrade_gives_its_minion_2():
    pos = Position()
    pos.hand("Upgrade", 0)
    pos.field("King Rex", 0, "Jungle Oasis")
    pos.field("Invader", 0, "Jungle Oasis")                      # 10, 12 with Upgrade
    m = pos.match()
    m.apply("attach Upgrade to King Rex (P1) on Jungle Oasis")
    m.apply("done")
    assert pass_windows(m) == [0, 1]
    assert var(m, "vp") == [2, 0]


def test_tooth_and_claw_is_destroyed_instead_of_its_minion():
    pos = Position(factions=MIRROR, current=1)
    rex = pos.field("King Rex", 0, "Jungle Oasis")
    tac = pos.on_minion("Tooth and Claw... and Guns", 0, rex)
    pos.hand("Beam Up", 1)
    m = pos.match()
    m.apply("act Beam Up")                                       # the only minion
    z = zones(m)
    assert rex in z["field"] and tac in z["discard"][0] and z["attached"] == []

    pos = Position(factions=MIRROR, current=1)                   # an action played on it does not attach
    rex = pos.field("King Rex", 0, "Jungle Oasis")
    tac = pos.on_minion("Tooth and Claw... and Guns", 0, rex)
    up = pos.hand("Upgrade", 1)
    m = pos.match()
    m.apply("attach Upgrade to King Rex (P1) on Jungle Oasis")
    z = zones(m)
    assert tac in z["discard"][0] and up in z["discard"][1] and z["attached"] == []


def test_wildlife_preserve_shelters_your_minions_there_from_other_players_actions():
    pos = Position(factions=MIRROR, current=1)
    pos.on_base("Wildlife Preserve", 0, "Jungle Oasis")
    rex = pos.field("King Rex", 0, "Jungle Oasis")
    foe = pos.field("Armor Stego", 1, "Jungle Oasis")            # not P1's: not sheltered
    far = pos.field("Invader", 0, "Tar Pits")                    # not here: not sheltered
    pos.hand("Crop Circles", 1)
    pos.hand("Laseratops", 1)
    m = pos.match()
    m.apply("act Crop Circles")
    m.apply("Jungle Oasis")
    z = zones(m)
    assert rex in z["field"] and foe in z["hand"][1] and far in z["field"]
    said = [x if isinstance(x, str) else x["text"] for x in m.messages]      # (a rules check: it said nothing)
    assert "King Rex (P1) on Jungle Oasis is not affected by Crop Circles (Wildlife Preserve)" in said
    # a minion's ability is not an action: Laseratops may destroy a sheltered minion
    pos = Position(factions=MIRROR, current=1)
    pos.on_base("Wildlife Preserve", 0, "Jungle Oasis")
    col = pos.field("Collector", 0, "Jungle Oasis")
    pos.hand("Laseratops", 1)
    m = pos.match()
    m.apply("play Laseratops on Jungle Oasis")
    assert col in zones(m)["discard"][0]
    # its owner's own actions still affect them
    pos = Position(factions=MIRROR)
    pos.on_base("Wildlife Preserve", 0, "Jungle Oasis")
    rex = pos.field("King Rex", 0, "Jungle Oasis")
    pos.hand("Beam Up", 0)
    m = pos.match()
    m.apply("act Beam Up")
    assert rex in zones(m)["hand"][0]


def test_a_simulations_side_names_the_pair_alike_whichever_faction_came_first():
    """A designer's sides: "Dinosaurs + Aliens" and "Aliens + Dinosaurs" were two sides."""
    one = kept(game.new_match(2, seed=1, options={"factions": "dinosaurs+aliens,pirates+ninjas"}))
    two = kept(game.new_match(2, seed=1, options={"factions": "aliens+dinosaurs,ninjas+pirates"}))
    assert one.sides() == two.sides() == ["Aliens + Dinosaurs", "Ninjas + Pirates"]
