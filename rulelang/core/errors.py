"""Diagnostics and the exceptions every front end catches.

A Diagnostic is the one shape every problem takes, from a syntax error to a type
mismatch, so the CLI, the REPL and tests print them the same way.
"""
from __future__ import annotations

import functools
import os
import tempfile
from dataclasses import dataclass


SHOWN_LINE = 120          # characters of a source line shown under a diagnostic (around its span)
SHOWN_DIAGNOSTICS = 100  # diagnostics printed in full; the rest are counted (`--format json`: all of them)


@functools.lru_cache(maxsize=8)
def _lines(source: str) -> list[str]:
    """A source's lines, split once for all its diagnostics (a string's hash is kept by Python)."""
    return source.splitlines()


def shown_diagnostics(diagnostics: list, sources: dict) -> list[str]:
    """The diagnostics as printed: each with its caret line, the first SHOWN_DIAGNOSTICS of them,
    then how many more there are."""
    out = [d.format(sources.get(d.file or "")) for d in diagnostics[:SHOWN_DIAGNOSTICS]]
    more = len(diagnostics) - SHOWN_DIAGNOSTICS
    if more > 0:
        out.append(f"… and {more:,} more (every one: rulelang lint FILE --format json)")
    return out


@dataclass(frozen=True)
class Span:
    """Where a piece of source text lies (1-based line and column, end exclusive)."""
    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span | None = None
    severity: str = "error"          # "error" or "warning"
    suggestion: str | None = None    # e.g. "hand" for "did you mean `hand`?"

    @property
    def file(self) -> str | None:
        return self.span.file if self.span else None

    @property
    def line(self) -> int | None:
        return self.span.line if self.span else None

    @property
    def column(self) -> int | None:
        return self.span.column if self.span else None

    def headline(self) -> str:
        where = f"{self.span}: " if self.span else ""
        hint = f" (did you mean `{self.suggestion}`?)" if self.suggestion else ""
        return f"{where}{self.severity}[{self.code}]: {self.message}{hint}"

    def format(self, source: str | None = None) -> str:
        """The headline plus the offending source line and a caret line under the span (of a
        long line, the part around the span: a 40 KB line with 10,000 errors printed 600 MB)."""
        text = self.headline()
        if source is None or self.span is None:
            return text
        lines = _lines(source)
        if not 1 <= self.span.line <= len(lines):
            return text
        src = lines[self.span.line - 1]
        col = min(max(1, self.span.column), len(src) + 1)
        if self.span.end_line == self.span.line and self.span.end_column > col:
            width = self.span.end_column - col
        else:
            width = 1
        start = 0
        if len(src) > SHOWN_LINE:                 # a window of the line around the span
            start = max(0, col - 1 - SHOWN_LINE // 3)
            end = start + SHOWN_LINE
            src = ("…" if start else "") + src[start:end] + ("…" if end < len(lines[self.span.line - 1]) else "")
            start -= 1 if start else 0           # (the "…" takes the place of one character)
            width = min(width, SHOWN_LINE)
        prefix = "".join(ch if ch == "\t" else " " for ch in src[: col - 1 - start])
        return f"{text}\n    {src}\n    {prefix}{'^' * width}"

    def to_json(self) -> dict:
        s = self.span
        return {
            "file": s.file if s else None,
            "line": s.line if s else None,
            "column": s.column if s else None,
            "end": [s.end_line, s.end_column] if s else None,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "suggestion": self.suggestion,
        }


class RulelangError(Exception):
    """Base class: every error rulelang raises on purpose."""


class RuleError(RulelangError):
    """A rule file (or IR document) that cannot be loaded; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = list(diagnostics)
        self.sources = sources or {}
        first = self.diagnostics[0].headline() if self.diagnostics else "invalid rules"
        more = len(self.diagnostics) - 1
        super().__init__(first + (f" (and {more} more)" if more > 0 else ""))

    def report(self) -> str:
        """Every diagnostic with its caret line, as the CLI prints them."""
        return "\n".join(shown_diagnostics(self.diagnostics, self.sources))


class IllegalAction(RulelangError):
    """The action is not legal now; the match state is unchanged."""


class RuleRuntimeError(RulelangError):
    """A rule misbehaved while running (loop limit, stuck state with no handler, bad value)."""


class RuleFault(RuleRuntimeError):
    """A rule error raised by a runtime helper (codegen.runtime, boards); the engine adds the rule's
    file and line before anyone sees it."""


class WorkFault(RuleFault):
    """An effect, or a listing of the legal actions, used up the work limit (limits.WORK_LIMIT)."""


class OptionsRefused(RuleRuntimeError):
    """The rules' set-up refused the options (and player count) it was given: `refuse(REASON)`.
    `Game.new_match` says it as a ValueError, as it says an option of the wrong type."""


class GameRefused(ValueError):
    """`Game.new_match`: the rules refuse to set up a game with these options and players
    (`refuse(REASON)`); said like an option of the wrong type."""


class StateError(RulelangError):
    """A saved state or save file that cannot be restored."""


class EngineFault(RulelangError):
    """A fault of rulelang itself, not of the rules (a Python error inside the engine, or a broken
    promise such as a replay that does not reproduce a position). The match is left as it was
    before the action; `traceback` holds the Python traceback to report."""

    def __init__(self, message: str, traceback: str | None = None):
        super().__init__(message)
        self.traceback = traceback


def fault_report(error: BaseException) -> str:
    """Write the traceback of a fault of ours to a file and say where, for a one-line message
    (`RULELANG_DEBUG=1` prints it instead)."""
    import traceback
    text = getattr(error, "traceback", None) or "".join(traceback.format_exception(error))
    if os.environ.get("RULELANG_DEBUG", "") not in ("", "0"):
        return "traceback:\n" + text
    try:
        fd, path = tempfile.mkstemp(prefix="rulelang-fault-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError:
        return "set RULELANG_DEBUG=1 to see the traceback"
    return f"the traceback is in {path}"
