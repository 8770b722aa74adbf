"""One table from sub-phase to (mask function, apply function) (docs/monolith_arena.md §6.2).

``SUBPHASES[sub] = (mask, apply)``: ``mask(g, s, m)`` sets the legal actions of the acting seat in the
``bytearray`` ``m`` (zeros on entry); ``apply(g, s, a)`` applies the legal flat action ``a``.  The
selection sub-phases use the SELECT_HEX, SELECT_ROT, SELECT_TRIANGLE or SELECT_MODE family; their entries
are built from an option list (hexes or facings) and a choice function taking the decoded value.
:func:`mask_of` (the cached :func:`mask_bytes`), ``APPLIES`` (the apply column by sub-phase),
:func:`compute_mask` and :func:`illegal` are what the game calls.
"""

from __future__ import annotations

import numpy as np

from ..core.game import IllegalActionError
from .battle import choose_strike_target, strike_targets
from .board import TRIANGLES
from .context import effect_of
from .effects import get_fx
from .features import (
    choose_feature_dest,
    choose_rotation,
    choose_swap_partner,
    feature_dests,
    finish_move,
    rotate_facings,
    swap_partners,
)
from .main_phase import apply_main, mask_discard, mask_main
from .monolith import choose_seg2, choose_seg3, choose_unfold_facing, seg2_hexes, seg3_hexes
from .order_steps import (
    choose_area,
    choose_charge_dest,
    choose_charger,
    choose_entrench_target,
    choose_mode,
    choose_move_dest,
    choose_move_tile,
    choose_net_target,
    choose_push_dest,
    choose_push_target,
    choose_pusher,
    choose_rotate_target,
    choose_wound_target,
    move_facings,
    resolve_charge,
)
from .orders import (
    charge_dests,
    charge_facings,
    charge_tiles,
    effect_legal,
    entrench_targets,
    move_dests,
    move_tiles,
    net_targets,
    push_dests,
    push_pushers,
    push_targets,
    rotate_targets,
    wound_targets,
)
from .setup_game import banner_hexes, pick_type, pick_types, place_banner
from .state import Eff, Sub

__all__ = ["SUBPHASES", "APPLIES", "mask_bytes", "mask_of", "compute_mask", "illegal"]

_ALL_FACINGS = list(range(6))


def _hexes(options):
    """A mask function setting SELECT_HEX for the hexes ``options(g, s)`` returns."""
    def mask(g, s, m):
        base = g.off.HEX
        for h in options(g, s):
            m[base + h] = 1
    return mask


def _facings(options):
    """A mask function setting SELECT_ROT for the facings ``options(g, s)`` returns."""
    def mask(g, s, m):
        base = g.off.ROT
        for f in options(g, s):
            m[base + f] = 1
    return mask


def _on_hex(choose):
    """An apply function passing the SELECT_HEX value to ``choose(g, s, hex)``."""
    return lambda g, s, a: choose(g, s, a - g.off.HEX)


def _on_facing(choose):
    """An apply function passing the SELECT_ROT value to ``choose(g, s, facing)``."""
    return lambda g, s, a: choose(g, s, a - g.off.ROT)


def _seat_fx(fn):
    """Options ``fn(g, s, fx, acting seat)`` as ``options(g, s)``."""
    return lambda g, s: fn(g, s, get_fx(g, s), s.acting_seat)


def _mask_pick(g, s, m):
    base = g.off.PICK
    for loc in pick_types(g, s, s.acting_seat):
        m[base + loc] = 1


def _mask_mode(g, s, m):
    ef = g.tables.order[s.itype[s.p_order]]
    seat, base = s.acting_seat, g.off.MODE
    fx = get_fx(g, s)
    for k, opt in enumerate(ef.options[:5]):
        if effect_legal(g, s, fx, seat, opt):
            m[base + k] = 1


def _mask_area(g, s, m):
    base = g.off.TRI
    m[base: base + len(TRIANGLES)] = b"\x01" * len(TRIANGLES)


def _feature_facings(g, s) -> list:
    """FEATURE_FACING options: any facing after a Teleport, else as after a move."""
    return _ALL_FACINGS if s.p_effect == Eff.TELEPORT else move_facings(g, s)


