"""Cards and triggers become ordinary procedures and defs, before checking.

A card's ability, a top-level trigger `on EVENT(x) where C { ... }`, a replacement and a
modifier are each a body plus a condition. Turning them into a `proc` (the body) and a `def`
(the condition) with explicit, typed parameters lets the checker, the compiler and the code
generator treat them like any other procedure: same checks, same diagnostics, same speed. What
remains special is only *when* they run, which the `Ability` records say (the compiler copies them
into the IR's `abilities`, the engine dispatches on them).

Generated names start with `__`, which a rule file cannot declare (the checker refuses it).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import nodes as n
from .content import Suggester, listing
from ..core.errors import Diagnostic, RuleError
from ..ir.spec import ANYTIME_STEP, INSERT, refusal_def, refusal_holds

BUILTIN_EVENTS = ("turn_start", "turn_end")          # events the engine emits itself (no parameters)
ZONE_EVENTS = ("enter", "leave")                     # `on enter Z(c)`, `on leave Z(c)`
ANY_COMPONENT = "comp:*"                             # the type of their `c` (typerules: any kind)
HANDLERS = ("stuck", "turn_start", "turn_end", "round_start", "round_end")   # top-level `on NAME { }` blocks (no parameters)


@dataclass
class AbilityInfo:
    """What one ability is and when it applies (see the IR's `abilities` in docs/engine.md)."""
    form: str                  # hook, trigger, response, replace, modify
    name: str                  # the hook, event, window, procedure or def it is about
    card: int | None           # index of its card declaration; None: a top-level trigger
    proc: str | None           # the generated procedure (its body)
    where: str | None          # the generated def of its condition (None: always)
    zones: tuple | None        # where the card must lie for it to apply (None: a zone marked `play`)
    span: object
    procs: tuple = ()          # replace: every procedure it replaces
    zone: str | None = None    # a trigger on a component entering/leaving this zone (name: enter/leave)
    text: str | None = None    # a player's response declared on a window: its text (`challenge`); a
                               # card's ability: its name (`on attacked(a, t) as "Counterattack"`)


ANYTIME_COPY_LIMIT = 200_000     # parts of `anytime` actions times the steps they join


def _anytime(game: n.Game) -> n.Game:
    """`anytime action`s join every step's actions (after the step's own), and make a step of their
    own, `__anytime`, never entered: the engine lists it for a player who is not the one to act
    (`Match.interrupts`), so anyone may use them in anyone's turn."""
    extra = tuple(d.action for d in game.decls if isinstance(d, n.AnytimeDecl))
    if not extra:
        return game
    joined = sum(1 for d in game.decls if isinstance(d, n.StepDecl) and not d.simultaneous)
    size = sum(1 for _ in n.walk(extra))
    if size * joined > ANYTIME_COPY_LIMIT:      # (each step compiles them again: a fuzzer's 10 actions in
        span = next(d.span for d in game.decls if isinstance(d, n.AnytimeDecl))      # 1,000 steps: 3.5 GB)
        raise RuleError([Diagnostic("E003", f"the `anytime` actions join every step: {size:,} parts of rules "
                                            f"in {joined:,} steps are {size * joined:,}, more than the limit of "
                                            f"{ANYTIME_COPY_LIMIT:,}; put what they do in a `proc` they call", span)])
    decls = tuple(replace(d, actions=d.actions + extra)     # (a simultaneous step's answers are its own)
                  if isinstance(d, n.StepDecl) and not d.simultaneous else d for d in game.decls if not isinstance(d, n.AnytimeDecl))
    span = next(d.span for d in game.decls if isinstance(d, n.AnytimeDecl))
    decls += (n.StepDecl(span, ANYTIME_STEP, None, (), extra, False),)
    return n.Game(game.span, game.name, decls, game.sources)


def _typed(params_decl: tuple, names: tuple, span) -> list:
    """Parameters named by an ability, typed by the signature it binds to (positionally)."""
    out = []
    for i, name in enumerate(names):
        t = params_decl[i].type if i < len(params_decl) else None
        out.append(n.Param(span, name, t))
    return out


TEXT_DEF = "__text_"          # `kind K { text E }` becomes `def __text_K(self: K) = E` (fields: self.field)
PROMPT_DEF = "__window_"      # `window W(params) as E` becomes `def __window_W(params) = E`
# `step S { action A … require C else E }` becomes `def <refusal_def(S, A)>: text = E` (ir/spec.py)


def _bind_fields(x, fields: set, bound: frozenset = frozenset()):
    """`x` with each bare name of a field (not bound by a comprehension) read as `self.field`."""
    if isinstance(x, tuple):
        return tuple(_bind_fields(y, fields, bound) for y in x)
    if not isinstance(x, n.Node):
        return x
    if isinstance(x, n.Name):
        return n.Attr(x.span, n.Name(x.span, "self"), x.name) if x.name in fields and x.name not in bound else x
    if isinstance(x, n.Comprehension):
        bound = bound | {x.var} | {m[0] for m in x.more}
    changes = {name: _bind_fields(getattr(x, name), fields, bound)
               for name in x.__dataclass_fields__ if name != "span"}
    return type(x)(x.span, **changes)


def _texts(game: n.Game) -> tuple[n.Game, list[Diagnostic]]:
    """Words for players that are computed: a kind's `text E`, a window's `as E` and an action's
    `require … else E` become defs the engine evaluates when a player asks (the checker checks
    them like any other def). An `else` reason that reads the action's parameters is an error
    said here, in its own words (as a def it would only be an unknown name)."""
    extra = []
    diags: list[Diagnostic] = []
    carded = {d.kind for d in game.decls if isinstance(d, n.CardDecl)}
    for d in game.decls:
        if isinstance(d, n.KindDecl) and d.text is not None:
            fields = {f.name for f in d.fields} | ({"card"} if d.name in carded else set())
            extra.append(n.DefDecl(d.text.span, TEXT_DEF + d.name,
                                   (n.Param(d.span, "self", n.TypeRef(d.span, d.name)),),
                                   _bind_fields(d.text, fields), False))
        elif isinstance(d, n.SignatureDecl) and d.prompt is not None:
            extra.append(n.DefDecl(d.prompt.span, PROMPT_DEF + d.name, d.params, d.prompt, False))
        elif isinstance(d, n.StepDecl):
            for a in d.actions:
                if a.refusal is None:
                    continue
                bound = {v for x in n.walk(a.refusal) if isinstance(x, n.Comprehension) for v in (x.var, *(m[0] for m in x.more))}
                params = {p.name for p in a.params} - bound
                read = next((x for x in n.walk(a.refusal) if isinstance(x, n.Name) and x.name in params), None)
                if read is not None:
                    diags.append(Diagnostic(
                        "E101", f"the `else` reason of `{a.name}` cannot read its parameter `{read.name}`: it is said of "
                                f"the action as a whole, when a player types it and it is not legal (it may read "
                                f"the position and `me`)",
                        read.span))
                    continue
                extra.append(n.DefDecl(a.refusal.span, refusal_def(d.name, a.name), None, a.refusal, False,
                                       result=n.TypeRef(a.refusal.span, "text")))
                if a.require is not None and not any(isinstance(x, n.Name) and x.name in params for x in n.walk(a.require)):
                    extra.append(n.DefDecl(a.require.span, refusal_holds(d.name, a.name), None, a.require, False,
                                           result=n.TypeRef(a.require.span, "bool")))
    if not extra:
        return game, diags
    return n.Game(game.span, game.name, game.decls + tuple(extra), game.sources), diags


def _inserts(game: n.Game) -> n.Game:
    """The builtin procedure `insert(X, ZONE, N)` is a move with N components above X (unless the
    rules declare a proc of that name): a `Move` node, which every check and lint reads as one."""
    if any(isinstance(d, n.ProcDecl) and d.name == INSERT for d in game.decls) or \
            not any(isinstance(x, n.CallStmt) and x.name == INSERT and len(x.args) == 3 for x in n.walk(game)):
        return game

    def rebuilt(x):
        if isinstance(x, tuple):
            return tuple(rebuilt(y) for y in x)
        if not isinstance(x, n.Node):
            return x
        if isinstance(x, n.CallStmt) and x.name == INSERT and len(x.args) == 3:
            what, dest, depth = (rebuilt(a) for a in x.args)
            return n.Move(x.span, what, dest, "depth", depth)
        changes = {name: rebuilt(getattr(x, name)) for name in x.__dataclass_fields__ if name != "span"}
        return type(x)(x.span, **changes)
    return rebuilt(game)


def desugar(game: n.Game, suggest: Suggester | None = None) -> tuple[n.Game, list[AbilityInfo], list[Diagnostic]]:
    """`suggest`: the "did you mean" of the whole file (the checker's, its budget shared)."""
    game, said = _texts(_anytime(_inserts(game)))
    if not any(isinstance(d, (n.CardDecl, n.OnDecl)) and (isinstance(d, n.CardDecl) or d.params is not None
                                                          or d.event not in HANDLERS)
               or isinstance(d, n.SignatureDecl) and d.responses for d in game.decls):
        return game, [], said
    game, infos, diags = _Desugaring(game, suggest or Suggester()).run()
    return game, infos, said + diags


class _Desugaring:
    """One game's desugaring: the declarations in order, each trigger, window and card turned into
    procedures and defs (`out`), with the abilities' records (`infos`) and the errors (`diags`)."""

    def __init__(self, game: n.Game, suggest: Suggester):
        self.game, self.suggest = game, suggest
        self.sigs: dict[str, n.SignatureDecl] = {}
        self.procs: dict[str, n.ProcDecl] = {}
        self.defs: dict[str, n.DefDecl] = {}
        for d in game.decls:
            if isinstance(d, n.SignatureDecl):
                self.sigs.setdefault(d.name, d)
            elif isinstance(d, n.ProcDecl):
                self.procs.setdefault(d.name, d)
            elif isinstance(d, n.DefDecl):
                self.defs.setdefault(d.name, d)
        self.carded = {d.kind for d in game.decls if isinstance(d, n.CardDecl)}
        self.zone_names = {d.name for d in game.decls if isinstance(d, n.ZoneDecl)}
        self.named: list = []                  # [(events, windows and hooks, both)]: at the first unknown event
        self.out: list = []
        self.infos: list[AbilityInfo] = []
        self.diags: list[Diagnostic] = []
        self.cards = 0

    def run(self) -> tuple[n.Game, list[AbilityInfo], list[Diagnostic]]:
        for d in self.game.decls:
            if isinstance(d, n.OnDecl) and (d.params is not None or d.event not in HANDLERS):
                self.trigger(d)
            elif isinstance(d, n.SignatureDecl) and d.responses:
                self.out.append(_window_responses(d, self.out, self.infos, self.diags))
            elif isinstance(d, n.CardDecl):
                self.out.append(d)
                self.card(d)
            elif isinstance(d, n.KindDecl) and d.name in self.carded and not any(f.name == "card" for f in d.fields):
                # a kind with card declarations: each component knows its card's name (`c.card`)
                self.out.append(n.KindDecl(d.span, d.name, d.fields + (n.Field(d.span, "card", n.TypeRef(
                    d.span, "text"), n.Lit(d.span, "")),), d.label, d.text))
            else:
                self.out.append(d)
        game = self.game
        return n.Game(game.span, game.name, tuple(self.out), game.sources), self.infos, self.diags

    def unknown_event(self, name: str, span) -> Diagnostic:
        """E106 with a short list of what there is (a file may declare thousands of events)."""
        sigs = self.sigs
        if not self.named:
            known = list(HANDLERS) + [x for x in sigs if sigs[x].what == "event"]
            others = [x for x in sigs if sigs[x].what != "event"]
            self.named.append((known, others, known + others))
        known, others, every = self.named[0]
        close = self.suggest(name, every)
        return Diagnostic("E106", f"unknown event `{name}` (events: {listing(known)}"
                                  + (f"; windows and hooks: {listing(others)}" if others else "") + ")",
                          span, "error", close)

    def signature(self, name: str, span, zone: str | None = None) -> tuple[str, tuple] | None:
        """What `name` is (event, hook, window) and its parameters; None (and an error) if unknown."""
        if zone is not None:                   # `on enter Z(c)`: c is the component that moves
            if zone not in self.zone_names:
                self.diags.append(Diagnostic("E101", f"unknown zone `{zone}`", span))
                return None
            # (a component of any kind, as `top(Z)` is: `text(c)` is its label, not its number; a
            # type no rule file can write)
            return "event", (n.Param(span, "c", n.TypeRef(span, ANY_COMPONENT)),)
        if name in BUILTIN_EVENTS:
            return "event", ()
        sig = self.sigs.get(name)
        if sig is None:
            self.diags.append(self.unknown_event(name, span))
            return None
        return sig.what, sig.params

    def body_and_where(self, span, base: str, plist: tuple, body, where) -> str | None:
        """The procedure `base` of the body, and the def `base_where` of its condition (if any): its name."""
        self.out.append(n.ProcDecl(span, base, plist, body))
        if where is None:
            return None
        self.out.append(n.DefDecl(where.span, base + "_where", plist, where, False))
        return base + "_where"

    def trigger(self, d: n.OnDecl) -> None:
        """A top-level `on EVENT(x) where C { … }`: a procedure and a def, run when the event happens."""
        found = self.signature(d.event, d.span, d.zone)
        if found is None:                   # (its body is still checked, as a procedure)
            self.out.append(n.ProcDecl(d.span, f"__bad{len(self.out)}", tuple(n.Param(d.span, x, None)
                                                                             for x in d.params or ()), d.body))
            return
        what, params = found
        if what != "event":
            self.diags.append(Diagnostic("E106", f"`{d.event}` is a {what}: only an event can be triggered on at "
                                                 f"the top level (a {what}'s abilities belong to cards)", d.span))
            return
        names = d.params or ()
        if len(names) > len(params):
            self.diags.append(Diagnostic("E104", f"event `{d.event}` has {len(params)} parameters, not "
                                                 f"{len(names)}", d.span))
            return
        base = f"__t{len(self.infos)}_{d.event}"
        plist = tuple(_typed(params, names, d.span))
        where = self.body_and_where(d.span, base, plist, d.body, d.where)
        self.infos.append(AbilityInfo("trigger", d.event, None, base, where, None, d.span, (), d.zone))

    def card(self, d: n.CardDecl) -> None:
        """Each ability of a card, by its form (ABILITY_FORMS), with the card as `self`."""
        ci = self.cards
        self.cards += 1
        self_param = n.Param(d.span, "self", n.TypeRef(d.span, d.kind))
        for j, a in enumerate(d.abilities):
            self.ABILITY_FORMS.get(a.form, _Desugaring.modifier)(self, a, ci, f"__c{ci}_{j}", self_param)

    def ability(self, a: n.Ability, ci: int, base: str, self_param: n.Param) -> None:
        """`on NAME(x) where C { … }` of a card: a hook, a trigger or a window's response."""
        name = a.names[0]
        found = self.signature(name, a.span, a.zone)
        if found is None:
            return
        what, params = found
        if len(a.params) > len(params):
            self.diags.append(Diagnostic("E104", f"{what} `{name}` has {len(params)} parameters, not "
                                                 f"{len(a.params)}", a.span))
            return
        plist = (self_param,) + tuple(_typed(params, a.params, a.span))
        where = self.body_and_where(a.span, base, plist, a.body, a.where)
        form = {"hook": "hook", "event": "trigger", "window": "response"}[what]
        text = a.text
        if text is not None and form != "trigger":      # (named, and the name shown nowhere: a review)
            self.diags.append(Diagnostic("E105", f"only an ability set off by an event is named (`as \"…\"`: read "
                                                 f"where players order waiting triggers); `{name}` is a {what}", a.span))
            text = None
        elif text is not None and not text.strip():
            self.diags.append(Diagnostic("E105", "an ability's name (`as \"…\"`) needs words", a.span))
            text = None
        elif text is not None and len(text) > 200:
            self.diags.append(Diagnostic("E105", f"an ability's name (`as \"…\"`) has at most 200 characters, "
                                                 f"not {len(text)}", a.span))
            text = None
        self.infos.append(AbilityInfo(form, name, ci, base, where, a.zones, a.span, (), a.zone, text))

    def replacement(self, a: n.Ability, ci: int, base: str, self_param: n.Param) -> None:
        """`replace P, Q(x) where C { … }`: a procedure run instead of the named ones."""
        procs = self.procs
        target = procs.get(a.names[0])
        if target is None:
            self.diags.append(Diagnostic("E101", f"unknown procedure `{a.names[0]}` to replace", a.span))
            return
        if len(a.params) > len(target.params):
            self.diags.append(Diagnostic("E104", f"procedure `{target.name}` has {len(target.params)} parameters, "
                                                 f"not {len(a.params)}", a.span))
            return
        for other in a.names[1:]:
            if other not in procs:
                self.diags.append(Diagnostic("E101", f"unknown procedure `{other}` to replace", a.span))
        plist = (self_param,) + tuple(_typed(target.params, a.params, a.span))
        where = self.body_and_where(a.span, base, plist, a.body, a.where)
        self.infos.append(AbilityInfo("replace", a.names[0], ci, base, where, a.zones, a.span, a.names))

    def modifier(self, a: n.Ability, ci: int, base: str, self_param: n.Param) -> None:
        """`modify D(params) += E [where C]`: a def added to D's value (0 where C does not hold)."""
        target = self.defs.get(a.names[0])
        if target is None or target.params is None:
            self.diags.append(Diagnostic("E101", f"`modify` needs a def with parameters; `{a.names[0]}` is not one",
                                         a.span))
            return
        if len(a.params) != len(target.params):
            self.diags.append(Diagnostic("E104", f"def `{target.name}` has {len(target.params)} parameters, "
                                                 f"not {len(a.params)}", a.span))
            return
        plist = (self_param,) + tuple(_typed(target.params, a.params, a.span))
        value = a.value if a.where is None else n.Cond(a.value.span, a.where, a.value, n.Lit(a.value.span, 0))
        self.out.append(n.DefDecl(a.span, base, plist, value, False))
        self.infos.append(AbilityInfo("modify", a.names[0], ci, None, base, a.zones, a.span))

    # an ability's form: its desugaring (any other form is a `modify`)
    ABILITY_FORMS = {"on": ability, "replace": replacement}


def _window_responses(d: n.SignatureDecl, out: list, infos: list, diags: list) -> n.SignatureDecl:
    """A window's `respond NAME [as "TEXT"] [where C] { … }`s: each a procedure of the window's
    parameters (and its condition a def of them), run with `me` the player who responds. Returns the
    window's declaration without them (their bodies now live in the procedures alone)."""
    texts: set = set()
    for r in d.responses:
        text = r.text if r.text is not None else r.name.replace("_", " ")
        if text in texts or text in ("pass", "done"):
            diags.append(Diagnostic("E102", f"window `{d.name}` has two responses shown `{text}`" if text in texts
                                    else f"a response may not be shown `{text}` (that is how a player declines)",
                                    r.span))
            continue
        texts.add(text)
        base = f"__r{len(infos)}_{d.name}"
        out.append(n.ProcDecl(r.span, base, d.params, r.body))
        where = None
        if r.where is not None:
            where = base + "_where"
            out.append(n.DefDecl(r.where.span, where, d.params, r.where, False))
        infos.append(AbilityInfo("response", d.name, None, base, where, None, r.span, (), None, text))
    return n.SignatureDecl(d.span, d.what, d.name, d.params, d.prompt, d.order, ())
