"""Turn flow (docs/monolith_arena.md §4.1): starting a seat's turn (compaction, draw, the last-round
trigger), the next living seat, the bookkeeping at the end of a turn, and the return to MAIN after a choice.

The end of a turn itself (:func:`monolith_envs.arena.battle.end_turn`) lives with the Battle, because it
starts the final Battle once the last round is over.
"""

from __future__ import annotations

from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Loc, Sub

__all__ = ["start_turn", "next_seat", "close_turn", "back_to_main", "clear_pending"]

_ZEROS_SEAT = [0] * PER_SEAT
# the enum values as plain ints (an IntEnum member costs an attribute lookup and a slower comparison)
_L_HAND, _S_DISCARD, _S_MAIN = int(Loc.HAND), int(Sub.DISCARD), int(Sub.MAIN)


def clear_pending(s) -> None:
    """Forget the pending selection (effect, Order, mode and the chosen hexes A, B, C)."""
    s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1


def start_turn(g, s, seat: int) -> None:
    """Begin ``seat``'s turn: reset, compact the hand, draw, then DISCARD or MAIN (docs/monolith_arena.md §4.1 steps 1-3)."""
    H = g.H
    s.turn_seat = s.acting_seat = seat
    s.discarded = s.uses = 0
    s.placed = s.unfolded = s.exception_used = False
    s.tele_rune_used = []
    s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1  # clear_pending
    base = seat * PER_SEAT
    s.used[base:base + PER_SEAT] = _ZEROS_SEAT
    kept = [x for x in s.hand[seat] if x >= 0]
    no_discard = False
    target = H
    if not s.first_turn_done[seat] and not g.reinf:
        if seat == 0:
            target, no_discard = 1, True
        elif seat == 1:
            target, no_discard = 2, True
    held = len(kept)
    deck = s.deck[seat]
    if held < target and deck:
        loc = s.loc
        while len(kept) < target and deck:
            inst = deck.pop()
            loc[inst] = _L_HAND
            kept.append(inst)
        if not deck and not s.last_round:
            s.last_round = True
            s.last_round_owed = [s.alive[p] and p != seat for p in range(g.n)]
    k = len(kept)
    s.hand[seat] = kept + [-1] * (H - k)
    s.fresh[seat] = [False] * held + [True] * (k - held) + [False] * (H - k)
    s.sub_phase = _S_DISCARD if (k == H and not no_discard) else _S_MAIN
    s.mask_cache = None  # dirty_mask


def next_seat(g, s, seat: int) -> int:
    """Next living seat after ``seat`` in turn order."""
    for k in range(1, g.n + 1):
        q = (seat + k) % g.n
        if s.alive[q]:
            return q
    return seat


def close_turn(g, s) -> bool:
    """The bookkeeping of docs/monolith_arena.md §4.1 step 6 for the turn seat; True when the last round is
    over (every owed turn played), so the final Battle starts now."""
    seat = s.turn_seat
    s.last_round_owed[seat] = False
    if s.alive[seat]:
        s.first_turn_done[seat] = True
    s.fresh[seat] = [False] * g.H
    base = seat * PER_SEAT  # "used a Feature this turn" (docs §7.1): the turn is over
    s.used[base:base + PER_SEAT] = _ZEROS_SEAT
    clear_pending(s)
    return s.last_round and not any(s.last_round_owed)


def back_to_main(g, s) -> None:
    """Return to sub-phase MAIN of the turn seat, clearing the pending selection."""
    s.sub_phase = _S_MAIN
    s.acting_seat = s.turn_seat
    s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1  # clear_pending
    s.mask_cache = None  # dirty_mask
