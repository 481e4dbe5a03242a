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

import difflib
import itertools
import json
import os
import re
import sys
import textwrap
import time
import unicodedata

from .bots import bot_seed, make_bot
from .. import interrupt_seat
from ..core.errors import EngineFault, IllegalAction, RuleRuntimeError, StateError, fault_report
from ..core.textsafe import fit, printable
from ..ir.sight import surely_public
from ..ir.spec import leading_words, typed_names
from .pager import key_of, sections
from .screen import Texts, Thinking, kind_of, terminal_size
from .repl_commands import COMMAND_NAMES, Commands, _Stop
from .repl_drawing import PICKING, REDRAW, Drawing
from .replay import _short as echoed      # (what a player typed, quoted back cut short)
# (names tests and the API have imported from here since before the split: the rendering and rulebook)
from .render import common_view, kind_noun, outcome_headline, plural, render_outcome, render_view, render_zone, seat_name, view_parts  # noqa: F401
from .rulebook import action_help, rulebook  # noqa: F401

CLEAR_SCREEN = "\033[H\033[2J\033[3J"
UNDO_HISTORY_SECONDS = 10.0   # CPU time the undo history of a loaded save may take to replay
MAX_TYPED_WORDS = 40         # words of a line not understood that are compared with the actions
NEAREST_SPELLED_OF = 5000    # legal actions compared with a line typed amiss, at most (difflib's cost)
MAX_CANDIDATES = 8           # ambiguous-prefix candidates listed on the one error line
NEAREST_SPELLED = 3000       # legal actions a typed line is compared with letter by letter, at most
LINE_LIMIT = 10_000          # characters of one line typed at the terminal
# words a newcomer types for what a command shows (a first hour at the terminal: `score`, `whose
# turn`, `who am i` all read "not a legal action or a command")
COMMAND_WHAT = {"status": "the scores, whose turn it is, the values", "more": "every choice, one a line",
                "board": "the board and its key", "hand": "your own cards", "quit": "leave, offered to save first"}
# how many words each command takes after it (a misspelled command with more is taken for a move)
COMMAND_WORDS = {"help": 6, "?": 6, "rules": 6, "save": 1, "load": 1, "look": 2, "more": 1, "log": 1}
ASKED_FOR = {"score": "status", "scores": "status", "points": "status", "whose": "status", "turn": "status",
             "who": "status", "standings": "status", "moves": "more", "actions": "more", "options": "more",
             "map": "board", "cards": "hand", "exit": "quit", "bye": "quit"}

# ANSI styles, used only when the output is a terminal and NO_COLOR is not set
STYLES = {"header": "1;36", "prompt": "1", "error": "31", "move": "33", "message": "35", "over": "1",
          "dim": "2"}
LOOKING = ("help", "?", "rules", "log", "look") + REDRAW      # what a player acting out of turn may also type



def _unlike(typed: str, actions: list) -> str:
    """Words for letters, digits and variation selectors typed that look like others but are in no
    action's text: `plаy 4d` (a Cyrillic а), `4♦️` (♦ and an emoji selector), `#１` (a fullwidth 1)
    were refused with a suggestion that looked the same (a fuzz trial)."""
    known = {ch for a in actions for ch in str(a)}
    odd = []
    for ch in dict.fromkeys(typed):
        if ch.isascii() or ch in known:
            continue
        kind = unicodedata.category(ch)
        if kind[0] in "LN" or 0xFE00 <= ord(ch) <= 0xFE0F or 0xFF00 <= ord(ch) <= 0xFFEF:
            odd.append(f"U+{ord(ch):04X} {unicodedata.name(ch, 'an unnamed character').lower()}")
    if not odd:
        return ""
    return f"; it has {', '.join(odd[:2])}{' and more' if len(odd) > 2 else ''}, in no action: type it again"

def run_repl(game, players: int, seed: int, options: dict | None = None,
             bots: dict[int, str] | None = None, stdin=None, stdout=None,
             source_path: str | None = None, match=None, delay: float = 0.0, color: bool | None = None,
             screen: tuple[int, int] | None = None, pager: bool | None = None, seed_secret: bool = False,
             moves: dict | None = None, asked: dict | None = None) -> int:
    """Plays one match at the terminal; returns the exit code (0 unless a rule error stopped it).

    `bots` maps 0-based seats to bot kinds; every other seat is a human. `match` continues a
    match already under way (a resumed save) instead of a new one. With every seat a bot the
    game is watched: each move with the board before it, `delay` seconds apart. `color`
    None: colours when the output is a terminal and NO_COLOR is not set. `screen`: (columns,
    lines) to fit each decision into (None: the terminal's size; no fitting when the output is
    not a terminal). `pager`: whether long output stops at each screenful (`-- more --`) and the
    bots' lines wait before the next decision when they would scroll away (None: when input and
    output are a terminal). `seed_secret`: the seed was drawn, not chosen, so a person playing is
    told it only when the game ends — with it, anyone could deal the same game elsewhere and see
    every hidden card and every bot's hand in advance. `moves`: for a resumed match, who made each
    move of its log and the messages it wrote, and `asked` the questions its answers answered
    (replay.rebuild's), for `log`.
    """
    session = _Session(game, players, seed, options, bots or {},
                       stdin or sys.stdin, stdout or sys.stdout, source_path, match, delay, color, screen, pager)
    session.seed_secret = seed_secret and not session.watching
    session.seed_drawn = seed_secret            # (said again at the end, watched or played: `play --help`)
    session.log_meta.update(moves or {})
    session.asked.update(asked or {})
    if match is not None:                     # (a resumed save: its moves may be undone as if played here)
        session.undo_history()
        session.recaps_from_log()
    return session.run()


def _forms(action) -> tuple[list[str], list[str]]:
    """An action's words as a player may type them: as shown, and with symbols as ASCII (`3s`
    for `3♠`), lower case."""
    text = " ".join(str(action).lower().split())
    return text.split(), fit(text, "ascii").lower().split()


def _in_order(typed: list[str], words: list[str]) -> bool:
    """Are the words typed the action's, in its order, with some left out (the first kept)?"""
    if not words or typed[0] != words[0]:
        return False
    rest = iter(words[1:])
    return all(any(w == x for x in rest) for w in typed[1:])


def _starts_in_order(typed: list[str], words: list[str]) -> bool:
    """Is each word typed the start of one of the action's words, in its order, others left out
    (`move iro h10`, `iron h10` for `move f11 Iron Warden h10`)? A word ending in a digit is no start
    of a longer number or square (`j1` of `j10`: a new author's Blokus played a square not typed)."""
    rest = iter(words)
    return all(any(_starts(t, w) for w in rest) for t in typed)


def _word_starts(typed: list[str], words: list[str]) -> bool:
    """Is each word typed the start of the action's word in its place (`play gno on temp`)? Not a
    number or square cut short (`j1` of `j10`), as `_starts_in_order` says."""
    return len(typed) == len(words) and all(_starts(t, w) for t, w in zip(typed, words))


def _starts_any_order(typed: list[str], words: list[str]) -> bool:
    """The same name first, then each word typed the start of another of the action's words, in any
    order (`play 8s a` for `play A♠ 8♠`: a pick's cards may be named in any order, the README's `play 4d
    a` only worked in the action's own — a first hour)."""
    if len(typed) != len(words) or len(typed) > 7 or not typed or typed[0] != words[0]:
        return False
    return any(all(_starts(t, w) for t, w in zip(typed[1:], order))
               for order in itertools.permutations(words[1:]))


def _starts(typed: str, word: str) -> bool:
    """Is `typed` the start of `word`, never ending inside a number (`j1` of `j10`, `2` of `29`)?"""
    return word.startswith(typed) and not (typed[-1:].isdigit() and word[len(typed):len(typed) + 1].isdigit())


def _picks_only(action, subsets: frozenset = frozenset()) -> bool:
    """An action whose choices are all picks of several components (the order they are named in
    does not matter: `play A♠ 6♠` is `play 6♠ A♠`), or of several values (`subsets`: the names of
    the actions whose every parameter is a `subset`: `take W R K` is `take R K W`, as the README
    says of a pick — a new author's gem tokens were refused in any order but the listed one)."""
    meta = getattr(action, "_meta", None)
    shows = meta[2] if isinstance(meta, tuple) and len(meta) > 2 else ()
    return bool(shows) and (all(x == "comps" for x in shows) or getattr(action, "name", None) in subsets)


def _subset_actions(ir: dict | None) -> frozenset:
    """The names of the actions whose every parameter, in every step that has them, is a `subset`."""
    found: dict = {}
    for step in (ir or {}).get("steps") or ():
        for a in step.get("actions") or ():
            params = a.get("params") or ()
            whole = bool(params) and all(isinstance(p, dict) and p.get("mode") == "subset" for p in params)
            found[a.get("name")] = found.get(a.get("name"), True) and whole
    return frozenset(name for name, whole in found.items() if whole)


def _answering(actions: list, word: str, labels=None) -> list:
    """The actions whose text ends with the number `word` (`drop 4`, `drop disc 4`, `drop in column 4`
    for `4` or `04`): a bare number may mean them as well as a place in the list. Not where the
    number ends a card's name of several words shown whole (`take Maki 1`: a new author's Sushi Go
    refused `1`, `2`, `3` as ambiguous whenever a Maki was in hand); a card named by a number alone
    (`play 5`), a value worked out (`text(col + 1)`) or an enum's (`keep 4`) is the number typed."""
    try:
        number = int(word) if re.fullmatch(r"-?\d{1,12}", word) else None
    except ValueError:
        number = None
    out = []
    for a in actions:
        words = str(a).split()
        if len(words) >= 2 and (words[-1] == word or (number is not None and re.fullmatch(r"-?\d{1,12}", words[-1])
                                                       and int(words[-1]) == number)):
            meta = getattr(a, "_meta", None)
            args = list(zip(meta[2], getattr(a, "_args", ()))) if isinstance(meta, tuple) and len(meta) >= 3 else []
            if labels and any(                  # (a pick's cards too: `pick two card 2 card 16` — a review)
                    show in ("comp", "comps") and type(x) is int and 0 <= x < len(labels) and len(str(labels[x]).split()) >= 2
                    and " ".join(words).endswith(" ".join(str(labels[x]).split()))
                    for show, v in args for x in (v if show == "comps" and isinstance(v, (list, tuple)) else (v,))) \
                    and not any(show == "other" and ((type(v) is int and v == number) or v == word) for show, v in args):
                continue                        # (but `bid 2 on Lot 2` is a bid of 2: a review)
            out.append(a)
    return out


def _offers_seat(action, seat: int, ir: dict) -> bool:
    """Whether `action` is the seat `seat` offered: an answer that is the seat itself (`P3`), or an
    action whose player parameter is given that seat and whose text names it (`attack P3`) — not a
    card that only mentions it (`destroy Zapbot of P3`: a review found a typed `3` played it)."""
    name = f"P{seat + 1}"
    text = " ".join(str(action).split())
    if text == name:
        return True
    if name not in text.split():
        return False
    args = tuple(getattr(action, "_args", ()) or ())
    declared = [a for st in ir.get("steps", []) for a in st.get("actions", [])
                if a.get("name") == getattr(action, "name", None) and len(a.get("params") or ()) == len(args)]
    return any(p.get("show") == "player" and type(v) is int and v == seat
               for a in declared for p, v in zip(a["params"], args))


def _alike_but_cards(actions: list) -> bool:
    """Actions of one name whose values are the same but for the components they name (`move R1 to
    square 1`, `move R2 to square 1`): a number that is a word of each chooses none of them."""
    keys = set()
    for a in actions:
        meta = getattr(a, "_meta", None)
        if not (isinstance(meta, tuple) and len(meta) >= 3):
            return False
        keys.add((meta[0], tuple(repr(v) for show, v in zip(meta[2], getattr(a, "_args", ()))
                                 if show not in ("comp", "comp_or_player"))))
    return len(keys) == 1


def _shape(text: str) -> str:
    """A text with its numbers as `#`, in plain lower-case ASCII: `1c` and `3♣` are alike (`#c`), the
    shape of a bid a new author's Bridge refused without its reason."""
    return re.sub(r"\d+", "#", " ".join(fit(str(text), "ascii").lower().split()))


def typed_names_of(session, action) -> list[str]:
    """An action offered, by the names a player may type for it: its name and its `as` words."""
    name = str(getattr(action, "name", "") or "").replace("_", " ").lower()
    return [h for h in dict.fromkeys((name, session.typed_name_of(action) if name else "")) if h]


def _same_words(typed: str, text: str) -> bool:
    """The same name first, then the same words in any order."""
    a, b = typed.split(), text.split()
    return len(a) == len(b) > 2 and a[0] == b[0] and sorted(a[1:]) == sorted(b[1:])


