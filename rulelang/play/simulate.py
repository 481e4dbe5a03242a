"""Self-play statistics: many bot-played matches of one game, summarised.

Every figure except the timings depends only on the arguments: match i is seeded
`match_seed(seed, i)` and its bots `bot_seed(match seed, seat)`, so a surprising
game can be replayed alone with `rulelang play --seed`.
"""
from __future__ import annotations

import json
import os
import re
import stat
import sys
import time
from collections.abc import Iterable

from .bots import bot_seed, make_bot
from ..core.errors import RulelangError
from ..core.files import open_for_writing
from .report import kept_numbers, mean_interval, option_text, pct, side_outcomes, wilson
from ..core.textsafe import printable
from ..core.limits import INT_LIMIT, RUN_CPU_LIMIT

MAX_ACTIONS = 100_000        # a game still going after this many actions counts as an error
REPORTED_FAILURES = 10       # failures listed in the result; all are counted
RESULTS = ("win", "lose", "draw")


class BudgetSpent(RulelangError):
    """A run of many games used up its CPU budget (limits.RUN_CPU_LIMIT) before its last game."""


def budget_message(done: int, games: int, cpu_limit: float, shares: int = 1) -> str:
    """The one line saying a run stopped on its budget (`shares`: the variants it was split among)."""
    share = f"its share (1/{shares}) of " if shares > 1 else ""
    return (f"stopped after {done} of {games} game{'s' if games != 1 else ''}: {share}the run's budget of "
            f"{cpu_limit:g} s of CPU time is spent (run limit; --max-cpu SECONDS to change it, 0 for none)")


def deadline_after(cpu_limit: float | None) -> float | None:
    """The process CPU time (time.process_time) at which a budget of `cpu_limit` seconds from now
    is spent (None: no budget)."""
    return None if cpu_limit is None or cpu_limit <= 0 else time.process_time() + cpu_limit


def match_seed(seed: int, index: int) -> int:
    """The seed of the `index`-th match of a simulation seeded `seed`."""
    return seed * 1_000_003 + index


def seat_bots(bots: dict[int, str] | str, players: int) -> list[str]:
    """The bot kind of every seat: one kind for all, or per seat with "random" for the rest."""
    if isinstance(bots, str):
        return [bots] * players
    for seat in bots:
        if not 0 <= seat < players:
            raise ValueError(f"no seat P{seat + 1} in a {players}-player match (choose the number of players "
                             f"with --players)")
    return [bots.get(seat, "random") for seat in range(players)]


