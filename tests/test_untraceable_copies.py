"""Copies played from a hidden zone show ids that depend only on what everyone sees (alike.py).

The leak this closes (a fuzz trial's scan, 102 plays in 40 random Smash Up games): a player who
watched copy #2 go back into a hand and then saw #0 played learnt that #2 was still there."""
from __future__ import annotations

import rulelang
from rulelang.engine.match import Match


def _load(tmp_path, name: str, source: str) -> rulelang.Game:
    path = tmp_path / f"{name}.rules"
    path.write_text(source, encoding="utf-8")
    return rulelang.load(str(path))

RULES = """
game "Copies" {
  players 2
  kind Card {
    name: text
    label name
  }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: set, public
  var seen: int = 0 per Card
  var marked: Card = none
  setup {
    create Card(name: "Walker") in deck
    create Card(name: "Guard") in deck
    create Card(name: "Walker") in deck
    move top(deck) to table
    MARK
    shuffle deck
  }
  turn {
    step s {
      action draw { move top(deck) to hand[me] }
      action take(c in table) { move c to hand[me] }
      action play(c in hand[me]) { move c to table }
      action stop { finish draw }
    }
  }
}
"""
MARKS = 'for c in deck { seen[c] = 7 }  marked = first([c for c in deck where c.name == "Walker"])'
WALKER_ON_TOP, GUARD_ON_TOP = [1, 0], [0, 1]     # the setup's shuffle of the deck [Walker #0, Guard #1]


def game(tmp_path, mark: str = ""):
    return _load(tmp_path, "copies", RULES.replace("MARK", mark))


def played(g, deck_order) -> Match:
    """P1 draws the deck's top card unseen, takes the table's Walker (#2) into its hand in full view,
    then plays a Walker."""
    m = g.new_match(2, 0, chance=[["shuffle", 2, deck_order]])
    m.apply("draw")
    m.apply("take Walker")
    m.apply("play Walker")
    return m


def test_the_copy_shown_does_not_depend_on_what_the_hand_held(tmp_path):
    g = game(tmp_path)
    drew_walker, drew_guard = played(g, WALKER_ON_TOP), played(g, GUARD_ON_TOP)
    # before: #0 was played from [#0, #2] and #2 from [Guard, #2], so P2 knew a Walker was left
    assert drew_walker.view(1) == drew_guard.view(1)
    table = [z for z in drew_guard.view(1)["zones"] if z["name"] == "table"][0]
    assert table["cards"] == [{"id": 0, "label": "Walker"}]      # the lowest copy no one sees
    # each hand holds what it held: a Walker is left only where one was drawn
    assert [drew_walker.labels[c] for c in drew_walker.state()["zones"]["hand"][0]] == ["Walker"]
    assert [drew_guard.labels[c] for c in drew_guard.state()["zones"]["hand"][0]] == ["Guard"]


def test_the_exchange_carries_what_the_position_keeps_of_both(tmp_path):
    m = played(game(tmp_path, MARKS), GUARD_ON_TOP)
    st = m.state()
    # #0 (the deck's Walker, seen 7, marked) and #2 (the hand's, seen 0) exchanged places: the
    # card in the deck is #2 now, with what was kept of the card there; the one played is #0
    assert st["zones"] == {"deck": [2], "hand": [[1], []], "table": [0]}
    assert st["vars"]["seen"] == [0, 7, 7]
    assert st["vars"]["marked"] == 2


def test_a_copy_seen_by_everyone_is_played_as_it_is(tmp_path):
    g = game(tmp_path)
    m = g.new_match(2, 0, chance=[["shuffle", 2, GUARD_ON_TOP]])
    m.apply("take Walker")              # (from the table: nothing hidden about it yet)
    m.apply("play Walker")              # from the hand: the deck's #0 no one sees is lower
    assert m.state()["zones"]["table"] == [0]
    m.apply("take Walker")
    assert m.state()["zones"]["hand"][0] == [0]     # back in the hand in full view: the same id


def test_the_exchange_replays_and_restores_exactly(tmp_path):
    g = game(tmp_path, MARKS)
    a, b = played(g, GUARD_ON_TOP), played(g, GUARD_ON_TOP)
    assert a.state() == b.state()
    again = Match.from_state(g, a.state())
    assert again.state() == a.state()
    assert [x.text for x in again.legal_actions()] == [x.text for x in a.legal_actions()]


