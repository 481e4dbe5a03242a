"""Elimination for a round (`eliminate P until round_end`) and the way back (`readmit(P)`), and the
types authors may now write (`choose x: T in …`, `def f(x): T = …`), on small invented games."""
from __future__ import annotations

import pytest

import rulelang
from rulelang.play.repl import render_view

# Stunts: each round every player still in takes a turn: stun another player (out for the rest of
# this round: they miss their turn), fold (out of the hand until it is dealt again) or score a point.
# A hand ends when one player is left in it: they score 2 and everyone is readmitted.
STUNTS = """
game "Stunts" {
  players 3..4 ranked by points[me]
  var points: int = 0 per player
  var hands: int = 0
  show "in" = text(remaining)
  turn {
    step act {
      action stun(p in others) { eliminate p until round_end  log text(me) + " stuns " + text(p)  end turn }
      action fold { eliminate me  end turn }
      action score { points[me] += 1  end turn }
    }
  }
  when size(remaining) == 1 { points[first(remaining)] += 2  hands += 1  readmit(players) }
  on round_end { if round_count == 6 { finish by score } }
}
"""


@pytest.fixture(scope="module")
def stunts():
    return rulelang.Game(rulelang.compile_source(STUNTS, "stunts.rules"))


def shown(m, p=0):
    return next(v["value"] for v in m.view(p)["values"] if v["name"] == "in")


def test_out_for_the_round_misses_its_turn_and_comes_back(stunts):
    m = stunts.new_match(3, seed=1)
    assert m.current == 0 and m.view(0)["round"] == 1
    m.apply("stun P2")
    # P2 is out for this round: skipped (P3 is next), not in `remaining`, not among P3's others
    assert m.current == 2 and shown(m) == "P1 P3"
    assert [a.text for a in m.legal_actions()] == ["stun P1", "fold", "score"]
    v = m.view(0)
    assert v["eliminated"] == [1] and v["out_this_round"] == [1] and v["round"] == 1
    assert "turn order: P1, P2 (out this round), P3" in render_view(v)
    assert m.state()["rounds"] == {"round": 1, "order": [0, 1, 2], "eliminated": [1], "this_round": [1]}
    restored = type(m).from_state(stunts, m.state())
    assert restored.state() == m.state() and restored.current == 2
    m.apply("score")                                   # P3; the round ends: P2 is back
    assert m.current == 0 and m.view(0)["round"] == 2 and shown(m) == "P1 P2 P3"
    assert m.view(0)["eliminated"] == [] and "out_this_round" not in m.view(0)
    m.apply("score")
    assert m.current == 1                               # P2 plays in round 2


def test_folding_is_final_until_readmitted(stunts):
    m = stunts.new_match(4, seed=1)
    m.apply("fold")                                     # P1 out of the hand (for good, until readmitted)
    assert [a.text for a in m.legal_actions()] == ["stun P3", "stun P4", "fold", "score"]
    m.apply("score")                                    # P2
    assert m.state()["rounds"]["eliminated"] == [0] and "this_round" not in m.state()["rounds"]
    m.apply("score")                                    # P3
    m.apply("score")                                    # P4; round 2 starts: P1 is still out
    assert m.view(0)["round"] == 2 and m.current == 1 and shown(m) == "P2 P3 P4"
    m.apply("fold")                                     # P2
    m.apply("fold")                                     # P3: P4 alone: scores 2, everyone readmitted
    assert m.V[stunts.var_slot["points"]] == [0, 1, 1, 3] and m.V[stunts.var_slot["hands"]] == 1
    assert shown(m) == "P1 P2 P3 P4" and m.current == 3


