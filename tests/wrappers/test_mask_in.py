"""``mask_in``: the action mask in the observation (a ``Dict``, the default) or in the info dict (a plain Box)."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from monolith_envs import ConfigError
from monolith_envs.wrappers import SingleAgentEnv

ENV_IDS = ["monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_info_mask_matches_the_dict_mask_at_every_step(env_id):
    """Both conventions play the same seeded game: same vectors, the same mask, only placed elsewhere."""
    ref = monolith_envs.make(env_id)
    env = monolith_envs.make(env_id, mask_in="info")
    box = env.observation_space("player_0")
    assert box == ref.observation_space("player_0")["observation"]
    ref.reset(seed=7)
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    for step in range(60):
        if not env.agents:
            break
        want, *_ = ref.last()
        obs, _, term, trunc, info = env.last()
        assert isinstance(obs, np.ndarray) and obs.dtype == np.float32 and box.contains(obs)
        np.testing.assert_array_equal(obs, want["observation"])
        assert info["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(info["action_mask"], want["action_mask"])
        for other in env.possible_agents:
            if other != env.agent_selection:
                assert not env.infos[other]["action_mask"].any(), (step, other)
        action = None if term or trunc else int(rng.choice(np.flatnonzero(want["action_mask"])))
        ref.step(action)
        env.step(action)
    assert step > 0


def test_info_mask_passes_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(monolith_envs.make("monolith_arena_v0", mask_in="info"), num_cycles=20)


def test_info_masks_are_zero_once_a_penalized_episode_ends():
    env = monolith_envs.make("monolith_arena_v0", mask_in="info", illegal_action="penalize")
    env.reset(seed=0)
    mask = env.infos[env.agent_selection]["action_mask"]
    assert mask.sum() > 0
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(not env.infos[a]["action_mask"].any() for a in env.possible_agents)
    assert any(env.infos[a].get("illegal_action") for a in env.possible_agents)


@pytest.mark.parametrize("bad", ["obs", "INFO", None, 1])
def test_bad_mask_in_names_the_allowed_values(bad):
    with pytest.raises(ConfigError, match=r"mask_in=.*expected one of 'observation', 'info'"):
        monolith_envs.make("monolith_arena_v0", mask_in=bad)
    with pytest.raises(ConfigError, match=r"mask_in=.*expected one of 'observation', 'info'"):
        SingleAgentEnv("monolith_arena_v0", ["random"], mask_in=bad)
    with pytest.raises(ConfigError, match=r"pass mask_in to SingleAgentEnv\(mask_in=...\), not in env_config"):
        SingleAgentEnv("monolith_arena_v0", ["random"], {"mask_in": "info"})


def test_supersuit_observation_wrapper_needs_and_accepts_the_info_convention():
    ss = pytest.importorskip("supersuit")
    env = ss.frame_stack_v1(monolith_envs.make("monolith_arena_v0", mask_in="info"), 2)
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    m = monolith_envs.make("monolith_arena_v0").observation_space("player_0")["observation"].shape[0]
    assert obs.shape == (2 * m,) and obs.dtype == np.float32
    assert info["action_mask"].shape == (500,) and info["action_mask"].sum() > 0
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(AssertionError, match="Box and Discrete"):  # the Dict convention is refused
        ss.frame_stack_v1(monolith_envs.make("monolith_arena_v0"), 2)


def test_wrapper_mask_in_observation_gives_the_dict_and_keeps_the_info_mask():
    env = SingleAgentEnv("monolith_arena_v0", ["random"], mask_in="observation", seed=0)
    obs, info = env.reset(seed=3)
    assert set(obs) == {"observation", "action_mask"} and env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"].astype(bool), env.action_masks())
    np.testing.assert_array_equal(info["action_mask"].astype(bool), env.action_masks())
    plain = SingleAgentEnv("monolith_arena_v0", ["random"], seed=0)  # default: mask_in="info", a Box
    obs2, _ = plain.reset(seed=3)
    np.testing.assert_array_equal(obs2, obs["observation"])
    assert plain.observation_space == env.observation_space["observation"]
    obs, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"].astype(np.int8))


def test_observation_space_for_is_the_space_of_both_envs():
    from monolith_envs.core.aec import observation_space_for

    game = monolith_envs.make_game("monolith_strategy_v0")
    box = game.obs_spec.space
    assert observation_space_for(box, game.layout.n, "info") is box
    spaces = observation_space_for(box, game.layout.n, "observation")
    assert spaces["observation"] is box and spaces["action_mask"].shape == (538,)
    assert spaces["action_mask"].dtype == np.int8
    assert monolith_envs.make("monolith_strategy_v0").observation_space("player_0") == spaces
    assert SingleAgentEnv("monolith_strategy_v0", ["random"], mask_in="observation").observation_space == spaces
