"""Self-play statistics: many bot-played matches of one game, summarised.

Every figure except the timings depends only on the arguments: match i is seeded
`match_seed(seed, i)` and its bots `bot_seed(match seed, seat)`, so a surprising
game can be replayed alone with `rulelang play --seed`.
"""
from __future__ import annotations

import time

from rulelang.bots import bot_seed, make_bot
from rulelang.errors import RulelangError
from rulelang.textsafe import printable

MAX_ACTIONS = 100_000        # a game still going after this many actions counts as an error
REPORTED_FAILURES = 10       # failures listed in the result; all are counted
RESULTS = ("win", "lose", "draw")


def match_seed(seed: int, index: int) -> int:
    """The seed of the `index`-th match of a simulation seeded `seed`."""
    return seed * 1_000_003 + index


def seat_bots(bots: dict[int, str] | str, players: int) -> list[str]:
    """The bot kind of every seat: one kind for all, or per seat with "random" for the rest."""
    if isinstance(bots, str):
        return [bots] * players
    for seat in bots:
        if not 0 <= seat < players:
            raise ValueError(f"no seat P{seat + 1} in a {players}-player match")
    return [bots.get(seat, "random") for seat in range(players)]


def simulate(game, players: int, games: int, seed: int,
             bots: dict[int, str] | str = "random", options: dict | None = None,
             max_actions: int = MAX_ACTIONS) -> dict:
    """Plays `games` matches with bots in every seat and returns the statistics.

    "outcomes" counts the first seat's results over the games that finished (in a
    co-operative game that is every seat's result); "win_rate_by_seat" gives each
    seat's share of wins. A game stopped by a rule error or by the action cap is
    not in those figures but in "errors", with its seed in "failures".
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    kinds = seat_bots(bots, players)
    counts = [dict.fromkeys(RESULTS, 0) for _ in range(players)]
    lengths: list[int] = []
    failures: list[dict] = []
    total_actions = 0
    start = time.perf_counter()
    for index in range(games):
        seed_i = match_seed(seed, index)
        match = game.new_match(players, seed_i, options)
        robots = [make_bot(kind, bot_seed(seed_i, seat)) for seat, kind in enumerate(kinds)]
        actions, error = _play_out(match, robots, max_actions)
        total_actions += actions
        if error:
            failures.append({"game": index, "seed": seed_i, "error": error})
            continue
        lengths.append(actions)
        for seat, result in enumerate(match.outcome["results"]):
            counts[seat][result] += 1
    seconds = time.perf_counter() - start
    finished = len(lengths)
    return {
        "game": game.name,
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
        "win_rate_by_seat": [_rate(c["win"], finished) for c in counts],
        "draw_rate": _rate(counts[0]["draw"], finished),
        "mean_length": _rate(sum(lengths), finished),
        "max_length": max(lengths, default=0),
        "errors": len(failures),
        "failures": failures[:REPORTED_FAILURES],
    }


def _play_out(match, robots: list, max_actions: int) -> tuple[int, str | None]:
    """Plays `match` to its end: the number of actions applied, and why it stopped early if it did."""
    actions = 0
    try:
        while not match.is_over:
            if actions >= max_actions:
                return actions, f"no end after {max_actions} actions"
            match.apply(robots[match.current_player].choose(match))
            actions += 1
    except RulelangError as error:
        return actions, f"{type(error).__name__}: {error}"
    return actions, None


def _rate(part: float, whole: int) -> float:
    return part / whole if whole else 0.0


def format_report(result: dict) -> str:
    """The result as a few lines of text for the terminal (the rule file's words made printable)."""
    seats = ", ".join(f"P{seat + 1} {kind}" for seat, kind in enumerate(result["bots"]))
    finished = result["finished"]
    first = result["outcomes"]
    lines = [
        f"{printable(result['game'])}: {result['games']} games, {result['players']} players, "
        f"seed {result['seed']} (bots: {seats})",
    ]
    if result["options"]:
        lines.append("options: " + ", ".join(printable(f"{k}={v}") for k, v in result["options"].items()))
    lines += [
        "P1 results: " + ", ".join(f"{key} {_rate(first[key], finished):.1%}" for key in RESULTS),
        "win rate by seat: " + ", ".join(
            f"P{seat + 1} {rate:.1%}" for seat, rate in enumerate(result["win_rate_by_seat"])),
        f"draw rate: {result['draw_rate']:.1%}",
        f"game length: mean {result['mean_length']:.1f}, max {result['max_length']} actions",
        f"speed: {result['actions_per_s']:,.0f} actions/s, {result['playouts_per_s']:,.1f} playouts/s "
        f"({result['actions']} actions in {result['seconds']:.2f} s)",
        f"errors: {result['errors']}",
    ]
    lines += [f"  game {f['game']} (seed {f['seed']}): {printable(f['error'])}" for f in result["failures"]]
    if result["errors"] > len(result["failures"]):
        lines.append(f"  ... and {result['errors'] - len(result['failures'])} more")
    return "\n".join(lines)
