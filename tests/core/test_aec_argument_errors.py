"""The AEC adapter names the bad argument: a seed that is not a non-negative integer, an unknown agent."""

import numpy as np
import pytest

import monolith_envs


@pytest.mark.parametrize("env_id", ["monolith_strategy_v0", "toy_tictactoe_v0"])
def test_reset_rejects_bad_seeds_by_name(env_id):
    env = monolith_envs.make(env_id)
    with pytest.raises(ValueError, match=r"reset\(seed=-1\): a seed is an integer from 0 to 2\*\*128-1 or None"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match=r"reset\(seed=340282366920938463463374607431768211456\): a seed is an "
                                         r"integer from 0 to 2\*\*128-1"):
        env.reset(seed=2**128)  # the episode log could not hold it, so replay would refuse the log
    with pytest.raises(ValueError, match=r"reset\(seed=an integer of 302 digits\)"):
        env.reset(seed=2**1000)
    with pytest.raises(TypeError, match=r"reset\(seed=True\): a seed is a non-negative integer or None, not a bool"):
        env.reset(seed=True)
    with pytest.raises(TypeError, match=r"reset\(seed='a'\): a seed is a non-negative integer or None, not a str"):
        env.reset(seed="a")
    with pytest.raises(TypeError, match=r"not a float"):
        env.reset(seed=3.0)
    env.reset(seed=np.int64(4))  # numpy integers are seeds too
    assert env.unwrapped.episode_log.seed == 4
    env.reset(seed=2**128 - 1)  # the largest seed: its log round-trips
    from monolith_envs.core.replay import EpisodeLog

    assert EpisodeLog.from_json(env.unwrapped.episode_log.to_json()).seed == 2**128 - 1


def test_unseeded_resets_follow_the_last_seeded_one():
    env = monolith_envs.make("monolith_strategy_v0")
    env.reset(seed=5)
    env.reset()
    env.reset()
    seeds = [env.unwrapped.episode_log.seed]
    stream = np.random.default_rng(5)
    expect = [int(stream.integers(0, 2**63 - 1)) for _ in range(2)]
    assert seeds == expect[1:]


def test_observe_names_the_agents_for_an_unknown_one():
    env = monolith_envs.make("monolith_strategy_v0", num_players=2)
    env.reset(seed=0)
    with pytest.raises(KeyError, match=r"observe\('player_9'\): not an agent of this env; agents: "
                                       r"\['player_0', 'player_1'\]"):
        env.observe("player_9")


def test_spaces_of_an_unknown_agent_are_refused_like_observe():
    env = monolith_envs.make("monolith_arena_v0")
    assert env.action_space("player_1").n == env.action_space("player_0").n
    env.reset(seed=0)
    for method in ("action_space", "observation_space", "observe"):
        with pytest.raises(KeyError, match=rf"{method}\('nobody'\): not an agent of this env; agents: "
                                           r"\['player_0', 'player_1'\]"):
            getattr(env, method)("nobody")
        with pytest.raises(KeyError, match=rf"{method}\(\['x'\]\): not an agent"):
            getattr(env, method)(["x"])


def test_bad_registrations_and_ids_are_one_clear_error(monkeypatch):
    with pytest.raises(monolith_envs.UnknownEnvError, match=r"unknown env id \['x'\]; available: monolith_arena_v0"):
        monolith_envs.make(["x"])
    monkeypatch.setitem(monolith_envs._REGISTRY, "ghost_v0", "no_such_module_xyz")
    monkeypatch.setitem(monolith_envs._REGISTRY, "weird_v0", "json")
    with pytest.raises(monolith_envs.ConfigError, match="env id 'ghost_v0' is registered to the module "
                                                        "'no_such_module_xyz', which cannot be imported: "
                                                        "ModuleNotFoundError"):
        monolith_envs.make("ghost_v0")
    with pytest.raises(monolith_envs.ConfigError, match="'weird_v0' is registered to the module 'json', which has no "
                                                        "env and no raw_env"):
        monolith_envs.make_vec("weird_v0", 2)
    import types

    monkeypatch.setitem(monolith_envs._REGISTRY, "empty_v0", lambda: types.SimpleNamespace(env=print))
    with pytest.raises(monolith_envs.ConfigError, match=r"'empty_v0' is registered to the callable .*, whose result "
                                                        "has no raw_env; an env module defines"):
        monolith_envs.make("empty_v0")  # was AttributeError: a callable's module was not checked
