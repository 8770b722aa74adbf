"""Continuous effects of a Monolith Arena position (docs/monolith_arena.md §4.6) and their cache.

:func:`compute_fx` derives every hex's effective values (nets, auras and rune bonuses, granted features,
Regeneration and Teleportation links, Monolith segments) from the board; :func:`get_fx` caches the result in
the state's transient ``fx_cache`` field and :func:`dirty` / :func:`dirty_mask` / :func:`dirty_decks` drop
the caches after a change.  Incremental updates after one placement, move or removal are in
:mod:`monolith_envs.arena.effects_update`.
"""

from __future__ import annotations

from .board import NB, NEIGHBOURS, NUM_HEXES
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Loc
from .tables import ENEMY, OWN_BIT, FxCode, Scope

__all__ = ["Fx", "compute_fx", "get_fx", "dirty", "dirty_mask", "dirty_decks", "MEMO_PLACE", "place_row",
           "add_effect", "effective_inits", "source_targets",
           "ONES6", "ZEROS6", "memo_features", "memo_unfold", "memo_order"]

# effect codes and scopes as plain ints (compared in the inner loops)
(_INIT, _MELEE, _RANGED, _TOUGH, _EXTRA, _PIERCE, _GRANT, _TELE, _REGEN, _DISARM, _CHARGE) = (int(c) for c in FxCode)
_ADJACENT, _BOUNDLESS = int(Scope.ADJACENT), int(Scope.BOUNDLESS)
_L_BOARD = int(Loc.BOARD)


class Fx:
    """Continuous effects of one board position (docs/monolith_arena.md §4.6), per hex (lists of 19).

    Attributes:
        netted, disarmed, marker: bool per hex (marker = carries the Net-order marker).
        inits: tuple of effective initiatives per hex (empty when the tile never activates).
        melee_b, ranged_b, charge_b: attack bonuses per hex.  tough: effective toughness per hex.
        pierce, venom, maneuver, rotate: bool per hex (printed or granted, only if not netted for use).
        regen: per hex, ascending hexes of own non-netted Regeneration Runes connected to it.
        tele: per hex, instance ids of own non-netted Teleportation Runes connected to it (by rune hex).
        segowner, segk: per hex, owner seat and segment index 0-2 of a Monolith segment on it (-1 none;
            a folded Monolith reports segment 0 on its Banner hex).
        armor: per hex, 6 bools (side facing each direction armored, entrenchment included).
        occ: occupied hexes, ascending.  owner, typ, fac: per hex, the owner seat, type and facing of its
            tile (-1, -1, 0 when empty).
        touched: occupied hexes, possibly repeated, including every hex whose netted, disarmed, inits,
            melee_b, ranged_b or tough can differ from the printed values of its tile (netted, or the target
            of such an effect; a hex whose last such source left may remain); every other occupied hex has
            exactly its printed values.
        init_b, extra: per hex, the initiative bonus and the number of extra attacks granted.
        src: ascending hexes of the non-netted tiles with continuous effects (the active sources).
        memo: values derived from this position only, filled on demand by the MAIN legal mask (keys:
            see ``MEMO_PLACE``).

    An ``Fx`` is never modified once built: :func:`place_fx`, :func:`move_fx` and :func:`remove_fx` derive
    a new one from the previous position's (sharing the lists that do not change).
    """

    __slots__ = ("netted", "disarmed", "marker", "inits", "melee_b", "ranged_b", "charge_b", "tough", "pierce",
                 "venom", "maneuver", "rotate", "regen", "tele", "segowner", "segk", "armor",
                 "occ", "owner", "typ", "fac", "touched", "init_b", "extra", "src", "memo")


ONES6 = b"\x01" * 6
ZEROS6 = bytes(6)

# Keys of ``Fx.memo`` (values derived from the position only, used by the MAIN legal mask):
# MEMO_PLACE: the PLACE row of one hand slot (bytes, 6 facings per hex, 1 on empty hexes);
# memo_features(seat): features.feature_rows(g, s, fx, seat);
# memo_order(t, seat, last_round): orders.effect_legal of Order type t;
# memo_unfold(seat): whether seat's folded Monolith has a free pair of hexes to unfold into (monolith.can_unfold).
MEMO_PLACE = -1


