"""Smash Up: the Ninjas and Pirates cards (games/smash_up/ninjas.rules, pirates.rules), each test
from an exact position built from a real match's state and restored with Match.from_state.

Positions: three bases in play (Jungle Oasis, breakpoint 12, 2/0/0 VP and no ability, is the one
that scores; The Great Library and Evans City Cemetery only matter when they score), Factory
436-1337 on top of the base deck. Only the named cards are in hands and in play.
"""
from __future__ import annotations

from pathlib import Path

import rulelang
from opening import kept  # noqa: E402

RULES = Path(__file__).resolve().parents[2] / "games" / "smash_up.rules"
FACTIONS = "ninjas+pirates,aliens+dinosaurs"
OASIS, LIBRARY, CEMETERY = "Jungle Oasis", "The Great Library", "Evans City Cemetery"

_GAME = None


def game() -> rulelang.Game:
    """The game, loaded once per module (from inside a test, so that the autouse fixture's private
    IR cache is in force)."""
    global _GAME
    if _GAME is None:
        _GAME = rulelang.load(str(RULES))
    return _GAME


class Pos:
    """A match state being edited: named cards taken from wherever they lie and put in place."""

    def __init__(self, factions: str = FACTIONS, seed: int = 1):
        self.st = kept(game().new_match(2, seed=seed, options={"factions": factions})).state()
        self.comps = self.st["components"]
        self.zones = self.st["zones"]
        self.placed: set[int] = set()
        for p in range(2):                       # empty hands: their cards go under the decks
            self.zones["deck"][p][:0] = self.zones["hand"][p]
            self.zones["hand"][p] = []
        bases = [self.base(OASIS), self.base(LIBRARY), self.base(CEMETERY)]
        rest = [b for b in self.zones["bases"] + self.zones["base_deck"] if b not in bases]
        top = self.base("Factory 436-1337")
        rest.remove(top)
        self.zones["bases"] = bases
        self.zones["base_deck"] = rest + [top]

    def base(self, name: str) -> int:
        return next(i for i, c in enumerate(self.comps) if c["kind"] == "Base" and c["label"] == name)

    def _lists(self):
        for v in self.zones.values():
            if v and isinstance(v[0], list) or v == [[], []]:
                yield from v
            else:
                yield v

    def take(self, label: str, owner: int) -> int:
        """A card of that name and owner not placed yet, out of the zone it lies in."""
        c = next(i for i, x in enumerate(self.comps) if x["label"] == label
                 and x["fields"]["owner"] == owner and i not in self.placed)
        for zl in self._lists():
            if c in zl:
                zl.remove(c)
        self.placed.add(c)
        return c

    def hand(self, owner: int, *labels: str) -> list[int]:
        ids = [self.take(x, owner) for x in labels]
        self.zones["hand"][owner].extend(ids)
        return ids

    def minion(self, label: str, owner: int, base: str) -> int:
        c = self.take(label, owner)
        self.zones["field"].append(c)
        self.st["vars"]["at"][c] = self.base(base)
        return c

    def on_minion(self, label: str, owner: int, target: int) -> int:
        c = self.take(label, owner)
        self.zones["attached"].append(c)
        self.st["vars"]["on_minion"][c] = target
        return c

    def on_base(self, label: str, owner: int, base: str) -> int:
        c = self.take(label, owner)
        self.zones["attached"].append(c)
        self.st["vars"]["on_base"][c] = self.base(base)
        return c

    def match(self) -> rulelang.Match:
        return rulelang.Match.from_state(game(), self.st)


def zone(m, name, p=None):
    st = m.state()
    z = st["zones"][name] if p is None else st["zones"][name][p]
    return sorted(st["components"][c]["label"] for c in z)


def where(m, c) -> str | None:
    st = m.state()
    b = st["vars"]["at"][c]
    return None if b is None else st["components"][b]["label"]


def acts(m) -> list[str]:
    return [str(a) for a in m.legal_actions()]


