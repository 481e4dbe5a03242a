"""Determinized copies and chance as data, as a researcher's search and replay use them
(docs/engine.md, "Fair copies" and "Chance as data"), on positions found by an API trial."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang

ROOT = Path(__file__).resolve().parent.parent


def load(name: str) -> rulelang.Game:
    return rulelang.load(str(ROOT / "games" / f"{name}.rules"))


def _discarding_down_to_10(seed: int):
    """A 3-player Smash Up played at random until a player discards down to 10 (a subset of a
    hidden hand, picked a card at a time); None if it never comes."""
    m = load("smash_up").new_match(players=3, seed=seed)
    rng = random.Random(1000 + seed)
    while not m.is_over and len(m.log) < 600:
        q = m.question
        if q is not None and q["prompt"].startswith("discard down to 10: "):
            return m
        m.apply(rng.choice(m.legal_actions()))
    return None


def test_a_copy_for_another_seat_of_a_paused_subset_choice_answers_in_its_own_world():
    """Smash Up, a player discarding down to 10 (a subset picked one card at a time), copied for
    another seat: the answers after the copy's cut name cards by their place; the pick being built
    moves with them. It failed with an EngineFault (list.remove(x): x not in list)."""
    found = [m for m in map(_discarding_down_to_10, range(1, 12)) if m is not None][:3]
    assert found
    for m in found:
        chooser = m.current_player
        for seat in (s for s in range(3) if s != chooser):
            for seed in range(8):
                for action in m.determinized(seat, seed).legal_actions():
                    copy = m.determinized(seat, seed)
                    copy.apply(action)               # (no EngineFault)
                    assert copy.is_over or copy.legal_actions()


def test_a_copy_whose_player_to_act_would_be_stuck_in_its_world_is_dealt_again():
    """Regicide: a hand dealt anew that cannot pay the damage, where the real one can, was once
    settled as `on stuck` says, the copy over; but the seat sees the game go on, so the player to
    act has a move: such a world is dealt again (a researcher's trial, below). Never a copy with no
    legal action and not over."""
    m = load("regicide").new_match(players=4, seed=43)
    m.apply(random.Random(1043).choice(m.legal_actions()))
    assert not m.is_over and m.legal_actions()
    for seed in range(300):
        for p in range(4):
            copy = m.determinized(p, seed)
            assert not copy.is_over and copy.legal_actions(), (p, seed)


def test_each_applys_chance_events_replay_a_game_on_another_seed():
    """What each `apply` drew — an action, or an answer going on with its effect — supplied before
    that same apply on a match of another seed gives the same game. An answer reported its
    action's draws again, and the replay failed or went another way."""
    for name, players, seed in (("shadow_hunters", 4, 0), ("dozen_war", 2, 0), ("smash_up", 2, 1)):
        game = load(name)
        m = game.new_match(players=players, seed=seed)
        rng = random.Random(seed)
        played = [(None, m.chance_events)]
        while not m.is_over and len(played) < 150:
            text = str(rng.choice(m.legal_actions()))
            m.apply(text)
            played.append((text, m.chance_events))
        again = game.new_match(players=players, seed=seed + 999, chance=played[0][1])
        for text, drawn in played[1:]:
            if drawn:
                again.supply_chance(drawn)
            again.apply(text)
            assert again.chance_events == drawn, (name, text)
        assert [again.view(p) for p in range(players)] == [m.view(p) for p in range(players)], name


SECRET = """
game "Secret" {
  players 2
  kind Chip { v: int  label text(v) }
  zone hand: set per player, owner
  zone box: pile, hidden
  setup { for v in 1..4 { create Chip(v: v) in hand[0] }  create Chip(v: 9) in hand[1] }
  turn { step s {
    action hide { choose c in hand[me] prompt "hide which" { move c to box  log "you hid " + text(c) to me }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_copy_keeps_nothing_its_seat_may_not_know_of_the_past():
    import rulelang
    m = rulelang.Game(rulelang.compile_source(SECRET, "secret.rules")).new_match(2, seed=3)
    m.apply("hide")
    m.apply("3")
    assert m.log == ["hide", "3"] and m.messages_for(0)[-1] == "you hid 3" and m.chance_events == []
    copy = m.determinized(1, 5)
    assert copy.log == ["hide", "(a secret choice)"] and copy.log == m.log_for(1)
    assert all("you hid" not in x["text"] for x in copy.message_log())
    assert copy.seed is None and copy.chance_events == []
    own = m.determinized(0, 5)              # P1's own copy keeps what P1 knows
    assert own.log == ["hide", "3"] and own.messages_for(0)[-1] == "you hid 3"
    from positions import GAME as REGICIDE
    dealt = REGICIDE.new_match(2, seed=999)
    assert dealt.chance_events and dealt.determinized(0, 1).chance_events == []   # (the set-up's shuffles)


ORIGINS = """game "Origin" {
  players 2
  kind Card { v: int  label text(v) }
  zone pool: pile, public, top
  zone box: pile, hidden
  zone deck: pile per player, hidden
  setup {
    for i in 1..4 { create Card(v: 0) in pool }
    for i in 1..2 { create Card(v: 1) in box }
    for p in players { move top(pool) to deck[p]  move top(box) to deck[p] }
  }
  turn { step s { action pass { finish draw } } }
}"""


def test_a_copy_deals_no_card_where_no_rule_can_bring_it():
    """Both decks take a card of the public pile and one of the hidden box: the two groups meet in
    the decks, and a copy dealt a box card under the pile's top, where no rule moves one (a new
    author's deck-builder got Estates in its Copper pile). Cards of the pile still change places
    with the other deck's and the pile's unseen ones."""
    m = rulelang.Game(rulelang.compile_source(ORIGINS, "origin.rules")).new_match(2, seed=0)
    box = {c for c, label in enumerate(m.labels) if label == "1"}
    pool_slot = [z["name"] for z in m.game.zones].index("pool")
    deck_slot = [z["name"] for z in m.game.zones].index("deck")
    moved = False
    for seed in range(60):
        d = m.determinized(0, seed)
        assert not box & set(d.Z[pool_slot][:-1]), seed
        moved |= d.Z[deck_slot][1] != m.Z[deck_slot][1]
    assert moved


def test_a_deep_copy_of_a_match_is_a_clone():
    """An API trial: `copy.deepcopy` of a match copied it field by field, losing what was revealed
    to whom (keyed by the zone lists' identity): the copy's views differed, and a paused Dozen War
    chain could not be copied at all (a greenlet). Now it is `clone()`."""
    import copy
    import json
    for name, players, seed in (("smash_up", 2, 4), ("shadow_hunters", 4, 4), ("dozen_war", 2, 2)):
        game = load(name)
        m = game.new_match(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            if m.is_over:
                break
            c = copy.deepcopy(m)
            assert c.game is m.game
            for p in range(players):
                assert json.dumps(c.view(p), sort_keys=True) == json.dumps(m.view(p), sort_keys=True), (name, p)
            action = rng.choice(m.legal_actions())
            c.apply(str(action))
            m.apply(action)
            assert c.state() == m.state()


CROSS = """game "Cross" {
  players 2
  kind Card { tag: text  label tag }
  zone supply: pile, public
  zone pa: pile, hidden
  zone pb: pile, hidden
  setup {
    for i in 1..20 { create Card(tag: "a") in pa  create Card(tag: "b") in pb }
    for i in 1..2 { create Card(tag: "s") in supply }
  }
  turn { step s {
    action toa require size(supply) > 0 { move top(supply) to pa  end turn }
    action tob require size(supply) > 0 { move top(supply) to pb  end turn }
    action done { finish draw }
  } }
}"""


def test_a_copy_finds_a_deal_where_a_random_one_would_fail():
    """A fuzz finding: two hidden piles joined by a supply card put into each; dealing each place a
    random fitting card left none for a place in ~90 % of tries, and after 8 tries the plain
    shuffle put `b` cards in `pa` (91 of 200 copies). The deal now moves cards along to make room
    (augmenting paths), so one is always found."""
    m = rulelang.Game(rulelang.compile_source(CROSS, "cross.rules")).new_match(2, seed=1)
    m.apply("toa")
    m.apply("tob")
    slots = {z["name"]: i for i, z in enumerate(m.game.zones)}
    seen = set()
    for seed in range(100):
        c = m.determinized(0, seed)
        pa = [c.labels[x] for x in c.Z[slots["pa"]]]
        pb = [c.labels[x] for x in c.Z[slots["pb"]]]
        assert "b" not in pa and "a" not in pb, seed
        seen.add(pa.index("s"))
    assert len(seen) > 5                          # (the supply card is imagined anywhere in its pile)


def test_no_imagined_world_is_one_where_a_when_rule_would_already_hold():
    """A first-hour trial: undo after Shadow Hunters' `begin` was refused ("what happened told P3
    about what was hidden from them"): P3's imagined deal could hold no Shadow at all, where the
    Hunters have won before anyone moves. A seat sees the game going on: such a world is dealt again."""
    from rulelang.play.repl import hidden_outcome
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "shadow_hunters.rules"))
    checks = game.checks
    for seed in range(6):
        m = game.new_match(4, seed)
        for seat in range(4):
            sample = m.sampler(seat)
            for k in range(12):
                world = sample(k)
                world.me = world.current
                assert not any(when(world) for when, _ in checks), (seed, seat, k)
    m = game.new_match(4, 1)
    base = m.clone()
    m.apply("begin")
    assert hidden_outcome(base, "begin", m, [0, 1, 2, 3]) is None


FLAGGED = """game "Flagged" {
  players 2
  kind Card { value: int  label "card " + text(value) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  var flag: bool = false, public
  when any(c.value >= 15 for c in hand[0]) { flag = true }
  setup {
    for v in 1..20 { create Card(value: v) in deck }
    shuffle deck
    for p in players { repeat 3 { move top(deck) to hand[p] } }
  }
  turn limit 10 { finish draw }
  turn { step main { action play(c in hand[me]) as "play " + text(c) { move c to table  end turn } } }
}"""


def test_a_when_rule_that_holds_without_ending_the_game_does_not_bend_the_worlds():
    """A review: a `when` whose body leaves its condition true (a public flag set by P1's hidden
    high card) made every world where it held be dealt again — 5 in 300 imagined worlds gave P1 a
    high card, where the flag says P1 has one. Only a world where the game would end is dealt again."""
    game = rulelang.Game(rulelang.compile_source(FLAGGED, "flagged.rules"))
    m = game.new_match(2, 1)
    assert m.state()["vars"]["flag"] is True
    sample = m.sampler(1)
    high = sum(any(int(a.text.split()[-1]) >= 15 for a in sample(k).legal_actions()) for k in range(200))
    assert high > 100


def test_a_restored_match_whose_setup_waited_for_a_draft_knows_where_its_cards_were_made():
    """A leak scan: Smash Up with `factions=draft` stops in its setup for the draft before any card
    is made. A match restored from its state (the server's bot worker does so before each search
    move) worked out where its cards were made by setting up a fresh match — which stopped at the
    draft and made none — so a search bot's imagined worlds dealt each hidden hand back to itself:
    P1's copies gave P2 its real hand 100 times in 100. The fresh match now takes the setup's
    answers from the log."""
    game = load("smash_up")
    m = game.new_match(2, seed=4, options={"factions": "draft"})
    rng = random.Random(4)
    while m.pending is not None or m.current_player != 0 or not m.state()["zones"]["hand"][1]:
        m.apply(rng.choice(m.legal_actions()))
    restored = rulelang.Match.from_state(game, m.state())
    assert restored.origins() == m.origins() and None not in m.origins()
    real = sorted(m.state()["zones"]["hand"][1])
    same = sum(sorted(restored.determinized(0, seed).state()["zones"]["hand"][1]) == real for seed in range(20))
    assert same < 5, same


HANDS = """
game "Hands" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  setup { for i in 1..20 { create Card(n: i) in deck }  shuffle deck
          for p in players { repeat 5 { move top(deck) to hand[p] } } }
  turn { step s { action draw require size(deck) > 0 { move top(deck) to hand[me]  end turn } } }
  turn limit 10 { finish draw }
}
"""


def test_a_restored_copy_deals_a_hidden_hand_among_the_cards_it_may_have_come_from():
    """A new author's Gin: a search copy keeps no seed (it would tell the deal), so once its state is
    saved and restored (OpenSpiel's serialise, a pickled copy) nobody knew where its cards were made,
    and a copy of it for the other seat dealt each hidden hand back to itself: P1's real hand 20
    times in 20. Cards of unknown origin are now pooled with those of the zones the rules move
    them between (the deck and the hands)."""
    game = rulelang.Game(rulelang.compile_source(HANDS, "hands.rules"))
    m = game.new_match(2, seed=3)
    labels = [c["label"] for c in m.state()["components"]]
    real = sorted(labels[c] for c in m.state()["zones"]["hand"][0])
    same = 0
    for seed in range(20):
        copy = rulelang.Match.from_state(game, m.determinized(0, seed).state())
        assert copy.origins() == [None] * 20
        theirs = copy.determinized(1, 100 + seed).state()
        hand = sorted(labels[c] for c in theirs["zones"]["hand"][0])
        assert len(hand) == 5 and sorted(theirs["zones"]["hand"][1]) == sorted(copy.state()["zones"]["hand"][1])
        same += hand == real
    assert same < 3, same


def test_a_deal_under_the_rules_asks_each_zone_once_per_card_and_keeps_every_card_in_a_zone_it_fits():
    """A new author's Battleship kept its placement cards one zone per player and ship (so that an
    imagined fleet has one ship of each kind): a search bot's world took 0.1 s, ~800,000 `fit`s —
    asked of every place and card. Now of every zone and card; each place still gets a card its
    zone may hold, each card once."""
    from rulelang.engine.copies import _dealt
    zones = [(0, k) for k in range(6)]
    kind_of = {c: c % 6 for c in range(600)}             # card c may lie only in zone c % 6
    where = [zones[i % 6] for i in range(600)]
    asked = [0]

    def fit(c, z):
        asked[0] += 1
        return kind_of[c] == z[1]
    cards = list(range(600))
    random.Random(1).shuffle(cards)
    out = _dealt(cards, where, fit, random.Random(2))
    assert out is not None and sorted(out) == list(range(600))
    assert all(kind_of[c] == z[1] for c, z in zip(out, where))
    assert asked[0] <= 6 * 600
    again = _dealt(cards, where, fit, random.Random(3))
    assert again != out                                   # (another seed, another deal)


TOLD = """
game "Told" {
  players 2
  enum Colour { red "R", blue "B" }
  kind Card { colour: Colour  rank: int  label text(colour) + text(rank) }
  zone deck: pile, hidden
  zone hand: pile per player, others
  var told: text = "?" per Card
  show "Your cards" = [text(told[c]) for c in hand[me]], own
  setup { for c in Colour { for r in 1..4 { create Card(colour: c, rank: r) in deck } }  shuffle deck
          for p in players { move top(deck, 3) to hand[p] } }
  turn { step act {
    action tell(col in Colour) { for c in hand[next(me)] { told[c] = if c.colour == col then text(col) else "not " + text(col) }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_copy_keeps_what_a_seat_was_told_of_each_unseen_card_where_it_sees_it():
    """A new author's Hanabi: a public variable per card (what its holder was told of it) went with
    the cards a copy dealt away, so the holder's own view of the copy differed from the match's
    (668 of 814). It stays with the place: the seat's view of every copy is its view of the match."""
    game = rulelang.Game(rulelang.compile_source(TOLD, "told.rules"))
    for seed in range(4):
        m = game.new_match(2, seed)
        m.apply("tell R")
        real = m.view(1)
        assert any(v["value"] != ["?", "?", "?"] for v in real["values"] if v["name"] == "Your cards")
        for s in range(6):
            copy = m.determinized(1, s)
            assert copy.view(1)["values"] == real["values"], (seed, s)
            assert copy.view(1)["zones"] == real["zones"]


MARKED = """
game "Marked" {
  players 2
  kind Card { rank: int  label "card " + text(rank) }
  zone deck: pile, hidden
  zone table: pile, public
  var marked: bool = false per Card, public
  setup { for r in 1..6 { create Card(rank: r) in table }  marked[top(table)] = true  move table to deck  shuffle deck }
  turn { step go { action guess(n in 1..6) { finish draw } } }
}
"""


def test_a_card_publicly_marked_and_shuffled_into_a_deck_lies_anywhere_in_a_copy():
    """A leak scan: with public per-card values kept at their places, a copy kept the marked
    card's mark at its real depth in a shuffled deck, and a greedy bot found it every game. Only in
    a seat's own `others` zone do such values stay with the place; here they go with the card."""
    game = rulelang.Game(rulelang.compile_source(MARKED, "marked.rules"))
    m = game.new_match(2, 3)
    marked = game.ir["vars"].index(next(v for v in game.ir["vars"] if v["name"] == "marked"))
    depth = lambda x: next(i for i, c in enumerate(reversed(x.Z[0])) if x.V[marked][c])     # noqa: E731
    real = depth(m)
    at_real = sum(depth(m.determinized(0, s)) == real for s in range(60))
    assert at_real < 25, at_real                       # (1 in 6 by chance: about 10)


STALE = """
game "Stale" {
  players 2
  kind Card { n: int  label "card " + text(n) }
  zone deck: pile, hidden
  zone hand: pile per player, others
  var told: bool = false per Card, public
  setup {
    for i in 1..6 { create Card(n: i) in deck }
    shuffle deck
    move top(deck) to hand[0]
    move top(deck) to hand[1]
    for c in hand[0] { told[c] = true }
  }
  turn { step act { action pass { end turn }  action stop { finish draw } } }
}
"""


def test_a_card_dealt_out_of_a_seats_own_hand_leaves_its_told_value_with_the_place():
    """A new author's trial: the value stayed with P1's hand slot in a copy, but the card really
    there kept it too, wherever the copy dealt it: the one other marked card named P1's real card
    in 25 of 25 copies. The card dealt away takes the value of the one dealt into its place."""
    game = rulelang.Game(rulelang.compile_source(STALE, "stale.rules"))
    told = next(i for i, v in enumerate(game.ir["vars"]) if v["name"] == "told")
    views, named = set(), 0
    for real in (0, 2, 3, 4, 5):                       # P1 holds card real+1, P2 card 2 (id 1)
        rest = [i for i in range(6) if i not in (real, 1)]
        m = game.new_match(2, 1, chance=[["shuffle", 6, rest + [1, real]]])
        views.add(repr(m.view(0)))
        for s in range(5):
            copy = m.determinized(0, s)
            marks = [c for c in range(6) if copy.V[told][c]]
            assert marks == [copy.Z[1][0][0]], (real, s, marks)     # the hand's card alone: as the view
            named += real in marks and copy.Z[1][0][0] != real
    assert len(views) == 1 and named == 0


@pytest.mark.parametrize("name,players", [("shadow_hunters", 4), ("smash_up", 2)])
def test_a_clone_of_a_copy_made_at_a_question_plays_on_in_its_own_world(name, players):
    """A copy made while an effect waits took over the real match's checkpoint when its chain
    replayed from the real base: a clone of it, paused again, replayed the next action from the
    real world ("`draw a hermit card` is not a legal action in the position it was played from"),
    and OpenSpiel's IS-MCTS, which clones before every move, crashed (a researcher's trial: 938
    of 3,747 Shadow Hunters copies, 2,602 of 10,515 Smash Up ones)."""
    game = load(name)
    played = 0
    for seed in range(3):
        m = game.new_match(players, seed=seed)
        r = random.Random(seed)
        for _ in range(120):
            if m.is_over:
                break
            if m.question is not None:
                d = m.determinized(m.current_player, r.randrange(1 << 30)).clone()
                for _ in range(40):
                    if d.is_over:
                        break
                    d = d.clone()
                    d.apply(r.choice(d.legal_actions()))       # (raised before)
                    played += 1
            m.apply(r.choice(m.legal_actions()))
    assert played > 100


def test_a_copy_for_a_seat_not_to_act_is_no_world_where_the_one_to_act_is_stuck():
    """A researcher's trial: OpenSpiel's resample for P1 while P2 acts dealt P2 a hand that could
    not pay; settled, the copy was over ("P2 can neither play a card nor yield") in 14 of 200, and
    P1's information state differed. The real game goes on, so P2 has a move: such worlds are dealt
    again, as those a `when` rule would end at once."""
    game = load("regicide")
    m = game.new_match(3, seed=322)
    for text in ("play 5♠ 5♦", "play 9♣ A♦", "play 3♣"):
        m.apply(text)
    assert m.current_player == 1 and not m.is_over
    copies = [m.determinized(0, s) for s in range(200)]
    assert not any(c.is_over for c in copies)
    assert all(c.current_player == 1 and c.legal_actions() for c in copies)


FAILING = """
game "Failing" {
  players 3
  kind Card { rank: int  label "c" + text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  var x: int = 0
  setup { for r in 1..12 { create Card(rank: r) in deck }  shuffle deck  for p in players { move top(deck, 3) to hand[p] } }
  turn {
    step act {
      action play {
        choose k in 1..3 prompt "first" { x = [1, 2][k - 1] }
        choose j in 1..3 prompt "second" { x = [1, 2][j - 1] }
        end turn
      }
      action boom { x = [1][x + 3] }
      action rest { end turn }
    }
  }
  turn limit 30 { finish draw }
}
"""


def test_a_copy_keeps_its_own_world_through_failed_inputs():
    """A trial: on a copy made for P2 while P2's effect waited, an answer that failed replayed the
    chain from its base — the real match's — and kept the real match's checkpoint; a later failed
    action rebuilt the copy from it, with the real hidden hands."""
    game = rulelang.Game(rulelang.compile_source(FAILING, "failing.rules"))
    m = game.new_match(3, seed=5)
    for text in ["rest"] * 10 + ["play"]:
        m.apply(text)
    for seed in range(6):
        d = m.determinized(1, seed)
        dealt = d._state()["zones"]["hand"]
        for text in ("1", "3", "1", "boom"):
            try:
                d.apply(text)
            except rulelang.RulelangError:
                pass
        assert d.state()["zones"]["hand"] == dealt and d.log[-3:] == ["play", "1", "1"]


def test_a_restored_copys_copy_keeps_each_card_among_the_piles_of_its_colour():
    """A trial of the pooling above: joined by the zones the rules move cards between, Shadow
    Hunters' decks (kept apart by a field, the colour) were one pool — white cards dealt into the
    hermit deck, 720 times in 25 copies. Only a player's own hidden zone is pooled so."""
    game = load("shadow_hunters")
    m = game.new_match(4, seed=2)
    rng = random.Random(5)
    for _ in range(40):
        m.apply(rng.choice(m.legal_actions()))
    comps = m.state()["components"]
    for seed in range(8):
        copy = rulelang.Match.from_state(game, m.determinized(0, seed).state()).determinized(2, 100 + seed)
        for zone, held in copy.state()["zones"].items():
            if zone.endswith("_deck") or zone.endswith("_discard"):
                assert all(comps[c]["fields"]["color"] == zone.split("_")[0] for c in held), (seed, zone)


def test_a_search_copys_state_restores_where_setup_draws():
    """A trial: a copy keeps no seed, and restoring its state checked its cards against a setup made
    with another: Smash Up's factions (drawn at setup) differed, and every copy was refused
    ("component … that setup creates is missing"). A state without a seed is checked card by card."""
    game = load("smash_up")
    m = game.new_match(2, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        m.apply(rng.choice(m.legal_actions()))
    while m.pending is not None:                             # (a copy paused in an effect has no state)
        m.apply(rng.choice(m.legal_actions()))
    for seed in range(4):
        copy = m.determinized(0, seed)
        restored = rulelang.Match.from_state(game, copy.state())
        assert restored.state() == copy.state()
