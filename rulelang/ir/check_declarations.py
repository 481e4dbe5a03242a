"""The declarations' part of the IR check (check.py's _Checker is made of this and its own walk of
expressions, statements and the order of the whole): options' and families' sizes, boards, kinds,
windows and cards, actions, and the `about` texts; and the error a refused IR raises.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from ..core.limits import FAMILIES_LIMIT
from .spec import (BLOCK, BOARD_SHAPES, BOOL, EXPR, INT, NAME, OPTEXPR, SCALAR_TYPES, TEXT, board_cells,
                   family_limit_message, family_members, walk_ir)


class _Bad(Exception):
    """One reason the IR is refused, with the JSON path where it was found."""

    def __init__(self, path: str, msg: str):
        super().__init__(f"{path or '(root)'}: {msg}")


class _TooLarge(_Bad):
    """A well-formed game past a size limit (limits.py): refused, said as a limit, not as a bad IR."""

    def __init__(self, path: str, msg: str):
        Exception.__init__(self, msg)


class DeclarationChecks:
    """A part of _Checker (check.py), sharing its state."""

    # what this part reads of _Checker: the IR, the declarations met so far, and the walk
    ir: dict
    zones: Any
    vars: Any
    steps: dict
    options: dict
    array: Callable[..., list]
    block: Callable[..., None]
    declared: Callable[..., Any]
    expr: Callable[..., None]
    name: Callable[..., str]
    obj: Callable[..., dict]
    text_as: Callable[..., None]
    typed: Callable[..., None]

    def about(self, about) -> None:
        """Words for the players: texts, about declared zones, steps, actions, options, defs and vars."""
        known = {"zones": self.zones, "steps": self.steps, "options": self.options,
                 "actions": {a["name"] for s in self.ir["steps"] for a in s["actions"]},
                 "defs": set(self.ir["defs"]) if isinstance(self.ir.get("defs"), dict) else set(),
                 "vars": self.vars}
        about = self.obj(about, "/about", {}, {"game": TEXT, "win": TEXT, "setup": TEXT, "zones": None,
                                                "steps": None, "actions": None, "options": None, "defs": None,
                                                "vars": None})
        for key, value in about.items():
            if key in known:
                if not isinstance(value, dict):
                    raise _Bad(f"/about/{key}", "expected an object")
                for name, text in value.items():
                    self.declared(name, known[key], key[:-1], f"/about/{key}")
                    self.typed(text, TEXT, f"/about/{key}/{name}", 0)
            else:
                self.typed(value, TEXT, f"/about/{key}", 0)

    def interaction(self) -> None:
        """Events, windows and hooks (names with parameter names), card declarations and the
        abilities that refer to them: every reference resolves, every arity matches."""
        ir = self.ir
        for section in ("events", "windows", "hooks"):
            table = ir.setdefault(section, {}) if section in ir else {}
            if not isinstance(table, dict):
                raise _Bad(f"/{section}", "expected an object")
            for name, params in table.items():
                self.name(name, f"/{section}")
                self.params(params, f"/{section}/{name}")
        shows = ir.get("event_shows", {})
        if not isinstance(shows, dict):
            raise _Bad("/event_shows", "expected an object")
        for name, kinds in shows.items():
            self.declared(name, ir.get("events", {}), "event", "/event_shows")
            if not isinstance(kinds, list) or len(kinds) != len(ir["events"][name]) \
                    or any(k not in ("comp", "player", "plain") for k in kinds):
                raise _Bad(f"/event_shows/{name}", "expected one of comp, player, plain per parameter of the event")
        for i, name in enumerate(self.array(ir.get("answered_first", []), "/answered_first")):
            self.declared(name, ir.get("windows", {}), "window", f"/answered_first/{i}")
        cards = self.array(ir.get("cards", []), "/cards")
        for i, c in enumerate(cards):
            self.card(i, c)
        for i, a in enumerate(self.array(ir.get("abilities", []), "/abilities")):
            self.ability(i, a, len(cards))

    def card(self, i: int, c) -> None:
        """A card declaration: its kind, name, copies and literal fields."""
        ir = self.ir
        self.obj(c, f"/cards/{i}", {"kind": NAME, "name": TEXT, "copies": INT, "fields": "fields"},
                 {"line": INT, "text": TEXT})
        if "text" in c:
            self.typed(c["text"], TEXT, f"/cards/{i}/text", 0)
        self.declared(c["kind"], ir["kinds"], "component kind", f"/cards/{i}/kind")
        self.typed(c["name"], TEXT, f"/cards/{i}/name", 0)
        if type(c["copies"]) is not int or not 0 <= c["copies"] <= 1000:
            raise _Bad(f"/cards/{i}/copies", "expected a number from 0 to 1000")
        fields = {f["name"] for f in ir["kinds"][c["kind"]]["fields"]}
        if not isinstance(c["fields"], dict):
            raise _Bad(f"/cards/{i}/fields", "expected an object")
        for f, v in c["fields"].items():
            self.declared(f, fields, f"field of `{c['kind']}`", f"/cards/{i}/fields")
            if not isinstance(v, dict) or v.get("k") not in ("lit", "list"):
                raise _Bad(f"/cards/{i}/fields/{f}", "a card's field is a literal")
            self.expr(v, f"/cards/{i}/fields/{f}", 0)

    def ability(self, i: int, a, cards: int) -> None:
        """An ability: its form, its card (or none), what it names, its procedure and condition, and
        that their parameters fit what the event, window, hook, procedure or def gives."""
        ir = self.ir
        path = f"/abilities/{i}"
        self.obj(a, path, {"form": ("hook", "trigger", "response", "replace", "modify"), "name": NAME,
                           "card": None, "proc": None, "where": None, "zones": None, "procs": None},
                 {"line": INT, "zone": NAME, "text": TEXT})
        self.typed(a["form"], ("hook", "trigger", "response", "replace", "modify"), f"{path}/form", 0)
        if a["card"] is not None and not (type(a["card"]) is int and 0 <= a["card"] < cards):
            raise _Bad(f"{path}/card", "not a card declaration's index")
        if a["card"] is None and a["form"] not in ("trigger", "response"):
            raise _Bad(f"{path}/card", "only a trigger or a player's response may belong to no card")
        if "text" in a:
            if a["card"] is None and a["form"] != "response" or a["form"] in ("replace", "modify"):
                raise _Bad(f"{path}/text", "only a player's response or a card's `on` ability has a text")
            self.typed(a["text"], TEXT, f"{path}/text", 0)
            if not a["text"].strip() or len(a["text"]) > 200 or a["card"] is None and a["text"] in ("pass", "done") \
                    or a["card"] is not None and a["form"] != "trigger":
                raise _Bad(f"{path}/text", "expected a player's response's text or a card trigger's name (1 to "
                                           "200 characters, not blank; a response's not pass or done)")
        elif a["form"] == "response" and a["card"] is None:
            raise _Bad(f"{path}/text", "a player's response needs its text")
        section = {"hook": "hooks", "trigger": "events", "response": "windows", "replace": "procs",
                   "modify": "defs"}[a["form"]]
        zone_event = a["form"] == "trigger" and a["name"] in ("enter", "leave") and "zone" in a
        if zone_event:
            self.declared(a["zone"], self.zones, "zone", f"{path}/zone")
        elif "zone" in a:
            raise _Bad(f"{path}/zone", "only an enter/leave trigger names a zone")
        elif not (a["form"] == "trigger" and a["name"] in ("turn_start", "turn_end")):
            self.declared(a["name"], ir.get(section, {}), section[:-1], f"{path}/name")
        extra = 0 if a["card"] is None else 1                # `self`
        if a["form"] == "modify":
            if a["proc"] is not None:
                raise _Bad(f"{path}/proc", "a modifier has no body")
        else:
            if not isinstance(a["proc"], str):
                raise _Bad(f"{path}/proc", "expected a procedure's name")
            self.declared(a["proc"], ir["procs"], "proc", f"{path}/proc")
        if a["where"] is not None:
            if not isinstance(a["where"], str):
                raise _Bad(f"{path}/where", "expected a def's name")
            self.declared(a["where"], ir["defs"], "def", f"{path}/where")
            if a["proc"] is not None and ir["defs"][a["where"]]["params"] != ir["procs"][a["proc"]]["params"]:
                raise _Bad(f"{path}/where", "its parameters must be its body's")
        elif a["form"] == "modify":
            raise _Bad(f"{path}/where", "a modifier names the def of its amount")
        self.ability_arity(a, path, section, zone_event, extra)

    def ability_arity(self, a, path: str, section: str, zone_event: bool, extra: int) -> None:
        """An ability's procedure (or def) takes the card (when it has one), then at most what its
        event, window, hook or replaced procedure gives (a modifier: exactly its def's)."""
        ir = self.ir
        own = ir["procs"][a["proc"]]["params"] if a["proc"] is not None else ir["defs"][a["where"]]["params"]
        if own is None or len(own) < extra:
            raise _Bad(path, "its procedure takes the card as its first parameter")
        if zone_event:
            if len(own) - extra > 1:
                raise _Bad(path, "an enter/leave trigger has one parameter, the component")
        elif a["form"] in ("trigger", "response", "hook") and a["name"] not in ("turn_start", "turn_end"):
            if len(own) - extra > len(ir[section][a["name"]]):
                raise _Bad(path, f"more parameters than `{a['name']}` has")
        elif a["form"] == "replace":
            for p in self.array(a["procs"], f"{path}/procs"):
                self.declared(p, ir["procs"], "proc", f"{path}/procs")
                if len(own) - extra > len(ir["procs"][p]["params"]):
                    raise _Bad(path, f"more parameters than `{p}` has")
        elif a["form"] == "modify":
            if len(own) - extra != len(ir["defs"][a["name"]]["params"] or []):
                raise _Bad(path, f"not as many parameters as `{a['name']}` has")
        if a["zones"] is not None and a["zones"] != ["anywhere"]:
            for z in self.array(a["zones"], f"{path}/zones"):
                self.declared(z, self.zones, "zone", f"{path}/zones")

    def unique(self, name: str, seen, path: str) -> None:
        if name in seen:
            raise _Bad(path, f"`{name}` is declared twice")

    def declare_list(self, section: str, fields: dict, optional: dict | None = None) -> dict:
        out: dict = {}
        for i, x in enumerate(self.array(self.ir[section], f"/{section}")):
            x = self.obj(x, f"/{section}/{i}", fields, optional)
            for key, t in {**fields, **{k: v for k, v in (optional or {}).items() if k in x}}.items():
                if t is not None and t != EXPR:
                    self.typed(x[key], t, f"/{section}/{i}/{key}", 0)
            self.unique(x["name"], out, f"/{section}/{i}")
            out[x["name"]] = x
        return out

    def family_sizes(self) -> None:
        """Every zone and variable family, at the game's largest player count, within FAMILY_LIMIT
        members, and all of them together within FAMILIES_LIMIT: checked before a match asks for
        millions of lists. (`per component` counts as many members as a match may have components.)"""
        ir = self.ir
        b = ir["boards"][0] if ir["boards"] else None
        cells = board_cells(b["shape"], b["width"], b["height"]) if b is not None else 0
        players = ir["players"]["max"]
        total = 0
        for section, what in (("zones", "zone"), ("vars", "variable")):
            for i, x in enumerate(ir[section]):
                if x["per"] is None:
                    continue
                parts = x["key"] if x["per"] == "key" else [x["per"]]
                members = family_members(parts, players, cells, lambda e: len(ir["enums"][e]))
                why = family_limit_message(what, x["name"], parts, members, players)
                if why is not None:
                    raise _TooLarge(f"/{section}/{i}", why)
                total += members
                if total > FAMILIES_LIMIT:
                    raise _TooLarge(f"/{section}/{i}", f"the zone and variable families have more than "
                               f"{FAMILIES_LIMIT:,} members in all (families limit), counting those of "
                               f"`{x['name']}`")

    def family_index(self, e: dict, path: str) -> None:
        """A combined family's member is named by a list with one value per part."""
        decl = (self.vars if e["k"] == "var" else self.zones)[e["n"]]
        index = e["i"]
        if index.get("k") == "lit" and (index.get("v") is None or isinstance(index.get("v"), bool)):
            raise _Bad(f"{path}/i", f"`{e['n']}` is one per {decl.get('per')}: a member is named by a player, "
                                    f"a cell or a value, not {_show(index.get('v'))}")     # (a fuzz trial: null)
        if decl.get("per") == "key" and len(decl["key"]) > 1 and not (
                e["i"].get("k") == "list" and len(e["i"]["items"]) == len(decl["key"])):
            raise _Bad(f"{path}/i", f"`{e['n']}` is per {' per '.join(decl['key'])}: index it by a list of "
                       f"{len(decl['key'])} values")

    def family_key(self, x: dict, path: str) -> None:
        """A family `per` enum values or a combination: `key` lists its parts, each `player`,
        `cell` or `enum:E`, no part twice; nothing else has a `key`."""
        if x["per"] != "key":
            if "key" in x:
                raise _Bad(f"{path}/key", "only a family with `per: key` has a key")
            return
        parts = x.get("key")
        if not isinstance(parts, list) or not 1 <= len(parts) <= 4 or len(set(map(str, parts))) != len(parts):
            raise _Bad(f"{path}/key", "expected 1 to 4 different parts")
        for j, part in enumerate(parts):
            if part in ("player", "cell"):
                if part == "cell" and not self.ir["boards"]:
                    raise _Bad(f"{path}/key/{j}", "a family per cell needs a board")
                continue
            if not (isinstance(part, str) and part.startswith("enum:") and part[5:] in self.ir["enums"]):
                raise _Bad(f"{path}/key/{j}", f"expected player, cell or a declared enum:E, found {_show(part)}")
            if not self.ir["enums"][part[5:]]:
                raise _Bad(f"{path}/key/{j}", "an enum with no values")

    def params(self, params, path: str) -> None:
        names = self.array(params, path)
        for j, p in enumerate(names):
            self.name(p, f"{path}/{j}")
        if len(set(names)) != len(names):
            raise _Bad(path, "a parameter is named twice")

    def value_type(self, t, path: str) -> None:
        """A declared value type: a primitive, `enum:E`, `comp:K` (or `comp:*`), or `list:` of one."""
        while isinstance(t, str) and t.startswith("list:"):
            t = t[5:]
        if t in SCALAR_TYPES or t in ("any", "zone"):
            return
        if isinstance(t, str) and t.startswith("enum:") and t[5:] in self.ir["enums"]:
            return
        if isinstance(t, str) and t.startswith("comp:") and (t[5:] == "*" or t[5:] in self.ir["kinds"]):
            return
        raise _Bad(path, f"{_show(t)} is not a value type")

    def boards(self) -> None:
        boards = self.array(self.ir["boards"], "/boards")
        if len(boards) > 1:
            raise _Bad("/boards", "at most one board")
        for i, b in enumerate(boards):
            b = self.obj(b, f"/boards/{i}", {"name": NAME, "shape": BOARD_SHAPES, "width": INT, "height": INT,
                                             "diagonal": BOOL, "draw": None}, {"cell_width": INT, "legend": None})
            if "legend" in b and not (isinstance(b["legend"], list) and 1 <= len(b["legend"]) <= 100
                                      and all(type(x) is str and len(x) <= 1000 for x in b["legend"])):
                raise _Bad(f"/boards/{i}/legend", "a board's legend is a list of 1..100 texts (the key of its "
                                                  "glyphs, one entry each)")
            for key, t in (("name", NAME), ("shape", BOARD_SHAPES), ("width", INT), ("height", INT),
                           ("diagonal", BOOL)):
                self.typed(b[key], t, f"/boards/{i}/{key}", 0)
            if not (1 <= b["width"] <= 26 and 1 <= b["height"] <= 26):
                raise _Bad(f"/boards/{i}", "a board side must be 1..26")
            if "cell_width" in b and not (type(b["cell_width"]) is int and 1 <= b["cell_width"] <= 8):
                raise _Bad(f"/boards/{i}/cell_width", "a cell's drawing is 1..8 characters wide")
            if b["shape"] == "hexagon" and not (b["width"] == b["height"] <= 13):
                raise _Bad(f"/boards/{i}", "a hexagon's width and height are its side, 1..13")
            if b["draw"] is not None:
                self.name(b["draw"], f"/boards/{i}/draw")
                if not isinstance(self.ir["defs"], dict) or b["draw"] not in self.ir["defs"]:
                    raise _Bad(f"/boards/{i}/draw", f"no def named `{b['draw']}`")

    def kinds(self) -> None:
        kinds = self.ir["kinds"]
        if not isinstance(kinds, dict):
            raise _Bad("/kinds", "expected an object")
        for kind, spec in kinds.items():
            self.name(kind, "/kinds")
            self.obj(spec, f"/kinds/{kind}", {"fields": None, "label": None})
            seen: set = set()
            for i, f in enumerate(self.array(spec["fields"], f"/kinds/{kind}/fields")):
                self.obj(f, f"/kinds/{kind}/fields/{i}", {"name": NAME, "type": TEXT, "default": None,
                                                           "required": BOOL})
                self.unique(self.name(f["name"], f"/kinds/{kind}/fields/{i}/name"), seen, f"/kinds/{kind}/fields/{i}")
                seen.add(f["name"])
                self.value_type(f["type"], f"/kinds/{kind}/fields/{i}/type")
                self.typed(f["required"], BOOL, f"/kinds/{kind}/fields/{i}/required", 0)

    def action(self, a, path: str) -> None:
        self.obj(a, path, {"name": NAME, "params": None, "require": OPTEXPR, "body": BLOCK},
                 {"line": INT, "text": EXPR})
        self.name(a["name"], f"{path}/name")
        seen: set = set()
        for i, p in enumerate(self.array(a["params"], f"{path}/params")):
            pp = f"{path}/params/{i}"
            self.obj(p, pp, {"name": NAME, "mode": ("one", "subset"), "domain": EXPR},
                     {"min": OPTEXPR, "max": OPTEXPR, "show": TEXT})
            self.unique(self.name(p["name"], f"{pp}/name"), seen, pp)
            seen.add(p["name"])
            self.typed(p["mode"], ("one", "subset"), f"{pp}/mode", 0)
            self.expr(p["domain"], f"{pp}/domain", 0)
            for key in ("min", "max"):
                self.typed(p.get(key), OPTEXPR, f"{pp}/{key}", 0)
            if "show" in p:
                self.text_as(p["show"], f"{pp}/show")
        self.typed(a["require"], OPTEXPR, f"{path}/require", 0)
        if "text" in a:                          # kept per binding: it may not read the match
            self.expr(a["text"], f"{path}/text", 0)
            for x in walk_ir(a["text"]):
                if x.get("k") in ("var", "zone", "def", "mods", "can") or (
                        x.get("k") == "builtin" and x.get("n") not in ("players", "player_count")) or (
                        x.get("k") == "call" and x.get("f") in ("roll", "pick")):    # (a zone is refused above)
                    raise _Bad(f"{path}/text", "an action's text may read only its parameters and constants")
        self.block(a["body"], f"{path}/body", 0)


def _what(x) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
            float: "a number", type(None): "null"}.get(type(x), type(x).__name__)


def _show(x) -> str:
    """A short, printable rendering of an IR value for a message (never the whole of a big value)."""
    text = json.dumps(x, ensure_ascii=True, default=str) if not isinstance(x, str) else json.dumps(x)
    return text if len(text) <= 40 else text[:37] + "..."