def play(m, *answers: str) -> None:
    for a in answers:
        assert a in acts(m), (a, acts(m), m.question)
        m.apply(a)


def before_scores(m) -> bool:
    """Whether the question is the window opened when a base is about to score."""
    q = m.question
    return q is not None and q["kind"] == "window" and q["prompt"].endswith(" is about to score: play a Special?")


def pass_windows(m) -> list[int]:
    """Answer `pass` for each player asked the before-scores window with nothing else to answer
    (it is opened `always`: every player is asked in turn, a Special in hand or not, so that being
    asked tells nothing); the players who passed, in order. Stops at any other question, and at
    the window of another base."""
    passed, prompt = [], m.question and m.question["prompt"]
    while before_scores(m) and m.question["prompt"] == prompt and acts(m) == ["pass"]:
        passed.append(m.question["chooser"])
        m.apply("pass")
    return passed


# ---- scenario 7: a before-scores special changes the result ------------------------------------
def test_scenario_7_shinobi_before_scoring_turns_the_result_only_one_shinobi_per_base():
    pos = Pos()
    pos.minion("Ninja Master", 0, OASIS)            # 5
    pos.minion("King Rex", 1, OASIS)                # 7: 12 ≥ 12, P2 would win
    s1, s2 = pos.hand(0, "Shinobi", "Shinobi")
    m = pos.match()
    play(m, "done")                                 # score: before_scores(Jungle Oasis) from P1
    assert m.question["kind"] == "window" and m.question["chooser"] == 0
    assert acts(m) == ["Shinobi", "pass"]
    play(m, "Shinobi")                              # played there: P1 8, P2 7
    # P2 is asked too and has only pass; P1 is asked again but a second Shinobi is not offered
    # (only pass): the window closes
    assert m.question["chooser"] == 1 and acts(m) == ["pass"]
    assert pass_windows(m) == [1, 0]
    assert m.question is None
    st = m.state()
    assert st["vars"]["vp"] == [2, 0]               # Jungle Oasis 2/0/0: P1 first, P2 nothing
    assert zone(m, "discard", 0) == ["Ninja Master", "Shinobi"]
    assert zone(m, "discard", 1) == ["King Rex"]
    assert sum(1 for c in st["zones"]["hand"][0] if c in (s1, s2)) == 1
    assert OASIS not in zone(m, "bases") and "Factory 436-1337" in zone(m, "bases")


def test_scenario_7_without_the_special_the_other_player_wins():
    pos = Pos()
    pos.minion("Ninja Master", 0, OASIS)
    pos.minion("King Rex", 1, OASIS)
    pos.hand(0, "Shinobi")
    m = pos.match()
    play(m, "done", "pass")                          # P1 does not play the Shinobi
    assert pass_windows(m) == [1]                    # P2 is asked too, and passes
    assert m.question is None
    assert m.state()["vars"]["vp"] == [0, 2]


def test_every_player_is_asked_before_a_base_scores_so_being_asked_tells_nothing():
    """The before-scores window is opened `always`: each player is asked in turn from the current
    player, a Special in hand or not. Asking only who holds one would tell the others so."""
    questions = {}
    for shinobi in (True, False):                    # only P1 holds a Special / nobody does
        pos = Pos()
        pos.minion("Ninja Master", 0, OASIS)
        pos.minion("King Rex", 1, OASIS)             # 12 ≥ 12: Jungle Oasis scores
        if shinobi:
            pos.hand(0, "Shinobi")
        m = pos.match()
        play(m, "done")
        asked = []
        while before_scores(m):
            q = m.question
            asked.append(q["chooser"])
            questions.setdefault(q["chooser"], []).append(q)
            if q["chooser"] == 1:
                assert q["options"] == ["pass"] and acts(m) == ["pass"]
            else:
                assert acts(m) == (["Shinobi", "pass"] if shinobi else ["pass"])
            play(m, "pass")
        assert asked == [0, 1]                       # both asked, in order, Special or not
        assert m.question is None and m.state()["vars"]["vp"] == [0, 2]
    assert questions[1][0] == questions[1][1]        # P2's question is the same either way
    assert [q["prompt"] for q in questions[0]] == [q["prompt"] for q in questions[1]]


