"""SingleAgentEnv refuses bad arguments when built and a step before reset, with messages that name them;
``shaping="heuristic"`` means the game's heuristic value function, as the training config key does."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from monolith_envs.agents.heuristics import value_fn_for
from monolith_envs.core.config import ConfigError
from monolith_envs.wrappers import SingleAgentEnv

ENV = "monolith_arena_v0"


@pytest.mark.parametrize("kwargs, message", [
    ({"shaping": "heur"}, "shaping must be None, 'none', 'heuristic' or a value_fn(game, state)"),
    ({"shaping": 3}, "got 3"),
    ({"shaping_coef": float("nan")}, "shaping_coef must be a number from -1e+06 to 1e+06, got nan"),
    ({"shaping_gamma": 2}, "shaping_gamma must be a number from 0 to 1, got 2"),
    ({"shaping_gamma": True}, "shaping_gamma must be a number from 0 to 1, got True"),
])
def test_bad_shaping_arguments_fail_when_built(kwargs, message):
    with pytest.raises(ConfigError) as ei:
        SingleAgentEnv(ENV, ["random"], **kwargs)
    assert message in str(ei.value)


def test_heuristic_shaping_is_the_games_value_function():
    named = SingleAgentEnv(ENV, ["random"], shaping="heuristic", seed=3)
    given = SingleAgentEnv(ENV, ["random"], shaping=value_fn_for(ENV), seed=3)
    plain = SingleAgentEnv(ENV, ["random"], shaping="none", seed=3)
    rewards = {id(e): [] for e in (named, given, plain)}
    for env in (named, given, plain):
        _, info = env.reset(seed=3)
        for _ in range(30):
            _, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            rewards[id(env)].append(r)
            if term or trunc:
                break
    assert rewards[id(named)] == rewards[id(given)]
    assert rewards[id(named)] != rewards[id(plain)]  # the potential moved the rewards


def test_step_before_reset_says_reset_first():
    with pytest.raises(gym.error.ResetNeeded, match="step\\(\\) before reset\\(\\); call reset\\(\\) first"):
        SingleAgentEnv(ENV, ["random"]).step(0)


def test_action_masks_before_reset_says_reset_first_and_after_it_is_the_learners_mask():
    env = SingleAgentEnv(ENV, ["random"])
    with pytest.raises(gym.error.ResetNeeded, match="action_masks\\(\\) before reset\\(\\); call reset\\(\\) first"):
        env.action_masks()
    _, info = env.reset(seed=1)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.any()
    np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))


@pytest.mark.parametrize("returned", [[float("nan")] * 2, [float("inf"), 0.0], [0.0, 0.0, 0.0], 0.5, [0.1], "ab"])
def test_a_shaping_function_must_return_one_finite_value_per_seat(returned):
    env = SingleAgentEnv(ENV, ["random"], shaping=lambda game, state: returned)
    with pytest.raises(ValueError) as ei:
        env.reset(seed=0)
    assert "the shaping function must return 2 finite numbers (one value per seat), got" in str(ei.value)


def test_a_solo_game_given_opponents_says_it_is_solo_and_a_numpy_seat_is_a_seat():
    with pytest.raises(ConfigError, match="with 1 player is a solo game: it takes no opponents, got \\['random'\\]"):
        SingleAgentEnv("monolith_strategy_v0", ["random"], num_players=1)
    env = SingleAgentEnv(ENV, ["random"], seat=np.int64(1))
    env.reset(seed=0)
    assert env.learner == 1
