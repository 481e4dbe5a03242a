"""What is under the cursor: hover, go to definition and completion over an analysed document."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..language import nodes as n
from ..core.errors import Span
from .positions import Text
from .reference import VALUE_DOCS, WORD, WORD_DOCS, builtin_names, keywords, reference
from .analysis import Analysis, Decl, Index, _range, _type




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


