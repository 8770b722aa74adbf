"""Named observation pieces packed into one flat float32 vector (ARCHITECTURE §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from gymnasium import spaces

__all__ = ["ObsPiece", "ObsSpec", "check_seat"]


def check_seat(player: object, num_players: int) -> int:
    """``player`` as a Python ``int`` seat in ``0 .. num_players - 1`` (a game's ``observe`` calls this).

    Accepts Python and numpy integers, as ``apply`` accepts actions (``core.actions.coerce_action``).

    Raises:
        ValueError: a bool, a float (``1.5`` is not truncated to seat 1), a string (``'0'``) or any other
            non-integer, or an integer that is not a seat; the message names the value and the seats.
    """
    if type(player) is int and 0 <= player < num_players:  # the common case, first
        return player
    if not isinstance(player, (int, np.integer)) or isinstance(player, (bool, np.bool_)):
        raise ValueError(f"player {player!r} is not a seat: a seat is an integer from 0 to {num_players - 1}, "
                         f"not a {type(player).__name__}")
    p = int(player)
    if not 0 <= p < num_players:
        raise ValueError(f"player {p} is not a seat of this {num_players}-player game (seats 0 to "
                         f"{num_players - 1})")
    return p


@dataclass(frozen=True)
class ObsPiece:
    """One named block of the observation vector.

    Attributes:
        name: piece name (e.g. ``"hex_blocks"``).
        shape: its shape (e.g. ``(19, 143)``).
        offset: first index in the flat vector.
        low, high: bounds of every value of the piece (used for the gymnasium ``Box``).
        doc: one line saying what it holds and how it is normalised.
        fields: named sub-fields of the last axis, ``((name, width), ...)`` in order (empty: none); their
            widths add up to ``shape[-1]``.  :meth:`field` gives one's ``(start, stop)`` within a row.
        size: number of floats (derived); stop: one past its last index (derived).

    Raises:
        ValueError: fields whose widths do not add up to the last axis, or a duplicate field name.
    """

    name: str
    shape: tuple[int, ...]
    offset: int
    low: float
    high: float
    doc: str
    fields: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", int(np.prod(self.shape)))
        object.__setattr__(self, "stop", self.offset + self.size)
        starts: dict[str, tuple[int, int]] = {}
        at = 0
        for name, width in self.fields:
            if name in starts:
                raise ValueError(f"observation piece {self.name!r}: duplicate field {name!r}")
            starts[name] = (at, at + int(width))
            at += int(width)
        if self.fields and at != self.shape[-1]:
            raise ValueError(f"observation piece {self.name!r}: fields cover {at} of its last axis "
                             f"{self.shape[-1]}")
        object.__setattr__(self, "_fields", starts)

    def field(self, name: str) -> tuple[int, int]:
        """``(start, stop)`` of sub-field ``name`` within one row of the last axis.

        Raises:
            KeyError: no such field (the message lists the fields).
        """
        try:
            return self._fields[name]
        except KeyError:
            raise KeyError(f"observation piece {self.name!r} has no field {name!r}; fields: "
                           f"{[f for f, _ in self.fields]}") from None


class ObsSpec:
    """Named pieces forming one flat ``float32[size]`` observation and its ``gymnasium.spaces.Box``.

    Args:
        pieces: ``(name, shape)``, ``(name, shape, low, high, doc)`` or ``(name, shape, low, high, doc,
            fields)`` tuples in vector order (``fields``: see :class:`ObsPiece`).  Default bounds are ``[0, 1]``.

    Example:
        >>> spec = ObsSpec([("board", (3, 3, 2)), ("turn", (1,), -1.0, 1.0, "whose turn")])
        >>> spec.size, spec.space.shape
        (19, (19,))
    """

    def __init__(self, pieces: Sequence[tuple]):
        out: list[ObsPiece] = []
        off = 0
        for p in pieces:
            name, shape = p[0], tuple(int(s) for s in p[1])
            low = float(p[2]) if len(p) > 2 else 0.0
            high = float(p[3]) if len(p) > 3 else 1.0
            doc = str(p[4]) if len(p) > 4 else ""
            fields = tuple((str(f), int(w)) for f, w in p[5]) if len(p) > 5 else ()
            piece = ObsPiece(name, shape, off, low, high, doc, fields)
            out.append(piece)
            off = piece.stop
        self.pieces: tuple[ObsPiece, ...] = tuple(out)
        self.size: int = off
        self._by_name = {p.name: p for p in out}
        if len(self._by_name) != len(out):
            raise ValueError("duplicate observation piece names")
        low = np.empty(off, np.float32)
        high = np.empty(off, np.float32)
        for p in out:
            low[p.offset : p.stop] = p.low
            high[p.offset : p.stop] = p.high
        self.low, self.high = low, high
        self.space = spaces.Box(low=low, high=high, shape=(off,), dtype=np.float32)

    def __getitem__(self, name: str) -> ObsPiece:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"unknown observation piece {name!r}; pieces: {list(self._by_name)}") from None

    def zeros(self) -> np.ndarray:
        """A fresh ``float32[size]`` vector of zeros."""
        return np.zeros(self.size, np.float32)

    def view(self, vec: np.ndarray, name: str) -> np.ndarray:
        """Writable view of piece ``name`` inside one observation ``vec`` (``float32[size]``), with the
        piece's shape.

        Raises:
            KeyError: an unknown piece name.
            ValueError: ``vec`` is not one flat observation of ``size`` values (a batch: take one row).
        """
        p = self[name]
        try:
            return vec[p.offset : p.stop].reshape(p.shape)
        except (ValueError, AttributeError, TypeError):
            raise ValueError(self._not_one_observation(vec)) from None

    def views(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """``{name: view}`` for every piece of one observation ``vec`` (``float32[size]``).

        Raises:
            ValueError: ``vec`` is not one flat observation of ``size`` values (a batch: take one row).
        """
        try:
            return {p.name: vec[p.offset : p.stop].reshape(p.shape) for p in self.pieces}
        except (ValueError, AttributeError, TypeError):
            raise ValueError(self._not_one_observation(vec)) from None

    def _not_one_observation(self, vec: object) -> str:
        shape = getattr(vec, "shape", None)
        got = f"an array of shape {tuple(shape)}" if shape is not None else type(vec).__name__
        return (f"expected one flat observation of {self.size} values (shape ({self.size},)), got {got}; "
                "for a batch, take one row (vec[i])")

    def offsets(self) -> dict[str, int]:
        """``{name: offset}`` of every piece and ``{"piece.field": start}`` of every sub-field (within a row)."""
        out: dict[str, int] = {}
        for p in self.pieces:
            out[p.name] = p.offset
            for f, _ in p.fields:
                out[f"{p.name}.{f}"] = p.field(f)[0]
        return out

    def describe(self) -> str:
        """One line per piece: name, shape, index range, bounds and doc; then one indented line per sub-field
        (name, ``start..stop-1`` within a row)."""
        lines = [f"size={self.size}"]
        for p in self.pieces:
            lines.append(
                f"{p.name} shape={list(p.shape)} idx={p.offset}..{p.stop - 1} [{p.low:g},{p.high:g}] {p.doc}".rstrip()
            )
            for f, _ in p.fields:
                a, b = p.field(f)
                lines.append(f"  .{f} {a}..{b - 1}")
        return "\n".join(lines)
