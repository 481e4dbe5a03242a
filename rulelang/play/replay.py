"""Save files: what a saved match is, how it is read, and how it is rebuilt by replaying it.

A save file is not trusted (people send each other saves), so it never chooses what runs: it holds
the rules' fingerprint (a hash of their content), the game's name, the players, seed, options and
the log of actions, plus the final state for checking. Loading a save replays the log on a new
match of rules the *user* names — `--rules FILE`, the game being played, or a rule file beside
the save whose fingerprint matches — never a path written in the save. The replayed position must
be the saved one, which also proves the save is what those moves give (the engine's determinism).
"""
from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

import rulelang
from .. import interrupt_seat
from ..core import safejson
from ..core.errors import IllegalAction, RuleError, RuleRuntimeError, StateError
from ..core.limits import JSON_SIZE_LIMIT, SOURCE_LIMIT
from ..core.textsafe import printable

SAVE_VERSION = 2
REPLAY_CPU_LIMIT = 45.0      # CPU seconds a save's replay may take (the same as one `simulate`)
RULES_BESIDE = 50            # rule files beside a save tried for the one whose fingerprint matches
# where the shipped games are: games/ beside the package (a checkout, an editable install), or
# inside it (`pip install .` puts them in site-packages/rulelang/games)
SHIPPED_FOLDERS = (Path(__file__).resolve().parents[2] / "games", Path(__file__).resolve().parents[1] / "games")


def fingerprint(game) -> str:
    """The rules' content hash (a front-end test double may have none: "")."""
    return getattr(game, "fingerprint", "") or ""


def _accepts(game, saved) -> bool:
    """Was a save with fingerprint `saved` made with these rules (their messages' words aside)?"""
    accepts = getattr(game, "accepts_fingerprint", None)
    return accepts(saved) if accepts is not None else saved == fingerprint(game)


def save_data(game, match, seed: int, options: dict, bots: dict | None = None, seed_secret: bool = False) -> dict:
    """A match as a save file: enough to replay it on the same rules, and its state to check; and
    which seats bots played (`{"2": "random"}`, seats from 1), for `rulelang play SAVE` to seat them again;
    `"seed_secret": true` when the seed was drawn, not chosen: the game resumed keeps it off the
    screen until it ends, as it began (the seed deals every hidden card)."""
    state = match.state()
    data = {"rulelang_save": SAVE_VERSION, "fingerprint": fingerprint(game), "name": game.name,
            "players": match.players, "seed": seed, "options": dict(options), "log": list(match.log),
            "state": state}
    if bots:
        data["bots"] = {str(seat + 1): kind for seat, kind in sorted(bots.items())}
    if seed_secret:
        data["seed_secret"] = True
    return data


SAVED_BOT_ITERATIONS = 5000     # the largest search a save may give a bot (the browser's lobby's limits)
SAVED_BOT_SECONDS = 10.0
SAVED_MCTS_SECONDS = 5.0        # `mcts` in a save: a time budget (each iteration plays a whole game)


def saved_bots(data: dict) -> dict[int, str]:
    """The bot of each seat a save names ({0-based seat: kind}); what is not a seat of the match or
    not a bot kind is left out (a save is untrusted: the seat becomes a human one); a search past
    SAVED_BOT_ITERATIONS or SAVED_BOT_SECONDS a move is capped there (`ismcts:3600s` in a shared save
    made the terminal think an hour before the first move); an `mcts` by iterations searches for
    SAVED_MCTS_SECONDS a move instead."""
    from .bots import check_kind, parse_kind
    raw = data.get("bots")
    out: dict[int, str] = {}
    if not isinstance(raw, dict):
        return out
    for key, kind in list(raw.items())[:64]:
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 4 and isinstance(kind, str) and len(kind) < 40):
            continue
        seat = int(key) - 1
        if not 0 <= seat < data["players"]:
            continue
        try:
            out[seat] = check_kind(kind)
            _, iterations, seconds = parse_kind(kind)
        except ValueError:
            continue
        name = out[seat].partition(":")[0]
        if (iterations or 0) > SAVED_BOT_ITERATIONS:        # (capped, as the README says: the seat made
            out[seat] = f"{name}:{SAVED_BOT_ITERATIONS}"     #  human, unsaid, misled — a fuzz trial)
        elif (seconds or 0) > SAVED_BOT_SECONDS:
            out[seat] = f"{name}:{SAVED_BOT_SECONDS:g}s"
        if name == "mcts" and seconds is None:
            # (an `mcts` iteration is a whole random game: `mcts:5000` in a shared save of a war game would
            # think ~13 minutes a move, the default 200 ~30 s — a fuzz trial; it gets a time budget)
            out[seat] = f"mcts:{SAVED_MCTS_SECONDS:g}s"
    return out


