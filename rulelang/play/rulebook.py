"""A game's rulebook for players (`rulelang rules`, the REPL's `rules` and `help`): what it is,
the players and options, how to win and how it ends, the components and their texts, the setup
and a turn step by step, read from the compiled IR and the rule file's words (`about`, `text`,
`window … as`, `finish` reasons). It names nothing players cannot use: no procedure, hook or
variable of the rules, no rule as the file writes it (`help ACTION full` shows that to authors).
"""
from __future__ import annotations

import json
import os
import re
import time

from ..core.textsafe import printable
from ..ir.spec import refusal_def, typed_names, walk_ir
from .render import HANDLER_WHEN, RESULT_WORDS, VISIBLE, _name, kind_noun, plural

def rulebook(game, markdown: bool = False, source: str | None = None, players: int | None = None,
             options: dict | None = None) -> str:
    """The rules of a game for players, as text (or Markdown): what it is, the players and
    options, how to win and how it ends, the components, the setup and a turn step by step.
    `players` (and `options`): the components' texts as they are in a match of that many players
    (the terminal's `rules`); without, every player count's, each said where they differ.
    (`source`, the rule file, is no longer quoted: kept for callers.)"""
    ir = getattr(game, "ir", None)
    doc = _Doc(markdown)
    doc.title(printable(game.name))
    if ir is None:                      # (a game object without an IR: only its name is known)
        doc.para("No rules text is available for this game.")
        return doc.text()
    about = ir.get("about", {})
    for part in _paragraphs(about.get("game")):
        doc.para(part)
    doc.heading("Players")
    low, high = ir["players"]["min"], ir["players"]["max"]
    doc.para(f"{low} to {high} players." if low != high else plural(low, "player") + ".")
    options_declared = ir.get("options", [])
    if options_declared:
        doc.para("Options, chosen when the match starts (`--option NAME=VALUE` at the terminal, the lobby's "
                 "fields in the browser):")
        for o in options_declared:
            words = printable(about.get("options", {}).get(o["name"], ""))
            kind = {"bool": "true or false", "int": "a number", "text": "a text"}.get(o["type"], o["type"])
            if o.get("choices"):
                kind = "one of " + ", ".join(printable(json.dumps(c, ensure_ascii=False)) for c in o["choices"])
            default = printable(json.dumps(o["default"], ensure_ascii=False))
            doc.item(f"{doc.code(o['name'])} ({kind}, default {default})" + (f": {words}" if words else ""))
    doc.heading("How to win")
    for part in _paragraphs(about.get("win")):
        doc.para(part)
    ends = _endings(ir)
    if ends:
        doc.para("The game ends:")
        for line in ends:
            doc.item(line)
    doc.heading("Components")
    if ir.get("boards"):
        b = ir["boards"][0]
        size = (f"{b['width']} cells a side" if b["shape"] == "hexagon"          # (one number: its side)
                else f"{b['width']} by {b['height']}")
        doc.para(f"The board: {b['shape']}, {size}." + (" Its key:" if b.get("legend") else ""))
        for entry in b.get("legend") or []:
            doc.item(printable(entry))
    kinds = {k: kind_noun(k)[1] for k in ir.get("kinds", {})}
    for z in ir["zones"]:
        if z.get("internal"):
            continue
        doc.item(_zone_line(doc, z, about.get("zones", {}).get(z["name"]), kinds, ir.get("enums") or {}))
    listed = any(not z.get("internal") for z in ir["zones"])
    # (the board's own values are drawn on it; a component's are listed beside it, so not at all where
    # every zone is internal — "the screen also shows: pos" was promised of pawns it never lists)
    meant = about.get("vars", {})                # (`about var NAME "…"`: what its values mean)
    shown = [_name(v["name"]) + (f": {meant[v['name']]}" if v["name"] in meant else "")
             + ("" if v["visibility"] == "public" else " (each player's own)")
             for v in ir["vars"] if not v.get("internal") and v["visibility"] in ("public", "owner")
             and v.get("per") != "cell" and (listed or v.get("per") != "component")]
    shown += [d.get("label") or _name(d_name) for d_name, d in ir["defs"].items() if d["show"]]
    if shown:                                     # (`;`: a label may have commas of its own)
        doc.para("The screen also shows: " + "; ".join(printable(x) for x in shown) + ".")
    steps = {s["name"]: s for s in ir["steps"]}
    outside = [s for s in ir["steps"] if not s["in_turn"] and not s["name"].startswith("__")]
    first = _reached_from(ir["setup"], steps, ir.get("procs") or {})     # (a draft the setup goes to; not a step an action goes to)
    before = [s for s in outside if s["name"] in first]
    elsewhere = [s for s in outside if s["name"] not in first]
    in_turn = [s for s in ir["steps"] if s["in_turn"]]
    if about.get("setup") or (before and in_turn):
        doc.heading("Setup")
    for part in _paragraphs(about.get("setup")):
        doc.para(part)
    if before and in_turn:
        doc.para("Before the first turn (and whenever the rules go there):")
        for s in before:
            _step(doc, s, about, set())
    doc.heading("A turn" if in_turn else "How play goes")
    if not in_turn:
        # (a game of steps alone, no `turn { … }`: "players take turns … a turn starts at step `discard`"
        # described turns no game of it has — a new author's Cribbage; its steps are the play, not the
        # setup — a review)
        doc.para("There are no turns: play goes from step to step as the rules say; at each step the player "
                 "it names (or every player it asks, at once) chooses one of its actions.")
        if before:
            doc.para("The first step (and whenever the rules go there):")
            for s in before:
                _step(doc, s, about, set())
    elif all(s.get("simultaneous") for s in in_turn):
        # (every step answered by all at once: "players take turns … the player to act chooses"
        # told a new author's 6 nimmt something untrue)
        doc.para(f"A turn starts at step {doc.code(_name(ir['first_step']))}; at each step every player "
                 "asked chooses one of its actions at once, in secret.")
    else:
        # (a set-up that ends its turn — `end turn to next(dealer)`, or `end turn`, itself or in a procedure
        # it calls — hands the first turn on: "starting with P1" told a new author's Oh Hell players
        # something untrue, and a review found a dealing procedure's and a plain `end turn` still did)
        starts = "the player the setup passes the first turn to" if _setup_ends_turn(ir) else "P1"
        doc.para(f"Players take turns in seat order (P1, P2, …), starting with {starts}, unless the rules say otherwise. "
                 f"A turn starts at step {doc.code(_name(ir['first_step']))}; at each step the player to act "
                 "chooses one of its actions.")
    doc.para("At the table, `help ACTION` says more about an action (`help NAME`: a card or piece).")
    anytime = {a["name"] for a in steps["__anytime"]["actions"]} if "__anytime" in steps else set()
    for s in ir["steps"]:
        if s["in_turn"]:
            _step(doc, s, about, anytime)
    if elsewhere:
        doc.para("Steps outside the usual turn, where an action or a rule leads:")
        for s in elsewhere:
            _step(doc, s, about, anytime)
    if "__anytime" in steps:
        doc.para("At any time, also in another player's turn:")
        for a in steps["__anytime"]["actions"]:
            _action(doc, a, about)
    _responses(doc, ir)
    _component_texts(doc, game, ir, players, options)
    return doc.text()


