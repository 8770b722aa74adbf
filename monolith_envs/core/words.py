"""Small helpers for the games' texts in words (terminal and browser play, narration, drawings)."""

from __future__ import annotations

__all__ = ["count", "plural_of", "seat_values", "table_text"]


def plural_of(noun: str) -> str:
    """The regular English plural of ``noun``: ``"gems"``, ``"batches"`` (``-es`` after ch, sh, s and x)."""
    return noun + ("es" if noun.endswith(("ch", "sh", "s", "x")) else "s")


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the right number: ``count(1, "gem")`` is ``"1 gem"``, ``count(3, "gem")``
    ``"3 gems"`` (``plural`` for a noun whose plural is not :func:`plural_of` it)."""
    return f"{n} {noun if n == 1 else plural or plural_of(noun)}"


def seat_values(values, digits: int = 3) -> str:
    """One signed number per seat, as the games' texts name seats: ``[-1.0, 1.0]`` -> ``"P0 -1, P1 +1"``
    (``digits`` significant digits)."""
    return ", ".join(f"P{i} {float(v):+.{digits}g}" for i, v in enumerate(values))


def table_text(names, seat: int, teams=None) -> str:
    """Who sits at the table, from ``seat``'s side: ``"opponents: P1 random, P2 heuristic"``, with partners
    named apart in a teams game (``teams`` a partition of the seats, e.g. ``((0, 2), (1, 3))``):
    ``"partner: P2 random; opponents: P1 random, P3 random"``; ``"you play alone (one seat)"`` for one seat.

    Args:
        names: one name per seat (the player's own entry is not shown).
        seat: the player's seat.
        teams: the game's ``teams`` (None or each seat alone: no partners).
    """
    mine = next((t for t in (teams or ()) if seat in t), (seat,))
    partners = [i for i in mine if i != seat]
    others = [i for i in range(len(names)) if i != seat and i not in partners]
    if not partners and not others:
        return "you play alone (one seat)"
    parts = []
    if partners:
        parts.append(("partner: " if len(partners) == 1 else "partners: ")
                     + ", ".join(f"P{i} {names[i]}" for i in partners))
    if others:
        parts.append("opponents: " + ", ".join(f"P{i} {names[i]}" for i in others))
    return "; ".join(parts)
