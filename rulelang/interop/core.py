"""What the PettingZoo, Gymnasium and OpenSpiel adapters share: one `Interface` per
(game, player count, options), derived from the compiled IR alone.

- `Interface.observe(match, p)`: a fixed-size float32 vector of what seat p may see. It is built
  from `match.view(p)`; the only other thing read is the (never-changing) kind and fields of the
  components whose ids that view shows, so it cannot hold anything p may not see.
- `Interface.legal(match)`: the legal actions as (index, Action) pairs in a fixed action space:
  a "text" space (every action text the rules can ever offer, listed from the IR) where that
  universe is finite and small, otherwise an "index" space (the legal texts sorted, capped).
- `facts(ir, players)`: whether the rules use chance, hide anything, and how the outcome pays.
The layout of the vector is in docs/interop.md; `Interface.layout` names its segments.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
import operator
import re
import warnings
import zlib

import rulelang
from ..core.types import ValueType
from ..core.textsafe import printable
from ..ir.sight import names_by_place
from ..ir.spec import RANDOM_CALLS         # the builtins that draw from the generator

INT_BINS = 16                 # a component's int field: its sum, and a histogram of values 0..15 (15: 15 or more)
TEXT_BUCKETS = 16             # a component's text field (a card's name): counted in one of 16 buckets by CRC-32
VALUE_BOUND = 1e9             # every entry of an observation is clipped to +-VALUE_BOUND
DEFAULT_ACTION_CAP = 512      # index space: at most this many legal actions at once
DEFAULT_UNIVERSE_CAP = 1024   # text space: at most this many action texts in all
RESULT_REWARD = {"win": 1.0, "lose": -1.0, "draw": 0.0}
CHOICE_KINDS = ("one", "subset", "order", "may", "window")
PAUSING = ("choose", "may", "open", "run", "emit", "resolve_triggers")   # statements that may stop an effect for a question


class MissingExtra(ImportError):
    """An optional library is not installed: the message names the extra to install."""


def _short(value, limit: int = 40) -> str:
    """A value a caller passed, as Python writes it, cut short and safe to print."""
    text = repr(value)
    return printable(text if len(text) <= limit else text[:limit - 1] + "…")


def started(env) -> None:
    """Before the first `reset()` there is no match: say so (not an AttributeError from inside —
    a researcher's trial; the parallel env's `step` returned nothing at all)."""
    if env.match is None:
        raise RuntimeError("call reset() first: there is no match yet")


def render_mode_checked(mode):
    """`render_mode` None or "ansi", the one mode `render()` draws ("human" gave None at every call)."""
    if mode is not None and mode != "ansi":
        raise ValueError(f"render_mode must be None or 'ansi' (the view as text), not {_short(mode)}")
    return mode


def need(module: str, extra: str):
    """Import an optional library, or fail with one line saying which extra brings it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"rulelang.interop needs {module}: pip install 'rulelang[{extra}]'") from None


np = need("numpy", "gymnasium")


# An episode is cut (truncated) after this many actions unless the caller says otherwise, as
# OpenSpiel's `max_game_length`: a policy that always took the first legal action never ended a card game,
# and its episode grew for 271,000 actions until the state limit failed every later step (an API trial).
MAX_STEPS = 10_000


def no_reset_options(options) -> None:
    """`reset(options=…)` is said to be unread, not dropped silently: the rules' options are the
    environment's, given when it is made (a researcher's trial passed `{'alliance': True}` and played
    without). A warning, not an error: the libraries' own checks pass options of their own."""
    if options:
        import warnings
        warnings.warn("reset(options=…) is not read: the rules' options are given when the environment "
                      "is made (options={…})", stacklevel=3)


def whole_seed(seed):
    """A seed as the engine takes it: None, or a whole number (a NumPy integer too, which Python's
    `random` and Gymnasium refuse); else a ValueError that says so."""
    if seed is None:
        return None
    if not isinstance(seed, bool):
        try:
            return operator.index(seed)
        except TypeError:
            pass
    raise ValueError(f"the seed must be a whole number, not {type(seed).__name__} {seed!r:.40}")


