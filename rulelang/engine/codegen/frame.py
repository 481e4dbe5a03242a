"""What the generator knows of a value while writing an expression: its source and shape (`P`),
the names in scope (`Ctx`, `Name`, `Subset`, `Bound`, `Const`).
"""
from __future__ import annotations

import re
from typing import Any, Callable

from .constants import ANY, NOCONST
from .writer import Fn


class P:
    """A generated Python expression and what is known about it: the deepest enumeration loop
    whose variable it reads (level), whether it may use the random generator (pure), its value
    if constant, its shape (list, scalar or any), the shape of its elements if a list, whether
    it is cheap enough to evaluate twice, and for `len(X)` the source of X."""
    __slots__ = ("src", "level", "pure", "const", "shape", "cheap", "elem", "lenof", "loop", "bind", "tsrc",
                 "family", "nonempty", "num", "small", "paid", "maxlen", "inner", "copied", "copied_list", "anyof", "conjuncts")
    src: str
    level: int
    pure: bool
    const: Any
    shape: str
    cheap: bool
    elem: str
    inner: str
    lenof: str | None
    loop: tuple | None
    bind: Name | None
    tsrc: str | None
    family: tuple | None
    nonempty: tuple | None
    num: bool
    small: bool
    paid: bool
    maxlen: int | None
    anyof: Callable[[], str | None] | None
    copied_list: str | None
    conjuncts: int

    def __init__(self, src: str, level: int = 0, pure: bool = True, const=NOCONST, shape: str = ANY,
                 cheap: bool = False, elem: str = ANY, lenof: str | None = None):
        self.src, self.level, self.pure, self.const, self.shape, self.cheap = src, level, pure, const, shape, cheap
        self.elem, self.lenof = elem, lenof
        self.loop = None          # for an any/all conjunct: (kind, var, iterable, element, where)
        self.bind = None          # the Name this expression reads, if it is just one
        self.tsrc = None          # a cheaper source with the same truth value (for conditions)
        self.family = None        # for ZONE[i] of a zone family: (family source, index source)
        self.nonempty = None      # for `size(ZONE[i]) > 0`: that family and index
        # what the cost model (limits.py) needs to know: a number for sure (never a text or a list,
        # so `+` cannot grow it: num), a list of at most SMALL_LIST elements (a scan of it costs
        # next to nothing: small), a list whose making already charged its length (paid)
        self.num = type(const) in (int, bool)
        self.small = False
        self.paid = False
        self.maxlen = len(const) if type(const) is str else None    # a text at most this long
        self.inner = ANY          # for a list of lists: the shape of its elements' elements
        self.copied = None        # for `[x for x in L]`: the source of L (charged), which it copies
        self.copied_list = None   # and the source of L itself when L is a list cheap to read twice
        self.anyof = None         # for `len(D(…))` of a def's list: what makes a test of its emptiness
                                  # that stops at its first element, or None (def_calls.nonempty_call)
        self.conjuncts = 0        # for a comprehension's guard: how many conjuncts of `where` it tests

    @property
    def t(self) -> str:
        """The source to use where only the truth value matters (if, and/or, not, where)."""
        return self.tsrc if self.tsrc is not None else self.src


def _known(p: P) -> bool:
    return p.const is not NOCONST


def _join(*ps: P) -> tuple[int, bool]:
    return max((p.level for p in ps), default=0), all(p.pure for p in ps)


class Name:
    """A rule local held by a Python local (or any cheap expression). An enumeration loop variable
    whose values are valid ids (`ids`: comp, cell or player) also collects the state it is used to
    index (`derive`: a field column, a per-cell zone...), read once per value into a local."""
    __slots__ = ("src", "level", "shape", "ids", "derive", "frozen", "elem", "calls", "rows", "domain")

    def __init__(self, src: str, level: int = 0, shape: str = ANY, ids: str | None = None,
                 binder: bool = False):
        self.src, self.level, self.shape, self.ids = src, level, shape, ids
        self.derive: dict | None = {} if ids is not None else None
        self.frozen = False
        self.elem = ANY                            # for a list: the shape of its elements
        # memoised board functions of this (and earlier) loop variables, evaluated once per value
        self.calls: dict | None = {} if binder else None
        # rows of nested intern tables indexed by this variable first: {table: local}, read once per value
        self.rows: dict = {}
        # the source of the pure sequence an enumeration loop takes this variable's values from:
        # `x in` that same sequence is true (a listing changes nothing)
        self.domain: str | None = None

    def row(self, table: str) -> str:
        """The local holding `table[self]` (a row of a nested intern table), read at the binding."""
        name = self.rows.get(table)
        if name is None:
            assert not self.frozen, "intern rows are planned before the loop is emitted"
            name = self.rows[table] = f"{self.src}_{table}"
        return name

    def call_once(self, call: str, fn: "Fn") -> str | None:
        """A local holding `call` (a pure memoised call), computed right after this variable is
        bound; _UNSET there if that raised, and then the call is made where the rules make it."""
        if self.calls is None or self.frozen:
            return self.calls.get(call) if self.calls else None
        name = self.calls.get(call)
        if name is None:
            name = self.calls[call] = f"{self.src}_c{len(self.calls)}"
        return name

    def derived(self, key: str, fn: "Fn") -> str | None:
        """The local holding `key[self]` (key: F3, Z2, V0), if it can still be read at the binding."""
        if self.derive is None:
            return None
        name = self.derive.get(key)
        if name is None:
            if self.frozen:
                return None
            name = self.derive[key] = f"{self.src}_{key}"
            fn.use(key)
        return name

    def emit_derived(self, fn: "Fn", before: str | None = None) -> list[str]:
        """The reads of this value's state, at its binding. With `before` (the text of the checks
        that come next), only the reads those checks use are emitted; the others are returned, to
        be emitted after the checks (a value the checks reject costs no read it does not need)."""
        later = []
        if self.derive:
            for key, name in self.derive.items():
                if before is not None and not re.search(rf"\b{name}\b", before):
                    later.append(f"{name} = {key}[{self.src}]")
                else:
                    fn.emit(f"{name} = {key}[{self.src}]")
        for table, name in self.rows.items():
            fn.emit(f"{name} = {table}[{self.src}]")
        for call, name in (self.calls or {}).items():
            fn.emit("try:")
            fn.emit(f"    {name} = {call}")
            fn.emit("except _FAULTS:")
            fn.emit(f"    {name} = _UNSET")
        self.frozen = True
        return later


class Subset:
    """A subset parameter of known size, unrolled into one Python local per element."""
    __slots__ = ("elems",)

    def __init__(self, elems: list[Name]):
        self.elems = elems

    @property
    def level(self) -> int:
        return max((e.level for e in self.elems), default=0)


class Bound:
    """An inlined def's parameter bound to the caller's argument expression (used once)."""
    __slots__ = ("p",)

    def __init__(self, p: P):
        self.p = p


class Const:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Ctx:
    __slots__ = ("fn", "names", "fallback", "in_comp", "depth", "memo", "nomemo")

    def __init__(self, fn: Fn, names=None, fallback=True, in_comp=False, depth=0, memo=None, nomemo=False):
        self.fn, self.names, self.fallback, self.in_comp, self.depth, self.memo = \
            fn, dict(names or {}), fallback, in_comp, depth, memo
        self.nomemo = nomemo

    def child(self, **kw) -> "Ctx":
        c = Ctx(self.fn, self.names, self.fallback, self.in_comp, self.depth, self.memo, self.nomemo)
        for k, v in kw.items():
            setattr(c, k, v)
        return c

