"""The `rulelang` command: lint, compile, play, simulate, replay and bench rule files; start a new one
(`new`), serve editors (`lsp`) and play in the browser (`serve`).

Every failure a user can cause ends in a clear message on stderr and exit code 1
(2 for a malformed command line), never a Python traceback. Text from rule files and saves
reaches the terminal only through `printable` (no escape sequences, no control characters).
A glyph the terminal's encoding cannot show is written as an ASCII stand-in (textsafe), and a
reader that stops early (`rulelang compile x.rules | head`) ends the command quietly, with the
exit code of a process ended by SIGPIPE (141), as `cat` would.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from dataclasses import replace

import rulelang
from .core import safejson
from .play.bots import KIND_HELP, check_kind
from .core.errors import EngineFault, RuleError, RulelangError, fault_report, shown_diagnostics
from .core.textsafe import FALLBACK, printable
from .core.limits import PLAYER_LIMIT, RUN_CPU_LIMIT

# The terminal game (repl) and the simulator are imported by the commands that use them, and the
# engine with them: `rulelang lint` and `compile` never run a game and start ~0.1 s sooner.

BROKEN_PIPE = 141            # 128 + SIGPIPE: what a shell reports for `cat big | head`


def main(argv: list[str] | None = None) -> int:
    _fit_streams()
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _broken_pipe()
    except KeyboardInterrupt:           # (Ctrl-C before a command's own handling: while the parser is
        print(file=sys.stderr)          # made or the engine's modules load — a first hour)
        return 130


def _shipped_names(args) -> None:
    """A rule file named that does not exist, but a shipped game has its name (`NAME` or
    `games/NAME.rules` typed outside a checkout, after `pip install`): that game's file."""
    from pathlib import Path
    from .play.replay import SHIPPED_FOLDERS

    def exists(path) -> bool:
        try:
            return Path(path).exists()
        except OSError:                         # (a name too long for the system: no such file)
            return False

    def shipped(path):
        if not isinstance(path, str) or not path or "\0" in path or exists(path):
            return path
        name = Path(path).name
        stem = name[:-len(".rules")] if name.endswith(".rules") else name
        if not stem or "." in stem:             # (a save, an IR .json: only rule files are looked up)
            return path
        for folder in SHIPPED_FOLDERS:
            found = folder / f"{stem}.rules"
            if exists(found) and found.is_file():
                return str(found)
        return path
    for key in ("file", "rules"):
        if key in vars(args):
            setattr(args, key, shipped(getattr(args, key)))
    for key in ("files", "compare"):
        if isinstance(vars(args).get(key), list):
            setattr(args, key, [shipped(p) for p in getattr(args, key)])


def _shipped_hint(error) -> str:
    """For `no such file: NAME`: the shipped game of a near name (a typo of its name), if there is one."""
    import difflib
    from pathlib import Path
    from .play.replay import SHIPPED_FOLDERS
    missing = [d.message[len("no such file: "):] for d in getattr(error, "diagnostics", [])
               if d.code == "E000" and d.message.startswith("no such file: ")]
    if len(missing) != 1:
        return ""
    stem = Path(missing[0]).name.removesuffix(".rules")
    names = sorted({p.stem for folder in SHIPPED_FOLDERS if folder.is_dir() for p in folder.glob("*.rules")})
    near = difflib.get_close_matches(stem.lower(), names, n=1, cutoff=0.75)
    if near:
        return f" (did you mean the shipped game {near[0]}?)"
    if "/" not in missing[0] and "\\" not in missing[0] and names:   # (a bare name: the games it may be)
        return f" (the shipped games: {', '.join(names)})"
    return ""


def _shipped_list() -> str:
    """The names of the shipped games, as `rulelang play NAME` takes them."""
    from .play.replay import SHIPPED_FOLDERS
    names = sorted({p.stem for folder in SHIPPED_FOLDERS if folder.is_dir() for p in folder.glob("*.rules")})
    return ", ".join(names) or "none found"