def _reached_from(block: list, steps: dict, procs: dict) -> set:
    """The steps outside the turn a block goes to (`goto`, at any depth, also in the procs it
    calls), and those they go to in turn: the steps played before the first turn when the block is
    the setup."""
    found: set = set()
    called: set = set()
    todo = [block]
    while todo:
        stack = [todo.pop()]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                if (x.get("s") == "goto" and x.get("step") in steps and x["step"] not in found
                        and not steps[x["step"]]["in_turn"]):      # (the turns begin: no further)
                    found.add(x["step"])
                    step = steps[x["step"]]
                    todo += [step.get("enter") or []] + [a.get("body") or [] for a in step.get("actions", [])]
                if x.get("s") == "call" and x.get("proc") in procs and x["proc"] not in called:
                    called.add(x["proc"])
                    todo.append(procs[x["proc"]].get("body") or [])
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)
    return found


def _ability_words(ir: dict) -> dict:
    """Each ability's procedure -> the moment it stands for, in players' words, or "" where that
    is no moment players can name: `by Old Clock` (a card's ability), `after a player answers
    challenge` (a response of the rules'), "" (a rule triggered by an event)."""
    cards = ir.get("cards", [])
    out = {}
    for a in ir.get("abilities", []):
        if a.get("proc") is None:
            continue
        if a["form"] == "response" and a["card"] is None:
            out[a["proc"]] = f"after a player answers {printable(a.get('text', ''))}"
        elif a["card"] is None:
            out[a["proc"]] = ""
        else:
            out[a["proc"]] = f"by {printable(cards[a['card']]['name'])}"
    return out


def _opened_where(ir: dict) -> dict:
    """Each window -> the moments players know it is asked at: after an action, at a step,
    after an answer (not the procedures of the rules that open it)."""
    out: dict = {}

    def visit(block, where: str) -> None:
        if not where:
            return
        for x in _statements(block):
            if x.get("s") == "open" and where not in out.setdefault(x["window"], []):
                out[x["window"]].append(where)

    for s in ir["steps"]:
        visit(s["enter"], f"as step {_name(s['name'])} begins")
        for a in s["actions"]:
            visit(a["body"], f"after the action {_spoken(a)}")
    moments = _moments(ir)                      # (a procedure that opens it: the moments that run it —
    for name, p in ir["procs"].items():         #  a new author's Coup opened every claim so, said nowhere)
        for where in moments.get(name, ()):
            visit(p["body"], f"by a card ({where[3:]})" if where.startswith("by ") else where)
    return out


def _responses(doc: _Doc, ir: dict) -> None:
    """The windows: their question in the rules' words, in what order players are asked, which
    cards answer them and what players may type, and after which action or step they are asked."""
    windows, cards = ir.get("windows", {}), ir.get("cards", [])
    abilities = ir.get("abilities", [])
    if not windows:
        return
    doc.heading("Responses")
    doc.para("At some moments the game stops to ask players whether they answer; each one asked may answer "
             "or pass.")
    first = set(ir.get("answered_first", ()))
    opened = _opened_where(ir)
    for name in windows:
        prompt = ir["defs"].get("__window_" + name)
        asked = _reason_words(prompt["body"]) if prompt else None
        question = asked or _name(name)
        order = ("everyone asked may answer at once; the first to answer does, and no one else is asked"
                 if name in first else "asked in turn; after an answer the others are asked again, "
                 "until everyone passes in a row")
        doc.item(f"{question}: {order}")
        typed, with_cards = [], []
        for a in abilities:
            if a["form"] != "response" or a["name"] != name:
                continue
            if a["card"] is None:
                typed.append(doc.code(a.get("text", "")) + (" (when the rules allow it)" if a["where"] else ""))
            elif cards[a["card"]]["name"] not in with_cards:
                with_cards.append(cards[a["card"]]["name"])
        for t in typed:
            doc.item(f"a player asked may answer {t}", 1)
        if with_cards:
            doc.item("answered with (by the player who has it): " + printable(", ".join(with_cards)), 1)
        if opened.get(name):
            doc.item("asked " + printable(", ".join(opened[name])), 1)


SETUPS = 24                 # matches the rulebook may set up to read computed texts
FAILED_SETUPS = 4           # set-ups that fail in the rules (not refused at once) before it stops trying
SETUP_SECONDS = 3.0         # CPU time its set-ups may take in all


