"""Whole games at a real (pseudo-)terminal (issue 13, "done when"): Regicide and Valgarð played
through `rulelang play` in a pty, with the rulebook, the announcements, the reason at game over,
history (Arrow-Up), Tab completion, colour (and NO_COLOR), the end of input offering to save,
an 8-bit locale's stand-ins, and `simulate` with its progress bar stopped by Ctrl-C."""
from __future__ import annotations

import os
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from rulelang.play.repl_commands import COMMAND_NAMES

pty = pytest.importorskip("pty")

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = str(ROOT / "games" / "regicide.rules")
VALGARD = str(ROOT / "games" / "valgard.rules")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x01|\x02")
# Seconds to wait for output that should come: far more than it ever takes, even on a loaded machine,
# so that only a command that hangs (or never writes it) runs into it.
PATIENCE = 120


def ctrl_c_until(term, pattern: str) -> None:
    """Press Ctrl-C until `pattern` is written. A Ctrl-C that comes just after a prompt is written,
    before readline waits for keys, can go unseen; a person never types that fast, a test on a
    loaded machine can: so it is pressed again, less and less often (waits of 2, 4 … 64 s)."""
    tries, wait = 6, 2.0
    term.send("\x03")
    while not term.wait_for(pattern, wait):
        tries -= 1
        assert not term.ended and tries > 0, f"no {pattern!r} after Ctrl-C in:\n{term.text[-3000:]}"
        term.send("\x03")
        wait *= 2


class Terminal:
    """`rulelang ARGS` on a pseudo-terminal: what it writes, and keys typed to it."""

    def __init__(self, *args: str, env: dict | None = None, encoding: str = "utf-8"):
        self.encoding = encoding
        self.raw = b""
        self.seen = 0                       # how much of the text `expect` has gone past
        self.ended = False                  # the command has closed the terminal
        environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
        environment.update({"TERM": "xterm", "COLUMNS": "200", "LINES": "50", "PYTHONUNBUFFERED": "1"})
        environment.update(env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:                   # the child: the command, with the pty as its terminal
            # (as a shell starts it: Ctrl-C neither ignored nor blocked, whatever the test process
            # running it had done — an ignored or blocked signal is kept through exec, and in a full
            # run a worker's state made the two Ctrl-C tests wait for ever)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.chdir(str(ROOT))
            os.execve(sys.executable, [sys.executable, "-m", "rulelang", *args], environment)

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode(self.encoding, "replace")).replace("\r\n", "\n")

    def read(self, seconds: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], seconds)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:                      # the command has ended
            data = b""
        self.raw += data
        self.ended = self.ended or not data
        return bool(data)

    def wait_for(self, pattern: str, seconds: float) -> re.Match | None:
        """The first match of `pattern` in what was written after the last one; None if it is not
        written within `seconds`, or the command ends without writing it."""
        end = time.monotonic() + seconds
        while True:
            found = re.compile(pattern).search(self.text, self.seen)
            if found:
                self.seen = found.end()
                return found
            if time.monotonic() > end or not self.read(0.05):
                return None

    def expect(self, pattern: str, timeout: float = PATIENCE) -> re.Match:
        """The first match of `pattern` in what was written after the last one."""
        found = self.wait_for(pattern, timeout)
        if found is None:
            raise AssertionError(f"no {pattern!r} in:\n{self.text[self.seen:][-3000:]}")
        return found

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode(self.encoding))

    def line(self, text: str) -> None:
        self.send(text + "\r")

    def close(self) -> int:
        """Wait for the command to end: its exit code."""
        end = time.monotonic() + PATIENCE
        while time.monotonic() < end and self.read(0.05):
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)


def play_out(term: Terminal, prompt: str = r"P\d> ", until: str = r"Game over", limit: int = 400) -> int:
    """Answer every prompt with the first legal action until `until` is written: where it starts."""
    for _ in range(limit):
        found = term.expect(rf"(?:{prompt}|{until})")
        if re.fullmatch(until, found.group()):
            return found.start()
        term.line("1")
    raise AssertionError(f"no {until!r}")


