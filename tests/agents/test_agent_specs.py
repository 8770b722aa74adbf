"""Every number of an agent spec is bounded: a value outside its range (NaN and infinities included) is one
``AgentSpecError`` that names the field and its range, never a search that fails later; the library class
refuses the same values."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from agents import AgentSpecError, MCTSAgent, make_agent
from agents.mcts import MAX_C, MAX_ROLLOUT_DEPTH, MAX_ROOT_K, MAX_SIMULATIONS
from tests.toy_game import ENV_ID


@pytest.mark.parametrize("spec, says", [
    ("mcts:10:c=nan", "c (the exploration constant) must be a finite number from 0 to 100, got nan"),
    ("mcts:10:c=inf", "c (the exploration constant) must be a finite number from 0 to 100, got inf"),
    ("mcts:10:c=-inf", "c (the exploration constant) must be a finite number from 0 to 100, got -inf"),
    ("mcts:10:c=-0.5", "c (the exploration constant) must be a finite number from 0 to 100, got -0.5"),
    ("mcts:10:c=1e300", "c (the exploration constant) must be a finite number from 0 to 100, got 1e+300"),
    ("mcts:1000001", "simulations must be an integer from 1 to 1000000, got 1000001"),
    ("mcts:-3", "simulations must be an integer from 1 to 1000000, got -3"),
    ("mcts:10:depth=-1", "rollout_depth (depth) must be an integer from 0 to 1000000 or None, got -1"),
    ("mcts:10:depth=10000000", "rollout_depth (depth) must be an integer from 0 to 1000000 or None, got 10000000"),
    ("mcts:10:k=0", "root_k (k) must be an integer from 1 to 1000000 or None, got 0"),
    ("mcts:10:k=" + "9" * 60, "root_k (k) must be an integer from 1 to 1000000 or None, got 9999999999"),
    ("mcts:10:c=1:c=2", "option 'c' given twice"),
])
def test_out_of_range_spec_numbers_are_refused_naming_the_range(spec, says):
    with pytest.raises(AgentSpecError) as exc:
        make_agent(spec, ENV_ID)
    msg = str(exc.value)
    assert says in msg and msg.startswith("bad agent spec 'mcts:") and msg.count("bad agent spec") == 1
    assert "accepted: random | heuristic | mcts:N" in msg and len(msg) < 500


def test_the_bounds_themselves_are_accepted():
    a = make_agent(f"mcts:{MAX_SIMULATIONS}:c={MAX_C}:depth={MAX_ROLLOUT_DEPTH}:k={MAX_ROOT_K}", ENV_ID)
    assert (a.simulations, a.c, a.rollout_depth, a.root_k) == (MAX_SIMULATIONS, 100.0, MAX_ROLLOUT_DEPTH, MAX_ROOT_K)
    b = make_agent("mcts:1:c=0:depth=0:k=1", ENV_ID)
    assert (b.simulations, b.c, b.rollout_depth, b.root_k) == (1, 0.0, 0, 1)


@pytest.mark.parametrize("kwargs", [{"c": math.nan}, {"c": True}, {"c": "1"}, {"simulations": 2.5},
                                    {"simulations": True}, {"simulations": 10**7}, {"rollout_depth": 1.0},
                                    {"root_k": np.int64(0)}])
def test_mcts_agent_refuses_the_same_values(kwargs):
    with pytest.raises(ValueError, match="must be"):
        MCTSAgent(**kwargs)


def test_a_nan_c_no_longer_reaches_the_search():
    """``c=nan`` used to be accepted; the search then picked no child and failed with ``KeyError: -1``."""
    import monolith_envs

    with pytest.raises(AgentSpecError):
        make_agent("mcts:10:c=nan", ENV_ID)
    agent = make_agent("mcts:10:c=0.5", ENV_ID)
    env = monolith_envs.make(ENV_ID)
    env.reset(seed=0)
    agent.bind(env)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[agent.act(None, mask, np.random.default_rng(0))] == 1


def test_an_unreadable_model_path_is_a_spec_error():
    with pytest.raises(AgentSpecError, match="the path cannot be read"):
        make_agent("ppo:" + "x" * 5000, ENV_ID)


@pytest.mark.parametrize("spec, meant", [("basline", "baseline"), ("heurstic", "heuristic"), ("mtcs:20", "mcts"),
                                         ("randm", "random"), ("pp:model.zip", "ppo")])
def test_a_misspelt_kind_is_named_with_the_kind_it_likely_meant(spec, meant):
    with pytest.raises(AgentSpecError, match=rf"^unknown agent spec '{re.escape(spec)}' \(did you mean '{meant}'\?\); "
                                             "accepted: random "):
        make_agent(spec, ENV_ID)


def test_an_unknown_kind_close_to_nothing_gets_no_guess():
    with pytest.raises(AgentSpecError, match=r"^unknown agent spec 'xyz'; accepted: "):
        make_agent("xyz", ENV_ID)


def test_bad_arguments_of_an_agent_are_named():
    import monolith_envs
    from monolith_envs.agents import AgentError, RandomAgent

    for env in (None, "monolith_arena_v0", object()):
        with pytest.raises(AgentError, match=r"^bind\(\) needs an env of monolith_envs.make\(\), got "):
            make_agent("mcts:5", ENV_ID).bind(env)
    with pytest.raises(AgentError, match=r"one row of the game's actions, got shape \(2, 3\)"):
        RandomAgent().act(np.zeros(3), np.ones((2, 3)), np.random.default_rng(0))
    assert RandomAgent().act(np.zeros(3), np.array([[0, 0, 1]]), np.random.default_rng(0)) == 2  # one row
    with pytest.raises(monolith_envs.ConfigError, match="env_config must be a dict .* got str"):
        make_agent("baseline", "monolith_arena_v0", "num_players=2")
    with pytest.raises(AgentSpecError, match=r"^bad agent spec 'ppo:a\\x00b': it contains a NUL character"):
        make_agent("ppo:a\x00b", ENV_ID)
