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


def _first_episode(env, seed):
    """The learner seats that got an observation, the opponent seats, and the observation."""
    obs, _ = env.reset(seed=seed)
    (agent, o), = obs.items()
    return [agent], sorted(env.opponents), o["observation"].tolist()


def test_a_seeded_reset_gives_the_same_episode_whatever_came_before():
    from training.rllib_env import MonolithMultiAgentEnv

    cfg = {"env_id": "monolith_arena_v0", "opponent_mix": {"learner": 0.0, "random": 1.0}}
    fresh = MonolithMultiAgentEnv(cfg)
    used = MonolithMultiAgentEnv(cfg)
    used.reset()
    a, b = _first_episode(fresh, 1), _first_episode(used, 1)
    assert a[0] == b[0] == ["player_0"]  # "rotate" starts again at seat 0 (it followed the episodes played)
    assert a == b


def test_no_learner_decision_within_max_decisions_is_one_clear_error():
    from training.rllib_env import MonolithMultiAgentEnv

    env = MonolithMultiAgentEnv({"env_id": "monolith_arena_v0", "env_config": {"max_decisions": 1}, "seat": 1,
                                 "opponent_mix": {"random": 1.0}})
    with pytest.raises(monolith_envs.MonolithEnvError,
                       match=r"100 episodes in a row ended before a learner seat acted \(max_decisions=1\?\)"):
        env.reset(seed=0)


def test_a_shared_first_place_is_no_win_and_allies_win_together():
    """infos[agent]["win"] at the end of a game: a first place shared with another side is 0 (as
    training.evaluate counts it), allies of the 2v2 teams mode who both WIN each count a win."""
    from monolith_envs.core.game import Outcome
    from training.rllib_env import MonolithMultiAgentEnv

    W, L = Outcome.WIN, Outcome.LOSS
    ffa = MonolithMultiAgentEnv({"env_id": "monolith_arena_v0", "env_config": {"num_players": 4, "mode": "ffa"}})
    assert [ffa._win((L, W, L, W), s) for s in range(4)] == [-1, 0, -1, 0]
    assert [ffa._win((L, W, L, L), s) for s in range(4)] == [-1, 1, -1, -1]
    teams = MonolithMultiAgentEnv({"env_id": "monolith_arena_v0", "env_config": {"num_players": 4, "mode": "teams"}})
    assert [teams._win((W, L, W, L), s) for s in range(4)] == [1, -1, 1, -1]
    assert ffa._win(None, 0) == 0
