"""Interrupts (`anytime` actions used out of turn: `Match.interrupts(p)`, texts `P3: reveal`), the
`always` choice flag (a forced choice still asked), abilities of cards a player cannot see shown as
"a hidden card's ability" (trigger order, `view(p)["choice"]["running"]`), and the REPL's `as P3`.
Every game is a small made-up one written inline."""
from __future__ import annotations

import io
import json

import pytest

import rulelang
from rulelang.core.errors import IllegalAction
from rulelang.play.repl import run_repl

from interaction_helpers import build, play, texts, var

HIDDEN = "a hidden card's ability"


def offers(m, p) -> list[str]:
    return [a.text for a in m.interrupts(p)]


def roundtrip(game, m) -> rulelang.Match:
    return type(m).from_state(game, json.loads(json.dumps(m.state())))


# ---- interrupts in a game whose effects never pause -------------------------------------------
MASKS = """
game "Masks" {
  players 2..4
  var shown: list[player] = []
  var score: int = 0 per player, public
  turn limit 20 { finish draw }
  anytime action reveal require not (me in shown) { append me to shown }
  anytime action bump(n in [1, 2]) require me != current { score[me] += n }
  anytime action seize require me in shown and me != current { end turn to me }
  anytime action hurry require me in shown and me != current { end turn }
  anytime action detour require me in shown and me != current { goto other }
  anytime action resign require me in shown and me != current { finish win for current }
  turn {
    step main {
      action pass { end turn }
      action wait { goto other }
    }
    step other by next(current) { action back { goto main } }
  }
}
"""

PLAIN = """
game "Plain" {
  players 3
  var n: int = 0
  turn limit 20 { finish draw }
  turn { step main { action pass { n += 1 end turn } } }
}
"""


@pytest.fixture(scope="module")
def masks():
    return build(MASKS)


def test_every_player_but_the_actor_is_offered_the_anytime_actions_with_their_seat(masks):
    m = masks.new_match(3, seed=1)
    assert not masks.can_pause
    assert m.current_player == 0 and m.step == "main"
    assert texts(m) == ["pass", "wait", "reveal"]           # the actor: the old behaviour, no prefix
    assert offers(m, 0) == []
    assert offers(m, 1) == ["P2: reveal", "P2: bump 1", "P2: bump 2"]
    assert offers(m, 2) == ["P3: reveal", "P3: bump 1", "P3: bump 2"]
    for bad in (3, -1, 9, True, "1", None):                  # not a seat of this match: as view() says
        with pytest.raises(ValueError, match="no player .* in a 3-player match"):
            m.interrupts(bad)
    assert all(isinstance(a, rulelang.Action) for a in m.interrupts(1))
    assert texts(m) == ["pass", "wait", "reveal"] and m.log == []     # listing changed nothing


def test_an_interrupt_applied_by_text_leaves_the_same_player_to_act(masks):
    m = masks.new_match(3, seed=1)
    before = texts(m)
    m.apply("P3: reveal")
    assert var(m, "shown") == [2] and m.log == ["P3: reveal"]
    assert m.current_player == 0 and m.current == 0 and m.step == "main" and m.turn_count == 1
    assert texts(m) == before
    # its `require` is read with `me` = P3: no second reveal, the shown-only actions appear
    assert offers(m, 2) == ["P3: bump 1", "P3: bump 2", "P3: seize", "P3: hurry", "P3: detour", "P3: resign"]
    assert offers(m, 1) == ["P2: reveal", "P2: bump 1", "P2: bump 2"]
    assert offers(m, 0) == []


def test_an_interrupt_applied_as_an_action_object(masks):
    m = masks.new_match(4, seed=1)
    action = m.interrupts(3)[2]
    assert action.text == "P4: bump 2"
    m.apply(action)
    assert var(m, "score") == [0, 0, 0, 2] and m.log == ["P4: bump 2"]
    assert m.current_player == 0 and m.step == "main"
    m.apply(m.interrupts(1)[1])
    assert var(m, "score") == [0, 1, 0, 2] and m.log == ["P4: bump 2", "P2: bump 1"]
    assert m.current_player == 0


def test_the_actor_uses_the_anytime_action_as_before_without_a_prefix(masks):
    m = masks.new_match(3, seed=1)
    m.apply("reveal")
    assert var(m, "shown") == [0] and m.current_player == 0 and m.log == ["reveal"]
    assert texts(m) == ["pass", "wait"]
    m.apply("wait")                                          # P2 acts at `other` in P1's turn
    assert m.step == "other" and m.current_player == 1 and m.current == 0
    assert texts(m) == ["back", "reveal", "bump 1", "bump 2"]
    # now P1, whose turn it is, is not the actor: P1 may interrupt (P1 is shown, it is P1's turn)
    assert offers(m, 0) == [] and offers(m, 1) == []
    assert offers(m, 2) == ["P3: reveal", "P3: bump 1", "P3: bump 2"]
    m.apply("P3: bump 1")
    assert m.step == "other" and m.current_player == 1 and var(m, "score") == [0, 0, 1]


def test_the_turn_player_may_interrupt_when_another_player_acts(masks):
    m = masks.new_match(3, seed=1)
    m.apply("wait")
    assert m.current_player == 1
    assert offers(m, 0) == ["P1: reveal"]                    # bump and the rest need me != current
    m.apply("P1: reveal")
    assert var(m, "shown") == [0] and m.step == "other" and m.current_player == 1


def test_goto_in_an_interrupt_moves_the_flow(masks):
    m = masks.new_match(3, seed=1)
    play(m, "P3: reveal", "P3: detour")
    assert m.step == "other" and m.current == 0 and m.current_player == 1     # `by next(current)`
    assert m.turn_count == 1 and m.log == ["P3: reveal", "P3: detour"]
    assert texts(m) == ["back", "reveal", "bump 1", "bump 2"]
    m.apply("back")
    assert m.step == "main" and m.current_player == 0


