"""Chance during play: the recorder the env passes to ``apply``, and chance events.

Engines draw only through four calls of a ``numpy.random.Generator``: ``integers(low, high=None,
size=None)``, ``permutation(x)``, ``choice(a, size=None, replace=True, p=None)`` and ``random(size=None)``.
:class:`~monolith_envs.core.aec.RulesAECEnv` wraps its episode generator in a :class:`ChanceRecorder`: each
draw is delegated to the generator unchanged (the numbers are those the bare generator gives, so seed +
actions still replays an episode) and logged as a :class:`ChanceEvent` with the index of the decision whose
``apply`` drew it. The events go into the episode log (:class:`~monolith_envs.core.replay.EpisodeLog`);
``replay`` shows them and checks that the replayed draws are the same.

:class:`NoDrawRng` stands in for the generator where nothing may be drawn (explaining a rejected action).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .compiled import PURE_PYTHON_ENV, pure_python_requested
from .game import MonolithEnvError

try:  # the optional compiled scalar draw (setup.py builds it); rng.integers is the reference
    from . import _fastchance
except ImportError:  # pragma: no cover - built without a C compiler
    _fastchance = None

__all__ = ["ChanceEvent", "ChanceRecorder", "ChanceError", "NoDrawRng", "DRAW_CALLS", "json_value",
           "compiled_draw_agrees", "PURE_PYTHON_ENV"]

#: The four generator calls an engine may make.
DRAW_CALLS = ("integers", "permutation", "choice", "random")


class ChanceError(MonolithEnvError):
    """A draw the contract does not allow: another generator method, or a draw where none may happen."""


def json_value(x: Any) -> Any:
    """A drawn value as JSON-safe data: numpy scalars become Python numbers, arrays nested lists."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, (list, tuple)):
        return [json_value(v) for v in x]
    return x


def describe_draw(call: str, args: tuple, kwargs: dict) -> str:
    """Readable text of a draw, e.g. ``"integers(1, 7)"`` or ``"choice(<12 items>, size=2, replace=False)"``."""
    def short(v: Any) -> str:
        if isinstance(v, (np.ndarray, list, tuple)):
            n = len(v)
            return repr(json_value(v)) if n <= 8 else f"<{n} items>"
        if v is None:
            return "None"
        return repr(json_value(v))

    parts = [short(a) for a in args] + [f"{k}={short(v) if k != 'p' else '<p>'}" for k, v in kwargs.items()]
    return f"{call}({', '.join(parts)})"


class ChanceEvent(NamedTuple):
    """One draw made by ``apply`` (an immutable named tuple: cheap to make, once per die roll).

    Attributes:
        step: index of the decision (0-based, the position of its action in the episode log) whose ``apply``
            drew it.
        call: one of :data:`DRAW_CALLS`.
        args: readable text of the call (see :func:`describe_draw`).
        value: the result as JSON-safe data (an int or float, or a list for a sized draw or a permutation).
    """

    step: int
    call: str
    args: str
    value: Any

    def to_json(self) -> dict:
        """``{"step", "call", "args", "value"}``."""
        return {"step": int(self.step), "call": self.call, "args": self.args, "value": self.value}

    @classmethod
    def from_json(cls, data: Any, where: str = "chance event") -> "ChanceEvent":
        """Inverse of :meth:`to_json`.

        Raises:
            ValueError: not an object with exactly ``step`` (int), ``call`` (one of :data:`DRAW_CALLS`), ``args``
                (str) and ``value``; the message starts with ``where``.
        """
        if not isinstance(data, dict):
            raise ValueError(f"{where}: a chance event is an object, got {type(data).__name__}")
        missing = [k for k in ("step", "call", "args", "value") if k not in data]
        if missing:
            raise ValueError(f"{where}: missing field(s) {missing}")
        extra = sorted(str(k)[:40] for k in data if k not in ("step", "call", "args", "value"))
        if extra:
            raise ValueError(f"{where}: unknown field(s) {extra[:5]}; a chance event has exactly step, call, args "
                             "and value")
        step = data["step"]
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise ValueError(f"{where}: 'step' must be an integer >= 0, got {step!r}")
        if data["call"] not in DRAW_CALLS:
            raise ValueError(f"{where}: 'call' is {data['call']!r}, expected one of {', '.join(DRAW_CALLS)}")
        if not isinstance(data["args"], str):
            raise ValueError(f"{where}: 'args' must be a string, got {type(data['args']).__name__}")
        return cls(step, data["call"], data["args"], data["value"])

    def __str__(self) -> str:
        return f"{self.args} -> {self.value}"


