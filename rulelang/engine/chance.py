"""Chance: every shuffle, roll and random pick a rule makes, as data.

The rules draw from the match's one seeded generator through three calls (generated code:
`m.rng.shuffle(zone)`, `m.rng.randint(1, sides)`, `_pick(m.rng, seq)` → `choice`). While a match
records what it draws, or has been given outcomes to use first (a *chance tape*), `Match.rng` is a
`Chance` in front of the generator. Each outcome is one plain-JSON list:

    ["roll", SIDES, VALUE]          a die of SIDES sides came up VALUE (1..SIDES)
    ["pick", SIZE, INDEX]           one of SIZE values was picked: the one at INDEX (0-based)
    ["shuffle", SIZE, ORDER]        a list of SIZE became [old[i] for i in ORDER] (SIZE ≥ 2: a shorter
                                    list is not shuffled, and draws nothing)

Why this seam exists: a test or a differential replay against another implementation forces the
outcomes it needs (`Match.supply_chance`), an adapter with explicit chance nodes reads them
(`Match.chance_events`), and a determinized copy of a paused match replays the chance its chain
has already drawn from a tape while everything after it comes from a fresh generator (the real
one never reaches a copy). A generator drawn through this class gives exactly the stream it gives
drawn directly, so recording changes no result.
"""
from __future__ import annotations

import functools
import hashlib
import random
import secrets

from ..core.errors import RuleFault

KINDS = ("roll", "pick", "shuffle")
TAPE_LIMIT = 100_000          # outcomes one match may be given ahead of time


ASIDE_SEED = 0x5EED                 # the generator a roll outside the game's flow draws from (`aside`)
SECRET_SEED_BITS = 62               # a drawn seed: one of 2^62, from the operating system


def secret_seed() -> int:
    """A seed for a match whose seed nobody is told (it deals every hidden card and decides every
    roll). Drawn from the OS, from 2^62 values: a player who tries every seed against the hand they
    see would find one of a million in minutes (a leak trial did), never one of these."""
    return secrets.randbits(SECRET_SEED_BITS)


def aside(method):
    """For what reads the position without playing it — a view, the estimate, the sides, a
    component's text, why an action is refused, the any-time actions another seat could take: a
    `roll` or `pick` there (in a `show`, say) draws from a generator of its own, made afresh each
    time, never from the match's. Otherwise drawing a screen, or a bot's search, would change the
    luck of the game (same seed and actions, another game). Only games whose defs, `estimate`,
    `side` or `require`s can draw pay for it."""
    @functools.wraps(method)
    def drawing_aside(m, *args, **kwargs):
        if not m.game.draws_aside or m.__dict__.get("_aside"):
            return method(m, *args, **kwargs)
        if m._by_text is None and m.game.draws_in_listing and m.result is None:
            try:                                # (the position's own listing, as `list_in_position` draws it,
                m._enumerate()                  #  not one drawn aside: the method may list)
            except Exception:                   # (the method meets the error itself, in its words)
                m._by_text = None
        saved = (m._rng, m._rng_state, m.tape, m.drawn)
        m._rng, m._rng_state, m.tape, m.drawn = random.Random(ASIDE_SEED), None, (), None
        m._aside = True
        try:
            return method(m, *args, **kwargs)
        finally:
            m._rng, m._rng_state, m.tape, m.drawn = saved
            m._aside = False
    return drawing_aside


def list_in_position(m, enum):
    """The actions `enum(m)` lists, in a game whose listing can draw chance (a `roll` or `pick` in a
    `require`, a parameter's domain, an `as` text or a def): they draw from a generator of the
    position's own — seeded from the match's generator's state, the actions played and the turn —
    never from the match's. So every listing of one position draws alike: the one the engine makes
    after an action, a restored save's, a paused chain's replay and a copy's (before, each listing
    drew anew from the match's generator, and a restored match listed other actions: a fuzz trial).
    Within `aside` the listing draws from the aside generator, as everything there does."""
    if not m.game.draws_in_listing or m.__dict__.get("_aside") or m.__dict__.get("_listing"):
        return enum(m)
    gen = listing_generator(m)
    saved = (m._rng, m._rng_state, m.tape, m.drawn)
    m._rng, m._rng_state, m.tape, m.drawn = gen, None, (), None
    m._listing = True
    try:
        return enum(m)
    finally:
        m._rng, m._rng_state, m.tape, m.drawn = saved
        m._listing = False


