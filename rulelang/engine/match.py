"""A Match holds the state of one play of a game (engine/game.py holds the Game).

State is flat and slot-based: `Z` holds one entry per declared zone (a list of component
ids, bottom first so the top of a pile is its last item, or one such list per player or
cell), `V` one entry per declared variable (a value, or a list per player or cell), and
components are columns (`F`, one list per field name, indexed by component id) plus their
kinds and labels, which never change once created. One seeded `random.Random` is the only
source of chance. The flow is a set of steps: a step runs its `enter` block, then waits for
its actor to choose one of its actions. The Game compiles the IR once into Python
functions (rulelang/engine/codegen/); `state()` is the same plain JSON as ever, keyed by names.

Match is one object made of parts by job: this module (state, legal actions, apply, checkpoints,
clones), flow.py, pausing.py, copies.py, views.py and saves.py."""
from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import operator
import random
import traceback

from .alike import untraceable
from .chance import Chance, FrozenGenerator, aside, checked_tape, list_in_position, outcome, seeded
from .codegen import Action, held_size, player_text
from .codegen.effects import drain, private_args, widen_private
from .codegen.runtime_actions import _copies
from ..core.errors import EngineFault, IllegalAction, RuleFault, RuleRuntimeError, RulelangError, WorkFault
from ..ir.spec import ANYTIME_STEP, leading_words, refusal_def, refusal_holds, rule_place
from ..core.limits import INTERRUPT_LIMIT, STATE_LIMIT, WORK_LIMIT
from ..core.types import Context
from . import support
from .flow import MatchFlow, _settle_lean
from .pausing import MatchPausing
from .copies import MatchCopies
from .views import MatchViews, seat_index
from .saves import MatchSaves
from .simultaneous import MatchSimultaneous
from .records import Checkpoint
from .support import interrupt_seat  # noqa: F401  (part of the API: rulelang.interrupt_seat)
from .support import CHECKPOINT_EVERY, HELD_CHECK_WORK, PAUSING_CHECKPOINT_EVERY, RULE_FAULTS, SHARED_ALL, SHARED_COMPONENTS, _checking, _engine_fault, _in_words, _replay_check, _short, _text

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Action", "Match", "interrupt_seat"]


# What generated code (engine/codegen/) and the runtime helpers it calls may read or call on a
# match, one line each: the interface between the code generator and the engine. A name used there
# and missing here fails tests/test_layering.py::test_generated_code_uses_only_the_declared_match_interface.
GENERATED_CODE_INTERFACE = {
    "game": "the Game: its tables (kinds' fields, steps, constants)",
    "players": "the number of seats",
    "seed": "the match's seed (None for a determinized copy)",
    "options": "the option values, by name",
    "PL": "every seat, in seat order (a shared list, never mutated)",
    "OTH": "for each seat, the other seats clockwise after it",
    "me": "the seat deciding now (in flow blocks, whose turn it is)",
    "current": "whose turn it is",
    "turn_count": "turns started so far",
    "seq": "[round, turn order, eliminated seats] in games with rounds",
    "Z": "zone slots: a list of component ids, or one per player or cell",
    "V": "variable slots: a value, or one per player or cell",
    "F": "component fields: one column (list) per field, indexed by component id",
    "kinds": "component id -> its kind",
    "labels": "component id -> its label",
    "where": "component id -> the zone list holding it",
    "created": "how components were created (the universe's key), or None",
    "comp_defaults": "(variable slot, initial value) of each per-component variable",
    "shared": "components shared with a clone (copy before adding)",
    "unshare": "copies the shared component lists before a change",
    "own": "copies everything shared with a clone before a change",
    "intern": "this match's universe of interned actions",
    "work": "work units left to the effect running now (the cost model)",
    "depth": "call depth of the rules' procedures and defs",
    "lm": "while a listing runs: defs' results memoised for it",
    "rng": "the match's generator (a property; chance tape first)",
    "_rng": "the generator itself, or None when a snapshot stands for it",
    "_rng_state": "the generator's snapshot when `_rng` is None",
    "tape": "chance outcomes to use before the generator",
    "log": "the actions and answers so far, as text",
    "messages": "the messages the rules logged, with who may read them",
    "result": "the outcome once the game has ended, else None",
    "finish": "ends the game with a result",
    "zone_ids": "component ids of a zone as a seat may know them",
    "_zone_ids": "the cache behind zone_ids",
    "_alike": "(the universe, its copies by component): alike.py's, kept while the universe is",
    "fields_held": "(components measured, their weight) of the component fields, kept between state measures",
    "zone_info": "zones' owners and visibility, for the interaction model",
    "answers": "answers to replay in the effect running now",
    "pos": "how many of them the choices have used",
    "trig": "triggers waiting for the current effect to end",
    "frames": "the abilities and windows running now",
    "known": "component -> where it was revealed, and to whom",
    "replacing": "replacements running now (each applies once per chain)",
    "grants": "timed modifiers until the turn ends",
    "private": "log index -> the seats that may read that answer",
    "named": "the private answers of the chain running, with their components",
    "chain_reveals": "each reveal, in the chain running, of a component a private answer names: to whom",
    "cards_index": "the card declarations' index, built once",
    "held": "the cards in play of each ability and def, kept until a component moves or is made",
    "src": "the card whose ability runs now (`source`)",
    "cuts": "a determinized copy's base: where its replay leaves the real world",
    "cut_mapping": "the last cut's real component -> the one the copy dealt in its place",
    "component_text": "a component's rules text (`rules_text(c)`), its card's then its kind's",
    "step": "the step the flow is at",
    "actor": "the seat to act (while a question waits: its chooser)",
    "cont": "the greenlet a resumable chain runs or waits in (pausing.py), or None",
    "outer_step": "while an interrupt's effect runs: the step it goes back to",
    "_interrupt_in_effect": "an answer that is an interrupt (`P3: reveal`): run inside the waiting effect",
}