def test_end_turn_in_an_interrupt_ends_the_turn_of_whose_turn_it_is(masks):
    m = masks.new_match(3, seed=1)
    play(m, "P3: reveal", "P3: hurry")
    assert m.current == 1 and m.current_player == 1 and m.turn_count == 2 and m.step == "main"
    m = masks.new_match(3, seed=1)
    play(m, "P3: reveal", "P3: seize")                       # `end turn to me`
    assert m.current == 2 and m.current_player == 2 and m.turn_count == 2
    assert offers(m, 2) == [] and offers(m, 0) == ["P1: reveal", "P1: bump 1", "P1: bump 2"]


def test_finish_in_an_interrupt_ends_the_game_and_no_more_interrupts(masks):
    m = masks.new_match(3, seed=1)
    play(m, "P2: reveal", "P2: resign")
    assert m.is_over and m.outcome["results"] == ["win", "lose", "lose"] and m.current_player is None
    assert all(m.interrupts(p) == [] for p in range(3))
    with pytest.raises(IllegalAction):
        m.apply("P3: reveal")


@pytest.mark.parametrize("bad", ["P9: reveal", "P1: reveal", "P0: reveal", "P4: reveal", "P2: nonsense",
                                 "P2: bump 3", "P2:reveal", "p2: reveal", "P02: reveal", "P2 reveal",
                                 "P3: seize", ": reveal", "P: reveal", "bump 1", "seize",
                                 "P\u00b2: reveal", "P" + "9" * 5000 + ": reveal"])
def test_an_illegal_interrupt_raises_and_changes_nothing(masks, bad):
    m = masks.new_match(3, seed=1)
    before = m.state()
    with pytest.raises(IllegalAction):
        m.apply(bad)
    assert m.state() == before and m.current_player == 0 and texts(m) == ["pass", "wait", "reveal"]


def test_an_interrupt_that_no_longer_holds_is_illegal(masks):
    m = masks.new_match(3, seed=1)
    stale = m.interrupts(2)[0]
    m.apply(stale)
    with pytest.raises(IllegalAction):
        m.apply(stale)                                       # P3 has revealed: `require` fails now
    with pytest.raises(IllegalAction):
        m.apply("P3: reveal")
    assert var(m, "shown") == [2] and m.log == ["P3: reveal"]


def test_a_game_without_anytime_actions_has_no_interrupts():
    game = build(PLAIN)
    m = game.new_match(3, seed=1)
    assert [offers(m, p) for p in range(3)] == [[], [], []]
    for bad in ("P2: pass", "P1: pass"):
        with pytest.raises(IllegalAction):
            m.apply(bad)
    assert var(m, "n") == 0 and m.log == []


def test_state_from_state_and_clone_after_interrupts(masks):
    m = masks.new_match(3, seed=1)
    play(m, "P3: reveal", "P2: bump 2", "pass", "P3: bump 1")
    s = m.state()
    assert s["log"] == ["P3: reveal", "P2: bump 2", "pass", "P3: bump 1"]
    assert s["actor"] == 1 and s["current"] == 1 and s["step"] == "main"
    assert s["vars"] == {"shown": [2], "score": [0, 2, 1]}
    r = roundtrip(masks, m)
    assert r.state() == s and r.current_player == 1 and texts(r) == texts(m)
    assert [offers(r, p) for p in range(3)] == [offers(m, p) for p in range(3)]
    c = m.clone()
    c.apply("P3: seize")
    assert c.current == 2 and m.current == 1 and m.state() == s          # the original is untouched
    for x in (m, r):
        x.apply("P3: seize")
        assert x.state() == c.state()


def test_the_same_seed_and_interrupts_give_the_same_match(masks):
    moves = ["P2: bump 1", "P3: reveal", "wait", "P1: reveal", "back", "P3: hurry", "P1: bump 2", "pass"]
    a, b = masks.new_match(3, seed=5), masks.new_match(3, seed=5)
    play(a, *moves)
    play(b, *moves)
    assert a.state() == b.state() and a.log == moves
    assert a.current == 2 and a.current_player == 2 and var(a, "score") == [2, 1, 0]   # P3 hurried P1 on


# ---- interrupts in a game whose effects pause --------------------------------------------------
PEEK = """
game "Peek" {
  players 3
  event shout(p: player)
  var shown: list[player] = []
  var trail: list[int] = []
  turn limit 20 { finish draw }
  on shout(p) { append 100 + p to trail }
  anytime action reveal require not (me in shown) { append me to shown emit shout(me) }
  anytime action peek require me != current {
    may prompt "peek?" { append 10 + me to trail } else { append 20 + me to trail }
  }
  anytime action accuse require me != current {
    choose x in [1, 2] by current prompt "plead" { append x * 1000 + me to trail }
  }
  anytime action dice require me != current { append roll(100) to trail }
  turn {
    step main {
      action pass { end turn }
      action ask { choose x in [3, 4] prompt "which?" { append x to trail } end turn }
    }
  }
}
"""


@pytest.fixture(scope="module")
def peek():
    return build(PEEK)


def test_interrupts_in_a_game_that_can_pause(peek):
    m = peek.new_match(3, seed=1)
    assert peek.can_pause
    assert texts(m) == ["pass", "ask", "reveal"]
    assert offers(m, 0) == []
    assert offers(m, 1) == ["P2: reveal", "P2: peek", "P2: accuse", "P2: dice"]
    m.apply("P2: reveal")                                    # its trigger runs with me = P2
    assert var(m, "shown") == [1] and var(m, "trail") == [101] and m.pending is None
    assert m.current_player == 0 and m.log == ["P2: reveal"]
    assert offers(m, 1) == ["P2: peek", "P2: accuse", "P2: dice"]


