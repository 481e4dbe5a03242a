"""What the parts of the `Lowerer` share, declared once with their types: its tables of the IR, what
the analyses found, the generated code so far, and the methods one part calls on another. The
Lowerer (generator.py) is one object made of parts in their own modules (analysis.py,
expressions.py, def_calls.py, comprehensions.py, calls.py, statements.py, enumerator.py), each a
class deriving from LowererParts, so that each part type-checks on its own (tests/test_mypy.py).

Declarations only: no values and no code at run time (the methods are declared under
TYPE_CHECKING); Lowerer.__init__ and the analyses set the attributes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

if TYPE_CHECKING:
    from ..boards import Geometry
    from .frame import Ctx, P
    from .writer import Fn


class LowererParts:
    """The state every part of the Lowerer reads and writes."""

    # the IR and its tables (Lowerer.__init__)
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
    # the generated module and its bookkeeping (Lowerer.__init__ and _build)
    ns: dict[str, Any]
    consts: dict
    out: list[tuple[str, Any]]              # (line of code, rule line or None)
    action_meta: list[tuple[str, list]]
    action_index: dict[int, int]
    _static_walk: dict
    _keep: list
    memo_fns: dict[str, str]
    memo_shape: dict[str, tuple]
    memo_out: list[tuple[str, Any]]
    batches: list
    memo_cache: dict[str, str]
    listing_memo_used: bool
    body_variants: dict
    def_shape: dict[str, tuple]
    batch_free: list | None
    makers: int
    inline_room: int
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
    # the closed dispatch of IR nodes to their lowering (set after Lowerer, in generator.py)
    EXPR_LOWERING: ClassVar[dict[str, Callable[..., P]]]
    STMT_LOWERING: ClassVar[dict[str, Callable[..., None]]]

    if TYPE_CHECKING:
        # what one part calls on another (each defined in the module the comment names)
        # generator.py
        def const(self, value: Any, prefix: str = "K", key: Any = None) -> str: ...
        def add_fn(self, fn: Fn) -> None: ...
        # expressions.py
        def ex(self, e: Any, ctx: Ctx) -> P: ...
        def lit(self, v: Any) -> P: ...
        def binding(self, name: str, ctx: Ctx) -> Any: ...
        def of_binding(self, b: Any) -> P: ...
        def x_builtin(self, e: Any, ctx: Any) -> Any: ...
        def family_index(self, decl: dict, ie: dict, ctx: Any) -> P: ...
        def seq(self, e: Any, ctx: Ctx) -> P: ...
        # def_calls.py
        def memo_expr(self, e: Any, ctx: Ctx) -> P | None: ...
        def inline(self, name: str, args: list, ctx: Ctx) -> Any: ...
        def scan(self, p: P) -> str: ...
        def in_src(self, x: P, s: P) -> str: ...
        # comprehensions.py
        def unrolled(self, e: Any, ctx: Ctx) -> Any: ...
        def fold_unrolled(self, f: str, parts: Any) -> P: ...
        # calls.py
        def text_src(self, how: str, v: str, fn: Fn) -> str: ...
        # analysis.py
        def unrolls(self, param: dict) -> bool: ...
        def weight_of(self, part: Any) -> int: ...
        def small_source(self, e: Any) -> int: ...
        def units(self, weight: int) -> int: ...
        def static_walk(self, e: Any) -> bool: ...
        def static_expr(self, e: Any) -> bool: ...
        def batchable(self, s: Any, bound: frozenset = frozenset()) -> bool: ...
        def element_static(self, e: Any, allowed: set, depth: int = 0) -> bool: ...
        def ids_of(self, e: Any, depth: int = 0) -> str | None: ...