def test_hidden_ninja_plays_a_minion_whose_on_play_resolves_before_scoring():
    pos = Pos()
    pos.minion("Tiger Assassin", 0, OASIS)           # 4
    rex = pos.minion("King Rex", 1, OASIS)           # 7
    pos.minion("Collector", 1, OASIS)                # 2: total 13, P2 would win
    hn, = pos.hand(0, "Hidden Ninja")
    pos.hand(0, "Ninja Master")
    m = pos.match()
    play(m, "done")
    assert acts(m) == ["Hidden Ninja", "pass"]
    play(m, "Hidden Ninja")
    # the only minion in hand, asked all the same (`always`: whether one is asked tells nothing)
    assert m.question["prompt"] == f"play a minion on {OASIS}" and acts(m) == ["Ninja Master"]
    play(m, "Ninja Master")
    assert "destroy a minion" in m.question["prompt"]
    play(m, "King Rex (P2)")                         # Ninja Master's on-play, before VP
    assert pass_windows(m) == [1, 0]                 # then P2, and P1 again, are asked: nothing more
    assert m.question is None
    st = m.state()
    assert st["vars"]["vp"] == [2, 0]                # P1 9, P2 2
    assert zone(m, "discard", 0) == ["Hidden Ninja", "Ninja Master", "Tiger Assassin"]
    assert st["zones"]["discard"][1][0] == rex       # destroyed first, then Collector discarded
    assert zone(m, "discard", 1) == ["Collector", "King Rex"]


def test_pirate_king_moves_to_the_scoring_base_before_it_scores():
    pos = Pos()
    pos.minion("Tiger Assassin", 0, OASIS)           # 4
    pos.minion("Ninja Acolyte", 0, OASIS)            # 2
    pk = pos.minion("Pirate King", 0, LIBRARY)       # 5
    pos.minion("King Rex", 1, OASIS)                 # 7: total 13, P2 would win 7 to 6
    m = pos.match()
    play(m, "done")
    assert acts(m) == ["Pirate King", "pass"]
    play(m, "Pirate King")
    assert pass_windows(m) == [1, 0]                 # once there, it is offered no more: P1 has only pass
    assert m.question is None
    assert m.state()["vars"]["vp"] == [2, 0]         # P1 11, P2 7
    assert pk in m.state()["zones"]["discard"][0]


# ---- scenario 8: an after-scores move, before the base's cards are discarded -------------------
def test_scenario_8_first_mate_moves_away_after_scoring_instead_of_being_discarded():
    pos = Pos()
    fm = pos.minion("First Mate", 0, OASIS)          # 2
    pos.minion("Tiger Assassin", 0, OASIS)           # 4
    pos.minion("King Rex", 1, OASIS)                 # 7: 13 ≥ 12
    m = pos.match()
    play(m, "done")
    assert pass_windows(m) == [0, 1]                 # no Special before it scores: both pass
    assert m.question["kind"] == "window" and m.question["prompt"] == (
        "Jungle Oasis has scored: use a Special before its cards are discarded?")
    assert m.state()["vars"]["vp"] == [0, 2]         # VP awarded before the after-scores window
    assert acts(m) == ["First Mate", "pass"]
    play(m, "First Mate")
    assert sorted(acts(m)) == sorted([LIBRARY, CEMETERY])    # another base: not the scoring one
    play(m, CEMETERY)
    st = m.state()
    assert fm in st["zones"]["field"] and where(m, fm) == CEMETERY
    assert zone(m, "discard", 0) == ["Tiger Assassin"]
    assert zone(m, "discard", 1) == ["King Rex"]
    assert st["vars"]["vp"] == [0, 2]


