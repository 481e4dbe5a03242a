"""What the terminal player (`repl.py`) lays out on a screen, in words for people.

Pure functions from views, actions and names to lines of text: values in words (never a Python
repr), a screen fitted to the terminal's size (compact status, the board or table, the decision,
the choices grouped by piece or card, paged when they still do not fit), what an action changed
on the table (the engine's default line for each change the rule file did not tell), the rules
text of every component and enum value a player may look up, and the "thinking…" indicator.
"""
from __future__ import annotations

import difflib
import json
import re
import textwrap
import threading
import time
from collections import Counter

from rulelang.core.textsafe import printable
from rulelang import without_internal  # noqa: F401  (the screen's view: without `internal`)


def words(value) -> str:
    """A value as people read it: yes/no, `-` for nothing, a list as its items joined by commas (`empty`)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        if not value:
            return "empty"
        return ", ".join("(" + words(x) + ")" if isinstance(x, (list, tuple)) else words(x) for x in value)
    return printable(value)


def join_labels(labels) -> str:
    """Names side by side, always by commas: `Gnome, Pay the Piper`, `4♦, 7♥`."""
    return ", ".join(printable(x) for x in labels)


# -- fitting a screen -----------------------------------------------------------------------

def pack(items: list[str], width: int, indent: str = "  ") -> list[str]:
    """Short items side by side (` · ` between them) on lines of at most `width`; an item too long
    for a line wraps on its own with a hanging indent."""
    lines: list[str] = []
    current = ""
    for item in items:
        if "\n" in item:
            if current:
                lines.append(current)
                current = ""
            for i, x in enumerate(item.split("\n")):
                lead = indent if i == 0 else " " * (len(x) - len(x.lstrip()))
                lines += textwrap.wrap(x.strip(), width, initial_indent=(indent if i == 0 else lead),
                                       subsequent_indent=lead + "    ", break_long_words=False,
                                       break_on_hyphens=False) or [lead]
            continue
        if current and len(current) + 3 + len(item) <= width:
            current += " · " + item
            continue
        if current:
            lines.append(current)
        if len(indent) + len(item) <= width:
            current = indent + item
        else:
            lines += textwrap.wrap(item, width, initial_indent=indent, subsequent_indent=indent + "    ",
                                   break_long_words=False, break_on_hyphens=False) or [indent]
            current = ""
    if current:
        lines.append(current)
    return lines


def _common_words(texts: list[str]) -> str:
    """The words all the texts start with."""
    split = [t.split(" ") for t in texts]
    common = []
    for group in zip(*split):
        if all(w == group[0] for w in group):
            common.append(group[0])
        else:
            break
    return " ".join(common)


def _has_words(text: str, words: list[str]) -> bool:
    """Do these words stand in `text`, side by side, as whole words?"""
    return re.search(r"(?<!\S)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\S)", text) is not None


def group_actions(actions: list, texts: list[str]) -> list[tuple[str, list[tuple[int, str]]]]:
    """The actions by piece or card: actions of one name, and of one first choice when they have
    several (`play Gnome` → its bases), form a group named by the words they share. Each group:
    (its name, [(number, what is left of the text)]), numbers from 1 in the listed order."""
    groups: dict = {}
    order: list = []
    for n, (action, text) in enumerate(zip(actions, texts), 1):
        name = getattr(action, "name", None)
        args = list(getattr(action, "args", {}).values()) if name is not None else []
        key: tuple = (name,)
        if len(args) >= 2:
            first = args[0]
            key = (name, tuple(first) if isinstance(first, list) else first)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((n, text))
    out = []
    for key in order:
        members = groups[key]
        if len(members) == 1:
            out.append(("", members))
            continue
        head = _common_words([t for _, t in members])
        while head and (any(not t[len(head):].strip() for _, t in members)   # (each keeps a word:
                        or head.count("(") > head.count(")")):               # `… Lancer → 1. · 2. (2)`; and no
            head = " ".join(head.split()[:-1])            # bracket left open: `infantry (+1 … with → 5. 2 stars) d10`)
        words = head.split()
        said_again = [k for k in range(2, len(words)) if any(_has_words(t[len(head):], words[-k:]) for _, t in members)]
        if said_again:
            # (the head ends mid-phrase of a part the text says again: `place 9: Water at → 1. c5, Water
            # at d5`, a new author's Kingdomino — cut back to before it: `place 9: → 1. Water at c5, …`)
            head = " ".join(words[:-max(said_again)])
        if key[0] is not None and not head:
            head = ""
        out.append((head, [(n, t[len(head):].strip()) for n, t in members]))
    # singletons side by side in one group (`done`, `pass`)
    merged: list = []
    for head, members in out:
        if not head and merged and not merged[-1][0]:
            merged[-1][1].extend(members)
        else:
            merged.append((head, list(members)))
    return merged


def action_lines(groups, width: int) -> list[str]:
    """Groups of actions as lines: `  play Gnome → 1 Jungle Oasis · 2 Tortuga`."""
    lines = []
    for head, members in groups:
        items = [f"{n}. {rest}" if rest else f"{n}." for n, rest in members]
        lead = f"  {head} → " if head else "  "
        current = lead
        pad = " " * min(len(lead), 12)
        for item in items:
            if current.strip() and current != lead and len(current) + 3 + len(item) > width:
                lines.append(current)
                current = pad
            current += ("" if current in (lead, pad) else " · ") + item
        lines.append(current)
    return lines


def kind_of(action, words: dict | None = None) -> str:
    """An action's kind as people read it: the words its `as` text starts with (`words`: by action
    name — `bid` for `raise` shown `bid 5`), else its name, `_` as a space ("" for an answer)."""
    name = getattr(action, "name", None)
    if not name:
        return ""
    return (words or {}).get(name) or " ".join(str(name).replace("_", " ").split())


def action_kinds(actions: list, words: dict | None = None) -> list[tuple[str, int]]:
    """The kinds of action offered (see kind_of) and how many of each, by name; [] when there are
    fewer than two kinds (the answers to one question)."""
    counts: Counter = Counter(kind_of(a, words) for a in actions if kind_of(a, words))
    return sorted(counts.items()) if len(counts) > 1 else []


def more_lines(left: int, kinds: list[tuple[str, int]], width: int) -> list[str]:
    """Under a page of choices: how many more, and every kind of action with its count (`attack (6)
    · dig (2) · move (38)`), so that each kind is known though most are on later pages; one line
    when it fits."""
    if not kinds:
        line = f"  … {left} more {'choice' if left == 1 else 'choices'}: type more"
        return [line + MORE_HINT if len(line + MORE_HINT) <= width else line]
    listed = " · ".join(f"{k} ({n})" for k, n in kinds)
    one = f"  … {left} more; every kind: {listed}: type more KIND"
    if len(one) <= width:
        return [one]
    last = f"  … {left} more {'choice' if left == 1 else 'choices'}: type more, or more KIND"
    example = f" (more {kinds[0][0]})"
    return pack(["every kind: " + listed.split(" · ")[0]] + listed.split(" · ")[1:], width) + [
        last + example if len(last + example) <= width else last]


TABLE_NOTE = "  (the table: type table)"
QUESTION_WHOLE = 8       # a question's answers in at most this many lines are shown whole, the table cut for them


MORE_HINT = " (or a number, or the start of a text)"


def noting_status(line: str, width: int) -> str:
    """The line saying there are more choices, also saying where the status is when none of it is
    on screen (it costs no line: the hint on typing gives way to it when both do not fit)."""
    note = " · the status: type status"
    plain = line[:-len(MORE_HINT)] if line.endswith(MORE_HINT) else line
    return next((c for c in (line + note, plain + note) if len(c) <= width), line)


def cut_lines(lines: list[str], room: int, what: str) -> list[str]:
    """`lines` in at most `room` lines, the last saying where the rest is (`what`: status, table);
    no heading is kept without a line under it."""
    if len(lines) <= room:
        return lines
    kept = max(0, room - 1)
    while kept and lines[kept - 1].rstrip().endswith(":"):   # (not a heading with nothing under it)
        kept -= 1
    if kept:
        return lines[:kept] + [f"  … {len(lines) - kept} more lines of {what}: type {what}"]
    return [f"  (the {what}: type {what})"] if room >= 1 else []


def board_rows(board: list[str], room: int) -> list[str]:
    """The board in at most `room` lines (at least 5), the last saying so: its middle rows, where
    play on a large board begins. The line saying the board was cut to the width stays under it."""
    notes = [line for line in board if line.startswith("  (board cut:")]
    rows = [line for line in board if not line.startswith("  (board cut:")]
    room = max(room, 5) - len(notes)
    if len(rows) <= room:
        return board
    keep = room - 1
    start = (len(rows) - keep) // 2
    note = f"  (board: lines {start + 1}–{start + keep} of {len(rows)}; type board)"
    return rows[start:start + keep] + notes + [note]


def fit_screen(parts: dict, width: int, height: int, actions: list, texts: list[str],
               cut_board: bool = True) -> tuple[list[str], bool]:
    """The lines of one decision's screen (see `_fit`; `cut_board` False: never the board's rows, for a
    screen fitted shorter only to keep more lines above it in sight). The rules text of the card whose
    ability asks (under the question; `parts["choice_short"]`: the question with a line saying where
    that text is instead) gives way before the table does: `look NAME` reads it again."""
    if not cut_board:
        return _fit_whole(parts, width, height, actions, texts)
    lines, more = _fit(parts, width, height, actions, texts)
    short = parts.get("choice_short")
    if short is None or len(short) >= len(parts["choice"]):
        return lines, more
    ranks = parts.get("value_ranks") or [2] * len(parts["values"])
    table = pack([v for v, r in zip(parts["values"], ranks) if r == 1], width)
    if all(line in lines for line in table):
        return lines, more
    return _fit(dict(parts, choice=short), width, height, actions, texts)


def _fit(parts: dict, width: int, height: int, actions: list, texts: list[str]) -> tuple[list[str], bool]:
    """The lines of one decision's screen (`_fit_whole`); where even so they would run past the window,
    the board is cut to its middle rows by as many lines as they would (a new author's Hive, 25 rows at
    80x24: the header and the board's top rows scrolled off, with no word of it). A screen that fits
    is never changed (a review: a board cut where the whole one fit lost the rows the choices were on)."""
    lines, more = _fit_whole(parts, width, height, actions, texts)
    board = parts["board"]
    room = len(board)
    for _ in range(3):
        over = len(lines) - (height - 1)           # (the prompt's line: the header stays in sight)
        if over <= 0 or room <= 5:
            break
        room = max(5, room - over)
        lines, more = _fit_whole(dict(parts, board=board_rows(board, room)), width, height, actions, texts)
    return lines, more


def _fit_whole(parts: dict, width: int, height: int, actions: list, texts: list[str]) -> tuple[list[str], bool]:
    """The lines of one decision's screen, at most `height` - 4 (the prompt's line, and the last move's) when it can be:
    `parts` has the header, board, zones, values, extra and choice lines (lists), and may rank the
    zones and values (`zone_ranks`, `value_ranks`: 0 the viewer's own secrets, 1 the table, 2 the
    rest of the status). The full layout when it fits; else the zones and values packed side by
    side, the viewer's own first, then the table, then the rest, and the actions grouped. What
    gives way, in turn: the rest of the status (cut, then one line saying where it is), the zones
    that are not the viewer's, the actions (paged), the table's values; the viewer's own are
    never cut. A question's few answers are not paged when the table is cut anyway. When the actions
    must be paged anyway, the status is fitted beside the page actually printed (not beside every
    action). Returns the lines and whether actions were left out."""
    budget = max(8, height - 4)               # (the prompt, and room for the lines of the last move)
    plain = [f"  {n}. {t}" for n, t in enumerate(texts, 1)]

    def total(*sections) -> int:
        return sum(len(s) for s in sections)

    head, board, choice, extra = parts["header"], parts["board"], parts["choice"], parts["extra"]
    full = head + board + parts["zone_lines"] + parts["value_lines"] + extra + choice
    if total(full, plain) <= budget:
        return full + plain, False
    zone_ranks = parts.get("zone_ranks") or [1] * len(parts["zones"])
    value_ranks = parts.get("value_ranks") or [2] * len(parts["values"])
    own_zones = [z for z, r in zip(parts["zones"], zone_ranks) if r == 0]
    zones = pack(parts["zones"], width)
    own = pack([v for v, r in zip(parts["values"], value_ranks) if r == 0], width)
    table = pack([v for v, r in zip(parts["values"], value_ranks) if r == 1], width)
    rest = pack([v for v, r in zip(parts["values"], value_ranks) if r not in (0, 1)], width)
    grouped = action_lines(group_actions(actions, texts), width)
    kinds = action_kinds(actions, parts.get("kind_words"))
    if len(grouped) >= len(plain):
        grouped = plain

    def screen(status: list[str], shown: list[str], more: bool = False, kinds=kinds):
        return screen_with(zones, table, status, shown, more, kinds)

    def screen_with(zones: list[str], table: list[str], status: list[str], shown: list[str], more: bool = False,
                    kinds=kinds):
        lines = head + board + zones + own + table + status + extra + choice + shown
        if not more:
            return lines, False
        left = len(actions) - max((int(m.group(1)) for line in shown for m in re.finditer(r"(?:^ +|→ |· )(\d+)\.", line)),
                                  default=0)
        tail = more_lines(left, kinds or [], width)
        if rest and not status:                      # (the status gave way whole: its line says where it is —
            tail[-1] = noting_status(tail[-1], width)   # a new author's Blokus lost "Squares left" at 80x24)
        return lines + tail, True

    fixed = total(head, board, extra, choice, own)
    # 1. every action on screen, the rest of the status cut to what is left
    room = budget - fixed - total(zones, table, grouped)
    if room >= len(rest):
        return screen(rest, grouped)
    if room >= 1:
        return screen(cut_lines(rest, room, "status"), grouped)
    # 2. ... the zones that are not the viewer's giving way too, then the table's values
    status = cut_lines(rest, 1, "status")
    hidden_names = list(dict.fromkeys(re.split(r" \(|:", z)[0] for z, r in zip(parts["zones"], zone_ranks) if r != 0))
    note = f"  ({', '.join(hidden_names)}: type table)"          # (only when `table` would show something)
    note = note if len(note) <= width else "  (the other zones: type table)"
    collapsed = pack(own_zones, width) + ([note] if hidden_names else [])
    if len(collapsed) < len(zones):
        zones = collapsed
        room = budget - fixed - total(zones, table, status, grouped)
        if room >= 0:
            return screen(status, grouped)
    # 3. the actions paged (the table is what the decision is about: it stays whole while a
    # page of at least 3 lines, and the line saying there are more, fits beside it), the table
    # before the other zones before the rest of the status; the status is fitted beside the
    # page printed, in up to a third of the room left.
    zones = pack(parts["zones"], width)
    zones = collapsed if len(collapsed) < len(zones) else zones
    table = pack([v for v, r in zip(parts["values"], value_ranks) if r == 1], width)
    avail = budget - fixed
    page_room = len(grouped) if len(grouped) <= 4 else 4      # (a page of 3 and its line: room for 4 lines)
    if len(table) > avail - page_room - len(zones):
        if choice and len(grouped) <= QUESTION_WHOLE:
            # the table is cut anyway: a question's few answers are shown whole, the table (then the
            # viewer's zones, to a line) giving way to them — each has a command to read it again (a
            # first hour read 3 of the 6 areas a question offered, and typed more to see the rest)
            for shown_zones in (zones, collapsed[-1:]):
                room = avail - total(shown_zones, grouped)
                if room >= len(table):
                    return screen_with(shown_zones, table, cut_lines(rest, room - len(table), "status"), grouped)
                noted = bool(hidden_names) and shown_zones[-1:] == collapsed[-1:]   # (its line says `type table`)
                if room >= 1 or (room == 0 and noted):
                    kept = cut_lines(table, room, "table")
                    return screen_with(shown_zones, [] if noted and kept == [TABLE_NOTE] else kept, [], grouped)
        # (cut: then with the line saying where the rest of the status is, which gives way before the
        # table's values do — a new author's Yahtzee at 80x24 lost "Rolls left" with no word of it)
        page_room += 1 if rest else 0
        table = cut_lines(table, avail - page_room - len(zones), "table")
        if table == [TABLE_NOTE] and zones and collapsed and zones[-1] == collapsed[-1]:
            table = []                                # (the line about the zones says it)
    left = avail - total(zones, table)
    if left < min(len(grouped), 4) and len(zones) > 1:   # (last of all, the viewer's own zones: a line)
        zones = collapsed[-1:]
        left = avail - total(zones, table)
    status = cut_lines(rest, max(0, min(len(rest), (left - 1) // 3)), "status")
    if left - 1 - len(status) < 3:                    # (a page of 3 comes first)
        status = []
    spare = max(0, height - 1 - budget)               # (the lines kept for the last move's)
    if left + spare < 3 + len(more_lines(len(actions), kinds, width)):
        # a window too small even for a page of 3 and every kind (a 15-line board at 60×20 left no
        # line, and they pushed the enemy's home row off the top): those lines given up, no status,
        # no kinds, as many choices as fit over the line saying how many more
        left += spare
        page = max(1, left - 1)
        if len(grouped) <= page + 1:
            return screen([], grouped)
        return screen([], grouped[:page], more=True, kinds=[])
    page = max(3, left - len(more_lines(len(actions), kinds, width)) - len(status))
    if len(grouped) <= page + 1:                      # (the line saying there are more would take as much room)
        return screen(cut_lines(rest, left - len(grouped), "status"), grouped)
    return screen(status, grouped[:page], more=True)


# the English nouns of a table game whose plural no rule above makes
IRREGULAR = {"die": "dice", "man": "men", "woman": "women", "mouse": "mice", "child": "children",
             "person": "people", "foot": "feet", "tooth": "teeth", "goose": "geese", "ox": "oxen",
             "leaf": "leaves", "wolf": "wolves", "elf": "elves", "dwarf": "dwarves", "thief": "thieves",
             "knife": "knives", "life": "lives", "half": "halves", "sheep": "sheep", "fish": "fish",
             "deer": "deer", "hero": "heroes", "potato": "potatoes", "tomato": "tomatoes",
             "domino": "dominoes", "torpedo": "torpedoes", "echo": "echoes", "volcano": "volcanoes"}


def kind_noun(kind: str | None) -> tuple[str, str]:
    """A component kind's name as a noun, singular and plural: `Warrior` → warrior, warriors;
    `PlayerCard` → player card, player cards. Without a kind, or one of a single letter (a new
    author's `kind C` read `3 cs`): card, cards."""
    if not kind or len(kind.strip("_")) < 2:
        return "card", "cards"
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind).replace("_", " ").lower().split()
    if not words:
        return "card", "cards"
    last = words[-1]
    if last in IRREGULAR:
        many = IRREGULAR[last]
    elif re.search(r"(s|x|z|ch|sh)$", last):
        many = last + "es"
    elif re.search(r"[^aeiou]y$", last):
        many = last[:-1] + "ies"
    else:
        many = last + "s"
    return " ".join(words), " ".join(words[:-1] + [many])


# -- what changed on the table ---------------------------------------------------------------

def zone_title(zone: dict, seat_name) -> str:
    name = " ".join(str(zone["name"]).replace("_", " ").split())
    if zone.get("key_text"):
        return f"{name} ({zone['key_text']})"
    if zone.get("owner") is not None:
        return f"{name} ({seat_name(zone['owner'])})"
    if zone.get("of"):
        return f"{name} ({zone['of']['label']})"
    return name


def changes(before: dict, after: dict, said: str, seat_name, acted: str = "", flows=None) -> list[str]:
    """What an action changed that a player can see, one line per kind of change: components moved
    (`Gnome: field → discard (P1)`), drawn or hidden, revealed, gone or new; pieces on the board;
    values (`damage: P2 0 → 2`). Left out: what `said` (the action's text and the messages it
    wrote) already names. The views may hold what the rules keep `internal`: it is off screen, but
    a card seen there is followed as anywhere else, so a line says where a card went that left the
    screen (`Gnome: hand (P1) → discard (P1)`, `1 card: deck (P1) → vault`) or where one came from
    that came onto it (`Walker: discard (P1) → hand (P1)`); a change wholly off screen (a card
    from one internal zone to another, an internal zone's size) is not said. `acted`: the action's
    own text; a card it names that comes into sight came from the mover's hidden zone (`play 6♦`
    from P2's hand, while a draw pile deals round the table), and so does the one card that comes
    into sight when it names a card by its place (`play hand slot 1`). `flows`: what the rules may
    move where (`rulelang.ir.flows.ZoneFlows`, or None: anything anywhere): no card is said to
    come from, or go to, a zone no rule moves it from or to."""
    existed = _component_count(before)        # (a card with a higher id was made by the action)
    # a zone whose size the reader is not told (`uncounted`): a card out of sight may have gone
    # there, or come from there, so the sizes of the others tell nothing of where (dice kept in
    # uncounted bags: a reroll was said to move P2's dice into P1's cup)
    blind = any(z["cards"] is None and z.get("count") is None for z in before["zones"] + after["zones"])
    off = {zone_title(z, seat_name) for z in before["zones"] + after["zones"] if z.get("internal")}
    off_seen = {zone_title(z, seat_name) for z in before["zones"] if z.get("internal") and z["cards"] is not None}
    may = _flow_test(flows, before, after, seat_name)
    # (the kind of the cards a place shows, where they are all of one: what the rules may move)
    kinds = ({zone_title(z, seat_name): z.get("kind") for z in before["zones"] if z["cards"]},
             {zone_title(z, seat_name): z.get("kind") for z in after["zones"] if z["cards"]})
    # (the values and the board as the screen shows them; the zones all, internal ones too)
    shown_b, shown_a = without_internal(before), without_internal(after)
    # (an internal zone per cell's pieces too, as any internal zone's seen cards: a new author's
    # tile, put into one, read `curve: gone from held`; without its per-cell variables, said apart)
    before, after = (dict(shown, zones=view["zones"], cells=_cell_pieces(view, shown))
                     for view, shown in ((before, shown_b), (after, shown_a)))
    (b_where, b_hidden, b_labels), (a_where, a_hidden, a_labels) = _places(before, seat_name), _places(after, seat_name)
    mover = before.get("actor")

    def hidden_zones_of(seat) -> list[str]:
        return [zone_title(z, seat_name) for z in before["zones"]
                if seat is not None and z.get("owner") == seat and z["cards"] is None and z.get("count")]
    mine = hidden_zones_of(mover)
    # each move the text names, with its mover's hidden zones: one line per answer of a simultaneous
    # step, `P2: build card 1` (its card came from P2's hand, not P1's: a new author's draft read
    # `hand (P2) or hand (P3) or discard … → city (P2)`)
    named_by = []
    for line in acted.lower().split("\n") if acted else ():
        by = re.match(r"p(\d+): (.*)", line)
        seat = int(by.group(1)) - 1 if by else mover
        named_by.append((hidden_zones_of(seat) if by else mine, by.group(2) if by else line, seat))
    movers = {zone_title(z, seat_name) for z in after["zones"] if mover is not None and z.get("owner") == mover}
    names = _zone_names(before, after, seat_name)
    covered, piles_grown = _covered(before, after, seat_name)
    moves, gone, came, revealed, hidden_out, hidden_in, unsure = _matched(
        before, after, b_where, b_hidden, b_labels, a_where, a_hidden, a_labels, mine, acted.lower(),
        covered, piles_grown, movers, existed, blind, may, names, kinds, off_seen, flows is not None,
        owners={zone_title(z, seat_name): z.get("owner") for z in before["zones"] + after["zones"]},
        named_by=named_by, off=off,
        unseen={zone_title(z, seat_name) for z in before["zones"] if z.get("visibility") == "hidden"})
    # a pile shown by its top that did not grow: a card now on top was under the one taken, not new
    # there (a new author's deck builder read `Silver: new in supply (Silver)` after every buy)
    held = {zone_title(z, seat_name): z.get("count") for z in before["zones"] if z.get("top_only")}
    uncovered = {title for z in after["zones"] if z.get("top_only")
                 for title in [zone_title(z, seat_name)]
                 if held.get(title) is not None and z.get("count") is not None and z["count"] <= held[title]}
    came = [(label, to) for label, to in came if to not in uncovered]
    # a card's name said fewer times than cards of that name changed does not tell which of them
    # it was (a new author's Coup: `P2 loses an influence: Contessa` kept quiet the other Contessa
    # P1 drew); the action's text and a message naming one card are one naming, not two
    changed = Counter(label for label, *_ in moves + gone + came)
    told_of = {label: max(_times(acted.lower(), label), _times(said.lower(), label) - _times(acted.lower(), label))
               for label in changed}
    overnamed = {label for label, k in changed.items() if 0 < told_of[label] < k}
    lines = _move_lines(moves, gone, came, revealed, hidden_out, hidden_in, said.lower(), pair=not unsure,
                        overnamed=overnamed,
                        cells=set(after.get("cells") or ()) | set(before.get("cells") or ()), off=off,
                        off_seen=off_seen, may=may, nouns=_zone_nouns(before, after, seat_name),
                        steady=[t for t in b_hidden if b_hidden[t] == a_hidden.get(t)])
    lines += _known_lines(before, after, said.lower(), seat_name, off)
    lines += _value_changes(before["values"], after["values"], said.lower(), seat_name)
    lines += _component_value_changes(before, after, said.lower())
    lines += _cell_value_changes(shown_b, shown_a, said.lower())
    return [printable(x) for x in lines]


def _cell_pieces(view: dict, shown: dict) -> dict:
    """The cells as `shown` (the screen's view) has them, with the pieces of internal zones per cell
    too (not internal variables per cell: their changes are off the screen)."""
    internal_vars = set(view.get("cell_vars") or ()) - set(shown.get("cell_vars") or ())
    cells = {}
    for cell, held in (view.get("cells") or {}).items():
        kept = {k: x for k, x in held.items() if k not in internal_vars}
        if kept:
            cells[cell] = kept
    return cells


def _known_lines(before: dict, after: dict, told: str, seat_name, off: set) -> list[str]:
    """The cards a hidden zone shows the reader now that it did not before (`reveal … to me`, a
    plain `reveal`): `revealed to you: Countess (hand (P2))`, `revealed: Allie (character (P3))`.
    A card the reader saw before, anywhere, is not new to them (its move is said as a move); one
    the action's text or messages name is said already. (A reveal that ended the mover's turn was
    never shown to them: their next screen came after the card had moved, a new author's trial.)"""
    had = {c["id"] for z in before["zones"] for c in (z["cards"] or []) + (z.get("known") or [])}
    lines = []
    for z in after["zones"]:
        title = zone_title(z, seat_name)
        if title in off:
            continue
        # (a one-character label, a die's `2`, is said only with its place: "2 x 2 … there are 3"
        # hid three of five dice revealed in a cup — a new author's Liar's Dice; as moves are)
        fresh = [c for c in z.get("known") or [] if c["id"] not in had
                 and not (_names(told, c["label"]) and (len(c["label"]) > 1 or _names(told, title.split(",")[0])))]
        for to_all in (True, False):
            labels = [c["label"] for c in fresh if bool(c.get("revealed")) == to_all]
            if labels:
                lines.append(f"revealed{'' if to_all else ' to you'}: {join_labels(labels)} ({title})")
    return lines


def _zone_nouns(before: dict, after: dict, seat_name) -> dict:
    """Each place's title -> what its components are called, where the rules give it one kind
    (`4 segments left yard (P1)`, not `4 cards`: a new author's Battleship)."""
    found: dict = {}
    for view in (before, after):
        for z in view["zones"]:
            found.setdefault(zone_title(z, seat_name), set()).add(z.get("kind"))
    return {title: kind_noun(kinds.pop()) for title, kinds in found.items() if len(kinds) == 1 and None not in kinds}


def _zone_names(before: dict, after: dict, seat_name) -> dict:
    """Each place's title -> the names of the zones it stands for (a board's cell: its zones)."""
    out: dict = {}
    for view in (before, after):
        for z in view["zones"]:
            out.setdefault(zone_title(z, seat_name), set()).add(z["name"])
        for cell, held in (view.get("cells") or {}).items():
            out.setdefault(cell, set()).update(k for k in held if k not in (view.get("cell_vars") or ()))
    return out


def _seat_of(title: str) -> str | None:
    """The seat a zone's title names as its owner (`deck (P2)`: `P2`), or None."""
    m = re.search(r" \((P\d+)\)$", title)
    return m.group(1) if m else None


def _flow_test(flows, before: dict, after: dict, seat_name):
    """may(a, b, kind): may a card (of that kind, if known) lying in the place titled `a` be in the
    one titled `b` after an action, as the rules move cards (`flows`)? Always yes without them, for
    a place not known, or where the rules' reading is belied by what is seen (a card of a kind
    seen where the rules never put one: then they are not read at all)."""
    if flows is None:
        return lambda a, b, kind=None, direct=False: True
    names = _zone_names(before, after, seat_name)
    seen = {zone_title(z, seat_name): z.get("kind") for view in (before, after) for z in view["zones"] if z["cards"]}
    if any(k is not None and not all(flows.holds(n, k) for n in names.get(t, ())) for t, k in seen.items()):
        return lambda a, b, kind=None, direct=False: True

    def may(a: str, b: str, kind=None, direct: bool = False) -> bool:
        """(`direct`: by one move of the rules, not through other zones)"""
        za, zb = names.get(a), names.get(b)
        if not za or not zb:
            return True
        test = flows.direct if direct else flows.may
        return any(test(x, y, kind) for x in za for y in zb)
    return may


def _covered(before: dict, after: dict, seat_name) -> tuple[set, dict]:
    """The piles shown by their top card only that hold as many cards as before or more: a card
    no longer shown there was covered by another, not taken away (`Y3: gone from pile` was wrong);
    and by how many cards each of those grew."""
    # (of every zone before: an empty pile is not marked as shown by its top, having none)
    was = {zone_title(z, seat_name): z.get("count") for z in before["zones"]
           if z.get("top_only") or z.get("count") == 0}
    grown = {title: z["count"] - was[title] for z in after["zones"] if z.get("top_only")
             for title in [zone_title(z, seat_name)]
             if title in was and z.get("count") is not None and was[title] is not None and z["count"] >= was[title]}
    return set(grown), {t: k for t, k in grown.items() if k > 0}


def _places(view: dict, seat_name):
    """Where each component a view shows lies (by zone title), its label, and the sizes of the zones
    whose cards are not shown."""
    where, hidden, labels = {}, {}, {}
    for z in view["zones"]:
        title = zone_title(z, seat_name)
        if z["cards"] is None:
            if z["count"] is not None:     # (an `uncounted` zone: nothing to tell)
                hidden[title] = z["count"]
            continue
        for card in z["cards"]:
            where[card["id"]] = title
            labels[card["id"]] = card["label"]
    return where, hidden, labels


def _names(text: str, label: str) -> bool:
    return bool(re.search(r"(?<!\w)" + re.escape(label.lower()) + r"(?!\w)", text))


def _times(text: str, label: str) -> int:
    """How many times `text` names `label` (as a word)."""
    return len(re.findall(r"(?<!\w)" + re.escape(label.lower()) + r"(?!\w)", text))


def _component_count(view: dict) -> int | None:
    """How many components the match held, from the sizes a view gives (every zone's, the board's
    cells' too); None when some size is not shown (an `uncounted` zone). A cell's variables share its
    entry: a number or a list there may be one, counted too — never less than the components (a
    count too high only leaves a made card unrecognised, said as before)."""
    total = 0
    for z in view["zones"]:
        if z.get("count") is None:
            return None
        total += z["count"]
    variables = view.get("cell_vars") or ()
    for held in (view.get("cells") or {}).values():
        for name, items in held.items():
            if name in variables:              # (a variable per cell: no component lies there)
                continue
            total += len(items) if isinstance(items, list) else items if type(items) is int and items > 0 else 0
    return total


ALIKE_LIMIT = 16      # look-alike pieces whose places are worked out one by one (more: each said gone or new;
                      # the matchings grow as the fifth power: 98 pieces of one move took 46 s)


def _pair_alike(gone: list, came: list, moves: list, on_board: set, may) -> None:
    """Pieces matched by their labels where one side is the board (its pieces have no ids): each
    label's arrivals with its departures. Where more than one place may have given a piece (an
    infantry left each player's reserve, one came to each castle), every such place is named (`X
    or Y → d1`) — those that may have given it as every piece is given one; where the numbers
    differ too, none is matched: each is said gone, or new."""
    for label in dict.fromkeys(lab for lab, _ in came):
        cs = [c for c in came if c[0] == label]
        gs = [g for g in gone if g[0] == label]
        options = [[j for j, g in enumerate(gs) if (g in on_board or c in on_board) and may(g[1], c[1])] for c in cs]
        pairs = [(i, opts) for i, opts in enumerate(options) if opts]
        if not pairs:
            continue
        places = {gs[j][1] for _, opts in pairs for j in opts}
        used = {j for _, opts in pairs for j in opts}
        if len(places) == 1:                  # (one place gave them: as many as both sides have)
            pool = sorted(used)
            for i, opts in pairs:
                j = next((j for j in pool if j in opts), None)
                if j is None:
                    continue
                pool.remove(j)
                gone.remove(gs[j])
                came.remove(cs[i])
                if gs[j][1] != cs[i][1]:      # (one card left, one that looks the same came: as before)
                    moves.append((label, gs[j][1], cs[i][1]))
        elif len(used) == len(pairs) == len(cs) <= ALIKE_LIMIT and _matching(options, set(), set()):
            for i, opts in enumerate(options):   # (as many came as left, from several places: the
                froms = [gs[j][1] for j in opts  # places each may have come from, given the others)
                         if _matching(options, {i}, {j})]
                came.remove(cs[i])
                froms = list(dict.fromkeys(froms))
                if froms != [cs[i][1]]:
                    moves.append((label, " or ".join(froms), cs[i][1]))
            for j in used:
                gone.remove(gs[j])


def _matching(options: list, taken_i: set, taken_j: set) -> bool:
    """Can every row of `options` (the columns it may take) not in taken_i have a column of its own,
    none in taken_j? (Augmenting paths: Kuhn's algorithm.)"""
    owner: dict = {}                          # column -> the row holding it

    def place(i: int, seen: set) -> bool:
        for j in options[i]:
            if j in taken_j or j in seen:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False
    return all(place(i, set()) for i in range(len(options)) if i not in taken_i)


def _matched(before: dict, after: dict, b_where, b_hidden, b_labels, a_where, a_hidden, a_labels,
             mine=(), acted: str = "", covered=frozenset(), piles_grown=None, movers=frozenset(),
             existed: int | None = None, blind: bool = False, may=None, names=None, kinds=({}, {}),
             off_seen=frozenset(), relays: bool = False, owners=None, named_by=None, off=frozenset(),
             unseen=frozenset()):
    """The components' comings and goings between two views, matched where they can be: moved (the
    same piece from one place to another; drawn from or put into a hidden zone), revealed, gone, new;
    and the hidden zones' counts left over. `covered`: the top-only piles a card was covered on
    (it did not go anywhere); `piles_grown`: how many cards each of them gained; `movers`: the
    titles of the mover's zones; `existed`: how many components there were before (ids from it
    on were made by the action: new, from no hidden zone); `blind`: a zone's size is not told, so
    no card's way out of sight or into it is worked out from the sizes (gone, new, the counts);
    `may(a, b, kind)`: may the rules take a card from place a to place b (else it is not said to)?
    `kinds`: the kind of the cards each place shows, before and after, where they are of one;
    `off_seen`: the internal zones whose cards the reader sees (off the screen: a card that left one
    out of sight is only counted where it went, `3 cards added to deck (P1)`); `relays`: are the
    rules' ways known (`may` reads them), so that a zone whose size did not change may be said to
    have passed a card on where the rules move cards so? `owners`: each place's owner (None: no one's).
    `named_by`: (a mover's hidden zones, its move's text, the mover) for each move the text names
    (default: the mover's, `acted`). `off`: the internal zones (never named as a pile a card may
    have passed through).
    `unseen`: the zones no player sees into (`hidden`): a card a move names did not come from one
    while a zone its mover sees changed too."""
    may = may or (lambda a, b, kind=None, direct=False: True)
    names = names or {}
    kind_b, kind_a = kinds
    moves: list[tuple[str, str, str]] = []
    gone: list[tuple[str, str]] = []          # (label, from)
    came: list[tuple[str, str]] = []          # (label, to)
    made: Counter = Counter()                 # (label, to) of the components made now
    for c, title in a_where.items():
        if c in b_where:
            if b_where[c] != title:
                moves.append((a_labels[c], b_where[c], title))
        else:
            came.append((a_labels[c], title))
            if existed is not None and c >= existed:
                made[(a_labels[c], title)] += 1
    for c, title in b_where.items():
        if c not in a_where and title not in covered:
            gone.append((b_labels[c], title))
    board_gone, board_came = _board_changes(before, after)
    gone += board_gone
    came += board_came
    hidden_out = Counter({t: b_hidden[t] - a_hidden.get(t, 0) for t in b_hidden if b_hidden[t] > a_hidden.get(t, 0)})
    hidden_in = Counter({t: a_hidden[t] - b_hidden.get(t, 0) for t in a_hidden if a_hidden[t] > b_hidden.get(t, 0)})
    # the same piece: from one place to another (by its label only where one side is the board,
    # whose pieces have no ids: two cards alike, one gone into a hidden zone and one drawn from
    # it, are not one card that moved)
    _pair_alike(gone, came, moves, set(board_gone) | set(board_came),
                lambda a, b: may(a, b, kind_a.get(b) or kind_b.get(a)))
    # (a card gone out of sight from off the screen: not said, only counted where it went)
    went_out = bool(gone)
    left_sight = list(gone)                   # (every card gone out of sight)
    gone = [g for g in gone if g[1] not in off_seen]
    # under the new top of a pile that shows only its top: as many of the cards gone from sight
    # as it gained, besides the ones seen arriving (when one such pile grew: which went where is known)
    under = {t: k - sum(1 for _, _, to in moves if to == t) - sum(1 for _, to in came if to == t)
             for t, k in (piles_grown or {}).items()}
    under = {t: k for t, k in under.items() if k > 0}
    if len(under) == 1:
        (pile, k), = under.items()
        for label, frm in [g for g in gone if g[1] != pile and may(g[1], pile, kind_b.get(g[1]))][:k]:
            gone.remove((label, frm))
            moves.append((label, frm, pile))
            under[pile] -= 1
    unsure = blind                            # did a card's way in or out stay unknown?
    drawn: list[int] = []                     # the moves of cards come from a hidden zone (by counts)
    revealed = []

    def took(zone: str, label: str, to: str) -> None:
        """The card came from the mover's hidden zone `zone` (named by the move)."""
        if hidden_out[zone] > 0:
            hidden_out[zone] -= 1
        else:                                 # (its count did not drop by it: other cards came in)
            hidden_in[zone] += 1
        came.remove((label, to))
        moves.append((label, zone, to))

    # the mover's own card, named by the move: from their hand (from the one of the mover's hidden
    # zones that shrank, if one did: their hand, not their deck; or one that grew meanwhile; never
    # one whose count did not change at all — a card the viewer moves from an off-screen pile to
    # their own hand came from neither). First to the mover's own places and common ones, then to
    # another player's: at a simultaneous step P2's `pick Tempura` was taken for the Tempura the
    # hands passed on into P1's hand (`Tempura, …: hand (P2) → hand (P1)`, when P3's hand came)
    for label, to, strict in [(label, to, strict) for strict in (True, False) for label, to in came]:
        if (label, to) not in came:
            continue
        for zones, said, *who in (named_by if named_by is not None else [(mine, acted)]):
            if not said or not _names(said, label):
                continue
            if strict and who and who[0] is not None and (owners or {}).get(to) not in (None, who[0]):
                continue
            # a card of that name the reader saw in a place of the mover's, gone from sight now: that
            # one (not one of the hidden zones' counts: the mover's copies are one, and which id
            # the engine played tells nothing — an own pick, the hand passed on, read `Sashimi:
            # hand (P3) → plate (P1)` when the deck held a copy of lower id, a new author's draft)
            own = [g for g in gone if g[0] == label and who and who[0] is not None and g[1] != to
                   and (owners or {}).get(g[1]) == who[0] and may(g[1], to, kind_b.get(g[1]))]
            if own:
                gone.remove(own[0])
                came.remove((label, to))
                moves.append((label, own[0][1], to))
                break
            # (a zone no one sees last: the mover named the card, so saw it — Mystic Studies played
            # from a hand that then drew two was said to come from the deck that shrank, and the
            # draw read `1 card: deck (P2) → hand (P2)`, a first hour at the terminal)
            changed = [t for t in zones if (hidden_out[t] > 0 or hidden_in[t] > 0) and may(t, to, kind_a.get(to))]
            # (and a zone the mover sees whose count did not change, where a zone no one sees that
            # shrank may have refilled it: Enchantress played from a hand that drew one on play was
            # said to come from the deck, and the draw went unsaid — a first hour at the terminal)
            # (— the mover's, or one no one owns: a trick's winner refilled from the common stock, a
            # new author's Briscola read `7c: stock → won (P2)` and P2's draw went unsaid; then only a
            # hand whose size is truly the same — not one a card already taken from it emptied of its
            # count: a guess naming another's card read as the guesser's draw, a review)
            changed += [t for t in zones if t not in unseen and t not in changed and hidden_out[t] <= 0
                        and hidden_in[t] <= 0 and may(t, to, kind_a.get(to))
                        and any(u in unseen and hidden_out[u] > 0 and may(u, t, kind_a.get(t))
                                and (u in zones or ((owners or {}).get(u) is None
                                                    and b_hidden.get(t) == a_hidden.get(t)))
                                for u in list(hidden_out))]
            zone = next(iter(sorted(changed, key=lambda t: (t in unseen, hidden_out[t] <= 0))), None)
            if zone is not None:
                took(zone, label, to)
                break
    # a card the move names by its place (`play hand slot 1`, the mover cannot see it) that came
    # into sight: the one card that did, from the mover's zone of that name, though its count did
    # not change (refilled from the deck)
    slots = [t for t in mine if any(f"{n.replace('_', ' ')} slot " in acted for n in names.get(t, ()))]
    unmade = [(label, to) for label, to in came if made[(label, to)] <= 0]
    if len(slots) == 1 and len(unmade) == 1 and may(slots[0], unmade[0][1], kind_a.get(unmade[0][1])):
        took(slots[0], *unmade[0])
    new: Counter = Counter()                  # (label, to) of those still to be said as new
    for label, to in list(came):              # made by the action: it came from nowhere
        if made[(label, to)] > 0:
            made[(label, to)] -= 1
            new[(label, to)] += 1
    pending = _unmade(came, new)

    def sources_of(to: str) -> list[str]:
        return [t for t in hidden_out if hidden_out[t] > 0 and may(t, to, kind_a.get(to))] if not blind else []

    # (the hidden zones whose size did not change but by the cards the moves name: one may have
    # passed a card on, given one and been given one)
    unchanged = {t for t in b_hidden if hidden_out[t] <= 0 and hidden_in[t] <= 0}
    while pending:                            # from a hidden zone: drawn (or shown where it lies)
        # (the card with the fewest zones that may have given it first: a boss card only the boss
        # pile gives leaves the draw pile to the card drawn into a hand; and before them a card one
        # of them gives by one move of the rules: a discard from the other player's hidden hand
        # leaves no card of it for a card that came into the mover's hand by the court, a new
        # author's Coup)
        label, to = min(pending, key=lambda x: (
            not any(may(t, x[1], kind_a.get(x[1]), direct=True) for t in sources_of(x[1])), len(sources_of(x[1]))))
        pending.remove((label, to))
        sources = sources_of(to)
        # (a hidden zone of the mover's that grew may have given it to another of theirs: a
        # hand put on a discard pile and refilled from the deck, all at once; and any hidden zone
        # that grew while a card went out of sight may have given it and taken that one: two
        # hands traded, one refilled from the deck)
        # — the latter by one move of the rules: a card game's deal round the table read `deck or
        # hand (P1) → hand (P2)`, P1's hand reaching P2's only through the discard pile and the
        # deck (two trials)
        grew = [t for t in hidden_in if hidden_in[t] > 0 and t != to
                and ((t in mine and to in movers and may(t, to, kind_a.get(to)))
                     or (went_out and may(t, to, kind_a.get(to), direct=True)))]
        # (and where the rules say so, a hidden zone of the mover's whose size did not change may
        # have given it to another of theirs and been refilled from the one that shrank, each by a
        # move of the rules: a hand put on the discard pile and drawn again from the deck)
        # — the mover's, or another player's into a place of theirs: a cup laid open and filled
        # again from the bag (a new author's Liar's Dice read `bag → shown (P2)`, no rule's way)
        # — and a pile no one owns, or the mover's own hidden zone when a card of the reader's went
        # out of sight: a hand put under the deck and a card drawn from its top, a hand traded
        # for another (a new author's Love Letter read `Guard: hand (P3) → hand (P1)` after P3's
        # Chancellor put two cards under the deck and P1 drew its top)
        owner = (owners or {}).get(to)
        relaying = [t for t in b_hidden if (t in mine and (to in movers or went_out))
                    or ((owners or {}).get(t) is None and t not in off)
                    or (owner is not None and (owners or {}).get(t) == owner)]
        # (— or one of the same owner that grew: it gave the card and was given more; a twin-world scan of
        # a new author's Love Letter read `King: deck or aside → played (P2)`, the King from P2's hand)
        grew += [t for t in relaying if relays and t != to and t not in grew
                 and ((t in unchanged and hidden_out[t] <= 0 and hidden_in[t] <= 0)
                      or (hidden_in[t] > 0 and owner is not None and (owners or {}).get(t) == owner))
                 and may(t, to, kind_a.get(to), direct=True)
                 and (any(may(x, t, direct=True) for x in sources)
                      or any(may(frm, t, kind_b.get(frm), direct=True) for _, frm in left_sight))]
        if len(sources) == 1 and not grew:
            hidden_out[sources[0]] -= 1
            came.remove((label, to))
            drawn.append(len(moves))
            moves.append((label, sources[0], to))
        elif sources:                         # (a hand refilled from a deck may have lost it too:
            came.remove((label, to))          # which one it left is not known; the counts say the rest)
            drawn.append(len(moves))
            moves.append((label, " or ".join(sources + grew), to))
            unsure = True
        elif to in b_hidden:
            came.remove((label, to))
            revealed.append((label, to))
    for pile, k in under.items():             # the rest under a pile's top: from hidden zones
        if k > 0:
            hidden_in[pile] += k
            unsure = True
    # into a hidden zone that grew: where each went is known when one such zone may have taken it
    # and no zone that shrank may have (taken it and given more meanwhile: a card put under the
    # deck, two dealt from it to a hand); else every zone that may have is named
    grown = [t for t in hidden_in if hidden_in[t] > 0] if not blind else []
    shrunk = [t for t in hidden_out if hidden_out[t] > 0 and t not in grown] if not blind else []
    room = sum(hidden_in[t] for t in grown)
    several: set = set()                      # the zones that grew that one of several may have taken
    into_several = 0                          # how many cards went into one of several
    through_shrunk = False                    # (a card may have gone into a zone that shrank)
    # more cards may have gone in than the zones grew by: which of them did is not known — the
    # first ones in the pile's order were said to, the others to have gone elsewhere too (cards
    # shuffled under a deck that then dealt: a terminal trial read "2♦, 6♥ may be in P3's hand,
    # the other six not", wrongly); then none is placed one by one: each is said gone, the counts
    # said as they changed, or the way through a hidden zone below
    fits = [1 for label, frm in gone if any(may(frm, t, kind_b.get(frm)) for t in grown)]
    for label, frm in (list(gone) if len(fits) <= room else []):
        into = [t for t in grown if may(frm, t, kind_b.get(frm))]
        if room <= 0 or not into:
            continue
        via = [t for t in shrunk if may(frm, t, kind_b.get(frm)) and any(may(t, g) for g in grown)]
        if len(into) == 1 and not via and hidden_in[into[0]] <= 0:
            continue
        gone.remove((label, frm))
        room -= 1
        # where it may lie now: a zone it went into, one it may have passed through unless that
        # is empty now, and — when it may have passed through a zone that gave all its cards out
        # (the tricks won put back into the deck, which deals) — a hidden zone of unchanged size
        # it may reach (the deck, its count the same)
        emptied = any(a_hidden.get(t, 0) == 0 for t in via)
        # (— one that gave cards meanwhile: to a hidden zone that grew, or a card said to come from it;
        # the last trick of a game, the hands emptied and no new deal, read `trick → taken / deck`)
        steady = [t for t in a_hidden if emptied and t not in grown and t not in shrunk and a_hidden[t] > 0
                  and b_hidden.get(t) == a_hidden[t] and may(frm, t, kind_b.get(frm))
                  and (any(may(t, g, direct=True) for g in grown) or any(mv[1] == t for mv in moves))]
        # (a zone it passed through is where it lies now only if one move of the rules puts it there:
        # a trick won, put face down, read `trick → taken / hand (P3)` since a new deal — no deal
        # here — moves the tricks to the deck and deals the deck, a new author's trick-taking game)
        # (— and a hidden zone of the same size that the rules fill straight from where it went: a
        # player's hand drawn anew from a deck shuffled meanwhile — a new author's deck-builder put the
        # discards into the deck and drew five: `Merchant: inplay (P2) → deck (P2)` told P1 that P2
        # held no Merchant)
        # (a player's own: a card into one's deck, a trick won into a shared pile, is said to be there)
        refilled = [t for t in a_hidden if t not in grown and t not in shrunk and t not in steady
                    and a_hidden[t] > 0 and b_hidden.get(t) == a_hidden[t]
                    and any(may(g, t, direct=True) and _seat_of(g) is not None and _seat_of(g) == _seat_of(t)
                            for g in into)]
        named = into + [t for t in via if a_hidden.get(t, 0) > 0 and may(frm, t, kind_b.get(frm), direct=True)] \
            + steady + refilled
        moves.append((label, frm, " / ".join(named) + ", face down"))
        if len(into) == 1 and not via and not refilled:
            hidden_in[into[0]] -= 1
        else:
            several.update(into)
            into_several += 1
            through_shrunk = through_shrunk or bool(via)
    # (the counts are said by the lines, `A / B`, where these cards are all those zones gained;
    # else as they changed, true either way)
    if several and not through_shrunk and into_several == sum(hidden_in[t] for t in several):
        for t in several:
            hidden_in[t] = 0
    elif several:
        unsure = True
    unsure = unsure or through_shrunk
    # cards gone into a hidden zone and others come out of it, its count no different (a hand
    # shuffled into the deck, five drawn): through a hidden zone, not "gone" and "new" — the one the
    # rules may take them through, or of those the one that gave cards meanwhile (the deck the four
    # others were drawn from); else every one of them is named (a challenged role put into the deck
    # and one dealt: the deck, or the other player's role, which may have swapped)
    unmade = _unmade(came, new)
    through = [t for t in b_hidden if t in a_hidden
               and all(may(frm, t, kind_b.get(frm)) for _, frm in gone)
               and all(may(t, to, kind_a.get(to)) for _, to in unmade)]
    # (gave cards to where these came: a card the other player's hidden hand put on its own
    # discard pile does not make it the place a card swapped for one of a hidden court went
    # through — a new author's Coup read `Duke: hand (P1) → hand (P2), face down`)
    goals = {to for _, to in unmade}
    gave = [t for t in through if any(m[1] == t and m[2] in goals for m in moves)]
    if len(through) > 1 and len(gave) == 1:
        through = gave
    if gone and unmade and through and not blind:
        lying = [t for t in through if a_hidden.get(t, 0) > 0] or through     # (not where none lies now)
        held = [t for t in through if b_hidden.get(t, 0) > 0] or through      # (nor from where none lay)
        for label, frm in gone:
            moves.append((label, frm, " / ".join(lying) + ", face down"))
        for label, to in unmade:
            came.remove((label, to))
            drawn.append(len(moves))
            moves.append((label, " or ".join(held), to))
        if len(lying) == 1 and held == lying:   # (its count's change is these cards': not said again —
            net = len(gone) - len(unmade)       #  a first hour read `4 cards added to deck` under the
            if net >= 0:                        #  ten put under it and the seven drawn, when none was)
                hidden_in[lying[0]] = max(0, hidden_in[lying[0]] - net)
            else:
                hidden_out[lying[0]] = max(0, hidden_out[lying[0]] + net)
        unsure = unsure or len(through) > 1
        gone = []
    # cards come out of sight into one place from different hidden zones: which came from which is
    # not known (two drawn, one from the deck and one from a hand: either may be either)
    by_place: dict[str, list[int]] = {}
    for i in drawn:
        by_place.setdefault(moves[i][2], []).append(i)
    for group in by_place.values():
        froms = list(dict.fromkeys(f for i in group for f in moves[i][1].split(" or ")))
        if len(group) > 1 and len(froms) > 1:
            for i in group:
                moves[i] = (moves[i][0], " or ".join(froms), moves[i][2])
            unsure = True
    return moves, gone, came, revealed, hidden_out, hidden_in, unsure


def _unmade(came: list, new: Counter) -> list:
    """The cards come into sight that were not made by the action (`new` counts those that were)."""
    left = Counter(new)
    out = []
    for x in came:
        if left[x] > 0:
            left[x] -= 1
        else:
            out.append(x)
    return out


def _board_changes(before: dict, after: dict) -> tuple[list, list]:
    """The pieces gone from and come to each cell of the board, as (label, cell) pairs."""
    gone: list[tuple[str, str]] = []
    came: list[tuple[str, str]] = []
    # (a variable per cell is no zone: its list holds ids, not labels — `marks[x] = [c]` stopped the
    # terminal with an internal error, a review)
    variables = set(before.get("cell_vars") or ()) | set(after.get("cell_vars") or ())
    for cell in sorted(set(before.get("cells") or {}) | set(after.get("cells") or {})):
        bz, az = (before.get("cells") or {}).get(cell, {}), (after.get("cells") or {}).get(cell, {})
        for zname in (set(bz) | set(az)) - variables:
            was, now = bz.get(zname), az.get(zname)
            if not isinstance(was, list) and was is not None or not isinstance(now, list) and now is not None:
                continue
            lost = Counter(was or []) - Counter(now or [])
            got = Counter(now or []) - Counter(was or [])
            gone += [(label, cell) for label, k in lost.items() for _ in range(k)]
            came += [(label, cell) for label, k in got.items() for _ in range(k)]
    return gone, came


def _move_lines(moves, gone, came, revealed, hidden_out, hidden_in, told: str, pair=True,
                cells: set = frozenset(), off: set | frozenset = frozenset(), off_seen: set | frozenset = frozenset(),
                may=None, nouns: dict | None = None, steady=(), overnamed: set | frozenset = frozenset()) -> list[str]:
    """A line per kind of change, leaving out what `told` (the action's text and messages) names:
    a line of moved cards is left out when it names every one of them, never shortened.
    `pair`: may a zone's lost cards be said to be another's new ones (no card's way is unknown)?
    If not, each count's change is said on its own (`5 cards left deck (P2)`), which is true.
    `cells`: the board's cell names (a piece new on a cell is said unless the cell is named too).
    `off`: the internal zones (off screen): a change that neither starts nor ends on the screen is
    not said, nor an internal zone's size; `off_seen`: those of them whose cards the reader sees — a
    card from one is new on the screen (`infantry: new in d11`, not from a reserve never shown).
    `may(a, b)`: may the rules move a card from a to b? `steady`: the hidden zones whose size did
    not change (a card may have passed through one). `overnamed`: the labels `told` names fewer
    times than cards of them changed: none of their changes is taken as said."""
    may = may or (lambda a, b, kind=None, direct=False: True)
    nouns = nouns or {}

    def counted(k: int, *places: str) -> str:
        """`card`/`cards`, or the places' own noun where they all have the same one."""
        said = {nouns.get(p, ("card", "cards")) for p in places}
        one, many = said.pop() if len(said) == 1 else ("card", "cards")
        return one if k == 1 else many
    lines = []
    grouped: dict = {}
    for label, frm, to in moves:
        grouped.setdefault((frm, to), []).append(label)

    def named(label: str) -> bool:
        return label not in overnamed and bool(re.search(r"(?<!\w)" + re.escape(label.lower()) + r"(?!\w)", told))

    def unseen(place: str) -> bool:
        """Is every place named in `place` (`a or b`, `a / b, face down`) off the screen?"""
        parts = re.split(r" or | / ", place.removesuffix(", face down"))
        return all(p in off for p in parts)

    appeared: list = []                       # (label, to): onto the screen from an internal zone
    told_from: Counter = Counter()            # the moves left unsaid (the text names them), by place:
    told_to: Counter = Counter()              # a count said after them is "more" (a new author's Ticket
    for (frm, to), labels in grouped.items():  # to Ride: "2 loco" paid, "1 card left hand" read)
        if unseen(frm) and unseen(to):
            continue
        if all(p in off_seen for p in re.split(r" or | / ", frm)):
            appeared += [(label, to) for label in labels]
            continue
        if not all(named(x) and (len(x) > 1 or named(to.split(",")[0])) for x in labels):
            lines.append(f"{join_labels(labels)}: {frm} → {to}")
        else:
            told_from[frm] += len(labels)
            told_to[to] += len(labels)
    for src, dst, k in _paired(hidden_out, hidden_in, may) if pair else ():
        hidden_out[src] -= k
        hidden_in[dst] -= k
        if not (src in off and dst in off):
            # (by no one move of the rules: through a zone whose size did not change, which gave it
            # and was refilled — a card tossed from a hand into the crib, the hand refilled from the
            # deck, read `deck → crib`, a way no rule has: a new author's Cribbage)
            via = [] if may(src, dst, direct=True) else \
                [t for t in steady if t not in (src, dst) and may(src, t, direct=True) and may(t, dst, direct=True)]
            lines.append(f"{k} {counted(k, src, dst)}: {' or '.join([src] + via)} → {dst}")
    for label, to in revealed:
        if to not in off:
            lines.append(f"revealed: {label} ({to})")

    def named_at(label: str, place: str) -> bool:
        """Said already: the label, and the board's cell when it is one (a `knight` named in a
        message about another cell is not this knight at d11)."""
        return named(label) and (place not in cells or named(place))

    unsaid: dict = {}                         # (gone or new, place) -> the labels, one line for each place
    for label, frm in gone:
        if not named_at(label, frm) and frm not in off:
            unsaid.setdefault(("gone from", frm), []).append(label)
    for label, to in came + appeared:
        if not named_at(label, to) and to not in off:
            unsaid.setdefault(("new in", to), []).append(label)
    for (how, place), labels in unsaid.items():
        lines.append(f"{join_labels(labels)}: {how} {place}")
    for src, k in hidden_out.items():
        if k > 0 and src not in off:
            lines.append(f"{k}{' more' if told_from[src] else ''} {counted(k, src)} left {src}")
    for dst, k in hidden_in.items():
        if k > 0 and dst not in off:
            lines.append(f"{k}{' more' if told_to[dst] else ''} {counted(k, dst)} added to {dst}")
    return lines


def _paired(hidden_out: Counter, hidden_in: Counter, may) -> list:
    """The hidden zones' lost cards that are surely another's new ones: (from, to, how many). Where
    one zone lost cards and the others that gained them may have had them from it alone (or one
    gained what the others lost), and no third zone among them may have passed them on (a discard
    pile shuffled into the deck, and three drawn: they came from the deck, not the discard pile)."""
    srcs = [t for t in hidden_out if hidden_out[t] > 0]
    dsts = [t for t in hidden_in if hidden_in[t] > 0]
    ways = {(s, d) for s in srcs for d in dsts if may(s, d)}
    group: dict = {}                          # each zone -> its group (zones joined by the ways)
    for s, d in ways:
        a, b = group.setdefault(s, {s}), group.setdefault(d, {d})
        if a is not b:
            a |= b
            for t in b:
                group[t] = a
    out = []
    for members in {id(g): g for g in group.values()}.values():
        ss, ds = [t for t in srcs if t in members], [t for t in dsts if t in members]
        if len(ss) == 1 and hidden_out[ss[0]] >= sum(hidden_in[d] for d in ds):
            found = [(ss[0], d, hidden_in[d]) for d in ds]
        elif len(ds) == 1 and hidden_in[ds[0]] >= sum(hidden_out[s] for s in ss):
            found = [(s, ds[0], hidden_out[s]) for s in ss]
        else:
            continue
        out += [(s, d, k) for s, d, k in found
                if not any(x not in (s, d) and may(s, x) and may(x, d, direct=True) for x in ss + ds)]
    return out


def _said(name: str, told: str) -> bool:
    """Does the move's text or a message name this value — as a word, not inside another (`res`
    in `take Forest`, `zz` in `fizz`: a new author's resources never had their change said)?"""
    return re.search(r"(?<!\w)" + re.escape(name.lower()) + r"(?!\w)", told) is not None


def _value_changes(before: list, after: list, told: str, seat_name) -> list[str]:
    was = {v["name"]: v for v in before}
    out = []
    for v in after:
        old = was.get(v["name"])
        if old is None:
            continue
        name = v["name"] if v.get("label") else str(v["name"]).replace("_", " ")
        # (a message naming the value has said its change — unless the change adds items the
        # message does not name: "the cards left on X go to their owners' discard piles" kept the
        # `Discard piles: P1 (8): + Hoverbot, …` line, and with it which cards, off a first hour's screen)
        named = _said(name, told)
        if "per_player" in v and "per_player" in old:
            new_row, old_row = v.get("texts") or v["per_player"], old.get("texts") or old["per_player"]
            diffs = [f"{seat_name(p)} {_change(a, b)}" for p, (a, b) in enumerate(zip(old_row, new_row))
                     if a != b and not isinstance(a, dict) and not isinstance(b, dict) and _change(a, b)]
            if diffs and (not named or any(_adds_unsaid(a, b, told) for a, b in zip(old_row, new_row))):
                out.append(f"{name}: " + ", ".join(diffs))
            continue
        if "per_key" in v and "per_key" in old:   # per enum value(s), as the status shows them: `(P1, W)`
            # (a new author's gem tokens, `per player per Gem`, changed every turn and were never said)
            olds = {json.dumps(x.get("key")): x for x in old["per_key"] if isinstance(x, dict)}
            diffs, unsaid = [], False
            for x in v["per_key"]:
                y = olds.get(json.dumps(x.get("key"))) if isinstance(x, dict) else None
                if y is None:
                    continue
                a = y["text"] if isinstance(y.get("text"), str) else y.get("value")
                b = x["text"] if isinstance(x.get("text"), str) else x.get("value")
                if a != b and not isinstance(a, dict) and not isinstance(b, dict) and _change(a, b):
                    diffs.append(f"({x.get('key_text')}) {_change(a, b)}")
                    unsaid = unsaid or _adds_unsaid(a, b, told)
            if diffs and (not named or unsaid):
                out.append(f"{name}: " + ", ".join(diffs))
            continue
        a = old["text"] if isinstance(old.get("text"), str) else old.get("value")
        b = v["text"] if isinstance(v.get("text"), str) else v.get("value")
        # (a list too — the dice just rolled: a new author's Can't Stop never showed a bot's roll)
        if a != b and not isinstance(a, dict) and not isinstance(b, dict) and "per_key" not in v:
            if _change(a, b) and (not named or _adds_unsaid(a, b, told)):
                out.append(f"{name}: {_change(a, b)}")
    return out


def _adds_unsaid(a, b, told: str) -> bool:
    """Does a list value's change add an item (`Hoverbot`) that `told` does not name? A value
    that is no list (`1` → `3`) adds none: a message naming it has said its change."""
    was, now = words(a), words(b)
    if not isinstance(b, (list, tuple)) and not any(", " in x or " · " in x for x in (was, now)):
        return False

    def items(text: str) -> list[str]:
        out = []
        for part in text.split(" · ") if text else ():
            head, colon, body = part.partition(": ")
            out += (_items(body) if colon else _items(part)) or [part]
        return out
    added = Counter(items(now)) - Counter(items(was))
    return any(item.lower() not in told for item in added)


def _change(a, b, room: int = 60) -> str:
    """`2 → 5`; `now 5` from an empty value; a list grown at its end, what came (`+ M2 failed`);
    where the two are long, the new value alone (`now …`: a new author's `Captured from
    P1` list was left unsaid once it grew); longer still, what came into its lists and left them
    (`P1 (7): + Neophyte, Grave Digger`), or nothing ('' — where that too is long)."""
    was, now = words(a), words(b)
    # (the same value with a note come or gone: `Shield from spades: 0 → 0 (no effect: …)` read as no
    # change, and the reverse as if the note were the old value's — a first hour at a card game)
    # (a value long enough to wrap is not said again for its note: a character's paragraph was
    # repeated whole for `(Used.)` at its end — a first hour at a card game)
    if now.startswith(was + " (") and now.endswith(")") and was:
        return f"{was if len(was) < room else '…'}, now {now[len(was) + 1:]}"
    if was.startswith(now + " (") and was.endswith(")") and now:
        # (`0, no longer (no effect: …)` read as if the value were "no longer": the note is named)
        return f"{now if len(now) < room else '…'}, the note {was[len(now) + 1:]} gone"
    if not was or not now:             # (an empty value has no words: `Missions:  → M1 …` read as a slip)
        return f"now {now}" if now else f"{was} → none" if len(was) < 2 * room else "none now"
    if len(was) + len(now) < room:
        return f"{was} → {now}"
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(b) > len(a) \
            and list(b[:len(a)]) == list(a) and not any(isinstance(x, (list, tuple, dict)) for x in b):
        added = ", ".join(words(x) for x in b[len(a):])     # (a list grown at its end: what came, not
        if len(added) < 2 * room:                           # `now` and all of it — a new author's Missions)
            return f"+ {added}"
    if len(now) < 2 * room:
        return f"now {now}"
    # (a first hour: a card game's per-player `Discard piles` line, past 120 characters, said nothing
    # more of the cards a scoring discarded, and no other line did: those piles are off the screen)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and not any(
            isinstance(x, (list, tuple)) for x in list(a) + list(b)):
        was, now = ", ".join(words(x) for x in a), ", ".join(words(x) for x in b)    # (a list: its items)
        if any(", " in words(x) or " · " in words(x) or ": " in words(x) for x in list(a) + list(b)):
            return ""                                  # (items the words cannot tell apart: `Jack, the Ripper`)
    elif isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return ""                                      # (a list of lists: no item-wise words)
    told = _list_changes(was, now)
    return told if told and len(told) < 3 * room else ""


