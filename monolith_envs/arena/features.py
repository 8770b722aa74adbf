"""Features (docs/monolith_arena.md §4.4; their keywords in the table of §5.3): Maneuver, Teleport (printed
or through a Teleportation Rune), Swap and Rotate; their options in MAIN (:func:`feature_rows`), their
destinations and partners, and the steps that resolve them (also the facing step shared with a Move Order).
"""

from __future__ import annotations

from enum import IntEnum

from .board import NEIGHBOURS, NUM_HEXES
from .context import is_own
from .effects import dirty, get_fx, memo_features
from .effects_update import move_fx
from .relocation import can_relocate, relocate, settle
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff, Sub
from .tables import Kind
from .turns import back_to_main

__all__ = ["FeatureKind", "USED_BIT", "TELE_PRINTED", "TELE_RUNE", "teleport_rune", "feature_rows", "feature_dests", "swap_partners",
           "mask_features", "use_feature", "choose_feature_dest", "finish_move", "choose_swap_partner",
           "rotate_facings", "choose_rotation"]


class FeatureKind(IntEnum):
    """The USE_FEATURE action family's first axis (docs/monolith_arena.md §6.1)."""

    MANEUVER = 0
    TELEPORT = 1
    SWAP = 2
    ROTATE = 3


#: bit of ``ArenaState.used`` set when a tile used that Feature this turn
USED_BIT = {FeatureKind.MANEUVER: 1, FeatureKind.TELEPORT: 2, FeatureKind.SWAP: 4, FeatureKind.ROTATE: 8}
_U_MAN, _U_TELE, _U_SWAP, _U_ROT = (USED_BIT[k] for k in FeatureKind)
_CHAMPION = int(Kind.CHAMPION)
TELE_PRINTED, TELE_RUNE = 1, 2  # the teleport column of feature_rows (0: cannot teleport)
_FEATURE_STEP = {  # kind -> (pending effect, next sub-phase)
    FeatureKind.MANEUVER: (Eff.MANEUVER, Sub.FEATURE_DEST), FeatureKind.TELEPORT: (Eff.TELEPORT, Sub.FEATURE_DEST),
    FeatureKind.SWAP: (Eff.SWAP, Sub.SWAP_TARGET), FeatureKind.ROTATE: (Eff.ROTATE, Sub.ROTATE_FACING),
}
# the same indexed by the int kind, as plain ints: (used bit, pending effect, next sub-phase)
_STEP_BY_KIND = tuple((USED_BIT[k], int(_FEATURE_STEP[k][0]), int(_FEATURE_STEP[k][1])) for k in FeatureKind)
_TELEPORT = int(FeatureKind.TELEPORT)
_S_FEATURE_FACING = int(Sub.FEATURE_FACING)


def teleport_rune(g, s, fx, h):
    """Instance of the Teleportation Rune the tile on ``h`` would spend, -1 for printed Teleport, None
    when it cannot teleport (docs/monolith_arena.md §4.4)."""
    i = s.board[h]
    if g.tables.teleport[s.itype[i]]:
        return -1
    for r in fx.tele[h]:
        if s.tele_rune_used.count(r) < g.tables.tele_uses[s.itype[r]]:
            return r
    return None


def feature_rows(g, s, fx, seat) -> list:
    """``[(h, inst, maneuver, teleport, swap, rotate)]`` for the own non-netted tiles that could use a
    Feature in this position if it is unused this turn: ``teleport`` 1 = printed, 2 = through a
    Teleportation Rune (its uses left are checked per state), 0 = no (or no legal destination)
    (docs/monolith_arena.md §4.4, §6.2)."""
    tb = g.tables
    board = s.board
    module = g.module
    out = []
    owner, netted, typ, segowner = fx.owner, fx.netted, fx.typ, fx.segowner
    kind = tb.kind
    empty = -1 in board
    maneuver, rotate, tele_runes, teleport, swaps = fx.maneuver, fx.rotate, fx.tele, tb.teleport, tb.swap
    for h in fx.occ:
        if owner[h] != seat or netted[h]:
            continue
        t = typ[h]
        if not (maneuver[h] or rotate[h] or tele_runes[h] or teleport[t] or swaps[t]):
            continue
        i = board[h]
        banner = i % PER_SEAT == 0
        man = not banner and maneuver[h]
        tele = 0
        if not banner and (teleport[t] or tele_runes[h]) and empty:
            # without a segment on h any empty hex is a destination (can_relocate)
            if not module or segowner[h] < 0 or any(can_relocate(g, s, fx, h, x) for x in range(NUM_HEXES)):
                tele = TELE_PRINTED if teleport[t] else TELE_RUNE
        swap = False
        if swaps[t] and not (module and segowner[h] >= 0):
            # swap_partners(s, fx, seat, h) is not empty
            for x in fx.occ:
                if (x != h and owner[x] == seat and not netted[x] and kind[typ[x]] == _CHAMPION
                        and not (module and segowner[x] >= 0)):
                    swap = True
                    break
        rot = rotate[h] and not banner
        if man or tele or swap or rot:
            out.append((h, i, man, tele, swap, rot))
    return out


