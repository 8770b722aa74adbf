"""One table from decision kind (sub-phase) to its (mask function, apply function)
(docs/monolith_strategy.md §6.2)."""

from __future__ import annotations

from . import decisions
from .state import Kind
from .turn import turn_apply, turn_mask_list

__all__ = ["TABLE"]


def _turn_mask(R, s, pd):
    return turn_mask_list(R, s)


def _turn_apply(R, s, pd, a, rng):
    turn_apply(R, s, a, rng)


TABLE: dict = {int(Kind.TURN): (_turn_mask, _turn_apply)}
for _k, _m in decisions.MASKS.items():
    TABLE[int(_k)] = (_m, decisions.APPLIES[_k])
