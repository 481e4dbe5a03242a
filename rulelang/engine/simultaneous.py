"""Simultaneous decisions: a step every player of a list answers in secret (`step NAME simultaneous`).

When the flow rests on such a step, each seat asked gets its own legal actions, listed from the same
position (`me` is that seat); a seat with none is not asked. Answers are *committed*: kept in
`simul` (records.OpenDecision: step, seats, answers) and nowhere else — not in the log, not in any
view but the answering seat's own, not in a determinized copy made for another seat. The actor
(`current_player`) is the first seat in the list still to answer, so a front end that asks one seat
at a time asks them in that order; `apply("P3: TEXT")` commits P3's answer out of that order (what a
networked table or PettingZoo's parallel API does). A commit changes nothing else in the position.

The last answer reveals them all: one chain (`["simul", step, [[seat, text], …]]`, replayed like any
paused action) logs `P1: TEXT`, `P2: TEXT`… and runs each answer's action in the list's order with
`me` its seat (each as it was chosen: the actions were bound before any runs), then the step's
`reveal` block (`me` whose turn it is). A `goto`/`end turn` of an answer is kept (the first one);
the `reveal` block's own overrides it; neither: the step is asked again. A failure in any of it
changes nothing: the last commit is undone with it.

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations

import random

from .alike import _renamed, untraceable
from .chance import list_in_position
from .codegen import player_text
from .codegen.effects import _shown_to, _zone_info, drain, known_to, seen_by, seen_by_all, seen_where, widen_private
from ..core.errors import IllegalAction, RuleFault, StateError
from ..core.limits import WORK_LIMIT
from .support import RULE_FAULTS, _short, _text
from .parts import MatchParts
from .views import seat_index
from .records import OpenDecision


def _seat_prefix(text: str):
    """(seat, rest) of `P3: TEXT`, or (None, text)."""
    head, sep, rest = text.partition(": ")
    digits = head[1:]
    if not sep or head[:1] != "P" or not (digits.isascii() and digits.isdigit()) or len(digits) > 3:
        return None, text
    return int(digits) - 1, rest


class MatchSimultaneous(MatchParts):
    """Steps several players answer at once, in secret; revealed together."""

    # (its state, `simul`: an OpenDecision or None, is declared in parts.py)

    # ---- opening one (Match._settle) ----
    def _simul_seats(self, step: str) -> list:
        """Who is asked at this simultaneous step: its `by` list, else every player still in."""
        seats_fn = self.game.code.simultaneous[step][0]
        if seats_fn is None:
            out = [p for p in range(self.players) if not (self.game.sequenced and self.seq[2][p])]
        else:
            self.me = self.current
            out = seats_fn(self)
            if not isinstance(out, list) or any(type(p) is not int or not 0 <= p < self.players for p in out):
                self._fail(None, f"the players who answer step `{step}` must be a list of players, "
                                 f"not {_short(out)}")
            if len(set(out)) != len(out):
                self._fail(None, f"a player is named twice among those who answer step `{step}`")
        return out

    def _listing_of(self, seat: int) -> dict:
        """The legal actions of `seat` at the simultaneous step, by text (the actor is put back;
        listed texts are distinct, see runtime._told_apart)."""
        actor, listed = self.actor, self._by_text
        if self.intern is None:
            self.intern = self.game.universe(self)
        self.actor = self.me = seat
        self.work = WORK_LIMIT
        try:
            return {a.text: a for a in list_in_position(self, self.game.steps[self.step][2])}
        finally:
            self.actor, self._by_text = actor, listed
            self.me = actor

    def _listing_for(self, seat: int) -> dict:
        """`_listing_of` outside an effect: a fault of the rules is a rule error (file and line)."""
        try:
            return self._listing_of(seat)
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("listing the legal actions", err) from None

    def _open_simultaneous(self) -> bool:
        """At a simultaneous step: ask every seat that has a legal action. False if none has one
        (then `on stuck` decides, `me` whose turn it is)."""
        step = self.step
        asked, first = [], None
        for p in self._simul_seats(step):
            out = self._listing_of(p)
            if out:
                asked.append(p)
                first = out if first is None else first
        if not asked:
            self.actor = self.current
            return False
        self.simul = OpenDecision(step, tuple(asked), (None,) * len(asked))
        self.actor = self.me = asked[0]
        self._by_text = list(first.values())    # type: ignore[union-attr]  # (asked: the first one's listing)
        return True

    # ---- answering (Match.apply) ----
    def _commit(self, text: str, given: int | None = None) -> bool:
        """One seat's answer (the actor's, `given`'s, or the one `P3: TEXT` names): kept in
        secret, or, the last one, all revealed and run (True: what it revealed ran)."""
        assert self.simul is not None           # (apply: a decision is open)
        step, seats, answers = self.simul.step, self.simul.seats, self.simul.answers
        self.legal_actions()
        if given is not None:
            if (type(given) is not int or given not in seats or answers[seats.index(given)] is not None
                    or text not in (_texts(self._by_text)      # type: ignore[arg-type]  # (listed)
                                    if given == self.actor else self._listing_for(given))):
                raise IllegalAction(f"`{_text(text, 200)}` is not a legal action of "
                                    f"{player_text(given) if type(given) is int else _short(given)} now")
            seat, answer = given, text
        elif text in _texts(self._by_text):     # type: ignore[arg-type]  # the actor's own answer (listed)
            seat, answer = self.actor, text
        else:                                   # `P3: TEXT`: P3's, whoever is the actor
            seat, answer = _seat_prefix(text)
            if (seat not in seats or answers[seats.index(seat)] is not None
                    or answer not in self._listing_for(seat)):
                raise IllegalAction(f"`{_text(text, 200)}` is not a legal action now")
        i = seats.index(seat)
        answers = answers[:i] + (answer,) + answers[i + 1:]
        if None in answers:                     # not everyone yet: nothing else changes
            self.simul = OpenDecision(step, seats, answers)
            actor = seats[answers.index(None)]
            if actor != self.actor:
                self.actor, self._by_text = actor, None
            return False
        root = ["simul", step, [[p, a] for p, a in zip(seats, answers)]]
        self._resume(self._before(), root, [], f"revealing the answers at step `{step}`", here=True)
        return True

    def _reveal(self, step: str, pairs: list) -> None:
        """Run every answer's action (bound from the position they were chosen in), then `reveal`."""
        if self.simul is None or self.simul.step != step or self.step != step:
            raise RuleFault(f"no simultaneous decision is open at step `{step}`")
        seats, answers = self.simul.seats, self.simul.answers
        if ([p for p, _ in pairs] != list(seats) or answers.count(None) != 1
                or any(a is not None and a != text for a, (_, text) in zip(answers, pairs))):
            raise RuleFault(f"the answers revealed at step `{step}` are not those given")
        self.simul = None
        found = []
        for p, text in pairs:
            action = self._listing_of(p).get(text)
            if action is None:
                raise RuleFault(f"`{text}` is not a legal answer of {player_text(p)} at step `{step}`")
            found.append((p, text, action))
        self._by_text = None
        self.work = WORK_LIMIT                  # (the answers and `reveal` are one effect)
        signal = None
        answerer = {}                           # log index -> the seat of the answer logged there
        for p, text, action in found:           # all revealed at once, before any of them runs
            self.log.append(f"{player_text(p)}: {text}")
            answerer[len(self.log) - 1] = p
            self._private_answer(step, p, action, len(self.log) - 1)
        now: dict = {}                          # (copies exchanged so far: alike.py)
        for p, text, action in found:
            self.actor = self.me = p
            action = untraceable(self, action, now)     # (copies from hidden zones: see alike.py)
            named = len(self.named)
            got = action._fn(self, action._args)
            for at, _ in self.named[named:]:    # (a choice its action asked: its player's too — a review
                answerer.setdefault(at, p)      #  found one never read by all, laid in its own tableau)
            if self.trig:
                got = drain(self) or got
            if self.result is not None:
                break
            signal = signal or got
        if now and self.named:                  # (the answers' cards by the ids they have now)
            self.named = [(at, _renamed(c, now)) for at, c in self.named]
        answered = []
        if self.named:                          # (what the answers laid face up was seen, whatever
            widen_private(self, keep=True)      #  the `reveal` block does with it next)
            # and only that, and what the `reveal` block lays in its answerer's own place: a card it
            # lays out elsewhere does not tell whose answer it was (a new author's Dixit: the given
            # cards, moved to the table in a random order, were each logged to all as `P2: give …`)
            answered, self.named = self.named, []
        if self.result is None:
            self.me = self.current
            got = self.game.code.simultaneous[step][1](self)
            if self.trig:
                got = drain(self) or got
            signal = got or signal
        if answered:
            _widen_owned(self, answered, answerer)
        self._by_text = None
        self._settle(signal)

    def _private_answer(self, step: str, seat: int, action, at: int) -> None:
        """An answer that names components some seat cannot see (a card picked from one's own hand)
        is logged as private to its player and those who can see them, as a choice's answer is: a
        drafted card stays secret. When the chain ends, seats that can see it by then (it was laid
        face up) may read it too (effects.widen_private)."""
        flags = self.game.__dict__.setdefault("_simul_comp_params", {}).get((step, action._meta[0]))
        if flags is None:
            decl = next(a for s in self.game.ir["steps"] if s["name"] == step
                        for a in s["actions"] if a["name"] == action._meta[0])
            flags = self.game._simul_comp_params[(step, action._meta[0])] = [p.get("show") in ("comp", "comp_or_player")
                                                                             for p in decl["params"]]
        comps = [c for flag, arg in zip(flags, action._args) if flag
                 for c in (arg if isinstance(arg, (list, tuple)) else [arg]) if type(c) is int]
        if not comps:
            return
        seats = [q for q in range(self.players) if q == seat or all(seen_by(self, c, q) for c in comps)]
        if len(seats) < self.players:
            self.private = {**self.private, at: seats}
            self.named = self.named + [(at, comps[0] if len(comps) == 1 else tuple(comps))]

    @property
    def simultaneous(self) -> dict | None:
        """The simultaneous decision open now, as everyone may know it: {"step", "seats"} (who is
        asked, in order), or None. Who has answered, and what, it does not say."""
        if self.simul is None or self.result is not None:
            return None
        return {"step": self.simul.step, "seats": list(self.simul.seats)}

    def legal_actions_of(self, player: int) -> list:
        """The actions `player` may take now: during a simultaneous decision, its answers while
        it has still to answer (play one with `apply(action, seat=player)`, in any order);
        otherwise the legal actions if `player` is the one to act, else none."""
        player = seat_index(player, self.players)   # (no seat 7: an error, not none — an AI researcher's trial)
        if self.result is not None:
            return []
        if self.simul is None:
            return self.legal_actions() if player == self.current_player else []
        seats, answers = self.simul.seats, self.simul.answers
        if player not in seats or answers[seats.index(player)] is not None:
            return []
        if player == self.actor:
            return self.legal_actions()
        return list(self._listing_for(player).values())

    # ---- what others may know ----
    def _simul_view(self, player: int) -> dict:
        """A seat's view of an open simultaneous decision: who is asked (the rules say it), its own
        answer if it gave one; never who else has answered, nor what."""
        assert self.simul is not None           # (view: a decision is open)
        seats = self.simul.seats
        mine = self.simul.answers[seats.index(player)] if player in seats else None
        return {"simultaneous": {"step": self.simul.step, "seats": list(seats), "answer": mine,
                                 "to_answer": player in seats and mine is None}}

    def _simul_hide(self, m, player: int, rng: random.Random) -> None:
        """In a copy made for `player` (determinized): the others' committed answers are not known
        to `player`, so each is drawn again at random among that seat's legal actions."""
        seats = m.simul.seats
        fresh = []
        for p, a in zip(seats, m.simul.answers):
            if p == player or a is None:
                fresh.append(a)
                continue
            options = list(m._listing_for(p))
            fresh.append(options[rng.randrange(len(options))] if options else None)
        m.simul = m.simul._replace(answers=tuple(fresh))
        m.actor = seats[fresh.index(None)] if None in fresh else m.actor
        m._by_text = None

    # ---- saves ----
    def _simul_state(self) -> dict:
        if self.simul is None:
            return {}
        d = self.simul
        return {"simultaneous": {"step": d.step, "seats": list(d.seats), "answers": list(d.answers)}}

    def _restore_simultaneous(self, raw) -> None:
        """A position at a simultaneous step: open it as the rules do, then put back the answers
        committed so far (each must be legal for its seat; the actor the first still to answer)."""
        given_actor = self.actor
        if not self._open_simultaneous():
            if raw is not None:
                raise StateError(f"nobody can answer step `{self.step}` in this position")
            return
        assert self.simul is not None           # (opened)
        if raw is None:
            raw = {"step": self.step, "seats": list(self.simul.seats), "answers": [None] * len(self.simul.seats)}
        if not isinstance(raw, dict) or set(raw) != {"step", "seats", "answers"}:
            raise StateError("`simultaneous` must be {\"step\", \"seats\", \"answers\"}")
        step, seats = self.simul.step, self.simul.seats
        if raw["step"] != step or raw["seats"] != list(seats):
            raise StateError(f"at step `{step}` the players asked are {[player_text(p) for p in seats]}")
        given = raw["answers"]
        if not (isinstance(given, list) and len(given) == len(seats)
                and all(a is None or isinstance(a, str) for a in given)) or None not in given:
            raise StateError("`simultaneous.answers` must give a text or null per player asked, one null at least")
        for p, a in zip(seats, given):
            if a is not None and a not in self._listing_of(p):
                raise StateError(f"{_short(a)} is not a legal answer of {player_text(p)} at step `{step}`")
        self.simul = OpenDecision(step, seats, tuple(given))
        self.actor = actor = seats[given.index(None)]
        if given_actor != actor:
            raise StateError(f"at step `{step}` the actor must be {player_text(actor)}, "
                             f"the first player still to answer")
        self._by_text = None

    def _simul_actor(self, player: int):
        """`view(p)["actor"]` while a simultaneous decision is open: p, if p has still to answer;
        else None (who else has answered is no one's business)."""
        assert self.simul is not None           # (view: a decision is open)
        seats = self.simul.seats
        return player if player in seats and self.simul.answers[seats.index(player)] is None else None


