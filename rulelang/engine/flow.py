"""The flow of a match: setting up its zones, turns and rounds, settling the steps after an action,
and finishing.

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations


from .chance import list_in_position
from .codegen import player_text
from .codegen.runtime import ROUND_OUT, _next_seat
from .codegen.effects import drain, emit_builtin
from ..core.errors import StateError
from ..ir.spec import line_words
from .support import FLOW_LIMIT, _reason, _short, _text
from .parts import MatchParts


class MatchFlow(MatchParts):
    """Turns, rounds, steps settling after an action, and the end."""

    def _init_zones(self) -> None:
        game = self.game
        Z = self.Z = []
        for z in game.zones:
            if z["per"]:
                Z.append([[] for _ in range(game.family_size(z["per"], self.players, key=z.get("key")))])
            else:
                Z.append([])

    def _index_zones(self) -> None:
        """Rebuild `where` from the zone lists (after restore)."""
        self.where = [None] * len(self.labels)
        for z, value in zip(self.game.zones, self.Z):
            for zl in (value if z["per"] else [value]):
                for c in zl:
                    if type(c) is not int or not 0 <= c < len(self.labels):
                        raise StateError(f"zone `{z['name']}` holds {_short(c)}, which is not a component")
                    if self.where[c] is not None:
                        raise StateError(f"component {_text(self.labels[c])} (id {c}) is in two places")
                    self.where[c] = zl
                if z["capacity"] is not None and len(zl) > z["capacity"]:
                    raise StateError(f"zone `{z['name']}` holds {len(zl)} components, over its capacity "
                                     f"{z['capacity']}")

    def _start(self) -> None:
        game = self.game
        self._init_zones()
        self.comp_defaults = []                     # (a fresh list: a replayed setup starts from a copy)
        V = self.V = []
        for name, per, _, init in game.vars:
            if per == "player":
                row = []
                for p in range(self.players):
                    self.me = p
                    row.append(init(self))
                V.append(row)
            elif per == "component":                # grows as components are created
                self.me = 0
                self.comp_defaults.append((len(V), init(self)))
                V.append([])
            elif per == "key":                      # `me` is the member's player, if it has one
                key = game.var_keys[name]
                row = []
                for values in game.members(key, self.players):
                    self.me = values[key.index("player")] if "player" in key else 0
                    row.append(init(self))
                V.append(row)
            elif per:
                self.me = 0
                value = init(self)
                V.append([value] * game.family_size(per, self.players))
            else:
                self.me = 0
                V.append(init(self))
        self.me = self.current = 0
        signal = game.setup(self)
        if self.trig:
            signal = drain(self) or signal
        for c, zl in enumerate(self.where):
            if zl is None:
                self._fail(None, f"component {self.labels[c]} was created nowhere")
        if signal is None:
            signal = self._begin_round(None) if game.sequenced else self._begin_turn()
        self._settle(signal)

    def finish(self, result: str, who, why=None) -> None:
        if self.result is not None:
            return
        n = self.players
        if who is None:
            results = [result] * n
        else:
            chosen = set(who) if isinstance(who, list) else {who}
            other = {"win": "lose", "lose": "win"}.get(result, result)
            results = [result if p in chosen else other for p in range(n)]
        scores = self._scores()
        if result == "score":                      # the best score (tie-breaks included) wins
            best = max(scores)
            top = [p for p in range(n) if scores[p] == best]
            tied = "draw" if len(top) > 1 else "win"
            results = [tied if p in top else "lose" for p in range(n)]
        self.result = {"results": results, "scores": [s[0] for s in scores] if scores[0] else None}
        if why is not None:                        # `finish lose "cannot pay 15 damage"`
            self.result["reason"] = _reason(why)

    def _explain(self, why: str) -> None:
        """An outcome the rules gave no reason gets the rule that ended the game: `on stuck`, a
        `when` rule, the turn limit. (An action that ends it has none: the move is the reason.)"""
        if self.result is not None and "reason" not in self.result:
            self.result["reason"] = why

    def _stuck_reason(self) -> str:
        line = self.game.ir.get("handler_lines", {}).get("stuck")
        return (f"{player_text(self.actor)} has no legal action at step `{self.step}` "
                f"(the `on stuck` rule{', ' + line_words(self.game.ir, line) if line else ''})")

    def _limit_reason(self, i: int, count) -> str:
        line = self.game.ir["limits"][i].get("line")
        return (f"the turn limit of {count} turns was reached (the `turn limit` "
                f"rule{', ' + line_words(self.game.ir, line) if line else ''})")

    def _scores(self) -> list[tuple]:
        """Each player's score and tie-breaks, as declared by `score`; empty tuples when undeclared."""
        fns = self.game.scores
        saved = self.me
        try:
            out = []
            for p in range(self.players):
                self.me = p
                out.append(tuple(f(self) for f in fns))
            return out
        finally:
            self.me = saved

    def _checks(self):
        """The `when` rules in order: the first that holds and ends the game or moves the flow gives
        its signal; else None."""
        game = self.game
        for i, (when, body) in enumerate(game.checks):
            self.me = self.current
            if when(self):
                signal = body(self)
                if game.can_pause and self.trig:
                    signal = drain(self) or signal
                if self.result is not None:
                    line = game.ir["checks"][i].get("line")
                    self._explain(f"the `when` rule{' of ' + line_words(game.ir, line) if line else ''} applied")
                if signal is not None or self.result is not None:
                    return signal
        return None

    def _turn_limits(self):
        """At a turn's start, the `turn limit` rules in order: the first one passed whose body ends the
        game or moves the flow gives the signal (a body that does neither, "finish"); else None.
        The `when` rules are asked first: a win made on the last turn is a win, not the limit's
        draw (since stop 57; before, the limit came first)."""
        checked = False
        for i, (count, body) in enumerate(self.game.limits):
            limit = count(self)
            if self.turn_count > limit:
                if not checked and self.game.checks:
                    checked = True
                    self._checks()
                    if self.result is not None:
                        return ("finish",)
                    self.me = self.current
                signal = body(self)
                self._explain(self._limit_reason(i, limit))
                if signal is not None or self.result is not None:
                    return signal or ("finish",)
        return None

    def _begin_turn(self):
        self.turn_count += 1
        self.turn_began_at = len(self.messages)
        self.me = self.current
        game = self.game
        if game.limits:
            signal = self._turn_limits()
            if signal is not None:
                return signal
        if game.on_turn_start is not None:
            signal = game.on_turn_start(self)
            if self.trig:
                signal = drain(self) or signal
            if signal is not None:
                return signal
        if game.start_triggers:
            emit_builtin(self, "turn_start")
            signal = drain(self)
            if signal is not None:
                return signal
        return game.first_goto

    def _end_turn(self, to):
        handler = self.game.on_turn_end
        if handler is not None:
            self.me = self.current
            signal = handler(self)
            if self.trig:
                signal = drain(self) or signal
            if signal is not None and signal[0] == "finish":
                return signal
        if self.game.end_triggers:
            self.me = self.current
            emit_builtin(self, "turn_end")
            signal = drain(self)
            if self.result is not None:
                return ("finish",)
        if self.grants:
            self.grants = []                        # timed modifiers end with the turn
        if self.game.sequenced:
            return self._next_turn(to)
        self.current = (self.current + 1) % self.players if to is None else to
        return self._begin_turn()

    def _next_turn(self, to):
        """With rounds: the next player in the turn order (or `to`); past the order's end, or back
        to someone who has played in this round, the round ends and the next begins."""
        order, out = self.seq[1], self.seq[2]
        if to is not None and out[to]:
            to = self._still_in(to)
        following = to if to is not None else _next_seat(self, self.current)
        if self.seq[0] == 0 or order.index(following) <= order.index(self.current):
            return self._begin_round(to)
        self.current = following
        return self._begin_turn()

    def _still_in(self, to):
        """Who `end turn to P` gives the turn to when P is out: P is skipped like any eliminated
        player, so the next player still in after P (in turn order) plays. P out for this round only
        plays when going back to P ends the round (P is in again in the next one)."""
        order, out = self.seq[1], self.seq[2]
        if out[to] == ROUND_OUT and (self.seq[0] == 0 or order.index(to) <= order.index(self.current)):
            return to
        following = _next_seat(self, to)
        if out[following]:
            self._fail(None, "every player is eliminated, and the game has not ended")
        return following

    def _begin_round(self, to):
        """End the round (if one is running) and start the next: `on round_end`, then `on
        round_start` and the first turn, of `to` or of the first player still in."""
        game = self.game
        if self.seq[0] > 0 and game.on_round_end is not None:
            self.me = self.current
            signal = game.on_round_end(self)
            if self.trig:
                signal = drain(self) or signal
            if self.result is not None or (signal is not None and signal[0] == "finish"):
                return signal or ("finish",)
        out = self.seq[2]
        if "round" in out:                          # out for that round only: in again
            self.seq[2] = out = [False if x == "round" else x for x in out]
        remaining = [p for p in self.seq[1] if not out[p]]
        if to is None and not remaining:
            self._fail(None, "every player is eliminated, and the game has not ended")
        self.current = to if to is not None else remaining[0]
        self.seq[0] += 1
        if game.on_round_start is not None:
            self.me = self.current
            signal = game.on_round_start(self)
            if self.trig:
                signal = drain(self) or signal
            if signal is not None:
                return signal
            out = self.seq[2]
            if out[self.current]:                   # put out by `on round_start` itself (an event): the
                order = self.seq[1]                 # round's first turn is the next player's still in
                later = [p for p in order[order.index(self.current) + 1:] if not out[p]]
                if not later:                       # (the first still in was put out: so was everyone)
                    self._fail(None, "every player is eliminated, and the game has not ended")
                self.current = later[0]
        return self._begin_turn()

    def _unsettled(self, stuck: int = 0):
        """The flow limit: FLOW_LIMIT step changes in one action. `stuck`: how many times `on stuck`
        ran in them — every player stuck, turn after turn (a new author's Splendor met the limit long
        before its `turn limit`, and the message named every cause but that one)."""
        game = self.game
        line = next((s.get("line") for s in game.ir["steps"] if s["name"] == self.step), None)
        if stuck >= self.players:
            handler = (game.ir.get("handler_lines") or {}).get("stuck")
            self._fail(handler if type(handler) is int else line, f"the flow never settles: {FLOW_LIMIT} step changes in one action, and "
                                        f"`on stuck` ran {stuck} times in them — no player can act, turn after "
                                        f"turn; end the game in `on stuck` when nobody can (`if not any(…) {{ "
                                        f"finish draw \"nobody can move\" }}`)")
        self._fail(line, f"the flow never settles: {FLOW_LIMIT} step changes in one action "
                         f"(last step `{self.step}`): the `goto`s and `end turn`s of `enter` blocks, "
                         f"turn and round handlers, `when` rules and `on stuck` keep moving it without "
                         f"waiting for a player; make one of them depend on what an action changes")

    def _actor_by(self, actor_fn) -> None:
        """The seat a step played `by` a player gives (`self.actor`), checked."""
        actor = self.actor = actor_fn(self)
        if type(actor) is not int or not 0 <= actor < self.players:     # (a fuzz trial: seat 2 of 2)
            line = next((s.get("line") for s in self.game.ir["steps"] if s["name"] == self.step), None)
            self._fail(line, f"step `{self.step}` is played `by` a player, not by "
                             f"{'none' if actor is None else _short(actor)}")

    def _stuck(self):
        """No legal action for the actor: the `on stuck` block's signal (it must give one)."""
        handler = self.game.handlers.get("stuck")
        if handler is None:                 # (said at the step: a fuzzer's error had no place)
            line = next((s.get("line") for s in self.game.ir["steps"] if s["name"] == self.step), None)
            self._fail(line, f"{player_text(self.actor)} has no legal action at step `{self.step}` "
                             f"and the rules have no `on stuck` block")
        self.me = self.actor
        signal = handler(self)
        if self.trig:
            signal = drain(self) or signal
        self._explain(self._stuck_reason())
        if signal is None and self.result is None:
            self._fail(None, f"`on stuck` must end the game, end the turn or go to a step "
                             f"({player_text(self.actor)} is stuck at step `{self.step}`)")
        return signal

    def _settle(self, signal) -> None:
        """Follow gotos and turn ends until a player must decide or the game is over."""
        game = self.game
        interactive = game.can_pause                # (may abilities wait to run after an effect?)
        steps = game.steps
        budget, stuck = FLOW_LIMIT, 0
        while True:
            while signal is not None and self.result is None:
                budget -= 1
                if budget < 0:
                    self._unsettled(stuck)
                kind = signal[0]
                if kind == "goto":
                    entry = steps.get(signal[1])
                    if entry is None:
                        self._fail(None, f"there is no step `{signal[1]}`")
                    self.step = signal[1]
                    self.me = self.current
                    signal = entry[1](self) if entry[1] is not None else None
                    if interactive and self.trig:
                        signal = drain(self) or signal
                elif kind == "end_turn":
                    signal = _turn_passes(self, signal[1])
                else:
                    signal = None
            self.work_left = self.work              # (what the effects left: listing changes nothing held)
            if self.result is not None:
                self._by_text = []
                return
            if game.checks:
                signal = self._checks()
                if signal is not None or self.result is not None:
                    continue
            actor_fn, _, enum = steps[self.step]
            self.me = self.current
            if actor_fn is None:
                self.actor = self.current
            else:
                self._actor_by(actor_fn)
            if self.intern is None:
                self.intern = game.universe(self)
            if interactive and self.step in game.code.simultaneous:   # every seat asked answers in secret
                if self._open_simultaneous():
                    return
                out = None
            else:
                self.me = self.actor
                out = self._by_text = list_in_position(self, enum) if game.draws_in_listing else enum(self)
            if out:
                return
            stuck += 1
            signal = self._stuck()


