"""An outcome with a reason (issue 13): `finish lose "cannot pay 15 damage"`, or the rule that
ended the game (`on stuck`, a `when` rule, the turn limit); `match.outcome["reason"]` for API users;
the REPL says why, then shows the final position and the scores."""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.play.repl import run_repl

ROOT = Path(__file__).resolve().parent.parent


def build(source: str) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(source, "r.rules"))


COUNT = """
game "Count" {
  players 2 ranked by n[me]
  var n: int = 0 per player
  var total: int = 0
  turn { step s {
    action up { n[me] += 1  total += 1  if total == 3 { finish lose for me "three is one too many for " + text(me) } end turn }
    action rest require total == 1 { finish draw }
    action tally require total == 2 { finish by score "counted: " + text(n[0]) + " to " + text(n[1]) }
  } }
  when total == 5 { finish win }
  turn limit 6 { finish draw }
}
"""


def test_a_finish_gives_its_reason_computed_when_it_runs():
    game = build(COUNT)
    m = game.new_match(2)
    for move in ("up", "up", "up"):
        m.apply(move)
    assert m.outcome == {"results": ["lose", "win"], "scores": [2, 1], "reason": "three is one too many for P1"}
    m = game.new_match(2)
    for move in ("up", "up", "tally"):
        m.apply(move)
    assert m.outcome["reason"] == "counted: 1 to 1" and m.outcome["results"] == ["draw", "draw"]


def test_a_finish_in_an_action_without_a_reason_has_none():
    m = build(COUNT).new_match(2)
    m.apply("up")
    m.apply("rest")
    assert m.outcome == {"results": ["draw", "draw"], "scores": [1, 0]}


def test_without_a_reason_the_rule_that_ended_the_game_is_named():
    game = build(COUNT.replace('"three is one too many for " + text(me)', "").replace("total == 3", "total == 30"))
    m = game.new_match(2)
    for _ in range(5):
        m.apply("up")
    assert m.outcome["reason"] == "the `when` rule of line 11 applied"
    limit = build(COUNT.replace("total == 5", "total == 50").replace("total == 3 {", "total == 30 {"))
    m = limit.new_match(2)
    for _ in range(6):
        m.apply("up")
    assert m.outcome["reason"] == "the turn limit of 6 turns was reached (the `turn limit` rule, line 12)"
    stuck = build("""
game "Stuck" {
  players 2
  turn { step s { action go require turn_count < 2 { end turn } } }
  on stuck { finish lose for me }
}""")
    m = stuck.new_match(2)
    m.apply("go")
    assert m.outcome == {"results": ["win", "lose"], "scores": None,
                         "reason": "P2 has no legal action at step `s` (the `on stuck` rule, line 5)"}


def test_a_reason_given_in_the_rule_wins_over_the_default():
    m = build("""
game "Stuck" {
  players 1
  turn { step s { action go require false { end turn } } }
  on stuck { finish lose "nothing to do" }
}""").new_match(1)
    assert m.outcome["reason"] == "nothing to do"


@pytest.mark.parametrize("source, code, message", [
    ('finish lose "x" + 3', "E201", "cannot add int to text"),
    ("finish lose 3", "E001", "unexpected"),
    ('finish lose for me', None, None),
])
def test_a_reason_is_a_text_that_starts_with_a_string(source, code, message):
    text = f'game "G" {{ players 1  turn {{ step s {{ action go {{ {source} }} }} }} }}'
    checked = rulelang.check_source(text, "g.rules")[1]
    errors = [d for d in checked if d.severity == "error"]
    if code is None:
        assert errors == []
    else:
        assert errors and errors[0].code == code and message in errors[0].message


def test_the_reason_survives_state_and_is_checked_when_restored():
    game = build(COUNT)
    m = game.new_match(2)
    for move in ("up", "up", "up"):
        m.apply(move)
    data = m.state()
    again = rulelang.Match.from_state(game, data)
    assert again.outcome == m.outcome and again.clone().outcome == m.outcome
    data["outcome"]["reason"] = ["not", "a", "text"]
    with pytest.raises(rulelang.StateError, match="reason"):
        rulelang.Match.from_state(game, data)
    data["outcome"]["reason"] = "x" * 10_000
    with pytest.raises(rulelang.StateError, match="reason"):
        rulelang.Match.from_state(game, data)


def test_a_long_computed_reason_is_cut():
    m = build("""
game "Long" { players 1  turn { step s { action go { finish lose "x" + text([c for c in 1..300]) } } } }
""").new_match(1)
    m.apply("go")
    assert len(m.outcome["reason"]) == 500 and m.outcome["reason"].endswith("…")


def finished(path: str, players: int, want: str, options=None):
    game = rulelang.load(str(ROOT / "games" / path))
    for seed in range(200):
        m = game.new_match(players, seed, options)
        rng = random.Random(seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        if want in m.outcome.get("reason", ""):
            return m
    raise AssertionError(f"no game of {path} ended with {want!r}")


def test_regicide_says_what_could_not_be_paid():
    m = finished("regicide.rules", 1, "cannot pay")
    state = m.state()
    worth = sum(state["components"][c]["fields"]["value"] for c in state["zones"]["hand"][0])
    assert m.outcome["results"] == ["lose"]
    assert m.outcome["reason"] == f"cannot pay {state['vars']['due']} damage: P1's hand is worth {worth}"
    assert worth < state["vars"]["due"]


def test_valgard_says_who_was_stuck_and_when_the_turns_ran_out():
    m = finished("valgard.rules", 2, "no winner", {"turn_limit": 6})
    assert m.outcome["reason"] == "no winner after 6 turns" and m.outcome["results"] == ["draw", "draw"]


def test_the_repl_says_why_then_the_final_position_and_the_scores():
    game = build(COUNT)
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("up\n\nup\n\nup\n"), out, None)
    text = out.getvalue()
    tail = text[text.index("Game over"):]
    lines = tail.splitlines()
    assert lines[0] == "Game over: P2 wins. Why: three is one too many for P1"
    assert lines[1] == "== Count · game over · you are P1"          # (no "P1's turn" once it is over)
    assert "n: P1 2, P2 1" in tail
    assert tail.rstrip().endswith("Result:\n  P1 (human): lose, score 2\n  P2 (human): win, score 1")


def test_the_repl_names_the_last_move_when_the_rules_give_no_reason():
    out = io.StringIO()
    run_repl(build(COUNT), 2, 1, {}, {}, io.StringIO("up\nrest\n"), out, None)
    assert "Game over: a draw. The last move: P2 plays: rest\n" in out.getvalue()