def test_a_may_in_an_interrupt_asks_the_interrupting_player_then_the_actor_is_back(peek):
    m = peek.new_match(3, seed=1)
    m.apply("P2: peek")
    assert m.current_player == 1 and m.current == 0 and m.step == "main"
    assert m.question == {"chooser": 1, "prompt": "peek?", "kind": "may", "options": ["yes", "no"],
                          "stack": [], "triggers": []}
    assert texts(m) == ["yes", "no"] and m.log == ["P2: peek"]
    assert m.state()["pending"]["root"] == ["action", "P2: peek"] and m.state()["actor"] == 1
    assert m.view(1)["choice"]["options"] == ["yes", "no"] and m.view(0)["choice"]["options"] is None
    assert m.view(0)["actor"] == 1
    # a paused effect may be interrupted too, by anyone (docs/language.md, "Acting out of turn")
    assert offers(m, 0) == ["P1: reveal"]
    assert offers(m, 1) == offers(m, 2)[:0] + ["P2: reveal", "P2: peek", "P2: accuse", "P2: dice"]
    m.apply("yes")
    assert m.pending is None and m.question is None and var(m, "trail") == [11]
    assert m.current_player == 0 and m.step == "main" and m.turn_count == 1
    assert m.log == ["P2: peek", "yes"] and texts(m) == ["pass", "ask", "reveal"]
    m = peek.new_match(3, seed=1)
    play(m, "P3: peek", "no")
    assert var(m, "trail") == [22] and m.current_player == 0


def test_a_choice_by_another_player_in_an_interrupt(peek):
    m = peek.new_match(3, seed=1)
    m.apply("P3: accuse")                                    # P1, whose turn it is, must plead
    assert m.question["chooser"] == 0 and m.question["prompt"] == "plead" and m.current_player == 0
    assert texts(m) == ["1", "2"] and offers(m, 0) == ["P1: reveal"] and offers(m, 2)[0] == "P3: reveal"
    m.apply("2")
    assert var(m, "trail") == [2002] and m.current_player == 0 and m.pending is None
    assert texts(m) == ["pass", "ask", "reveal"] and offers(m, 2)[0] == "P3: reveal"


def test_an_interrupt_while_an_effect_waits_runs_inside_it_then_the_question_is_asked_again(peek):
    m = peek.new_match(3, seed=1)
    m.apply("ask")
    question = m.question
    assert question["chooser"] == 0 and question["prompt"] == "which?"
    assert offers(m, 0) == ["P1: reveal"]                    # the player asked, too
    assert offers(m, 1) == ["P2: reveal", "P2: peek", "P2: accuse", "P2: dice"]
    m.apply("P2: reveal")                                    # its trigger runs inside the waiting effect
    assert var(m, "shown") == [1] and var(m, "trail") == [101]
    assert m.question == question and m.current_player == 0 and texts(m) == ["3", "4"]
    m.apply("P1: reveal")
    assert var(m, "shown") == [1, 0] and var(m, "trail") == [101, 100] and m.question == question
    assert offers(m, 0) == [] and offers(m, 1)[0] == "P2: peek"
    m.apply("4")
    assert var(m, "trail") == [101, 100, 4] and m.current_player == 1 and m.pending is None
    assert m.log == ["ask", "P2: reveal", "P1: reveal", "4"]


def test_an_interrupt_with_its_own_question_inside_a_waiting_effect(peek):
    m = peek.new_match(3, seed=1)
    play(m, "ask", "P3: peek")                               # P3's question first, then P1's again
    assert m.question["chooser"] == 2 and m.question["prompt"] == "peek?" and m.current_player == 2
    assert offers(m, 0) == ["P1: reveal"]
    play(m, "P1: reveal", "no")
    assert m.question["prompt"] == "which?" and m.current_player == 0
    play(m, "3")
    assert var(m, "trail") == [100, 22, 3] and m.current_player == 1
    m = peek.new_match(3, seed=1)
    play(m, "ask", "P2: accuse")                             # a question to the player asked already
    assert m.question["chooser"] == 0 and m.question["prompt"] == "plead"
    play(m, "1", "3")
    assert var(m, "trail") == [1001, 3] and m.current_player == 1


def test_an_interrupt_inside_a_waiting_effect_replays_saves_and_fails_cleanly(peek):
    moves = ["ask", "P2: dice", "P3: peek", "yes", "P2: reveal", "4"]
    a, b = peek.new_match(3, seed=5), peek.new_match(3, seed=5)
    for i, move in enumerate(moves):
        a.apply(move)
        r = roundtrip(peek, a)                               # a save after each, restored
        assert r.state() == a.state() and r.question == a.question
        b = roundtrip(peek, b) if i % 2 else b
        b.apply(move)
        assert b.state() == a.state()
    assert a.log == moves and var(a, "trail")[1:] == [12, 101, 4] and 1 <= var(a, "trail")[0] <= 100
    m = peek.new_match(3, seed=1)
    m.apply("ask")
    m.apply("P2: reveal")
    before = m.state()
    for bad in ("P2: reveal", "P1: peek", "P4: reveal", "reveal", "pass", "P2: 4"):
        with pytest.raises(IllegalAction):
            m.apply(bad)
        assert m.state() == before


CUT = """
game "Cut" {
  players 2
  var trail: list[int] = []
  turn limit 20 { finish draw }
  anytime action resign require me != current { finish win for current }
  anytime action skip require me != current { end turn }
  turn {
    step main {
      action ask { choose x in [3, 4] prompt "which?" { append x to trail } append 9 to trail end turn }
    }
  }
}
"""


def test_an_interrupt_that_moves_the_flow_ends_the_waiting_effect():
    game = build(CUT)
    m = game.new_match(2, seed=1)
    m.apply("ask")
    m.apply("P2: skip")                                      # the rest of `ask` never runs
    assert m.pending is None and var(m, "trail") == [] and m.current_player == 1
    assert m.log == ["ask", "P2: skip"] and texts(m) == ["ask"]
    assert roundtrip(game, m).state() == m.state()
    m.apply("ask")
    m.apply("P1: resign")
    assert m.result is not None and m.pending is None and var(m, "trail") == []
    assert m.result["results"] == ["lose", "win"]              # P2, whose turn it was, wins


def test_a_paused_interrupt_survives_from_state_and_clone(peek):
    m = peek.new_match(3, seed=1)
    play(m, "P3: dice", "P2: peek")
    r, c = roundtrip(peek, m), m.clone()
    assert r.state() == m.state() and r.question == m.question and r.current_player == 1
    for x in (m, r, c):
        x.apply("yes")
        assert x.current_player == 0 and x.pending is None
    assert r.state() == m.state() == c.state()
    assert m.log == ["P3: dice", "P2: peek", "yes"] and var(m, "trail")[1:] == [11]


