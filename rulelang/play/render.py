"""The text of what a seat is shown: a view (header, board, zones, values, the question), a zone,
a value and a match's outcome, as pure functions from the engine's view data to lines. The
terminal (repl.py) and the rulebook (rulebook.py) read them; nothing here asks the engine.
"""
from __future__ import annotations

import re
import shutil
import textwrap

from ..core.textsafe import printable
from .screen import join_labels, kind_noun, values_in_words, without_internal, words

def seat_name(seat: int) -> str:
    """Seats are 0-based in the API and P1..Pn for people."""
    return f"P{seat + 1}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 player`, `2 players` (`nouns` for an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def render_view(view: dict, width: int | None = None, cut_board: bool = True) -> str:
    """A seat's view as text: a header, the board drawing if any, the zones and the values."""
    parts = view_parts(view, width, cut_board)
    return "\n".join(parts["header"] + parts["board"] + parts["zone_lines"] + parts["value_lines"]
                     + parts["extra"] + parts["choice"])


def common_view(views: list[dict]) -> dict:
    """What every one of these views shows: a zone some of them see into is drawn as the one that
    sees least, a shown value only where all have it alike, the board only where all draw it alike."""
    base = dict(views[0])

    def known(zone: dict) -> int:
        cards = zone.get("cards")
        return -1 if cards is None else sum(1 for c in cards if c is not None)
    base["zones"] = [min(same, key=known) for same in zip(*(v["zones"] for v in views))]
    base["values"] = [v for v in views[0]["values"] if all(v in w["values"] for w in views[1:])]
    if any(w.get("board") != base.get("board") for w in views[1:]):
        base["board"] = None
    if any(w.get("cells") != base.get("cells") for w in views[1:]):
        base["cells"] = None
    return base


def view_parts(view: dict, width: int | None = None, cut_board: bool = True) -> dict:
    """The parts of a view's screen, as lines: `header`, `board`, `zone_lines` and `value_lines`
    (one a line, wrapped), `zones` and `values` (one item each, for a compact layout), `extra`
    (the turn order) and `choice` (the decision waiting, in words). What the rules keep
    `internal` is left out. A board wider than `width` is cut to it at a terminal (`cut_board`);
    output to a file or a pipe has no width to keep to (a new author's Backgammon lost two points)."""
    view = without_internal(view)
    width = width or max(60, shutil.get_terminal_size((80, 24)).columns)
    lines = _header_lines(view, width)
    board = printable(view["board"].rstrip("\n"), multiline=True).split("\n") if view.get("board") else []
    widest = max(map(len, board), default=0)
    if widest > width and cut_board:         # cut, not wrapped: a wrapped map's rows fall apart
        board = [line if len(line) <= width else line[:width - 1] + ">" for line in board] + [
            f"  (board cut: it needs {widest} columns; widen the terminal)"]
    zones = _zone_lines(view["zones"], values_in_words(view))
    values = [render_value(value) for value in view["values"]]
    zone_lines = [x for line in zones for x in _wrapped(line, width)]
    value_lines = [x for line in values for x in _wrapped(line, width)]
    extra = []
    if view.get("turn_order") and (view.get("eliminated") or view["turn_order"] != sorted(view["turn_order"])):
        out = set(view.get("eliminated") or [])
        brief = set(view.get("out_this_round") or [])
        extra.append("  turn order: " + ", ".join(seat_name(p) + (" (out this round)" if p in brief else
                                                                  " (out)" if p in out else "")
                                                  for p in view["turn_order"]))
    choice_lines = _choice_lines(view, width)
    return {"header": lines, "board": board, "zones": zones, "values": values, "zone_lines": zone_lines,
            "value_lines": value_lines, "extra": extra, "choice": choice_lines,
            "zone_ranks": _zone_ranks(view["zones"], view["viewer"]),
            "value_ranks": [0 if v.get("own") else 1 if v.get("table") else 2 for v in view["values"]],
            "table_lines": [x for v, line in zip(view["values"], values) if v.get("table")
                            for x in _wrapped(line, width)]}


