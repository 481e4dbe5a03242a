"""`rulelang lsp`: a language server for editors (diagnostics as you type, hover, go to definition,
completion), speaking LSP over stdio through pygls.

pygls is an optional extra (`rulelang[lsp]`): it is imported only by `serve`, so everything else here
(the analysis of a document, the answers to hover, definition and completion) is plain Python that
tests call directly. A document comes from an editor and may be anything: it goes through the same
parser and checker as `rulelang lint` (with their limits, rulelang/core/limits.py), nothing in it is ever
run, and every handler answers "nothing" rather than let an exception reach the client.
"""
from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..language import nodes as n
from ..core.errors import Diagnostic, RuleError, Span
from ..core.limits import SOURCE_LIMIT
from ..core.textsafe import printable
from ..ir.spec import BUILTIN_FUNCTIONS

DEBOUNCE = 0.15                 # seconds of quiet typing before a changed document is checked again
WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
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


# ---- declarations --------------------------------------------------------------------------------
@dataclass
class Decl:
    """A declared name: what it is, how it reads, its `about` words, and where its name is."""
    name: str
    kind: str                  # def, proc, zone, var, kind, enum, enum value, step, action, field ...
    signature: str
    span: Span                 # the name itself
    about: str = ""
    owner: str = ""            # the enum of a value, the kind of a field, the step of an action


_DECL_WORD = {n.OptionDecl: "option", n.EnumDecl: "enum", n.TableDecl: "table", n.KindDecl: "kind",
              n.ZoneDecl: "zone", n.BoardDecl: "board", n.VarDecl: "var", n.DefDecl: "def",
              n.ProcDecl: "proc", n.StepDecl: "step"}


