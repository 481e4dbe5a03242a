"""The engine: a Game holds one compiled IR, a Match holds the state of one play of it.

State is flat and slot-based: `Z` holds one entry per declared zone (a list of component
ids, bottom first so the top of a pile is its last item, or one such list per player or
cell), `V` one entry per declared variable (a value, or a list per player or cell), and
components are columns (`F`, one list per field name, indexed by component id) plus their
kinds and labels, which never change once created. One seeded `random.Random` is the only
source of chance. The flow is a set of steps: a step runs its `enter` block, then waits for
its actor to choose one of its actions. The Game compiles the IR once into Python
functions (rulelang/codegen/); `state()` is the same plain JSON as ever, keyed by names.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import pickle
import random
import reprlib
import traceback

from .chance import Chance, checked_tape, outcome
from .codegen import Action, Lowerer, held_size, plain_text, player_text
from .codegen.runtime import Batch, _next_seat
from .codegen.effects import HIDDEN_ABILITY, Paused, drain, emit_builtin, known_to, seen_by, widen_private
from .errors import EngineFault, IllegalAction, RuleFault, RuleRuntimeError, RulelangError, StateError
from .irspec import ANYTIME_STEP, check_ir, walk_ir
from .limits import COMPONENT_LIMIT, INT_LIMIT, STATE_LIMIT, WORK_LIMIT
from .textsafe import printable
from .types import Context, ValueType

__all__ = ["Action", "Game", "Match"]

# Python errors a rule can provoke (a none where a number was due, say): reported as rule errors
# when the rules' own code raised them (see Match._rule_error); raised inside the engine, they are
# the engine's faults.
RULE_FAULTS = (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError, RecursionError,
               NameError)
SECRET_CHOICE = "(a secret choice)"    # how log_for shows an answer to who may not read it
CHECKPOINT_EVERY = 32        # actions between two checkpoints a failed action is rebuilt from
SETUP = "setup"              # a checkpoint that is the match as new_match made it
# The replay check (docs/engine.md, "The replay contract"): every paused chain, and every position
# rebuilt from a checkpoint, is replayed once more and must give exactly the same position.
CHECK_REPLAY = os.environ.get("RULELANG_CHECK_REPLAY", "") not in ("", "0")
_checking = [False]          # a replay made by the check is not checked itself
FLOW_LIMIT = 1_000           # step changes in one apply before the flow is declared broken
REASON_LIMIT = 500           # characters of an outcome's reason (`finish lose "…"`)
STATE_FORMAT = "rulelang-state"
UNIVERSES = 16               # component sets whose interned actions a Game keeps
INTERN_SLOTS = 2_000_000     # slots of the nested-list intern tables of one universe
# what a position holds (STATE_LIMIT) is measured after an action that did this much work, and
# after every 64th action: between two measures it grows by less than WORK_LIMIT units (the setup,
# one effect, grows it by less than that too)
HELD_CHECK_WORK = WORK_LIMIT // 64
KEPT_SLOTS = 8_000_000       # slots of the intern tables of all the universes a Game keeps
# Match.shared: what a match shares with its clones, to be copied before it changes
SHARED_COMPONENTS = "components"    # the component lists (kinds, labels, fields): see Match.unshare
SHARED_ALL = "all"                  # those and the zones, variables and logs: see Match.own


class _Uninterned:
    """An intern table too large to make (engine INTERN_SLOTS): it keeps nothing, so each listing
    makes its actions afresh. Read as nested lists indexed by ids, `depth` deep."""
    __slots__ = ("inner",)

    def __init__(self, depth: int):
        self.inner = _Uninterned(depth - 1) if depth > 1 else None

    def __getitem__(self, key):
        return self.inner

    def __setitem__(self, key, value) -> None:
        pass


class Game:
    """A loaded rule file: build matches from it."""

    def __init__(self, ir: dict, path: str | None = None):
        check_ir(ir, path or "<ir>")            # untrusted IR: refused before any code is generated
        self.ir = ir
        self.path = path
        self.name = ir["name"]
        self.min_players = ir["players"]["min"]
        self.max_players = ir["players"]["max"]
        self.options = [dict(o) for o in ir["options"]]
        # the rules' content, not where they were read from: `./x.rules` and `/abs/x.rules` are one game;
        # nor the words about them (`about`): a save stays good when its rulebook is reworded
        self.fingerprint = hashlib.sha256(json.dumps({k: v for k, v in ir.items() if k not in ("source", "about")},
                                                     sort_keys=True).encode()).hexdigest()[:16]
        self.about = ir.get("about", {})
        low = Lowerer(ir)
        code = low.build()
        self.lowerer = low
        self.code = code
        self.zones = ir["zones"]
        self.zone_slot = low.zone_slot
        self.var_slot = low.var_slot
        self.vars = [(v["name"], v["per"], v["visibility"], code.var_init[i]) for i, v in enumerate(ir["vars"])]
        self.var_types = {v["name"]: v["type"] for v in ir["vars"]}
        self.var_keys = {v["name"]: v["key"] for v in ir["vars"] if v["per"] == "key"}
        self.enums = ir["enums"]
        self.setup = code.setup
        self.steps = code.steps
        self.first_step = ir["first_step"]
        self.handlers = code.handlers
        self.on_turn_start = code.handlers.get("turn_start")
        self.on_turn_end = code.handlers.get("turn_end")
        self.sequenced = low.rounds                # rounds, a turn order, eliminated players (Match.seq)
        self.on_round_start = code.handlers.get("round_start")
        self.on_round_end = code.handlers.get("round_end")
        self.first_goto = ("goto", ir["first_step"])
        self.has_interrupts = ANYTIME_STEP in self.steps       # any-time actions, usable out of turn
        # a turn ends and the next begins with no rule of its own to run (see Match._settle)
        self.plain_turns = (self.on_turn_start is None and self.on_turn_end is None and not self.sequenced
                            and not any(code.builtin_triggers.values()) and not code.has_grants)
        self.can_pause = code.can_pause
        self.start_triggers = bool(code.builtin_triggers["turn_start"])   # card triggers on turn boundaries
        self.end_triggers = bool(code.builtin_triggers["turn_end"])
        self.checks = code.checks
        self.limits = code.limits
        self.scores = code.scores
        self.geometry = low.geometry
        self.columns = low.columns
        self.kind_fields = low.kind_fields
        board = (ir.get("boards") or [None])[0]
        self.draw = code.defs[board["draw"]] if board and board["draw"] else None
        self.shown = code.shown
        self.slot_caps = [(z["capacity"], z["name"]) if z["capacity"] is not None else None for z in self.zones]
        self._universes: dict = {}
        self._kept = 0                             # slots of the intern tables kept in _universes
        self._seats: dict = {}
        self.field_types = {k: {f["name"]: f["type"] for f in spec["fields"]} for k, spec in ir["kinds"].items()}
        self.enum_names = {e: {item["name"] for item in items} for e, items in ir["enums"].items()}
        self._setups: dict = {}                    # see setup_components
        self._play_kinds: set | None = None        # see play_kinds
        # zone families per component: one zone per component, added as components are created
        self.component_zones = [i for i, z in enumerate(self.zones) if z["per"] == "component"]
        self.zone_kind = _zone_kinds(ir)           # what a zone's components are, where the rules say
        # how a view words a variable that holds a player, a component, a cell or an enum value
        self.var_how = {v["name"]: _how(v["type"]) for v in ir["vars"] if _how(v["type"]) != "plain"}

    def family_size(self, per: str, players: int, components: int = 0, key=None) -> int:
        """How many zones (or values) a `per player` / `per cell` / per-component declaration stands
        for, or a family `per` enum values or a combination of parts (`key`)."""
        if per == "key":
            size = 1
            for part in key:
                size *= self.part_size(part, players)
            return size
        return players if per == "player" else components if per == "component" else self.geometry.size

    def part_size(self, part: str, players: int) -> int:
        return players if part == "player" else self.geometry.size if part == "cell" else len(self.enums[part[5:]])

    def members(self, key: list, players: int) -> list[tuple]:
        """Each member of a keyed family, in its list's order: a tuple of one value per part (a
        seat, a cell index, an enum value's name), the last part varying fastest."""
        out = [()]
        for part in key:
            values = (list(range(players)) if part == "player" else list(range(self.geometry.size))
                      if part == "cell" else [v["name"] for v in self.enums[part[5:]]])
            out = [t + (v,) for t in out for v in values]
        return out

    def member_owner(self, z: dict, member: int, players: int) -> int | None:
        """The seat a zone of a family belongs to: its `per player` part, if it has one."""
        per = z["per"]
        if per == "player":
            return member
        if per != "key" or "player" not in z["key"]:
            return None
        stride = 1
        for part in z["key"][z["key"].index("player") + 1:]:
            stride *= self.part_size(part, players)
        return (member // stride) % players

    def member_text(self, key: list, values: tuple) -> str:
        """`P2, red`: a member of a keyed family in words."""
        words = []
        for part, v in zip(key, values):
            if part == "player":
                words.append(f"P{v + 1}")
            elif part == "cell":
                words.append(self.geometry.names[v])
            else:
                words.append(next(x["text"] for x in self.enums[part[5:]] if x["name"] == v))
        return ", ".join(words)

    def option_values(self, options: dict | None) -> dict:
        values = {o["name"]: o["default"] for o in self.options}
        for key, value in (options or {}).items():
            spec = next((o for o in self.options if o["name"] == key), None)
            if spec is None:
                known = ", ".join(values) or "none"
                raise ValueError(f"unknown option `{_text(str(key))}` for {_text(self.name)} (options: {known})")
            want = {"bool": bool, "int": int, "text": str}.get(spec["type"])
            if want is not None and (type(value) is not want):
                raise ValueError(f"option `{key}` must be {spec['type']}, not {_short(value)}")
            values[key] = value
        return values

    def new_match(self, players: int | None = None, seed: int = 0, options: dict | None = None,
                  chance: list | None = None) -> "Match":
        """A match set up and ready for its first action. `chance`: outcomes its first shuffles,
        rolls and picks use before the generator (`Match.supply_chance`), setup's included."""
        players = self.min_players if players is None else players
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}..{self.max_players} players, not {players}")
        m = Match(self, players, seed, self.option_values(options))
        if chance:
            m.tape = checked_tape(chance)
        m.drawn = ()
        if not self.can_pause:                      # a failed action rebuilds from a new match (no copy)
            m.ckpt = ((SETUP, m.tape), 0)
        if self.can_pause:                          # the setup may stop for a choice too
            m._resume(m.clone(), ["start"], [], "setting up the match", here=True)
            return m
        try:
            m._start()
        except RULE_FAULTS + (RuleFault,) as err:
            raise m._rule_error("setting up the match", err) from None
        return m

    def setup_components(self, players: int, seed, options: dict) -> list:
        """The components a new match with these settings starts with, as `state()` lists them:
        what a restored state must hold (plus what the rules create in play), no more."""
        key = (players, seed, tuple(sorted(options.items())))
        found = self._setups.get(key)
        if found is None:
            found = self.new_match(players, seed, options).state()["components"]
            if len(self._setups) >= UNIVERSES:
                self._setups.clear()
            self._setups[key] = found
        return found

    def play_kinds(self) -> set:
        """The kinds of component the rules may create after setup (in an action, a step, a handler...)."""
        if self._play_kinds is None:
            self._play_kinds = {x["kind"] for key, part in self.ir.items() if key != "setup"
                                for x in walk_ir(part) if x.get("s") == "create" and isinstance(x.get("kind"), str)}
        return self._play_kinds

    def seats(self, players: int) -> tuple[list, list]:
        """`players` and `others` (clockwise after each seat) for a player count; shared, never changed."""
        s = self._seats.get(players)
        if s is None:
            s = self._seats[players] = (list(range(players)),
                                        [[(me + i) % players for i in range(1, players)] for me in range(players)])
        return s

    def universe(self, m: "Match") -> list:
        """The interned actions (one table per action) shared by the matches whose components are
        the same (same kinds, fields and labels, in the same order): keyed by how they were created
        (the bulk creations and single creates, in order), or by their content after a restore."""
        if m.created is not None:
            key = tuple(m.created)
        else:
            key = ("restored", tuple(m.kinds), tuple(m.labels), tuple(tuple(col) for col in m.F))
        try:
            u = self._universes.get(key)
        except TypeError:                      # unhashable field values: a universe of its own
            key, u = None, None
        if u is None:
            sizes = {"comp": len(m.labels), "cell": self.geometry.size if self.geometry else 0,
                     "player": self.max_players}
            # nested lists indexed by ids while INTERN_SLOTS last (a pair of components of 10,000
            # would be 100 million); past them a table keeps nothing, and the actions are made afresh
            room, u = INTERN_SLOTS, []
            for dims in self.code.intern_dims:
                if not dims:
                    u.append({})
                    continue
                shape = [sizes[d] for d in dims]
                slots = math.prod(shape)
                u.append(self._table(shape) if slots <= room else _Uninterned(len(shape)))
                room -= min(slots, room)
            used = INTERN_SLOTS - room
            if key is not None and len(self._universes) < UNIVERSES and self._kept + used <= KEPT_SLOTS:
                self._universes[key] = u
                self._kept += used
        return u

    @staticmethod
    def _table(sizes: list[int]):
        """Nested lists of None, indexed by ids: where the actions of one universe are interned."""
        if len(sizes) == 1:
            return [None] * sizes[0]
        return [Game._table(sizes[1:]) for _ in range(sizes[0])]

    def rule_line(self, tb) -> int | None:
        """The rule line of the innermost generated-code frame of a traceback."""
        low = self.lowerer
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == low.filename:
                n = tb.tb_lineno
                if 0 < n < len(low.line_map) and low.line_map[n] is not None:
                    line = low.line_map[n]
            tb = tb.tb_next
        return line


