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
from .screen import Texts, Thinking, changes, fit_screen, join_labels, without_internal, terminal_size, words, wrap_text

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


def seat_name(seat: int) -> str:
    """Seats are 0-based in the API and P1..Pn for people."""
    return f"P{seat + 1}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 player`, `2 players` (`nouns` for an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def kind_noun(kind: str | None) -> tuple[str, str]:
    """A component kind's name as a noun, singular and plural: `Warrior` → warrior, warriors;
    `PlayerCard` → player card, player cards. Without a kind: card, cards."""
    if not kind:
        return "card", "cards"
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind).replace("_", " ").lower().split()
    if not words:
        return "card", "cards"
    last = words[-1]
    if re.search(r"(s|x|z|ch|sh)$", last):
        many = last + "es"
    elif re.search(r"[^aeiou]y$", last):
        many = last[:-1] + "ies"
    else:
        many = last + "s"
    return " ".join(words), " ".join(words[:-1] + [many])


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


# -- rendering: pure functions from view/outcome data to text ----------------

def render_view(view: dict, width: int | None = None) -> str:
    """A seat's view as text: a header, the board drawing if any, the zones and the values."""
    parts = view_parts(view, width)
    return "\n".join(parts["header"] + parts["board"] + parts["zone_lines"] + parts["value_lines"]
                     + parts["extra"] + parts["choice"])


def view_parts(view: dict, width: int | None = None) -> dict:
    """The parts of a view's screen, as lines: `header`, `board`, `zone_lines` and `value_lines`
    (one a line, wrapped), `zones` and `values` (one item each, for a compact layout), `extra`
    (the turn order) and `choice` (the decision waiting, in words). What the rules keep
    `internal` is left out."""
    view = without_internal(view)
    header = [printable(view["game"])]
    turn_player = view.get("turn_player")
    actor = view.get("actor")
    if not view.get("turn") or turn_player is None:
        header.append("setting up")
    else:
        if view.get("round"):                  # a game of rounds: `round 3 · turn 7`
            header.append(f"round {view['round']}")
        header += [f"turn {view['turn']}", f"{seat_name(turn_player)}'s turn"]
    if view.get("step") and not str(view["step"]).startswith("__"):
        header.append(f"step {printable(view['step'])}")
    if actor is not None and not view.get("over") and (actor != turn_player or not view.get("turn")):
        header.append(f"{seat_name(actor)} to act")
    header.append(f"you are {seat_name(view['viewer'])}")
    width = width or max(60, shutil.get_terminal_size((80, 24)).columns)
    lines = ["=="]
    for part in header:                        # a long header goes on over several lines
        if len(lines[-1]) + 3 + len(part) > width and lines[-1] != "==":
            lines.append("  ")
        lines[-1] += (" · " if lines[-1] not in ("==", "  ") else " ") + part
    board = printable(view["board"].rstrip("\n"), multiline=True).split("\n") if view.get("board") else []
    zones = _zone_lines(view["zones"])
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
        choice_lines = [x for x in _wrapped(f"▶ {asked} answer at once, in secret; the answers are revealed "
                                            f"together ({mine})", width)]
    return {"header": lines, "board": board, "zones": zones, "values": values, "zone_lines": zone_lines,
            "value_lines": value_lines, "extra": extra, "choice": choice_lines,
            "zone_ranks": _zone_ranks(view["zones"], view["viewer"]),
            "value_ranks": [0 if v.get("own") else 1 if v.get("table") else 2 for v in view["values"]],
            "table_lines": [x for v, line in zip(view["values"], values) if v.get("table")
                            for x in _wrapped(line, width)]}


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
            cause = printable(str(effect).split(":")[0])
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


def _zone_lines(zones: list) -> list[str]:
    """A line per zone; of a family per enum value(s) (`trail (P1, R)`…) only the members holding
    something, and one line for those that are empty."""
    lines, empty = [], {}
    for zone in zones:
        if zone.get("key_text") and zone["count"] == 0:
            if zone["name"] not in empty:
                empty[zone["name"]] = len(lines)
                lines.append(None)
            continue
        lines.append(render_zone(zone))
    for name, at in empty.items():
        lines[at] = f"{_name(name)}: the others empty" if any(
            z["name"] == name and z.get("key_text") and z["count"] for z in zones) else f"{_name(name)}: all empty"
    return lines


def legend_lines(ir: dict, width: int) -> list[str]:
    """The board's key, as the rule file declares it (`board … , legend [...]`): one entry a line."""
    legend = next((b.get("legend") for b in ir.get("boards") or [] if b.get("legend")), None)
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


