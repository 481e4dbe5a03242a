"""The Lowerer: compiles one game's IR into a Python module, once per game, and `Compiled`,
the functions the engine calls. Expressions, statements, the enumerator and the analyses are
parts in their own modules: objects the Lowerer makes, sharing one `Shared` state (parts.py;
docs/engine.md, "How the parts fit together").
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, NoReturn

from ...core.errors import Diagnostic, RuleError, RuleRuntimeError
from ...ir.spec import STATEMENTS, rule_place, walk_ir
from ...core.limits import CALL_DEPTH_LIMIT
from .analysis import _memo_key, _shown_shape, Analyses
from .parts import Shared
from .constants import ANY, CODE_LIMIT, INLINE_DEPTH, LIST, MEMO_LIMIT, MEMO_SIZE_LIMIT, PART_LIMIT, PART_SIZE, RANDOM_CALLS, SCALAR
from .enumerator import ActionEnumerator
from .calls import CallLowering
from .comprehensions import ComprehensionLowering
from .def_calls import DefLowering
from .expressions import ExpressionLowering
from .frame import Ctx, Name, Subset
from .effects import NAMESPACE as EFFECTS
from .namespace import NAMESPACE
from .runtime import ExprTable, Table, make_texter
from .statements import StatementLowering
from .writer import _lit, Fn


# the parts, by the name each holds the others by (parts.Part)
PARTS: dict[str, type] = {"facts": Analyses, "exprs": ExpressionLowering, "defs": DefLowering, "comps": ComprehensionLowering,
                          "calls": CallLowering, "stmts": StatementLowering, "enumerator": ActionEnumerator}


def _lowering(prefix: str, kinds: tuple[str, ...]) -> dict[str, tuple[str, Callable]]:
    """Each kind's lowering: the part defining `prefix + kind`, and that method (exactly one)."""
    table = {}
    for k in kinds:
        [(part, f)] = [(name, c.__dict__[prefix + k]) for name, c in PARTS.items() if prefix + k in c.__dict__]
        table[k] = (part, f)
    return table


# games whose cards, events or windows may set abilities off: any move may lead to a question
ANYWHERE_PAUSES = ("abilities", "events", "windows", "hooks", "cards", "answered_first")


def pause_free_actions(ir: dict) -> frozenset:
    """(step, action) of the actions that can never stop for a question: nothing they run, nor
    anything the flow runs after them (a step's `enter`, a handler, a `when` rule), asks one, and
    the game has no card or event that could. The engine runs them without keeping a chain to
    resume (a game with one `choose` somewhere ran every action as if it might pause: 1.7x slower)."""
    if any(ir.get(key) for key in ANYWHERE_PAUSES) or any(s.get("simultaneous") for s in ir["steps"]):
        return frozenset()
    pausing: set = set()
    callers: dict = {}                     # (a proc calling one that pauses pauses too)
    for name, p in ir["procs"].items():
        for x in walk_ir(p["body"]):
            if "s" in x:
                if STATEMENTS[x["s"]].pauses:
                    pausing.add(name)
                elif x["s"] == "call":
                    callers.setdefault(x["proc"], set()).add(name)
    work = list(pausing)
    while work:
        for caller in callers.get(work.pop(), ()):
            if caller not in pausing:
                pausing.add(caller)
                work.append(caller)

    def pauses(part) -> bool:
        return any("s" in x and (STATEMENTS[x["s"]].pauses or x["s"] == "call" and x["proc"] in pausing)
                   for x in walk_ir(part))
    if pauses([s.get("enter") for s in ir["steps"]]) or pauses(ir["handlers"]) or pauses(ir["checks"]) \
            or pauses(ir.get("limits")):
        return frozenset()
    return frozenset((s["name"], a["name"]) for s in ir["steps"] for a in s["actions"] if not pauses(a))


