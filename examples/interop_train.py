"""Train and evaluate simple agents on rule files through rulelang.interop (docs/interop.md).

1. OpenSpiel: OpenSpiel's own MCTS bot (UCT, random rollouts) against a uniformly random player
   on Valgard, seats alternating, through `rulelang.interop.openspiel`.
2. Gymnasium: a tabular Q-learner taught to play noughts and crosses (a 25-line rule file, below)
   against rulelang's random bot, through `rulelang.interop.gymnasium.SingleAgentEnv`; its greedy
   policy is evaluated before and after training on the same seeds.

    pip install 'rulelang[openspiel,gymnasium]'
    python examples/interop_train.py [--games 10] [--simulations 40] [--episodes 4000] [--seed 0]

Everything is seeded: the same arguments print the same figures (the timings aside).
"""
from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

import rulelang
from rulelang.interop import openspiel
from rulelang.interop.gymnasium import SingleAgentEnv

ROOT = Path(__file__).resolve().parent.parent

NOUGHTS = """
game "Noughts" {
  players 2..2
  board field: squares(3, 3), diagonal
  kind Mark {
    owner: player
    label if owner == 0 then "X" else "O"
  }
  zone stack: pile per cell of field, public, capacity 1
  zone box: pile per player, public
  def mine(c) = size(stack[c]) > 0 and top(stack[c]).owner == me
  def won_from(c) = any(size(line(c, d, 2)) == 2 and all(mine(x) for x in line(c, d, 2)) for d in directions(field))
  def won = any(mine(c) and won_from(c) for c in cells(field))
  def full = all(size(stack[x]) > 0 for x in cells(field))
  setup {
    for p in players {
      repeat 5 { create Mark(owner: p) in box[p] }
    }
  }
  turn {
    step s {
      action mark(c in cells(field)) require size(stack[c]) == 0 {
        move top(box[me]) to stack[c]
        if won { finish win for me }
        else if full { finish draw }
        else { end turn }
      }
    }
  }
}
"""


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a rate."""
    if n == 0:
        return 0.0, 0.0
    z, p = 1.96, wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def mcts_vs_random(games: int, simulations: int, seed: int) -> None:
    from open_spiel.python.algorithms import mcts
    game = openspiel.load(ROOT / "games" / "valgard.rules")
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    tally = {"win": 0, "draw": 0, "lose": 0}
    moves, start = 0, time.perf_counter()
    for i in range(games):
        seat = i % 2                                   # the MCTS bot plays P1, then P2, ...
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                action = bot.step(state)
            else:
                action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            moves += 1
        r = state.returns()[seat]
        tally["win" if r > 0 else "lose" if r < 0 else "draw"] += 1
    seconds = time.perf_counter() - start
    lo, hi = wilson(tally["win"], games)
    print(f"[OpenSpiel] {game.get_type().short_name}: MCTS ({simulations} simulations, random rollouts) "
          f"vs uniform random, {games} games, seats alternating")
    print(f"  MCTS wins {tally['win']}, draws {tally['draw']}, loses {tally['lose']}: "
          f"win rate {tally['win'] / games:.0%} (95% interval {lo:.0%}-{hi:.0%}); "
          f"{moves} moves in {seconds:.1f} s")


def greedy(q: dict, key: bytes, mask: np.ndarray, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    values = q[key]
    best = max(values[a] for a in legal)
    return rng.choice([int(a) for a in legal if values[a] == best])


def evaluate(env, q: dict, seeds) -> dict:
    """The greedy policy's results against the bot, one game per seed."""
    tally = {"win": 0, "draw": 0, "lose": 0}
    rng = random.Random(0)
    for s in seeds:
        obs, _ = env.reset(seed=s)
        done, reward = False, 0.0
        while not done:
            action = greedy(q, obs["observation"].tobytes(), obs["action_mask"], rng)
            obs, reward, term, trunc, _ = env.step(action)
            done = term or trunc
        tally["win" if reward > 0 else "lose" if reward < 0 else "draw"] += 1
    return tally


def q_learning(episodes: int, seed: int) -> None:
    game = rulelang.Game(rulelang.compile_source(NOUGHTS, "noughts.rules"), "noughts.rules")
    env = SingleAgentEnv(game, seat=0, opponents="random")
    size = env.action_space.n
    q: dict = defaultdict(lambda: np.zeros(size))
    rng = random.Random(seed)
    alpha, gamma = 0.3, 0.95
    test_seeds = range(10_000, 10_300)
    before = evaluate(env, q, test_seeds)
    start = time.perf_counter()
    for episode in range(episodes):
        epsilon = max(0.05, 1.0 - episode / (0.6 * episodes))
        obs, _ = env.reset(seed=seed * 1_000_003 + episode)
        done = False
        while not done:
            key, mask = obs["observation"].tobytes(), obs["action_mask"]
            if rng.random() < epsilon:
                action = rng.choice([int(a) for a in np.flatnonzero(mask)])
            else:
                action = greedy(q, key, mask, rng)
            obs, reward, term, trunc, _ = env.step(action)
            done = term or trunc
            target = reward
            if not done:
                nxt = q[obs["observation"].tobytes()]
                target += gamma * max(nxt[a] for a in np.flatnonzero(obs["action_mask"]))
            q[key][action] += alpha * (target - q[key][action])
    seconds = time.perf_counter() - start
    after = evaluate(env, q, test_seeds)
    n = len(test_seeds)
    print(f"[Gymnasium] Noughts, tabular Q-learning as P1 against rulelang's random bot "
          f"({env.interface.actions.mode} action space of {size}; {env.interface.observation_size} observation values)")
    print(f"  trained {episodes} episodes in {seconds:.1f} s; {len(q)} positions in the table")
    for label, t in (("before training", before), ("after training ", after)):
        lo, hi = wilson(t["win"], n)
        print(f"  {label}: {n} games: wins {t['win']}, draws {t['draw']}, losses {t['lose']} "
              f"(win rate {t['win'] / n:.0%}, 95% interval {lo:.0%}-{hi:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="Valgard games of MCTS against random")
    parser.add_argument("--simulations", type=int, default=40, help="MCTS simulations per move")
    parser.add_argument("--episodes", type=int, default=4000, help="Q-learning episodes on noughts")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    mcts_vs_random(args.games, args.simulations, args.seed)
    q_learning(args.episodes, args.seed)


if __name__ == "__main__":
    main()