def test_dice_in_interrupts_are_deterministic(peek):
    moves = ["P2: dice", "P3: peek", "yes", "pass", "P1: dice", "P3: dice", "P1: accuse", "1"]
    a, b = peek.new_match(3, seed=7), peek.new_match(3, seed=7)
    play(a, *moves)
    play(b, *moves)
    assert a.state() == b.state() and a.log == moves
    assert a.current_player == 1 and len(var(a, "trail")) == 5
    trail = var(a, "trail")
    assert trail[1] == 12 and trail[4] == 1000 and all(1 <= x <= 100 for x in (trail[0], trail[2], trail[3]))
    c = peek.new_match(3, seed=7)
    play(c, *moves[:4])
    c = roundtrip(peek, c)                                   # a restored match goes on the same way
    play(c, *moves[4:])
    assert c.state() == a.state()


# ---- choose … always --------------------------------------------------------------------------
ALWAYS = """
game "Always" {
  players 2
  kind Card { label card }
  zone table: pile, public
  zone pile: pile, public
  var notes: list[text] = []
  turn limit 20 { finish draw }
  card Card "Bell" { }
  card Card "Gong" { }
  setup {
    create cards Card where card == "Bell" in table
    create cards Card where card == "Gong" in pile
  }
  turn {
    step main {
      action plain { choose c in table prompt "pick" { append c.card to notes } }
      action ask { choose c in table always prompt "pick" { append c.card to notes } }
      action yours { choose c in table by next(me) always prompt "yours" { append c.card to notes } }
      action empty { choose c in pile where c.card == "Bell" always { append "no" to notes } else { append "else" to notes } }
      action sub { choose cs subset of table size 1 prompt "some" { for c in cs { append c.card to notes } } }
      action subask { choose cs subset of table size 1 always prompt "some" { for c in cs { append c.card to notes } } }
      action seq { choose cs order of table + pile size 2 prompt "seq" { for c in cs { append c.card to notes } } }
      action seqask { choose cs order of table + pile size 2 always prompt "seq" { for c in cs { append c.card to notes } } }
      action stop { finish draw }
    }
  }
}
"""


@pytest.fixture(scope="module")
def always():
    return build(ALWAYS)


def test_a_forced_choice_is_taken_without_asking_by_default(always):
    m = always.new_match(2, seed=1)
    m.apply("plain")
    assert m.pending is None and var(m, "notes") == ["Bell"] and m.log == ["plain"]


def test_always_asks_a_forced_choice(always):
    m = always.new_match(2, seed=1)
    m.apply("ask")
    assert m.question == {"chooser": 0, "prompt": "pick", "kind": "one", "options": ["Bell"],
                          "stack": [], "triggers": []}
    assert texts(m) == ["Bell"] and var(m, "notes") == []
    r = roundtrip(always, m)
    m.apply("Bell")
    assert m.pending is None and var(m, "notes") == ["Bell"] and m.log == ["ask", "Bell"]
    r.apply("Bell")
    assert r.state() == m.state()


def test_always_asks_another_chooser_too(always):
    m = always.new_match(2, seed=1)
    m.apply("yours")
    assert m.question["chooser"] == 1 and m.current_player == 1 and m.question["options"] == ["Bell"]
    assert m.view(0)["choice"]["options"] is None
    m.apply("Bell")
    assert var(m, "notes") == ["Bell"] and m.current_player == 0


def test_always_with_nothing_to_choose_asks_nothing(always):
    m = always.new_match(2, seed=1)
    m.apply("empty")
    assert m.pending is None and var(m, "notes") == ["else"]


def test_always_in_a_subset_and_an_order(always):
    m = always.new_match(2, seed=1)
    m.apply("sub")                                           # the only subset of size 1: taken
    assert m.pending is None and var(m, "notes") == ["Bell"]
    m = always.new_match(2, seed=1)
    m.apply("subask")
    assert m.question["kind"] == "subset" and texts(m) == ["Bell"]
    m.apply("Bell")
    assert m.pending is None and var(m, "notes") == ["Bell"]
    # an order of two: the first pick is a real choice either way; the last one is forced
    m = always.new_match(2, seed=1)
    m.apply("seq")
    assert m.question["kind"] == "order" and texts(m) == ["Bell", "Gong"]
    m.apply("Gong")
    assert m.pending is None and var(m, "notes") == ["Gong", "Bell"] and m.log == ["seq", "Gong"]
    m = always.new_match(2, seed=1)
    m.apply("seqask")
    assert texts(m) == ["Bell", "Gong"]
    m.apply("Gong")
    assert m.question["kind"] == "order" and texts(m) == ["Bell"]          # asked although forced
    m.apply("Bell")
    assert m.pending is None and var(m, "notes") == ["Gong", "Bell"] and m.log == ["seqask", "Gong", "Bell"]


# ---- abilities of cards the chooser cannot see -------------------------------------------------
CHIMES = """
game "Chimes" {
  players 2
  kind Card { label card }
  zone deck: pile per player, hidden
  zone hand: set per player, owner
  zone table: set, public
  event rung()
  event tolled()
  var notes: list[text] = []
  var orderer: player = 0
  order triggers by orderer
  turn limit 20 { finish draw }
  on rung() { append "top" to notes }
  card Card "Bell" { on rung() from anywhere { append "bell" to notes }
                     on tolled() from anywhere { may by 1 prompt "toll?" { append "toll" to notes } } }
  card Card "Gong" { on rung() from anywhere { append "gong" to notes } }
  card Card "Horn" { on rung() from anywhere { may prompt "blow?" { append "horn" to notes } }
                     on tolled() from anywhere { may prompt "blow?" { append "blast" to notes } } }
  card Card "Drum" { on rung() from anywhere { append "drum" to notes } }
  setup {
    create cards Card where card == "Bell" in table
    create cards Card where card == "Gong" in deck[0]
    create cards Card where card == "Horn" in hand[1]
    create cards Card where card == "Drum" in deck[1]
  }
  turn {
    step main {
      action ring { emit rung() end turn }
      action toll { emit tolled() end turn }
      action swap { orderer = 1 }
      action look { reveal hand[1] to me }
    }
  }
}
"""