_ROLL_TEXT: dict = {}  # (low, high) -> "integers(low, high)"
_new_event = tuple.__new__


def compiled_draw_agrees() -> bool:
    """True when the compiled scalar draw is built and gives this numpy's numbers: a few draws of each kind
    of range (one value, dice, a range where Lemire's method often rejects) against ``Generator.integers``
    from the same seed. Checked once at import; on a mismatch (a numpy whose bit generator layout differs)
    every draw goes through ``rng.integers``."""
    if _fastchance is None:
        return False
    spans = (1, 2, 6, 6, 6, 13, 2**31 + 1, 2**31 + 1, 2**32 - 1, 6)
    fast, plain = np.random.default_rng(20261202), np.random.default_rng(20261202)
    bg = fast.bit_generator
    events: list = []
    try:
        got = [_fastchance.record_integers(bg.capsule, bg.lock.acquire, bg.lock.release, 1, 1 + k, events, 0, "",
                                           ChanceEvent) for k in spans]
    except Exception:  # noqa: BLE001 - any failure of the compiled path means: do not use it
        return False
    return got == [int(plain.integers(1, 1 + k)) for k in spans] and fast.random() == plain.random()


def _fast_draw(rng: Any) -> tuple:
    """``(rng, capsule, acquire, release)`` for the compiled scalar draw from ``rng``, or ``(rng, None, None,
    None)`` when it is not used: not a ``numpy.random.Generator`` (a scripted or wrapped one), the extension
    not built, or ``MONOLITH_ENVS_PURE_PYTHON=1``."""
    if _fastchance is None or type(rng) is not np.random.Generator or pure_python_requested():
        return rng, None, None, None
    bg = rng.bit_generator
    lock = bg.lock
    return rng, bg.capsule, lock.acquire, lock.release


