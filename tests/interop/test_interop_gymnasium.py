"""The Gymnasium single-agent wrapper: Gymnasium's env checker on every game, and the learner's
view of a match the bots play with it."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from interop_helpers import GAMES, game  # noqa: E402
from rulelang.interop.gymnasium import SingleAgentEnv  # noqa: E402


@pytest.mark.parametrize("name,players", GAMES, ids=[n for n, _ in GAMES])
def test_gymnasium_check_env(name, players):
    with warnings.catch_warnings():
        warnings.simplefilter("error")             # a warning of the checker is a failure here
        check_env(SingleAgentEnv(game(name), players=players), skip_render_check=True)


def episode(env, seed: int) -> tuple:
    """The first legal action every time: (observations, total reward, outcome)."""
    obs, info = env.reset(seed=seed)
    seen, total, done = [obs["observation"].tobytes()], 0.0, False
    while not done:
        assert obs["action_mask"].any() and env.match.current_player == env.seat
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        seen.append(obs["observation"].tobytes())
        total += reward
        done = term or trunc
    return seen, total, env.match.outcome


def test_the_bots_play_the_other_seats_and_a_seed_replays_the_episode():
    env = SingleAgentEnv(game("valgard"), seat=1, opponents="greedy")
    first = episode(env, 3)
    assert first == episode(env, 3)
    outcome = first[2]
    assert first[1] == {"win": 1.0, "lose": -1.0, "draw": 0.0}[outcome["results"][1]]
    assert env.kinds == {0: "greedy"}


def test_opponents_per_seat_and_unknown_bots():
    env = SingleAgentEnv(game("shadow_hunters"), players=4, seat=2, opponents={0: "greedy"})
    assert env.kinds == {0: "greedy", 1: "random", 3: "random"}
    with pytest.raises(ValueError, match="unknown bot kind"):
        SingleAgentEnv(game("regicide"), opponents="wizard")


def test_an_illegal_action_loses_or_raises():
    env = SingleAgentEnv(game("regicide"), players=1)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, info["illegal_action"]) == (-1.0, True, True)
    strict = SingleAgentEnv(game("regicide"), players=1, illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError):
        strict.step(illegal)
    assert strict.action_masks().dtype == bool and strict.action_masks().sum() == len(strict._legal)


def test_a_drawn_seed_is_not_told_to_the_learner():
    env = SingleAgentEnv(game("regicide"), players=2)
    _, info = env.reset(seed=5)
    assert info["seed"] == 5
    _, info = env.reset()                      # drawn: it would deal the other hand and the tavern
    assert "seed" not in info


def test_an_action_that_is_no_integer_is_a_type_error_not_an_illegal_move():
    """An API trial: `step(np.array([0.0]))` ended the episode with -1 as if an illegal move."""
    env = SingleAgentEnv(game("regicide"), players=1)
    obs, _ = env.reset(seed=2)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    for wrong in (float(legal), str(legal), np.array([float(legal)])):
        with pytest.raises(TypeError, match="an action is given by its index"):
            env.step(wrong)
    assert env.match.log == []
    env.step(np.array([legal]))                     # (one environment of a vectorised policy)
    assert len(env.match.log) == 1


def test_seeds_are_whole_numbers_numpy_ones_too():
    """An API trial: `reset(seed=np.int64(5))` failed inside Gymnasium and `random`; a float seed
    made a match whose own state() could not be restored."""
    env = SingleAgentEnv(game("regicide"), players=2)
    _, info = env.reset(seed=np.int64(5))
    first = env.match.state()
    env.reset(seed=5)
    assert info["seed"] == 5 and env.match.state() == first
    for wrong in (5.0, "5", True):
        with pytest.raises(ValueError, match="the seed must be a whole number"):
            env.reset(seed=wrong)
        with pytest.raises(ValueError, match="the seed must be a whole number"):
            game("regicide").new_match(2, wrong)


def test_an_episode_that_never_ends_is_truncated_by_default():
    """An API trial: a learner always taking the first legal action never ends a Smash Up game; the
    episode ran 271,000 actions until every step failed on the state limit. Cut, as OpenSpiel's."""
    from rulelang.interop.core import MAX_STEPS
    assert SingleAgentEnv(game("valgard")).max_steps == MAX_STEPS == 10_000
    env = SingleAgentEnv(game("valgard"), max_steps=3)
    obs, _ = env.reset(seed=1)
    truncs = []
    for _ in range(3):
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        truncs.append(trunc)
    assert truncs == [False, False, True] and not term
    # (the step that cuts it says nothing is legal any more: it read 14 legal actions, a researcher)
    assert obs["action_mask"].sum() == 0 and not env.action_masks().any() and info["legal_texts"] == []
    # (a step after it plays nothing: the match stays where it was cut until reset — it played on)
    state = env.match.state()
    obs, reward, term, trunc, info = env.step(0)
    assert (reward, term, trunc) == (0.0, False, True) and env.match.state() == state
    env.reset(seed=1)
    assert not env.truncated


