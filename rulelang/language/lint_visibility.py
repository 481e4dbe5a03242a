"""Lints of the visibilities `others` and `uncounted` and of `eliminate … until round_end`:
W230 (a choice's legality reads a card its chooser cannot see), W231 (a shown value counts a zone
whose size is hidden), W232 (out until the end of a round that is already ending), W233 (a shown
value reads the viewer's own cards of an `others` zone), W241 (a shown value reads the components
of a zone some viewer may not see), W244 (whether a choice among a secret zone's cards is asked
tells the others how many of them fit), W245 (a secret value set by chance, which the search bots'
imagined worlds keep), W248 (cards revealed and moved away before anyone could look), W249 (a
question asked only when a secret zone's cards say so: being asked tells the others), W251 (a
hidden card held in a `let` across a question, which the search bots' worlds keep real).

Called by lints.py (`Lints.run`), sharing its state (the checked file, `root_zone`, `report`)."""
from __future__ import annotations

from . import nodes as n
from .nodes import walk


def _vis(decl) -> list:
    return [m.name for m in getattr(decl, "modifiers", ()) if m.name in ("public", "hidden", "owner", "others")]


def _names(e) -> set:
    return {x.name for x in walk(e) if isinstance(x, n.Name)} if e is not None else set()


def _others_zone(lints, domain) -> str | None:
    """The `others` zone a choice's options come from (`hand[me]`), or None; through `+` and a
    filter too (`market + hand[me]`)."""
    for part in lints.chosen_zones(domain):
        z = lints.root_zone(part)
        sym = lints.c.symbols.get(z) if z else None
        if sym is not None and _vis(sym.decl) == ["others"]:
            return z
    return None


def _blind_zone(lints, domain) -> tuple[str, str] | None:
    """The zone an action's parameter takes cards from that its actor cannot see (a `hidden` zone,
    another player's `owner` zone), with why; None otherwise. Through `+` and a filter too (a new
    author's `buy(c in market[t] + deck[t]) require affordable(me, c)` told which blind cards were cheap)."""
    for part in lints.chosen_zones(domain):
        z = lints.root_zone(part)
        sym = lints.c.symbols.get(z) if z else None
        vis = _vis(sym.decl) if sym is not None else []
        if vis == ["hidden"]:
            return z, "`hidden`"
        if vis == ["owner"] and isinstance(part, n.Index) and not (isinstance(part.index, n.Name) and (
                _actor_name(lints, part.index.name) or _given_me(lints, domain, part))):   # (`held(me)`: a new author's Crew)
            return z, "another player's `owner` zone"
    return None


def _actor_name(lints, name: str) -> bool:
    """Does `name` stand for the player acting: `me`, or `current` in an action of steps without `by`
    or `by current` alone (whose turn it is acts there: `hand[current]` is the actor's own hand, and
    W230/W263 warned it)?"""
    return name == "me" or name == "current" and lints.__dict__.get("current_acts", False)


def visibility_lints(lints) -> None:
    """W230, W231, W232, W233, W241, W244, W245, W246, W248, W249, W251, W255, W256, W257, W259, W260, W262, W263,
    W266."""
    for body in list(lints.bodies()) + [a.body for a in lints.every_node if isinstance(a, n.Ability) and a.body]:
        _w248(lints, body or ())
        _w251(lints, body or ())
    secret_zones = any(sym.kind == "zone" and any(v in _vis(sym.decl) for v in ("hidden", "owner", "others"))
                       for sym in lints.c.symbols.values())
    for sym in lints.c.symbols.values():
        if sym.kind == "zone" and any(m.name == "uncounted" for m in sym.decl.modifiers) \
                and any(v in _vis(sym.decl) for v in ("hidden", "owner", "others")):
            # (a new author's Battleship: ships kept one per square in `uncounted` per-cell zones;
            # `ismcts` won every game in ~35 shots, knowing which squares held something)
            lints.report("W246", "warning", f"zone `{sym.decl.name}` is `uncounted`, but the search bots' imagined "
                         f"worlds (`ismcts`, `greedy`) keep how many components each zone holds, so they know its "
                         f"size; to keep it from them too, give every such zone the same number of components "
                         f"(a placeholder where it would be empty) (bots.md)", sym.decl.span)
    _w260(lints)
    _w241_drawing(lints)
    at_once = {id(a) for step in lints.steps.values() if step.decl.simultaneous for a in step.decl.actions}
    # (the actions of steps whose actor is whose turn it is — no `by`, or `by current` — and of no other:
    # an `anytime` action joins every step and the `__anytime` one, where another seat acts, `me` not
    # `current` — a review found its `hand[current]` no longer warned, and the interrupt told P2 P1's cards)
    def current_acts(step) -> bool:
        actor = step.decl.actor
        return (not step.decl.simultaneous and not step.decl.name.startswith("__")
                and (actor is None or isinstance(actor, n.Name) and actor.name == "current"))
    by_current = ({id(a) for step in lints.steps.values() if current_acts(step) for a in step.decl.actions}
                  - {id(a) for step in lints.steps.values() if not current_acts(step) for a in step.decl.actions})
    for d in lints.every_node:
        if isinstance(d, (n.Call, n.Aggregate)) and d.name in ("first", "last") and d.name not in lints.c.symbols:
            _w256(lints, d)
        if isinstance(d, (n.Assign, n.Create, n.Append)):     # (`append roll(6) to cup[p]` too)
            _w245(lints, d, secret_zones)
        for block in _blocks(d):
            _w245_lets(lints, block, secret_zones)
        if secret_zones:
            for f in getattr(d, "__dataclass_fields__", ()):
                block = getattr(d, f, None)
                if isinstance(block, tuple) and _public_log_in(block):
                    # (a loop's own card: `for d in top(deck, 2) { move d to hand[me]  log … text(d) }`)
                    _w262(lints, block, (d.var, d.iterable) if isinstance(d, n.For) and f == "body" else None)
        if isinstance(d, n.Assign) and secret_zones:
            _w255(lints, d)
        if isinstance(d, (n.Choose, n.May, n.SignatureDecl)) and d.prompt is not None and secret_zones:
            _w266(lints, d.prompt)             # (a window's `as E` too: its question as players read it)
        if isinstance(d, n.ActionDecl):
            lints.current_acts = id(d) in by_current
            if id(d) not in at_once:
                _w257(lints, d)
            _w263(lints, d)
            for p in d.params:
                z = _others_zone(lints, p.domain)
                if z is not None and p.name in _names(d.require) and not _told_only(lints, p.name, d.require):
                    _w230(lints, p.name, z, "which of them may be played", d.require.span)
                blind = _blind_zone(lints, p.domain) if z is None else None
                if blind is not None and p.name in _names(d.require) and not _told_only(lints, p.name, d.require):
                    lints.report("W230", "warning", f"`{p.name}` comes from zone `{blind[0]}`, which its chooser "
                                 f"cannot see ({blind[1]}: the choices are named by their place), and this "
                                 f"condition reads it: which places may be played tells the chooser about cards "
                                 f"they cannot see; read only what the chooser knows, or decide in the body",
                                 d.require.span)
            lints.current_acts = False
        elif isinstance(d, n.If):
            _w249(lints, d)
        if isinstance(d, (n.Choose, n.May)) and d.chooser is not None:
            _w259(lints, d.chooser, "who is asked (`by`)", d.span)
        elif isinstance(d, n.Open) and d.to is not None:
            _w259(lints, d.to, "who may respond (`to`)", d.span)
        elif isinstance(d, n.StepDecl) and d.simultaneous and d.actor is not None:
            _w259(lints, d.actor, "who answers the simultaneous step (`by`)", d.span)
        if isinstance(d, n.Choose):
            z = _others_zone(lints, d.domain)
            if z is not None and d.var in _names(d.where) and not _told_only(lints, d.var, d.where):
                _w230(lints, d.var, z, "which of them are offered", d.where.span)
            _w244(lints, d)
        elif isinstance(d, n.DefDecl) and d.show:
            _w241(lints, d)
            _w233(lints, d)
            for x in walk(d.body):
                if isinstance(x, n.Call) and x.name in ("size", "count") and x.args \
                        and x.name not in lints.c.symbols:
                    z = lints.root_zone(x.args[0])
                    sym = lints.c.symbols.get(z) if z else None
                    if sym is not None and any(m.name == "uncounted" for m in sym.decl.modifiers):
                        lints.report("W231", "warning", f"this shown value counts zone `{z}`, which is `uncounted`: "
                                     f"every player sees the size the zone hides", x.span)
    for s in walk(lints.handlers.get("round_end", ())):
        if isinstance(s, n.Eliminate) and s.until == "round_end":
            lints.report("W232", "warning", "`eliminate … until round_end` in `on round_end`: the round is "
                         "ending, so the player is back at once; write `eliminate` (for good) or do it "
                         "in `on round_start` (out for the round that starts)", s.span)