class ChanceRecorder:
    """A drop-in for the four generator calls that records every draw.

    Args:
        rng: the ``numpy.random.Generator`` that makes the draws.
        events: the list the events are appended to (default: a new list, ``recorder.events``).

    Attributes:
        step: the decision index stamped on the next events (the env sets it before each ``apply``).
        events: the recorded :class:`ChanceEvent` list.

    Any other attribute of a generator raises :class:`ChanceError` (an engine that used it would draw
    outside the record).

    A scalar ``integers(low, high)`` of a ``numpy.random.Generator`` (a die roll) is drawn by the compiled
    ``_fastchance`` when it is built: the same number from the same bit generator as ``rng.integers``
    (tests/strategy/test_fastchance.py; :func:`compiled_draw_agrees` checks it once at import), returned as
    an ``int``; ``MONOLITH_ENVS_PURE_PYTHON=1`` makes every draw go through ``rng.integers``.
    """

    __slots__ = ("rng", "events", "step", "_fast")

    def __init__(self, rng: np.random.Generator, events: list | None = None):
        self.rng = rng
        self.events: list[ChanceEvent] = [] if events is None else events
        self.step = 0
        self._fast: tuple | None = None  # _fast_draw(rng), made at the first scalar draw

    def __getstate__(self) -> dict:
        """Copy and pickle support: the compiled draw's handles (a capsule) are made again by the copy."""
        return {"rng": self.rng, "events": self.events, "step": self.step}

    def __setstate__(self, state: dict) -> None:
        self.rng, self.events, self.step = state["rng"], state["events"], state["step"]
        self._fast = None

    def _record(self, call: str, args: tuple, kwargs: dict, value: Any) -> Any:
        self.events.append(ChanceEvent(self.step, call, describe_draw(call, args, kwargs), json_value(value)))
        return value

    def integers(self, low: Any, high: Any = None, size: Any = None) -> Any:
        """``Generator.integers(low, high, size)`` (``high`` exclusive), recorded."""
        if size is None and type(low) is int and (high is None or type(high) is int):
            # the common die roll: the same event as _record builds (the value, a numpy integer, as an int),
            # with the text of each (low, high) formatted once
            text = _ROLL_TEXT.get((low, high))
            if text is None:
                text = _ROLL_TEXT[(low, high)] = describe_draw("integers", (low,) if high is None else (low, high), {})
                if len(_ROLL_TEXT) > 1024:
                    _ROLL_TEXT.clear()
            fast = self._fast
            if fast is None or fast[0] is not self.rng:
                fast = self._fast = _fast_draw(self.rng)
            if fast[1] is not None:  # the compiled draw; None: a call it does not cover, nothing drawn
                v = _fastchance.record_integers(fast[1], fast[2], fast[3], 0 if high is None else low,
                                                low if high is None else high, self.events, self.step, text,
                                                ChanceEvent)
                if v is not None:
                    return v
            v = self.rng.integers(low, high)
            # tuple.__new__ is what the named tuple's own __new__ calls, without its Python-level frame
            self.events.append(_new_event(ChanceEvent, (self.step, "integers", text, int(v))))
            return v
        args = (low,) if high is None else (low, high)
        kw = {} if size is None else {"size": size}
        return self._record("integers", args, kw, self.rng.integers(low, high, size))

    def permutation(self, x: Any) -> np.ndarray:
        """``Generator.permutation(x)``, recorded."""
        return self._record("permutation", (x,), {}, self.rng.permutation(x))

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        """``Generator.choice(a, size, replace, p)``, recorded."""
        kw: dict = {}
        if size is not None:
            kw["size"] = size
        if not replace:
            kw["replace"] = False
        if p is not None:
            kw["p"] = p
        return self._record("choice", (a,), kw, self.rng.choice(a, size=size, replace=replace, p=p))

    def random(self, size: Any = None) -> Any:
        """``Generator.random(size)``, recorded."""
        return self._record("random", (), {} if size is None else {"size": size}, self.rng.random(size))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise ChanceError(f"an engine draws only with {', '.join(DRAW_CALLS)}; rng.{name} is not recorded "
                          "(docs: the Game contract, chance during play)")


class NoDrawRng:
    """Stands in for the generator where no draw may happen; every draw raises :class:`ChanceError`.

    Args:
        why: the sentence the error gives (e.g. ``"while rejecting an illegal action"``).
    """

    __slots__ = ("why",)

    def __init__(self, why: str = "here"):
        self.why = why

    def _refuse(self, call: str) -> Any:
        raise ChanceError(f"apply drew rng.{call} {self.why}: an engine must decide that an action is legal "
                          "before it draws")

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        """Raises :class:`ChanceError`."""
        return self._refuse("integers")

    def permutation(self, *args: Any, **kwargs: Any) -> Any:
        """Raises :class:`ChanceError`."""
        return self._refuse("permutation")

    def choice(self, *args: Any, **kwargs: Any) -> Any:
        """Raises :class:`ChanceError`."""
        return self._refuse("choice")

    def random(self, *args: Any, **kwargs: Any) -> Any:
        """Raises :class:`ChanceError`."""
        return self._refuse("random")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._refuse(name)


if not compiled_draw_agrees():  # not built, or not numpy's numbers here: the recorder uses rng.integers
    _fastchance = None
