"""make_vec's arguments, errors, seeds and worker lifetime: bad input is refused with a message naming it,
an illegal action names its game and changes nothing, a worker's error arrives as the same exception, a dead
or hung worker is reported, and close / with / garbage collection end every worker."""

from __future__ import annotations

import gc
import os
import re
import signal
import time

import numpy as np
import pytest

import monolith_envs
from monolith_envs import ConfigError, IllegalActionError, MonolithEnvError, ResetNeededError, make_vec
from monolith_envs.core.content import ContentError
from monolith_envs.vector import WorkerError
from tests.vector.failing_game import ENV_ID as FAILING_ID
from tests.vector.failing_game import MODULE as FAILING_MODULE

ARENA = "monolith_arena_v0"


@pytest.fixture(scope="module", autouse=True)
def _failing_env_registered():
    """The failing test game is registered for this module's tests only (not for tests that list every id)."""
    monolith_envs.register(FAILING_ID, lambda: FAILING_MODULE)
    yield
    monolith_envs._REGISTRY.pop(FAILING_ID, None)


def _masked_out(res) -> np.ndarray:
    return np.argmin(res.action_mask, axis=1)  # the first illegal action of each game


@pytest.mark.parametrize("kwargs,needle", [
    ({"num_envs": 0}, "num_envs=0"),
    ({"num_envs": True}, "num_envs=True"),
    ({"num_envs": 2.0}, "num_envs=2.0"),
    ({"num_envs": 70000}, "num_envs=70000"),
    ({"num_envs": 2, "workers": 3}, "workers=3"),
    ({"num_envs": 2, "workers": -1}, "workers=-1"),
    ({"num_envs": 2, "mask_in": "nowhere"}, "mask_in='nowhere'"),
    ({"num_envs": 2, "timeout": 0}, "timeout=0"),
    ({"num_envs": 2, "timeout": float("nan")}, "timeout=nan"),
    ({"num_envs": 2, "num_players": 9}, "num_players"),
    ({"num_envs": 2, "no_such_key": 1}, "no_such_key"),
    ({"num_envs": 2, "render_mode": "ansi"}, "make_vec: render_mode='ansi' (a vector env does not render;"),
    ({"num_envs": 2, "illegal_action": "penalize", "wrapped": False, "render_mode": "x" * 100},
     f"make_vec: render_mode='{'x' * 59}... (102 characters) (a vector env does not render; draw one game with make(env_id, "
     "render_mode=...) and a seed of vec.episode_seeds()); illegal_action='penalize' (a masked-out action always "
     "raises IllegalActionError naming the game); wrapped=False (a vector env has no PettingZoo wrapper to leave "
     "out): options of make(), not config keys of monolith_arena_v0, and a vector env takes only their defaults"),
])
def test_bad_arguments_raise_config_error_naming_them(kwargs, needle):
    with pytest.raises(ConfigError, match=re.escape(needle)):
        make_vec(ARENA, **kwargs)


def test_make_options_at_their_defaults_are_accepted():
    with make_vec(ARENA, 2, render_mode=None, illegal_action="raise", wrapped=True) as vec:
        assert vec.reset(seed=1).action_mask.any(1).all()


def test_unknown_env_id_lists_the_registered_ones():
    with pytest.raises(KeyError, match="monolith_arena_v0"):
        make_vec("no_such_env_v0", 2)


def test_array_memory_bound_is_a_config_error():
    with pytest.raises(ConfigError, match="GiB"):
        make_vec(ARENA, 60000, num_players=4, mode="ffa")


