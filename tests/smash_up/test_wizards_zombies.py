"""Smash Up: the Wizards and Zombies card abilities (games/smash_up/wizards.rules, zombies.rules),
each played from an exact position built from a real match's state."""
from __future__ import annotations


import rulelang
from shipped import shipped
from opening import kept  # noqa: E402

FACTIONS = {"factions": "wizards+zombies,robots+tricksters"}
BASES = ("Jungle Oasis", "The Great Library", "Evans City Cemetery")   # (no ability during a turn)


game = shipped("smash_up")


def position(hands=((), ()), decks=((), ()), discards=((), ()), field=(), attached=(), bases=BASES,
             aside=False, seed=1, factions=FACTIONS, **values):
    """P1's turn, play step. hands/decks/discards: card names per player (decks top first);
    field/attached: (name, owner, base). Each player's other cards go under their deck, or out
    of the game with aside=True (parked in the base discard pile, which nothing reads during a
    turn). values: var name -> per-player list."""
    m = kept(game.new_match(2, seed=seed, options=factions))
    st = m.state()
    assert st["step"] == "play" and st["current"] == 0 and "pending" not in st
    comps = st["components"]
    free = {i for i, c in enumerate(comps)}

    def take(name, owner=None):
        for i in sorted(free):
            c = comps[i]
            if c["label"] == name and (owner is None or c["fields"].get("owner") == owner):
                free.discard(i)
                return i
        raise AssertionError(f"no free {name} of P{owner}")

    z = st["zones"]
    for p in range(2):
        z["hand"][p] = [take(n, p) for n in hands[p]]
        z["discard"][p] = [take(n, p) for n in discards[p]]
        top_first = [take(n, p) for n in decks[p]]
        z["deck"][p] = list(reversed(top_first))
    z["bases"] = [take(b) for b in bases]
    z["field"], z["attached"] = [], []
    for name, owner, base in field:
        c = take(name, owner)
        z["field"].append(c)
        st["vars"]["at"][c] = z["bases"][bases.index(base)]
    for name, owner, base in attached:
        c = take(name, owner)
        z["attached"].append(c)
        st["vars"]["on_base"][c] = z["bases"][bases.index(base)]
    z["base_deck"] = [i for i in sorted(free) if comps[i]["kind"] == "Base"]
    z["base_discard"], z["resolving"] = [], []
    for i in sorted(free - set(z["base_deck"])):
        p = comps[i]["fields"]["owner"]
        if aside:
            z["base_discard"].append(i)
        else:
            z["deck"][p].insert(0, i)
    for name, value in values.items():
        st["vars"][name] = value
    return rulelang.Match.from_state(game, st)


def labels(m, zone, p=None):
    st = m.state()
    items = st["zones"][zone] if p is None else st["zones"][zone][p]
    return [st["components"][i]["label"] for i in items]


def top_down(m, p):
    return list(reversed(labels(m, "deck", p)))


def var(m, name, p):
    return m.state()["vars"][name][p]


def options(m):
    return sorted(a.text for a in m.legal_actions())


def play(m, *texts):
    for t in texts:
        assert t in options(m), f"{t!r} not in {options(m)}"
        m.apply(t)


def end_turn(m):
    """The current player ends the play phase (nothing scores in these positions)."""
    play(m, "done")
    assert m.question is None


# ==== Wizards ======================================================================================
# -- on play (minions) --
def test_enchantress_draws_a_card():
    m = position(hands=(["Enchantress"], []), decks=(["Summon", "Walker"], []))
    play(m, "play Enchantress on Jungle Oasis")
    assert labels(m, "hand", 0) == ["Summon"] and top_down(m, 0)[0] == "Walker"


def test_chronomage_gives_an_extra_action_this_turn():
    m = position(hands=(["Chronomage", "Mystic Studies", "Summon"], []), decks=(["Walker"] * 2, []))
    play(m, "play Chronomage on Jungle Oasis")
    assert var(m, "action_plays", 0) == 2
    play(m, "act Summon", "act Mystic Studies")
    assert var(m, "action_plays", 0) == 0 and sorted(labels(m, "hand", 0)) == ["Walker", "Walker"]


