"""Pausing: an effect that asks a question stops; its chain is replayed with the answers so far when
the answer comes (the interaction model, docs/engine.md).

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .codegen.effects import Paused, drain, widen_private
from ..core.errors import RuleFault
from ..core.limits import WORK_LIMIT
from . import support
from .support import HELD_CHECK_WORK, SHARED_ALL, SHARED_COMPONENTS, _check_chain, _checking
from .parts import MatchParts

if TYPE_CHECKING:
    from .match import Match


class MatchPausing(MatchParts):
    """Effects that stop for a question, and the replay of their chain with the answers."""

    # ---- effects that pause (codegen/effects.py) ----
    def _interactive(self, text: str) -> None:
        """Apply in a game whose effects may stop for a choice. A new action is run from a copy of
        the position before it (the base); an answer runs that action again from the base with
        every answer so far, up to the next unanswered choice."""
        pending = self.pending
        if pending is None:                     # a new action: run it here, keep a copy to replay from
            self._resume(self._base(), ["action", text], [], f"playing `{text}`", here=True)
        else:
            self._resume(pending["base"], pending["root"], pending["answers"] + [text], f"playing `{text}`")

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

    def _resume(self, base: MatchParts, root: list, answers: list, doing: str, here: bool = False) -> None:
        """Run a chain (an action, or the setup) with these answers: here, on this match (a new
        action; `base` is its copy from before), or on a copy of `base` that then becomes this
        match. A failure leaves this match as it was before."""
        m = self if here else base.clone()
        try:
            m._chain(base, root, answers, doing)
            left = m.work if m.pending is not None else m.work_left     # (paused: before any listing)
            if root[0] != "start" and (left < WORK_LIMIT - HELD_CHECK_WORK or not len(m.log) & 63):
                m._check_held(root[1])
        except BaseException as err:
            if here:                            # undo the half-run action: back to the base
                restored = base.clone()
                restored.own()                  # (its own lists, and which holds each component)
                self.__dict__.clear()
                self.__dict__.update(restored.__dict__)
            if isinstance(err, Exception):
                raise m._rule_error(doing, err) from None
            raise
        if support.CHECK_REPLAY and not _checking[0]:
            _check_chain(m, base, root, answers)
        if not here:
            self.__dict__.clear()
            self.__dict__.update(m.__dict__)

    def _chain(self, base: MatchParts, root: list, answers: list, doing: str) -> None:
        """Run `root` on this match, feeding `answers` to its choices, up to the end of the chain
        or the next question (then `pending` holds it). Everything the chain may depend on is the
        position it starts from, its generator and tape, and the answers (docs/engine.md, "The
        replay contract")."""
        self.answers, self.pos, self.trig, self.frames, self.replacing = answers, 0, [], [], []
        self.known = dict(self.known)
        self.drawn = ()
        self.ckpt = None
        self.named = []
        try:
            self._run_root(root)
            self.pending = None
            if self.named:
                widen_private(self)
        except Paused as paused:
            self.pending = {"base": base, "root": root, "answers": answers, "question": paused.question}
            self.actor = paused.question["chooser"]
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
        if found is None:
            found = self._interrupt(text)
            if found is not None:
                self._run_interrupt(found)
                return
            raise RuleFault(f"`{text}` is not a legal action in the position it was played from")
        self.me = self.actor
        self._by_text = None
        self.log.append(text)
        signal = found._fn(self, found._args)
        if self.trig:
            signal = drain(self) or signal
        self._settle(signal)

    def _listed(self) -> list:
        if self._by_text is None:
            self._enumerate()
        return self._by_text                    # type: ignore[return-value]  # (_enumerate listed them)

    @property
    def question(self) -> dict | None:
        """The choice a paused effect waits for (chooser, prompt, kind, options, the abilities
        and windows running, the triggers waiting), or None."""
        return None if self.pending is None else self.pending["question"]
