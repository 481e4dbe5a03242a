"""Lowering builtin calls and texts (a part of the Lowerer, sharing its state): each builtin's
fast path (sizes, aggregates, the board's geometry), and a value's display text by its type.
"""
from __future__ import annotations

from ..boards import OPPOSITE
from ...ir.spec import CALLABLE
from .constants import ANY, LIST, SCALAR
from .expressions import _num, _small
from .frame import _join, _known, Const, P, Subset
from .runtime import make_texter
from .writer import _lit, Fn
from .parts import Part


class CallLowering(Part):
    """The Lowerer's part `calls` (parts.Part): see the module's docstring."""

    def x_text(self, e, ctx):
        x = self.exprs.ex(e["x"], ctx)
        how = e["as"]
        src = self.text_src(how, x.src, ctx.fn)
        if how.startswith("list:") or (how == "plain" and x.shape != SCALAR):
            src = f"_text_of(m, {src})"          # the text of a list: as long as the list (charged)
        p = P(src, x.level, x.pure, shape=SCALAR)
        # what is known of its length: a player's name, a cell's, a number's
        p.maxlen = (4 if how == "player" else max(map(len, self.sh.geometry.names), default=0) + 4
                    if how == "cell" and self.sh.geometry is not None else 21 if how == "plain" and x.num else
                    x.maxlen if how == "plain" else None)
        return p

    def text_src(self, how: str, v: str, fn: Fn) -> str:
        if how == "comp":
            return f"_comp_text({fn.use('LB')}, {v})"
        if how == "player":
            return f"_ptext({v})"
        if how == "comp_or_player":
            return f"_union_text({fn.use('LB')}, {v})"
        if how == "plain":
            return f"_plain({v})"
        name = self.sh.const(make_texter(how, self.sh.enum_text, self.sh.geometry), "X", ("text", how))
        return f"{name}({fn.use('LB')}, {v})"

    def x_call(self, e, ctx):
        """A builtin call. An aggregate or an end of a list looks at its argument before lowering it
        (an unrolled subset or comprehension is folded); the others are lowered by their builtin's
        method (CALL_LOWERING), else from their description in ir.spec, else as a board call."""
        f, args = e["f"], e["a"]
        if f in ("size", "count", "sum", "any", "all") and args:
            return self.call_aggregate(f, args[0], ctx)
        if f in ("first", "last", "top", "bottom") and len(args) == 1:
            return self.call_end(f, args[0], ctx)
        ps = [self.exprs.ex(a, ctx) for a in args]
        lvl, pure = _join(*ps)
        lower = self.CALL_LOWERING.get(f)
        if lower is not None:
            return lower(self, f, e, ps, lvl, pure, ctx)
        spec = CALLABLE[f]
        if spec.runtime:                           # lowered from its description: `f(m, *args)`
            out = P(f"{spec.runtime}(m, {', '.join(p.src for p in ps)})", lvl, pure and spec.pure,
                    shape=SCALAR if spec.result in ("int", "bool", "text", "player") else ANY)
            return _num(out) if spec.result == "int" else out
        return self.board_call(f, args, ps, ctx)

    def call_aggregate(self, f: str, a0, ctx) -> P:
        """size, count, sum, any, all of a list: the size of an unrolled subset is a constant, an
        unrolled comprehension is folded, a size is `len` (its source kept for emptiness tests)."""
        if a0["k"] == "local":
            b = self.exprs.binding(a0["n"], ctx)
            if isinstance(b, Subset) and f in ("size", "count"):
                return self.exprs.lit(len(b.elems))
        if a0["k"] == "comp":
            parts = self.comps.unrolled(a0, ctx)
            if parts is not None:
                return self.comps.fold_unrolled(f, parts)
        if f in ("size", "count") and "fixedlist" in self.sh.opt and self.comps.countable(a0, 0):
            counted = self.comps.counted(a0, ctx)
            if counted is not None:
                return counted
        p = self.exprs.seq(a0, ctx)
        if f in ("size", "count"):
            size = _num(P(f"len({p.src})", p.level, p.pure, shape=SCALAR, lenof=p.src if p.shape == LIST else None))
            size.family = p.family
            if a0["k"] == "def" and p.shape == LIST and p.src.startswith(f"d{self.sh.def_index[a0['n']]}"):
                # (a call, not an inlined body: that one is already tested where it is)
                size.anyof = lambda: self.defs.nonempty_call(a0["n"], a0["a"], ctx)    # (made if asked)
            return size
        out = P(f"{f}({self.exprs.scan(p)})", p.level, p.pure, shape=SCALAR if f != "sum" else ANY)
        out.num = True                         # (sum: a number, or the rules' error)
        return out

    def call_end(self, f: str, a0, ctx) -> P:
        """first, last, top, bottom of one list: an unrolled subset's element, an index of a cheap
        list, else a helper (none of them fails on an empty list: None)."""
        if a0["k"] == "local":
            b = self.exprs.binding(a0["n"], ctx)
            if isinstance(b, Subset):
                if not b.elems:
                    return self.exprs.lit(None)
                return self.exprs.of_binding(b.elems[0] if f in ("first", "bottom") else b.elems[-1])
        p = self.exprs.ex(a0, ctx)
        if f in ("top", "bottom") and p.cheap and p.shape == LIST:
            idx = "-1" if f == "top" else "0"
            return P(f"({p.src}[{idx}] if {p.src} else None)", p.level, p.pure)
        if p.copied_list is not None:           # `first(u for u in here[c])`: the zone's first, no copy
            idx = "0" if f in ("first", "bottom") else "-1"
            return P(f"({p.copied_list}[{idx}] if {p.copied_list} else None)", p.level, p.pure)
        helper = {"first": "_first", "last": "_last", "top": "_top", "bottom": "_bottom"}[f]
        # (`first(u for u in L)`: L's first, without the copy; its length charged all the same)
        return P(f"{helper}({p.copied if p.copied is not None else p.src})", p.level, p.pure)

    def call_extreme(self, f, e, ps, lvl, pure, ctx) -> P:
        """max / min: of a list (with an `or` value for an empty one), or of its arguments."""
        s = [p.src for p in ps]
        if e.get("or"):
            return P(f"_extreme_or(_{f}, {self.exprs.scan(ps[0])}, {s[1]})", lvl, pure)
        if len(ps) == 1:
            return P(f"_extreme(_{f}, {self.exprs.scan(ps[0])}, {_lit(f)})", lvl, pure)
        p = P(f"_{f}({', '.join(s)})", lvl, pure)
        if any(x.num for x in ps):             # (the larger of a number and anything: a number or an error)
            p.num, p.shape = True, SCALAR
        return p

    def call_ends(self, f, e, ps, lvl, pure, ctx) -> P:
        """top / bottom with a count: a new list of that many."""
        return P(f"_{f}n(m, {ps[0].src}, {ps[1].src})", lvl, pure, shape=LIST)

    def call_distinct(self, f, e, ps, lvl, pure, ctx) -> P:
        return P(f"_distinct(m, {ps[0].src})", lvl, pure, shape=LIST, elem=ps[0].elem)

    def call_reverse(self, f, e, ps, lvl, pure, ctx) -> P:
        return P(f"_reversed(m, {ps[0].src})", lvl, pure, shape=LIST, elem=ps[0].elem)

    def call_sort(self, f, e, ps, lvl, pure, ctx) -> P:
        return P(f"_sorted(m, {ps[0].src})", lvl, pure, shape=LIST, elem=ps[0].elem)

    def call_split(self, f, e, ps, lvl, pure, ctx) -> P:
        return P(f"_split(m, {ps[0].src}, {ps[1].src})", lvl, pure, shape=LIST, elem=SCALAR)

    def call_next(self, f, e, ps, lvl, pure, ctx) -> P:
        """The next seat: skipping eliminated players where the game has rounds, else modulo the players."""
        if self.sh.rounds:
            return P(f"_next_seat(m, {ps[0].src})", lvl, False, shape=SCALAR)
        return P(f"(({ps[0].src}) + 1) % {ctx.fn.use('NP')}", lvl, pure, shape=SCALAR)

    def call_eliminated(self, f, e, ps, lvl, pure, ctx) -> P:
        """Out for good or for this round (Match.seq)."""
        return P(f"(m.seq[2][{ps[0].src}] is not False)", lvl, False, shape=SCALAR)

    def call_players_from(self, f, e, ps, lvl, pure, ctx) -> P:
        return _small(P(f"_players_from(m, {ps[0].src}, {ctx.fn.use('NP')})", lvl, False, shape=LIST, elem=SCALAR),
                      self.sh.few_players)

    def call_opposite(self, f, e, ps, lvl, pure, ctx) -> P:
        return P(f"{self.sh.const(OPPOSITE, 'K', ('opposite',))}.get({ps[0].src})", lvl, pure, shape=SCALAR)

    def call_abs(self, f, e, ps, lvl, pure, ctx) -> P:
        return _num(P(f"abs({ps[0].src})", lvl, pure, shape=SCALAR))

    def call_roll(self, f, e, ps, lvl, pure, ctx) -> P:
        """`roll(N)`: a die of N sides; N not a constant is checked (_sides): where nothing records
        the draw (a `show`), the generator itself is drawn from, which says no words of its own."""
        n = ps[0]
        sides = n.src if _known(n) and type(n.const) is int and n.const >= 1 else f"_sides({n.src})"
        return _num(P(f"m.rng.randint(1, {sides})", lvl, False, shape=SCALAR))

    def call_pick(self, f, e, ps, lvl, pure, ctx) -> P:
        return P(f"_pick(m, m.rng, {ps[0].src})", lvl, False)

    def call_contains(self, f, e, ps, lvl, pure, ctx) -> P:
        return _num(P(self.exprs.in_src(ps[1], P(f"_items({ps[0].src})", shape=LIST)), lvl, pure, shape=SCALAR))

    # the builtins with a lowering of their own, after their arguments are lowered (x_call)
    CALL_LOWERING = {"max": call_extreme, "min": call_extreme, "top": call_ends, "bottom": call_ends,
                     "distinct": call_distinct, "reverse": call_reverse, "sort": call_sort, "split": call_split,
                     "next": call_next, "eliminated": call_eliminated, "players_from": call_players_from,
                     "opposite": call_opposite, "abs": call_abs, "roll": call_roll, "pick": call_pick,
                     "contains": call_contains}

    def board_call(self, f, args, ps, ctx):
        g = self.sh.geometry
        lvl, pure = _join(*ps)
        s = [p.src for p in ps]
        if g is None:
            return P(f"_fault({_lit(f'`{f}` needs a board, and the game declares none')})", lvl, pure)
        if f == "cells":
            if len(ps) == 1:
                return P(self.sh.const(list(range(g.size)), "G", ("cells",)), lvl, pure, shape=LIST, cheap=True,
                         elem=SCALAR)
            by_kind: dict = {}
            for c in range(g.size):
                by_kind.setdefault(g.kinds[c], []).append(c)
            if _known(ps[1]):
                return P(self.sh.const(by_kind.get(ps[1].const, []), "G", ("cells", ps[1].const)), lvl, pure,
                         shape=LIST, cheap=True, elem=SCALAR)
            return P(f"{self.sh.const(by_kind, 'G', ('cells', None))}.get({s[1]}, [])", lvl, pure, shape=LIST,
                     elem=SCALAR)
        if f == "rows":
            return self.exprs.lit(g.height)
        if f == "cols":
            return self.exprs.lit(g.width)
        if f == "directions":
            return _small(P(self.sh.const(list(g.directions), "G", ("directions",)), lvl, pure, shape=LIST, cheap=True,
                            elem=SCALAR))
        if f == "cell":
            if len(s) == 3:
                return P(f"G.at_col_row({s[1]}, {s[2]})", lvl, pure, shape=SCALAR)
            return P(f"G.named({s[1]})", lvl, pure, shape=SCALAR)
        if f == "edge":
            if _known(ps[1]) and ps[1].const in g.edges:
                return P(self.sh.const(g.edges[ps[1].const], "G", ("edge", ps[1].const)), lvl, pure, shape=LIST,
                         cheap=True, elem=SCALAR)
            return P(f"G.edge({s[1]})", lvl, pure, shape=LIST, elem=SCALAR)
        if f == "line_in":
            return _small(P(f"G.line_in({s[0]}, {s[1]}, {s[2]})", lvl, pure, shape=LIST, elem=SCALAR), self.sh.short_lines)
        if f == "neighbours":
            if len(ps) == 1:
                table = [g.neighbours_of(c) for c in range(g.size)]
                return _small(P(f"{self.sh.const(table, 'G', ('nb', None))}[{s[0]}]", lvl, pure, shape=LIST,
                                cheap=ps[0].cheap, elem=SCALAR))
            if _known(ps[1]):
                table = g.neighbours.get(ps[1].const)
                if table is None:
                    return P(f"({s[0]}, [])[1]", lvl, pure, shape=LIST)
                return _small(P(f"{self.sh.const(table, 'G', ('nb', ps[1].const))}[{s[0]}]", lvl, pure, shape=LIST,
                                cheap=ps[0].cheap, elem=SCALAR))
            return _small(P(f"G.neighbours_of({s[0]}, {s[1]})", lvl, pure, shape=LIST, elem=SCALAR))
        if f == "step":
            return P(f"G.step({s[0]}, {s[1]})", lvl, pure)
        if f == "line":
            return _small(P(f"G.line_of({s[0]}, {s[1]}, {s[2]})", lvl, pure, shape=LIST, elem=SCALAR), self.sh.short_lines)
        if f == "between":
            return _small(P(f"G.between_of({s[0]}, {s[1]})", lvl, pure, shape=LIST, elem=SCALAR), self.sh.short_lines)
        if f == "direction":
            return P(f"G.direction({s[0]}, {s[1]})", lvl, pure)
        if f == "distance":
            return P(f"G.distance({s[0]}, {s[1]})", lvl, pure, shape=SCALAR)
        if f == "reachable":
            name = args[2]["v"]
            d = self.sh.def_index[name]
            # a walk of the board: every cell it reaches asks the def of each neighbour (charged)
            # (what follows the def's name is worked out once, before the walk, and passed on after the cell)
            extra = f", _x=({''.join(x + ', ' for x in s[3:])})" if s[3:] else ""
            return P(f"_reachable(G, {s[0]}, {s[1]}, lambda c{extra}: _charge(m, 1) or d{d}(m, c{', *_x' if extra else ''}))",
                     lvl, pure and name not in self.sh.impure_defs, shape=LIST, elem=SCALAR)
        raise AssertionError(f"unknown builtin {f}")
