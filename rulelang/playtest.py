"""Playtesting: seeded random games of a rule file, and what went wrong in them (the deep lint).

`deep_lint(path)` (public as `rulelang.deep_lint`) plays a few hundred seeded random games and
reports what went wrong at run time — a stuck player, a loop limit, a broken invariant, a rule
error, a game that never ends — each once, with the shortest game that shows it: its seed, player
count, options and the actions that reproduce it (`rulelang play ... --seed N`, then those actions).

It is a front end like the command line: it sees a game only through the public API (`rulelang.load`,
`Game.new_match`, `Match.legal_actions`, `apply`, `state`, `shown`, `type_context`, and `rulelang.locations`, the
two functions handed to it by `rulelang.deep_lint`, so that this module need not import the package
for where a step or a line is), never the engine's or the language's internals, so what it finds
is what any player of the game could run into. The static lints (rulelang/language/lints.py) are the other
half of `rulelang lint`: they read the rule file, this plays it.
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass

from .core.errors import Diagnostic, GameRefused, IllegalAction, RuleError, RuleRuntimeError, Span
from .core.types import ValueType
from .core.limits import RUN_CPU_LIMIT

DEEP_GAMES = 200
REPLAY_SHOWN = 12               # actions a finding's replay line names (the first and last half)
DEEP_MAX_ACTIONS = 2_000       # a random game still going after this many actions is reported (W405)
SHOWN_EVERY = 4                 # the `show` values are checked every this many actions (and at each new step)
SEED_STRIDE = 1_000_003         # game i of a deep lint seeded s is seeded s * SEED_STRIDE + i


@dataclass(frozen=True)
class Finding(Diagnostic):
    """A deep-lint diagnostic: what went wrong, and the game that shows it."""
    seed: int | None = None
    players: int | None = None
    options: tuple = ()          # ((name, value), ...) that differ from the defaults
    log: tuple = ()              # the actions, as text, from the start to the problem
    games: int = 1               # how many of the games played ran into it
    rules: str | None = None     # the rule file played (the span may be in a file it includes)

    def replay(self) -> str:
        opts = "".join(f" --option {k}={_option_text(v)}" for k, v in self.options)
        log = self.log
        if not log:
            steps = "(nothing: it happens while the match is set up or its first legal actions are listed)"
        elif len(log) <= REPLAY_SHOWN:
            steps = " · ".join(log)
        else:                                    # (a game that never ends: thousands of actions on one line)
            half = REPLAY_SHOWN // 2
            steps = (" · ".join(log[:half]) + f" · … {len(log) - 2 * half} more … · " + " · ".join(log[-half:])
                     + f" ({len(log)} actions; all of them: `rulelang lint --deep --format json`)")
        # (the rule file played, not the included one the span is in: a designer's replay line named
        # `cards.rules`, a file it includes, which no one can play)
        return f"rulelang play {self.rules or self.file} --players {self.players} --seed {self.seed}{opts}, then play: {steps}"

    def format(self, source: str | None = None) -> str:
        return super().format(source) + "\n    replay: " + self.replay()

    def to_json(self) -> dict:
        out = super().to_json()
        out.update(seed=self.seed, players=self.players, options=dict(self.options), log=list(self.log),
                   games=self.games)
        return out


def _option_text(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


_LINE = re.compile(r":(\d+): ")
_FILE_LINE = re.compile(r"^(\S+?):(\d+): ")
_STEP = re.compile(r"at step `([^`]+)`")
_CALLED = re.compile(r"`(\w+)`")
_LOOP = re.compile(r"`(while|repeat|for)\b")


class _Locator:
    """Spans for runtime problems: a line the engine names, else the step, else the game."""

    def __init__(self, path: str, game, locations):
        self.path = path
        self.game_span = Span(path, 1, 1)
        self.steps: dict[str, Span] = {}
        self.actions: dict[tuple, Span] = {}     # (step, action name as shown) -> span
        self.lines: dict[int, Span] = {}
        self.file_lines: dict[tuple, Span] = {}
        self.calls: dict[tuple, Span] = {}
        found = None if path.endswith(".json") else locations(path)
        if found is not None:
            self.game_span = found["game"]
            self.steps = dict(found["steps"])
            self.actions = {(step, name.replace("_", " ")): span for (step, name), span in found["actions"].items()}
            self.lines = dict(found["lines"])
            self.file_lines = dict(found.get("file_lines") or {})
            self.calls = dict(found["calls"])
        else:                    # compiled IR (or a file that no longer parses): the IR's own lines
            for s in game.ir.get("steps", []):
                if s.get("line"):
                    self.steps.setdefault(s["name"], Span(path, s["line"], 1))
                for a in s.get("actions", []):
                    if a.get("line"):
                        self.actions.setdefault((s["name"], a["name"].replace("_", " ")), Span(path, a["line"], 1))

    def where(self, message: str, step: str | None = None, action: str | None = None) -> Span:
        """The line the message names; else the action being played; else the step; else the game."""
        m = _LINE.search(message)
        if m:
            line = int(m.group(1))
            named = _CALLED.search(message) or _LOOP.search(message)   # "`max` of an empty list": that call,
                                                  # not the line's start; "`repeat 20000` ran out": that loop
            # (the file the message names: an included file's line is its own — a designer's error in the
            # main file's line 124 was put at line 124 of an included card file)
            named_file = _FILE_LINE.match(message)
            if named_file is not None:
                wanted = named_file.group(1).replace("\\", "/")
                in_file = [span for (file, at), span in self.file_lines.items()
                           if at == line and str(file).replace("\\", "/").endswith(wanted.split("/")[-1])
                           and (wanted.endswith(str(file).replace("\\", "/")) or str(file).replace("\\", "/").endswith(wanted))]
                if in_file:
                    call = self.calls.get((line, named.group(1))) if named else None
                    return call if call is not None and call.file == in_file[0].file else in_file[0]
            if named and (line, named.group(1)) in self.calls:
                return self.calls[(line, named.group(1))]
            return self.lines.get(line, Span(self.path, line, 1))
        if action is not None:
            shown = sorted((k for k in self.actions if k[0] == step and (action == k[1] or action.startswith(k[1] + " "))),
                           key=lambda k: -len(k[1]))
            if shown:
                return self.actions[shown[0]]
        m = _STEP.search(message)
        if m and m.group(1) in self.steps:
            return self.steps[m.group(1)]
        if step in self.steps:
            return self.steps[step]
        return self.game_span


def _classify(message: str) -> tuple[str, str]:
    if "no legal action" in message or "`on stuck` must" in message:
        return "E411", "stuck"
    if "loop limit" in message or "too deeply" in message or "never settles" in message:
        return "E412", "loop limit"
    if "capacity" in message or "created nowhere" in message or "in two places" in message:
        return "E413", "broken invariant"
    return "E414", "rule error"


def _view_errors(match, told: set) -> list[str]:
    """The `show` values that failed in the view of the player to act (of every seat once the game is
    over), not yet in `told`: a view does not raise for them (the screen says the error in that
    value's place and the game goes on), so no random game would stop at them."""
    seats = range(match.players) if match.is_over or match.current_player is None else [match.current_player]
    errors = []
    for seat in seats:
        for value in match.shown(seat):
            key = value.get("error") and re.sub(r"step `[^`]*`", "step", value["error"])
            if key and key not in told:
                told.add(key)
                errors.append(value["error"])
    return errors


def _text_errors(match, checked: set) -> list[str]:
    """The components' rules texts that fail (a card missing from the table its kind's `text` reads:
    a designer's new card linted clean, was left out of the rulebook, and `look` gave a false reason),
    each card once a deep lint (`checked`: its kind and label)."""
    errors = []
    for c, (kind, label) in enumerate(zip(match.kinds, match.labels)):
        if (kind, label) in checked:
            continue
        checked.add((kind, label))
        try:
            match.rules_text(c, 0)
        except RuleRuntimeError as err:
            errors.append(str(err))
    return errors


def _plain_message(message: str, path: str, source: str | None) -> str:
    """The engine's message without the file (and line) prefix the diagnostic already shows, nor
    the words `rule error` its `rule error: ` says (`rule error: rule error at step …`, a fuzz trial)."""
    for prefix in (path, source):
        if prefix and message.startswith(prefix + ":"):
            message = message[len(prefix) + 1:]
            message = re.sub(r"^\d+: ", "", message).strip()
    # (a line of an included rule file: its name, which the diagnostic shows too)
    message = re.sub(r"^\S+\.rules:\d+: ", "", message)
    return message.removeprefix("rule error ")


def _invariants(match, ir: dict, data: dict) -> str | None:
    """What is wrong with a match's state, by the rules' own declarations (None: all is well)."""
    count = len(data["components"])
    seen = [0] * count
    for z in ir["zones"]:
        raw = data["zones"].get(z["name"])
        if raw is None:
            return f"zone `{z['name']}` is missing from the state"
        lists = raw if z["per"] else [raw]
        for zl in lists:
            if z.get("capacity") is not None and len(zl) > z["capacity"]:
                return f"zone `{z['name']}` holds {len(zl)} components, over its capacity {z['capacity']}"
            for c in zl:
                if not isinstance(c, int) or not 0 <= c < count:
                    return f"zone `{z['name']}` holds {c!r}, which is not a component"
                seen[c] += 1
    for c, k in enumerate(seen):
        if k != 1:
            label = data["components"][c].get("label", c)
            return f"component {label} is in {k} places (it must be in exactly one zone)"
    context = match.type_context()           # the engine's own check of a value (rulelang.types)
    for v in ir["vars"]:
        value = data["vars"].get(v["name"])
        typ = ValueType.parse(v["type"])
        for x in (value if v["per"] else [value]):
            if not typ.fits(x, context):
                return f"variable `{v['name']}` holds {x!r}, which is not {typ.with_article()}"
    if match.is_over:
        results = (match.outcome or {}).get("results")
        if not (isinstance(results, list) and len(results) == match.players):
            return "the game is over but its outcome does not give a result for every player"
    elif not (isinstance(match.current_player, int) and 0 <= match.current_player < match.players):
        return f"the player to act is {match.current_player!r}, not a seat of this match"
    return None


_NUMBERED = re.compile(r"^(.*) \((\d+)\)$")


def _read_alike(actions) -> tuple[str, str, str] | None:
    """(the action's name, a text, the text the engine numbered after it) where a listing holds two
    different choices of one text (`place Y a1`, `place Y a1 (2)`), else None:
    the engine tells them apart by an ordinal, which says nothing of how they differ (a new author's
    dice of one colour and different faces; W219 sees only an `as` text that reads no parameter)."""
    texts = {str(a) for a in actions}
    for a in actions:
        found = _NUMBERED.match(str(a))
        if found and found.group(1) in texts:
            return getattr(a, "name", None) or found.group(1), found.group(1), str(a)
    return None


def deep_lint(game_path, games: int = DEEP_GAMES, seed: int = 0,
              max_actions: int = DEEP_MAX_ACTIONS, cpu_limit: float | None = RUN_CPU_LIMIT, *, load,
              locations, options: dict | None = None) -> list[Diagnostic]:
    """Play `games` seeded random games of a rule file (or IR) and report what went wrong.

    Each distinct problem is reported once, with the shortest game that shows it: its seed,
    player count, options and action log (a Finding). A file with errors gives its errors.
    The whole run has `cpu_limit` seconds of CPU time (limits.RUN_CPU_LIMIT; None or 0: no
    limit): when they are spent the games stop, with a warning (W406) besides what they found.
    `options`: played in every game (`lint --deep --option K=V`); each true/false option not among
    them is drawn at random per game, the others keep their defaults."""
    path = str(game_path)
    deadline = None if not cpu_limit or cpu_limit <= 0 else time.process_time() + cpu_limit
    spent = None                         # the games played when the budget ran out
    try:
        game = load(path)
    except RuleError as err:
        return list(err.diagnostics)
    where = _Locator(path, game, locations)
    source = game.ir.get("source")
    found: dict = {}
    texts_checked: set = set()           # (each card's rules text is worked out once a run)

    def record(code: str, what: str, message: str, span: Span, seed_i, players, options, log) -> None:
        # one finding per rule and problem, whatever action set it off (`while playing `place c1``)
        said = re.sub(r"`[^`]*`", "``", message) if code == "W408" else message    # (its texts: one game's)
        key = (code, span.line, span.column, re.sub(r"\d+", "#", re.sub(r"playing `[^`]*`", "playing", said)))
        old = found.get(key)
        if old is None or len(log) < len(old["log"]):
            found[key] = {"code": code, "what": what, "message": message, "span": span, "seed": seed_i,
                          "players": players, "options": options, "log": tuple(log),
                          "games": (old["games"] if old else 0) + 1}
        else:
            old["games"] += 1

    low, high = game.min_players, game.max_players
    fixed = dict(options or {})
    bool_options = [o["name"] for o in game.options if o.get("type") == "bool" and o["name"] not in fixed]
    for i in range(max(0, games)):
        if spent is not None:
            break
        if deadline is not None and time.process_time() > deadline:
            spent = i
            break
        seed_i = seed * SEED_STRIDE + i
        players = low + i % (high - low + 1)
        chooser = random.Random(seed_i)
        options = tuple(fixed.items()) + tuple(
            (name, True) for name in bool_options
            if chooser.random() < 0.5 and next(o for o in game.options if o["name"] == name)["default"] is not True)
        log: list[str] = []
        at: list = [None, None]            # the step and the action being played
        offered_none: set = set()          # (W407 once a game per action)
        alike_said: set = set()            # (W408 too)

        def fail(code, what, message, span=None):
            record(code, what, message, span or where.where(message, *at), seed_i, players, options, log)

        try:
            try:
                match = game.new_match(players=players, seed=seed_i, options=dict(options))
            except GameRefused:            # the rules refuse these settings (`refuse`): not a game
                continue
            data = match.state()
            at[0] = data.get("step")
            problem = _invariants(match, game.ir, data)
            if problem:
                fail("E413", "broken invariant", problem, where.game_span)
                continue
            told: set = set()              # (a view's error is counted once a game)
            for message in _view_errors(match, told) + _text_errors(match, texts_checked):
                fail("E414", "rule error", _plain_message(message, path, source), where.where(message, at[0]))
            while not match.is_over:
                if deadline is not None and time.process_time() > deadline:
                    spent = i + 1              # (this game unfinished: what it found so far stands)
                    break
                if len(log) >= max_actions:
                    # (a new author's Rummy, 3,500 actions a random game, read W405 in spite of its turn
                    # limit: the cap is said, and how to raise it)
                    fail("W405", "no end", f"the game did not end within {max_actions} random actions "
                         f"(`lint --deep --max-actions N` plays longer games)", where.game_span)
                    break
                actions = match.legal_actions()
                if not actions:
                    fail("E411", "stuck", "no legal action, and the game is not over", where.where("", at[0]))
                    break
                for a in actions:
                    if _holds_none(getattr(a, "_args", ())) and getattr(a, "name", None) not in offered_none:
                        offered_none.add(a.name)
                        fail("W407", "none offered", f"`{a.name}` was offered with `none` as an argument "
                             f"(`{a.text}`): the list it chooses from may hold `none` (`top` or `first` of an "
                             f"empty zone, say); leave it out with `where`", where.where("", at[0], a.text))
                # (not a question's options: two copies nothing tells apart stay two there, `#2`)
                alike = _read_alike(actions) if match.question is None else None
                if alike is not None and alike[0] not in alike_said:
                    alike_said.add(alike[0])
                    fail("W408", "actions alike", f"`{alike[1]}` and `{alike[2]}` are different choices that "
                         f"read alike: a player cannot tell which is which; let the text say what tells them "
                         f"apart (a value read through a parameter from a list of one, `f in [face[d]]`)",
                         where.where("", at[0], alike[1]))
                action = chooser.choice(actions)
                log.append(str(action))
                at[1] = str(action)
                match.apply(action)
                data = match.state()
                problem = _invariants(match, game.ir, data)
                if problem:
                    fail("E413", "broken invariant", problem)
                    break
                stepped = data.get("step") != at[0]
                at[:] = [data.get("step"), None]
                if not (stepped or match.is_over or len(log) % SHOWN_EVERY == 0):
                    continue               # (the shown values: at each new step, the end, every few actions)
                for message in _view_errors(match, told):
                    fail("E414", "rule error", _plain_message(message, path, source), where.where(message, at[0]))
        except RuleRuntimeError as err:
            message = _plain_message(str(err), path, source)
            code, what = _classify(str(err))
            # a stuck player is about the step where nobody can act, not the action before it
            fail(code, what, message, where.where(str(err), *(at[:1] if code == "E411" else at)))
        except IllegalAction as err:
            fail("E413", "broken invariant", f"a legal action was refused: {err}")
        except RecursionError:
            fail("E412", "loop limit", "the rules recurse too deeply for Python")
        except Exception as err:          # an engine bug: still a report, never a traceback
            fail("E414", "engine error", f"the engine failed: {type(err).__name__}: {err}")
    played = games if spent is None else spent
    out: list[Diagnostic] = []
    for f in sorted(found.values(), key=lambda f: (f["code"], f["span"].line, f["span"].column)):
        opts = ", ".join(f"{k}={_option_text(v)}" for k, v in f["options"])
        detail = (f"{f['what']}: {f['message']} (in {f['games']} of {played} games; shortest: seed {f['seed']}, "
                  f"{f['players']} player{'s' if f['players'] != 1 else ''}{', ' + opts if opts else ''}, "
                  f"{len(f['log'])} action{'s' if len(f['log']) != 1 else ''})")
        # stuck, a loop limit, a broken invariant, a rule error: the rules can break, an error;
        # a game that did not end (W405) may be random play's aimlessness, a warning
        severity = "warning" if f["code"].startswith("W") else "error"
        out.append(Finding(f["code"], detail, f["span"], severity, None, rules=path, seed=f["seed"], players=f["players"],
                           options=f["options"], log=f["log"], games=f["games"]))
    if spent is not None:
        out.append(Diagnostic("W406", f"the deep lint stopped after {spent} of {games} game{'s' if games != 1 else ''}: "
                                      f"its budget of {cpu_limit:g} s of CPU time is spent (run limit: each game is "
                                      f"costly; fewer --games, or --max-cpu SECONDS, 0 for none)",
                              where.game_span, "warning"))
    return out


def _holds_none(args) -> bool:
    """Is `none` among an action's arguments (a subset's elements too)?"""
    return any(x is None or (type(x) is tuple and _holds_none(x)) for x in args)
