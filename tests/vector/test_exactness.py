"""make_vec plays exactly the games of the AEC env: every game a vector env plays is replayed, action by
action, in a fresh ``make(env_id, **config)`` reset with the game's seed, comparing the observation, the mask
and the acting seat before each step, the rewards of every seat after it (and their sum with the game's
returns), the end flags, the final returns and final observations, and every seat's ``observe(seat)``. Every env id, 1 to 4 seats, in process and with 2 workers."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs

CONFIGS = [
    ("monolith_arena_v0", {}),
    ("monolith_arena_v0", {"num_players": 3, "mode": "ffa"}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "teams"}),
    ("monolith_arena_v0", {"max_decisions": 30}),  # truncation and its autoreset
    ("monolith_arena_v0", {"reward_mode": "score"}),  # rewards on most steps
    ("monolith_strategy_v0", {"num_players": 1}),
    ("monolith_strategy_v0", {"num_players": 2}),
    ("monolith_strategy_v0", {"num_players": 4}),
    ("the_monolith_v0", {"num_players": 2}),
    ("the_monolith_v0", {"num_players": 3}),
    ("the_monolith_v0", {"num_players": 4, "reward_mode": "score"}),
]
NUM_ENVS = 2
MAX_STEPS = 400


def _start(env_id: str, config: dict, seed: int):
    env = monolith_envs.make(env_id, **config)
    env.reset(seed=seed)
    return env


def _check_current(env, vec, res, i: int, seats_obs: list) -> None:
    agent = env.agent_selection
    seat = env.unwrapped.agent_name_mapping[agent]
    assert res.current_seat[i] == seat
    obs = env.observe(agent)
    np.testing.assert_array_equal(res.observation[i], obs["observation"])
    np.testing.assert_array_equal(res.action_mask[i], obs["action_mask"].astype(bool))
    assert res.action_mask[i].any()
    for p, rows in enumerate(seats_obs):
        np.testing.assert_array_equal(rows[i], env.observe(f"player_{p}")["observation"])


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize("env_id,config", CONFIGS, ids=[f"{e}-{c}" for e, c in CONFIGS])
def test_vector_games_replay_exactly_in_the_aec_env(env_id, config, workers):
    seed = 1000 + 17 * workers
    rng = np.random.default_rng(seed)
    with monolith_envs.make_vec(env_id, NUM_ENVS, workers=workers, **config) as vec:
        res = vec.reset(seed=seed)
        P = vec.num_players
        seeds = vec.episode_seeds()
        assert seeds == [seed + i for i in range(NUM_ENVS)]
        envs = [_start(env_id, config, s) for s in seeds]
        paid = np.zeros((NUM_ENVS, P))  # the rewards of each slot's current game, summed
        games_done = [0] * NUM_ENVS
        ends = {"terminated": 0, "truncated": 0}
        for step in range(MAX_STEPS):
            seats_obs = [vec.observe(p).copy() for p in range(P)] if step % 7 == 0 else []
            for i, env in enumerate(envs):
                _check_current(env, vec, res, i, seats_obs)
            u = rng.random(res.action_mask.shape)
            u[~res.action_mask] = -1.0
            actions = u.argmax(1)
            acted = [env.agent_selection for env in envs]
            res = vec.step(actions)
            for i, env in enumerate(envs):
                env.step(int(actions[i]))
                raw = env.unwrapped
                want = np.array([raw.rewards[a] for a in raw.possible_agents], np.float32)
                np.testing.assert_array_equal(res.rewards[i], want)
                paid[i] += res.rewards[i]
                returns = raw.game.returns(raw.game_state)
                np.testing.assert_allclose(paid[i], returns, rtol=0, atol=1e-5)
                term = all(raw.terminations.values())
                trunc = all(raw.truncations.values())
                assert (bool(res.terminated[i]), bool(res.truncated[i])) == (term, trunc)
                if term or trunc:
                    ends["terminated" if term else "truncated"] += 1
                    np.testing.assert_array_equal(res.final_returns[i], raw.game.returns(raw.game_state))
                    np.testing.assert_array_equal(res.final_observation[i], env.observe(acted[i])["observation"])
                    assert res.final_observation[i].any()
                    games_done[i] += 1
                    new_seed = seed + i + NUM_ENVS * games_done[i]
                    assert vec.episode_seeds()[i] == new_seed
                    envs[i] = _start(env_id, config, new_seed)
                    paid[i] = 0.0
                else:
                    assert not res.final_returns[i].any() and not res.final_observation[i].any()
            if min(games_done) >= 1 and step % 7 == 6:
                break
        assert min(games_done) >= 1, f"a slot finished no game in {MAX_STEPS} steps"
        if config.get("max_decisions") == 30:
            assert ends["truncated"] >= NUM_ENVS
        else:
            assert ends["terminated"] >= NUM_ENVS


@pytest.mark.parametrize("env_id", monolith_envs.available_envs())
def test_same_seed_same_trajectories_with_any_number_of_workers(env_id):
    runs = []
    for workers in (0, 1, 3):
        rng = np.random.default_rng(5)
        trace = []
        with monolith_envs.make_vec(env_id, 5, workers=workers) as vec:
            res = vec.reset(seed=77)
            for _ in range(40):
                u = rng.random(res.action_mask.shape)
                u[~res.action_mask] = -1.0
                res = vec.step(u.argmax(1))
                trace.append([np.array(x, copy=True) for x in res])
            trace.append([vec.observe(vec.num_players - 1).copy()])
        runs.append(trace)
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y)
