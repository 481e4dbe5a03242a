"""Smash Up: the Robots and Tricksters card abilities (games/smash_up/robots.rules,
tricksters.rules), each played from an exact position built from a real match's state."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from shipped import shipped
from opening import kept  # noqa: E402

MINE = "robots+tricksters,wizards+zombies"
BASES = ("Jungle Oasis", "The Great Library", "Rhodes Plaza Mall")   # no ability during a turn
OASIS, LIBRARY, MALL = BASES


game = shipped("smash_up")


def position(hands=((), ()), decks=((), ()), discards=((), ()), field=(), attached=(), factions=MINE,
             current=0, seed=3, **values):
    """A play step of `current`'s turn with one minion and one action play left. hands/decks/
    discards: card names per player (decks top first); field/attached: (name, owner, base).
    Each player's other cards go under their deck. values: var name -> {index: value} (an index
    is a player, or a card given as (name, owner): its first copy placed by this position)."""
    m = kept(game.new_match(2, seed=seed, options={"factions": factions}))
    st = m.state()
    assert st["step"] == "play" and "pending" not in st
    comps = st["components"]
    free = set(range(len(comps)))
    placed = {}

    def take(name, owner=None):
        for i in sorted(free):
            c = comps[i]
            if c["label"] == name and (owner is None or c["fields"].get("owner") == owner):
                free.discard(i)
                placed.setdefault((name, owner), i)
                return i
        raise AssertionError(f"no free {name} of P{owner}")

    z, v = st["zones"], st["vars"]
    for p in range(2):
        z["hand"][p] = [take(n, p) for n in hands[p]]
        z["discard"][p] = [take(n, p) for n in discards[p]]
        z["deck"][p] = list(reversed([take(n, p) for n in decks[p]]))
    z["bases"] = [take(b) for b in BASES]
    z["field"], z["attached"], z["resolving"], z["base_discard"] = [], [], [], []
    for name, owner, base in field:
        c = take(name, owner)
        z["field"].append(c)
        v["at"][c] = z["bases"][BASES.index(base)]
    for name, owner, base in attached:
        c = take(name, owner)
        z["attached"].append(c)
        v["on_base"][c] = z["bases"][BASES.index(base)]
    z["base_deck"] = [i for i in sorted(free) if comps[i]["kind"] == "Base"]
    for i in sorted(free - set(z["base_deck"])):
        z["deck"][comps[i]["fields"]["owner"]].insert(0, i)
    st["current"] = st["actor"] = current
    v["minion_plays"] = [1 if p == current else 0 for p in range(2)]
    v["action_plays"] = [1 if p == current else 0 for p in range(2)]
    v["minions_played"] = [0, 0]
    for name, entries in values.items():
        for key, value in entries.items():
            v[name][placed[key] if isinstance(key, tuple) else key] = value
    return rulelang.Match.from_state(game, st)


def labels(m, zone, p=None):
    st = m.state()
    ids = st["zones"][zone] if p is None else st["zones"][zone][p]
    return sorted(st["components"][i]["label"] for i in ids)


def top_down(m, p, n):
    st = m.state()
    return [st["components"][i]["label"] for i in reversed(st["zones"]["deck"][p][-n:])]


def where(m, name, owner):
    """The base each `name` of `owner` in play is on."""
    st = m.state()
    comps = st["components"]
    return sorted(comps[st["vars"]["at"][i]]["label"] for i in st["zones"]["field"]
                  if comps[i]["label"] == name and comps[i]["fields"]["owner"] == owner)


def var(m, name, p):
    return m.state()["vars"][name][p]


def options(m):
    return sorted(m.question["options"])


def play(m, *texts):
    for t in texts:
        m.apply(t)
    return m


def legal(m):
    return {a.text for a in m.legal_actions()}


def pass_windows(m) -> list[int]:
    """Answer `pass` for each player asked the before-scores window with nothing else to answer
    (it is opened `always`: every player is asked in turn from the current player, a Special in
    hand or not); the players who passed, in order. Stops at any other question, and at the
    window of another base."""
    passed, prompt = [], m.question and m.question["prompt"]
    while (m.question is not None and m.question["kind"] == "window" and m.question["prompt"] == prompt
           and prompt.endswith(" is about to score: play a Special?") and legal(m) == {"pass"}):
        passed.append(m.question["chooser"])
        m.apply("pass")
    return passed


def end_turn(m):
    """`done`, then the turn passes (nothing scores in these positions)."""
    who = m.state()["current"]
    m.apply("done")
    assert m.question is None and m.state()["current"] != who
    return m


# ---- Robots ---------------------------------------------------------------------------------
def test_hoverbot_plays_the_revealed_minion_as_an_extra_minion():
    m = position(hands=(["Hoverbot"], []), decks=(["Warbot", "Zapbot"], []))
    play(m, f"play Hoverbot on {OASIS}")
    assert m.question["prompt"] == "play an extra minion" and options(m) == ["Warbot", "pass"]
    play(m, "Warbot", LIBRARY)
    assert where(m, "Hoverbot", 0) == [OASIS] and where(m, "Warbot", 0) == [LIBRARY]
    assert top_down(m, 0, 1) == ["Zapbot"]
    assert var(m, "minions_played", 0) == 2 and var(m, "minion_plays", 0) == 0


def test_hoverbot_leaves_an_action_on_top_shown_to_everyone():
    m = position(hands=(["Hoverbot"], []), decks=(["Tech Center", "Zapbot"], []))
    play(m, f"play Hoverbot on {OASIS}")
    assert m.question is None and top_down(m, 0, 2) == ["Tech Center", "Zapbot"]
    deck = next(z for z in m.view(1)["zones"] if z["name"] == "deck" and z["owner"] == 0)
    assert [c["label"] for c in deck["known"]] == ["Tech Center"]           # revealed to P2 too
    # and said, so it is not lost when the card is drawn before P2 looks (a player's trial)
    assert "P1 reveals Tech Center from the top of their deck" in m.messages_for(1)


def test_zapbot_extra_minion_of_power_two_or_less_kept_for_later_in_the_play_phase():
    m = position(hands=(["Zapbot", "Microbot Guard", "Warbot", "Tech Center"], []))
    play(m, f"play Zapbot on {OASIS}")
    assert m.question is None and m.state()["vars"]["extra_small"] == 1     # issue 27: not at once
    acts = legal(m)
    assert f"play Microbot Guard on {MALL}" in acts and f"play Warbot on {OASIS}" not in acts
    play(m, "act Tech Center", f"{OASIS} (1)")         # an action first: the extra minion waits
    play(m, f"play Microbot Guard on {MALL}")
    assert where(m, "Microbot Guard", 0) == [MALL] and var(m, "minion_plays", 0) == 0
    assert not any(a.startswith("play ") for a in legal(m))


def test_warbot_is_not_destroyed_by_flame_trap_which_destroys_itself():
    m = position(hands=(["Warbot"], []), attached=[("Flame Trap", 1, OASIS)],
                 factions="robots+wizards,tricksters+zombies")
    play(m, f"play Warbot on {OASIS}")
    assert where(m, "Warbot", 0) == [OASIS]
    assert labels(m, "attached") == [] and labels(m, "discard", 1) == ["Flame Trap"]
    said = [x if isinstance(x, str) else x["text"] for x in m.messages]      # (a rules check: it said nothing)
    assert "Warbot (P1) on Jungle Oasis cannot be destroyed" in said


@pytest.mark.parametrize("first,destroyed,kept", [("Hoverbot", "Hoverbot", "Zapbot"), ("Zapbot", "Zapbot", "Hoverbot")])
def test_one_flame_trap_set_off_twice_asks_the_current_player_which_minion_first(first, destroyed, kept):
    """Me First! (the current player orders triggers): Hoverbot and the Zapbot it plays both set
    off one Flame Trap, which destroys the first and itself. The two triggers read alike, and
    alone they were not asked at all (Zapbot always went) — a rules audit."""
    m = position(hands=(["Hoverbot"], []), decks=(["Zapbot"], []), attached=[("Flame Trap", 1, OASIS)],
                 factions="robots+wizards,tricksters+zombies")
    play(m, f"play Hoverbot on {OASIS}", "Zapbot", OASIS)
    assert m.question["prompt"] == "which ability resolves first" and m.question["chooser"] == 0
    assert options(m) == ["Flame Trap: played (Hoverbot)", "Flame Trap: played (Zapbot)"]
    play(m, f"Flame Trap: played ({first})")
    assert m.question is None
    assert labels(m, "discard", 0) == [destroyed] and labels(m, "discard", 1) == ["Flame Trap"]
    assert where(m, kept, 0) == [OASIS]


def test_nukebot_destroyed_destroys_the_other_players_minions_on_its_base():
    # Flame Trap destroys Nukebot after it is played; Nukebot then destroys P2's Gremlin and Walker
    # there (not P1's Zapbot, not P2's Walker elsewhere); the Gremlin makes P1 discard their card.
    m = position(hands=(["Nukebot", "Zapbot"], []), decks=([], ["Leprechaun"]),
                 field=[("Zapbot", 0, OASIS), ("Gremlin", 1, OASIS), ("Walker", 1, OASIS),
                        ("Walker", 1, LIBRARY)],
                 attached=[("Flame Trap", 1, OASIS)], factions="robots+wizards,tricksters+zombies")
    play(m, f"play Nukebot on {OASIS}")
    assert m.question is None
    assert labels(m, "field") == ["Walker", "Zapbot"] and where(m, "Walker", 1) == [LIBRARY]
    assert labels(m, "discard", 0) == ["Nukebot", "Zapbot"]          # Zapbot: Gremlin's random discard
    assert labels(m, "discard", 1) == ["Flame Trap", "Gremlin", "Walker"]
    assert labels(m, "hand", 1) == ["Leprechaun"]                     # Gremlin: its owner draws


def test_microbot_archive_draws_when_a_microbot_is_destroyed_itself_included():
    m = position(hands=(["Microbot Guard", "Zapbot"], []), decks=(["Warbot", "Hoverbot", "Nukebot"], []),
                 field=[("Microbot Archive", 0, LIBRARY)], attached=[("Flame Trap", 1, OASIS)],
                 factions="robots+wizards,tricksters+zombies")
    play(m, f"play Microbot Guard on {OASIS}")             # destroyed by Flame Trap: a Microbot
    assert labels(m, "hand", 0) == ["Warbot", "Zapbot"]
    m = position(hands=(["Zapbot"], []), decks=(["Warbot"], []),
                 field=[("Microbot Archive", 0, LIBRARY)], attached=[("Flame Trap", 1, OASIS)],
                 factions="robots+wizards,tricksters+zombies")
    play(m, f"play Zapbot on {OASIS}")                     # not a Microbot: no card
    assert labels(m, "hand", 0) == [] and labels(m, "discard", 0) == ["Zapbot"]
    m = position(hands=(["Microbot Archive"], []), decks=(["Warbot"], []),
                 attached=[("Flame Trap", 1, OASIS)], factions="robots+wizards,tricksters+zombies")
    play(m, f"play Microbot Archive on {OASIS}")           # itself
    assert labels(m, "hand", 0) == ["Warbot"]


def test_microbot_archive_counts_every_minion_as_a_microbot_while_alpha_is_in_play():
    m = position(hands=(["Zapbot"], []), decks=(["Warbot"], []),
                 field=[("Microbot Archive", 0, LIBRARY), ("Microbot Alpha", 0, MALL)],
                 attached=[("Flame Trap", 1, OASIS)], factions="robots+wizards,tricksters+zombies")
    play(m, f"play Zapbot on {OASIS}")
    assert labels(m, "hand", 0) == ["Warbot"]


def _oasis_scores(p2_minions):
    """P1: Microbot Alpha, Microbot Fixer and Zapbot on Jungle Oasis (breakpoint 12, 2/0/0 VP);
    P2: the given minions there. P1 ends the turn: the VP each gets."""
    m = position(field=[("Microbot Alpha", 0, OASIS), ("Microbot Fixer", 0, OASIS), ("Zapbot", 0, OASIS)]
                 + [(n, 1, OASIS) for n in p2_minions])
    m.apply("done")
    assert pass_windows(m) == [0, 1] and m.question is None     # both asked before it scores
    return var(m, "vp", 0), var(m, "vp", 1)


def test_microbot_alpha_and_fixer_power():
    # Alpha 1 + 2 other Microbots (Alpha makes Zapbot one) + 1 Fixer = 4; Fixer 1 + 1 = 2;
    # Zapbot 2 + 1 = 3: P1 has 9 on the base
    assert _oasis_scores(["Grave Digger", "Grave Digger"]) == (2, 0)                   # 9 v 8
    assert _oasis_scores(["Archmage", "Zombie Lord"]) == (2, 2)                        # 9 v 9
    assert _oasis_scores(["Zombie Lord", "Chronomage", "Walker"]) == (0, 2)            # 9 v 10


def test_microbot_fixer_gives_an_extra_minion_for_later_only_as_the_first_minion():
    m = position(hands=(["Microbot Fixer", "Warbot", "Microbot Fixer"], []))
    play(m, f"play Microbot Fixer on {OASIS}")
    assert m.question is None and var(m, "minion_plays", 0) == 1
    assert f"play Warbot on {LIBRARY}" in legal(m)
    play(m, f"play Warbot on {LIBRARY}")
    assert var(m, "minion_plays", 0) == 0 and not any(a.startswith("play ") for a in legal(m))
    # the second minion this turn: no extra play
    m = position(hands=(["Microbot Fixer", "Warbot"], []), minion_plays={0: 2}, minions_played={0: 1})
    play(m, f"play Microbot Fixer on {OASIS}")
    assert var(m, "minion_plays", 0) == 1


def test_microbot_reclaimer_extra_minion_and_shuffles_microbots_back():
    m = position(hands=(["Microbot Reclaimer"], []),
                 discards=(["Microbot Guard", "Zapbot", "Tech Center", "Microbot Fixer"], []))
    play(m, f"play Microbot Reclaimer on {OASIS}")
    assert options(m) == ["Microbot Fixer", "Microbot Guard", "done"]
    play(m, "Microbot Guard", "done")
    assert m.question is None and var(m, "minion_plays", 0) == 1
    assert labels(m, "discard", 0) == ["Microbot Fixer", "Tech Center", "Zapbot"]
    assert "Microbot Guard" in top_down(m, 0, 40)
    # with Microbot Alpha in play every minion is a Microbot
    m = position(hands=(["Microbot Reclaimer"], []), discards=(["Zapbot", "Tech Center"], []),
                 field=[("Microbot Alpha", 0, MALL)])
    play(m, f"play Microbot Reclaimer on {OASIS}")
    assert options(m) == ["Zapbot", "done"]


def test_microbot_guard_must_destroy_a_minion_below_your_minion_count_here():
    m = position(hands=(["Microbot Guard"], []),
                 field=[("Zapbot", 0, OASIS), ("Zapbot", 0, OASIS), ("Walker", 1, OASIS),
                        ("Grave Digger", 1, OASIS), ("Walker", 1, LIBRARY)])
    play(m, f"play Microbot Guard on {OASIS}")          # 3 minions of P1 here: power 2 or less
    assert "pass" not in m.question["options"]
    assert options(m) == ["Microbot Guard (P1) on Jungle Oasis", "Walker (P2) on Jungle Oasis",
                          "Zapbot (P1) on Jungle Oasis"]           # (two Zapbots: copies, one option)
    play(m, "Walker (P2) on Jungle Oasis")
    assert labels(m, "discard", 1) == ["Walker"] and where(m, "Walker", 1) == [LIBRARY]


def test_tech_center_draws_a_card_per_minion_you_have_on_the_chosen_base():
    m = position(hands=(["Tech Center"], []), decks=(["Warbot", "Hoverbot", "Nukebot"], []),
                 field=[("Zapbot", 0, OASIS), ("Zapbot", 0, OASIS), ("Walker", 1, OASIS),
                        ("Zapbot", 0, LIBRARY)])
    play(m, "act Tech Center")
    assert options(m) == ["Jungle Oasis (2)", "Rhodes Plaza Mall (0)", "The Great Library (1)"]
    play(m, "Jungle Oasis (2)")
    assert labels(m, "hand", 0) == ["Hoverbot", "Warbot"] and labels(m, "discard", 0) == ["Tech Center"]


# ---- Tricksters -----------------------------------------------------------------------------
ROBOTS_P2 = "tricksters+wizards,robots+zombies"


def test_leprechaun_destroys_a_weaker_minion_another_player_plays_here_after_its_ability():
    m = position(hands=([], ["Hoverbot"]), decks=([], ["Tech Center"]),
                 field=[("Leprechaun", 0, OASIS)], factions=ROBOTS_P2, current=1)
    play(m, f"play Hoverbot on {OASIS}")               # its on-play revealed Tech Center first
    assert labels(m, "discard", 1) == ["Hoverbot"] and labels(m, "field") == ["Leprechaun"]
    m = position(hands=([], ["Nukebot", "Hoverbot"]), field=[("Leprechaun", 0, OASIS)],
                 factions=ROBOTS_P2, current=1)
    play(m, f"play Nukebot on {OASIS}")                # not weaker: it stays
    assert labels(m, "field") == ["Leprechaun", "Nukebot"]
    m = position(hands=(["Gremlin"], []), field=[("Leprechaun", 0, OASIS)], factions=ROBOTS_P2)
    play(m, f"play Gremlin on {OASIS}")                # its owner's own minion: it stays
    assert labels(m, "field") == ["Gremlin", "Leprechaun"]


def test_brownie_makes_another_player_who_affects_it_discard_two_random_cards():
    m = position(hands=([], ["Beam Up", "King Rex", "Invader"]), field=[("Brownie", 0, OASIS)],
                 factions="tricksters+robots,aliens+dinosaurs", current=1)
    play(m, "act Beam Up")
    assert labels(m, "hand", 0) == ["Brownie"]
    assert labels(m, "discard", 1) == ["Beam Up", "Invader", "King Rex"] and labels(m, "hand", 1) == []
    # an action on a minion affects it too
    m = position(hands=([], ["Upgrade", "King Rex", "Invader", "Scout"]), field=[("Brownie", 0, OASIS)],
                 factions="tricksters+robots,aliens+dinosaurs", current=1)
    play(m, f"attach Upgrade to Brownie (P1) on {OASIS}")
    assert len(labels(m, "hand", 1)) == 1 and len(labels(m, "discard", 1)) == 2
    # its owner affecting it: nothing
    m = position(hands=(["Beam Up", "Gnome"], ["King Rex"]), field=[("Brownie", 0, OASIS)],
                 factions="tricksters+aliens,robots+dinosaurs")
    play(m, "act Beam Up")
    assert labels(m, "hand", 0) == ["Brownie", "Gnome"] and labels(m, "hand", 1) == ["King Rex"]


def test_what_a_card_in_play_does_is_said_with_its_name():
    """A first hour at the terminal: Brownie's discards read `P2 discards King Rex`, with nothing
    to say why; a destroy by an ongoing card named none either. The card whose ability does it is
    named after (`(Brownie)`), never when no card's ability acts (the hand limit)."""
    m = position(hands=([], ["Beam Up", "King Rex", "Invader"]), field=[("Brownie", 0, OASIS)],
                 factions="tricksters+robots,aliens+dinosaurs", current=1)
    said = len(m.messages_for(0))
    play(m, "act Beam Up")
    new = m.messages_for(0)[said:]
    assert "P2 discards King Rex (Brownie)" in new and "P2 discards Invader (Brownie)" in new, new
    assert any(x.startswith("Brownie (P1) on ") and x.endswith("returns to P1's hand (Beam Up)") for x in new), new


