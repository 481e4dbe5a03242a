"""The terminal's commands beyond choosing an action (a part of repl._Session, sharing its
state): help and look, the log, several picks typed at once, undo, save, load and quit.
"""
from __future__ import annotations

import json
import os
import re
import stat
import textwrap
from collections import Counter

from .. import interrupt_seat
from ..core.errors import EngineFault, IllegalAction, RuleRuntimeError, StateError
from ..core.limits import JSON_SIZE_LIMIT
from ..core.textsafe import fit, printable, small_number
from .render import component_text, render_zone, seat_name
from .replay import _short as echoed, check_game, read, rebuild, save_data
from .repl_drawing import PICKING
from .screen import kind_noun, kind_of, values_in_words, without_internal
from .rulebook import action_help
from .screen import join_labels, wrap_text, zone_title
from .screen import words as screen_words

HELP = """\
Commands:
  help, ?      show this text
  help ACTION  what an action does and when it is allowed (help play; help 3:
               choice 3's; help play full: the rule as the rule file writes it)
  help NAME, look NAME
               the rules text of a card, character, piece… (Tab completes
               names); look ZONE: of each card you see there (look hand);
               of a zone per player or per value, every place, or one
               by its keys (look discard p2);
               look P2: that player's zones, as you see them; look c5: what
               lies on that cell of the board
  rules        the basics (how to win, a turn) and a list of sections; at a
               terminal it stops at each screenful (Enter: on, q: stop);
               read from a pipe, the whole rulebook
  rules KEY    one section (rules turn, rules cards), or one card: rules NAME
  rules all    the whole rulebook
  board, table, hand, status
               draw again: the board (and its key), the table, your own cards,
               the status
  more         every choice, one a line; more KIND: those of one kind of action
               (more attack)
  1 2 5        several picks at once, where you pick one at a time then done
  typing       an action: its number, its text or a unique start of it;
               symbols by letters (play 7h for play 7♥; spades for ♠);
               #2: the list's second, =2: the answer 2 where answers are numbers
  clear        clear the screen and draw your decision again
  recap        what happened since your last move (the other players' turns)
  log          list the actions played so far, with the questions answered
  undo         go back to the previous decision of a human player (another
               player's: only if they type yes)
  as P2        let another player at the terminal act now, out of turn (an
               any-time action; `as P2 reveal` or `P2: reveal`: that action
               at once)
  save FILE    write the match to FILE
  load FILE    continue a match written by save
  quit, exit, q  leave the game (Ctrl-D too; at a terminal it offers to save
               first)"""


FAMILY_SHOWN = 12        # the places of a family of zones `look NAME` shows at most


def _joined_titles(titles: list[str]) -> str:
    """A few zones' titles, or the first and how many more: the empty places of a family, said once."""
    return ", ".join(titles) if len(titles) <= 3 else f"{titles[0]} and {len(titles) - 1} more places"


LEAVING = ("save", "quit", "exit", "q")    # commands that, typed at the save prompt, do not mean "go back"
COMMAND_NAMES = ("help", "?", "rules", "log", "undo", "as", "save", "load", "quit", "exit", "q", "look", "board",
                 "table", "hand", "status", "more", "recap", "clear")