def _w262(lints, block: tuple, looped=None) -> None:
    """W262: a `log` to everyone names (`text(c)`) a card the same block took (`let c = top(deck)`)
    from a zone some player cannot see (`hidden`, `owner`, `others`) and moved into another such zone,
    not revealed since: every player reads it (a new author's Hanabi logged `P1 draws Y3` of a card
    drawn into P1's own `others` hand). A card that lay in sight before (one in play sent to the
    bottom of a deck) is not said."""
    secret = ("hidden", "owner", "others")

    def visibility(e) -> str | None:
        z = lints.root_zone(e)
        sym = lints.c.symbols.get(z) if z else None
        vis = _vis(sym.decl) if sym is not None else []
        return vis[0] if vis else ("public" if sym is not None else None)
    unseen: dict = {}                         # a name -> the zone its card was moved into, out of someone's sight
    hidden_from: set = set()                  # names of cards taken from such a zone by this block
    if looped is not None and visibility(looped[1]) in secret:      # (`looped`: a loop's name and list)
        hidden_from.add(looped[0])

    alias: dict = {}                          # a name -> the first name of its card (`let e = d`)

    def scan(statements: tuple, unseen: dict, hidden_from: set) -> None:
        for s in statements:
            if isinstance(s, n.Let):
                unseen.pop(s.name, None)
                hidden_from.discard(s.name)
                alias.pop(s.name, None)
                if isinstance(s.value, n.Name) and s.value.name in unseen:      # (`let e = d`: the same card)
                    unseen[s.name] = unseen[s.value.name]
                if isinstance(s.value, n.Name) and s.value.name in hidden_from or visibility(s.value) in secret:
                    hidden_from.add(s.name)
                if isinstance(s.value, n.Name):                   # (made before the move too: a fuzz trial)
                    alias[s.name] = alias.get(s.value.name, s.value.name)
            elif isinstance(s, n.Move) and isinstance(s.what, n.Name) and s.what.name in hidden_from:
                vis = visibility(s.dest)
                root = alias.get(s.what.name, s.what.name)
                same = [s.what.name] + [k for k, v in alias.items() if v == root and k != s.what.name] \
                    + ([root] if root != s.what.name else [])
                for name in same:
                    if vis in secret:
                        unseen[name] = (lints.root_zone(s.dest), vis)
                    else:
                        unseen.pop(name, None)
            elif isinstance(s, n.Reveal) and s.to is None and isinstance(s.what, n.Name):
                unseen.pop(s.what.name, None)
                hidden_from.discard(s.what.name)
            elif isinstance(s, (n.If, n.May)):
                # (a `log` in a branch: `if size(hand[me]) > 5 { log … text(d) }` — what a branch
                # does stays in it, as the checker reads it)
                for branch in (getattr(s, "then", None) or getattr(s, "body", ()), s.other):
                    scan(branch, dict(unseen), set(hidden_from))
            elif isinstance(s, n.For) and unseen:         # (a loop after the move: its body reads the card too)
                scan(s.body, {k: v for k, v in unseen.items() if k != s.var}, hidden_from - {s.var})
            elif isinstance(s, n.Log) and s.to is None and unseen:
                # (its name, `text(d)`, or a field of it, `text(d.v)`: what the card is)
                for x in walk(s.value):
                    if isinstance(x, n.Name) and x.name in unseen:
                        z, vis = unseen[x.name]
                        lints.report("W262", "warning", f"this `log` is read by every player and names `{x.name}`, "
                                     f"a card just moved into `{z}` (`{vis}`), which some player cannot see: they "
                                     f"read which card it is; log it `to` who may see it (`log … to [me]`), or say it "
                                     f"without its name", x.span)
    scan(block, unseen, hidden_from)


def _public_log_in(block: tuple) -> bool:
    """A `log` to everyone in the block or in its branches (`if`, `may`): W262's blocks to read."""
    for x in block:
        if isinstance(x, n.Log) and x.to is None:
            return True
        if isinstance(x, n.If) and (_public_log_in(x.then) or _public_log_in(x.other)):
            return True
        if isinstance(x, n.May) and (_public_log_in(x.body) or _public_log_in(x.other)):
            return True
        if isinstance(x, n.For) and _public_log_in(x.body):
            return True
    return False


def _w263(lints, d) -> None:
    """W263: an action's `require` reads the components of a zone its actor may not see (another's
    hand, a hidden zone), itself or through the defs it calls (`s != xpos` with `def xpos =
    first(hideout[mrx]).st`): which actions are legal tells the actor what the zone holds (a new
    author's Scotland Yard: a detective's moves left out Mr. X's station; lint was silent). Read as
    W241 reads a shown value, `me` being the actor."""
    budget = lints.__dict__.setdefault("w241_nodes", [W241_NODES])
    lints.acting = True
    try:
        _w263_of(lints, d, budget)
    finally:
        lints.acting = False


def _w263_of(lints, d, budget: list) -> None:
    """W263 of one action, read with `me` its actor (`lints.acting`)."""
    if d.require is not None:
        found: dict = {}
        _w241_in(lints, d.require, {}, d.require.span, found, budget, set())
        for zone, (span, why) in found.items():
            lints.report("W263", "warning", f"the condition of `{d.name}` reads the components of zone `{zone}`, "
                         f"which is {why}: which actions are legal tells the player acting what it holds; decide "
                         f"in the action's body, or read only what they see", span)
    for p in d.params:      # a range or list worked out from such a zone (`n in 0..count(c.v > 5 for c in
        if p.domain is None or lints.chosen_from(p.domain) is not None:     # hand[me])`: a new author's
            continue        # Jaipur; a choice from the zone itself is W230's or W259's)
        found = {}
        _w241_in(lints, p.domain, {}, p.domain.span, found, budget, set())
        for zone, (span, why) in found.items():
            lints.report("W263", "warning", f"the values `{p.name}` of `{d.name}` may take read the components of "
                         f"zone `{zone}`, which is {why}: which actions are legal tells the player acting what it "
                         f"holds; decide in the action's body, or read only what they see", span)