def _fit_streams() -> None:
    """Output streams whose encoding cannot show every character (ISO-8859-1, ASCII) write an
    ASCII stand-in for what they cannot encode instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if encoding and encoding not in ("utf-8", "utf8") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=FALLBACK)
            except (ValueError, OSError):
                pass


def _print_kept(*args, **kwargs) -> None:
    """`print` for a run whose results are still to be written: a reader gone (`simulate … | tee
    log`, then Ctrl-C, which stops tee too) made the first line raise, and the `--report` was never
    written (a designer's trial). Once it has gone, what is printed goes nowhere."""
    try:
        print(*args, **kwargs)
    except BrokenPipeError:
        if kwargs.get("file", sys.stdout) is sys.stdout:
            _broken_pipe()


def _broken_pipe() -> int:
    """The reader of our output has gone: say nothing more (not even when Python flushes the
    stream at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return BROKEN_PIPE


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:                     # said with the command's own usage, not the top level's
            args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exit:          # argparse has printed usage and the problem
        return exit.code
    _shipped_names(args)
    try:
        return args.run(args)
    except BrokenPipeError:
        raise
    except RuleError as error:
        print(printable((error.report() or str(error)) + _shipped_hint(error), multiline=True), file=sys.stderr)
    except EngineFault as error:        # a bug of ours, found inside the engine: said as one
        print(printable(f"{error} (please report this; {fault_report(error)})", multiline=True), file=sys.stderr)
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        print(printable(f"error: {where}{error.strerror or error}"), file=sys.stderr)
    except (RulelangError, ValueError) as error:
        print(printable(f"error: {error}"), file=sys.stderr)
    except RecursionError:
        print("error: the input is nested too deeply", file=sys.stderr)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except Exception as error:          # a bug of ours: still one line, and the way to report it
        print(printable(f"internal error: {type(error).__name__}: {error} (please report this; "
                        f"{fault_report(error)})", multiline=True), file=sys.stderr)
    return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulelang", description="Board and card games as rule files.")
    parser.add_argument("--version", action="version", version=f"rulelang {rulelang.__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    lint = commands.add_parser("lint", help="check rule files and report problems",
                               description="Check rule files: syntax, names, types, flow and dead rules "
                                           "(codes in docs/diagnostics.md). Exit 0 clean or warnings only, "
                                           "1 errors, 2 a malformed command line.")
    lint.add_argument("files", nargs="+", metavar="FILE")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.add_argument("--deep", action="store_true",
                      help="also play seeded random games of every error-free file and report run-time problems "
                           "(stuck players, loop limits, broken invariants, games that never end), each player count "
                           "of the file's range in turn")
    lint.add_argument("--games", type=_positive, default=None, metavar="G",
                      help="random games per file for --deep (default: 200)")
    lint.add_argument("--seed", type=int, default=0, metavar="S", help="first seed for --deep (default: 0)")
    lint.add_argument("--max-cpu", type=_budget, default=None, metavar="SECONDS",
                      help=f"CPU time --deep may spend on one file before it stops with a warning "
                           f"(default: {RUN_CPU_LIMIT:g}; 0: no limit)")
    lint.add_argument("--max-actions", type=_positive, default=None, metavar="N",
                      help="actions a --deep game may take before it is reported as not ending (W405; default: "
                           "2000: raise it for a game whose random games are long)")
    lint.add_argument("--option", type=_option, action="append", default=[], metavar="K=V",
                      help="a game option every --deep game is played with (the others, true/false ones "
                           "drawn at random, at their defaults otherwise); give it again for another")
    lint.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    lint.add_argument("--time", action="store_true", help="print how long linting took (on stderr)")
    lint.set_defaults(run=_lint)

    compile_ = commands.add_parser("compile", help="compile a rule file to its JSON IR")
    compile_.add_argument("file", metavar="FILE")
    compile_.add_argument("-o", "--output", metavar="OUT.json", help="where to write (default: stdout)")
    compile_.set_defaults(run=_compile)

    play = commands.add_parser("play", help="play a game at the terminal, or go on with a saved match",
                               description="Play at the terminal: FILE is a rule file, a compiled game, or a "
                                           "save written by `save` (the match goes on from there). A shipped "
                                           "game may be named from any folder: " + _shipped_list() + ".")
    _match_arguments(play, default_seed=None)
    play.add_argument("--rules", metavar="FILE",
                      help="with a save: the rule file it was played with (default: the rule file beside the "
                           "save whose content matches)")
    play.add_argument("--delay", type=_seconds, default=0.0, metavar="SECONDS",
                      help="with a bot in every seat: wait this long after each move (default 0)")
    play.set_defaults(run=_play)

    sim = commands.add_parser("simulate", help="play many games with bots and report statistics")
    _match_arguments(sim, default_seed=0, sweep=True)
    sim.add_argument("--games", type=_games, default=100, metavar="G",
                     help="games per variant (default: %(default)s; game i is seeded S × 1,000,003 + i)")
    sim.add_argument("--max-cpu", type=_budget, default=RUN_CPU_LIMIT, metavar="SECONDS",
                     help="CPU time the whole run may spend before it stops with the games finished so far "
                          "(default: %(default)g; 0: no limit)")
    sim.add_argument("--json", action="store_true", help="print the result as one JSON object (a list with sweeps)")
    sim.add_argument("--workers", type=_workers, default=1, metavar="N",
                     help="play the games in N processes (the same results for any N, with bots whose budget is iterations)")
    sim.add_argument("--ray", nargs="?", const=True, metavar="ADDRESS",
                     help="play the games as Ray tasks: a local Ray instance, or the cluster at ADDRESS "
                          "(pip install 'rulelang[ray]')")
    sim.add_argument("--report", metavar="DIR",
                     help="write a balance report to DIR: report.md, report.json, plots with matplotlib")
    sim.add_argument("--resume", action="store_true",
                     help="go on with the run whose --report DIR this is: the games it finished (DIR/games.jsonl, "
                          "written as each game ends) are not played again; a larger --games extends it")
    sim.add_argument("--compare", action="append", default=[], metavar="FILE",
                     help="also simulate this rule file (a changed copy of FILE, say) with the same seeds, "
                          "bots and options: each game paired with the same seed's game of FILE, the changes "
                          "and their 95%% intervals are printed and reported (may be repeated)")
    sim.set_defaults(run=_simulate)

    replay = commands.add_parser("replay", help="replay a saved match move by move and check it reproduces")
    replay.add_argument("save", metavar="SAVE.json", help="a file written by `save` in `rulelang play`")
    replay.add_argument("--rules", metavar="FILE",
                        help="the rule file the match was played with (default: the rule file beside the save "
                             "whose content matches the save's fingerprint)")
    replay.set_defaults(run=_replay)

    rules = commands.add_parser("rules", help="print the rules of a game for players",
                                description="A rulebook made from the rule file: its `about` words and its "
                                            "declarations (players, options, how it ends, components, setup, "
                                            "each step and action as the rules write it).")
    rules.add_argument("file", metavar="FILE", help="a .rules file, a compiled IR .json or a shipped game's name")
    rules.add_argument("--format", choices=("text", "md"), default="text", help="plain text or Markdown")
    rules.set_defaults(run=_rules)

    _bench_parser(commands)

    new = commands.add_parser("new", help="write a starter rule file NAME.rules that lints clean and plays",
                              description="Write NAME.rules from a template: a small commented game to start "
                                          "from (grid: three in a row on a board; cards: tricks with hidden "
                                          "hands). An existing file is never overwritten.")
    new.add_argument("name", metavar="NAME", help="the new file (NAME.rules; a folder part must exist)")
    new.add_argument("--template", default="grid", metavar="|".join(TEMPLATES),
                     help="the starter game (default: grid)")
    new.set_defaults(run=_new)

    lsp = commands.add_parser("lsp", help="run the language server for editors (stdio)",
                              description="A Language Server Protocol server on stdin/stdout: diagnostics as "
                                          "you type, hover, go to definition, completion (docs/editors.md). "
                                          "Needs pygls: pip install 'rulelang[lsp]'.")
    lsp.set_defaults(run=_lsp)

    serve = commands.add_parser("serve", help="play in the browser, each player on their own device",
                                description="A lobby and a table per seat in the browser (docs/serve.md).")
    serve.add_argument("files", nargs="*", metavar="RULES", help="rule files to offer besides the shipped games")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this "
                                                           "computer only; 0.0.0.0: your network)")
    serve.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    serve.add_argument("--store", metavar="FILE", help="the SQLite file matches are kept in (default: "
                                                       "~/.local/share/rulelang/serve.sqlite)")
    serve.add_argument("--bot-delay", type=_seconds, default=0.5, metavar="SECONDS",
                       help="a bot waits this long before each move, so people can follow (default 0.5)")
    serve.add_argument("--keep-days", type=_days, default=None, metavar="DAYS",
                       help="a match nobody has played for this many days is deleted from the store "
                            "(default 90; 0: matches are kept for good)")
    serve.set_defaults(run=_serve)
    for command in commands.choices.values():
        command.set_defaults(command_parser=command)
    return parser


TEMPLATES = ("grid", "cards")
_NEW_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _new(args) -> int:
    """`rulelang new NAME`: a template from the package (rulelang/language/templates), its title and file
    name filled in; refuses anything but a plain file name, and never overwrites."""
    from importlib import resources
    from pathlib import Path
    path = Path(args.name if args.name.endswith(".rules") else args.name + ".rules")
    stem = path.name[:-len(".rules")]
    if not _NEW_NAME.fullmatch(stem):
        raise ValueError(f"bad name '{printable(args.name)}': use letters, digits, `_`, `-` and `.` "
                         f"(it names the file and the game)")
    if args.template not in TEMPLATES:
        raise ValueError(f"no template {printable(args.template)!r}; choose one of {', '.join(TEMPLATES)}")
    if path.exists() or path.is_symlink():
        raise ValueError(f"{printable(str(path))} already exists: not overwritten")
    if not path.parent.is_dir():
        raise ValueError(f"no such folder: {printable(str(path.parent))}")
    try:
        where = resources.files("rulelang.language").joinpath("templates").joinpath(f"{args.template}.rules")
        text = where.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        text = (Path(__file__).resolve().parent / "language" / "templates" / f"{args.template}.rules").read_text(encoding="utf-8")
    text = text.replace("__NAME__", stem).replace("__FILE__", path.name)
    with open(path, "x", encoding="utf-8") as file:      # "x": fails rather than overwrite (a race too)
        file.write(text)
    print(f"wrote {printable(str(path))} ({args.template} template); try: rulelang play {printable(str(path))}")
    return 0


def _lsp(args) -> int:
    """The language server needs pygls (the `lsp` extra): without it, one line saying so."""
    import importlib
    try:
        importlib.import_module("pygls.lsp.server")
        importlib.import_module("lsprotocol.types")
    except ImportError:
        print("rulelang lsp needs pygls: pip install 'rulelang[lsp]'", file=sys.stderr)
        return 1
    from .editor.lsp import serve
    return serve()


def _serve(args) -> int:
    from rulelang.web import serve
    return serve(args.files, args.host, args.port, args.store, args.bot_delay, args.keep_days)


def _rules(args) -> int:
    from .play.rulebook import rulebook
    game = rulelang.load(args.file)
    text = rulebook(game, markdown=args.format == "md", source=args.file)
    if args.format != "md" and sys.stdout.isatty():
        # at a terminal, as `rules` at the table reads: wrapped between words to its width, and
        # paged ($PAGER, else less, as git and man do) — 142 lines scrolled past, words cut in two
        import pydoc
        import shutil
        from .play.repl import wrap_line
        width = max(40, shutil.get_terminal_size().columns - 1)
        pydoc.pager("\n".join(part for line in text.split("\n") for part in wrap_line(line, width)))
        return 0
    print(text)
    return 0


def _replay(args) -> int:
    """Replays a save on rules the user names (or the matching rule file beside it), never on a
    path the save itself names."""
    from .core.errors import StateError
    from .play.replay import find_game, read, replay
    try:
        data = read(args.save)
    except StateError as error:
        raise StateError(f"cannot load {args.save}: {error}") from None
    return 0 if replay(data, find_game(args.save, data, args.rules)) else 1


def _match_arguments(parser: argparse.ArgumentParser, default_seed: int | None, sweep: bool = False) -> None:
    # (a first hour read "a .rules file or compiled IR .json" under a description that offers a save
    # and a shipped game's name too)
    parser.add_argument("file", metavar="FILE", help="a .rules file, a compiled IR .json" + (
        "" if sweep else ", a save written by `save`") + " or a shipped game's name (" + _shipped_list() + ")")
    if sweep:
        parser.add_argument("--players", type=_players_swept, metavar="N[,N…]",
                            help="number of players (default: the game's minimum); several, 2,3,4, "
                                 "simulate each count in turn")
    else:
        parser.add_argument("--players", type=_players, metavar="N",
                            help="number of players (default: the game's minimum)")
    parser.add_argument("--seed", type=int, default=default_seed, metavar="S",
                        help="random seed" + (" (default: a random one, printed when the game ends)" if default_seed is None
                                              else f" (default: {default_seed})"))
    parser.add_argument("--bot", type=_bot_spec, action="append", default=[], metavar="[SEAT=]KIND",
                        help=f"a bot plays SEAT (1-based), or every seat without SEAT; KIND: {KIND_HELP}")
    parser.add_argument("--option", type=_option, action="append", default=[], metavar="K=V",
                        help="a game option; V is read as JSON when it can be (true, 3), else as text"
                             + ("; K=V1,V2 (or the option given again) sweeps its values, a variant each"
                                if sweep else ""))


def _bot_spec(text: str) -> tuple[int | None, str]:
    """`2=random` → (1, "random") with the seat 0-based; `random` → (None, "random") for every seat."""
    seat_text, equals, kind = text.rpartition("=")
    try:
        check_kind(kind)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not equals:
        return None, kind
    if seat_text[:1] in ("P", "p"):           # (`P2=random`, as the game names its seats: a first hour)
        seat_text = seat_text[1:]
    if not (seat_text.isascii() and seat_text.isdigit()) or int(seat_text) < 1:
        raise argparse.ArgumentTypeError(f"bad seat {seat_text!r} in {text!r}; seats are 1, 2, ... (or P1, P2, ...)")
    return int(seat_text) - 1, kind


def _option(text: str) -> tuple[str, object]:
    key, equals, value = text.partition("=")
    if not key or not equals:
        raise argparse.ArgumentTypeError(f"expected K=V, got {text!r}")
    try:
        return key, safejson.loads(value, "option value")
    except ValueError:
        return key, value


def _seat_bots(specs: list[tuple[int | None, str]], players: int) -> dict[int, str]:
    """The bot of each bot-played seat; a seat-less spec covers every seat no other spec names. A
    seat named twice is an error (`--bot 2=random --bot 2=greedy` played greedy, silently)."""
    named = [seat for seat, _ in specs if seat is not None]
    twice = sorted({seat for seat in named if named.count(seat) > 1})
    if twice:
        raise ValueError(f"--bot names seat P{twice[0] + 1} twice: give each seat one bot")
    if sum(seat is None for seat, _ in specs) > 1:
        raise ValueError("--bot without a seat is given twice: give one kind for every seat, or SEAT=KIND")
    bots = {seat: kind for everyone, kind in specs if everyone is None for seat in range(players)}
    bots.update((seat, kind) for seat, kind in specs if seat is not None)
    return bots


GAMES_LIMIT = 10_000_000       # games one command may be asked to play (a bigger count is a typo)


def _whole(text: str, low: int, high: int) -> int:
    """A whole number from the command line, within [low, high] (a 20-digit count would make a
    list of that many games before anything is played)."""
    digits = text.strip()
    if not re.fullmatch(r"[-+]?\d+", digits):
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_brief(text)!r}")
    significant = digits.lstrip("+-").lstrip("0")            # (`0008080` is 8080; 40 digits are not read)
    value = int(digits) if len(significant) <= 30 else (-1 if digits[0] == "-" else 1) * 10 ** 30
    if value < low:
        raise argparse.ArgumentTypeError(f"must be at least {low}, not {_brief(digits)}")
    if value > high:
        most = f"{high:,}" if high >= 100_000 else str(high)
        raise argparse.ArgumentTypeError(f"must be at most {most}, not {_brief(digits)}")
    return value


def _brief(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _positive(text: str) -> int:
    return _whole(text, 1, GAMES_LIMIT)


def _games(text: str) -> int:
    """A count of games bounded above only (one below 1 gets simulate's own message)."""
    return _whole(text, -GAMES_LIMIT, GAMES_LIMIT)


def _players(text: str) -> int:
    """A player count bounded above only (0 or -1 gets the game's own "is for 1..4 players")."""
    return _whole(text, -PLAYER_LIMIT, PLAYER_LIMIT)


def _players_swept(text: str) -> list[int]:
    """`3` or `2,3,4`: the player counts a simulation plays, each in turn (once each, in order)."""
    counts = [_players(part) for part in text.split(",")]
    return list(dict.fromkeys(counts))


def _workers(text: str) -> int:
    return _whole(text, -64, 64)            # (below 1: simulate's own message; above 64 said here, as there)


def _port(text: str) -> int:
    return _whole(text, 1, 65535)


def _lint(args) -> int:
    if (args.games is not None or args.max_cpu is not None or args.option or args.max_actions) and not args.deep:
        needs = '--games' if args.games is not None else '--max-cpu' if args.max_cpu is not None else \
            '--max-actions' if args.max_actions else '--option'
        print(f"rulelang lint: error: {needs} needs --deep", file=sys.stderr)
        return 2
    fixed = dict(args.option)
    started = time.perf_counter()
    diagnostics, sources = rulelang.lint(args.files)
    diagnostics = list(diagnostics)
    if args.time:
        lines = sum(text.count("\n") + 1 for text in sources.values())
        print(f"lint: {len(args.files)} file(s), {lines} lines in {time.perf_counter() - started:.3f} s "
              f"(process CPU time so far, with start-up and imports: {time.process_time():.3f} s)", file=sys.stderr)
    if args.deep:
        from .playtest import DEEP_GAMES     # only lint needs it: keeps `play` quick to start
        games = args.games or DEEP_GAMES
        broken = {d.file for d in diagnostics if d.severity == "error"}
        started = time.perf_counter()
        for path in dict.fromkeys(str(p) for p in args.files):
            if path in sources and path not in broken:
                if fixed:                    # (an option the game has not, or a value it refuses: said once)
                    try:
                        rulelang.load(path).option_values(fixed)
                    except ValueError as err:
                        print(f"rulelang lint: error: {path}: {printable(str(err))}", file=sys.stderr)
                        return 2
                said = {(d.code, d.file, d.message, repr(d.span)) for d in diagnostics}
                # (an error of a file the rules read, a content YAML, is that file's: the rule file
                # then fails to load in deep_lint with the same error, which was said twice)
                more = {"max_actions": args.max_actions} if args.max_actions else {}
                diagnostics.extend(d for d in rulelang.deep_lint(path, games=games, seed=args.seed, cpu_limit=(
                    RUN_CPU_LIMIT if args.max_cpu is None else args.max_cpu), options=fixed, **more)
                    if (d.code, d.file, d.message, repr(d.span)) not in said)
        order = {str(p): i for i, p in reversed(list(enumerate(args.files)))}
        diagnostics.sort(key=lambda d: order.get(d.file or "", -1))      # stable: each file's own together
        if args.time:
            print(f"deep lint: {games} game(s) per file in {time.perf_counter() - started:.3f} s", file=sys.stderr)
    errors = sum(d.severity == "error" for d in diagnostics)
    if args.format == "json":            # (printable keeps JSON valid: its escapes are JSON's own)
        print(printable(json.dumps([d.to_json() for d in diagnostics], ensure_ascii=False, indent=1), multiline=True))
    else:
        for shown in shown_diagnostics(diagnostics, sources):
            print(printable(shown, multiline=True))
        if diagnostics:
            # (how many games were played, as a clean run says: a new author's deep lint that found a
            # warning no longer told it — unless the budget stopped it, which W406 says)
            played = f" (lint --deep: {games} random game(s) each)" \
                if args.deep and not any(d.code == "W406" for d in diagnostics) else ""
            print(f"{errors} error(s), {len(diagnostics) - errors} warning(s){played}")
        else:
            played = f" ({games} random game(s) each played to the end or to the action limit)" if args.deep else ""
            print(f"ok: {len(args.files)} file(s) clean{played}")
    return 1 if errors or (args.strict and diagnostics) else 0


def _compile(args) -> int:
    text = json.dumps(rulelang.compile_file(args.file), ensure_ascii=False, indent=1)
    if args.output:
        if not _ir_or_nothing(args.output):
            # (`compile … -o /etc/passwd`, run as root, replaced it: a fuzzer's trial; `save` refuses so)
            raise ValueError(f"{args.output} exists and is not a compiled game: not overwritten "
                             f"(write to another name, or remove it first)")
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(text + "\n")
    else:
        print(printable(text, multiline=True))
    return 0


def _ir_or_nothing(path: str) -> bool:
    """May compiled IR be written to `path`: nothing is there (or what is no regular file: the
    write says why it cannot), an empty file, or compiled IR (a JSON object with `ir_version`,
    whatever wrote it)."""
    from .core.limits import JSON_SIZE_LIMIT
    try:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            return True
        if os.path.getsize(path) > JSON_SIZE_LIMIT:
            return False
        with open(path, "rb") as file:
            head = file.read(1)
            if head not in (b"{", b" ", b"\n", b"\t", b"\r"):
                return False
            file.seek(0)
            data = json.loads(file.read().decode("utf-8"))
    except OSError:
        return True
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "ir_version" in data


REPORT_FILES = ("report.md", "report.json", "win_rates.png", "game_length.png", "legal_actions.png", "games.jsonl")


def _report_folder_problem(folder) -> str | None:
    """Why `simulate --report` may not write in `folder`, or None: a file it writes there is
    replaced only when the folder holds a report of its own (report.json begins `{"simulations"`,
    or report.md's title ends `: balance report` — the repository keeps only report.md), and a
    folder where a file must go is refused (found only after every game was played)."""
    for name in REPORT_FILES + (".run.lock",):
        if (folder / name).is_symlink():        # (written through, a planted link replaced another file:
            return f"{name} there is a symbolic link: not followed (report to another folder)"   # a fuzzer's)
    present = [name for name in REPORT_FILES if (folder / name).exists()]
    for name in present:
        if not (folder / name).is_file():
            return f"{name} there is not a file"
    if not present:
        return None
    try:
        with open(folder / "report.json", "rb") as file:
            if file.read(32).startswith(b'{"simulations"'):
                return None
    except OSError:
        pass
    try:                                         # (a run's games, as they ended: a run killed outright)
        with open(folder / "games.jsonl", "rb") as file:
            if file.read(32).startswith(b'{"rulelang_run"'):
                return None
    except OSError:
        pass
    try:
        with open(folder / "report.md", "rb") as file:
            if file.readline(400).rstrip().endswith(b": balance report"):
                return None
    except OSError:
        pass
    return f"{present[0]} there is not part of a report of rulelang simulate: not overwritten (report to another folder)"


def _play(args) -> int:
    from .play.replay import is_save
    if is_save(args.file):
        return _resume(args)
    if args.rules is not None:
        raise ValueError("--rules goes with a save file (rulelang play SAVE.json --rules FILE)")
    from .play.repl import run_repl
    try:
        game = rulelang.load(args.file)
    except RuleError as error:
        if str(args.file).lower().endswith(".json") and error.diagnostics and error.diagnostics[0].code in ("E000", "E301"):
            # (a save's first bytes name it; these do not: a broken save is read as compiled rules)
            error.diagnostics[0] = replace(error.diagnostics[0], message=error.diagnostics[0].message
                                           + " (nor is it a save file: a save begins {\"rulelang_save\": …)")
        raise
    players = game.min_players if args.players is None else args.players
    seed = rulelang.secret_seed() if args.seed is None else args.seed
    return run_repl(game, players, seed, dict(args.option), _seat_bots(args.bot, players),
                    sys.stdin, sys.stdout, args.file, delay=args.delay, seed_secret=args.seed is None)


def _resume(args) -> int:
    """`rulelang play SAVE.json`: the saved match, replayed on the rules the user names (or the
    matching rule file beside it), goes on at the terminal."""
    from .core.errors import StateError
    from .play.repl import run_repl
    from .play.replay import find_game, read, rebuild, saved_bots
    try:
        data = read(args.file)
    except StateError as error:
        raise StateError(f"cannot load {args.file}: {error}") from None
    if args.players is not None and args.players != data["players"]:
        raise ValueError(f"the save is of a {data['players']}-player match, not {args.players}")
    if args.option or args.seed is not None:
        raise ValueError("a saved match keeps its seed and options: --seed and --option do not apply")
    game = find_game(args.file, data, args.rules)
    moves: dict = {}                            # (for `log`: who made each move, and what it wrote,
    asked: dict = {}                            #  and the questions the answers answered)
    try:
        match = rebuild(data, game, moves=moves, asked=asked)
    except StateError as error:
        raise StateError(f"cannot load {args.file}: {error}") from None
    players = data["players"]
    bots = _seat_bots(args.bot, players) if args.bot else saved_bots(data)     # (--bot: the seats anew)
    return run_repl(game, players, data["seed"], data["options"], bots,
                    sys.stdin, sys.stdout, args.rules, match=match, delay=args.delay, moves=moves, asked=asked,
                    seed_secret=data.get("seed_secret") is True)


def _number_of(text: str, unit: str, most: float, bounds: str) -> float:
    """A number of `unit` from 0 to `most` given on the command line, or argparse's one-line refusal
    (`bounds`: the range as the refusal says it)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of {unit}, got {text!r}") from None
    if not 0 <= value <= most:                  # (nan fails both: refused too)
        raise argparse.ArgumentTypeError(f"must be {bounds}, not {text}")
    return value


def _budget(text: str) -> float:
    """A run's CPU budget in seconds (--max-cpu): 0 for none."""
    value = _number_of(text, "seconds", float("inf"), "0 (no limit) or more seconds")
    if value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) or more seconds, not {text}")
    return value


def _seconds(text: str) -> float:
    return _number_of(text, "seconds", 3600, "from 0 to 3600 seconds")


def _days(text: str) -> float:
    return _number_of(text, "days", 36500, "from 0 (keep for good) to 36500 days")


def _simulate(args) -> int:
    """`rulelang simulate`; a stop (Ctrl-C, or SIGTERM from `timeout` or a scheduler) keeps the games
    played in this process: their figures and report are written (a designer's trial lost 15 minutes
    of games to a `timeout`)."""
    import signal
    import threading

    def stop(*_):
        raise KeyboardInterrupt
    here = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, stop) if here else None
    try:
        return _simulate_run(args)
    finally:
        if here:
            signal.signal(signal.SIGTERM, before)


