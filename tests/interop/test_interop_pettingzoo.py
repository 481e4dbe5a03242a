"""The PettingZoo AEC environment: PettingZoo's own API and seed tests on every game, and what
the environment promises on top (rewards from the outcome, seeds that replay, texts)."""
from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from interop_helpers import GAMES, game  # noqa: E402
from rulelang.interop.pettingzoo import env  # noqa: E402

IDS = [name for name, _ in GAMES]
# (the library's own checks pass a `reset(options=…)` of theirs, which the envs say they do not read)
pytestmark = pytest.mark.filterwarnings("ignore:reset\\(options=…\\) is not read")


@pytest.mark.parametrize("name,players", GAMES, ids=IDS)
def test_pettingzoo_api_test(name, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # (it recommends "player_0" names; ours are P1..Pn)
        api_test(env(game(name), players=players), num_cycles=25)


@pytest.mark.parametrize("name,players", GAMES, ids=IDS)
def test_pettingzoo_seed_test(name, players):
    seed_test(lambda: env(game(name), players=players), num_cycles=15)


def play(e, seed: int, policy_seed: int, limit: int = 10_000) -> list:
    """A whole episode with a seeded random policy that follows the mask: its trajectory."""
    e.reset(seed=seed)
    rng = random.Random(policy_seed)
    trace = []
    for agent in e.agent_iter(limit):
        obs, reward, term, trunc, info = e.last()
        trace.append((agent, obs["observation"].tobytes(), reward, term, trunc))
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["legal_texts"])
        e.step(int(rng.choice(list(legal))))
    return trace


@pytest.mark.parametrize("name,players", [("valgard", 2), ("regicide", 2)])
def test_reset_with_a_seed_replays_the_match_and_rewards_follow_the_outcome(name, players):
    e = env(game(name), players=players)
    first = play(e, seed=11, policy_seed=3)
    outcome = e.match.outcome
    assert outcome is not None and not e.agents                 # played to the end; everyone removed
    assert play(e, seed=11, policy_seed=3) == first
    finals = {agent: r for agent, _, r, term, _ in first if term}
    expected = {"win": 1.0, "lose": -1.0, "draw": 0.0}
    assert finals == {f"P{p + 1}": expected[r] for p, r in enumerate(outcome["results"])}
    if e.interface.facts["chance"]:                              # (Valgard has none: the seed changes nothing)
        assert play(e, seed=12, policy_seed=3) != first
    assert e.interface.facts["chance"] == (name == "regicide")


def test_a_cooperative_game_pays_everyone_the_same():
    e = env(game("regicide"), players=2)
    play(e, seed=5, policy_seed=1)
    results = e.match.outcome["results"]
    assert len(set(results)) == 1
    assert e.interface.facts["utility"] == "identical"


def test_the_text_of_a_view_and_of_the_legal_actions():
    e = env(game("smash_up"), players=2)
    e.reset(seed=4)
    agent = e.agent_selection
    seat = int(agent[1:]) - 1
    assert json.loads(e.observe_text(agent)) == json.loads(json.dumps(e.match.view(seat)))
    texts = e.infos[agent]["legal_texts"]
    assert texts == sorted(str(a) for a in e.match.legal_actions())     # index space: sorted texts
    mask = e.observe(agent)["action_mask"]
    assert list(np.flatnonzero(mask)) == list(range(len(texts)))
    assert e.action_text(0) == texts[0]
    other = "P2" if agent == "P1" else "P1"
    assert not e.observe(other)["action_mask"].any()                     # not their turn: nothing legal


def test_an_illegal_action_is_refused_and_max_steps_truncates():
    e = env(game("valgard"), players=2, max_steps=3)
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(ValueError):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    for _ in range(3):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())


def test_a_step_once_every_agent_is_done_says_the_episode_is_over():
    """A researcher's trial: it was a bare `KeyError: 'P1'`."""
    e = env(game("valgard"), players=2, max_steps=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, _, done, cut, _ = e.last()
        e.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[-1]))
    assert not e.agents
    with pytest.raises(ValueError, match="the episode is over: call reset"):
        e.step(0)


def test_after_a_truncation_no_seat_gets_anothers_mask():
    """A researcher's trial: once `max_steps` truncated the game, the dead steps moved the
    selection on and the other seat read the actor's mask (how many options it had) and its
    legal texts. Nobody acts again: every mask is all zero."""
    e = env(game("valgard"), players=2, max_steps=5)
    e.reset(seed=1)
    seen = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            seen.append((agent, int(obs["action_mask"].sum()), "legal_texts" in info))
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(a for a, _, _ in seen) == ["P1", "P2"] and all(k == 0 and not t for _, k, t in seen), seen


def test_after_a_truncation_the_parallel_env_has_no_one_to_act_and_plays_nothing():
    """A researcher's trial: once `max_steps` cut a parallel episode (agents == []), P2's mask still
    showed 10 actions, `acting()` still named P2, and a further step played on the match."""
    from rulelang.interop.pettingzoo import parallel_env
    pe = parallel_env(game("smash_up"), players=2, max_steps=5)
    obs, _ = pe.reset(seed=1)
    while pe.agents:
        obs, _, _, truncations, infos = pe.step(
            {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in pe.acting()})
    assert all(truncations.values()) and pe.acting() == []
    assert all(o["action_mask"].sum() == 0 for o in obs.values()) and all(i == {} for i in infos.values())
    played = len(pe.match.log)
    assert pe.step({"P2": 0}) == ({}, {}, {}, {}, {}) and len(pe.match.log) == played


