"""The static lints: what a rule file does, beyond whether its names and types are right.

`static_lint(checked)` reads the checked syntax tree (never running anything) for flow
problems — steps that cannot be reached or never lead to an end, a flow that never waits
for a decision, a game that can go on for ever — and for dead or pointless rules:
conditions that are always false, statements after a `goto`, zones that are always empty
or written and never read; and for the engine's limits (limits.py) its constants show a rule
will hit: a range, a `repeat`, a subset parameter, loops in loops. The checker calls it on
every file that has no errors. (The other half of `rulelang lint --deep`, playing seeded
random games through the public API, is rulelang/playtest.py: `rulelang.deep_lint`.)

Every finding is a Diagnostic with a code from docs/diagnostics.md. The static analysis
over-approximates what can happen (every branch of an `if` may run, every `goto` may be
taken), so its errors are certain and its warnings are possibilities worth a look.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from . import nodes as n
from .lint_visibility import visibility_lints
from .nodes import walk
from ..core.errors import Diagnostic, Span
from ..ir.spec import board_cells, family_limit_message, family_members
from ..core.limits import FAMILIES_LIMIT, LOOP_LIMIT, PLAYER_LIMIT, RANGE_LIMIT, SUBSET_COUNT_LIMIT, WORK_LIMIT

INF = math.inf
FALL = ("fall",)            # the block ran to its end without a signal
END_TURN = ("end",)
FINISH = ("finish",)

START, TURN, END, ERROR = "start", "turn", "end", "error"
# How many defs (procs) one evaluation may follow into one another before it gives up ("it depends";
# for a proc, "it may return"): a rule file may chain thousands, and Python's stack is not that deep.
CHAIN_DEPTH = 40

# Statement kinds by what they do to the flow. Every statement kind is in one of these or is a
# block (if, for, while, repeat) or a call: the dispatches below raise on any other.
SIMPLE_STATEMENTS = (n.Move, n.Shuffle, n.Eliminate, n.Assign, n.Append, n.Remove, n.Let, n.Create, n.CreateFrom, n.Log,
                     n.CreateCards, n.Reveal, n.Grant)   # run to their end
# statements that run abilities (which may do anything) and then go on
ABILITY_STATEMENTS = (n.Emit, n.Open, n.RunHook)
CHOICES = (n.Choose, n.May)
JUMPS = (n.Goto, n.EndTurn, n.Finish)          # end the effect


def _enter(step: str) -> tuple:
    return ("enter", step)


def _wait(step: str) -> tuple:
    return ("wait", step)


# ---- constants: what an expression is, whatever the state ---------------------------------
# A known value is ("k", v) for a bool, text, none or enum value, and ("r", lo, hi) for a
# number between lo and hi (inclusive, possibly infinite). None means "it depends".

def _k(v):
    return ("k", v)


_CAP = 2 ** 100       # bounds past this widen (towards infinity): they stay cheap, and floats can compare them


def _r(lo, hi):
    if lo < -_CAP:
        lo = -INF
    elif lo > _CAP:
        lo = _CAP
    if hi > _CAP:
        hi = INF
    elif hi < -_CAP:
        hi = -_CAP
    return ("r", lo, hi)


TRUE, FALSE = _k(True), _k(False)


class Consts:
    def __init__(self, checked):
        self.c = checked                     # the checker's Checked
        players = next((d for d in checked.game.decls if isinstance(d, n.Players)), None)
        self.players = (players.low, players.high) if players else (1, INF)
        self.defs_busy: set[str] = set()
        self.memo: dict[int, object] = {}

    def truth(self, e) -> bool | None:
        v = self.value(e)
        return v[1] if v is not None and v[0] == "k" and isinstance(v[1], bool) else None

    def value(self, e):
        key = id(e)
        if key not in self.memo:
            self.memo[key] = self._value(e)
        return self.memo[key]

    def _value(self, e):
        if isinstance(e, n.Lit):
            v = e.value
            if isinstance(v, bool) or not isinstance(v, int):
                return _k(v)
            return _r(v, v)
        if isinstance(e, n.Name):
            kind, name = self.c.refs.get(id(e), ("unknown", e.name))
            if kind == "enumval":
                return _k(("enum", name))
            if kind == "builtin" and name == "player_count":
                return _r(*self.players)
            if kind == "builtin" and name in ("turn_count", "round_count"):
                return _r(1, INF)
            if kind == "def":
                sym = self.c.symbols.get(name)
                if sym is None or sym.decl.params is not None or name in self.defs_busy \
                        or len(self.defs_busy) >= CHAIN_DEPTH:
                    return None
                self.defs_busy.add(name)
                try:
                    return self.value(sym.decl.body)
                finally:
                    self.defs_busy.discard(name)
            return None
        if isinstance(e, n.Unary):
            v = self.value(e.operand)
            if v is None:
                return None
            if e.op == "not":
                return _k(not v[1]) if v[0] == "k" and isinstance(v[1], bool) else None
            return _r(-v[2], -v[1]) if v[0] == "r" else None
        if isinstance(e, n.Binary):
            return self.binary(e)
        if isinstance(e, n.Cond):
            t = self.truth(e.test)
            if t is None:
                return None
            return self.value(e.then if t else e.other)
        if isinstance(e, n.Call):
            if self.c.symbols.get(e.name) is not None:
                return None                       # a def of the game's own
            if e.name in ("size", "count"):
                return _r(0, INF)
            if e.name == "abs":
                return _r(0, INF)
            if e.name == "roll" and e.args:
                v = self.value(e.args[0])
                return _r(1, v[2]) if v is not None and v[0] == "r" and v[1] >= 1 else _r(1, INF)
            if e.name in ("max", "min") and len(e.args) > 1:
                vs = [self.value(a) for a in e.args]
                if all(v is not None and v[0] == "r" for v in vs):
                    pick = max if e.name == "max" else min
                    return _r(pick(v[1] for v in vs), pick(v[2] for v in vs))
            return None
        if isinstance(e, n.Aggregate):
            return _r(0, INF) if e.name in ("size", "count") else None
        if isinstance(e, (n.Attr, n.Index, n.ListLit, n.ListComp, n.Make, n.Can)):
            return None                           # read from the state, or a list: it depends
        raise AssertionError(f"unknown expression node {type(e).__name__}")

    def binary(self, e: n.Binary):
        op = e.op
        if op in ("and", "or"):
            a, b = self.truth(e.left), self.truth(e.right)
            if op == "and":
                if a is False or b is False:
                    return FALSE
                return TRUE if a is True and b is True else None
            if a is True or b is True:
                return TRUE
            return FALSE if a is False and b is False else None
        if op == "in":
            left = self.value(e.left)
            right = e.right
            if isinstance(right, n.ListLit):
                if not right.items:
                    return FALSE
                items = [self.value(x) for x in right.items]
                if left is None or any(v is None for v in items):
                    return None
                return _k(any(_equal(left, v) is True for v in items)) \
                    if all(_equal(left, v) is not None for v in items) else None
            if isinstance(right, n.Binary) and right.op == "..":
                lo, hi = self.value(right.left), self.value(right.right)
                if left is not None and left[0] == "r" and lo is not None and hi is not None \
                        and lo[0] == hi[0] == "r":
                    if left[2] < lo[1] or left[1] > hi[2] or lo[1] > hi[2]:
                        return FALSE
                    if lo[2] <= left[1] and left[2] <= hi[1]:
                        return TRUE
            return None
        a, b = self.value(e.left), self.value(e.right)
        if a is None or b is None:
            return None
        if op in ("==", "!="):
            eq = _equal(a, b)
            if eq is None:
                return None
            return _k(eq if op == "==" else not eq)
        if a[0] != "r" or b[0] != "r":
            return None
        (_, alo, ahi), (_, blo, bhi) = a, b
        if op == "<":
            return TRUE if ahi < blo else FALSE if alo >= bhi else None
        if op == "<=":
            return TRUE if ahi <= blo else FALSE if alo > bhi else None
        if op == ">":
            return TRUE if alo > bhi else FALSE if ahi <= blo else None
        if op == ">=":
            return TRUE if alo >= bhi else FALSE if ahi < blo else None
        if op == "+":
            return _r(alo + blo, ahi + bhi)
        if op == "-":
            return _r(alo - bhi, ahi - blo)
        if op == "*":
            products = [x * y for x in (alo, ahi) for y in (blo, bhi)]
            if any(isinstance(p, float) and math.isnan(p) for p in products):
                return None
            return _r(min(products), max(products))
        return None


def _equal(a, b) -> bool | None:
    """Are two known values equal (None: it depends)?"""
    if a[0] == "k" and b[0] == "k":
        return a[1] == b[1]
    if a[0] == "r" and b[0] == "r":
        if a[1] == a[2] == b[1] == b[2]:
            return True
        if a[2] < b[1] or b[2] < a[1]:
            return False
    return None


# ---- the static lints ------------------------------------------------------------------------

@dataclass
class Step:
    decl: n.StepDecl
    playable: list = field(default_factory=list)     # actions that can ever be played
    may_be_stuck: bool = True


class StaticLint:
    def __init__(self, checked):
        self.c = checked                     # the checker's Checked (lints import nothing of the checker)
        self.game = checked.game
        self.consts = Consts(checked)
        self.out: list[Diagnostic] = []
        self.reported: set = set()
        decls = self.game.decls
        self.steps: dict[str, Step] = {}
        for d in decls:
            if isinstance(d, n.StepDecl) and d.name not in self.steps:
                self.steps[d.name] = Step(d)
        turn_steps = [s for s in self.steps.values() if s.decl.in_turn]
        self.first_step = (turn_steps or list(self.steps.values()))[0].decl.name if self.steps else None
        self.procs = {d.name: d for d in decls if isinstance(d, n.ProcDecl)}
        self.setup = tuple(s for d in decls if isinstance(d, n.SetupDecl) for s in d.body)
        self.handlers: dict[str, tuple] = {}
        for d in decls:
            if isinstance(d, n.OnDecl):
                self.handlers[d.event] = self.handlers.get(d.event, ()) + tuple(d.body)
        self.whens = [d for d in decls if isinstance(d, n.WhenDecl)]
        self.limits = [d for d in decls if isinstance(d, n.LimitDecl)]
        self.zones = {d.name: d for d in decls if isinstance(d, n.ZoneDecl)}
        self.vars = {d.name: d for d in decls if isinstance(d, n.VarDecl)}
        self.proc_exits: dict[tuple, frozenset] = {}
        self.proc_busy: set = set()

    def report(self, code: str, severity: str, msg: str, span: Span) -> None:
        key = (code, span.line, span.column)
        if key not in self.reported:
            self.reported.add(key)
            self.out.append(Diagnostic(code, msg, span, severity))

    @cached_property
    def every_node(self) -> tuple:
        """walk(self.game), once: several lints look at every node of the game (~20,000 in a large one)."""
        return tuple(walk(self.game))

    def run(self) -> list[Diagnostic]:
        self.zone_lints()
        self.condition_lints()
        self.limit_lints()
        self.classify_actions()
        self.dead_code()
        self.flow()
        self.progress()
        self.interaction_lints()
        self.simultaneous_lints()
        self.empty_extreme_lints()
        visibility_lints(self)
        self.screen_lints()
        return self.out

    def screen_lints(self) -> None:
        """W234: `internal` keeps a zone or variable off the screen only — a view and interop carry
        it as its visibility says (until issue 28 it was in no view, a variable as if `hidden`): one
        with no visibility written is public there. W235: a value shown as the viewer's `own` that
        never reads `me` is the same for every player."""
        for d in list(self.zones.values()) + list(self.vars.values()):
            written = {m.name: m for m in d.modifiers}
            if "internal" in written and not {"public", "hidden", "owner", "others"} & set(written):
                what = "zone" if isinstance(d, n.ZoneDecl) else "variable"
                self.report("W234", "warning", f"`internal` keeps {what} `{d.name}` off the screen only: views and "
                            "interop carry it, as public (it used to be in no view); write `, public, internal` "
                            "if that is meant, or `, hidden, internal` to keep it out of every view",
                            written["internal"].span)
        for d in self.game.decls:
            own = next((m for m in getattr(d, "modifiers", ()) if isinstance(d, n.DefDecl) and m.name == "own"), None)
            if own is not None and not any(isinstance(x, n.Name) and x.name == "me" for x in walk(d.body)):
                self.report("W235", "warning", f"`{d.label or d.name}` is shown as the viewer's `own`, but never "
                            "reads `me`: every player sees the same (`own` is for what a player knows of "
                            "themself: their hidden role, their hand's worth)", own.span)

    # ---- max/min of what may be empty ----
    def empty_extreme_lints(self) -> None:
        """W216: `max`/`min` of a list that may be empty fails at run time. Quiet when the list
        cannot be empty (a literal, a literal range, `players`, a comprehension over one without
        `where`), when a default is given, or under a condition that tests a size or a count."""
        stack = [(d, False) for d in self.game.decls]
        while stack:
            x, guarded = stack.pop()
            if isinstance(x, (list, tuple)):
                stack.extend((y, guarded) for y in x)
                continue
            if not isinstance(x, n.Node):
                continue
            if not guarded:
                items = None
                if isinstance(x, n.Aggregate) and x.name in ("max", "min") and x.default is None:
                    items = x.comp
                elif isinstance(x, n.Call) and x.name in ("max", "min") and len(x.args) == 1 \
                        and self.c.refs.get(id(x), ("builtin",))[0] == "builtin":      # (not a def named so)
                    items = x.args[0]
                if items is not None and not _never_empty(items, self.c.refs):
                    self.report("W216", "warning", f"`{x.name}` of a list that may be empty stops the game with a rule "
                                f"error when it is: give the value for that case, `{x.name}(…, 0)`, or test "
                                f"the size first", x.span)
            guard = _guard_of(x)
            for name in x.__dataclass_fields__:
                if name != "span":
                    part = getattr(x, name)
                    stack.append((part, guarded or (guard is not None and name in guard[1] and _tests_size(guard[0]))))

    # ---- a stack whose top never leaves it ----
    def stack_lints(self) -> None:
        """W226: `open W(…) then resolve s from Z { … }` resolves the top of Z while Z holds anything:
        a block that never moves `s` (nor calls anything that might) resolves the same top for ever."""
        for x in self.every_node:
            if not isinstance(x, n.Resolve) or len(x.body) < 2 or not isinstance(x.body[1], n.If):
                continue
            block = x.body[1].then[1:]
            moved = any(isinstance(y, n.Move) and isinstance(y.what, n.Name) and y.what.name == x.name
                        or isinstance(y, (n.CallStmt, n.RunHook, n.Emit, n.Open, n.Choose, n.May, n.Shuffle))
                        for y in walk(block))
            if not moved:
                self.report("W226", "warning", f"`resolve {x.name}`: its block never moves `{x.name}` off the "
                            f"stack, so the same top resolves again and again (until the loop limit): "
                            f"`move {x.name} to …`", x.span)

    # ---- simultaneous steps nobody can answer ----
    def simultaneous_lints(self) -> None:
        for step in self.steps.values():
            d = step.decl
            if d.reveal and not d.simultaneous:
                self.report("W237", "warning", f"step `{d.name}` is not simultaneous, so its `reveal` block never "
                            f"runs (write `step {d.name} simultaneous {{ … }}`)", d.span)
            if not d.simultaneous:
                continue
            if isinstance(d.actor, n.ListLit) and not d.actor.items:
                self.report("W236", "warning", f"nobody can answer simultaneous step `{d.name}`: `by []` asks no "
                            f"player (the engine runs `on stuck` there)", d.actor.span)
            elif not step.playable:
                why = "it has no action" if not d.actions else "none of its actions can ever be played"
                self.report("W236", "warning", f"nobody can answer simultaneous step `{d.name}`: {why} "
                            f"(the engine runs `on stuck` there)", d.span)

    # ---- windows nobody answers, triggers that set themselves off ----
    def interaction_lints(self) -> None:
        abilities = self.c.abilities
        if not abilities and not any(isinstance(d, n.SignatureDecl) for d in self.game.decls):
            return
        answered = {a.name for a in abilities if a.form == "response"}
        for d in self.game.decls:
            if isinstance(d, n.SignatureDecl) and d.what == "window" and d.name not in answered:
                self.report("W214", "warning", f"no card responds in window `{d.name}`: opening it never asks "
                            f"anyone (add `on {d.name}(…) from ZONE {{ … }}` to a card, or a player's response "
                            f"to the window: `window {d.name}(…) {{ respond NAME {{ … }} }}`)", d.span)
        self.stack_lints()
        unlimited = [a for a in abilities if a.form == "response" and a.card is None and a.where is None]
        if unlimited:
            opened = {x.window for x in self.every_node if isinstance(x, n.Open) and x.to is None}
            for a in unlimited:
                if a.name in opened:
                    self.report("W225", "warning", f"window `{a.name}`: every player asked may respond `{a.text}`, "
                                f"the player it is about too — say who may with `respond {a.text.replace(' ', '_')} "
                                f"where …` (or open it `to` some players)", a.span)
        procs = {p.name: p for p in self.game.decls if isinstance(p, n.ProcDecl)}
        for a in abilities:
            if a.form != "trigger" or a.where is not None or a.proc is None:
                continue
            # does its body (or a procedure it calls) emit the very event it triggers on?
            seen, todo = set(), [a.proc]
            while todo:
                name = todo.pop()
                if name in seen or name not in procs:
                    continue
                seen.add(name)
                for x in walk(procs[name].body):
                    if isinstance(x, n.Emit) and x.event == a.name:
                        self.report("W215", "warning", f"this trigger on `{a.name}` may set itself off forever: "
                                    f"it emits `{a.name}` and has no `where` to stop it", a.span)
                        todo = []
                        break
                    if isinstance(x, n.CallStmt):
                        todo.append(x.name)

    # ---- zones and variables: always empty, written and never read ----
    def root_zone(self, e) -> str | None:
        """The zone a component expression takes its components from (`hand[me]`, `top(deck, 2)`)."""
        if isinstance(e, n.Name):
            ref = self.c.refs.get(id(e))
            return ref[1] if ref and ref[0] == "zone" else None
        if isinstance(e, n.Index):
            return self.root_zone(e.obj)
        if isinstance(e, n.Call) and e.name in ("top", "bottom", "first", "last", "pick") and e.args \
                and e.name not in self.c.symbols:
            return self.root_zone(e.args[0])
        return None

    def zone_lints(self) -> None:
        dests, writes_only = [], set()
        for x in self.every_node:
            if isinstance(x, (n.Move, n.Create, n.CreateFrom, n.CreateCards)):
                dests.append(x.dest)
                writes_only.update(id(y) for y in _names_in_root(x.dest))
            elif isinstance(x, n.Shuffle):
                writes_only.update(id(y) for y in _names_in_root(x.zone))
        filled = {self.root_zone(d) for d in dests}
        self.always_empty: set[str] = set()
        if None not in filled:          # every destination is a named zone: the others stay empty
            self.always_empty = set(self.zones) - filled
        read_zones, read_vars, written_vars = set(), set(), set()
        for x in self.every_node:
            if isinstance(x, n.Name) and id(x) not in writes_only:
                ref = self.c.refs.get(id(x))
                if ref and ref[0] == "zone":
                    read_zones.add(ref[1])
                elif ref and ref[0] == "var":
                    read_vars.add(ref[1])
            elif isinstance(x, n.LValue):
                ref = self.c.refs.get(id(x))
                if ref and ref[0] == "var":
                    written_vars.add(ref[1])
        for name, d in self.zones.items():
            if name in filled and name not in read_zones and _hidden(d):
                self.report("W205", "warning", f"zone `{name}` is hidden and never read: what is moved into it "
                            "is never looked at again, by the rules or by a player", d.span)
        for name, d in self.vars.items():
            if name in written_vars and name not in read_vars and _hidden(d):
                self.report("W205", "warning", f"variable `{name}` is hidden and never read: what is assigned "
                            "to it is never looked at again, by the rules or by a player", d.span)
        for x in self.every_node:
            if isinstance(x, n.Move):
                z = self.root_zone(x.what)
                if z in self.always_empty:
                    self.report("W206", "warning", f"zone `{z}` is always empty (nothing is ever moved or created "
                                "into it), so this moves nothing", x.what.span)

    # ---- conditions that never hold ----
    def condition_lints(self) -> None:
        for x in self.every_node:
            if isinstance(x, n.If):
                t = self.consts.truth(x.test)
                if t is False and x.then:
                    self.report("W203", "warning", "this condition is always false: the block after it never runs",
                                x.test.span)
                elif t is True and x.other:
                    self.report("W203", "warning", "this condition is always true: its `else` block never runs",
                                x.test.span)
            elif isinstance(x, n.While) and self.consts.truth(x.test) is False:
                self.report("W203", "warning", "this `while` condition is always false: the loop never runs",
                            x.test.span)
            elif isinstance(x, n.WhenDecl) and self.consts.truth(x.test) is False:
                self.report("W203", "warning", "this `when` condition is always false: the block never runs",
                            x.test.span)

    # ---- run-time limits a rule will hit, visible from its constants ----
    def limit_lints(self) -> None:
        """W210-W213: a range, a `repeat`, a subset parameter or nested loops that the engine's limits
        (limits.py) will stop, as far as the constants show (a number, an enum, the `players` range)."""
        for x in self.every_node:
            if isinstance(x, n.Binary) and x.op == "..":
                size = self.range_size(x)
                if size is not None and size > RANGE_LIMIT:
                    self.report("W210", "warning", f"this range has at least {size:,} numbers, more than the range "
                                f"limit ({RANGE_LIMIT:,}): the engine stops with an error when it is made", x.span)
            elif isinstance(x, n.Repeat):
                count = _least(self.consts.value(x.count))
                if count is not None and count > LOOP_LIMIT:
                    self.report("W211", "warning", f"this `repeat` runs {count:,} times, more than the loop limit "
                                f"({LOOP_LIMIT:,}): the engine stops it with an error", x.span)
            elif isinstance(x, n.ActionDecl):
                for p in x.params:
                    if p.mode == "subset":
                        self.subset_lint(x, p)
        for body in self.bodies():
            self.work_lint(body)
        self.family_lint()

    def family_lint(self) -> None:
        """W221: a zone or variable family with more members than FAMILY_LIMIT (at the most players the
        game takes), or families with more than FAMILIES_LIMIT in all: the engine refuses to load the game."""
        high = self.consts.players[1]
        players = PLAYER_LIMIT if high == INF else min(PLAYER_LIMIT, high)
        board = next((d for d in self.game.decls if isinstance(d, n.BoardDecl)), None)
        cells = 0
        if board is not None and all(isinstance(a, n.Lit) and type(a.value) is int for a in board.args):
            sides = [a.value for a in board.args]
            cells = board_cells(board.shape, sides[0], sides[-1])
        total = 0
        for d in list(self.zones.values()) + list(self.vars.values()):
            if d.per is None:
                continue
            parts = []
            for name, _span, of_board in [(d.per, d.per_span, d.per_board)] + list(d.more_per):
                sym = self.c.symbols.get(name)
                if of_board is None and sym is not None and sym.kind == "enum":
                    parts.append(f"enum:{name}")
                elif of_board is None and sym is not None and sym.kind == "kind":
                    parts.append("component")
                elif name in ("player", "cell"):
                    parts.append(name)
                else:
                    parts = None                   # (an error of its own)
                    break
            if not parts:
                continue
            members = family_members(parts, players, cells,
                                     lambda e: len(self.c.symbols[e].decl.items))
            what = "zone" if isinstance(d, n.ZoneDecl) else "variable"
            why = family_limit_message(what, d.name, parts, members, players)
            if why is not None:
                self.report("W221", "warning", f"{why}: the engine refuses to load the game", d.per_span or d.span)
                continue
            total += members
            if total > FAMILIES_LIMIT:
                self.report("W221", "warning", f"the zone and variable families have more than {FAMILIES_LIMIT:,} "
                            f"members in all (families limit), counting those of `{d.name}`: the engine refuses "
                            f"to load the game", d.per_span or d.span)
                return

    def subset_lint(self, a: n.ActionDecl, p: n.ActionParam) -> None:
        """W212: the domain may be so large, and the size so loose, that the subsets to list are more
        than SUBSET_COUNT_LIMIT (all of them are listed to find the legal actions)."""
        most = self.most_elements(p.domain)
        if most is None:
            return
        low, high = 1, most
        if p.size is not None:
            lo, hi = (p.size.left, p.size.right) if isinstance(p.size, n.Binary) and p.size.op == ".." \
                else (p.size, p.size)
            low = max(0, _least(self.consts.value(lo)) or 0)
            top = _most(self.consts.value(hi))
            high = most if top is None else max(0, min(most, top))
        count = 0
        for k in range(low, high + 1):
            count += math.comb(most, k)
            if count > SUBSET_COUNT_LIMIT:
                self.report("W212", "warning", f"`{p.name}` may be one of more than {SUBSET_COUNT_LIMIT:,} subsets "
                            f"(of up to {most:,} elements, size {low}..{high}), over the subset limit: listing the "
                            f"actions of `{a.name}` stops with an error; bound it with `size`", p.span)
                return

    def most_elements(self, e) -> int | None:
        """The most elements a parameter's domain can have, where the declarations say (else None)."""
        if isinstance(e, n.ListLit):
            return len(e.items)
        if isinstance(e, n.Binary) and e.op == "..":
            lo, hi = _least(self.consts.value(e.left)), _most(self.consts.value(e.right))
            return None if lo is None or hi is None else max(0, hi - lo + 1)
        if isinstance(e, n.ListComp):
            return self.most_elements(e.comp.iterable)
        ref = self.c.refs.get(id(e)) if isinstance(e, n.Name) else None
        if ref and ref[0] == "enum":
            return len(self.c.symbols[ref[1]].decl.items)
        if ref in (("builtin", "players"), ("builtin", "others")):
            high = self.consts.players[1]
            return None if high == INF else high - (ref[1] == "others")
        zone = self.root_zone(e) if isinstance(e, (n.Name, n.Index)) else None
        if zone in self.zones:
            cap = next((m.value for m in self.zones[zone].modifiers if m.name == "capacity"), None)
            most = _most(self.consts.value(cap)) if cap is not None else None
            return None if most is None else max(0, most)
        return None

    def range_size(self, e: n.Binary) -> int | None:
        """The fewest numbers a range `lo..hi` can have, when its ends are known."""
        lo, hi = _most(self.consts.value(e.left)), _least(self.consts.value(e.right))
        return None if lo is None or hi is None else max(0, hi - lo + 1)

    def bodies(self):
        """Every effect's top block: where the work limit starts afresh."""
        yield self.setup
        for step in self.steps.values():
            yield step.decl.enter
            yield from (a.body for a in step.decl.actions)
            yield step.decl.reveal
        yield from self.handlers.values()
        yield from (d.body for d in self.whens)
        yield from (d.body for d in self.limits)
        yield from (p.body for p in self.procs.values())

    def loop_count(self, s) -> int | None:
        """How many times a `repeat` or `for` runs at least, when its constants say (else None)."""
        if isinstance(s, n.Repeat):
            count = _least(self.consts.value(s.count))
            return None if count is None else max(0, count)
        if isinstance(s, n.For):
            if isinstance(s.iterable, n.Binary) and s.iterable.op == "..":
                return self.range_size(s.iterable)
            if isinstance(s.iterable, n.ListLit):
                return len(s.iterable.items)
        return None

    def work_lint(self, body) -> None:
        """W213: loops inside loops whose counts multiply past WORK_LIMIT (found with an explicit stack)."""
        stack = [(s, 1) for s in reversed(body)]
        while stack:
            s, outer = stack.pop()
            times = outer
            if isinstance(s, (n.Repeat, n.For)):
                count = self.loop_count(s)
                if count is not None and outer > 1 and outer * count > WORK_LIMIT \
                        and count <= LOOP_LIMIT and count <= RANGE_LIMIT:      # (else W210 or W211 says so)
                    self.report("W213", "warning", f"this loop and the loops around it run {outer * count:,} times "
                                f"together, more than the work limit ({WORK_LIMIT:,} loop rounds in one effect): "
                                f"the engine stops the effect with an error", s.span)
                    continue
                times = outer * (count or 1)
            for block in _blocks_of(s):
                stack.extend((x, times) for x in reversed(block))

    def hidden_choice(self, a: n.ActionDecl) -> None:
        """W218: an action chooses among the components of a hidden zone: its texts name them
        (`play B3`) to the chooser, who may not see them, and on the screen to everyone."""
        if a.text is not None and a.params:
            used = {x.name for x in walk(a.text) if isinstance(x, n.Name)}
            if not used & {p.name for p in a.params}:
                self.report("W219", "warning", f"the text of action `{a.name}` (`as`) uses none of its parameters: "
                            f"every choice gets the same text, told apart only by a number (`TEXT (2)`)", a.text.span)
        for p in a.params:
            z = self.root_zone(p.domain)
            sym = self.c.symbols.get(z) if z else None
            if sym is None or (a.text is not None and p.name not in {x.name for x in walk(a.text)
                                                                       if isinstance(x, n.Name)}):
                continue
            vis = [m.name for m in sym.decl.modifiers if m.name in ("public", "hidden", "owner")]
            if vis == ["hidden"] and not any(m.name == "internal" for m in sym.decl.modifiers):
                self.report("W218", "warning", f"`{p.name}` is chosen from zone `{z}`, which is hidden: the action's "
                            f"texts name its components to the player (and on the screen), who may not see them; "
                            f"declare the zone `owner` (its owner sees it) or `public`, or write the text with `as`",
                            p.domain.span)

    def never_playable(self, a: n.ActionDecl) -> bool:
        """Report and say whether an action can never be played."""
        if a.require is not None and self.consts.truth(a.require) is False:
            self.report("W203", "warning", f"action `{a.name}` can never be played: its `require` is always false",
                        a.require.span)
            return True
        for p in a.params:
            z = self.root_zone(p.domain)
            if z in self.always_empty:
                self.report("W206", "warning", f"action `{a.name}` can never be played: its choices for `{p.name}` "
                            f"come from zone `{z}`, which is always empty", p.domain.span)
                return True
            if _empty_domain(p.domain, self.consts):
                self.report("W203", "warning", f"action `{a.name}` can never be played: there is nothing to choose "
                            f"for `{p.name}`", p.domain.span)
                return True
            if p.mode == "subset" and isinstance(p.size, n.Binary) and p.size.op == "..":
                lo, hi = self.consts.value(p.size.left), self.consts.value(p.size.right)
                if lo is not None and hi is not None and lo[0] == hi[0] == "r" and lo[1] > hi[2]:
                    self.report("W203", "warning", f"action `{a.name}` can never be played: the size of `{p.name}` "
                                "is an empty range", p.size.span)
                    return True
        return False

    def classify_actions(self) -> None:
        for step in self.steps.values():
            for a in step.decl.actions:
                self.hidden_choice(a)
                if self.never_playable(a):
                    continue
                step.playable.append(a)
                if not a.params and (a.require is None or self.consts.truth(a.require) is True):
                    step.may_be_stuck = False

    # ---- what a block can do: the signals it may end with ----
    def exits(self, stmts, quiet: bool = False, dead: bool = False) -> frozenset:
        """The outcomes a block may have: FALL, ("goto", step), END_TURN, FINISH.

        quiet=True follows only the paths that make no progress (change nothing but the order
        or place of components within one zone); dead=True reports unreachable statements
        and endless loops on the way (done once per block)."""
        cur = {FALL}
        last = cur
        for s in stmts:
            if FALL not in cur:
                if dead and last:        # (not after a loop that never ends: E404 says that)
                    self.report("W209", "warning", "this statement never runs: the one before it always ends the "
                                "effect (with `goto`, `end turn` or `finish`)", s.span)
                break
            last = self.stmt_exits(s, quiet, dead)
            cur.discard(FALL)
            cur |= last
        return frozenset(cur)

    def stmt_exits(self, s, quiet: bool, dead: bool) -> frozenset:
        if isinstance(s, n.Goto):
            return frozenset({("goto", s.step)})
        if isinstance(s, n.EndTurn):
            return frozenset({END_TURN})
        if isinstance(s, n.Finish):
            return frozenset({FINISH})
        if isinstance(s, n.If):
            t = self.consts.truth(s.test)
            then, other = self.exits(s.then, quiet, dead), self.exits(s.other, quiet, dead)
            return then if t is True else other if t is False else then | other
        if isinstance(s, n.For):
            return frozenset({FALL}) | self.exits(s.body, quiet, dead)
        if isinstance(s, n.While):
            t = self.consts.truth(s.test)
            body = self.exits(s.body, quiet, dead)
            if t is False:
                return frozenset({FALL})
            if t is True:
                leaves = body - {FALL}
                if dead and not leaves and not quiet:
                    self.report("E404", "error", "this `while` never ends: its condition is always true and nothing "
                                "in it leaves the loop (the engine stops it at the loop limit)", s.span)
                return leaves
            return frozenset({FALL}) | body
        if isinstance(s, n.Repeat):
            body = self.exits(s.body, quiet, dead)
            v = self.consts.value(s.count)
            if v is not None and v[0] == "r" and v[1] >= 1:
                return body
            return frozenset({FALL}) | body
        if isinstance(s, n.CallStmt):
            return self.call_exits(s.name, quiet)
        if isinstance(s, CHOICES):                # either block may run (or neither)
            return frozenset({FALL}) | self.exits(s.body, quiet, dead) | self.exits(s.other, quiet, dead)
        if isinstance(s, ABILITY_STATEMENTS):     # the abilities may change anything: progress, maybe
            if quiet:
                return frozenset()
            out = frozenset({FALL})               # and may end the game or the turn as they do
            for proc in self.ability_procs(s):
                out |= self.call_exits(proc, quiet)
            return out
        if isinstance(s, SIMPLE_STATEMENTS):
            return frozenset() if quiet and not self.no_progress(s) else frozenset({FALL})
        raise AssertionError(f"unknown statement node {type(s).__name__}")

    def ability_procs(self, s) -> list[str]:
        """The bodies an `emit`, `open` or `run` may set going."""
        form, name = ((("trigger", s.event) if isinstance(s, n.Emit) else ("response", s.window)
                       if isinstance(s, n.Open) else ("hook", s.hook)))
        return [a.proc for a in self.c.abilities if a.form == form and a.name == name and a.proc]

    def call_exits(self, name: str, quiet: bool) -> frozenset:
        key = (name, quiet)
        if key in self.proc_exits:
            return self.proc_exits[key]
        proc = self.procs.get(name)
        if proc is None or key in self.proc_busy or len(self.proc_busy) >= CHAIN_DEPTH:
            return frozenset({FALL})          # recursion (or a cycle of many procs): assume it returns
        self.proc_busy.add(key)
        try:
            result = self.exits(proc.body, quiet, dead=not quiet)
        finally:
            self.proc_busy.discard(key)
        self.proc_exits[key] = result
        return result

    def no_progress(self, s) -> bool:
        """Does this simple statement leave the game where it was (as far as ending it goes)?

        Each kind answers for itself, and a kind not listed is a bug here: guessing either way
        would hide endless games (W204) or invent them."""
        if isinstance(s, n.Move):            # within one zone only the order changes
            z = self.root_zone(s.what)
            return z is not None and z == self.root_zone(s.dest)
        if isinstance(s, (n.Assign, n.Append, n.Remove)):   # a local is gone when the effect ends; a variable stays
            ref = self.c.refs.get(id(s.target))
            return bool(ref) and ref[0] == "local"
        if isinstance(s, (n.Create, n.CreateFrom, n.CreateCards)):
            return False                     # a new component
        if isinstance(s, n.Grant):
            return False                     # a value changes (until the turn ends)
        if isinstance(s, n.Eliminate):
            return False                     # a player is out, the turn order changes
        if isinstance(s, (n.Let, n.Log, n.Shuffle, n.Reveal)):
            return True                      # a local name, a message, the order of one zone
        raise AssertionError(f"unknown statement node {type(s).__name__}")

    def callees_first(self) -> list[str]:
        """The procs in an order where each comes after the procs it calls (except round a cycle),
        found without recursion: filling `proc_exits` in this order keeps `call_exits` shallow."""
        calls = {name: [x.name for x in walk(p.body) if isinstance(x, n.CallStmt) and x.name in self.procs]
                 for name, p in self.procs.items()}
        order, seen = [], set()
        for root in self.procs:
            if root in seen:
                continue
            seen.add(root)
            stack = [(root, iter(calls[root]))]
            while stack:
                name, todo = stack[-1]
                callee = next(todo, None)
                if callee is None:
                    stack.pop()
                    order.append(name)
                elif callee not in seen:
                    seen.add(callee)
                    stack.append((callee, iter(calls[callee])))
        return order

    def dead_code(self) -> None:
        """Visit every block once for unreachable statements and endless loops."""
        for name in self.callees_first():
            self.call_exits(name, False)
            self.call_exits(name, True)
        blocks = [self.setup]
        for step in self.steps.values():
            blocks.append(step.decl.enter)
            blocks.extend(a.body for a in step.decl.actions)
            blocks.append(step.decl.reveal)
        blocks.extend(self.handlers.values())
        blocks.extend(d.body for d in self.whens)
        blocks.extend(d.body for d in self.limits)
        for b in blocks:
            self.exits(b, dead=True)
        for name in self.procs:
            self.call_exits(name, False)

    # ---- the flow graph: start, turns, steps (entered, waiting for a decision), end ----
    def target(self, outcome, fall):
        if outcome == FALL:
            return fall
        if outcome == END_TURN:
            return TURN
        if outcome == FINISH:
            return END
        step = outcome[1]
        return _enter(step) if step in self.steps else ERROR

    def targets(self, outcomes, fall, quiet: bool = False) -> set:
        out = {self.target(o, fall) for o in outcomes} - {None}
        if quiet and TURN in out and "turn_end" in self.handlers \
                and FALL not in self.exits(self.handlers["turn_end"], quiet=True):
            out.discard(TURN)           # every turn's end makes progress (`on turn_end`)
        return out

    def graph(self, quiet: bool = False) -> dict:
        """Successors of every node. With quiet=True only the edges that make no progress,
        and the action edges are labelled ("via", action) for the loop check."""
        g: dict = {}
        first = _enter(self.first_step) if self.first_step else ERROR
        g[START] = self.targets(self.exits(self.setup, quiet), TURN)
        turn = set()
        for d in self.limits:
            turn |= self.targets(self.exits(d.body, quiet) - {FALL}, None)
        turn |= self.targets(self.exits(self.handlers.get("turn_start", ()), quiet), first)
        if FINISH in self.exits(self.handlers.get("turn_end", ()), quiet):
            turn.add(END)
        for event in ("round_start", "round_end"):      # a turn may end or start a round
            if event in self.handlers:
                outs = self.exits(self.handlers[event], quiet)
                turn |= {END} if FINISH in outs else set()
                turn |= self.targets(outs - {FALL, FINISH}, None)
        g[TURN] = turn
        stuck = self.handlers.get("stuck")
        self.action_edges: dict = {}
        for name, step in self.steps.items():
            wait = _wait(name)
            g[_enter(name)] = self.targets(self.exits(step.decl.enter, quiet), wait, quiet)
            succ = set()
            for a in step.playable:
                if quiet and a.require is not None and _mentions_turn_count(a.require, self.c):
                    continue
                for t in self.targets(self.answered(step, self.exits(a.body, quiet), quiet), wait, quiet):
                    succ.add(t)
                    self.action_edges.setdefault((wait, t), []).append(a)
            if step.may_be_stuck and not quiet:
                succ |= self.targets(self.exits(stuck, quiet), ERROR) if stuck is not None else {ERROR}
            if not quiet:
                for d in self.whens:
                    if self.consts.truth(d.test) is not False:
                        succ |= self.targets(self.exits(d.body, quiet) - {FALL}, None)
            g[wait] = succ
        g[END] = set()
        g[ERROR] = set()
        return g

    def answered(self, step: Step, outs: frozenset, quiet: bool = False) -> frozenset:
        """How an action of this step may end the effect: at a simultaneous step, its body and then
        the step's `reveal` block, whose `goto`/`end turn`/`finish` wins over the body's."""
        if not (step.decl.simultaneous and step.decl.reveal):
            return outs
        reveal = self.exits(step.decl.reveal, quiet)
        return (reveal - {FALL}) | (outs if FALL in reveal else frozenset())

    def flow(self) -> None:
        if not self.steps:
            return
        g = self.graph()
        self.g = g
        reach = _reachable(g, [START])
        self.reach = reach
        stuck = self.handlers.get("stuck")
        if stuck is not None and any(s.may_be_stuck and _wait(name) in reach for name, s in self.steps.items()):
            out = self.exits(stuck)
            span = next(d.span for d in self.game.decls if isinstance(d, n.OnDecl) and d.event == "stuck")
            if out == {FALL}:
                self.report("E405", "error", "`on stuck` never ends the game, ends the turn or goes to a step: "
                            "a stuck player would stay stuck (the engine stops with an error)", span)
            elif FALL in out:
                self.report("W208", "warning", "`on stuck` can run to its end without ending the game, ending the "
                            "turn or going to a step: then the engine stops with an error", span)
        for name, step in self.steps.items():
            if _enter(name) not in reach and not name.startswith("__"):     # (`__anytime`: see desugar.py)
                how = "no `goto` leads to it" + ("" if step.decl.in_turn else " and it is not in the `turn`")
                self.report("W202", "warning", f"step `{name}` can never be reached: {how}", step.decl.span)
        stays = any(FALL in self.answered(step, self.exits(a.body)) for name, step in self.steps.items()
                    if _wait(name) in reach for a in step.playable)
        if self.consts.players[1] > 1 and self.first_step and stays and not any(d.severity == "error" for d in self.out) \
                and not any(TURN in g.get(node, ()) for node in reach if node != START):
            first = self.steps[self.first_step].decl
            self.report("W217", "warning", "no turn ever ends: nothing reachable does `end turn`, so the first player "
                        "makes every move of the game (an action that does not end the turn or go to a step leaves "
                        "the same player acting)", first.span)
        settling = self.never_settles(g, reach)
        self.dead_ends: set[str] = set(settling)
        back = _reachable(_reverse(g), [END])
        if any(d.code == "E404" for d in self.out):
            return            # an endless loop already explains why the end cannot be reached
        if END not in reach:
            if any(isinstance(x, n.Finish) for x in self.every_node) and not self.settle_reported:
                self.report("E403", "error", "the game can never end: no `finish` can be reached from the start",
                            self.game.span)
        else:
            for name, step in self.steps.items():
                nodes = [x for x in (_enter(name), _wait(name)) if x in reach]
                if nodes and not any(x in back for x in nodes):
                    self.dead_ends.add(name)
                    if name not in settling:
                        self.report("E401", "error", f"step `{name}` has no way out: once it is reached, no `goto`, "
                                    "`end turn` or `finish` can ever lead to the end of the game", step.decl.span)
        if END not in reach:
            self.dead_ends |= set(self.steps)

    def never_settles(self, g: dict, reach: set) -> set[str]:
        """Nodes from which the engine moves on for ever without asking anyone anything."""
        auto = set()
        for node, succ in g.items():
            if not succ or END in succ or ERROR in succ:
                continue
            if isinstance(node, tuple) and node[0] == "enter" and node[1] is not None:
                if _wait(node[1]) not in succ:
                    auto.add(node)
            elif node == TURN:
                auto.add(node)
            elif isinstance(node, tuple) and node[0] == "wait" and not self.steps[node[1]].playable \
                    and "stuck" in self.handlers:
                auto.add(node)
        changed = True
        while changed:
            changed = False
            for node in list(auto):
                if not g[node] <= auto:
                    auto.discard(node)
                    changed = True
        trapped = [x for x in auto if x in reach]
        self.settle_reported = bool(trapped)
        if not trapped:
            return set()
        names = sorted({x[1] for x in trapped if isinstance(x, tuple)},
                       key=lambda s: (self.steps[s].decl.span.line, s))
        where = self.steps[names[0]].decl.span if names else self.game.span
        parts = [f"step `{s}`" for s in names] + (["the start of the turn"] if TURN in trapped else [])
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        verb = "leads" if len(parts) == 1 else "lead"
        self.report("E402", "error", f"the flow never settles: {listed} {verb} on and on without ever waiting for "
                    "a decision (the engine stops after 1000 step changes)", where)
        return set(names)

    # ---- can the game go on for ever? ----
    def progress(self) -> None:
        if not self.steps or self.limits or not hasattr(self, "reach"):
            return
        if any(isinstance(x, n.Name) and self.c.refs.get(id(x)) in (("builtin", "turn_count"), ("builtin", "round_count"))
               for x in self.every_node):
            return                  # the rules count turns (or rounds) themselves
        g = self.graph(quiet=True)
        edges = self.action_edges
        nodes = [x for x in g if x in self.reach]
        comp = _sccs({x: {y for y in g[x] if y in self.reach} for x in nodes})
        looping = []
        for (src, dst), actions in edges.items():
            if src[1] in self.dead_ends:
                continue              # E401/E402/E403 already say this part of the flow never ends
            if src in self.reach and dst in self.reach and comp.get(src) is not None and comp.get(src) == comp.get(dst):
                looping.extend(actions)
        if not looping:
            return
        looping = sorted(set(looping), key=lambda a: (a.span.line, a.span.column))
        names = [f"`{a.name}`" for a in looping]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        self.report("W204", "warning", f"the game may never end: {listed} can be played again and again without "
                    "progress (changing nothing, or only where components sit within one zone), and there is no "
                    "`turn limit`", looping[0].span)