def _simulate_run(args) -> int:
    from .play.simulate import deadline_after, format_report
    deadline = deadline_after(args.max_cpu)      # one budget for the whole run, every sweep included
    files = [args.file] + args.compare
    games = [rulelang.load(f) for f in files]
    for f in files:                          # (a changed rule that never ends: said before hours are spent —
        if not f.endswith(".json"):          # a designer's trial saw it only as a budget spent)
            for d in rulelang.lint([f])[0]:
                if d.code == "W204":
                    _print_kept(printable(d.format(None)), file=sys.stderr)
    for f, other in zip(args.compare, games[1:]):   # (a designer's trial compared two games unwarned)
        if other.name != games[0].name:
            _print_kept(printable(f"rulelang simulate: {f} is another game ({other.name}, not {games[0].name}): its "
                            f"games are paired with {args.file}'s by seed all the same"), file=sys.stderr)
    counts = [games[0].min_players] if args.players is None else args.players
    if args.report:                              # (a path that cannot be a folder: said before the games,
        from pathlib import Path
        where = Path(args.report)                # not after a night of them — a designer's trial)
        if where.exists() and not where.is_dir():
            raise ValueError(f"--report {args.report}: a file is there, and the report is a folder")
        problem = _report_folder_problem(where)     # (a folder's own report.md was replaced unasked: a
        if problem is not None:                     # fuzzer's trial; an earlier report is replaced)
            raise ValueError(f"--report {args.report}: {problem}")
        where.mkdir(parents=True, exist_ok=True)
    if args.workers < 1 or args.workers > 64:
        raise ValueError("--workers must be from 1 to 64")
    if args.games < 1:                           # (said by simulate() too: games are played here now)
        raise ValueError("the number of games must be at least 1")
    bar = _Progress.for_terminal("games", log=True)
    # each rule file with each player count and option set; files compared are told apart by their
    # names, player counts (when several) by a `players` entry in the variant's name
    names = [({"rules": _file_name(f, files)} if args.compare else {})
             | ({"sweeps_players": True} if len(counts) > 1 else {}) for f in files]
    variants = [(named, game, players, options) for named, game in zip(names, games)
                for players in counts for options in _variants(game, args.option)]
    from .play.simulate import seat_bots
    for game in games:                          # every count and seat checked before any game is played
        for players in counts:
            if not game.min_players <= players <= game.max_players:
                raise ValueError(f"{game.name} is for {game.players_text} players, not {players}")
            seat_bots(_seat_bots(args.bot, players), players)
    from .play.bots import parse_kind
    seated = {kind for players in counts for kind in _seat_bots(args.bot or [], players).values()}
    timed = sorted(kind for kind in seated if parse_kind(kind)[0] in ("mcts", "ismcts") and parse_kind(kind)[1] is None)
    if timed:                                   # (two runs of `--bot ismcts`, same seed, differed: a designer)
        _print_kept(printable(f"rulelang simulate: {', '.join(timed)} stops at a CPU time per move, so its games depend "
                        f"on this machine's speed and load: the same seed may not give the same figures; for a "
                        f"run you can repeat, give it iterations ({timed[0].split(':')[0]}:200)"), file=sys.stderr)
    if args.compare:                            # (an option one compared file lacks: said with its name)
        for named, game, players, options in variants:
            try:
                game.new_match(players, 0, options)
            except ValueError as err:
                raise ValueError(f"{named['rules']}: {err}") from None
    if args.resume and not args.report:
        raise ValueError("--resume goes on with the games of a --report folder: give the run's --report DIR")
    if args.resume and args.ray:
        raise ValueError("--resume is not for a run on Ray (--ray keeps no game of a run stopped)")
    if not args.ray:                            # the variants taking turns game by game (here, or in a pool)
        journal = None
        if args.report:                         # (each game written as it ends: kept by a run killed outright)
            from .play.simulate import MAX_ACTIONS, Journal
            journal = Journal(args.report, [(game, players, seat_bots(_seat_bots(args.bot, players), players), options)
                                            for _, game, players, options in variants],
                              args.seed, MAX_ACTIONS, args.resume)
            if args.resume:
                together = " (its variants together)" if len(variants) > 1 else ""      # (--games counts each's)
                kept = sum(1 for _, index in journal.done if index < args.games)   # (those --games still asks for)
                more = len(journal.done) - kept
                beyond = f" ({more} more, past --games {args.games}, left aside)" if more else ""
                _print_kept(f"rulelang simulate: {kept} game(s) of the run{together} found in "
                      f"{printable(str(journal.path))}: not played again{beyond}", file=sys.stderr)
        try:
            results, stopped = _simulate_together(
                [(game, players, _seat_bots(args.bot, players), options) for _, game, players, options in variants],
                args.games, args.seed, bar or (lambda done, planned, *more, **named: None), deadline, args.max_cpu, args.workers,
                journal)
        finally:
            if bar is not None:
                bar.close()
            if journal is not None:
                journal.close()
        if stopped and not results:
            _print_kept("interrupted: no results (no game had finished)", file=sys.stderr)
        for result, (named, game, *_) in zip(results, variants):
            result.update(named)
            # (which rules these figures are of, for the morning: a designer could not tie a report
            # to the version of the rule file it measured)
            result["fingerprint"] = getattr(game, "fingerprint", None)
            if not args.json:
                if result.get("partial") and not result.get("stopped"):
                    _print_kept(f"interrupted: partial results, {result['games']} of {result['planned']} games",
                          flush=True)
                _print_kept(format_report(result) + "\n", flush=True)
    else:
        results, stopped = _simulate_apart(args, variants, deadline, bar)
    if not results:
        return 130 if stopped else 0
    from .play.report import variant_name
    not_run = [variant_name({"options": o, "players": n, **named})              # (a sweep cut short)
               for named, _, n, o in variants[len(results):]]
    if not_run:
        _print_kept(printable(f"not run, the run stopped first: {'; '.join(not_run)}"), flush=True)
    from .play.report import changes, changes_for_terminal
    found = changes(results)                    # each changed file or option against its base
    if found and not args.json:
        _print_kept(changes_for_terminal(found) + "\n", flush=True)
    both_on_screen = sys.stdout.isatty() and sys.stderr.isatty()
    cut = next((r for r in results if r.get("stopped")), None)    # (any variant's share spent)
    if cut is not None and (args.json or not both_on_screen):   # (on one screen: said above)
        _print_kept(printable(f"rulelang simulate: {cut['stopped']}"), file=sys.stderr)
    if args.report:
        from .play.report import write_report
        import signal
        import threading
        # (a second Ctrl-C while it is written left report.json alone, silently: it waits now)
        here = threading.current_thread() is threading.main_thread()
        was = signal.signal(signal.SIGINT, signal.SIG_IGN) if here else None
        try:
            written = write_report(results, args.report, not_run)
        except OSError as err:                  # (a link planted there during the run: refused, said)
            raise ValueError(f"--report: cannot write the report in {args.report}: {err.strerror or err} (a file "
                             f"there is a symbolic link or no regular file: report to another folder)") from None
        finally:
            if here:
                signal.signal(signal.SIGINT, was)
        for path in written:
            # (with --json, stdout is the JSON alone: `--json --report out > result.json` was no JSON)
            _print_kept(f"wrote {printable(path)}", file=sys.stderr if args.json else sys.stdout)
    if args.json:
        shown = [{k: v for k, v in r.items() if k != "records"} for r in results]
        for change in found:                    # (a compared variant's difference from its base)
            shown[change["variant_index"]]["change"] = change
        _print_kept(printable(json.dumps(shown[0] if len(shown) == 1 else shown, ensure_ascii=False)))
    if cut is not None:                        # a run cut short by its budget fails
        return 1
    if stopped:
        return 130
    return 1 if any(r.get("errors") for r in results) else 0   # a game ended in a rule error (its seed said)


