"""The terminal player behind `rulelang play`.

A human seat is shown only what `match.view` gives that seat; when two humans share
the terminal and see different things, the screen is cleared and the terminal handed
over before the next one's view appears. Bots play the other seats. Any problem with
what was typed is one line and a new prompt: a typo must never end a game. Everything
the rule file or a save wrote (names, labels, actions) is shown through `printable`, so
none of it can send the terminal a command.
"""
from __future__ import annotations

import json
import sys

from rulelang.bots import bot_seed, make_bot
from rulelang import interrupt_seat
from rulelang.errors import IllegalAction, RuleRuntimeError, StateError
from rulelang.replay import check_game, read, rebuild, save_data
from rulelang.textsafe import printable

CLEAR_SCREEN = "\033[H\033[2J\033[3J"
MAX_CANDIDATES = 8           # ambiguous-prefix candidates listed on the one error line

HELP = """\
Choose an action by its number, its text, or the start of its text (any case).
Commands:
  help        show this text
  log         list the actions played so far
  undo        go back to the previous decision of a human player
  as P2       let another player at the terminal act now, out of turn (an any-time action)
  save FILE   write the match to FILE
  load FILE   continue a match written by save
  quit        leave the game"""


def seat_name(seat: int) -> str:
    """Seats are 0-based in the API and P1..Pn for people."""
    return f"P{seat + 1}"