def simulate(game, players: int, games: int, seed: int,
             bots: dict[int, str] | str = "random", options: dict | None = None,
             max_actions: int = MAX_ACTIONS, workers: int = 1, progress=None,
             ray: str | bool | None = None, cpu_limit: float | None = RUN_CPU_LIMIT) -> dict:
    """Plays `games` matches with bots in every seat and returns the statistics.

    "outcomes" counts the first seat's results over the games that finished (in a
    co-operative game that is every seat's result), "outcomes_by_seat" every seat's;
    "win_rate_by_seat" gives each seat's share of wins; "draws" counts the games in which some
    player drew, "draw_rate" their share. A game stopped by a rule error or by
    the action cap is not in those figures but in "errors", with its seed in "failures".

    `workers` > 1 plays the games in that many processes; `ray` (True: a local Ray instance,
    or a cluster's address) plays them as Ray tasks. Each worker builds the game from its
    compiled IR (no file is shared). Every figure but the timings is the same whatever the
    backend and the number of workers, since each game is seeded by its index and the records
    are gathered in game order. `progress(done, games)` is called as games finish.

    The run has a budget of `cpu_limit` seconds of CPU time (limits.RUN_CPU_LIMIT; None or 0: no
    budget), shared among the workers: when it is spent the games not finished are dropped and
    the result says so ("partial", "planned", "stopped"), as it does for the games finished.
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if workers < 1:
        raise ValueError("the number of workers must be at least 1")
    game.new_match(players, match_seed(seed, 0), options)   # bad players or options: one error, here
    kinds = seat_bots(bots, players)                         # (after: a count of seats it may list)
    start = time.perf_counter()
    budget = cpu_limit if cpu_limit and cpu_limit > 0 else None
    deadline = deadline_after(budget)
    records = []
    if not ray and (workers == 1 or games == 1):   # (made as played: a budget may end the run long before)
        jobs: Iterable = ((index, players, seed, kinds, options, max_actions) for index in range(games))
    else:
        jobs = [(index, players, seed, kinds, options, max_actions) for index in range(games)]
    if ray:
        records = _on_ray(game, jobs, ray, workers, progress, budget)    # type: ignore[arg-type]  # (a list here)
    elif workers == 1 or games == 1:
        for job in jobs:
            try:
                records.append(play_game(game, *job, deadline=deadline))
            except BudgetSpent:
                break
            if progress is not None:
                progress(len(records), games)
    else:
        [records], _, interrupted = play_in_pool([(game, players, kinds, options)], games, seed, workers,
                                                progress, budget, max_actions, keep_skipped=True)
        if interrupted:
            raise KeyboardInterrupt
    seconds = time.perf_counter() - start
    played = [r for r in records if not r.get("skipped")]
    played = played[:next((i for i, r in enumerate(records) if r.get("skipped")), len(records))]
    result = summarize(game.name, players, len(played), seed, kinds, options, played, seconds)
    if len(played) < games:                  # (in game order: the first game the budget left unplayed ends it)
        result["partial"], result["planned"] = True, games
        result["stopped"] = budget_message(len(played), games, budget)
    return result


def play_in_pool(variants: list, games: int, seed: int, workers: int, progress, budget: float | None,
                 max_actions: int = MAX_ACTIONS, keep_skipped: bool = False,
                 timed: list | None = None, journal=None) -> tuple[list[list[dict]], bool, bool]:
    """The games of several variants (`(game, players, kinds, options)`) in a pool of `workers`
    processes, the variants taking turns game by game as in one process: game i of each, then
    game i + 1 (played with `--workers`, a compared file came after the first, and a budget split
    in equal shares left unequal counts to compare: a designer's trial). Each process has its
    share of the budget. Returns each variant's records in game order (up to the first game the
    budget left unplayed; `keep_skipped`: those too, marked), whether the budget was spent, and
    whether the run was interrupted (Ctrl-C, SIGTERM): the games finished before are kept.
    `timed`: a list, one per variant, to which the workers' seconds on its games are added.
    `journal` (`Journal`): the games it holds are not played again, each game played is added."""
    import multiprocessing
    context = multiprocessing.get_context("spawn")      # (no fork: the parent may hold threads)
    before = journal.done if journal is not None else {}     # (played before the run was stopped)
    every = [(k, (index, players, seed, kinds, options, max_actions))
             for index in range(games) for k, (_, players, kinds, options) in enumerate(variants)]
    jobs = [job for job in every if (job[0], job[1][0]) not in before]
    # (no more processes than games: `--workers 64 --games 3` started 64, each with 1/64 of the
    # budget — a fuzz trial)
    workers = max(1, min(workers, len(jobs) or 1))
    share = budget / workers if budget else None          # each process: its share of the budget
    flat: list = []                                       # (variant, record) in the jobs' order
    done = interrupted = False
    # (a multiprocessing pool, not concurrent.futures': stopping that one's workers under it broke
    # its manager thread — InvalidStateError — and left a designer's run hanging for ever after Ctrl-C)
    pool = context.Pool(workers, initializer=_load_worker,
                        initargs=([(game.ir, game.compiled) for game, *_ in variants], share))
    try:
        played = pool.imap(_worker_game, jobs, chunksize=max(1, min(16, len(jobs) // (workers * 8))))
        reused = 0                               # games of the journal: the time left is not theirs
        for n, (k, job) in enumerate(every):     # (in the order of every game: those played before first)
            if (k, job[0]) in before:
                record, took = before[(k, job[0])]
                reused += 1
            else:
                k, record, took = next(played)
                if journal is not None:
                    journal.add(k, job[0], record, took)
            flat.append((k, record))
            if timed is not None:
                timed[k] += took
            if progress is not None:
                if reused:      # (a resumed run's time left was worked out as if it had played them all)
                    progress(n + 1, len(every), skipped=reused)
                else:
                    progress(n + 1, len(every))
        done = True
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if done:
            pool.close()
            pool.join()
        else:
            # (the workers are stopped, not waited for — a game that never ends kept a designer's
            # run, and then its orphaned workers, going after Ctrl-C or SIGTERM)
            stop_pool(pool)
    # each process has its own share of the budget: one spent, the other went on with later games,
    # and the variants stopped several games apart (a designer's trial: 1,318 and 1,311). Cut at the
    # first game left unplayed in the order they take turns, as one process stops.
    first = next((i for i, (_, r) in enumerate(flat) if r.get("skipped")), None)
    spent = first is not None
    if not keep_skipped and first is not None:
        flat = flat[:first]
    records: list[list[dict]] = [[] for _ in variants]
    for k, record in flat:
        records[k].append(record)
    return records, spent, interrupted


def play_game(game, index: int, players: int, seed: int, kinds: list[str], options, max_actions: int,
              deadline: float | None = None) -> dict:
    """One match of a simulation, and what a report needs of it. BudgetSpent when the process's
    CPU time passes `deadline` (time.process_time) before the match ends."""
    seed_i = match_seed(seed, index)
    record = {"game": index, "seed": seed_i, "actions": 0, "results": None, "error": None,
              "legal": [], "taken": {}, "lead_changes": None, "sides": None}
    try:
        match = game.new_match(players, seed_i, options)     # (bad players or options: ValueError)
    except RulelangError as error:
        record["error"] = f"{type(error).__name__}: {error}"
        return record
    robots = [make_bot(kind, bot_seed(seed_i, seat)) for seat, kind in enumerate(kinds)]
    # lead changes: one player alone ahead, then another alone ahead (a tie between is no change,
    # nor is the first lead out of the level start)
    scored = _leader(match) is not None
    leader, changes = None, 0
    taken = record["taken"]
    try:
        while not match.is_over:
            if deadline is not None and time.process_time() > deadline:
                raise BudgetSpent(f"game {index}: the run's CPU budget is spent")
            if record["actions"] >= max_actions:
                record["error"] = f"no end after {max_actions} actions"
                return record
            legal = match.legal_actions()
            record["legal"].append(len(legal))
            action = robots[match.current_player].choose(match)
            name = action.name if hasattr(action, "name") else str(action).split(" ")[0]
            question = match.question
            if name == "choose" and question is not None and question.get("kind") == "window":
                # (a window's answers by what they are: a bluffing game's designer saw "choose 63.5 %"
                # and not how often players challenged or blocked — a new author's Coup)
                name = f"{str(action).split(': ', 1)[-1]} (an answer in a window)"
            taken[name] = taken.get(name, 0) + 1
            match.apply(action)
            record["actions"] += 1
            if scored:
                now = _leader(match)
                if now is not None and now >= 0:
                    if leader is not None and now != leader:
                        changes += 1
                    leader = now
    except BudgetSpent:
        raise
    except RulelangError as error:
        record["error"] = f"{type(error).__name__}: {error}"
        return record
    record["results"] = list(match.outcome["results"])
    record["reason"] = match.outcome.get("reason")      # how it ended (a finish's words, the turn limit…)
    record["lead_changes"] = changes if scored else None
    record["scores"] = None                # each seat's score at the end, where the rules keep one
    if scored:                             # (a solo scored game's only result is a win: a new author's Yahtzee)
        try:
            got = match.scores()
            if got is not None and all(type(x) in (int, float) for x in got):
                record["scores"] = got
        except RulelangError:
            pass
    record["sides"] = match.sides()
    record["estimate"] = None              # how far each seat got, by the rules' own measure (0-100):
    if hasattr(match, "estimate"):         # what a win rate of 0 hides (co-op)
        try:
            got = [match.estimate(p) for p in range(players)]
            record["estimate"] = None if got[0] is None else [round(100 * x, 3) for x in got]
        except RulelangError:
            pass
    return record


def _leader(match):
    """The one player ahead on score (None: no score kept, or a tie for the lead)."""
    scores = match.scores()
    if scores is None:
        return None
    best = max(scores)
    top = [p for p, s in enumerate(scores) if s == best]
    return top[0] if len(top) == 1 else -1


def stop_pool(pool) -> None:
    """End a multiprocessing pool's workers at once (a simulation's, the server's search bots'). `Pool.
    terminate` waits for ever when a worker died holding the pool's queue (a signal sent to the whole
    process group, as `timeout` or a service manager do): the workers are killed as it goes, and it
    is waited for a few seconds at most."""
    import threading
    ending = threading.Thread(target=pool.terminate, daemon=True)
    ending.start()
    deadline = time.monotonic() + 3
    while ending.is_alive() and time.monotonic() < deadline:
        for worker in list(getattr(pool, "_pool", ())):
            if worker.is_alive():
                worker.kill()
        ending.join(0.1)


_worker_games: dict = {}                 # in a worker process: a variant's index (or a Ray task's key) -> its game
_worker_deadline: list = [None]          # in a worker process: when its share of the run's budget is spent


def _load_worker(built: list, cpu_limit: float | None = None):
    """A pool process: each variant's game made from its compiled IR (`(ir, compiled)` each)."""
    import signal
    import rulelang
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # (Ctrl-C reaches the whole group: the parent stops us)
    _worker_deadline[0] = deadline_after(cpu_limit)
    _worker_games.clear()
    for k, (ir, compiled) in enumerate(built):
        _worker_games[k] = rulelang.Game(ir, compiled=compiled)


