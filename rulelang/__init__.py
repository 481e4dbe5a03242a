"""rulelang: board and card games as declarative rule files.

    game = rulelang.load("games/x.rules")            # or a compiled IR .json
    match = game.new_match(players=2, seed=7)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from .language import cache
from .core import safejson
from .core.errors import (Diagnostic, EngineFault, GameRefused, IllegalAction, RuleError, RuleRuntimeError, RulelangError,
                          Span, StateError)
from .core.limits import JSON_SIZE_LIMIT, SOURCE_LIMIT
from .core.textsafe import not_utf8, printable
from .core.version import __version__

# The front end (parser, checker, compiler: Lark and jsonschema) is imported when first needed,
# so loading a cached rule file or running a game does not pay for it; and so is the engine (with
# its code generator, ~0.1 s), which linting or compiling a rule file never needs.
_ENGINE = ("Action", "Game", "Match", "interrupt_seat")
if TYPE_CHECKING:
    from .engine.game import Game  # noqa: F401
    from .engine.match import Action, Match, interrupt_seat  # noqa: F401
    from .engine.views import without_internal  # noqa: F401
    from .engine.chance import secret_seed  # noqa: F401


def __getattr__(name: str):
    if name in _ENGINE:
        from .engine import game, match
        return getattr(game if name == "Game" else match, name)
    if name == "without_internal":        # a view as a screen shows it (for front ends)
        from .engine.views import without_internal
        return without_internal
    if name == "secret_seed":             # a seed nobody is told (the terminal's, the server's)
        from .engine.chance import secret_seed
        return secret_seed
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["load", "compile_file", "compile_source", "lint", "deep_lint", "locations", "Game", "Match", "Action", "interrupt_seat", "without_internal", "secret_seed",
           "Diagnostic", "Span", "RuleError", "IllegalAction", "RuleRuntimeError", "RulelangError", "StateError",
           "EngineFault", "GameRefused"]


def _read(path: str, limit: int = SOURCE_LIMIT) -> str:
    """A rule file's (or IR's) text: at most `limit` characters, never a device, a FIFO or a
    directory (opened without waiting, then checked: a FIFO cannot block it). A name no file can
    have (a NUL byte) is a file that does not exist."""
    try:
        if not str(path) or "\0" in str(path) or not Path(path).exists():
            raise RuleError([Diagnostic("E000", f"no such file: {printable(path)}")])
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with open(fd, encoding="utf-8") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise RuleError([Diagnostic("E000", f"cannot read {printable(path)}: not a regular file")])
            text = f.read(limit + 1)
    except IsADirectoryError:
        raise RuleError([Diagnostic("E000", f"cannot read {printable(path)}: not a regular file")]) from None
    except UnicodeDecodeError:
        raise RuleError([Diagnostic("E000", f"{printable(path)}:{not_utf8(path, 4 * limit + 4)}")]) from None
    except OSError as err:
        why = err.strerror or str(err)
        raise RuleError([Diagnostic("E000", f"cannot read {printable(path)}: {printable(why)}")]) from None
    if len(text) > limit:
        raise RuleError([Diagnostic("E000", f"{printable(path)} is larger than {limit} characters")])
    return text


def check_source(source: str, file: str = "<rules>"):
    """Parse and check; returns (Checked or None, diagnostics)."""
    from .language.checker import check
    from .language.parser import parse
    try:
        tree = parse(source, file)
    except RuleError as err:
        return None, err.diagnostics
    checked = check(tree)
    return checked, checked.diagnostics


def compile_source(source: str, file: str = "<rules>") -> dict:
    """Rule text to validated IR; raises RuleError with every error diagnostic."""
    from .language.compiler import compile_checked
    checked, diags = check_source(source, file)
    errors = [d for d in diags if d.severity == "error"]
    if errors or checked is None:
        raise RuleError(errors or diags, {file: source, **(checked.sources if checked else {})})
    return compile_checked(checked)


def compile_file(path: str) -> dict:
    return compile_source(_read(path), str(path))


def lint(paths) -> tuple[list[Diagnostic], dict[str, str]]:
    """Every diagnostic (errors and warnings) of every file, and the sources for caret lines.
    `paths`: a list of files, or one file (a path given alone was read letter by letter)."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    paths = [os.fsdecode(p) if isinstance(p, bytes) else p for p in paths]     # (bytes: a name, decoded)
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    for path in paths:
        try:
            source = _read(path)
        except RuleError as err:
            diags.extend(err.diagnostics)
            continue
        sources[str(path)] = source
        try:
            checked, found = check_source(source, str(path))
        except (OSError, ValueError) as err:    # (a safety net: one file's trouble never hides the others')
            diags.append(Diagnostic("E000", f"cannot check {printable(path)}: {printable(str(err))}",
                                    Span(str(path), 1, 1)))
            continue
        diags.extend(found)
        if checked is not None:
            sources.update(checked.sources)      # imported YAML content, for caret lines
    return diags, sources


