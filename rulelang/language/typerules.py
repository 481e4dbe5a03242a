"""The checker's type rules: what the short type strings mean and which fit where.

Types are short strings: int, bool, text, player, none, any, enum:E, comp:K (comp:* for a
component of any kind), list:T, zone (a concrete zone), zones (a per-player zone family that still
needs its `[player]`), cell, range, and union:comp:K+player ("a K or a player", `K or player`).
Every part of the checker (checker.py and its check_*.py parts) reads them from here.
"""
from __future__ import annotations

from ..ir.spec import SCALAR_TYPES, VISIBILITY

# The vocabulary the engine accepts (builtin values and functions with their arities, scalar types,
# events, board shapes, option types, visibilities) is irspec's: the checker reads the engine's
# tables, so a builtin added there is known here, and the two never disagree on a name or an arity.
PRIMITIVES = SCALAR_TYPES
BOARD_MODIFIERS = ("diagonal", "draw", "cell_width", "legend")
CELL_FIELDS = {"name": "text", "row": "int", "col": "int", "kind": "text"}
PER = ("player", "cell")
ZONE_SHAPES = ("pile", "set")
ZONE_MODIFIERS = VISIBILITY + ("capacity", "play", "internal", "top", "uncounted")
VAR_MODIFIERS = VISIBILITY + ("internal",)
SHOW_MODIFIERS = ("own", "table")      # `show "…" = E, own`: the viewer's own secrets; `, table`: part of the table
# Builtins that also take a comprehension: `sum(x.value for x in xs)`. Result types: see builtin_result.
AGGREGATES = ("sum", "count", "any", "all", "max", "min", "distinct", "first", "last", "size")


# ---- reading a type string: the only place that knows how one is written ----
def is_list(t: str) -> bool:
    """A list type, `list:T` (not a zone or a range, which are list-like)."""
    return t.startswith("list:")


def is_comp_type(t: str) -> bool:
    """A component type, `comp:K` or `comp:*` (is_comp also takes `any` and `none`)."""
    return t.startswith("comp:")


def is_enum(t: str) -> bool:
    return t.startswith("enum:")


def enum_name(t: str) -> str:
    """The enum of an enum type `enum:E`."""
    return t[5:]


def kind_name(t: str) -> str | None:
    """The kind of a component type `comp:K` (None for any kind, `comp:*`)."""
    return None if t == "comp:*" else t[5:]


def elem(t: str) -> str:
    if t.startswith("list:"):
        return t[5:]
    if t in ("zone",):
        return "comp:*"
    if t == "range":
        return "int"
    return "any"


VALUE_KINDS = ("enum", "enumval", "zone", "var", "option", "board", "def")
# how a message names a kind of declaration (the checker's own words are not an author's)
KIND_WORDS = {"enumval": "an enum value", "var": "a variable", "proc": "a procedure", "def": "a def",
              "enum": "an enum", "option": "an option", "event": "an event", "hook": "a hook"}


def kind_words(kind: str) -> str:
    """`a variable`, `an enum value`… for a symbol's kind."""
    return KIND_WORDS.get(kind) or f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def is_value(sym) -> bool:
    """Is this declaration what its name means when written alone, as a value? (A table, a kind, a
    procedure, a step, an event and a def with parameters are not: there a builtin value of that
    name keeps its meaning.)"""
    return sym is not None and sym.kind in VALUE_KINDS and not (sym.kind == "def" and sym.decl.params is not None)


def is_list_like(t: str) -> bool:
    return t.startswith("list:") or t in ("zone", "range", "any")


def is_comp(t: str) -> bool:
    return t.startswith("comp:") or t in ("any", "none")


# ---- unions: "a creature or a player" ----
# Players and components are both small numbers at run time, so inside a union a player p is held
# as -1 - p (negative: never a component). The checker says where a player value enters a union (it
# is tagged there) and where a name narrowed to a player is read (it is untagged there); the
# compiler writes both as `-1 - x`, which is its own inverse.
UNION = "union:"


def union_of(comp: str) -> str:
    """The union of components of type `comp` (comp:K or comp:*) and players."""
    return f"{UNION}{comp}+player"


def is_union(t: str) -> bool:
    return t.startswith(UNION)


def union_comp(t: str) -> str:
    """The component part of a union type (comp:K or comp:*)."""
    return t[len(UNION):].split("+")[0]