def action_index(action) -> int:
    """An action given by its index: a Python or NumPy integer, or an integer array of one element
    (what a vectorised policy gives for one environment). Anything else is a TypeError that says
    so (1.9 is no index: it was taken as 1; `0.0`, `'0'` and `[0]` were said to be "not legal
    (see the action mask)", and a Gymnasium episode ended on them as on an illegal move)."""
    if not isinstance(action, bool) and action is not None:
        try:
            return operator.index(action)
        except TypeError:
            if getattr(action, "size", None) == 1 and getattr(getattr(action, "dtype", None), "kind", "") in ("i", "u"):
                return int(action.reshape(()))
    raise TypeError(f"an action is given by its index, an integer (a Python or NumPy int), not "
                    f"{type(action).__name__} {action!r:.40}")


def load_game(game) -> rulelang.Game:
    """A Game from a Game, a rule file or a compiled IR path."""
    if isinstance(game, rulelang.Game):
        return game
    return rulelang.load(str(game))


def slug(game: rulelang.Game) -> str:
    """A name for registries (`rulelang_game`): the rule file's stem, else the game's name."""
    import unicodedata
    from pathlib import Path
    base = Path(game.path).stem if game.path else game.name
    base = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode()
    return "rulelang_" + (re.sub(r"[^a-z0-9]+", "_", base.lower()).strip("_") or "game")


# ---------------------------------------------------------------- facts about the rules

def _nodes(x):
    """Every dict in an IR part, depth first."""
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, dict):
            yield y
            stack.extend(y.values())
        elif isinstance(y, list):
            stack.extend(y)


def facts(ir: dict, players: int) -> dict:
    """What an OpenSpiel GameType says, read from the IR.

    chance: a `shuffle`, `roll(n)` or `pick(list)` anywhere (setup included).
    imperfect: a hidden or owner zone, or a hidden or owner variable (an `internal` one counts by
      its visibility: `internal` only keeps it off the screen).
    utility: "identical" when every `finish` names no player and is not by score (the players win
      or lose together); else "zero_sum" for two players with no everyone-wins/everyone-loses
      finish (a finish naming a player gives the other the opposite result; a draw is 0, 0);
      else "general_sum".
    pauses: an effect may stop for a question (choose, may, windows, triggers).
    A simultaneous step makes the game imperfect: its seats answer one after another (OpenSpiel's
    sequential equivalent of a simultaneous move), each without seeing the answers given before.
    """
    chance, everyone, named, pauses = False, False, False, False
    for node in _nodes({k: v for k, v in ir.items() if k not in ("source", "about")}):
        s = node.get("s")
        if s == "shuffle" or (node.get("k") == "call" and node.get("f") in RANDOM_CALLS):
            chance = True
        if s in PAUSING:
            pauses = True
        if s == "finish":
            if node.get("who") is None and node.get("result") in ("win", "lose"):
                everyone = True
            elif node.get("who") is not None or node.get("result") == "score":
                named = True
    imperfect = any(z["visibility"] != "public" for z in ir["zones"]) or \
        any(v["visibility"] != "public" for v in ir["vars"]) or \
        any(s.get("simultaneous") is not None for s in ir["steps"])   # answers in secret (a sequential equivalent)
    if everyone and not named:
        utility = "identical"
    elif players == 2 and not everyone:
        utility = "zero_sum"
    else:
        utility = "general_sum"
    return {"chance": chance, "imperfect": imperfect, "utility": utility, "pauses": pauses}


def rewards(outcome: dict | None, players: int) -> list[float]:
    """+1 a win, -1 a loss, 0 a draw or an unfinished match."""
    if not outcome:
        return [0.0] * players
    return [RESULT_REWARD.get(r, 0.0) for r in outcome["results"]]


# ---------------------------------------------------------------- boards

def cell_names(ir: dict) -> list[str]:
    """The cells of the game's board in the engine's order (rulelang/engine/boards.py: column letter and
    row, row 1 at the bottom, row by row; then an octagon board's sockets, `bc23`)."""
    boards = ir.get("boards") or []
    if not boards:
        return []
    b = boards[0]
    w, h = b["width"], b["height"]
    letter = "abcdefghijklmnopqrstuvwxyz"
    names = [f"{letter[c]}{r}" for r in range(1, h + 1) for c in range(w)]
    if b["shape"] == "octagons":
        names += [f"{letter[c]}{letter[c + 1]}{r}{r + 1}" for r in range(1, h) for c in range(w - 1)]
    return names


# ---------------------------------------------------------------- the observation encoding

