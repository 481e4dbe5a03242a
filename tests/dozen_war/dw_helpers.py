"""Exact Dozen War positions, built through the public API: a real match is set up (generals dealt at
random, placed by the first answers), its `state()` is edited — the board cleared, units, castles,
generals, cards, coins and tokens put where a test wants them — and restored with
`Match.from_state`, which checks it. Then actions and answers are played by their texts.

Cells are named as in the rule file: column letter, row number, row 1 at the bottom (South)."""
from __future__ import annotations

import os
import random
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parents[2]
game = rulelang.load(os.environ.get("DOZEN_WAR_RULES") or str(ROOT / "games" / "dozen_war.rules"))
CLASSES = ["infantry", "cavalry", "archer", "alchemist"]
MAX_HP = {"infantry": 2, "cavalry": 1, "archer": 1}


def idx(name: str) -> int:
    """a cell's index in the state: (row - 1) * 11 + column - 1"""
    return (int(name[1:]) - 1) * 11 + (ord(name[0]) - ord("a"))


def name(i: int) -> str:
    return chr(ord("a") + i % 11) + str(i // 11 + 1)


class Position:
    """`Position(2)`: an empty board (castles standing, no unit on it), round 1, P1 to act.
    Setters return self; `match()` restores it."""

    def __init__(self, players: int = 2, options: dict | None = None, seed: int = 0):
        self.players = players
        m = game.new_match(players, seed=seed, options={"generals": "random", **(options or {})})
        while m.state().get("pending") is not None:
            m.apply(m.legal_actions()[0])
        self.st = st = m.state()
        self.comps = st["components"]
        z, v = st["zones"], st["vars"]
        # clear the board: soldiers back to their barracks, generals and skills back in the box
        for c, units in enumerate(z["here"]):
            for u in units:
                if self.comps[u]["fields"]["general"]:
                    z["pool"].append(u)
                else:
                    p = v["player_of"][u]
                    z["barracks"][p * 4 + CLASSES.index(self.comps[u]["fields"]["cls"])].append(u)
                v["pos"][u] = None
            units.clear()
        for p in range(players):
            z["pool"] += z["fallen"][p]
            z["fallen"][p] = []
            z["skillbox"] += z["skills"][p]
            z["skills"][p] = []
            v["army"][p] = []
        for u in range(len(self.comps)):
            v["pcs"][u] = 0
        # no tokens under the mountains unless a test buries some
        for c, toks in enumerate(z["buried"]):
            z["box"] += toks
            toks.clear()
        z["box"] += z["stash"]
        z["stash"] = []
        # every hand back into the deck
        for p in range(players):
            z["deck"] += z["hand"][p]
            z["hand"][p] = []

    # ---- lookups ----
    def ids(self, label: str, kind: str | None = None) -> list[int]:
        return [i for i, c in enumerate(self.comps) if c["label"] == label and (kind is None or c["kind"] == kind)]

    def _place(self, u: int, p: int, at: str, hp: int):
        v = self.st["vars"]
        v["player_of"][u] = p
        v["pos"][u] = idx(at)
        v["hp"][u] = hp
        self.st["zones"]["here"][idx(at)].append(u)
        v["army"][p].append(u)

    # ---- setters ----
    def soldier(self, p: int, cls: str, at: str, hp: int | None = None, n: int = 1):
        """n soldiers of P(p+1) (0-based p) of a class on a cell."""
        for _ in range(n):
            u = self.st["zones"]["barracks"][p * 4 + CLASSES.index(cls)].pop()
            self._place(u, p, at, MAX_HP[cls] if hp is None else hp)
        return self

    def general(self, p: int, label: str, at: str | None, hp: int = 3, pieces: int = 0):
        """a general (and its 3 skills) given to p; at None: dead (in p's fallen zone)."""
        z, v = self.st["zones"], self.st["vars"]
        u = self.ids(label, "Unit")[0]
        for zn in ("pool", "banned"):
            if u in z[zn]:
                z[zn].remove(u)
        if at is None:
            v["player_of"][u] = p
            z["fallen"][p].append(u)
        else:
            self._place(u, p, at, hp)
        v["pcs"][u] = pieces
        for s, c in enumerate(self.comps):
            if c["kind"] == "Skill" and c["fields"]["of"] == label and s in z["skillbox"]:
                z["skillbox"].remove(s)
                z["skills"][p].append(s)
        if v["lead"][p] is None:
            v["lead"][p] = self.comps[u]["fields"]["cls"]
        return self

    def unit_at(self, at: str, label: str | None = None) -> int:
        for u in self.st["zones"]["here"][idx(at)]:
            if label is None or self.comps[u]["label"] == label:
                return u
        raise ValueError(f"no {label or 'unit'} at {at}")

    def hand(self, p: int, *labels: str):
        z = self.st["zones"]
        for label in labels:
            c = next(i for i in self.ids(label, "EquipmentCard") if i in z["deck"])
            z["deck"].remove(c)
            z["hand"][p].append(c)
        return self

    def deck_top(self, *labels: str):
        """equipment cards on top of the deck, the first given on top"""
        z = self.st["zones"]
        for label in reversed(labels):
            c = next(i for i in self.ids(label, "EquipmentCard") if i in z["deck"])
            z["deck"].remove(c)
            z["deck"].append(c)
        return self

    def events_top(self, *labels: str):
        z = self.st["zones"]
        for label in reversed(labels):
            c = next(i for i in self.ids(label, "Event") if i in z["events"])
            z["events"].remove(c)
            z["events"].append(c)
        return self

    def bury(self, at: str, label: str):
        z = self.st["zones"]
        t = next(i for i in self.ids(label, "Token") if i in z["box"])
        z["box"].remove(t)
        z["buried"][idx(at)].append(t)
        return self

    def castle(self, label: str, hp: int):
        k = self.ids(label, "Castle")[0]
        self.st["vars"]["chp"][k] = hp
        return self

    def var(self, key: str, p, value):
        if p is None:
            self.st["vars"][key] = value
        else:
            self.st["vars"][key][p] = value
        return self

    def coins(self, *cs: int):
        self.st["vars"]["bank"] = 30 - sum(cs)
        return self.var("coins", None, list(cs))

    def turn(self, p: int, rnd: int = 1):
        self.st["current"] = self.st["actor"] = p
        self.st["step"] = "act"
        self.st["rounds"]["round"] = rnd
        return self

    def rolls(self, *dice: tuple[int, int]):
        """the next dice rolled, (sides, value) pairs in order"""
        for seed in range(200000):
            r = random.Random(seed)
            if all(r.randint(1, sides) == value for sides, value in dice):
                version, internal, gauss = random.Random(seed).getstate()
                self.st["rng"] = [version, list(internal), gauss]
                return self
        raise ValueError(f"no seed below 200000 rolls {dice}")

    def match(self):
        return rulelang.Match.from_state(game, self.st)


# ---- playing ----
def legal(m) -> list[str]:
    return [a.text for a in m.legal_actions()]


def play(m, *texts: str):
    """Apply each text; a window question whose only answer is `pass` (asked so as to betray
    nothing) is answered, as a player with nothing to play would."""
    for text in texts:
        now = legal(m)
        assert text in now, f"{text!r} is not legal; legal: {now}"
        m.apply(text)
        while not m.is_over and m.question is not None and m.question["options"] == ["pass"]:
            m.apply("pass")
    return m


def var(m, key: str):
    if key == "round":
        return m.state()["rounds"]["round"]
    return m.state()["vars"][key]


def hp(m, u: int) -> int:
    return m.state()["vars"]["hp"][u]


def where(m, u: int):
    c = m.state()["vars"]["pos"][u]
    return None if c is None else name(c)


def units_at(m, at: str) -> list[str]:
    st = m.state()
    return sorted(st["components"][u]["label"] for u in st["zones"]["here"][idx(at)])


def labels(m, ids) -> list[str]:
    comps = m.state()["components"]
    return [comps[c]["label"] for c in ids]


def winners(m) -> list[int]:
    return [p for p, r in enumerate(m.outcome["results"]) if r == "win"]
