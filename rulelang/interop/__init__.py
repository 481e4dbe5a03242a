"""Any rule file behind the standard game-AI interfaces (docs/interop.md).

    from rulelang.interop import pettingzoo, gymnasium, openspiel
    env = pettingzoo.env("game.rules", players=2)           # pip install 'rulelang[pettingzoo]'
    env = gymnasium.SingleAgentEnv("game.rules", seat=0)    # pip install 'rulelang[gymnasium]'
    game = openspiel.load("game.rules")                      # pip install 'rulelang[openspiel]'

Everything here uses the public API only (`rulelang.load`, `Game`, `Match`, the bots). The three
libraries are optional extras: each submodule imports its own, and says which extra to install
when it is missing. `Interface` (core.py) is what they share: the fixed-size observation encoding
and the action space of one (game, player count, options).
"""
from __future__ import annotations

__all__ = ["Interface", "load_game", "MissingExtra"]


def __getattr__(name):
    # lazily: `import rulelang.interop` needs neither numpy nor any of the three libraries
    if name in ("Interface", "load_game", "MissingExtra"):
        from . import core
        return getattr(core, name)
    raise AttributeError(name)