class _Writer:
    """A flat list of floats written segment by segment; in layout mode it only records sizes."""

    def __init__(self, size: int | None = None):
        self.out = np.zeros(size, np.float32) if size is not None else None
        self.i = 0
        self.layout: list = []

    def seg(self, name: str):
        self.layout.append([name, self.i])

    def put(self, n: int, index: int | None = None, value: float = 1.0):
        """Reserve n slots; add `value` at slot `index` of them (None: nothing)."""
        if self.out is not None and index is not None and 0 <= index < n:
            self.out[self.i + index] += value
        self.i += n


class _Stale(LookupError):
    """A view shows a component the feature table does not have: read the components afresh."""


class Encoder:
    """A view (`Match.view(p)`) to a fixed-size vector: see docs/interop.md for the layout."""

    def __init__(self, game: rulelang.Game, players: int):
        ir = game.ir
        self.players = players
        self.enums = {e: [i["name"] for i in items] for e, items in ir["enums"].items()}
        self.kinds = [(k, [(f["name"], ValueType.parse(f["type"])) for f in spec["fields"]])
                      for k, spec in ir["kinds"].items()]
        self.kind_index = {k: i for i, (k, _) in enumerate(self.kinds)}
        self.steps = [s["name"] for s in ir["steps"]]
        self.cells = cell_names(ir)
        self.cell_index = {c: i for i, c in enumerate(self.cells)}
        visible = ir["zones"]                 # (`internal` ones too: off the screen only, in the view)
        self.zones = [z for z in visible if z["per"] != "cell"]
        self.cell_zones = [z for z in visible if z["per"] == "cell"]
        shown_vars = [v for v in ir["vars"] if v["visibility"] != "hidden"]
        self.vars = [(v["name"], v["per"], ValueType.parse(v["type"]),
                      self._members(v.get("key") or []) if v["per"] == "key" else None)
                     for v in shown_vars if v["per"] in (None, "player", "key")]
        self.var_names = {v[0] for v in self.vars}
        self.cell_vars = [(v["name"], ValueType.parse(v["type"])) for v in shown_vars if v["per"] == "cell"]
        self.comp_vars = [(v["name"], ValueType.parse(v["type"])) for v in shown_vars if v["per"] == "component"]
        self.shown = [d.get("label", name) for name, d in ir["defs"].items() if d.get("show")]
        self._plan()
        w = _Writer()
        self._write(w, None, [])
        self.size = w.i
        self.layout = w.layout

    def _members(self, key: list) -> list[tuple]:
        """The members of a keyed family (`per player per Colour`), in the engine's order: one value
        per part (a seat, a cell's index, an enum value's name), the last part varying fastest."""
        out = [()]
        for part in key:
            values = (list(range(self.players)) if part == "player" else list(range(len(self.cells)))
                      if part == "cell" else list(self.enums.get(part[5:], [])))
            out = [t + (v,) for t in out for v in values]
        return out

    def _zone_members(self, z: dict) -> list:
        """(member as the view names it, a label for the layout) for each block of a zone."""
        if z["per"] == "player":
            return [(p, f" P{p + 1}") for p in range(self.players)]
        if z["per"] == "component":
            return [("of", " (all)")]
        if z["per"] == "key":
            return [(m, " [" + ", ".join(f"P{v + 1}" if part == "player" else str(v)
                                         for part, v in zip(z["key"], m)) + "]")
                    for m in self._members(z["key"])]
        return [(None, "")]

    def encode(self, view: dict, components: list, by_label: dict | None = None) -> "np.ndarray":
        """The vector of one view. `components[id]` is the `features` of component id (from its
        kind and fields, which never change): read only for the components the view shows.
        `by_label`: label -> features, for board cells, which show labels."""
        w = _Writer(self.size)
        self._write(w, view, components, by_label or {})
        assert w.i == self.size
        return np.clip(w.out, -VALUE_BOUND, VALUE_BOUND, out=w.out)

    # -- value features (one variable's value, by its type)
    def _value_width(self, t: ValueType) -> int:
        if t.base == "enum":
            return len(self.enums.get(t.arg, ())) + 1
        if t.base == "player":
            return self.players + 1
        if t.base == "list":
            return 1 + self._elem_width(t.elem)
        return 1

    def _elem_width(self, t: ValueType) -> int:
        """A list's elements, counted: per enum value, per seat; summed (int); counted true (bool)."""
        if t.base == "enum":
            return len(self.enums.get(t.arg, ()))
        if t.base == "player":
            return self.players
        return 1 if t.base in ("int", "bool") else 0

    def _value(self, w: _Writer, t: ValueType, v):
        """int: the value; bool: 0/1; enum and player: one-hot (last slot: none); a component,
        cell or text: 1 if set; a list: its length and its elements counted."""
        if v is None or w.out is None:
            if t.base in ("enum", "player"):
                w.put(self._value_width(t), self._value_width(t) - 1 if w.out is not None else None)
            else:
                w.put(self._value_width(t))
            return
        if t.base == "int" or t.base == "any":
            w.put(1, 0, _number(v))
        elif t.base == "bool":
            w.put(1, 0, 1.0 if v else 0.0)
        elif t.base == "enum":
            items = self.enums.get(t.arg, [])
            w.put(len(items) + 1, items.index(v) if v in items else None)
        elif t.base == "player":
            w.put(self.players + 1, v if isinstance(v, int) else None)
        elif t.base == "list":
            items = v if isinstance(v, list) else []
            w.put(1, 0, len(items))
            self._elems(w, t.elem, items)
        else:
            w.put(1, 0, 1.0 if v not in ("", []) else 0.0)

    def _elems(self, w: _Writer, t: ValueType, items: list):
        n = self._elem_width(t)
        if not n:
            return
        start = w.i
        for x in items:
            w.i = start
            if t.base == "enum":
                names = self.enums.get(t.arg, [])
                w.put(n, names.index(x) if x in names else None)
            elif t.base == "player":
                w.put(n, x if isinstance(x, int) else None)
            elif t.base == "int":
                w.put(1, 0, _number(x))
            else:
                w.put(1, 0, 1.0 if x else 0.0)
        w.i = start + n

    # -- component features (what lies in a zone)
    def _cards_width(self) -> int:
        return self.cards_width

    def _field_width(self, t: ValueType) -> int:
        if t.base == "int":
            return 1 + INT_BINS
        if t.base == "bool":
            return 1
        if t.base == "enum":
            return len(self.enums.get(t.arg, ()))
        if t.base == "player":
            return self.players
        if t.base == "text":
            return TEXT_BUCKETS
        return 0

    def _plan(self):
        """Where each kind's features start in a block of component features."""
        self.kind_offset, at = {}, 0
        for k, fields in self.kinds:
            self.kind_offset[k] = at
            at += 1 + sum(self._field_width(t) for _, t in fields)
        self.cards_width = at

    def features(self, kind: str, fields: dict) -> tuple:
        """One component's features as (index in the block, amount) pairs: its kind counted; an int
        field's value (summed) and its histogram bin (0..15, the last for 15 or more); a bool
        field counted if true; an enum or player field counted per value; a text field (a card's
        name) counted in its bucket (CRC-32 of the text, modulo 16)."""
        at = self.kind_offset.get(kind)
        if at is None:
            return ()
        out = [(at, 1.0)]
        at += 1
        for name, t in self.kinds[self.kind_index[kind]][1]:
            v = fields.get(name)
            width = self._field_width(t)
            if t.base == "int":
                x = _number(v)
                out.append((at, x))
                out.append((at + 1 + min(INT_BINS - 1, max(0, int(x))), 1.0))
            elif t.base == "bool":
                if v:
                    out.append((at, 1.0))
            elif t.base == "enum":
                names = self.enums.get(t.arg, [])
                if v in names:
                    out.append((at + names.index(v), 1.0))
            elif t.base == "player":
                if isinstance(v, int) and 0 <= v < width:
                    out.append((at + v, 1.0))
            elif t.base == "text":
                if isinstance(v, str):
                    out.append((at + zlib.crc32(v.encode("utf-8")) % TEXT_BUCKETS, 1.0))
            at += width
        return tuple(out)

    def _cards(self, w: _Writer, cards: list):
        """Components counted: the sum of their `features`."""
        out = w.out
        if out is not None:
            base = w.i
            for feats in cards:
                for rel, x in feats:
                    out[base + rel] += x
        w.i += self.cards_width

    # -- the whole vector, segment by segment (a missing view writes every segment's "unknown")
    def _write(self, w: _Writer, view: dict | None, components, by_label: dict | None = None):
        def comp(c):
            if isinstance(c, int) and 0 <= c < len(components):
                return components[c]
            raise _Stale(c)

        self._write_header(w, view)
        self._write_choice(w, view)
        self._write_zones(w, view, comp)
        if self.cells and (self.cell_zones or self.cell_vars):
            self._write_cells(w, view, by_label)
        shown_values = self._write_vars(w, view)
        if self.comp_vars:
            self._write_component_vars(w, view)
        if self.shown:
            self._write_shown(w, view, shown_values)

    def _write_header(self, w: _Writer, view: dict | None):
        """Whose view, who acts, whose turn, the step, the turn number, the end."""
        n, live = self.players, view is not None
        w.seg("header")
        w.put(n, view["viewer"] if live else None)
        actor = view["actor"] if live else None
        w.put(n + 1, (actor if actor is not None else n) if live else None)
        w.put(1, 0 if live and actor == view["viewer"] else None)
        w.put(n, view["turn_player"] if live else None)
        step = view["step"] if live else None
        w.put(len(self.steps) + 1, (self.steps.index(step) if step in self.steps else len(self.steps))
              if live else None)
        w.put(1, 0, float(view["turn"]) if live else 0.0)
        w.put(1, 0 if live and view["over"] else None)
        result = view["outcome"]["results"][view["viewer"]] if live and view["outcome"] else None
        w.put(3, ("win", "lose", "draw").index(result) if result in ("win", "lose", "draw") else None)

    def _write_choice(self, w: _Writer, view: dict | None):
        """A question waiting for an answer: who chooses, what kind, how many options (if mine)."""
        w.seg("choice")
        choice = view.get("choice") if view is not None else None
        w.put(1, 0 if choice else None)
        w.put(self.players, choice["chooser"] if choice else None)
        w.put(len(CHOICE_KINDS) + 1, (CHOICE_KINDS.index(choice["kind"]) if choice["kind"] in CHOICE_KINDS
                                      else len(CHOICE_KINDS)) if choice else None)
        w.put(1, 0, float(len(choice["options"])) if choice and choice["options"] is not None else 0.0)

    def _write_zones(self, w: _Writer, view: dict | None, comp):
        """One block per zone, per member of a family (a seat, an enum value, a combination; one
        block for all of a `per KIND` family)."""
        entries: dict = {}
        if view is not None:
            for e in view["zones"]:
                if "of" in e:
                    member = "of"
                elif "key" in e:
                    member = tuple(e["key"])
                else:
                    member = e["owner"]
                entries.setdefault((e["name"], member), []).append(e)
        for z in self.zones:
            for member, label in self._zone_members(z):
                w.seg(f"zone {z['name']}{label}")
                found = entries.get((z["name"], member), [])
                shown = [c for e in found for c in (e["cards"] or [])]
                known = [c for e in found for c in (e.get("known") or [])]
                w.put(1, 0 if any(e["cards"] is not None for e in found) else None)
                w.put(1, 0, float(sum(e["count"] or 0 for e in found)))   # (None: `uncounted`, not seen)
                w.put(1, 0, float(len(known)))
                self._cards(w, [comp(c["id"]) for c in shown + known])
                if z["ordered"] and member != "of":
                    top = found[0]["cards"][-1:] if len(found) == 1 and found[0]["cards"] else []
                    self._cards(w, [comp(c["id"]) for c in top])

    #: (tests turn it off to compare: every cell written one by one)
    fast_cells = True

    def _write_cells(self, w: _Writer, view: dict | None, by_label: dict | None):
        """Per board cell: each cell zone's count and (public) contents, each cell variable. A cell
        the view leaves out (an empty one) is a copy of one block made once: a board of 121 cells
        wrote ~480,000 one-slot values in 20 games of a board game, most of the adapters' time (a
        researcher's trial: 5–20× the engine's own speed)."""
        w.seg("cells")
        cells = view["cells"] if view is not None else {}
        if w.out is None or not self.fast_cells:
            for name in self.cells:
                self._write_cell(w, cells.get(name, {}), by_label)
            return
        empty = self.__dict__.get("_empty_cells")
        if empty is None:                     # (what every cell left out writes, all of them)
            one = _Writer()
            self._write_cell(one, {}, None)
            block = _Writer(one.i)
            self._write_cell(block, {}, None)
            empty = self._empty_cells = (one.i, np.tile(block.out, len(self.cells)))
        width, tiled = empty
        start = w.i
        w.out[start:start + tiled.size] = tiled
        for name, here in cells.items():
            k = self.cell_index.get(name)
            if k is None or not here:
                continue
            w.i = start + k * width
            w.out[w.i:w.i + width] = 0.0
            self._write_cell(w, here, by_label)
        w.i = start + tiled.size

    def _write_cell(self, w: _Writer, here: dict, by_label: dict | None):
        for z in self.cell_zones:
            v = here.get(z["name"])
            w.put(1, 0, float(len(v) if isinstance(v, list) else v or 0))
            self._cards(w, [by_label[x] for x in v if x in by_label] if isinstance(v, list) and by_label else [])
        for var, t in self.cell_vars:
            w.put(1, 0 if var in here else None)
            self._value(w, t, here.get(var))

    def _write_vars(self, w: _Writer, view: dict | None) -> dict:
        """Variables (not hidden): one value, or one per seat with a "can see it" flag. Returns the
        shown values (`show`) found among the view's values, for their own segment."""
        n = self.players
        w.seg("vars")
        values = {}
        shown_values: dict = {}
        if view is not None:
            for e in view["values"]:
                if e.get("label") or e["name"] not in self.var_names or e["name"] in values:
                    shown_values.setdefault(e["name"], e.get("value"))
                else:
                    values[e["name"]] = e
        for name, per, t, members in self.vars:
            e = values.get(name)
            if per == "player":
                row = e["per_player"] if e else [None] * n
                for p in range(n):
                    w.put(1, 0 if e and row[p] is not None else None)
                    self._value(w, t, row[p] if e else None)
            elif per == "key":
                row = {tuple(x["key"]): x.get("value") for x in e["per_key"]} if e else {}
                for m in members:
                    v = row.get(m)
                    w.put(1, 0 if v is not None else None)
                    self._value(w, t, v)
            else:
                self._value(w, t, e["value"] if e else None)
        return shown_values

    def _write_component_vars(self, w: _Writer, view: dict | None):
        """Per-component variables: over the components the view shows, those not at their initial value."""
        w.seg("component vars")
        changed = view["component_values"] if view is not None else {}
        for name, t in self.comp_vars:
            vals = [d[name] for d in changed.values() if name in d]
            w.put(1, 0, float(len(vals)))
            self._elems(w, t, vals)

    def _write_shown(self, w: _Writer, view: dict | None, shown_values: dict):
        """Shown values (`show`): present, and the number (an int, a bool, a list's length, a numeric text)."""
        w.seg("shown")
        for name in self.shown:
            v = shown_values.get(name)
            w.put(1, 0 if view is not None and v is not None else None)
            w.put(1, 0, _number(v) if view is not None else 0.0)

