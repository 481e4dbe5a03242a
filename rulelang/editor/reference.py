"""The docs of builtins and keywords an editor shows on hover and completion, read from
docs/language.md and the builtins' own records (rulelang/ir/spec.py)."""
from __future__ import annotations

import functools
import re
from pathlib import Path

from ..ir.spec import BUILTIN_FUNCTIONS


WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


# ---- docs of builtins and keywords ---------------------------------------------------------------
def doc_tables(markdown: str) -> dict[str, dict[str, tuple[str, str]]]:
    """The reference's tables of declarations, statements and functions (docs/language.md), as
    {"declaration"|"statement"|"function": {name: (forms, meaning)}}: a row documents every name its
    first cell writes in backticks (`size(z)`, `count(list)` -> size, count)."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    table = None
    for line in markdown.splitlines():
        if not line.startswith("|"):
            table = None
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) < 2 or set(cells[0]) <= set("-: "):
            continue
        if table is None:
            table = out.setdefault(cells[0], {}) if cells[0] in ("declaration", "statement", "function") else {}
            continue
        forms = re.findall(r"`([^`]*)`", cells[0])
        for form in forms:
            m = WORD.match(form)
            if m and m.group() not in table:
                table[m.group()] = (", ".join(f for f in forms if WORD.match(f) and WORD.match(f).group() == m.group()),
                                    cells[1])
    return out


# How each builtin is written and what it gives, from its one description (ir/spec.py), for an
# installed package, which has no docs/; a source checkout reads docs/language.md itself (`builtin_docs`).
BUILTIN_DOCS: dict[str, tuple[str, str]] = {
    **{name: b.doc for name, b in BUILTIN_FUNCTIONS.items()},
    "can": ("can HOOK(args) of c", "c's card has an ability for the hook that applies now"),
}
VALUE_DOCS: dict[str, str] = {
    "me": "the player deciding now; in flow blocks, whose turn it is",
    "current": "whose turn it is",
    "players": "every seat, in seat order",
    "others": "every other seat, clockwise after `me`",
    "player_count": "the number of seats",
    "turn_count": "turns started so far (the first turn is 1)",
    "round_count": "rounds started so far: a round is one turn of every player still in, in turn order",
    "turn_order": "the seats in the order turns go round in (set it: `turn_order = L`)",
    "remaining": "the players not eliminated, in turn order",
    "source": "the card whose ability is running, or `none`",
    "self": "inside a card's ability: that card",
}


# words that are neither keywords nor builtins, but that a reader may wonder about
WORD_DOCS: dict[str, str] = {
    "int": "type: a whole number",
    "bool": "type: `true` or `false`",
    "text": 'type: a text (`"…"`)',
    "player": "type: a seat (0, 1, … shown as P1, P2 …)",
    "cell": "type: a cell of the board",
    "pile": "zone shape: ordered, its last item is the top",
    "set": "zone shape: not ordered",
    "public": "visibility: everyone sees it",
    "hidden": "visibility: only its size is seen (a variable: no one sees it)",
    "owner": "visibility: its owner sees it, others see its size",
    "others": "visibility: every player but its owner sees it; its owner sees its size",
    "uncounted": "zone modifier: who cannot see what it holds does not see how many either",
    "internal": "bookkeeping: in no view at all",
    "capacity": "zone modifier: at most N components",
    "play": "zone modifier: cards here are in play (their abilities apply)",
    "diagonal": "board modifier: diagonal neighbours and directions too",
    "draw": "`finish draw`: the game ends in a draw; `board …, draw DEF`: the def that draws a cell",
    "squares": "board shape: squares(W, H)",
    "hexes": "board shape: hexes(W, H)",
    "octagons": "board shape: octagons(W, H)",
    "rhombus": "board shape: rhombus(W, H), hexagons in a rhombus (each row half a cell right of the one below)",
    "hexagon": "board shape: hexagon(N), hexagons filling a hexagon of side N",
    "cell_width": "board modifier: how many characters each cell's drawing takes (1 to 8)",
    "top": "`top(z)`: the top component; zone modifier `top`: a public pile of which only the top is seen",
    "stuck": "event: the deciding player has no legal action (`on stuck { … }` must end the game, the turn or go to a step)",
    "turn_start": "event: a turn begins (`me` is whose turn it is)",
    "turn_end": "event: a turn ends",
    "round_start": "event: a round begins (every player still in has one turn a round, in turn order)",
    "round_end": "event: a round ends",
}


@functools.lru_cache(maxsize=1)
def reference() -> dict[str, dict[str, tuple[str, str]]]:
    """The docs' tables from docs/language.md when this is a source checkout; else the built-in copy."""
    tables: dict[str, dict[str, tuple[str, str]]] = {}
    try:
        root = Path(__file__).resolve().parents[2]          # a checkout: docs/ beside grammar/
        path = root / "docs" / "language.md"
        if (root / "grammar" / "rulelang.lark").is_file() and path.is_file() and path.stat().st_size < 2_000_000:
            tables = doc_tables(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        tables = {}
    functions = dict(BUILTIN_DOCS)
    functions.update({k: v for k, v in tables.get("function", {}).items() if v[1]})
    tables["function"] = functions
    return tables


@functools.lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every word the grammar spells out as a literal (`"game"`, `"zone"` ...): the reserved words."""
    from ..language.parser import grammar_text
    grammar = re.sub(r"//[^\n]*", "", grammar_text())                 # not the words of comments
    return tuple(sorted(set(re.findall(r'"([A-Za-z_][A-Za-z_0-9]*)"', grammar))))


def builtin_names() -> tuple[dict, dict]:
    """The builtin functions and values, as the checker knows them."""
    from ..ir.spec import BUILTIN_FUNCTIONS, BUILTIN_VALUES
    return BUILTIN_FUNCTIONS, BUILTIN_VALUES