def read(path: str) -> dict:
    """The contents of a save file, checked for shape (not yet against any rules); StateError saying
    why not (the caller names the file)."""
    try:
        raw = _read_regular(path, JSON_SIZE_LIMIT + 1)
    except OSError as error:
        raise StateError(error.strerror or "cannot read it") from None
    if len(raw) > JSON_SIZE_LIMIT:
        raise StateError(f"larger than {JSON_SIZE_LIMIT} bytes: not a rulelang save file")
    raw = raw.removeprefix(BOM)             # (an editor's byte order mark: "not a rulelang save file", and `play`
    try:                                    # read it as rules and said to play it as a save — an attacker's trial)
        data = safejson.loads(raw.decode("utf-8"), "save file")
    except (ValueError, UnicodeDecodeError) as err:   # JSONLimitError is a ValueError; so is a 5000-digit number
        if re.match(rb'\s*\{\s*"rulelang_save"', raw):     # (a save cut short or damaged: where it breaks)
            if "nests" in str(err) and not isinstance(err, UnicodeDecodeError):   # (too deep: said so — an
                raise StateError(str(err)) from None                              # attacker's trial)
            at = re.search(r"\(line \d+, column \d+\)", str(err))
            raise StateError(f"a save file that is cut short or damaged: not valid JSON{' ' + at.group() if at else ''}") \
                from None
        raise StateError("not a rulelang save file") from None
    if not isinstance(data, dict) or "rulelang_save" not in data:
        raise StateError("not a rulelang save file")
    if type(data["rulelang_save"]) is not int:      # (`"2"`: "format 2; this version reads format 2")
        raise StateError(f"not a rulelang save file (its format, {_short(repr(data['rulelang_save']))}, is no number)")
    if data["rulelang_save"] != SAVE_VERSION:
        raise StateError(f"a save file of another rulelang version "
                         f"(format {_short(data['rulelang_save'])}; this version reads format {SAVE_VERSION})")
    fields = {"fingerprint": str, "name": str, "players": int, "seed": int, "options": dict, "log": list}
    for key, want in fields.items():
        if type(data.get(key)) is not want:
            raise StateError(f"not a rulelang save file (bad `{key}`)")
    if not all(isinstance(text, str) for text in data["log"]):
        raise StateError("not a rulelang save file (bad `log`)")
    if not isinstance(data.get("state", {}), dict):
        raise StateError("not a rulelang save file (bad `state`)")
    return data


BOM = b"\xef\xbb\xbf"                      # UTF-8's byte order mark, which some editors write first


def is_save(path: str) -> bool:
    """Whether the file at `path` is meant as a save file (a JSON object with `rulelang_save`),
    however broken it may be otherwise; a rule file or a compiled game is not. Whatever its name:
    the REPL's `save` writes the name it is given (`save mygame`; `save mygame.rules` too: its
    resume was refused, "a saved match, not rules: `rulelang play mygame.rules` goes on with it")."""
    try:
        head = _read_regular(path, 65536).removeprefix(BOM).lstrip()[:4096]   # (after any white space: 5,000
    except OSError:                                          # spaces before a save made play read it as rules — a fuzz trial)
        return False
    return head[:1] == b"{" and b'"rulelang_save"' in head


def _read_regular(path: str, limit: int) -> bytes:
    """At most `limit` bytes of a regular file; OSError (with a reason to show) for anything else:
    a FIFO or a device (which could block, or never end), a directory, a name no file can have."""
    if "\0" in str(path):
        raise OSError(0, "no file can have that name (it holds a NUL byte)")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file")
        return file.read(limit)


def check_game(data: dict, game) -> None:
    """StateError unless the save was made with these very rules."""
    if data["name"] != game.name:
        raise StateError(f"it is a save of {_short(repr(data['name']))}, not of {_short(repr(game.name))}")
    if not _accepts(game, data["fingerprint"]):
        raise StateError(f"it was saved with other rules for {_short(game.name)} (another version of the "
                         f"rule file, or of rulelang: fingerprint {_short(data['fingerprint'])}, these rules "
                         f"{fingerprint(game)})")