def test_reset_seeds_and_shapes_and_dtypes():
    vec = make_vec(ARENA, 3)
    with pytest.raises(MonolithEnvError, match="reset"):
        vec.step(np.zeros(3, np.int64))
    aec = monolith_envs.make(ARENA)
    for bad, error in ((-1, ValueError), (2**128, ValueError), (1.5, TypeError), ("3", TypeError),
                       (True, TypeError)):
        with pytest.raises(error, match="seed"):
            vec.reset(seed=bad)
        with pytest.raises(error, match="seed"):  # the same class as the AEC env's reset
            aec.reset(seed=bad)
    res = vec.reset(seed=10)
    assert vec.episode_seeds() == [10, 11, 12]
    assert res.observation.shape == (3, vec.obs_size) and res.observation.dtype == np.float32
    assert res.action_mask.shape == (3, 500) and res.action_mask.dtype == np.bool_
    assert res.current_seat.dtype == np.int32 and res.rewards.shape == (3, 2) and res.rewards.dtype == np.float32
    assert res.terminated.dtype == np.bool_ and res.final_returns.shape == (3, 2)
    assert vec.observe(1).shape == (3, vec.obs_size)
    env = monolith_envs.make(ARENA)
    env.reset(seed=11)
    np.testing.assert_array_equal(res.observation[1], env.observe(env.agent_selection)["observation"])
    again = vec.reset(seed=10, options={"x": 1})  # Gymnasium's signature: options taken and ignored, as in make()
    np.testing.assert_array_equal(again.observation[1], env.observe(env.agent_selection)["observation"])
    vec.reset()  # unseeded: a drawn base seed, still consecutive per slot
    s = vec.episode_seeds()
    assert s[1] == s[0] + 1 and s[2] == s[0] + 2
    vec.reset(seed=2**128 - 2)  # near the largest seed the game seeds wrap around, so every game replays
    assert vec.episode_seeds() == [2**128 - 2, 2**128 - 1, 0]
    env.reset(seed=0)
    np.testing.assert_array_equal(vec.observe(int(vec.reset(seed=2**128 - 2).current_seat[2]))[2],
                                  env.observe(env.agent_selection)["observation"])


@pytest.mark.parametrize("bad,err,needle", [
    (np.zeros(2, np.int64), ValueError, r"shape \(3,\)"),
    (np.zeros((3, 1), np.int64), ValueError, r"shape \(3,\)"),
    (np.zeros(3, np.float64), ValueError, "integer array"),
    (np.array([0, 500, 0]), IllegalActionError, r"^game 1 of 3: illegal action 500: out of range; actions are 0\.\.499$"),
    (np.array([0, 0, -1]), IllegalActionError, r"^game 2 of 3: illegal action -1: out of range"),
    ([0, 2**64, 0], IllegalActionError, r"^game 1 of 3: illegal action 18446744073709551616: out of range"),
    (np.array([np.int64(0), 2**70, 0], dtype=object), IllegalActionError,
     r"^game 1 of 3: illegal action 1180591620717411303424: out of range"),
    ([0, 0, True], ValueError, r"^make_vec step: actions\[2\] is True, a bool; actions are integers from 0 to 499$"),
    ((np.bool_(False), 0, 0), ValueError, r"actions\[0\] is np.False_, a bool|actions\[0\] is False, a bool"),
    (np.array([0, True, 0], dtype=object), ValueError, r"actions\[1\] is True, a bool"),
])
def test_bad_actions_are_refused(bad, err, needle):
    vec = make_vec(ARENA, 3)
    vec.reset(seed=0)
    with pytest.raises(err, match=needle) as info:
        vec.step(bad)
    if err is IllegalActionError:  # the attributes of a masked-out action's error
        i = int(needle[len("^game ")])
        assert info.value.game_index == i and info.value.action == int(bad[i])


def test_an_object_array_of_legal_python_ints_is_played():
    """``np.array([...], dtype=object)`` of in-range ints plays as the int64 array does (a StopIteration
    escaped once the check for ints beyond int64 found none out of range)."""
    with make_vec(ARENA, 3) as vec, make_vec(ARENA, 3) as ref:
        res, want = vec.reset(seed=2), ref.reset(seed=2)
        legal = res.action_mask.argmax(1)
        res, want = vec.step(np.array([int(a) for a in legal], dtype=object)), ref.step(legal)
        assert np.array_equal(res.observation, want.observation)
        assert np.array_equal(res.current_seat, want.current_seat)


def test_workers_beyond_the_games_are_refused_naming_num_envs():
    with pytest.raises(ConfigError, match=r"workers=3 is more processes than games: .* at most num_envs=2"):
        make_vec(ARENA, 2, workers=3)


def test_batched_spaces_follow_gymnasium_vector_envs():
    import gymnasium

    with make_vec(ARENA, 3) as vec, make_vec(ARENA, 3, mask_in="info") as vinfo:
        assert vec.action_space == gymnasium.spaces.MultiDiscrete([500, 500, 500])
        assert vec.observation_space == gymnasium.vector.utils.batch_space(vec.single_observation_space, 3)
        assert vec.observation_space["observation"].shape == (3, vec.obs_size)
        assert vec.observation_space["action_mask"].shape == (3, 500)
        assert vinfo.observation_space.shape == (3, vinfo.obs_size)
        res = vinfo.reset(seed=4)
        assert vinfo.observation_space.contains(res.observation)
        assert vec.action_space.contains(res.action_mask.argmax(1).astype(np.int64))