def render_zone(zone: dict) -> str:
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
        shown = [card["label"] for card in known if card.get("revealed")]
        private = [card["label"] for card in known if not card.get("revealed")]
        seen = (f", revealed: {join_labels(shown)}" if shown else "") \
            + (f" (you know: {join_labels(private)})" if private else "")
        if count is None:                      # `uncounted`: not even how many
            return f"{name}: hidden, how many is not known{seen}"
        if shown and len(shown) == count:          # every one revealed to everyone: by name
            return f"{name}: {plural(count, one, many)}, revealed: {join_labels(shown)}"
        return f"{name}: {plural(count, one, many)}, hidden{seen}"
    if not zone["cards"]:
        return f"{name}: empty"
    if zone.get("top_only"):                   # only the top is seen
        return f"{name}: {plural(count, one, many)}, top: {printable(zone['cards'][-1]['label'])}"
    order = ", bottom to top" if zone.get("ordered") and count > 1 else ""
    return f"{name}: {plural(count, one, many)}{order}: " + join_labels(card["label"] for card in zone["cards"])


def render_value(value: dict) -> str:
    """`name = value` (a rule file's name), `Label: value` (a value the rules label: `show "Enemy
    health" = …`), a per-player value `name: P1 …, P2 …`, a long list one item a line."""
    labelled = bool(value.get("label"))
    name = printable(value["name"]) if labelled else _name(value["name"])
    if "per_player" in value:
        row = value.get("texts") or value["per_player"]
        return f"{name}: " + ", ".join(f"{seat_name(seat)} {_show(v)}" for seat, v in enumerate(row))
    if "per_key" in value:                     # per enum value(s): `score: R 3, B 0`
        return f"{name}: " + ", ".join(
            f"({printable(x['key_text'])}) {_show(x['text'] if isinstance(x.get('text'), str) else x['value'])}"
            for x in value["per_key"] if x["value"] is not None)
    shown = value["text"] if isinstance(value.get("text"), str) else value["value"]
    if isinstance(shown, list) and sum(len(str(x)) for x in shown) > 70:   # a long list: one item a line
        return f"{name}:" + "".join(f"\n    {_show(x)}" for x in shown)
    return f"{name}: {_show(shown)}"


def render_outcome(outcome: dict, kinds: list[str], sides: list[str] | None = None) -> str:
    """Each seat's result (and side and score, when the game has them)."""
    scores = outcome.get("scores")
    lines = ["Result:"]
    for seat, result in enumerate(outcome["results"]):
        score = f", score {_show(scores[seat])}" if scores else ""
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
                "score": "the best score wins (a full tie is a draw)"}


