"""Named observation pieces packed into one flat float32 vector (ARCHITECTURE §4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from gymnasium import spaces

__all__ = ["ObsPiece", "ObsSpec"]


@dataclass(frozen=True)
class ObsPiece:
    """One named block of the observation vector.

    Attributes:
        name: piece name (e.g. ``"hex_blocks"``).
        shape: its shape (e.g. ``(19, 143)``).
        offset: first index in the flat vector.
        low, high: bounds of every value of the piece (used for the gymnasium ``Box``).
        doc: one line saying what it holds and how it is normalised.
        size: number of floats (derived); stop: one past its last index (derived).
    """

    name: str
    shape: tuple[int, ...]
    offset: int
    low: float
    high: float
    doc: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", int(np.prod(self.shape)))
        object.__setattr__(self, "stop", self.offset + self.size)


class ObsSpec:
    """Named pieces forming one flat ``float32[size]`` observation and its ``gymnasium.spaces.Box``.

    Args:
        pieces: ``(name, shape)`` or ``(name, shape, low, high, doc)`` tuples in vector order.
            Default bounds are ``[0, 1]``.

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
            piece = ObsPiece(name, shape, off, low, high, doc)
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
        """Writable view of piece ``name`` inside ``vec``, with the piece's shape."""
        p = self[name]
        return vec[p.offset : p.stop].reshape(p.shape)

    def views(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """``{name: view}`` for every piece."""
        return {p.name: vec[p.offset : p.stop].reshape(p.shape) for p in self.pieces}

    def describe(self) -> str:
        """One line per piece: name, shape, index range, bounds and doc."""
        lines = [f"size={self.size}"]
        for p in self.pieces:
            lines.append(
                f"{p.name} shape={list(p.shape)} idx={p.offset}..{p.stop - 1} [{p.low:g},{p.high:g}] {p.doc}".rstrip()
            )
        return "\n".join(lines)
