"""The checker's first part: declarations (kinds, zones, tables, boards, variables, defs, steps,
actions, cards) and the order in which defs and tables are typed.
"""
from __future__ import annotations

from . import nodes as n
from .nodes import walk
from .content import LISTED, listing, short
from .typerules import (BOARD_MODIFIERS, PER, PRIMITIVES, SHOW_MODIFIERS, VAR_MODIFIERS,
                        ZONE_MODIFIERS, ZONE_SHAPES, compatible, elem, is_comp_type, is_enum, is_list, is_list_like,
                        is_union, legend_texts, show, union_of)
from .checked import Symbol
from ..ir.spec import BOARD_SHAPES, EVENTS, LEGEND_ENTRIES, LEGEND_TEXT, OPTION_TYPES


class DeclarationChecks:
    """Part of `Checker` (checker.py), sharing its state: each declaration's rules."""

    def resolve_type(self, t: n.TypeRef) -> str:
        if t.name == "list":
            return "list:" + self.resolve_type(t.elem)
        if t.name == "or":
            return self.resolve_union(t)
        if t.name in PRIMITIVES or t.name == "any":
            return t.name
        if t.name == "comp:*":                  # (a component of any kind: made by desugar.py only)
            return t.name
        sym = self.out.symbols.get(t.name)
        if sym and sym.kind in ("enum", "kind"):
            self.used.add(t.name)
            return sym.type
        choices = lambda: list(PRIMITIVES) + self.names_of("enum", "kind")
        self.error("E101", f"unknown type `{t.name}`", t.span, self.suggest(t.name, choices))
        return "any"

    def resolve_union(self, t: n.TypeRef) -> str:
        """`K or player`: a component of kind K or a player — the one union the engine holds (players and components are both numbers; see typerules.UNION)."""
        parts = [self.resolve_type(a) for a in t.alts]
        comps = [p for p in parts if is_comp_type(p)]
        if sorted(parts, key=lambda p: is_comp_type(p)) != ["player"] + comps or len(comps) != 1:
            if "any" not in parts:
                self.error("E201", "a union is one component kind and `player` (`Creature or player`), "
                                   f"not {' or '.join(a.name for a in t.alts)}", t.span)
            return "any"
        return union_of(comps[0])

    def no_union(self, t: str, span, what: str) -> None:
        """Unions are for values a rule passes around (choices, defs), not for state it keeps."""
        if is_union(t) or is_list(t) and is_union(elem(t)):
            self.error("E201", f"{what} cannot hold {show(t)}: a union is the type of a `choose` variable, "
                               f"a def's parameter or a def's value", span)

    # ---- declarations ----
    def check_option_choices(self, d, t: str) -> None:
        """`option o: ["a", "b"] = "a"`: values written out, of one type, each once, the default one of them."""
        seen: list = []
        for choice in d.choices:
            if self.expect(choice, t, "a value of the option") == "any":
                continue
            if not _written_out(choice):
                self.error("E204", "an option's values must be written out: numbers or strings", choice.span)
                continue
            value = _literal(choice)
            if value in seen:
                self.error("E204", f"the option's value {_shown(value)} is listed twice", choice.span)
            seen.append(value)
        if _written_out(d.default) and seen and _literal(d.default) not in seen:
            self.error("E204", f"the option's default {_shown(_literal(d.default))} is not one of its values "
                               f"({', '.join(_shown(v) for v in seen)})", d.default.span)

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
            elif d.choices:
                self.check_option_choices(d, t)
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
                    self.no_union(self.resolve_type(p.type), p.type.span, f"a parameter of {d.what} `{d.name}`")
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
                       for x in walk(f.value)) or any(isinstance(x, (n.Call, n.Comprehension)) for x in walk(f.value)) \
                        or not _card_value_written_out(f.value):
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
                                                              and not is_enum(pt)):
                    self.error("E204", "a table key must be a number, a string, an enum value or a list of them",
                               part.span)
            kv = tuple(getattr(p, "value", getattr(p, "name", None)) for p in parts)
            if kv in keys:
                shown = ", ".join(_shown(v) for v in kv)
                self.error("E102", f"table `{d.name}` has the key {shown if len(kv) == 1 else '[' + shown + ']'} twice",
                           key.span)
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
            self.no_union(t, f.type.span, f"field `{f.name}`")
            names[f.name] = t
            if f.default is not None:
                self.expect(f.default, t, f"the default of `{f.name}`")
        if d.label is not None:
            itself = next((x for x in walk(d.label) if isinstance(x, n.Name) and x.name == "self"), None)
            if itself is not None and "self" not in names:
                self.error("E101", "a label has no `self`: it is made once, when the component is created, from "
                           "its fields by name (`label \"d\" + text(slot)`)", itself.span)
                return
            with self.scope(dict(names)):
                self.expr(d.label)
                self.labels_to_read.append((d.label, set(names)))

    def label_reads(self, label, fields: set) -> None:
        """A label is made once, when the component is created: one that reads a variable or a zone,
        itself or through a def, shows what they held then, for ever (W240). (Run once every
        declaration is checked: a def's body is known by then.)"""
        for x in walk(label):
            kind = self.out.refs.get(id(x), ("",))[0]           # (what the name or call was found to be)
            bad = None
            if isinstance(x, n.Name) and x.name not in fields and kind in ("var", "zone"):
                bad = x.name
            elif isinstance(x, (n.Name, n.Call)) and kind == "def" and x.name not in fields \
                    and self.def_reads_state(x.name, set()):
                bad = x.name
            if bad is not None:
                self.warn("W240", f"a label is made once, when the component is created: `{bad}` is read then "
                          f"and never again (show what changes with a `show`, or a `var … per KIND` beside it)",
                          x.span)
                return

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
        vis = [m.name for m in d.modifiers if m.name in ("public", "hidden", "owner", "others")]
        if len(vis) > 1:
            self.error("E105", f"zone `{d.name}` has more than one visibility ({', '.join(vis)})", d.span)
        if any(m.name == "uncounted" for m in d.modifiers) and vis in ([], ["public"]):
            self.error("E105", f"zone `{d.name}` is `uncounted` but public: everyone sees what it holds, "
                               f"so how many too (use it with `hidden`, `owner` or `others`)", d.span)

        if any(m.name == "top" for m in d.modifiers) and (d.shape != "pile" or vis not in ([], ["public"])):
            self.error("E105", f"zone `{d.name}` shows only its `top`: it must be a public `pile`", d.span)
        if "owner" in vis and "player" not in [d.per] + [p[0] for p in d.more_per]:
            self.error("E105", f"zone `{d.name}` is seen by its `owner` but is not declared `per player`", d.span)
        if "others" in vis and "player" not in [d.per] + [p[0] for p in d.more_per]:
            self.error("E105", f"zone `{d.name}` is seen by the `others` (all but its owner) but is not "
                               f"declared `per player`", d.span)

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

    def family_unnamed(self, e, what: str = "") -> None:
        """E201: a family of zones named without which one (`market` of `zone market: pile per Tier`: it
        said "a zone per player: say whose, e.g. `market[me]`" — a new author's Splendor)."""
        name = getattr(e, "name", "")
        sym = self.out.symbols.get(name)
        decl = getattr(sym, "decl", None)
        parts = [decl.per] + [p[0] for p in decl.more_per] if getattr(decl, "per", None) else ["player"]
        whose = "whose" if parts == ["player"] else "which"
        self.error("E201", f"{what + ' ' if what else ''}`{name}` is a zone per {self.pers(parts)}: say {whose}, e.g. "
                           f"`{name}[{self.key_examples(parts)}]`", e.span)

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
            if board is None:                          # (`per cell` alone read "needs a declared board, not `None`")
                boards = self.names_of("board")
                self.error("E101", "`per cell` names its board: `per cell of "
                           + (boards[0] if len(boards) == 1 else "BOARD") + "`", span)
            elif sym is None or sym.kind != "board":
                self.error("E101", f"`per cell of` needs a declared board, not `{board}`", span,
                           self.suggest(board, self.names_of("board")))
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
                    self.used.add(d.name)      # (drawn on every screen: a track kept in variables is used)
            elif m.name == "legend":
                texts = legend_texts(m.value) if m.value is not None else None
                if texts is None:
                    self.error("E203", "`legend` is a text or a list of texts written out, one per glyph: "
                               "`legend [\"#: a wall\", \".: an empty cell\"]`", m.span)
                elif len(texts) > LEGEND_ENTRIES or any(len(t) > LEGEND_TEXT for t in texts):
                    # (the IR's schema bounds them: past them the file linted clean and then could not
                    # be compiled, with no line to look at — a fuzzer's trial)
                    self.error("E203", f"a `legend` has at most {LEGEND_ENTRIES} entries of at most "
                               f"{LEGEND_TEXT} characters each", m.span)
            elif m.name == "cell_width":
                if not (isinstance(m.value, n.Lit) and type(m.value.value) is int and 1 <= m.value.value <= 8):
                    self.error("E203", "`cell_width N`: how many characters a cell's drawing takes, 1 to 8", m.span)
            elif m.value is not None:
                self.error("E105", f"`{m.name}` takes no value", m.span)

    def check_var(self, d: n.VarDecl) -> None:
        t = self.out.symbols[d.name].type if self.out.symbols.get(d.name, Symbol("", None)).decl is d else "any"
        self.check_per(d, "a variable")
        self.check_modifiers(d.modifiers, VAR_MODIFIERS, "variable")
        vis = [m.name for m in d.modifiers if m.name in VAR_MODIFIERS and m.name != "internal"]
        if len(vis) > 1:
            self.error("E105", f"variable `{d.name}` has more than one visibility ({', '.join(vis)})", d.span)
        if "others" in vis and "player" not in [d.per] + [p[0] for p in d.more_per]:
            self.error("E105", f"variable `{d.name}` is seen by the `others` (all but its owner) but is not "
                               f"declared `per player`", d.span)
        if "owner" in vis and "player" not in [d.per] + [p[0] for p in d.more_per]:
            # (a leak trial: such a value reached every seat; no player owns it, as for a zone)
            self.error("E105", f"variable `{d.name}` is seen by its `owner` but is not declared `per player`: "
                               f"no player owns it (a secret nobody sees is `hidden`)", d.span)
        with self.scope({}):
            self.expect(d.init, t, f"the initial value of `{d.name}`")

    def check_def(self, d: n.DefDecl) -> None:
        scope = self.params_scope(d.params or ())
        sym = self.out.symbols.get(d.name)
        declared = self.resolve_type(d.result) if d.result is not None else None    # `def f(x): T = E`
        if sym is not None and sym.decl is d:
            sym.type = declared or self.known.get(d.name, "any")     # what a recursive call reads (see typed)
        with self.scope(scope):
            t = self.expr(d.body)
            if d.name.startswith("__r") and d.name.endswith("_where"):     # a window's `respond … where C`
                self.expect(d.body, "bool", "a response's `where` condition")
        if declared is not None:
            if not self.fits(d.body, t, declared):
                if d.name.startswith("__refusal_"):     # (`require C else E`: a def the file never names)
                    self.error("E201", f"the reason after `else` is what a player reads: a text, not {show(t)} "
                                       f"(`else \"…\"`, or `text(…)` of a value)", d.body.span)
                else:
                    self.error("E201", f"def `{d.name}` is declared {show(declared)}, but its value is {show(t)}",
                               d.body.span)
            t = declared if declared != "any" else t
        if sym is not None and sym.decl is d:
            sym.type = t
        if d.show and d.params:
            self.error("E105", "only a def without parameters can be `show`n", d.span)
        if d.modifiers:
            self.check_modifiers(d.modifiers, SHOW_MODIFIERS, "shown value")
            if len({m.name for m in d.modifiers}) > 1:
                self.error("E105", "a shown value is either `own` or `table`, not both", d.span)

    def modifier_types(self) -> None:
        """A card's `modify D(x) += E`: D a def of numbers and E a number, as `modify … until` checks
        (a fuzz trial: `+= "!"` linted clean and faulted in play, `+= 1` to a text def quoted Python)."""
        syms = self.out.symbols
        for a in self.out.abilities:
            if a.form != "modify":
                continue
            target, added = syms.get(a.name), syms.get(a.where or "")
            if target is not None and target.kind == "def" and target.type not in ("int", "any", None):
                self.error("E201", f"`modify` adds to a def of numbers; `{a.name}` gives {show(target.type)}", a.span)
            elif added is not None and added.kind == "def" and added.type not in ("int", "any", None):
                self.error("E201", f"the amount added must be int, not {show(added.type)}", a.span)

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
            if d.actor is not None and d.simultaneous:
                self.expect(d.actor, "list:player", "the players who answer a simultaneous step")
            elif d.actor is not None:
                self.expect(d.actor, "player", "the player who acts in a step")
            self.block(d.enter)
        if d.reveal:
            with self.scope({}):
                self.block(d.reveal)
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
                        self.family_unnamed(p.domain)
                        dt = "any"
                    elif not is_list_like(dt) and not is_enum(dt):
                        self.error("E201", f"a parameter's choices must be a list or a zone, not {show(dt)}",
                                   p.domain.span)
                    if p.mode == "subset":
                        if p.size is not None and self.expr(p.size) not in ("range", "int", "any"):
                            self.error("E201", "a subset's size must be a number or a range like `1..4`", p.size.span)
                        scope[p.name] = "list:" + elem(dt)
                    else:
                        scope[p.name] = dt if is_enum(dt) else elem(dt)
                if a.text is not None:
                    self.action_text(a, set(scope))
                if a.require is not None:
                    self.expect(a.require, "bool", "a `require` condition")
                self.block(a.body)

    def action_text(self, a: n.ActionDecl, params: set) -> None:
        """`as TEXT`: worked out once for each binding of the parameters and kept, so it may read
        the parameters and what never changes in a match (fields, tables, options, enum values)."""
        self.expect(a.text, "text", "an action's text (`as`)")
        indexed = {id(x.obj): x.index for x in walk(a.text) if isinstance(x, n.Index)}   # (`face` of `face[d]`)
        for x in walk(a.text):
            bad = None
            kind = self.out.refs.get(id(x), ("",))[0]          # (what the name or call was found to be)
            if isinstance(x, n.Name) and x.name not in params and self.lookup_local(x.name) is None:
                if kind in ("var", "zone", "def") or (kind == "builtin" and x.name not in ("players", "player_count")):
                    bad = x.name
            # (`size`, `top`, `bottom` of a parameter are its own: of a zone, the zone's name is
            # refused where it is read — a new author's `size(cs)` was refused, `count(cs)` not)
            elif isinstance(x, n.Call) and (kind == "def" or (kind == "builtin" and x.name in ("roll", "pick"))):
                bad = x.name
            if bad is not None:
                # (with the way round it: a new author's checkers found it only deep in language.md; the
                # call with its arguments — a new author's Ludo read `x in [dest_words]` for `dest_words(u)`)
                read = bad
                if id(x) in indexed:                # (`face[d]` read: `x in [face]` was the whole family)
                    key = indexed[id(x)]
                    read = f"{bad}[{key.name if isinstance(key, n.Name) else '…'}]"
                if isinstance(x, n.Call):
                    args = [y.name if isinstance(y, n.Name) else None for y in x.args]
                    read = f"{bad}({', '.join(args)})" if None not in args else f"{bad}(…)"
                self.error("E201", f"an action's text is worked out once for each choice of its parameters: it may "
                           f"use them and what never changes (fields, tables, options), not `{bad}` (to show the "
                           f"position, bind it as a parameter from a list of one, `x in [{read}]`, and read `x`)",
                           x.span)
                return

    def def_reads_state(self, name: str, seen: set) -> bool:
        """Whether def `name` reads a variable or a zone, itself or through the defs it calls."""
        sym = self.out.symbols.get(name)
        if sym is None or sym.kind != "def" or name in seen:
            return False
        seen.add(name)
        for x in walk(sym.decl.body):
            kind = self.out.refs.get(id(x), ("",))[0]
            if kind in ("var", "zone") or (kind == "def" and self.def_reads_state(x.name, seen)):
                return True
        return False

    def whole_game(self) -> None:
        for label, fields in self.labels_to_read:
            self.label_reads(label, fields)
        self.modifier_types()
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


def _literal(e):
    """The value of a written-out literal (see _written_out)."""
    if isinstance(e, n.Unary):
        return -e.operand.value
    return e.value


def _shown(value) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


def _written_out(e) -> bool:
    """A literal number, true/false or string (a number may have a minus sign): what the IR can hold."""
    if isinstance(e, n.Unary) and e.op == "-":
        e = e.operand
        return isinstance(e, n.Lit) and type(e.value) is int
    return isinstance(e, n.Lit) and e.value is not None


def _card_value_written_out(e) -> bool:
    """A card's field value as the IR takes it: a literal (a negative number too), a name (an enum
    value), or a list of them; never a sum such as `23 - 3` (it compiled, and the game refused to load)."""
    if isinstance(e, (n.Lit, n.Name)):
        return True
    if isinstance(e, n.Unary) and e.op == "-":
        return isinstance(e.operand, n.Lit) and type(e.operand.value) in (int, float)
    if isinstance(e, n.ListLit):
        return all(_card_value_written_out(x) for x in e.items)
    return False