class Match:
    """One play of a game. Use only the public methods; the rest is the engine's."""

    # The interaction model's state (codegen/effects.py). Class-level defaults: a game that can
    # never pause never sets them, and its matches and clones stay as small as before.
    pending = None                  # a paused effect: {"base", "root", "answers", "question"}
    answers: list = []              # answers to replay in the effect running now (never mutated)
    pos = 0                         # how many of them the choices have used
    trig: list = []                 # triggers waiting for the current effect to end
    frames: list = []               # the abilities and windows running now (for `state()`)
    known: dict = {}                # component -> ([zone, owner], players or "all") it was revealed to
    replacing: list = []            # replacements running now (each applies once per chain)
    grants: list = []               # timed modifiers: [def index, arguments, amount] until the turn ends
    private: dict = {}              # log index -> the seats that may read that answer (never mutated: replaced)
    named: list = []                # (log index, component) of the private answers of the chain running
    cards_index = None              # see effects._cards
    src = None                      # the card whose ability runs now (`source`)
    tape: tuple = ()                # chance outcomes to use before the generator (rulelang/chance.py)
    drawn = None                    # the chance outcomes the last action (its whole chain) drew
    ckpt = None                     # (an earlier position or SETUP, its log's length): what a failed action rebuilds from
    cuts: tuple = ()                # a determinized copy's base: where its replay leaves the real world (see sampler)
    origin_cache = None             # see origins
    zone_info = None                # see effects._zone_info
    lm = None                       # while a listing runs (and only then): defs' results (codegen, "lmemo")

    def __init__(self, game: Game, players: int, seed, options: dict):
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self._rng = random.Random(seed)
        self._rng_state = None                     # a snapshot, when `_rng` is None (see `rng`)
        self.shared = False                        # components shared with a clone: copy before adding
        self.Z: list = []
        self.V: list = []
        self.F: list = [[] for _ in game.columns]
        self.kinds: list[str] = []
        self.labels: list[str] = []
        self.where: list = []                      # component id -> the zone list holding it
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
        self.intern = None                         # this match's universe (see Game.universe)
        self.created: list | None = []             # how its components were created (universe key)
        self.comp_defaults: list = []              # (var slot, initial value) of each per-component variable
        self._by_text: dict | None = None          # the legal actions now, by text (None: not listed yet)
        self._zone_ids = None
        if game.can_pause:
            self.answers, self.trig, self.frames, self.known, self.replacing = [], [], [], {}, []
            self.grants, self.private = [], {}
        if game.sequenced:                         # [round, turn order, eliminated seats as booleans]
            self.seq = [0, list(range(players)), [False] * players]
        # (no more attributes here without need: past 30, CPython stops sharing the instance
        # dict's keys between matches, and every match and clone grows by ~1.3 kB)

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
            r = self._rng = random.Random.__new__(random.Random)
            r.setstate(self._rng_state)
            self._rng_state = None
        return r

    def _rng_snapshot(self) -> tuple:
        """The generator's state, which this match keeps as a snapshot (until it next needs it)."""
        if self._rng is not None:
            self._rng_state = self._rng.getstate()
            self._rng = None
        return self._rng_state

    def unshare(self) -> None:
        """Copy the component lists this match shares with clones, before adding to them."""
        if self.shared == SHARED_ALL:
            self.own()
        self.F = [list(col) for col in self.F]
        self.kinds, self.labels = list(self.kinds), list(self.labels)
        self.shared = False

    def own(self) -> None:
        """Copy the zones, variables and logs this match shares with a clone (or with the match it
        was cloned from) before anything changes them. A clone costs only this copy, and only once
        it is played on: a search that keeps many positions it never plays on keeps them cheaply.
        (Components stay shared until one side creates more: see unshare.)"""
        game = self.game
        fresh: dict = {}
        Z = []
        for z, value in zip(game.zones, self.Z):
            if z["per"]:
                copy = [list(x) for x in value]
                for old, new in zip(value, copy):
                    if old:                        # only a zone holding components is in `where`
                        fresh[id(old)] = new
            else:
                copy = list(value)
                fresh[id(value)] = copy
            Z.append(copy)
        self.Z = Z
        self.V = [list(v) if isinstance(v, list) else v for v in self.V]
        self.created = list(self.created) if self.created is not None else None
        self.where = [fresh[id(zl)] if zl is not None else None for zl in self.where]
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
        return list(self._by_text.values())

    def interrupts(self, player: int) -> list[Action]:
        """The `anytime` actions `player` may take now although another player is to act (revealing
        one's role in someone else's turn). Offered only while no effect waits for an answer, so
        nobody is ever asked to pass. Their texts name the player (`P3: reveal`); `apply` takes them
        like any legal action, and the player to act afterwards is the one who was to act before."""
        if (self.result is not None or self.pending is not None or ANYTIME_STEP not in self.game.steps
                or type(player) is not int or not 0 <= player < self.players or player == self.actor):
            return []
        try:
            found = self._as_interrupt(player, lambda: self.game.steps[ANYTIME_STEP][2](self))
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("listing the legal actions", err) from None
        prefix = player_text(player) + ": "
        return [Action(prefix + a.text, a._fn, a._args, a._meta) for a in found.values()]

    def _as_interrupt(self, player: int, run):
        """Run `run()` as if `player` acted at the anytime step; the step and actor are put back."""
        step, actor, listed = self.step, self.actor, self._by_text
        self.step, self.actor, self.me = ANYTIME_STEP, player, player
        self.work = WORK_LIMIT
        try:
            return run()
        finally:
            self.step, self.actor, self._by_text = step, actor, listed

    def _interrupt(self, text: str):
        """The interrupt an action text names (`P3: reveal`), or None."""
        player = interrupt_seat(text)
        if player is None or ANYTIME_STEP not in self.game.steps:
            return None
        return next((a for a in self.interrupts(player) if a.text == text), None)

    def _run_interrupt(self, found: Action) -> None:
        """Apply an interrupt; unless it moves the flow on, the same player is still to act."""
        player = interrupt_seat(found.text)
        if self.shared == SHARED_ALL:
            self.own()
        self.log.append(found.text)
        self._by_text = None
        signal = self._as_interrupt(player, lambda: found._fn(self, found._args))
        self._by_text = None
        if self.trig:
            signal = drain(self) or signal
        self._settle(signal)

    def apply(self, action) -> None:
        text = action.text if type(action) is Action else str(action).strip()
        by_text = self._by_text
        if by_text is None or self.result is not None:
            if self.result is not None:
                raise IllegalAction(f"the game is over; `{text}` cannot be played")
            self.legal_actions()
            by_text = self._by_text
        found = by_text.get(text)
        interrupt = False
        if found is None and self.pending is None:
            found = self._interrupt(text)
            interrupt = found is not None
        if found is None:
            raise IllegalAction(f"`{text}` is not a legal action now")
        if self.game.can_pause:
            self._interactive(text)
            return
        # Atomic: a failed action leaves the match as it was. Rather than copy the position before
        # every action, keep a checkpoint now and then and the actions played since: a failure
        # rebuilds the position by replaying them (the same replay pausing relies on).
        ckpt = self.ckpt                        # (the actions since it are the log's last entries)
        if ckpt is None or len(self.log) - ckpt[1] >= CHECKPOINT_EVERY:
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
                signal = found._fn(self, found._args)
                self.log.append(text)
                self._settle(signal)
            if self.work < WORK_LIMIT - HELD_CHECK_WORK or not len(self.log) & 63:
                self._check_held(text)
        except BaseException as err:            # (Ctrl-C too: the match is as it was)
            self._rebuild(ckpt, played)
            if not isinstance(err, Exception):
                raise
            raise self._rule_error(f"playing `{text}`", err) from None
        if CHECK_REPLAY and not _checking[0] and (len(self.log) - ckpt[1] == CHECKPOINT_EVERY
                                                  or self.result is not None):
            self._check_rebuild()

    def supply_chance(self, outcomes) -> None:
        """Use these outcomes, in order, for the next shuffles, rolls and picks the rules make,
        before drawing from the generator (rulelang/chance.py says their form): a test, or a replay
        of a game played elsewhere, decides what chance brings. A draw that is not the next one
        supplied (a roll where a shuffle was given) fails the action, which then changes nothing."""
        more = checked_tape(outcomes)
        self.tape = tuple(self.tape) + more
        self.ckpt = None                        # a rebuild must meet the same outcomes
        if self.pending is not None:            # the paused chain replays from its base: it must too
            base = self.pending["base"].clone()
            base.tape = tuple(base.tape) + more
            self.pending = dict(self.pending, base=base)

    @property
    def chance_events(self) -> list:
        """The shuffles, rolls and picks the last action drew (with its answers so far, if it is
        paused), in the form `supply_chance` takes."""
        return [outcome(e) for e in (self.drawn or ())]

    def _checkpoint(self) -> tuple:
        """A copy of this position to rebuild from, which costs a copy of the lists only when this
        match would not have to copy them anyway (a fresh clone copies before it is played on)."""
        copy = self.clone()
        copy.ckpt = None                        # (a chain of checkpoints would keep every old position)
        self.ckpt = (copy, len(self.log))
        return self.ckpt

    def _from_checkpoint(self, ckpt: tuple, played: int) -> "Match":
        """The position a checkpoint and the actions played since it, up to the log's first
        `played` entries, lead to (in a game whose effects never pause, the log is exactly the
        actions played)."""
        base, start = ckpt
        since = self.log[start:played]
        if type(base) is tuple:                 # (SETUP, tape): this match as new_match made it
            m = self.game.new_match(self.players, self.seed, self.options, chance=list(base[1]))
        else:
            m = base.clone()
        for text in since:
            m.apply(text)
        return m

    def _rebuild(self, ckpt: tuple, played: int) -> None:
        """Put this match back where it was before the action that failed: the checkpoint, with
        the actions played since it replayed."""
        m = self._from_checkpoint(ckpt, played)
        self.__dict__.clear()
        self.__dict__.update(m.__dict__)

    def _check_rebuild(self) -> None:
        """(CHECK_REPLAY) Replaying from the checkpoint gives exactly this position."""
        _replay_check(self, lambda: self._from_checkpoint(self.ckpt, len(self.log)),
                      f"replaying {len(self.log) - self.ckpt[1]} action(s) from a checkpoint")

    # ---- what a player may know (for search bots) ----
    def estimate(self, player: int) -> float | None:
        """The rules' `estimate` of how well `player` is doing, from 0.0 to 1.0, or None if the
        rules declare none."""
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

    def scores(self) -> list[int] | None:
        """Each player's score now (`players … ranked by`), or None if the rules keep none."""
        if not self.game.scores:
            return None
        try:
            return [s[0] for s in self._scores()]
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing the scores", err) from None

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
        # made elsewhere but lying unseen among them now (a card shuffled into a deck) too
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
                        parent[root(made)] = root((kind, z["name"]))
                        unseen.append(((slot, family, i), c, made))
        groups: dict = {}                        # a root -> the places of its unseen components
        for place, c, made in unseen:
            groups.setdefault(root(made), []).append((place, c))
        # what is unseen, not where it is, decides the copy: fair
        plan = [([place for place, _ in groups[key]], [c for _, c in groups[key]],
                 sorted(c for _, c in groups[key])) for key in sorted(groups, key=repr)]
        pending = self.pending

        def sample(seed) -> "Match":
            rng = random.Random(seed)
            m = self.clone()
            m.own()
            Z, where = m.Z, m.where
            mapping = {}
            for places, olds, ids in plan:
                ids = list(ids)
                rng.shuffle(ids)
                for (slot, family, i), old, new in zip(places, olds, ids):
                    zl = Z[slot] if family is None else Z[slot][family]
                    zl[i] = new
                    where[new] = zl
                    mapping[old] = new
            m._by_text = None
            m.zone_info = None
            if m.known:
                m.known = {c: k for c, k in m.known.items() if c in seen}
            m._rng, m._rng_state = random.Random(rng.getrandbits(64)), None
            m.tape, m.ckpt = (), None             # chance given ahead of time is the future too
            m.seed = None                         # (the seed would tell the deal: replay the setup)
            if pending is not None:
                # The paused chain replays from its base as it really ran, up to the question it
                # waits for (what it did so far depended on the real cards: so does its replay).
                # There, a *cut* deals the unseen components as this copy has them and gives a
                # fresh generator: every later choice and draw meets the imagined world only.
                base = pending["base"].clone()
                base.cuts = tuple(base.cuts) + ((len(pending["answers"]), mapping, seen, rng.getrandbits(64)),)
                m.pending = dict(pending, base=base)
            return m
        return sample

    def visible_to(self, player: int) -> set:
        """The components `player` may see now (public zones, their own, revealed to them)."""
        if not 0 <= player < self.players:
            raise ValueError(f"no player {player} in a {self.players}-player match")
        return self._seen_by(player)

    def _seen_by(self, player: int) -> set:
        """The components `player` may see now."""
        seen = set(known_to(self, player)) if self.known else set()
        for z, value in zip(self.game.zones, self.Z):
            if z["visibility"] == "public":
                for zl in (value if z["per"] else [value]):
                    seen.update(zl[-1:] if z.get("top") else zl)
            elif z["visibility"] == "owner" and z["per"] == "player":
                seen.update(value[player])
            elif z["visibility"] == "owner" and z["per"] == "key":
                for member, zl in enumerate(value):
                    if self.game.member_owner(z, member, self.players) == player:
                        seen.update(zl)
        return seen

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
        out: list = []
        for entry in created:
            if type(entry) is int:
                batch = Batch.by_serial.get(entry)
                if batch is None:
                    break
                out += [batch.dests[d] for d in batch.dest_of]
            else:
                out.append(entry[3] if len(entry) > 3 else None)
        out = (out + [None] * n)[:n]
        self.origin_cache = out
        return out

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
        lists (its index of them, `zone_info`, stays good) and its own random generator."""
        shared, rng = self.shared, self._rng
        base = self.clone()
        if rng is not None:                     # (the copy starts from a snapshot of it)
            self._rng, self._rng_state = rng, None
        base.own()
        if shared != SHARED_ALL:                # (else another clone still shares them)
            self.shared = SHARED_COMPONENTS
        return base

    def _resume(self, base: "Match", root: list, answers: list, doing: str, here: bool = False) -> None:
        """Run a chain (an action, or the setup) with these answers: here, on this match (a new
        action; `base` is its copy from before), or on a copy of `base` that then becomes this
        match. A failure leaves this match as it was before."""
        m = self if here else base.clone()
        try:
            m._chain(base, root, answers, doing)
            if root[0] != "start" and (m.work < WORK_LIMIT - HELD_CHECK_WORK or not len(m.log) & 63):
                m._check_held(root[1])
        except BaseException as err:
            if here:                            # undo the half-run action: back to the base
                restored = base.clone()
                self.__dict__.clear()
                self.__dict__.update(restored.__dict__)
            if isinstance(err, Exception):
                raise m._rule_error(doing, err) from None
            raise
        if CHECK_REPLAY and not _checking[0]:
            _check_chain(m, base, root, answers)
        if not here:
            self.__dict__.clear()
            self.__dict__.update(m.__dict__)

    def _chain(self, base: "Match", root: list, answers: list, doing: str) -> None:
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
        text = root[1]
        found = self._listed().get(text)
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

    def _listed(self) -> dict:
        if self._by_text is None:
            self._enumerate()
        return self._by_text

    @property
    def question(self) -> dict | None:
        """The choice a paused effect waits for (chooser, prompt, kind, options, the abilities
        and windows running, the triggers waiting), or None."""
        return None if self.pending is None else self.pending["question"]

    def log_for(self, player: int | None) -> list[str]:
        """The log (actions and answers, in order) as `player` may read it: an answer naming a
        component that player could not see when it was chosen reads "(a secret choice)".
        None: as everyone may read it (a spectator)."""
        private = self.private
        if not private:
            return list(self.log)
        return [SECRET_CHOICE if i in private and (player is None or player not in private[i]) else text
                for i, text in enumerate(self.log)]

    def message_log(self) -> list[dict]:
        """Every message so far, in order: {"to": None (everyone) or [players], "text": …}."""
        return [{"to": None, "text": x} if isinstance(x, str) else {"to": list(x["to"]), "text": x["text"]}
                for x in self.messages]

    def messages_for(self, player: int) -> list[str]:
        """The messages `player` may read: everyone's, and those sent to them (`log … to`)."""
        return [x if isinstance(x, str) else x["text"] for x in self.messages
                if isinstance(x, str) or player in x["to"]]

    def view(self, player: int) -> dict:
        if not 0 <= player < self.players:
            raise ValueError(f"no player {player} in a {self.players}-player match")
        self.work = WORK_LIMIT                      # shown defs may loop too
        game = self.game
        zones = []
        cells: dict = {}
        seen: list[int] = []                       # the components this player may see
        geometry = game.geometry
        known = known_to(self, player) if self.known else {}
        for z in game.zones:
            if z.get("internal"):                  # bookkeeping the rules keep out of every view
                continue
            name, vis = z["name"], z["visibility"]
            value = self.Z[game.zone_slot[name]]
            if z["per"] == "cell":
                for cell, items in enumerate(value):
                    if items:
                        visible = (items[-1:] if z.get("top") else items) if vis == "public" else None
                        shown = [self.labels[c] for c in visible] if visible is not None else None
                        if visible is not None:
                            seen.extend(visible)
                        cells.setdefault(geometry.names[cell], {})[name] = shown if shown is not None else len(items)
                continue
            if z["per"] == "component":            # one zone per component: those holding something
                owners = [c for c, items in enumerate(value) if items]
            else:
                owners = range(len(value)) if z["per"] else [None]
            keyed = z["per"] == "key"
            members = game.members(z["key"], self.players) if keyed else None
            top_only = z.get("top")
            for owner in owners:
                items = value[owner] if owner is not None else value
                if top_only and items:                 # a pile showing only its top: the rest unseen
                    seen.append(items[-1])
                    entry = {"name": name, "owner": owner, "visibility": vis, "ordered": True, "count": len(items),
                             "kind": game.zone_kind[name], "top_only": True,
                             "cards": [{"id": items[-1], "label": self.labels[items[-1]]}]}
                    if z["per"] == "key":
                        entry["key"] = list(game.members(z["key"], self.players)[owner])
                        entry["key_text"] = game.member_text(z["key"], entry["key"])
                        entry["owner"] = game.member_owner(z, owner, self.players)
                    elif z["per"] == "cell" or z["per"] == "component":
                        entry["owner"] = None
                    zones.append(entry)
                    continue
                member = owner
                if keyed:
                    owner = game.member_owner(z, member, self.players)
                visible = vis == "public" or (vis == "owner" and owner == player)
                if visible:
                    seen.extend(items)
                kind = game.zone_kind[name]
                if visible and items:                  # what is seen: its kinds are no secret
                    kinds = {self.kinds[c] for c in items}
                    kind = kinds.pop() if len(kinds) == 1 else None
                entry = {"name": name, "owner": owner, "visibility": vis, "ordered": z["ordered"],
                         "count": len(items), "kind": kind,
                         "cards": [{"id": c, "label": self.labels[c]} for c in items] if visible else None}
                if z["per"] == "component":        # (its owner is a component: say which)
                    entry["owner"] = None
                    entry["of"] = {"id": owner, "label": self.labels[owner]}
                elif keyed:                        # one of a family per enum value(s): which
                    entry["key"] = list(members[member])
                    entry["key_text"] = game.member_text(z["key"], members[member])
                if not visible and known:
                    shown = [{"id": c, "label": self.labels[c]} for c in items if c in known]
                    if shown:                      # revealed to this player (`reveal`, `look`)
                        entry["known"] = shown
                        seen.extend(x["id"] for x in shown)
                zones.append(entry)
        values = []
        component_values: dict = {}
        saved = self.me
        seen_set = set(seen)
        try:
            for name, per, vis, init in game.vars:
                if vis == "hidden":
                    continue
                value = self.V[game.var_slot[name]]
                if per == "component":                 # visible components whose value is not the initial one
                    initial = next(v for slot, v in self.comp_defaults if slot == game.var_slot[name])
                    for c in seen:
                        if value[c] != initial:
                            component_values.setdefault(str(c), {})[name] = self._plain(value[c])
                    continue
                if per == "cell":                      # only the cells that differ from the initial value
                    initial = init(self)
                    for cell, v in enumerate(value):
                        if v != initial:
                            cells.setdefault(geometry.names[cell], {})[name] = self._plain(v)
                    continue
                how = game.var_how.get(name)
                if per == "key":                       # per enum value(s): each member named
                    key = game.var_keys[name]
                    owner_at = key.index("player") if "player" in key else None
                    row = []
                    for parts, v in zip(game.members(key, self.players), value):
                        shown = vis == "public" or (owner_at is not None and parts[owner_at] == player)
                        member = {"key": list(parts), "key_text": game.member_text(key, parts),
                                  "value": self._seen_value(how, v, seen_set) if shown else None}
                        if how is not None and shown:
                            member["text"] = self._words(how, member["value"], seen_set)
                        row.append(member)
                    values.append({"name": name, "per_key": row})
                    continue
                if per:
                    row = [self._seen_value(how, v, seen_set) if (vis == "public" or p == player) else None
                           for p, v in enumerate(value)]
                    entry = {"name": name, "per_player": row}
                    if how is not None:                # "P2", a card's label: what the value is, in words
                        entry["texts"] = [None if not (vis == "public" or p == player) or v is None
                                          else self._words(how, v, seen_set) for p, v in enumerate(value)]
                else:
                    entry = {"name": name, "value": self._seen_value(how, value, seen_set)}
                    if how is not None:
                        entry["text"] = self._words(how, value, seen_set)
                values.append(entry)
            self.me = player
            labels = game.code.labels
            for name, fn, how, to_text in game.shown:
                value = fn(self)
                if how.startswith("list:"):       # a list: each element's text (the screen lays them out)
                    inner = how[5:]
                    shown = [self._plain(v) if inner == "plain" else to_text(self.labels, [v]) for v in value]
                else:
                    shown = self._plain(value) if how == "plain" else to_text(self.labels, value)
                if name in labels:                 # `show "Label" = E`: named as the rules say
                    values.append({"name": labels[name], "value": shown, "label": True})
                else:
                    values.append({"name": name, "value": shown})
            drawing = self._drawing(player) if geometry is not None else None
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing a view", err) from None
        finally:
            self.me = saved
        return {"game": game.name, "players": self.players, "viewer": player,
                "actor": self.current_player, "turn_player": self.current, "step": self.step,
                "turn": self.turn_count, "zones": zones, "values": values, "cells": cells,
                "component_values": component_values, "board": drawing, "over": self.is_over,
                "outcome": self.result, **self._choice_view(player),
                **({"round": self.seq[0], "turn_order": list(self.seq[1]),
                    "eliminated": [p for p in range(self.players) if self.seq[2][p]]} if game.sequenced else {})}

    def _choice_view(self, player: int) -> dict:
        """What a player sees of a paused effect: who must choose what, and what is running. The
        options are the chooser's alone (they may name cards only the chooser can see)."""
        if self.pending is None or self.result is not None:
            return {}
        q = self.pending["question"]
        running = []
        for f in q["stack"]:
            source = f.get("source")
            if source is not None and not seen_by(self, source, player):    # a card this player cannot see
                f = {**f, "effect": HIDDEN_ABILITY, "source": None}
            running.append(dict(f))
        return {"choice": {"chooser": q["chooser"], "prompt": q["prompt"], "kind": q["kind"],
                           "options": list(q["options"]) if player == q["chooser"] else None,
                           "running": running}}

    def state(self) -> dict:
        game = self.game
        version, internal, gauss = self._rng.getstate() if self._rng is not None else self._rng_state
        Z, V = self.Z, self.V
        return {
            "format": STATE_FORMAT, "version": 1, "game": game.name, "fingerprint": game.fingerprint,
            "players": self.players, "seed": self.seed, "options": dict(self.options),
            "rng": [version, list(internal), gauss],
            "components": [{"kind": k, "fields": self._fields(c, k), "label": l}
                           for c, (k, l) in enumerate(zip(self.kinds, self.labels))],
            "zones": {z["name"]: ([list(x) for x in Z[i]] if z["per"] else list(Z[i]))
                      for i, z in enumerate(game.zones)},
            "vars": {name: (list(V[i]) if isinstance(V[i], list) else V[i]) for i, (name, *_) in enumerate(game.vars)},
            "step": self.step, "current": self.current, "actor": self.actor, "turn": self.turn_count,
            "outcome": self.result, "log": list(self.log), "messages": list(self.messages),
            **({"tape": [list(e) if e[0] != "shuffle" else [e[0], e[1], list(e[2])] for e in self.tape]}
               if self.tape else {}),
            **({"cuts": [[at, sorted([a, b] for a, b in mapping.items()), sorted(seen), luck]
                         for at, mapping, seen, luck in self.cuts]} if self.cuts else {}),
            **self._interaction_state(),
            **({"rounds": {"round": self.seq[0], "order": list(self.seq[1]),
                           "eliminated": [p for p in range(self.players) if self.seq[2][p]]}}
               if game.sequenced else {}),
        }

    def _interaction_state(self) -> dict:
        """The paused effect and the revealed components, when there are any (plain JSON)."""
        out: dict = {}
        if self.known:
            out["known"] = {str(c): {"zone": zone, "to": who} for c, (zone, who) in self.known.items()}
        if self.grants:
            names = list(self.game.ir["defs"])
            out["grants"] = [[names[d], list(a), v] for d, a, v in self.grants]
        if self.private:
            out["private"] = {str(i): list(seats) for i, seats in sorted(self.private.items())}
        pending = self.pending
        if pending is not None:
            q = pending["question"]
            out["pending"] = {
                "root": list(pending["root"]), "answers": list(pending["answers"]),
                "question": {"chooser": q["chooser"], "prompt": q["prompt"], "kind": q["kind"],
                             "options": list(q["options"])},
                # where the effect stopped: the abilities and windows running, the triggers waiting
                "stack": [dict(f) for f in q["stack"]], "triggers": list(q["triggers"]),
                "base": pending["base"].state() if pending["root"] != ["start"] else None}
        return out

    @classmethod
    def from_state(cls, game: Game, data: dict) -> "Match":
        """A match in the position `data` (a `state()`, or a test position built from one).

        The data may come from anywhere, so everything that can be checked is: the components are
        the ones setup makes (plus any the rules create in play), each in exactly one zone within
        its capacity, values of their declared types, known options, a real step and its actor, a
        well-formed outcome and generator state. Any problem is a StateError with a one-line reason.
        """
        try:
            return cls._restore(game, data)
        except StateError:
            raise
        except RuleRuntimeError as err:
            raise StateError(f"the rules fail on this position: {err}") from None
        except RULE_FAULTS + (RuleFault, OverflowError, MemoryError) as err:
            raise StateError(f"corrupt match state ({type(err).__name__}: {_text(str(err), 120)})") from None

    def clone(self) -> "Match":
        """An independent copy: same state, same random generator state, same future. The copy
        shares everything with this match until either of them is played on (see own)."""
        m = Match.__new__(Match)
        m.__dict__.update(self.__dict__)
        m._rng, m._rng_state = None, self._rng_snapshot()
        self.shared = m.shared = SHARED_ALL
        # the same position, the same legal actions (unless listing them rolls dice: then the copy
        # lists them afresh, as a restored state does)
        m._by_text = self._by_text if self.game.code.pure_enumeration else None
        m._zone_ids = None
        return m

    # ---- engine internals ----
    def _check_held(self, text: str) -> None:
        """Refuse a position that holds more than STATE_LIMIT elements and characters (variables,
        component fields, messages): a rule error, and the action that made it is undone."""
        if held_size(self) > STATE_LIMIT:
            raise RuleFault(f"after `{_text(text, 60)}`, the position holds more than {STATE_LIMIT} elements and "
                            f"characters in its variables, component fields and messages (state limit)")

    def _rule_error(self, doing: str, err: BaseException) -> RulelangError:
        """A RuleRuntimeError saying where (rule file and line) and while doing what a rule failed,
        or an EngineFault when the fault is the engine's own (see _engine_fault)."""
        if isinstance(err, (RuleRuntimeError, EngineFault)) and not isinstance(err, RuleFault):
            return err
        game = self.game
        source = game.ir.get("source", game.name)
        line = game.rule_line(err.__traceback__)
        where = f"{source}:{line}" if line is not None else source
        if isinstance(err, RuleFault):
            return RuleRuntimeError(f"{where}: {err}")
        if _engine_fault(err, game.lowerer.filename):
            return EngineFault(f"internal error while {doing} (at step `{self.step}`): {type(err).__name__}: "
                               f"{_text(str(err), 200)}", "".join(traceback.format_exception(err)))
        if isinstance(err, NameError):
            return RuleRuntimeError(f"{where}: rule error at step `{self.step}` while {doing}: "
                                    f"a local is used before it has a value")
        return RuleRuntimeError(f"{where}: rule error at step `{self.step}` while {doing}: {_in_words(err)}")

    def rules_text(self, c: int, player: int | None = None) -> str | None:
        """Component c's rules text for people: its card declaration's `text "…"`, else its kind's
        `text E` (computed with `me` the player asking); None when the rule file gives none."""
        kind = self.kinds[c]
        fields = self._fields(c, kind)
        cards = self.game.__dict__.get("_card_texts")
        if cards is None:
            cards = self.game._card_texts = {(d["kind"], d["name"]): d["text"]
                                             for d in self.game.ir.get("cards", []) if "text" in d}
        if fields.get("card") and (kind, fields["card"]) in cards:
            return cards[(kind, fields["card"])]
        fn = self.game.code.defs.get("__text_" + kind)
        if fn is None:
            return None
        saved, self.me, self.work = self.me, player if player is not None else self.me, WORK_LIMIT
        try:
            value = fn(self, c)
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing a component's text", err) from None
        finally:
            self.me = saved
        return value if isinstance(value, str) else plain_text(value)

    def _fields(self, c: int, kind: str) -> dict:
        F = self.F
        return {name: F[col][c] for name, col in self.game.kind_fields.get(kind, ())}

    def zone_ids(self) -> dict:
        """Every zone list of this match by id, with its (capacity, name) or None: for the targets
        of `move` and `shuffle` that the rules compute at run time."""
        if self._zone_ids is None:
            ids: dict = {}
            for z, value, cap in zip(self.game.zones, self.Z, self.game.slot_caps):
                for zl in (value if z["per"] else [value]):
                    ids[id(zl)] = cap
            self._zone_ids = ids
        return self._zone_ids

    def _drawing(self, player: int) -> str:
        game = self.game
        g = game.geometry
        if game.draw is not None:
            draw = game.draw
            # (with `cell_width N` a longer text is cut: it would push the cells after it out of line)
            width = g.cell_width if "cell_width" in game.ir["boards"][0] else None
            return g.draw(lambda cell: printable(plain_text(draw(self, cell)))[:width])   # the line breaks are ours
        cell_zones = [game.zone_slot[z["name"]] for z in game.zones
                      if z["per"] == "cell" and z["visibility"] == "public" and not z.get("internal")]

        def glyph(cell):
            for slot in cell_zones:
                items = self.Z[slot][cell]
                if items:
                    return printable(self.labels[items[-1]][:g.cell_width])
            return "." if g.kinds[cell] == g.kinds[0] else "·"
        return g.draw(glyph)

    def _words(self, how: str, v, seen: set) -> str:
        """A variable's value in words for a view: a player's name, a cell's, an enum value's text,
        a component's label if the viewer can see the component (else "a hidden component")."""
        if v is None:
            return "none"
        if how == "comp":
            return self.labels[v] if v in seen else "a hidden component"
        if how == "player":
            return player_text(v)
        if how == "cell":
            return self.game.geometry.names[v] if self.game.geometry is not None else plain_text(v)
        if how.startswith("enum:"):
            return self.game.lowerer.enum_text.get(how[5:], {}).get(v, plain_text(v))
        return plain_text(v)

    def _seen_value(self, how, v, seen: set):
        """A variable's value as a view shows it: a component the viewer cannot see is no id (ids
        follow the order components were made in, and could tell which card it is), only None."""
        if how == "comp" and v is not None and v not in seen:
            return None
        return self._plain(v)

    @staticmethod
    def _plain(v):
        return list(v) if isinstance(v, list) else v

    def _fail(self, line, msg):
        self.game.lowerer.fail(line, msg)

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
                f"(the `on stuck` rule{f', line {line}' if line else ''})")

    def _limit_reason(self, i: int, count) -> str:
        line = self.game.ir["limits"][i].get("line")
        return f"the turn limit of {count} turns was reached (the `turn limit` rule{f', line {line}' if line else ''})"

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


    def _begin_turn(self):
        self.turn_count += 1
        self.me = self.current
        game = self.game
        for i, (count, body) in enumerate(game.limits):
            limit = count(self)
            if self.turn_count > limit:
                signal = body(self)
                self._explain(self._limit_reason(i, limit))
                if signal is not None or self.result is not None:
                    return signal or ("finish",)
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
        order = self.seq[1]
        following = to if to is not None else _next_seat(self, self.current)
        if self.seq[0] == 0 or order.index(following) <= order.index(self.current):
            return self._begin_round(to)
        self.current = following
        return self._begin_turn()

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
        remaining = [p for p in self.seq[1] if not self.seq[2][p]]
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
        return self._begin_turn()

    def _settle(self, signal) -> None:
        """Follow gotos and turn ends until a player must decide or the game is over."""
        game = self.game
        interactive = game.can_pause                # (may abilities wait to run after an effect?)
        steps = game.steps
        budget = FLOW_LIMIT
        while True:
            while signal is not None and self.result is None:
                budget -= 1
                if budget < 0:
                    self._fail(None, f"the flow never settles: {FLOW_LIMIT} step changes in one action "
                                     f"(last step `{self.step}`)")
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
                    if game.plain_turns:
                        # _end_turn and _begin_turn without calls: no `on turn_end`, no `on turn_start`
                        self.current = (self.current + 1) % self.players if signal[1] is None else signal[1]
                        self.turn_count += 1
                        self.me = self.current
                        signal = game.first_goto
                        for i, (count, body) in enumerate(game.limits):
                            limit = count(self)
                            if self.turn_count > limit:
                                ended = body(self)
                                self._explain(self._limit_reason(i, limit))
                                if ended is not None or self.result is not None:
                                    signal = ended or ("finish",)
                                    break
                    else:
                        signal = self._end_turn(signal[1])
                else:
                    signal = None
            if self.result is not None:
                self._by_text = {}
                return
            if game.checks:
                for i, (when, body) in enumerate(game.checks):
                    self.me = self.current
                    if when(self):
                        signal = body(self)
                        if interactive and self.trig:
                            signal = drain(self) or signal
                        if self.result is not None:
                            line = game.ir["checks"][i].get("line")
                            self._explain(f"the `when` rule{f' of line {line}' if line else ''} applied")
                        if signal is not None or self.result is not None:
                            break
                if signal is not None or self.result is not None:
                    continue
            actor_fn, _, enum = steps[self.step]
            self.me = self.current
            self.actor = actor_fn(self) if actor_fn is not None else self.current
            if self.intern is None:
                self.intern = game.universe(self)
            self.me = self.actor
            out = self._by_text = enum(self)
            if out:
                return
            handler = game.handlers.get("stuck")
            if handler is None:
                self._fail(None, f"{player_text(self.actor)} has no legal action at step `{self.step}` "
                                 f"and the rules have no `on stuck` block")
            self.me = self.actor
            signal = handler(self)
            if self.trig:
                signal = drain(self) or signal
            self._explain(self._stuck_reason())
            if signal is None and self.result is None:
                self._fail(None, f"`on stuck` must end the game, end the turn or go to a step "
                                 f"({player_text(self.actor)} is stuck at step `{self.step}`)")

    def _enumerate(self) -> None:
        if self.result is not None:
            self._by_text = {}
            return
        if self.pending is not None:
            self._by_text = {t: Action(t, None, (), ("choose", ())) for t in self.pending["question"]["options"]}
            return
        if self.intern is None:
            self.intern = self.game.universe(self)
        self.me = self.actor
        self.work = WORK_LIMIT
        self._by_text = self.game.steps[self.step][2](self)

    def type_context(self) -> Context:
        """What a value of a declared type may be in this match (rulelang.types): its seats, board,
        components and enums. Restoring a state checks every value against it, and anyone who checks
        a position from outside (the deep lint, rulelang/playtest.py) can ask for the same."""
        geometry = self.game.geometry
        return Context(enums=self.game.enum_names, players=self.players,
                       cells=geometry.size if geometry is not None else 0, kinds=list(self.kinds))

    @classmethod
    def _restore(cls, game: Game, data: dict) -> "Match":
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise StateError("not a rulelang match state")
        if data.get("fingerprint") != game.fingerprint:
            raise StateError(f"this state belongs to another game or another version of its rules "
                             f"(state: {_short(data.get('game'))}, game: {_short(game.name)})")
        players, seed, options = data.get("players"), data.get("seed"), data.get("options")
        if type(players) is not int or not game.min_players <= players <= game.max_players:
            raise StateError(f"{_text(game.name)} is for {game.min_players}..{game.max_players} players, "
                             f"not {_short(players)}")
        if seed is not None and type(seed) is not int:
            raise StateError(f"the seed must be a whole number, not {_short(seed)}")
        if not isinstance(options, dict):
            raise StateError("the options must be an object")
        try:
            options = game.option_values(options)
        except ValueError as err:
            raise StateError(str(err)) from None
        m = cls(game, players, seed, options)
        m._rng, m._rng_state = None, _rng_state(data.get("rng"))
        try:
            m._gen()                                # a bad generator state fails here, not later
        except (ValueError, TypeError, OverflowError):
            raise StateError("the random generator state is not valid") from None
        if "tape" in data:
            try:
                m.tape = checked_tape(data["tape"])
            except ValueError as err:
                raise StateError(f"`tape`: {err}") from None
        if "cuts" in data:
            m.cuts = _cuts(data["cuts"], len(data.get("components") or ()))
        comps, extra = m._conserved(data.get("components"))
        m.kinds = [c["kind"] for c in comps]
        m.labels = [c["label"] for c in comps]
        m.F = [[c["fields"].get(name) for c in comps] for name in game.columns]
        m.created = None                            # the universe is found by content
        ctx = m.type_context()
        for c in extra:                             # components the rules made in play: check their fields
            types = game.field_types[c["kind"]]
            for name, value in c["fields"].items():
                typ = ValueType.parse(types[name])
                if not typ.fits(value, ctx):
                    raise StateError(f"field `{name}` of component {_text(c['label'])} holds {_short(value)}, "
                                     f"which is not {typ.with_article()}")
        zones = _named(data.get("zones"), [z["name"] for z in game.zones], "zone")
        Z = m.Z = []
        for z in game.zones:
            raw = zones[z["name"]]
            if z["per"]:
                if not (isinstance(raw, list) and len(raw) == game.family_size(z["per"], m.players, len(m.labels),
                                                                               z.get("key"))
                        and all(isinstance(x, list) for x in raw)):
                    raise StateError(f"zone `{z['name']}` must be one list per "
                                     f"{' per '.join(z['key']) if z['per'] == 'key' else z['per']}")
                Z.append([list(x) for x in raw])
            else:
                if not isinstance(raw, list):
                    raise StateError(f"zone `{z['name']}` must be a list")
                Z.append(list(raw))
        m._index_zones()
        missing = [m.labels[c] for c, zl in enumerate(m.where) if zl is None]
        if missing:
            raise StateError(f"components in no zone: {_text(', '.join(missing[:5]))}")
        values = _named(data.get("vars"), [name for name, *_ in game.vars], "variable")
        V = m.V = []
        for slot, (name, per, _, init) in enumerate(game.vars):
            if per == "component":
                m.me = 0
                m.comp_defaults.append((slot, init(m)))
        for name, per, _, _ in game.vars:
            value = values[name]
            typ = ValueType.parse(game.var_types[name])
            size = (len(m.labels) if per == "component" else
                    game.family_size(per, m.players, key=game.var_keys.get(name)) if per else 0)
            if per and (not isinstance(value, list) or len(value) != size):
                raise StateError(f"variable `{name}` must have one value per "
                                 f"{' per '.join(game.var_keys[name]) if per == 'key' else per}")
            for v in (value if per else [value]):
                if not typ.fits(v, ctx):
                    raise StateError(f"variable `{name}` holds {_short(v)}, which is not {typ.with_article()}")
            V.append(list(value) if isinstance(value, list) else value)
        m.step, m.current, m.actor = data.get("step"), data.get("current"), data.get("actor")
        m.turn_count = data.get("turn")
        if not (isinstance(m.step, str) and m.step in game.steps):
            raise StateError(f"unknown step {_short(m.step)}")
        if not all(type(x) is int and 0 <= x < m.players for x in (m.current, m.actor)):
            raise StateError("the current player and the actor must be seats of this match")
        if not (type(m.turn_count) is int and 0 <= m.turn_count <= INT_LIMIT):
            raise StateError(f"the turn must be a whole number, not {_short(m.turn_count)}")
        m.result = _outcome(game, m.players, data.get("outcome"))
        if game.sequenced:
            m.seq = _rounds(data.get("rounds"), m.players)
        log, messages = data.get("log", []), data.get("messages", [])
        if not (isinstance(log, list) and isinstance(messages, list)
                and all(isinstance(x, str) for x in log) and all(_message(x, m.players) for x in messages)):
            raise StateError("the log and the messages must be lists of texts")
        m.log, m.messages = list(log), [x if isinstance(x, str) else {"to": list(x["to"]), "text": x["text"]}
                                        for x in messages]
        if "known" in data or "pending" in data or "grants" in data or "private" in data:
            if not game.can_pause:
                raise StateError("these rules never pause an effect or reveal a component")
            m._restore_known(data.get("known", {}))
            m._restore_grants(data.get("grants", []))
            m._restore_private(data.get("private", {}))
            if "pending" in data:
                return m._restore_pending(data)
        if m.result is None:
            m._check_actor()
            try:
                m._enumerate()
                if not m._by_text:                  # a built position where the actor is stuck:
                    m._settle(None)                 # the rules decide, as after any action
            except RULE_FAULTS + (RuleFault,) as err:
                raise m._rule_error("restoring a state", err) from None
        return m

    def _restore_known(self, raw) -> None:
        if not isinstance(raw, dict):
            raise StateError("`known` must map components to who they were revealed to")
        zones = {z["name"]: z for z in self.game.zones}
        known = {}
        for key, entry in raw.items():
            c = int(key) if isinstance(key, str) and key.isdigit() else -1
            if not 0 <= c < len(self.labels) or not isinstance(entry, dict):
                raise StateError(f"`known` names {_short(key)}, which is not a component")
            zone, who = entry.get("zone"), entry.get("to")
            if not (isinstance(zone, list) and len(zone) == 2 and zone[0] in zones
                    and (zone[1] is None or type(zone[1]) is int and 0 <= zone[1] < self.players)):
                raise StateError(f"`known` of component {c}: not a zone")
            if not (who == "all" or isinstance(who, list) and all(type(p) is int and 0 <= p < self.players
                                                                   for p in who)):
                raise StateError(f"`known` of component {c}: not a list of players")
            known[c] = (list(zone), who if who == "all" else sorted(set(who)))
        self.known = known

    def _restore_private(self, raw) -> None:
        if not isinstance(raw, dict):
            raise StateError("`private` must map log entries to the seats that may read them")
        out = {}
        for key, seats in raw.items():
            i = int(key) if isinstance(key, str) and key.isdigit() and len(key) < 12 else -1
            if not 0 <= i < len(self.log):
                raise StateError(f"`private` names {_short(key)}, which is not an entry of the log")
            if not (isinstance(seats, list) and all(type(p) is int and 0 <= p < self.players for p in seats)):
                raise StateError(f"`private` of log entry {i}: not a list of players")
            out[i] = sorted(set(seats))
        self.private = out

    def _restore_grants(self, raw) -> None:
        defs = list(self.game.ir["defs"])
        if not isinstance(raw, list):
            raise StateError("`grants` must be a list")
        out = []
        for g in raw:
            if not (isinstance(g, list) and len(g) == 3 and g[0] in defs and isinstance(g[1], list)
                    and all(_plain_value(x) for x in g[1]) and type(g[2]) is int and abs(g[2]) <= INT_LIMIT):
                raise StateError(f"not a timed modifier: {_short(g)}")
            out.append([defs.index(g[0]), list(g[1]), g[2]])
        self.grants = out

    def _restore_pending(self, data: dict) -> "Match":
        """A paused position: restore its base, replay its action and answers, and check that
        this leads exactly to the position given."""
        raw = data["pending"]
        if not isinstance(raw, dict):
            raise StateError("`pending` must be an object")
        root, answers, base_data = raw.get("root"), raw.get("answers"), raw.get("base")
        if not (isinstance(root, list) and (root == ["start"] or len(root) == 2 and root[0] == "action"
                                            and isinstance(root[1], str))):
            raise StateError("`pending.root` must be [\"start\"] or [\"action\", TEXT]")
        if not (isinstance(answers, list) and all(isinstance(a, str) for a in answers)):
            raise StateError("`pending.answers` must be a list of texts")
        if root == ["start"]:                   # paused in the setup: the base is the match before it
            base = Match(self.game, self.players, self.seed, self.options)
        elif not isinstance(base_data, dict) or "pending" in base_data:
            raise StateError("`pending.base` must be a position that is not paused")
        else:
            base = Match._restore(self.game, base_data)
        m = Match.__new__(Match)
        m.__dict__.update(base.__dict__)
        try:
            m._resume(base, root, answers, "replaying a paused effect")
        except RuleRuntimeError as err:
            raise StateError(f"the paused effect cannot be replayed: {err}") from None
        if m.pending is None or m.pending["answers"] != answers:
            raise StateError("the paused effect does not stop where this position says")
        mine = {k: v for k, v in m.state().items() if k != "pending"}
        given = {k: v for k, v in data.items() if k != "pending"}
        if json.dumps(mine, sort_keys=True, default=str) != json.dumps(given, sort_keys=True, default=str):
            raise StateError("the paused effect does not lead to this position (replaying it gives another)")
        return m

    def _conserved(self, comps) -> tuple[list, list]:
        """The restored components, and those among them beyond what setup makes.

        A new match with the same settings says what there must be: every component setup makes
        (as many of each), and anything more of a kind the rules create in play. A duplicated card,
        ten copies of a one-off, or a card these rules never make is refused."""
        if not isinstance(comps, list):
            raise StateError("the components must be a list")
        if len(comps) > COMPONENT_LIMIT:
            raise StateError(f"more than {COMPONENT_LIMIT} components")
        fresh = self.game.setup_components(self.players, self.seed, self.options)
        n = len(fresh)
        if comps[:n] == fresh:                      # the usual case: setup's components, in order
            extra = _components(self.game, comps[n:])
            comps = fresh + extra                   # setup's own rows: equal, and of the exact types
        else:                                       # moved around: compare as multisets
            _components(self.game, comps)
            have: dict = {}
            for c in comps:
                have.setdefault(_component_key(c), []).append(c)
            for c in fresh:
                same = have.get(_component_key(c))
                if not same:
                    raise StateError(f"component {_text(c['label'])} that setup creates is missing")
                same.pop()
            extra = [c for group in have.values() for c in group]
        allowed = self.game.play_kinds()
        for c in extra:
            if c["kind"] not in allowed:
                raise StateError(f"component {_text(c['label'])} is not one setup creates "
                                 f"(a second copy, or a card these rules never make)")
        return comps, extra

    def _check_actor(self) -> None:
        """The actor is who the step's `by` expression names (when it can be worked out here)."""
        actor_fn = self.game.steps[self.step][0]
        if actor_fn is None:
            expected = self.current
        else:
            saved = self._rng_snapshot()            # working it out must not draw from the generator
            tape, drawn = self.tape, self.drawn     # (nor use up chance given ahead of time)
            try:
                self.me = self.current
                expected = actor_fn(self)
            except RULE_FAULTS + (RuleFault,):
                expected = None
            finally:
                self._rng, self._rng_state = None, saved
                self.tape, self.drawn = tape, drawn
        if expected is not None and expected != self.actor:
            raise StateError(f"at step `{self.step}` the actor must be {player_text(expected)}, "
                             f"not {player_text(self.actor)}")


