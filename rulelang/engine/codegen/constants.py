"""Tuning constants and value shapes shared by the generator's modules."""
from ...ir.spec import CALLABLE

# The only Python the IR's operators become (irspec.py lists the same operators).
PY_UNARY = {"-": "-", "not": "not"}
PY_BINARY = {"+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
             ">": ">", ">=": ">=", "and": "and", "or": "or"}
PY_ASSIGN = {"=": "", "+=": "+", "-=": "-"}

INLINE_DEPTH = 8             # defs inlined into defs inlined into ...
INLINE_SIZE = 400            # IR nodes of a def body above which it is called, not inlined
CODE_LIMIT = 8_000_000       # characters of one game's generated Python (a 400,000-character rule file: ~800,000)
PART_LIMIT = 1_000_000       # characters of one generated function (compiled at once: ~150 MB for Python)
PART_SIZE = 100_000          # characters the generated module is compiled in, a few functions at a time
INLINE_TOTAL = 100_000       # IR nodes inlining may add to one game's code in all (the largest game: 8,000)
UNROLL_MAX = 6               # largest subset size enumerated by unrolled loops
INTERN_LIMIT = 50_000        # interned actions kept per action (in a dict)
INTERN_CELLS = 1 << 20       # largest nested-list intern table (cells x cells ...) per action
# builtin calls that draw from the match's generator, read from the node table
RANDOM_CALLS = tuple(name for name, b in CALLABLE.items() if b.random)
BOARD_WALKS = ("line", "between", "direction", "distance", "reachable", "step")
MEMO_LIMIT = 100_000         # results kept per memoised def
MEMO_SIZE_LIMIT = 2_000_000  # list elements held by all the memos of one game together
CELL_MEMO_SLOTS = 4_000_000  # slots of all the tables of memos indexed by cells (a pair of 1,301: 1.7 million)
WEIGHT_UNIT = 32             # IR nodes one unit of work stands for at most (analysis.weight_of)
COMPARE_WEIGHT = 32          # the weight of comparing two values that may be texts (up to TEXT_LIMIT long)
WEIGHT_CAP = 10 ** 12        # weights past this (a call tree more than exponential) count as this
LONG_LITERAL = 256           # a literal list longer than this is a module constant, copied where used
SMALL_DOMAIN = 64            # domains this short have their subsets' charge in a table (enumerator)
SHORT_TEXT = 1_000           # texts known this short (constants, names of players and cells) are joined by plain `+`
SMALL_LIST = 16              # a list known to be this short (the players, a board line) is scanned uncharged

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
    "member",   # `x in D` true at once where a listing took x from the same pure sequence D
    "precheck", # a call of a def `g(…) and …`, g memoised per game, skipped where g's memo says false
    "nonempty", # `size(D(…)) > 0` of a def's list: its elements looked for until the first is found
    "flatten",  # `[t for a in A for t in F(a)]` as one comprehension of two `for`s, no list per `a`
    "cellpair", # a board memo of a cell loop variable and a later loop's value not known to be a cell
                # read from the table of pairs of cells (no key tuple, no hashing)
    "picked",   # `top(ZONE[c])` in the condition of a comprehension whose zones were picked for being
                # non-empty (itertools.compress): the zone's last element, without testing it again
    "bare",     # a listing (or `when` condition) nothing of which can read the memo of defs (m.lm)
                # runs without opening and closing one around it
    "zonemove", # `move ZONE to …` of a whole zone that is not a plain top-to-top move: the zone's list
                # moved at once (runtime_moves._move_all), charged as one component at a time is
    "fixedlist", # `size` of a comprehension over a short literal list (through inlined defs and ifs)
                # counted element by element, each element's condition folded for its value: no list made
    "reorder",  # a `require` conjunct that cannot fail (equality tests of names and literals) tested before
                # earlier ones that cannot either, at the shallowest loop binding its names
    "lean",     # (the engine's) `apply` of a listed action, in a game that never pauses and has no
                # `others` zones, goes straight to the action and settles the flow in line
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


