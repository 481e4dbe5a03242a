"""What the checker learns of a rule file, for the compiler: every declaration's symbol, the type
of every expression, what every name refers to, and the diagnostics."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import nodes as n
from ..core.errors import Diagnostic


@dataclass
class Symbol:
    kind: str                  # enum, enumval, kind, table, zone, var, def, proc, step, option
    decl: object
    type: str = "any"


@dataclass
class Checked:
    game: n.Game
    symbols: dict[str, Symbol]
    types: dict[int, str] = field(default_factory=dict)       # id(expr node) -> type
    refs: dict[int, tuple] = field(default_factory=dict)      # id(Name node) -> (kind, name)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    contents: dict[int, object] = field(default_factory=dict)  # id(CreateFrom) -> content.Content
    sources: dict[str, str] = field(default_factory=dict)      # content files' text, for caret lines
    abilities: list = field(default_factory=list)              # desugar.AbilityInfo of cards and triggers
    cards: list = field(default_factory=list)                  # the `card` declarations, in order
    # unions ("a creature or a player", typerules.UNION): where a player value enters a union, by
    # id(expr) -> "one" (a player) or "list" (each player of a list); and the ids of the names read
    # where an `if … in players` has narrowed a union to a player. The compiler writes both as -1 - x.
    tags: dict[int, str] = field(default_factory=dict)
    untags: set[int] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)