def rulebook(game, markdown: bool = False, source: str | None = None) -> str:
    """The rules of a game for players, as text (or Markdown): what it is, the players and
    options, how to win and how it ends, the components, the setup and a turn step by step."""
    ir = getattr(game, "ir", None)
    doc = _Doc(markdown)
    doc.title(printable(game.name))
    if ir is None:                      # (a game object without an IR: only its name is known)
        doc.para("No rules text is available for this game.")
        return doc.text()
    about = ir.get("about", {})
    code = _Source(source or getattr(game, "path", None))
    for part in _paragraphs(about.get("game")):
        doc.para(part)
    doc.heading("Players")
    low, high = ir["players"]["min"], ir["players"]["max"]
    doc.para(f"{low} to {high} players." if low != high else plural(low, "player") + ".")
    options = ir.get("options", [])
    if options:
        doc.para("Options (`--option NAME=VALUE` when the match starts):")
        for o in options:
            words = printable(about.get("options", {}).get(o["name"], ""))
            kind = {"bool": "true or false", "int": "a number", "text": "a text"}.get(o["type"], o["type"])
            default = printable(json.dumps(o["default"], ensure_ascii=False))
            doc.item(f"{doc.code(o['name'])} ({kind}, default {default})" + (f": {words}" if words else ""))
    doc.heading("How to win")
    for part in _paragraphs(about.get("win")):
        doc.para(part)
    ends = _endings(ir, code)
    if ends:
        doc.para("The game ends:")
        for line in ends:
            doc.item(line)
    doc.heading("Components")
    if ir.get("boards"):
        b = ir["boards"][0]
        doc.para(f"The board: {b['shape']}, {b['width']} by {b['height']}." + (" Its key:" if b.get("legend") else ""))
        for entry in b.get("legend") or []:
            doc.item(printable(entry))
    kinds = {k: kind_noun(k)[1] for k in ir.get("kinds", {})}
    for z in ir["zones"]:
        if z.get("internal"):
            continue
        doc.item(_zone_line(doc, z, about.get("zones", {}).get(z["name"]), kinds))
    shown = [d.get("label") or d_name.replace("_", " ") for d_name, d in ir["defs"].items() if d["show"]]
    if shown:
        doc.para("The screen also shows: " + ", ".join(printable(x) for x in shown) + ".")
    steps = {s["name"]: s for s in ir["steps"]}
    before = [s for s in ir["steps"] if not s["in_turn"] and not s["name"].startswith("__")]
    if about.get("setup") or before:
        doc.heading("Setup")
    for part in _paragraphs(about.get("setup")):
        doc.para(part)
    if before:
        doc.para("Before the first turn (and whenever the rules go there):")
        for s in before:
            _step(doc, s, about, code, ir, set())
    doc.heading("A turn")
    doc.para("Players take turns in seat order (P1, P2, …), starting with P1, unless the rules say otherwise. "
             f"A turn starts at step {doc.code(ir['first_step'])}; at each step the player to act "
             "chooses one of its actions.")
    anytime = {a["name"] for a in steps["__anytime"]["actions"]} if "__anytime" in steps else set()
    for s in ir["steps"]:
        if s["in_turn"]:
            _step(doc, s, about, code, ir, anytime)
    if "__anytime" in steps:
        doc.para("At any time, also in another player's turn:")
        for a in steps["__anytime"]["actions"]:
            _action(doc, "__anytime", a, about, code)
    _interaction(doc, ir, code)
    _component_texts(doc, game, ir)
    return doc.text()


def _ability_words(ir: dict) -> dict:
    """Each ability's procedure -> when it runs, in words: `when a player responds challenge in
    window claim`, `in Old Clock's ability (on sold)`, `in a triggered rule (on outbid)`."""
    cards = ir.get("cards", [])
    out = {}
    for a in ir.get("abilities", []):
        if a.get("proc") is None:
            continue
        name = a["name"].replace("_", " ") + (f" {a['zone']}" if a.get("zone") else "")
        if a["form"] == "response" and a["card"] is None:
            out[a["proc"]] = f"when a player responds {a.get('text', '')} in window {a['name']}"
        elif a["card"] is None:
            out[a["proc"]] = f"in a triggered rule (on {name})"
        else:
            what = {"hook": "on", "trigger": "on", "response": "responding in window", "replace": "instead of"}.get(
                a["form"], "on")
            out[a["proc"]] = f"in {cards[a['card']]['name']}'s ability ({what} {name})"
    return out


def _opened_where(ir: dict) -> dict:
    """Each window -> where the rules open it, in words (the actions, procedures and rules)."""
    out: dict = {}
    words = _ability_words(ir)

    def visit(block, where: str) -> None:
        for x in _statements(block):
            if x.get("s") == "open" and where not in out.setdefault(x["window"], []):
                out[x["window"]].append(where)

    for s in ir["steps"]:
        visit(s["enter"], f"on entering step {s['name']}")
        for a in s["actions"]:
            visit(a["body"], f"the action {a['name'].replace('_', ' ')}")
    for name, p in ir["procs"].items():
        visit(p["body"], words.get(name, name) if name.startswith("__") else name)
    visit(ir["setup"], "the setup")
    return out


