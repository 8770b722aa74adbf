"""Agent specs that name the wrong thing fail when the agent is built, with the sizes or types named: a
``ppo:PATH`` model of another game or config, and a spec that is not a string."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from agents import AgentError, AgentSpecError, make_agent
from tests.toy_game import ENV_ID


def _sizes(env_id, **config):
    game = monolith_envs.make_game(env_id, **config)
    return game.obs_spec.size, game.layout.n


def test_a_model_of_another_game_fails_when_built_naming_both_sizes(toy_model):
    toy_obs, toy_n = _sizes(ENV_ID)
    obs, n = _sizes("monolith_strategy_v0")
    with pytest.raises(AgentError) as ei:
        make_agent(f"ppo:{toy_model}", "monolith_strategy_v0", {})
    msg = str(ei.value)
    assert f"takes {toy_obs} observation values and {toy_n} actions" in msg
    assert f"monolith_strategy_v0 {{}} has {obs} and {n}" in msg and "another game or config" in msg
    agent = make_agent(f"ppo:{toy_model}", ENV_ID, {})  # its own game: fine
    assert agent.sizes() == (toy_obs, toy_n)


def test_a_model_of_another_game_fails_at_its_first_move_without_a_config(toy_model):
    agent = make_agent(f"ppo:{toy_model}", "monolith_strategy_v0")  # no env_config: not checked yet
    obs, n = _sizes("monolith_strategy_v0")
    with pytest.raises(AgentError, match=f"but this env has {obs} and {n}"):
        agent.act(np.zeros(obs, np.float32), np.ones(n, np.int8), np.random.default_rng(0))


def test_the_training_config_check_uses_the_games_config_for_a_baseline_opponent():
    from training.config import TrainConfigError, check_config, load_config

    cfg = load_config(None)
    cfg["env_config"] = {"num_players": 3, "mode": "ffa"}
    cfg["eval_opponents"] = ["baseline"]
    with pytest.raises(TrainConfigError) as ei:
        check_config(cfg)
    assert "config key 'eval_opponents': agent spec 'baseline': no baseline for monolith_arena_v0 with " \
           "num_players=3 mode=ffa; baselines exist for:" in str(ei.value)
    cfg["env_config"] = {"num_players": 2, "mode": "duel"}
    check_config(cfg)  # the duel has one


@pytest.mark.parametrize("spec", [5, None, ["random"]])
def test_a_spec_that_is_not_a_string_is_named(spec):
    with pytest.raises(AgentSpecError) as ei:
        make_agent(spec, "monolith_arena_v0")
    assert f"an agent spec is a string, got {type(spec).__name__}" in str(ei.value)
    assert "accepted:" in str(ei.value)
