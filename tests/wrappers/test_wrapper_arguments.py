"""SingleAgentEnv refuses bad arguments when built, a step before reset, after the end and after an opponent's
error, with messages that name them; its info mask is a copy;
``shaping="heuristic"`` means the game's heuristic value function, as the training config key does."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from monolith_envs.agents import RandomAgent
from monolith_envs.agents.heuristics import value_fn_for
from monolith_envs.core.config import ConfigError
from monolith_envs.core.game import IllegalActionError
from monolith_envs.wrappers import SingleAgentEnv

ENV = "monolith_arena_v0"


@pytest.mark.parametrize("kwargs, message", [
    ({"shaping": "heur"}, "shaping must be None, 'none', 'heuristic' or a value_fn(game, state)"),
    ({"shaping": 3}, "got 3"),
    ({"shaping_coef": float("nan")}, "shaping_coef must be a number from -1e+06 to 1e+06, got nan"),
    ({"shaping_gamma": 2}, "shaping_gamma must be a number from 0 to 1, got 2"),
    ({"shaping_gamma": True}, "shaping_gamma must be a number from 0 to 1, got True"),
])
def test_bad_shaping_arguments_fail_when_built(kwargs, message):
    with pytest.raises(ConfigError) as ei:
        SingleAgentEnv(ENV, ["random"], **kwargs)
    assert message in str(ei.value)


def test_heuristic_shaping_is_the_games_value_function():
    named = SingleAgentEnv(ENV, ["random"], shaping="heuristic", seed=3)
    given = SingleAgentEnv(ENV, ["random"], shaping=value_fn_for(ENV), seed=3)
    plain = SingleAgentEnv(ENV, ["random"], shaping="none", seed=3)
    rewards = {id(e): [] for e in (named, given, plain)}
    for env in (named, given, plain):
        _, info = env.reset(seed=3)
        for _ in range(30):
            _, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            rewards[id(env)].append(r)
            if term or trunc:
                break
    assert rewards[id(named)] == rewards[id(given)]
    assert rewards[id(named)] != rewards[id(plain)]  # the potential moved the rewards


def test_step_before_reset_says_reset_first():
    with pytest.raises(gym.error.ResetNeeded, match="step\\(\\) before reset\\(\\); call reset\\(\\) first"):
        SingleAgentEnv(ENV, ["random"]).step(0)


def test_action_masks_before_reset_says_reset_first_and_after_it_is_the_learners_mask():
    env = SingleAgentEnv(ENV, ["random"])
    with pytest.raises(gym.error.ResetNeeded, match="action_masks\\(\\) before reset\\(\\); call reset\\(\\) first"):
        env.action_masks()
    _, info = env.reset(seed=1)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.any()
    np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))


@pytest.mark.parametrize("returned", [[float("nan")] * 2, [float("inf"), 0.0], [0.0, 0.0, 0.0], 0.5, [0.1], "ab"])
def test_a_shaping_function_must_return_one_finite_value_per_seat(returned):
    env = SingleAgentEnv(ENV, ["random"], shaping=lambda game, state: returned)
    with pytest.raises(ValueError) as ei:
        env.reset(seed=0)
    assert "the shaping function must return 2 finite numbers (one value per seat), got" in str(ei.value)


def test_a_solo_game_given_opponents_says_it_is_solo_and_a_numpy_seat_is_a_seat():
    with pytest.raises(ConfigError, match="with 1 player is a solo game: it takes no opponents, got \\['random'\\]"):
        SingleAgentEnv("monolith_strategy_v0", ["random"], num_players=1)
    env = SingleAgentEnv(ENV, ["random"], seat=np.int64(1))
    env.reset(seed=0)
    assert env.learner == 1


class _BuggyOpponent:
    """Plays its last legal action, returned as ``kind``: a float just below the next action, a string, None."""

    name = "buggy"

    def __init__(self, kind):
        self.kind = kind

    def reset(self):
        pass

    def act(self, observation, action_mask, rng):
        a = int(np.flatnonzero(action_mask)[-1])
        return {"float": a + 0.99, "str": str(a), "none": None}[self.kind]


@pytest.mark.parametrize("kind", ["float", "str", "none"])
def test_an_opponents_non_integer_action_is_refused_and_names_the_opponent(kind):
    from monolith_envs.core.game import IllegalActionError

    env = SingleAgentEnv(ENV, [_BuggyOpponent(kind)], seat=0)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="an action must be an integer from 0 to 499") as ei:
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert "the action came from the opponent 'buggy' at seat 1" in ei.value.__notes__
    assert len(env.aec.episode_log.actions) == 1  # only the learner's action was played


@pytest.mark.parametrize("sampler, message", [
    (lambda rng, k: ["random"] * (k + 1), "must return a list of k=3 agents"),
    (lambda rng, k: None, "must return a list of k=3 agents, got None"),
    (lambda rng, k: [1] * k, "returned 1, not an agent"),
])
def test_an_opponent_sampler_returning_the_wrong_agents_is_a_config_error(sampler, message):
    with pytest.raises(ConfigError, match=message):
        SingleAgentEnv("the_monolith_v0", sampler).reset(seed=0)


def test_reset_gives_up_when_no_episode_reaches_the_learner_and_refuses_huge_seeds():
    from monolith_envs.core.game import MonolithEnvError

    env = SingleAgentEnv(ENV, ["random"], seat=1, max_decisions=1)  # seat 0 ends every game at once
    with pytest.raises(MonolithEnvError, match="100 episodes in a row ended before the learner's seat 1 acted"):
        env.reset(seed=0)
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*128-1"):
        SingleAgentEnv(ENV, ["random"]).reset(seed=2**200)


class _IllegalOpponent:
    """Plays the first masked-out action: an opponent with a bug."""

    name = "buggy"

    def reset(self):
        pass

    def act(self, observation, action_mask, rng):
        return int(np.flatnonzero(np.asarray(action_mask) == 0)[0])


def test_info_action_mask_is_a_copy_so_editing_it_changes_nothing():
    env = SingleAgentEnv(ENV, opponents=["random"], seed=0)
    _, info = env.reset(seed=0)
    legal = env.action_masks().copy()
    assert 0 < legal.sum() < legal.size
    info["action_mask"][:] = 1
    np.testing.assert_array_equal(env.action_masks(), legal)


@pytest.mark.parametrize("kwargs, message", [
    ({"opponents": [RandomAgent]}, "opponents\\[0\\] = RandomAgent is an agent class; pass an instance, e.g. "
                                   "RandomAgent\\(\\)"),
    ({"opponents": RandomAgent}, "RandomAgent is an agent class; pass an instance"),
    ({"opponents": ["random"], "wrapped": False}, "wrapped is not an option of the single-agent env"),
    ({"opponents": ["random"], "env_config": "num_players=3"},
     "env_config must be a dict of game config keys .* got str 'num_players=3'"),
])
def test_mistakes_a_new_user_makes_are_config_errors_when_built(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        gym.make("monolith_envs/MonolithArena-v0", **kwargs)


def test_after_an_opponents_illegal_action_the_mask_is_empty_and_step_says_reset():
    env = SingleAgentEnv(ENV, opponents=[_IllegalOpponent()], seat=0, seed=0)
    _, info = env.reset(seed=0)
    with pytest.raises(IllegalActionError) as caught:
        env.step(int(np.flatnonzero(info["action_mask"])[0]))  # the opponent answers with an illegal action
    assert "the action came from the opponent 'buggy' at seat 1" in caught.value.__notes__
    assert not env.action_masks().any()
    with pytest.raises(gym.error.ResetNeeded, match="step\\(\\) after an illegal action of the opponent 'buggy' "
                                                    "at seat 1; the episode cannot go on, call reset\\(\\)"):
        env.step(0)
    env.set_state(env.game.initial_state(np.random.default_rng(0)))  # a new state: the episode goes on
    assert env.action_masks().any()
    with pytest.raises(IllegalActionError):  # the buggy opponent again, not ResetNeeded
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    _, info = env.reset(seed=0)  # a new episode: the learner (seat 0) decides first, and its mask is back
    np.testing.assert_array_equal(info["action_mask"].astype(bool), env.action_masks())
    assert env.action_masks().sum() > 1


def test_step_after_the_end_needs_reset_and_an_illegal_learner_action_points_to_penalize():
    env = SingleAgentEnv(ENV, opponents=["random"], seed=0)
    _, info = env.reset(seed=0)
    with pytest.raises(IllegalActionError) as caught:
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert any("illegal_action='penalize'" in n for n in caught.value.__notes__)
    rng = np.random.default_rng(0)
    done = False
    while not done:  # the refused action changed nothing: the episode plays to its end
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = term or trunc
    with pytest.raises(gym.error.ResetNeeded, match="step\\(\\) after the episode ended \\(terminated or "
                                                    "truncated\\); call reset\\(\\)"):
        env.step(0)


def test_an_unknown_key_is_named_where_it_was_given():
    """A key of the env_config dict is called a config key in env_config, not a keyword."""
    from monolith_envs import ConfigError
    from monolith_envs.wrappers import SingleAgentEnv

    with pytest.raises(ConfigError) as ei:
        SingleAgentEnv("monolith_arena_v0", ["random"], {"num_player": 2})
    assert str(ei.value).startswith("monolith_arena_v0: unknown config key(s) in env_config 'num_player' "
                                    "('num_player': did you mean 'num_players'?); SingleAgentEnv takes")
    with pytest.raises(ConfigError) as ei:
        SingleAgentEnv("monolith_arena_v0", ["random"], {"num_player": 2}, oponents=1)
    assert str(ei.value).startswith("SingleAgentEnv() got an unexpected keyword argument 'oponents'; "
                                    "monolith_arena_v0: unknown config key(s) in env_config 'num_player' and "
                                    "unknown keyword(s) 'oponents' (")


def test_an_unknown_keyword_is_pythons_type_error_and_a_config_error():
    """A keyword the wrapper does not take is a TypeError in Python's words (code such as TorchRL's GymEnv
    retries without an optional keyword on it) and a ConfigError; a key inside env_config is not a keyword."""
    import gymnasium as gym

    from monolith_envs.core.config import UnknownKeywordError
    from monolith_envs.wrappers import SingleAgentEnv

    with pytest.raises(TypeError, match=r"^SingleAgentEnv\(\) got an unexpected keyword argument 'frameskip'; ") as ei:
        gym.make("monolith_envs/MonolithArena-v0", opponents=["random"], frameskip=1)
    assert isinstance(ei.value, ConfigError) and "SingleAgentEnv takes opponents" in str(ei.value)
    with pytest.raises(UnknownKeywordError, match=r"argument 'a' \(and 'b'\); "):
        SingleAgentEnv("monolith_arena_v0", ["random"], a=1, b=2)
    with pytest.raises(ConfigError) as ei:
        SingleAgentEnv("monolith_arena_v0", ["random"], {"frameskip": 1})
    assert not isinstance(ei.value, TypeError)