# ---- checking a restored state ----
PLAIN_DEPTH = 32             # nesting of a component field's value in a restored state


def _check_chain(m: Match, base: Match, root: list, answers: list) -> None:
    """(CHECK_REPLAY) Replaying the chain from its base once more gives exactly the position `m`
    it gave: nothing the chain depends on lives outside the base, the tape and the answers."""
    def replay() -> Match:
        again = base.clone()
        again._chain(base, root, answers, "replaying")
        return again
    _replay_check(m, replay, f"replaying `{' '.join(root)}` with {len(answers)} answer(s)")


def _replay_check(m: Match, replay, what: str) -> None:
    """(CHECK_REPLAY) `replay()` gives exactly the position `m` is in, or an EngineFault says
    where they part. A replay made by the check is not checked itself."""
    if _checking[0]:
        return
    _checking[0] = True
    try:
        expected = pickle.loads(pickle.dumps(_snapshot(m)))      # (a copy: the replay must not touch it)
        try:
            again = replay()
        except Exception as err:
            raise EngineFault(f"replay check: {what} fails: {type(err).__name__}: {err}") from None
        _same_position(_snapshot(again), expected, what)
    finally:
        _checking[0] = False


def interrupt_seat(text: str) -> int | None:
    """The seat (0-based) an interrupt's text names (`P3: reveal` -> 2), or None."""
    seat, sep, _ = text.partition(": ")
    digits = seat[1:]
    if not sep or seat[:1] != "P" or not (digits.isascii() and digits.isdigit()) or len(digits) > 3:
        return None
    return int(digits) - 1


