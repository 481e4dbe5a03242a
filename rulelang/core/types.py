"""Value types, and the one check of whether a value has one.

The IR writes a type as a string: `int`, `bool`, `text`, `player`, `cell`, `enum:E`, `comp:K`
(`comp:*` for any kind), `list:T`, or `any`. Restoring a position (`Match.from_state`), the deep
lint's check of every position it reaches, and the YAML content loader all ask the same question
— does this value fit this type in this match? — and all answer it here, so they cannot disagree.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .limits import INT_LIMIT, JSON_DEPTH_LIMIT

SCALARS = ("int", "bool", "text", "player", "cell")


@dataclass(frozen=True)
class Context:
    """What a value is checked against: a match's seats, board, components and enums.
    A None count means "not known here" (the YAML loader has no match): ids are then not checked."""
    enums: dict = field(default_factory=dict)       # enum name -> its value names
    players: int | None = None
    cells: int | None = None
    kinds: list | None = None                       # component id -> kind name


@dataclass(frozen=True)
class ValueType:
    """A parsed type string."""
    base: str                  # int bool text player cell enum comp list any
    arg: str | None = None     # enum name, kind name ("*" for any), or None
    elem: "ValueType | None" = None

    @classmethod
    def parse(cls, text: str) -> "ValueType":
        if text.startswith("list:"):
            return cls("list", elem=cls.parse(text[5:]))
        if text.startswith(("enum:", "comp:")):
            return cls(text[:4], text[5:])
        return cls(text if text in SCALARS else "any")

    def __str__(self) -> str:
        if self.base == "list":
            return f"list:{self.elem}"
        return f"{self.base}:{self.arg}" if self.arg is not None else self.base

    def describe(self) -> str:
        """How a person would name the type in a message."""
        if self.base == "list":
            assert self.elem is not None                # (a list type always has its element type)
            return f"list of {self.elem.describe()}"
        if self.base == "enum":
            return f"{self.arg} value"
        if self.base == "comp":
            return "component" if self.arg == "*" else f"{self.arg} component"
        return {"int": "number", "text": "text", "any": "value"}.get(self.base, self.base)

    def with_article(self) -> str:
        """describe() as a message says it: "holds 'x', which is not a number" (or "not text")."""
        text = self.describe()
        if self.base == "text":
            return text
        return ("an " if text[0] in "aeiouAEIOU" else "a ") + text

    def fits(self, value, ctx: Context, _depth: int = 0) -> bool:
        """Does `value` have this type in `ctx`? `none` fits every type but int and bool."""
        if value is None:
            return self.base not in ("int", "bool")
        base = self.base
        if base == "int":
            return type(value) is int and -INT_LIMIT <= value <= INT_LIMIT
        if base == "bool":
            return type(value) is bool
        if base == "text":
            return isinstance(value, str)
        if base == "enum":
            return isinstance(value, str) and value in ctx.enums.get(self.arg, ())
        if base == "player":
            return type(value) is int and value >= 0 and (ctx.players is None or value < ctx.players)
        if base == "cell":
            return type(value) is int and value >= 0 and (ctx.cells is None or value < ctx.cells)
        if base == "comp":
            if type(value) is not int or value < 0:
                return False
            if ctx.kinds is None:
                return True
            return value < len(ctx.kinds) and self.arg in ("*", ctx.kinds[value])
        if base == "list":
            elem = self.elem
            assert elem is not None
            return isinstance(value, list) and _depth < JSON_DEPTH_LIMIT and all(
                elem.fits(v, ctx, _depth + 1) for v in value)
        return plain_data(value)


def plain_data(value, depth: int = 0) -> bool:
    """JSON-like data a rule can hold in an `any` value: scalars and lists, not nested without end."""
    if value is None or type(value) in (bool, int, str):
        return type(value) is not int or -INT_LIMIT <= value <= INT_LIMIT
    if isinstance(value, list) and depth < JSON_DEPTH_LIMIT:
        return all(plain_data(v, depth + 1) for v in value)
    return False
