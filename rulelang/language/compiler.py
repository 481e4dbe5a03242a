"""Lower a checked rule file to the IR: plain JSON data, the contract with the engine.

Every name is resolved here (local, variable, zone, enum value, ...), and every `text(...)`
knows the static type of its argument, so the engine never has to guess.
The IR is validated against `ir/schema.json` (rulelang/ir/validate.py) before anyone sees it.
"""
from __future__ import annotations

import os
from pathlib import Path


from . import nodes as n
from .checker import Checked
from .typerules import elem, enum_name, is_comp_type, is_enum, is_list, is_union, legend_texts
from ..core.errors import Diagnostic, RuleError
from ..ir.validate import IR_VERSION, validate_ir
from ..ir.spec import LINE_FILE_STRIDE, READMIT, REFUSE

class Compiler:
    def __init__(self, checked: Checked):
        self.c = checked
        # defs a timed modifier (`modify D(…) += E until turn_end`) adds to
        self.granted = {x.target for x in n.walk(checked.game) if isinstance(x, n.Grant)}
        self.syms = checked.symbols
        self.imports: list[dict] = []            # content files the IR was built from
        # the included rule files, by their place in the game's sources (the main file: 0)
        self.file_index = {file: k for k, (file, _) in enumerate(checked.game.sources) if k}

    def line(self, node) -> int:
        """A node's rule line; in an included file, encoded with the file (spec.LINE_FILE_STRIDE)."""
        k = self.file_index.get(node.span.file, 0) if node.span is not None else 0
        return node.span.line + k * LINE_FILE_STRIDE if k and node.span.line else node.span.line

    # ---- whole game ----
    def run(self) -> dict:
        g = self.c.game
        decls = g.decls
        of = lambda cls: [d for d in decls if isinstance(d, cls)]
        players = of(n.Players)[0]
        steps = of(n.StepDecl)
        turn_steps = [s for s in steps if s.in_turn]
        handlers: dict[str, list] = {}
        handler_lines: dict[str, int] = {}
        for d in of(n.OnDecl):
            handlers.setdefault(d.event, []).extend(self.block(d.body))
            handler_lines.setdefault(d.event, self.line(d))
        setup: list = []
        for d in of(n.SetupDecl):
            setup.extend(self.block(d.body))
        ir = {
            "ir_version": IR_VERSION,
            "name": g.name,
            "source": g.span.file,
            "players": {"min": players.low, "max": players.high},
            "options": [{"name": d.name, "type": self.syms[d.name].type, "default": self.const(d.default),
                         **({"choices": [self.const(c) for c in d.choices]} if d.choices else {})}
                        for d in of(n.OptionDecl)],
            "enums": {d.name: [{"name": i.name, "text": i.text, **({"about": i.about} if i.about is not None else {})}
                               for i in d.items] for d in of(n.EnumDecl)},
            "tables": {d.name: [[self.const(k), self.expr(v)] for k, v in d.entries] for d in of(n.TableDecl)},
            "kinds": {d.name: self.kind(d) for d in of(n.KindDecl)},
            "boards": [self.board(d) for d in of(n.BoardDecl)],
            "zones": [self.zone(d) for d in of(n.ZoneDecl)],
            "vars": [self.var(d) for d in of(n.VarDecl)],
            "defs": {d.name: self.define(d) for d in of(n.DefDecl)},
            "procs": {d.name: {"params": [p.name for p in d.params], "body": self.block(d.body), "line": self.line(d)}
                      for d in of(n.ProcDecl)},
            "setup": setup,
            "steps": [self.step(s) for s in steps],
            "first_step": (turn_steps or steps)[0].name,
            "turn_order": "clockwise",
            "handlers": handlers,
            "checks": [{"when": self.expr(d.test), "body": self.block(d.body), "line": self.line(d)}
                       for d in of(n.WhenDecl)],
            "limits": [{"count": self.expr(d.count), "body": self.block(d.body), "line": self.line(d)}
                       for d in of(n.LimitDecl)],
            "scores": [self.expr(e) for e in players.ranking],
        }
        self.interaction(ir, of(n.SignatureDecl))
        self.extras(ir, of, handler_lines)
        return ir

    def kind(self, d: n.KindDecl) -> dict:
        return {"fields": [{"name": f.name, "type": self.syms_type(f.type),
                            "default": self.expr(f.default) if f.default is not None else None,
                            "required": f.default is None} for f in d.fields],
                "label": self.expr(d.label) if d.label is not None else None}

    def define(self, d: n.DefDecl) -> dict:
        return {"params": [p.name for p in d.params] if d.params is not None else None,
                "body": self.def_body(d), "show": d.show, "line": self.line(d),
                "as": self.text_as(self.type_of(d.body)),
                **({"label": d.label} if d.label is not None else {}),
                **({"place": d.modifiers[0].name} if d.modifiers else {})}

    def interaction(self, ir: dict, sigs: list) -> None:
        """Events, windows and hooks (their parameters), the cards and their abilities."""
        if not (sigs or self.c.cards or self.c.abilities):
            return
        for what in ("event", "window", "hook"):
            ir[what + "s"] = {d.name: [p.name for p in d.params] for d in sigs if d.what == what}
        # how each event's arguments read, so that two waiting triggers of one card can be told apart
        # by what set each off (`Trap: played (Scout)`); a player or a component only
        shows = {d.name: [self.cause_as(p.type) for p in d.params] for d in sigs if d.what == "event"}
        if any(s != "plain" for ss in shows.values() for s in ss):
            ir["event_shows"] = shows
        ir["cards"] = [{"kind": d.kind, "name": d.name, "line": self.line(d),
                        "copies": next((f.value.value for f in d.fields if f.name == "copies"), 1),
                        "fields": {f.name: self.card_field(f.value) for f in d.fields if f.name != "copies"},
                        **({"text": d.text} if d.text is not None else {})}
                       for d in self.c.cards]
        ir["abilities"] = [{"form": a.form, "name": a.name, "card": a.card, "proc": a.proc, "where": a.where,
                            "zones": list(a.zones) if a.zones is not None else None,
                            "procs": list(a.procs), "line": self.line(a),
                            **({"zone": a.zone} if a.zone is not None else {}),
                            **({"text": a.text} if a.text is not None else {})}
                           for a in self.c.abilities]
        first = [d.name for d in sigs if d.what == "window" and d.order == "first"]
        if first:                        # windows whose first answer takes the right to respond
            ir["answered_first"] = first

    def extras(self, ir: dict, of, handler_lines: dict) -> None:
        """What the IR says only when the rules do: included files, the `stuck` handler's line,
        the trigger order, the estimate, the side, the `about` words."""
        g = self.c.game
        line_files = []
        for file, _ in g.sources[1:]:        # included rule files: a cached IR is stale once they change
            from .content import file_hash
            rel = os.path.relpath(file, os.path.dirname(os.path.abspath(g.span.file)))
            self.imports.append({"path": rel.replace(os.sep, "/"), "sha256": file_hash(Path(file))})
            line_files.append(rel.replace(os.sep, "/"))
        if line_files:                       # (the files of encoded lines: not in the fingerprint)
            ir["line_files"] = line_files
        if "stuck" in handler_lines:         # (named when the game ends there without a reason of its own)
            ir["handler_lines"] = {"stuck": handler_lines["stuck"]}
        order = of(n.OrderDecl)
        if order:
            ir["trigger_order"] = self.expr(order[0].chooser)
        decl_lines = {"trigger_order": self.line(order[0])} if order else {}
        for kind, key in ((n.EstimateDecl, "estimate"), (n.SideDecl, "side")):
            found = of(kind)
            if found:
                ir[key] = self.expr(found[0].value)
                decl_lines[key] = self.line(found[0])
        if decl_lines:                       # (a rule error there names its line; not in the fingerprint)
            ir["decl_lines"] = decl_lines
        about = self.about(of(n.AboutDecl))
        if about:
            ir["about"] = about
        if self.imports:
            ir["imports"] = self.imports       # filled while the blocks above were lowered

    @staticmethod
    def about(decls: list) -> dict:
        """The `about` words, by what they are about; several for one thing are paragraphs."""
        out: dict = {}
        for d in decls:
            if d.name is None:
                out[d.what] = out[d.what] + "\n\n" + d.text if d.what in out else d.text
            else:
                table = out.setdefault(d.what + "s", {})
                table[d.name] = table[d.name] + "\n\n" + d.text if d.name in table else d.text
        return out

    def def_body(self, d: n.DefDecl) -> dict:
        """A def's body; for a def some card modifies, plus the sum of the modifiers in play."""
        body = self.expr(d.body)
        if any(a.form == "modify" and a.name == d.name for a in self.c.abilities) or d.name in self.granted:
            mods = {"k": "mods", "n": d.name, "a": [{"k": "local", "n": p.name} for p in d.params or ()]}
            body = {"k": "bin", "op": "+", "l": body, "r": mods}
        return body

    def cause_as(self, t: n.TypeRef | None) -> str:
        """How an event's argument of type `t` names its cause: `comp`, `player`, else `plain` (not named)."""
        if t is None or t.name in ("list", "or"):
            return "plain"
        shown = self.text_as(self.syms_type(t))
        return shown if shown in ("comp", "player") else "plain"

    def syms_type(self, t: n.TypeRef) -> str:
        if t.name == "list":
            return "list:" + self.syms_type(t.elem)
        sym = self.syms.get(t.name)
        return sym.type if sym and sym.kind in ("enum", "kind") else t.name

    def const(self, e):
        """A literal value known at compile time (option defaults, table keys)."""
        if isinstance(e, n.Lit):
            return e.value
        if isinstance(e, n.Name):
            return e.name                     # an enum value
        if isinstance(e, n.ListLit):
            return [self.const(x) for x in e.items]
        if isinstance(e, n.Unary) and e.op == "-" and isinstance(e.operand, n.Lit):
            return -e.operand.value
        return None

    def mods(self, d) -> dict:
        return {m.name: (self.const(m.value) if m.value is not None else True) for m in d.modifiers}

    def board(self, d: n.BoardDecl) -> dict:
        m = {x.name: x.value for x in d.modifiers}
        return {"name": d.name, "shape": d.shape, "width": d.args[0].value, "height": d.args[-1].value,
                "diagonal": "diagonal" in m, "draw": m["draw"].name if m.get("draw") is not None else None,
                **({"cell_width": m["cell_width"].value} if m.get("cell_width") is not None else {}),
                **({"legend": legend_texts(m["legend"])} if m.get("legend") is not None else {})}

    def zone(self, d: n.ZoneDecl) -> dict:
        m = self.mods(d)
        vis = next((v for v in ("public", "hidden", "owner", "others") if v in m), "public")
        out = {"name": d.name, "ordered": d.shape == "pile", "per": self.per(d), "visibility": vis,
               "capacity": m.get("capacity")}
        if out["per"] == "key":
            out["key"] = self.key(d)
        if m.get("play"):
            out["play"] = True                 # a card here is in play: its abilities apply
        if m.get("internal"):
            out["internal"] = True             # bookkeeping: off the screen; views and interop still carry it
        if "top" in m:
            out["top"] = True                  # a public pile that shows only its top component
        if "uncounted" in m:
            out["uncounted"] = True            # who cannot see into it does not see its size either
        return out

    def var(self, d: n.VarDecl) -> dict:
        m = self.mods(d)
        vis = next((v for v in ("public", "hidden", "owner", "others") if v in m), "public")
        out = {"name": d.name, "type": self.syms[d.name].type, "per": self.per(d), "visibility": vis,
               "init": self.expr(d.init)}
        if m.get("internal"):
            out["internal"] = True             # bookkeeping: off the screen; views and interop still carry it
        if out["per"] == "key":
            out["key"] = self.key(d)
        if out["per"] == "component":
            out["of"] = d.per                  # the kind whose components have it (the screen lists it with them)
        return out

    def per(self, d) -> str | None:
        """A family's IR `per`: player, cell, component (of a kind), or key (per enum values, or a
        combination such as per player per Colour, with its parts in `key`)."""
        if d.more_per or (d.per and self.syms.get(d.per) and self.syms[d.per].kind == "enum"):
            return "key"
        return d.per if d.per in (None, "player", "cell") else "component"

    def key(self, d) -> list:
        parts = [d.per] + [p[0] for p in d.more_per]
        return [p if p in ("player", "cell") else self.syms[p].type for p in parts]

    def step(self, s: n.StepDecl) -> dict:
        if s.simultaneous:                     # `by` lists who answers; `reveal` runs once all answers have run
            by = self.expr(s.actor) if s.actor is not None else None
            return {"name": s.name, "actor": None, "enter": self.block(s.enter),
                    "actions": [self.action(a) for a in s.actions], "in_turn": s.in_turn, "line": self.line(s),
                    "simultaneous": {"seats": by, "reveal": self.block(s.reveal)}}
        return {"name": s.name, "actor": self.expr(s.actor) if s.actor is not None else None,
                "enter": self.block(s.enter), "actions": [self.action(a) for a in s.actions],
                "in_turn": s.in_turn, "line": self.line(s)}

    def action(self, a: n.ActionDecl) -> dict:
        params = []
        for p in a.params:
            lo = hi = None
            if p.size is not None:
                if isinstance(p.size, n.Binary) and p.size.op == "..":
                    lo, hi = self.expr(p.size.left), self.expr(p.size.right)
                else:
                    lo = hi = self.expr(p.size)
            params.append({"name": p.name, "mode": p.mode, "domain": self.expr(p.domain), "min": lo, "max": hi,
                           "show": self.text_as(self.c.types.get(id(p.domain), "any"), element=True)})
        out = {} if a.text is None else {"text": self.expr(a.text)}
        return {"name": a.name, "params": params, **out,
                "require": self.expr(a.require) if a.require is not None else None,
                "body": self.block(a.body), "line": self.line(a)}

    # ---- statements ----
    def block(self, stmts) -> list:
        out = []
        for s in stmts:
            if isinstance(s, n.CreateFrom):
                out.extend(self.create_from(s))
            else:
                out.append(self.stmt(s))
        return out

    def create_from(self, s: n.CreateFrom) -> list:
        """One `create` per row of the checked YAML content (the IR carries the data itself)."""
        content = self.c.contents[id(s)]
        self.imports.append({"path": s.path, "sha256": content.sha256})
        types = {f.name: self.syms_type(f.type) for f in self.syms[s.kind].decl.fields}

        def lit(name, value):
            t = types[name]
            return {"k": "lit", "v": value, "enum": enum_name(t)} if is_enum(t) else {"k": "lit", "v": value}
        to = self.expr(s.dest)
        return [{"s": "create", "kind": s.kind, "fields": {k: lit(k, v) for k, v in row.items()},
                 "to": to, "pos": s.position, "line": self.line(s)} for row in content.rows]

    def stmt(self, s) -> dict:
        out = self._stmt(s)
        out["line"] = self.line(s)
        return out

    def _stmt(self, s) -> dict:
        """A statement's IR, by the method its node's type has in STATEMENT_LOWERING."""
        lower = STATEMENT_LOWERING.get(type(s))
        if lower is None:
            raise AssertionError(f"unknown statement {type(s).__name__}")
        return lower(self, s)

    def stmt_move(self, s: n.Move) -> dict:
        out = {"s": "move", "what": self.expr(s.what), "to": self.expr(s.dest), "pos": s.position}
        if s.depth is not None:
            out["depth"] = self.expr(s.depth)
        return out

    def stmt_shuffle(self, s: n.Shuffle) -> dict:
        return {"s": "shuffle", "zone": self.expr(s.zone)}

    def stmt_eliminate(self, s: n.Eliminate) -> dict:
        """`eliminate P [until …]`, or `readmit P` (the same node, `back`)."""
        if s.back:
            return {"s": "readmit", "who": self.expr(s.who)}
        return {"s": "eliminate", "who": self.expr(s.who), **({"until": s.until} if s.until else {})}

    def stmt_assign(self, s: n.Assign) -> dict:
        """An assignment; to `turn_order` (the one builtin value rules may set) a statement of its own."""
        if self.c.refs.get(id(s.target)) == ("turn_order",):
            return {"s": "turn_order", "v": self.expr(s.value)}
        return {"s": "set", "target": self.target(s.target), "op": s.op, "v": self.expr(s.value)}

    def stmt_append(self, s: n.Append) -> dict:
        return {"s": "append", "target": self.target(s.target), "v": self.expr(s.value)}

    def stmt_remove(self, s: n.Remove) -> dict:
        return {"s": "remove", "target": self.target(s.target), "v": self.expr(s.value)}

    def stmt_let(self, s: n.Let) -> dict:
        return {"s": "let", "n": s.name, "v": self.expr(s.value)}

    def stmt_if(self, s: n.If) -> dict:
        return {"s": "if", "c": self.expr(s.test), "then": self.block(s.then), "else": self.block(s.other)}

    def stmt_for(self, s: n.For) -> dict:
        return {"s": "for", "v": s.var, "in": self.iterable(s.iterable), "body": self.block(s.body)}

    def stmt_while(self, s: n.While) -> dict:
        return {"s": "while", "c": self.expr(s.test), "body": self.block(s.body)}

    def stmt_repeat(self, s: n.Repeat) -> dict:
        return {"s": "repeat", "n": self.expr(s.count), "body": self.block(s.body)}

    def stmt_goto(self, s: n.Goto) -> dict:
        return {"s": "goto", "step": s.step}

    def stmt_end_turn(self, s: n.EndTurn) -> dict:
        return {"s": "end_turn", "to": self.expr(s.to) if s.to is not None else None}

    def stmt_finish(self, s: n.Finish) -> dict:
        out = {"s": "finish", "result": s.result, "who": self.expr(s.who) if s.who is not None else None}
        if s.why is not None:
            out["why"] = self.expr(s.why)
        return out

    def stmt_call(self, s: n.CallStmt) -> dict:
        """A procedure's call; `readmit(P)` is the builtin procedure unless the game has its own."""
        if s.name == READMIT and (self.syms.get(s.name) is None or self.syms[s.name].kind != "proc"):
            return {"s": "readmit", "who": self.expr(s.args[0])}     # the builtin procedure
        if s.name == REFUSE and (self.syms.get(s.name) is None or self.syms[s.name].kind != "proc"):
            return {"s": "refuse", "why": self.expr(s.args[0])}      # the builtin procedure
        return {"s": "call", "proc": s.name, "a": [self.expr(a) for a in s.args]}

    def stmt_create(self, s: n.Create) -> dict:
        return {"s": "create", "kind": s.make.kind, "fields": {kw.name: self.expr(kw.value) for kw in s.make.kwargs},
                "to": self.expr(s.dest), "pos": s.position}

    def stmt_log(self, s: n.Log) -> dict:
        out = {"s": "log", "v": self.text(s.value)}
        if s.to is not None:
            out["to"] = self.expr(s.to)
        return out

    def stmt_create_cards(self, s: n.CreateCards) -> dict:
        return {"s": "create_cards", "kind": s.kind, "fields": {kw.name: self.expr(kw.value) for kw in s.kwargs},
                "where": self.expr(s.where), "to": self.expr(s.dest), "pos": s.position}

    def stmt_choose(self, s: n.Choose) -> dict:
        """`choose`: its size (`n` or `lo..hi`) as min and max, and how the engine shows each choice."""
        lo = hi = None
        if s.size is not None:
            if isinstance(s.size, n.Binary) and s.size.op == "..":
                lo, hi = self.expr(s.size.left), self.expr(s.size.right)
            else:
                lo = hi = self.expr(s.size)
        return {"s": "choose", "v": s.var, "mode": s.mode, "in": self.expr(s.domain), "where": self.expr(s.where),
                "min": lo, "max": hi, "by": self.expr(s.chooser), "optional": s.optional,
                "prompt": self.expr(s.prompt), "show": self.text_as(self.c.types.get(id(s.var_type)) or self.type_of(s.domain), element=True),
                "body": self.block(s.body), "else": self.block(s.other),
                **({"as": self.expr(s.label)} if s.label is not None else {}),
                **({"always": True} if s.always else {}),
                **({"about": self.expr(s.about)} if s.about is not None else {})}

    def stmt_may(self, s: n.May) -> dict:
        return {"s": "may", "by": self.expr(s.chooser), "prompt": self.expr(s.prompt),
                "body": self.block(s.body), "else": self.block(s.other),
                **({"about": self.expr(s.about)} if s.about is not None else {})}

    def stmt_emit(self, s: n.Emit) -> dict:
        return {"s": "emit", "event": s.event, "a": [self.expr(a) for a in s.args]}

    def stmt_resolve_triggers(self, s: n.ResolveTriggers) -> dict:
        return {"s": "resolve_triggers"}

    def stmt_open(self, s: n.Open) -> dict:
        out = {"s": "open", "window": s.window, "a": [self.expr(a) for a in s.args], "from": self.expr(s.start)}
        if s.to is not None:
            out["to"] = self.expr(s.to)
        if s.always:
            out["always"] = True
        if s.until is not None:
            out["until"] = self.expr(s.until)
        return out

    def stmt_run(self, s: n.RunHook) -> dict:
        out = {"s": "run", "hook": s.hook, "a": [self.expr(a) for a in s.args], "of": self.expr(s.card)}
        if s.by is not None:
            out["by"] = self.expr(s.by)
        return out

    def stmt_reveal(self, s: n.Reveal) -> dict:
        return {"s": "reveal", "what": self.expr(s.what), "to": self.expr(s.to)}

    def stmt_grant(self, s: n.Grant) -> dict:
        return {"s": "grant", "def": s.target, "a": [self.expr(a) for a in s.args], "v": self.expr(s.amount),
                "until": s.until}

    def target(self, t: n.LValue) -> dict:
        """What an assignment or append writes: a local, or a variable (one entry of it, if indexed)."""
        kind = self.c.refs.get(id(t), ("local",))[0]
        return {"k": kind, "n": t.name, "i": self.expr(t.index) if t.index is not None else None}

    # ---- expressions ----
    def type_of(self, e) -> str:
        return self.c.types.get(id(e), "any")

    def scalar(self, e) -> bool:
        """Is the static type of `e` a single value (never a list or a zone)?"""
        t = self.type_of(e)
        return t in ("int", "bool", "text", "player", "cell", "none") or (is_enum(t) or is_comp_type(t))

    def text_as(self, t: str, element: bool = False) -> str:
        """How the engine turns a value of static type `t` into text."""
        if element and (is_list(t) or t in ("zone", "range")):
            t = "comp:*" if t == "zone" else "int" if t == "range" else elem(t)
        if is_enum(t):
            return t
        if is_comp_type(t):
            return "comp"
        if t in ("player", "cell"):
            return t
        if is_union(t):
            return "comp_or_player"
        if is_list(t):
            return "list:" + self.text_as(elem(t))
        if t == "zone":                        # (its components' labels, as a list of them gives)
            return "list:comp"
        return "plain"

    def text(self, e) -> dict:
        return {"k": "text", "x": self.expr(e), "as": self.text_as(self.type_of(e))}

    def iterable(self, e) -> dict:
        return self.expr(e)

    def expr(self, e):
        out = self.plain_expr(e)
        if e is None or not (self.c.untags or self.c.tags):
            return out
        if id(e) in self.c.untags:             # a union narrowed to a player: -1 - x is the player
            out = _flip(out)
        how = self.c.tags.get(id(e))
        if how == "one":                       # a player entering a union is held as -1 - p
            out = _flip(out)
        elif how == "list":
            out = {"k": "comp", "x": _flip({"k": "local", "n": "_player"}), "v": "_player", "in": out,
                   "where": None}
        return out

    def plain_expr(self, e):
        """An expression's IR (None for none), by the method its node's type has in EXPRESSION_LOWERING."""
        if e is None:
            return None
        lower = EXPRESSION_LOWERING.get(type(e))
        if lower is None:
            raise AssertionError(f"unknown expression {type(e).__name__}")
        return lower(self, e)

    def expr_lit(self, e: n.Lit) -> dict:
        return {"k": "lit", "v": e.value}

    def expr_unary(self, e: n.Unary) -> dict:
        return {"k": "un", "op": e.op, "x": self.expr(e.operand)}

    def expr_binary(self, e: n.Binary) -> dict:
        """A range (`..`), a membership (`in`), or an operator; `==`/`!=` of two single values marked."""
        if e.op == "..":
            return {"k": "range", "lo": self.expr(e.left), "hi": self.expr(e.right)}
        if e.op == "in":
            return {"k": "in", "x": self.expr(e.left), "in": self.expr(e.right)}
        out = {"k": "bin", "op": e.op, "l": self.expr(e.left), "r": self.expr(e.right)}
        if e.op in ("==", "!=") and self.scalar(e.left) and self.scalar(e.right):
            out["scalar"] = True          # neither side can be a list: the engine compares directly
        return out

    def expr_cond(self, e: n.Cond) -> dict:
        return {"k": "if", "c": self.expr(e.test), "t": self.expr(e.then), "e": self.expr(e.other)}

    def expr_attr(self, e: n.Attr) -> dict:
        """A component's field, or a cell's attribute (name, row, col, kind)."""
        kind = "cellattr" if self.type_of(e.obj) == "cell" else "attr"
        return {"k": kind, "x": self.expr(e.obj), "n": e.name, "line": self.line(e)}

    def expr_index(self, e: n.Index) -> dict:
        """`X[i]`: a table's row, a zone or variable per player (or key), else an element of a list."""
        ref = self.c.refs.get(id(e.obj))
        if ref and ref[0] == "table":
            return {"k": "table", "n": ref[1], "i": self.expr(e.index), "line": self.line(e)}
        if ref and ref[0] == "zone":
            return {"k": "zone", "n": ref[1], "i": self.expr(e.index)}
        if ref and ref[0] == "var":
            return {"k": "var", "n": ref[1], "i": self.expr(e.index)}
        return {"k": "index", "x": self.expr(e.obj), "i": self.expr(e.index), "line": self.line(e)}

    def expr_call(self, e: n.Call) -> dict:
        """A def's call, or a builtin's; a few builtins take their arguments in a form of their own."""
        sym = self.syms.get(e.name)
        ref = self.c.refs.get(id(e))        # a def, or a builtin function (a def may hide one: W220)
        if (ref[0] == "def") if ref is not None else (sym is not None and sym.kind == "def"):
            return {"k": "def", "n": e.name, "a": [self.expr(a) for a in e.args], "line": self.line(e)}
        if e.name == "text":
            return self.text(e.args[0])
        if e.name == "reachable" and len(e.args) >= 3 and isinstance(e.args[2], n.Name):
            args = [self.expr(e.args[0]), self.expr(e.args[1]), {"k": "lit", "v": e.args[2].name}] + \
                [self.expr(a) for a in e.args[3:]]
            return {"k": "call", "f": e.name, "a": args, "line": self.line(e)}
        if e.name in ("max", "min") and len(e.args) == 2 and is_list(self.type_of(e.args[0])):
            return {"k": "call", "f": e.name, "a": [self.expr(a) for a in e.args], "or": True,
                    "line": self.line(e)}          # max(xs, 0): 0 when xs is empty
        if e.name == "count" and len(e.args) == 1 and self.type_of(e.args[0]) == "list:bool":
            return self.count_true(self.expr(e.args[0]), e)
        return {"k": "call", "f": e.name, "a": [self.expr(a) for a in e.args], "line": self.line(e)}

    def expr_can(self, e: n.Can) -> dict:
        return {"k": "can", "hook": e.hook, "a": [self.expr(a) for a in e.args], "of": self.expr(e.card)}

    def expr_aggregate(self, e: n.Aggregate) -> dict:
        """`sum(x for x in xs)` and the like: a builtin of a comprehension (with its `or` default)."""
        if e.name == "count" and self.type_of(e.comp.elem) == "bool":
            return self.count_true(self.comprehension(e.comp), e)
        if e.default is not None:
            return {"k": "call", "f": e.name, "a": [self.comprehension(e.comp), self.expr(e.default)], "or": True,
                    "line": self.line(e)}
        return {"k": "call", "f": e.name, "a": [self.comprehension(e.comp)], "line": self.line(e)}

    def expr_list(self, e: n.ListLit) -> dict:
        return {"k": "list", "items": [self.expr(x) for x in e.items]}

    def expr_list_comp(self, e: n.ListComp) -> dict:
        return self.comprehension(e.comp)

    def count_true(self, items: dict, e) -> dict:
        """`count` of true/false values counts the true ones (`count(x > 2 for x in xs)`)."""
        flag = {"k": "local", "n": "_true"}
        return {"k": "call", "f": "count", "line": self.line(e),
                "a": [{"k": "comp", "x": flag, "v": "_true", "in": items, "where": flag}]}

    def card_field(self, e) -> dict:
        """A card's field value, written out (the checker refuses anything else: E204): a negative
        number is one literal (`power: -1`), as the IR wants a card's fields."""
        if isinstance(e, n.Unary) and e.op == "-" and isinstance(e.operand, n.Lit) \
                and type(e.operand.value) in (int, float):
            return {"k": "lit", "v": -e.operand.value}
        return self.expr(e)

    def comprehension(self, c: n.Comprehension) -> dict:
        elem = self.expr(c.elem)
        if c.key is not None:                  # [key, x] pairs, then ordered by key
            elem = {"k": "list", "items": [self.expr(c.key), elem]}
        loops = [(c.var, c.iterable)] + [(name, it) for name, it, _ in c.more]
        # [E for a in A for b in B where C] is flat([[E for b in B where C] for a in A])
        out = {"k": "comp", "x": elem, "v": loops[-1][0], "in": self.expr(loops[-1][1]),
               "where": self.expr(c.where) if c.where is not None else None}
        for name, iterable in reversed(loops[:-1]):
            out = {"k": "flat", "x": {"k": "comp", "x": out, "v": name, "in": self.expr(iterable), "where": None}}
        return {"k": "sortby", "pairs": out} if c.key is not None else out

    def name(self, e: n.Name) -> dict:
        kind, name = self.c.refs.get(id(e), ("unknown", e.name))
        if kind == "local":
            return {"k": "local", "n": name}
        if kind == "builtin":
            return {"k": "builtin", "n": name}
        if kind == "enumval":
            enum = enum_name(self.syms[name].type)
            return {"k": "lit", "v": name, "enum": enum}
        if kind == "enum":
            return {"k": "list", "items": [{"k": "lit", "v": i.name} for i in self.syms[name].decl.items]}
        if kind == "var":
            return {"k": "var", "n": name, "i": None}
        if kind == "zone":
            return {"k": "zone", "n": name, "i": None}
        if kind == "def":
            return {"k": "def", "n": name, "a": [], "line": self.line(e)}
        if kind == "option":
            return {"k": "option", "n": name}
        if kind == "board":
            return {"k": "lit", "v": name}
        raise AssertionError(f"unresolved name {name!r} ({kind})")