def test_first_mate_not_moved_is_discarded_with_the_base():
    pos = Pos()
    pos.minion("First Mate", 0, OASIS)
    pos.minion("King Rex", 1, OASIS)
    pos.minion("War Raptor", 1, OASIS)
    pos.minion("War Raptor", 1, OASIS)
    m = pos.match()
    play(m, "done")
    assert pass_windows(m) == [0, 1]                 # before it scores: both pass
    play(m, "pass")                                  # after it scores: First Mate stays
    assert zone(m, "discard", 0) == ["First Mate"]
    assert zone(m, "field") == []


# ---- ninjas: on play, ongoing, Special in the play phase, end/start of turn ---------------------
def test_tiger_assassin_on_play_may_destroy_a_minion_of_power_3_or_less_here():
    pos = Pos()
    pos.minion("King Rex", 1, LIBRARY)
    pos.minion("Collector", 1, LIBRARY)
    pos.minion("Invader", 1, LIBRARY)
    pos.minion("Collector", 1, CEMETERY)
    pos.hand(0, "Tiger Assassin")
    m = pos.match()
    play(m, f"play Tiger Assassin on {LIBRARY}")
    assert sorted(acts(m)) == ["Collector (P2)", "Invader (P2)", "pass"]     # not King Rex, not elsewhere
    play(m, "Invader (P2)")
    assert zone(m, "discard", 1) == ["Invader"]
    assert zone(m, "field") == ["Collector", "Collector", "King Rex", "Tiger Assassin"]


def test_ninja_acolyte_special_returns_it_and_plays_an_extra_minion_on_its_base():
    pos = Pos()
    ac = pos.minion("Ninja Acolyte", 0, LIBRARY)
    pos.minion("Ninja Acolyte", 0, CEMETERY)
    pos.hand(0, "Tiger Assassin")
    m = pos.match()
    # issue 27: one action per copy, named by its base
    assert [a for a in acts(m) if a.startswith("use")] == [f"use Ninja Acolyte on {LIBRARY}",
                                                           f"use Ninja Acolyte on {CEMETERY}"]
    play(m, f"use Ninja Acolyte on {LIBRARY}")
    assert m.state()["zones"]["hand"][0].count(ac) == 1
    # the extra minion on this base is kept for later in the play phase: the normal play fits too
    assert m.question is None and m.state()["vars"]["extra_on"][pos.base(LIBRARY)] == 1
    play(m, f"play Tiger Assassin on {LIBRARY}", "an extra minion on this base")
    st = m.state()
    ta = st["components"].index(next(c for c in st["components"] if c["label"] == "Tiger Assassin"
                                     and c["fields"]["owner"] == 0))
    assert zone(m, "field") == ["Ninja Acolyte", "Tiger Assassin"] and where(m, ta) == LIBRARY
    assert st["vars"]["minion_plays"][0] == 1       # the turn's own minion play is still there
    assert "use Ninja Acolyte" not in acts(m)       # the other one: a minion has been played now


def test_ninja_acolyte_special_not_offered_after_a_minion_was_played():
    pos = Pos()
    pos.minion("Ninja Acolyte", 0, LIBRARY)
    pos.hand(0, "Shinobi")
    m = pos.match()
    play(m, f"play Shinobi on {CEMETERY}")
    assert not any(a.startswith("use") for a in acts(m))


def test_smoke_bomb_an_action_attached_by_another_player_does_not_affect_the_minion():
    pos = Pos("ninjas+pirates,ninjas+pirates")
    pk = pos.minion("Pirate King", 1, LIBRARY)       # 5
    pos.on_minion("Smoke Bomb", 1, pk)               # P2's own Smoke Bomb on P2's minion
    pos.hand(0, "Poison")
    m = pos.match()
    # Smoke Bomb: the minion is not affected by another player's action: not a target (issue 27)
    assert not any(a.startswith("attach") for a in acts(m))


