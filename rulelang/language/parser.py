"""Parse rule text with the Lark grammar into the typed nodes of `nodes.py`.

The tree becomes nodes in to_nodes.py (one method per grammar rule; the declarations' in
declaration_rules.py); here: the grammar and its prebuilt tables, syntax errors as Diagnostics
with the line and column of the offending token, the size and nesting bounds, and `include`.

A rule file is untrusted input: before the tree is turned into nodes, `nesting_diagnostics`
measures it without recursion and refuses a file longer than SOURCE_LIMIT, blocks nested
deeper than NESTING_LIMIT, `else if` chains longer than ELSE_IF_LIMIT and expressions (or
types) nested deeper than EXPR_DEPTH_LIMIT. Every later pass (checker, lints, compiler, the
engine's code generator) recurses over the nodes, and these bounds keep all of them far from
Python's recursion limit. The transformer itself walks the tree with an explicit stack.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import stat
import unicodedata
from importlib import resources
from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import nodes as n
from ..core.errors import Diagnostic, RuleError, Span
from ..core.limits import ELSE_IF_LIMIT, EXPR_DEPTH_LIMIT, NESTING_LIMIT, SOURCE_LIMIT
from ..core.textsafe import not_utf8
from .spans import _PLAIN, _Where, _make_span, _tok_span
from .to_nodes import _ToNodes


def _grammar_file(name: str) -> str:
    """A file of the grammar's package data (rulelang.grammar); a source checkout has them in grammar/."""
    try:
        return resources.files("rulelang.grammar").joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parents[2] / "grammar" / name).read_text(encoding="utf-8")


def grammar_text() -> str:
    return _grammar_file("rulelang.lark")


# Building the LALR tables from the grammar takes ~0.3 s, in every process that parses. They ship
# ready-made beside the grammar (`python -m rulelang.language.parser --tables` writes them; a test fails when
# they are stale): plain JSON, part of the package like the grammar itself, used only when they
# were made from this very grammar by this version of Lark — else the tables are built as before.
TABLES = "rulelang.tables.json"
_TUPLE, _KEYED = "\u0000tuple", "\u0000keyed"      # how tuples and dicts with non-text keys are written


def _build(text: str) -> Lark:
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                start=["start", "fragment"])


def _tagged(x):
    if isinstance(x, dict):
        if all(type(k) is str for k in x):
            return {k: _tagged(v) for k, v in x.items()}
        return {_KEYED: [[_tagged(k), _tagged(v)] for k, v in x.items()]}
    if isinstance(x, list):
        return [_tagged(v) for v in x]
    if isinstance(x, tuple):
        return {_TUPLE: [_tagged(v) for v in x]}
    return x


def _untagged(obj: dict):
    if len(obj) == 1:
        if _TUPLE in obj:
            return tuple(obj[_TUPLE])
        if _KEYED in obj:
            return dict(obj[_KEYED])
    return obj


def tables_json(text: str) -> str:
    """The LALR tables Lark builds from the grammar `text`, as JSON (see TABLES)."""
    import lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    data, memo = _build(text).memo_serialize([TerminalDef, Rule])
    doc = {"grammar": hashlib.sha256(text.encode("utf-8")).hexdigest(), "lark": lark.__version__,
           "tables": _tagged({"data": data, "memo": memo})}
    return json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n"


def _shipped(text: str) -> Lark | None:
    """The shipped tables, if they were made from `text` by this Lark (else None: build them)."""
    import lark
    try:
        doc = json.loads(_grammar_file(TABLES), object_hook=_untagged)
        if doc.get("grammar") != hashlib.sha256(text.encode("utf-8")).hexdigest() or doc.get("lark") != lark.__version__:
            return None
        return Lark.load(doc["tables"])
    except Exception:                  # (missing, unreadable, from another Lark: build them instead)
        return None


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    text = grammar_text()
    return _shipped(text) or _build(text)


