"""PettingZoo's Parallel API: the games are turn-based (``is_parallelizable`` is False), so ``aec_to_parallel``
refuses them, and ``turn_based_aec_to_parallel`` is the conversion to use: every step takes one action per
live agent, of which only the acting agent's is played (the others see an all-zero mask)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

import monolith_envs


def test_aec_to_parallel_is_refused_because_the_games_are_turn_based():
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(monolith_envs.make("monolith_arena_v0"))


def test_turn_based_conversion_passes_the_parallel_api_test():
    parallel_api_test(turn_based_aec_to_parallel(monolith_envs.make("monolith_strategy_v0")), num_cycles=200)


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"])
def test_turn_based_parallel_games_play_to_the_end_with_the_aec_returns(env_id):
    env = turn_based_aec_to_parallel(monolith_envs.make(env_id))
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for _ in range(5000):
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1  # one seat acts at a time; the others' masks are all zero
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if a in acting else 0
                   for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
        if not env.agents:
            break
    assert not env.agents
    game = env.aec_env.unwrapped.game
    returns = game.returns(env.aec_env.unwrapped.game_state)
    assert [round(totals[a], 5) for a in env.possible_agents] == [round(float(r), 5) for r in returns]
