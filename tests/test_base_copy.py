"""The position before an action, in a game that may pause: not copied when the action starts,
but rebuilt from the match's last checkpoint and the inputs since it (pausing.Rebuilt) when a
paused chain replays or an action fails; a copy of it works out which zone holds each component
when played on. A paused chain, a failed action and a copy of a paused match still reach exactly
what they reached before."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.engine.pausing import Rebuilt
from rulelang.engine.support import PAUSING_CHECKPOINT_EVERY

ROOT = Path(__file__).resolve().parent.parent


def _paused_match(seed: int, after: int = 0):
    """A Shadow Hunters match played at random until an action, past the first `after`, stops
    for a question; and a copy of the position just before that action."""
    m = rulelang.load(ROOT / "games/shadow_hunters.rules").new_match(4, seed=seed)
    rng = random.Random(seed)
    before = None
    while m.pending is None or len(m.log) < after:
        before = m.clone()
        m.apply(rng.choice(m.legal_actions()))
    return m, before


@pytest.mark.parametrize("seed,after", [(2, 0), (4, 3 * PAUSING_CHECKPOINT_EVERY)])
def test_the_position_before_a_paused_action_is_rebuilt_exactly_when_asked(seed, after):
    m, before = _paused_match(seed, after)
    base = m.pending["base"]
    assert isinstance(base, Rebuilt) and base.made is None       # nothing copied until now
    assert len(base.inputs) < PAUSING_CHECKPOINT_EVERY
    assert base.state() == before.state()
    assert base.clone().state() == before.state()
    assert base.made is not None                                  # rebuilt once, for every copy


def test_a_copy_of_the_rebuilt_position_knows_where_each_component_lies():
    m, _ = _paused_match(2)
    again = m.pending["base"].clone()
    again.own()
    expected = again.clone()
    expected._index_zones()                    # (the checked rebuild a restored state uses)
    lists = [zl for per, value in zip(m.game.zone_per, again.Z) for zl in (value if per else [value])]
    assert again.where == expected.where
    for c, zl in enumerate(again.where):      # the copy's own lists, not the match's
        assert zl is None or (c in zl and any(zl is mine for mine in lists))
    assert sum(zl is not None for zl in again.where) > 10


def _play_alike(m, other, seed: int, moves: int) -> None:
    """Random moves played on both: they stay in the same position."""
    rng = random.Random(seed)
    for _ in range(moves):
        if m.is_over:
            break
        text = rng.choice(m.legal_actions()).text
        m.apply(text)
        other.apply(text)
        assert m.state() == other.state()


def test_a_copy_of_a_paused_match_answers_as_the_match_does():
    m, _ = _paused_match(5, 2 * PAUSING_CHECKPOINT_EVERY)
    _play_alike(m, m.clone(), 11, 40)          # (the copy answers by replaying from the rebuilt base)


def test_a_paused_match_answers_as_its_saved_and_restored_copy_does():
    m, _ = _paused_match(3)
    _play_alike(m, type(m).from_state(m.game, m.state()), 9, 30)


def _index_is_right(m) -> bool:
    """Every component's `where` is the very zone list that holds it."""
    holders = {}
    for value, per in zip(m.Z, m.game.zone_per):
        for zl in (value if per else (value,)):
            for c in zl:
                holders[c] = zl
    return all(m.where[c] is holders.get(c) for c in range(len(m.labels)))


@pytest.mark.parametrize("path,players", [("games/valgard.rules", 2), ("games/shadow_hunters.rules", 4)])
def test_a_checkpoint_copy_takes_the_copies_and_a_rebuild_from_it_is_indexed(path, players):
    """A checkpoint's copy takes copies of the zones and variables (`_base`), so the match goes on
    with its own lists and its index of them, not remapped before its next action; rebuilt from that
    copy with nothing to replay (an action failing right after the checkpoint), the match has its
    index again, and both play on as a match that never took the checkpoint."""
    game = rulelang.load(ROOT / path)
    checked = 0
    for seed in range(4):
        m, rng, played = game.new_match(players, seed), random.Random(seed), []
        for i in range(60):                       # (a position no question waits at, a few actions in)
            if m.is_over or i >= 6 and m.pending is None:
                break
            played.append(rng.choice(m.legal_actions()).text)
            m.apply(played[-1])
        if m.is_over or m.pending is not None:
            continue
        twin = game.new_match(players, seed)      # (the same position, by the same actions)
        for text in played:
            twin.apply(text)
        assert m.shared != "all"                  # (played on: its own lists)
        zones = [id(z) for z in m.Z]
        m._checkpoint()
        assert m.shared != "all" and [id(z) for z in m.Z] == zones and _index_is_right(m)
        rebuilt = m.clone()
        rebuilt._rebuild(m.ckpt, len(m.log))      # (nothing since the checkpoint: its copy, cloned)
        assert _index_is_right(rebuilt) and rebuilt.state() == twin.state()
        for copy in (m, rebuilt):
            other, r1, r2 = twin.clone(), random.Random(seed + 9), random.Random(seed + 9)
            for _ in range(15):
                if copy.is_over or other.is_over or copy.pending is not None:
                    break
                copy.apply(r1.choice(copy.legal_actions()).text)
                other.apply(r2.choice(other.legal_actions()).text)
                assert copy.state() == other.state() and _index_is_right(copy)
        checked += 1
    assert checked >= 2
