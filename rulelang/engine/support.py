"""What the parts of a match share: the engine's limits and formats, the replay check, and the small
functions that turn values into words or compare positions."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import json
import os
import pickle
import reprlib

from .codegen import plain_text
from ..core.errors import EngineFault, StateError
from ..core.limits import INT_LIMIT, WORK_LIMIT
from ..core.textsafe import printable
from .records import Cut

if TYPE_CHECKING:
    from .game import Game
    from .match import Match
    from .parts import MatchParts


# Python errors a rule can provoke (a none where a number was due, say): reported as rule errors
# when the rules' own code raised them (see Match._rule_error); raised inside the engine, they are
# the engine's faults.
RULE_FAULTS = (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError, RecursionError,
               NameError)


SECRET_CHOICE = "(a secret choice)"    # how log_for shows an answer to who may not read it


CHECKPOINT_EVERY = 32        # actions between two checkpoints a failed action is rebuilt from
# in a game that may pause, inputs (actions and answers) between two checkpoints: fewer, as a paused
# chain's base is rebuilt from one whenever a copy of the paused match is played on (a search's)
PAUSING_CHECKPOINT_EVERY = 8


SETUP = "setup"              # a checkpoint that is the match as new_match made it


# The replay check (docs/engine.md, "The replay contract"): every paused chain, and every position
# rebuilt from a checkpoint, is replayed once more and must give exactly the same position.
CHECK_REPLAY = os.environ.get("RULELANG_CHECK_REPLAY", "") not in ("", "0")


_checking = [False]          # a replay made by the check is not checked itself


FLOW_LIMIT = 1_000           # step changes in one apply before the flow is declared broken


REASON_LIMIT = 500           # characters of an outcome's reason (`finish lose "…"`)


STATE_FORMAT = "rulelang-state"
STATE_VERSION = 1                      # the state's layout: from_state refuses another


# what a position holds (STATE_LIMIT) is measured after an action whose effects did this much work
# (listing the next legal actions changes nothing held, so its work is not counted), and after
# every 64th action: between two measures it grows by less than WORK_LIMIT units (the setup,
# one effect, grows it by less than that too)
HELD_CHECK_WORK = WORK_LIMIT // 64


# Match.shared: what a match shares with its clones, to be copied before it changes
SHARED_COMPONENTS = "components"    # the component lists (kinds, labels, fields): see Match.unshare


SHARED_ALL = "all"                  # those and the zones, variables and logs: see Match.own


# ---- checking a restored state ----
PLAIN_DEPTH = 32             # nesting of a component field's value in a restored state


def _check_chain(m: MatchParts, base: Any, root: list, answers: list) -> None:
    """(CHECK_REPLAY) Replaying the chain from its base once more gives exactly the position `m`
    it gave: nothing the chain depends on lives outside the base, the tape and the answers."""
    def replay() -> Match:
        again = base.clone()
        again._chain(base, root, answers, "replaying")
        return again
    _replay_check(m, replay, f"replaying `{' '.join(map(str, root))}` with {len(answers)} answer(s)")


def _replay_check(m: MatchParts, replay, what: str) -> None:
    """(CHECK_REPLAY) `replay()` gives exactly the position `m` is in, or an EngineFault says
    where they part. A replay made by the check is not checked itself."""
    if _checking[0]:
        return
    _checking[0] = True
    try:
        expected = pickle.loads(pickle.dumps(_snapshot(m)))      # (a copy: the replay must not touch it)
        try:
            again = replay()
        except Exception as err:
            raise EngineFault(f"replay check: {what} fails: {type(err).__name__}: {err}") from None
        _same_position(_snapshot(again), expected, what)
    finally:
        _checking[0] = False


_REPR = reprlib.Repr()


def _short(value, limit: int = 40) -> str:
    """A value from the data for a one-line message: quoted if text, never deep, printable, short."""
    if type(value) is int and not -10 ** 30 < value < 10 ** 30:     # (no 5,000-digit int is written out:
        return f"a number of {value.bit_length() * 30103 // 100000 + 1} digits"   # Python refuses past 4,300)
    return _text(_REPR.repr(value), limit)


def _text(text: str, limit: int = 40) -> str:
    """A name or label from the data for a one-line message: printable, and cut short."""
    text = printable(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _plain_value(value, depth: int = 0) -> bool:
    """Plain rule data (none, numbers, texts, lists of them), not nested without end."""
    if value is None or type(value) in (bool, str):
        return True
    if type(value) is int:
        return -INT_LIMIT <= value <= INT_LIMIT
    if type(value) is float:
        return value == value and abs(value) != float("inf")
    if type(value) is list and depth < PLAIN_DEPTH:
        return all(_plain_value(v, depth + 1) for v in value)
    return False


def _message(x, players: int) -> bool:
    """A message: a text for everyone, or {"to": [players], "text": TEXT}."""
    if isinstance(x, str):
        return True
    return (isinstance(x, dict) and set(x) == {"to", "text"} and isinstance(x["text"], str)
            and isinstance(x["to"], list) and all(type(p) is int and 0 <= p < players for p in x["to"]))


def _rng_state(raw) -> tuple:
    """The generator state `[3, [625 ints], gauss]` as `random.Random.setstate` takes it, checked
    word by word: setstate cuts a word to 32 bits and takes `true` for 1, so a save edited there
    was restored as another generator, drawing other chance (a fuzz trial)."""
    if not (isinstance(raw, (list, tuple)) and len(raw) == 3):
        raise StateError("the random generator state is not valid")
    version, internal, gauss = raw
    if not (type(version) is int and version == 3 and isinstance(internal, (list, tuple)) and len(internal) == 625
            and (gauss is None or (type(gauss) is float and _plain_value(gauss)))
            and all(type(w) is int and 0 <= w < 2 ** 32 for w in internal[:624])
            and type(internal[624]) is int and 0 <= internal[624] <= 624):
        raise StateError("the random generator state is not valid")
    return version, tuple(internal), gauss


def _components(game: Game, comps: list) -> list:
    """Restored component rows, checked to be `{kind, fields, label}` of a known kind and its fields."""
    for i, c in enumerate(comps):
        if not (isinstance(c, dict) and isinstance(c.get("kind"), str) and isinstance(c.get("fields"), dict)
                and isinstance(c.get("label"), str)):
            raise StateError(f"component {i} must be an object with a kind, fields and a label")
        types = game.field_types.get(c["kind"])
        if types is None:
            raise StateError(f"unknown component kind {_short(c['kind'])}")
        unknown = [name for name in c["fields"] if name not in types]
        if unknown:
            raise StateError(f"component {i}: a {_text(c['kind'])} has no field {_short(unknown[0])}")
        for name, value in c["fields"].items():
            if not _plain_value(value):
                raise StateError(f"component {i}: field `{name}` holds {_short(value)}, which is not plain data")
    return comps


def _component_key(c: dict) -> tuple:
    """What makes two components the same card (types included: 1 is not true)."""
    return c["kind"], json.dumps(c["fields"], sort_keys=True), c["label"]


def _named(given, names: list[str], what: str) -> dict:
    """An object with exactly the declared names as keys."""
    if not isinstance(given, dict):
        raise StateError(f"the {what}s must be an object")
    missing = [n for n in names if n not in given]
    unknown = [n for n in given if n not in names]
    if missing:
        raise StateError(f"no {what} `{missing[0]}` in the state")
    if unknown:
        raise StateError(f"unknown {what} {_short(unknown[0])}")
    return given


def _outcome(game: Game, players: int, outcome) -> dict | None:
    """A restored outcome: a result per player, and a score per player exactly when the game keeps one."""
    if outcome is None:
        return None
    if not (isinstance(outcome, dict) and set(outcome) <= {"results", "scores", "reason"}):
        raise StateError("the outcome must be an object with results and scores")
    reason = outcome.get("reason")
    if "reason" in outcome and not (isinstance(reason, str) and len(reason) <= REASON_LIMIT):
        raise StateError(f"the outcome's reason must be a text of at most {REASON_LIMIT} characters")
    results, scores = outcome.get("results"), outcome.get("scores")
    if not (isinstance(results, list) and len(results) == players
            and all(isinstance(r, str) and r in ("win", "lose", "draw") for r in results)):
        raise StateError("the outcome must give win, lose or draw for every player")
    if game.scores:
        if not (isinstance(scores, list) and len(scores) == players
                and all(s is None or (type(s) is int and -INT_LIMIT <= s <= INT_LIMIT) for s in scores)):
            raise StateError("the outcome must give a whole-number score for every player")
    elif scores is not None:
        raise StateError("the outcome has scores, but the game keeps none")
    out = {"results": list(results), "scores": list(scores) if scores is not None else None}
    if "reason" in outcome:
        out["reason"] = reason
    return out


def _reason(why) -> str:
    """A rule's reason for the outcome as the outcome keeps it: a text, cut to REASON_LIMIT."""
    text = why if isinstance(why, str) else plain_text(why)
    return text if len(text) <= REASON_LIMIT else text[:REASON_LIMIT - 1] + "…"


