"""What a view and the web's payloads say about components a reader may not see: a `per KIND`
zone does not name its hidden owner, a list of components gives no hidden ids, and the spectator of
a one-seat match is not shown that seat's hand or peeks (from a leak trial: each failed before)."""
from __future__ import annotations

import rulelang
from rulelang.web.present import seat_payload, spectator_payload

PER_KIND = """
game "PerKind" {
  players 2
  kind Card { n: int  label "card" + text(n) }
  kind Token { t: int  label "token" + text(t) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone under: pile per Card, public
  zone bag: set, public
  var picks: list[Card] = [] per player, public
  setup {
    for i in 1..6 { create Card(n: i) in deck }
    create Token(t: 1) in bag
    shuffle deck
    for p in players { move top(deck, 2) to hand[p] }
    let c = first([x for x in hand[1]])
    move first([t for t in bag]) to under[c]
    append c to picks[1]
  }
  turn { step s {
    action stop { finish draw }
  } }
}
"""

SOLO = """
game "Solo" {
  players 1
  kind Card { n: int  label "card" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  var mark: int = 0 per Card
  show "Hand total" = sum(c.n for c in hand[me]), own
  show "On the table" = size(table)
  setup {
    for i in 1..6 { create Card(n: i) in deck }
    shuffle deck
    move top(deck, 2) to hand[0]
    move top(deck) to table
    reveal top(deck) to [players[0]]
    for c in hand[0] { mark[c] = 7 }
    for c in table { mark[c] = 3 }
  }
  turn { step s {
    action stop { finish draw }
  } }
}
"""


def game(source: str) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(source, "x.rules"))


def test_a_zone_of_a_hidden_component_does_not_say_whose_it_is():
    m = game(PER_KIND).new_match(2, seed=1)
    owner = m.state()["zones"]["hand"][1][0]
    for payload_zones, who in ((m.view(0)["zones"], "P1"), (seat_payload(m, 0)["view"]["zones"], "P1 web")):
        under = next(z for z in payload_zones if z["name"] == "under")
        assert under["of"] == {"id": None, "label": "a hidden component"}, who
    under = next(z for z in m.view(1)["zones"] if z["name"] == "under")      # its owner's holder sees it
    assert under["of"] == {"id": owner, "label": m.labels[owner]}


def test_a_list_of_components_gives_only_the_ids_its_reader_sees():
    m = game(PER_KIND).new_match(2, seed=1)
    owner = m.state()["zones"]["hand"][1][0]
    picks = {p: next(v for v in m.view(p)["values"] if v["name"] == "picks")["per_player"] for p in (0, 1)}
    assert picks[0] == [[], [None]] and picks[1] == [[], [owner]]


def test_the_spectator_of_a_one_seat_match_sees_only_what_is_public():
    m = game(SOLO).new_match(1, seed=1)
    zones = m.state()["zones"]
    hand, peeked, table = zones["hand"][0], zones["deck"][-1], zones["table"]
    assert set(hand) | {peeked} <= m.visible_to(0)           # (the seat sees them)
    view = spectator_payload(m)["view"]
    deck = next(z for z in view["zones"] if z["name"] == "deck")
    assert deck["cards"] is None and "known" not in deck
    assert next(z for z in view["zones"] if z["name"] == "hand")["cards"] is None
    assert view["component_values"] == {str(c): {"mark": 3} for c in table}
    assert [v["name"] for v in view["values"]] == ["On the table"]           # not the `own` "Hand total"


STEAL = """
game "Steal" {
  players 2
  kind Card { n: int  label "card" + text(n) }
  zone deck: pile, hidden
  zone discard: pile, top
  zone hand: set per player, owner
  setup {
    for i in 1..9 { create Card(n: i) in deck }
    shuffle deck
    for p in players { move top(deck, 3) to hand[p] }
    move top(deck, 2) to discard
  }
  def theirs = [c for c in hand[next(me)]]
  turn { step s {
    action steal(c in hand[next(me)]) { move c to hand[me]  end turn }
    action filch(c in theirs) as "filch " + text(c) { move c to hand[me]  end turn }
    action take(c in discard) { move c to hand[me]  end turn }
    action mine(c in hand[me]) { move c to discard  end turn }
    action grab { choose c in hand[next(me)] prompt "take a card blind" { move c to hand[me] }  end turn }
    action stop { finish draw }
  } }
}
"""


def _swapped(m, a: int, b: int):
    """The same match with components a and b (both unseen by P1) exchanged."""
    data = m.state()
    for name, value in data["zones"].items():
        for zl in (value if value and isinstance(value[0], list) else [value]):
            for i, c in enumerate(zl):
                zl[i] = b if c == a else a if c == b else c
    return rulelang.Match.from_state(m.game, data)


