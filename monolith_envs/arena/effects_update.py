"""Incremental updates of the continuous effects (docs/monolith_arena.md §4.6): the effects right after one
placement (:func:`place_fx`), one move or rotation (:func:`move_fx`) or one removal (:func:`remove_fx`),
derived from the previous position's :class:`~monolith_envs.arena.effects.Fx` when that is provably exact
(each function returns None otherwise, and the caller recomputes with
:func:`~monolith_envs.arena.effects.compute_fx`).  The fx-cache tests compare them with the reference at
every step of seeded games.
"""

from __future__ import annotations

from bisect import insort

from .board import ADJ, NB
from .effects import (
    _ADJACENT,
    _BOUNDLESS,
    _CHARGE,
    _DISARM,
    _EXTRA,
    _GRANT,
    _INIT,
    _MELEE,
    _PIERCE,
    _RANGED,
    _REGEN,
    _TELE,
    _TOUGH,
    MEMO_PLACE,
    ONES6,
    ZEROS6,
    Fx,
    add_effect,
    effective_inits,
    source_targets,
)
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .tables import ENEMY, OWN_BIT

__all__ = ["place_fx", "move_fx", "remove_fx", "without_hex"]

ADJ_BOOL = tuple(tuple(bool(v) for v in row) for row in ADJ)
# the effect codes that add their targets to Fx.touched (add_effect)
_TOUCHING = frozenset((_INIT, _MELEE, _RANGED, _TOUGH, _EXTRA, _DISARM))
# NB_BACK[h]: (y, d) for each on-board neighbour y of h, d the direction from y back to h
NB_BACK = tuple(tuple((y, (d + 3) % 6) for d, y in enumerate(NB[h]) if y >= 0) for h in range(len(NB)))