def _least(v) -> int | None:
    """The smallest a known number can be (None: unknown, or no bound)."""
    return v[1] if v is not None and v[0] == "r" and math.isfinite(v[1]) else None


def _most(v) -> int | None:
    """The largest a known number can be (None: unknown, or no bound)."""
    return v[2] if v is not None and v[0] == "r" and math.isfinite(v[2]) else None


def _blocks_of(s) -> tuple:
    """The blocks a statement holds."""
    if isinstance(s, n.If):
        return (s.then, s.other)
    if isinstance(s, (n.For, n.While, n.Repeat)):
        return (s.body,)
    if isinstance(s, CHOICES):
        return (s.body, s.other)
    if isinstance(s, SIMPLE_STATEMENTS + JUMPS + ABILITY_STATEMENTS + (n.CallStmt,)):
        return ()
    raise AssertionError(f"unknown statement node {type(s).__name__}")


def _hidden(d) -> bool:
    return any(m.name == "hidden" for m in d.modifiers)


def _names_in_root(e):
    """The Name nodes that make the zone part of a destination (`hand` in `hand[p]`)."""
    while isinstance(e, n.Index):
        e = e.obj
    return [e] if isinstance(e, n.Name) else []


def _empty_domain(e, consts: Consts) -> bool:
    if isinstance(e, n.ListLit) and not e.items:
        return True
    if isinstance(e, n.Binary) and e.op == "..":
        lo, hi = consts.value(e.left), consts.value(e.right)
        return lo is not None and hi is not None and lo[0] == hi[0] == "r" and lo[1] > hi[2]
    return False


