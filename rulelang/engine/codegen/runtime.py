"""The helpers generated code calls at run time: moving and creating components, value
helpers, bounded arithmetic and ranges, legal-action objects and display texts.

Nothing here generates code; everything here runs inside a match.
"""
from __future__ import annotations

import math
from typing import NoReturn
from itertools import combinations

from .constants import MEMO_LIMIT

from ...core.errors import OptionsRefused, RuleFault, RuleRuntimeError, WorkFault
from ...core.limits import INT_LIMIT, LIST_DEPTH_LIMIT, LIST_LIMIT, RANGE_LIMIT, SUBSET_COUNT_LIMIT, TEXT_LIMIT, VALUE_LIMIT, WORK_LIMIT


def _fault(msg: str) -> NoReturn:
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


def _join(m, texts, sep):
    """`join(texts, sep)`: the texts with the separator between them (text limit checked)."""
    items = as_items(texts)
    if not isinstance(sep, str) or not all(isinstance(t, str) for t in items):
        _fault("`join` needs a list of texts and a separator text")
    _charge(m, len(items) + 1)
    size = sum(len(t) for t in items) + len(sep) * max(0, len(items) - 1)
    if size > TEXT_LIMIT:
        _fault(f"a text grew past {TEXT_LIMIT} characters (text limit)")
    return sep.join(items)