def _flip(x: dict) -> dict:
    """-1 - x: a player as a union holds it, and back (see language/typerules.UNION)."""
    return {"k": "bin", "op": "-", "l": {"k": "lit", "v": -1}, "r": x}


# Each statement kind's lowering (`open … then resolve` is the while loop it is: see nodes.Resolve;
# `create … from FILE` is one `create` per row: Compiler.block)
STATEMENT_LOWERING = {
    n.Move: Compiler.stmt_move, n.Shuffle: Compiler.stmt_shuffle, n.Eliminate: Compiler.stmt_eliminate,
    n.Assign: Compiler.stmt_assign, n.Append: Compiler.stmt_append, n.Remove: Compiler.stmt_remove,
    n.Let: Compiler.stmt_let, n.If: Compiler.stmt_if, n.For: Compiler.stmt_for, n.While: Compiler.stmt_while,
    n.Resolve: Compiler.stmt_while, n.Repeat: Compiler.stmt_repeat, n.Goto: Compiler.stmt_goto,
    n.EndTurn: Compiler.stmt_end_turn, n.Finish: Compiler.stmt_finish, n.CallStmt: Compiler.stmt_call,
    n.Create: Compiler.stmt_create, n.Log: Compiler.stmt_log, n.CreateCards: Compiler.stmt_create_cards,
    n.Choose: Compiler.stmt_choose, n.May: Compiler.stmt_may, n.Emit: Compiler.stmt_emit, n.Open: Compiler.stmt_open,
    n.ResolveTriggers: Compiler.stmt_resolve_triggers,
    n.RunHook: Compiler.stmt_run, n.Reveal: Compiler.stmt_reveal, n.Grant: Compiler.stmt_grant,
}

# Each expression kind's lowering
EXPRESSION_LOWERING = {
    n.Lit: Compiler.expr_lit, n.Name: Compiler.name, n.Unary: Compiler.expr_unary, n.Binary: Compiler.expr_binary,
    n.Cond: Compiler.expr_cond, n.Attr: Compiler.expr_attr, n.Index: Compiler.expr_index, n.Call: Compiler.expr_call,
    n.Can: Compiler.expr_can, n.Aggregate: Compiler.expr_aggregate, n.ListLit: Compiler.expr_list,
    n.ListComp: Compiler.expr_list_comp,
}


def compile_checked(checked: Checked) -> dict:
    """The validated IR of a checked rule file (a RuleError, never a traceback, if it cannot be)."""
    try:
        ir = Compiler(checked).run()
    except RecursionError:                 # (the parser's nesting limits should make this impossible)
        raise RuleError([Diagnostic("E006", "the rule file is too deeply nested for rulelang to compile: "
                                            "simplify its most deeply nested rule", checked.game.span)]) from None
    validate_ir(ir, checked.game.span.file)
    return ir
