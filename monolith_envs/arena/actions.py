"""The flat action layout of Monolith Arena (docs/monolith_arena.md §6.1): 500 actions with H=3, 848 with H=6.

Families, in this fixed order: PICK_TYPE[20], DISCARD[H], PLACE[H][19][6], PLAY_ORDER[H],
USE_FEATURE[4][19], UNFOLD, END_TURN, SELECT_HEX[19], SELECT_ROT[6], SELECT_TRIANGLE[24], SELECT_MODE[5].
"""

from __future__ import annotations

from functools import lru_cache

from ..core.actions import ActionLayout
from .board import DIR_NAMES, NUM_HEXES, TRIANGLES

__all__ = ["FEATURE_KINDS", "build_layout", "Offsets"]

FEATURE_KINDS = ("maneuver", "teleport", "swap", "rotate")


@lru_cache(maxsize=None)
def build_layout(hand_size: int) -> ActionLayout:
    """The :class:`ActionLayout` for hand size ``hand_size`` (3, or 6 in the reinforcement variant)."""
    H = hand_size
    fams = [
        ("PICK_TYPE", (20,), ("local",)),
        ("DISCARD", (H,), ("slot",)),
        ("PLACE", (H, 19, 6), ("slot", "hex", "rot")),
        ("PLAY_ORDER", (H,), ("slot",)),
        ("USE_FEATURE", (4, 19), ("feature", "hex")),
        ("UNFOLD", (), ()),
        ("END_TURN", (), ()),
        ("SELECT_HEX", (19,), ("hex",)),
        ("SELECT_ROT", (6,), ("facing",)),
        ("SELECT_TRIANGLE", (24,), ("triangle",)),
        ("SELECT_MODE", (5,), ("mode",)),
    ]
    labels = {"feature": _feature_label, "triangle": _triangle_label, "facing": _facing_label}
    return ActionLayout(fams, labels=labels)


# Labels of the axis values in action names (module functions, so that a layout, and a game, can be pickled)
def _feature_label(i: int) -> str:
    return FEATURE_KINDS[i]


def _triangle_label(i: int) -> str:
    return f"{i}{TRIANGLES[i]}".replace(" ", "")


def _facing_label(i: int) -> str:
    return f"{i}({DIR_NAMES[i]})"


class Offsets:
    """Flat offsets of each family for one hand size (plain ints for fast arithmetic)."""

    def __init__(self, hand_size: int):
        lay = build_layout(hand_size)
        self.H = hand_size
        self.n = lay.n
        self.PICK = lay.offset("PICK_TYPE")
        self.DISCARD = lay.offset("DISCARD")
        self.PLACE = lay.offset("PLACE")
        self.PLACE_SLOT = NUM_HEXES * 6  # PLACE actions per hand slot (hex, facing)
        self.ORDER = lay.offset("PLAY_ORDER")
        self.FEATURE = lay.offset("USE_FEATURE")
        self.UNFOLD = lay.offset("UNFOLD")
        self.END = lay.offset("END_TURN")
        self.HEX = lay.offset("SELECT_HEX")
        self.ROT = lay.offset("SELECT_ROT")
        self.TRI = lay.offset("SELECT_TRIANGLE")
        self.MODE = lay.offset("SELECT_MODE")