class _Session(Drawing, Commands):
    seed_secret = False                      # (see run_repl)
    seed_drawn = False

    def __init__(self, game, players, seed, options, bots, stdin, stdout, source_path, match=None,
                 delay=0.0, color=None, screen=None, pager=None):
        for seat in bots:
            if not 0 <= seat < players:
                raise ValueError(f"no seat {seat_name(seat)} in a {players}-player match (choose the number of "
                                 f"players with --players)")
        self.game = game
        self.seed = seed
        self.options = options or {}
        self.stdin = stdin
        self.stdout = stdout
        self.source_path = source_path
        self.match = match if match is not None else game.new_match(players, seed, options)
        self.sight_key: tuple | None = None        # (the position `names()` last worked out what is seen for)
        self.bots = {seat: make_bot(kind, bot_seed(seed, seat), watched=True) for seat, kind in bots.items()}
        self.bot_kinds = dict(bots)          # (a save keeps them: a resumed match has its bots again)
        self.undo_stack: list[dict] = []     # states just before each human decision
        self.crossed: list = []              # per undo_stack entry: why undoing to it is refused, or None
        self.decided_by: list[int] = []      # per undo_stack entry: the seat whose decision it was
        self.on_screen: int | None = None    # the human whose view was shown last
        self.histories: dict = {}            # each seat's typed lines, kept while another has the terminal
        self.private_at: dict = {}           # a private message's index -> the events there were when it came
        self.events: list[tuple[str, str]] = []   # (line, style) of every move and public message announced
        self.own_events: dict[int, dict[int, str]] = {}   # event index -> {seat: its line as that seat may read it}
        self.named_later: dict[int, tuple[int, str]] = {}  # event index -> (log index, the answer in full)
        self.log_recap: dict[int, list[str]] = {}         # a loaded save's recap lines, each seat's, until it moves
        self.bot_states: dict[int, dict] = {}   # moves played -> each bot's generator state before a human decided
        self.since_at: dict[int, dict] = {}     # moves played -> each seat's recap lines then (for an undo)
        self.seat_changes: dict[int, dict[int, list]] = {}  # events there were after a move and its messages ->
                                             # {seat: its changes as that seat saw them}, for the human seats
                                             # not at the terminal (hot seat)
        self.seen = [0] * self.match.players     # how many of them each seat has had on its screen
        self.last_move: str | None = None    # the last move announced
        self.commands = {"help": self.help, "?": self.help, "rules": self.rules, "log": self.show_log,
                         "undo": self.undo, "save": self.save, "load": self.load, "quit": self.quit,
                         "exit": self.quit, "q": self.quit, "as": self.interrupt, "look": self.look,
                         "board": self.redraw_board, "table": self.redraw_table, "hand": self.redraw_hand,
                         "status": self.redraw_status, "more": self.more, "recap": self.recap,
                         "clear": self.redraw}
        self.screen = screen                 # (columns, lines) to fit a decision into; None: the terminal's
        self.typed_ahead: list[str] = []      # typed at a hand-over or a pager's prompt: the next prompts'
                                              # inputs, in order (`as P2 reveal`, then a line piped)
        self.asked: dict[int, str] = {}       # log index -> the question that action answered
        self.log_meta: dict[int, tuple] = {}  # log index -> (who acted, first and end message it wrote)
        self.offered: list = []              # the actions (or texts) offered at the prompt now
        self.texts: Texts | None = None
        self.was_choice = False                       # was the last move an answer to a choice?
        self.was_secret = False                       # was it an answer to a simultaneous step?
        self.revealed: list = []                      # the answers it revealed, if it was the last one
        self.revealed_own: dict[int, list] = {}       # the same as each human seat reads them
        self.told = 0                                 # messages announced (public) so far
        self.told_to = [0] * self.match.players       # messages shown to each seat so far
        self.watching = len(self.bots) == self.match.players
        self.delay = max(0.0, float(delay or 0.0))
        self.encoding = getattr(stdout, "encoding", None) or "utf-8"
        self.interactive = _isatty(stdin)
        self.welcomed: set = set()                 # the seats told how to ask for help after a hand-over
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
        self.since_move: dict[int, list[str]] = {}  # each seat's lines since its last move (what recap may show it)
        self.recap_note = False                    # say on the next screen that lines scrolled away

    def size(self) -> tuple[int, int] | None:
        """(columns, lines) to fit a decision into; None: no fitting (output that is no terminal)."""
        return self.screen or terminal_size(self.stdout)

    def names(self) -> Texts:
        """The names a player may look up, and their texts (made once: the rules do not change)."""
        viewer = self.on_screen if self.on_screen is not None else 0
        if self.texts is None:
            self.texts = Texts(self.game, self.match, viewer)
        m = self.match
        if hasattr(m, "visible_to"):               # (only what the reader sees now may be looked up;
            key = (id(m), viewer, len(m.log), len(m.message_log()), id(m.question))   # worked out once a
            if key != self.sight_key:                                                # position: a screen
                self.sight_key = key                                                 # asks it per label)
                seen = m.visible_to(viewer)
                if seen != self.texts.visible:
                    self.texts.visible = seen
        return self.texts

    # -- the loop ---------------------------------------------------------------

    def run(self) -> int:
        seed = "the seed is shown when the game ends" if self.seed_secret else f"seed {self.seed}"
        self.intro = [f"{printable(self.game.name)}: {plural(self.match.players, 'player')}, {seed}",
                      "  " + ", ".join(f"{seat_name(s)} {self.player_kind(s)}" for s in range(self.match.players))]
        for line in self.intro:
            self.say(line)
        if self.match.log:                     # (what was said before is in `log`, as after `load`)
            self.say(f"  resumed after {plural(len(self.match.log), 'move')} (log lists them)")
            self.told = len(self.match.message_log())
            self.told_to = [self.told] * self.match.players
        self.say("Type help for commands, rules for the rules." if not self.watching else
                 "Watching the bots play" + (f", {self.delay:g} s a move." if self.delay else "."))
        told = False
        while True:
            try:
                if not told:
                    told = True
                    self.tell_public()
                while not self.match.is_over:
                    seat = self.match.current_player
                    if seat in self.bots:
                        self.bot_turn(seat)
                    else:
                        self.human_turn(seat)
                break
            except _Stop as stop:
                if str(stop):
                    self.say(str(stop))
                return stop.code
            except KeyboardInterrupt:             # Ctrl-C while a bot was thinking
                self.say("")
                if self.interactive and not self.watching:
                    code = self.leave()
                    if code is None:              # (`back`: the bot thinks again)
                        continue
                    return code
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
        # (nobody sat at the terminal yet — a finished save loaded: a person's seat, never another's
        # view by default — a new author's P3 read P1's hidden hand)
        humans = [p for p in range(self.match.players) if p not in self.bots]
        seat = self.on_screen if self.on_screen is not None else (humans[0] if humans else 0)
        try:
            # (several players at this terminal who see the table differently: what they all see —
            # a first hour's hot-seat board game ended on P2's screen, P2's hand in P1's sight)
            apart = len(humans) > 1 and any(self.sees_differently(seat, h) for h in humans if h != seat)
            self.show_view(seat, together=humans if apart else None)
        except RuleRuntimeError as error:
            self.say(f"rule error: {printable(error)}", "error")
        # the reason again right above the result: the view drawn above scrolls the first line away
        if reason:
            self.say(f"Why: {printable(reason)}", "over")
        elif self.last_move:
            self.say(f"Why: the last move ended the game: {self.last_move}", "over")
        else:
            self.say("Why: the rules ended the game before any move", "over")
        if self.seed_secret or self.seed_drawn:   # (a newcomer's bots-only game: only its first line said it)
            self.say(f"Seed {self.seed}: `--seed {self.seed}` deals this game again.")
        try:                                    # (the tie-breaks, said where scores tie)
            ranks = self.match.scores(tie_breaks=True) if outcome.get("scores") else None
        except (RuleRuntimeError, TypeError):
            ranks = None
        self.say(render_outcome(outcome, [self.player_kind(s) for s in range(self.match.players)], sides, ranks))

    def bot_turn(self, seat: int) -> None:
        """One bot move; a rule error goes back to the last human decision, as there is nothing a bot could do."""
        bot = self.bots[seat]
        if self.watching:
            self.show_view(seat)
            self.tell_private(seat)
        before = self.before_view()
        away = self.views_away()
        try:
            with Thinking(self.stdout, f"{seat_name(seat)} ({bot.kind})", _isatty(self.stdout)):
                action = bot.choose(self.match)
            self.was_choice = self.match.question is not None
            self.apply(action)
        except (RuleRuntimeError, EngineFault) as error:
            what = self.fault_text(error)
            if not self.undo_stack or self.undo_refusal() is not None:
                raise _Stop(f"{what}\nthe game cannot go on", 1) from None
            try:
                earlier = self.restore(self.undo_stack[-1])
            except StateError:
                raise _Stop(f"{what}\nthe game cannot go on", 1) from None
            self.undo_stack.pop()
            self.crossed.pop(), self.decided_by.pop()
            self.rewind(earlier, f"{what}\nback to the previous decision of a human player",
                        self.since_at.get(len(earlier.log)))
            return
        self.announce_move(f"{seat_name(seat)} ({bot.kind})", action)
        told = self.told

        def tell(upto=None):
            if self.on_screen is not None:   # the player at the terminal: also what the move told them alone
                self.tell_in_order(self.on_screen, upto)
            else:
                self.tell_public(upto)
        tell(self.next_turn_said(told))
        self.note_changes_away(away, action, told)
        self.tell_changes(before, action, told)
        tell()
        if self.watching and self.delay:
            time.sleep(self.delay)

    def human_turn(self, seat: int) -> None:
        """Shows the view and reads lines until the match changes (an action, undo or load)."""
        actions = self.match.legal_actions()
        self.offered = actions
        self.take_terminal(seat, actions)
        own = self.own_interrupts(seat)
        if own:                                 # (asked a question: the any-time actions are theirs too)
            self.say(f"  (you may also, at any time: {printable(', '.join(own))})")
        others = self.interrupters(seat)
        if others:
            self.say(self.out_of_turn_line(others))
        also = self.also_answering(seat)
        if also:                                # (an `order first` window: whoever answers first)
            self.say(f"  (also asked, and may answer first: {', '.join(seat_name(s) for s in also)}; "
                     f"type as {seat_name(also[0])})")
        self.completions = [self.show_text(a) for a in actions]
        while True:
            line = " ".join(self.next_line(f"{seat_name(seat)}> ").split())
            if not line:
                continue
            word, _, argument = line.partition(" ")
            named = re.fullmatch(r"[pP](\d{1,3}):", word)     # `P3: challenge`, as the log writes answers
            if named and argument:
                if int(named.group(1)) - 1 != seat:
                    if self.interrupt(f"{word[:-1]} {argument}"):
                        return
                    continue
                line = argument                 # (the player to act, naming themselves)
                word, _, argument = line.partition(" ")
            command = self.commands.get(word.lower())
            if word.lower() == "more" and argument and not self.kind_named(argument) \
                    and self.rule_action(argument) and not self.pick_quietly(line, actions):
                # (`more attack`, as the screen's hint says, with no attack possible now: a first hour
                # read "'more attack' is not a legal action or a command")
                self.say(f"no {self.rule_action(argument)} is possible now (more: every choice)")
                continue
            if word.lower() == "more" and argument and not self.kind_named(argument) \
                    and not self.rule_action(argument) and not self.pick_quietly(line, actions):
                # (a first hour typed `more xyz` and read "not an answer or a command (did you mean more?)")
                kinds = sorted({kind_of(a, self.kind_words()) for a in self.offered if kind_of(a)})
                self.error(f"no kind of choice is named {echoed(argument)}; type more for every choice"
                           + (f", or more and one of: {', '.join(kinds)}" if len(kinds) > 1 else ""))
                continue
            if word.lower() in REDRAW and argument and not (word.lower() == "more" and self.kind_named(argument)):
                command = None                  # `hand over …`: an action's text, not a command (but `more attack`)
            if word.lower() == "as" and argument and interrupt_seat(argument.split()[0].upper() + ": ") is None \
                    and any("as" in form[1:] for a in actions for form in _forms(a)):
                command = None                  # `as 7d`: the Ace of spades with 7♦, not `as P2` (a first hour)
            if command is not None:
                if command(argument):
                    return
                continue
            question = self.match.question
            several = self.several(line, actions) if question and question.get("kind") in PICKING else None
            if several is not None:
                if several and self.play_several(seat, several):
                    return
                continue
            if several is None and re.fullmatch(r"\d+( \d+)+", line) and not any(str(a) == line for a in actions):
                self.error(f"'{echoed(line)}': one number at a time here (several numbers answer a question "
                           f"that picks several things)")
                continue
            mine = self.own_interrupt(seat, line, actions)
            if mine is not None:
                if self.play(seat, mine, answer=False):
                    return
                continue
            action = self.pick(line, actions)
            if action is not None and self.play(seat, action):
                self.say_picks_over(question, action)
                return

    def own_interrupts(self, seat: int) -> list[str]:
        """The any-time actions of the player asked a question (`reveal`), which they may take
        before they answer it; [] when no question waits."""
        if self.match.question is None or not self.game.has_interrupts or seat in self.bots:
            return []
        prefix = seat_name(seat) + ": "
        return [a.text[len(prefix):] for a in self.match.interrupts(seat) if a.text.startswith(prefix)]

    def own_interrupt(self, seat: int, line: str, actions: list):
        """The any-time action `line` names for the player asked (never one of the answers)."""
        if self.match.question is None or any(str(a).lower() == line.lower() for a in actions):
            return None
        wanted = (seat_name(seat) + ": " + line).lower()
        return next((a for a in self.match.interrupts(seat) if a.text.lower() == wanted), None)

    def say_picks_over(self, question, action) -> None:
        """A question picked one at a time that the last pick closed (nothing left that may be
        picked): said, so that a `done` typed next is not taken as the next move — a first hour
        at the terminal ended its turn so."""
        if not question or question.get("kind") not in PICKING or str(action).lower() in ("done", "pass"):
            return
        now = self.match.question
        if now is None or now.get("prompt") != question.get("prompt") or now.get("kind") != question.get("kind"):
            self.say("  (that was the last pick: the choice is made)", "dim")

    def take_terminal(self, seat: int, actions=None) -> None:
        """`seat` sits at the terminal (after a hand-over if the screen would show them secrets):
        their view, then what happened since their last move, for them alone too; then the
        actions offered, fitted with the view into the terminal's size."""
        recorded, self.recording = self.recording, None
        handing = self.needs_hand_over(seat)
        if recorded is not None:             # (never another seat's lines where they may hold its secrets:
            mover = self.recording_seat      # kept for the seats that see the table as the mover does, with
            shared = not handing and not self.__dict__.get("screen_private", False)   # nothing said to one
            for other in range(self.match.players):     # alone — two people at one terminal, a board game
                if other == mover or (shared and other not in self.bots and mover is not None   # with nothing
                                      and not self.sees_differently(mover, other)):   # hidden, read "nothing
                    self.since_move.setdefault(other, []).extend(recorded)          # happened": a first hour)
            self.recap_lines = list(self.since_move.get(seat, []))
            self.recap_note = bool(self.recap_lines)
        elif self.__dict__.pop("recaps_loaded", False):     # (a loaded save's, from its log: nothing said)
            self.recap_lines = list(self.since_move.get(seat, []))
        if handing:
            self.hand_over(seat)
        self.on_screen = seat
        self.seen[seat] = len(self.events)
        self.tell_private(seat)
        self.draw(seat, actions)
        # (what this seat's screen shows that another person's would not — its cards, a card shown
        # to it — stays on screen until a hand-over clears it: the next player's view may be the
        # same, and the screen was not cleared for them — a leak scan)
        humans = [p for p in range(self.match.players) if p not in self.bots and p != seat]
        if humans and not self.__dict__.get("screen_private") and any(self.sees_differently(seat, h) for h in humans):
            self.screen_private = True

    def interrupters(self, seat: int) -> list[int]:
        """The other humans at the terminal, when the rules have any-time actions they might use.
        Not said under a question (they may act then too, but an 80×24 screen is the question's:
        the hint is given at the steps)."""
        if not self.game.has_interrupts or self.match.question is not None:
            return []
        return [s for s in range(self.match.players) if s != seat and s not in self.bots]

    def also_answering(self, seat: int) -> list[int]:
        """The other humans at the terminal asked the same question, who may answer it out of turn
        (`order first`: public, as who is asked is)."""
        question = self.match.question
        if not question or not question.get("also"):
            return []
        return [s for s, _ in question["also"] if s != seat and s not in self.bots]

    def out_of_turn_line(self, others: list[int]) -> str:
        """Who else at the terminal may act now, and what the rules let anyone do out of turn (the
        any-time actions the rule file declares: never what one of them could do now, which might
        tell a secret)."""
        who = ", ".join(seat_name(s) for s in others)
        steps = (getattr(self.game, "ir", None) or {}).get("steps", [])
        names = list(dict.fromkeys(a["name"].replace("_", " ") for s in steps if s["name"].startswith("__")
                                   for a in s["actions"]))
        if not names:
            return f"  (another player may act now, out of turn: {', '.join(f'as {seat_name(s)}' for s in others)})"
        what = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        return f"  (out of turn, {who} may act, if allowed: {printable(what)}; type as {seat_name(others[0])})"

    def interrupt(self, argument: str) -> bool:
        """`as P3`: P3 takes the terminal to use an any-time action while another player is to act.
        P3 sees their own view and their own offers only; nobody else learns what P3 could do."""
        who, _, then = argument.strip().partition(" ")       # `as P3 reveal`: the action at once
        seat = interrupt_seat(who.upper() + ": ")
        if seat is None or not 0 <= seat < self.match.players:
            self.error(f"as needs a seat, P1-P{self.match.players}" if self.match.players > 1
                       else "as is for another player at the terminal, and this game has one player")
            return False
        if seat in self.bots:
            self.error(f"{seat_name(seat)} is a bot")
            return False
        if seat == self.match.current_player:
            self.error(f"{seat_name(seat)} is the one to act now")
            return False
        steps = (getattr(self.game, "ir", None) or {}).get("steps", [])
        question = getattr(self.match, "question", None)
        if not any(s["name"].startswith("__") for s in steps) and not (question and question.get("also")):
            # (said before the terminal is passed: a hand was shown for nothing — a first hour)
            self.error("this game has no actions out of turn (`as` is for its any-time actions)")
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
        if then.strip():                       # (typed with `as`: the out-of-turn prompt's first line; one
            self.typed_ahead.insert(0, then.strip())   # typed at the hand-over, piped, comes after it —
                                                       # it took its place, the action lost: an atomicity trial)
        self.say("  (or back: nothing now)")
        self.completions = [self.show_text(t) for t in texts] + ["back"]
        while True:
            line = " ".join(self.next_line(f"{seat_name(seat)} (out of turn)> ").split())
            if line.lower() in ("", "back"):
                return True
            if line.upper().startswith(prefix):      # (`P3: challenge` typed by P3 itself)
                line = line[len(prefix):].strip()
            word, _, argument = line.partition(" ")
            word = word.lower()
            if word in LOOKING and not (word in REDRAW and argument
                                        and not (word == "more" and self.kind_named(argument))):
                self.out_of_turn = True             # (help says nothing of the actor's own actions)
                try:
                    self.commands[word](argument)   # (reading only: help, rules, look, log, the screen's parts)
                finally:
                    self.out_of_turn = False
                continue
            if word in self.commands and word not in REDRAW:
                self.error(f"`{word}` is for the player to act: type back first")
                continue
            text = self.pick(line, texts, own_turn=False)
            if text is not None and self.part_of_a_pick(line, offers[texts.index(text)], text):
                text = None                         # (a pick typed in part: out of turn too — a review)
            if text is not None:
                question = self.match.question    # (an `order first` window's answer, or an interrupt)
                if self.play(seat, offers[texts.index(text)], answer=bool(question and question.get("also"))):
                    return True

    def nearest(self, wanted: str, actions: list, own_turn: bool = True) -> str:
        """What to say after "is not a legal action": the legal actions of the name typed, those
        sharing the most words with it first (`march d1 d3`: `legal: march d1 d2, …`); a name
        typed amiss (`paly`: `did you mean play?`); else that it is no command either."""
        def heads(action) -> set:             # its name, and its text's first word (`as "bid " + …`)
            words = " ".join(str(action).lower().split()).split()
            return {str(getattr(action, "name", "") or "").replace("_", " ").lower()} | set(words[:1])
        same = [a for a in actions if any(h and (wanted == h or wanted.startswith(h + " ")) for h in heads(a))]
        if same:
            # (the first words typed only, each action scored once: a 129 KB line against 5,000
            # actions took 19 s word by word)
            typed = wanted.split()[:MAX_TYPED_WORDS]
            distinct = set(typed)
            scores: dict = {}

            def shared(action) -> tuple[int, int]:
                """(words typed that it has, then those it starts with): `move ash hound d9` is
                nearest to `move d11 Ash Hound d9`."""
                found = scores.get(id(action))
                if found is not None:
                    return found
                words, plain = _forms(action)
                k = 0
                while k < min(len(words), len(typed)) and (typed[k] == words[k]
                                                           or k < len(plain) and typed[k] == plain[k]):
                    k += 1
                known = set(words) | set(plain)
                found = scores[id(action)] = (len(distinct & known), k)
                return found
            def apart(action) -> int:
                """How far its numbers are from those typed, word by word: `bid 30` with 29 coins is
                nearest to `bid 29`, not `bid 0` (a new author's auction)."""
                words = _forms(action)[0]
                return sum(abs(int(t) - int(w)) for t, w in zip(typed, words)
                           if t.isascii() and w.isascii() and t.isdigit() and w.isdigit() and len(t) < 10 and len(w) < 10)
            scored = sorted(same, key=lambda a: (shared(a), -apart(a)), reverse=True)   # (stable among equals)
            best = shared(scored[0])
            near = [a for a in scored if shared(a) == best] if best[0] <= 1 else scored
            if best[0] <= 1 and 1 < len(near) <= NEAREST_SPELLED:
                # (only the name in common: the nearest spelt first — `wall e4v` listed `wall a1h, wall a1v,
                # …`, not `wall e4h`, a new author's Quoridor)
                plain = fit(wanted, "ascii").lower()
                near.sort(key=lambda a: (apart(a), -difflib.SequenceMatcher(     # (numbers: the nearest
                    None, plain, fit(str(a), "ascii").lower()).ratio()))           #  by value first)
            listed = ", ".join(self.show_text(a) for a in near[:MAX_CANDIDATES])
            more = f" and {len(near) - MAX_CANDIDATES} more" if len(near) > MAX_CANDIDATES else ""
            if more:                          # (the words no legal one has, where the list is cut: `move e9
                # storm e8` in the other player's turn listed 8 moves "and 32 more", none from e9 — a first hour)
                said = {w for a in same for form in _forms(a) for w in form}
                said_text = " ".join(sorted(said))
                absent = [w for w in dict.fromkeys(typed[1:]) if w not in said     # (`spades` for `♠`: a review)
                          and not (self.enum_named(w) != w and self.enum_named(w) in said_text)]
                if absent and len(absent) < len(typed) - 1:
                    more += f"; none of them names {', '.join(printable(w) for w in absent[:3])}"
            return f" now (legal: {listed}{more})"
        if getattr(self.match, "question", None) is not None:     # the answers to a question
            return self.nearest_answer(wanted, actions)
        ir = getattr(self.game, "ir", None) or {}
        # (longest first: `turn over P2` names `turn over`, not `turn` — a new author's Skull)
        known = sorted({n for st in ir.get("steps", []) for a in st["actions"] for n in typed_names(a)},
                       key=lambda n: (-len(n), n))
        first = wanted.split()[0] if wanted.split() else ""
        typed_name = next((n for n in known if wanted == n or wanted.startswith(n + " ")), None)
        if typed_name is None and first:         # (`stop` for `stop attacking`: "did you mean stop?" — a new author)
            typed_name = next((n for n in known if n.split()[0] == first), None)
        if typed_name is not None:               # an action of the rules, none of it legal now
            # (and what is: a card game's `pass` typed at a step where `skip` is — a first hour)
            # (an action of no parameters by the words it shows: `draw a bonus card`, not `bonus card`,
            # which the menu nowhere says — a first hour)
            names = list(dict.fromkeys(
                str(a) if not getattr(a, "_args", True) and getattr(self.game, "ir", None) is not None
                else self.typed_name_of(a) for a in actions)) if own_turn else []
            now = f"; the actions now: {', '.join(names[:MAX_CANDIDATES])}{', …' if len(names) > MAX_CANDIDATES else ''}" \
                if names else ""
            # (as the rules write it: `O-O`, not `o-o` — a new author's chess)
            cased = next((" ".join(w.split()).rstrip(" :;,.-") for st in ir.get("steps", []) for a in st["actions"]
                          for w in [leading_words(a) or ""] if " ".join(w.split()).lower().rstrip(" :;,.-") == typed_name),
                         typed_name)
            return f" now (`{cased}` is not allowed now{now}; type help {cased})"
        hint = ASKED_FOR.get(first.lower().rstrip("?"))
        if hint is not None and hint in COMMAND_NAMES:
            return f" or a command (type {hint}: {COMMAND_WHAT.get(hint, 'see help')})"
        close = difflib.get_close_matches(first, [n.split()[0] for n in known] + list(COMMAND_NAMES), n=1, cutoff=0.75)
        kinds = list(dict.fromkeys(n.split()[0] for n in known))
        words = wanted.split()[1:]
        if close and close[0] in COMMAND_NAMES and len(words) <= COMMAND_WORDS.get(close[0], 0):
            # (`sav x`, `hlep play`, `rule win`: a command typed amiss with what it takes — a first hour)
            return f" or a command (did you mean {' '.join([close[0]] + words)}? type help)"
        if close and close[0] in COMMAND_NAMES and len(wanted.split()) > 1 and kinds:
            # (a move typed with its squares, `move c1 c2`, is no `more`: the rules' moves are named)
            return f" (the rules' moves: {', '.join(kinds[:MAX_CANDIDATES])}; type help)"
        if own_turn and 0 < len(actions) <= NEAREST_SPELLED_OF and not (close and close[0] in COMMAND_NAMES):
            # (a legal action typed amiss, whole: `ned turn` for `end turn` had no word of it — a first hour)
            shown = {fit(self.show_text(a), "ascii").lower(): self.show_text(a) for a in actions}
            near = difflib.get_close_matches(fit(wanted, "ascii").lower(), list(shown), n=3, cutoff=0.8)
            if near:
                return f" now (did you mean {' or '.join(shown[c] for c in near)}?)"
        if close:                                # (an action by its whole name: `sto`, `stop attacking`)
            # (of the names it starts, the nearest to what was typed: `attak p2` was offered `attack
            # everyone in range`, the longest, for `attack` — a first hour at a hidden-role game)
            named = close[0] if close[0] in COMMAND_NAMES else max(
                (n for n in known if n.split()[0] == close[0]),
                key=lambda n: difflib.SequenceMatcher(None, wanted, n).ratio(), default=close[0])
            return f" or a command (did you mean {named}? type help)"
        alike = [a for a in actions if _shape(self.show_text(a)) == _shape(wanted)] if own_turn else []
        if alike:                                # (typed as shown, `1c` where `3♣` is legal: a choice refused)
            listed = ", ".join(self.show_text(a) for a in alike[:MAX_CANDIDATES])
            more = f" and {len(alike) - MAX_CANDIDATES} more" if len(alike) > MAX_CANDIDATES else ""
            kinds = dict.fromkeys(str(getattr(a, "name", "") or "").replace("_", " ") for a in alike)
            whys = [w for w in (self.match.refusal(k) if k and hasattr(self.match, "refusal") else None
                                for k in kinds) if w]
            why = f"; when one is not allowed, the rules say: {printable(whys[0])}" if len(whys) == 1 else ""
            return f" now (legal like it: {listed}{more}{why})"
        reasons = self.match.refusals_now() if own_turn and hasattr(self.match, "refusals_now") else []
        if reasons:                              # (typed as shown, `e3-f4`: an action none of which is allowed)
            said = "; ".join(f"no {name} now: {printable(why)}" for name, why in reasons[:3])
            return f" now ({said})"
        if own_turn and 0 < len(actions) <= MAX_CANDIDATES:     # (a move typed in another shape: `e3-f4`
            return f" or a command (legal now: {', '.join(self.show_text(a) for a in actions)}; type help)"
        if own_turn and words:                   # (the legal actions sharing a word typed after the first:
            typed = set(words[:MAX_TYPED_WORDS])  #  `Tiger a5-a4`, a card not in hand — a new author's Onitama)
            sharing = [(len(typed & set(self.show_text(a).lower().split())), i, a) for i, a in enumerate(actions)]
            sharing = [a for k, _, a in sorted(sharing, key=lambda x: (-x[0], x[1])) if k]
            if sharing:
                listed = ", ".join(self.show_text(a) for a in sharing[:MAX_CANDIDATES])
                more = f" and {len(sharing) - MAX_CANDIDATES} more" if len(sharing) > MAX_CANDIDATES else ""
                return f" now (legal with those words: {listed}{more})"
        if own_turn and 0 < len(actions) <= NEAREST_SPELLED_OF:   # (`e5d6` for `e5-d6`: a new author's chess
            shown = {fit(self.show_text(a), "ascii").lower(): self.show_text(a) for a in actions}   # read no hint)
            close = difflib.get_close_matches(fit(wanted, "ascii").lower(), list(shown), n=3, cutoff=0.75)
            if close:
                return f" now (did you mean {' or '.join(shown[c] for c in close)}?)"
        return " or a command (type help)"

    def typed_name_of(self, action) -> str:
        """An action offered, named as a player types it: the words its `as` text starts with (`dummy`
        for `play_dummy`, shown `dummy 4♣`), its shown text where that starts with a value (`1♣`), else
        its name (a new author's Bridge read "the actions now: play dummy", which was refused)."""
        name = str(getattr(action, "name", "") or "")
        ir = getattr(self.game, "ir", None) or {}
        declared = next((a for st in ir.get("steps", []) if st["name"] == self.match.step
                         for a in st["actions"] if a["name"] == name), None)
        if declared is not None and declared.get("text") is not None:
            words = leading_words(declared)
            if words is None:
                return self.show_text(action)
            return " ".join(words.split()).lower().rstrip(" :;,.-") or self.show_text(action)
        return name.replace("_", " ").lower() or str(action)

    def rule_action(self, typed: str) -> str | None:
        """The action of the rules `typed` names (its name, or the start of one), as words; None: none."""
        typed = " ".join(typed.lower().replace("_", " ").split())
        ir = getattr(self.game, "ir", None) or {}
        known = sorted({n for st in ir.get("steps", []) for a in st["actions"] for n in typed_names(a)})
        if typed in known:
            return typed
        starts = [n for n in known if n.startswith(typed)]
        return starts[0] if len(starts) == 1 else None

    def pick_quietly(self, line: str, actions: list) -> bool:
        """Is `line` the start of an action offered now (an action whose text starts `more …`)?"""
        line = line.lower()
        return any(self.show_text(a).lower().startswith(line) for a in actions)

    def nearest_answer(self, wanted: str, answers: list) -> str:
        """What to say after "is not a legal action" at a question: the answers spelled nearly so
        (`Barn`: `did you mean Baron?`), else the answers themselves when they are few."""
        shown = [self.show_text(a) for a in answers]
        plain = {fit(text, "ascii").lower(): text for text in shown}
        self.enum_named("")                   # (an enum value's name too: `spdes` for ♠)
        for name, text in self._enum_texts.items():
            plain.update({name: s for s in shown if " ".join(s.lower().split()) == text})
        close = difflib.get_close_matches(wanted, list(plain), n=3, cutoff=0.7)
        if close:
            return f" (did you mean {' or '.join(plain[c] for c in close)}?)"
        first = wanted.split()[0] if wanted.split() else ""
        hint = ASKED_FOR.get(first.lower().rstrip("?"))
        if hint is not None and hint in COMMAND_NAMES:
            return f" or a command (type {hint}: {COMMAND_WHAT.get(hint, 'see help')})"
        command = difflib.get_close_matches(first, list(COMMAND_NAMES), n=1, cutoff=0.75)
        if command:
            return f" or a command (did you mean {command[0]}? type help)"
        # (a card or piece on the table that is no answer now: a general banned a moment ago read only
        # "answer 1-11" — a first hour's draft; only what everyone sees is named, so what is said
        # never depends on a card someone holds)
        every = getattr(self.match, "labels", None) or ()
        seen = self.match.visible_to_all() if hasattr(self.match, "visible_to_all") else ()
        answering = set(self.match.option_components().values()) if hasattr(self.match, "option_components") else set()
        # (the label typed exactly, of a card no answer stands for: answers worded `the 8s` stand for
        # `card 8`, and a near spelling named a card never typed — a review)
        labels = {fit(str(every[c]), "ascii").lower(): str(every[c]) for c in seen
                  if 0 <= c < len(every) and c not in answering}
        named = labels.get(" ".join(fit(wanted, "ascii").lower().split()))
        not_one = f"{printable(named)} is not one of the answers now; " if named else ""
        if len(shown) <= MAX_CANDIDATES:
            if not_one:
                return f" ({not_one}the answers: {', '.join(shown)})"
            return f" (the answers: {', '.join(shown)})"
        return f" ({not_one}answer 1-{len(shown)}; more lists them all)"

    def pick(self, line: str, actions: list, own_turn: bool = True):
        """The action meant by `line` (see `pick_from`), but never a pick of several components of
        which some were not typed: `pass 2h` was the secret three-card pass `pass 2♥ 9♥ A♥`, sent at
        once, its other two cards those that came after 2♥ in the hand (a new author's trial)."""
        action = self.pick_from(line, actions, own_turn)
        if action is not None and self.part_of_a_pick(line, action, str(action)):
            return None
        return action

    def part_of_a_pick(self, line: str, action, text: str) -> bool:
        """Does `line` name only some of the components `action` picks several of (one line said)?
        A number, `#N`, `=TEXT` and the action's whole text are never so."""
        if line[:1] in "#=" or (line.isascii() and line.lstrip("-").isdigit()) \
                or " ".join(line.lower().split()) in (" ".join(text.lower().split()),
                                                     " ".join(fit(text, "ascii").lower().split())):
            return False
        named, picked = self.picks_named(line, action, text)
        if named >= picked:
            return False
        self.error(f"'{echoed(line)}' names {named} of the {picked} picked in {self.show_text(text)}: type "
                   f"every one you pick (the start of each is enough), in any order")
        return True

    def picks_named(self, line: str, action, text: str) -> tuple[int, int]:
        """(how many of the components an action picks several of are named in `line`, how many it
        picks): each needs a word of its own typed, the start of a word of its label (`sharp war` for
        Sharp Sword and War Axe; `2h` for `2♥`) — a word that goes on with the label the word before
        it started is that label's (`iron ring` names Iron Ring alone, not Ruby Ring too: a review).
        (0, 0) where the action picks one or none, or its text does not name what it picks (an
        `as` text, `pay 2 coins`: nothing to type there but the text)."""
        meta = getattr(action, "_meta", None)
        shows = meta[2] if isinstance(meta, tuple) and len(meta) > 2 else ()
        picked = [c for how, x in zip(shows, getattr(action, "_args", ()) or ())
                  if how == "comps" and isinstance(x, (list, tuple)) and len(x) > 1 for c in x]
        labels = getattr(self.match, "labels", None) or []
        forms = []                              # per component: its label's words, as shown and in ASCII
        for c in picked:
            label = labels[c] if type(c) is int and 0 <= c < len(labels) else None
            if not isinstance(label, str):
                return 0, 0
            forms.append((label.lower().split(), fit(label, "ascii").lower().split()))
        shown = set(text.lower().split()) | set(fit(text, "ascii").lower().split())
        if not picked or any(not set(a) <= shown and not set(b) <= shown for a, b in forms):
            return 0, 0
        name = str(getattr(action, "name", "") or "").replace("_", " ").lower().split()
        typed = line.lower().split()
        lead = 0                                # (the action's name, or the start of its words: `pa`)
        while lead < min(len(name), len(typed)) and name[lead].startswith(typed[lead]):
            lead += 1
        typed = typed[lead:]

        def starts(i: int, k: int, at: int) -> bool:     # typed word i starts word `at` of label k
            return any(at < len(f) and f[at].startswith(typed[i]) for f in forms[k])
        reserved: dict = {}                     # typed word -> the label it goes on with
        for i in range(1, len(typed)):
            for k, (a, b) in enumerate(forms):
                if any(starts(i - 1, k, at) and starts(i, k, at + 1) for at in range(max(len(a), len(b)))):
                    reserved[i] = k
        fits = [{i for i in range(len(typed)) if reserved.get(i, k) == k
                 and any(starts(i, k, at) for at in range(max(len(a), len(b))))}
                for k, (a, b) in enumerate(forms)]
        owner: dict = {}                        # typed word -> the component it names (a matching)

        def place(k: int, seen: set) -> bool:
            for i in fits[k]:
                if i not in seen:
                    seen.add(i)
                    if i not in owner or place(owner[i], seen):
                        owner[i] = k
                        return True
            return False
        named = sum(1 for k in range(len(picked)) if place(k, set()))
        return named, len(picked)

    def pick_from(self, line: str, actions: list, own_turn: bool = True):
        """The action meant by a number, a text or a unique prefix; None (and one line said) otherwise.
        A text may be typed as the rules write it, as this terminal shows it, or in plain ASCII
        (`8h` for `8♥`, `Thor` for `Þór`). Not `own_turn` (a player acting out of turn): the rules'
        reasons for the player to act are not said — they are worded for that player's hand.
        Where answers are numbers themselves (`choose n in 0..2`), a number is the answer of that text
        unless it is also another answer's place in the list: then it is refused as ambiguous, and
        `#2` is the list's second, `=2` the answer 2 (a new author typed 2 trades and got 1). A number
        that is a word of several actions differing only in the components they name, the list's place
        among them, is that place."""
        if line[:1] in "#=" and len(line) > 1 and line[1:].strip() \
                and not any(" ".join(str(a).split()) == line for a in actions):     # (an answer that reads `#2 …`)
            rest = line[1:].strip()
            if line[0] == "#":
                if rest.isascii() and rest.isdigit() and len(rest) < 12 and 1 <= int(rest) <= len(actions):
                    return actions[int(rest) - 1]
                self.error(f"there is no number {echoed(rest)} in the list; choose #1-#{len(actions)}{_unlike(rest, actions)}")
                return None
            exact = [a for a in actions if " ".join(str(a).split()) == " ".join(rest.split())]
            if exact:
                return exact[0]
            spoken = _answering(actions, rest, getattr(self.match, "labels", None))   # (`=4`: `drop 4`, any name)
            if len(spoken) == 1:
                return spoken[0]
            if spoken:
                self.error(f"={echoed(rest)} is ambiguous here: " + ", ".join(echoed(str(a)) for a in spoken[:MAX_CANDIDATES])
                           + "; type the whole action")
                return None
            what = "answer" if getattr(self.match, "question", None) is not None and own_turn else "action"
            self.error(f"no {what} is exactly {echoed(rest)}")
            return None
        named = [a for a in actions if str(a).strip() == line] if line.isascii() and line.lstrip("-").isdigit() else []
        if named:                                # (an answer whose text is this number)
            number = int(line) if len(line) < 12 else 0
            if not 1 <= number <= len(actions) or actions[number - 1] is named[0]:
                return named[0]
            self.error(f"{echoed(line)} is ambiguous here: the answer {echoed(line)}, or number {number} in the list "
                       f"({echoed(str(actions[number - 1]))}); type ={line} for the answer, #{number} for {echoed(str(actions[number - 1]))}")
            return None
        if line.isascii() and (line.isdigit() or (line[:1] == "-" and line[1:].isdigit())):
            number = int(line) if len(line) < 12 else None
            # (`4` where `drop 4` is offered but is not the 4th: a new author's Connect Four, its first
            # column full, dropped in column 5 — said ambiguous, as for answers that are numbers)
            spoken = _answering(actions, line, getattr(self.match, "labels", None))
            placed = actions[number - 1] if number is not None and 1 <= number <= len(actions) else None
            # (the list's place is one of the actions the number is a word of, which differ in the cards
            # they name alone: either reading plays it — a new author's Ludo, four tokens to `square 1`,
            # refused `1` at nearly every move; not bids, `bid 6 x 5` and `bid 7 x 5` for `5` — a review)
            seat = f"P{number}" if not spoken and number is not None and 1 <= number <= self.match.players else None
            ir = getattr(self.game, "ir", None) or {}
            named = [a for a in actions if _offers_seat(a, number - 1, ir)] if seat else []
            if named and not any(placed is a for a in named):
                # (`3` where the answers are P2, P3, P4 gave the card to P4 — a player's seat read as
                # its place: a first hour at a hidden-role game; refused as ambiguous where P3 is elsewhere)
                if placed is None and len(named) == 1:
                    return named[0]
                said = ", ".join(echoed(str(a)) for a in named[:MAX_CANDIDATES])
                place = f", or number {number} in the list ({echoed(str(placed))})" if placed is not None else ""
                hint = (f"type {seat} for {said}" if len(named) == 1 else "type the whole action") + (
                    f", #{number} for {echoed(str(placed))}" if placed is not None else "")
                self.error(f"{echoed(line)} is ambiguous here: {said}{place}; {hint}")
                return None
            if spoken and not ((len(spoken) == 1 or _alike_but_cards(spoken)) and any(placed is a for a in spoken)):
                if placed is None and len(spoken) == 1:
                    return spoken[0]
                said = ", ".join(echoed(str(a)) for a in spoken[:MAX_CANDIDATES])
                place = f", or number {number} in the list ({echoed(str(placed))})" if placed is not None else ""
                # (said whole: "#1 for the list's" ended mid-phrase — a new author's Skull, its `bid 1`)
                hint = f"type ={line} for {said}, #{number} for {echoed(str(placed))}" if placed is not None \
                    and len(spoken) == 1 else "type the whole action" + (
                        f", or #{number} for {echoed(str(placed))}" if placed is not None else "")
                self.error(f"{echoed(line)} is ambiguous here: {said}{place}; {hint}")
                return None
            if number is not None and 1 <= number <= len(actions):
                return actions[number - 1]
            # (past the list's end, the start of a move's text: `13` for `13/8` — a new author's
            # Backgammon read "there is no action 13; choose 1-2", where a unique start is accepted)
            started = [a for a in actions if re.match(re.escape(line) + r"(?!\d)", " ".join(str(a).split()))]
            if len(started) == 1:
                return started[0]
            what = "answer" if getattr(self.match, "question", None) is not None and own_turn else "action"
            if started:
                said = ", ".join(echoed(str(a)) for a in started[:MAX_CANDIDATES])
                self.error(f"{echoed(line)} is ambiguous here: {said}; type the whole {what}")
                return None
            self.error(f"there is no {what} {echoed(line)}; choose 1-{len(actions)}")
            return None
        wanted = line.lower()
        if "_" in wanted:                    # (`buy_phase`, the name as the rules write it: `help` found it — a
            spaced = wanted.replace("_", " ")   # new author; only the name: `bid 1 c_clubs` names an enum value)
            ir = getattr(self.game, "ir", None) or {}
            heads = [h for a in actions for h in typed_names_of(self, a)] + \
                [h for st in ir.get("steps", []) for a in st["actions"] for h in typed_names(a)]
            named = next((h for h in heads if "_" in wanted[:len(h)] and (spaced == h or spaced.startswith(h + " "))),
                         None)
            if named is not None:
                wanted = named + wanted[len(named):]
                line = line[:len(named)].replace("_", " ") + line[len(named):]
        texts = [" ".join(str(action).lower().split()) for action in actions]
        if wanted.isascii():                 # (`8s` for `8♠` in any terminal: as an ASCII one shows it)
            shown = [fit(text, "ascii").lower() for text in texts]
        else:
            shown = [fit(text, self.encoding).lower() for text in texts]
        for action, text, seen in zip(actions, texts, shown):
            if wanted in (text, seen):
                return action
        # (a number or a square is never cut short: `place I1 j1` played `place I1 j10`, `bid 2` would be
        # `bid 29` — a new author's Blokus; a word of letters still is: `pla` for `place`)
        matches = [action for action, text, seen in zip(actions, texts, shown)
                   if _starts(wanted, text) or _starts(wanted, seen)]
        if not matches:                      # the start of a word after the first (`outbreak`: `act Outbreak`)
            inner = re.compile(r"(?<=\s)" + re.escape(wanted) + (r"(?!\d)" if wanted[-1:].isdigit() else ""))
            matches = [action for action, text, seen in zip(actions, texts, shown)
                       if inner.search(text) or inner.search(seen)]
        elif len(wanted) == 1 and self.cell_words():   # one letter: the start of a square too (a stray `e`
            first = {id(action) for action in matches}   # was `end turn` though a dozen moves go to e…:
            matches += [action for action, text in zip(actions, texts)   # a first hour; not a seat or a
                        if id(action) not in first                      # card's word: `p` stays pass)
                        and any(w.startswith(wanted) and w in self.cell_words() for w in text.split()[1:])]
        matched = {id(action) for action in matches}      # (by identity: `in matches` was n² comparisons)
        if len(matches) > 1:                 # the whole of one action after its verb: `ac` is `play A♣`, not `play 6♥ A♣`
            rest = [action for action, text, seen in zip(actions, texts, shown)
                    if id(action) in matched and wanted in (text.partition(" ")[2], seen.partition(" ")[2])]
            if len(rest) == 1:
                return rest[0]
        if len(matches) > 1:                 # whole words first: `play prince` is `play Prince 5`, not `… Princess 8`
            whole = re.compile(re.escape(wanted) + r"(?!\w)")
            words = [action for action, text, seen in zip(actions, texts, shown)
                     if id(action) in matched and (whole.match(text) or whole.match(seen))]
            if len(words) == 1:
                return words[0]
            # (and whole words after the first: `c3.n` is `place settlement c3.n`, not `… c3.ne` — a new
            # author's corners, every one ending `.n` refused as ambiguous)
            inner_whole = re.compile(r"(?<!\S)" + re.escape(wanted) + r"(?!\w)")
            words = [action for action, text, seen in zip(actions, texts, shown)
                     if id(action) in matched and (inner_whole.search(text) or inner_whole.search(seen))]
            if len(words) == 1:
                return words[0]
        if len(matches) == 1:
            return matches[0]
        question = getattr(self.match, "question", None)
        verb = str((question or {}).get("prompt") or "").lower().split()[:1]
        rest = wanted.split(None, 1)[1] if len(wanted.split()) >= 2 else ""
        if not matches and verb and rest and wanted.split()[0] == verb[0].strip(":?,.!") \
                and not any(text.startswith(verb[0]) for text in texts) \
                and not (rest.lstrip("#=-").isdigit()):    # (`bid 2` at "bid coins": not the list's 2nd — a review)
            # (the question's own verb typed before the answer: `ban gold` at "Ban a general", where
            # the answers are the generals — a first hour at a war game)
            return self.pick(rest, actions, own_turn)
        if not matches and len(wanted.split()) >= 2:     # each word the start of the action's (`play gno on
            typed = wanted.split()                       # temp`: `play Gnome on Temple of Goju` — a first hour)
            starts = [action for action in actions if any(_word_starts(typed, form) for form in _forms(action))]
            if len(starts) == 1:
                return starts[0]
            matches = starts
        if not matches and len(wanted.split()) >= 3:     # words left out (`move ash hound d9`: the one
            typed = wanted.split()                       # move of that unit to d9, whatever its cell)
            within = [action for action in actions if any(_in_order(typed, form) for form in _forms(action))]
            if len(within) == 1:
                return within[0]
        if not matches and len(wanted.split()) >= 2:     # starts of words, some left out: `move iro h10`,
            typed = wanted.split()                       # `iron h10` (a first hour at the terminal mixed them)
            loose = [action for action in actions if any(_starts_in_order(typed, form) for form in _forms(action))]
            if len(loose) == 1:
                return loose[0]
            several = loose                  # (said ambiguous below if nothing else fits: `wild t` fits
        else:                                # Tortuga and The Great Library, and read "not a legal action")
            several = []
        if not matches:                      # several cards of one pick in another order (`play 6s as`)
            kept = [action for action, text, seen in zip(actions, texts, shown)
                    if _picks_only(action, self.subset_actions()) and (_same_words(wanted, text) or _same_words(wanted, seen))]
            if len(kept) == 1:
                return kept[0]
            if not kept and 2 < len(wanted.split()) <= 7:      # (… each cut short: `play 8s a`)
                kept = [action for action in actions if _picks_only(action, self.subset_actions())
                        and any(_starts_any_order(wanted.split(), form) for form in _forms(action))]
                if len(kept) == 1:
                    return kept[0]
            if not kept and 2 <= len(wanted.split()) <= 6:     # (… and the action's name left out: `8d ac`
                kept = [action for action in actions         # played only as `ac 8d` — a first hour)
                        if _picks_only(action, self.subset_actions())
                        and any(form and _starts_any_order([form[0]] + wanted.split(), form) for form in _forms(action))]
                if len(kept) == 1:
                    return kept[0]
        if not matches:                      # an enum value by its name (`spades` for the `♠` it is shown as)
            named = self.enum_named(wanted)
            if named != wanted:
                # (also joined to the word before it, as a card's label shows it: `2 spades` for `2♠`)
                symbols = {v for v in self._enum_texts.values() if v and not any(ch.isalnum() for ch in v)}
                joined = re.sub(r"(\S) (" + "|".join(map(re.escape, symbols)) + r")(?!\S)", r"\1\2", named) \
                    if symbols else named
                for action, text, seen in zip(actions, texts, shown):
                    if named in (text, seen) or joined in (text, seen):
                        return action
                # (the name alone: `rock` for `throw R`, as the shown text alone is found)
                inner = re.compile(r"(?:^|(?<=\s))" + re.escape(named) + r"(?!\S)")
                alone = [action for action, text, seen in zip(actions, texts, shown)
                         if inner.search(text) or inner.search(seen)]
                if len(alone) == 1:
                    return alone[0]
        if not matches and wanted == "no":      # (`no` to "play a Special?": the way to decline is pass)
            declines = [action for action, text in zip(actions, texts) if text == "pass"]
            if len(declines) == 1:
                return declines[0]
        if not matches and len(several) > 1:
            matches = several
        if matches:
            listed = ", ".join(self.show_text(action) for action in matches[:MAX_CANDIDATES])
            more = f" and {len(matches) - MAX_CANDIDATES} more" if len(matches) > MAX_CANDIDATES else ""
            self.say(f"ambiguous: '{echoed(line)}' could be {listed}{more}", "error")
        else:
            said = line
            implied = self.implied_name(wanted, actions) if own_turn else None
            if implied is not None:          # (`e5`, a point taken, typed as a legal one is: read as `place e5`
                line = wanted = f"{implied} {wanted}"     # — it said only "type help": a new author's Go)
            why = self.match.refusal(line) if own_turn and hasattr(self.match, "refusal") else None   # the rules' words
            question = getattr(self.match, "question", None)
            if wanted == "done" and question is not None and question.get("kind") in PICKING:
                # (a new author's tickets: "'done' is not an answer (the answers: …)" did not say why)
                self.error("'done' is not an answer yet: pick more first (done is offered once you have "
                           "picked as many as the rules ask)")
                return None
            odd = _unlike(said, actions)
            if not why:
                what = "an answer" if getattr(self.match, "question", None) is not None else "a legal action"
                self.error(f"'{echoed(said)}' is not {what}{self.nearest(wanted, actions, own_turn)}{odd}")
                return None
            names = [str(getattr(a, "name", "") or "").replace("_", " ").lower() for a in actions]
            # (each by its name and by the words its `as` text starts with: `tell P2 2`, typed as shown,
            # read "no tokens left" with 8 tokens and `tell P2 1` legal — a new author's Hanabi)
            heads = [typed_names_of(self, a) for a in actions]
            legal = [str(a) for a, hs in zip(actions, heads) if any(wanted.startswith(h) for h in hs)]
            if legal:                        # (the rules' reason is the action's as a whole: not about this choice)
                plain = fit(wanted, "ascii").lower()        # nearest first, as typed (`play 5s`: `play 5♣`)
                legal.sort(key=lambda text: -difflib.SequenceMatcher(None, plain, fit(text, "ascii").lower()).ratio())
                shown_legal = ", ".join(self.show_text(text) for text in legal[:MAX_CANDIDATES])
                more = f" and {len(legal) - MAX_CANDIDATES} more" if len(legal) > MAX_CANDIDATES else ""
                bare = all(text.lower() in names for text in legal)   # (`reveal`, legal, typed with more words:
                reason = "" if bare else f"; when it is not allowed, the rules say: {printable(why)}"  # not why)
                name = next(h for hs in heads for h in hs if wanted.startswith(h))
                typed = wanted[len(name):].split()
                unknown = None if bare else self.unoffered_word(
                    typed, legal, len(typed) == 1 and self.number_refused(name, typed[0]))
                if unknown is not None:      # (a card not in sight, not held: the rules' reason for a
                    reason = f"; no {name} choice has {printable(unknown)}"   # combination misled)
                self.error(f"'{echoed(said)}' is not a legal action now (legal: {shown_legal}{more}){reason}{odd}")
            else:
                self.error(f"'{echoed(said)}' is not a legal action now: {printable(why)}{odd}")
        return None

    def implied_name(self, wanted: str, actions: list) -> str | None:
        """The one action name that a typed choice without its name belongs to, judged by the shape of
        the legal choices (`e5` where `place e4` is legal: `place`); None where the text names an
        action itself, is shaped like none, or like the choices of several."""
        if getattr(self.match, "question", None) is not None or len(wanted.split()) != 1 or wanted.isdigit():
            return None                      # (a number alone is a pick of the menu's)
        shape, found = _shape(wanted), set()
        for a in actions:
            words = " ".join(str(a).lower().split())
            for head in typed_names_of(self, a):
                if wanted == head or wanted.startswith(head + " "):
                    return None
                if words.startswith(head + " ") and _shape(words[len(head) + 1:]) == shape:
                    found.add(head)
        return found.pop() if len(found) == 1 else None

    def number_refused(self, name: str, word: str) -> bool:
        """Is `word` a number the one range parameter of an action so named may take, as far as its
        bounds are written as numbers? Then the rules refused it (a new author's dealer's `bid 3`
        of `0..hand_size` read "no bid choice has 3", where the rules' reason said why); `bid 9` of
        `0..3` is no choice at all."""
        if not re.fullmatch(r"-?\d{1,18}", word):
            return False
        ir = getattr(self.game, "ir", None) or {}
        for step in ir.get("steps") or ():
            for a in step.get("actions") or ():
                params = a.get("params") or ()
                if name not in typed_names(a) or len(params) != 1:        # (by its name or its `as` words)
                    continue
                d = params[0].get("domain") or {}
                lo, hi = d.get("lo") or {}, d.get("hi") or {}
                if d.get("k") == "range" and (type(lo.get("v")) is not int or lo.get("k") != "lit" or lo["v"] <= int(word)) \
                        and (type(hi.get("v")) is not int or hi.get("k") != "lit" or int(word) <= hi["v"]):
                    return True
        return False

    def unoffered_word(self, typed: list[str], legal: list[str], numbers: bool = False) -> str | None:
        """A word typed after an action's name that none of its legal choices has, in any form a
        player may type it (`5s` for `5♠`; the enum's name, `spades`), and that names nothing the
        player sees now: as the screen shows it where it is a component's label (`5♠`), else as
        typed. None when every word is in some choice, or names a card in sight where the choices'
        cards lie (a Guard in hand that may not be played: the rules' reason says why). A card in
        sight elsewhere is no choice either (the turned-up trump card typed as a card to play got
        the rules' "follow the suit led if you can" with nothing led — a new author's Oh Hell)."""
        words = set()
        for text in legal:
            for form in _forms(text):
                words.update(form)
        seen = None
        for word in typed:
            if word in words or self.enum_named(word) in words or numbers and re.fullmatch(r"-?\d+", word):
                continue
            if word in self.cell_words():      # (a square of the board is in sight: the rules' reason says why
                continue                       #  not there — a blocked charge on a board read "no charge choice has c4")
            if seen is None:
                places = [{w for label in labels for form in _forms(label) for w in form}
                          for labels in self.labels_in_sight_by_zone()]
                # (the places some legal choice takes a card from: a card there failed the rules)
                seen = set().union(*[place for place in places if place & words] or [set()])
                if not any(place & words for place in places):    # (choices of no card: as before)
                    seen = set().union(*places)
            if word in seen:
                return None
            labels = getattr(self.match, "labels", None) or []
            return next((str(x) for x in labels if isinstance(x, str) and word in (fit(x, "ascii").lower(), x.lower())),
                        word)         # (`a♠` typed: `A♠`, as the cards show it)
        return None

    def labels_in_sight_by_zone(self) -> list[list[str]]:
        """The labels of the components the player to act may see now, zone by zone of their view."""
        try:
            view = self.match.view(self.match.current_player, drawing=False)
        except (RuleRuntimeError, EngineFault):
            return []
        return [[str(c.get("label")) for c in (z.get("cards") or []) if isinstance(c, dict) and c.get("label")]
                for z in view.get("zones", [])]

    def subset_actions(self) -> frozenset:
        """The names of the actions whose every parameter is a pick (`_subset_actions`), once a session."""
        found = self.__dict__.get("_subsets")
        if found is None:
            found = self._subsets = _subset_actions(getattr(self.game, "ir", None))
        return found

    def enum_named(self, wanted: str) -> str:
        """`wanted` with each word that is an enum value's name (`spades`) as the rules show that
        value (`♠`): a player may type the name of what the screen shows as a symbol."""
        texts = self.__dict__.get("_enum_texts")
        if texts is None:
            ir = getattr(self.game, "ir", None) or {}
            texts = self._enum_texts = {str(v["name"]).lower(): " ".join(str(v["text"]).lower().split())
                                        for values in (ir.get("enums") or {}).values() for v in values
                                        if isinstance(v, dict) and v.get("text")}
        return " ".join(texts.get(w, w) for w in wanted.split())

    def play(self, seat: int, action, answer: bool | None = None) -> bool:
        """Applies a human's action; True if the match changed or was restored after a rule error.
        `answer`: whether it answers the question waiting (default: whether one waits)."""
        before = self.match.state()
        seen_before = self.before_view()
        away = self.views_away()
        self.was_choice = self.match.question is not None if answer is None else answer
        self.undo_stack.append(before)
        self.crossed.append(None)
        self.decided_by.append(seat)
        # (the bots' generators as they were here: undone to here, a bot asked again answers the same —
        # else a person could undo and ask until its answers told its hidden dice, a new author's Liar's Dice)
        self.bot_states[len(self.match.log)] = {s: b.rng.getstate() for s, b in self.bots.items() if hasattr(b, "rng")}
        # (and what each seat's recap held: undone to here, it holds it again — a first hour read only
        # "undone" and the move after, not the enemy defeated before the move undone)
        self.since_at[len(self.match.log)] = {s: list(lines) for s, lines in self.since_move.items()}
        try:
            self.apply(action)
        except IllegalAction as error:
            self.undo_stack.pop(), self.crossed.pop(), self.decided_by.pop()
            self.error(printable(error))
            return False
        except (RuleRuntimeError, EngineFault) as error:
            self.undo_stack.pop(), self.crossed.pop(), self.decided_by.pop()
            self.say(self.fault_text(error), "error")
            try:
                self.match = self.restore(before)    # (the engine leaves it so; a match of another make may not)
            except StateError:
                pass                                 # (then as the engine left it: unchanged)
            return True
        self.recording, self.recording_seat = [], seat     # (for `recap`: from this move to their next)
        self.since_move[seat] = []
        self.log_recap.pop(seat, None)          # (what a loaded save's log said before: no longer since its move)
        self.announce_move(seat_name(seat), action)
        told = self.told
        self.tell_in_order(seat, self.next_turn_said(told))   # (still at the terminal: also what the move
        self.note_changes_away(away, action, told)            # told them alone) — then its changes (each
        self.tell_changes(seen_before, action, told)          # seat away hears its own later), then
        self.tell_in_order(seat)                              # what the next turn's start said
        self.seen[seat] = len(self.events)   # all that was on their screen as it happened
        return True

    def apply(self, action) -> None:
        """Apply an action and note whether it told a human seat something hidden: then no undo
        may go back past it (the player would replay knowing the card, the roll, the shuffle)."""
        match = self.match
        self.turn_before = getattr(match, "turn_count", None)
        humans = [p for p in range(match.players) if p not in self.bots]
        before = {p: match.visible_to(p) for p in humans}
        actor = interrupt_seat(str(action))
        actor = match.current_player if actor is None else actor
        own = before.get(actor, set())          # a human showing their own card tells them nothing
        told = len(match.message_log())
        existed = len(match.labels) if hasattr(match, "labels") else None     # (components so far)
        question = match.question
        together = match.simultaneous                          # (engine/simultaneous.py)
        self.was_secret = together is not None
        logged = len(match.log)
        base = match.clone() if together is None and humans and has_secrets(match) else None
        match.apply(action)
        self.revealed, self.revealed_own = [], {}
        if together is not None and len(match.log) > logged:    # the last answer: one entry per player asked
            raw = match.log[logged:]

            def as_read(entries):              # (a drafted card stays secret)
                return [text if text == mine or text.startswith(f"{seat_name(seat)}: ") else f"{seat_name(seat)}: {text}"
                        for seat, text, mine in zip(together["seats"], entries, raw)]
            self.revealed = as_read(match.log_for(None)[logged:])
            # each human seat reads its own answer (and what else it may see) in full
            self.revealed_own = {p: as_read(match.log_for(p)[logged:]) for p in humans}
        self.note_log(logged, actor, together, told)
        interrupting = (question is not None and interrupt_seat(str(action)) is not None
                        and not question.get("also") and str(action) not in (question.get("options") or ()))
        if question is not None and match.log and not interrupting:   # the question this answer was to
            self.asked[len(match.log) - 1] = str(question.get("prompt") or "")     # (for `log`)
        reason = (learned(match, {p: seen | own for p, seen in before.items()}, told, existed)
                  or answers_revealed(together, logged, match, humans))
        if reason is not None and self.crossed:
            self.crossed[-1] = reason
        elif base is not None and not match.is_over and self.crossed:
            # (replaying the move in imagined worlds costs: done only if an undo is asked)
            checks = self.crossed[-1]
            if checks is None:
                checks = self.crossed[-1] = _HiddenChecks()
            if isinstance(checks, _HiddenChecks):
                checks.add(base, str(action), match.clone(), humans)

    def undo_refusal(self, asker: int | None = None) -> str | None:
        """Why undoing to the last entry of the undo stack is refused, or None (the moves since it
        replayed in imagined worlds now, if that was left to be asked, as `asker` may judge it: the
        person at the terminal, else the one whose decision it was)."""
        why = self.crossed[-1]
        if isinstance(why, _HiddenChecks):
            if asker is None:
                asker = self.on_screen if self.on_screen is not None else self.decided_by[-1]
            return why.resolve(asker)
        return why

    def note_log(self, logged: int, actor, together, told: int) -> None:
        """For `log`: who made each new log entry, and the messages the move wrote (under its last entry)."""
        new, messages = len(self.match.log), len(self.match.message_log())
        seats = list(together["seats"]) if together is not None else []
        for i in range(logged, new):
            k = i - logged
            seat = seats[k] if len(seats) == new - logged else actor
            # (the move's messages under its last entry; an earlier one starts where they do: the
            # first of a simultaneous step's answers set the setup's end after its reveal's lines)
            self.log_meta[i] = (seat, told, told) if i < new - 1 else (seat, told, messages)

    @staticmethod
    def fault_text(error) -> str:
        if isinstance(error, EngineFault):
            return printable(f"internal error: {error} (please report this; {fault_report(error)})")
        return f"rule error: {printable(error)}"

    # -- what happened: moves, answers and messages, each shown only to who may see it ------

    def announce_move(self, who: str, action) -> None:
        """A move, announced: a choice's answer (or an action, `log_for`) that names a card some
        player cannot see is said without its text, but in full to the chooser and every human
        seat that may see it."""
        public = f"{who} {self.played(action)}"
        own = {}
        if self.was_secret and self.revealed:
            own = {p: f"{who} {self.played(action, revealed=seen)}" for p, seen in self.revealed_own.items()
                   if seen != self.revealed}
        if not self.was_secret and self.secret_answer():
            full = f"{who} {self.played(action, secret=False)}"
            last = len(self.match.log) - 1
            own = {p: full for p in range(self.match.players)
                   if p not in self.bots and self.match.log_for(p)[last] == self.match.log[last]}
            self.named_later[len(self.events)] = (last, full)
        self.announce(public, own=own)

    def played(self, action, secret: bool | None = None, revealed: list | None = None) -> str:
        """How a move is announced to everyone at the terminal. A choice's answer that names a
        card some player cannot see is announced without its text (`secret` False: with it);
        `revealed`: a simultaneous step's answers as one seat reads them (else as all may)."""
        text = str(action)
        if interrupt_seat(text) is not None:                  # an interrupt: `P3: reveal`
            text = text.partition(": ")[2]
        if self.was_secret:                 # a simultaneous step's answer: never its text before all are in
            revealed = self.revealed if revealed is None else revealed
            if not revealed:
                return "answers in secret"
            # ("revealed" only where every answer is: one that stays a secret choice is not — a new
            # author's crib, a card tossed face down at once, read "every answer is revealed")
            told = "revealed" if not any(str(x).endswith("(a secret choice)") for x in revealed) else "in"
            return f"answers in secret; every answer is {told}: " + " · ".join(printable(x) for x in revealed)
        if not self.was_choice:             # (an action naming a card of its holder's `others` zone: engine's log_for)
            return "plays: (a secret choice)" if (self.secret_answer() if secret is None else secret) \
                else f"plays: {printable(text)}"
        asked = self.asked.get(len(self.match.log) - 1)
        to = f" (asked: {printable(asked)})" if asked and not asked.startswith("respond in ") else ""
        if self.secret_answer() if secret is None else secret:
            return "makes a secret choice" + to
        return f"chooses: {printable(text)}{to}"

    def named_now(self, event: int, seat: int, line: str) -> str:
        """An answer announced as a secret choice, in full to `seat` if the log now names it to them:
        the effect laid the card face up after the pick (a new author's Jaipur, two cards given back
        to the market, read "P1 makes a secret choice" beside `· Spice, Diamond: hand (P1) → market`)."""
        later = self.named_later.get(event)
        if later is None:
            return line
        at, full = later
        log = self.match.log
        return full if at < len(log) and self.match.log_for(seat)[at] == log[at] else line

    def secret_answer(self) -> bool:
        """Did the answer just given name a component some seat could not see? (The engine
        decides, by the component itself: `Match.log_for`.)"""
        log = self.match.log
        return bool(log) and self.match.log_for(None)[-1] != log[-1]

    def next_turn_said(self, told: int) -> int | None:
        """Where the messages the next turn's start wrote begin, when the last move ended a turn (its
        changes are told before them: `P1 plays: move P1/1`, `· P1/1: pos 0 → 2`, then `> P2 rolls 5`;
        the lines came last, as if P2's roll had moved P1's pawn — a new author's race game)."""
        began = getattr(self.match, "turn_began_at", 0)
        if getattr(self.match, "turn_count", None) == getattr(self, "turn_before", None):
            return None                      # (no turn began during the move)
        return began if told <= began < len(self.match.messages) else None

    def tell_public(self, upto: int | None = None) -> None:
        """Announce the messages for everyone the last move wrote (those before `upto`)."""
        messages = self.match.message_log()[:upto]
        for i, entry in enumerate(messages[self.told:], self.told):
            if entry["to"] is None:
                self.announce(f"  > {printable(entry['text'])}", "message")
            else:
                self.private_at.setdefault(i, len(self.events))
        self.told = len(messages)

    def tell_in_order(self, seat: int, upto: int | None = None) -> None:
        """The messages for everyone and those to `seat` alone, in the order the rules wrote them
        (`P2 holds Guard 1` to you, then `a tie: nobody is out`), the private ones as tell_private
        (those before `upto`)."""
        messages = self.match.message_log()[:upto]
        for i in range(min(self.told, self.told_to[seat]), len(messages)):
            entry = messages[i]
            if entry["to"] is None:
                if i >= self.told:
                    self.announce(f"  > {printable(entry['text'])}", "message")
                continue
            self.private_at.setdefault(i, len(self.events))
            if seat in entry["to"] and i >= self.told_to[seat]:
                to = "you" if seat not in self.bots else seat_name(seat)
                self.say(f"  (to {to}) {printable(entry['text'])}", "message")
        self.told = self.told_to[seat] = len(messages)

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
        if previous is None:                 # (the start: whoever started it sits at the terminal, the
            humans = [p for p in range(self.match.players) if p not in self.bots]    # first human seat)
            if (self.interactive and len(humans) > 1 and not self.events
                    and any(self.sees_differently(seat, h) for h in humans if h != seat)):
                return True                  # (at a terminal everyone is round it as it starts: the first
                                             # screen showed P1's character to all — a first hour's trial)
            previous = humans[0] if len(humans) > 1 else None
        return previous is not None and previous != seat and (self.sees_differently(previous, seat)
                                                              or self.has_private(seat, previous)
                                                              or self.__dict__.get("screen_private", False))

    def has_private(self, seat: int, other: int) -> bool:
        """Whether a message to `seat` alone (not to `other`) waits to be shown: the seat must have
        the terminal to itself for it, even where the two see the table alike (a new author's
        `log … to [P2]` was printed on P1's screen)."""
        return any(entry["to"] is not None and seat in entry["to"] and other not in entry["to"]
                   for entry in self.match.message_log()[self.told_to[seat]:])

    def sees_differently(self, one: int, other: int) -> bool:
        """Whether the two seats' views differ in anything but whose view it is, and the `show`
        values made of public things and `me` alone (`You play: light`), which each could work out
        for the other (a two-player board game with nothing hidden was handed over every move)."""
        public = self.__dict__.get("public_shows")
        if public is None:
            public = self.public_shows = public_shows_at(self.game)
        shows = len(getattr(self.game, "shown", ()) or ())

        def seen(view: dict) -> dict:
            out = {key: value for key, value in view.items() if key != "viewer"}
            values = out.get("values")
            if public and isinstance(values, list) and len(values) >= shows:
                # (the `show` values come last, in the rules' order: told apart by place, never by
                # name — a secret `show "Note"` beside a public one of that name was dropped too)
                cut = len(values) - shows
                out["values"] = values[:cut] + [v for i, v in enumerate(values[cut:]) if i not in public]
            return out
        return seen(self.screen_view(one)) != seen(self.screen_view(other))

    def hand_over(self, seat: int) -> None:
        """Clear the screen, wait for the next player, then tell them what happened since they
        last had the terminal (moves and messages everyone may see)."""
        self.clear_screen()
        self.screen_private = False
        self.swap_history(seat)
        typed = " ".join(self.ask(f"Pass the terminal to {seat_name(seat)} and press Enter ", again=True).split())
        while typed and self.interactive:    # (at a terminal, only Enter hands it over: `d7` typed there
            self.say("(nothing was played: press Enter to take the terminal, then type your move)")   # by the
            typed = " ".join(self.ask(f"{seat_name(seat)}, press Enter ", again=True).split())  # one leaving was
        if typed:                            # played as the next one's move — a first hour; a transcript's
            self.typed_ahead.append(typed)   # line, piped, is the next prompt's answer, not lost)
        if seat not in self.welcomed and not self.watching and _isatty(self.stdout):
            # (each person's first turn at the terminal says what the game is and how to ask for
            # help: the screen cleared for the first hand-over wiped it — a first hour at the terminal)
            self.welcomed.add(seat)
            for line in getattr(self, "intro", ()):
                self.say(line)
            self.say("Type help for commands, rules for the rules.")
        start = self.seen[seat]
        missed = [(self.own_events.get(i, {}).get(seat, self.named_now(i, seat, line)), style)
                  for i, (line, style) in enumerate(self.events[start:], start)]
        if missed and self.seen[seat]:
            self.say(f"Since {seat_name(seat)}'s last move:", "dim")
        # the messages to this seat alone, each under the move that wrote it (where that is known)
        messages = self.match.message_log()
        private = [i for i in range(self.told_to[seat], len(messages))
                   if messages[i]["to"] is not None and seat in messages[i]["to"]]
        placed = all(self.private_at.get(i, -1) >= start for i in private)
        to = "you" if seat not in self.bots else seat_name(seat)
        for at, said in enumerate(missed + [None], start):
            for i in private if placed else ():
                if self.private_at[i] == at:
                    self.say(f"  (to {to}) {printable(messages[i]['text'])}", "message")
            for line in self.seat_changes.get(at, {}).get(seat, ()):    # (after the move's messages)
                self.say(f"  · {line}", "dim")
                if "to you" in line:
                    self.screen_private = True       # (as tell_changes: cards shown to this seat alone)
            if said is not None:
                self.say(*said)
        if placed:
            self.told_to[seat] = len(messages)
        if self.seen[seat] or missed:        # (public lines only: `recap` shows them again; after a loaded
            # save's, those its log gave — a review read only the log's over the moves since the load)
            self.recap_lines = self.log_recap.get(seat, []) + [shown for at, said in enumerate(missed + [None], start)
                                for shown in [f"  · {c}" for c in self.seat_changes.get(at, {}).get(seat, ())
                                              if "to you" not in c] + ([said[0]] if said else [])]
            self.recap_note = bool(missed)

    def swap_history(self, seat: int | None) -> None:
        """What the player leaving the terminal typed (Up arrow) and could complete (Tab: the
        texts of their actions, their cards) goes with them: the next one gets their own back."""
        self.completions = []
        if self.readline is None:
            return
        rl = self.readline
        leaving = self.on_screen
        if leaving is not None:
            self.histories[leaving] = [rl.get_history_item(i) for i in range(1, rl.get_current_history_length() + 1)]
        rl.clear_history()
        for line in self.histories.get(seat, []) if seat is not None else []:
            rl.add_history(line)

    def clear_screen(self) -> None:
        self.stdout.write(CLEAR_SCREEN if _isatty(self.stdout) else "\n" + "=" * 60 + "\n")

    # -- helpers ----------------------------------------------------------------

    def restore(self, state: dict):
        return type(self.match).from_state(self.game, state)

    def undo_history(self) -> None:
        """After a save is loaded: the undo stack of its log's human decisions, as if they had been
        made here — the match replayed from its seed, each move judged as a move played at the
        terminal is (what it told whom). If that replay fails or takes too long, undo starts afresh;
        the loaded match itself is never touched."""
        live, meta, asked = self.match, dict(self.log_meta), dict(self.asked)
        self.undo_stack, self.crossed, self.decided_by = [], [], []
        if self.seed is None or not any(p not in self.bots for p in range(live.players)):
            return
        stop = time.thread_time() + UNDO_HISTORY_SECONDS
        try:
            self.match = self.game.new_match(live.players, self.seed, dict(self.options))
            for text in live.log:
                if time.thread_time() > stop:
                    raise TimeoutError
                seat = interrupt_seat(text)
                seat = self.match.current_player if seat is None else seat
                if seat not in self.bots:
                    self.undo_stack.append(self.match.state())
                    self.crossed.append(None)
                    self.decided_by.append(seat)
                self.apply(text)
            if self.match.state() != live.state():
                raise ValueError("not the loaded position")
        except Exception:                     # (undo then starts from here, as before)
            self.undo_stack, self.crossed, self.decided_by = [], [], []
        finally:
            self.match, self.log_meta, self.asked = live, meta, asked
            self.revealed, self.revealed_own = [], {}

    def rewind(self, match, message: str, since: dict | None = None) -> None:
        """Continues from another state of the match; what was announced before no longer applies.
        `since`: each seat's recap lines as they were at that state (an undo), else none."""
        self.match = match
        self.recap_lines, self.recording, self.recap_note = [], None, False   # (what recap would show is undone)
        self.since_move = {s: list(lines) for s, lines in (since or {}).items()}
        self.seen = [len(self.events)] * match.players
        self.seat_changes = {}              # (what the moves undone changed: no seat's recap tells it)
        self.named_later = {}               # (their log places name other moves now)
        self.log_recap = {}
        self.told = len(match.message_log())
        self.told_to = [self.told] * match.players
        self.private_at = {}
        self.announce(message)

    def player_kind(self, seat: int) -> str:
        return f"{self.bots[seat].kind} bot" if seat in self.bots else "human"

    def announce(self, line: str, style: str = "move", own: dict[int, str] | None = None) -> None:
        """A line for everyone at the terminal (`own`: the line as some seats may read it instead)."""
        self.events.append((line, style))
        if own:
            self.own_events[len(self.events) - 1] = own
        if style == "move" and not line.startswith("  "):
            self.last_move = line
        shown = (own or {}).get(self.on_screen, line) if self.on_screen is not None and not self.watching else line
        if shown != line:
            self.screen_private = True          # (a move as this seat alone reads it: see needs_hand_over)
        self.say(shown, style)

    def error(self, text: str) -> None:
        self.say(f"error: {text}", "error")

    def show_text(self, text) -> str:
        return fit(printable(text), self.encoding)

    def show_view(self, seat: int, together: list[int] | None = None) -> None:
        """A seat's view, its header line in colour; `together`: what those seats all see (the end
        of a game at one terminal, where each may look)."""
        view = common_view([self.screen_view(p) for p in together]) if together else self.screen_view(seat)
        text = render_view(view, self.width(), cut_board=self.size() is not None)
        if together:
            shared = " and ".join(seat_name(p) for p in together)
            text = re.sub(r"(· |^  )you are (P\d+)", rf"\1as {shared} all see it", text, count=1, flags=re.M)
        elif self.watching:                    # (bots in every seat: nobody at the terminal is P1)
            text = re.sub(r"(· |^  )you are (P\d+)", r"\1as \2 sees it", text, count=1, flags=re.M)
        head, _, rest = text.partition("\n")
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
        held = self.__dict__.get("held_lines")
        if held is not None:                    # (a command's answer, said whole once it is known: `look`)
            held.append((text, style))
            return
        shown = fit(printable(text, multiline=True), self.encoding)
        if style == "message" and text.lstrip().startswith("(to "):
            self.screen_private = True          # (a message to this seat alone: see needs_hand_over)
        size = self.size()
        if size is not None:
            shown = "\n".join(row for line in shown.split("\n") for row in wrap_line(line, size[0]))
        if self.recording is not None:
            self.recording += shown.split("\n")
        self.stdout.write(self.paint(shown, style) + "\n")
        self.stdout.flush()

    def ask(self, prompt: str, again: bool = False, interrupt: str | None = None) -> str:
        """One line of input. When it is piped, the line is echoed after the prompt so the
        transcript reads well, and its end stops the session; at a terminal its end (Ctrl-D) or
        Ctrl-C offers to save first, and `back` from there gives "" — or, with `again`, asks
        again (a hand-over: "" would be the next player's Enter, and show the leaving one their
        cards — a first hour's trial). `interrupt`: what Ctrl-C and Ctrl-D answer there (the pager's
        `q`: it stops the page, not the game — a first hour at the terminal was offered to save)."""
        while True:
            try:
                line = self.read_line(prompt)
            except KeyboardInterrupt:
                if not self.interactive:
                    raise
                if interrupt is not None:
                    self.stdout.write("\n")
                    return interrupt
                line = None
            else:
                if line is not None:
                    return line
                if not self.interactive:
                    self.stdout.write("\n")
                    raise _Stop("input ended", 0)
                if interrupt is not None:        # (Ctrl-D at the pager stops the page, as Ctrl-C and q
                    self.stdout.write("\n")     #  do: it left the game — a first hour at the terminal)
                    return interrupt
            self.stdout.write("\n")
            code = self.leave()
            if code is not None:
                raise _Stop("", code) from None
            if not again:
                return ""                        # (`back`: the prompt again)

    def cell_words(self) -> frozenset:
        """The names of the board's squares, as typed (`e11`): empty without a board."""
        words = self.__dict__.get("_cell_words")
        if words is None:
            geometry = getattr(self.game, "geometry", None)
            words = self._cell_words = frozenset(str(n).lower() for n in getattr(geometry, "names", None) or ())
        return words

    def next_line(self, prompt: str) -> str:
        """The next command or action: one typed already (at a hand-over or a pager's prompt: it
        counts, shown after `prompt`), else a line read after `prompt`."""
        if self.typed_ahead:
            line = self.typed_ahead.pop(0)
            self.say(f"{prompt}{self.show_text(line)}")
            return line
        return self.ask(prompt)

    def read_line(self, prompt: str) -> str | None:
        """A line typed after `prompt`, None at the end of input. A line longer than LINE_LIMIT is
        left out, said so, as an empty one (a fuzz trial: `look` of a 40 MB name took 3.7 GB)."""
        if self.readline is not None:
            try:
                line = input(self.paint_prompt(prompt))
            except EOFError:
                return None
            return line if len(line) <= LINE_LIMIT else self._too_long()
        self.stdout.write(self.paint(fit(prompt, self.encoding), "prompt"))
        self.stdout.flush()
        line = self._read_at_most(LINE_LIMIT + 2)
        if not line:
            return None
        if len(line.rstrip("\r\n")) > LINE_LIMIT:
            while line and not line.endswith("\n"):       # (the rest of it, read and dropped a piece at a time)
                line = self._read_at_most(1 << 16)
            if not self.interactive:
                self.stdout.write("\n")
            return self._too_long()
        if not self.interactive:
            self.stdout.write(self.show_text(line.rstrip("\r\n")) + "\n")
        return line.rstrip("\r\n")

    def _read_at_most(self, size: int) -> str:
        try:
            return self.stdin.readline(size)
        except TypeError:                       # (a stream of a program's own that reads whole lines only)
            return self.stdin.readline()

    def _too_long(self) -> str:
        self.error(f"a line of at most {LINE_LIMIT:,} characters is read: this one was longer, and is left out")
        return ""

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
        if typed.startswith("rules "):       # rules KEY: the sections' words (worked out once: a Tab each)
            keys = self.__dict__.get("_rule_keys")
            if keys is None:
                keys = self._rule_keys = [key_of(title) for title, _ in
                                          sections(rulebook(self.game, source=self.rules_path()))[1]]
            found += ["rules " + k for k in keys + ["all"] if ("rules " + k).startswith(typed)]
        for verb in ("look ", "help "):       # look NAME, help NAME: the names with rules text
            if typed.startswith(verb):
                found += [verb + name for name in self.names().names() if (verb + name).lower().startswith(typed)]
        return found[state] if state < len(found) else None