class Lowerer:
    """Compiles the IR of one game into Python functions; see the package docstring."""
    # the closed dispatch of IR nodes to their lowering: kind -> (the part, its method)
    EXPR_LOWERING: ClassVar[dict[str, tuple[str, Callable]]]
    STMT_LOWERING: ClassVar[dict[str, tuple[str, Callable]]]
    sh: Shared
    facts: Analyses
    exprs: ExpressionLowering
    stmts: StatementLowering
    enumerator: ActionEnumerator

    def __init__(self, ir: dict, optimise: frozenset | None = None):
        self.sh = Shared(ir, optimise)
        # the parts, each its own object holding the Shared state and the others by name
        parts = {name: cls(self.sh) for name, cls in PARTS.items()}
        for part in parts.values():
            for name, other in parts.items():
                setattr(part, name, other)
        self.facts, self.exprs, self.stmts, self.enumerator = (parts["facts"], parts["exprs"], parts["stmts"],
                                                               parts["enumerator"])
        self.exprs.expr_table = {k: getattr(parts[part], f.__name__) for k, (part, f) in self.EXPR_LOWERING.items()}
        self.stmts.stmt_table = {k: getattr(parts[part], f.__name__) for k, (part, f) in self.STMT_LOWERING.items()}
        try:
            self.facts._analyse()
        except (RecursionError, KeyError, TypeError, IndexError, AttributeError) as err:
            raise RuleError([Diagnostic("E301", f"{self.sh.source}: not a usable compiled game "
                                                f"({type(err).__name__}: {err})")]) from None

    def __getattr__(self, name: str) -> Any:
        """What the engine reads of a compiled game (zone_slot, geometry, python, line_map, …) is
        the Shared state's."""
        if name == "sh":                    # (not made yet)
            raise AttributeError(name)
        return getattr(self.sh, name)

    def fail(self, line, msg: str) -> NoReturn:
        where = f"{rule_place(self.sh.ir, line)}: " if line else ""
        raise RuleRuntimeError(where + msg)

    def build(self) -> "Compiled":
        """The compiled game. Any failure (an IR too deep or too large for Python to compile, or an
        inconsistency check_ir cannot see, such as a field read of a number) is a RuleError."""
        try:
            return self._build()
        except RuleError:
            raise
        except (SyntaxError, RecursionError, MemoryError, OverflowError) as err:
            raise RuleError([Diagnostic("E301", f"{self.sh.source}: the game is too large or too deeply nested "
                                                f"for the engine ({type(err).__name__}: {err})")]) from None
        except Exception as err:                  # an IR check_ir passed but the generator cannot use
            raise RuleError([Diagnostic("E301", f"{self.sh.source}: not a usable compiled game "
                                                f"({type(err).__name__}: {err})")]) from None

    def _build(self) -> "Compiled":
        ir = self.sh.ir
        ns = self.sh.ns
        ns.update(NAMESPACE)
        ns.update(EFFECTS)
        ns["_ROOM"] = [MEMO_SIZE_LIMIT]        # list elements all the memos of this game may still keep
        g = self.sh.geometry
        if g is not None:
            ns["G"] = g
        self.sh.tables = {}
        for name, entries in ir["tables"].items():
            if all(v.get("k") == "lit" and not isinstance(v.get("v"), (list, dict)) for _, v in entries):
                t: Table | ExprTable = Table()
                for k, v in entries:
                    t[tuple(k) if isinstance(k, list) else k] = v["v"]
                t.name = name
                self.sh.tables[name] = (self.sh.const(t, "T"), True)
            else:
                t = ExprTable()
                t.name = name
                tname = self.sh.const(t, "T")
                for j, (k, v) in enumerate(entries):
                    fn = Fn(self.sh, f"def tv{len(self.sh.tables)}_{j}(m):")
                    fn.emit("return " + self.exprs.ex(v, Ctx(fn, fallback=False)).src)
                    self.sh.add_fn(fn)
                    t[tuple(k) if isinstance(k, list) else k] = f"tv{len(self.sh.tables)}_{j}"
                self.sh.tables[name] = (tname, False)
        for name, d in ir["defs"].items():
            self.gen_def(name, d)
        for name, p in ir["procs"].items():
            self.gen_proc(name, p)
        for i, v in enumerate(ir["vars"]):
            fn = Fn(self.sh, f"def vi{i}(m):")
            fn.emit("return " + self.exprs.ex(v["init"], Ctx(fn, fallback=False)).src)
            self.sh.add_fn(fn)
        self.gen_block_fn("setup", ir["setup"], None)
        for s in ir["steps"]:
            for a in s["actions"]:
                self.gen_action_body(a)
        self.enumerator.plan_actions()
        for si, s in enumerate(ir["steps"]):
            if s["actor"] is not None:
                fn = Fn(self.sh, f"def st_actor{si}(m):", s.get("line"))
                fn.emit("return " + self.exprs.ex(s["actor"], Ctx(fn, fallback=False)).src)
                self.sh.add_fn(fn)
            self.gen_block_fn(f"st_enter{si}", s["enter"], s.get("line"))
            self.enumerator.gen_enumerator(si, s)
            simul = s.get("simultaneous")
            if simul is not None:              # who answers, and what runs once every answer has run
                if simul["seats"] is not None:
                    fn = Fn(self.sh, f"def st_seats{si}(m):", s.get("line"))
                    fn.emit("return " + self.exprs.ex(simul["seats"], Ctx(fn, fallback=False)).src)
                    self.sh.add_fn(fn)
                self.gen_block_fn(f"st_reveal{si}", simul["reveal"], s.get("line"))
        for event, body in ir["handlers"].items():
            self.gen_block_fn(f"on_{event}", body, None)
        for i, c in enumerate(ir["checks"]):
            fn = Fn(self.sh, f"def ck_when{i}{'_' if self.sh.listing_memo_defs else ''}(m):", c.get("line"))
            fn.emit("return " + self.exprs.ex(c["when"], Ctx(fn, fallback=False)).src)
            self.sh.add_fn(fn)
            self.gen_block_fn(f"ck_body{i}", c["body"], c.get("line"))
        for key in ("trigger_order", "estimate", "side"):
            if key in ir:
                fn = Fn(self.sh, f"def {key}(m):", ir.get("decl_lines", {}).get(key))
                fn.emit("return " + self.exprs.ex(ir[key], Ctx(fn, fallback=False)).src)
                self.sh.add_fn(fn)
        for i, x in enumerate(ir.get("scores", [])):
            fn = Fn(self.sh, f"def score{i}(m):", None)
            fn.emit("return " + self.exprs.ex(x, Ctx(fn, fallback=False)).src)
            self.sh.add_fn(fn)
        for i, x in enumerate(ir.get("limits", [])):
            fn = Fn(self.sh, f"def lim_count{i}(m):", x.get("line"))
            fn.emit("return " + self.exprs.ex(x["count"], Ctx(fn, fallback=False)).src)
            self.sh.add_fn(fn)
            self.gen_block_fn(f"lim_body{i}", x["body"], x.get("line"))
        if self.sh.listing_memo_defs:
            self.enumerator.listing_memo(ir["steps"], len(ir["checks"]))
            self.listing_memo_wrappers()
        shown = []
        for name, d in ir["defs"].items():
            if d["show"]:
                shown.append(name)
        # compile
        self.sh.filename = f"<rulelang {self.sh.source}>"
        self.sh.out = self.sh.memo_out + self.sh.out
        source = "\n".join(text for text, _ in self.sh.out) + "\n"
        self.sh.line_map = [None] + [line for _, line in self.sh.out]
        self.sh.python = source
        for code in self.compiled_parts():
            exec(code, ns)                     # engine templates only; see module docstring
        for name, (tname, static) in self.sh.tables.items():
            if not static:
                t = ns[tname]
                for k in list(t):
                    t[k] = ns[t[k]]
        return Compiled(self, shown)

    def compiled_parts(self):
        """The module's code, compiled a few functions at a time (their lines numbered as in the
        whole module): Python's compiler needs ~150 bytes of memory per character it reads at once,
        and a crafted IR of 20 MB could make a module whose compilation alone needs gigabytes.
        Refused past CODE_LIMIT characters in all, or PART_LIMIT in one function."""
        total = sum(len(text) + 1 for text, _ in self.sh.out)
        if total > CODE_LIMIT:
            self.too_large(f"its code would have {total:,} characters, more than {CODE_LIMIT:,}")
        start, size = 0, 0
        for i, (text, _) in enumerate(self.sh.out + [("END", None)]):
            top = text[:1] not in ("", " ")           # a new top-level statement (a def, an alias)
            if top and i > start and (size >= PART_SIZE or text == "END"):
                part = "\n".join(t for t, _ in self.sh.out[start:i]) + "\n"
                if size > PART_LIMIT:
                    self.too_large(f"one of its functions would have {size:,} characters, more than {PART_LIMIT:,}")
                yield compile("\n" * start + part, self.sh.filename, "exec")   # (blank lines: numbered as a whole)
                start, size = i, 0
            size += len(text) + 1

    def too_large(self, why: str) -> NoReturn:
        raise RuleError([Diagnostic("E301", f"{self.sh.source}: the game is too large for the engine: {why}")])

    def def_ctx(self, fn: Fn, params) -> Ctx:
        names = {}
        for j, p in enumerate(params or []):
            names[p] = Name(f"p{j}", 0, ANY)
        return Ctx(fn, names, fallback=False)

    def gen_def(self, name: str, d: dict) -> None:
        i = self.sh.def_index[name]
        params = d["params"] or []
        ps = "".join(f", p{j}" for j in range(len(params)))
        inner = f"d{i}"
        if name in self.sh.memo_defs:
            inner = f"d{i}_"
            cache = self.sh.const({}, "C", ("defmemo", name))    # (shared with prechecks: def_calls.precheck)
            self.sh.memo_cache[f"d{i}"] = cache
            key = _memo_key([f"p{j}" for j in range(len(params))])
            fn = Fn(self.sh, f"def d{i}(m{ps}):", d.get("line"))
            fn.emit("try:")
            fn.emit(f"    return {cache}[{key}]")
            fn.emit("except KeyError:")
            fn.emit("    pass")
            fn.emit("except TypeError:")
            fn.emit(f"    return {inner}(m{ps})")
            fn.emit(f"return _memo_put(_ROOM, {cache}, {key}, {inner}(m{ps}))")
            self.sh.add_fn(fn)
        elif name in self.sh.listing_memo_defs:
            inner = f"d{i}_"                   # (its memo is written by listing_memo_wrappers)
        fn = Fn(self.sh, f"def {inner}(m{ps}):", d.get("line"))
        fn.repeated = name in self.sh.repeated_defs     # its comprehensions are charged to the loop budget
        if ("d", name) not in self.sh.recursive:
            self.charge_entry(fn, self.sh.weights.get(("d", name), 1))
        ctx = self.def_ctx(fn, params)
        ctx.depth = INLINE_DEPTH if ("d", name) in self.sh.recursive else 0
        p = self.exprs.ex(d["body"], ctx)
        body = p.src
        if ("d", name) not in self.sh.recursive:
            self.sh.def_shape[name] = (p.shape, p.elem)      # what a call of it gives, for its callers
        if ("d", name) in self.sh.recursive:
            self.emit_guarded(fn, name, [f"return {body}"])
        else:
            fn.emit(f"return {body}")
        self.sh.add_fn(fn)

    def listing_memo_wrappers(self) -> None:
        """`d{i}` of each def memoised per listing: a look-up in the listing's memo (m.lm), if one
        is open, before its body `d{i}_` — or, when no call of one was written, the body itself."""
        for name in sorted(self.sh.listing_memo_defs, key=self.sh.def_index.get):  # type: ignore[arg-type]  # (each def has an index)
            i = self.sh.def_index[name]
            d = self.sh.ir["defs"][name]
            ps = "".join(f", p{j}" for j in range(len(d["params"] or [])))
            if not self.sh.listing_memo_used:
                self.sh.out.append((f"d{i} = d{i}_", d.get("line")))
                continue
            inner = f"d{i}_"
            fn = Fn(self.sh, f"def d{i}(m{ps}):", d.get("line"))
            fn.emit("lm = m.lm")
            fn.emit(f"if lm is None: return {inner}(m{ps})")
            fn.emit(f"k = ({i}{ps}, )")
            fn.emit("try:")
            fn.emit("    v = lm.get(k, _UNSET)")
            fn.emit("except TypeError:")
            fn.emit(f"    return {inner}(m{ps})")
            fn.emit("if v is _UNSET:")
            fn.emit(f"    v = {inner}(m{ps})")
            fn.emit(f"    if len(lm) < {MEMO_LIMIT}: lm[k] = v")
            fn.emit("return v")
            self.sh.add_fn(fn)

    def charge_entry(self, fn: Fn, weight: int) -> None:
        """At the start of a function whose one run may evaluate `weight` IR nodes (its body and what
        it calls, analysis.weight_of): the units of work that stands for, if any."""
        units = self.facts.units(weight)
        if units:
            fn.emit(f"m.work -= {units}")
            fn.emit("if m.work < 0: _overworked()")

    def emit_guarded(self, fn: Fn, name: str, lines: list[str] | None = None, block=None, ctx=None,
                     kind: str = "d") -> None:
        msg = _lit(f"`{name}` calls itself too deeply (limit {CALL_DEPTH_LIMIT})")
        fn.emit("m.depth += 1")
        fn.emit("try:")
        fn.indent += 1
        fn.emit(f"if m.depth > CALL_DEPTH_LIMIT: _fault({msg})")
        # a recursive call is one unit of the effect's budget, and more if its body is heavy
        fn.emit(f"m.work -= {1 + self.facts.units(self.sh.weights.get((kind, name), 1))}")
        fn.emit("if m.work < 0: _overworked()")
        for x in lines or []:
            fn.emit(x)
        if block is not None:
            self.stmts.block(block, ctx)
        fn.indent -= 1
        fn.emit("finally:")
        fn.emit("    m.depth -= 1")

    def gen_proc(self, name: str, p: dict) -> None:
        i = self.sh.proc_index[name]
        params = p["params"]
        fn = Fn(self.sh, f"def pr{i}(m{''.join(f', p{j}' for j in range(len(params)))}):", p.get("line"))
        ctx = Ctx(fn)
        for j, pname in enumerate(params):
            fn.locals[pname] = f"p{j}"
        if ("p", name) in self.sh.recursive:
            self.emit_guarded(fn, name, block=p["body"], ctx=ctx, kind="p")
        else:
            self.charge_entry(fn, self.sh.weights.get(("p", name), 1))
            self.stmts.block(p["body"], ctx)
        self.sh.add_fn(fn)

    def gen_block_fn(self, pyname: str, stmts: list, line) -> None:
        if line is None:                       # (the set-up's own charge said no line when the work limit
            line = next((x.get("line") for x in stmts if x.get("line")), None)   # was spent at once: a fuzz trial)
        fn = Fn(self.sh, f"def {pyname}(m):", line)
        self.charge_entry(fn, self.facts.weight_of(stmts))
        self.stmts.block(stmts, Ctx(fn))
        self.sh.add_fn(fn)

    def gen_action_body(self, a: dict) -> None:
        ai = len(self.sh.action_meta)
        self.sh.action_index[id(a)] = ai
        names = [p["name"] for p in a["params"]]
        self.sh.action_meta.append((a["name"], names))
        fn = Fn(self.sh, f"def ac{ai}(m, args):", a.get("line"))
        ctx = Ctx(fn)
        # parameters the body never rebinds keep what is known of them (their shape, their size)
        assigned = {x["n"] if x["s"] == "let" else x["v"] if x["s"] == "for" else x["target"]["n"]
                    for x in walk_ir(a["body"]) if x.get("s") in ("let", "for")
                    or (x.get("s") == "set" and x["target"].get("k") == "local")}
        if names:
            pys = [fn.local(n) for n in names]
            fn.emit(f"{', '.join(pys)}{',' if len(pys) == 1 else ''} = args")
            for p, py in zip(a["params"], pys):
                shown = _shown_shape(p)
                if p["mode"] == "subset":
                    fn.emit(f"{py} = list({py})")
                    if p["name"] not in assigned:
                        ctx.names[p["name"]] = Name(py, 0, LIST)
                elif p["name"] not in assigned:
                    ctx.names[p["name"]] = Name(py, 0, shown)
                if p["name"] in ctx.names and p["mode"] == "subset" and shown == SCALAR:
                    ctx.names[p["name"]].elem = SCALAR
        self.charge_entry(fn, self.facts.weight_of(a["body"]))
        self.stmts.block(a["body"], ctx)
        self.sh.add_fn(fn)
        # a subset of known size: one body per size, the subset unrolled as in the enumeration
        for i, p in enumerate(a["params"]):
            if not self.facts.unrolls(p) or p["name"] in assigned:
                continue
            for k in range(max(1, p["min"]["v"]), p["max"]["v"] + 1):
                fn = Fn(self.sh, f"def ac{ai}_{i}_{k}(m, args):", a.get("line"))
                ctx = Ctx(fn)
                targets = []
                for j, q in enumerate(a["params"]):
                    if j == i:
                        elems = [Name(f"e{n}", 0, _shown_shape(q)) for n in range(k)]
                        ctx.names[q["name"]] = Subset(elems)
                        targets.append("(" + "".join(x.src + ", " for x in elems) + ")")
                    else:
                        py = fn.local(q["name"])
                        targets.append(py)
                        if q["mode"] == "subset":
                            fn.emit(f"{py} = list({py})")
                fn.body.insert(0, ("    " + ", ".join(targets) + ("," if len(targets) == 1 else "") + " = args",
                                   fn.line))
                self.charge_entry(fn, self.facts.weight_of(a["body"]))
                self.stmts.block(a["body"], ctx)
                self.sh.add_fn(fn)
                self.sh.body_variants[(ai, k)] = f"ac{ai}_{i}_{k}"
            break


