"""How the engine's costs grow: board size, player count, hand and deck size, and match-state memory.

Run it from the project root, in its virtual environment:

    python benchmarks/scaling.py                      # every table (several minutes)
    python benchmarks/scaling.py --quick              # a smoke run: few games, one pass, 300 clones
    python benchmarks/scaling.py --only board,memory  # some tables only (board|players|hands|memory)
    python benchmarks/scaling.py --games 800 --repeats 5 --seed 0

It prints markdown. Only the standard library and rulelang's public API are used
(`rulelang.load`, `Game.new_match`, `Match.legal_actions/apply/is_over/outcome/clone/state`),
except for one measurement, µs per listing, explained below.

**Protocol** (that of `rulelang bench`, docs/performance.md): a playout is one match played to
its end by a uniform random bot — `game.new_match(players, seed)` (set-up and shuffles included),
then `legal_actions()` + `random.Random(10**6 + seed).choice` + `apply()` until `is_over`. Match i
of a row is seeded `seed + i`. Each row is timed over the same games in `--repeats` passes and the
best pass is kept; a pass times every row of a table in turn, so that a burst of load from
elsewhere falls on all of them alike.

**Columns** of the speed tables (board, players, hands):

- *length*: mean actions per game; *legal*: mean number of legal actions per decision;
  *draws* (Valgarð) / *wins* (Regicide, co-operative): the share of games that ended so;
- *µs/action*: the best pass's time (set-up included) ÷ its actions;
- *µs/listing*: the time the engine spends building one list of legal actions. The engine lists
  them inside `apply()` (it must know at once whether the next player is stuck), so
  `legal_actions()` only copies a ready list and timing it separately from `apply()` would say
  nothing. Instead, separate instrumented passes wrap the game's per-step enumerators
  (`game.steps`, an engine internal: if its shape changes, the column reads "n/a") with a timer,
  whose own overhead is measured and subtracted; *listing %* is their share of those passes and
  *listings/action* their number per action (above 1 where an action is replayed or the set-up
  lists too; effects waiting for a choice list their options without an enumerator);
- *µs/listed*: µs/listing ÷ legal — the cost per legal action listed;
- *×µs/action*, *×legal*, *×µs/listing*: growth factors relative to the first row of the table.
  Cost that grows faster than *×legal* grows faster than the work the rules ask for.

**Board** (Valgarð, `board field: octagons(7, 7)`) — the rule file rewritten into a temporary
directory at 5×5, 7×7, 9×9, 13×13 and linted (`python -m rulelang lint`). Two tables: the
number of warriors scaled with the board's area (12 on 7×7: the same density, a sensible game),
and 12 warriors on every board (only the board grows). The about texts that name the size or the
number of warriors are rewritten too; the home rows (`rows(field)`) and sockets need no change.

**Players** — Regicide 1–4, Shadow Hunters 4–8, Smash Up 2–4, Dozen War 2–4. The slower games
play fewer games (a fixed fraction of `--games`, see GAME_WEIGHT).

**Hands** — Regicide with its `hand_size` table ×1.5 and ×2, with a double deck (every number
card twice: 80 instead of 40, so that large hands still leave a tavern), and both, at 1 and 4
players.

**Memory** — every game at its minimum and maximum player counts, over states sampled in the
middle half of one seeded random game: bytes a `clone()` allocates (tracemalloc, the least of 3
tries, averaged over the samples), µs per `clone()`, `len(json.dumps(state()))`, and the issue's
requirement "a search bot's 10,000 clones per move should stay under 100 MB": 10,000 clones of
the mid-game state kept alive, then each advanced by one random action — what a clone holds once
it is played on, which is what a search keeps (a clone may share its state with the original until
either is played on, so the clones alone can cost little): the memory traced by
tracemalloc (current and peak) and the process's resident-set growth (`/proc/self/statm`, else
`resource.getrusage` peak), measured in a fresh process (`--rss-probe`) without tracemalloc.

The figures are noisy (a shared 2-core machine: ±10 % between runs, more on a bad pass); the
header prints the load average at the start and end.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
if str(ROOT) not in sys.path:                 # run from a checkout without installing rulelang
    sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.play import bench  # noqa: E402

POLICY_SEED = bench.POLICY_SEED                # the bot of match `seed` is seeded POLICY_SEED + seed
LIMIT_MB = 100                                 # the issue's budget for a search bot's clones per move

# games per row = --games × weight (at least MIN_GAMES): the slower games play fewer
GAME_WEIGHT = {"regicide": 1.0, "valgard": 0.5, "shadow_hunters": 0.1, "smash_up": 0.05, "dozen_war": 0.015}
MIN_GAMES = 2

FILES = {"regicide": GAMES / "regicide.rules", "valgard": GAMES / "valgard.rules",
         "shadow_hunters": GAMES / "shadow_hunters.rules", "smash_up": GAMES / "smash_up.rules",
         "dozen_war": GAMES / "dozen_war.rules"}
PLAYER_ROWS = [("regicide", [1, 2, 3, 4]), ("shadow_hunters", [4, 5, 6, 7, 8]),
               ("smash_up", [2, 3, 4]), ("dozen_war", [2, 3, 4])]
BOARD_SIZES = [5, 7, 9, 13]
BASE_SIZE, BASE_WARRIORS = 7, 12               # Valgarð as written
HAND_PLAYERS = [1, 4]
SECTIONS = ("board", "players", "hands", "memory")


@dataclass
class Config:
    games: int = 400
    repeats: int = 3
    seed: int = 0
    clones: int = 10_000                       # clones kept alive by the memory test
    samples: int = 6                           # mid-game states sampled per memory row
    clone_calls: int = 2_000                   # clone() calls timed per µs figure
    rss: bool = True                           # measure the clones' RSS growth in fresh processes

    def games_for(self, key: str) -> int:
        return max(MIN_GAMES, round(self.games * GAME_WEIGHT[key]))


# ---------------------------------------------------------------- playouts and their timing

def playout(game, players: int, seed: int) -> int:
    """One match to its end by the uniform random bot (`rulelang bench`'s); the actions applied."""
    return bench.playout(game, players, seed, None)[1]


class ListingTimer:
    """Times the engine's enumerators of legal actions while in a `with` block.

    The engine builds the list of legal actions inside `apply()` by calling, for the step to play,
    the enumerator kept in `game.steps[step][2]` (an internal, not the public API). The timer
    swaps each for a timed wrapper and puts the originals back on exit. `usable` is False if
    `game.steps` does not have that shape; then nothing is wrapped.
    """

    def __init__(self, game):
        steps = getattr(game, "steps", None)
        self.steps = steps
        self.usable = isinstance(steps, dict) and bool(steps) and all(
            isinstance(v, tuple) and len(v) == 3 and callable(v[2]) for v in steps.values())
        self.seconds = 0.0
        self.calls = 0
        self._saved: dict = {}

    def _timed(self, enum):
        clock = time.perf_counter

        def timed(m):
            start = clock()
            try:
                return enum(m)
            finally:
                self.seconds += clock() - start
                self.calls += 1
        return timed

    def __enter__(self) -> "ListingTimer":
        self.seconds, self.calls = 0.0, 0
        if self.usable:
            self._saved = dict(self.steps)
            for name, (actor, enter, enum) in self._saved.items():
                self.steps[name] = (actor, enter, self._timed(enum))
        return self

    def __exit__(self, *exc) -> None:
        if self.usable:
            self.steps.update(self._saved)

    def overhead(self, calls: int = 20_000) -> float:
        """Seconds the wrapper itself adds to one timed call (measured on an empty enumerator)."""
        saved = self.seconds, self.calls
        timed = self._timed(lambda m: None)
        best = float("inf")
        for _ in range(3):
            self.seconds = 0.0
            for _ in range(calls):
                timed(None)
            best = min(best, self.seconds / calls)
        self.seconds, self.calls = saved
        return best


@dataclass
class Row:
    """The figures of one game setting (one table row)."""
    label: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0                       # best plain pass
    legal_seen: int = 0
    draws: int = 0                             # games where every seat drew
    wins: int = 0                              # games where some seat won
    listing_us: float | None = None            # per listing, timer overhead subtracted
    listings: int = 0                          # enumerator calls in one instrumented pass
    listing_share: float | None = None
    extra: dict = field(default_factory=dict)  # table-specific columns
    error: str | None = None

    @property
    def us_per_action(self) -> float:
        return self.seconds / self.actions * 1e6 if self.actions else float("nan")

    @property
    def mean_length(self) -> float:
        return self.actions / self.games if self.games else float("nan")

    @property
    def mean_legal(self) -> float:
        return self.legal_seen / self.actions if self.actions else float("nan")


@dataclass
class Spec:
    """One row to measure: a game at a player count, over `games` seeded playouts."""
    label: str
    game: object
    players: int
    games: int
    extra: dict = field(default_factory=dict)


def _timed_pass(spec: Spec, seeds: range) -> tuple[float, int]:
    actions = 0
    start = time.perf_counter()
    for s in seeds:
        actions += playout(spec.game, spec.players, s)
    return time.perf_counter() - start, actions


def _instrumented_pass(spec: Spec, seeds: range, timer: ListingTimer) -> dict:
    """The same playouts with the enumerators timed, counting legal actions and outcomes."""
    legal_seen = draws = wins = 0
    with timer:
        start = time.perf_counter()
        for s in seeds:
            m = spec.game.new_match(spec.players, s, None)
            choice = random.Random(POLICY_SEED + s).choice
            while not m.is_over:
                legal = m.legal_actions()
                legal_seen += len(legal)
                m.apply(choice(legal))
            results = (m.outcome or {}).get("results") or []
            draws += bool(results) and all(r == "draw" for r in results)
            wins += "win" in results
        total = time.perf_counter() - start
    return {"legal_seen": legal_seen, "draws": draws, "wins": wins, "total": total,
            "seconds": timer.seconds, "calls": timer.calls}


def measure(specs: list, cfg: Config) -> list[Row]:
    """The rows of one table. Each of cfg.repeats passes times every row in turn (so that a burst
    of load from elsewhere falls on all rows alike) and the best pass of each row is kept; then as
    many instrumented passes give legal actions per decision, outcomes and the enumerators' cost
    (ListingTimer, its overhead subtracted; the best pass kept). A row that fails is reported with
    its error, the others go on. A Row among `specs` (a row that could not be built) is passed
    through in its place."""
    given = specs
    specs = [s for s in given if isinstance(s, Spec)]
    rows = [Row(s.label, games=s.games, extra=dict(s.extra)) for s in specs]
    seeds = [range(cfg.seed, cfg.seed + s.games) for s in specs]
    best = [float("inf")] * len(specs)
    timers = [ListingTimer(s.game) for s in specs]
    overhead = next((t.overhead() for t in timers if t.usable), 0.0)

    def each(run):
        for k, (spec, row) in enumerate(zip(specs, rows)):
            if row.error is None:
                try:
                    run(k, spec, row)
                except Exception as err:                          # report the row, go on
                    row.error = f"{type(err).__name__}: {err}"

    def warm(k, spec, row):
        playout(spec.game, spec.players, cfg.seed)

    def timed(k, spec, row):
        seconds, row.actions = _timed_pass(spec, seeds[k])
        if seconds < best[k]:
            best[k] = row.seconds = seconds

    def instrumented(k, spec, row):
        r = _instrumented_pass(spec, seeds[k], timers[k])
        if row.listings == 0:
            row.legal_seen, row.draws, row.wins, row.listings = r["legal_seen"], r["draws"], r["wins"], r["calls"]
        if timers[k].usable and r["calls"]:
            us = (r["seconds"] / r["calls"] - overhead) * 1e6
            if row.listing_us is None or us < row.listing_us:
                row.listing_us = us
                row.listing_share = (r["seconds"] - overhead * r["calls"]) / r["total"]

    each(warm)                                                    # warm up (and fail early)
    for _ in range(cfg.repeats):
        each(timed)
    for _ in range(cfg.repeats):
        each(instrumented)
    measured = iter(rows)
    return [next(measured) if isinstance(s, Spec) else s for s in given]


# ---------------------------------------------------------------- rule-file variants

class VariantError(Exception):
    pass


@dataclass
class Rewrite:
    old: str
    new: str
    required: bool = True                      # False: only words (about texts, comments)


def rewrite(text: str, edits: list[Rewrite], notes: list[str]) -> str:
    """Apply the edits; a required one that matches nothing raises VariantError, an optional
    one only adds a note (the rule file was edited since this script was written)."""
    for e in edits:
        if e.old == e.new:
            continue
        count = text.count(e.old)
        if count == 0:
            if e.required:
                raise VariantError(f"the rule file no longer contains `{e.old}`: update benchmarks/scaling.py")
            notes.append(f"text not found, left as is: `{e.old}`")
            continue
        text = text.replace(e.old, e.new)
    return text


def write_variant(directory: Path, source: Path, text: str, name: str) -> Path:
    """Write `text` as `name` in `directory`, with copies of the files it includes beside it."""
    for include in re.findall(r'^\s*include\s+"([^"]+)"', text, flags=re.M):
        target = directory / include
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((source.parent / include).read_bytes())
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def lint(paths: list[Path]) -> dict[str, str]:
    """`python -m rulelang lint` of the files in one process: 'clean', or what it reported."""
    if not paths:
        return {}
    proc = subprocess.run([sys.executable, "-m", "rulelang", "lint", "--format", "json", *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT)
    status = {str(p): "clean" for p in paths}
    try:
        diagnostics = json.loads(proc.stdout or "[]")
    except json.JSONDecodeError:
        return {str(p): f"lint failed (exit {proc.returncode}): {proc.stderr.strip()[:200]}" for p in paths}
    found: dict[str, list[str]] = {}
    for d in diagnostics:
        found.setdefault(str(d.get("file")), []).append(f"{d.get('severity')} {d.get('code')}: {d.get('message')}")
    for p in paths:
        msgs = found.get(str(p)) or found.get(os.path.relpath(p, ROOT))
        if msgs:
            status[str(p)] = "; ".join(msgs)
    if proc.returncode != 0 and all(v == "clean" for v in status.values()):
        status = {k: f"lint exit {proc.returncode}" for k in status}
    return status


def valgard_variant(text: str, n: int, warriors: int, notes: list[str]) -> str:
    """Valgarð on an n×n board with `warriors` per player. Tied to the size in valgard.rules: the
    board line, and words (the about texts, a comment). The home rows are `rows(field)` and the
    sockets come with the shape, so they follow. Tied to the number of warriors: the `repeat 12`
    of the set-up, the muster's end (3 placed each: `size(reserve[p]) == 12 - 3`), about texts."""
    if not 3 <= n <= 26:
        raise VariantError(f"{n}×{n}: the muster places 3 warriors on each home row (n ≥ 3) and a board "
                           f"side is at most 26")
    if warriors < 3:
        raise VariantError(f"{warriors} warriors: the muster places 3 each")
    if re.search(r"\b(cell|edge)\s*\(", text):
        notes.append("the rule file names cells or edges (`cell(`/`edge(`): check the board rewrite")
    last_col = "abcdefghijklmnopqrstuvwxyz"[n - 1]
    return rewrite(text, [
        Rewrite("octagons(7, 7)", f"octagons({n}, {n})"),
        Rewrite("repeat 12 { create Warrior", f"repeat {warriors} {{ create Warrior"),
        Rewrite("size(reserve[0]) == 9 and size(reserve[1]) == 9",
                f"size(reserve[0]) == {warriors - 3} and size(reserve[1]) == {warriors - 3}"),
        Rewrite("a board of 7 by 7 octagons", f"a board of {n} by {n} octagons", False),
        Rewrite("from row 7", f"from row {n}", False),
        Rewrite("Each player has 12 warriors", f"Each player has {warriors} warriors", False),
        Rewrite("starts with 12 warriors in reserve", f"starts with {warriors} warriors in reserve", False),
        Rewrite("a–g × 1–7", f"a–{last_col} × 1–{n}", False),
    ], notes)


HAND_SIZES = {1: 8, 2: 7, 3: 6, 4: 5}            # regicide.rules, `table hand_size`


def regicide_variant(text: str, factor: float, double_deck: bool, notes: list[str]) -> tuple[str, dict]:
    """Regicide with hands ×factor (rounded half up) and optionally every number card twice.
    Tied to the hand size: the `hand_size` table and the about texts quoting it; the deck: the
    `for r in 1..10` creation loop. Returns the text and the new hand sizes."""
    hands = {p: int(h * factor + 0.5) for p, h in HAND_SIZES.items()}
    table = "table hand_size { " + ", ".join(f"{p}: {h}" for p, h in HAND_SIZES.items()) + " }"
    new_table = "table hand_size { " + ", ".join(f"{p}: {h}" for p, h in hands.items()) + " }"
    h = hands
    edits = [
        Rewrite(table, new_table),
        Rewrite("8 cards solo, then 7, 6 \"\n              \"or 5 with 2, 3 or 4 players",
                f"{h[1]} cards solo, then {h[2]}, {h[3]} \"\n              \"or {h[4]} with 2, 3 or 4 players", False),
        Rewrite("8, 7, 6 or 5 cards at most", f"{h[1]}, {h[2]}, {h[3]} or {h[4]} cards at most", False),
        Rewrite("draw up to 8 \"", f"draw up to {h[1]} \"", False),
        Rewrite("draw up to 8\n", f"draw up to {h[1]}\n", False),
    ]
    if double_deck:
        edits += [
            Rewrite("for r in 1..10 { create Card(rank: r, suit: s, value: r) in tavern }",
                    "for r in 1..10 { repeat 2 { create Card(rank: r, suit: s, value: r) in tavern } }"),
            Rewrite("The number cards and Aces", "The number cards and Aces (two of each)", False),
        ]
    return rewrite(text, edits, notes), hands


# ---------------------------------------------------------------- tables

def fmt(x, spec: str = ".1f", none: str = "n/a") -> str:
    if x is None or (isinstance(x, float) and x != x):
        return none
    return format(x, spec)


def speed_table(rows: list[Row], lead: list[tuple[str, str]], outcome: str | None = None,
                tail: list[tuple[str, str]] = ()) -> list[str]:
    """A markdown table: the `lead` columns (header, key into row.extra), then the speed columns
    (with `outcome` "draws" or "wins": the share of such games), then the `tail` columns; growth
    factors relative to the first row without an error."""
    head = [h for h, _ in lead] + ["games", "length"] + ([outcome] if outcome else []) + [
        "legal", "µs/action", "listings/action", "µs/listing", "listing %", "µs/listed", "×µs/action", "×legal",
        "×µs/listing"] + [h for h, _ in tail]
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * len(lead) + ["---:"] * (len(head) - len(lead))) + "|"]
    base = next((r for r in rows if r.error is None), None)
    for r in rows:
        cells = [str(r.extra.get(k, r.label if k == "label" else "")) for _, k in lead]
        if r.error:
            out.append("| " + " | ".join(cells + [f"**not measured:** {r.error}"] + [""] * (len(head) - len(lead) - 1)) + " |")
            continue
        listed = r.listing_us / r.mean_legal if r.listing_us is not None and r.mean_legal else None
        grow_listing = (r.listing_us / base.listing_us if r.listing_us is not None and base.listing_us else None)
        cells += [str(r.games), fmt(r.mean_length)]
        if outcome:
            cells.append(f"{100 * getattr(r, outcome) / r.games:.0f} %")
        cells += [fmt(r.mean_legal), fmt(r.us_per_action),
                  fmt(r.listings / r.actions if r.listing_us is not None else None, ".2f"), fmt(r.listing_us, ".2f"),
                  fmt(None if r.listing_share is None else 100 * r.listing_share, ".0f"),
                  fmt(listed, ".3f"), fmt(r.us_per_action / base.us_per_action, ".2f"),
                  fmt(r.mean_legal / base.mean_legal, ".2f"), fmt(grow_listing, ".2f")]
        cells += [str(r.extra.get(k, "")) for _, k in tail]
        out.append("| " + " | ".join(cells) + " |")
    return out


