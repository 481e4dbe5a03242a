"""What a seat (or a spectator) of a served match is sent: plain JSON made only from the engine's
public API (`view(p)`, `legal_actions()`, `interrupts(p)`, `log_for(p)`, `messages_for(p)`,
`visible_to(p)`) and from the rule file's static facts (the board's geometry, the action
parameters' types). Nothing here knows any game.

A seat's payload holds exactly what `view(seat)` gives it, its own legal actions (only when it is
to act or may act out of turn), the log as `log_for(seat)` words it and its messages. A spectator's
payload is public information only: see `spectator_payload`.
"""
from __future__ import annotations

import copy
import json
import math
import re

from rulelang.core.errors import RulelangError
from rulelang.core.limits import WORK_LIMIT
from rulelang.core.textsafe import printable
from rulelang import without_internal
from rulelang.play.render import board_legend

LOG_TAIL = 300              # the last log lines and messages a page is sent with a state (the rest on asking)
HIDDEN_ABILITY = "(an ability of a card you cannot see)"
SQRT3_2 = math.sqrt(3) / 2


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


# ---- the board: its cells as shapes, once per game ----------------------------------------------
def board_layout(game) -> dict | None:
    """The board's cells with their place and shape, for drawing as SVG; None without a board.
    Rows run upwards (row 1 at the bottom), as the rule files name cells."""
    g = getattr(game, "geometry", None)
    if g is None:
        return None
    cells = []
    for c in range(g.size):
        col, row, kind = g.cols[c], g.rows[c], g.kinds[c]
        y = g.height - row
        if g.shape == "squares":
            x, shape = col - 1, "square"
        elif g.shape == "hexes":               # odd rows (2nd, 4th...) shifted half a cell right
            x, y, shape = col - 1 + (0.5 if (row - 1) % 2 else 0.0), y * SQRT3_2, "hex"
        elif g.axial:                          # rhombus, hexagon: each row half a cell right of the one below
            x, y, shape = col - 1 + (row - 1) * 0.5, y * SQRT3_2, "hex"
        elif kind == "socket":                 # octagons: a socket where four octagons meet
            x, y, shape = col - 0.5, g.height - row - 0.5, "socket"
        else:
            x, shape = col - 1, "octagon"
        cells.append({"name": g.names[c], "x": round(x, 4), "y": round(y, 4), "shape": shape})
    xs = [c["x"] for c in cells] or [0]
    ys = [c["y"] for c in cells] or [0]
    legend = board_legend(game.ir)
    return {"shape": g.shape, "width": g.width, "height": g.height, "cells": cells,
            "min_x": min(xs), "min_y": min(ys), "max_x": max(xs), "max_y": max(ys),
            "legend": [printable(x) for x in legend]}          # (the rule file's key to its drawings)


def cell_glyphs(match, seat: int | None) -> dict:
    """Each cell's short drawing, as the text board of `view(seat)` draws it: the rules' `draw` def
    (evaluated for `seat`, as the view does), or the top component of the public cell zones.
    A spectator (None): only the cells whose drawing is the same for every seat — and where the
    `draw` def reads `me`, the public cell zones' drawing instead: a cell left out because the seats
    drew it differently told where their secrets lay (a new author's Battleship: every ship square)."""
    game = match.game
    if seat is None:
        if game.draw is not None and _reads_me(game.ir)(game.ir["boards"][0]["draw"]):
            return _public_glyphs(match)
        per = [cell_glyphs(match, p) for p in range(match.players)]
        if match.players == 1:
            return per[0]
        return {name: glyph for name, glyph in per[0].items() if all(g.get(name) == glyph for g in per[1:])}
    g = game.geometry
    if g is None:
        return {}
    out: dict = {}
    if game.draw is not None:
        saved = match.me                       # (the view's own way: Match._drawing)
        try:
            for c in range(g.size):
                match.me, match.work = seat, WORK_LIMIT
                out[g.names[c]] = printable(_plain(game.draw(match, c)))[:max(3, g.cell_width)]
        except (RulelangError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError):
            return {}
        finally:
            match.me = saved
        return out
    return _public_glyphs(match, seat)


