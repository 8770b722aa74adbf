"""The env's ``state_space`` has the bounds of ``state()`` (every seat's observation bounds, or Arena's
omniscient observation's), and holds every ``state()`` of seeded random games, truncated ones included; a
game with its own ``state_vector`` and no ``state_bounds`` keeps an unbounded space."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.aec import make_env_fns
from tests import toy_game

CONFIGS = [
    ("monolith_arena_v0", {}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "ffa", "monolith_module": True, "reward_mode": "rank"}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "teams", "reinforcement_variant": True}),
    ("monolith_arena_v0", {"num_players": 3, "mode": "ffa", "max_decisions": 7}),
    ("monolith_strategy_v0", {"num_players": 1}),
    ("monolith_strategy_v0", {"num_players": 4, "player_powers": True, "intro_layout": True}),
    ("monolith_strategy_v0", {"num_players": 2, "max_decisions": 5}),
    ("the_monolith_v0", {"num_players": 2, "shaman_assignment": "draft"}),
    ("the_monolith_v0", {"num_players": 4, "num_days": 1}),
    ("the_monolith_v0", {"num_players": 3, "max_decisions": 9}),
]


@pytest.mark.parametrize("env_id,config", CONFIGS, ids=[f"{e}-{i}" for i, (e, _) in enumerate(CONFIGS)])
def test_every_state_is_inside_the_bounded_state_space(env_id, config):
    env = monolith_envs.make(env_id, **config)
    space = env.unwrapped.state_space
    obs = env.unwrapped.game.obs_spec
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    k = space.shape[0] // obs.size
    assert k in (1, env.unwrapped.game.num_players) and space.shape[0] == k * obs.size
    assert np.array_equal(space.low, np.tile(obs.low, k).astype(np.float32))
    assert np.array_equal(space.high, np.tile(obs.high, k).astype(np.float32))
    rng = np.random.default_rng(0)
    steps = 0
    for seed in range(3):
        env.reset(seed=seed)
        for _agent in env.agent_iter(3000):
            assert space.contains(env.state()), (env_id, steps)
            steps += 1
            o, _r, term, trunc, _i = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(o["action_mask"]))))
    assert steps > 10


def test_a_game_with_its_own_state_vector_and_no_bounds_keeps_an_unbounded_space():
    """The toy game gives its own ``state_vector`` (not every seat's observation) and no bounds."""
    env_fn, _raw = make_env_fns(toy_game.ENV_ID, toy_game.ToyGame)
    env = env_fn()
    env.reset(seed=0)
    space = env.unwrapped.state_space
    assert np.isinf(space.low).all() and np.isinf(space.high).all()
    assert space.shape == np.asarray(env.state()).shape and space.contains(env.state())
