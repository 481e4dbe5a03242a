"""Lowering lists and comprehensions (a part of the Lowerer, sharing its state): `where` parts pushed
down to the loop they read, aggregates unrolled over small known lists and subsets.
"""
from __future__ import annotations

from typing import NamedTuple

from ...ir.spec import walk_ir
from .constants import ANY, LIST, SCALAR, SMALL_LIST
from .expressions import _num
from .expressions import _and_terms
from .frame import _join, _known, Const, Ctx, Name, P, Subset
from .parts import Part


class Clause(NamedTuple):
    """A comprehension's parts (ComprehensionLowering.clause)."""
    var: str
    it: P
    src: str
    cond: str
    x: P | None
    inner: Ctx
    level: int
    pure: bool
    uncharged: bool


class ComprehensionLowering(Part):
    """The Lowerer's part `comps` (parts.Part): see the module's docstring."""

    def x_list(self, e, ctx):
        items = [self.exprs.ex(x, ctx) for x in e["items"]]
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
        it = self.exprs.seq(e["in"], ctx)
        var = ctx.fn.new("q")
        inner = ctx.child(in_comp=True)
        inner.names[e["v"]] = Name(var, 0, it.elem)
        return var, it, inner

    def x_comp(self, e, ctx, opener="[", closer="]"):
        c = self.clause(e, ctx)
        x, src, cond, var, it = c.x, c.src, c.cond, c.var, c.it
        assert x is not None
        out = f"{opener}{x.src} for {var} in {src}{cond}{closer}"
        copied = None
        if opener == "[" and not cond and x.src == var and x.shape == SCALAR:     # `[u for u in L]`: a copy
            out = f"list({src})"
            copied = src if not c.uncharged else None     # (_each gives a list: `first` may read it as it is)
        if opener == "[" and x.shape != SCALAR:
            out = f"_built(m, {out})"            # a list of lists: measured as a whole (VALUE_LIMIT)
        p = P(out, c.level, c.pure, shape=LIST, elem=SCALAR if x.shape == SCALAR else ANY)
        p.inner = x.elem if x.shape == LIST else ANY    # (flattened, a list of those: x_flat)
        p.paid = True
        p.copied = copied
        if copied is not None and it.cheap and it.shape == LIST:
            p.copied_list = it.src              # (a list read as it is: `first` takes its element)
        return p

    def flattened(self, e, ctx) -> P | None:
        """`[t for a in A for t in F(a) where W]` (a comprehension of comprehensions, flattened) as
        one Python comprehension of two `for`s: no list per `a` made, measured and joined. Each
        `for` is charged as it is in x_comp; the result holds plain values only (else None: x_flat
        makes it as before, measured)."""
        outer_e, inner_e = e["x"], e["x"]["x"]
        outer = self.clause(outer_e, ctx, lower_x=False)
        inner = self.clause(inner_e, outer.inner)
        if inner.x is None or inner.x.shape != SCALAR:
            return None
        lvl, pure = _join(P("", outer.level, outer.pure), P("", inner.level, inner.pure))
        src = (f"[{inner.x.src} for {outer.var} in {outer.src}{outer.cond}"
               f" for {inner.var} in {inner.src}{inner.cond}]")
        p = P(src, lvl, pure, shape=LIST, elem=SCALAR)
        p.paid = True
        return p

    def clause(self, e, ctx, lower_x: bool = True) -> "Clause":
        """The parts of a comprehension's Python form `[X for VAR in SRC COND]`: its variable, its
        list as iterated (charged, or filtered by a guard, pushed down, compressed), its condition,
        and its element X (lowered in the comprehension's own context, `inner`, unless not asked)."""
        var, it, inner = self.comp_parts(e, ctx)
        precharged = False
        where = e.get("where")
        const = self.sh.ns.get(it.src)
        if where is not None and isinstance(const, list):
            it, where = self.pushdown(e, it, where, ctx)
        if where is not None and not isinstance(const, list) and it.pure and not it.cheap and "hoist" in self.sh.opt:
            guard = self.comp_guard(e, where, ctx)
            if guard is not None:
                it = P(f"({it.src} if _unless_false(lambda: {guard.t}) else ())", *_join(it, guard), shape=LIST,
                       elem=it.elem)
        x = self.exprs.ex(e["x"], inner) if lower_x else None
        parts = [it] + ([x] if x is not None else [])
        cond = ""
        if where is not None:
            w = self.exprs.ex(where, inner)
            if isinstance(const, list) and const == list(range(len(const))) and not ctx.in_comp:
                # [.. for c in 0..n-1 where size(ZONES[c]) > 0 and ...]: the non-empty zones are picked
                # by itertools.compress, in C, the rest of the condition tested on them only
                cs = self.enumerator.conjuncts(where, inner)
                if cs and cs[0].nonempty is not None and cs[0].nonempty[1] == var and cs[0].pure:
                    # (charged as the whole constant list: no list of the picked ones is made to count them)
                    units = 1 + self.facts.units(self.facts.weight_of([e["x"], where]))
                    it = P(f"_compress(_each(m, {it.src}{f', {units}' if units > 1 else ''}), {cs[0].nonempty[0]})",
                           it.level, True, shape=LIST, elem=SCALAR)
                    precharged = True
                    tests = [c.t for c in cs[1:]]
                    if "picked" in self.sh.opt and all(c.pure for c in cs):
                        # the zone was picked for being non-empty, and a pure test changes nothing:
                        # its top is its last element, without the emptiness test `top` makes
                        zl = f"{cs[0].nonempty[0]}[{var}]"
                        tests = [t.replace(f"({zl}[-1] if {zl} else None)", f"{zl}[-1]") for t in tests]
                    w = P("(" + " and ".join(tests) + ")" if cs[1:] else "True",
                          *_join(*cs[1:]))
            parts.append(w)
            if w.src != "True":
                cond = f" if {w.t}"
        lvl, pure = _join(*parts)
        # every turn of a comprehension is charged to the effect's (or the listing's) budget,
        # unless its list is short: what it builds is no longer than what it reads
        # each element runs x and where: charged as it weighs, unless the list is short (then it
        # weighs where the comprehension is: analysis.weight_of)
        units = 1 + self.facts.units(self.facts.weight_of([e["x"], where]))
        # (a short list's elements weigh where the comprehension is, when analysis.small_source knows
        # it short too; else they are charged here)
        uncharged = bool(precharged or (it.paid and units == 1)
                         or (it.small and (units == 1 or self.facts.small_source(e["in"]))))
        src = it.src if uncharged else f"_each(m, {it.src}{f', {units}' if units > 1 else ''})"
        return Clause(var, it, src, cond, x, inner, lvl, pure, uncharged)

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
        guard = [self.exprs.ex(c, ctx) for c in free]
        if not all(g.pure for g in guard):
            return None
        src = " and ".join(f"({g.t})" for g in guard)
        p = P(f"({src})" if len(guard) > 1 else guard[0].src, *_join(*guard))
        p.conjuncts = len(guard)
        return p

    def pushdown(self, e, it: P, where, ctx: Ctx):
        """`[x for c in CONSTANT_LIST where c.row == E and ...]` iterates only the cells whose row is
        E: a conjunct comparing a cell field of the variable with a value that does not depend on
        it selects from a precomputed index (same order as the list)."""
        g = self.sh.geometry
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
                value = self.exprs.ex(other, ctx)
                if not value.pure or not (value.shape == SCALAR or c.get("scalar")):
                    continue
                items = self.sh.ns[it.src]
                columns: dict[str, list] = {"name": g.names, "row": g.rows, "col": g.cols, "kind": g.kinds}
                table = columns[side["n"]]
                index: dict = {}
                for cell in items:
                    index.setdefault(table[cell], []).append(cell)
                name = self.sh.const(index, "G", ("index", it.src, side["n"]))
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
        b = self.exprs.binding(src["n"], ctx)
        if not isinstance(b, Subset):
            return None
        out = []
        for el in b.elems:
            inner = ctx.child()
            inner.names[e["v"]] = el
            x = self.exprs.ex(e["x"], inner)
            w = self.exprs.ex(e["where"], inner) if e.get("where") is not None else None
            out.append((x, w))
        return out

    def countable(self, e, depth: int) -> bool:
        """Is `size(e)` one the generator can count element by element (`counted`): a comprehension
        `[k for k in LITERALS where W]` over a short list of literal values, each `and`-part of W
        reading k, no element of it charged (as x_comp would leave it uncharged) — or such a
        comprehension reached through `if … then … else` and the body of a def (the list `[]`
        on the other side)? Only the form is looked at here; the def must still be inlined."""
        if depth > 4:
            return False
        k = e.get("k")
        if k == "comp":
            src, where = e["in"], e.get("where")
            if src.get("k") != "list" or not 0 < len(src["items"]) <= SMALL_LIST or where is None \
                    or any(x.get("k") != "lit" or isinstance(x.get("v"), (list, dict)) for x in src["items"]) \
                    or e["x"] != {"k": "local", "n": e["v"]}:
                return False
            var = e["v"]
            if not all(any(x.get("k") == "local" and x.get("n") == var for x in walk_ir(c)) for c in _and_terms(where)):
                return False                   # (a part not reading k: x_comp tests it first, once: comp_guard)
            units = 1 + self.facts.units(self.facts.weight_of([e["x"], where]))
            return units == 1 or bool(self.facts.small_source(src))
        if k == "if":
            sides = [x for x in (e["t"], e["e"]) if not (x.get("k") == "list" and not x["items"])]
            return bool(sides) and all(self.countable(x, depth + 1) for x in sides)
        if k == "def":
            d = self.sh.ir["defs"].get(e["n"])
            return d is not None and self.countable(d["body"], depth + 1)
        return False

    def counted(self, e, ctx: Ctx) -> P | None:
        """`size(e)` of a countable list (see `countable`), as the sum of its elements' conditions,
        each with its element's value known (`fits(k, …)` folds to the branch of that k): the
        conditions are tested in the same order as the comprehension tests them, and no list is
        made. None where a def is not inlined after all (nothing is written then)."""
        k = e["k"]
        if k == "list":
            return self.exprs.lit(0)
        if k == "def":
            inl = self.defs.inline(e["n"], e["a"], ctx)
            return None if inl is None else self.counted(inl[0], inl[1])
        if k == "if":
            c = self.exprs.ex(e["c"], ctx)
            if _known(c):
                return self.counted(e["t"] if c.const else e["e"], ctx)
            t = self.counted(e["t"], ctx)
            f = self.counted(e["e"], ctx) if t is not None else None
            if t is None or f is None:
                return None
            return _num(P(f"({t.src} if {c.t} else {f.src})", *_join(c, t, f), shape=SCALAR))
        terms, parts = [], []
        for item in e["in"]["items"]:
            inner = ctx.child(in_comp=True)
            inner.names[e["v"]] = Const(item["v"])
            w = self.exprs.ex(e["where"], inner)
            parts.append(w)
            if _known(w):
                terms.append("1" if w.const else "0")
            else:
                terms.append(f"(1 if {w.t} else 0)")
        return _num(P("(" + " + ".join(terms) + ")", *_join(*parts), shape=SCALAR))

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
                return self.exprs.lit(f == "all")
            joined = (' or ' if f == 'any' else ' and ').join(terms)
            p = P(f"bool({joined})", lvl, pure, shape=SCALAR)
            p.tsrc = f"({joined})"
            return p
        if f in ("size", "count") and all(w is None for _, w in parts):
            return self.exprs.lit(len(parts))
        return P("(0" + "".join(" + " + t for t in terms) + ")", lvl, pure)
