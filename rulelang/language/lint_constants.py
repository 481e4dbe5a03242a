"""The static lints' constants: what an expression is whatever the state (a number, a range of
numbers, true or false), from literals, options' defaults, and the arithmetic and comparisons
between them. lints.py asks it whether a condition is always false, a range too large, a loop too long.
"""
from __future__ import annotations

import math

from . import nodes as n

INF = math.inf
# How many defs (procs) one evaluation may follow into one another before it gives up ("it depends";
# for a proc, "it may return"): a rule file may chain thousands, and Python's stack is not that deep.
CHAIN_DEPTH = 40


# ---- constants: what an expression is, whatever the state ---------------------------------
# A known value is ("k", v) for a bool, text, none or enum value, and ("r", lo, hi) for a
# number between lo and hi (inclusive, possibly infinite). None means "it depends".

def _k(v):
    return ("k", v)


_CAP = 2 ** 100       # bounds past this widen (towards infinity): they stay cheap, and floats can compare them


def _r(lo, hi):
    if lo < -_CAP:
        lo = -INF
    elif lo > _CAP:
        lo = _CAP
    if hi > _CAP:
        hi = INF
    elif hi < -_CAP:
        hi = -_CAP
    return ("r", lo, hi)


TRUE, FALSE = _k(True), _k(False)


class Consts:
    def __init__(self, checked):
        self.c = checked                     # the checker's Checked
        players = next((d for d in checked.game.decls if isinstance(d, n.Players)), None)
        self.players = (players.low, players.high) if players else (1, INF)
        self.defs_busy: set[str] = set()
        self.memo: dict[int, object] = {}

    def truth(self, e) -> bool | None:
        v = self.value(e)
        return v[1] if v is not None and v[0] == "k" and isinstance(v[1], bool) else None

    def value(self, e):
        key = id(e)
        if key not in self.memo:
            self.memo[key] = self._value(e)
        return self.memo[key]

    def _value(self, e):
        """What `e` is whatever the state, by its node's type (VALUE_OF); None: it depends."""
        of = self.VALUE_OF.get(type(e))
        if of is None:
            raise AssertionError(f"unknown expression node {type(e).__name__}")
        return of(self, e)

    def of_lit(self, e: n.Lit):
        v = e.value
        if isinstance(v, bool) or not isinstance(v, int):
            return _k(v)
        return _r(v, v)

    def of_name(self, e: n.Name):
        """An enum value, the players' count, a count of turns or rounds, or a parameterless def's body."""
        kind, name = self.c.refs.get(id(e), ("unknown", e.name))
        if kind == "enumval":
            return _k(("enum", name))
        if kind == "builtin" and name == "player_count":
            return _r(*self.players)
        if kind == "builtin" and name in ("turn_count", "round_count"):
            return _r(1, INF)
        if kind == "def":
            return self.of_def(name)
        return None

    def of_def(self, name: str):
        """A def without parameters: its body's value, unless it is being evaluated already (a cycle)
        or the chain of defs is CHAIN_DEPTH long."""
        sym = self.c.symbols.get(name)
        if sym is None or sym.decl.params is not None or name in self.defs_busy \
                or len(self.defs_busy) >= CHAIN_DEPTH:
            return None
        self.defs_busy.add(name)
        try:
            return self.value(sym.decl.body)
        finally:
            self.defs_busy.discard(name)

    def of_unary(self, e: n.Unary):
        v = self.value(e.operand)
        if v is None:
            return None
        if e.op == "not":
            return _k(not v[1]) if v[0] == "k" and isinstance(v[1], bool) else None
        return _r(-v[2], -v[1]) if v[0] == "r" else None

    def of_cond(self, e: n.Cond):
        t = self.truth(e.test)
        if t is None:
            return None
        return self.value(e.then if t else e.other)

    def of_call(self, e: n.Call):
        """A builtin whose result has known bounds (sizes, abs, roll, max and min of numbers)."""
        if self.c.symbols.get(e.name) is not None:
            return None                       # a def of the game's own
        if e.name in ("size", "count", "abs"):
            return _r(0, INF)
        if e.name == "roll" and e.args:
            v = self.value(e.args[0])
            return _r(1, v[2]) if v is not None and v[0] == "r" and v[1] >= 1 else _r(1, INF)
        if e.name in ("max", "min") and len(e.args) > 1:
            vs = [self.value(a) for a in e.args]
            if all(v is not None and v[0] == "r" for v in vs):
                pick = max if e.name == "max" else min
                return _r(pick(v[1] for v in vs), pick(v[2] for v in vs))
        return None

    def of_aggregate(self, e: n.Aggregate):
        return _r(0, INF) if e.name in ("size", "count") else None

    def of_state(self, e):
        return None                           # read from the state, or a list: it depends

    def binary(self, e: n.Binary):
        """`a op b`: `and`/`or` by the sides' truth, `in` by membership, `==`/`!=` of any two known
        values, the other operators of two numbers' ranges (_RANGE_OPS)."""
        op = e.op
        if op in ("and", "or"):
            return _logic(op, self.truth(e.left), self.truth(e.right))
        if op == "in":
            return self.membership(e)
        a, b = self.value(e.left), self.value(e.right)
        if a is None or b is None:
            return None
        if op in ("==", "!="):
            eq = _equal(a, b)
            if eq is None:
                return None
            return _k(eq if op == "==" else not eq)
        ranged = _RANGE_OPS.get(op)
        if ranged is None or a[0] != "r" or b[0] != "r":
            return None
        return ranged(a[1], a[2], b[1], b[2])

    def membership(self, e: n.Binary):
        """`x in [a, b, ...]` when every comparison is known; `x in lo..hi` when x's range lies
        wholly inside or wholly outside."""
        left = self.value(e.left)
        right = e.right
        if isinstance(right, n.ListLit):
            if not right.items:
                return FALSE
            items = [self.value(x) for x in right.items]
            if left is None or any(v is None for v in items):
                return None
            return _k(any(_equal(left, v) is True for v in items)) \
                if all(_equal(left, v) is not None for v in items) else None
        if isinstance(right, n.Binary) and right.op == "..":
            lo, hi = self.value(right.left), self.value(right.right)
            if left is not None and left[0] == "r" and lo is not None and hi is not None \
                    and lo[0] == hi[0] == "r":
                if left[2] < lo[1] or left[1] > hi[2] or lo[1] > hi[2]:
                    return FALSE
                if lo[2] <= left[1] and left[2] <= hi[1]:
                    return TRUE
        return None

    VALUE_OF = {n.Lit: of_lit, n.Name: of_name, n.Unary: of_unary, n.Binary: binary, n.Cond: of_cond,
                n.Call: of_call, n.Aggregate: of_aggregate, n.Attr: of_state, n.Index: of_state,
                n.ListLit: of_state, n.ListComp: of_state, n.Make: of_state, n.Can: of_state}