HELD = """
game "Held" {
  players 2
  kind Card {
    name: text
    label name
  }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: set, public
  setup {
    create Card(name: "Walker") in hand[first(players)]
    create Card(name: "Walker") in table
    create Card(name: "Walker") in deck
    create Card(name: "Guard") in deck
    shuffle deck
  }
  turn {
    step s {
      action pass { end turn }
      action draw { move top(deck) to hand[me] }
      action take(c in table) { move c to hand[me] }
      action play(c in hand[me]) { move c to table }
      action stop { finish draw }
    }
  }
}
"""


def test_a_copy_another_player_holds_is_never_exchanged(tmp_path):
    """P1 holds the lowest Walker (#0); P2 takes #1 from the table in full view, draws (a Walker, #2,
    or the Guard) and plays a Walker. A first version exchanged P1's own #0 with the copy played, so
    P1 saw its card's id change to the one P2 had played — and, having watched #1 go into P2's hand,
    learnt whether P2 still held it (a leak scan of this very exchange)."""
    g = _load(tmp_path, "held", HELD)
    views = []
    for order in ([1, 0], [0, 1]):          # (the deck [Walker #2, Guard]: the Guard on top, or the Walker)
        m = g.new_match(2, 0, chance=[["shuffle", 2, order]])
        for text in ("pass", "take Walker", "draw", "play Walker"):
            m.apply(text)
        assert m.state()["zones"]["hand"][0] == [0]              # P1's own Walker keeps its id
        views.append(m.view(0))
    assert views[0] == views[1]
    assert [z for z in views[0]["zones"] if z["name"] == "table"][0]["cards"] == [{"id": 1, "label": "Walker"}]


SIMULTANEOUS = """
game "Both" {
  players 2
  kind Card { rank: int  label if rank == 1 then "Walker" else "Blank" }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    create Card(rank: 1) in deck
    create Card(rank: 2) in deck
    create Card(rank: 1) in deck
    move top(deck) to table
    shuffle deck
    move top(deck) to hand[players[1]]
    move top(table) to hand[players[1]]
  }
  turn limit 50 { finish draw }
  turn {
    step both simultaneous {
      action play(c in hand[me]) { move c to table }
      action pass { }
      reveal { end turn }
    }
  }
}
"""


def test_an_answer_of_a_simultaneous_step_plays_the_same_copy_whatever_the_hand_held(tmp_path):
    """P1 watched Walker #2 go into P2's hand, with one card P2 drew unseen (a Walker #0 or a Blank).
    The answers of a simultaneous step had no exchange: the table showed #2 or #0 as P2's hand held
    (a leak scan); and once exchanged, P2's answer read "(a secret choice)" to P1 in one world only."""
    g = _load(tmp_path, "both", SIMULTANEOUS)
    seen = set()
    for order in ([0, 1], [1, 0]):
        m = g.new_match(2, 0, chance=[["shuffle", 2, order]])
        m.apply("P1: pass")
        m.apply("P2: play Walker")
        table = [z for z in m.view(0)["zones"] if z["name"] == "table"][0]["cards"]
        seen.add((repr(table), repr(m.log_for(0))))
    assert seen == {(repr([{"id": 0, "label": "Walker"}]), repr(["P1: pass", "P2: play Walker"]))}


def test_an_action_of_a_name_another_step_gives_components_keeps_its_numbers(tmp_path):
    """`pick(n in 0..3)` in one step, `pick(c in hand[me])` in another: the number was renamed as if it
    were a card (`pick 3` set 0, and moved cards) — the components were found by the action's name."""
    g = _load(tmp_path, "same", """
game "SameName" {
  players 2
  kind Card { rank: int  label if rank == 1 then "Walker" else "Blank" }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  var picked: int = -1, public
  setup {
    create Card(rank: 1) in deck
    create Card(rank: 1) in deck
    create Card(rank: 1) in hand[players[0]]
    create Card(rank: 1) in hand[players[0]]
  }
  turn limit 50 { finish draw }
  turn {
    step a { action pick(n in 0..3) { picked = n  goto b } }
    step b { action pick(c in hand[me]) { move c to table  end turn } }
  }
}
""")
    m = g.new_match(2, 1)
    m.apply("pick 3")
    assert m.state()["vars"]["picked"] == 3
    assert m.state()["zones"] == {"deck": [0, 1], "hand": [[2, 3], []], "table": []}
    m.apply("pick Walker")                  # (P1's own copies, made in its hand: not the deck's)
    assert m.state()["zones"]["table"] == [2]


