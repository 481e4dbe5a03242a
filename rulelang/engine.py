"""The engine: a Game holds one compiled IR, a Match holds the state of one play of it.

State is flat and JSON-shaped: zones are lists of component ids (bottom first, so the
top of a pile is its last item), variables are values or per-player lists, and one
seeded `random.Random` is the only source of chance. The flow is a set of steps: a step
runs its `enter` block, then waits for its actor to choose one of its actions.
"""
from __future__ import annotations

import hashlib
import json
import random

from .closures import Lowerer, enumerate_action, player_text, plain_text
from .errors import IllegalAction, RuleRuntimeError, StateError

# Python errors a rule can provoke (a none where a number was due, say): reported as rule errors.
RULE_FAULTS = (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError, RecursionError)
FLOW_LIMIT = 1_000           # step changes in one apply before the flow is declared broken
STATE_FORMAT = "rulelang-state"


class Action:
    """One legal choice; its text is its identity ("play 8♦ A♣")."""
    __slots__ = ("text", "args", "_action")

    def __init__(self, text: str, args: dict, action):
        self.text, self.args, self._action = text, args, action

    @property
    def name(self) -> str:
        return self._action[0]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Action) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class Game:
    """A loaded rule file: build matches from it."""

    def __init__(self, ir: dict, path: str | None = None):
        self.ir = ir
        self.path = path
        self.name = ir["name"]
        self.min_players = ir["players"]["min"]
        self.max_players = ir["players"]["max"]
        self.options = [dict(o) for o in ir["options"]]
        self.fingerprint = hashlib.sha256(json.dumps(ir, sort_keys=True).encode()).hexdigest()[:16]
        low = Lowerer(ir)
        low.build()
        self.lowerer = low
        self.zones = ir["zones"]
        self.vars = [(v["name"], v["per"], v["visibility"], low.expr(v["init"])) for v in ir["vars"]]
        self.setup = low.block(ir["setup"])
        self.steps = {}
        for s in ir["steps"]:
            self.steps[s["name"]] = (low.expr(s["actor"]), low.block(s["enter"]), [low.action(a) for a in s["actions"]])
        self.first_step = ir["first_step"]
        self.handlers = {k: low.block(v) for k, v in ir["handlers"].items()}
        self.checks = [(low.expr(c["when"]), low.block(c["body"])) for c in ir["checks"]]
        self.limits = [(low.expr(x["count"]), low.block(x["body"])) for x in ir.get("limits", [])]
        self.geometry = low.geometry
        board = (ir.get("boards") or [None])[0]
        self.draw = None
        if board and board["draw"]:
            params, body, line = low.defs[board["draw"]]
            self.draw = (params[0], body)
        self.families = {z["name"] for z in self.zones if z["per"]}
        self.shown = [(name, low.expr(d["body"]), d.get("as", "plain"), low.texter(d.get("as", "plain")))
                      for name, d in ir["defs"].items() if d["show"]]

    def family_size(self, per: str, players: int) -> int:
        """How many zones (or values) a `per player` / `per cell` declaration stands for."""
        return players if per == "player" else self.geometry.size

    def option_values(self, options: dict | None) -> dict:
        values = {o["name"]: o["default"] for o in self.options}
        for key, value in (options or {}).items():
            spec = next((o for o in self.options if o["name"] == key), None)
            if spec is None:
                known = ", ".join(values) or "none"
                raise ValueError(f"unknown option `{key}` for {self.name} (options: {known})")
            want = {"bool": bool, "int": int, "text": str}.get(spec["type"])
            if want is not None and (type(value) is not want):
                raise ValueError(f"option `{key}` must be {spec['type']}, not {value!r}")
            values[key] = value
        return values

    def new_match(self, players: int | None = None, seed: int = 0, options: dict | None = None) -> "Match":
        players = self.min_players if players is None else players
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}..{self.max_players} players, not {players}")
        m = Match(self, players, seed, self.option_values(options))
        with m._guard("setting up the match"):
            m._start()
        return m


