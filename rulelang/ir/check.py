"""The engine's check of an IR before any code is generated from it (`check_ir`): well formed
by the node table of spec.py, referring only to what it declares, within the size limits. An IR
is untrusted input (a shared compiled .json, a cache entry): anything else is refused with E301.
"""
from __future__ import annotations

import json
import math

from ..core.errors import Diagnostic, RuleError
from ..core.limits import FAMILIES_LIMIT, IR_DEPTH_LIMIT
from ..core.types import Context, ValueType
from .spec import (BLOCK, BOARD_SHAPES, BOOL, BUILTIN_VALUES, CALLABLE, COMMON_OPTIONAL, EVENTS,
                   EXPR, EXPRESSIONS, EXPRS, HOW, INT, LITERAL, NAME, OPTEXPR, OPTION_TYPES,
                   SCALAR_TYPES, STATEMENTS, TEXT, VAR_PER, VISIBILITY, ZONE_PER, board_cells,
                   family_limit_message, family_members, walk_ir)


# ---- the check ----
class _Bad(Exception):
    """One reason the IR is refused, with the JSON path where it was found."""

    def __init__(self, path: str, msg: str):
        super().__init__(f"{path or '(root)'}: {msg}")


class _TooLarge(_Bad):
    """A well-formed game past a size limit (limits.py): refused, said as a limit, not as a bad IR."""

    def __init__(self, path: str, msg: str):
        Exception.__init__(self, msg)


def check_ir(ir, file: str = "<ir>") -> None:
    """Raise RuleError (E301) unless `ir` is well formed and refers only to what it declares."""
    try:
        _Checker(ir).run()
    except _TooLarge as big:
        raise RuleError([Diagnostic("E301", f"{file}: {big.args[0]}: the game cannot be loaded")]) from None
    except _Bad as bad:
        raise RuleError([Diagnostic("E301", f"{file}: not a usable compiled game: {bad}")]) from None


