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
from functools import cached_property

from . import nodes as n
from .lint_visibility import _def_reads_me, visibility_lints
from .nodes import walk
from ..core.errors import Diagnostic, Span
from ..core.graphs import strongly_connected
from ..ir.spec import board_cells, family_limit_message, family_members
from ..core.limits import FAMILIES_LIMIT, LOOP_LIMIT, PLAYER_LIMIT, RANGE_LIMIT, SUBSET_COUNT_LIMIT, WORK_LIMIT
from .lint_constants import INF, Consts, _least, _most
from .lint_flow import ABILITY_STATEMENTS, CHOICES, FALL, FINISH, JUMPS, SIMPLE_STATEMENTS, FlowLints, Step

# ---- the static lints ------------------------------------------------------------------------


class StaticLint(FlowLints):
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
        self.assumed_returns = False      # a call in a cycle, or past CHAIN_DEPTH, was taken to return (lint_flow.settle_cycles)
        self.ability_exit_memo: dict[tuple, frozenset] = {}      # (lint_flow.abilities_exits)
        self.ability_index: dict | None = None

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
        self.card_lints()
        self.anytime_lints()
        self.limit_order_lints()
        self.eliminated_window_lints()
        self.recursion_lints()
        self.setup_me_lints()
        return self.out

    def setup_me_lints(self) -> None:
        """W272: `setup` reads `me`, which there is P1, the first seat, in a game of several players
        (a new author's Cribbage dealt P1 twice with `hand[me]`, a Jaipur's `move top(deck, 5) to
        hand[me]` linted clean): each player is dealt with `for p in players { … hand[p] }`."""
        players = next((d for d in self.game.decls if isinstance(d, n.Players)), None)
        if players is None or players.high <= 1:
            return
        for x in n.walk(self.setup):
            if isinstance(x, n.Name) and x.name == "me":
                self.report("W272", "warning", "in `setup`, `me` is P1, the first seat, whatever the player count: "
                            "to give each player theirs, loop `for p in players { … hand[p] }` (to mean P1, "
                            "write `players[0]`)", x.span)
                return

    def recursion_lints(self) -> None:
        """W261: a def that calls itself whatever its arguments (`def f(n) = f(n)`, `def f(n) = n +
        f(n - 1)`), itself or through other defs: any use of it fails at run time, after 200 calls, with
        no column (a fuzzer's file linted clean). A call is unconditional unless it lies in a branch of an
        `if … then … else`, the right of an `and` / `or`, or a comprehension's element or filter."""
        defs = {d.name: d for d in self.game.decls if isinstance(d, n.DefDecl)}
        calls: dict[str, list] = {}         # def -> [(def it calls whatever its arguments, the call's span)]
        for d in defs.values():
            params = {p.name for p in d.params or ()}
            found: list = []
            stack = [d.body]
            while stack:
                x = stack.pop()
                if isinstance(x, (list, tuple)):
                    stack.extend(x)
                    continue
                if not isinstance(x, n.Node):
                    continue
                if isinstance(x, (n.Call, n.Name)) and x.name in defs and x.name not in params:
                    found.append((x.name, x.span))
                if isinstance(x, n.Cond):
                    stack.append(x.test)
                elif isinstance(x, n.Binary) and x.op in ("and", "or"):
                    stack.append(x.left)
                elif isinstance(x, n.Comprehension):
                    stack.append(x.iterable)
                elif isinstance(x, (n.Aggregate, n.ListComp)):
                    stack.append(x.comp)
                else:
                    stack.extend(getattr(x, f) for f in x.__dataclass_fields__ if f != "span")
            calls[d.name] = found
        # the defs on a cycle of such calls: strongly connected components, in time linear in the
        # calls (a path search from each def took 30 s on a fuzz trial's chain of 3,000 defs)
        graph = {d: [c for c, _ in found] for d, found in calls.items()}
        for component in strongly_connected(graph):
            group = set(component)
            if len(group) == 1 and component[0] not in graph[component[0]]:
                continue                        # (a def on no cycle)
            for name in [d for d in calls if d in group]:          # (in the file's order)
                inside = [(c, span) for c, span in calls[name] if c in group]
                callee, span = next(((c, sp) for c, sp in inside if c != name), inside[0])
                if callee == name:
                    how = "itself"
                elif len(group) == 2:
                    how = f"itself through `{callee}`"
                else:
                    others = len(group) - 2
                    how = f"itself through `{callee}` and {others} other def{'s' if others > 1 else ''}"
                self.report("W261", "warning", f"`{name}` calls {how} whatever its arguments: any use of it never "
                            "ends (it fails after 200 calls); put the call in a branch of an `if … then … else` "
                            "that some arguments do not take", span)

    def eliminated_window_lints(self) -> None:
        """W258: an `open` of a window, in a game that eliminates players, where neither its `to` nor
        its players' responses (`respond … where`) leave the eliminated out. Since stop 62 a window
        never asks an eliminated player (before, they were asked and could respond: a new author's
        Coup let a player out challenge for free)."""
        if not any(isinstance(x, n.Eliminate) and not x.back for x in self.every_node):
            return

        defs = {d.name: d for d in self.game.decls if isinstance(d, n.DefDecl)}

        def reads_eliminated(node, seen=None, of_me=False, mes=frozenset({"me"})) -> bool:
            """Does it read who is out — `eliminated`, `remaining`, `others` — itself or through the
            defs it names (`to alive` with `def alive = [q … where not eliminated(q)]`: a review)?
            `of_me`: of the player asked (`eliminated(me)`: a response's condition about the
            claimant, `not eliminated(p)`, leaves the players asked as they were); `mes`: the names
            that stand for the player asked there (a def's parameter given `me`: `alive(me)` of
            `def alive(p) = not eliminated(p)` — a new author's Coup was warned of it)."""
            if node is None:
                return False
            seen = set() if seen is None else seen
            for x in walk(node):
                if isinstance(x, n.Call) and x.name == "eliminated" and (
                        not of_me or len(x.args) == 1 and isinstance(x.args[0], n.Name) and x.args[0].name in mes):
                    return True
                if isinstance(x, n.Name) and x.name in ("remaining", "others"):
                    return True
                name = x.name if isinstance(x, (n.Call, n.Name)) else None
                if name in defs and len(seen) < 200:
                    d = defs[name]
                    given = frozenset(p.name for p, arg in zip(d.params or (), getattr(x, "args", ()))
                                      if isinstance(arg, n.Name) and arg.name in mes)
                    if (name, given) not in seen:
                        seen.add((name, given))
                        if reads_eliminated(d.body, seen, of_me, given | {"me"}):
                            return True
            return False
        responses: dict = {}                    # window -> the conditions of every response to it (None: none)
        for a in self.c.abilities:              # (players' `respond … where` and cards' `on W(…) where`)
            if a.form == "response":
                responses.setdefault(a.name, []).append(defs.get(a.where) if a.where else None)
        for x in self.every_node:
            if not isinstance(x, n.Open) or reads_eliminated(x.to):
                continue
            own = responses.get(x.window, [])
            if own and all(d is not None and reads_eliminated(d.body, of_me=True) for d in own):
                continue
            self.report("W258", "warning", f"`open {x.window}` in a game that eliminates players: an eliminated "
                        "player is never asked in a window; to say so in the rules, and silence this, add "
                        "`not eliminated(me)` to the responses' `where` (a changed meaning: rule files written "
                        "before CHANGELOG's Stop 62 had them asked)", x.span)

    def limit_order_lints(self) -> None:
        """W254: a `turn limit` and a `when` rule that may both end the game. Since stop 57 the
        `when` rules are asked first when the limit is reached (a win made on the last turn is a
        win); before, the limit's block ended the game and the `when` was never asked (CHANGELOG)."""
        ending = [d for d in self.limits if FINISH in self.exits(d.body)]
        if not ending:
            return
        for w in self.whens:
            if FINISH in self.exits(w.body):
                self.report("W254", "warning", "this `when` rule and the `turn limit` of line "
                            f"{ending[0].span.line} may both end the game: when the limit is reached the "
                            "`when` rules are asked first, so a win made on the last turn stands (a changed "
                            "meaning: before CHANGELOG's Stop 57, the limit ended the game and this rule was "
                            "never asked)", w.span)

    def anytime_lints(self) -> None:
        """W253: an `anytime` action that may `goto` or `end turn`, in a game whose effects may wait
        for an answer. Since stop 56 such actions are offered while a question waits too
        (CHANGELOG), and one taken then ends the waiting effect there: the rest of it never runs.
        (`finish` is not said: a game that ends, ends whatever was waiting.)"""
        if not any(isinstance(x, CHOICES + (n.Open,)) for x in self.every_node) and not self.c.abilities:
            return
        for name, step in self.steps.items():
            if not name.startswith("__"):
                continue
            for a in step.decl.actions:
                if self.exits(a.body, quiet=False) - {FALL, FINISH}:
                    self.report("W253", "warning", f"anytime action `{a.name}` may end the turn or go to a step: "
                                "it is offered while a question waits too, and taken then it ends the waiting effect "
                                "there — the rest of that effect never runs (a changed meaning: CHANGELOG, Stop 56)", a.span)

    def card_lints(self) -> None:
        """W243: a `card` declaration nothing makes — no `create cards` of its kind, no `create
        K(card: "Name")` naming it, no `card:` worked out or read from a content file: that card
        is in no game (a new author's every game stopped at its first action, and only `--deep`
        said why)."""
        cards = [d for d in self.game.decls if isinstance(d, n.CardDecl)]
        if not cards:
            return
        made, named = set(), set()              # kinds made by `create cards` (or open to any name); (kind, name)
        for x in self.every_node:
            if isinstance(x, n.CreateCards):
                made.add(x.kind)
            elif isinstance(x, n.CreateFrom):
                made.add(x.kind)
            elif isinstance(x, n.Make):
                for kw in x.kwargs:
                    if kw.name == "card":
                        if isinstance(kw.value, n.Lit):
                            named.add((x.kind, kw.value.value))
                        else:
                            made.add(x.kind)
        for d in cards:
            if d.kind not in made and (d.kind, d.name) not in named:
                self.report("W243", "warning", f"card `{d.name}` is never made: nothing creates it (`create cards "
                            f"{d.kind} in …` makes every card of the kind, `create {d.kind}(card: \"{d.name}\") in …` "
                            f"this one)", d.span)

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
            # (`me` read through a def it calls counts: `text(allowed(1))`, `def allowed(b) = not used[me] …`
            # was warned, a new author's Spades)
            seen: set = set()
            if own is not None and not any(isinstance(x, n.Name) and x.name == "me" or isinstance(x, (n.Call, n.Name))
                                           and _def_reads_me(self, x.name, seen) for x in walk(d.body)):
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
                if items is not None and not _never_empty(items, self.c.refs, self.consts.players[0]):
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
            self.revealed_secret_lints(d)
            self.choice_after_reveal(d)
            if isinstance(d.actor, n.ListLit) and not d.actor.items:
                self.report("W236", "warning", f"nobody can answer simultaneous step `{d.name}`: `by []` asks no "
                            f"player (the engine runs `on stuck` there)", d.actor.span)
            elif not step.playable:
                why = "it has no action" if not d.actions else "none of its actions can ever be played"
                self.report("W236", "warning", f"nobody can answer simultaneous step `{d.name}`: {why} "
                            f"(the engine runs `on stuck` there)", d.span)

    def choice_after_reveal(self, d) -> None:
        """W270: a `choose` or `may` in an action of a simultaneous step is asked once every seat has
        answered and the answers are revealed, one player after another: neither secret nor at once
        (a new author's Sushi Go showed P1's first card to P2 before P2 picked its second)."""
        procs = {p.name: p for p in self.game.decls if isinstance(p, n.ProcDecl)}
        for action in d.actions:
            asked, bodies, called = None, [action.body], set()
            while bodies and asked is None:         # (through the procedures it calls: a review)
                for x in walk(bodies.pop()):
                    if isinstance(x, CHOICES):
                        asked = x
                        break
                    if isinstance(x, n.CallStmt) and x.name in procs and x.name not in called:
                        called.add(x.name)
                        bodies.append(procs[x.name].body)
            if asked is not None:
                word = "may" if isinstance(asked, n.May) else "choose"
                self.report("W270", "warning", f"this `{word}` in `{action.name}` of simultaneous step `{d.name}` is "
                            f"asked after every seat has answered and the answers are revealed, one player after "
                            f"another: it is neither secret nor made at once; to choose with the answer, make it a "
                            f"parameter of the action (`action {action.name}(a in …, b in …)`)", asked.span)

    def revealed_secret_lints(self, d) -> None:
        """W250: an action of a simultaneous step keeps a choice that is no component (a cell, a
        number, an enum value) in a variable some player may not read — yet every answer is
        revealed to all once every seat has answered (`P1: place a1 across`), so the secret is
        everyone's (a new author's Battleship followed the docs' advice for a hidden deployment)."""
        procs = {p.name: p for p in self.game.decls if isinstance(p, n.ProcDecl)}
        for action in d.actions:
            plain = {p.name: p.name for p in action.params if self.chosen_from(p.domain) is None}
            kept = self._kept_secret(action.body, plain, procs, frozenset())
            if kept is not None:
                x, var, vis, choice, through = kept
                self.report("W250", "warning", f"`{action.name}` in simultaneous step `{d.name}` keeps its "
                            f"choice `{choice}` in `{var}`{through}, which is `{vis}`, but every answer is "
                            f"revealed to all once every seat has answered, so everyone learns it; to keep it "
                            f"secret, make the choice a component (a card per place) picked into an `owner` zone",
                            x.span)

    def _kept_secret(self, body, tainted: dict, procs: dict, called: frozenset):
        """Where `body` writes a value made from a `tainted` name (name -> the choice it comes from)
        into a variable some player may not read: (the statement, the variable, its visibility, the
        choice, ` (through proc …)`), or None. Follows `let`s and the procedures it calls (a new
        author's fleet was kept through `let c = cell(…)`, a `proc`, and `append` to a list)."""
        if not tainted:
            return None
        tainted, body = dict(tainted), list(walk(body))
        readers: dict = {}                       # name -> the `let`s whose value reads it
        for x in body:                           # (not a card taken by the choice, `top(rows[r])`:
            if isinstance(x, n.Let) and self.chosen_from(x.value) is None:   # what it holds is no choice)
                for name in {y.name for y in walk(x.value) if isinstance(y, n.Name)}:
                    readers.setdefault(name, []).append(x)
        todo = list(tainted)                     # (a `let` of a `let` of the choice, in any order:
        while todo:                              #  each name once, not a pass per link of a chain)
            for x in readers.get(todo.pop(), ()):
                if x.name not in tainted:
                    tainted[x.name] = tainted[sorted(y.name for y in walk(x.value) if isinstance(y, n.Name)
                                                     and y.name in tainted)[0]]
                    todo.append(x.name)
        for x in body:
            if isinstance(x, (n.Assign, n.Append)):
                decl = self.vars.get(x.target.name)
                vis = [m.name for m in getattr(decl, "modifiers", ()) if m.name in ("hidden", "owner", "others")]
                used = {y.name for y in walk((x.target.index, x.value)) if isinstance(y, n.Name)} & tainted.keys()
                if vis and used:
                    return x, x.target.name, vis[0], tainted[sorted(used)[0]], ""
            elif isinstance(x, n.CallStmt) and x.name in procs and x.name not in called and len(called) < 40:
                # (40 procedures deep at most: a chain of 1,500 ran out of stack, E006)
                proc = procs[x.name]
                passed = {}
                for param, arg in zip(proc.params, x.args):
                    used = {y.name for y in walk(arg) if isinstance(y, n.Name)} & tainted.keys()
                    if used:
                        passed[param.name] = tainted[sorted(used)[0]]
                # (each procedure once per set of parameters given a choice, the choice named by
                # the parameter, and 2,000 procedures followed in all: chains of procedures that
                # call the next three times, with their arguments shuffled, took minutes — a review)
                seen = self.__dict__.setdefault("w250_seen", {})
                key = (x.name, frozenset(passed))
                if key not in seen and len(seen) < 2000:
                    seen[key] = None            # (a cycle through it meanwhile: nothing kept)
                    seen[key] = self._kept_secret(proc.body, {p: p for p in passed}, procs, called | {x.name})
                kept = seen.get(key)
                if kept is not None and kept[3] in passed:
                    return x, kept[1], kept[2], passed[kept[3]], kept[4] or f" (through `{x.name}`)"
        return None

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
        defs = {d.name: d for d in self.game.decls if isinstance(d, n.DefDecl)}
        for a in abilities:
            where = defs.get(a.where) if a.where is not None else None   # (the def desugar made of it)
            always = where is not None and self.consts.truth(where.body) is True     # (`where true`: no stop)
            if a.form != "trigger" or a.where is not None and not always or a.proc is None:
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
                                    f"it emits `{a.name}` and "
                                    + ("its `where` is always true" if always else "has no `where` to stop it"), a.span)
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

    def chosen_from(self, e, depth: int = 0):
        """The zone expression a choice's components come from, also through a filter of it
        (`[c for c in hand[me] where …]`) or a def that is one (`playable(me)`): `hand[me]`, or
        None. (A component chosen so is kept secret: a review found W250 said it was not.)"""
        if self.root_zone(e) is not None:
            return e
        if depth < 4 and isinstance(e, n.ListComp) and not e.comp.more \
                and isinstance(e.comp.elem, n.Name) and e.comp.elem.name == e.comp.var:
            return self.chosen_from(e.comp.iterable, depth + 1)
        if depth < 4 and isinstance(e, n.Binary) and e.op == "+":       # (`hand[me] + reserve[me]`)
            return self.chosen_from(e.left, depth + 1) or self.chosen_from(e.right, depth + 1)
        if depth < 4 and isinstance(e, n.Cond):                         # (`if … then hand[p] else …`)
            return self.chosen_from(e.then, depth + 1) or self.chosen_from(e.other, depth + 1)
        if depth < 4 and isinstance(e, (n.Name, n.Call)):
            sym = self.c.symbols.get(e.name)
            if sym is not None and sym.kind == "def" and isinstance(getattr(sym, "decl", None), n.DefDecl):
                return self.chosen_from(sym.decl.body, depth + 1)
        return None

    def chosen_zones(self, e, depth: int = 0) -> list:
        """Every zone expression a choice's components may come from (`chosen_from`'s, all of them:
        `market[t] + deck[t]` is two — a new author's blind draw pile, joined to a public row, was
        not warned of)."""
        if self.root_zone(e) is not None:
            return [e]
        if depth < 4 and isinstance(e, n.ListComp) and not e.comp.more \
                and isinstance(e.comp.elem, n.Name) and e.comp.elem.name == e.comp.var:
            return self.chosen_zones(e.comp.iterable, depth + 1)
        if depth < 4 and isinstance(e, n.Binary) and e.op == "+":
            return self.chosen_zones(e.left, depth + 1) + self.chosen_zones(e.right, depth + 1)
        if depth < 4 and isinstance(e, n.Cond):
            return self.chosen_zones(e.then, depth + 1) + self.chosen_zones(e.other, depth + 1)
        if depth < 4 and isinstance(e, (n.Name, n.Call)):
            sym = self.c.symbols.get(e.name)
            if sym is not None and sym.kind == "def" and isinstance(getattr(sym, "decl", None), n.DefDecl):
                return self.chosen_zones(sym.decl.body, depth + 1)
        return []

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
        for name, d in self.zones.items():          # (an `internal` one is a box put out of play: meant so)
            if name in filled and name not in read_zones and _hidden(d) \
                    and not any(m.name == "internal" for m in d.modifiers):
                # (players see its count on the screen: a new author's Skull read "show it" of a count shown)
                self.report("W205", "warning", f"zone `{name}` is hidden and never read: no rule looks at what "
                            "is moved into it; players see how many it holds, nothing more (a box the rules put "
                            f"cards out of play into: `zone {name}: …, hidden, internal`, off the screen; a pile "
                            "whose count is all players follow, a player's lost discs, is meant so: read its size "
                            "in a rule — a `show`, the `estimate` — to say so)", d.span)
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

    def secret_left_out(self, a: n.ActionDecl, used: set) -> None:
        """W269: an `as` text that names some parameters and leaves out one chosen from a zone the
        other players cannot see: the choices that read alike are told apart by a number, in
        the order of the hidden components, and the action's text is read by every player (a new
        author's Scotland Yard logged `ride black (3)`: the third of Mr. X's stations)."""
        for p in a.params:
            if p.name in used:
                continue
            for z in dict.fromkeys(self.root_zone(x) for x in self.chosen_zones(p.domain)):
                sym = self.c.symbols.get(z) if z else None
                if sym is None or not any(m.name in ("hidden", "owner") for m in sym.decl.modifiers):
                    continue
                self.report("W269", "warning", f"the text of action `{a.name}` (`as`) leaves out `{p.name}`, chosen "
                            f"from zone `{z}`, which other players cannot see: choices that read alike are told apart "
                            f"by a number (`TEXT (3)`) in the order of its components, and every player reads the "
                            f"action's text; name `{p.name}` in the text, or choose it in the effect (`choose … by me`: "
                            f"its answer is a secret choice)", p.domain.span)
                return

    def hidden_choice(self, a: n.ActionDecl) -> None:
        """W218: an action chooses among the components of a hidden zone: its player chooses blind
        (the engine names them by their place, `hand slot 2`), most often a hand meant `owner`."""
        if a.text is not None and a.params:
            used = {x.name for x in walk(a.text) if isinstance(x, n.Name)}
            if not used & {p.name for p in a.params}:
                self.report("W219", "warning", f"the text of action `{a.name}` (`as`) uses none of its parameters: "
                            f"every choice gets the same text, told apart only by a number (`TEXT (2)`)", a.text.span)
            else:
                # (a parameter read only for a field of it in a test, `if s.big then "far" …`, is not named:
                # `ride near (2)`; shown as the text of a field, `text(s.n)`, it is — two reviews)
                shown = {id(y.obj) for x in walk(a.text) if isinstance(x, n.Call) and x.name == "text"
                         for y in x.args if isinstance(y, n.Attr)}
                fields_of = {id(x.obj) for x in walk(a.text) if isinstance(x, n.Attr)} - shown
                self.secret_left_out(a, {x.name for x in walk(a.text) if isinstance(x, n.Name) and id(x) not in fields_of})
        for p in a.params:
            for z in dict.fromkeys(self.root_zone(x) for x in self.chosen_zones(p.domain)):
                sym = self.c.symbols.get(z) if z else None
                if sym is None or (a.text is not None and p.name not in {x.name for x in walk(a.text)
                                                                           if isinstance(x, n.Name)}):
                    continue
                vis = [m.name for m in sym.decl.modifiers if m.name in ("public", "hidden", "owner")]
                if vis == ["hidden"] and not any(m.name == "internal" for m in sym.decl.modifiers):
                    self.report("W218", "warning", f"`{p.name}` is chosen from zone `{z}`, which is hidden: the "
                                f"player chooses blind, and the actions name its components by their place "
                                f"(`{z} slot 2`); if its owner should see it, declare the zone `owner` (or `public`)",
                                p.domain.span)
                    break

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