def _simulate_apart(args, variants, deadline, bar) -> tuple[list[dict], bool]:
    """The variants of a run as Ray tasks (`--ray`), one after the other, each an equal share of
    the budget left: a budget spent on the first would leave the changed file unplayed. An
    interrupt keeps nothing of the variant being played."""
    from .play.simulate import budget_message, format_report, simulate
    results: list[dict] = []
    stopped = False
    for k, (named, game, players, options) in enumerate(variants):
        bots = _seat_bots(args.bot, players)
        left = None if deadline is None else max((deadline - time.process_time()) / (len(variants) - k), 1e-9)
        try:
            result = simulate(game, players, args.games, args.seed, bots, options,
                              workers=args.workers, ray=args.ray, progress=bar, cpu_limit=left)
        except KeyboardInterrupt:
            if bar is not None:
                bar.close()
            _print_kept("interrupted: no results (a run on Ray keeps none: without --ray the games played "
                  "are kept)", file=sys.stderr)
            stopped = True
            break
        finally:
            if bar is not None:
                bar.close()
        if result.get("stopped"):               # (said of the whole run's budget, not of what this sweep had left)
            result["stopped"] = budget_message(result["games"], result["planned"], args.max_cpu, len(variants))
        result.update(named)
        results.append(result)
        if not args.json:
            if result.get("partial") and not result.get("stopped"):
                _print_kept(f"interrupted: partial results, {result['games']} of {result['planned']} games", flush=True)
            _print_kept(format_report(result) + ("\n" if len(results) else ""), flush=True)
        if result.get("partial") and not result.get("stopped"):     # (interrupted; a spent share goes on)
            stopped = True
            break
    return results, stopped


