"""`internal` keeps bookkeeping off the screen only (issue 28, docs/language.md): programs still
read it as its visibility says: `view(p)` carries it flagged `"internal": true`, interop's
observation encodes it and its observation text holds it; a `hidden, internal` value stays a
secret everywhere; the terminal shows none of it."""
from __future__ import annotations

import io
import json

import pytest

import rulelang
from rulelang.play.repl import run_repl

np = pytest.importorskip("numpy")
from rulelang.interop.core import Interface  # noqa: E402

SOURCE = """
game "Ledger" {
  players 2
  kind Chip { v: int  label "c" + text(v) }
  zone pool: pile, public
  zone aside: pile, public, internal
  zone hand: set per player, owner
  var moves: int = 0, public, internal
  var peeks: int = 0, hidden, internal
  var turns: int = 0
  setup { for v in 1..4 { create Chip(v: v) in pool }  move top(pool) to aside }
  show "Chips left" = size(pool)
  turn { step s {
    action take(c in pool) { move c to hand[me]  moves += 7  peeks += 5
                             if size(pool) == 0 { finish draw } end turn }
  } }
}
"""


@pytest.fixture(scope="module")
def game():
    return rulelang.Game(rulelang.compile_source(SOURCE, "ledger.rules"))


def test_a_view_carries_internal_values_flagged_and_keeps_a_hidden_one_secret(game):
    m = game.new_match(2, seed=1)
    m.apply("take c1")
    for p in (0, 1):
        view = m.view(p)
        values = {v["name"]: v for v in view["values"]}
        assert values["moves"] == {"name": "moves", "value": 7, "internal": True}
        assert "peeks" not in values                              # `hidden, internal`: a secret still
        aside = next(z for z in view["zones"] if z["name"] == "aside")
        assert aside["internal"] is True and [c["label"] for c in aside["cards"]] == ["c4"]
        assert {"aside", "moves"} <= set(view["internal"])     # (the list names the rules' internal names)


def test_interop_encodes_an_internal_value_and_its_observation_text_holds_it(game):
    face = Interface(game, 2)
    m = face.new_match(1)
    start = dict(face.layout)["vars"]
    before = face.observe(m, 0)
    assert before[start] == 0                                     # `moves`, the first variable
    m.apply("take c1")
    after = face.observe(m, 0)
    assert after[start] == 7
    assert [name for name, *_ in face.encoder.vars] == ["moves", "turns"]     # not `peeks`
    text = json.loads(face.view_text(m, 1))
    assert {"name": "moves", "value": 7, "internal": True} in text["values"]
    assert all(v["name"] != "peeks" for v in text["values"])


def test_the_terminal_shows_none_of_it(game):
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("take c1\n\nstatus\ntable\nquit\n"), out, "ledger.rules")
    text = out.getvalue()
    assert "Chips left: 2" in text and "turns: 0" in text
    for word in ("moves", "peeks", "aside", "internal", "c4"):
        assert word not in text, word
