"""Shared helpers of the monolith_strategy tests: positions with forced dice, legal sets, action indexes
(docs/monolith_strategy.md §6.1)."""

from __future__ import annotations

from monolith_envs.core.testing import ScriptedRng
from monolith_envs.strategy import parse_position

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