def _number(v) -> float:
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, list):
        return float(len(v))
    if isinstance(v, str):                 # a text that starts with a number ("12 of 20"): the number
        found = re.match(r"\s*(-?[0-9]{1,15})(?![0-9])", v)
        if found:
            return float(found.group(1))
    return 0.0


def _label_table(components: list, feats: list) -> dict:
    """label -> features, for labels that name one kind with one set of fields (cells show labels)."""
    table: dict = {}
    for entry, f in zip(components, feats):
        old = table.setdefault(entry["label"], f)
        if old != f:
            table[entry["label"]] = None
    return {label: f for label, f in table.items() if f is not None}


# ---------------------------------------------------------------- the action space

def text_universe(game: rulelang.Game, players: int, options: dict | None, cap: int):
    """Every action text the rules can offer, in a fixed order, or (None, why not).

    Listed from each step's actions and their parameters' types: a cell (the board's cells), a
    player (P1..Pn), an enum value (its text), a component (the labels setup makes, when no
    component is made in play and they do not depend on the seed), or a literal list. Not for
    rules whose effects ask questions (their answers are free texts), parameters that choose a
    subset or an order, or more than `cap` texts."""
    ir = game.ir
    if facts(ir, players)["pauses"]:
        return None, "effects may stop for a question"
    if any(names_by_place(ir, a) for step in ir["steps"] for a in step.get("actions", [])):
        return None, "a card its actor cannot see is named by its place (`hand slot 2`)"
    enum_text = {e: [i.get("text") or i["name"] for i in items] for e, items in ir["enums"].items()}
    labels = None
    texts: list = []
    size = 0
    for step in ir["steps"]:
        for action in step.get("actions", []):
            if "text" in action:               # `as TEXT`: the author's words, worked out in play
                return None, f"action `{action['name']}` has a text of its own (`as …`)"
            domains = []
            for p in action["params"]:
                how = p.get("show", "plain")
                if p["mode"] != "one":
                    return None, f"action `{action['name']}` chooses a {p['mode']}"
                if how == "cell":
                    domains.append(cell_names(ir))
                elif how == "player":
                    domains.append([f"P{i + 1}" for i in range(players)])
                elif how.startswith("enum:"):
                    domains.append(enum_text.get(how[5:], []))
                elif how in ("comp", "comp_or_player"):     # (a union: the components, then the players)
                    if labels is None:
                        labels = _setup_labels(game, players, options)
                    if labels is None:
                        return None, "the components depend on the seed or are made in play"
                    domains.append(labels + ([f"P{i + 1}" for i in range(players)] if how != "comp" else []))
                elif p["domain"].get("k") == "list" and all(x.get("k") == "lit" for x in p["domain"]["items"]):
                    domains.append([_plain(x["v"]) for x in p["domain"]["items"]])
                else:
                    return None, f"action `{action['name']}` has a parameter of an open domain"
            count = 1
            for d in domains:
                count *= len(d)
            size += count
            if size > cap:
                return None, f"more than {cap} action texts"
            texts += _product(action["name"].replace("_", " "), domains)
    return list(dict.fromkeys(texts)), None


