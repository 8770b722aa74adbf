"""One agent object in several envs: the Gymnasium wrapper binds each opponent to the env it acts in (its
copies in gymnasium.make_vec share the opponents given), and a state-reading agent asked to act with a mask
that is not its bound env's refuses instead of choosing from another game; set_game_state after the end of an
episode asks for reset() instead of leaving the env unusable."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import monolith_envs
from monolith_envs.agents import make_agent
from monolith_envs.agents.base import AgentError


def _play(vec, steps: int) -> list:
    obs, info = vec.reset(seed=4)
    trace = []
    for _ in range(steps):
        m = info["action_mask"]
        obs, r, te, tr, info = vec.step(np.array([int(np.flatnonzero(m[i])[0]) for i in range(m.shape[0])]))
        trace.append((obs.copy(), r.copy(), te.copy(), tr.copy()))
    return trace


@pytest.mark.parametrize("spec", ["heuristic", "mcts:6"])
def test_one_opponent_object_in_every_copy_plays_as_one_object_per_copy(spec):
    """The same games as opponents built per copy from the spec (the object was bound to the copy that
    reset last, and searched or scored that game's state: 173 of 261 heuristic decisions of those games)."""
    kw = {"id": "monolith_envs/TheMonolith-v0", "num_envs": 2, "vectorization_mode": "sync", "num_players": 3}
    shared = make_agent(spec, "the_monolith_v0")
    a, b = gym.make_vec(**kw, opponents=[shared]), gym.make_vec(**kw, opponents=[spec])
    try:
        for (oa, ra, ta, ua), (ob, rb, tb, ub) in zip(_play(a, 60), _play(b, 60)):
            np.testing.assert_array_equal(oa, ob)
            np.testing.assert_array_equal(ra, rb)
            assert (ta == tb).all() and (ua == ub).all()
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("spec", ["heuristic", "mcts:4", "baseline+search:2"])
def test_a_state_reading_agent_refuses_a_mask_of_another_env(spec):
    a, b = monolith_envs.make("monolith_arena_v0"), monolith_envs.make("monolith_arena_v0")
    a.reset(seed=1)
    b.reset(seed=2)
    rng = np.random.default_rng(5)
    for _ in range(80):  # to a decision where the two games' masks differ
        ma, mb = (e.observe(e.agent_selection)["action_mask"] for e in (a, b))
        if not np.array_equal(ma, mb):
            break
        for env, m in ((a, ma), (b, mb)):
            env.step(int(rng.choice(np.flatnonzero(m))))
    assert not np.array_equal(ma, mb)
    agent = make_agent(spec, "monolith_arena_v0")
    agent.bind(a)
    rng = np.random.default_rng(0)
    assert ma[agent.act(a.observe(a.agent_selection)["observation"], ma, rng)]  # its own env: a legal action
    with pytest.raises(AgentError, match="bound to another env"):
        agent.act(b.observe(b.agent_selection)["observation"], mb, rng)


def test_set_game_state_after_the_end_asks_for_reset():
    env = monolith_envs.make("monolith_strategy_v0", num_players=2)
    env.reset(seed=0)
    saved = None
    for k, _agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if k == 10:
            saved = env.unwrapped.game.clone(env.unwrapped.game_state)
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(monolith_envs.MonolithEnvError, match="after the episode ended: call reset"):
        env.unwrapped.set_game_state(saved)
    env.reset(seed=0)
    env.unwrapped.set_game_state(saved)
    obs, _, term, trunc, _ = env.last()
    assert not (term or trunc) and obs["action_mask"].any()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
