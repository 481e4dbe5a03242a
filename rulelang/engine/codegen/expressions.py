"""Lowering IR expressions to Python expressions (`x_*`, one per expression kind), with
constant folding; calls of defs are lowered in def_calls.py, lists and comprehensions in
comprehensions.py, builtin calls and texts in calls.py (all parts of the one Lowerer).
"""
from __future__ import annotations

from typing import Any, Callable

from .constants import ANY, LIST, LONG_LITERAL, NOCONST, PY_BINARY, PY_UNARY, SCALAR, SHORT_TEXT, SMALL_LIST
from .frame import _join, _known, Bound, Ctx, Name, P, Subset
from .writer import _lit
from .parts import Part


def _small(p: P, known: bool = True) -> P:
    """p, a list known to hold at most SMALL_LIST elements (where `known`)."""
    p.small = known
    return p


def _num(p: P) -> P:
    """p, known to be a number (or a rule error): never a text or a list."""
    p.num = True
    return p


_FOLD = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
         ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
         "*": lambda a, b: a * b}


def _fold(op: str, a, b):
    """`a op b` of two constants (numbers or texts), or NOCONST where it is not folded: a number
    past the integer limit, a text of 256 characters or more, or a wrong pair. The size of a text
    is known before it is made: `"x" * 2000000000` is measured, never computed."""
    if op not in _FOLD:
        return NOCONST
    if type(a) is str or type(b) is str:
        if op == "+":
            if type(a) is not str or type(b) is not str or len(a) + len(b) >= 256:
                return NOCONST
        elif op == "*":
            text, k = (a, b) if type(a) is str else (b, a)
            if type(k) not in (int, bool) or len(text) * max(0, k) >= 256:
                return NOCONST
    try:
        value = _FOLD[op](a, b)
    except TypeError:
        return NOCONST
    if isinstance(value, (bool, int)) and abs(value) < 2 ** 62 or isinstance(value, str) and len(value) < 256:
        return value
    return NOCONST


def _and_terms(w) -> list:
    """The `and`-conjuncts of a condition, in order."""
    if w["k"] == "bin" and w["op"] == "and":
        return _and_terms(w["l"]) + _and_terms(w["r"])
    return [w]