@pytest.mark.parametrize("workers", [0, 2])
def test_result_arrays_changed_in_place_change_nothing(workers):
    """The rewards, end flags and final returns handed out are the caller's to change (normalising rewards
    in place, a time limit of its own): the next step writes them whole, and ``episode_seeds`` follows the
    games, not the edited flags."""
    seed = 100
    with make_vec(ARENA, 4, workers=workers) as vec, make_vec(ARENA, 4) as ref:
        res, want = vec.reset(seed=seed), ref.reset(seed=seed)
        rng = np.random.default_rng(0)
        for step in range(40):
            res.rewards[:] = 7.0
            res.terminated[:] = True
            res.truncated[:] = True
            res.final_returns[:] = 3.0
            actions = res.action_mask.argmax(1) if step % 2 else np.array(
                [rng.choice(np.flatnonzero(m)) for m in res.action_mask])
            res, want = vec.step(actions), ref.step(actions)
            for name in ("rewards", "terminated", "truncated", "final_returns", "observation", "action_mask"):
                assert np.array_equal(getattr(res, name), getattr(want, name)), (step, name)
            assert vec.episode_seeds() == ref.episode_seeds()
        assert vec.episode_seeds() == [seed, seed + 1, seed + 2, seed + 3]  # no game ended in 40 decisions


@pytest.mark.parametrize("workers", [0, 2])
def test_illegal_action_names_its_game_and_changes_nothing(workers):
    with make_vec(ARENA, 4, workers=workers) as vec:
        res = vec.reset(seed=3)
        legal = res.action_mask.argmax(1)
        actions = legal.copy()
        actions[2] = _masked_out(res)[2]
        with pytest.raises(IllegalActionError) as info:
            vec.step(actions)
        assert info.value.game_index == 2
        assert str(info.value).startswith("game 2 of 4: illegal action ")
        assert "legal now:" in str(info.value)
        vec.step(legal)  # nothing was played: the legal step continues the same games as the AEC env
        env = monolith_envs.make(ARENA)
        env.reset(seed=5)
        env.step(int(legal[2]))
        np.testing.assert_array_equal(res.observation[2], env.observe(env.agent_selection)["observation"])


def test_illegal_message_is_the_same_with_and_without_workers():
    msgs = []
    for workers in (0, 2):
        with make_vec(ARENA, 4, workers=workers) as vec:
            res = vec.reset(seed=8)
            actions = res.action_mask.argmax(1)
            actions[3] = _masked_out(res)[3]
            with pytest.raises(IllegalActionError) as info:
                vec.step(actions)
            msgs.append(str(info.value))
    assert msgs[0] == msgs[1]


@pytest.mark.parametrize("workers", [0, 2])
def test_engine_error_arrives_as_the_same_exception_and_step_then_needs_reset(workers):
    with make_vec(FAILING_ID, 4, workers=workers) as vec:
        vec.reset(seed=0)
        with pytest.raises(ContentError, match="the centre is broken") as info:
            vec.step(np.array([0, 1, 4, 2]))
        assert (info.value.path, info.value.line, info.value.field) == ("broken.toml", 3, "cell")
        if workers:
            assert any("worker 1 (games 2..3)" in n for n in info.value.__notes__)
        with pytest.raises(ResetNeededError, match="call reset"):
            vec.step(np.array([0, 1, 2, 3]))
        vec.reset(seed=0)
        vec.step(np.array([0, 1, 2, 3]))


def test_dead_worker_is_reported_and_the_env_closed():
    vec = make_vec(FAILING_ID, 4, workers=2)
    vec.reset(seed=0)
    t = time.monotonic()
    with pytest.raises(WorkerError, match=r"worker 0 \(games 0\.\.1\) died \(exit code 7\)") as ei:
        vec.step(np.array([8, 0, 0, 0]))
    assert time.monotonic() - t < 10
    assert ei.value.exitcode == 7
    with pytest.raises(MonolithEnvError, match="closed"):
        vec.reset(seed=0)


def test_hung_worker_is_reported_within_the_timeout():
    vec = make_vec(ARENA, 2, workers=2, timeout=3.0)
    res = vec.reset(seed=0)
    pid = vec._pool.procs[1].pid
    os.kill(pid, signal.SIGSTOP)
    try:
        t = time.monotonic()
        with pytest.raises(WorkerError, match=r"worker 1 \(games 1\.\.1\) did not answer within 3 s"):
            vec.step(res.action_mask.argmax(1))
        assert time.monotonic() - t < 6  # the timeout, then the hung worker killed at once (not 2 s of grace)
    finally:
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
    assert not vec._pool.procs  # every worker was ended