def test_neophyte_plays_a_revealed_action_as_an_extra_action():
    m = position(hands=(["Neophyte"], []), decks=(["Mystic Studies", "Walker", "Scry"], []))
    play(m, "play Neophyte on Jungle Oasis")
    assert m.question["prompt"] == "Neophyte: play Mystic Studies as an extra action? (no: put it in your hand)"
    play(m, "yes")
    assert sorted(labels(m, "hand", 0)) == ["Scry", "Walker"]
    assert labels(m, "discard", 0) == ["Mystic Studies"] and var(m, "action_plays", 0) == 1


def test_a_revealed_action_played_by_neophyte_is_named_where_it_is_played():
    """A first hour: Neophyte's revealed action asked "Neophyte: on which base" and showed
    Neophyte's text. A card everyone has seen is named in the question ("… to play Overrun"); one
    from a hand is not (every player reads the question before it is played)."""
    m = position(hands=(["Neophyte"], []), decks=(["Overrun", "Walker"], []), factions={"factions": "zombies+wizards,ninjas+pirates"})
    play(m, "play Neophyte on Jungle Oasis", "yes")
    assert m.question["prompt"] == "on which base to play Overrun"
    m = position(hands=(["Overrun"], []), factions={"factions": "zombies+wizards,ninjas+pirates"})
    data = m.state()
    held = next(c for c in data["zones"]["hand"][0] if data["components"][c]["label"] == "Overrun")
    assert m.game.code.defs["playing_prompt"](m, "on which base", held, False) == "on which base"


def test_neophyte_puts_a_revealed_action_in_hand_shown_to_everyone():
    m = position(hands=(["Neophyte"], []), decks=(["Summon", "Walker"], []))
    play(m, "play Neophyte on Jungle Oasis", "no")
    assert labels(m, "hand", 0) == ["Summon"] and top_down(m, 0)[0] == "Walker"
    assert m.messages_for(1)[-1] == "P1 puts Summon from the top of their deck into their hand (Neophyte)"
    hand = [z for z in m.view(1)["zones"] if z["name"] == "hand" and z["owner"] == 0][0]
    assert [k["label"] for k in hand["known"]] == ["Summon"]


def test_neophyte_leaves_a_minion_on_top():
    m = position(hands=(["Neophyte"], []), decks=(["Walker", "Summon"], []))
    play(m, "play Neophyte on Jungle Oasis")
    assert m.question is None and labels(m, "hand", 0) == [] and top_down(m, 0)[:2] == ["Walker", "Summon"]


def test_neophyte_on_an_empty_deck_reveals_from_the_reshuffled_discard():
    m = position(hands=(["Neophyte"], []), discards=(["Time Loop"], []), aside=True)
    play(m, "play Neophyte on Jungle Oasis", "no")
    assert labels(m, "hand", 0) == ["Time Loop"] and labels(m, "deck", 0) == [] and labels(m, "discard", 0) == []


# -- ongoing (minion) + start of turn --
def actions_left(m, p):
    return m.game.code.defs["actions_left"](m, p)


def test_archmage_gives_an_extra_action_the_turn_it_lands_and_each_of_its_owners_turns():
    m = position(hands=(["Archmage"], []))
    play(m, "play Archmage on Jungle Oasis")
    assert actions_left(m, 0) == 2
    end_turn(m)
    assert m.current_player == 1 and actions_left(m, 1) == 1
    end_turn(m)
    assert m.current_player == 0 and actions_left(m, 0) == 2


def test_archmage_does_not_beat_mark_of_sleep():
    m = position(field=[("Archmage", 0, "Jungle Oasis")])
    end_turn(m)
    st = m.state()
    st["vars"]["no_actions"][0] = True           # (as Mark of Sleep leaves it)
    m = rulelang.Match.from_state(game, st)
    end_turn(m)
    assert m.current_player == 0 and actions_left(m, 0) == 0


