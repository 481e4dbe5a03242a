"""`rulelang bench`: random playouts per second, measured the way the speed references are.

A playout is one match played to its end by a uniform random bot: `game.new_match(...)`
(set-up and shuffles included), then `legal_actions()` + a uniform choice + `apply()` until
the match is over. Match i of a run is seeded `seed + i` and its bot `10**6 + seed + i`, so
`--seed 0` plays the very seeds of the hand-written references' own benchmark.

Timing is made to be trusted on a shared, busy machine: it counts the CPU time of this thread
(`time.thread_time`), not the wall clock, so other programs' load does not count, and it runs
`repeats` rounds over the same games, each reporting best and median. A `--reference` module
with the references' interface (`Match(players, seed, **options)`, `legal_actions()`, `apply()`,
`is_over`) is timed in the same rounds, *interleaved*: each round plays the games in chunks of
`chunk`, engine then reference on one chunk, reference then engine on the next, so whatever slows
the machine (frequency scaling, cache pressure from neighbours) falls on both alike. The ratio of a
round is reference time / engine time (>= 1: the engine is faster); the report gives the min and
the median over the rounds.

Besides speed: the mean number of legal actions per decision, and the size of one match
state — the bytes of an independent copy (`clone()` then `own()`, as a clone is once played
on), the bytes of a bare `clone()` (shared until played on), measured with tracemalloc, and the
length of its `state()` JSON — with the cost of `clone()`, the copy, `state()` and
`Match.from_state()`.
"""
from __future__ import annotations

import importlib.util
import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import rulelang
from ..core.textsafe import printable
from .report import option_text
from .simulate import MAX_ACTIONS

POLICY_SEED = 10 ** 6        # the bot of match `seed` is seeded POLICY_SEED + seed
COUNT_GAMES = 200            # games of the (untimed) pass that counts legal actions
STATE_SAMPLES = 8            # match states sampled for the size figures
TIMING_CALLS = 200           # calls timed per state()/from_state()/clone() figure
DEFAULT_CHUNK = 20           # games per chunk when an engine and a reference are interleaved
CPU_LIMIT = 600.0            # CPU seconds a whole `bench` may take by default (`--max-cpu`; 0: none)

# (a fuzzer's lint-clean files ran `bench` for about 5 minutes, 4 hours and 10 hours: a run has a
# budget, as `simulate` has; set by `run`, read every 16 actions of a playout)
_deadline = float("inf")
_budget = 0.0


class BudgetSpent(ValueError):
    """The run's CPU budget is spent: what was measured before stands."""


def _spent() -> None:
    raise BudgetSpent(f"bench stopped: its budget of {_budget:g} s of CPU time is spent (fewer --games or "
                      f"--repeats, or --max-cpu SECONDS, 0 for none)")


def playout(game, players: int, seed: int, options: dict | None, count: bool = False):
    """One match to its end by a uniform random bot: (match, actions applied, legal actions seen)."""
    m = game.new_match(players, seed, options)
    choice = random.Random(POLICY_SEED + seed).choice
    legal_actions, apply = m.legal_actions, m.apply
    n = seen = 0
    clock, deadline = time.process_time, _deadline
    if count:
        while not m.is_over:
            legal = legal_actions()
            seen += len(legal)
            apply(choice(legal))
            n += 1
            if n >= MAX_ACTIONS:
                _endless(seed)
            if not n & 15 and clock() > deadline:
                _spent()
    else:
        while not m.is_over:
            apply(choice(legal_actions()))
            n += 1
            if n >= MAX_ACTIONS:
                _endless(seed)
            if not n & 15 and clock() > deadline:
                _spent()
    if clock() > deadline:
        _spent()
    return m, n, seen


def _endless(seed: int):
    """A game random play does not end is no benchmark (an exhaustion trial: `bench` of a lint-clean
    file whose `finish` could never be reached ran until killed); `simulate` counts it an error."""
    raise ValueError(f"the game of seed {seed} has not ended after {MAX_ACTIONS:,} random actions: bench "
                     f"times games that end (`rulelang lint --deep` looks for why one may not)")


class _ReferenceFailed(Exception):
    """The reference module (the user's code, not ours) failed: its failure in one line."""


