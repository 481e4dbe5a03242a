"""Parse rule text with the Lark grammar into the typed nodes of `nodes.py`.

One Transformer method per grammar rule, nothing else in it; syntax errors become
Diagnostics with the line and column of the offending token.

A rule file is untrusted input: before the tree is turned into nodes, `nesting_diagnostics`
measures it without recursion and refuses a file longer than SOURCE_LIMIT, blocks nested
deeper than NESTING_LIMIT, `else if` chains longer than ELSE_IF_LIMIT and expressions (or
types) nested deeper than EXPR_DEPTH_LIMIT. Every later pass (checker, lints, compiler, the
engine's code generator) recurses over the nodes, and these bounds keep all of them far from
Python's recursion limit. The transformer itself walks the tree with an explicit stack.
"""
from __future__ import annotations

import bisect
import functools
import hashlib
import json
import os
import re
import stat
from importlib import resources
from pathlib import Path
from dataclasses import replace

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import nodes as n
from ..core.errors import Diagnostic, RuleError, Span
from ..core.limits import ELSE_IF_LIMIT, EXPR_DEPTH_LIMIT, INT_LIMIT, NESTING_LIMIT, SOURCE_LIMIT


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


_ODD_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK = re.compile("\r\n|[\n" + _ODD_BREAKS + "]")


class _Where:
    """Lark ends a line at a newline only; a diagnostic's caret line is found with str.splitlines,
    which also ends one at a carriage return, a form feed, U+2028 and a few more. For a text with
    such a character (compiled from a string, not read from a file), Lark's (line, column) is
    turned into the one splitlines sees."""

    def __init__(self, source: str):
        self.odd = any(ch in source for ch in _ODD_BREAKS)
        if self.odd:
            self.newlines = [0] + [m.end() for m in re.finditer("\n", source)]
            self.starts = [0] + [m.end() for m in _BREAK.finditer(source)]

    def __call__(self, line: int, column: int) -> tuple[int, int]:
        if not self.odd or not line or line > len(self.newlines):
            return line, column
        offset = self.newlines[line - 1] + column - 1
        i = bisect.bisect_right(self.starts, offset)
        return i, offset - self.starts[i - 1] + 1


_PLAIN = _Where("")


def _make_span(file: str, where: _Where, line: int, column: int, end_line: int, end_column: int) -> Span:
    line, column = where(line, column)
    end_line, end_column = where(end_line, end_column)
    return Span(file, line, column, end_line, end_column)


