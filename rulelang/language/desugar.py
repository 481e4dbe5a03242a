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
from ..core.errors import Diagnostic
from ..ir.spec import ANYTIME_STEP

BUILTIN_EVENTS = ("turn_start", "turn_end")          # events the engine emits itself (no parameters)
ZONE_EVENTS = ("enter", "leave")                     # `on enter Z(c)`, `on leave Z(c)`
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
    text: str | None = None    # a player's response declared on a window: its text (`challenge`)


def _anytime(game: n.Game) -> n.Game:
    """`anytime action`s join every step's actions (after the step's own), and make a step of their
    own, `__anytime`, never entered: the engine lists it for a player who is not the one to act
    (`Match.interrupts`), so anyone may use them in anyone's turn."""
    extra = tuple(d.action for d in game.decls if isinstance(d, n.AnytimeDecl))
    if not extra:
        return game
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


def _texts(game: n.Game) -> n.Game:
    """Words for players that are computed: a kind's `text E` and a window's `as E` become defs the
    engine evaluates when a player asks (the checker checks them like any other def)."""
    extra = []
    carded = {d.kind for d in game.decls if isinstance(d, n.CardDecl)}
    for d in game.decls:
        if isinstance(d, n.KindDecl) and d.text is not None:
            fields = {f.name for f in d.fields} | ({"card"} if d.name in carded else set())
            extra.append(n.DefDecl(d.text.span, TEXT_DEF + d.name,
                                   (n.Param(d.span, "self", n.TypeRef(d.span, d.name)),),
                                   _bind_fields(d.text, fields), False))
        elif isinstance(d, n.SignatureDecl) and d.prompt is not None:
            extra.append(n.DefDecl(d.prompt.span, PROMPT_DEF + d.name, d.params, d.prompt, False))
    if not extra:
        return game
    return n.Game(game.span, game.name, game.decls + tuple(extra), game.sources)