def _logic(op: str, a: bool | None, b: bool | None):
    """`a and b` / `a or b` of two truths, each None where it depends."""
    if op == "and":
        if a is False or b is False:
            return FALSE
        return TRUE if a is True and b is True else None
    if a is True or b is True:
        return TRUE
    return FALSE if a is False and b is False else None


def _product(alo, ahi, blo, bhi):
    """The range of a product: the least and largest of the bounds' products (None past a NaN: 0 * inf)."""
    products = [x * y for x in (alo, ahi) for y in (blo, bhi)]
    if any(isinstance(p, float) and math.isnan(p) for p in products):
        return None
    return _r(min(products), max(products))


# `a op b` of two numbers known to lie in [alo, ahi] and [blo, bhi]: a comparison is TRUE or FALSE
# when every pair of values agrees (None: it depends), an arithmetic operator gives a range
_RANGE_OPS = {
    "<": lambda alo, ahi, blo, bhi: TRUE if ahi < blo else FALSE if alo >= bhi else None,
    "<=": lambda alo, ahi, blo, bhi: TRUE if ahi <= blo else FALSE if alo > bhi else None,
    ">": lambda alo, ahi, blo, bhi: TRUE if alo > bhi else FALSE if ahi <= blo else None,
    ">=": lambda alo, ahi, blo, bhi: TRUE if alo >= bhi else FALSE if ahi < blo else None,
    "+": lambda alo, ahi, blo, bhi: _r(alo + blo, ahi + bhi),
    "-": lambda alo, ahi, blo, bhi: _r(alo - bhi, ahi - blo),
    "*": _product,
}


def _equal(a, b) -> bool | None:
    """Are two known values equal (None: it depends)?"""
    if a[0] == "k" and b[0] == "k":
        return a[1] == b[1]
    if a[0] == "r" and b[0] == "r":
        if a[1] == a[2] == b[1] == b[2]:
            return True
        if a[2] < b[1] or b[2] < a[1]:
            return False
    return None


def _least(v) -> int | None:
    """The smallest a known number can be (None: unknown, or no bound)."""
    return v[1] if v is not None and v[0] == "r" and math.isfinite(v[1]) else None


def _most(v) -> int | None:
    """The largest a known number can be (None: unknown, or no bound)."""
    return v[2] if v is not None and v[0] == "r" and math.isfinite(v[2]) else None
