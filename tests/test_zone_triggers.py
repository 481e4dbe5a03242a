"""`on enter Z(c)` and `on leave Z(c)`: a component entering or leaving a zone sets off the
triggers of that zone, with `c` the component — a component of any kind, so `text(c)` is its
label (it was its number: the order it was created in, a hint at a hidden card)."""
from __future__ import annotations

import rulelang

SOURCE = """
game "Zone moves" {
  players 2
  kind Gem { colour: text  label colour + " gem" }
  kind Coin { value: int  label text(value) + " coin" }
  zone bag: pile, hidden
  zone hand: set per player, owner
  zone pool: set, public
  var said: list[text] = []
  setup {
    create Gem(colour: "red") in bag
    create Coin(value: 5) in bag
    create Gem(colour: "blue") in bag
  }
  on enter pool(c) { said = said + ["in: " + text(c)] }
  on leave hand(c) where c != top(bag) { said = said + ["out: " + text(c)] }
  turn {
    step s {
      action take require size(bag) > 0 { move top(bag) to hand[me]  end turn }
      action give(c in hand[me]) { move c to pool  end turn }
    }
  }
  when size(pool) == 2 { finish draw }
}
"""


def test_text_of_the_component_is_its_label_in_enter_and_leave_triggers():
    game = rulelang.Game(rulelang.compile_source(SOURCE, "zones.rules"))     # (a RuleError if it does not check)
    m = game.new_match(2)
    for _ in range(3):
        m.apply("take")
    assert [a.text for a in m.legal_actions()] == ["give 5 coin"]
    m.apply("give 5 coin")                    # two triggers at once: the mover orders them
    assert m.question["kind"] == "order" and m.question["options"] == ["leave hand", "enter pool"]
    m.apply("enter pool")
    assert m.V[game.var_slot["said"]] == ["in: 5 coin", "out: 5 coin"]
    m.apply("give red gem")
    m.apply("leave hand")
    assert m.V[game.var_slot["said"]][2:] == ["out: red gem", "in: red gem"]
    assert m.is_over