@pytest.mark.slow
def test_a_whole_regicide_game_at_a_terminal():
    term = Terminal("play", REGICIDE, "--seed", "2")
    term.expect(r"== Regicide · turn 1 · P1's turn · step play · you are P1")
    assert "\x1b[1;36m== Regicide" in term.raw.decode()                  # the header in colour
    term.expect(r"P1> ")
    term.send("ru\t")                                                     # Tab completes a command
    term.expect(r"rules")
    term.send("\r")
    term.expect(r"Regicide\n========\n\nRegicide is a co-operative card game")
    term.expect(r"How to win")
    term.expect(r"P1> ")
    term.line("help yield")
    term.expect(r"yield \(at step play\)\n\nPlay nothing and go straight to step 4")
    term.expect(r"P1> ")
    term.line("log")
    term.expect(r"no actions yet")
    term.expect(r"P1> ")
    term.send("\x1b[A")                                                   # Arrow-Up: the last line again
    term.expect(r"log")
    term.send("\r")
    term.expect(r"no actions yet")
    term.expect(r"P1> ")
    term.send("fl\t")                                                     # completion of an action's text
    term.expect(r"flip jester")
    term.send("\x15")                                                     # (Ctrl-U: clear the line)
    term.line("1")
    term.expect(r"P1 plays: play ")
    start = play_out(term)
    assert term.close() == 0
    end = term.text[start:]
    assert re.search(r"  > (\d+ cards|the next enemy|J. is defeated|the Jester)", term.text)
    lines = end.splitlines()
    assert re.fullmatch(r"Game over: P1 (loses|wins)\. Why: (cannot pay \d+ damage: P1's hand is worth \d+|"
                        r"P1 can neither play a card nor (yield|flip a Jester)|"
                        r"the last King is defeated)", lines[0]), lines[0]
    assert lines[1].startswith("== Regicide · game over") and "Enemy health left" in end
    assert end.rstrip().endswith("Result:\n  P1 (human): lose") or end.rstrip().endswith("P1 (human): win")


@pytest.mark.slow
def test_a_whole_valgard_game_against_a_bot_without_colour():
    term = Terminal("play", VALGARD, "--seed", "5", "--bot", "2=random", "--option", "turn_limit=8",
                    env={"NO_COLOR": "1"})
    term.expect(r"== Valgarð · setting up · step muster · P1 to act · you are P1")
    assert "\x1b[1;36m" not in term.raw.decode()
    term.expect(r"Board: L, D: a warrior")
    start = play_out(term, prompt=r"P1> ")
    assert term.close() == 0
    end = term.text[start:]
    assert "P2 (random) plays: place " in term.text
    assert re.match(r"Game over: (a draw|P[12] wins)\. Why: (no winner after 8 turns|P[12] cannot move at the start of their turn: )", end)
    assert "Result:\n  P1 (human): " in end


@pytest.mark.slow
def test_end_of_input_at_the_hand_over_prompt_offers_to_save(tmp_path):
    save = tmp_path / "left.json"
    term = Terminal("play", REGICIDE, "--seed", "4", "--players", "2")
    term.expect(r"Pass the terminal to P1 and press Enter ")               # (everyone is round it at the start)
    term.line("")
    play_out(term, prompt=r"P1> ", until=r"Pass the terminal to P2 and press Enter")
    term.send("\x04")                                                     # Ctrl-D
    term.expect(r"Save before leaving\? File name \(Enter: don't save; back: play on\): ")
    term.line(str(save))
    term.expect(r"saved .*left\.json\nleft the game")
    assert term.close() == 0
    again = Terminal("play", str(save), "--rules", REGICIDE)
    again.expect(r"resumed after \d+ moves?")
    again.expect(r"Pass the terminal to P2 and press Enter")     # (whoever resumed it may not be P2)
    again.line("")
    again.expect(r"P2> ")
    ctrl_c_until(again, r"Save before leaving\?")      # Ctrl-C at a prompt: the same offer
    again.line("")
    again.expect(r"left the game")
    assert again.close() == 0


def test_a_game_of_several_people_starts_with_a_hand_over():
    """A first hour: `rulelang play shadow_hunters --players 4` opened on P1's character, with
    everyone round the terminal. At a terminal the first seat is handed it first (piped input,
    a transcript, is not)."""
    term = Terminal("play", REGICIDE, "--seed", "4", "--players", "2", env={"NO_COLOR": "1"})
    before = term.wait_for(r"(?s).*?Pass the terminal to P1 and press Enter ", PATIENCE).group()
    assert "hand (P1)" not in before and "P1>" not in before, before
    term.line("")
    # (the screen cleared for the hand-over wiped the welcome: each person's first turn says it)
    term.expect(r"Regicide: 2 players, seed 4\n  P1 human, P2 human\nType help for commands, rules for the rules\.")
    term.expect(r"hand \(P1\): 7 cards")
    term.expect(r"P1> ")
    term.line("quit")
    term.expect(r"File name")
    term.line("")
    assert term.close() == 0


