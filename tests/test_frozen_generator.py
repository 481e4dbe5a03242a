"""A clone does not read the generator's state (chance.FrozenGenerator): the match and its clones
still draw exactly what they would have drawn, in whatever order they play."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.engine.chance import FrozenGenerator

ROOT = Path(__file__).resolve().parent.parent


def _played(path: str, players: int, seed: int, count: int):
    m = rulelang.load(ROOT / path).new_match(players, seed=seed)
    rng = random.Random(seed)
    texts = []
    while not m.is_over and len(texts) < count:
        text = rng.choice(m.legal_actions()).text
        texts.append(text)
        m.apply(text)
    return m, texts


def _go_on(m, seed: int, count: int) -> list:
    """Random actions from here (chosen by text, from a generator of the caller's): the states."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_actions()).text)
        states.append(m.state())
    return states


@pytest.mark.parametrize("path, players, before", [("games/shadow_hunters.rules", 4, 25), ("games/regicide.rules", 1, 4),
                                                   ("games/smash_up.rules", 2, 25)])
def test_a_match_and_its_clones_draw_the_same_whoever_plays_first(path, players, before):
    m, _ = _played(path, players, seed=3, count=before)
    first, second = m.clone(), m.clone()
    assert type(m._rng_state) is FrozenGenerator and m._rng is None
    # the clone plays on first, then the match, then the other clone: all three reach one future
    ahead = _go_on(first, 9, 30)
    mine = _go_on(m, 9, 30)
    last = _go_on(second, 9, 30)
    assert ahead == mine == last and len(mine) >= 8


def test_the_match_that_froze_its_generator_takes_it_back_and_reads_its_state_once():
    m, _ = _played("games/shadow_hunters.rules", 4, seed=5, count=10)
    m._gen()                                   # (a generator of its own, as after any draw)
    gen = m._rng
    copy = m.clone()
    frozen = m._rng_state
    assert type(frozen) is FrozenGenerator and frozen.kept is None and copy._rng_state is frozen
    assert m._gen() is gen                      # its owner takes the very generator back...
    assert frozen.kept is not None and frozen.gen is None   # ...its state read first, for the copy
    expected = random.Random()
    expected.setstate(frozen.kept)
    assert copy._gen() is not gen and copy._gen().getstate() == expected.getstate()


def test_a_save_of_a_match_whose_generator_is_frozen_replays_the_same_future():
    m, texts = _played("games/shadow_hunters.rules", 4, seed=8, count=20)
    m.clone()                                  # (freezes the generator)
    restored = type(m).from_state(m.game, m.state())
    assert _go_on(restored, 4, 20) == _go_on(m, 4, 20)
