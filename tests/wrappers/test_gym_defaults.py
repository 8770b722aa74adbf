"""What a Gymnasium user meets first: an env made from a registered id steps unmasked random actions (the
env checkers do) by ending the episode with a penalty, a mistyped keyword names the closest one, and
``render`` follows Gymnasium's conventions."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

import monolith_envs
from monolith_envs import ConfigError, IllegalActionError
from monolith_envs.registration import GYM_IDS
from monolith_envs.wrappers import SingleAgentEnv


@pytest.mark.parametrize("gym_id", sorted(GYM_IDS.values()))
def test_registered_ids_pass_both_env_checkers_with_their_defaults(gym_id):
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    kw = {"opponents": ["random"]}
    check_env(gym.make(gym_id, **kw).unwrapped)
    sb3_check_env(gym.make(gym_id, **kw).unwrapped)


def test_an_unmasked_random_action_ends_the_episode_with_minus_one_unless_raise_is_asked():
    env = gym.make("monolith_envs/MonolithArena-v0", opponents=["random"])
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"], info["outcome"]) == (-1.0, True, False, True, "loss")
    for raising in (gym.make("monolith_envs/MonolithArena-v0", opponents=["random"], illegal_action="raise"),
                    gym.make("monolith_envs/MonolithArena-v0", opponents=["random"],
                             env_config={"illegal_action": "raise"}),
                    SingleAgentEnv("monolith_arena_v0", ["random"])):  # the class itself keeps raise
        raising.reset(seed=0)
        with pytest.raises(IllegalActionError):
            raising.step(bad)


def test_a_mistyped_keyword_names_the_closest_and_every_allowed_one():
    with pytest.raises(ConfigError) as caught:
        gym.make("monolith_envs/MonolithArena-v0", opponent=["random"])
    msg = str(caught.value)
    assert "unknown keyword(s) 'opponent' ('opponent': did you mean 'opponents'?)" in msg
    assert "SingleAgentEnv takes opponents, env_config, seat, seed, shaping," in msg and "num_players" in msg
    with pytest.raises(ConfigError, match="'num_player': did you mean 'num_players'"):
        SingleAgentEnv("the_monolith_v0", ["random"], {"num_player": 3})


def test_render_follows_gymnasiums_conventions():
    env = gym.make("monolith_envs/MonolithArena-v0", opponents=["random"])
    env.reset(seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert env.render() is None  # no render_mode: warn and return None
    assert any("without a render_mode" in str(w.message) for w in caught)
    svg = SingleAgentEnv("monolith_arena_v0", ["random"], render_mode="svg")
    with pytest.raises(gym.error.ResetNeeded, match="render\\(\\) before reset\\(\\)"):
        svg.render()
    svg.reset(seed=0)
    assert svg.render() == svg.game.render_svg(svg.aec.game_state) and svg.render().startswith("<svg")


def test_config_keys_that_would_be_ignored_are_refused():
    with pytest.raises(ConfigError, match="shamans=\\[5, 4, 3, 2\\] sets each seat's shaman only with "
                                          "shaman_assignment='fixed'"):
        monolith_envs.make("the_monolith_v0", shamans=[5, 4, 3, 2])
    fixed = monolith_envs.make_game("the_monolith_v0", shamans=[3, 2, 1, 0], shaman_assignment="fixed")
    assert fixed.initial_state(np.random.default_rng(0)).shaman_id == [3, 2, 1, 0]
    with pytest.raises(ConfigError, match="solo_goal_stone=2 is the goal of the solo variant"):
        monolith_envs.make("monolith_strategy_v0", num_players=2, solo_goal_stone=2)
    assert monolith_envs.make_game("monolith_strategy_v0", num_players=2, solo_goal_stone=4).config["solo_goal_stone"] == 4
    assert monolith_envs.make_game("monolith_strategy_v0", num_players=1, solo_goal_stone=2).config["solo_goal_stone"] == 2
