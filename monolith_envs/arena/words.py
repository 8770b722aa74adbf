"""Monolith Arena's actions in words, as terminal play, browser play, the replay page and the drawing's
"Last:" line say them (``places Knight on hex 07 facing NE``; docs/monolith_arena.md §6.1, the action families).
"""

from __future__ import annotations

from typing import Any

from .board import DIR_NAMES
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff, Sub

__all__ = ["SUB_WORDS", "action_words", "effect_name", "last_move_words", "mode_words", "move_context", "option_name",
           "sub_words", "tile_words"]

#: each sub-phase in a few words that suit any viewer (the drawing's caption, terminal play's status line);
#: what the acting seat is asked is ``table.SUB_ASKS`` (docs §6.2)
SUB_WORDS = {
    Sub.SETUP_PICK: "setup: picking Monolith tiles", Sub.SETUP_BANNER: "setup: placing the Banners",
    Sub.DISCARD: "discarding", Sub.MAIN: "main", Sub.ORDER_MODE: "an Order: choosing its option",
    Sub.CHARGE_TILE: "Charge: choosing the charger", Sub.CHARGE_DEST: "Charge: choosing where it goes",
    Sub.CHARGE_FACING: "Charge: choosing its facing", Sub.MOVE_TILE: "Move: choosing the tile",
    Sub.MOVE_DEST: "Move: choosing where it goes", Sub.MOVE_FACING: "Move: choosing its facing",
    Sub.PUSH_TARGET: "Push Back: choosing the enemy tile", Sub.PUSH_PUSHER: "Push Back: choosing the pusher",
    Sub.PUSH_DEST: "Push Back: choosing where it goes", Sub.NET_TARGET: "Net: choosing the enemy tile",
    Sub.WOUND_TARGET: "an Order: choosing the tile it wounds", Sub.AREA_TARGET: "an Order: choosing the triangle",
    Sub.ENTRENCH_TARGET: "Entrench: choosing the tile", Sub.ROTATE_TARGET: "Rotate: choosing the tile",
    Sub.ROTATE_FACING: "Rotate: choosing its facing", Sub.FEATURE_DEST: "a Feature: choosing where the tile goes",
    Sub.FEATURE_FACING: "a Feature: choosing the tile's facing", Sub.SWAP_TARGET: "Swap: choosing the Champion",
    Sub.UNFOLD_SEG2: "unfolding: the second segment", Sub.UNFOLD_SEG3: "unfolding: the third segment",
    Sub.UNFOLD_FACING: "unfolding: the tile's facing", Sub.ASSASSIN_TARGET: "the Assassin: choosing the target",
    Sub.GAME_OVER: "game over",
}

# SELECT_HEX in words by the sub-phase it is played in (then ``hex NN`` and the tile on it)
_HEX_DONE = {
    Sub.SETUP_BANNER: "places its Banner on ", Sub.CHARGE_TILE: "charges with ", Sub.CHARGE_DEST: "charges to ",
    Sub.MOVE_TILE: "picks the tile to move: ", Sub.MOVE_DEST: "moves it to ", Sub.PUSH_TARGET: "pushes back ",
    Sub.PUSH_PUSHER: "pushes with ", Sub.PUSH_DEST: "pushes it to ", Sub.NET_TARGET: "nets ",
    Sub.WOUND_TARGET: "wounds ", Sub.ENTRENCH_TARGET: "entrenches ", Sub.ROTATE_TARGET: "picks the tile to rotate: ",
    Sub.FEATURE_DEST: "moves the tile to ", Sub.SWAP_TARGET: "swaps with ",
    Sub.UNFOLD_SEG2: "unfolds the Monolith's second segment onto ",
    Sub.UNFOLD_SEG3: "unfolds the Monolith's third segment onto ", Sub.ASSASSIN_TARGET: "has the Assassin strike ",
}
# SELECT_HEX that ends a step begun on another hex (``state.p_a``), in words by its sub-phase: {a} that hex
# and {h} the one chosen, each with the tile on it (``a``, ``h``)
_HEX_FROM = {
    Sub.CHARGE_DEST: "charges with the tile on {a} to {h}", Sub.PUSH_DEST: "pushes the tile on {a} back to {h}",
    Sub.SWAP_TARGET: "swaps the tile on {a} with {h}",
}
# SELECT_ROT in words by its sub-phase (then the direction)
_ROT_DONE = {
    Sub.CHARGE_FACING: "turns the charger to face ", Sub.MOVE_FACING: "turns the moved tile to face ",
    Sub.ROTATE_FACING: "turns the tile to face ", Sub.FEATURE_FACING: "turns the tile to face ",
    Sub.UNFOLD_FACING: "turns the unfolded tile to face ",
}