class _Stop(Exception):
    """Ends the session early, with the exit code to return."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


class Commands:
    """The commands; `_Session` (repl.py) is made of these, `Drawing` and its own loop."""

    # -- commands: each returns True when the match changed ---------------------

    def help(self, argument: str) -> bool:
        offered = getattr(self, "offered", None) or []
        number = re.fullmatch(r"\s*(\d{1,5})\s+full\s*", argument, re.IGNORECASE)
        if number and 1 <= int(number.group(1)) <= len(offered) and not self.match.question:
            # (`help 3 full`: choice 3's action, as written — the help text offers both; a first
            # hour read "no action `1`")
            argument = kind_of(offered[int(number.group(1)) - 1]) + " full"
        if small_number(argument) is not None and offered and not 1 <= small_number(argument) <= len(offered) \
                and len(argument.strip()) < 6:          # (`help 3` of two choices: no action was named)
            self.error(f"there is no choice {argument.strip()}; the choices are 1-{len(offered)}")
            return False
        if self.match.question and self._answer_help(argument, offered):
            return False
        typed = " ".join(argument.split()).lower()
        same = [o for o in offered if typed and typed in (" ".join(str(o).split()).lower(),
                                                         " ".join(self.show_text(o).split()).lower())]
        if same and not self.match.question:    # (an action as the screen shows it: `help Boar a5-a4`
            argument = kind_of(same[0])          #  read "no action `Boar a5-a4`" — a new author's Onitama)
        if small_number(argument) is not None and 1 <= small_number(argument) <= len(offered):
            if self.match.question:             # `help 1` at a question: option 1, whole (a first hour: a
                return self.look(argument)      # draft's generals were cut short, and help 1 said "no action")
            # (`help 3`: choice 3's action — a first hour at the terminal read "no action `3`")
            argument = kind_of(offered[int(argument.strip()) - 1])
        if argument.strip():
            about = command_help(argument.strip())
            wanted = " ".join(argument.split())
            full = wanted.lower().endswith(" full")        # `help ACTION full`: the rule as written too
            # (out of turn, the legal actions now are the actor's: not said, nor their refusals)
            now = None if getattr(self, "out_of_turn", False) else self.match
            text = action_help(self.game, wanted[:-5] if full else wanted, now, self.rules_path(), authors=full)
            if about and text.startswith("error: no action"):      # `help rules`: the command (no action so named)
                self.say(about)
                return False
            if text.startswith("error: no action") and self.names().find(argument.strip(), self.encoding, words=True):
                return self.look(argument)      # (whole words of a name: `help ban` is not about Bandits)
            if text.startswith("error: no action"):
                more = self.names().candidates(argument.strip())
                if more:
                    text += f"; names with rules text like it: {', '.join(more)}"
            self.say(text)
        else:
            self.page(self.help_intro() + HELP.replace("(look hand)", f"(look {self.example_zone()})").split("\n"))
        return False

    def failed_text(self, wanted: str) -> str | None:
        """Why the rules text of a component so named cannot be worked out, or None (none so named,
        or its text is fine)."""
        labels = getattr(self.match, "labels", None) or []
        for c, label in enumerate(labels):
            if " ".join(str(label).lower().split()) == wanted:
                try:
                    self.match.rules_text(c, self.viewer())
                except RuleRuntimeError as err:
                    return str(err)
                return None
        return None

    def example_zone(self) -> str:
        """A zone of these rules for `look ZONE`'s example: a player's own first, else one on the table
        (a game with no `hand`: `look hand` there showed a card named Handgun, by its name's start)."""
        zones = [z for z in (getattr(self.game, "ir", None) or {}).get("zones", ()) if not z.get("internal")]
        for z in sorted(zones, key=lambda z: (z.get("visibility") != "owner", z.get("visibility") != "public")):
            name = str(z.get("name", ""))
            if name.isidentifier() and len(name) <= 20:
                return name
        return "hand"

    def seen_options(self) -> dict:
        """The question's options that are components the reader sees: {text: id}. (`look 2` at a
        blind pick, `pool slot 2`, showed the skull's rules text — a new author's Skull.)"""
        found = getattr(self.match, "option_components", None)
        return (found(self.viewer()) or {}) if found is not None else {}

    def _answer_help(self, argument: str, offered: list) -> bool:
        """`help challenge` or `help 1` at a question, where the answer names no card: what it is (a
        new author's Coup read "no action `challenge`; the actions are: …", the answer on the screen
        refused and actions not legal then listed). False when it is no answer, or names a card
        (`look` tells that card)."""
        texts = [str(o) for o in offered]
        typed = " ".join(argument.split()).lower()
        at = next((i for i, t in enumerate(texts) if " ".join(t.split()).lower() == typed), None)
        if at is None and small_number(typed) is not None and 1 <= small_number(typed) <= len(texts):
            at = int(typed) - 1
        if at is None:
            return False
        option = texts[at]
        components = self.seen_options()
        found = self.names().find(option, self.encoding) or ()
        words = " ".join(option.lower().split())       # (a card of that very name: `look` tells it; one whose
        if components.get(option) is not None or any(   # name has the word, They Keep Coming for `keep`, not)
                " ".join(str(shown).lower().split()) == words for shown, _, _ in found):
            return False
        prompt = (self.match.question or {}).get("prompt")
        asked = f" to the question “{printable(str(prompt))}”" if prompt else " to the question now"
        self.say(f"  {printable(option)}: an answer{asked} — type `{printable(option)}` or {at + 1} to give it")
        return True

    def help_intro(self) -> list[str]:
        """How an action may be typed, with examples from the choices offered now when some can be
        typed so (a first hour read another game's words there: `outbreak`, `play gno on temp`)."""
        offered = [a for a in getattr(self, "offered", None) or [] if not isinstance(a, str)]
        texts = [" ".join(fit(str(a), "ascii").lower().split()) for a in offered]
        one_word = whole_start = None
        for action, text in zip(offered, texts):   # a later word only one choice has (`outbreak`: `act Outbreak`)
            for word in text.split()[1:]:
                inner = re.compile(r"(?<=\s)" + re.escape(word))
                if (len(word) >= 2 and word.isalnum() and not any(t.startswith(word) for t in texts)
                        and sum(1 for t in texts if inner.search(t)) == 1):
                    one_word = one_word or (word, printable(str(action)))
        for text in texts:                  # each word cut short (`play gno on temp`)
            words = text.split()
            typed = [w[:3] if len(w) > 4 else w for w in words]
            short = " ".join(typed)
            inner = re.compile(r"(?<=\s)" + re.escape(short))
            if (len(words) >= 3 and short != text and not any(t.startswith(short) or inner.search(t) for t in texts)
                    and sum(1 for t in texts if len(t.split()) == len(typed)
                            and all(w.startswith(x) for x, w in zip(typed, t.split()))) == 1):
                whole_start = short
                break
        examples = []
        if one_word:
            examples.append(f"`{one_word[0]}` for `{one_word[1]}`")
        if whole_start:
            examples.append(f"`{whole_start}`")
        said = ("Choose an action by its number, its text, or the start of its text or of a word in it, when "
                "only one action has it, or the starts of its words, some left out"
                + (f" (any case: {', '.join(examples)})" if examples else " (any case)") + ".")
        width = min((self.size() or (80, 24))[0], 100) - 1
        return textwrap.wrap(said, width=max(width, 40))

    def look(self, argument: str) -> bool:
        """`look NAME`: the rules text of a component, card or enum value (any seat may read it), a
        screenful at a time when it is taller than the screen (`look f6` of a crowded cell gave 31
        lines, and its first, what lies there, scrolled away: a first hour at the terminal)."""
        self.held_lines = []
        try:
            result = self.look_up(argument)
        finally:
            said, self.held_lines = self.held_lines, None
        width, height = self.size() or (80, 24)
        # (fitted to the width before paging: a cell's first line of 90 columns took two rows, and the
        # page ran one past the screen — a review)
        rows = [row for text, _ in said for line in printable(str(text), multiline=True).split("\n")
                for row in (textwrap.wrap(line, max(width - 1, 20), subsequent_indent=" " * (len(line) - len(line.lstrip())),
                                          break_on_hyphens=False) or [""])]
        if self.paging and len(rows) >= height - 1:
            self.page_drawn(rows)
        else:
            for text, style in said:
                self.say(text, style)
        return result

    def look_up(self, argument: str) -> bool:
        """`look NAME`, said line by line (`look` pages it)."""
        name = argument.strip()
        if not name:
            self.error("look needs a name, e.g. look " + (self.names().names() or ["NAME"])[0])
            return False
        offered = getattr(self, "offered", None) or []
        if small_number(name) is not None and 1 <= small_number(name) <= len(offered) and self.match.question:
            name = str(offered[int(name) - 1])  # (`look 2` at a question: option 2)
            if not self.names().find(name, self.encoding):
                # (an option of more words than a name, `Scout (P1) on Factory 436-1337`: the card it
                # is, where the question says so — a legibility trial read the words alone)
                comp = self.seen_options().get(name)
                labels = getattr(self.match, "labels", None) or []
                label = str(labels[comp]) if isinstance(comp, int) and 0 <= comp < len(labels) else None
                if label is None or not self.names().find(label, self.encoding):
                    self.say(f"  {printable(name)}")   # (an option with no rules text: its words, whole)
                    return False
                self.say(f"  {printable(name)}:")
                name = label
        name = re.sub(r"\s*×\d+$", "", name) or name     # (`Copper ×46`, as a zone's line groups them)
        seat = re.fullmatch(r"[Pp]([1-9][0-9]{0,2})", name)
        if seat and int(seat.group(1)) <= self.match.players and not self.names().find(name, self.encoding):
            self.look_at_player(int(seat.group(1)) - 1)
            return False
        found = self.names().find(name, self.encoding)
        if not found and self.look_at_cell(name):
            return False
        exact = any(" ".join(str(shown).lower().split()) == " ".join(name.lower().split()) for shown, _, _ in found or ())
        if not exact and (self.look_at_zone(name) or self.look_at_cell_zone(name)):
            return False                        # (`look hand`: the cards of one's hand, not a card named
        if not found:                           #  `Lend a Hand` — a first hour at the terminal)
            more = self.names().candidates(name)
            word = re.compile(r"(?<!\w)" + re.escape(" ".join(name.lower().split())) + r"(?!\w)")
            keys = [str(k) for b in (getattr(self.game, "ir", None) or {}).get("boards", [])
                    for k in (b.get("legend") or []) if word.search(str(k).lower())]
            told = self.names().mentions(name) if not more else []
            wanted = " ".join(name.lower().split())
            declared = [c for c in (getattr(self.game, "ir", None) or {}).get("cards", [])
                        if wanted in (str(c.get("name", "")).lower(), str((c.get("fields") or {}).get("title", "")).lower())]
            # (in the match, but its rules text fails: "its options leave it out" was false — a designer's
            # new card, missing from the table its kind's text reads)
            failed = self.failed_text(wanted) if declared else None
            if failed is not None:
                self.error(f"'{echoed(name)}' has no rules text to show: {printable(failed)}")
                return False
            # (declared, but this game's options left it out: "no card named …" read as a typo)
            if declared:
                self.error(f"'{echoed(name)}' is not in this game: its options leave it out "
                           "(`rulelang rules` lists every card, with the options that bring it)")
                return False
            self.error(f"no card or piece named '{echoed(name)}' has rules text"
                       + (f"; did you mean: {', '.join(more)}" if more else
                          f"; it is named in the text of {', '.join(printable(t) for t in told)}" if told else
                          "" if keys else "; look at a name on screen (Tab completes)"))
            for k in keys[:4]:                  # (a word of the board's key: `look mountain`)
                self.say("  the board's key: " + printable(k))
            return False
        width = (self.size() or (80, 24))[0]
        for shown, text, kind in found:
            self.say(f"{printable(shown)}" + (f" ({kind_noun(kind)[0]})" if kind else ""), "header")
            self.say(wrap_text(printable(text, multiline=True), width - 2))
        return False


    def look_at_player(self, seat: int) -> None:
        """`look P4`: that player's zones as the seat at the terminal sees them (a first hour asked
        what an opponent held in play and read "no card or piece named 'P4'")."""
        # (a public internal zone too, its cards in sight: a card game's discard piles kept off the table,
        # under a `show` of their sizes, and `look P2` left P2's out — a first hour)
        view = self.match.view(self.viewer(), drawing=False)
        values = values_in_words(without_internal(view))   # (a die's face with the die, as the table lists it)
        zones = [z for z in view["zones"]
                 if z.get("owner") == seat and (not z.get("internal") or z.get("visibility") == "public")]
        if not zones:
            self.say(f"{seat_name(seat)} has no zones of their own; the table shows what they do")
            return
        # (the empty ones of a family of many places said in one line: a new author's Stratego kept a
        # zone per player per cell, and `look P2` printed 64 lines of `shown (P2, a1): empty`)
        empty: dict = {}
        for z in zones:
            if not z.get("count"):
                empty[z["name"]] = empty.get(z["name"], 0) + 1
        last = {z["name"]: i for i, z in enumerate(zones)}
        for i, z in enumerate(zones):
            if z.get("count") or empty[z["name"]] <= 3:
                self.say(printable(render_zone(z, values)))
            if empty.get(z["name"], 0) > 3 and last[z["name"]] == i:      # (after the family's others)
                self.say(printable(f"{z['name']} ({seat_name(seat)}): empty in {empty[z['name']]} places"))
        self.say("(look CARD: what a card does)")

    def look_at_cell(self, name: str) -> bool:
        """`look c5`: what lies on a board's cell as the seat at the terminal sees it, with the
        board's key for what is there (a first hour typed it and read "no card or piece named
        'c5'"); False when no cell is so named."""
        geometry = getattr(getattr(self, "game", None), "geometry", None)
        wanted = " ".join(name.lower().split())
        cell = next((str(c) for c in getattr(geometry, "names", ()) if str(c).lower() == wanted), None)
        if cell is None:
            return False
        view = self.match.view(self.viewer(), drawing=False)
        held = (view.get("cells") or {}).get(cell) or {}
        words = (view.get("cell_texts") or {}).get(cell) or {}
        variables = view.get("cell_vars") or {}
        meant = ((getattr(self.game, "ir", None) or {}).get("about") or {}).get("vars") or {}
        parts, labels = [], []
        for what, v in held.items():
            shown = words.get(what, v)
            if what in variables:                # (`dead: yes`, not True; with `about var`: what it means)
                named = what.replace('_', ' ') + (f" ({printable(meant[what])})" if what in meant else "")
                parts.append(f"{named}: {screen_words(shown)}")
            elif isinstance(v, list):
                labels += [str(x) for x in v]
                parts.append(f"{what.replace('_', ' ')}: {printable(join_labels([str(x) for x in v])) if v else 'empty'}")
            elif isinstance(v, int) and v:
                parts.append(f"{what.replace('_', ' ')}: {v} hidden")
        drawing = getattr(self.match, "cell_drawing", None)
        try:
            drawn = (drawing(self.viewer(), cell) or "").strip() if drawing is not None else ""
        except (RuleRuntimeError, EngineFault):
            drawn = ""
        if not parts or drawn in ("".join(labels), *labels):    # (nothing there, or the pieces listed are
            drawn = ""                                          #  what is drawn: `a1: stack: L`)
        if drawn:                                 # (what the board shows there, and below, its key's words)
            parts.insert(0, f"on the board: {drawn}")     # (`drawn V` read as jargon: a first hour)
        self.say(f"{cell}: " + ("; ".join(parts) if parts else "empty"))
        legend = [str(k) for b in (getattr(self.game, "ir", None) or {}).get("boards", []) for k in (b.get("legend") or [])]
        glyphs = "".join(labels)
        width = (self.size() or (80, 24))[0]
        said = False
        for k in legend:                          # (the key's entries for what lies there: `LL, DD: a pair`)
            head = k.split(":", 1)[0]
            if labels and any(g.strip() and g.strip() in (glyphs, *labels) for g in head.split(",")):
                self.say(wrap_text("the board's key: " + printable(k), width - 2))
                said = True
        if drawn and not said:                    # (the key's entry for what is drawn there: `^: a mountain…`)
            for entry in [e for k in legend for e in printable(k).split(" · ")]:
                head = entry.split(":", 1)[0]
                if any(g.strip() and drawn.startswith(g.strip()) for g in head.split(",")):
                    self.say(wrap_text("the board's key: " + entry, width - 2))
                    break
        for label in dict.fromkeys(labels):
            for shown, text, kind in self.names().find(label, self.encoding) or ():
                self.say(wrap_text(f"{printable(shown)}: " + printable(" ".join(str(text).split())), width - 2))
        return True

    def look_at_cell_zone(self, name: str) -> bool:
        """`look here` of a zone per cell of the board: what lies in it on each cell, as the seat at the
        terminal sees it (a new author read "no card or piece named 'here'"); False when no such zone."""
        wanted = " ".join(name.lower().replace("_", " ").split())
        zone = next((z["name"] for z in (getattr(self.game, "ir", None) or {}).get("zones", [])
                     if z.get("per") == "cell" and z["name"].replace("_", " ").lower() == wanted), None)
        if zone is None:
            return False
        held = [(cell, (things or {}).get(zone)) for cell, things in
                (self.match.view(self.viewer(), drawing=False).get("cells") or {}).items()]
        lines = [f"  {cell}: " + (printable(join_labels([str(x) for x in v])) if isinstance(v, list) else f"{v} hidden")
                 for cell, v in held if v]
        self.say(f"{zone.replace('_', ' ')}: " + (f"on {len(lines)} {'cell' if len(lines) == 1 else 'cells'}" if lines
                                                  else "empty on every cell"))
        for line in lines[:FAMILY_SHOWN * 4]:
            self.say(line)
        if len(lines) > FAMILY_SHOWN * 4:
            self.say(f"  … {len(lines) - FAMILY_SHOWN * 4} more cells: look CELL", "dim")
        return True

    def look_at_zone(self, name: str) -> bool:
        """`look ZONE` (`look hand`, `look discard p2`): the rules text of each card the seat at the
        terminal sees there, its own zone first among several of that name; False when no zone on
        screen is so named."""
        def plain(text: str) -> str:
            return " ".join(re.sub(r"[_(),]", " ", text.lower()).split())     # (`look pattern p2 1`)
        wanted = plain(name)
        viewer = self.viewer()
        view = self.match.view(viewer, drawing=False)
        every = view["zones"]                   # (as the seat sees each: hidden cards are None)
        values = values_in_words(without_internal(view))   # (`die (face 5)`, as the table lists it: no
        # `internal` value, and a card or a player a value names in words — `Warbot (at 91)` read an id)
        named: list = []
        for zones in ([z for z in every if not z.get("internal")], [z for z in every if z.get("internal")]):
            # (a zone the rules keep off the screen, shown by a line of their own — a card game's discard
            # piles, `Discard piles: …` — is looked at too: `look discard` read "no card named discard")
            named = [z for z in zones if plain(zone_title(z, seat_name)) == wanted]
            if not named:                       # (the places of a family by their first keys: `look pattern p2`)
                named = [z for z in zones if plain(zone_title(z, seat_name)).startswith(wanted + " ")
                         and plain(str(z["name"])) != wanted and len(plain(str(z["name"]))) < len(wanted)]
            if not named:
                named = [z for z in zones if plain(str(z["name"])) == wanted]
                named = [z for z in named if z.get("owner") == viewer] or named
            if named:
                break
        if not named:
            return False
        width = (self.size() or (80, 24))[0]
        # every place of a family (a new author's Azul: `look pattern` showed the first of its five rows
        # and no word of the others); the empty ones in one line, after the others
        empty = [zone_title(z, seat_name) for z in named[:FAMILY_SHOWN] if z["cards"] is not None and not z["cards"]]
        rest = named[FAMILY_SHOWN:]             # (past the places shown: all empty, said with the empty ones —
        rest_empty = bool(rest) and all(z["cards"] is not None and not z["cards"] for z in rest)   # `5 more
        said_empty = empty + ([zone_title(z, seat_name) for z in rest] if rest_empty else [])   # places` read as hidden)
        for z in named[:FAMILY_SHOWN]:
            title = zone_title(z, seat_name)
            if z["cards"] is None:              # (as the table says it, what is known of it too: `look
                self.say(printable(render_zone(z, values)))      # deck` left out the top card shown to all)
                cards = z.get("known") or []
            elif not z["cards"]:
                if title == empty[-1]:
                    self.say(f"{printable(_joined_titles(said_empty))}: empty")
                continue
            else:
                n = z.get("count", len(z["cards"]))
                one, many = kind_noun(z.get("kind"))     # (as the table says it: `1 character`, not `1 cards`)
                self.say(f"{printable(title)}: {n} {one if n == 1 else many}", "header")
                cards = z["cards"]
            # alike ones once, with how many; components told apart by their values are not alike (a new
            # author's dice showing 2, 3 and 6 were `die ×6`, though the table listed each face)
            counted = Counter((c["label"], component_text(c, values)) for c in cards)
            explained: set = set()
            for label, listed in counted:
                many = f" ×{counted[label, listed]}" if counted[label, listed] > 1 else ""
                found = (self.names().find(label, self.encoding) or [])[:1]
                if not found:                   # (a card with no rules text: named all the same — a new
                    self.say(f"  {printable(listed)}{many}", "header")   # author's `look hand` read `1 card`)
                for shown, text, kind in found:
                    if listed != label:
                        shown = listed
                    self.say(f"  {printable(shown)}{many}" + (f" ({kind_noun(kind)[0]})" if kind else ""), "header")
                    if label not in explained:  # (its rules text once, under the first of its kind)
                        self.say(wrap_text(printable(text, multiline=True), width - 4, "    "))
                    explained.add(label)
        if rest and not rest_empty:
            self.say(f"  … {len(rest)} more places: look {printable(zone_title(named[-1], seat_name))}", "dim")
        elif rest_empty and not empty:          # (every place shown holds something, the rest nothing)
            self.say(f"{printable(_joined_titles(said_empty))}: empty")
        return True

    def show_log(self, _argument: str) -> bool:
        # an answer naming a card the player at the terminal could not see is not repeated (nor,
        # with nobody's secrets on screen, one that any player could not see)
        reader = self.on_screen if self.on_screen is not None and self.on_screen not in self.bots else None
        log = self.match.log
        shown = self.match.log_for(reader)
        messages = self.match.message_log()
        # what the setup said (a first roll, the cards dealt), before any move: the messages before
        # the first move's (all of them with no move yet; none known for a match resumed from a save)
        first = self.log_meta.get(0)
        setup_end = len(messages) if not log else first[1] if first is not None else 0
        setup = [f"       > {printable(m['text'])}" for m in messages[:setup_end]
                 if m["to"] is None or reader is not None and reader in m["to"]]
        if not log:
            self.say("\n".join(["  setup:"] + setup + ["no actions yet"]) if setup else "no actions yet")
            return False
        self.page(((["  setup:"] + setup) if setup else [])
                  + "\n".join(f"  {n}. {self.log_entry(n - 1, text, reader, messages)}"
                              for n, text in enumerate(shown, 1)).split("\n"))
        return False

    def log_entry(self, i: int, text: str, reader: int | None, messages: list) -> str:
        """Move `i` of the log as `log` shows it to `reader`: `P2: march e7 d7`, what the question
        asked before its answer, and what was said to all or to the reader under it."""
        meta = self.log_meta.get(i)
        if meta is not None and interrupt_seat(text) is not None:     # `P3: reveal`: its seat said once
            text = text.partition(": ")[2]
        asked = self.asked.get(i)
        if asked and meta is not None and meta[0] is not None and asked.startswith(seat_name(meta[0]) + ", "):
            asked = asked[len(seat_name(meta[0])) + 2:]     # (`P2: Plain was played…`, its seat said once)
        if asked and not asked.startswith("respond in "):
            text = f"{printable(asked)} → {printable(text)}"
        else:
            text = printable(text)
        if meta is None:                 # (a move of a match resumed from a save: who is not known)
            return text
        seat, first, end = meta
        said = [m["text"] for m in messages[first:end]
                if m["to"] is None or reader is not None and reader in m["to"]]
        head = f"{seat_name(seat)}: {text}" if seat is not None else text
        return "\n".join([head] + [f"       > {printable(x)}" for x in said])

    def recaps_from_log(self) -> None:
        """Each human seat's `recap` rebuilt from the log, for a game loaded from a save: its last
        move and those after it, as `log` shows them to it (the lines said on screen were not saved, and
        recap said "nothing happened since your last move" over the other player's moves — a first
        hour at the terminal)."""
        messages = self.match.message_log()
        for seat in range(self.match.players):
            if seat in self.bots:
                continue
            mine = [i for i, meta in self.log_meta.items() if meta is not None and meta[0] == seat]
            if not mine:                 # (no move of its own known: the recap starts at the game's start)
                continue
            last = max(mine)                 # (its move: the action, not only the answers after it)
            while last > 0 and self.asked.get(last) and (self.log_meta.get(last - 1) or (None,))[0] == seat:
                last -= 1
            shown = self.match.log_for(seat)
            lines = []
            for n in range(last + 1, len(shown) + 1):
                entry = self.log_entry(n - 1, shown[n - 1], seat, messages).split("\n")
                lines += [f"  {n}. {entry[0]}"] + entry[1:]
            if lines:
                self.since_move[seat] = self.log_recap[seat] = lines
        self.recaps_loaded = True         # (the next seat at the terminal takes its own: take_terminal)

    # -- several picks at once, at a question answered one pick at a time ----------------

    def several(self, line: str, actions: list) -> list[str] | None:
        """At a question picked one at a time: the picks `1 2 5` or `Ruby, Opal` mean, as the actions'
        texts (numbers and names refer to the list on screen now); None when the line is one pick,
        [] when it named something not on the list (the error said)."""
        if re.fullmatch(r"\d+(?:[ ,]+\d+)+", line):
            words = re.split(r"[ ,]+", line)
            long = next((w for w in words if len(w) > 9), None)   # (int() of 5,000 digits raises)
            if long is not None:
                self.error(f"there is no choice {long[:12]}…; choose 1-{len(actions)}")
                return []
            numbers = [int(x) for x in words]
            wrong = [n for n in numbers if not 1 <= n <= len(actions)]
            if wrong:
                self.error(f"there is no choice {wrong[0]}; choose 1-{len(actions)}")
                return []
            if len(set(numbers)) < len(numbers):
                self.error("a number is given twice: each number is one of the list on screen now")
                return []
            return [str(actions[n - 1]) for n in numbers]
        if "," not in line or any("," in str(a) for a in actions):
            return None
        out = []
        for part in (x.strip() for x in line.split(",")):
            if part:
                found = self.pick(part, actions)
                if found is None:
                    return []
                out.append(str(found))
        return out

    def play_several(self, seat: int, texts: list[str]) -> bool:
        """Several picks in turn, when each is legal after those before it (tried on a copy of the
        match first: none is made unless all can be)."""
        trial = self.restore(self.match.state())
        offered = list((self.match.question or {}).get("options") or [])
        # each pick's component: a text may change as others are picked (`Walker #2` is `Walker`
        # once the first Walker is taken)
        ids = [self.match.option_components().get(t) for t in texts] \
            if hasattr(self.match, "option_components") else [None] * len(texts)
        for n, text in enumerate(texts):
            question = trial.question
            found = None
            if trial.current_player == seat and question is not None and question.get("kind") in PICKING:
                legal = trial.legal_actions()
                found = next((a for a in legal if str(a) == text), None)
                if ids[n] is not None:          # (by the component, whatever its text has become)
                    now = {c: t for t, c in trial.option_components().items()}
                    found = next((a for a in legal if str(a) == now.get(ids[n])), found)
                    texts[n] = str(found) if found is not None else text
            elif n and sorted(texts[n:]) == sorted(t for t in offered if t not in texts[:n]):
                texts = texts[:n]               # the rest went where it had to (the last of an order)
                break
            if found is None:
                after = f" after {', '.join(self.show_text(t) for t in texts[:n])}" if n else ""
                self.error(f"'{self.show_text(text)}' cannot be picked{after}; nothing was picked")
                return False
            try:
                trial.apply(found)
            except (IllegalAction, RuleRuntimeError, EngineFault) as error:
                self.error(f"'{self.show_text(text)}' cannot be picked: {printable(error)}; nothing was picked")
                return False
        for text in texts:
            action = next((a for a in self.match.legal_actions() if str(a) == text), None)
            if action is None or not self.play(seat, action):
                return True
        return True

    def undo(self, _argument: str) -> bool:
        if not self.undo_stack:
            self.say("nothing to undo")
            return False
        why = self.undo_refusal()
        if why is not None:
            self.say(f"cannot undo: since that decision {why}, and undoing would let it be "
                     f"played again knowing it", "error")
            return False
        humans = [p for p in range(self.match.players) if p not in self.bots]
        whose = self.decided_by[-1]
        if len(humans) > 1 and self.on_screen is not None and whose != self.on_screen:
            # another player's move: taken back only if they agree (they share this terminal) —
            # asked on a cleared screen, the line history put away: the asker's hand is on it
            asker = self.on_screen
            secret = self.sees_differently(asker, whose)
            if secret:
                self.clear_screen()
                self.swap_history(None)
                self.on_screen = None
            answer = self.read_line(f"{seat_name(asker)} asks to undo {seat_name(whose)}'s last decision. "
                                    f"{seat_name(whose)}, type yes to agree (Enter: keep it): ")    # (80 columns)
            if secret:
                self.swap_history(whose)          # (the one who answered has the terminal now)
                self.on_screen = whose
            if (answer or "").strip().lower() not in ("yes", "y"):
                if not secret:
                    self.say(f"not undone: {seat_name(whose)} keeps their decision")
                    return False
                self.announce(f"not undone: {seat_name(whose)} keeps their decision", "dim")
                return True                       # (the asker's view again, after a hand-over)
        try:
            earlier = self.restore(self.undo_stack[-1])
        except StateError as error:          # (a position the rules made that no save may hold: the game
            self.error(f"cannot undo: {printable(error)}")     # goes on from here, never ends)
            return False
        self.undo_stack.pop()
        self.crossed.pop(), self.decided_by.pop()
        for seat, state in self.bot_states.get(len(earlier.log), {}).items():
            self.bots[seat].rng.setstate(state)      # (a bot asked again answers as it did)
        self.rewind(earlier, "undone", self.since_at.get(len(earlier.log)))
        self.recap_lines = list(self.since_move.get(whose, []))   # (the one deciding again: what came before —
        return True                                              # "nothing happened", a review)

    def save(self, path: str) -> bool:
        bare = path.strip()
        if len(bare) > 1 and bare[0] == bare[-1] and bare[0] in "\"'":     # (`save ""`, `save "  "`: no name
            bare = bare[1:-1].strip()                                   #  either — a fuzz trial)
        if not bare:
            self.error("save needs a file name, e.g. save match.json")
            return False
        self.write_save(path)
        return False

    def write_save(self, path: str) -> bool:
        """Write the match to `path`; False (said why) when it cannot be. A file there already is
        replaced only if it is a saved match itself (a first hour at the terminal: `save notes.txt`,
        `save mygame.rules` replaced the notes and the rule file being played, unasked)."""
        data = save_data(self.game, self.match, self.seed, self.options, getattr(self, "bot_kinds", None),
                         self.seed_secret)
        if "\0" in path:
            self.error(f"cannot save {echoed(path, 120)}: a file name cannot hold a NUL byte")
            return False
        if len(path) > 1 and path[0] == path[-1] and path[0] in "\"'":   # (`save "my game"`: the name, not
            path = path[1:-1]                                          # its quote marks)
        path = os.path.expanduser(path)
        if not _replaceable(path):
            self.error(f"{echoed(path, 120)} exists and is not a saved match: not overwritten (save to another name)")
            return False
        # a save is read back only up to JSON_SIZE_LIMIT bytes: one larger is written compact, and
        # refused (said now, the file untouched) when even that is too large to be read again
        text = json.dumps(data, ensure_ascii=False, indent=1)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:           # (a lone surrogate in a text: written escaped, as JSON allows)
            text = json.dumps(data, ensure_ascii=True, indent=1)
        ascii_only = text.isascii()
        if len(text.encode("utf-8")) > JSON_SIZE_LIMIT:
            text = json.dumps(data, ensure_ascii=ascii_only, separators=(",", ":"))
        size = len(text.encode("utf-8"))
        if size > JSON_SIZE_LIMIT:
            self.error(f"cannot save {echoed(path, 120)}: the save would be {size / 1e6:.0f} MB, and a save is read "
                       f"back only up to {JSON_SIZE_LIMIT / 1e6:.0f} MB (the match goes on)")
            return False
        try:
            # never wait on a FIFO or write through a device: a save is a regular file (asked first too:
            # a FIFO with no reader refused the open itself, "No such device or address")
            if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
                raise OSError(0, "not a regular file")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o644)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise OSError(0, "not a regular file")
                os.ftruncate(fd, 0)
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    fd = None
                    file.write(text)
            finally:
                if fd is not None:
                    os.close(fd)
        except OSError as error:
            self.error(f"cannot save {echoed(path, 120)}: {echoed(str(error.strerror or error), 200)}")
            return False
        ir = getattr(self.game, "ir", None) or {}
        secret = any(z.get("visibility") not in (None, "public") for z in ir.get("zones") or ()) or \
            any(v.get("visibility") not in (None, "public") for v in ir.get("vars") or ())
        # (the file names every hidden card: said at the table, where two people may share it — a
        # first hour at the terminal; the README said so, the table did not)
        if secret and not getattr(self, "told_secret_save", False):     # (once a session, before it)
            self.say("(a save holds every hidden card: keep the file from the other players)")
            self.told_secret_save = True
        self.say(f"saved {printable(path)}")
        self.saved_as = (self.match, len(self.match.log), printable(path))     # (quitting now: nothing to ask)
        return True

    def load(self, path: str) -> bool:
        """Rebuilds the saved match by replaying its log on this game; the match goes on unchanged
        if the save is not of these rules and players, or does not replay to its saved position."""
        if not path:
            self.error("load needs a file name, e.g. load match.json")
            return False
        try:
            data = read_save(path, self.game, self.match.players)
            seats: dict[int, tuple] = {}     # (for `log`: who made each move, what it wrote, and
            asked: dict[int, str] = {}       #  the question each answer answered)
            match = rebuild(data, self.game, moves=seats, asked=asked)
        except StateError as error:
            self.error(f"cannot load {echoed(path, 120)}: {echoed(str(error), 200)}")
            return False
        if self.interactive and not self.watching and not self.match.is_over and self.match.log:
            # (as quit does: `load` threw the game in play away unasked — a first hour at the terminal)
            if self.offer_save("Save this game before loading the other? File name (Enter: don't save; "
                               "back: go on with this one): "):
                self.say("not loaded: this game goes on")
                return False
        self.seed = data["seed"]
        self.seed_secret = data.get("seed_secret") is True and not self.watching
        self.options = data["options"]
        self.log_meta, self.asked = seats, asked
        self.match = match
        self.since_at = {}                    # (the recaps of the game played before: not this one's)
        self.undo_history()                   # (its moves may be undone as if played here)
        self.rewind(match, f"loaded {printable(path)}")
        self.recaps_from_log()
        return True

    def quit(self, _argument: str) -> bool:
        if self.interactive and not self.watching and not self.match.is_over:
            code = self.leave()               # (as help says: at a terminal, offer to save first)
            if code is None:
                return False                  # (`back`: the game goes on)
            raise _Stop("", code)
        raise _Stop("", 0)

    def leave(self) -> int | None:
        """Ctrl-D, Ctrl-C or `quit` at a terminal: offer to save, then leave (0); None when the
        player would rather go on playing (`back`, or a command such as `undo` typed there)."""
        if self.offer_save():
            self.say("back to the game")
            return None
        self.say("left the game")
        return 0

    def looks_like_a_move(self, typed: str) -> bool:
        """Would `typed` play a move at the game's prompt now (its text, its number, a short form: `7h`,
        `flip`, `play 6c`)? A fuzz trial's `1` and `discard 7h`, typed at the offer to save, were saved as
        files named so, and the game left; `play later`, no move, is a file name. Asked quietly."""
        if not typed.strip():
            return False                          # (Enter: leave without saving)
        try:
            actions = self.match.legal_actions()
        except (RuleRuntimeError, EngineFault):  # (a rule error: then it is no move)
            return False
        kept = self.__dict__.get("held_lines")
        self.held_lines = []                      # (what picking says, were it typed there, is not said)
        try:
            return bool(actions) and self.pick(typed.strip(), actions) is not None
        except (RuleRuntimeError, EngineFault, ValueError, KeyError, IndexError):
            return False
        finally:
            self.held_lines = kept

    def offer_save(self, prompt: str = "Save before leaving? File name (Enter: don't save; back: play on): ") -> bool:
        """Ask for a file to save the match in before leaving (or loading another); True: the
        player goes back to it."""
        if self.match.is_over:
            return False
        saved = getattr(self, "saved_as", None)
        if saved is not None and saved[0] is self.match and saved[1] == len(self.match.log):
            self.say(f"(saved as {saved[2]}: nothing played since)")
            return False
        while True:
            try:
                path = self.read_line(prompt)
            except KeyboardInterrupt:
                path = None
            if path is None:
                self.stdout.write("\n")
                return False
            path = path.strip()
            if path.lower() in ("n", "no", "q", "quit", "exit"):   # (an answer, not a file called `n`;
                return False                     # `q` again: leave unsaved — a first hour saved a file `q`)
            if path.lower() in ("y", "yes", "save"):
                prompt = "The file's name (Enter: don't save; back: play on): "
                continue
            if path.lower() == "back" or path.lower() in COMMAND_NAMES and path.lower() not in LEAVING:
                return True                      # (`undo` here meant the game, not a file called undo)
            word, _, rest = path.partition(" ")
            if word.lower() == "save" and rest.strip():
                path = rest.strip()              # (`save mygame` at this prompt: the name is mygame)
            elif rest and word.lower() in COMMAND_NAMES:
                # (`look Buccaneer` typed on after quitting is a command, not a file to fill with secrets)
                # (said alike when leaving and when loading another match: neither "ending" nor
                # without `back`, which the prompt offers — a first hour at the terminal)
                self.error(f"'{echoed(path)}' is a command: type back to play on and type it there, a file "
                           f"name to save the match, or Enter to go on without saving")
                continue
            elif self.looks_like_a_move(path):
                # (a terminal trial: `end turn` and `begin`, typed on after a Ctrl-C, were saved as files)
                self.error(f"'{echoed(path)}' is a move: type back to play on, a file name to save the "
                           f"match, or Enter to go on without saving")
                continue
            if not path or self.write_save(path):
                return False