def test_brownie_punishes_a_card_played_not_a_trigger_or_a_later_effect():
    """"After another player *plays a card* that affects this minion" (SU audit): P1's Ninja Master
    destroys P2's Nukebot, whose own ability destroys P1's Brownie — P2 played nothing and
    discarded two; P2's Assassination made P2 discard two when attached and two more when it
    destroyed Brownie at the turn's end."""
    m = position(hands=(["Ninja Master"], ["Invader", "Scout", "Collector"]),
                 field=[("Nukebot", 1, "Rhodes Plaza Mall"), ("Brownie", 0, "Rhodes Plaza Mall")],
                 factions="tricksters+ninjas,robots+aliens")
    play(m, "play Ninja Master on Rhodes Plaza Mall", "Nukebot (P2)")
    while m.question is not None:
        m.apply(options(m)[0])
    assert "Brownie" in labels(m, "discard", 0)                        # destroyed by Nukebot's ability
    assert sorted(labels(m, "hand", 1)) == ["Collector", "Invader", "Scout"] and labels(m, "discard", 1) == ["Nukebot"]
    m = position(hands=([], ["Assassination", "Shinobi", "Shinobi", "Ninja Acolyte", "Ninja Acolyte"]),
                 field=[("Brownie", 0, OASIS)], factions="tricksters+robots,ninjas+pirates", current=1)
    play(m, f"attach Assassination to Brownie (P1) on {OASIS}")
    assert len(labels(m, "hand", 1)) == 2 and len(labels(m, "discard", 1)) == 2   # two, for the card played
    play(m, "done")
    while m.question is not None:
        m.apply(options(m)[0])
    assert "Brownie" in labels(m, "discard", 0)                        # Assassination destroyed it
    assert len(labels(m, "discard", 1)) == 3                           # + Assassination itself: no more


