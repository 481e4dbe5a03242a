"""The helpers generated code calls at run time: moving and creating components, value
helpers, bounded arithmetic and ranges, legal-action objects and display texts.

Nothing here generates code; everything here runs inside a match.
"""
from __future__ import annotations

import math
import weakref
from itertools import combinations, compress

from .constants import INTERN_LIMIT, MEMO_LIMIT, NOCONST

from ..boards import reachable
from ...ir.spec import BUILTIN_FUNCTIONS
from ...core.errors import RuleFault, RuleRuntimeError
from ...core.limits import CALL_DEPTH_LIMIT, COMPONENT_LIMIT, INT_LIMIT, LIST_DEPTH_LIMIT, LIST_LIMIT, LOOP_LIMIT, RANGE_LIMIT, SUBSET_COUNT_LIMIT, TEXT_LIMIT, VALUE_LIMIT, WORK_LIMIT


def _fault(msg: str):
    raise RuleFault(msg)


def player_text(p) -> str:
    return "none" if p is None else f"P{p + 1}"


def plain_text(v) -> str:
    t = type(v)
    if t is str:
        return v
    if v is None:
        return "none"
    if t is bool:
        return "true" if v else "false"
    if t is list:
        return _list_text(v)
    return str(v)


def _list_text(v: list) -> str:
    """A list in words, its items' texts joined by commas (`1, 2`, `?, 11`; a list inside one in
    brackets), refused past TEXT_LIMIT characters before it is made: each text inside counts its
    characters, each list inside its brackets."""
    if len(v) <= 64 and not any(type(x) is str or type(x) is list for x in v):
        return _words(v)                       # (a few numbers: short)
    n, stack = 0, [v]
    while stack:
        x = stack.pop()
        if type(x) is list:
            n += 2 + 2 * len(x)
            stack.extend(x)
        else:
            n += (len(x) if type(x) is str else len(str(x))) + 4
        if n > TEXT_LIMIT:
            _fault(f"a text grew past {TEXT_LIMIT} characters (text limit)")
    return _words(v)


def _words(v: list) -> str:
    """The items of a list in words: `a, b, c`; a list inside one in brackets: `[1, 2], 3`."""
    return ", ".join("[" + _words(x) + "]" if type(x) is list else plain_text(x) for x in v)


def _joined(texts) -> str:
    """Texts joined by spaces (the text of a list), refused past TEXT_LIMIT characters as it goes."""
    out, n = [], -1
    for t in texts:
        n += len(t) + 1
        if n > TEXT_LIMIT:
            _fault(f"a text grew past {TEXT_LIMIT} characters (text limit)")
        out.append(t)
    return " ".join(out)


def as_items(v):
    """A zone, list or single component seen as a sequence of components."""
    if v is None:
        return ()
    if isinstance(v, int):
        return (v,)
    return v


def _eq(m, a, b) -> bool:
    """`==` when a side may be a list: a zone, list or single component compared as a list; the
    comparison (as long as the shorter side, lists inside counted in full) is charged."""
    if isinstance(a, list) or isinstance(b, list):
        a, b = list(as_items(a)), list(as_items(b))
        if len(a) == len(b):                   # (lists of different lengths differ at once)
            _charge(m, _cost(a))
        return a == b
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


def _topn(m, z, k):
    if k <= 0:
        return []
    m.work -= min(k, len(z))
    if m.work < 0:
        _overworked()
    return list(reversed(z[-k:]))


def _bottomn(m, z, k):
    if k <= 0:
        return []
    m.work -= min(k, len(z))
    if m.work < 0:
        _overworked()
    return list(z[:k])


def _extreme(pick, seq, name):
    seq = as_items(seq)
    if not seq:
        _fault(f"`{name}` of an empty list")
    return pick(seq)


def _extreme_or(pick, seq, default):
    seq = as_items(seq)
    return pick(seq) if seq else default


def _clamp(m, n, low, high):
    """`clamp(n, low, high)`: n kept within low..high."""
    if not all(type(x) is int for x in (n, low, high)):
        _fault("`clamp` needs three numbers")
    if low > high:
        _fault(f"`clamp` between {low} and {high}: the low bound is above the high one")
    return low if n < low else high if n > high else n


def _rules_text(m, c):
    """`rules_text(c)`: component c's rules text (its card's, then its kind's) on one line, its
    paragraphs joined by a space; "" when none."""
    if c is None:
        return ""
    if type(c) is not int or not 0 <= c < len(m.kinds):
        _fault("`rules_text` needs a component")
    return " ".join((m.component_text(c) or "").split())


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


