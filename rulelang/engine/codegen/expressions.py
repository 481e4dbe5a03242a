"""Lowering IR expressions to Python expressions (`x_*`, one per expression kind), with
constant folding, def inlining and memoising, and unrolled aggregates over subsets.
"""
from __future__ import annotations

from ..boards import OPPOSITE
from ...ir.spec import CALLABLE, walk_ir
from .analysis import _ir_key, _memo_key, _size, _uses
from .constants import ANY, INLINE_DEPTH, INLINE_SIZE, LIST, LONG_LITERAL, NOCONST, PY_BINARY, PY_UNARY, SCALAR, SHORT_TEXT, SMALL_LIST
from .frame import _join, _known, Bound, Const, Ctx, Name, P, Subset
from .runtime import make_texter
from .writer import _lit, Fn


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


class ExpressionLowering:
    """A mixin of the Lowerer: see generator.py."""

    def ex(self, e, ctx: Ctx) -> P:
        if e["k"] == "call" and not ctx.nomemo and self.static_walk(e):
            p = self.memo_expr(e, ctx)
            if p is not None:
                return p
        return self.EXPR_LOWERING[e["k"]](self, e, ctx)

    def memo_expr(self, e, ctx: Ctx) -> P | None:
        """A static board expression of some locals, as a call of a function memoising it per game."""
        if "memo" not in self.opt:
            return None
        free: list[str] = []

        def scan(x, bound):
            if isinstance(x, list):
                for v in x:
                    scan(v, bound)
            elif isinstance(x, dict):
                if x.get("k") == "local" and x["n"] not in bound and x["n"] not in free:
                    free.append(x["n"])
                if x.get("k") == "comp":
                    scan(x["in"], bound)
                    scan([x["x"], x.get("where")], bound | {x["v"]})
                    return
                for v in x.values():
                    scan(v, bound)
        scan(e, frozenset())
        args = []
        for name in free:
            b = ctx.names.get(name) if (name in ctx.names or not ctx.fallback) else None
            if b is None and ctx.fallback:
                b = Name(ctx.fn.local(name), 0, ANY)
            if b is None or isinstance(b, Subset):
                return None
            args.append(self.of_binding(b))
        k = _ir_key(e)
        fname = self.memo_fns.get(k)
        if fname is None:
            fname = self.memo_fns[k] = f"sx{len(self.memo_fns)}"
            cache = self.const({}, "C")
            self.memo_cache[fname] = cache
            ps = "".join(f", p{j}" for j in range(len(free)))
            key = _memo_key([f"p{j}" for j in range(len(free))])
            fn = Fn(self, f"def {fname}(m{ps}):", e.get("line"))
            inner = Ctx(fn, {n: Name(f"p{j}", 0, ANY) for j, n in enumerate(free)}, fallback=False, nomemo=True)
            body = getattr(self, "x_" + e["k"])(e, inner)
            fn.emit("try:")
            fn.emit(f"    return {cache}[{key}]")
            fn.emit("except KeyError:")
            fn.emit(f"    return _memo_put(_ROOM, {cache}, {key}, {body.src})")
            fn.emit("except TypeError:")
            fn.emit(f"    return {body.src}")
            self.memo_out.extend(fn.lines())
            self.memo_out.append(("", None))
            self.memo_shape[fname] = (body.shape, body.elem)
        lvl, _ = _join(*args)
        shape, elem = self.memo_shape[fname]
        return P(self.memo_call(fname, args), lvl, True, shape=shape, elem=elem)

    def lit(self, v) -> P:
        if isinstance(v, list) and len(v) > LONG_LITERAL:
            # a long literal list is a constant of the module, copied where it is used (never a
            # Python literal of thousands of elements for the compiler to build)
            return P(f"_built(m, list(_each(m, {self.const(v, 'L')})))", shape=LIST)
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
            return _small(P(fn.use("PL"), shape=LIST, cheap=True, elem=SCALAR), self.few_players)
        if name == "others":
            if self.rounds:                       # in turn order, the eliminated left out
                return _small(P(f"_others(m, {fn.use('me')})", shape=LIST, elem=SCALAR), self.few_players)
            return _small(P(f"{fn.use('OTH')}[{fn.use('me')}]", shape=LIST, cheap=True, elem=SCALAR), self.few_players)
        if name == "round_count":
            return _num(P("m.seq[0]", shape=SCALAR, cheap=True))
        if name == "turn_order":
            return _small(P("list(m.seq[1])", shape=LIST, elem=SCALAR), self.few_players)
        if name == "remaining":
            return _small(P("_remaining(m)", shape=LIST, elem=SCALAR), self.few_players)
        if name == "player_count":
            return _num(P(fn.use("NP"), shape=SCALAR, cheap=True))
        if name == "turn_count":
            return _num(P("m.turn_count", shape=SCALAR, cheap=True))
        if name == "source":
            return P("m.src", shape=SCALAR, cheap=True)
        raise AssertionError(name)

    def x_var(self, e, ctx):
        name = e["n"]
        decl = self.var_decl[name]
        slot = self.var_slot[name]
        base = ctx.fn.use(f"V{slot}") if name in self.stable_vars else f"{ctx.fn.use('V')}[{slot}]"
        shape = LIST if decl["type"].startswith("list:") else SCALAR if decl["type"] != "any" else ANY
        if e.get("i") is None:
            return P(base, shape=LIST if decl["per"] else shape, cheap=True)
        if name in self.stable_vars:
            b = self.loop_var(e["i"], ctx, "comp" if decl["per"] == "component" else decl["per"])
            if b is not None:
                d = b.derived(f"V{slot}", ctx.fn)
                if d is not None:
                    return P(d, b.level, shape=shape, cheap=True)
        i = self.family_index(decl, e["i"], ctx)
        lvl, pure = _join(i)
        return P(f"{base}[{i.src}]", lvl, pure, shape=shape, cheap=i.cheap)

    def family_index(self, decl: dict, ie: dict, ctx) -> P:
        """The position in a family's list of the member `ie` names. Per enum values and combined
        families (`per: key`) are one flat list, the last part varying fastest: piles[p, c] is
        piles[p * len(Colour) + position of c]."""
        if decl.get("per") != "key":
            return self.ex(ie, ctx)
        parts = decl["key"]
        values = [ie] if len(parts) == 1 else ie["items"]
        srcs = []
        ps = []
        for part, v in zip(parts, values):
            p = self.ex({"k": "ord", "enum": part[5:], "x": v} if part.startswith("enum:") else v, ctx)
            ps.append(p)
            if srcs:
                size = (ctx.fn.use("NP") if part == "player" else str(self.geometry.size) if part == "cell"
                        else str(len(self.ir["enums"][part[5:]])))
                srcs = [f"({srcs[0]})*{size}+{p.src}"]
            else:
                srcs = [p.src]
        lvl, pure = _join(*ps)
        return _num(P(srcs[0], lvl, pure, shape=SCALAR, cheap=all(p.cheap for p in ps)))

    def x_zone(self, e, ctx):
        base = ctx.fn.use(f"Z{self.zone_slot[e['n']]}")
        if e.get("i") is None:
            return P(base, shape=LIST, cheap=True, elem=SCALAR)
        per = self.zone_decl[e["n"]]["per"]
        b = self.loop_var(e["i"], ctx, "comp" if per == "component" else per)
        if b is not None:
            d = b.derived(base, ctx.fn)
            if d is not None:
                return P(d, b.level, shape=LIST, cheap=True, elem=SCALAR)
        i = self.family_index(self.zone_decl[e["n"]], e["i"], ctx)
        lvl, pure = _join(i)
        p = P(f"{base}[{i.src}]", lvl, pure, shape=LIST, cheap=i.cheap, elem=SCALAR)
        p.family = (base, i.src)
        return p

    def x_option(self, e, ctx):
        spec = next((o for o in self.ir["options"] if o["name"] == e["n"]), None)
        shape = SCALAR if spec and spec["type"] in ("bool", "int", "text") else ANY
        return P(f"{ctx.fn.use('OPT')}[{_lit(e['n'])}]", shape=shape, cheap=True)

    def arg_binding(self, a, ctx: Ctx):
        """The binding an argument gives an inlined parameter, or None if it is not a plain name."""
        k = a["k"]
        if k == "local":
            return self.binding(a["n"], ctx)
        if k == "lit" and not isinstance(a["v"], (list, dict)):
            return Const(a["v"])
        if k == "builtin" and a["n"] in ("me", "current", "player_count"):
            p = self.x_builtin(a, ctx)
            return Name(p.src, 0, SCALAR)
        return None

    def inline(self, name: str, args: list, ctx: Ctx):
        """(body IR, ctx) for an inlinable call, else None."""
        d = self.ir["defs"][name]
        if "inline" not in self.opt or ("d", name) in self.recursive or ctx.depth >= INLINE_DEPTH or _size(d["body"]) > INLINE_SIZE \
                or name in self.memo_defs \
                or (name in self.listing_memo_defs and not d["params"] and not ctx.fn.enumerator):
            # (a def of no parameters read by a card's condition or another def: its memo is worth
            # more; in a listing itself, a domain is computed once per pass anyway)
            return None
        size = _size(d["body"])
        if size > self.inline_room:
            return None                        # (inlined into inlined defs: the game's budget is spent)
        params = d["params"] or []
        names = {}
        for p, a in zip(params, args):
            b = self.arg_binding(a, ctx)
            if b is None:
                # a computed argument: substitute it if the body reads it once, outside any loop
                if _uses(d["body"], p) > 1:
                    return None
                arg = self.ex(a, ctx)
                if not arg.pure:
                    return None
                b = Bound(arg)
            names[p] = b
        self.inline_room -= size
        return d["body"], ctx.child(names=names, fallback=False, depth=ctx.depth + 1)

    def x_can(self, e, ctx):
        args = [self.ex(a, ctx) for a in e["a"]]
        of = self.ex(e["of"], ctx)
        lvl, pure = _join(of, *args)
        return P(f"_can(m, {self.hook_index[e['hook']]}, {of.src}, ({''.join(a.src + ', ' for a in args)}))",
                 lvl, pure, shape=SCALAR)

    def x_sortby(self, e, ctx):
        p = self.ex(e["pairs"], ctx)
        return P(f"_sort_pairs(m, {p.src})", p.level, p.pure, shape=LIST)

    def x_flat(self, e, ctx):
        p = self.ex(e["x"], ctx)
        return P(f"_flat(m, {p.src})", p.level, p.pure, shape=LIST)

    def x_ord(self, e, ctx):
        order = {v["name"]: i for i, v in enumerate(self.ir["enums"][e["enum"]])}
        x = self.ex(e["x"], ctx)
        return _num(P(f"_ord({self.const(order, 'K', ('ord', e['enum']))}, {x.src}, {_lit(e['enum'])})", x.level,
                      x.pure, shape=SCALAR))

    def x_mods(self, e, ctx):
        args = [self.ex(a, ctx) for a in e["a"]]
        lvl, pure = _join(*args)
        return P(f"_mods(m, {self.def_index[e['n']]}, ({''.join(a.src + ', ' for a in args)}))", lvl, pure,
                 shape=SCALAR)

    def x_def(self, e, ctx):
        name = e["n"]
        inl = self.inline(name, e["a"], ctx)
        if inl is not None:
            p = self.ex(inl[0], inl[1])
            if name in self.impure_defs:
                p.pure = False
            return p
        args = [self.ex(a, ctx) for a in e["a"]]
        lvl, pure = _join(*args)
        shape, elem = self.def_shape.get(name, (ANY, ANY))
        fname = f"d{self.def_index[name]}"
        if name in self.listing_memo_defs:
            if any(a.shape == LIST for a in args):
                fname += "_"                   # a list is no memo key: straight to the def's body
            else:
                self.listing_memo_used = True
        return P(self.memo_call(fname, args), lvl, pure and name not in self.impure_defs,
                 shape=shape, elem=elem)

    def memo_call(self, fname: str, args: list) -> str:
        """A call; of a memoised function with scalar arguments, a cache look-up first; with
        enumeration loop variables for arguments, made once per value of the deepest of them."""
        call = f"{fname}(m{''.join(', ' + a.src for a in args)})"
        cache = self.memo_cache.get(fname)
        if cache is None or not args or not all(a.shape == SCALAR and a.cheap for a in args):
            return call
        binders = [a.bind for a in args if a.bind is not None]
        if self.geometry is not None and len(args) <= 2 and len(binders) == len(args) \
                and all(b.ids == "cell" for b in binders) and self.cell_memo_fits(fname, len(args)):
            # loop variables over cells: the memo is also kept in a table indexed by cell ids (no
            # key tuple, no hashing), made once per value of the deepest of them
            once = self.cell_memo(fname, call, args)
            deepest = max(binders, key=lambda b: b.level)
            name = deepest.call_once(once, None)
            if name is not None:
                return f"({name} if {name} is not _UNSET else {call})"
            return once
        call = f"({cache}.get({_memo_key([a.src for a in args])}) or {call})"
        if binders and all(a.bind is not None or _known(a) for a in args):
            deepest = max(binders, key=lambda b: b.level)
            name = deepest.call_once(call, None)
            if name is not None:
                return f"({name} if {name} is not _UNSET else {call})"
        return call

    def cell_memo_fits(self, fname: str, cells: int) -> bool:
        """May `fname` have a table of its results indexed by cells (one slot per cell, or per pair
        of cells)? While the game's tables hold fewer than CELL_MEMO_SLOTS slots in all."""
        if ("cellmemo", fname) in self.consts:
            return True
        slots = self.geometry.size ** cells
        if slots > self.cell_memo_room:
            return False
        self.cell_memo_room -= slots
        return True

    def cell_memo(self, fname: str, call: str, args: list) -> str:
        """`call` (of a memoised function of one or two cells) through a per-game table of its
        results indexed by the cells, filled on first use; with two cells, the row of the first
        is read once per value of its loop when that can still be arranged."""
        size = self.geometry.size
        key = ("cellmemo", fname)
        table = self.consts.get(key)
        if table is None:
            value = [NOCONST] * size if len(args) == 1 else [[NOCONST] * size for _ in range(size)]
            table = self.const(value, "R", key)
        if len(args) == 1:
            row = table
        else:
            first = args[0].bind
            row = first.rows.get(table) if first.frozen else first.row(table)
            row = row or f"{table}[{args[0].src}]"
        last = args[-1].src
        return f"({row}[{last}] if {row}[{last}] is not _UNSET else _fill(_ROOM, {row}, {last}, {call}))"

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
        op = PY_BINARY[e["op"]]
        l = self.ex(e["l"], ctx)
        if op in ("and", "or"):
            if _known(l):
                if (op == "and") == bool(l.const):
                    return self.ex(e["r"], ctx)
                return l
            r = self.ex(e["r"], ctx)
            if _known(r) and bool(r.const) == (op == "and") and r.const is True:
                # `x and true` is x only for a bool x; keep the general form otherwise
                pass
            lvl, pure = _join(l, r)
            p = P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR if l.shape == r.shape == SCALAR else ANY)
            if l.tsrc is not None or r.tsrc is not None:
                p.tsrc = f"({l.t} {op} {r.t})"
            return p
        r = self.ex(e["r"], ctx)
        lvl, pure = _join(l, r)
        if op in ("/", "%"):
            return _num(P(f"{'_div' if op == '/' else '_mod'}({l.src}, {r.src})", lvl, pure, shape=SCALAR))
        if _known(l) and _known(r) and type(l.const) in (int, bool, str) and type(r.const) in (int, bool, str):
            folded = _fold(op, l.const, r.const)
            if folded is not NOCONST:
                return self.lit(folded)
        if op == "*":
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
        if op == "+" and l.maxlen is not None and r.maxlen is not None and l.maxlen + r.maxlen <= SHORT_TEXT:
            # two texts known short (a constant, a player's or a cell's name...): joined as they are
            p = P(f"({l.src} + {r.src})", lvl, pure, shape=SCALAR)
            p.maxlen = l.maxlen + r.maxlen
            return p
        if op == "+" and not (l.num or r.num):
            # a text or a list joined: its size is measured before it is made (_plus)
            return P(f"_plus(m, {l.src}, {r.src})", lvl, pure,
                     shape=LIST if LIST in (l.shape, r.shape) else SCALAR if l.shape == r.shape == SCALAR else ANY)
        if l.lenof is not None and _known(r) and r.const == 0 and type(r.const) is int and op in ("==", "!=", ">"):
            if op == "==":
                return P(f"(not {l.lenof})", lvl, pure, shape=SCALAR)
            p = P(f"(not not {l.lenof})", lvl, pure, shape=SCALAR)
            p.tsrc = l.lenof
            p.nonempty = l.family
            return p
        if op in ("==", "!=") and l.src == r.src and l.cheap and l.pure and l.shape == SCALAR:
            return self.lit(op == "==")           # the same value read twice (never a float: no NaN)
        if op in ("==", "!="):
            if e.get("scalar") or (l.shape == SCALAR and r.shape == SCALAR):
                return _num(P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR))
            src = f"_eq(m, {l.src}, {r.src})"
            return _num(P(src if op == "==" else f"(not {src})", lvl, pure, shape=SCALAR))
        if op in ("<", "<=", ">", ">="):
            return _num(P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR))
        p = P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR if op == "-" or l.num or r.num else ANY)
        p.num = op == "-" or l.num and r.num       # (`-` of texts or lists is a rule error)
        return p

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
        p = P(f"({t.src} if {c.t} else {f.src})", lvl, pure, shape=t.shape if t.shape == f.shape else ANY)
        if t.maxlen is not None and f.maxlen is not None:
            p.maxlen = max(t.maxlen, f.maxlen)
        return p

    def x_attr(self, e, ctx):
        x, name = self.ex(e["x"], ctx), e["n"]
        if name not in self.column:
            return P(f"({x.src}, None)[1]", x.level, x.pure, const=NOCONST)
        shape = SCALAR if self.scalar_field[name] else ANY
        b = self.loop_var(e["x"], ctx, "comp", x)
        if b is not None:
            d = b.derived(f"F{self.column[name]}", ctx.fn)
            if d is not None:
                return P(d, b.level, shape=shape, cheap=True)
        col = ctx.fn.use(f"F{self.column[name]}")
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
        g = self.geometry
        if g is None:
            return P(f"_fault({_lit('cells need a board')})", x.level, x.pure)
        table = {"name": g.names, "row": g.rows, "col": g.cols, "kind": g.kinds}[name]
        return P(f"{self.const(table, 'G', ('cellattr', name))}[{x.src}]", x.level, x.pure, shape=SCALAR,
                 cheap=x.cheap)

    def x_index(self, e, ctx):
        x, i = self.ex(e["x"], ctx), self.ex(e["i"], ctx)
        lvl, pure = _join(x, i)
        return P(f"{x.src}[{i.src}]", lvl, pure)

    def x_table(self, e, ctx):
        tname, static = self.tables[e["n"]]
        ie = e["i"]
        if ie["k"] == "list":
            items = [self.ex(x, ctx) for x in ie["items"]]
            lvl, pure = _join(*items)
            key = "(" + "".join(x.src + ", " for x in items) + ")"
            if all(_known(x) for x in items):
                key_value = tuple(x.const for x in items)
                table = self.ns[tname]
                if static and key_value in table:
                    return self.lit(table[key_value])
        else:
            k = self.ex(ie, ctx)
            lvl, pure = _join(k)
            key = k.src if k.shape == SCALAR else f"_key(m, {k.src})"
            if _known(k) and static and k.const in self.ns[tname]:
                return self.lit(self.ns[tname][k.const])
        if static:
            return P(f"{tname}[{key}]", lvl, pure)
        return P(f"{tname}[{key}](m)", lvl, False)

    def x_list(self, e, ctx):
        items = [self.ex(x, ctx) for x in e["items"]]
        lvl, pure = _join(*items)
        src = "[" + ", ".join(x.src for x in items) + "]"
        if len(items) > SMALL_LIST:
            src = f"_charge(m, {len(items)}) or {src}"
        scalar = all(x.shape == SCALAR for x in items)
        p = P(src if scalar else f"_built(m, {src})", lvl, pure, shape=LIST, elem=SCALAR if scalar else ANY)
        p.small = len(items) <= SMALL_LIST
        return p

    def comp_parts(self, e, ctx: Ctx):
        """(var, iterable P, inner ctx) of a comprehension."""
        it = self.seq(e["in"], ctx)
        var = ctx.fn.new("q")
        inner = ctx.child(in_comp=True)
        inner.names[e["v"]] = Name(var, 0, it.elem)
        return var, it, inner

    def x_comp(self, e, ctx, opener="[", closer="]"):
        var, it, inner = self.comp_parts(e, ctx)
        precharged = False
        where = e.get("where")
        const = self.ns.get(it.src)
        if where is not None and isinstance(const, list):
            it, where = self.pushdown(e, it, where, ctx)
        if where is not None and not isinstance(const, list) and it.pure and not it.cheap and "hoist" in self.opt:
            guard = self.comp_guard(e, where, ctx)
            if guard is not None:
                it = P(f"({it.src} if _unless_false(lambda: {guard.t}) else ())", *_join(it, guard), shape=LIST,
                       elem=it.elem)
        x = self.ex(e["x"], inner)
        parts = [x, it]
        cond = ""
        if where is not None:
            w = self.ex(where, inner)
            if isinstance(const, list) and const == list(range(len(const))) and not ctx.in_comp:
                # [.. for c in 0..n-1 where size(ZONES[c]) > 0 and ...]: the non-empty zones are picked
                # by itertools.compress, in C, the rest of the condition tested on them only
                cs = self.conjuncts(where, inner)
                if cs and cs[0].nonempty is not None and cs[0].nonempty[1] == var and cs[0].pure:
                    # (charged as the whole constant list: no list of the picked ones is made to count them)
                    w = 1 + self.units(self.weight_of([e["x"], where]))
                    it = P(f"_compress(_each(m, {it.src}{f', {w}' if w > 1 else ''}), {cs[0].nonempty[0]})", it.level,
                           True, shape=LIST, elem=SCALAR)
                    precharged = True
                    w = P("(" + " and ".join(c.t for c in cs[1:]) + ")" if cs[1:] else "True",
                          *_join(*cs[1:]))
            parts.append(w)
            if w.src != "True":
                cond = f" if {w.t}"
        lvl, pure = _join(*parts)
        # every turn of a comprehension is charged to the effect's (or the listing's) budget,
        # unless its list is short: what it builds is no longer than what it reads
        # each element runs x and where: charged as it weighs, unless the list is short (then it
        # weighs where the comprehension is: analysis.weight_of)
        w = 1 + self.units(self.weight_of([e["x"], where]))
        # (a short list's elements weigh where the comprehension is, when analysis.small_source knows
        # it short too; else they are charged here)
        uncharged = precharged or (it.paid and w == 1) or (it.small and (w == 1 or self.small_source(e["in"])))
        src = it.src if uncharged else f"_each(m, {it.src}{f', {w}' if w > 1 else ''})"
        out = f"{opener}{x.src} for {var} in {src}{cond}{closer}"
        if opener == "[" and x.shape != SCALAR:
            out = f"_built(m, {out})"            # a list of lists: measured as a whole (VALUE_LIMIT)
        p = P(out, lvl, pure, shape=LIST, elem=SCALAR if x.shape == SCALAR else ANY)
        p.paid = True
        return p

    def comp_guard(self, e, where, ctx: Ctx) -> P | None:
        """The `and`-conjuncts of a comprehension's condition that do not read its variable, as one
        test made before its list is computed: if it is false, so is the condition for every
        element, and the list is not computed at all — `[t for a in A for t in seen(a) where
        a.cls == archer]` looks only at the archers' lists. The condition stays as written, tested
        per element; a test that fails with a rule error counts as true (_unless_false), so the
        list, and the error where the rules meet it, come as before. Only pure conjuncts of a pure,
        costly list (a cheap one is not worth a test)."""
        conj = _and_terms(where)
        var = e["v"]
        free = [c for c in conj if not any(x.get("k") == "local" and x.get("n") == var for x in walk_ir(c))]
        if not free:
            return None
        guard = [self.ex(c, ctx) for c in free]
        if not all(g.pure for g in guard):
            return None
        src = " and ".join(f"({g.t})" for g in guard)
        return P(f"({src})" if len(guard) > 1 else guard[0].src, *_join(*guard))

    def pushdown(self, e, it: P, where, ctx: Ctx):
        """`[x for c in CONSTANT_LIST where c.row == E and ...]` iterates only the cells whose row is
        E: a conjunct comparing a cell field of the variable with a value that does not depend on
        it selects from a precomputed index (same order as the list)."""
        g = self.geometry
        conj = _and_terms(where)
        var = e["v"]
        for n, c in enumerate(conj):
            if not (c["k"] == "bin" and c["op"] == "=="):
                continue
            for side, other in ((c["l"], c["r"]), (c["r"], c["l"])):
                if not (side["k"] == "cellattr" and side["x"] == {"k": "local", "n": var}) or g is None:
                    continue
                if any(x.get("k") == "local" and x.get("n") == var for x in walk_ir(other)):
                    continue
                value = self.ex(other, ctx)
                if not value.pure or not (value.shape == SCALAR or c.get("scalar")):
                    continue
                items = self.ns[it.src]
                table = {"name": g.names, "row": g.rows, "col": g.cols, "kind": g.kinds}[side["n"]]
                index: dict = {}
                for cell in items:
                    index.setdefault(table[cell], []).append(cell)
                name = self.const(index, "G", ("index", it.src, side["n"]))
                rest = conj[:n] + conj[n + 1:]
                rebuilt = None
                for r in rest:
                    rebuilt = r if rebuilt is None else {"k": "bin", "op": "and", "l": rebuilt, "r": r}
                picked = P(f"{name}.get({value.src}, ())", value.level, True, shape=LIST, elem=SCALAR)
                picked.small = max(map(len, index.values()), default=0) <= SMALL_LIST
                return picked, rebuilt
        return it, where

    def unrolled(self, e, ctx: Ctx):
        """For a comprehension over an unrolled subset: [(element P, where P or None)], else None."""
        src = e["in"]
        if src["k"] != "local":
            return None
        b = self.binding(src["n"], ctx)
        if not isinstance(b, Subset):
            return None
        out = []
        for el in b.elems:
            inner = ctx.child()
            inner.names[e["v"]] = el
            x = self.ex(e["x"], inner)
            w = self.ex(e["where"], inner) if e.get("where") is not None else None
            out.append((x, w))
        return out

    def x_text(self, e, ctx):
        x = self.ex(e["x"], ctx)
        how = e["as"]
        src = self.text_src(how, x.src, ctx.fn)
        if how.startswith("list:") or (how == "plain" and x.shape != SCALAR):
            src = f"_text_of(m, {src})"          # the text of a list: as long as the list (charged)
        p = P(src, x.level, x.pure, shape=SCALAR)
        # what is known of its length: a player's name, a cell's, a number's
        p.maxlen = (4 if how == "player" else max(map(len, self.geometry.names), default=0) + 4
                    if how == "cell" and self.geometry is not None else 21 if how == "plain" and x.num else
                    x.maxlen if how == "plain" else None)
        return p

    def text_src(self, how: str, v: str, fn: Fn) -> str:
        if how == "comp":
            return f"_comp_text({fn.use('LB')}, {v})"
        if how == "player":
            return f"_ptext({v})"
        if how == "plain":
            return f"_plain({v})"
        name = self.const(make_texter(how, self.enum_text, self.geometry), "X", ("text", how))
        return f"{name}({fn.use('LB')}, {v})"

    def x_call(self, e, ctx):
        f, args = e["f"], e["a"]
        a0 = args[0] if args else None
        if f in ("size", "count", "sum", "any", "all") and a0 is not None:
            if a0["k"] == "local":
                b = self.binding(a0["n"], ctx)
                if isinstance(b, Subset) and f in ("size", "count"):
                    return self.lit(len(b.elems))
            if a0["k"] == "comp":
                parts = self.unrolled(a0, ctx)
                if parts is not None:
                    return self.fold_unrolled(f, parts)
            p = self.seq(a0, ctx)
            if f in ("size", "count"):
                size = _num(P(f"len({p.src})", p.level, p.pure, shape=SCALAR,
                              lenof=p.src if p.shape == LIST else None))
                size.family = p.family
                return size
            out = P(f"{f}({self.scan(p)})", p.level, p.pure, shape=SCALAR if f != "sum" else ANY)
            out.num = True                         # (sum: a number, or the rules' error)
            return out
        if f in ("first", "last", "top", "bottom") and len(args) == 1:
            if a0["k"] == "local":
                b = self.binding(a0["n"], ctx)
                if isinstance(b, Subset):
                    if not b.elems:
                        return self.lit(None)
                    return self.of_binding(b.elems[0] if f in ("first", "bottom") else b.elems[-1])
            p = self.ex(a0, ctx)
            if f in ("top", "bottom") and p.cheap and p.shape == LIST:
                idx = "-1" if f == "top" else "0"
                return P(f"({p.src}[{idx}] if {p.src} else None)", p.level, p.pure)
            helper = {"first": "_first", "last": "_last", "top": "_top", "bottom": "_bottom"}[f]
            return P(f"{helper}({p.src})", p.level, p.pure)
        ps = [self.ex(a, ctx) for a in args]
        lvl, pure = _join(*ps)
        s = [p.src for p in ps]
        if f in ("max", "min"):
            if e.get("or"):
                return P(f"_extreme_or(_{f}, {self.scan(ps[0])}, {s[1]})", lvl, pure)
            if len(ps) == 1:
                return P(f"_extreme(_{f}, {self.scan(ps[0])}, {_lit(f)})", lvl, pure)
            p = P(f"_{f}({', '.join(s)})", lvl, pure)
            if any(x.num for x in ps):             # (the larger of a number and anything: a number or an error)
                p.num, p.shape = True, SCALAR
            return p
        if f in ("top", "bottom"):
            return P(f"_{f}n(m, {s[0]}, {s[1]})", lvl, pure, shape=LIST)
        if f == "distinct":
            return P(f"_distinct(m, {s[0]})", lvl, pure, shape=LIST)
        if f == "reverse":
            return P(f"_reversed(m, {s[0]})", lvl, pure, shape=LIST, elem=ps[0].elem)
        if f == "sort":
            return P(f"_sorted(m, {s[0]})", lvl, pure, shape=LIST, elem=ps[0].elem)
        if f == "split":
            return P(f"_split(m, {s[0]}, {s[1]})", lvl, pure, shape=LIST, elem=SCALAR)
        if f == "next":
            if self.rounds:
                return P(f"_next_seat(m, {s[0]})", lvl, False, shape=SCALAR)
            return P(f"(({s[0]}) + 1) % {ctx.fn.use('NP')}", lvl, pure, shape=SCALAR)
        if f == "eliminated":
            return P(f"(m.seq[2][{s[0]}] is not False)", lvl, False, shape=SCALAR)   # (out for good or this round)
        if f == "players_from":
            return _small(P(f"_players_from(m, {s[0]}, {ctx.fn.use('NP')})", lvl, False, shape=LIST, elem=SCALAR),
                          self.few_players)
        if f == "opposite":
            return P(f"{self.const(OPPOSITE, 'K', ('opposite',))}.get({s[0]})", lvl, pure, shape=SCALAR)
        if f == "abs":
            return _num(P(f"abs({s[0]})", lvl, pure, shape=SCALAR))
        if f == "roll":
            return _num(P(f"m.rng.randint(1, {s[0]})", lvl, False, shape=SCALAR))
        if f == "pick":
            return P(f"_pick(m, m.rng, {s[0]})", lvl, False)
        if f == "contains":
            return _num(P(self.in_src(ps[1], P(f"_items({s[0]})", shape=LIST)), lvl, pure, shape=SCALAR))
        spec = CALLABLE[f]
        if spec.runtime:                           # lowered from its description: `f(m, *args)`
            out = P(f"{spec.runtime}(m, {', '.join(s)})", lvl, pure and spec.pure,
                    shape=SCALAR if spec.result in ("int", "bool", "text", "player") else ANY)
            return _num(out) if spec.result == "int" else out
        return self.board_call(f, args, ps, ctx)

    def fold_unrolled(self, f: str, parts) -> P:
        """any/all/sum/size of a comprehension over an unrolled subset."""
        ps = [x for x, _ in parts] + [w for _, w in parts if w is not None]
        lvl, pure = _join(*ps)
        terms = []
        for x, w in parts:
            if f == "any":
                terms.append(x.t if w is None else f"({w.t} and {x.t})")
            elif f == "all":
                terms.append(x.t if w is None else f"(not {w.t} or {x.t})")
            elif f == "sum":
                terms.append(x.src if w is None else f"({x.src} if {w.t} else 0)")
            else:
                terms.append("1" if w is None else f"(1 if {w.t} else 0)")
        if f in ("any", "all"):
            if not terms:
                return self.lit(f == "all")
            joined = (' or ' if f == 'any' else ' and ').join(terms)
            p = P(f"bool({joined})", lvl, pure, shape=SCALAR)
            p.tsrc = f"({joined})"
            return p
        if f in ("size", "count") and all(w is None for _, w in parts):
            return self.lit(len(parts))
        return P("(0" + "".join(" + " + t for t in terms) + ")", lvl, pure)

    def board_call(self, f, args, ps, ctx):
        g = self.geometry
        lvl, pure = _join(*ps)
        s = [p.src for p in ps]
        if g is None:
            return P(f"_fault({_lit(f'`{f}` needs a board, and the game declares none')})", lvl, pure)
        if f == "cells":
            if len(ps) == 1:
                return P(self.const(list(range(g.size)), "G", ("cells",)), lvl, pure, shape=LIST, cheap=True,
                         elem=SCALAR)
            by_kind: dict = {}
            for c in range(g.size):
                by_kind.setdefault(g.kinds[c], []).append(c)
            if _known(ps[1]):
                return P(self.const(by_kind.get(ps[1].const, []), "G", ("cells", ps[1].const)), lvl, pure,
                         shape=LIST, cheap=True, elem=SCALAR)
            return P(f"{self.const(by_kind, 'G', ('cells', None))}.get({s[1]}, [])", lvl, pure, shape=LIST,
                     elem=SCALAR)
        if f == "rows":
            return self.lit(g.height)
        if f == "cols":
            return self.lit(g.width)
        if f == "directions":
            return _small(P(self.const(list(g.directions), "G", ("directions",)), lvl, pure, shape=LIST, cheap=True,
                            elem=SCALAR))
        if f == "cell":
            if len(s) == 3:
                return P(f"G.at_col_row({s[1]}, {s[2]})", lvl, pure, shape=SCALAR)
            return P(f"G.named({s[1]})", lvl, pure, shape=SCALAR)
        if f == "edge":
            if _known(ps[1]) and ps[1].const in g.edges:
                return P(self.const(g.edges[ps[1].const], "G", ("edge", ps[1].const)), lvl, pure, shape=LIST,
                         cheap=True, elem=SCALAR)
            return P(f"G.edge({s[1]})", lvl, pure, shape=LIST, elem=SCALAR)
        if f == "line_in":
            return _small(P(f"G.line_in({s[0]}, {s[1]}, {s[2]})", lvl, pure, shape=LIST, elem=SCALAR), self.short_lines)
        if f == "neighbours":
            if len(ps) == 1:
                table = [g.neighbours_of(c) for c in range(g.size)]
                return _small(P(f"{self.const(table, 'G', ('nb', None))}[{s[0]}]", lvl, pure, shape=LIST,
                                cheap=ps[0].cheap, elem=SCALAR))
            if _known(ps[1]):
                table = g.neighbours.get(ps[1].const)
                if table is None:
                    return P(f"({s[0]}, [])[1]", lvl, pure, shape=LIST)
                return _small(P(f"{self.const(table, 'G', ('nb', ps[1].const))}[{s[0]}]", lvl, pure, shape=LIST,
                                cheap=ps[0].cheap, elem=SCALAR))
            return _small(P(f"G.neighbours_of({s[0]}, {s[1]})", lvl, pure, shape=LIST, elem=SCALAR))
        if f == "step":
            return P(f"G.step({s[0]}, {s[1]})", lvl, pure)
        if f == "line":
            return _small(P(f"G.line_of({s[0]}, {s[1]}, {s[2]})", lvl, pure, shape=LIST, elem=SCALAR), self.short_lines)
        if f == "between":
            return _small(P(f"G.between_of({s[0]}, {s[1]})", lvl, pure, shape=LIST, elem=SCALAR), self.short_lines)
        if f == "direction":
            return P(f"G.direction({s[0]}, {s[1]})", lvl, pure)
        if f == "distance":
            return P(f"G.distance({s[0]}, {s[1]})", lvl, pure, shape=SCALAR)
        if f == "reachable":
            name = args[2]["v"]
            d = self.def_index[name]
            # a walk of the board: every cell it reaches asks the def of each neighbour (charged)
            return P(f"_reachable(G, {s[0]}, {s[1]}, lambda c: _charge(m, 1) or d{d}(m, c))", lvl,
                     pure and name not in self.impure_defs, shape=LIST, elem=SCALAR)
        raise AssertionError(f"unknown builtin {f}")
