"""Shared helpers and action offsets of the hand-built Arena scenarios (tests/arena/test_golden*.py,
tests/arena/test_audit*.py).

Action numbers use the H=3 offsets of docs/monolith_arena.md §6.1: DISCARD 20, PLACE 23 (+slot*114 + hex*6 + rot),
PLAY_ORDER 365, USE_FEATURE 368, UNFOLD 444, END_TURN 445, SELECT_HEX 446, SELECT_ROT 465, SELECT_TRIANGLE 471,
SELECT_MODE 495. Locations of a tile: L_BOARD 2, L_MONO 3, L_DISCARD 4, L_OUT 5.
"""

from __future__ import annotations

import numpy as np

DE, LA, GR, HF = "dragon_empire", "lords_of_the_abyss", "guardians_of_the_realm", "harbingers_of_the_forest"
DISCARD, PLACE, ORDER, FEATURE, UNFOLD, END, HEX, ROT, TRI, MODE = 20, 23, 365, 368, 444, 445, 446, 465, 471, 495
L_BOARD, L_MONO, L_DISCARD, L_OUT = 2, 3, 4, 5


def legal(game, s, lo: int = 0, hi: int | None = None) -> set[int]:
    """Legal action indices in ``[lo, hi)``."""
    m = game.legal_mask(s)
    hi = len(m) if hi is None else hi
    return {int(a) for a in np.flatnonzero(m) if lo <= a < hi}


def legal_hexes(game, s) -> set[int]:
    """The hexes (0-18) a SELECT_HEX action may name now (the game's own offsets)."""
    o = game.off
    return {a - o.HEX for a in legal(game, s, o.HEX, o.HEX + 19)}


def legal_rots(game, s) -> set[int]:
    """The rotations (0-5) a SELECT_ROT action may name now (the game's own offsets)."""
    o = game.off
    return {a - o.ROT for a in legal(game, s, o.ROT, o.ROT + 6)}


def occupied(s) -> set[int]:
    """The hexes holding a tile."""
    return {h for h in range(19) if s.board[h] >= 0}


def tile_id(game, s, h: int) -> str | None:
    """The content id of the tile on hex ``h``, or None when it is empty."""
    i = s.board[h]
    return None if i < 0 else game.tables.id_of[s.itype[i]]


def act(game, s, *actions: int) -> None:
    """Apply ``actions`` in order."""
    for a in actions:
        game.apply(s, a)
