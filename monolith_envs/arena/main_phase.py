"""The decisions of sub-phase MAIN and the forced DISCARD (docs/monolith_arena.md §4.1 steps 3-5, §4.2-§4.4,
§4.10, §6.2): discard a hand tile, place a Champion or Rune, play an Order, use a Feature, unfold the
Monolith, or end the turn.  :func:`mask_main` builds the MAIN row of the legal mask from pieces memoised on
the position's effects; :func:`apply_main` decodes one MAIN action and hands it to its rule.
"""

from __future__ import annotations

from .battle import end_turn
from .board import NUM_HEXES
from .context import cap
from .effects import dirty_mask, get_fx, memo_order
from .features import mask_features, use_feature
from .monolith import can_unfold, start_unfold
from .order_steps import mask_place, place_tile, play_order
from .orders import effect_legal
from .state import Loc, Sub
from .tables import Kind

__all__ = ["mask_main", "mask_discard", "apply_main", "discard"]

_CHAMPION, _RUNE, _ORDER = int(Kind.CHAMPION), int(Kind.RUNE), int(Kind.ORDER)


def mask_main(g, s, m: bytearray) -> None:
    """Set the legal MAIN actions of the acting seat in ``m``."""
    o = g.off
    tb = g.tables
    seat = s.acting_seat
    fx = get_fx(g, s)
    memo = fx.memo  # pieces that depend on the position only (keys: see effects.MEMO_PLACE)
    hand = s.hand[seat]
    m[o.END] = 1
    can_use = not g.reinf or s.uses < cap(g, s)  # (the cap only binds in the variant)
    for k in range(g.H):
        i = hand[k]
        if i < 0:
            continue
        m[o.DISCARD + k] = 1
        if not can_use:
            continue
        t = s.itype[i]
        kd = tb.kind[t]
        if kd == _CHAMPION or kd == _RUNE:
            mask_place(g, s, fx, seat, k, m)
        elif kd == _ORDER:
            # the effects read the position and, for a Battle, the last-round flag only
            key = memo_order(t, seat, s.last_round)
            ok = memo.get(key)
            if ok is None:
                ok = memo[key] = effect_legal(g, s, fx, seat, tb.order[t])
            if ok:
                m[o.ORDER + k] = 1
    mask_features(g, s, fx, seat, m)
    if g.module and can_unfold(g, s, fx, seat):
        m[o.UNFOLD] = 1


def mask_discard(g, s, m: bytearray) -> None:
    """DISCARD (a full hand at the start of the turn): every occupied hand slot."""
    o = g.off
    hand = s.hand[s.acting_seat]
    for k in range(g.H):
        if hand[k] >= 0:
            m[o.DISCARD + k] = 1


def discard(g, s, k: int) -> None:
    """DISCARD: the tile in hand slot ``k`` goes to the discard pile (forced or voluntary, both count for
    the unfold condition, docs/monolith_arena.md §4.10); a forced discard leads to MAIN."""
    seat = s.acting_seat
    i = s.hand[seat][k]
    s.hand[seat][k] = -1
    s.fresh[seat][k] = False
    s.loc[i] = int(Loc.DISCARD)
    s.discard[seat].append(i)
    s.discarded += 1
    if s.sub_phase == Sub.DISCARD:
        s.sub_phase = int(Sub.MAIN)
    dirty_mask(s)


def apply_main(g, s, a: int) -> None:
    """Apply the legal MAIN (or DISCARD) action ``a``."""
    o = g.off
    if o.DISCARD <= a < o.DISCARD + g.H:
        discard(g, s, a - o.DISCARD)
    elif o.PLACE <= a < o.ORDER:
        r = a - o.PLACE
        k, r = divmod(r, o.PLACE_SLOT)
        place_tile(g, s, k, r // 6, r % 6)
    elif o.ORDER <= a < o.ORDER + g.H:
        play_order(g, s, a - o.ORDER)
    elif o.FEATURE <= a < o.UNFOLD:
        kind, h = divmod(a - o.FEATURE, NUM_HEXES)
        use_feature(g, s, kind, h)
    elif a == o.UNFOLD:
        start_unfold(g, s)
    elif a == o.END:
        end_turn(g, s)
