"""The replay contract, checked over seeded random games (docs/engine.md, "The replay contract").

With `rulelang.engine.support.CHECK_REPLAY` on, every answered chain is replayed once more from its base,
and every stretch of actions once more from its checkpoint, and each must reach exactly the same
position; any state living outside what a replay restores is an EngineFault. This plays random
games of the five games and of every lint-clean corpus file with the check on.

    python tests/replay_sweep.py [--games N]      # N games of each (default 200); prints figures
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACTION_LIMIT = 3_000          # actions of one game before it is left unfinished

GAMES = [("games/regicide.rules", p, None) for p in (1, 2, 3, 4)] + [
    ("games/valgard.rules", 2, None), ("games/valgard.rules", 2, {"hardcore": True}),
    ("games/shadow_hunters.rules", 4, None), ("games/shadow_hunters.rules", 6, {"characters": "all"}),
    ("games/smash_up.rules", 2, None), ("games/smash_up.rules", 4, None),
    ("games/dozen_war.rules", 2, None), ("games/dozen_war.rules", 4, {"alliance": True}),
]


def sweep(game, players: int, games: int, options: dict | None = None, first_seed: int = 0) -> dict:
    """Play `games` seeded random games with the replay check on: how many games and actions
    were checked, and every violation (the check's message) found."""
    import rulelang
    from rulelang.engine import support as engine
    saved, engine.CHECK_REPLAY = engine.CHECK_REPLAY, True
    actions, violations, ran = 0, [], 0
    try:
        for seed in range(first_seed, first_seed + games):
            rng = random.Random(seed)
            try:
                m = game.new_match(players, seed=seed, options=options)
                for _ in range(ACTION_LIMIT):
                    if m.is_over:
                        break
                    m.apply(rng.choice(m.legal_actions()))
                    actions += 1
            except rulelang.EngineFault as fault:
                violations.append(f"seed {seed}: {fault}")
            except rulelang.RulelangError:       # a corpus file made to fail at run time
                pass
            ran += 1
    finally:
        engine.CHECK_REPLAY = saved
    return {"games": ran, "actions": actions, "violations": violations}


def corpus() -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    from traces import lint_clean_corpus
    return lint_clean_corpus()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    import rulelang
    total = 0
    for path, players, options in GAMES + [(p, None, None) for p in corpus()]:
        start = time.process_time()
        try:
            game = rulelang.load(path)
        except rulelang.RulelangError:
            continue
        found = sweep(game, players or game.min_players, args.games, options)
        total += len(found["violations"])
        print(f"{path} {players or game.min_players}p {options or ''}: {found['games']} games, "
              f"{found['actions']} actions, {len(found['violations'])} violations, "
              f"{time.process_time() - start:.1f} s CPU", flush=True)
        for v in found["violations"][:3]:
            print("   ", v)
    print(f"violations in all: {total}")
    sys.exit(1 if total else 0)