def _header_lines(view: dict, width: int) -> list[str]:
    """`== Game · round 3 · turn 7 · P2's turn · step play · you are P1`, over several lines when long.
    The step in words (`draw cards`, not `draw_cards`), and not while a question is asked: its prompt
    says what is going on."""
    header = [printable(view["game"])]
    turn_player = view.get("turn_player")
    actor = view.get("actor")
    if view.get("over"):                       # whose turn and which step: no more (a turn limit's end
        return ["== " + " · ".join(header + ["game over", f"you are {seat_name(view['viewer'])}"])]  # read turn 61)
    if view.get("turnless"):                   # (rules with no `turn { }`: their steps are the game)
        pass
    elif not view.get("turn") or turn_player is None:
        header.append("setting up")
    else:
        if view.get("round"):                  # a game of rounds: `round 3 · turn 7`
            header.append(f"round {view['round']}")
        header.append(f"turn {view['turn']}")
        header.append(f"{seat_name(turn_player)}'s turn")
    step = str(view.get("step") or "")
    if step and not step.startswith("__") and not (view.get("choice") or {}).get("prompt"):
        header.append(f"step {printable(' '.join(step.replace('_', ' ').split()))}")   # (a question says more)
    if view.get("simultaneous"):
        # all answer at once: "P1's turn" alone misled a new author's Hearts (its pass in every hand), and
        # with no turn said a new author's Qwixx read "P1 to act" on P2's turn, whose player alone is
        # penalised for marking nothing
        seats = view["simultaneous"].get("seats") or []
        header.append("all answer at once" if len(seats) >= view.get("players", len(seats)) or not seats
                      else " ".join(seat_name(p) + "," for p in seats[:-1]) + f" {seat_name(seats[-1])} answer at once"
                      if len(seats) > 1 else f"{seat_name(seats[0])} answers")
    elif actor is not None and not view.get("over") and (actor != turn_player or not view.get("turn")):
        header.append(f"{seat_name(actor)} to act")
    header.append(f"you are {seat_name(view['viewer'])}")
    lines = ["=="]
    for part in header:                        # a long header goes on over several lines
        if len(lines[-1]) + 3 + len(part) > width and lines[-1] != "==":
            lines.append("  ")
        lines[-1] += (" · " if lines[-1] not in ("==", "  ") else " ") + part
    return lines


def _choice_lines(view: dict, width: int) -> list[str]:
    """The decision waiting, in words; a simultaneous one says only the viewer's own answer."""
    choice = view.get("choice")
    choice_lines = []
    if choice:
        who = "you" if choice["chooser"] == view["viewer"] else seat_name(choice["chooser"])
        choice_lines = [x for x in _wrapped("▶ " + choice_words(choice, who), width)]
    together = view.get("simultaneous")
    if together and not view.get("over"):   # answered in secret, revealed together: own answer only
        mine = (f"your answer: {printable(together['answer'])}" if together["answer"] is not None
                else "you have still to answer" if together["to_answer"] else "you are not asked")
        asked = ", ".join(seat_name(p) for p in together["seats"])
        said = (f"{asked} answer at once, in secret; the answers are revealed together" if len(together["seats"]) > 1
                else f"{asked} answers in secret; the answer is then revealed")   # (one left: a new author's Incan Gold)
        choice_lines = [x for x in _wrapped(f"▶ {said} ({mine})", width)]
    return choice_lines


