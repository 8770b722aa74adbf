"""The action layout of ``monolith_strategy_v0``: 15 named families in the fixed order of
docs/monolith_strategy.md §6.1 (538 actions for K = 29)."""

from __future__ import annotations

from enum import IntEnum

from ..core.actions import ActionLayout
from .board import NSOCK

__all__ = ["build_layout", "Offsets"]


class Bonus(IntEnum):
    """``start_bonus(bonus)``: the argument of the start bonus family (docs §3)."""

    SKILL = 0  # the top Skill card
    GEM = 1  # one gem from the Source


def _face(i: int) -> str:
    return str(i + 1)


def _opponent(i: int) -> str:
    """``choose_opponent(i)`` counts seats from the decider, 1 = the next seat clockwise (docs §6.1 F4)."""
    return str(i + 1)


def build_layout(K: int) -> ActionLayout:
    """The layout for ``K`` action-card kinds (total 451 + 3K)."""
    return ActionLayout(
        [
            ("place", (6, NSOCK), ("face", "sid")),
            ("set_aside", (6,), ("face",)),
            ("end_turn", (), ()),
            ("cast", (K,), ("kind",)),
            ("choose_opponent", (3,), ("i",)),
            ("choose_face", (6,), ("face",)),
            ("choose_socket", (NSOCK,), ("sid",)),
            ("choose_index", (2,), ("j",)),
            ("decline", (), ()),
            ("pay_gems", (), ()),
            ("pay_card", (K,), ("kind",)),
            ("discard", (K,), ("kind",)),
            ("round_side", (2,), ("side",)),
            ("start_bonus", (2,), ("bonus",)),
            ("final_reveal", (7,), ("k",)),
        ],
        labels={"face": _face, "i": _opponent},
    )


class Offsets:
    """First flat index of every family (attribute names in upper case), and ``n``."""

    def __init__(self, layout: ActionLayout):
        for f in layout.families:
            setattr(self, f.name.upper(), f.offset)
        self.n = layout.n
        self.fam_of = []
        for f in layout.families:
            self.fam_of += [(f.name, i) for i in range(f.size)]