def test_gnome_may_destroy_a_minion_below_your_minion_count_here():
    m = position(hands=(["Gnome"], []),
                 field=[("Zapbot", 0, OASIS), ("Microbot Guard", 0, OASIS), ("Walker", 1, OASIS)])
    play(m, f"play Gnome on {OASIS}")                  # 3 minions of P1 here: power 2 or less
    assert options(m) == ["Microbot Guard (P1) on Jungle Oasis", "Walker (P2) on Jungle Oasis",
                          "Zapbot (P1) on Jungle Oasis", "pass"]
    play(m, "pass")
    assert labels(m, "field") == ["Gnome", "Microbot Guard", "Walker", "Zapbot"]


def test_gremlin_destroyed_draws_and_each_other_player_discards_a_random_card():
    m = position(hands=(["Gnome"], ["Walker"]), decks=(["Warbot"], []),
                 field=[("Gremlin", 0, OASIS), ("Zapbot", 0, OASIS)])
    play(m, f"play Gnome on {OASIS}", "Gremlin (P1) on Jungle Oasis")
    assert labels(m, "hand", 0) == ["Warbot"] and labels(m, "discard", 0) == ["Gremlin"]
    assert labels(m, "hand", 1) == [] and labels(m, "discard", 1) == ["Walker"]