def _interrupts_in(answers: list) -> int:
    """How many interrupts a paused chain has taken (`P3: reveal` among its answers): at most
    INTERRUPT_LIMIT, so that an effect's replay, and the nesting of interrupts inside each other's
    questions, stay bounded (a trial retook an ability inside its own question 98 deep, and the
    position could then no longer be restored)."""
    return sum(1 for a in answers if interrupt_seat(a) is not None)


class Match(MatchFlow, MatchPausing, MatchCopies, MatchViews, MatchSaves, MatchSimultaneous):
    """One play of a game. Use only the public methods; the rest is the engine's."""

    # (Its attributes, with their types, and the class-level defaults are declared in parts.py.)

    def __init__(self, game: Game, players: int, seed, options: dict):
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self._rng = seeded(seed)                   # (random.Random(seed): chance.seeded)
        self._rng_state = None                     # a snapshot, when `_rng` is None (see `rng`)
        self.shared = False                        # components shared with a clone: copy before adding
        self.Z: list = []
        self.V: list = []
        self.F: list = [[] for _ in game.columns]
        self.kinds: list[str] = []
        self.labels: list[str] = []
        self.where: list = []                      # component id -> the zone list holding it
        self.held = None                           # (an attribute of its own: every move reads it)
        self.PL, self.OTH = game.seats(players)
        self.step = game.first_step
        self.current = 0
        self.me = 0
        self.actor = 0
        self.turn_count = 0
        self.depth = 0
        self.work = WORK_LIMIT          # loop iterations left to the effect running now (limits.py)
        self.result: dict | None = None
        self.log: list[str] = []
        self.messages: list = []
        self.turn_began_at = 0                     # messages written before the current turn began (the
                                                   # terminal tells an action's changes before the next turn's)
        self.intern = None                         # this match's universe (see Game.universe)
        self.created: list | None = []             # how its components were created (universe key)
        self.comp_defaults: list = []              # (var slot, initial value) of each per-component variable
        self._by_text: list | None = None          # the legal actions now, in order (None: not listed yet)
        self._zone_ids = None
        self._alike = None
        self.fields_held = (0, 0)                  # (components, weight) of their fields: see held_size
        self.work_left = WORK_LIMIT                # the budget the last action's effects left (_settle)
        if game.can_pause:
            self.answers, self.trig, self.frames, self.known, self.replacing = [], [], [], {}, []
            self.grants, self.private = [], {}
        if game.sequenced:                         # [round, turn order, eliminated seats as booleans]
            self.seq = [0, list(range(players)), [False] * players]

    @property
    def rng(self):
        """What the rules draw chance from: the generator, or a `Chance` in front of it while the
        outcomes are recorded (`drawn`) or supplied (`tape`)."""
        if self.drawn is not None or self.tape:     # (drawn: a tuple, empty or not, while recording)
            return Chance(self)
        return self._gen()

    def _gen(self) -> random.Random:
        """The match's random generator. A clone shares a snapshot of it with its original and
        builds its own generator only when it first needs one."""
        r = self._rng
        if r is None:
            state = self._rng_state
            if type(state) is FrozenGenerator:
                r = state.take(self)
                if r is None:
                    state = state.state()
            if r is None:
                r = random.Random.__new__(random.Random)
                r.setstate(state)                   # type: ignore[arg-type]  # (kept whenever `_rng` is None)
            self._rng, self._rng_state = r, None
        return r

    def _rng_snapshot(self) -> tuple | FrozenGenerator:
        """What stands for the generator's state, which this match keeps (until it next needs a
        generator): the generator frozen, its state read only if a copy ever needs it."""
        if self._rng is not None:
            self._rng_state = FrozenGenerator(self._rng, self)
            self._rng = None
        return self._rng_state  # type: ignore[return-value]  # (kept whenever `_rng` is None)

    def _rng_tuple(self) -> tuple:
        """The generator's state as `random.Random.getstate` gives it (for a save)."""
        state = self._rng.getstate() if self._rng is not None else self._rng_state
        return state.state() if type(state) is FrozenGenerator else state  # type: ignore[return-value]

    def unshare(self) -> None:
        """Copy the component lists this match shares with clones, before adding to them."""
        if self.shared == SHARED_ALL:
            self.own()
        self.F = [list(col) for col in self.F]
        self.kinds, self.labels = list(self.kinds), list(self.labels)
        self.shared = False

    def own(self, index: bool = True) -> None:
        """Copy the zones, variables and logs this match shares with a clone (or with the match it
        was cloned from) before anything changes them. A clone costs only this copy, and only once
        it is played on: a search that keeps many positions it never plays on keeps them cheaply.
        (Components stay shared until one side creates more: see unshare.)
        `index=False`, for the copy `_base` keeps (only ever cloned, and played on as a clone):
        which zone list holds each component (`where`) is worked out from the zones only when the
        copy, or a clone of it, is played on — most are never used."""
        game = self.game
        remap = index and self.where is not None
        fresh: dict = {}
        if remap:
            Z = []
            for z, value in zip(game.zones, self.Z):
                if z["per"]:
                    copy = [list(x) for x in value]
                    for old, new in zip(value, copy):
                        if old:                    # only a zone holding components is in `where`
                            fresh[id(old)] = new
                else:
                    copy = list(value)
                    fresh[id(value)] = copy
                Z.append(copy)
        else:                                      # (the copy kept before an action: no `where` to remap)
            Z = [list(value) for value in self.Z]
            for i in game.family_zones:
                Z[i] = [list(x) for x in Z[i]]
        self.Z = Z
        V = self.V = list(self.V)                  # a variable's value is never changed in place (a
        for slot in game.family_slots if V else ():    # list grows into a new one: runtime._appended),
            V[slot] = list(V[slot])                # a family's members are (no variables: before the setup)
        self.created = list(self.created) if self.created is not None else None
        if remap:
            self.where = [fresh[id(zl)] if zl is not None else None for zl in self.where]
        elif not index:
            self.where = None  # type: ignore[assignment]  # (not to be read until played on: see above)
        else:
            self._where_from_zones()
        self.result = dict(self.result) if self.result else None
        self.log, self.messages = list(self.log), list(self.messages)
        if game.can_pause:                         # (even empty: the copy must not append to the original's)
            self.known = dict(self.known)
            self.grants = list(self.grants)
        if game.sequenced:
            self.seq = [self.seq[0], list(self.seq[1]), list(self.seq[2])]
        if self.zone_info is not None:
            self.zone_info = None                  # keyed by the zone lists' ids: these are new
        self._zone_ids = None
        self.shared = SHARED_COMPONENTS

    def _where_from_zones(self) -> None:
        """`where` of a copy that `own(index=False)` left without one: the zone list of each
        component, the zones being those of a position that was played (checked: see
        flow._index_zones for a restored one)."""
        where: list = [None] * len(self.labels)
        for per, value in zip(self.game.zone_per, self.Z):
            for zl in (value if per else (value,)):
                for c in zl:
                    where[c] = zl
        self.where = where

    # ---- public API ----
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def outcome(self) -> dict | None:
        return self.result

    @property
    def current_player(self) -> int | None:
        return None if self.result is not None else self.actor

    def legal_actions(self) -> list[Action]:
        if self._by_text is None:
            try:
                self._enumerate()
            except RULE_FAULTS + (RuleFault,) as err:
                raise self._rule_error("listing the legal actions", err) from None
        return list(self._by_text)  # type: ignore[arg-type]  # (_enumerate listed them)

    def _find(self, legal: list, action) -> Action | None:
        """The listed action `action` stands for: the very object (a bot's pick), else the one of its
        text. (Listed texts are distinct: see runtime._told_apart.)"""
        if type(action) is Action:
            for a in legal:
                if a is action:
                    return a
            action = action.text
        for a in legal:
            if a.text == action:
                return a
        if isinstance(action, str) and action != action.strip():    # (`keep `: an empty subset's text
            return self._find(legal, action.strip())                 # before stop 50, in old saves)
        return None

    @aside
    def refusal(self, text: str) -> str | None:
        """Why the action a player typed is not legal now, in the rules' words (`action A … require C
        else "…"`), for the player to act; None when it is legal, when no action of this step is
        named so, or when the rules give no reason. The reason is the action's as a whole (the rules
        word it without the parameters), also when another choice of it is legal. Never raises: it
        only words an error."""
        if self.result is not None or self.pending is not None or self.simul is not None:
            return None
        words = " ".join(str(text).split()).lower()
        try:
            legal = self.legal_actions()
            if any(a.text.lower() == words for a in legal):
                return None
            for name, def_name in self.game.refusals.get(self.step, ()):
                shown = name.replace("_", " ").lower()
                if words == shown or words.startswith(shown + " "):
                    saved, self.me = self.me, self.actor
                    try:
                        if self._requirement_holds(self.step, def_name):
                            return None     # (not refused for that reason: the choice typed is not one)
                        reason = self.game.code.defs[def_name](self)
                    finally:
                        self.me = saved
                    return reason if isinstance(reason, str) and reason else None
        except Exception:                       # (a reason that fails to compute: the plain error stands)
            return None
        return None

    def _requirement_holds(self, step: str, def_name: str) -> bool:
        """Does the `require` condition whose `else` reason is `def_name` hold now (for `self.me`)?
        False where the rules' condition reads the action's parameters (it is not known)."""
        action = def_name[len(refusal_def(step, "")):]
        fn = self.game.code.defs.get(refusal_holds(step, action))
        return fn is not None and fn(self) is True

    def copies_of(self, c: int) -> list[int]:
        """The other components in c's zone that nothing the rules can tell from c (same kind, label,
        fields and values): one legal action stands for all of them, and a page may show each as
        playable (of two like cards in a hand, only the first looked playable)."""
        if type(c) is not int or not 0 <= c < len(self.labels):
            return []
        zl = self.where[c]
        return [o for o in zl if o != c and _copies(self, c, o)] if zl is not None else []

    @aside
    def refusals_now(self) -> list[tuple[str, str]]:
        """(action name, the rules' reason) for each action of this step that has a reason (`require
        … else "…"`), is shown by an `as` text that starts with a value (no word names it) and has
        no legal choice now: what a player reads who typed one of its choices by its
        shown text (`e3-f4`), which names no action. Never raises."""
        if self.result is not None or self.pending is not None or self.simul is not None:
            return []
        out = []
        try:
            named = {a.name for a in self.legal_actions()}
            step = next((s for s in self.game.ir["steps"] if s["name"] == self.step), None)
            for a in (step or {}).get("actions", ()):
                fn = self.game.code.defs.get(refusal_def(self.step, a["name"]))
                # (only an action shown by a text that begins with a value: one shown by words is
                # found by them, and `refusal` says its reason)
                if fn is None or a["name"] in named or a.get("text") is None or leading_words(a) is not None:
                    continue
                saved, self.me = self.me, self.actor
                try:
                    reason = None if self._requirement_holds(self.step, refusal_def(self.step, a["name"])) else fn(self)
                finally:
                    self.me = saved
                if isinstance(reason, str) and reason:
                    out.append((a["name"].replace("_", " "), reason))
        except Exception:                       # (a reason that fails to compute: none said)
            return []
        return out

    @aside
    def interrupts(self, player: int) -> list[Action]:
        """The `anytime` actions `player` may take now although another player is to act (revealing
        one's role in someone else's turn), or although a question waits — for anyone, the player
        asked included: an interrupt taken then runs inside the waiting effect, which asks again
        (a character heals before answering the card that would kill it). Nobody is ever asked to
        pass them. Their texts name the player (`P3: reveal`); `apply` takes them like any legal
        action, and the player to act afterwards is the one who was to act before.
        While a window declared `order first` waits, they are `player`'s answers to it
        (`P3: challenge`, `P3: pass`): the first answer `apply` takes is the one that counts."""
        player = seat_index(player, self.players)   # (no seat 7: an error, not none — an AI researcher's trial)
        pending = self.pending
        if pending is not None and "also" in pending["question"]:
            return [Action(t, None, (), ("choose", ())) for t in self._also(player)]
        if (self.result is not None or ANYTIME_STEP not in self.game.steps or self.simul is not None
                or type(player) is not int or not 0 <= player < self.players
                or (player == self.actor and pending is None)
                or (pending is not None and (pending["root"][0] != "action"        # (not while setting up)
                                             or _interrupts_in(pending["answers"]) >= INTERRUPT_LIMIT))):
            return []
        try:
            found = self._as_interrupt(player, lambda: list_in_position(self, self.game.steps[ANYTIME_STEP][2]))
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("listing the legal actions", err) from None
        prefix = player_text(player) + ": "
        return [Action(prefix + a.text, a._fn, a._args, a._meta) for a in found]

    def _also(self, player) -> list:
        """The answers `player`, not the chooser, may give to the question waiting now (a window
        answered first), or []."""
        if self.result is not None or self.pending is None:
            return []
        for seat, texts in self.pending["question"].get("also", ()):
            if seat == player:
                return list(texts)
        return []

    def _as_interrupt(self, player: int, run):
        """Run `run()` as if `player` acted at the anytime step; the step and actor are put back."""
        step, actor, listed, outer = self.step, self.actor, self._by_text, self.outer_step
        self.step, self.actor, self.me = ANYTIME_STEP, player, player
        self.work = WORK_LIMIT
        # (the step while it waits for an answer, effects._wait: the outermost one, when this is
        # listed or run while an interrupt's own question waits)
        self.outer_step = step if outer is None else outer
        try:
            return run()
        finally:
            self.step, self.actor, self._by_text = step, actor, listed
            self.outer_step = outer

    def _interrupt(self, text: str):
        """The interrupt an action text names (`P3: reveal`), or None."""
        player = interrupt_seat(text)
        if player is None or not 0 <= player < self.players or ANYTIME_STEP not in self.game.steps:
            return None
        return next((a for a in self.interrupts(player) if a.text == text), None)

    def _run_interrupt(self, found: Action) -> None:
        """Apply an interrupt; unless it moves the flow on, the same player is still to act."""
        player = interrupt_seat(found.text)
        if self.shared == SHARED_ALL:
            self.own()
        found = untraceable(self, found)        # (copies from hidden zones: see alike.py)
        if self.game.others_zones:              # (a card of an `others` zone it names: not read to
            if not self.game.can_pause:         #  the card's holder, as an action's — a leak scan)
                self.named, self.chain_reveals = [], ()
            private_args(self, found, len(self.log), player)
        self.log.append(found.text)
        self._by_text = None
        signal = self._as_interrupt(player, lambda: found._fn(self, found._args))  # type: ignore[arg-type]  # (an interrupt's text names its seat)
        self._by_text = None
        if self.trig:
            signal = drain(self) or signal
        self._settle(signal)
        if self.named and not self.game.can_pause:
            widen_private(self)

    def apply(self, action, seat: int | None = None) -> None:
        """Play a legal action of the player to act (`current_player`). `seat`: the player who
        plays it — during a simultaneous decision any player still to answer (`legal_actions_of`),
        for an interrupt (`P2: reveal`, from `interrupts(p)`) the seat it names, otherwise the
        player to act."""
        if seat is None and type(action) is Action and self.game.lean and self.result is None:
            by_text = self._by_text             # (Game.lean: a bot's pick, in a game that never pauses)
            if by_text is not None:
                for a in by_text:
                    if a is action:
                        _apply_lean(self, a)        # (a function: a method of a match is looked up unspecialised)
                        return
        text = action.text if type(action) is Action else str(action).strip()
        if seat is not None and type(seat) is not int and not isinstance(seat, bool):
            try:
                seat = operator.index(seat)     # (a NumPy integer, as `view` takes it)
            except TypeError:
                pass
        if type(seat) is int and not 0 <= seat < self.players:
            seat_index(seat, self.players)      # (a ValueError, as every call given no player: a researcher's
                                                #  trial read "… is not a legal action of P100 now")
        if self.simul is not None and self.result is None:     # a simultaneous decision (simultaneous.py)
            self._taking(True, text, seat)
            return
        # (an interrupt is its own seat's: `interrupts(1)` offered `P2: reveal`, then `seat=1` was
        # refused and `seat=0` taken — an atomicity trial. Only a seat given is checked: the text's
        # seat is read only then, off the hot path of a bot that names none)
        if seat is not None:
            if type(seat) is not int:            # (`seat=False`, `0.0` were taken for P1: a fuzz trial)
                raise IllegalAction(f"`{_text(text, 200)}` is not a legal action of {_short(seat)}: a seat is a number, 0 for P1")
            named = interrupt_seat(text)
            if seat != self.current_player and named != seat \
                    or named is not None and named != seat and seat == self.current_player \
                    and not any(a.text == text for a in self.legal_actions()):
                raise IllegalAction(f"`{_text(text, 200)}` is not a legal action of {player_text(seat)} now")
        off_turn = seat is not None and seat != self.current_player
        by_text = self._by_text
        if by_text is None or self.result is not None:
            if self.result is not None:
                raise IllegalAction(f"the game is over; `{_text(text, 200)}` cannot be played")
            self.legal_actions()
            by_text = self._by_text
        found = None                            # the very object listed (a bot's pick), else its text
        if type(action) is Action:
            for a in by_text:                   # type: ignore[union-attr]  # (listed above if it was None)
                if a is action:
                    found = a
                    break
        if found is None:
            for a in by_text:                   # type: ignore[union-attr]  # (listed above if it was None)
                if a.text == text:
                    found = a
                    break
        interrupt = False
        if found is None and self.pending is None:
            found = self._interrupt(text)
            interrupt = found is not None
        elif (found is None and "also" in self.pending["question"]      # type: ignore[index]  # (None: the `if`)
              and text in self._also(interrupt_seat(text))):
            found = Action(text, None, (), ("choose", ()))      # another seat answers a window first
        elif found is None and self._interrupt(text) is not None:
            found = Action(text, None, (), ("choose", ()))      # an interrupt inside the waiting effect
        if found is None or off_turn and any(a is found for a in by_text):   # type: ignore[union-attr]
            # (the text as typed, printable and cut short: a line break, 100,000 characters or a
            # lone surrogate made a message of two lines, of 100,000, or one no terminal could print)
            raise IllegalAction(f"`{_text(text, 200)}` is not a legal action "
                                + (f"of {player_text(seat)} now" if found is not None else "now"))
        if self.game.can_pause:
            if self.pending is None and (self.ckpt is None or len(self.inputs) >= PAUSING_CHECKPOINT_EVERY):
                self._checkpoint()
            self._taking(False, text, seat)
            return
        # Atomic: a failed action leaves the match as it was. Rather than copy the position before
        # every action, keep a checkpoint now and then and the actions played since: a failure
        # rebuilds the position by replaying them (the same replay pausing relies on).
        ckpt = self.ckpt                        # (the actions since it are the log's last entries)
        if ckpt is None or len(self.log) - ckpt.played >= CHECKPOINT_EVERY:
            ckpt = self._checkpoint()
        self.drawn = ()
        played = len(self.log)                  # (the actions before this one: the log up to here)
        try:
            if interrupt:
                self._run_interrupt(found)
            else:
                if self.shared == SHARED_ALL:
                    self.own()
                self.me = self.actor
                self._by_text = None
                self.work = WORK_LIMIT              # units of work this action's effect may take
                if not found._plain:                # (copies from hidden zones: see alike.py; an
                    found = untraceable(self, found)    # action found to name none is known at once)
                if self.game.others_zones:
                    self.named, self.chain_reveals = [], ()
                    private_args(self, found, len(self.log))
                signal = found._fn(self, found._args)
                self.log.append(text)
                self._settle(signal)
                if self.named:
                    widen_private(self)
            if self.work_left < WORK_LIMIT - HELD_CHECK_WORK or not len(self.log) & 63:
                self._check_held(text)
        except BaseException as err:            # (Ctrl-C too: the match is as it was)
            self._rebuild(ckpt, played)
            if not isinstance(err, Exception):
                raise
            raise self._rule_error(f"playing `{text}`", err) from None
        if support.CHECK_REPLAY and not _checking[0] and (len(self.log) - ckpt.played == CHECKPOINT_EVERY
                                                  or self.result is not None):
            self._check_rebuild()

    def supply_chance(self, outcomes) -> None:
        """Use these outcomes, in order, for the next shuffles, rolls and picks the rules make,
        before drawing from the generator (rulelang/engine/chance.py says their form): a test, or a replay
        of a game played elsewhere, decides what chance brings. A draw that is not the next one
        supplied (a roll where a shuffle was given) fails the action, which then changes nothing.
        At a question of an effect that drew from the generator before it asked, a ValueError: the
        effect replays from where it began, and there the outcomes given would come first (a review:
        a failed answer then left the match broken) — supply them before the action instead."""
        more = checked_tape(outcomes)
        base = None
        if self.pending is not None:            # the paused chain replays from its base: it must too
            base = self.pending["base"].clone()
            used = len(base.tape) - len(self.tape)      # (the chain's draws that came from its tape)
            if more and getattr(base, "cuts", ()):      # (a determinized copy: past its cut, a fresh
                raise ValueError("chance outcomes cannot be given to an imagined copy at a question: "
                                 "give them before the action, on the match itself")   # generator, no tape)
            if more and len(self.drawn or ()) > used:
                raise ValueError("chance outcomes cannot be given at this question: the effect waiting "
                                 "here drew from the generator before it asked; give them before the "
                                 "action that started it")
        self.tape = tuple(self.tape) + more
        self.ckpt = None                        # a rebuild must meet the same outcomes
        if base is not None and self.pending is not None:
            base.tape = tuple(base.tape) + more
            self.pending = dict(self.pending, base=base)

    def clear_chance(self) -> None:
        """Drop the outcomes supplied (`supply_chance`) and not used yet: after one that did not fit
        failed an action it stays supplied (the match is exactly as before the action), and every
        later draw would fail on it (a researcher's trial found no way out)."""
        left = tuple(self.tape)
        self.tape = ()
        self.ckpt = None                        # (a rebuild must meet the same outcomes: none now)
        if self.pending is not None and left:   # (the paused chain's base keeps those it used)
            base = self.pending["base"].clone()
            base_tape = tuple(base.tape)
            if base_tape[len(base_tape) - len(left):] == left:
                base.tape = base_tape[:len(base_tape) - len(left)]
                self.pending = dict(self.pending, base=base)

    @property
    def chance_events(self) -> list:
        """The shuffles, rolls and picks the last `apply` drew (an action, or an answer: what the
        effect drew after it), in the form `supply_chance` takes — so that supplying each apply's
        events before the same apply replays a match on another seed."""
        return [outcome(e) for e in (self.drawn or ())[self.drawn_from:]]

    def _checkpoint(self) -> Checkpoint:
        """A copy of this position to rebuild from, which costs a copy of the lists only when this
        match would not have to copy them anyway (a fresh clone copies before it is played on). The
        copy takes the copies (`_base`: it keeps no index of its zones, which a rebuild works out):
        this match goes on with its own lists and its index of them, which it would otherwise copy
        and remap before its next action."""
        copy = self.clone() if self.shared == SHARED_ALL else self._base()
        copy.ckpt, copy.inputs = None, ()       # (a chain of checkpoints would keep every old position)
        self.ckpt, self.inputs = Checkpoint(copy, len(self.log)), ()
        return self.ckpt

    def _taking(self, simultaneous: bool, text: str, seat: int | None) -> None:
        """(Games that may pause) Play an input `apply` took (an answer to a simultaneous decision,
        or an action or answer); then the checkpoint and the inputs
        since it lead here (or, if it failed, still lead to where the match stays). A replay inside
        the action may have made this match take on another position's checkpoint on the way."""
        ckpt, inputs = self.ckpt, self.inputs
        answering, drawn, revealed = self.pending is not None, len(self.drawn or ()), False
        try:
            if simultaneous:
                revealed = self._commit(text, seat)
            else:
                self._interactive(text)
        except BaseException:
            # (none before: none now, here too — the replay back to the pause brought the base's, and
            # a determinized copy's base is the real match's: its next failure rebuilt the real
            # hands — a trial)
            self.ckpt, self.inputs = ckpt, inputs
            raise
        if ckpt is not None:
            self.ckpt, self.inputs = ckpt, inputs + ((text, seat),)
        else:       # (none before: none now — not the one a replayed base brought, which may be another
            self.ckpt, self.inputs = None, ()  # world's: a determinized copy's base is the real match's)
        # what this input drew: an answer goes on with the chain's draws (a new chain starts afresh;
        # a commit that is not the last draws nothing — asked of the commit, not of `simul`: the
        # reveal may open the next turn's decision, and its draws read as none — a new author's trial)
        self.drawn_from = drawn if answering or (simultaneous and not revealed) else 0

    def _from_checkpoint(self, ckpt: Checkpoint, played: int) -> "Match":
        """The position a checkpoint and the actions played since it, up to the log's first
        `played` entries, lead to (in a game whose effects never pause, the log is exactly the
        actions played)."""
        base = ckpt.base
        since = self.log[ckpt.played:played]
        if type(base) is tuple:                 # (SETUP, tape): this match as new_match made it
            m = self.game.new_match(self.players, self.seed, self.options, chance=list(base[1]))
        else:
            m = base.clone()
            if m.where is None:                 # (a checkpoint's copy keeps no index of its zones: _base)
                m._where_from_zones()
        for text in since:
            m.apply(text)
        return m

    def _rebuild(self, ckpt: Checkpoint, played: int) -> None:
        """Put this match back where it was before the action that failed: the checkpoint, with
        the actions played since it replayed."""
        m = self._from_checkpoint(ckpt, played)
        self.__dict__.clear()
        self.__dict__.update(m.__dict__)

    def _check_rebuild(self) -> None:
        """(support.CHECK_REPLAY) Replaying from the checkpoint gives exactly this position."""
        assert self.ckpt is not None            # (apply keeps one)
        _replay_check(self, lambda: self._from_checkpoint(self.ckpt, len(self.log)),
                      f"replaying {len(self.log) - self.ckpt.played} action(s) from a checkpoint")

    # ---- what a player may know (for search bots) ----
    @aside
    def estimate(self, player: int) -> float | None:
        """The rules' `estimate` of how well `player` is doing, from 0.0 to 1.0, or None if the
        rules declare none. (A seat that is no player is a ValueError: `estimate(-1)` read the last
        seat's hand.)"""
        player = seat_index(player, self.players)
        fn = self.game.code.estimate
        if fn is None:
            return None
        saved = self.me
        self.me, self.work = player, WORK_LIMIT
        try:
            value = fn(self)
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing the estimate", err) from None
        finally:
            self.me = saved
        return min(100, max(0, value)) / 100

    def scores(self, tie_breaks: bool = False) -> list | None:
        """Each player's score now (`players … ranked by`), or None if the rules keep none;
        `tie_breaks`: each player's list of the score and its tie-breaks (`then …`), in order."""
        if not self.game.scores:
            return None
        try:
            return [list(s) if tie_breaks else s[0] for s in self._scores()]
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing the scores", err) from None

    def clone(self) -> "Match":
        """An independent copy: same state, same random generator state, same future. The copy
        shares everything with this match until either of them is played on (see own)."""
        m = Match.__new__(Match)
        m.__dict__.update(self.__dict__)
        m._rng, m._rng_state = None, self._rng_snapshot()
        if self.cont is not None:
            # this match's paused chain waits in a greenlet whose frames hold its lists: the copy
            # takes copies at once (it answers by replaying from the base), this match keeps its own
            m.cont = None
            m.trig, m.frames, m.replacing = list(self.trig), [dict(f) for f in self.frames], list(self.replacing)
            m.own()
            if self.shared is False:
                self.shared = SHARED_COMPONENTS     # (the components stay shared until one side adds some)
            m._by_text = self._by_text if self.game.code.pure_enumeration else None
            m._zone_ids = None
            return m
        self.shared = m.shared = SHARED_ALL
        # the same position, the same legal actions (unless listing them rolls dice: then the copy
        # lists them afresh, as a restored state does)
        m._by_text = self._by_text if self.game.code.pure_enumeration else None
        m._zone_ids = None
        return m

    def __copy__(self) -> "Match":
        return self.clone()

    def __deepcopy__(self, memo) -> "Match":
        """`copy.deepcopy` gives a `clone`: a copy field by field lost what keys on the identity of
        the zone lists (what was revealed to whom) and the paused chain's greenlet."""
        return self.clone()

    def __reduce_ex__(self, protocol):
        """A match holds compiled code, so pickle (multiprocessing, Ray) cannot take it: say what
        can (it failed on a lambda deep inside, which told a researcher nothing)."""
        raise TypeError("a Match cannot be pickled: send `match.state()` (JSON) and rebuild it with "
                        "`Match.from_state(game, state)` (docs/interop.md, \"Determinism\")")

    # ---- engine internals ----
    def _check_held(self, text: str) -> None:
        """Refuse a position that holds more than STATE_LIMIT elements and characters (variables,
        component fields, messages): a rule error, and the action that made it is undone."""
        if held_size(self) > STATE_LIMIT:
            raise RuleFault(f"after `{_text(text, 60)}`, the position holds more than {STATE_LIMIT} elements and "
                            f"characters in its variables, component fields, messages and modifiers (state limit)")

    def _at_step(self, doing: str) -> str:
        """` at step `act``, where a step is under way (not while the match is set up: the first
        step named there had not begun, a fuzz trial)."""
        return "" if self.step is None or doing.startswith("setting up") else f" at step `{self.step}`"

    def _rule_error(self, doing: str, err: BaseException) -> RulelangError:
        """A RuleRuntimeError saying where (rule file and line) and while doing what a rule failed,
        or an EngineFault when the fault is the engine's own (see _engine_fault)."""
        if isinstance(err, (RuleRuntimeError, EngineFault)) and not isinstance(err, RuleFault):
            return err
        game = self.game
        source = game.ir.get("source", game.name)
        line = game.rule_line(err.__traceback__)
        where = rule_place(game.ir, line) if line is not None else source
        if isinstance(err, WorkFault) and game.in_listing(err.__traceback__):
            # (not "in one effect": a new author's Quoridor spent it listing the first moves, and was sent
            # to look at the set-up)
            said = str(err).replace(" in one effect", f" while listing the legal actions{self._at_step('listing')}")
            return RuleRuntimeError(f"{where}: {said}{game.inlined_at(line)}")
        if isinstance(err, RuleFault):
            return RuleRuntimeError(f"{where}: {err}{game.inlined_at(line)}")
        if _engine_fault(err, game.lowerer.filename) and not game.compiled:
            # (a compiled game read from a file: its types are not the compiler's to vouch for)
            return RuleRuntimeError(f"{where}: rule error{self._at_step(doing)} while {doing}: {_in_words(err)} "
                                    f"(this compiled game is not as the compiler makes one: compile it again "
                                    f"from its rule file)")
        if _engine_fault(err, game.lowerer.filename):
            return EngineFault(f"internal error while {doing} (at step `{self.step}`): {type(err).__name__}: "
                               f"{_text(str(err), 200)}", "".join(traceback.format_exception(err)))
        if isinstance(err, NameError):
            return RuleRuntimeError(f"{where}: rule error{self._at_step(doing)} while {doing}: "
                                    f"a local is used before it has a value")
        made = game.maker_kind(err.__traceback__)
        making = f" (making a {made}: its label, or a field's default)" if made else ""
        return RuleRuntimeError(f"{where}: rule error{self._at_step(doing)} while {doing}: {_in_words(err)}"
                                f"{making}{game.inlined_at(line)}")

    def _fields(self, c: int, kind: str) -> dict:
        F = self.F
        return {name: F[col][c] for name, col in self.game.kind_fields.get(kind, ())}

    def _fail(self, line, msg) -> NoReturn:
        self.game.lowerer.fail(line, msg)

    def _enumerate(self) -> None:
        if self.result is not None:
            self._by_text = []
            return
        if self.pending is not None:
            self._by_text = [Action(t, None, (), ("choose", ())) for t in self.pending["question"]["options"]]
            return
        if self.intern is None:
            self.intern = self.game.universe(self)
        self.me = self.actor
        self.work = WORK_LIMIT
        self._by_text = list_in_position(self, self.game.steps[self.step][2])

    def type_context(self) -> Context:
        """What a value of a declared type may be in this match (rulelang.types): its seats, board,
        components and enums. Restoring a state checks every value against it, and anyone who checks
        a position from outside (the deep lint, rulelang/playtest.py) can ask for the same."""
        geometry = self.game.geometry
        return Context(enums=self.game.enum_names, players=self.players,
                       cells=geometry.size if geometry is not None else 0, kinds=list(self.kinds))