# -- actions --
def test_mystic_studies_draws_two():
    m = position(hands=(["Mystic Studies"], []), decks=(["Walker", "Scry", "Summon"], []))
    play(m, "act Mystic Studies")
    assert sorted(labels(m, "hand", 0)) == ["Scry", "Walker"] and top_down(m, 0)[0] == "Summon"


def test_summon_and_time_loop_add_plays_for_later_this_turn():
    m = position(hands=(["Summon", "Walker", "Enchantress"], []), decks=(["Scry"], []))
    play(m, "act Summon", "play Walker on Jungle Oasis", "no", "play Enchantress on Jungle Oasis")
    assert var(m, "minion_plays", 0) == 0 and len(labels(m, "field")) == 2
    m = position(hands=(["Time Loop", "Mystic Studies", "Summon"], []))
    play(m, "act Time Loop")
    assert var(m, "action_plays", 0) == 2
    play(m, "act Summon", "act Mystic Studies")
    assert var(m, "action_plays", 0) == 0


def test_portal_takes_revealed_minions_and_orders_the_rest():
    deck = ["Summon", "Walker", "Enchantress", "Scry", "Tenacious Z", "Grave Digger"]
    m = position(hands=(["Portal"], []), decks=(deck, []))
    play(m, "act Portal")
    assert options(m) == ["Enchantress", "Tenacious Z", "Walker", "done"]
    play(m, "Walker", "Tenacious Z", "done")
    assert sorted(labels(m, "hand", 0)) == ["Tenacious Z", "Walker"]
    # every minion taken is named (the screen's own change line leaves out what an answer named)
    assert m.messages_for(1)[-1] == "P1 puts Walker, Tenacious Z into their hand (Portal)"
    assert options(m) == ["Enchantress", "Scry", "Summon"]
    play(m, "Scry", "Summon")
    if m.question is not None:                            # (the last one may be placed without asking)
        play(m, "Enchantress")
    assert top_down(m, 0)[:4] == ["Scry", "Summon", "Enchantress", "Grave Digger"]
    # the order is the owner's secret: the others saw which cards went back, not in what order (a
    # first hour read P2's next draws from the answers)
    theirs, mine = m.log_for(1)[-2:], m.log_for(0)[-2:]
    assert mine == ["Scry", "Summon"] and theirs == ["(a secret choice)"] * 2, (mine, theirs)


def test_sacrifice_draws_the_minions_power_then_destroys_it():
    m = position(hands=(["Sacrifice"], []), decks=(["Walker", "Summon", "Walker", "Portal", "Scry"], []),
                 field=[("Archmage", 0, "Jungle Oasis"), ("Walker", 0, "The Great Library")])
    assert options(m) == ["act Sacrifice", "done"]
    play(m, "act Sacrifice")
    assert options(m) == ["Archmage on Jungle Oasis", "Walker on The Great Library"]
    play(m, "Archmage on Jungle Oasis")
    assert sorted(labels(m, "hand", 0)) == ["Portal", "Summon", "Walker", "Walker"] and top_down(m, 0)[0] == "Scry"
    assert sorted(labels(m, "discard", 0)) == ["Archmage", "Sacrifice"] and labels(m, "field") == ["Walker"]


def test_scry_takes_an_action_from_the_deck():
    m = position(hands=(["Scry"], []), decks=(["Walker", "Enchantress", "Time Loop", "Walker"], []), aside=True)
    play(m, "act Scry")
    # one action in the deck, and still asked: whether the others see a question must not tell
    # them how many actions the hidden deck holds (a leak trial found it asked only with two)
    assert m.question["prompt"] == "Scry: an action to take" and [a.text for a in m.legal_actions()] == ["Time Loop"]
    assert m.view(1)["choice"]["prompt"] == "Scry: an action to take"
    play(m, "Time Loop")
    assert m.question is None and labels(m, "hand", 0) == ["Time Loop"] and sorted(labels(m, "deck", 0)) == ["Enchantress", "Walker", "Walker"]