def _span(file: str, meta, where: _Where = _PLAIN) -> Span:
    if getattr(meta, "empty", True) and not hasattr(meta, "line"):
        return Span(file, 0, 0)
    return _make_span(file, where, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(file: str, tok: Token, where: _Where = _PLAIN) -> Span:
    return _make_span(file, where, tok.line, tok.column, tok.end_line or tok.line,
                      tok.end_column or tok.column + len(tok))


def _int(tok: Token) -> int:
    """A number literal; one of more digits than any number a rule may hold stands as INT_LIMIT + 1,
    which the checker refuses (E203), without making Python read thousands of digits."""
    return int(tok) if len(tok) <= 20 else INT_LIMIT + 1


def _unescape(raw: str) -> str:
    body = raw[1:-1]
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _clauses(parts) -> tuple:
    """The `where C` and `from Z, …` clauses of an ability, in either order."""
    where = next((x[1] for x in parts if isinstance(x, tuple) and x[:1] == ("where",)), None)
    zones = next((x[1] for x in parts if isinstance(x, tuple) and x[:1] == ("zones",)), None)
    return where, zones


class _ToNodes:
    """Lark tree to nodes: the method named after a rule gets the rule's meta (its position) and its
    children, already turned into nodes; a rule without a method stays a Tree of its turned children."""

    def __init__(self, file: str, where: _Where = _PLAIN):
        self.file = file
        self.where = where

    def transform(self, tree: Tree):
        """Bottom up, with an explicit stack (a tree may be deep), as lark's Transformer_NonRecursive
        does, but calling the methods directly: its per-call wrappers (v_args) cost ~40% of the time."""
        postfix = []                       # every subtree and token, parents before children, reversed below
        todo = [tree]
        while todo:
            t = todo.pop()
            postfix.append(t)
            if isinstance(t, Tree):
                todo += t.children
        methods = _RULE_METHODS
        stack: list = []
        for x in reversed(postfix):
            if isinstance(x, Tree):
                size = len(x.children)
                if size:
                    args = stack[-size:]
                    del stack[-size:]
                else:
                    args = []
                f = methods.get(x.data)
                stack.append(f(self, x.meta, args) if f is not None else Tree(x.data, args, x.meta))
            else:
                stack.append(x)
        result, = stack
        return result

    def sp(self, meta) -> Span:
        return _span(self.file, meta, self.where)

    def tsp(self, tok: Token) -> Span:
        return _tok_span(self.file, tok, self.where)

    # ---- top level ----
    def start(self, meta, c):
        return c[0]

    def game(self, meta, c):
        decls = []
        for d in c[1:]:                          # a `turn { ... }` block yields its steps
            decls.extend(d if isinstance(d, list) else [d])
        return n.Game(self.sp(meta), _unescape(c[0]), tuple(decls))

    def players_decl(self, meta, c):
        ranking = c.pop() if c and isinstance(c[-1], tuple) else ()
        low = _int(c[0])
        return n.Players(self.sp(meta), low, _int(c[1]) if len(c) > 1 else low, ranking)

    def ranking(self, meta, c):
        return tuple(c)

    def option_decl(self, meta, c):
        return n.OptionDecl(self.sp(meta), str(c[0]), c[1], c[2])

    def enum_decl(self, meta, c):
        return n.EnumDecl(self.sp(meta), str(c[0]), tuple(c[1:]))

    def enum_item(self, meta, c):
        about = c.pop() if len(c) > 1 and isinstance(c[-1], tuple) else None
        return n.EnumItem(self.sp(meta), str(c[0]), _unescape(c[1]) if len(c) > 1 else str(c[0]),
                          about[1] if about else None)

    def item_text(self, meta, c):
        return ("text", self._text_words(c[0], c[1:]))

    def _text_words(self, word, strings) -> str:
        """`text "…" "…"`: the words joined; any other word there is a syntax error."""
        if str(word) != "text":
            raise RuleError([Diagnostic("E001", f"unexpected `{word}`; expected `text` (the rules text) or `:`",
                                        self.tsp(word))])
        return "".join(_unescape(s) for s in strings)

    def table_decl(self, meta, c):
        return n.TableDecl(self.sp(meta), str(c[0]), tuple(c[1:]))

    def table_entry(self, meta, c):
        return (c[0], c[1])

    def kind_decl(self, meta, c):
        fields = tuple(x for x in c[1:] if isinstance(x, n.Field))
        texts = [x[1] for x in c[1:] if isinstance(x, tuple)]
        labels = [x for x in c[1:] if not isinstance(x, (n.Field, tuple))]
        return n.KindDecl(self.sp(meta), str(c[0]), fields, labels[-1] if labels else None,
                          texts[-1] if texts else None)

    def kind_text(self, meta, c):
        if str(c[0]) != "text":
            raise RuleError([Diagnostic("E001", f"unexpected `{c[0]}`; expected `:` (a field), `label` or `text`",
                                        self.tsp(c[0]))])
        return ("text", c[1])

    def field(self, meta, c):
        return n.Field(self.sp(meta), str(c[0]), c[1], c[2] if len(c) > 2 else None)

    def label(self, meta, c):
        return c[0]

    def zone_decl(self, meta, c):
        name, shape, rest = c[0], c[1], c[2:]
        pers = [x for x in rest if isinstance(x, tuple)]
        per = pers[0] if pers else None
        mods = tuple(x for x in rest if isinstance(x, n.Modifier))
        return n.ZoneDecl(self.sp(meta), str(name), str(shape), self.tsp(shape),
                          per[0] if per else None, per[1] if per else None, mods, per[2] if per else None,
                          tuple(pers[1:]))

    def board_decl(self, meta, c):
        args = c[2] if len(c) > 2 and isinstance(c[2], list) else []
        mods = tuple(x for x in c[2:] if isinstance(x, n.Modifier))
        return n.BoardDecl(self.sp(meta), str(c[0]), str(c[1]), tuple(args), mods)

    def var_decl(self, meta, c):
        name, typ, init, rest = c[0], c[1], c[2], c[3:]
        pers = [x for x in rest if isinstance(x, tuple)]
        per = pers[0] if pers else None
        mods = tuple(x for x in rest if isinstance(x, n.Modifier))
        return n.VarDecl(self.sp(meta), str(name), typ, init,
                         per[0] if per else None, per[1] if per else None, mods, per[2] if per else None,
                         tuple(pers[1:]))

    def per(self, meta, c):
        return (str(c[0]), self.tsp(c[0]), str(c[1]) if len(c) > 1 else None)

    def modifier(self, meta, c):
        span = self.tsp(c[0])
        if len(c) > 1:
            end = c[1].span
            span = type(span)(span.file, span.line, span.column, end.end_line, end.end_column)
        return n.Modifier(span, str(c[0]), c[1] if len(c) > 1 else None)

    def type(self, meta, c):
        return n.TypeRef(self.sp(meta), str(c[0]))

    def list_type(self, meta, c):
        return n.TypeRef(self.sp(meta), "list", c[0])

    def def_decl(self, meta, c):
        show = isinstance(c[0], Token) and c[0].type == "SHOW"
        if show:
            c = c[1:]
        name = str(c[0])
        params = None
        result = c[-2] if len(c) > 2 and isinstance(c[-2], n.TypeRef) else None
        if result is not None:
            c = c[:-2] + c[-1:]
        if len(c) == 3:
            params = tuple(c[1])
        return n.DefDecl(self.sp(meta), name, params, c[-1], show, result=result)

    def show_decl(self, meta, c):
        return n.ShowDecl(self.sp(meta), _unescape(c[1]), c[2], tuple(x for x in c[3:] if isinstance(x, n.Modifier)))

    def proc_decl(self, meta, c):
        params = tuple(c[1]) if len(c) == 3 else ()
        return n.ProcDecl(self.sp(meta), str(c[0]), params, c[-1])

    def params(self, meta, c):
        return list(c)

    def param(self, meta, c):
        return n.Param(self.sp(meta), str(c[0]), c[1] if len(c) > 1 else None)

    def setup_decl(self, meta, c):
        return n.SetupDecl(self.sp(meta), c[0])

    def turn_decl(self, meta, c):
        return [replace(s, in_turn=True) for s in c]

    def step_decl(self, meta, c):
        name, rest = c[0], c[1:]
        simultaneous = bool(rest) and isinstance(rest[0], Token) and rest[0].type == "SIMULTANEOUS"
        if simultaneous:
            rest = rest[1:]
        actor = None
        if rest and not isinstance(rest[0], (n.ActionDecl, list)):
            actor, rest = rest[0], rest[1:]
        enter: tuple = ()
        reveal: tuple = ()
        actions = []
        for item in rest:
            if isinstance(item, n.ActionDecl):
                actions.append(item)
            elif item[0] == "reveal":
                reveal = reveal + tuple(item[1])
            else:
                enter = enter + tuple(item[1])
        return n.StepDecl(self.sp(meta), str(name), actor, enter, tuple(actions), False, simultaneous, reveal)

    def reveal_block(self, meta, c):
        return ["reveal", c[0]]

    def enter(self, meta, c):
        return ["enter", c[0]]

    def action_decl(self, meta, c):
        name, rest = c[0], list(c[1:])
        params = rest.pop(0) if rest and isinstance(rest[0], list) else []
        body = rest.pop()
        text = rest.pop(0)[1] if rest and isinstance(rest[0], tuple) and rest[0][0] == "as" else None
        require = rest[0] if rest else None
        return n.ActionDecl(self.sp(meta), str(name), tuple(params), require, body, text)

    def action_text(self, meta, c):
        return ("as", c[0])

    def action_params(self, meta, c):
        return list(c)

    def one_param(self, meta, c):
        return n.ActionParam(self.sp(meta), str(c[0]), "one", c[1], None)

    def subset_param(self, meta, c):
        return n.ActionParam(self.sp(meta), str(c[0]), "subset", c[1], c[2] if len(c) > 2 else None)

    def on_decl(self, meta, c):
        name, rest = str(c[0]), list(c[1:])
        params = rest.pop(0) if rest and isinstance(rest[0], list) else None
        body = rest.pop()
        return n.OnDecl(self.sp(meta), name, body, tuple(params) if params is not None else None,
                        rest[0] if rest else None)

    def on_enter(self, meta, c):
        return self._on_zone(meta, c, "enter")

    def on_leave(self, meta, c):
        return self._on_zone(meta, c, "leave")

    def _on_zone(self, meta, c, what: str):
        zone, rest = str(c[0]), list(c[1:])
        params = rest.pop(0) if rest and isinstance(rest[0], list) else None
        body = rest.pop()
        return n.OnDecl(self.sp(meta), what, body, tuple(params) if params is not None else (),
                        rest[0] if rest else None, zone)

    def card_on_enter(self, meta, c):
        return self._card_on_zone(meta, c, "enter")

    def card_on_leave(self, meta, c):
        return self._card_on_zone(meta, c, "leave")

    def _card_on_zone(self, meta, c, what: str):
        zone, rest = str(c[0]), list(c[1:])
        params = rest.pop(0) if rest and isinstance(rest[0], list) else []
        body = rest.pop()
        where, zones = _clauses(rest)
        return n.Ability(self.sp(meta), "on", (what,), tuple(params), where, zones, body, None, zone)

    def names(self, meta, c):
        return [str(x) for x in c]

    def event_decl(self, meta, c):
        return n.SignatureDecl(self.sp(meta), "event", str(c[0]), tuple(c[1]) if len(c) > 1 else ())

    def window_decl(self, meta, c):
        params = next((tuple(x) for x in c[1:] if isinstance(x, list)), ())
        prompt = next((x for x in c[1:] if not isinstance(x, (list, dict))), None)
        body = next((x for x in c[1:] if isinstance(x, dict)), {})
        order, responses = None, []
        for kind, item, where in body.get("items", ()):
            if kind == "prompt":
                if prompt is not None:
                    raise RuleError([Diagnostic("E105", f"window `{c[0]}` is worded twice (`as` and `prompt`): "
                                                        f"keep one", where)])
                prompt = item
            elif kind == "order":
                if str(item) not in ("seat", "first") or order is not None:
                    raise RuleError([Diagnostic("E105", f"`order {item}`: a window's order is `order seat` (in turn, "
                                                        f"the default) or `order first` (the first to answer), once",
                                                where)])
                order = str(item)
            else:
                responses.append(item)
        return n.SignatureDecl(self.sp(meta), "window", str(c[0]), params, prompt, order, tuple(responses))

    def window_body(self, meta, c):
        return {"items": list(c)}

    def window_prompt(self, meta, c):
        return ("prompt", c[0], self.sp(meta))

    def window_order(self, meta, c):
        return ("order", c[0], self.tsp(c[0]))

    def window_respond(self, meta, c):
        name, rest = str(c[0]), list(c[1:])
        body = rest.pop()
        text = _unescape(rest.pop(0)) if rest and isinstance(rest[0], Token) and rest[0].type == "STRING" else None
        where = rest[0] if rest else None
        return ("respond", n.WindowResponse(self.sp(meta), name, text, where, body), None)

    def hook_decl(self, meta, c):
        return n.SignatureDecl(self.sp(meta), "hook", str(c[0]), tuple(c[1]) if len(c) > 1 else ())

    def include_decl(self, meta, c):
        return ("include", _unescape(c[0]), self.tsp(c[0]))

    def anytime_decl(self, meta, c):
        return n.AnytimeDecl(self.sp(meta), c[0])

    def order_decl(self, meta, c):
        return n.OrderDecl(self.sp(meta), c[0])

    def estimate_decl(self, meta, c):
        return n.EstimateDecl(self.sp(meta), c[0])

    def side_decl(self, meta, c):
        return n.SideDecl(self.sp(meta), c[0])

    def about_game(self, meta, c):
        return self._about(meta, "game", None, c)

    def about_win(self, meta, c):
        return self._about(meta, "win", None, c)

    def about_setup(self, meta, c):
        return self._about(meta, "setup", None, c)

    def about_zone(self, meta, c):
        return self._about(meta, "zone", c[0], c[1:])

    def about_step(self, meta, c):
        return self._about(meta, "step", c[0], c[1:])

    def about_action(self, meta, c):
        return self._about(meta, "action", c[0], c[1:])

    def about_option(self, meta, c):
        return self._about(meta, "option", c[0], c[1:])

    def _about(self, meta, what: str, name, strings):
        text = "".join(_unescape(s) for s in strings)
        return n.AboutDecl(self.sp(meta), what, str(name) if name is not None else None, text,
                           self.tsp(name) if name is not None else None)

    def fragment(self, meta, c):
        decls = []
        for d in c:                              # a `turn { ... }` block yields its steps
            decls.extend(d if isinstance(d, list) else [d])
        return decls

    def card_decl(self, meta, c):
        fields = tuple(x for x in c[2:] if isinstance(x, n.CardField))
        abilities = tuple(x for x in c[2:] if isinstance(x, n.Ability))
        texts = [x[1] for x in c[2:] if isinstance(x, tuple) and x[:1] == ("text",)]
        return n.CardDecl(self.sp(meta), str(c[0]), _unescape(c[1]), fields, abilities,
                          "\n\n".join(texts) if texts else None)

    def card_text(self, meta, c):
        return ("text", self._text_words(c[0], c[1:]))

    def card_field(self, meta, c):
        return n.CardField(self.sp(meta), str(c[0]), c[1])

    def card_on(self, meta, c):
        name, rest = str(c[0]), list(c[1:])
        params = rest.pop(0) if rest and isinstance(rest[0], list) else []
        body = rest.pop()
        zones = next((x for x in rest if isinstance(x, tuple) and x[:1] == ("zones",)), None)
        where = next((x[1] for x in rest if isinstance(x, tuple) and x[:1] == ("where",)), None)
        return n.Ability(self.sp(meta), "on", (name,), tuple(params), where,
                         zones[1] if zones is not None else None, body)

    def where_clause(self, meta, c):
        return ("where", c[0])

    def zones(self, meta, c):
        return ("zones", tuple(str(x) for x in c))

    def card_replace(self, meta, c):
        procs = []
        i = 0
        while isinstance(c[i], Token):
            procs.append(str(c[i]))
            i += 1
        params, rest = c[i], list(c[i + 1:])
        body = rest.pop()
        where, zones = _clauses(rest)
        return n.Ability(self.sp(meta), "replace", tuple(procs), tuple(params), where, zones, body)

    def card_modify(self, meta, c):
        where, zones = _clauses(c[3:])
        return n.Ability(self.sp(meta), "modify", (str(c[0]),), tuple(c[1]), where, zones, (), c[2])

    def when_decl(self, meta, c):
        return n.WhenDecl(self.sp(meta), c[0], c[1])

    def limit_decl(self, meta, c):
        return n.LimitDecl(self.sp(meta), c[0], c[1])

    # ---- statements ----
    def block(self, meta, c):
        return tuple(x for x in c if x is not None)

    def empty_stmt(self, meta, c):
        return None

    def move_stmt(self, meta, c):
        dest, pos = c[1] if isinstance(c[1], tuple) else (c[1], "")
        return n.Move(self.sp(meta), c[0], dest, pos)

    def dest_top(self, meta, c):
        return (c[0], "top")

    def dest_bottom(self, meta, c):
        return (c[0], "bottom")

    def shuffle_stmt(self, meta, c):
        return n.Shuffle(self.sp(meta), c[0])

    def eliminate_stmt(self, meta, c):
        if len(c) > 1:
            return n.Eliminate(self.sp(meta), c[0], str(c[1]), self.tsp(c[1]))
        return n.Eliminate(self.sp(meta), c[0])

    def assign(self, meta, c):
        return n.Assign(self.sp(meta), c[0], "=", c[1])

    def add_assign(self, meta, c):
        return n.Assign(self.sp(meta), c[0], "+=", c[1])

    def sub_assign(self, meta, c):
        return n.Assign(self.sp(meta), c[0], "-=", c[1])

    def lvalue(self, meta, c):
        return n.LValue(self.sp(meta), str(c[0]), self._key(c[1:]))

    def _key(self, parts):
        """The index of `v[a]`; `v[a, b]` (an entry of a combined family, a two-way table) is `v[[a, b]]`."""
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]
        first, last = parts[0].span, parts[-1].span
        return n.ListLit(n.Span(first.file, first.line, first.column, last.end_line, last.end_column), tuple(parts))

    def append_stmt(self, meta, c):
        return n.Append(self.sp(meta), c[0], c[1])

    def remove_stmt(self, meta, c):
        return n.Remove(self.sp(meta), c[0], c[1])

    def let_stmt(self, meta, c):
        return n.Let(self.sp(meta), str(c[0]), c[1])

    def if_stmt(self, meta, c):
        other = ()
        if len(c) > 2:
            other = (c[2],) if isinstance(c[2], n.If) else c[2]
        return n.If(self.sp(meta), c[0], c[1], other)

    def for_stmt(self, meta, c):
        return n.For(self.sp(meta), str(c[0]), c[1], c[2])

    def while_stmt(self, meta, c):
        return n.While(self.sp(meta), c[0], c[1])

    def repeat_stmt(self, meta, c):
        return n.Repeat(self.sp(meta), c[0], c[1])

    def goto_stmt(self, meta, c):
        return n.Goto(self.tsp(c[0]), str(c[0]))

    def end_turn_stmt(self, meta, c):
        return n.EndTurn(self.sp(meta), c[0] if c else None)

    def finish_win(self, meta, c):
        return self._finish(meta, "win", c)

    def finish_lose(self, meta, c):
        return self._finish(meta, "lose", c)

    def finish_draw(self, meta, c):
        return self._finish(meta, "draw", c)

    def finish_score(self, meta, c):
        return self._finish(meta, "score", c)

    def _finish(self, meta, result: str, c):
        why = next((x[1] for x in c if isinstance(x, tuple) and x[:1] == ("why",)), None)
        who = next((x for x in c if not isinstance(x, tuple)), None)
        return n.Finish(self.sp(meta), result, who, why)

    def why(self, meta, c):
        return ("why", c[0])

    def reason_text(self, meta, c):
        return n.Lit(self.sp(meta), _unescape(c[0]))

    def reason_more(self, meta, c):
        return n.Binary(self.sp(meta), "+", c[0], c[1])

    def call_stmt(self, meta, c):
        return n.CallStmt(self.sp(meta), str(c[0]), tuple(c[1]) if len(c) > 1 else ())

    def create_stmt(self, meta, c):
        kwargs = tuple(c[1]) if len(c) > 2 else ()
        dest, pos = c[-1] if isinstance(c[-1], tuple) else (c[-1], "")
        make = n.Make(self.sp(meta), str(c[0]), kwargs)
        return n.Create(self.sp(meta), make, dest, pos)

    def create_from(self, meta, c):
        dest, pos = c[-1] if isinstance(c[-1], tuple) else (c[-1], "")
        return n.CreateFrom(self.sp(meta), str(c[0]), _unescape(c[1]), self.tsp(c[1]), dest, pos)

    def log_stmt(self, meta, c):
        return n.Log(self.sp(meta), c[0], c[1] if len(c) > 1 else None)

    def create_cards(self, meta, c):
        dest, pos = c[-1] if isinstance(c[-1], tuple) else (c[-1], "")
        kwargs = next((tuple(x) for x in c[1:-1] if isinstance(x, list)), ())
        where = next((x for x in c[1:-1] if not isinstance(x, list)), None)
        return n.CreateCards(self.sp(meta), str(c[0]), kwargs, where, dest, pos)

    def choose_stmt(self, meta, c):
        var_type = c.pop(1) if isinstance(c[1], n.TypeRef) else None
        var, (mode, domain, extra) = str(c[0]), c[1]
        opts = [x for x in c[2:] if isinstance(x, tuple) and x and x[0] == "opt"]
        blocks = [x for x in c[2:] if not (isinstance(x, tuple) and x and x[0] == "opt")]
        by = next((x[2] for x in opts if x[1] == "by"), None)
        prompt = next((x[2] for x in opts if x[1] == "prompt"), None)
        optional = any(x[1] == "optional" for x in opts)
        always = any(x[1] == "always" for x in opts)
        label = next((x[2] for x in opts if x[1] == "as"), None)
        return n.Choose(self.sp(meta), var, mode, domain, extra if mode == "one" else None,
                        extra if mode != "one" else None, by, optional, prompt, blocks[0],
                        blocks[1] if len(blocks) > 1 else (), label, always, var_type)

    def choice_one(self, meta, c):
        return ("one", c[0], c[1] if len(c) > 1 else None)

    def choice_subset(self, meta, c):
        return ("subset", c[0], c[1] if len(c) > 1 else None)

    def choice_order(self, meta, c):
        return ("order", c[0], c[1] if len(c) > 1 else None)

    def choice_by(self, meta, c):
        return ("opt", "by", c[0])

    def choice_label(self, meta, c):
        return ("opt", "as", c[0])

    def choice_optional(self, meta, c):
        return ("opt", "optional", None)

    def choice_always(self, meta, c):
        return ("opt", "always", None)

    def choice_prompt(self, meta, c):
        return ("opt", "prompt", c[0])

    def may_stmt(self, meta, c):
        opts = [x for x in c if isinstance(x, tuple) and x and x[0] == "opt"]
        blocks = [x for x in c if not (isinstance(x, tuple) and x and x[0] == "opt")]
        by = next((x[2] for x in opts if x[1] == "by"), None)
        prompt = next((x[2] for x in opts if x[1] == "prompt"), None)
        return n.May(self.sp(meta), by, prompt, blocks[0], blocks[1] if len(blocks) > 1 else ())

    def emit_stmt(self, meta, c):
        return n.Emit(self.sp(meta), str(c[0]), tuple(c[1]) if len(c) > 1 else ())

    def open_stmt(self, meta, c):
        args = c[1] if len(c) > 1 and isinstance(c[1], list) else []
        parts = dict(x for x in c[1:] if isinstance(x, tuple))
        opened = n.Open(self.sp(meta), str(c[0]), tuple(args), parts.get("from"), parts.get("to"), "always" in parts)
        if "resolve" not in parts:
            return opened
        name, zone, body, where = parts["resolve"]
        def held():
            return n.Binary(zone.span, ">", n.Call(zone.span, "size", (zone,)), n.Lit(zone.span, 0))
        top = n.Let(where, name, n.Call(zone.span, "top", (zone,)))
        return n.Resolve(self.sp(meta), held(), (opened, n.If(where, held(), (top,) + tuple(body), ())), name)

    def open_resolve(self, meta, c):
        return ("resolve", (str(c[0]), c[1], c[2], self.sp(meta)))

    def open_from(self, meta, c):
        return ("from", c[0])

    def open_to(self, meta, c):
        return ("to", c[0])

    def open_always(self, meta, c):
        return ("always", True)

    def can_expr(self, meta, c):
        args = c[1] if len(c) > 2 else []
        return n.Can(self.sp(meta), str(c[0]), tuple(args), c[-1])

    def run_stmt(self, meta, c):
        args = c[1] if len(c) > 2 else []
        return n.RunHook(self.sp(meta), str(c[0]), tuple(args), c[-1])

    def grant_stmt(self, meta, c):
        args = c[1] if len(c) == 4 else []
        return n.Grant(self.sp(meta), str(c[0]), tuple(args), c[-2], str(c[-1]))

    def reveal_stmt(self, meta, c):
        return n.Reveal(self.sp(meta), c[0], c[1] if len(c) > 1 else None)

    # ---- expressions ----
    def cond_expr(self, meta, c):
        return n.Cond(self.sp(meta), c[0], c[1], c[2])

    def _bin(op):
        def method(self, meta, c):
            return n.Binary(self.sp(meta), op, c[0], c[1])
        return method

    or_op, and_op = _bin("or"), _bin("and")
    eq, ne, lt, le, gt, ge, member = _bin("=="), _bin("!="), _bin("<"), _bin("<="), _bin(">"), _bin(">="), _bin("in")
    range = _bin("..")
    add, sub, mul, div, mod = _bin("+"), _bin("-"), _bin("*"), _bin("/"), _bin("%")

    def not_op(self, meta, c):
        return n.Unary(self.sp(meta), "not", c[0])

    def neg(self, meta, c):
        return n.Unary(self.sp(meta), "-", c[0])

    def attr(self, meta, c):
        return n.Attr(self.sp(meta), c[0], str(c[1]))

    def index(self, meta, c):
        return n.Index(self.sp(meta), c[0], self._key(c[1:]))

    def int_lit(self, meta, c):
        return n.Lit(self.sp(meta), _int(c[0]))

    def str_lit(self, meta, c):
        return n.Lit(self.sp(meta), _unescape(c[0]))

    def true_lit(self, meta, c):
        return n.Lit(self.sp(meta), True)

    def false_lit(self, meta, c):
        return n.Lit(self.sp(meta), False)

    def none_lit(self, meta, c):
        return n.Lit(self.sp(meta), None)

    def name(self, meta, c):
        return n.Name(self.sp(meta), str(c[0]))

    def call(self, meta, c):
        return n.Call(self.sp(meta), str(c[0]), tuple(c[1]) if len(c) > 1 else ())

    def make(self, meta, c):
        return n.Make(self.sp(meta), str(c[0]), tuple(c[1]))

    def aggregate(self, meta, c):
        return n.Aggregate(self.sp(meta), str(c[0]), c[1], c[2] if len(c) > 2 else None)

    def list_lit(self, meta, c):
        return n.ListLit(self.sp(meta), tuple(c))

    def list_comp(self, meta, c):
        return n.ListComp(self.sp(meta), c[0])

    def comprehension(self, meta, c):
        where = next((x[1] for x in c[3:] if x[0] == "where"), None)
        key = next((x[1] for x in c[3:] if x[0] == "by"), None)
        more = tuple(x[1:] for x in c[3:] if x[0] == "for")
        return n.Comprehension(self.sp(meta), c[0], str(c[1]), c[2], where, key, more)

    def comp_for(self, meta, c):
        return ("for", str(c[0]), c[1], self.tsp(c[0]))

    def where_part(self, meta, c):
        return ("where", c[0])

    def by_part(self, meta, c):
        return ("by", c[0])

    def args(self, meta, c):
        return list(c)

    def kwargs(self, meta, c):
        return list(c)

    def kwarg(self, meta, c):
        return n.KwArg(self.sp(meta), str(c[0]), c[1])