def _list_changes(was: str, now: str) -> str:
    """The items added to and taken from each ` · ` part of a long value (a part `P1 (5): a, b`
    is its head and the items after `: `), the parts in the new value's order; '' where the two
    values do not have the same parts."""
    old_parts, new_parts = was.split(" · "), now.split(" · ")
    if len(old_parts) != len(new_parts):
        return ""
    said = []
    for before, after in zip(old_parts, new_parts):
        if before == after:
            continue
        head_a, colon_a, body_a = before.partition(": ")
        head_b, colon_b, body_b = after.partition(": ")
        if not colon_a and not colon_b:                # (a list alone: `a, b, c`)
            head_a, colon_a, body_a, head_b, colon_b, body_b = "", ": ", before, "", ": ", after
        if head_a.split(" (")[0] != head_b.split(" (")[0] or ": " in body_a or ": " in body_b:
            return ""                                  # (not a list by the same name in both)
        list_a = _items(body_a) if colon_a else []
        list_b = _items(body_b) if colon_b else []
        if list_a is None or list_b is None:
            return ""                                  # (brackets that do not close: no items to tell)
        if list_a and list_b and not set(list_a) & set(list_b):
            said.append(after)                         # (nothing kept: the part as it is now — a death in a
            continue                                   #  card game read "+ dead, was Unknown (Shadow - …")
        left = Counter(list_a)
        added = []                                     # (in the new list's order)
        for x in list_b:
            if left[x] > 0:
                left[x] -= 1
            else:
                added.append(x)
        taken = []                                     # (in the old list's order)
        for x in list_a:
            if left[x] > 0:
                left[x] -= 1
                taken.append(x)
        if not added and not taken and head_a == head_b:
            continue                                   # (the same items in another order: nothing to say)
        if len(added) == 1 and len(taken) == 1:        # (one item became another: `2 damage → 5 damage`;
            words_ = [f"{taken[0]} → {added[0]}"]      #  `+ 5 damage - 2 damage` read as a sum — a first hour)
        else:
            words_ = ([f"+ {', '.join(added)}"] if added else []) + ([f"- {', '.join(taken)}"] if taken else [])
        said.append(" ".join(words_) if not head_b else head_b + (": " + " ".join(words_) if words_ else ""))
    return " · ".join(said)