def _order_targets(fn):
    """Options ``fn(g, s, fx, seat, effect of the pending Order)`` as ``options(g, s)``."""
    return lambda g, s: fn(g, s, get_fx(g, s), s.acting_seat, effect_of(g, s))


SUBPHASES = {
    Sub.SETUP_PICK: (_mask_pick, lambda g, s, a: pick_type(g, s, a - g.off.PICK)),
    Sub.SETUP_BANNER: (_hexes(banner_hexes), _on_hex(place_banner)),
    Sub.DISCARD: (mask_discard, apply_main),
    Sub.MAIN: (mask_main, apply_main),
    Sub.ORDER_MODE: (_mask_mode, lambda g, s, a: choose_mode(g, s, a - g.off.MODE)),
    Sub.CHARGE_TILE: (_hexes(_seat_fx(charge_tiles)), _on_hex(choose_charger)),
    Sub.CHARGE_DEST: (_hexes(lambda g, s: charge_dests(g, s, get_fx(g, s), s.p_a)), _on_hex(choose_charge_dest)),
    Sub.CHARGE_FACING: (_facings(lambda g, s: charge_facings(g, s, s.p_a, s.p_b)),
                        _on_facing(lambda g, s, f: resolve_charge(g, s, get_fx(g, s), f))),
    Sub.MOVE_TILE: (_hexes(_seat_fx(move_tiles)), _on_hex(choose_move_tile)),
    Sub.MOVE_DEST: (_hexes(lambda g, s: move_dests(g, s, get_fx(g, s), s.p_a)), _on_hex(choose_move_dest)),
    Sub.MOVE_FACING: (_facings(move_facings), _on_facing(finish_move)),
    Sub.PUSH_TARGET: (_hexes(_seat_fx(push_targets)), _on_hex(choose_push_target)),
    Sub.PUSH_PUSHER: (_hexes(lambda g, s: push_pushers(g, s, get_fx(g, s), s.acting_seat, s.p_a)),
                      _on_hex(choose_pusher)),
    Sub.PUSH_DEST: (_hexes(lambda g, s: push_dests(g, s, get_fx(g, s), s.p_a, s.p_b)), _on_hex(choose_push_dest)),
    Sub.NET_TARGET: (_hexes(_seat_fx(net_targets)), _on_hex(choose_net_target)),
    Sub.WOUND_TARGET: (_hexes(_order_targets(wound_targets)), _on_hex(choose_wound_target)),
    Sub.AREA_TARGET: (_mask_area, lambda g, s, a: choose_area(g, s, a - g.off.TRI)),
    Sub.ENTRENCH_TARGET: (_hexes(_order_targets(entrench_targets)), _on_hex(choose_entrench_target)),
    Sub.ROTATE_TARGET: (_hexes(_order_targets(rotate_targets)), _on_hex(choose_rotate_target)),
    Sub.ROTATE_FACING: (_facings(rotate_facings), _on_facing(choose_rotation)),
    Sub.FEATURE_DEST: (_hexes(lambda g, s: feature_dests(g, s, get_fx(g, s), s.p_a, s.p_effect == Eff.TELEPORT)),
                       _on_hex(choose_feature_dest)),
    Sub.FEATURE_FACING: (_facings(_feature_facings), _on_facing(finish_move)),
    Sub.SWAP_TARGET: (_hexes(lambda g, s: swap_partners(g, s, get_fx(g, s), s.acting_seat, s.p_a)),
                      _on_hex(choose_swap_partner)),
    Sub.UNFOLD_SEG2: (_hexes(lambda g, s: seg2_hexes(g, s, s.acting_seat)), _on_hex(choose_seg2)),
    Sub.UNFOLD_SEG3: (_hexes(lambda g, s: seg3_hexes(g, s, s.acting_seat)), _on_hex(choose_seg3)),
    Sub.UNFOLD_FACING: (_facings(lambda g, s: _ALL_FACINGS), _on_facing(choose_unfold_facing)),
    Sub.ASSASSIN_TARGET: (_hexes(lambda g, s: strike_targets(g, s, s.acting_seat)), _on_hex(choose_strike_target)),
}
# the two columns indexed by the int sub-phase (GAME_OVER: None); APPLIES is what ArenaGame.apply calls
_MASKS = [SUBPHASES[sub][0] if sub in SUBPHASES else None for sub in Sub]
APPLIES = [SUBPHASES[sub][1] if sub in SUBPHASES else None for sub in Sub]


