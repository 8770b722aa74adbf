"""Returns and outcomes (docs/monolith_strategy.md §8), through the shared formulas of core/returns.py."""

from __future__ import annotations

import numpy as np

from ..core import returns as core_returns
from .state import StrategyState

__all__ = ["returns", "outcome", "keys"]


def keys(game, s: StrategyState) -> list:
    """Sort keys per seat, higher is better: (VICTORY, vp, gem value, Power cards held) (docs §8)."""
    from .flow import rank_keys

    ks = [tuple(k) for k in (s.ranking or rank_keys(game.rules, s))]
    won = s.winner >= 0 and s.vp[s.winner] >= game.rules.victory
    return [((1,) if won and p == s.winner else (0,)) + ks[p] for p in range(len(ks))]


def returns(game, s: StrategyState) -> np.ndarray:
    """``float32[n]`` returns (docs §8): score mode the running (vp − mean of the others) / score_scale (solo
    vp / scale); otherwise zeros until the end, then solo ±1, ``win_loss`` or ``rank``."""
    n = game.num_players
    mode = game.config["reward_mode"]
    if mode == "score":
        if n == 1:
            return np.array([s.vp[0] / game.config["score_scale"]], np.float32)
        return core_returns.score_potential(s.vp, game.config["score_scale"])
    if not s.terminal:
        return np.zeros(n, np.float32)
    if n == 1:
        return core_returns.solo_goal(game.success(s))
    if mode == "win_loss":
        return core_returns.win_loss(n, [s.winner] if s.winner >= 0 else [])
    return core_returns.rank(keys(game, s))


def outcome(game, s: StrategyState) -> tuple:
    """WIN / LOSS per seat; DRAW for every seat tied on top when nobody wins (docs §8 D35; the others
    LOSS); SUCCESS / FAILURE in solo."""
    from ..core.game import Outcome

    core_returns.require_terminal(game, s)
    n = game.num_players
    if n == 1:
        return core_returns.solo_outcome(game.success(s))
    if s.winner >= 0:
        return core_returns.winners_outcome(n, [s.winner])
    ks = keys(game, s)
    best = max(ks)
    return tuple(Outcome.DRAW if ks[p] == best else Outcome.LOSS for p in range(n))
