"""Which zones a component may go from and to, read from the IR alone: the `move` statements.

The players read the rules, so a change line may use them: a card that came into a hand out of
sight came from a hidden zone that gives cards to hands (`vault or deck → hand` was said of a card
no rule ever moves from the vault to a hand). The answer errs one way only: a way the rules
may take is never left out (a move whose source or destination is not plainly a zone counts as
one from, or to, any zone), so a way left out is one no rule takes. Within one action a card may
pass through several zones: `may(a, b)` follows the moves one after another."""
from __future__ import annotations

from .spec import walk_ir

ANY = "*"                         # any zone (a source or destination not worked out)
_DEPTH = 4                        # defs inside defs followed this deep; deeper: any zone
_ROUNDS = 30                      # the fixpoint: rounds before giving up (then: any way at all)
_PURE = ("let", "set", "append", "log")   # statements that move no component
# builtins whose value holds no component, whatever their arguments (docs/language.md's table)
# (the checker refuses to move what they give where the types are known: E201)
_NO_COMPONENT = frozenset(("size", "count", "abs", "clamp", "split", "lower", "trim", "join", "rules_text",
                           "roll", "contains", "eliminated", "next", "players_from", "distance", "direction"))
_COUNTED = frozenset(("top", "bottom"))   # (ZONE, N): components of ZONE only


def _loose(atoms: frozenset) -> frozenset:
    """Where a component held in a variable may be by the time it is moved: any zone reachable from
    where it lay when it was bound (`let c = top(deck)  move c to table  …  move c to discard`)."""
    return frozenset(a if a == ANY else ("r", a[1]) for a in atoms)


class ZoneFlows:
    """`may(a, b, kind)`: may a component (of that kind, if known) lying in zone `a` be in zone `b`
    after one action? Worked out for each kind when first asked: a kind's components go only
    where the rules make them or move them from there (a base is never drawn into a hand)."""

    def __init__(self, ir: dict):
        self.ir = ir
        self.names = [z["name"] for z in ir.get("zones") or ()]
        self._by_kind: dict = {}

    def _of(self, kind) -> "_Solved":
        kind = kind if kind in (self.ir.get("kinds") or {}) else None
        if kind not in self._by_kind:
            self._by_kind[kind] = _Solved(self.ir, kind)
        return self._by_kind[kind]

    def may(self, a: str, b: str, kind: str | None = None) -> bool:
        """May a component lying in zone `a` be in zone `b` after an action (one move or several)?
        Unknown zone names: yes."""
        if a not in self.names or b not in self.names:
            return True
        return b in self._of(kind).reach(a, strict=True)

    def direct(self, a: str, b: str, kind: str | None = None) -> bool:
        """May one move of the rules take a component (of that kind) from zone `a` to zone `b`?"""
        if a not in self.names or b not in self.names:
            return True
        solved = self._of(kind)
        edges = solved.edges
        return any(x in edges for x in ((a, b), (a, ANY))) or (a in solved.holds and any(
            x in edges for x in ((ANY, b), (ANY, ANY))))

    def plain(self, a: str, b: str, kind: str | None = None) -> bool:
        """Does a `move` of the rules name zone `a` as where a component (of that kind) comes from
        and zone `b` as where it goes, both plainly (not a move from or to anywhere)?"""
        return (a, b) in self._of(kind).edges

    def holds(self, a: str, kind: str | None = None) -> bool:
        """May a component of that kind ever lie in zone `a`? Unknown zone names: yes."""
        return a not in self.names or a in self._of(kind).holds

    def may_make(self, b: str, kind: str | None = None) -> bool:
        """May a component (of that kind) be made in zone `b`?"""
        made = self._of(kind).created
        return ANY in made or b in made or b not in self.names


