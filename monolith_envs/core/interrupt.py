"""Stopping a long command cleanly on Ctrl-C (SIGINT) or SIGTERM.

A command wraps its work in :func:`stop_on_signals`: the first SIGINT or SIGTERM raises :class:`Interrupted`
in the main thread (a ``KeyboardInterrupt``, so ``except Exception`` guards do not swallow it), and every
further one is ignored until the block ends, so the command's cleanup (stopping workers, printing its
summary) runs to the end without a second Ctrl-C and without a traceback. The command then exits with
:attr:`Interrupted.exit_code`: 130 for SIGINT, 143 for SIGTERM (128 + the signal number, as shells report).

Worker processes must not be interrupted by the Ctrl-C that a terminal sends to the whole process group:
the parent stops them. Start them inside :func:`children_ignore_sigint` (a blocked SIGINT survives
``fork`` and ``exec``, so spawned and forkserver children inherit it, and the parent still gets its own
Ctrl-C when the block ends) and call :func:`ignore_sigint` in a worker initializer.  After the stop, the
parent ends them: :func:`end_processes`, :func:`end_executor`, :func:`end_children` (the training and
evaluation commands use these too).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["Interrupted", "SignalGuard", "signals_deferred", "stop_on_signals", "children_ignore_sigint", "ignore_sigint", "STOP_SIGNALS",
           "end_children", "end_executor", "end_processes", "spawn_pool", "start_workers"]

#: The signals that stop a command: Ctrl-C and a polite kill.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived inside :func:`stop_on_signals`.

    Attributes:
        signum: the signal number.
        name: ``"SIGINT"`` or ``"SIGTERM"``.
        exit_code: ``128 + signum`` (130 for SIGINT, 143 for SIGTERM).
        info: what the interrupted command adds for its final message (a dict, e.g. the games done).
    """

    def __init__(self, signum: int):
        self.info: dict = {}
        self.signum = int(signum)
        self.name = signal.Signals(self.signum).name
        self.exit_code = 128 + self.signum
        super().__init__(f"interrupted by {self.name}")

    def __reduce__(self):
        """Pickles as ``Interrupted(signum)`` with its attributes (``info`` included)."""
        return type(self), (self.signum,), self.__dict__


class SignalGuard:
    """What :func:`stop_on_signals` yields: :meth:`deferred` marks a step that must not be cut in two."""

    def __init__(self, signals: tuple[int, ...]):
        self._signals = signals
        self._depth = 0
        self._pending: int | None = None

    def _stop(self, signum: int) -> None:
        for s in self._signals:  # one signal stops the command; a second one must not break its cleanup
            signal.signal(s, signal.SIG_IGN)
        raise Interrupted(signum)

    def handler(self, signum: int, _frame: object) -> None:
        """The signal handler installed for SIGINT/SIGTERM: raise :class:`Interrupted` now, or, inside a
        protected section, remember the signal and raise it when the section ends."""
        if self._depth:
            self._pending = signum
            return
        self._stop(signum)

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """A signal that arrives inside this block is raised when the block ends (e.g. between writing a
        failure log and counting it, so the summary lists every log written)."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
        if not self._depth and self._pending is not None:
            signum, self._pending = self._pending, None  # raised once: later blocks run undisturbed
            self._stop(signum)


@contextlib.contextmanager
def signals_deferred(signals: tuple[int, ...] = STOP_SIGNALS) -> Iterator[None]:
    """Hold ``signals`` back during a short step that must not be cut in two (a message written to a pipe
    and counted, or read whole), whatever handler is installed: a signal that arrives inside the block is
    passed to the previous handler when the block ends (``KeyboardInterrupt`` for Python's default SIGINT
    handler, the process ends for a default SIGTERM, nothing for an ignored one).

    Outside the main thread (where Python runs no signal handlers and cannot install them) the block runs
    unchanged. The block should be short: the signal waits for its end.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    old = {s: signal.signal(s, lambda signum, _frame: held.append(signum)) for s in signals}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)
        if held:
            signum = held[0]
            h = old[signum]
            if callable(h):
                h(signum, None)
            elif h == signal.SIG_DFL:
                if signum == signal.SIGINT:
                    raise KeyboardInterrupt
                os.kill(os.getpid(), signum)  # the default action of that signal, now that it is restored