def _cuts(raw, components: int) -> tuple[Cut, ...]:
    """The cuts of a determinized copy's base (see Match.sampler), checked: each a question index,
    a one-to-one mapping between components, the components its player saw, a generator seed."""
    if not (isinstance(raw, list) and len(raw) <= 64):
        raise StateError("`cuts` must be a list")
    out = []
    for cut in raw:
        if not (isinstance(cut, list) and len(cut) == 4 and type(cut[0]) is int and 0 <= cut[0] <= INT_LIMIT
                and isinstance(cut[1], list) and isinstance(cut[2], list) and type(cut[3]) is int):
            raise StateError("a cut must be [question index, [[component, component]…], [component…], seed]")
        pairs, seen = cut[1], cut[2]
        if not (all(isinstance(p, list) and len(p) == 2 and all(type(c) is int and 0 <= c < components for c in p)
                    for p in pairs) and all(type(c) is int and 0 <= c < components for c in seen)):
            raise StateError("a cut names something that is not a component")
        mapping = {a: b for a, b in pairs}
        if len(mapping) != len(pairs) or sorted(mapping) != sorted(mapping.values()):
            raise StateError("a cut must deal the same components anew, each once")
        out.append(Cut(cut[0], mapping, set(seen), cut[3]))
    return tuple(out)


