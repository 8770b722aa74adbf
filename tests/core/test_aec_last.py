"""``last()`` outside an episode: a clear MonolithEnvError, not a bare KeyError."""

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.game import MonolithEnvError


def _play_out(env) -> None:
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("wrapped", [True, False])
@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "the_monolith_v0"])
def test_last_after_every_agent_left_names_the_state_and_what_to_do(env_id, wrapped):
    env = monolith_envs.make(env_id, wrapped=wrapped)
    env.reset(seed=3)
    _play_out(env)
    assert env.agents == []
    with pytest.raises(MonolithEnvError, match=r"last\(\) after the episode ended .*\(env\.agents is empty\).*"
                       r"game\.returns\(env\.unwrapped\.game_state\), or call reset\(\)"):
        env.last()
    with pytest.raises(MonolithEnvError, match="after the episode ended"):
        env.last(observe=False)
    env.reset(seed=4)  # and the env is usable again
    obs, reward, term, trunc, _info = env.last()
    assert (reward, term, trunc) == (0.0, False, False)
    assert obs["action_mask"].sum() > 0


def test_last_at_the_end_before_the_dead_steps_still_reports():
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        obs = env.last()[0]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    _obs, reward, term, trunc, _info = env.last()
    assert term or trunc
    assert reward in (-1.0, 0.0, 1.0)


def test_bare_last_before_reset_says_reset_first():
    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    with pytest.raises(MonolithEnvError, match=r"last\(\) before reset\(\): call reset\(\) first"):
        env.last()


def test_agent_iter_without_a_step_is_an_error_that_survives_python_O():
    """PettingZoo's iterator asserts that each yielded agent was stepped; ours raises MonolithEnvError (an
    ``assert`` would vanish under ``python -O`` and the loop would go on silently)."""
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=0)
    it = iter(env.agent_iter())
    first = next(it)
    assert first == env.agent_selection
    with pytest.raises(MonolithEnvError, match=r"call step\(\) or reset\(\) in a loop over agent_iter"):
        next(it)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert next(it) == env.agent_selection  # stepping again lets the loop go on


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"])
def test_observe_and_state_before_reset_say_so(env_id):
    env = monolith_envs.make(env_id, wrapped=False)
    with pytest.raises(MonolithEnvError, match=r"observe\(\) before reset\(\): call reset\(\) first"):
        env.observe(env.possible_agents[0])
    with pytest.raises(MonolithEnvError, match=r"state\(\) before reset\(\): call reset\(\) first"):
        env.state()


def test_set_game_state_refuses_a_state_of_another_game_and_keeps_its_own():
    arena = monolith_envs.make("monolith_arena_v0", wrapped=False)
    arena.reset(seed=0)
    before = arena.game.to_dict(arena.game_state)
    other = monolith_envs.make("monolith_strategy_v0", wrapped=False)
    other.reset(seed=0)
    for bad, name in ((None, "NoneType"), (other.game_state, type(other.game_state).__name__)):
        with pytest.raises(MonolithEnvError, match=f"needs a state of this game, a ArenaState .*got {name}"):
            arena.set_game_state(bad)
    assert arena.game.to_dict(arena.game_state) == before  # nothing was stored
    assert arena.last()[0]["action_mask"].sum() > 0


@pytest.mark.parametrize("bad", ["x", float("nan"), -1, True])
def test_agent_iter_names_a_bad_max_iter(bad):
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="agent_iter\\(max_iter\\): a non-negative number, an integer or a float"):
        env.agent_iter(bad)
    assert len(list(zip(range(3), env.agent_iter(0)))) == 0  # 0 yields nothing, as PettingZoo's
    assert next(iter(env.agent_iter(1e6))) == env.agent_selection  # a float limit works, as in PettingZoo


def test_set_game_state_refuses_a_state_of_another_seat_count():
    env = monolith_envs.make("monolith_strategy_v0", wrapped=False, num_players=3)
    env.reset(seed=0)
    other = monolith_envs.make("monolith_strategy_v0", wrapped=False, num_players=2)
    other.reset(seed=0)
    with pytest.raises(MonolithEnvError, match=r"does not fit this env's game and config: state.n = 2: expected "
                                               r"one of 3"):
        env.set_game_state(other.game_state)
    assert env.last()[0]["action_mask"].sum() > 0  # the env kept its own state


@pytest.mark.parametrize("bad, message", [(1.5, "not a float"), (500, "out of range"), ("x", "not a str")])
def test_layout_decode_refuses_what_is_not_an_action(bad, message):
    from monolith_envs.core.game import IllegalActionError

    layout = monolith_envs.make_game("monolith_arena_v0").layout
    with pytest.raises(IllegalActionError, match=message):
        layout.decode(bad)
    assert layout.decode(np.int64(3)) == layout.decode(3)


@pytest.mark.parametrize("wrapped", [True, False])
def test_every_call_before_reset_is_one_reset_needed_error_from_both_forms(wrapped):
    """The bare env and PettingZoo's order-enforcing wrapper raise the same error type before ``reset()``
    (an ``AssertionError`` too, as PettingZoo's wrapper raises), naming the call and the fix."""
    env = monolith_envs.make("the_monolith_v0", wrapped=wrapped, render_mode="ansi")
    agent = env.possible_agents[0]
    calls = {"step": lambda: env.step(0), "last": env.last, "state": env.state, "render": env.render,
             "observe": lambda: env.observe(agent), "agent_iter": lambda: next(iter(env.agent_iter()))}
    for name, call in calls.items():
        with pytest.raises(monolith_envs.ResetNeededError) as e:
            call()
        assert isinstance(e.value, MonolithEnvError) and isinstance(e.value, AssertionError)
        assert name in str(e.value)
        assert "call reset() first" in str(e.value)
    env.reset(seed=0)
    assert next(iter(env.agent_iter())) == env.agent_selection  # the iterator works once reset
