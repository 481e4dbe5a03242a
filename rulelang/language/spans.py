"""Positions in a rule file (spans, with the odd line breaks Python and editors count
differently) and the literals of Lark's tree (numbers, strings), for the parser's passes.
"""
from __future__ import annotations

import bisect
import re

from lark import Token

from ..core.errors import Span
from ..core.limits import INT_LIMIT


_ODD_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK = re.compile("\r\n|[\n" + _ODD_BREAKS + "]")


class _Where:
    """Lark ends a line at a newline only; a diagnostic's caret line is found with str.splitlines,
    which also ends one at a carriage return, a form feed, U+2028 and a few more. For a text with
    such a character (compiled from a string, not read from a file), Lark's (line, column) is
    turned into the one splitlines sees."""

    def __init__(self, source: str):
        self.odd = any(ch in source for ch in _ODD_BREAKS)
        if self.odd:
            self.newlines = [0] + [m.end() for m in re.finditer("\n", source)]
            self.starts = [0] + [m.end() for m in _BREAK.finditer(source)]

    def __call__(self, line: int, column: int) -> tuple[int, int]:
        if not self.odd or not line or line > len(self.newlines):
            return line, column
        offset = self.newlines[line - 1] + column - 1
        i = bisect.bisect_right(self.starts, offset)
        return i, offset - self.starts[i - 1] + 1


_PLAIN = _Where("")


def _make_span(file: str, where: _Where, line: int, column: int, end_line: int, end_column: int) -> Span:
    line, column = where(line, column)
    end_line, end_column = where(end_line, end_column)
    return Span(file, line, column, end_line, end_column)


def _span(file: str, meta, where: _Where = _PLAIN) -> Span:
    if getattr(meta, "empty", True) and not hasattr(meta, "line"):
        return Span(file, 0, 0)
    return _make_span(file, where, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(file: str, tok: Token, where: _Where = _PLAIN) -> Span:
    return _make_span(file, where, tok.line, tok.column, tok.end_line or tok.line,
                      tok.end_column or tok.column + len(tok))


def _int(tok: Token) -> int:
    """A number literal; one of more digits than any number a rule may hold stands as INT_LIMIT + 1,
    which the checker refuses (E203), without making Python read thousands of digits."""
    return int(tok) if len(tok) <= 20 else INT_LIMIT + 1


def _unescape(raw: str) -> str:
    body = raw[1:-1]
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _clauses(parts) -> tuple:
    """The `where C` and `from Z, …` clauses of an ability, in either order."""
    where = next((x[1] for x in parts if isinstance(x, tuple) and x[:1] == ("where",)), None)
    zones = next((x[1] for x in parts if isinstance(x, tuple) and x[:1] == ("zones",)), None)
    return where, zones