def _wait_dead(procs, seconds=10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(p.is_alive() for p in procs):
            return True
        time.sleep(0.05)
    return False


def test_close_with_and_garbage_collection_end_every_worker():
    vec = make_vec(ARENA, 2, workers=2)
    procs = list(vec._pool.procs)
    vec.close()
    vec.close()
    assert _wait_dead(procs)
    with make_vec(ARENA, 2, workers=2) as vec:
        procs = list(vec._pool.procs)
        vec.reset(seed=1)
    assert _wait_dead(procs)
    vec = make_vec(ARENA, 2, workers=1)
    procs = list(vec._pool.procs)
    assert all(p.is_alive() for p in procs)
    del vec
    gc.collect()
    assert _wait_dead(procs)


def test_a_vector_refuses_to_be_pickled_or_copied_naming_what_to_do():
    import copy
    import pickle

    with make_vec("monolith_arena_v0", 2) as vec:
        res = vec.reset(seed=0)
        for fn in (pickle.dumps, copy.deepcopy):
            with pytest.raises(TypeError, match="cannot be pickled or copied .* pass make_vec's arguments instead"):
                fn(vec)
        actions = np.array([np.flatnonzero(m)[0] for m in res.action_mask])
        assert vec.step(actions).observation.shape == (2, vec.obs_size)  # still usable


def test_observe_refuses_a_seat_that_is_not_one():
    vec = make_vec(ARENA, 2)
    with pytest.raises(MonolithEnvError, match="reset"):
        vec.observe(0)
    vec.reset(seed=0)
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="expected an integer from 0 to 1"):
            vec.observe(bad)


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"])
def test_row_writers_write_game_observe_into_a_dirty_row(env_id):
    from monolith_envs.vector._obs import _compiled_writer, _copying_writer

    game = monolith_envs.make_game(env_id)
    writers = [_copying_writer(game)]
    if getattr(game.observer, "compiled", False):
        writers.append(_compiled_writer(game))
        assert writers[-1] is not None
    rng = np.random.default_rng(0)
    state = game.initial_state(np.random.default_rng(0))
    for _ in range(25):
        for write in writers:
            for seat in range(game.num_players):
                row = np.full(game.obs_spec.size, 7.0, np.float32)  # garbage left by a previous game
                write(state, seat, row)
                np.testing.assert_array_equal(row, game.observe(state, seat))
            with pytest.raises(ValueError):
                write(state, game.num_players, np.zeros(game.obs_spec.size, np.float32))
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))), rng)


class _InterruptOnce:
    """A worker pipe whose ``send`` or ``recv`` (``where``) does its work, then raises KeyboardInterrupt once,
    as a Ctrl-C landing on the next bytecode would."""

    def __init__(self, conn, where):
        self.conn, self.where, self.fired = conn, where, False

    def __getattr__(self, name):
        return getattr(self.conn, name)

    def _maybe(self):
        if not self.fired:
            self.fired = True
            raise KeyboardInterrupt

    def send(self, obj):
        self.conn.send(obj)
        if self.where == "send":
            self._maybe()

    def recv(self):
        msg = self.conn.recv()
        if self.where == "recv":
            self._maybe()
        return msg


@pytest.mark.parametrize("where", ["wait", "send", "recv"])
def test_a_call_interrupted_by_ctrl_c_leaves_no_stale_answer_for_the_next_call(where):
    """Ctrl-C before an answer is read, right after a command is written, or right after an answer is read:
    the next calls wait for their own answers (older ones are dropped), so the arrays are those of the new
    commands, not of the interrupted one, and nothing waits for an answer that was already read."""
    ref = make_vec("monolith_arena_v0", 256)
    with make_vec("monolith_arena_v0", 256, workers=2, timeout=20) as vec:
        vec.reset(seed=0)
        pool = vec._pool
        if where == "wait":
            answer = pool._answer

            def interrupt_once(k):
                pool._answer = answer
                raise KeyboardInterrupt  # as the signal would, before any answer of this reset was read

            pool._answer = interrupt_once
        else:
            pool.conns[0] = _InterruptOnce(pool.conns[0], where)
        with pytest.raises(KeyboardInterrupt):
            vec.reset(seed=1)
        start = time.monotonic()
        res, expect = vec.reset(seed=5), ref.reset(seed=5)
        assert time.monotonic() - start < 10  # no wait for an answer that was read before the interrupt
        rng = np.random.default_rng(0)
        for _ in range(10):
            assert np.array_equal(res.observation, expect.observation)
            assert np.array_equal(res.action_mask, expect.action_mask)
            actions = (rng.random(expect.action_mask.shape) * expect.action_mask).argmax(1)
            res, expect = vec.step(actions), ref.step(actions)
            assert np.array_equal(vec.observe(1), ref.observe(1))
    ref.close()