def test_poison_minus_4_never_below_0_and_destroys_chosen_attached_actions():
    pos = Pos("ninjas+pirates,ninjas+pirates")
    pos.minion("Pirate King", 1, LIBRARY)            # 5
    wench = pos.minion("Saucy Wench", 1, LIBRARY)    # 3
    pos.on_minion("Poison", 1, wench)                # P2's own Poison on their Wench: 3 - 4 -> 0
    pos.hand(0, "Poison")
    m = pos.match()
    assert total_here(m, LIBRARY) == 5 + 0
    play(m, f"attach Poison to Pirate King (P2) on {LIBRARY}")
    assert total_here(m, LIBRARY) == 1 + 0
    assert m.question is None                        # nothing else attached to it: nothing to ask


def total_here(m, base: str) -> int:
    st = m.state()
    fn = m.game.code.defs["total"]
    b = next(i for i, c in enumerate(st["components"]) if c["label"] == base)
    return fn(m, b)


def test_smoke_bomb_protects_from_other_players_actions_but_not_minions_and_leaves_at_turn_start():
    pos = Pos("ninjas+pirates,ninjas+pirates")
    acolyte = pos.minion("Ninja Acolyte", 1, LIBRARY)
    pos.on_minion("Smoke Bomb", 1, acolyte)
    pos.hand(0, "Seeing Stars", "Tiger Assassin")
    m = pos.match()
    play(m, "act Seeing Stars")                      # no target: the only one is guarded
    assert acolyte in m.state()["zones"]["field"]    # not affected: Seeing Stars is an action
    assert zone(m, "discard", 0) == ["Seeing Stars"]
    play(m, f"play Tiger Assassin on {LIBRARY}", "Ninja Acolyte (P2) with Smoke Bomb")   # a minion's ability
    assert acolyte not in m.state()["zones"]["field"]
    assert zone(m, "discard", 1) == ["Ninja Acolyte", "Smoke Bomb"]


def test_smoke_bomb_is_destroyed_at_the_start_of_its_owners_turn():
    pos = Pos("ninjas+pirates,ninjas+pirates")
    acolyte = pos.minion("Ninja Acolyte", 1, LIBRARY)
    pos.on_minion("Smoke Bomb", 1, acolyte)
    pos.on_base("Infiltrate", 1, CEMETERY)
    m = pos.match()
    play(m, "done")                                  # P1 draws; P2's turn starts
    assert m.question["chooser"] == 1 and m.question["prompt"] == "which ability resolves first"
    play(m, "Smoke Bomb: start of turn")
    assert m.question is None and m.state()["current"] == 1
    assert zone(m, "attached") == []
    assert zone(m, "discard", 1) == ["Infiltrate", "Smoke Bomb"]


def test_assassination_destroys_the_minion_at_the_end_of_the_turn():
    pos = Pos()
    rex = pos.minion("King Rex", 1, LIBRARY)
    pos.hand(0, "Assassination")
    m = pos.match()
    play(m, f"attach Assassination to King Rex (P2) on {LIBRARY}")
    assert rex in m.state()["zones"]["field"]
    play(m, "done")
    assert zone(m, "discard", 1) == ["King Rex"]
    assert zone(m, "discard", 0) == ["Assassination"]
    assert zone(m, "attached") == []


def test_infiltrate_destroys_another_action_on_the_base():
    pos = Pos()
    pos.on_base("Jammed Signal", 1, LIBRARY)
    pos.hand(0, "Infiltrate")
    m = pos.match()
    play(m, f"place Infiltrate on {LIBRARY}")
    assert zone(m, "discard", 1) == ["Jammed Signal"]
    assert zone(m, "attached") == ["Infiltrate"]


