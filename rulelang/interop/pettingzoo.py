"""A PettingZoo AEC environment for any rule file and player count (docs/interop.md).

    from rulelang.interop.pettingzoo import env
    e = env("game.rules", players=2)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        e.step(None if terminated or truncated else pick(obs["action_mask"]))

Agents are "P1".."Pn"; the agent to act is the rules' current player. An observation is
{"observation": float32 vector, "action_mask": int8 vector}; `observe_text(agent)` is the seat's
view as JSON, and the acting agent's info holds "legal_texts" (the action text of each index).
Rewards come at the end: +1 a win, -1 a loss, 0 a draw (co-operative rules: everyone the same).
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from .core import (MAX_STEPS, Interface, _short, action_index, checked_count, need, no_reset_options,
                   render_mode_checked, started, whole_seed)
SECRET_SEED_BITS = 62             # a drawn match seed: one of 2^62, as rulelang.secret_seed draws

need("pettingzoo", "pettingzoo")
gymnasium = need("gymnasium", "pettingzoo")
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402

import numpy as np  # noqa: E402


def env(game, players: int | None = None, options: dict | None = None, **kwargs) -> "RulelangEnv":
    """The AEC environment of a rule file (or a loaded Game); see RulelangEnv for the keywords."""
    return RulelangEnv(game, players=players, options=options, **kwargs)


class RulelangEnv(AECEnv):
    """One match at a time; `reset(seed=s)` starts the match the engine seeds with s.

    Keywords: `actions` ("auto", "text" or "index"; docs/interop.md), `action_cap` (index space
    size), `universe_cap` (most texts of a text space), `max_steps` (truncate every agent after this many actions; default 10,000, None: play to the end),
    `render_mode` (None or "ansi": the acting seat's view as text)."""

    metadata = {"render_modes": ["ansi"], "name": "rulelang_v0", "is_parallelizable": False}

    def __init__(self, game, players: int | None = None, options: dict | None = None, actions: str = "auto",
                 action_cap: int | None = None, universe_cap: int | None = None, max_steps: int | None = MAX_STEPS,
                 render_mode: str | None = None):
        super().__init__()
        _set_up(self, game, players, options, actions, action_cap, universe_cap, max_steps)
        self.render_mode = render_mode_checked(render_mode)
        self._legal: list = []

    # -- spaces
    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # -- the episode
    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new match: seeded `seed`, or (no seed) the next seed of this env's own generator,
        itself seeded by the last seed given. The rules' options are the constructor's."""
        no_reset_options(options)
        _new_match(self, seed)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self._after_move()

    def _after_move(self):
        """Select the agent to act, list its actions, and end the episode if the match is over."""
        m = self.match
        if m.is_over:
            for a, r in zip(self.possible_agents, self.interface.rewards(m)):
                if a in self.agents:
                    self.rewards[a] = r
                    self.terminations[a] = True
                    self.infos[a] = {"outcome": m.outcome}
            self._legal = []
            self.agent_selection = self.agents[0] if self.agents else None
            return
        self._legal = self.interface.legal(m)
        self.agent_selection = self.possible_agents[m.current_player]
        self.infos[self.agent_selection] = {"legal_texts": [str(a) for _, a in self._legal]}
        if self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {}                # (no legal texts: nobody acts again)

    def observe(self, agent):
        started(self)
        # the mask is the seat's own while it is to act, else all zero — after a truncation the
        # dead steps move `agent_selection` on, and another seat got the actor's mask (a
        # researcher's trial: how many options the opponent had)
        seat = self.agent_seat[agent]
        live = not self.match.is_over and not self.truncations.get(agent) and seat == self.match.current_player
        legal = self._legal if live else []
        return {"observation": self.interface.observe(self.match, seat),
                "action_mask": self.interface.actions.mask(legal)}

    def last(self, observe: bool = True):
        started(self)
        return super().last(observe)

    def observe_text(self, agent) -> str:
        """What the agent's seat sees, as JSON (`Match.view`, sorted keys)."""
        started(self)
        return self.interface.view_text(self.match, self.agent_seat[agent])

    def action_text(self, index: int) -> str | None:
        """The action text an index stands for now (for the agent to act), or None."""
        return next((str(a) for i, a in self._legal if i == index), None)

    def step(self, action):
        started(self)
        agent = self.agent_selection
        if agent not in self.terminations:      # (every agent done and removed: a bare KeyError 'P1' — a
            raise ValueError("the episode is over: call reset()")   # researcher's trial)
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = action_index(action)
        found = next((a for i, a in self._legal if i == index), None)
        if found is None:
            raise ValueError(f"action {action} is not legal for {agent} now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for a in self.agents:
            self.infos[a] = {}
        self.match.apply(found)
        self.steps += 1
        self._after_move()
        self._accumulate_rewards()

    def render(self):
        return _rendered(self)

    def close(self):
        pass


def parallel_env(game, players: int | None = None, options: dict | None = None,
                 **kwargs) -> "RulelangParallelEnv":
    """The parallel environment of a rule file (or a loaded Game); see RulelangParallelEnv."""
    return RulelangParallelEnv(game, players=players, options=options, **kwargs)


class RulelangParallelEnv(ParallelEnv):
    """PettingZoo's parallel API: in one `step`, every agent that may act now acts. At a
    simultaneous step (`step NAME simultaneous`) that is every player still to answer — their
    answers are committed together and revealed together; anywhere else it is the one player to
    act (the rules' current player). The others get an all-zero mask, and their entry in the
    actions given to `step` is ignored (None will do). Observations, `observe_text`, rewards and
    keywords (`actions`, `action_cap`, `universe_cap`, `max_steps`) are those of the AEC `env`;
    each acting agent's info has "legal_texts"."""

    metadata = {"render_modes": ["ansi"], "name": "rulelang_parallel_v0"}

    def __init__(self, game, players: int | None = None, options: dict | None = None, actions: str = "auto",
                 action_cap: int | None = None, universe_cap: int | None = None, max_steps: int | None = MAX_STEPS,
                 render_mode: str | None = None):
        _set_up(self, game, players, options, actions, action_cap, universe_cap, max_steps)
        self.render_mode = render_mode_checked(render_mode)
        self.agents: list = []
        self._legal: dict = {}

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        no_reset_options(options)
        _new_match(self, seed)
        self.steps = 0
        self._list()
        return self._observations(), self._infos()

    def _list(self) -> None:
        """Each agent's legal (index, action) pairs now: those who may act (see the class)."""
        m = self.match
        self._legal = {}
        if m.is_over:
            return
        for agent in self.possible_agents:
            acts = m.legal_actions_of(self.agent_seat[agent])
            if acts:
                self._legal[agent] = self.interface.actions.legal(m, acts)

    def acting(self) -> list[str]:
        """The agents whose actions the next `step` plays."""
        return list(self._legal)

    def _observations(self) -> dict:
        return {a: {"observation": self.interface.observe(self.match, self.agent_seat[a]),
                    "action_mask": self.interface.actions.mask(self._legal.get(a, []))} for a in self.agents}

    def _infos(self) -> dict:
        m = self.match
        if m.is_over:
            return {a: {"outcome": m.outcome} for a in self.agents}
        return {a: ({"legal_texts": [str(x) for _, x in self._legal[a]]} if a in self._legal else {})
                for a in self.agents}

    def observe_text(self, agent) -> str:
        started(self)
        return self.interface.view_text(self.match, self.agent_seat[agent])

    def step(self, actions: dict):
        started(self)
        if not isinstance(actions, Mapping):       # (a list: "'list' object has no attribute 'get'")
            raise ValueError(f"actions must be a mapping of agent name to action index, not {_short(actions)}")
        if not self.agents:                     # (the episode ended: nothing is played, as the AEC env)
            return {}, {}, {}, {}, {}
        chosen = []
        for agent, legal in self._legal.items():
            index = actions.get(agent)
            if index is None:
                raise ValueError(f"no action for {agent}, who is to answer now")
            number = action_index(index)
            found = next((a for i, a in legal if i == number), None)
            if found is None:
                raise ValueError(f"action {index} is not legal for {agent} now (see the action mask)")
            chosen.append((self.agent_seat[agent], found))
        for seat, found in chosen:              # (answers to a simultaneous step: the last reveals them all)
            self.match.apply(found, seat=seat)
        self.steps += 1
        m = self.match
        agents = list(self.agents)
        self._list()
        over = m.is_over
        truncated = not over and self.max_steps is not None and self.steps >= self.max_steps
        if truncated:                           # (cut: no one is to act — zero masks, as the AEC env's)
            self._legal = {}
        observations, infos = self._observations(), self._infos()
        rewards = dict(zip(self.possible_agents, self.interface.rewards(m))) if over else {}
        out = (observations, {a: rewards.get(a, 0.0) for a in agents}, {a: over for a in agents},
               {a: truncated for a in agents}, infos)
        if over or truncated:
            self.agents = []
        return out

    def render(self):
        return _rendered(self)

    def close(self):
        pass


def _rendered(env) -> str | None:
    """`render()` with `render_mode="ansi"`: the acting seat's view as the terminal draws it (the
    board, the zones, the values — words a person reads; the JSON is `observe_text`)."""
    from ..play.render import render_view
    if env.render_mode != "ansi" or env.match is None:
        return None
    seat = env.match.current_player
    return render_view(env.match.view(0 if seat is None else seat), 100)


def _set_up(env, game, players, options, actions, action_cap, universe_cap, max_steps) -> None:
    """What both environments (turn by turn, and parallel) hold: the interface, the agents, the spaces."""
    kw = {k: v for k, v in (("action_cap", action_cap), ("universe_cap", universe_cap)) if v is not None}
    env.interface = Interface(game, players, options, actions=actions, **kw)
    env.players = env.interface.players
    env.max_steps = checked_count("max_steps", max_steps, none_ok=True)
    env.possible_agents = [f"P{i + 1}" for i in range(env.players)]
    env.agent_seat = {a: i for i, a in enumerate(env.possible_agents)}
    env.metadata = dict(env.metadata, name=env.interface.game.name)
    n, size = env.interface.observation_size, env.interface.actions.size
    env._obs_space = spaces.Dict({
        "observation": spaces.Box(-1e9, 1e9, (n,), np.float32),
        "action_mask": spaces.Box(0, 1, (size,), np.int8)})
    env._act_space = spaces.Discrete(size)
    env._seeds = random.Random()
    env.match = None


def _new_match(env, seed: int | None) -> None:
    """A new match for either environment: seeded `seed`, or (no seed) the next seed of the env's
    own generator, itself seeded by the last seed given; every agent in it."""
    seed = whole_seed(seed)
    if seed is not None:
        env._seeds.seed(seed)
        match_seed = seed
    else:
        match_seed = env._seeds.getrandbits(SECRET_SEED_BITS)    # (31 bits: a learner found the seed by trying them all)
    env.seed_used = match_seed
    env.match = env.interface.new_match(match_seed)
    env.agents = list(env.possible_agents)