def place_fx(g, s, fx: Fx, h: int):
    """The effects of ``s`` right after one tile was put on the hex ``h``, which was empty in the position
    of ``fx`` (nothing else changed), derived from ``fx``; None when the new tile has Net edges or carries
    the Net-order marker (then use :func:`compute_fx`).

    Exact: a tile without Net edges nets nobody, so every other tile keeps its netted state and every
    existing source keeps its targets; the new tile only adds itself as a target of the existing sources
    and, when it has effects and is not netted, its own targets.
    """
    tb = g.tables
    board = s.board
    inst = board[h]
    t = s.itype[inst]
    if tb.has_net[t] or s.net_marker_on == inst:
        return None
    f = s.facing[inst]
    o = inst // PER_SEAT
    REL = g.rel
    owner, typ = fx.owner, fx.typ
    # is the new tile netted? (its netters: adjacent enemy tiles with a Net edge toward h)
    net_h = False
    has_net, net_dirs, f_netted = tb.has_net, tb.net_dirs, fx.netted
    for y, back in NB_BACK[h]:
        ty = typ[y]
        if ty >= 0 and has_net[ty] and back in net_dirs[ty][fx.fac[y]] and REL[owner[y]][o] == ENEMY \
                and not f_netted[y]:
            net_h = True
            break
    kind = tb.kind
    fx_effects = tb.fx_effects
    kt = kind[t]
    ADJ_ = ADJ_BOOL
    conn_hexes, fx_reach, f_fac = tb.conn_hexes, tb.fx_reach, fx.fac
    # 1. effects of the existing sources on the new tile (ascending source hexes, as compute_fx)
    hits = []
    for x in fx.src:
        tx = typ[x]
        if not (fx_reach[tx][f_fac[x]][x] >> h) & 1:
            continue  # no effect of x reaches h (each would fail its scope test below)
        ox = owner[x]
        for code, amount, kmask, wbits, scope, feature in fx_effects[tx]:
            if not (kmask >> kt) & 1:
                continue
            if wbits == OWN_BIT:
                if ox != o:
                    continue
            elif not (wbits >> REL[ox][o]) & 1:
                continue
            if scope == _BOUNDLESS:
                if ox != o:
                    continue
            elif scope == _ADJACENT:
                if not ADJ_[x][h]:
                    continue
            elif h not in conn_hexes[tx][f_fac[x]][x]:
                continue
            hits.append((code, amount, feature, x))
    effs = () if net_h else fx_effects[t]
    occ = fx.occ.copy()
    insort(occ, h)
    owner = list(owner)
    owner[h] = o
    typ = list(typ)
    typ[h] = t
    fac = list(fx.fac)
    fac[h] = f
    if net_h:
        netted = list(f_netted)
        netted[h] = True
        touched = fx.touched + [h]
    else:
        netted = f_netted
        touched = fx.touched
    tough = list(fx.tough)
    venom, maneuver = fx.venom, fx.maneuver
    changed = ()
    multi = ()  # hexes that got a regen / tele entry
    if hits or effs:
        # copy only the lists that the codes of these effects write (add_effect), share the others
        codes = tb.fx_codes[t] if effs else frozenset()
        if hits:
            codes = codes.union([hit[0] for hit in hits])
        if not codes.isdisjoint(_TOUCHING):
            touched = list(touched)
        init_b = list(fx.init_b) if _INIT in codes else fx.init_b
        melee_b = list(fx.melee_b) if _MELEE in codes else fx.melee_b
        ranged_b = list(fx.ranged_b) if _RANGED in codes else fx.ranged_b
        extra = list(fx.extra) if _EXTRA in codes else fx.extra
        pierce = list(fx.pierce) if _PIERCE in codes else fx.pierce
        if _GRANT in codes:
            venom, maneuver, rotate = list(venom), list(maneuver), list(fx.rotate)
        else:
            rotate = fx.rotate
        if _TELE in codes or _REGEN in codes:  # (both: the entries of several sources are sorted below)
            tele, regen = list(fx.tele), list(fx.regen)
        else:
            tele, regen = fx.tele, fx.regen
        disarmed = list(fx.disarmed) if _DISARM in codes else fx.disarmed
        charge_b = list(fx.charge_b) if _CHARGE in codes else fx.charge_b
        multi = []
        for code, amount, feature, x in hits:
            add_effect(code, amount, feature, [h], x, board[x], init_b, melee_b, ranged_b, tough, extra, pierce,
                        venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched)
            if code == _TELE or code == _REGEN:
                multi.append(h)
        # 2. the new tile as a source
        if effs:
            src = fx.src.copy()
            insort(src, h)
            rel_o = REL[o]
            changed = []
            for effect in effs:
                targets = source_targets(tb, rel_o, occ, owner, typ, h, t, f, o, effect)
                if not targets:
                    continue
                code, amount, _kmask, _wbits, _scope, feature = effect
                add_effect(code, amount, feature, targets, h, inst, init_b, melee_b, ranged_b, tough, extra,
                            pierce, venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched)
                if code == _TELE or code == _REGEN:
                    multi += targets
                changed += targets
        else:
            src = fx.src
    else:  # nothing but the new tile's own printed values changes
        init_b, melee_b, ranged_b, extra = fx.init_b, fx.melee_b, fx.ranged_b, fx.extra
        pierce, rotate, tele, regen, disarmed, charge_b = (
            fx.pierce, fx.rotate, fx.tele, fx.regen, fx.disarmed, fx.charge_b)
        src = fx.src
    # 3. effective values of the new tile and of the tiles it affects
    p_init = tb.init
    inits = list(fx.inits)
    tough[h] += tb.tough[t]
    for x in (h, *changed):
        printed = p_init[typ[x]]
        if printed:  # (effective_inits, its common case inline: no bonus, no extra attack)
            inits[x] = effective_inits(printed, init_b[x], extra[x]) if init_b[x] or extra[x] else printed
    if tb.venom[t] and not venom[h]:
        venom = list(venom)
        venom[h] = True
    if tb.maneuver[t] and not maneuver[h]:
        maneuver = list(maneuver)
        maneuver[h] = True
    armor = list(fx.armor)
    armor[h] = (True,) * 6 if inst == s.entrench_on else tb.armor[t][f]
    hexof = s.hexof
    for x in multi:
        if len(regen[x]) > 1:
            regen[x] = tuple(sorted(regen[x]))
        if len(tele[x]) > 1:
            tele[x] = tuple(sorted(tele[x], key=lambda i: hexof[i]))
    nfx = Fx()
    nfx.netted = netted
    nfx.marker = fx.marker
    nfx.inits = inits
    nfx.melee_b = melee_b
    nfx.ranged_b = ranged_b
    nfx.charge_b = charge_b
    nfx.tough = tough
    nfx.pierce = pierce
    nfx.venom = venom
    nfx.maneuver = maneuver
    nfx.rotate = rotate
    nfx.disarmed = disarmed
    nfx.regen = regen
    nfx.tele = tele
    nfx.armor = armor
    nfx.occ = occ
    nfx.owner = owner
    nfx.typ = typ
    nfx.fac = fac
    nfx.touched = touched
    nfx.init_b = init_b
    nfx.extra = extra
    nfx.src = src
    row = fx.memo.get(MEMO_PLACE)
    nfx.memo = {} if row is None else {MEMO_PLACE: row[:6 * h] + ZEROS6 + row[6 * h + 6:]}
    nfx.segowner = fx.segowner
    nfx.segk = fx.segk
    return nfx


