"""Fair copies for bots: what a seat may know of a position (`sides`, `origins`) and copies of the
match with the unseen dealt again (`determinized`, `sampler`).

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations

from typing import TYPE_CHECKING

import random

from ..ir.flows import zone_flows
from .chance import aside
from .codegen.effects import Paused
from .codegen.runtime_moves import Batch
from ..core.errors import RuleFault
from ..core.limits import WORK_LIMIT
from .records import Cut
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
        if not 0 <= player < self.players:
            raise ValueError(f"no player {player} in a {self.players}-player match")
        origins = self.origins()
        seen = self._seen_by(player)
        # components of a kind made in one zone may be anywhere the others of it are; and those
        # made elsewhere but lying unseen among them now (a card shuffled into a deck) too — "among
        # them" is the very zone, P2's deck, not every player's deck (P1's own unseen cards were
        # dealt into P2's hand, where each player's dice were a bag of faces of their own)
        parent: dict = {}

        def root(key):
            while parent.setdefault(key, key) != key:
                key = parent[key]
            return key
        unseen = []
        for slot, (z, value) in enumerate(zip(self.game.zones, self.Z)):
            for family, zl in (enumerate(value) if z["per"] else [(None, value)]):
                for i, c in enumerate(zl):
                    if c not in seen:
                        kind = self.kinds[c]
                        made = (kind, origins[c] if origins[c] is not None else (z["name"],))
                        parent[root(made)] = root((kind, z["name"], family))
                        unseen.append(((slot, family, i), c, made))
        groups: dict = {}                        # a root -> the places of its unseen components
        for place, c, made in unseen:
            groups.setdefault(root(made), []).append((place, c))
        # what is unseen, not where it is, decides the copy: fair. Within a group, a component goes
        # only to a zone the rules can bring one of its kind made where it was made to (a group
        # joins two piles through a deck both feed: neither pile gets the other's cards)
        flows = zone_flows(self.game.ir)
        names = [z["name"] for z in self.game.zones]
        plan = []
        for key in sorted(groups, key=repr):
            places = [place for place, _ in groups[key]]
            ids = sorted(c for _, c in groups[key])
            where = [(slot, family) for slot, family, _ in places]
            fits = {}                            # component -> the zones of this group it may lie in
            for c in ids:
                made = origins[c]
                fits[c] = {z for z in set(where) if made is None or z == tuple(made)
                           or flows.may(names[made[0]], names[z[0]], self.kinds[c])}
            loose = all(len(f) == len(set(where)) for f in fits.values())
            plan.append((places, [c for _, c in groups[key]], ids, None if loose else (where, fits)))
        pending = self.pending

        def sample(seed) -> "Match":
            rng = random.Random(seed)
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
            if m.known:
                m.known = {c: k for c, k in m.known.items() if c in seen}
            m._rng, m._rng_state = random.Random(rng.getrandbits(64)), None
            m.tape, m.ckpt = (), None             # chance given ahead of time is the future too
            m.seed = None                         # (the seed would tell the deal: replay the setup)
            m.drawn, m.drawn_from = (), 0         # (so would the shuffles the last action drew)
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
                base.seed = None
                base.cuts = tuple(base.cuts) + (Cut(len(pending["answers"]), mapping, seen, rng.getrandbits(64)),)
                m.pending = dict(pending, base=base)
            elif m.simul is None and m.result is None:
                _settled(m)
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
            fresh = self.game.new_match(self.players, self.seed, self.options)
            created = fresh.created if fresh.labels == self.labels[:len(fresh.labels)] else []
        assert created is not None                  # (a new match records them)
        out: list = []
        for entry in created:
            if isinstance(entry, int):          # a bulk creation's serial
                batch = Batch.by_serial.get(entry)
                if batch is None:
                    break
                out += [batch.dests[d] for d in batch.dest_of]
            else:
                out.append(entry.origin)
        out = (out + [None] * n)[:n]
        self.origin_cache = out
        return out


def _dealt(cards: list, where: list, fits: dict, rng, tries: int = 8) -> list | None:
    """`cards` (shuffled) dealt to places in zones `where` ((slot, family)), each to a zone it `fits`: the places
    with the fewest candidates first, each a random one of those left. None if `tries` deals all
    came to a place no card left fits (the caller keeps the plain shuffle)."""
    order = sorted(range(len(where)), key=lambda i: (sum(where[i] in fits[c] for c in cards), i))
    for _ in range(tries):
        left = list(cards)
        out: list = [None] * len(where)
        for i in order:
            able = [c for c in left if where[i] in fits[c]]
            if not able:
                break
            c = able[rng.randrange(len(able))]
            left.remove(c)
            out[i] = c
        else:
            return out
        rng.shuffle(cards)
    return None


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