def test_a_card_its_chooser_cannot_see_is_named_by_its_place_in_any_game():
    """No `others` zone here: another's hand, a pile under its top and a choice among another's
    hand named the cards by label (`steal card8`) to a player who could not see them."""
    g = game(STEAL)
    m = g.new_match(2, seed=1)
    z = m.state()["zones"]
    theirs, top = z["hand"][1], z["discard"][-1]
    texts = [a.text for a in m.legal_actions()]
    assert [t for t in texts if t.startswith(("steal", "filch"))] == \
        ["steal hand slot 1", "steal hand slot 2", "steal hand slot 3", "filch hand slot 1", "filch hand slot 2", "filch hand slot 3"]
    assert [t for t in texts if t.startswith("take")] == ["take discard slot 1", f"take {m.labels[top]}"]
    assert [t for t in texts if t.startswith("mine")] == [f"mine {m.labels[c]}" for c in z["hand"][0]]
    other = _swapped(m, theirs[0], z["deck"][0])                  # what P1 cannot see, changed
    assert [a.text for a in other.legal_actions()] == texts
    m.apply("grab")
    assert m.question["options"] == ["hand slot 1", "hand slot 2", "hand slot 3"]
    m.apply("hand slot 2")
    assert theirs[1] in m.state()["zones"]["hand"][0]
    m2 = g.new_match(2, seed=1)
    m2.apply("steal hand slot 3")
    assert theirs[2] in m2.state()["zones"]["hand"][0]


SOLO_LISTS = """
game "Solo" {
  players 1
  kind Card { n: int  label "card" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  var held: list[Card] = []
  var mine: list[Card] = [] per player, public
  setup {
    for i in 1..9 { create Card(n: i) in deck }
    shuffle deck
    repeat 2 { move top(deck) to hand[0] }
    held = [c for c in hand[0]]
    mine[0] = [c for c in hand[0]]
  }
  turn { step s { action go { finish draw } } }
}
"""


def test_a_spectator_of_one_seat_gets_no_id_or_name_of_the_hand_a_list_holds():
    """A list of components worded in a view (`text`: "card3, card2") reached the spectator of a
    one-seat match, whose hand is no public card (a review found it); the bare ids did before."""
    from rulelang.web.present import spectator_payload
    m = rulelang.Game(rulelang.compile_source(SOLO_LISTS, "solo.rules")).new_match(1, seed=1)
    hand = m.state()["zones"]["hand"][0]
    assert m.view(0)["values"][0]["text"] == ", ".join(m.labels[c] for c in hand)     # the seat: its own
    values = {v["name"]: v for v in spectator_payload(m)["view"]["values"]}
    assert values["held"] == {"name": "held", "value": [None, None]}
    assert values["mine"] == {"name": "mine", "per_player": [[None, None]], "texts": [None]}


KEYED = """
game "Keyed" {
  players 2
  enum Colour { red, blue }
  kind Card { n: int  label "card" + text(n) }
  zone hand: set per player, owner
  var best: Card = none per Colour
  setup { for i in 1..4 { create Card(n: i) in hand[0] }  best[red] = first(hand[0]) }
  turn { step s { action go { finish draw } } }
}
"""


def test_a_hidden_component_in_a_family_per_enum_is_said_so_not_none():
    m = rulelang.Game(rulelang.compile_source(KEYED, "keyed.rules")).new_match(2, seed=1)
    mine, theirs = ({v["name"]: v for v in m.view(p)["values"]}["best"]["per_key"][0] for p in (0, 1))
    assert mine["value"] is not None and mine["text"] == m.labels[mine["value"]]
    assert theirs["value"] is None and theirs["text"] == "a hidden component"   # (it read "none")


KINDS = """
game "Kinds" {
  players 2
  option spells: bool = true
  kind Spell { power: int  label "spell " + text(power) }
  kind Beast { power: int  label "beast " + text(power) }
  zone hand: set per player, owner
  zone pile: pile, public
  show "Your power" = sum(c.power for c in hand[me])
  show "Cards in hands" = size(hand[0]) + size(hand[1])
  setup {
    if spells { create Spell(power: 1) in hand[0] } else { create Beast(power: 1) in hand[0] }
    create Beast(power: 1) in hand[1]
  }
  turn {
    step act {
      action play(c in hand[me]) { move c to pile  if size(hand[0]) + size(hand[1]) == 0 { finish draw }  end turn }
    }
  }
}
"""


def test_a_spectator_is_told_no_seat_s_own_value_nor_the_kind_of_a_hidden_hand():
    """Leak trials: a value each seat reads of itself (`me`) reached the spectator when the seats'
    happened to be equal (both hands worth 1: so each hand's worth was told); and the spectator's
    zones, copied from seat 0's view, said which kind of card seat 0's hidden hand held."""
    game = rulelang.Game(rulelang.compile_source(KINDS))
    for spells in (True, False):
        m = game.new_match(2, seed=1, options={"spells": spells})
        assert [v["value"] for v in m.view(0)["values"] if v["name"] == "Your power"] == [1]
        assert [v["value"] for v in m.view(1)["values"] if v["name"] == "Your power"] == [1]
        view = spectator_payload(m)["view"]
        names = [v["name"] for v in view["values"]]
        assert "Your power" not in names and "Cards in hands" in names
        hands = [z for z in view["zones"] if z["name"] == "hand"]
        assert [z["cards"] for z in hands] == [None, None] and [z.get("kind") for z in hands] == [None, None]
        assert next(z for z in m.view(1)["zones"] if z["name"] == "hand" and z["owner"] == 0).get("kind") is None