@contextlib.contextmanager
def stop_on_signals(signals: tuple[int, ...] = STOP_SIGNALS) -> Iterator[SignalGuard]:
    """Within the block, the first of ``signals`` raises :class:`Interrupted`; later ones are ignored.

    Yields a :class:`SignalGuard` whose ``deferred()`` blocks hold a signal back until they end. The previous
    handlers are restored when the block ends. Outside the main thread (where Python cannot install
    handlers) the block runs unchanged.
    """
    guard = SignalGuard(tuple(signals))
    if threading.current_thread() is not threading.main_thread():
        yield guard
        return
    old = {s: signal.getsignal(s) for s in signals}
    for s in signals:
        signal.signal(s, guard.handler)
    try:
        yield guard
    finally:
        for s, h in old.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


@contextlib.contextmanager
def children_ignore_sigint() -> Iterator[None]:
    """Block SIGINT in this thread while the block starts child processes, so that they never receive it.

    A Ctrl-C in a terminal reaches every process of the foreground group; workers started in this block
    inherit the blocked SIGINT (through ``fork`` and ``exec``) and leave the stopping to the parent. The
    parent does not lose a Ctrl-C that arrives meanwhile: it stays pending and is handled when the block
    ends (or at once by another thread of this process). The mask is this thread's, so a block in any
    thread protects the processes that thread starts. It starts multiprocessing's resource tracker first
    (once a process), since starting it unblocks SIGINT in the calling thread. Where ``pthread_sigmask`` does
    not exist the block runs unchanged.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # multiprocessing's resource tracker unblocks SIGINT and SIGTERM in this thread once it has started
    # (CPython's resource_tracker.ensure_running): started inside the block, as the first spawn Pool starts it,
    # it would let the workers spawned after it begin with SIGINT deliverable until their initializer runs
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def ignore_sigint() -> None:
    """Ignore SIGINT in this process (for a worker initializer: the parent stops its workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def end_processes(processes: Iterable[Any], timeout: float = 3.0) -> None:
    """Terminate ``multiprocessing`` processes (SIGTERM), wait up to ``timeout`` seconds in all, then kill
    the ones still alive."""
    import time

    procs = [p for p in processes if p is not None and p.is_alive()]
    for p in procs:
        p.terminate()
    deadline = time.monotonic() + timeout
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in procs:
        if p.is_alive():
            p.kill()
            p.join(1.0)


def start_workers(executor: Any, workers: int) -> Any:
    """Start the ``workers`` processes of a spawn-context ``ProcessPoolExecutor`` now, with the stop signals held
    (:func:`signals_deferred`) and SIGINT blocked for the workers (:func:`children_ignore_sigint`), and return
    it. A pool starts a worker inside a ``submit``; a stop that cut that start in two (the process launched,
    its start-up data not yet written to it) left a worker that printed ``EOFError: Ran out of input`` with a
    traceback under the command's clean stop message. ``workers`` trivial tasks, submitted together, make the
    pool start all of its workers at once, each start whole."""
    with children_ignore_sigint(), signals_deferred():
        for _ in range(workers):
            executor.submit(int)
    return executor


def spawn_pool(workers: int, initializer: Any = None) -> Any:
    """A ``ProcessPoolExecutor`` of ``workers`` spawned processes running ``initializer`` first (default:
    :func:`ignore_sigint`), all started now by :func:`start_workers`; this process stops them
    (:func:`end_executor`)."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                               initializer=initializer or ignore_sigint)
    return start_workers(pool, workers)


def end_executor(executor: Any) -> None:
    """Stop a ``ProcessPoolExecutor`` now: cancel the queued tasks and end its worker processes."""
    if executor is None:
        return
    procs = list((getattr(executor, "_processes", None) or {}).values())
    wakeup = getattr(executor, "_executor_manager_thread_wakeup", None)
    if wakeup is not None and callable(getattr(wakeup, "wakeup", None)):
        # Python 3.11's exit hook wakes every executor's manager thread through a pipe that the thread may
        # have closed once its workers were ended here ("OSError: Bad file descriptor" printed at exit)
        wake = wakeup.wakeup

        def wakeup_if_open() -> None:
            try:
                wake()
            except (OSError, ValueError):
                pass

        wakeup.wakeup = wakeup_if_open
    executor.shutdown(wait=False, cancel_futures=True)
    end_processes(procs)


def end_children(timeout: float = 3.0) -> None:
    """End every process this one started through ``multiprocessing`` that is still alive (pool workers,
    env workers, a manager): the last step of an interrupted command, so that nothing is left running and
    the interpreter's exit does not wait for a child."""
    import multiprocessing as mp

    end_processes(mp.active_children(), timeout)
