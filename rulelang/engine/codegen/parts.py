"""What the parts of the `Lowerer` share (`Shared`: the IR and its tables, the options, the
analyses' facts, the module being written), and `Part`, what each part holds: that one `Shared`
and the other parts, by name. The Lowerer (generator.py) makes the `Shared`, then one object per
part (analysis.py, expressions.py, def_calls.py, comprehensions.py, calls.py, statements.py,
enumerator.py), and gives each its references (docs/engine.md, "How the parts fit together")."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ...ir.spec import walk_ir
from ..boards import Geometry
from .constants import CELL_MEMO_SLOTS, INLINE_TOTAL, SMALL_LIST, optimisations

if TYPE_CHECKING:
    from .analysis import Analyses
    from .calls import CallLowering
    from .comprehensions import ComprehensionLowering
    from .def_calls import DefLowering
    from .enumerator import ActionEnumerator
    from .expressions import ExpressionLowering
    from .statements import StatementLowering
    from .writer import Fn


class Shared:
    """The state every part of the Lowerer reads and writes: the IR's tables (made here), the facts
    the analyses find, and the generated module with its bookkeeping (set by the Lowerer's build)."""

    # the IR and its tables (made in __init__)
    ir: dict[str, Any]
    opt: frozenset[str]                     # the fast paths in use (constants.OPTIMISATIONS)
    geometry: Geometry | None
    source: str
    enum_text: dict[str, dict[str, str]]
    rounds: bool
    zone_slot: dict[str, int]
    zone_decl: dict[str, dict]
    has_capacity: bool
    var_slot: dict[str, int]
    var_decl: dict[str, dict]
    def_index: dict[str, int]
    proc_index: dict[str, int]
    event_index: dict[str, int]
    window_index: dict[str, int]
    hook_index: dict[str, int]
    replaced: set[str]
    reveals: bool
    zone_watch: set[str]
    columns: list[str]
    column: dict[str, int]
    scalar_field: dict[str, bool]
    kind_fields: dict[str, list[tuple[str, int]]]
    few_players: bool
    short_lines: bool
    # the generated module and its bookkeeping (__init__, the parts, the Lowerer's _build)
    ns: dict[str, Any]
    consts: dict
    out: list[tuple[str, Any]]              # (line of code, rule line or None)
    action_meta: list[tuple[str, list]]
    action_index: dict[int, int]
    memo_fns: dict[str, str]
    nonempty_fns: set[str]
    memo_shape: dict[str, tuple]
    memo_out: list[tuple[str, Any]]
    batches: list
    memo_cache: dict[str, str]
    listing_memo_used: bool
    body_variants: dict
    def_shape: dict[str, tuple]
    batch_free: list | None
    makers: int
    maker_kinds: dict[str, str]             # `mk3` -> the kind it makes (for a rule error's words)
    inline_room: int
    inlined: dict[Any, dict[str, Any]]      # rule line -> {def inlined into its code: the def's line}
    cell_memo_room: int
    tables: dict[str, tuple[str, bool]]
    filename: str
    line_map: list
    python: str
    # what the analyses found (analysis.py)
    recursive: set[tuple[str, str]]
    impure_defs: set[str]
    static_defs: set[str]
    memo_defs: set[str]
    listing_memo_defs: set[str]
    repeated_defs: set[str]
    stable_vars: set[str]
    creating: set[str]
    signalling: set[str]
    weights: dict[tuple[str, str], int]
    # the action enumerators (enumerator.py)
    shared_domains: dict[str, list[int]]
    enum_state: dict[str, Any]
    intern_dims: list[list | None]          # per action's table: its dims ("comp", "cell", "player"), or None: a dict
    unique_texts: dict[int, bool]

    def __init__(self, ir: dict, optimise: frozenset | None = None):
        self.ir = ir
        # the fast paths in use (constants.OPTIMISATIONS): all, unless RULELANG_OPTIMISE says otherwise
        self.opt = optimisations(os.environ.get("RULELANG_OPTIMISE")) if optimise is None else optimise
        board = (ir.get("boards") or [None])[0]
        self.geometry = (Geometry(board["shape"], board["width"], board["height"], board["diagonal"],
                                  board.get("cell_width", 3)) if board else None)
        self.source = ir.get("source", "<ir>")
        self.enum_text = {e: {i["name"]: i["text"] for i in items} for e, items in ir["enums"].items()}
        self.rounds = uses_rounds(ir)              # rounds, a turn order, eliminated players: Match.seq
        self.zone_slot = {z["name"]: i for i, z in enumerate(ir["zones"])}
        self.zone_decl = {z["name"]: z for z in ir["zones"]}
        self.has_capacity = any(z["capacity"] is not None for z in ir["zones"])
        self.var_slot = {v["name"]: i for i, v in enumerate(ir["vars"])}
        self.var_decl = {v["name"]: v for v in ir["vars"]}
        self.def_index = {name: i for i, name in enumerate(ir["defs"])}
        self.proc_index = {name: i for i, name in enumerate(ir["procs"])}
        self.event_index = {name: i for i, name in enumerate(ir.get("events", {}))}
        self.window_index = {name: i for i, name in enumerate(ir.get("windows", {}))}
        self.hook_index = {name: i for i, name in enumerate(ir.get("hooks", {}))}
        # procedures some card may replace: their calls go through the replacement check
        self.replaced = {p for a in ir.get("abilities", []) if a["form"] == "replace" for p in a["procs"]}
        # does the game reveal components? then moves and shuffles forget what was revealed
        self.reveals = any(x.get("s") == "reveal" for x in walk_ir(ir))
        # zones whose entering or leaving sets off triggers: moves there go through _watched_move
        self.zone_watch = {a["zone"] for a in ir.get("abilities", []) if "zone" in a}
        # component fields: one column per field name, across kinds
        self.columns = []
        field_types: dict[str, set] = {}
        for spec in ir["kinds"].values():
            for f in spec["fields"]:
                if f["name"] not in field_types:
                    self.columns.append(f["name"])
                field_types.setdefault(f["name"], set()).add(f["type"])
        self.column = {name: i for i, name in enumerate(self.columns)}
        scalar_types = ("int", "bool", "text", "player", "cell")
        self.scalar_field = {name: all(t in scalar_types or t.startswith(("enum:", "comp:")) for t in ts)
                             for name, ts in field_types.items()}
        self.kind_fields = {k: [(f["name"], self.column[f["name"]]) for f in spec["fields"]]
                            for k, spec in ir["kinds"].items()}
        self.ns = {}
        self.consts = {}                       # constant source -> global name
        self.out = []
        self.action_meta = []                  # global action index -> (name, param names)
        self.action_index = {}                 # id(action IR) -> global action index
        self.memo_fns = {}                     # IR key of a memoised static expression -> function
        self.nonempty_fns = set()              # emptiness tests of defs' lists written (def_calls.nonempty_call)
        self.memo_shape = {}
        self.memo_out = []
        self.batches = []
        self.memo_cache = {}                   # memoising function -> its cache's name
        self.listing_memo_used = False         # was a call of a def memoised per listing written?
        self.body_variants = {}                # (action, subset size) -> body function for that size
        self.def_shape = {}                    # def -> (shape, element shape) of its value
        self.batch_free = None
        self.makers = 0                        # component-making functions generated so far
        self.maker_kinds = {}
        # IR nodes all inlined def bodies may add to the generated code: inlining multiplies (a def
        # calling another six times, eight deep), and past this the defs are called instead
        self.inline_room = INLINE_TOTAL
        self.inlined = {}
        self.cell_memo_room = CELL_MEMO_SLOTS      # slots the tables of memos indexed by cells may have
        # lists the cost model may scan uncharged (constants.SMALL_LIST): the players, a board's lines
        self.few_players = ir["players"]["max"] <= SMALL_LIST
        self.short_lines = self.geometry is not None and max(self.geometry.width, self.geometry.height) <= SMALL_LIST

    def const(self, value, prefix: str = "K", key=None) -> str:
        """A module-level constant of the generated code (geometry tables, tables, lists);
        constants with the same key share one name (so equal sources compare equal)."""
        if key is not None and key in self.consts:
            return self.consts[key]
        name = f"{prefix}{len(self.ns)}"
        self.ns[name] = value
        if key is not None:
            self.consts[key] = name
        return name

    def add_fn(self, fn: Fn) -> None:
        self.out.extend(fn.lines())
        self.out.append(("", None))


class Part:
    """One part of the Lowerer: the state it shares with the others, and the others by name (set
    by the Lowerer once all are made)."""
    sh: Shared
    facts: Analyses
    exprs: ExpressionLowering
    defs: DefLowering
    comps: ComprehensionLowering
    calls: CallLowering
    stmts: StatementLowering
    enumerator: ActionEnumerator

    def __init__(self, sh: Shared):
        self.sh = sh


ROUND_VALUES = ("round_count", "turn_order", "remaining")


def uses_rounds(ir: dict) -> bool:
    """Does the game keep rounds, a turn order or eliminated players (Match.seq)? Only then does
    the engine keep that state: every other game's state and speed stay as they were."""
    if any(event in ir["handlers"] for event in ("round_start", "round_end")):
        return True
    for x in walk_ir(ir):
        if (x.get("k") == "builtin" and x.get("n") in ROUND_VALUES) or x.get("s") in ("eliminate", "readmit", "turn_order") \
                or (x.get("k") == "call" and x.get("f") == "eliminated"):
            return True
    return False
