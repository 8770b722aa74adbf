"""The plain-data state of one Monolith Arena match (docs/monolith_arena.md §2.5).

Everything is a Python ``int``/``bool``/``float`` or a (nested) ``list`` of them, so
:mod:`monolith_envs.core.state` can compare and serialise it, and :func:`fast_clone` can copy it quickly.
Instance ids: seat ``p``'s instance ``i`` (0..34) is ``p * INSTANCES_PER_SEAT + i``; instance 0 of a seat is
its Banner.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from ..core.state import state_class, transient, transient_fields

__all__ = ["INSTANCES_PER_SEAT", "Loc", "Sub", "Eff", "Trigger", "BattleStage", "ArenaState", "fast_clone"]

#: tile instances per seat: instance ``p * INSTANCES_PER_SEAT + k`` is seat ``p``'s k-th (k = 0: its Banner)
INSTANCES_PER_SEAT = 35


class Loc(IntEnum):
    """Location of a tile instance (docs/monolith_arena.md §2.2)."""

    DECK = 0
    HAND = 1
    BOARD = 2
    MONOLITH = 3
    DISCARD = 4
    OUT = 5
    SETUP = 6  # not dealt yet (a Banner before SETUP_BANNER)


class Sub(IntEnum):
    """Sub-phases, numbered as in docs/monolith_arena.md §6.2."""

    SETUP_PICK = 0
    SETUP_BANNER = 1
    DISCARD = 2
    MAIN = 3
    ORDER_MODE = 4
    CHARGE_TILE = 5
    CHARGE_DEST = 6
    CHARGE_FACING = 7
    MOVE_TILE = 8
    MOVE_DEST = 9
    MOVE_FACING = 10
    PUSH_TARGET = 11
    PUSH_PUSHER = 12
    PUSH_DEST = 13
    NET_TARGET = 14
    WOUND_TARGET = 15
    AREA_TARGET = 16
    ENTRENCH_TARGET = 17
    ROTATE_TARGET = 18
    ROTATE_FACING = 19
    FEATURE_DEST = 20
    FEATURE_FACING = 21
    SWAP_TARGET = 22
    UNFOLD_SEG2 = 23
    UNFOLD_SEG3 = 24
    UNFOLD_FACING = 25
    ASSASSIN_TARGET = 26
    GAME_OVER = 27


class Eff(IntEnum):
    """Pending effect kinds (the order of the observation's one-hot, docs/monolith_arena.md §7)."""

    BATTLE = 0
    CHARGE = 1
    MOVE = 2
    PUSH_BACK = 3
    NET_MARK = 4
    WOUND_TARGET = 5
    WOUND_AREA = 6
    ENTRENCH = 7
    ROTATE_TARGET = 8
    CHOICE = 9
    MANEUVER = 10
    TELEPORT = 11
    SWAP = 12
    ROTATE = 13
    UNFOLD = 14
    STRIKE = 15


class Trigger(IntEnum):
    """What started a Battle (``b_trigger``, docs/monolith_arena.md §4.7)."""

    ORDER = 0  # a Battle Order
    BOARD_FULL = 1
    FINAL = 2  # after the last round


class BattleStage(IntEnum):
    """Resume point of a running Battle (``b_stage``, docs/monolith_arena.md §4.7)."""

    START = 0  # state check, kill step, highest initiative
    PHASES = 1  # the initiative phases, highest first
    POISON = 2  # the poison step
    END = 3  # end of the Battle (folding, continuation)


@state_class
@dataclass
class ArenaState:
    """Complete state of a match (docs/monolith_arena.md §2.5). ``n`` = seats,
    ``NI = INSTANCES_PER_SEAT * n`` instances, ``H`` = hand slots.

    Per instance (lists of length NI): ``itype`` global type id, ``loc`` (:class:`Loc` value), ``hexof``
    (-1 off board), ``facing`` 0-5, ``wounds``, ``poison`` markers, ``used`` Feature bits this turn
    (1 maneuver, 2 teleport, 4 swap, 8 rotate).  ``board[19]``: instance id or -1.
    ``deck[p]``: top = last element.  ``hand[p][H]``/``fresh[p][H]``.  ``hp[p]`` (duel/ffa) and
    ``pool[2]`` (teams).  Monolith (module): ``mono_folded[p]``, ``seg_hex[p][3]`` (segment 1..3 hexes,
    -1 before the Banner is placed or after elimination), ``seg_content[p][2]`` (segments 2, 3: instance or
    -1), ``seg_revealed[p][2]``.  Battle bookkeeping: ``b_*`` (stage 0 start, 1 phases, 2 poison, 3 end).

    Transient fields (:func:`monolith_envs.core.state.transient`: clones, equality and serialisation
    ignore them): ``fx_cache`` the continuous effects of the position, ``mask_cache`` the legal mask,
    ``deck_counts`` the observation's per-deck type counts.  Code that edits a state by hand must call
    :func:`monolith_envs.core.state.clear_transient` afterwards (the helpers of
    :mod:`monolith_envs.arena.positions` do).
    """

    num_players: int
    hand_size: int
    factions: list = field(default_factory=list)
    itype: list = field(default_factory=list)
    loc: list = field(default_factory=list)
    hexof: list = field(default_factory=list)
    facing: list = field(default_factory=list)
    wounds: list = field(default_factory=list)
    poison: list = field(default_factory=list)
    used: list = field(default_factory=list)
    board: list = field(default_factory=lambda: [-1] * 19)
    deck: list = field(default_factory=list)
    hand: list = field(default_factory=list)
    fresh: list = field(default_factory=list)
    discard: list = field(default_factory=list)
    hp: list = field(default_factory=list)
    pool: list = field(default_factory=lambda: [0, 0])
    alive: list = field(default_factory=list)
    elim_order: list = field(default_factory=list)
    elim_count: int = 0
    mono_folded: list = field(default_factory=list)
    seg_hex: list = field(default_factory=list)
    seg_content: list = field(default_factory=list)
    seg_revealed: list = field(default_factory=list)
    poison_supply: int = 5
    net_marker_on: int = -1
    entrench_on: int = -1
    turn_seat: int = 0
    first_turn_done: list = field(default_factory=list)
    sub_phase: int = int(Sub.SETUP_BANNER)
    acting_seat: int = 0
    discarded: int = 0
    uses: int = 0
    placed: bool = False
    unfolded: bool = False
    exception_used: bool = False
    tele_rune_used: list = field(default_factory=list)
    last_round: bool = False
    last_round_owed: list = field(default_factory=list)
    p_effect: int = -1
    p_order: int = -1
    p_mode: int = -1
    p_a: int = -1
    p_b: int = -1
    p_c: int = -1
    unfold_queue: list = field(default_factory=list)
    b_active: bool = False
    b_trigger: int = -1
    b_phase: int = -1
    b_stage: int = 0
    b_acts: list = field(default_factory=list)
    b_strikes: list = field(default_factory=list)
    b_targets: list = field(default_factory=list)
    decisions: int = 0
    terminal: bool = False
    winners: list = field(default_factory=list)
    cum_reward: list = field(default_factory=list)
    fx_cache: Any = transient()
    mask_cache: Any = transient()
    deck_counts: Any = transient()
    last_move: Any = transient()  # (seat, action, words.move_context before it) of the last apply: the picture's Last: line


_FIELDS = tuple(f.name for f in dataclasses.fields(ArenaState) if f.name not in transient_fields(ArenaState))
_NESTED = frozenset({"deck", "hand", "fresh", "discard", "seg_hex", "seg_content", "seg_revealed"})


def _clone_source() -> str:
    """Source of :func:`fast_clone`: one assignment per persistent field (lists of lists copied two deep,
    flat lists once, scalars shared), so a clone costs one attribute read and write per field."""
    lines = ["def fast_clone(s):", "    new = _new(ArenaState)"]
    for f in dataclasses.fields(ArenaState):
        name = f.name
        if name not in _FIELDS:
            continue
        if name in _NESTED:
            lines.append(f"    new.{name} = [list(x) for x in s.{name}]")
        elif f.type == "list":
            lines.append(f"    new.{name} = list(s.{name})")
        else:
            lines.append(f"    new.{name} = s.{name}")
    lines.append("    return new")
    return "\n".join(lines)


_ns: dict = {"_new": object.__new__, "ArenaState": ArenaState}
exec(_clone_source(), _ns)  # noqa: S102 (generated from the dataclass fields above)
fast_clone = _ns["fast_clone"]
fast_clone.__doc__ = "Exact independent copy of an ArenaState; its transient fields are None (caches not copied)."
fast_clone.__module__ = __name__
