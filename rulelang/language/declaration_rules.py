"""The parser's rules for declarations (a part of to_nodes._ToNodes): one method per grammar rule,
named after it, given the rule's meta (its position) and its children already turned into nodes.
"""
from __future__ import annotations

from dataclasses import replace

from lark import Token

from . import nodes as n
from ..core.errors import Diagnostic, RuleError
from .spans import _clauses, _int, _unescape


def _ability_words(parts) -> str | None:
    """An ability's `as "…"`: its name as players read it (a question of which runs first)."""
    return next((x[1] for x in parts if isinstance(x, tuple) and x[:1] == ("as",)), None)


class DeclarationRules:
    """The declarations' rules; `_ToNodes` (to_nodes.py) adds the statements' and expressions'."""

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
        if isinstance(c[1], tuple):             # the values it may take: their type is the option's
            first = c[1][0]
            value = first.operand if isinstance(first, n.Unary) and first.op == "-" else first
            kind = "int" if isinstance(value, n.Lit) and type(value.value) is int else "text"
            return n.OptionDecl(self.sp(meta), str(c[0]), n.TypeRef(first.span, kind), c[2], c[1])
        return n.OptionDecl(self.sp(meta), str(c[0]), c[1], c[2])

    def option_choices(self, meta, c):
        return tuple(c)

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

    def union_type(self, meta, c):
        span = self.sp(meta)
        return n.TypeRef(span, "or", alts=tuple(n.TypeRef(span, str(x)) for x in c))

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
        require, refusal = rest[0][1:] if rest else (None, None)
        return n.ActionDecl(self.sp(meta), str(name), tuple(params), require, body, text, refusal)

    def action_require(self, meta, c):
        return ("require", c[0], c[1] if len(c) > 1 else None)

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
        words = _ability_words(rest)
        where, zones = _clauses(rest)
        return n.Ability(self.sp(meta), "on", (what,), tuple(params), where, zones, body, None, zone, words)

    def ability_words(self, meta, c):
        return ("as", "".join(_unescape(x) for x in c))

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

    def about_def(self, meta, c):
        return self._about(meta, "def", c[0], c[1:])

    def about_var(self, meta, c):
        return self._about(meta, "var", c[0], c[1:])

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
        words = _ability_words(rest)
        zones = next((x for x in rest if isinstance(x, tuple) and x[:1] == ("zones",)), None)
        where = next((x[1] for x in rest if isinstance(x, tuple) and x[:1] == ("where",)), None)
        return n.Ability(self.sp(meta), "on", (name,), tuple(params), where,
                         zones[1] if zones is not None else None, body, text=words)

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
