"""Pausing: an effect that asks a question stops; its chain is replayed with the answers so far when
the answer comes (the interaction model, docs/engine.md).

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

try:
    from greenlet import GreenletExit, getcurrent as _getcurrent, greenlet as _Greenlet
except ImportError:                      # pragma: no cover (a dependency; without it, every answer replays)
    _Greenlet = _getcurrent = None
    GreenletExit = BaseException

from .alike import untraceable
from .chance import list_in_position
from .codegen.effects import CutShort, Paused, drain, private_args, widen_private
from .codegen.runtime import player_text
from ..core.errors import RuleFault
from ..core.limits import WORK_LIMIT
from ..ir.spec import ANYTIME_STEP
from . import support
from .codegen.runtime_actions import Action
from .support import _text, interrupt_seat
from .support import HELD_CHECK_WORK, SHARED_ALL, SHARED_COMPONENTS, _check_chain, _checking
from .parts import MatchParts
from .views import seat_index

if TYPE_CHECKING:
    from .match import Match

# A chain runs in a greenlet of its own, so that an answer goes on from where the chain paused
# instead of replaying it from its base (docs/engine.md, "How an effect pauses").
# RULELANG_RESUME=0 replays every answer, as the engine did before (tests compare the two).
# Only in the main thread: a greenlet can be resumed (or let go of) only in its own thread, and a
# server that answers from whichever worker thread is free would leave chains it could neither.
RESUME = _Greenlet is not None and os.environ.get("RULELANG_RESUME", "1") != "0"
_MAIN = threading.main_thread().ident
IDLE_WORKERS = 8                         # greenlets kept for the next chains (making one costs ~5 µs)
_idle: list = []                         # (chains run in greenlets in the main thread only)
# Chains waiting for an answer, oldest first ({id(greenlet): (greenlet, match)}). A waiting greenlet
# and its match hold each other, and the collector cannot see into a suspended greenlet's frames:
# a match dropped while its chain waits (a search's copies) would never be freed. So at most
# WAITING_LIMIT chains wait at once; past it the oldest is let go of (its match, if still used,
# answers by replaying from its base, as every match did before).
WAITING_LIMIT = 32
_waiting: OrderedDict = OrderedDict()


def _note_waiting(g, m) -> None:
    key = id(g)
    if key in _waiting:
        _waiting.move_to_end(key)
        return
    _waiting[key] = (g, m)
    while len(_waiting) > WAITING_LIMIT:
        _, (old, owner) = _waiting.popitem(last=False)
        if owner.cont is old:
            owner._release()


def _worker(task):
    """A greenlet that runs chains one after another: it is sent (match, root) and sends back
    ("done", None), ("failed", error) or, from effects._wait, ("waiting", question)."""
    itself = _getcurrent()
    while True:
        m, root = task
        try:
            m._run_root(root)
            out: tuple = _DONE
        except GreenletExit:             # a waiting chain let go of (Match._release): this worker ends
            raise
        except BaseException as err:
            out = ("failed", err)
        box = [out]                      # (an idle worker keeps no match alive: not even through
        m = root = out = None            # a failure's traceback)
        task = itself.parent.switch(box.pop())


_DONE = ("done", None)


class Rebuilt:
    """The position before a new action, in a game whose effects may pause, made only when it is
    needed: a paused chain replayed from it (a copy of the paused match played on, an answer from
    another thread), or the action failed. Most actions neither pause nor fail, so none is copied
    for them: the match's checkpoint and the inputs it took since (`Match.inputs`) rebuild it, once,
    by replaying them (the replay contract: docs/engine.md)."""
    __slots__ = ("start", "inputs", "made")

    def __init__(self, start: "Match", inputs: tuple):
        self.start, self.inputs = start, inputs
        self.made: "Match | None" = None

    def position(self) -> "Match":
        made = self.made
        if made is None:
            made = self.start.clone()
            if made.where is None:              # (a checkpoint's copy keeps no index of its zones: _base)
                made._where_from_zones()
            for text, seat in self.inputs:
                made.apply(text, seat)
            self.made = made
        return made

    def clone(self) -> "Match":
        return self.position().clone()

    def state(self) -> dict:
        return self.position().state()

    def _state(self) -> dict:
        return self.position()._state()


class MatchPausing(MatchParts):
    """Effects that stop for a question, and the replay of their chain with the answers."""

    # ---- effects that pause (codegen/effects.py) ----
    def _interactive(self, text: str) -> None:
        """Apply in a game whose effects may stop for a choice. A new action runs here, with a copy
        of the position before it kept (the base); an answer goes on in the chain's greenlet where
        it waits, or else runs that action again from the base with every answer so far, up to the
        next unanswered choice."""
        pending = self.pending
        if pending is None:                     # a new action: run it here, from where it starts
            self._resume(self._before(), ["action", text], [], f"playing `{text}`", here=True)
        elif self._can_go_on():                 # the chain waits in its greenlet: it goes on from there
            self._go_on(text)
        else:
            self._resume(pending["base"], pending["root"], pending["answers"] + [text], f"playing `{text}`")

    def _can_go_on(self) -> bool:
        g = self.cont
        return g is not None and not g.dead and self.cont_thread == threading.get_ident()

    def _go_on(self, text: str) -> None:
        """Answer the question the chain waits for in its greenlet: the chain goes on from there,
        exactly as a replay from its base with every answer would (support.CHECK_REPLAY checks
        it). A failure puts this match back where it was, paused, by that replay."""
        pending = self.pending
        assert pending is not None and self.cont is not None        # (_can_go_on)
        base, root, answers = pending["base"], pending["root"], pending["answers"] + [text]
        doing = f"playing `{text}`"
        self.answers = answers
        self.work = self.cont_work
        self.pending = None
        g = self.cont
        try:
            self._after_switch(g, base, root, answers, self._switch(g, None))
            left = self.work if self.pending is not None else self.work_left
            if root[0] != "start" and (left < WORK_LIMIT - HELD_CHECK_WORK or not len(self.log) & 63):
                self._check_held(root[1])
        except BaseException as err:
            self._release()
            self._resume(base, root, pending["answers"], "replaying a paused effect")   # back to the pause
            if isinstance(err, Exception):
                raise self._rule_error(doing, err) from None
            raise
        if support.CHECK_REPLAY and not _checking[0]:
            _check_chain(self, base, root, answers)

    def _release(self) -> None:
        """Let go of the greenlet a paused chain waits in, before this match's state is replaced:
        unwound now (its `finally` blocks restore what the effect changed, on a state about to be
        replaced), never later from the collector at some other moment. A greenlet of another
        thread cannot be unwound from this one: it is kept with the match (as its frames keep the
        match), and goes when the match goes."""
        g, self.cont = self.cont, None
        if g is None:
            return
        _waiting.pop(id(g), None)
        if g.dead:
            return
        if self.cont_thread != threading.get_ident():
            self.orphans = self.__dict__.get("orphans", ()) + (g,)
            return
        state = dict(self.__dict__)             # (what the unwinding's `finally` blocks change of
        g.parent = _getcurrent()                # this match is put back: the position stays)
        g.throw()
        self.__dict__.clear()
        self.__dict__.update(state)

    def _take_state(self, state: dict) -> None:
        """Become the position `state` (another match's attributes), keeping the greenlets of
        other threads this match had to let go of (see _release)."""
        orphans = self.__dict__.get("orphans")
        self.__dict__.clear()
        self.__dict__.update(state)
        if orphans:
            self.orphans = orphans

    @staticmethod
    def _switch(g, task) -> tuple:
        """Send `task` to a chain's greenlet (or None: go on after an answer); what it sends back."""
        here = _getcurrent()
        if g.parent is not here:
            g.parent = here                     # (it comes back here, whoever started it)
        return g.switch(task)

    def _before(self) -> "Match | Rebuilt":
        """This position, to replay a new action from: rebuilt from the checkpoint if ever needed,
        or, with none (a match restored, or given chance outcomes, since), a copy now."""
        ckpt = self.ckpt
        if ckpt is None or type(ckpt.base) is tuple:
            return self._base()
        return Rebuilt(ckpt.base, self.inputs)

    def _base(self) -> "Match":
        """The position before a new action, kept to replay it from if it pauses for a choice: a
        copy that takes copies of the zones and variables, so that this match goes on with its own
        lists (its index of them, `zone_info`, stays good). This match takes its generator back
        when it next draws (chance.FrozenGenerator): an action that draws nothing reads no state."""
        shared = self.shared
        base = self.clone()
        base.own(index=False)
        if shared != SHARED_ALL:                # (else another clone still shares them)
            self.shared = SHARED_COMPONENTS
        return base

    def _resume(self, base: "MatchParts | Rebuilt", root: list, answers: list, doing: str, here: bool = False) -> None:
        """Run a chain (an action, or the setup) with these answers on this match: here, from where
        it stands (a new action; `base` is its copy from before), or from a copy of `base` it
        becomes first (a replay). A failure leaves this match as it was before."""
        before = None
        if not here:                            # run on this match (a chain's greenlet then holds
            self._release()                     # it), from a copy of the base; `before` to go back to
            before = dict(self.__dict__)
            self._take_state(base.clone().__dict__)
        m = self
        try:
            m._chain(base, root, answers, doing)
            left = m.work if m.pending is not None else m.work_left     # (paused: before any listing)
            if root[0] != "start" and (left < WORK_LIMIT - HELD_CHECK_WORK or not len(m.log) & 63):
                m._check_held(root[1])
        except BaseException as err:
            self._release()
            if here:                            # undo the half-run action: back to the base
                restored = base.clone()
                restored.own()                  # (its own lists, and which holds each component)
                self._take_state(restored.__dict__)
            else:                               # back to the position it was in (its own lists)
                self._take_state(before)        # type: ignore[arg-type]  # (set when not here)
            if isinstance(err, Exception):
                raise m._rule_error(doing, err) from None
            raise
        if support.CHECK_REPLAY and not _checking[0]:
            _check_chain(m, base, root, answers)

    def _chain(self, base: "MatchParts | Rebuilt", root: list, answers: list, doing: str) -> None:
        """Run `root` on this match, feeding `answers` to its choices, up to the end of the chain
        or the next question (then `pending` holds it). Everything the chain may depend on is the
        position it starts from, its generator and tape, and the answers (docs/engine.md, "The
        replay contract")."""
        self.answers, self.pos, self.trig, self.frames, self.replacing = answers, 0, [], [], []
        self.known = dict(self.known)
        self.drawn = ()
        self.named, self.chain_reveals = [], ()
        if (RESUME and threading.get_ident() == _MAIN and _getcurrent().parent is None
                and not self._never_pauses(root, answers)):
            # (only from the main greenlet: a worker started inside another keeps the depth it was
            # started at for good, so a match made inside a chain — a restore's replay — left its
            # worker 12 frames deeper each time, and the 88th restore in one process hit Python's
            # recursion limit: a new author's Love Letter)
            if self.cont is not None:
                self._release()
            g = self.cont = _idle.pop() if _idle else _Greenlet(_worker)
            self.cont_thread = _MAIN
            self._after_switch(g, base, root, answers, self._switch(g, (self, root)))
            return
        try:
            self._run_root(root)
            self.pending = None
            if self.named:
                widen_private(self)
        except Paused as paused:
            self._wait_for(base, root, answers, paused.question)

    def _never_pauses(self, root: list, answers: list) -> bool:
        """A new action the rules can never stop for a question (Game.pause_free): run here, not in
        a greenlet of its own (if it asked one anyway, Paused would stop it, as with RESUME off)."""
        free = self.game.pause_free
        if not free or root[0] != "action" or answers:
            return False
        found = self._find(self._listed(), root[1])
        return found is not None and (self.step, found._meta[0]) in free

    def _after_switch(self, g, base, root: list, answers: list, out: tuple) -> None:
        """The chain's greenlet came back: it waits for an answer, or the chain is over (its
        greenlet is free for another), or it failed (raised here, as a replay would raise it)."""
        how, value = out
        if how == "waiting":
            self.cont_work = self.work
            self._wait_for(base, root, answers, value)
            _note_waiting(g, self)
            return
        self.cont = None
        _waiting.pop(id(g), None)
        if len(_idle) < IDLE_WORKERS:
            _idle.append(g)
        if how == "failed":
            raise value
        self.pending = None
        if self.named:
            widen_private(self)

    def _wait_for(self, base, root: list, answers: list, question: dict) -> None:
        # (which component each option is, when they are components: kept beside the question,
        # for option_components)
        components = question.pop("components", None)
        self.pending = {"base": base, "root": root, "answers": answers, "question": question,
                        "components": components}
        self.actor = question["chooser"]
        self._by_text = None

    def _run_root(self, root: list) -> None:
        """Run what started a (possibly paused) effect: an action, or the setup."""
        if self.shared == SHARED_ALL:
            self.own()
        self.work = WORK_LIMIT
        if root[0] == "start":
            self._start()
            return
        if root[0] == "simul":                  # the last answer of a simultaneous step: reveal them all
            self._reveal(root[1], root[2])
            return
        text = root[1]
        found = self._find(self._listed(), text)
        try:
            if found is None:
                found = self._interrupt(text)
                if found is not None:
                    self._run_interrupt(found)
                    return
                raise RuleFault(f"`{_text(text, 200)}` is not a legal action in the position it was played from")
            self.me = self.actor
            self._by_text = None
            found = untraceable(self, found)    # (copies from hidden zones: see alike.py)
            private_args(self, found, len(self.log))
            self.log.append(text)
            signal = found._fn(self, found._args)
            if self.trig:
                signal = drain(self) or signal
        except CutShort as cut:                 # an interrupt inside it moved the flow on
            signal = self._cut_short(cut)
        self._settle_following(signal)

    def _cut_short(self, cut: CutShort):
        """The waiting effect ended by an interrupt that moved the flow on: its signal, to follow."""
        self.trig, self.frames, self.replacing = [], [], []
        self.step = self.outer_step or self.step
        self.outer_step = None
        return cut.signal

    def _settle_following(self, signal) -> None:
        """`_settle`, following an interrupt that ends a question asked on the way (in an `enter`,
        `on turn_start`, `on turn_end` or a `when`): its `end turn` escaped `apply` as the engine's
        own signal, a traceback at the terminal (a grammar-aware fuzz trial)."""
        for _ in range(1_000):                  # (each time a turn ends: the turn limit comes first)
            try:
                self._settle(signal)
                return
            except CutShort as cut:
                signal = self._cut_short(cut)
        raise RuleFault("interrupts ended the flow's questions too many times in one action")

    def _interrupt_in_effect(self, text: str) -> bool:
        """(effects._answer) An answer that is an interrupt (`P3: reveal`, taken while the
        question waited): run it here, inside the waiting effect, on the position as it stands,
        with its own triggers; the question is then asked again. False if `text` is none. If the
        interrupt moves the flow on, the waiting effect ends (CutShort)."""
        seat = interrupt_seat(text)
        if seat is None or ANYTIME_STEP not in self.game.steps:
            return False
        inner = (self.me, self.src, self.trig, self.frames, self.replacing, self.actor, self.step,
                 self.outer_step, self._by_text, self.work)
        prefix = player_text(seat) + ": "
        try:
            self.src, self.trig = None, []
            found = self._as_interrupt(seat, lambda: next(
                (a for a in list_in_position(self, self.game.steps[ANYTIME_STEP][2]) if prefix + a.text == text), None))
            if found is None:
                return False
            found = untraceable(self, Action(text, found._fn, found._args, found._meta))
            if self.game.others_zones:
                private_args(self, found, len(self.log), seat)
            self.log.append(text)
            self.work = inner[-1]               # (the chain's budget, not a fresh one: _as_interrupt)
            signal = self._as_interrupt(seat, lambda: self._in_interrupt(found, inner[-1]))
        finally:
            work = self.work
            (self.me, self.src, self.trig, self.frames, self.replacing, self.actor, self.step,
             self.outer_step, self._by_text, _) = inner
            self.work = work
        if signal is not None or self.result is not None:
            raise CutShort(signal or ("finish",))
        return True

    def _in_interrupt(self, found, work: int):
        self.work = work
        signal = found._fn(self, found._args)
        if self.trig:
            signal = drain(self) or signal
        return signal

    def _listed(self) -> list:
        if self._by_text is None:
            self._enumerate()
        return self._by_text                    # type: ignore[return-value]  # (_enumerate listed them)

    def option_components(self, seat: int | None = None) -> dict:
        """The question's options that are components: {option text: component id} (what a table
        shows beside an option, such as its rules text); {} when there is none. These are the
        chooser's whole options, whoever asks; with `seat`, only those whose component that seat
        sees now (`visible_to`): a blind pick's options (`pool slot 2`) are not told apart by it
        (a new author's Skull: the id of the skull one is public from the setup's order)."""
        found = dict((self.pending or {}).get("components") or {})
        if seat is None or not found:
            return found
        seen = self._seen_by(seat_index(seat, self.players))     # (no such seat: a ValueError that says so)
        return {text: c for text, c in found.items() if c in seen}

    @property
    def question(self) -> dict | None:
        """The choice a paused effect waits for (chooser, prompt, kind, options, the abilities
        and windows running, the triggers waiting), or None."""
        return None if self.pending is None else self.pending["question"]
