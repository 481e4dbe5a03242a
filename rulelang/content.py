"""YAML content files: the bulky tables a rule file imports (card lists, unit rosters).

`create Card from "cards.yaml" in deck` reads a YAML list of rows, one mapping per component
(`copies: N` makes N of it), and checks every row against the kind's fields, so a typo in a
card table gets the same kind of diagnostic as a typo in the rules — at the YAML line.
Only `yaml.SafeLoader` is used. The checked rows go into the IR, which stays self-contained;
the file's SHA-256 goes with them so a cached IR is never used after the file changed.
"""
from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from pathlib import Path

from .errors import Diagnostic, Span

COPIES = "copies"          # the row key that says how many components the row makes
YAML_TYPES = ("int", "bool", "text")


@dataclass
class Content:
    rows: list[dict]       # field values per component, `copies` already expanded
    sha256: str
    text: str              # the file's text, for caret lines


def resolve(rule_file: str, path: str) -> Path:
    """Content paths are relative to the rule file's folder."""
    return Path(rule_file).resolve().parent / path


def file_hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _span(file: str, node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _fits(value, typ: str, enums: dict) -> bool:
    if typ == "int":
        return type(value) is int
    if typ == "bool":
        return type(value) is bool
    if typ == "text":
        return isinstance(value, str)
    if typ.startswith("enum:"):
        return isinstance(value, str) and value in enums.get(typ[5:], ())
    return False


def load_rows(rule_file: str, path: str, path_span: Span, kind: str, fields: dict, enums: dict):
    """(Content or None, diagnostics, {shown path: text} for caret lines).
    `fields`: name -> (type, has a default); `enums`: enum name -> its value names."""
    content, diags, text, shown = _load(rule_file, path, path_span, kind, fields, enums)
    return content, diags, ({shown: text} if text is not None else {})


def _load(rule_file: str, path: str, path_span: Span, kind: str, fields: dict, enums: dict):
    diags: list[Diagnostic] = []
    shown = str(Path(rule_file).parent / path)
    for name, (typ, _) in fields.items():
        if typ not in YAML_TYPES and not typ.startswith("enum:"):
            diags.append(Diagnostic("E504", f"field `{name}` of kind `{kind}` is a {typ}, which a YAML file "
                                            f"cannot give (only numbers, true/false, text and enum values)", path_span))
    if diags:
        return None, diags, None, shown
    rel = Path(path)
    if rel.is_absolute() or ".." in rel.parts or rel.suffix not in (".yaml", ".yml"):
        # a rule file is untrusted: it may read YAML beside or below itself, nothing else
        return None, [Diagnostic("E501", f"content file `{path}` must be a .yaml file in the rule file's folder "
                                         f"or below it", path_span)], None, shown
    where = resolve(rule_file, path)
    try:
        text = where.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = "no such file" if isinstance(err, FileNotFoundError) else str(err)
        return None, [Diagnostic("E501", f"cannot read content file `{path}`: {reason}", path_span)], None, shown
    import yaml                                 # only when a rule file imports content
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        rows, diags = _rows(loader, root, shown, path_span, kind, fields, enums)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        span = Span(shown, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2) if mark else path_span
        problem = getattr(err, "problem", None) or str(err)
        return None, [Diagnostic("E501", f"content file `{path}` is not valid YAML: {problem}", span)], text, shown
    finally:
        loader.dispose()
    if any(d.severity == "error" for d in diags):
        return None, diags, text, shown
    return Content(rows, hashlib.sha256(text.encode("utf-8")).hexdigest(), text), diags, text, shown


def _rows(loader, root, file: str, path_span: Span, kind: str, fields: dict, enums: dict):
    import yaml
    diags: list[Diagnostic] = []
    if root is None or not isinstance(root, yaml.SequenceNode):
        span = _span(file, root) if root is not None else path_span
        return [], [Diagnostic("E502", f"a content file is a YAML list of rows (`- name: …`), one per `{kind}`",
                               span)]
    rows: list[dict] = []
    for item in root.value:
        if not isinstance(item, yaml.MappingNode):
            diags.append(Diagnostic("E502", f"each row is a mapping of `{kind}` fields (`name: value`)",
                                    _span(file, item)))
            continue
        row: dict = {}
        rejected: set = set()                  # fields already reported: not "missing" as well
        copies = 1
        for key_node, value_node in item.value:
            key = loader.construct_object(key_node, deep=True)
            value = loader.construct_object(value_node, deep=True)
            if key == COPIES:
                if type(value) is not int or value < 0:
                    diags.append(Diagnostic("E504", f"`{COPIES}` must be a whole number ≥ 0, not {value!r}",
                                            _span(file, value_node)))
                else:
                    copies = value
                continue
            if key not in fields:
                close = difflib.get_close_matches(str(key), list(fields) + [COPIES], n=1, cutoff=0.6)
                diags.append(Diagnostic("E503", f"kind `{kind}` has no field `{key}`", _span(file, key_node),
                                        suggestion=close[0] if close else None))
                rejected.update(fields)            # likely a misspelt field: do not report it missing
                continue
            if key in row:
                diags.append(Diagnostic("E102", f"field `{key}` is given twice in this row", _span(file, key_node)))
                continue
            typ = fields[key][0]
            if not _fits(value, typ, enums):
                want = f"one of {', '.join(enums.get(typ[5:], ()))}" if typ.startswith("enum:") else typ
                close = difflib.get_close_matches(str(value), enums.get(typ[5:], ()), n=1, cutoff=0.6) \
                    if typ.startswith("enum:") else []
                diags.append(Diagnostic("E504", f"field `{key}` must be {want}, not {value!r}",
                                        _span(file, value_node), suggestion=close[0] if close else None))
                rejected.add(key)
                continue
            row[key] = value
        missing = [name for name, (_, has_default) in fields.items()
                   if not has_default and name not in row and name not in rejected]
        if missing:
            diags.append(Diagnostic("E505", f"this row gives no `{missing[0]}`, which kind `{kind}` needs",
                                    _span(file, item)))
            continue
        rows.extend(dict(row) for _ in range(copies))
    return rows, diags