def _w266(lints, prompt) -> None:
    """W266: a question's prompt reads the components of a zone some player may not see: every
    player reads the prompt (`view(p)["choice"]["prompt"]`: the others see who chooses what), so a
    prompt worded by what a hidden zone holds tells them (a leak scan's Love Letter: the Priest's
    prompt read the deck for the Princess). Read as W241 reads a shown value."""
    found: dict = {}
    budget = lints.__dict__.setdefault("w241_nodes", [W241_NODES])
    lints.read_by_all = True                   # (`hand[me]` too: the others read it as well)
    try:
        _w241_in(lints, prompt, {}, prompt.span, found, budget, set())
    finally:
        lints.read_by_all = False
    for zone, (span, why) in found.items():
        lints.report("W266", "warning", f"this question's prompt reads the components of zone `{zone}`, which is "
                     f"{why}: every player reads the prompt, so they learn what it holds; word the prompt "
                     f"without it, or tell the chooser alone (`log … to [p]`)", span)


def _w257(lints, d) -> None:
    """W257: an action (of a step taken in turn) names a card of its player's `owner` zone in its
    text and puts it into an `owner` zone, never where all see it: the text is public (`place
    a1-c1` in every log), so the others learn the card meant to stay theirs alone (a new author's
    Battleship placed its fleet so, and linted clean). A card played face down into a `hidden`
    zone is not reported: announcing what is played is a rule of many games."""
    for p in d.params:
        if d.text is not None and p.name not in _names(d.text):
            continue
        chosen = lints.chosen_from(p.domain)    # (a filtered hand too: `[x for x in spots[me] where …]`)
        src = lints.root_zone(chosen) if chosen is not None else None
        sym = lints.c.symbols.get(src) if src else None
        if _given_me(lints, p.domain, chosen):  # (`free(me)` of `def free(p) = [s for s in spots[p] …]`)
            chosen = n.Index(span=chosen.span, obj=chosen.obj, index=n.Name(span=chosen.index.span, name="me"))
        if sym is None or sym.kind != "zone" or _vis(sym.decl) != ["owner"] or _blind_zone(lints, chosen):
            continue                            # (another's hand: named by place, `steal hand slot 2`)
        procs = {q.name: q for q in lints.game.decls if isinstance(q, n.ProcDecl)}
        kept, shown = _w257_moves(lints, d.body, {p.name}, procs, 0)
        if kept is not None and not shown:
            # (a subset keeps its size there: the hint without it, followed, passed one card of three —
            # a new author's Hearts)
            how = "in …" if p.mode != "subset" else "subset of …" + (f" size {_size_words(p.size)}" if p.size else "")
            lints.report("W257", "warning", f"`{d.name}` names `{p.name}`, a card of `{src}` (`owner`), in its "
                         f"text, which every player reads, and keeps it in `{kept[1]}` (`owner`): the others "
                         f"learn which card it is; to keep it secret, choose it inside the action "
                         f"(`action {d.name} {{ choose {p.name} {how} always prompt \"…\" {{ … }} }}`), whose "
                         f"answer reads \"(a secret choice)\" to them", kept[0].span)


def _size_words(size) -> str:
    """A subset's size as written, where it is numbers (`3`, `1..2`); `…` otherwise."""
    def number(x):
        return str(x.value) if isinstance(x, n.Lit) and type(x.value) is int else "…"
    if isinstance(size, n.Binary) and size.op == "..":
        lo, hi = number(size.left), number(size.right)
        return lo if lo == hi != "…" else f"{lo}..{hi}"
    return number(size)


def _w241_drawing(lints) -> None:
    """W241 in the board's `draw` def: each viewer is drawn every cell (a new author's Stratego drew
    the other side's unrevealed ranks, `letter[piece(c).rank]`, and linted clean)."""
    board = next((d for d in lints.game.decls if isinstance(d, n.BoardDecl)), None)
    draw = next((m for m in board.modifiers if m.name == "draw"), None) if board is not None else None
    sym = lints.c.symbols.get(draw.value.name) if draw is not None and isinstance(draw.value, n.Name) else None
    if sym is not None and isinstance(sym.decl, n.DefDecl):
        _w241(lints, sym.decl, f"board `{board.name}`'s drawing (`{sym.decl.name}`)")


def _w260(lints) -> None:
    """W260: the board's `draw` def reads `me` (each seat's own drawing: its legal moves starred, its
    secrets shown), so a browser spectator, who is no seat, is shown the top piece of the public
    zones per cell instead — and no such zone exists (an `internal` one is off the screen): the spectator sees an empty board, to the
    end of the game (a new author's Othello kept its discs in a public variable per cell)."""
    board = next((d for d in lints.game.decls if isinstance(d, n.BoardDecl)), None)
    draw = next((m for m in board.modifiers if m.name == "draw"), None) if board is not None else None
    if draw is None or not isinstance(draw.value, n.Name) or not _def_reads_me(lints, draw.value.name, set()):
        return
    for sym in lints.c.symbols.values():
        if sym.kind == "zone" and getattr(sym.decl, "per", None) == "cell" \
                and not any(v in _vis(sym.decl) for v in ("hidden", "owner", "others")) \
                and not any(m.name == "internal" for m in sym.decl.modifiers):     # (off every screen)
            return
    lints.report("W260", "warning", f"board `{board.name}` is drawn by `{draw.value.name}`, which reads `me`: a "
                 f"browser spectator, who is no seat, is shown the top piece of each cell's public zones instead, "
                 f"and no public zone is kept per cell alone (one per player per cell is not drawn): it sees an "
                 f"empty board; draw with a def that does not read `me` "
                 f"(the page marks each seat's legal moves itself)", draw.span)


def _def_reads_me(lints, name: str, seen: set) -> bool:
    """Does the def `name` read `me`, itself or through the defs it calls (any depth)?"""
    sym = lints.c.symbols.get(name)
    if name in seen or sym is None or not isinstance(sym.decl, n.DefDecl):
        return False
    seen.add(name)
    for t in walk(sym.decl.body):
        if isinstance(t, n.Name) and t.name == "me":
            return True
        if isinstance(t, (n.Call, n.Name)) and _def_reads_me(lints, t.name, seen):
            return True
    return False


def _given_me(lints, domain, chosen) -> bool:
    """Is `chosen` (`spots[p]`) indexed by a parameter of the def `domain` calls, given `me`?"""
    if not (isinstance(domain, n.Call) and isinstance(chosen, n.Index) and isinstance(chosen.index, n.Name)):
        return False
    sym = lints.c.symbols.get(domain.name)
    decl = getattr(sym, "decl", None) if sym is not None and sym.kind == "def" else None
    if not isinstance(decl, n.DefDecl) or not decl.params:
        return False
    given = {q.name: a for q, a in zip(decl.params, domain.args)}
    arg = given.get(chosen.index.name)
    return isinstance(arg, n.Name) and arg.name == "me"


def _w257_moves(lints, body, names: set, procs: dict, depth: int):
    """(W257) Where `body` moves the card that `names` hold (the parameter, a `let` of it, a
    procedure's parameter it is passed as — a review's `let t = s` and `keep(s)` were missed) into
    an `owner` zone: (the statement (or the call that leads there), the zone) or None; and whether
    it also shows the card (a move elsewhere, a `reveal`). Procedures 8 deep at most."""
    kept, shown, names = None, False, set(names)
    nodes = list(walk(body))
    for x in nodes:                             # (aliases: `let t = s`, in order of the block)
        if isinstance(x, n.Let) and isinstance(x.value, n.Name) and x.value.name in names:
            names.add(x.name)
    for x in nodes:
        if isinstance(x, n.Move) and isinstance(x.what, n.Name) and x.what.name in names:
            dest = lints.root_zone(x.dest)
            dsym = lints.c.symbols.get(dest) if dest else None
            if dsym is not None and dsym.kind == "zone" and _vis(dsym.decl) == ["owner"]:
                kept = kept or (x, dest)
            else:
                shown = True
        elif isinstance(x, n.Reveal) and _names(x.what) & names:
            shown = True
        elif isinstance(x, n.CallStmt) and x.name in procs and depth < 8:
            passed = {q.name for q, arg in zip(procs[x.name].params, x.args)
                      if isinstance(arg, n.Name) and arg.name in names}
            if passed:
                inner, seen = _w257_moves(lints, procs[x.name].body, passed, procs, depth + 1)
                kept = kept or (inner and (x, inner[1]))
                shown = shown or seen
    return kept, shown


