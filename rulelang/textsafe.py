"""Text from rule files and saves, made safe to print on a terminal.

A label, an action text or a game name is written by whoever wrote the rule file (or the save),
and a terminal obeys what it is sent: an ESC starts a command (move the cursor, recolour, set the
window title, in some terminals far worse), a carriage return overwrites what the line said, and
bidi overrides reorder what the reader sees. So every such character is shown as a visible escape
(`\\u001b`) instead. The escape is JSON's own, so JSON text stays valid JSON meaning the same.
"""
from __future__ import annotations

import re

# C0 controls, DEL and C1 controls; the bidi marks, embeddings, overrides and isolates; line and
# paragraph separators; and lone surrogates (which cannot even be encoded to write them).
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_ONE_LINE = re.compile(f"[\t\n{_UNSAFE}]")
_MULTILINE = re.compile(f"[{_UNSAFE}]")          # keeps the line breaks (and tabs) of text we laid out


def _escape(found: re.Match) -> str:
    return f"\\u{ord(found.group()):04x}"


def printable(text, multiline: bool = False) -> str:
    """`text` with every control or reordering character replaced by a visible `\\uXXXX` escape.

    One-line text (a label, an action, a name, an error message) loses its line breaks too, so a
    message stays one line; `multiline` keeps \\n and \\t, for text whose lines we laid out ourselves.
    """
    text = str(text)
    return (_MULTILINE if multiline else _ONE_LINE).sub(_escape, text)