def _public_glyphs(match, seat: int = 0) -> dict:
    """The top component of each cell's public zones (what every seat sees alike there)."""
    out: dict = {}
    if match.game.geometry is None:
        return out
    view = without_internal(match.view(seat))
    variables = view.get("cell_vars") or {}
    for name, held in view["cells"].items():
        for key, value in held.items():
            # (a variable per cell is no zone: its list holds seat 0's ids — they told a spectator
            # which hidden card was set there, a review)
            if key not in variables and isinstance(value, list) and value:
                out[name] = printable(value[-1])
                break
    return out


def _plain(v) -> str:
    """A value as the rules' `text` writes it (the drawing of a cell is short: long lists are cut)."""
    if isinstance(v, str):
        return v
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)[:40]


# ---- the actions: what each involves (cards and cells), for narrowing by a click ------------
def _param_shows(game) -> dict:
    """(action name, its parameters' names) -> each parameter's type as the rules show it
    ("comp", "cell", "player", ...), from the IR."""
    found = getattr(game, "_web_param_shows", None)
    if found is not None:
        return found
    shows: dict = {}
    for step in game.ir.get("steps", []):
        for a in step.get("actions", []):
            key = (a["name"], tuple(p["name"] for p in a.get("params", [])))
            kinds = [p.get("show") or "plain" for p in a.get("params", [])]
            old = shows.get(key)
            shows[key] = kinds if old is None else [x if x == y else "plain" for x, y in zip(old, kinds)]
    game._web_param_shows = shows
    return shows


def describe_actions(match, actions, seen_ids: set) -> list[dict]:
    """Each action as {text, comps, cells}: the components (only ones the seat sees) and cells its
    parameters name."""
    shows = _param_shows(match.game)
    g = match.game.geometry
    answers = match.option_components()                  # a question's options that are components
    out = []
    for a in actions:
        comps: list = []
        cells: list = []
        if a.name == "choose" and answers.get(a.text) in seen_ids:
            comps.append(answers[a.text])
        try:
            args = a.args
            kinds = shows.get((a.name, tuple(args)), [])
        except (AttributeError, TypeError, IndexError):
            args, kinds = {}, []
        for kind, value in zip(kinds, args.values()):
            values = value if isinstance(value, list) else [value]
            for v in values:
                if type(v) is not int:
                    continue
                if kind == "comp" and v in seen_ids:
                    comps.append(v)
                    # (its copies the seat sees: this one action stands for each of them)
                    comps += [o for o in match.copies_of(v) if o in seen_ids and o not in comps]
                elif kind in ("cell", "list:cell") and g is not None and 0 <= v < g.size \
                        and g.names[v] not in cells:
                    cells.append(g.names[v])    # (a piece's squares, `cs: list[cell]`: a new author's Blokus)
        entry = {"text": printable(a.text), "comps": comps, "cells": cells}
        if a.name in revealing(match.game):              # (a stray tap shows a secret to all: asked first)
            entry["reveals"] = True
        about = _enum_words(match.game).get(a.text) if not comps else None
        if about:                                        # (a faction to draft: its rules text, public)
            entry["about"] = printable(about)
        out.append(entry)
    return out


def revealing(game) -> set:
    """The names of the actions whose effect reveals something (a `reveal`, itself or in a procedure
    it calls): the page asks before it plays one — a browser trial's one tap beside `begin` showed a
    hidden character to every seat."""
    found = game.__dict__.get("_revealing")
    if found is None:
        procs = game.ir.get("procs") or {}

        def reveals(node, seen: set) -> bool:
            for x in _walk(node):
                if x.get("s") == "reveal":
                    return True
                name = x.get("proc") if x.get("s") == "call" else None
                if isinstance(name, str) and name not in seen and name in procs:
                    seen.add(name)
                    if reveals(procs[name], seen):
                        return True
            return False
        found = {a["name"] for st in game.ir.get("steps") or () for a in st.get("actions") or ()
                 if reveals(a, set())}
        game.__dict__["_revealing"] = found
    return found


