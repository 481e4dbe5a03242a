"""Figures for games/dozen_war.md, by random play through the public API (not a test):

    python tests/dozen_war/figures.py 4 100 [alliance] [random] [eager]

Plays G games with uniformly random actions (what `rulelang simulate --bot random` does; game i is
seeded i) — or, with `eager`, a crude greedy policy: dig, else attack, else a skill or a card, else
move (or end the turn, 1 time in 10), always answering a defence window when it can — and prints: actions per game, mean rounds, how games end (5 map pieces, score, last one
standing, or unfinished at the 20,000-action cap), win rate by seat and by the class of each player's
first general, playouts/s."""
from __future__ import annotations

import collections
import random
import sys
import time
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parents[2]


PRIORITY = ("dig", "attack", "siege", "skill", "equip", "hand over", "warp", "revive")


def pair(a) -> frozenset:
    """the two generals of a `hand over` action"""
    return frozenset(a.args.values())


def eager(actions, rng, handed=frozenset()):
    """`handed`: the pairs of generals that handed over map pieces this turn. No hand-over between
    them again: it would only undo the last (two generals passed their pieces back and forth until
    the action cap, and the game was never finished)."""
    texts = [a.text for a in actions]
    for word in PRIORITY:
        hits = [a for a in actions if a.text.startswith(word)
                and not (word == "hand over" and pair(a) in handed)]
        if hits:
            return rng.choice(hits)
    moves = [a for a in actions if a.text.startswith("move")]
    if moves and rng.random() < 0.9:
        return rng.choice(moves)
    if "end turn" in texts:
        return actions[texts.index("end turn")]
    answers = [a for a in actions if a.text != "pass"]      # a window or a choice: never pass
    return rng.choice(answers or actions)


class Eager:
    """The eager policy with its memory of the turn: `Eager(rng)(match)` is the action to play."""

    def __init__(self, rng):
        self.rng, self.turn, self.handed = rng, None, set()

    def __call__(self, m):
        if m.turn_count != self.turn:
            self.turn, self.handed = m.turn_count, set()
        a = eager(m.legal_actions(), self.rng, self.handed)
        if a.text.startswith("hand over"):
            self.handed.add(pair(a))
        return a


def ending(outcome) -> str:
    """How a game ended, by the start of its outcome's reason (the rule file's words): the score's
    reason, "the best score (then map pieces)", was read as a win by 5 map pieces."""
    reason = outcome["reason"] or ""
    return ("5 map pieces" if reason.startswith("5 map pieces") else "score" if reason.startswith("after the 7th event")
            else "last standing" if reason.startswith("every other player") else reason)


def main(players: int, games: int, alliance: bool, deal: str, policy: str = "random", cap: int = 20000) -> None:
    game = rulelang.load(str(ROOT / "games" / "dozen_war.rules"))
    opts = {"alliance": alliance, "generals": deal}
    ends, seat_wins, cls_games, cls_wins = collections.Counter(), collections.Counter(), collections.Counter(), collections.Counter()
    gen_games, gen_wins = collections.Counter(), collections.Counter()
    actions, rounds, t0 = [], [], time.time()
    unfinished = f"unfinished ({cap:,}-action cap)"
    for i in range(games):
        m = game.new_match(players, seed=i, options=opts)
        rng = random.Random(i)
        pick = Eager(rng) if policy == "eager" else (lambda m: rng.choice(m.legal_actions()))
        n = 0
        while not m.is_over and n < cap:
            m.apply(pick(m))
            n += 1
        st = m.state()
        actions.append(n)
        rounds.append(st["rounds"]["round"])
        if m.outcome is None:                    # (said, not a TypeError: a policy that loops)
            ends[unfinished] += 1
            continue
        ends[ending(m.outcome)] += 1
        comps = st["components"]
        for u, c in enumerate(comps):
            if c["kind"] == "Unit" and c["fields"]["general"] and any(
                    u in st["zones"]["fallen"][p] or u in st["vars"]["army"][p] for p in range(players)):
                owner = st["vars"]["player_of"][u]
                gen_games[c["label"]] += 1
                gen_wins[c["label"]] += m.outcome["results"][owner] == "win"
        for p, r in enumerate(m.outcome["results"]):
            lead = st["vars"]["lead"][p]
            cls_games[lead] += 1
            if r == "win":
                seat_wins[p] += 1
                cls_wins[lead] += 1
    dt = time.time() - t0
    print(f"{players} players{' alliance' if alliance else ''}, generals={deal}, {policy} play, {games} games")
    print(f"  actions/game mean {sum(actions)/games:.0f} (min {min(actions)}, max {max(actions)}); "
          f"mean rounds {sum(rounds)/games:.2f}")
    print("  ends: " + ", ".join(f"{k} {v}" for k, v in ends.most_common()))
    if ends[unfinished]:
        print("  (an unfinished game is in the win rates below as won by nobody)")
    print("  win rate by seat: " + ", ".join(f"P{p+1} {seat_wins[p]/games:.0%}" for p in range(players)))
    print("  win rate by first general's class: " + (", ".join(
        f"{c} {cls_wins[c]/cls_games[c]:.0%} ({cls_games[c]})" for c in sorted(cls_games)) or "none finished"))
    print("  win rate of the player holding each general: " + (", ".join(
        f"{g} {gen_wins[g]/gen_games[g]:.0%}" for g in sorted(gen_games, key=lambda g: -gen_wins[g] / gen_games[g]))
        or "none finished"))
    print(f"  {games/dt:.2f} playouts/s, {sum(actions)/dt:.0f} actions/s")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), "alliance" in sys.argv[3:], "random" if "random" in sys.argv[3:] else "draft",
         "eager" if "eager" in sys.argv[3:] else "random")
