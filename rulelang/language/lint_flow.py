"""The static lints' flow analysis (a part of lints.StaticLint, sharing its state): where each
block can go — on to the next statement, to a step, to the end of the turn or of the game — which
steps can be reached and left, which never wait for a decision, what can go on for ever (W204), and
which statements can never run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.graphs import strongly_connected
from . import nodes as n
from .lint_constants import CHAIN_DEPTH
from .nodes import walk

FALL = ("fall",)            # the block ran to its end without a signal
END_TURN = ("end",)
FINISH = ("finish",)

START, TURN, END, ERROR = "start", "turn", "end", "error"

# Statement kinds by what they do to the flow. Every statement kind is in one of these or is a
# block (if, for, while, repeat) or a call: the dispatches below raise on any other.
SIMPLE_STATEMENTS = (n.Move, n.Shuffle, n.Eliminate, n.Assign, n.Append, n.Remove, n.Let, n.Create, n.CreateFrom, n.Log,
                     n.CreateCards, n.Reveal, n.Grant)   # run to their end
# statements that run abilities (which may do anything) and then go on
ABILITY_STATEMENTS = (n.Emit, n.Open, n.RunHook, n.ResolveTriggers)
CHOICES = (n.Choose, n.May)
JUMPS = (n.Goto, n.EndTurn, n.Finish)          # end the effect


def _enter(step: str) -> tuple:
    return ("enter", step)


def _wait(step: str) -> tuple:
    return ("wait", step)


@dataclass
class Step:
    decl: n.StepDecl
    playable: list = field(default_factory=list)     # actions that can ever be played
    may_be_stuck: bool = True


def _mentions_turn_count(e, checked) -> bool:
    return any(isinstance(x, n.Name) and checked.refs.get(id(x)) == ("builtin", "turn_count") for x in walk(e))


class FlowLints:
    """The flow lints; StaticLint (lints.py) is made of these and its own lints."""

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
            body = self.exits(s.body, quiet, dead)
            if quiet and not body:        # every turn of it makes progress: taken to turn at least once
                return body               # (`for d in dice { face[d] = roll(6) }` is a throw, not nothing)
            return frozenset({FALL}) | body
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
            body, other = self.exits(s.body, quiet, dead), self.exits(s.other, quiet, dead)
            if quiet and isinstance(s, n.Choose) and not s.optional and s.where is None:
                # a choice that must be made, among a whole list, runs its body, as a `for` is taken
                # to turn at least once (the list is not taken to be empty), or its `else`, written for
                # when it is (a new author's `choose ds subset of tray size 1..5 { rolls_left -= 1 … }`);
                # with a `where`, none may fit: searching a deck for a card that is no longer there
                return body | (other if s.other else frozenset())
            return frozenset({FALL}) | body | other
        if isinstance(s, ABILITY_STATEMENTS):     # the abilities may change anything: progress, maybe
            if quiet:
                return frozenset()
            return self.abilities_exits(s, quiet)  # and may end the game or the turn as they do
        if isinstance(s, SIMPLE_STATEMENTS):
            return frozenset() if quiet and not self.no_progress(s) else frozenset({FALL})
        raise AssertionError(f"unknown statement node {type(s).__name__}")

    def abilities_exits(self, s, quiet: bool) -> frozenset:
        """How the abilities an `emit`, `open`, `run` or `resolve triggers` may set going leave the
        effect, once per event (or window, hook) and `quiet`: worked out at each such statement,
        a file of 20,000 `emit`s and 6,000 handlers took 110 s of CPU to lint (a fuzz trial)."""
        key = (self.ability_key(s), quiet)
        found = self.ability_exit_memo.get(key)
        if found is None:
            found = frozenset({FALL})
            for proc in self.ability_procs(s):
                found |= self.call_exits(proc, quiet)
            self.ability_exit_memo[key] = found
        return found

    def ability_key(self, s) -> tuple:
        if isinstance(s, n.ResolveTriggers):      # whatever the effect set off so far: any trigger
            return ("trigger", None)
        return (("trigger", s.event) if isinstance(s, n.Emit) else ("response", s.window)
                if isinstance(s, n.Open) else ("hook", s.hook))

    def ability_procs(self, s) -> list[str]:
        """The bodies an `emit`, `open`, `run` or `resolve triggers` may set going."""
        if self.ability_index is None:            # (form, name) -> the procs, and every trigger's
            index: dict = {}
            for a in self.c.abilities:
                if a.proc:
                    index.setdefault((a.form, a.name), []).append(a.proc)
                    if a.form == "trigger":
                        index.setdefault(("trigger", None), []).append(a.proc)
            self.ability_index = index
        return self.ability_index.get(self.ability_key(s), [])

    def call_exits(self, name: str, quiet: bool) -> frozenset:
        key = (name, quiet)
        if key in self.proc_exits:
            return self.proc_exits[key]
        proc = self.procs.get(name)
        if proc is None or key in self.proc_busy or len(self.proc_busy) >= CHAIN_DEPTH:
            self.assumed_returns = self.assumed_returns or proc is not None
            return frozenset({FALL})          # recursion, a cycle of many procs, or a chain past CHAIN_DEPTH: assume it returns
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

    def settle_cycles(self, order: list[str]) -> None:
        """Inside a cycle of calls, a proc's exits were worked out taking the proc already being
        worked out to just return: `outer` calling `inner`, which may `finish` and then calls `outer`
        again, was kept as never finishing, and a game whose every action calls `outer` was "never
        ends" (E403, a new author's betting rounds). Each proc is worked out again from what the
        others now say, until nothing changes (the sets only grow, so this ends); callees before their
        callers, so one round carries a change up a chain (in the order declared, a chain of 4,000
        procs took one round per proc: 128 s to lint, a review)."""
        changed = True
        while changed:
            changed = False
            self.ability_exit_memo.clear()
            for name in order:
                proc = self.procs[name]
                for quiet in (False, True):
                    key = (name, quiet)
                    old = self.proc_exits.get(key, frozenset())
                    new = old | self.exits(proc.body, quiet)
                    if new != old:
                        self.proc_exits[key], changed = new, True
        self.ability_exit_memo.clear()

    def dead_code(self) -> None:
        """Visit every block once for unreachable statements and endless loops."""
        order = self.callees_first()
        said = len(self.out)
        for name in order:
            self.call_exits(name, False)
            self.call_exits(name, True)
        if self.assumed_returns:
            # what the procs' bodies were found to say (E404, W209) rested on the exits before settling:
            # said again from the settled ones (a `while true { inner() }` that `inner` leaves by `finish`
            # through the cycle was E404, or not, by the order the procs were declared in — a review)
            for d in self.out[said:]:
                self.reported.discard((d.code, d.span.line, d.span.column))
            del self.out[said:]
            self.settle_cycles(order)
            for name in order:
                self.exits(self.procs[name].body, False, dead=True)
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
        if not (step.decl.simultaneous and step.decl.reveal) or not outs:
            return outs                        # (quiet, none: the body makes progress on every path)
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
            # (at a simultaneous step every player answers: play goes round without an `end turn`;
            # a step played `by` a player the rules work out passes play round too — a new author's
            # betting round, `step bet by actor`, was warned)
            if not any(step.decl.simultaneous and _wait(name) in reach and not _one_asked(step.decl)
                       for name, step in self.steps.items()) \
                    and not any(_wait(name) in reach and _chosen_actor(step.decl)
                                for name, step in self.steps.items()):
                self.report("W217", "warning", "no turn ever ends: nothing reachable does `end turn`, so the first "
                            "player makes every move of the game (an action that does not end the turn or go to a "
                            "step leaves the same player acting)", first.span)
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
                    "progress (some way through it changes nothing, or only where components sit within one zone), "
                    "and there is no `turn limit`", looping[0].span)


def _one_asked(step) -> bool:
    """A simultaneous step whose `by` lists one player only (`by [me]`): nobody else answers."""
    return isinstance(step.actor, n.ListLit) and len(step.actor.items) == 1


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
    """Node -> id of its strongly connected component, for components with a cycle."""
    out = {}
    for members in strongly_connected(g):
        if len(members) > 1 or members[0] in g.get(members[0], ()):
            for w in members:
                out[w] = members[-1]
    return out


def _chosen_actor(step) -> bool:
    """Is the step played `by` someone other than whose turn it is (`by holder`, `by next(me)`)?"""
    actor = step.actor
    return actor is not None and not step.simultaneous and not (isinstance(actor, n.Name)
                                                                and actor.name in ("current", "me"))
