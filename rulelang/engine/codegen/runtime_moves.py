"""Run-time helpers of generated code that move components: one, a list or a whole zone, onto
the top or bottom of a zone, and creations batched into zones; each charged to the action's work.
"""
from __future__ import annotations

from .runtime import _charge, _fault, _overworked, as_items
from ...core.limits import COMPONENT_LIMIT
from ..records import Created


def _move(m, what, dest, bottom: bool) -> None:
    """Move a component, a list of them or a whole zone (in its order) onto `dest`. Each component
    is charged (m.work) as the zones it is taken from and put under are long."""
    items = list(as_items(what))
    where = m.where
    if m.held is not None:                     # (what was kept about cards in play: effects._held)
        m.held = None
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


def _move_all(m, what: list, dest, bottom: bool) -> None:
    """`_move(m, what, dest, bottom)` where `what` is a zone's own list (every component in it lies
    there: `move stack[a] to stack[b]`), fast path `zonemove`: the same order, the same `where`, the
    same work charged — each component as long as the zone it leaves then is (k, k-1, …, 1) and, at
    the bottom, as the zone it goes under — without a copy of the list and a removal per component."""
    k = len(what)
    if what is dest or not k:                  # (onto itself, or nothing: as `_move` does it)
        return _move(m, what, dest, bottom)
    if m.held is not None:                     # (what was kept about cards in play: effects._held)
        m.held = None
    n = k + k * (k + 1) // 2
    if bottom:                                 # (one by one under the zone: the last one lowest)
        n += k * len(dest) + k * (k - 1) // 2
        dest[0:0] = what[::-1]
    else:
        dest += what
    where = m.where
    for c in what:
        where[c] = dest
    del what[:]
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
    if m.held is not None:                     # (what was kept about cards in play: effects._held)
        m.held = None
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
    if m.held is not None:                     # (what was kept about cards in play: effects._held)
        m.held = None
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

    def __init__(self, entries: list, ncols: int, caps: list):
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
        if m.held is not None:                 # (what was kept about cards in play: effects._held)
            m.held = None
        m.kinds += self.kinds
        m.labels += self.labels
        for col, vals in zip(m.F, self.cols):
            col += vals
        Z = m.Z
        ids = self._ids.get(c0) or self.ids(c0)
        if len(ids) == 1:                      # one destination (the usual case): no list of them
            (slot, idx), = self.dests
            z = Z[slot] if idx is None else Z[slot][idx]
            (bottom, top), = ids
            if bottom:
                z[0:0] = bottom
            if top:
                z += top
            m.where += [z] * len(self.kinds)
            zs = (z,)
        else:
            zs = [Z[slot] if idx is None else Z[slot][idx] for slot, idx in self.dests]   # type: ignore[assignment]
            for z, (bottom, top) in zip(zs, ids):
                if bottom:
                    z[0:0] = bottom
                if top:
                    z += top
            m.where += [zs[d] for d in self.dest_of]
        if m.comp_defaults:
            for slot, value in m.comp_defaults:
                m.V[slot].extend([value] * len(self.kinds))
        if m.game.component_zones:
            for slot in m.game.component_zones:
                Z[slot].extend([] for _ in self.kinds)
        if self.capped:
            caps = m.game.slot_caps
            for z, (slot, _) in zip(zs, self.dests):
                if caps[slot] is not None:
                    _over(z, *caps[slot])
        if m.created is not None:              # (the batch itself: its serial alone was looked up in
            m.created.append(self)             #  a weak table, and a batch not cached was gone)
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
    if m.held is not None:                     # (what was kept about cards in play: effects._held)
        m.held = None
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
        m.created.append(Created(kind, row, m.labels[c], key if key is not None else _zone_key(m, dest)))
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