def _items(body: str) -> list[str] | None:
    """A list's items in words, parted at the commas outside brackets (`George (Hunter, revealed)`
    is one item); None where a bracket does not close."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 0 and body.startswith(", ", i):
            items.append(body[start:i])
            start = i + 2
    if depth:
        return None
    items.append(body[start:])
    return items


def values_in_words(view: dict) -> dict:
    """The view's `component_values`, a value that names something (a card, a player) in words as
    the view gives them (`component_texts`): `Elm (mate Oak)`, not the card's id."""
    values = view.get("component_values") or {}
    texts = view.get("component_texts") or {}
    if not texts:
        return values
    return {c: {k: texts.get(c, {}).get(k, x) for k, x in held.items()} for c, held in values.items()}


def _component_value_changes(before: dict, after: dict, told: str) -> list[str]:
    """`die 1: face 1 → 5`: a value of a component (`var … per KIND`) seen before and after."""
    was = values_in_words(before)
    now = values_in_words(after)
    labels = {str(c["id"]): c["label"] for z in after["zones"] for c in (z["cards"] or z.get("known") or [])
              if "id" in c}
    out = []
    for c, vals in now.items():
        old, label = was.get(c), labels.get(c)
        if not old or label is None:
            continue
        diffs = [f"{k.replace('_', ' ')} {words(old[k])} → {words(v)}" for k, v in vals.items()
                 if k in old and old[k] != v and not _said(k.replace("_", " "), told)
                 and not isinstance(v, (list, dict)) and not isinstance(old[k], (list, dict))]
        if diffs:
            out.append(f"{label}: " + ", ".join(diffs))
    return out


