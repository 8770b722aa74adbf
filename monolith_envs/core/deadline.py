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

__all__ = ["DeadlineExceeded", "MAX_TIMEOUT", "REPEAT_S", "deadline", "deadline_supported", "check_timeout"]


class DeadlineExceeded(BaseException):
    """The block of :func:`deadline` ran longer than its limit.

    Attributes:
        seconds: the limit, in seconds.
        where: the innermost frame when the limit passed, as ``file:line in function``.
        token: the object the :func:`deadline` block that raised it yielded (``None`` when made by hand), so a
            caller tells its own limit from an enclosing one.
    """

    def __init__(self, seconds: float, where: str, token: object = None):
        self.seconds = seconds
        self.where = where
        self.token = token  # what the raising deadline() block yielded: which limit it was
        super().__init__(f"still running after {seconds:g} s, at {where}")

    def said(self, what: str, limit: str = "the timeout") -> str:
        """``"{what} did not end within {seconds} s ({limit}); it was at {where}"``: the one wording of every
        checker's timeout message."""
        return f"{what} did not end within {self.seconds:g} s ({limit}); it was at {self.where}"

    def __reduce__(self):
        """Pickles as ``DeadlineExceeded(seconds, where)`` with its attributes."""
        return type(self), (self.seconds, self.where), self.__dict__


def deadline_supported() -> bool:
    """True where :func:`deadline` can limit time: the main thread, with ``signal.setitimer`` and
    ``signal.pthread_sigmask``."""
    return (hasattr(signal, "setitimer") and hasattr(signal, "pthread_sigmask")
            and threading.current_thread() is threading.main_thread())


#: the longest limit, in seconds (about 115 days; the timer takes no more than about 9e9)
MAX_TIMEOUT = 1e7

#: after the first :class:`DeadlineExceeded`, the block is interrupted again every this many seconds until it
#: ends (code that catches the first one, e.g. a bare ``except:`` retry loop, would otherwise run forever)
REPEAT_S = 1.0


def check_timeout(seconds: float | None, what: str) -> float | None:
    """``seconds`` as a float, or ``None`` for no limit.

    Raises:
        ValueError: not a positive number of seconds up to :data:`MAX_TIMEOUT` (``what`` names the argument).
    """
    if seconds is None:
        return None
    if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
            or not 0 < seconds <= MAX_TIMEOUT):
        raise ValueError(f"{what}={seconds!r:.40}: expected a positive number of seconds up to {MAX_TIMEOUT:g}, or "
                         "None for no limit")
    return float(seconds)


def _where(frame: FrameType | None) -> str:
    if frame is None:
        return "an unknown place"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}"


@contextlib.contextmanager
def deadline(seconds: float | None, token: object = None) -> Iterator[object]:
    """Raise :class:`DeadlineExceeded` in the block once it has run ``seconds`` (wall clock), and again every
    :data:`REPEAT_S` seconds until the block ends (so code that swallows the first one is interrupted again).

    ``None``, a thread other than the main one, or a platform without ``signal.setitimer``: no limit. The
    caller's ``SIGALRM`` handler is restored when the block ends. A real-time timer the caller had set keeps
    its time: when it is due during the block, the caller's handler runs then (an enclosing
    :func:`deadline` raises its own exception), and one still running goes on after the block with what it had
    left (a watchdog left to ``SIGALRM``'s default action still ends the process when due).

    Yields:
        ``token`` (a new object when ``None``), the ``token`` of the :class:`DeadlineExceeded` this block raises;
        a caller that tells its own limit from an enclosing one gives it, so that a limit passing before the
        ``with`` has bound the name is still told apart.

    Raises:
        ValueError: ``seconds`` is not ``None`` nor a positive number up to :data:`MAX_TIMEOUT`.
    """
    seconds = check_timeout(seconds, "seconds")
    token = object() if token is None else token
    if seconds is None or not deadline_supported():
        yield token
        return
    start = time.monotonic()
    ours_at = start + seconds
    caller: list = [None, 0.0]  # when the caller's timer is due (monotonic), and its interval
    done = [False]

    def arm() -> None:
        due = ours_at if caller[0] is None else min(ours_at, caller[0])
        signal.setitimer(signal.ITIMER_REAL, max(due - time.monotonic(), 1e-4))

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        nonlocal ours_at
        if done[0]:
            return
        now = time.monotonic()
        if caller[0] is not None and now >= caller[0] - 1e-4:  # the caller's timer is due: its handler runs
            caller[0] = now + caller[1] if caller[1] > 0 else None
            if previous == signal.SIG_DFL:  # a watchdog: the default action ends the process, as it would have
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.raise_signal(signal.SIGALRM)
            signal.setitimer(signal.ITIMER_REAL, 0)
            try:
                if callable(previous):
                    previous(signum, frame)  # an enclosing deadline raises here, and arms its next time
            finally:
                delay, interval = signal.getitimer(signal.ITIMER_REAL)  # what the caller's handler armed
                if delay > 0:
                    caller[:] = [time.monotonic() + delay, interval]
                if not done[0]:
                    arm()
            return
        if now >= ours_at - 1e-4:
            ours_at = now + REPEAT_S
            arm()
            raise DeadlineExceeded(seconds, _where(frame), token)
        arm()

    previous = signal.getsignal(signal.SIGALRM)
    try:
        # SIGALRM held while the handler and the timers change hands: a caller's timer due now is not lost
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            signal.signal(signal.SIGALRM, on_alarm)
            before, interval = signal.setitimer(signal.ITIMER_REAL, 0)  # the caller's timer, kept in `caller`
            if before > 0:
                caller[:] = [start + before, interval]
            arm()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        yield token
    finally:
        done[0] = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        if previous is not None:  # None: a handler set outside Python, which signal() cannot put back
            signal.signal(signal.SIGALRM, previous)
        if caller[0] is not None:  # the caller's timer goes on with what it has left
            signal.setitimer(signal.ITIMER_REAL, max(caller[0] - time.monotonic(), 1e-3), caller[1])
