"""Fair copies for bots: what a seat may know of a position (`sides`, `origins`) and copies of the
match with the unseen dealt again (`determinized`, `sampler`).

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations

from typing import TYPE_CHECKING

import random

from ..ir.flows import zone_flows
from .chance import aside
from .codegen.effects import Paused, follow_places
from .codegen.runtime_moves import Batch
from ..core.errors import RuleFault, RulelangError
from ..core.limits import WORK_LIMIT
from .records import Cut
from .views import seat_index
from .support import RULE_FAULTS
from .parts import MatchParts

if TYPE_CHECKING:
    from .match import Match


class MatchCopies(MatchParts):
    """What a seat may know of a position, and copies that deal the unseen again."""

    @aside
    def sides(self) -> list[str] | None:
        """The side each player plays (`side`), or None if the rules declare none."""
        fn = self.game.code.side
        if fn is None:
            return None
        saved = self.me
        out = []
        try:
            for p in range(self.players):
                self.me, self.work = p, WORK_LIMIT
                out.append(str(fn(self)))
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing the sides", err) from None
        finally:
            self.me = saved
        return out

    def determinized(self, player: int, seed) -> "Match":
        """A copy of this match as `player` might imagine it: each component `player` cannot see
        (in a hidden zone, in another player's `owner` zone, not revealed to them) changes places
        at random with the others they cannot see that were created in the same zone, and the
        copy gets a fresh random generator (future shuffles and dice are unknown). The copy
        depends only on what `player` may know and on `seed`, so a search bot that decides on
        such copies cannot cheat. Values of `hidden` variables are kept as they are.
        (`sampler(player)` makes many such copies of one position faster.)"""
        return self.sampler(player)(seed)

    def sampler(self, player: int):
        """A function seed -> `determinized(player, seed)` of this position as it is now."""
        player = seat_index(player, self.players)
        origins = self.origins()
        seen = self._seen_by(player)
        # components of a kind made in one zone may be anywhere the others of it are; and those
        # made elsewhere but lying unseen among them now (a card shuffled into a deck) too — "among
        # them" is the very zone, P2's deck, not every player's deck (P1's own unseen cards were
        # dealt into P2's hand, where each player's dice were a bag of faces of their own)
        parent: dict = {}

        def root(key):
            top = key
            while parent.setdefault(top, top) != top:
                top = parent[top]
            while key != top:                    # (each on the way points at the root: no long chains)
                parent[key], key = top, parent[key]
            return top
        unseen = []
        lost: dict = {}                          # kind -> zones holding unseen ones made who knows where
        for slot, (z, value) in enumerate(zip(self.game.zones, self.Z)):
            for family, zl in (enumerate(value) if z["per"] else [(None, value)]):
                for i, c in enumerate(zl):
                    if c not in seen:
                        kind = self.kinds[c]
                        made = (kind, origins[c] if origins[c] is not None else (z["name"],))
                        parent[root(made)] = root((kind, z["name"], family))
                        unseen.append(((slot, family, i), c, made))
                        if origins[c] is None:
                            lost.setdefault(kind, set()).add(z["name"])
        flows = zone_flows(self.game.ir)
        # a player's own hidden zone (a hand) and a zone a move of the rules names as where its
        # cards come from or go (`move top(deck) to hand[me]`): the unseen of both are one pool — a
        # copy's state restored (its seed, and so where its cards were made, is not kept) dealt each
        # hidden hand back to itself (a new author's Gin, 20 of 20). Only with a player's zone: the
        # moves join piles the rules keep apart by a field (a game's decks kept apart by colour)
        mine = {z["name"] for z in self.game.zones if z["visibility"] in ("owner", "others")}
        for kind, names in lost.items():
            names = sorted(names)
            for a in names:
                for b in names:
                    if a < b and (a in mine or b in mine) and (flows.plain(a, b, kind) or flows.plain(b, a, kind)):
                        parent[root((kind, (a,)))] = root((kind, (b,)))
        groups: dict = {}                        # a root -> the places of its unseen components
        for place, c, made in unseen:
            groups.setdefault(root(made), []).append((place, c))
        # what is unseen, not where it is, decides the copy: fair. Within a group, a component goes
        # only to a zone the rules can bring one of its kind made where it was made to (a group
        # joins two piles through a deck both feed: neither pile gets the other's cards)
        names = [z["name"] for z in self.game.zones]
        reach: dict = {}                         # (kind, zone made in) -> the zone names it may reach

        def reachable(kind, slot) -> frozenset:
            found = reach.get((kind, slot))
            if found is None:
                found = reach[(kind, slot)] = frozenset(x for x in set(names) if flows.may(names[slot], x, kind))
            return found

        def fit(c, z) -> bool:                   # may component c lie in zone z = (slot, family)?
            made = origins[c]
            return made is None or z == tuple(made) or names[z[0]] in reachable(self.kinds[c], made[0])
        kinds, labels, fields = self.kinds, self.labels, self.F

        def identity(c):                         # (what a card is, not which id it has: the ids of unseen
            return (str(kinds[c]), str(labels[c]), tuple(repr(col[c]) for col in fields), c)   # cards are
        plan = []                                # not seen either — a leak scan's twins, the same view with
        for key in sorted(groups, key=repr):     # the cards at fixed ids relabelled, were dealt otherwise)
            places = [place for place, _ in groups[key]]
            ids = sorted((c for _, c in groups[key]), key=identity)
            where = [(slot, family) for slot, family, _ in places]
            zones = set(where)
            named = {names[slot] for slot, _ in zones}
            # loose (any card anywhere in the group) unless a card may not reach one of its zones,
            # told by zone names first (cheap: a big board's thousands of places share a name)
            loose = all(origins[c] is None or named <= reachable(self.kinds[c], origins[c][0])
                        or all(fit(c, z) for z in zones) for c in ids)
            plan.append((places, [c for _, c in groups[key]], ids, None if loose else (where, fit)))
        pending = self.pending
        checks = self.game.checks

        def sample(seed) -> "Match":
            """A world dealt from `seed`; one where a `when` rule would end the game at once is dealt
            again (the seat sees the game going on: a deal of hidden roles with no role of one side,
            where the other side has already won, is no world it may imagine; nor one where the player
            to act is stuck), at most WORLD_TRIES times."""
            rng = random.Random(seed)
            for _ in range(WORLD_TRIES):
                m = deal(rng)
                if m.simul is not None:          # (nor one where a seat still to answer has no answer:
                    if _all_can_answer(m):      #  a new author's Avalon dealt a Good player two Fails)
                        break
                    continue
                if pending is not None or m.result is not None:
                    break
                # (nor one where the player to act has no move: the engine would have ended the
                # game by `on stuck` — a researcher's copies for a seat not to act were over at once
                # in 14 of 200, a hand that could not pay, and their views differed)
                if (not checks or not _decided_at_once(m, checks)) and _can_move(m):
                    break
            if pending is None and m.simul is None and m.result is None:
                _settled(m)
            return m

        def deal(rng) -> "Match":
            m = self.clone()
            m.own()
            Z, where = m.Z, m.where
            mapping = {}
            for places, olds, ids, bound in plan:
                ids = list(ids)
                rng.shuffle(ids)
                if bound is not None:
                    ids = _dealt(ids, *bound, rng) or ids
                for (slot, family, i), old, new in zip(places, olds, ids):
                    zl = Z[slot] if family is None else Z[slot][family]
                    zl[i] = new
                    where[new] = zl
                    mapping[old] = new
            m._by_text = None
            m.zone_info = None
            m.held = None
            follow_places(m, mapping)
            if m.known:
                m.known = {c: k for c, k in m.known.items() if c in seen}
            m._rng, m._rng_state = random.Random(rng.getrandbits(64)), None
            m.tape, m.ckpt = (), None             # chance given ahead of time is the future too
            m.seed = None                         # (the seed would tell the deal: replay the setup)
            m.setup_chance = ()                   # (so would the outcomes it was dealt by)
            m.drawn, m.drawn_from = (), 0         # (so would the shuffles the last action drew)
            if pending is not None and self.drawn:
                # (as many stand-ins as the paused chain drew before its question: answered, the copy
                # replays the real chain up to there, and its `chance_events` must begin after them —
                # they held the real setup's shuffles, which dealt the real decks again: a review)
                m.drawn = (DRAWN_BEFORE,) * len(self.drawn)
                m.drawn_from = len(self.drawn)
            if m.messages:                        # what was said to the others alone
                m.messages = [x for x in m.messages if isinstance(x, str) or player in x["to"]]
            if m.private:                         # answers the seat could not see: as it reads them
                m.log = m.log_for(player)
            if m.simul is not None:               # the others' secret answers: drawn again
                m._simul_hide(m, player, rng)
            if pending is not None:
                # The paused chain replays from its base as it really ran, up to the question it
                # waits for (what it did so far depended on the real cards: so does its replay).
                # There, a *cut* deals the unseen components as this copy has them and gives a
                # fresh generator: every later choice and draw meets the imagined world only.
                base = pending["base"].clone()
                base.seed, base.setup_chance = None, ()
                base.cuts = tuple(base.cuts) + (Cut(len(pending["answers"]), mapping, seen, rng.getrandbits(64)),)
                m.pending = dict(pending, base=base)
            return m
        return sample

    def origins(self) -> list:
        """Where each component was created: (zone slot, index in its family or None), or None
        where that is not known (a component created in play, in a restored match)."""
        n = len(self.labels)
        cached = self.origin_cache
        if cached is not None and len(cached) == n:
            return cached
        created = self.created
        if created is None and self.seed is None:   # a restored copy that keeps no seed: not known
            created = []
        elif created is None:                       # restored: a fresh match made them the same way
            fresh = self.game.new_match(self.players, self.seed, self.options,
                                        chance=list(self.setup_chance) or None)   # (the setup they dealt)
            for text in self.log:                   # a setup that waits for answers (a draft): it makes the
                if fresh.pending is None or fresh.pending.get("root") != ["start"]:     # rest once they
                    break                           # come (without them every origin was unknown, and a
                try:                                # search bot's copies of a restored drafted match dealt
                    fresh.apply(text)               # each hidden hand back to itself: a leak scan)
                except RulelangError:
                    break
            created = fresh.created if fresh.labels == self.labels[:len(fresh.labels)] else []
        assert created is not None                  # (a new match records them)
        out: list = []
        for entry in created:
            if isinstance(entry, Batch):        # a bulk creation
                out += [entry.dests[d] for d in entry.dest_of]
            else:
                out.append(entry.origin)
        out = (out + [None] * n)[:n]
        self.origin_cache = out
        return out


def _dealt(cards: list, where: list, fit, rng) -> list | None:
    """`cards` dealt to the places in zones `where` ((slot, family)), each to a zone it may lie in
    (`fit`), at random: each place in turn a random card of those left that fits, and where none
    is left, one taken from a place it was dealt to that another fitting card can fill (a matching
    grown by augmenting paths: the real position is one, so a deal always exists). None if not
    found (a group too large to search, or no deal: the caller keeps the plain shuffle)."""
    n = len(where)
    if n > _DEAL_LIMIT:
        return None
    # the cards each zone may take, shuffled once per zone (not once per place: a Battleship whose
    # placement cards lie one zone per player and ship asked ~800,000 `fit`s a world, 0.1 s — a new
    # author's trial); the places of one zone take them in that order, which deals them at random
    by_zone: dict = {}
    for z in where:
        if z not in by_zone:
            row = [c for c in cards if fit(c, z)]
            rng.shuffle(row)
            by_zone[z] = row
    able = [by_zone[z] for z in where]
    out: list = [None] * n
    holder: dict = {}                            # card -> the place it is dealt to

    first_free = {z: 0 for z in by_zone}        # (a card once dealt stays dealt: the places of a
                                                 # zone look for a free one from where the last stopped)

    def place(i: int) -> bool:
        """Deal place i a card: a free one of its zone's if any is left, else one moved from another
        place along a path of places that may take another."""
        z, row = where[i], able[i]
        free = first_free[z]
        while free < len(row) and row[free] in holder:
            free += 1
        first_free[z] = free
        if free < len(row):
            out[i] = row[free]
            holder[row[free]] = i
            return True
        path, tried = [(i, iter(able[i]))], {None}
        while path:
            j, options = path[-1]
            c = next((x for x in options if x not in tried), None)
            if c is None:
                path.pop()
                continue
            tried.add(c)
            k = holder.get(c)
            if k is None:                        # a free card: shift the path along and take it
                card = c
                for at, _ in reversed(path):
                    card, out[at] = out[at], card
                    holder[out[at]] = at
                return True
            path.append((k, iter(able[k])))
        return False
    order = sorted(range(n), key=lambda i: (len(able[i]), rng.random()))
    for i in order:
        if not place(i):
            return None
    return out


_DEAL_LIMIT = 3000       # places in one group dealt under the rules' flows at most (else a plain shuffle)


DRAWN_BEFORE = ("roll", 1, 1)  # a copy's stand-in for a draw its paused chain made (it tells nothing)
WORLD_TRIES = 16          # deals of one imagined world, where a `when` rule would hold at once


def _decided_at_once(m, checks) -> bool:
    """Would the game be over at once in this dealt copy of a position where it goes on: a `when`
    rule holds and, settled as the engine settles a position, the game ends? (A rule whose body
    leaves its condition true holds in the real position too: only the end counts, which the seat
    sees did not come.) A rule error there counts: it is no world to search."""
    saved, m.me = m.me, m.current
    m.work = WORK_LIMIT
    try:
        held = any(when(m) for when, _ in checks)
    except Exception:
        return True
    finally:
        m.me = saved
    if not held:
        return False
    trial = m.clone()                         # (settled on lists of its own: m is left as dealt)
    trial.own()
    trial.work = WORK_LIMIT
    try:
        trial._settle(None)
    except BaseException as err:              # (a question: the game goes on; a rule error: no world)
        if not isinstance(err, (Exception, Paused)):
            raise
        return not isinstance(err, Paused)
    return trial.result is not None


def _all_can_answer(m) -> bool:
    """At a simultaneous decision: has every seat still to answer an answer in this dealt copy?"""
    try:
        return all(m.legal_actions_of(p) for p, a in zip(m.simul.seats, m.simul.answers) if a is None)
    except Exception:
        return False


def _can_move(m) -> bool:
    """Has the player to act a legal action in this dealt copy? (A rule error: no world to search.)"""
    try:
        return bool(m.legal_actions())
    except Exception:
        return False


def _settled(m) -> None:
    """A dealt copy whose player to act has no legal action in the world it imagines (a hand that
    cannot pay, where the real one can) is settled as the engine settles every position: its
    `when` rules and `on stuck` run, so the copy is over, or has actions again. (A rule that would
    stop for a question there leaves the copy as it is.)"""
    if m.legal_actions():
        return
    trial = m.clone()                         # (settled on lists of its own: a failure leaves m whole)
    trial.own()
    trial.work = WORK_LIMIT
    try:
        trial._settle(None)
    except BaseException as err:              # (a question, or a rule error in the imagined world)
        if not isinstance(err, (Exception, Paused)):
            raise
        return
    m.__dict__.clear()
    m.__dict__.update(trial.__dict__)