def _rounds(raw, players: int) -> list:
    """The round, turn order and eliminated players of a saved position, checked."""
    if not isinstance(raw, dict):
        raise StateError("the position must say its round, turn order and eliminated players (`rounds`)")
    number, order, out = raw.get("round"), raw.get("order"), raw.get("eliminated")
    if not (type(number) is int and 0 <= number <= INT_LIMIT):
        raise StateError(f"the round must be a whole number, not {_short(number)}")
    if not (isinstance(order, list) and all(type(p) is int for p in order) and sorted(order) == list(range(players))):
        raise StateError(f"the turn order must name every seat once, not {_short(order)}")
    if not (isinstance(out, list) and all(type(p) is int and 0 <= p < players for p in out)):
        raise StateError(f"the eliminated players must be seats, not {_short(out)}")
    brief = raw.get("this_round", [])              # (out for this round only: `eliminate … until round_end`)
    if not (isinstance(brief, list) and all(type(p) is int and p in out for p in brief)):
        raise StateError(f"the players out for this round must be eliminated seats, not {_short(brief)}")
    return [number, list(order), ["round" if p in brief else p in out for p in range(players)]]


RULE_RECURSION_FRAMES = 100      # frames run since the rules began that make a too deep recursion theirs


def _engine_fault(err: BaseException, generated: str) -> bool:
    """Whether a Python error is the engine's fault rather than the rules'. The rules' code is
    the generated module: an error raised there, or in a runtime helper handed a rule's `none`,
    is the rules' doing (a field of `top` of an empty zone, an index past the end, a division by
    zero, recursion too deep). Anything else raised inside rulelang's own code is a bug of ours."""
    if isinstance(err, RecursionError):
        # (the rules' own only where the stack filled up while they ran: a def or a trigger without
        # an end leaves hundreds of frames between where the error is caught and where it was
        # raised; a stack already deep when the rules began — a restore's replay did that, and
        # blamed a `shuffle deck` — leaves a few)
        tb, frames = err.__traceback__, 0
        while tb is not None:
            frames += 1
            tb = tb.tb_next
        return frames < RULE_RECURSION_FRAMES
    if isinstance(err, (ZeroDivisionError, MemoryError)):
        return False
    if not isinstance(err, RULE_FAULTS):
        return True
    tb = err.__traceback__
    innermost = None
    while tb is not None:
        innermost = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    if innermost is None or innermost == generated:
        return False
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return False
    return True