@pytest.fixture(scope="module")
def chimes():
    return build(CHIMES)


def test_the_abilities_of_cards_some_player_cannot_see_run_first_unasked(chimes):
    m = chimes.new_match(2, seed=1)
    assert m.state()["zones"] == {"deck": [[1], [3]], "hand": [[], [2]], "table": [0]}
    m.apply("ring")
    # the Bell lies on the public table, the top-level trigger has no card; the Gong and the Drum
    # lie in hidden decks, the Horn in P2's own hand: those three run first, in the order they were
    # set off, unasked (a leak scan: a question with "a hidden card's ability" among its options
    # told every seat that a hidden card had reacted, and an answer naming one's own hand card
    # was logged for all) — the Gong, then the Horn, whose controller P2 is asked
    assert var(m, "notes") == ["gong"]
    assert m.question["chooser"] == 1 and m.question["prompt"] == "blow?"
    assert m.view(0)["choice"]["running"] == [{"effect": HIDDEN, "source": None, "controller": 1}]
    m.apply("yes")
    assert var(m, "notes") == ["gong", "horn", "drum"]
    q = m.question
    assert q["chooser"] == 0 and q["kind"] == "order" and q["prompt"] == "which ability resolves first"
    assert texts(m) == q["options"] == ["rung", "Bell: rung"] and q["triggers"] == ["rung", "Bell: rung"]
    r = roundtrip(chimes, m)
    m.apply("Bell: rung")
    assert m.pending is None and var(m, "notes") == ["gong", "horn", "drum", "bell", "top"]
    assert m.log == m.log_for(0) == m.log_for(1) == ["ring", "yes", "Bell: rung"]
    r.apply("Bell: rung")
    assert r.state() == m.state()


def test_the_chooser_orders_the_abilities_of_cards_every_player_sees(chimes):
    m = chimes.new_match(2, seed=1)
    play(m, "swap", "ring", "yes")                           # P2 orders what is left
    assert m.question["chooser"] == 1 and texts(m) == ["rung", "Bell: rung"]
    m = chimes.new_match(2, seed=1)
    play(m, "look", "ring")                                  # P2's hand was revealed to P1: the Horn is seen
    assert m.state()["known"] == {"2": {"zone": ["hand", 1], "to": [0]}}
    assert var(m, "notes") == ["gong", "drum"]               # the decks' cards first, unasked
    assert m.question["chooser"] == 0 and texts(m) == ["rung", "Bell: rung", "Horn: rung"]
    play(m, "Horn: rung", "no")
    assert m.question["chooser"] == 0 and texts(m) == ["rung", "Bell: rung"]


def test_a_running_ability_of_a_hidden_card_is_not_named_in_the_view(chimes):
    m = chimes.new_match(2, seed=1)
    m.apply("toll")                                          # the Horn (P2's hand) first, unasked
    horn = [{"effect": "Horn: tolled", "source": 2, "controller": 1}]
    assert m.question["chooser"] == 1 and m.question["prompt"] == "blow?" and m.question["stack"] == horn
    assert m.state()["pending"]["stack"] == horn                            # the true names
    assert m.view(1)["choice"]["running"] == horn                           # P2 holds the Horn
    assert m.view(0)["choice"] == {"chooser": 1, "prompt": "blow?", "kind": "may", "options": None,
                                   "running": [{"effect": HIDDEN, "source": None, "controller": 1}]}
    assert roundtrip(chimes, m).view(0)["choice"]["running"][0]["effect"] == HIDDEN
    m.apply("yes")
    bell = [{"effect": "Bell: tolled", "source": 0, "controller": 0}]       # a public card: named to everyone
    assert m.question["chooser"] == 1 and m.question["prompt"] == "toll?" and m.question["stack"] == bell
    assert m.view(0)["choice"]["running"] == bell and m.view(1)["choice"]["running"] == bell
    m.apply("no")
    assert var(m, "notes") == ["blast"] and m.pending is None and "choice" not in m.view(0)


def test_a_revealed_card_s_running_ability_is_named(chimes):
    m = chimes.new_match(2, seed=1)
    play(m, "look", "toll", "Bell: tolled", "no")
    assert m.view(0)["choice"]["running"] == [{"effect": "Horn: tolled", "source": 2, "controller": 1}]


# ---- the REPL: `as P3` -----------------------------------------------------------------------
SECRET = """
game "Secret" {
  players 2..3
  var shown: list[player] = []
  var peeks: int = 0
  var secret: int = 0 per player, owner
  turn limit 3 { finish draw }
  setup { for p in players { secret[p] = 7 + p } }
  anytime action reveal require not (me in shown) { append me to shown log text(me) + " is " + text(secret[me]) }
  anytime action peek require me != current and not (me in shown) { may prompt "peek?" { peeks += 1 } }
  turn {
    step main {
      action pass { end turn }
      action stop { finish draw }
    }
  }
}
"""


@pytest.fixture(scope="module")
def secret():
    return build(SECRET)


def repl(game, lines, bots=None, players=3):
    out = io.StringIO()
    code = run_repl(game, players, 1, {}, bots or {}, io.StringIO("".join(line + "\n" for line in lines)),
                    out, "x.rules")
    return code, out.getvalue()


HINT = "  (out of turn, P3 may act, if allowed: reveal or peek; type as P3)"   # (the rules' any-time actions, never what P3 could do now)


def test_repl_as_errors_for_a_bot_the_actor_and_a_bad_seat(secret):
    code, out = repl(secret, ["as P2", "as P1", "as P9", "as P0", "as", "as x", "as P\u00b2", "quit"], bots={1: "random"})
    assert code == 0
    assert HINT + "\nP1> as P2\nerror: P2 is a bot\n" in out
    assert "P1> as P1\nerror: P1 is the one to act now\n" in out
    for typed in ("as P9", "as P0", "as", "as x", "as P\u00b2"):
        assert f"P1> {typed}\nerror: as needs a seat, P1-P3\n" in out
    assert "Pass the terminal" not in out and "you are P3" not in out