def _skipped(job: tuple) -> dict:
    """The record of a game the run's budget left unplayed."""
    return {"game": job[0], "skipped": True}


def _played(game, job: tuple, deadline) -> dict:
    try:
        return play_game(game, *job, deadline=deadline)
    except BudgetSpent:
        return _skipped(job)


def _worker_game(job: tuple) -> tuple[int, dict, float]:
    """(the variant, the game's record, the seconds it took)"""
    k, game_job = job
    deadline = _worker_deadline[0]
    if deadline is not None and time.process_time() > deadline:
        return k, _skipped(game_job), 0.0
    start = time.perf_counter()
    record = _played(_worker_games[k], game_job, deadline)
    return k, record, time.perf_counter() - start


def _ray_chunk(ir: dict, jobs: list, cpu_limit: float | None = None, compiled: bool = True) -> list:
    """A Ray task: some games of a simulation, the game built once per worker process, within
    `cpu_limit` seconds of CPU time (its share of the run's budget)."""
    import rulelang
    deadline = deadline_after(cpu_limit)
    key = json.dumps(ir.get("name")), len(json.dumps(ir))
    game = _worker_games.get(key)
    if game is None:
        game = _worker_games[key] = rulelang.Game(ir, compiled=compiled)
    out = []
    for job in jobs:
        out.append(_skipped(job) if out and out[-1].get("skipped") else _played(game, job, deadline))
    return out


