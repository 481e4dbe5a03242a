"""The IR's vocabulary in one table (and check.py's check that a given IR keeps to it).

Compiled IR is shared between people, so the engine never trusts it: before any Python is
generated, `check_ir` (ir/check.py) walks the whole IR and refuses (with a RuleError naming the JSON path)
any node kind, operator, builtin, name or field that is not in the tables below, or that refers
to something the IR does not declare. The code generator only ever looks things up in these
closed tables, so nothing from the IR but `repr()`'d literals reaches generated source.

The same tables generate the `expr` and `stmt` parts of `ir.schema.json` (`python -m
rulelang.irspec` rewrites them; a test checks the file is current), and carry each node's facts
(random, creating) that the analyses read.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..core.limits import COMPONENT_LIMIT, FAMILY_LIMIT

NAME_PATTERN = "^[A-Za-z_][A-Za-z_0-9]*$"

# Field types of IR nodes:
#   expr / optexpr (an expression or null) / exprs (a list of them) / block (a list of statements)
#   name (an identifier) / int / bool / text / literal (JSON data) / tuple of allowed strings
#   how (the way a value is shown: plain, comp, player, cell, comp_or_player, enum:E, list:HOW)
EXPR, OPTEXPR, EXPRS, BLOCK, NAME, INT, BOOL, TEXT, LITERAL, HOW = (
    "expr", "optexpr", "exprs", "block", "name", "int", "bool", "text", "literal", "how")
HOW_PATTERN = "^(list:)*(plain|comp|player|cell|comp_or_player|enum:[A-Za-z_][A-Za-z_0-9]*)$"


@dataclass(frozen=True)
class NodeSpec:
    """One IR node kind: its fields (required and optional) and what running it can do."""
    required: dict
    optional: dict = field(default_factory=dict)
    random: bool = False      # may draw from the match's generator
    creating: bool = False    # may create components
    pauses: bool = False      # may stop an effect to wait for a decision


UNARY_OPS = ("-", "not")
BINARY_OPS = ("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or")
ASSIGN_OPS = ("=", "+=", "-=")
POSITIONS = ("", "top", "bottom")
MOVE_POSITIONS = POSITIONS + ("depth",)     # a move's: `insert(X, ZONE, N)` is one with a depth
RESULTS = ("win", "lose", "draw", "score")

# Names every rule file can use without declaring them, and their static types.
BUILTIN_VALUES = {
    "me": "player",            # the player deciding now (or whose turn it is, in flow blocks)
    "current": "player",       # whose turn it is
    "players": "list:player",  # every seat, in seat order
    "others": "list:player",   # every other seat, clockwise from the one after `me`
    "player_count": "int",
    "turn_count": "int",       # turns started so far (the first turn is 1)
    "round_count": "int",      # rounds started so far: a round is every player still in, once, in turn order
    "turn_order": "list:player",  # the seats in the order turns go round in (`turn order L` sets it)
    "remaining": "list:player",   # the players not eliminated, in turn order
    "source": "comp:*",        # the card whose ability is running (none outside card abilities)
}

REACHABLE_EXTRA = 4            # arguments `reachable` passes on to its def after the cell


@dataclass(frozen=True)
class Builtin:
    """A builtin function, described once. The checker types a call from `params` and `result`, the
    code generator reads `random`, `pure` and `scans`, the language server and the editors' grammars
    show `doc`, and a builtin with a `runtime` function needs no lowering of its own: adding one is
    this entry plus that function in engine/codegen/runtime.py (and its line in docs/language.md)."""
    low: int                  # how many arguments, at least
    high: int                 # and at most
    params: tuple[str, ...] = ()   # what each argument must be: a kind the checker knows (ARG_KINDS); "any" is
                                   # unchecked; empty: the checker types this builtin itself (its own rule)
    result: str = "any"       # the result's type; "elem" / "list:elem": the first argument's element type
    random: bool = False      # draws from the match's generator
    board: bool = False       # needs the game's board
    pure: bool = False        # its value depends on its arguments only (a label using it may be cached)
    reads_match: bool = False # reads the match besides its arguments (the turn order, the player count, who
                              # is out, a component's text): a def calling it is no per-game constant
    scans: bool = False       # walks a list it is given (a short list uncharged, a long one charged)
    doc: tuple[str, str] = ("", "")   # how it is written, and what it gives
    runtime: str = ""         # generated code calls `runtime(m, *args)`; "" when the generator lowers it itself


# The kinds of argument a builtin's `params` may name (the checker holds the test for each, and the
# words "`f` needs …" use).
ARG_KINDS = ("any", "sized", "list", "ints", "bools", "sortable", "text", "texts", "separator", "player", "int", "component",
             "board", "cell", "cells", "cellkind", "direction", "side", "steps", "cellcount")

BUILTIN_FUNCTIONS: dict[str, Builtin] = {
    "size": Builtin(1, 1, ("sized",), "int", pure=True, doc=("size(z)", "how many")),
    "count": Builtin(1, 1, ("list",), "int", pure=True,
                     doc=("count(list)", "how many; of true/false values, how many are true")),
    "sum": Builtin(1, 1, ("ints",), "int", pure=True, scans=True, doc=("sum(list)", "the sum of a list of numbers")),
    "any": Builtin(1, 1, ("bools",), "bool", pure=True, scans=True,
                   doc=("any(list)", "whether any of a list of true/false values is true")),
    "all": Builtin(1, 1, ("bools",), "bool", pure=True, scans=True,
                   doc=("all(list)", "whether every one of a list of true/false values is true")),
    "max": Builtin(1, 9, (), "int", pure=True, scans=True,
                   doc=("max(list[, default]), max(a, b)", "the largest; `max(xs, 0)` gives 0 for an empty list")),
    "min": Builtin(1, 9, (), "int", pure=True, scans=True,
                   doc=("min(list[, default]), min(a, b)", "the smallest; `min(xs, 0)` gives 0 for an empty list")),
    "top": Builtin(1, 2, doc=("top(z), top(z, n)", "the top component (or `none`), or the top n, top first")),
    "bottom": Builtin(1, 2, doc=("bottom(z), bottom(z, n)", "the bottom component (or `none`), or the bottom n")),
    "first": Builtin(1, 1, ("list",), "elem", pure=True, doc=("first(list)", "the first element of a list")),
    "last": Builtin(1, 1, ("list",), "elem", pure=True, doc=("last(list)", "the last element of a list")),
    "text": Builtin(1, 1, (), "text", doc=("text(x)", "a value's display text (an enum's text, a card's label, a "
                                                       "player's \"P2\", a cell's name)")),
    "next": Builtin(1, 1, ("player",), "player", reads_match=True,
                    doc=("next(p)", "the next player clockwise (with rounds: in turn order, skipping the eliminated)")),
    "abs": Builtin(1, 1, ("int",), "int", pure=True, doc=("abs(n)", "the absolute value of a number")),
    "clamp": Builtin(3, 3, ("int", "int", "int"), "int", pure=True, runtime="_clamp",
                     doc=("clamp(n, low, high)", "n kept within low..high: `clamp(hp + 2, 0, max_hp)`")),
    "roll": Builtin(1, 1, ("int",), "int", random=True,
                    doc=("roll(n)", "a die roll 1..n, from the match's seeded generator")),
    "distinct": Builtin(1, 1, ("list",), "list:elem", pure=True,
                        doc=("distinct(list)", "the list without repeated elements")),
    "pick": Builtin(1, 1, ("list",), "elem", random=True,
                    doc=("pick(list)", "a random element, from the match's seeded generator")),
    "contains": Builtin(2, 2, ("sized", "any"), "bool", pure=True, scans=True,
                        doc=("contains(list, x)", "like `x in list`")),
    "reverse": Builtin(1, 1, ("list",), "list:elem", doc=("reverse(list)", "the list backwards")),
    "sort": Builtin(1, 1, ("sortable",), "list:elem",
                    doc=("sort(list)", "the list sorted ascending (numbers or texts; `none` first)")),
    "split": Builtin(2, 2, ("text", "separator"), "list:text",
                     doc=("split(t, sep)", "the parts of a text between separators")),
    "join": Builtin(2, 2, ("texts", "separator"), "text", pure=True, runtime="_join",
                    doc=("join(texts, sep)", "texts joined by a separator: `join([text(c) for c in hand[me]], \", \")`")),
    "lower": Builtin(1, 1, ("text",), "text", pure=True, runtime="_lower",
                     doc=("lower(t)", "the text in lower case: `lower(\"North\")` is `\"north\"` (to read "
                                      "a text option as typed in any case)")),
    "trim": Builtin(1, 1, ("text",), "text", pure=True, runtime="_trim",
                    doc=("trim(t)", "the text without the spaces at its start and end: `trim(\" red \")` "
                                    "is `\"red\"`")),
    "eliminated": Builtin(1, 1, ("player",), "bool", reads_match=True, doc=("eliminated(p)", "whether player p is out of the "
                          "game (`eliminate p`): skipped by the turn order, left out of `others` and `remaining`")),
    "players_from": Builtin(1, 1, ("player",), "list:player", reads_match=True,
                            doc=("players_from(p)", "every seat in turn order, starting "
                                                       "with p: [p, the next seat, …]")),
    "cells": Builtin(1, 2, ("board", "cellkind"), "list:cell", board=True, doc=("cells(board[, kind])", "a board's cells (or those of a kind: "
                                            "`\"octagon\"`, `\"socket\"`, `\"square\"`, `\"hex\"`)")),
    "neighbours": Builtin(1, 2, ("cell", "cellkind"), "list:cell", board=True, doc=("neighbours(c[, kind])", "the cells next to c (of c's kind, or the "
                                                 "touching cells of another kind: an octagon's sockets)")),
    "step": Builtin(2, 2, ("cell", "direction"), "cell", board=True, doc=("step(c, dir)", "one step from c in a direction (or `none`)")),
    "directions": Builtin(1, 1, ("board",), "list:text", board=True, doc=("directions(board)", "`\"n\" \"s\" \"e\" \"w\"` (+ `\"ne\" "
                          "\"nw\" \"se\" \"sw\"` with `diagonal`; hexes: `\"e\" \"w\" \"ne\" \"nw\" \"se\" \"sw\"`)")),
    "line": Builtin(3, 3, ("cell", "direction", "cellcount"), "list:cell", board=True, doc=("line(c, dir, n)", "up to n cells in a straight line from c (c left out)")),
    "between": Builtin(2, 2, ("cell", "cell"), "list:cell", board=True, doc=("between(a, b)", "the cells strictly between two cells in a line")),
    "direction": Builtin(2, 2, ("cell", "cell"), "text", board=True, doc=("direction(a, b)", "the direction from a to b")),
    "distance": Builtin(2, 2, ("cell", "cell"), "int", board=True, doc=("distance(a, b)", "steps over neighbours")),
    "reachable": Builtin(3, 3 + REACHABLE_EXTRA, board=True, doc=("reachable(c, n, passable[, x, …])", "the cells "
                         "reachable in 1..n steps, every cell entered satisfying the def `passable(cell)` (or "
                         "`passable(cell, x, …)`: what follows its name is passed on after the cell)")),
    "cell": Builtin(2, 3, board=True, doc=("cell(board, \"a1\") / cell(board, col, row)", "one cell, by name or by "
                    "column and row (from 1; row 1 is the bottom row; `none` off the board)")),
    "rows": Builtin(1, 1, ("board",), "int", board=True, doc=("rows(board)", "how many rows the board has")),
    "cols": Builtin(1, 1, ("board",), "int", board=True, doc=("cols(board)", "how many columns the board has")),
    "edge": Builtin(2, 2, ("board", "side"), "list:cell", board=True, doc=("edge(board, side)", "the cells along a side of the board: \"n\" (the "
                    "top row), \"s\", \"e\", \"w\"; a hexagon's sides are \"n\" \"s\" \"ne\" \"nw\" \"se\" \"sw\"")),
    "line_in": Builtin(3, 3, ("cell", "direction", "cells"), "list:cell", board=True, doc=("line_in(c, dir, cells)", "the cells in a straight line from c (c left "
                       "out) as long as they are in `cells`: for N in a row")),
    "opposite": Builtin(1, 1, ("direction",), "text", doc=("opposite(dir)", "the opposite direction: opposite(\"ne\") is \"sw\"")),
    "rules_text": Builtin(1, 1, ("component",), "text", reads_match=True, runtime="_rules_text",
                          doc=("rules_text(c)", "a component's rules text, as players read it: its card's `text "
                               "\"…\"`, then its kind's `text E` (`me` as where it is read), on one line; \"\" when "
                               "it has none")),
}
# A rule line of an included file is its line + LINE_FILE_STRIDE × its place in `line_files` (from 1):
# a runtime error there named the main file with the included file's line (a designer's error in a
# card file was sent to the main file). Saves do not see it: the fingerprint reads lines modulo it.
LINE_FILE_STRIDE = 1_000_000


def line_file(ir: dict, line) -> tuple[str | None, int | None]:
    """(the included rule file a line of the IR is in, as `line_files` names it — beside the main
    one; None: the main file — and its line there)."""
    if type(line) is not int or 0 <= line < LINE_FILE_STRIDE:
        return None, line
    files = ir.get("line_files") or []
    k = line // LINE_FILE_STRIDE
    if not 0 < k <= len(files) or not isinstance(files[k - 1], str):
        return None, None            # (no line the compiler writes: a crafted 5,000,002 was line 2 of the main file)
    return files[k - 1], line % LINE_FILE_STRIDE


def rule_place(ir: dict, line) -> str:
    """`file:line` for an error message: the main rule file as it was read, or the included file in
    its folder."""
    name, at = line_file(ir, line)
    source = str(ir.get("source", ir.get("name", "")))
    if name is None:
        return source if at is None else f"{source}:{at}"
    folder = source.rsplit("/", 1)[0] + "/" if "/" in source else ""
    return f"{folder}{name}:{at}"


def line_words(ir: dict, line) -> str:
    """`line 4`, or `line 4 of game/cards.rules` for a line of an included file (named as the rules
    include it, never by where they lie on this machine: a game's end reason is part of its state)."""
    name, at = line_file(ir, line)
    return "a line of no rule file" if at is None else f"line {at}" + (f" of {name}" if name else "")


def refusal_def(step: str, action: str) -> str:
    """The def that words why `action` of `step` is not legal (`require C else E`): named with the
    step's length, so that no two (step, action) pairs share a name (`a_b`+`c`, `a`+`b_c`)."""
    return f"__refusal_{len(step)}_{step}_{action}"


REFUSES = "__refuses_"          # (refusal_holds: the defs' common start, left out of a save's fingerprint)


def refusal_holds(step: str, action: str) -> str:
    """The def that tells whether `action`'s `require C` holds now (C when it reads no parameter):
    its `else` reason is said only while C does not hold — an action typed with a choice that
    does not exist is not refused for the reason of a condition that holds."""
    return f"{REFUSES}{len(step)}_{step}_{action}"


def leading_words(action: dict) -> str | None:
    """The fixed words its `as` text starts with (`as "bid " + …`: `bid `), or None where it starts
    with a value (`as text(f) + "-" + …`) or has no `as` text."""
    x = action.get("text")
    while isinstance(x, dict) and x.get("k") == "bin" and x.get("op") == "+":
        x = x.get("l")
    if isinstance(x, dict) and x.get("k") == "lit" and isinstance(x.get("v"), str) and x["v"].split():
        return x["v"]
    return None


def typed_names(action: dict) -> list[str]:
    """The words a player types to name an action (lower case): its name (`draw card`), and the
    fixed words its `as` text starts with, all of them and the first (`as "turn over " + …`:
    `turn over`, `turn`; `as "bid " + …`: `bid`)."""
    names = [action["name"].replace("_", " ").lower()]
    words = leading_words(action)
    if words is not None:
        for word in (" ".join(words.split()).lower().rstrip(" :;,.-"), words.split()[0].lower()):
            if word not in names:
                names.append(word)
    return names


RANDOM_CALLS = tuple(name for name, b in BUILTIN_FUNCTIONS.items() if b.random)
# `text(x)` is compiled to a `text` node, never a call; the engine has no `text` call.
CALLABLE = {name: b for name, b in BUILTIN_FUNCTIONS.items() if name != "text"}

EXPRESSIONS: dict[str, NodeSpec] = {
    "lit": NodeSpec({"v": LITERAL}, {"enum": NAME}),
    "local": NodeSpec({"n": NAME}),
    "builtin": NodeSpec({"n": tuple(BUILTIN_VALUES)}),
    "var": NodeSpec({"n": NAME}, {"i": OPTEXPR}),
    "zone": NodeSpec({"n": NAME}, {"i": OPTEXPR}),
    "def": NodeSpec({"n": NAME, "a": EXPRS}, {"line": INT}),
    "option": NodeSpec({"n": NAME}),
    "un": NodeSpec({"op": UNARY_OPS, "x": EXPR}),
    "bin": NodeSpec({"op": BINARY_OPS, "l": EXPR, "r": EXPR}, {"scalar": BOOL}),
    "in": NodeSpec({"x": EXPR, "in": EXPR}),
    "range": NodeSpec({"lo": EXPR, "hi": EXPR}),
    "if": NodeSpec({"c": EXPR, "t": EXPR, "e": EXPR}),
    "attr": NodeSpec({"x": EXPR, "n": NAME}, {"line": INT}),
    "cellattr": NodeSpec({"x": EXPR, "n": ("name", "row", "col", "kind")}, {"line": INT}),
    "index": NodeSpec({"x": EXPR, "i": EXPR}, {"line": INT}),
    "table": NodeSpec({"n": NAME, "i": EXPR}, {"line": INT}),
    # `or`: max/min of a list (a[0]) or a[1] when it is empty
    "call": NodeSpec({"f": tuple(CALLABLE), "a": EXPRS}, {"line": INT, "or": BOOL}),
    "text": NodeSpec({"x": EXPR, "as": HOW}),
    "list": NodeSpec({"items": EXPRS}),
    "comp": NodeSpec({"x": EXPR, "v": NAME, "in": EXPR}, {"where": OPTEXPR}),
    # the sum of the `modify` abilities of cards in play for def `n` with these arguments
    "mods": NodeSpec({"n": NAME, "a": EXPRS}),
    # a comprehension ordered by a key: `pairs` gives [key, element] lists, the result the elements
    "sortby": NodeSpec({"pairs": EXPR}),
    # a list of lists joined into one list (nested comprehensions: `for a in xs for b in ys`)
    "flat": NodeSpec({"x": EXPR}),
    # the position of an enum value among its enum's values (indexes a family `per Colour`)
    "ord": NodeSpec({"enum": NAME, "x": EXPR}),
    # does component `of` have an ability for the hook that applies now (its `where`, its `from`)?
    "can": NodeSpec({"hook": NAME, "a": EXPRS, "of": EXPR}),
}

READMIT = "readmit"      # the builtin procedure `readmit(P)` (a proc the rules declare of that name hides it)
INSERT = "insert"        # the builtin procedure `insert(X, ZONE, N)`: a move with N components above it
REFUSE = "refuse"        # the builtin procedure `refuse(REASON)`: the set-up refuses the options (likewise)

STATEMENTS: dict[str, NodeSpec] = {
    "move": NodeSpec({"what": EXPR, "to": EXPR, "pos": MOVE_POSITIONS}, {"depth": EXPR}),
    "shuffle": NodeSpec({"zone": EXPR}, random=True),
    "eliminate": NodeSpec({"who": EXPR}, {"until": ("round_end",)}),   # until: out for the rest of this round
    "readmit": NodeSpec({"who": EXPR}),          # the way back: an eliminated player is in again
    "refuse": NodeSpec({"why": EXPR}),           # the set-up refuses the options it was given (a text why)
    "turn_order": NodeSpec({"v": EXPR}),
    "set": NodeSpec({"target": "target", "op": ASSIGN_OPS, "v": EXPR}),
    "let": NodeSpec({"n": NAME, "v": EXPR}),
    "append": NodeSpec({"target": "target", "v": EXPR}),
    "remove": NodeSpec({"target": "target", "v": EXPR}),
    "if": NodeSpec({"c": EXPR, "then": BLOCK, "else": BLOCK}),
    "for": NodeSpec({"v": NAME, "in": EXPR, "body": BLOCK}),
    "while": NodeSpec({"c": EXPR, "body": BLOCK}),
    "repeat": NodeSpec({"n": EXPR, "body": BLOCK}),
    "goto": NodeSpec({"step": NAME}),
    "end_turn": NodeSpec({}, {"to": OPTEXPR}),
    "finish": NodeSpec({"result": RESULTS}, {"who": OPTEXPR, "why": EXPR}),   # why: a text, for the players
    "call": NodeSpec({"proc": NAME, "a": EXPRS}),
    "create": NodeSpec({"kind": NAME, "fields": "fields", "to": EXPR, "pos": POSITIONS}, creating=True),
    "log": NodeSpec({"v": EXPR}, {"to": OPTEXPR}),
    "create_cards": NodeSpec({"kind": NAME, "fields": "fields", "where": OPTEXPR, "to": EXPR, "pos": POSITIONS},
                             creating=True),
    # the interaction model: these may stop an effect until a player decides (directly, or in the
    # abilities they set off), and those abilities may create components
    "choose": NodeSpec({"v": NAME, "mode": ("one", "subset", "order"), "in": EXPR, "where": OPTEXPR,
                        "min": OPTEXPR, "max": OPTEXPR, "by": OPTEXPR, "optional": BOOL, "prompt": OPTEXPR,
                        "show": HOW, "body": BLOCK, "else": BLOCK}, {"as": OPTEXPR, "always": BOOL, "about": OPTEXPR},
                       pauses=True),
    "may": NodeSpec({"by": OPTEXPR, "prompt": OPTEXPR, "body": BLOCK, "else": BLOCK}, {"about": OPTEXPR}, pauses=True),
    "emit": NodeSpec({"event": NAME, "a": EXPRS}, creating=True, pauses=True),
    "open": NodeSpec({"window": NAME, "a": EXPRS, "from": OPTEXPR}, {"to": EXPR, "always": BOOL, "until": EXPR}, creating=True,
                     pauses=True),
    "run": NodeSpec({"hook": NAME, "a": EXPRS, "of": EXPR}, {"by": EXPR}, creating=True, pauses=True),
    "resolve_triggers": NodeSpec({}, creating=True, pauses=True),   # the waiting triggers run now
    "reveal": NodeSpec({"what": EXPR, "to": OPTEXPR}),
    "grant": NodeSpec({"def": NAME, "a": EXPRS, "v": EXPR, "until": ("turn_end",)}),
}
ANYTIME_STEP = "__anytime"      # the step made of the `anytime` actions: never entered, listed for interrupts
COMMON_OPTIONAL = {"line": INT}          # every statement may say its rule-file line

SCALAR_TYPES = ("int", "bool", "text", "player", "cell")
OPTION_TYPES = ("bool", "int", "text")
ZONE_PER = (None, "player", "cell", "component", "key")
VAR_PER = (None, "player", "cell", "component", "key")
VISIBILITY = ("public", "hidden", "owner", "others")   # others: every player but the owner
EVENTS = ("stuck", "turn_start", "turn_end", "round_start", "round_end")
BOARD_SHAPES = ("squares", "hexes", "rhombus", "hexagon", "octagons")
LEGEND_ENTRIES, LEGEND_TEXT = 100, 1000      # a board's legend: its entries, each one's characters (schema.json)


def board_directions(shape: str, diagonal: bool) -> list[str]:
    """The directions a board's cells step in, by name: boards.Geometry steps them, and the checker
    warns of a direction written in the rules that the board does not have (`step(c, "north")`, W238)."""
    if shape in ("hexes", "rhombus", "hexagon"):
        return ["e", "w", "ne", "nw", "se", "sw"]
    return ["n", "s", "e", "w"] + (["ne", "nw", "se", "sw"] if diagonal else [])


def board_layout(shape: str, width: int, height: int):
    """Every cell of a board as (name, kind, column, row), in id order: the main kind row by row (a
    hexagon's within its six sides, `width` being its side), then an octagon board's sockets
    between each four octagons. boards.Geometry builds from it; the checker knows a written cell
    name from it (`cell(grid, "z9")`)."""
    main = "hex" if shape in ("hexes", "rhombus", "hexagon") else "octagon" if shape == "octagons" else "square"
    if shape == "hexagon":
        width = height = 2 * width - 1
    side = (width + 1) // 2
    letters = "abcdefghijklmnopqrstuvwxyz"
    for row in range(1, height + 1):
        for col in range(1, width + 1):
            if shape == "hexagon" and abs((col - side) + (row - side)) > side - 1:
                continue                                   # outside the hexagon (axial q + r too far)
            yield f"{letters[col - 1]}{row}", main, col, row
    if shape == "octagons":
        for row in range(1, height):
            for col in range(1, width):
                yield f"{letters[col - 1]}{letters[col]}{row}{row + 1}", "socket", col, row


# ---- the size of a family ----
def board_cells(shape: str, width: int, height: int) -> int:
    """How many cells a board has (boards.Geometry makes exactly these; a hexagon's width is its side)."""
    if shape == "hexagon":
        return 3 * width * (width - 1) + 1
    if shape == "octagons":
        return width * height + (width - 1) * (height - 1)
    return width * height


def family_members(parts, players: int, cells: int, enum_size) -> int:
    """How many zones (or values) a family stands for: the product of its parts' sizes, each
    `player`, `cell`, `component` (as many as a match may have) or `enum:E` (`enum_size(E)`)."""
    total = 1
    for part in parts:
        total *= (players if part == "player" else cells if part == "cell" else COMPONENT_LIMIT
                  if part == "component" else enum_size(part[5:]))
    return total


def family_limit_message(what: str, name: str, parts, members: int, players: int) -> str | None:
    """Why a family with this many members cannot be made (FAMILY_LIMIT), or None."""
    if members <= FAMILY_LIMIT:
        return None
    shown = " per ".join(p[5:] if p.startswith("enum:") else p for p in parts)
    at = f" at {players} players" if "player" in parts else ""
    return (f"{what} `{name}` is one per {shown}: {members:,} members{at}, more than the family limit "
            f"({FAMILY_LIMIT:,})")


def walk_ir(e):
    """Every object in a JSON tree (an IR or a part of one), parent before children, in the order
    they are written — without recursion (a chain of nested generators would cost a call per level
    for every node)."""
    stack = [e]
    pop, push = stack.pop, stack.extend
    while stack:
        x = pop()
        if type(x) is dict:
            yield x
            push([v for v in reversed(x.values()) if type(v) is dict or type(v) is list])
        elif type(x) is list:
            push([v for v in reversed(x) if type(v) is dict or type(v) is list])


# ---- the schema's expression and statement parts, generated from the tables ----
def _field_schema(t) -> dict:
    if isinstance(t, tuple):
        return {"enum": list(t)}
    schemas: dict[str, dict] = {
        EXPR: {"$ref": "#/$defs/expr"}, OPTEXPR: {"$ref": "#/$defs/optexpr"},
        EXPRS: {"type": "array", "items": {"$ref": "#/$defs/expr"}}, BLOCK: {"$ref": "#/$defs/block"},
        NAME: {"$ref": "#/$defs/name"}, INT: {"type": "integer"}, BOOL: {"type": "boolean"},
        TEXT: {"type": "string"}, LITERAL: {}, HOW: {"type": "string", "pattern": HOW_PATTERN},
        "target": {"type": "object", "required": ["k", "n"], "additionalProperties": False,
                   "properties": {"k": {"enum": ["local", "var"]}, "n": {"$ref": "#/$defs/name"},
                                  "i": {"$ref": "#/$defs/optexpr"}}},
        "fields": {"type": "object", "additionalProperties": {"$ref": "#/$defs/expr"}},
    }
    return schemas[t]


def _union(tag: str, table: dict, common: dict) -> dict:
    """A tagged union: the tag picks which fields are required and allowed."""
    cases = []
    for kind, spec in table.items():
        fields = {**spec.required, **spec.optional, **common}
        cases.append({
            "if": {"properties": {tag: {"const": kind}}, "required": [tag]},
            "then": {"required": [tag, *spec.required], "additionalProperties": False,
                     "properties": {tag: {"const": kind}, **{k: _field_schema(t) for k, t in fields.items()}}},
        })
    return {"type": "object", "required": [tag], "properties": {tag: {"enum": list(table)}}, "allOf": cases}


def schema_defs() -> dict:
    """The `expr` and `stmt` definitions of ir.schema.json."""
    return {"expr": _union("k", EXPRESSIONS, {}), "stmt": _union("s", STATEMENTS, COMMON_OPTIONAL)}


def write_schema(path) -> None:
    """Rewrite the generated parts of the schema file at `path`."""
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    schema["$defs"].update(schema_defs())
    with open(path, "w", encoding="utf-8") as f:
        f.write(_compact(schema, 0) + "\n")


def _compact(x, depth: int) -> str:
    """JSON laid out for reading: one line per entry down to a few levels, then one line per value."""
    if depth >= 4 or not isinstance(x, (dict, list)) or not x:
        return json.dumps(x, ensure_ascii=False)
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(x, list):
        return "[\n" + ",\n".join(inner + _compact(v, depth + 1) for v in x) + "\n" + pad + "]"
    return "{\n" + ",\n".join(f"{inner}{json.dumps(k)}: {_compact(v, depth + 1)}" for k, v in x.items()) + "\n" + pad + "}"


if __name__ == "__main__":                   # python -m rulelang.ir.spec: regenerate the schema's node parts
    from importlib import resources
    write_schema(str(resources.files("rulelang.ir").joinpath("schema.json")))
