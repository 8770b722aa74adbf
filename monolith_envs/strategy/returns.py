"""Returns and outcomes (docs/monolith_strategy.md §8)."""

from __future__ import annotations

from .state import StrategyState

__all__ = ["returns", "outcome", "win_loss", "rank"]


def win_loss(n: int, winner: int) -> list:
    """The winner +1, each other seat -1/(N-1); no winner: all 0."""
    if winner < 0:
        return [0.0] * n
    return [1.0 if p == winner else -1.0 / (n - 1) for p in range(n)]


def rank(keys: list) -> list:
    """Place i (0-based, best first) is worth 1 - 2i/(N-1); tied seats share the mean of their places."""
    n = len(keys)
    order = sorted(range(n), key=lambda p: keys[p], reverse=True)
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and keys[order[j + 1]] == keys[order[i]]:
            j += 1
        val = sum(1 - 2 * m / (n - 1) for m in range(i, j + 1)) / (j - i + 1)
        for m in range(i, j + 1):
            out[order[m]] = val
        i = j + 1
    return out


def _keys(game, s: StrategyState) -> list:
    from .flow import rank_keys

    keys = [tuple(k) for k in (s.ranking or rank_keys(game.rules, s))]
    if s.winner >= 0 and s.vp[s.winner] >= game.rules.victory:  # VICTORY player first
        keys = [((1,) if p == s.winner else (0,)) + keys[p] for p in range(len(keys))]
    return keys


def returns(game, s: StrategyState) -> list:
    n = game.num_players
    mode = game.config["reward_mode"]
    scale = game.config["score_scale"]
    if mode == "score":
        if n == 1:
            return [s.vp[0] / scale]
        tot = sum(s.vp)
        return [(s.vp[p] - (tot - s.vp[p]) / (n - 1)) / scale for p in range(n)]
    if not s.terminal:
        return [0.0] * n
    if n == 1:
        return [1.0 if game.success(s) else -1.0]
    if mode == "win_loss":
        return win_loss(n, s.winner)
    return rank(_keys(game, s))


def outcome(game, s: StrategyState) -> tuple:
    """Per seat WIN / LOSS / DRAW (a shared top place), or SUCCESS / FAILURE in solo."""
    try:
        from ..core.game import Outcome
    except ImportError:  # pragma: no cover - before the core lands
        Outcome = None
    n = game.num_players
    if n == 1:
        res = ["success" if game.success(s) else "failure"]
    elif s.winner >= 0:
        res = ["win" if p == s.winner else "loss" for p in range(n)]
    else:
        keys = _keys(game, s)
        best = max(keys)
        res = ["draw" if keys[p] == best else "loss" for p in range(n)]
    return tuple(Outcome(r) if Outcome is not None else r for r in res)
