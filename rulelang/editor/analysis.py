"""One document analysed as `rulelang lint` would (parser, checker, their limits): its
declarations indexed, included fragments checked through the file that includes them, and the
diagnostics as LSP objects."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..language import nodes as n
from ..core.errors import Diagnostic, RuleError, Span
from ..core.limits import SOURCE_LIMIT
from ..core.textsafe import printable
from .positions import Text


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
            self.add(Decl(d.name, word, f"{show}{word} {d.name}{params}", self.name_span(d.span, d.name, word),
                          "\n\n".join(about.get(("def", d.name), [])) if word == "def" else ""))   # (`about def`: a review)
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
            what = {"zone": "zone", "option": "option", "var": "var"}.get(word, "")
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


