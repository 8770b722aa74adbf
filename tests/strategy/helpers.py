"""Shared helpers of the monolith_strategy tests: positions with forced dice, legal sets, action indexes
(docs/monolith_strategy.md §6.1)."""

from __future__ import annotations

from monolith_envs.strategy import parse_position

try:
    from monolith_envs.core.testing import ScriptedRng
except ImportError:  # pragma: no cover - until the core ships it
    import numpy as np

    class ScriptedRng:  # minimal stand-in: integers and permutation in draw order
        def __init__(self, values):
            self.values = list(values)

        def integers(self, low, high=None, size=None):
            v = self.values.pop(0)
            lo, hi = (0, low) if high is None else (low, high)
            if not lo <= v < hi:
                raise AssertionError(f"scripted {v} outside {lo}..{hi - 1}")
            return v

        def permutation(self, x):
            return np.array(self.values.pop(0))

        @property
        def remaining(self):
            return self.values


PLACE, SET_ASIDE, END_TURN, CAST, OPP, FACE, SOCKET, INDEX = 0, 360, 366, 367, 396, 399, 405, 465
DECLINE, PAY_GEMS, PAY_CARD, DISCARD, SIDE, BONUS, REVEAL = 467, 468, 469, 498, 527, 529, 531


def place(face: int, sid: int) -> int:
    return (face - 1) * 60 + sid


def position(text: str, script=()):
    """``(game, state, rng)``: the position with the engine run forward using the scripted dice."""
    rng = ScriptedRng(list(script))
    g, s = parse_position(text, rng=rng)
    return g, s, rng


def legal(g, s) -> set:
    return set(g.legal_list(s))


def act(g, s, a, script=()):
    rng = ScriptedRng(list(script))
    g.apply(s, a, rng)
    g.check_invariants(s)
    return rng
