"""The legal-action enumerator of each step: nested loops over the parameters' domains,
`require` conjuncts hoisted to the shallowest loop that binds their names, interning.
"""
from __future__ import annotations

from collections import Counter
import io
import keyword
import re
import tokenize
from typing import NamedTuple

from .analysis import _ir_key, _shown_shape
from .constants import INTERN_CELLS, LIST, SMALL_DOMAIN
from .frame import _join, _known, Ctx, Name, P, Subset
from .runtime import _scoped as runtime_scoped, _subset_threshold, _subsets_charge
from .writer import _lit, Fn
from ...ir.sight import names_by_place
from .parts import Part

# (memo_readers: the generated module's top-level functions and aliases, and what their text calls)
_TOP_DEF = re.compile(r"def (\w+)\(")
_TOP_ALIAS = re.compile(r"(\w+) = ")
_CALLED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
_WORD = re.compile(r"\b[A-Za-z_]\w*\b")
_MATCH_CALL = re.compile(r"\bm(?:\.\w+)+\(")
_ACTION_BODY = re.compile(r"ac\d+(?:_\d+)*")   # an action's body: named in a listing (_mkact keeps it), not run
_UNSAFE_BUILTINS = {"eval", "exec", "compile", "__import__", "getattr", "setattr", "delattr", "open", "input",
                    "breakpoint", "globals", "locals", "vars"}


_PLAIN_OPS = {"(", ")", "==", "!="}
_PLAIN_WORDS = {"and", "or", "not", "is", "if", "else", "True", "False", "None"}


def _cannot_fail(src: str) -> bool:
    """Is this generated test one that can neither raise nor do anything but answer: names, literals,
    `==`/`!=`/`is`, `not`/`and`/`or`/`if … else` and brackets — no call, index, attribute,
    arithmetic or ordering (a comparison of builtin values by equality never raises)?"""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(src).readline)
                  if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)]
    except (tokenize.TokenError, SyntaxError):
        return False
    prev = None
    for t in tokens:
        if t.type == tokenize.OP:
            if t.string not in _PLAIN_OPS or (t.string == "(" and prev is not None and
                                             (prev.type in (tokenize.NAME, tokenize.STRING) and prev.string not in _PLAIN_WORDS
                                              or prev.string == ")")):
                return False
        elif t.type == tokenize.NAME:
            if keyword.iskeyword(t.string) and t.string not in _PLAIN_WORDS:
                return False
        elif t.type not in (tokenize.STRING, tokenize.NUMBER):
            return False
        prev = t
    return bool(tokens)