def memo_features(seat: int) -> int:
    """``Fx.memo`` key of the feature rows of ``seat``."""
    return -2 - seat


def memo_unfold(seat: int) -> int:
    """``Fx.memo`` key of whether ``seat``'s folded Monolith has a free pair of hexes."""
    return -20 - seat


def memo_order(t: int, seat: int, last_round: bool) -> int:
    """``Fx.memo`` key of whether the Order of type ``t`` has a legal resolution for ``seat``."""
    return 8 * t + 2 * seat + (1 if last_round else 0)


def place_row(board) -> bytes:
    """The PLACE row of one hand slot: 6 bytes per hex, 1 when the hex is empty
    (docs/monolith_arena.md §4.3, §6.1)."""
    return b"".join([ONES6 if x < 0 else ZEROS6 for x in board])



def compute_fx(g, s) -> Fx:
    """Compute the continuous effects of ``s`` (pure; no removal: docs/monolith_arena.md §4.6 steps 1-5).
    See :class:`Fx`."""
    tb = g.tables
    board, itype, facing = s.board, s.itype, s.facing
    REL = g.rel
    occ = []
    owner = [-1] * NUM_HEXES
    typ = [-1] * NUM_HEXES
    fac = [0] * NUM_HEXES
    h = 0
    for i in board:
        if i >= 0:
            occ.append(h)
            owner[h] = i // PER_SEAT
            typ[h] = itype[i]
            fac[h] = facing[i]
        h += 1
    # 1. nets
    marker = [False] * NUM_HEXES
    if s.net_marker_on >= 0 and s.loc[s.net_marker_on] == _L_BOARD:
        marker[s.hexof[s.net_marker_on]] = True
    netters = None
    net_dirs, has_net = tb.net_dirs, tb.has_net
    for h in [h for h in occ if has_net[typ[h]]]:
        nd = net_dirs[typ[h]][fac[h]]
        if nd:
            rel_o = REL[owner[h]]
            nb = NB[h]
            for d in nd:
                x = nb[d]
                if x >= 0 and board[x] >= 0 and rel_o[owner[x]] == ENEMY:
                    if netters is None:
                        netters = [[] for _ in range(NUM_HEXES)]
                    netters[x].append(h)
    netted = list(marker)
    if netters is not None:
        # on-cycle detection: x on a cycle iff x reaches itself
        out = [[] for _ in range(NUM_HEXES)]
        for x in range(NUM_HEXES):
            for h in netters[x]:
                out[h].append(x)
        oncycle = [False] * NUM_HEXES
        for start in range(NUM_HEXES):
            if not out[start]:
                continue
            seen = set()
            stack = list(out[start])
            while stack:
                y = stack.pop()
                if y == start:
                    oncycle[start] = True
                    break
                if y in seen:
                    continue
                seen.add(y)
                stack.extend(out[y])
        memo = {}

        def is_netted(x):
            if oncycle[x] or marker[x]:
                return True
            r = memo.get(x)
            if r is not None:
                return r
            memo[x] = False  # provisional (cannot recurse into itself off-cycle)
            r = any(not is_netted(y) for y in netters[x])
            memo[x] = r
            return r

        for h in occ:
            netted[h] = is_netted(h)
        touched = [h for h in occ if netted[h]]
    else:
        touched = [h for h in occ if marker[h]] if s.net_marker_on >= 0 else []
    fx = Fx()
    fx.netted = netted
    fx.marker = marker
    init_b = [0] * NUM_HEXES
    melee_b = [0] * NUM_HEXES
    ranged_b = [0] * NUM_HEXES
    tough_b = [0] * NUM_HEXES
    charge_b = [0] * NUM_HEXES
    extra = [0] * NUM_HEXES
    pierce = [False] * NUM_HEXES
    venom = [False] * NUM_HEXES
    maneuver = [False] * NUM_HEXES
    rotate = [False] * NUM_HEXES
    disarmed = [False] * NUM_HEXES
    regen = [()] * NUM_HEXES
    tele = [()] * NUM_HEXES
    fx_effects = tb.fx_effects
    multi = None  # hexes given a regen / tele entry (sorted below when they get several)
    src = []
    for h in occ:
        t = typ[h]
        effs = fx_effects[t]
        if not effs or netted[h]:
            continue
        src.append(h)
        o = owner[h]
        rel_o = REL[o]
        for effect in effs:
            targets = source_targets(tb, rel_o, occ, owner, typ, h, t, fac[h], o, effect)
            if not targets:
                continue
            code, amount, _kmask, _wbits, _scope, feature = effect
            add_effect(code, amount, feature, targets, h, board[h], init_b, melee_b, ranged_b, tough_b, extra,
                        pierce, venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched)
            if code == _TELE or code == _REGEN:
                multi = targets if multi is None else multi + targets
    inits = [()] * NUM_HEXES
    tough = [0] * NUM_HEXES
    armor = [None] * NUM_HEXES
    ent = s.entrench_on
    ALL6 = (True,) * 6
    p_init, p_tough, p_venom, p_maneuver, p_armor = tb.init, tb.tough, tb.venom, tb.maneuver, tb.armor
    for h in occ:
        t = typ[h]
        printed = p_init[t]
        if printed:  # (effective_inits, its common case inline: no bonus, no extra attack)
            inits[h] = effective_inits(printed, init_b[h], extra[h]) if init_b[h] or extra[h] else printed
        tough[h] = p_tough[t] + tough_b[h]
        if p_venom[t]:
            venom[h] = True
        if p_maneuver[t]:
            maneuver[h] = True
        armor[h] = ALL6 if board[h] == ent else p_armor[t][fac[h]]
    if multi is not None:
        for h in multi:
            if len(regen[h]) > 1:
                regen[h] = tuple(sorted(regen[h]))
            if len(tele[h]) > 1:
                tele[h] = tuple(sorted(tele[h], key=lambda i: s.hexof[i]))
    fx.inits = inits
    fx.melee_b = melee_b
    fx.ranged_b = ranged_b
    fx.charge_b = charge_b
    fx.tough = tough
    fx.pierce = pierce
    fx.venom = venom
    fx.maneuver = maneuver
    fx.rotate = rotate
    fx.disarmed = disarmed
    fx.regen = regen
    fx.tele = tele
    fx.armor = armor
    fx.occ = occ
    fx.owner = owner
    fx.typ = typ
    fx.fac = fac
    fx.touched = touched
    fx.init_b = init_b
    fx.extra = extra
    fx.src = src
    fx.memo = {}
    segowner = [-1] * NUM_HEXES
    segk = [-1] * NUM_HEXES
    if g.module:
        for p in range(s.num_players):
            sh = s.seg_hex[p]
            if sh[0] < 0:
                continue
            if s.mono_folded[p]:
                segowner[sh[0]] = p
                segk[sh[0]] = 0
            else:
                for k in range(3):
                    segowner[sh[k]] = p
                    segk[sh[k]] = k
    fx.segowner = segowner
    fx.segk = segk
    return fx



