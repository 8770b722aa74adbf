"""Monolith Arena's actions in words, as terminal play, browser play, the replay page and the drawing's
"Last:" line say them (``places Knight on hex 07 facing NE``; docs/monolith_arena.md §6.1, the action families).
"""

from __future__ import annotations

from typing import Any

from .board import DIR_NAMES
from .state import INSTANCES_PER_SEAT as PER_SEAT

__all__ = ["action_words", "last_move_words", "tile_words"]


def tile_words(tb: Any, state: Any, i: int) -> str:
    """``P1 Knight``: tile instance ``i`` by its owner and name."""
    return f"P{i // PER_SEAT} {tb.name_of[state.itype[i]]}"


def action_words(game: Any, state: Any | None, action: int) -> str:
    """``action`` in words (no seat: ``places Knight on hex 07 facing NE``).

    Args:
        game: an ``ArenaGame``.
        state: the state the action is applied in, for the names of the tiles it moves; ``None`` says it
            without them (``places a tile from slot 2 on hex 07 facing NE``), e.g. from the state after it.
        action: an action index (``int``, 0 <= action < ``game.layout.n``).

    Raises:
        ValueError: ``action`` is outside the layout (``ActionLayout.split``).
    """
    fam, idx = game.layout.split(int(action))
    tb = game.tables
    seat = state.acting_seat if state is not None else -1

    def held(slot: int) -> str | None:
        i = state.hand[seat][slot] if state is not None else -1
        return tb.name_of[state.itype[i]] if i >= 0 else None

    def on(h: int) -> str:
        i = state.board[h] if state is not None else -1
        return f" ({tile_words(tb, state, i)})" if i >= 0 else ""

    if fam == "PLACE":
        slot, h, rot = idx
        return f"places {held(slot) or f'the tile of slot {slot + 1}'} on hex {h:02d} facing {DIR_NAMES[rot]}"
    if fam == "DISCARD":
        name = held(idx[0])
        return f"discards {name}" if name else f"discards the tile of slot {idx[0] + 1}"
    if fam == "PLAY_ORDER":
        name = held(idx[0])
        return f"plays the order {name}" if name else f"plays the order of slot {idx[0] + 1}"
    if fam == "PICK_TYPE":
        t = tb.fac_offset[state.factions[seat]] + idx[0] if state is not None else -1
        return f"picks {tb.name_of[t]}" if 0 <= t < len(tb.name_of) else f"picks tile type {idx[0]}"
    if fam == "END_TURN":
        return "ends the turn"
    if fam == "UNFOLD":
        return "unfolds the Monolith"
    if fam == "SELECT_HEX":
        return f"selects hex {idx[0]:02d}" + on(idx[0])
    if fam == "USE_FEATURE":
        kind, h = idx
        feature = game.layout.decode(int(action)).split("=")[1].split(",")[0]
        return f"uses {feature} on hex {h:02d}" + on(h)
    if fam == "SELECT_ROT":
        return f"turns it to face {DIR_NAMES[idx[0]]}"
    if fam == "SELECT_TRIANGLE":
        label = game.layout.decode(int(action)).split("=", 1)[1].rstrip(")")  # 10(5,9,10
        number, _, hexes = label.partition("(")
        return f"selects triangle {number} (hexes " + ", ".join(f"{int(h):02d}" for h in hexes.split(",")) + ")"
    if fam == "SELECT_MODE":
        return f"chooses mode {idx[0]}"
    return game.layout.decode(int(action)).lower()


def last_move_words(game: Any, state: Any, seat: int, action: int) -> str:
    """The last move (``state.last_move``) in words, said from the state *after* it (the drawing's "Last:"
    line): as :func:`action_words` without a state, except that a placed tile still on its hex is named
    (``places Axeman on hex 00 facing NE``).

    Args:
        game: an ``ArenaGame``; state: the state after the move; seat: the seat that made it; action: the
            action index.

    Raises:
        ValueError: ``action`` is outside the layout.
    """
    fam, idx = game.layout.split(int(action))
    if fam == "PLACE":
        i = state.board[idx[1]]
        if i >= 0 and i // PER_SEAT == seat:
            return f"places {game.tables.name_of[state.itype[i]]} on hex {idx[1]:02d} facing {DIR_NAMES[idx[2]]}"
    return action_words(game, None, action)