def _plain(v) -> str:
    return "none" if v is None else ("true" if v else "false") if isinstance(v, bool) else str(v)


def _product(head: str, domains: list) -> list:
    out = [head]
    for d in domains:
        out = [f"{x} {y}" for x in out for y in d]
    return out


def _setup_labels(game, players, options):
    if game.play_kinds():
        return None
    seen = None
    for seed in range(3):
        labels = sorted({c["label"] for c in game.new_match(players, seed, options).state()["components"]})
        if seen is not None and labels != seen:
            return None
        seen = labels
    return seen


class Actions:
    """The fixed action space: "text" (index = a text of the universe) or "index" (index = position
    in the sorted legal texts, at most `cap`)."""

    def __init__(self, game, players, options, mode: str = "auto", cap: int = DEFAULT_ACTION_CAP,
                 universe_cap: int = DEFAULT_UNIVERSE_CAP):
        if mode not in ("auto", "text", "index"):
            raise ValueError("actions must be 'auto', 'text' or 'index'")
        self.reason = None
        self.texts = None
        self.warned = False                     # (past the cap once: said, then not again)
        if mode != "index":
            self.texts, self.reason = text_universe(game, players, options, universe_cap)
            if self.texts is None and mode == "text":
                raise ValueError(f"no text action space for {game.name}: {self.reason}")
        if self.texts is not None:
            self.mode, self.size = "text", len(self.texts)
            self.index = {t: i for i, t in enumerate(self.texts)}
        else:
            self.mode, self.size = "index", cap

    def legal(self, match, acts: list | None = None) -> list:
        """(index, Action) pairs, ascending by index (of `acts`: by default, the legal actions)."""
        acts = match.legal_actions() if acts is None else acts
        if self.mode == "index":
            acts = sorted(acts, key=str)
            if len(acts) > self.size and not self.warned:
                # (said once: a new author's Cluedo offered 512 of its 648 suggestions, unsaid)
                self.warned = True
                warnings.warn(f"{len(acts)} legal actions, more than action_cap={self.size}: the last "
                              f"{len(acts) - self.size} in sorted order are not offered (raise action_cap)",
                              RuntimeWarning, stacklevel=3)
            return list(enumerate(acts[:self.size]))
        out = []
        for a in acts:
            i = self.index.get(str(a))
            if i is None:
                raise RuntimeError(f"`{a}` is legal but not in the text action space derived from the rules")
            out.append((i, a))
        out.sort(key=lambda x: x[0])
        return out

    def mask(self, legal: list) -> "np.ndarray":
        m = np.zeros(self.size, np.int8)
        for i, _ in legal:
            m[i] = 1
        return m