class Index:
    """The declarations of a parsed game (its included files too) by name, with their sources."""

    def __init__(self, game: n.Game, sources: dict[str, str]):
        self.sources = dict(sources)
        self.sources.update(dict(game.sources))
        self.texts: dict[str, Text] = {}
        self.decls: dict[str, list[Decl]] = {}
        self.fields: dict[str, list[Decl]] = {}
        self.cards: dict[str, list[Decl]] = {}            # by the card's name, a string
        self.tops: list[n.Node] = []
        about: dict[tuple, list[str]] = {}
        for d in game.decls:
            if isinstance(d, n.AboutDecl):
                about.setdefault((d.what, d.name), []).append(d.text)
        self.game_about = "\n\n".join(about.get(("game", None), []))
        for d in game.decls:
            self.tops.append(d)
            try:
                self._add(d, about)
            except (ValueError, IndexError, AttributeError, TypeError):
                continue                    # a declaration we cannot place is just not offered

    def text(self, file: str) -> Text | None:
        if file not in self.texts and file in self.sources:
            self.texts[file] = Text(self.sources[file])
        return self.texts.get(file)

    def name_span(self, span: Span, name: str, after: str = "") -> Span:
        """Where `name` is written in a declaration (nodes keep the whole declaration's span): its
        first whole-word occurrence from the start (after the word `after`, if given)."""
        text = self.text(span.file)
        if text is None or not span.line:
            return span
        start = text.offset(span.line, span.column)
        end = text.offset(span.end_line, span.end_column) if span.end_line else len(text.text)
        chunk = text.text[start:max(end, start)]
        skip = 0
        if after:
            m = re.search(rf"(?<![A-Za-z_0-9]){re.escape(after)}(?![A-Za-z_0-9])", chunk)
            skip = m.end() if m else 0
        m = re.compile(rf"(?<![A-Za-z_0-9]){re.escape(name)}(?![A-Za-z_0-9])").search(chunk, skip)
        if not m:
            return span
        a, b = start + m.start(), start + m.end()
        line = bisect.bisect_right(text.starts, a)
        return Span(span.file, line, a - text.starts[line - 1] + 1, line, b - text.starts[line - 1] + 1)

    def source_of(self, node: n.Node) -> str:
        """A node's own text, on one line and shortened (for signatures)."""
        text = self.text(node.span.file)
        if text is None or not node.span.line or not node.span.end_line:
            return ""
        chunk = text.text[text.offset(node.span.line, node.span.column):
                          text.offset(node.span.end_line, node.span.end_column)]
        chunk = " ".join(re.sub(r"#[^\n]*", "", chunk).split())
        return chunk if len(chunk) <= 120 else chunk[:117] + "..."

    def add(self, decl: Decl, table: dict | None = None) -> None:
        (self.decls if table is None else table).setdefault(decl.name, []).append(decl)

    def _add(self, d, about) -> None:
        word = _DECL_WORD.get(type(d))
        if isinstance(d, n.StepDecl):
            self.add(Decl(d.name, "step", f"step {d.name}" + (" (in the turn)" if d.in_turn else ""),
                          self.name_span(d.span, d.name, "step"), "\n\n".join(about.get(("step", d.name), []))))
            for a in d.actions:
                self._action(a, about, d.name)
        elif isinstance(d, n.AnytimeDecl):
            self._action(d.action, about, "anytime")
        elif isinstance(d, n.SignatureDecl):
            params = ", ".join(self.source_of(p) or p.name for p in d.params)
            self.add(Decl(d.name, d.what, f"{d.what} {d.name}({params})", self.name_span(d.span, d.name, d.what)))
        elif isinstance(d, n.CardDecl):
            fields = ", ".join(self.source_of(f) or f.name for f in d.fields)
            self.add(Decl(d.name, "card", f'card {d.kind} "{d.name}"' + (f" {{ {fields} }}" if fields else ""),
                          self.name_span(d.span, f'"{d.name}"'), owner=d.kind), self.cards)
        elif isinstance(d, (n.DefDecl, n.ProcDecl)):
            params = "" if d.params is None else "(" + ", ".join(self.source_of(p) or p.name for p in d.params) + ")"
            show = "show " if isinstance(d, n.DefDecl) and d.show else ""
            self.add(Decl(d.name, word, f"{show}{word} {d.name}{params}", self.name_span(d.span, d.name, word)))
        elif isinstance(d, n.EnumDecl):
            values = ", ".join(i.name for i in d.items)
            self.add(Decl(d.name, "enum", f"enum {d.name} {{ {values} }}", self.name_span(d.span, d.name, "enum")))
            for item in d.items:
                shown = f' "{item.text}"' if item.text else ""
                self.add(Decl(item.name, "enum value", f"{item.name}{shown}: a value of enum {d.name}",
                              self.name_span(item.span, item.name), owner=d.name))
        elif isinstance(d, n.KindDecl):
            fields = "; ".join(self.source_of(f) or f.name for f in d.fields)
            self.add(Decl(d.name, "kind", f"kind {d.name} {{ {fields} }}", self.name_span(d.span, d.name, "kind")))
            for f in d.fields:
                self.add(Decl(f.name, "field", f"{f.name}: {_type(f.type)} (a field of kind {d.name})",
                              self.name_span(f.span, f.name), owner=d.name), self.fields)
        elif word:
            what = {"zone": "zone", "option": "option"}.get(word, "")
            self.add(Decl(d.name, word, self.source_of(d) or f"{word} {d.name}", self.name_span(d.span, d.name, word),
                          "\n\n".join(about.get((what, d.name), [])) if what else ""))

    def _action(self, a: n.ActionDecl, about, step: str) -> None:
        params = ", ".join(self.source_of(p) or p.name for p in a.params)
        self.add(Decl(a.name, "action", f"action {a.name}({params})" if params else f"action {a.name}",
                      self.name_span(a.span, a.name, "action"), "\n\n".join(about.get(("action", a.name), [])),
                      owner=step))


def _type(t) -> str:
    if t is None:
        return "any"
    return f"list[{_type(t.elem)}]" if t.elem is not None else t.name


# ---- one document --------------------------------------------------------------------------------
@dataclass
class Analysis:
    """What the server knows of one document: its diagnostics and, when it parses, its declarations."""
    source: str
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    index: Index | None = None