def _cleared(values: list, h: int, empty):
    """``values`` with entry ``h`` set to ``empty`` (the same list when it already is)."""
    if values[h] == empty:
        return values
    values = list(values)
    values[h] = empty
    return values


def without_hex(fx: Fx, h: int) -> Fx:
    """``fx`` with the hex ``h`` emptied and nothing else changed (valid when the tile on ``h`` affects no
    other tile: not an effect source, no Net edges, not carrying the Net-order marker)."""
    base = Fx()
    base.occ = [x for x in fx.occ if x != h]
    # (owner, type and armor of an occupied hex are never the empty values: copied without the test)
    base.owner = owner = list(fx.owner)
    owner[h] = -1
    base.typ = typ = list(fx.typ)
    typ[h] = -1
    # (the other empty values are falsy: _cleared is called only when the entry is set)
    base.fac = _cleared(fx.fac, h, 0) if fx.fac[h] else fx.fac
    base.netted = _cleared(fx.netted, h, False) if fx.netted[h] else fx.netted
    base.marker = fx.marker
    base.inits = _cleared(fx.inits, h, ()) if fx.inits[h] else fx.inits
    base.tough = _cleared(fx.tough, h, 0) if fx.tough[h] else fx.tough
    base.armor = armor = list(fx.armor)
    armor[h] = None
    base.init_b = _cleared(fx.init_b, h, 0) if fx.init_b[h] else fx.init_b
    base.extra = _cleared(fx.extra, h, 0) if fx.extra[h] else fx.extra
    base.melee_b = _cleared(fx.melee_b, h, 0) if fx.melee_b[h] else fx.melee_b
    base.ranged_b = _cleared(fx.ranged_b, h, 0) if fx.ranged_b[h] else fx.ranged_b
    base.charge_b = _cleared(fx.charge_b, h, 0) if fx.charge_b[h] else fx.charge_b
    base.pierce = _cleared(fx.pierce, h, False) if fx.pierce[h] else fx.pierce
    base.venom = _cleared(fx.venom, h, False) if fx.venom[h] else fx.venom
    base.maneuver = _cleared(fx.maneuver, h, False) if fx.maneuver[h] else fx.maneuver
    base.rotate = _cleared(fx.rotate, h, False) if fx.rotate[h] else fx.rotate
    base.disarmed = _cleared(fx.disarmed, h, False) if fx.disarmed[h] else fx.disarmed
    base.regen = _cleared(fx.regen, h, ()) if fx.regen[h] else fx.regen
    base.tele = _cleared(fx.tele, h, ()) if fx.tele[h] else fx.tele
    base.touched = [x for x in fx.touched if x != h] if h in fx.touched else fx.touched
    base.src = fx.src
    base.segowner = fx.segowner
    base.segk = fx.segk
    row = fx.memo.get(MEMO_PLACE)
    base.memo = {} if row is None else {MEMO_PLACE: row[:6 * h] + ONES6 + row[6 * h + 6:]}
    return base