def test_disguise_plays_extra_minions_there_then_returns_the_picked_ones():
    pos = Pos()
    pos.minion("Ninja Acolyte", 0, LIBRARY)
    pos.minion("Shinobi", 0, LIBRARY)
    pos.minion("Tiger Assassin", 0, CEMETERY)
    pos.hand(0, "Disguise", "Ninja Master", "First Mate")
    m = pos.match()
    play(m, "act Disguise", LIBRARY, "Ninja Acolyte", "Shinobi")
    play(m, "Ninja Master")                          # first extra minion (on that base only)
    play(m, "pass")                                  # Ninja Master's on-play: destroy nothing
    play(m, "First Mate")
    assert zone(m, "hand", 0) == ["Ninja Acolyte", "Shinobi"]
    assert sorted(where(m, c) for c in m.state()["zones"]["field"]) == [CEMETERY, LIBRARY, LIBRARY]
    assert m.state()["vars"]["minion_plays"][0] == 1


def test_disguise_asks_for_the_extra_minion_even_with_no_minion_in_hand():
    """A leak trial: the question "play an extra minion" came only when the hand held a minion,
    telling every other player so. It is asked all the same (`optional always`): `pass` only."""
    pos = Pos()
    pos.minion("Ninja Acolyte", 0, LIBRARY)
    pos.hand(0, "Disguise", "Seeing Stars")
    m = pos.match()
    play(m, "act Disguise")                          # (one base, one minion there: taken without asking)
    assert m.question["prompt"] == "play an extra minion" and m.question["options"] == ["pass"]
    assert m.view(1)["choice"]["prompt"] == "play an extra minion"
    play(m, "pass")
    assert m.question is None and sorted(zone(m, "hand", 0)) == ["Ninja Acolyte", "Seeing Stars"]


def test_way_of_deception_moves_one_of_your_minions():
    pos = Pos()
    sh = pos.minion("Shinobi", 0, LIBRARY)
    pos.minion("King Rex", 1, LIBRARY)
    pos.hand(0, "Way of Deception")
    m = pos.match()
    play(m, "act Way of Deception")                  # the only minion of mine
    assert sorted(acts(m)) == sorted([OASIS, CEMETERY])
    play(m, OASIS)
    assert where(m, sh) == OASIS


# ---- pirates: on play, replacement, actions ------------------------------------------------------
def test_saucy_wench_may_destroy_a_minion_of_power_2_or_less_here():
    pos = Pos()
    pos.minion("Collector", 1, LIBRARY)
    pos.minion("Invader", 1, LIBRARY)
    pos.hand(0, "Saucy Wench")
    m = pos.match()
    play(m, f"play Saucy Wench on {LIBRARY}")
    assert acts(m) == ["Collector (P2)", "pass"]
    play(m, "Collector (P2)")
    assert zone(m, "discard", 1) == ["Collector"]


def test_buccaneer_moves_instead_of_being_destroyed():
    pos = Pos("ninjas+pirates,ninjas+pirates")
    bu = pos.minion("Buccaneer", 1, LIBRARY)
    pos.hand(0, "Ninja Master")
    m = pos.match()
    play(m, f"play Ninja Master on {LIBRARY}", "Buccaneer (P2)")
    assert m.question["chooser"] == 1                # its owner picks where it goes
    assert sorted(acts(m)) == sorted([OASIS, CEMETERY])
    play(m, OASIS)
    assert where(m, bu) == OASIS and zone(m, "discard", 1) == []
    # (the log says why it moved: it read "Buccaneer (P2) … moves to Jungle Oasis (Ninja Master)" alone,
    # as if Ninja Master moved it — a fidelity audit; Warbot's and Tar Pits' lines name themselves)
    said = m.messages_for(0)
    assert said[-2:] == [f"Buccaneer (P2) on {LIBRARY} would be destroyed: it moves to another base instead",
                         f"Buccaneer (P2) on {LIBRARY} moves to {OASIS} (Ninja Master)"], said[-3:]


def test_powderkeg_destroys_one_of_yours_and_every_minion_there_of_no_more_power():
    pos = Pos()
    pos.minion("Saucy Wench", 0, LIBRARY)            # 3
    pos.minion("Pirate King", 0, CEMETERY)
    pos.minion("Collector", 1, LIBRARY)              # 2
    pos.minion("Invader", 1, LIBRARY)                # 3
    pos.minion("Laseratops", 1, LIBRARY)             # 4
    pos.hand(0, "Powderkeg")
    m = pos.match()
    play(m, "act Powderkeg", f"Saucy Wench (P1, {LIBRARY})")
    assert zone(m, "discard", 0) == ["Powderkeg", "Saucy Wench"]
    assert zone(m, "discard", 1) == ["Collector", "Invader"]
    assert zone(m, "field") == ["Laseratops", "Pirate King"]