def choice_words(choice: dict, who: str) -> str:
    """The decision waiting, as a sentence: `you must choose: which base scores first`; a window
    the rules did not word: `before scores: you may respond now, or pass`; one they worded: its
    question (`Jungle Oasis is about to score: play a Special?`); with what causes it."""
    prompt = printable(choice.get("prompt") or choice.get("kind") or "a choice")
    running = choice.get("running", [])
    causes = []
    for f in running:
        effect = f.get("effect")
        if effect:
            cause, _, what = (printable(x).strip() for x in str(effect).partition(":"))
            if re.fullmatch(r"P\d+", cause) and what:     # a player's answer: `P2's challenge` (the
                mine = who == "you" and choice.get("chooser") is not None \
                    and cause == seat_name(choice["chooser"])       # chooser's own: `your challenge`)
                cause = f"your {what}" if mine else f"{cause}'s {what}"
            if cause and cause not in causes and cause.lower() not in prompt.lower():
                causes.append(cause)
    because = f" (because of {', '.join(causes)})" if causes else ""
    if choice.get("kind") == "window" and prompt.startswith("respond in "):
        moment = _name(prompt[len("respond in "):])
        verb = "may respond now, or pass" if who == "you" else "may respond now"
        return f"{moment}: {who} {verb}{because}"
    if choice.get("kind") == "window":        # worded by the rules (`window … as`): the question itself
        return f"{prompt}{because}" if who == "you" else f"{who} is asked: {prompt}{because}"
    return f"{who} must choose: {prompt}{because}"


def _zone_lines(zones: list, values: dict | None = None) -> list[str]:
    """A line per zone; of a family per enum value(s) (`trail (P1, R)`…) only the members holding
    something, and one line for those that are empty. `values`: the view's `component_values`."""
    lines, empty, last = [], {}, {}
    for zone in zones:
        if zone.get("key_text") and zone["count"] == 0:
            if zone["name"] not in empty:
                empty[zone["name"]] = len(lines)
                lines.append(None)
            continue
        if zone.get("key_text"):
            last[zone["name"]] = len(lines)
        lines.append(render_zone(zone, values))
    for name, at in empty.items():            # (after the family's last member shown: a new author's
        if name in last and last[name] > at:  #  `spot: the others empty` stood between Forest and Mine)
            lines[at:last[name] + 1] = lines[at + 1:last[name] + 1] + [f"{_name(name)}: the others empty"]
        else:
            lines[at] = f"{_name(name)}: the others empty" if name in last else f"{_name(name)}: all empty"
    return lines


def board_legend(ir: dict) -> list[str]:
    """The board's key as the rule file declares it (`board … , legend [...]`): its entries, or []."""
    return next((b.get("legend") for b in ir.get("boards") or [] if b.get("legend")), None) or []


def legend_lines(ir: dict, width: int) -> list[str]:
    """The board's key, one entry a line."""
    legend = board_legend(ir)
    if not legend:
        return []
    return ["  Key:"] + [x for entry in legend for x in textwrap.wrap(
        printable(entry), width, initial_indent="    ", subsequent_indent="        ",
        break_long_words=False, break_on_hyphens=False)]


def _zone_ranks(zones: list, viewer) -> list[int]:
    """For each line of `_zone_lines`: 0 a zone only its owner sees, the viewer's (a hand), 1 the rest."""
    ranks, empty = [], set()
    for zone in zones:
        if zone.get("key_text") and zone["count"] == 0:
            if zone["name"] not in empty:
                empty.add(zone["name"])
                ranks.append(1)
            continue
        mine = zone.get("visibility") == "owner" and zone.get("owner") is not None and zone["owner"] == viewer
        ranks.append(0 if mine else 1)
    return ranks


def _wrapped(line: str, width: int) -> list[str]:
    """A zone or value line, indented, wrapped at the terminal's width with a hanging indent (a
    20-card pile stays readable); a line already laid out on several lines is kept as it is."""
    if "\n" in line:                        # each of its lines, wrapped under its own indent
        out = []
        for i, part in enumerate(line.split("\n")):
            lead = "  " if i == 0 else " " * (len(part) - len(part.lstrip()))
            out += textwrap.wrap(part.strip(), width, initial_indent=lead, subsequent_indent=lead + "    ",
                                 break_long_words=False, break_on_hyphens=False) or [lead]
        return out
    if len(line) + 2 <= width:
        return ["  " + line]
    return textwrap.wrap(line, width, initial_indent="  ", subsequent_indent="      ",
                         break_long_words=False, break_on_hyphens=False)