def rebuild(data: dict, game, on_action=None, moves: dict | None = None, asked: dict | None = None):
    """The saved match, replayed action by action from a new match on `game`.

    `on_action(n, seat, text)` is told each action as it is played; `moves`, if given, is filled
    with what the terminal's `log` tells of each: log index -> (the seat that acted, the first and
    end index of the messages it wrote); `asked` with the question each answer answered (log index ->
    its prompt). StateError (the match as it was is untouched) if the rules
    differ, an action is not legal, or the position reached is not the saved one.
    """
    check_game(data, game)
    try:
        match = game.new_match(data["players"], data["seed"], data["options"])
    except (ValueError, RuleRuntimeError) as error:
        raise StateError(str(error)) from None
    stop = time.thread_time() + REPLAY_CPU_LIMIT
    for n, text in enumerate(data["log"], 1):
        if time.thread_time() > stop:         # (a save is untrusted: 1,000 actions of 0.24 s, or 4 million)
            raise StateError(f"replaying this save took more than {REPLAY_CPU_LIMIT:g} s of CPU time "
                             f"(stopped at action {n} of {len(data['log'])}): not loaded")
        seat = match.current_player
        told = _messages(match) if moves is not None else 0
        question = getattr(match, "question", None)
        if asked is not None and question is not None:
            asked[n - 1] = str(question.get("prompt") or "")
        try:
            match.apply(text)
        except IllegalAction:
            raise StateError(f"action {n}, `{_short(text)}`, is not legal at that point") from None
        except RuleRuntimeError as error:
            raise StateError(f"action {n}, `{_short(text)}`, fails: {error}") from None
        out_of_turn = interrupt_seat(text)                # `P3: reveal`: P3 acted, not the actor
        if out_of_turn is not None:
            seat, text = out_of_turn, text.partition(": ")[2]
        if moves is not None:
            moves[n - 1] = (seat, told, _messages(match))
        if on_action is not None:
            on_action(n, seat, text)
    _answers_given(data, match, on_action)
    if "state" in data:
        saved, now = data["state"], match.state()
        version = saved.get("version") if isinstance(saved, dict) else None
        if isinstance(saved, dict) and "version" in now and version != now["version"]:   # (by name, as
            raise StateError(f"the saved position is of version {_short(version)}; this rulelang reads "  # from_state)
                             f"version {now['version']} (a newer rulelang wrote it?)")
        if now != saved and _unworded(now) != _unworded(saved):
            raise StateError("the replayed position differs from the saved one")
    return match


def _unworded(state):
    """A state without what a rewording of the rules' messages changes (the rules' fingerprint, the
    messages' words: who each was told to is kept), to compare a replay with its save; a paused
    effect's base position likewise (a review: a save made while a question waited failed its replay)."""
    if not isinstance(state, dict):
        return state
    messages = state.get("messages")
    out = dict(state, fingerprint=None, messages=[
        {k: v for k, v in m.items() if k != "text"} if isinstance(m, dict) else None for m in messages]
        if isinstance(messages, list) else messages)
    if isinstance(state.get("outcome"), dict):    # (its reason's words too: `the when rule of line 40`)
        out["outcome"] = dict(state["outcome"], reason=None)
    pending = state.get("pending")
    if isinstance(pending, dict) and isinstance(pending.get("base"), dict):
        out["pending"] = dict(pending, base=_unworded(pending["base"]))
    return out


def _unfingerprinted(state):
    """A state without the rules' fingerprint (a save from before gives it in its older form), its
    paused effect's base too."""
    out = dict(state, fingerprint=None)
    pending = state.get("pending")
    if isinstance(pending, dict) and isinstance(pending.get("base"), dict):
        out["pending"] = dict(pending, base=dict(pending["base"], fingerprint=None))
    return out


def _messages(match) -> int:
    """How many messages the match has written (0 for a match of another make that keeps none)."""
    message_log = getattr(match, "message_log", None)
    return len(message_log()) if message_log is not None else 0