def test_scry_on_an_empty_deck_searches_the_reshuffled_discard():
    m = position(hands=(["Scry"], []), discards=(["Summon", "Walker"], []), aside=True)
    play(m, "act Scry", "Summon")
    assert labels(m, "hand", 0) == ["Summon"] and labels(m, "deck", 0) == ["Walker"]
    assert labels(m, "discard", 0) == ["Scry"]


def test_winds_of_change_reshuffles_the_hand_draws_five_and_gives_an_action():
    m = position(hands=(["Winds of Change", "Walker", "Summon"], []), decks=(["Scry", "Portal", "Enchantress"], []),
                 aside=True)
    play(m, "act Winds of Change")
    assert sorted(labels(m, "hand", 0)) == ["Enchantress", "Portal", "Scry", "Summon", "Walker"]
    assert labels(m, "deck", 0) == [] and var(m, "action_plays", 0) == 1


def test_mass_enchantment_plays_another_players_revealed_action_as_yours():
    wz = {"factions": "wizards+robots,zombies+tricksters"}
    m = position(hands=(["Mass Enchantment"], []), decks=([], ["Grave Robbing", "Walker"]),
                 discards=([], ["Not Enough Bullets"]), factions=wz)
    play(m, "act Mass Enchantment")
    assert options(m) == ["Grave Robbing (P2)", "pass"]
    play(m, "Grave Robbing (P2)")
    # resolved for P1 (who has nothing in their discard), then into its owner's discard pile
    assert labels(m, "hand", 0) == [] and labels(m, "hand", 1) == []
    assert labels(m, "discard", 1) == ["Not Enough Bullets", "Grave Robbing"]
    assert top_down(m, 1)[0] == "Walker" and var(m, "action_plays", 0) == 0


def test_an_action_mass_enchantment_played_is_its_owners_again_once_discarded():
    """A rules lawyer: P1 played P2's Full Sail through Mass Enchantment; back in P2's hand (Grave
    Robbing), its Special before a base scores was offered to P1 — who learnt P2 held it, and could
    play it from P2's hand — and not to P2. Out of play, an action has no controller but its owner."""
    wp = {"factions": "wizards+dinosaurs,pirates+zombies"}
    m = position(hands=(["Mass Enchantment"], ["Grave Robbing", "Walker"]),
                 decks=(["Howl", "Augmentation", "Summon"], ["Full Sail", "Tenacious Z", "Tenacious Z"]),
                 field=[("King Rex", 0, "Jungle Oasis"), ("Saucy Wench", 1, "Jungle Oasis")],
                 bases=("Jungle Oasis", "Tar Pits", "Tortuga"), factions=wp)
    play(m, "act Mass Enchantment", "Full Sail (P2)")
    while m.question is not None:                       # (Full Sail's moves: none)
        play(m, "pass" if "pass" in options(m) else options(m)[-1])
    end_turn(m)
    assert m.current_player == 1 and labels(m, "discard", 1)[-1] == "Full Sail"
    play(m, "act Grave Robbing")
    if m.question is not None:
        play(m, "Full Sail")
    assert labels(m, "hand", 1) == ["Walker", "Full Sail"]
    play(m, "play Walker on Jungle Oasis", "no", "done")             # Jungle Oasis: 12 of 12
    offered = {}
    while m.question is not None:
        chooser, texts = m.question["chooser"], options(m)
        offered.setdefault(chooser, set()).update(texts)
        m.apply("pass" if "pass" in texts else texts[0])
    assert "Full Sail" in offered.get(1, set()) and "Full Sail" not in offered.get(0, set()), offered


def test_mass_enchantment_leaves_a_revealed_minion_on_top():
    m = position(hands=(["Mass Enchantment"], []), decks=([], ["Zapbot", "Disenchant"]))
    play(m, "act Mass Enchantment")
    assert m.question is None and top_down(m, 1)[:2] == ["Zapbot", "Disenchant"]
    deck = [z for z in m.view(0)["zones"] if z["name"] == "deck" and z["owner"] == 1][0]
    assert [k["label"] for k in deck["known"]] == ["Zapbot"]