def test_block_the_path_forbids_the_named_factions_minions_there():
    m = position(hands=(["Block the Path", "Zapbot", "Gnome"], []))
    play(m, f"place Block the Path on {OASIS}")
    assert "Robots" in m.question["options"]
    play(m, "Robots")
    acts = legal(m)
    assert f"play Zapbot on {OASIS}" not in acts and f"play Zapbot on {LIBRARY}" in acts
    assert f"play Gnome on {OASIS}" in acts


def test_disenchant_destroys_an_action_in_play():
    m = position(hands=(["Disenchant"], []), attached=[("Overrun", 1, OASIS), ("Pay the Piper", 0, LIBRARY)])
    play(m, "act Disenchant")
    assert options(m) == ["Overrun (P2) on Jungle Oasis", "Pay the Piper (P1) on The Great Library"]
    play(m, "Overrun (P2) on Jungle Oasis")
    assert labels(m, "attached") == ["Pay the Piper"] and labels(m, "discard", 1) == ["Overrun"]
    assert labels(m, "discard", 0) == ["Disenchant"]


def test_enshrouding_mist_one_extra_minion_there_any_time_in_the_turn():
    m = position(hands=(["Enshrouding Mist", "Zapbot", "Gremlin", "Gnome"], []))
    play(m, f"place Enshrouding Mist on {OASIS}")         # at once, in the turn it is played
    play(m, f"play Gnome on {LIBRARY}")                   # the normal play, elsewhere
    acts = legal(m)
    assert f"play Zapbot on {OASIS}" in acts and f"play Zapbot on {LIBRARY}" not in acts
    play(m, f"play Gremlin on {OASIS}")
    assert not any(a.startswith("play ") for a in legal(m))