def analyze(source: str, path: str, opened: dict[str, str] | None = None) -> Analysis:
    """Parse and check a document as `rulelang lint` does (includes found beside `path`); never raises.
    A file of declarations only (one that a game includes) is checked as part of that game."""
    from ..language.checker import check
    from ..language.parser import parse
    out = Analysis(source, path)
    try:
        try:
            tree = parse(source, path)
        except RuleError as err:
            out.diagnostics = list(err.diagnostics)
            if is_fragment(source):
                return analyze_fragment(source, path, opened or {}, out)
            return out
        out.index = Index(tree, {path: source})
        out.diagnostics = list(check(tree).diagnostics)
    except RecursionError:
        out.diagnostics.append(Diagnostic("E000", "the document is nested too deeply to check", Span(path, 1, 1)))
    except Exception as err:            # a bug of ours: one diagnostic, and the server goes on
        out.diagnostics.append(Diagnostic("E000", printable(f"internal error: {type(err).__name__}: {err} "
                                                            "(please report this)"), Span(path, 1, 1)))
    return out


FRAGMENT_PREFIX = 'game "" { '
INCLUDER_FOLDERS = 3          # the folder of an included file and its parents, searched for the game
INCLUDER_FILES = 100          # rule files read per folder at most


def is_fragment(source: str) -> bool:
    """Declarations without `game "…" {`: a file meant to be included."""
    body = re.sub(r"#[^\n]*", "", source[:10_000]).lstrip()
    return bool(body) and not re.match(r"game(?![A-Za-z_0-9])", body)


def analyze_fragment(source: str, path: str, opened: dict[str, str], out: Analysis) -> Analysis:
    """An included file: its syntax checked on its own (inside an empty game, on its first line so
    line numbers hold), then the game that includes it (a rule file in its folder or a parent's)
    checked, keeping what is said about this file. The game reads this file from disk: those
    diagnostics follow the file as saved."""
    from ..language.parser import parse
    wrapped = FRAGMENT_PREFIX + source + "\n}"
    try:
        parse(wrapped, path)
    except RuleError as err:
        out.diagnostics = [_unwrap(d, path, source) for d in err.diagnostics]
        return out
    out.diagnostics = []
    game = find_includer(path, opened)
    if game is None:
        return out
    main = analyze(opened.get(game) or read_file(game) or "", game)
    me = _same_file(path)
    out.diagnostics = [Diagnostic(d.code, d.message, Span(path, d.span.line, d.span.column, d.span.end_line,
                                                          d.span.end_column), d.severity, d.suggestion)
                       for d in main.diagnostics if d.span is not None and _same_file(d.span.file) == me]
    if main.index is not None:
        out.index = main.index
        out.index.sources[path] = out.index.sources.get(path, source)
    return out


def _unwrap(d: Diagnostic, path: str, source: str) -> Diagnostic:
    """A diagnostic of the wrapped text, placed in the fragment itself."""
    s = d.span
    if s is None or s.file != path:
        return d
    shift = len(FRAGMENT_PREFIX)
    lines = source.count("\n") + 1

    def place(line: int, column: int) -> tuple[int, int]:
        if line == 1:
            return 1, max(1, column - shift)
        return min(line, lines), column
    line, column = place(s.line, s.column)
    end_line, end_column = place(s.end_line, s.end_column) if s.end_line else (0, 0)
    return Diagnostic(d.code, d.message, Span(s.file, line, column, end_line, end_column), d.severity, d.suggestion)


def _same_file(file: str) -> str:
    try:
        return str(Path(file).resolve())
    except (OSError, ValueError):
        return file