def test_one_copy_named_by_two_parameters_is_played_once(tmp_path):
    """`double(a in hand[me], b in hand[me])` bound to one copy twice: the exchange made two, against two
    different copies of the deck, and a deck card was played (a leak scan)."""
    g = _load(tmp_path, "dup", """
game "Dup" {
  players 2
  kind Card { name: text  label name }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: set, public
  setup { repeat 3 { create Card(name: "Walker") in deck } }
  turn {
    step s {
      action draw { move top(deck) to hand[me] }
      action double(a in hand[me], b in hand[me]) require a == b { move a to table }
      action stop { finish draw }
    }
  }
}
""")
    m = g.new_match(2, 0)
    m.apply("draw")                         # (#2, the top)
    m.apply("double Walker Walker")
    zones = m.state()["zones"]
    # the lowest copy no one sees, #0, is the one played, once: the deck keeps two, the hand none
    assert zones["table"] == [0] and zones["hand"] == [[], []] and sorted(zones["deck"]) == [1, 2]


def test_two_copies_played_beside_a_shown_one_are_two_cards(tmp_path):
    """P2 holds two unseen Walkers and one shown to P1; `double` plays two. Both were bound to the
    shown one: `require a != b` broken, one card moved (a leak scan of the exchange)."""
    g = _load(tmp_path, "shown", """
game "ShownTwice" {
  players 2
  kind Card { rank: int  label if rank == 1 then "Walker" else "Blank" }
  zone box: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    create Card(rank: 1) in hand[players[1]]
    create Card(rank: 1) in hand[players[1]]
    create Card(rank: 1) in box
    let w = top(box)
    move w to hand[players[1]]
    reveal w to players[0]
    end turn to players[1]
  }
  turn limit 50 { finish draw }
  turn {
    step play {
      action double(a in hand[me], b in hand[me]) require a != b {
        log "a == b: " + text(a == b)
        move a to table
        move b to table
        end turn
      }
      action pass { end turn }
    }
  }
}
""")
    m = g.new_match(2, 1)
    m.apply("double Walker Walker")
    zones = m.state()["zones"]
    assert len(zones["table"]) == 2 and len(zones["hand"][1]) == 1 and m.messages_for(1) == ["a == b: false"]
    assert 2 in zones["table"]                      # (the shown one is one of the two played)


def test_a_copy_a_field_names_is_not_exchanged(tmp_path):
    """A `Tag { of: Card }` names the hand's Walker; the deck holds another made with it. The exchange
    renamed the cards but not the field: the tag named the deck's card after the play."""
    g = _load(tmp_path, "tag", """
game "CompField" {
  players 2
  kind Card { rank: int  label if rank == 1 then "Walker" else "Blank" }
  kind Tag { of: Card  label "Tag" }
  zone deck: pile per player, hidden
  zone hand: set per player, owner
  zone table: pile, public
  zone tags: pile, public
  setup {
    create Card(rank: 1) in deck[players[0]]
    create Card(rank: 1) in deck[players[0]]
    move top(deck[players[0]]) to hand[players[0]]
    create Tag(of: top(hand[players[0]])) in tags
  }
  turn limit 50 { finish draw }
  turn {
    step s {
      action play(c in hand[me]) {
        move c to table
        log "played the tagged card: " + text(top(tags).of == c)
        end turn
      }
      action pass { end turn }
    }
  }
}
""")
    m = g.new_match(2, 1)
    m.apply("play Walker")
    assert m.messages_for(0) == ["played the tagged card: true"]