def _cell_value_changes(before: dict, after: dict, told: str, most: int = 8) -> list[str]:
    """`disc: d4 → P1; e4 → P1`: the cells whose value of a variable `per cell` changed, with the
    value now (a new author's Othello said the count of discs, never which flipped), in words where
    it names something (`a hidden component` where the reader cannot see it); back to its initial
    value, that value. A card that only went out of the reader's sight is no change of the value:
    not said (a review). A lone change at the cell the move names is the move's own (`place b2`:
    not said); among others, that cell is said too (a board game's `rune c7 cd67` kills c7 with three
    more: the text names it as the cell left, not as dead)."""
    variables = after.get("cell_vars")
    if not variables:                              # (a view without them: no variable per cell)
        return []
    was, now = before.get("cells") or {}, after.get("cells") or {}
    texts = after.get("cell_texts") or {}
    initial_texts = after.get("cell_var_texts") or {}
    named = set(told.split())
    changed: dict = {}
    cells_of: dict = {}
    for cell in sorted(set(was) | set(now), key=lambda c: (len(c), c)):
        old, new = was.get(cell, {}), now.get(cell, {})
        for name in sorted((set(old) | set(new)) & set(variables)):
            if (name in old) == (name in new) and old.get(name) == new.get(name):
                continue                           # (a hidden card set where none was: None both, changed)
            if name in old and name in new and _out_of_sight(old[name], new[name]):
                continue
            if name in new:
                shown = texts.get(cell, {}).get(name, new[name])
            else:
                shown = initial_texts.get(name, variables[name])
            changed.setdefault(name, []).append(f"{cell} → {words(shown)}")
            cells_of.setdefault(name, []).append(cell)
    out = []
    for name, parts in sorted(changed.items()):
        if len(parts) == 1 and cells_of[name][0].lower() in named:
            continue
        more = f" and {len(parts) - most} more" if len(parts) > most else ""
        out.append(f"{name.replace('_', ' ')}: " + "; ".join(parts[:most]) + more)
    return out