def find_includer(path: str, opened: dict[str, str]) -> str | None:
    """The rule file that includes `path`: the first in its folder or up to a few parents whose text
    names it in an `include` (the path written relative to that file)."""
    try:
        target = Path(path).resolve()
        folder = target.parent
    except (OSError, ValueError):
        return None
    for _ in range(INCLUDER_FOLDERS):
        try:
            candidates = sorted(p for p in folder.glob("*.rules") if p.resolve() != target)[:INCLUDER_FILES]
        except OSError:
            candidates = []
        rel = target.relative_to(folder).as_posix()
        for candidate in candidates:
            text = opened.get(str(candidate))
            if text is None:
                text = read_file(str(candidate))
            if text and re.search(r'include\s+"(?:\./)?' + re.escape(rel) + '"', text) and not is_fragment(text):
                return str(candidate)
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def lsp_diagnostics(analysis: Analysis, encoding: str = "utf-16") -> list[dict]:
    """The diagnostics as LSP Diagnostic objects (plain dicts). One in another file (an included
    file, a YAML content file) is shown on the line of this document that names that file."""
    text = Text(analysis.source)
    others: dict[str, Text | None] = {}      # each other file read and split once, not per diagnostic
    mentions: dict[str, tuple] = {}
    out = []
    for d in analysis.diagnostics:
        message = d.message + (f" (did you mean `{d.suggestion}`?)" if d.suggestion else "")
        related = []
        if d.span is None or not d.span.line:
            rng = ((0, 0), (0, 0))
        elif d.span.file == analysis.path:
            rng = text.range(d.span, encoding)
        else:
            if d.span.file not in mentions:
                mentions[d.span.file] = _mention(text, d.span.file, encoding)
                read = _read(d.span.file, analysis)
                others[d.span.file] = None if read is None else Text(read)
            rng = mentions[d.span.file]
            message = f"{Path(d.span.file).name}:{d.span.line}:{d.span.column}: {message}"
            other = others[d.span.file]
            if other is not None:
                (a, b), (c, e) = other.range(d.span, encoding)
                related.append({"location": {"uri": Path(d.span.file).resolve().as_uri(),
                                             "range": _range(((a, b), (c, e)))},
                                "message": d.message})
        item = {"range": _range(rng), "severity": 1 if d.severity == "error" else 2, "code": d.code,
                "source": "rulelang", "message": message}
        if related:
            item["relatedInformation"] = related
        out.append(item)
    return out


def _mention(text: Text, file: str, encoding: str):
    """Where this document writes another file's name (an `include`, a `create ... from`)."""
    name = Path(file).name
    at = text.text.find(f'{name}"')
    if at < 0:
        return (0, 0), (0, 0)
    start = text.text.rfind('"', 0, at)
    start = start if start >= 0 else at
    return text.position(start, encoding), text.position(at + len(name) + 1, encoding)


def _read(file: str, analysis: Analysis) -> str | None:
    if analysis.index is not None and file in analysis.index.sources:
        return analysis.index.sources[file]
    return read_file(file)


def read_file(file: str) -> str | None:
    """A file's text, if it is a readable UTF-8 file within the size limit of a rule file."""
    try:
        if not Path(file).is_file():
            return None
        with open(file, encoding="utf-8") as f:
            text = f.read(SOURCE_LIMIT + 1)
        return text if len(text) <= SOURCE_LIMIT else None
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _range(rng) -> dict:
    (a, b), (c, d) = rng
    return {"start": {"line": a, "character": b}, "end": {"line": c, "character": d}}


# ---- what is under the cursor --------------------------------------------------------------------
@dataclass
class Cursor:
    word: str
    start: int                 # offsets of the word in the document
    end: int
    after_dot: bool            # `c.rank`: a field
    offset: int
    quoted: bool = False       # inside a string: `word` is its text (a card's name, perhaps)