def _ability_tables(self: Compiled, low: Lowerer) -> None:
    """Dispatch tables per hook, event, window, replaced procedure and modified def."""
    ir, ns = low.sh.ir, low.sh.ns
    cards = ir.get("cards", [])
    play = frozenset(z["name"] for z in ir["zones"] if z.get("play"))
    self.card_column = low.sh.column.get("card")
    self.control_columns = [low.sh.column[c] for c in ("controller", "owner") if c in low.sh.column]
    # control that changes hands: a `var controller: player = none per KIND` (set: it controls)
    self.control_var = next((i for i, v in enumerate(ir["vars"]) if v["name"] == "controller"
                             and v["per"] == "component" and v.get("type") == "player"), None)
    self.triggers = [[] for _ in ir.get("events", {})]
    self.builtin_triggers = {"turn_start": [], "turn_end": []}
    self.zone_triggers = {}                # ("enter"/"leave", zone) -> entries
    self.responses = [[] for _ in ir.get("windows", {})]
    self.window_names = list(ir.get("windows", {}))
    self.player_responses = [[] for _ in ir.get("windows", {})]     # `respond …` on the window: no card
    self.first_windows = frozenset(low.sh.window_index[w] for w in ir.get("answered_first", ()))
    self.hooks = [{} for _ in ir.get("hooks", {})]
    self.replacements = [[] for _ in ir["procs"]]
    self.modifiers = [[] for _ in ir["defs"]]
    top_level: dict = {}                   # event -> how many top-level triggers it has
    for a in ir.get("abilities", []):
        if a["card"] is None:
            top_level[a["name"]] = top_level.get(a["name"], 0) + 1
    for a in ir.get("abilities", []):
        card = cards[a["card"]]["name"] if a["card"] is not None else None
        proc = ns[f"pr{low.sh.proc_index[a['proc']]}"] if a["proc"] is not None else None
        where = ns[f"d{low.sh.def_index[a['where']]}"] if a["where"] is not None else None
        zones = (play if a["zones"] is None else "anywhere" if a["zones"] == ["anywhere"]
                 else frozenset(a["zones"]))
        params = ir["procs"][a["proc"]]["params"] if a["proc"] is not None else ir["defs"][a["where"]]["params"]
        arity = len(params) - (1 if card is not None else 0)
        name = a["name"] + (" " + a["zone"] if "zone" in a else "")      # (`enter hand`)
        said = ((a.get("text") if card is not None else None)          # (AbilityEntry.said: a card's
                or _EVENT_WORDS.get(name) or name.replace("_", " "))     #  ability by its name, if it has one)
        label = (f"{card}: {said}" if card is not None else said if top_level[a["name"]] == 1
                 else f"{said} (line {a.get('line', '?')})")     # (several on one event: told apart)
        entry = AbilityEntry(card, proc, where, zones, arity, name, label)
        entry.said = said
        if a["form"] == "trigger":          # (what set it off: `enter Z` is a component's)
            entry.shows = tuple(("comp",) if "zone" in a else ir.get("event_shows", {}).get(a["name"], ()))[:arity]
        form = a["form"]
        if form == "hook":
            if a["zones"] is None:
                entry.zones = "anywhere"           # a hook runs where `run … of` finds the card
            self.hooks[low.sh.hook_index[a["name"]]].setdefault(card, entry)
        elif form == "trigger":
            if "zone" in a:
                self.zone_triggers.setdefault((a["name"], a["zone"]), []).append(entry)
            elif a["name"] in self.builtin_triggers:
                self.builtin_triggers[a["name"]].append(entry)
            else:
                self.triggers[low.sh.event_index[a["name"]]].append(entry)
        elif form == "response" and card is None:
            entry.label = a.get("text") or a["name"]
            self.player_responses[low.sh.window_index[a["name"]]].append(entry)
        elif form == "response":
            self.responses[low.sh.window_index[a["name"]]].append(entry)
        elif form == "replace":
            for p in a["procs"]:
                self.replacements[low.sh.proc_index[p]].append(entry)
        else:
            self.modifiers[low.sh.def_index[a["name"]]].append(entry)