def deep_lint(path, *args, **kwargs) -> list[Diagnostic]:
    """Play seeded random games of a rule file (or IR) and report what went wrong at run time, each
    problem with the shortest game that shows it. Arguments: `games`, `seed`, `max_actions`; see
    rulelang/playtest.py (imported here only when called: it needs nothing `play` does not)."""
    from .playtest import deep_lint as play
    return play(path, *args, load=load, locations=locations, **kwargs)


def locations(path: str) -> dict | None:
    """Where the parts of a rule file are, for reports about a game as it runs (the deep lint):
    {"game": Span, "steps": {step: Span}, "actions": {(step, action): Span}, "lines": {line: the
    leftmost Span that starts on it}, "file_lines": {(file, line): the same, in that file}, "calls": {(line, function or loop keyword): the leftmost call or loop of it there}}. None if the file cannot be read or parsed."""
    from .language import nodes as n
    from .language.parser import parse
    try:
        tree = parse(_read(path), str(path))
    except RulelangError:
        return None
    steps: dict = {}
    actions: dict = {}
    lines: dict = {}
    file_lines: dict = {}                # (file, line) -> the leftmost Span there: included files apart
    calls: dict = {}
    for x in n.walk(tree):
        # (a loop too, by its keyword: "loop limit: `while` ran 10000 times" was put at the `for` that
        # began its line — a designer's trial)
        named = x.name if isinstance(x, (n.Call, n.Aggregate)) else \
            {n.While: "while", n.For: "for", n.Repeat: "repeat"}.get(type(x))
        if named is not None and x.span.line:
            best = calls.get((x.span.line, named))
            if best is None or x.span.column < best.column:
                calls[(x.span.line, named)] = x.span
        if isinstance(x, n.StepDecl):
            steps.setdefault(x.name, x.span)
            for a in x.actions:
                actions.setdefault((x.name, a.name), a.span)
        if not isinstance(x, n.Game) and x.span.line:
            best = lines.get(x.span.line)
            if best is None or x.span.column < best.column:
                lines[x.span.line] = x.span
            best = file_lines.get((x.span.file, x.span.line))
            if best is None or x.span.column < best.column:
                file_lines[(x.span.file, x.span.line)] = x.span
    return {"game": tree.span, "steps": steps, "actions": actions, "lines": lines, "calls": calls,
            "file_lines": file_lines}


def _not_a_save(data, path: str) -> None:
    """A save given where rules are wanted (`rulelang rules SAVE`) is said to be one, not checked
    against the IR's schema (five lines about `ir_version`) or parsed as a rule file."""
    if isinstance(data, dict) and "rulelang_save" in data:
        name = data.get("name")
        of = f" of {printable(name)}" if isinstance(name, str) and len(name) < 100 else ""
        raise RuleError([Diagnostic("E300", f"{printable(path)}: a saved match{of}, not rules: "
                                            f"`rulelang play {printable(path)}` goes on with it")])


def _shipped(path: str) -> str:
    """A shipped game's bare name (`NAME` for games/NAME.rules) with no such file here: its rule file
    (as the command line takes it; an API trial found `rulelang.load(NAME)` refused)."""
    if not path.isidentifier() or len(path) > 64:
        return path
    try:
        if Path(path).exists():
            return path
        here = Path(__file__).resolve().parent
        for folder in (here.parent / "games", here / "games"):
            found = folder / f"{path}.rules"
            if found.is_file():
                return str(found)
    except OSError:                         # (_read says what is wrong with the name)
        pass
    return path


def load(path: str) -> Game:
    """A Game from a rule file (through the IR cache, see cache.py) or from compiled IR JSON; a
    shipped game also by its name (`load(NAME)` for games/NAME.rules)."""
    from .engine.game import Game
    path = _shipped(str(path))
    if path.endswith(".json"):
        from .ir.validate import validate_ir
        try:
            ir = safejson.loads(_read(path, JSON_SIZE_LIMIT).removeprefix("\ufeff"), "compiled game")   # (an editor's
            # byte order mark: a save with one loads, and `rules SAVE` said "not valid JSON")
        except safejson.JSONLimitError as err:
            raise RuleError([Diagnostic("E300", f"{printable(path)}: {err}")]) from None
        _not_a_save(ir, path)
        validate_ir(ir, path)
        return Game(ir, path, compiled=False)
    source = _read(path)
    if source.removeprefix("\ufeff").lstrip().startswith("{") and '"rulelang_save"' in source[:400]:
        try:
            data = safejson.loads(source.removeprefix("\ufeff"), "save")
        except (safejson.JSONLimitError, ValueError):
            data = None                       # (not JSON after all: the parser says what it is)
        _not_a_save(data, path)
    ir = cache.load(source, path)
    if ir is not None:
        try:
            return Game(ir, path)
        except Exception:             # an unusable entry: compile afresh (and overwrite it)
            pass
    ir = compile_source(source, path)
    cache.store(source, ir)
    return Game(ir, path)
