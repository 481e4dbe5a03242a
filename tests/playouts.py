"""A random playout that records every position: the shared tool of the determinism tests."""
from __future__ import annotations


def record_playout(m, rng, limit=400):
    """Play random legal actions (at most `limit`); the texts applied and every state() on the way."""
    texts, states = [], [m.state()]
    while not m.is_over and len(texts) < limit:
        t = str(rng.choice(m.legal_actions()))
        m.apply(t)
        texts.append(t)
        states.append(m.state())
    return texts, states