@pytest.mark.parametrize("workers", [0, 2])
def test_a_mask_changed_in_place_lets_no_illegal_action_through(workers):
    """The returned mask is the caller's to change (a policy masking in place): step checks the actions
    against its own copy, refuses the masked-out one naming its game, plays nothing, and the games go on."""
    with make_vec(ARENA, 4, workers=workers) as vec:
        res = vec.reset(seed=3)
        before = res.observation.copy()
        actions = res.action_mask.argmax(1)
        legal = int(actions[1])
        bad = _masked_out(res)[1]
        res.action_mask[1, bad] = True  # the caller's view, changed in place
        actions[1] = bad
        with pytest.raises(IllegalActionError) as info:
            vec.step(actions)
        assert info.value.game_index == 1 and str(info.value).startswith("game 1 of 4: illegal action ")
        assert np.array_equal(res.observation, before)  # nothing was played
        actions[1] = legal
        res = vec.step(actions)  # the games go on (a step that failed part way would refuse this one)
        assert not np.array_equal(res.observation, before)


def test_an_error_that_cannot_be_pickled_keeps_its_notes_on_the_way_back():
    from monolith_envs.vector._workers import _transportable

    class Local(Exception):  # defined in a function: pickle cannot find its class
        pass

    exc = Local("boom")
    exc.add_note("raised in worker 0 (games 0..1) during step")
    out = _transportable(exc)
    assert type(out) is MonolithEnvError and str(out) == "Local: boom"
    assert out.__notes__ == ["raised in worker 0 (games 0..1) during step"]


@pytest.mark.parametrize("workers", [0, 2])
def test_final_observation_ignores_seats_and_rows_changed_in_place(workers):
    """final_observation holds, where a game ended, the view of the seat that acted: the vector keeps its own
    copy of the seats, so a caller writing into current_seat (or into final_observation) changes nothing there."""
    with make_vec(ARENA, 3, workers=workers, max_decisions=7) as vec, make_vec(ARENA, 3, max_decisions=7) as ref:
        res, want = vec.reset(seed=9), ref.reset(seed=9)
        ended = 0
        for _ in range(30):
            actions = want.action_mask.argmax(1)
            res.current_seat[:] = 1 - res.current_seat  # the other seat, written by the caller
            res.final_observation[:] = 5.0
            res, want = vec.step(actions), ref.step(actions)
            done = want.terminated | want.truncated
            ended += int(done.sum())
            np.testing.assert_array_equal(res.final_observation[done], want.final_observation[done])
            np.testing.assert_array_equal(res.current_seat, want.current_seat)
        assert ended >= 9  # 3 games cut at 7 decisions, over 30 steps


def test_an_unseeded_reset_follows_the_last_seeded_one_as_gymnasiums_np_random():
    """reset(seed=s) then reset() gives the same games every time (the AEC env and the Gymnasium wrapper
    continue their generator so; the vector drew OS entropy); before any seeded reset the games differ."""
    runs = []
    for _ in range(2):
        with make_vec(ARENA, 2) as vec:
            vec.reset(seed=0)
            first = vec.episode_seeds()
            vec.reset()
            second = vec.episode_seeds()
            vec.reset()
            runs.append((first, second, vec.episode_seeds()))
    assert runs[0] == runs[1]
    first, second, third = runs[0]
    assert first == [0, 1] and len({first[0], second[0], third[0]}) == 3 and second[1] == second[0] + 1
    with make_vec(ARENA, 2) as a, make_vec(ARENA, 2) as b:
        a.reset()
        b.reset()
        assert a.episode_seeds() != b.episode_seeds()  # OS entropy: 2 draws below 2**63 that meet are negligible


def test_a_call_before_reset_raises_the_aec_envs_reset_needed_error():
    """``step``, ``observe`` and the readers before the first ``reset`` raise what the AEC env raises then
    (``ResetNeededError``, a ``MonolithEnvError``), so one ``except`` serves both APIs."""
    aec = monolith_envs.make("monolith_arena_v0")
    with pytest.raises(ResetNeededError):
        aec.step(0)
    with make_vec("monolith_arena_v0", 2) as vec:
        for call in (lambda: vec.step(np.zeros(2, np.int64)), lambda: vec.observe(0), vec.episode_seeds,
                     vec.game_states):
            with pytest.raises(ResetNeededError, match="call reset"):
                call()
