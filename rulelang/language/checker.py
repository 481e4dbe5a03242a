"""Name resolution and type checking of a parsed rule file.

The checker never stops at the first problem: it records a Diagnostic and carries on with
the type `any`, so one typo gives one message. What it learns (the type of every
expression, what every name refers to) is kept in `Checked` (checked.py) for the compiler.

It is one object in four files: this one (state, reporting, entry, names, scopes),
check_declarations.py, check_statements.py and check_expressions.py. The type rules it applies
(what the type strings mean, which fit where) are typerules.py.
"""
from __future__ import annotations

from . import nodes as n
from .check_declarations import DeclarationChecks
from .check_expressions import ExpressionChecks
from .check_statements import StatementChecks
from .checked import Checked, Symbol
from .content import Suggester
from .typerules import AGGREGATES, PRIMITIVES, is_value, kind_words, show
from ..core.errors import Diagnostic, Span
from ..core.limits import PLAYER_LIMIT
from ..ir.spec import BUILTIN_FUNCTIONS, BUILTIN_VALUES
from .parser import statement_words

__all__ = ["AGGREGATES", "Checked", "Checker", "Symbol", "check", "hides_builtin"]


class Checker(DeclarationChecks, StatementChecks, ExpressionChecks):
    """Checks one rule file. Its parts live in check_declarations.py, check_statements.py and
    check_expressions.py; they share the state set up here (`__init__`), and this module keeps
    reporting, the entry point, name binding and scopes."""

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
        self.labels_to_read: list = []     # (each kind's label and fields: W240, once every def is checked)
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
        self.narrowing_ids: set[int] = set()     # ids of the scopes an `if … in players` narrowed
        self.content_rows = 0                    # rows all `create ... from` statements make together
        self.content_bytes = 0                   # and the size of the content files they put in the IR

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
            # (the shadows too: an `anytime` action's parameter bound once per step it joins read
            # "W207 … shadows" six times in a shipped game)
            found = list({(d.code, d.message, d.span): d for d in self.shadows}.values()) + static_lint(self.out)
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
        means = f"this {what}" if what else "this local"
        self.shadows.append(Diagnostic("W207", f"{what or 'local'} `{name}` shadows {hidden}: inside this scope "
                                               f"`{name}` means {means}", span, "warning"))

    def collect(self) -> None:
        syms = self.out.symbols
        seen_players = False
        self.clashed: dict[str, set] = {}       # a name declared again (E102) -> the kinds it was declared as

        def declare(name: str, sym: Symbol, span: Span) -> None:
            if name.startswith("__") and name in self.user_names:
                self.error("E102", f"`{name}`: names starting with `__` are kept for the engine", span)
                return
            if name in syms:
                kind = syms[name].kind
                note = ("" if kind == sym.kind else " (one set of names holds every declaration: variables, "
                        "zones, defs, enums and their values…)")
                self.error("E102", f"`{name}` is already declared as {kind_words(kind)}{note}", span)
                self.clashed.setdefault(name, set()).add(sym.kind)   # (its uses as that are not said again)
                return
            if (name in BUILTIN_VALUES or name in BUILTIN_FUNCTIONS) and sym.kind != "step":   # (a step's name is
                # read by `goto` only: it hides nothing — a new author's step `pick`)
                # A name the language took over later must not break the files that declared it
                # first: the declaration wins where it can be written, the builtin elsewhere (W220).
                self.warn("W220", hides_builtin(name, sym), span)
            if sym.kind in ("var", "proc") and name in statement_words():
                # (a new author's `var side`: declared, then `side = …` after another statement read as
                # the language's `side` — a syntax error far from the declaration)
                use = f"`{name} = …`" if sym.kind == "var" else f"`{name}(…)`"
                self.warn("W267", f"`{name}` is a word of the language: {use} after another statement is read as "
                                  f"that word, a syntax error (name it otherwise: `{name}_{'count' if sym.kind == 'var' else 'all'}`)",
                          span)
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
        for d in self.game.decls:
            if isinstance(d, n.KindDecl):
                self.fields_named_as_values(d)
        # Declared types of vars and options are needed before bodies are checked.
        for d in self.game.decls:
            if isinstance(d, (n.VarDecl, n.OptionDecl)) and d.name in syms and syms[d.name].decl is d:
                syms[d.name].type = self.resolve_type(d.type)
                self.no_union(syms[d.name].type, d.type.span, f"`{d.name}`")

    def fields_named_as_values(self, kind) -> None:
        """W271: a field named as an enum's value, and its kind's `label` or `text` compares that name: there
        the name is the field, never the value (a new author's `kind Card { kind: Kind  hazard: Hazard }`
        beside `enum Kind { hazard, … }` wrote `label if kind == hazard …`, and read E201 "cannot
        compare Kind with Hazard")."""
        nodes = [x for part in (kind.label, kind.text) if part is not None for x in n.walk(part)]
        bound = {x.var for x in nodes if isinstance(x, n.Comprehension)} | {
            m[0] for x in nodes if isinstance(x, n.Comprehension) for m in x.more}
        # (compared only: `text(attack)` of a field `attack` beside a value `attack` means the field — a
        # review; `kind == hazard` is where the value was meant)
        read = {side.name for x in nodes if isinstance(x, n.Binary) and x.op in ("==", "!=")
                for side in (x.left, x.right) if isinstance(side, n.Name)} - bound
        for f in kind.fields:
            sym = self.out.symbols.get(f.name)
            if f.name in read and sym is not None and sym.kind == "enumval":
                enum = sym.type.partition(":")[2]
                self.warn("W271", f"field `{f.name}` of `{kind.name}` is named as the value `{f.name}` of enum "
                                  f"`{enum}`: in this kind's `label` and `text` the name reads the field, never the "
                                  f"value (name the field or the value otherwise)", f.span)

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