# ---------------------------------------------------------------- the interface

CAP_MOST = 1_000_000       # actions an interop action space may number, at most (a mask of that many)


def checked_count(name: str, value, none_ok: bool = False, most: int | None = None):
    """`value` if it is a whole number of at least 1 (and at most `most`; or None where `none_ok`),
    else a one-line ValueError naming the keyword (`action_cap=0` failed deep in Gymnasium,
    `max_steps=-1` was taken without a word: an AI researcher's trial; `action_cap=10**9` was a
    MemoryError: a fuzz trial)."""
    if value is None and none_ok:
        return value
    try:                                        # (a NumPy integer is one, as a seat is: seat_index)
        whole = operator.index(value) if not isinstance(value, bool) else None
    except TypeError:
        whole = None
    if whole is None or whole < 1 or most is not None and whole > most:
        raise ValueError(f"`{name}` must be a whole number of at least 1" + (f" and at most {most:,}" if most else "")
                         + (" or None" if none_ok else "") + f", not {value!r}")
    return whole


class Interface:
    """One (game, player count, options): its encoder, action space, facts and rewards."""

    def __init__(self, game, players: int | None = None, options: dict | None = None,
                 actions: str = "auto", action_cap: int = DEFAULT_ACTION_CAP,
                 universe_cap: int = DEFAULT_UNIVERSE_CAP):
        checked_count("action_cap", action_cap, most=CAP_MOST)
        checked_count("universe_cap", universe_cap, most=CAP_MOST)
        self.game = load_game(game)
        self.players = self.game.min_players if players is None else players
        if options is not None and not isinstance(options, Mapping):   # (`options="hands=2"`: Python's own
            raise ValueError(f"options must be a mapping of option name to value, not {_short(options)}")  # words)
        self.options = dict(options or {})
        self.game.new_match(self.players, 0, self.options)          # bad players or options: fail here
        self.encoder = Encoder(self.game, self.players)
        self.actions = Actions(self.game, self.players, self.options, actions, action_cap, universe_cap)
        self.facts = facts(self.game.ir, self.players)
        self._fixed_components = not self.game.play_kinds()
        self._tables: dict = {}

    @property
    def observation_size(self) -> int:
        return self.encoder.size

    @property
    def layout(self) -> list:
        """[segment name, first index] of the observation vector."""
        return self.encoder.layout

    def new_match(self, seed: int):
        return self.game.new_match(self.players, seed, self.options)

    def observe(self, match, player: int, view: dict | None = None) -> "np.ndarray":
        """The encoding of view(player) (pass the view if you have it)."""
        game = getattr(match, "game", None)
        if game is not self.game and (game is None or game.fingerprint != self.game.fingerprint) \
                or getattr(match, "players", None) != self.players:
            # (a 3-player match was encoded at a 2-player size without a word, and another game's
            # failed on its options — a researcher's trial)
            raise ValueError(f"this interface encodes {self.game.name} for {self.players} players, not a match of "
                             f"{getattr(game, 'name', '?')} for {getattr(match, 'players', '?')}")
        view = match.view(player, drawing=False) if view is None else view     # (the encoder reads the cells)
        feats, by_label = self._features(match)
        try:
            return self.encoder.encode(view, feats, by_label)
        except _Stale:
            feats, by_label = self._features(match, fresh=True)
            return self.encoder.encode(view, feats, by_label)

    def _features(self, match, fresh: bool = False):
        """Each component's features (by id) and the label table. Components never change once
        made, so where no rule makes any in play they are those setup makes for the match's seed
        (`Game.setup_components`, cached here per seed, options and set-up outcomes — the seed alone
        encoded the seed's own deal for a match made with other options or `chance=`, a researcher's
        trial); otherwise read from `state()`."""
        seed = match.seed
        fixed = self._fixed_components and not fresh and seed is not None   # (a determinized copy has no seed)
        if fixed:
            options = dict(getattr(match, "options", None) or {})
            chance = tuple(getattr(match, "setup_chance", ()) or ())
            try:
                key = (seed, json.dumps(options, sort_keys=True, default=str), json.dumps(chance, default=str))
            except (TypeError, ValueError):
                fixed = False
        found = self._tables.get(key) if fixed else None
        if found is None:
            comps = (self.game.setup_components(self.players, seed, options, chance) if fixed
                     else match._state()["components"])   # (a paused copy too: its components only)
            feats = [self.encoder.features(c["kind"], c.get("fields") or {}) for c in comps]
            found = (feats, _label_table(comps, feats) if self.encoder.cells else {})
            if fixed:
                if len(self._tables) >= 64:
                    self._tables.clear()
                self._tables[key] = found
        return found

    def view_text(self, match, player: int) -> str:
        """view(player) as JSON: sorted keys, so equal views give equal texts."""
        return json.dumps(match.view(player), sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    def legal(self, match) -> list:
        if match.is_over:
            return []
        return self.actions.legal(match)

    def mask(self, match) -> "np.ndarray":
        return self.actions.mask(self.legal(match))

    def rewards(self, match) -> list[float]:
        return rewards(match.outcome, self.players)