def _turn_passes(self: MatchFlow, to):
    """The turn ends and the next begins (to seat `to`, or the next): the signal that follows. Where
    no rule runs between turns (Game.plain_turns: no `on turn_end`, `on turn_start`, rounds or
    turn triggers), `_end_turn` and `_begin_turn` without their calls."""
    game = self.game
    if not game.plain_turns:
        return self._end_turn(to)
    self.current = (self.current + 1) % self.players if to is None else to
    self.turn_count += 1
    self.turn_began_at = len(self.messages)
    self.me = self.current
    return (game.limits and self._turn_limits()) or game.first_goto


def _settle_lean(self: MatchFlow, signal) -> None:
    """`_settle` in a game that never pauses (Game.lean: no trigger waits, no simultaneous step),
    for `match._apply_lean`: the same steps, the same flow limit, without the tests for what
    cannot occur there. A listing that draws, `when` rules, turn limits and `on stuck` go as in
    `_settle`."""
    game = self.game
    steps = game.steps
    budget, stuck = FLOW_LIMIT, 0
    while True:
        while signal is not None and self.result is None:
            budget -= 1
            if budget < 0:
                self._unsettled(stuck)
            kind = signal[0]
            if kind == "goto":
                entry = steps.get(signal[1])
                if entry is None:
                    self._fail(None, f"there is no step `{signal[1]}`")
                self.step = signal[1]
                self.me = self.current
                if entry[1] is not None:
                    signal = entry[1](self)
                else:
                    break
            elif kind == "end_turn":
                signal = _turn_passes(self, signal[1])
            else:
                break
        self.work_left = self.work              # (what the effects left: listing changes nothing held)
        if self.result is not None:
            self._by_text = []
            return
        if game.checks:
            signal = self._checks()
            if signal is not None or self.result is not None:
                continue
        actor_fn, _, enum = steps[self.step]
        if actor_fn is None:
            self.actor = self.me = self.current
        else:
            self.me = self.current
            self._actor_by(actor_fn)
            self.me = self.actor
        if self.intern is None:
            self.intern = game.universe(self)
        out = self._by_text = list_in_position(self, enum) if game.draws_in_listing else enum(self)
        if out:
            return
        stuck += 1
        signal = self._stuck()