def desugar(game: n.Game, suggest: Suggester | None = None) -> tuple[n.Game, list[AbilityInfo], list[Diagnostic]]:
    """`suggest`: the "did you mean" of the whole file (the checker's, its budget shared)."""
    suggest = suggest or Suggester()
    game = _texts(_anytime(game))
    sigs: dict[str, n.SignatureDecl] = {}
    procs: dict[str, n.ProcDecl] = {}
    defs: dict[str, n.DefDecl] = {}
    kinds: dict[str, n.KindDecl] = {}
    for d in game.decls:
        if isinstance(d, n.SignatureDecl):
            sigs.setdefault(d.name, d)
        elif isinstance(d, n.ProcDecl):
            procs.setdefault(d.name, d)
        elif isinstance(d, n.DefDecl):
            defs.setdefault(d.name, d)
        elif isinstance(d, n.KindDecl):
            kinds.setdefault(d.name, d)
    if not any(isinstance(d, (n.CardDecl, n.OnDecl)) and (isinstance(d, n.CardDecl) or d.params is not None
                                                          or d.event not in HANDLERS)
               or isinstance(d, n.SignatureDecl) and d.responses for d in game.decls):
        return game, [], []
    carded = {d.kind for d in game.decls if isinstance(d, n.CardDecl)}
    out: list = []
    infos: list[AbilityInfo] = []
    diags: list[Diagnostic] = []
    cards = 0

    zone_names = {d.name for d in game.decls if isinstance(d, n.ZoneDecl)}
    named: list = []                           # [(events, windows and hooks, both)]: at the first unknown event

    def unknown_event(name: str, span) -> Diagnostic:
        """E106 with a short list of what there is (a file may declare thousands of events)."""
        if not named:
            known = list(HANDLERS) + [x for x in sigs if sigs[x].what == "event"]
            others = [x for x in sigs if sigs[x].what != "event"]
            named.append((known, others, known + others))
        known, others, every = named[0]
        close = suggest(name, every)
        return Diagnostic("E106", f"unknown event `{name}` (events: {listing(known)}"
                                  + (f"; windows and hooks: {listing(others)}" if others else "") + ")",
                          span, "error", close)

    def signature(name: str, span, zone: str | None = None) -> tuple[str, tuple] | None:
        if zone is not None:                   # `on enter Z(c)`: c is the component that moves
            if zone not in zone_names:
                diags.append(Diagnostic("E101", f"unknown zone `{zone}`", span))
                return None
            return "event", (n.Param(span, "c", n.TypeRef(span, "any")),)
        if name in BUILTIN_EVENTS:
            return "event", ()
        sig = sigs.get(name)
        if sig is None:
            diags.append(unknown_event(name, span))
            return None
        return sig.what, sig.params

    for d in game.decls:
        if isinstance(d, n.OnDecl) and (d.params is not None or d.event not in HANDLERS):
            found = signature(d.event, d.span, d.zone)
            if found is None:                   # (its body is still checked, as a procedure)
                out.append(n.ProcDecl(d.span, f"__bad{len(out)}", tuple(n.Param(d.span, x, None)
                                                                       for x in d.params or ()), d.body))
                continue
            what, params = found
            if what != "event":
                diags.append(Diagnostic("E106", f"`{d.event}` is a {what}: only an event can be triggered on at the "
                                                f"top level (a {what}'s abilities belong to cards)", d.span))
                continue
            names = d.params or ()
            if len(names) > len(params):
                diags.append(Diagnostic("E104", f"event `{d.event}` has {len(params)} parameters, not {len(names)}",
                                        d.span))
                continue
            base = f"__t{len(infos)}_{d.event}"
            plist = tuple(_typed(params, names, d.span))
            out.append(n.ProcDecl(d.span, base, plist, d.body))
            where = None
            if d.where is not None:
                where = base + "_where"
                out.append(n.DefDecl(d.where.span, where, plist, d.where, False))
            infos.append(AbilityInfo("trigger", d.event, None, base, where, None, d.span, (), d.zone))
            continue
        if isinstance(d, n.SignatureDecl) and d.responses:
            out.append(_window_responses(d, out, infos, diags))
            continue
        if isinstance(d, n.KindDecl) and d.name in carded and not any(f.name == "card" for f in d.fields):
            # a kind with card declarations: each component knows its card's name (`c.card`)
            d = n.KindDecl(d.span, d.name, d.fields + (n.Field(d.span, "card", n.TypeRef(d.span, "text"),
                                                                n.Lit(d.span, "")),), d.label, d.text)
        out.append(d)
        if not isinstance(d, n.CardDecl):
            continue
        ci = cards
        cards += 1
        self_param = n.Param(d.span, "self", n.TypeRef(d.span, d.kind))
        for j, a in enumerate(d.abilities):
            base = f"__c{ci}_{j}"
            if a.form == "on":
                name = a.names[0]
                found = signature(name, a.span, a.zone)
                if found is None:
                    continue
                what, params = found
                if len(a.params) > len(params):
                    diags.append(Diagnostic("E104", f"{what} `{name}` has {len(params)} parameters, not "
                                                    f"{len(a.params)}", a.span))
                    continue
                plist = (self_param,) + tuple(_typed(params, a.params, a.span))
                out.append(n.ProcDecl(a.span, base, plist, a.body))
                where = None
                if a.where is not None:
                    where = base + "_where"
                    out.append(n.DefDecl(a.where.span, where, plist, a.where, False))
                form = {"hook": "hook", "event": "trigger", "window": "response"}[what]
                infos.append(AbilityInfo(form, name, ci, base, where, a.zones, a.span, (), a.zone))
            elif a.form == "replace":
                target = procs.get(a.names[0])
                if target is None:
                    diags.append(Diagnostic("E101", f"unknown procedure `{a.names[0]}` to replace", a.span))
                    continue
                if len(a.params) > len(target.params):
                    diags.append(Diagnostic("E104", f"procedure `{target.name}` has {len(target.params)} parameters, "
                                                    f"not {len(a.params)}", a.span))
                    continue
                for other in a.names[1:]:
                    if other not in procs:
                        diags.append(Diagnostic("E101", f"unknown procedure `{other}` to replace", a.span))
                plist = (self_param,) + tuple(_typed(target.params, a.params, a.span))
                out.append(n.ProcDecl(a.span, base, plist, a.body))
                where = None
                if a.where is not None:
                    where = base + "_where"
                    out.append(n.DefDecl(a.where.span, where, plist, a.where, False))
                infos.append(AbilityInfo("replace", a.names[0], ci, base, where, a.zones, a.span, a.names))
            else:                                   # modify D(params) += E [where C]
                target = defs.get(a.names[0])
                if target is None or target.params is None:
                    diags.append(Diagnostic("E101", f"`modify` needs a def with parameters; `{a.names[0]}` is not one",
                                            a.span))
                    continue
                if len(a.params) != len(target.params):
                    diags.append(Diagnostic("E104", f"def `{target.name}` has {len(target.params)} parameters, "
                                                    f"not {len(a.params)}", a.span))
                    continue
                plist = (self_param,) + tuple(_typed(target.params, a.params, a.span))
                value = a.value if a.where is None else n.Cond(a.value.span, a.where, a.value, n.Lit(a.value.span, 0))
                out.append(n.DefDecl(a.span, base, plist, value, False))
                infos.append(AbilityInfo("modify", a.names[0], ci, None, base, a.zones, a.span))
    return n.Game(game.span, game.name, tuple(out), game.sources), infos, diags


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