def test_render_draws_the_acting_seats_view_as_the_terminal_does_in_both_environments():
    """A researcher's trial: `render()` gave the JSON of `observe_text` (the board one escaped
    line), and the parallel environment refused `render_mode` though its keywords are the AEC one's."""
    from rulelang.interop.gymnasium import SingleAgentEnv
    from rulelang.interop.pettingzoo import parallel_env
    from rulelang.play.render import render_view
    e = env(game("valgard"), players=2, render_mode="ansi")
    e.reset(seed=0)
    drawn = e.render()
    assert drawn == render_view(e.match.view(e.match.current_player), 100) and "\n" in drawn
    assert not drawn.startswith("{")
    p = parallel_env(game("valgard"), players=2, render_mode="ansi")
    p.reset(seed=0)
    assert p.render() == drawn
    g = SingleAgentEnv(game("valgard"), players=2, render_mode="ansi")
    g.reset(seed=0)
    assert g.render() == render_view(g.match.view(0), 100)


def test_reset_without_a_seed_follows_the_last_seed_given():
    a, b = env(game("regicide"), players=2), env(game("regicide"), players=2)
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.seed_used == b.seed_used and a.match.state() == b.match.state()


def test_a_drawn_seed_is_one_of_2_to_the_62_as_the_terminal_draws():
    """A leak trial: a drawn seed of 31 bits was found by trying every seed against the first hand
    (about 20 CPU-minutes per core), and with it every hidden card and every draw to come."""
    from rulelang.interop.gymnasium import SingleAgentEnv
    drawn = []
    for _ in range(8):
        e = env(game("regicide"), players=2)
        e.reset()
        single = SingleAgentEnv(game("regicide"), players=2)
        single.reset()
        drawn += [e.seed_used, single.seed_used]
    assert all(0 <= s < 2 ** 62 for s in drawn) and max(drawn) >= 2 ** 40


def test_an_action_that_is_no_index_is_refused():
    """An API trial: step(1.9) played action 1; a NumPy integer is an index, a float is none."""
    e = env(game("valgard"), players=2)
    e.reset(seed=1)
    # (and says so: `0.0`, `'0'` were said to be "not legal (see the action mask)", an API trial)
    for wrong in (1.9, 0.0, "0", np.array([0.0]), None, True):
        with pytest.raises(TypeError, match="an action is given by its index, an integer"):
            e.step(wrong)
    assert e.match.log == []
    e.step(np.int64(0))
    e.step(np.array([0]))                         # (a vectorised policy's one action)
    assert len(e.match.log) == 2


def test_the_default_cap_truncates_and_a_numpy_seed_is_a_seed():
    """An API trial: no cap by default (an always-first policy never ends Smash Up), and
    `reset(seed=np.int64(5))` was Python's TypeError."""
    from rulelang.interop.core import MAX_STEPS
    e = env(game("valgard"), players=2)
    assert e.max_steps == MAX_STEPS
    e.reset(seed=np.int64(5))
    assert e.match.seed == 5 and type(e.match.seed) is int
    with pytest.raises(ValueError, match="the seed must be a whole number"):
        e.reset(seed=5.0)


def test_a_shipped_game_loads_by_its_name():
    """An API trial: `rulelang.load("valgard")` was "no such file", while the command line takes it."""
    import rulelang
    assert rulelang.load("valgard").fingerprint == game("valgard").fingerprint
    with pytest.raises(rulelang.RuleError, match="no such file: valgardd"):
        rulelang.load("valgardd")


def test_before_reset_every_call_says_so_and_a_wrong_argument_is_one_line():
    """A researcher's trial: before `reset()` the AEC env raised AttributeErrors from inside and the
    parallel env's `step` returned nothing; `render_mode="human"` was taken and rendered None;
    `options="hands=2"` and a list of actions got Python's own words."""
    from rulelang.interop.pettingzoo import parallel_env
    e, p = env(game("regicide"), players=2), parallel_env(game("regicide"), players=2)
    for call in (lambda: e.step(0), e.last, lambda: e.observe("P1"), lambda: e.observe_text("P1"),
                 lambda: p.step({"P1": 0}), lambda: p.observe_text("P1")):
        with pytest.raises(RuntimeError, match=r"^call reset\(\) first: there is no match yet$"):
            call()
    for make in (env, parallel_env):
        with pytest.raises(ValueError, match="render_mode must be None or 'ansi' .*not 'human'"):
            make(game("regicide"), players=2, render_mode="human")
        with pytest.raises(ValueError, match="options must be a mapping of option name to value, not 'hands=2'"):
            make(game("regicide"), players=2, options="hands=2")
    p.reset(seed=1)
    with pytest.raises(ValueError, match=r"actions must be a mapping of agent name to action index, not \[0\]"):
        p.step([0])


def test_an_interface_refuses_a_match_of_another_game_or_player_count():
    from rulelang.interop import Interface
    face = Interface(game("regicide"), 2)
    assert face.observe(game("regicide").new_match(2, 1), 0).shape == (face.observation_size,)
    for match in (game("regicide").new_match(3, 1), game("valgard").new_match(2, 1)):
        with pytest.raises(ValueError, match="this interface encodes Regicide for 2 players, not a match of"):
            face.observe(match, 0)
