"""YAML content files: the bulky tables a rule file imports (card lists, unit rosters).

`create Card from "cards.yaml" in deck` reads a YAML list of rows, one mapping per component
(`copies: N` makes N of it), and checks every row against the kind's fields, so a typo in a
card table gets the same kind of diagnostic as a typo in the rules — at the YAML line.
Only `yaml.SafeLoader` is used. The checked rows go into the IR, which stays self-contained;
the file's SHA-256 goes with them so a cached IR is never used after the file changed.

A content file is as untrusted as the rule file: it must be a regular file of at most
YAML_SIZE_LIMIT bytes inside the rule file's folder (symbolic links followed), and it is composed
from the parser's events without recursion (`_compose`), counting its nodes with every alias
expanded — counted, never expanded — so an alias bomb is refused after a few thousand events
(YAML_NODE_LIMIT), as are nesting deeper than YAML_DEPTH_LIMIT and an alias of itself. Aliases
and merge keys (`<<: *base`) are otherwise allowed. `copies` is at most COPIES_LIMIT, and a file
makes at most COMPONENT_LIMIT components.
"""
from __future__ import annotations

import difflib
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import Diagnostic, Span
from ..core.limits import COMPONENT_LIMIT, COPIES_LIMIT, INT_LIMIT, TEXT_LIMIT, YAML_DEPTH_LIMIT, YAML_NODE_LIMIT, YAML_SIZE_LIMIT
from ..core.types import Context, ValueType

COPIES = "copies"          # the row key that says how many components the row makes
YAML_TYPES = ("int", "bool", "text")

# A diagnostic's size and cost may not grow with the file: thousands of misspelt names against
# thousands of declared ones would otherwise print every candidate in every message and compare
# every name with every other (hours, gigabytes). See `listing` and `Suggester`.
SUGGEST_WORK = 4_000_000   # work units of "did you mean" in one file (~0.25 µs each: a second at worst)
SUGGEST_LENGTH = 100       # a longer word gets no suggestion
SUGGEST_CUTOFF = 0.6       # how alike a suggestion must be (difflib's ratio, as get_close_matches)
LISTED = 5                 # names one message lists at most ("a, b, c, d, e and 12 more")
LISTED_LENGTH = 40         # characters of one listed name shown at most


def short(name) -> str:
    """A declared name as a message lists it: cut short (a name may be thousands of characters)."""
    name = str(name)
    return name if len(name) <= LISTED_LENGTH else name[:LISTED_LENGTH] + "…"


def listing(names, limit: int = LISTED, sep: str = ", ") -> str:
    """Names for a message: the first `limit`, each cut short, then how many more there are."""
    names = names if isinstance(names, (list, tuple)) else list(names)
    shown = [short(x) for x in names[:limit]]
    more = len(names) - len(shown)
    return sep.join(shown) + (f" and {more:,} more" if more > 0 else "")


class Suggester:
    """"Did you mean": the closest name to a misspelt one — what `difflib.get_close_matches(word,
    names, n=1, cutoff=0.6)` gives — while a budget of work lasts. One Suggester serves a whole
    file (the checker shares its own with desugaring and content files), so thousands of typos
    against thousands of names cost at most SUGGEST_WORK characters compared, then go without."""

    def __init__(self, work: int = SUGGEST_WORK):
        self.work = work

    def __call__(self, word, candidates) -> str | None:
        """The closest of `candidates` (names, or a function giving them), or None."""
        if self.work <= 0 or not isinstance(word, str) or not word or len(word) > SUGGEST_LENGTH:
            return None
        names = candidates() if callable(candidates) else candidates
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(word)
        size = len(word)
        best = None
        for name in names:
            self.work -= 10 + 2 * len(name)                # the quick checks: linear in the name
            if self.work < 0:
                break
            if 2 * min(size, len(name)) < SUGGEST_CUTOFF * (size + len(name)):
                continue                                   # (real_quick_ratio: lengths too far apart)
            matcher.set_seq1(name)
            if matcher.quick_ratio() < SUGGEST_CUTOFF:
                continue
            self.work -= size * len(name)                  # the full comparison: at worst quadratic
            score = matcher.ratio()
            if score >= SUGGEST_CUTOFF and (best is None or (score, name) > best):
                best = (score, name)                       # (ties: as get_close_matches breaks them)
        return best[1] if best else None