# ==== Zombies ======================================================================================
# -- on play (minions) --
def test_walker_discards_the_top_card_or_leaves_it():
    m = position(hands=(["Walker", "Summon"], []), decks=(["Scry", "Portal"], []))
    play(m, "play Walker on Jungle Oasis")
    assert m.question["prompt"] == "Walker: discard your top card? (no: it stays on top)"
    known = lambda p: [k["label"] for z in m.view(p)["zones"] if z["name"] == "deck" and z["owner"] == 0
                       for k in z.get("known") or []]
    assert known(0) == ["Scry"] and known(1) == []
    # (the card beside the question for its owner alone: a first hour found it only under `table`)
    assert m.view(0)["choice"]["asker"]["label"] == "Scry" and "asker" not in m.view(1)["choice"]
    play(m, "yes")
    assert labels(m, "discard", 0) == ["Scry"] and top_down(m, 0)[0] == "Portal"
    assert m.messages_for(1)[-1] == "P1 discards Scry from the top of their deck (Walker)"
    m = position(hands=(["Walker"], []), decks=(["Scry", "Portal"], []))
    play(m, "play Walker on Jungle Oasis", "no")
    assert labels(m, "discard", 0) == [] and top_down(m, 0)[:2] == ["Scry", "Portal"]


def test_grave_digger_returns_a_minion_from_the_discard():
    m = position(hands=(["Grave Digger"], []), discards=(["Summon", "Walker", "Zombie Lord"], []))
    play(m, "play Grave Digger on Jungle Oasis")
    assert options(m) == ["Walker", "Zombie Lord", "pass"]
    play(m, "Zombie Lord")
    assert labels(m, "hand", 0) == ["Zombie Lord"] and labels(m, "discard", 0) == ["Summon", "Walker"]


def test_zombie_lord_fills_each_base_without_your_minions_from_the_discard():
    m = position(hands=(["Zombie Lord"], []), discards=(["Walker", "Tenacious Z", "Grave Digger", "Summon"], []),
                 field=[("Zapbot", 1, "The Great Library")])
    play(m, "play Zombie Lord on Jungle Oasis")
    assert options(m) == ["Evans City Cemetery", "The Great Library", "pass"]
    play(m, "The Great Library")
    assert options(m) == ["Tenacious Z", "Walker", "pass"]          # power 2 or less
    play(m, "Walker", "no")                                          # (Walker's own on-play)
    assert options(m) == ["Evans City Cemetery", "pass"]
    play(m, "Evans City Cemetery", "Tenacious Z")
    assert m.question is None and var(m, "minion_plays", 0) == 0
    at = {labels(m, "field")[i]: m.state()["components"][m.state()["vars"]["at"][c]]["label"]
          for i, c in enumerate(m.state()["zones"]["field"])}
    assert at == {"Zapbot": "The Great Library", "Zombie Lord": "Jungle Oasis", "Walker": "The Great Library",
                  "Tenacious Z": "Evans City Cemetery"}
    assert labels(m, "discard", 0) == ["Grave Digger", "Summon"]


# -- special from the discard pile (digest scenario 9) --
def test_scenario_9_tenacious_z_plays_itself_from_the_discard_once_a_turn():
    m = position(discards=(["Tenacious Z", "Tenacious Z"], []), hands=(["Walker"], []))
    assert "use Tenacious Z" in options(m)
    play(m, "use Tenacious Z", "The Great Library")
    assert labels(m, "field") == ["Tenacious Z"] and labels(m, "discard", 0) == ["Tenacious Z"]
    assert var(m, "minion_plays", 0) == 1 and var(m, "minions_played", 0) == 1     # an extra minion, played
    assert "use Tenacious Z" not in options(m)                                    # one per turn
    end_turn(m)
    assert "use Tenacious Z" not in options(m)                                    # not on P2's turn
    end_turn(m)
    assert "use Tenacious Z" in options(m)