def remove_fx(g, s, fx: Fx, h: int):
    """The effects after the tile on hex ``h`` leaves the board (called before the removal, with ``fx``
    the current effects), or None when it has Net edges, carries the Net-order marker or is an active
    source of pierce, grant or disarm effects (then use :func:`compute_fx`).

    Exact: such a tile nets nobody, so every other tile keeps its netted state and every other source its
    targets; its own hex becomes empty and, when it is an active source, its bonuses and Regeneration /
    Teleportation entries are taken off its targets (which stay in ``touched``).
    """
    tb = g.tables
    t = fx.typ[h]
    inst = s.board[h]
    if tb.has_net[t] or inst == s.net_marker_on:
        return None
    if h not in fx.src:
        return without_hex(fx, h)
    effs = tb.fx_effects[t]
    for e in effs:
        if e[0] == _PIERCE or e[0] == _GRANT or e[0] == _DISARM:  # flags: another source may grant the same
            return None
    o = fx.owner[h]
    targets_of = [source_targets(tb, g.rel[o], fx.occ, fx.owner, fx.typ, h, t, fx.fac[h], o, e) for e in effs]
    base = without_hex(fx, h)
    base.src = [x for x in fx.src if x != h]
    # copy only the lists that the codes of its effects with targets change (the others stay shared)
    codes = {effect[0] for effect, targets in zip(effs, targets_of) if targets}
    init_b = list(base.init_b) if _INIT in codes else base.init_b
    melee_b = list(base.melee_b) if _MELEE in codes else base.melee_b
    ranged_b = list(base.ranged_b) if _RANGED in codes else base.ranged_b
    tough = list(base.tough) if _TOUGH in codes else base.tough
    extra = list(base.extra) if _EXTRA in codes else base.extra
    charge_b = list(base.charge_b) if _CHARGE in codes else base.charge_b
    regen = list(base.regen) if _REGEN in codes else base.regen
    tele = list(base.tele) if _TELE in codes else base.tele
    inits = list(base.inits) if _INIT in codes or _EXTRA in codes else base.inits
    changed = []
    for (code, amount, _k, _w, _s, _f), targets in zip(effs, targets_of):
        if not targets:
            continue
        if code == _INIT:
            for x in targets:
                init_b[x] -= amount
            changed += targets
        elif code == _MELEE:
            for x in targets:
                melee_b[x] -= amount
        elif code == _RANGED:
            for x in targets:
                ranged_b[x] -= amount
        elif code == _TOUGH:
            for x in targets:
                tough[x] -= amount
        elif code == _EXTRA:
            for x in targets:
                extra[x] -= 1
            changed += targets
        elif code == _TELE:
            for x in targets:
                tele[x] = tuple(i for i in tele[x] if i != inst)
        elif code == _REGEN:
            for x in targets:
                regen[x] = tuple(r for r in regen[x] if r != h)
        elif code == _CHARGE:
            for x in targets:
                charge_b[x] -= amount
    p_init = tb.init
    typ = base.typ
    for x in changed:
        printed = p_init[typ[x]]
        if printed:  # (effective_inits, its common case inline: no bonus, no extra attack)
            inits[x] = effective_inits(printed, init_b[x], extra[x]) if init_b[x] or extra[x] else printed
    base.init_b, base.melee_b, base.ranged_b, base.tough, base.extra = init_b, melee_b, ranged_b, tough, extra
    base.charge_b, base.regen, base.tele, base.inits = charge_b, regen, tele, inits
    return base


def move_fx(g, s, fx: Fx, src: int, dest: int):
    """The effects of ``s`` right after the tile now on ``dest`` moved there from ``src`` and/or changed its
    facing (``src == dest``: facing only), nothing else changed since ``fx``, derived from ``fx``; None
    when on ``src`` it affected other tiles (an active effect source, Net edges, the Net-order marker),
    or it carries a Monolith segment (then use :func:`compute_fx`).

    Exact: taking such a tile off ``src`` restores the empty-hex values there and changes nothing else;
    putting it on ``dest`` is :func:`place_fx`.
    """
    inst = s.board[dest]
    if (g.tables.has_net[s.itype[inst]] or inst == s.net_marker_on or src in fx.src
            or (g.module and fx.segowner[src] >= 0)):
        return None
    return place_fx(g, s, without_hex(fx, src), dest)