_FRIENDLY = {"NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "end of file"}


def _character(ch: str) -> str:
    """A character as an error names it: itself, or — where it shows as a blank, as nothing or not
    as itself (a no-break space pasted from a web page read as `` ` ` ``: a fuzz trial; a
    right-to-left override) — its code and name."""
    if ch.isprintable() and not ch.isspace() and unicodedata.category(ch)[0] not in "CZ":
        return f"`{ch}`"
    name = unicodedata.name(ch, "")
    return (f"U+{ord(ch):04X}{f' ({name.lower()})' if name else ''}, which does not show as itself: delete it "
            f"(or type a plain space, if it stood for one)")


def _expected(parser: Lark, names) -> str:
    """The expected tokens, readable; a closing brace first, since it is the one most often missing."""
    shown = []
    for name in sorted(names):
        if name in _FRIENDLY:
            shown.append(_FRIENDLY[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
            shown.append(f"`{pattern.value}`" if pattern.type == "str" else name.lower())
        except KeyError:
            shown.append(name.lower())
    shown = sorted(set(shown), key=lambda t: (t != "`}`", t))
    if len(shown) > 8:
        shown = shown[:8] + ["…"]
    return ", ".join(shown)


def _in_order(text: str, words: tuple) -> bool:
    """Does `text` hold these words (or signs) in this order? One pass each, no backtracking."""
    at = 0
    for w in words:
        found = re.compile(r"\b" + re.escape(w) + r"\b" if w.isidentifier() else re.escape(w)).search(text, at)
        if found is None:
            return False
        at = found.end()
    return True


def _open_bracket(text: str) -> str:
    """`text` from its last bracket left open (`[` or `(`) on; '' when none is."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        ch = text[i]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                return text[i:]
            depth -= 1
    return ""


def _since_last(text: str, word: str) -> str:
    """`text` from the last whole `word` in it on (all of it when there is none)."""
    found = None
    for found in re.finditer(r"\b" + re.escape(word) + r"\b", text):
        pass
    return text[found.start():] if found is not None else text


def _expects(parser: Lark, names, literal: str) -> bool:
    """Whether one of the expected tokens is exactly `literal`."""
    for name in names:
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value == literal:
            return True
    return False


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines())


def _included_by(file: str) -> str:
    """`, games/NAME.rules`: a rule file beside the part's folder that includes it, if one does
    (a first hour: linting a shipped game's part file said only "expected `game`")."""
    import os
    folder = os.path.dirname(os.path.abspath(file))
    name = os.path.basename(folder) + "/" + os.path.basename(file)
    try:
        for candidate in sorted(os.listdir(os.path.dirname(folder)))[:200]:
            path = os.path.join(os.path.dirname(folder), candidate)
            if candidate.endswith(".rules") and os.path.isfile(path) and os.path.getsize(path) < 2_000_000:
                with open(path, encoding="utf-8", errors="replace") as f:
                    if f'include "{name}"' in f.read():
                        return ", " + os.path.relpath(path)
    except OSError:
        pass
    return ""


_NOT_IN = re.compile(r"not\s+in\b")       # (`x not in xs`: there is no such operator)


def syntax_diagnostic(file: str, source: str, err: UnexpectedInput) -> Diagnostic:
    parser = _lark()
    if isinstance(err, UnexpectedToken) and err.token.type == "$END" or isinstance(err, UnexpectedEOF):
        lines = source.splitlines() or [""]
        line = len(lines)
        col = len(lines[-1]) + 1
        names = getattr(err, "expected", ()) or ()
        expected = _expected(parser, names)
        hint = " (a `}` may be missing)" if "RBRACE" in names else ""
        return Diagnostic("E001", f"unexpected end of file; expected {expected}{hint}", Span(file, line, col, line, col + 1))
    where = _Where(source)
    if isinstance(err, UnexpectedCharacters):
        ch = source[err.pos_in_stream] if err.pos_in_stream < len(source) else "?"
        rest = source[err.pos_in_stream + 1:].split("\n", 1)[0]
        if ch == '"' and '"' not in rest:
            return Diagnostic("E002", "this string is not closed: a `\"` is missing before the end of the line "
                              "(a long text is several strings side by side, one a line)",
                              _make_span(file, where, err.line, err.column, err.line, err.column + 1))
        return Diagnostic("E002", f"unexpected character {_character(ch)}",
                          _make_span(file, where, err.line, err.column, err.line, err.column + 1))
    tok = err.token
    expected = _expected(parser, err.expected)
    text = str(tok)
    after = source[tok.end_pos:].lstrip(" \t")[:1] if tok.end_pos is not None else ""
    # a keyword followed by what follows a name (`score = 1`, `table: int`): meant as a name
    reserved = (tok.type != "NAME" and text.isidentifier() and "NAME" in err.expected
                and after in ("=", ":", "[", ".", "+", "-"))
    hint = f" (`{text}` is a reserved word and cannot be used as a name here)" if reserved else ""
    declared = re.search(r"\b(let|for)\s+" + re.escape(text) + r"\b", source[:tok.start_pos or 0]) if reserved else None
    if declared is not None:                 # (a new author's `let side = 1`: accepted, then `side = 2` refused)
        at = source.count("\n", 0, declared.start()) + 1
        hint = (f" (`{text}` is a word of the language: your `{declared.group(1)} {text}` on line {at} names a "
                f"local so, and it cannot be read back: give it another name)")
    # (the hints read the line before the token, at most its last 400 characters, each test in one
    # pass: a 10 KB line of `[for` took a minute through a pattern with two `.*`)
    line_before = source[:tok.start_pos].rsplit("\n", 1)[-1][-400:] if tok.start_pos is not None else ""
    last_line = source[:tok.start_pos or 0].rstrip().rsplit("\n", 1)[-1][-400:]    # (the last one not blank)
    if text == "{" and not source[:tok.start_pos or 0].strip() and '"rulelang_save"' in source[:400]:
        hint = " (this is a saved match, not rules: `rulelang play FILE` goes on with it)"
    elif text in ("{", "[") and not source[:tok.start_pos or 0].strip():
        hint = (" (this looks like JSON: lint reads rule files; a compiled game is checked as it loads, "
                "`rulelang play FILE.json`)")
    elif expected == "`game`" and text.isidentifier() and _only_comments(source[:tok.start_pos or 0]):
        hint = (" (a rule file is one `game \"Name\" { … }` block; a file of declarations alone is part of "
                "another, which reads it with `include`: lint that one" + _included_by(file) + ")")
    elif text == "for" and _in_order(_open_bracket(source[:tok.start_pos or 0][-400:]), ("for", "where")):
        # (in brackets of any kind, `sum(… for … where … for …)` too, and over lines — a new author's)
        hint = " (in a list made with `for`, `where` comes after the last `for`: `[x for a in A for x in B where …]`)"
    elif _expects(parser, err.expected, "in") and _in_order(last_line, ("create", "cards", "where", "in")):
        # (a new author's `where (pile == k) in supply[k]` ended in a bracket, not a name: the hint misled)
        hint = (" (in `create cards K where COND in ZONE`, a condition ending in a name or a bracket takes "
                "`in ZONE` as a test of membership: end it with a comparison, `where starter == true in deck`, "
                "`where (a or b) == true in deck`)")
    elif text == "about" and not _expects(parser, err.expected, "about"):
        # (a new author's Bridge wrote `about action bid "…"` inside its step: "expected `}`, `action`")
        hint = (" (`about` is written at the top level of the game, beside the steps, not inside one: "
                "`about action NAME \"…\"`)")
    elif text == "where" and re.search(r"\bfor\s+[A-Za-z_]\w*\s+in\b[^\[\]]*$", line_before):
        # (a new author's Hold'em: `for p in order where chips[p] > 0 {` read "expected `{`")
        hint = (" (a `for` statement takes no `where`: loop over a list made with one, "
                "`for p in [q for q in L where C] { … }`, or test with an `if` inside)")
    elif re.search(r"\bdef\s+[A-Za-z_]\w*\s*(\([^()]*\))?\s*(:[\w ]+)?=\s*let\s*$", source[:tok.start_pos or 0][-400:]):
        # (a new author's Cribbage: `def total = let t = 3` read "unexpected `t`; expected `}`, `about`, …")
        hint = (" (a `def` is one expression, and `let` is a statement: write the value itself, or give the "
                "part a def of its own, `def t = …`)")
    elif text == "=" and _expects(parser, err.expected, "=="):
        hint = " (to compare, write `==`)"
    elif text == "not" and re.search(r"[\w)\]]\s*$", line_before) and _NOT_IN.match(source, tok.start_pos or 0):
        # (a new author's Yahtzee: `if b not in used` read "unexpected `not`; expected `)`")
        hint = " (there is no `not in`: write `not (x in xs)`)"
    elif text == "+" and re.search(r"\bfinish\b", line_before) and not _in_order(line_before, ("finish", '"')):
        hint = " (a `finish` reason must start with a string: `\"\" + text(me) + \" wins\"`)"
    elif re.search(r"\bfinish\s+(win|lose)\s+(?!for\b)[A-Za-z_]\w*\s*$", line_before):
        hint = " (who wins or loses takes `for`: `finish win for me`)"
    elif re.search(r"\bfinish\s+(win|lose|draw|by\s+score)\s*$", line_before) and text == "(" or \
            re.search(r"\bfinish\s+(win|lose)\s+for\s+\S+\s+[A-Za-z_]\w*\s*$", line_before):
        hint = " (a `finish` reason must start with a string: `\"\" + (…)`, `\"\" + why`)"
    elif re.search(r"\bfinish\s+(?:(?:win|lose)\s+for\s+\S+|draw|by\s+score)\s+([A-Za-z_]\w*)\s*$",
                   source[:tok.start_pos or 0][-300:]):
        # (a new author's Jaipur: `finish by score why` in a proc, `why` read as the next statement —
        # "unexpected `}`" on the line after, with no word of the reason)
        name = re.search(r"([A-Za-z_]\w*)\s*$", source[:tok.start_pos or 0]).group(1)
        hint = f" (a `finish` reason must start with a string: `finish … \"\" + {name}`)"
    elif text == "[" and re.fullmatch(r"\s*[A-Za-z_]\w*\[[^\[\]]*\]\s*", line_before):
        # (a new author's `prog[me][c2] = 1`: the same read says E201 "name one of each, `prog[me, c2]`")
        name, first = re.fullmatch(r"\s*([A-Za-z_]\w*)\[([^\[\]]*)\]\s*", line_before).groups()
        if re.search(r"\bvar\s+" + re.escape(name) + r"\s*:\s*list\b", source):
            # (a new author's Backgammon: `cnt[me][f] -= 1` of a `list[int]` was sent to `cnt[me, …]`)
            hint = (f" (`{name}` holds lists, and an element of a list is not set alone: give `{name}[{first.strip()}]` "
                    f"a whole list anew, or keep a variable per element — `var … per cell`, `per player`, `per` a kind)")
        else:
            hint = (f" (a variable or zone of several parts takes them in one pair of brackets: "
                    f"`{name}[{first.strip()}, …]`)")
    elif text.isdigit() and re.search(r"\d\.$", line_before):
        # (a new author's Go: komi `7.5` read "unexpected `5`; expected a name")
        hint = " (numbers are whole: no fractions — count in halves, say, `15` for 7.5, and compare doubled values)"
    elif re.search(r"\belif\s*$", line_before):
        hint = " (write `else if`)"
    elif text == "in" and re.search(r"\bcreate\s+[A-Za-z_]\w*\s*$", line_before):
        kind = re.search(r"\bcreate\s+([A-Za-z_]\w*)\s*$", line_before).group(1)
        hint = f" (a kind is made with its fields in brackets, even none: `create {kind}() in …`)"
    elif text == "as" and _in_order(_since_last(source[:tok.start_pos or 0][-400:], "action"), ("action", "require")):
        # (over lines too: a new author's `require` on the line after `action place(…)` got no hint)
        hint = " (an action's `as` text comes before its `require`: `action bid(q in 1..3) as \"bid \" + text(q) require q > 1 { … }`)"
    elif text in ("(", ")") and re.search(r"(?:^|[\s{;])(" + "|".join(STATEMENT_WORDS) + r")\s*\(?\s*$", line_before):
        word = re.search(r"(\w+)\s*\(?\s*$", line_before).group(1)
        hint = (f" (`{word}` begins a statement of its own, so a `proc {word}` cannot be called: give the "
                f"procedure another name)")
    elif re.search(r"(?:^|\W)can\s*$", line_before) and re.search(r"\b(let|for)\s+can\b", source):
        # (a new author's `let can = 3`: accepted, then `if can > 2` read "expected a name", no word why)
        hint = " (`can` is a word of the language, so your local `can` cannot be read: give it another name)"
    elif text in ("(", ")", "{") and re.search(r"(?:^|\W)(" + "|".join(EXPRESSION_WORDS) + r")\s*\(?\s*$", line_before):
        # (a new author's `def can(…)`: accepted, and every `can(…)` a syntax error at the call)
        word = re.search(r"(\w+)\s*\(?\s*$", line_before).group(1)
        declared = re.search(r"\b(def|proc)\s+" + word + r"\s*\(", source) is not None
        hint = (f" (`{word}` is a word of the language" + (
            f", so your `{'def' if 'def ' + word in source else 'proc'} {word}` cannot be called: give it another name)"
            if declared else ": it is not a function)"))
    elif re.fullmatch(r"\s*(action|step|def|proc|zone|var|kind|phase|on)\s+", line_before):
        word = line_before.split()[0]
        hint = f" (this `{word}` is read inside the block above it: a `}}` may be missing before it)"
    elif expected == "`=`" and not line_before.strip() and re.match(r"\s*var\s", last_line):
        # (said where the `var` ends, not at the next line's first word: a new author's `var trumps:
        # Suit` read "5:3: unexpected `turn`" about the line after it)
        ended = source[:tok.start_pos].rstrip()
        ended = ended[:ended.rfind("\n") + 1] + ended[ended.rfind("\n") + 1:].split("#")[0].rstrip()
        line, column = ended.count("\n") + 1, len(ended) - ended.rfind("\n")
        declared = " ".join(last_line.split("#")[0].split())
        return Diagnostic("E001", f"`{declared}` has no starting value: a `var` needs one, "
                          f"`{declared} = …` (the next word, `{text}`, is on line {tok.line})",
                          _make_span(file, where, line, column, line, column + 1))
    return Diagnostic("E001", f"unexpected `{text}`; expected {expected}{hint}", _tok_span(file, tok, where))


# The words a statement begins with: a procedure so named cannot be called (`resolve()` reads as
# `resolve triggers` gone wrong — a new author's worker placement named its phase so).
STATEMENT_WORDS = ("resolve", "reveal", "shuffle", "move", "emit", "open", "log", "eliminate", "choose", "may",
                   "create", "run", "repeat", "finish", "goto", "append", "remove", "modify", "readmit",
                   "let", "if", "for", "end", "refuse")


# Words of expressions that cannot be called, though a `def` may take their name (`can HOOK(…) of
# c`, `none`, `true`, …): `can(1)` is a syntax error at the call.
EXPRESSION_WORDS = ("can", "none", "true", "false")


# ---- limits on size and nesting ------------------------------------------------------------

# The grammar's expression rules (after `?` inlining): each one is a level of expression nesting.
_EXPR_RULES = frozenset({
    "cond_expr", "or_op", "and_op", "not_op", "eq", "ne", "lt", "le", "gt", "ge", "member", "range",
    "add", "sub", "mul", "div", "mod", "neg", "attr", "index", "int_lit", "str_lit", "true_lit",
    "false_lit", "none_lit", "name", "call", "make", "aggregate", "list_lit", "list_comp", "can_expr",
    "comprehension", "reason_text", "reason_more"})                   # (an aggregate and its comprehension are two levels in the IR)
# (a `choose`'s and a `may`'s blocks count too: a hundred nested `may` linted clean, then failed to
# compile — a fuzz trial)
_BLOCK_STMTS = frozenset({"if_stmt", "for_stmt", "while_stmt", "repeat_stmt", "choose_stmt", "may_stmt",
                          "open_resolve"})
_MAX_REPORTS = 20                 # nesting diagnostics per file: the first few make the point


def _meta_span(file: str, tree: Tree, where: _Where) -> Span:
    meta = tree.meta
    if getattr(meta, "empty", True) or not hasattr(meta, "line"):
        return Span(file, 1, 1)
    return _make_span(file, where, meta.line, meta.column, meta.end_line, meta.end_column)


def nesting_diagnostics(tree: Tree, file: str, where: _Where = _PLAIN) -> list[Diagnostic]:
    """Blocks, `else if` chains, expressions and types nested beyond the limits (E004, E005).

    Walks the Lark tree with an explicit stack, so any depth is measured safely. Each finding
    is reported once, at the first construct past the limit, and its inside is not searched further.
    State per node: (blocks it is inside, else-if links on its path, expression depth, type depth,
    parent rule, the outermost expression or type it is part of)."""
    out: list[Diagnostic] = []
    too_deep: set[int] = set()            # outermost expressions already reported
    stack = [(tree, 0, 0, 0, 0, None, None)]
    while stack and len(out) < _MAX_REPORTS:
        node, blocks, links, depth, types, parent, outer = stack.pop()
        if not isinstance(node, Tree) or id(outer) in too_deep:
            continue
        rule = node.data
        if rule in _BLOCK_STMTS and blocks >= NESTING_LIMIT and not (rule == "if_stmt" and parent == "if_stmt"):
            out.append(Diagnostic("E004", f"blocks nested more than {NESTING_LIMIT} deep (`if`, `for`, `while`, "
                                          f"`repeat`, `choose`, `may` inside one another): move the inner part "
                                          f"into a `proc`",
                                  _meta_span(file, node, where)))
            continue
        if rule == "block" and parent in _BLOCK_STMTS:
            blocks += 1
        elif rule == "if_stmt" and parent == "if_stmt":
            links += 1
            if links > ELSE_IF_LIMIT:
                out.append(Diagnostic("E004", f"more than {ELSE_IF_LIMIT} `else if` branches lead to this one "
                                              f"(counting the chains it is nested in): split the chain, e.g. "
                                              f"with a table or a `proc`", _meta_span(file, node, where)))
                continue
        elif rule in _EXPR_RULES:
            depth += 1
            outer = node if depth == 1 else outer
            if depth > EXPR_DEPTH_LIMIT:
                too_deep.add(id(outer))
                out.append(Diagnostic("E005", f"an expression nested more than {EXPR_DEPTH_LIMIT} deep (each operator, "
                                              f"call or list is a level, and so is each term of an `a + b + …` "
                                              f"chain): split it with `let` or a `def`",
                                      _meta_span(file, node, where)))
                continue
        elif rule == "list_type":
            types += 1
            outer = node if types == 1 else outer
            if types > EXPR_DEPTH_LIMIT:
                too_deep.add(id(outer))
                out.append(Diagnostic("E005", f"a type nested more than {EXPR_DEPTH_LIMIT} deep",
                                      _meta_span(file, node, where)))
                continue
        elif rule not in ("args", "kwargs", "kwarg", "where_part", "by_part", "comp_for"):   # (a comprehension's
            # further `for`s are inside it: each started the count anew — a fuzz trial)
            depth = 0                     # a statement or declaration part: a new expression starts below
        for child in reversed(node.children):       # leftmost first: report the first place in the text
            stack.append((child, blocks, links, depth, types, rule, outer))
    out.sort(key=lambda d: (d.span.line, d.span.column))
    return out


INCLUDE_DEPTH_LIMIT = 8          # files included from included files
INCLUDE_FILES_LIMIT = 200        # files in one game


BOM = "\ufeff"


def _parse_one(source: str, file: str, start: str):
    source = source.removeprefix(BOM)
    if len(source) > SOURCE_LIMIT:
        raise RuleError([Diagnostic("E003", f"the rule file has {len(source):,} characters, more than the limit of "
                                            f"{SOURCE_LIMIT:,}", Span(file, 1, 1))], {file: source})
    try:
        tree = _lark().parse(source, start=start)
    except UnexpectedInput as err:
        raise RuleError([syntax_diagnostic(file, source, err)], {file: source}) from None
    where = _Where(source)
    found = nesting_diagnostics(tree, file, where)
    if found:
        raise RuleError(found, {file: source})
    try:
        return _ToNodes(file, where).transform(tree)
    except RuleError as err:               # (a word the grammar could not tell apart: `text` expected)
        raise RuleError(err.diagnostics, {file: source}) from None


def _include_path(base: Path, written: str, span: Span) -> Path:
    """The file an `include` names: relative, inside the main rule file's folder, a `.rules` file."""
    def bad(why: str) -> RuleError:
        return RuleError([Diagnostic("E007", f"cannot include {written!r}: {why}", span)])
    if "\0" in written:                   # (the operating system refuses it in any file name)
        raise bad("a file name cannot hold a NUL byte (\\0)")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in written) or len(written) > 1000:
        # (as a compiled game's `line_files` may not: linted clean, every load refused — a review)
        raise bad("a file name of printable characters, at most 1,000 of them")
    rel = Path(written)
    if rel.is_absolute() or ".." in rel.parts or not written or "\\" in written:
        raise bad("the path must be relative to the rule file and stay in its folder")
    if rel.suffix != ".rules":
        raise bad("only `.rules` files can be included")
    path = (base / rel)
    try:
        if not path.resolve().is_relative_to(base.resolve()):
            raise bad("the path leads out of the rule file's folder")
        if not path.is_file():              # (a FIFO or a folder of that name: not "no such file")
            raise bad("not a regular file" if path.exists() else "no such file")
    except OSError as err:
        raise bad(err.strerror or str(err)) from None
    except RuntimeError:                    # (pathlib: a loop of symbolic links)
        raise bad("a loop of symbolic links") from None
    except ValueError:                      # a NUL byte in the rule file's own path (an editor's document name)
        raise bad("the rule file's own path holds a NUL byte, so no file beside it can be found") from None
    return path


def _read_included(path: Path) -> str:
    """An included file's text (at most SOURCE_LIMIT + 1 characters): opened without waiting, so a
    FIFO put in its place after the check cannot block, and read only if it is a regular file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with open(fd, encoding="utf-8", closefd=True) as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("not a regular file")
        return f.read(SOURCE_LIMIT + 1)


@functools.lru_cache(maxsize=1)
def statement_words() -> frozenset:
    """The words of the language a statement cannot start with as a name once another statement came
    before it (`n += 1  respond = 2`: `respond` is read as the language's word). A variable or a
    procedure so named is declared all the same (W267). Found by the grammar itself: each word, tried."""
    words = {t.pattern.value for t in _lark().terminals if t.pattern.type == "str" and t.pattern.value.isidentifier()}
    refused = set()
    for word in words:
        try:
            _lark().parse(f'game "W" {{\n players 2\n turn {{ step s {{ action a {{ n += 1\n {word} = 1\n }} }} }}\n}}\n', start="start")
        except UnexpectedInput:
            refused.add(word)
    return frozenset(refused)


def parse(source: str, file: str = "<rules>") -> n.Game:
    """Parse a whole rule file, with the files it includes; raises RuleError with a syntax
    diagnostic, or with the nesting diagnostics of a file too large or too deeply nested to be
    read safely. Included files are found beside the rule file (never outside its folder)."""
    source = source.removeprefix(BOM)       # (an editor's byte-order mark: not a character of the rules)
    game = _parse_one(source, file, "start")
    if not any(isinstance(d, tuple) for d in game.decls):
        return game
    base = Path(file).parent
    sources = {file: source}
    total = [len(source)]

    def expand(decls, depth: int, chain: tuple) -> list:
        out = []
        for d in decls:
            if not isinstance(d, tuple):
                out.append(d)
                continue
            _, written, span = d
            if depth >= INCLUDE_DEPTH_LIMIT:
                raise RuleError([Diagnostic("E007", f"includes nested more than {INCLUDE_DEPTH_LIMIT} deep", span)],
                                sources)
            path = _include_path(base, written, span)
            key = str(path.resolve())
            if key in chain:
                raise RuleError([Diagnostic("E007", f"{written!r} includes itself", span)], sources)
            if len(sources) >= INCLUDE_FILES_LIMIT:
                raise RuleError([Diagnostic("E007", f"more than {INCLUDE_FILES_LIMIT} included files", span)], sources)
            try:
                text = _read_included(path)
            except UnicodeDecodeError:
                why = f"{path}:{not_utf8(path, 4 * SOURCE_LIMIT + 4)}"
                raise RuleError([Diagnostic("E007", f"cannot include {written!r}: {why}", span)], sources) from None
            except OSError as err:
                raise RuleError([Diagnostic("E007", f"cannot include {written!r}: {err.strerror or err}", span)],
                                sources) from None
            total[0] += len(text)
            if total[0] > SOURCE_LIMIT:
                raise RuleError([Diagnostic("E003", f"the rule files together have more than {SOURCE_LIMIT:,} "
                                                    f"characters", span)], sources)
            name = str(path)
            sources[name] = text
            try:
                inner = _parse_one(text, name, "fragment")
            except RuleError as err:
                raise RuleError(err.diagnostics, {**sources, **err.sources}) from None
            out.extend(expand(inner, depth + 1, chain + (key,)))
        return out
    try:
        own = str(Path(file).resolve())
    except (OSError, RuntimeError, ValueError):   # a name no file has (an editor's unsaved document): as given
        own = str(file)
    decls = expand(game.decls, 0, (own,))
    return n.Game(game.span, game.name, tuple(decls), tuple(sources.items()))


if __name__ == "__main__":                 # python -m rulelang.language.parser --tables: write grammar/rulelang.tables.json
    import sys
    if sys.argv[1:] != ["--tables"]:
        sys.exit("usage: python -m rulelang.language.parser --tables")
    out = Path(__file__).resolve().parents[2] / "grammar" / TABLES
    out.write_text(tables_json(grammar_text()), encoding="utf-8")
    print(f"wrote {out}")