class _Refused(Exception):
    """A content file over a limit: the message, and the YAML mark where it shows."""

    def __init__(self, message: str, mark=None):
        super().__init__(message)
        self.mark = mark


@dataclass
class Content:
    rows: list[dict]       # field values per component, `copies` already expanded
    sha256: str
    text: str              # the file's text, for caret lines


def resolve(rule_file: str, path: str) -> Path:
    """Content paths are relative to the rule file's folder."""
    return Path(rule_file).resolve().parent / path


def _read_limited(path: Path) -> bytes:
    """The bytes of a regular file of at most YAML_SIZE_LIMIT bytes (never a device or a pipe,
    which could block or never end); _Refused if it is larger, OSError if it cannot be read."""
    # opened without waiting (a FIFO put there after a check would block an open that waits), then
    # checked: the file read is the file checked
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError("not a regular file")
        if info.st_size > YAML_SIZE_LIMIT:
            raise _Refused(f"it has {info.st_size:,} bytes, more than the limit of {YAML_SIZE_LIMIT:,}")
        data = f.read(YAML_SIZE_LIMIT + 1)
    if len(data) > YAML_SIZE_LIMIT:
        raise _Refused(f"it has more than {YAML_SIZE_LIMIT:,} bytes, the limit")
    return data


def file_hash(path: Path) -> str | None:
    """The SHA-256 of a content file, or None if it cannot be (or may not be) read."""
    try:
        return hashlib.sha256(_read_limited(path)).hexdigest()
    except (OSError, ValueError, _Refused):     # (ValueError: a name no file can have, with a NUL byte)
        return None


