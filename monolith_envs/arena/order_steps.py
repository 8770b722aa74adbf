"""Placement and Orders (docs/monolith_arena.md §4.2-§4.4, §4.8, §5.3): placing a tile from the hand,
playing an Order, and the steps that resolve each Order's choices (Charge, Move, Push Back, Net, Wound,
Area, Entrench, Rotate).  The options of each step are in :mod:`monolith_envs.arena.orders`.
"""

from __future__ import annotations

from .battle import attack_hits, end_turn, resolve_step, start_battle
from .context import effect_of
from .effects import MEMO_PLACE, ONES6, dirty, dirty_mask, get_fx, place_row
from .effects_update import move_fx, place_fx
from .endgame import banner_check
from .monolith import exception_hexes
from .orders import area_hits
from .relocation import place_on_board, relocate, settle
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff, Loc, Sub, Trigger
from .turns import back_to_main

__all__ = ["mask_place", "place_tile", "play_order", "begin_effect", "choose_mode", "choose_charger",
           "choose_charge_dest", "resolve_charge", "choose_move_tile", "choose_move_dest", "move_facings",
           "choose_push_target", "choose_pusher", "choose_push_dest", "choose_net_target", "choose_wound_target",
           "choose_area", "choose_entrench_target", "choose_rotate_target"]

_EFFECT_STEP = {  # Order effect -> (pending effect, first sub-phase)
    "charge": (Eff.CHARGE, Sub.CHARGE_TILE), "move": (Eff.MOVE, Sub.MOVE_TILE),
    "push_back": (Eff.PUSH_BACK, Sub.PUSH_TARGET), "net_mark": (Eff.NET_MARK, Sub.NET_TARGET),
    "wound_target": (Eff.WOUND_TARGET, Sub.WOUND_TARGET), "wound_area": (Eff.WOUND_AREA, Sub.AREA_TARGET),
    "entrench": (Eff.ENTRENCH, Sub.ENTRENCH_TARGET), "rotate_target": (Eff.ROTATE_TARGET, Sub.ROTATE_TARGET),
}


def mask_place(g, s, fx, seat: int, k: int, m: bytearray) -> None:
    """Set the PLACE entries of hand slot ``k`` in the MAIN mask ``m``: every empty hex at every facing, or
    after an unfold only the exception placement of a fresh tile onto an own empty segment (D26;
    docs/monolith_arena.md §4.3, §4.10, §6.2)."""
    o = g.off
    base = o.PLACE + k * o.PLACE_SLOT
    if not s.unfolded:
        memo = fx.memo
        place = memo.get(MEMO_PLACE)
        if place is None:
            place = memo[MEMO_PLACE] = place_row(s.board)
        m[base: base + o.PLACE_SLOT] = place
    elif s.fresh[seat][k]:
        for h in exception_hexes(g, s, fx, seat):
            m[base + h * 6: base + h * 6 + 6] = ONES6


def place_tile(g, s, k: int, h: int, f: int) -> None:
    """PLACE: the tile in hand slot ``k`` goes onto hex ``h`` facing ``f``; the state check, then a Battle
    when the board is full (docs/monolith_arena.md §4.2-§4.3, §4.7)."""
    seat = s.acting_seat
    i = s.hand[seat][k]
    fx = get_fx(g, s)
    if s.unfolded:
        s.exception_used = True
    s.hand[seat][k] = -1
    s.fresh[seat][k] = False
    place_on_board(g, s, fx, i, h, f)
    s.fx_cache = place_fx(g, s, fx, h)  # (None: recomputed by settle)
    s.uses += 1
    s.placed = True
    settle(g, s)
    if min(s.board) >= 0:  # board full
        start_battle(g, s, Trigger.BOARD_FULL)


def play_order(g, s, k: int) -> None:
    """PLAY_ORDER: the Order in hand slot ``k`` is discarded and its effect begins (a choice: its mode first)
    (docs/monolith_arena.md §4.3, §5.3)."""
    seat = s.acting_seat
    i = s.hand[seat][k]
    s.hand[seat][k] = -1
    s.fresh[seat][k] = False
    s.loc[i] = int(Loc.DISCARD)
    s.discard[seat].append(i)
    s.uses += 1
    s.p_order = i
    s.p_mode = -1
    ef = g.tables.order[s.itype[i]]
    dirty_mask(s)
    if ef.effect == "choice":
        s.p_effect = int(Eff.CHOICE)
        s.sub_phase = int(Sub.ORDER_MODE)
        return
    begin_effect(g, s, ef)


def begin_effect(g, s, ef) -> None:
    """Enter the first sub-phase of Order effect ``ef`` (or resolve it at once: Battle)
    (docs/monolith_arena.md §5.3, §6.2)."""
    name = ef.effect
    dirty_mask(s)
    if name == "battle":
        s.sub_phase = int(Sub.MAIN)
        start_battle(g, s, Trigger.ORDER)
        return
    e, sub = _EFFECT_STEP[name]
    s.p_effect = int(e)
    s.sub_phase = int(sub)


def choose_mode(g, s, k: int) -> None:
    """ORDER_MODE: option ``k`` of the pending choice Order is resolved
    (docs/monolith_arena.md §5.3, §6.2)."""
    s.p_mode = k
    begin_effect(g, s, effect_of(g, s))


def _step(s, sub: Sub) -> None:
    s.sub_phase = int(sub)
    dirty_mask(s)