def _file_name(path: str, files: list[str]) -> str:
    """How a compared rule file is named in a report: its file name, or its path where two share a name."""
    name = os.path.basename(path)
    return name if sum(os.path.basename(f) == name for f in files) == 1 else path


def _simulate_here(game, players, games, seed, bots, options, bar, cpu_limit=None) -> dict:
    """`simulate` of one variant in this process (see `_simulate_together`)."""
    from .play.simulate import deadline_after
    results, _ = _simulate_together([(game, players, bots, options)], games, seed, bar,
                                    deadline_after(cpu_limit), cpu_limit)
    if not results:
        raise KeyboardInterrupt
    return results[0]


def _simulate_together(variants, games, seed, bar, deadline, cpu_limit, workers: int = 1,
                       journal=None) -> tuple[list[dict], bool]:
    """`simulate` in this process, game by game as `simulate.simulate` plays them (the same seeds,
    the same records), the variants (`(game, players, bots, options)`) taking turns: game i of
    each, then game i + 1 of each. A run stopped (Ctrl-C, or the CPU budget ending at `deadline`)
    thus leaves every variant with as many games as the others, or one fewer — a comparison to
    read, where playing the variants one after the other left the changed file unplayed (a
    designer's trial). Returns the summaries of the variants that played a game, the games
    finished so far marked `"partial": true` (with the `"planned"` number; a spent budget also
    says so in `"stopped"`), and whether the run was interrupted. With `workers` > 1 the games are
    played in that many processes in the same order (`simulate.play_in_pool`). `journal`
    (`simulate.Journal`): the games it holds already are taken from it, each game played is added."""
    from .play import simulate as sim
    kinds = [sim.seat_bots(bots, players) for _, players, bots, _ in variants]
    for game, players, _, options in variants:      # bad players or options: one error, here
        game.new_match(players, sim.match_seed(seed, 0), options)
    records: list[list] = [[] for _ in variants]
    seconds = [0.0] * len(variants)
    if workers > 1:
        start = time.perf_counter()
        left = None if deadline is None else max(deadline - time.process_time(), 1e-9)
        records, spent, interrupted = sim.play_in_pool(
            [(game, players, kind, options) for (game, players, _, options), kind in zip(variants, kinds)],
            games, seed, workers, bar, left, timed=seconds, journal=journal)
        took = time.perf_counter() - start        # (the wall-clock time of the variants played together,
        busy = sum(seconds) or 1.0                # shared as the workers' time went to each)
        seconds = [took * t / busy for t in seconds]
        if interrupted and not records[0]:
            return [], True
    else:
        spent, interrupted = _play_here(variants, kinds, records, seconds, games, seed, bar, deadline, journal)
        if interrupted and not records[0]:
            return [], True
    return _summaries(variants, kinds, records, seconds, games, seed, spent, cpu_limit), interrupted