def _walk(x):
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def _enum_words(game) -> dict:
    """An enum value's shown text -> its rules text (`about`), for the options that name one."""
    words = game.__dict__.get("_enum_words")
    if words is None:
        words = {}
        for values in (game.ir.get("enums") or {}).values():
            for v in values:
                if isinstance(v, dict) and v.get("about") and v.get("text") is not None:
                    words.setdefault(str(v["text"]), str(v["about"]))
        game.__dict__["_enum_words"] = words
    return words


# ---- payloads -----------------------------------------------------------------------------
def _ids_in(view: dict) -> set:
    """The components a view shows (by id)."""
    ids = set()
    for z in view["zones"]:
        for c in (z.get("cards") or []) + (z.get("known") or []):
            ids.add(c["id"])
    return ids


def seat_payload(match, seat: int, *, actions: bool = True) -> dict:
    """Everything `seat` is sent about the match now."""
    view = without_internal(match.view(seat))         # (without what the rules keep `internal`)
    seen = match.visible_to(seat) | _ids_in(view)
    if not actions or match.is_over:
        acts, out_of_turn = [], []
    elif match.simultaneous is not None:     # each seat still to answer, whoever answers first
        acts, out_of_turn = match.legal_actions_of(seat), []
    elif match.current_player == seat:          # (asked a question: their any-time actions too)
        acts = match.legal_actions()
        out_of_turn = match.interrupts(seat) if match.question is not None else []
    else:
        acts, out_of_turn = [], match.interrupts(seat)
    return {"seat": seat, "view": view, "glyphs": cell_glyphs(match, seat),
            "actions": describe_actions(match, acts, seen),
            "out_of_turn": describe_actions(match, out_of_turn, seen),
            **history(match, seat, LOG_TAIL), "names": names_seen(match, seen),
            "card_names": card_names(match.game), "worded_cards": worded_cards(match.game)}


def history(match, seat: int | None, tail: int | None = None) -> dict:
    """The log as `seat` reads it and the messages it was sent (a spectator: the public ones), the
    last `tail` of each, with how many there are in all: a page is sent the last LOG_TAIL with every
    state, and the whole of them when the player asks (a browser trial: a card given in secret to P1
    at the start of a long game was gone from its Messages, and the list renumbered as it went)."""
    log = match.log_for(seat)
    messages = match.messages_for(seat) if seat is not None else \
        [x["text"] for x in match.message_log() if x["to"] is None]
    return {"log": log[-tail:] if tail else log, "log_length": len(log),
            "messages": messages[-tail:] if tail else messages, "messages_length": len(messages)}


def names_seen(match, seen: set) -> list:
    """[label, id] of each component the reader may see now, one per label (a publicly seen copy
    first): the page makes these names in its status values, messages and log open the card's tip.
    The rules' `show` lines may name cards in play only as words, and a
    reader must be able to read each card there. Nothing new is told: the labels are the reader's
    own to see, and the tip's text is asked of the server, which checks the reader may see it."""
    public = match.visible_to_all()
    labels = match.labels
    named: dict = {}
    for cid in sorted(seen, key=lambda c: (c not in public, c)):
        if not isinstance(cid, int) or not 0 <= cid < len(labels):
            continue
        label = printable(labels[cid])
        if len(label) < 2 or label.isdigit() or label in named:
            continue                           # (a bare number is read as a number, not a card)
        named[label] = cid
    return [[label, cid] for label, cid in named.items()]


def card_names(game) -> list:
    """The name of every card the rules declare (the rulebook lists them all: no secret): the page
    reads a name in a line whole before a shorter one inside it (`Smoke Bomb`, face down, is no link
    to a `Smoke` in sight — a legibility trial tapped it and read the other card)."""
    cached = game.__dict__.get("_card_names")
    if cached is None:
        cached = game._card_names = sorted({printable(str(c.get("name", ""))) for c in game.ir.get("cards", ())
                                            if c.get("name")})
    return cached


def _declared_words(game) -> dict:
    """{name: words} of the `card` declarations with a `text` (the rulebook's: no secret), once a game."""
    texts = game.__dict__.get("_card_words")
    if texts is None:
        texts = {}
        for card in game.ir.get("cards", ()):
            label, text = printable(str(card.get("name", ""))), card.get("text")
            if label and text and label not in texts:
                texts[label] = printable(str(text))
        game._card_words = texts
    return texts


