"""The engine's check of an IR before any code is generated from it (`check_ir`): well formed
by the node table of spec.py, referring only to what it declares, within the size limits. An IR
is untrusted input (a shared compiled .json, a cache entry): anything else is refused with E301.
"""
from __future__ import annotations

import math

from ..core.errors import Diagnostic, RuleError
from ..core.limits import INT_LIMIT, IR_DEPTH_LIMIT
from ..core.types import Context, ValueType
from .check_declarations import DeclarationChecks, _Bad, _show, _TooLarge, _what
from .spec import (BLOCK, BOOL, BUILTIN_VALUES, CALLABLE, COMMON_OPTIONAL, EVENTS, EXPR, EXPRESSIONS, EXPRS, HOW,
                   INT, LITERAL, NAME, OPTEXPR, OPTION_TYPES, STATEMENTS, TEXT, VAR_PER, VISIBILITY, ZONE_PER)


# ---- the check ----
def check_ir(ir, file: str = "<ir>") -> None:
    """Raise RuleError (E301) unless `ir` is well formed and refers only to what it declares."""
    try:
        _Checker(ir).run()
    except _TooLarge as big:
        raise RuleError([Diagnostic("E301", f"{file}: {big.args[0]}: the game cannot be loaded")]) from None
    except _Bad as bad:
        raise RuleError([Diagnostic("E301", f"{file}: not a usable compiled game: {bad}")]) from None