def test_repl_as_hands_over_and_back_returns_the_terminal(secret):
    code, out = repl(secret, ["as p3", "", "back", "", "quit"], bots={1: "random"})
    assert code == 0
    p3 = out[out.index("P1> as p3"):]
    assert p3.index("Pass the terminal to P3 and press Enter") < p3.index("you are P3")
    screen = p3[p3.index("you are P3"):p3.index("P3 (out of turn)> back")]
    assert "secret: P1 -, P2 -, P3 9" in screen                               # P3's own view
    assert "\n  1. reveal\n  2. peek\n  (or back: nothing now)\n" in screen   # no `P3: ` prefix
    assert "P3: " not in screen and "pass" not in screen
    after = p3[p3.index("P3 (out of turn)> back"):]
    assert after.index("Pass the terminal to P1 and press Enter") < after.index("you are P1")
    assert "secret: P1 7, P2 -, P3 -" in after and "plays" not in after


def test_repl_an_interrupt_is_played_and_announced_and_the_actor_goes_on(secret):
    code, out = repl(secret, ["as P3", "", "reveal", "", "log", "stop"], bots={1: "random"})
    assert code == 0
    assert "P3 (out of turn)> reveal\nP3 plays: reveal\n  > P3 is 9\n" in out
    back = out[out.index("P3 plays: reveal"):]
    assert "Pass the terminal to P1 and press Enter" in back
    tail = back[back.index("you are P1"):]
    assert "shown: P3" in tail and HINT in tail
    assert "P1> log\n  1. P3: reveal\n       > P3 is 9\nP1> stop\nP1 plays: stop\n" in tail    # (issue 28: what it told)
    assert "Game over" in tail


def test_repl_an_interrupt_by_number_and_its_choice(secret):
    code, out = repl(secret, ["as P3", "", "2", "yes", "", "as P3", "", "", "", "quit"], bots={1: "random"})
    assert code == 0
    assert "P3 (out of turn)> 2\nP3 plays: peek\n" in out
    after = out[out.index("P3 plays: peek"):]
    # P3 answers the question at once (the same seat: no hand-over), then P1 is to act again
    assert after.index("you must choose: peek?") < after.index("P3> yes\nP3 chooses: yes")
    assert "Pass the terminal to P3" not in after[:after.index("P3> yes")]
    rest = after[after.index("P3 chooses: yes"):]
    assert rest.index("Pass the terminal to P1") < rest.index("you are P1") < rest.index("peeks: 1")
    assert "P1> as P3" in rest


def test_repl_as_with_nothing_to_offer(secret):
    code, out = repl(secret, ["as P3", "", "reveal", "", "as P3", "", "", "", "quit"], bots={1: "random"})
    assert code == 0
    assert out.count("P3 (out of turn)>") == 1                              # once P3 has revealed: nothing
    second = out[out.rindex("P1> as P3"):]
    assert "shown: P3" in second
    assert "P3 has nothing to do out of turn now.\nPress Enter to give the terminal back \n" in second
    assert second.index("Press Enter to give") < second.index("Pass the terminal to P1") < second.index("P1> quit")


def test_repl_no_hint_without_another_human_or_anytime_actions(secret):
    code, out = repl(secret, ["quit"], bots={1: "random", 2: "random"})
    assert code == 0 and "out of turn" not in out
    code, out = repl(build(PLAIN), ["as P2", "quit"])
    assert "out of turn: as" not in out
    # (a game with no any-time action says so at once: no hand-over, no P2's hand shown for nothing)
    assert "error: this game has no actions out of turn (`as` is for its any-time actions)" in out
    assert "Pass the terminal" not in out


def test_repl_as_without_a_hand_over_when_the_views_are_alike(masks):
    code, out = repl(masks, ["as P2", "bump 2", "quit"])
    assert code == 0
    assert "Pass the terminal" not in out
    assert "P2 (out of turn)> bump 2\nP2 plays: bump 2\n" in out
    assert "score: P1 0, P2 2, P3 0" in out[out.index("P2 plays: bump 2"):]


def test_repl_out_of_turn_a_player_may_read_help_and_cards_and_act_with_as_seat_action(secret):
    """A new user's first hour: `help` and `rules` at the out-of-turn prompt were refused (`'help'
    is not a legal action or a command (did you mean help?)`), and `as P3 reveal` was no seat."""
    code, out = repl(secret, ["as P3", "", "help", "undo", "back", "", "as P3 reveal", "", "quit"],
                     bots={1: "random"})
    assert code == 0
    assert "P3 (out of turn)> help\nChoose an action by its number" in out
    assert "P3 (out of turn)> undo\nerror: `undo` is for the player to act: type back first\n" in out
    assert "not a legal action or a command" not in out
    assert "P3 (out of turn)> reveal\nP3 plays: reveal\n  > P3 is 9\n" in out


HIDDEN_HANDS = """game "Hidden Hands" {
  players 2
  kind Card { value: int  label "card " + text(value) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  var waves: int = 0 per player, public
  setup {
    for v in 1..20 { create Card(value: v) in deck }
    shuffle deck
    for p in players { repeat 3 { move top(deck) to hand[p] } }
  }
  anytime action wave require me != current and waves[me] < 1 { waves[me] += 1 }
  turn limit 10 { finish draw }
  turn { step main { action play(c in hand[me]) as "play " + text(c) { move c to table  end turn } } }
}"""