def _interaction(doc: _Doc, ir: dict, code: _Source) -> None:
    """The windows (their question, order, who may respond and with what, where they open), the
    hooks and the cards' abilities: what the rules run besides the steps' actions."""
    windows, hooks, cards = ir.get("windows", {}), ir.get("hooks", {}), ir.get("cards", [])
    abilities = ir.get("abilities", [])
    if windows:
        doc.heading("Responses")
        doc.para("At some moments the rules open a window: players are asked, and may respond or pass.")
        first = set(ir.get("answered_first", ()))
        opened = _opened_where(ir)
        for name in windows:
            prompt = ir["defs"].get("__window_" + name)
            asked = f"asked {_reason_words(prompt['body'])}" if prompt else "no question of its own"
            order = ("everyone asked may answer at once; the first to respond has the right to, and the window "
                     "closes" if name in first else "asked in turn; after a response the others are asked again, "
                     "until everyone passes in a row")
            doc.item(f"window {doc.code(name)}: {asked}; {order}")
            for a in abilities:
                if a["form"] != "response" or a["name"] != name:
                    continue
                if a["card"] is None:
                    rule = code.rule(a.get("line"), "respond")
                    cond = f" ({doc.code(rule)})" if rule else " (when its condition holds)" if a["where"] else ""
                    doc.item(f"a player may respond {doc.code(a.get('text', ''))}{cond}", 1)
                else:
                    doc.item(f"the player controlling {printable(cards[a['card']]['name'])} may respond with it", 1)
            if opened.get(name):
                doc.item("opened by " + printable(", ".join(opened[name])), 1)
    carded = [a for a in abilities if a["card"] is not None]
    if hooks or carded:
        doc.heading("Card abilities")
        for name in hooks:
            who = sorted({cards[a["card"]]["name"] for a in carded if a["form"] == "hook" and a["name"] == name})
            doc.item(f"hook {doc.code(name)}: " + (printable(", ".join(who)) if who else "no card has it"))
        form = {"hook": "hook", "trigger": "on", "response": "responds in window", "replace": "instead of",
                "modify": "adds to"}
        for i, card in enumerate(cards):
            mine = [f"{form[a['form']]} {a['name']}" + (f" {a['zone']}" if a.get("zone") else "")
                    for a in carded if a["card"] == i]
            if mine:
                copies = f" (×{card['copies']})" if card.get("copies", 1) != 1 else ""
                doc.item(f"{doc.strong(printable(card['name']))}{copies}: {printable('; '.join(mine))}")