# ---------------------------------------------------------------- sections

def section_board(cfg: Config) -> list[str]:
    source = FILES["valgard"]
    text = source.read_text(encoding="utf-8")
    games = cfg.games_for("valgard")
    lines = ["## 1. Board size: Valgarð", "",
             f"`board field: octagons(N, N)` rewritten from games/valgard.rules (7×7); {games} games per row, "
             f"best of {cfg.repeats} passes. *cells*: octagons + sockets. Nothing else in the rule file is tied "
             "to 7×7 but words: the home rows are `rows(field)` (row N for dark) and the rune sockets come with "
             "the shape. *lint*: `python -m rulelang lint` of the variant. *clone bytes*, *µs/clone*: as in "
             "table 4, on the game of the first seed.", ""]
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rulelang-scaling-") as tmp:
        variants = []                          # (table, n, warriors, path or error)
        for table, scaled in (("density", True), ("fixed", False)):
            for n in BOARD_SIZES:
                warriors = round(BASE_WARRIORS * n * n / (BASE_SIZE * BASE_SIZE)) if scaled else BASE_WARRIORS
                try:
                    variant = valgard_variant(text, n, warriors, notes)
                    path = write_variant(Path(tmp), source, variant, f"valgard_{n}x{n}_{warriors}w.rules")
                    variants.append((table, n, warriors, path))
                except (VariantError, OSError) as err:
                    variants.append((table, n, warriors, err))
        checked = lint([v[3] for v in variants if isinstance(v[3], Path)])
        specs: dict[str, list] = {"density": [], "fixed": []}
        for table, n, warriors, path in variants:
            extra = {"size": f"{n}×{n}", "cells": f"{n * n} + {(n - 1) * (n - 1)}", "warriors": warriors}
            if not isinstance(path, Path):
                specs[table].append(Row(f"{n}×{n}", extra=extra, error=f"cannot be made: {path}"))
                continue
            extra["lint"] = checked[str(path)]
            if not checked[str(path)].startswith(("clean", "warning")):
                specs[table].append(Row(f"{n}×{n}", extra=extra, error=f"lint: {checked[str(path)]}"))
                continue
            try:
                game = rulelang.load(str(path))
            except Exception as err:
                specs[table].append(Row(f"{n}×{n}", extra=extra, error=f"does not load: {err}"))
                continue
            specs[table].append(Spec(f"{n}×{n}", game, 2, games, extra))
        rows = {table: measure(items, cfg) for table, items in specs.items()}
        for table, items in specs.items():
            for spec, row in zip(items, rows[table]):
                if isinstance(spec, Spec) and row.error is None:
                    row.extra.update(clone_figures(spec.game, 2, cfg))
    lead = [("size", "size"), ("cells", "cells"), ("warriors each", "warriors"), ("lint", "lint")]
    lines += ["### 1a. Warriors scaled with the board's area (12 on 7×7: the same density)", ""]
    tail = [("clone bytes", "clone_bytes"), ("µs/clone", "clone_us")]
    lines += speed_table(rows["density"], lead, "draws", tail) + [""]
    lines += ["### 1b. 12 warriors on every board (only the board grows)", ""]
    lines += speed_table(rows["fixed"], lead, "draws", tail) + [""]
    lines += [f"Note: {x}" for x in dict.fromkeys(notes)]
    return lines


