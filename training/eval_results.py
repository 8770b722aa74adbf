"""The results of :mod:`training.evaluate`: one pairing's matches (:class:`PairResult`) and one agent's solo
episodes (:class:`SoloResult`), each with a JSON-ready ``summary()`` (rates with 95% Wilson intervals).

The tables printed from them are :mod:`training.eval_tables`; both are re-exported by
:mod:`training.evaluate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from training.eval_tables import wilson_interval

__all__ = ["PairResult", "SoloResult"]


@dataclass
class PairResult:
    """Outcome of ``games`` matches of agent ``a`` against agent ``b`` (from ``a``'s side).

    ``outcomes[k]`` is ``1`` (a's seats WIN), ``0`` (DRAW, or a truncation) or ``-1`` (LOSS) for game k, read
    from ``game.outcome``; ``seats[k]`` is a's (first) seat; ``returns[k]`` the returns by seat;
    ``decisions[k]`` the match length; ``truncated``: matches stopped at ``max_decisions`` (counted as draws).
    """

    a: str
    b: str
    games: int = 0
    outcomes: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    returns: list[list[float]] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    seconds: float = 0.0
    truncated: int = 0

    @property
    def wins(self) -> int:
        """Games ``a``'s seats won."""
        return sum(1 for o in self.outcomes if o > 0)

    @property
    def draws(self) -> int:
        """Games drawn (outcome DRAW) or truncated."""
        return sum(1 for o in self.outcomes if o == 0)

    @property
    def losses(self) -> int:
        """Games ``a`` lost."""
        return sum(1 for o in self.outcomes if o < 0)

    def summary(self) -> dict:
        """JSON-ready dict: wins, draws, losses, win_rate and its 95% Wilson interval, mean length,
        ``seconds`` (the games' play time added up: with worker processes more than the wall time), and
        ``truncated`` (matches stopped at ``max_decisions``, among the draws)."""
        n = len(self.outcomes)
        lo, hi = wilson_interval(self.wins, n)
        return {
            "agent": self.a, "opponent": self.b, "games": n, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "win_rate": self.wins / n if n else 0.0, "ci95": [lo, hi],
            "mean_decisions": float(np.mean(self.decisions)) if self.decisions else 0.0,
            "seconds": self.seconds, "truncated": self.truncated,
        }


@dataclass
class SoloResult:
    """``games`` episodes of agent ``agent`` alone in a one-seat game.

    ``successes[k]`` is 1 when episode k ended in ``Outcome.SUCCESS`` (0 for FAILURE or a truncation);
    ``scores[k]`` its final return; ``decisions[k]`` its length; ``truncated``: episodes stopped at
    ``max_decisions`` (failures).
    """

    agent: str
    games: int = 0
    successes: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    seconds: float = 0.0
    truncated: int = 0

    def summary(self) -> dict:
        """JSON-ready dict: successes, success_rate and its 95% Wilson interval, mean_score, mean length,
        ``seconds`` (the episodes' play time added up, as :meth:`PairResult.summary`), and ``truncated``
        (episodes stopped at ``max_decisions``, among the failures)."""
        n = len(self.successes)
        k = sum(self.successes)
        lo, hi = wilson_interval(k, n)
        return {
            "agent": self.agent, "games": n, "successes": k, "success_rate": k / n if n else 0.0,
            "ci95": [lo, hi], "mean_score": float(np.mean(self.scores)) if self.scores else 0.0,
            "mean_decisions": float(np.mean(self.decisions)) if self.decisions else 0.0, "seconds": self.seconds,
            "truncated": self.truncated,
        }