def sub_words(sub_phase: int) -> str:
    """Sub-phase ``sub_phase`` in a few words (:data:`SUB_WORDS`; its number for one that is not a ``Sub``)."""
    try:
        return SUB_WORDS[Sub(sub_phase)]
    except ValueError:
        return f"sub-phase {sub_phase}"


def mode_words(game: Any, state: Any, k: int) -> str:
    """Option ``k`` of the Order being played (``SELECT_MODE``) by its effect, e.g. ``Battle`` or ``Charge``
    (``option k+1`` when there is no such option)."""
    return option_name(game.tables, state, k) or f"option {k + 1}"


def option_name(tb: Any, state: Any, k: int) -> str | None:
    """Option ``k`` of the Order being played by its effect (:func:`effect_name`), or ``None`` when no Order
    is being played or it has no option ``k``."""
    if state is not None and state.p_order >= 0:
        options = getattr(tb.order[state.itype[state.p_order]], "options", None) or ()
        if 0 <= k < len(options):
            return effect_name(tb, options[k])
    return None


def effect_name(tb: Any, effect: Any) -> str:
    """An Order option by the name of the Order that has the same effect (``Push Back``, ``Fire Concoction``:
    False Order acts as one of them, D55), else by its effect in title case (``Charge``)."""
    for t, order in enumerate(tb.order):
        if order == effect:
            return tb.name_of[t]
    return effect.effect.replace("_", " ").title()


def tile_words(tb: Any, state: Any, i: int) -> str:
    """``P1 Knight``: tile instance ``i`` by its owner and name."""
    return f"P{i // PER_SEAT} {tb.name_of[state.itype[i]]}"


