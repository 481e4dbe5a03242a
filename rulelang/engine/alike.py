"""Copies that cannot be followed through a hidden zone.

Two components of one kind with the same label and fields are copies: nothing the rules read tells
them apart, so an action on one (`play Walker`) stands for all of them in its zone, and the engine
plays one. Which one used to be a fixed pick, and every view shows the id played: a player who had
watched copy #69 go back into a hand and then saw #68 played learnt that #69 was still there, a card
they never saw drawn (a leak scan: 102 such plays in 40 random games of a card game).

So when an action (or a simultaneous step's answer) plays copies from a zone that not everyone may
see (a hand), the engine first exchanges them with the copies of lowest id among that zone's and
those no one at all may see (a `hidden` deck), made in the same zone, in no other player's zone (a
player's own deck, never another's): the id
that comes out is then the lowest of the copies the other players cannot place, whichever the hand
held. A copy in the hand that someone was shown is played rather than an unseen one beside it. The
exchange renames the two copies everywhere the position keeps them — places, per-component
variables, variables naming the components — before the action's effect runs, so a replay makes the
same exchange. (Where the engine takes copies in id order — the abilities of copies in play — the
two may then come in the other order: either is the rules'.) Copies another player holds, or that
someone was shown, are never exchanged: that player would see their card's id change, and learn
which copy was played. Nor are copies a component's field names, or whose making place is not known.

Not covered: copies chosen as the answer to a question (an effect may hold other components in its
locals by then); a parameter typed `Card or player` (its numbers may be players); copies in `others`
zones, on a board's cells or inside other components; and what the exchange leaves in a `hidden`
zone — a copy exchanged into the deck shows its id when it is drawn, which tells which copy the hand
had played. With three players or more, a copy a third player holds is no candidate, so the id
played may tell the others that one of theirs is lower.
"""
from __future__ import annotations

from .codegen.runtime_actions import Action, _alike_of, _copies

UNSEEN = ("hidden",)             # zone visibilities whose contents no one at the table sees


def _hiding_zones(m) -> tuple[set, set, dict]:
    """The ids of this match's zone lists whose contents not everyone may see, and of those whose
    contents no one sees (of the ones the exchange may touch: not a board's cells, not a component's
    own zones, not `others`), and the player whose list each one per player is. Made afresh each
    time from the few slots they are (`zone_ids`, over every zone, per-component families too, was
    rebuilt after each copy of the lists)."""
    slots = m.game.__dict__.get("_hiding_slots")
    if slots is None:                           # (slot, its family, no one sees it), once per game
        slots = m.game._hiding_slots = [(i, z["per"], z["visibility"] in UNSEEN)
                                        for i, z in enumerate(m.game.zones)
                                        if z["visibility"] in ("owner", "hidden") and z["per"] in (None, "player", "key")]
    out: tuple[set, set, dict] = (set(), set(), {})
    Z = m.Z
    for slot, family, nobody in slots:
        for k, zl in (enumerate(Z[slot]) if family else ((None, Z[slot]),)):
            out[0].add(id(zl))
            if nobody:
                out[1].add(id(zl))
            if family == "player":
                out[2][id(zl)] = k
    return out


def untraceable(m, found: Action, now: dict | None = None) -> Action:
    """`found`, about to be played, with the copies it plays from zones not everyone sees
    exchanged for the lowest such copies (see the module's docstring): the same action, or one
    bound to the exchanged ids. `now`: for several actions listed before any is played (a
    simultaneous step's answers), each original id -> the id it has after the exchanges so far
    (read, and kept up to date)."""
    if found._plain:                            # (the hot path: an action already found to name none)
        return found
    shows = m.game.comp_params.get(found._fn)
    if shows is None:
        found._plain = True
        return found
    if m.intern is None:                        # (as a listing would: the universe of its components)
        m.intern = m.game.universe(m)
    classes = _alike_of(m)[1]                   # (this match's universe and its copies)
    if not classes:
        found._plain = True
        return found
    args = found._args
    if not now:                                 # (the usual case, quickly: no copy among the arguments)
        keys = classes.keys()
        for on, v in zip(shows, args):
            if on and (v in keys if type(v) is int else isinstance(v, (tuple, list)) and not keys.isdisjoint(v)):
                break
        else:
            found._plain = True
            return found
    return _exchanged(m, found, shows, classes, args, now)