HANDLER_WHEN = {"stuck": "when the player to act has no legal action", "turn_start": "at the start of a turn",
                "turn_end": "at the end of a turn", "round_start": "at the start of a round",
                "round_end": "at the end of a round"}


def _name(name: str) -> str:
    """A declared name as people read it: `cards_aside` → cards aside."""
    return printable(" ".join(str(name).replace("_", " ").split()) or name)


def component_text(card: dict, values: dict | None) -> str:
    """A component as the screen lists it: its label, and its values (`var … per KIND`) after it:
    `die 1 (face 5)`."""
    held = (values or {}).get(str(card["id"])) if "id" in card else None
    if not held:
        return card["label"]
    return f"{card['label']} ({', '.join(f'{_name(k)} {_show(v)}' for k, v in held.items())})"


def render_zone(zone: dict, values: dict | None = None) -> str:
    """A zone's line; `values`: the view's `component_values`, listed with the components they are of."""
    name = _name(zone["name"])
    if zone.get("key_text"):                   # one of a family per enum value(s): which
        name = f"{name} ({printable(zone['key_text'])})"
    elif zone["owner"] is not None:
        name = f"{name} ({seat_name(zone['owner'])})"
    elif zone.get("of"):                       # a zone per component: whose
        name = f"{name} ({printable(zone['of']['label'])})"
    count = zone["count"]
    one, many = kind_noun(zone.get("kind"))
    if zone["cards"] is None:
        known = zone.get("known") or []
        # (with their values, as the view gives them for a component the viewer sees: `die (face 5)`)
        shown = [component_text(card, values) for card in known if card.get("revealed")]
        private = [component_text(card, values) for card in known if not card.get("revealed")]
        seen = (f", revealed: {join_labels(shown)}" if shown else "") \
            + (f" (you know: {join_labels(private)})" if private else "")
        if count is None:                      # `uncounted`: not even how many
            return f"{name}: hidden, how many is not known{seen}"
        if count == 0:                         # (as a zone in sight says it: nothing is hidden in it)
            return f"{name}: empty"
        if shown and len(shown) == count:          # every one revealed to everyone: by name
            return f"{name}: {plural(count, one, many)}, revealed: {join_labels(shown)}"
        return f"{name}: {plural(count, one, many)}, hidden{seen}"
    if not zone["cards"]:
        return f"{name}: empty"
    if zone.get("top_only"):                   # only the top is seen
        return f"{name}: {plural(count, one, many)}, top: {printable(component_text(zone['cards'][-1], values))}"
    grouped = _grouped([component_text(card, values) for card in zone["cards"]])
    # (cards that all read alike have no order to tell: a trial's `reserve: 11 warriors, bottom to top: L ×11`)
    order = ", bottom to top" if zone.get("ordered") and count > 1 and len(grouped) > 1 else ""
    return f"{name}: {plural(count, one, many)}{order}: " + join_labels(grouped)


def _grouped(texts: list[str]) -> list[str]:
    """Cards that read alike said once with how many (`Copper ×46`), each run of them in its
    order (a new author's supply pile read "Copper, Copper, …" 46 times). A set keeps its order
    too, as docs say it shows it: grouped all where the first was, a new author's Hanabi hand B4,
    Y1, B1, W3, Y1 read `B4, Y1 ×2, B1, W3` — its 5th card seemingly W3, where clues count by place."""
    out: list[str] = []
    counts: list[int] = []
    for t in texts:
        if out and out[-1] == t:
            counts[-1] += 1
        else:
            out.append(t)
            counts.append(1)
    # (a no-break space before the count: a line wrapped between a name and its `×2`, which then
    # stood alone — 83 times in one game of a card game: a fuzzer's)
    return [t if k == 1 else f"{t}\u00a0×{k}" for t, k in zip(out, counts)]