ROUND_OUT = "round"        # Match.seq[2][p] of a player out for the rest of this round (True: for good)


def _eliminate(m, who, how=True):
    """`eliminate` (how True), `eliminate … until round_end` (ROUND_OUT: never shortens an
    elimination for good), `readmit` (False: in again)."""
    for p in (_each(m, who) if isinstance(who, list) else [who]):
        if type(p) is not int or not 0 <= p < m.players:
            _fault(f"only a player can be {'readmitted' if how is False else 'eliminated'}, not {p!r}")
        if how is ROUND_OUT and m.seq[2][p] is True:
            continue
        m.seq[2][p] = how


def _set_order(m, order):
    if not (isinstance(order, list) and len(order) == m.players and sorted(order) == list(range(m.players))):
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


def _fill(room: list, row: list, i: int, v):
    """Store a computed value in a memo table indexed by cells, while the game's memos have room
    for it (room[0]: list elements they may still keep, see _memo_put); returns it."""
    n = _cost(v) if type(v) is list else 1
    if room[0] >= n:
        room[0] -= n
        row[i] = v
    return v


def _key(m, k):
    """A table's key: a list as a tuple (its copy charged)."""
    if isinstance(k, list):
        _charge(m, len(k))
        return tuple(k)
    return k


def _pick(m, rng, seq):
    seq = as_items(seq)
    m.work -= len(seq)
    if m.work < 0:
        _overworked()
    return rng.choice(list(seq)) if seq else None


def _subsets(m, items, low, high, w=1):
    _charge(m, (_subset_limit(len(items), low, high) + len(items)) * w)     # (the listing's budget)
    for k in range(max(0, low), min(high, len(items)) + 1):
        yield from combinations(items, k)


def _subset_limit(n: int, low, high) -> int:
    """Refuse to list the subsets of a domain when there would be more than SUBSET_COUNT_LIMIT;
    else their number."""
    total = 0
    for k in range(max(0, low), min(high, n) + 1):
        total += math.comb(n, k)
        if total > SUBSET_COUNT_LIMIT:
            _fault(f"a subset parameter over {n} elements (size {low}..{high}) has more than "
                   f"{SUBSET_COUNT_LIMIT} choices (subset limit)")
    return total


def _subsets_charge(n: int, low: int, high: int) -> int:
    """What listing the subsets of sizes low..high of n elements is charged: each subset, and each
    element as it starts the subsets it leads (within the subset limit, checked before)."""
    return sum(math.comb(n, k) for k in range(max(1, low), min(high, n) + 1)) + n


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


def _range(m, lo, hi) -> list:
    """The list lo..hi, refused past RANGE_LIMIT elements; its size is charged (m.work)."""
    if hi - lo >= RANGE_LIMIT:
        _fault(f"the range {lo}..{hi} has more than {RANGE_LIMIT} elements (range limit)")
    if hi >= lo:
        m.work -= hi - lo + 1
        if m.work < 0:
            _overworked()
    return list(range(lo, hi + 1))


# ---- the cost model (limits.py): sizes are bounded where values are made, and what an
# operation builds, copies or scans is charged to the effect's budget, m.work ----

def _overworked():
    """Called when an effect has used up its budget (m.work): a rule error, not a hang."""
    _fault(f"more than {WORK_LIMIT} units of work in one effect (work limit: each loop turn, each call, each "
           f"element of a list or character of a text built, copied or scanned is one)")


def _charge(m, n: int) -> None:
    m.work -= n
    if m.work < 0:
        _overworked()


def _each(m, items, w=1):
    """A list (or zone) about to be iterated or scanned, its length (times the units each of its
    elements stands for, w) charged to the budget (m.work)."""
    try:
        m.work -= len(items) * w
    except TypeError:                          # an iterator: counted as a list
        items = list(items)
        m.work -= len(items) * w
    if m.work < 0:
        _overworked()
    return items


def _too_long(n: int, text: bool) -> None:
    if text:
        _fault(f"a text grew past {TEXT_LIMIT} characters (text limit)")
    _fault(f"a list grew past {LIST_LIMIT} elements (list limit)")


def _wrong_pair(op: str, a, b) -> None:
    """A rule error for `a op b` of values that do not go together (a number and a list): the rules'
    error, not the engine's (a `none` is left to the TypeError the engine already words)."""
    if a is None or b is None:
        return
    words = {int: "a number", bool: "a truth value", str: "a text", list: "a list"}
    _fault(f"`{op}` of {words.get(type(a), 'a value')} and {words.get(type(b), 'a value')}: they do not go together")


