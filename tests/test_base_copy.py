"""The copy a game that may pause keeps before each action (`_base`) works out which zone holds
each component only when it is played on (Match.own(index=False)): a paused chain, a failed
action and a copy of a paused match still reach exactly what they reached before."""
from __future__ import annotations

import random
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parent.parent


def _paused_match(seed: int):
    """A Shadow Hunters match played at random until an action stops for a question."""
    m = rulelang.load(ROOT / "games/shadow_hunters.rules").new_match(4, seed=seed)
    rng = random.Random(seed)
    while m.pending is None:
        m.apply(rng.choice(m.legal_actions()))
    return m


def test_the_kept_copy_leaves_where_to_be_worked_out_and_a_clone_of_it_has_the_right_one():
    m = _paused_match(2)
    base = m.pending["base"]
    assert base.where is None
    again = base.clone()
    again.own()
    expected = again.clone()
    expected._index_zones()                    # (the checked rebuild a restored state uses)
    lists = [zl for per, value in zip(m.game.zone_per, again.Z) for zl in (value if per else [value])]
    assert again.where == expected.where
    for c, zl in enumerate(again.where):      # the copy's own lists, not the match's
        assert zl is None or (c in zl and any(zl is mine for mine in lists))
    assert sum(zl is not None for zl in again.where) > 10


def test_a_paused_match_answers_as_its_saved_and_restored_copy_does():
    m = _paused_match(3)
    restored = type(m).from_state(m.game, m.state())
    rng = random.Random(9)
    for _ in range(30):
        if m.is_over:
            break
        text = rng.choice(m.legal_actions()).text
        m.apply(text)
        restored.apply(text)
        assert m.state() == restored.state()