def test_random_games_run_and_remaining_follows(stunts):
    import random
    for seed in range(20):
        m = stunts.new_match(3 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            assert m.current not in m.view(0)["eliminated"]       # an out player never has a turn
            m.apply(rng.choice(m.legal_actions()))
        assert m.outcome["scores"] is not None


KNOCKS = """
game "Knocks" {
  players 3..4
  var n: int = 0
  turn { step act {
    action knock(p in others) { eliminate p  end turn to p }
    action daze(p in others) { eliminate p until round_end  end turn to p }
    action wait { n += 1  if n > 9 { finish draw }  end turn }
  } }
  when size(remaining) == 1 { finish win for remaining "last one" }
}
"""


def test_end_turn_to_an_eliminated_player_gives_the_turn_to_the_next_one_in():
    """A new author's trial: `eliminate p  end turn to p` let the knocked-out P2 play a whole turn.
    P is skipped like any eliminated player: the next player still in after P plays."""
    game = rulelang.Game(rulelang.compile_source(KNOCKS, "knocks.rules"))
    m = game.new_match(4, seed=1)
    m.apply("knock P2")
    assert m.current == 2 and [a.text for a in m.legal_actions()][:2] == ["knock P4", "knock P1"]
    m.apply("knock P4")                                 # P3 knocks P4 out: past the order's end, P1
    assert m.current == 0 and m.view(0)["round"] == 2
    m = game.new_match(4, seed=1)
    m.apply("daze P2")                                  # out for this round: P3 plays on
    assert m.current == 2
    m.apply("wait"), m.apply("wait")                    # P3, P4: round 2, P2 is in again
    assert m.current == 0 and m.view(0)["eliminated"] == []
    m.apply("wait"), m.apply("daze P1")                 # P2 dazes P1, back in the order: the round
    assert m.current == 0 and m.view(0)["round"] == 3   # ends, and P1 is in again for round 3


def test_the_period_is_checked_and_a_useless_one_warned():
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(STUNTS.replace("until round_end", "until turn_end"), "x.rules")
    assert "a player can be out until `round_end`" in err.value.diagnostics[0].message
    _, diags = rulelang.check_source(STUNTS.replace("if round_count == 6 { finish by score }",
                                                    "if round_count == 6 { finish by score }  "
                                                    "eliminate current until round_end"), "x.rules")
    assert [d.code for d in diags if d.code == "W232"] == ["W232"]
    # a procedure of the rules named `readmit` keeps its meaning (it hides the builtin)
    own = STUNTS.replace("var hands: int = 0", "var hands: int = 0\n  proc readmit(x) { hands += 10 }")
    g = rulelang.Game(rulelang.compile_source(own, "x.rules"))
    m = g.new_match(3, seed=1)
    m.apply("fold")
    m.apply("fold")
    assert m.V[g.var_slot["hands"]] == 11 and m.view(0)["eliminated"] == [0, 1]


TYPED = """
game "Typed" {
  players 2
  kind Card { v: int  label "c" + text(v) }
  zone hand: set per player, owner
  zone pile: pile, public
  var mark: int = 0 per player
  def leader: player = if mark[0] >= mark[1] then 0 else 1
  def best(p): Card = first(c for c in hand[p] by -c.v)
  setup { for v in 1..3 { create Card(v: v) in hand[0]  create Card(v: v + 3) in hand[1] } }
  turn { step s {
    action go {
      choose q: player in [0, 1] prompt "whom?" { mark[q] += 1 }
      choose cs: list[Card] subset of hand[me] size 0..1 { move cs to pile }
      log text(leader) + " leads, holding " + text(best(me))
      if size(hand[me]) == 0 { finish draw }
      end turn
    }
  } }
}
"""


def test_typed_choice_variables_and_def_results():
    g = rulelang.Game(rulelang.compile_source(TYPED, "typed.rules"))
    m = g.new_match(2, seed=1)
    m.apply("go")
    assert m.view(0)["choice"]["options"] == ["P1", "P2"]      # seats, not 0 and 1
    m.apply("P2")
    m.apply("c3")
    assert m.messages_for(0) == ["P2 leads, holding c2"]
    bad = TYPED.replace("choose q: player", "choose q: Card").replace("def leader: player", "def leader: Card")
    bad = bad.replace("choose cs: list[Card]", "choose cs: Card")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(bad, "typed.rules")
    assert sorted(d.message for d in err.value.diagnostics) == [
        "`choose cs: …` picks a subset or an order: its type is a list (`list[component]`), not Card",
        "`q` is declared Card, but the choices are list of int",
        "def `leader` is declared Card, but its value is int"]


# Attrition: at the start of each round from the second on, the player who would play first loses a
# life; with none left they are out. Their turn goes to the next player still in (language.md: the
# first turn of a round is the first player's *still in*), not to a player already out.
ATTRITION = """
game "Attrition" {
  players 3
  var lives: int = 1 per player
  turn { step act { action pass { end turn } } }
  on round_start {
    if round_count >= 2 {
      lives[current] -= 1
      if lives[current] <= 0 { eliminate current  log text(current) + " is out" }
    }
  }
  when size(remaining) == 1 { finish win for remaining }
}
"""


def test_a_player_put_out_by_on_round_start_does_not_take_the_rounds_first_turn():
    game = rulelang.Game(rulelang.compile_source(ATTRITION, "attrition.rules"))
    m = game.new_match(3, seed=0)
    for _ in range(3):
        m.apply("pass")                                # round 1: P1, P2, P3
    assert m.view(0)["eliminated"] == [0] and m.current == 1 and m.view(1)["round"] == 2
    m.apply("pass")                                    # P2, then P3 ends round 2
    m.apply("pass")
    assert m.view(0)["eliminated"] == [0, 1] and m.is_over and m.outcome["results"] == ["lose", "lose", "win"]


def test_on_round_start_putting_everyone_out_is_said_so():
    """A review: a round start that put every player out for the round recursed into round after
    round until Python's stack gave out ("nested too deeply")."""
    source = ATTRITION.replace('if lives[current] <= 0 { eliminate current  log text(current) + " is out" }',
                               "for p in players { eliminate p until round_end }")
    assert source != ATTRITION
    game = rulelang.Game(rulelang.compile_source(source, "out.rules"))
    m = game.new_match(3, seed=0)
    m.apply("pass")
    m.apply("pass")
    with pytest.raises(rulelang.RuleRuntimeError, match="every player is eliminated"):
        m.apply("pass")