def _mentions_turn_count(e, checked) -> bool:
    return any(isinstance(x, n.Name) and checked.refs.get(id(x)) == ("builtin", "turn_count") for x in walk(e))


def _reachable(g: dict, roots) -> set:
    seen, todo = set(), list(roots)
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        todo.extend(g.get(x, ()))
    return seen


def _reverse(g: dict) -> dict:
    r: dict = {}
    for x, succ in g.items():
        for y in succ:
            r.setdefault(y, set()).add(x)
    return r


def _sccs(g: dict) -> dict:
    """Node -> id of its strongly connected component, for components with a cycle (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), {}
    counter = [0]

    def visit(v):
        work = [(v, iter(g.get(v, ())))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(g.get(w, ()))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    members.append(w)
                    if w == node:
                        break
                if len(members) > 1 or node in g.get(node, ()):
                    for w in members:
                        out[w] = node
    for v in g:
        if v not in index:
            visit(v)
    return out


def static_lint(checked) -> list[Diagnostic]:
    """The flow and dead-rule lints of a file that has no name or type errors (`checked`: the
    checker's Checked; the checker calls this, so this module does not import the checker)."""
    return StaticLint(checked).run()


def _guard_of(x) -> tuple | None:
    """(the condition, the fields it guards) of a node that runs something only when a condition holds."""
    if isinstance(x, (n.If, n.Cond)):
        return x.test, ("then",)
    if isinstance(x, n.Binary) and x.op == "and":
        return x.left, ("right",)
    if isinstance(x, n.ActionDecl) and x.require is not None:
        return x.require, ("body", "params")
    if isinstance(x, n.WhenDecl):
        return x.test, ("body",)
    if isinstance(x, n.Comprehension) and x.where is not None:
        return x.where, ("elem", "key")
    return None


def _tests_size(cond) -> bool:
    return any((isinstance(y, (n.Call, n.Aggregate)) and y.name in ("size", "count", "any", "all", "contains"))
               or (isinstance(y, n.Binary) and y.op in ("!=", "==") and any(
                   isinstance(z, n.Lit) and z.value is None or isinstance(z, n.ListLit) and not z.items
                   for z in (y.left, y.right)))
               for y in walk(cond))


def _never_empty(e, refs: dict) -> bool:
    """A list that has an element whatever the position: a non-empty literal, a literal range,
    the players, a board's directions or cells, or a comprehension without `where` over one."""
    if isinstance(e, n.Comprehension):
        return e.where is None and _never_empty(e.iterable, refs) and all(_never_empty(it, refs) for _, it, _ in e.more)
    if isinstance(e, n.ListComp):
        return _never_empty(e.comp, refs)
    if isinstance(e, n.ListLit):
        return bool(e.items)
    if isinstance(e, n.Name):                    # the players, an enum's values
        return refs.get(id(e)) in (("builtin", "players"),) or refs.get(id(e), ("",))[0] == "enum"
    if isinstance(e, n.Call) and refs.get(id(e), ("builtin",))[0] == "builtin":   # a board's directions, all its cells
        return e.name == "directions" or (e.name == "cells" and len(e.args) == 1)
    if isinstance(e, n.Binary) and e.op == "..":
        return (isinstance(e.left, n.Lit) and isinstance(e.right, n.Lit) and type(e.left.value) is int
                and type(e.right.value) is int and e.left.value <= e.right.value)
    return False
