"""Small helpers for the games' texts in words (terminal and browser play, narration, drawings)."""

from __future__ import annotations

__all__ = ["count", "seat_values"]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the right number: ``count(1, "gem")`` is ``"1 gem"``, ``count(3, "gem")``
    ``"3 gems"`` (``plural`` for a noun whose plural is not ``noun + "s"``)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def seat_values(values, digits: int = 3) -> str:
    """One signed number per seat, as the games' texts name seats: ``[-1.0, 1.0]`` -> ``"P0 -1, P1 +1"``
    (``digits`` significant digits)."""
    return ", ".join(f"P{i} {float(v):+.{digits}g}" for i, v in enumerate(values))
