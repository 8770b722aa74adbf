"""Worker processes of a vector env: each runs a contiguous share of the slots in a
:class:`~monolith_envs.vector._slots.Slots` on views of one shared-memory block, and takes its commands
(``reset``, ``step``, ``observe``, ``illegal``, ``close``) through its own pipe.

A worker answers every command with ``("ok", None, seq)`` or ``("err", exception, seq)``, ``seq`` being the
number the parent gave the command; the parent waits for the answer of the command it sent last and drops
older ones, which a wait interrupted by Ctrl-C leaves in the pipe (so an answer is never taken for a later
command's, whatever bytecode the interrupt hit). The exception is the one the worker raised (the package's
errors pickle with their message and attributes), with a note naming the worker and its games. The parent
waits for an answer with a deadline, checking that the process is alive, so a dead or hung worker is reported
(:class:`WorkerError`) instead of waited on forever.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import time
import weakref
from typing import Any

import numpy as np

from ..core.game import MonolithEnvError
from ..core.interrupt import signals_deferred
from ._slots import ARRAY_FIELDS, Slots

__all__ = ["WorkerError", "WorkerPool", "shared_arrays"]

_ALIGN = 64
STARTUP_TIMEOUT = 60.0  # seconds a worker may take to start (import the package, build its games)


class WorkerError(MonolithEnvError, RuntimeError):
    """A worker process of a vector env died or did not answer in time (the vector env is then closed).

    Attributes:
        exitcode: the exit code of a worker that died (negative: the signal that killed it), else None.
    """


def _layout(shapes: dict[str, tuple]) -> tuple[dict[str, int], int]:
    offsets, total = {}, 0
    for name, dtype in ARRAY_FIELDS.items():
        offsets[name] = total
        nbytes = int(np.prod(shapes[name], dtype=np.int64)) * np.dtype(dtype).itemsize
        total += -(-nbytes // _ALIGN) * _ALIGN
    return offsets, max(total, _ALIGN)


def shared_arrays(buffer: Any, shapes: dict[str, tuple]) -> dict[str, np.ndarray]:
    """Numpy views of every array of :data:`~monolith_envs.vector._slots.ARRAY_FIELDS` on ``buffer``."""
    offsets, _ = _layout(shapes)
    out = {}
    for name, dtype in ARRAY_FIELDS.items():
        count = int(np.prod(shapes[name], dtype=np.int64))
        out[name] = np.frombuffer(buffer, dtype=dtype, count=count, offset=offsets[name]).reshape(shapes[name])
    return out


def _transportable(exc: BaseException) -> BaseException:
    """``exc`` when it survives a pickle round trip, else a :class:`MonolithEnvError` with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any error of a third-party exception's pickling
        out = MonolithEnvError(f"{type(exc).__name__}: {exc}")
        for note in getattr(exc, "__notes__", ()):  # where it was raised ("raised in worker 0 ...")
            out.add_note(str(note))
        return out


def _worker_main(conn: Any, index: int, game_cls: Any, config: dict, lo: int, hi: int, num_envs: int,
                 buffer: Any, shapes: dict[str, tuple]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it closes the workers
    where = f"in worker {index} (games {lo}..{hi - 1})"
    try:
        slots = Slots(game_cls(config), lo, hi, num_envs, shared_arrays(buffer, shapes))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        exc.add_note(f"raised {where} while building its games")
        conn.send(("err", _transportable(exc), 0))
        return
    conn.send(("ok", None, 0))
    while True:
        try:
            cmd, arg, seq = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if cmd == "close":
            conn.send(("ok", None, seq))
            return
        try:
            if cmd == "step":
                slots.step()
            elif cmd == "reset":
                slots.reset(arg)
            elif cmd == "observe":
                slots.observe(arg)
            elif cmd == "illegal":
                raise slots.illegal(arg[0] - lo, arg[1])
            else:
                raise MonolithEnvError(f"unknown vector worker command {cmd!r}")
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            if not isinstance(exc, MonolithEnvError) or cmd != "illegal":
                exc.add_note(f"raised {where} during {cmd}")
            conn.send(("err", _transportable(exc), seq))
            continue
        conn.send(("ok", None, seq))


#: every live pool of this process, for the fork hook below
_POOLS: "weakref.WeakSet[WorkerPool]" = weakref.WeakSet()
#: this process was forked from one that imported this module: a forkserver it started is its parent's, which
#: the child cannot use (multiprocessing raises ChildProcessError), so new pools here default to spawn
_FORKED = [False]


def _forget_pools_in_child() -> None:
    """In a forked child: the pools' workers belong to the parent. Drop them from the child's copy of
    ``multiprocessing``'s child list (its exit hook would terminate them: they are daemons) and close the child's
    copies of their pipes (the parent's ends stay open in the parent)."""
    from multiprocessing import process

    _FORKED[0] = True
    for pool in list(_POOLS):
        for proc in pool.procs:
            process._children.discard(proc)  # noqa: SLF001 - the list multiprocessing's exit hook walks
        for conn in pool.conns:
            try:
                conn.close()
            except OSError:
                pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools_in_child)