def render_value(value: dict) -> str:
    """`name = value` (a rule file's name), `Label: value` (a value the rules label: `show "Enemy
    health" = …`), a per-player value `name: P1 …, P2 …`, a long list one item a line."""
    labelled = bool(value.get("label"))
    name = printable(value["name"]) if labelled else _name(value["name"])
    if "per_player" in value:
        row = value.get("texts") or value["per_player"]
        raw = value["per_player"]                # (a list of several in brackets: `P1 (P2, P3), P2 empty`)
        return f"{name}: " + ", ".join(
            f"{seat_name(seat)} " + (f"({_show(v)})" if isinstance(raw[seat], list) and len(raw[seat]) > 1 else _show(v))
            for seat, v in enumerate(row))
    if "per_key" in value:                     # per enum value(s): `score: R 3, B 0`
        listed = ", ".join(
            f"({printable(x['key_text'])}) {_show(x['text'] if isinstance(x.get('text'), str) else x['value'])}"
            for x in value["per_key"] if x["value"] is not None)
        return f"{name}: {listed or 'none'}"     # (every entry none: `occupant: `, blank, read as a fault)
    if value.get("error"):                     # a `show` that failed: said in its place, the game goes on
        return f"{name}: ? ({printable(value['error'])})"
    shown = value["text"] if isinstance(value.get("text"), str) else value["value"]
    if isinstance(shown, list) and sum(len(str(x)) for x in shown) > 70:   # a long list: one item a line
        return f"{name}:" + "".join(f"\n    {_show(x)}" for x in shown)
    return f"{name}: {_show(shown)}"


def render_outcome(outcome: dict, kinds: list[str], sides: list[str] | None = None,
                   ranks: list | None = None) -> str:
    """Each seat's result (and side and score, when the game has them). `ranks`: each seat's score
    and tie-breaks (`ranked by … then …`): where scores tie, the tie-breaks are said too (`score 3,
    then 5`), or a win on an equal score reads as a mistake."""
    scores = outcome.get("scores")
    tied = bool(scores) and bool(ranks) and len(ranks[0]) > 1 and len(set(scores)) < len(scores)
    lines = ["Result:"]
    for seat, result in enumerate(outcome["results"]):
        score = f", score {_show(scores[seat])}" if scores else ""
        if tied and ranks is not None and scores is not None and scores.count(scores[seat]) > 1:
            score += "".join(f", then {_show(x)}" for x in ranks[seat][1:])
        side = f", {printable(sides[seat])}" if sides and sides[seat] else ""
        lines.append(f"  {seat_name(seat)} ({kinds[seat]}{side}): {printable(result)}{score}")
    return "\n".join(lines)


def outcome_headline(outcome: dict, sides: list[str] | None = None) -> str:
    """Who won, as what: `P1 and P3 win (Hunter, Hunter)`, `everyone loses`, `a draw`."""
    results = outcome["results"]
    n = len(results)

    def named(seats: list[int]) -> str:
        names = [seat_name(s) + (f" ({printable(sides[s])})" if sides and sides[s] else "") for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    won = [s for s in range(n) if results[s] == "win"]
    drew = [s for s in range(n) if results[s] == "draw"]
    if won and len(won) == n:
        return "everyone wins" if n > 1 else f"{named(won)} wins"
    if won:
        return f"{named(won)} {'wins' if len(won) == 1 else 'win'}"
    if drew and len(drew) == n:
        return "a draw"
    if drew:
        return f"a draw between {named(drew)}"
    return "everyone loses" if n > 1 else f"{named([0])} loses"


def _show(value) -> str:
    return words(value)


# -- the rulebook: what the rule file says to players -------------------------
#
# Made from the compiled game: its `about` words and its declarations (players, options, zones,
# steps, actions and every `finish`), with the rule file's own text for each action's choices
# and condition when the rule file can be read (`rulelang.locations`). Every word from the rule
# file goes through `printable`.

VISIBLE = {"public": "face up", "hidden": "face down, only how many is known",
           "owner": "seen by its owner, the others know how many",
           "others": "seen by every player but its owner, who knows how many"}
RESULT_WORDS = {"win": "everyone wins", "lose": "everyone loses", "draw": "a draw",
                "score": "the best score wins (players tied for the best draw, and the others lose)"}