def _nested(v) -> bool:
    """Does the list v hold lists? (a scan in C, as cheap as the copy it guards)"""
    return list in map(type, v)


def _cost(v) -> int:
    """What comparing, copying into text or saving the list v costs: its elements, and those of
    the lists inside it counted in full (a list held twice counts twice)."""
    return len(v) if not _nested(v) else _sizes(v)[0]


def _sizes(v) -> tuple[int, int, int]:
    """(elements, depth, work) of the list v counting the lists inside it in full, walked once per
    distinct list (a value built by doubling a list inside a list is measured in linear time:
    `work` is the elements of the distinct lists, what the walk cost)."""
    sizes: dict = {}
    stack = [(v, False)]
    work = 0
    while stack:
        x, done = stack.pop()
        k = id(x)
        if done:
            total, depth = len(x), 1
            for y in x:
                if type(y) is list:
                    n, d = sizes[id(y)]
                    total += n
                    if d >= depth:
                        depth = d + 1
            sizes[k] = (total, depth)
            continue
        if k in sizes:
            continue
        sizes[k] = None
        work += len(x)
        stack.append((x, True))
        for y in x:
            if type(y) is list and id(y) not in sizes:
                stack.append((y, False))
    return sizes[id(v)] + (work,)


def held_size(m) -> int:
    """What a position holds, as saving it writes it: every value of its variables and component
    fields (lists counted in full, each text by its characters) and its messages' characters.
    Walked once per distinct list (a list held by many variables is walked once)."""
    sizes: dict = {}
    n = 0
    for value, var in zip(m.V, m.game.vars):
        if var[1]:                             # a family: the list of its members' values
            n += _held(value, sizes)
        else:                                  # (no list made around it: `sizes` is keyed by ids)
            n += 1 + (len(value) if type(value) is str else _held(value, sizes) if type(value) is list else 0)
    for col in m.F:
        n += _held(col, sizes)
    for x in m.messages:
        n += len(x) if isinstance(x, str) else len(x.get("text", ""))
    return n


def _held(values: list, sizes: dict) -> int:
    """Elements of the list `values`, the lists inside it counted in full and texts by their
    characters; `sizes`: what each distinct list weighs, kept between calls."""
    done = sizes.get(id(values))
    if done is not None:
        return done
    stack = [(values, False)]
    while stack:
        x, back = stack.pop()
        if back:
            total = len(x)
            for y in x:
                t = type(y)
                if t is str:
                    total += len(y)
                elif t is list:
                    total += sizes[id(y)]
            sizes[id(x)] = total
            continue
        if id(x) in sizes:
            continue
        kinds = set(map(type, x))              # (in C: a list of numbers weighs its length)
        if str not in kinds and list not in kinds:
            sizes[id(x)] = len(x)
            continue
        sizes[id(x)] = 0
        stack.append((x, True))
        stack.extend((y, False) for y in x if type(y) is list and id(y) not in sizes)
    return sizes[id(values)]


def _built(m, v):
    """A list just built whose elements may be lists: refused if, counting the elements of the lists
    inside it, it has more than VALUE_LIMIT (or they nest deeper than LIST_DEPTH_LIMIT); measuring
    it is charged. A list of plain values passes at the cost of one scan."""
    if type(v) is list and _nested(v):
        sizes = _sizes(v)
        if sizes[0] > VALUE_LIMIT:
            _fault(f"a list holds more than {VALUE_LIMIT} elements, counting those of the lists inside it "
                   f"(value limit)")
        if sizes[1] > LIST_DEPTH_LIMIT:
            _fault(f"lists are nested more than {LIST_DEPTH_LIMIT} deep (value limit)")
        _charge(m, sizes[2])
    return v


def _plus(m, a, b):
    """a + b for rules when a side may be a text or a list: the size of the result is known before it
    is made, refused past TEXT_LIMIT or LIST_LIMIT, and charged (m.work). Numbers as Python adds them."""
    ta = type(a)
    if ta is str and type(b) is str:
        n = len(a) + len(b)
        if n > TEXT_LIMIT:
            _too_long(n, True)
        m.work -= n
        if m.work < 0:
            _overworked()
        return a + b
    if ta is list and type(b) is list:
        n = len(a) + len(b)
        if n > LIST_LIMIT:
            _too_long(n, False)
        m.work -= n
        if m.work < 0:
            _overworked()
        v = a + b
        return _built(m, v) if n and (_nested(a) or _nested(b)) else v
    try:
        return a + b                           # numbers
    except TypeError:
        _wrong_pair("+", a, b)                 # (only a crafted IR: the checker types a rule file's `+`)
        raise


