"""A variable per component or per cell that holds a card shows that card only to who may see it
(a leak scan: `Elm (mate 5)` against `Elm (mate 0)` told another player which hidden card was
picked; the per-cell `claim` likewise). The terminal names the card (`mate Oak`), never its id."""
from __future__ import annotations

import io

import rulelang
from rulelang.play.repl import run_repl

MATES = """
game "Mates" {
  players 2
  kind Card { name: text  label name }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: set, public
  var mate: Card = none per Card
  setup {
    for x in ["Ash", "Birch", "Cedar", "Elm", "Fir", "Oak"] { create Card(name: x) in deck }
    shuffle deck
    move top(deck) to table
    for p in players { repeat 2 { move top(deck) to hand[p] } }
  }
  turn { step act {
    action bond(c in table) require size(hand[me]) > 0 {
      choose h in hand[me] prompt "which of your cards is its mate (kept secret)?" { mate[c] = h }
      end turn
    }
    action pass { end turn }
  } }
  turn limit 6 { finish draw "time" }
}
"""
CELLS = """
game "Cell Mates" {
  players 2
  board b: squares(3, 1)
  kind Card { name: text  label name }
  zone deck: pile, hidden
  zone hand: set per player, owner
  var claim: Card = none per cell of b
  setup {
    for x in ["Ash", "Birch", "Cedar", "Elm", "Fir", "Oak"] { create Card(name: x) in deck }
    shuffle deck
    for p in players { repeat 2 { move top(deck) to hand[p] } }
  }
  turn { step act {
    action claim_cell(c in cells(b)) require claim[c] == none {
      choose h in hand[me] prompt "which card claims it (kept secret)?" { claim[c] = h }
      end turn
    }
    action pass { end turn }
  } }
  turn limit 6 { finish draw "time" }
}
"""


def twins(source: str, action: str):
    """Two matches alike but for which of P1's two hidden cards P1 picked."""
    g = rulelang.Game(rulelang.compile_source(source, "t.rules"))
    m = g.new_match(2, 0)
    hand = m.state()["zones"]["hand"][0]
    out = []
    for c in hand:
        x = m.clone()
        x.apply(action)
        x.apply(m.labels[c])
        out.append(x)
    return g, m, hand, out


def test_a_card_held_per_component_is_no_id_to_who_cannot_see_it():
    _, m, hand, (a, b) = twins(MATES, "bond Elm")
    assert a.view(1)["component_values"] == b.view(1)["component_values"]
    assert a.view(1).get("component_texts") == b.view(1).get("component_texts")
    elm = str(a.state()["zones"]["table"][0])
    assert a.view(1)["component_values"][elm]["mate"] is None
    assert a.view(1)["component_texts"][elm]["mate"] == "a hidden component"
    assert a.view(0)["component_values"][elm]["mate"] == hand[0]
    assert a.view(0)["component_texts"][elm]["mate"] == a.labels[hand[0]]


def test_a_card_held_per_cell_is_no_id_to_who_cannot_see_it():
    _, m, hand, (a, b) = twins(CELLS, "claim cell a1")
    assert a.view(1)["cells"] == b.view(1)["cells"]
    assert a.view(1)["cells"]["a1"]["claim"] is None and a.view(0)["cells"]["a1"]["claim"] == hand[0]


def test_the_terminal_names_the_card_held_not_its_id():
    g = rulelang.Game(rulelang.compile_source(MATES, "mates.rules"))
    m = g.new_match(2, 0)
    picked = m.labels[m.state()["zones"]["hand"][0][0]]
    out = io.StringIO()
    run_repl(g, 2, 0, {}, {}, io.StringIO(f"bond Elm\n{picked}\n\npass\n\nquit\n"), out, "mates.rules", screen=(120, 40))
    text = out.getvalue()
    assert "Elm (mate a hidden component)" in text            # P2's screen
    assert f"Elm (mate {picked})" in text                      # P1's, once the turn is back
    assert "(mate 0)" not in text and "(mate 5)" not in text


def test_a_spectator_is_shown_no_card_only_a_seat_sees_through_a_value():
    from rulelang.web.present import spectator_payload
    _, m, hand, (a, b) = twins(MATES, "bond Elm")
    elm = str(a.state()["zones"]["table"][0])
    views = [spectator_payload(x)["view"] for x in (a, b)]
    assert views[0]["component_values"] == views[1]["component_values"]
    assert views[0]["component_values"][elm]["mate"] is None
    assert views[0]["component_texts"][elm]["mate"] == "a hidden component"
    _, m, hand, (a, b) = twins(CELLS, "claim cell a1")
    assert spectator_payload(a)["view"]["cells"] == spectator_payload(b)["view"]["cells"]