def _span(file: str, node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def load_rows(rule_file: str, path: str, path_span: Span, kind: str, fields: dict, enums: dict,
              suggest: Suggester | None = None):
    """(Content or None, diagnostics, {shown path: text} for caret lines).
    `fields`: name -> (type, has a default); `enums`: enum name -> its value names; `suggest`:
    the "did you mean" of the whole rule file (its budget shared), else one for this file."""
    content, diags, text, shown = _load(rule_file, path, path_span, kind, fields, enums, suggest or Suggester())
    return content, diags, ({shown: text} if text is not None else {})


def _load(rule_file: str, path: str, path_span: Span, kind: str, fields: dict, enums: dict, suggest: Suggester):
    diags: list[Diagnostic] = []
    shown = str(Path(rule_file).parent / path)
    for name, (typ, _) in fields.items():
        if typ not in YAML_TYPES and ValueType.parse(typ).base != "enum":
            # (the type as the rule file writes it: `list[int]`, not the IR's `list:int` — a new author)
            written = typ.replace("list:", "list[") + "]" * typ.count("list:")
            diags.append(Diagnostic("E504", f"field `{name}` of kind `{kind}` is a {written}, which a YAML file "
                                            f"cannot give (only numbers, true/false, text and enum values: a list "
                                            f"is several fields, `cost_1`, `cost_2`, …, or one text the rules split, "
                                            f"`adj: \"b1,c2\"` read as `split(c.adj, \",\")`)", path_span))
    if diags:
        return None, diags, None, shown
    if "\0" in path:                              # (the operating system refuses it in any file name)
        return None, [Diagnostic("E501", "the content file's path holds a NUL byte (\\0), which no file name "
                                         "can hold", path_span)], None, shown
    rel = Path(path)
    if rel.is_absolute() or ".." in rel.parts or rel.suffix not in (".yaml", ".yml"):
        # a rule file is untrusted: it may read YAML beside or below itself, nothing else
        return None, [Diagnostic("E501", f"content file `{path}` must be a .yaml file in the rule file's folder "
                                         f"or below it", path_span)], None, shown
    try:
        where = resolve(rule_file, path)
        real = where.resolve(strict=True)
        if not real.is_relative_to(Path(rule_file).resolve().parent):
            return None, [Diagnostic("E501", f"content file `{path}` is a link to a file outside the rule file's "
                                             f"folder, which a rule file may not read", path_span)], None, shown
        text = _read_limited(real).decode("utf-8")
    except _Refused as err:
        return None, [Diagnostic("E506", f"content file `{path}` is too large: {err}", path_span)], None, shown
    except UnicodeDecodeError as err:
        # (at its own line and column, as a rule file's: "offset 9" at the rule's `create … from` line
        # was all an attacker's trial read)
        line = err.object.count(b"\n", 0, err.start) + 1
        column = err.start - (err.object.rfind(b"\n", 0, err.start) + 1) + 1
        reason = f"it is not UTF-8 text (byte 0x{err.object[err.start]:02x})"
        return None, [Diagnostic("E501", f"cannot read content file `{path}`: {reason}",
                                 Span(shown, line, column, line, column + 1))], None, shown
    except (OSError, RuntimeError, ValueError) as err:   # (RuntimeError: a loop of links; ValueError: a NUL byte)
        reason = "no such file" if isinstance(err, FileNotFoundError) else \
            (err.strerror or str(err)) if isinstance(err, OSError) else \
            "a loop of links" if isinstance(err, RuntimeError) else \
            "the rule file's own path holds a NUL byte, so no file beside it can be found"
        return None, [Diagnostic("E501", f"cannot read content file `{path}`: {reason}", path_span)], None, shown
    import yaml                                 # only when a rule file imports content
    loader = None
    try:
        loader = yaml.SafeLoader(text)          # (its reader already refuses characters YAML does not allow)
        root = _compose(loader)
        rows, diags = _rows(loader, root, shown, path_span, kind, fields, enums, suggest)
    except _Refused as err:
        span = _mark_span(shown, err.mark) if err.mark is not None else path_span
        return None, [Diagnostic("E506", f"content file `{path}` is refused: {err}", span)], text, shown
    except RecursionError:                      # (the depth limit should make this impossible)
        return None, [Diagnostic("E506", f"content file `{path}` is refused: it nests too deeply", path_span)], \
            text, shown
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        if mark is not None:
            span = _mark_span(shown, mark)
        elif isinstance(err, yaml.reader.ReaderError):     # a character YAML does not allow
            line = text.count("\n", 0, err.position) + 1
            column = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
            span = Span(shown, line, column, line, column + 1)
        else:
            span = path_span
        problem = getattr(err, "problem", None) or str(err)
        if isinstance(err, yaml.reader.ReaderError):
            code = err.character if isinstance(err.character, int) else ord(str(err.character)[:1] or "?")
            problem = f"the character #x{code:04x} is not allowed ({err.reason})"
        problem = " ".join(str(problem).split())          # one line, and not a long one (a tag of 500,000
        if len(problem) > 300:                              # characters was said whole — an attacker's trial)
            problem = problem[:299] + "…"
        return None, [Diagnostic("E501", f"content file `{path}` is not valid YAML: {problem}", span)], text, shown
    except Exception as err:                    # noqa: BLE001 - PyYAML on hostile input: a diagnostic, always
        return None, [Diagnostic("E501", f"content file `{path}` could not be read as YAML "
                                         f"({type(err).__name__})", path_span)], text, shown
    finally:
        if loader is not None:
            loader.dispose()
    if any(d.severity == "error" for d in diags):
        return None, diags, text, shown
    return Content(rows, hashlib.sha256(text.encode("utf-8")).hexdigest(), text), diags, text, shown


def _mark_span(file: str, mark) -> Span:
    return Span(file, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)


def _compose(loader):
    """The document's node tree, as `loader.get_single_node()` makes it, but built from the
    parser's events with an explicit stack (the composer recurses once per nesting level). On the
    way it refuses nesting deeper than YAML_DEPTH_LIMIT, more than YAML_NODE_LIMIT nodes with
    every alias expanded (each node's expanded size is counted once, so nothing is expanded),
    and an alias of a collection that contains it."""
    import yaml
    from yaml.composer import ComposerError
    loader.get_event()                                # stream start
    if loader.check_event(yaml.StreamEndEvent):
        loader.get_event()
        return None
    loader.get_event()                                # document start
    anchors: dict = {}
    sizes: dict[int, int] = {}                        # id(node) -> its size, aliases expanded (once finished)
    stack: list[list] = []                            # [collection, its size so far, a key waiting for its value]
    while True:
        event = loader.get_event()
        if isinstance(event, yaml.AliasEvent):
            node = anchors.get(event.anchor)
            if node is None:
                raise ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
            if id(node) not in sizes:
                raise _Refused(f"the alias *{event.anchor} is inside what it names", event.start_mark)
            size = sizes[id(node)]
        elif isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if event.anchor is not None and event.anchor in anchors:
                first = anchors[event.anchor].start_mark.line + 1
                raise ComposerError(None, None, f"found duplicate anchor {event.anchor!r} (first on line {first})",
                                    event.start_mark)
            cls = {yaml.ScalarEvent: yaml.ScalarNode, yaml.SequenceStartEvent: yaml.SequenceNode,
                   yaml.MappingStartEvent: yaml.MappingNode}[type(event)]
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(cls, getattr(event, "value", None), event.implicit)
                # (YAML 1.1's numbers in base 60 are text here: `190:20:30` was read as 685230 without a
                # word, a fuzz trial; a time typed as `1:30` stays "1:30")
                if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") and ":" in event.value:
                    tag = "tag:yaml.org,2002:str"
            elif cls is not yaml.ScalarNode and tag not in _YAML_COLLECTION_TAGS:
                # (a list's or a mapping's tag was dropped, so `!!python/object/apply:os.system {…}`
                # read as a plain row: refused as a scalar's is, a fuzz trial; YAML's own `!!set`,
                # `!!omap`… are read, and a row of them is refused for its type, E504)
                shown = tag.replace("tag:yaml.org,2002:", "!!")
                raise yaml.constructor.ConstructorError(None, None, f"could not determine a constructor for "
                                                        f"the tag {shown!r}", event.start_mark)
            if cls is yaml.ScalarNode:
                node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
            else:
                node = cls(tag, [], event.start_mark, None, flow_style=event.flow_style)
            if event.anchor is not None:
                anchors[event.anchor] = node
            if cls is not yaml.ScalarNode:
                if len(stack) >= YAML_DEPTH_LIMIT:
                    raise _Refused(f"it nests lists and mappings more than {YAML_DEPTH_LIMIT} deep", event.start_mark)
                stack.append([node, 1, None])
                continue
            size = sizes[id(node)] = 1
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            node, size, _ = stack.pop()
            node.end_mark = event.end_mark
            sizes[id(node)] = size
        else:                                         # (the parser sends nothing else inside a document)
            raise ComposerError(None, None, f"unexpected {type(event).__name__}", event.start_mark)
        if not stack:
            break
        top = stack[-1]
        top[1] += size
        if top[1] > YAML_NODE_LIMIT:
            raise _Refused(f"it has more than {YAML_NODE_LIMIT:,} values, counting what every alias (*name) "
                           f"repeats", event.start_mark)
        if isinstance(top[0], yaml.SequenceNode):
            top[0].value.append(node)
        elif top[2] is None:
            top[2] = node
        else:
            top[0].value.append((top[2], node))
            top[2] = None
    loader.get_event()                                # document end
    if not loader.check_event(yaml.StreamEndEvent):
        event = loader.get_event()
        raise ComposerError(None, None, "expected a single document in the stream, but found another document",
                            event.start_mark)
    return node


def _shown(node, value) -> str:
    """A value as a message shows it: the YAML text of a scalar (shortened), else what it is."""
    import yaml
    if isinstance(value, bytes):
        return "binary data"
    if value is _TOO_LARGE:
        return "a number too large to read"
    if isinstance(node, yaml.ScalarNode):
        if value is None:                    # (`v:` with nothing, or a key of a `!!set`: "not " — a fuzz trial)
            return "nothing (an empty value)"
        text = node.value if len(node.value) <= 40 else node.value[:40] + "…"
        return repr(text) if isinstance(value, str) else text
    return "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"


_TOO_LARGE = object()      # the value of a number with too many digits for Python to read
# the tags a list or a mapping may carry: YAML's own (`!!seq`, `!!map`, `!!set`, `!!omap`, `!!pairs`)
_YAML_COLLECTION_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("seq", "map", "set", "omap", "pairs"))