def _mul(m, a, b):
    """a * b for rules: an integer product past INT_LIMIT is a rule error, not a slow bignum; a text
    or list repeated is measured before it is made (TEXT_LIMIT, LIST_LIMIT) and charged."""
    ta, tb = type(a), type(b)
    if (ta is int or ta is bool) and (tb is int or tb is bool):
        v = a * b
        if not -INT_LIMIT <= v <= INT_LIMIT:
            _fault(f"a product is too large: {plain_text(a)} * {plain_text(b)} (integer limit {INT_LIMIT})")
        return v
    if ta in (str, list) and tb in (int, bool):
        seq, k = a, b
    elif tb in (str, list) and ta in (int, bool):
        seq, k = b, a
    else:
        try:
            return a * b
        except TypeError:
            _wrong_pair("*", a, b)
            raise
    n = len(seq) * k if k > 0 else 0
    if n > (TEXT_LIMIT if type(seq) is str else LIST_LIMIT):
        _too_long(n, type(seq) is str)
    _charge(m, n)
    v = a * b
    return _built(m, v) if type(v) is list and n and _nested(seq) else v


def _in(m, x, s) -> bool:
    """`x in s` when x may be a list: each comparison may look inside lists, so the scan is
    charged as the lists inside s count (_cost)."""
    s = as_items(s)
    _charge(m, _cost(s) if type(s) is list else len(s))
    return x in s


def _logged(m, t):
    """A message (`log`), charged by its length: it is kept in the position and printed."""
    m.work -= len(t) + 1 if type(t) is str else 1
    if m.work < 0:
        _overworked()
    return t


def _memo_put(room: list, cache: dict, key, v):
    """Keep a memoised result, while the memo has fewer than MEMO_LIMIT entries and the game's memos
    hold fewer than MEMO_SIZE_LIMIT list elements in all (room[0]: what is left); returns v."""
    n = _cost(v) if type(v) is list else 1
    if len(cache) < MEMO_LIMIT and room[0] >= n:
        try:
            cache[key] = v
        except TypeError:                      # an unhashable key: not kept
            return v
        room[0] -= n
    return v


def _text_of(m, t) -> str:
    """The text of a list (made within TEXT_LIMIT by its texter), charged by its length."""
    m.work -= len(t)
    if m.work < 0:
        _overworked()
    return t


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


def _appended(m, xs, v) -> list:
    """`append v to xs`: a new list, so that whoever holds the old one (a clone of the match, a
    local) is unaffected; refused past LIST_LIMIT elements; the copy is charged (m.work)."""
    if xs is None:
        return _built(m, [v]) if type(v) is list else [v]
    if len(xs) >= LIST_LIMIT:
        _fault(f"a list grew past {LIST_LIMIT} elements (list limit)")
    m.work -= len(xs) + 1
    if m.work < 0:
        _overworked()
    out = xs + [v]
    return _built(m, out) if type(v) is list or _nested(xs) else out


def _removed(m, xs, v) -> list:
    """`remove v from xs`: a new list without the first element equal to v (the same list if
    there is none), so whoever holds the old one is unaffected. The scan and the copy are charged."""
    items = as_items(xs)
    _charge(m, 2 * _cost(items) if type(items) is list else len(items))
    for i, x in enumerate(items):
        if x == v if type(x) is not list and type(v) is not list else _eq(m, x, v):
            return list(items[:i]) + list(items[i + 1:])
    return xs if xs is not None else []


def _grown(v):
    """A value assigned by arithmetic or concatenation: an integer past INT_LIMIT, a list past
    LIST_LIMIT or a text past TEXT_LIMIT is a rule error (no unbounded growth in a loop)."""
    t = type(v)
    if t is int:
        if not -INT_LIMIT <= v <= INT_LIMIT:
            _fault(f"a number grew past the integer limit {INT_LIMIT}")
    elif t is list:
        if len(v) > LIST_LIMIT:
            _fault(f"a list grew past {LIST_LIMIT} elements (list limit)")
    elif t is str and len(v) > TEXT_LIMIT:
        _fault(f"a text grew past {TEXT_LIMIT} characters (text limit)")
    return v


