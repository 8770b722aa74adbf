"""SingleAgentEnv.reset(seed) reproduces an episode; Gymnasium's and SB3's env checkers pass in every seat
mode (issue 11 item 7)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from agents import RandomAgent
from training.wrapper import SingleAgentEnv

ARENA = "monolith_arena_v0"
TOY = "toy_tictactoe_v0"
MODES = ["rotate", "random", 0, 1]


def _episode(env, seed):
    obs, info = env.reset(seed=seed)
    trace = [(info["seat"], obs.tobytes(), env.action_masks().tobytes())]
    rng = np.random.default_rng(7)
    done = False
    while not done:
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, r, term, trunc, info = env.step(a)
        trace.append((a, r, obs.tobytes()))
        done = term or trunc
    return trace


@pytest.mark.parametrize("seat", MODES + [2])
def test_seeded_reset_reproduces_the_episode(seat):
    env = SingleAgentEnv(ARENA, [RandomAgent(), RandomAgent()], {"num_players": 3, "mode": "ffa",
                                                                 "max_decisions": 60}, seat=seat)
    first = _episode(env, 123)
    env.reset()  # an unseeded episode in between changes nothing
    assert _episode(env, 123) == first
    other = SingleAgentEnv(ARENA, [RandomAgent(), RandomAgent()], {"num_players": 3, "mode": "ffa",
                                                                   "max_decisions": 60}, seat=seat, seed=99)
    assert _episode(other, 123) == first  # the same on a fresh instance
    assert env.np_random_seed == 123


def test_rotate_seat_comes_from_the_seed():
    env = SingleAgentEnv(ARENA, [RandomAgent()], {"num_players": 3, "mode": "ffa"})
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2}
    s0 = env.reset(seed=5)[1]["seat"]
    assert [env.reset()[1]["seat"] for _ in range(3)] == [(s0 + k) % 3 for k in (1, 2, 3)]
    assert env.reset(seed=5)[1]["seat"] == s0


@pytest.mark.parametrize("seat", MODES)
def test_gymnasium_check_env(seat):
    from gymnasium.utils.env_checker import check_env

    env = SingleAgentEnv(TOY, [RandomAgent()], {"illegal_action": "penalize"}, seat=seat)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures too
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("seat", MODES)
def test_sb3_check_env(seat):
    from stable_baselines3.common.env_checker import check_env

    env = SingleAgentEnv(TOY, [RandomAgent()], {"illegal_action": "penalize"}, seat=seat)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, warn=True)


def test_arena_passes_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env

    env = SingleAgentEnv(ARENA, [RandomAgent()], {"illegal_action": "penalize"}, seat="rotate")
    check_env(env, skip_render_check=True)


def test_penalized_illegal_action_ends_with_a_loss():
    env = SingleAgentEnv(TOY, [RandomAgent()], {"illegal_action": "penalize"}, seat=0)
    env.reset(seed=0)
    env.step(4)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["outcome"], info["win"], info["illegal_action"]) == (-1.0, True, False, "loss", -1,
                                                                                      True)


def test_float_action_is_refused_not_truncated():
    from monolith_envs import IllegalActionError

    env = SingleAgentEnv(TOY, [RandomAgent()], seat=0)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not a float"):
        env.step(4.9)
    assert env.action_masks()[4]  # nothing was applied