def _w233(lints, d) -> None:
    """W233: a shown value reads `Z[me]` of an `others` zone (what every viewer may not see of their
    own), written in place or in a def it calls (`worth(me)` of `def worth(p) = sum(c.rank for c in
    hand[p])`, `mysum` of `def mysum = … hand[me] …`: a new author's Hanabi was warned of neither),
    the def's parameters standing for the call's arguments; reported where the shown value reads
    it (at the call). Its size, and what the rules told the owner (`told[c]`), are not reported."""
    budget = lints.__dict__.setdefault("w233_nodes", [W241_NODES])     # (one for the whole file)
    found: dict = {}                           # (line, column) -> (span, zone)
    _w233_in(lints, d.body, {}, set(), None, found, budget, set(), None)
    for span, zone in found.values():
        lints.report("W233", "warning", f"this shown value reads `{zone}[me]`, which its viewer cannot see "
                     f"(`others`): every player is shown something of their own cards", span)


def _w233_in(lints, body, bound: dict, params: set, span, found: dict, budget: list, read: set,
             counted_by: str | None) -> None:
    """W233 in `body`, whose parameters (`params`) stand for `bound`'s expressions; `span`: where the
    shown value called the def whose body this is (None: the shown value's own body);
    `counted_by`: `size` or `count` where the value of `body` is only counted (`size(held(me))`)."""
    nodes = list(walk(body))
    budget[0] -= len(nodes)
    if budget[0] < 0:
        return
    looped = {x.var for x in nodes if isinstance(x, n.Comprehension)}
    looped |= {m[0] for x in nodes if isinstance(x, n.Comprehension) for m in x.more}
    local = params | looped                  # (names that are not the file's defs here: W207)
    bound = {k: v for k, v in bound.items() if k not in looped}   # (a loop's own name hides a parameter)
    counted: set = set()                     # what is only counted: its size is no secret
    followed: dict = {}                      # a def call whose value is only counted -> by `size` or `count`
    for x in nodes:
        if isinstance(x, n.Call) and x.name in ("size", "count") and x.args and x.name not in lints.c.symbols:
            arg = x.args[0]
            if _def_called(lints, arg, local) is not None:
                followed[id(arg)] = x.name   # (its def's value is what is counted: read there)
            elif _only_counted(lints, arg, x.name):
                counted.update(id(y) for y in walk(arg))
    if counted_by is not None:               # (this body's value is counted: `size(my_cards)`, two defs down)
        if _def_called(lints, body, local) is not None:
            followed[id(body)] = counted_by
        elif _only_counted(lints, body, counted_by):
            counted.update(id(y) for y in walk(body))
    told = {id(x.iterable) for x in nodes if isinstance(x, n.Comprehension) and not x.more
            and all(not _names_in(x.var, part) or _told_only(lints, x.var, part)
                    for part in (x.elem, x.where, x.key))}
    for x in nodes:
        decl = _def_called(lints, x, local) if id(x) not in counted else None
        if decl is not None:
            args = {p.name: _bound(a, bound) for p, a in zip(decl.params or (), getattr(x, "args", ()))}
            key = (id(decl), tuple(sorted((k, id(v)) for k, v in args.items())), followed.get(id(x)))
            if key not in read:
                read.add(key)
                _w233_in(lints, decl.body, args, {p.name for p in decl.params or ()}, span or x.span, found,
                         budget, read, followed.get(id(x)))
            continue
        if isinstance(x, n.Index) and id(x) not in counted and id(x) not in told:
            zone = _others_zone(lints, x.obj)
            keys = x.index.items if isinstance(x.index, n.ListLit) else (x.index,)   # (`hand[me, red]`)
            if zone is not None and any(_is_me(lints, _bound(k, bound), local) for k in keys):
                at = span or x.span
                found.setdefault((at.line, at.column), (at, zone))


def _def_called(lints, x, local: set):
    """The def `x` calls (`worth(me)`, or `mysum` with no parameters), or None (a name a parameter
    or a loop's variable hides is no def there)."""
    if not isinstance(x, (n.Call, n.Name)) or x.name in local:
        return None
    sym = lints.c.symbols.get(x.name)
    decl = sym.decl if sym is not None and isinstance(sym.decl, n.DefDecl) else None
    if decl is not None and (isinstance(x, n.Call) and decl.params is not None and len(decl.params) == len(x.args)
                             or isinstance(x, n.Name) and decl.params is None):
        return decl
    return None


def _is_me(lints, e, local: set) -> bool:
    """Is `e` the viewer: `me`, or a def of no parameters that is `me` (`def mine = me`)?"""
    if not isinstance(e, n.Name):
        return False
    if e.name == "me":
        return True
    decl = _def_called(lints, e, local)
    return decl is not None and isinstance(decl.body, n.Name) and decl.body.name == "me"


def _only_counted(lints, e, how: str = "count") -> bool:
    """Does counting `e` tell only how many cards there are? A zone does; a list made of them
    (`[c for c in hand[me] where c.rank == 5]`) does only if it keeps each card whatever it is or
    by what the rules told; for `count`, which counts the true ones of true/false values, only if
    each element is the card itself or what the rules told (`size` counts every element)."""
    comp = e.comp if isinstance(e, n.ListComp) else e if isinstance(e, n.Comprehension) else None
    if comp is None:
        return True
    elem_plain = how == "size" or isinstance(comp.elem, n.Name) and comp.elem.name == comp.var
    return not comp.more and all(not _names_in(comp.var, part) or _told_only(lints, comp.var, part)
                                 for part in ((None if elem_plain else comp.elem), comp.where))


def _hides(lints, zone: str, index, viewers: bool = False) -> str | None:
    """Why reading the components of `zone[index]` shows what some viewer may not see: `hidden`, or
    `owner`/`others` of a player other than the viewer (W233 says `others` of `me`); None if it does not.
    `viewers`: `index` is the viewer there (read under `if me == index`)."""
    sym = lints.c.symbols.get(zone)
    vis = _vis(sym.decl) if sym is not None else []
    keys = index.items if isinstance(index, n.ListLit) else (index,)     # (`hid[me, c]`: a family's keys)
    mine = viewers or any(isinstance(k, n.Name) and (k.name == "me" or lints.__dict__.get("acting") and
                                                     _actor_name(lints, k.name)) for k in keys)
    if "hidden" in vis:
        # (a new author's deck-builder showed its own deck's points, `deck[me]`: hidden from its owner too, so
        # the bots' imagined worlds deal it anew — what its owner knows of it goes in a variable)
        return "hidden — from its owner too, and the bots' imagined worlds deal it anew (keep what its owner " \
               "knows of it in a variable the rules update)" if mine and index is not None else "hidden"
    if lints.__dict__.get("read_by_all"):      # (W266: a prompt, worded once, read by every player)
        mine = False
    if "owner" in vis and not mine:
        return "seen only by its owner"
    if "others" in vis and not mine and (index is None or lints.__dict__.get("read_by_all")):
        return "hidden from its owner"
    if "others" in vis and mine and lints.__dict__.get("acting"):     # (W263: the actor's own `others` zone,
        return "hidden from its owner, the player acting"                # which diagnostics.md says it covers — a review)
    return None


