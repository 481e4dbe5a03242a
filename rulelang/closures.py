"""Compile a game's IR into Python functions, once per game.

The Lowerer writes the source of one Python module per game — a function per def, proc,
step, action body and flow block — from this module's own templates, then compiles it
once. Rule text never reaches that source: locals, defs, procs, zones and variables are
numbered, and every literal goes through `_lit` (repr of JSON scalars only). The engine
(engine.py) runs the functions; nothing here is a game's own code.

What the generated code gains over walking the IR:
- locals are Python locals, state is read from flat slot lists (`m.Z`, `m.V`, one column
  list per component field in `m.F`), geometry and constant tables are precomputed;
- small non-recursive defs are inlined where their arguments are plain names, which lets
  constants fold (`size(cards) == 1` for a subset of known size);
- legal actions are enumerated by nested loops, one per parameter, and a subset parameter
  with constant size bounds becomes k nested index loops for each size k, so `any`/`all`/
  `sum`/`size`/`first` over it unroll. Each `and`-conjunct of `require` is tested at the
  shallowest loop where its names are bound (in their original order), pruning early; if a
  hoisted test raises, pruning stops and the whole `require` is evaluated where the
  interpreter would have evaluated it;
- per loop value, the state it indexes (a field, a per-cell zone) is read once, and memoised
  board expressions of it are computed once; pure domains that depend on no parameter are
  computed once per enumeration pass; defs and board expressions that read no match state are
  memoised per game;
- legal actions are interned per action and argument ids, per universe of components (see
  engine.Game.universe), so a repeated position costs no text building and no new objects; for
  a lone small subset whose require reads only its components' fields, the verdict is kept too;
- a constant loop of `create`s is computed once and added in bulk (Batch).

Statement functions return None to go on, or a signal tuple that ends the effect:
("goto", step), ("end_turn", player|None) or ("finish",).
"""
from __future__ import annotations

import json
import math
from itertools import combinations, compress

from .boards import Geometry, reachable
from .errors import Diagnostic, RuleError, RuleRuntimeError
from .limits import CALL_DEPTH_LIMIT, INT_LIMIT, LOOP_LIMIT, RANGE_LIMIT, SUBSET_COUNT_LIMIT

# The only Python the IR's operators become (irspec.py lists the same operators).
PY_UNARY = {"-": "-", "not": "not"}
PY_BINARY = {"+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
             ">": ">", ">=": ">=", "and": "and", "or": "or"}
PY_ASSIGN = {"=": "", "+=": "+", "-=": "-"}

INLINE_DEPTH = 8             # defs inlined into defs inlined into ...
INLINE_SIZE = 400            # IR nodes of a def body above which it is called, not inlined
UNROLL_MAX = 6               # largest subset size enumerated by unrolled loops
INTERN_LIMIT = 50_000        # interned actions kept per action (in a dict)
INTERN_CELLS = 1 << 20       # largest nested-list intern table (cells x cells ...) per action
RANDOM_CALLS = ("roll", "pick")
BOARD_WALKS = ("line", "between", "direction", "distance", "reachable", "step")
MEMO_LIMIT = 100_000         # results kept per memoised def

LIST, SCALAR, ANY = "list", "scalar", "any"
REBIND = "#rebind-components"  # marker line: re-read the component columns (after a create)
NOCONST = object()


class RuleFault(RuleRuntimeError):
    """A rule error raised by a helper; the engine adds the rule's file and line."""


def _fault(msg: str):
    raise RuleFault(msg)


# ---- value helpers (shared with engine.py) ----
def player_text(p) -> str:
    return "none" if p is None else f"P{p + 1}"


def plain_text(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def as_items(v):
    """A zone, list or single component seen as a sequence of components."""
    if v is None:
        return ()
    if isinstance(v, int):
        return (v,)
    return v


def _eq(a, b) -> bool:
    """`==` when a side may be a list: a zone, list or single component compared as a list."""
    if isinstance(a, list) or isinstance(b, list):
        return list(as_items(a)) == list(as_items(b))
    return a == b


def _first(v):
    s = as_items(v)
    return s[0] if s else None


def _last(v):
    s = as_items(v)
    return s[-1] if s else None


def _top(z):
    return z[-1] if z else None


def _bottom(z):
    return z[0] if z else None


def _topn(z, k):
    return [] if k <= 0 else list(reversed(z[-k:]))


def _bottomn(z, k):
    return [] if k <= 0 else list(z[:k])


def _extreme(pick, seq, name):
    seq = as_items(seq)
    if not seq:
        _fault(f"`{name}` of an empty list")
    return pick(seq)


def _div(a, b):
    if b == 0:
        _fault("division by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        _fault("division by zero")
    return a % b


def _fill(row: list, i: int, v):
    """Store a computed value in a memo table; returns it."""
    row[i] = v
    return v


def _key(k):
    return tuple(k) if isinstance(k, list) else k


def _pick(rng, seq):
    seq = list(as_items(seq))
    return rng.choice(seq) if seq else None


def _subsets(items, low, high):
    _subset_limit(len(items), low, high)
    for k in range(max(0, low), min(high, len(items)) + 1):
        yield from combinations(items, k)


def _subset_limit(n: int, low, high) -> None:
    """Refuse to list the subsets of a domain when there would be more than SUBSET_COUNT_LIMIT."""
    total = 0
    for k in range(max(0, low), min(high, n) + 1):
        total += math.comb(n, k)
        if total > SUBSET_COUNT_LIMIT:
            _fault(f"a subset parameter over {n} elements (size {low}..{high}) has more than "
                   f"{SUBSET_COUNT_LIMIT} choices (subset limit)")


def _range(lo, hi) -> list:
    """The list lo..hi, refused past RANGE_LIMIT elements."""
    if hi - lo >= RANGE_LIMIT:
        _fault(f"the range {lo}..{hi} has more than {RANGE_LIMIT} elements (range limit)")
    return list(range(lo, hi + 1))


def _mul(a, b):
    """a * b for rules: an integer product past INT_LIMIT is a rule error, not a slow bignum."""
    v = a * b
    if type(v) is int and not -INT_LIMIT <= v <= INT_LIMIT:
        _fault(f"a product is too large: {plain_text(a)} * {plain_text(b)} (integer limit {INT_LIMIT})")
    return v


def _grown(v):
    """A value assigned by arithmetic: an integer past INT_LIMIT is a rule error (no unbounded growth)."""
    if type(v) is int and not -INT_LIMIT <= v <= INT_LIMIT:
        _fault(f"a number grew past the integer limit {INT_LIMIT}")
    return v


class Table(dict):
    """A rule table of constant values; a missing key is a rule error naming the table."""
    __slots__ = ("name",)

    def __missing__(self, key):
        _fault(f"table `{self.name}` has no entry for {plain_text(key)}")


class ExprTable(dict):
    """A rule table whose values are computed (functions of the match)."""
    __slots__ = ("name",)

    def __missing__(self, key):
        _fault(f"table `{self.name}` has no entry for {plain_text(key)}")


def _lit(v) -> str:
    """Python source for a JSON literal: repr of scalars only, lists and dicts rebuilt."""
    if v is None or isinstance(v, (bool, int, str)):
        return repr(v)
    if isinstance(v, float) and math.isfinite(v):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_lit(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_lit(str(k))}: {_lit(x)}" for k, x in v.items()) + "}"
    raise ValueError(f"not a literal value: {type(v).__name__}")


# ---- moving components ----
def _move(m, what, dest, bottom: bool) -> None:
    """Move a component, a list of them or a whole zone (in its order) onto `dest`."""
    items = list(as_items(what))
    where = m.where
    for c in items:
        src = where[c]
        if src is not None:
            src.remove(c)
        if bottom:
            dest.insert(0, c)
        else:
            dest.append(c)
        where[c] = dest


def _over(dest: list, cap: int, name: str) -> None:
    """After adding to a zone with a capacity (known where the zone is named in the rules)."""
    if len(dest) > cap:
        _fault(f"zone `{name}` holds {len(dest)} components, over its capacity {cap}")


def _over_any(m, dest: list) -> None:
    """After adding to a zone computed at run time: its capacity, if it has one."""
    cap = m.zone_ids().get(id(dest))
    if cap is not None:
        _over(dest, *cap)


def _move_zone(m, what, dest) -> None:
    """`move ZONE to ZONE` (top), both static zones without capacity."""
    if what is dest:
        items = list(what)
        for c in items:
            what.remove(c)
            what.append(c)
        return
    where = m.where
    for c in what:
        where[c] = dest
    dest.extend(what)
    del what[:]


def _move1(m, c, dest) -> None:
    """Move one component (or nothing, for none) onto the top of `dest`; no capacity."""
    if c is None:
        return
    if type(c) is not int:
        return _move(m, c, dest, False)
    where = m.where
    src = where[c]
    if src is not None:
        src.remove(c)
    dest.append(c)
    where[c] = dest


def _zone(m, z):
    """A `move`/`shuffle` target computed at run time must be one of this match's zones."""
    if id(z) not in m.zone_ids():
        _fault("a `move` or `shuffle` target is not a zone")
    return z


class Batch:
    """Components created by one constant loop of creates, ready to be added to a match in bulk."""
    made = 0                                   # batches built so far: each has its own serial

    def __init__(self, entries: list, ncols: int, caps: list):
        Batch.made += 1
        self.serial = Batch.made               # its token in a match's creation history
        self.kinds = [k for k, _, _, _, _ in entries]
        self.labels = [made[1] for _, made, _, _, _ in entries]
        rows = [made[0] for _, made, _, _, _ in entries]
        self.cols = [[r[j] for r in rows] for j in range(ncols)]
        self.dests: list = []                  # (slot, index) of each destination zone
        self.ops: list = []                    # per destination: ([offsets put at the bottom], [on top])
        self.dest_of: list = []                # per component: its destination's position
        where: dict = {}
        for n, (_, _, slot, idx, bottom) in enumerate(entries):
            d = where.get((slot, idx))
            if d is None:
                d = where[(slot, idx)] = len(self.dests)
                self.dests.append((slot, idx))
                self.ops.append(([], []))
            self.dest_of.append(d)
            if bottom:
                self.ops[d][0].insert(0, n)
            else:
                self.ops[d][1].append(n)
        self._ids: dict = {}                   # see ids()
        self.capped = any(caps[slot] is not None for slot, _ in self.dests)

    def ids(self, c0: int) -> list:
        """Per destination, the ids put at its bottom and on its top when the batch starts at id
        `c0` (a match's component count): the same for every match built the same way, so kept."""
        ids = self._ids.get(c0)
        if ids is None:
            ids = [([c0 + o for o in bottom], [c0 + o for o in top]) for bottom, top in self.ops]
            if len(self._ids) < 64:
                self._ids[c0] = ids
        return ids

    def add_to(self, m) -> None:
        if m.shared:
            m.unshare()
        c0 = len(m.labels)
        m.kinds += self.kinds
        m.labels += self.labels
        for col, vals in zip(m.F, self.cols):
            col += vals
        Z = m.Z
        zs = [Z[slot] if idx is None else Z[slot][idx] for slot, idx in self.dests]
        for z, (bottom, top) in zip(zs, self.ids(c0)):
            if bottom:
                z[0:0] = bottom
            if top:
                z += top
        if len(zs) == 1:                       # one destination (the usual case)
            m.where += zs * len(self.kinds)
        else:
            m.where += [zs[d] for d in self.dest_of]
        for slot, value in m.comp_defaults:
            m.V[slot].extend([value] * len(self.kinds))
        if self.capped:
            caps = m.game.slot_caps
            for z, (slot, _) in zip(zs, self.dests):
                if caps[slot] is not None:
                    _over(z, *caps[slot])
        if m.created is not None:
            m.created.append(self.serial)
        m.intern = None                        # components changed: action texts must be rebuilt


def _add_batch(m, cache: dict, build, free: tuple) -> None:
    try:
        key = (m.players, tuple(sorted(m.options.items())), free)
        b = cache.get(key)
    except TypeError:                      # an unhashable local: build it every time
        key, b = None, None
    if b is None:
        b = Batch(build(m, *free), len(m.F), m.game.slot_caps)
        if key is not None and len(cache) < 64:
            cache[key] = b
    b.add_to(m)


def _add(m, kind: str, made, dest, bottom: bool) -> None:
    """A new component (its column row and label made by a kind's maker) placed on `dest`."""
    row, label = made
    if m.shared:
        m.unshare()
    c = len(m.labels)
    for col, v in zip(m.F, row):
        col.append(v)
    m.kinds.append(kind)
    m.labels.append(label if label is not None else f"{kind}{c}")
    m.where.append(dest)
    for slot, value in m.comp_defaults:    # variables per component start at their initial value
        m.V[slot].append(value)
    if bottom:
        dest.insert(0, c)
    else:
        dest.append(c)
    if m.created is not None:
        m.created.append((kind, row, m.labels[c]))
    if m.intern is not None:
        m.intern = None                    # components changed: action texts must be rebuilt


# ---- legal actions ----
class Action:
    """One legal choice; its text is its identity ("play 8♦ A♣")."""
    __slots__ = ("text", "_fn", "_args", "_meta")

    def __init__(self, text: str, fn, args: tuple, meta):
        self.text, self._fn, self._args, self._meta = text, fn, args, meta

    @property
    def name(self) -> str:
        return self._meta[0]

    @property
    def args(self) -> dict:
        return {p: (list(v) if isinstance(v, tuple) else v) for p, v in zip(self._meta[1], self._args)}

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Action) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def _mkact(table, key, text: str, fn, args: tuple, meta) -> Action:
    a = Action(text, fn, args, meta)
    if key is not None and len(table) < INTERN_LIMIT:
        table[key] = a
    return a


