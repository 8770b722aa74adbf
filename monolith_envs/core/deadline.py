"""A time limit on a block of the game's code, for the checkers (``check_env``, ``fuzz``): a game whose
``apply`` (or any other method) never returns is reported as a failure naming where it was stuck, instead of
hanging the checker.

The limit is a ``SIGALRM`` timer, so it applies only in the main thread of a process on a platform with
``signal.setitimer`` (Linux, macOS); elsewhere :func:`deadline` does nothing. The exception it raises is a
:class:`BaseException` (like ``KeyboardInterrupt``), so an ``except Exception`` inside the game's code does
not swallow it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

__all__ = ["DeadlineExceeded", "deadline", "deadline_supported", "check_timeout"]


class DeadlineExceeded(BaseException):
    """The block of :func:`deadline` ran longer than its limit.

    Attributes:
        seconds: the limit, in seconds.
        where: the innermost frame when the limit passed, as ``file:line in function``.
    """

    def __init__(self, seconds: float, where: str):
        self.seconds = seconds
        self.where = where
        super().__init__(f"still running after {seconds:g} s, at {where}")

    def __reduce__(self):
        """Pickles as ``DeadlineExceeded(seconds, where)`` with its attributes."""
        return type(self), (self.seconds, self.where), self.__dict__


def deadline_supported() -> bool:
    """True where :func:`deadline` can limit time: the main thread, with ``signal.setitimer``."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def check_timeout(seconds: float | None, what: str) -> float | None:
    """``seconds`` as a float, or ``None`` for no limit.

    Raises:
        ValueError: not a positive finite number of seconds (``what`` names the argument).
    """
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < float("inf"):
        raise ValueError(f"{what}={seconds!r}: expected a positive number of seconds, or None for no limit")
    return float(seconds)


def _where(frame: FrameType | None) -> str:
    if frame is None:
        return "an unknown place"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}"


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`DeadlineExceeded` in the block once it has run ``seconds`` (wall clock).

    ``None``, a thread other than the main one, or a platform without ``signal.setitimer``: no limit. The
    previous ``SIGALRM`` handler is restored when the block ends, and a real-time timer the caller had set goes
    on with the time it had left (one that was due during the block fires just after it).
    """
    if seconds is None or not deadline_supported():
        yield
        return

    def on_alarm(_signum: int, frame: FrameType | None) -> None:
        raise DeadlineExceeded(seconds, _where(frame))

    previous = signal.signal(signal.SIGALRM, on_alarm)
    start = time.monotonic()
    before, interval = signal.setitimer(signal.ITIMER_REAL, seconds)  # a timer of the caller's: restored below
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if before > 0:  # the caller's timer goes on with what it had left (at least a moment, if that passed)
            signal.setitimer(signal.ITIMER_REAL, max(before - (time.monotonic() - start), 1e-3), interval)