def wrap_line(line: str, width: int) -> list[str]:
    """A line of at most `width` columns as it is; a longer one broken between words (never inside
    one, nor at a hyphen), its continuation indented under the line's own indent and two more. A
    line with a word too wide for any line is left to the terminal."""
    if len(line) <= width:
        return [line]
    lead = " " * (len(line) - len(line.lstrip()))
    if max(len(word) for word in line.split()) > width - len(lead) - 2:
        return [line]                # (a word wider than the screen, a file's path: the terminal cuts it anyway)
    return textwrap.wrap(line, width, subsequent_indent=lead + "  ", break_long_words=False,
                         break_on_hyphens=False) or [line]


def learned(match, before: dict, told: int, existed: int | None = None) -> str | None:
    """What the last action told a seat that it could not know before, in words (None: nothing):
    chance drawn (a shuffle, a roll, a random pick), a component a seat now sees that it did not
    (a card drawn from a hidden zone, a reveal), or a message to that seat alone. `before`: each
    watched seat's `visible_to` before the action; `told`: how many messages there were; `existed`:
    how many components there were — in a game where every zone and variable is public, one the
    action made (a stone placed) tells nothing (where there are secrets, its fields may copy one)."""
    events = match.chance_events
    if events:
        kind = events[0][0]
        return {"roll": "a die was rolled", "pick": "something was picked at random",
                "shuffle": "cards were shuffled"}[kind]
    ir = getattr(getattr(match, "game", None), "ir", None) or {}
    open_game = existed is not None and bool(ir) and not _ir_secrets(ir)
    made_from = existed if open_game else None     # (the components the action made: ids from here on)
    for seat, seen in before.items():
        now = match.visible_to(seat)
        new = [c for c in now - seen if made_from is None or c < made_from]
        if new:
            new = _not_copies_of(match, new, seen - now)
        if new:
            return f"{seat_name(seat)} has seen a card that was hidden from them"
    for entry in match.message_log()[told:]:
        if entry["to"] is not None and any(seat in before for seat in entry["to"]):
            return "a player was told something in private"
    return None