def test_out_of_turn_help_names_none_of_the_actors_actions_and_as_with_nothing_to_do_plays_nothing():
    """A review: `help play` at P2's out-of-turn prompt ended "legal now: play card 5, …" — P1's
    secret hand; and `as P2 1` with nothing for P2 to do left `1` to be played as P1's move."""
    game = rulelang.Game(rulelang.compile_source(HIDDEN_HANDS, "hands.rules"))
    out = io.StringIO()
    lines = ["as P2", "", "help play", "wave", "", "as P2 1", "", "", "quit"]
    run_repl(game, 2, 1, {}, {}, io.StringIO("".join(x + "\n" for x in lines)), out, "hands.rules")
    text = out.getvalue()
    helped = text.split("P2 (out of turn)> help play\n")[1].split("P2 (out of turn)>")[0]
    assert "play C (at step main)" in helped and "legal now" not in helped and "card" not in helped
    after = text.split("P1> as P2 1\n")[1]
    assert "P2 has nothing to do out of turn now." in after and "P1 plays" not in after


IMPS = """
game "Imps" {
  players 3
  kind Card { label card }
  zone table: set per player, public
  event struck()
  var notes: list[text] = []
  turn limit 20 { finish draw }
  card Card "Imp" { on struck() from table { append text(me) to notes } }
  card Card "Elf" { on struck() from table { append "elf" to notes } }
  setup {
    for p in [0, 1] { create cards Card where card == "Imp" in table[p] }
    create cards Card where card == "Imp" in table[1]
    create cards Card where card == "Elf" in table[2]
  }
  turn { step main { action strike { emit struck() end turn } } }
}
"""


def test_copies_of_different_players_abilities_are_told_apart_by_whose_they_are():
    """A rules trial: the order question read `Gremlin: destroyed`, `Gremlin: destroyed #2` — P2's
    and P3's, no telling which — and named no card for `look`. Whose each is is said; the same
    ability of alike cards of one player is ordered no more (nothing tells them apart)."""
    game = build(IMPS)
    m = game.new_match(3, seed=1)
    m.apply("strike")
    q = m.question
    assert q["kind"] == "order" and texts(m) == ["Imp: struck (P1)", "Imp: struck (P2)", "Imp: struck (P2) #2",
                                                 "Elf: struck"]
    assert m.option_components() == {"Imp: struck (P1)": 0, "Imp: struck (P2)": 1, "Imp: struck (P2) #2": 2,
                                     "Elf: struck": 3}
    play(m, "Imp: struck (P2)", "Elf: struck")
    # left: P1's Imp and P2's second one, told apart; then P2's alone, not asked
    assert texts(m) == ["Imp: struck (P1)", "Imp: struck (P2)"]
    m.apply("Imp: struck (P2)")
    assert m.pending is None and var(m, "notes") == ["P2", "elf", "P2", "P1"]
    # a save of an older engine, whose answers read `Imp: struck #2`, still loads
    old = game.new_match(3, seed=1)
    play(old, "strike", "Imp: struck (P2)")
    state = old.state()
    state["log"][-1] = state["pending"]["answers"][-1] = "Imp: struck #2"
    r = rulelang.Match.from_state(game, json.loads(json.dumps(state)))
    assert r.log[-1] == "Imp: struck #2" and texts(r) == ["Imp: struck (P1)", "Imp: struck (P2)", "Elf: struck"]
    play(r, "Elf: struck", "Imp: struck (P2)")
    assert var(r, "notes") == ["P2", "elf", "P2", "P1"]


def test_two_abilities_of_one_players_alike_cards_are_not_ordered():
    game = build(IMPS.replace('create cards Card where card == "Elf" in table[2]', "").replace(
        "for p in [0, 1] {", "for p in [1] {"))
    m = game.new_match(3, seed=1)
    m.apply("strike")
    assert m.pending is None and var(m, "notes") == ["P2", "P2"]


def test_repl_the_player_asked_may_take_an_anytime_action_before_answering(peek):
    code, out = repl(peek, ["ask", "reveal", "2", "quit", "n"], bots={1: "random", 2: "random"})
    assert code == 0
    asked = out[out.index("P1> ask"):]
    assert "  (you may also, at any time: reveal)" in asked
    assert "P1> reveal\nP1 plays: reveal\n" in asked                       # not "chooses": no answer
    again = asked[asked.index("P1 plays: reveal"):]
    assert "which?" in again and "P1> 2\nP1 chooses: 4" in again
    assert "(you may also, at any time: reveal)" not in again              # revealed: nothing more


TICK = """
game "Tick" {
  players 2
  kind Card { rank: int  label "c" + text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  var ticks: int = 0
  turn limit 20 { finish draw }
  setup { for r in 1..8 { create Card(rank: r) in deck }  shuffle deck  for p in players { move top(deck, 3) to hand[p] } }
  anytime action tick { ticks += 1 }
  anytime action ask { may prompt "again?" { ticks += 100 } }
  turn { step s {
    action play { choose c in hand[me] always prompt "which card" { move c to table }  end turn }
  } }
}
"""


def test_interrupts_while_one_effect_waits_are_bounded():
    """A trial: interrupts taken inside a waiting effect, one after another or each inside the
    other's question, had no bound but Python's stack — 98 nested, and the position could no
    longer be restored; 5,000 made each answer's replay slow. At most INTERRUPT_LIMIT (24)."""
    from rulelang.core.limits import INTERRUPT_LIMIT
    game = build(TICK)
    m = game.new_match(2, seed=1)
    m.apply("play")
    for _ in range(INTERRUPT_LIMIT):
        assert "P2: tick" in offers(m, 1)
        m.apply("P2: tick")
    assert offers(m, 0) == offers(m, 1) == [] and m.question["prompt"] == "which card"
    with pytest.raises(IllegalAction):
        m.apply("P2: tick")
    assert roundtrip(game, m).state() == m.state()
    play(m, texts(m)[0])
    assert m.pending is None and offers(m, 0)                # the effect over: offered again
    m = game.new_match(2, seed=1)
    m.apply("play")
    for _ in range(INTERRUPT_LIMIT):                         # each inside the question of the one before
        m.apply("P1: ask")
    assert m.question["prompt"] == "again?" and offers(m, 1) == []
    r = roundtrip(game, m)
    assert r.state() == m.state()
    for _ in range(INTERRUPT_LIMIT):
        m.apply("yes")
    assert var(m, "ticks") == 100 * INTERRUPT_LIMIT and m.question["prompt"] == "which card"


