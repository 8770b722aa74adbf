"""Clean stops of the training and evaluation commands on Ctrl-C (SIGINT) or SIGTERM.

Inside :func:`stop_on_signals` the first SIGINT or SIGTERM raises :class:`Interrupted` in the main thread
(at once, wherever it is: a rollout, an update, an evaluation) and every later one is ignored, so the
cleanup that follows runs to its end and no second Ctrl-C is needed.  Worker processes ignore SIGINT
(:func:`ignore_sigint`, the initializer of every pool; a terminal's Ctrl-C reaches the whole process group)
and are started inside :func:`sigint_blocked`, so a Ctrl-C that arrives while a worker's interpreter starts
does not reach it either; they are ended by the main process (:func:`end_processes`, :func:`end_executor`), so they print nothing.
The command then prints what ran and exits with ``128 + signal number``: 130 for SIGINT, 143 for SIGTERM.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Interrupted", "end_children", "end_executor", "end_processes", "ignore_sigint", "sigint_blocked", "stop_on_signals"]

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """Raised by :func:`stop_on_signals` on the first SIGINT or SIGTERM (a ``BaseException``, like
    ``KeyboardInterrupt``, so that ``except Exception`` blocks let it pass).

    Attributes:
        signum: the signal number; ``name``: ``"SIGINT"`` or ``"SIGTERM"``; ``exit_code``: ``128 + signum``
        (130 or 143); ``info``: what the interrupted command adds for its final message (a dict).
    """

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = int(signum)
        self.info: dict[str, Any] = {}

    @property
    def name(self) -> str:
        """The signal's name (``"SIGINT"``)."""
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """``128 + signum``: 130 for SIGINT, 143 for SIGTERM."""
        return 128 + self.signum


def _raise(signum: int, _frame: Any) -> None:
    for s in _SIGNALS:  # the first signal stops the command; later ones must not break its cleanup
        signal.signal(s, signal.SIG_IGN)
    raise Interrupted(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise :class:`Interrupted` (once); the previous handlers are
    restored at the end.  Only the main thread can install handlers: elsewhere this does nothing."""
    try:
        old = {s: signal.signal(s, _raise) for s in _SIGNALS}
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def ignore_sigint() -> None:
    """Initializer of worker processes: ignore SIGINT (the main process ends the workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread while worker processes start (``SubprocVecEnv``, a pool's ``submit``, a
    manager): a started process inherits the blocked signal, so a Ctrl-C meant for the whole process group
    never interrupts it (it is ended with SIGTERM), and a Ctrl-C that arrives meanwhile reaches this process
    when the block ends.  Does nothing where ``pthread_sigmask`` does not exist."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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


def end_executor(executor: Any) -> None:
    """Stop a ``ProcessPoolExecutor`` now: cancel the queued tasks and end its worker processes."""
    if executor is None:
        return
    procs = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    end_processes(procs)


def end_children(timeout: float = 3.0) -> None:
    """End every process this one started through ``multiprocessing`` that is still alive (pool workers,
    env workers, a manager): the last step of an interrupted command, so that nothing is left running and
    the interpreter's exit does not wait for a child."""
    import multiprocessing as mp

    end_processes(mp.active_children(), timeout)