def worded_cards(game) -> list:
    """The declared cards with words, by name: any of them named in a line opens its rulebook words
    in a tip (`card_words`), whether or not a copy is in sight."""
    return sorted(_declared_words(game))


def card_words(game, name: str) -> dict | None:
    """A declared card's words by its name, for a name in a line that names no card the seat sees now
    — one dealt back into a deck (a browser trial: 8 % of the card names in a card game's log could
    not be read at the table). None for a name the rules do not declare, or one declared without words."""
    text = _declared_words(game).get(name) if isinstance(name, str) else None
    return None if text is None else {"label": name, "text": text}


def component_words(match, seat: int | None, cid: int) -> dict | None:
    """A component's label and rules text (`Match.rules_text`, read as `seat` would), for the card
    tip; None unless the seat may see it now (a spectator: unless anyone at the table may,
    `Match.visible_to_all`)."""
    if not isinstance(cid, int) or not 0 <= cid < len(match.labels):
        return None
    if seat is None:
        seen = match.visible_to_all()
    else:
        seen = match.visible_to(seat) | _ids_in(without_internal(match.view(seat)))
    if cid not in seen:
        return None
    try:
        text = match.rules_text(cid, seat)
    except RulelangError as err:               # (a kind's `text` that fails: said, the table goes on)
        text = f"? ({err})"
    return {"id": cid, "label": printable(match.labels[cid]), "text": None if text is None else printable(text)}


def log_lines(entries: list, who: list) -> list:
    """The Log's entries (as the reader may read them) each with the seat that made it and the
    question it answered: `P1: archer castle (asked of P1: Which castle …)`; an entry that names its seat
    already (a simultaneous step's answers) keeps its words."""
    out = []
    for i, text in enumerate(entries):
        seat, asked = who[i] if i < len(who) else (None, None)
        if seat is not None and not re.match(r"P\d+: ", text):
            text = f"{seat_name(seat)}: {text}"
        if asked and not asked.startswith("respond in "):
            # (of whom: a question worded for its chooser, "does it apply to you?", is read by all)
            text += f" (asked of {seat_name(seat)}: {printable(asked)})" if seat is not None \
                else f" (asked: {printable(asked)})"
        out.append(text)
    return out