def _texts(listed: list) -> set:
    """The texts of a listing (a list of actions)."""
    return {a.text for a in listed}


def _widen_owned(m, answered: list, answerer: dict) -> None:
    """After a simultaneous step's `reveal` block: a private answer whose cards now lie face up in
    its answerer's own place (`tableau[p]`: whose each is, the table says) is read by the seats
    that see them there; one laid out anywhere else stays private (whose it was is not told)."""
    info = _zone_info(m)
    private = dict(m.private)
    for at, c in answered:
        seats = private.get(at)
        if seats is None or at not in answerer:
            continue
        cs = c if type(c) is tuple else (c,)
        owned = all((info.get(id(m.where[x])) or (None, None))[1] == answerer[at] for x in cs)
        if not owned:
            continue
        # (seen there, or shown there by a `reveal` — to all, or to a seat in this chain: a ballot revealed
        # in its caster's own zone read "(a secret choice)" beside `revealed: vote 2` — a review)
        openly = known_to(m, None) if m.known else {}
        seats = [p for p in range(m.players)
                 if p in seats or all(x in openly or seen_where(m, x, p) or _shown_to(m, x, p) for x in cs)]
        if len(seats) == m.players and all(x in seen_by_all(m) for x in cs):
            del private[at]
        else:
            private[at] = seats
    m.private = private
