"""VectorEnv.game_states(): the state of each slot's game in progress, the one its observation, mask and seat
come from, including right after a game ended and its slot started the next one; refused with workers,
before reset and after close."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.game import MonolithEnvError
from monolith_envs.core.state import states_equal


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], np.int64)


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "the_monolith_v0"])
def test_states_are_the_games_in_progress(env_id):
    n, seed = 3, 11
    rng = np.random.default_rng(0)
    game = monolith_envs.make_game(env_id)
    ended_seen = 0
    with monolith_envs.make_vec(env_id, n) as vec:
        res = vec.reset(seed=seed)
        # shadow copies of every slot's game, stepped with make_game and the slot's seeds
        shadow_rng = [np.random.default_rng(seed + i) for i in range(n)]
        shadow = [game.initial_state(r) for r in shadow_rng]
        games = [0] * n
        for _ in range(400):
            states = vec.game_states()
            assert isinstance(states, tuple) and len(states) == n
            for i, state in enumerate(states):
                assert states_equal(state, shadow[i])
                seat = game.current_player(state)
                assert seat == res.current_seat[i]
                np.testing.assert_array_equal(game.legal_mask(state), res.action_mask[i])
                np.testing.assert_array_equal(game.observe(state, seat), res.observation[i])
            actions = _random_actions(res.action_mask, rng)
            res = vec.step(actions)
            for i in range(n):
                game.apply(shadow[i], int(actions[i]), shadow_rng[i])
                if res.terminated[i] or res.truncated[i]:
                    ended_seen += 1
                    games[i] += 1
                    shadow_rng[i] = np.random.default_rng(seed + i + n * games[i])
                    shadow[i] = game.initial_state(shadow_rng[i])
    assert ended_seen > 0  # the check covered slots that started their next game


def test_refused_with_workers_before_reset_and_after_close():
    with monolith_envs.make_vec("monolith_arena_v0", 2, workers=1) as vec:
        vec.reset(seed=0)
        with pytest.raises(MonolithEnvError, match="worker processes.*workers=0"):
            vec.game_states()
    vec = monolith_envs.make_vec("monolith_arena_v0", 2)
    with pytest.raises(MonolithEnvError, match="call reset"):
        vec.game_states()
    vec.reset(seed=0)
    assert len(vec.game_states()) == 2
    vec.close()
    with pytest.raises(MonolithEnvError, match="closed"):
        vec.game_states()


def test_reads_after_a_step_that_failed_part_way_or_after_close_are_refused():
    """A step that fails part way (here: an illegal action let through by the vector's own copy of the masks,
    edited; the caller's views do not reach it): the reads refuse until reset, as step does."""
    vec = monolith_envs.make_vec("the_monolith_v0", 4)
    r = vec.reset(seed=0)
    acts = r.action_mask.argmax(1).copy()
    bad = int(np.flatnonzero(~r.action_mask[2])[0])
    acts[2] = bad
    vec._legal[2, bad] = True  # the copy step checks against
    with pytest.raises(monolith_envs.IllegalActionError):
        vec.step(acts)
    for read in (lambda: vec.observe(0), vec.game_states, vec.episode_seeds, lambda: vec.step(acts)):
        with pytest.raises(MonolithEnvError, match=r"a previous step\(\) failed part way; call reset\(\)"):
            read()
    vec.reset(seed=0)
    assert vec.episode_seeds() == [0, 1, 2, 3] and vec.observe(1).shape[0] == 4
    vec.close()
    with pytest.raises(MonolithEnvError, match="closed"):
        vec.episode_seeds()