class ExpressionLowering(Part):
    """The Lowerer's part `exprs`: each expression kind's lowering (parts.Part)."""
    expr_table: dict[str, Callable[[Any, Ctx], P]]    # each kind's lowering, bound (Lowerer.EXPR_LOWERING)

    def ex(self, e, ctx: Ctx) -> P:
        if e["k"] == "call" and not ctx.nomemo and self.facts.static_walk(e):
            p = self.defs.memo_expr(e, ctx)
            if p is not None:
                return p
        return self.expr_table[e["k"]](e, ctx)

    def lit(self, v) -> P:
        if isinstance(v, list) and len(v) > LONG_LITERAL:
            # a long literal list is a constant of the module, copied where it is used (never a
            # Python literal of thousands of elements for the compiler to build)
            return P(f"_built(m, list(_each(m, {self.sh.const(v, 'L')})))", shape=LIST)
        if isinstance(v, (list, dict)):
            p = P(_lit(v), shape=LIST if isinstance(v, list) else ANY)
            p.small = isinstance(v, list) and len(v) <= SMALL_LIST
            if isinstance(v, list) and any(isinstance(x, list) for x in v):
                p.src = f"_built(m, {p.src})"
            return p
        return P(_lit(v), const=v, shape=SCALAR, cheap=True)

    def scan(self, p: P) -> str:
        """The source of the list `p`, about to be scanned or copied: charged its length (m.work)
        unless it is short (small) or its making charged it already (paid)."""
        if p.small or p.paid:
            return p.src
        return f"_each(m, {p.src})"

    def x_lit(self, e, ctx):
        return self.lit(e["v"])

    def binding(self, name: str, ctx: Ctx):
        b = ctx.names.get(name)
        if b is not None:
            return b
        if not ctx.fallback:
            raise AssertionError(f"unbound local {name}")
        return Name(ctx.fn.local(name), 0, ANY)

    def x_local(self, e, ctx):
        b = self.binding(e["n"], ctx)
        return self.of_binding(b)

    def of_binding(self, b) -> P:
        if isinstance(b, Name):
            p = P(b.src, b.level, shape=b.shape, cheap=True, elem=b.elem)
            p.bind = b
            return p
        if isinstance(b, Bound):
            p = b.p
            return P(p.src, p.level, p.pure, p.const, p.shape, p.cheap, p.elem, p.lenof)
        if isinstance(b, Subset):
            return P("[" + ", ".join(x.src for x in b.elems) + "]", b.level, shape=LIST)
        return self.lit(b.value)

    def x_builtin(self, e, ctx):
        name, fn = e["n"], ctx.fn
        if name == "me":
            return _num(P(fn.use("me"), shape=SCALAR, cheap=True))
        if name == "current":
            return _num(P(fn.use("cur"), shape=SCALAR, cheap=True))
        if name == "players":
            return _small(P(fn.use("PL"), shape=LIST, cheap=True, elem=SCALAR), self.sh.few_players)
        if name == "others":
            if self.sh.rounds:                       # in turn order, the eliminated left out
                return _small(P(f"_others(m, {fn.use('me')})", shape=LIST, elem=SCALAR), self.sh.few_players)
            return _small(P(f"{fn.use('OTH')}[{fn.use('me')}]", shape=LIST, cheap=True, elem=SCALAR), self.sh.few_players)
        if name == "round_count":
            return _num(P("m.seq[0]", shape=SCALAR, cheap=True))
        if name == "turn_order":
            return _small(P("list(m.seq[1])", shape=LIST, elem=SCALAR), self.sh.few_players)
        if name == "remaining":
            return _small(P("_remaining(m)", shape=LIST, elem=SCALAR), self.sh.few_players)
        if name == "player_count":
            return _num(P(fn.use("NP"), shape=SCALAR, cheap=True))
        if name == "turn_count":
            return _num(P("m.turn_count", shape=SCALAR, cheap=True))
        if name == "source":
            return P("m.src", shape=SCALAR, cheap=True)
        raise AssertionError(name)

    def x_var(self, e, ctx):
        name = e["n"]
        decl = self.sh.var_decl[name]
        slot = self.sh.var_slot[name]
        base = ctx.fn.use(f"V{slot}") if name in self.sh.stable_vars else f"{ctx.fn.use('V')}[{slot}]"
        shape = LIST if decl["type"].startswith("list:") else SCALAR if decl["type"] != "any" else ANY
        # a list of numbers, components, texts...: what a comprehension builds from it holds no list
        elem = SCALAR if shape == LIST and not decl["type"][5:].startswith(("list", "any")) else ANY
        if e.get("i") is None:
            return P(base, shape=LIST if decl["per"] else shape, cheap=True, elem=ANY if decl["per"] else elem)
        if name in self.sh.stable_vars:
            b = self.loop_var(e["i"], ctx, "comp" if decl["per"] == "component" else decl["per"])
            if b is not None:
                d = b.derived(f"V{slot}", ctx.fn)
                if d is not None:
                    return P(d, b.level, shape=shape, cheap=True, elem=elem)
        i = self.family_index(decl, e["i"], ctx)
        lvl, pure = _join(i)
        return P(f"{base}[{i.src}]", lvl, pure, shape=shape, cheap=i.cheap, elem=elem)

    def family_index(self, decl: dict, ie: dict, ctx) -> P:
        """The position in a family's list of the member `ie` names. Per enum values and combined
        families (`per: key`) are one flat list, the last part varying fastest: piles[p, c] is
        piles[p * len(Colour) + position of c]."""
        if decl.get("per") != "key":
            return self.ex(ie, ctx)
        parts = decl["key"]
        values = [ie] if len(parts) == 1 else ie["items"]
        srcs: list[str] = []
        ps = []
        for part, v in zip(parts, values):
            p = self.ex({"k": "ord", "enum": part[5:], "x": v} if part.startswith("enum:") else v, ctx)
            ps.append(p)
            if srcs:
                size = (ctx.fn.use("NP") if part == "player" else str(self.sh.geometry.size) if part == "cell"  # type: ignore[union-attr]  # (a cell: a board)
                        else str(len(self.sh.ir["enums"][part[5:]])))
                srcs = [f"({srcs[0]})*{size}+{p.src}"]
            else:
                srcs = [p.src]
        lvl, pure = _join(*ps)
        return _num(P(srcs[0], lvl, pure, shape=SCALAR, cheap=all(p.cheap for p in ps)))

    def x_zone(self, e, ctx):
        base = ctx.fn.use(f"Z{self.sh.zone_slot[e['n']]}")
        if e.get("i") is None:
            return P(base, shape=LIST, cheap=True, elem=SCALAR)
        per = self.sh.zone_decl[e["n"]]["per"]
        b = self.loop_var(e["i"], ctx, "comp" if per == "component" else per)
        if b is not None:
            d = b.derived(base, ctx.fn)
            if d is not None:
                return P(d, b.level, shape=LIST, cheap=True, elem=SCALAR)
        i = self.family_index(self.sh.zone_decl[e["n"]], e["i"], ctx)
        lvl, pure = _join(i)
        p = P(f"{base}[{i.src}]", lvl, pure, shape=LIST, cheap=i.cheap, elem=SCALAR)
        p.family = (base, i.src)
        return p

    def x_option(self, e, ctx):
        spec = next((o for o in self.sh.ir["options"] if o["name"] == e["n"]), None)
        shape = SCALAR if spec and spec["type"] in ("bool", "int", "text") else ANY
        return P(f"{ctx.fn.use('OPT')}[{_lit(e['n'])}]", shape=shape, cheap=True)

    def x_can(self, e, ctx):
        args = [self.ex(a, ctx) for a in e["a"]]
        of = self.ex(e["of"], ctx)
        lvl, pure = _join(of, *args)
        return P(f"_can(m, {self.sh.hook_index[e['hook']]}, {of.src}, ({''.join(a.src + ', ' for a in args)}))",
                 lvl, pure, shape=SCALAR)

    def x_sortby(self, e, ctx):
        p = self.ex(e["pairs"], ctx)
        return P(f"_sort_pairs(m, {p.src})", p.level, p.pure, shape=LIST)

    def x_flat(self, e, ctx):
        if "flatten" in self.sh.opt and e["x"]["k"] == "comp" and e["x"]["x"]["k"] == "comp":
            flat = self.comps.flattened(e, ctx)
            if flat is not None:
                return flat
        p = self.ex(e["x"], ctx)
        return P(f"_flat(m, {p.src})", p.level, p.pure, shape=LIST, elem=p.inner)

    def x_ord(self, e, ctx):
        order = {v["name"]: i for i, v in enumerate(self.sh.ir["enums"][e["enum"]])}
        x = self.ex(e["x"], ctx)
        return _num(P(f"_ord({self.sh.const(order, 'K', ('ord', e['enum']))}, {x.src}, {_lit(e['enum'])})", x.level,
                      x.pure, shape=SCALAR))

    def x_mods(self, e, ctx):
        args = [self.ex(a, ctx) for a in e["a"]]
        lvl, pure = _join(*args)
        return _num(P(f"_mods(m, {self.sh.def_index[e['n']]}, ({''.join(a.src + ', ' for a in args)}))", lvl,
                      pure, shape=SCALAR))         # (a sum of numbers, or a rule error: effects._mods_now)

    def x_un(self, e, ctx):
        x = self.ex(e["x"], ctx)
        if PY_UNARY[e["op"]] == "not":
            if _known(x):
                return self.lit(not x.const)
            return P(f"(not {x.t})", x.level, x.pure, shape=SCALAR)
        if _known(x) and type(x.const) is int:
            return self.lit(-x.const)
        return _num(P(f"(-{x.src})", x.level, x.pure, shape=SCALAR))

    def x_bin(self, e, ctx):
        """A binary operator: `and`/`or` keep Python's short circuit; the others are folded when both
        sides are constants, else lowered by their operator's method (BIN_LOWERING)."""
        op = PY_BINARY[e["op"]]
        l = self.ex(e["l"], ctx)
        if op in ("and", "or"):
            return self.bin_logic(op, l, e, ctx)
        r = self.ex(e["r"], ctx)
        if _known(l) and _known(r) and type(l.const) in (int, bool, str) and type(r.const) in (int, bool, str):
            folded = _fold(op, l.const, r.const)         # (never `/` nor `%`: those are not folded)
            if folded is not NOCONST:
                return self.lit(folded)
        lvl, pure = _join(l, r)
        return self.BIN_LOWERING[op](self, op, l, r, lvl, pure, e)

    def bin_logic(self, op: str, l: P, e, ctx: Ctx) -> P:
        """`and` / `or`: a known left side decides at once (the right side is not lowered)."""
        if _known(l):
            if (op == "and") == bool(l.const):
                return self.ex(e["r"], ctx)
            return l
        r = self.ex(e["r"], ctx)                # (`x and true` is x only for a bool x: kept whole)
        lvl, pure = _join(l, r)
        p = P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR if l.shape == r.shape == SCALAR else ANY)
        if l.tsrc is not None or r.tsrc is not None:
            p.tsrc = f"({l.t} {op} {r.t})"
        return p

    def bin_divide(self, op, l: P, r: P, lvl, pure, e) -> P:
        """`/` and `%`: through _div and _mod, which refuse a division by zero with a rule error."""
        return _num(P(f"{'_div' if op == '/' else '_mod'}({l.src}, {r.src})", lvl, pure, shape=SCALAR))

    def bin_times(self, op, l: P, r: P, lvl, pure, e) -> P:
        """`*`: plain only for a number times a small constant; else _mul measures before it multiplies."""
        small = _known(l) and l.num and abs(l.const) <= 2 ** 16 or _known(r) and r.num and abs(r.const) <= 2 ** 16
        if small and l.num and r.num:
            # a number times a small constant: a few bits more per round, and assignments are
            # bounded anyway (s_set)
            return _num(P(f"({l.src} * {r.src})", lvl, pure, shape=SCALAR))
        # a product of two unknowns can square a number (x * x), and a text or a list times a
        # number is as long as it says: _mul measures before it multiplies
        p = P(f"_mul(m, {l.src}, {r.src})", lvl, pure, shape=SCALAR if l.num and r.num else ANY)
        p.num = l.num and r.num
        return p

    def bin_plus(self, op, l: P, r: P, lvl, pure, e) -> P:
        """`+`: two short texts joined as they are, texts or lists measured first (_plus), numbers plain."""
        if l.maxlen is not None and r.maxlen is not None and l.maxlen + r.maxlen <= SHORT_TEXT:
            # two texts known short (a constant, a player's or a cell's name...): joined as they are
            p = P(f"({l.src} + {r.src})", lvl, pure, shape=SCALAR)
            p.maxlen = l.maxlen + r.maxlen
            return p
        if not (l.num or r.num):
            # a text or a list joined: its size is measured before it is made (_plus)
            return P(f"_plus(m, {l.src}, {r.src})", lvl, pure,
                     shape=LIST if LIST in (l.shape, r.shape) else SCALAR if l.shape == r.shape == SCALAR else ANY)
        return self.bin_arithmetic(op, l, r, lvl, pure, e)

    def bin_arithmetic(self, op, l: P, r: P, lvl, pure, e) -> P:
        """`-`, and `+` of a number: Python's operator (`-` of texts or lists is a rule error)."""
        p = P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR if op == "-" or l.num or r.num else ANY)
        p.num = op == "-" or l.num and r.num
        return p

    def bin_emptiness(self, op, l: P, r: P, lvl, pure) -> P | None:
        """`count == 0`, `!= 0`, `> 0` of a list whose length is known as `lenof`: a truth test of the
        list, never its length; None for any other comparison."""
        if l.lenof is None or not (_known(r) and r.const == 0 and type(r.const) is int):
            return None
        anyof = l.anyof() if l.anyof is not None else None
        if anyof is not None:                  # (a def's list: its first element is enough)
            return P(f"(not {anyof})" if op == "==" else anyof, lvl, pure, shape=SCALAR)
        if op == "==":
            return P(f"(not {l.lenof})", lvl, pure, shape=SCALAR)
        p = P(f"(not not {l.lenof})", lvl, pure, shape=SCALAR)
        p.tsrc = l.lenof
        p.nonempty = l.family
        return p

    def bin_equal(self, op, l: P, r: P, lvl, pure, e) -> P:
        """`==` / `!=`: Python's for two single values, else _eq (lists compared element by element)."""
        empty = self.bin_emptiness(op, l, r, lvl, pure)
        if empty is not None:
            return empty
        if l.src == r.src and l.cheap and l.pure and l.shape == SCALAR:
            return self.lit(op == "==")           # the same value read twice (never a float: no NaN)
        if e.get("scalar") or (l.shape == SCALAR and r.shape == SCALAR):
            return _num(P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR))
        src = f"_eq(m, {l.src}, {r.src})"
        return _num(P(src if op == "==" else f"(not {src})", lvl, pure, shape=SCALAR))

    def bin_order(self, op, l: P, r: P, lvl, pure, e) -> P:
        """`<`, `<=`, `>`, `>=`: Python's; `> 0` of a known length is a truth test (bin_emptiness)."""
        empty = self.bin_emptiness(op, l, r, lvl, pure) if op == ">" else None
        if empty is not None:
            return empty
        return _num(P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR))

    BIN_LOWERING = {"/": bin_divide, "%": bin_divide, "*": bin_times, "+": bin_plus, "-": bin_arithmetic,
                    "==": bin_equal, "!=": bin_equal, "<": bin_order, "<=": bin_order, ">": bin_order,
                    ">=": bin_order}

    def seq(self, e, ctx: Ctx) -> P:
        """An expression used as a sequence: a tuple of elements for an unrolled subset, else as is."""
        if e["k"] == "local":
            b = self.binding(e["n"], ctx)
            if isinstance(b, Subset):
                src = "(" + "".join(x.src + ", " for x in b.elems) + ")"
                elem = SCALAR if all(x.shape == SCALAR for x in b.elems) else ANY
                return P(src, b.level, shape=LIST, elem=elem)
        p = self.ex(e, ctx)
        if p.shape != LIST:
            return P(f"_items({p.src})", p.level, p.pure, shape=LIST)
        return p

    def x_in(self, e, ctx):
        x, s = self.ex(e["x"], ctx), self.seq(e["in"], ctx)
        if x.bind is not None and x.bind.domain is not None and x.bind.domain == s.src:
            return self.lit(True)              # a listed value is in the sequence it was listed from
        lvl, pure = _join(x, s)
        return _num(P(self.in_src(x, s), lvl, pure, shape=SCALAR))

    def in_src(self, x: P, s: P) -> str:
        """`x in s`, its scan charged: a single value is compared with each element at once; a
        value that may be a list is compared with each element as deep as they go (_in)."""
        if x.shape == SCALAR:
            return f"({x.src} in {self.scan(s)})"
        return f"_in(m, {x.src}, {s.src})"

    def x_range(self, e, ctx):
        lo, hi = self.ex(e["lo"], ctx), self.ex(e["hi"], ctx)
        lvl, pure = _join(lo, hi)
        p = P(f"_range(m, {lo.src}, {hi.src})", lvl, pure, shape=LIST, elem=SCALAR)
        p.paid = True
        return p

    def x_if(self, e, ctx):
        c = self.ex(e["c"], ctx)
        if _known(c):
            return self.ex(e["t"] if c.const else e["e"], ctx)
        t, f = self.ex(e["t"], ctx), self.ex(e["e"], ctx)
        lvl, pure = _join(c, t, f)
        p = P(f"({t.src} if {c.t} else {f.src})", lvl, pure, shape=t.shape if t.shape == f.shape else ANY,
              elem=t.elem if t.elem == f.elem else ANY)
        if t.maxlen is not None and f.maxlen is not None:
            p.maxlen = max(t.maxlen, f.maxlen)
        return p

    def x_attr(self, e, ctx):
        x, name = self.ex(e["x"], ctx), e["n"]
        if name not in self.sh.column:
            return P(f"({x.src}, None)[1]", x.level, x.pure, const=NOCONST)
        shape = SCALAR if self.sh.scalar_field[name] else ANY
        b = self.loop_var(e["x"], ctx, "comp", x)
        if b is not None:
            d = b.derived(f"F{self.sh.column[name]}", ctx.fn)
            if d is not None:
                return P(d, b.level, shape=shape, cheap=True)
        col = ctx.fn.use(f"F{self.sh.column[name]}")
        return P(f"{col}[{x.src}]", x.level, x.pure, shape=shape, cheap=x.cheap)

    def loop_var(self, e, ctx: Ctx, ids: str, p: P | None = None) -> Name | None:
        """The enumeration loop variable `e` names (or `p` reads), if its values are ids of that kind."""
        b = p.bind if p is not None else None
        if b is None:
            if e["k"] != "local":
                return None
            b = ctx.names.get(e["n"])
        return b if isinstance(b, Name) and b.ids == ids else None

    def x_cellattr(self, e, ctx):
        x, name = self.ex(e["x"], ctx), e["n"]
        g = self.sh.geometry
        if g is None:
            return P(f"_fault({_lit('cells need a board')})", x.level, x.pure)
        table = {"name": g.names, "row": g.rows, "col": g.cols, "kind": g.kinds}[name]
        return P(f"{self.sh.const(table, 'G', ('cellattr', name))}[{x.src}]", x.level, x.pure, shape=SCALAR,
                 cheap=x.cheap)

    def x_index(self, e, ctx):
        x, i = self.ex(e["x"], ctx), self.ex(e["i"], ctx)
        lvl, pure = _join(x, i)
        if _known(i) and type(i.const) is int and i.const >= 0:
            return P(f"{x.src}[{i.src}]", lvl, pure)
        # (Python's `xs[-1]` is the last: for the rules, below 0 is past the start — a fuzzer's
        # `xs[i - 1]` with i 0 took the last element in silence)
        return P(f"_at({x.src}, {i.src})", lvl, pure)

    def x_table(self, e, ctx):
        tname, static = self.sh.tables[e["n"]]
        ie = e["i"]
        if ie["k"] == "list":
            items = [self.ex(x, ctx) for x in ie["items"]]
            lvl, pure = _join(*items)
            key = "(" + "".join(x.src + ", " for x in items) + ")"
            if all(_known(x) for x in items):
                key_value = tuple(x.const for x in items)
                table = self.sh.ns[tname]
                if static and key_value in table:
                    return self.lit(table[key_value])
        else:
            k = self.ex(ie, ctx)
            lvl, pure = _join(k)
            key = k.src if k.shape == SCALAR else f"_key(m, {k.src})"
            if _known(k) and static and k.const in self.sh.ns[tname]:
                return self.lit(self.sh.ns[tname][k.const])
        if static:
            return P(f"{tname}[{key}]", lvl, pure)
        return P(f"{tname}[{key}](m)", lvl, False)