class ActionEnumerator(Part):
    """The Lowerer's part `enumerator`: each step's legal-action enumerator (parts.Part)."""

    def conjuncts(self, e, ctx: Ctx) -> list[P]:
        """The `and`-conjuncts of a require, through inlined defs and unrolled `all`: a node kind with
        a way of its own (CONJUNCT_KINDS) first, then a quantifier tested by a loop, else the whole."""
        if e is None:
            return []
        split = self.CONJUNCT_KINDS.get(e["k"])
        parts = split(self, e, ctx) if split is not None else None
        if parts is not None:
            return parts
        loop = self.quantifier_conjunct(e, ctx)
        if loop is not None:
            return [loop]
        p = self.exprs.ex(e, ctx)
        if _known(p) and p.const:
            return []
        return [p]

    def conjuncts_of_logic(self, e, ctx: Ctx) -> list[P] | None:
        """`a and b`: both sides' conjuncts (none past a constant false); `a or b` with a known `a`:
        none, or b's. None where the node is a single conjunct."""
        if e["op"] == "and":
            left = self.conjuncts(e["l"], ctx)
            if any(_known(p) and not p.const for p in left):
                return left
            return left + self.conjuncts(e["r"], ctx)
        if e["op"] == "or":
            first = self.exprs.ex(e["l"], ctx)
            if _known(first):
                return [] if first.const else self.conjuncts(e["r"], ctx)
        return None

    def conjuncts_of_if(self, e, ctx: Ctx) -> list[P] | None:
        """`if` with a known condition: the conjuncts of the branch taken."""
        c = self.exprs.ex(e["c"], ctx)
        if _known(c):
            return self.conjuncts(e["t"] if c.const else e["e"], ctx)
        return None

    def conjuncts_of_def(self, e, ctx: Ctx) -> list[P] | None:
        """A pure def that can be inlined: the conjuncts of its body."""
        inl = self.defs.inline(e["n"], e["a"], ctx)
        if inl is not None and e["n"] not in self.sh.impure_defs:
            return self.conjuncts(inl[0], inl[1])
        return None

    def conjuncts_of_call(self, e, ctx: Ctx) -> list[P] | None:
        """`all` of an unrolled pure comprehension: one conjunct per element (`where` as a premise)."""
        if e["f"] == "all" and e["a"][0]["k"] == "comp":
            parts = self.comps.unrolled(e["a"][0], ctx)
            if parts is not None and all(x.pure and (w is None or w.pure) for x, w in parts):
                out = []
                for x, w in parts:
                    out.append(x if w is None else P(f"(not {w.t} or {x.t})", *_join(x, w)))
                return out
        return None

    CONJUNCT_KINDS = {"bin": conjuncts_of_logic, "if": conjuncts_of_if, "def": conjuncts_of_def,
                      "call": conjuncts_of_call}

    def quantifier_conjunct(self, e, ctx: Ctx) -> P | None:
        """`all(...)`, `any(...)` and their negations over a comprehension: tested by a plain loop in
        the enumerator (no list, no function call per test); `not all(x)` is `any(not x)`. The
        conjunct carries its loop (P.loop); None where it is not such a test."""
        negated = e["k"] == "un" and e["op"] == "not"
        q = e["x"] if negated else e
        if not (q["k"] == "call" and q["f"] in ("all", "any") and q["a"][0]["k"] == "comp" and not ctx.in_comp
                and self.comps.unrolled(q["a"][0], ctx) is None):
            return None
        p = self.exprs.ex(e, ctx)
        if not p.pure or _known(p):
            return None
        c = q["a"][0]
        it = self.exprs.seq(c["in"], ctx)
        var = ctx.fn.new("q")
        inner = ctx.child()
        inner.names[c["v"]] = Name(var, 0, it.elem)
        x = self.exprs.ex(c["x"], inner)
        w = self.exprs.ex(c["where"], inner) if c.get("where") is not None else None
        kind = q["f"] if not negated else {"all": "any", "any": "all"}[q["f"]]
        test = x.t if not negated else f"(not {x.t})"
        p.loop = (kind, var, it.src, test, w.t if w is not None else None)
        return p

    def gen_enumerator(self, si: int, step: dict) -> None:
        # (named st_enum{si}_ when some defs are memoised while a listing runs: see listing_memo)
        name = f"st_enum{si}_" if self.sh.listing_memo_defs else f"st_enum{si}"
        fn = Fn(self.sh, f"def {name}(m):", step.get("line"))
        fn.enumerator = True           # a require is tested once per binding: its loops are charged
        fn.emit("out = []")            # the legal actions in the rules' order (see emit_leaf)
        fn.emit("IU = m.intern")
        fn.emit(f"TX = IU[-1][{si}]")
        ctx = Ctx(fn, memo={})
        self.sh.shared_domains = {}       # a domain computed once per listing -> [its charge's line, units]
        for a in step["actions"]:
            fn.line = a.get("line")
            self.gen_action_enum(a, ctx)
        for at, units in self.sh.shared_domains.values():      # (charged once, for all the actions using it)
            text, line = fn.body[at]
            fn.body[at] = (text.replace("* UNITS", f"* {units}"), line)
        # two actions of one text are possible only once two bindings showed one text in this
        # universe (TX.clash), or where a binding can repeat (a domain whose elements may repeat:
        # `rep`, see gen_action_enum)
        if all(self.distinct_bindings(a) for a in step["actions"]):
            fn.emit("return out if not TX.clash else _told_apart(m, out)")
        else:
            fn.body.insert(0, ("    rep = False", fn.line))
            fn.emit("return out if not (TX.clash or rep) else _told_apart(m, out)")
        # memo locals start unset
        memo_inits = [(f"    {name} = _UNSET", step.get("line")) for name in ctx.memo.values()]
        self.add_fn_with_prelude(fn, memo_inits)

    def distinct_bindings(self, a: dict) -> bool:
        """Does the enumeration of `a` never give one binding twice (every domain's elements are
        distinct ids: a zone, the players, cells; so are the subsets of such a domain)?"""
        return all(self.facts.ids_of(p["domain"]) is not None for p in a["params"])

    def listing_memo(self, steps: list, checks: int) -> None:
        """The enumerators, and the conditions of `when` rules (tested after every action), each
        behind a wrapper that opens a memo of defs (`m.lm`) for as long as it runs — nothing
        changes meanwhile — and closes it however it ends; only if some call of a memoised def
        was written (with list arguments a def is called directly: a list cannot be a memo key)."""
        names = [(f"st_enum{si}", step.get("line")) for si, step in enumerate(steps)]
        names += [(f"ck_when{i}", None) for i in range(checks)]
        reads = self.memo_readers() if "bare" in self.sh.opt else None
        for name, line in names:
            if not self.sh.listing_memo_used or reads is not None and not reads(f"{name}_"):
                self.sh.out.append((f"{name} = {name}_", line))
                continue
            wrap = Fn(self.sh, f"def {name}(m):", line)
            wrap.emit("m.lm = {}")
            wrap.emit("try:")
            wrap.emit(f"    return {name}_(m)")
            wrap.emit("finally:")
            wrap.emit("    m.lm = None")
            self.sh.add_fn(wrap)

    def memo_readers(self):
        """`bare`: a test `reads(name)` — may the generated function `name`, or anything it calls,
        read the memo of defs a listing opens (`m.lm`)? Worked out from the generated source as
        written so far: a function reads it if its text does (`lm = m.lm`: a def memoised per
        listing, an emptiness test) or if it names a function that may. Anything else it calls is
        looked up in the module's namespace: a Python builtin, or a function of the runtime
        modules and the boards, which never read it (but `_scoped`, which opens one); any other
        call — an effect's function, a method of the match, a name not written yet (the defs'
        memo wrappers come later), a table whose entries are functions — counts as reading it. An
        action's body (`ac…`) named but not called is not followed: a listing only keeps it.
        Where nothing can read it, the listing needs no memo opened and closed around it."""
        import builtins
        sh = self.sh
        if any(not static for _, static in sh.tables.values()):
            return lambda name: True            # (a table of expressions runs functions named in it)
        bodies: dict[str, str] = {}
        current = None
        for text, _ in sh.memo_out + sh.out:
            top = _TOP_DEF.match(text) or _TOP_ALIAS.match(text)
            if top is not None:
                current = top.group(1)
                bodies[current] = bodies.get(current, "") + text[top.end():] + "\n"
            elif text[:1] in (" ", "\t") and current is not None:
                bodies[current] += text + "\n"
            else:
                current = None
        safe_modules = {"rulelang.engine.codegen.runtime", "rulelang.engine.codegen.runtime_actions",
                        "rulelang.engine.codegen.runtime_moves", "rulelang.engine.boards", "itertools", "builtins"}

        def called_safe(word: str) -> bool:
            if word in bodies:
                return True                     # (a generated function: followed below)
            value = sh.ns.get(word, getattr(builtins, word, None) if word not in sh.ns else None)
            if value is None or value is runtime_scoped:
                return False
            if not callable(value):
                return True                     # (a constant: a list, a dict, a static table)
            return getattr(value, "__module__", None) in safe_modules and word not in _UNSAFE_BUILTINS

        verdict: dict[str, bool] = {}

        def reads(name: str) -> bool:
            if name in verdict:
                return verdict[name]
            verdict[name] = True                # (while it is looked at: a call back to it proves nothing)
            body = bodies.get(name)
            if body is None:                    # (not a function of the generated module: it may read it)
                return True
            called = {w for w in _CALLED.findall(body) if not keyword.iskeyword(w)}
            result = "m.lm" in body or _MATCH_CALL.search(body) is not None \
                or any(not called_safe(w) for w in called) \
                or any(reads(w) for w in set(_WORD.findall(body))
                       if w in bodies and w != name and (w in called or not _ACTION_BODY.fullmatch(w)))
            verdict[name] = result
            return result
        return reads

    def add_fn_with_prelude(self, fn: Fn, prelude) -> None:
        lines = fn.lines()
        self.sh.out.extend(lines[:1] + prelude + lines[1:])
        self.sh.out.append(("", None))

    def gen_action_enum(self, a: dict, ctx: Ctx) -> None:
        """Nested loops over the parameters of one action, adding its legal bindings to `out`."""
        fn = ctx.fn
        tab = fn.new("I")
        fn.emit(f"{tab} = IU[{self.sh.action_index[id(a)]}]")
        distinct = self.distinct_bindings(a)
        if not distinct:                        # (where it starts in `out`: see the end)
            start = fn.new("s")
            fn.emit(f"{start} = len(out)")
        # subsets of components: {A, B} and {B, A'} of copies A, A' are one choice (_one_per_subset)
        subsets = tuple(k for k, p in enumerate(a["params"])
                        if p.get("mode") == "subset" and p.get("show") in ("comp", "comp_or_player"))
        if subsets:
            first = fn.new("s")
            fn.emit(f"{first} = len(out)")
        fn.emit("for _ in _ONCE:")
        fn.indent += 1
        unroll = [self.facts.unrolls(p) for p in a["params"]]
        only = a["params"][0]["name"] if len(a["params"]) == 1 else None
        cache = ("intern" in self.sh.opt and only is not None and a.get("require") is not None
                 and self.facts.element_static(a["require"], {only}))
        # the units of work one binding stands for: its loops' turns, its require, its later domains
        w = 1 + self.facts.units(self.facts.weight_of([a.get("require"), [[p["domain"], p.get("min"), p.get("max")]
                                                               for p in a["params"]]]))
        self.sh.enum_state = {"a": a, "tab": tab, "unroll": unroll, "combo": {}, "ktab": {}, "kcache": cache, "w": w,
                           "folded": set()}
        self.enum_param(0, ctx.child(), 0, 0)
        fn.indent -= 1
        if subsets:
            # (a subset of one zone named without the parameters: that zone, to look for copies
            # there only — a card game's two alike wild cards lie together aside, never in the hand played from)
            d = a["params"][subsets[0]]["domain"]
            plain = len(subsets) == 1 and d.get("k") == "zone" and (
                d.get("i") is None or d["i"] == {"k": "builtin", "n": "me"})
            zone = self.exprs.seq(d, ctx).src if plain else None
            # (inline, the usual answer at once: no copies, or none in that zone)
            fn.emit(f"if len(out) > {first} + 1:")
            fn.emit("    kc = TX.copies")
            fn.emit("    if kc is None: kc = _copy_ids(m, TX)")
            test = "kc" if zone is None else f"kc and len(kc.intersection({zone})) > 1"     # (two at least)
            fn.emit(f"    if {test}: _one_per_subset(m, out, {first}, {subsets!r}, {zone or 'None'})")
        if not distinct:                        # a binding may have come twice: one text twice?
            # (not asked once the step's texts clash: the listing is told apart anyway, and a clash stays)
            fn.emit(f"if not TX.clash and len(out) > {start} + 1 and len({{x.text for x in out[{start}:]}}) < len(out) - {start}: rep = True")

    def enum_param(self, i: int, ctx: Ctx, level: int, floor: int) -> None:
        """Loops for params[i:]. Conjuncts are placed only below the last unrolled subset's branch
        point, where every loop belongs to one size choice."""
        st = self.sh.enum_state
        fn, params, unroll = ctx.fn, st["a"]["params"], st["unroll"]
        later = [j for j in range(i, len(params)) if unroll[j]]
        if not later:
            self.enum_rest(i, ctx, level, floor, None)
            return
        p = params[i]
        if not unroll[i]:
            self.emit_binder(p, ctx, level + 1)
            self.enum_param(i + 1, ctx, level + 1, floor)
            fn.indent -= 1
            return
        items, n = self.emit_items(p, ctx)
        lo, hi = p["min"]["v"], p["max"]["v"]
        safe = _subset_threshold(lo, hi)
        if safe is not None:                   # a domain this small always has few enough subsets
            fn.emit(f"if {n} > {safe}: _subset_limit({n}, {_lit(lo)}, {_lit(hi)})")
        # the subsets of every size (and the partial ones on the way) charged to the listing's budget
        # at once, before the nested loops that list them (a table of their numbers for short domains)
        table = self.sh.const([_subsets_charge(d, lo, hi) for d in range(SMALL_DOMAIN)], "K", ("subsets", lo, hi))
        fn.emit(f"m.work -= ({table}[{n}] if {n} < {SMALL_DOMAIN} else _subsets_charge({n}, {lo}, {hi})) * {st['w']}")
        fn.emit("if m.work < 0: _overworked()")
        for k in range(max(0, p["min"]["v"]), p["max"]["v"] + 1):
            fn.emit("for _ in _ONCE:")
            fn.indent += 1
            elems = [(fn.new("i"), fn.new("a")) for _ in range(k)]
            sub = ctx.child()
            ids = self.facts.ids_of(p["domain"])
            names = [Name(el, level + 1 + j, _shown_shape(p), ids, binder=True) for j, (_, el) in enumerate(elems)]
            sub.names[p["name"]] = Subset(names)
            if 1 <= k <= 2 and len(st["a"]["params"]) == 1 and ids == "comp" and p.get("show") == "comp" \
                    and "intern" in self.sh.opt:
                # a lone small subset of components: its actions interned in nested lists by id
                tab = fn.new("I")
                fn.emit(f"{tab} = IU[{len(self.sh.intern_dims)}]")
                self.sh.intern_dims.append(["comp"] * k)
                st["ktab"][k] = tab
                if st["kcache"]:
                    for x in names:                # their fields are read only on a cache miss
                        x.derive = None
                if k == 2:
                    names[0].row(tab)              # the row of the pair table, read once per first element
            pending = {"items": items, "n": n, "elems": elems, "k": k, "names": names}
            if len(later) == 1:
                self.enum_rest(i + 1, sub, level + k, level, pending)
            else:
                self.emit_elements(pending, fn, None)
                self.enum_param(i + 1, sub, level + k, floor)
                fn.indent -= k
            fn.indent -= 1

    def emit_elements(self, pending: dict, fn: Fn, checks) -> None:
        """The k index loops of an unrolled subset (i0 < i1 < ...), with checks after each."""
        elems, k = pending["elems"], pending["k"]
        for j, (ix, el) in enumerate(elems):
            start = "0" if j == 0 else f"{elems[j - 1][0]} + 1"
            if j == k - 1:                         # the last element: no deeper loop needs its index
                fn.emit(f"for {el} in {pending['items']}{'' if j == 0 else f'[{elems[j - 1][0]} + 1:]'}:")
                fn.indent += 1
            else:
                fn.emit(f"for {ix} in range({start}, {pending['n']} - {k - 1 - j}):")
                fn.indent += 1
                fn.emit(f"{el} = {pending['items']}[{ix}]")
            if checks is None:
                pending["names"][j].emit_derived(fn)
                continue
            # the checks first (kept aside), then the reads they use, the checks, the other reads
            mark = len(fn.body)
            checks(j)
            emitted = fn.body[mark:]
            del fn.body[mark:]
            later = pending["names"][j].emit_derived(fn, "\n".join(text for text, _ in emitted))
            fn.body.extend(emitted)
            for text in later:
                fn.emit(text)

    def emit_items(self, p, ctx: Ctx) -> tuple[str, str]:
        fn = ctx.fn
        d = self.domain(p, ctx)
        items, n = fn.new("it"), fn.new("n")
        fn.emit(f"{items} = {d.src if d.shape == LIST else 'list(' + d.src + ')'}")
        fn.emit(f"{n} = len({items})")
        return items, n

    def domain(self, p, ctx: Ctx) -> P:
        """A parameter's domain as a sequence; pure parameter-free domains are computed once per pass."""
        d = self.exprs.seq(p["domain"], ctx)
        if d.level == 0 and d.pure and not d.cheap and ctx.memo is not None and not ctx.in_comp:
            key = _ir_key(p["domain"])      # level 0: reads no parameter, only state
            name = ctx.memo.get(key)
            if name is None:
                name = ctx.memo[key] = ctx.fn.new("dm")
            ctx.fn.emit(f"if {name} is _UNSET: {name} = {d.src}")
            return P(name, 0, True, shape=LIST, cheap=True)
        return d

    def plan_binder(self, p, ctx: Ctx, level: int) -> None:
        """Bind a param's name (mode one, or a subset of unknown size as one list) at `level`."""
        var = ctx.fn.new("b")
        if p["mode"] == "one":
            b = ctx.names[p["name"]] = Name(var, level, _shown_shape(p), self.facts.ids_of(p["domain"]), binder=True)
            d = self.exprs.seq(p["domain"], ctx)
            if d.pure and "member" in self.sh.opt:
                b.domain = d.src
        else:
            ctx.names[p["name"]] = Name(f"list({var})", level, LIST)
            self.sh.enum_state["combo"][p["name"]] = var

    def emit_binder(self, p, ctx: Ctx, level: int) -> None:
        """The loop over one param's domain; its name must be planned already (or is planned here)."""
        fn = ctx.fn
        if p["name"] not in ctx.names:
            self.plan_binder(p, ctx, level)
        b = ctx.names[p["name"]]
        d = self.domain(p, ctx)
        if p["mode"] == "one":
            st = self.sh.enum_state
            w = st["w"]
            # the next parameter's domain, if it is short whatever the position (a cell's neighbours:
            # analysis.small_source), is charged here, by the most elements it has, for each element
            # of this one: the inner loop then costs no line of its own
            params = st["a"]["params"]
            i = next(j for j, q in enumerate(params) if q is p)
            nxt = params[i + 1] if i + 1 < len(params) else None
            few = (self.facts.small_source(nxt["domain"]) if nxt is not None and nxt["mode"] == "one"
                   and not st["unroll"][i + 1] else 0)
            if few:
                st["folded"].add(nxt["name"])  # type: ignore[index]  # (few: nxt is not None)
            if p["name"] in st["folded"] or ((d.small or d.paid) and w == 1 and not few):
                fn.emit(f"for {b.src} in {d.src}:")
            elif level == 1 and d.src in ctx.memo.values():
                # an outermost domain computed once per listing (several actions may share it): its
                # length charged once, for every action that loops over it (UNITS: their sum)
                shared = self.sh.shared_domains.get(d.src)
                if shared is None:
                    shared = self.sh.shared_domains[d.src] = [len(fn.body), 0]
                    fn.emit(f"m.work -= len({d.src}) * UNITS")
                    fn.emit("if m.work < 0: _overworked()")
                shared[1] += w * (1 + few)
                fn.emit(f"for {b.src} in {d.src}:")
            else:                                  # (its length charged to the listing's budget)
                dom = fn.new("dom")
                w *= 1 + few
                fn.emit(f"{dom} = {d.src}")
                fn.emit(f"m.work -= len({dom})" if w == 1 else f"m.work -= len({dom}) * {w}")
                fn.emit("if m.work < 0: _overworked()")
                fn.emit(f"for {b.src} in {dom}:")
            fn.indent += 1
            b.emit_derived(fn)
            return
        else:
            var = self.sh.enum_state["combo"][p["name"]]
            items = fn.new("it")
            fn.emit(f"{items} = list({d.src})")
            lo = self.exprs.ex(p["min"], ctx).src if p.get("min") is not None else "1"
            hi = self.exprs.ex(p["max"], ctx).src if p.get("max") is not None else f"len({items})"
            fn.emit(f"for {var} in _subsets(m, {items}, {lo}, {hi}, {self.sh.enum_state['w']}):")
        fn.indent += 1

    def enum_rest(self, i: int, ctx: Ctx, level: int, floor: int, pending) -> None:
        """Params[i:] (none an unrolled subset) and the pending subset's element loops: place each
        conjunct of the require at the shallowest level (>= floor) where its names are bound, in
        order, then emit the loops, the checks and the leaf."""
        st = self.sh.enum_state
        a, fn = st["a"], ctx.fn
        params = a["params"]
        rest = params[i:]
        for j, p in enumerate(rest):
            self.plan_binder(p, ctx, level + 1 + j)
        leaf = level + len(rest)
        domains_pure = all(self.exprs.seq(p["domain"], ctx).pure for p in params)
        placed: dict[int, list[P]] = {}
        last = floor                           # (the deepest level of a conjunct placed so far)
        barrier = floor                        # (… of one placed so far that may fail or do more than answer)
        hoisted = False
        for c in self.conjuncts(a.get("require"), ctx):
            if not c.pure or not domains_pure or "hoist" not in self.sh.opt:
                last = barrier = leaf
            # a test that cannot fail may go before earlier ones that cannot either (`and` of such
            # tests is one answer in any order): `piece.base == b and card.kind == action` tests the kind
            # in the card's loop, before the loops of the later parameters
            if c.loop is None and not _known(c) and "reorder" in self.sh.opt and _cannot_fail(c.t):
                at = max(c.level, barrier)
            else:
                at = barrier = max(c.level, last)
            last = max(last, at)
            placed.setdefault(at, []).append(c)
            hoisted = hoisted or at < leaf
        dead = [l for l, cs in placed.items() for c in cs if _known(c) and not c.const]
        if dead and all(c.pure for l, cs in placed.items() if l <= min(dead) for c in cs):
            fn.emit("pass")                # a conjunct is constant false here: nothing is legal
            return
        dims = self.sh.intern_dims[self.sh.action_index[id(a)]]
        if dims is not None and len(params) >= 2 and i == 0:
            first = ctx.names[params[0]["name"]]
            if isinstance(first, Name) and not first.frozen:
                first.row(st["tab"])           # the row of the action's intern table, once per value
        dfr = full = None
        if hoisted:
            dfr = fn.new("dfr")
            fn.emit(f"{dfr} = False")
            full = self.exprs.ex(a["require"], ctx)
        depth = 0
        # a lone small subset whose require reads only its components' fields: the verdict on each
        # combination is kept with its interned action (False: not legal), per universe
        cached = pending is not None and not rest and pending["k"] in st["ktab"] and st["kcache"]
        skip = leaf if cached else None
        self.emit_checks(placed.get(floor, []) if floor != skip else [], dfr, leaf, floor, fn)
        if pending is not None:
            self.emit_elements(pending, fn, lambda j: self.emit_checks(
                placed.get(floor + 1 + j, []) if floor + 1 + j != skip else [], dfr, leaf, floor + 1 + j, fn))
            depth += pending["k"]
        for j, p in enumerate(rest):
            self.emit_binder(p, ctx, level + 1 + j)
            depth += 1
            self.emit_checks(placed.get(level + 1 + j, []), dfr, leaf, level + 1 + j, fn)
        if cached:
            cs = placed.get(leaf, [])
            cond = " and ".join(f"({x.t})" for x in cs) or "True"
            if dfr is not None:
                cond = f"({full.t} if {dfr} else ({cond}))"  # type: ignore[union-attr]  # (dfr: full is set)
            self.emit_leaf(a, ctx, fn, verdict=cond)
        else:
            if dfr is not None:
                fn.emit(f"if {dfr} and not {full.t}: continue")  # type: ignore[union-attr]  # (dfr: full is set)
            self.emit_leaf(a, ctx, fn)
        fn.indent -= depth

    def emit_checks(self, cs: list[P], dfr, leaf: int, level: int, fn: Fn) -> None:
        """Each conjunct placed at this level: `continue` (prune) when false. A hoisted one (above
        the leaf) that raises sets the deferral flag instead, and stops pruning."""
        for c in cs:
            hoisted = not (level >= leaf or dfr is None)
            if hoisted:
                fn.emit(f"if not {dfr}:")
                fn.indent += 1
                fn.emit("try:")
                fn.indent += 1
            if c.loop is None:
                fn.emit(f"if not {c.t}: continue")
            else:
                kind, var, it, x, w = c.loop
                ok = fn.new("ok")
                fn.emit(f"{ok} = {kind == 'all'}")
                items = fn.new("t")
                fn.emit(f"{items} = {it}")
                fn.emit(f"m.work -= len({items})")           # once per binding: charged to the budget
                fn.emit("if m.work < 0: _overworked()")
                fn.emit(f"for {var} in {items}:")
                test = x if kind == "any" else f"not {x}"
                fn.emit(f"    if {test if w is None else f'{w} and {test}'}:")
                fn.emit(f"        {ok} = {kind != 'all'}")
                fn.emit("        break")
                fn.emit(f"if not {ok}: continue")
            if hoisted:
                fn.indent -= 1
                fn.emit("except _FAULTS:")
                fn.emit(f"    {dfr} = True")
                fn.indent -= 1

    def emit_leaf(self, a: dict, ctx: Ctx, fn: Fn, verdict: str | None = None) -> None:
        """Intern the action for this binding (its text is built once per universe) and add it to
        `out`, in the rules' order (two of one text are told apart at the end: gen_enumerator).
        Where it is kept depends on its parameters: see the leaf_* methods."""
        st = self.sh.enum_state
        ai = self.sh.action_index[id(a)]
        args, texts, hashable = self.leaf_arguments(a, ctx, fn)
        key = "(" + "".join(x + ", " for x in args) + ")"
        hides = names_by_place(self.sh.ir, a)    # (a card its actor cannot see: named by its place)
        text = self.leaf_text(a, ctx, args, texts, hides)
        meta = self.sh.const(self.sh.action_meta[ai], "M")
        body = f"ac{ai}"
        for p in a["params"]:
            b = ctx.names[p["name"]]
            if isinstance(b, Subset):
                body = self.sh.body_variants.get((ai, len(b.elems)), body)
                break
        if not self.sh.unique_texts[ai]:           # how its arguments show, for _same_text (_told_apart)
            meta = self.leaf_shows_meta(a, ai, ctx)
        leaf = _Leaf(st["tab"], text, body, key, meta)
        if hides:       # (its text depends on where the component is, and who acts: made afresh)
            meta = self.leaf_shows_meta(a, ai, ctx)
            fn.emit(f"out.append(_mkact(m, None, None, {text}, {body}, {key}, {meta}))")
            fn.emit("TX.clash = True")          # (texts made afresh may meet: told apart at the end)
            return
        lone = ctx.names[a["params"][0]["name"]] if len(a["params"]) == 1 else None
        if isinstance(lone, Subset) and len(lone.elems) in st["ktab"]:
            self.leaf_in_subset_table(lone, leaf, fn, verdict)
        elif self.sh.intern_dims[ai] is not None:
            self.leaf_in_table(a, ctx, args, leaf, fn)
        elif hashable:
            self.leaf_in_dict(a, ctx, args, leaf, fn)
        else:
            self.leaf_in_dict_if_hashable(leaf, fn)
        # listed in order; two of one text are told apart at the end, if they can occur at all
        # (gen_enumerator, runtime._told_apart)
        fn.emit("out.append(act)")

    def leaf_arguments(self, a: dict, ctx: Ctx, fn: Fn) -> tuple[list[str], list[str], bool]:
        """The sources of the binding's arguments and of their texts, and whether the arguments
        are surely hashable (ids or enum members shown as such)."""
        args, texts = [], []
        hashable = True
        for p in a["params"]:
            b = ctx.names[p["name"]]
            how = p.get("show", "plain")
            if how not in ("comp", "cell", "player", "comp_or_player") and not how.startswith("enum:"):
                hashable = False
            if isinstance(b, Subset):
                args.append("(" + "".join(x.src + ", " for x in b.elems) + ")")
                parts = [self.calls.text_src(how, x.src, fn) for x in b.elems]
                if parts:           # (an empty subset shows nothing: `keep`, not `keep ` — a new
                                    # author's Yahtzee could not `apply("keep")`)
                    texts.append(f"' '.join(({''.join(t + ', ' for t in parts)}))")
            elif p["name"] in self.sh.enum_state["combo"]:
                var = self.sh.enum_state["combo"][p["name"]]
                args.append(var)
                q = fn.new("q")
                texts.append(f"' '.join([{self.calls.text_src(how, q, fn)} for {q} in {var}])")
            else:
                args.append(b.src)
                texts.append(self.calls.text_src(how, b.src, fn))
        return args, texts, hashable

    def leaf_text(self, a: dict, ctx: Ctx, args: list[str], texts: list[str], hides: bool) -> str:
        """The source of the action's text: its name and arguments, or the author's `as` words."""
        shown = a["name"].replace("_", " ")
        if hides:       # a component the actor cannot see (another's hand, its own `others` hand) by its place
            texts = [t.replace("_comp_text(", "_comp_seen_text(m, ").replace("_union_text(", "_union_seen_text(m, ")
                     for t in texts]
        # (a subset of any size may be empty: its text is then left out, not a space)
        maybe_empty = any(p["name"] in self.sh.enum_state["combo"] for p in a["params"])

        def joined(parts: list) -> str:
            words = f"({_lit(shown)}, {''.join(t + ', ' for t in parts)})"
            return f"' '.join(filter(None, {words}))" if maybe_empty else f"' '.join({words})"
        text = joined(texts) if texts else _lit(shown)
        if a.get("text") is not None:               # `as TEXT`: the author's words (kept per binding)
            text = f"_action_text({self.exprs.ex(a['text'], ctx).src}, {_lit(shown)})"
            if hides:                               # … unless they would name a card its actor cannot see
                comps = "(" + "".join(x + ", " for x, p in zip(args, a["params"])
                                      if p.get("show") in ("comp", "comp_or_player")) + ")"
                text = f"({text} if _all_seen(m, {comps}) else {joined(texts)})"
        return text

    def leaf_shows_meta(self, a: dict, ai: int, ctx: Ctx) -> str:
        """A new constant of the action's meta with how each argument shows (a component, several, other)."""
        st = self.sh.enum_state
        shows = tuple(("comps" if isinstance(ctx.names[p["name"]], Subset) or p["name"] in st["combo"] else "comp")
                      if p.get("show", "plain") in ("comp", "comp_or_player") else "other" for p in a["params"])
        return self.sh.const(self.sh.action_meta[ai] + (shows,), "M")

    def leaf_in_subset_table(self, lone: Subset, leaf: "_Leaf", fn: Fn, verdict: str | None) -> None:
        """A lone small subset of components: kept in nested lists by id, with the require's verdict
        (False: not legal) where it is cached (enum_rest)."""
        ktab = self.sh.enum_state["ktab"][len(lone.elems)]
        head = lone.elems[0].rows.get(ktab)
        cell = (head + "".join(f"[{x.src}]" for x in lone.elems[1:]) if head is not None else
                ktab + "".join(f"[{x.src}]" for x in lone.elems))
        fn.emit(f"act = {cell}")
        if verdict is not None:
            fn.emit("if act is False: continue")
            fn.emit("if act is None:")
            fn.emit(f"    if not {verdict}:")
            fn.emit(f"        {cell} = False")
            fn.emit("        continue")
            fn.emit(f"    act = {cell} = {leaf.make('None', 'None')}")
        else:
            fn.emit(f"if act is None: act = {cell} = {leaf.make('None', 'None')}")

    def leaf_in_table(self, a: dict, ctx: Ctx, args: list[str], leaf: "_Leaf", fn: Fn) -> None:
        """Parameters that are all ids (intern_dims): kept in nested lists indexed by them."""
        first = ctx.names[a["params"][0]["name"]]
        head = first.rows.get(leaf.tab) if isinstance(first, Name) else None
        cell = (head + "".join(f"[{x}]" for x in args[1:]) if head is not None else
                leaf.tab + "".join(f"[{x}]" for x in args))
        fn.emit(f"act = {cell}")
        fn.emit(f"if act is None: act = {cell} = {leaf.make('None', 'None')}")

    def leaf_in_dict(self, a: dict, ctx: Ctx, args: list[str], leaf: "_Leaf", fn: Fn) -> None:
        """Hashable arguments: kept in a dict by their tuple (a lone subset: by its elements)."""
        tab = leaf.tab
        if len(args) == 1 and isinstance(ctx.names[a["params"][0]["name"]], Subset):
            fn.emit(f"k = {args[0]}")                # a lone subset: its elements are the key
            fn.emit(f"act = {tab}.get(k)")
            fn.emit(f"if act is None: act = {leaf.make(tab, 'k', '(k,)')}")
        else:
            fn.emit(f"act = {tab}.get({leaf.key})")
            fn.emit(f"if act is None: act = {leaf.make(tab, leaf.key)}")

    def leaf_in_dict_if_hashable(self, leaf: "_Leaf", fn: Fn) -> None:
        """Arguments that may be lists: kept in the dict when they hash, else made afresh."""
        fn.emit("try:")
        fn.emit(f"    k = {leaf.key}")
        fn.emit(f"    act = {leaf.tab}.get(k)")
        fn.emit("except TypeError:")
        fn.emit("    act = k = None")
        fn.emit(f"if act is None: act = {leaf.make(leaf.tab, 'k')}")

    def plan_actions(self) -> None:
        """Per action: how its interned actions are stored (nested lists indexed by the
        parameters' ids, or a dict) and whether two bindings can ever show the same text."""
        self.sh.intern_dims = [None] * len(self.sh.action_meta)     # then more tables, see enum_param
        self.sh.unique_texts = {}
        for s in self.sh.ir["steps"]:
            shown = [a["name"].replace("_", " ") for a in s["actions"]]
            read_as_another = names_read_as_another(shown)
            any_text = any("text" in x for x in s["actions"])    # (an `as` text may be any)
            for j, a in enumerate(s["actions"]):
                ai = self.sh.action_index[id(a)]
                params = a["params"]
                kinds = [self.facts.ids_of(p["domain"]) if p["mode"] == "one" else None for p in params]
                ok = bool(params) and all(k is not None and p.get("show") == k for k, p in zip(kinds, params))
                size = 1
                for k in kinds:
                    size *= {"cell": self.sh.geometry.size if self.sh.geometry else 1,
                             "player": self.sh.ir["players"]["max"]}.get(k, 1)  # type: ignore[arg-type]  # (k None: 1)
                ok = ok and size <= INTERN_CELLS and kinds.count("comp") <= 1 and "intern" in self.sh.opt
                self.sh.intern_dims[ai] = kinds if ok else None
                # unique: distinct bindings, texts that are injective and one word each, and no other
                # action of the step whose name could be read as this one's name plus words
                injective = all(p["mode"] == "one" and kinds[i] is not None
                                and p.get("show") in ("cell", "player") for i, p in enumerate(params))
                prefix = read_as_another[j] or any_text
                self.sh.unique_texts[ai] = injective and not prefix and "intern" in self.sh.opt and "text" not in a


def names_read_as_another(shown: list[str]) -> list[bool]:
    """For each action name of a step: is another's the same, or one read as the other plus words
    (`take` and `take all`)? Then a text of one might be a text of the other. Counted once a step
    (names and their word prefixes): a test of every pair was quadratic, and 6,000 `anytime` actions
    took 45 s to compile — a fuzz trial."""
    named = Counter(shown)
    heads = {" ".join(words[:k]) for words in (x.split(" ") for x in shown) for k in range(1, len(words))}
    out = []
    for x in shown:
        words = x.split(" ")
        out.append(named[x] > 1 or x in heads or any(" ".join(words[:k]) in named for k in range(1, len(words))))
    return out


class _Leaf(NamedTuple):
    """One binding's action as emit_leaf makes it: its intern table, and the sources of its text,
    body, arguments' tuple (key) and meta."""
    tab: str
    text: str
    body: str
    key: str
    meta: str

    def make(self, table: str, k: str, key: str | None = None) -> str:
        """The source making the action (`_mkact`), kept in `table` under `k` ("None": kept by the caller)."""
        return f"_mkact(m, {table}, {k}, {self.text}, {self.body}, {key or self.key}, {self.meta}, TX)"