def test_enshrouding_mist_used_first_leaves_the_normal_play_and_comes_back_each_turn():
    m = position(hands=(["Gremlin", "Gnome", "Zapbot"], []), attached=[("Enshrouding Mist", 0, OASIS)])
    end_turn(m)
    end_turn(m)
    play(m, f"play Gremlin on {OASIS}")                   # both plays fit: the player names one
    assert sorted(m.question["options"]) == ["an extra minion on this base", "your minion play"]
    play(m, "an extra minion on this base")            # the Mist's play
    acts = legal(m)
    assert f"play Gnome on {LIBRARY}" in acts and f"play Gnome on {OASIS}" in acts
    play(m, f"play Gnome on {LIBRARY}")
    assert var(m, "minion_plays", 0) == 0 and not any(a.startswith("play ") for a in legal(m))
    # another player's turn: no extra play
    end_turn(m)
    m2 = position(hands=([], ["Walker", "Walker"]), attached=[("Enshrouding Mist", 0, OASIS)], current=1)
    play(m2, f"play Walker on {OASIS}")
    assert not any(a.startswith("play ") for a in legal(m2))


def test_enshrouding_mist_destroyed_unused_takes_its_play_away():
    m = position(hands=(["Disenchant", "Gnome", "Gremlin"], []), attached=[("Enshrouding Mist", 0, OASIS)])
    assert f"play Gnome on {LIBRARY}" in legal(m)
    play(m, "act Disenchant")
    assert labels(m, "discard", 0) == ["Disenchant", "Enshrouding Mist"]
    play(m, f"play Gnome on {OASIS}")                    # the normal play: no question
    assert not any(a.startswith("play ") for a in legal(m))