class _Solved:
    """The moves of the rules as edges between zones, for components of one kind (None: any)."""

    def __init__(self, ir: dict, kind: str | None):
        self.ir = ir
        self.kind = kind
        self.names = [z["name"] for z in ir.get("zones") or ()]
        self.kinds = ir.get("kinds") or {}
        self.defs = ir.get("defs") or {}
        self.procs = ir.get("procs") or {}
        self.def_src: dict = {}       # (def, depth, its arguments' places) -> where what it gives may lie
        cards = ir.get("cards") or []
        self.engine_run: dict = {}         # procs the engine calls (abilities) -> the kind of their `self`
        for a in ir.get("abilities") or ():
            card = a.get("card")
            of = cards[card].get("kind") if isinstance(card, int) and 0 <= card < len(cards) else None
            for x in [a.get("proc"), a.get("where"), *(a.get("procs") or [])]:
                if isinstance(x, str):
                    was = self.engine_run.get(x, of)
                    self.engine_run[x] = of if was == of else None
        self.vars: dict = {}               # var name -> atoms of what is stored in it
        self.proc_params: dict = {}        # (proc, i) -> atoms of the arguments passed
        self.edges: set = set()            # (from, to): zone names, or ANY
        self.created: set = set()          # zones a component (of the kind) may be made in
        # zones a component of the kind may lie in: where it is made, and on (grown with the edges)
        self.holds: set = set(self.names) if kind is None else set()
        self._reach: dict = {}
        self._solve()

    def reach(self, a: str, strict: bool = False) -> set:
        """The zones a component in `a` may go to through moves (`a` itself too, unless `strict`
        and no way leads back to it)."""
        key = (a, strict)
        if key not in self._reach:
            succ: dict = {}
            for x, y in self.edges:
                for s in (self.holds if x == ANY else [x]):
                    succ.setdefault(s, set()).update(self.names if y == ANY else [y])
            seen: set = set()
            todo = list(succ.get(a, ()))
            while todo:
                z = todo.pop()
                if z not in seen:
                    seen.add(z)
                    todo.extend(succ.get(z, ()))
            self._reach[key] = seen if strict else seen | {a}
        return self._reach[key]

    def _containers(self):
        """(what binds its parameters, body) of every part of the rules statements are written in."""
        ir = self.ir
        yield {}, ir.get("setup") or []
        for step in ir.get("steps") or ():
            yield {}, step.get("enter") or []
            for action in step.get("actions") or ():
                yield {"__action__": action}, action
        for name, proc in self.procs.items():
            yield {"__proc__": name}, proc
        for key in ("handlers", "checks", "limits"):
            yield {}, ir.get(key) or []

    def _solve(self) -> None:
        parts: list = [(params, body, None) for params, body in self._containers()]
        for _ in range(_ROUNDS):
            state = (set(self.edges), set(self.created), dict(self.vars), dict(self.proc_params), set(self.holds))
            self._reach = {}
            self.def_src = {}                  # (what the variables hold may have grown: worked out again)
            covered: set = set()
            for i, (params, body, nodes) in enumerate(parts):
                parts[i] = (params, body, self._container(params, body, covered, nodes))
            # a statement in a part not listed above (a window's responses): its names may hold any
            # component, stand for any zone
            self._effects([x for x in walk_ir(self.ir) if id(x) not in covered], {}, {})
            self._reach = {}
            if self.kind is not None:              # (where the kind may lie: where it is made, and on)
                found: set = set()
                for z in (self.names if ANY in self.created else self.created):
                    found |= self.reach(z)
                self.holds = found
                self._reach = {}
            if state == (self.edges, self.created, self.vars, self.proc_params, self.holds):
                return
        self.edges.add((ANY, ANY))                 # (not settled: any way at all)
        self.holds = set(self.names)
        self._reach = {}

    def _container(self, params: dict, body, covered: set, nodes) -> list:
        env: dict = {}                             # local -> atoms (components it may hold)
        zenv: dict = {}                            # local -> zone names it may stand for (a destination)
        binders = []
        if "__action__" in params:
            action = params["__action__"]
            body = action.get("body") or []
            binders = [(p["name"], p.get("domain"), None) for p in action.get("params") or ()]
        elif "__proc__" in params:
            name = params["__proc__"]
            proc = self.procs[name]
            body = proc.get("body") or []
            for i, p in enumerate(proc.get("params") or ()):
                if name not in self.engine_run:
                    env[p] = self.proc_params.get((name, i), frozenset())
                elif i == 0 and p == "self" and self.kind is not None and self.engine_run[name] not in (None, self.kind):
                    env[p] = frozenset()           # (the card whose ability this is: of another kind)
                else:
                    env[p] = frozenset([ANY])
        if nodes is None:
            nodes = list(walk_ir(body))
        for x in nodes:
            s, k = x.get("s"), x.get("k")
            if s in ("for", "choose"):
                binders.append((x["v"], x.get("in"), None))
            elif s == "let":
                binders.append((x["n"], x.get("v"), x.get("v")))
            elif s in ("set", "append") and isinstance(x.get("target"), dict) and x["target"].get("k") == "local":
                binders.append((x["target"]["n"], x.get("v"), x.get("v") if s == "set" else None))
            elif k == "comp":
                binders.append((x["v"], x.get("in"), None))
        for _ in range(_ROUNDS):                   # (binders may read one another)
            before = (dict(env), dict(zenv))
            for name, e, z in binders:
                if e is not None:
                    env[name] = env.get(name, frozenset()) | _loose(self._src(e, env))
                if z is not None:
                    zenv[name] = zenv.get(name, frozenset()) | self._dst(z, zenv)
            if before == (env, zenv):
                break
        else:
            env = {name: frozenset([ANY]) for name in env}
        covered.update(id(x) for x in nodes)
        if isinstance(body, list):
            covered.add(id(body))
        self._effects(nodes, env, zenv, self._first_moves(params, body, nodes, env))
        return nodes

    def _first_moves(self, params: dict, body, nodes, env: dict) -> dict:
        """The moves of a component just bound, before any statement could have moved it (`let d =
        top(mat[p])  move d to shown[p]`; `choose d in hand[b] { move d to lost[b] }`; an action's
        `play(c in hand[me]) { move c to table … }`): id(move) -> where the component lies, as bound.
        Elsewhere a local's component may lie anywhere its zone leads to (`_loose`): a new author's
        Skull read `skull: mat (P1) or pool or hand (P1) or lost (P1) → shown (P1)`."""
        found: dict = {}

        def first(stmts, name: str):
            """The first statement of `stmts` that may move anything, if it is a plain move of the
            local `name`."""
            for st in stmts if isinstance(stmts, list) else ():
                if not isinstance(st, dict) or _binds(st, name):
                    return None                    # (bound anew: what follows is another component)
                if st.get("s") not in _PURE:
                    return st if _moves_local(st, name) else None
            return None

        def firsts(stmts, name: str, moved: bool = False):
            """The first moves of the local `name` on each way through `stmts`, into `if` branches too
            (`for c in bag { if legal(c) { move c to stand } else { move c to smuggled } }`: a new author's
            Sheriff read `bag (P2) or smuggled (P2) → stand (P2)`, though nothing leaves `smuggled`), if
            every statement that may move anything is a move of it; else None. (moves, moved on every way)"""
            hits: list = []
            for st in stmts if isinstance(stmts, list) else ():
                if not isinstance(st, dict):
                    return None
                if _binds(st, name):
                    return hits, True              # (bound anew: what follows is another component)
                if st.get("s") in _PURE:
                    continue
                if _moves_local(st, name):
                    if not moved:
                        hits.append(st)
                    moved = True
                    continue
                if st.get("s") == "if":
                    ways = [firsts(st.get(key) or [], name, moved) for key in ("then", "else")]
                    if any(way is None for way in ways):
                        return None
                    hits += [m for way in ways for m in way[0]]
                    moved = moved or any(way[1] for way in ways)   # (moved on one way only: later moves
                    continue                                       # are not taken for first ones)
                return None
            return hits, moved

        def bind(move, e) -> None:
            if move is not None and e is not None:
                found[id(move)] = self._src(e, env)

        if "__action__" in params:
            for p in params["__action__"].get("params") or ():
                if isinstance(p, dict) and isinstance(p.get("name"), str):
                    bind(first(body, p["name"]), p.get("domain"))
        blocks = [body]                            # (every statement list: the body and those nested in it)
        for x in nodes:
            if isinstance(x.get("v"), str) and x.get("s") == "choose":
                bind(first(x.get("body"), x["v"]), x.get("in"))
            elif isinstance(x.get("v"), str) and x.get("s") == "for":
                ways = firsts(x.get("body"), x["v"])
                for move in (ways[0] if ways is not None else ()):
                    bind(move, x.get("in"))
            blocks += [x.get("then"), x.get("else"), x.get("body")]
        for block in blocks:
            for i, st in enumerate(block if isinstance(block, list) else ()):
                if isinstance(st, dict) and st.get("s") == "let" and isinstance(st.get("n"), str):
                    bind(first(block[i + 1:], st["n"]), st.get("v"))
        return found

    def _effects(self, nodes, env: dict, zenv: dict, first_moves: dict | None = None) -> None:
        """What these statements do that the flows depend on: moves, makes, what they store in
        variables and pass to procs."""
        for x in nodes:
            s = x.get("s")
            if s in ("move", "create", "create_cards"):
                self._statement(x, env, zenv, (first_moves or {}).get(id(x)))
            elif s in ("set", "append") and isinstance(x.get("target"), dict) and x["target"].get("k") == "var":
                n = x["target"].get("n")
                self.vars[n] = self.vars.get(n, frozenset()) | _loose(self._src(x.get("v"), env))
            elif s == "call" and x.get("proc") in self.procs:
                for i, a in enumerate(x.get("a") or ()):
                    key = (x["proc"], i)
                    self.proc_params[key] = self.proc_params.get(key, frozenset()) | _loose(self._src(a, env))

    def _statement(self, x: dict, env: dict, zenv: dict, lies=None) -> None:
        dests = self._dst(x.get("to"), zenv)
        if x["s"] != "move":
            if self.kind is None or x.get("kind") == self.kind or x.get("kind") not in self.kinds:
                self.created |= dests
            return
        for atom in self._src(x.get("what"), env) if lies is None else lies:
            if atom == ANY:
                sources = [ANY]
            elif atom[0] == "z":
                sources = [atom[1]] if atom[1] in self.holds or atom[1] not in self.names else []
            else:
                sources = sorted(self.reach(atom[1]))
            for a in sources:
                for b in dests:
                    self.edges.add((a, b))

    def _src(self, e, env: dict, depth: int = 0) -> frozenset:
        """Where the components an expression gives may lie when it is worked out: ("z", zone),
        ("r", zone) for anywhere reachable from it, ANY."""
        if not isinstance(e, dict):
            return frozenset()
        k = e.get("k")
        if k == "zone":
            return frozenset([("z", e.get("n"))])
        if k == "local":
            return env.get(e.get("n"), frozenset([ANY]))
        if k == "var":
            return self.vars.get(e.get("n"), frozenset())
        if k in ("lit", "option", "table", "text", "range", "un", "in", "cellattr", "ord", "mods", "can"):
            return frozenset()
        if k == "builtin":
            return frozenset([ANY]) if e.get("n") == "source" else frozenset()
        if k == "attr":
            n = e.get("n")
            fields = [f for kind in self.kinds.values() for f in kind.get("fields") or () if f.get("name") == n]
            out = self.vars.get(n, frozenset())
            if any(v["name"] == n for v in self.ir.get("vars") or ()):
                return out if not fields or all(_plain(f.get("type")) for f in fields) else frozenset([ANY])
            return frozenset() if fields and all(_plain(f.get("type")) for f in fields) else frozenset([ANY])
        if k == "comp":
            inner = dict(env)
            inner[e.get("v")] = self._src(e.get("in"), env, depth)
            return self._src(e.get("x"), inner, depth)
        if k == "def":
            d = self.defs.get(e.get("n"))
            if d is None or depth >= _DEPTH:
                return frozenset([ANY])
            inner = {p: self._src(a, env, depth) for p, a in zip(d.get("params") or [], e.get("a") or [])}
            # (each def once per depth and arguments: 80 calls a body, 4 deep, took minutes)
            key = (e.get("n"), depth, tuple(inner.values()))
            given = self.def_src.get(key)
            if given is None:
                given = self.def_src[key] = self._src(d.get("body"), inner, depth + 1)
            return given
        if k == "bin" and e.get("op") in ("==", "!=", "<", "<=", ">", ">=", "/", "%"):
            return frozenset()                     # (a truth or a number)
        if k == "call" and e.get("f") in _NO_COMPONENT:
            return frozenset()                     # (a number, a truth, a text or a player)
        if k == "call" and e.get("f") in _COUNTED and len(e.get("a") or ()) > 1:
            # (only the first argument gives components: `top(deck, 3 - size(hand[p]))` draws from the deck;
            # its count read as a source too, a refill was said `deck or hand (P2) → hand (P1)`, no rule's way)
            return self._src(e["a"][0], env, depth)
        if k in ("call", "list", "bin", "if", "index", "sortby", "flat"):
            found: frozenset = frozenset()
            for key, v in e.items():
                if key in ("c", "i") and k in ("if", "index"):      # (a condition, an index: not what is given)
                    continue
                for part in (v if isinstance(v, list) else [v]):
                    if isinstance(part, dict):
                        found |= self._src(part, env, depth)
            return found
        return frozenset([ANY])

    def _dst(self, e, zenv: dict, depth: int = 0) -> frozenset:
        """The zones an expression may stand for (a move's or a create's destination), or ANY."""
        if not isinstance(e, dict):
            return frozenset([ANY])
        k = e.get("k")
        if k == "zone":
            return frozenset([e.get("n")])
        if k == "if":
            return self._dst(e.get("t"), zenv, depth) | self._dst(e.get("e"), zenv, depth)
        if k == "local" and e.get("n") in zenv and zenv[e.get("n")]:
            return zenv[e.get("n")]
        if k == "def" and depth < _DEPTH:
            d = self.defs.get(e.get("n"))
            if d is not None:
                inner = {p: self._dst(a, zenv, depth) for p, a in zip(d.get("params") or [], e.get("a") or [])}
                return self._dst(d.get("body"), inner, depth + 1)
        return frozenset([ANY])


def _binds(st: dict, name: str) -> bool:
    """Does the statement give the local `name` a new value (`let`, `=`, `append`)?"""
    target = st.get("target")
    return st.get("s") == "let" and st.get("n") == name or (
        st.get("s") in ("set", "append") and isinstance(target, dict) and target.get("n") == name)


def _moves_local(st: dict, name: str) -> bool:
    """Is the statement a `move` of the component the local `name` holds?"""
    what = st.get("what")
    return st.get("s") == "move" and isinstance(what, dict) and what.get("k") == "local" and what.get("n") == name


def _plain(t) -> bool:
    """Can a value of this declared type not be a component?"""
    return isinstance(t, str) and "comp" not in t and t not in ("any", "elem")


_CACHE: dict = {}


def zone_flows(ir: dict) -> ZoneFlows:
    """The flows of a game's rules (worked out once per IR)."""
    key = id(ir)
    hit = _CACHE.get(key)
    if hit is None or hit.ir is not ir:
        hit = ZoneFlows(ir)
        _CACHE.clear() if len(_CACHE) > 16 else None
        _CACHE[key] = hit
    return hit