def _w241(lints, d, what: str = "this shown value") -> None:
    """W241: a shown value reads the components of a zone some viewer may not see (its top card, a
    list of its cards, their text): every viewer is shown them. Sizes are not components. Read
    through the defs it calls too (`worth(next(me))` of `def worth(p) = sum(… hand[p])`), their
    parameters standing for the call's arguments; each zone is reported once."""
    found: dict = {}                           # zone -> (span, why), in the order met
    budget = lints.__dict__.setdefault("w241_nodes", [W241_NODES])     # (one for the whole file)
    _w241_in(lints, d.body, {}, d.span, found, budget, set())
    at: dict = {}                              # span -> its zones (a def's findings at its call)
    for zone, (span, why) in found.items():
        at.setdefault((span.line, span.column), (span, []))[1].append((zone, why))
    for span, zones in at.values():
        if len(zones) == 1:
            said = f"zone `{zones[0][0]}`, which is {zones[0][1]}: every viewer is shown what it holds; show its size"
        else:
            said = (" and ".join(f"zone `{z}` ({why})" for z, why in zones)
                    + ": every viewer is shown what they hold; show their sizes")
        lints.report("W241", "warning", f"{what} reads the components of {said}, or what the rules "
                     f"told everyone", span)


W241_NODES = 200_000     # nodes W241 walks through defs in one file at most (crafted fan-outs of calls)


def _w241_in(lints, body, bound: dict, span, found: dict, budget: list, read: set) -> None:
    """W241 in `body`, whose parameter names stand for `bound`'s expressions; a finding inside a
    def called is reported at the call (`span`). `budget`: nodes still to walk in this file;
    `read`: the (def, arguments) already read for this shown value (each is read once)."""
    nodes = list(walk(body))
    budget[0] -= len(nodes)
    if budget[0] < 0:
        return
    if bound:                                # a loop's own name hides a parameter of that name
        looped = {x.var for x in nodes if isinstance(x, n.Comprehension)}
        looped |= {m[0] for x in nodes if isinstance(x, n.Comprehension) for m in x.more}
        bound = {k: v for k, v in bound.items() if k not in looped}
    inner = {id(y) for x in nodes           # (what is only counted, and each part of it — not a count
             if isinstance(x, n.Call) and x.name in ("size", "count") and x.args and x.name not in lints.c.symbols
             and not (isinstance(x.args[0], n.ListComp) and x.args[0].comp.where is not None)
             for y in walk(x.args[0])}      # of the cards that pass a test: `size([c for c in hand[p] where c.rank > 4])`)
    inner.update(id(y) for x in nodes       # (`count(c for c in deck)`: a size too)
                 if isinstance(x, n.Aggregate) and x.name == "count" and x.comp.where is None and not x.comp.more
                 and isinstance(x.comp.elem, n.Name) and x.comp.elem.name == x.comp.var for y in walk(x.comp))
    if bound and not lints.__dict__.get("read_by_all"):   # a def that decides by its parameter and the viewer what to
        inner.update(id(y) for x in nodes    # read (`if knows(p) then who(p) else "hidden"`) is trusted
                     if isinstance(x, n.Cond) and _names_param(x.test, bound) and _reads_me(lints, x.test)
                     for y in walk((x.then, x.other)))
    # (`if me == boss then … hideout[boss] …`: there the index is the viewer — a new author's Scotland
    # Yard was warned of its own guard, written the other way round from `boss == me`)
    viewers = {id(y) for x in nodes if isinstance(x, n.Cond) and isinstance(x.test, n.Binary) and x.test.op == "=="
               for e in _other_than_me(x.test) for y in walk(x.then)
               if isinstance(y, n.Index) and any(_same(_bound(k, bound), _bound(e, bound)) for k in (
                   y.index.items if isinstance(y.index, n.ListLit) else (y.index,)))}
    for x in nodes:
        if id(x) in inner:
            continue
        decl = None
        if isinstance(x, (n.Call, n.Name)):
            sym = lints.c.symbols.get(x.name)
            decl = sym.decl if sym is not None and isinstance(sym.decl, n.DefDecl) else None
        if decl is not None and (isinstance(x, n.Call) and decl.params is not None and len(decl.params) == len(x.args)
                                 or isinstance(x, n.Name) and decl.params is None):
            args = {p.name: _bound(a, bound) for p, a in zip(decl.params or (), getattr(x, "args", ()))}
            key = (id(decl), tuple(sorted((k, id(v)) for k, v in args.items())))
            if key not in read:
                read.add(key)
                _w241_in(lints, decl.body, args, x.span if not bound else span, found, budget, read)
            if isinstance(x, n.Call):
                continue
        if not isinstance(x, (n.Name, n.Index)):
            continue
        zone = lints.root_zone(x)
        if zone is None:
            continue
        inner.update(id(y) for y in walk(x))   # (one finding for `hand[p]`, not its `hand` too)
        index = _bound(x.index, bound) if isinstance(x, n.Index) else None
        why = _hides(lints, zone, index, id(x) in viewers)
        if why is not None and zone not in found:
            found[zone] = (x.span if not bound else span, why)


def _other_than_me(test) -> list:
    """Of `me == E` or `E == me`: [E]; else []."""
    if isinstance(test.left, n.Name) and test.left.name == "me":
        return [test.right]
    if isinstance(test.right, n.Name) and test.right.name == "me":
        return [test.left]
    return []


def _same(a, b) -> bool:
    """The same expression, written twice (spans aside)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if not isinstance(a, n.Node):
        return a == b
    return all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__ if f != "span")


def _names_param(test, bound: dict) -> bool:
    return any(isinstance(t, n.Name) and t.name in bound for t in walk(test))


def _reads_me(lints, test, depth: int = 2) -> bool:
    """Does a condition read the viewer (`me`) or a variable (what the rules set when something
    became known: `dead[p]`, `revealed[p]`), itself or in a def it calls? (`p == me`, `knows(p)`:
    what is read under it is what the viewer may know; `size(hand[p]) > 0` is not such a test)."""
    for t in walk(test):
        if isinstance(t, n.Name) and t.name == "me":
            return True
        if isinstance(t, n.Name) and (lints.c.refs.get(id(t)) or ("",))[0] == "var":
            return True
        if depth and isinstance(t, (n.Call, n.Name)):
            sym = lints.c.symbols.get(t.name)
            if sym is not None and isinstance(sym.decl, n.DefDecl) and _reads_me(lints, sym.decl.body, depth - 1):
                return True
    return False


def _bound(e, bound: dict):
    """`e`, a def's parameter name, as the expression the call gave it (else `e` itself)."""
    return bound.get(e.name, e) if isinstance(e, n.Name) else e


def _names_in(name: str, e) -> bool:
    return e is not None and name in _names(e)


def _told_only(lints, name: str, e, depth: int = 0) -> bool:
    """Does `e` read the component `name` only through public variables kept per component (what
    the rules set when its owner was told: `told[c]`)? That tells the owner nothing new. Through
    the defs it is passed to as well (`told_text(c)` of `def told_text(c) = text(told[c])`: a new
    author was warned of the def and not of the same words written in place), a few calls deep."""
    reads = [x for x in walk(e) if isinstance(x, n.Name) and x.name == name]
    through = set()
    for x in walk(e):
        if isinstance(x, n.Index) and isinstance(x.index, n.Name) and x.index.name == name \
                and isinstance(x.obj, n.Name):
            sym = lints.c.symbols.get(x.obj.name)
            if sym is not None and sym.kind == "var" and _vis(sym.decl) in ([], ["public"]):
                through.add(id(x.index))
        elif isinstance(x, n.Call) and depth < 4:
            sym = lints.c.symbols.get(x.name)
            params = sym.decl.params if sym is not None and sym.kind == "def" else None
            for arg, param in zip(x.args, params or ()):
                if isinstance(arg, n.Name) and arg.name == name and (
                        not any(isinstance(y, n.Name) and y.name == param.name for y in walk(sym.decl.body))
                        or _told_only(lints, param.name, sym.decl.body, depth + 1)):
                    through.add(id(arg))
    return bool(reads) and all(id(x) in through for x in reads)