def test_broadside_destroys_all_of_one_players_small_minions_where_you_have_one():
    pos = Pos()
    pos.minion("First Mate", 0, LIBRARY)
    pos.minion("Collector", 1, LIBRARY)
    pos.minion("Collector", 1, LIBRARY)
    pos.minion("Invader", 1, LIBRARY)
    pos.minion("Collector", 1, CEMETERY)
    pos.hand(0, "Broadside")
    m = pos.match()
    play(m, "act Broadside")                         # the only base where P1 has a minion
    assert m.question["prompt"] == f"whose minions of power 2 or less on {LIBRARY} are destroyed"
    said = len(m.messages_for(0))
    play(m, "P2")
    assert zone(m, "discard", 1) == ["Collector", "Collector"]
    assert zone(m, "field") == ["Collector", "First Mate", "Invader"]
    assert m.messages_for(0)[said:].count(f"Collector (P2) on {LIBRARY} is destroyed (Broadside)") == 2
    # a player with no such minion there: said so (a bot's Broadside, its base picked alone, read as nothing)
    pos = Pos()
    pos.minion("First Mate", 0, LIBRARY)
    pos.minion("Invader", 1, LIBRARY)
    pos.hand(0, "Broadside")
    m = pos.match()
    play(m, "act Broadside", "P2")
    assert f"Broadside: P2 has no minion of power 2 or less on {LIBRARY}" in m.messages_for(1)
    assert zone(m, "field") == ["First Mate", "Invader"]


def test_cannon_destroys_up_to_two_small_minions_anywhere():
    pos = Pos()
    pos.minion("Collector", 1, LIBRARY)
    pos.minion("Collector", 1, CEMETERY)
    pos.minion("King Rex", 1, CEMETERY)
    pos.hand(0, "Cannon")
    m = pos.match()
    play(m, "act Cannon", f"Collector (P2, {LIBRARY})")
    assert acts(m) == [f"Collector (P2, {CEMETERY})", "pass"]
    play(m, "pass")
    assert zone(m, "field") == ["Collector", "King Rex"]


def test_dinghy_moves_up_to_two_of_your_minions():
    pos = Pos()
    a = pos.minion("First Mate", 0, LIBRARY)
    b = pos.minion("Saucy Wench", 0, LIBRARY)
    c = pos.minion("Buccaneer", 0, LIBRARY)
    pos.hand(0, "Dinghy")
    m = pos.match()
    play(m, "act Dinghy", f"First Mate (P1, {LIBRARY})", OASIS, f"Saucy Wench (P1, {LIBRARY})", CEMETERY)
    assert m.question is None                        # two moved: done
    assert [where(m, x) for x in (a, b, c)] == [OASIS, CEMETERY, LIBRARY]


def test_full_sail_as_a_before_scores_special():
    pos = Pos()
    fm = pos.minion("First Mate", 0, LIBRARY)        # 2
    pos.minion("Buccaneer", 0, LIBRARY)              # 4
    pos.minion("Saucy Wench", 0, OASIS)              # 3
    pos.minion("King Rex", 1, OASIS)                 # 7 + 3 + 2 = 12
    pos.minion("Collector", 1, OASIS)
    pos.hand(0, "Full Sail")
    m = pos.match()
    play(m, "done", "Full Sail", f"First Mate (P1, {LIBRARY})", OASIS, f"Buccaneer (P1, {LIBRARY})", OASIS)
    assert acts(m) == [f"Saucy Wench (P1, {OASIS})", "pass"]    # each minion moved at most once
    play(m, "pass")                                  # Full Sail is gone: P2, then P1, have only pass
    assert pass_windows(m) == [1, 0]                 # and the window closes
    assert m.question["prompt"] == f"{OASIS} has scored: use a Special before its cards are discarded?"
    assert acts(m) == ["First Mate", "pass"]
    play(m, "pass")
    st = m.state()
    assert st["vars"]["vp"] == [2, 2]                # 9 vs 9: tied for first (5 vs 9 without)
    assert fm in st["zones"]["discard"][0]
    assert zone(m, "discard", 0) == ["Buccaneer", "First Mate", "Full Sail", "Saucy Wench"]