def _sorted(m, xs) -> list:
    """`sort(xs)`: ascending; `none` sorts first. Numbers and texts only (the checker sees to it).
    Charged as n log n comparisons, each as long as the lists inside count (_cost)."""
    items = as_items(xs)
    n = len(items)
    _charge(m, (_cost(items) if type(items) is list else n) * max(1, n.bit_length()))
    try:
        return sorted(items, key=lambda v: (v is not None, v))
    except TypeError:
        _fault("`sort` needs a list of numbers or of texts, all of one kind")


def _distinct(m, xs) -> list:
    items = as_items(xs)
    m.work -= len(items)
    if m.work < 0:
        _overworked()
    return list(dict.fromkeys(items))


def _reversed(m, xs) -> list:
    items = as_items(xs)
    m.work -= len(items)
    if m.work < 0:
        _overworked()
    return list(reversed(items))


def _flat(m, xss) -> list:
    """The lists of a list joined into one (nested comprehensions): its size charged first."""
    xss = as_items(xss)
    _charge(m, len(xss) + sum(len(x) if isinstance(x, (list, tuple)) else 1 for x in xss))
    return [y for ys in xss for y in ys]


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
    """Move a component, a list of them or a whole zone (in its order) onto `dest`. Each component
    is charged (m.work) as the zones it is taken from and put under are long."""
    items = list(as_items(what))
    where = m.where
    n = len(items)
    for c in items:
        src = where[c]
        if src is not None:
            n += len(src)
            src.remove(c)
        if bottom:
            n += len(dest)
            dest.insert(0, c)
        else:
            dest.append(c)
        where[c] = dest
    m.work -= n
    if m.work < 0:
        _overworked()


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
    m.work -= len(what)
    if m.work < 0:
        _overworked()
    if what is dest:                           # (each taken off and put back on top, in order: as it was)
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
        if len(src) > 64:                      # (the scan of a long zone is charged)
            _charge(m, len(src))
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
        if c0 + len(self.kinds) > COMPONENT_LIMIT:
            _fault(f"more than {COMPONENT_LIMIT} components in one match (component limit)")
        m.work -= len(self.kinds)
        if m.work < 0:
            _overworked()
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
    if c >= COMPONENT_LIMIT:
        _fault(f"more than {COMPONENT_LIMIT} components in one match (component limit)")
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


class _Texts(dict):
    """A step's texts in one universe: text -> the first action made with it. `clash` turns true
    (for good) once two different bindings (another body or other arguments) showed one text, or
    when the texts outgrow INTERN_LIMIT: only then may a listing of that step hold two actions of
    one text, and only then is it passed through _told_apart."""
    __slots__ = ("clash",)

    def __init__(self):
        super().__init__()
        self.clash = False


def _mkact(table, key, text: str, fn, args: tuple, meta, texts=None) -> Action:
    a = Action(text, fn, args, meta)
    if key is not None and len(table) < INTERN_LIMIT:
        table[key] = a
    if texts is not None and not texts.clash:
        first = texts.get(text)
        if first is None:
            if len(texts) < INTERN_LIMIT:
                texts[text] = a
            else:
                texts.clash = True
        elif first._fn is not fn or first._args != args:
            texts.clash = True
    return a


def _told_apart(m, out: list) -> list:
    """A listing (in the rules' order) where two actions may show one text: the same action listed
    twice, or two bindings of one text. The same choice is kept once; another one is told apart by
    an ordinal (_same_text). Exactly what keying the listing by text did, as it was before."""
    if len({a.text for a in out}) == len(out):
        return out
    by_text: dict = {}
    for act in out:
        t = act.text
        first = by_text.get(t)
        if first is None:
            by_text[t] = act
        elif first is not act:
            meta = act._meta
            if len(meta) > 2:                   # (the third: how its arguments show, for _same_text)
                _same_text(m, by_text, act, meta[2])
            else:                               # (an action whose texts were proven unique)
                by_text[t] = act
    return list(by_text.values())


def _same_text(m, out: dict, act: Action, shows: tuple) -> None:
    """A legal action shows the text of one listed before it (`out[act.text]`). The same choice
    (the same action with interchangeable arguments: see _interchangeable) is listed once, as
    the rules say; a different one is never dropped: it is listed with the first free ordinal
    after its text, `use Guard (2)`, in the rules' order."""
    text = act.text
    first = out[text]
    n = 1
    while True:
        if first._fn is act._fn and _interchangeable(m, first._args, act._args, shows):
            return
        n += 1
        shown = f"{text} ({n})"
        first = out.get(shown)
        if first is None:
            out[shown] = Action(shown, act._fn, act._args, act._meta)
            return