def _answers_given(data: dict, match, on_action) -> None:
    """A save made during a simultaneous decision: the answers committed so far are in its state,
    not yet in the log (they are revealed together). Give them again, as their players did."""
    together = data.get("state", {}).get("simultaneous") if isinstance(data.get("state"), dict) else None
    if not isinstance(together, dict) or match.simultaneous is None:
        return
    seats, answers = together.get("seats"), together.get("answers")
    if not (isinstance(seats, list) and isinstance(answers, list) and len(seats) == len(answers)):
        raise StateError("the saved simultaneous decision is not a list of answers")
    for seat, text in zip(seats, answers):
        if text is None:
            continue
        if type(seat) is not int or not 0 <= seat < match.players:   # (said as other damage is: a fuzz trial
            raise StateError(f"the saved simultaneous decision names {_short(seat)}, no player of "   # read
                             f"this {match.players}-player match")       # "no player -1" and nothing else)
        try:
            match.apply(text, seat=seat)
        except (IllegalAction, RuleRuntimeError):
            raise StateError(f"the answer {_short(text)} of {_seat(seat) if type(seat) is int else '?'} "
                             f"is not legal at that point") from None
        if on_action is not None:
            on_action(len(data["log"]) + 1, seat, f"{text} (an answer not yet revealed)")


FIND_RULES_CPU = 15.0      # seconds of CPU the search for a save's rule file may take


def find_game(save_path: str, data: dict, rules: str | None = None):
    """The rules to replay a save on: `rules` if the user named them (they must match), else the
    rule file whose fingerprint is the save's, looked for beside the save, then in the current
    folder, then among the shipped games. Never a path the save names."""
    if rules is not None:
        game = rulelang.load(rules)
        check_game(data, game)
        return game
    candidates: list = []
    for folder in dict.fromkeys((Path(save_path).resolve().parent, Path.cwd().resolve(), *SHIPPED_FOLDERS)):
        try:                                    # regular files of a rule file's size only (not /dev/zero)
            candidates += sorted(p for p in folder.glob("*.rules")
                                 if p.is_file() and p.stat().st_size <= SOURCE_LIMIT)[:RULES_BESIDE]
        except OSError:
            continue
    # only a file that declares the game is compiled (fifty big rule files beside a save took
    # minutes), and the search has a budget of its own (a fuzz trial: twelve crafted files that
    # each name the game took 46 s of CPU, a hundred would take six minutes)
    name = data["name"] if isinstance(data.get("name"), str) and not set('"\\') & set(data["name"]) else ""
    declared = re.compile(r'(?m)^\s*game\s*"' + re.escape(name) + '"') if name else None
    spent = time.process_time() + FIND_RULES_CPU
    for path in dict.fromkeys(candidates):
        if time.process_time() > spent:
            raise StateError(f"no rule file found for the save within {FIND_RULES_CPU:g} s of CPU among the rule "
                             f"files beside it, here and shipped ({_short(data['name'])}): give them with --rules FILE")
        try:
            if declared is not None and not declared.search(path.read_text(encoding="utf-8", errors="replace")):
                continue
            game = rulelang.load(str(path))
        except (RuleError, OSError, ValueError):           # not these rules, and not ours to report
            continue
        if _accepts(game, data["fingerprint"]):
            return game
    raise StateError(f"no rule file beside the save, here or among the shipped games has the rules it was played with "
                     f"({_short(data['name'])}, fingerprint {_short(data['fingerprint'])}): "
                     f"give them with --rules FILE")


def replay(data: dict, game, out=print) -> bool:
    """Replay a save's actions on a new match of `game`, printing each; True when the saved
    position is reproduced."""
    players = data["players"]
    out(printable(f"{game.name}: {players} player{'' if players == 1 else 's'}, seed {data['seed']}"))

    def show(n: int, seat, text: str) -> None:
        out(printable(f"{n:>4}. {_seat(seat)}: {text}"))
    try:
        match = rebuild(data, game, show)
    except StateError as error:
        out(printable(str(error)))
        return False
    if match.is_over:
        out("outcome: " + ", ".join(f"{_seat(p)} {r}" for p, r in enumerate(match.outcome["results"])))
    if "state" not in data:                 # (nothing to compare with: not "reproduced exactly", a fuzzer)
        out(f"replayed {len(data['log'])} actions (the save holds no position to compare them with)")
    elif isinstance(data["state"], dict) and _unfingerprinted(match.state()) != _unfingerprinted(data["state"]):
        out(f"replayed {len(data['log'])} actions: the saved position is reproduced, its messages worded "
            f"as these rules word them now")
    else:
        out(f"replayed {len(data['log'])} actions: the saved position is reproduced exactly")
    return True


def _seat(seat) -> str:
    return "none" if seat is None else f"P{seat + 1}"


def _short(value, limit: int = 60) -> str:
    """A value from a save for a one-line message: printable, and cut short."""
    text = printable(value if isinstance(value, str) else repr(value))
    return text if len(text) <= limit else text[:limit - 3] + "..."