def test_sea_dogs_moves_other_players_minions_of_a_faction_from_one_base_to_another():
    pos = Pos()
    r = pos.minion("King Rex", 1, LIBRARY)
    l = pos.minion("Laseratops", 1, LIBRARY)
    i = pos.minion("Invader", 1, LIBRARY)
    pos.minion("Saucy Wench", 0, LIBRARY)
    pos.hand(0, "Sea Dogs")
    m = pos.match()
    play(m, "act Sea Dogs", "Dinosaurs")             # the only base with their Dinosaurs: no question
    play(m, OASIS)
    assert [where(m, x) for x in (r, l, i)] == [OASIS, OASIS, LIBRARY]


def test_shanghai_moves_another_players_minion_and_swashbuckling_gives_plus_1():
    pos = Pos()
    rex = pos.minion("King Rex", 1, LIBRARY)
    pos.minion("First Mate", 0, LIBRARY)
    pos.minion("Saucy Wench", 0, CEMETERY)
    pos.hand(0, "Shanghai")
    m = pos.match()
    play(m, "act Shanghai", OASIS)                   # the only other player's minion
    assert where(m, rex) == OASIS
    pos = Pos()
    a = pos.minion("First Mate", 0, LIBRARY)
    pos.minion("Collector", 1, LIBRARY)
    pos.hand(0, "Swashbuckling")
    m = pos.match()
    play(m, "act Swashbuckling")
    assert m.state()["vars"]["bonus"][a] == 1 and total_here(m, LIBRARY) == 3 + 2
    play(m, "done")
    assert m.state()["vars"]["bonus"][a] == 0


def test_ninja_master_may_destroy_any_minion_on_its_base_itself_included():
    """"On play: you may destroy a minion on this base." Alone on its base, it asked nothing: a
    player may want it gone (a base that pays for a destroyed minion of one's own)."""
    pos = Pos()
    pos.minion("Collector", 1, LIBRARY)
    pos.hand(0, "Ninja Master")
    m = pos.match()
    play(m, f"play Ninja Master on {LIBRARY}")
    assert sorted(acts(m)) == ["Collector (P2)", "Ninja Master (P1)", "pass"]
    play(m, "Ninja Master (P1)")
    assert zone(m, "discard", 0) == ["Ninja Master"]
    assert zone(m, "field") == ["Collector"]


def test_assassination_tries_only_at_the_end_of_the_turn_it_was_played():
    """"Destroy that minion at the end of the turn": a Buccaneer that moves away instead of being
    destroyed is not made to move again at the end of every later turn (a fidelity audit)."""
    pos = Pos(factions="ninjas+aliens,pirates+dinosaurs")
    buc = pos.minion("Buccaneer", 1, LIBRARY)
    pos.hand(0, "Assassination")
    m = pos.match()
    play(m, f"attach Assassination to Buccaneer (P2) on {LIBRARY}")
    play(m, "done")
    assert m.question is not None and m.question["prompt"] == "move Buccaneer to which base"
    play(m, m.question["options"][0])
    moved = m.state()["vars"]["at"][buc]
    for _ in range(3):                                     # three more turns' ends: nothing asked
        while m.question is not None:
            assert m.question["kind"] == "window", m.question["prompt"]
            play(m, "pass")
        play(m, "done")
    assert m.state()["vars"]["at"][buc] == moved and buc in m.state()["zones"]["field"]
