"""The replay contract holds in random games of the five games and the lint corpus: with the
replay check on, no chain and no stretch of actions replays to another position. (The full
sweep, 200 games of each: `python tests/replay_sweep.py`; here, enough of each to run quickly.)"""
from __future__ import annotations

import pytest

import rulelang
from replay_sweep import GAMES, corpus, sweep

# games per configuration in the test run: every configuration, fewer games where one costs more
GAMES_IN_SUITE = {"regicide": 60, "valgard": 40, "shadow_hunters": 8, "smash_up": 5, "dozen_war": 1}


@pytest.mark.slow
@pytest.mark.parametrize("path,players,options", GAMES, ids=lambda x: str(x))
def test_no_replay_violation_in_random_games(path, players, options):
    count = next(n for name, n in GAMES_IN_SUITE.items() if name in path)
    found = sweep(rulelang.load(path), players, count, options)
    assert found["games"] == count and found["actions"] > count
    assert found["violations"] == []


def test_no_replay_violation_in_the_corpus():
    checked = 0
    for path in corpus():
        try:
            game = rulelang.load(path)
        except rulelang.RulelangError:
            continue
        found = sweep(game, game.min_players, 5)
        assert found["violations"] == [], path
        checked += found["actions"]
    assert checked > 1000