def test_flame_trap_destroys_another_players_minion_here_and_itself():
    m = position(hands=([], ["Walker"]), attached=[("Flame Trap", 0, OASIS)], current=1)
    play(m, f"play Walker on {OASIS}")
    assert m.question["prompt"].startswith("Walker")    # Walker's own on-play ability first
    play(m, "no")
    assert labels(m, "field") == [] and labels(m, "attached") == []
    assert labels(m, "discard", 1) == ["Walker"] and labels(m, "discard", 0) == ["Flame Trap"]
    m = position(hands=(["Gremlin"], []), attached=[("Flame Trap", 0, OASIS)])
    play(m, f"play Gremlin on {OASIS}")                   # its owner's: nothing
    assert labels(m, "field") == ["Gremlin"] and labels(m, "attached") == ["Flame Trap"]


def test_hideout_stops_another_players_action_for_all_its_minions_and_is_destroyed():
    m = position(hands=([], ["Crop Circles"]),
                 field=[("Gremlin", 0, OASIS), ("Gnome", 0, OASIS), ("King Rex", 1, OASIS),
                        ("Brownie", 0, LIBRARY)],
                 attached=[("Hideout", 0, OASIS)], factions="tricksters+robots,aliens+dinosaurs", current=1)
    play(m, "act Crop Circles", OASIS)
    assert labels(m, "field") == ["Brownie", "Gnome", "Gremlin"]
    assert labels(m, "hand", 1) == ["King Rex"] and labels(m, "attached") == []
    assert labels(m, "discard", 0) == ["Hideout"]
    # an action played on such a minion is discarded, and Hideout destroyed
    m = position(hands=([], ["Upgrade"]), field=[("Gremlin", 0, OASIS)], attached=[("Hideout", 0, OASIS)],
                 factions="tricksters+robots,aliens+dinosaurs", current=1)
    play(m, f"attach Upgrade to Gremlin (P1) on {OASIS}")
    assert labels(m, "attached") == [] and labels(m, "discard", 1) == ["Upgrade"]
    assert labels(m, "discard", 0) == ["Hideout"]
    # a minion's ability is not an action
    m = position(hands=([], ["Collector"]), field=[("Gremlin", 0, OASIS)], attached=[("Hideout", 0, OASIS)],
                 factions="tricksters+robots,aliens+dinosaurs", current=1)
    play(m, f"play Collector on {OASIS}", "Gremlin (P1) on Jungle Oasis")
    assert labels(m, "hand", 0) == ["Gremlin"] and labels(m, "attached") == ["Hideout"]