# Closed dispatch: the only lowering for each node kind irspec.py allows, as (the part, its method);
# a kind with no method, or two, fails at import, and a test compares these with irspec's tables.
Lowerer.EXPR_LOWERING = _lowering("x_", (
    "lit", "local", "builtin", "var", "zone", "def", "option", "un", "bin", "in", "range", "if", "attr",
    "cellattr", "index", "table", "call", "text", "list", "comp", "mods", "can", "sortby", "flat", "ord"))
Lowerer.STMT_LOWERING = _lowering("s_", (
    "move", "shuffle", "eliminate", "readmit", "refuse", "turn_order", "set", "append", "remove", "let", "if", "for", "while", "repeat", "goto", "end_turn", "finish", "call",
    "create", "log", "create_cards", "choose", "may", "emit", "open", "run", "resolve_triggers", "reveal", "grant"))


# The engine's own events as a question names an ability on them ("Smoke Bomb: start of turn");
# a rule file's events read as their names, with spaces for `_`.
_EVENT_WORDS = {"turn_start": "start of turn", "turn_end": "end of turn", "round_start": "start of round",
                "round_end": "end of round"}


class AbilityEntry:
    """One ability as the engine dispatches it (see effects.py)."""
    __slots__ = ("card", "proc", "where", "zones", "arity", "name", "label", "said", "shows")

    def __init__(self, card, proc, where, zones, arity: int, name: str, label: str):
        self.card, self.proc, self.where, self.zones = card, proc, where, zones
        self.arity, self.name, self.label = arity, name, label
        self.said = _EVENT_WORDS.get(name) or name.replace("_", " ")    # its event, as a player reads it
        self.shows: tuple = ()          # how the event's arguments read (Trigger.shows)


