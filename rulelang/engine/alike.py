"""Copies that cannot be followed through a hidden zone.

Two components of one kind with the same label and fields are copies: nothing the rules read
tells them apart, so an action on one (`play Walker`) stands for all of them in its zone, and the
engine plays one. Which one used to be a fixed pick, and every view shows the id played: a player
who had watched copy #69 go back into a hand and then saw #68 played learnt that #69 was still
there, a card they never saw drawn (a leak scan: 102 such plays in 40 random games of a card game).

So when an action plays copies from a zone that not everyone may see (a hand, a deck), the engine
first exchanges them with the copies of lowest id among those no one at the table may see: the ids
that come out depend only on what everyone sees, never on which copy the hidden zone held. The
exchange renames the two copies everywhere the position keeps them — places, per-component
variables, variables naming the components, what was revealed of them — before the action's effect
runs, so a replay makes the same exchange. (A copy someone else holds may change its id in that
player's hand: the same card, by the rules' own test. Where the engine takes copies in id order —
the abilities of copies in play — the two may then come in the other order: either is the rules'.)

Not covered: copies chosen as the answer to a question (an effect may hold other components in
its locals by then), and copies in zones one player cannot see while others can (`others`), on a
board's cells or inside other components: those keep the fixed pick.
"""
from __future__ import annotations

from .codegen.effects import known_to
from .codegen.runtime_actions import Action

HIDING = ("owner", "hidden")     # zone visibilities whose contents not everyone at the table sees


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


def _hiding_zones(m) -> set:
    """The ids of this match's zone lists whose contents not everyone may see (and that the
    exchange may touch: not a board's cells, not a component's own zones, not `others`); kept
    while the match keeps its zone lists (`zone_ids`)."""
    ids = m.zone_ids()
    kept = m._hiding
    if kept is not None and kept[0] is ids:
        return kept[1]
    out = set()
    for z, value in zip(m.game.zones, m.Z):
        if z["visibility"] in HIDING and z["per"] in (None, "player", "key"):
            for zl in (value if z["per"] else [value]):
                out.add(id(zl))
    m._hiding = (ids, out)
    return out


def untraceable(m, found: Action) -> Action:
    """`found`, about to be played, with the copies it plays from zones not everyone sees
    exchanged for the lowest such copies (see the module's docstring): the same action, or one
    bound to the exchanged ids."""
    shows = m.game.comp_params.get(found._meta[0])
    if shows is None:
        return found
    if m.intern is None:                        # (as a listing would: the universe of its components)
        m.intern = m.game.universe(m)
    kept = m._alike                             # (this match's universe and its copies: the hot path)
    if kept is None or kept[0] is not m.intern:
        kept = m._alike = (m.intern, copy_classes(m))
    classes = kept[1]
    if not classes:
        return found
    played = None
    for on, v in zip(shows, found._args):
        if not on:
            continue
        if type(v) is int:
            if v in classes:
                played = [v] if played is None else played + [v]
        elif isinstance(v, (tuple, list)):
            for x in v:
                if type(x) is int and x in classes:
                    played = [x] if played is None else played + [x]
    if played is None:
        return found
    hiding = _hiding_zones(m)
    where, Z = m.where, m.Z
    public = known_to(m, None) if m.known else {}
    grants = {x for g in m.grants for x in g.args if type(x) is int} if m.grants else ()
    own_zones = m.game.component_zones

    def hidden(c) -> bool:
        """Not seen by everyone, and free to exchange."""
        zl = where[c]
        if zl is None or id(zl) not in hiding or c in public or c in grants:
            return False
        for z in own_zones:
            if Z[z][c]:
                return False
        return True

    by_class: dict = {}
    for c in played:
        if hidden(c):
            by_class.setdefault(classes[c], []).append(c)
    renaming: dict = {}
    for members, cs in by_class.items():
        targets = []
        for t in members:                       # (ids in order: the lowest first)
            if hidden(t):
                targets.append(t)
                if len(targets) == len(cs):
                    break
        gone = sorted(c for c in cs if c not in targets)
        come = [t for t in targets if t not in cs]
        for a, b in zip(gone, come):
            _exchange(m, a, b)
            renaming[a], renaming[b] = b, a
    if not renaming:
        return found
    args = tuple(_renamed(v, renaming) if on else v for on, v in zip(shows, found._args))
    args += found._args[len(shows):]
    return Action(found.text, found._fn, args, found._meta)


def _exchange(m, a: int, b: int) -> None:
    """Give copies a and b each other's place and everything the position keeps about them."""
    za, zb = m.where[a], m.where[b]
    ia, ib = za.index(a), zb.index(b)
    za[ia], zb[ib] = b, a
    m.where[a], m.where[b] = zb, za
    pair = {a: b, b: a}
    V = m.V
    for slot, _ in m.comp_defaults:              # per-component variables: their values change places
        col = V[slot]
        col[a], col[b] = col[b], col[a]
    for slot, per, listy in m.game.comp_var_slots:   # variables that may name components: the names
        if per is None:
            V[slot] = _renamed(V[slot], pair)
        elif listy:
            row = V[slot]
            for i, x in enumerate(row):
                row[i] = _renamed(x, pair)
        else:                                    # (one component, or none, per member: look it up)
            row = V[slot]
            hits = [(i, pair[x]) for x in pair for i in _indices(row, x)]
            for i, y in hits:
                row[i] = y
    if m.known and (a in m.known or b in m.known):
        known = m.known = dict(m.known)
        ka, kb = known.pop(a, None), known.pop(b, None)
        if ka is not None:
            known[b] = ka
        if kb is not None:
            known[a] = kb
    m.held = None


def _indices(row: list, x: int) -> list:
    out: list = []
    i = -1
    while True:
        try:
            i = row.index(x, i + 1)
        except ValueError:
            return out
        if type(row[i]) is int:              # (not True, which equals 1)
            out.append(i)


def _renamed(v, pair: dict):
    if type(v) is int:
        return pair.get(v, v)
    if isinstance(v, (list, tuple)):
        if not any(type(x) is not int or x in pair for x in v):
            return v
        return type(v)(_renamed(x, pair) for x in v)
    return v
