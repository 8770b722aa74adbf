"""Network agents take the AEC env's observation as ``env.last()`` gives it (the ``{"observation",
"action_mask"}`` dict) as well as the flat vector; anything else is an ``AgentError`` naming the agent (a
baseline given the dict failed with a bare ``TypeError`` from ``float()``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs
from monolith_envs.agents import make_agent
from monolith_envs.agents.base import AgentError, observation_vector


def test_observation_vector_reads_the_dict_and_names_what_it_cannot_read():
    vec = np.arange(5, dtype=np.float64)
    import torch

    for given in (vec, list(vec), vec[None], torch.tensor(vec, requires_grad=True),
                  {"observation": vec, "action_mask": np.ones(3, np.int8)}):
        out = observation_vector("x", given)
        assert out.dtype == np.float32 and out.shape == (5,) and np.array_equal(out, vec.astype(np.float32))
    for bad, kind in (({"obs": vec}, "dict"), ("text", "str"), (None, "NoneType"), (3.0, "float"),
                      ([1, None, 3], "list"), (np.ones((3, 5)), r"ndarray of shape \(3, 5\)")):
        with pytest.raises(AgentError, match=rf"^x: the observation must be the flat vector .* got {kind}$"):
            observation_vector("x", bad)
    with pytest.raises(AgentError, match=r"^x: the observation holds values that are not finite"):
        observation_vector("x", [0.0, float("nan")])


@pytest.mark.parametrize("spec", ["baseline", "baseline+search:4"])
def test_a_baseline_plays_the_same_move_from_the_dict_and_from_the_vector(spec):
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=3)
    agent = make_agent(spec, "monolith_arena_v0")
    agent.bind(env)
    obs = env.last()[0]
    moves = {agent.act(o, obs["action_mask"], np.random.default_rng(0)) for o in (obs, obs["observation"])}
    assert len(moves) == 1 and obs["action_mask"][moves.pop()] == 1
    with pytest.raises(AgentError, match="^" + re.escape(f"{spec}: the observation must be")):
        agent.act({"x": 1}, obs["action_mask"], np.random.default_rng(0))
