"""What the parts of `Match` share, declared once with their types: the attributes of a match and the
methods one part calls on another. Match is one object made of parts by job (match.py, flow.py,
pausing.py, copies.py, views.py, saves.py, simultaneous.py), each a class deriving from MatchParts,
so that each part type-checks on its own (mypy, tests/test_mypy.py).

Declarations only, and the class-level defaults a match reads until it sets its own: no code at
run time (the methods are declared under TYPE_CHECKING), so a match holds and does what it did.
What each attribute means, for the generated code that reads most of them directly, is in
match.GENERATED_CODE_INTERFACE."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import random

    from .codegen import Action
    from .codegen.runtime_moves import Batch
    from .game import Game
    from .match import Match
    from .records import Checkpoint, Created, Cut, Grant, OpenDecision, Revealed, Trigger
    from ..core.errors import RulelangError
    from ..core.types import Context


class MatchParts:
    """The state every part of a match reads and writes: set in Match.__init__, or (the class-level
    defaults below) only when a game needs it."""

    # the game, the seats, the options and chance
    game: Game
    players: int
    seed: Any                       # an int usually; None for a determinized copy
    options: dict[str, Any]
    _rng: random.Random | None
    _rng_state: Any                 # a state tuple, a chance.FrozenGenerator, or None
    # the position: zones, variables, components (match.py's docstring)
    Z: list
    V: list
    F: list[list]
    kinds: list[str]
    labels: list[str]
    where: list                     # component id -> the zone list holding it, or None
    created: list[Created | Batch] | None   # how components were created: a record, or a bulk creation
    comp_defaults: list[tuple[int, Any]]
    shared: bool | str              # False, support.SHARED_COMPONENTS or support.SHARED_ALL
    # the flow
    PL: list[int]
    OTH: list[list[int]]
    step: str
    current: int
    me: int
    actor: int
    turn_count: int
    seq: list                       # [round, turn order, eliminated seats] in games with rounds
    result: dict[str, Any] | None
    log: list[str]
    messages: list
    # running the rules' code
    depth: int
    work: int
    intern: Any                     # this match's universe of interned actions (Game.universe), or None
    _by_text: list[Action] | None
    _zone_ids: dict | None
    _alike: tuple | None          # see alike.untraceable
    fields_held: tuple[int, int]
    work_left: int
    # Class-level defaults, read until a match sets its own: a game that can never pause never sets
    # the interaction model's state, and its matches and clones stay as small as before.
    # the interaction model (codegen/effects.py)
    pending: dict[str, Any] | None = None   # a paused effect: {"base", "root", "answers", "question"}
    answers: list = []              # answers to replay in the effect running now (never mutated)
    pos: int = 0                    # how many of them the choices have used
    trig: list[Trigger] = []        # triggers waiting for the current effect to end
    frames: list = []               # the abilities and windows running now (for `state()`)
    known: dict[int, Revealed] = {}     # component -> where it was revealed, and to whom
    replacing: list = []            # replacements running now (each applies once per chain)
    grants: list[Grant] = []        # timed modifiers until the turn ends
    private: dict = {}              # log index -> the seats that may read that answer (never mutated: replaced)
    named: list = []                # (log index, component) of the private answers of the chain running
    chain_reveals: tuple = ()       # (component, seats or "all") each reveal, in the chain running, of a component
                                    # a private answer names (never mutated: replaced)
    cards_index: Any = None         # see effects._cards
    src: int | None = None          # the card whose ability runs now (`source`)
    simul: OpenDecision | None = None   # an open simultaneous decision (simultaneous.py)
    # chance (chance.py), checkpoints and copies
    tape: tuple = ()                # chance outcomes to use before the generator
    setup_chance: tuple = ()        # the outcomes `new_match(chance=…)` was given: its setup's deal
    drawn: tuple | None = None      # the chance outcomes the last action (its whole chain) drew
    drawn_from: int = 0             # where the last `apply`'s own draws begin in `drawn` (an answer's)
    ckpt: Checkpoint | None = None  # what a failed action (or a paused chain's base) is rebuilt from
    inputs: tuple = ()              # (games that may pause) what `apply` took since `ckpt`: (text, seat) pairs
    cuts: tuple[Cut, ...] = ()      # a determinized copy's base: where its replay leaves the real world (see sampler)
    cut_mapping: dict | None = None # the last cut's (real component -> the one in its place), effects._answer
    origin_cache: list | None = None    # see origins
    zone_info: dict | None = None   # see effects._zone_info
    # what is kept about the cards in play ({ability entry or ~def: cards in play}, effects._held),
    # dropped by every change of which components there are or where they lie (runtime_moves, the
    # deals of determinized copies)
    held: dict | None = None
    lm: dict | None = None          # while a listing runs (and only then): defs' results (codegen, "lmemo")
    # a chain that waits for an answer in a greenlet of its own (pausing.py, "resumable chains")
    cont: Any = None                # the greenlet (running a chain, or waiting in effects._wait), or None
    cont_thread: int = 0            # the thread it belongs to (a greenlet runs only there)
    cont_work: int = 0              # the chain's work budget left when it stopped to wait
    outer_step: str | None = None   # while an interrupt's effect runs: the step it goes back to

    if TYPE_CHECKING:
        # what one part calls on another (each is defined in the part the comment names)
        def __init__(self, game: Game, players: int, seed: Any, options: dict) -> None: ...
        # match.py
        @property
        def rng(self) -> Any: ...
        @property
        def is_over(self) -> bool: ...
        @property
        def current_player(self) -> int | None: ...
        def _gen(self) -> random.Random: ...
        def _rng_snapshot(self) -> Any: ...
        def _rng_tuple(self) -> tuple: ...
        def own(self, index: bool = True) -> None: ...
        def clone(self) -> Match: ...
        def legal_actions(self) -> list[Action]: ...
        def _find(self, legal: list, action: Any) -> Action | None: ...
        def _also(self, player: Any) -> list: ...
        def _interrupt(self, text: str) -> Action | None: ...
        def _run_interrupt(self, found: Action) -> None: ...
        def _as_interrupt(self, player: int, run: Any) -> Any: ...
        def _enumerate(self) -> None: ...
        def _check_held(self, text: str) -> None: ...
        def _rule_error(self, doing: str, err: BaseException) -> RulelangError: ...
        def _fields(self, c: int, kind: str) -> dict: ...
        def _fail(self, line: Any, msg: str) -> NoReturn: ...
        def type_context(self) -> Context: ...
        # flow.py
        def _index_zones(self) -> None: ...
        def _start(self) -> None: ...
        def _settle(self, signal: Any) -> None: ...
        # pausing.py
        def _base(self) -> Match: ...
        def _before(self) -> Any: ...
        def _resume(self, base: Any, root: list, answers: list, doing: str, here: bool = False) -> None: ...
        # views.py
        def _seen_by(self, player: int) -> set: ...
        # saves.py
        def state(self) -> dict: ...
        # simultaneous.py
        def _open_simultaneous(self) -> bool: ...
        def _restore_simultaneous(self, raw: Any) -> None: ...
        def _reveal(self, step: str, pairs: list) -> None: ...
        def _simul_view(self, player: int) -> dict: ...
        def _simul_state(self) -> dict: ...
        def _simul_actor(self, player: int) -> int | None: ...
