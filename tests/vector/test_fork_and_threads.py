"""A vector env used from a forked child or from two threads at once: a clear error, and the owner's games and
workers untouched (VectorEnv's docstring)."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time

import numpy as np
import pytest

from monolith_envs import MonolithEnvError, make_vec

ARENA = "monolith_arena_v0"


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return np.array([np.flatnonzero(row)[0] for row in mask])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_a_forked_child_cannot_use_or_end_its_parents_workers():
    vec = make_vec(ARENA, 4, workers=2)
    res = vec.reset(seed=0)
    before = res.observation.copy()
    procs = list(vec._pool.procs)
    pid = os.fork()
    if pid == 0:  # the child: every use refused, and its clean-up (close, collection, exit) ends nothing
        code = 0
        try:
            vec.step(_first_legal(vec._legal))
            code = 3  # played the parent's games
        except MonolithEnvError as exc:
            code = 0 if f"belong to process {os.getppid()}" in str(exc) and "fork" in str(exc) else 4
        except BaseException:  # noqa: BLE001 - any other outcome is reported by the exit code
            code = 5
        try:
            from multiprocessing import util

            util._exit_function()  # multiprocessing's exit hook, as a normal exit (sys.exit) runs it
            vec._pool.finalizer()  # the vector's own exit hook
            vec.close()
            del vec
            gc.collect()
        except BaseException:  # noqa: BLE001
            code = code or 6
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert all(p.is_alive() for p in procs)
    np.testing.assert_array_equal(res.observation, before)  # the child played nothing
    again = make_vec(ARENA, 4)
    again.reset(seed=0)
    actions = _first_legal(res.action_mask)
    np.testing.assert_array_equal(vec.step(actions).observation, again.step(actions).observation)
    vec.close()


def test_a_call_while_another_thread_is_inside_one_is_refused_and_the_first_call_finishes():
    vec = make_vec(ARENA, 2, workers=2, timeout=30.0)
    res = vec.reset(seed=0)
    actions = _first_legal(res.action_mask)
    worker = vec._pool.procs[1].pid
    os.kill(worker, signal.SIGSTOP)  # the other thread's step waits for this worker
    outcome = {}

    def other_thread():
        try:
            outcome["obs"] = vec.step(actions).observation.copy()
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcome["error"] = exc

    thread = threading.Thread(target=other_thread)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not vec._lock.locked() and time.monotonic() < deadline:  # the other thread is inside its step
            time.sleep(0.01)
        time.sleep(0.2)
        for call in (lambda: vec.reset(seed=1), lambda: vec.step(actions), lambda: vec.observe(0)):
            with pytest.raises(MonolithEnvError, match="in use by another thread .* one vector per thread"):
                call()
    finally:
        os.kill(worker, signal.SIGCONT)
        thread.join(30)
    assert "error" not in outcome, outcome.get("error")
    single = make_vec(ARENA, 2)
    single.reset(seed=0)
    np.testing.assert_array_equal(outcome["obs"], single.step(actions).observation)  # the first call's step, whole
    vec.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_an_in_process_vector_works_in_a_child_forked_while_another_thread_was_inside_a_call():
    """workers=0: the child has its own copy of the games; the lock a parent thread held at the fork is not
    held in the child (its holder does not exist there)."""
    vec = make_vec(ARENA, 2)
    res = vec.reset(seed=0)
    actions = _first_legal(res.action_mask)
    vec._lock.acquire()  # as a parent thread inside step() when the process forks
    try:
        pid = os.fork()
        if pid == 0:
            try:
                obs = vec.step(actions).observation
                code = 0 if obs.shape == (2, vec.obs_size) else 3
            except BaseException:  # noqa: BLE001 - reported by the exit code
                code = 4
            os._exit(code)
    finally:
        vec._lock.release()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_a_forked_child_makes_its_own_worker_vector():
    """The parent's forkserver is not the child's (multiprocessing raised ChildProcessError): a pool made in a
    forked child starts its workers with spawn."""
    parent = make_vec(ARENA, 2, workers=1)
    parent.reset(seed=0)
    parent.close()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            with make_vec(ARENA, 2, workers=2) as vec:
                res = vec.reset(seed=0)
                code = 0 if vec.step(_first_legal(res.action_mask)).observation.shape == (2, vec.obs_size) else 3
        except BaseException:  # noqa: BLE001 - reported by the exit code
            code = 4
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