def _not_copies_of(match, new: list, gone: set) -> list:
    """The components come into a seat's sight that are not the copies of ones gone out of it: a
    card played from a hand may come out as another copy (docs/engine.md, "Copies played from a
    hidden zone") — the seat saw its own card go and a copy of it come, nothing new (a first hour:
    undo was refused after every card of a card game that has copies, "P1 has seen a card hidden
    from them")."""
    try:
        classes = match.copies()
    except (AttributeError, TypeError):      # (a match of another make)
        return new
    left = set(gone)
    out = []
    for c in new:
        twin = next((g for g in classes.get(c, ()) if g in left), None)
        if twin is None:
            out.append(c)
        else:
            left.discard(twin)
    return out


def answers_revealed(together, logged: int, match, people) -> str | None:
    """The last answer to a simultaneous decision (`together`: `Match.simultaneous` before the
    action) reveals every answer, secret until then: a person may not undo back past it and answer
    again knowing the others' (a new author's rock-paper-scissors allowed it). None otherwise."""
    if together is None or len(match.log) <= logged:
        return None
    seats = list(together.get("seats") or ())
    if len(seats) > 1 or any(s not in people for s in seats):
        return "the secret answers were revealed"
    return None


# the worlds a seat might imagine, for `hidden_outcome`: 6 let a new author's Scotland Yard detective
# undo 8 moves in 20 that had told them Mr. X was not on the station landed on, and try another
HIDDEN_TRIES = 48
HIDDEN_DRAWS = 192    # at most this many drawn to find them (a world where the move cannot be made is not one)
OTHER_TRIES = 8       # (each other seat's, in each of ASKER_WORLDS worlds the asker imagines)
# … and more in a small game, where they are cheap: with 48, 1 move in 21 that had told a detective
# Mr. X was not on a station he could be on might still be undone (he is there in 1 world in 30). As
# many as HIDDEN_SIZED divided by the position's size (its components and variables' entries: a world of
# a hidden-movement game's 54 costs ~0.2 ms, of a hidden-role game's 135 ~2 ms, of a card game's 1,270 ~3 ms), between
# HIDDEN_TRIES and HIDDEN_MOST: a count, not a time, so the verdict is the same on every machine (a review)
HIDDEN_MOST = 480
HIDDEN_SIZED = 12_000    # (24,000 made a co-operative card game's undo 1.5–2× slower: its worlds cost more than its size says)


