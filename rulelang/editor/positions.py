"""Positions in a document two ways: lines as the parser numbers them (diagnostics) and as LSP
does, with columns in the client's units."""
from __future__ import annotations

import bisect
import re

from ..core.errors import Span


_PARSER_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")   # lines as diagnostics count them
_LSP_BREAK = re.compile("\r\n|\r|\n")                                    # lines as LSP counts them


# ---- positions ---------------------------------------------------------------------------------
class Text:
    """A text's lines two ways: as the parser numbers them (str.splitlines) and as LSP does (only
    \\n, \\r\\n, \\r end a line), with columns in the client's units (UTF-16 unless agreed otherwise)."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _PARSER_BREAK.finditer(text)]
        self.lsp_starts = [0] + [m.end() for m in _LSP_BREAK.finditer(text)]

    def offset(self, line: int, column: int) -> int:
        """The offset of a 1-based (line, column) of a Span."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return min(start + max(column, 1) - 1, max(start, end))

    def position(self, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
        """An offset as an LSP (line, character), both 0-based."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.lsp_starts, offset) - 1
        return line, units(self.text[self.lsp_starts[line]:offset], encoding)

    def at(self, line: int, character: int, encoding: str = "utf-16") -> int:
        """An LSP (line, character) as an offset (clamped to the line)."""
        if line < 0:
            return 0
        if line >= len(self.lsp_starts):
            return len(self.text)
        start = self.lsp_starts[line]
        end = self.lsp_starts[line + 1] if line + 1 < len(self.lsp_starts) else len(self.text)
        row = self.text[start:end].rstrip("\r\n")
        count = 0
        for i, ch in enumerate(row):
            if count >= character:
                return start + i
            count += units(ch, encoding)
        return start + len(row)

    def range(self, span: Span, encoding: str = "utf-16") -> tuple[tuple[int, int], tuple[int, int]]:
        """A Span as an LSP range; a span without an end covers one character."""
        start = self.offset(span.line, span.column)
        if span.end_line and (span.end_line, span.end_column) > (span.line, span.column):
            end = self.offset(span.end_line, span.end_column)
        else:
            end = min(start + 1, len(self.text))
        return self.position(start, encoding), self.position(max(start, end), encoding)


def units(text: str, encoding: str = "utf-16") -> int:
    """How long a text is in the position units client and server agreed on."""
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