class _Checker(DeclarationChecks):
    """Walks an IR (recursively, with its depth bounded by IR_DEPTH_LIMIT), knowing every name it
    declares once the declarations are read."""

    def __init__(self, ir):
        self.ir = ir

    # -- where errors are said to be --
    @staticmethod
    def included_name(name: str, path: str) -> None:
        """An included file as the compiler names it: relative to the rule file and inside its folder
        (E007), a path of printable characters. A crafted `/etc/passwd` was printed as an error's place."""
        parts = name.split("/")
        if not name or len(name) > 1000 or name.startswith("/") or "\\" in name or ".." in parts \
                or "" in parts or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
            raise _Bad(path, "not an included rule file's name (a path inside the rule file's folder)")

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
        if x is None or isinstance(x, (bool, str)):
            return
        if isinstance(x, int):
            if abs(x) > INT_LIMIT:
                raise _Bad(path, f"a number is at most {INT_LIMIT:,} either side of 0")
            return
        if isinstance(x, float):
            # (the language's numbers are whole: `1e308` and `2.5` got past the integer limit, made
            # inf and nan, and a save of the match could not be replayed — an attacker's trial)
            raise _Bad(path, f"{_show(x)} is written as a decimal number (the rules' numbers are integers, "
                             f"written without a point or an exponent)" if math.isfinite(x) else "not a finite number")
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
                if len(self.ir["defs"][passable["v"]]["params"] or []) != len(e["a"]) - 2:
                    raise _Bad(f"{path}/a/2", f"`reachable` needs a def of one cell and {len(e['a']) - 3} more "
                                              "arguments (those after its name)")

    def text_as(self, how, path: str) -> None:
        while isinstance(how, str) and how.startswith("list:"):
            how = how[5:]
        if how in ("plain", "comp", "player", "cell", "comp_or_player"):
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
        if kind == "move" and (s["pos"] == "depth") != ("depth" in s):     # (insert: a depth, and only there)
            raise _Bad(f"{path}/depth", "a move has a depth exactly when its position is `depth` (insert)")
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
        """The whole IR, in this order: its top level, options and enums, the declarations (every
        name), then the bodies (every expression and statement, with every name known)."""
        self.top_level()
        self.options_and_enums()
        self.declarations()
        self.bodies()
        self.extras()

    def top_level(self) -> None:
        ir = self.ir
        top = {"ir_version": (1,), "name": TEXT, "players": None, "options": None, "enums": None,
               "tables": None, "kinds": None, "zones": None, "vars": None, "defs": None, "procs": None,
               "setup": None, "steps": None, "first_step": NAME, "turn_order": ("clockwise",),
               "handlers": None, "checks": None, "boards": None, "limits": None}
        self.obj(ir, "", top, {"source": TEXT, "imports": None, "scores": None, "events": None, "windows": None,
                               "hooks": None, "cards": None, "abilities": None, "answered_first": None, "event_shows": None,
                               "trigger_order": EXPR, "estimate": EXPR, "side": EXPR, "handler_lines": None, "decl_lines": None,
                               "about": None, "line_files": None})
        for key in ("ir_version", "name", "first_step", "turn_order", "source"):
            if key in ir:
                self.typed(ir[key], top.get(key, TEXT), f"/{key}", 0)
        if len(ir.get("source", "")) > 1000 or any(ord(ch) < 32 or ord(ch) == 127 for ch in ir.get("source", "")):
            # (the rule file's name, said with every rule error: 3,000,000 characters printed one error of 3 MB
            # — an attacker's trial)
            raise _Bad("/source", "not the name of a rule file (at most 1,000 printable characters)")
        p = self.obj(ir["players"], "/players", {"min": INT, "max": INT})
        for key in ("min", "max"):
            self.typed(p[key], INT, f"/players/{key}", 0)
        if not 1 <= p["min"] <= p["max"] <= 64:
            raise _Bad("/players", "player counts must satisfy 1 <= min <= max <= 64")

    def options_and_enums(self) -> None:
        ir = self.ir
        self.options: dict = {}
        for i, o in enumerate(self.array(ir["options"], "/options")):
            o = self.obj(o, f"/options/{i}", {"name": NAME, "type": OPTION_TYPES, "default": LITERAL},
                         {"choices": None})
            self.name(o["name"], f"/options/{i}/name")
            self.typed(o["type"], OPTION_TYPES, f"/options/{i}/type", 0)
            want = {"bool": bool, "int": int, "text": str}[o["type"]]
            if type(o["default"]) is not want:
                raise _Bad(f"/options/{i}/default", f"the default must be {o['type']}")
            if "choices" in o:
                choices = self.array(o["choices"], f"/options/{i}/choices")
                if not choices or any(type(c) is not want for c in choices) or len(set(choices)) < len(choices):
                    raise _Bad(f"/options/{i}/choices", f"expected distinct values of type {o['type']}")
                if o["default"] not in choices:
                    raise _Bad(f"/options/{i}/default", "the default must be one of the choices")
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

    def declarations(self) -> None:
        ir = self.ir
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
                                               "visibility": VISIBILITY, "init": EXPR}, {"key": None, "internal": BOOL, "of": NAME})
        for i, v in enumerate(ir["vars"]):
            self.family_key(v, f"/vars/{i}")
            if "of" in v:
                if v["per"] != "component":
                    raise _Bad(f"/vars/{i}/of", "only a variable per component names its kind")
                self.declared(v["of"], ir["kinds"], "component kind", f"/vars/{i}/of")
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

    def bodies(self) -> None:
        """With every name known, the bodies."""
        ir = self.ir
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

    def extras(self) -> None:
        ir = self.ir
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
        lines = ir.get("decl_lines", {})
        if not isinstance(lines, dict):
            raise _Bad("/decl_lines", "expected an object")
        for key, line in lines.items():
            self.typed(key, ("trigger_order", "estimate", "side"), "/decl_lines", 0)
            self.typed(line, INT, f"/decl_lines/{key}", 0)
        for i, e in enumerate(self.array(ir.get("scores", []), "/scores")):
            self.expr(e, f"/scores/{i}", 0)
        for i, name in enumerate(self.array(ir.get("line_files", []), "/line_files")):
            self.typed(name, TEXT, f"/line_files/{i}", 0)
            self.included_name(name, f"/line_files/{i}")
        for i, imp in enumerate(self.array(ir.get("imports", []), "/imports")):
            self.obj(imp, f"/imports/{i}", {"path": TEXT, "sha256": TEXT})
            self.typed(imp["path"], TEXT, f"/imports/{i}/path", 0)
            self.typed(imp["sha256"], TEXT, f"/imports/{i}/sha256", 0)