def spectator_payload(match) -> dict:
    """Public information only. The components shown are those anyone at the table may see
    (`Match.visible_to_all`: in public zones, or revealed to every player); a value shown is one
    every seat's view shows alike (in a one-seat game: the rules' declared visibility, and their
    `show` values but `own` ones); the log as `log_for(None)` words it; the messages sent to
    everyone."""
    n = match.players
    views = [without_internal(match.view(p)) for p in range(n)]
    public = match.visible_to_all()            # (not what every seat sees: a solo seat's hand, a peek in two)
    view = copy.deepcopy(views[0])
    view["viewer"] = None
    for i, z in enumerate(view["zones"]):
        cards = z.get("cards")
        if cards is not None and (z["visibility"] != "public" and not z.get("top_only")
                                  or any(c["id"] not in public for c in cards)):
            z["cards"] = None
            # (and its kind as a seat that cannot see in is told it: seat 0's own hand showed
            # a spectator which kind of cards it held, a leak trial)
            unseen = [v["zones"][i] for v in views[1:] if v["zones"][i].get("cards") is None]
            if "kind" in z:
                z["kind"] = unseen[0].get("kind") if unseen else None
            # of seat 0's own hidden zone, what every seat sees (a character revealed): known
            # revealed, as every other seat's view has it (seat 0's own view has no `known` there)
            shown = [{**c, "revealed": True} for c in cards if c["id"] in public]
            had = {c["id"] for c in z.get("known") or []}
            if shown:
                z["known"] = (z.get("known") or []) + [c for c in shown if c["id"] not in had]
        if z.get("uncounted") and z.get("cards") is None:
            z["count"] = None                  # its size is hidden from some seat: from a spectator too
        if "known" in z:
            z["known"] = [c for c in z["known"] if c["id"] in public]
            if not z["known"]:
                del z["known"]
        if "of" in z and z["of"]["id"] not in public:
            z["of"] = {"id": None, "label": "a hidden component"}
    hidden_vars = {name for name, per, vis, _ in match.game.vars if vis != "public"}
    comp_vars = {name for name, how in match.game.var_how.items() if how == "comp"}
    worded = viewer_worded(match.game.ir)
    values = []
    for i, entry in enumerate(view["values"]):
        if entry.get("label") and entry["name"] in worded:
            continue                           # worded for each seat (`me`): none to a spectator, even
        others = [v["values"][i] for v in views[1:]]    # where the seats' happen to be alike (a leak trial)
        declared = entry["name"] in hidden_vars and not entry.get("label")
        seen = _public_value(entry, others, declared, entry["name"] in comp_vars and not entry.get("label"), public,
                             entry["name"] in match.game.var_comp_lists and not entry.get("label"))
        if not declared and "value" in entry and entry["value"] is not None and seen["value"] is None:
            continue                           # a value worded for its viewer ("you…"): none to a spectator
        if n == 1 and entry.get("own"):
            continue                           # (`, own`: the seat's own secrets, alike in every view of one)
        values.append(seen)
    view["values"] = values
    view["component_values"] = {k: v for k, v in view["component_values"].items() if int(k) in public}
    # a value that holds a card (per component, per cell) is seat 0's: the card only if everyone sees it
    lists = match.game.var_comp_lists

    hows = match.game.var_how

    def hidden(how, v):                        # (lists of lists too: `[[Dragon]]` was seat 0's, a review)
        if how == "comp":
            return v if v is None or v in public else None
        if isinstance(how, str) and how.startswith("list:") and isinstance(v, list):
            return [hidden(how[5:], x) for x in v]
        return v

    def seen(name, v):
        if name in comp_vars and v is not None and v not in public:
            return None
        if name in lists and isinstance(v, list):
            return [x if x in public else None for x in v]
        return hidden(hows.get(name), v)

    def public_words(v) -> str:                # a value as a spectator may read it: the unseen as such
        if v is None:
            return "a hidden component"
        if isinstance(v, list):
            return ", ".join(public_words(x) for x in v) if v else "empty"
        return printable(match.labels[v]) if type(v) is int and 0 <= v < len(match.labels) else str(v)
    unseen_text = {}
    for k, held in view["component_values"].items():
        for name, v in list(held.items()):
            held[name] = seen(name, v)
            if held[name] != v:
                unseen_text.setdefault(k, set()).add(name)
    if "component_texts" in view:
        view["component_texts"] = {k: {name: "a hidden component" if name in unseen_text.get(k, ()) else t
                                       for name, t in texts.items()}
                                   for k, texts in view["component_texts"].items() if int(k) in public}
    for cell, held in (view.get("cells") or {}).items():
        for name, v in list(held.items()):
            held[name] = seen(name, v)
            if held[name] != v and name in (view.get("cell_texts") or {}).get(cell, {}):
                view["cell_texts"][cell][name] = public_words(held[name])   # (seat 0's words for it: not public)
    if view.get("board") is not None and any(v.get("board") != view["board"] for v in views[1:]):
        view["board"] = None
    if "simultaneous" in view:                 # seat 0's own answer, and whether it is still to give one: not public
        view["simultaneous"] = {**view["simultaneous"], "answer": None, "to_answer": None}
        view["actor"] = None
    if "choice" in view:
        choice = view["choice"]
        choice["options"] = None
        choice.pop("picked", None)             # (seat 0's own picks so far: its view is the spectator's base)
        if "asker" in choice and choice["asker"].get("source") not in public:
            del choice["asker"]                # the card whose ability asks, seen by some seats only
        choice["running"] = [f if f.get("source") is None or f["source"] in public
                             else {**f, "effect": HIDDEN_ABILITY, "source": None} for f in choice["running"]]
    return {"seat": None, "view": view, "glyphs": cell_glyphs(match, None), "actions": [], "out_of_turn": [],
            **history(match, None, LOG_TAIL), "names": names_seen(match, public), "card_names": card_names(match.game),
            "worded_cards": worded_cards(match.game)}