def test_back_from_the_offer_to_save_at_a_hand_over_asks_for_the_hand_over_again():
    """A first hour's leak: Ctrl-C or Ctrl-D at "Pass the terminal to P2", then `back`, showed P2's
    hand at once to whoever had the keyboard (the offer's "" was taken for P2's Enter)."""
    term = Terminal("play", REGICIDE, "--seed", "4", "--players", "2", env={"NO_COLOR": "1"})
    term.expect(r"Pass the terminal to P1 and press Enter ")               # (everyone is round it at the start)
    term.line("")
    play_out(term, prompt=r"P1> ", until=r"Pass the terminal to P2 and press Enter ")
    term.send("\x04")                                                     # Ctrl-D
    term.expect(r"Save before leaving\? File name \(Enter: don't save; back: play on\): ")
    term.line("back")
    term.expect(r"back to the game\n")
    after = term.wait_for(r"(?s).*?Pass the terminal to P2 and press Enter ", PATIENCE).group()
    assert "hand (P2)" not in after and "P2>" not in after, after
    term.line("")
    term.expect(r"P2> ")
    term.send("\x15quit\r")
    term.expect(r"File name")
    term.line("")
    assert term.close() == 0


def test_a_move_typed_at_the_hand_over_prompt_is_not_played_for_the_next_player():
    """A first hour: `1` typed at "Pass the terminal to P2" — by whoever had the keyboard, the
    leaving player too — was played at once as P2's move. At a terminal only Enter hands it over."""
    term = Terminal("play", REGICIDE, "--seed", "4", "--players", "2", env={"NO_COLOR": "1"})
    term.expect(r"Pass the terminal to P1 and press Enter ")
    term.line("")
    play_out(term, prompt=r"P1> ", until=r"Pass the terminal to P2 and press Enter ")
    term.line("1")
    term.expect(r"\(nothing was played: press Enter to take the terminal, then type your move\)\n")
    after = term.wait_for(r"(?s).*?P2, press Enter ", PATIENCE).group()
    assert "hand (P2)" not in after and "P2 plays" not in after, after
    term.line("")
    before = term.wait_for(r"(?s).*?P2> ", PATIENCE).group()
    assert "hand (P2)" in before and "P2 plays" not in before, before
    term.send("\x15quit\r")
    term.expect(r"File name")
    term.line("")
    assert term.close() == 0


def test_the_next_player_gets_neither_the_line_history_nor_the_completions_of_the_last():
    """A leak trial: at the hand-over prompt Tab listed P1's last actions (`discard 9♣`, `discard
    A♣` … P1's hidden hand), and Arrow-Up at P2's prompt recalled what P1 had typed. Each seat
    gets its own history back when the terminal comes back to it."""
    term = Terminal("play", REGICIDE, "--seed", "4", "--players", "2", env={"NO_COLOR": "1"})
    term.expect(r"Pass the terminal to P1 and press Enter ")               # (everyone is round it at the start)
    term.line("")
    term.expect(r"P1> ")
    term.line("log")                                                      # P1's own line, to recall later
    term.expect(r"no actions yet")
    play_out(term, prompt=r"P1> ", until=r"Pass the terminal to P2 and press Enter ")
    term.send("\t\t")                                                     # Tab twice at the hand-over prompt
    term.expect(r"undo")                                                  # (the commands: nothing of P1's)
    listed = term.wait_for(r"(?s).*Pass the terminal to P2 and press Enter ", PATIENCE).group()
    assert set(listed.split()) - set(COMMAND_NAMES) <= {"Pass", "the", "terminal", "to", "P2", "and", "press",
                                                        "Enter"}, listed
    term.send("\r")
    term.expect(r"P2> ")
    term.send("\x1b[A")                                                   # Arrow-Up: nothing typed by P2 yet
    end = time.monotonic() + 1.5
    while time.monotonic() < end:
        term.read(0.1)
    assert not re.search(r"\w", term.text[term.seen:]), term.text[term.seen:]    # (a bell at most)
    term.send("\x15")
    term.line("1")
    play_out(term, prompt=r"P2> ", until=r"Pass the terminal to P1 and press Enter ")
    term.line("")
    term.expect(r"P1> ")
    term.send("\x1b[A" * 40)                                               # P1's own history is back
    term.expect(r"log")
    term.send("\x15quit\r")
    term.expect(r"File name")
    term.line("")
    assert term.close() == 0


def test_the_rulebook_at_a_terminal_is_wrapped_to_its_width_and_paged():
    """A first-hour trial: `rulelang rules games/valgard.rules` (the README's first suggestion) at
    80×24 scrolled 142 lines past, 29 of them cut mid-word by the terminal. Now it is wrapped
    between words to the terminal's width and goes through the pager (here `cat`, as $PAGER)."""
    term = Terminal("rules", VALGARD, env={"COLUMNS": "80", "LINES": "24", "PAGER": "cat"})
    assert term.close() == 0
    lines = term.text.rstrip("\n").split("\n")
    assert lines[0] == "Valgarð" and len(lines) > 100
    assert max(len(line) for line in lines) <= 80


