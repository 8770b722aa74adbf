"""The env's ``state_space`` has the bounds of ``state()`` (every seat's observation bounds, or Arena's
omniscient observation's), and holds every ``state()`` of seeded random games; a game with its own
``state_vector`` and no ``state_bounds`` keeps an unbounded space."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.base import GameBase

CONFIGS = [("monolith_arena_v0", {}), ("monolith_arena_v0", {"num_players": 4, "mode": "ffa", "monolith_module": True}),
           ("monolith_strategy_v0", {"num_players": 1}), ("monolith_strategy_v0", {"num_players": 4, "player_powers": True}),
           ("the_monolith_v0", {"num_players": 3})]


@pytest.mark.parametrize("env_id,config", CONFIGS, ids=[f"{e}-{i}" for i, (e, _) in enumerate(CONFIGS)])
def test_every_state_is_inside_the_bounded_state_space(env_id, config):
    env = monolith_envs.make(env_id, **config)
    space = env.unwrapped.state_space
    obs = env.unwrapped.game.obs_spec
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    k = space.shape[0] // obs.size
    assert k in (1, env.unwrapped.game.num_players) and space.shape[0] == k * obs.size
    assert np.array_equal(space.high, np.tile(obs.high, k).astype(np.float32))
    steps = 0
    for seed in range(3):
        env.reset(seed=seed)
        for _agent in env.agent_iter(3000):
            assert space.contains(env.state()), (env_id, steps)
            steps += 1
            o, _r, term, trunc, _i = env.last()
            env.step(None if term or trunc else int(np.flatnonzero(o["action_mask"])[seed % 2 - 1]))
    assert steps > 100


def test_a_game_with_its_own_state_vector_and_no_bounds_keeps_an_unbounded_space():
    class Own(GameBase):
        def state_vector(self, state):  # not every seat's observation: its bounds are unknown
            return np.zeros(3, np.float32)

    assert Own.state_bounds(object.__new__(Own)) is None
