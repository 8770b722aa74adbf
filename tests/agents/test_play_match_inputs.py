"""``play_match`` with every form of input it documents (env ids and agent spec strings, either ``mask_in``),
and a clear error for each input it refuses: an action that is not an integer is never truncated and
played."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from monolith_envs.agents import RandomAgent, play_match
from tests.toy_game import ENV_ID


class _Returns:
    """An agent that plays ``value(legal action)`` (a float, None, ...)."""

    def __init__(self, value):
        self.value = value

    def reset(self):
        pass

    def act(self, observation, action_mask, rng):
        return self.value(int(np.flatnonzero(action_mask)[0]))


def test_an_env_id_and_spec_strings_play_the_same_match_as_the_objects():
    by_id = play_match(ENV_ID, ["random", "random"], seed=3)
    by_objects = play_match(monolith_envs.make(ENV_ID), [RandomAgent(), RandomAgent()], seed=3)
    assert by_id.decisions == by_objects.decisions > 0 and by_id.winners == by_objects.winners
    assert np.array_equal(by_id.returns, by_objects.returns)


def test_mask_in_info_plays_the_same_match():
    plain = play_match(monolith_envs.make("monolith_arena_v0"), ["random", "random"], seed=5)
    info = play_match(monolith_envs.make("monolith_arena_v0", mask_in="info"), ["random", "random"], seed=5)
    assert info.decisions == plain.decisions > 10 and np.array_equal(info.returns, plain.returns)


@pytest.mark.parametrize("value, shown", [(lambda a: a + 0.9, r"illegal action \d+\.9: an action must be an integer"),
                                          (lambda a: None, "illegal action None: an action must be an integer"),
                                          (lambda a: 10**6, "illegal action 1000000: out of range")])
def test_an_action_that_is_not_a_legal_integer_names_the_seat(value, shown):
    env = monolith_envs.make(ENV_ID)
    with pytest.raises(monolith_envs.IllegalActionError, match=shown + r".*\(returned by the agent of seat 1, "):
        play_match(env, [RandomAgent(), _Returns(value)], seed=0)
    assert env.unwrapped.num_decisions == 1  # seat 0's move only: nothing was truncated and played


@pytest.mark.parametrize("env, agents, error, message", [
    (3, [], TypeError, "env must be an env of monolith_envs.make\\(\\) or an env id, got int"),
    ("no_such_env_v0", [], monolith_envs.UnknownEnvError, "no_such_env_v0"),
    (ENV_ID, None, TypeError, "agents must be a list of agents or agent spec strings, one per seat, got NoneType"),
    (ENV_ID, "random", TypeError, "agents must be a list .* got str"),
    (ENV_ID, ["random"], ValueError, "has 2 seats, got 1 agents"),
    (ENV_ID, ["random", "mcts:x"], ValueError, "bad agent spec 'mcts:x'"),
])
def test_bad_inputs_are_clear_errors(env, agents, error, message):
    with pytest.raises(error, match=message):
        play_match(env, agents, seed=0)


@pytest.mark.parametrize("illegal_action", ["raise", "penalize"])
def test_a_masked_out_action_names_the_seat_whatever_the_env_does_with_it(illegal_action):
    """An env made with ``illegal_action="penalize"`` would end the match with a penalty and no outcome
    (``outcome()`` of an unfinished game failed); the match refuses the action first, naming the seat."""
    env = monolith_envs.make(ENV_ID, illegal_action=illegal_action)
    first_legal = _Returns(lambda a: a)  # seat 0 plays its first legal action; seat 1 a masked-out one

    class FirstMaskedOut(_Returns):
        def act(self, observation, action_mask, rng):
            return int(np.flatnonzero(np.asarray(action_mask) == 0)[0])

    with pytest.raises(monolith_envs.IllegalActionError,
                       match=r"^illegal action .*: masked out now \(returned by the agent of seat 1, player_1\)"):
        play_match(env, [first_legal, FirstMaskedOut(None)], seed=0)


def test_a_numpy_array_of_agents_plays():
    agents = np.array([RandomAgent(), RandomAgent()], dtype=object)
    assert play_match(ENV_ID, agents, seed=3).decisions == play_match(ENV_ID, ["random", "random"], seed=3).decisions