class _Checker:
    """Walks an IR (recursively, with its depth bounded by IR_DEPTH_LIMIT), knowing every name it
    declares once the declarations are read."""

    def __init__(self, ir):
        self.ir = ir

    # -- plain JSON shapes --
    def obj(self, x, path: str, required: dict, optional: dict | None = None) -> dict:
        if not isinstance(x, dict):
            raise _Bad(path, f"expected an object, found {_what(x)}")
        for key in required:
            if key not in x:
                raise _Bad(path, f"missing `{key}`")
        allowed = set(required) | set(optional or ())
        for key in x:
            if key not in allowed:
                raise _Bad(path, f"unexpected field `{key}`")
        return x

    def typed(self, x, t, path: str, depth: int):
        if isinstance(t, tuple):
            if x not in t:
                raise _Bad(path, f"{_show(x)} is not one of {', '.join(map(repr, t))}")
        elif t == EXPR:
            self.expr(x, path, depth + 1)
        elif t == OPTEXPR:
            if x is not None:
                self.expr(x, path, depth + 1)
        elif t == EXPRS:
            for i, e in enumerate(self.array(x, path)):
                self.expr(e, f"{path}/{i}", depth + 1)
        elif t == BLOCK:
            self.block(x, path, depth + 1)
        elif t == NAME:
            self.name(x, path)
        elif t == INT:
            if type(x) is not int:
                raise _Bad(path, f"expected an integer, found {_what(x)}")
        elif t == BOOL:
            if type(x) is not bool:
                raise _Bad(path, f"expected true or false, found {_what(x)}")
        elif t == TEXT:
            if not isinstance(x, str):
                raise _Bad(path, f"expected a string, found {_what(x)}")
        elif t == LITERAL:
            self.literal(x, path, depth)
        elif t == HOW:
            self.text_as(x, path)
        elif t == "target":
            self.obj(x, path, {"k": ("local", "var"), "n": NAME}, {"i": OPTEXPR})
            self.typed(x["k"], ("local", "var"), f"{path}/k", depth)
            self.name(x["n"], f"{path}/n")
            if x["k"] == "var":
                self.declared(x["n"], self.vars, "variable", f"{path}/n")
                if isinstance(x.get("i"), dict):
                    self.family_index(x, path)
            elif x.get("i") is not None:
                raise _Bad(f"{path}/i", "a local has no index")
            self.typed(x.get("i"), OPTEXPR, f"{path}/i", depth)
        elif t == "fields":
            if not isinstance(x, dict):
                raise _Bad(path, f"expected an object, found {_what(x)}")
            for k, v in x.items():
                self.name(k, path)
                self.expr(v, f"{path}/{k}", depth + 1)
        else:                                    # a table entry the walker does not know: a bug here
            raise AssertionError(t)

    def array(self, x, path: str) -> list:
        if not isinstance(x, list):
            raise _Bad(path, f"expected an array, found {_what(x)}")
        return x

    def name(self, x, path: str) -> str:
        if not (isinstance(x, str) and x and (x[0].isascii() and (x[0].isalpha() or x[0] == "_"))
                and all(c.isascii() and (c.isalnum() or c == "_") for c in x)):
            raise _Bad(path, f"{_show(x)} is not a name")
        return x

    def literal(self, x, path: str, depth: int) -> None:
        if depth > IR_DEPTH_LIMIT:
            raise _Bad(path, "nested too deeply")
        if x is None or isinstance(x, (bool, int, str)):
            return
        if isinstance(x, float):
            if not math.isfinite(x):
                raise _Bad(path, "not a finite number")
            return
        if isinstance(x, list):
            for i, v in enumerate(x):
                self.literal(v, f"{path}/{i}", depth + 1)
            return
        if isinstance(x, dict):
            for k, v in x.items():
                self.literal(v, f"{path}/{k}", depth + 1)
            return
        raise _Bad(path, f"{_what(x)} is not JSON data")

    def declared(self, name: str, where, what: str, path: str) -> None:
        if not isinstance(name, str):
            raise _Bad(path, f"{_show(name)} is not the name of a {what}")
        if name not in where:
            raise _Bad(path, f"no {what} named `{name}`")

    # -- nodes --
    def expr(self, e, path: str, depth: int) -> None:
        if depth > IR_DEPTH_LIMIT:
            raise _Bad(path, "expressions nested too deeply")
        if not isinstance(e, dict) or "k" not in e:
            raise _Bad(path, f"expected an expression, found {_what(e)}")
        spec = EXPRESSIONS.get(e["k"]) if isinstance(e["k"], str) else None
        if spec is None:
            raise _Bad(f"{path}/k", f"unknown expression kind {_show(e['k'])}")
        self.obj(e, path, {"k": None, **spec.required}, spec.optional)
        for key, t in {**spec.required, **spec.optional}.items():
            if key in e:
                self.typed(e[key], t, f"{path}/{key}", depth)
        self.refers(e, path)

    def refers(self, e: dict, path: str) -> None:
        """The names an expression uses exist, and builtins are called with their arity."""
        k = e["k"]
        if k == "builtin":
            self.declared(e["n"], BUILTIN_VALUES, "builtin value", f"{path}/n")
        elif k == "var":
            self.declared(e["n"], self.vars, "variable", f"{path}/n")
        elif k == "zone":
            self.declared(e["n"], self.zones, "zone", f"{path}/n")
        if k in ("var", "zone") and isinstance(e.get("i"), dict):
            self.family_index(e, path)
        elif k == "option":
            self.declared(e["n"], self.options, "option", f"{path}/n")
        elif k == "table":
            self.declared(e["n"], self.ir["tables"], "table", f"{path}/n")
        elif k == "ord":
            self.declared(e["enum"], self.ir["enums"], "enum", f"{path}/enum")
        elif k == "def":
            self.declared(e["n"], self.ir["defs"], "def", f"{path}/n")
            params = self.ir["defs"][e["n"]]["params"] or []
            if len(e["a"]) != len(params):
                raise _Bad(f"{path}/a", f"`{e['n']}` takes {len(params)} arguments, not {len(e['a'])}")
        elif k == "mods":
            self.declared(e["n"], self.ir["defs"], "def", f"{path}/n")
        elif k == "can":
            self.declared(e["hook"], self.ir.get("hooks", {}), "hook", f"{path}/hook")
            if len(e["a"]) != len(self.ir["hooks"][e["hook"]]):
                raise _Bad(f"{path}/a", f"`{e['hook']}` takes {len(self.ir['hooks'][e['hook']])} arguments")
        elif k == "lit" and "enum" in e:
            self.declared(e["enum"], self.ir["enums"], "enum", f"{path}/enum")
        elif k == "call":
            f = e["f"]
            self.declared(f, CALLABLE, "builtin function", f"{path}/f")
            b = CALLABLE[f]
            if not b.low <= len(e["a"]) <= b.high:
                raise _Bad(f"{path}/a", f"`{f}` takes {b.low}..{b.high} arguments, not {len(e['a'])}")
            if e.get("or") and (f not in ("max", "min") or len(e["a"]) != 2):
                raise _Bad(f"{path}/or", "only `max` or `min` of a list and a default may have `or`")
            if f == "reachable":
                passable = e["a"][2]
                if not (passable.get("k") == "lit" and isinstance(passable.get("v"), str)):
                    raise _Bad(f"{path}/a/2", "`reachable` needs the name of a def")
                self.declared(passable["v"], self.ir["defs"], "def", f"{path}/a/2")
                if len(self.ir["defs"][passable["v"]]["params"] or []) != 1:
                    raise _Bad(f"{path}/a/2", "`reachable` needs a def of one cell")

    def text_as(self, how, path: str) -> None:
        while isinstance(how, str) and how.startswith("list:"):
            how = how[5:]
        if how in ("plain", "comp", "player", "cell"):
            return
        if isinstance(how, str) and how.startswith("enum:") and how[5:] in self.ir["enums"]:
            return
        raise _Bad(path, f"{_show(how)} is not a way to show a value")

    def block(self, stmts, path: str, depth: int) -> None:
        if depth > IR_DEPTH_LIMIT:
            raise _Bad(path, "blocks nested too deeply")
        for i, s in enumerate(self.array(stmts, path)):
            self.stmt(s, f"{path}/{i}", depth + 1)

    def stmt(self, s, path: str, depth: int) -> None:
        if not isinstance(s, dict) or "s" not in s:
            raise _Bad(path, f"expected a statement, found {_what(s)}")
        spec = STATEMENTS.get(s["s"]) if isinstance(s["s"], str) else None
        if spec is None:
            raise _Bad(f"{path}/s", f"unknown statement kind {_show(s['s'])}")
        self.obj(s, path, {"s": None, **spec.required}, {**spec.optional, **COMMON_OPTIONAL})
        for key, t in {**spec.required, **spec.optional, **COMMON_OPTIONAL}.items():
            if key in s:
                self.typed(s[key], t, f"{path}/{key}", depth)
        kind = s["s"]
        if kind == "goto":
            self.declared(s["step"], self.steps, "step", f"{path}/step")
        elif kind == "call":
            self.declared(s["proc"], self.ir["procs"], "proc", f"{path}/proc")
            want = len(self.ir["procs"][s["proc"]]["params"])
            if len(s["a"]) != want:
                raise _Bad(f"{path}/a", f"`{s['proc']}` takes {want} arguments, not {len(s['a'])}")
        elif kind in ("emit", "open", "run"):
            section, key = {"emit": ("events", "event"), "open": ("windows", "window"), "run": ("hooks", "hook")}[kind]
            self.declared(s[key], self.ir.get(section, {}), section[:-1], f"{path}/{key}")
            want = len(self.ir[section][s[key]])
            if len(s["a"]) != want:
                raise _Bad(f"{path}/a", f"`{s[key]}` takes {want} arguments, not {len(s['a'])}")
        elif kind == "grant":
            self.declared(s["def"], self.ir["defs"], "def", f"{path}/def")
            if len(s["a"]) != len(self.ir["defs"][s["def"]]["params"] or []):
                raise _Bad(f"{path}/a", f"`{s['def']}` takes {len(self.ir['defs'][s['def']]['params'] or [])} arguments")
        elif kind == "create_cards":
            self.declared(s["kind"], self.ir["kinds"], "component kind", f"{path}/kind")
            fields = {f["name"] for f in self.ir["kinds"][s["kind"]]["fields"]}
            for f in s["fields"]:
                self.declared(f, fields, f"field of `{s['kind']}`", f"{path}/fields")
        if kind in ("move", "create", "create_cards"):
            self.one_zone(s["to"], f"{path}/to")
        elif kind == "shuffle":
            self.one_zone(s["zone"], f"{path}/zone")
        if kind == "create":
            self.declared(s["kind"], self.ir["kinds"], "component kind", f"{path}/kind")
            fields = {f["name"] for f in self.ir["kinds"][s["kind"]]["fields"]}
            for f in s["fields"]:
                self.declared(f, fields, f"field of `{s['kind']}`", f"{path}/fields")

    def one_zone(self, e: dict, path: str) -> None:
        """A zone named as a move/create/shuffle target is one zone, never a whole family."""
        if e.get("k") == "zone" and self.zones[e["n"]]["per"] is not None and e.get("i") is None:
            raise _Bad(path, f"`{e['n']}` is one zone per {self.zones[e['n']]['per']}: say which")

    # -- the whole game --
    def run(self) -> None:
        ir = self.ir
        top = {"ir_version": (1,), "name": TEXT, "players": None, "options": None, "enums": None,
               "tables": None, "kinds": None, "zones": None, "vars": None, "defs": None, "procs": None,
               "setup": None, "steps": None, "first_step": NAME, "turn_order": ("clockwise",),
               "handlers": None, "checks": None, "boards": None, "limits": None}
        self.obj(ir, "", top, {"source": TEXT, "imports": None, "scores": None, "events": None, "windows": None,
                               "hooks": None, "cards": None, "abilities": None, "answered_first": None,
                               "trigger_order": EXPR, "estimate": EXPR, "side": EXPR, "handler_lines": None,
                               "about": None})
        for key in ("ir_version", "name", "first_step", "turn_order", "source"):
            if key in ir:
                self.typed(ir[key], top.get(key, TEXT), f"/{key}", 0)
        p = self.obj(ir["players"], "/players", {"min": INT, "max": INT})
        for key in ("min", "max"):
            self.typed(p[key], INT, f"/players/{key}", 0)
        if not 1 <= p["min"] <= p["max"] <= 64:
            raise _Bad("/players", "player counts must satisfy 1 <= min <= max <= 64")
        self.options: dict = {}
        for i, o in enumerate(self.array(ir["options"], "/options")):
            o = self.obj(o, f"/options/{i}", {"name": NAME, "type": OPTION_TYPES, "default": LITERAL})
            self.name(o["name"], f"/options/{i}/name")
            self.typed(o["type"], OPTION_TYPES, f"/options/{i}/type", 0)
            want = {"bool": bool, "int": int, "text": str}[o["type"]]
            if type(o["default"]) is not want:
                raise _Bad(f"/options/{i}/default", f"the default must be {o['type']}")
            self.unique(o["name"], self.options, f"/options/{i}")
            self.options[o["name"]] = o
        if not isinstance(ir["enums"], dict):
            raise _Bad("/enums", "expected an object")
        for name, items in ir["enums"].items():
            self.name(name, "/enums")
            for i, item in enumerate(self.array(items, f"/enums/{name}")):
                self.obj(item, f"/enums/{name}/{i}", {"name": NAME, "text": TEXT}, {"about": TEXT})
                if "about" in item:
                    self.typed(item["about"], TEXT, f"/enums/{name}/{i}/about", 0)
                self.name(item["name"], f"/enums/{name}/{i}/name")
                self.typed(item["text"], TEXT, f"/enums/{name}/{i}/text", 0)
        self.boards()
        self.kinds()
        self.zones = self.declare_list("zones", {"name": NAME, "ordered": BOOL, "per": ZONE_PER,
                                                 "visibility": VISIBILITY, "capacity": None},
                                       {"play": BOOL, "internal": BOOL, "top": BOOL, "uncounted": BOOL, "key": None})
        for i, z in enumerate(ir["zones"]):
            self.family_key(z, f"/zones/{i}")
            if z["per"] == "cell" and not ir["boards"]:
                raise _Bad(f"/zones/{i}/per", "a zone per cell needs a board")
            cap = z["capacity"]
            if cap is not None and (type(cap) is not int or cap < 0):
                raise _Bad(f"/zones/{i}/capacity", "expected null or a non-negative integer")
        self.vars = self.declare_list("vars", {"name": NAME, "type": TEXT, "per": VAR_PER,
                                               "visibility": VISIBILITY, "init": EXPR}, {"key": None, "internal": BOOL})
        for i, v in enumerate(ir["vars"]):
            self.family_key(v, f"/vars/{i}")
            self.value_type(v["type"], f"/vars/{i}/type")
            if v["per"] == "cell" and not ir["boards"]:
                raise _Bad(f"/vars/{i}/per", "a variable per cell needs a board")
        self.family_sizes()
        for section in ("defs", "procs", "tables"):
            if not isinstance(ir[section], dict):
                raise _Bad(f"/{section}", "expected an object")
            for name in ir[section]:
                self.name(name, f"/{section}")
        for name, d in ir["defs"].items():
            self.obj(d, f"/defs/{name}", {"params": None, "body": EXPR, "show": BOOL},
                     {"line": INT, "as": TEXT, "label": TEXT, "place": TEXT})
            if "label" in d:
                self.typed(d["label"], TEXT, f"/defs/{name}/label", 0)
            if "place" in d and (d["place"] not in ("own", "table") or not d["show"]):
                raise _Bad(f"/defs/{name}/place", "a shown value's place is \"own\" (the viewer's own secrets, "
                                                  "kept on screen first) or \"table\" (part of the table)")
            if d["params"] is not None:
                self.params(d["params"], f"/defs/{name}/params")
            self.typed(d["show"], BOOL, f"/defs/{name}/show", 0)
            if "as" in d:
                self.text_as(d["as"], f"/defs/{name}/as")
        for name, pr in ir["procs"].items():
            self.obj(pr, f"/procs/{name}", {"params": None, "body": BLOCK}, {"line": INT})
            self.params(pr["params"], f"/procs/{name}/params")
        self.interaction()
        self.steps: dict = {}
        for i, s in enumerate(self.array(ir["steps"], "/steps")):
            s = self.obj(s, f"/steps/{i}", {"name": NAME, "actor": OPTEXPR, "enter": BLOCK, "actions": None,
                                            "in_turn": BOOL}, {"line": INT, "simultaneous": None})
            if "simultaneous" in s:            # answered by several players in secret (see the schema)
                self.obj(s["simultaneous"], f"/steps/{i}/simultaneous", {"seats": OPTEXPR, "reveal": BLOCK}, {})
            self.unique(self.name(s["name"], f"/steps/{i}/name"), self.steps, f"/steps/{i}")
            self.steps[s["name"]] = s
        if not self.steps:
            raise _Bad("/steps", "a game needs at least one step")
        self.declared(ir["first_step"], self.steps, "step", "/first_step")
        # with every name known, the bodies
        for name, entries in ir["tables"].items():
            for j, entry in enumerate(self.array(entries, f"/tables/{name}")):
                if not (isinstance(entry, list) and len(entry) == 2):
                    raise _Bad(f"/tables/{name}/{j}", "expected a [key, value] pair")
                self.literal(entry[0], f"/tables/{name}/{j}/0", 0)
                if not isinstance(entry[0], (str, int, bool, list)) or (
                        isinstance(entry[0], list) and not all(isinstance(x, (str, int, bool)) for x in entry[0])):
                    raise _Bad(f"/tables/{name}/{j}/0", "a table key is a number, text, or a list of them")
                self.expr(entry[1], f"/tables/{name}/{j}/1", 0)
        for kind, spec in ir["kinds"].items():
            for i, f in enumerate(spec["fields"]):
                self.typed(f["default"], OPTEXPR, f"/kinds/{kind}/fields/{i}/default", 0)
            self.typed(spec["label"], OPTEXPR, f"/kinds/{kind}/label", 0)
        type_ctx = Context(enums={e: {i["name"] for i in items} for e, items in ir["enums"].items()})
        for i, v in enumerate(ir["vars"]):
            self.expr(v["init"], f"/vars/{i}/init", 0)
            init = v["init"]
            if init["k"] == "lit" and not ValueType.parse(v["type"]).fits(init["v"], type_ctx):
                raise _Bad(f"/vars/{i}/init", f"{_show(init['v'])} is not a {ValueType.parse(v['type']).describe()}")
        for kind, spec in ir["kinds"].items():
            for i, f in enumerate(spec["fields"]):
                d = f["default"]
                if d is not None and d["k"] == "lit" and not ValueType.parse(f["type"]).fits(d["v"], type_ctx):
                    raise _Bad(f"/kinds/{kind}/fields/{i}/default",
                               f"{_show(d['v'])} is not a {ValueType.parse(f['type']).describe()}")
        for name, d in ir["defs"].items():
            self.expr(d["body"], f"/defs/{name}/body", 0)
        for name, pr in ir["procs"].items():
            self.block(pr["body"], f"/procs/{name}/body", 0)
        self.block(ir["setup"], "/setup", 0)
        for i, s in enumerate(ir["steps"]):
            self.typed(s["actor"], OPTEXPR, f"/steps/{i}/actor", 0)
            self.block(s["enter"], f"/steps/{i}/enter", 0)
            self.typed(s["in_turn"], BOOL, f"/steps/{i}/in_turn", 0)
            if "simultaneous" in s:
                if s["actor"] is not None:
                    raise _Bad(f"/steps/{i}/actor", "a simultaneous step has no actor: `simultaneous.seats` says who answers")
                self.typed(s["simultaneous"]["seats"], OPTEXPR, f"/steps/{i}/simultaneous/seats", 0)
                self.block(s["simultaneous"]["reveal"], f"/steps/{i}/simultaneous/reveal", 0)
            for j, a in enumerate(self.array(s["actions"], f"/steps/{i}/actions")):
                self.action(a, f"/steps/{i}/actions/{j}")
        if not isinstance(ir["handlers"], dict):
            raise _Bad("/handlers", "expected an object")
        for event, body in ir["handlers"].items():
            self.typed(event, EVENTS, "/handlers", 0)
            self.block(body, f"/handlers/{event}", 0)
        for i, c in enumerate(self.array(ir["checks"], "/checks")):
            self.obj(c, f"/checks/{i}", {"when": EXPR, "body": BLOCK}, {"line": INT})
            self.expr(c["when"], f"/checks/{i}/when", 0)
            self.block(c["body"], f"/checks/{i}/body", 0)
        for i, lim in enumerate(self.array(ir["limits"], "/limits")):
            self.obj(lim, f"/limits/{i}", {"count": EXPR, "body": BLOCK}, {"line": INT})
            self.expr(lim["count"], f"/limits/{i}/count", 0)
            self.block(lim["body"], f"/limits/{i}/body", 0)
        for key in ("trigger_order", "estimate", "side"):
            if key in ir:
                self.expr(ir[key], f"/{key}", 0)
        self.about(ir.get("about", {}))
        lines = ir.get("handler_lines", {})
        if not isinstance(lines, dict):
            raise _Bad("/handler_lines", "expected an object")
        for event, line in lines.items():
            self.typed(event, EVENTS, "/handler_lines", 0)
            self.typed(line, INT, f"/handler_lines/{event}", 0)
        for i, e in enumerate(self.array(ir.get("scores", []), "/scores")):
            self.expr(e, f"/scores/{i}", 0)
        for i, imp in enumerate(self.array(ir.get("imports", []), "/imports")):
            self.obj(imp, f"/imports/{i}", {"path": TEXT, "sha256": TEXT})
            self.typed(imp["path"], TEXT, f"/imports/{i}/path", 0)
            self.typed(imp["sha256"], TEXT, f"/imports/{i}/sha256", 0)

    def about(self, about) -> None:
        """Words for the players: texts, about declared zones, steps, actions and options."""
        known = {"zones": self.zones, "steps": self.steps, "options": self.options,
                 "actions": {a["name"] for s in self.ir["steps"] for a in s["actions"]}}
        about = self.obj(about, "/about", {}, {"game": TEXT, "win": TEXT, "setup": TEXT, "zones": None,
                                                "steps": None, "actions": None, "options": None})
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
        for i, name in enumerate(self.array(ir.get("answered_first", []), "/answered_first")):
            self.declared(name, ir.get("windows", {}), "window", f"/answered_first/{i}")
        cards = self.array(ir.get("cards", []), "/cards")
        for i, c in enumerate(cards):
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
        for i, a in enumerate(self.array(ir.get("abilities", []), "/abilities")):
            path = f"/abilities/{i}"
            self.obj(a, path, {"form": ("hook", "trigger", "response", "replace", "modify"), "name": NAME,
                               "card": None, "proc": None, "where": None, "zones": None, "procs": None},
                     {"line": INT, "zone": NAME, "text": TEXT})
            self.typed(a["form"], ("hook", "trigger", "response", "replace", "modify"), f"{path}/form", 0)
            if a["card"] is not None and not (type(a["card"]) is int and 0 <= a["card"] < len(cards)):
                raise _Bad(f"{path}/card", "not a card declaration's index")
            if a["card"] is None and a["form"] not in ("trigger", "response"):
                raise _Bad(f"{path}/card", "only a trigger or a player's response may belong to no card")
            if "text" in a:
                if a["form"] != "response" or a["card"] is not None:
                    raise _Bad(f"{path}/text", "only a player's response (of no card) has a text")
                self.typed(a["text"], TEXT, f"{path}/text", 0)
                if not a["text"] or len(a["text"]) > 200 or a["text"] in ("pass", "done"):
                    raise _Bad(f"{path}/text", "expected a response's text (1 to 200 characters, not pass or done)")
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
                        x.get("k") == "call" and x.get("f") in ("roll", "pick", "size", "top", "bottom")):
                    raise _Bad(f"{path}/text", "an action's text may read only its parameters and constants")
        self.block(a["body"], f"{path}/body", 0)


def _what(x) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
            float: "a number", type(None): "null"}.get(type(x), type(x).__name__)


def _show(x) -> str:
    """A short, printable rendering of an IR value for a message (never the whole of a big value)."""
    text = json.dumps(x, ensure_ascii=True, default=str) if not isinstance(x, str) else json.dumps(x)
    return text if len(text) <= 40 else text[:37] + "..."
