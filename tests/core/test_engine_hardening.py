"""Config values, action types in Game.apply, and messages (issue 11 items 2, 3, 16)."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from monolith_envs import ConfigError, IllegalActionError, MonolithEnvError
from monolith_envs.core.state import to_dict

ARENA = "monolith_arena_v0"
TOY = "toy_tictactoe_v0"


@pytest.mark.parametrize("kw, fragment", [
    ({"render_mode": "svgz"}, "render_mode='svgz'"),
    ({"render_mode": ["ansi"]}, "render_mode=['ansi']"),
    ({"illegal_action": "ignore"}, "illegal_action='ignore'"),
    ({"illegal_action": None}, "illegal_action=None"),
    ({"max_decisions": 2**32 + 100}, "max_decisions=4294967396"),
    ({"max_decisions": 10**18}, "from 1 to 2147483647"),
    ({"max_decisions": 0}, "max_decisions=0"),
    ({"max_decisions": 100.5}, "max_decisions=100.5"),
    ({"team_hp": 30.7, "num_players": 4, "mode": "teams"}, "team_hp=30.7"),
    ({"num_players": 2.0}, "num_players=2.0"),
])
def test_every_bad_config_value_is_a_config_error(kw, fragment):
    with pytest.raises(ConfigError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        monolith_envs.make(ARENA, **kw)


def test_largest_max_decisions_gives_the_exact_observation():
    env = monolith_envs.make(ARENA, wrapped=False, max_decisions=2**31 - 1)
    env.reset(seed=0)
    g, s = env.game, env.game_state
    assert g.max_decisions == 2**31 - 1
    np.testing.assert_array_equal(g.observe(s, 0), g.observer.observe_python(s, 0))


def test_numpy_config_values_become_python_ints():
    g = monolith_envs.make_game(ARENA, num_players=np.int64(3), mode="ffa", max_decisions=np.int32(77))
    assert type(g.config["num_players"]) is int and type(g.config["max_decisions"]) is int
    assert g.max_decisions == 77


@pytest.mark.parametrize("bad", [0.9, True, False, "1", None, np.float64(1.0), np.bool_(True)])
def test_apply_rejects_non_integer_actions(bad):
    g = monolith_envs.make_game(ARENA)
    s = g.initial_state(np.random.default_rng(0))
    a = int(np.flatnonzero(g.legal_mask(s))[0])
    before = to_dict(g.clone(s))
    action = a + bad if isinstance(bad, float) else bad
    with pytest.raises(IllegalActionError, match="an action must be an integer"):
        g.apply(s, action, np.random.default_rng(0))
    assert to_dict(s) == before
    g.apply(s, np.int64(a), np.random.default_rng(0))  # numpy integers are fine
    assert s.decisions == 1


def test_out_of_range_message_has_no_dangling_separator():
    env = monolith_envs.make(TOY, wrapped=False)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError) as ei:
        env.step(9)
    assert str(ei.value) == "illegal action 9: out of range: actions are integers from 0 to 8"


def _play_out(env):
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_dead_agent_message():
    env = monolith_envs.make(TOY, wrapped=False)
    _play_out(env)
    with pytest.raises(IllegalActionError) as ei:
        env.step(0)
    msg = str(ei.value)
    assert "only None" not in msg
    assert msg.startswith("illegal action 0: the episode is over for player_") and "step(None)" in msg


@pytest.mark.parametrize("wrapped", [False, True])
def test_step_after_the_end_is_the_same_error_in_env_and_raw_env(wrapped, recwarn):
    env = monolith_envs.make(TOY, wrapped=wrapped)
    _play_out(env)
    for _ in env.possible_agents:
        env.step(None)
    assert env.agents == []
    with pytest.raises(MonolithEnvError, match="every agent was stepped out with None; call reset"):
        env.step(None)
    with pytest.raises(MonolithEnvError, match="call reset"):
        env.step(0)
    assert not [w for w in recwarn if "step" in str(w.message)]
