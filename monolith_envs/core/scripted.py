"""``ScriptedRng``: forced draws for golden scenarios (exported by :mod:`monolith_envs.core.testing`).

A drop-in for the four generator calls an engine may make (``integers``, ``permutation``, ``choice``,
``random``) that returns listed values in draw order::

    game.apply(state, roll, ScriptedRng([4, 2, 6]))   # the dice show 4, 2 and 6

Each value is what the call returns: an int for ``integers`` without ``size``; a list for a sized draw
(``integers``, ``choice``, ``random`` with ``size``) or for ``permutation``; an element of ``a`` for
``choice``; a float in [0, 1) for ``random``. A value that the real call could not return (out of range, not
an element, not a permutation, a repeated element without replacement, an element of probability 0), or a
draw after the script ran out, raises :class:`ScriptedRngError` naming the draw.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

import numpy as np

from .chance import DRAW_CALLS, describe_draw, json_value
from .config import is_integral
from .game import MonolithEnvError

__all__ = ["ScriptedRng", "ScriptedRngError"]


class ScriptedRngError(MonolithEnvError, AssertionError):
    """A scripted draw that cannot be served: the script ran out, or its value is not one the call could
    return. The message names the draw (its number, the call and its arguments) and the value."""


def _count(size: Any) -> int:
    return int(np.prod(size)) if np.ndim(size) else int(size)


class ScriptedRng:
    """Serves ``values`` in draw order to ``integers`` / ``permutation`` / ``choice`` / ``random``.

    Args:
        values: the scripted results, one per draw (see the module docstring for their shapes).

    Attributes:
        draws: readable text of every draw served so far, e.g. ``["integers(1, 7) -> 4"]``.

    Raises (from the draw calls):
        ScriptedRngError: no value left, or a value the call could not return.
    """

    def __init__(self, values: Iterable[Any]):
        self._values = list(values)
        self._next = 0
        self.draws: list[str] = []

    @property
    def remaining(self) -> list:
        """The values not drawn yet."""
        return self._values[self._next:]

    def assert_exhausted(self) -> None:
        """Raise :class:`ScriptedRngError` when some scripted values were not drawn (a scenario that scripts
        more draws than the rules make)."""
        if self.remaining:
            raise ScriptedRngError(f"{len(self.remaining)} scripted value(s) not drawn: {self.remaining!r} "
                                   f"(draws made: {self.draws})")

    # ------------------------------------------------------------------ internals
    def _take(self, what: str) -> tuple[Any, str]:
        k = self._next
        if k >= len(self._values):
            raise ScriptedRngError(f"draw #{k + 1} {what}: the script has no value left (it lists "
                                   f"{len(self._values)}: {self._values!r})")
        self._next += 1
        return self._values[k], f"draw #{k + 1} {what}"

    def _served(self, what: str, value: Any) -> Any:
        self.draws.append(f"{what} -> {json_value(value)}")
        return value

    @staticmethod
    def _list(v: Any, n: int, where: str) -> list:
        if not isinstance(v, (list, tuple, np.ndarray)) or len(v) != n:
            raise ScriptedRngError(f"{where}: the scripted value must be a list of {n} values, got {v!r}")
        return list(v)

    # ------------------------------------------------------------------ the four calls
    def integers(self, low: Any, high: Any = None, size: Any = None) -> Any:
        """Like ``Generator.integers``: ``low <= v < high`` (``0 <= v < low`` when ``high`` is None)."""
        what = describe_draw("integers", (low,) if high is None else (low, high), {} if size is None else {"size": size})
        lo, hi = (0, int(low)) if high is None else (int(low), int(high))
        v, where = self._take(what)
        vals = [v] if size is None else self._list(v, _count(size), where)
        for x in vals:
            if not is_integral(x) or not lo <= x < hi:
                raise ScriptedRngError(f"{where}: scripted value {x!r} is not an integer in {lo}..{hi - 1}")
        out = int(v) if size is None else np.array(vals, np.int64).reshape(size)
        return self._served(what, out)

    def permutation(self, x: Any) -> np.ndarray:
        """Like ``Generator.permutation``: for an int ``x`` a list ordering ``0..x-1``; for an array a list of
        its elements in the new order."""
        what = describe_draw("permutation", (x,), {})
        v, where = self._take(what)
        items = list(range(int(x))) if is_integral(x) else json_value(list(np.asarray(x)))
        got = self._list(v, len(items), where)
        if Counter(map(repr, json_value(got))) != Counter(map(repr, items)):
            raise ScriptedRngError(f"{where}: scripted value {v!r} is not a permutation of {items!r}")
        dtype = np.int64 if is_integral(x) else np.asarray(x).dtype
        return self._served(what, np.array(got, dtype))

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        """Like ``Generator.choice``: an element of ``a`` (of ``range(a)`` for an int), or a list of ``size``
        of them (distinct positions when ``replace`` is False); never an element of probability 0."""
        kw: dict = {}
        if size is not None:
            kw["size"] = size
        if not replace:
            kw["replace"] = False
        if p is not None:
            kw["p"] = p
        what = describe_draw("choice", (a,), kw)
        v, where = self._take(what)
        items = list(range(int(a))) if is_integral(a) else json_value(list(np.asarray(a)))
        probs = None if p is None else [float(x) for x in p]
        vals = [v] if size is None else self._list(v, _count(size), where)
        pool = Counter(map(repr, items))
        for x in vals:
            key = repr(json_value(x))
            allowed = [i for i, it in enumerate(items) if repr(it) == key and (probs is None or probs[i] > 0)]
            if not allowed:
                why = "has probability 0" if key in pool else "is not an element"
                raise ScriptedRngError(f"{where}: scripted value {x!r} {why} of {items if len(items) <= 12 else a!r}")
            if not replace:
                if pool[key] == 0:
                    raise ScriptedRngError(f"{where}: scripted value {x!r} drawn twice without replacement")
                pool[key] -= 1
        if size is None:
            return self._served(what, v)
        dtype = np.int64 if is_integral(a) else np.asarray(a).dtype
        return self._served(what, np.array(vals, dtype).reshape(size))

    def random(self, size: Any = None) -> Any:
        """Like ``Generator.random``: a float in [0, 1), or a list of ``size`` of them."""
        what = describe_draw("random", (), {} if size is None else {"size": size})
        v, where = self._take(what)
        vals = [v] if size is None else self._list(v, _count(size), where)
        for x in vals:
            if not isinstance(x, (float, int, np.floating, np.integer)) or isinstance(x, bool) or not 0.0 <= x < 1.0:
                raise ScriptedRngError(f"{where}: scripted value {x!r} is not a float in [0, 1)")
        out = float(v) if size is None else np.array(vals, np.float64).reshape(size)
        return self._served(what, out)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise ScriptedRngError(f"rng.{name} is not one of the scripted calls ({', '.join(DRAW_CALLS)})")