def cursor(source: str, offset: int, whole: bool = True) -> Cursor | None:
    """The name at (or, for completion, just before) an offset; None inside a comment. Inside a
    string, the string's text (`quoted`)."""
    line_start = max(source.rfind("\n", 0, offset), source.rfind("\r", 0, offset)) + 1
    quoted = -1                                 # where the open string starts
    i = line_start
    while i < offset:                           # a string or a comment before the cursor on its line
        ch = source[i]
        if ch == "\\" and quoted >= 0:
            i += 2
            continue
        if ch == '"':
            quoted = i if quoted < 0 else -1
        elif ch == "#" and quoted < 0:
            return None
        i += 1
    if quoted >= 0:
        end = i
        while end < len(source) and source[end] not in '"\r\n':
            end += 2 if source[end] == "\\" else 1
        end = min(end, len(source))
        return Cursor(source[quoted + 1:end], quoted, min(end + 1, len(source)), False, offset, quoted=True)
    start = offset
    while start > line_start and (source[start - 1].isalnum() or source[start - 1] == "_") and source[start - 1].isascii():
        start -= 1
    end = offset
    if whole:
        while end < len(source) and (source[end].isalnum() or source[end] == "_") and source[end].isascii():
            end += 1
    word = source[start:end]
    if word and not WORD.fullmatch(word):
        return None
    before = source[line_start:start].rstrip(" \t")
    return Cursor(word, start, end, before.endswith("."), offset)


def _enclosing(index: Index, file: str, offset: int) -> n.Node | None:
    """The top-level declaration around an offset of `file`."""
    text = index.text(file)
    if text is None:
        return None
    for d in index.tops:
        s = d.span
        if s.file == file and s.line and s.end_line:
            if text.offset(s.line, s.column) <= offset < text.offset(s.end_line, s.end_column):
                return d
    return None


def locals_at(index: Index, file: str, offset: int) -> dict[str, Decl]:
    """The local names bound in the declaration around the cursor (parameters, `let`, `for`,
    `choose`, comprehension variables) before it: the nearest binding of each name wins."""
    top = _enclosing(index, file, offset)
    text = index.text(file)
    if top is None or text is None:
        return {}
    found: list[tuple[int, Decl]] = []

    def bind(name: str, span: Span, what: str, after: str = "", whole: bool = False) -> None:
        """`whole`: the name is bound in all of `span` (a comprehension's element comes before its `for`)."""
        at = index.name_span(span, name, after)
        pos = text.offset(at.line, at.column)
        inside = whole and text.offset(span.line, span.column) <= offset <= text.offset(span.end_line, span.end_column)
        if (pos <= offset or inside) and at.file == file:
            found.append((min(pos, offset), Decl(name, "local", f"{name}: {what}", at)))

    for x in n.walk(top):
        if isinstance(x, n.Param):
            bind(x.name, x.span, "a parameter" + (f" ({_type(x.type)})" if x.type else ""))
        elif isinstance(x, n.ActionParam):
            bind(x.name, x.span, "an action parameter" + (" (a subset)" if x.mode == "subset" else ""))
        elif isinstance(x, n.Let):
            bind(x.name, x.span, "a local (`let`)", "let")
        elif isinstance(x, n.For):
            bind(x.var, x.span, "a loop variable (`for`)", "for")
        elif isinstance(x, n.Choose):
            bind(x.var, x.span, "a choice (`choose`)", "choose")
        elif isinstance(x, n.Comprehension):
            bind(x.var, x.span, "a comprehension variable", "for", whole=True)
        elif isinstance(x, n.OnDecl) and x.params:
            for p in x.params:
                bind(p, x.span, "a parameter of the trigger", "(")
    found.sort(key=lambda f: f[0])
    return {d.name: d for _, d in found}


