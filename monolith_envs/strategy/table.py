"""One table from decision kind (sub-phase) to its (mask function, apply function)
(docs/monolith_strategy.md §6.2)."""

from __future__ import annotations

from . import decisions
from .state import Kind
from .turn import turn_apply, turn_mask_list

__all__ = ["TABLE"]


TABLE: dict = {int(Kind.TURN): (turn_mask_list, turn_apply)}
for _k, _m in decisions.MASKS.items():
    TABLE[int(_k)] = (_m, decisions.APPLIES[_k])
