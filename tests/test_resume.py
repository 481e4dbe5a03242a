"""Resumable chains (engine/pausing.py): an effect that stops for a choice waits in a greenlet, and
the answer goes on from there instead of replaying the chain from its base. The replay stays the
contract (docs/engine.md, "The replay contract"): what the chain does after an answer is what a
replay with every answer would do, a failed answer leaves the match paused as it was, a copy of a
waiting match answers by replaying, and a dropped one is let go of (no greenlet outlives many).
"""
from __future__ import annotations

import gc
import inspect
import random
import sys
import threading
from pathlib import Path

import pytest
from greenlet import greenlet

import rulelang
from rulelang.engine import pausing

from interaction_helpers import build, var

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from traces import trace  # noqa: E402

PICKS = """
game "Picks" {
  players 2
  var total: int = 0
  var seen: list[int] = []
  turn {
    step main {
      action pick {
        append 1 to seen
        choose x in [1, 2, 3] prompt "first" { total += x  append x to seen }
        choose y in [10, 20, 0] prompt "second" { total += 100 / y  append y to seen }
        if total >= 250 { finish win for me "enough" }
        end turn
      }
    }
  }
}
"""


needs_resume = pytest.mark.skipif(not pausing.RESUME, reason="RULELANG_RESUME=0: every answer replays")


@pytest.fixture(scope="module")
def picks():
    return build(PICKS)


@needs_resume
def test_an_answer_goes_on_where_the_chain_waits(picks, monkeypatch):
    replays = []
    real = pausing.MatchPausing._resume
    monkeypatch.setattr(pausing.MatchPausing, "_resume", lambda self, *a, **k: (replays.append(k.get("here")),
                                                                               real(self, *a, **k))[1])
    m = picks.new_match(2, seed=1)
    m.apply("pick")
    assert m.question["prompt"] == "first" and isinstance(m.cont, greenlet) and not m.cont.dead
    m.apply("2")
    assert m.question["prompt"] == "second" and var(m, "seen") == [1, 2]
    m.apply("20")
    assert m.pending is None and m.cont is None and var(m, "total") == 7 and var(m, "seen") == [1, 2, 20]
    assert replays == [True, True]              # the set-up and the new action: no answer was replayed


@pytest.mark.parametrize("path, players, seeds", [("smash_up", 2, range(3)), ("shadow_hunters", 4, range(4)),
                                                  ("dozen_war", 2, range(1))])
def test_games_play_the_same_resumed_and_replayed(path, players, seeds, monkeypatch):
    game = rulelang.load(str(ROOT / "games" / f"{path}.rules"))
    resumed = [trace(game, players, seed) for seed in seeds]
    monkeypatch.setattr(pausing, "RESUME", False)
    assert [trace(game, players, seed) for seed in seeds] == resumed


def test_a_failed_answer_leaves_the_match_waiting_as_it_was(picks):
    m = picks.new_match(2, seed=1)
    m.apply("pick")
    m.apply("3")
    before = m.state()
    with pytest.raises(rulelang.RuleRuntimeError, match="division by zero|divide"):
        m.apply("0")                            # 100 / 0 after the answer: a rule error
    assert m.state() == before and m.question["prompt"] == "second"
    m.apply("10")                               # and it goes on (by a replay, then resumable again)
    assert var(m, "total") == 13 and var(m, "seen") == [1, 3, 10] and m.pending is None


def test_a_copy_of_a_waiting_match_answers_on_its_own(picks):
    m = picks.new_match(2, seed=1)
    m.apply("pick")
    copy = m.clone()
    assert copy.cont is None
    copy.apply("1")
    m.apply("3")
    copy.apply("10")
    m.apply("20")
    assert (var(copy, "total"), var(copy, "seen")) == (11, [1, 1, 10])
    assert (var(m, "total"), var(m, "seen")) == (8, [1, 3, 20])


def _live_greenlets() -> int:
    gc.collect()
    return sum(1 for g in gc.get_objects() if isinstance(g, greenlet) and not g.dead and g.parent is not None)


@needs_resume
def test_dropped_waiting_matches_do_not_keep_their_greenlets(picks):
    before = _live_greenlets()                  # (other libraries in this process may hold some)
    m = picks.new_match(2, seed=1)
    for i in range(pausing.WAITING_LIMIT * 4):
        copy = m.clone()
        copy.apply("pick")                      # waits, then is dropped
        assert copy.cont is not None
    del copy
    assert _live_greenlets() - before <= pausing.WAITING_LIMIT + pausing.IDLE_WORKERS


