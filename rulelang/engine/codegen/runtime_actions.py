"""Run-time helpers for legal actions: the Action object (its text is its identity), the texts
of a listing, and whether two listed actions can be told apart or are interchangeable copies.
"""
from __future__ import annotations

from .constants import INTERN_LIMIT
from .runtime import _overworked

class Action:
    """One legal choice; its text is its identity ("play 8♦ A♣")."""
    __slots__ = ("text", "_fn", "_args", "_meta", "_plain")

    def __init__(self, text: str, fn, args: tuple, meta):
        self.text, self._fn, self._args, self._meta = text, fn, args, meta
        self._plain = False     # (found to name no copies: alike.untraceable skips it — an interned
                                #  action is its universe's, whose copies are the same)

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
    one text, and only then is it passed through _told_apart. `copies`: the universe's components
    that have copies (a frozenset, made at the first listing that asks: _one_per_subset)."""
    __slots__ = ("clash", "copies")

    def __init__(self):
        super().__init__()
        self.clash = False
        self.copies = None


def _mkact(m, table, key, text: str, fn, args: tuple, meta, texts=None) -> Action:
    """A new action (kept in `table` under `key`), its text charged to the listing's work: a
    fuzzer's 6,000 actions of 9,000 characters each took 4 GB uncharged."""
    m.work -= len(text)
    if m.work < 0:
        _overworked()
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
    by_text: dict = {}
    copies: dict = {}                           # component -> what tells it apart (_copy_key)
    chains: dict = {}                           # text -> its _Chain (what _same_text walked of it)
    setdefault = by_text.setdefault
    met = False                                 # (a text met twice, another action's)
    for act in out:                             # (one pass: most texts are met once)
        first = setdefault(act.text, act)
        if first is not act:
            met = True
            meta = act._meta
            if len(meta) > 2:                   # (the third: how its arguments show, for _same_text)
                _same_text(m, by_text, act, meta[2], copies, chains)
            else:                               # (an action whose texts were proven unique)
                by_text[act.text] = act
    return out if not met and len(by_text) == len(out) else list(by_text.values())


def copy_classes(m) -> dict:
    """Each component that has copies -> the ids of all its copies (itself included), in order.
    The same for every match of one universe (the same components): kept by the game."""
    u = m.intern if m.intern is not None else m.game.universe(m)
    kept = m.game.alike_classes
    got = kept.get(id(u))
    if got is not None and got[0] is u:
        return got[1]
    groups: dict = {}
    for c, (kind, label) in enumerate(zip(m.kinds, m.labels)):
        key = (kind, label, tuple(col[c] for col in m.F))
        try:
            groups.setdefault(key, []).append(c)
        except TypeError:                       # (a field value that cannot be compared so: no copies)
            continue
    classes: dict = {}
    for members in groups.values():
        if len(members) > 1:
            t = tuple(members)
            for c in members:
                classes[c] = t
    if len(kept) < 64:
        kept[id(u)] = (u, classes)              # (the universe kept too: its id stays its own)
    return classes


def _alike_of(m) -> tuple:
    """(the match's universe, its copies: copy_classes), kept on the match while the universe is."""
    kept = m._alike
    if kept is None or kept[0] is not m.intern:
        kept = m._alike = (m.intern, copy_classes(m))
    return kept


def _copy_ids(m, texts: _Texts) -> frozenset:
    """The components of the match's universe that have copies, kept with a step's texts (of that universe)."""
    texts.copies = frozenset(_alike_of(m)[1])
    return texts.copies