def mask_bytes(g, s) -> bytearray:
    """The legal actions of ``s`` as a ``bytearray`` of 0/1 of length ``g.off.n`` (all 0 when terminal)."""
    m = bytearray(g.off.n)
    if not s.terminal:
        _MASKS[s.sub_phase](g, s, m)
    return m


def compute_mask(g, s) -> np.ndarray:
    """``bool[n]`` legal actions of ``s`` (docs/monolith_arena.md §6.2), not cached."""
    return np.frombuffer(mask_bytes(g, s), np.bool_)


def mask_of(g, s) -> bytearray:
    """:func:`mask_bytes` of ``s``, cached in its transient ``mask_cache`` (do not edit it)."""
    mk = s.mask_cache
    if mk is None:
        mk = s.mask_cache = mask_bytes(g, s)
    return mk


#: what the acting seat decides in each sub-phase (docs/monolith_arena.md §6.2), for illegal-action messages
SUB_ASKS = {
    Sub.SETUP_PICK: "pick a Champion or Rune type for your Monolith",
    Sub.SETUP_BANNER: "choose an empty hex for your Banner",
    Sub.DISCARD: "discard a tile from your hand",
    Sub.MAIN: "place a tile, play an Order, use a Feature, unfold the Monolith, discard, or end the turn",
    Sub.ORDER_MODE: "choose an option of the Order",
    Sub.CHARGE_TILE: "choose your Cavalry tile that charges",
    Sub.CHARGE_DEST: "choose the hex the charger moves to",
    Sub.CHARGE_FACING: "choose the charger's facing",
    Sub.MOVE_TILE: "choose your tile that moves",
    Sub.MOVE_DEST: "choose the hex the tile moves to",
    Sub.MOVE_FACING: "choose the moved tile's facing",
    Sub.PUSH_TARGET: "choose the enemy tile to push back",
    Sub.PUSH_PUSHER: "choose your tile that pushes",
    Sub.PUSH_DEST: "choose the hex the pushed tile goes to",
    Sub.NET_TARGET: "choose the enemy tile to net",
    Sub.WOUND_TARGET: "choose the tile the Order wounds",
    Sub.AREA_TARGET: "choose the triangle of hexes the Order hits",
    Sub.ENTRENCH_TARGET: "choose your tile to entrench",
    Sub.ROTATE_TARGET: "choose the tile to rotate",
    Sub.ROTATE_FACING: "choose the rotated tile's new facing",
    Sub.FEATURE_DEST: "choose the hex the Feature moves the tile to",
    Sub.FEATURE_FACING: "choose the tile's facing after the Feature",
    Sub.SWAP_TARGET: "choose your Champion to swap with",
    Sub.UNFOLD_SEG2: "choose the hex of the Monolith's second segment",
    Sub.UNFOLD_SEG3: "choose the hex of the Monolith's third segment",
    Sub.UNFOLD_FACING: "choose the facing of the unfolded tile",
    Sub.ASSASSIN_TARGET: "choose the enemy tile the Assassin strikes",
    Sub.GAME_OVER: "nothing: the game is over",
}


def illegal(g, s, a, why=None) -> IllegalActionError:
    """An :class:`IllegalActionError` for action ``a`` naming the reason and the legal actions."""
    lay = g.layout
    try:
        asked = lay.decode(int(a))
    except (ValueError, TypeError):
        asked = repr(a)
    mk = np.frombuffer(mask_of(g, s), np.bool_)
    if why is None:
        why = (f"not legal in {Sub(s.sub_phase).name}: the decision now (seat {s.acting_seat}) is to "
               f"{SUB_ASKS[Sub(s.sub_phase)]}" if not s.terminal else "the game is over")
    legal = np.flatnonzero(mk)
    shown = ", ".join(lay.decode(int(x)) for x in legal[:12])
    if len(legal) > 12:
        shown += f", ... ({len(legal)} legal actions in all)"
    return IllegalActionError(asked, why, f"legal now: {shown}" if len(legal) else "no action is legal now")
