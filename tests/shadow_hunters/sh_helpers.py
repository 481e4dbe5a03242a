"""Exact Shadow Hunters positions, built through the public API: a real match's `state()` is
edited (characters dealt, areas laid out, damage, equipment, stacked decks, who is to act) and
restored with `Match.from_state`, which checks it. Actions and answers are then played by text.

SHADOW_HUNTERS_RULES=path/to/shadow_hunters.rules runs the tests against another copy of the rules.
"""
from __future__ import annotations

import os
import random
import re
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parents[2]
game = rulelang.load(os.environ.get("SHADOW_HUNTERS_RULES") or str(ROOT / "games" / "shadow_hunters.rules"))

# the areas in their default order for tests: pairs (cabin, gate), (church, cemetery), (woods, altar)
LAYOUT = ["cabin", "gate", "church", "cemetery", "woods", "altar"]
COLORS = ("white", "black", "hermit")


class Position:
    """A position: `Position(["Vampire", "Emi", "Allie", "Bob"])` deals those characters to P1..Pn
    (option characters=all, so every character and the expansion versions of the cards exist).
    Every setter returns self; `match()` restores it. Decks are given top first."""

    def __init__(self, characters: list[str], options: dict | None = None, seed: int = 0):
        self.players = len(characters)
        self.options = {"characters": "all", **(options or {})}
        self.st = game.new_match(self.players, seed=seed, options=self.options).state()
        comps = self.st["components"]
        self.labels = [c["label"] for c in comps]
        self.kinds = [c["kind"] for c in comps]
        self.colors = [c["fields"].get("color") for c in comps]
        z = self.st["zones"]
        chars = [self.id_of(name, "Character") for name in characters]
        z["character"] = [[c] for c in chars]
        z["pool"] = [c for c, k in enumerate(self.kinds) if k == "Character" and c not in chars]
        self.st["vars"]["layout"] = list(LAYOUT)
        self.st["vars"]["at"] = [None] * self.players

    def id_of(self, label: str, kind: str | None = None, free: bool = False) -> int:
        """The first component with this label (free=True: the first not placed yet outside a deck)."""
        for c, name in enumerate(self.labels):
            if name == label and (kind is None or self.kinds[c] == kind):
                if not free or not self._placed(c):
                    return c
        raise ValueError(f"no {'free ' if free else ''}{label!r}")

    def _placed(self, c: int) -> bool:
        z = self.st["zones"]
        return any(c in zl for zl in z["equipment"]) or any(c in z[n] for n in
                                                             ("white_discard", "black_discard", "hermit_discard"))

    def _take(self, label: str) -> int:
        c = self.id_of(label, "Card", free=True)
        z = self.st["zones"]
        for name in ("white_deck", "black_deck", "hermit_deck", "white_discard", "black_discard",
                     "hermit_discard", "resolving"):
            if c in z[name]:
                z[name].remove(c)
        for zl in z["equipment"]:
            if c in zl:
                zl.remove(c)
        return c

    # ---- setters ----
    def layout(self, *areas: str):
        self.st["vars"]["layout"] = list(areas)
        return self

    def at(self, *areas):
        """Where each player stands, P1 first (None: off the board)."""
        self.st["vars"]["at"] = list(areas)
        return self

    def var(self, name: str, p: int | None, value):
        if p is None:
            self.st["vars"][name] = value
        else:
            self.st["vars"][name][p] = value
        return self

    def damage(self, p: int, n: int):
        return self.var("damage", p, n)

    def reveal(self, *ps: int):
        """Revealed characters (their card shown to all, as the rules' reveal does)."""
        for p in ps:
            self.st["vars"]["revealed"][p] = True
        return self

    def dead(self, *ps: int):
        for p in ps:
            self.st["vars"]["dead"][p] = True
            self.st["vars"]["revealed"][p] = True
        return self

    def equipment(self, p: int, *labels: str):
        for label in labels:
            self.st["zones"]["equipment"][p].append(self._take(label))
        return self

    def deck(self, color: str, *labels: str):
        """Put these cards on top of a deck, the first given on top."""
        ids = [self._take(label) for label in labels]
        pile = self.st["zones"][f"{color}_deck"]
        pile.extend(reversed(ids))             # the last item of a pile is its top
        return self

    def discard(self, color: str, *labels: str):
        for label in labels:
            self.st["zones"][f"{color}_discard"].append(self._take(label))
        return self

    def turn(self, p: int, step: str = "start"):
        """Whose turn it is and the step the flow waits at (its actor: that player)."""
        self.st["current"] = self.st["actor"] = p
        self.st["step"] = step
        return self

    def rolls(self, *dice: tuple[int, int]):
        """The next dice the match rolls, as (sides, value) pairs in order: the generator is set to
        a seed whose rolls give them (the match's one seeded generator, as `roll(n)` uses it)."""
        for seed in range(200000):
            r = random.Random(seed)
            if all(r.randint(1, sides) == value for sides, value in dice):
                version, internal, gauss = random.Random(seed).getstate()
                self.st["rng"] = [version, list(internal), gauss]
                return self
        raise ValueError(f"no seed below 200000 rolls {dice}")

    def match(self):
        st = self.st
        # a revealed character is known to all (what `reveal character[p]` records)
        known = {}
        for p in range(self.players):
            if st["vars"]["revealed"][p]:
                known[str(st["zones"]["character"][p][0])] = {"zone": ["character", p], "to": "all"}
        if known:
            st["known"] = known
        return rulelang.Match.from_state(game, st)


# ---- playing ----
REVEAL_OFFER = "attacked you: do you reveal your character now?"


def offered_reveal(m) -> bool:
    """Whether the match asks an attacked hidden character whether it reveals itself (every hidden
    living target of an attack is asked: H9, the Werewolf's counterattack)."""
    q = m.question
    return q is not None and q["prompt"].endswith(REVEAL_OFFER)


def play(m, *texts: str, stay_hidden: bool = True):
    """Apply actions or answers by their texts, each of which must be legal then. With
    `stay_hidden`, an attacked hidden character that the texts do not answer for (the next text is
    not an answer, or there is none) stays hidden: tests of other rules need not say so each time."""
    for text in texts:
        while stay_hidden and offered_reveal(m) and text not in legal(m):
            m.apply("stay hidden")
        now = legal(m)
        assert text in now, f"{text!r} is not legal; legal: {now}"
        m.apply(text)
    while stay_hidden and offered_reveal(m):
        m.apply("stay hidden")
    return m


def shown(view: dict, label: str):
    """A value the screen shows under this label (`show "Players" = …`)."""
    return next(v["value"] for v in view["values"] if v["name"] == label)


def player_lines(players: str) -> list[str]:
    """The "Players" value split into each player's part (`P2: hidden`, `P3: Allie (Neutral, 8 HP)`)."""
    return re.split(r" · (?=P\d+(?: \(you\))?: )", players)


def legal(m) -> list[str]:
    return [a.text for a in m.legal_actions()]


def var(m, name: str):
    return m.state()["vars"][name]


def zones(m) -> dict:
    return m.state()["zones"]


def labels(m, ids) -> list[str]:
    comps = m.state()["components"]
    return [comps[c]["label"] for c in ids]


def winners(m) -> list[int]:
    return [p for p, r in enumerate(m.outcome["results"]) if r == "win"]