def _on_ray(game, jobs: list, address, workers: int, progress, cpu_limit: float | None = None) -> list:
    """The games as Ray tasks, on a local Ray instance (address True) or a cluster."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'rulelang[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=None if address is True else address, include_dashboard=False,
                 log_to_driver=False, ignore_reinit_error=True,
                 **({"num_cpus": workers} if address is True and workers > 1 else {}))
    task = ray.remote(_ray_chunk)
    ir_ref = ray.put(game.ir)
    size = max(1, len(jobs) // 32)
    pending = [task.remote(ir_ref, jobs[i:i + size], cpu_limit * len(jobs[i:i + size]) / len(jobs) if cpu_limit else None,
                           game.compiled) for i in range(0, len(jobs), size)]
    records: list = []
    for ref in pending:                       # in game order, whatever order they finish in
        records += ray.get(ref)
        if progress is not None:
            progress(len(records), len(jobs))
    return records


def summarize(name: str, players: int, games: int, seed: int, kinds: list[str], options,
              records: list[dict], seconds: float) -> dict:
    """The statistics of a simulation from its games' records (in game order)."""
    counts = [dict.fromkeys(RESULTS, 0) for _ in range(players)]
    lengths: list[int] = []
    failures: list[dict] = []
    total_actions = 0
    sides: dict = {}
    for r in records:
        total_actions += r["actions"]
        if r["error"]:
            failures.append({"game": r["game"], "seed": r["seed"], "error": r["error"]})
            continue
        lengths.append(r["actions"])
        for seat, result in enumerate(r["results"]):
            counts[seat][result] += 1
        for side, result in side_outcomes(r).items():
            sides.setdefault(side, dict.fromkeys(RESULTS, 0))[result] += 1
    finished = len(lengths)
    # a game with a draw: some player drew (P2 and P3 tied for first while P1 lost — a new author's
    # Hearts: the rate read P1's results, 0 %)
    draws = sum(1 for r in records if not r["error"] and "draw" in r["results"])
    estimates = [r["estimate"] for r in records if not r["error"] and r.get("estimate") is not None]
    scores = [r["scores"] for r in records if not r["error"] and r.get("scores") is not None]
    endings: dict = {}
    worded: dict = {}                         # each way to end -> its words with their numbers, while one
    for r in records:
        if not r["error"]:
            why = way_to_end(r.get("reason"))
            endings[why] = endings.get(why, 0) + 1
            words = way_to_end(r.get("reason"), numbers=True)
            worded[why] = kept_numbers(worded.get(why, words), words)    # (those that differ: `#`)
    # (a way's numbers that never differ are kept: a new author's Go Fish read "all # books are down",
    # and a Backgammon "all # checkers borne off by P#" where only the player differed)
    endings = {worded.get(why) or why: k for why, k in endings.items()}
    return {
        "game": name,
        "games": games,
        "players": players,
        "seed": seed,
        "bots": kinds,
        "options": options or {},
        "actions": total_actions,
        "seconds": seconds,
        "actions_per_s": total_actions / seconds if seconds else 0.0,
        "playouts_per_s": games / seconds if seconds else 0.0,
        "finished": finished,
        "outcomes": counts[0],
        "outcomes_by_seat": counts,
        # (no game ended: no rate, not 0 % — a new author's run read as every seat losing every game)
        "win_rate_by_seat": [_rate(c["win"], finished) if finished else None for c in counts],
        # its 95 % Wilson interval, [low, high] (a designer scripting from --json recomputed them)
        "win_interval_by_seat": [[round(x, 4) for x in wilson(c["win"], finished)] if finished else None
                                 for c in counts],
        "win_rate_by_side": {side: _rate(c["win"], sum(c.values())) for side, c in sorted(sides.items())},
        "outcomes_by_side": {side: c for side, c in sorted(sides.items())},
        "draws": draws,
        "draw_rate": _rate(draws, finished) if finished else None,
        # how the finished games ended (the reason each outcome gives), most common first
        "endings": sorted(([why, k] for why, k in endings.items()), key=lambda x: -x[1]),
        # (no game ended: no length, not 0 — a designer's report showed zeros as if measured)
        "mean_length": _rate(sum(lengths), finished) if finished else None,
        "max_length": max(lengths) if lengths else None,
        # the rules' `estimate` at each game's end, per seat: mean and the half-width of its 95 % interval
        "estimate_by_seat": [mean_interval([e[seat] for e in estimates]) for seat in range(players)]
        if estimates else None,
        # each seat's score at the end (`players … ranked by`): mean and the half-width of its 95 % interval
        "score_by_seat": [mean_interval([x[seat] for x in scores]) for seat in range(players)] if scores else None,
        "errors": len(failures),
        "failures": failures[:REPORTED_FAILURES],
        "records": records,
    }