def _construct(loader, node):
    """The Python value of a node: _TOO_LARGE for an integer of more digits than Python reads; a
    YAMLError at the node for a value its tag cannot make (`!!int ""` raises IndexError in PyYAML)."""
    import yaml
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int" \
            and sum(ch.isalnum() for ch in node.value) > 1000:
        return _TOO_LARGE
    try:
        return loader.construct_object(node, deep=True)
    except yaml.YAMLError:
        raise
    except Exception as err:                      # noqa: BLE001 - whatever the constructor raises
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        raise yaml.constructor.ConstructorError(None, None, f"cannot read this value as {tag} "
                                                f"({type(err).__name__})", node.start_mark) from None


def _pairs(loader, item):
    """A row's (key node, value node) pairs, merge keys (`<<: *base`) applied: a merged field is
    overridden by the row's own, and of two merged, the first listed wins (as PyYAML does)."""
    import yaml
    merge = "tag:yaml.org,2002:merge"
    own_count = sum(1 for k, _ in item.value if k.tag != merge)
    if own_count == len(item.value):
        return item.value
    loader.flatten_mapping(item)
    merged, own = item.value[:len(item.value) - own_count], item.value[len(item.value) - own_count:]
    own_names = {k.value for k, _ in own if isinstance(k, yaml.ScalarNode)}
    latest: dict = {}
    for k, v in merged:
        if isinstance(k, yaml.ScalarNode) and k.value not in own_names:
            latest[k.value] = (k, v)
    return list(latest.values()) + own