GEMS = """
game "Gems" {
  players 2
  kind Gem { value: int  label "gem " + text(value)  text "A gem worth " + text(value) + " points." }
  zone pouch: set per player, owner
  zone table: set, public
  setup { for p in players { repeat 2 { create Gem(value: roll(100000)) in pouch[p] } } }
  turn { step act {
    action play(g in pouch[me]) { move g to table  end turn }
    action pass { end turn }
  } }
  turn limit 6 { finish draw "time" }
}
"""


def test_look_names_no_card_its_reader_cannot_see():
    """A leak scan: `look gem` answered "did you mean" with the other player's gems too, their
    labels telling their rolled worth; `look gem N` read one's text. (Where every set-up makes the
    same labels — a deck of cards — what they are is no secret, and all may be looked up.)"""
    g = rulelang.Game(rulelang.compile_source(GEMS, "gems.rules"))
    m = g.new_match(2, 0)
    mine = sorted(m.labels[c] for c in m.state()["zones"]["pouch"][0])
    theirs = sorted(m.labels[c] for c in m.state()["zones"]["pouch"][1])
    out = io.StringIO()
    run_repl(g, 2, 0, {}, {}, io.StringIO(f"look gem\nlook {theirs[0]}\nquit\n"), out, "gems.rules", screen=(120, 40))
    text = out.getvalue()
    asked = text.split("P1> look gem\n")[1]
    assert all(x in asked for x in mine) and not any(x in text for x in theirs[1:])
    assert f"error: no card or piece named '{theirs[0]}' has rules text" in text and "A gem worth" not in text


MARKED = """
game "Marked" {
  players 2
  kind Card { name: text  label name }
  board b: squares(3, 1), draw glyph
  zone hand: set per player, owner
  var marks: list[Card] = [] per cell of b, public
  def glyph(c: cell) = if size(marks[c]) > 0 then "#" else (if me == current then "*" else ".")
  setup { create Card(name: "Dragon") in hand[0]  create Card(name: "Owl") in hand[0]
          create Card(name: "Eel") in hand[1] }
  turn { step s {
    action mark(x in cells(b)) require size(marks[x]) == 0 {
      choose c in hand[me] always prompt "which card?" { marks[x] = [c] }
      end turn }
  } }
  turn limit 4 { finish draw }
}
"""


def test_a_spectators_board_shows_no_id_of_a_card_held_in_a_list_per_cell():
    """A review: a board drawn per seat falls back, for a spectator, to the top piece of each cell's
    zones — and took a list variable per cell for one: seat 0's ids of its secret card were drawn
    there, `0` for Dragon, `1` for Owl."""
    from rulelang.web.present import spectator_payload
    game = rulelang.Game(rulelang.compile_source(MARKED))
    seen = []
    for pick in (0, 1):
        m = game.new_match(2, seed=1)
        m.apply("mark a1")
        m.apply(m.legal_actions()[pick])
        payload = spectator_payload(m)
        assert payload["view"]["cells"] == {"a1": {"marks": [None]}}
        assert payload["view"]["cell_texts"]["a1"]["marks"] == "a hidden component"
        seen.append(payload["glyphs"])
    assert seen[0] == seen[1] == {}


NESTED = """
game "Nested" {
  players 2
  kind Card { name: text  label name }
  board b: squares(2, 1)
  zone hand: set per player, owner
  var stacks: list[list[Card]] = [] per cell of b, public
  setup { create Card(name: "Dragon") in hand[0]  create Card(name: "Owl") in hand[1] }
  turn { step s {
    action stack(x in cells(b)) { stacks[x] = [[first(hand[me])]]  end turn }
  } }
  turn limit 4 { finish draw }
}
"""


def test_a_card_in_a_list_of_lists_per_cell_is_no_id_and_no_name_to_who_cannot_see_it():
    """A second review: `[[Dragon]]` of P1's hidden hand showed P2 the id (`[[0]]`: ids follow the
    order cards were made in) and a spectator its name, in words."""
    from rulelang.web.present import spectator_payload
    m = rulelang.Game(rulelang.compile_source(NESTED)).new_match(2, seed=1)
    m.apply("stack a1")
    assert m.view(0)["cell_texts"] == {"a1": {"stacks": "Dragon"}}
    assert m.view(1)["cells"] == {"a1": {"stacks": [[None]]}}
    assert m.view(1)["cell_texts"] == {"a1": {"stacks": "a hidden component"}}
    seen = spectator_payload(m)["view"]
    assert seen["cells"] == {"a1": {"stacks": [[None]]}} and "Dragon" not in str(seen)