def _one_per_subset(m, out: list, start: int, subsets: tuple, zone: list | None = None, seen=None) -> None:
    """The bindings of one action listed from `start` on, each choice once where its subsets hold
    copies: {A, B} and {B, A'} (A and A' copies nothing tells apart) are one choice, though the
    elements come in the zone's order and their texts differ (`take A B`, `take B A`: a new author's
    Sushi Go). The first binding is kept. Only copies the acting player sees are one: cards they
    cannot see are named by their place, and merging two of them would tell that they are alike (a
    fuzz trial's blind steal from a hand holding 1, 1, 7 listed two choices, not three). `subsets`:
    the positions of the action's subset arguments; `zone`: the one zone they are taken from, where
    the rules name it so; `seen(m, c, player)`: may the player see c (effects.seen_by)."""
    classes = _alike_of(m)[1]
    if not classes:
        return
    m.work -= len(classes)                      # (each copy looked at once: a fuzz trial's 4,990 copies)
    if m.work < 0:
        _overworked()
    where, actor = m.where, m.me
    hot: set = set()                            # copies lying beside a copy of theirs, in the actor's sight
    for c, members in classes.items():
        if c != members[0]:
            continue
        by_place: dict = {}
        for x in members:
            zl = where[x]
            if zl is not None and (zone is None or zl is zone):
                by_place.setdefault(id(zl), []).append(x)
        for together in by_place.values():
            if len(together) > 1:
                hot.update(x for x in together if seen is None or seen(m, x, actor))
    if len(hot) < 2:
        return
    if zone is None:                            # (taken from anywhere: are those copies among them?)
        used: set = set()
        for act in out[start:]:
            for k in subsets:
                x = act._args[k]
                if isinstance(x, (tuple, list)):
                    used.update(x)
        if len(hot & used) < 2:
            return
    copies: dict = {}
    keys: set = set()
    keep = out[:start]
    for act in out[start:]:
        args = act._args
        if not any(isinstance(args[k], (tuple, list)) and not hot.isdisjoint(args[k]) for k in subsets):
            keep.append(act)
            continue
        key = [act._fn]
        for k, x in enumerate(args):
            if k in subsets and isinstance(x, (tuple, list)):
                key.append(tuple(sorted(repr(_copy_key(m, a, copies)) if type(a) is int and a in hot else repr(a)
                                        for a in x)))
            else:
                key.append(repr(x))
        key_t = tuple(key)
        if key_t not in keys:
            keys.add(key_t)
            keep.append(act)
    out[:] = keep


class _Chain:
    """What _same_text has walked of one text's ordinals: the choices met there (their keys, see
    _choice_key) and the last ordinal walked; every ordinal up to it is taken, for good."""
    __slots__ = ("keys", "last")

    def __init__(self):
        self.keys: set = set()
        self.last = 0


def _same_text(m, out: dict, act: Action, shows: tuple, copies: dict | None = None,
               chains: dict | None = None) -> None:
    """A legal action shows the text of one listed before it (`out[act.text]`). The same choice
    (the same action with interchangeable arguments: see _interchangeable) is listed once, as
    the rules say; a different one is never dropped: it is listed with the first free ordinal
    after its text, `use Guard (2)`, in the rules' order. The choices met at each ordinal are
    kept by key (`chains`), so that the thousandth binding of one text is not compared with the
    999 before it one by one (a fuzz trial: 4,000 chips of one text took 16 s to list)."""
    text = act.text
    if copies is not None and chains is not None and text not in chains:
        # (mostly a copy of the choice listed first with its text: one comparison, no keys; once
        # the text has met another choice it is walked by keys, as below)
        first = out[text]
        if first._fn is act._fn and _interchangeable(m, first._args, act._args, shows, copies):
            return
    key = _choice_key(m, act, shows, copies) if chains is not None and chains.get(text, 0) is not None else None
    if key is None:                             # (arguments that are no plain values: compare one by one)
        first, n = out[text], 1
        while True:
            if first._fn is act._fn and _interchangeable(m, first._args, act._args, shows, None):
                return
            n += 1
            shown = f"{text} ({n})"
            first = out.get(shown)
            if first is None:
                out[shown] = Action(shown, act._fn, act._args, act._meta)
                return
    chain = chains.get(text)                    # type: ignore[union-attr]  # (key is None without chains)
    if chain is None:
        chain = chains[text] = _Chain()         # type: ignore[index]
    if key in chain.keys:
        return
    while True:
        n = chain.last + 1
        shown = text if n == 1 else f"{text} ({n})"
        first = out.get(shown)
        if first is None:
            out[shown] = Action(shown, act._fn, act._args, act._meta)
            chain.last = n
            chain.keys.add(key)
            return
        chain.last = n
        met = _choice_key(m, first, first._meta[2], copies) if len(first._meta) > 2 else ("alone", id(first))
        if met is None:                         # (one that cannot be keyed: this text is compared one by one)
            chains[text] = None                 # type: ignore[index]
            return _same_text(m, out, act, shows, copies, None)
        chain.keys.add(met)
        if met == key:
            return