def _interchangeable(m, xs: tuple, ys: tuple, shows: tuple) -> bool:
    """Two bindings of one action that make the same choice: equal arguments, but for
    components that are copies in every respect the rules can tell — the same kind, label and
    fields, in the same zone (where in a pile is not told apart: a text that must name a place in
    a pile names it), with equal values of every per-component variable and nothing in their
    own zones."""
    for x, y, how in zip(xs, ys, shows):
        if x == y:
            continue
        if how == "comp":
            pairs = [(x, y)]
        elif how == "comps" and isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)) and len(x) == len(y):
            pairs = [(a, b) for a, b in zip(x, y) if a != b]
        else:
            return False
        for a, b in pairs:
            if not _copies(m, a, b):
                return False
    return True


def _copies(m, a, b) -> bool:
    if not (type(a) is int and type(b) is int and 0 <= a < len(m.labels) and 0 <= b < len(m.labels)):
        return False
    if m.kinds[a] != m.kinds[b] or m.labels[a] != m.labels[b] or any(col[a] != col[b] for col in m.F):
        return False
    zl = m.where[a]
    if zl is None or zl is not m.where[b]:
        return False
    game = m.game
    for i, var in enumerate(game.ir["vars"]):
        if var.get("per") == "component" and m.V[i][a] != m.V[i][b]:
            return False
    return all(not m.Z[z][a] and not m.Z[z][b] for z in game.component_zones)


def make_texter(how: str, enum_text: dict, geometry):
    """A function (labels, value) -> display text for values of one static type."""
    if how.startswith("list:"):
        inner = make_texter(how[5:], enum_text, geometry)
        return lambda lb, v: _joined(inner(lb, x) for x in as_items(v))
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


def _sort_pairs(m, pairs):
    """The elements of [key, element] pairs ordered by key (stable; `none` keys first)."""
    _charge(m, len(pairs) * max(1, len(pairs).bit_length()))
    try:
        return [x for _, x in sorted(pairs, key=lambda kx: (kx[0] is not None, kx[0]))]
    except TypeError:
        raise RuleFault("a `by` key must give numbers (or texts) for every element, not a mix") from None


def _split(m, text, sep):
    """`split(t, sep)`: the parts of a text between separators (an empty separator: its characters)."""
    if not isinstance(text, str) or not isinstance(sep, str):
        raise RuleFault("`split` needs two texts")
    _charge(m, len(text) + 1)
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
    "_eliminate": _eliminate, "ROUND_OUT": ROUND_OUT, "_ord": _ord, "_set_order": _set_order, "_div": _div, "_mod": _mod,
    "_key": _key, "_pick": _pick, "_subsets": _subsets, "_subset_limit": _subset_limit,
    "_range": _range, "_mul": _mul, "_grown": _grown, "_overworked": _overworked, "_each": _each, "_unless_false": _unless_false, "_scoped": _scoped, "_appended": _appended, "_removed": _removed, "_sorted": _sorted, "_split": _split, "_sort_pairs": _sort_pairs, "_move": _move, "_move1": _move1,
    "_move_zone": _move_zone, "_zone": _zone, "_over": _over, "_over_any": _over_any, "_add": _add,
    "_add_batch": _add_batch, "_mkact": _mkact, "_same_text": _same_text, "_told_apart": _told_apart, "_fault": _fault, "_compress": compress, "_fill": _fill,
    "_plain": plain_text, "_ptext": player_text, "_reachable": reachable, "_comp_text": _comp_text,
    "_ONCE": (None,), "_UNSET": NOCONST,
    "_FAULTS": FAULTS,
    # the cost model (limits.py): sizes measured where values are made, work charged where it is done
    "_plus": _plus, "_in": _in, "_logged": _logged, "_memo_put": _memo_put, "_subsets_charge": _subsets_charge,
    "_charge": _charge, "_built": _built, "_text_of": _text_of, "_distinct": _distinct, "_reversed": _reversed,
    "_flat": _flat,
    # builtins lowered generically (ir/spec.py, `Builtin.runtime`): `f(m, *args)`
    **{b.runtime: globals()[b.runtime] for b in BUILTIN_FUNCTIONS.values() if b.runtime},
    "LOOP_LIMIT": LOOP_LIMIT, "CALL_DEPTH_LIMIT": CALL_DEPTH_LIMIT, "_max": max, "_min": min,
}