def _rows(loader, root, file: str, path_span: Span, kind: str, fields: dict, enums: dict, suggest: Suggester):
    import yaml
    diags: list[Diagnostic] = []
    if root is None or not isinstance(root, yaml.SequenceNode):
        span = _span(file, root) if root is not None else path_span
        return [], [Diagnostic("E502", f"a content file is a YAML list of rows (`- name: …`), one per `{kind}`",
                               span)]
    rows: list[dict] = []
    # the one value check (types.py), as the engine restores; enum values as sets: a row's value is
    # looked up, not searched for, in an enum of thousands
    context = Context(enums={name: frozenset(values) for name, values in enums.items()})
    required = [name for name, (_, has_default) in fields.items() if not has_default]
    for item in root.value:
        if not isinstance(item, yaml.MappingNode):
            diags.append(Diagnostic("E502", f"each row is a mapping of `{kind}` fields (`name: value`)",
                                    _span(file, item)))
            continue
        row: dict = {}
        rejected: set = set()                  # fields already reported: not "missing" as well
        unsure = False                         # a key that is no field: perhaps a misspelt one, so none is missing
        copies = 1
        for key_node, value_node in _pairs(loader, item):
            if not isinstance(key_node, yaml.ScalarNode):
                diags.append(Diagnostic("E502", f"a row's keys are `{kind}` field names, not {_shown(key_node, None)}",
                                        _span(file, key_node)))
                unsure = True
                continue
            key = _construct(loader, key_node)
            value = _construct(loader, value_node)
            if key == COPIES:
                if type(value) is not int or value < 0:
                    diags.append(Diagnostic("E504", f"`{COPIES}` must be a whole number ≥ 0, not "
                                                    f"{_shown(value_node, value)}", _span(file, value_node)))
                elif value > COPIES_LIMIT:
                    diags.append(Diagnostic("E506", f"`{COPIES}: {_shown(value_node, value)}` is more than the limit "
                                                    f"of {COPIES_LIMIT:,} copies of one row", _span(file, value_node)))
                else:
                    copies = value
                continue
            if not isinstance(key, str) or key not in fields:
                shown = key if isinstance(key, str) else key_node.value
                close = suggest(shown, lambda: [*fields, COPIES])
                shown = shown if len(shown) <= 40 else shown[:40] + "…"
                diags.append(Diagnostic("E503", f"kind `{kind}` has no field `{shown}`", _span(file, key_node),
                                        suggestion=close))
                unsure = True                      # likely a misspelt field: do not report it missing
                continue
            if key in row:
                diags.append(Diagnostic("E102", f"field `{key}` is given twice in this row", _span(file, key_node)))
                continue
            typ = fields[key][0]
            vtype = ValueType.parse(typ)
            too_large = value is _TOO_LARGE or (type(value) is int and abs(value) > INT_LIMIT)
            if too_large and vtype.base == "int":
                diags.append(Diagnostic("E504", f"field `{key}` is too large: a number is at most {INT_LIMIT:,} "
                                                f"either side of 0", _span(file, value_node)))
                rejected.add(key)
                continue
            if value is _TOO_LARGE or not vtype.fits(value, context):
                members = enums.get(vtype.arg, ()) if vtype.base == "enum" else ()
                want = f"one of {listing(members)}" if vtype.base == "enum" else typ
                close = suggest(value, members) if isinstance(value, str) else None
                diags.append(Diagnostic("E504", f"field `{key}` must be {want}, not {_shown(value_node, value)}",
                                        _span(file, value_node), suggestion=close))
                rejected.add(key)
                continue
            if isinstance(value, str) and len(value) > TEXT_LIMIT:     # (a 900 KB text printed whole by `look`)
                diags.append(Diagnostic("E506", f"field `{key}` is {len(value):,} characters long, more than "
                                                f"the limit of {TEXT_LIMIT:,} of one text",
                                        _span(file, value_node)))
                rejected.add(key)
                continue
            if _has_surrogate(value):           # (`"A\ud800B"`: no file or save could hold it; a fuzz trial)
                diags.append(Diagnostic("E504", f"field `{key}` holds a lone surrogate (\\ud800 to \\udfff), "
                                                f"which is no character: write the character itself",
                                        _span(file, value_node)))
                rejected.add(key)
                continue
            row[key] = value
        # (the first missing field: a search that stops there costs no more than the row's own keys)
        missing = None if unsure else next((name for name in required if name not in row and name not in rejected),
                                           None)
        if missing is not None:
            diags.append(Diagnostic("E505", f"this row gives no `{missing}`, which kind `{kind}` needs",
                                    _span(file, item)))
            continue
        if len(rows) + copies > COMPONENT_LIMIT:
            diags.append(Diagnostic("E506", f"the file makes more than {COMPONENT_LIMIT:,} components (the limit "
                                            f"for a match), counting `{COPIES}`", _span(file, item)))
            break
        rows.extend(dict(row) for _ in range(copies))
    return rows, diags


def _has_surrogate(value) -> bool:
    """Does a field's value (a text, or a list of them) hold a UTF-16 surrogate alone?"""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, list):
        return any(_has_surrogate(x) for x in value)
    return False
