"""Tuning constants and value shapes shared by the generator's modules."""
from ..irspec import CALLABLE

# The only Python the IR's operators become (irspec.py lists the same operators).
PY_UNARY = {"-": "-", "not": "not"}
PY_BINARY = {"+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
             ">": ">", ">=": ">=", "and": "and", "or": "or"}
PY_ASSIGN = {"=": "", "+=": "+", "-=": "-"}

INLINE_DEPTH = 8             # defs inlined into defs inlined into ...
INLINE_SIZE = 400            # IR nodes of a def body above which it is called, not inlined
UNROLL_MAX = 6               # largest subset size enumerated by unrolled loops
INTERN_LIMIT = 50_000        # interned actions kept per action (in a dict)
INTERN_CELLS = 1 << 20       # largest nested-list intern table (cells x cells ...) per action
# builtin calls that draw from the match's generator, read from the node table
RANDOM_CALLS = tuple(name for name, b in CALLABLE.items() if b.random)
BOARD_WALKS = ("line", "between", "direction", "distance", "reachable", "step")
MEMO_LIMIT = 100_000         # results kept per memoised def

# Fast paths of the generator, each of which can be switched off (RULELANG_OPTIMISE, below) so
# that tests can compare it with the plain path it replaces.
OPTIMISATIONS = (
    "inline",   # small non-recursive defs inlined at their call sites
    "unroll",   # a subset parameter of constant size bounds enumerated by k nested index loops
    "hoist",    # each `require` conjunct tested at the shallowest parameter loop that binds its names
    "intern",   # legal actions kept in nested lists indexed by ids, verdicts cached per combination
    "batch",    # a constant loop of `create`s computed once and added in bulk
    "memo",     # static defs and board expressions memoised per game
    "lmemo",    # defs that read the match memoised while one listing of legal actions runs
)


def optimisations(setting: str | None) -> frozenset:
    """The fast paths a RULELANG_OPTIMISE value leaves on: unset or "all" is every one, "none" is
    none, and a comma-separated list of names with a leading `-` switches those off."""
    if setting is None or setting.strip() in ("", "all"):
        return frozenset(OPTIMISATIONS)
    if setting.strip() == "none":
        return frozenset()
    on = set(OPTIMISATIONS)
    for word in setting.split(","):
        word = word.strip()
        if word.startswith("-") and word[1:] in OPTIMISATIONS:
            on.discard(word[1:])
    return frozenset(on)


LIST, SCALAR, ANY = "list", "scalar", "any"
REBIND = "#rebind-components"  # marker line: re-read the component columns (after a create)
NOCONST = object()