def _out_of_sight(old, new) -> bool:
    """Is `new` `old` with some of what the reader saw now unseen (None), nothing else changed?"""
    if new is None:
        return old is not None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        pairs = list(zip(old, new))
        return all(a == b or _out_of_sight(a, b) for a, b in pairs) and any(a != b for a, b in pairs)
    return False


# -- the rules text of components and enum values --------------------------------------------

def _dealt_alike(game, match) -> set:
    """The kinds whose components another set-up makes with the same labels (a deck of 52 cards
    whatever the shuffle): what they are is no secret, where each lies is, so each may be looked up.
    A kind whose labels chance decides (gems of rolled worth) is not: its unseen components' names
    would tell (a leak scan)."""
    from collections import Counter
    kinds = getattr(match, "kinds", None)
    if not kinds or not hasattr(game, "new_match"):
        return set()
    try:
        seed = match.seed + 1 if type(match.seed) is int else 1
        other = game.new_match(match.players, seed, dict(getattr(match, "options", {}) or {}))
    except Exception:                      # (a set-up that fails or is refused: nothing is known alike)
        return set()
    mine: dict = {}
    theirs: dict = {}
    for labels, ks, out in ((match.labels, kinds, mine), (other.labels, other.kinds, theirs)):
        for label, kind in zip(labels, ks):
            out.setdefault(kind, Counter())[label] += 1
    return {k for k, c in mine.items() if theirs.get(k) == c}