def _snapshot(m: MatchParts) -> dict:
    """(CHECK_REPLAY) Everything `state()` holds, as the engine holds it (cheaper than `state()`):
    two matches with equal snapshots are in the same position."""
    return {"zones": m.Z, "vars": m.V, "components": (m.kinds, m.labels, m.F),
            "flow": (m.step, m.current, m.actor, m.turn_count, m.result, getattr(m, "seq", None)),
            "log": m.log, "messages": m.messages, "rng": m._gen().getstate(), "tape": m.tape,
            "known": m.known, "grants": m.grants, "private": m.private,
            "pending": None if m.pending is None else (m.pending["root"], m.pending["answers"], m.pending["question"])}


def _same_position(mine: dict, other: dict, what: str) -> None:
    """(CHECK_REPLAY) Two states of one match are equal, or an EngineFault names where they part."""
    if mine == other:
        return
    for key in sorted(set(mine) | set(other)):
        if mine.get(key) != other.get(key):
            raise EngineFault(f"replay check: {what} gives another position (they differ in `{key}`: "
                              f"{_short(other.get(key), 120)} before, {_short(mine.get(key), 120)} replayed)")


def _in_words(err: BaseException) -> str:
    """A Python error inside generated code, said as the rule's mistake where it is a known one."""
    text = str(err)
    if isinstance(err, TypeError) and "NoneType" in text:
        if "indices" in text or "subscriptable" in text:
            return ("`none` where a component, a player or a cell was due (a field of `top`, `first` or "
                    "`bottom` of an empty list or zone, or a `step` off the board, say): test the size "
                    "(or for `none`) first")
        return "`none` where a value was due: test for `none` (or the size of the list) first"
    if isinstance(err, RecursionError):          # (Python's words vary with where the limit is met)
        return ("calls or triggers nested too deeply (a def that calls itself, or a trigger that sets "
                "itself off, without an end)")
    if isinstance(err, IndexError):
        # (a new author's `passing[p + 1]` for the last player read as a list's mistake alone)
        return ("a list or text read past its end (`xs[i]` with i at least its size, or below 0), or a zone or "
                "variable of each player given a player the game does not have (`hand[p + 1]` for the last "
                "one: `next(p)` goes round): test the index first")
    if isinstance(err, ZeroDivisionError):
        return "division by zero (`/` or `%` by 0): test the divisor first"
    return f"{type(err).__name__}: {text}"


def interrupt_seat(text: str) -> int | None:
    """The seat (0-based) an interrupt's text names (`P3: reveal` -> 2), or None."""
    seat, sep, _ = text.partition(": ")
    digits = seat[1:]
    if not sep or seat[:1] != "P" or not (digits.isascii() and digits.isdigit()) or len(digits) > 3:
        return None
    return int(digits) - 1