class Match:
    """One play of a game. Use only the public methods; the rest is the engine's."""

    def __init__(self, game: Game, players: int, seed, options: dict):
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.rng = random.Random(seed)
        self.zones: dict = {}
        self.capacity: dict[int, tuple] = {}       # id(zone list) -> (limit, zone name)
        self.vars: dict = {}
        self.comps: list[dict] = []
        self.kinds: list[str] = []
        self.labels: list[str] = []
        self.where: list = []                      # component id -> the zone list holding it
        self.step = game.first_step
        self.current = 0
        self.me = 0
        self.actor = 0
        self.turn_count = 0
        self.depth = 0
        self.result: dict | None = None
        self.log: list[str] = []
        self.messages: list = []
        self._legal: list | None = None
        self._by_text: dict | None = None

    # ---- public API ----
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def outcome(self) -> dict | None:
        return self.result

    @property
    def current_player(self) -> int | None:
        return None if self.result is not None else self.actor

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            with self._guard("listing the legal actions"):
                self._enumerate()
        return list(self._legal)

    def apply(self, action) -> None:
        text = action.text if isinstance(action, Action) else str(action).strip()
        if self.result is not None:
            raise IllegalAction(f"the game is over; `{text}` cannot be played")
        if self._legal is None:
            self._enumerate()
        found = self._by_text.get(text)
        if found is None:
            raise IllegalAction(f"`{text}` is not a legal action now")
        _, args, act = found
        self.me = self.actor
        self._legal = self._by_text = None
        with self._guard(f"playing `{text}`"):
            signal = act[4](self, dict(args))
            self.log.append(text)
            self._settle(signal)

    def view(self, player: int) -> dict:
        if not 0 <= player < self.players:
            raise ValueError(f"no player {player} in a {self.players}-player match")
        zones = []
        cells: dict = {}
        geometry = self.game.geometry
        for z in self.game.zones:
            name, vis = z["name"], z["visibility"]
            if z["per"] == "cell":
                for cell, items in enumerate(self.zones[name]):
                    if items:
                        shown = [self.labels[c] for c in items] if vis == "public" else None
                        cells.setdefault(geometry.names[cell], {})[name] = shown if shown is not None else len(items)
                continue
            owners = range(self.players) if z["per"] else [None]
            for owner in owners:
                items = self.zones[name][owner] if owner is not None else self.zones[name]
                visible = vis == "public" or (vis == "owner" and owner == player)
                zones.append({"name": name, "owner": owner, "visibility": vis, "ordered": z["ordered"],
                              "count": len(items),
                              "cards": [{"id": c, "label": self.labels[c]} for c in items] if visible else None})
        values = []
        for name, per, vis, init in self.game.vars:
            if vis == "hidden":
                continue
            value = self.vars[name]
            if per == "cell":                      # only the cells that differ from the initial value
                initial = init(self, {})
                for cell, v in enumerate(value):
                    if v != initial:
                        cells.setdefault(geometry.names[cell], {})[name] = self._plain(v)
                continue
            if per:
                row = [self._plain(v) if (vis == "public" or p == player) else None for p, v in enumerate(value)]
                values.append({"name": name, "per_player": row})
            else:
                values.append({"name": name, "value": self._plain(value)})
        saved = self.me
        self.me = player
        try:
            with self._guard("computing a view"):
                for name, fn, how, to_text in self.game.shown:
                    value = fn(self, {})
                    shown = self._plain(value) if how == "plain" else to_text(self, value)
                    values.append({"name": name, "value": shown})
                drawing = self._drawing(player) if geometry is not None else None
        finally:
            self.me = saved
        return {"game": self.game.name, "players": self.players, "viewer": player,
                "actor": self.current_player, "turn_player": self.current, "step": self.step,
                "turn": self.turn_count, "zones": zones, "values": values, "cells": cells,
                "board": drawing, "over": self.is_over, "outcome": self.result}

    def state(self) -> dict:
        version, internal, gauss = self.rng.getstate()
        return {
            "format": STATE_FORMAT, "version": 1, "game": self.game.name, "fingerprint": self.game.fingerprint,
            "players": self.players, "seed": self.seed, "options": dict(self.options),
            "rng": [version, list(internal), gauss],
            "components": [{"kind": k, "fields": dict(f), "label": l}
                           for k, f, l in zip(self.kinds, self.comps, self.labels)],
            "zones": {k: ([list(z) for z in v] if self._is_family(k) else list(v)) for k, v in self.zones.items()},
            "vars": {k: (list(v) if isinstance(v, list) else v) for k, v in self.vars.items()},
            "step": self.step, "current": self.current, "actor": self.actor, "turn": self.turn_count,
            "outcome": self.result, "log": list(self.log), "messages": list(self.messages),
        }

    @classmethod
    def from_state(cls, game: Game, data: dict) -> "Match":
        try:
            return cls._restore(game, data)
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            raise StateError(f"corrupt match state ({type(err).__name__}: {err})") from None

    def clone(self) -> "Match":
        m = Match(self.game, self.players, self.seed, self.options)
        m.rng.setstate(self.rng.getstate())
        m.comps, m.kinds, m.labels = self.comps, self.kinds, self.labels   # never changed after creation
        m.zones = {k: ([list(z) for z in v] if self._is_family(k) else list(v)) for k, v in self.zones.items()}
        m.vars = {k: (list(v) if isinstance(v, list) else v) for k, v in self.vars.items()}
        m._index_zones()
        m.step, m.current, m.actor, m.turn_count = self.step, self.current, self.actor, self.turn_count
        m.result = dict(self.result) if self.result else None
        m.log, m.messages = list(self.log), list(self.messages)
        return m

    # ---- engine internals ----
    def _guard(self, doing: str):
        """Turn a Python error raised by a rule into a RuleRuntimeError that says where it happened."""
        match = self

        class Guard:
            def __enter__(self):
                return self

            def __exit__(self, kind, err, tb):
                if kind is not None and issubclass(kind, RULE_FAULTS):
                    raise RuleRuntimeError(f"{match.game.ir.get('source', match.game.name)}: rule error at step "
                                           f"`{match.step}` while {doing}: {kind.__name__}: {err}") from None
                return False
        return Guard()

    def _is_family(self, zone: str) -> bool:
        return zone in self.game.families

    def _drawing(self, player: int) -> str:
        g = self.game.geometry
        if self.game.draw is not None:
            param, body = self.game.draw
            return g.draw(lambda cell: plain_text(body(self, {param: cell})))
        cell_zones = [z["name"] for z in self.game.zones if z["per"] == "cell" and z["visibility"] == "public"]

        def glyph(cell):
            for name in cell_zones:
                items = self.zones[name][cell]
                if items:
                    return self.labels[items[-1]][:3]
            return "." if g.kinds[cell] == g.kinds[0] else "·"
        return g.draw(glyph)

    @staticmethod
    def _plain(v):
        return list(v) if isinstance(v, list) else v

    def _fail(self, line, msg):
        self.game.lowerer.fail(line, msg)

    def _init_zones(self) -> None:
        for z in self.game.zones:
            count = self.game.family_size(z["per"], self.players) if z["per"] else 0
            self.zones[z["name"]] = [[] for _ in range(count)] if z["per"] else []

    def _index_zones(self) -> None:
        """Rebuild `where` and capacities from the zone lists (after restore or clone)."""
        self.where = [None] * len(self.comps)
        self.capacity = {}
        for z in self.game.zones:
            lists = self.zones[z["name"]] if z["per"] else [self.zones[z["name"]]]
            for zl in lists:
                if z["capacity"] is not None:
                    self.capacity[id(zl)] = (z["capacity"], z["name"])
                for c in zl:
                    if not isinstance(c, int) or not 0 <= c < len(self.comps):
                        raise StateError(f"zone `{z['name']}` holds {c!r}, which is not a component")
                    if self.where[c] is not None:
                        raise StateError(f"component {self.labels[c]} (id {c}) is in two places")
                    self.where[c] = zl

    def _start(self) -> None:
        self._init_zones()
        self._index_zones()
        for name, per, _, init in self.game.vars:
            if per == "player":
                row = []
                for p in range(self.players):
                    self.me = p
                    row.append(init(self, {}))
                self.vars[name] = row
            elif per:
                self.me = 0
                value = init(self, {})
                self.vars[name] = [value] * self.game.family_size(per, self.players)
            else:
                self.me = 0
                self.vars[name] = init(self, {})
        self.me = self.current = 0
        signal = self.game.setup(self, {})
        for c, zl in enumerate(self.where):
            if zl is None:
                self._fail(None, f"component {self.labels[c]} was created nowhere")
        if signal is None:
            signal = self._begin_turn()
        self._settle(signal)

    def add_component(self, kind: str, fields: dict, label: str, dest: list, bottom: bool, line) -> None:
        c = len(self.comps)
        self.comps.append(fields)
        self.kinds.append(kind)
        self.labels.append(label)
        self.where.append(None)
        self.move([c], dest, bottom, line)

    def move(self, items, dest: list, bottom: bool, line) -> None:
        for c in items:
            src = self.where[c]
            if src is not None:
                src.remove(c)
            if bottom:
                dest.insert(0, c)
            else:
                dest.append(c)
            self.where[c] = dest
        cap = self.capacity.get(id(dest))
        if cap is not None and len(dest) > cap[0]:
            self._fail(line, f"zone `{cap[1]}` holds {len(dest)} components, over its capacity {cap[0]}")

    def finish(self, result: str, who) -> None:
        if self.result is not None:
            return
        n = self.players
        if who is None:
            results = [result] * n
        else:
            chosen = set(who) if isinstance(who, list) else {who}
            other = {"win": "lose", "lose": "win"}.get(result, result)
            results = [result if p in chosen else other for p in range(n)]
        self.result = {"results": results, "scores": None}

    def _enter(self, step: str):
        if step not in self.game.steps:
            self._fail(None, f"there is no step `{step}`")
        self.step = step
        self.me = self.current
        return self.game.steps[step][1](self, {})

    def _begin_turn(self):
        self.turn_count += 1
        self.me = self.current
        for count, body in self.game.limits:
            if self.turn_count > count(self, {}):
                signal = body(self, {})
                if signal is not None or self.result is not None:
                    return signal or ("finish",)
        handler = self.game.handlers.get("turn_start")
        if handler is not None:
            signal = handler(self, {})
            if signal is not None:
                return signal
        return ("goto", self.game.first_step)

    def _end_turn(self, to):
        handler = self.game.handlers.get("turn_end")
        if handler is not None:
            self.me = self.current
            signal = handler(self, {})
            if signal is not None and signal[0] == "finish":
                return signal
        self.current = (self.current + 1) % self.players if to is None else to
        return self._begin_turn()

    def _settle(self, signal) -> None:
        """Follow gotos and turn ends until a player must decide or the game is over."""
        budget = FLOW_LIMIT
        while True:
            while signal is not None and self.result is None:
                budget -= 1
                if budget < 0:
                    self._fail(None, f"the flow never settles: {FLOW_LIMIT} step changes in one action "
                                     f"(last step `{self.step}`)")
                kind = signal[0]
                if kind == "goto":
                    signal = self._enter(signal[1])
                elif kind == "end_turn":
                    signal = self._end_turn(signal[1])
                else:
                    signal = None
            if self.result is not None:
                self._legal, self._by_text = [], {}
                return
            for when, body in self.game.checks:
                self.me = self.current
                if when(self, {}):
                    signal = body(self, {})
                    if signal is not None or self.result is not None:
                        break
            if signal is not None or self.result is not None:
                continue
            actor_fn = self.game.steps[self.step][0]
            self.me = self.current
            self.actor = actor_fn(self, {}) if actor_fn is not None else self.current
            self._legal = None
            self._enumerate()
            if self._legal:
                return
            handler = self.game.handlers.get("stuck")
            if handler is None:
                self._fail(None, f"{player_text(self.actor)} has no legal action at step `{self.step}` "
                                 f"and the rules have no `on stuck` block")
            self.me = self.actor
            signal = handler(self, {})
            if signal is None and self.result is None:
                self._fail(None, f"`on stuck` must end the game, end the turn or go to a step "
                                 f"({player_text(self.actor)} is stuck at step `{self.step}`)")

    def _enumerate(self) -> None:
        out: list = []
        if self.result is None:
            seen: set = set()
            self.me = self.actor
            for action in self.game.steps[self.step][2]:
                enumerate_action(self, action, out, seen)
        self._legal = [Action(text, args, act) for text, args, act in out]
        self._by_text = {text: (text, args, act) for text, args, act in out}

    def _fits(self, value, typ: str) -> bool:
        """Does a restored value have its variable's declared type? (None fits any but int/bool.)"""
        if value is None:
            return typ not in ("int", "bool")
        if typ == "int":
            return type(value) is int
        if typ == "bool":
            return type(value) is bool
        if typ == "text" or typ.startswith("enum:"):
            return isinstance(value, str)
        if typ == "player":
            return type(value) is int and 0 <= value < self.players
        if typ == "cell":
            return type(value) is int and 0 <= value < self.game.geometry.size
        if typ.startswith("comp:"):
            return type(value) is int and 0 <= value < len(self.comps)
        if typ.startswith("list:"):
            return isinstance(value, list) and all(self._fits(v, typ[5:]) for v in value)
        return True

    @classmethod
    def _restore(cls, game: Game, data: dict) -> "Match":
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise StateError("not a rulelang match state")
        if data.get("fingerprint") != game.fingerprint:
            raise StateError(f"this state belongs to another game or another version of its rules "
                             f"(state: {data.get('game')!r}, game: {game.name!r})")
        m = cls(game, int(data["players"]), data.get("seed"), dict(data["options"]))
        version, internal, gauss = data["rng"]
        m.rng.setstate((version, tuple(internal), gauss))
        comps = data["components"]
        m.kinds = [c["kind"] for c in comps]
        m.comps = [dict(c["fields"]) for c in comps]
        m.labels = [str(c["label"]) for c in comps]
        for z in game.zones:
            raw = data["zones"][z["name"]]
            if z["per"]:
                if len(raw) != game.family_size(z["per"], m.players):
                    raise StateError(f"zone `{z['name']}` must have one list per {z['per']}")
                m.zones[z["name"]] = [list(x) for x in raw]
            else:
                m.zones[z["name"]] = list(raw)
        m._index_zones()
        missing = [m.labels[c] for c, zl in enumerate(m.where) if zl is None]
        if missing:
            raise StateError(f"components in no zone: {', '.join(missing[:5])}")
        types = {v["name"]: v["type"] for v in game.ir["vars"]}
        for name, per, _, _ in game.vars:
            value = data["vars"][name]
            if per and (not isinstance(value, list) or len(value) != game.family_size(per, m.players)):
                raise StateError(f"variable `{name}` must have one value per {per}")
            for v in (value if per else [value]):
                if not m._fits(v, types[name]):
                    raise StateError(f"variable `{name}` holds {v!r}, which is not a {types[name]}")
            m.vars[name] = list(value) if isinstance(value, list) else value
        m.step = data["step"]
        if m.step not in game.steps:
            raise StateError(f"unknown step `{m.step}`")
        m.current, m.actor, m.turn_count = int(data["current"]), int(data["actor"]), int(data["turn"])
        if not (0 <= m.current < m.players and 0 <= m.actor < m.players):
            raise StateError("the current player is not a seat of this match")
        m.result = data.get("outcome")
        if m.result is not None:
            results = m.result.get("results") if isinstance(m.result, dict) else None
            if not (isinstance(results, list) and len(results) == m.players
                    and all(r in ("win", "lose", "draw") for r in results)):
                raise StateError("the outcome must give win, lose or draw for every player")
        m.log = [str(x) for x in data.get("log", [])]
        m.messages = list(data.get("messages", []))
        return m