class Texts:
    """Every name a player may look up (`look NAME`, `help NAME`): the components of the match and
    every card the rule file declares, enum values with a text; each with its rules text."""

    def __init__(self, game, match, viewer: int | None):
        ir = getattr(game, "ir", None) or {}
        # lower name -> [(name, text, kind, the components it is the text of: None for a card the
        # rule file declares or an enum value, which the rulebook names to everyone)]
        self._all: dict[str, list[tuple[str, str, str, set | None]]] = {}
        self.visible: set | None = None          # the components the reader sees now (None: all)
        self._cut: tuple = ((), {})              # (the visible set it was cut for, the entries: none yet)
        for card in ir.get("cards", []):
            self.add(card["name"], card.get("text"), card["kind"])
        for enum, items in ir.get("enums", {}).items():
            for item in items:
                if item.get("about"):
                    self.add(item["text"], item["about"], enum)
        labels = getattr(match, "labels", None) or []
        if hasattr(match, "rules_texts"):
            # every component's text, within one work budget (a fuzzer's 10,000 costly texts, each
            # worked out with a budget of its own, held up `look` for minutes); a text the rules
            # cannot work out is left out; the same label with another text is a second entry
            declared = {(card["kind"], card["name"]) for card in ir.get("cards", [])}   # (in the rulebook)
            known = _dealt_alike(game, match)
            for c, text in enumerate(match.rules_texts(range(len(labels)), viewer)):
                if text:
                    kind = match.kinds[c]
                    public = (kind, labels[c]) in declared or kind in known
                    self.add(labels[c], text, kind, None if public else c)

    def add(self, name: str, text: str | None, kind: str, component: int | None = None) -> None:
        if not text:
            return
        found = self._all.setdefault(str(name).lower(), [])
        for i, (n, t, k, of) in enumerate(found):
            if t == text:
                if of is not None:               # (one text of several components: seen if one is)
                    found[i] = (n, t, k, None if component is None else of | {component})
                return
        found.append((str(name), text, kind, None if component is None else {component}))

    @property
    def entries(self) -> dict[str, list[tuple[str, str, str]]]:
        """lower name -> [(name, text, kind)]: the names the reader may look up now — a component's
        only while they see it (a leak scan: `look gem` listed the other player's hidden gems, whose
        labels told their rolled values)."""
        visible = self.visible
        if self._cut[0] is not visible:
            self._cut = (visible, {key: kept for key, found in self._all.items() if (kept := [
                (n, t, k) for n, t, k, of in found if of is None or visible is None or of & visible])})
        return self._cut[1]

    def names(self) -> list[str]:
        return sorted({found[0][0] for found in self.entries.values()})

    def find(self, wanted: str, encoding: str = "utf-8", words: bool = False) -> list[tuple[str, str, str]] | None:
        """The entries a name means (exactly, then by its start if only one name starts so, then by
        the start of a later word if only one name has such a word; `words`: only whole words, the
        name or its first words — `help Ice` for Ice Wall, not `help ban` for Bandits)."""
        from rulelang.core.textsafe import fit
        key = " ".join(wanted.lower().split())
        if key in self.entries:
            return self.entries[key]
        if key.isascii():                    # (`7h` for `7♥` in any terminal, as `play 7h` takes it)
            encoding = "ascii"
        for name, found in self.entries.items():
            if fit(name, encoding).lower() == key:
                return found
        head = key + " " if words else key
        starts = [name for name in self.entries if name.startswith(head) or fit(name, encoding).lower().startswith(head)]
        if len(starts) == 1:
            return self.entries[starts[0]]
        if not starts and not words:         # the start of a later word (`look tower` for `The Old Tower`)
            inner = re.compile(r"(?<=\s)" + re.escape(key))
            within = [name for name in self.entries if inner.search(name) or inner.search(fit(name, encoding).lower())]
            if len(within) == 1:
                return self.entries[within[0]]
        return None

    def mentions(self, wanted: str) -> list[str]:
        """The names whose text says `wanted` as a word (`look Lightning`: Franklin, whose ability it
        is), at most 8."""
        word = re.compile(r"(?<!\w)" + re.escape(" ".join(wanted.lower().split())) + r"(?!\w)")
        return sorted({found[0][0] for found in self.entries.values() if any(word.search(t.lower()) for _, t, _k in found)})[:8]

    def candidates(self, wanted: str) -> list[str]:
        """The names that contain `wanted`, else those spelled nearly so, whole or by one of their
        words (`look canon`: Cannon; `look kign`: a name with the word King), at most 8."""
        key = " ".join(wanted.lower().split())
        found = sorted(self.entries[n][0][0] for n in self.entries if key in n)[:8]
        if found or len(key) < 3:
            return found
        close = difflib.get_close_matches(key, list(self.entries), n=8, cutoff=0.75)
        words: dict[str, list[str]] = {}
        for name in self.entries:
            for word in name.split():
                words.setdefault(word, []).append(name)
        for word in difflib.get_close_matches(key, list(words), n=8, cutoff=0.75):
            close += [name for name in words[word] if name not in close]
        return [self.entries[n][0][0] for n in close[:8]]

    def short(self, name: str, width: int) -> str | None:
        """The start of a name's text, for beside an option (None: it has none)."""
        found = self.entries.get(str(name).lower())
        if not found:
            return None
        text = " ".join(found[0][1].split())
        return text if len(text) <= width else text[:max(0, width - 1)].rstrip() + "…"