def _exchanged(m, found: Action, shows: tuple, classes: dict, args: tuple, now: dict | None) -> Action:
    """untraceable's work where the action names copies."""
    if now:
        args = tuple(_renamed(v, now) if on else v for on, v in zip(shows, args)) + args[len(shows):]
    played: list = []
    for on, v in zip(shows, args):
        if not on:
            continue
        for x in (v,) if type(v) is int else v if isinstance(v, (tuple, list)) else ():
            if type(x) is int and x in classes and x not in played:     # (one copy named twice: once)
                played.append(x)
    if not played:
        return found if args is found._args else Action(found.text, found._fn, args, found._meta)
    hiding, unseen, seat_of = _hiding_zones(m)
    where, Z = m.where, m.Z
    kept = {x for g in m.grants for x in g.args if type(x) is int} if m.grants else set()
    kept |= _named_by_fields(m)                 # (a field naming it: `Tag { of: Card }`)
    own_zones = m.game.component_zones
    # (where each was made: known to a match with a seed, and to its restored saves alike — a match
    # with none, and a bot's imagined copy, make no exchange: restored, it could not know them, and
    # a save went on otherwise than the match it was made from)
    origins = _origins(m) if m.seed is not None else []

    def free(c) -> bool:
        """Never shown to anyone where it lies, and nothing else keeps it."""
        if c in m.known or c in kept:
            return False
        for z in own_zones:
            if Z[z][c]:
                return False
        return True

    renaming: dict = {}
    taken = set(played)                         # (each id played once: two copies never become one)
    by_class: dict = {}
    for c in played:
        zl = where[c]
        if zl is None or id(zl) not in hiding:
            continue
        if c in m.known:
            continue
        # a copy beside it that someone was shown, the same in all else: that one is played (it
        # comes out as everyone who saw it expects; the other stays unseen — a leak scan)
        shown = next((t for t in classes[c] if where[t] is zl and t in m.known and t not in taken
                      and _copies(m, c, t)), None)
        if shown is not None:
            renaming[c] = shown
            taken.add(shown)
            continue
        origin = _origin(origins, c)
        if free(c) and origin is not None:      # (where it was made not known: no exchange)
            by_class.setdefault((classes[c], origin), []).append(c)
    for (members, origin), cs in by_class.items():
        homes = {id(where[c]) for c in cs}
        seats = {seat_of.get(h) for h in homes}

        def hidden(t) -> bool:
            """A copy the others cannot place, made where the played ones were, in no other player's
            zone (a player's deck: never another's, even where all are dealt from one supply — a new
            author's deck-builder played another's Copper; nor their reserve the rules never empty — a bot deals its imagined worlds by
            where cards were made: a leak scan's bots dealt impossible decks in 48 of 200 worlds)."""
            zl = where[t]
            if zl is None:
                return False
            key = id(zl)
            return ((key in homes or key in unseen and (key not in seat_of or seat_of[key] in seats))
                    and free(t) and _origin(origins, t) == origin)
        targets = []
        for t in members:                       # (ids in order: the lowest first)
            if (t not in taken or t in cs) and t not in renaming and hidden(t):
                targets.append(t)
                if len(targets) == len(cs):
                    break
        gone = sorted(c for c in cs if c not in targets)
        come = [t for t in targets if t not in cs]
        for a, b in zip(gone, come):
            _exchange(m, a, b)
            renaming[a], renaming[b] = b, a
            if now is not None:
                _follow(now, a, b)
    if renaming:
        args = tuple(_renamed(v, renaming) if on else v for on, v in zip(shows, args)) + args[len(shows):]
    if len(played) > 1:                         # (one copy named: nothing to put in order)
        ordered = _in_order(m, args, shows, classes)
        if ordered != args:
            args = ordered
    return found if args is found._args else Action(found.text, found._fn, args, found._meta)


def _in_order(m, args: tuple, shows: tuple, classes: dict) -> tuple:
    """The copies of one class in one zone among the arguments, lowest id first in the parameters'
    order: which copy is `a` and which `b` was the listing's (the hand's order, a secret), and a
    table laid `a` then `b` told it (a leak scan). (In one zone only: `a` from the hand and `b` from
    the table are not the same choice.)"""
    places = [(i, j) for i, (on, v) in enumerate(zip(shows, args)) if on
              for j in ((None,) if type(v) is int else range(len(v)) if isinstance(v, (tuple, list)) else ())]
    value = {p: (args[p[0]] if p[1] is None else args[p[0]][p[1]]) for p in places}
    groups: dict = {}
    for p in places:
        c = value[p]
        if type(c) is int and c in classes:
            groups.setdefault((classes[c], id(m.where[c])), []).append(p)
    for ps in groups.values():
        first = value[ps[0]]
        if len(ps) > 1 and all(value[p] == first or _copies(m, first, value[p]) for p in ps[1:]):
            for p, c in zip(ps, sorted(value[p] for p in ps)):
                value[p] = c
    out = list(args)
    for i, (on, v) in enumerate(zip(shows, args)):
        if on and isinstance(v, (tuple, list)):
            out[i] = type(v)(value[(i, j)] for j in range(len(v)))
        elif on and type(v) is int:
            out[i] = value[(i, None)]
    return tuple(out)


def _origins(m) -> list:
    """Where each component was made (`Match.origins`), kept with the universe's copies: the same
    for every match made the same way (a new match worked them out again at its first exchange)."""
    kept = m.game.alike_classes
    got = kept.get(id(m.intern))
    if got is not None and got[0] is m.intern and len(got) > 2:
        return got[2]
    origins = m.origins()
    if got is not None and got[0] is m.intern and m.created is not None:   # (a restored match's are
        kept[id(m.intern)] = got + (origins,)                              #  worked out by content)
    return origins


def _origin(origins: list, c: int) -> tuple | None:
    """Where c was made, (zone slot, family member), or None where that is not known."""
    made = origins[c] if c < len(origins) else None
    return tuple(made) if made is not None else None


def _named_by_fields(m) -> set:
    """The components a component field names (`of: Card`): not to be exchanged, the field would
    name the other copy."""
    cols = m.game.__dict__.get("_comp_columns")
    if cols is None:
        types = m.game.field_types
        cols = m.game._comp_columns = [j for j, name in enumerate(m.game.columns)
                                       if any("comp" in t.get(name, "") or "any" in t.get(name, "")
                                              for t in types.values())]
    out: set = set()
    for j in cols:
        for v in m.F[j]:
            if type(v) is int:
                out.add(v)
            elif isinstance(v, (list, tuple)):
                out.update(x for x in v if type(x) is int)
    return out


def _follow(now: dict, a: int, b: int) -> None:
    """`now` (original id -> id now) after the ids a and b were exchanged."""
    back = {v: k for k, v in now.items()}
    oa, ob = back.get(a, a), back.get(b, b)
    now[oa], now[ob] = b, a


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