def component_texts(game, ir: dict, players: int | None = None,
                    options: dict | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every component's rules text, grouped: (group title, [(names, text)]). The `card`
    declarations by kind (and by their kind's first enum field, `Reds`…), the values of an enum
    with a text, and the components a match's setup makes whose kind computes a text (`text E`);
    names with the same text share a line. A card with abilities but no text is listed too.

    The computed texts are those of a match of `players` (and `options`) when given; else of a
    match of each player count, and of each value of an option that has a few: a text that is
    not the same in all of them says where it holds (`Joker (with 3 or 4 players)`, `Potion
    (option deck: expansion or all)`)."""
    lines: dict = {}            # title -> {(name, text): variants it holds in} (in the order found)
    always = object()           # (a declared text: the same in every match)

    def put(title: str, name: str, text: str, where=always) -> None:
        entries = lines.setdefault(title, {})
        key = (name, text)
        if key not in entries:
            same = [k for k in entries if k[0] == name]
            if same:                            # (beside the other texts of the same name)
                keys = list(entries)
                at = keys.index(same[-1]) + 1
                moved = {k: entries.pop(k) for k in keys[at:]}
                entries[key] = set()
                entries.update(moved)
            else:
                entries[key] = set()
        entries[key].add(where)

    enums = {e: {i["name"]: i["text"] for i in items} for e, items in ir.get("enums", {}).items()}
    able = {a["card"] for a in ir.get("abilities", []) if a.get("card") is not None}
    computed_kinds = {k for k in ir.get("kinds", {}) if "__text_" + k in ir.get("defs", {})}
    for i, card in enumerate(ir.get("cards", [])):
        text = card.get("text")
        if not text and i in able and card["kind"] not in computed_kinds:
            text = "(the rule file gives this card abilities but no words for them)"
        if not text:
            continue
        kind = ir["kinds"].get(card["kind"], {})
        sub = ""
        for f in kind.get("fields", []):
            value = card["fields"].get(f["name"])
            if str(f["type"]).startswith("enum:") and isinstance(value, dict) and value.get("enum"):
                sub = enums.get(value["enum"], {}).get(value.get("v"), "")
                break
        plural_kind = kind_noun(card["kind"])[1].capitalize()
        put(f"{plural_kind}: {sub}" if sub else plural_kind, card["name"], text)
    for enum, items in ir.get("enums", {}).items():
        for item in items:
            if item.get("about"):
                put(_name(enum).capitalize(), item["text"], item["about"])
    variants = _variants(ir, players, options) if computed_kinds else []
    used: dict = {}                # variant -> the player count its match had
    # (each set-up may take the rules' whole work limit: a fuzzer's 64 player counts and two options
    # set up 130 matches, a minute and a half; the rulebook sets up SETUPS at most, gives up after
    # FAILED_SETUPS that fail, and stops when they have taken SETUP_SECONDS of CPU time)
    tries, failed, start = 0, 0, time.thread_time()
    for variant in variants:
        count, values = variant
        match = None
        for n in [count] if count is not None else range(ir["players"]["min"], ir["players"]["max"] + 1):
            if tries >= SETUPS or failed >= FAILED_SETUPS or time.thread_time() - start > SETUP_SECONDS:
                break
            tries += 1
            try:
                match = game.new_match(n, 0, dict(values))
            except ValueError:     # (refused at once, `refuse` too: another count or options, maybe)
                continue
            except Exception:      # (a set-up that fails in the rules, its whole work spent maybe)
                failed += 1
                continue
            used[variant] = n
            break
        if match is None:
            continue
        try:
            ids = [c for c in range(len(match.labels)) if "__text_" + match.kinds[c] in ir["defs"]]
            texts = match.rules_texts(ids, 0)          # (one work budget for them all)
        except Exception:
            continue
        for c, text in zip(ids, texts):
            if text:
                put(kind_noun(match.kinds[c])[1].capitalize(), match.labels[c], text, variant)
        if match.work < 0:
            left = [c for c, text in zip(ids, texts) if text is None]
            put(kind_noun(match.kinds[left[0]])[1].capitalize(), f"{len(left)} more",
                "not shown: working their texts out took more than the rules' work limit", variant)
            break                  # (and no more matches: the budget is spent)
    out = []
    for title, entries in lines.items():
        shared: dict = {}          # (text, where) -> names, in order
        for (name, text), where in entries.items():
            said = _where_words(where, used, ir)
            names = shared.setdefault((text, said), [])
            if name not in names:
                names.append(name)
        out.append((title, [(", ".join(names) + (f" ({said})" if said else ""), text)
                            for (text, said), names in shared.items()]))
    return out


def _variants(ir: dict, players: int | None, options: dict | None) -> list:
    """The matches whose components' texts the rulebook reads: (players, ((option, value), …)).
    One when `players` is given; else one of each player count with the options' defaults, then
    one for each other value of an option with a few (`true or false`, `one of …`)."""
    if players is not None:
        return [(players, tuple(sorted((options or {}).items())))]
    low, high = ir["players"]["min"], ir["players"]["max"]
    counts = list(range(low, high + 1)) if high - low < 8 else [low, high]
    out: list = [(n, ()) for n in counts]
    for o in ir.get("options", []):
        values = o.get("choices") or ([True, False] if o["type"] == "bool" else [])
        for v in values[:6]:
            if v != o["default"]:
                out.append((None, ((o["name"], v),)))
    return out


def _where_words(where: set, used: dict, ir: dict) -> str:
    """Where a text holds, in words, when not in every match read (`used`: each one's player
    count): `with 3 or 4 players`, `option characters: expansion or all`; "" for a declared
    text or one that holds in them all."""
    if len(used) < 2 or not where or not all(isinstance(w, tuple) for w in where):
        return ""                                      # (one match read, or a declared text: the same in all)
    counts = [n for v, n in used.items() if not v[1]]
    mine = sorted({used[w] for w in where if not w[1] and w in used})
    parts = []
    if mine and mine != counts:
        parts.append("with " + _counts_words(mine))
    for o in ir.get("options", []):
        tried = [v for v in used if v[1] and v[1][0][0] == o["name"]]
        if not tried or (mine and any(used[v] not in mine for v in tried)):
            continue               # (its other values were read with a player count this text is not for)
        held = ([o["default"]] if mine else []) + [v[1][0][1] for v in tried if v in where]
        if held and len(held) < len(tried) + 1:
            values = [x if isinstance(x, str) else json.dumps(x) for x in held]
            parts.append(f"option {o['name']}: " + (", ".join(values[:-1]) + " or " + values[-1]
                                                     if len(values) > 1 else values[0]))
    return printable("; ".join(parts))


def _counts_words(counts: list) -> str:
    """`1 player`, `3 or 4 players`, `4 to 6 players`, `2, 4 or 6 players`."""
    if len(counts) == 1:
        return plural(counts[0], "player")
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]} players"
    return ", ".join(str(c) for c in counts[:-1]) + f" or {counts[-1]} players"


def _component_texts(doc: "_Doc", game, ir: dict, players: int | None = None, options: dict | None = None) -> None:
    found = component_texts(game, ir, players, options)
    if not found:
        return
    doc.heading("Cards and pieces")
    doc.para("What each one does (at the table: `look NAME`).")
    for title, entries in found:
        doc.para(doc.strong(printable(title)) if doc.md else printable(title) + ":")
        for names, text in entries:
            doc.item(f"{doc.strong(printable(names))}: {printable(text)}")


def action_help(game, name: str, match=None, source: str | None = None, authors: bool = True) -> str:
    """`help ACTION`: what an action does and when it is allowed, from the rulebook's words; with
    `authors`, then the rule as the rule file writes it (else a line saying how to read that)."""
    ir = getattr(game, "ir", None)
    wanted = name.split()[0].lower() if name.split() else ""
    if ir is None:
        return f"no help for `{printable(name)}`: this game has no rules text"
    about = ir.get("about", {})
    code = _Source(source or getattr(game, "path", None))
    enums = {e: {i["name"]: i.get("text") or i["name"] for i in items} for e, items in ir.get("enums", {}).items()}
    found = [(s, a) for s in ir["steps"] for a in s["actions"]
             if a["name"].lower() == wanted or a["name"].replace("_", " ").lower() == name.lower().strip()]
    # and the actions whose `as` text starts with that word (`help bid` for `as "bid " + …`): two
    # actions shown as `use …` are both `use` to a player
    found += [(s, a) for s in ir["steps"] for a in s["actions"]
              if wanted in typed_names(a)[1:] and (s, a) not in found]
    # (the whole name typed names one action: `help reserve blind` is not `reserve` too — a new author)
    whole = " ".join(name.lower().split())
    exact = [(s, a) for s, a in found if whole in typed_names(a)]
    if exact and len(whole.split()) > 1:
        found = exact
    if not found:                            # the start of one action's name, as players type it (`help flip`)
        typed = " ".join(name.lower().split())
        starts = {a["name"] for s in ir["steps"] for a in s["actions"]
                  if typed and a["name"].replace("_", " ").lower().startswith(typed)}
        if len(starts) == 1:
            found = [(s, a) for s in ir["steps"] for a in s["actions"] if a["name"] in starts]
    if not found:
        names = sorted({a["name"].replace("_", " ") for s in ir["steps"] for a in s["actions"]})
        shown = printable(name) if len(printable(name)) <= 60 else printable(name)[:57] + "..."   # (a word of 5,000
        return f"error: no action `{shown}`; the actions are: {printable(', '.join(names))}"           # x's: a fuzz trial)
    doc = _Doc(False)
    seen = set()
    anytime = {a["name"] for s, a in found if s["name"].startswith("__")}   # (offered at every step too)
    told: dict = {}                     # (title, what is said of it) -> the steps it is said of
    for s, a in found:
        refusal = ir.get("defs", {}).get(refusal_def(s["name"], a["name"]))
        why = "".join(_text_parts(refusal["body"])) if isinstance(refusal, dict) and isinstance(refusal.get("body"), dict) else None
        key = (a["name"], code.header(s["name"], a["name"]), why)    # (a compiled game has no header: the
        if key in seen:                                              # words tell steps apart — a fuzz trial)
            continue
        seen.add(key)
        part = _Doc(False)
        if a["params"]:
            # (an `as` text need not name a parameter: `advance 5 and 11` for `o in moves` — "O: …"
            # named nothing a player types, a new author said)
            title = _action_name(a)
            typed = set(re.findall(r"[A-Z0-9_]+", title)) | _text_named(a)   # (`bid N!`, `swap A,B`, `LS`)
            named = [p for p in a["params"] if a.get("text") is None or p["name"].upper() in typed]
            unnamed = [p for p in a["params"] if p not in named] if "…" in title else []
            said = [f"{p['name'].upper()}: {_param_words(p, about.get('zones', {}), enums, about.get('defs'))}"
                    for p in named]
            if unnamed:                     # ("made from one of held and one of the numbers 0 to 3" read as
                said.append("…: made from " + ", and from ".join(   #  one thing — a new author's tiles)
                    _param_words(p, about.get("zones", {}), enums, about.get("defs")) for p in unnamed))
            part.para("; ".join(said))
        _action_details(part, s["name"], a, about, code, authors, why)
        steps = told.setdefault((_action_name(a), part.text()), [])
        if a["name"] in anytime:
            steps.insert(0, None)
        elif s["name"] not in steps:
            steps.append(s["name"])
    for (title, said), steps in told.items():     # (the same words at two steps: said once, of both)
        named = [_name(x) for x in steps if x is not None]
        where = "at any time" if None in steps else \
            f"at step{'s' if len(named) > 1 else ''} {', '.join(named)}"
        doc.para(f"{title} ({printable(where)})")
        if said.strip():
            doc.lines += said.split("\n") + [""]
    now = _legal_now(match, {a["name"] for _, a in found})
    if now:
        doc.para(now)
    return doc.text()


def _param_words(p: dict, zone_words: dict | None = None, enums: dict | None = None,
                 def_words: dict | None = None) -> str:
    """What a parameter of an action is chosen from, in words (`one of your hand`); a zone the
    rules say something about (`about zone`) with those words (`one of field (the pieces in play)`),
    a def by its `about def` words (a first hour read "one of `movers` for FROM": a name of the
    rule file)."""
    d = p["domain"]
    zones = _zones_joined(d)
    if zones is not None:                       # `hand[me] + discard[me]`: your hand or your discard
        place = " or ".join(dict.fromkeys(_zone_place(z, zone_words, enums) for z in zones))
    elif d.get("k") == "builtin" and d.get("n") in ("players", "others"):
        place = "the players" if d["n"] == "players" else "the other players"
    else:
        kind = {"cell": "the cells", "player": "the players"}.get(p.get("show"), "the values")
        enum = str(p.get("show") or "")[5:] if str(p.get("show") or "").startswith("enum:") else None
        if d.get("k") == "list" and d.get("items") and all(i.get("k") == "lit" for i in d["items"]):
            # (`draw_card(col in [white, black, red])` read "one of the values the rules list")
            place = ", ".join(printable(json.dumps(i["v"], ensure_ascii=False) if type(i["v"]) is bool
                                        else (enums or {}).get(i.get("enum") or enum, {}).get(i["v"], str(i["v"])))
                              for i in d["items"])     # (`true`, as typed; an enum value as the screen shows it)
        elif d.get("k") == "range" and d.get("lo", {}).get("k") == "lit" and d.get("hi", {}).get("k") == "lit":
            place = f"the numbers {d['lo']['v']} to {d['hi']['v']}"     # (`1..3`: "the values the rules list")
        elif d.get("k") == "def":
            args = [a["n"].upper() if a.get("k") == "local" else "you" if a == {"k": "builtin", "n": "me"}
                    else f"your {a['n'].replace('_', ' ')}"
                    if a.get("k") == "var" and a.get("i") == {"k": "builtin", "n": "me"} else None
                    for a in d.get("a", [])]
            given = f" for {' and '.join(args)}" if args and all(args) else ""     # (`movers` for FROM)
            named = f"`{d['n'].replace('_', ' ')}`{given}"
            told = (def_words or {}).get(d["n"])
            if told:                            # (the rules' words: `about def movers "your units …"`)
                chosen = [a["n"].upper() for a in d.get("a", []) if a.get("k") == "local"]   # (the words say
                place = printable(told) + (f" (for {' and '.join(chosen)})" if chosen else "")  # `you` themselves)
            elif p.get("show") in ("comp", "comp_or_player"):
                place = named
            elif enum:                          # (Emi's `teleport`: "the values of `adjacent`" — a first hour)
                place = f"{named} ({_name(enum)} values)"
            else:
                place = f"{kind} of {named}"
        elif d.get("k") == "call" and d.get("f"):
            # (the call as written, its arguments named: `distinct(dice)` read "the values: distinct" —
            # a new author's Backgammon)
            said = f"{d['f']}({', '.join(_argument_words(a) for a in d.get('a', []))})"
            place = f"{kind} of `{said}`" if d["f"] != "cells" else "the cells of the board"
        else:
            place = f"{kind} the rules list"
    if p["mode"] == "one":                      # (the rules' words may say it: `about def mine "one of your
        return place if place.lower().startswith("one of ") else f"one of {place}"   # pieces"` read "one of one of")
    lo, hi = p.get("min"), p.get("max")
    if lo is not None and hi is not None and lo.get("k") == hi.get("k") == "lit":
        count = f"{lo['v']}" if lo["v"] == hi["v"] else f"{lo['v']} to {hi['v']}"
        return f"{count} of {place}"
    return f"some of {place}"


def _argument_words(a: dict) -> str:
    """An argument of a call as the rule file writes it, near enough: a parameter by its upper-case
    name, a variable or zone by its name (`[me]` kept), a literal as typed; `…` for the rest."""
    k = a.get("k")
    if k == "local":
        return a["n"].upper()
    if k in ("var", "zone", "builtin", "option", "def") and a.get("n"):
        mine = a.get("i") == {"k": "builtin", "n": "me"}
        return a["n"] + ("[me]" if mine else "[…]" if a.get("i") else "")
    if k == "lit" and isinstance(a.get("v"), (int, str, bool)):
        return printable(json.dumps(a["v"], ensure_ascii=False))
    return "…"


def _zones_joined(d: dict) -> list | None:
    """The zones a domain is, joined by `+` (one zone: a list of one), or None."""
    if d.get("k") == "zone":
        return [d]
    if d.get("k") == "bin" and d.get("op") == "+":
        left, right = _zones_joined(d.get("l") or {}), _zones_joined(d.get("r") or {})
        return left + right if left is not None and right is not None else None
    return None


def _zone_place(d: dict, zone_words: dict | None, enums: dict | None = None) -> str:
    """A zone in a player's words: `your hand`, `a player's hand`, `market (II)` (one of a family per
    enum value: a new author's Splendor read "a player's market or a player's market or …"), `field
    (the pieces in play)`."""
    owner = d.get("i")
    if isinstance(owner, dict) and owner.get("k") == "lit" and owner.get("enum"):
        said = (enums or {}).get(owner["enum"], {}).get(owner.get("v"), str(owner.get("v")))
        return f"{d['n'].replace('_', ' ')} ({printable(str(said))})"
    whose = "" if owner is None else "your " if owner == {"k": "builtin", "n": "me"} else "a player's "
    place = f"{whose}{d['n'].replace('_', ' ')}"
    said = (zone_words or {}).get(d["n"])
    if said and owner is None:                  # (a player's own zone reads plainly: `your hand`)
        place += f" ({printable(said).rstrip('.')})"
    return place


def _legal_now(match, names: set) -> str:
    """The legal actions of these names in the position the player is in (up to three), to show
    how to type one; empty when there is none or no match."""
    if match is None:
        return ""
    try:
        if match.is_over:
            return ""
        texts = [a.text for a in match.legal_actions() if a.name in names]
    except Exception:                       # (help never fails for a position it cannot list)
        return ""
    if not texts:
        reasons = [match.refusal(name.replace("_", " ")) for name in sorted(names)]
        why = next((r for r in reasons if r), None)
        return f"not legal now: {printable(why)}" if why else "not legal now"
    shown = ", ".join(printable(t) for t in texts[:3])
    return f"legal now: {shown}" + (f" … ({len(texts)} in all)" if len(texts) > 3 else "")


class _Doc:
    """Text or Markdown, written a block at a time."""

    def __init__(self, markdown: bool):
        self.md = markdown
        self.lines: list[str] = []

    def title(self, text: str) -> None:
        self.lines += [f"# {text}", ""] if self.md else [text, "=" * len(text), ""]

    def heading(self, text: str) -> None:
        self.lines += [f"## {text}", ""] if self.md else [text, "-" * len(text), ""]

    def para(self, text: str) -> None:
        self.lines += [text, ""]

    def item(self, text: str, level: int = 0) -> None:
        pad = "  " * level
        if self.lines and self.lines[-1] == "" and len(self.lines) > 1 and self.lines[-2].lstrip().startswith("- "):
            self.lines.pop()                 # items of one list stay together
        self.lines += [f"{pad}- {text}", ""]

    def code(self, text: str) -> str:
        return f"`{printable(text)}`"

    def strong(self, text: str) -> str:
        return f"**{text}**" if self.md else text

    def text(self) -> str:
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines)


class _Source:
    """The rule file's own text for actions and rules, when it can be read (else nothing)."""

    def __init__(self, path):
        self.where = None
        self.files: dict = {}
        if path and str(path).endswith(".rules"):
            try:
                import rulelang
                self.where = rulelang.locations(str(path))
            except Exception:           # (no text is no loss: the rulebook only leaves it out)
                self.where = None

    def text(self, span) -> str | None:
        if span is None or not span.line:
            return None
        if span.file not in self.files:
            try:
                with open(span.file, encoding="utf-8") as f:
                    self.files[span.file] = f.read().splitlines()
            except (OSError, UnicodeDecodeError):
                self.files[span.file] = None
        lines = self.files[span.file]
        if not lines or span.line > len(lines):
            return None
        chunk = lines[span.line - 1:span.end_line or span.line]
        chunk[0] = chunk[0][span.column - 1:]
        return "\n".join(chunk)

    def header(self, step: str, action: str) -> str | None:
        """`play(cards subset of hand[me] size 1..4) require valid_play(cards)`: an action as written."""
        if self.where is None:
            return None
        text = self.text(self.where["actions"].get((step, action)))
        if text is None:
            return None
        depth, quoted, end = 0, False, len(text)
        for i, ch in enumerate(text):
            if ch == '"':
                quoted = not quoted
            elif quoted:
                continue
            elif ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif ch == "{" and depth == 0:
                end = i
                break
        header = " ".join(" ".join(_uncommented(line) for line in text[:end].splitlines()).split())
        return header[len("action "):] if header.startswith("action ") else header


def _uncommented(line: str) -> str:
    """A line of a rule file without its `# comment` (a `#` inside a string is no comment)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


def _paragraphs(text) -> list[str]:
    return [printable(p) for p in str(text).split("\n\n")] if text else []


def _zone_line(doc: _Doc, z: dict, words, kinds: dict, enums: dict) -> str:
    shape = "a pile" if z["ordered"] else "a set"
    per = {"player": "each player has one", "cell": "one on each cell of the board",
           "component": "one for each component"}.get(z["per"])
    if z["per"] == "key":                      # per enum value(s): "one for each player and meld 1, meld 2, meld 3"
        # (an enum by its values' words, as players see them: a new author's Gin Rummy read `one for each
        # player and Slot`, a name of the rule file)
        def values(name: str) -> str:
            texts = [printable(str(i.get("text") or i["name"])) for i in enums.get(name) or ()]
            return (f"each of {', '.join(texts)}" if 0 < len(texts) <= 8
                    else f"each of {len(texts)} values ({', '.join(texts[:3])}, …)" if texts else name)
        parts = ["player" if k == "player" else "cell" if k == "cell" else values(k[5:]) for k in z["key"]]
        per = ("one for each " + " and ".join(parts)).replace("one for each each of", "one for each of")
    what = [shape, "face up, only its top card seen" if z.get("top") else VISIBLE[z["visibility"]], per,
            "how many it holds is not shown either" if z.get("uncounted") else None,
            f"at most {z['capacity']}" if z.get("capacity") is not None else None,
            "in play: its cards' abilities apply" if z.get("play") else None]
    line = f"{doc.code(_name(z['name']))} ({', '.join(w for w in what if w)})"
    return line + (f": {printable(words)}" if words else "")


def _spoken(a: dict) -> str:
    """An action as players type it: its `as` text's fixed words, else its name (a new author's
    Skull read `flip`, shown and typed `turn over P2`; a deck builder's `done`, typed `end turn`)."""
    names = typed_names(a)
    return printable(names[1]) if len(names) > 1 else _name(a["name"])


def _action_name(a: dict) -> str:
    """What a player types: the name and the parameters (`play CARD`), or the author's `as` text
    with `…` where it is computed (`drop in column …`)."""
    if a.get("text") is not None:
        # (a parameter bound to the one value a list of one gives, `su in [apart(u)]`, is no choice:
        # words worked out, left out here — a board game's `move FROM USU TO`, a differential run)
        # — worked out of the other parameters; one that stands for the state (`f in [jumper]`, the
        # piece that must jump on) is a choice read as any other (a new author's `xT` for `FxT`)
        names = {p["name"] for p in a.get("params") or ()}
        worked_out = _worked_out(a)
        # (a part worked out of one parameter — `letters[c.col / 2] + text(c.row / 2)` — is that parameter's
        # name, once for the parts next to each other: a new author's Quoridor read `wall ……O`)
        parts = _text_parts(a["text"], 0, worked_out, frozenset(names - worked_out))
        parts = [x for i, x in enumerate(parts) if not (x.startswith(_OF) and i and parts[i - 1] == x)]
        # (`…` once for computed parts next to each other: a new author's tile read `place C …………`)
        return printable(re.sub(r"…{2,}", "…", " ".join("".join(x.removeprefix(_OF) for x in parts).split())))
    params = " ".join(p["name"].upper() for p in a["params"])
    return printable(a["name"].replace("_", " ") + (f" {params}" if params else ""))


_OF = "\x00"                  # (marks a part worked out of one parameter: see _action_name)


def _worked_out(a: dict) -> set[str]:
    """An action's parameters bound to the one value a list of one gives, made of the others (`su in
    [apart(u)]`): no choice of the player's."""
    names = {p["name"] for p in a.get("params") or ()}
    return {p["name"] for p in a.get("params") or () if p.get("mode") == "one"
            and p["domain"].get("k") == "list" and len(p["domain"].get("items") or ()) == 1
            and any(x.get("k") == "local" and x.get("n") in names - {p["name"]}
                    for x in walk_ir(p["domain"]["items"][0]) if isinstance(x, dict))}


def _text_named(a: dict) -> set[str]:
    """The parameters (upper case) an action's `as` text names, each by a part of its own: `text(l) +
    text(s)` names L and S, though the title reads `LS` (a new author's Bridge: no line said them)."""
    if a.get("text") is None:
        return set()
    worked_out = _worked_out(a)
    names = frozenset(p["name"] for p in a.get("params") or ()) - worked_out
    return {x[len(_OF):] for x in _text_parts(a["text"], 0, worked_out, names) if x.startswith(_OF)}


def _text_parts(e: dict, depth: int = 0, worked_out: set | frozenset = frozenset(),
                params: frozenset = frozenset()) -> list[str]:
    """The pieces of a text joined by `+`: its written words, `…` for each part computed, a
    parameter by its name (nothing for one in `worked_out`); with `params`, a part computed from one
    of them alone by its name, marked (`_OF`)."""
    if depth < 50 and e.get("k") == "bin" and e.get("op") == "+":
        return (_text_parts(e["l"], depth + 1, worked_out, params)
                + _text_parts(e["r"], depth + 1, worked_out, params))
    if e.get("k") == "lit" and isinstance(e.get("v"), str):
        return [e["v"]]
    if depth < 50 and e.get("k") == "if" and isinstance(e.get("t"), dict) and isinstance(e.get("e"), dict):
        # (words chosen among a few, `if n == 1 then "single " else if n == 2 then "pair " else …`: each
        # of them, `single/pair/triple` — a new author's President read `…R`)
        chosen = _literal_choices(e)
        if chosen is not None and len(dict.fromkeys(w.strip() for w in chosen)) > 1 and all(w.strip() for w in chosen) \
                and len({w.split()[0] for w in chosen}) > 1:      # (`pass` or `pass turn`: `pass …`, below)
            return [(" " if all(w.startswith(" ") for w in chosen) else "")     # (`"play" + (… " single" …)`)
                    + "/".join(dict.fromkeys(w.strip() for w in chosen))
                    + (" " if all(w.endswith(" ") for w in chosen) else "")]
        # (`as (if … then "advance " + … else "advance " + … + " and " + …)`: the words both ways
        # start with, a new author's rulebook showed only `…`)
        then, other = _text_parts(e["t"], depth + 1, worked_out), _text_parts(e["e"], depth + 1, worked_out)
        if then == other:
            return then
        texts = ["".join(then), "".join(other)]
        both = os.path.commonprefix(texts)
        whole = any(t == both for t in texts) and all(t == both or t[len(both)] == " " for t in texts)
        words = both + " " if whole else both[:both.rfind(" ") + 1] if not both.endswith(" ") else both
        return ["…"] if not words.strip() else [words] if words.rstrip().endswith("…") else [words, "…"]
    if e.get("k") == "text" and isinstance(e.get("x"), dict):     # `text(c)`: the parameter's label
        e = e["x"]
    if e.get("k") == "local":
        if e.get("n") in worked_out:
            return []
        return [(_OF if e.get("n") in params else "") + str(e.get("n", "…")).upper()]
    read = {x.get("n") for x in walk_ir(e) if isinstance(x, dict) and x.get("k") == "local"} if params else set()
    if len(read) == 1 and read <= params:
        return [_OF + str(next(iter(read))).upper()]
    return ["…"]


def _literal_choices(e: dict, depth: int = 0) -> list[str] | None:
    """The written words of each way of an `if … then "a" else if … then "b" else "c"` made of words
    alone (at most 12 ways); None for any other text."""
    if e.get("k") == "lit" and isinstance(e.get("v"), str):
        return [e["v"]]
    if depth < 12 and e.get("k") == "if" and isinstance(e.get("t"), dict) and isinstance(e.get("e"), dict):
        then, other = _literal_choices(e["t"], depth + 1), _literal_choices(e["e"], depth + 1)
        return then + other if then is not None and other is not None else None
    return None


def _step(doc: _Doc, s: dict, about: dict, anytime: set) -> None:
    words = about.get("steps", {}).get(s["name"])
    actor = " (the rules say who acts)" if s.get("actor") is not None else ""
    together = s.get("simultaneous")
    if together is not None:                   # (language.md, "Simultaneous decisions")
        who = "the players the rules name answer" if together["seats"] is not None else "every player still in answers"
        actor = (f" ({who} at once, in secret; the answers are revealed together"
                 + (", then the rules act on them)" if together["reveal"] else ")"))
    doc.para(f"Step {doc.code(_name(s['name']))}{actor}" + (f": {printable(words)}" if words else ""))
    for a in s["actions"]:
        if a["name"] not in anytime:          # (listed once, under "at any time")
            _action(doc, a, about)


def _action(doc: _Doc, a: dict, about: dict) -> None:
    words = about.get("actions", {}).get(a["name"])
    doc.item(f"{doc.code(_action_name(a))}" + (f": {printable(words)}" if words else ""))


def _action_details(doc: _Doc, step: str, a: dict, about: dict, code: _Source, authors: bool = True,
                    why: str | None = None) -> None:
    """`why`: the words of its `require … else` (a first hour read only "allowed only when its
    condition holds" of a compiled game, whose source is not at hand)."""
    words = about.get("actions", {}).get(a["name"])
    doc.para(printable(words) if words else "(the rule file says nothing more about it)")
    header = code.header(step, a["name"])
    if header and not authors:
        doc.para(f"(for rule authors, the rule as written: help {a['name'].replace('_', ' ')} full)")
    elif header:
        doc.para(f"for rule authors, as the rules write it: {printable(header)}")
    elif a.get("require") is not None and why and why.strip("… "):
        doc.para(f"it is allowed only when its condition holds; when not, the rules say: {printable(why)}")
    elif a.get("require") is not None:
        doc.para("it is allowed only when its condition holds")


def _endings(ir: dict) -> list[str]:
    """Every `finish`: what it does, its reason's words (`…` for what is computed), and the
    moment it comes at where players know that moment (after an action, at a step, when a
    turn or round ends, by a card); never the rules' procedures."""
    found: list[str] = []
    moments = _moments(ir)

    def visit(block, where: str) -> None:
        for x in _statements(block):
            if x.get("s") != "finish":
                continue
            why = _reason_words(x["why"], ir.get("defs")) if x.get("why") is not None else None
            result = RESULT_WORDS[x["result"]]
            if x["result"] == "score" and len(ir.get("scores") or ()) > 1:     # `ranked by … then …`
                breaks = len(ir["scores"]) - 1
                result = ("the best score wins (a tie on it goes to the best by the rules' next ranking"
                          + (", then the next" if breaks > 1 else "") + "; players tied on "
                          + ("both" if breaks == 1 else "all of them") + " draw, and the others lose)")
            if x.get("who") is not None:
                who, one = _who(x["who"], why is not None)
                win, lose = ("wins", "loses") if one else ("win", "lose")
                result = {"win": f"{who} {win}, the others lose", "lose": f"{who} {lose}, the others win"}.get(
                    x["result"], result)
            when = where
            if not why and x.get("who") is not None and not _who(x["who"])[1]:
                when = ", ".join(w for w in ("the game says who, and why, when it ends", where) if w)
            line = result + (f" — {why}" if why else "") + (f" ({when})" if when else "")
            if line not in found:
                found.append(line)

    for s in ir["steps"]:
        visit(s["enter"], f"as step {_name(s['name'])} begins")
        for a in s["actions"]:
            visit(a["body"], f"after the action {_spoken(a)}")
        if s.get("simultaneous") is not None:
            visit(s["simultaneous"]["reveal"], f"once the answers at step {_name(s['name'])} are revealed")
    for name, p in ir["procs"].items():
        said = moments.get(name, [])
        visit(p["body"], ", ".join(said[:3]) + (", …" if len(said) > 3 else ""))
    visit(ir["setup"], "during the setup")
    for event, body in ir["handlers"].items():
        visit(body, HANDLER_WHEN[event])
    for c in ir["checks"]:
        visit(c["body"], "")                            # (a `when` rule: as soon as it holds)
    for lim in ir.get("limits", []):
        visit(lim["body"], "once the turn limit is reached")
    return found


def _setup_ends_turn(ir: dict) -> bool:
    """Does the setup end a turn (`end turn`, `end turn to P`), itself or in a procedure it calls?"""
    procs, seen, todo = ir.get("procs") or {}, set(), [ir["setup"]]
    while todo:
        for x in _statements(todo.pop()):
            if x.get("s") == "end_turn":
                return True
            if x.get("s") == "call" and x.get("proc") in procs and x["proc"] not in seen:
                seen.add(x["proc"])
                todo.append(procs[x["proc"]].get("body") or [])
    return False


def _statements(block):
    """Every statement in a block, nested ones included (without recursion)."""
    stack = list(reversed(block or []))
    while stack:
        x = stack.pop()
        if not isinstance(x, dict):
            continue
        yield x
        for key in ("then", "else", "body"):
            stack.extend(reversed(x.get(key) or []))


def _moments(ir: dict) -> dict:
    """For each procedure, the moments players know that run it, in words: a card's ability or
    an answer that is that procedure (`by Horn`); else the steps, turn and round ends and the
    setup that run it, directly or through other procedures, and the actions that do. The `when`
    rules that run a shared procedure are left out."""
    abilities = _ability_words(ir)
    direct: dict = {}

    def calls(block, who) -> None:
        for x in _statements(block):
            if x.get("s") == "call":
                direct.setdefault(x["proc"], []).append(who)

    for name, p in ir["procs"].items():
        calls(p["body"], ("proc", name))
    for event, body in ir["handlers"].items():
        calls(body, ("moment", HANDLER_WHEN[event]))
    for s in ir["steps"]:
        calls(s["enter"], ("moment", f"as step {_name(s['name'])} begins"))
        for a in s["actions"]:          # (a new author's Coup: an ending said "after a player answers
            calls(a["body"], ("action", _spoken(a)))       # challenge" alone)
        if s.get("simultaneous") is not None:   # (a new author's Cribbage: an end by a procedure the
            calls(s["simultaneous"]["reveal"],  #  reveal runs was said with no moment at all)
                  ("moment", f"once the answers at step {_name(s['name'])} are revealed"))
    for lim in ir.get("limits", []):
        calls(lim["body"], ("moment", "once the turn limit is reached"))
    out: dict = {}
    for name in ir["procs"]:
        if name in abilities:
            out[name] = [abilities[name]] if abilities[name] else []
            continue
        seen, todo, found, actions, cards = {name}, [name], [], [], []
        while todo:
            for kind, who in direct.get(todo.pop(), ()):
                if kind == "action":
                    if who not in actions:
                        actions.append(who)
                elif kind == "moment":
                    if who not in found:
                        found.append(who)
                elif who in abilities:          # (an answer runs it: said; a card's ability: named below)
                    if abilities[who].startswith("after a player answers") and abilities[who] not in found:
                        found.append(abilities[who])
                    elif abilities[who].startswith("by ") and abilities[who][3:] not in cards:
                        cards.append(abilities[who][3:])
                elif who not in seen:
                    seen.add(who)
                    todo.append(who)
        if actions:                     # (after the other moments: `at the start of a round` first)
            found.append(f"after the action {' or '.join(actions)}" if len(actions) <= 3
                         else f"after some actions ({', '.join(actions[:3])}, …)")
        if cards:                       # (a rules lawyer: an end a card's ability brings was said to come
            found.append(f"by {cards[0]}" if len(cards) == 1  # only after two actions)
                         else f"by a card ({', '.join(cards[:3])}{', …' if len(cards) > 3 else ''})")
        out[name] = found
    return out


def _who(e: dict, said: bool = True) -> tuple[str, bool]:
    """Who a `finish … for` names, in words, and whether that is one player (`said`: the reason
    given with it names them)."""
    if e.get("k") == "builtin" and e.get("n") in ("me", "current"):
        return {"me": "the player to act", "current": "the player whose turn it is"}[e["n"]], True
    return ("the players the game names" if said else "some players"), False


def _reason_words(e: dict, defs: dict | None = None) -> str | None:
    """A reason as written: its strings, `…` for each computed part (`cannot pay … damage`), the
    value of a named constant (`text(pieces_to_win)`, `def pieces_to_win = 5`: one number a designer
    changes, its words with it); None when it is all computed (no words of its own to show)."""
    parts, stack = [], [e]
    while stack:
        x = stack.pop()
        fixed = _constant(x, defs or {})
        if x.get("k") == "bin" and x.get("op") == "+":
            stack += [x["r"], x["l"]]
        elif x.get("k") == "lit" and isinstance(x.get("v"), str):
            parts.append(x["v"])
        elif fixed is not None:
            parts.append(fixed)
        elif not parts or parts[-1] != "…":
            parts.append("…")
    words = "".join(parts)
    if not re.search(r"\w", words.replace("…", "")):
        return None
    return "“" + printable(words) + "”"


def _constant(e: dict, defs: dict) -> str | None:
    """`text(D)` of a def D without parameters whose value is a whole number written down: that
    number, as text; else None."""
    if e.get("k") != "text" or not isinstance(e.get("x"), dict) or e["x"].get("k") != "def" or e["x"].get("a"):
        return None
    d = defs.get(e["x"].get("n"))
    body = d.get("body") if isinstance(d, dict) and not d.get("params") else None
    if isinstance(body, dict) and body.get("k") == "lit" and type(body.get("v")) is int:
        return str(body["v"])
    return None
