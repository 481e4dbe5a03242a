"""The terminal player behind `rulelang play`.

A human seat is shown only what `match.view` gives that seat; when two humans share
the terminal and see different things, the screen is cleared and the terminal handed
over before the next one's view appears. Bots play the other seats (with every seat a bot,
the game is watched move by move). Any problem with what was typed is one line and a new
prompt: a typo must never end a game. Everything the rule file or a save wrote (names,
labels, actions) is shown through `printable`, so none of it can send the terminal a
command; our own colours are added after that, and only on a terminal (never with NO_COLOR).
Glyphs the terminal's encoding cannot show are given ASCII stand-ins (textsafe.fit), and an
action may be typed as it is shown.

At a terminal, input has line editing, history and Tab completion (the standard `readline`);
the end of input (Ctrl-D) or Ctrl-C at any prompt offers to save the match before leaving.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import sys
import textwrap
import time

from .bots import bot_seed, make_bot
from .. import interrupt_seat
from ..core.errors import EngineFault, IllegalAction, RuleRuntimeError, StateError, fault_report
from .replay import check_game, read, rebuild, save_data
from ..core.textsafe import fit, printable
from .pager import MORE, find_section, key_of, overview, pages, sections
from .screen import Texts, Thinking, changes, fit_screen, without_internal, terminal_size, wrap_text
from .render import (kind_noun, legend_lines, outcome_headline, plural, render_outcome,  # noqa: F401 (kind_noun: the API)
                     render_view, render_zone, seat_name, view_parts, _name, _wrapped)
from .rulebook import action_help, component_texts, rulebook  # noqa: F401  (the REPL's `rules` and `help`)

CLEAR_SCREEN = "\033[H\033[2J\033[3J"
MAX_CANDIDATES = 8           # ambiguous-prefix candidates listed on the one error line

HELP = """\
Choose an action by its number, its text, or the start of its text or of a word
in it, when only one action has it (any case: `outbreak` for `act Outbreak`).
Commands:
  help, ?      show this text
  help ACTION  what an action does and when it is allowed (help play)
  help NAME, look NAME
               the rules text of a card, character, piece… (Tab completes names)
  rules        the basics (how to win, a turn) and a list of sections; at a
               terminal it stops at each screenful (Enter: on, q: stop)
  rules KEY    one section (rules turn, rules cards), or one card: rules NAME
  rules all    the whole rulebook
  board, table, hand, status
               draw again: the board (and its key), the table, your own cards,
               the status
  more         every choice, one a line
  clear        clear the screen and draw your decision again
  recap        what happened since your last move (the other players' turns)
  log          list the actions played so far, with the questions answered
  undo         go back to the previous decision of a human player
  as P2        let another player at the terminal act now, out of turn (an
               any-time action)
  save FILE    write the match to FILE
  load FILE    continue a match written by save
  quit, exit, q  leave the game (Ctrl-D too; at a terminal it offers to save
               first)"""

# ANSI styles, used only when the output is a terminal and NO_COLOR is not set
STYLES = {"header": "1;36", "prompt": "1", "error": "31", "move": "33", "message": "35", "over": "1;32",
          "dim": "2"}
COMMAND_NAMES = ("help", "?", "rules", "log", "undo", "as", "save", "load", "quit", "exit", "q", "look", "board",
                 "table", "hand", "status", "more", "recap", "clear")
REDRAW = ("board", "table", "hand", "status", "more", "recap", "clear")     # commands only when typed alone (an action may start so)


class _Stop(Exception):
    """Ends the session early, with the exit code to return."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def run_repl(game, players: int, seed: int, options: dict | None = None,
             bots: dict[int, str] | None = None, stdin=None, stdout=None,
             source_path: str | None = None, match=None, delay: float = 0.0, color: bool | None = None,
             screen: tuple[int, int] | None = None, pager: bool | None = None) -> int:
    """Plays one match at the terminal; returns the exit code (0 unless a rule error stopped it).

    `bots` maps 0-based seats to bot kinds; every other seat is a human. `match` continues a
    match already under way (a resumed save) instead of a new one. With every seat a bot the
    game is watched: each move with the board before it, `delay` seconds apart. `color`
    None: colours when the output is a terminal and NO_COLOR is not set. `screen`: (columns,
    lines) to fit each decision into (None: the terminal's size; no fitting when the output is
    not a terminal). `pager`: whether long output stops at each screenful (`-- more --`) and the
    bots' lines wait before the next decision when they would scroll away (None: when input and
    output are a terminal).
    """
    session = _Session(game, players, seed, options, bots or {},
                       stdin or sys.stdin, stdout or sys.stdout, source_path, match, delay, color, screen, pager)
    return session.run()


