"""Turn IR expressions and statements into Python closures, once per game.

Every closure takes `(m, env)`: the match state and a dict of local values. A statement
closure returns None to go on, or a signal tuple that ends the effect: ("goto", step),
("end_turn", player|None) or ("finish",). No rule text ever reaches eval or exec.
"""
from __future__ import annotations

import operator
from itertools import combinations

from .boards import Geometry, reachable
from .errors import RuleRuntimeError

LOOP_LIMIT = 10_000          # iterations of one while/repeat before the rule is declared broken
CALL_DEPTH_LIMIT = 200       # nested def/proc calls


def player_text(p) -> str:
    return "none" if p is None else f"P{p + 1}"


def plain_text(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def as_items(v):
    """A zone, list or single component seen as a sequence of components."""
    if v is None:
        return ()
    if isinstance(v, int):
        return (v,)
    return v


_BINOPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


class Lowerer:
    """Compiles the IR of one game; holds what closures need to look up at run time."""

    def __init__(self, ir: dict):
        self.ir = ir
        board = (ir.get("boards") or [None])[0]
        self.geometry = (Geometry(board["shape"], board["width"], board["height"], board["diagonal"])
                         if board else None)
        self.source = ir.get("source", "<ir>")
        self.enum_text = {e: {i["name"]: i["text"] for i in items} for e, items in ir["enums"].items()}
        self.defs: dict = {}
        self.procs: dict = {}
        self.tables: dict = {}

    def fail(self, line, msg: str):
        where = f"{self.source}:{line}: " if line else ""
        raise RuleRuntimeError(where + msg)

    def build(self) -> None:
        for name, d in self.ir["defs"].items():
            self.defs[name] = (d["params"], self.expr(d["body"]), d.get("line"))
        for name, p in self.ir["procs"].items():
            self.procs[name] = (p["params"], self.block(p["body"]), p.get("line"))
        for name, entries in self.ir["tables"].items():
            self.tables[name] = {tuple(k) if isinstance(k, list) else k: self.expr(v) for k, v in entries}

    # ---- expressions ----
    def expr(self, e):
        if e is None:
            return None
        return getattr(self, "x_" + e["k"])(e)

    def x_lit(self, e):
        v = e["v"]
        return lambda m, env: v

    def x_local(self, e):
        name = e["n"]

        def local(m, env):
            try:
                return env[name]
            except KeyError:
                self.fail(None, f"`{name}` is used before it has a value")
        return local

    def x_builtin(self, e):
        name = e["n"]
        if name == "me":
            return lambda m, env: m.me
        if name == "current":
            return lambda m, env: m.current
        if name == "players":
            return lambda m, env: list(range(m.players))
        if name == "others":
            return lambda m, env: [(m.me + i) % m.players for i in range(1, m.players)]
        if name == "player_count":
            return lambda m, env: m.players
        if name == "turn_count":
            return lambda m, env: m.turn_count
        raise AssertionError(name)

    def x_var(self, e):
        name, idx = e["n"], self.expr(e.get("i"))
        if idx is None:
            return lambda m, env: m.vars[name]
        return lambda m, env: m.vars[name][idx(m, env)]

    def x_zone(self, e):
        name, idx = e["n"], self.expr(e.get("i"))
        if idx is None:
            return lambda m, env: m.zones[name]
        return lambda m, env: m.zones[name][idx(m, env)]

    def x_option(self, e):
        name = e["n"]
        return lambda m, env: m.options[name]

    def x_def(self, e):
        name, line = e["n"], e.get("line")
        args = [self.expr(a) for a in e["a"]]
        defs = self.defs
        if not args:
            def value(m, env):
                params, body, _ = defs[name]
                return self.call_with(m, body, {}, line, name)
            return value

        def call(m, env):
            params, body, _ = defs[name]
            return self.call_with(m, body, {p: a(m, env) for p, a in zip(params, args)}, line, name)
        return call

    def call_with(self, m, body, env, line, name):
        m.depth += 1
        try:
            if m.depth > CALL_DEPTH_LIMIT:
                self.fail(line, f"`{name}` calls itself too deeply (limit {CALL_DEPTH_LIMIT})")
            return body(m, env)
        finally:
            m.depth -= 1

    def x_un(self, e):
        x = self.expr(e["x"])
        if e["op"] == "not":
            return lambda m, env: not x(m, env)
        return lambda m, env: -x(m, env)

    def x_bin(self, e):
        op, l, r, = e["op"], self.expr(e["l"]), self.expr(e["r"])
        if op == "and":
            return lambda m, env: l(m, env) and r(m, env)
        if op == "or":
            return lambda m, env: l(m, env) or r(m, env)
        if op in ("/", "%"):
            line = e.get("line")
            fn = operator.floordiv if op == "/" else operator.mod

            def divide(m, env):
                b = r(m, env)
                if b == 0:
                    self.fail(line, "division by zero")
                return fn(l(m, env), b)
            return divide
        fn = _BINOPS[op]
        if op in ("==", "!="):
            def compare(m, env):
                a, b = l(m, env), r(m, env)
                if isinstance(a, list) or isinstance(b, list):
                    a, b = list(as_items(a)), list(as_items(b))
                return fn(a, b)
            return compare
        return lambda m, env: fn(l(m, env), r(m, env))

    def x_in(self, e):
        x, seq = self.expr(e["x"]), self.expr(e["in"])
        return lambda m, env: x(m, env) in as_items(seq(m, env))

    def x_range(self, e):
        lo, hi = self.expr(e["lo"]), self.expr(e["hi"])
        return lambda m, env: list(range(lo(m, env), hi(m, env) + 1))

    def x_if(self, e):
        c, t, f = self.expr(e["c"]), self.expr(e["t"]), self.expr(e["e"])
        return lambda m, env: t(m, env) if c(m, env) else f(m, env)

    def x_attr(self, e):
        x, name, line = self.expr(e["x"]), e["n"], e.get("line")

        def attr(m, env):
            c = x(m, env)
            if c is None:
                self.fail(line, f"`.{name}` of none (there is no component here)")
            try:
                return m.comps[c].get(name)
            except (IndexError, TypeError):
                self.fail(line, f"`.{name}` of {plain_text(c)}, which is not a component")
        return attr

    def x_cellattr(self, e):
        x, name, line, g = self.expr(e["x"]), e["n"], e.get("line"), self.geometry
        table = {"name": g.names, "row": g.rows, "col": g.cols, "kind": g.kinds}[name] if g else None

        def attr(m, env):
            c = x(m, env)
            if c is None:
                self.fail(line, f"`.{name}` of none (there is no cell here)")
            return table[c]
        return attr

    def x_index(self, e):
        x, i, line = self.expr(e["x"]), self.expr(e["i"]), e.get("line")

        def index(m, env):
            seq, k = x(m, env), i(m, env)
            try:
                return seq[k]
            except (IndexError, TypeError):
                self.fail(line, f"index {k} is out of range")
        return index

    def x_table(self, e):
        name, i, line = e["n"], self.expr(e["i"]), e.get("line")
        tables = self.tables

        def lookup(m, env):
            key = i(m, env)
            if isinstance(key, list):
                key = tuple(key)
            try:
                value = tables[name][key]
            except (KeyError, TypeError):
                self.fail(line, f"table `{name}` has no entry for {plain_text(key)}")
            return value(m, env)
        return lookup

    def x_list(self, e):
        items = [self.expr(x) for x in e["items"]]
        return lambda m, env: [f(m, env) for f in items]

    def x_comp(self, e):
        x, var, seq = self.expr(e["x"]), e["v"], self.expr(e["in"])
        where = self.expr(e.get("where"))

        def comprehension(m, env):
            out = []
            saved = env.get(var, env)
            for item in list(as_items(seq(m, env))):
                env[var] = item
                if where is None or where(m, env):
                    out.append(x(m, env))
            if saved is env:
                env.pop(var, None)
            else:
                env[var] = saved
            return out
        return comprehension

    def x_text(self, e):
        x, how = self.expr(e["x"]), e["as"]
        to_text = self.texter(how)
        return lambda m, env: to_text(m, x(m, env))

    def texter(self, how: str):
        """A function (m, value) -> display text for values of one static type."""
        if how.startswith("list:"):
            inner = self.texter(how[5:])
            return lambda m, v: " ".join(inner(m, x) for x in as_items(v))
        if how.startswith("enum:"):
            names = self.enum_text.get(how[5:], {})
            return lambda m, v: plain_text(v) if v is None else names.get(v, str(v))
        if how == "comp":
            return lambda m, v: "none" if v is None else m.labels[v]
        if how == "player":
            return lambda m, v: player_text(v)
        if how == "cell":
            names = self.geometry.names if self.geometry else []
            return lambda m, v: "none" if v is None else names[v]
        return lambda m, v: plain_text(v)

    def x_call(self, e):
        f, args, line = e["f"], [self.expr(a) for a in e["a"]], e.get("line")
        a0 = args[0] if args else None
        if f == "size" or f == "count":
            return lambda m, env: len(as_items(a0(m, env)))
        if f == "sum":
            return lambda m, env: sum(as_items(a0(m, env)))
        if f == "any":
            return lambda m, env: any(as_items(a0(m, env)))
        if f == "all":
            return lambda m, env: all(as_items(a0(m, env)))
        if f in ("max", "min"):
            pick = max if f == "max" else min
            if len(args) == 1:
                def extreme(m, env):
                    seq = as_items(a0(m, env))
                    if not seq:
                        self.fail(line, f"`{f}` of an empty list")
                    return pick(seq)
                return extreme
            return lambda m, env: pick(a(m, env) for a in args)
        if f in ("top", "bottom"):
            from_top = f == "top"
            if len(args) == 1:
                if from_top:
                    return lambda m, env: (lambda z: z[-1] if z else None)(a0(m, env))
                return lambda m, env: (lambda z: z[0] if z else None)(a0(m, env))
            a1 = args[1]

            def several(m, env):
                z, k = a0(m, env), a1(m, env)
                if k <= 0:
                    return []
                return list(reversed(z[-k:])) if from_top else list(z[:k])
            return several
        if f == "first":
            return lambda m, env: (lambda s: s[0] if s else None)(list(as_items(a0(m, env))))
        if f == "last":
            return lambda m, env: (lambda s: s[-1] if s else None)(list(as_items(a0(m, env))))
        if f == "distinct":
            return lambda m, env: list(dict.fromkeys(as_items(a0(m, env))))
        if f == "next":
            return lambda m, env: (a0(m, env) + 1) % m.players
        if f == "abs":
            return lambda m, env: abs(a0(m, env))
        if f == "roll":
            return lambda m, env: m.rng.randint(1, a0(m, env))
        if f == "pick":
            def pick_one(m, env):
                seq = list(as_items(a0(m, env)))
                return m.rng.choice(seq) if seq else None
            return pick_one
        if f == "contains":
            a1 = args[1]
            return lambda m, env: a1(m, env) in as_items(a0(m, env))
        return self.board_call(f, args, line)

    def board_call(self, f, args, line):
        """Queries on the declared board; cells are ints indexing its geometry."""
        g = self.geometry
        if g is None:
            return lambda m, env: self.fail(line, f"`{f}` needs a board, and the game declares none")
        a0 = args[0]
        a1 = args[1] if len(args) > 1 else None
        if f == "cells":
            every = list(range(g.size))
            if a1 is None:
                return lambda m, env: list(every)
            by_kind: dict = {}
            for c in every:
                by_kind.setdefault(g.kinds[c], []).append(c)
            return lambda m, env: list(by_kind.get(a1(m, env), ()))
        if f == "rows":
            return lambda m, env: g.height
        if f == "cols":
            return lambda m, env: g.width
        if f == "directions":
            return lambda m, env: list(g.directions)
        if f == "cell":
            def named(m, env):
                name = a1(m, env)
                if name not in g.by_name:
                    self.fail(line, f"the board has no cell named {name!r}")
                return g.by_name[name]
            return named
        if f == "neighbours":
            if a1 is None:
                return lambda m, env: list(g.neighbours_of(a0(m, env)))
            return lambda m, env: list(g.neighbours_of(a0(m, env), a1(m, env)))
        if f == "step":
            return lambda m, env: g.step(a0(m, env), a1(m, env))
        if f == "line":
            a2 = args[2]
            return lambda m, env: g.line(a0(m, env), a1(m, env), a2(m, env))
        if f == "between":
            return lambda m, env: g.between(a0(m, env), a1(m, env))
        if f == "direction":
            return lambda m, env: g.direction(a0(m, env), a1(m, env))
        if f == "distance":
            return lambda m, env: g.distance(a0(m, env), a1(m, env))
        if f == "reachable":
            name = args[2](None, None)
            defs = self.defs

            def reach(m, env):
                params, body, _ = defs[name]
                return reachable(g, a0(m, env), a1(m, env),
                                 lambda c: self.call_with(m, body, {params[0]: c}, line, name))
            return reach
        raise AssertionError(f"unknown builtin {f}")

    # ---- statements ----
    def block(self, stmts):
        fs = [self.stmt(s) for s in stmts]
        if not fs:
            return lambda m, env: None
        if len(fs) == 1:
            return fs[0]

        def run(m, env):
            for f in fs:
                r = f(m, env)
                if r is not None:
                    return r
            return None
        return run

    def stmt(self, s):
        return getattr(self, "s_" + s["s"])(s)

    def s_move(self, s):
        what, to, bottom, line = self.expr(s["what"]), self.expr(s["to"]), s["pos"] == "bottom", s.get("line")

        def move(m, env):
            items = list(as_items(what(m, env)))
            dest = to(m, env)
            m.move(items, dest, bottom, line)
        return move

    def s_shuffle(self, s):
        zone = self.expr(s["zone"])

        def shuffle(m, env):
            m.rng.shuffle(zone(m, env))
        return shuffle

    def s_set(self, s):
        t, op, v = s["target"], s["op"], self.expr(s["v"])
        name = t["n"]
        idx = self.expr(t.get("i"))
        if t["k"] == "local":
            if op == "=":
                def set_local(m, env):
                    env[name] = v(m, env)
            else:
                sign = 1 if op == "+=" else -1

                def set_local(m, env):
                    env[name] = env[name] + sign * v(m, env)
            return set_local
        sign = 0 if op == "=" else 1 if op == "+=" else -1
        if idx is None:
            def set_var(m, env):
                m.vars[name] = v(m, env) if sign == 0 else m.vars[name] + sign * v(m, env)
            return set_var

        def set_item(m, env):
            row, k = m.vars[name], idx(m, env)
            row[k] = v(m, env) if sign == 0 else row[k] + sign * v(m, env)
        return set_item

    def s_let(self, s):
        name, v = s["n"], self.expr(s["v"])

        def let(m, env):
            env[name] = v(m, env)
        return let

    def s_if(self, s):
        c, then, other = self.expr(s["c"]), self.block(s["then"]), self.block(s["else"])
        return lambda m, env: then(m, env) if c(m, env) else other(m, env)

    def s_for(self, s):
        var, seq, body = s["v"], self.expr(s["in"]), self.block(s["body"])

        def loop(m, env):
            for item in list(as_items(seq(m, env))):
                env[var] = item
                r = body(m, env)
                if r is not None:
                    return r
            return None
        return loop

    def s_while(self, s):
        c, body, line = self.expr(s["c"]), self.block(s["body"]), s.get("line")

        def loop(m, env):
            n = 0
            while c(m, env):
                n += 1
                if n > LOOP_LIMIT:
                    self.fail(line, f"`while` ran {LOOP_LIMIT} times without ending (loop limit)")
                r = body(m, env)
                if r is not None:
                    return r
            return None
        return loop

    def s_repeat(self, s):
        count, body, line = self.expr(s["n"]), self.block(s["body"]), s.get("line")

        def loop(m, env):
            k = count(m, env)
            if k > LOOP_LIMIT:
                self.fail(line, f"`repeat {k}` is over the loop limit {LOOP_LIMIT}")
            for _ in range(k):
                r = body(m, env)
                if r is not None:
                    return r
            return None
        return loop

    def s_goto(self, s):
        signal = ("goto", s["step"])
        return lambda m, env: signal

    def s_end_turn(self, s):
        to = self.expr(s.get("to"))
        if to is None:
            return lambda m, env: ("end_turn", None)
        return lambda m, env: ("end_turn", to(m, env))

    def s_finish(self, s):
        result, who = s["result"], self.expr(s.get("who"))

        def finish(m, env):
            m.finish(result, who(m, env) if who is not None else None)
            return ("finish",)
        return finish

    def s_call(self, s):
        name, args, line = s["proc"], [self.expr(a) for a in s["a"]], s.get("line")
        procs = self.procs

        def call(m, env):
            params, body, _ = procs[name]
            return self.call_with(m, body, {p: a(m, env) for p, a in zip(params, args)}, line, name)
        return call

    def s_create(self, s):
        kind = s["kind"]
        spec = self.ir["kinds"][kind]
        given = {k: self.expr(v) for k, v in s["fields"].items()}
        defaults = {f["name"]: self.expr(f["default"]) for f in spec["fields"] if f["name"] not in given}
        label = self.expr(spec["label"])
        to, bottom, line = self.expr(s["to"]), s["pos"] == "bottom", s.get("line")

        def create(m, env):
            fields = {k: f(m, env) for k, f in given.items()}
            for k, f in defaults.items():
                fields[k] = f(m, fields) if f is not None else None
            text = plain_text(label(m, dict(fields))) if label is not None else f"{kind}{len(m.comps)}"
            m.add_component(kind, fields, text, to(m, env), bottom, line)
        return create

    def s_log(self, s):
        v = self.expr(s["v"])

        def log(m, env):
            m.messages.append(v(m, env))
        return log

    # ---- actions ----
    def action(self, a):
        """(name, params, require, body) with params as closures, for enumeration."""
        params = []
        for p in a["params"]:
            params.append((p["name"], p["mode"], self.expr(p["domain"]), self.expr(p.get("min")),
                           self.expr(p.get("max")), self.texter(p.get("show", "plain"))))
        return (a["name"], a["name"].replace("_", " "), params, self.expr(a.get("require")), self.block(a["body"]))


def enumerate_action(m, action, out: list, seen: set) -> None:
    """Append every legal binding of one action's parameters to `out` as (text, args)."""
    name, shown, params, require, body = action
    env: dict = {}
    texts: list = []

    def bind(i: int) -> None:
        if i == len(params):
            if require is None or require(m, env):
                text = " ".join([shown, *texts]) if texts else shown
                if text not in seen:
                    seen.add(text)
                    out.append((text, dict(env), action))
            return
        pname, mode, domain, lo, hi, to_text = params[i]
        items = list(as_items(domain(m, env)))
        if mode == "one":
            for x in items:
                env[pname] = x
                texts.append(to_text(m, x))
                bind(i + 1)
                texts.pop()
            return
        low = lo(m, env) if lo is not None else 1
        high = hi(m, env) if hi is not None else len(items)
        for k in range(max(0, low), min(high, len(items)) + 1):
            for combo in combinations(items, k):
                env[pname] = list(combo)
                texts.append(" ".join(to_text(m, x) for x in combo))
                bind(i + 1)
                texts.pop()

    bind(0)
