"""Turn flow (docs/monolith_arena.md §4.1): starting a seat's turn (compaction, draw, the last-round
trigger), the next living seat, the bookkeeping at the end of a turn, and the return to MAIN after a choice.

The end of a turn itself (:func:`monolith_envs.arena.battle.end_turn`) lives with the Battle, because it
starts the final Battle once the last round is over.
"""

from __future__ import annotations

from .effects import dirty_mask
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Loc, Sub

__all__ = ["start_turn", "next_seat", "close_turn", "back_to_main", "clear_pending"]

_ZEROS_SEAT = [0] * PER_SEAT


def clear_pending(s) -> None:
    """Forget the pending selection (effect, Order, mode and the chosen hexes A, B, C)."""
    s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1


def start_turn(g, s, seat: int) -> None:
    """Begin ``seat``'s turn: reset, compact the hand, draw, then DISCARD or MAIN (docs/monolith_arena.md §4.1 steps 1-3)."""
    H = g.H
    s.turn_seat = seat
    s.acting_seat = seat
    s.discarded = 0
    s.uses = 0
    s.placed = False
    s.unfolded = False
    s.exception_used = False
    s.tele_rune_used = []
    clear_pending(s)
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
    fresh = [False] * len(kept)
    deck = s.deck[seat]
    drew = False
    while len(kept) < target and deck:
        inst = deck.pop()
        s.loc[inst] = int(Loc.HAND)
        kept.append(inst)
        fresh.append(True)
        drew = True
    if drew and not deck and not s.last_round:
        s.last_round = True
        s.last_round_owed = [s.alive[p] and p != seat for p in range(g.n)]
    s.hand[seat] = kept + [-1] * (H - len(kept))
    s.fresh[seat] = fresh + [False] * (H - len(fresh))
    s.sub_phase = int(Sub.DISCARD if (len(kept) == H and not no_discard) else Sub.MAIN)
    dirty_mask(s)


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
    clear_pending(s)
    return s.last_round and not any(s.last_round_owed)


def back_to_main(g, s) -> None:
    """Return to sub-phase MAIN of the turn seat, clearing the pending selection."""
    s.sub_phase = int(Sub.MAIN)
    s.acting_seat = s.turn_seat
    clear_pending(s)
    dirty_mask(s)
