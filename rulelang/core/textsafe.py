"""Text from rule files and saves, made safe to print on a terminal.

A label, an action text or a game name is written by whoever wrote the rule file (or the save),
and a terminal obeys what it is sent: an ESC starts a command (move the cursor, recolour, set the
window title, in some terminals far worse), a carriage return overwrites what the line said, and
bidi overrides reorder what the reader sees. So every such character is shown as a visible escape
(`\\u001b`) instead. The escape is JSON's own, so JSON text stays valid JSON meaning the same.

A terminal whose encoding cannot show a character (`♥` under ISO-8859-1 or ASCII) gets an ASCII
stand-in instead (`fit`, and the `rulelang-fallback` error handler the command line installs on
its output streams), never a UnicodeEncodeError.
"""
from __future__ import annotations

import codecs
import re
import unicodedata

# C0 controls, DEL and C1 controls; the bidi marks, embeddings, overrides and isolates; line and
# paragraph separators; lone surrogates (which cannot even be encoded to write them); and the
# characters that show nothing at all — zero width space, word joiner, BOM, tags — with which two
# texts that differ look alike (a fuzz trial; the joiners U+200C/D stay: scripts and emoji need them),
# and the other blank ones: soft hyphen, grapheme joiner, the Hangul and Mongolian fillers, Khmer's
# invisible vowels, invisible operators, the deprecated format marks, interlinear annotations (an
# attacker's trial listed "concede" twice, one of them with U+2063 agreeing a draw).
_UNSAFE = ("\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e"
           "\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\uffa0\ufff9-\ufffb"
           "\ud800-\udfff\ufeff\U000e0000-\U000e007f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a")
# A variation selector after a plain letter shows nothing either (`concede` + U+FE00 read `concede`: a
# review); after an emoji or an ideograph it chooses how that is drawn, and stays (so does a keycap's,
# `1` U+FE0F U+20E3).
_SELECTOR = "(?<=[\x00-\x7f])[\ufe00-\ufe0f\U000e0100-\U000e01ef](?!\u20e3)"
_ONE_LINE = re.compile(f"[\t\n{_UNSAFE}]|{_SELECTOR}")
_MULTILINE = re.compile(f"[{_UNSAFE}]|{_SELECTOR}")     # keeps the line breaks (and tabs) of text we laid out

# ASCII stand-ins for the glyphs games and the REPL use, where the terminal cannot show them.
GLYPHS = {
    "♥": "H", "♦": "D", "♣": "C", "♠": "S", "♡": "H", "♢": "D", "♧": "C", "♤": "S",
    "·": ".", "•": "*", "▶": ">", "►": ">", "◀": "<", "→": "->", "←": "<-", "↑": "^", "↓": "v",
    "—": "-", "–": "-", "…": "...", "×": "x", "≤": "<=", "≥": ">=", "≠": "!=", "±": "+/-",
    "“": '"', "”": '"', "‘": "'", "’": "'", "«": '"', "»": '"', "✓": "v", "✗": "x",
    "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "ß": "ss",
    "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "ᚱ": "R", "◆": "R", "█": "#", "░": "#", "▒": "#", "│": "|", "─": "-",
}
FALLBACK = "rulelang-fallback"                   # the codec error handler's name


def _escape(found: re.Match) -> str:
    code = ord(found.group())
    if code > 0xFFFF:                            # (as JSON writes it: a pair of surrogates)
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def printable(text, multiline: bool = False) -> str:
    """`text` with every control or reordering character replaced by a visible `\\uXXXX` escape.

    One-line text (a label, an action, a name, an error message) loses its line breaks too, so a
    message stays one line; `multiline` keeps \\n and \\t, for text whose lines we laid out ourselves.
    """
    text = str(text)
    return (_MULTILINE if multiline else _ONE_LINE).sub(_escape, text)


def stand_in(ch: str) -> str:
    """An ASCII stand-in for one character: from GLYPHS, else the letter without its accents, else `?`."""
    if ch.isascii():
        return ch
    found = GLYPHS.get(ch)
    if found is not None:
        return found
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return plain if plain and plain.isascii() else "?"


def fit(text: str, encoding: str | None) -> str:
    """`text` as the terminal of this encoding can show it: each character it cannot encode
    replaced by its ASCII stand-in. Unchanged for UTF-8 (or an unknown encoding)."""
    if not encoding:
        return text
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:
        return text
    out = []
    for ch in text:
        try:
            ch.encode(encoding)
            out.append(ch)
        except UnicodeEncodeError:
            out.append(stand_in(ch))
    return "".join(out)


def _fallback(error: UnicodeError):
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(stand_in(ch) for ch in error.object[error.start:error.end]), error.end


codecs.register_error(FALLBACK, _fallback)


def not_utf8(path, size: int) -> str:
    """Where a file that is not UTF-8 text stops being it, for a person: `line:col: …` (a
    decoder's own words name an offset in its buffer, not a place in the file). Reads at most
    `size` bytes."""
    try:
        with open(path, "rb") as f:
            raw = f.read(size)
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        col = len(raw[raw.rfind(b"\n", 0, err.start) + 1:err.start].decode("utf-8", "replace")) + 1
        return f"{line}:{col}: not UTF-8 text (byte 0x{raw[err.start]:02x}): rule files and IR are UTF-8 text"
    except OSError:
        pass
    return " not UTF-8 text: rule files and IR are UTF-8 text"


def small_number(text: str) -> int | None:
    """The number `text` is, when it is a plain one (ASCII digits, fewer than 12): `str.isdigit` is
    true of `²` and `⑧`, which `int` refuses, and of 5,000 nines, which it refuses too — `help ²` at
    the terminal ended a game (a fuzz trial)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None