# rule name -> _ToNodes method (its public functions; the rest are helpers no rule is named after)
_RULE_METHODS = {name: f for name, f in vars(_ToNodes).items()
                 if callable(f) and not name.startswith("_") and name not in ("sp", "tsp", "transform")}


_FRIENDLY = {"NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "end of file"}


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
        return Diagnostic("E002", f"unexpected character `{ch}`",
                          _make_span(file, where, err.line, err.column, err.line, err.column + 1))
    tok = err.token
    expected = _expected(parser, err.expected)
    text = str(tok)
    after = source[tok.end_pos:].lstrip(" \t")[:1] if tok.end_pos is not None else ""
    # a keyword followed by what follows a name (`score = 1`, `table: int`): meant as a name
    reserved = (tok.type != "NAME" and text.isidentifier() and "NAME" in err.expected
                and after in ("=", ":", "[", ".", "+", "-"))
    hint = f" (`{text}` is a reserved word and cannot be used as a name here)" if reserved else ""
    return Diagnostic("E001", f"unexpected `{text}`; expected {expected}{hint}", _tok_span(file, tok, where))


# ---- limits on size and nesting ------------------------------------------------------------

# The grammar's expression rules (after `?` inlining): each one is a level of expression nesting.
_EXPR_RULES = frozenset({
    "cond_expr", "or_op", "and_op", "not_op", "eq", "ne", "lt", "le", "gt", "ge", "member", "range",
    "add", "sub", "mul", "div", "mod", "neg", "attr", "index", "int_lit", "str_lit", "true_lit",
    "false_lit", "none_lit", "name", "call", "make", "aggregate", "list_lit", "list_comp", "can_expr",
    "comprehension", "reason_text", "reason_more"})                   # (an aggregate and its comprehension are two levels in the IR)
_BLOCK_STMTS = frozenset({"if_stmt", "for_stmt", "while_stmt", "repeat_stmt"})
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
                                          f"`repeat` inside one another): move the inner part into a `proc`",
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
        elif rule not in ("args", "kwargs", "kwarg", "where_part", "by_part"):
            depth = 0                     # a statement or declaration part: a new expression starts below
        for child in reversed(node.children):       # leftmost first: report the first place in the text
            stack.append((child, blocks, links, depth, types, rule, outer))
    out.sort(key=lambda d: (d.span.line, d.span.column))
    return out


INCLUDE_DEPTH_LIMIT = 8          # files included from included files
INCLUDE_FILES_LIMIT = 200        # files in one game


def _parse_one(source: str, file: str, start: str):
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
    rel = Path(written)
    if rel.is_absolute() or ".." in rel.parts or not written or "\\" in written:
        raise bad("the path must be relative to the rule file and stay in its folder")
    if rel.suffix != ".rules":
        raise bad("only `.rules` files can be included")
    path = (base / rel)
    try:
        if not path.resolve().is_relative_to(base.resolve()):
            raise bad("the path leads out of the rule file's folder")
        if not path.is_file():
            raise bad("no such file")
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


def parse(source: str, file: str = "<rules>") -> n.Game:
    """Parse a whole rule file, with the files it includes; raises RuleError with a syntax
    diagnostic, or with the nesting diagnostics of a file too large or too deeply nested to be
    read safely. Included files are found beside the rule file (never outside its folder)."""
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
            except (OSError, UnicodeDecodeError) as err:
                why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
                raise RuleError([Diagnostic("E007", f"cannot include {written!r}: {why}", span)], sources) from None
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