def choose_charger(g, s, x: int) -> None:
    """CHARGE_TILE: the Cavalry tile on ``x`` charges (docs/monolith_arena.md §4.8 step 1)."""
    s.p_a = x
    _step(s, Sub.CHARGE_DEST)


def choose_charge_dest(g, s, x: int) -> None:
    """CHARGE_DEST: the charger goes to ``x`` (docs/monolith_arena.md §4.8 step 2)."""
    s.p_b = x
    _step(s, Sub.CHARGE_FACING)


def resolve_charge(g, s, fx, f: int) -> None:
    """Docs/monolith_arena.md §4.8 step 2-3: move, face, resolve the charger's melee attacks, then end the turn."""
    i = s.board[s.p_a]
    relocate(g, s, fx, i, s.p_b)
    s.facing[i] = f
    dirty(s)
    fx = settle(g, s)
    h = s.p_b
    hits = []
    if s.board[h] == i and not fx.netted[h] and not fx.disarmed[h]:
        hits = attack_hits(g, s, fx, h, 1, extra_melee=fx.charge_b[h], melee_only=True)
    resolve_step(g, s, fx, hits)
    if banner_check(g, s):
        return
    end_turn(g, s)


def choose_move_tile(g, s, x: int) -> None:
    """MOVE_TILE: the tile on ``x`` moves (docs/monolith_arena.md §5.3, §6.2)."""
    s.p_a = x
    _step(s, Sub.MOVE_DEST)


def choose_move_dest(g, s, x: int) -> None:
    """MOVE_DEST: the tile goes to ``x`` (a Banner moves at once: it has no facing)
    (docs/monolith_arena.md §4.5, §6.2)."""
    s.p_b = x
    if s.board[s.p_a] % PER_SEAT == 0:
        relocate(g, s, get_fx(g, s), s.board[s.p_a], x)
        settle(g, s)
        back_to_main(g, s)
        return
    _step(s, Sub.MOVE_FACING)


def move_facings(g, s) -> list:
    """MOVE_FACING options: every facing, but not the current one when the tile stays on its hex
    (docs/monolith_arena.md §4.5, §6.2)."""
    cur = s.facing[s.board[s.p_a]]
    return [f for f in range(6) if s.p_b != s.p_a or f != cur]


def choose_push_target(g, s, x: int) -> None:
    """PUSH_TARGET: the enemy tile on ``x`` is pushed (docs/monolith_arena.md §5.3 Push Back geometry)."""
    s.p_a = x
    _step(s, Sub.PUSH_PUSHER)


def choose_pusher(g, s, x: int) -> None:
    """PUSH_PUSHER: the own tile on ``x`` pushes (docs/monolith_arena.md §5.3 Push Back geometry)."""
    s.p_b = x
    _step(s, Sub.PUSH_DEST)


def choose_push_dest(g, s, x: int) -> None:
    """PUSH_DEST: the pushed tile goes to ``x`` (docs/monolith_arena.md §4.5, §5.3 Push Back geometry)."""
    fx = get_fx(g, s)
    s.p_c = x
    relocate(g, s, fx, s.board[s.p_a], x)
    s.fx_cache = move_fx(g, s, fx, s.p_a, x)  # (None: recomputed by settle)
    settle(g, s)
    back_to_main(g, s)


def choose_net_target(g, s, x: int) -> None:
    """NET_TARGET: the Net-order marker goes onto the enemy tile on ``x``
    (docs/monolith_arena.md §4.6, §5.3)."""
    s.net_marker_on = s.board[x]
    dirty(s)
    settle(g, s)
    back_to_main(g, s)


def choose_wound_target(g, s, x: int) -> None:
    """WOUND_TARGET: the tile on ``x`` takes the Order's wounds (one resolution step)
    (docs/monolith_arena.md §4.7 Regeneration, §5.3)."""
    fx = get_fx(g, s)
    s.p_a = x
    ef = effect_of(g, s)
    resolve_step(g, s, fx, [(x, int(ef.amount), -1, False)])
    _after_order_wounds(g, s)


def choose_area(g, s, tri: int) -> None:
    """AREA_TARGET: the tiles of triangle ``tri`` take the Order's wounds (one resolution step)
    (docs/monolith_arena.md §4.7 Regeneration, §5.3)."""
    fx = get_fx(g, s)
    resolve_step(g, s, fx, area_hits(g, s, s.acting_seat, tri, effect_of(g, s)))
    _after_order_wounds(g, s)


def _after_order_wounds(g, s) -> None:
    """After an Order's wounds: the Banner check; the game goes on in MAIN of the turn seat, or, when the wounds
    eliminated the turn seat itself (free-for-all; only a content file's Order can wound its own Banner), with
    the next seat's turn, as after a Battle."""
    if banner_check(g, s):
        return
    if s.alive[s.turn_seat]:
        back_to_main(g, s)
    else:
        end_turn(g, s)  # its bookkeeping clears the pending Order


def choose_entrench_target(g, s, x: int) -> None:
    """ENTRENCH_TARGET: the Entrenchment marker goes onto the own tile on ``x``
    (docs/monolith_arena.md §5.3)."""
    s.entrench_on = s.board[x]
    dirty(s)
    settle(g, s)
    back_to_main(g, s)


def choose_rotate_target(g, s, x: int) -> None:
    """ROTATE_TARGET: the tile on ``x`` is rotated (its new facing is chosen next)
    (docs/monolith_arena.md §5.3, §6.2)."""
    s.p_a = x
    _step(s, Sub.ROTATE_FACING)