def _w230(lints, name: str, zone: str, what: str, span) -> None:
    lints.report("W230", "warning", f"`{name}` comes from zone `{zone}`, which its owner cannot see (`others`), "
                 f"and this condition reads it: {what} tells the owner about their own cards; read only what "
                 f"the owner knows (their place, a variable the rules set when they are told)", span)


def _chance(e, lints=None, lets: frozenset = frozenset()) -> bool:
    """Does `e` roll — itself, or (with `lints`) through a def that rolls, or a `let` of `lets` (the
    names that hold a roll there: `let r = roll(6)  secret[p] = r` — a new author's Liar's Dice kept
    its cups so, linting clean)?"""
    return _chance_in(e, (_rolling_defs(lints) if lints is not None else frozenset()) | lets)


def _rolling_defs(lints) -> frozenset:
    """The defs that roll, themselves or through other defs (any depth), once a file."""
    found = lints.__dict__.get("w245_defs")
    if found is not None:
        return found
    defs = {d.name: d for d in lints.game.decls if isinstance(d, n.DefDecl)}
    rolled: set = set()
    changed = True
    while changed:
        changed = False
        for name, d in defs.items():
            if name not in rolled and _chance_in(d.body, rolled):
                rolled.add(name)
                changed = True
    found = lints.__dict__["w245_defs"] = frozenset(rolled)
    return found


def _w245_lets(lints, block: tuple, secret_zones: bool) -> None:
    """W245 through a `let` holding a roll: the statements after it in its block that keep it (where
    no `let` or loop of that name comes between)."""
    defs = _rolling_defs(lints)
    held: set = set()
    for x in block:
        if isinstance(x, n.Let):
            if _chance_in(x.value, defs | held):
                held.add(x.name)
            else:
                held.discard(x.name)
            continue
        if not held:
            continue
        for y in walk(x):
            if isinstance(y, (n.Assign, n.Append)) and not isinstance(y.target, str):
                names = {z.name for z in walk(y.value) if isinstance(z, n.Name)} & held
                if names and not any(isinstance(z, n.Let) and z.name in names
                                     or getattr(z, "var", None) in names for z in walk(x)):
                    _w245(lints, y, secret_zones, frozenset(names))


def _chance_in(e, rolled: set) -> bool:
    return any(isinstance(x, n.Call) and x.name in ("roll", "pick")
               or isinstance(x, (n.Name, n.Call)) and x.name in rolled for x in walk(e))


def _w245(lints, d, secret_zones: bool, lets: frozenset = frozenset()) -> None:
    """W245: a roll kept where some player may not read it — a `hidden`, `owner` or `others`
    variable, a variable per component or a component's field (secret while the component lies
    in a zone some player cannot see). A fair copy (`determinized`: what `ismcts` and `greedy`
    search) deals unseen components anew and gives them fresh luck, but keeps the values: the
    bot knows the roll. Cards dealt from a bag are sampled anew."""
    if isinstance(d, n.Create):
        kwargs = [kw for kw in d.make.kwargs if _chance(kw.value, lints, lets)]
        if kwargs and secret_zones and (lints.c.symbols.get(d.make.kind) is None
                                        or lints.c.symbols[d.make.kind].kind == "kind"):
            lints.report("W245", "warning", f"field `{kwargs[0].name}` is set by a roll, and some player cannot "
                         f"see some zone: where a component lies unseen, the search bots' imagined worlds "
                         f"(`ismcts`, `greedy`) keep its field, so they know the roll; for a secret roll, "
                         f"take a random die of the face rolled from a bag of dice (language.md, \"Secret rolls\")", kwargs[0].span)
        return
    if not _chance(d.value, lints, lets) or d.target.name in lints.c.symbols and lints.c.symbols[d.target.name].kind != "var":
        return
    sym = lints.c.symbols.get(d.target.name)
    if sym is None or not isinstance(sym.decl, n.VarDecl):
        return
    vis = [v for v in _vis(sym.decl) if v in ("hidden", "owner", "others")]
    per = sym.decl.per
    per_kind = per is not None and lints.c.symbols.get(per) is not None and lints.c.symbols[per].kind == "kind"
    if vis:
        why = f"`{d.target.name}` is `{vis[0]}`"
    elif per_kind and secret_zones and not any(m.name == "public" for m in sym.decl.modifiers):
        why = f"`{d.target.name}` is per {per}, whose components some player cannot see where they lie unseen"
    else:
        return
    lints.report("W245", "warning", f"a roll kept where some player may not read it: {why}; the search bots' "
                 f"imagined worlds (`ismcts`, `greedy`) keep the values of variables, so they know it; for a "
                 f"secret roll, take a random die of the face rolled from a bag of dice (language.md, \"Secret rolls\")", d.span)


def _w255(lints, d) -> None:
    """W255: a `hidden`, `owner` or `others` variable set from the fields of components a zone hides
    (`coins[p] = 15 + sum(t.amount for t in purse[p])`). The search bots' imagined worlds deal that
    zone anew but keep the variable: a bot of another seat knows the value, and its worlds contradict
    themselves (a new author's auction). A def worked out from the zone is dealt with it."""
    sym = lints.c.symbols.get(d.target.name)
    if sym is None or sym.kind != "var" or not isinstance(sym.decl, n.VarDecl):
        return
    vis = [v for v in _vis(sym.decl) if v in ("hidden", "owner", "others")]
    if not vis or not any(isinstance(x, n.Attr) for x in walk(d.value)):
        return
    for x in walk(d.value):
        zone = lints.c.symbols.get(x.name) if isinstance(x, n.Name) else None
        if zone is not None and zone.kind == "zone" and any(v in _vis(zone.decl) for v in ("hidden", "owner", "others")):
            lints.report("W255", "warning", f"`{d.target.name}` is `{vis[0]}` and is set from what zone "
                         f"`{x.name}` hides: the search bots' imagined worlds (`ismcts`, `greedy`) deal that zone "
                         f"anew but keep the variable's value, so a bot of another seat knows it; work it out "
                         f"where it is read instead (a def over the zone: `def {d.target.name}(p: player) = …`), "
                         f"and keep in the variable only what every seat may know", d.span)
            return


def _w256(lints, d) -> None:
    """W256: `first`/`last` of a `hidden` set (or of a list made from one): a set has no order the
    rules gave it, so the component taken is the one of lowest (highest) id among those that match,
    and the id it shows when it comes into view tells which ones were taken before — a new
    author's Liar's Dice, taking `first([d for d in bag where d.face == f])`, told each player the
    others' faces (language.md, "Secret rolls"). `pick` takes one at random."""
    arg = d.comp if isinstance(d, n.Aggregate) else (d.args[0] if d.args else None)
    if isinstance(arg, n.ListComp):
        arg = arg.comp
    source = arg.iterable if isinstance(arg, n.Comprehension) else arg
    zone = lints.root_zone(source) if source is not None else None
    sym = lints.c.symbols.get(zone) if zone else None
    if sym is None or sym.kind != "zone" or not isinstance(sym.decl, n.ZoneDecl) or sym.decl.shape != "set" \
            or "hidden" not in _vis(sym.decl):
        return
    # (where only one can match — a slot numbered `s.k == n` — nothing is told: a review found the words
    # said otherwise)
    lints.report("W256", "warning", f"`{d.name}` of zone `{zone}`, a `hidden` set: its components have no order, "
                 f"so where several match this takes the one of {'lowest' if d.name == 'first' else 'highest'} id "
                 f"among them, and that id, once seen, tells which were taken before; take one at random: `pick(…)` "
                 f"(where only one can match, nothing is told)", d.span)