def test_mark_of_sleep_no_actions_in_the_chosen_players_next_turn():
    m = position(hands=(["Mark of Sleep"], ["Mystic Studies", "Chronomage"]))
    play(m, "act Mark of Sleep")
    assert options(m) == ["P1", "P2"]
    play(m, "P2")
    end_turn(m)
    assert var(m, "asleep", 1) and not any(a.startswith("act ") for a in legal(m))
    play(m, f"play Chronomage on {OASIS}")                # its extra action cannot be played either
    assert not any(a.startswith("act ") for a in legal(m))
    end_turn(m)
    end_turn(m)                                          # their turn after: actions again
    assert not var(m, "asleep", 1) and any(a.startswith("act ") for a in legal(m))


def test_pay_the_piper_another_player_playing_a_minion_here_discards_a_card():
    m = position(hands=([], ["Walker", "Mystic Studies", "Summon"]), attached=[("Pay the Piper", 0, OASIS)],
                 decks=([], ["Grave Digger"]), current=1)
    play(m, f"play Walker on {OASIS}")
    assert m.question["prompt"].startswith("Walker")    # Walker's own on-play ability first
    play(m, "no")
    assert m.question["chooser"] == 1 and options(m) == ["Mystic Studies", "Summon"]
    play(m, "Summon")
    assert "Summon" in labels(m, "discard", 1) and "Mystic Studies" in labels(m, "hand", 1)


