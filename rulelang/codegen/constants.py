"""Tuning constants and value shapes shared by the generator's modules."""
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
RANDOM_CALLS = ("roll", "pick")
BOARD_WALKS = ("line", "between", "direction", "distance", "reachable", "step")
MEMO_LIMIT = 100_000         # results kept per memoised def

LIST, SCALAR, ANY = "list", "scalar", "any"
REBIND = "#rebind-components"  # marker line: re-read the component columns (after a create)
NOCONST = object()


