"""Lark tree to the typed nodes of `nodes.py`: one method per grammar rule, nothing else in it
(declarations in declaration_rules.py, statements and expressions here), walked with an explicit
stack as a tree may be deep.
"""
from __future__ import annotations

from lark import Token, Tree

from . import nodes as n
from ..core.errors import Span
from .declaration_rules import DeclarationRules
from .spans import _PLAIN, _Where, _int, _span, _tok_span, _unescape


class _ToNodes(DeclarationRules):
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
        about = next((x[2] for x in opts if x[1] == "about"), None)
        return n.Choose(self.sp(meta), var, mode, domain, extra if mode == "one" else None,
                        extra if mode != "one" else None, by, optional, prompt, blocks[0],
                        blocks[1] if len(blocks) > 1 else (), label, always, var_type, about, _repeated(opts))

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

    def choice_about(self, meta, c):
        return ("opt", "about", c[0])

    def choice_prompt(self, meta, c):
        return ("opt", "prompt", c[0])

    def may_stmt(self, meta, c):
        opts = [x for x in c if isinstance(x, tuple) and x and x[0] == "opt"]
        blocks = [x for x in c if not (isinstance(x, tuple) and x and x[0] == "opt")]
        by = next((x[2] for x in opts if x[1] == "by"), None)
        prompt = next((x[2] for x in opts if x[1] == "prompt"), None)
        about = next((x[2] for x in opts if x[1] == "about"), None)
        ignored = tuple(dict.fromkeys(x[1] for x in opts if x[1] in ("always", "optional", "as")))
        return n.May(self.sp(meta), by, prompt, blocks[0], blocks[1] if len(blocks) > 1 else (), about, _repeated(opts),
                     ignored)

    def emit_stmt(self, meta, c):
        return n.Emit(self.sp(meta), str(c[0]), tuple(c[1]) if len(c) > 1 else ())

    def resolve_triggers_stmt(self, meta, c):
        return n.ResolveTriggers(self.sp(meta))

    def open_stmt(self, meta, c):
        args = c[1] if len(c) > 1 and isinstance(c[1], list) else []
        parts = dict(x for x in c[1:] if isinstance(x, tuple))
        opened = n.Open(self.sp(meta), str(c[0]), tuple(args), parts.get("from"), parts.get("to"), "always" in parts,
                        parts.get("until"))
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

    def open_until(self, meta, c):
        return ("until", c[0])

    def open_always(self, meta, c):
        return ("always", True)

    def can_expr(self, meta, c):
        args = c[1] if len(c) > 2 else []
        return n.Can(self.sp(meta), str(c[0]), tuple(args), c[-1])

    def run_stmt(self, meta, c):
        by = c[-1][1] if isinstance(c[-1], tuple) and c[-1][:1] == ("by",) else None
        if by is not None:
            c = c[:-1]
        args = c[1] if len(c) > 2 else []
        return n.RunHook(self.sp(meta), str(c[0]), tuple(args), c[-1], by)

    def run_by(self, meta, c):
        return ("by", c[0])

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


_RULE_METHODS = {name: f for cls in (DeclarationRules, _ToNodes) for name, f in vars(cls).items()
                 if callable(f) and not name.startswith("_") and name not in ("sp", "tsp", "transform")}


def _repeated(opts: list) -> tuple:
    """A question's clauses given again with a value (`prompt "a" prompt "b"`: the first was used,
    the second dropped unsaid — a fuzz trial): (word, the value given again), for W265."""
    return tuple((x[1], x[2]) for i, x in enumerate(opts)
                 if x[2] is not None and any(y[1] == x[1] for y in opts[:i]))