def resolve(analysis: Analysis, cur: Cursor) -> tuple[str, object] | None:
    """What a name means: ("local"|"field"|"decl", [Decl]), ("function"|"value"|"keyword", doc)."""
    word = cur.word
    index = analysis.index
    if not word:
        return None
    if cur.quoted:                               # `"King Rex"`: a card declared with that name
        cards = index.cards.get(word) if index is not None else None
        return ("decl", cards) if cards else None
    if index is not None:
        if cur.after_dot:
            cell = {"name": "text", "row": "int", "col": "int", "kind": "text"}
            if word in index.fields:
                return "field", index.fields[word]
            if word in cell:
                return "value", f"`{word}`: {cell[word]}, of a cell"
            return None
        local = locals_at(index, analysis.path, cur.start).get(word)
        if local is not None:
            return "local", [local]
        if word in index.decls:
            return "decl", index.decls[word]
    functions, values = builtin_names()
    ref = reference()
    after = analysis.source[cur.end:cur.end + 200].lstrip()[:1]
    keyword = ref.get("declaration", {}).get(word) or ref.get("statement", {}).get(word)
    if keyword and (after != "(" if word in functions else after.isdigit()):    # `step go {`, `players 2`
        return "keyword", f"```rulelang\n{keyword[0]}\n```\n{keyword[1]}"
    if word in functions or word in ref["function"]:
        forms, meaning = ref["function"].get(word, (word, ""))
        b = functions.get(word)
        arity = ""
        if b is not None:
            arity = f"{b.low} argument{'s' if b.low != 1 else ''}" if b.low == b.high else f"{b.low} to {b.high} arguments"
        return "function", f"```rulelang\n{forms}\n```\nbuiltin function" + (f" ({arity})" if arity else "") + \
            (f": {meaning}" if meaning else "")
    if word in values or word in VALUE_DOCS:
        kind = values.get(word, "")
        return "value", f"```rulelang\n{word}\n```\nbuiltin value" + (f" ({_show_type(kind)})" if kind else "") + \
            f": {VALUE_DOCS.get(word, '')}"
    for table in ("declaration", "statement"):
        if word in ref.get(table, {}):
            forms, meaning = ref[table][word]
            return "keyword", f"```rulelang\n{forms}\n```\n{meaning}"
    if index is not None and word in index.fields:          # `Card(rank: 3)`: a field named as it is set
        return "field", index.fields[word]
    if word in WORD_DOCS:
        return "keyword", f"`{word}`: {WORD_DOCS[word]}"
    return None


def _show_type(t: str) -> str:
    return t.replace("list:", "list of ").replace("comp:*", "a component")


def hover(analysis: Analysis, line: int, character: int, encoding: str = "utf-16") -> dict | None:
    """An LSP Hover (a dict) for the name at a position, or None."""
    text = Text(analysis.source)
    cur = cursor(analysis.source, text.at(line, character, encoding))
    found = resolve(analysis, cur) if cur else None
    if not found:
        return None
    what, value = found
    if isinstance(value, str):
        body = value
    else:
        parts = []
        for d in value[:5]:
            where = "" if d.span.file == analysis.path else f"{Path(d.span.file).name}, "
            head = f"```rulelang\n{d.signature}\n```\n{d.kind}" + (f" of {d.owner}" if d.owner and d.kind == "action" else "")
            head += f" — {where}line {d.span.line}"
            parts.append(head + (f"\n\n{d.about}" if d.about else ""))
        body = "\n\n---\n\n".join(parts)
    rng = (text.position(cur.start, encoding), text.position(cur.end, encoding))
    return {"contents": {"kind": "markdown", "value": body}, "range": _range(rng)}


def definition(analysis: Analysis, line: int, character: int, encoding: str = "utf-16", uri: str = "") -> list[dict]:
    """LSP Locations (dicts) of the declaration of the name at a position (none for builtins)."""
    text = Text(analysis.source)
    cur = cursor(analysis.source, text.at(line, character, encoding))
    found = resolve(analysis, cur) if cur else None
    if not found or isinstance(found[1], str) or analysis.index is None:
        return []
    out = []
    for d in found[1]:
        where = analysis.index.text(d.span.file)
        if where is None:
            continue
        out.append({"uri": uri_of(d.span.file, analysis.path, uri), "range": _range(where.range(d.span, encoding))})
    return out


# LSP CompletionItemKind numbers
_ITEM_KIND = {"def": 3, "proc": 3, "function": 3, "var": 6, "local": 6, "zone": 6, "field": 5, "kind": 7,
              "enum": 13, "enum value": 20, "option": 21, "table": 21, "value": 21, "board": 6, "step": 9,
              "action": 2, "event": 23, "window": 23, "hook": 23, "keyword": 14, "card": 12}


