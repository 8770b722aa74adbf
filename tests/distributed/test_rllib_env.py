"""The RLlib adapter over every registered env (default config and each other player count), no Ray needed:
only learner seats reach RLlib, their rewards add up to their final returns, the episode ends cleanly."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from benchmarks.specs import _generic_configs

CASES = [(e, label, cfg) for e in monolith_envs.available_envs() for label, cfg in _generic_configs(e)]


@pytest.mark.parametrize(("env_id", "label", "cfg"), CASES, ids=[f"{e}-{label}" for e, label, _ in CASES])
def test_adapter_plays_whole_episodes(env_id, label, cfg):
    from training.rllib_env import IllegalLearnerAction, MonolithMultiAgentEnv

    env = MonolithMultiAgentEnv({"env_id": env_id, "env_config": cfg, "seed": 3,
                                 "opponent_mix": {"learner": 1.0, "random": 1.0}})
    rng = np.random.default_rng(0)
    for _ in range(2):
        obs, infos = env.reset()
        learners = {env.possible_agents[s] for s in env.learners}
        total = {a: 0.0 for a in learners}
        while True:
            (agent, o), = obs.items()
            assert agent in learners and o["action_mask"].any() and set(o) == {"observation", "action_mask"}
            legal, illegal = np.flatnonzero(o["action_mask"]), np.flatnonzero(o["action_mask"] == 0)
            if illegal.size:  # refused before anything is applied
                with pytest.raises(IllegalLearnerAction, match="forbids"):
                    env.step({agent: int(illegal[0])})
            obs, rew, term, trunc, infos = env.step({agent: int(rng.choice(legal))})
            assert set(rew) <= learners
            for a, r in rew.items():
                total[a] += r
            if term["__all__"] or trunc["__all__"]:
                break
        ret = env.game.returns(env.aec.game_state)
        for a in obs:  # every learner seat that acted ends with its last observation and its info
            seat = env.aec.agent_name_mapping[a]
            assert not obs[a]["action_mask"].any() and infos[a]["win"] in (-1, 0, 1)
            assert total[a] == pytest.approx(float(ret[seat]), abs=1e-5)