def _lower(m, t):
    """`lower(t)`: the text in lower case (text limit checked: a few letters grow)."""
    if not isinstance(t, str):
        _fault("`lower` needs a text")
    _charge(m, 1 + len(t) // 16)
    out = t.lower()
    if len(out) > TEXT_LIMIT:
        _fault(f"a text grew past {TEXT_LIMIT} characters (text limit)")
    return out


def _trim(m, t):
    """`trim(t)`: the text without the white space at its ends."""
    if not isinstance(t, str):
        _fault("`trim` needs a text")
    _charge(m, 1 + len(t) // 16)
    return t.strip()


def _said(v) -> str:
    """A value as a rule error says it to people: `none`, `true`/`false`, lists of them; anything
    else as written, cut short (a seat is a number there: `_said_seats` names players)."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_said(x) for x in v) + "]"
    return repr(v)[:40]


def _said_seats(order) -> str:
    """A list of seats as players read them (`P2, P2`), where it is one; else as `_said` says it."""
    if isinstance(order, (list, tuple)) and all(type(x) is int and x >= 0 for x in order):
        return ", ".join(f"P{x + 1}" for x in order) or "nobody"
    return _said(order)


def _next_seat(m, p):
    """The next player in the turn order who is not eliminated (p itself if nobody else is in)."""
    order, out = m.seq[1], m.seq[2]
    if type(p) is not int or p not in order:    # (`next(none)`: a rule error, as without elimination)
        _fault(f"`next` needs a player, not {_said(p)}")
    i, n = order.index(p), len(order)
    for k in range(1, n + 1):
        q = order[(i + k) % n]
        if not out[q]:
            return q
    return p


def _others(m, p):
    """The players still in, in turn order after p (p left out)."""
    order, out = m.seq[1], m.seq[2]
    if type(p) is not int or p not in order:
        _fault(f"`others` needs a player, not {_said(p)}")
    i, n = order.index(p), len(order)
    return [q for q in (order[(i + k) % n] for k in range(1, n)) if not out[q]]


def _remaining(m):
    out = m.seq[2]
    return [q for q in m.seq[1] if not out[q]]


def _players_from(m, p, count):
    """Every seat in turn order, starting from p."""
    order = m.seq[1] if getattr(m, "seq", None) is not None else list(range(count))
    if type(p) is not int or p not in order:
        _fault(f"`players_from` needs a player, not {_said(p)}")
    i = order.index(p)
    return order[i:] + order[:i]


ROUND_OUT = "round"        # Match.seq[2][p] of a player out for the rest of this round (True: for good)


def _eliminate(m, who, how=True):
    """`eliminate` (how True), `eliminate … until round_end` (ROUND_OUT: never shortens an
    elimination for good), `readmit` (False: in again)."""
    for p in (_each(m, who) if isinstance(who, list) else [who]):
        if type(p) is not int or not 0 <= p < m.players:
            _fault(f"only a player can be {'readmitted' if how is False else 'eliminated'}, not {_said(p)}")
        if how is ROUND_OUT and m.seq[2][p] is True:
            continue
        m.seq[2][p] = how


def _set_order(m, order):
    if not (isinstance(order, list) and len(order) == m.players and sorted(order) == list(range(m.players))):
        _fault(f"a turn order names every player once, not {_said_seats(order)}")
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


def _refuse(m, why) -> None:
    """`refuse(REASON)`: the set-up refuses the options it was given (Game.new_match says so);
    after the set-up it is a rule error."""
    if type(why) is not str:
        _fault(f"`refuse` needs a text saying why, not {why!r}")
    if m.turn_count == 0:
        raise OptionsRefused(why)
    _fault(f"`refuse` is for the set-up, before the first turn (it said: {why})")


def _fill(room: list, row: list, i: int, v):
    """Store a computed value in a memo table indexed by cells, while the game's memos have room
    for it (room[0]: list elements they may still keep, see _memo_put); returns it."""
    n = _cost(v) if type(v) is list else 1
    if room[0] >= n:
        room[0] -= n
        row[i] = v
    return v


def _fill_cell(room: list, row: list, i, v, size: int):
    """_fill for a table of pairs of cells read with a second value not known to be a cell (the
    fast path `cellpair`): kept only for a cell of the board, 0 <= i < size (a row is twice as
    long, so that a value below 0 reads a slot that is never filled); returns v."""
    return _fill(room, row, i, v) if 0 <= i < size else v


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
    raise WorkFault(f"more than {WORK_LIMIT} units of work in one effect (work limit: each loop turn, each call, "
                    f"each element of a list or character of a text built, copied or scanned is one)")


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
    fields (lists counted in full, each text by its characters), its messages (each one as
    OBJECT_WEIGHT, and its characters and readers) and its modifiers (`modify … until`). Walked
    once per distinct list (a list held by many variables is walked once). (An exhaustion trial:
    400,000 empty messages, or 400,000 modifiers, weighed nothing, and took 2 GB.)"""
    sizes: dict = {}
    n = 0
    for value, var in zip(m.V, m.game.vars):
        if var[1]:                             # a family: the list of its members' values
            n += _held(value, sizes)
        else:                                  # (no list made around it: `sizes` is keyed by ids)
            n += 1 + (len(value) if type(value) is str else _held(value, sizes) if type(value) is list else 0)
    n += _fields_held(m)
    for x in m.messages:
        n += OBJECT_WEIGHT + (len(x) if isinstance(x, str) else len(x.get("text", "")) + len(x.get("to", ())))
    for g in m.grants:
        n += OBJECT_WEIGHT + len(g.args)
    return n


OBJECT_WEIGHT = 16      # a message or a modifier weighs as many elements as the memory it takes (a few hundred
                        # bytes, as 16 list slots do), besides its characters and values


def _fields_held(m) -> int:
    """What the component fields weigh. Fields are fixed once a component is created, and
    components are only ever added, so the weight is kept (`m.fields_held`: components measured,
    their weight) and only the components created since are walked."""
    done, total = m.fields_held
    count = len(m.labels)
    if count != done:
        if count < done:                       # (never in play; a position put together by hand)
            done, total = 0, 0
        sizes: dict = {}
        tails = [col[done:] for col in m.F]    # (kept alive: `sizes` is keyed by the lists' ids)
        for tail in tails:
            total += _held(tail, sizes)
        m.fields_held = (count, total)
    return total


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
        inner = [x for x in v if type(x) is list]
        distinct = {id(x): x for x in inner}    # (measuring walks a list held twice once: a row held
        # 99,999 times was scanned 99,999 times before the limit was met, 170 s of CPU — a fuzz trial)
        if not any(map(_nested, distinct.values())):     # lists of plain values (a nested comprehension)
            total = len(v) + sum(map(len, inner))
            if total > VALUE_LIMIT:
                _fault(f"a list holds more than {VALUE_LIMIT} elements, counting those of the lists "
                       f"inside it (value limit)")
            _charge(m, total if len(distinct) == len(inner)
                    else len(v) + sum(map(len, distinct.values())))
            return v
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
    if type(t) is not str:                 # (the compiler makes it a text: an IR edited by hand may not)
        t = plain_text(t)
    m.work -= len(t) + 1
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


def _kept(m, v):
    """A list or text about to be kept in a variable, charged as long as it is (lists inside in
    full): the position grows by that much (held_size), and the work between two measures of
    it must bound its growth (support.HELD_CHECK_WORK). Assigning one list of a million
    elements to 500 variables cost 500 units of work uncharged: 495 million held, unmeasured."""
    if type(v) is list:
        n = _cost(v)
    elif type(v) is str:
        n = len(v)
    else:
        return v
    m.work -= n
    if m.work < 0:
        _overworked()
    return v


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


def _seat(m, p):
    """The player `end turn to P` names: a seat of this match."""
    if type(p) is not int or not 0 <= p < m.players:
        _fault(f"`end turn to` a player, not to {plain_text(p)}")
    return p


def _seats(m, who, what: str):
    """The players a statement names (`finish win for P`, `reveal X to P`, `log … to P`): a seat of
    this match or a list of seats. `none` or a number past the last seat is a rule error (a fuzzer:
    `finish win for leader`, leader none, made everyone win; `reveal X to me + 1` made a position no
    save may hold)."""
    for p in (who if type(who) is list else (who,)):
        if type(p) is not int or not 0 <= p < m.players:
            _fault(f"`{what}` needs a player or a list of players, not {plain_text(who)}")
    return who


def _at(xs, i):
    """`xs[i]`, counting from 0: below 0 is an error, as past the end is (not the last element)."""
    if type(i) is int and i < 0:
        _fault(f"a list or text read before its start (`xs[i]` with i {i}, below 0): test the index first")
    try:
        return xs[i]
    except IndexError:                        # (`[1, 2][k]`: an internal error, a fuzz trial)
        _fault(f"a list or text read past its end (`xs[i]` with i {i}, {len(xs)} long): test the index first")


def _seat_or_none(m, p):
    """A number worked out for a `player` variable (`next = me + 1`): a seat of this match, or none."""
    if p is not None and (type(p) is not int or not 0 <= p < m.players):
        _fault(f"a player variable holds a player or none, not {plain_text(p)}")
    return p


def _sides(n):
    """The sides of a die `roll` asks for: a whole number, at least 1."""
    if type(n) is not int or n < 1:
        _fault(f"a die must have at least one side, not {_said(n)}")
    return n


def _distinct(m, xs) -> list:
    items = as_items(xs)
    m.work -= len(items)
    if m.work < 0:
        _overworked()
    try:
        return list(dict.fromkeys(items))
    except TypeError:                      # (lists of lists: no hash; equal ones found by ==)
        out: list = []
        m.work -= len(items) * len(items) // 2
        if m.work < 0:
            _overworked()
        for x in items:
            if x not in out:
                out.append(x)
        return out


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
    name: str

    def __missing__(self, key):
        _fault(f"table `{self.name}` has no entry for {plain_text(key)}")


class ExprTable(dict):
    """A rule table whose values are computed (functions of the match)."""
    __slots__ = ("name",)
    name: str

    def __missing__(self, key):
        _fault(f"table `{self.name}` has no entry for {plain_text(key)}")


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
    if how == "comp_or_player":                # a union holds a player p as -1 - p
        return lambda lb, v: "none" if v is None else player_text(-1 - v) if v < 0 else lb[v]
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