# -- actions --
def test_grave_robbing_takes_any_card_from_the_discard():
    m = position(hands=(["Grave Robbing"], []), discards=(["Summon", "Walker"], []))
    play(m, "act Grave Robbing", "Summon")
    assert labels(m, "hand", 0) == ["Summon"] and labels(m, "discard", 0) == ["Walker", "Grave Robbing"]


def test_lend_a_hand_shuffles_chosen_discards_into_the_deck():
    m = position(hands=(["Lend a Hand"], []), decks=(["Portal"], []), discards=(["Walker", "Summon", "Scry"], []),
                 aside=True)
    play(m, "act Lend a Hand", "Walker", "Summon", "done")
    assert sorted(labels(m, "deck", 0)) == ["Portal", "Summon", "Walker"]
    assert labels(m, "discard", 0) == ["Scry", "Lend a Hand"]


def test_mall_crawl_discards_cards_of_one_name_from_the_deck():
    m = position(hands=(["Mall Crawl"], []), decks=(["Walker", "Scry", "Walker", "Summon"], []), aside=True)
    play(m, "act Mall Crawl")
    assert options(m) == ["Scry", "Summon", "Walker", "pass"]
    play(m, "Walker")
    assert options(m) == ["Walker", "done"]             # (two Walkers: copies, one option)
    play(m, "Walker", "Walker")                          # (both taken: the choice ends)
    assert m.question is None and labels(m, "discard", 0) == ["Walker", "Walker", "Mall Crawl"]
    assert sorted(labels(m, "deck", 0)) == ["Scry", "Summon"]


def test_mall_crawl_names_its_card_in_secret():
    # searching one's own deck: the name sought is not told, only the cards put in the discard pile
    m = position(hands=(["Mall Crawl"], []), decks=(["Walker", "Scry", "Walker", "Summon"], []), aside=True)
    play(m, "act Mall Crawl", "Scry", "done")                 # names Scry, discards none of it
    assert labels(m, "discard", 0) == ["Mall Crawl"] and "Scry" in labels(m, "deck", 0)
    assert m.log_for(0)[-3:] == ["act Mall Crawl", "Scry", "done"]
    assert m.log_for(1)[-3:] == ["act Mall Crawl", "(a secret choice)", "done"]


def test_not_enough_bullets_returns_minions_of_one_name():
    m = position(hands=(["Not Enough Bullets"], []), discards=(["Walker", "Tenacious Z", "Walker", "Summon"], []))
    play(m, "act Not Enough Bullets")
    assert options(m) == ["Tenacious Z", "Walker", "pass"]
    play(m, "Walker", "Walker", "done")                  # one of the two
    assert m.question is None and labels(m, "hand", 0) == ["Walker"]
    assert "P1 puts Walker from their discard pile into their hand" in m.messages_for(1)
    assert labels(m, "discard", 0) == ["Tenacious Z", "Walker", "Summon", "Not Enough Bullets"]


def test_outbreak_plays_an_extra_minion_where_you_have_none():
    m = position(hands=(["Outbreak", "Walker"], []), field=[("Enchantress", 0, "Jungle Oasis")])
    play(m, "act Outbreak")                   # kept for later in the play phase (issue 27)
    assert m.question is None and m.state()["vars"]["extra_empty"] == 1
    play(m, "play Walker on The Great Library", "an extra minion where you have none", "no")
    assert var(m, "minion_plays", 0) == 1 and labels(m, "hand", 0) == []


