"""Static analyses of the IR: what a def reads or calls, what is recursive, static, random or
creating, what a loop of `create`s can batch, what a domain's elements are.
"""
from __future__ import annotations

import json

from ...core.graphs import strongly_connected
from ...ir.spec import CALLABLE, STATEMENTS, walk_ir
from .constants import ANY, BOARD_WALKS, COMPARE_WEIGHT, INLINE_DEPTH, RANDOM_CALLS, SCALAR, SMALL_LIST, UNROLL_MAX, WEIGHT_CAP, WEIGHT_UNIT
from .parts import Part, Shared


def _size(e) -> int:
    """Number of IR nodes in an expression (inlining budget)."""
    if isinstance(e, dict):
        return 1 + sum(_size(v) for v in e.values())
    if isinstance(e, list):
        return sum(_size(v) for v in e)
    return 0


def _uses(e, name: str, in_loop: bool = False) -> int:
    """How many times a body reads local `name`; a read inside a comprehension counts as many."""
    if isinstance(e, list):
        return sum(_uses(x, name, in_loop) for x in e)
    if not isinstance(e, dict):
        return 0
    if e.get("k") == "local" and e.get("n") == name:
        return 2 if in_loop else 1
    if e.get("k") == "comp":
        return (_uses(e["in"], name, in_loop) + _uses(e["x"], name, True)
                + _uses(e.get("where"), name, True))
    return sum(_uses(v, name, in_loop) for v in e.values())


def _unrolls(param: dict) -> bool:
    """Is this a subset parameter with constant size bounds (enumerated by unrolled loops)?"""
    lo, hi = param.get("min"), param.get("max")
    return (param["mode"] == "subset" and lo is not None and hi is not None and lo["k"] == "lit"
            and hi["k"] == "lit" and type(lo["v"]) is int and type(hi["v"]) is int and hi["v"] <= UNROLL_MAX)


def _shown_shape(param: dict) -> str:
    """The shape of a parameter's values, from how they are shown (a component, cell, player or enum)."""
    how = param.get("show", "plain")
    return SCALAR if how in ("comp", "cell", "player", "comp_or_player") or how.startswith("enum:") else ANY


def _memo_key(srcs: list[str]) -> str:
    """The cache key of a memoised call: the argument itself, or a tuple of them."""
    return srcs[0] if len(srcs) == 1 else "(" + "".join(s + ", " for s in srcs) + ")"