def section_players(cfg: Config) -> list[str]:
    lines = ["## 2. Player count", "",
             f"Best of {cfg.repeats} passes; games per row: --games × {GAME_WEIGHT} (at least {MIN_GAMES}). "
             "Growth factors relative to each game's first row.", ""]
    for key, counts in PLAYER_ROWS:
        try:
            game = rulelang.load(str(FILES[key]))
        except Exception as err:
            lines += [f"### {key}", "", f"**not measured:** {type(err).__name__}: {err}", ""]
            continue
        rows = measure([Spec(f"{p}", game, p, cfg.games_for(key), {"players": p})
                        for p in counts if game.min_players <= p <= game.max_players], cfg)
        lines += [f"### {game.name} ({FILES[key].relative_to(ROOT)})", ""]
        lines += speed_table(rows, [("players", "players")]) + [""]
    return lines


def section_hands(cfg: Config) -> list[str]:
    source = FILES["regicide"]
    text = source.read_text(encoding="utf-8")
    games = cfg.games_for("regicide")
    variants = [("hands ×1 (as written)", 1.0, False), ("hands ×1.5", 1.5, False), ("hands ×2", 2.0, False),
                ("double deck", 1.0, True), ("hands ×2, double deck", 2.0, True)]
    lines = ["## 3. Hand and deck size: Regicide", "",
             f"`table hand_size {{ 1: 8, 2: 7, 3: 6, 4: 5 }}` scaled (rounded half up); *double deck*: every number "
             f"card twice (`repeat 2` in the set-up's creation loop: 80 number cards, the court and Jesters "
             f"unchanged), which keeps a tavern to draw from when hands are large (with hands ×2 and 4 players, "
             f"a single deck leaves 2 cards in the tavern after the deal). {games} games per row, best of "
             f"{cfg.repeats} passes; growth factors relative to the first row of each table. `play` is a subset "
             f"of 1–4 cards of the hand, so the candidates grow like C(hand, 4).", ""]
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rulelang-scaling-") as tmp:
        built = []
        for k, (name, factor, double) in enumerate(variants):
            try:
                variant, hands = regicide_variant(text, factor, double, notes)
                built.append((name, hands, double, write_variant(Path(tmp), source, variant, f"regicide_{k}.rules")))
            except (VariantError, OSError) as err:
                built.append((name, None, double, err))
        checked = lint([b[3] for b in built if isinstance(b[3], Path)])
        loaded = []
        for name, hands, double, path in built:
            status = checked.get(str(path), "") if isinstance(path, Path) else ""
            if not isinstance(path, Path):
                loaded.append((name, hands, double, status, f"cannot be made: {path}"))
            elif not status.startswith(("clean", "warning")):
                loaded.append((name, hands, double, status, f"lint: {status}"))
            else:
                try:
                    loaded.append((name, hands, double, status, rulelang.load(str(path))))
                except Exception as err:
                    loaded.append((name, hands, double, status, f"does not load: {err}"))
        for p in HAND_PLAYERS:
            specs = []
            for name, hands, double, status, game in loaded:
                extra = {"variant": name, "hand": hands[p] if hands else "?", "deck": 80 if double else 40,
                         "lint": status}
                if isinstance(game, str):
                    specs.append(Row(name, extra=extra, error=game))
                else:
                    specs.append(Spec(name, game, p, games, extra))
            rows = measure(specs, cfg)
            lines += [f"### Regicide, {p} player{'s' if p > 1 else ''}", ""]
            lines += speed_table(rows, [("variant", "variant"), ("hand", "hand"), ("number cards", "deck"),
                                        ("lint", "lint")], "wins") + [""]
    lines += [f"Note: {x}" for x in dict.fromkeys(notes)]
    return lines


