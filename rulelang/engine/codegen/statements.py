"""Lowering IR statements to Python statements (`s_*`, one per statement kind), including
component creation and creation in bulk.
"""
from __future__ import annotations

from typing import Any, Callable

import re

from ...core.limits import COMPONENT_LIMIT, INT_LIMIT, LOOP_LIMIT
from .analysis import _arith
from .constants import ANY, PY_ASSIGN, REBIND, SCALAR
from .frame import _known, Ctx, Name, P
from .runtime import make_texter
from .writer import _lit, Fn
from .parts import Part

_CALLS = re.compile(r"\b(d\d+)\(")         # calls of defs in generated source (`d12(`, not `d12_(`)


class StatementLowering(Part):
    """The Lowerer's part `stmts`: each statement kind's lowering (parts.Part)."""
    stmt_table: dict[str, Callable[[Any, Ctx], None]]    # each kind's lowering, bound (Lowerer.STMT_LOWERING)

    def block(self, stmts, ctx: Ctx) -> None:
        for s in stmts:
            self.stmt(s, ctx)

    def stmt(self, s, ctx: Ctx) -> None:
        fn = ctx.fn
        saved = fn.line
        if s.get("line") is not None:
            fn.line = s["line"]
        self.stmt_table[s["s"]](s, ctx)
        fn.line = saved

    def sub_block(self, stmts, ctx: Ctx) -> None:
        fn = ctx.fn
        fn.indent += 1
        n = len(fn.body)
        self.block(stmts, ctx)
        if len(fn.body) == n:
            fn.emit("pass")
        fn.indent -= 1

    def target(self, e, ctx: Ctx) -> str:
        """Source of a move/shuffle destination; checked to be a zone unless it is one statically."""
        return self.target_p(e, ctx).src

    def target_p(self, e, ctx: Ctx) -> P:
        p = self.exprs.ex(e, ctx)
        if e["k"] == "zone":
            return p
        return P(f"_zone(m, {p.src})", p.level, p.pure)

    def needs_check(self, dest_e) -> bool:
        """Does adding to this destination need a capacity check after it?"""
        if dest_e["k"] != "zone":
            return self.sh.has_capacity
        return self.sh.zone_decl[dest_e["n"]]["capacity"] is not None

    def s_move(self, s, ctx):
        fn = ctx.fn
        what = self.exprs.ex(s["what"], ctx)
        moved = None
        if self.sh.reveals:                         # what was revealed of them is forgotten as they move
            moved = fn.new("t")
            fn.emit(f"{moved} = {what.src}")
            what = P(moved, what.level, True, shape=what.shape, cheap=True)
            s = dict(s, what={"k": "local", "n": "__moved"})
        dest_e = s["to"]
        destp = self.target_p(dest_e, ctx)
        dest = destp.src
        if moved is not None:                       # (not within its own zone: a hand sorted by moving
            if not (destp.cheap and destp.pure):    # it onto itself lost what was revealed of it —
                d = fn.new("t")                     # a new author's Hearts; language.md: "a move within
                fn.emit(f"{d} = {dest}")            # its own zone ends nothing")
                dest = d
                destp = P(d, destp.level, True, shape=destp.shape, cheap=True)
            fn.emit(f"_forget(m, {moved}, {dest})")
        if s["pos"] == "depth":                     # `insert(X, ZONE, N)`: N components above it
            what, dest = self.each_once(what, dest, fn)
            depth = self.exprs.ex(s.get("depth") or {"k": "lit", "v": 0}, ctx)
            fn.emit(f"_move_at(m, {what.src}, {dest}, {depth.src}, {bool(self.sh.zone_watch)})")
            self.capacity_check(dest_e, dest, fn)
            return
        bottom = s["pos"] == "bottom"
        if self.sh.zone_watch:                      # entering and leaving zones are events here
            if not (destp.cheap and destp.pure) and self.needs_check(dest_e):
                t = fn.new("t")
                fn.emit(f"{t} = {dest}")
                dest = t
            fn.emit(f"_watched_move(m, {what.src}, {dest}, {bottom})")
            self.capacity_check(dest_e, dest, fn)
            return
        static = dest_e["k"] == "zone"
        cap = static and self.sh.zone_decl[dest_e["n"]]["capacity"] is not None
        once = destp.cheap and destp.pure            # may be read twice
        if not once and self.needs_check(dest_e):
            # the move, then the capacity check: evaluate each side once, in the rules' order
            what, dest = self.each_once(what, dest, fn)
            once = True
        if static and not bottom and not cap:
            wk = s["what"]["k"]
            w = s["what"]
            if wk == "call" and w["f"] in ("top", "bottom") and len(w["a"]) == 1 and w["a"][0]["k"] == "zone" \
                    and once:
                # move top(ZONE) to ZONE2: pop it off, push it on
                src = self.exprs.ex(w["a"][0], ctx)
                if src.cheap and src.pure:
                    c = fn.new("t")
                    fn.emit(f"if {src.src}:")
                    fn.emit(f"    {c} = {src.src}.pop({'' if w['f'] == 'top' else '0'})")
                    fn.emit(f"    {dest}.append({c})")
                    fn.emit(f"    {fn.use('W')}[{c}] = {dest}")
                    if self.sh.ir.get("abilities"):  # (what is kept of the cards in play: stale now —
                        fn.emit("    m.held = None")  #  a trial's `on … from hand` missed a drawn card)
                    return
            if wk == "zone":
                fn.emit(f"_move_zone(m, {what.src}, {dest})")
                return
            if (wk == "call" and s["what"]["f"] in ("top", "bottom") and len(s["what"]["a"]) == 1) \
                    or what.shape == SCALAR:
                fn.emit(f"_move1(m, {what.src}, {dest})")      # one component (or none)
                return
        if s["what"]["k"] == "zone" and "zonemove" in self.sh.opt:
            fn.emit(f"_move_all(m, {what.src}, {dest}, {bottom})")     # a whole zone: its own list
        else:
            fn.emit(f"_move(m, {what.src}, {dest}, {bottom})")
        self.capacity_check(dest_e, dest, fn)

    @staticmethod
    def each_once(what: P, dest: str, fn: Fn) -> tuple:
        """What is moved and where to, each worked out once, in the rules' order, into locals (they
        are read twice: by the move and by the check after it)."""
        if not (what.cheap and what.pure):
            t = fn.new("t")
            fn.emit(f"{t} = {what.src}")
            what = P(t, what.level, True, shape=what.shape, cheap=True)
        t = fn.new("t")
        fn.emit(f"{t} = {dest}")
        return what, t

    def capacity_check(self, dest_e, dest: str, fn: Fn) -> None:
        """After a move or create onto `dest`: the zone's capacity, if it has one."""
        if dest_e["k"] != "zone":
            if self.sh.has_capacity:
                fn.emit(f"_over_any(m, {dest})")
            return
        decl = self.sh.zone_decl[dest_e["n"]]
        if decl["capacity"] is not None:
            fn.emit(f"_over({dest}, {_lit(decl['capacity'])}, {_lit(decl['name'])})")

    def s_eliminate(self, s, ctx):
        if s.get("until"):                       # out for the rest of this round: back at its end
            ctx.fn.emit(f"_eliminate(m, {self.exprs.ex(s['who'], ctx).src}, ROUND_OUT)")
            return
        ctx.fn.emit(f"_eliminate(m, {self.exprs.ex(s['who'], ctx).src})")

    def s_readmit(self, s, ctx):
        ctx.fn.emit(f"_eliminate(m, {self.exprs.ex(s['who'], ctx).src}, False)")

    def s_refuse(self, s, ctx):
        ctx.fn.emit(f"_refuse(m, {self.exprs.ex(s['why'], ctx).src})")

    def s_turn_order(self, s, ctx):
        ctx.fn.emit(f"_set_order(m, {self.exprs.ex(s['v'], ctx).src})")

    def s_shuffle(self, s, ctx):
        zone = self.target(s['zone'], ctx)
        if self.sh.reveals:                         # a shuffle forgets where revealed cards lie
            t = ctx.fn.new("t")
            ctx.fn.emit(f"{t} = {zone}")
            ctx.fn.emit(f"_forget(m, {t})")
            zone = t
        t = ctx.fn.new("t")                         # (private answers among them stay private)
        ctx.fn.emit(f"{t} = {zone}")
        ctx.fn.emit(f"if m.named: _anonymize(m, {t})")
        zone = t
        ctx.fn.emit(f"m.rng.shuffle(_each(m, {zone}))")         # (a shuffle is as long as its zone: charged)

    def s_set(self, s, ctx):
        v = self.exprs.ex(s["v"], ctx)
        sign = PY_ASSIGN[s["op"]]
        decl = self.sh.var_decl.get(s["target"]["n"]) if s["target"]["k"] == "var" else None
        if decl is not None and decl.get("type") == "player" and s["v"].get("k") in ("bin", "lit", "un", "call"):
            # a number worked out for a player (`next = me + 1`): a seat, checked before it is kept
            # (a fuzzer's position no save could hold); `next(p)`, `me`, a player read are seats already
            if not (s["v"].get("k") == "lit" and s["v"].get("v") is None) and s["op"] == "=":
                src = v.src
                self.store(s["target"], lambda old: f"_seat_or_none(m, {src})", v.pure, ctx)
                return
        if sign:
            # x += E: an int (or an error), checked in line, E a constant too: a value may start
            # at the limit (`var n: int = 4611686018427387904`, then `n += 1`), and a number past
            # it would make a position no save file may hold
            self.store(s["target"], lambda old: f"{old} {sign} ({v.src})", v.pure, ctx, int_check=True)
        elif _arith(s["v"]):
            self.store(s["target"], lambda old: f"_grown({v.src})", v.pure, ctx)
        elif s["target"]["k"] != "local" and v.shape != SCALAR and not v.num and not v.paid \
                and not (v.maxlen is not None and v.maxlen <= 64):
            # a list or text kept in the position: charged as long as it is (runtime._kept)
            self.store(s["target"], lambda old: f"_kept(m, {v.src})", v.pure, ctx)
        else:
            self.store(s["target"], lambda old: v.src, v.pure, ctx)

    def s_append(self, s, ctx):
        v = self.exprs.ex(s["v"], ctx)
        self.store(s["target"], lambda old: f"_appended(m, {old}, {v.src})", v.pure, ctx)

    def s_remove(self, s, ctx):
        v = self.exprs.ex(s["v"], ctx)
        self.store(s["target"], lambda old: f"_removed(m, {old}, {v.src})", v.pure, ctx)

    def store(self, t: dict, value, pure: bool, ctx, int_check: bool = False) -> None:
        """Write `value(old)` (source of the new value, given the source of the old one) to a local,
        a variable or one entry of a per-player/per-cell variable, evaluating in the rules' order.
        With int_check, the new value (an int) is refused past INT_LIMIT before it is stored."""
        fn = ctx.fn

        def emit(target: str) -> None:
            if not int_check:
                fn.emit(f"{target} = {value(target)}")
                return
            new = fn.new("t")
            fn.emit(f"{new} = {value(target)}")
            fn.emit(f"if not {-INT_LIMIT} <= {new} <= {INT_LIMIT}: _grown({new})")
            fn.emit(f"{target} = {new}")
        if t["k"] == "local":
            emit(self.local_target(t["n"], ctx))
            return
        slot = self.sh.var_slot[t["n"]]
        base = fn.use(f"V{slot}") if t["n"] in self.sh.stable_vars and t.get("i") is not None else f"{fn.use('V')}[{slot}]"
        if t.get("i") is None:
            emit(base)
            return
        i = self.exprs.family_index(self.sh.var_decl[t["n"]], t["i"], ctx)
        if i.cheap and i.pure and pure:
            # nothing here can change what the others read: no temporaries needed for the order
            emit(f"{base}[{i.src}]")
            return
        row, k = fn.new("t"), fn.new("t")
        fn.emit(f"{row} = {base}")
        fn.emit(f"{k} = {i.src}")
        emit(f"{row}[{k}]")

    def local_target(self, name: str, ctx: Ctx) -> str:
        b = ctx.names.get(name)
        if isinstance(b, Name):
            return b.src
        return ctx.fn.local(name)

    def scoped(self, e, src: str) -> str:
        """`src`, the source of the expression `e` in an effect, evaluated with a memo of defs open
        for as long as it runs (`_scoped`: nothing changes meanwhile), when `e` asks memoised defs or
        the cards' modifiers — a rule that sums a value over many components, each value asking
        every card that modifies it, asks the same things again and again."""
        if not self.sh.listing_memo_defs:
            return src
        memoised = {f"d{self.sh.def_index[name]}" for name in self.sh.listing_memo_defs}
        # (what the code calls, not what the rules name: an inlined def or one given a list calls
        # no memo, and then the scope would only cost)
        if not ("_mods(" in src or "_can(" in src or any(name in memoised for name in _CALLS.findall(src))):
            return src
        self.sh.listing_memo_used = True
        return f"_scoped(m, lambda: {src})"

    def s_let(self, s, ctx):
        v = self.exprs.ex(s["v"], ctx)
        src = f"_grown({v.src})" if _arith(s["v"]) else v.src
        ctx.fn.emit(f"{self.local_target(s['n'], ctx)} = {self.scoped(s['v'], src)}")

    def s_if(self, s, ctx):
        fn = ctx.fn
        c = self.exprs.ex(s["c"], ctx)
        fn.emit(f"if {self.scoped(s['c'], c.t)}:")
        self.sub_block(s["then"], ctx)
        if s["else"]:
            fn.emit("else:")
            self.sub_block(s["else"], ctx)

    def s_for(self, s, ctx):
        fn = ctx.fn
        if self.try_batch(s, ctx):
            return
        it = self.exprs.seq(s["in"], ctx)
        fresh = s["in"]["k"] in ("comp", "list", "range") or (s["in"]["k"] == "builtin")
        items = fn.new("t")
        fn.emit(f"{items} = {self.scoped(s['in'], it.src if fresh else f'list({it.src})')}")
        self.spend(fn, f"len({items})", s["body"])
        fn.emit(f"for {self.local_target(s['v'], ctx)} in {items}:")
        self.sub_block(s["body"], ctx)

    def s_while(self, s, ctx):
        fn = ctx.fn
        n = fn.new("t")
        c = self.exprs.ex(s["c"], ctx)
        msg = _lit(f"`while` ran {LOOP_LIMIT} times without ending (loop limit)")
        fn.emit(f"{n} = 0")
        fn.emit(f"while {self.scoped(s['c'], c.t)}:")
        fn.indent += 1
        fn.emit(f"{n} += 1")
        fn.emit(f"if {n} > LOOP_LIMIT: _fault({msg})")
        self.spend(fn, "1", [s["c"], s["body"]])
        self.block(s["body"], ctx)
        fn.indent -= 1

    def s_repeat(self, s, ctx):
        fn = ctx.fn
        if self.try_batch(s, ctx):
            return
        k = fn.new("t")
        count = self.exprs.ex(s["n"], ctx)
        fn.emit(f"{k} = {count.src}")
        fn.emit(f"if {k} > LOOP_LIMIT: _fault('`repeat ' + str({k}) + '` is over the loop limit {LOOP_LIMIT}')")
        self.spend(fn, f"({k} if {k} > 0 else 0)", s["body"])
        fn.emit(f"for _ in range({k}):")
        self.sub_block(s["body"], ctx)

    def spend(self, fn, count: str, body) -> None:
        """Charge a loop's iterations to the effect's budget (m.work, reset by the engine for each
        action), so loops inside loops cannot multiply into a hang: each turn is one unit, and more
        when its body is heavy (analysis.weight_of: a body of a thousand statements, or calling a def
        that calls another ten times...)."""
        w = 1 + self.facts.units(self.facts.weight_of(body))
        fn.emit(f"m.work -= {count}" if w == 1 else f"m.work -= ({count}) * {w}")
        fn.emit("if m.work < 0: _overworked()")

    def s_goto(self, s, ctx):
        ctx.fn.emit(f"return ('goto', {_lit(s['step'])})")

    def s_end_turn(self, s, ctx):
        if s.get("to") is None:
            ctx.fn.emit("return ('end_turn', None)")
        else:
            ctx.fn.emit(f"return ('end_turn', _seat(m, {self.exprs.ex(s['to'], ctx).src}))")   # (checked here: its line)

    def s_finish(self, s, ctx):
        who = f"_seats(m, {self.exprs.ex(s['who'], ctx).src}, 'finish … for')" if s.get("who") is not None else "None"
        if s.get("why") is not None:
            ctx.fn.emit(f"m.finish({_lit(s['result'])}, {who}, {self.exprs.ex(s['why'], ctx).src})")
        else:
            ctx.fn.emit(f"m.finish({_lit(s['result'])}, {who})")
        ctx.fn.emit("return ('finish',)")

    def s_call(self, s, ctx):
        fn = ctx.fn
        args = [self.exprs.ex(a, ctx) for a in s["a"]]
        call = f"pr{self.sh.proc_index[s['proc']]}(m{''.join(', ' + a.src for a in args)})"
        if s["proc"] in self.sh.replaced:
            i = self.sh.proc_index[s["proc"]]
            call = f"_replaceable(m, {i}, pr{i}, ({''.join(a.src + ', ' for a in args)}))"
            self.signal_of(call, ctx)
            return
        if s["proc"] in self.sh.signalling:
            r = fn.new("t")
            fn.emit(f"{r} = {call}")
            if s["proc"] in self.sh.creating:
                fn.emit(REBIND)
            fn.emit(f"if {r} is not None: return {r}")
        else:
            fn.emit(call)
            if s["proc"] in self.sh.creating:
                fn.emit(REBIND)

    def s_create(self, s, ctx):
        fn = ctx.fn
        kind = s["kind"]
        given = list(s["fields"].items())
        vals = [self.exprs.ex(v, ctx) for _, v in given]
        maker = self.gen_maker(kind, [k for k, _ in given])
        if fn.batch:
            to = s["to"]
            idx = self.exprs.family_index(self.sh.zone_decl[to["n"]], to["i"], ctx).src if to.get("i") is not None else "None"
            too_many = _lit(f"more than {COMPONENT_LIMIT} components in one match (component limit)")
            fn.emit(f"if len(out) >= {COMPONENT_LIMIT}: _fault({too_many})")
            fn.emit(f"out.append(({_lit(kind)}, {maker}(m{''.join(', ' + v.src for v in vals)}), "
                    f"{self.sh.zone_slot[to['n']]}, {idx}, {s['pos'] == 'bottom'}))")
            return
        destp = self.target_p(s["to"], ctx)
        made = f"{maker}(m{''.join(', ' + v.src for v in vals)})"
        dest = destp.src
        if not (destp.cheap and destp.pure) and self.needs_check(s["to"]):
            t, d = fn.new("t"), fn.new("t")
            fn.emit(f"{t} = {made}")
            fn.emit(f"{d} = {dest}")
            made, dest = t, d
        to = s["to"]
        key = f"({self.sh.zone_slot[to['n']]}, None)" if to["k"] == "zone" and not self.sh.zone_decl[to["n"]]["per"] else "None"
        fn.emit(f"_add(m, {_lit(kind)}, {made}, {dest}, {s['pos'] == 'bottom'}, {key})")
        if self.sh.zone_watch:
            fn.emit("_created(m)")
        self.capacity_check(s["to"], dest, fn)
        fn.emit(REBIND)

    def gen_maker(self, kind: str, given: list[str]) -> str:
        """A function computing a new component's column row and label from its given fields."""
        spec = self.sh.ir["kinds"][kind]
        i = self.sh.makers
        self.sh.makers += 1
        self.sh.maker_kinds[f"mk{i}"] = kind
        fn = Fn(self.sh, f"def mk{i}(m{''.join(f', g{j}' for j in range(len(given)))}):")
        names = {}
        for j, k in enumerate(given):
            names[k] = Name(f"g{j}", 0, ANY)
        exprs = [f["default"] for f in spec["fields"] if f["name"] not in given and f["default"] is not None]
        if spec["label"] is not None:
            exprs.append(spec["label"])
        cacheable = spec["label"] is not None and all(self.facts.static_expr(x) for x in exprs)
        cache = self.sh.const({}, "C")
        if cacheable:
            key = "(" + "".join(f"g{j}, " for j in range(len(given))) + ")"
            fn.emit("try:")
            fn.emit(f"    hit = {cache}.get({key})")
            fn.emit("except TypeError:")
            fn.emit("    hit = None")
            fn.emit("if hit is not None: return hit")
        ctx = Ctx(fn, names, fallback=False)
        for f in spec["fields"]:
            if f["name"] in given:
                continue
            py = f"f{self.sh.column[f['name']]}"
            if f["default"] is None:
                fn.emit(f"{py} = None")
            else:
                fn.emit(f"{py} = {self.exprs.ex(f['default'], ctx).src}")
            ctx.names[f["name"]] = Name(py, 0, ANY)
        row = []
        for col in self.sh.columns:
            b = ctx.names.get(col) if any(col == n for n, _ in self.sh.kind_fields[kind]) else None
            row.append(b.src if b is not None else "None")
        label = f"_plain({self.exprs.ex(spec['label'], ctx).src})" if spec["label"] is not None else "None"
        fn.emit("hit = ((" + "".join(r + ", " for r in row) + f"), {label})")
        if cacheable:
            fn.emit("try:")
            fn.emit(f"    {cache}[{key}] = hit")
            fn.emit("except TypeError:")
            fn.emit("    pass")
        fn.emit("return hit")
        self.sh.add_fn(fn)
        return f"mk{i}"

    def try_batch(self, s, ctx: Ctx) -> bool:
        """Emit `_add_batch` for a batchable statement, and the function that builds its batch.
        Outer locals it reads become parameters of that function and part of the batch's key."""
        if ctx.fn.batch or "batch" not in self.sh.opt or self.sh.zone_watch:
            return False
        self.sh.batch_free = []
        try:
            if not self.facts.batchable(s):
                return False
            free = self.sh.batch_free
        finally:
            self.sh.batch_free = None
        args = []
        for name in free:
            b = ctx.names.get(name)
            if b is not None and not isinstance(b, Name):
                return False
            args.append(b.src if b is not None else ctx.fn.local(name))
        i = len(self.sh.batches)
        self.sh.batches.append(s)
        fn = Fn(self.sh, f"def bt{i}(m{''.join(f', p{j}' for j in range(len(free)))}):", s.get("line"))
        fn.batch = True
        fn.emit("out = []")
        self.stmt(s, Ctx(fn, {name: Name(f"p{j}", 0, ANY) for j, name in enumerate(free)}))
        fn.emit("return out")
        self.sh.add_fn(fn)
        key = "(" + "".join(a + ", " for a in args) + ")"
        ctx.fn.emit(f"_add_batch(m, {self.sh.const({}, 'C')}, bt{i}, {key})")
        ctx.fn.emit(REBIND)
        return True

    def s_log(self, s, ctx):
        # a message is kept in the position and printed: charged by its length (_logged)
        if s.get("to") is not None:
            ctx.fn.emit(f"_tell(m, _logged(m, {self.exprs.ex(s['v'], ctx).src}), "
                        f"_seats(m, {self.exprs.ex(s['to'], ctx).src}, 'log … to'))")
            return
        v = self.exprs.ex(s["v"], ctx)
        if v.maxlen is not None:                 # (a text known short: charged as long as it may be)
            self.spend(ctx.fn, str(v.maxlen + 1), [])
            ctx.fn.emit(f"m.messages.append({v.src})")
            return
        ctx.fn.emit(f"m.messages.append(_logged(m, {v.src}))")

    # ---- the interaction model (runtime: effects.py) ----
    def texter(self, how: str) -> str:
        return self.sh.const(make_texter(how, self.sh.enum_text, self.sh.geometry), "X", ("text", how))

    def opt_src(self, e, ctx, default: str = "None") -> str:
        return self.exprs.ex(e, ctx).src if e is not None else default

    def s_choose(self, s, ctx):
        fn = ctx.fn
        v = s["v"]
        domain = {"k": "comp", "x": {"k": "local", "n": v}, "v": v, "in": s["in"], "where": s.get("where")}
        values = self.exprs.ex(domain, ctx).src if s.get("where") is not None else self.exprs.seq(s["in"], ctx).src
        values = self.scoped(domain, values)
        by, prompt = self.opt_src(s.get("by"), ctx), self.opt_src(s.get("prompt"), ctx)
        texter = self.texter(s["show"])
        if s.get("as") is not None:              # options shown as the rules say: (text, value) pairs
            q = fn.new("q")
            inner = ctx.child(names=dict(ctx.names))
            inner.names[v] = Name(q, 0, ANY)
            label = self.exprs.ex(s["as"], inner)
            values, texter = f"[({label.src}, {q}) for {q} in {values}]", "None"
        about = f", about={self.exprs.ex(s['about'], ctx).src}" if s.get("about") is not None else ""
        got = fn.new("t")
        comps = s["show"] in ("comp", "list:comp", "comp_or_player", "list:comp_or_player")  # answers naming components may be private
        if s["mode"] == "one":
            fn.emit(f"{got} = _choose_one(m, {by}, {prompt}, {values}, {texter}, {s['optional']}, "
                    f"{bool(s.get('always'))}, {comps}{about})")
        else:
            lo, hi = self.opt_src(s.get("min"), ctx), self.opt_src(s.get("max"), ctx)
            fn.emit(f"{got} = _choose_many(m, {by}, {prompt}, {values}, {texter}, {lo}, {hi}, "
                    f"{s['mode'] == 'order'}, {s['optional']}, {bool(s.get('always'))}, {comps}{about})")
        fn.emit(REBIND)                          # (a choice may be answered by replaying: nothing is created)
        fn.emit(f"if {got} is not _SKIP:")
        fn.indent += 1
        fn.emit(f"{self.local_target(v, ctx)} = {got}")
        self.block(s["body"], ctx)
        fn.indent -= 1
        if s["else"]:
            fn.emit("else:")
            self.sub_block(s["else"], ctx)

    def s_may(self, s, ctx):
        fn = ctx.fn
        by, prompt = self.opt_src(s.get("by"), ctx), self.opt_src(s.get("prompt"), ctx)
        about = f", {self.exprs.ex(s['about'], ctx).src}" if s.get("about") is not None else ""
        fn.emit(f"if _may(m, {by}, {prompt}{about}):")
        self.sub_block(s["body"], ctx)
        if s["else"]:
            fn.emit("else:")
            self.sub_block(s["else"], ctx)

    def args_tuple(self, args, ctx) -> str:
        return "(" + "".join(self.exprs.ex(a, ctx).src + ", " for a in args) + ")"

    def signal_of(self, call: str, ctx) -> None:
        """A call that may run abilities: they may create components, and end the effect."""
        fn = ctx.fn
        r = fn.new("t")
        fn.emit(f"{r} = {call}")
        fn.emit(REBIND)
        fn.emit(f"if {r} is not None: return {r}")

    def s_emit(self, s, ctx):
        ctx.fn.emit(f"_emit(m, {self.sh.event_index[s['event']]}, {self.args_tuple(s['a'], ctx)})")

    def s_open(self, s, ctx):
        start = self.opt_src(s.get("from"), ctx)
        to = self.opt_src(s.get("to"), ctx)
        until = f"lambda: {self.exprs.ex(s['until'], ctx).src}" if s.get("until") is not None else "None"
        self.signal_of(f"_open(m, {self.sh.window_index[s['window']]}, {self.args_tuple(s['a'], ctx)}, {start}, "
                       f"{to}, {bool(s.get('always'))}, {until})", ctx)

    def s_run(self, s, ctx):
        of = self.exprs.ex(s["of"], ctx).src
        by = f", {self.exprs.ex(s['by'], ctx).src}" if s.get("by") is not None else ""
        self.signal_of(f"_hook(m, {self.sh.hook_index[s['hook']]}, {of}, {self.args_tuple(s['a'], ctx)}{by})", ctx)

    def s_resolve_triggers(self, s, ctx):
        self.signal_of("_drain(m)", ctx)

    def s_grant(self, s, ctx):
        v = self.exprs.ex(s["v"], ctx)
        ctx.fn.emit(f"_grant(m, {self.sh.def_index[s['def']]}, {self.args_tuple(s['a'], ctx)}, {v.src})")

    def s_reveal(self, s, ctx):
        to = s.get("to")
        to_src = f"_seats(m, {self.exprs.ex(to, ctx).src}, 'reveal … to')" if to is not None else "None"
        ctx.fn.emit(f"_reveal(m, {self.exprs.ex(s['what'], ctx).src}, {to_src})")

    def s_create_cards(self, s, ctx):
        """One `create` per copy of each card declaration of the kind whose fields pass `where`."""
        fn = ctx.fn
        kind = s["kind"]
        defaults = {f["name"]: f["default"] for f in self.sh.ir["kinds"][kind]["fields"]}
        for card in self.sh.ir.get("cards", []):
            if card["kind"] != kind or card["copies"] == 0:
                continue
            fields = {**card["fields"], "card": {"k": "lit", "v": card["name"]}}
            test = None
            if s.get("where") is not None:
                inner = ctx.child(names=dict(ctx.names))
                for name, d in defaults.items():
                    value = fields.get(name, d)
                    inner.names[name] = Name(self.exprs.ex(value, ctx).src if value is not None else "None", 0, ANY)
                test = self.exprs.ex(s["where"], inner)
                if _known(test) and not test.const:
                    continue
            made = {"s": "create", "kind": kind, "fields": {**fields, **s["fields"]}, "to": s["to"], "pos": s["pos"]}
            opened = 0
            if test is not None and not _known(test):
                fn.emit(f"if {test.t}:")
                fn.indent += 1
                opened += 1
            if card["copies"] > 1:
                fn.emit(f"for _ in range({card['copies']}):")
                fn.indent += 1
                opened += 1
            self.s_create(made, ctx)
            fn.indent -= opened