def completion(analysis: Analysis, line: int, character: int, encoding: str = "utf-16") -> list[dict]:
    """LSP CompletionItems (dicts): after a `.`, the fields of kinds and cells; else the names in
    scope (locals, declarations), builtins and keywords, starting with what is typed."""
    text = Text(analysis.source)
    offset = text.at(line, character, encoding)
    cur = cursor(analysis.source, offset, whole=False)
    if cur is None or cur.quoted:
        return []
    prefix = cur.word
    items: dict[str, dict] = {}

    def offer(label: str, kind: str, detail: str = "", doc: str = "") -> None:
        if label.startswith(prefix) and label not in items and not label.startswith("__"):
            item = {"label": label, "kind": _ITEM_KIND.get(kind, 1), "detail": detail or kind}
            if doc:
                item["documentation"] = {"kind": "markdown", "value": doc}
            items[label] = item

    index = analysis.index
    if cur.after_dot:
        if index is not None:
            for name, decls in sorted(index.fields.items()):
                offer(name, "field", "; ".join(d.signature for d in decls[:3]))
        for name, t in (("name", "text"), ("row", "int"), ("col", "int"), ("kind", "text")):
            offer(name, "field", f"{name}: {t} (of a cell)")
        return list(items.values())
    if index is not None:
        for name, d in sorted(locals_at(index, analysis.path, offset).items()):
            offer(name, "local", d.signature)
        for name, decls in sorted(index.decls.items()):
            d = decls[0]
            offer(name, d.kind, d.signature, d.about)
    functions, values = builtin_names()
    ref = reference()["function"]
    for name in sorted(functions):
        forms, meaning = ref.get(name, (name, ""))
        offer(name, "function", forms, meaning)
    for name in sorted(values):
        offer(name, "value", f"builtin value ({_show_type(values[name])})", VALUE_DOCS.get(name, ""))
    for word in keywords():
        offer(word, "keyword", "keyword")
    return list(items.values())


def uri_of(file: str, document: str, document_uri: str = "") -> str:
    """The URI of a file a span names (the document's own URI for the document itself)."""
    if file == document and document_uri:
        return document_uri
    try:
        return Path(file).resolve().as_uri()
    except (OSError, ValueError):
        return file


def path_of(uri: str) -> str:
    """The file a document's URI names; a document not on disk (untitled) gets a name in no folder,
    so its `include`s find nothing rather than files beside wherever the server runs."""
    from urllib.parse import unquote, urlparse
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        path = unquote(parsed.path)
        if re.match(r"/[A-Za-z]:", path):          # file:///C:/x on Windows
            path = path[1:]
        return str(Path(path))
    return "<" + re.sub(r"[^A-Za-z0-9_.-]", "_", uri)[:80] + ">/document.rules"