def _apply_lean(self: Match, found: Action) -> None:
    """`apply` of the very action listed, no seat named, in a game that never pauses and has no
    `others` zones (Game.lean, fast path `lean`): what the general path does there — no
    simultaneous decision, no question waiting, no interrupt, no name to hide can occur — and the
    flow settled by flow._settle_lean. The same checkpoint, budget, flow limit, state measure and
    rebuild of a failed action. (Functions, not methods: a match's methods are looked up
    unspecialised by CPython 3.11, its instance dictionary being past the key-sharing limit.)"""
    text = found.text
    played = len(self.log)                  # (the actions before this one: the log up to here)
    ckpt = self.ckpt                        # (the actions since it are the log's last entries)
    if ckpt is None or played - ckpt.played >= CHECKPOINT_EVERY:
        ckpt = self._checkpoint()
    self.drawn = ()
    try:
        if self.shared == SHARED_ALL:
            self.own()
        self.me = self.actor
        self._by_text = None
        self.work = WORK_LIMIT              # units of work this action's effect may take
        if not found._plain:                # (copies from hidden zones: see alike.py)
            found = untraceable(self, found)
        fn = found._fn                      # (read, then called: `found._fn(…)` is looked up unspecialised)
        signal = fn(self, found._args)
        self.log.append(text)
        _settle_lean(self, signal)
        if self.work_left < WORK_LIMIT - HELD_CHECK_WORK or not len(self.log) & 63:
            self._check_held(text)
    except BaseException as err:            # (Ctrl-C too: the match is as it was)
        self._rebuild(ckpt, played)
        if not isinstance(err, Exception):
            raise
        raise self._rule_error(f"playing `{text}`", err) from None
    if support.CHECK_REPLAY and not _checking[0] and (len(self.log) - ckpt.played == CHECKPOINT_EVERY
                                              or self.result is not None):
        self._check_rebuild()