def _choice_key(m, act: Action, shows: tuple, copies: dict | None):
    """What makes `act` the choice it is, as one hashable value: equal for two bindings exactly
    when _interchangeable says they make the same choice (its action, each argument, a component by
    _copy_key); None where an argument is no plain value."""
    parts: list = [act._fn]
    for x, how in zip(act._args, shows):
        if how == "comp" and type(x) is int:
            parts.append(("c", _copy_key(m, x, copies)))
        elif how == "comps" and isinstance(x, (tuple, list)):
            keys = tuple(_copy_key(m, a, copies) if type(a) is int else ("v", _plain(a)) for a in x)
            if any(k[1] is _UNKEYED for k in keys if k[0] == "v"):
                return None
            parts.append(("cs", keys))
        else:
            v = _plain(x)
            if v is _UNKEYED:
                return None
            parts.append(("v", v))
    if len(act._args) != len(shows):
        return None
    return tuple(parts)


_UNKEYED, _LIST, _TUPLE = object(), object(), object()


def _plain(x):
    """`x` as a hashable value equal to another's exactly when the values are equal (`==`: a list
    is not a tuple); _UNKEYED for anything else."""
    t = type(x)
    if t is int or t is str or t is bool or x is None or t is float:
        return x
    if t is tuple or t is list:
        items = tuple(_plain(v) for v in x)
        return _UNKEYED if any(v is _UNKEYED for v in items) else (_LIST if t is list else _TUPLE, items)
    return _UNKEYED


def _copy_key(m, a: int, copies: dict | None):
    """What tells component `a` apart from its copies (_copies): two components with one key are
    copies; a component that has no copy (an id out of range, nowhere, something in its own zones)
    has a key of its own."""
    if copies is not None and a in copies:
        return copies[a]
    if not 0 <= a < len(m.labels) or m.where[a] is None or any(m.Z[z][a] for z in m.game.component_zones):
        key: tuple = ("alone", a)
    else:
        V = m.V
        key = (m.kinds[a], m.labels[a], tuple(col[a] for col in m.F), id(m.where[a]),
               tuple(V[slot][a] for slot, _ in m.comp_defaults), tuple(a in g.args for g in m.grants))
    if copies is not None:
        copies[a] = key
    return key


def _interchangeable(m, xs: tuple, ys: tuple, shows: tuple, copies: dict | None = None) -> bool:
    """Two bindings of one action that make the same choice: equal arguments, but for
    components that are copies in every respect the rules can tell — the same kind, label and
    fields, in the same zone (where in a pile is not told apart: a text that must name a place in
    a pile names it), with equal values of every per-component variable and nothing in their
    own zones."""
    for x, y, how in zip(xs, ys, shows):
        if x == y:
            continue
        if how == "comp":
            known: bool | None
            if copies is None or type(x) is not int or type(y) is not int:
                known = _copies(m, x, y)
            else:
                known = copies.get((x, y))     # (never None once known: a truth value)
                if known is None:
                    known = copies[(x, y)] = _copies(m, x, y)
            if not known:
                return False
            continue
        if how == "comps" and isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)) and len(x) == len(y):
            pairs = [(a, b) for a, b in zip(x, y) if a != b]
        else:
            return False
        for a, b in pairs:
            if copies is None or type(a) is not int or type(b) is not int:
                same = _copies(m, a, b)
            elif (a, b) in copies:
                same = copies[(a, b)]
            else:
                same = copies[(a, b)] = _copies(m, a, b)
            if not same:
                return False
    return True


def _copies(m, a, b) -> bool:
    if not (type(a) is int and type(b) is int and 0 <= a < len(m.labels) and 0 <= b < len(m.labels)):
        return False
    if m.kinds[a] != m.kinds[b] or m.labels[a] != m.labels[b]:
        return False
    for col in m.F:                            # (each field)
        if col[a] != col[b]:
            return False
    zl = m.where[a]
    if zl is None or zl is not m.where[b]:
        return False
    V = m.V
    for slot, _ in m.comp_defaults:            # (each per-component variable)
        if V[slot][a] != V[slot][b]:
            return False
    for g in m.grants:                         # (a timed modifier given to one of them: `modify … until`)
        if (a in g.args) != (b in g.args):
            return False
    Z = m.Z
    for z in m.game.component_zones:           # (nothing in their own zones)
        if Z[z][a] or Z[z][b]:
            return False
    return True