def _how(t: str) -> str:
    """How a value of declared type `t` is worded: player, comp, cell, enum:E, or plain (a number, a
    text, a list: shown as it is)."""
    if t.startswith("comp:"):
        return "comp"
    if t in ("player", "cell") or t.startswith("enum:"):
        return t
    return "plain"


def _zone_kinds(ir: dict) -> dict:
    """Each zone's component kind as far as the rules alone say (the same for every viewer, so
    it tells nothing about hidden components): the only kind the game has, or the only kind its
    `create` statements put there; None when it may hold several."""
    kinds = list(ir["kinds"])
    made: dict = {}
    for x in walk_ir([ir["setup"], ir["procs"], ir["steps"], ir["handlers"], ir["checks"], ir["limits"]]):
        if x.get("s") in ("create", "create_cards") and isinstance(x.get("to"), dict) and x["to"].get("k") == "zone":
            made.setdefault(x["to"].get("n"), set()).add(x.get("kind"))
    out = {}
    for z in ir["zones"]:
        found = made.get(z["name"], set())
        out[z["name"]] = (kinds[0] if len(kinds) == 1 else next(iter(found)) if len(found) == 1 else None)
    return out


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, 40, 40


def _short(value, limit: int = 40) -> str:
    """A value from the data for a one-line message: quoted if text, never deep, printable, short."""
    return _text(_REPR.repr(value), limit)


