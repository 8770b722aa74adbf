"""The three return modes shared by every game (``win_loss``, ``rank``, ``score``) and per-seat outcomes.

The formulas are those of §8 of each game's rules (``docs/<game>.md`` §8): Monolith Arena, Monolith: The
Strategy Game and The Monolith state the same three modes.

- ``win_loss``: the winners share +1, the others share -1 (one winner of N: +1 and -1/(N-1) each; two
  allied winners of four: +0.5 and -0.5 each); no winner, or every seat a winner (a draw): 0 each.
- ``rank``: place i (0-based, best first) is worth ``1 - 2i/(N-1)``; tied seats share the mean of their
  places; the values sum to 0.
- ``score``: a dense potential ``(v_p - mean_{q != p} v_q) / scale``; the env's reward is the change of
  ``returns``, so a game returns this potential (or sums its per-step changes, which is the same number).

Each function computes in float64 with the operations in the order written above and returns ``float32``
unless ``dtype`` says otherwise (a game that keeps returns in its state may keep the float64 values).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from .game import MonolithEnvError, Outcome

__all__ = ["win_loss", "rank", "score_potential", "solo_goal", "winners_outcome", "solo_outcome", "float_tolerance"]


def float_tolerance(*values: float) -> float:
    """How far float32 returns may stray from an exact identity (a zero sum, rewards adding up to a return):
    ``1e-5 * max(1, sum of |values|)``, so a return in the thousands (``score`` mode with a small
    ``score_scale``) is compared at float32's relative precision, not at an absolute 1e-5."""
    return 1e-5 * max(1.0, float(np.abs(np.asarray(values, np.float64)).sum()))


def _seats(num_players: int, winners: Iterable[int]) -> set[int]:
    if not isinstance(num_players, (int, np.integer)) or num_players < 1:
        raise ValueError(f"num_players must be an integer >= 1, got {num_players!r}")
    w = {int(p) for p in winners}
    bad = sorted(p for p in w if not 0 <= p < num_players)
    if bad:
        raise ValueError(f"winners {bad} are not seats 0..{num_players - 1}")
    return w


def win_loss(num_players: int, winners: Iterable[int], dtype: Any = np.float32) -> np.ndarray:
    """Terminal ``win_loss`` values (docs/<game>.md §8).

    Args:
        num_players: N, the number of seats.
        winners: the winning seats (one seat, or every seat of the winning team); duplicates are ignored.
        dtype: the result's dtype (``float32`` by default).

    Returns:
        ``dtype[N]``: ``+1/k`` for each of the k winners, ``-1/(N-k)`` for each other seat; all 0 when there is
        no winner or every seat won. E.g. ``win_loss(4, [2])`` = ``[-1/3, -1/3, 1, -1/3]``,
        ``win_loss(4, [0, 2])`` = ``[0.5, -0.5, 0.5, -0.5]``.

    Raises:
        ValueError: ``num_players`` below 1, or a winner that is not a seat.
    """
    w = _seats(num_players, winners)
    n = int(num_players)
    if not w or len(w) == n:
        return np.zeros(n, dtype)
    win = 1.0 / len(w)
    lose = -1.0 / (n - len(w))
    return np.array([win if p in w else lose for p in range(n)], dtype)


def rank(keys: Sequence[Any], dtype: Any = np.float32) -> np.ndarray:
    """Terminal ``rank`` values (docs/<game>.md §8).

    Args:
        keys: one comparable key per seat (numbers or tuples), higher is better; equal keys tie.
        dtype: the result's dtype (``float32`` by default).

    Returns:
        ``dtype[N]``: a seat with ``b`` better keys and ``t`` equal ones (itself included) holds the mean
        0-based place ``b + (t-1)/2`` and gets ``1 - 2*place/(N-1)``; then the mean is subtracted (it is 0 up
        to rounding), so the values sum to 0. One seat: ``[0]``. E.g. ``rank([3, 1, 2])`` = ``[1, -1, 0]``,
        ``rank([5, 5, 1])`` = ``[0.5, 0.5, -1]``.

    Raises:
        ValueError: no keys.
    """
    keys = list(keys)
    n = len(keys)
    if n == 0:
        raise ValueError("rank() needs one key per seat, got none")
    if n == 1:
        return np.zeros(1, dtype)
    ranks = []
    for p in range(n):
        better = sum(1 for q in range(n) if keys[q] > keys[p])
        same = sum(1 for q in range(n) if keys[q] == keys[p])
        ranks.append(better + (same + 1) / 2.0)
    vals = [1.0 - 2.0 * (r - 1) / (n - 1) for r in ranks]
    m = sum(vals) / n
    return np.array([v - m for v in vals], dtype)


