"""Lowering calls of the rules' defs (a part of the Lowerer, sharing its state): inlined where small,
memoised where pure and asked again and again (per match, per position, per cell), called otherwise.
"""
from __future__ import annotations

from ...ir.spec import walk_ir
from .analysis import _ir_key, _memo_key, _size, _uses
from .constants import ANY, INLINE_DEPTH, INLINE_SIZE, LIST, MEMO_LIMIT, NOCONST, SCALAR
from .expressions import _and_terms
from .frame import _join, _known, Bound, Const, Ctx, Name, P, Subset
from .writer import Fn
from .parts import Part


class DefLowering(Part):
    """The Lowerer's part `defs` (parts.Part): see the module's docstring."""

    def memo_expr(self, e, ctx: Ctx) -> P | None:
        """A static board expression of some locals, as a call of a function memoising it per game."""
        if "memo" not in self.sh.opt:
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
            args.append(self.exprs.of_binding(b))
        k = _ir_key(e)
        fname = self.sh.memo_fns.get(k)
        if fname is None:
            fname = self.sh.memo_fns[k] = f"sx{len(self.sh.memo_fns)}"
            cache = self.sh.const({}, "C")
            self.sh.memo_cache[fname] = cache
            ps = "".join(f", p{j}" for j in range(len(free)))
            key = _memo_key([f"p{j}" for j in range(len(free))])
            fn = Fn(self.sh, f"def {fname}(m{ps}):", e.get("line"))
            inner = Ctx(fn, {n: Name(f"p{j}", 0, ANY) for j, n in enumerate(free)}, fallback=False, nomemo=True)
            body = self.exprs.expr_table[e["k"]](e, inner)
            fn.emit("try:")
            fn.emit(f"    return {cache}[{key}]")
            fn.emit("except KeyError:")
            fn.emit(f"    return _memo_put(_ROOM, {cache}, {key}, {body.src})")
            fn.emit("except TypeError:")
            fn.emit(f"    return {body.src}")
            self.sh.memo_out.extend(fn.lines())
            self.sh.memo_out.append(("", None))
            self.sh.memo_shape[fname] = (body.shape, body.elem)
        lvl, _ = _join(*args)
        shape, elem = self.sh.memo_shape[fname]
        return P(self.memo_call(fname, args), lvl, True, shape=shape, elem=elem)

    def arg_binding(self, a, ctx: Ctx):
        """The binding an argument gives an inlined parameter, or None if it is not a plain name."""
        k = a["k"]
        if k == "local":
            return self.exprs.binding(a["n"], ctx)
        if k == "lit" and not isinstance(a["v"], (list, dict)):
            return Const(a["v"])
        if k == "builtin" and a["n"] in ("me", "current", "player_count"):
            p = self.exprs.x_builtin(a, ctx)
            return Name(p.src, 0, SCALAR)
        return None

    def inline(self, name: str, args: list, ctx: Ctx):
        """(body IR, ctx) for an inlinable call, else None."""
        d = self.sh.ir["defs"][name]
        if "inline" not in self.sh.opt or ("d", name) in self.sh.recursive or ctx.depth >= INLINE_DEPTH or _size(d["body"]) > INLINE_SIZE \
                or name in self.sh.memo_defs \
                or (name in self.sh.listing_memo_defs and not d["params"] and not ctx.fn.enumerator):
            # (a def of no parameters read by a card's condition or another def: its memo is worth
            # more; in a listing itself, a domain is computed once per pass anyway)
            return None
        size = _size(d["body"])
        if size > self.sh.inline_room:
            return None                        # (inlined into inlined defs: the game's budget is spent)
        params = d["params"] or []
        names = {}
        for p, a in zip(params, args):
            b = self.arg_binding(a, ctx)
            if b is None:
                # a computed argument: substitute it if the body reads it once, outside any loop
                if _uses(d["body"], p) > 1:
                    return None
                arg = self.exprs.ex(a, ctx)
                if not arg.pure:
                    return None
                b = Bound(arg)
            names[p] = b
        self.sh.inline_room -= size
        # (a rule error in the body is met at the caller's line: its message names the def too)
        self.sh.inlined.setdefault(ctx.fn.line, {}).setdefault(name, d.get("line"))
        return d["body"], ctx.child(names=names, fallback=False, depth=ctx.depth + 1)

    def x_def(self, e, ctx):
        name = e["n"]
        inl = self.inline(name, e["a"], ctx)
        if inl is not None:
            p = self.exprs.ex(inl[0], inl[1])
            if name in self.sh.impure_defs:
                p.pure = False
            return p
        args = [self.exprs.ex(a, ctx) for a in e["a"]]
        lvl, pure = _join(*args)
        shape, elem = self.sh.def_shape.get(name, (ANY, ANY))
        fname = f"d{self.sh.def_index[name]}"
        if name in self.sh.listing_memo_defs:
            if any(a.shape == LIST for a in args):
                fname += "_"                   # a list is no memo key: straight to the def's body
            else:
                self.sh.listing_memo_used = True
        call = self.memo_call(fname, args)
        check = self.precheck(name, args)
        if check is not None:
            call = f"({check} is not False and {call})"
        return P(call, lvl, pure and name not in self.sh.impure_defs, shape=shape, elem=elem)

    def precheck(self, name: str, args: list) -> str | None:
        """For a call of a def whose body is `g(…) and …`, g memoised per game (a board question,
        `near(a, b, n)`): the look-up of g's memo for this call, so that the call is not made when g
        is known false — a def asked of every pair of units is mostly answered by its first conjunct.
        None when the def is not of that form or its arguments are not cheap to read twice."""
        d = self.sh.ir["defs"][name]
        if "precheck" not in self.sh.opt or name in self.sh.memo_defs or name in self.sh.impure_defs \
                or ("d", name) in self.sh.recursive:
            return None
        first = _and_terms(d["body"])
        if len(first) < 2 or first[0].get("k") != "def" or first[0]["n"] not in self.sh.memo_defs:
            return None
        if not all(a.shape == SCALAR and a.cheap and a.pure for a in args):
            return None
        params = d["params"] or []
        keys = []
        for a in first[0]["a"]:
            if a.get("k") == "local" and a["n"] in params:
                keys.append(args[params.index(a["n"])].src)
            elif a.get("k") == "lit" and type(a["v"]) is int:
                keys.append(repr(a["v"]))
            else:
                return None
        if not keys:
            return None
        cache = self.sh.const({}, "C", ("defmemo", first[0]["n"]))
        return f"{cache}.get({_memo_key(keys)})"

    def memo_call(self, fname: str, args: list) -> str:
        """A call; of a memoised function with scalar arguments, a cache look-up first; with
        enumeration loop variables for arguments, made once per value of the deepest of them."""
        call = f"{fname}(m{''.join(', ' + a.src for a in args)})"
        cache = self.sh.memo_cache.get(fname)
        if cache is None or not args or not all(a.shape == SCALAR and a.cheap for a in args):
            return call
        binders = [a.bind for a in args if a.bind is not None]
        # (made once per value only when every argument is a listing's loop variable or a constant:
        # a comprehension's variable, `k` of `any(… for k in …)`, is bound later, inside the test)
        loops_only = all(b.calls is not None for b in binders)
        if self.sh.geometry is not None and len(args) <= 2 and len(binders) == len(args) \
                and all(b.ids == "cell" for b in binders) and self.cell_memo_fits(fname, len(args)):
            # loop variables over cells: the memo is also kept in a table indexed by cell ids (no
            # key tuple, no hashing), made once per value of the deepest of them
            once = self.cell_memo(fname, call, args)
            deepest = max(binders, key=lambda b: b.level)
            name = deepest.call_once(once, None) if loops_only else None
            if name is not None:
                return f"({name} if {name} is not _UNSET else {call})"
            return once
        pair = self.cell_pair_memo(fname, call, args, binders, loops_only)
        if pair is not None:
            return pair
        call = f"({cache}.get({_memo_key([a.src for a in args])}) or {call})"
        if binders and loops_only and all(a.bind is not None or _known(a) for a in args):
            deepest = max(binders, key=lambda b: b.level)
            name = deepest.call_once(call, None)
            if name is not None:
                return f"({name} if {name} is not _UNSET else {call})"
        return call

    def cell_pair_memo(self, fname: str, call: str, args: list, binders: list, loops_only: bool) -> str | None:
        """`cellpair`: a memoised function of two loop variables, the first over valid cell ids, the
        second over values not known to be cells (a def's list of cells, which may hold `none`:
        `to in charge_targets(from)`), through the table of pairs of cells all the same. The second
        is looked up once per value of its loop, inside the `try` that made-once calls have: a value
        that is not an index (`none`) fails there and the plain call is made; a whole number outside
        the board (below 0 included: the rows are twice as long, and their second half is never
        filled) finds no result and the plain call is made. Only the board's cells are kept."""
        if "cellpair" not in self.sh.opt or self.sh.geometry is None or len(args) != 2 or not loops_only \
                or len(binders) != 2 or args[0].bind is None or args[1].bind is None \
                or args[0].bind.ids != "cell" or args[1].bind.level <= args[0].bind.level \
                or args[1].bind.calls is None or args[1].bind.frozen:
            return None
        if not self.cell_memo_fits(fname, 2):
            return None
        size = self.sh.geometry.size
        table = self.cell_table(fname, 2)
        first = args[0].bind
        row = first.rows.get(table) if first.frozen else first.row(table)
        row = row or f"{table}[{args[0].src}]"
        last = args[1].src
        once = f"({row}[{last}] if {row}[{last}] is not _UNSET else _fill_cell(_ROOM, {row}, {last}, {call}, {size}))"
        name = args[1].bind.call_once(once, None)
        if name is None:
            return None
        return f"({name} if {name} is not _UNSET else {call})"

    def cell_table(self, fname: str, cells: int) -> str:
        """The table of `fname`'s results indexed by one cell, or by two (a row per first cell, twice
        the board's size long: see cell_pair_memo), made once per game."""
        assert self.sh.geometry is not None        # (cells: a board)
        size = self.sh.geometry.size
        key = ("cellmemo", fname)
        table = self.sh.consts.get(key)
        if table is None:
            value = [NOCONST] * size if cells == 1 else [[NOCONST] * (2 * size) for _ in range(size)]
            table = self.sh.const(value, "R", key)
        return table

    def cell_memo_fits(self, fname: str, cells: int) -> bool:
        """May `fname` have a table of its results indexed by cells (one slot per cell, or per pair
        of cells)? While the game's tables hold fewer than CELL_MEMO_SLOTS slots in all."""
        if ("cellmemo", fname) in self.sh.consts:
            return True
        assert self.sh.geometry is not None        # (cells: a board)
        slots = self.sh.geometry.size ** cells * cells     # (a pair's rows are twice as long)
        if slots > self.sh.cell_memo_room:
            return False
        self.sh.cell_memo_room -= slots
        return True

    def cell_memo(self, fname: str, call: str, args: list) -> str:
        """`call` (of a memoised function of one or two cells) through a per-game table of its
        results indexed by the cells, filled on first use; with two cells, the row of the first
        is read once per value of its loop when that can still be arranged."""
        assert self.sh.geometry is not None        # (cells: a board)
        table = self.cell_table(fname, len(args))
        if len(args) == 1:
            row = table
        else:
            first = args[0].bind
            row = first.rows.get(table) if first.frozen else first.row(table)
            row = row or f"{table}[{args[0].src}]"
        last = args[-1].src
        return f"({row}[{last}] if {row}[{last}] is not _UNSET else _fill(_ROOM, {row}, {last}, {call}))"

    def nonempty_call(self, name: str, args_ir: list, ctx: Ctx) -> str | None:
        """`size(D(…)) > 0` where D's body makes a list by comprehensions (`distinct`, a flattened
        comprehension, `if`): a call of D's emptiness test `nz{i}`, which stops at the first element
        found instead of making the list — a card's condition `size(targets) > 0`, asked of every
        card in a hand at every listing, mostly needs one. Within a listing, D's list already made
        answers it, and its answer is kept (m.lm). None where D is not of that form."""
        d = self.sh.ir["defs"][name]
        if "nonempty" not in self.sh.opt or name in self.sh.impure_defs or ("d", name) in self.sh.recursive \
                or not _comprehended(d["body"]):
            return None
        args = [self.exprs.ex(a, ctx) for a in args_ir]
        fname = f"nz{self.sh.def_index[name]}"
        if fname not in self.sh.nonempty_fns:
            self.sh.nonempty_fns.add(fname)
            self.gen_nonempty(name, d, fname)
        return f"{fname}(m{''.join(', ' + a.src for a in args)})"

    def gen_nonempty(self, name: str, d: dict, fname: str) -> None:
        i = self.sh.def_index[name]
        params = d["params"] or []
        ps = "".join(f", p{j}" for j in range(len(params)))
        memo = name in self.sh.listing_memo_defs
        inner = f"{fname}_" if memo else fname
        fn = Fn(self.sh, f"def {inner}(m{ps}):", d.get("line"))
        ctx = Ctx(fn, {p: Name(f"p{j}", 0, ANY) for j, p in enumerate(params)}, fallback=False)
        fn.emit(f"return {self.nonempty_src(d['body'], ctx)}")
        self.sh.memo_out.extend(fn.lines())
        self.sh.memo_out.append(("", None))
        if not memo:
            return
        # in a listing: D's own list, if this listing made it, else this test's answer, kept under
        # a key no def's memo has (a def's is its index and arguments: generator.listing_memo_wrappers)
        w = Fn(self.sh, f"def {fname}(m{ps}):", d.get("line"))
        first = self.empty_first(d["body"], Ctx(w, {p: Name(f"p{j}", 0, ANY) for j, p in enumerate(params)},
                                                fallback=False))
        if first is not None:                   # (the test's own first step, before any memo is looked at)
            w.emit(f"if not {first}: return False")
        w.emit("lm = m.lm")
        w.emit(f"if lm is None: return {inner}(m{ps})")
        w.emit("try:")
        w.emit(f"    v = lm.get(({i}{ps}, ), _UNSET)")
        w.emit("    if v is not _UNSET: return not not v")
        w.emit(f"    k = ({-i - 1}{ps}, )")
        w.emit("    v = lm.get(k, _UNSET)")
        w.emit("except TypeError:")
        w.emit(f"    return {inner}(m{ps})")
        w.emit("if v is _UNSET:")
        w.emit(f"    v = {inner}(m{ps})")
        w.emit(f"    if len(lm) < {MEMO_LIMIT}: lm[k] = v")
        w.emit("return v")
        self.sh.memo_out.extend(w.lines())
        self.sh.memo_out.append(("", None))

    def empty_first(self, body, ctx: Ctx) -> str | None:
        """For a def `[x for v in L where W]` whose emptiness test begins by looking at a list L read
        as it is (a zone of a parameter, `not not L and any(…)`): L's source, so that an empty L — the
        most common answer, a cell with nobody on it — is answered before the memo's two look-ups.
        None for any other form (a part of W not reading v, tested first, is one: comp_guard)."""
        if "nonempty" not in self.sh.opt or body.get("k") != "comp" or body.get("where") is None:
            return None
        if any(not any(x.get("k") == "local" and x.get("n") == body["v"] for x in walk_ir(c))
               for c in _and_terms(body["where"])):
            return None
        it = self.exprs.seq(body["in"], ctx)
        return it.src if it.cheap and it.shape == LIST and it.pure else None

    def nonempty_src(self, e, ctx: Ctx) -> str:
        """A truth test of the list `e` that makes as little of it as it can."""
        k = e.get("k")
        if k == "call" and e["f"] == "distinct" and len(e["a"]) == 1:
            return self.nonempty_src(e["a"][0], ctx)
        if k == "flat" and e["x"].get("k") == "comp":
            return self.nonempty_comp(e["x"], ctx, True)
        if k == "comp":
            if e.get("where") is None:          # as many elements as its list has
                return self.nonempty_src(e["in"], ctx)
            return self.nonempty_comp(e, ctx, False)
        if k == "if":
            c = self.exprs.ex(e["c"], ctx)
            return f"({self.nonempty_src(e['t'], ctx)} if {c.t} else {self.nonempty_src(e['e'], ctx)})"
        if k == "def":
            inl = self.inline(e["n"], e["a"], ctx) if e["n"] not in self.sh.impure_defs else None
            if inl is not None:                 # (a small def: its body, as a call of it would be)
                return self.nonempty_src(inl[0], inl[1])
            call = self.nonempty_call(e["n"], e["a"], ctx)
            if call is not None:
                return call
        return f"(not not {self.exprs.ex(e, ctx).src})"

    def nonempty_comp(self, c, ctx: Ctx, flattened: bool) -> str:
        """Is there an element of the comprehension `c` (of its lists' elements, if `flattened`)?"""
        where = c.get("where")
        guard = self.comps.comp_guard(c, where, ctx) if where is not None else None
        if not flattened and guard is not None and guard.conjuncts == len(_and_terms(where)):
            # `[t for t in seen(a) where a.cls == archer]`: a condition on the list as a whole
            return f"(_unless_false(lambda: {guard.t}) and {self.nonempty_src(c['in'], ctx)})"
        var, it, inner = self.comps.comp_parts(c, ctx)
        w = self.exprs.ex(where, inner) if where is not None else None
        x = self.nonempty_src(c["x"], inner) if flattened else "True"
        units = 1 + self.facts.units(self.facts.weight_of([c["x"], where]))
        cond = f" if {w.t}" if w is not None and w.src != "True" else ""
        test = f"any({x} for {var} in _each(m, {it.src}{f', {units}' if units > 1 else ''}){cond})"
        if it.cheap and it.shape == LIST:       # (an empty zone, the most common answer: no loop set up)
            test = f"(not not {it.src} and {test})"
        # the conjuncts of `where` that do not read the variable, tested first: false, and the
        # list is not made
        return f"(_unless_false(lambda: {guard.t}) and {test})" if guard is not None else test


def _comprehended(e) -> bool:
    """Is `e` a list made by a comprehension (under `distinct`, `if`, flattening)?"""
    k = e.get("k")
    if k == "call" and e["f"] == "distinct" and len(e["a"]) == 1:
        return _comprehended(e["a"][0])
    if k == "if":
        return _comprehended(e["t"]) or _comprehended(e["e"])
    return k in ("flat", "comp")
