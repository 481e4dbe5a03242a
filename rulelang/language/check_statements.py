"""The checker's second part: statements, each checked by its own method (`STATEMENT_CHECKS`).
"""
from __future__ import annotations

from . import nodes as n
from .typerules import compatible, elem, is_comp, is_enum, is_list, is_list_like, is_union, is_value, kind_words, show
from ..core.limits import COMPONENT_LIMIT, JSON_SIZE_LIMIT
from ..ir.spec import INSERT, READMIT, REFUSE

CONTENT_IR_LIMIT = JSON_SIZE_LIMIT // 4    # bytes of content files all `create … from` put in the IR together


class StatementChecks:
    """Part of `Checker` (checker.py), sharing its state: the rules of each statement."""

    # ---- statements ----
    def block(self, stmts) -> None:
        self.scopes.append({})
        try:
            self.before = None                  # (the statement before this one: a `finish` it may end)
            for s in stmts:
                self.stmt(s)
                self.before = s
        finally:
            self.scopes.pop()

    def zone_target(self, e, what: str) -> None:
        t = self.expr(e)
        if t == "zones":
            self.family_unnamed(e, what)
        elif t not in ("zone", "any"):
            self.error("E201", f"{what} must be a zone, not {show(t)}", e.span)

    def stmt(self, s) -> None:
        """Check one statement, by the method its kind has in STATEMENT_CHECKS."""
        check = STATEMENT_CHECKS.get(type(s))
        if check is None:           # a statement kind the parser makes but the checker was not taught
            raise AssertionError(f"unknown statement node {type(s).__name__}")
        check(self, s)

    def check_move(self, s) -> None:
        t = self.expr(s.what)
        if t == "zones":
            # (every member's too: a new author's President moved `hand` whole, a family read as its list;
            # by player only for a zone per player alone — `stack[p]` of a zone per cell was wrong: a review)
            name = s.what.name if isinstance(s.what, n.Name) else None
            sym = self.out.symbols.get(name) if name else None
            decl = getattr(sym, "decl", None)
            if isinstance(decl, n.ZoneDecl) and decl.per == "player" and not decl.more_per:
                self.error("E201", f"say whose zone to move from, e.g. `{name}[me]`; every player's: "
                           f"`for p in players {{ move {name}[p] to … }}`", s.what.span)
            elif name is not None:
                self.error("E201", f"say which of the zones `{name}` to move from: `{name}[…]` with its index",
                           s.what.span)
            else:                                    # (not a zone's name: no name of another to offer)
                self.error("E201", "say whose zone to move from, e.g. `hand[me]`", s.what.span)
        elif not (is_comp(t) or t == "zone" or (is_list(t) and is_comp(elem(t)))):
            self.error("E201", f"only components can be moved, not {show(t)}", s.what.span)
        self.zone_target(s.dest, "the destination")
        if s.depth is not None:                # `insert(X, ZONE, N)`
            self.expect(s.depth, "int", f"`{INSERT}`'s depth (how many lie above it)")

    def check_shuffle(self, s) -> None:
        self.zone_target(s.zone, "what is shuffled")

    def check_eliminate(self, s) -> None:
        self.players_expr(s.who, "who is readmitted" if s.back else "who is eliminated")
        if s.until is not None and s.until != "round_end":
            self.error("E105", f"`eliminate … until {s.until}`: a player can be out until `round_end` (the end of "
                               f"this round) or for good (no `until`)", s.until_span or s.span,
                       self.suggest(s.until, ("round_end",)))

    def check_let(self, s) -> None:
        t = self.expr(s.value)
        self.bind(s.name, s.span)
        self.scopes[-1][s.name] = t

    def check_if(self, s) -> None:
        self.expect(s.test, "bool", "an `if` condition")
        yes, no = self.narrowing(s.test)          # `if t in players`: t is a player here, a component there
        with self.narrowed(yes):
            self.block(s.then)
        with self.narrowed(no):
            self.block(s.other)

    def check_for(self, s) -> None:
        t = self.expr(s.iterable)
        if not is_list_like(t):
            self.error("E201", f"`for` needs a list, a range or a zone, not {show(t)}", s.iterable.span)
        self.bind(s.var, s.span, "loop variable")
        self.scopes.append({s.var: elem(t)})
        try:
            self.block(s.body)
        finally:
            self.scopes.pop()

    def check_while(self, s) -> None:
        self.expect(s.test, "bool", "a `while` condition")
        self.block(s.body)

    def check_repeat(self, s) -> None:
        self.expect(s.count, "int", "a repeat count")
        self.block(s.body)

    def check_goto(self, s) -> None:
        sym = self.out.symbols.get(s.step)
        if (sym is None or sym.kind != "step") and "step" not in getattr(self, "clashed", {}).get(s.step, ()):
            # (a step named as a proc is E102 once, not an unknown step at each `goto` — a new author's Cribbage)
            self.error("E101", f"unknown step `{s.step}`", s.span, self.suggest(s.step, self.names_of("step")))

    def check_end_turn(self, s) -> None:
        if s.to is not None:
            self.expect(s.to, "player", "the player who takes the next turn")

    def check_finish(self, s) -> None:
        if s.result == "score":
            if not any(isinstance(d, n.Players) and d.ranking for d in self.game.decls):
                self.error("E113", "`finish by score` needs the players ranked: `players 2..4 ranked by vp[me]`",
                           s.span)
            if s.why is not None:
                self.expect(s.why, "text", "why the game ended")
        else:
            if s.why is not None:
                self.expect(s.why, "text", "why the game ended")
            if s.who is not None:
                t = self.expr(s.who)
                if not compatible(t, "player") and not compatible(t, "list:player"):
                    self.error("E201", f"`finish {s.result} for` needs a player or a list of players, not {show(t)}",
                               s.who.span)

    def check_call_stmt(self, s) -> None:
        sym = self.out.symbols.get(s.name)
        if sym is None and s.name == REFUSE:           # the builtin procedure: the set-up says no
            if len(s.args) != 1:
                self.error("E103", f"`{REFUSE}(REASON)` takes one argument (a text saying why), not {len(s.args)}",
                           s.span)
            for a in s.args:
                t = self.expr(a)
                if not compatible(t, "text"):
                    self.error("E201", f"`{REFUSE}` needs a text saying why, not {show(t)}", a.span)
            return
        if sym is None and s.name == INSERT:           # (with three arguments it is a move: desugar.py)
            self.error("E103", f"`{INSERT}(X, ZONE, N)` takes three arguments (what, the pile, how many lie above "
                               f"it), not {len(s.args)}", s.span)
            for a in s.args:
                self.expr(a)
            return
        if sym is None and s.name == READMIT:          # the builtin procedure: the way back in
            if len(s.args) != 1:
                self.error("E103", f"`{READMIT}(P)` takes one argument (a player or a list of players), "
                                   f"not {len(s.args)}", s.span)
                for a in s.args:
                    self.expr(a)
                return
            self.players_expr(s.args[0], "who is readmitted")
            return
        if sym is None or sym.kind != "proc":
            if "proc" not in getattr(self, "clashed", {}).get(s.name, ()):   # (its E102 says it: a review)
                self.error("E101", f"unknown procedure `{s.name}`{self.finish_reason_hint(s)}", s.span,
                           self.suggest(s.name, self.names_of("proc")))
            for a in s.args:
                self.expr(a)
            return
        self.used.add(s.name)
        self.check_args(s, sym.decl.params, s.args, f"procedure `{s.name}`")

    def finish_reason_hint(self, s) -> str:
        """`finish draw text(n)` reads as a `finish` with no reason, then a call of `text`: say what was
        meant when the call stands on the finish's line (the parser's hint for a bare name does)."""
        before = getattr(self, "before", None)
        if isinstance(before, n.Finish) and before.why is None and before.span.line == s.span.line:
            return f' (a `finish` reason must start with a string: `finish … "" + {s.name}(…)`)'
        return ""

    def check_create(self, s) -> None:
        self.make(s.make)
        self.zone_target(s.dest, "where it is created")

    def check_create_from(self, s) -> None:
        self.create_from(s)
        self.zone_target(s.dest, "where it is created")

    def check_log(self, s) -> None:
        self.expr(s.value)
        if s.to is not None:
            self.players_expr(s.to, "who a message is for")

    def check_create_cards(self, s) -> None:
        self.create_cards(s)
        self.zone_target(s.dest, "where it is created")

    def check_may(self, s) -> None:
        if s.chooser is not None:
            self.expect(s.chooser, "player", "who answers")
        if s.prompt is not None:
            self.expect(s.prompt, "text", "a prompt")
        self.check_question_about(s.about)
        self.check_repeated(s)
        if s.ignored:                           # (parsed and dropped unsaid: a new author's Uno wrote `may … always`)
            words = ", ".join(f"`{w}`" for w in s.ignored)
            self.warn("W268", f"{words} change{'s' if len(s.ignored) == 1 else ''} nothing in a `may`: it is a yes-or-no question, always asked, its "
                              f"answers `yes` and `no`; for answers of your own words use `choose a in [\"…\", \"…\"]`",
                      s.span)
        self.block(s.body)
        self.block(s.other)

    def check_repeated(self, s) -> None:
        for word, value in s.repeated:
            self.warn("W265", f"`{word}` is given twice in this question: the first is used and this one is "
                              f"not; say it once", value.span)

    def check_question_about(self, about) -> None:
        """`about C`: one component (or `none`), the card a question is about."""
        if about is not None:
            t = self.expr(about)
            if not is_comp(t):
                self.error("E201", f"a question is `about` a component (a card, a piece), not {show(t)}", about.span)

    def check_signal(self, s) -> None:
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
        if isinstance(s, n.Open) and s.until is not None:
            self.expect(s.until, "bool", "when the window closes (`until`)")
        if isinstance(s, n.RunHook):
            t = self.expr(s.card)
            if not is_comp(t) and t not in ("any", "none"):
                self.error("E201", f"`run … of` needs a component, not {show(t)}", s.card.span)
            if s.by is not None:
                self.expect(s.by, "player", "who runs the hook (`by`)")

    def check_grant(self, s) -> None:
        sym = self.out.symbols.get(s.target)
        if sym is None or sym.kind != "def" or sym.decl.params is None:
            self.error("E101", f"`modify … until` needs a def with parameters; `{s.target}` is not one", s.span,
                       self.suggest(s.target, self.names_of("def")))
            for a in s.args:
                self.expr(a)
        else:
            self.used.add(s.target)
            self.check_args(s, sym.decl.params, s.args, f"def `{s.target}`")
            if sym.type not in ("int", "any", None):
                self.error("E201", f"`modify` adds to a def of numbers; `{s.target}` gives {show(sym.type)}", s.span)
        self.expect(s.amount, "int", "the amount added")
        if s.until not in ("turn_end",):
            self.error("E105", f"a timed modifier lasts `until turn_end`, not until `{s.until}`", s.span)

    def check_nothing(self, s) -> None:
        """A statement with no names or values in it (`resolve triggers`)."""

    def check_reveal(self, s) -> None:
        t = self.expr(s.what)
        if not (is_comp(t) or t in ("zone", "any") or (is_list(t) and is_comp(elem(t)))):
            self.error("E201", f"only components can be revealed, not {show(t)}", s.what.span)
        if s.to is not None:
            self.players_expr(s.to, "who sees it")

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
            names = [c.name for c in self.out.cards if c.kind == s.kind]
            looped = any(isinstance(x, n.Comprehension) and (x.var == "card" or any(m[0] == "card" for m in x.more))
                         for x in n.walk(s.where))
            for x in (() if looped else n.walk(s.where)):   # `card == "Coper"`: a misspelt name makes nothing
                if isinstance(x, n.Binary) and x.op in ("==", "!=") and names:
                    for side, other in ((x.left, x.right), (x.right, x.left)):
                        if isinstance(side, n.Name) and side.name == "card" and isinstance(other, n.Lit) \
                                and isinstance(other.value, str) and other.value not in names:
                            self.warn("W242", f"no `card {s.kind} \"{other.value}\"` is declared: this test is "
                                              f"{'never' if x.op == '==' else 'always'} true", other.span,
                                      self.suggest(other.value, names))
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
            self.family_unnamed(s.domain)
            dt = "any"
        elif not is_list_like(dt) and not is_enum(dt) and dt != "any":
            self.error("E201", f"the choices must be a list or a zone, not {show(dt)}", s.domain.span)
        if s.chooser is not None:
            self.expect(s.chooser, "player", "who chooses")
        if s.prompt is not None:
            self.expect(s.prompt, "text", "a prompt")
        self.check_question_about(s.about)
        self.check_repeated(s)
        if s.size is not None and self.expr(s.size) not in ("range", "int", "any"):
            self.error("E201", "a choice's size must be a number or a range like `0..2`", s.size.span)
        if s.mode == "order" and s.size is None:
            self.warn("W252", f"`choose {s.var} order of …` has no `size`: the chooser may answer `done` at once "
                              f"and order none of them (the default is any number, none included); write "
                              f"`size size(…)` to order them all, or `size 0..N` where ordering none is meant",
                      s.span)
        one = dt if is_enum(dt) else elem(dt)
        if s.var_type is not None:                 # `choose x: T in …`: the variable's declared type
            declared = self.resolve_type(s.var_type)
            want = declared if s.mode == "one" else elem(declared) if is_list(declared) else None
            if want is None:
                self.error("E201", f"`choose {s.var}: …` picks a subset or an order: its type is a list "
                                   f"(`list[{show(one)}]`), not {show(declared)}", s.var_type.span)
            elif not (self.fits(s.domain, dt, "list:" + want) if is_union(want) else compatible(one, want)):
                self.error("E201", f"`{s.var}` is declared {show(declared)}, but the choices are "
                                   f"{show('list:' + one)}", s.var_type.span)
            elif want != "any":
                one = want
            self.out.types[id(s.var_type)] = "list:" + one   # (the compiler shows the options as this type)
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
        self.content_bytes += len(content.text)
        if self.content_rows > COMPONENT_LIMIT:
            self.error("E506", f"the `create … from` statements make more than {COMPONENT_LIMIT:,} components "
                               f"together (the limit for a match)", s.span)
            return
        # (each statement copies its file's rows into the IR: 650 of a 1 MB file made a 644 MB IR)
        if self.content_bytes > CONTENT_IR_LIMIT:
            self.error("E506", f"the `create … from` statements put more than {CONTENT_IR_LIMIT // 1_000_000} MB of "
                               f"content files into the compiled game together (each statement its file's rows: "
                               f"read a file once and move its cards where they go)", s.span)
            return
        self.out.contents[id(s)] = content

    def assign(self, s: n.Assign) -> None:
        vt = self.expr(s.value)
        if _sets_turn_order(s) and self.lookup_local("turn_order") is None \
                and not is_value(self.out.symbols.get("turn_order")):
            self.require_type(s.value, vt, "list:player", "a turn order (a list of every player)")
            self.out.refs[id(s.target)] = ("turn_order",)
            return
        want = self.target_type(s.target, vt if s.op == "=" else None)
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
        if not is_list(want):
            self.error("E201", f"`{word}` needs a list, `{s.target.name}` is {show(want)}", s.target.span)
            return
        done = "appended to" if word == "append" else "removed from"
        self.require_type(s.value, vt, elem(want), f"the value {done} `{s.target.name}`")

    def refine_local(self, name: str, given: str | None) -> str:
        """The type of `let NAME = none`, from the value an assignment gives it (if that has one):
        from here on the local is of that type."""
        if given is None or given in ("none", "any") or given.endswith(":any") or given.endswith(":none"):
            return "none"
        for scope in reversed(self.scopes):
            if name in scope:
                scope[name] = given
                break
        return given

    def target_type(self, target: n.LValue, given: str | None = None) -> str | None:
        """The type of an assignment's target (a local, a variable or one entry of a per-player or
        per-cell one), recording which it is; None (after an error) if it is none of these.
        `given`: the type of the value a plain `=` gives it."""
        local = self.lookup_local(target.name)
        if local is not None:
            if local == "none":
                # (`let who = none` is typed by what it is given first: a new author's `who = p`
                # was said as a seat number, `found 0`, not `P1`)
                local = self.refine_local(target.name, given)
            if self.narrowed_scope(target.name):
                self.error("E201", f"`{target.name}` is narrowed by the `if` around it: change it outside "
                                   f"that `if`", target.span)
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
                    self.error("E201", f"`{target.name}` is {kind_words(sym.kind)}, not a variable", target.span)
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
                list_note = (" (an element of a list is not set on its own: make the list anew, or declare "
                             "the variable `per …`)" if is_list(sym.type) else "")
                self.error("E201", f"`{target.name}` is not declared `per …` and cannot be indexed{list_note}",
                           target.span)
                return None                    # (and no second error for the value: a new author's `xs[0] = 3`)
            elif target.index is not None:
                self.check_key(target.index, sym.decl, target.name)
            want = sym.type
        return want



