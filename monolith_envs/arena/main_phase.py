"""The decisions of sub-phase MAIN and the forced DISCARD (docs/monolith_arena.md §4.1 steps 3-5, §4.2-§4.4,
§4.10, §6.2): discard a hand tile, place a Champion or Rune, play an Order, use a Feature, unfold the
Monolith, or end the turn.  :func:`mask_main` builds the MAIN row of the legal mask from pieces memoised on
the position's effects; :func:`apply_main` decodes one MAIN action and hands it to its rule.
"""

from __future__ import annotations

from .battle import end_turn
from .board import NUM_HEXES
from .context import cap
from .effects import MEMO_PLACE, get_fx, memo_order, place_row
from .features import mask_features, use_feature
from .monolith import can_unfold, start_unfold
from .order_steps import mask_place, place_tile, play_order
from .orders import effect_legal
from .state import Loc, Sub
from .tables import Kind

__all__ = ["mask_main", "mask_discard", "apply_main", "discard"]

_CHAMPION, _RUNE, _ORDER = int(Kind.CHAMPION), int(Kind.RUNE), int(Kind.ORDER)
_L_DISCARD, _S_DISCARD, _S_MAIN = int(Loc.DISCARD), int(Sub.DISCARD), int(Sub.MAIN)


def mask_main(g, s, m: bytearray) -> None:
    """Set the legal MAIN actions of the acting seat in ``m`` (docs/monolith_arena.md §4.1 step 4, §6.2)."""
    o = g.off
    tb = g.tables
    seat = s.acting_seat
    fx = s.fx_cache
    if fx is None:
        fx = get_fx(g, s)
    memo = fx.memo  # pieces that depend on the position only (keys: see effects.MEMO_PLACE)
    m[o.END] = 1
    can_use = not g.reinf or s.uses < cap(g, s)  # (the cap only binds in the variant)
    discard0, order0 = o.DISCARD, o.ORDER
    kind, itype = tb.kind, s.itype
    place = None  # the PLACE row of a hand slot (mask_place), when no unfold happened this turn
    for k, i in enumerate(s.hand[seat]):
        if i < 0:
            continue
        m[discard0 + k] = 1
        if not can_use:
            continue
        t = itype[i]
        kd = kind[t]
        if kd == _CHAMPION or kd == _RUNE:
            if s.unfolded:
                mask_place(g, s, fx, seat, k, m)
                continue
            if place is None:
                place = memo.get(MEMO_PLACE)
                if place is None:
                    place = memo[MEMO_PLACE] = place_row(s.board)
            base = o.PLACE + k * o.PLACE_SLOT
            m[base: base + o.PLACE_SLOT] = place
        elif kd == _ORDER:
            # the effects read the position and, for a Battle, the last-round flag only
            key = memo_order(t, seat, s.last_round)
            ok = memo.get(key)
            if ok is None:
                ok = memo[key] = effect_legal(g, s, fx, seat, tb.order[t])
            if ok:
                m[order0 + k] = 1
    mask_features(g, s, fx, seat, m)
    if g.module and can_unfold(g, s, fx, seat):
        m[o.UNFOLD] = 1


def mask_discard(g, s, m: bytearray) -> None:
    """DISCARD (a full hand at the start of the turn): every occupied hand slot
    (docs/monolith_arena.md §4.1 step 3, §6.2)."""
    o = g.off
    hand = s.hand[s.acting_seat]
    for k in range(g.H):
        if hand[k] >= 0:
            m[o.DISCARD + k] = 1


def discard(g, s, k: int) -> None:
    """DISCARD: the tile in hand slot ``k`` goes to the discard pile (forced or voluntary, both count for
    the unfold condition, docs/monolith_arena.md §4.10); a forced discard leads to MAIN
    (docs/monolith_arena.md §4.1 steps 3-4, D4)."""
    seat = s.acting_seat
    hand = s.hand[seat]
    i = hand[k]
    hand[k] = -1
    s.fresh[seat][k] = False
    s.loc[i] = _L_DISCARD
    s.discard[seat].append(i)
    s.discarded += 1
    if s.sub_phase == _S_DISCARD:
        s.sub_phase = _S_MAIN
    s.mask_cache = None  # dirty_mask


def _nothing(g, s) -> None:
    """An action of no MAIN family (never legal in MAIN or DISCARD)."""


def _decode_main(g) -> list:
    """``[(rule, args)]`` for every flat action: the rule of its MAIN family and the decoded values."""
    o = g.off
    table = [(_nothing, ())] * o.n
    for k in range(g.H):
        table[o.DISCARD + k] = (discard, (k,))
        table[o.ORDER + k] = (play_order, (k,))
        for r in range(o.PLACE_SLOT):
            table[o.PLACE + k * o.PLACE_SLOT + r] = (place_tile, (k, r // 6, r % 6))
    for a in range(o.FEATURE, o.UNFOLD):
        table[a] = (use_feature, divmod(a - o.FEATURE, NUM_HEXES))
    table[o.UNFOLD] = (start_unfold, ())
    table[o.END] = (end_turn, ())
    return table


_DECODED: dict = {}  # hand size -> _decode_main table (the layout depends on it only)


def apply_main(g, s, a: int) -> None:
    """Apply the legal MAIN (or DISCARD) action ``a`` (docs/monolith_arena.md §4.1 steps 3-4, §6.1)."""
    table = _DECODED.get(g.H)
    if table is None:
        table = _DECODED[g.H] = _decode_main(g)
    rule, args = table[a]
    rule(g, s, *args)