def command_help(word: str) -> str | None:
    """`help COMMAND`: the lines of HELP about a command (None: no command is so named)."""
    word = word.lower()
    if word not in COMMAND_NAMES:
        return None
    out: list[str] = []
    taking = False
    for line in HELP.split("\n")[1:]:
        if re.match(r"  \S", line):          # a command's line: ours if it names the command
            names = re.split(r",\s*", re.split(r"\s{2,}", line.strip())[0])
            taking = any(n.split()[0].lower() == word for n in names if n.split())
        if taking:
            out.append(line)
    return "\n".join(out) if out else None


def read_save(path: str, game, players: int) -> dict:
    """The contents of a save file of this game (these very rules) and player count; StateError
    saying why not (without the path, which the caller names)."""
    data = read(path)
    check_game(data, game)
    if data["players"] != players:
        raise StateError(f"it was saved with {data['players']} players, this match has {players}")
    return data


def _replaceable(path: str) -> bool:
    """May a save be written to `path`: nothing is there, an empty file, or a saved match (or what is
    no regular file: the write says why it cannot). A file that cannot be read is not replaced (a fuzz
    trial: a write-only file would have been)."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            return True
        with open(path, "rb") as file:
            head = file.read(256)
    except OSError:
        return False
    return b'"rulelang_save"' in head
