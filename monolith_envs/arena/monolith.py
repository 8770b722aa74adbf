"""The Monolith module (docs/monolith_arena.md §4.10): unfolding a seat's folded Monolith onto two free
hexes (choosing segment 2, segment 3, then the facings of its contents, other seats' tiles first), the
exception placement onto an own empty segment, and the end of an unfold.  Folding happens at the end of a
Battle (:func:`monolith_envs.arena.battle.fold_monoliths`); the hidden picks are made in the setup
(:mod:`monolith_envs.arena.setup_game`).
"""

from __future__ import annotations

from .battle import start_battle
from .board import NUM_HEXES
from .effects import dirty, dirty_mask, get_fx, memo_unfold
from .relocation import conn3, settle
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff, Loc, Sub, Trigger

__all__ = ["UNFOLD_PAIRS", "unfold_pairs", "can_unfold", "exception_hexes", "start_unfold", "seg2_hexes",
           "seg3_hexes", "choose_seg2", "choose_seg3", "land_monolith", "choose_unfold_facing", "finish_unfold"]

# UNFOLD_PAIRS[B]: every (h2, h3), h2 != h3, in ascending order, with conn3(B, h2, h3)
UNFOLD_PAIRS = tuple(tuple((a, b) for a in range(NUM_HEXES) for b in range(NUM_HEXES) if a != b and conn3(B, a, b))
                     for B in range(NUM_HEXES))


def unfold_pairs(g, s, fx, seat):
    """Valid ``(h2, h3)`` for unfolding ``seat``'s Monolith (docs/monolith_arena.md §4.10)."""
    board, segowner = s.board, fx.segowner
    free = [board[h] < 0 and segowner[h] < 0 for h in range(NUM_HEXES)]
    return [(a, b) for a, b in UNFOLD_PAIRS[s.hexof[seat * PER_SEAT]] if free[a] and free[b]]


def can_unfold(g, s, fx, seat) -> bool:
    """All UNFOLD conditions of docs/monolith_arena.md §4.10 for ``seat``."""
    if not (g.module and s.mono_folded[seat] and not s.unfolded and s.discarded > 0 and not s.placed
            and s.seg_hex[seat][0] >= 0):
        return False
    key = memo_unfold(seat)  # whether a pair exists depends on the position only (fx.memo)
    ok = fx.memo.get(key)
    if ok is None:
        board, segowner = s.board, fx.segowner
        free = [board[h] < 0 and segowner[h] < 0 for h in range(NUM_HEXES)]
        ok = False
        for a, b in UNFOLD_PAIRS[s.hexof[seat * PER_SEAT]]:  # (a loop: cheaper than any() of a generator)
            if free[a] and free[b]:
                ok = True
                break
        fx.memo[key] = ok
    return ok


def exception_hexes(g, s, fx, seat):
    """Hexes of own empty Monolith segments available to the exception placement (D26)."""
    if not g.module or s.mono_folded[seat] or s.exception_used:
        return []
    return [s.seg_hex[seat][k + 1] for k in (0, 1)
            if s.seg_content[seat][k] < 0 and s.board[s.seg_hex[seat][k + 1]] < 0]


def start_unfold(g, s) -> None:
    """UNFOLD: the turn seat starts unfolding its Monolith (segment 2's hex is chosen next)."""
    s.p_effect = int(Eff.UNFOLD)
    s.sub_phase = int(Sub.UNFOLD_SEG2)
    dirty_mask(s)


def seg2_hexes(g, s, seat: int) -> list:
    """UNFOLD_SEG2 options: the hexes that begin a valid pair."""
    return sorted({a for a, b in unfold_pairs(g, s, get_fx(g, s), seat)})


def seg3_hexes(g, s, seat: int) -> list:
    """UNFOLD_SEG3 options: the hexes that complete a valid pair with the chosen segment 2 (hex A)."""
    return [b for a, b in unfold_pairs(g, s, get_fx(g, s), seat) if a == s.p_a]


def choose_seg2(g, s, x: int) -> None:
    """UNFOLD_SEG2: segment 2 goes to ``x``."""
    s.p_a = x
    s.sub_phase = int(Sub.UNFOLD_SEG3)
    dirty_mask(s)


def choose_seg3(g, s, x: int) -> None:
    """UNFOLD_SEG3: segment 3 goes to ``x``; the Monolith lands."""
    s.p_b = x
    land_monolith(g, s, s.acting_seat, s.p_a, x)


def land_monolith(g, s, seat: int, h2: int, h3: int) -> None:
    """Unfold ``seat``'s Monolith onto ``h2``/``h3`` (docs/monolith_arena.md §4.10 steps 1-4)."""
    s.unfolded = True
    B = s.hexof[seat * PER_SEAT]
    s.seg_hex[seat] = [B, h2, h3]
    s.mono_folded[seat] = False
    others, own = [], []
    for k, h in ((0, h2), (1, h3)):
        c = s.seg_content[seat][k]
        if c >= 0:
            s.board[h] = c
            s.hexof[c] = h
            s.loc[c] = int(Loc.BOARD)
            s.seg_revealed[seat][k] = True
            (own if c // PER_SEAT == seat else others).append(c)
    s.unfold_queue = others + own
    dirty(s)
    if s.unfold_queue:
        s.sub_phase = int(Sub.UNFOLD_FACING)
        s.acting_seat = s.unfold_queue[0] // PER_SEAT
    else:
        finish_unfold(g, s)


def choose_unfold_facing(g, s, f: int) -> None:
    """UNFOLD_FACING: the first content in the queue faces ``f``; the next content's owner chooses next."""
    i = s.unfold_queue.pop(0)
    s.facing[i] = f
    if s.unfold_queue:
        s.acting_seat = s.unfold_queue[0] // PER_SEAT
        dirty(s)
    else:
        finish_unfold(g, s)


def finish_unfold(g, s) -> None:
    """Docs/monolith_arena.md §4.10 step 5: effects, state check, board-full check."""
    s.acting_seat = s.turn_seat
    s.sub_phase = int(Sub.MAIN)
    s.p_effect = s.p_a = s.p_b = -1
    dirty(s)
    settle(g, s)
    if min(s.board) >= 0:  # board full
        start_battle(g, s, Trigger.BOARD_FULL)