def add_effect(code, amount, feature, targets, src_hex, src_inst, init_b, melee_b, ranged_b, tough, extra,
                pierce, venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched) -> None:
    """Apply one effect of the source on ``src_hex`` (instance ``src_inst``) to ``targets``, in
    :func:`compute_fx` and :func:`place_fx` (``tough`` receives the toughness bonus; regen / tele entries are
    appended, the caller sorts them; hexes whose printed values change are appended to ``touched``)
    (docs/monolith_arena.md §4.6 steps 3-5, §5.3 Rune and aura effects)."""
    if code == _INIT:
        for x in targets:
            init_b[x] += amount
        touched += targets
    elif code == _MELEE:
        for x in targets:
            melee_b[x] += amount
        touched += targets
    elif code == _RANGED:
        for x in targets:
            ranged_b[x] += amount
        touched += targets
    elif code == _TOUGH:
        for x in targets:
            tough[x] += amount
        touched += targets
    elif code == _EXTRA:
        for x in targets:
            extra[x] += 1
        touched += targets
    elif code == _PIERCE:
        for x in targets:
            pierce[x] = True
    elif code == _GRANT:
        flags = venom if feature == "venom" else maneuver if feature == "maneuver" else (
            rotate if feature == "rotate" else None)
        if flags is not None:
            for x in targets:
                flags[x] = True
    elif code == _TELE:
        for x in targets:
            tele[x] = tele[x] + (src_inst,)
    elif code == _REGEN:
        for x in targets:
            regen[x] = regen[x] + (src_hex,)
    elif code == _DISARM:
        for x in targets:
            disarmed[x] = True
        touched += targets
    elif code == _CHARGE:
        for x in targets:
            charge_b[x] += amount


