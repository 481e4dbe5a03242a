"""A Gymnasium environment in which one seat learns and rulelang bots play the others.

    from rulelang.interop.gymnasium import SingleAgentEnv
    env = SingleAgentEnv("game.rules", seat=0, opponents="greedy")
    obs, info = env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(index)   # obs["action_mask"] says which are legal

The observation and action spaces are PettingZoo's (docs/interop.md). The opponents are bots of
rulelang/play/bots.py ("random", "greedy", "mcts:N", "ismcts:N"; one kind for all, or {seat: kind}),
each seeded from the match seed as `rulelang simulate` seeds them, so `reset(seed=s)` replays
exactly. The reward is the learning seat's result at the end: +1, -1 or 0.
"""
from __future__ import annotations

import operator
from collections.abc import Mapping

from ..core.textsafe import printable
from .core import (MAX_STEPS, Interface, action_index, checked_count, need, no_reset_options,
                   render_mode_checked, started, whole_seed)
SECRET_SEED_BITS = 62             # a drawn match seed: one of 2^62, as rulelang.secret_seed draws

gymnasium = need("gymnasium", "gymnasium")
from gymnasium import spaces  # noqa: E402

import numpy as np  # noqa: E402

from ..play.bots import IsmctsBot, MctsBot, bot_seed, make_bot, parse_kind  # noqa: E402


def _repeatable(kind: str) -> str:
    """A search bot named without a budget searches its default iterations with no CPU-time cap: a
    capped search depends on the machine's speed, and an episode must follow from its seed (a
    researcher's trial: two episodes of one seed parted at a bot's first pick)."""
    name, iterations, seconds = parse_kind(kind)
    if name in ("mcts", "ismcts") and iterations is None and seconds is None:
        return f"{name}:{(MctsBot if name == 'mcts' else IsmctsBot).DEFAULT_ITERATIONS}"
    return kind


class SingleAgentEnv(gymnasium.Env):
    """Keywords: `seat` (0-based), `opponents` (a bot kind, or {seat: kind} with "random" for the
    rest), `players`, `options`, `actions`/`action_cap`/`universe_cap` (as in the PettingZoo env), `max_steps`
    (truncate after this many of the learner's actions; default 10,000, None: play to the end), `illegal` ("lose": an action the mask
    forbids ends the episode with reward -1 and info["illegal_action"]; "raise": ValueError)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game, seat: int = 0, opponents="random", players: int | None = None,
                 options: dict | None = None, actions: str = "auto", action_cap: int | None = None,
                 universe_cap: int | None = None, max_steps: int | None = MAX_STEPS, illegal: str = "lose",
                 render_mode: str | None = None):
        kw = {k: v for k, v in (("action_cap", action_cap), ("universe_cap", universe_cap)) if v is not None}
        self.interface = Interface(game, players, options, actions=actions, **kw)
        n = self.interface.players
        given = seat
        try:                                    # (a whole number: `seat=1.0` failed only at reset — a fuzz trial)
            seat = operator.index(seat) if not isinstance(seat, bool) else None
        except TypeError:
            seat = None
        if seat is None or not 0 <= seat < n:
            raise ValueError(f"no seat {printable(repr(given))} in a {n}-player match: seats are 0..{n - 1}")
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        if not isinstance(opponents, Mapping):
            make_bot(opponents, 0)                  # (checked even in a one-player game)
        kinds = opponents if isinstance(opponents, Mapping) else {p: opponents for p in range(n) if p != seat}
        for p, kind in kinds.items():               # an unknown kind or seat: ValueError now
            make_bot(kind, 0)
            if p == seat or not (isinstance(p, int) and 0 <= p < n):
                raise ValueError(f"no opponent seat {p!r}: seats are 0..{n - 1} and {seat} learns")
        self.kinds = {p: _repeatable(kinds.get(p, "random")) for p in range(n) if p != seat}
        self.seat, self.illegal, self.render_mode = seat, illegal, render_mode_checked(render_mode)
        self.max_steps = checked_count("max_steps", max_steps, none_ok=True)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-1e9, 1e9, (self.interface.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.interface.actions.size,), np.int8)})
        self.action_space = spaces.Discrete(self.interface.actions.size)
        self.match = None
        self._legal: list = []

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new match seeded `seed` (no seed: drawn from the env's generator, which `seed` seeds).
        The rules' options are the constructor's: `options` here is not read (a warning says so)."""
        no_reset_options(options)
        seed = whole_seed(seed)
        super().reset(seed=seed)
        # (a drawn seed of 2^62: one of 2^31 was found by trying every seed against the hand dealt)
        match_seed = seed if seed is not None else int(self.np_random.integers(0, 2 ** SECRET_SEED_BITS))
        self.seed_used = match_seed
        self.seed_given = seed is not None      # (a drawn seed deals every hidden card: not told in info)
        self.match = self.interface.new_match(match_seed)
        self.bots = {p: make_bot(kind, bot_seed(match_seed, p)) for p, kind in self.kinds.items()}
        self.steps = 0
        self.truncated = False
        self._others()
        return self._obs(), self._info()

    def _others(self):
        """The bots play until it is the learner's turn or the match is over."""
        m = self.match
        while not m.is_over and m.current_player != self.seat:
            m.apply(self.bots[m.current_player].choose(m))
        self._legal = self.interface.legal(m)

    def _obs(self):
        return {"observation": self.interface.observe(self.match, self.seat),
                "action_mask": self.interface.actions.mask(self._legal)}

    def _info(self, **extra):
        info = {"legal_texts": [str(a) for _, a in self._legal], **extra}
        if self.seed_given:                     # (the learner's own seed: it knows it)
            info["seed"] = self.seed_used
        if self.match.is_over:
            info["outcome"] = self.match.outcome
        return info

    def action_masks(self):
        """The legal actions now as booleans (the convention of maskable-PPO implementations)."""
        started(self)
        return self.interface.actions.mask(self._legal).astype(bool)

    def observe_text(self) -> str:
        started(self)
        return self.interface.view_text(self.match, self.seat)

    def step(self, action):
        if self.match is None:
            raise RuntimeError("call reset() before step()")
        if self.match.is_over:                  # (the bots ended it before the learner's first turn)
            return self._obs(), self.interface.rewards(self.match)[self.seat], True, False, self._info()
        if self.truncated:                      # (cut short: the match stays where it was cut until
            return self._obs(), 0.0, False, True, self._info()      # reset — it played on: a researcher)
        index = action_index(action)
        found = next((a for i, a in self._legal if i == index), None)
        if found is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal now (see the action mask)")
            self._legal = []
            return self._obs(), -1.0, True, False, self._info(illegal_action=True)
        self.match.apply(found)
        self.steps += 1
        self._others()
        over = self.match.is_over
        reward = self.interface.rewards(self.match)[self.seat] if over else 0.0
        truncated = self.truncated = not over and self.max_steps is not None and self.steps >= self.max_steps
        if truncated:                           # (cut: nothing is legal any more — a zero mask, as the
            self._legal = []                    #  AEC env's; a researcher read 14 legal actions)
        return self._obs(), reward, over, truncated, self._info()

    def render(self):
        """With `render_mode="ansi"`: the learner's view as the terminal draws it (the JSON is
        `observe_text`)."""
        from ..play.render import render_view
        if self.render_mode == "ansi" and self.match is not None:
            return render_view(self.match.view(self.seat), 100)
        return None