def test_they_keep_coming_plays_an_extra_minion_from_the_discard():
    m = position(hands=(["They Keep Coming"], []), discards=(["Zombie Lord", "Summon"], []))
    play(m, "act They Keep Coming")           # kept for later in the play phase (issue 27)
    assert options(m) == ["done"] + [f"play Zombie Lord from the discard pile on {b}"
                                     for b in ("Evans City Cemetery", "Jungle Oasis", "The Great Library")]
    play(m, "play Zombie Lord from the discard pile on Jungle Oasis")   # (its own on-play: nothing left)
    assert m.question is None and labels(m, "field") == ["Zombie Lord"] and var(m, "minion_plays", 0) == 1


# -- ongoing (on a base) + start of turn --
def test_overrun_stops_other_players_minions_until_its_owners_next_turn():
    m = position(hands=(["Overrun", "Walker"], ["Zapbot"]))
    play(m, "place Overrun on Jungle Oasis")
    assert "play Walker on Jungle Oasis" in options(m)                  # its owner still may
    end_turn(m)
    assert "play Zapbot on Jungle Oasis" not in options(m) and "play Zapbot on The Great Library" in options(m)
    end_turn(m)
    assert labels(m, "attached") == [] and "Overrun" in labels(m, "discard", 0)


def test_theyre_coming_to_get_you_plays_minions_from_the_discard_onto_its_base():
    m = position(hands=(["They're Coming to Get You", "Enchantress"], ["Zapbot"]),
                 decks=(["Summon", "Scry", "Portal", "Mystic Studies"], []), discards=(["Walker", "Zombie Lord"], []))
    play(m, "place They're Coming to Get You on Jungle Oasis")
    # the turn's minion play may come from the discard pile, onto its base only
    assert m.question is None
    assert options(m) == ["done"] + [f"play Enchantress on {b}" for b in
                                     ("Evans City Cemetery", "Jungle Oasis", "The Great Library")] + [
        "play Walker from the discard pile on Jungle Oasis", "play Zombie Lord from the discard pile on Jungle Oasis"]
    play(m, "play Walker from the discard pile on Jungle Oasis", "no")      # (Walker's own on-play)
    assert labels(m, "field") == ["Walker"] and labels(m, "discard", 0) == ["Zombie Lord"]
    assert var(m, "minion_plays", 0) == 0 and var(m, "minions_played", 0) == 1
    assert options(m) == ["done"]                             # no minion play left: Enchantress waits
    end_turn(m)
    play(m, "play Zapbot on Jungle Oasis")                       # not P2's card: nothing from P1's discard
    assert not any("discard pile" in a for a in options(m))


def test_theyre_coming_to_get_you_on_its_owners_next_turn():
    m = position(hands=([], []), discards=(["Walker", "Zombie Lord"], []),
                 attached=[("They're Coming to Get You", 0, "Jungle Oasis")])
    end_turn(m)
    play(m, "done")                                           # P2 ends; P1's turn starts
    assert m.current_player == 0 and m.question is None
    play(m, "play Zombie Lord from the discard pile on Jungle Oasis")
    # Zombie Lord's on-play: the two bases without P1's minions, Walker (power 2) from the discard
    assert options(m) == ["Evans City Cemetery", "The Great Library", "pass"]
    play(m, "The Great Library", "Walker", "no")            # (Walker's own on-play)
    assert m.question is None and var(m, "minion_plays", 0) == 0 and labels(m, "discard", 0) == []
    assert sorted(labels(m, "field")) == ["Walker", "Zombie Lord"]


def test_portal_on_an_empty_deck_reveals_the_reshuffled_discard():
    m = position(hands=(["Portal"], []), discards=(["Walker", "Summon"], []), aside=True)
    play(m, "act Portal", "Walker")                       # (then all minions taken: the choice ends)
    assert labels(m, "hand", 0) == ["Walker"] and labels(m, "deck", 0) == ["Summon"]
    assert labels(m, "discard", 0) == ["Portal"]


def test_mass_enchantment_refills_an_empty_deck_from_the_discard():
    wz = {"factions": "wizards+robots,zombies+tricksters"}
    m = position(hands=(["Mass Enchantment"], []), discards=(["Enchantress"], ["Grave Robbing"]), aside=True, factions=wz)
    play(m, "act Mass Enchantment", "Grave Robbing (P2)")
    assert labels(m, "hand", 0) == ["Enchantress"] and labels(m, "discard", 0) == ["Mass Enchantment"]
    assert labels(m, "discard", 1) == ["Grave Robbing"] and labels(m, "deck", 1) == []