def _ir_key(e) -> str:
    """An IR expression as text, without source lines (equal meaning, equal key)."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "line"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return json.dumps(strip(e), sort_keys=True)


_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


def _grow(found: set, items: dict, holds) -> None:
    """Add to `found` the names of `items` for which `holds(name, item)`, until nothing changes:
    a test may read `found` (a proc that calls a creating proc creates too)."""
    changed = True
    while changed:
        changed = False
        for name, item in items.items():
            if name not in found and holds(name, item):
                found.add(name)
                changed = True


def _arith(e) -> bool:
    """Could assigning `e` (over and over, in a loop) give a number past the integer limit? Through
    `*`; `+`/`-` of two values that are not small constants (x + x doubles); a large constant (a
    fuzzer's `n = n + 3000000000000000000`, twice, made a position no save may hold); `sum` of a
    list. Adding a small constant grows a number by at most that much per round, which the loop
    budget bounds."""
    return any(x.get("k") == "bin" and (x.get("op") == "*" or x.get("op") in ("+", "-") and (
        not (_constant(x["l"]) or _constant(x["r"])) or _large(x["l"]) or _large(x["r"])))
        or x.get("k") == "call" and x.get("f") == "sum" for x in walk_ir(e))


def _constant(e) -> bool:
    return e.get("k") == "lit" or (e.get("k") == "un" and e.get("op") == "-" and e["x"].get("k") == "lit")


def _large(e) -> bool:
    """A constant number far from 0 (past 2^31): added over a loop's rounds, it can reach the limit."""
    x = e["x"] if e.get("k") == "un" else e
    return _constant(e) and type(x.get("v")) is int and abs(x["v"]) > 2 ** 31



class Analyses(Part):
    """The Lowerer's whole-game and per-node analyses: what they find is in `Shared` (parts.py)."""

    def __init__(self, sh: Shared):
        super().__init__(sh)
        self._static_walk: dict = {}       # id() of an IR node -> static_walk of it
        self._keep: list = []              # the IR nodes whose id() keys _static_walk

    def unrolls(self, param: dict) -> bool:
        """Is this parameter enumerated by unrolled loops (and its body specialised per size)?"""
        return "unroll" in self.sh.opt and _unrolls(param)

    def _calls(self, node, nodes: list | None = None) -> tuple[set, set]:
        """The defs and procs a part calls (`nodes`: its nodes, if already listed)."""
        defs, procs = set(), set()
        for x in (walk_ir(node) if nodes is None else nodes):
            if x.get("k") == "def":
                defs.add(x["n"])
            elif x.get("k") == "call" and x.get("f") == "reachable":
                lit = x["a"][2]
                if lit.get("k") == "lit":
                    defs.add(lit["v"])
            if x.get("s") == "call":
                procs.add(x["proc"])
        return defs, procs

    def _analyse(self) -> None:
        """The static facts, each from those before it: the call graph, recursion, purity (random,
        static, memoised per game), what is memoised per listing, what runs per element or loop turn,
        the stable variables, the creating and signalling procs, and the weight of each call."""
        ir = self.sh.ir
        # each def's nodes, listed once: the fixed points below test every def again each round
        nodes = {name: list(walk_ir(d["body"])) for name, d in ir["defs"].items()}
        graph = self._call_graph(nodes)
        order = self._recursion(graph)
        # the defs callees first: a fixed point over them settles in one round, not one a def
        self.defs_in_order = {name: ir["defs"][name] for kind, name in order if kind == "d" and name in ir["defs"]}
        self.defs_in_order.update(ir["defs"])
        self._purity(graph, nodes)
        self._listing_memo(nodes)
        self._repeated(graph)
        self._procs_and_vars()
        self._weights(graph)

    def _call_graph(self, nodes: dict) -> dict:
        """("d"|"p", name) -> the defs and procs it calls."""
        ir = self.sh.ir
        graph: dict[tuple, set] = {}
        for name, d in ir["defs"].items():
            ds, ps = self._calls(d["body"], nodes[name])
            graph[("d", name)] = {("d", x) for x in ds} | {("p", x) for x in ps}
        for name, p in ir["procs"].items():
            ds, ps = self._calls(p["body"])
            graph[("p", name)] = {("d", x) for x in ds} | {("p", x) for x in ps}
        return graph

    def _recursion(self, graph: dict) -> list:
        """Mark the recursive defs and procs (a node that reaches itself), in time linear in the
        call graph (a search from every node took minutes for 20,000 chained defs in a shared IR);
        return the nodes callees first, the order in which the fixed points below settle at once."""
        self.sh.recursive = set()
        order: list = []
        for group in strongly_connected(graph):
            if len(group) > 1 or group[0] in graph.get(group[0], ()):
                self.sh.recursive.update(group)
            order += group
        return order

    def _purity(self, graph: dict, nodes: dict) -> None:
        ir = self.sh.ir
        # impure: uses the random generator, directly or through a def
        self.sh.impure_defs = set()
        direct = {name for name, d in ir["defs"].items()
                  if any(x.get("k") == "call" and x.get("f") in RANDOM_CALLS for x in nodes[name])}
        self.sh.impure_defs |= direct
        _grow(self.sh.impure_defs, self.defs_in_order, lambda name, d: any(
            ("d", x) in graph and x in self.sh.impure_defs for _, x in graph[("d", name)]))
        # static defs read nothing of a match (only their parameters, constants and the board):
        # their results are memoised per game when they are worth it (a comprehension, a board walk)
        self.sh.static_defs = set()
        _grow(self.sh.static_defs, self.defs_in_order, lambda name, d: self._static(d["body"], nodes[name]))
        self.sh.memo_defs = {name for name in self.sh.static_defs if "memo" in self.sh.opt and ir["defs"][name]["params"]
                          and any(x.get("k") == "comp" or (x.get("k") == "call" and x.get("f") in BOARD_WALKS)
                                  for x in nodes[name])}

    def _listing_memo(self, nodes: dict) -> None:
        ir = self.sh.ir
        # defs that read the match and do real work (a comprehension, a board walk, or a call of such
        # a def): while one listing of legal actions runs, nothing changes, so their results are kept
        # for that listing (card conditions re-ask the same questions for every card and binding)
        self.sh.listing_memo_defs = set()
        if "lmemo" in self.sh.opt:
            def worth(name, d):
                return any(x.get("k") == "comp" or (x.get("k") == "call" and x.get("f") in BOARD_WALKS)
                           or (x.get("k") == "def" and (x["n"] in self.sh.listing_memo_defs or x["n"] in self.sh.memo_defs))
                           for x in nodes[name])
            sourced: set = set()               # (`source` may change between two card conditions)
            _grow(sourced, self.defs_in_order, lambda name, d: any(
                (x.get("k") == "builtin" and x.get("n") == "source") or (x.get("k") == "def" and x["n"] in sourced)
                for x in nodes[name]))
            _grow(self.sh.listing_memo_defs, self.defs_in_order, lambda name, d: (
                name not in self.sh.static_defs and name not in self.sh.impure_defs
                and name not in sourced
                and ("d", name) not in self.sh.recursive and worth(name, d)))

    def _repeated(self, graph: dict) -> None:
        ir = self.sh.ir
        # defs that may run once per element of a comprehension or per round of a loop (directly or
        # through other defs): their own comprehensions multiply, and are charged to the budget
        looped: set = set()
        for x in walk_ir(ir):
            inner = ([x.get("x"), x.get("where")] if x.get("k") == "comp" else
                     [x.get("body"), x.get("c")] if x.get("s") in ("for", "while", "repeat") else [])
            for part in inner:
                for y in walk_ir(part):
                    if y.get("k") == "def":
                        looped.add(("d", y["n"]))
                    elif y.get("s") == "call":
                        looped.add(("p", y["proc"]))
                    elif y.get("k") == "call" and y.get("f") == "reachable" and y["a"][2].get("k") == "lit":
                        looped.add(("d", y["a"][2]["v"]))
        for step in ir["steps"]:               # requires and later domains: evaluated once per binding
            for a in step["actions"]:          # (the first parameter's domain: once per listing)
                for y in walk_ir([a.get("require"), a["params"][1:], [a["params"][0].get("min"),
                                a["params"][0].get("max")] if a["params"] else []]):
                    if y.get("k") == "def":
                        looped.add(("d", y["n"]))
                    elif y.get("k") == "call" and y.get("f") == "reachable" and y["a"][2].get("k") == "lit":
                        looped.add(("d", y["a"][2]["v"]))
        stack = list(looped)
        while stack:                           # and whatever those call
            for callee in graph.get(stack.pop(), ()):
                if callee not in looped:
                    looped.add(callee)
                    stack.append(callee)
        self.sh.repeated_defs = {name for kind, name in looped | self.sh.recursive if kind == "d"}

    def _procs_and_vars(self) -> None:
        ir = self.sh.ir
        # per-player / per-cell variables never assigned as a whole keep one list for the whole match
        whole = {x["target"]["n"] for x in walk_ir(ir) if x.get("s") == "set" and x["target"].get("k") == "var"
                 and x["target"].get("i") is None}
        self.sh.stable_vars = {v["name"] for v in ir["vars"] if v["per"] and v["name"] not in whole}
        # procs that create components, directly or through a call
        self.sh.creating = set()
        _grow(self.sh.creating, ir["procs"], lambda name, p: any(
            ("s" in x and STATEMENTS[x["s"]].creating) or (x.get("s") == "call" and x["proc"] in self.sh.creating)
            for x in walk_ir(p["body"])))
        # procs that may end an effect (goto, end turn, finish), directly or through a call
        self.sh.signalling = set()
        _grow(self.sh.signalling, ir["procs"], lambda name, p: self._block_signals(p["body"]))

    # ---- the weight of code, for the cost model (limits.py) ----
    # A loop turn, an element of a comprehension, a call of a def: each runs some fixed code. The
    # weight of a piece of code is how many IR nodes one run of it evaluates, counting the bodies of
    # the defs and procs it calls (a def calling another six times weighs six of it), but not what
    # is charged on its own: the bodies of loops and comprehensions, and recursive calls. Whatever
    # runs code of weight w charges w // WEIGHT_UNIT units of work besides its own (a loop turn,
    # an element, a call), so that no unit of work stands for more than ~WEIGHT_UNIT nodes: a chain
    # of defs each calling the next ten times, or a loop body of ten thousand statements, is charged
    # as the work it does.

    def _weights(self, graph: dict) -> None:
        """self.sh.weights: ("d"|"p", name) -> the weight of a call of it (its body's, plus one)."""
        ir = self.sh.ir
        self.sh.weights = {}
        order: list = []                       # callees before callers (an explicit stack: no recursion)
        seen: set = set()
        for root in graph:
            if root in seen:
                continue
            seen.add(root)
            stack = [(root, iter(sorted(graph[root])))]
            while stack:
                node, children = stack[-1]
                child = next(children, None)
                if child is None:
                    stack.pop()
                    order.append(node)
                elif child in graph and child not in seen:
                    seen.add(child)
                    stack.append((child, iter(sorted(graph[child]))))
        for kind, name in order:
            body = ir["defs"][name]["body"] if kind == "d" else ir["procs"][name]["body"]
            self.sh.weights[(kind, name)] = min(WEIGHT_CAP, 1 + self.weight_of(body))

    def weight_of(self, part) -> int:
        """The weight of an IR expression, block or list of them (see above)."""
        total = 0
        stack = [part]
        weights = self.sh.weights
        while stack:
            x = stack.pop()
            if isinstance(x, list):
                stack.extend(x)
                continue
            if not isinstance(x, dict):
                continue
            total += 1
            k, s = x.get("k"), x.get("s")
            if k == "lit":
                continue
            if k == "def":
                key = ("d", x["n"])
                total += 1 if key in self.sh.recursive else weights.get(key, 1)
            elif k == "bin" and x.get("op") in _COMPARE and x["l"].get("k") != "lit" and x["r"].get("k") != "lit":
                total += COMPARE_WEIGHT - 1    # (two texts may be compared to their last character)
            elif k == "in" or (k == "call" and CALLABLE[x["f"]].scans):
                total += SMALL_LIST - 1        # (a short list is scanned uncharged)
            elif s == "call":
                key = ("p", x["proc"])
                total += 1 if key in self.sh.recursive else weights.get(key, 1)
            if k == "comp":                    # its elements are charged one by one (_each)
                stack.append(x.get("in"))
                few = self.small_source(x.get("in"))
                if few:                        # (...unless they are few: then they weigh here)
                    total += few * self.weight_of([x.get("x"), x.get("where")])
                continue
            if s in ("for", "repeat"):         # its turns are charged one by one (spend)
                stack.append(x.get("in") if s == "for" else x.get("n"))
                continue
            if s == "while":
                continue
            stack.extend(v for v in x.values() if isinstance(v, (dict, list)))
        return min(total, WEIGHT_CAP)

    def small_source(self, e) -> int:
        """If `e` is a list of at most SMALL_LIST elements whatever the position (the players of a game
        of few players, a cell's neighbours, the board's directions, a short literal list), the most
        elements it has (the code generator scans it uncharged); else 0."""
        if not isinstance(e, dict):
            return 0
        k, f = e.get("k"), e.get("f")
        players = self.sh.ir["players"]["max"] if self.sh.few_players else 0
        if k == "builtin":
            return players if e.get("n") in ("players", "others", "remaining", "turn_order") else 0
        if k == "list":
            n = len(e.get("items", ()))
            return n if n <= SMALL_LIST else 0
        if k == "lit":
            n = len(e["v"]) if isinstance(e.get("v"), list) else SMALL_LIST + 1
            return n if n <= SMALL_LIST else 0
        if k == "call" and f in ("neighbours", "directions"):
            return 8
        if k == "call" and f == "players_from":
            return players
        if k == "call" and f in ("line", "line_in", "between") and self.sh.short_lines:
            return 2 * SMALL_LIST                # (a line of octagons and the sockets between them)
        return 0

    def units(self, weight: int) -> int:
        """The units of work code of this weight is charged besides its own one."""
        return weight // WEIGHT_UNIT

    def _static(self, body, nodes: list | None = None) -> bool:
        for x in (walk_ir(body) if nodes is None else nodes):
            k = x.get("k")
            if k in ("var", "zone", "builtin", "option", "attr", "table", "mods", "can"):
                if k == "table" and x["n"] in self.sh.ir["tables"] and all(
                        v.get("k") == "lit" for _, v in self.sh.ir["tables"][x["n"]]):
                    continue
                return False
            if k == "def" and x["n"] not in self.sh.static_defs:
                return False
            if k == "text" and "comp" in x["as"]:
                return False                       # a component's label belongs to its match
            if k == "call" and (x["f"] in RANDOM_CALLS or CALLABLE[x["f"]].reads_match or x["f"] == "cell"):
                return False                       # (`players_from`: a memo kept the first match's turn order)
            if k == "call" and x["f"] == "reachable" and (
                    x["a"][2].get("k") != "lit" or x["a"][2].get("v") not in self.sh.static_defs):
                return False                       # the passable-test def is called on every cell
        return True

    def _block_signals(self, stmts) -> bool:
        """May end the effect that runs it: directly, or through what it runs — a window's responses,
        a hook's or a replacement's ability, triggers resolved now (each may `finish`; an `open` in a
        proc let the action that called it go on after the game had ended — a new author's Coup)."""
        for x in walk_ir(stmts):
            s = x.get("s")
            if s in ("goto", "end_turn", "finish", "open", "run", "resolve_triggers"):
                return True
            if s == "call" and (x["proc"] in self.sh.signalling or x["proc"] in self.sh.replaced):
                return True
        return False

    def static_walk(self, e) -> bool:
        """Reads no match state and walks the board (line, between, ...): worth memoising."""
        key = id(e)
        hit = self._static_walk.get(key)
        if hit is None:
            hit = self._static(e) and any(x.get("k") == "call" and x.get("f") in BOARD_WALKS for x in walk_ir(e))
            self._static_walk[key] = hit
            self._keep.append(e)
        return hit

    def static_expr(self, e) -> bool:
        """Depends on its locals and constants only (so a component's label can be cached)."""
        for x in walk_ir(e):
            k = x.get("k")
            if k in ("var", "zone", "builtin", "option", "def", "mods", "can") or (k == "call" and not CALLABLE[x["f"]].pure):
                return False
            if k == "table" and not self.sh.tables[x["n"]][1]:
                return False
            if k == "text" and "comp" in x["as"]:
                return False
        return True

    def batchable(self, s, bound: frozenset = frozenset()) -> bool:
        """A `for`/`repeat` over constants whose body only creates components with constant fields in
        fixed zones: its result depends on the player count and options only, so it is computed once
        and then added in bulk."""
        k = s["s"]
        if k == "create":
            spec = self.sh.ir["kinds"][s["kind"]]
            exprs = [f["default"] for f in spec["fields"] if f["name"] not in s["fields"] and f["default"] is not None]
            if spec["label"] is None or not all(self.static_expr(x) for x in exprs + [spec["label"]]):
                return False
            to = s["to"]
            return (to["k"] == "zone" and all(self.batch_static(v, bound) for v in s["fields"].values())
                    and (to.get("i") is None or self.batch_static(to["i"], bound)))
        if k == "for":
            return self.batch_static(s["in"], bound) and all(self.batchable(x, bound | {s["v"]}) for x in s["body"])
        if k == "repeat":
            return self.batch_static(s["n"], bound) and all(self.batchable(x, bound) for x in s["body"])
        return False

    def batch_static(self, e, bound: frozenset) -> bool:
        for x in walk_ir(e):
            k = x.get("k")
            if k in ("var", "zone", "def", "attr", "cellattr", "comp", "mods", "can") or (
                    k == "builtin" and x["n"] not in ("players", "player_count")):
                return False
            if k == "local" and x["n"] not in bound:
                if self.sh.batch_free is None:
                    return False
                if x["n"] not in self.sh.batch_free:
                    self.sh.batch_free.append(x["n"])   # an outer local: part of the batch's key
            if k == "call" and x["f"] not in ("size", "count", "sum", "max", "min", "first", "last", "abs"):
                return False
            if k == "table" and not self.sh.tables[x["n"]][1]:
                return False
            if k == "text" and "comp" in x["as"]:
                return False
        return True

    def element_static(self, e, allowed: set, depth: int = 0) -> bool:
        """Does `e` read nothing but the fields (and labels) of the components in the `allowed`
        locals, constants and the board? Then its value is fixed for given components, in one
        universe (see Game.universe)."""
        if depth > INLINE_DEPTH:
            return False
        allowed = allowed | {x["v"] for x in walk_ir(e) if x.get("k") == "comp"}
        for x in walk_ir(e):
            k = x.get("k")
            if k in ("var", "zone", "builtin", "option", "mods", "can") or (k == "local" and x["n"] not in allowed):
                return False
            if k == "table" and not self.sh.tables[x["n"]][1]:
                return False
            if k == "call" and (x["f"] in RANDOM_CALLS or CALLABLE[x["f"]].reads_match or x["f"] == "reachable"):
                return False
            if k == "def":
                if ("d", x["n"]) in self.sh.recursive or x["n"] in self.sh.impure_defs:
                    return False
                # (a def's body is read with its parameters allowed, whatever the call: once per
                # depth — a def summing 11 calls of the next, 7 deep, was 2.4 million readings)
                memo = self.__dict__.setdefault("_static_defs", {})
                key = (x["n"], depth)
                if key not in memo:
                    d = self.sh.ir["defs"][x["n"]]
                    memo[key] = self.element_static(d["body"], set(d["params"] or []), depth + 1)
                if not memo[key]:
                    return False
        return True

    def ids_of(self, e, depth: int = 0) -> str | None:
        """If every element of the domain `e` is a valid id (a component of this match, a cell of
        the board, a seat) and no element repeats: which kind ("comp", "cell", "player"); else None."""
        if depth > 8:
            return None
        k = e["k"]
        if k == "zone":
            return "comp"
        if k == "builtin" and e["n"] in ("players", "others"):
            return "player"
        if k == "call" and e["f"] in ("cells", "neighbours", "line", "between", "reachable"):
            return "cell" if self.sh.geometry is not None else None
        if k == "comp" and e.get("x") == {"k": "local", "n": e["v"]}:
            return self.ids_of(e["in"], depth + 1)
        if k == "def" and ("d", e["n"]) not in self.sh.recursive:
            return self.ids_of(self.sh.ir["defs"][e["n"]]["body"], depth + 1)
        return None