def _reference_play(module, players: int, options: dict):
    """One playout of a reference module, by the same protocol: its actions applied."""
    def play(s: int) -> int:
        try:
            m = module.Match(players, s, **options)
            choice = random.Random(POLICY_SEED + s).choice
            legal_actions, apply = m.legal_actions, m.apply
            n = 0
            clock, deadline = time.process_time, _deadline
            while not m.is_over:
                apply(choice(legal_actions()))
                n += 1
                if not n & 15 and clock() > deadline:    # (a reference that never ends: the budget too)
                    _spent()
            return n
        except BudgetSpent:
            raise
        except (Exception, SystemExit) as error:
            raise _ReferenceFailed(_failure(error)) from None
    return play


def timed_rounds(plays: list, games: int, seed: int, rounds: int, chunk: int) -> dict:
    """Play games seed..seed+games-1 with every `plays[j]` (seed -> actions applied), `rounds`
    times. Within a round the games go in chunks of `chunk`, every side playing each chunk in
    turn, the order of the sides reversed from one chunk to the next (and from one round to the
    next): a burst of load falls on every side alike. Each side is timed in CPU seconds of this
    thread (and wall seconds, for information). A warm-up chunk is played first, untimed."""
    k = len(plays)
    chunk = max(1, min(chunk, games))
    for i in range(chunk):                        # warm-up: caches, interning, the first failure
        for play in plays:
            play(seed + i)
    cpu = [[0.0] * rounds for _ in plays]
    wall = [[0.0] * rounds for _ in plays]
    actions = [0] * k
    thread_time, perf_counter = time.thread_time, time.perf_counter
    for r in range(rounds):
        counted = [0] * k
        flip = r % 2
        for start in range(0, games, chunk):
            order = range(k) if not flip else range(k - 1, -1, -1)
            flip ^= 1
            stop = min(games, start + chunk)
            for j in order:
                play = plays[j]
                n = 0
                c0, w0 = thread_time(), perf_counter()
                for i in range(start, stop):
                    n += play(seed + i)
                cpu[j][r] += thread_time() - c0
                wall[j][r] += perf_counter() - w0
                counted[j] += n
        actions = counted
    return {"cpu": cpu, "wall": wall, "actions": actions}