@pytest.mark.parametrize("keyword,value", [("action_cap", 0), ("action_cap", -3), ("action_cap", 2.5),
                                           ("action_cap", 10 ** 9),      # (a MemoryError: a fuzz trial)
                                           ("universe_cap", 0), ("max_steps", 0), ("max_steps", -1),
                                           ("max_steps", 2.5), ("max_steps", True)])
def test_a_bad_keyword_is_one_line_naming_it(keyword, value):
    """An AI researcher's trial: `action_cap=0` failed in Gymnasium's words ("n (counts) have to be
    positive"), and `max_steps=0`, `-1` or `2.5` were taken without a word."""
    from rulelang.interop.pettingzoo import env as aec_env, parallel_env
    for make in (lambda **kw: SingleAgentEnv(game("regicide"), players=2, **kw),
                 lambda **kw: aec_env(game("regicide"), players=2, **kw),
                 lambda **kw: parallel_env(game("regicide"), players=2, **kw)):
        with pytest.raises(ValueError) as err:
            make(**{keyword: value})
        assert str(err.value) == f"`{keyword}` must be a whole number of at least 1" + (
            " or None" if keyword == "max_steps" else " and at most 1,000,000") + f", not {value!r}"


@pytest.mark.parametrize("seat", [1.0, "1", True, -1, 2])
def test_a_learning_seat_that_is_no_seat_is_refused_when_the_environment_is_made(seat):
    """A fuzz trial: `seat=1.0` was taken, and failed only at `reset` ("no player 1.0")."""
    with pytest.raises(ValueError, match=r"no seat .* in a 2-player match: seats are 0\.\.1"):
        SingleAgentEnv(game("regicide"), players=2, seat=seat)
    assert SingleAgentEnv(game("regicide"), players=2, seat=np.int64(1)).seat == 1


def test_a_numpy_integer_is_a_whole_number_for_every_keyword():
    from rulelang.interop.pettingzoo import env as aec_env
    env = SingleAgentEnv(game("regicide"), players=2, action_cap=np.int64(64), universe_cap=np.int32(256),
                         max_steps=np.int64(500))
    assert env.max_steps == 500 and type(env.max_steps) is int
    assert aec_env(game("regicide"), players=2, max_steps=np.int64(500)).max_steps == 500


def test_a_match_or_an_environment_pickled_says_what_to_send_instead():
    import copy
    import pickle
    env = SingleAgentEnv(game("regicide"), players=2)
    env.reset(seed=1)
    for thing in (env, env.match, env.match.game):
        with pytest.raises(TypeError, match=r"cannot be pickled: .*match\.state\(\)"):
            pickle.dumps(thing)
    g = env.match.game
    assert copy.copy(g) is g and copy.deepcopy(g) is g          # (a copy of a game is the game)


def test_a_search_bot_named_without_a_budget_plays_an_episode_its_seed_decides():
    """A researcher's trial: with `opponents="ismcts"` two episodes of one seed parted at the bot's
    first pick — the default search stops at 0.5 s of CPU, so it depends on the machine's speed.
    Named bare, it searches its 200 iterations, uncapped; a budget named is kept as it is."""
    env = SingleAgentEnv(game("valgard"), seat=0, opponents="ismcts")
    assert env.kinds == {1: "ismcts:200"}
    assert SingleAgentEnv(game("valgard"), seat=0, opponents={1: "mcts"}).kinds == {1: "mcts:200"}
    assert SingleAgentEnv(game("valgard"), seat=0, opponents="ismcts:0.5s").kinds == {1: "ismcts:0.5s"}
    env.reset(seed=3)
    assert env.bots[1].cap is None and env.bots[1].iterations == 200


def test_reset_says_it_does_not_read_the_rules_options():
    """`reset(options={'alliance': True})` played without the alliance, silently: it now warns."""
    env = SingleAgentEnv(game("valgard"), seat=0)
    with pytest.warns(UserWarning, match="reset.options=…. is not read"):
        env.reset(seed=1, options={"hardcore": True})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=1, options={})


def test_before_reset_the_mask_and_the_text_say_so_and_a_render_mode_is_checked():
    """A researcher's trial: `action_masks()` before `reset()` was all False, `observe_text` an
    AttributeError, and `render_mode="human"` rendered None."""
    from interop_helpers import game as loaded
    e = SingleAgentEnv(loaded("regicide"), players=2)
    for call in (e.action_masks, e.observe_text):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()
    with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
        SingleAgentEnv(loaded("regicide"), players=2, render_mode="rgb_array")