def viewer_worded(ir: dict) -> set:
    """The labels of the shown values that read `me` (themselves or through the defs they call):
    each seat's is its own (`Your penalty points`), so a spectator is shown none of them."""
    reads_me = _reads_me(ir)
    return {d.get("label") or name for name, d in ir.get("defs", {}).items() if d.get("show") and reads_me(name)}


def _reads_me(ir: dict):
    """reads_me(def name): does the def read `me`, itself or through the defs it calls?"""
    defs = ir.get("defs", {})
    reads: dict = {}

    def reads_me(name: str) -> bool:
        if name not in reads:
            reads[name] = False                 # (a cycle: no more than its other parts say)
            stack = [defs.get(name, {}).get("body")]
            found = False
            while stack and not found:
                x = stack.pop()
                if isinstance(x, dict):
                    if x.get("k") == "builtin" and x.get("n") == "me":
                        found = True
                    elif x.get("k") == "def" and isinstance(x.get("n"), str) and reads_me(x["n"]):
                        found = True
                    stack.extend(x.values())
                elif isinstance(x, list):
                    stack.extend(x)
            reads[name] = found
        return reads[name]

    return reads_me


def _public_value(entry: dict, others: list, declared_hidden: bool, comp: bool, public: set,
                  comps: bool = False) -> dict:
    """A view's value as a spectator may see it: parts that differ between seats are None.
    `comp`/`comps`: the variable holds a component / a list of them, named only where public."""
    entry = copy.deepcopy(entry)
    if declared_hidden:                              # an `owner` variable: nobody's, to a spectator
        for key in ("per_player", "texts"):
            if key in entry:
                entry[key] = [None] * len(entry[key])
        if "per_key" in entry:
            for member in entry["per_key"]:
                member["value"] = None
                member.pop("text", None)
        if "value" in entry:
            entry["value"] = None
            entry.pop("text", None)
    for key in ("per_player", "texts"):              # a seat's own part: only where all seats see it alike
        if key in entry:
            entry[key] = [x if all(o.get(key, [None] * (i + 1))[i] == x for o in others) else None
                          for i, x in enumerate(entry[key])]
    if "per_key" in entry:
        for i, member in enumerate(entry["per_key"]):
            if any(o.get("per_key", [{}] * (i + 1))[i].get("value") != member["value"] for o in others):
                member["value"] = None
                member.pop("text", None)
    if "value" in entry and any(o.get("value") != entry["value"] or o.get("text") != entry.get("text")
                                for o in others):
        entry["value"] = None
        entry.pop("text", None)
    if comp:                                         # a variable naming a component nobody may see
        if "value" in entry and entry["value"] is not None and entry["value"] not in public:
            entry["value"], entry["text"] = None, "a hidden component"
        if "per_player" in entry:
            for i, v in enumerate(entry["per_player"]):
                if v is not None and v not in public:
                    entry["per_player"][i] = None
                    if "texts" in entry:
                        entry["texts"][i] = "a hidden component"
    if comps:                                        # a list of components: the unseen are no ids, no words
        def hides(v) -> bool:                        # (a one-seat match: its hand is in no other view)
            return isinstance(v, list) and any(x is not None and x not in public for x in v)

        def cleaned(v):
            return [x if x in public else None for x in v]
        if "value" in entry and hides(entry["value"]):
            entry["value"] = cleaned(entry["value"])
            entry.pop("text", None)
        if "per_player" in entry:
            for i, v in enumerate(entry["per_player"]):
                if hides(v):
                    entry["per_player"][i] = cleaned(v)
                    if "texts" in entry:
                        entry["texts"][i] = None
        for member in entry.get("per_key") or []:
            if hides(member.get("value")):
                member["value"] = cleaned(member["value"])
                member.pop("text", None)
    return entry


def outcome_words(match, kinds: list[str]) -> dict | None:
    """The end of the match: each seat's result (and score), and why."""
    outcome = match.outcome
    if outcome is None:
        return None
    scores = outcome.get("scores")
    return {"results": [{"seat": seat_name(p), "kind": kinds[p], "result": printable(r),
                         "score": scores[p] if scores else None} for p, r in enumerate(outcome["results"])],
            "reason": printable(outcome["reason"]) if outcome.get("reason") else None}


def dumps(payload) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str)