def action_words(game: Any, state: Any | None, action: int) -> str:
    """``action`` in words (no seat: ``places Knight on hex 07 facing NE``).

    Args:
        game: an ``ArenaGame``.
        state: the state the action is applied in, for the names of the tiles it moves; ``None`` says it
            without them (``places the tile of slot 2 on hex 07 facing NE``), e.g. from the state after it.
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
    sub = Sub(state.sub_phase) if state is not None and state.sub_phase in Sub._value2member_map_ else None
    if fam == "SELECT_HEX":
        h = idx[0]
        a = state.p_a if state is not None and 0 <= state.p_a < len(state.board) else -1
        if sub in (Sub.MOVE_DEST, Sub.FEATURE_DEST) and a >= 0 and state.board[a] >= 0:  # moves, or stays
            if h == a:  # it stays: a new facing follows (any one after a Teleport)
                turns = " and only turns it" if state.p_effect != Eff.TELEPORT else ""
                return f"keeps the tile on hex {h:02d}{on(h)}{turns}"
            return f"moves the tile on hex {a:02d}{on(a)} to hex {h:02d}" + on(h)
        if sub == Sub.ASSASSIN_TARGET and a >= 0:  # two Assassins: which one strikes
            return f"strikes hex {h:02d}{on(h)} with the Assassin on hex {a:02d}"
        if sub in _HEX_FROM and a >= 0 and state.board[a] >= 0:  # the tile chosen before: which one goes
            return _HEX_FROM[sub].format(a=f"hex {a:02d}{on(a)}", h=f"hex {h:02d}{on(h)}")
        return f"{_HEX_DONE.get(sub, 'selects ')}hex {h:02d}" + on(h)
    if fam == "USE_FEATURE":
        kind, h = idx
        feature = game.layout.decode(int(action)).split("=")[1].split(",")[0]
        return f"uses {feature} on hex {h:02d}" + on(h)
    if fam == "SELECT_ROT":
        return f"{_ROT_DONE.get(sub, 'chooses the facing ')}{DIR_NAMES[idx[0]]}"
    if fam == "SELECT_TRIANGLE":
        label = game.layout.decode(int(action)).split("=", 1)[1].rstrip(")")  # 10(5,9,10
        number, _, hexes = label.partition("(")
        return f"selects triangle {number} (hexes " + ", ".join(f"{int(h):02d}" for h in hexes.split(",")) + ")"
    if fam == "SELECT_MODE":
        return f"chooses {mode_words(game, state, idx[0])}"
    return game.layout.decode(int(action)).lower()


def move_context(state: Any) -> tuple:
    """What :func:`last_move_words` needs to know of the state a move is
    played in, and cannot read in the state after it: the sub-phase, the
    pending hexes, effect and Order, the board (the tile an Assassin struck
    may be gone) and the acting seat's hand (a tile placed on the last empty
    hex is gone after the Battle that follows). Cheap enough for every
    ``apply`` (about 0.13 µs); the engine keeps it as ``state.last_move[2]``.
    """
    s = state
    return (s.sub_phase, s.p_a, s.p_b, s.p_c, s.p_effect, s.p_order,
            tuple(s.board), tuple(s.hand[s.acting_seat]))


class _Before:
    """The state a move was played in, as far as :func:`move_context` kept
    it, the rest read from the state after it (tile types and factions never
    change)."""

    def __init__(self, after: Any, seat: int, context: tuple) -> None:
        self._after, self.acting_seat = after, seat
        (self.sub_phase, self.p_a, self.p_b, self.p_c, self.p_effect,
         self.p_order, board, hand) = context
        self.board = list(board)
        self.hand = [list(h) for h in after.hand]
        self.hand[seat] = list(hand)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._after, name)


def last_move_words(game: Any, state: Any, seat: int, action: int, context: tuple | None = None) -> str:
    """The last move (``state.last_move``) in words, said from the state *after* it (the drawing's "Last:"
    line). With the ``context`` of the state it was played in (:func:`move_context`), as terminal play says
    it (:func:`action_words`: ``strikes hex 11 (P1 Knight) with the Assassin on hex 13``); without, as
    :func:`action_words` says it without a state (``selects hex 11``). Either way a placed tile still on its
    hex is named (``places Axeman on hex 00 facing NE``), as are a discarded tile and a played Order (from the
    discard pile: ``discards Spark``); with the context also a placed tile that the Battle it
    started (the board was full) removed, from the hand it was played from.

    Args:
        game: an ``ArenaGame``; state: the state after the move; seat: the seat that made it; action: the
            action index; context: :func:`move_context` of the state before it, or ``None``.

    Raises:
        ValueError: ``action`` is outside the layout.
    """
    fam, idx = game.layout.split(int(action))
    tb = game.tables
    if fam == "PLACE":
        i = state.board[idx[1]]
        if i >= 0 and i // PER_SEAT == seat:
            return f"places {tb.name_of[state.itype[i]]} on hex {idx[1]:02d} facing {DIR_NAMES[idx[2]]}"
    if fam in ("DISCARD", "PLAY_ORDER") and 0 <= seat < len(state.discard):
        # the discarded tile tops the seat's discard pile; a played Order is its newest Order there (a Battle
        # it starts can bury it under the seat's removed tiles, never under another Order)
        pile = [i for i in state.discard[seat] if fam == "DISCARD" or tb.order[state.itype[i]] is not None]
        if pile:
            name = tb.name_of[state.itype[pile[-1]]]
            return f"discards {name}" if fam == "DISCARD" else f"plays the order {name}"
    if context is not None:  # the hand before names a placed tile the Battle that followed removed
        before = _Before(state, seat, context)
        whole = fam == "SELECT_ROT" and _whole_move(game, before, idx[0])
        return whole or action_words(game, before, action)
    return action_words(game, None, action)


def _whole_move(game: Any, before: Any, rot: int) -> str:
    """The facing that ends a move, charge or rotation, said with the move (the drawing has no line for the
    step before it): ``moves the tile on hex 05 (P0 Herne) to hex 01 facing E``; ``""`` for another one."""
    sub, a, b, n = before.sub_phase, before.p_a, before.p_b, len(before.board)
    if not 0 <= a < n or before.board[a] < 0:
        return ""
    tile = f"the tile on hex {a:02d} ({tile_words(game.tables, before, before.board[a])})"
    if sub in (Sub.MOVE_FACING, Sub.FEATURE_FACING, Sub.CHARGE_FACING) and 0 <= b < n and b != a:
        verb = "charges with" if sub == Sub.CHARGE_FACING else "moves"
        return f"{verb} {tile} to hex {b:02d} facing {DIR_NAMES[rot]}"
    if sub in (Sub.MOVE_FACING, Sub.FEATURE_FACING, Sub.ROTATE_FACING):  # it stays on its hex
        return f"turns {tile} to face {DIR_NAMES[rot]}"
    return ""
