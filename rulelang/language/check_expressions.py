"""The checker's third part: expressions, names, calls of defs and builtins, and their types.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

from . import nodes as n
from .typerules import (AGGREGATES, ARG_TESTS, CELL_FIELDS, PRIMITIVES, compatible, elem, enters_union, is_comp,
                        is_comp_type, is_enum, is_list, is_list_like, is_union, is_value, joined, kind_name, kind_words, show,
                        union_comp, union_of)
from ..ir.spec import BOARD_SHAPES, BUILTIN_FUNCTIONS, BUILTIN_VALUES, board_directions, board_layout
from ..core.limits import INT_LIMIT


class ExpressionChecks:
    """Part of `Checker` (checker.py), sharing its state: the type of every expression."""

    # ---- expressions ----
    def expect(self, e, want: str, what: str) -> str:
        t = self.expr(e)
        self.require_type(e, t, want, what)
        return t

    def require_type(self, e, got: str, want: str, what: str) -> None:
        if not self.fits(e, got, want):
            self.error("E201", f"{what} must be {show(want)}, not {show(got)}", e.span)

    def fits(self, e, got: str, want: str) -> bool:
        """Can `e`, of type `got`, stand where a `want` is expected? A player entering a union is
        tagged there (see typerules.UNION); a union never stands for a plain player or component."""
        how = enters_union(got, want)
        if how is not None:
            self.tag(e, how)
            return True
        if is_union(got) and want != "any" or is_list(got) and is_union(elem(got)) and \
                is_list(want) and elem(want) != "any":
            return False
        return compatible(got, want)

    def tag(self, e, how: str) -> None:
        if how:
            self.out.tags[id(e)] = how

    def join(self, sides: list, types: list[str], union: str) -> None:
        """Tag the sides that are players (or lists of players) where they meet a union."""
        for side, t in zip(sides, types):
            if t == "player":
                self.tag(side, "one")
            elif t == "list:player" and is_list(union):
                self.tag(side, "list")

    # ---- narrowing: `if t in players { … }` ----
    def narrowing(self, test) -> tuple[dict, dict]:
        """What a condition tells of union-typed names when it holds, and when it does not:
        `t in players` makes `t` a player (and, not in `players`, a component); `t in xs` of
        components makes it a component. Joined through `and`, `or` and `not`."""
        if isinstance(test, n.Unary) and test.op == "not":
            yes, no = self.narrowing(test.operand)
            return no, yes
        if isinstance(test, n.Binary) and test.op in ("and", "or"):
            (y1, n1), (y2, n2) = self.narrowing(test.left), self.narrowing(test.right)
            return ({**y1, **y2}, {}) if test.op == "and" else ({}, {**n1, **n2})
        if not (isinstance(test, n.Binary) and test.op == "in" and isinstance(test.left, n.Name)):
            return {}, {}
        t = self.out.types.get(id(test.left), "any")
        if not is_union(t) or self.out.refs.get(id(test.left), ("",))[0] != "local":
            return {}, {}
        inside = elem(self.out.types.get(id(test.right), "any"))
        every_player = self.out.refs.get(id(test.right)) == ("builtin", "players")
        name = test.left.name
        if inside == "player":
            return {name: "player"}, ({name: union_comp(t)} if every_player else {})
        if is_comp_type(inside) or inside == "zone":
            return {name: union_comp(t)}, {}
        return {}, {}

    @contextmanager
    def narrowed(self, names: dict):
        """A scope in which these names have their narrowed types (see name())."""
        if not names:
            yield
            return
        self.narrowing_ids.add(id(names))
        self.scopes.append(names)
        try:
            yield
        finally:
            self.scopes.pop()
            self.narrowing_ids.discard(id(names))     # (an id is reused once its dict is gone)

    def narrowed_scope(self, name: str) -> bool:
        for s in reversed(self.scopes):
            if name in s:
                return id(s) in self.narrowing_ids
        return False

    def expr(self, e) -> str:
        t = self._expr(e)
        self.out.types[id(e)] = t
        return t

    def _expr(self, e) -> str:
        if isinstance(e, n.Lit):
            v = e.value
            if type(v) is int and v > INT_LIMIT:
                self.error("E203", f"this number is larger than the integer limit ({INT_LIMIT:,})", e.span)
            return "none" if v is None else "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "text"
        if isinstance(e, n.Name):
            return self.name(e)
        if isinstance(e, n.Unary):
            if e.op == "not":
                self.expect(e.operand, "bool", "the operand of `not`")
                return "bool"
            self.expect(e.operand, "int", "the operand of `-`")
            return "int"
        if isinstance(e, n.Binary):
            return self.binary(e)
        if isinstance(e, n.Cond):
            self.expect(e.test, "bool", "an `if` condition")
            yes, no = self.narrowing(e.test)
            with self.narrowed(yes):
                a = self.expr(e.then)
            with self.narrowed(no):
                b = self.expr(e.other)
            union = joined(a, b)
            if union is not None:
                self.join([e.then, e.other], [a, b], union)
                return union
            if not compatible(a, b):
                self.error("E201", f"the two branches give {show(a)} and {show(b)}", e.span)
            # (`any`: a recursive call, say — the other branch tells; so does it for an empty list's
            # elements: `if … then [] else [layout[0]]` is a list of areas, whose `text` is their
            # words, not their names — a rules audit read `teleport woods`)
            if a in ("none", "any") or is_list_like(a) and is_list_like(b) and elem(a) in ("none", "any"):
                return b
            return a
        if isinstance(e, n.Attr):
            return self.attr(e)
        if isinstance(e, n.Index):
            return self.index(e)
        if isinstance(e, n.Call):
            return self.call(e)
        if isinstance(e, n.Aggregate):
            return self.aggregate(e)
        if isinstance(e, n.Can):
            sym = self.out.symbols.get(e.hook)
            if sym is None or sym.kind != "hook":
                self.error("E101", f"unknown hook `{e.hook}`", e.span, self.suggest(e.hook, self.names_of("hook")))
                for a in e.args:
                    self.expr(a)
            else:
                self.used.add(e.hook)
                self.check_args(e, sym.decl.params, e.args, f"hook `{e.hook}`")
            t = self.expr(e.card)
            if not is_comp(t) and t not in ("any", "none"):
                self.error("E201", f"`can … of` needs a component, not {show(t)}", e.card.span)
            return "bool"
        if isinstance(e, n.Make):
            self.error("E201", f"`{e.kind}(...)` creates a component: use it with `create`", e.span)
            self.make(e)
            return "any"
        if isinstance(e, n.ListLit):
            types = [self.expr(x) for x in e.items]
            first = next((t for t in types if t != "none"), "any")
            union = first
            for t in types:
                union = joined(union, t) or union
            if is_union(union):               # [c, me]: a list of components and players
                if all(t in ("none", "player") or joined(union, t) == union for t in types):
                    self.join(list(e.items), types, union)
                    return "list:" + union
            for x, t in zip(e.items, types):
                if not compatible(t, first):
                    self.error("E201", f"a list mixes {show(first)} and {show(t)}", x.span)
            return "list:" + first
        if isinstance(e, n.ListComp):
            return "list:" + self.comprehension(e.comp)
        raise AssertionError(f"unknown expression node {type(e).__name__}")

    def name(self, e: n.Name) -> str:
        local = self.lookup_local(e.name)
        if local is not None:
            self.out.refs[id(e)] = ("local", e.name)
            if local == "player" and self.narrowed_scope(e.name):
                self.out.untags.add(id(e))        # a union narrowed to a player: read as the player
            return local
        sym = self.out.symbols.get(e.name)
        if e.name in BUILTIN_VALUES and not is_value(sym):      # (a declaration of that name hides it: W220)
            self.out.refs[id(e)] = ("builtin", e.name)
            return BUILTIN_VALUES[e.name]
        if sym is None:
            seat = re.fullmatch(r"[Pp]([1-9][0-9]?)", e.name)
            if seat:                                  # (players are shown P1, P2…; in rules they are numbers)
                self.error("E101", f"unknown name `{e.name}`: in the rules a player is a number from 0 "
                                   f"(P{seat.group(1)} is `players[{int(seat.group(1)) - 1}]`)", e.span)
                self.out.refs[id(e)] = ("unknown", e.name)
                return "any"
            self.error("E101", f"unknown name `{e.name}`", e.span, self.suggest(e.name, self.visible_names))
            self.out.refs[id(e)] = ("unknown", e.name)
            return "any"
        self.used.add(e.name)
        self.out.refs[id(e)] = (sym.kind, e.name)
        if sym.kind == "enum":
            return "list:" + sym.type              # an enum used as a value lists its values
        if sym.kind == "def":
            if sym.decl.params is not None:
                if id(e) in self.function_refs:
                    return "any"
                self.error("E103", f"`{e.name}` takes arguments: call it as `{e.name}(...)`", e.span)
            return self.typed(sym)
        if sym.kind == "board":
            return "board"
        if sym.kind == "var":
            return sym.type if not sym.decl.per else "list:" + sym.type
        if sym.kind in ("kind", "proc", "step", "table", "event", "window", "hook") or sym.type is None:
            # (an event, a window or a hook as a value linted clean and failed to compile: a fuzz trial)
            self.error("E201", f"`{e.name}` is {kind_words(sym.kind)} and has no value here", e.span)
            return "any"
        return sym.type

    def binary(self, e: n.Binary) -> str:
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, "bool", f"the left side of `{op}`")
            yes, no = self.narrowing(e.left)
            with self.narrowed(yes if op == "and" else no):
                self.expect(e.right, "bool", f"the right side of `{op}`")
            return "bool"
        lt, rt = self.expr(e.left), self.expr(e.right)
        if op in ("==", "!="):
            union = joined(lt, rt) if is_union(lt) or is_union(rt) else None
            if union is not None:
                self.join([e.left, e.right], [lt, rt], union)
            elif not compatible(lt, rt):
                self.error("E201", f"cannot compare {show(lt)} with {show(rt)}", e.span)
            return "bool"
        if op == "in":
            if not is_list_like(rt):
                self.error("E201", f"`in` needs a list or a zone on its right, not {show(rt)}", e.right.span)
            elif (is_union(lt) or is_union(elem(rt))) and joined(lt, elem(rt)) is not None:
                self.join([e.left, e.right], [lt, rt], "list:" + str(joined(lt, elem(rt))))
            elif not compatible(lt, elem(rt)):
                self.error("E201", f"{show(lt)} can never be in a {show(rt)}", e.span)
            return "bool"
        if op == "+" and "text" in (lt, rt):
            for side, t in ((e.left, lt), (e.right, rt)):
                if t not in ("text", "any"):
                    self.error("E201", f"cannot add {show(t)} to text: convert it with `text(...)`", side.span)
            return "text"
        if op == "+" and (is_list(lt) or is_list(rt) or "zone" in (lt, rt)):
            # concatenation: two lists (or zones: their components, in order) of one element type
            for side, t in ((e.left, lt), (e.right, rt)):
                if not (is_list_like(t) and t != "range" or t == "any"):
                    self.error("E201", f"cannot add {show(t)} to a list: put it in brackets, `[x]`", side.span)
                    return "any"
            le, re_ = elem(lt), elem(rt)
            union = joined(le, re_)
            if union is not None:
                self.join([e.left, e.right], [lt, rt], "list:" + union)
                return "list:" + union
            if not compatible(le, re_):
                self.error("E201", f"a list of {show(le)} and a list of {show(re_)} cannot be joined", e.span)
            return "list:" + (le if le not in ("any", "none") else re_)
        if op == "*" and (lt == "text" or is_list(lt) or rt == "text" or is_list(rt)):
            # a text or a list repeated (`"*" * bulls`, `[0] * n`), as the language's docs say
            # (it was refused, and the refusal typed as int made two more errors: a new author)
            seq, seq_t, k, k_t = (e.left, lt, e.right, rt) if lt == "text" or is_list(lt) else (e.right, rt, e.left, lt)
            self.require_type(k, k_t, "int", f"the number of times `{op}` repeats {show(seq_t)}")
            return seq_t
        self.require_type(e.left, lt, "int", f"the left side of `{op}`")
        self.require_type(e.right, rt, "int", f"the right side of `{op}`")
        if op == "..":
            return "range"
        if op in ("<", "<=", ">", ">="):
            return "bool"
        return "int"

    def kind_fields(self, kind: str | None) -> dict[str, str]:
        """Fields of one kind, or (kind None) of every kind that agrees on a field's type (kept:
        a file may read `.field` of untyped values thousands of times, over thousands of kinds)."""
        if kind not in self.fields:
            self.fields[kind] = self._kind_fields(kind)
        return self.fields[kind]

    def _kind_fields(self, kind: str | None) -> dict[str, str]:
        kinds = [s.decl for s in self.out.symbols.values() if s.kind == "kind"]
        if kind is not None:
            kinds = [k for k in kinds if k.name == kind]
        fields: dict[str, str] = {}
        for k in kinds:
            for f in k.fields:
                t = self.resolve_type_quiet(f.type)
                fields[f.name] = t if fields.get(f.name, t) == t else "any"
        return fields

    def resolve_type_quiet(self, t: n.TypeRef) -> str:
        if t.name == "list":
            return "list:" + self.resolve_type_quiet(t.elem)
        if t.name == "or":
            parts = [self.resolve_type_quiet(a) for a in t.alts]
            comps = [p for p in parts if is_comp_type(p)]
            return union_of(comps[0]) if len(parts) == 2 and len(comps) == 1 and "player" in parts else "any"
        if t.name in PRIMITIVES:
            return t.name
        sym = self.out.symbols.get(t.name)
        return sym.type if sym and sym.kind in ("enum", "kind") else "any"

    def attr(self, e: n.Attr) -> str:
        t = self.expr(e.obj)
        if t in ("any", "none"):
            fields = self.kind_fields(None)
            if e.name in CELL_FIELDS and e.name not in fields:
                self.out.types[id(e.obj)] = "cell"     # only a cell has this field
                return CELL_FIELDS[e.name]
            if e.name in CELL_FIELDS:
                self.error("E205", f"`.{e.name}` could be a cell's or a component's: give the parameter a type "
                                   f"(e.g. `c: cell`)", e.span)
            elif e.name not in fields:
                self.error("E104", f"no component kind has a field `{e.name}`", e.span,
                           self.suggest(e.name, lambda: list(fields) + list(CELL_FIELDS)))
                return "any"
            return fields.get(e.name, "any")
        if t == "cell":
            if e.name not in CELL_FIELDS:
                self.error("E104", f"a cell has no field `{e.name}` (fields: {', '.join(CELL_FIELDS)})", e.span,
                           self.suggest(e.name, CELL_FIELDS))
                return "any"
            return CELL_FIELDS[e.name]
        if is_union(t):
            x = e.obj.name if isinstance(e.obj, n.Name) else "x"
            self.error("E201", f"`{e.name}` of {show(t)}: say which it is first, "
                               f"`if {x} in players {{ … }} else {{ … {x}.{e.name} … }}`", e.span)
            return "any"
        if not is_comp_type(t):
            sym = self.out.symbols.get(e.obj.name) if isinstance(e.obj, n.Name) else None
            if sym is not None and sym.kind == "enum" and isinstance(sym.decl, n.EnumDecl):
                # (`Type.action`: a new author's deck-builder read "list of Type has no field `action`")
                values = [item.name for item in sym.decl.items]
                if e.name in values:
                    self.error("E104", f"an enum value is written by its name alone: `{e.name}`, not "
                                       f"`{e.obj.name}.{e.name}`", e.span)
                    return sym.type
                self.error("E104", f"enum `{e.obj.name}` has no value `{e.name}` (its values: "
                                   f"{', '.join(values[:8])}{', …' if len(values) > 8 else ''})", e.span,
                           self.suggest(e.name, values))
                return "any"
            self.error("E104", f"{show(t)} has no field `{e.name}`", e.span)
            return "any"
        kind = kind_name(t)
        fields = self.kind_fields(kind)
        if e.name not in fields:
            msg = f"kind `{kind}` has no field `{e.name}`" if kind else f"no component kind has a field `{e.name}`"
            self.error("E104", msg, e.span, self.suggest(e.name, fields))
            return "any"
        return fields[e.name]

    def index(self, e: n.Index) -> str:
        obj = e.obj
        if isinstance(obj, n.Name) and self.lookup_local(obj.name) is None:
            sym = self.out.symbols.get(obj.name)
            if sym is not None and sym.kind == "table":
                self.used.add(obj.name)
                self.out.refs[id(obj)] = ("table", obj.name)
                self.check_table_key(e.index, obj.name)
                return self.typed(sym)
            if sym is not None and sym.kind == "zone":
                self.used.add(obj.name)
                self.out.refs[id(obj)] = ("zone", obj.name)
                if not sym.decl.per:
                    self.error("E201", f"zone `{obj.name}` is not declared `per …` and cannot be indexed "
                               f"(its i-th card, counting from 0: `[c for c in {obj.name}][i]`)",
                               e.span)
                    self.expr(e.index)
                    return "any"             # (said once: `trick[0].suit` is not also "zone has no field")
                else:
                    self.check_key(e.index, sym.decl, obj.name)
                return "zone"
            if sym is not None and sym.kind == "var" and sym.decl.per:
                self.used.add(obj.name)
                self.out.refs[id(obj)] = ("var", obj.name)
                self.check_key(e.index, sym.decl, obj.name)
                return sym.type
        t = self.expr(obj)
        self.expect(e.index, "int", "a list index")
        if is_list(t) or t == "zone":
            return elem(t)
        if t != "any" and not (isinstance(obj, n.Name) and obj.name in getattr(self, "clashed", {})
                               and self.lookup_local(obj.name) is None):   # (a local of that name: its own error)
            self.error("E201", f"{show(t)} cannot be indexed", e.span)   # (a name declared twice: its E102 says
        return "any"                                                      # it; "Cat cannot be indexed" at `road[me]`,
                                                                          # a new author's trial, named neither)

    def check_table_key(self, index, table: str) -> None:
        """A table's keys are numbers, strings and enum values (and players, numbered from 0): a cell,
        a component or a zone read it by an internal number — a new author's `pat[c]` of a table keyed
        by cell names failed every match with "no entry for 0", and lint said nothing."""
        def no_key(t) -> bool:
            return t in ("cell", "zone") or is_comp_type(t) or is_union(t) or (is_list(t) and no_key(elem(t)))
        t = self.expr(index)
        parts = index.items if isinstance(index, n.ListLit) else (index,)
        for part in parts:
            pt = self.out.types.get(id(part), t) if part is not index else t
            if no_key(pt):
                hint = ("; a cell's name is `text(c)`, as in `\"a1\"`" if pt == "cell" else
                        "; read one of its fields (`c.rank`)" if is_comp_type(pt) or is_union(pt) else "")
                self.error("E201", f"table `{table}` is read by a number, a text or an enum value "
                                   f"(or a list of them), not {show(pt)}{hint}", part.span)
                return

    def check_args(self, e, params, args, what: str) -> list[str]:
        types = [self.expr(a) for a in args]
        if len(args) != len(params):
            self.error("E103", f"{what} takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                               f"{len(args)} given", e.span)
        for p, a, t in zip(params, args, types):
            if p.type is not None:
                self.require_type(a, t, self.resolve_type_quiet(p.type), f"argument `{p.name}` of {what}")
            else:
                self.arg_types.setdefault((p.span, p.name), set()).add(t)
        return types

    def inferable(self) -> dict:
        """Untyped parameters every call gives the same player, cell, enum value or component, or a
        list of them (`announce(remaining)`: `text(ws)` then shows `P1 P2`, not `0, 1`)."""
        def named(t) -> bool:
            return t in ("player", "cell") or is_enum(t) or is_comp_type(t) or is_union(t)
        out = {}
        for key, types in self.arg_types.items():
            if len(types) == 1:
                (t,) = types
                if named(t) or (is_list(t) and named(elem(t))):
                    out[key] = t
        return out

    def call(self, e: n.Call) -> str:
        sym = self.out.symbols.get(e.name)
        if sym is not None and sym.kind == "def" and (sym.decl.params is not None or e.name not in BUILTIN_FUNCTIONS):
            self.used.add(e.name)                # (a def of that name hides the builtin function: W220)
            self.out.refs[id(e)] = ("def", e.name)
            if sym.decl.params is None:
                self.error("E103", f"`{e.name}` takes no arguments: write `{e.name}` without parentheses", e.span)
                return self.typed(sym)
            self.check_args(e, sym.decl.params, e.args, f"`{e.name}`")
            return self.typed(sym)
        if sym is not None and sym.kind == "proc" and e.name not in BUILTIN_FUNCTIONS:
            self.error("E201", f"procedure `{e.name}` gives no value; call it as a statement", e.span)
            return "any"
        self.out.refs[id(e)] = ("builtin" if e.name in BUILTIN_FUNCTIONS else "unknown", e.name)
        if e.name not in BUILTIN_FUNCTIONS:
            defs = lambda: self.names_of("def") + list(BUILTIN_FUNCTIONS)
            if e.name in ("me", "current", "players", "others"):      # (`finish win for me (if …)`: a
                self.error("E101", f"`{e.name}` is no function: a value in brackets right after it reads "   # reason
                           f"as a call (a `finish` reason must start with a string: `finish win for {e.name} "   # in
                           f"\"\" + (…)`)", e.span)    # brackets, a new author's backgammon)
            elif sym is not None and sym.kind not in ("def", "proc"):
                # (a def of an enum value's name, refused by E102, then read "unknown function `mine`
                # (did you mean `min`?)" at every call — a new author's Kingdomino)
                self.error("E101", f"`{e.name}` is {kind_words(sym.kind)}, not a function (one set of names holds "
                                   f"every declaration: a def of that name is refused)", e.span)
            else:
                self.error("E101", f"unknown function `{e.name}`", e.span, self.suggest(e.name, defs))
            for a in e.args:
                self.expr(a)
            return "any"
        lo, hi = BUILTIN_FUNCTIONS[e.name].low, BUILTIN_FUNCTIONS[e.name].high
        if e.name == "reachable" and len(e.args) >= 3 and isinstance(e.args[2], n.Name):
            self.function_refs.add(id(e.args[2]))      # a def passed by name, called by the engine
        types = [self.expr(a) for a in e.args]
        if not lo <= len(types) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            self.error("E103", f"`{e.name}` takes {want} argument{'s' if hi != 1 else ''}, {len(types)} given", e.span)
            return "any"
        return self.builtin_result(e, e.name, types, e.args)

    def builtin_result(self, e, name: str, types: list[str], args) -> str:
        t0 = types[0]

        def need(i: int, pred, what: str) -> None:
            if not pred(types[i]):
                self.error("E201", f"`{name}` needs {what}, not {show(types[i])}", args[i].span)

        spec = BUILTIN_FUNCTIONS.get(name)
        if spec is not None and spec.params:         # typed from its description (ir/spec.py)
            for i, kind in enumerate(spec.params[:len(types)]):
                if kind != "any":
                    need(i, *ARG_TESTS[kind])
                if kind == "direction":
                    self.check_direction(args[i])
            if name == "contains" and len(types) == 2 and is_union(elem(t0)) and \
                    not self.fits(args[1], types[1], elem(t0)):          # contains(targets, me): tagged
                self.error("E201", f"{show(types[1])} can never be in a {show(t0)}", e.span)
            return {"elem": elem(t0), "list:elem": "list:" + elem(t0)}.get(spec.result, spec.result)
        if name in ("max", "min"):
            if len(types) == 1 or (len(types) == 2 and is_list(types[0])):
                need(0, lambda t: is_list_like(t) and compatible(elem(t), "int"), "numbers")
                if len(types) == 2:                    # max(xs, 0): 0 when xs is empty
                    need(1, lambda t: compatible(t, "int"), "a number (the value when the list is empty)")
            else:
                for i in range(len(types)):
                    need(i, lambda t: compatible(t, "int"), "numbers")
            return "int"
        if name in ("top", "bottom"):
            need(0, lambda t: t in ("zone", "any"), "a zone")
            if len(types) == 2:
                need(1, lambda t: compatible(t, "int"), "a number of components")
                return "list:comp:*"
            return "comp:*"
        if name == "text":
            return "text"
        return self.board_result(e, name, types, need)

    def check_direction(self, arg) -> None:
        """A direction written in the rules must be one the board has: a misspelt one (`"north"`)
        would only ever step off the board (`none`)."""
        if not (isinstance(arg, n.Lit) and type(arg.value) is str):
            return
        board = next((s.decl for s in self.out.symbols.values() if s.kind == "board"), None)
        if board is None or board.shape not in BOARD_SHAPES:
            return
        known = board_directions(board.shape, any(m.name == "diagonal" for m in board.modifiers))
        if arg.value not in known:
            # (a warning: such a file was valid before, and a step off the board is `none`)
            self.warn("W238", f"the board has no direction {arg.value!r}, so this always steps off it (`none`): "
                              f"its directions are {', '.join(repr(d) for d in known)}", arg.span,
                      self.suggest(arg.value, known))

    def check_cell_name(self, arg) -> None:
        """A cell name written in the rules must be one of the board's: another is a rule error."""
        if not (isinstance(arg, n.Lit) and type(arg.value) is str):
            return
        board = next((s.decl for s in self.out.symbols.values() if s.kind == "board"), None)
        if board is None or board.shape not in BOARD_SHAPES or \
                not all(isinstance(a, n.Lit) and type(a.value) is int and 1 <= a.value <= 26 for a in board.args):
            return
        if len(board.args) not in (1, 2):
            return
        size = [a.value for a in board.args]
        cells = list(board_layout(board.shape, size[0], size[-1]))
        if arg.value not in {c[0] for c in cells}:
            main = [c[0] for c in cells if c[1] == cells[0][1]]
            self.warn("W239", f"the board has no cell {arg.value!r}: this stops the game with a rule error when it "
                              f"runs (its cells are named "
                              f"{main[0]!r} to {main[-1]!r}: a column letter, then a row number)", arg.span)

    def board_result(self, e, name: str, types: list[str], need) -> str:
        """The two board builtins with a rule of their own (every other one is typed from its entry
        in ir/spec.py): `cell` takes a name or a column and a row, `reachable` the name of a def."""
        is_cell = lambda t: compatible(t, "cell")
        if name == "cell":
            need(0, lambda t: t in ("board", "any"), "a board")
            if len(types) == 3:                        # cell(board, col, row): by numbers from 1
                need(1, lambda t: compatible(t, "int"), "a column number (from 1)")
                need(2, lambda t: compatible(t, "int"), "a row number (from 1, the bottom row)")
            else:
                need(1, lambda t: compatible(t, "text"), "a cell name such as \"a1\"")
                self.check_cell_name(e.args[1] if isinstance(e, n.Call) else None)
            return "cell"
        if name == "reachable":
            need(0, is_cell, "a cell")
            need(1, lambda t: compatible(t, "int"), "a number of steps")
            arg = e.args[2] if isinstance(e, n.Call) else None
            extra = list(zip(e.args[3:], types[3:])) if isinstance(e, n.Call) else []
            sym = self.out.symbols.get(getattr(arg, "name", ""))
            if not isinstance(arg, n.Name) or sym is None or sym.kind != "def" or not sym.decl.params:
                self.error("E201", "`reachable` needs the name of a def of one cell that says if a step may "
                                   "enter it", (arg or e).span)
                return "list:cell"
            if len(sym.decl.params) != 1 + len(extra):
                takes = len(sym.decl.params)
                self.error("E201", f"`{arg.name}` takes {takes} argument{'s' if takes != 1 else ''}: `reachable` "
                                   f"passes it the cell, then the {len(extra)} after its name", arg.span)
                return "list:cell"
            for param, (a, t) in zip(sym.decl.params[1:], extra):    # passed on after the cell
                if param.type is not None:
                    self.require_type(a, t, self.resolve_type_quiet(param.type),
                                      f"argument `{param.name}` of `{arg.name}`")
                else:
                    self.arg_types.setdefault((param.span, param.name), set()).add(t)
            return "list:cell"
        # every builtin in irspec's table has its params and result there, or a rule above
        raise AssertionError(f"no result type for the builtin `{name}`")

    def comprehension(self, c: n.Comprehension) -> str:
        it = self.expr(c.iterable)
        if not is_list_like(it):
            self.error("E201", f"`for ... in` needs a list, a range or a zone, not {show(it)}", c.iterable.span)
        self.bind(c.var, c.span, "loop variable")
        self.scopes.append({c.var: elem(it)})
        depth = len(self.scopes)
        for name, iterable, span in c.more:        # [a + b for a in xs for b in ys]: b's list may use a
            inner = self.expr(iterable)
            if not is_list_like(inner):
                self.error("E201", f"`for ... in` needs a list, a range or a zone, not {show(inner)}", iterable.span)
            self.bind(name, span, "loop variable")
            self.scopes.append({name: elem(inner)})
        try:
            if c.where is not None:
                self.expect(c.where, "bool", "a `where` condition")
            if c.key is not None:
                k = self.expr(c.key)
                if not (compatible(k, "int") or compatible(k, "text")):
                    self.error("E201", f"a `by` key must be a number or a text, not {show(k)}", c.key.span)
            return self.expr(c.elem)
        finally:
            del self.scopes[depth - 1:]

    def aggregate(self, e: n.Aggregate) -> str:
        if e.name not in AGGREGATES:
            self.error("E101", f"`{e.name}(... for ...)` is not an aggregate (use one of {', '.join(AGGREGATES)})",
                       e.span, self.suggest(e.name, AGGREGATES))
            self.comprehension(e.comp)
            return "any"
        t = self.comprehension(e.comp)
        if e.default is not None:
            if e.name not in ("max", "min"):
                self.error("E103", f"only `max` and `min` take a value for when there is no element, not `{e.name}`",
                           e.default.span)
            self.expect(e.default, "int", f"the value of `{e.name}` when there is no element")
        return self.builtin_result(e, e.name, ["list:" + t], [e.comp])

    def make(self, e: n.Make) -> None:
        sym = self.out.symbols.get(e.kind)
        if sym is None or sym.kind != "kind":
            self.error("E101", f"unknown component kind `{e.kind}`", e.span,
                       self.suggest(e.kind, self.names_of("kind")))
            for kw in e.kwargs:
                self.expr(kw.value)
            return
        self.used.add(e.kind)
        fields = {f.name: f for f in sym.decl.fields}
        given = set()
        for kw in e.kwargs:
            if kw.name in given:
                self.error("E102", f"field `{kw.name}` is given twice", kw.span)
            given.add(kw.name)
            f = fields.get(kw.name)
            if f is None:
                self.error("E104", f"kind `{e.kind}` has no field `{kw.name}`", kw.span, self.suggest(kw.name, fields))
                self.expr(kw.value)
                continue
            self.expect(kw.value, self.resolve_type_quiet(f.type), f"field `{kw.name}`")
            if kw.name == "card" and isinstance(kw.value, n.Lit) and isinstance(kw.value.value, str):
                names = [c.name for c in self.out.cards if c.kind == e.kind]
                if names and kw.value.value not in names:      # (a card made with no declaration: no abilities)
                    self.warn("W242", f"no `card {e.kind} \"{kw.value.value}\"` is declared: the component made is "
                                      f"named so, with no card's text or abilities", kw.value.span,
                              self.suggest(kw.value.value, names))
        for f in sym.decl.fields:
            if f.default is None and f.name not in given:
                self.error("E103", f"`{e.kind}(...)` needs a value for field `{f.name}`", e.span)