def _text(text: str, limit: int = 40) -> str:
    """A name or label from the data for a one-line message: printable, and cut short."""
    text = printable(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _plain_value(value, depth: int = 0) -> bool:
    """Plain rule data (none, numbers, texts, lists of them), not nested without end."""
    if value is None or type(value) in (bool, str):
        return True
    if type(value) is int:
        return -INT_LIMIT <= value <= INT_LIMIT
    if type(value) is float:
        return value == value and abs(value) != float("inf")
    if type(value) is list and depth < PLAIN_DEPTH:
        return all(_plain_value(v, depth + 1) for v in value)
    return False


def _message(x, players: int) -> bool:
    """A message: a text for everyone, or {"to": [players], "text": TEXT}."""
    if isinstance(x, str):
        return True
    return (isinstance(x, dict) and set(x) == {"to", "text"} and isinstance(x["text"], str)
            and isinstance(x["to"], list) and all(type(p) is int and 0 <= p < players for p in x["to"]))


def _rng_state(raw) -> tuple:
    """The generator state `[3, [625 ints], gauss]` as `random.Random.setstate` takes it, checked
    for shape (setstate itself refuses bad words: see `_restore`)."""
    if not (isinstance(raw, (list, tuple)) and len(raw) == 3):
        raise StateError("the random generator state is not valid")
    version, internal, gauss = raw
    if not (type(version) is int and version == 3 and isinstance(internal, (list, tuple)) and len(internal) == 625
            and (gauss is None or (type(gauss) is float and _plain_value(gauss)))):
        raise StateError("the random generator state is not valid")
    return version, tuple(internal), gauss


def _components(game: Game, comps: list) -> list:
    """Restored component rows, checked to be `{kind, fields, label}` of a known kind and its fields."""
    for i, c in enumerate(comps):
        if not (isinstance(c, dict) and isinstance(c.get("kind"), str) and isinstance(c.get("fields"), dict)
                and isinstance(c.get("label"), str)):
            raise StateError(f"component {i} must be an object with a kind, fields and a label")
        types = game.field_types.get(c["kind"])
        if types is None:
            raise StateError(f"unknown component kind {_short(c['kind'])}")
        unknown = [name for name in c["fields"] if name not in types]
        if unknown:
            raise StateError(f"component {i}: a {_text(c['kind'])} has no field {_short(unknown[0])}")
        for name, value in c["fields"].items():
            if not _plain_value(value):
                raise StateError(f"component {i}: field `{name}` holds {_short(value)}, which is not plain data")
    return comps


def _component_key(c: dict) -> tuple:
    """What makes two components the same card (types included: 1 is not true)."""
    return c["kind"], json.dumps(c["fields"], sort_keys=True), c["label"]


def _named(given, names: list[str], what: str) -> dict:
    """An object with exactly the declared names as keys."""
    if not isinstance(given, dict):
        raise StateError(f"the {what}s must be an object")
    missing = [n for n in names if n not in given]
    unknown = [n for n in given if n not in names]
    if missing:
        raise StateError(f"no {what} `{missing[0]}` in the state")
    if unknown:
        raise StateError(f"unknown {what} {_short(unknown[0])}")
    return given


def _outcome(game: Game, players: int, outcome) -> dict | None:
    """A restored outcome: a result per player, and a score per player exactly when the game keeps one."""
    if outcome is None:
        return None
    if not (isinstance(outcome, dict) and set(outcome) <= {"results", "scores", "reason"}):
        raise StateError("the outcome must be an object with results and scores")
    reason = outcome.get("reason")
    if "reason" in outcome and not (isinstance(reason, str) and len(reason) <= REASON_LIMIT):
        raise StateError(f"the outcome's reason must be a text of at most {REASON_LIMIT} characters")
    results, scores = outcome.get("results"), outcome.get("scores")
    if not (isinstance(results, list) and len(results) == players
            and all(isinstance(r, str) and r in ("win", "lose", "draw") for r in results)):
        raise StateError("the outcome must give win, lose or draw for every player")
    if game.scores:
        if not (isinstance(scores, list) and len(scores) == players
                and all(s is None or (type(s) is int and -INT_LIMIT <= s <= INT_LIMIT) for s in scores)):
            raise StateError("the outcome must give a whole-number score for every player")
    elif scores is not None:
        raise StateError("the outcome has scores, but the game keeps none")
    out = {"results": list(results), "scores": list(scores) if scores is not None else None}
    if "reason" in outcome:
        out["reason"] = reason
    return out


def _reason(why) -> str:
    """A rule's reason for the outcome as the outcome keeps it: a text, cut to REASON_LIMIT."""
    text = why if isinstance(why, str) else plain_text(why)
    return text if len(text) <= REASON_LIMIT else text[:REASON_LIMIT - 1] + "…"


def _cuts(raw, components: int) -> tuple:
    """The cuts of a determinized copy's base (see Match.sampler), checked: each a question index,
    a one-to-one mapping between components, the components its player saw, a generator seed."""
    if not (isinstance(raw, list) and len(raw) <= 64):
        raise StateError("`cuts` must be a list")
    out = []
    for cut in raw:
        if not (isinstance(cut, list) and len(cut) == 4 and type(cut[0]) is int and 0 <= cut[0] <= INT_LIMIT
                and isinstance(cut[1], list) and isinstance(cut[2], list) and type(cut[3]) is int):
            raise StateError("a cut must be [question index, [[component, component]…], [component…], seed]")
        pairs, seen = cut[1], cut[2]
        if not (all(isinstance(p, list) and len(p) == 2 and all(type(c) is int and 0 <= c < components for c in p)
                    for p in pairs) and all(type(c) is int and 0 <= c < components for c in seen)):
            raise StateError("a cut names something that is not a component")
        mapping = {a: b for a, b in pairs}
        if len(mapping) != len(pairs) or sorted(mapping) != sorted(mapping.values()):
            raise StateError("a cut must deal the same components anew, each once")
        out.append((cut[0], mapping, set(seen), cut[3]))
    return tuple(out)


def _rounds(raw, players: int) -> list:
    """The round, turn order and eliminated players of a saved position, checked."""
    if not isinstance(raw, dict):
        raise StateError("the position must say its round, turn order and eliminated players (`rounds`)")
    number, order, out = raw.get("round"), raw.get("order"), raw.get("eliminated")
    if not (type(number) is int and 0 <= number <= INT_LIMIT):
        raise StateError(f"the round must be a whole number, not {_short(number)}")
    if not (isinstance(order, list) and all(type(p) is int for p in order) and sorted(order) == list(range(players))):
        raise StateError(f"the turn order must name every seat once, not {_short(order)}")
    if not (isinstance(out, list) and all(type(p) is int and 0 <= p < players for p in out)):
        raise StateError(f"the eliminated players must be seats, not {_short(out)}")
    return [number, list(order), [p in out for p in range(players)]]


def _engine_fault(err: BaseException, generated: str) -> bool:
    """Whether a Python error is the engine's fault rather than the rules'. The rules' code is
    the generated module: an error raised there, or in a runtime helper handed a rule's `none`,
    is the rules' doing (a field of `top` of an empty zone, an index past the end, a division by
    zero, recursion too deep). Anything else raised inside rulelang's own code is a bug of ours."""
    if isinstance(err, (RecursionError, ZeroDivisionError, MemoryError)):
        return False
    if not isinstance(err, RULE_FAULTS):
        return True
    tb = err.__traceback__
    innermost = None
    while tb is not None:
        innermost = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    if innermost is None or innermost == generated:
        return False
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return False
    return True


def _snapshot(m: Match) -> dict:
    """(CHECK_REPLAY) Everything `state()` holds, as the engine holds it (cheaper than `state()`):
    two matches with equal snapshots are in the same position."""
    return {"zones": m.Z, "vars": m.V, "components": (m.kinds, m.labels, m.F),
            "flow": (m.step, m.current, m.actor, m.turn_count, m.result, getattr(m, "seq", None)),
            "log": m.log, "messages": m.messages, "rng": m._gen().getstate(), "tape": m.tape,
            "known": m.known, "grants": m.grants, "private": m.private,
            "pending": None if m.pending is None else (m.pending["root"], m.pending["answers"], m.pending["question"])}


def _same_position(mine: dict, other: dict, what: str) -> None:
    """(CHECK_REPLAY) Two states of one match are equal, or an EngineFault names where they part."""
    if mine == other:
        return
    for key in sorted(set(mine) | set(other)):
        if mine.get(key) != other.get(key):
            raise EngineFault(f"replay check: {what} gives another position (they differ in `{key}`: "
                              f"{_short(other.get(key), 120)} before, {_short(mine.get(key), 120)} replayed)")


def _in_words(err: BaseException) -> str:
    """A Python error inside generated code, said as the rule's mistake where it is a known one."""
    text = str(err)
    if isinstance(err, TypeError) and "NoneType" in text:
        if "indices" in text or "subscriptable" in text:
            return ("`none` where a component, a player or a cell was due (a field of `top`, `first` or "
                    "`bottom` of an empty list or zone, say): test the size first")
        return "`none` where a value was due: test for `none` (or the size of the list) first"
    return f"{type(err).__name__}: {text}"
