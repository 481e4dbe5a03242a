"""Copies that cannot be followed through a hidden zone.

Two components of one kind with the same label and fields are copies: nothing the rules read
tells them apart, so an action on one (`play Walker`) stands for all of them in its zone, and the
engine plays one. Which one used to be a fixed pick, and every view shows the id played: a player
who had watched copy #69 go back into a hand and then saw #68 played learnt that #69 was still
there, a card they never saw drawn (a leak scan: 102 such plays in 40 random games of a card game).

So when an action plays copies from a zone that not everyone may see (a hand), the engine first
exchanges them with the copies of lowest id among that zone's and those no one at all may see (a
`hidden` deck): the id that comes out is then the lowest of the copies the other players cannot
place, whichever the hand held. The exchange renames the two copies everywhere the position keeps
them — places, per-component variables, variables naming the components — before the action's
effect runs, so a replay makes the same exchange. (Where the engine takes copies in id order — the
abilities of copies in play — the two may then come in the other order: either is the rules'.)
Copies another player holds, or that someone was shown, are never exchanged: that player would see
their card's id change, and learn which copy was played.

Not covered: copies chosen as the answer to a question (an effect may hold other components in
its locals by then); copies in `others` zones, on a board's cells or inside other components; and
what the exchange leaves in a `hidden` zone — a copy exchanged into the deck shows its id when it is
drawn, which tells which copy the hand had played. With three players or more, a copy a third
player holds is no candidate, so the id played may tell the others that one of theirs is lower.
"""
from __future__ import annotations

from .codegen.runtime_actions import Action

UNSEEN = ("hidden",)             # zone visibilities whose contents no one at the table sees


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


def _hiding_zones(m) -> tuple[set, set]:
    """The ids of this match's zone lists whose contents not everyone may see, and of those whose
    contents no one sees (of the ones the exchange may touch: not a board's cells, not a component's
    own zones, not `others`); kept while the match keeps its zone lists (`zone_ids`)."""
    ids = m.zone_ids()
    kept = m._hiding
    if kept is not None and kept[0] is ids:
        return kept[1]
    out: tuple[set, set] = (set(), set())
    for z, value in zip(m.game.zones, m.Z):
        if z["visibility"] in ("owner", "hidden") and z["per"] in (None, "player", "key"):
            for zl in (value if z["per"] else [value]):
                out[0].add(id(zl))
                if z["visibility"] in UNSEEN:
                    out[1].add(id(zl))
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
    hiding, unseen = _hiding_zones(m)
    where, Z = m.where, m.Z
    grants = {x for g in m.grants for x in g.args if type(x) is int} if m.grants else ()
    own_zones = m.game.component_zones
    homes = set()                               # the zones the copies are played from

    def free(c) -> bool:
        """Never shown to anyone where it lies, and nothing else keeps it."""
        if c in m.known or c in grants:
            return False
        for z in own_zones:
            if Z[z][c]:
                return False
        return True

    by_class: dict = {}
    for c in played:
        zl = where[c]
        if zl is not None and id(zl) in hiding and free(c):
            by_class.setdefault(classes[c], []).append(c)
            homes.add(id(zl))

    def hidden(c) -> bool:
        """A copy the others cannot place: in a zone a copy is played from, or one no one sees."""
        zl = where[c]
        return zl is not None and (id(zl) in homes or id(zl) in unseen) and free(c)

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
    m.held = None                                # (neither was revealed to anyone: see free())


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