def _shutdown(procs: list, conns: list, grace: float, owner_pid: int) -> None:
    """End every worker: ask, wait ``grace`` seconds, then terminate and kill what is left. Only in the process
    that started them (``owner_pid``): a forked child's copy of the pool, collected or at the child's exit,
    leaves its parent's workers alone."""
    if os.getpid() != owner_pid:
        return
    for conn in conns:
        try:
            conn.send(("close", None, -1))
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + grace
    for proc in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
            proc.join(1.0)
        if proc.is_alive():
            proc.kill()
            proc.join(1.0)
    for conn in conns:
        try:
            conn.close()
        except OSError:
            pass
    procs.clear()
    conns.clear()


class WorkerPool:
    """``workers`` processes sharing the slots of a vector env, and the shared-memory arrays they write.

    Args:
        game_cls, config: each worker builds its own game with ``game_cls(config)``.
        num_envs, workers: N slots split into ``workers`` contiguous shares.
        shapes: the array shapes (:func:`~monolith_envs.vector._slots.array_shapes`).
        timeout: seconds to wait for any answer of a worker (the start-up, which imports the package in a
            fresh process, gets at least 60 s).
        start_method: a ``multiprocessing`` start method; None: ``"forkserver"`` where available (the server
            imports the package once, then each worker is forked from it), else ``"spawn"``, and ``"spawn"`` in a
            process forked from one that had imported this module (its parent's forkserver is not its own).

    Attributes:
        arrays: the shared arrays (numpy views of one shared block).

    Raises:
        WorkerError: a worker died or did not start within ``timeout``.
        Exception: a worker's error while building its game, as raised there.
    """

    def __init__(self, game_cls: Any, config: dict, num_envs: int, workers: int, shapes: dict[str, tuple],
                 timeout: float, start_method: str | None = None):
        if start_method is None:
            start_method = ("forkserver" if "forkserver" in mp.get_all_start_methods() and not _FORKED[0]
                            else "spawn")
        ctx = mp.get_context(start_method)
        if start_method == "forkserver":
            ctx.set_forkserver_preload(["monolith_envs.vector._workers"])
        _, nbytes = _layout(shapes)
        self._buffer = ctx.RawArray("b", nbytes)
        self.arrays = shared_arrays(self._buffer, shapes)
        self.timeout = float(timeout)
        bounds = np.linspace(0, num_envs, workers + 1).round().astype(int).tolist()
        self.bounds = list(zip(bounds[:-1], bounds[1:]))
        self.procs: list = []
        self.conns: list = []
        #: the number of the last command sent to each worker (0: the start-up answer); its answer is the one
        #: awaited, and older answers left by an interrupted wait are dropped
        self.sent = [0] * workers
        self.closed = False
        #: the process that started the workers: only it talks to them or ends them
        self.owner_pid = os.getpid()
        _POOLS.add(self)
        # ends the workers when the pool is collected or at exit (it holds the lists, not the pool)
        self.finalizer = weakref.finalize(self, _shutdown, self.procs, self.conns, 1.0, self.owner_pid)
        for k, (lo, hi) in enumerate(self.bounds):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker_main, name=f"monolith-vec-{k}", daemon=True,
                               args=(child, k, game_cls, config, lo, hi, num_envs, self._buffer, shapes))
            self.conns.append(parent)
            try:
                proc.start()
            finally:
                child.close()
            self.procs.append(proc)
        try:
            self.timeout = max(self.timeout, STARTUP_TIMEOUT)
            self.wait_all()
            self.timeout = float(timeout)
        except WorkerError as exc:  # died before it could answer: most often while importing the main module
            self.close()
            if start_method != "fork" and (getattr(exc, "exitcode", None) or 0) > 0:  # an error, not a kill
                exc.add_note(f"a {start_method} worker first imports the script that started it: a script that "
                             "calls make_vec(workers=...) must do so under `if __name__ == \"__main__\":`, and "
                             "code read from stdin cannot start workers (the worker's own traceback is above)")
            raise
        except BaseException:
            self.close()
            raise

    def owner(self, i: int) -> int:
        """The worker that runs slot ``i``."""
        return next(k for k, (lo, hi) in enumerate(self.bounds) if lo <= i < hi)

    def _send(self, k: int, cmd: str, arg: Any) -> None:
        # numbered before the write: a command that a Ctrl-C cuts off before its (single, small) write is never
        # awaited, one written is; so no signal needs holding back here, only around the read (_answer)
        self.sent[k] += 1
        try:
            self.conns[k].send((cmd, arg, self.sent[k]))
        except (OSError, ValueError):
            proc = self.procs[k]
            proc.join(1.0)
            if proc.is_alive():
                self._fail(k, "cannot be reached (its pipe is closed)")
            else:
                self._fail(k, f"died (exit code {proc.exitcode})", proc.exitcode)

    def send_all(self, cmd: str, arg: Any = None) -> None:
        """Send one command to every worker, then wait for every answer (:meth:`wait_all`)."""
        for k in range(len(self.conns)):
            self._send(k, cmd, arg)
        self.wait_all()

    def ask(self, k: int, cmd: str, arg: Any = None) -> None:
        """Send one command to worker ``k`` and wait for its answer."""
        self._send(k, cmd, arg)
        err = self._answer(k)
        if err is not None:
            raise err

    def wait_all(self) -> None:
        """Wait for one answer of every worker; raise the first worker error (after reading every answer)."""
        first = None
        for k in range(len(self.conns)):
            err = self._answer(k)
            if err is not None and first is None:
                first = err
        if first is not None:
            raise first

    def _answer(self, k: int) -> BaseException | None:
        """The answer of the last command sent to worker ``k`` (None for ``"ok"``, else the worker's
        exception); answers of earlier commands are read and dropped."""
        conn, proc = self.conns[k], self.procs[k]
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                if conn.poll(min(0.25, max(0.0, deadline - time.monotonic()))):
                    with signals_deferred():  # a message is read whole, never cut by a Ctrl-C
                        status, payload, seq = conn.recv()
                    if seq == self.sent[k]:
                        return None if status == "ok" else payload
                    continue  # the answer of a command whose wait was interrupted
            except (EOFError, OSError):
                proc.join(1.0)
            if not proc.is_alive():
                self._fail(k, f"died (exit code {proc.exitcode})", proc.exitcode)
            if time.monotonic() >= deadline:
                self._fail(k, f"did not answer within {self.timeout:g} s (hung)")

    def _fail(self, k: int, what: str, exitcode: int | None = None) -> None:
        lo, hi = self.bounds[k]
        if self.procs[k].is_alive():  # hung (or stopped): killed at once, not given the others' grace period
            self.procs[k].kill()
        self.close()
        err = WorkerError(f"vector env worker {k} (games {lo}..{hi - 1}) {what}; every worker was ended and "
                          "the vector env is closed")
        err.exitcode = exitcode  # the dead worker's exit code (negative: killed by that signal), else None
        raise err

    def close(self, grace: float = 2.0) -> None:
        """End every worker (idempotent)."""
        self.closed = True
        self.finalizer.detach()
        _shutdown(self.procs, self.conns, grace, self.owner_pid)