# ---------------------------------------------------------------- memory

def _rss() -> tuple[int, str]:
    """The resident set size now in bytes (/proc/self/statm); where there is no /proc, the peak
    resident set size (resource.getrusage), which only grows."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE"), "RSS"
    except (OSError, ValueError, IndexError):
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return (peak if sys.platform == "darwin" else peak * 1024), "peak RSS"


_allocated = bench._allocated                  # bytes still allocated by what make() returns (tracemalloc)


def mid_game(game, players: int, seed: int, samples: int) -> tuple[list, int, int]:
    """Clones of the states at `samples` evenly spaced points of the middle half of the game of
    `seed`, the index of the middle one's action number, and the game's length."""
    n = playout(game, players, seed)
    k = max(2, samples)
    steps = sorted({round(n * (0.25 + 0.5 * i / (k - 1))) for i in range(k)})
    m = game.new_match(players, seed, None)
    choice = random.Random(POLICY_SEED + seed).choice
    states = []
    for step in range(steps[-1] + 1):
        if step in steps:
            states.append(m.clone())
        if m.is_over:
            break
        m.apply(choice(m.legal_actions()))
    return states, steps[len(states) // 2], n


def keep_clones(mid, count: int, seed: int, traced: bool) -> dict:
    """`count` clones of `mid` kept alive, then each advanced by one random action (a search's
    first step below the root): the memory they hold after each stage, by tracemalloc (`traced`)
    or by the resident set size, and the seconds each stage took."""
    choice = random.Random(POLICY_SEED + seed).choice
    gc.collect()
    if traced:
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
    else:
        base, how = _rss()
    start = time.perf_counter()
    kept = [mid.clone() for _ in range(count)]
    cloned = time.perf_counter() - start
    after_clones = tracemalloc.get_traced_memory()[0] if traced else _rss()[0]
    start = time.perf_counter()
    for c in kept:
        if not c.is_over:
            c.apply(choice(c.legal_actions()))
    advanced = time.perf_counter() - start
    if traced:
        now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    else:
        now, peak = _rss()[0], None
    del kept
    gc.collect()
    return {"clones": after_clones - base, "advanced": now - base, "peak": None if peak is None else peak - base,
            "clone_s": cloned, "advance_s": advanced, "how": "traced" if traced else how}


def rss_in_subprocess(key: str, players: int, cfg: Config) -> dict | None:
    """keep_clones(traced=False) in a fresh process (this one's freed memory would be reused and
    hide growth): the script run with the hidden --rss-probe argument. None if it fails."""
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--rss-probe",
                           f"{key}:{players}:{cfg.clones}:{cfg.seed}:{cfg.samples}"],
                          capture_output=True, text=True, cwd=ROOT)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return None


def rss_probe(spec: str) -> int:
    """The --rss-probe KEY:PLAYERS:CLONES:SEED:SAMPLES mode: print keep_clones' RSS figures as JSON."""
    key, players, count, seed, samples = spec.split(":")
    game = rulelang.load(str(FILES[key]))
    states, _, _ = mid_game(game, int(players), int(seed), int(samples))
    mid = states[len(states) // 2]
    del states
    print(json.dumps(keep_clones(mid, int(count), int(seed), traced=False)))
    return 0


def _clone_cost(states: list, cfg: Config) -> tuple[float, float]:
    """Bytes one `clone()` allocates (mean over the states) and seconds per clone of the middle one."""
    tracemalloc.start()
    size = sum(_allocated(s.clone) for s in states) / len(states)
    tracemalloc.stop()
    mid = states[len(states) // 2]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(cfg.clone_calls):
            mid.clone()
        best = min(best, (time.perf_counter() - start) / cfg.clone_calls)
    return size, best


def clone_figures(game, players: int, cfg: Config) -> dict:
    """Bytes one `clone()` allocates (mean over mid-game samples) and µs per clone, as text cells."""
    states, _, _ = mid_game(game, players, cfg.seed, cfg.samples)
    size, best = _clone_cost(states, cfg)
    return {"clone_bytes": f"{size:,.0f}", "clone_us": f"{best * 1e6:.1f}"}


def memory_row(key: str, game, players: int, cfg: Config, rss: bool) -> dict:
    """The state-size figures of one game at one player count (see the module docstring)."""
    states, turn, n = mid_game(game, players, cfg.seed, cfg.samples)
    mid = states[len(states) // 2]
    json_len = sum(len(json.dumps(s.state())) for s in states) / len(states)
    clone_bytes, best = _clone_cost(states, cfg)
    traced = keep_clones(mid, cfg.clones, cfg.seed, traced=True)
    resident = rss_in_subprocess(key, players, cfg) if rss else None
    return {"game": game.name, "players": players, "turn": f"{turn} of {n}", "clone_bytes": clone_bytes,
            "clone_us": best * 1e6, "json": json_len, "traced": traced, "rss": resident}


def section_memory(cfg: Config) -> list[str]:
    rss = cfg.rss
    scale = 10_000 / cfg.clones
    mb = 1024 * 1024 / scale                   # bytes of `cfg.clones` clones -> MB of 10,000
    lines = ["## 4. Memory per state and clone cost", "",
             f"States sampled in the middle half of the game of seed {cfg.seed} ({cfg.samples} samples; *turn*: "
             "the middle sample's action number, of the game's length). *clone bytes*: what one `clone()` "
             "allocates (tracemalloc), mean over the samples; *µs/clone*: the middle sample; *JSON chars*: mean "
             "`len(json.dumps(state()))`. The 10,000-clone test keeps "
             f"{cfg.clones:,} clones of the middle sample alive"
             + (f" (figures ×{scale:g}: projected to 10,000)" if scale != 1 else "")
             + ", then applies one random action to each. *traced*: tracemalloc's count after the clones, after "
             "the actions, and its peak; *RSS Δ*: the growth of the resident set in a fresh process, without "
             "tracemalloc" + (" (not measured with --quick)" if not rss else "")
             + f"; *s to clone/advance 10k*: the times of that run. *< {LIMIT_MB} MB*: the largest of these after "
             "the actions.", ""]
    head = ["game", "players", "turn", "clone bytes", "µs/clone", "JSON chars", "traced MB: 10k clones",
            "+1 action each", "peak", "RSS Δ MB: 10k clones", "+1 action each", "s to clone 10k",
            "s to advance 10k", f"< {LIMIT_MB} MB"]
    lines += ["| " + " | ".join(head) + " |", "|---|---:|---:|" + "|".join(["---:"] * (len(head) - 4)) + "|---|"]
    notes = set()
    for key in FILES:
        try:
            game = rulelang.load(str(FILES[key]))
        except Exception as err:
            lines.append(f"| {key} | **not measured:** {type(err).__name__}: {err} |" + " |" * (len(head) - 2))
            continue
        for p in sorted({game.min_players, game.max_players}):
            try:
                r = memory_row(key, game, p, cfg, rss)
            except Exception as err:
                lines.append(f"| {game.name} | {p} | **not measured:** {type(err).__name__}: {err} |"
                             + " |" * (len(head) - 3))
                continue
            t, s = r["traced"], r["rss"]
            if rss and s is None:
                notes.add("the RSS probe failed for some rows (n/a)")
            elif s and s["how"] != "RSS":
                notes.add("no /proc: the RSS columns are the growth of the peak RSS (getrusage)")
            worst = max(t["advanced"], s["advanced"] if s else 0) / mb
            lines.append("| " + " | ".join([
                r["game"], str(p), r["turn"], f"{r['clone_bytes']:,.0f}", f"{r['clone_us']:.1f}", f"{r['json']:,.0f}",
                f"{t['clones'] / mb:.1f}", f"{t['advanced'] / mb:.1f}", f"{t['peak'] / mb:.1f}",
                fmt(s and s["clones"] / mb), fmt(s and s["advanced"] / mb),
                fmt(s and s["clone_s"] * scale, ".2f"), fmt(s and s["advance_s"] * scale, ".2f"),
                "yes" if worst < LIMIT_MB else f"**no** ({worst:.0f} MB)"]) + " |")
    lines += [""] + [f"Note: {x}" for x in sorted(notes)]
    return lines + [""]


# ---------------------------------------------------------------- main

def engine_version() -> str:
    """A digest of rulelang's sources and the time of the newest one: the engine may be edited
    between runs, and figures are comparable only for the same sources."""
    import hashlib
    files = sorted(Path(rulelang.__file__).resolve().parent.rglob("*.py"))
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()[:12]
    newest = max(f.stat().st_mtime for f in files)
    return f"rulelang sources {digest} (newest file {time.strftime('%Y-%m-%d %H:%M', time.localtime(newest))})"


def header(cfg: Config, argv: list[str], quick: bool) -> list[str]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return ["# rulelang scaling benchmark", "",
            f"`python benchmarks/scaling.py {' '.join(argv)}` — Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.system()} {platform.machine()}, "
            f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M')}"
            + (f", load average {load[0]:.2f} at the start" if load else "") + f"; {engine_version()}.",
            f"Uniform random bot `random.Random(10**6 + seed).choice`, match i seeded {cfg.seed} + i; "
            f"--games {cfg.games}, best of {cfg.repeats} passes" + (" (--quick)" if quick else "") + ". "
            "Timings are noisy on a shared machine (±10 % between runs, more on a bad pass): compare growth "
            "factors, not single figures.", ""]


def parse_args(argv: list[str]) -> tuple[Config, list[str], bool, str | None]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, help="games per row for Regicide; the other games play a fixed "
                        "fraction (Valgarð ½, Shadow Hunters 1/10, Smash Up 1/20, Dozen War 1/66). Default 400 "
                        "(--quick: 20)")
    parser.add_argument("--repeats", type=int, help="timed passes per row, the best kept (default 3; --quick: 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match of each row (default 0)")
    parser.add_argument("--clones", type=int, help="clones kept alive by the memory test (default 10000; "
                        "--quick: 300, figures projected to 10,000)")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated tables to print: {'|'.join(SECTIONS)} (default: all)")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: --games 20 --repeats 1 "
                        "--clones 300, fewer samples, no RSS figures")
    parser.add_argument("--rss-probe", help=argparse.SUPPRESS)     # internal: see rss_in_subprocess
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown or not only:
        parser.error(f"--only takes {'|'.join(SECTIONS)} (comma-separated), not {args.only!r}")
    cfg = Config(seed=args.seed)
    if args.quick:
        cfg.games, cfg.repeats, cfg.clones, cfg.samples, cfg.clone_calls, cfg.rss = 20, 1, 300, 3, 200, False
    if args.games is not None:
        cfg.games = args.games
    if args.repeats is not None:
        cfg.repeats = args.repeats
    if args.clones is not None:
        cfg.clones = args.clones
    if cfg.games < 1 or cfg.repeats < 1 or cfg.clones < 1:
        parser.error("--games, --repeats and --clones must be at least 1")
    return cfg, only, args.quick, args.rss_probe


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cfg, only, quick, probe = parse_args(argv)
    if probe:
        return rss_probe(probe)
    print("\n".join(header(cfg, argv, quick)), flush=True)
    sections = {"board": section_board, "players": section_players, "hands": section_hands,
                "memory": section_memory}
    for name in SECTIONS:
        if name in only:
            start = time.perf_counter()
            lines = sections[name](cfg)
            lines.append(f"({name}: {time.perf_counter() - start:.0f} s)")
            print("\n".join(lines) + "\n", flush=True)
    if hasattr(os, "getloadavg"):
        print(f"Load average at the end: {os.getloadavg()[0]:.2f}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