class _Session:
    def __init__(self, game, players, seed, options, bots, stdin, stdout, source_path, match=None,
                 delay=0.0, color=None, screen=None, pager=None):
        for seat in bots:
            if not 0 <= seat < players:
                raise ValueError(f"no seat {seat_name(seat)} in a {players}-player match")
        self.game = game
        self.seed = seed
        self.options = options or {}
        self.stdin = stdin
        self.stdout = stdout
        self.source_path = source_path
        self.match = match if match is not None else game.new_match(players, seed, options)
        self.bots = {seat: make_bot(kind, bot_seed(seed, seat)) for seat, kind in bots.items()}
        self.undo_stack: list[dict] = []     # states just before each human decision
        self.crossed: list = []              # per undo_stack entry: why undoing to it is refused, or None
        self.on_screen: int | None = None    # the human whose view was shown last
        self.events: list[tuple[str, str]] = []   # (line, style) of every move and public message announced
        self.seen = [0] * self.match.players     # how many of them each seat has had on its screen
        self.last_move: str | None = None    # the last move announced
        self.commands = {"help": self.help, "?": self.help, "rules": self.rules, "log": self.show_log,
                         "undo": self.undo, "save": self.save, "load": self.load, "quit": self.quit,
                         "exit": self.quit, "q": self.quit, "as": self.interrupt, "look": self.look,
                         "board": self.redraw_board, "table": self.redraw_table, "hand": self.redraw_hand,
                         "status": self.redraw_status, "more": self.more, "recap": self.recap,
                         "clear": self.redraw}
        self.screen = screen                 # (columns, lines) to fit a decision into; None: the terminal's
        self.pending_line: str | None = None  # typed at a hand-over prompt: the next prompt's input
        self.asked: dict[int, str] = {}       # log index -> the question that action answered
        self.log_meta: dict[int, tuple] = {}  # log index -> (who acted, first and end message it wrote)
        self.offered: list = []              # the actions (or texts) offered at the prompt now
        self.texts: Texts | None = None
        self.was_choice = False                       # was the last move an answer to a choice?
        self.was_secret = False                       # was it an answer to a simultaneous step?
        self.revealed: list = []                      # the answers it revealed, if it was the last one
        self.told = 0                                 # messages announced (public) so far
        self.told_to = [0] * self.match.players       # messages shown to each seat so far
        self.watching = len(self.bots) == self.match.players
        self.delay = max(0.0, float(delay or 0.0))
        self.encoding = getattr(stdout, "encoding", None) or "utf-8"
        self.interactive = _isatty(stdin)
        if color is None:
            color = _isatty(stdout) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        self.color = bool(color)
        self.completions: list[str] = []
        self.readline = self._line_editing()
        self.paging = (_isatty(stdin) and _isatty(stdout)) if pager is None else bool(pager)
        self.recording: list[str] | None = None   # lines said since the human at the terminal acted
        self.paused = 0                            # of them, those said since the last `-- more --`
        self.recording_seat: int | None = None     # the seat whose move began the recording
        self.recap_lines: list[str] = []           # what `recap` shows again
        self.recap_note = False                    # say on the next screen that lines scrolled away

    def size(self) -> tuple[int, int] | None:
        """(columns, lines) to fit a decision into; None: no fitting (output that is no terminal)."""
        return self.screen or terminal_size(self.stdout)

    def names(self) -> Texts:
        """The names a player may look up, and their texts (made once: the rules do not change)."""
        if self.texts is None:
            viewer = self.on_screen if self.on_screen is not None else 0
            self.texts = Texts(self.game, self.match, viewer)
        return self.texts

    # -- the loop ---------------------------------------------------------------

    def run(self) -> int:
        self.say(f"{printable(self.game.name)}: {plural(self.match.players, 'player')}, seed {self.seed}")
        self.say("  " + ", ".join(f"{seat_name(s)} {self.player_kind(s)}" for s in range(self.match.players)))
        if self.match.log:
            self.say(f"  resumed after {plural(len(self.match.log), 'move')}")
        self.say("Type help for commands, rules for the rules." if not self.watching else
                 "Watching the bots play" + (f", {self.delay:g} s a move." if self.delay else "."))
        try:
            self.tell_public()
            while not self.match.is_over:
                seat = self.match.current_player
                if seat in self.bots:
                    self.bot_turn(seat)
                else:
                    self.human_turn(seat)
        except _Stop as stop:
            if str(stop):
                self.say(str(stop))
            return stop.code
        except KeyboardInterrupt:             # Ctrl-C while a bot was thinking
            self.say("")
            if self.interactive and not self.watching:
                return self.leave()
            self.say("interrupted")
            return 130
        self.game_over()
        return 0

    def game_over(self) -> None:
        outcome = self.match.outcome
        reason = outcome.get("reason")
        try:
            sides = self.match.sides()
        except Exception:                     # (a side the rules cannot compute: left out)
            sides = None
        who = outcome_headline(outcome, sides)
        if reason:
            self.say(f"Game over: {who}. Why: {printable(reason)}", "over")
        elif self.last_move:
            self.say(f"Game over: {who}. The last move: {self.last_move}", "over")
        else:
            self.say(f"Game over: {who}.", "over")
        seat = self.on_screen if self.on_screen is not None else 0
        try:
            self.show_view(seat)
        except RuleRuntimeError as error:
            self.say(f"rule error: {printable(error)}", "error")
        # the reason again right above the result: the view drawn above scrolls the first line away
        if reason:
            self.say(f"Why: {printable(reason)}", "over")
        elif self.last_move:
            self.say(f"Why: the last move ended the game: {self.last_move}", "over")
        else:
            self.say("Why: the rules ended the game before any move", "over")
        self.say(render_outcome(outcome, [self.player_kind(s) for s in range(self.match.players)], sides))

    def bot_turn(self, seat: int) -> None:
        """One bot move; a rule error goes back to the last human decision, as there is nothing a bot could do."""
        bot = self.bots[seat]
        if self.watching:
            self.show_view(seat)
            self.tell_private(seat)
        before = self.before_view()
        try:
            with Thinking(self.stdout, f"{seat_name(seat)} ({bot.kind})", _isatty(self.stdout)):
                action = bot.choose(self.match)
            self.was_choice = self.match.question is not None
            self.apply(action)
        except (RuleRuntimeError, EngineFault) as error:
            what = self.fault_text(error)
            if not self.undo_stack or self.crossed[-1] is not None:
                raise _Stop(f"{what}\nthe game cannot go on", 1) from None
            self.crossed.pop()
            self.rewind(self.restore(self.undo_stack.pop()),
                        f"{what}\nback to the previous decision of a human player")
            return
        self.announce(f"{seat_name(seat)} ({bot.kind}) {self.played(action)}")
        told = self.told
        self.tell_public()
        if self.on_screen is not None:       # the player at the terminal: what the move told them alone
            self.tell_private(self.on_screen)
        self.tell_changes(before, action, told)
        if self.watching and self.delay:
            time.sleep(self.delay)

    def human_turn(self, seat: int) -> None:
        """Shows the view and reads lines until the match changes (an action, undo or load)."""
        actions = self.match.legal_actions()
        self.offered = actions
        self.take_terminal(seat, actions)
        others = self.interrupters(seat)
        if others:
            self.say("  (another player may act now, out of turn: "
                     + ", ".join(f"as {seat_name(s)}" for s in others) + ")")
        self.completions = [self.show_text(a) for a in actions]
        while True:
            if self.pending_line is not None:     # typed at the hand-over prompt: it counts
                line, self.pending_line = self.pending_line, None
                self.say(f"{seat_name(seat)}> {self.show_text(line)}")
            else:
                line = self.ask(f"{seat_name(seat)}> ")
            line = " ".join(line.split())
            if not line:
                continue
            word, _, argument = line.partition(" ")
            command = self.commands.get(word.lower())
            if word.lower() in REDRAW and argument:     # `hand over …`: an action's text, not a command
                command = None
            if command is not None:
                if command(argument):
                    return
                continue
            action = self.pick(line, actions)
            if action is not None and self.play(seat, action):
                return

    def take_terminal(self, seat: int, actions=None) -> None:
        """`seat` sits at the terminal (after a hand-over if the screen would show them secrets):
        their view, then what happened since their last move, for them alone too; then the
        actions offered, fitted with the view into the terminal's size."""
        recorded, self.recording = self.recording, None
        if recorded is not None:             # (never another seat's lines: they may hold its secrets)
            self.recap_lines = recorded if self.recording_seat == seat else []
            self.recap_note = bool(self.recap_lines)
        if self.needs_hand_over(seat):
            self.hand_over(seat)
        self.on_screen = seat
        self.seen[seat] = len(self.events)
        self.tell_private(seat)
        self.draw(seat, actions)

    def interrupters(self, seat: int) -> list[int]:
        """The other humans at the terminal, when the rules have any-time actions they might use."""
        if not self.game.has_interrupts or self.match.question is not None:
            return []
        return [s for s in range(self.match.players) if s != seat and s not in self.bots]

    def interrupt(self, argument: str) -> bool:
        """`as P3`: P3 takes the terminal to use an any-time action while another player is to act.
        P3 sees their own view and their own offers only; nobody else learns what P3 could do."""
        seat = interrupt_seat(argument.strip().upper() + ": ")
        if seat is None or not 0 <= seat < self.match.players:
            self.error(f"as needs a seat, P1-P{self.match.players}")
            return False
        if seat in self.bots:
            self.error(f"{seat_name(seat)} is a bot")
            return False
        if seat == self.match.current_player:
            self.error(f"{seat_name(seat)} is the one to act now")
            return False
        offers = self.match.interrupts(seat)
        prefix = seat_name(seat) + ": "
        texts = [action.text[len(prefix):] for action in offers]
        self.offered = texts
        self.take_terminal(seat, texts if offers else [])
        if not offers:
            self.say(f"{seat_name(seat)} has nothing to do out of turn now.")
            self.ask("Press Enter to give the terminal back ")
            return True
        self.say("  (or back: nothing now)")
        self.completions = [self.show_text(t) for t in texts] + ["back"]
        while True:
            line = " ".join(self.ask(f"{seat_name(seat)} (out of turn)> ").split())
            if line.lower() in ("", "back"):
                return True
            text = self.pick(line, texts)
            if text is not None:
                self.was_choice = False
                if self.play(seat, offers[texts.index(text)]):
                    return True

    def pick(self, line: str, actions: list):
        """The action meant by a number, a text or a unique prefix; None (and one line said) otherwise.
        A text may be typed as the rules write it or as this terminal shows it (`8H` for `8♥`)."""
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(actions):
                return actions[number - 1]
            self.error(f"there is no action {number}; choose 1-{len(actions)}")
            return None
        wanted = line.lower()
        texts = [" ".join(str(action).lower().split()) for action in actions]
        shown = [fit(text, self.encoding).lower() for text in texts]
        for action, text, seen in zip(actions, texts, shown):
            if wanted in (text, seen):
                return action
        matches = [action for action, text, seen in zip(actions, texts, shown)
                   if text.startswith(wanted) or seen.startswith(wanted)]
        if not matches:                      # the start of a word after the first (`outbreak`: `act Outbreak`)
            inner = re.compile(r"(?<=\s)" + re.escape(wanted))
            matches = [action for action, text, seen in zip(actions, texts, shown)
                       if inner.search(text) or inner.search(seen)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            listed = ", ".join(self.show_text(action) for action in matches[:MAX_CANDIDATES])
            more = f" and {len(matches) - MAX_CANDIDATES} more" if len(matches) > MAX_CANDIDATES else ""
            self.say(f"ambiguous: '{printable(line)}' could be {listed}{more}", "error")
        else:
            self.error(f"'{printable(line)}' is not a legal action or a command (type help)")
        return None

    def play(self, seat: int, action) -> bool:
        """Applies a human's action; True if the match changed or was restored after a rule error."""
        before = self.match.state()
        seen_before = self.before_view()
        self.was_choice = self.match.question is not None
        self.undo_stack.append(before)
        self.crossed.append(None)
        try:
            self.apply(action)
        except IllegalAction as error:
            self.undo_stack.pop(), self.crossed.pop()
            self.error(printable(error))
            return False
        except (RuleRuntimeError, EngineFault) as error:
            self.undo_stack.pop(), self.crossed.pop()
            self.say(self.fault_text(error), "error")
            self.match = self.restore(before)        # (the engine leaves it so; a match of another make may not)
            return True
        self.recording, self.recording_seat = [], seat     # (for `recap`: from this move to their next)
        self.announce(f"{seat_name(seat)} {self.played(action)}")
        told = self.told
        self.tell_public()
        self.tell_private(seat)              # (still at the terminal: what the move told them alone)
        self.tell_changes(seen_before, action, told)
        self.seen[seat] = len(self.events)   # all that was on their screen as it happened
        return True

    def apply(self, action) -> None:
        """Apply an action and note whether it told a human seat something hidden: then no undo
        may go back past it (the player would replay knowing the card, the roll, the shuffle)."""
        match = self.match
        humans = [p for p in range(match.players) if p not in self.bots]
        before = {p: match.visible_to(p) for p in humans}
        actor = interrupt_seat(str(action))
        actor = match.current_player if actor is None else actor
        own = before.get(actor, set())          # a human showing their own card tells them nothing
        told = len(match.message_log())
        question = match.question
        together = match.simultaneous                          # (engine/simultaneous.py)
        self.was_secret = together is not None
        logged = len(match.log)
        match.apply(action)
        self.revealed = []
        if together is not None and len(match.log) > logged:    # the last answer: one entry per player asked
            public, raw = match.log_for(None)[logged:], match.log[logged:]
            self.revealed = [text if text == mine else f"{seat_name(seat)}: {text}"     # (a drafted card stays secret)
                             for seat, text, mine in zip(together["seats"], public, raw)]
        self.note_log(logged, actor, together, told)
        if question is not None and match.log:      # the question this answer was to (for `log`)
            self.asked[len(match.log) - 1] = str(question.get("prompt") or "")
        reason = learned(match, {p: seen | own for p, seen in before.items()}, told)
        if reason is not None and self.crossed:
            self.crossed[-1] = reason

    def note_log(self, logged: int, actor, together, told: int) -> None:
        """For `log`: who made each new log entry, and the messages the move wrote (under its last entry)."""
        new, messages = len(self.match.log), len(self.match.message_log())
        seats = list(together["seats"]) if together is not None else []
        for i in range(logged, new):
            k = i - logged
            seat = seats[k] if len(seats) == new - logged else actor
            self.log_meta[i] = (seat, messages, messages) if i < new - 1 else (seat, told, messages)

    @staticmethod
    def fault_text(error) -> str:
        if isinstance(error, EngineFault):
            return printable(f"internal error: {error} (please report this; {fault_report(error)})")
        return f"rule error: {printable(error)}"

    # -- what happened: moves, answers and messages, each shown only to who may see it ------

    def played(self, action) -> str:
        """How a move is announced to everyone at the terminal. A choice's answer that names a
        card some player cannot see is announced without its text."""
        text = str(action)
        if interrupt_seat(text) is not None:                  # an interrupt: `P3: reveal`
            text = text.partition(": ")[2]
        if self.was_secret:                 # a simultaneous step's answer: never its text before all are in
            revealed = self.revealed
            if not revealed:
                return "answers in secret"
            return "answers in secret; every answer is revealed: " + " · ".join(printable(x) for x in revealed)
        if not self.was_choice:
            return f"plays: {printable(text)}"
        asked = self.asked.get(len(self.match.log) - 1)
        to = f" (asked: {printable(asked)})" if asked and not asked.startswith("respond in ") else ""
        if self.secret_answer():
            return "makes a secret choice" + to
        return f"chooses: {printable(text)}{to}"

    def secret_answer(self) -> bool:
        """Did the answer just given name a component some seat could not see? (The engine
        decides, by the component itself: `Match.log_for`.)"""
        log = self.match.log
        return bool(log) and self.match.log_for(None)[-1] != log[-1]

    def tell_public(self) -> None:
        """Announce the messages for everyone the last move wrote."""
        messages = self.match.message_log()
        for entry in messages[self.told:]:
            if entry["to"] is None:
                self.announce(f"  > {printable(entry['text'])}", "message")
        self.told = len(messages)

    def tell_private(self, seat: int) -> None:
        """Show a seat the messages written to it alone, once its own view is on screen."""
        messages = self.match.message_log()
        for entry in messages[self.told_to[seat]:]:
            if entry["to"] is not None and seat in entry["to"]:
                to = "you" if seat not in self.bots else seat_name(seat)     # (a watched bot's)
                self.say(f"  (to {to}) {printable(entry['text'])}", "message")
        self.told_to[seat] = len(messages)

    # -- hot seat ---------------------------------------------------------------

    def needs_hand_over(self, seat: int) -> bool:
        previous = self.on_screen
        return previous is not None and previous != seat and self.sees_differently(previous, seat)

    def sees_differently(self, one: int, other: int) -> bool:
        """Whether the two seats' views differ in anything but whose view it is."""
        def seen(view: dict) -> dict:
            return {key: value for key, value in view.items() if key != "viewer"}
        return seen(self.screen_view(one)) != seen(self.screen_view(other))

    def hand_over(self, seat: int) -> None:
        """Clear the screen, wait for the next player, then tell them what happened since they
        last had the terminal (moves and messages everyone may see)."""
        self.clear_screen()
        typed = " ".join(self.ask(f"Pass the terminal to {seat_name(seat)} and press Enter ").split())
        if typed:                            # (typed already: the next prompt's answer, not lost)
            self.pending_line = typed
        missed = self.events[self.seen[seat]:]
        if missed and self.seen[seat]:
            self.say(f"Since {seat_name(seat)}'s last move:", "dim")
        for line, style in missed:
            self.say(line, style)
        if self.seen[seat]:                  # (public lines only: `recap` shows them again)
            self.recap_lines = [line for line, _ in missed]
            self.recap_note = bool(missed)

    def clear_screen(self) -> None:
        self.stdout.write(CLEAR_SCREEN if _isatty(self.stdout) else "\n" + "=" * 60 + "\n")

    # -- commands: each returns True when the match changed ---------------------

    def help(self, argument: str) -> bool:
        if argument.strip():
            about = command_help(argument.strip())
            text = action_help(self.game, argument.strip(), self.match, self.rules_path())
            if about and text.startswith("error: no action"):      # `help rules`: the command (no action so named)
                self.say(about)
                return False
            if text.startswith("error: no action") and self.names().find(argument.strip(), self.encoding):
                return self.look(argument)
            if text.startswith("error: no action"):
                more = self.names().candidates(argument.strip())
                if more:
                    text += f"; names with rules text like it: {', '.join(more)}"
            self.say(text)
        else:
            self.page(HELP.split("\n"))
        return False

    def look(self, argument: str) -> bool:
        """`look NAME`: the rules text of a component, card or enum value (any seat may read it)."""
        name = argument.strip()
        if not name:
            self.error("look needs a name, e.g. look " + (self.names().names() or ["NAME"])[0])
            return False
        found = self.names().find(name, self.encoding)
        if not found:
            more = self.names().candidates(name)
            self.error(f"no card or piece named '{printable(name)}' has rules text"
                       + (f"; did you mean: {', '.join(more)}" if more else "; look at a name on screen (Tab completes)"))
            return False
        width = (self.size() or (80, 24))[0]
        for shown, text, kind in found:
            self.say(f"{printable(shown)}" + (f" ({_name(kind).lower()})" if kind else ""), "header")
            self.say(wrap_text(printable(text, multiline=True), width - 2))
        return False

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
        parts = view_parts(view, width)
        texts = [self.show_text(a) for a in actions] if actions else []
        self.add_option_texts(view, texts, width)
        parts["choice"] += self.cause_texts(view, seat, width)
        if size is None or not actions:
            lines = parts["header"] + parts["board"] + parts["zone_lines"] + parts["value_lines"] + parts["extra"] \
                + parts["choice"] + [f"  {n}. {t}" for n, t in enumerate(texts, 1)]
        else:
            lines, _ = fit_screen(dict(parts), width, size[1], list(actions), texts)
        note, self.recap_note = self.recap_note, False
        if note and size is not None and len(self.recap_lines) + len(lines) >= size[1]:
            # what happened since the player's move has scrolled away (or will with this screen): say so
            if actions:
                lines, _ = fit_screen(parts, width, size[1] - 1, list(actions), texts)
            self.say(f"({plural(len(self.recap_lines), 'line')} since your last move scrolled up: type recap)", "dim")
        self.say(lines[0], "header")
        if len(lines) > 1:
            self.say("\n".join(lines[1:]))

    def screen_view(self, seat: int) -> dict:
        """A seat's view as the screen shows it: without what the rules keep `internal`."""
        return without_internal(self.match.view(seat))

    def asker(self, view: dict, seat: int) -> str | None:
        """The card or piece a question comes from when no ability of a card asks it (then the
        choice names its card): the first one with rules text named by the action that began the
        effect (`play Gnome on Tortuga` → Gnome), if the seat may see it and the question does not
        name it already. None: none."""
        choice = view.get("choice")
        pending = getattr(self.match, "pending", None)
        if not choice or choice.get("kind") == "window" or not isinstance(pending, dict):
            return None
        if any(f.get("effect") or f.get("source") is not None for f in choice.get("running", [])):
            return None
        root = pending.get("root") or []
        if len(root) != 2 or root[0] != "action":
            return None
        text, prompt = str(root[1]).lower(), str(choice.get("prompt") or "").lower()
        head, colon, _ = prompt.partition(":")
        if colon and self.names().entries.get(" ".join(head.split())):
            return None                          # (it names its card already: `Neophyte: play …?`)
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

    def add_option_texts(self, view: dict, texts: list[str], width: int) -> None:
        """Beside each option of a choice that names a card or piece, the start of its rules text."""
        if not view.get("choice") or not texts:
            return
        names = self.names()
        for i, text in enumerate(texts):
            room = width - len(text) - 10
            short = names.short(text, room) if room > 12 else None
            if short:
                texts[i] = f"{text} — {short}"

    def cause_texts(self, view: dict, seat: int, width: int) -> list[str]:
        """Under a decision, the rules text of the card whose ability asks it, when the player may
        see that card (a card handed to them and read in secret included): what it asks of them."""
        choice = view.get("choice")
        if not choice or choice.get("chooser") != seat:
            return []
        out = []
        for frame in choice.get("running", []):
            source = frame.get("source")
            if source is None:
                continue
            try:
                text = self.match.rules_text(source, seat)
            except RuleRuntimeError:
                text = None
            if text:
                label = printable(str(frame.get("effect") or "").split(":")[0])
                out += _wrapped(f"  ({label}: {printable(text)})", width)
        return out[-6:]

    def redraw_board(self, _argument: str) -> bool:
        view = self.screen_view(self.viewer())
        parts = view_parts(view, self.width())
        self.say("\n".join(parts["header"] + (parts["board"] or parts["zone_lines"])
                           + (legend_lines(self.game.ir, self.width()) if parts["board"] else [])))
        return False

    def redraw_table(self, _argument: str) -> bool:
        view = self.screen_view(self.viewer())
        parts = view_parts(view, self.width())
        self.page_drawn(parts["header"] + parts["board"] + parts["zone_lines"] + parts["table_lines"])
        return False

    def redraw_hand(self, _argument: str) -> bool:
        viewer = self.viewer()
        view = self.screen_view(viewer)
        mine = [z for z in view["zones"] if z.get("owner") == viewer]
        lines = [render_zone(z) for z in mine] or ["you hold nothing of your own"]
        self.say("\n".join("  " + x for x in lines))
        names = [c["label"] for z in mine for c in (z["cards"] or [])]
        if any(self.names().find(n) for n in names):
            self.say("  (look NAME: a card's text)", "dim")
        return False

    def redraw_status(self, _argument: str) -> bool:
        view = self.screen_view(self.viewer())
        parts = view_parts(view, self.width())
        self.page_drawn(parts["header"] + parts["value_lines"] + parts["extra"] + parts["choice"])
        return False

    def more(self, _argument: str) -> bool:
        texts = [self.show_text(a) for a in self.offered]
        if not texts:
            self.say("nothing to choose now")
            return False
        self.page([f"  {n}. {t}" for n, t in enumerate(texts, 1)])
        return False

    def recap(self, _argument: str) -> bool:
        """`recap`: the lines said from the last move of the player at the terminal to their decision now."""
        if not self.recap_lines:
            self.say("nothing happened since your last move")
            return False
        self.page(["Since your last move:"] + self.recap_lines + ["(clear: your decision again)"])
        return False

    def redraw(self, _argument: str) -> bool:
        """`clear`: a clean screen with the decision on it."""
        self.clear_screen()
        self.draw(self.viewer(), self.offered)
        return False

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
            return seat, self.screen_view(seat)
        except RuleRuntimeError:
            return None

    def tell_changes(self, before, action, told: int) -> None:
        """Lines for what the action changed on the table, as the player at the terminal sees it,
        where the action's text and the messages it wrote said nothing of it."""
        if before is None:
            return
        seat, seen = before
        try:
            after = self.screen_view(seat)
        except RuleRuntimeError:
            return
        said = " ".join([str(action)] + [e["text"] for e in self.match.message_log()[told:]])
        lines = changes(seen, after, said, seat_name)
        if len(lines) > 6:
            lines = lines[:5] + [f"… and {len(lines) - 5} more changes (type table or status)"]
        for line in lines:
            self.say(f"  · {line}", "dim")

    def rules(self, argument: str) -> bool:
        """`rules`: at a terminal the basics and a table of contents, paged; piped, everything.
        `rules KEY`: one section, or one group of cards and pieces; `rules NAME`: one's text."""
        text = rulebook(self.game, source=self.rules_path())
        wanted = " ".join(argument.split())
        ir = getattr(self.game, "ir", None)
        groups = component_texts(self.game, ir) if ir is not None else []
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
                if self.names().find(wanted, self.encoding):
                    return self.look(wanted)
                self.error(f"the rules have no section '{printable(wanted)}'; type rules for the list")
                return False
        self.page(lines)
        return False

    def page_drawn(self, lines: list[str]) -> None:
        """Lines already fitted to the width (a board, a status), a screenful at a time at a
        terminal: a status or a table taller than the screen is read from its top."""
        rows = [row for line in lines for row in line.split("\n")]
        if not self.paging:
            self.say("\n".join(rows))
            return
        self.page_rows(rows)

    def page_rows(self, rows: list[str]) -> None:
        """Rows of the screen's width, a screenful at a time (Enter: the next, q: stop)."""
        screens = pages(rows, (self.size() or (80, 24))[1])
        for i, screen in enumerate(screens):
            self.say("\n".join(screen))
            if i < len(screens) - 1 and self.ask(MORE).strip().lower().startswith("q"):
                return

    def page(self, lines: list[str]) -> None:
        """Lines, a screenful at a time at a terminal (Enter: the next, q: stop); all at once otherwise."""
        size = self.size() or (80, 24)
        if not self.paging:
            self.say("\n".join(lines))
            return
        rows = []
        for line in lines:
            lead = " " * (len(line) - len(line.lstrip()))
            if lead or line.startswith("- "):
                lead += "  " if line.lstrip().startswith("- ") or not line.lstrip().startswith("rules ") else " " * 19
            rows += textwrap.wrap(line, size[0] - 1, subsequent_indent=lead, break_long_words=True,
                                  break_on_hyphens=False) or [""]
        self.page_rows(rows)

    def rules_path(self) -> str | None:
        """The rule file this game was read from, for the rulebook's quotes (None: not a .rules file)."""
        for path in (self.source_path, getattr(self.game, "path", None)):
            if path and str(path).endswith(".rules"):
                return str(path)
        return None

    def show_log(self, _argument: str) -> bool:
        # an answer naming a card the player at the terminal could not see is not repeated (nor,
        # with nobody's secrets on screen, one that any player could not see)
        reader = self.on_screen if self.on_screen is not None and self.on_screen not in self.bots else None
        log = self.match.log
        shown = self.match.log_for(reader)

        messages = self.match.message_log()

        def entry(i: int, text: str) -> str:
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
        if not log:
            self.say("no actions yet")
            return False
        self.page("\n".join(f"  {n}. {entry(n - 1, text)}" for n, text in enumerate(shown, 1)).split("\n"))
        return False

    def undo(self, _argument: str) -> bool:
        if not self.undo_stack:
            self.say("nothing to undo")
            return False
        if self.crossed[-1] is not None:
            self.say(f"cannot undo: since that decision {self.crossed[-1]}, and undoing would let it be "
                     f"played again knowing it", "error")
            return False
        self.crossed.pop()
        self.rewind(self.restore(self.undo_stack.pop()), "undone")
        return True

    def save(self, path: str) -> bool:
        if not path:
            self.error("save needs a file name, e.g. save match.json")
            return False
        self.write_save(path)
        return False

    def write_save(self, path: str) -> bool:
        data = save_data(self.game, self.match, self.seed, self.options)
        if "\0" in path:
            self.error(f"cannot save {printable(path)}: a file name cannot hold a NUL byte")
            return False
        try:
            # never wait on a FIFO or write through a device: a save is a regular file
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o644)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise OSError(0, "not a regular file")
                os.ftruncate(fd, 0)
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    fd = None
                    json.dump(data, file, ensure_ascii=False, indent=1)
            finally:
                if fd is not None:
                    os.close(fd)
        except OSError as error:
            self.error(f"cannot save {printable(path)}: {error.strerror or error}")
            return False
        self.say(f"saved {printable(path)}")
        return True

    def load(self, path: str) -> bool:
        """Rebuilds the saved match by replaying its log on this game; the match goes on unchanged
        if the save is not of these rules and players, or does not replay to its saved position."""
        if not path:
            self.error("load needs a file name, e.g. load match.json")
            return False
        try:
            data = read_save(path, self.game, self.match.players)
            seats: dict[int, tuple] = {}     # (for `log`: who made each move; what it said is not kept)
            match = rebuild(data, self.game, lambda n, seat, _text: seats.__setitem__(n - 1, (seat, 0, 0)))
        except StateError as error:
            self.error(f"cannot load {printable(path)}: {printable(error)}")
            return False
        self.seed = data["seed"]
        self.options = data["options"]
        self.log_meta, self.asked = seats, {}
        self.undo_stack, self.crossed = [], []
        self.rewind(match, f"loaded {printable(path)}")
        return True

    def quit(self, _argument: str) -> bool:
        if self.interactive and not self.watching and not self.match.is_over:
            raise _Stop("", self.leave())     # (as help says: at a terminal, offer to save first)
        raise _Stop("", 0)

    def leave(self) -> int:
        """Ctrl-D or Ctrl-C at a terminal: offer to save, then leave."""
        self.offer_save()
        self.say("left the game")
        return 0

    def offer_save(self) -> None:
        if self.match.is_over:
            return
        while True:
            try:
                path = self.read_line("Save the match before leaving? File name (Enter: leave without saving): ")
            except KeyboardInterrupt:
                path = None
            if path is None:
                self.stdout.write("\n")
                return
            path = path.strip()
            if not path or self.write_save(path):
                return

    # -- helpers ----------------------------------------------------------------

    def restore(self, state: dict):
        return type(self.match).from_state(self.game, state)

    def rewind(self, match, message: str) -> None:
        """Continues from another state of the match; what was announced before no longer applies."""
        self.match = match
        self.seen = [len(self.events)] * match.players
        self.told = len(match.message_log())
        self.told_to = [self.told] * match.players
        self.announce(message)

    def player_kind(self, seat: int) -> str:
        return f"{self.bots[seat].kind} bot" if seat in self.bots else "human"

    def announce(self, line: str, style: str = "move") -> None:
        self.events.append((line, style))
        if style == "move" and not line.startswith("  "):
            self.last_move = line
        self.say(line, style)

    def error(self, text: str) -> None:
        self.say(f"error: {text}", "error")

    def show_text(self, text) -> str:
        return fit(printable(text), self.encoding)

    def show_view(self, seat: int) -> None:
        """A seat's view, its header line in colour."""
        head, _, rest = render_view(self.screen_view(seat), self.width()).partition("\n")
        self.say(head, "header")
        if rest:
            self.say(rest)

    def paint(self, text: str, style: str | None) -> str:
        if not self.color or not style or style not in STYLES:
            return text
        return f"\033[{STYLES[style]}m{text}\033[0m"

    def say(self, text: str, style: str | None = None) -> None:
        """Writes our own lines; anything quoted from rules or saves was made printable already,
        and this pass catches what may have slipped through (keeping our line breaks). Colour
        codes are ours, added after that."""
        shown = fit(printable(text, multiline=True), self.encoding)
        if self.recording is not None:
            self.recording += shown.split("\n")
        self.stdout.write(self.paint(shown, style) + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input. When it is piped, the line is echoed after the prompt so the
        transcript reads well, and its end stops the session; at a terminal its end (Ctrl-D) or
        Ctrl-C offers to save first."""
        try:
            line = self.read_line(prompt)
        except KeyboardInterrupt:
            if not self.interactive:
                raise
            self.stdout.write("\n")
            raise _Stop("", self.leave()) from None
        if line is None:
            self.stdout.write("\n")
            if self.interactive:
                raise _Stop("", self.leave())
            raise _Stop("input ended", 0)
        return line

    def read_line(self, prompt: str) -> str | None:
        """A line typed after `prompt`, None at the end of input."""
        if self.readline is not None:
            try:
                return input(self.paint_prompt(prompt))
            except EOFError:
                return None
        self.stdout.write(self.paint(fit(prompt, self.encoding), "prompt"))
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        if not self.interactive:
            self.stdout.write(self.show_text(line.rstrip("\r\n")) + "\n")
        return line.rstrip("\r\n")

    def paint_prompt(self, prompt: str) -> str:
        """A prompt for readline: its colour codes marked as taking no room (\\001…\\002)."""
        prompt = fit(prompt, self.encoding)
        if not self.color:
            return prompt
        return f"\001\033[{STYLES['prompt']}m\002{prompt}\001\033[0m\002"

    def _line_editing(self):
        """The readline module, set up for this session, when input and output are this process's
        terminal; None otherwise (piped input, a test's streams)."""
        if not (self.stdin is sys.stdin and self.stdout is sys.stdout and _isatty(sys.stdin) and _isatty(sys.stdout)):
            return None
        try:
            import readline
        except ImportError:          # (no readline on this platform: plain input still works)
            return None
        readline.set_completer_delims("")
        readline.set_completer(self.complete)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        return readline

    def complete(self, text: str, state: int) -> str | None:
        """Tab completion: the commands and the texts of the actions offered now."""
        typed = text.lower()
        commands = [c + " " if c in ("help", "save", "load", "as", "look") else c for c in COMMAND_NAMES if len(c) > 1]
        found = [t for t in self.completions + commands if t.lower().startswith(typed)]
        if typed.startswith("rules "):       # rules KEY: the sections' words
            keys = [key_of(title) for title, _ in sections(rulebook(self.game, source=self.rules_path()))[1]]
            found += ["rules " + k for k in keys + ["all"] if ("rules " + k).startswith(typed)]
        for verb in ("look ", "help "):       # look NAME, help NAME: the names with rules text
            if typed.startswith(verb):
                found += [verb + name for name in self.names().names() if (verb + name).lower().startswith(typed)]
        return found[state] if state < len(found) else None


def command_help(word: str) -> str | None:
    """`help COMMAND`: the lines of HELP about a command (None: no command is so named)."""
    word = word.lower()
    if word not in COMMAND_NAMES:
        return None
    out: list[str] = []
    taking = False
    for line in HELP.split("\n")[2:]:
        if re.match(r"  \S", line):          # a command's line: ours if it names the command
            names = re.split(r",\s*", re.split(r"\s{2,}", line.strip())[0])
            taking = any(n.split()[0].lower() == word for n in names if n.split())
        if taking:
            out.append(line)
    return "\n".join(out) if out else None


def learned(match, before: dict, told: int) -> str | None:
    """What the last action told a seat that it could not know before, in words (None: nothing):
    chance drawn (a shuffle, a roll, a random pick), a component a seat now sees that it did not
    (a card drawn from a hidden zone, a reveal), or a message to that seat alone. `before`: each
    watched seat's `visible_to` before the action; `told`: how many messages there were."""
    events = match.chance_events
    if events:
        kind = events[0][0]
        return {"roll": "a die was rolled", "pick": "something was picked at random",
                "shuffle": "cards were shuffled"}[kind]
    for seat, seen in before.items():
        if match.visible_to(seat) - seen:
            return f"{seat_name(seat)} has seen a card that was hidden from them"
    for entry in match.message_log()[told:]:
        if entry["to"] is not None and any(seat in before for seat in entry["to"]):
            return "a player was told something in private"
    return None


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def read_save(path: str, game, players: int) -> dict:
    """The contents of a save file of this game (these very rules) and player count; StateError
    saying why not (without the path, which the caller names)."""
    data = read(path)
    check_game(data, game)
    if data["players"] != players:
        raise StateError(f"it was saved with {data['players']} players, this match has {players}")
    return data