_PAUSES = (n.Choose, n.May, n.Open, n.Emit, n.ResolveTriggers, n.RunHook, n.CallStmt, n.EndTurn, n.Goto,
           n.Finish)


def _w248(lints, body, shown: dict | None = None, bound: dict | None = None) -> dict:
    """W248: `reveal X` and then, before anyone is asked anything (a `choose`, a window, a proc that
    may ask), `move X …` or `shuffle X`: a reveal lasts until the cards move, so no player ever saw
    them (a new author's Liar's Dice lifted every cup and rerolled in one action). Returns what is
    still shown after the block (the branches of an `if` each from what was shown before it).
    `bound`: what each name a `for` or `let` binds is bound to — `cup[p]` of two loops over the
    players is one, `x` of `for x in a[p]` and of `for x in b[p]` are not (a new author's Tichu read
    that the gifts it revealed moved away unseen: the second loop moved other cards)."""
    shown = {} if shown is None else shown
    bound = {} if bound is None else bound
    for s in body:
        if isinstance(s, _PAUSES):
            shown = {}
            for block in _blocks(s):            # (a choice's body runs once it is answered)
                shown.update(_w248(lints, block, {}, bound))
        elif isinstance(s, n.Reveal):
            shown.setdefault(_bound_shape(s.what, bound), s)
        elif isinstance(s, (n.Move, n.Shuffle)):
            r = shown.pop(_bound_shape(s.what if isinstance(s, n.Move) else s.zone, bound), None)
            if r is not None:
                lints.report("W248", "warning", f"what this reveals moves away (line {s.span.line}) before any player "
                             f"is asked anything, and a reveal lasts only until the cards move: nobody sees them; "
                             f"`log` what they are (a message everyone reads), or move them in a later step",
                             r.span)
        elif isinstance(s, n.If):
            then, other = _w248(lints, s.then, dict(shown), bound), _w248(lints, s.other, dict(shown), bound)
            shown = {**then, **other}
        elif isinstance(s, n.Let):
            bound = {**bound, s.name: ("let", _bound_shape(s.value, bound))}
        elif isinstance(s, n.For):
            inner = {**bound, s.var: ("for", _bound_shape(_filtered(s.iterable), bound))}
            shown = _w248(lints, s.body, shown, inner)
        else:
            for block in _blocks(s):
                shown = _w248(lints, block, shown, bound)
    return shown


def _bound_shape(e, bound: dict):
    """`_shape(e)`, each name a `for` or `let` bound given as what it was bound to, whatever its name
    (`a[p]` of `for p in players` and `a[q]` of `for q in players` are one)."""
    def keyed(shape):
        if isinstance(shape, tuple) and len(shape) == 2 and shape[0] == "Name" and shape[1] in bound:
            return ("Bound", bound[shape[1]])
        return tuple(keyed(x) for x in shape) if isinstance(shape, tuple) else shape
    return keyed(_shape(e))


def _filtered(e):
    """What a loop's cards are taken from: a comprehension's own source (`[c for c in a[0] where …]`
    holds cards of `a[0]`: those revealed by a loop over `a[0]` may be among them)."""
    while isinstance(e, n.ListComp) and not e.comp.more and isinstance(e.comp.elem, n.Name) \
            and e.comp.elem.name == e.comp.var:
        e = e.comp.iterable
    return e


def _blocks(s):
    """The blocks of statements a statement holds (a loop's body, a choice's body and `else`)."""
    for name in s.__dataclass_fields__:
        value = getattr(s, name)
        if name != "span" and isinstance(value, tuple) and value and all(isinstance(x, n.Node) for x in value):
            yield value


def _shape(e):
    """An expression as its structure alone (not where it is written): `cup[p]` in two loops is one."""
    if isinstance(e, n.Node):
        return (type(e).__name__,) + tuple(_shape(getattr(e, f)) for f in e.__dataclass_fields__ if f != "span")
    if isinstance(e, tuple):
        return tuple(_shape(x) for x in e)
    return e


def _w244(lints, d) -> None:
    """W244: `choose x in ZONE where C` (or from a comprehension with `where`) over a zone some
    player cannot see, without `always`: a forced choice is not asked (an `optional` one is not
    asked with nothing to choose), so whether the question comes tells every other player how many
    of the secret cards fit."""
    if d.mode != "one" or d.always:
        return
    filtered = d.where is not None or any(isinstance(x, n.Comprehension) and x.where is not None
                                          for x in walk(d.domain))
    if not filtered:
        return                                 # (every card of the zone: its size is what tells)
    for x in walk(d.domain):
        if not isinstance(x, (n.Name, n.Index)):
            continue
        zone = lints.root_zone(x)
        sym = lints.c.symbols.get(zone) if zone else None
        vis = _vis(sym.decl) if sym is not None else []
        if any(v in vis for v in ("hidden", "owner", "others")):
            lints.report("W244", "warning", f"this choice's options are the cards of zone `{zone}` that fit, "
                         f"and some player cannot see that zone: without `always` it is not asked when "
                         f"{'none fits' if d.optional else 'only one fits'}, so the others learn "
                         f"{'whether any does' if d.optional else 'whether more than one does'}; write "
                         f"`always` (before `prompt`)", d.span)
            return


QUESTIONS = (n.May, n.Choose, n.Open)
PUBLIC_MEASURES = ("size", "count", "empty")    # of a zone whose size is told: what everyone sees


def _secret_read(lints, e, depth: int = 2, seen: frozenset = frozenset()) -> str | None:
    """A zone some player cannot see whose components `e` reads (not only its size), itself or in a
    def it calls (`depth` defs deep); None if it reads none."""
    def counted(a) -> bool:                  # (an `uncounted` zone's size is a secret too)
        sym = lints.c.symbols.get(lints.root_zone(a) or "")
        return sym is None or not any(m.name == "uncounted" for m in getattr(sym.decl, "modifiers", ()))
    measured = {id(y) for x in walk(e) if isinstance(x, n.Call) and x.name in PUBLIC_MEASURES
                and x.name not in lints.c.symbols for a in x.args[:1] if counted(a) for y in walk(a)}
    for x in walk(e):
        if isinstance(x, (n.Name, n.Index)) and id(x) not in measured:
            zone = lints.root_zone(x)
            sym = lints.c.symbols.get(zone) if zone else None
            if sym is not None and any(v in _vis(sym.decl) for v in ("hidden", "owner", "others")):
                return zone
        if isinstance(x, (n.Call, n.Name)) and depth > 0 and x.name not in seen:
            sym = lints.c.symbols.get(x.name)       # (a def of no parameters is named alone: `mafia_alive`)
            body = getattr(sym.decl, "body", None) if sym is not None and sym.kind == "def" else None
            if isinstance(body, n.Node):
                found = _secret_read(lints, body, depth - 1, seen | {x.name})
                if found is not None:
                    return found
    return None