def test_take_the_shinies_each_other_player_discards_two_random_cards():
    m = position(hands=(["Take the Shinies", "Gnome"], ["Walker", "Summon", "Mystic Studies"]))
    play(m, "act Take the Shinies")
    assert len(labels(m, "hand", 1)) == 1 and len(labels(m, "discard", 1)) == 2
    assert labels(m, "hand", 0) == ["Gnome"]


def test_the_ir_says_how_an_events_arguments_read_and_is_checked():
    """`event_shows`: how two triggers of one card are told apart (above); a hand-made IR with a
    wrong entry is refused in one line, not used."""
    import json
    from rulelang.core.errors import RuleError
    ir = json.loads(json.dumps(game.ir))
    assert ir["event_shows"]["played"] == ["comp", "comp"] and ir["event_shows"]["discarded"] == ["comp", "player"]
    rulelang.Game(json.loads(json.dumps(ir)))
    for bad in ({"played": ["comp"]}, {"played": ["comp", "code"]}, {"nothing": ["comp"]}, ["comp"]):
        wrong = dict(ir, event_shows=bad)
        with pytest.raises(RuleError) as err:
            rulelang.Game(wrong)
        assert "event_shows" in str(err.value) and "Traceback" not in str(err.value)


def test_microbot_guard_destroying_itself_says_it_was_its_own_ability():
    """An audit: the Guard, the only minion here of power below the 2 minions P1 has, destroys itself,
    unasked (mandatory, one target), and the log read `… is destroyed` with no cause, as no other line."""
    m = position(hands=(["Microbot Guard"], []), field=[("Zapbot", 0, OASIS), ("Walker", 1, OASIS)])
    play(m, f"play Microbot Guard on {OASIS}")
    assert m.question is None and labels(m, "discard", 0) == ["Microbot Guard"]
    said = [x for x in m.messages_for(0) if "Microbot Guard" in x and "destroyed" in x]
    assert said == [f"Microbot Guard (P1) on {OASIS} is destroyed (its own ability)"], m.messages_for(0)[-5:]