class _Stop(Exception):
    """Ends the session early, with the exit code to return."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def run_repl(game, players: int, seed: int, options: dict | None = None,
             bots: dict[int, str] | None = None, stdin=None, stdout=None,
             source_path: str | None = None) -> int:
    """Plays one match at the terminal; returns the exit code (0 unless a rule error stopped it).

    `bots` maps 0-based seats to bot kinds; every other seat is a human.
    """
    session = _Session(game, players, seed, options, bots or {},
                       stdin or sys.stdin, stdout or sys.stdout, source_path)
    return session.run()


class _Session:
    def __init__(self, game, players, seed, options, bots, stdin, stdout, source_path):
        for seat in bots:
            if not 0 <= seat < players:
                raise ValueError(f"no seat {seat_name(seat)} in a {players}-player match")
        self.game = game
        self.seed = seed
        self.options = options or {}
        self.stdin = stdin
        self.stdout = stdout
        self.source_path = source_path
        self.match = game.new_match(players, seed, options)
        self.bots = {seat: make_bot(kind, bot_seed(seed, seat)) for seat, kind in bots.items()}
        self.undo_stack: list[dict] = []     # states just before each human decision
        self.on_screen: int | None = None    # the human whose view was shown last
        self.since_view: list[str] = []      # moves announced since then, repeated after a hand-over
        self.commands = {"help": self.help, "log": self.show_log, "undo": self.undo,
                         "save": self.save, "load": self.load, "quit": self.quit,
                         "as": self.interrupt}
        self.was_choice = False                       # was the last move an answer to a choice?
        self.told = len(self.match.message_log())     # messages announced (public) so far
        self.told_to = [self.told] * players          # messages shown to each seat so far

    # -- the loop ---------------------------------------------------------------

    def run(self) -> int:
        self.say(f"{printable(self.game.name)}: {self.match.players} players, seed {self.seed}")
        self.say("  " + ", ".join(f"{seat_name(s)} {self.player_kind(s)}" for s in range(self.match.players)))
        self.say("Type help for commands.")
        try:
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
        self.say(render_outcome(self.match.outcome, [self.player_kind(s) for s in range(self.match.players)]))
        return 0

    def bot_turn(self, seat: int) -> None:
        """One bot move; a rule error goes back to the last human decision, as there is nothing a bot could do."""
        bot = self.bots[seat]
        try:
            action = bot.choose(self.match)
            self.was_choice = self.match.question is not None
            self.match.apply(action)
        except RuleRuntimeError as error:
            if not self.undo_stack:
                raise _Stop(f"rule error: {printable(error)}\nthe game cannot go on", 1) from None
            self.rewind(self.restore(self.undo_stack.pop()),
                        f"rule error: {printable(error)}\nback to the previous decision of a human player")
            return
        self.announce(f"{seat_name(seat)} ({bot.kind}) {self.played(action)}")
        self.tell_public()

    def human_turn(self, seat: int) -> None:
        """Shows the view and reads lines until the match changes (an action, undo or load)."""
        if self.needs_hand_over(seat):
            self.hand_over(seat)
        self.on_screen = seat
        self.since_view = []
        self.say(render_view(self.match.view(seat)))
        self.tell_private(seat)
        actions = self.match.legal_actions()
        self.say("\n".join(f"  {n}. {printable(action)}" for n, action in enumerate(actions, 1)))
        if self.interrupters(seat):
            self.say("  (another player may act now, out of turn: as P1, as P2…)")
        while True:
            line = " ".join(self.ask(f"{seat_name(seat)}> ").split())
            if not line:
                continue
            word, _, argument = line.partition(" ")
            command = self.commands.get(word.lower())
            if command is not None:
                if command(argument):
                    return
                continue
            action = self.pick(line, actions)
            if action is not None and self.play(seat, action):
                return

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
            self.say(f"error: as needs a seat, P1-P{self.match.players}")
            return False
        if seat in self.bots:
            self.say(f"error: {seat_name(seat)} is a bot")
            return False
        if seat == self.match.current_player:
            self.say(f"error: {seat_name(seat)} is the one to act now")
            return False
        offers = self.match.interrupts(seat)
        if self.needs_hand_over(seat):
            self.hand_over(seat)
        self.on_screen = seat
        self.since_view = []
        self.say(render_view(self.match.view(seat)))
        self.tell_private(seat)
        prefix = seat_name(seat) + ": "
        texts = [action.text[len(prefix):] for action in offers]
        if not offers:
            self.say(f"{seat_name(seat)} has nothing to do out of turn now.")
            self.ask("Press Enter to give the terminal back ")
            return True
        self.say("\n".join(f"  {n}. {printable(text)}" for n, text in enumerate(texts, 1)))
        self.say("  (or back: nothing now)")
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
        """The action meant by a number, a text or a unique prefix; None (and one line said) otherwise."""
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(actions):
                return actions[number - 1]
            self.say(f"error: there is no action {number}; choose 1-{len(actions)}")
            return None
        wanted = line.lower()
        texts = [" ".join(str(action).lower().split()) for action in actions]
        for action, text in zip(actions, texts):
            if text == wanted:
                return action
        matches = [action for action, text in zip(actions, texts) if text.startswith(wanted)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            shown = ", ".join(printable(action) for action in matches[:MAX_CANDIDATES])
            more = f" and {len(matches) - MAX_CANDIDATES} more" if len(matches) > MAX_CANDIDATES else ""
            self.say(f"ambiguous: '{printable(line)}' could be {shown}{more}")
        else:
            self.say(f"error: '{printable(line)}' is not a legal action or a command (type help)")
        return None

    def play(self, seat: int, action) -> bool:
        """Applies a human's action; True if the match changed or was restored after a rule error."""
        before = self.match.state()
        self.was_choice = self.match.question is not None
        try:
            self.match.apply(action)
        except IllegalAction as error:
            self.say(f"error: {printable(error)}")
            return False
        except RuleRuntimeError as error:
            self.say(f"rule error: {printable(error)}")
            self.match = self.restore(before)
            return True
        self.undo_stack.append(before)
        self.announce(f"{seat_name(seat)} {self.played(action)}")
        self.tell_public()
        return True

    # -- what happened: moves, answers and messages, each shown only to who may see it ------

    def played(self, action) -> str:
        """How a move is announced to everyone at the terminal. A choice's answer that names a
        card some player cannot see is announced without its text."""
        text = str(action)
        if interrupt_seat(text) is not None:                  # an interrupt: `P3: reveal`
            text = text.partition(": ")[2]
        if not self.was_choice:
            return f"plays: {printable(text)}"
        if not self.public(text):
            return "makes a secret choice"
        return f"chooses: {printable(text)}"

    def public(self, text: str) -> bool:
        """Does this text name no component that some seat cannot see now?"""
        return text.rsplit(" #", 1)[0] not in self.unseen_labels()

    def unseen_labels(self) -> set:
        """The labels of components that some seat cannot see now (none of that label in view)."""
        labels = {c["label"] for c in self.match.state().get("components", [])}
        seen_by_all = set.intersection(*(self.visible(seat) for seat in range(self.match.players)))
        return labels - seen_by_all

    def visible(self, seat: int) -> set:
        view = self.match.view(seat)
        seen = set()
        for zone in view["zones"]:
            for card in (zone["cards"] or []) + zone.get("known", []):
                seen.add(card["label"])
        return seen

    def tell_public(self) -> None:
        """Announce the messages for everyone the last move wrote."""
        messages = self.match.message_log()
        for entry in messages[self.told:]:
            if entry["to"] is None:
                self.announce(f"  > {printable(entry['text'])}")
        self.told = len(messages)

    def tell_private(self, seat: int) -> None:
        """Show a seat the messages written to it alone, once its own view is on screen."""
        messages = self.match.message_log()
        for entry in messages[self.told_to[seat]:]:
            if entry["to"] is not None and seat in entry["to"]:
                self.say(f"  (to you) {printable(entry['text'])}")
        self.told_to[seat] = len(messages)

    # -- hot seat ---------------------------------------------------------------

    def needs_hand_over(self, seat: int) -> bool:
        previous = self.on_screen
        return previous is not None and previous != seat and self.sees_differently(previous, seat)

    def sees_differently(self, one: int, other: int) -> bool:
        """Whether the two seats' views differ in anything but whose view it is."""
        def seen(view: dict) -> dict:
            return {key: value for key, value in view.items() if key != "viewer"}
        return seen(self.match.view(one)) != seen(self.match.view(other))

    def hand_over(self, seat: int) -> None:
        self.clear_screen()
        self.ask(f"Pass the terminal to {seat_name(seat)} and press Enter ")
        for line in self.since_view:
            self.say(line)

    def clear_screen(self) -> None:
        self.stdout.write(CLEAR_SCREEN if self.stdout.isatty() else "\n" + "=" * 60 + "\n")

    # -- commands: each returns True when the match changed ---------------------

    def help(self, _argument: str) -> bool:
        self.say(HELP)
        return False

    def show_log(self, _argument: str) -> bool:
        log = self.match.log
        # an entry naming a card some player cannot see now (a secret choice) is not repeated
        hidden = self.unseen_labels()
        shown = ["(a secret choice)" if text.rsplit(" #", 1)[0] in hidden else text for text in log]
        self.say("\n".join(f"  {n}. {printable(text)}" for n, text in enumerate(shown, 1)) if log else "no actions yet")
        return False

    def undo(self, _argument: str) -> bool:
        if not self.undo_stack:
            self.say("nothing to undo")
            return False
        self.rewind(self.restore(self.undo_stack.pop()), "undone")
        return True

    def save(self, path: str) -> bool:
        if not path:
            self.say("error: save needs a file name, e.g. save match.json")
            return False
        data = save_data(self.game, self.match, self.seed, self.options)
        try:
            with open(path, "w", encoding="utf-8") as file:
                json.dump(data, file, ensure_ascii=False, indent=1)
        except OSError as error:
            self.say(f"error: cannot save {printable(path)}: {error.strerror}")
            return False
        self.say(f"saved {printable(path)}")
        return False

    def load(self, path: str) -> bool:
        """Rebuilds the saved match by replaying its log on this game; the match goes on unchanged
        if the save is not of these rules and players, or does not replay to its saved position."""
        if not path:
            self.say("error: load needs a file name, e.g. load match.json")
            return False
        try:
            data = read_save(path, self.game, self.match.players)
            match = rebuild(data, self.game)
        except StateError as error:
            self.say(f"error: cannot load {printable(path)}: {printable(error)}")
            return False
        self.seed = data["seed"]
        self.options = data["options"]
        self.undo_stack = []
        self.rewind(match, f"loaded {printable(path)}")
        return True

    def quit(self, _argument: str) -> bool:
        raise _Stop("", 0)

    # -- helpers ----------------------------------------------------------------

    def restore(self, state: dict):
        return type(self.match).from_state(self.game, state)

    def rewind(self, match, message: str) -> None:
        """Continues from another state of the match; what was announced before no longer applies."""
        self.match = match
        self.since_view = []
        self.told = len(match.message_log())
        self.told_to = [self.told] * match.players
        self.announce(message)

    def player_kind(self, seat: int) -> str:
        return f"{self.bots[seat].kind} bot" if seat in self.bots else "human"

    def announce(self, line: str) -> None:
        self.since_view.append(line)
        self.say(line)

    def say(self, text: str) -> None:
        """Writes our own lines; anything quoted from rules or saves was made printable already,
        and this pass catches what may have slipped through (keeping our line breaks)."""
        self.stdout.write(printable(text, multiline=True) + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input; when it is piped, echoed after the prompt so the transcript reads well."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            raise _Stop("input ended", 0)
        if not self.stdin.isatty():
            self.stdout.write(printable(line.rstrip("\r\n")) + "\n")
        return line.rstrip("\n")


def read_save(path: str, game, players: int) -> dict:
    """The contents of a save file of this game (these very rules) and player count; StateError
    saying why not (without the path, which the caller names)."""
    data = read(path)
    check_game(data, game)
    if data["players"] != players:
        raise StateError(f"it was saved with {data['players']} players, this match has {players}")
    return data


# -- rendering: pure functions from view/outcome data to text ----------------

def render_view(view: dict) -> str:
    """A seat's view as text: a header, the board drawing if any, the zones and the values."""
    header = [printable(view["game"]), f"turn {view['turn']}"]
    if view.get("step"):
        header.append(f"step {printable(view['step'])}")
    if view.get("turn_player") is not None:
        header.append(f"{seat_name(view['turn_player'])}'s turn")
    header.append(f"you are {seat_name(view['viewer'])}")
    lines = ["== " + " · ".join(header)]
    if view.get("board"):
        lines.append(printable(view["board"].rstrip("\n"), multiline=True))     # its lines are the engine's
    lines += ["  " + render_zone(zone) for zone in view["zones"]]
    lines += ["  " + render_value(value) for value in view["values"]]
    choice = view.get("choice")
    if choice:
        running = [printable(f.get("effect") or f"window {f.get('window')}") for f in choice.get("running", [])]
        doing = f" (resolving: {' > '.join(running)})" if running else ""
        prompt = printable(choice.get("prompt") or choice.get("kind") or "a choice")
        who = "you" if choice["chooser"] == view["viewer"] else seat_name(choice["chooser"])
        lines.append(f"  ▶ {who} must choose: {prompt}{doing}")
    return "\n".join(lines)


def render_zone(zone: dict) -> str:
    name = printable(zone["name"])
    if zone["owner"] is not None:
        name = f"{name} ({seat_name(zone['owner'])})"
    elif zone.get("of"):                       # a zone per component: whose
        name = f"{name} ({printable(zone['of']['label'])})"
    count = zone["count"]
    if zone["cards"] is None:
        known = zone.get("known")
        seen = f" (you know: {' '.join(printable(card['label']) for card in known)})" if known else ""
        return f"{name}: {_cards(count)}, hidden{seen}"
    if not zone["cards"]:
        return f"{name}: empty"
    order = ", bottom to top" if zone.get("ordered") else ""
    return f"{name}: {_cards(count)}{order}: " + " ".join(printable(card["label"]) for card in zone["cards"])


def render_value(value: dict) -> str:
    name = printable(value["name"])
    if "per_player" in value:
        return f"{name}: " + ", ".join(f"{seat_name(seat)} {_show(v)}" for seat, v in enumerate(value["per_player"]))
    shown = value["value"]
    if isinstance(shown, str) and len(shown) > 70 and "\n" not in shown:
        return f"{name} = {_show(shown)}"
    if isinstance(shown, list) and sum(len(str(x)) for x in shown) > 70:   # a long list: one item a line
        return f"{name}:" + "".join(f"\n    {_show(x)}" for x in shown)
    return f"{name} = {_show(shown)}"


def render_outcome(outcome: dict, kinds: list[str]) -> str:
    """Each seat's result (and score, when the game keeps one)."""
    scores = outcome.get("scores")
    lines = ["Game over."]
    for seat, result in enumerate(outcome["results"]):
        score = f", score {_show(scores[seat])}" if scores else ""
        lines.append(f"  {seat_name(seat)} ({kinds[seat]}): {printable(result)}{score}")
    return "\n".join(lines)


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _show(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "-" if value is None else printable(value)