def joined(a: str, b: str) -> str | None:
    """The type of a value that is sometimes `a` and sometimes `b`, when one of them is a union or
    a player and the other a component (None: no union joins them). A player joins as itself."""
    if a == b and is_union(a):
        return a
    for x, y in ((a, b), (b, a)):
        if is_union(x) and (y == "player" or y.startswith("comp:") and comp_fits(y, union_comp(x))):
            return x
        if x == "player" and y.startswith("comp:"):
            return union_of(y)
    return None


def comp_fits(got: str, want: str) -> bool:
    return got == want or "comp:*" in (got, want)


def enters_union(got: str, want: str) -> str | None:
    """Where a value of type `got` stands for a `want`: how it must be tagged ("one": a player,
    "list": a list of players), "" if it fits as it is, None if this is no union's business."""
    if is_union(want):
        if got == "player":
            return "one"
        if got in ("none", "any") or got.startswith("comp:") and comp_fits(got, union_comp(want)) or \
                is_union(got) and comp_fits(union_comp(got), union_comp(want)):
            return ""
        return None
    if want.startswith("list:") and is_union(want[5:]) and is_list_like(got):
        inner = enters_union(elem(got), want[5:])
        return {"one": "list", "": ""}.get(inner) if inner is not None else None
    return None


def compatible(a: str, b: str) -> bool:
    """Can a value of type `a` stand where `b` is expected (or the other way)?"""
    if a == b or "any" in (a, b):
        return True
    if {a, b} == {"int", "player"}:      # seats are numbers: 0 is the first player
        return True
    if "none" in (a, b):
        other = b if a == "none" else a
        return other not in ("int", "bool")
    if a.startswith("comp:") and b.startswith("comp:"):
        return "comp:*" in (a, b)
    if is_list_like(a) and is_list_like(b):
        return compatible(elem(a), elem(b))
    return False


# What each kind of argument a builtin's description names must be (ir/spec.py, ARG_KINDS), and
# the words of the E201 that says so.
ARG_TESTS = {
    "sized": (is_list_like, "a list or a zone"),
    "list": (is_list_like, "a list"),
    "ints": (lambda t: is_list_like(t) and compatible(elem(t), "int"), "a list of numbers"),
    "bools": (lambda t: is_list_like(t) and compatible(elem(t), "bool"), "a list of true/false values"),
    "sortable": (lambda t: is_list_like(t) and (compatible(elem(t), "int") or compatible(elem(t), "text")),
                 "a list of numbers or of texts"),
    "text": (lambda t: compatible(t, "text"), "a text"),
    "texts": (lambda t: is_list_like(t) and t != "zone" and compatible(elem(t), "text"), "a list of texts"),
    "separator": (lambda t: compatible(t, "text"), "a separator text"),
    "player": (lambda t: compatible(t, "player"), "a player"),
    "int": (lambda t: compatible(t, "int"), "a number"),
    "component": (lambda t: t.startswith("comp:") or t in ("any", "none"), "a component"),
    "board": (lambda t: t in ("board", "any"), "a board"),
    "cell": (lambda t: compatible(t, "cell"), "a cell"),
    "cells": (lambda t: is_list_like(t) and compatible(elem(t), "cell"), "a list of cells"),
    "cellkind": (lambda t: compatible(t, "text"), "a cell kind such as \"octagon\""),
    "direction": (lambda t: compatible(t, "text"), "a direction such as \"n\""),
    "side": (lambda t: compatible(t, "text"), "a side such as \"n\""),
    "steps": (lambda t: compatible(t, "int"), "a number of steps"),
    "cellcount": (lambda t: compatible(t, "int"), "a number of cells"),
}


def legend_texts(e) -> list[str] | None:
    """A board's `legend`: a text, or a list of texts, written out (literals, joined by `+`): the
    key of its glyphs, one entry each. None: it is not."""
    from . import nodes as n

    def text(x):
        if isinstance(x, n.Lit) and type(x.value) is str:
            return x.value
        if isinstance(x, n.Binary) and x.op == "+":
            a, b = text(x.left), text(x.right)
            return a + b if a is not None and b is not None else None
        return None
    items = list(e.items) if isinstance(e, n.ListLit) else [e]
    out = [text(x) for x in items]
    return out if out and all(x is not None for x in out) else None


def show(t: str) -> str:
    if t.startswith("list:"):
        return f"list of {show(t[5:])}"
    if t.startswith("comp:"):
        return "component" if t == "comp:*" else t[5:]
    if is_union(t):
        return f"{show(union_comp(t))} or player"
    if t.startswith("enum:"):
        return t[5:]
    return {"zones": "zone per player or per cell (index it)"}.get(t, t)