def test_a_copy_made_in_another_zone_of_the_same_player_is_not_exchanged(tmp_path):
    """Each player's `reserve` only ever holds the Walker made there; the exchange swapped a hand's
    Walker with it, and the other player's bot then dealt Blanks into reserves (138 of 200 worlds)."""
    g = _load(tmp_path, "reserve", """
game "SameFamily" {
  players 2
  kind Card { rank: int  label if rank == 1 then "Walker" else if rank == 2 then "Blank" else "Crown" }
  zone reserve: pile per player, hidden
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    for p in players { create Card(rank: 1) in reserve[p] }
    for p in players {
      create Card(rank: 1) in hand[p]
      create Card(rank: 3) in hand[p]
      create Card(rank: 2) in hand[p]
    }
    end turn to players[1]
  }
  turn limit 50 { finish draw }
  turn {
    step s {
      action play(c in hand[me]) { move c to table  end turn }
      action pass { end turn }
    }
  }
}
""")
    m = g.new_match(2, 1)
    reserve = m.state()["zones"]["reserve"]
    m.apply("play Walker")
    assert m.state()["zones"]["reserve"] == reserve
    worlds = [m.determinized(0, seed) for seed in range(40)]
    assert all(w.labels[c] == "Walker" for w in worlds for c in w.state()["zones"]["reserve"][1])


def test_copies_from_two_zones_keep_their_parameters(tmp_path):
    """Copies are put in id order among the parameters only within one zone: `a` from the hand and
    `b` from the table are not the same choice."""
    g = _load(tmp_path, "two", """
game "Two" {
  players 2
  kind Card { name: text  label name }
  zone hand: set per player, owner
  zone table: set, public
  zone pile: set, public
  setup {
    create Card(name: "Walker") in table
    create Card(name: "Walker") in hand[first(players)]
  }
  turn {
    step s {
      action swap(a in hand[me], b in table) { move a to pile  move b to hand[me] }
      action stop { finish draw }
    }
  }
}
""")
    m = g.new_match(2, 0)
    m.apply("swap Walker Walker")
    assert m.state()["zones"] == {"hand": [[0], []], "table": [], "pile": [1]}


def test_the_exchange_does_not_depend_on_what_the_process_made_before(tmp_path):
    """A fuzzer: a setup's bulk creation is cached for 64 sets of options; past them its record was
    found only in a weak table and was gone, so the match's copies had no known origin and it made
    no exchange — the same seed, options and actions ended differently in a busy process."""
    g = _load(tmp_path, "batch", """
game "Batch" {
  players 2
  option bonus: int = 0
  kind Card { v: int  label "A" }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    for i in 1..8 { create Card(v: 1) in deck }
    shuffle deck
    for p in players { move top(deck, 2) to hand[p] }
  }
  turn {
    step act {
      action stash(c in hand[me]) { move c to deck  end turn }
      action play(c in hand[me]) { move c to table  end turn }
    }
  }
  turn limit 20 { finish draw }
}
""")

    def ended(game):
        m = game.new_match(2, 1, {"bonus": 0})
        for text in ["stash A", "stash A", "play A"]:
            m.apply(text)
        return m.state()["zones"]
    for bonus in range(1, 70):                  # (past the cache's 64: a batch of its own each time)
        g.new_match(2, 1, {"bonus": bonus})
    busy = ended(g)
    alone = ended(rulelang.Game(g.ir))          # (a game of its own: its cache empty)
    assert busy == alone and alone["table"] == [0]


SUPPLY = """
game "Supply" {
  players 2
  kind Coin { label "Copper" }
  zone supply: pile, public
  zone deck: pile per player, hidden
  zone hand: set per player, owner
  zone play: set per player, public
  setup {
    for i in 1..4 { create Coin() in supply }
    move top(supply, 2) to deck[players[0]]
    move supply to deck[players[1]]
  }
  turn {
    step s {
      action draw { move top(deck[me]) to hand[me] }
      action put(c in hand[me]) { move c to play[me] }
      action stop { finish draw }
    }
  }
}
"""


def test_a_copy_in_another_players_deck_is_never_exchanged(tmp_path):
    """A new author's deck-builder: every Copper is made in one supply, so a Copper played from P1's
    hand was exchanged with the lowest in *any* deck — P2's, which P2 had held — and P1's own went
    into P2's deck (524 of 949 plays). The copies played stay the player's own."""
    g = _load(tmp_path, "supply", SUPPLY)
    m = g.new_match(2, 0)
    decks = m.state()["zones"]["deck"]
    assert sorted(decks[0]) == [2, 3] and sorted(decks[1]) == [0, 1]
    m.apply("draw")
    m.apply("put Copper")
    zones = m.state()["zones"]
    assert zones["play"][0] == [2]                          # the lowest of P1's own, not P2's #0
    assert sorted(zones["deck"][1]) == [0, 1] and sorted(zones["deck"][0] + zones["play"][0]) == [2, 3]
