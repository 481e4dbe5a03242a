"""Bots: players that choose actions through the public engine API only.

Each bot owns its random generator, so a match played by bots is reproducible from
the match seed alone (see `bot_seed`), whether it runs in the REPL or in `simulate`.
"""
from __future__ import annotations

import hashlib
import random


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot at `seat` in the match seeded `match_seed`.

    A hash rather than arithmetic, so bots of neighbouring matches and seats do not
    share random streams; the REPL and `simulate` both use it, so a simulated game
    can be replayed with `rulelang play --seed`.
    """
    digest = hashlib.sha256(f"bot:{match_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class RandomBot:
    """Picks uniformly among the legal actions."""

    kind = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, match):
        return self.rng.choice(match.legal_actions())


class GreedyBot(RandomBot):
    """Looks one action ahead: takes a win now if there is one, avoids an immediate
    loss if it can, and otherwise plays at random."""

    kind = "greedy"

    def choose(self, match):
        seat = match.current_player
        ranked: dict[int, list] = {}
        for action in match.legal_actions():
            ranked.setdefault(self._rank(match, action, seat), []).append(action)
        return self.rng.choice(ranked[max(ranked)])

    @staticmethod
    def _rank(match, action, seat: int) -> int:
        """2 for a win, 1 for a game that goes on (or a draw), 0 for a loss."""
        after = match.clone()
        after.apply(action)
        if not after.is_over:
            return 1
        result = after.outcome["results"][seat]
        return {"win": 2, "lose": 0}.get(result, 1)


_BOTS = {cls.kind: cls for cls in (RandomBot, GreedyBot)}
KINDS = tuple(_BOTS)


def make_bot(kind: str, seed: int):
    """A bot of the named kind; ValueError naming the known kinds otherwise."""
    try:
        return _BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}; choose one of: {', '.join(KINDS)}") from None
