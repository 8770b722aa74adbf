"""Returns and outcomes (docs/monolith_strategy.md §8), through the shared formulas of core/returns.py."""

from __future__ import annotations

import numpy as np

from ..core import returns as core_returns
from .state import StrategyState

__all__ = ["returns", "outcome", "keys", "end_reason"]


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
    """WIN / LOSS per seat; DRAW for every seat tied on top when nobody wins (docs §8, §11: nobody wins a tie on
    all three keys; the others LOSS); SUCCESS / FAILURE in solo."""
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


def end_reason(game, s: StrategyState) -> str:
    """Why a finished game ended as it did, in words (docs §8): a VICTORY, the solo goal reached or missed, or
    Final Scoring's VP and, where the top is tied, the next keys (gem value, then Power cards held) that
    decide, e.g. ``"after Final Scoring: VP P0 20, P1 20; tied, so gem value decides: P0 5, P1 3"``.  ``""``
    for a game that is not over."""
    if not s.terminal:
        return ""
    R = game.rules
    if s.winner >= 0 and s.vp[s.winner] >= R.victory:
        return f"P{s.winner} reached VICTORY ({R.victory} VP)"
    if game.num_players == 1:
        goal = min(game.solo_goal, R.victory)
        return f"{s.vp[0]} VP: the goal of {goal} VP is {'reached' if game.success(s) else 'missed'}"
    ks = keys(game, s)
    names = ("VP", "gem value decides", "Power cards held decide")
    seats = list(range(game.num_players))
    text = "after Final Scoring: VP " + ", ".join(f"P{p} {ks[p][1]}" for p in seats)
    for i in range(1, 3):  # the key after a tie on the ones before it, among the seats still tied
        best = max(ks[p][i] for p in seats)
        seats = [p for p in seats if ks[p][i] == best]
        if len(seats) == 1:
            return text
        text += f"; tied, so {names[i]}: " + ", ".join(f"P{p} {ks[p][i + 1]}" for p in seats)
    best = max(ks[p][3] for p in seats)
    if sum(1 for p in seats if ks[p][3] == best) > 1:
        text += "; tied on all three, so nobody wins"
    return text