class Compiled:
    """The functions of one compiled game, as the engine uses them."""
    _abilities = _ability_tables

    # the dispatch tables _ability_tables makes
    card_column: int | None
    control_columns: list[int]
    control_var: int | None
    triggers: list[list[AbilityEntry]]
    builtin_triggers: dict[str, list[AbilityEntry]]
    zone_triggers: dict[tuple[str, str], list[AbilityEntry]]
    responses: list[list[AbilityEntry]]
    window_names: list[str]
    player_responses: list[list[AbilityEntry]]
    first_windows: frozenset[int]
    hooks: list[dict[str | None, AbilityEntry]]
    replacements: list[list[AbilityEntry]]
    modifiers: list[list[AbilityEntry]]

    def __init__(self, low: Lowerer, shown: list[str]):
        ns = low.sh.ns
        ir = low.sh.ir
        self.lowerer = low
        self._abilities(low)
        self.var_init = [ns[f"vi{i}"] for i in range(len(ir["vars"]))]
        self.setup = ns["setup"]
        self.steps = {}
        for si, s in enumerate(ir["steps"]):
            enter = ns[f"st_enter{si}"] if s["enter"] else None
            self.steps[s["name"]] = (ns.get(f"st_actor{si}"), enter, ns[f"st_enum{si}"])
        # simultaneous steps: name -> (who answers, or None: every player still in; the `reveal` block)
        self.simultaneous = {s["name"]: (ns.get(f"st_seats{si}"), ns[f"st_reveal{si}"])
                             for si, s in enumerate(ir["steps"]) if s.get("simultaneous") is not None}
        self.handlers = {event: ns[f"on_{event}"] for event in ir["handlers"]}
        self.checks = [(ns[f"ck_when{i}"], ns[f"ck_body{i}"]) for i in range(len(ir["checks"]))]
        self.limits = [(ns[f"lim_count{i}"], ns[f"lim_body{i}"]) for i in range(len(ir.get("limits", [])))]
        self.scores = [ns[f"score{i}"] for i in range(len(ir.get("scores", [])))]
        self.trigger_order = ns.get("trigger_order")        # who orders waiting triggers (None: current)
        self.estimate = ns.get("estimate")                  # `estimate`: how well `me` is doing, or None
        self.side = ns.get("side")                          # `side`: the side `me` played, or None
        self.defs = {name: ns[f"d{low.sh.def_index[name]}"] for name in ir["defs"]}
        self.shown = [(name, self.defs[name], ir["defs"][name].get("as", "plain"),
                       make_texter(ir["defs"][name].get("as", "plain"), low.sh.enum_text, low.sh.geometry))
                      for name in shown]
        self.labels = {name: ir["defs"][name]["label"] for name in shown if "label" in ir["defs"][name]}
        self.n_actions = len(low.sh.action_meta)
        # can an action stop half-way for a decision? (then the engine keeps a base to replay from)
        # (a game that reveals keeps per-match knowledge, which the same machinery carries)
        # (a simultaneous step too: its last answer runs every answer's action, from a base kept to undo it)
        self.can_pause = bool(ir.get("abilities")) or bool(self.simultaneous) or any(x.get("s") in ("choose", "may", "open", "reveal", "grant")
                                                           for x in walk_ir(ir))
        self.has_grants = any(x.get("s") == "grant" for x in walk_ir(ir))
        self.pause_free = pause_free_actions(ir) if self.can_pause else frozenset()
        self.intern_dims = list(low.sh.intern_dims)          # per table: nested-list dims, or None (a dict)
        # does listing the legal actions never use the random generator?
        self.pure_enumeration = not any(
            x.get("k") == "call" and x.get("f") in RANDOM_CALLS or x.get("k") == "def" and x["n"] in low.sh.impure_defs
            or x.get("k") == "call" and x.get("f") == "reachable" and x["a"][2].get("v") in low.sh.impure_defs
            for s in ir["steps"] for a in s["actions"] for x in walk_ir([a.get("require"), a["params"], s["actor"]]))

