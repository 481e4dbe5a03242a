"""Writing Python source: one `Fn` per generated function (its lines, indentation, the
match state it reads), and `_lit`, the only way a value from the IR enters that source.
"""
from __future__ import annotations

from .constants import REBIND
import math


def _lit(v) -> str:
    """Python source for a JSON literal: repr of scalars only, lists and dicts rebuilt."""
    if v is None or isinstance(v, (bool, int, str)):
        return repr(v)
    if isinstance(v, float) and math.isfinite(v):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_lit(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_lit(str(k))}: {_lit(x)}" for k, x in v.items()) + "}"
    raise ValueError(f"not a literal value: {type(v).__name__}")


class Fn:
    """One generated function: its lines (each with the rule line it implements)."""

    RESOURCES = {"Z": "m.Z", "V": "m.V", "me": "m.me", "cur": "m.current", "NP": "m.players",
                 "LB": "m.labels", "OPT": "m.options", "PL": "m.PL", "OTH": "m.OTH", "W": "m.where"}

    def __init__(self, low, header: str, line=None):      # low: the Lowerer writing it
        self.low = low
        self.header = header
        self.repeated = False        # a def's body that may run once per element of a loop
        self.enumerator = False      # a step's enumerator: what depends on a parameter runs per binding
        self.body: list[tuple[str, object]] = []
        self.indent = 1
        self.uses: dict[str, str] = {}
        self.locals: dict[str, str] = {}          # rule local -> Python local (lets, fors, params)
        self.line = line
        self.counter = 0
        self.batch = False                        # a batch builder: `create` collects, does not add

    def emit(self, text: str) -> None:
        self.body.append(("    " * self.indent + text, self.line))

    def use(self, res: str) -> str:
        """A local the function reads once at its start: a state list (`Z3` = zone slot 3, `V2` =
        the list of a per-player/per-cell variable, `F0` = a field column) or a match value."""
        if res not in self.uses:
            if res[0] in "FZV" and res[1:].isdigit():
                self.uses[res] = f"m.{res[0]}[{int(res[1:])}]"
            else:
                self.uses[res] = self.RESOURCES[res]
        return res

    def new(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def local(self, name: str) -> str:
        if name not in self.locals:
            self.locals[name] = f"v{len(self.locals)}"
        return self.locals[name]

    def lines(self) -> list[tuple[str, object]]:
        out = [(self.header, self.line)]
        out += [(f"    {k} = {v}", self.line) for k, v in self.uses.items()]
        comps = [(k, v) for k, v in self.uses.items() if k == "LB" or (k[0] == "F" and k[1:].isdigit())]
        for text, line in self.body or [("    pass", self.line)]:
            if text.strip() == REBIND:
                # after a create: the columns may be new lists (a clone's are copied on write)
                indent = text[:len(text) - len(text.lstrip())]
                out += [(f"{indent}{k} = {v}", line) for k, v in comps] or [(f"{indent}pass", line)]
            else:
                out.append((text, line))
        return out