INFER_PASSES = 4        # checks with the untyped parameters' inferred types, at most (calls through calls)


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
            for _ in range(INFER_PASSES):
                checker = Checker(game, inferred, known)
                again = checker.run()
                if not again.ok:
                    out.diagnostics.extend(_untyped_faults(game, out, again, inferred))
                    return out
                # (and again while that tells more: `relay(who) { say(who) }` gives say's `who` the type
                # relay's was given — a new author's Euchre logged "1 makes ♦ trump", not "P2")
                more = {**checker.inferable(), **inferred}
                if more == inferred:
                    return again
                inferred = more
            return again
        return out
    except RecursionError:
        out = Checked(game, {})
        out.diagnostics.append(Diagnostic("E006", "the rule file is too deeply nested for rulelang to check: "
                                                  "simplify its most deeply nested rule", game.span))
        return out


def _untyped_faults(game: n.Game, out: Checked, again: Checked, inferred: dict) -> list[Diagnostic]:
    """W247: errors the check finds once untyped parameters take the type every call gives them
    (`def is_heart(c) = c == hearts`, called with cards: meant `c.suit`), said as warnings — an
    untyped parameter stays unchecked, and a file that was valid stays valid."""
    had = {(d.code, d.message, d.span) for d in out.diagnostics}
    found = []
    for d in again.diagnostics:
        if d.severity != "error" or (d.code, d.message, d.span) in had or d.span is None:
            continue
        decl = next((x for x in game.decls if isinstance(x, (n.DefDecl, n.ProcDecl)) and _within(d.span, x.span)), None)
        given = [f"`{p.name}` {_a(show(inferred[(p.span, p.name)]))}" for p in (decl.params or ()) if (p.span, p.name) in inferred] \
            if decl is not None else []
        if decl is not None and given:
            said = f"every call of `{decl.name}` gives {', '.join(given)}, and with that"
        else:
            said = "with the types its calls give untyped parameters"
        found.append(Diagnostic("W247", f"{said}: {d.message} (an untyped parameter is not checked: write its "
                                        f"type to have this an error)", d.span, "warning"))
    return found


def _a(words: str) -> str:
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def _within(inner: Span, outer: Span) -> bool:
    return (inner.file == outer.file and (outer.line, outer.column) <= (inner.line, inner.column)
            and (inner.line, inner.column) <= (outer.end_line, outer.end_column))


def _shown_values(game: n.Game) -> n.Game:
    """`show "Label" = E` becomes a shown def of its own, `__show0`, `__show1`… (names a rule
    file cannot declare), carrying its label: every later pass treats it as a `show def`."""
    if not any(isinstance(d, n.ShowDecl) for d in game.decls):
        return game
    decls, count = [], 0
    for d in game.decls:
        if isinstance(d, n.ShowDecl):
            d = n.DefDecl(d.span, f"__show{count}", None, d.value, True, d.label, modifiers=d.modifiers)
            count += 1
        decls.append(d)
    return n.Game(game.span, game.name, tuple(decls), game.sources)


