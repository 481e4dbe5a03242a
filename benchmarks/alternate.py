"""Random-play actions per second, CPU time, of two (or more) checkouts run alternately.

    python benchmarks/alternate.py --tree /path/to/base --tree /path/to/now \
        --game shadow_hunters:4:40 --game smash_up:2:10 --game dozen_war:2:3 --runs 3

Each run is a separate process (`PYTHONPATH=TREE python`, run from /tmp so neither checkout's
current directory leaks in) that loads TREE/games/GAME.rules with TREE's own engine, plays one
untimed warm-up game, then `--repeats` timed passes over games 0..G-1 — `new_match(players,
seed)`, then `legal_actions()` + `random.Random(10**6 + seed).choice` + `apply()` until the match
is over, the protocol of `rulelang bench` — timed with `time.thread_time` (CPU of its own thread,
so other programs' load does not count). The trees take turns, the order reversed from one run to
the next, so a slow spell of a shared machine falls on both. Only the public API is used, so an old
checkout whose `rulelang bench` still measures wall-clock time can be measured beside a new one.
Prints, per game and tree, the best pass of each run (actions/s) and the median of those; and the
ratio of each later tree's median to the first's.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, random, sys, time
import rulelang
path, players, games, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = rulelang.load(path)

def one(seed):
    m = game.new_match(players, seed)
    choice = random.Random(10 ** 6 + seed).choice
    legal_actions, apply = m.legal_actions, m.apply
    n = 0
    while not m.is_over:
        apply(choice(legal_actions()))
        n += 1
    return n

one(games)                                   # warm-up, untimed (a seed outside the timed ones)
passes = []
for _ in range(repeats):
    t0 = time.thread_time()
    n = sum(one(s) for s in range(games))
    passes.append((n, time.thread_time() - t0))
print(json.dumps(passes))
"""


def run(tree: str, game: str, players: int, games: int, repeats: int, python: str) -> float:
    env = dict(os.environ, PYTHONPATH=tree)
    path = os.path.join(tree, "games", game + ".rules")
    out = subprocess.run([python, "-c", CHILD, path, str(players), str(games), str(repeats)],
                         env=env, cwd="/tmp", check=True, capture_output=True, text=True).stdout
    passes = json.loads(out.strip().splitlines()[-1])
    return max(n / s for n, s in passes)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", required=True, help="a checkout (its engine and games/)")
    ap.add_argument("--game", action="append", required=True, help="NAME:PLAYERS:GAMES")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args(argv)
    for spec in args.game:
        name, players, games = spec.split(":")
        best = {t: [] for t in args.tree}
        for r in range(args.runs):
            order = args.tree if r % 2 == 0 else list(reversed(args.tree))
            for tree in order:
                best[tree].append(run(tree, name, int(players), int(games), args.repeats, args.python))
        first = statistics.median(best[args.tree[0]])
        print(f"{name} {players}p, {games} games, {args.runs} runs x best of {args.repeats}:")
        for tree in args.tree:
            med = statistics.median(best[tree])
            runs = " · ".join(f"{x:,.0f}" for x in best[tree])
            print(f"  {tree}: {runs}  (median {med:,.0f}, {med / first:.2f}x)")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