# Each statement kind's check (every kind the parser makes has one: tests/test_dispatch.py)
STATEMENT_CHECKS = {
    n.Move: StatementChecks.check_move,
    n.Shuffle: StatementChecks.check_shuffle,
    n.Eliminate: StatementChecks.check_eliminate,
    n.Assign: StatementChecks.assign,
    n.Append: StatementChecks.append,
    n.Remove: StatementChecks.append,
    n.Let: StatementChecks.check_let,
    n.If: StatementChecks.check_if,
    n.For: StatementChecks.check_for,
    n.While: StatementChecks.check_while,
    n.Resolve: StatementChecks.check_while,      # (`open … then resolve`: a while loop, see nodes.Resolve)
    n.Repeat: StatementChecks.check_repeat,
    n.Goto: StatementChecks.check_goto,
    n.EndTurn: StatementChecks.check_end_turn,
    n.Finish: StatementChecks.check_finish,
    n.CallStmt: StatementChecks.check_call_stmt,
    n.Create: StatementChecks.check_create,
    n.CreateFrom: StatementChecks.check_create_from,
    n.Log: StatementChecks.check_log,
    n.CreateCards: StatementChecks.check_create_cards,
    n.Choose: StatementChecks.choose,
    n.May: StatementChecks.check_may,
    n.Emit: StatementChecks.check_signal,
    n.Open: StatementChecks.check_signal,
    n.RunHook: StatementChecks.check_signal,
    n.ResolveTriggers: StatementChecks.check_nothing,
    n.Grant: StatementChecks.check_grant,
    n.Reveal: StatementChecks.check_reveal,
}


def _sets_turn_order(s: n.Assign) -> bool:
    """`turn_order = L`: the one builtin value the rules may set."""
    return s.target.name == "turn_order" and s.target.index is None and s.op == "="