def score_potential(values: Sequence[float], scale: float | Sequence[float] = 1.0,
                    dtype: Any = np.float32) -> np.ndarray:
    """The ``score`` potential (docs/<game>.md §8): each seat's value against the mean of the others.

    Args:
        values: ``v``, one number per seat (HP, victory points, favour), or per team.
        scale: the divisor: one number, or one per seat (e.g. each faction's Banner HP). A game whose rules
            multiply by a factor passes its inverse.
        dtype: the result's dtype (``float32`` by default).

    Returns:
        ``dtype[N]``: ``(v_p - mean_{q != p} v_q) / scale_p``; with integer values it sums to 0 up to rounding
        when ``scale`` is one number. One seat: ``v_0 / scale``. Because it is linear, the change of the
        potential between two states is ``score_potential(after - before, scale)``.

    Raises:
        ValueError: no values, a scale of the wrong length, or a zero scale.
    """
    v = [float(x) for x in values]
    n = len(v)
    if n == 0:
        raise ValueError("score_potential() needs one value per seat, got none")
    sc = [float(scale)] * n if np.ndim(scale) == 0 else [float(x) for x in scale]  # type: ignore[arg-type]
    if len(sc) != n:
        raise ValueError(f"score_potential(): {len(sc)} scales for {n} values")
    if any(x == 0.0 for x in sc):
        raise ValueError(f"score_potential(): scale must not be 0, got {sc}")
    if n == 1:
        return np.array([v[0] / sc[0]], dtype)
    out = []
    for p in range(n):
        others = [v[q] for q in range(n) if q != p]
        out.append((v[p] - sum(others) / len(others)) / sc[p])
    return np.array(out, dtype)


def solo_goal(success: bool, dtype: Any = np.float32) -> np.ndarray:
    """Terminal return of a one-seat game in ``win_loss`` / ``rank``: ``[+1]`` on success, else ``[-1]``."""
    return np.array([1.0 if success else -1.0], dtype)


def winners_outcome(num_players: int, winners: Iterable[int]) -> tuple[Outcome, ...]:
    """Per-seat :class:`Outcome` of a finished game with several seats, from its winners.

    Args:
        num_players: N (2 or more).
        winners: the winning seats (allies: every seat of the winning team).

    Returns:
        ``tuple[Outcome, ...]`` of length N: ``WIN`` for the winners and ``LOSS`` for the others; ``DRAW`` for
        every seat when there is no winner or every seat won. E.g. ``winners_outcome(4, [0, 2])`` =
        ``(WIN, LOSS, WIN, LOSS)``.

    Raises:
        ValueError: ``num_players`` below 2 (use :func:`solo_outcome`), or a winner that is not a seat.
    """
    w = _seats(num_players, winners)
    if num_players < 2:
        raise ValueError("winners_outcome() is for two seats or more; a one-seat game uses solo_outcome()")
    if not w or len(w) == num_players:
        return (Outcome.DRAW,) * int(num_players)
    return tuple(Outcome.WIN if p in w else Outcome.LOSS for p in range(int(num_players)))


def solo_outcome(success: bool) -> tuple[Outcome]:
    """``(Outcome.SUCCESS,)`` or ``(Outcome.FAILURE,)``: the outcome of a one-seat game."""
    return (Outcome.SUCCESS if success else Outcome.FAILURE,)


def require_terminal(game: Any, state: Any) -> None:
    """Raise :class:`MonolithEnvError` unless ``game.is_terminal(state)`` (for ``outcome`` implementations)."""
    if not game.is_terminal(state):
        raise MonolithEnvError("outcome() of a state that is not terminal: the game is not over yet")