def _play_here(variants, kinds, records, seconds, games, seed, bar, deadline, journal=None) -> tuple[bool, bool]:
    """`_simulate_together` in this process: (whether the budget was spent, whether interrupted)."""
    from .play import simulate as sim
    total = games * len(variants)
    done = journal.done if journal is not None else {}
    reused = 0                                      # (the journal's games: no part of the time left)
    try:
        for index in range(games):
            for k, (game, players, _, options) in enumerate(variants):
                if (k, index) in done:              # (played before the run was stopped: `--resume`)
                    record, took = done[(k, index)]
                    records[k].append(record)
                    seconds[k] += took
                    reused += 1
                    bar(index * len(variants) + k + 1, total, skipped=reused)
                    continue
                start = time.perf_counter()
                try:
                    records[k].append(sim.play_game(game, index, players, seed, kinds[k], options,
                                                    sim.MAX_ACTIONS, deadline))
                finally:
                    seconds[k] += time.perf_counter() - start
                if journal is not None:
                    journal.add(k, index, records[k][-1], time.perf_counter() - start)
                if reused:
                    bar(index * len(variants) + k + 1, total, skipped=reused)
                else:
                    bar(index * len(variants) + k + 1, total)
    except sim.BudgetSpent:
        return True, False
    except KeyboardInterrupt:
        return False, True
    return False, False


