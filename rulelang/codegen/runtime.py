"""The helpers generated code calls at run time: moving and creating components, value
helpers, bounded arithmetic and ranges, legal-action objects and display texts.

Nothing here generates code; everything here runs inside a match.
"""
from __future__ import annotations

import math
import weakref
from itertools import combinations, compress

from .constants import INTERN_LIMIT, NOCONST

from ..boards import reachable
from ..errors import RuleFault, RuleRuntimeError
from ..limits import CALL_DEPTH_LIMIT, INT_LIMIT, LIST_LIMIT, LOOP_LIMIT, RANGE_LIMIT, SUBSET_COUNT_LIMIT, WORK_LIMIT


def _fault(msg: str):
    raise RuleFault(msg)


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


def _extreme_or(pick, seq, default):
    seq = as_items(seq)
    return pick(seq) if seq else default


def _next_seat(m, p):
    """The next player in the turn order who is not eliminated (p itself if nobody else is in)."""
    order, out = m.seq[1], m.seq[2]
    i, n = order.index(p), len(order)
    for k in range(1, n + 1):
        q = order[(i + k) % n]
        if not out[q]:
            return q
    return p


def _others(m, p):
    """The players still in, in turn order after p (p left out)."""
    order, out = m.seq[1], m.seq[2]
    i, n = order.index(p), len(order)
    return [q for q in (order[(i + k) % n] for k in range(1, n)) if not out[q]]


def _remaining(m):
    out = m.seq[2]
    return [q for q in m.seq[1] if not out[q]]


def _players_from(m, p, count):
    """Every seat in turn order, starting from p."""
    order = m.seq[1] if getattr(m, "seq", None) is not None else list(range(count))
    if type(p) is not int or p not in order:
        _fault(f"players_from needs a player, not {p!r}")
    i = order.index(p)
    return order[i:] + order[:i]


def _eliminate(m, who):
    for p in (who if isinstance(who, list) else [who]):
        if type(p) is not int or not 0 <= p < m.players:
            _fault(f"only a player can be eliminated, not {p!r}")
        m.seq[2][p] = True


def _set_order(m, order):
    if not (isinstance(order, list) and sorted(order) == list(range(m.players))):
        _fault(f"a turn order names every player once, not {order!r}")
    m.seq[1] = list(order)


def _ord(order, value, enum):
    """The position of an enum value (a member of a family per enum value)."""
    i = order.get(value) if isinstance(value, str) else None
    if i is None:
        _fault(f"a member of a family per {enum} is named by one of its values, not {plain_text(value)}")
    return i


def _action_text(text, name):
    """An author's action text, made safe to show and to type: printable, one line, not empty."""
    text = " ".join(str(text).split())[:200]
    return text or name


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


def _subset_threshold(low: int, high: int) -> int | None:
    """The largest domain size whose subsets of size low..high stay within SUBSET_COUNT_LIMIT
    (None: any size does), so generated code calls _subset_limit only past it."""
    def count(n: int) -> int:
        return sum(math.comb(n, k) for k in range(max(0, low), min(high, n) + 1))
    if high <= 0 or max(0, low) > high:
        return None                            # at most the empty subset: never too many
    good, bad = 0, 1                           # count(good) fits, count(bad) may not: search between
    while count(bad) <= SUBSET_COUNT_LIMIT:
        good, bad = bad, bad * 2
    while bad - good > 1:
        mid = (good + bad) // 2
        good, bad = (mid, bad) if count(mid) <= SUBSET_COUNT_LIMIT else (good, mid)
    return good


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


def _overworked():
    """Called when an effect has used up its loop budget (m.work): a rule error, not a hang."""
    _fault(f"more than {WORK_LIMIT} loop iterations in one effect (work limit): a loop that never ends?")


def _each(m, items):
    """A comprehension's items, their number charged to the effect's loop budget (m.work)."""
    try:
        m.work -= len(items)
    except TypeError:                          # an iterator (itertools.compress): counted as a list
        items = list(items)
        m.work -= len(items)
    if m.work < 0:
        _overworked()
    return items


# what a rule expression may raise when the rules meet an error (a hoisted test that raises stops the
# pruning: codegen/enumerator.py)
FAULTS = (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError, RecursionError,
          NameError, RuleRuntimeError)


def _unless_false(test) -> bool:
    """A comprehension's guard (expressions.comp_guard): False only if `test()` is false; a rule
    error in it counts as true, so that the comprehension meets it where the rules would."""
    try:
        return bool(test())
    except FAULTS + (RuleFault,):
        return True


def _scoped(m, value):
    """`value()` — an expression of an effect — with a memo of defs open while it runs (see
    statements.scoped); inside one already open (a listing), that one serves."""
    if m.lm is not None:
        return value()
    m.lm = {}
    try:
        return value()
    finally:
        m.lm = None


def _appended(xs, v) -> list:
    """`append v to xs`: a new list, so that whoever holds the old one (a clone of the match, a
    local) is unaffected; refused past LIST_LIMIT elements."""
    if xs is None:
        return [v]
    if len(xs) >= LIST_LIMIT:
        _fault(f"a list grew past {LIST_LIMIT} elements (list limit)")
    return xs + [v]