def wrap_text(text: str, width: int, indent: str = "  ") -> str:
    out = []
    for para in str(text).split("\n\n"):
        out += textwrap.wrap(" ".join(para.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False) or [""]
        out.append("")
    return "\n".join(out).rstrip()


# -- waiting for a bot ------------------------------------------------------------------------

class Thinking:
    """While a bot chooses: after half a second, `P2 (ismcts) is thinking… 1.5 s` on the terminal's
    last line, updated as it goes and wiped when the bot has chosen (only on a terminal)."""

    def __init__(self, stream, who: str, enabled: bool):
        self.stream, self.who, self.enabled = stream, who, enabled
        self.done = threading.Event()
        self.shown = False
        self.thread = None

    def __enter__(self):
        if self.enabled:
            self.start = time.monotonic()
            self.thread = threading.Thread(target=self.run, daemon=True)
            self.thread.start()
        return self

    def run(self) -> None:
        if self.done.wait(0.5):
            return
        while not self.done.is_set():
            elapsed = time.monotonic() - self.start
            try:
                self.stream.write(f"\r{self.who} is thinking… {elapsed:.1f} s ")
                self.stream.flush()
            except (OSError, ValueError):
                return
            self.shown = True
            self.done.wait(0.2)

    def __exit__(self, *exc):
        self.done.set()
        if self.thread is not None:
            self.thread.join()
        if self.shown:
            try:
                self.stream.write("\r\033[K")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        return False


def terminal_size(stream) -> tuple[int, int] | None:
    """(columns, lines) of the terminal `stream` writes to; None when it is no terminal."""
    import shutil
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    size = shutil.get_terminal_size((80, 24))      # (COLUMNS and LINES, when set, come first)
    return max(40, size.columns), max(12, size.lines)
