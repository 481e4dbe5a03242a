"""Copies played from a hidden zone show ids that depend only on what everyone sees (alike.py).

The leak this closes (a fuzz trial's scan, 102 plays in 40 random Smash Up games): a player who
watched copy #2 go back into a hand and then saw #0 played learnt that #2 was still there."""
from __future__ import annotations

import rulelang
from rulelang.engine.match import Match

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
    create Card(name: "Walker") in table
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
    path = tmp_path / "copies.rules"
    path.write_text(RULES.replace("MARK", mark), encoding="utf-8")
    return rulelang.load(str(path))


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
    path = tmp_path / "held.rules"
    path.write_text(HELD, encoding="utf-8")
    g = rulelang.load(str(path))
    views = []
    for order in ([1, 0], [0, 1]):          # (the deck [Walker #2, Guard]: the Guard on top, or the Walker)
        m = g.new_match(2, 0, chance=[["shuffle", 2, order]])
        for text in ("pass", "take Walker", "draw", "play Walker"):
            m.apply(text)
        assert m.state()["zones"]["hand"][0] == [0]              # P1's own Walker keeps its id
        views.append(m.view(0))
    assert views[0] == views[1]
    assert [z for z in views[0]["zones"] if z["name"] == "table"][0]["cards"] == [{"id": 1, "label": "Walker"}]