# ---- texts ----
def make_texter(how: str, enum_text: dict, geometry):
    """A function (labels, value) -> display text for values of one static type."""
    if how.startswith("list:"):
        inner = make_texter(how[5:], enum_text, geometry)
        return lambda lb, v: " ".join(inner(lb, x) for x in as_items(v))
    if how.startswith("enum:"):
        names = enum_text.get(how[5:], {})
        return lambda lb, v: "none" if v is None else names.get(v, str(v))
    if how == "comp":
        return lambda lb, v: "none" if v is None else lb[v]
    if how == "player":
        return lambda lb, v: player_text(v)
    if how == "cell":
        cells = geometry.names if geometry else []
        return lambda lb, v: "none" if v is None else cells[v]
    return lambda lb, v: plain_text(v)


# ---- the code generator ----
class P:
    """A generated Python expression and what is known about it: the deepest enumeration loop
    whose variable it reads (level), whether it may use the random generator (pure), its value
    if constant, its shape (list, scalar or any), the shape of its elements if a list, whether
    it is cheap enough to evaluate twice, and for `len(X)` the source of X."""
    __slots__ = ("src", "level", "pure", "const", "shape", "cheap", "elem", "lenof", "loop", "bind", "tsrc",
                 "family", "nonempty")

    def __init__(self, src: str, level: int = 0, pure: bool = True, const=NOCONST, shape: str = ANY,
                 cheap: bool = False, elem: str = ANY, lenof: str | None = None):
        self.src, self.level, self.pure, self.const, self.shape, self.cheap = src, level, pure, const, shape, cheap
        self.elem, self.lenof = elem, lenof
        self.loop = None          # for an any/all conjunct: (kind, var, iterable, element, where)
        self.bind = None          # the Name this expression reads, if it is just one
        self.tsrc = None          # a cheaper source with the same truth value (for conditions)
        self.family = None        # for ZONE[i] of a zone family: (family source, index source)
        self.nonempty = None      # for `size(ZONE[i]) > 0`: that family and index

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
    __slots__ = ("src", "level", "shape", "ids", "derive", "frozen", "elem", "calls", "rows")

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

    def emit_derived(self, fn: "Fn") -> None:
        if self.derive:
            for key, name in self.derive.items():
                fn.emit(f"{name} = {key}[{self.src}]")
        for table, name in self.rows.items():
            fn.emit(f"{name} = {table}[{self.src}]")
        for call, name in (self.calls or {}).items():
            fn.emit("try:")
            fn.emit(f"    {name} = {call}")
            fn.emit("except _FAULTS:")
            fn.emit(f"    {name} = _UNSET")
        self.frozen = True


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