# ---- the server ----------------------------------------------------------------------------------
def serve(stdin=None, stdout=None) -> int:
    """Run the server on stdio until the client says exit."""
    import asyncio
    import logging

    from lsprotocol import types as t
    from pygls.lsp.server import LanguageServer

    from ..core.version import __version__

    logging.getLogger("pygls").setLevel(logging.CRITICAL)    # nothing on stderr for a routine hiccup
    server = LanguageServer("rulelang", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Full)
    analyses: dict[str, Analysis] = {}         # uri -> the latest analysis
    good: dict[str, Analysis] = {}             # uri -> the latest one that parsed (for hover while typing)
    pending: dict[str, int] = {}               # uri -> the newest change waiting to be checked

    def encoding() -> str:
        try:
            return str(server.workspace.position_encoding or "utf-16")
        except Exception:
            return "utf-16"

    def current(uri: str) -> Analysis | None:
        """The document's analysis, made afresh if the text moved on since; while it does not
        parse, the last one that did lends its declarations."""
        doc = server.workspace.get_text_document(uri)
        source = doc.source
        found = analyses.get(uri)
        if found is None or found.source != source:
            opened = {}
            for other in list(server.workspace.text_documents.values()):
                if other.uri != uri and other.uri.startswith("file:"):
                    opened[path_of(other.uri)] = other.source
            found = analyses[uri] = analyze(source, path_of(uri), opened)
            if found.index is not None:
                good[uri] = found
        if found.index is None and uri in good:
            return Analysis(found.source, found.path, found.diagnostics, good[uri].index)
        return found

    def publish(uri: str, version) -> None:
        try:
            analysis = current(uri)
            items = lsp_diagnostics(analysis, encoding()) if analysis else []
        except Exception as err:
            items = [{"range": _range(((0, 0), (0, 0))), "severity": 1, "code": "E000", "source": "rulelang",
                      "message": printable(f"internal error: {type(err).__name__}: {err} (please report this)")}]
        diagnostics = [t.Diagnostic(range=_lsp_range(t, d["range"]), message=d["message"],
                                    severity=t.DiagnosticSeverity(d["severity"]), code=d["code"], source="rulelang",
                                    related_information=[t.DiagnosticRelatedInformation(
                                        location=t.Location(uri=r["location"]["uri"],
                                                            range=_lsp_range(t, r["location"]["range"])),
                                        message=r["message"]) for r in d.get("relatedInformation", [])] or None)
                       for d in items]
        server.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: t.DidOpenTextDocumentParams):
        try:
            publish(params.text_document.uri, params.text_document.version)
        except Exception:
            pass

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: t.DidChangeTextDocumentParams):
        """Checked once typing pauses: a burst of keystrokes costs one parse, of the last text."""
        try:
            uri, version = params.text_document.uri, params.text_document.version
            pending[uri] = version
            await asyncio.sleep(DEBOUNCE)
            if pending.get(uri) == version:
                publish(uri, version)
        except Exception:
            pass

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: t.DidSaveTextDocumentParams):
        """A saved file may be included by (or include) another open document, which reads it from
        disk: every open document is checked again."""
        for uri, doc in list(server.workspace.text_documents.items()):
            try:
                analyses.pop(uri, None)
                publish(uri, doc.version)
            except Exception:
                pass

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: t.DidCloseTextDocumentParams):
        try:
            uri = params.text_document.uri
            for table in (analyses, good, pending):
                table.pop(uri, None)
            server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        except Exception:
            pass

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: t.HoverParams):
        try:
            analysis = current(params.text_document.uri)
            found = hover(analysis, params.position.line, params.position.character, encoding())
            if found is None:
                return None
            return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=found["contents"]["value"]),
                           range=_lsp_range(t, found["range"]))
        except Exception:
            return None

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: t.DefinitionParams):
        try:
            uri = params.text_document.uri
            analysis = current(uri)
            found = definition(analysis, params.position.line, params.position.character, encoding(), uri)
            return [t.Location(uri=f["uri"], range=_lsp_range(t, f["range"])) for f in found] or None
        except Exception:
            return None

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls, params: t.CompletionParams):
        try:
            analysis = current(params.text_document.uri)
            found = completion(analysis, params.position.line, params.position.character, encoding())
            return t.CompletionList(is_incomplete=False, items=[
                t.CompletionItem(label=i["label"], kind=t.CompletionItemKind(i["kind"]), detail=i.get("detail"),
                                 documentation=t.MarkupContent(kind=t.MarkupKind.Markdown,
                                                               value=i["documentation"]["value"])
                                 if "documentation" in i else None) for i in found])
        except Exception:
            return t.CompletionList(is_incomplete=False, items=[])

    # The protocol gets its own handle on the output (pygls closes it at exit); meanwhile anything
    # printed by mistake goes to stderr rather than into the protocol's stream.
    import os
    import sys
    out = stdout or os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        server.start_io(stdin or sys.stdin.buffer, out)
    finally:
        sys.stdout = saved
    return 0 if getattr(server.protocol, "_shutdown", False) else 1      # LSP: exit without shutdown is 1


def _lsp_range(t, rng: dict):
    return t.Range(start=t.Position(line=rng["start"]["line"], character=rng["start"]["character"]),
                   end=t.Position(line=rng["end"]["line"], character=rng["end"]["character"]))