def test_the_oldest_waiting_chain_let_go_of_still_answers_by_replaying(picks):
    first = picks.new_match(2, seed=1)
    first.apply("pick")
    first.apply("2")
    others = []
    for _ in range(pausing.WAITING_LIMIT + 1):
        other = picks.new_match(2, seed=2)
        other.apply("pick")
        others.append(other)
    assert first.cont is None and first.question["prompt"] == "second"   # (let go of: no greenlet)
    first.apply("10")
    assert var(first, "total") == 12 and var(first, "seen") == [1, 2, 10]


def test_an_answer_from_another_thread_replays(picks):
    m = picks.new_match(2, seed=1)
    m.apply("pick")
    errors = []
    worker = threading.Thread(target=lambda: _apply_all(m, ["3", "10"], errors))
    worker.start()
    worker.join()
    assert errors == [] and var(m, "total") == 13 and var(m, "seen") == [1, 3, 10]


def _apply_all(m, answers, errors):
    try:
        for a in answers:
            m.apply(a)
    except Exception as err:                    # (reported to the test's thread)
        errors.append(err)


def test_random_games_with_the_replay_check_on(monkeypatch):
    """Every resumed answer is checked against a replay from the base (support.CHECK_REPLAY)."""
    from rulelang.engine import support
    monkeypatch.setattr(support, "CHECK_REPLAY", True)
    game = rulelang.load(str(ROOT / "games" / "smash_up.rules"))
    for seed in range(2):
        m, rng = game.new_match(2, seed=seed), random.Random(seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))


GUARDS = """
game "Guards" {
  players 2
  kind Card { name: text  label name }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone played: pile, public
  setup {
    repeat 5 { create Card(name: "Guard") in deck }
    create Card(name: "King") in deck
    shuffle deck
    for p in players { move top(deck, 2) to hand[p] }
  }
  turn {
    step main {
      action play(c in hand[me]) {
        move c to played
        choose n in ["Guard", "King"] prompt "name a card" { if n == "King" { finish win for me "named" } }
        end turn
      }
    }
  }
}
"""


def test_restoring_a_waiting_match_again_and_again_uses_no_more_stack():
    """A restore replays its chain in a greenlet, and the replay made a match of its own (to know
    where each copy was made) whose worker kept the depth it started at: each restore left the
    next one 12 frames deeper, and the 88th in one process failed as a rule error "nested too
    deeply" (a new author's Love Letter, in a leak scan restoring states)."""
    game = build(GUARDS)
    m = game.new_match(2, seed=1)
    m.apply(next(a for a in m.legal_actions() if a.text == "play Guard"))
    assert m.question is not None
    state = m.state()
    room = []

    def spare() -> int:
        depth = [0]

        def down():
            depth[0] += 1
            down()
        try:
            down()
        except RecursionError:
            pass
        return depth[0]
    run_root = type(m)._run_root

    def measured(self, root):
        room.append(spare())
        return run_root(self, root)
    type(m)._run_root = measured
    try:
        for _ in range(25):
            rulelang.Match.from_state(game, state)
    finally:
        type(m)._run_root = run_root
    assert len(room) >= 25 and min(room) >= max(room) - 30, room
    restored = rulelang.Match.from_state(game, state)
    restored.apply("King")
    assert restored.is_over


def test_a_stack_run_out_before_the_rules_began_is_not_blamed_on_them():
    """The 88th restore above failed as a rule error, "calls or triggers nested too deeply", naming
    `shuffle deck`: the rules' own only where the stack filled up while they ran."""
    from rulelang.engine.support import _engine_fault

    generated = "<rulelang x.rules>"
    scope: dict = {}
    exec(compile("def rule(n):\n    return 0 if n == 0 else rule(n - 1) + 1\n", generated, "exec"), scope)

    def caught(depth_left: int | None, calls: int) -> RecursionError:
        """`rule(calls)` run with `depth_left` frames of stack left (None: as the test has it)."""
        limit = sys.getrecursionlimit()
        here = len(inspect.stack())
        if depth_left is not None:
            sys.setrecursionlimit(here + depth_left)
        try:
            scope["rule"](calls)
        except RecursionError as err:
            return err
        finally:
            sys.setrecursionlimit(limit)
        raise AssertionError("no recursion error")
    assert _engine_fault(caught(30, 50), generated)                 # the stack was nearly full already
    assert not _engine_fault(caught(None, 10 ** 6), generated)      # the rules' calls filled it