def _worlds_for(m) -> int:
    """How many imagined worlds `hidden_outcome` plays a move in, for a seat, in match `m`."""
    size = len(m.labels) + sum(len(v) if isinstance(v, (list, dict)) else 1 for v in m.V)
    return max(HIDDEN_TRIES, min(HIDDEN_MOST, HIDDEN_SIZED // max(1, size)))


class _HiddenChecks:
    """The moves since a person's decision whose outcome is still to be checked (`hidden_outcome`)
    should an undo be asked: (the match before, the move, the match after, the people)."""

    def __init__(self) -> None:
        self.moves: list = []
        self.verdicts: dict = {}             # asker -> why the undo is refused, or None

    def add(self, base, text: str, after, seats) -> None:
        self.moves.append((base, text, after, seats))

    def resolve(self, asker: int | None = None) -> str | None:
        if asker not in self.verdicts:
            self.verdicts[asker] = next((why for base, text, after, seats in self.moves
                                         if (why := hidden_outcome(base, text, after, seats, asker=asker))), None)
        return self.verdicts[asker]


def hidden_outcome(base, text: str, after, seats, tries: int = HIDDEN_TRIES, asker: int | None = None) -> str | None:
    """Did what the action showed a person's seat depend on what that seat could not see? (A
    wound that kills or not by the hidden character's health: no card shown, no die rolled, yet
    the survivor is known not to be one of the frail.) Played again from `base` (the match before
    it) in worlds the seat might imagine (`determinized`) where the move can be made (it was seen
    made: a world where the mover does not hold the card played is not one), the seat must see
    the same: its view, its log and its messages. In words, or None. Only asked where `learned`
    found nothing.

    With an `asker` (the person asking to undo, who is told the verdict), the verdict hangs on nothing
    the asker may not know: another seat's worlds are imagined from worlds the asker imagines (where
    the move can be made), not from the real one — a refusal judged on another player's own cards
    told the asker one thing about them (a leak scan: a 3-player card game, a `yield`)."""
    if asker is not None:
        return _hidden_outcome_for(base, text, after, seats, tries, asker)
    if tries >= HIDDEN_TRIES:
        tries = _worlds_for(base)
    for p in seats:
        seen = _seen_of(after, p)
        worlds = 0
        for k in range(HIDDEN_DRAWS * tries // HIDDEN_TRIES):
            if worlds >= tries:
                break
            try:
                world = base.determinized(p, k)
                world.apply(text)
            except IllegalAction:
                continue                        # (not a world the seat may imagine: the move was made)
            except Exception:                   # (a rule error there, not here: it hung on the hidden)
                return f"what happened told {seat_name(p)} about what was hidden from them"
            worlds += 1
            if _seen_of(world, p) != seen:
                return f"what happened told {seat_name(p)} about what was hidden from them"
    return None


ASKER_WORLDS = 2      # worlds the asker imagines, in which each other seat's are imagined in turn


def _hidden_outcome_for(base, text: str, after, seats, tries: int, asker: int) -> str | None:
    """`hidden_outcome` as `asker` may judge it: their own seat against the real outcome (what they
    saw), every other seat against the outcome in a world the asker imagines."""
    why = hidden_outcome(base, text, after, [asker], tries) if asker in seats else None
    if why is not None:
        return why
    others = [p for p in seats if p != asker]
    if not others:
        return None
    found = 0
    for j in range(HIDDEN_DRAWS):
        if found >= ASKER_WORLDS:
            break
        try:
            imagined = base.determinized(asker, 1000 + j)
            outcome = imagined.clone()
            outcome.apply(text)
        except IllegalAction:
            continue                            # (the asker saw the move made: not this world)
        except Exception:
            return "what happened may have told a player about what was hidden from them"
        found += 1
        for p in others:                        # (their worlds, from this one: as `hidden_outcome` does)
            why = hidden_outcome(imagined, text, outcome, [p], min(tries, OTHER_TRIES))
            if why is not None:
                return why
    return None


def has_secrets(match) -> bool:
    """May an outcome of this match depend on what a seat cannot see (`hidden_outcome`)? Only in a
    game with secrets, and a match of this engine (one of another make has no `determinized`)."""
    ir = getattr(getattr(match, "game", None), "ir", None)
    return bool(ir) and hasattr(match, "determinized") and _ir_secrets(ir)


def _ir_secrets(ir: dict) -> bool:
    """Has the game a zone or a variable that is not public (or a pile showing only its top)?"""
    return any(z.get("visibility") != "public" or z.get("top") for z in ir.get("zones", ())) or any(
        v.get("visibility", "public") != "public" for v in ir.get("vars", ()))


def _seen_of(match, p: int) -> tuple:
    view = dict(match.view(p))
    view.pop("seed", None)
    return json.dumps(_copies_as_one(match, view), sort_keys=True, default=str), match.log_for(p), \
        match.messages_for(p)


def _copies_as_one(match, x):
    """A view with each copy's id as its first copy's: which copy a hand played is the engine's
    exchange (docs/engine.md), no outcome of what the seat could not see (a first hour: undo was
    refused after every card of a card game that has copies, "what happened told P2 about what was
    hidden")."""
    try:
        classes = match.copies()
    except (AttributeError, TypeError):      # (a match of another make)
        return x
    if not classes:
        return x

    game = getattr(match, "game", None)        # the variables whose values are components (a first
    held = {name for name, how in (getattr(game, "var_how", None) or {}).items() if how == "comp"}   # hour:
    held |= set(getattr(game, "var_comp_lists", ()) or ())   # which Saucy Wench asks, `in_play_of` 4 or 5)

    def one(c):
        return min(classes[c]) if type(c) is int and c in classes else c

    def ids(v):
        return [ids(w) for w in v] if isinstance(v, list) else one(v)

    def walk(v, key=None):
        if isinstance(v, dict):
            if key in ("component_values", "component_texts"):
                return {str(one(int(k))) if k.isascii() and k.isdigit() and len(k) < 12 else k: walk(w) for k, w in v.items()}
            named = v.get("name") in held           # (a variable's entry: its value is components)
            return {k: (one(w) if k in ("id", "source") else ids(w) if k in held or named and k == "value"
                        else walk(w, k)) for k, w in v.items()}
        if isinstance(v, list):
            return [walk(w) for w in v]
        return v
    return walk(x)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def public_shows_at(game) -> frozenset:
    """The places, among the rules' `show` values in a view (in the rules' order), of those made of
    public things and `me` alone (ir/sight.py: `surely_public`)."""
    ir = getattr(game, "ir", None)
    if not ir:
        return frozenset()
    defs = ir.get("defs", {})
    return frozenset(i for i, entry in enumerate(getattr(game, "shown", ()) or ())
                     if entry[0] in defs and surely_public(ir, defs[entry[0]].get("body")))

