"""Whole games with random moves for every seat count and the alliance: they end, by the rules' own
reasons, with no rule error; and a saved state mid-game restores exactly."""
from __future__ import annotations

import random

import pytest
import rulelang

from dw_helpers import game


@pytest.mark.slow
@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (4, {}), (4, {"alliance": True}),
                                             (2, {"generals": "random"})])
def test_random_games_end(players, options):
    for seed in range(2):
        m = game.new_match(players, seed=seed, options=options)
        rng = random.Random(seed)
        n = 0
        while not m.is_over:
            actions = m.legal_actions()
            assert actions, "stuck"
            m.apply(rng.choice(actions))
            n += 1
            if n == 150:                                      # a mid-game position survives a round trip
                again = rulelang.Match.from_state(game, m.state())
                assert [a.text for a in again.legal_actions()] == [a.text for a in m.legal_actions()]
            assert n < 5000
        reason = m.outcome["reason"]
        assert "map pieces" in reason or "score" in reason or "standing" in reason or "tied" in reason
        assert m.state()["rounds"]["round"] <= 8