ENDINGS_SHOWN = 5             # reasons a game ended listed on the terminal (the report lists ten)


def way_to_end(reason: str | None, numbers: bool = False) -> str:
    """A game's ending reason as one way to end: its numbers (P1, P2… too) made `#`, what it says in
    brackets and after its first sentence left out (who died, who the winners are: "Shadows win:
    every Hunter is dead (P# George, P# Emi). The winners: …" is "Shadows win: every Hunter is
    dead"), and what follows its first 120 characters (80 cut a shipped game's reason mid-word, a
    designer's trial: `no piece of theirs is left on the bo…`)."""
    text = reason or "(no reason given)"
    if not numbers:                           # (`numbers`: kept as they are)
        text = re.sub(r"\d+", "#", text)
    plain = _first_sentence(_without_brackets(text)).strip()
    return _brief(plain or text, 120)


ABBREVIATIONS = frozenset({"approx", "etc", "vs", "no", "nr", "prof", "capt", "sgt", "gen", "col", "lt", "jr", "sr",
                           "mr", "mrs", "ms", "dr", "st", "mt", "fig", "ca", "cf", "al"})


def _first_sentence(text: str) -> str:
    """Up to the first full stop that ends a sentence: a stop, a space, a capital — not after an
    abbreviation or an initial ("Mr. X escaped", "Prof. Plum did it" were cut to "Mr", "Prof": a new
    author's trial and a fuzzer's), nor inside an ellipsis ("game over... P2 wins")."""
    for hit in re.finditer(r"\. (?=[A-Z])", text):
        before = text[:hit.start()]
        word = re.search(r"([A-Za-z]+)$", before)
        if before.endswith(".") or word is None or len(word.group(1)) == 1 \
                or word.group(1).lower() in ABBREVIATIONS or re.search(r"[A-Za-z]\.[A-Za-z]$", before):
            continue
        return before
    return text


