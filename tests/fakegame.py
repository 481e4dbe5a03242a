"""A tiny game written directly against rulelang's public engine API.

It lets the front-end tests run without the language: a seeded shuffle of a pile of
numbered cards; in turn, each player takes 1 or 2 cards from the top into a hand only
they can see, or passes (once per game); whoever takes the last card wins, and the
score is the sum of one's hand. Option "buggy" makes "take 2" fail half-way with a
RuleRuntimeError, the way a broken rule would.
"""
from __future__ import annotations

import copy
import random

from rulelang.core.errors import IllegalAction, RuleRuntimeError, StateError


class FakeAction:
    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text


class FakeGame:
    name = "Take Last"
    min_players = 2
    max_players = 3
    has_interrupts = False                   # (no `anytime` actions)
    options = [{"name": "pile", "type": "int", "default": 7},
               {"name": "buggy", "type": "bool", "default": False}]

    def new_match(self, players: int, seed: int, options: dict | None = None) -> FakeMatch:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is for 2 to 3 players, not {players}")
        chosen = {option["name"]: option["default"] for option in self.options}
        for key, value in (options or {}).items():
            if key not in chosen:
                raise ValueError(f"unknown option {key!r}; options are pile, buggy")
            chosen[key] = value
        pile = list(range(1, chosen["pile"] + 1))
        random.Random(seed).shuffle(pile)
        return FakeMatch(self, {"players": players, "turn": 0, "pile": pile,
                                "hands": [[] for _ in range(players)], "passed": [False] * players,
                                "buggy": chosen["buggy"], "winner": None, "log": []})


def load(path: str) -> FakeGame:
    return FakeGame()


class FakeMatch:
    question = None                          # (its effects never pause)
    simultaneous = None                      # (nor does it have a simultaneous step)

    def interrupts(self, player: int) -> list:
        return []

    def scores(self) -> None:
        return None

    def sides(self) -> None:
        return None

    def message_log(self) -> list[dict]:
        return []

    chance_events: list = []                 # (its only chance is the setup's shuffle)

    def log_for(self, player) -> list[str]:
        return self.log

    def visible_to(self, player: int) -> set:
        return set(self.data["hands"][player])

    def __init__(self, game: FakeGame, data: dict):
        self.game = game
        self.data = data

    @classmethod
    def from_state(cls, game: FakeGame, data: dict) -> FakeMatch:
        keys = {"players", "turn", "pile", "hands", "passed", "buggy", "winner", "log"}
        if not isinstance(data, dict) or set(data) != keys:
            raise StateError("corrupt state")
        return cls(game, copy.deepcopy(data))

    @property
    def players(self) -> int:
        return self.data["players"]

    @property
    def is_over(self) -> bool:
        return not self.data["pile"]

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.data["turn"] % self.players

    @property
    def log(self) -> list[str]:
        return list(self.data["log"])

    @property
    def outcome(self) -> dict | None:
        if not self.is_over:
            return None
        return {"results": ["win" if seat == self.data["winner"] else "lose" for seat in range(self.players)],
                "scores": [sum(hand) for hand in self.data["hands"]]}

    def legal_actions(self) -> list[FakeAction]:
        if self.is_over:
            return []
        texts = [f"take {n}" for n in (1, 2) if n <= len(self.data["pile"])]
        if not self.data["passed"][self.current_player]:
            texts.append("pass")
        return [FakeAction(text) for text in texts]

    def apply(self, action) -> None:
        text = str(action)
        if text not in [str(a) for a in self.legal_actions()]:
            raise IllegalAction(f"{text!r} is not legal now")
        seat = self.current_player
        if text == "pass":
            self.data["passed"][seat] = True
        else:
            for _ in range(int(text.split()[1])):
                self.data["hands"][seat].append(self.data["pile"].pop())
                if self.data["buggy"] and text == "take 2":
                    raise RuleRuntimeError("rule 'take' divided by zero")
            if not self.data["pile"]:
                self.data["winner"] = seat
        self.data["log"].append(text)
        self.data["turn"] += 1

    def view(self, player: int) -> dict:
        zones = [{"name": "pile", "owner": None, "visibility": "hidden", "ordered": True,
                  "count": len(self.data["pile"]), "cards": None}]
        for seat, hand in enumerate(self.data["hands"]):
            cards = [{"id": card, "label": f"#{card}"} for card in hand] if seat == player else None
            zones.append({"name": "hand", "owner": seat, "visibility": "owner", "ordered": False,
                          "count": len(hand), "cards": cards})
        return {"game": self.game.name, "players": self.players, "viewer": player,
                "actor": self.current_player, "turn_player": self.current_player, "step": "take",
                "turn": self.data["turn"] + 1, "zones": zones,
                "values": [{"name": "passed", "per_player": list(self.data["passed"])}],
                "board": None, "over": self.is_over, "outcome": self.outcome}

    def state(self) -> dict:
        return copy.deepcopy(self.data)

    def clone(self) -> FakeMatch:
        return FakeMatch(self.game, copy.deepcopy(self.data))