def feature_dests(g, s, fx, h, teleport: bool):
    """FEATURE_DEST options: maneuver = own hex or adjacent legal; teleport = any legal hex
    (docs/monolith_arena.md §4.5, §6.2)."""
    if not g.module:  # can_relocate without the Monolith module: any other empty hex
        board = s.board
        if teleport:
            return [x for x in range(NUM_HEXES) if x != h and board[x] < 0]
        return [h] + [x for x in NEIGHBOURS[h] if board[x] < 0]
    if teleport:
        return [x for x in range(NUM_HEXES) if can_relocate(g, s, fx, h, x)]
    return [h] + [x for x in NEIGHBOURS[h] if can_relocate(g, s, fx, h, x)]


def swap_partners(g, s, fx, seat, h):
    """Own non-netted Champions (not the swapper, not in a segment) the tile on ``h`` may swap with
    (docs/monolith_arena.md §4.4, §6.2)."""
    tb = g.tables
    return [x for x in range(NUM_HEXES) if x != h and is_own(s, seat, x) and not fx.netted[x]
            and tb.kind[s.itype[s.board[x]]] == Kind.CHAMPION and (not g.module or fx.segowner[x] < 0)]


def mask_features(g, s, fx, seat: int, m: bytearray) -> None:
    """Set the USE_FEATURE entries of the MAIN mask ``m`` (rows memoised on ``fx``, used bits per state)
    (docs/monolith_arena.md §4.4, §6.2)."""
    memo = fx.memo
    feats = memo.get(-2 - seat)  # memo_features(seat)
    if feats is None:
        feats = memo[memo_features(seat)] = feature_rows(g, s, fx, seat)
    if feats:
        used = s.used
        F = g.off.FEATURE
        for h, i, man, tele, swap, rot in feats:
            u = used[i]
            if man and not u & _U_MAN:
                m[F + h] = 1
            if tele and not u & _U_TELE and (tele == TELE_PRINTED or teleport_rune(g, s, fx, h) is not None):
                m[F + NUM_HEXES + h] = 1
            if swap and not u & _U_SWAP:
                m[F + 2 * NUM_HEXES + h] = 1
            if rot and not u & _U_ROT:
                m[F + 3 * NUM_HEXES + h] = 1


def use_feature(g, s, kind: int, h: int) -> None:
    """USE_FEATURE: the tile on ``h`` starts using Feature ``kind`` (a :class:`FeatureKind`)
    (docs/monolith_arena.md §4.4)."""
    i = s.board[h]
    s.p_a = h
    bit, e, sub = _STEP_BY_KIND[kind]
    if kind == _TELEPORT:
        r_inst = teleport_rune(g, s, get_fx(g, s), h)
        if r_inst is not None and r_inst >= 0:
            s.tele_rune_used.append(r_inst)
    s.used[i] |= bit
    s.p_effect = e
    s.sub_phase = sub
    s.mask_cache = None  # dirty_mask


def choose_feature_dest(g, s, x: int) -> None:
    """FEATURE_DEST: the Maneuver or Teleport goes to ``x``; the facing is chosen next
    (docs/monolith_arena.md §4.4, §6.2)."""
    s.p_b = x
    s.sub_phase = _S_FEATURE_FACING
    s.mask_cache = None  # dirty_mask


def finish_move(g, s, f: int) -> None:
    """MOVE_FACING / FEATURE_FACING: the tile on hex A goes to hex B (A = B: it stays) facing ``f``; then the
    state check and back to MAIN (docs/monolith_arena.md §4.5)."""
    fx = get_fx(g, s)
    i = s.board[s.p_a]
    if s.p_b != s.p_a:
        relocate(g, s, fx, i, s.p_b)
    s.facing[i] = f
    s.fx_cache = move_fx(g, s, fx, s.p_a, s.p_b)  # (None: recomputed by settle)
    s.mask_cache = None
    settle(g, s)
    back_to_main(g, s)


def choose_swap_partner(g, s, x: int) -> None:
    """SWAP_TARGET: the tile on hex A and the own Champion on ``x`` exchange hexes
    (docs/monolith_arena.md §4.4)."""
    h = s.p_a
    i, j = s.board[h], s.board[x]
    s.board[h], s.board[x] = j, i
    s.hexof[i], s.hexof[j] = x, h
    s.p_b = x
    dirty(s)
    settle(g, s)
    back_to_main(g, s)


def rotate_facings(g, s) -> list:
    """ROTATE_FACING options: every facing but the current one of the tile on hex A
    (docs/monolith_arena.md §6.2)."""
    cur = s.facing[s.board[s.p_a]]
    return [f for f in range(6) if f != cur]


def choose_rotation(g, s, f: int) -> None:
    """ROTATE_FACING (a Rotate Feature or a Rotate Order): the tile on hex A turns to ``f``
    (docs/monolith_arena.md §4.4, §5.3)."""
    fx = get_fx(g, s)
    s.facing[s.board[s.p_a]] = f
    s.fx_cache = move_fx(g, s, fx, s.p_a, s.p_a)  # (None: recomputed by settle)
    s.mask_cache = None
    settle(g, s)
    back_to_main(g, s)