def bench(game, players: int, games: int, seed: int = 0, options: dict | None = None, repeats: int = 3,
          path: str | None = None, reference=None, chunk: int = DEFAULT_CHUNK) -> dict:
    """The benchmark figures of one game at one player count (see the module docstring); with a
    `reference` module, timed interleaved with it, and the ratios."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    options = dict(options or {})
    game.new_match(players, seed, options)             # a bad player count or option fails here, once
    plays = [lambda s: playout(game, players, s, options)[1]]
    if reference is not None:
        plays.append(_reference_play(reference, players, options))
    rounds = max(1, repeats)
    timed = timed_rounds(plays, games, seed, rounds, chunk)
    cpu, actions = timed["cpu"][0], timed["actions"][0]
    counted = decisions = 0
    for i in range(min(games, COUNT_GAMES)):
        _, n, seen = playout(game, players, seed + i, options, count=True)
        decisions += n
        counted += seen
    best, median = min(cpu), statistics.median(cpu)
    result = {
        "game": game.name, "file": path, "players": players, "games": games, "seed": seed,
        "options": options, "repeats": rounds, "python": sys.version.split()[0],
        "clock": "cpu", "chunk": max(1, min(chunk, games)),
        "seconds": best, "seconds_wall": min(timed["wall"][0]),
        "playouts_per_s": games / best, "playouts_per_s_median": games / median,
        "actions": actions, "actions_per_s": actions / best, "actions_per_s_median": actions / median,
        "mean_length": actions / games,
        "mean_legal_actions": counted / decisions if decisions else 0.0,
    }
    if reference is not None:
        rcpu, ractions = timed["cpu"][1], timed["actions"][1]
        ratios = [r / e for e, r in zip(cpu, rcpu)]        # per round: reference time / engine time
        rbest, rmedian = min(rcpu), statistics.median(rcpu)
        result["reference"] = {"playouts_per_s": games / rbest, "playouts_per_s_median": games / rmedian,
                               "actions_per_s": ractions / rbest, "mean_length": ractions / games}
        result.update({"ratio": statistics.median(ratios), "ratio_min": min(ratios),
                       "ratio_median": statistics.median(ratios), "ratio_max": max(ratios),
                       "ratios": ratios})
    result.update(state_figures(game, players, seed, options))
    return result


def state_figures(game, players: int, seed: int, options: dict) -> dict:
    """Size and copy cost of a match state, over states sampled along one random game."""
    m, n, _ = playout(game, players, seed, options)
    samples = sorted({round(k * n / (STATE_SAMPLES - 1)) for k in range(STATE_SAMPLES)}) if n else [0]
    m = game.new_match(players, seed, options)
    choice = random.Random(POLICY_SEED + seed).choice
    peak_bytes = clone_bytes = json_bytes = 0
    middle = None
    for step in range(n + 1):
        if step in samples:
            peak_bytes = max(peak_bytes, _allocated(lambda: _copy(m)))
            clone_bytes = max(clone_bytes, _allocated(m.clone))
            json_bytes = max(json_bytes, len(json.dumps(m.state(), ensure_ascii=False).encode("utf-8")))
            if middle is None and step >= n // 2:
                middle = m.clone()
        if m.is_over:
            break
        m.apply(choice(m.legal_actions()))
    middle = middle or m
    data = middle.state()
    return {
        "state_bytes": peak_bytes,
        "clone_bytes": clone_bytes,
        "state_json_bytes": json_bytes,
        "clone_us": _per_call(middle.clone),
        "copy_us": _per_call(lambda: _copy(middle)),
        "state_us": _per_call(middle.state),
        "from_state_us": _per_call(lambda: rulelang.Match.from_state(game, data)),
    }


def _copy(m):
    """An independent copy of a match, as a clone becomes once it is played on."""
    c = m.clone()
    c.own()
    return c


def _allocated(make, tries: int = 3) -> int:
    """Bytes still allocated by what `make()` returns (tracemalloc; the least of a few tries, so
    that a one-off allocation elsewhere is not counted)."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    sizes = []
    for _ in range(tries):
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        sizes.append(tracemalloc.get_traced_memory()[0] - before)
        del kept
    if not was_tracing:
        tracemalloc.stop()
    return max(0, min(sizes))


def _per_call(fn, calls: int = TIMING_CALLS) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def load_reference(path: str):
    """A hand-written reference module (not part of rulelang) imported from its file."""
    file = Path(path)
    shown = printable(path)
    if not file.is_file():
        raise ValueError(f"no reference module {shown}")
    if file.suffix != ".py":
        raise ValueError(f"the reference {shown} is not a Python module (a .py file)")
    try:
        spec = importlib.util.spec_from_file_location(f"_rulelang_reference_{file.stem}", file)
    except (OSError, ValueError):
        spec = None
    if spec is None or spec.loader is None:
        raise ValueError(f"the reference {shown} is not a Python module (a .py file)")
    sys.path.insert(0, str(file.parent))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:      # the user's module, not ours: its failure in one line
        raise ValueError(f"cannot import the reference module {shown}: {_failure(error)}") from None
    finally:
        sys.path.remove(str(file.parent))
    if not isinstance(getattr(module, "Match", None), type):
        raise ValueError(f"the reference module {shown} has no Match class")
    return module


def _failure(error: BaseException) -> str:
    """What went wrong in a reference module, in one line: `SyntaxError at line 3: invalid syntax`."""
    if isinstance(error, SyntaxError):
        where = f" at line {error.lineno}" if error.lineno else ""
        return printable(f"SyntaxError{where}: {error.msg}")
    return printable(f"{type(error).__name__}: {error}")