def _never_empty(e, refs: dict, least_players: int = 1) -> bool:
    """A list that has an element whatever the position: a non-empty literal, a literal range,
    one of them joined to any list (`+`), the players, a board's directions or cells, or a comprehension without `where` over one; in
    a game for 2 players or more, the others too (`others`, `[p for p in players where p != me]`)."""
    if isinstance(e, n.Comprehension):
        if least_players >= 2 and isinstance(e.iterable, n.Name) and not e.more \
                and refs.get(id(e.iterable)) == ("builtin", "players") and _not_me(e.where, e.var):
            return True
        return e.where is None and _never_empty(e.iterable, refs, least_players) \
            and all(_never_empty(it, refs, least_players) for _, it, _ in e.more)
    if isinstance(e, n.ListComp):
        return _never_empty(e.comp, refs, least_players)
    if isinstance(e, n.ListLit):
        return bool(e.items)
    if isinstance(e, n.Name):                    # the players (the others, 2 or more), an enum's values
        return refs.get(id(e)) == ("builtin", "players") or refs.get(id(e), ("",))[0] == "enum" \
            or (least_players >= 2 and refs.get(id(e)) == ("builtin", "others"))
    if isinstance(e, n.Call) and refs.get(id(e), ("builtin",))[0] == "builtin":   # a board's directions, all its cells
        return e.name == "directions" or (e.name == "cells" and len(e.args) == 1)
    if isinstance(e, n.Binary) and e.op == "+":        # (a list joined to one that is never empty:
        return _never_empty(e.left, refs, least_players) or _never_empty(e.right, refs, least_players)  # `L + [0]`)
    if isinstance(e, n.Binary) and e.op == "..":
        return (isinstance(e.left, n.Lit) and isinstance(e.right, n.Lit) and type(e.left.value) is int
                and type(e.right.value) is int and e.left.value <= e.right.value)
    return False


def _not_me(where, var: str) -> bool:
    """Is this `where` just `x != me` (or `me != x`) for the loop variable x?"""
    if not (isinstance(where, n.Binary) and where.op == "!="):
        return False
    sides = [where.left, where.right]
    return all(isinstance(s, n.Name) for s in sides) and sorted(s.name for s in sides) == sorted([var, "me"])