def effective_inits(printed: tuple, bonus: int, extra: int) -> tuple:
    """Effective initiatives of a tile with ``printed`` initiatives (not empty), an initiative ``bonus`` and
    ``extra`` extra attacks (each at one below the lowest effective initiative, at least 0)
    (docs/monolith_arena.md §4.6 step 5, D33)."""
    if not bonus and not extra:
        return printed
    vals = [v + bonus for v in printed]
    if extra:
        m = max(0, min(vals) - 1)
        vals.extend([m] * extra)
    return tuple(vals)


def source_targets(tb, rel_o, occ, owner, typ, h: int, t: int, f: int, o: int, effect) -> list:
    """Occupied hexes that ``effect`` (an entry of ``tb.fx_effects``) of the tile of type ``t`` at facing
    ``f`` owned by ``o`` on hex ``h`` applies to (``rel_o``: relations of ``o``): the scope's candidates
    (connected hexes, neighbours, or all own tiles) holding a tile of an accepted relation and kind; only a
    seat's own tiles are OWN to it (docs/monolith_arena.md §4.6 steps 3-4, §5.3 parameters)."""
    _code, _amount, kmask, wbits, scope, _feature = effect
    kind = tb.kind
    if scope == _BOUNDLESS:
        cand = [x for x in occ if owner[x] == o and x != h]
    elif scope == _ADJACENT:
        cand = NEIGHBOURS[h]
    else:
        cand = tb.conn_hexes[t][f][h]
    out = []  # (plain loops: cheaper than comprehensions over these few candidates)
    if wbits == OWN_BIT:
        for x in cand:
            if owner[x] == o and (kmask >> kind[typ[x]]) & 1:
                out.append(x)
    else:
        for x in cand:
            tx = typ[x]
            if tx >= 0 and (wbits >> rel_o[owner[x]]) & 1 and (kmask >> kind[tx]) & 1:
                out.append(x)
    return out



def get_fx(g, s) -> Fx:
    """Cached :func:`compute_fx` (the cache lives on the state object and is dropped on every change)."""
    fx = s.fx_cache
    if fx is None:
        fx = s.fx_cache = compute_fx(g, s)
    return fx


def dirty_mask(s) -> None:
    """Drop only the cached mask of ``s`` (after changes that leave the continuous effects unchanged:
    hands, decks, sub-phase, per-turn flags, wounds, poison markers, HP).  The inputs of the effects are
    the board, types, facings, the Net-order and entrenchment markers and the Monolith segments."""
    s.mask_cache = None


def dirty(s) -> None:
    """Drop the cached effects and mask of ``s`` (call after any change).

    A cached :class:`Fx` is therefore always that of the current position, which :func:`remove_tile` and
    the engine's placement, move and rotation steps rely on to derive the next one.

    The observation's board rows are tied to the cached effects object and go with it.  The per-deck type
    counts cached by the observation are keyed on the deck length and stay valid, because in play a deck
    only ever loses tiles from its top (docs/monolith_arena.md §9 invariant 4; a Monolith pick is recounted); code that edits
    a deck any other way (position building, resampling) calls :func:`dirty_decks` as well.
    """
    s.fx_cache = None
    s.mask_cache = None


def dirty_decks(s) -> None:
    """Drop every cache of ``s``, the per-deck type counts included (after editing a deck by hand)."""
    dirty(s)
    s.deck_counts = None
