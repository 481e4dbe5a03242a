"""Name resolution and type checking of a parsed rule file.

The checker never stops at the first problem: it records a Diagnostic and carries on with
the type `any`, so one typo gives one message. What it learns (the type of every
expression, what every name refers to) is kept in `Checked` for the compiler.

Types are short strings: int, bool, text, player, none, any, enum:E, comp:K (comp:* for a
component of any kind), list:T, zone (a concrete zone), zones (a per-player zone family
that still needs its `[player]`), cell, range.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import nodes as n
from .nodes import walk
from .content import LISTED, Suggester, listing, short
from ..core.errors import Diagnostic, Span
from ..ir.spec import BOARD_SHAPES, BUILTIN_FUNCTIONS, BUILTIN_VALUES, EVENTS, OPTION_TYPES, SCALAR_TYPES, VISIBILITY
from ..core.limits import COMPONENT_LIMIT, INT_LIMIT, PLAYER_LIMIT

# The vocabulary the engine accepts (builtin values and functions with their arities, scalar types,
# events, board shapes, option types, visibilities) is irspec's: the checker reads the engine's
# tables, so a builtin added there is known here, and the two never disagree on a name or an arity.
PRIMITIVES = SCALAR_TYPES
BOARD_MODIFIERS = ("diagonal", "draw", "cell_width")
CELL_FIELDS = {"name": "text", "row": "int", "col": "int", "kind": "text"}
PER = ("player", "cell")
ZONE_SHAPES = ("pile", "set")
ZONE_MODIFIERS = VISIBILITY + ("capacity", "play", "internal", "top")
VAR_MODIFIERS = VISIBILITY + ("internal",)
# Builtins that also take a comprehension: `sum(x.value for x in xs)`. Result types: see builtin_result.
AGGREGATES = ("sum", "count", "any", "all", "max", "min", "distinct", "first", "last", "size")


def elem(t: str) -> str:
    if t.startswith("list:"):
        return t[5:]
    if t in ("zone",):
        return "comp:*"
    if t == "range":
        return "int"
    return "any"


VALUE_KINDS = ("enum", "enumval", "zone", "var", "option", "board", "def")


def is_value(sym) -> bool:
    """Is this declaration what its name means when written alone, as a value? (A table, a kind, a
    procedure, a step, an event and a def with parameters are not: there a builtin value of that
    name keeps its meaning.)"""
    return sym is not None and sym.kind in VALUE_KINDS and not (sym.kind == "def" and sym.decl.params is not None)


def is_list_like(t: str) -> bool:
    return t.startswith("list:") or t in ("zone", "range", "any")


def is_comp(t: str) -> bool:
    return t.startswith("comp:") or t in ("any", "none")


def compatible(a: str, b: str) -> bool:
    """Can a value of type `a` stand where `b` is expected (or the other way)?"""
    if a == b or "any" in (a, b):
        return True
    if {a, b} == {"int", "player"}:      # seats are numbers: 0 is the first player
        return True
    if "none" in (a, b):
        other = b if a == "none" else a
        return other not in ("int", "bool")
    if a.startswith("comp:") and b.startswith("comp:"):
        return "comp:*" in (a, b)
    if is_list_like(a) and is_list_like(b):
        return compatible(elem(a), elem(b))
    return False


# What each kind of argument a builtin's description names must be (ir/spec.py, ARG_KINDS), and
# the words of the E201 that says so.
ARG_TESTS = {
    "sized": (is_list_like, "a list or a zone"),
    "list": (is_list_like, "a list"),
    "ints": (lambda t: is_list_like(t) and compatible(elem(t), "int"), "a list of numbers"),
    "bools": (lambda t: is_list_like(t) and compatible(elem(t), "bool"), "a list of true/false values"),
    "sortable": (lambda t: is_list_like(t) and (compatible(elem(t), "int") or compatible(elem(t), "text")),
                 "a list of numbers or of texts"),
    "text": (lambda t: compatible(t, "text"), "a text"),
    "separator": (lambda t: compatible(t, "text"), "a separator text"),
    "player": (lambda t: compatible(t, "player"), "a player"),
    "int": (lambda t: compatible(t, "int"), "a number"),
}


def show(t: str) -> str:
    if t.startswith("list:"):
        return f"list of {show(t[5:])}"
    if t.startswith("comp:"):
        return "component" if t == "comp:*" else t[5:]
    if t.startswith("enum:"):
        return t[5:]
    return {"zones": "zone per player or per cell (index it)"}.get(t, t)


@dataclass
class Symbol:
    kind: str                  # enum, enumval, kind, table, zone, var, def, proc, step, option
    decl: object
    type: str = "any"


@dataclass
class Checked:
    game: n.Game
    symbols: dict[str, Symbol]
    types: dict[int, str] = field(default_factory=dict)       # id(expr node) -> type
    refs: dict[int, tuple] = field(default_factory=dict)      # id(Name node) -> (kind, name)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    contents: dict[int, object] = field(default_factory=dict)  # id(CreateFrom) -> content.Content
    sources: dict[str, str] = field(default_factory=dict)      # content files' text, for caret lines
    abilities: list = field(default_factory=list)              # desugar.AbilityInfo of cards and triggers
    cards: list = field(default_factory=list)                  # the `card` declarations, in order

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class Checker:
    def __init__(self, game: n.Game, inferred: dict | None = None, known: dict | None = None):
        from .desugar import desugar
        # "did you mean" compares a name with every candidate: in a file with thousands of names and
        # thousands of typos that is quadratic, so one budget of work serves the whole file: this
        # checker, desugaring and the content files it reads (content.Suggester)
        self.suggest_names = Suggester()
        # cards and triggers become procs and defs first (desugar.py); their records ride along
        self.user_names = {d.name for d in game.decls if isinstance(d, (n.ProcDecl, n.DefDecl))}
        game, abilities, diags = desugar(game, self.suggest_names)
        game = _shown_values(game)
        self.game = game
        self.out = Checked(game, {})
        self.out.abilities = abilities
        self.out.cards = [d for d in game.decls if isinstance(d, n.CardDecl)]
        self.out.diagnostics.extend(diags)
        self.out.sources.update(dict(game.sources))
        self.scopes: list[dict[str, str]] = []
        self.used: set[str] = set()
        self.function_refs: set[int] = set()
        self.written: set[str] = set()
        self.shadows: list[Diagnostic] = []      # W207, reported only if the file has no errors
        self.loaded: dict[tuple, tuple] = {}     # (path, kind) -> load_rows(...): each content file read once
        self.names: dict[tuple, list] = {}       # declaration kinds -> their names (see names_of)
        self.fields: dict = {}                   # kind (None: every kind) -> kind_fields(kind)
        # an untyped parameter's type, when every call passes the same kind of value: a player is
        # then shown "P2" by text(), not 1 (see check); keyed by the parameter's place
        self.inferred: dict = inferred or {}
        self.arg_types: dict = {}
        # Declaration order never matters: defs and tables are checked first, each after the ones it
        # reads (see types_first; their diagnostics kept for their own place in the file), so their
        # types are known wherever they are used. A def read inside a cycle of calls (recursion) has
        # the type the last pass found for it (`known`), else `any`; `check` runs a second pass
        # when that changed.
        self.known: dict[str, str] = known or {}
        self.done: set[int] = set()              # ids of the defs and tables already checked
        self.early: dict[int, list] = {}         # id(decl) -> the diagnostics of checking it early
        self.recursive: dict[str, str] = {}      # def -> the type a recursive call read for it
        # the parameters of a card's `replace`/`modify` are the target procedure's or def's: an
        # untyped one gets the type inferred for the target's parameter (see ability_params)
        self.param_alias: dict = {}
        self.content_rows = 0                    # rows all `create ... from` statements make together

    # ---- reporting ----
    def error(self, code: str, msg: str, span: Span, suggestion: str | None = None) -> None:
        self.out.diagnostics.append(Diagnostic(code, msg, span, "error", suggestion))

    def warn(self, code: str, msg: str, span: Span, suggestion: str | None = None) -> None:
        self.out.diagnostics.append(Diagnostic(code, msg, span, "warning", suggestion))

    def suggest(self, name: str, candidates) -> str | None:
        """The closest candidate (a list, or a function giving one), while the file's budget lasts."""
        return self.suggest_names(name, candidates)

    def names_of(self, *kinds: str) -> list[str]:
        """The declared names of these kinds (kept: every declaration is known once collected)."""
        if kinds not in self.names:
            self.names[kinds] = [k for k, v in self.out.symbols.items() if v.kind in kinds]
        return self.names[kinds]

    # ---- entry ----
    def run(self) -> Checked:
        self.collect()
        self.ability_params()
        self.types_first()
        for d in self.game.decls:
            if id(d) in self.early:              # a def or table, checked first (types_first)
                self.out.diagnostics.extend(self.early.pop(id(d)))
            elif id(d) not in self.done:
                self.check_decl(d)
        self.whole_game()
        unique: dict = {}                        # (an `anytime` action is checked in every step)
        for d in self.out.diagnostics:
            unique.setdefault((d.code, d.message, d.span), d)
        self.out.diagnostics[:] = list(unique.values())
        if self.out.ok:
            # The lints (flow, dead code, shadowing) run on a file that resolves and type-checks:
            # on a broken one they would mostly repeat its errors in other words.
            from .lints import static_lint
            found = self.shadows + static_lint(self.out)
            found.sort(key=lambda d: (d.span.line, d.span.column, d.code) if d.span else (0, 0, d.code))
            self.out.diagnostics.extend(found)
        return self.out

    def bind(self, name: str, span: Span, what: str = "") -> None:
        """A local name is introduced here: note it if it hides a declaration, a builtin or another local."""
        sym = self.out.symbols.get(name)
        if self.lookup_local(name) is not None:
            hidden = f"another local `{name}`"
        elif sym is not None and sym.kind not in ("step", "proc", "kind") and (name not in BUILTIN_VALUES
                                                                             or is_value(sym)):
            # (a step, procedure or kind is never a value: nothing hidden)
            kind = {"enumval": "enum value", "var": "variable", "proc": "procedure"}.get(sym.kind, sym.kind)
            hidden = f"the {kind} `{name}`"
        elif name in BUILTIN_VALUES:
            hidden = f"the builtin `{name}`"
        else:
            return
        self.shadows.append(Diagnostic("W207", f"{what or 'local'} `{name}` shadows {hidden}: inside this scope "
                                               f"`{name}` means the local", span, "warning"))

    def collect(self) -> None:
        syms = self.out.symbols
        seen_players = False

        def declare(name: str, sym: Symbol, span: Span) -> None:
            if name.startswith("__") and name in self.user_names:
                self.error("E102", f"`{name}`: names starting with `__` are kept for the engine", span)
                return
            if name in syms:
                self.error("E102", f"`{name}` is already declared as a {syms[name].kind}", span)
                return
            if name in BUILTIN_VALUES or name in BUILTIN_FUNCTIONS:
                # A name the language took over later must not break the files that declared it
                # first: the declaration wins where it can be written, the builtin elsewhere (W220).
                self.warn("W220", hides_builtin(name, sym), span)
            syms[name] = sym

        for d in self.game.decls:
            if isinstance(d, n.Players):
                if seen_players:
                    self.error("E102", "`players` is declared twice", d.span)
                if d.high > PLAYER_LIMIT:
                    self.error("E203", f"a game takes at most {PLAYER_LIMIT} players", d.span)
                elif not 1 <= d.low <= d.high:
                    self.error("E203", f"player counts {d.low}..{d.high} are not a valid range", d.span)
                seen_players = True
            elif isinstance(d, n.EnumDecl):
                declare(d.name, Symbol("enum", d, f"enum:{d.name}"), d.span)
                for item in d.items:
                    declare(item.name, Symbol("enumval", item, f"enum:{d.name}"), item.span)
            elif isinstance(d, n.KindDecl):
                declare(d.name, Symbol("kind", d, f"comp:{d.name}"), d.span)
            elif isinstance(d, n.TableDecl):
                declare(d.name, Symbol("table", d), d.span)
            elif isinstance(d, n.BoardDecl):
                if any(s.kind == "board" for s in syms.values()):
                    self.error("E108", "a game has one board (a second board is not supported yet)", d.span)
                declare(d.name, Symbol("board", d, "board"), d.span)
            elif isinstance(d, n.ZoneDecl):
                declare(d.name, Symbol("zone", d, "zones" if d.per else "zone"), d.span)
            elif isinstance(d, n.VarDecl):
                declare(d.name, Symbol("var", d), d.span)
            elif isinstance(d, n.OptionDecl):
                declare(d.name, Symbol("option", d), d.span)
            elif isinstance(d, n.DefDecl):
                declare(d.name, Symbol("def", d), d.span)
            elif isinstance(d, n.ProcDecl):
                declare(d.name, Symbol("proc", d), d.span)
            elif isinstance(d, n.StepDecl):
                if d.name in syms and syms[d.name].kind == "step":
                    self.error("E102", f"step `{d.name}` is declared twice", d.span)
                else:
                    declare(d.name, Symbol("step", d), d.span)
            elif isinstance(d, n.SignatureDecl):
                declare(d.name, Symbol(d.what, d), d.span)
            elif isinstance(d, n.OrderDecl):
                if any(isinstance(x, n.OrderDecl) and x is not d for x in self.game.decls[:self.game.decls.index(d)]):
                    self.error("E102", "`order triggers` is declared twice", d.span)
            elif isinstance(d, (n.EstimateDecl, n.SideDecl)):
                if any(type(x) is type(d) and x is not d for x in self.game.decls[:self.game.decls.index(d)]):
                    word = "estimate" if isinstance(d, n.EstimateDecl) else "side"
                    self.error("E102", f"`{word}` is declared twice", d.span)
            elif isinstance(d, (n.SetupDecl, n.OnDecl, n.WhenDecl, n.LimitDecl, n.CardDecl, n.AboutDecl)):
                pass                # blocks of rules (and words about them): they declare no name
            else:
                raise AssertionError(f"unknown declaration node {type(d).__name__}")
        if not seen_players:
            self.error("E110", "the game does not say how many players it takes (add `players 1..4`)",
                       self.game.span)
        # Declared types of vars and options are needed before bodies are checked.
        for d in self.game.decls:
            if isinstance(d, (n.VarDecl, n.OptionDecl)) and d.name in syms and syms[d.name].decl is d:
                syms[d.name].type = self.resolve_type(d.type)

    def resolve_type(self, t: n.TypeRef) -> str:
        if t.name == "list":
            return "list:" + self.resolve_type(t.elem)
        if t.name in PRIMITIVES or t.name == "any":
            return t.name
        sym = self.out.symbols.get(t.name)
        if sym and sym.kind in ("enum", "kind"):
            self.used.add(t.name)
            return sym.type
        choices = lambda: list(PRIMITIVES) + self.names_of("enum", "kind")
        self.error("E101", f"unknown type `{t.name}`", t.span, self.suggest(t.name, choices))
        return "any"

    # ---- declarations ----
    def check_decl(self, d) -> None:
        if isinstance(d, n.OptionDecl):
            t = self.out.symbols.get(d.name, Symbol("", d)).type
            if self.out.symbols.get(d.name, Symbol("", None)).decl is d and t not in OPTION_TYPES + ("any",):
                self.error("E201", f"an option is bool, int or text (what `--option` can give), not {show(t)}",
                           d.type.span)
                self.expr(d.default)
            elif self.expect(d.default, t, "the option's default") != "any" and not _written_out(d.default):
                self.error("E204", "an option's default must be written out: a number, true or false, or a string",
                           d.default.span)
        elif isinstance(d, (n.TableDecl, n.DefDecl)):
            try:
                self.check_table(d) if isinstance(d, n.TableDecl) else self.check_def(d)
            finally:
                self.done.add(id(d))
        elif isinstance(d, n.KindDecl):
            self.check_kind(d)
        elif isinstance(d, n.ZoneDecl):
            self.check_zone(d)
        elif isinstance(d, n.VarDecl):
            self.check_var(d)
        elif isinstance(d, n.ProcDecl):
            with self.scope(self.params_scope(d.params)):
                self.block(d.body)
        elif isinstance(d, n.SetupDecl):
            with self.scope({}):
                self.block(d.body)
        elif isinstance(d, n.StepDecl):
            self.check_step(d)
        elif isinstance(d, n.OnDecl):
            if d.event not in EVENTS:
                self.error("E106", f"unknown event `{d.event}` (events: {listing(EVENTS)})", d.span,
                           self.suggest(d.event, EVENTS))
            with self.scope({}):
                self.block(d.body)
        elif isinstance(d, n.WhenDecl):
            with self.scope({}):
                self.expect(d.test, "bool", "a `when` condition")
                self.block(d.body)
        elif isinstance(d, n.BoardDecl):
            self.check_board(d)
        elif isinstance(d, n.Players):
            with self.scope({}):
                for e in d.ranking:
                    self.expect(e, "int", "a score")
        elif isinstance(d, n.LimitDecl):
            with self.scope({}):
                self.expect(d.count, "int", "a turn limit")
                self.block(d.body)
        elif isinstance(d, n.EnumDecl):
            pass                    # its names are declared in collect; it holds nothing to check
        elif isinstance(d, n.SignatureDecl):
            for p in d.params:
                if p.type is None:
                    self.error("E201", f"a parameter of {d.what} `{d.name}` needs a type (`{p.name}: player`)", p.span)
                else:
                    self.resolve_type(p.type)
        elif isinstance(d, n.CardDecl):
            self.check_card(d)
        elif isinstance(d, n.OrderDecl):
            with self.scope({}):
                self.expect(d.chooser, "player", "who orders the triggers")
        elif isinstance(d, n.EstimateDecl):
            with self.scope({}):
                self.expect(d.value, "int", "an estimate")
        elif isinstance(d, n.SideDecl):
            with self.scope({}):
                self.expect(d.value, "text", "a side")
        elif isinstance(d, n.AboutDecl):
            self.check_about(d)
        else:
            raise AssertionError(f"unknown declaration node {type(d).__name__}")

    def check_about(self, d: n.AboutDecl) -> None:
        """`about zone NAME "…"` and the like name something the rules declare (E101)."""
        if d.name is None:
            return
        if d.what == "action":
            names = sorted({a.name for s in self.game.decls if isinstance(s, n.StepDecl) for a in s.actions})
            if d.name not in names:
                self.error("E101", f"unknown action `{d.name}`", d.name_span, self.suggest(d.name, names))
            return
        sym = self.out.symbols.get(d.name)
        if sym is None or sym.kind != d.what:
            self.error("E101", f"unknown {d.what} `{d.name}`", d.name_span,
                       self.suggest(d.name, self.names_of(d.what)))

    def check_card(self, d: n.CardDecl) -> None:
        """A card's field values: constants of the kind's field types; `copies` a number."""
        sym = self.out.symbols.get(d.kind)
        if sym is None or sym.kind != "kind":
            self.error("E101", f"unknown component kind `{d.kind}`", d.span, self.suggest(d.kind, self.names_of("kind")))
            return
        self.used.add(d.kind)
        # a card's abilities are found by its name: two declarations of one name would share one
        if any(isinstance(x, n.CardDecl) and x.kind == d.kind and x.name == d.name
               for x in self.game.decls[:self.game.decls.index(d)]):
            self.error("E102", f"card {d.name!r} of kind `{d.kind}` is declared twice (its abilities are found by "
                               "its name: give each version its own, and show them alike with a field in the label)",
                       d.span)
        fields = self.kind_fields(d.kind)
        given = set()
        with self.scope({}):
            for f in d.fields:
                if f.name in given:
                    self.error("E102", f"card {d.name!r} gives `{f.name}` twice", f.span)
                given.add(f.name)
                if f.name == "copies":
                    self.expect(f.value, "int", "`copies`")
                    if not (isinstance(f.value, n.Lit) and type(f.value.value) is int and 0 <= f.value.value <= 1000):
                        self.error("E204", "`copies` must be a number from 0 to 1000", f.value.span)
                    continue
                if f.name == "card":
                    self.error("E201", "`card` is the card's name (its declaration gives it)", f.span)
                    continue
                want = fields.get(f.name)
                if want is None:
                    self.error("E101", f"kind `{d.kind}` has no field `{f.name}`", f.span,
                               self.suggest(f.name, list(fields)))
                    self.expr(f.value)
                    continue
                self.expect(f.value, want, f"field `{f.name}`")
                if any(isinstance(x, n.Name) and self.out.refs.get(id(x), ("",))[0] not in ("enumval", "builtin", "")
                       for x in walk(f.value)) or any(isinstance(x, (n.Call, n.Comprehension)) for x in walk(f.value)):
                    self.error("E204", "a card's field value must be written out (a number, text, enum value "
                                       "or a list of them)", f.value.span)


    def params_scope(self, params) -> dict[str, str]:
        scope: dict[str, str] = {}
        with self.scope(scope):
            for p in params:
                self.bind(p.name, p.span, "parameter")
                scope[p.name] = self.param_type(p)
        return scope

    def param_type(self, p: n.Param) -> str:
        if p.type:
            return self.resolve_type(p.type)
        key = (p.span, p.name)
        return self.inferred.get(key) or self.inferred.get(self.param_alias.get(key), "any")

    def check_table(self, d: n.TableDecl) -> None:
        keys: dict = {}
        value_type = None
        for key, value in d.entries:
            kt = self.expr(key)
            parts = key.items if isinstance(key, n.ListLit) else (key,)
            for part in parts:
                pt = self.out.types.get(id(part), kt)
                if not isinstance(part, (n.Lit, n.Name)) or (isinstance(part, n.Name) and pt != "any"
                                                              and not pt.startswith("enum:")):
                    self.error("E204", "a table key must be a number, a string, an enum value or a list of them",
                               part.span)
            kv = tuple(getattr(p, "value", getattr(p, "name", None)) for p in parts)
            if kv in keys:
                self.error("E102", f"table `{d.name}` has the key {kv!r} twice", key.span)
            keys[kv] = True
            vt = self.expr(value)
            if value_type is None or value_type == "none":
                value_type = vt
            elif not compatible(vt, value_type):
                self.error("E201", f"table `{d.name}` mixes {show(value_type)} and {show(vt)} values", value.span)
        sym = self.out.symbols.get(d.name)
        if sym is not None and sym.decl is d:    # (not when the name was refused: declared twice)
            sym.type = value_type or "any"

    def check_kind(self, d: n.KindDecl) -> None:
        names = {}
        for f in d.fields:
            if f.name in names:
                self.error("E102", f"kind `{d.name}` has the field `{f.name}` twice", f.span)
            t = self.resolve_type(f.type)
            names[f.name] = t
            if f.default is not None:
                self.expect(f.default, t, f"the default of `{f.name}`")
        if d.label is not None:
            with self.scope(dict(names)):
                self.expr(d.label)

    def check_modifiers(self, mods, allowed, what: str) -> None:
        for m in mods:
            if m.name not in allowed:
                self.error("E105", f"unknown {what} property `{m.name}` (known: {', '.join(allowed)})",
                           m.span, self.suggest(m.name, allowed))
            elif m.name == "capacity":
                # the IR holds a capacity as a number: it must be one, written out, 0 or more
                if m.value is None:
                    self.error("E103", "`capacity` needs a number: `capacity 4`", m.span)
                elif self.expect(m.value, "int", "a capacity") == "int" and not (
                        isinstance(m.value, n.Lit) and type(m.value.value) is int and m.value.value >= 0):
                    self.error("E204", "a capacity must be a whole number ≥ 0, written out", m.value.span)
            elif m.value is not None:
                self.error("E105", f"`{m.name}` takes no value", m.span)

    def check_zone(self, d: n.ZoneDecl) -> None:
        if d.shape not in ZONE_SHAPES:
            self.error("E105", f"unknown zone shape `{d.shape}` (a zone is a `pile` or a `set`)",
                       d.shape_span, self.suggest(d.shape, ZONE_SHAPES))
        self.check_per(d, "a zone")
        self.check_modifiers(d.modifiers, ZONE_MODIFIERS, "zone")
        vis = [m.name for m in d.modifiers if m.name in ("public", "hidden", "owner")]
        if len(vis) > 1:
            self.error("E105", f"zone `{d.name}` has more than one visibility ({', '.join(vis)})", d.span)

        if any(m.name == "top" for m in d.modifiers) and (d.shape != "pile" or vis not in ([], ["public"])):
            self.error("E105", f"zone `{d.name}` shows only its `top`: it must be a public `pile`", d.span)
        if "owner" in vis and "player" not in [d.per] + [p[0] for p in d.more_per]:
            self.error("E105", f"zone `{d.name}` is seen by its `owner` but is not declared `per player`", d.span)

    def index_type(self, decl) -> str:
        """What indexes a `per` declaration: a player, a cell, a component of the kind, a value of
        the enum — or "key" for a combined family (`per player per Colour`), indexed `v[p, c]`."""
        if decl.more_per:
            return "key"
        return self.part_type(decl.per)

    def part_type(self, per: str) -> str:
        if per in PER:
            return per
        sym = self.out.symbols.get(per)
        return sym.type if sym is not None and sym.kind in ("kind", "enum") else "any"

    def key_example(self, part: str) -> str:
        """A value to show in an example index: `me`, `c`, an enum's first value."""
        sym = self.out.symbols.get(part)
        if sym is not None and sym.kind == "enum" and sym.decl.items:
            return sym.decl.items[0].name
        return {"player": "me"}.get(part, "c")

    @staticmethod
    def pers(parts: list) -> str:
        """`player per Colour`: a family's parts for a message (the first few, and how many more)."""
        return listing(parts, sep=" per ")

    def key_examples(self, parts: list) -> str:
        """`me, red`: an example index of a family (cut short after a few parts)."""
        return ", ".join(short(self.key_example(p)) for p in parts[:LISTED]) + (", …" if len(parts) > LISTED else "")

    def check_key(self, index, decl, name: str) -> None:
        """The index of one member of a family: one value, or one per part of a combined family."""
        if not decl.more_per:
            self.expect(index, self.index_type(decl), f"the index of `{name}`")
            return
        parts = [decl.per] + [p[0] for p in decl.more_per]
        if not isinstance(index, n.ListLit) or len(index.items) != len(parts):
            self.expr(index)
            self.error("E201", f"`{name}` is per {self.pers(parts)}: name one of each, "
                       f"e.g. `{name}[{self.key_examples(parts)}]`", index.span)
            return
        for item, part in zip(index.items, parts):
            self.expect(item, self.part_type(part), f"the {part} of `{name}[…]`")

    def check_per(self, d, what: str) -> None:
        if d.per is None:
            return
        parts = [(d.per, d.per_span, d.per_board)] + list(d.more_per)
        seen = set()
        for name, span, board in parts:
            if name in seen:
                self.error("E105", f"{what} is declared per `{name}` twice", span)
            seen.add(name)
            self.check_per_part(name, span, board, what, combined=len(parts) > 1)

    def check_per_part(self, per: str, span, board, what: str, combined: bool) -> None:
        sym = self.out.symbols.get(per)
        if sym is not None and sym.kind == "kind" and board is None:
            self.used.add(per)                         # a variable (or zone) per component of a kind
            if combined:
                self.error("E105", f"{what} per component of `{per}` cannot be combined with another `per`",
                           span)
            return
        if sym is not None and sym.kind == "enum" and board is None:
            self.used.add(per)                         # one per value of the enum: a pile per colour
            return
        if per not in PER:
            self.error("E105", f"{what} can be declared `per player`, `per cell of BOARD`, `per KIND` (a component "
                       f"kind), `per ENUM` (an enum), or a combination (`per player per Colour`), not per `{per}`",
                       span, self.suggest(per, lambda: list(PER) + self.names_of("enum") + self.names_of("kind")))
        elif per == "cell":
            sym = self.out.symbols.get(board or "")
            if sym is None or sym.kind != "board":
                self.error("E101", f"`per cell of` needs a declared board, not `{board}`", span,
                           self.suggest(board or "", self.names_of("board")))
            else:
                self.used.add(board)
        elif board is not None:
            self.error("E105", f"`per player of {board}` makes no sense: write `per player`", span)

    def check_board(self, d: n.BoardDecl) -> None:
        if d.shape not in BOARD_SHAPES:
            self.error("E105", f"unknown board shape `{d.shape}` (shapes: {', '.join(BOARD_SHAPES)})", d.span,
                       self.suggest(d.shape, BOARD_SHAPES))
        count = 1 if d.shape == "hexagon" else 2
        if len(d.args) != count or not all(isinstance(a, n.Lit) and type(a.value) is int for a in d.args):
            self.error("E103", "a hexagon's size is one number: `hexagon(side)`" if count == 1 else
                       f"a board's size is two numbers: `{d.shape}(width, height)`", d.span)
        elif d.shape == "hexagon" and not 1 <= d.args[0].value <= 13:
            self.error("E203", "a hexagon's side must be between 1 and 13 cells", d.span)
        elif not all(1 <= a.value <= 26 for a in d.args):
            self.error("E203", "a board side must be between 1 and 26 cells", d.span)
        for m in d.modifiers:
            if m.name not in BOARD_MODIFIERS:
                self.error("E105", f"unknown board property `{m.name}` (known: {', '.join(BOARD_MODIFIERS)})",
                           m.span, self.suggest(m.name, BOARD_MODIFIERS))
            elif m.name == "draw":
                sym = self.out.symbols.get(getattr(m.value, "name", ""))
                if not isinstance(m.value, n.Name) or sym is None or sym.kind != "def" or len(sym.decl.params or ()) != 1:
                    self.error("E201", "`draw` names a def of one cell that gives the text of that cell", m.span)
                else:
                    self.used.add(m.value.name)
            elif m.name == "cell_width":
                if not (isinstance(m.value, n.Lit) and type(m.value.value) is int and 1 <= m.value.value <= 8):
                    self.error("E203", "`cell_width N`: how many characters a cell's drawing takes, 1 to 8", m.span)
            elif m.value is not None:
                self.error("E105", f"`{m.name}` takes no value", m.span)

    def check_var(self, d: n.VarDecl) -> None:
        t = self.out.symbols[d.name].type if self.out.symbols.get(d.name, Symbol("", None)).decl is d else "any"
        self.check_per(d, "a variable")
        self.check_modifiers(d.modifiers, VAR_MODIFIERS, "variable")
        vis = [m.name for m in d.modifiers if m.name in VAR_MODIFIERS]
        if len(vis) > 1:
            self.error("E105", f"variable `{d.name}` has more than one visibility ({', '.join(vis)})", d.span)
        with self.scope({}):
            self.expect(d.init, t, f"the initial value of `{d.name}`")

    def check_def(self, d: n.DefDecl) -> None:
        scope = self.params_scope(d.params or ())
        sym = self.out.symbols.get(d.name)
        if sym is not None and sym.decl is d:
            sym.type = self.known.get(d.name, "any")     # what a recursive call reads (see typed)
        with self.scope(scope):
            t = self.expr(d.body)
        if sym is not None and sym.decl is d:
            sym.type = t
        if d.show and d.params:
            self.error("E105", "only a def without parameters can be `show`n", d.span)

    def typed(self, sym: Symbol) -> str:
        """The type of a def or table where it is read. Every def and table is checked before the
        rest of the file, each after the ones it reads (`types_first`), so a card, a step or a def
        sees the same types whether it comes before or after them. A def read before its type is
        known is in a cycle of calls (recursion): it reads the type the last pass found (`known`)."""
        if sym.kind in ("def", "table") and id(sym.decl) not in self.done:
            self.recursive.setdefault(sym.decl.name, sym.type)
        return sym.type

    def types_first(self) -> None:
        """Check the defs and tables first, each after the defs and tables its body names (a
        depth-first walk with an explicit stack: a chain of thousands of defs needs no deep Python
        stack), keeping each one's diagnostics for its own place in the file."""
        syms = self.out.symbols
        decls = [d for d in self.game.decls if isinstance(d, (n.DefDecl, n.TableDecl))]
        own = {d.name: d for d in decls if syms.get(d.name) is not None and syms[d.name].decl is d}
        for name, t in self.known.items():
            if name in own and isinstance(own[name], n.DefDecl):
                syms[name].type = t

        def reads(d):
            parts = d.body if isinstance(d, n.DefDecl) else [v for _, v in d.entries]
            return iter([own[x.name] for x in walk(parts) if isinstance(x, (n.Name, n.Call)) and x.name in own])

        seen: set[int] = set()
        order = []
        for root in decls:
            if id(root) in seen:
                continue
            seen.add(id(root))
            stack = [(root, reads(root))]
            while stack:
                d, later = stack[-1]
                nxt = next((x for x in later if id(x) not in seen), None)
                if nxt is None:
                    stack.pop()
                    order.append(d)
                else:
                    seen.add(id(nxt))
                    stack.append((nxt, reads(nxt)))
        diagnostics = self.out.diagnostics
        try:
            for d in order:
                self.out.diagnostics = self.early[id(d)] = []
                self.check_decl(d)
        finally:
            self.out.diagnostics = diagnostics

    def ability_params(self) -> None:
        """A card's `replace P(x)` or `modify D(x)` binds the parameters of P or D: an untyped one
        gets whatever type calls give the target's parameter, as the target's own body does."""
        procs = {d.name: d for d in self.game.decls if isinstance(d, n.ProcDecl)}
        defs = {d.name: d for d in self.game.decls if isinstance(d, n.DefDecl)}
        for a in self.out.abilities:
            if a.form not in ("replace", "modify"):
                continue
            target = (procs if a.form == "replace" else defs).get(a.name)
            made = [x for x in (procs.get(a.proc or ""), defs.get(a.where or "")) if x is not None]
            if target is None or not target.params:
                continue
            for d in made:
                for mine, theirs in zip(d.params[1:], target.params):     # (the first is `self`)
                    if mine.type is None and theirs.type is None:
                        self.param_alias[(mine.span, mine.name)] = (theirs.span, theirs.name)

    def check_step(self, d: n.StepDecl) -> None:
        with self.scope({}):
            if d.actor is not None:
                self.expect(d.actor, "player", "the player who acts in a step")
            self.block(d.enter)
        names = set()
        for a in d.actions:
            if a.name in names:
                self.error("E102", f"step `{d.name}` has two actions named `{a.name}`", a.span)
            names.add(a.name)
            scope: dict[str, str] = {}
            with self.scope(scope):
                for p in a.params:
                    self.bind(p.name, p.span, "parameter")
                    dt = self.expr(p.domain)
                    if dt == "zones":
                        self.error("E201", f"`{p.domain.name}` is a zone per player: say whose, e.g. `{p.domain.name}[me]`",
                                   p.domain.span)
                        dt = "any"
                    elif not is_list_like(dt) and not dt.startswith("enum:"):
                        self.error("E201", f"a parameter's choices must be a list or a zone, not {show(dt)}",
                                   p.domain.span)
                    if p.mode == "subset":
                        if p.size is not None and self.expr(p.size) not in ("range", "int", "any"):
                            self.error("E201", "a subset's size must be a number or a range like `1..4`", p.size.span)
                        scope[p.name] = "list:" + elem(dt)
                    else:
                        scope[p.name] = dt if dt.startswith("enum:") else elem(dt)
                if a.text is not None:
                    self.action_text(a, set(scope))
                if a.require is not None:
                    self.expect(a.require, "bool", "a `require` condition")
                self.block(a.body)

    def action_text(self, a: n.ActionDecl, params: set) -> None:
        """`as TEXT`: worked out once for each binding of the parameters and kept, so it may read
        the parameters and what never changes in a match (fields, tables, options, enum values)."""
        self.expect(a.text, "text", "an action's text (`as`)")
        for x in walk(a.text):
            bad = None
            kind = self.out.refs.get(id(x), ("",))[0]          # (what the name or call was found to be)
            if isinstance(x, n.Name) and x.name not in params and self.lookup_local(x.name) is None:
                if kind in ("var", "zone", "def") or (kind == "builtin" and x.name not in ("players", "player_count")):
                    bad = x.name
            elif isinstance(x, n.Call) and (kind == "def" or (kind == "builtin" and x.name in (
                    "roll", "pick", "size", "top", "bottom"))):
                bad = x.name
            if bad is not None:
                self.error("E201", f"an action's text is worked out once for each choice of its parameters: it may "
                           f"use them and what never changes (fields, tables, options), not `{bad}`", x.span)
                return

    def whole_game(self) -> None:
        steps = [d for d in self.game.decls if isinstance(d, n.StepDecl)]
        if not steps:
            self.error("E111", "the game has no steps: declare `turn { step ... }`", self.game.span)
        if not any(isinstance(x, n.Finish) for x in walk(self.game)):
            self.error("E112", "the game never ends: no `finish` statement anywhere", self.game.span)
        # A name some error suggested ("did you mean `hand`?") is used, just misspelt: not unused.
        suggested = {d.suggestion for d in self.out.diagnostics if d.severity == "error" and d.suggestion}
        for name, sym in self.out.symbols.items():
            if name in suggested or name.startswith("__"):      # (`__`: a card's ability, run by the engine)
                continue
            shown = sym.kind == "def" and sym.decl.show
            if sym.kind in ("zone", "var", "def", "proc", "table", "option", "board") and name not in self.used \
                    and not shown:
                self.warn("W201", f"{sym.kind} `{name}` is declared but never used", sym.decl.span)
            elif sym.kind == "enum" and name not in self.used and not any(i.name in self.used for i in sym.decl.items):
                self.warn("W201", f"enum `{name}` is declared but never used", sym.decl.span)
            elif sym.kind == "kind" and name not in self.used:
                self.warn("W201", f"kind `{name}` is declared but never used: no component of it is ever created",
                          sym.decl.span)

    # ---- scopes ----
    def scope(self, names: dict):
        checker = self

        class _Scope:
            def __enter__(self):
                checker.scopes.append(names)

            def __exit__(self, *exc):
                checker.scopes.pop()
        return _Scope()

    def lookup_local(self, name: str) -> str | None:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return None

    def visible_names(self):
        names = set(BUILTIN_VALUES) | set(self.out.symbols)
        for s in self.scopes:
            names |= set(s)
        return names

    # ---- statements ----
    def block(self, stmts) -> None:
        self.scopes.append({})
        try:
            for s in stmts:
                self.stmt(s)
        finally:
            self.scopes.pop()

    def zone_target(self, e, what: str) -> None:
        t = self.expr(e)
        if t == "zones":
            self.error("E201", f"{what} `{getattr(e, 'name', '')}` is a zone per player: say whose, e.g. "
                               f"`{getattr(e, 'name', 'hand')}[me]`", e.span)
        elif t not in ("zone", "any"):
            self.error("E201", f"{what} must be a zone, not {show(t)}", e.span)

    def stmt(self, s) -> None:
        if isinstance(s, n.Move):
            t = self.expr(s.what)
            if t == "zones":
                self.error("E201", "say whose zone to move from, e.g. `hand[me]`", s.what.span)
            elif not (is_comp(t) or t == "zone" or (t.startswith("list:") and is_comp(elem(t)))):
                self.error("E201", f"only components can be moved, not {show(t)}", s.what.span)
            self.zone_target(s.dest, "the destination")
        elif isinstance(s, n.Shuffle):
            self.zone_target(s.zone, "what is shuffled")
        elif isinstance(s, n.Eliminate):
            self.players_expr(s.who, "who is eliminated")
        elif isinstance(s, n.Assign):
            self.assign(s)
        elif isinstance(s, (n.Append, n.Remove)):
            self.append(s)
        elif isinstance(s, n.Let):
            t = self.expr(s.value)
            self.bind(s.name, s.span)
            self.scopes[-1][s.name] = t
        elif isinstance(s, n.If):
            self.expect(s.test, "bool", "an `if` condition")
            self.block(s.then)
            self.block(s.other)
        elif isinstance(s, n.For):
            t = self.expr(s.iterable)
            if not is_list_like(t):
                self.error("E201", f"`for` needs a list, a range or a zone, not {show(t)}", s.iterable.span)
            self.bind(s.var, s.span, "loop variable")
            self.scopes.append({s.var: elem(t)})
            try:
                self.block(s.body)
            finally:
                self.scopes.pop()
        elif isinstance(s, n.While):
            self.expect(s.test, "bool", "a `while` condition")
            self.block(s.body)
        elif isinstance(s, n.Repeat):
            self.expect(s.count, "int", "a repeat count")
            self.block(s.body)
        elif isinstance(s, n.Goto):
            sym = self.out.symbols.get(s.step)
            if sym is None or sym.kind != "step":
                self.error("E101", f"unknown step `{s.step}`", s.span, self.suggest(s.step, self.names_of("step")))
        elif isinstance(s, n.EndTurn):
            if s.to is not None:
                self.expect(s.to, "player", "the player who takes the next turn")
        elif isinstance(s, n.Finish) and s.result == "score":
            if not any(isinstance(d, n.Players) and d.ranking for d in self.game.decls):
                self.error("E113", "`finish by score` needs the players ranked: `players 2..4 ranked by vp[me]`",
                           s.span)
            if s.why is not None:
                self.expect(s.why, "text", "why the game ended")
        elif isinstance(s, n.Finish):
            if s.why is not None:
                self.expect(s.why, "text", "why the game ended")
            if s.who is not None:
                t = self.expr(s.who)
                if not compatible(t, "player") and not compatible(t, "list:player"):
                    self.error("E201", f"`finish {s.result} for` needs a player or a list of players, not {show(t)}",
                               s.who.span)
        elif isinstance(s, n.CallStmt):
            sym = self.out.symbols.get(s.name)
            if sym is None or sym.kind != "proc":
                self.error("E101", f"unknown procedure `{s.name}`", s.span,
                           self.suggest(s.name, self.names_of("proc")))
                for a in s.args:
                    self.expr(a)
                return
            self.used.add(s.name)
            self.check_args(s, sym.decl.params, s.args, f"procedure `{s.name}`")
        elif isinstance(s, n.Create):
            self.make(s.make)
            self.zone_target(s.dest, "where it is created")
        elif isinstance(s, n.CreateFrom):
            self.create_from(s)
            self.zone_target(s.dest, "where it is created")
        elif isinstance(s, n.Log):
            self.expr(s.value)
            if s.to is not None:
                self.players_expr(s.to, "who a message is for")
        elif isinstance(s, n.CreateCards):
            self.create_cards(s)
            self.zone_target(s.dest, "where it is created")
        elif isinstance(s, n.Choose):
            self.choose(s)
        elif isinstance(s, n.May):
            if s.chooser is not None:
                self.expect(s.chooser, "player", "who answers")
            if s.prompt is not None:
                self.expect(s.prompt, "text", "a prompt")
            self.block(s.body)
            self.block(s.other)
        elif isinstance(s, (n.Emit, n.Open, n.RunHook)):
            what, name = (("event", s.event) if isinstance(s, n.Emit) else ("window", s.window)
                          if isinstance(s, n.Open) else ("hook", s.hook))
            sym = self.out.symbols.get(name)
            if sym is None or sym.kind != what:
                self.error("E101", f"unknown {what} `{name}`", s.span, self.suggest(name, self.names_of(what)))
                for a in s.args:
                    self.expr(a)
            else:
                self.used.add(name)
                self.check_args(s, sym.decl.params, s.args, f"{what} `{name}`")
            if isinstance(s, n.Open) and s.start is not None:
                self.expect(s.start, "player", "the first player asked")
            if isinstance(s, n.Open) and s.to is not None:
                self.players_expr(s.to, "who may respond")
            if isinstance(s, n.RunHook):
                t = self.expr(s.card)
                if not is_comp(t) and t not in ("any", "none"):
                    self.error("E201", f"`run … of` needs a component, not {show(t)}", s.card.span)
        elif isinstance(s, n.Grant):
            sym = self.out.symbols.get(s.target)
            if sym is None or sym.kind != "def" or sym.decl.params is None:
                self.error("E101", f"`modify … until` needs a def with parameters; `{s.target}` is not one", s.span,
                           self.suggest(s.target, self.names_of("def")))
                for a in s.args:
                    self.expr(a)
            else:
                self.used.add(s.target)
                self.check_args(s, sym.decl.params, s.args, f"def `{s.target}`")
            self.expect(s.amount, "int", "the amount added")
            if s.until not in ("turn_end",):
                self.error("E105", f"a timed modifier lasts `until turn_end`, not until `{s.until}`", s.span)
        elif isinstance(s, n.Reveal):
            t = self.expr(s.what)
            if not (is_comp(t) or t in ("zone", "any") or (t.startswith("list:") and is_comp(elem(t)))):
                self.error("E201", f"only components can be revealed, not {show(t)}", s.what.span)
            if s.to is not None:
                self.players_expr(s.to, "who sees it")
        else:                       # a statement kind the parser makes but the checker was not taught
            raise AssertionError(f"unknown statement node {type(s).__name__}")

    def players_expr(self, e, what: str) -> None:
        t = self.expr(e)
        if not compatible(t, "player") and not compatible(t, "list:player"):
            self.error("E201", f"{what} must be a player or a list of players, not {show(t)}", e.span)

    def create_cards(self, s: n.CreateCards) -> None:
        sym = self.out.symbols.get(s.kind)
        if sym is None or sym.kind != "kind":
            self.error("E101", f"unknown component kind `{s.kind}`", s.span, self.suggest(s.kind, self.names_of("kind")))
            return
        self.used.add(s.kind)
        if not any(c.kind == s.kind for c in self.out.cards):
            self.error("E201", f"there are no `card {s.kind} \"…\"` declarations to create", s.span)
        fields = self.kind_fields(s.kind)
        given = set()
        for kw in s.kwargs:
            if kw.name in given:
                self.error("E102", f"field `{kw.name}` is given twice", kw.span)
            given.add(kw.name)
            if kw.name not in fields:
                self.error("E104", f"kind `{s.kind}` has no field `{kw.name}`", kw.span, self.suggest(kw.name, fields))
                self.expr(kw.value)
                continue
            self.expect(kw.value, fields[kw.name], f"field `{kw.name}`")
        if s.where is not None:
            with self.scope(dict(fields)):
                self.expect(s.where, "bool", "which cards to create")
        for f in sym.decl.fields:                # a field without a default: each card or the statement gives it
            if f.default is None and f.name not in given:
                for c in self.out.cards:
                    if c.kind == s.kind and not any(x.name == f.name for x in c.fields):
                        self.error("E103", f"card {c.name!r} has no `{f.name}`: give it here, "
                                           f"`create cards {s.kind}({f.name}: …)`", s.span)
                        break

    def choose(self, s: n.Choose) -> None:
        dt = self.expr(s.domain)
        if dt == "zones":
            self.error("E201", f"`{getattr(s.domain, 'name', '')}` is a zone per player: say whose", s.domain.span)
            dt = "any"
        elif not is_list_like(dt) and not dt.startswith("enum:") and dt != "any":
            self.error("E201", f"the choices must be a list or a zone, not {show(dt)}", s.domain.span)
        if s.chooser is not None:
            self.expect(s.chooser, "player", "who chooses")
        if s.prompt is not None:
            self.expect(s.prompt, "text", "a prompt")
        if s.size is not None and self.expr(s.size) not in ("range", "int", "any"):
            self.error("E201", "a choice's size must be a number or a range like `0..2`", s.size.span)
        one = dt if dt.startswith("enum:") else elem(dt)
        self.bind(s.var, s.span, "choice")
        self.scopes.append({s.var: one if s.mode == "one" else "list:" + one})
        try:
            if s.where is not None:
                self.expect(s.where, "bool", "a choice's condition")
            if s.label is not None:
                self.scopes.append({s.var: one})
                self.expect(s.label, "text", "how an option is shown")
                self.scopes.pop()
            self.block(s.body)
        finally:
            self.scopes.pop()
        self.block(s.other)

    def create_from(self, s: n.CreateFrom) -> None:
        from .content import load_rows              # PyYAML only when a rule file imports content
        sym = self.out.symbols.get(s.kind)
        if sym is None or sym.kind != "kind":
            self.error("E101", f"unknown component kind `{s.kind}`", s.span,
                       self.suggest(s.kind, self.names_of("kind")))
            return
        self.used.add(s.kind)
        fields = {f.name: (self.resolve_type_quiet(f.type), f.default is not None) for f in sym.decl.fields}
        key = (s.path, s.kind)
        first = key not in self.loaded
        if first:
            enums = {d.name: [i.name for i in d.items] for d in self.game.decls if isinstance(d, n.EnumDecl)}
            self.loaded[key] = load_rows(self.game.span.file, s.path, s.path_span, s.kind, fields, enums,
                                         self.suggest_names)
        content, diags, sources = self.loaded[key]
        if first:                                # (a file's own problems are reported once)
            self.out.diagnostics.extend(diags)
            self.out.sources.update(sources)
        if content is None:
            return
        # every statement puts its rows into the IR: together they may not make more than a match may hold
        self.content_rows += len(content.rows)
        if self.content_rows > COMPONENT_LIMIT:
            self.error("E506", f"the `create … from` statements make more than {COMPONENT_LIMIT:,} components "
                               f"together (the limit for a match)", s.span)
            return
        self.out.contents[id(s)] = content

    def assign(self, s: n.Assign) -> None:
        vt = self.expr(s.value)
        if _sets_turn_order(s) and self.lookup_local("turn_order") is None \
                and not is_value(self.out.symbols.get("turn_order")):
            self.require_type(s.value, vt, "list:player", "a turn order (a list of every player)")
            self.out.refs[id(s.target)] = ("turn_order",)
            return
        want = self.target_type(s.target)
        if want is None:
            return
        if s.op in ("+=", "-="):
            if not compatible(want, "int"):
                self.error("E201", f"`{s.op}` needs a number variable, `{s.target.name}` is {show(want)}", s.target.span)
            self.require_type(s.value, vt, "int", f"the right side of `{s.op}`")
        else:
            self.require_type(s.value, vt, want, f"the value assigned to `{s.target.name}`")

    def append(self, s) -> None:
        """`append E to xs` and `remove E from xs`: xs a list, E one of its elements' type."""
        word = "append" if isinstance(s, n.Append) else "remove"
        vt = self.expr(s.value)
        want = self.target_type(s.target)
        if want is None:
            return
        if not want.startswith("list:"):
            self.error("E201", f"`{word}` needs a list, `{s.target.name}` is {show(want)}", s.target.span)
            return
        done = "appended to" if word == "append" else "removed from"
        self.require_type(s.value, vt, elem(want), f"the value {done} `{s.target.name}`")

    def target_type(self, target: n.LValue) -> str | None:
        """The type of an assignment's target (a local, a variable or one entry of a per-player or
        per-cell one), recording which it is; None (after an error) if it is none of these."""
        local = self.lookup_local(target.name)
        if local is not None:
            if target.index is not None:
                self.error("E201", f"`{target.name}` is a local value and cannot be indexed", target.span)
            want = local
            self.out.refs[id(target)] = ("local", target.name)
        else:
            sym = self.out.symbols.get(target.name)
            if sym is None or sym.kind != "var":
                if sym is None:
                    self.error("E101", f"unknown variable `{target.name}`", target.span,
                               self.suggest(target.name, lambda: self.names_of("var") + list(self.visible_names())))
                else:
                    self.error("E201", f"`{target.name}` is a {sym.kind}, not a variable", target.span)
                return None
            self.used.add(target.name)
            self.written.add(target.name)
            self.out.refs[id(target)] = ("var", target.name)
            per = sym.decl.per and self.index_type(sym.decl)
            if per and target.index is None:
                parts = [sym.decl.per] + [p[0] for p in sym.decl.more_per]
                self.error("E201", f"`{target.name}` is per {self.pers(parts)}: say which, e.g. "
                           f"`{target.name}[{self.key_examples(parts)}]`", target.span)
            elif not per and target.index is not None:
                self.error("E201", f"`{target.name}` is not declared `per …` and cannot be indexed", target.span)
            elif target.index is not None:
                self.check_key(target.index, sym.decl, target.name)
            want = sym.type
        return want

    # ---- expressions ----
    def expect(self, e, want: str, what: str) -> str:
        t = self.expr(e)
        self.require_type(e, t, want, what)
        return t

    def require_type(self, e, got: str, want: str, what: str) -> None:
        if not compatible(got, want):
            self.error("E201", f"{what} must be {show(want)}, not {show(got)}", e.span)

    def expr(self, e) -> str:
        t = self._expr(e)
        self.out.types[id(e)] = t
        return t

    def _expr(self, e) -> str:
        if isinstance(e, n.Lit):
            v = e.value
            if type(v) is int and v > INT_LIMIT:
                self.error("E203", f"this number is larger than the integer limit ({INT_LIMIT:,})", e.span)
            return "none" if v is None else "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "text"
        if isinstance(e, n.Name):
            return self.name(e)
        if isinstance(e, n.Unary):
            if e.op == "not":
                self.expect(e.operand, "bool", "the operand of `not`")
                return "bool"
            self.expect(e.operand, "int", "the operand of `-`")
            return "int"
        if isinstance(e, n.Binary):
            return self.binary(e)
        if isinstance(e, n.Cond):
            self.expect(e.test, "bool", "an `if` condition")
            a, b = self.expr(e.then), self.expr(e.other)
            if not compatible(a, b):
                self.error("E201", f"the two branches give {show(a)} and {show(b)}", e.span)
            return b if a in ("none", "any") else a     # (`any`: a recursive call, say — the other branch tells)
        if isinstance(e, n.Attr):
            return self.attr(e)
        if isinstance(e, n.Index):
            return self.index(e)
        if isinstance(e, n.Call):
            return self.call(e)
        if isinstance(e, n.Aggregate):
            return self.aggregate(e)
        if isinstance(e, n.Can):
            sym = self.out.symbols.get(e.hook)
            if sym is None or sym.kind != "hook":
                self.error("E101", f"unknown hook `{e.hook}`", e.span, self.suggest(e.hook, self.names_of("hook")))
                for a in e.args:
                    self.expr(a)
            else:
                self.used.add(e.hook)
                self.check_args(e, sym.decl.params, e.args, f"hook `{e.hook}`")
            t = self.expr(e.card)
            if not is_comp(t) and t not in ("any", "none"):
                self.error("E201", f"`can … of` needs a component, not {show(t)}", e.card.span)
            return "bool"
        if isinstance(e, n.Make):
            self.error("E201", f"`{e.kind}(...)` creates a component: use it with `create`", e.span)
            self.make(e)
            return "any"
        if isinstance(e, n.ListLit):
            types = [self.expr(x) for x in e.items]
            first = next((t for t in types if t != "none"), "any")
            for x, t in zip(e.items, types):
                if not compatible(t, first):
                    self.error("E201", f"a list mixes {show(first)} and {show(t)}", x.span)
            return "list:" + first
        if isinstance(e, n.ListComp):
            return "list:" + self.comprehension(e.comp)
        raise AssertionError(f"unknown expression node {type(e).__name__}")

    def name(self, e: n.Name) -> str:
        local = self.lookup_local(e.name)
        if local is not None:
            self.out.refs[id(e)] = ("local", e.name)
            return local
        sym = self.out.symbols.get(e.name)
        if e.name in BUILTIN_VALUES and not is_value(sym):      # (a declaration of that name hides it: W220)
            self.out.refs[id(e)] = ("builtin", e.name)
            return BUILTIN_VALUES[e.name]
        if sym is None:
            self.error("E101", f"unknown name `{e.name}`", e.span, self.suggest(e.name, self.visible_names))
            self.out.refs[id(e)] = ("unknown", e.name)
            return "any"
        self.used.add(e.name)
        self.out.refs[id(e)] = (sym.kind, e.name)
        if sym.kind == "enum":
            return "list:" + sym.type              # an enum used as a value lists its values
        if sym.kind == "def":
            if sym.decl.params is not None:
                if id(e) in self.function_refs:
                    return "any"
                self.error("E103", f"`{e.name}` takes arguments: call it as `{e.name}(...)`", e.span)
            return self.typed(sym)
        if sym.kind == "board":
            return "board"
        if sym.kind == "var":
            return sym.type if not sym.decl.per else "list:" + sym.type
        if sym.kind in ("kind", "proc", "step", "table"):
            self.error("E201", f"`{e.name}` is a {sym.kind} and has no value here", e.span)
            return "any"
        return sym.type

    def binary(self, e: n.Binary) -> str:
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, "bool", f"the left side of `{op}`")
            self.expect(e.right, "bool", f"the right side of `{op}`")
            return "bool"
        lt, rt = self.expr(e.left), self.expr(e.right)
        if op in ("==", "!="):
            if not compatible(lt, rt):
                self.error("E201", f"cannot compare {show(lt)} with {show(rt)}", e.span)
            return "bool"
        if op == "in":
            if not is_list_like(rt):
                self.error("E201", f"`in` needs a list or a zone on its right, not {show(rt)}", e.right.span)
            elif not compatible(lt, elem(rt)):
                self.error("E201", f"{show(lt)} can never be in a {show(rt)}", e.span)
            return "bool"
        if op == "+" and "text" in (lt, rt):
            for side, t in ((e.left, lt), (e.right, rt)):
                if t not in ("text", "any"):
                    self.error("E201", f"cannot add {show(t)} to text: convert it with `text(...)`", side.span)
            return "text"
        if op == "+" and (lt.startswith("list:") or rt.startswith("list:") or "zone" in (lt, rt)):
            # concatenation: two lists (or zones: their components, in order) of one element type
            for side, t in ((e.left, lt), (e.right, rt)):
                if not (is_list_like(t) and t != "range" or t == "any"):
                    self.error("E201", f"cannot add {show(t)} to a list: put it in brackets, `[x]`", side.span)
                    return "any"
            le, re_ = elem(lt), elem(rt)
            if not compatible(le, re_):
                self.error("E201", f"a list of {show(le)} and a list of {show(re_)} cannot be joined", e.span)
            return "list:" + (le if le not in ("any", "none") else re_)
        self.require_type(e.left, lt, "int", f"the left side of `{op}`")
        self.require_type(e.right, rt, "int", f"the right side of `{op}`")
        if op == "..":
            return "range"
        if op in ("<", "<=", ">", ">="):
            return "bool"
        return "int"

    def kind_fields(self, kind: str | None) -> dict[str, str]:
        """Fields of one kind, or (kind None) of every kind that agrees on a field's type (kept:
        a file may read `.field` of untyped values thousands of times, over thousands of kinds)."""
        if kind not in self.fields:
            self.fields[kind] = self._kind_fields(kind)
        return self.fields[kind]

    def _kind_fields(self, kind: str | None) -> dict[str, str]:
        kinds = [s.decl for s in self.out.symbols.values() if s.kind == "kind"]
        if kind is not None:
            kinds = [k for k in kinds if k.name == kind]
        fields: dict[str, str] = {}
        for k in kinds:
            for f in k.fields:
                t = self.resolve_type_quiet(f.type)
                fields[f.name] = t if fields.get(f.name, t) == t else "any"
        return fields

    def resolve_type_quiet(self, t: n.TypeRef) -> str:
        if t.name == "list":
            return "list:" + self.resolve_type_quiet(t.elem)
        if t.name in PRIMITIVES:
            return t.name
        sym = self.out.symbols.get(t.name)
        return sym.type if sym and sym.kind in ("enum", "kind") else "any"

    def attr(self, e: n.Attr) -> str:
        t = self.expr(e.obj)
        if t in ("any", "none"):
            fields = self.kind_fields(None)
            if e.name in CELL_FIELDS and e.name not in fields:
                self.out.types[id(e.obj)] = "cell"     # only a cell has this field
                return CELL_FIELDS[e.name]
            if e.name in CELL_FIELDS:
                self.error("E205", f"`.{e.name}` could be a cell's or a component's: give the parameter a type "
                                   f"(e.g. `c: cell`)", e.span)
            elif e.name not in fields:
                self.error("E104", f"no component kind has a field `{e.name}`", e.span,
                           self.suggest(e.name, lambda: list(fields) + list(CELL_FIELDS)))
                return "any"
            return fields.get(e.name, "any")
        if t == "cell":
            if e.name not in CELL_FIELDS:
                self.error("E104", f"a cell has no field `{e.name}` (fields: {', '.join(CELL_FIELDS)})", e.span,
                           self.suggest(e.name, CELL_FIELDS))
                return "any"
            return CELL_FIELDS[e.name]
        if not t.startswith("comp:"):
            self.error("E104", f"{show(t)} has no field `{e.name}`", e.span)
            return "any"
        kind = None if t == "comp:*" else t[5:]
        fields = self.kind_fields(kind)
        if e.name not in fields:
            msg = f"kind `{kind}` has no field `{e.name}`" if kind else f"no component kind has a field `{e.name}`"
            self.error("E104", msg, e.span, self.suggest(e.name, fields))
            return "any"
        return fields[e.name]

    def index(self, e: n.Index) -> str:
        obj = e.obj
        if isinstance(obj, n.Name) and self.lookup_local(obj.name) is None:
            sym = self.out.symbols.get(obj.name)
            if sym is not None and sym.kind == "table":
                self.used.add(obj.name)
                self.out.refs[id(obj)] = ("table", obj.name)
                self.expr(e.index)
                return self.typed(sym)
            if sym is not None and sym.kind == "zone":
                self.used.add(obj.name)
                self.out.refs[id(obj)] = ("zone", obj.name)
                if not sym.decl.per:
                    self.error("E201", f"zone `{obj.name}` is not declared `per …` and cannot be indexed",
                               e.span)
                else:
                    self.check_key(e.index, sym.decl, obj.name)
                return "zone"
            if sym is not None and sym.kind == "var" and sym.decl.per:
                self.used.add(obj.name)
                self.out.refs[id(obj)] = ("var", obj.name)
                self.check_key(e.index, sym.decl, obj.name)
                return sym.type
        t = self.expr(obj)
        self.expect(e.index, "int", "a list index")
        if t.startswith("list:") or t == "zone":
            return elem(t)
        if t != "any":
            self.error("E201", f"{show(t)} cannot be indexed", e.span)
        return "any"

    def check_args(self, e, params, args, what: str) -> list[str]:
        types = [self.expr(a) for a in args]
        if len(args) != len(params):
            self.error("E103", f"{what} takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                               f"{len(args)} given", e.span)
        for p, a, t in zip(params, args, types):
            if p.type is not None:
                self.require_type(a, t, self.resolve_type_quiet(p.type), f"argument `{p.name}` of {what}")
            else:
                self.arg_types.setdefault((p.span, p.name), set()).add(t)
        return types

    def inferable(self) -> dict:
        """Untyped parameters every call gives the same player, cell, enum value or component."""
        out = {}
        for key, types in self.arg_types.items():
            if len(types) == 1:
                (t,) = types
                if t in ("player", "cell") or t.startswith(("enum:", "comp:")):
                    out[key] = t
        return out

    def call(self, e: n.Call) -> str:
        sym = self.out.symbols.get(e.name)
        if sym is not None and sym.kind == "def" and (sym.decl.params is not None or e.name not in BUILTIN_FUNCTIONS):
            self.used.add(e.name)                # (a def of that name hides the builtin function: W220)
            self.out.refs[id(e)] = ("def", e.name)
            if sym.decl.params is None:
                self.error("E103", f"`{e.name}` takes no arguments: write `{e.name}` without parentheses", e.span)
                return self.typed(sym)
            self.check_args(e, sym.decl.params, e.args, f"`{e.name}`")
            return self.typed(sym)
        if sym is not None and sym.kind == "proc" and e.name not in BUILTIN_FUNCTIONS:
            self.error("E201", f"procedure `{e.name}` gives no value; call it as a statement", e.span)
            return "any"
        self.out.refs[id(e)] = ("builtin" if e.name in BUILTIN_FUNCTIONS else "unknown", e.name)
        if e.name not in BUILTIN_FUNCTIONS:
            defs = lambda: self.names_of("def") + list(BUILTIN_FUNCTIONS)
            self.error("E101", f"unknown function `{e.name}`", e.span, self.suggest(e.name, defs))
            for a in e.args:
                self.expr(a)
            return "any"
        lo, hi = BUILTIN_FUNCTIONS[e.name].low, BUILTIN_FUNCTIONS[e.name].high
        if e.name == "reachable" and len(e.args) == 3 and isinstance(e.args[2], n.Name):
            self.function_refs.add(id(e.args[2]))      # a def passed by name, called by the engine
        types = [self.expr(a) for a in e.args]
        if not lo <= len(types) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            self.error("E103", f"`{e.name}` takes {want} argument{'s' if hi != 1 else ''}, {len(types)} given", e.span)
            return "any"
        return self.builtin_result(e, e.name, types, e.args)

    def builtin_result(self, e, name: str, types: list[str], args) -> str:
        t0 = types[0]

        def need(i: int, pred, what: str) -> None:
            if not pred(types[i]):
                self.error("E201", f"`{name}` needs {what}, not {show(types[i])}", args[i].span)

        spec = BUILTIN_FUNCTIONS[name]
        if spec.params:                              # typed from its description (ir/spec.py)
            for i, kind in enumerate(spec.params[:len(types)]):
                if kind != "any":
                    need(i, *ARG_TESTS[kind])
            return {"elem": elem(t0), "list:elem": "list:" + elem(t0)}.get(spec.result, spec.result)
        if name in ("max", "min"):
            if len(types) == 1 or (len(types) == 2 and types[0].startswith("list:")):
                need(0, lambda t: is_list_like(t) and compatible(elem(t), "int"), "numbers")
                if len(types) == 2:                    # max(xs, 0): 0 when xs is empty
                    need(1, lambda t: compatible(t, "int"), "a number (the value when the list is empty)")
            else:
                for i in range(len(types)):
                    need(i, lambda t: compatible(t, "int"), "numbers")
            return "int"
        if name in ("top", "bottom"):
            need(0, lambda t: t in ("zone", "any"), "a zone")
            if len(types) == 2:
                need(1, lambda t: compatible(t, "int"), "a number of components")
                return "list:comp:*"
            return "comp:*"
        if name == "text":
            return "text"
        return self.board_result(e, name, types, need)

    def board_result(self, e, name: str, types: list[str], need) -> str:
        is_cell = lambda t: compatible(t, "cell")
        is_board = lambda t: t in ("board", "any")
        is_text = lambda t: compatible(t, "text")
        if name in ("cells", "directions", "rows", "cols"):
            need(0, is_board, "a board")
            if len(types) == 2:
                need(1, is_text, "a cell kind such as \"octagon\"")
            return {"cells": "list:cell", "directions": "list:text"}.get(name, "int")
        if name == "cell":
            need(0, is_board, "a board")
            if len(types) == 3:                        # cell(board, col, row): by numbers from 1
                need(1, lambda t: compatible(t, "int"), "a column number (from 1)")
                need(2, lambda t: compatible(t, "int"), "a row number (from 1, the bottom row)")
            else:
                need(1, is_text, "a cell name such as \"a1\"")
            return "cell"
        if name == "edge":
            need(0, is_board, "a board")
            need(1, is_text, "a side such as \"n\"")
            return "list:cell"
        if name == "line_in":
            need(0, is_cell, "a cell")
            need(1, is_text, "a direction such as \"n\"")
            need(2, lambda t: is_list_like(t) and compatible(elem(t), "cell"), "a list of cells")
            return "list:cell"
        if name == "opposite":
            need(0, is_text, "a direction such as \"ne\"")
            return "text"
        if name == "neighbours":
            need(0, is_cell, "a cell")
            if len(types) == 2:
                need(1, is_text, "a cell kind such as \"socket\"")
            return "list:cell"
        if name == "step":
            need(0, is_cell, "a cell")
            need(1, is_text, "a direction such as \"n\"")
            return "cell"
        if name == "line":
            need(0, is_cell, "a cell")
            need(1, is_text, "a direction such as \"n\"")
            need(2, lambda t: compatible(t, "int"), "a number of cells")
            return "list:cell"
        if name in ("between", "direction", "distance"):
            need(0, is_cell, "a cell")
            need(1, is_cell, "a cell")
            return {"between": "list:cell", "direction": "text"}.get(name, "int")
        if name == "reachable":
            need(0, is_cell, "a cell")
            need(1, lambda t: compatible(t, "int"), "a number of steps")
            arg = e.args[2] if isinstance(e, n.Call) else None
            sym = self.out.symbols.get(getattr(arg, "name", ""))
            if not isinstance(arg, n.Name) or sym is None or sym.kind != "def" or len(sym.decl.params or ()) != 1:
                self.error("E201", "`reachable` needs the name of a def of one cell that says if a step may "
                                   "enter it", (arg or e).span)
            return "list:cell"
        # every builtin in irspec's table has its result type above: one added there needs one here
        raise AssertionError(f"no result type for the builtin `{name}`")

    def comprehension(self, c: n.Comprehension) -> str:
        it = self.expr(c.iterable)
        if not is_list_like(it):
            self.error("E201", f"`for ... in` needs a list, a range or a zone, not {show(it)}", c.iterable.span)
        self.bind(c.var, c.span, "loop variable")
        self.scopes.append({c.var: elem(it)})
        depth = len(self.scopes)
        for name, iterable, span in c.more:        # [a + b for a in xs for b in ys]: b's list may use a
            inner = self.expr(iterable)
            if not is_list_like(inner):
                self.error("E201", f"`for ... in` needs a list, a range or a zone, not {show(inner)}", iterable.span)
            self.bind(name, span, "loop variable")
            self.scopes.append({name: elem(inner)})
        try:
            if c.where is not None:
                self.expect(c.where, "bool", "a `where` condition")
            if c.key is not None:
                k = self.expr(c.key)
                if not (compatible(k, "int") or compatible(k, "text")):
                    self.error("E201", f"a `by` key must be a number or a text, not {show(k)}", c.key.span)
            return self.expr(c.elem)
        finally:
            del self.scopes[depth - 1:]

    def aggregate(self, e: n.Aggregate) -> str:
        if e.name not in AGGREGATES:
            self.error("E101", f"`{e.name}(... for ...)` is not an aggregate (use one of {', '.join(AGGREGATES)})",
                       e.span, self.suggest(e.name, AGGREGATES))
            self.comprehension(e.comp)
            return "any"
        t = self.comprehension(e.comp)
        if e.default is not None:
            if e.name not in ("max", "min"):
                self.error("E103", f"only `max` and `min` take a value for when there is no element, not `{e.name}`",
                           e.default.span)
            self.expect(e.default, "int", f"the value of `{e.name}` when there is no element")
        return self.builtin_result(e, e.name, ["list:" + t], [e.comp])

    def make(self, e: n.Make) -> None:
        sym = self.out.symbols.get(e.kind)
        if sym is None or sym.kind != "kind":
            self.error("E101", f"unknown component kind `{e.kind}`", e.span,
                       self.suggest(e.kind, self.names_of("kind")))
            for kw in e.kwargs:
                self.expr(kw.value)
            return
        self.used.add(e.kind)
        fields = {f.name: f for f in sym.decl.fields}
        given = set()
        for kw in e.kwargs:
            if kw.name in given:
                self.error("E102", f"field `{kw.name}` is given twice", kw.span)
            given.add(kw.name)
            f = fields.get(kw.name)
            if f is None:
                self.error("E104", f"kind `{e.kind}` has no field `{kw.name}`", kw.span, self.suggest(kw.name, fields))
                self.expr(kw.value)
                continue
            self.expect(kw.value, self.resolve_type_quiet(f.type), f"field `{kw.name}`")
        for f in sym.decl.fields:
            if f.default is None and f.name not in given:
                self.error("E103", f"`{e.kind}(...)` needs a value for field `{f.name}`", e.span)


def hides_builtin(name: str, sym: Symbol) -> str:
    """W220: what `name` means in a file that declares a builtin's name."""
    what = {"enumval": "enum value", "var": "variable", "proc": "procedure"}.get(sym.kind, sym.kind)
    said = []
    if sym.kind == "table":
        said.append(f"`{name}[…]` reads the table")
    if name in BUILTIN_VALUES:
        said.append(f"`{name}` means the {what}, not the builtin value" if is_value(sym) else
                    f"`{name}` alone is still the builtin value")
    if name in BUILTIN_FUNCTIONS:
        said.append(f"`{name}(…)` calls the def, not the builtin function"
                    if sym.kind == "def" and sym.decl.params is not None else
                    f"`{name}(…)` is still the builtin function")
    if sym.kind in ("kind", "enum") and (name in PRIMITIVES or name == "any"):
        said.append(f"as a type, `{name}` is still the builtin type")
    return f"{what} `{name}` has the name of a builtin: in this file " + ", ".join(said) + \
        " (rename it to keep both apart)"


def _written_out(e) -> bool:
    """A literal number, true/false or string (a number may have a minus sign): what the IR can hold."""
    if isinstance(e, n.Unary) and e.op == "-":
        e = e.operand
        return isinstance(e, n.Lit) and type(e.value) is int
    return isinstance(e, n.Lit) and e.value is not None


def check(game: n.Game) -> Checked:
    """Check a parsed rule file (and lint it if it has no errors).

    The parser's nesting limits keep every pass far from Python's recursion limit; should one
    still be reached, the file gets an error rather than the caller a traceback."""
    try:
        first = Checker(game)
        out = first.run()
        inferred = first.inferable()
        # A recursive def's calls inside its own body were typed before its type was known.
        known = {name: out.symbols[name].type for name, seen in first.recursive.items()
                 if out.symbols[name].type != seen}
        if (inferred or known) and out.ok:       # again, with what the calls tell of untyped parameters
            again = Checker(game, inferred, known).run()
            if again.ok:
                return again
        return out
    except RecursionError:
        out = Checked(game, {})
        out.diagnostics.append(Diagnostic("E006", "the rule file is too deeply nested for rulelang to check: "
                                                  "simplify its most deeply nested rule", game.span))
        return out


def _shown_values(game: n.Game) -> n.Game:
    """`show "Label" = E` becomes a shown def of its own, `__show0`, `__show1`… (names a rule
    file cannot declare), carrying its label: every later pass treats it as a `show def`."""
    if not any(isinstance(d, n.ShowDecl) for d in game.decls):
        return game
    decls, count = [], 0
    for d in game.decls:
        if isinstance(d, n.ShowDecl):
            d = n.DefDecl(d.span, f"__show{count}", None, d.value, True, d.label)
            count += 1
        decls.append(d)
    return n.Game(game.span, game.name, tuple(decls), game.sources)


def _sets_turn_order(s: n.Assign) -> bool:
    """`turn_order = L`: the one builtin value the rules may set."""
    return s.target.name == "turn_order" and s.target.index is None and s.op == "="