def _summaries(variants, kinds, records, seconds, games, seed, spent, cpu_limit) -> list[dict]:
    """What `_simulate_together` returns of the records played."""
    from .play import simulate as sim
    results = []
    for k, (game, players, _, options) in enumerate(variants):
        if not records[k] and not spent:     # (interrupted before its first game: "not run")
            break
        result = sim.summarize(game.name, players, len(records[k]), seed, kinds[k], options, records[k], seconds[k])
        if len(records[k]) < games:
            result["partial"], result["planned"] = True, games
            if spent:
                result["stopped"] = sim.budget_message(len(records[k]), games, cpu_limit)
        results.append(result)
    return results


class _Progress:
    """A progress bar on stderr when it is a terminal: `bar(done, total)`; elsewhere (a log file, a
    night's run under `nohup`) one plain line a minute, `LOG_EVERY` seconds (a designer's trial saw
    nothing for hours)."""
    WIDTH = 30
    LOG_EVERY = 60.0

    def __init__(self, unit: str, stream, log: bool = False):
        self.unit, self.stream, self.log = unit, stream, log
        self.start = time.perf_counter()
        self.last = self.start if log else 0.0
        self.shown = False

    @classmethod
    def for_terminal(cls, unit: str, log: bool = False):
        """A bar when stderr is a terminal; with `log`, lines when it is not."""
        try:
            if sys.stderr.isatty():
                return cls(unit, sys.stderr)
            return cls(unit, sys.stderr, log=True) if log else None
        except (AttributeError, ValueError):
            return None

    def __call__(self, done: int, total: int, what: str = "", skipped: int = 0) -> None:
        """`skipped`: of the `done`, those that took no time here (a resumed run's games)."""
        now = time.perf_counter()
        ran = done - skipped
        if self.log:
            if done < total and now - self.last >= self.LOG_EVERY:
                self.last = now
                elapsed = now - self.start
                left = f", ~{elapsed / ran * (total - done):.0f} s left" if ran > 0 else ""
                self._write(printable(f"rulelang: {done} of {total} {self.unit}, {elapsed:.0f} s{left}") + "\n")
            return
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        filled = self.WIDTH * done // max(1, total)
        elapsed = now - self.start
        left = f", ~{elapsed / ran * (total - done):.0f} s left" if 0 < ran and done < total else ""
        line = (f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} {self.unit} "
                f"{elapsed:.0f} s{left}{'  ' + what if what else ''}")
        self._write(printable(line[1:]).join(["\r", "\033[K"]))
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self._write("\r\033[K")
            self.shown = False

    def _write(self, text: str) -> None:
        """Its reader gone (`simulate … 2>&1 | tee log`, then Ctrl-C), the bar says no more: the
        run goes on to keep its games and write its report."""
        if self.stream is None:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (BrokenPipeError, ValueError):
            self.stream = None