def run(paths: list[str], players: list[int], games: int, seed: int, options: dict, repeats: int,
        references: list[str] | None = None, load=None, chunk: int = DEFAULT_CHUNK,
        cpu_limit: float | None = CPU_LIMIT, said_limit: float | None = None) -> list[dict]:
    """Benchmark every file (at each player count it supports; its minimum if none given); with
    references (one module per file, in order), time them too, interleaved, and add the ratios.
    The whole run may take `cpu_limit` seconds of CPU time (None or 0: no limit), then stops with
    a BudgetSpent (a ValueError) that says so — the whole budget, `said_limit` where a caller spreads
    one over several runs."""
    global _deadline, _budget
    if cpu_limit and cpu_limit > 0 and _deadline == float("inf"):
        _budget, _deadline = said_limit or cpu_limit, time.process_time() + cpu_limit
        try:
            return run(paths, players, games, seed, options, repeats, references, load, chunk, None)
        finally:
            _deadline = float("inf")
    load = load or rulelang.load
    references = references or []
    if references and len(references) != len(paths):
        raise ValueError(f"give one --reference per file ({len(paths)} files, {len(references)} references)")
    results = []
    for k, path in enumerate(paths):
        game = load(path)
        counts = [p for p in players if game.min_players <= p <= game.max_players] if players \
            else [game.min_players]
        if not counts:
            raise ValueError(f"{game.name} is for {game.players_text} players, "
                             f"not {', '.join(map(str, players))}")
        module = load_reference(references[k]) if references else None
        for p in counts:
            try:
                result = bench(game, p, games, seed, options, repeats, str(path), module, chunk)
            except _ReferenceFailed as error:                 # the user's module, not ours
                raise ValueError(f"the reference module {printable(str(references[k]))} failed: "
                                 f"{error}") from None
            if module is not None:
                result["reference"] = {"module": str(references[k]), **result["reference"]}
            results.append(result)
    return results


def _titles(results: list[dict]) -> list[str]:
    """Each row's game: its name, or its file's name where two files measured share a game name
    (a variant and its original)."""
    files: dict = {}
    for r in results:
        files.setdefault(r["game"], set()).add(r.get("file"))
    return [os.path.basename(str(r["file"])) if len(files[r["game"]]) > 1 and r.get("file") else r["game"]
            for r in results]


def format_report(results: list[dict]) -> str:
    """The figures as a table, then the state figures, one line per row."""
    if not results:
        return "nothing to measure"
    r0 = results[0]
    has_ref = any("reference" in r for r in results)
    lines = [f"Python {r0['python']}, uniform random bot, {r0['games']} games from seed {r0['seed']}, "
             f"CPU time, best (median) of {r0['repeats']} rounds"
             + (f", engine and reference interleaved in chunks of {r0['chunk']} games" if has_ref else "")]
    titles = _titles(results)
    names = [f"{title} {r['players']}p" + "".join(f" {option_text(k, v)}" for k, v in r["options"].items())
             for r, title in zip(results, titles)]
    w = max([24] + [len(x) + 2 for x in names])        # (a long name kept its column: a new author's bench)
    head = f"{'game':<{w}}{'playouts/s':>22}{'actions/s':>24}{'length':>8}{'legal':>7}"
    if has_ref:
        head += f"{'reference/s':>20}{'ratio min / median':>20}"
    lines.append(head)
    for r, name in zip(results, names):
        line = (f"{name:<{w}}{r['playouts_per_s']:>12,.0f} ({r['playouts_per_s_median']:>7,.0f})"
                f"{r['actions_per_s']:>14,.0f} ({r['actions_per_s_median']:>7,.0f})"
                f"{r['mean_length']:>8.1f}{r['mean_legal_actions']:>7.1f}")
        if "reference" in r:
            ref = r["reference"]
            line += (f"{ref['playouts_per_s']:>11,.0f} ({ref['playouts_per_s_median']:>6,.0f})"
                     f"{r['ratio_min']:>13.2f} / {r['ratio_median']:.2f}")
        lines.append(line)
    if has_ref:
        lines.append("ratio: reference CPU time / engine CPU time per round (>= 1.00: the engine is faster)")
    lines.append("")
    lines.append(f"{'state':<{w}}{'bytes (copy)':>14}{'bytes (clone)':>14}{'bytes (JSON)':>14}{'clone':>10}"
                 f"{'copy':>10}{'state()':>10}{'from_state':>12}")
    for r, title in zip(results, titles):
        name = f"{title} {r['players']}p"
        lines.append(f"{name:<{w}}{r['state_bytes']:>14,}{r['clone_bytes']:>14,}{r['state_json_bytes']:>14,}"
                     f"{r['clone_us']:>8.1f}us{r['copy_us']:>8.1f}us{r['state_us']:>8.1f}us"
                     f"{r['from_state_us']:>10.1f}us")
    return "\n".join(lines)