def test_theyre_coming_to_get_you_any_moment_of_the_play_phase():
    """Issue 27: not only at the start of the turn or after a play: whenever a minion play is left."""
    m = position(hands=(["They're Coming to Get You", "Summon"], []), discards=(["Walker", "Zombie Lord"], []),
                 action_plays=[2, 0])
    play(m, "place They're Coming to Get You on Jungle Oasis", "act Summon")
    assert var(m, "minion_plays", 0) == 2
    play(m, "play Walker from the discard pile on Jungle Oasis", "no")
    assert var(m, "minion_plays", 0) == 1
    play(m, "play Zombie Lord from the discard pile on Jungle Oasis")
    assert m.question is None and labels(m, "discard", 0) == ["Summon"]


def test_scenario_2_one_minion_and_one_action_a_turn_unless_an_ability_grants_more():
    """S5: at most one minion and one action a turn; Summon ("play an extra minion") grants a
    second minion play, Mystic Studies used up the action play."""
    m = position(hands=(("Walker", "Enchantress", "Summon", "Mystic Studies"), ()),
                 decks=(("Grave Digger", "Neophyte", "Walker"), ()))
    texts = lambda: [a.text for a in m.legal_actions()]
    m.apply("play Walker on Jungle Oasis")
    while m.question is not None:                 # (Walker: keep or discard the top card)
        m.apply(m.legal_actions()[0])
    assert not any(t.startswith("play ") for t in texts())          # no second minion play
    assert "act Summon" in texts() and "act Mystic Studies" in texts()
    m.apply("act Summon")                                          # the one action play: +1 minion
    assert "play Enchantress on Jungle Oasis" in texts()
    assert not any(t.startswith("act ") for t in texts())          # no second action play
    m.apply("play Enchantress on Jungle Oasis")
    assert not any(t.startswith("play ") for t in texts())


def test_portal_with_a_short_deck_goes_on_into_the_reshuffled_discard():
    """Portal reveals five: a deck of two is followed by the discard pile, shuffled (the rulings'
    Decks); before, only the two were revealed and the discard's minions could not be taken."""
    m = position(hands=(["Portal"], []), decks=(["Summon", "Scry"], []),
                 discards=(["Walker", "Enchantress", "Grave Digger"], []), aside=True)
    play(m, "act Portal")
    assert options(m) == ["Enchantress", "Grave Digger", "Walker", "done"]
    assert labels(m, "discard", 0) == []
    play(m, "Walker", "done")
    assert labels(m, "hand", 0) == ["Walker"]
    assert m.question["prompt"] == "Portal: order the rest, from the top down"
    assert sorted(m.question["options"]) == ["Enchantress", "Grave Digger", "Scry", "Summon"]
    play(m, "Scry", "Summon", "Enchantress")                # (the last one is placed without asking)
    assert top_down(m, 0) == ["Scry", "Summon", "Enchantress", "Grave Digger"]


def test_a_card_played_from_a_hand_that_draws_on_play_is_told_with_the_draw():
    """A first hour at the terminal: the bot's Enchantress (on play: draw a card) left its hand's
    size as it was, so the screen took it for a card from the deck, and the draw went unsaid."""
    from rulelang.play.render import seat_name
    from rulelang.play.screen import changes
    m = position(hands=(["Enchantress", "Walker", "Summon"], []), decks=(["Scry", "Portal", "Summon"], []))
    before = m.view(1)
    m.apply("play Enchantress on Jungle Oasis")
    lines = changes(before, m.view(1), "\n".join(m.messages_for(1)[-1:]), seat_name,
                    acted="play Enchantress on Jungle Oasis")
    assert "1 card: deck (P1) → hand (P1)" in lines, lines