def listing_generator(m) -> random.Random:
    """The generator a listing of this position draws from (`list_in_position`)."""
    snap = m._rng_snapshot()
    state = snap.state() if type(snap) is FrozenGenerator else snap
    key = hashlib.blake2b(repr((state, len(m.log), m.turn_count)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(key, "big"))


class FrozenGenerator:
    """A match's generator, no longer drawn from, standing for its state in the match and in its
    clones. Reading the state (`getstate`, 625 numbers) costs more than a whole action of a small
    game; most clones (a copy kept in case an action pauses, a search's copies, which draw from
    generators of their own) never need it, so it is read only when one of them first draws. The
    match that froze it takes the generator back when it next draws, reading the state first for
    the others. (`owner` is that match's id, not the match: no cycle. Whoever takes it, the state
    is read before the generator is handed out, once: a wrong owner would only save a copy.)"""
    __slots__ = ("gen", "owner", "kept")

    def __init__(self, gen, owner):
        self.gen, self.owner, self.kept = gen, id(owner), None

    def state(self) -> tuple:
        if self.kept is None:
            self.kept = self.gen.getstate()
        return self.kept

    def take(self, m):
        """The generator itself, for its owner (once; the state it had is kept for the others);
        None for anyone else."""
        if id(m) != self.owner or self.gen is None:
            return None
        self.state()
        gen, self.gen = self.gen, None
        return gen


class Chance:
    """The generator as the rules see it while outcomes are recorded or supplied."""
    __slots__ = ("m",)

    def __init__(self, m):
        self.m = m

    def _next(self, kind: str, size: int):
        """The next supplied outcome, checked against the draw the rules make now; None if none."""
        m = self.m
        tape = m.tape
        if not tape:
            return None
        entry = tape[0]
        m.tape = tape[1:]
        if entry[0] != kind or entry[1] != size:
            raise RuleFault(f"the chance tape gives {describe(entry)} where the rules {verb(kind, size)}")
        return entry[2]

    def _note(self, entry: list) -> None:
        m = self.m
        drawn = m.drawn
        if drawn is not None:                       # (a new tuple: a clone may share the old one)
            m.drawn = drawn + (entry,)

    def randint(self, low: int, sides: int) -> int:
        if type(sides) is not int or sides < 1:
            raise RuleFault(f"a die must have at least one side, not {sides!r}")
        m = self.m
        value = self._next("roll", sides) if m.tape else None
        if value is None:
            value = (m._rng or m._gen()).randint(1, sides)
        self._note(["roll", sides, value])
        return value

    def choice(self, seq):
        n = len(seq)
        m = self.m
        index = self._next("pick", n) if m.tape else None
        if index is None:
            index = (m._rng or m._gen()).randrange(n)     # the same draw as `choice`
        self._note(["pick", n, index])
        return seq[index]

    def shuffle(self, xs: list) -> None:
        n = len(xs)
        if n < 2:                                   # nothing to draw (the generator draws nothing either)
            return
        m = self.m
        order = self._next("shuffle", n) if m.tape else None
        if order is None:                           # (the usual case, kept short: setups shuffle a lot)
            before = tuple(xs)
            shuffle_with(m._rng or m._gen(), xs)    # in place: the zone's list keeps its identity
            drawn = m.drawn
            if drawn is not None:                   # (the order is worked out when asked: `outcome`)
                m.drawn = drawn + (["shuffle", n, (before, tuple(xs))],)
            return
        xs[:] = [xs[i] for i in order]
        self._note(["shuffle", n, list(order)])


def _shuffle_inline(rng: random.Random, xs: list) -> None:
    """`rng.shuffle(xs)` as CPython's `random.Random.shuffle` makes it — the same `getrandbits`
    draws, the same exchanges, so the same order and the generator left in the same state —
    without a Python call of `_randbelow` per element (set-ups shuffle whole decks: a 40-card
    shuffle 7.2 → 4.2 µs). Used only where `_SHUFFLE_INLINE` found it equal to the library's."""
    getrandbits = rng.getrandbits
    for i in range(len(xs) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        xs[i], xs[j] = xs[j], xs[i]


def _inline_matches() -> bool:
    """Does `_shuffle_inline` give exactly what this Python's `random.Random.shuffle` gives (order
    and generator state), on lists of every length that matters? Asked once, at import: another
    Python whose library shuffles otherwise keeps the library's shuffle."""
    if random.Random._randbelow is not random.Random._randbelow_with_getrandbits:   # type: ignore[attr-defined]
        return False
    for seed in (0, 0x5EED):
        for size in (0, 1, 2, 3, 17, 70):
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            _shuffle_inline(rb, b)
            if a != b or ra.getstate() != rb.getstate():
                return False
    return True


_SHUFFLE_INLINE = _inline_matches()


_C_SEED = random.Random.__mro__[1].seed     # type: ignore[attr-defined]  # (the C generator's own seeding, `_random.Random.seed`)


def _seeded_directly(seed) -> random.Random:
    """`random.Random(seed)` for a whole number or None: what its `__init__` and `seed` (Python code)
    do for those, the C seeding and `gauss_next`, without the two Python calls around it."""
    r = random.Random.__new__(random.Random)
    _C_SEED(r, seed)
    r.gauss_next = None                         # type: ignore[attr-defined]  # (set by `Random.seed`)
    return r


def _seeding_matches() -> bool:
    """Does `_seeded_directly` make exactly the generator `random.Random` makes? Asked once, at import."""
    try:
        return all(_seeded_directly(s).getstate() == random.Random(s).getstate() for s in (0, -3, 2 ** 70))
    except Exception:                           # (another Python's generator: keep the library's path)
        return False


_SEED_DIRECTLY = _seeding_matches()


def seeded(seed) -> random.Random:
    """`random.Random(seed)`, the same generator, made faster for a whole-number seed (a new match
    seeds one: ~1 µs of the 4–5 the seeding costs was Python's `__init__` and `seed` around the C code)."""
    if _SEED_DIRECTLY and type(seed) is int:
        return _seeded_directly(seed)
    return random.Random(seed)


def shuffle_with(rng, xs: list) -> None:
    """Shuffle `xs` in place with the generator `rng` exactly as `rng.shuffle(xs)` would."""
    if _SHUFFLE_INLINE and type(rng) is random.Random:
        _shuffle_inline(rng, xs)
    else:
        rng.shuffle(xs)


def verb(kind: str, size: int) -> str:
    return {"roll": f"roll a {size}-sided die", "pick": f"pick one of {size}", "shuffle": f"shuffle {size}"}[kind]


def describe(entry) -> str:
    kind, size = entry[0], entry[1]
    what = {"roll": f"a roll of a {size}-sided die", "pick": f"a pick among {size}",
            "shuffle": f"a shuffle of {size}"}[kind]
    return what if len(entry) < 3 else f"{what} ({entry[2]!r})" if kind != "shuffle" else what


def checked_tape(outcomes) -> tuple:
    """Outcomes given from outside (an API call, a saved position), checked: a ValueError with a
    one-line reason for the first one that is not a well-formed outcome."""
    if not isinstance(outcomes, (list, tuple)):
        raise ValueError("chance outcomes must be a list")
    if len(outcomes) > TAPE_LIMIT:
        raise ValueError(f"more than {TAPE_LIMIT} chance outcomes")
    out = []
    for i, entry in enumerate(outcomes):
        if not (isinstance(entry, (list, tuple)) and len(entry) == 3 and entry[0] in KINDS
                and type(entry[1]) is int and entry[1] >= 1 and entry[1] <= TAPE_LIMIT):
            raise ValueError(f"chance outcome {i + 1} is not [\"roll\"|\"pick\"|\"shuffle\", SIZE, OUTCOME]")
        kind, size, value = entry
        if kind == "roll":
            ok = type(value) is int and 1 <= value <= size
        elif kind == "pick":
            ok = type(value) is int and 0 <= value < size
        else:
            ok = (isinstance(value, (list, tuple)) and len(value) == size
                  and all(type(i) is int for i in value) and sorted(value) == list(range(size)))
        if not ok:
            raise ValueError(f"chance outcome {i + 1} ({kind} of {size}) has an outcome out of range")
        out.append([kind, size, list(value) if kind == "shuffle" else value])
    return tuple(out)


def outcome(entry) -> list:
    """A recorded outcome in the form `supply_chance` takes (a shuffle's order worked out now)."""
    kind, size, value = entry
    if kind != "shuffle":
        return [kind, size, value]
    if isinstance(value, tuple):                    # (before, after): the order of the ids
        before, after = value
        place = {c: i for i, c in enumerate(before)}      # (a zone holds each component once)
        return [kind, size, [place[c] for c in after]]
    return [kind, size, list(value)]
