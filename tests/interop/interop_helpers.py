"""Shared by the interop tests: the games (compiled once per process, no IR cache involved) and
a random position of each."""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NOUGHTS = HERE / "noughts.rules"

# every game in games/, at a player count that exercises it (Regicide: 2 players, hidden hands)
GAMES = [("regicide", 2), ("valgard", 2), ("shadow_hunters", 4), ("smash_up", 2), ("dozen_war", 2)]
HIDDEN = ["regicide", "shadow_hunters", "smash_up", "dozen_war"]          # games with something a seat cannot see


@lru_cache(maxsize=None)
def game(name: str) -> rulelang.Game:
    """A game of games/ (or the test's own noughts), compiled here and not through the IR cache."""
    path = NOUGHTS if name == "noughts" else ROOT / "games" / f"{name}.rules"
    return rulelang.Game(rulelang.compile_file(str(path)), str(path))


def positions(g: rulelang.Game, players: int, seeds=range(3), actions: int = 40, every: int = 5):
    """Positions reached by seeded random play: every `every` actions, at most `actions` deep."""
    for seed in seeds:
        m = g.new_match(players, seed)
        rng = random.Random(seed)
        for k in range(actions):
            if m.is_over:
                break
            if k % every == 0:
                yield m.clone()
            m.apply(rng.choice(m.legal_actions()))