def _at_the_offer_to_save() -> Terminal:
    """A hot-seat Regicide at a terminal, `quit` typed: the offer to save is asked."""
    term = Terminal("play", REGICIDE, "--seed", "4", "--players", "2")
    term.expect(r"Pass the terminal to P1 and press Enter ")               # (everyone is round it at the start)
    term.line("")
    term.expect(r"P1> ")
    term.line("quit")
    term.expect(r"Save before leaving\? File name \(Enter: don't save; back: play on\): ")
    return term


@pytest.mark.slow
def test_no_at_the_offer_to_save_leaves_without_saving():
    """`n` read as an answer: it saved a file called `n` (holding every hidden card) in the folder."""
    assert not (ROOT / "n").exists()
    term = _at_the_offer_to_save()
    term.line("n")
    term.expect(r"left the game")
    assert term.close() == 0
    assert not (ROOT / "n").exists()


@pytest.mark.parametrize("typed, said", [
    # (said alike when leaving and when loading: not "the match is ending", and `back` named — a first hour)
    ("look P2", r"'look P2' is a command: type back to play on and type it there, a file name to save the match, "
                r"or Enter to go on without saving"),
    ("play 6♣", r"'play 6♣' is a move: type back to play on, a file name to save the match, or Enter to go on"),
    # (a move's number, and its short form: saved as files `1` and `play 6c`, the game left — a fuzz trial)
    ("1", r"'1' is a move: type back to play on"),
    ("play 6c", r"'play 6c' is a move: type back to play on"),
    ("6c", r"'6c' is a move: type back to play on"),          # (a card alone plays it; a review)
])
def test_a_command_or_a_move_typed_at_the_offer_to_save_is_not_taken_for_a_file_name(typed, said):
    """`look Buccaneer` typed on after `quit` saved a file of that name (every hidden card in it); so
    did `end turn` and `begin` typed on after a Ctrl-C (a terminal trial)."""
    assert not (ROOT / typed).exists()
    term = _at_the_offer_to_save()
    term.line(typed)
    term.expect(said)
    term.line("")
    term.expect(r"left the game")
    assert term.close() == 0
    assert not (ROOT / typed).exists()


def test_back_or_a_game_command_at_the_offer_to_save_goes_back_to_the_game():
    """`undo` typed at the offer (Ctrl-C pressed by mistake) saved a file called `undo` and left."""
    assert not (ROOT / "undo").exists()
    for typed in ("back", "undo"):
        term = _at_the_offer_to_save()
        term.line(typed)
        term.expect(r"back to the game\n")
        term.expect(r"P1> ")
        term.line("quit")
        term.expect(r"Save before leaving\?")
        term.line("")
        term.expect(r"left the game")
        assert term.close() == 0
    assert not (ROOT / "undo").exists()


def test_quit_just_after_a_save_does_not_ask_again(tmp_path):
    term = Terminal("play", REGICIDE, "--seed", "4", "--players", "2")
    term.expect(r"Pass the terminal to P1 and press Enter ")               # (everyone is round it at the start)
    term.line("")
    term.expect(r"P1> ")
    term.line(f"save {tmp_path / 'kept.json'}")
    term.expect(r"saved .*kept\.json\n")
    term.line("quit")
    term.expect(r"\(saved as .*kept\.json: nothing played since\)\nleft the game")
    assert term.close() == 0 and "Save before leaving" not in term.text


def test_save_and_a_name_at_the_offer_to_save_saves_under_that_name(tmp_path):
    """`save mygame` is what a player types to save: at the offer it is the name, not a command."""
    term = _at_the_offer_to_save()
    term.line(f"save {tmp_path / 'mygame'}")
    term.expect(r"saved .*mygame\nleft the game")
    assert term.close() == 0
    assert '"rulelang_save"' in (tmp_path / "mygame").read_text(encoding="utf-8")


@pytest.mark.slow
def test_an_8_bit_terminal_gets_stand_ins():
    term = Terminal("play", REGICIDE, "--seed", "3", env={"PYTHONIOENCODING": "iso-8859-1", "NO_COLOR": "1"},
                    encoding="iso-8859-1")
    term.expect(r"enemy: 1 card: JH")
    term.expect(r"P1> ")
    term.line("play AS")                                                  # typed as shown: A♠
    term.expect(r"P1 plays: play AS")
    term.expect(r"P1> ")
    term.line("quit")                                                     # at a terminal: the offer to save
    term.expect(r"Save before leaving\? File name \(Enter: don't save; back: play on\): ")
    term.line("")
    term.expect(r"left the game")
    assert term.close() == 0
    assert "Traceback" not in term.text and "?" not in term.text.split("P1 plays")[0].replace("help", "")