def component_texts(game, ir: dict) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every component's rules text, grouped: (group title, [(names, text)]). The `card`
    declarations by kind (and by their kind's first enum field, `Reds`…), the values of an enum
    with a text, and the components a match's setup makes whose kind computes a text (`text E`);
    names with the same text share a line."""
    groups: dict = {}
    order: list = []

    def put(title: str, name: str, text: str) -> None:
        if title not in groups:
            groups[title] = {}
            order.append(title)
        names = groups[title]
        for key, (shown, words_) in names.items():
            if words_ == text:
                names[key] = (shown + [name] if name not in shown else shown, words_)
                return
        names[len(names)] = ([name], text)

    enums = {e: {i["name"]: i["text"] for i in items} for e, items in ir.get("enums", {}).items()}
    for card in ir.get("cards", []):
        if not card.get("text"):
            continue
        kind = ir["kinds"].get(card["kind"], {})
        sub = ""
        for f in kind.get("fields", []):
            value = card["fields"].get(f["name"])
            if str(f["type"]).startswith("enum:") and isinstance(value, dict) and value.get("enum"):
                sub = enums.get(value["enum"], {}).get(value.get("v"), "")
                break
        plural_kind = kind_noun(card["kind"])[1].capitalize()
        put(f"{plural_kind}: {sub}" if sub else plural_kind, card["name"], card["text"])
    for enum, items in ir.get("enums", {}).items():
        for item in items:
            if item.get("about"):
                put(_name(enum).capitalize(), item["text"], item["about"])
    if any("__text_" + k in ir.get("defs", {}) for k in ir.get("kinds", {})):
        try:
            match = game.new_match(ir["players"]["min"], 0)
            for c, label in enumerate(match.labels):
                if "__text_" + match.kinds[c] in ir["defs"]:
                    text = match.rules_text(c, 0)
                    if text:
                        put(kind_noun(match.kinds[c])[1].capitalize(), label, text)
        except Exception:          # (a game that needs options to set up: its computed texts are left out)
            pass
    return [(title, [(", ".join(names), text) for names, text in groups[title].values()]) for title in order]


def _component_texts(doc: "_Doc", game, ir: dict) -> None:
    found = component_texts(game, ir)
    if not found:
        return
    doc.heading("Cards and pieces")
    doc.para("What each one does (at the table: `look NAME`).")
    for title, entries in found:
        doc.para(doc.strong(printable(title)) if doc.md else printable(title) + ":")
        for names, text in entries:
            doc.item(f"{doc.strong(printable(names))}: {printable(text)}")


def action_help(game, name: str, match=None, source: str | None = None) -> str:
    """`help ACTION`: what an action does and when it is allowed, from the rulebook's words."""
    ir = getattr(game, "ir", None)
    wanted = name.split()[0].lower() if name.split() else ""
    if ir is None:
        return f"no help for `{printable(name)}`: this game has no rules text"
    about = ir.get("about", {})
    code = _Source(source or getattr(game, "path", None))
    found = [(s, a) for s in ir["steps"] for a in s["actions"]
             if a["name"].lower() == wanted or a["name"].replace("_", " ").lower() == name.lower().strip()]
    if not found:
        names = sorted({a["name"].replace("_", " ") for s in ir["steps"] for a in s["actions"]})
        return f"error: no action `{printable(name)}`; the actions are: {printable(', '.join(names))}"
    doc = _Doc(False)
    seen = set()
    for s, a in found:
        where = "at any time" if s["name"].startswith("__") else f"at step {s['name']}"
        key = (a["name"], code.header(s["name"], a["name"]))
        if key in seen:
            continue
        seen.add(key)
        doc.para(f"{_action_name(a)} ({printable(where)})")
        _action_details(doc, s["name"], a, about, code)
    return doc.text()


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

    def rule(self, number, word: str) -> str | None:
        """The head of the rule that starts on this line (of the main file): `when dead[current]`,
        `turn limit turn_limit`: up to its block, without comments."""
        if self.where is None or not number:
            return None
        text = self.text(self.where["lines"].get(number))
        if text is None:
            return None
        head = _uncommented(text.splitlines()[0])
        quoted = False
        for i, ch in enumerate(head):
            quoted = quoted != (ch == '"')
            if ch == "{" and not quoted:
                head = head[:i]
                break
        head = " ".join(head.split())
        return head if head.split(" ", 1)[0] == word else None      # (a line of another file: not known)


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


def _zone_line(doc: _Doc, z: dict, words, kinds: dict) -> str:
    shape = "a pile" if z["ordered"] else "a set"
    per = {"player": "each player has one", "cell": "one on each cell of the board",
           "component": "one for each component"}.get(z["per"])
    if z["per"] == "key":                      # per enum value(s): "one for each player and Colour"
        parts = ["player" if k == "player" else "cell" if k == "cell" else k[5:] for k in z["key"]]
        per = "one for each " + " and ".join(parts)
    what = [shape, "face up, only its top card seen" if z.get("top") else VISIBLE[z["visibility"]], per,
            "how many it holds is not shown either" if z.get("uncounted") else None,
            f"at most {z['capacity']}" if z.get("capacity") is not None else None,
            "in play: its cards' abilities apply" if z.get("play") else None]
    line = f"{doc.code(z['name'])} ({', '.join(w for w in what if w)})"
    return line + (f": {printable(words)}" if words else "")


def _action_name(a: dict) -> str:
    params = " ".join(p["name"].upper() for p in a["params"])
    return printable(a["name"].replace("_", " ") + (f" {params}" if params else ""))


def _step(doc: _Doc, s: dict, about: dict, code: _Source, ir: dict, anytime: set) -> None:
    words = about.get("steps", {}).get(s["name"])
    actor = " (the rules say who acts)" if s.get("actor") is not None else ""
    together = s.get("simultaneous")
    if together is not None:                   # (language.md, "Simultaneous decisions")
        who = "the players the rules name answer" if together["seats"] is not None else "every player still in answers"
        actor = (f" ({who} at once, in secret; the answers are revealed together"
                 + (", then the step's `reveal` rule runs)" if together["reveal"] else ")"))
    doc.para(f"Step {doc.code(s['name'])}{actor}" + (f": {printable(words)}" if words else ""))
    for a in s["actions"]:
        if a["name"] not in anytime:          # (listed once, under "at any time")
            _action(doc, s["name"], a, about, code)


def _action(doc: _Doc, step: str, a: dict, about: dict, code: _Source) -> None:
    words = about.get("actions", {}).get(a["name"])
    doc.item(f"{doc.code(_action_name(a))}" + (f": {printable(words)}" if words else ""))
    header = code.header(step, a["name"])
    if header and header != a["name"]:
        doc.item(f"as the rules write it: {doc.code(header)}", 1)


def _action_details(doc: _Doc, step: str, a: dict, about: dict, code: _Source) -> None:
    words = about.get("actions", {}).get(a["name"])
    doc.para(printable(words) if words else "(the rule file says nothing more about it)")
    header = code.header(step, a["name"])
    if header:
        doc.para(f"for rule authors, as the rules write it: {printable(header)}")
    elif a.get("require") is not None:
        doc.para("it is allowed only when its condition holds")


def _endings(ir: dict, code: _Source) -> list[str]:
    """Every `finish`, where it is, and its reason's words (`…` for what is computed)."""
    found: list[str] = []
    callers = _callers(ir, code)

    def visit(block, where: str) -> None:
        for x in _statements(block):
            if x.get("s") == "finish":
                result = RESULT_WORDS[x["result"]]
                if x.get("who") is not None:
                    who, one = _who(x["who"])
                    win, lose = ("wins", "loses") if one else ("win", "lose")
                    result = {"win": f"{who} {win}, the others lose", "lose": f"{who} {lose}, the others win"}.get(
                        x["result"], result)
                why = f" — {_reason_words(x['why'])}" if x.get("why") is not None else ""
                line = f"{result}{why} ({where})"
                if line not in found:
                    found.append(line)

    for s in ir["steps"]:
        visit(s["enter"], f"on entering step {s['name']}")
        for a in s["actions"]:
            visit(a["body"], f"after the action {a['name'].replace('_', ' ')}")
        if s.get("simultaneous") is not None:
            visit(s["simultaneous"]["reveal"], f"once the answers at step {s['name']} are revealed")
    abilities = _ability_words(ir)
    for name, p in ir["procs"].items():
        if name in abilities:
            where = abilities[name]
        elif name.startswith("__c"):
            where = "in a card's ability"
        elif name.startswith("__t"):
            where = "in a triggered rule"
        else:
            users = callers.get(name, [])
            more = ", …" if len(users) > 3 else ""
            where = f"in {name}" + (f", {', '.join(users[:3])}{more}" if users else "")
        visit(p["body"], where)
    visit(ir["setup"], "during the setup")
    for event, body in ir["handlers"].items():
        visit(body, HANDLER_WHEN[event])
    for c in ir["checks"]:
        rule = code.rule(c.get("line"), "when")
        visit(c["body"], f"as soon as `{printable(rule)}`" if rule else "when a `when` rule applies")
    for lim in ir.get("limits", []):
        rule = code.rule(lim.get("line"), "turn")
        visit(lim["body"], f"once the turns run out: `{printable(rule)}`" if rule else "once the turns run out")
    return found


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


def _callers(ir: dict, code: _Source) -> dict:
    """For each procedure, the rules and actions that run it (directly or through other
    procedures), in words: `when` rules, handlers and the setup first, then actions."""
    direct: dict = {}

    def calls(block, who) -> None:
        for x in _statements(block):
            if x.get("s") == "call":
                direct.setdefault(x["proc"], []).append(who)

    for name, p in ir["procs"].items():
        calls(p["body"], ("proc", name))
    for c in ir["checks"]:
        rule = code.rule(c.get("line"), "when")
        calls(c["body"], ("rule", f"as soon as `{printable(rule)}`" if rule else "when a `when` rule applies"))
    for event, body in ir["handlers"].items():
        calls(body, ("rule", HANDLER_WHEN[event]))
    calls(ir["setup"], ("rule", "during the setup"))
    for s in ir["steps"]:
        calls(s["enter"], ("rule", f"on entering step {s['name']}"))
        for a in s["actions"]:
            calls(a["body"], ("action", f"after the action {a['name'].replace('_', ' ')}"))
    abilities = _ability_words(ir)
    out: dict = {}
    for name in ir["procs"]:
        seen, todo, found = {name}, [name], []
        while todo:
            for kind, who in direct.get(todo.pop(), ()):
                if kind == "proc":
                    if who in abilities and ("rule", abilities[who]) not in found:
                        found.append(("rule", abilities[who]))    # (a response, a card's ability: a rule)
                    if who not in seen:
                        seen.add(who)
                        todo.append(who)
                elif (kind, who) not in found:
                    found.append((kind, who))
        out[name] = [who for kind, who in found if kind == "rule"] + [who for kind, who in found if kind == "action"]
    return out


def _who(e: dict) -> tuple[str, bool]:
    """Who a `finish … for` names, in words, and whether that is one player."""
    if e.get("k") == "builtin" and e.get("n") in ("me", "current"):
        return {"me": "the player to act", "current": "the player whose turn it is"}[e["n"]], True
    return "the players it names", False


def _reason_words(e: dict) -> str:
    """A reason as written: its strings, `…` for each computed part (`cannot pay … damage`)."""
    parts, stack = [], [e]
    while stack:
        x = stack.pop()
        if x.get("k") == "bin" and x.get("op") == "+":
            stack += [x["r"], x["l"]]
        elif x.get("k") == "lit" and isinstance(x.get("v"), str):
            parts.append(x["v"])
        elif not parts or parts[-1] != "…":
            parts.append("…")
    return "“" + printable("".join(parts)) + "”"