MAX_VARIANTS = 1000         # option sets one simulation may sweep


def _variants(game, given: list[tuple[str, object]]) -> list[dict]:
    """The option sets a simulation sweeps: a key given several times (`--option k=1 --option k=2`),
    or a bool or int option given as `k=1,2,3` (or one with listed values, `k=short,long`), takes
    each value in turn; every combination."""
    import itertools
    types = {o["name"]: o["type"] for o in game.options}
    choices = {o["name"]: o.get("choices") for o in game.options}
    values: dict[str, list] = {}
    for key, value in given:
        listed = choices.get(key)
        if isinstance(value, str) and "," in value and types.get(key) in ("bool", "int"):
            parts = []
            for part in value.split(","):
                parts.append(_option(f"{key}={part.strip()}")[1])
            values.setdefault(key, []).extend(parts)
        elif (isinstance(value, str) and "," in value and listed and value not in listed
              and all(part.strip() in listed for part in value.split(","))):
            values.setdefault(key, []).extend(part.strip() for part in value.split(","))    # its listed values
        else:
            values.setdefault(key, []).append(value)
    keys = list(values)
    count = 1
    for k in keys:
        count *= len(values[k])
        if count > MAX_VARIANTS:           # (60,000 x 20,000 values were built whole: 4 GB)
            raise ValueError(f"the options swept make more than {MAX_VARIANTS:,} combinations; sweep fewer values")
    return [dict(zip(keys, combo)) for combo in itertools.product(*(values[k] for k in keys))] or [{}]


def _bench_parser(commands) -> None:
    bench = commands.add_parser("bench", help="random playouts per second of rule files, and the size of a state",
                                description="Time random playouts (a uniform random bot over legal_actions(), "
                                            "match set-up included) in CPU time, best and median of several "
                                            "rounds; a reference is timed interleaved with the engine.")
    bench.add_argument("files", nargs="+", metavar="FILE", help=".rules files or compiled IR .json")
    bench.add_argument("--players", type=_player_counts, action="append", default=[], metavar="N",
                       help="player count(s), e.g. 2 or 1,2,4 (default: each game's minimum)")
    bench.add_argument("--games", type=_positive, default=200, metavar="G", help="playouts per pass (200)")
    bench.add_argument("--seed", type=int, default=0, metavar="S", help="first match seed (0)")
    bench.add_argument("--repeats", type=_positive, default=3, metavar="R", help="timed rounds (3)")
    bench.add_argument("--chunk", type=_positive, default=20, metavar="C",
                       help="games per chunk, engine and reference alternating (20)")
    bench.add_argument("--option", type=_option, action="append", default=[], metavar="K=V", help="a game option")
    bench.add_argument("--reference", action="append", default=[], metavar="REF.py",
                       help="a hand-written Match module to time the same way, one per FILE, for the ratio")
    bench.add_argument("--max-cpu", type=_budget, default=None, metavar="SECONDS",
                       help="CPU time the whole run may take, then it stops and says so (600; 0: no limit)")
    bench.add_argument("--json", action="store_true", help="print the figures as one JSON list")
    bench.set_defaults(run=_bench)


def _player_counts(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected player counts like 2 or 1,2,4, got {text!r}") from None
    if not counts:
        raise argparse.ArgumentTypeError("expected at least one player count")
    if not all(1 <= n <= PLAYER_LIMIT for n in counts):
        raise argparse.ArgumentTypeError(f"a player count is from 1 to {PLAYER_LIMIT}, got {_brief(text)!r}")
    return counts


def _bench(args) -> int:
    from .play.bench import format_report as bench_report, run as run_bench
    players = list(dict.fromkeys(p for counts in args.players for p in counts))
    bar = _Progress.for_terminal("measurements")
    if bar is None:
        results = run_bench(args.files, players, args.games, args.seed, dict(args.option), args.repeats,
                            args.reference, chunk=args.chunk, cpu_limit=_bench_budget(args))
        partial = False
    else:                      # one file and player count at a time: a progress bar, and Ctrl-C keeps what is done
        results, partial = _bench_here(args, players, run_bench, bar)
    if partial and not args.json:
        print(f"interrupted: partial results ({len(results)} measured)" if partial is True
              else f"{partial}: partial results ({len(results)} measured)")
    if args.json:
        print(printable(json.dumps([dict(r, partial=True) for r in results] if partial else results,
                                   ensure_ascii=False)))
    elif results:
        print(printable(bench_report(results), multiline=True))
    return 130 if partial is True else 1 if partial else 0


def _bench_budget(args) -> float:
    """The CPU seconds a `bench` run may take (`--max-cpu`; 0: no limit)."""
    from .play.bench import CPU_LIMIT
    return CPU_LIMIT if args.max_cpu is None else args.max_cpu


def _bench_here(args, players, run_bench, bar) -> tuple[list, bool | str]:
    from .play.bench import BudgetSpent
    if args.reference and len(args.reference) != len(args.files):
        raise ValueError(f"give one --reference per file ({len(args.files)} files, "
                         f"{len(args.reference)} references)")
    games = {path: rulelang.load(path) for path in dict.fromkeys(args.files)}
    units = []
    for k, path in enumerate(args.files):
        game = games[path]
        counts = [p for p in players if game.min_players <= p <= game.max_players] if players else [game.min_players]
        refs = [args.reference[k]] if args.reference else None
        units += [(path, [p], refs) for p in counts] or [(path, players, refs)]   # (none: run() says why)
    results: list = []
    budget, started = _bench_budget(args), time.process_time()
    try:
        for done, (path, counts, refs) in enumerate(units):
            bar(done, len(units), f"{path} {counts[0] if counts else ''}p")
            left = max(1e-3, budget - (time.process_time() - started)) if budget else 0   # (one budget for all)
            results += run_bench([path], counts, args.games, args.seed, dict(args.option), args.repeats, refs,
                                 load=games.__getitem__, chunk=args.chunk, cpu_limit=left, said_limit=budget)
        bar(len(units), len(units))
    except KeyboardInterrupt:
        return results, True
    except BudgetSpent as spent:         # (what was measured before stands, said with the whole budget: a review)
        if not results:
            raise
        return results, str(spent)
    finally:
        bar.close()
    return results, False