def _w249(lints, d) -> None:
    """W249: `if C { … a question … }` where C reads the cards of a zone some player cannot see
    and the other branch asks nothing: whether anyone is asked tells everyone whether C held (a
    leak scan: a card game asked only a player whose opening hand lacked a kind of card, in every seat's view)."""
    def asks(block) -> bool:
        return any(isinstance(x, QUESTIONS) for s in block for x in walk(s))
    if not asks(d.then) or asks(d.other):
        return
    zone = _secret_read(lints, d.test)
    if zone is None:
        return
    lints.report("W249", "warning", f"this question is asked only when a condition on the cards of zone `{zone}` "
                 f"holds, which some player cannot see: everyone sees who is asked, so they learn it; ask "
                 f"every time (`choose … always`, with the options the condition allows) or decide without "
                 f"asking", d.span)


def _w259(lints, who, what: str, span) -> None:
    """W259: who is asked — a question's `by`, a window's `to`, a simultaneous step's `by` — worked out
    from the cards of a zone some player cannot see: everyone sees who is asked (a new author's Mafia
    asked `step night simultaneous by mafia_alive`, and every seat's view named the Mafia). W249's
    leak, without an `if`."""
    zone = _secret_read(lints, who)
    if zone is None:
        return
    lints.report("W259", "warning", f"{what} is worked out from the cards of zone `{zone}`, which some player "
                 f"cannot see: everyone sees who is asked, so they learn it; ask every player who might be "
                 f"(each with the options their cards allow, `always`), or decide without asking", span)


def _w251(lints, body, seen: set | None = None) -> None:
    """W251: `let x = …` takes a card from a zone some player cannot see, and a question later in the
    same block is followed by a read of `x`: a search bot's imagined world deals the zone anew but
    keeps the effect's `let` as the real card, so the bot asked knows it (a leak scan: a guess at
    the top card, `if n == c.rank` after the question, was right 30 times in 30)."""
    seen = set() if seen is None else seen
    blocks = [body] + [getattr(x, attr) for st in body for x in walk(st)
                       for attr in ("body", "then", "other") if isinstance(getattr(x, attr, None), tuple)]
    for block in blocks:
        if id(block) in seen:
            continue
        seen.add(id(block))
        for i, st in enumerate(block):
            if isinstance(st, n.Assign) and st.op == "=" and st.target.index is None:
                zone = lints.root_zone(st.value)      # (`d = top(deck)` of a local: W266 reads it as a `let`)
                sym = lints.c.symbols.get(zone) if zone and st.target.name not in lints.c.symbols else None
                if sym is not None and any(v in _vis(sym.decl) for v in ("hidden", "owner", "others")):
                    _w266_let(lints, n.Let(st.span, st.target.name, st.value), zone, block[i + 1:])
                continue
            if not isinstance(st, n.Let):
                continue
            zone = lints.root_zone(st.value)          # (a card taken from where it lies: `top(deck)`)
            sym = lints.c.symbols.get(zone) if zone else None
            if sym is None or not any(v in _vis(sym.decl) for v in ("hidden", "owner", "others")):
                continue
            if any(_reveals(lints, y) for y in block[:i]):
                continue                          # (shown first, through a procedure too: Neophyte's top card)
            _w266_let(lints, st, zone, block[i + 1:])
            for j in range(i + 1, len(block)):
                asked = any(isinstance(x, QUESTIONS) for x in walk(block[j]))
                later = block[j]
                if _reveals(lints, later) or _shown_after(lints, later, st.name, False) or _rebinds(later, st.name):
                    break                     # (shown, before it is asked or inside: not said — Walker's look;
                    #                            or the name holds another card from here on: a review)
                if asked and any(isinstance(x, n.Name) and x.name == st.name for y in block[j:] for x in walk(y)):
                    lints.report("W251", "warning", f"`{st.name}` holds what zone `{zone}` hides, which some "
                                 f"player cannot see, and is read after a question: the search bots' imagined "
                                 f"worlds deal that zone anew but keep `{st.name}` as the real card, so a bot asked "
                                 f"knows it; read it where it lies after the answer (`top(…)`), or reveal it to "
                                 f"the one asked first", st.span)
                    break


def _w266_let(lints, let, zone: str, stmts, shown: bool = False) -> bool:
    """W266 of a prompt that reads a `let` holding a card of a zone some player cannot see: `let d =
    top(deck)  move d to drawn[me]  choose … prompt "you drew " + text(d)` told every seat the card
    (a new author's Uno), where `text(top(drawn[me]))` was warned of. The first such prompt in `stmts`
    (and the blocks inside them) is reported; not while the card is shown to all — revealed to
    everyone, or laid in a public zone, itself or by a procedure given it — nor once the name holds
    something else (`let`, `=`, a loop's or a choice's own name). True: look no further."""
    name = let.name
    for st in stmts:
        if _rebinds(st, name):
            return True
        shown = _shown_after(lints, st, name, shown)
        if isinstance(st, (n.Choose, n.May)) and st.prompt is not None and not shown \
                and any(isinstance(y, n.Name) and y.name == name for y in walk(st.prompt)):
            lints.report("W266", "warning", f"this question's prompt reads `{name}`, a card of zone "
                         f"`{zone}`, which some player cannot see: every player reads the prompt, so they learn "
                         f"it; word the prompt without it, or tell the chooser alone (`log … to [p]`)",
                         st.prompt.span)
            return True
        if isinstance(st, (n.For, n.Choose)) and st.var == name:
            continue                             # (inside, the name is the loop's or the choice's own)
        if any(_w266_let(lints, let, zone, block, shown) for block in _blocks(st)):
            return True
    return False


def _rebinds(st, name: str) -> bool:
    """Does statement `st` give the local `name` something else to hold (`let`, `name = …`)?"""
    return isinstance(st, n.Let) and st.name == name or \
        isinstance(st, n.Assign) and st.target.name == name and st.target.index is None


def _shown_after(lints, st, name: str, shown: bool, depth: int = 2) -> bool:
    """Is a `let`'s card shown to all after statement `st` (it was: `shown`)? A `reveal` of it to
    everyone, or a move of it into a public zone, shows it; a move of it into a hidden one hides it
    again (never seen between two decisions); a procedure given it counts as its body does."""
    if isinstance(st, n.Reveal) and st.to is None and any(isinstance(y, n.Name) and y.name == name
                                                          for y in walk(st.what)):
        return True
    if isinstance(st, n.Move) and isinstance(st.what, n.Name) and st.what.name == name:
        dest = lints.root_zone(st.dest)
        sym = lints.c.symbols.get(dest) if dest else None
        return sym is not None and sym.kind == "zone" and not any(
            v in _vis(sym.decl) for v in ("hidden", "owner", "others"))
    if isinstance(st, n.CallStmt) and depth > 0:
        sym = lints.c.symbols.get(st.name)
        decl = sym.decl if sym is not None and sym.kind == "proc" else None
        if isinstance(decl, n.ProcDecl):
            for p, arg in zip(decl.params, st.args):
                if isinstance(arg, n.Name) and arg.name == name:
                    for inner in decl.body:
                        shown = _shown_after(lints, inner, p.name, shown, depth - 1)
    return shown


def _reveals(lints, st, depth: int = 2) -> bool:
    """Does statement `st` reveal something, itself or in a procedure it calls (`depth` deep)?"""
    for x in walk(st):
        if isinstance(x, n.Reveal):
            return True
        if isinstance(x, n.CallStmt) and depth > 0:
            sym = lints.c.symbols.get(x.name)
            body = getattr(sym.decl, "body", None) if sym is not None and sym.kind == "proc" else None
            if body and any(_reveals(lints, y, depth - 1) for y in body):
                return True
    return False