@pytest.mark.slow
def test_simulate_shows_progress_and_ctrl_c_keeps_the_games_played():
    term = Terminal("simulate", VALGARD, "--games", "100000", "--bot", "random")
    term.expect(r"\[[#.]{30}\] \d+/100000 games")
    term.send("\x03")
    found = term.expect(r"interrupted: partial results, (\d+) of 100000 games")
    term.expect(r"Valgarð: \d+ games?, 2 players, seed 0")
    term.expect(r"errors: 0")
    assert term.close() == 130
    assert 0 < int(found.group(1)) < 100000


def test_load_offers_to_save_the_game_in_play_first(tmp_path):
    """A first hour at the terminal: `load FILE` threw the game in play away without a word, where
    quit, Ctrl-C and Ctrl-D offer to save it. `back` keeps playing it; a name saves it, then loads."""
    other = tmp_path / "other.json"
    term = Terminal("play", VALGARD, "--seed", "4", "--bot", "2=random")
    term.expect(r"P1> ")
    term.line(f"save {other}")
    term.expect(r"saved .*other\.json\n")
    term.line("1")
    term.expect(r"P1> ")
    term.line(f"load {other}")
    term.expect(r"Save this game before loading the other\? File name \(Enter: don't save; back: go on "
                r"with this one\): ")
    term.line("back")
    term.expect(r"not loaded: this game goes on\n")
    term.expect(r"P1> ")
    term.line(f"load {other}")
    term.expect(r"Save this game before loading the other\?")
    term.line(str(tmp_path / "this.json"))
    term.expect(r"saved .*this\.json")
    term.expect(r"loaded .*other\.json")
    term.expect(r"P1> ")
    term.line("quit")
    term.line("")
    assert term.close() == 0
    assert '"rulelang_save"' in (tmp_path / "this.json").read_text(encoding="utf-8")


def test_ctrl_c_at_the_pager_stops_the_page_not_the_game():
    """A first hour at the terminal: Ctrl-C at `-- more --` (reading the rules) went to the offer
    to save and leave; it stops the page, as `q` does, and the game goes on."""
    from test_terminal_fit import sized
    term = sized("play", VALGARD, "--seed", "4", "--bot", "2=random", columns=80, lines=24)
    term.expect(r"P1> ")
    term.line("rules all")
    term.expect(r"-- more: Enter, q to stop --")
    time.sleep(1.0)                                  # (a person reads the page first)
    ctrl_c_until(term, r"P1> ")
    assert "Save before leaving" not in term.text
    term.line("quit")
    term.expect(r"Save before leaving")
    term.line("")
    assert term.close() == 0


def test_ctrl_d_at_the_pager_stops_the_page_not_the_game():
    """A first hour at the terminal: Ctrl-D at `-- more --` left the game (offered to save, then
    "left the game") where Ctrl-C and `q` stop the page; it stops the page too."""
    from test_terminal_fit import sized
    term = sized("play", VALGARD, "--seed", "4", "--bot", "2=random", columns=80, lines=24)
    term.expect(r"P1> ")
    term.line("rules all")
    term.expect(r"-- more: Enter, q to stop --")
    term.send("\x04")                                                     # Ctrl-D
    term.expect(r"P1> ")
    assert "Save before leaving" not in term.text
    term.line("quit")
    term.expect(r"Save before leaving")
    term.line("")
    assert term.close() == 0


def test_the_pagers_prompt_is_erased_once_answered():
    """A first hour at a real terminal: `-- more: Enter, q to stop --` stayed in the middle of the
    rules read on."""
    from test_terminal_fit import sized
    term = sized("play", VALGARD, "--seed", "4", "--bot", "2=random", columns=80, lines=24)
    term.expect(r"P1> ")
    term.line("rules all")
    term.expect(r"-- more: Enter, q to stop --")
    at = len(term.raw)
    term.line("")
    term.expect(r"-- more: Enter, q to stop --")
    assert b"\x1b[1A\r\x1b[2K" in term.raw[at:]                    # (up over the answered prompt, erased)
    term.line("q")
    term.expect(r"P1> ")
    term.line("quit")
    term.expect(r"Save before leaving")
    term.line("")
    assert term.close() == 0