class Fn:
    """One generated function: its lines (each with the rule line it implements)."""

    RESOURCES = {"Z": "m.Z", "V": "m.V", "me": "m.me", "cur": "m.current", "NP": "m.players",
                 "LB": "m.labels", "OPT": "m.options", "PL": "m.PL", "OTH": "m.OTH", "W": "m.where"}

    def __init__(self, low: "Lowerer", header: str, line=None):
        self.low = low
        self.header = header
        self.body: list[tuple[str, object]] = []
        self.indent = 1
        self.uses: dict[str, str] = {}
        self.locals: dict[str, str] = {}          # rule local -> Python local (lets, fors, params)
        self.line = line
        self.counter = 0
        self.batch = False                        # a batch builder: `create` collects, does not add

    def emit(self, text: str) -> None:
        self.body.append(("    " * self.indent + text, self.line))

    def use(self, res: str) -> str:
        """A local the function reads once at its start: a state list (`Z3` = zone slot 3, `V2` =
        the list of a per-player/per-cell variable, `F0` = a field column) or a match value."""
        if res not in self.uses:
            if res[0] in "FZV" and res[1:].isdigit():
                self.uses[res] = f"m.{res[0]}[{int(res[1:])}]"
            else:
                self.uses[res] = self.RESOURCES[res]
        return res

    def new(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def local(self, name: str) -> str:
        if name not in self.locals:
            self.locals[name] = f"v{len(self.locals)}"
        return self.locals[name]

    def lines(self) -> list[tuple[str, object]]:
        out = [(self.header, self.line)]
        out += [(f"    {k} = {v}", self.line) for k, v in self.uses.items()]
        comps = [(k, v) for k, v in self.uses.items() if k == "LB" or (k[0] == "F" and k[1:].isdigit())]
        for text, line in self.body or [("    pass", self.line)]:
            if text.strip() == REBIND:
                # after a create: the columns may be new lists (a clone's are copied on write)
                indent = text[:len(text) - len(text.lstrip())]
                out += [(f"{indent}{k} = {v}", line) for k, v in comps] or [(f"{indent}pass", line)]
            else:
                out.append((text, line))
        return out


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


def _size(e) -> int:
    """Number of IR nodes in an expression (inlining budget)."""
    if isinstance(e, dict):
        return 1 + sum(_size(v) for v in e.values())
    if isinstance(e, list):
        return sum(_size(v) for v in e)
    return 0


def _uses(e, name: str, in_loop: bool = False) -> int:
    """How many times a body reads local `name`; a read inside a comprehension counts as many."""
    if isinstance(e, list):
        return sum(_uses(x, name, in_loop) for x in e)
    if not isinstance(e, dict):
        return 0
    if e.get("k") == "local" and e.get("n") == name:
        return 2 if in_loop else 1
    if e.get("k") == "comp":
        return (_uses(e["in"], name, in_loop) + _uses(e["x"], name, True)
                + _uses(e.get("where"), name, True))
    return sum(_uses(v, name, in_loop) for v in e.values())


def _unrolls(param: dict) -> bool:
    """Is this a subset parameter with constant size bounds (enumerated by unrolled loops)?"""
    lo, hi = param.get("min"), param.get("max")
    return (param["mode"] == "subset" and lo is not None and hi is not None and lo["k"] == "lit"
            and hi["k"] == "lit" and type(lo["v"]) is int and type(hi["v"]) is int and hi["v"] <= UNROLL_MAX)


def _shown_shape(param: dict) -> str:
    """The shape of a parameter's values, from how they are shown (a component, cell, player or enum)."""
    how = param.get("show", "plain")
    return SCALAR if how in ("comp", "cell", "player") or how.startswith("enum:") else ANY


def _memo_key(srcs: list[str]) -> str:
    """The cache key of a memoised call: the argument itself, or a tuple of them."""
    return srcs[0] if len(srcs) == 1 else "(" + "".join(s + ", " for s in srcs) + ")"


def _ir_key(e) -> str:
    """An IR expression as text, without source lines (equal meaning, equal key)."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "line"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return json.dumps(strip(e), sort_keys=True)


def _grow(found: set, items: dict, holds) -> None:
    """Add to `found` the names of `items` for which `holds(name, item)`, until nothing changes:
    a test may read `found` (a proc that calls a creating proc creates too)."""
    changed = True
    while changed:
        changed = False
        for name, item in items.items():
            if name not in found and holds(name, item):
                found.add(name)
                changed = True


def _walk(e):
    if isinstance(e, dict):
        yield e
        for v in e.values():
            yield from _walk(v)
    elif isinstance(e, list):
        for v in e:
            yield from _walk(v)


class Lowerer:
    """Compiles the IR of one game into Python functions; see the module docstring."""

    def __init__(self, ir: dict):
        self.ir = ir
        board = (ir.get("boards") or [None])[0]
        self.geometry = (Geometry(board["shape"], board["width"], board["height"], board["diagonal"])
                         if board else None)
        self.source = ir.get("source", "<ir>")
        self.enum_text = {e: {i["name"]: i["text"] for i in items} for e, items in ir["enums"].items()}
        self.zone_slot = {z["name"]: i for i, z in enumerate(ir["zones"])}
        self.zone_decl = {z["name"]: z for z in ir["zones"]}
        self.has_capacity = any(z["capacity"] is not None for z in ir["zones"])
        self.var_slot = {v["name"]: i for i, v in enumerate(ir["vars"])}
        self.var_decl = {v["name"]: v for v in ir["vars"]}
        self.def_index = {name: i for i, name in enumerate(ir["defs"])}
        self.proc_index = {name: i for i, name in enumerate(ir["procs"])}
        # component fields: one column per field name, across kinds
        self.columns: list[str] = []
        field_types: dict[str, set] = {}
        for spec in ir["kinds"].values():
            for f in spec["fields"]:
                if f["name"] not in field_types:
                    self.columns.append(f["name"])
                field_types.setdefault(f["name"], set()).add(f["type"])
        self.column = {name: i for i, name in enumerate(self.columns)}
        scalar_types = ("int", "bool", "text", "player", "cell")
        self.scalar_field = {name: all(t in scalar_types or t.startswith(("enum:", "comp:")) for t in ts)
                             for name, ts in field_types.items()}
        self.kind_fields = {k: [(f["name"], self.column[f["name"]]) for f in spec["fields"]]
                            for k, spec in ir["kinds"].items()}
        self.ns: dict = {}
        self.consts: dict = {}                 # constant source -> global name
        self.out: list[tuple[str, object]] = []
        self.action_meta: list = []            # global action index -> (name, param names)
        self.action_index: dict = {}           # id(action IR) -> global action index
        self._static_walk: dict = {}
        self._keep: list = []                  # IR nodes whose id() keys _static_walk
        self.memo_fns: dict = {}               # IR key of a memoised static expression -> function
        self.memo_shape: dict = {}
        self.memo_out: list = []
        self.batches: list = []
        self.memo_cache: dict = {}             # memoising function -> its cache's name
        self.body_variants: dict = {}          # (action, subset size) -> body function for that size
        self.def_shape: dict = {}              # def -> (shape, element shape) of its value
        self.batch_free = None
        self.makers = 0                        # component-making functions generated so far
        try:
            self._analyse()
        except (RecursionError, KeyError, TypeError, IndexError, AttributeError) as err:
            raise RuleError([Diagnostic("E301", f"{self.source}: not a usable compiled game "
                                                f"({type(err).__name__}: {err})")]) from None

    # ---- whole-game analysis ----
    def _calls(self, node) -> tuple[set, set]:
        defs, procs = set(), set()
        for x in _walk(node):
            if x.get("k") == "def":
                defs.add(x["n"])
            elif x.get("k") == "call" and x.get("f") == "reachable":
                lit = x["a"][2]
                if lit.get("k") == "lit":
                    defs.add(lit["v"])
            if x.get("s") == "call":
                procs.add(x["proc"])
        return defs, procs

    def _analyse(self) -> None:
        ir = self.ir
        graph: dict[tuple, set] = {}
        for name, d in ir["defs"].items():
            ds, ps = self._calls(d["body"])
            graph[("d", name)] = {("d", x) for x in ds} | {("p", x) for x in ps}
        for name, p in ir["procs"].items():
            ds, ps = self._calls(p["body"])
            graph[("p", name)] = {("d", x) for x in ds} | {("p", x) for x in ps}
        # recursive: a node that reaches itself
        self.recursive = set()
        for start in graph:
            seen, stack = set(), list(graph[start])
            while stack:
                x = stack.pop()
                if x == start:
                    self.recursive.add(start)
                    break
                if x in seen or x not in graph:
                    continue
                seen.add(x)
                stack.extend(graph[x])
        # impure: uses the random generator, directly or through a def
        self.impure_defs = set()
        direct = {name for name, d in ir["defs"].items()
                  if any(x.get("k") == "call" and x.get("f") in RANDOM_CALLS for x in _walk(d["body"]))}
        self.impure_defs |= direct
        _grow(self.impure_defs, ir["defs"], lambda name, d: any(
            ("d", x) in graph and x in self.impure_defs for _, x in graph[("d", name)]))
        # static defs read nothing of a match (only their parameters, constants and the board):
        # their results are memoised per game when they are worth it (a comprehension, a board walk)
        self.static_defs: set = set()
        _grow(self.static_defs, ir["defs"], lambda name, d: self._static(d["body"]))
        self.memo_defs = {name for name in self.static_defs if ir["defs"][name]["params"]
                          and any(x.get("k") == "comp" or (x.get("k") == "call" and x.get("f") in BOARD_WALKS)
                                  for x in _walk(ir["defs"][name]["body"]))}
        # per-player / per-cell variables never assigned as a whole keep one list for the whole match
        whole = {x["target"]["n"] for x in _walk(ir) if x.get("s") == "set" and x["target"].get("k") == "var"
                 and x["target"].get("i") is None}
        self.stable_vars = {v["name"] for v in ir["vars"] if v["per"] and v["name"] not in whole}
        # procs that create components, directly or through a call
        self.creating: set = set()
        _grow(self.creating, ir["procs"], lambda name, p: any(
            x.get("s") == "create" or (x.get("s") == "call" and x["proc"] in self.creating) for x in _walk(p["body"])))
        # procs that may end an effect (goto, end turn, finish), directly or through a call
        self.signalling: set = set()
        _grow(self.signalling, ir["procs"], lambda name, p: self._block_signals(p["body"]))

    def _static(self, body) -> bool:
        for x in _walk(body):
            k = x.get("k")
            if k in ("var", "zone", "builtin", "option", "attr", "table"):
                if k == "table" and x["n"] in self.ir["tables"] and all(
                        v.get("k") == "lit" for _, v in self.ir["tables"][x["n"]]):
                    continue
                return False
            if k == "def" and x["n"] not in self.static_defs:
                return False
            if k == "text" and "comp" in x["as"]:
                return False                       # a component's label belongs to its match
            if k == "call" and (x["f"] in RANDOM_CALLS or x["f"] in ("next", "cell")):
                return False
            if k == "call" and x["f"] == "reachable" and (
                    x["a"][2].get("k") != "lit" or x["a"][2].get("v") not in self.static_defs):
                return False                       # the passable-test def is called on every cell
        return True

    def _block_signals(self, stmts) -> bool:
        for x in _walk(stmts):
            s = x.get("s")
            if s in ("goto", "end_turn", "finish"):
                return True
            if s == "call" and x["proc"] in self.signalling:
                return True
        return False

    def fail(self, line, msg: str):
        where = f"{self.source}:{line}: " if line else ""
        raise RuleRuntimeError(where + msg)

    # ---- namespace ----
    def const(self, value, prefix: str = "K", key=None) -> str:
        """A module-level constant of the generated code (geometry tables, tables, lists);
        constants with the same key share one name (so equal sources compare equal)."""
        if key is not None and key in self.consts:
            return self.consts[key]
        name = f"{prefix}{len(self.ns)}"
        self.ns[name] = value
        if key is not None:
            self.consts[key] = name
        return name

    def add_fn(self, fn: Fn) -> None:
        self.out.extend(fn.lines())
        self.out.append(("", None))

    # ---- build ----
    def build(self) -> "Compiled":
        """The compiled game. Any failure (an IR too deep or too large for Python to compile, or an
        inconsistency check_ir cannot see, such as a field read of a number) is a RuleError."""
        try:
            return self._build()
        except RuleError:
            raise
        except (SyntaxError, RecursionError, MemoryError, OverflowError) as err:
            raise RuleError([Diagnostic("E301", f"{self.source}: the game is too large or too deeply nested "
                                                f"for the engine ({type(err).__name__}: {err})")]) from None
        except Exception as err:                  # an IR check_ir passed but the generator cannot use
            raise RuleError([Diagnostic("E301", f"{self.source}: not a usable compiled game "
                                                f"({type(err).__name__}: {err})")]) from None

    def _build(self) -> "Compiled":
        ir = self.ir
        ns = self.ns
        ns.update({
            "_items": as_items, "_eq": _eq, "_first": _first, "_last": _last, "_top": _top, "_bottom": _bottom,
            "_topn": _topn, "_bottomn": _bottomn, "_extreme": _extreme, "_div": _div, "_mod": _mod,
            "_key": _key, "_pick": _pick, "_subsets": _subsets, "_subset_limit": _subset_limit,
            "_range": _range, "_mul": _mul, "_grown": _grown, "_move": _move, "_move1": _move1,
            "_move_zone": _move_zone, "_zone": _zone, "_over": _over, "_over_any": _over_any, "_add": _add, "_add_batch": _add_batch, "_mkact": _mkact,
            "_fault": _fault, "_compress": compress, "_fill": _fill,
            "_plain": plain_text, "_ptext": player_text, "_reachable": reachable, "_ONCE": (None,),
            "_UNSET": NOCONST, "_FAULTS": (TypeError, ValueError, IndexError, KeyError, AttributeError,
                                           ZeroDivisionError, RecursionError, NameError, RuleRuntimeError),
            "LOOP_LIMIT": LOOP_LIMIT, "CALL_DEPTH_LIMIT": CALL_DEPTH_LIMIT, "_max": max, "_min": min,
        })
        g = self.geometry
        if g is not None:
            ns["G"] = g
        self.tables = {}
        for name, entries in ir["tables"].items():
            if all(v.get("k") == "lit" and not isinstance(v.get("v"), (list, dict)) for _, v in entries):
                t = Table()
                for k, v in entries:
                    t[tuple(k) if isinstance(k, list) else k] = v["v"]
                t.name = name
                self.tables[name] = (self.const(t, "T"), True)
            else:
                t = ExprTable()
                t.name = name
                tname = self.const(t, "T")
                for j, (k, v) in enumerate(entries):
                    fn = Fn(self, f"def tv{len(self.tables)}_{j}(m):")
                    fn.emit("return " + self.ex(v, Ctx(fn, fallback=False)).src)
                    self.add_fn(fn)
                    t[tuple(k) if isinstance(k, list) else k] = f"tv{len(self.tables)}_{j}"
                self.tables[name] = (tname, False)
        for name, d in ir["defs"].items():
            self.gen_def(name, d)
        for name, p in ir["procs"].items():
            self.gen_proc(name, p)
        for i, v in enumerate(ir["vars"]):
            fn = Fn(self, f"def vi{i}(m):")
            fn.emit("return " + self.ex(v["init"], Ctx(fn, fallback=False)).src)
            self.add_fn(fn)
        self.gen_block_fn("setup", ir["setup"], None)
        for s in ir["steps"]:
            for a in s["actions"]:
                self.gen_action_body(a)
        self.plan_actions()
        for si, s in enumerate(ir["steps"]):
            if s["actor"] is not None:
                fn = Fn(self, f"def st_actor{si}(m):", s.get("line"))
                fn.emit("return " + self.ex(s["actor"], Ctx(fn, fallback=False)).src)
                self.add_fn(fn)
            self.gen_block_fn(f"st_enter{si}", s["enter"], s.get("line"))
            self.gen_enumerator(si, s)
        for event, body in ir["handlers"].items():
            self.gen_block_fn(f"on_{event}", body, None)
        for i, c in enumerate(ir["checks"]):
            fn = Fn(self, f"def ck_when{i}(m):", c.get("line"))
            fn.emit("return " + self.ex(c["when"], Ctx(fn, fallback=False)).src)
            self.add_fn(fn)
            self.gen_block_fn(f"ck_body{i}", c["body"], c.get("line"))
        for i, x in enumerate(ir.get("scores", [])):
            fn = Fn(self, f"def score{i}(m):", None)
            fn.emit("return " + self.ex(x, Ctx(fn, fallback=False)).src)
            self.add_fn(fn)
        for i, x in enumerate(ir.get("limits", [])):
            fn = Fn(self, f"def lim_count{i}(m):", x.get("line"))
            fn.emit("return " + self.ex(x["count"], Ctx(fn, fallback=False)).src)
            self.add_fn(fn)
            self.gen_block_fn(f"lim_body{i}", x["body"], x.get("line"))
        shown = []
        for name, d in ir["defs"].items():
            if d["show"]:
                shown.append(name)
        # compile
        self.filename = f"<rulelang {self.source}>"
        self.out = self.memo_out + self.out
        source = "\n".join(text for text, _ in self.out) + "\n"
        self.line_map = [None] + [line for _, line in self.out]
        self.python = source
        exec(compile(source, self.filename, "exec"), ns)    # engine templates only; see module docstring
        for name, (tname, static) in self.tables.items():
            if not static:
                t = ns[tname]
                for k in list(t):
                    t[k] = ns[t[k]]
        return Compiled(self, shown)

    # ---- definitions ----
    def def_ctx(self, fn: Fn, params) -> Ctx:
        names = {}
        for j, p in enumerate(params or []):
            names[p] = Name(f"p{j}", 0, ANY)
        return Ctx(fn, names, fallback=False)

    def gen_def(self, name: str, d: dict) -> None:
        i = self.def_index[name]
        params = d["params"] or []
        ps = "".join(f", p{j}" for j in range(len(params)))
        inner = f"d{i}"
        if name in self.memo_defs:
            inner = f"d{i}_"
            cache = self.const({}, "C")
            self.memo_cache[f"d{i}"] = cache
            key = _memo_key([f"p{j}" for j in range(len(params))])
            fn = Fn(self, f"def d{i}(m{ps}):", d.get("line"))
            fn.emit("try:")
            fn.emit(f"    return {cache}[{key}]")
            fn.emit("except KeyError:")
            fn.emit("    pass")
            fn.emit("except TypeError:")
            fn.emit(f"    return {inner}(m{ps})")
            fn.emit(f"v = {inner}(m{ps})")
            fn.emit(f"if len({cache}) < {MEMO_LIMIT}: {cache}[{key}] = v")
            fn.emit("return v")
            self.add_fn(fn)
        fn = Fn(self, f"def {inner}(m{ps}):", d.get("line"))
        ctx = self.def_ctx(fn, params)
        ctx.depth = INLINE_DEPTH if ("d", name) in self.recursive else 0
        p = self.ex(d["body"], ctx)
        body = p.src
        if ("d", name) not in self.recursive:
            self.def_shape[name] = (p.shape, p.elem)      # what a call of it gives, for its callers
        if ("d", name) in self.recursive:
            self.emit_guarded(fn, name, [f"return {body}"])
        else:
            fn.emit(f"return {body}")
        self.add_fn(fn)

    def emit_guarded(self, fn: Fn, name: str, lines: list[str] | None = None, block=None, ctx=None) -> None:
        msg = _lit(f"`{name}` calls itself too deeply (limit {CALL_DEPTH_LIMIT})")
        fn.emit("m.depth += 1")
        fn.emit("try:")
        fn.indent += 1
        fn.emit(f"if m.depth > CALL_DEPTH_LIMIT: _fault({msg})")
        for x in lines or []:
            fn.emit(x)
        if block is not None:
            self.block(block, ctx)
        fn.indent -= 1
        fn.emit("finally:")
        fn.emit("    m.depth -= 1")

    def gen_proc(self, name: str, p: dict) -> None:
        i = self.proc_index[name]
        params = p["params"]
        fn = Fn(self, f"def pr{i}(m{''.join(f', p{j}' for j in range(len(params)))}):", p.get("line"))
        ctx = Ctx(fn)
        for j, pname in enumerate(params):
            fn.locals[pname] = f"p{j}"
        if ("p", name) in self.recursive:
            self.emit_guarded(fn, name, block=p["body"], ctx=ctx)
        else:
            self.block(p["body"], ctx)
        self.add_fn(fn)

    def gen_block_fn(self, pyname: str, stmts: list, line) -> None:
        fn = Fn(self, f"def {pyname}(m):", line)
        self.block(stmts, Ctx(fn))
        self.add_fn(fn)

    def gen_action_body(self, a: dict) -> None:
        ai = len(self.action_meta)
        self.action_index[id(a)] = ai
        names = [p["name"] for p in a["params"]]
        self.action_meta.append((a["name"], names))
        fn = Fn(self, f"def ac{ai}(m, args):", a.get("line"))
        ctx = Ctx(fn)
        # parameters the body never rebinds keep what is known of them (their shape, their size)
        assigned = {x["n"] if x["s"] == "let" else x["v"] if x["s"] == "for" else x["target"]["n"]
                    for x in _walk(a["body"]) if x.get("s") in ("let", "for")
                    or (x.get("s") == "set" and x["target"].get("k") == "local")}
        if names:
            pys = [fn.local(n) for n in names]
            fn.emit(f"{', '.join(pys)}{',' if len(pys) == 1 else ''} = args")
            for p, py in zip(a["params"], pys):
                shown = _shown_shape(p)
                if p["mode"] == "subset":
                    fn.emit(f"{py} = list({py})")
                    if p["name"] not in assigned:
                        ctx.names[p["name"]] = Name(py, 0, LIST)
                elif p["name"] not in assigned:
                    ctx.names[p["name"]] = Name(py, 0, shown)
                if p["name"] in ctx.names and p["mode"] == "subset" and shown == SCALAR:
                    ctx.names[p["name"]].elem = SCALAR
        self.block(a["body"], ctx)
        self.add_fn(fn)
        # a subset of known size: one body per size, the subset unrolled as in the enumeration
        for i, p in enumerate(a["params"]):
            if not _unrolls(p) or p["name"] in assigned:
                continue
            for k in range(max(1, p["min"]["v"]), p["max"]["v"] + 1):
                fn = Fn(self, f"def ac{ai}_{i}_{k}(m, args):", a.get("line"))
                ctx = Ctx(fn)
                targets = []
                for j, q in enumerate(a["params"]):
                    if j == i:
                        elems = [Name(f"e{n}", 0, _shown_shape(q)) for n in range(k)]
                        ctx.names[q["name"]] = Subset(elems)
                        targets.append("(" + "".join(x.src + ", " for x in elems) + ")")
                    else:
                        py = fn.local(q["name"])
                        targets.append(py)
                        if q["mode"] == "subset":
                            fn.emit(f"{py} = list({py})")
                fn.body.insert(0, ("    " + ", ".join(targets) + ("," if len(targets) == 1 else "") + " = args",
                                   fn.line))
                self.block(a["body"], ctx)
                self.add_fn(fn)
                self.body_variants[(ai, k)] = f"ac{ai}_{i}_{k}"
            break

    # ---- expressions ----
    def ex(self, e, ctx: Ctx) -> P:
        if e["k"] == "call" and not ctx.nomemo and self.static_walk(e):
            p = self.memo_expr(e, ctx)
            if p is not None:
                return p
        return self.EXPR_LOWERING[e["k"]](self, e, ctx)

    def static_walk(self, e) -> bool:
        """Reads no match state and walks the board (line, between, ...): worth memoising."""
        key = id(e)
        hit = self._static_walk.get(key)
        if hit is None:
            hit = self._static(e) and any(x.get("k") == "call" and x.get("f") in BOARD_WALKS for x in _walk(e))
            self._static_walk[key] = hit
            self._keep.append(e)
        return hit

    def memo_expr(self, e, ctx: Ctx) -> P | None:
        """A static board expression of some locals, as a call of a function memoising it per game."""
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
            fn.emit(f"    v = {cache}[{key}] = {body.src}")
            fn.emit("except TypeError:")
            fn.emit(f"    v = {body.src}")
            fn.emit("return v")
            self.memo_out.extend(fn.lines())
            self.memo_out.append(("", None))
            self.memo_shape[fname] = (body.shape, body.elem)
        lvl, _ = _join(*args)
        shape, elem = self.memo_shape[fname]
        return P(self.memo_call(fname, args), lvl, True, shape=shape, elem=elem)

    def lit(self, v) -> P:
        if isinstance(v, (list, dict)):
            return P(_lit(v), shape=LIST if isinstance(v, list) else ANY)
        return P(_lit(v), const=v, shape=SCALAR, cheap=True)

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
            return P(fn.use("me"), shape=SCALAR, cheap=True)
        if name == "current":
            return P(fn.use("cur"), shape=SCALAR, cheap=True)
        if name == "players":
            return P(fn.use("PL"), shape=LIST, cheap=True, elem=SCALAR)
        if name == "others":
            return P(f"{fn.use('OTH')}[{fn.use('me')}]", shape=LIST, cheap=True, elem=SCALAR)
        if name == "player_count":
            return P(fn.use("NP"), shape=SCALAR, cheap=True)
        if name == "turn_count":
            return P("m.turn_count", shape=SCALAR, cheap=True)
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
        i = self.ex(e["i"], ctx)
        lvl, pure = _join(i)
        return P(f"{base}[{i.src}]", lvl, pure, shape=shape, cheap=i.cheap)

    def x_zone(self, e, ctx):
        base = ctx.fn.use(f"Z{self.zone_slot[e['n']]}")
        if e.get("i") is None:
            return P(base, shape=LIST, cheap=True, elem=SCALAR)
        b = self.loop_var(e["i"], ctx, self.zone_decl[e["n"]]["per"])
        if b is not None:
            d = b.derived(base, ctx.fn)
            if d is not None:
                return P(d, b.level, shape=LIST, cheap=True, elem=SCALAR)
        i = self.ex(e["i"], ctx)
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
        if ("d", name) in self.recursive or ctx.depth >= INLINE_DEPTH or _size(d["body"]) > INLINE_SIZE \
                or name in self.memo_defs:
            return None
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
        return d["body"], ctx.child(names=names, fallback=False, depth=ctx.depth + 1)

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
        return P(self.memo_call(f"d{self.def_index[name]}", args), lvl, pure and name not in self.impure_defs,
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
                and all(b.ids == "cell" for b in binders):
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
        return f"({row}[{last}] if {row}[{last}] is not _UNSET else _fill({row}, {last}, {call}))"

    def x_un(self, e, ctx):
        x = self.ex(e["x"], ctx)
        if PY_UNARY[e["op"]] == "not":
            if _known(x):
                return self.lit(not x.const)
            return P(f"(not {x.t})", x.level, x.pure, shape=SCALAR)
        if _known(x) and type(x.const) is int:
            return self.lit(-x.const)
        return P(f"(-{x.src})", x.level, x.pure, shape=SCALAR)

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
            return P(f"{'_div' if op == '/' else '_mod'}({l.src}, {r.src})", lvl, pure, shape=SCALAR)
        if op == "*" and not (_known(l) and _known(r)):
            return P(f"_mul({l.src}, {r.src})", lvl, pure, shape=SCALAR)      # products grow fast: bounded
        if _known(l) and _known(r) and type(l.const) in (int, bool, str) and type(r.const) in (int, bool, str):
            try:
                value = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
                         "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
                         "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}[op](l.const, r.const)
                if isinstance(value, (bool, int)) and abs(value) < 2 ** 62 or isinstance(value, str) and len(value) < 256:
                    return self.lit(value)
            except TypeError:
                pass
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
                return P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR)
            src = f"_eq({l.src}, {r.src})"
            return P(src if op == "==" else f"(not {src})", lvl, pure, shape=SCALAR)
        return P(f"({l.src} {op} {r.src})", lvl, pure, shape=SCALAR if op in ("<", "<=", ">", ">=") else ANY)

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
        return P(f"({x.src} in {s.src})", lvl, pure, shape=SCALAR)

    def x_range(self, e, ctx):
        lo, hi = self.ex(e["lo"], ctx), self.ex(e["hi"], ctx)
        lvl, pure = _join(lo, hi)
        return P(f"_range({lo.src}, {hi.src})", lvl, pure, shape=LIST, elem=SCALAR)

    def x_if(self, e, ctx):
        c = self.ex(e["c"], ctx)
        if _known(c):
            return self.ex(e["t"] if c.const else e["e"], ctx)
        t, f = self.ex(e["t"], ctx), self.ex(e["e"], ctx)
        lvl, pure = _join(c, t, f)
        return P(f"({t.src} if {c.t} else {f.src})", lvl, pure, shape=t.shape if t.shape == f.shape else ANY)

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
            key = k.src if k.shape == SCALAR else f"_key({k.src})"
            if _known(k) and static and k.const in self.ns[tname]:
                return self.lit(self.ns[tname][k.const])
        if static:
            return P(f"{tname}[{key}]", lvl, pure)
        return P(f"{tname}[{key}](m)", lvl, False)

    def x_list(self, e, ctx):
        items = [self.ex(x, ctx) for x in e["items"]]
        lvl, pure = _join(*items)
        return P("[" + ", ".join(x.src for x in items) + "]", lvl, pure, shape=LIST,
                 elem=SCALAR if all(x.shape == SCALAR for x in items) else ANY)

    def comp_parts(self, e, ctx: Ctx):
        """(var, iterable P, inner ctx) of a comprehension."""
        it = self.seq(e["in"], ctx)
        var = ctx.fn.new("q")
        inner = ctx.child(in_comp=True)
        inner.names[e["v"]] = Name(var, 0, it.elem)
        return var, it, inner

    def x_comp(self, e, ctx, opener="[", closer="]"):
        var, it, inner = self.comp_parts(e, ctx)
        where = e.get("where")
        const = self.ns.get(it.src)
        if where is not None and isinstance(const, list):
            it, where = self.pushdown(e, it, where, ctx)
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
                    it = P(f"_compress({it.src}, {cs[0].nonempty[0]})", it.level, True, shape=LIST, elem=SCALAR)
                    w = P("(" + " and ".join(c.t for c in cs[1:]) + ")" if cs[1:] else "True",
                          *_join(*cs[1:]))
            parts.append(w)
            if w.src != "True":
                cond = f" if {w.t}"
        lvl, pure = _join(*parts)
        return P(f"{opener}{x.src} for {var} in {it.src}{cond}{closer}", lvl, pure, shape=LIST,
                 elem=SCALAR if x.shape == SCALAR else ANY)

    def pushdown(self, e, it: P, where, ctx: Ctx):
        """`[x for c in CONSTANT_LIST where c.row == E and ...]` iterates only the cells whose row is
        E: a conjunct comparing a cell field of the variable with a value that does not depend on
        it selects from a precomputed index (same order as the list)."""
        g = self.geometry
        conj = []

        def flat(w):
            if w["k"] == "bin" and w["op"] == "and":
                flat(w["l"])
                flat(w["r"])
            else:
                conj.append(w)
        flat(where)
        var = e["v"]
        for n, c in enumerate(conj):
            if not (c["k"] == "bin" and c["op"] == "=="):
                continue
            for side, other in ((c["l"], c["r"]), (c["r"], c["l"])):
                if not (side["k"] == "cellattr" and side["x"] == {"k": "local", "n": var}) or g is None:
                    continue
                if any(x.get("k") == "local" and x.get("n") == var for x in _walk(other)):
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
                return P(f"{name}.get({value.src}, ())", value.level, True, shape=LIST, elem=SCALAR), rebuilt
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
        return P(self.text_src(how, x.src, ctx.fn), x.level, x.pure, shape=SCALAR)

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
                size = P(f"len({p.src})", p.level, p.pure, shape=SCALAR, lenof=p.src if p.shape == LIST else None)
                size.family = p.family
                return size
            return P(f"{f}({p.src})", p.level, p.pure, shape=SCALAR if f != "sum" else ANY)
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
            if len(ps) == 1:
                return P(f"_extreme(_{f}, {s[0]}, {_lit(f)})", lvl, pure)
            return P(f"_{f}({', '.join(s)})", lvl, pure)
        if f in ("top", "bottom"):
            return P(f"_{f}n({s[0]}, {s[1]})", lvl, pure, shape=LIST)
        if f == "distinct":
            return P(f"list(dict.fromkeys(_items({s[0]})))", lvl, pure, shape=LIST)
        if f == "next":
            return P(f"(({s[0]}) + 1) % {ctx.fn.use('NP')}", lvl, pure, shape=SCALAR)
        if f == "abs":
            return P(f"abs({s[0]})", lvl, pure, shape=SCALAR)
        if f == "roll":
            return P(f"m.rng.randint(1, {s[0]})", lvl, False, shape=SCALAR)
        if f == "pick":
            return P(f"_pick(m.rng, {s[0]})", lvl, False)
        if f == "contains":
            return P(f"({s[1]} in _items({s[0]}))", lvl, pure, shape=SCALAR)
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
            return P(self.const(list(g.directions), "G", ("directions",)), lvl, pure, shape=LIST, cheap=True,
                     elem=SCALAR)
        if f == "cell":
            return P(f"G.named({s[1]})", lvl, pure, shape=SCALAR)
        if f == "neighbours":
            if len(ps) == 1:
                table = [g.neighbours_of(c) for c in range(g.size)]
                return P(f"{self.const(table, 'G', ('nb', None))}[{s[0]}]", lvl, pure, shape=LIST,
                         cheap=ps[0].cheap, elem=SCALAR)
            if _known(ps[1]):
                table = g.neighbours.get(ps[1].const)
                if table is None:
                    return P(f"({s[0]}, [])[1]", lvl, pure, shape=LIST)
                return P(f"{self.const(table, 'G', ('nb', ps[1].const))}[{s[0]}]", lvl, pure, shape=LIST,
                         cheap=ps[0].cheap, elem=SCALAR)
            return P(f"G.neighbours_of({s[0]}, {s[1]})", lvl, pure, shape=LIST, elem=SCALAR)
        if f == "step":
            return P(f"G.step({s[0]}, {s[1]})", lvl, pure)
        if f == "line":
            return P(f"G.line_of({s[0]}, {s[1]}, {s[2]})", lvl, pure, shape=LIST, elem=SCALAR)
        if f == "between":
            return P(f"G.between_of({s[0]}, {s[1]})", lvl, pure, shape=LIST, elem=SCALAR)
        if f == "direction":
            return P(f"G.direction({s[0]}, {s[1]})", lvl, pure)
        if f == "distance":
            return P(f"G.distance({s[0]}, {s[1]})", lvl, pure, shape=SCALAR)
        if f == "reachable":
            name = args[2]["v"]
            d = self.def_index[name]
            return P(f"_reachable(G, {s[0]}, {s[1]}, lambda c: d{d}(m, c))", lvl,
                     pure and name not in self.impure_defs, shape=LIST, elem=SCALAR)
        raise AssertionError(f"unknown builtin {f}")

    # ---- statements ----
    def block(self, stmts, ctx: Ctx) -> None:
        for s in stmts:
            self.stmt(s, ctx)

    def stmt(self, s, ctx: Ctx) -> None:
        fn = ctx.fn
        saved = fn.line
        if s.get("line") is not None:
            fn.line = s["line"]
        self.STMT_LOWERING[s["s"]](self, s, ctx)
        fn.line = saved

    def sub_block(self, stmts, ctx: Ctx) -> None:
        fn = ctx.fn
        fn.indent += 1
        n = len(fn.body)
        self.block(stmts, ctx)
        if len(fn.body) == n:
            fn.emit("pass")
        fn.indent -= 1

    def target(self, e, ctx: Ctx) -> str:
        """Source of a move/shuffle destination; checked to be a zone unless it is one statically."""
        return self.target_p(e, ctx).src

    def target_p(self, e, ctx: Ctx) -> P:
        p = self.ex(e, ctx)
        if e["k"] == "zone":
            return p
        return P(f"_zone(m, {p.src})", p.level, p.pure)

    def needs_check(self, dest_e) -> bool:
        """Does adding to this destination need a capacity check after it?"""
        if dest_e["k"] != "zone":
            return self.has_capacity
        return self.zone_decl[dest_e["n"]]["capacity"] is not None

    def s_move(self, s, ctx):
        fn = ctx.fn
        what = self.ex(s["what"], ctx)
        dest_e = s["to"]
        destp = self.target_p(dest_e, ctx)
        dest = destp.src
        bottom = s["pos"] == "bottom"
        static = dest_e["k"] == "zone"
        cap = static and self.zone_decl[dest_e["n"]]["capacity"] is not None
        once = destp.cheap and destp.pure            # may be read twice
        if not once and self.needs_check(dest_e):
            # the move, then the capacity check: evaluate each side once, in the rules' order
            if not (what.cheap and what.pure):
                t = fn.new("t")
                fn.emit(f"{t} = {what.src}")
                what = P(t, what.level, True, shape=what.shape, cheap=True)
            t = fn.new("t")
            fn.emit(f"{t} = {dest}")
            dest, once = t, True
        if static and not bottom and not cap:
            wk = s["what"]["k"]
            w = s["what"]
            if wk == "call" and w["f"] in ("top", "bottom") and len(w["a"]) == 1 and w["a"][0]["k"] == "zone" \
                    and once:
                # move top(ZONE) to ZONE2: pop it off, push it on
                src = self.ex(w["a"][0], ctx)
                if src.cheap and src.pure:
                    c = fn.new("t")
                    fn.emit(f"if {src.src}:")
                    fn.emit(f"    {c} = {src.src}.pop({'' if w['f'] == 'top' else '0'})")
                    fn.emit(f"    {dest}.append({c})")
                    fn.emit(f"    {fn.use('W')}[{c}] = {dest}")
                    return
            if wk == "zone":
                fn.emit(f"_move_zone(m, {what.src}, {dest})")
                return
            if (wk == "call" and s["what"]["f"] in ("top", "bottom") and len(s["what"]["a"]) == 1) \
                    or what.shape == SCALAR:
                fn.emit(f"_move1(m, {what.src}, {dest})")      # one component (or none)
                return
        fn.emit(f"_move(m, {what.src}, {dest}, {bottom})")
        self.capacity_check(dest_e, dest, fn)

    def capacity_check(self, dest_e, dest: str, fn: Fn) -> None:
        """After a move or create onto `dest`: the zone's capacity, if it has one."""
        if dest_e["k"] != "zone":
            if self.has_capacity:
                fn.emit(f"_over_any(m, {dest})")
            return
        decl = self.zone_decl[dest_e["n"]]
        if decl["capacity"] is not None:
            fn.emit(f"_over({dest}, {_lit(decl['capacity'])}, {_lit(decl['name'])})")

    def s_shuffle(self, s, ctx):
        ctx.fn.emit(f"m.rng.shuffle({self.target(s['zone'], ctx)})")

    def s_set(self, s, ctx):
        fn = ctx.fn
        t, op = s["target"], s["op"]
        v = self.ex(s["v"], ctx)
        sign = PY_ASSIGN[op]
        bounded = bool(sign) or _arith(s["v"])       # arithmetic in a loop could grow without bound

        def value(old: str) -> str:
            src = f"{old} {sign} ({v.src})" if sign else v.src
            return f"_grown({src})" if bounded else src
        if t["k"] == "local":
            name = self.local_target(t["n"], ctx)
            fn.emit(f"{name} = {value(name)}")
            return
        slot = self.var_slot[t["n"]]
        base = fn.use(f"V{slot}") if t["n"] in self.stable_vars and t.get("i") is not None else f"{fn.use('V')}[{slot}]"
        if t.get("i") is None:
            fn.emit(f"{base} = {value(base)}")
            return
        i = self.ex(t["i"], ctx)
        if i.cheap and i.pure and v.pure:
            # nothing here can change what the others read: no temporaries needed for the order
            fn.emit(f"{base}[{i.src}] = {value(f'{base}[{i.src}]')}")
            return
        row, k = fn.new("t"), fn.new("t")
        fn.emit(f"{row} = {base}")
        fn.emit(f"{k} = {i.src}")
        fn.emit(f"{row}[{k}] = {value(f'{row}[{k}]')}")

    def local_target(self, name: str, ctx: Ctx) -> str:
        b = ctx.names.get(name)
        if isinstance(b, Name):
            return b.src
        return ctx.fn.local(name)

    def s_let(self, s, ctx):
        v = self.ex(s["v"], ctx)
        src = f"_grown({v.src})" if _arith(s["v"]) else v.src
        ctx.fn.emit(f"{self.local_target(s['n'], ctx)} = {src}")

    def s_if(self, s, ctx):
        fn = ctx.fn
        c = self.ex(s["c"], ctx)
        fn.emit(f"if {c.t}:")
        self.sub_block(s["then"], ctx)
        if s["else"]:
            fn.emit("else:")
            self.sub_block(s["else"], ctx)

    def s_for(self, s, ctx):
        fn = ctx.fn
        if self.try_batch(s, ctx):
            return
        it = self.seq(s["in"], ctx)
        fresh = s["in"]["k"] in ("comp", "list", "range") or (s["in"]["k"] == "builtin")
        src = it.src if fresh else f"list({it.src})"
        fn.emit(f"for {self.local_target(s['v'], ctx)} in {src}:")
        self.sub_block(s["body"], ctx)

    def s_while(self, s, ctx):
        fn = ctx.fn
        n = fn.new("t")
        c = self.ex(s["c"], ctx)
        msg = _lit(f"`while` ran {LOOP_LIMIT} times without ending (loop limit)")
        fn.emit(f"{n} = 0")
        fn.emit(f"while {c.t}:")
        fn.indent += 1
        fn.emit(f"{n} += 1")
        fn.emit(f"if {n} > LOOP_LIMIT: _fault({msg})")
        self.block(s["body"], ctx)
        fn.indent -= 1

    def s_repeat(self, s, ctx):
        fn = ctx.fn
        if self.try_batch(s, ctx):
            return
        k = fn.new("t")
        count = self.ex(s["n"], ctx)
        fn.emit(f"{k} = {count.src}")
        fn.emit(f"if {k} > LOOP_LIMIT: _fault('`repeat ' + str({k}) + '` is over the loop limit {LOOP_LIMIT}')")
        fn.emit(f"for _ in range({k}):")
        self.sub_block(s["body"], ctx)

    def s_goto(self, s, ctx):
        ctx.fn.emit(f"return ('goto', {_lit(s['step'])})")

    def s_end_turn(self, s, ctx):
        if s.get("to") is None:
            ctx.fn.emit("return ('end_turn', None)")
        else:
            ctx.fn.emit(f"return ('end_turn', {self.ex(s['to'], ctx).src})")

    def s_finish(self, s, ctx):
        who = self.ex(s["who"], ctx).src if s.get("who") is not None else "None"
        ctx.fn.emit(f"m.finish({_lit(s['result'])}, {who})")
        ctx.fn.emit("return ('finish',)")

    def s_call(self, s, ctx):
        fn = ctx.fn
        args = [self.ex(a, ctx) for a in s["a"]]
        call = f"pr{self.proc_index[s['proc']]}(m{''.join(', ' + a.src for a in args)})"
        if s["proc"] in self.signalling:
            r = fn.new("t")
            fn.emit(f"{r} = {call}")
            if s["proc"] in self.creating:
                fn.emit(REBIND)
            fn.emit(f"if {r} is not None: return {r}")
        else:
            fn.emit(call)
            if s["proc"] in self.creating:
                fn.emit(REBIND)

    def s_create(self, s, ctx):
        fn = ctx.fn
        kind = s["kind"]
        given = list(s["fields"].items())
        vals = [self.ex(v, ctx) for _, v in given]
        maker = self.gen_maker(kind, [k for k, _ in given])
        if fn.batch:
            to = s["to"]
            idx = self.ex(to["i"], ctx).src if to.get("i") is not None else "None"
            fn.emit(f"out.append(({_lit(kind)}, {maker}(m{''.join(', ' + v.src for v in vals)}), "
                    f"{self.zone_slot[to['n']]}, {idx}, {s['pos'] == 'bottom'}))")
            return
        destp = self.target_p(s["to"], ctx)
        made = f"{maker}(m{''.join(', ' + v.src for v in vals)})"
        dest = destp.src
        if not (destp.cheap and destp.pure) and self.needs_check(s["to"]):
            t, d = fn.new("t"), fn.new("t")
            fn.emit(f"{t} = {made}")
            fn.emit(f"{d} = {dest}")
            made, dest = t, d
        fn.emit(f"_add(m, {_lit(kind)}, {made}, {dest}, {s['pos'] == 'bottom'})")
        self.capacity_check(s["to"], dest, fn)
        fn.emit(REBIND)

    def gen_maker(self, kind: str, given: list[str]) -> str:
        """A function computing a new component's column row and label from its given fields."""
        spec = self.ir["kinds"][kind]
        i = self.makers
        self.makers += 1
        fn = Fn(self, f"def mk{i}(m{''.join(f', g{j}' for j in range(len(given)))}):")
        names = {}
        for j, k in enumerate(given):
            names[k] = Name(f"g{j}", 0, ANY)
        exprs = [f["default"] for f in spec["fields"] if f["name"] not in given and f["default"] is not None]
        if spec["label"] is not None:
            exprs.append(spec["label"])
        cacheable = spec["label"] is not None and all(self.static_expr(x) for x in exprs)
        cache = self.const({}, "C")
        if cacheable:
            key = "(" + "".join(f"g{j}, " for j in range(len(given))) + ")"
            fn.emit("try:")
            fn.emit(f"    hit = {cache}.get({key})")
            fn.emit("except TypeError:")
            fn.emit("    hit = None")
            fn.emit("if hit is not None: return hit")
        ctx = Ctx(fn, names, fallback=False)
        for f in spec["fields"]:
            if f["name"] in given:
                continue
            py = f"f{self.column[f['name']]}"
            if f["default"] is None:
                fn.emit(f"{py} = None")
            else:
                fn.emit(f"{py} = {self.ex(f['default'], ctx).src}")
            ctx.names[f["name"]] = Name(py, 0, ANY)
        row = []
        for col in self.columns:
            b = ctx.names.get(col) if any(col == n for n, _ in self.kind_fields[kind]) else None
            row.append(b.src if b is not None else "None")
        label = f"_plain({self.ex(spec['label'], ctx).src})" if spec["label"] is not None else "None"
        fn.emit("hit = ((" + "".join(r + ", " for r in row) + f"), {label})")
        if cacheable:
            fn.emit("try:")
            fn.emit(f"    {cache}[{key}] = hit")
            fn.emit("except TypeError:")
            fn.emit("    pass")
        fn.emit("return hit")
        self.add_fn(fn)
        return f"mk{i}"

    def static_expr(self, e) -> bool:
        """Depends on its locals and constants only (so a component's label can be cached)."""
        for x in _walk(e):
            k = x.get("k")
            if k in ("var", "zone", "builtin", "option", "def") or (k == "call" and x["f"] not in (
                    "size", "count", "sum", "any", "all", "max", "min", "first", "last", "distinct", "abs",
                    "contains")):
                return False
            if k == "table" and not self.tables[x["n"]][1]:
                return False
            if k == "text" and "comp" in x["as"]:
                return False
        return True

    # ---- creation in bulk ----
    def batchable(self, s, bound: frozenset = frozenset()) -> bool:
        """A `for`/`repeat` over constants whose body only creates components with constant fields in
        fixed zones: its result depends on the player count and options only, so it is computed once
        and then added in bulk."""
        k = s["s"]
        if k == "create":
            spec = self.ir["kinds"][s["kind"]]
            exprs = [f["default"] for f in spec["fields"] if f["name"] not in s["fields"] and f["default"] is not None]
            if spec["label"] is None or not all(self.static_expr(x) for x in exprs + [spec["label"]]):
                return False
            to = s["to"]
            return (to["k"] == "zone" and all(self.batch_static(v, bound) for v in s["fields"].values())
                    and (to.get("i") is None or self.batch_static(to["i"], bound)))
        if k == "for":
            return self.batch_static(s["in"], bound) and all(self.batchable(x, bound | {s["v"]}) for x in s["body"])
        if k == "repeat":
            return self.batch_static(s["n"], bound) and all(self.batchable(x, bound) for x in s["body"])
        return False

    def batch_static(self, e, bound: frozenset) -> bool:
        for x in _walk(e):
            k = x.get("k")
            if k in ("var", "zone", "def", "attr", "cellattr", "comp") or (
                    k == "builtin" and x["n"] not in ("players", "player_count")):
                return False
            if k == "local" and x["n"] not in bound:
                if self.batch_free is None:
                    return False
                if x["n"] not in self.batch_free:
                    self.batch_free.append(x["n"])   # an outer local: part of the batch's key
            if k == "call" and x["f"] not in ("size", "count", "sum", "max", "min", "first", "last", "abs"):
                return False
            if k == "table" and not self.tables[x["n"]][1]:
                return False
            if k == "text" and "comp" in x["as"]:
                return False
        return True

    def try_batch(self, s, ctx: Ctx) -> bool:
        """Emit `_add_batch` for a batchable statement, and the function that builds its batch.
        Outer locals it reads become parameters of that function and part of the batch's key."""
        if ctx.fn.batch:
            return False
        self.batch_free = []
        try:
            if not self.batchable(s):
                return False
            free = self.batch_free
        finally:
            self.batch_free = None
        args = []
        for name in free:
            b = ctx.names.get(name)
            if b is not None and not isinstance(b, Name):
                return False
            args.append(b.src if b is not None else ctx.fn.local(name))
        i = len(self.batches)
        self.batches.append(s)
        fn = Fn(self, f"def bt{i}(m{''.join(f', p{j}' for j in range(len(free)))}):", s.get("line"))
        fn.batch = True
        fn.emit("out = []")
        self.stmt(s, Ctx(fn, {name: Name(f"p{j}", 0, ANY) for j, name in enumerate(free)}))
        fn.emit("return out")
        self.add_fn(fn)
        key = "(" + "".join(a + ", " for a in args) + ")"
        ctx.fn.emit(f"_add_batch(m, {self.const({}, 'C')}, bt{i}, {key})")
        ctx.fn.emit(REBIND)
        return True

    def s_log(self, s, ctx):
        ctx.fn.emit(f"m.messages.append({self.ex(s['v'], ctx).src})")

    # ---- legal actions ----
    def conjuncts(self, e, ctx: Ctx) -> list[P]:
        """The `and`-conjuncts of a require, through inlined defs and unrolled `all`."""
        if e is None:
            return []
        k = e["k"]
        if k == "bin" and e["op"] == "and":
            left = self.conjuncts(e["l"], ctx)
            if any(_known(p) and not p.const for p in left):
                return left
            return left + self.conjuncts(e["r"], ctx)
        if k == "bin" and e["op"] == "or":
            left = self.ex(e["l"], ctx)
            if _known(left):
                return [] if left.const else self.conjuncts(e["r"], ctx)
        if k == "if":
            c = self.ex(e["c"], ctx)
            if _known(c):
                return self.conjuncts(e["t"] if c.const else e["e"], ctx)
        if k == "def":
            inl = self.inline(e["n"], e["a"], ctx)
            if inl is not None and e["n"] not in self.impure_defs:
                return self.conjuncts(inl[0], inl[1])
        if k == "call" and e["f"] == "all" and e["a"][0]["k"] == "comp":
            parts = self.unrolled(e["a"][0], ctx)
            if parts is not None and all(x.pure and (w is None or w.pure) for x, w in parts):
                out = []
                for x, w in parts:
                    out.append(x if w is None else P(f"(not {w.t} or {x.t})", *_join(x, w)))
                return out
        # `all(...)`, `any(...)` and their negations over a comprehension: tested by a plain loop in
        # the enumerator (no list, no function call per test); `not all(x)` is `any(not x)`
        negated = k == "un" and e["op"] == "not"
        q = e["x"] if negated else e
        if q["k"] == "call" and q["f"] in ("all", "any") and q["a"][0]["k"] == "comp" and not ctx.in_comp \
                and self.unrolled(q["a"][0], ctx) is None:
            p = self.ex(e, ctx)
            if p.pure and not _known(p):
                c = q["a"][0]
                it = self.seq(c["in"], ctx)
                var = ctx.fn.new("q")
                inner = ctx.child()
                inner.names[c["v"]] = Name(var, 0, it.elem)
                x = self.ex(c["x"], inner)
                w = self.ex(c["where"], inner) if c.get("where") is not None else None
                kind = q["f"] if not negated else {"all": "any", "any": "all"}[q["f"]]
                test = x.t if not negated else f"(not {x.t})"
                p.loop = (kind, var, it.src, test, w.t if w is not None else None)
                return [p]
        p = self.ex(e, ctx)
        if _known(p) and p.const:
            return []
        return [p]

    def gen_enumerator(self, si: int, step: dict) -> None:
        fn = Fn(self, f"def st_enum{si}(m):", step.get("line"))
        fn.emit("out = {}")
        fn.emit("IU = m.intern")
        ctx = Ctx(fn, memo={})
        for a in step["actions"]:
            fn.line = a.get("line")
            self.gen_action_enum(a, ctx)
        fn.emit("return out")
        # memo locals start unset
        memo_inits = [(f"    {name} = _UNSET", step.get("line")) for name in ctx.memo.values()]
        self.add_fn_with_prelude(fn, memo_inits)

    def add_fn_with_prelude(self, fn: Fn, prelude) -> None:
        lines = fn.lines()
        self.out.extend(lines[:1] + prelude + lines[1:])
        self.out.append(("", None))

    def gen_action_enum(self, a: dict, ctx: Ctx) -> None:
        """Nested loops over the parameters of one action, adding its legal bindings to `out`."""
        fn = ctx.fn
        tab = fn.new("I")
        fn.emit(f"{tab} = IU[{self.action_index[id(a)]}]")
        fn.emit("for _ in _ONCE:")
        fn.indent += 1
        unroll = [_unrolls(p) for p in a["params"]]
        only = a["params"][0]["name"] if len(a["params"]) == 1 else None
        cache = only is not None and a.get("require") is not None and self.element_static(a["require"], {only})
        self.enum_state = {"a": a, "tab": tab, "unroll": unroll, "combo": {}, "ktab": {}, "kcache": cache}
        self.enum_param(0, ctx.child(), 0, 0)
        fn.indent -= 1

    def enum_param(self, i: int, ctx: Ctx, level: int, floor: int) -> None:
        """Loops for params[i:]. Conjuncts are placed only below the last unrolled subset's branch
        point, where every loop belongs to one size choice."""
        st = self.enum_state
        fn, params, unroll = ctx.fn, st["a"]["params"], st["unroll"]
        later = [j for j in range(i, len(params)) if unroll[j]]
        if not later:
            self.enum_rest(i, ctx, level, floor, None)
            return
        p = params[i]
        if not unroll[i]:
            self.emit_binder(p, ctx, level + 1)
            self.enum_param(i + 1, ctx, level + 1, floor)
            fn.indent -= 1
            return
        items, n = self.emit_items(p, ctx)
        fn.emit(f"_subset_limit({n}, {_lit(p['min']['v'])}, {_lit(p['max']['v'])})")
        for k in range(max(0, p["min"]["v"]), p["max"]["v"] + 1):
            fn.emit("for _ in _ONCE:")
            fn.indent += 1
            elems = [(fn.new("i"), fn.new("a")) for _ in range(k)]
            sub = ctx.child()
            ids = self.ids_of(p["domain"])
            names = [Name(el, level + 1 + j, _shown_shape(p), ids, binder=True) for j, (_, el) in enumerate(elems)]
            sub.names[p["name"]] = Subset(names)
            if 1 <= k <= 2 and len(st["a"]["params"]) == 1 and ids == "comp" and p.get("show") == "comp":
                # a lone small subset of components: its actions interned in nested lists by id
                tab = fn.new("I")
                fn.emit(f"{tab} = IU[{len(self.intern_dims)}]")
                self.intern_dims.append(["comp"] * k)
                st["ktab"][k] = tab
                if st["kcache"]:
                    for x in names:                # their fields are read only on a cache miss
                        x.derive = None
                if k == 2:
                    names[0].row(tab)              # the row of the pair table, read once per first element
            pending = {"items": items, "n": n, "elems": elems, "k": k, "names": names}
            if len(later) == 1:
                self.enum_rest(i + 1, sub, level + k, level, pending)
            else:
                self.emit_elements(pending, fn, None)
                self.enum_param(i + 1, sub, level + k, floor)
                fn.indent -= k
            fn.indent -= 1

    def emit_elements(self, pending: dict, fn: Fn, checks) -> None:
        """The k index loops of an unrolled subset (i0 < i1 < ...), with checks after each."""
        elems, k = pending["elems"], pending["k"]
        for j, (ix, el) in enumerate(elems):
            if j == k - 1:                         # the last element: no deeper loop needs its index
                fn.emit(f"for {el} in {pending['items']}{'' if j == 0 else f'[{elems[j - 1][0]} + 1:]'}:")
                fn.indent += 1
            else:
                start = "0" if j == 0 else f"{elems[j - 1][0]} + 1"
                fn.emit(f"for {ix} in range({start}, {pending['n']} - {k - 1 - j}):")
                fn.indent += 1
                fn.emit(f"{el} = {pending['items']}[{ix}]")
            pending["names"][j].emit_derived(fn)
            if checks is not None:
                checks(j)

    def emit_items(self, p, ctx: Ctx) -> tuple[str, str]:
        fn = ctx.fn
        d = self.domain(p, ctx)
        items, n = fn.new("it"), fn.new("n")
        fn.emit(f"{items} = {d.src if d.shape == LIST else 'list(' + d.src + ')'}")
        fn.emit(f"{n} = len({items})")
        return items, n

    def domain(self, p, ctx: Ctx) -> P:
        """A parameter's domain as a sequence; pure parameter-free domains are computed once per pass."""
        d = self.seq(p["domain"], ctx)
        if d.level == 0 and d.pure and not d.cheap and ctx.memo is not None and not ctx.in_comp:
            key = _ir_key(p["domain"])      # level 0: reads no parameter, only state
            name = ctx.memo.get(key)
            if name is None:
                name = ctx.memo[key] = ctx.fn.new("dm")
            ctx.fn.emit(f"if {name} is _UNSET: {name} = {d.src}")
            return P(name, 0, True, shape=LIST, cheap=True)
        return d

    def plan_binder(self, p, ctx: Ctx, level: int) -> None:
        """Bind a param's name (mode one, or a subset of unknown size as one list) at `level`."""
        var = ctx.fn.new("b")
        if p["mode"] == "one":
            ctx.names[p["name"]] = Name(var, level, _shown_shape(p), self.ids_of(p["domain"]), binder=True)
        else:
            ctx.names[p["name"]] = Name(f"list({var})", level, LIST)
            self.enum_state["combo"][p["name"]] = var

    def emit_binder(self, p, ctx: Ctx, level: int) -> None:
        """The loop over one param's domain; its name must be planned already (or is planned here)."""
        fn = ctx.fn
        if p["name"] not in ctx.names:
            self.plan_binder(p, ctx, level)
        b = ctx.names[p["name"]]
        d = self.domain(p, ctx)
        if p["mode"] == "one":
            fn.emit(f"for {b.src} in {d.src}:")
            fn.indent += 1
            b.emit_derived(fn)
            return
        else:
            var = self.enum_state["combo"][p["name"]]
            items = fn.new("it")
            fn.emit(f"{items} = list({d.src})")
            lo = self.ex(p["min"], ctx).src if p.get("min") is not None else "1"
            hi = self.ex(p["max"], ctx).src if p.get("max") is not None else f"len({items})"
            fn.emit(f"for {var} in _subsets({items}, {lo}, {hi}):")
        fn.indent += 1

    def enum_rest(self, i: int, ctx: Ctx, level: int, floor: int, pending) -> None:
        """Params[i:] (none an unrolled subset) and the pending subset's element loops: place each
        conjunct of the require at the shallowest level (>= floor) where its names are bound, in
        order, then emit the loops, the checks and the leaf."""
        st = self.enum_state
        a, fn = st["a"], ctx.fn
        params = a["params"]
        rest = params[i:]
        for j, p in enumerate(rest):
            self.plan_binder(p, ctx, level + 1 + j)
        leaf = level + len(rest)
        domains_pure = all(self.seq(p["domain"], ctx).pure for p in params)
        placed: dict[int, list[P]] = {}
        last = floor
        hoisted = False
        for c in self.conjuncts(a.get("require"), ctx):
            if not c.pure or not domains_pure:
                last = leaf
            last = max(c.level, last)
            placed.setdefault(last, []).append(c)
            hoisted = hoisted or last < leaf
        dead = [l for l, cs in placed.items() for c in cs if _known(c) and not c.const]
        if dead and all(c.pure for l, cs in placed.items() if l <= min(dead) for c in cs):
            fn.emit("pass")                # a conjunct is constant false here: nothing is legal
            return
        dims = self.intern_dims[self.action_index[id(a)]]
        if dims is not None and len(params) >= 2 and i == 0:
            first = ctx.names[params[0]["name"]]
            if isinstance(first, Name) and not first.frozen:
                first.row(st["tab"])           # the row of the action's intern table, once per value
        dfr = full = None
        if hoisted:
            dfr = fn.new("dfr")
            fn.emit(f"{dfr} = False")
            full = self.ex(a["require"], ctx)
        depth = 0
        # a lone small subset whose require reads only its components' fields: the verdict on each
        # combination is kept with its interned action (False: not legal), per universe
        cached = pending is not None and not rest and pending["k"] in st["ktab"] and st["kcache"]
        skip = leaf if cached else None
        self.emit_checks(placed.get(floor, []) if floor != skip else [], dfr, leaf, floor, fn)
        if pending is not None:
            self.emit_elements(pending, fn, lambda j: self.emit_checks(
                placed.get(floor + 1 + j, []) if floor + 1 + j != skip else [], dfr, leaf, floor + 1 + j, fn))
            depth += pending["k"]
        for j, p in enumerate(rest):
            self.emit_binder(p, ctx, level + 1 + j)
            depth += 1
            self.emit_checks(placed.get(level + 1 + j, []), dfr, leaf, level + 1 + j, fn)
        if cached:
            cs = placed.get(leaf, [])
            cond = " and ".join(f"({x.t})" for x in cs) or "True"
            if dfr is not None:
                cond = f"({full.t} if {dfr} else ({cond}))"
            self.emit_leaf(a, ctx, fn, verdict=cond)
        else:
            if dfr is not None:
                fn.emit(f"if {dfr} and not {full.t}: continue")
            self.emit_leaf(a, ctx, fn)
        fn.indent -= depth

    def emit_checks(self, cs: list[P], dfr, leaf: int, level: int, fn: Fn) -> None:
        """Each conjunct placed at this level: `continue` (prune) when false. A hoisted one (above
        the leaf) that raises sets the deferral flag instead, and stops pruning."""
        for c in cs:
            hoisted = not (level >= leaf or dfr is None)
            if hoisted:
                fn.emit(f"if not {dfr}:")
                fn.indent += 1
                fn.emit("try:")
                fn.indent += 1
            if c.loop is None:
                fn.emit(f"if not {c.t}: continue")
            else:
                kind, var, it, x, w = c.loop
                ok = fn.new("ok")
                fn.emit(f"{ok} = {kind == 'all'}")
                fn.emit(f"for {var} in {it}:")
                test = x if kind == "any" else f"not {x}"
                fn.emit(f"    if {test if w is None else f'{w} and {test}'}:")
                fn.emit(f"        {ok} = {kind != 'all'}")
                fn.emit("        break")
                fn.emit(f"if not {ok}: continue")
            if hoisted:
                fn.indent -= 1
                fn.emit("except _FAULTS:")
                fn.emit(f"    {dfr} = True")
                fn.indent -= 1

    def emit_leaf(self, a: dict, ctx: Ctx, fn: Fn, verdict: str | None = None) -> None:
        """Intern the action for this binding (its text is built once per universe) and add it to
        `out` (keyed by text; the first binding of a text wins, as in the rules' order)."""
        st = self.enum_state
        tab = st["tab"]
        ai = self.action_index[id(a)]
        args, texts = [], []
        hashable = True
        for p in a["params"]:
            b = ctx.names[p["name"]]
            how = p.get("show", "plain")
            if how not in ("comp", "cell", "player") and not how.startswith("enum:"):
                hashable = False
            if isinstance(b, Subset):
                args.append("(" + "".join(x.src + ", " for x in b.elems) + ")")
                parts = [self.text_src(how, x.src, fn) for x in b.elems]
                texts.append(f"' '.join(({''.join(t + ', ' for t in parts)}))")
            elif p["name"] in st["combo"]:
                var = st["combo"][p["name"]]
                args.append(var)
                q = fn.new("q")
                texts.append(f"' '.join([{self.text_src(how, q, fn)} for {q} in {var}])")
            else:
                args.append(b.src)
                texts.append(self.text_src(how, b.src, fn))
        key = "(" + "".join(x + ", " for x in args) + ")"
        shown = a["name"].replace("_", " ")
        text = f"' '.join(({_lit(shown)}, {''.join(t + ', ' for t in texts)}))" if texts else _lit(shown)
        meta = self.const(self.action_meta[ai], "M")
        body = f"ac{ai}"
        for p in a["params"]:
            b = ctx.names[p["name"]]
            if isinstance(b, Subset):
                body = self.body_variants.get((ai, len(b.elems)), body)
                break

        def make(k: str) -> str:
            return f"_mkact({tab}, {k}, {text}, {body}, {key}, {meta})"
        dims = self.intern_dims[ai]
        lone = ctx.names[a["params"][0]["name"]] if len(a["params"]) == 1 else None
        if isinstance(lone, Subset) and len(lone.elems) in st["ktab"]:
            ktab = st["ktab"][len(lone.elems)]
            head = lone.elems[0].rows.get(ktab)
            cell = (head + "".join(f"[{x.src}]" for x in lone.elems[1:]) if head is not None else
                    ktab + "".join(f"[{x.src}]" for x in lone.elems))
            fn.emit(f"act = {cell}")
            if verdict is not None:
                fn.emit("if act is False: continue")
                fn.emit("if act is None:")
                fn.emit(f"    if not {verdict}:")
                fn.emit(f"        {cell} = False")
                fn.emit("        continue")
                fn.emit(f"    act = {cell} = _mkact(None, None, {text}, {body}, {key}, {meta})")
            else:
                fn.emit(f"if act is None: act = {cell} = _mkact(None, None, {text}, {body}, {key}, {meta})")
        elif dims is not None:
            first = ctx.names[a["params"][0]["name"]]
            head = first.rows.get(tab) if isinstance(first, Name) else None
            cell = (head + "".join(f"[{x}]" for x in args[1:]) if head is not None else
                    tab + "".join(f"[{x}]" for x in args))
            fn.emit(f"act = {cell}")
            fn.emit(f"if act is None: act = {cell} = _mkact(None, None, {text}, {body}, {key}, {meta})")
        elif hashable:
            if len(args) == 1 and isinstance(ctx.names[a["params"][0]["name"]], Subset):
                key = args[0]                      # a lone subset: its elements are the key
                fn.emit(f"k = {key}")
                fn.emit(f"act = {tab}.get(k)")
                fn.emit(f"if act is None: act = _mkact({tab}, k, {text}, {body}, (k,), {meta})")
            else:
                fn.emit(f"act = {tab}.get({key})")
                fn.emit(f"if act is None: act = {make(key)}")
        else:
            fn.emit("try:")
            fn.emit(f"    k = {key}")
            fn.emit(f"    act = {tab}.get(k)")
            fn.emit("except TypeError:")
            fn.emit("    act = k = None")
            fn.emit(f"if act is None: act = {make('k')}")
        if self.unique_texts[ai]:
            fn.emit("out[act.text] = act")
        else:
            fn.emit("t = act.text")
            fn.emit("if t not in out: out[t] = act")

    def element_static(self, e, allowed: set, depth: int = 0) -> bool:
        """Does `e` read nothing but the fields (and labels) of the components in the `allowed`
        locals, constants and the board? Then its value is fixed for given components, in one
        universe (see Game.universe)."""
        if depth > INLINE_DEPTH:
            return False
        allowed = allowed | {x["v"] for x in _walk(e) if x.get("k") == "comp"}
        for x in _walk(e):
            k = x.get("k")
            if k in ("var", "zone", "builtin", "option") or (k == "local" and x["n"] not in allowed):
                return False
            if k == "table" and not self.tables[x["n"]][1]:
                return False
            if k == "call" and (x["f"] in RANDOM_CALLS or x["f"] in ("reachable", "next")):
                return False
            if k == "def":
                d = self.ir["defs"][x["n"]]
                if ("d", x["n"]) in self.recursive or x["n"] in self.impure_defs or not self.element_static(
                        d["body"], set(d["params"] or []), depth + 1):
                    return False
        return True

    # ---- what is known of a parameter's domain ----
    def ids_of(self, e, depth: int = 0) -> str | None:
        """If every element of the domain `e` is a valid id (a component of this match, a cell of
        the board, a seat) and no element repeats: which kind ("comp", "cell", "player"); else None."""
        if depth > 8:
            return None
        k = e["k"]
        if k == "zone":
            return "comp"
        if k == "builtin" and e["n"] in ("players", "others"):
            return "player"
        if k == "call" and e["f"] in ("cells", "neighbours", "line", "between", "reachable"):
            return "cell" if self.geometry is not None else None
        if k == "comp" and e.get("x") == {"k": "local", "n": e["v"]}:
            return self.ids_of(e["in"], depth + 1)
        if k == "def" and ("d", e["n"]) not in self.recursive:
            return self.ids_of(self.ir["defs"][e["n"]]["body"], depth + 1)
        return None

    def plan_actions(self) -> None:
        """Per action: how its interned actions are stored (nested lists indexed by the
        parameters' ids, or a dict) and whether two bindings can ever show the same text."""
        self.intern_dims = [None] * len(self.action_meta)     # then more tables, see enum_param
        self.unique_texts = {}
        for s in self.ir["steps"]:
            shown = [a["name"].replace("_", " ") for a in s["actions"]]
            for j, a in enumerate(s["actions"]):
                ai = self.action_index[id(a)]
                params = a["params"]
                kinds = [self.ids_of(p["domain"]) if p["mode"] == "one" else None for p in params]
                ok = bool(params) and all(k is not None and p.get("show") == k for k, p in zip(kinds, params))
                size = 1
                for k in kinds:
                    size *= {"cell": self.geometry.size if self.geometry else 1,
                             "player": self.ir["players"]["max"]}.get(k, 1)
                ok = ok and size <= INTERN_CELLS and kinds.count("comp") <= 1
                self.intern_dims[ai] = kinds if ok else None
                # unique: distinct bindings, texts that are injective and one word each, and no other
                # action of the step whose name could be read as this one's name plus words
                injective = all(p["mode"] == "one" and kinds[i] is not None
                                and p.get("show") in ("cell", "player") for i, p in enumerate(params))
                prefix = any(i != j and (x == shown[j] or x.startswith(shown[j] + " ") or
                                         shown[j].startswith(x + " ")) for i, x in enumerate(shown))
                self.unique_texts[ai] = injective and not prefix

# Closed dispatch: the only lowering for each node kind irspec.py allows (a kind missing here is a
# KeyError at import, caught by the test that compares these with irspec's tables).
Lowerer.EXPR_LOWERING = {k: getattr(Lowerer, "x_" + k) for k in (
    "lit", "local", "builtin", "var", "zone", "def", "option", "un", "bin", "in", "range", "if", "attr",
    "cellattr", "index", "table", "call", "text", "list", "comp")}
Lowerer.STMT_LOWERING = {k: getattr(Lowerer, "s_" + k) for k in (
    "move", "shuffle", "set", "let", "if", "for", "while", "repeat", "goto", "end_turn", "finish", "call",
    "create", "log")}


def _arith(e) -> bool:
    """Does computing `e` do arithmetic that a loop could grow without bound (+, -, *)?"""
    return any(x.get("k") == "bin" and x.get("op") in ("+", "-", "*") for x in _walk(e))


def _comp_text(lb, v):
    return "none" if v is None else lb[v]


class Compiled:
    """The functions of one compiled game, as the engine uses them."""

    def __init__(self, low: Lowerer, shown: list[str]):
        ns = low.ns
        ns["_comp_text"] = _comp_text
        ir = low.ir
        self.lowerer = low
        self.var_init = [ns[f"vi{i}"] for i in range(len(ir["vars"]))]
        self.setup = ns["setup"]
        self.steps = {}
        for si, s in enumerate(ir["steps"]):
            enter = ns[f"st_enter{si}"] if s["enter"] else None
            self.steps[s["name"]] = (ns.get(f"st_actor{si}"), enter, ns[f"st_enum{si}"])
        self.handlers = {event: ns[f"on_{event}"] for event in ir["handlers"]}
        self.checks = [(ns[f"ck_when{i}"], ns[f"ck_body{i}"]) for i in range(len(ir["checks"]))]
        self.limits = [(ns[f"lim_count{i}"], ns[f"lim_body{i}"]) for i in range(len(ir.get("limits", [])))]
        self.scores = [ns[f"score{i}"] for i in range(len(ir.get("scores", [])))]
        self.defs = {name: ns[f"d{low.def_index[name]}"] for name in ir["defs"]}
        self.shown = [(name, self.defs[name], ir["defs"][name].get("as", "plain"),
                       make_texter(ir["defs"][name].get("as", "plain"), low.enum_text, low.geometry))
                      for name in shown]
        self.n_actions = len(low.action_meta)
        self.intern_dims = list(low.intern_dims)          # per table: nested-list dims, or None (a dict)
        # does listing the legal actions never use the random generator?
        self.pure_enumeration = not any(
            x.get("k") == "call" and x.get("f") in RANDOM_CALLS or x.get("k") == "def" and x["n"] in low.impure_defs
            or x.get("k") == "call" and x.get("f") == "reachable" and x["a"][2].get("v") in low.impure_defs
            for s in ir["steps"] for a in s["actions"] for x in _walk([a.get("require"), a["params"], s["actor"]]))