def _removed(xs, v) -> list:
    """`remove v from xs`: a new list without the first element equal to v (the same list if
    there is none), so whoever holds the old one is unaffected."""
    items = as_items(xs)
    for i, x in enumerate(items):
        if _eq(x, v):
            return list(items[:i]) + list(items[i + 1:])
    return xs if xs is not None else []


def _grown(v):
    """A value assigned by arithmetic or concatenation: an integer past INT_LIMIT or a list past
    LIST_LIMIT is a rule error (no unbounded growth in a loop)."""
    if type(v) is int and not -INT_LIMIT <= v <= INT_LIMIT:
        _fault(f"a number grew past the integer limit {INT_LIMIT}")
    if type(v) is list and len(v) > LIST_LIMIT:
        _fault(f"a list grew past {LIST_LIMIT} elements (list limit)")
    return v


def _sorted(xs) -> list:
    """`sort(xs)`: ascending; `none` sorts first. Numbers and texts only (the checker sees to it)."""
    try:
        return sorted(as_items(xs), key=lambda v: (v is not None, v))
    except TypeError:
        _fault("`sort` needs a list of numbers or of texts, all of one kind")


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
    by_serial: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()   # (Match.origins)

    def __init__(self, entries: list, ncols: int, caps: list):
        Batch.made += 1
        self.serial = Batch.made               # its token in a match's creation history
        Batch.by_serial[self.serial] = self
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
        for slot in m.game.component_zones:
            Z[slot].extend([] for _ in self.kinds)
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


def _add(m, kind: str, made, dest, bottom: bool, key=None) -> None:
    """A new component (its column row and label made by a kind's maker) placed on `dest`, whose
    (zone slot, family index) is `key` where the code generator knows it (else it is looked up)."""
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
    for slot in m.game.component_zones:    # and zones per component start empty
        m.Z[slot].append([])
    if bottom:
        dest.insert(0, c)
    else:
        dest.append(c)
    if m.created is not None:                   # (with where it was made: see Match.origins)
        m.created.append((kind, row, m.labels[c], key if key is not None else _zone_key(m, dest)))
    if m.intern is not None:
        m.intern = None                    # components changed: action texts must be rebuilt


def _zone_key(m, dest) -> tuple | None:
    """(zone slot, index in its family or None) of a zone list."""
    for slot, (z, value) in enumerate(zip(m.game.zones, m.Z)):
        if not z["per"]:
            if value is dest:
                return (slot, None)
        else:
            for i, zl in enumerate(value):
                if zl is dest:
                    return (slot, i)
    return None


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


def _sort_pairs(pairs):
    """The elements of [key, element] pairs ordered by key (stable; `none` keys first)."""
    try:
        return [x for _, x in sorted(pairs, key=lambda kx: (kx[0] is not None, kx[0]))]
    except TypeError:
        raise RuleFault("a `by` key must give numbers (or texts) for every element, not a mix") from None


def _split(text, sep):
    """`split(t, sep)`: the parts of a text between separators (an empty separator: its characters)."""
    if not isinstance(text, str) or not isinstance(sep, str):
        raise RuleFault("`split` needs two texts")
    parts = list(text) if sep == "" else text.split(sep)
    if len(parts) > LIST_LIMIT:
        raise RuleFault(f"`split` would make more than {LIST_LIMIT} parts")
    return parts


def _comp_text(lb, v):
    return "none" if v is None else lb[v]



# Every name generated code may use besides the game's own constants and functions: the
# generator's templates refer to these and nothing else.
NAMESPACE = {
    "_items": as_items, "_eq": _eq, "_first": _first, "_last": _last, "_top": _top, "_bottom": _bottom,
    "_topn": _topn, "_bottomn": _bottomn, "_extreme": _extreme, "_extreme_or": _extreme_or, "_action_text": _action_text,
    "_next_seat": _next_seat, "_others": _others, "_remaining": _remaining, "_players_from": _players_from,
    "_eliminate": _eliminate, "_ord": _ord, "_set_order": _set_order, "_div": _div, "_mod": _mod,
    "_key": _key, "_pick": _pick, "_subsets": _subsets, "_subset_limit": _subset_limit,
    "_range": _range, "_mul": _mul, "_grown": _grown, "_overworked": _overworked, "_each": _each, "_unless_false": _unless_false, "_scoped": _scoped, "_appended": _appended, "_removed": _removed, "_sorted": _sorted, "_split": _split, "_sort_pairs": _sort_pairs, "_move": _move, "_move1": _move1,
    "_move_zone": _move_zone, "_zone": _zone, "_over": _over, "_over_any": _over_any, "_add": _add,
    "_add_batch": _add_batch, "_mkact": _mkact, "_fault": _fault, "_compress": compress, "_fill": _fill,
    "_plain": plain_text, "_ptext": player_text, "_reachable": reachable, "_comp_text": _comp_text,
    "_ONCE": (None,), "_UNSET": NOCONST,
    "_FAULTS": FAULTS,
    "LOOP_LIMIT": LOOP_LIMIT, "CALL_DEPTH_LIMIT": CALL_DEPTH_LIMIT, "_max": max, "_min": min,
}
