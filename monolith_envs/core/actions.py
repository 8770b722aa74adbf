"""Named action families laid out as one flat ``Discrete(n)`` (ARCHITECTURE §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

__all__ = ["ActionFamily", "ActionLayout", "coerce_action"]


def coerce_action(action: Any, n: int | None = None) -> int:
    """Turn a user action into a Python ``int`` (in ``0 .. n-1`` when ``n`` is given).

    Accepts Python and numpy integers and 0-d integer arrays; ``env.step`` and every game's ``apply`` use
    it, so both reject the same values.

    Raises:
        IllegalActionError: ``None``, a bool, a float (``446.9`` is not truncated to 446), a string or any
            other non-integer, or an integer out of range; the message names the value and what is allowed.
    """
    if type(action) is int and (n is None or 0 <= action < n):  # the common case, first
        return action
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        a = int(action)
    elif isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        a = int(action)
    else:
        from .game import IllegalActionError  # game.py imports this module

        what = f"an integer from 0 to {n - 1}" if n is not None else "an integer"
        raise IllegalActionError(repr(action), f"an action must be {what}, not a {type(action).__name__}",
                                 "pass an int (numpy integers are accepted)")
    if n is not None and not 0 <= a < n:
        from .game import IllegalActionError

        raise IllegalActionError(str(a), f"out of range: actions are integers from 0 to {n - 1}", "")
    return a


@dataclass(frozen=True)
class ActionFamily:
    """One family of actions: a dense block of ``prod(shape)`` indices starting at ``offset``.

    Attributes:
        name: family name as written in the spec (e.g. ``"PLACE"``).
        shape: the family's index shape (e.g. ``(3, 19, 6)``).
        args: one name per axis (e.g. ``("slot", "hex", "rot")``).
        offset: first flat action index of the family.
    """

    name: str
    shape: tuple[int, ...]
    args: tuple[str, ...]
    offset: int

    @property
    def size(self) -> int:
        """Number of actions in the family."""
        return int(np.prod(self.shape)) if self.shape else 1

    @property
    def stop(self) -> int:
        """One past the last flat index of the family."""
        return self.offset + self.size


class ActionLayout:
    """Named action families, in declared order (never sorted), forming ``Discrete(n)``.

    Args:
        families: ``(name, shape, arg_names)`` triples in the order the spec declares them. ``shape``
            may be ``()`` for a single action (e.g. ``END_TURN``).
        labels: optional ``{arg_name: callable(index) -> str}`` used by :meth:`decode`.

    Raises:
        ValueError: duplicate family names, or ``arg_names`` not matching ``shape``.

    Example:
        >>> lay = ActionLayout([("MARK", (3, 3), ("row", "col")), ("PASS", (), ())])
        >>> lay.n, lay.index("MARK", 1, 2), lay.decode(5), lay.decode(9)
        (10, 5, 'MARK(row=1, col=2)', 'PASS')
    """

    def __init__(
        self,
        families: Sequence[tuple[str, Sequence[int], Sequence[str]]],
        labels: Mapping[str, Callable[[int], str]] | None = None,
    ):
        fams: list[ActionFamily] = []
        offset = 0
        seen: set[str] = set()
        for name, shape, args in families:
            shape = tuple(int(s) for s in shape)
            args = tuple(args)
            if name in seen:
                raise ValueError(f"duplicate action family {name!r}")
            if len(args) != len(shape):
                raise ValueError(f"family {name!r}: {len(args)} arg names for shape {shape}")
            if any(s <= 0 for s in shape):
                raise ValueError(f"family {name!r}: every axis needs size >= 1, got {shape}")
            seen.add(name)
            fam = ActionFamily(name, shape, args, offset)
            fams.append(fam)
            offset = fam.stop
        self.families: tuple[ActionFamily, ...] = tuple(fams)
        self.n: int = offset
        self._by_name = {f.name: f for f in fams}
        self._labels = dict(labels or {})
        # family id per flat action, for O(1) decode
        self._family_of = np.zeros(self.n, dtype=np.int16)
        for i, f in enumerate(fams):
            self._family_of[f.offset : f.stop] = i

    def __getitem__(self, name: str) -> ActionFamily:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"unknown action family {name!r}; families: {list(self._by_name)}") from None

    def offset(self, name: str) -> int:
        """First flat index of family ``name``."""
        return self[name].offset

    def index(self, name: str, *idx: int) -> int:
        """Flat action index of ``name`` at multi-index ``idx``.

        Raises:
            ValueError: wrong number of indices or an index out of range.
        """
        fam = self[name]
        if len(idx) != len(fam.shape):
            raise ValueError(f"{name} takes {len(fam.shape)} indices {fam.args}, got {idx}")
        flat = 0
        for i, s, a in zip(idx, fam.shape, fam.args):
            if not 0 <= i < s:
                raise ValueError(f"{name}: {a}={i} out of range 0..{s - 1}")
            flat = flat * s + int(i)
        return fam.offset + flat

    def view(self, mask: np.ndarray, name: str) -> np.ndarray:
        """A writable view of the family's slice of one flat ``mask`` (``bool[n]`` or ``int8[n]``; shape = the
        family's shape).

        Raises:
            ValueError: ``mask`` is not one flat mask of ``n`` entries (a batch: take one row).
        """
        fam = self[name]
        try:
            return mask[fam.offset : fam.stop].reshape(fam.shape)
        except (ValueError, AttributeError, TypeError):
            shape = getattr(mask, "shape", None)
            got = f"an array of shape {tuple(shape)}" if shape is not None else type(mask).__name__
            raise ValueError(f"expected one flat action mask of {self.n} entries (shape ({self.n},)), got {got}; "
                             "for a batch, take one row (mask[i])") from None

    def split(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(family name, multi-index)`` of a flat action.

        Raises:
            ValueError: ``action`` outside ``0 .. n-1``.
        """
        if not 0 <= action < self.n:
            raise ValueError(f"action {action} outside 0..{self.n - 1}")
        fam = self.families[int(self._family_of[action])]
        rel = action - fam.offset
        idx = tuple(int(i) for i in np.unravel_index(rel, fam.shape)) if fam.shape else ()
        return fam.name, idx

    def decode(self, action: int) -> str:
        """Readable name of a flat action, e.g. ``"PLACE(slot=0, hex=9, rot=1)"``.

        Raises:
            IllegalActionError: ``action`` is not an integer from 0 to ``n - 1`` (``1.5`` is not read as 1).
        """
        name, idx = self.split(coerce_action(action, self.n))
        fam = self._by_name[name]
        if not idx:
            return name
        return f"{name}({', '.join(f'{a}={self.label(a, i)}' for a, i in zip(fam.args, idx))})"

    def label(self, arg: str, index: int) -> str:
        """How argument ``arg``'s ``index`` is written in action names: its label (a die face 1-6 for index
        0-5, ...), else the index itself."""
        lab = self._labels.get(arg)
        return lab(index) if lab else str(index)

    def names(self, mask: np.ndarray) -> list[str]:
        """Readable names of every action set in ``mask``."""
        return [self.decode(int(a)) for a in np.flatnonzero(mask)]

    def describe(self) -> str:
        """One line per family: ``name shape args offset..stop-1``; snapshot-tested (renumbering = new version)."""
        lines = [f"n={self.n}"]
        for f in self.families:
            lines.append(f"{f.name} shape={list(f.shape)} args={list(f.args)} actions={f.offset}..{f.stop - 1}")
        return "\n".join(lines)