def test_a_search_copy_maps_the_answer_given_after_an_interrupt_as_it_maps_one_given_at_once():
    """A trial: on a copy made for P2 while P1 chose a card of its hand, an interrupt before the
    answer made the answer take the real card (from the copy's deck) — or fail an `EngineFault` in a
    subset pick — where the answer alone took the card the copy had dealt into that place."""
    game = build(TICK)
    m = game.new_match(2, seed=1)
    m.apply("play")
    answer = texts(m)[0]
    for seed in range(20):
        plain, interrupted = m.determinized(1, seed), m.determinized(1, seed)
        plain.apply(answer)
        interrupted.apply("P2: tick")
        interrupted.apply(answer)
        assert plain.state()["zones"] == interrupted.state()["zones"], seed


def test_repl_log_does_not_call_an_interrupt_an_answer():
    game = build(TICK)
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("play\ntick\nlog\nquit\nn\n"), out, "x.rules")
    text = out.getvalue()
    assert "  2. P1: tick\n" in text and "which card → tick" not in text


BURN = """
game "Burn" {
  players 2
  kind Card { rank: int  label "c" + text(rank) }
  zone hand: pile per player, owner
  zone grave: pile, public
  zone table: pile, public
  turn limit 20 { finish draw }
  setup { for r in 1..3 { create Card(rank: r) in hand[0] } }
  anytime action burn require me != current and size(hand[current]) > 0 { move top(hand[current]) to grave }
  anytime action burnall require me != current { move hand[current] to grave }
  turn { step s {
    action play require size(hand[me]) > 0 { choose c in hand[me] always prompt "which card" { move c to table }  end turn }
    action pass { end turn }
  } }
}
"""


def test_an_interrupt_that_moves_an_offered_card_away_takes_it_from_the_question():
    """A trial: an interrupt sent a card the question offered to the grave, and the answer still
    took it (the question was asked again with the options it had). An option that is a component
    no longer where it lay is no option now; an interrupt that would leave none fails, changing
    nothing."""
    game = build(BURN)
    m = game.new_match(2, seed=1)
    m.apply("play")
    assert texts(m) == ["c1", "c2", "c3"]
    m.apply("P2: burn")                                     # c3, the top, to the grave
    assert texts(m) == ["c1", "c2"] and m.question["options"] == ["c1", "c2"]
    before = m.state()
    with pytest.raises((IllegalAction, rulelang.RuleRuntimeError)):
        m.apply("P2: burnall")
    assert m.state() == before
    m.apply("c2")
    labels = [c["label"] for c in m.state()["components"]]
    assert [labels[c] for c in m.state()["zones"]["table"]] == ["c2"]
    assert [labels[c] for c in m.state()["zones"]["grave"]] == ["c3"]


def test_an_optional_question_whose_cards_an_interrupt_took_keeps_pass():
    """An atomicity trial: an interrupt inside an optional question took its last offered card; the
    listed answer that did so failed (a rule error: "nothing the question offered is where it
    was"), though the question could still be declined."""
    game = build(BURN.replace('choose c in hand[me] always prompt "which card"',
                              'choose c in hand[me] optional always prompt "which card"'))
    m = game.new_match(2, seed=1)
    m.apply("play")
    assert texts(m) == ["c1", "c2", "c3", "pass"]
    m.apply("P2: burnall")                                  # every offered card to the grave
    assert texts(m) == ["pass"] and m.question["prompt"] == "which card"
    m.apply("pass")
    labels = [c["label"] for c in m.state()["components"]]
    assert m.state()["zones"]["table"] == [] and sorted(labels[c] for c in m.state()["zones"]["grave"]) == ["c1", "c2", "c3"]
    assert m.current_player == 1


SHADOW = str(__import__("pathlib").Path(__file__).resolve().parent.parent / "games" / "shadow_hunters.rules")


def test_apply_takes_an_interrupt_with_the_seat_it_names_and_no_other():
    """An atomicity trial: `interrupts(1)` offered `P2: reveal`; `apply(…, seat=1)` was refused as
    "not a legal action of P2" and `seat=0` (P1, who does not play it) taken."""
    m = rulelang.load(SHADOW).new_match(4, seed=0)
    m.apply("begin")
    assert [a.text for a in m.interrupts(1)] == ["P2: reveal"]
    for seat in (0, 3):
        with pytest.raises(IllegalAction, match=f"not a legal action of P{seat + 1} now"):
            m.apply("P2: reveal", seat=seat)
    with pytest.raises(IllegalAction, match="not a legal action of P2 now"):
        m.apply(m.legal_actions()[0], seat=1)          # (nor P1's own action as P2's)
    m.apply("P2: reveal", seat=1)
    assert m.log[-1] == "P2: reveal"


def test_an_out_of_turn_action_typed_whole_is_played_before_a_line_piped_at_the_hand_over():
    """An atomicity trial: piped `P2: reveal` then `log`: the `log` read at the hand-over prompt
    took the place of `reveal`, which was never played."""
    out = io.StringIO()
    run_repl(rulelang.load(SHADOW), 4, 0, {}, {}, io.StringIO("begin\nP2: reveal\nlog\nquit\n"), out,
             "shadow_hunters.rules")
    text = out.getvalue()
    assert "P2 (out of turn)> reveal\nP2 plays: reveal\n" in text, text[-2000:]
    assert "> log\n  1. P1: begin\n  2. P2: reveal\n" in text, text[-2000:]


def test_a_seat_named_as_players_read_it_is_told_how_the_api_numbers_seats(masks):
    """A new author passed the browser link's seat, "P1", to `visible_to` and read "no player 'P1' in
    a 3-player match", as if P1 did not exist."""
    match = masks.new_match(3, seed=1)
    with pytest.raises(ValueError, match=r"no player 'P1': the API numbers seats from 0 \(P1 is 0\)"):
        match.visible_to("P1")
    with pytest.raises(ValueError, match="no player 'P9': the API numbers seats from 0"):
        match.view("P9")
