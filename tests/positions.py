"""Exact Regicide positions, built through the engine's public API only.

`build()` starts a real match, takes its `state()`, puts every named card where the
test wants it and restores the result with `rulelang.Match.from_state`. Cards are named
by their labels ("8♦", "A♣", "J♠", "Jester"); piles are listed bottom first, so the last
label of a pile is its top card.
"""
from __future__ import annotations

from pathlib import Path

import rulelang

RULES = Path(__file__).resolve().parent.parent / "games" / "regicide.rules"
GAME = rulelang.load(str(RULES))

SUITS = "♥♦♣♠"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
COURTS = ["J", "Q", "K"]


def natural_castle() -> list[str]:
    """R5 order, bottom first: Kings, then Queens, then Jacks on top."""
    return [r + s for r in reversed(COURTS) for s in SUITS]


class Deck:
    """Label ↔ id lookups for one match state."""

    def __init__(self, data: dict):
        self.labels = [c["label"] for c in data["components"]]
        self.fields = [c["fields"] for c in data["components"]]
        self._ids: dict[str, list[int]] = {}
        for c, label in enumerate(self.labels):
            self._ids.setdefault(label, []).append(c)

    def ids(self, label: str) -> list[int]:
        return list(self._ids[label])

    def label(self, c: int) -> str:
        return self.labels[c]


def labels(data: dict, ids) -> list[str]:
    names = [c["label"] for c in data["components"]]
    return [names[c] for c in ids]


def build(players: int, *, hands, enemy: str, tavern=None, castle=None, discard=(), table=(),
          jesters_aside=(), jesters_used=(), vars=None, step: str = "play", current: int = 0,
          actor: int | None = None, seed: int = 0) -> rulelang.Match:
    """A match in exactly the given position.

    `tavern` and `castle`, when given, are the whole pile. When not given, the tavern is
    every unnamed A–10 (A♥ at the bottom … 10♠ on top) and the castle every unnamed court
    card in R5 order. Whatever is still unplaced (Jesters, or cards left out of a given
    tavern/castle) goes to the hidden `box`, where setup keeps the unused Jesters.
    """
    m = GAME.new_match(players=players, seed=seed)
    data = m.state()
    deck = Deck(data)
    free = {label: deck.ids(label) for label in set(deck.labels)}

    def take(label: str) -> int:
        if not free.get(label):
            raise ValueError(f"card {label!r} placed twice (or unknown)")
        return free[label].pop(0)

    assert len(hands) == players
    zones = {name: ([[] for _ in range(players)] if name == "hand" else []) for name in data["zones"]}
    zones["hand"] = [[take(x) for x in hand] for hand in hands]
    zones["enemy"] = [take(enemy)]
    for name, pile in (("discard", discard), ("table", table), ("jesters_aside", jesters_aside),
                       ("jesters_used", jesters_used)):
        zones[name] = [take(x) for x in pile]
    if castle is not None:
        zones["castle"] = [take(x) for x in castle]
    if tavern is not None:
        zones["tavern"] = [take(x) for x in tavern]
    if castle is None:
        zones["castle"] = [take(x) for x in natural_castle() if free.get(x)]
    if tavern is None:
        rest = [r + s for s in SUITS for r in RANKS]
        zones["tavern"] = [take(x) for x in rest if free.get(x)]
    zones["box"] = sorted(c for ids in free.values() for c in ids)
    data["zones"] = zones

    values = dict(data["vars"])
    values.update({"damage": 0, "shield": 0, "immunity_cancelled": False, "yielded": [False] * players,
                   "due": 0, "paying": False})
    values.update(vars or {})
    data["vars"] = values
    data["step"] = step
    data["current"] = current
    data["actor"] = current if actor is None else actor
    return rulelang.Match.from_state(GAME, data)


def hand(m: rulelang.Match, p: int) -> list[str]:
    data = m.state()
    return labels(data, data["zones"]["hand"][p])


def pile(m: rulelang.Match, name: str) -> list[str]:
    data = m.state()
    return labels(data, data["zones"][name])


def var(m: rulelang.Match, name: str):
    return m.state()["vars"][name]


def shown(m: rulelang.Match, name: str, player: int = 0):
    for v in m.view(player)["values"]:
        if v["name"] == name:
            return v.get("value", v.get("per_player"))
    raise KeyError(name)


def legal(m: rulelang.Match) -> list[str]:
    return [str(a) for a in m.legal_actions()]
