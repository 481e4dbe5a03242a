"""Drawing a decision at the terminal (a part of repl._Session, sharing its state): fitted
into the terminal and drawn again on demand (board, table, hand, status, more, recap), a line for
each change the rules did not tell, and the rulebook paged.
"""
from __future__ import annotations

import os
import re
import shutil
import textwrap

from ..core.errors import RuleRuntimeError
from ..core.textsafe import printable
from ..ir.flows import zone_flows
from ..ir.spec import leading_words, walk_ir
from .pager import MORE, find_section, overview, pages
from .render import _wrapped, legend_lines, plural, render_zone, seat_name, view_parts
from .rulebook import component_texts, rulebook
from .screen import changes, fit_screen, kind_of, values_in_words, without_internal

ERASE_LINE_ABOVE = "\033[1A\r\033[2K"   # the line just answered (the cursor is under it)


def _on_terminal(stream) -> bool:
    """Does `stream` go to a terminal that moves its cursor as told (not `TERM=dumb`)?"""
    try:
        return bool(stream.isatty()) and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False

REDRAW = ("board", "table", "hand", "status", "more", "recap", "clear")     # commands only when typed alone (an action may start so)
PICKING = ("subset", "order")        # questions answered one pick at a time, then `done`


class Drawing:
    """What the session draws; `_Session` (repl.py) is made of these, `Commands` and its own loop."""

    # -- drawing a decision: fitted into the terminal, and drawn again on demand ------------

    def draw(self, seat: int, actions=None) -> None:
        """A seat's view and the actions offered (numbered), fitted into the terminal when the
        output is one: the header, the board, a compact table and status, the decision, then the
        choices grouped by piece or card, paged when they still do not fit."""
        view = self.screen_view(seat)
        size = self.size()
        width = size[0] if size else max(60, shutil.get_terminal_size((80, 24)).columns)
        asker = self.asker(view, seat)
        if asker:                                # the card whose play asks it: `Imp: destroy a card…`
            view = dict(view, choice=dict(view["choice"], prompt=f"{asker}: {view['choice']['prompt']}"))
        parts = view_parts(view, width, cut_board=size is not None)
        parts["kind_words"] = self.kind_words()
        texts = [self.show_text(a) for a in actions] if actions else []
        cut = self.add_option_texts(view, texts, width)
        parts["choice"] = parts["choice"] + self.picking_lines(view, seat, width)
        hint = _wrapped(f"  (an option's whole text: look {printable(cut)})", width) if cut else []
        cause, pointers = self.cause_texts(view, seat, width)
        if cause:
            parts["choice_short"] = parts["choice"] + pointers
            parts["choice"] = parts["choice"] + cause
        if size is not None and actions and (self.interrupters(seat) or self.own_interrupts(seat)):
            size = (size[0], size[1] - 1)        # (the line under it: another player may act out of turn,
                                                 # or the one asked may act at any time first)
        if size is None or not actions:
            lines = parts["header"] + parts["board"] + parts["zone_lines"] + parts["value_lines"] + parts["extra"] \
                + parts["choice"] + [f"  {n}. {t}" for n, t in enumerate(texts, 1)]
        else:
            lines, _ = fit_screen(dict(parts), width, size[1], list(actions), texts)
        if hint and size is not None and actions:
            # (said only where it fits: a card game's defence question ran to 25 rows with it — a review)
            hinted = dict(parts, choice=parts["choice"] + hint)
            if parts.get("choice_short") is not None:
                hinted["choice_short"] = parts["choice_short"] + hint
            longer, _ = fit_screen(hinted, width, size[1], list(actions), texts, cut_board=False)   # (not
            # for the hint's line: a card game's draft at 60x20 lost its board's column letters and first row to it)
            if len(longer) + 1 <= size[1] or len(longer) <= len(lines):
                lines = longer
        elif hint:
            lines = lines[:len(lines) - len(texts)] + hint + lines[len(lines) - len(texts):] if texts else lines + hint
        note, self.recap_note = self.recap_note, False
        if note and size is not None and len(self.recap_lines) + len(lines) >= size[1]:
            # what happened since the player's move has scrolled away (or will with this screen): say so
            if actions:                         # (shorter if it can be; the board's rows are not cut for it,
                shorter, _ = fit_screen(parts, width, size[1] - 1, list(actions), texts, cut_board=False)
                if len(shorter) <= len(lines):  # nor put back whole where they were: Hive's header scrolled off)
                    lines = shorter
            if len(self.recap_lines) + len(lines) + 1 >= size[1]:     # (fitted shorter, they may all stay in
                self.say(f"({plural(len(self.recap_lines), 'line')} since your last move scrolled up: "  # sight: a
                         "type recap)", "dim")                      # first hour at a card game read the note under them)
        self.say(lines[0], "header")
        if len(lines) > 1:
            self.say("\n".join(lines[1:]))

    def screen_view(self, seat: int) -> dict:
        """A seat's view as the screen shows it: without what the rules keep `internal`, and
        without the round's number where the rules count no rounds (a game that puts players out
        for a hand with `eliminate` has the engine's rounds, a turn each, not its own); marked
        `turnless` when the rules have no `turn { }` (a new author's Resistance read "setting up"
        all game long)."""
        view = without_internal(self.match.view(seat))
        if "round" in view:
            counted = self.__dict__.get("rounds_counted")
            if counted is None:
                counted = self.rounds_counted = counts_rounds(getattr(self.game, "ir", None))
            if not counted:
                view = {k: v for k, v in view.items() if k != "round"}
        ir = getattr(self.game, "ir", None)
        if ir is not None and not any(step.get("in_turn") for step in ir["steps"]):
            view = dict(view, turnless=True)     # (its steps are the whole game: never "setting up")
        return view

    def asker(self, view: dict, seat: int) -> str | None:
        """The card or piece a question comes from when no ability of a card asks it (then the
        choice names its card): the first one with rules text named by the action that began the
        effect (`play Gnome on Tortuga` → Gnome), if the seat may see it and the question does not
        name it already. None: none."""
        choice = view.get("choice")
        pending = getattr(self.match, "pending", None)
        if not choice or choice.get("kind") == "window" or not isinstance(pending, dict):
            return None
        if choice.get("asker"):                  # the engine says which card's ability asks (also inside
            label = printable(str(choice["asker"]["label"]))      # another card's: a card it put into play)
            prompt = str(choice.get("prompt") or "").lower()
            return None if label.lower() in prompt else label
        if any(f.get("effect") or f.get("source") is not None for f in choice.get("running", [])):
            return None
        root = pending.get("root") or []
        if len(root) != 2 or root[0] != "action":
            return None
        text, prompt = str(root[1]).lower(), str(choice.get("prompt") or "").lower()
        head, colon, _ = prompt.partition(":")
        if colon and self.names().entries.get(" ".join(head.split())):
            return None                          # (it names its card already: `Scout: play …?`)
        found = []
        labels = self.match.labels
        for c in self.match.visible_to(seat):
            label = str(labels[c])
            m = re.search(r"(?<!\w)" + re.escape(label.lower()) + r"(?!\w)", text)
            if m and self.names().find(label):
                found.append((m.start(), -len(label), label))
        if not found:
            return None
        label = min(found)[2]
        return None if label.lower() in prompt else printable(label)

    def add_option_texts(self, view: dict, texts: list[str], width: int) -> str | None:
        """Beside each option of a choice that names a card or piece, the start of its rules text;
        the first option whose text was cut short, if any (the screen says `look` reads it whole: a
        first hour at a draft of generals read each one's skills cut, and nothing said how to read
        them)."""
        if not view.get("choice") or not texts:
            return None
        names, cut = self.names(), None
        for i, text in enumerate(texts):
            room = width - len(text) - 10
            short = names.short(text, room) if room > 12 else None
            if short:
                texts[i] = f"{text} — {short}"
                if cut is None and short.endswith("…"):
                    cut = text
        return cut

    def picking_lines(self, view: dict, seat: int, width: int) -> list[str]:
        """Under a question answered one pick at a time (a subset, an order): how to answer it, and
        what the chooser has picked so far (the list renumbers after each pick)."""
        choice = view.get("choice")
        if not choice or choice.get("chooser") != seat or choice.get("kind") not in PICKING:
            return []
        options = [str(o) for o in (self.match.question or {}).get("options", ())]
        done = "done" in options
        # (the example's numbers are options on screen: `1 2 5` above three options — a new author's Coup)
        # (one more pick once some are made: the size may allow no second — a review's `size 1..2`)
        more = 1 if (self.match.question or {}).get("picked") else 2
        example = [i + 1 for i, o in enumerate(options) if o != "done"][:more] + \
            ([options.index("done") + 1] if done else [])
        several = f"; several at once: {' '.join(map(str, example))}" if len(example) >= 2 else ""
        if choice["kind"] == "order":
            how = f"(pick them in order, one at a time{several})"
        elif done:
            how = f"(pick one at a time, then done{several})"
        else:                                   # (`size 2..2`: the last pick ends it, no `done` — a new
            how = f"(pick one at a time{several})"                  # author's Coup exchange)
        lines = _wrapped(how, width)
        picked = choice.get("picked") or self.picks_so_far(seat, str(choice.get("prompt") or ""))
        if picked:
            lines += _wrapped(("In order so far: " if choice["kind"] == "order" else "Picked so far: ")
                              + ", ".join(printable(x) for x in picked), width)
        return lines

    def picks_so_far(self, seat: int, prompt: str) -> list[str]:
        """The answers `seat` gave just now to the question `prompt`, as that seat may read them:
        the picks made of the subset (or order) it is picking."""
        log = self.match.log_for(seat)
        out = []
        i = len(log) - 1
        while i >= 0 and self.asked.get(i) == prompt and log[i] not in ("done", "pass") \
                and (self.log_meta.get(i) or (None,))[0] == seat:
            out.append(log[i])
            i -= 1
        return out[::-1]

    def cause_texts(self, view: dict, seat: int, width: int) -> tuple[list[str], list[str]]:
        """Under a decision, the rules text of the card whose ability asks it, when the player may
        see that card (a card handed to them and read in secret included): what it asks of them.
        And a line saying where that text is, for a screen too short for it."""
        choice = view.get("choice")
        if not choice or choice.get("chooser") != seat:
            return [], []
        out, pointers = [], []
        asker = choice.get("asker") or {}
        causes = [(f.get("source"), str(f.get("effect") or "").split(":")[0]) for f in choice.get("running", [])]
        if asker.get("source") is not None:      # (the card that asks, innermost: its text last)
            causes.append((asker["source"], str(asker.get("label") or "")))
        for source, label in causes:
            if source is None:
                continue
            try:
                text = self.match.rules_text(source, seat)
            except RuleRuntimeError:
                text = None
            if text:
                label = printable(label)
                out += _wrapped(f"  ({label}: {printable(text)})", width)
                pointers += _wrapped(f"  (what {label} does: look {label})", width)
        return out[-6:], pointers[-1:]

    def redraw_board(self, argument: str) -> bool:
        """The board and its key, a screenful at a time (a 33-line map and key scrolled the board
        away at 24 rows: a first hour); a game without a board: the table (its zones and shown
        values — a card game's bases were left out)."""
        view = self.screen_view(self.viewer())
        parts = view_parts(view, self.width(), cut_board=self.size() is not None)
        if not parts["board"]:
            return self.redraw_table(argument)
        self.page_drawn(parts["header"] + parts["board"] + legend_lines(self.game.ir, self.width()))
        return False

    def redraw_table(self, _argument: str) -> bool:
        view = self.screen_view(self.viewer())
        parts = view_parts(view, self.width(), cut_board=self.size() is not None)
        self.page_drawn(parts["header"] + parts["board"] + parts["zone_lines"] + parts["table_lines"])
        self.remind_choices()
        return False

    def remind_choices(self) -> None:
        """After `status` or `table`, the choices again, on one line if they fit (a first hour:
        `status` at a question ended with the decks, the one choice `skip` scrolled away)."""
        texts = [self.show_text(a) for a in getattr(self, "offered", None) or ()]
        if not texts:
            return
        line = "  choices: " + " · ".join(f"{n}. {t}" for n, t in enumerate(texts, 1))
        if len(line) > self.width() and self.size() is not None:     # (piped: no screen to keep to)
            line = f"  {len(texts)} choices: type more to list them (clear: the whole screen)"
        self.say(line, "dim")

    def redraw_hand(self, _argument: str) -> bool:
        viewer = self.viewer()
        view = self.screen_view(viewer)
        mine = [z for z in view["zones"] if z.get("owner") == viewer]
        values = values_in_words(without_internal(view))
        lines = [render_zone(z, values) for z in mine] or ["you hold nothing of your own"]
        self.say("\n".join("  " + x for x in lines))
        names = [c["label"] for z in mine for c in (z["cards"] or [])]
        if any(self.names().find(n) for n in names):
            self.say("  (look NAME: a card's text)", "dim")
        return False

    def redraw_status(self, _argument: str) -> bool:
        view = self.screen_view(self.viewer())
        parts = view_parts(view, self.width(), cut_board=self.size() is not None)
        self.page_drawn(parts["header"] + parts["value_lines"] + parts["extra"] + parts["choice"])
        self.remind_choices()
        return False

    def more(self, argument: str) -> bool:
        """`more`: every choice, one a line; `more KIND`: those of one kind (`more attack`), by
        their numbers in the whole list."""
        texts = [self.show_text(a) for a in self.offered]
        if not texts:
            self.say("nothing to choose now")
            return False
        kind = self.kind_named(argument)
        self.page([f"  {n}. {t}" for n, (a, t) in enumerate(zip(self.offered, texts), 1)
                   if kind is None or kind_of(a, self.kind_words()) == kind])
        return False

    def kind_named(self, typed: str) -> str | None:
        """The kind of action offered now that `typed` names (exactly, or the start of one); None: none."""
        typed = " ".join(typed.lower().replace("_", " ").split())
        # (every kind offered, one too: `more score` where every choice scores said "no score is
        # possible now" — a new author's Yahtzee)
        kinds = sorted({kind_of(a, self.kind_words()) for a in self.offered if kind_of(a)})
        if not typed:
            return None
        if typed in kinds:
            return typed
        starts = [k for k in kinds if k.startswith(typed)]
        return starts[0] if len(starts) == 1 else None

    def recap(self, _argument: str) -> bool:
        """`recap`: the lines said from the last move of the player at the terminal to their decision now."""
        if not self.recap_lines:
            self.say("nothing happened since your last move")
            return False
        # (the lines as they were said: already fitted to the screen, so not wrapped again)
        self.page_drawn(["Since your last move:"] + self.recap_lines + ["(clear: your decision again)"])
        return False

    def redraw(self, _argument: str) -> bool:
        """`clear`: a clean screen with the decision on it."""
        self.clear_screen()
        self.draw(self.viewer(), self.offered)
        return False

    def kind_words(self) -> dict:
        """Action name -> the words a player reads it by where its `as` text starts with others (`bid`
        for `raise`, shown `bid 5`): the kinds the screen lists and `more KIND` takes (a new author's
        Modern Art read `raise (47)`, and `more bid` said no bid was possible)."""
        found = self.__dict__.get("_kind_words")
        if found is None:
            found = {}
            for step in (getattr(self.game, "ir", None) or {}).get("steps", []):
                for a in step["actions"]:
                    words = leading_words(a)
                    said = " ".join(words.split()).lower().rstrip(" :;,.-") if words is not None else ""
                    if said and said != a["name"].replace("_", " ").lower():
                        found.setdefault(a["name"], said)
            self._kind_words = found
        return found

    def viewer(self) -> int:
        return self.on_screen if self.on_screen is not None else 0

    def width(self) -> int:
        size = self.size()
        return size[0] if size else max(60, shutil.get_terminal_size((80, 24)).columns)

    # -- what changed: a line for each change the rules did not tell --------------------------

    def before_view(self):
        """The view of the player at the terminal before an action (None: nobody is)."""
        seat = self.on_screen
        if seat is None or seat in self.bots and not self.watching:
            return None
        try:
            return seat, self.match.view(seat)       # (with what is `internal`: where a card went)
        except RuleRuntimeError:
            return None

    def views_away(self) -> dict:
        """The view before an action of each human seat not at the terminal (hot seat): after the
        hand-over, their recap tells the action's changes as they saw them (a new author's Hanabi:
        the partner's discard and draw were told only when a bot made them). Empty with one human."""
        if self.watching:
            return {}
        out = {}
        for seat in range(self.match.players):
            if seat not in self.bots and seat != self.on_screen:
                try:
                    out[seat] = self.match.view(seat)
                except RuleRuntimeError:
                    pass
        return out

    def note_changes_away(self, away: dict, action, told: int) -> None:
        """Keep each away seat's change lines for its recap, after the lines announced so far (the
        move and its messages: as the mover reads them)."""
        if not away:
            return
        notes = {}
        for seat, seen in away.items():
            lines = self.change_lines(seat, seen, action, told)
            if lines:
                notes[seat] = lines
        if notes:
            self.seat_changes[len(self.events)] = notes

    def tell_changes(self, before, action, told: int) -> None:
        """Lines for what the action changed on the table, as the player at the terminal sees it,
        where the action's text and the messages it wrote said nothing of it."""
        if before is None:
            return
        seat, seen = before
        lines = self.change_lines(seat, seen, action, told)
        for line in lines:
            self.say(f"  · {line}", "dim")
        if any("to you" in line for line in lines):
            self.screen_private = True          # (cards shown to this seat alone, gone from sight since)

    def change_lines(self, seat: int, seen: dict, action, told: int) -> list[str]:
        """What the action changed on the table as `seat` sees it (`seen`: its view before), where
        the action's text and the messages it wrote that `seat` may read said nothing of it."""
        try:
            after = self.match.view(seat)
        except RuleRuntimeError:
            return []
        # (only the messages this seat may read: one sent to another seat, naming gold, kept P1's
        # `gold: P2 0 → 1` off the screen only when P2's secret card had a certain name — a leak scan;
        # and the move as this seat may read it: a secret choice's text, `Duke`, kept `· Duke: market
        # → table` off the screen only when the hidden card chosen was a Duke — an adversarial review)
        log = self.match.log_for(seat) if self.match.log else []
        action = log[-1] if log else str(action)
        said = " ".join([str(action)] + [e["text"] for e in self.match.message_log()[told:]
                                         if e["to"] is None or seat in e["to"]])
        ir = getattr(self.game, "ir", None)
        # (a simultaneous step's answers, revealed together: each names its own player's card)
        revealed = getattr(self, "revealed_own", {}).get(seat) or getattr(self, "revealed", None)
        acted = "\n".join(revealed) if getattr(self, "was_secret", False) and revealed else str(action)
        if acted != str(action):            # (the answers revealed together were said in one line: a new
            said += " " + " ".join(revealed)  # author's 6 nimmt listed two of three as moves after it)
        lines = changes(seen, after, said, seat_name, acted, zone_flows(ir) if ir else None)
        if len(lines) > 6:
            lines = lines[:5] + [f"… and {len(lines) - 5} more changes, not listed (`table` shows where everything is now)"]
        return lines

    def rules(self, argument: str) -> bool:
        """`rules`: at a terminal the basics and a table of contents, paged; piped, everything.
        `rules KEY`: one section, or one group of cards and pieces; `rules NAME`: one's text."""
        match = getattr(self, "match", None)            # (the texts of this match's player count and options)
        players, options = getattr(match, "players", None), getattr(match, "options", None)
        text = rulebook(self.game, source=self.rules_path(), players=players, options=options)
        wanted = " ".join(argument.split())
        ir = getattr(self.game, "ir", None)
        groups = component_texts(self.game, ir, players, options) if ir is not None else []
        if not wanted:
            if not self.paging:
                self.say(text)
                return False
            lines = overview(text, groups)
        elif wanted.lower() in ("all", "everything"):
            lines = text.split("\n")
        else:
            lines = find_section(text, groups, wanted)
            if lines is None:
                # (an enum value by its name too: `rules hearts` for `rules ♥`, as actions take it — a first hour)
                named = self.enum_named(wanted.lower()) if hasattr(self, "enum_named") else wanted
                for asked in dict.fromkeys([wanted, named]):
                    if self.names().find(asked, self.encoding):
                        return self.look(asked)
                self.error(f"the rules have no section '{printable(wanted)}'; type rules for the list")
                return False
        if self.page(lines) > 1 and self.paging:      # (read to its end over several screens, the board and
            self.remind_choices()               # the choices scrolled away: a first hour read a bare prompt)
        return False

    def page_drawn(self, lines: list[str]) -> None:
        """Lines already fitted to the width (a board, a status), a screenful at a time at a
        terminal: a status or a table taller than the screen is read from its top."""
        rows = [row for line in lines for row in line.split("\n")]
        if not self.paging:
            self.say("\n".join(rows))
            return
        self.page_rows(rows)

    def page_rows(self, rows: list[str]) -> int:
        """Rows of the screen's width, a screenful at a time (Enter: the next, q: stop). How many
        screens were shown to the end (0: stopped)."""
        screens = pages(rows, (self.size() or (80, 24))[1])
        for i, screen in enumerate(screens):
            self.say("\n".join(screen))
            if i == len(screens) - 1:
                return len(screens)
            typed = " ".join(self.ask(MORE, interrupt="q").split())     # (`hand over` is a move, `hand` a command: as at the prompt)
            if not typed and self.interactive and _on_terminal(self.stdout):
                self.stdout.write(ERASE_LINE_ABOVE)   # (the prompt is not left in the text: a first hour
            if typed.lower() == "q":                  #  at a real terminal read it mid-page)
                return 0
            word, _, rest = typed.partition(" ")
            redraw_move = word.lower() in REDRAW and rest and not (word.lower() == "more" and self.kind_named(rest))
            if typed and word.lower() in self.commands and not redraw_move:
                self.typed_ahead.append(typed)  # a command typed at the pager: it ends the pager and is run
                return 0
            if typed:                # a move is not played from the pager: `7` there played `yield` (a
                self.say(f"(the pager stopped: nothing was played; type {printable(typed)} at your prompt "
                         f"to play it)")    # terminal trial, reading the rules) — stopped, said, not lost
                return 0
        return 0

    def page(self, lines: list[str]) -> int:
        """Lines, a screenful at a time at a terminal (Enter: the next, q: stop); all at once otherwise.
        How many screens were shown to the end (0: stopped; 1 when not paged)."""
        size = self.size() or (80, 24)
        if not self.paging:
            self.say("\n".join(lines))
            return 1
        rows = []
        for line in lines:
            lead = " " * (len(line) - len(line.lstrip()))
            if lead or line.startswith("- "):
                lead += "  " if line.lstrip().startswith("- ") or not line.lstrip().startswith("rules ") else " " * 19
            rows += textwrap.wrap(line, size[0] - 1, subsequent_indent=lead, break_long_words=False,
                                  break_on_hyphens=False) or [""]
        return self.page_rows(rows)

    def rules_path(self) -> str | None:
        """The rule file this game was read from, for the rulebook's quotes (None: not a .rules file)."""
        for path in (self.source_path, getattr(self.game, "path", None)):
            if path and str(path).endswith(".rules"):
                return str(path)
        return None


def counts_rounds(ir) -> bool:
    """Do the rules count rounds themselves (`on round_start`, `on round_end`, `round_count`)?"""
    if not isinstance(ir, dict):
        return True
    if any(event in (ir.get("handlers") or {}) for event in ("round_start", "round_end")):
        return True
    return any(x.get("k") == "builtin" and x.get("n") == "round_count" for x in walk_ir(ir))