def test_a_variable_seen_by_its_owner_must_be_per_player_and_else_reaches_no_seat():
    """A leak trial: `var target: int = 0, owner` (no `per player`) linted clean and every seat,
    the spectator too, was shown the secret. It is an error now (E105, as for a zone); a compiled
    game saying so anyway (an IR edited by hand) shows it to nobody."""
    source = """
game "Guess" {
  players 2
  var target: int = 0, hidden
  var mine: bool = false per cell of field, hidden
  board field: squares(3, 3)
  setup { target = 31  mine[cell(field, "b2")] = true }
  turn { step guess { action guess(n in 1..3) { if n == target { finish win for me }  end turn } } }
  turn limit 5 { finish draw }
}
"""
    import pytest
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(source.replace("= 0, hidden", "= 0, owner"), "guess.rules")
    assert "E105" in str(err.value) and "not declared `per player`" in str(err.value)
    ir = rulelang.compile_source(source, "guess.rules")
    for v in ir["vars"]:
        if v["name"] in ("target", "mine"):
            v["visibility"] = "owner"
    m = rulelang.Game(ir).new_match(2, seed=1)
    for p in (0, 1):
        view = m.view(p)
        assert "target" not in [v["name"] for v in view["values"]]
        assert not any("mine" in cell for cell in view.get("cells", {}).values())
    assert "31" not in str(spectator_payload(m))


SHOWN = """
game "Shown" {
  players 3
  kind Card { name: text  label name }
  zone hand: set per player, owner
  setup {
    create Card(name: "Pipe") in hand[players[0]]
    create Card(name: "White") in hand[players[0]]
    create Card(name: "Rope") in hand[players[1]]
  }
  turn { step s {
    action show_to_p2 require me == players[0] {
      reveal first([c for c in hand[players[0]] where c.name == "Pipe"]) to [players[1]]  end turn
    }
    action wait require me == players[1] { end turn }
    action ask require me == players[2] {
      let asker = me
      choose c in hand[players[0]] by players[0] prompt "show one card to " + text(asker) {
        reveal c to [asker]
      }
      finish draw "done"
    }
  } }
}
"""


def test_a_card_a_bystander_knew_does_not_tell_which_was_shown_to_another():
    """A new author's Cluedo: P1 had shown P2 the Pipe; when P1 then showed P3 a card, P2's log read
    `Pipe` if it was the Pipe and "(a secret choice)" if it was White — P2 learnt the answer either
    way. Who reads an answer is worked out from where the card lies and what the chain reveals, not
    from an earlier reveal: P2 reads a secret choice both times, P3 the card shown."""
    game = rulelang.Game(rulelang.compile_source(SHOWN, "shown.rules"))
    m = game.new_match(3, seed=1)
    m.apply("show to p2")              # P1 shows the Pipe to P2
    m.apply("wait")
    m.apply("ask")                     # P3 asks P1 for a card
    worlds = {}
    for answer in ("Pipe", "White"):
        t = m.clone()
        t.apply(answer)
        worlds[answer] = t
    assert worlds["Pipe"].log_for(1) == worlds["White"].log_for(1)          # the bystander: the same
    assert worlds["Pipe"].log_for(1)[-1] == "(a secret choice)"
    assert worlds["Pipe"].log_for(2)[-1] == "Pipe" and worlds["White"].log_for(2)[-1] == "White"   # the asker
    assert worlds["Pipe"].log_for(0)[-1] == "Pipe"                          # the chooser


REVEALED_CELLS = """
game "RevealCell" {
  players 2
  kind Stone { n: int  label "stone " + text(n) }
  board b: squares(3, 1)
  zone pool: pile, hidden
  zone under: set per cell of b, hidden
  setup {
    for i in 1..4 { create Stone(n: i) in pool }
    for c in cells(b) { move top(pool) to under[c] }
    reveal under[cell(b, "a1")] to [players[0]]
    reveal under[cell(b, "b1")] to [players[0]]
    move top(pool) to under[cell(b, "b1")]
  }
  turn { step s { action pass { finish draw } } }
}
"""


def test_a_hidden_cell_shows_the_pieces_revealed_to_its_reader():
    """A new author's Codenames: the key, revealed to the spymasters, read `key: 1` in their views
    (and so their screens, the browser and interop) — `visible_to` had it. A cell whose every piece
    was revealed to the reader shows them; a cell with a piece still unseen stays a count; the other
    seat sees counts."""
    game = rulelang.Game(rulelang.compile_source(REVEALED_CELLS, "cells.rules"))
    m = game.new_match(2, seed=1)
    mine, theirs = m.view(0, drawing=False)["cells"], m.view(1, drawing=False)["cells"]
    assert mine["a1"]["under"] == ["stone 4"] and mine["b1"]["under"] == 2 and mine["c1"]["under"] == 1
    assert theirs["a1"]["under"] == 1 and theirs["b1"]["under"] == 2
    labels = {m.labels[c] for c in m.visible_to(0)}
    assert "stone 4" in labels and "stone 3" in labels             # (b1's revealed one: seen, not drawn alone)