def _without_brackets(text: str) -> str:
    """Brackets and what they hold, nested ones too ("(P1 (George) died)")."""
    while True:
        shorter = re.sub(r"\s*\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter


def _brief(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _interval(wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{pct(_rate(wins, n))} [{pct(lo)}, {pct(hi)}]"


def _games_rate(per_second: float) -> str:
    """Games a second, or a minute, or an hour: what a slow bot's run is read in (not "0.0/s"). Said as
    games: "playouts/min" read as the search bots' own playouts (a new author; `--json` keeps its key)."""
    if per_second >= 1 or per_second == 0:
        return f"{per_second:,.1f} games/s"
    if per_second * 60 >= 1:
        return f"{per_second * 60:,.1f} games/min"
    return f"{per_second * 3600:,.1f} games/h"


def _rate(part: float, whole: int) -> float:
    return part / whole if whole else 0.0


def _length_line(result: dict) -> str:
    """The games' length, said of the games that ended (a game stopped by an error has none)."""
    finished, games = result["finished"], result["games"]
    if finished == 0:
        return "game length: no game ended"
    of = "" if finished == games else f" (of the {finished} game{'s' if finished != 1 else ''} that ended)"
    return f"game length: mean {result['mean_length']:.1f}, max {result['max_length']} actions{of}"


def format_report(result: dict) -> str:
    """The result as a few lines of text for the terminal (the rule file's words made printable)."""
    seats = ", ".join(f"P{seat + 1} {kind}" for seat, kind in enumerate(result["bots"]))
    finished = result["finished"]
    first = result["outcomes"]
    lines = [
        f"{printable(result['game'])}: {result['games']} game{'s' if result['games'] != 1 else ''}, "
        f"{result['players']} player{'s' if result['players'] != 1 else ''}, "
        f"seed {result['seed']} (bots: {seats})",
    ]
    if result.get("rules"):
        lines.append(f"rule file: {printable(result['rules'])}")
    if result["options"]:
        lines.append("options: " + ", ".join(printable(option_text(k, v)) for k, v in result["options"].items()))
    lines += [
        "P1 results: " + ", ".join(f"{key} {_rate(first[key], finished):.1%}" for key in RESULTS),
        "win rate by seat (95% interval): " + ", ".join(
            f"P{seat + 1} {_interval(c['win'], finished)}" for seat, c in enumerate(result["outcomes_by_seat"])),
    ] if finished else ["results: none, no game ended" + (" (errors below)" if result["errors"] else
                                                          " (the run was stopped before a game's end)")]
    if result["outcomes_by_side"]:
        lines.append("win rate by side: " + ", ".join(
            f"{printable(side)} {_interval(c['win'], sum(c.values()))}" for side, c in result["outcomes_by_side"].items()))
    if result.get("estimate_by_seat"):
        lines.append("the rules' estimate at the end (0-100, 95% interval): " + ", ".join(
            f"P{seat + 1} {m:.1f}" + (f" ±{h:.1f}" if h is not None else " (one game: no interval)")
            for seat, (m, h) in enumerate(result["estimate_by_seat"])))
    if result.get("score_by_seat"):
        lines.append("score at the end (mean, 95% interval): " + ", ".join(
            f"P{seat + 1} {m:,.1f}" + (f" ±{h:,.1f}" if h is not None else " (one game: no interval)")
            for seat, (m, h) in enumerate(result["score_by_seat"])))
    if result.get("endings"):
        shown = result["endings"][:ENDINGS_SHOWN]
        rest = len(result["endings"]) - len(shown)
        lines.append("how games ended (#: a number): " + "; ".join(
            f"{_rate(k, finished):.1%} {printable(why)}" for why, k in shown)
            + (f"; and {rest} other reason{'s' if rest > 1 else ''}" if rest > 0 else ""))
    lines += [
        *([f"draw rate (games in which some player drew): {result['draw_rate']:.1%}"] if finished else []),
        _length_line(result),
        (f"speed: {result['actions_per_s']:,.0f} actions/s, {_games_rate(result['playouts_per_s'])} "
         f"({result['actions']} actions in {result['seconds']:.2f} s of wall-clock time; "
         f"{1000 * result['seconds'] / result['actions']:.2f} ms per action, bots' thinking included)"
         if result["actions"] else
         f"speed: no game was played to its end in {result['seconds']:.2f} s of wall-clock time"),
        f"errors: {result['errors']}",
    ]
    if result.get("stopped"):
        lines.insert(0, printable(result["stopped"]))
    lines += [f"  game {f['game']} (seed {f['seed']}): {printable(f['error'])}" for f in result["failures"]]
    if result["errors"] > len(result["failures"]):
        lines.append(f"  ... and {result['errors'] - len(result['failures'])} more")
    return "\n".join(lines)


JOURNAL = "games.jsonl"         # in a report's folder: each finished game of the run, as it ends


def _short(value) -> str:
    """A value read from a file, as a message may quote it: short and printable."""
    text = printable(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= 60 else text[:57] + "…"


def _other_run(head, run: dict) -> str:
    """What differs between a journal's run and this one, in words (a designer's trial was told
    "other rules, players, bots, options or seed" and had to find which)."""
    if not isinstance(head, dict) or head.get("rulelang_run") != run["rulelang_run"]:
        return "its first line names no run of this rulelang"
    if head.get("seed") != run["seed"]:
        return f"seed {_short(head.get('seed'))}, not {run['seed']}"
    if head.get("max_actions") != run["max_actions"]:
        return "another cap of actions a game"
    theirs = head.get("variants") if isinstance(head.get("variants"), list) else []
    if len(theirs) != len(run["variants"]):
        return f"{len(theirs)} variant(s), not {len(run['variants'])}"
    for k, (a, b) in enumerate(zip(theirs, run["variants"])):
        a = a if isinstance(a, dict) else {}
        for key, words in (("rules", "other rules"), ("players", "other players"), ("bots", "other bots"),
                           ("options", "other options")):
            if a.get(key) != b[key]:
                changed = " (a rule file changed)"
                if key == "rules" and isinstance(a.get(key), str) and len(a[key]) == 64:   # (the older key: a review)
                    changed = (" (or the run was begun by an older rulelang, whose record of the rules held the "
                               "rule file's path as typed: give the path as it was typed then)")
                return words + (f" in variant {k + 1}" if len(theirs) > 1 else "") + (
                    f": {_short(a.get(key))}, not {_short(b[key])}" if key != "rules" else changed)
    return "another run"


class Journal:
    """Each finished game of a run written as it ends, one JSON line in DIR/games.jsonl after a
    first line naming the run (each variant's rules, as a hash of their content, players, bots and
    options; the seed; the action cap): a run killed outright — the out-of-memory killer, a
    reboot — keeps every game finished (a designer's trial lost a night's games to `kill -9`),
    and `--resume` plays only the others. The number of games is not part of the run: resumed with
    a larger `--games`, the run goes on where it stopped. Lines that cannot be read (the last one,
    cut by the kill) are dropped and played again."""

    def __init__(self, folder: str, variants: list, seed: int, max_actions: int, resume: bool):
        import hashlib
        from pathlib import Path
        self.path = Path(folder) / JOURNAL
        # the rules by their content, their messages' words included (`Game.legacy_fingerprint`; not
        # `fingerprint`, which leaves them out for saves — a message that rolls a die changes every later
        # draw, a review): a hash of the whole IR held the path as typed, and `./x.rules` or `/abs/x.rules`
        # refused the resume of `x.rules` ("a rule file changed" — a designer's trial); a journal begun
        # so is still resumed from the path it was begun with (`legacy`)
        self.run, self.legacy = ({"rulelang_run": 1, "seed": seed, "max_actions": max_actions, "variants": [
            {"rules": game.legacy_fingerprint if new else hashlib.sha256(json.dumps(game.ir, sort_keys=True).encode()).hexdigest(),
             "players": players, "bots": list(kinds),
             "options": [option_text(key, value) for key, value in sorted((options or {}).items())]}
            for game, players, kinds, options in variants]} for new in (True, False))
        self.done: dict[tuple[int, int], tuple[dict, float]] = {}
        self.lock = _lock_folder(Path(folder))
        try:
            if resume and self.path.exists():
                self._read([players for _, players, _, _ in variants])
            elif self.path.exists():            # (a designer's rerun without --resume lost 160 games unsaid)
                kept = _lines(self.path) - 1
                if kept > 0:
                    print(f"rulelang simulate: {self.path} held {kept} game(s) of an earlier run: started anew "
                          f"(--resume goes on with them)", file=sys.stderr, flush=True)
        except BaseException:
            self.lock.close() if self.lock is not None else None
            raise
        lines = [json.dumps(self.run)] + [json.dumps({"variant": k, "game": i, "seconds": s, "record": r})
                                          for (k, i), (r, s) in sorted(self.done.items())]
        try:                                    # (what was read, written again whole: no half line
            self.file = open_for_writing(self.path)              # is left in the middle)
            self.file.write("".join(line + "\n" for line in lines))
            self.file.flush()
        except OSError as err:
            self.lock.close() if self.lock is not None else None
            raise ValueError(f"--report: cannot write {self.path}: {err.strerror or err}") from None

    def _read(self, variants: list[int]) -> None:
        from ..core.limits import JSON_SIZE_LIMIT
        from ..core.safejson import loads
        # (line by line, each at most JSON_SIZE_LIMIT characters: a file someone else wrote may be
        # one endless line)
        try:
            with open(self.path, encoding="utf-8", errors="replace") as file:
                first = file.readline(JSON_SIZE_LIMIT + 1)
                try:
                    head = loads(first, "first line of the run's games")
                except ValueError:
                    head = None
                if head != json.loads(json.dumps(self.run)) and head != json.loads(json.dumps(self.legacy)):
                    raise ValueError(f"--resume: {self.path} holds the games of another run ({_other_run(head, self.run)}): "
                                     f"leave out --resume to start anew, or give another --report")
                while line := file.readline(JSON_SIZE_LIMIT + 1):
                    try:
                        entry = loads(line, "line of the run's games") if line.strip() else None
                    except ValueError:
                        entry = None
                    if _journal_entry(entry, variants):
                        self.done[(entry["variant"], entry["game"])] = (entry["record"], float(entry["seconds"]))
        except OSError as err:
            raise ValueError(f"--resume: cannot read {self.path}: {err.strerror or err}") from None

    def add(self, k: int, index: int, record: dict, seconds: float) -> None:
        if record.get("skipped") or self.file.closed:
            return
        try:
            self.file.write(json.dumps({"variant": k, "game": index, "seconds": seconds, "record": record}) + "\n")
            self.file.flush()
        except OSError:                         # (a disk full: the games go on, the report is still written;
            self.file.close()                   # only a hard kill would lose them)

    def close(self) -> None:
        self.file.close()
        if self.lock is not None:
            self.lock.close()                   # (closing it releases the lock)
            self.lock = None


def _lock_folder(folder):
    """An exclusive lock on the run's folder for as long as the run writes there (a designer started
    two runs with one --report: both said they wrote it, and one run's games were silently lost);
    None where the system has no `flock`."""
    try:
        import fcntl
    except ImportError:                         # (Windows)
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # (never through a link, never blocking: a FIFO planted as the lock hung the run before any game)
        try:
            kind = os.lstat(folder / ".run.lock").st_mode
        except FileNotFoundError:
            kind = None
        if kind is not None and not stat.S_ISREG(kind):
            raise ValueError(f"--report {folder}: its .run.lock is not a file; remove it, or give another --report")
        fd = os.open(folder / ".run.lock", os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK
                     | getattr(os, "O_NOFOLLOW", 0), 0o644)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ValueError(f"--report {folder}: its .run.lock is not a file; remove it, or give another --report")
        lock = os.fdopen(fd, "a", encoding="utf-8")
    except OSError as err:
        raise ValueError(f"--report: cannot write in {folder}: {err.strerror or err}") from None
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise ValueError(f"--report {folder}: another run is writing its games there now; wait for it, or "
                         f"give another --report") from None
    return lock


def _lines(path) -> int:
    """How many lines a file holds (0 if it cannot be read), read a megabyte at a time: a planted 4 GB
    journal of one line took it all into memory (a fuzzer's MemoryError)."""
    count, last = 0, b"\n"
    try:
        with open(path, "rb") as file:
            for _ in range(256):            # (at most 256 MB read: a 100 GB sparse file costs nothing to plant)
                chunk = file.read(1 << 20)
                if not chunk:
                    break
                count, last = count + chunk.count(b"\n"), chunk[-1:]
    except OSError:
        return 0
    return count + (last != b"\n")         # (a last line without its newline counts too)


_RECORD_TYPES = {"game": int, "seed": int, "actions": int, "legal": list, "taken": dict}
_COUNT_MOST = 10 ** 12           # a count, a number of seconds or a score a run of ours could write, at most
_NAMES_MOST = 10_000             # action names counted in one game, at most


def _journal_entry(entry, variants: list[int]) -> bool:
    """Is this a line Journal.add wrote, for one of the variants (`variants`: their player counts)?
    A file another wrote is read as untrusted: what a report reads of a record has the types and
    lengths it expects."""
    if not isinstance(entry, dict) or set(entry) != {"variant", "game", "seconds", "record"}:
        return False
    record = entry["record"]
    if type(entry["variant"]) is not int or not 0 <= entry["variant"] < len(variants) or type(entry["game"]) is not int \
            or entry["game"] < 0 or type(entry["seconds"]) not in (int, float) or not isinstance(record, dict):
        return False
    if any(not isinstance(record.get(key), kind) for key, kind in _RECORD_TYPES.items()) or record["game"] != entry["game"]:
        return False
    if not all(type(x) is int and 0 <= x <= _COUNT_MOST for x in record["legal"]) \
            or len(record["taken"]) > _NAMES_MOST \
            or not all(type(v) is int and 0 <= v <= _COUNT_MOST for v in record["taken"].values()) \
            or not 0 <= record["actions"] <= _COUNT_MOST or not 0 <= entry["game"] <= _COUNT_MOST \
            or not (isinstance(entry["seconds"], int) and 0 <= entry["seconds"] <= _COUNT_MOST
                    or isinstance(entry["seconds"], float) and 0 <= entry["seconds"] <= _COUNT_MOST):
        return False                              # (a 300-digit action count ended the report in a
        # numpy TypeError, 200,000 action names took minutes: a fuzzer's crafted journal)
    results, players = record.get("results"), variants[entry["variant"]]
    if record.get("error") is None:
        if not isinstance(results, list) or len(results) != players or not all(x in ("win", "lose", "draw") for x in results):
            return False
    elif not isinstance(record["error"], str):
        return False
    for key in ("scores", "estimate"):
        got = record.get(key)
        if got is not None and (not isinstance(got, list) or len(got) != players
                                or not all(type(x) in (int, float) and abs(x) <= INT_LIMIT for x in got)):
            # (a score a rule computes, up to INT_LIMIT: a run of scores in the trillions resumed none — a review)
            return False
    sides = record.get("sides")
    if sides is not None and (not isinstance(sides, list) or len(sides) != players
                              or not all(x is None or isinstance(x, str) for x in sides)):
        return False
    return (record.get("lead_changes") is None or type(record["lead_changes"]) is int
            and 0 <= record["lead_changes"] <= _COUNT_MOST) and \
        (record.get("reason") is None or isinstance(record["reason"], str))
