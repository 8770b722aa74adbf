"""Rules of Monolith Arena (spec §3-§4, §8): content tables, continuous effects, turn flow, Orders,
Features, the Monolith module and Battles.

The engine mutates plain-data :class:`~monolith_envs.arena.state.ArenaState` objects in place.  Continuous
effects (:class:`Fx`) and the legal mask are cached on the state object (not dataclass fields, so clones and
serialisation ignore them) and dropped by :func:`dirty` on every change; after a placement, a move or
rotation, or a removal that provably leaves every other tile's effects unchanged (or changes them by known
amounts), the engine stores effects derived from the previous ones instead (:func:`place_fx`,
:func:`move_fx`, :func:`remove_fx`), equal to what :func:`compute_fx` returns.  ``apply`` never draws
randomness.
"""

from __future__ import annotations

from bisect import insort

import numpy as np

from ..core import returns
from ..core.config import ConfigError
from ..core.game import IllegalActionError
from .actions import Offsets
from .board import ADJ, DIR_BETWEEN, NB, NEIGHBOURS, TRIANGLES
from .state import ArenaState, Eff, Sub

__all__ = ["Rules", "Tables", "tables_for", "Fx", "compute_fx", "place_fx", "move_fx", "remove_fx", "get_fx", "dirty", "dirty_decks", "settle", "KIND_NAMES"]

KIND_NAMES = ("banner", "champion", "rune", "order")

KIND_CODE = {"banner": 0, "champion": 1, "rune": 2, "order": 3}
SCOPE_CONNECTED, SCOPE_ADJACENT, SCOPE_BOUNDLESS = 0, 1, 2


class E:
    """Codes of the continuous (rune / aura) effects of spec §5.3."""

    INIT, MELEE, RANGED, TOUGH, EXTRA, PIERCE, GRANT, TELE, REGEN, DISARM, CHARGE = range(11)
    BY_NAME = {
        "initiative_bonus": INIT, "melee_bonus": MELEE, "ranged_bonus": RANGED, "toughness_bonus": TOUGH,
        "extra_attack": EXTRA, "pierce": PIERCE, "grant": GRANT, "teleport_link": TELE, "regenerate": REGEN,
        "disarm": DISARM, "charge_bonus": CHARGE,
    }


OWN, ALLY, ENEMY = 0, 1, 2
_WHO_RELS = {"own": (OWN,), "enemy": (ENEMY,)}  # accepted relations of an Order's ``who`` (others: not ALLY)
_OWN_BIT = 1 << OWN
_WHO_BITS = {"own": _OWN_BIT, "enemy": 1 << ENEMY, "any": _OWN_BIT | (1 << ENEMY)}


def _kinds_mask(kinds) -> int:
    m = 0
    for k in kinds:
        m |= 1 << KIND_CODE[k]
    return m


class Tables:
    """Per-type tables of one :class:`Content`.

    Attributes (lists indexed by global type id ``t``; ``[t][f][d]`` by facing and board direction):
        T: number of types.  kind[t]: kind code.  tough[t]: printed toughness.  init[t]: tuple of printed
        initiatives.  strike[t]: strike_any strength.  maneuver/cavalry/venom/teleport/swap[t]: printed
        features.  melee[t][f][d], ranged[t][f][d]: strength toward direction d (0 = none).
        armor[t][f][d]: True when the side facing direction d is armored.  net_dirs/kill_dirs/conn_dirs
        [t][f]: tuples of directions.  boundless[t].  effects[t]: tuples ``(code, amount, kinds_mask,
        who, scope, feature)`` with who in {"own","enemy","any"}; fx_effects[t]: the same with ``who`` as a
        bit mask of the accepted relations (bits OWN, ALLY, ENEMY).  conn_hexes[t][f][h]: on-board hexes
        in the connected directions of a tile on hex h.  has_net[t].  order[t]: the order Effect or None.
        id_of[t], name_of[t]; gid_by_id[id]; faction_index[id]; fac_instances[fi]: 35 global type ids.
    """

    def __init__(self, content):
        self.content = content
        types = content.types
        self.T = T = len(types)
        self.kind = [KIND_CODE[t.kind] for t in types]
        self.tough = [int(t.toughness) for t in types]
        self.init = [tuple(int(v) for v in t.initiative) for t in types]
        self.strike = [int(t.strike_any) for t in types]
        self.maneuver = ["maneuver" in t.features for t in types]
        self.cavalry = ["cavalry" in t.features for t in types]
        self.venom = ["venom" in t.features for t in types]
        self.teleport = ["teleport" in t.features for t in types]
        self.swap = ["swap" in t.features for t in types]
        self.boundless = [bool(t.boundless) for t in types]
        self.count = [int(t.count) for t in types]
        self.id_of = [t.id for t in types]
        self.name_of = [t.name for t in types]
        self.local_of = [int(t.local) for t in types]
        self.gid_by_id = {t.id: i for i, t in enumerate(types)}
        self.melee, self.ranged, self.armor = [], [], []
        self.melee_edges = []
        self.net_dirs, self.kill_dirs, self.conn_dirs = [], [], []
        for t in types:
            me = [0] * 6
            for e, s in t.melee:
                me[e % 6] += int(s)
            ra = [0] * 6
            for e, s in t.ranged:
                ra[e % 6] += int(s)
            ar = [False] * 6
            for e in t.armor:
                ar[e % 6] = True
            self.melee_edges.append(tuple(e for e in range(6) if me[e] > 0))
            self.melee.append([[me[(d - f) % 6] for d in range(6)] for f in range(6)])
            self.ranged.append([[ra[(d - f) % 6] for d in range(6)] for f in range(6)])
            self.armor.append([[ar[(d - f) % 6] for d in range(6)] for f in range(6)])
            conn = range(6) if t.boundless else t.connect
            self.net_dirs.append([tuple(sorted((e + f) % 6 for e in set(t.net))) for f in range(6)])
            self.kill_dirs.append([tuple(sorted((e + f) % 6 for e in set(t.kill))) for f in range(6)])
            self.conn_dirs.append([tuple(sorted((e + f) % 6 for e in set(conn))) for f in range(6)])
        self.has_net = [bool(t.net) for t in types]
        self.has_melee = [any(m[0]) for m in self.melee]
        self.has_ranged = [any(r[0]) for r in self.ranged]
        self.effects = []
        for t in types:
            out = []
            for ef in t.effects:
                code = E.BY_NAME.get(ef.effect)
                if code is None:
                    continue
                if t.kind == "banner":
                    scope = SCOPE_ADJACENT if ef.scope != "boundless" else SCOPE_BOUNDLESS
                else:
                    scope = SCOPE_BOUNDLESS if (t.boundless or ef.scope == "boundless") else (
                        SCOPE_ADJACENT if ef.scope == "adjacent" else SCOPE_CONNECTED)
                who = "enemy" if code == E.DISARM else ef.who
                out.append((code, int(ef.amount), _kinds_mask(ef.kinds), who, scope, ef.feature))
            self.effects.append(tuple(out))
        # effects[t] with ``who`` as a bit mask of the accepted relations (bit OWN / ALLY / ENEMY)
        self.fx_effects = [tuple((code, amount, kmask, _WHO_BITS.get(who, 1 << OWN), scope, feature)
                                 for code, amount, kmask, who, scope, feature in effs) for effs in self.effects]
        # conn_hexes[t][f][h]: on-board hexes in the connected directions of a tile on hex h
        self.conn_hexes = [[tuple(tuple(NB[h][d] for d in self.conn_dirs[t][f] if NB[h][d] >= 0) for h in range(19))
                            for f in range(6)] for t in range(T)]
        self.order = [t.order for t in types]
        self.is_regen = [any(e[0] == E.REGEN for e in effs) for effs in self.effects]
        self.tele_uses = [max([int(e.uses) for e in t.effects if e.effect == "teleport_link"] or [0]) for t in types]
        self.faction_index = {f.id: i for i, f in enumerate(content.factions)}
        self.fac_instances = [tuple(f.offset + loc for loc in f.instances) for f in content.factions]
        self.fac_offset = [f.offset for f in content.factions]
        self.fac_ntypes = [len(f.types) for f in content.factions]
        self.fac_hp = [int(f.banner_hp) for f in content.factions]
        # (type, facing) -> directions with a melee attack
        self.melee_dirs = [[tuple(d for d in range(6) if self.melee[t][f][d] > 0) for f in range(6)] for t in range(T)]
        self.ranged_dirs = [[tuple(d for d in range(6) if self.ranged[t][f][d] > 0) for f in range(6)] for t in range(T)]

    def resolve_type(self, t) -> int:
        """Global type id of ``t``: an int id, or a TOML tile id such as ``"de_knight"``.

        Raises:
            KeyError: unknown tile id (the message lists close ids).
        """
        if isinstance(t, (int,)) and not isinstance(t, bool):
            if not 0 <= t < self.T:
                raise KeyError(f"type id {t} outside 0..{self.T - 1}")
            return int(t)
        try:
            return self.gid_by_id[t]
        except KeyError:
            close = [i for i in self.gid_by_id if str(t).split("_")[-1] in i]
            raise KeyError(f"unknown tile id {t!r}; similar: {close[:8]}") from None


_CACHE: dict = {}


def tables_for(content) -> Tables:
    """The cached :class:`Tables` of ``content`` (one per Content object)."""
    key = id(content)
    hit = _CACHE.get(key)
    if hit is not None and hit.content is content:
        return hit
    tab = Tables(content)
    _CACHE[key] = tab
    return tab

# ----------------------------------------------------------------------------------------------------
# Continuous effects (spec §4.6)
# ----------------------------------------------------------------------------------------------------


class Fx:
    """Continuous effects of one board position (spec §4.6), per hex (lists of 19).

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
            see ``_MEMO_PLACE``).

    An ``Fx`` is never modified once built: :func:`place_fx`, :func:`move_fx` and :func:`remove_fx` derive
    a new one from the previous position's (sharing the lists that do not change).
    """

    __slots__ = ("netted", "disarmed", "marker", "inits", "melee_b", "ranged_b", "charge_b", "tough", "pierce",
                 "venom", "maneuver", "rotate", "regen", "tele", "segowner", "segk", "armor",
                 "occ", "owner", "typ", "fac", "touched", "init_b", "extra", "src", "memo")


_ONES6 = b"\x01" * 6
_ZEROS6 = bytes(6)

# Keys of ``Fx.memo`` (values derived from the position only, used by the MAIN legal mask):
# _MEMO_PLACE: the PLACE row of one hand slot (bytes, 6 facings per hex, 1 on empty hexes);
# -2 - seat: Rules._feature_rows(s, fx, seat); 8 * t + 2 * seat + last_round: effect_legal of Order type t;
# -20 - seat: whether seat's folded Monolith has a free pair of hexes to unfold into (Rules.can_unfold).
_MEMO_PLACE = -1


def _place_row(board) -> bytes:
    """The PLACE row of one hand slot: 6 bytes per hex, 1 when the hex is empty."""
    return b"".join([_ONES6 if x < 0 else _ZEROS6 for x in board])


def _rel_matrix(n: int, teams: bool):
    team = [p % 2 if teams else p for p in range(n)]
    return [[OWN if a == b else (ALLY if team[a] == team[b] else ENEMY) for b in range(n)] for a in range(n)], team


def compute_fx(g, s) -> Fx:
    """Compute the continuous effects of ``s`` (pure; no removal). See :class:`Fx`."""
    tb = g.tables
    board, itype, facing = s.board, s.itype, s.facing
    REL = g.rel
    occ = []
    owner = [-1] * 19
    typ = [-1] * 19
    fac = [0] * 19
    h = 0
    for i in board:
        if i >= 0:
            occ.append(h)
            owner[h] = i // 35
            typ[h] = itype[i]
            fac[h] = facing[i]
        h += 1
    # 1. nets
    marker = [False] * 19
    if s.net_marker_on >= 0 and s.loc[s.net_marker_on] == 2:
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
                        netters = [[] for _ in range(19)]
                    netters[x].append(h)
    netted = list(marker)
    if netters is not None:
        # on-cycle detection: x on a cycle iff x reaches itself
        out = [[] for _ in range(19)]
        for x in range(19):
            for h in netters[x]:
                out[h].append(x)
        oncycle = [False] * 19
        for start in range(19):
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
    init_b = [0] * 19
    melee_b = [0] * 19
    ranged_b = [0] * 19
    tough_b = [0] * 19
    charge_b = [0] * 19
    extra = [0] * 19
    pierce = [False] * 19
    venom = [False] * 19
    maneuver = [False] * 19
    rotate = [False] * 19
    disarmed = [False] * 19
    regen = [()] * 19
    tele = [()] * 19
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
            targets = _source_targets(tb, rel_o, occ, owner, typ, h, t, fac[h], o, effect)
            if not targets:
                continue
            code, amount, _kmask, _wbits, _scope, feature = effect
            _add_effect(code, amount, feature, targets, h, board[h], init_b, melee_b, ranged_b, tough_b, extra,
                        pierce, venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched)
            if code == 7 or code == 8:
                multi = targets if multi is None else multi + targets
    inits = [()] * 19
    tough = [0] * 19
    armor = [None] * 19
    ent = s.entrench_on
    ALL6 = (True,) * 6
    p_init, p_tough, p_venom, p_maneuver, p_armor = tb.init, tb.tough, tb.venom, tb.maneuver, tb.armor
    for h in occ:
        t = typ[h]
        if p_init[t]:
            inits[h] = _inits(p_init[t], init_b[h], extra[h])
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
    segowner = [-1] * 19
    segk = [-1] * 19
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


def _add_effect(code, amount, feature, targets, src_hex, src_inst, init_b, melee_b, ranged_b, tough, extra,
                pierce, venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched) -> None:
    """Apply one effect of the source on ``src_hex`` (instance ``src_inst``) to ``targets``, in
    :func:`compute_fx` and :func:`place_fx` (``tough`` receives the toughness bonus; regen / tele entries are
    appended, the caller sorts them; hexes whose printed values change are appended to ``touched``)."""
    if code == 0:
        for x in targets:
            init_b[x] += amount
        touched += targets
    elif code == 1:
        for x in targets:
            melee_b[x] += amount
        touched += targets
    elif code == 2:
        for x in targets:
            ranged_b[x] += amount
        touched += targets
    elif code == 3:
        for x in targets:
            tough[x] += amount
        touched += targets
    elif code == 4:
        for x in targets:
            extra[x] += 1
        touched += targets
    elif code == 5:
        for x in targets:
            pierce[x] = True
    elif code == 6:
        flags = venom if feature == "venom" else maneuver if feature == "maneuver" else (
            rotate if feature == "rotate" else None)
        if flags is not None:
            for x in targets:
                flags[x] = True
    elif code == 7:
        for x in targets:
            tele[x] = tele[x] + (src_inst,)
    elif code == 8:
        for x in targets:
            regen[x] = regen[x] + (src_hex,)
    elif code == 9:
        for x in targets:
            disarmed[x] = True
        touched += targets
    elif code == 10:
        for x in targets:
            charge_b[x] += amount


def _inits(printed: tuple, bonus: int, extra: int) -> tuple:
    """Effective initiatives of a tile with ``printed`` initiatives (not empty), an initiative ``bonus`` and
    ``extra`` extra attacks (each at one below the lowest effective initiative, at least 0)."""
    if not bonus and not extra:
        return printed
    vals = [v + bonus for v in printed]
    if extra:
        m = max(0, min(vals) - 1)
        vals.extend([m] * extra)
    return tuple(vals)


def _source_targets(tb, rel_o, occ, owner, typ, h: int, t: int, f: int, o: int, effect) -> list:
    """Occupied hexes that ``effect`` (an entry of ``tb.fx_effects``) of the tile of type ``t`` at facing
    ``f`` owned by ``o`` on hex ``h`` applies to (``rel_o``: relations of ``o``): the scope's candidates
    (connected hexes, neighbours, or all own tiles) holding a tile of an accepted relation and kind; only a
    seat's own tiles are OWN to it."""
    _code, _amount, kmask, wbits, scope, _feature = effect
    kind = tb.kind
    if scope == 2:
        cand = [x for x in occ if owner[x] == o and x != h]
    elif scope == 1:
        cand = NEIGHBOURS[h]
    else:
        cand = tb.conn_hexes[t][f][h]
    if wbits == _OWN_BIT:
        return [x for x in cand if owner[x] == o and (kmask >> kind[typ[x]]) & 1]
    return [x for x in cand if typ[x] >= 0 and (wbits >> rel_o[owner[x]]) & 1 and (kmask >> kind[typ[x]]) & 1]


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
    o = inst // 35
    REL = g.rel
    owner, typ = fx.owner, fx.typ
    # is the new tile netted? (its netters: adjacent enemy tiles with a Net edge toward h)
    net_h = False
    has_net, net_dirs, f_netted = tb.has_net, tb.net_dirs, fx.netted
    for y, back in _NB_BACK[h]:
        ty = typ[y]
        if ty >= 0 and has_net[ty] and back in net_dirs[ty][fx.fac[y]] and REL[owner[y]][o] == ENEMY \
                and not f_netted[y]:
            net_h = True
            break
    kind = tb.kind
    fx_effects = tb.fx_effects
    kt = kind[t]
    ADJ_ = _ADJ
    conn_hexes = tb.conn_hexes
    # 1. effects of the existing sources on the new tile (ascending source hexes, as compute_fx)
    hits = []
    for x in fx.src:
        ox = owner[x]
        for code, amount, kmask, wbits, scope, feature in fx_effects[typ[x]]:
            if not (kmask >> kt) & 1:
                continue
            if wbits == _OWN_BIT:
                if ox != o:
                    continue
            elif not (wbits >> REL[ox][o]) & 1:
                continue
            if scope == 2:
                if ox != o:
                    continue
            elif scope == 1:
                if not ADJ_[x][h]:
                    continue
            elif h not in conn_hexes[typ[x]][fx.fac[x]][x]:
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
        touched = list(touched)
        init_b, melee_b, ranged_b, extra = list(fx.init_b), list(fx.melee_b), list(fx.ranged_b), list(fx.extra)
        pierce, venom, maneuver, rotate, tele, regen, disarmed, charge_b = (
            list(fx.pierce), list(venom), list(maneuver), list(fx.rotate), list(fx.tele), list(fx.regen),
            list(fx.disarmed), list(fx.charge_b))
        multi = []
        for code, amount, feature, x in hits:
            _add_effect(code, amount, feature, [h], x, board[x], init_b, melee_b, ranged_b, tough, extra, pierce,
                        venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched)
            if code == 7 or code == 8:
                multi.append(h)
        # 2. the new tile as a source
        if effs:
            src = fx.src.copy()
            insort(src, h)
            rel_o = REL[o]
            changed = []
            for effect in effs:
                targets = _source_targets(tb, rel_o, occ, owner, typ, h, t, f, o, effect)
                if not targets:
                    continue
                code, amount, _kmask, _wbits, _scope, feature = effect
                _add_effect(code, amount, feature, targets, h, inst, init_b, melee_b, ranged_b, tough, extra,
                            pierce, venom, maneuver, rotate, tele, regen, disarmed, charge_b, touched)
                if code == 7 or code == 8:
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
        if p_init[typ[x]]:
            inits[x] = _inits(p_init[typ[x]], init_b[x], extra[x])
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
    row = fx.memo.get(_MEMO_PLACE)
    nfx.memo = {} if row is None else {_MEMO_PLACE: row[:6 * h] + _ZEROS6 + row[6 * h + 6:]}
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


def _without(fx: Fx, h: int) -> Fx:
    """``fx`` with the hex ``h`` emptied and nothing else changed (valid when the tile on ``h`` affects no
    other tile: not an effect source, no Net edges, not carrying the Net-order marker)."""
    base = Fx()
    base.occ = [x for x in fx.occ if x != h]
    base.owner = _cleared(fx.owner, h, -1)
    base.typ = _cleared(fx.typ, h, -1)
    base.fac = _cleared(fx.fac, h, 0)
    base.netted = _cleared(fx.netted, h, False)
    base.marker = fx.marker
    base.inits = _cleared(fx.inits, h, ())
    base.tough = _cleared(fx.tough, h, 0)
    base.armor = _cleared(fx.armor, h, None)
    base.init_b = _cleared(fx.init_b, h, 0)
    base.extra = _cleared(fx.extra, h, 0)
    base.melee_b = _cleared(fx.melee_b, h, 0)
    base.ranged_b = _cleared(fx.ranged_b, h, 0)
    base.charge_b = _cleared(fx.charge_b, h, 0)
    base.pierce = _cleared(fx.pierce, h, False)
    base.venom = _cleared(fx.venom, h, False)
    base.maneuver = _cleared(fx.maneuver, h, False)
    base.rotate = _cleared(fx.rotate, h, False)
    base.disarmed = _cleared(fx.disarmed, h, False)
    base.regen = _cleared(fx.regen, h, ())
    base.tele = _cleared(fx.tele, h, ())
    base.touched = [x for x in fx.touched if x != h] if h in fx.touched else fx.touched
    base.src = fx.src
    base.segowner = fx.segowner
    base.segk = fx.segk
    row = fx.memo.get(_MEMO_PLACE)
    base.memo = {} if row is None else {_MEMO_PLACE: row[:6 * h] + _ONES6 + row[6 * h + 6:]}
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
        return _without(fx, h)
    effs = tb.fx_effects[t]
    for e in effs:
        if e[0] == 5 or e[0] == 6 or e[0] == 9:  # flags: another source may grant the same
            return None
    o = fx.owner[h]
    targets_of = [_source_targets(tb, g.rel[o], fx.occ, fx.owner, fx.typ, h, t, fx.fac[h], o, e) for e in effs]
    base = _without(fx, h)
    base.src = [x for x in fx.src if x != h]
    init_b, melee_b, ranged_b, tough, extra, charge_b, regen, tele, inits = (
        list(base.init_b), list(base.melee_b), list(base.ranged_b), list(base.tough), list(base.extra),
        list(base.charge_b), list(base.regen), list(base.tele), list(base.inits))
    changed = []
    for (code, amount, _k, _w, _s, _f), targets in zip(effs, targets_of):
        if not targets:
            continue
        if code == 0:
            for x in targets:
                init_b[x] -= amount
            changed += targets
        elif code == 1:
            for x in targets:
                melee_b[x] -= amount
        elif code == 2:
            for x in targets:
                ranged_b[x] -= amount
        elif code == 3:
            for x in targets:
                tough[x] -= amount
        elif code == 4:
            for x in targets:
                extra[x] -= 1
            changed += targets
        elif code == 7:
            for x in targets:
                tele[x] = tuple(i for i in tele[x] if i != inst)
        elif code == 8:
            for x in targets:
                regen[x] = tuple(r for r in regen[x] if r != h)
        elif code == 10:
            for x in targets:
                charge_b[x] -= amount
    p_init = tb.init
    typ = base.typ
    for x in changed:
        if p_init[typ[x]]:
            inits[x] = _inits(p_init[typ[x]], init_b[x], extra[x])
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
    return place_fx(g, s, _without(fx, src), dest)


def get_fx(g, s) -> Fx:
    """Cached :func:`compute_fx` (the cache lives on the state object and is dropped on every change)."""
    fx = s.fx_cache
    if fx is None:
        fx = compute_fx(g, s)
        s.fx_cache = fx
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
    only ever loses tiles from its top (spec §9 invariant 4; a Monolith pick is recounted); code that edits
    a deck any other way (position building, resampling) calls :func:`dirty_decks` as well.
    """
    s.fx_cache = None
    s.mask_cache = None


def dirty_decks(s) -> None:
    """Drop every cache of ``s``, the per-deck type counts included (after editing a deck by hand)."""
    dirty(s)
    s.deck_counts = None

# ----------------------------------------------------------------------------------------------------
# Board mutation helpers
# ----------------------------------------------------------------------------------------------------

L_DECK, L_HAND, L_BOARD, L_MONO, L_DISCARD, L_OUT, L_SETUP = 0, 1, 2, 3, 4, 5, 6


def _clear_markers(s, inst: int) -> None:
    if s.poison[inst]:
        s.poison_supply += s.poison[inst]
        s.poison[inst] = 0
    if s.net_marker_on == inst:
        s.net_marker_on = -1
    if s.entrench_on == inst:
        s.entrench_on = -1
    s.wounds[inst] = 0


def _drop_segment_ref(s, inst: int) -> None:
    for p in range(s.num_players):
        sc = s.seg_content[p]
        for k in (0, 1):
            if sc[k] == inst:
                sc[k] = -1


def remove_tile(g, s, inst: int, to: int = L_DISCARD) -> None:
    """Take ``inst`` off the board (or out of a Monolith) to its discard pile (or ``L_OUT``).

    Markers return to their supplies and wounds are cleared (spec §4.6 step 6, §2.3).  A segment whose
    content leaves becomes empty.  The cached mask is dropped; the cached effects are replaced by
    :func:`remove_fx` when it applies, else dropped.
    """
    h = s.hexof[inst]
    nfx = None
    if h >= 0 and s.board[h] == inst:
        fx = s.fx_cache  # (a cached Fx is always that of the current position)
        if fx is not None:
            nfx = remove_fx(g, s, fx, h)
        s.board[h] = -1
    s.hexof[inst] = -1
    if g.module:
        _drop_segment_ref(s, inst)
    _clear_markers(s, inst)
    s.loc[inst] = to
    if to == L_DISCARD:
        s.discard[inst // 35].append(inst)
    dirty(s)
    if nfx is not None:
        s.fx_cache = nfx


def settle(g, s) -> Fx:
    """State check (spec §4.6 step 6, D14): recompute effects and remove every non-Banner tile with
    ``wounds > toughness`` until nothing changes. Returns the final :class:`Fx`."""
    while True:
        fx = get_fx(g, s)
        wounds = s.wounds
        if wounds.count(0) == len(wounds):  # no wounds (toughness is never negative: printed >= 0, bonuses >= 1)
            return fx
        board, tough = s.board, fx.tough
        dead = [board[h] for h in fx.occ if wounds[board[h]] > tough[h] and board[h] % 35]
        if not dead:
            return fx
        for i in dead:
            remove_tile(g, s, i)


def seg_of_tile(g, s, fx, h: int):
    """``(owner, k)`` of the Monolith segment carried by the tile on hex ``h`` (k 0-2), or None."""
    if not g.module:
        return None
    p = fx.segowner[h]
    if p < 0:
        return None
    return p, fx.segk[h]


def can_relocate(g, s, fx, src: int, dest: int) -> bool:
    """May the tile on ``src`` relocate to ``dest`` (spec §4.5, D41, D42, inseparability)?"""
    if dest < 0 or dest == src or s.board[dest] >= 0:
        return False
    if not g.module:
        return True
    p = fx.segowner[src]
    if p < 0:
        return True  # not in a segment: any empty hex, empty segments included
    if fx.segowner[dest] >= 0:
        return False
    if s.mono_folded[p]:
        return True
    k = fx.segk[src]
    pos = list(s.seg_hex[p])
    pos[k] = dest
    return _conn3(pos[0], pos[1], pos[2])


def relocate(g, s, fx, inst: int, dest: int) -> None:
    """Move ``inst`` to the empty hex ``dest`` carrying its segment, or entering an empty segment."""
    src = s.hexof[inst]
    carried = None
    if g.module and fx.segowner[src] >= 0:
        carried = (fx.segowner[src], fx.segk[src])
    entering = None
    if g.module and carried is None and fx.segowner[dest] >= 0:
        entering = (fx.segowner[dest], fx.segk[dest])
    s.board[src] = -1
    s.board[dest] = inst
    s.hexof[inst] = dest
    if carried is not None:
        p, k = carried
        if s.mono_folded[p]:
            s.seg_hex[p] = [dest, dest, dest]
        else:
            s.seg_hex[p][k] = dest
    if entering is not None:
        p, k = entering
        if k >= 1 and s.seg_content[p][k - 1] < 0:
            s.seg_content[p][k - 1] = inst
            s.seg_revealed[p][k - 1] = True
    dirty(s)


def place_on_board(g, s, fx, inst: int, h: int, f: int) -> None:
    """Put ``inst`` on the empty hex ``h`` at facing ``f`` (an empty segment there takes it as content)."""
    s.board[h] = inst
    s.hexof[inst] = h
    s.facing[inst] = f
    s.loc[inst] = L_BOARD
    if g.module and fx.segowner[h] >= 0:
        p, k = fx.segowner[h], fx.segk[h]
        if k >= 1 and s.seg_content[p][k - 1] < 0:
            s.seg_content[p][k - 1] = inst
            s.seg_revealed[p][k - 1] = True
    dirty(s)

# ----------------------------------------------------------------------------------------------------
# The rules engine (turn flow, orders, features, Monolith, battles, masks)
# ----------------------------------------------------------------------------------------------------

_SUB_NAMES = [s.name for s in Sub]
# sub-phases whose legal options do not read the continuous effects (CHARGE_FACING, MOVE_FACING,
# AREA_TARGET, ROTATE_FACING, FEATURE_FACING, UNFOLD_FACING, ASSASSIN_TARGET)
_FX_FREE_SUBS = frozenset((7, 10, 16, 19, 21, 25, 26))


_ADJ = tuple(tuple(bool(v) for v in row) for row in ADJ)
# _NB_BACK[h]: (y, d) for each on-board neighbour y of h, d the direction from y back to h
_NB_BACK = tuple(tuple((y, (d + 3) % 6) for d, y in enumerate(NB[h]) if y >= 0) for h in range(19))
_ZEROS35 = [0] * 35


def _strongest_first(hit) -> tuple:
    """Sort key of the ``(strength, source_hex, venom)`` hits on one target: strongest first, then by
    ascending source hex (Regeneration cancels the first ones)."""
    return -hit[0], hit[1]


def _conn3(a: int, b: int, c: int) -> bool:
    """Each of the three hexes is adjacent to at least one of the other two."""
    A = _ADJ
    return (A[a][b] or A[a][c]) and (A[b][a] or A[b][c]) and (A[c][a] or A[c][b])


# _UNFOLD_PAIRS[B]: every (h2, h3), h2 != h3, in ascending order, with _conn3(B, h2, h3)
_UNFOLD_PAIRS = tuple(tuple((a, b) for a in range(19) for b in range(19) if a != b and _conn3(B, a, b))
                      for B in range(19))


class Rules:
    """All rules of spec §3-§4 and §8 for one validated configuration and one :class:`Content`.

    :class:`~monolith_envs.arena.game.ArenaGame` builds on this class; everything here takes the state
    ``s`` explicitly and mutates it in place.
    """

    def __init__(self, config: dict, content):
        self.config = config
        self.content = content
        self.tables = tables_for(content)
        self.n = n = int(config["num_players"])
        self.mode = config["mode"]
        self.team_mode = self.mode == "teams"
        self.ffa = self.mode == "ffa"
        self.module = bool(config["monolith_module"])
        self.reinf = bool(config["reinforcement_variant"])
        self.H = 6 if self.reinf else 3
        self.off = Offsets(self.H)
        self.rel, self.team = _rel_matrix(n, self.team_mode)
        self.team_hp = int(config["team_hp"])
        self.NI = 35 * n
        tb = self.tables
        for f in content.factions:
            if len(f.instances) != 35:
                raise ConfigError(f"faction {f.id!r} has {len(f.instances)} instances, expected 35")
        if config["factions"] != "random":
            for fid in config["factions"]:
                if fid not in tb.faction_index:
                    raise ConfigError(f"monolith_arena_v0: unknown faction {fid!r}; known: {sorted(tb.faction_index)}")
        elif len(content.factions) < n:
            raise ConfigError(f"monolith_arena_v0: {n} players need {n} factions, content has {len(content.factions)}")

    # ------------------------------------------------------------------ setup (spec §3)
    def blank_state(self, faction_indices) -> ArenaState:
        """A state with factions assigned, all tiles not dealt (decks empty), HP set (spec §3 steps 1, 3, 4)."""
        n, H, tb = self.n, self.H, self.tables
        NI = self.NI
        s = ArenaState(num_players=n, hand_size=H)
        s.factions = [int(x) for x in faction_indices]
        s.itype = [tb.fac_instances[s.factions[p]][i] for p in range(n) for i in range(35)]
        s.loc = [L_SETUP] * NI
        s.hexof = [-1] * NI
        s.facing = [0] * NI
        s.wounds = [0] * NI
        s.poison = [0] * NI
        s.used = [0] * NI
        s.board = [-1] * 19
        s.deck = [[] for _ in range(n)]
        s.hand = [[-1] * H for _ in range(n)]
        s.fresh = [[False] * H for _ in range(n)]
        s.discard = [[] for _ in range(n)]
        s.hp = [tb.fac_hp[s.factions[p]] for p in range(n)]
        s.pool = [self.team_hp, self.team_hp] if self.team_mode else [0, 0]
        s.alive = [True] * n
        s.elim_order = [-1] * n
        s.mono_folded = [True] * n
        s.seg_hex = [[-1, -1, -1] for _ in range(n)]
        s.seg_content = [[-1, -1] for _ in range(n)]
        s.seg_revealed = [[False, False] for _ in range(n)]
        s.first_turn_done = [False] * n
        s.last_round_owed = [False] * n
        s.b_acts = [0] * NI
        s.cum_reward = [0.0] * n
        s.sub_phase = int(Sub.SETUP_PICK if self.module else Sub.SETUP_BANNER)
        s.acting_seat = 0
        s.turn_seat = 0
        return s

    def new_state(self, rng) -> ArenaState:
        """Spec §3 steps 1-4: factions (configured or a distinct random draw) and deck permutations."""
        tb = self.tables
        if self.config["factions"] == "random":
            fac = [int(x) for x in rng.choice(len(tb.fac_instances), size=self.n, replace=False)]
        else:
            fac = [tb.faction_index[f] for f in self.config["factions"]]
        s = self.blank_state(fac)
        for p in range(self.n):
            perm = rng.permutation(34) + 1
            s.deck[p] = [p * 35 + int(i) for i in perm]
            for i in s.deck[p]:
                s.loc[i] = L_DECK
        return s

    # ------------------------------------------------------------------ small helpers
    def cap(self, s) -> int:
        """Tile uses allowed this turn (spec §4.2, §4.11)."""
        if not self.reinf:
            return 1_000_000
        return 1 if (s.turn_seat == 0 and not s.first_turn_done[0]) else 2

    def kind_of(self, s, inst: int) -> int:
        """Kind code (0 banner, 1 champion, 2 rune, 3 order) of instance ``inst``."""
        return self.tables.kind[s.itype[inst]]

    def effect_of(self, s):
        """The Effect being resolved for the pending Order (its chosen option for a choice)."""
        ef = self.tables.order[s.itype[s.p_order]]
        if s.p_mode >= 0:
            ef = ef.options[s.p_mode]
        return ef

    def _who_ok(self, seat: int, other: int, who: str) -> bool:
        r = self.rel[seat][other]
        if who == "own":
            return r == OWN
        if who == "enemy":
            return r == ENEMY
        return r != ALLY

    def _kinds_ok(self, s, inst: int, kinds) -> bool:
        return not kinds or KIND_NAMES[self.tables.kind[s.itype[inst]]] in kinds

    def hp_vector(self, s) -> list:
        """HP per seat (teams: the seat's alliance pool), floored at 0."""
        if self.team_mode:
            return [max(0, s.pool[self.team[p]]) for p in range(self.n)]
        return [max(0, h) for h in s.hp]

    # ------------------------------------------------------------------ turn flow (spec §4.1)
    def start_turn(self, s, seat: int) -> None:
        """Begin ``seat``'s turn: reset, compact the hand, draw, then DISCARD or MAIN (spec §4.1 steps 1-3)."""
        H = self.H
        s.turn_seat = seat
        s.acting_seat = seat
        s.discarded = 0
        s.uses = 0
        s.placed = False
        s.unfolded = False
        s.exception_used = False
        s.tele_rune_used = []
        s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1
        base = seat * 35
        s.used[base:base + 35] = _ZEROS35
        kept = [x for x in s.hand[seat] if x >= 0]
        no_discard = False
        target = H
        if not s.first_turn_done[seat] and not self.reinf:
            if seat == 0:
                target, no_discard = 1, True
            elif seat == 1:
                target, no_discard = 2, True
        fresh = [False] * len(kept)
        deck = s.deck[seat]
        drew = False
        while len(kept) < target and deck:
            inst = deck.pop()
            s.loc[inst] = L_HAND
            kept.append(inst)
            fresh.append(True)
            drew = True
        if drew and not deck and not s.last_round:
            s.last_round = True
            s.last_round_owed = [s.alive[p] and p != seat for p in range(self.n)]
        s.hand[seat] = kept + [-1] * (H - len(kept))
        s.fresh[seat] = fresh + [False] * (H - len(fresh))
        s.sub_phase = int(Sub.DISCARD if (len(kept) == H and not no_discard) else Sub.MAIN)
        dirty_mask(s)

    def next_seat(self, s, seat: int) -> int:
        """Next living seat after ``seat`` in turn order."""
        for k in range(1, self.n + 1):
            q = (seat + k) % self.n
            if s.alive[q]:
                return q
        return seat

    def end_turn(self, s) -> None:
        """Spec §4.1 step 6: bookkeeping, then the final Battle or the next living seat's turn."""
        seat = s.turn_seat
        s.last_round_owed[seat] = False
        if s.alive[seat]:
            s.first_turn_done[seat] = True
        s.fresh[seat] = [False] * self.H
        s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1
        if s.last_round and not any(s.last_round_owed):
            s.acting_seat = seat if s.alive[seat] else self.next_seat(s, seat)
            self.start_battle(s, 2)
            return
        self.start_turn(s, self.next_seat(s, seat))

    def back_to_main(self, s) -> None:
        """Return to sub-phase MAIN of the turn seat, clearing the pending selection."""
        s.sub_phase = int(Sub.MAIN)
        s.acting_seat = s.turn_seat
        s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1
        dirty_mask(s)

    # ------------------------------------------------------------------ HP, Banner check, game end (§4.9)
    def lose_hp(self, s, owner: int, amount: int) -> None:
        """``owner``'s Banner (teams: its alliance pool) loses ``amount`` HP, floored at 0 (spec §4.7)."""
        if self.team_mode:
            t = self.team[owner]
            s.pool[t] = max(0, s.pool[t] - amount)
        else:
            s.hp[owner] = max(0, s.hp[owner] - amount)

    def eliminate(self, s, q: int) -> None:
        """Remove ffa seat ``q`` from the game (spec §4.9, D22)."""
        s.alive[q] = False
        s.last_round_owed[q] = False
        base = q * 35
        fx = get_fx(self, s)
        # tiles inside q's folded Monolith leave the game (whoever owns them)
        if self.module:
            if s.mono_folded[q]:
                for k in (0, 1):
                    c = s.seg_content[q][k]
                    if c >= 0 and s.loc[c] == L_MONO:
                        remove_tile(self, s, c, L_OUT)
            s.seg_content[q] = [-1, -1]
            s.seg_hex[q] = [-1, -1, -1]
            s.mono_folded[q] = True
        for i in range(base, base + 35):
            if s.loc[i] in (L_BOARD, L_MONO):
                remove_tile(self, s, i, L_OUT)
        del fx
        dirty(s)

    def game_over(self, s, winners) -> None:
        """End the game with ``winners`` (all seats = draw) and set the terminal returns (spec §8)."""
        s.terminal = True
        s.winners = sorted(int(w) for w in winners)
        s.sub_phase = int(Sub.GAME_OVER)
        s.acting_seat = -1
        s.b_active = False
        s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1
        term = self.terminal_values(s)
        if self.config["reward_mode"] == "score":
            s.cum_reward = [a + b for a, b in zip(s.cum_reward, term)]
        else:
            s.cum_reward = list(term)
        dirty(s)

    def banner_check(self, s) -> bool:
        """Spec §4.9 Banner check; returns True when the game is over."""
        n = self.n
        if self.team_mode:
            a = s.pool[0] <= 0
            b = s.pool[1] <= 0
            if a or b:
                if a and b:
                    self.game_over(s, range(n))
                else:
                    lost = 0 if a else 1
                    self.game_over(s, [p for p in range(n) if self.team[p] != lost])
                return True
            return False
        if not self.ffa:
            dead = [p for p in range(n) if s.hp[p] <= 0]
            if dead:
                self.game_over(s, range(n) if len(dead) == n else [p for p in range(n) if p not in dead])
                return True
            return False
        dead = [p for p in range(n) if s.alive[p] and s.hp[p] <= 0]
        if not dead:
            return False
        for p in dead:
            s.elim_order[p] = s.elim_count
        s.elim_count += 1
        for p in dead:
            self.eliminate(s, p)
        settle(self, s)
        alive = [p for p in range(n) if s.alive[p]]
        if len(alive) == 1:
            self.game_over(s, alive)
            return True
        if not alive:
            self.game_over(s, dead)
            return True
        return False

    def tile_count(self, s, p: int) -> int:
        """Own Champions and Runes on the board (tie-break 1, D17)."""
        kind = self.tables.kind
        return sum(1 for h in range(19) if s.board[h] >= 0 and s.board[h] // 35 == p
                   and kind[s.itype[s.board[h]]] in (1, 2))

    def final_result(self, s) -> None:
        """Winners after the final Battle: HP (pool), then own Champions+Runes, then shared (spec §4.9)."""
        if self.team_mode:
            keys = {}
            for t in (0, 1):
                cnt = sum(self.tile_count(s, p) for p in range(self.n) if self.team[p] == t)
                keys[t] = (s.pool[t], cnt)
            best = max(keys.values())
            wt = [t for t in (0, 1) if keys[t] == best]
            self.game_over(s, [p for p in range(self.n) if self.team[p] in wt])
            return
        cands = [p for p in range(self.n) if s.alive[p]]
        keys = {p: (max(0, s.hp[p]), self.tile_count(s, p)) for p in cands}
        best = max(keys.values())
        self.game_over(s, [p for p in cands if keys[p] == best])

    def terminal_values(self, s) -> list:
        """Terminal reward vector per spec §8 (win_loss, or rank in ffa), float64 (core/returns.py)."""
        n = self.n
        w = set(s.winners)
        if self.config["reward_mode"] == "rank" and self.ffa:
            keys = []
            for p in range(n):
                if p in w:
                    keys.append((2, 0, 0))
                elif s.alive[p]:
                    keys.append((1, max(0, s.hp[p]), self.tile_count(s, p)))
                else:
                    keys.append((0, s.elim_order[p], 0))
            return returns.rank(keys, np.float64).tolist()
        return returns.win_loss(n, w, np.float64).tolist()

    # ------------------------------------------------------------------ resolution steps (§4.7)
    def resolve_step(self, s, fx, hits) -> None:
        """One resolution step: Regeneration, wounds/HP, venom, removal, state check (spec §4.7).

        ``hits``: list of ``(target_hex, strength, source_hex, venom)``; ``fx`` = effects at step start.
        """
        if not hits:
            return
        board = s.board
        tough0 = fx.tough
        by_t = {}
        for x, st, src, ven in hits:
            by_t.setdefault(x, []).append((st, src, ven))
        consumed = []
        cset = set()
        live = []
        regen = fx.regen
        for x in sorted(by_t):
            lst = by_t[x]
            if len(lst) > 1:
                lst.sort(key=_strongest_first)
            k = 0
            if regen[x]:
                runes = [r for r in regen[x] if r not in cset]
                k = min(len(runes), len(lst))
                for r in runes[:k]:
                    cset.add(r)
                    consumed.append(r)
            for st, src, ven in lst[k:]:
                live.append((x, st, src, ven))
        for x, st, _src, _ven in live:
            inst = board[x]
            if inst % 35 == 0:
                self.lose_hp(s, inst // 35, st)
            else:
                s.wounds[inst] += st
        vlist = sorted((x, src) for x, st, src, ven in live if ven and st >= 1)
        for x, _src in vlist:
            inst = board[x]
            if s.poison_supply <= 0:
                break
            # "survives this step" (§4.7 Venom): not removed at its end, so neither a tile over its
            # toughness nor a consumed Regeneration rune (removed "even if it survives" its wounds)
            if inst % 35 == 0 or (s.wounds[inst] <= tough0[x] and x not in cset):
                s.poison[inst] += 1
                s.poison_supply -= 1
        wounds = s.wounds  # (the board is still that of fx: hits change wounds, HP and poison only)
        gone = [board[h] for h in fx.occ if board[h] % 35 and wounds[board[h]] > tough0[h]]
        for r in consumed:
            if board[r] >= 0 and board[r] not in gone:
                gone.append(board[r])
        for i in gone:
            remove_tile(self, s, i)  # (updates or drops the cached effects)
        # wounds, poison and HP are not inputs of the continuous effects: only the mask is stale
        dirty_mask(s)
        settle(self, s)

    def start_battle(self, s, trigger: int) -> None:
        """Start a Battle (trigger 0 Battle Order, 1 board full, 2 final Battle) and run it (spec §4.7)."""
        s.b_active = True
        s.b_trigger = trigger
        s.b_stage = 0
        s.b_phase = -1
        s.b_acts = [0] * self.NI
        s.b_strikes = []
        s.b_targets = []
        s.p_effect = int(Eff.BATTLE)
        self.run_battle(s)

    def activations(self, s, fx, p: int):
        """``[(hex, k)]``: tiles activating ``k`` times in phase ``p`` (spec §4.7 step 3.2, D66)."""
        out = []
        board, b_acts = s.board, s.b_acts
        netted, disarmed, inits = fx.netted, fx.disarmed, fx.inits
        for h in fx.occ:
            vals = inits[h]
            if p not in vals or netted[h] or disarmed[h]:
                continue
            a = vals.count(p)
            # initiatives >= p: all of them when each equals p (the usual single initiative)
            k = (a if len(vals) == a else len([v for v in vals if v >= p])) - b_acts[board[h]]
            if k > a:
                k = a
            if k > 0:
                out.append((h, k))
        return out

    def attack_hits(self, s, fx, h: int, k: int, extra_melee: int = 0, melee_only: bool = False):
        """Hits made by ``k`` activations of the tile on ``h`` (melee and ranged; strikes excluded)."""
        tb = self.tables
        board = s.board
        inst = board[h]
        t = s.itype[inst]
        f = s.facing[inst]
        o = inst // 35
        REL = self.rel[o]
        hits = []
        mb = fx.melee_b[h] + extra_melee
        ven = fx.venom[h]
        mrow = tb.melee[t][f]
        nb = NB[h]
        for d in tb.melee_dirs[t][f]:
            x = nb[d]
            if x >= 0 and board[x] >= 0 and REL[board[x] // 35] == ENEMY:
                hits += [(x, mrow[d] + mb, h, ven)] * k
        if melee_only:
            return hits
        rrow = tb.ranged[t][f]
        for d in tb.ranged_dirs[t][f]:
            s0 = rrow[d] + fx.ranged_b[h]
            back = (d + 3) % 6
            x = NB[h][d]
            while x >= 0:
                j = board[x]
                if j >= 0 and REL[j // 35] == ENEMY:
                    st = s0 - (1 if fx.armor[x][back] else 0)
                    if st > 0:
                        hits += [(x, st, h, False)] * k
                    if not fx.pierce[h]:
                        break
                x = NB[x][d]
        return hits

    def run_battle(self, s) -> None:
        """Run the Battle from its stored resume point until it ends or needs an ASSASSIN_TARGET choice."""
        tb = self.tables
        while True:
            if s.terminal:
                return
            st = s.b_stage
            if st == 0:
                fx = settle(self, s)
                self.kill_step(s, fx)
                fx = settle(self, s)
                P = 0
                inits = fx.inits
                for h in fx.occ:
                    if inits[h]:
                        P = max(P, max(inits[h]))
                s.b_phase = P
                s.b_stage = 1
            elif st == 1:
                p = s.b_phase
                if p < 0:
                    s.b_stage = 2
                    continue
                fx = settle(self, s)
                acts = self.activations(s, fx, p)
                strikes = []
                for h, k in acts:
                    if tb.strike[s.itype[s.board[h]]] > 0:
                        strikes.extend([h] * k)
                if strikes and len(s.b_targets) < len(strikes):
                    s.b_strikes = strikes
                    s.sub_phase = int(Sub.ASSASSIN_TARGET)
                    s.p_effect = int(Eff.STRIKE)
                    s.p_a = strikes[len(s.b_targets)]
                    s.acting_seat = s.board[s.p_a] // 35
                    dirty_mask(s)
                    return
                hits = []
                for h, k in acts:
                    hits.extend(self.attack_hits(s, fx, h, k))
                for idx, sh in enumerate(strikes):
                    si = s.board[sh]
                    hits.append((s.b_targets[idx], tb.strike[s.itype[si]] + fx.melee_b[sh], sh, fx.venom[sh]))
                for h, k in acts:
                    s.b_acts[s.board[h]] += k
                s.b_strikes = []
                s.b_targets = []
                s.p_a = -1
                self.resolve_step(s, fx, hits)
                if self.banner_check(s):
                    return
                s.b_phase = p - 1
            elif st == 2:
                fx = settle(self, s)
                hits = [(h, s.poison[s.board[h]], -1, False) for h in range(19)
                        if s.board[h] >= 0 and s.poison[s.board[h]] > 0]
                self.resolve_step(s, fx, hits)
                if self.banner_check(s):
                    return
                s.b_stage = 3
            else:
                self.end_of_battle(s)
                return

    def kill_step(self, s, fx) -> None:
        """Spec §4.7 step 2 (D29): kill edges remove enemy non-Banner tiles; killers are removed too."""
        board = s.board
        kill_dirs = self.tables.kill_dirs
        typ, fac, owner, netted, disarmed = fx.typ, fx.fac, fx.owner, fx.netted, fx.disarmed
        marked, killers = set(), set()
        for h in fx.occ:
            kd = kill_dirs[typ[h]][fac[h]]
            if not kd or netted[h] or disarmed[h]:
                continue
            i = board[h]
            rel = self.rel[owner[h]]
            nb = NB[h]
            for d in kd:
                x = nb[d]
                if x >= 0 and board[x] >= 0 and board[x] % 35 and rel[board[x] // 35] == ENEMY:
                    marked.add(board[x])
                    killers.add(i)
        for i in marked | killers:
            remove_tile(self, s, i)

    def end_of_battle(self, s) -> None:
        """Spec §4.7 step 5: Net-order marker off, folding (§4.10), state check, then continue the game."""
        if s.net_marker_on >= 0:
            s.net_marker_on = -1
            dirty(s)
        else:
            dirty_mask(s)  # (the effects do not change)
        if self.module:
            fx = get_fx(self, s)
            fold = []
            for p in range(self.n):
                if not s.alive[p] or s.mono_folded[p] or s.seg_hex[p][0] < 0:
                    continue
                blocked = False
                for c in s.seg_content[p]:
                    if c >= 0 and s.loc[c] == L_BOARD and fx.netted[s.hexof[c]]:
                        blocked = True
                if not blocked:
                    fold.append(p)
            for p in fold:
                for c in s.seg_content[p]:
                    if c >= 0 and s.loc[c] == L_BOARD:
                        s.board[s.hexof[c]] = -1
                        s.hexof[c] = -1
                        s.loc[c] = L_MONO
                b = s.hexof[p * 35]
                s.seg_hex[p] = [b, b, b]
                s.mono_folded[p] = True
            if fold:
                dirty(s)
        settle(self, s)
        s.b_active = False
        s.b_stage = 0
        s.b_phase = -1
        s.b_strikes = []
        s.b_targets = []
        trig = s.b_trigger
        s.b_trigger = -1
        if trig == 2:
            self.final_result(s)
            return
        if trig == 0:
            self.end_turn(s)
            return
        if s.alive[s.turn_seat]:
            self.back_to_main(s)
        else:
            self.end_turn(s)

    # ------------------------------------------------------------------ option enumerations (§5.3, §6.2)
    def _own(self, s, seat, h) -> bool:
        i = s.board[h]
        return i >= 0 and i // 35 == seat

    def _enemy(self, s, seat, h) -> bool:
        i = s.board[h]
        return i >= 0 and self.rel[seat][i // 35] == ENEMY

    def move_tiles(self, s, fx, seat):
        """Hexes of own non-netted tiles a Move Order may pick (a Banner needs a destination, D10)."""
        out = []
        for h in range(19):
            i = s.board[h]
            if i < 0 or i // 35 != seat or fx.netted[h]:
                continue
            if i % 35 == 0 and not any(can_relocate(self, s, fx, h, x) for x in NEIGHBOURS[h]):
                continue
            out.append(h)
        return out

    def move_dests(self, s, fx, h):
        """MOVE_DEST options for the tile on ``h``: its own hex (not a Banner) or adjacent legal hexes."""
        i = s.board[h]
        out = [x for x in NEIGHBOURS[h] if can_relocate(self, s, fx, h, x)]
        if i % 35:
            out.append(h)
        return out

    def charge_facings(self, s, h, dest):
        """Facings at ``dest`` aiming a melee edge of the charger (now on ``h``) at an adjacent enemy."""
        tb = self.tables
        i = s.board[h]
        t = s.itype[i]
        seat = i // 35
        out = []
        for f in range(6):
            for d in tb.melee_dirs[t][f]:
                x = NB[dest][d]
                if x >= 0 and x != h and self._enemy(s, seat, x):
                    out.append(f)
                    break
        return out

    def charge_dests(self, s, fx, h):
        """CHARGE_DEST options: adjacent legal hexes from which some facing aims a melee edge at an enemy."""
        return [x for x in NEIGHBOURS[h] if can_relocate(self, s, fx, h, x) and self.charge_facings(s, h, x)]

    def charge_tiles(self, s, fx, seat):
        """CHARGE_TILE options: own non-netted Cavalry tiles with at least one (destination, facing)."""
        tb = self.tables
        return [h for h in range(19) if self._own(s, seat, h) and not fx.netted[h]
                and tb.cavalry[s.itype[s.board[h]]] and self.charge_dests(s, fx, h)]

    def push_dests(self, s, fx, T, U):
        """Legal Push Back destinations of target ``T`` pushed by ``U`` (spec §5.3 geometry)."""
        d = DIR_BETWEEN[U][T]
        out = []
        for dd in (d, (d + 5) % 6, (d + 1) % 6):
            c = NB[T][dd]
            if c >= 0 and can_relocate(self, s, fx, T, c):
                out.append(c)
        return sorted(out)

    def push_pushers(self, s, fx, seat, T):
        """Own non-netted tiles adjacent to ``T`` with at least one legal push destination."""
        return [U for U in NEIGHBOURS[T] if self._own(s, seat, U) and not fx.netted[U] and self.push_dests(s, fx, T, U)]

    def push_targets(self, s, fx, seat):
        """Enemy non-entrenched tiles with at least one (pusher, destination)."""
        return [T for T in range(19) if self._enemy(s, seat, T) and s.board[T] != s.entrench_on
                and self.push_pushers(s, fx, seat, T)]

    def _match(self, s, seat, h, who, kinds) -> bool:
        i = s.board[h]
        if i < 0 or not self._who_ok(seat, i // 35, who):
            return False
        return not kinds or KIND_NAMES[self.tables.kind[s.itype[i]]] in kinds

    def wound_targets(self, s, fx, seat, ef):
        """Hexes of tiles matching the Order's ``who``/``kinds`` (WOUND_TARGET)."""
        return [h for h in range(19) if self._match(s, seat, h, ef.who, ef.kinds)]

    def entrench_targets(self, s, fx, seat, ef):
        """Hexes of own tiles matching the Order's ``kinds`` (ENTRENCH_TARGET)."""
        return [h for h in range(19) if self._match(s, seat, h, "own", ef.kinds)]

    def rotate_targets(self, s, fx, seat, ef):
        """Hexes of non-netted, non-Banner tiles matching ``who``/``kinds`` (ROTATE_TARGET)."""
        who = ef.who if ef.who in ("own", "enemy", "any") else "any"
        return [h for h in range(19) if self._match(s, seat, h, who, ef.kinds) and not fx.netted[h]
                and s.board[h] % 35 != 0]

    def net_targets(self, s, fx, seat):
        """Hexes of enemy tiles (NET_TARGET)."""
        return [h for h in range(19) if self._enemy(s, seat, h)]

    def area_hits(self, s, seat, tri, ef):
        """Hits of an area Order on triangle ``tri``: own and enemy tiles of ``kinds`` (allies skipped)."""
        who = "enemy" if ef.who == "enemy" else "any"
        return [(h, int(ef.amount), -1, False) for h in TRIANGLES[tri] if self._match(s, seat, h, who, ef.kinds)]

    def effect_legal(self, s, fx, seat, ef) -> bool:
        """True when Order effect ``ef`` has at least one complete legal resolution (spec §5.3).

        Same answers as testing the option lists (``charge_tiles``, ``move_tiles``, ``push_targets``,
        ``net_targets``, ``wound_targets``, ``entrench_targets``, ``rotate_targets``) for emptiness, but
        stops at the first option found.
        """
        name = ef.effect
        if name == "battle":
            return not s.last_round
        if name == "charge":
            return self._can_charge(s, fx, seat)
        if name == "move":
            return self._can_move(s, fx, seat)
        if name == "push_back":
            return self._can_push(s, fx, seat)
        if name == "net_mark":
            return s.net_marker_on < 0 and self._has_match(s, fx, seat, "enemy", ())
        if name == "wound_target":
            return self._has_match(s, fx, seat, ef.who, ef.kinds)
        if name == "wound_area":
            return True
        if name == "entrench":
            return s.entrench_on < 0 and self._has_match(s, fx, seat, "own", ef.kinds)
        if name == "rotate_target":
            return self._has_match(s, fx, seat, ef.who, ef.kinds, rotatable=True)
        if name == "choice":
            return any(self.effect_legal(s, fx, seat, o) for o in ef.options)
        return False

    def _has_match(self, s, fx, seat, who, kinds, rotatable: bool = False) -> bool:
        """Is some tile matching ``who``/``kinds`` on the board (``_match``; ``rotatable``: also not netted and
        not a Banner)?  ``who`` other than "own"/"enemy" accepts every relation but ALLY."""
        rels = _WHO_RELS.get(who, (OWN, ENEMY))
        rel = self.rel[seat]
        kind = self.tables.kind
        owner, typ, netted, board = fx.owner, fx.typ, fx.netted, s.board
        for h in fx.occ:
            if rel[owner[h]] in rels and (not kinds or KIND_NAMES[kind[typ[h]]] in kinds):
                if not rotatable or (not netted[h] and board[h] % 35):
                    return True
        return False

    def _can_move(self, s, fx, seat) -> bool:
        """``bool(move_tiles(s, fx, seat))``."""
        owner, netted, board = fx.owner, fx.netted, s.board
        for h in fx.occ:
            if owner[h] == seat and not netted[h]:
                if board[h] % 35 or any(can_relocate(self, s, fx, h, x) for x in NEIGHBOURS[h]):
                    return True
        return False

    def _can_charge(self, s, fx, seat) -> bool:
        """``bool(charge_tiles(s, fx, seat))``."""
        owner, netted, typ, cavalry = fx.owner, fx.netted, fx.typ, self.tables.cavalry
        for h in fx.occ:
            if owner[h] == seat and not netted[h] and cavalry[typ[h]]:
                for x in NEIGHBOURS[h]:
                    if can_relocate(self, s, fx, h, x) and self.charge_facings(s, h, x):
                        return True
        return False

    def _can_push(self, s, fx, seat) -> bool:
        """``bool(push_targets(s, fx, seat))``."""
        rel = self.rel[seat]
        owner, netted, board = fx.owner, fx.netted, s.board
        ent = s.entrench_on
        for T in fx.occ:
            if rel[owner[T]] != ENEMY or board[T] == ent:
                continue
            nb = NB[T]
            for U in NEIGHBOURS[T]:
                if owner[U] == seat and not netted[U]:
                    d = DIR_BETWEEN[U][T]
                    for dd in (d, (d + 5) % 6, (d + 1) % 6):
                        c = nb[dd]
                        if c >= 0 and can_relocate(self, s, fx, T, c):
                            return True
        return False

    def feature_dests(self, s, fx, h, teleport: bool):
        """FEATURE_DEST options: maneuver = own hex or adjacent legal; teleport = any legal hex."""
        if teleport:
            return [x for x in range(19) if can_relocate(self, s, fx, h, x)]
        return [h] + [x for x in NEIGHBOURS[h] if can_relocate(self, s, fx, h, x)]

    def swap_partners(self, s, fx, seat, h):
        """Own non-netted Champions (not the swapper, not in a segment) the tile on ``h`` may swap with."""
        tb = self.tables
        return [x for x in range(19) if x != h and self._own(s, seat, x) and not fx.netted[x]
                and tb.kind[s.itype[s.board[x]]] == 1 and (not self.module or fx.segowner[x] < 0)]

    def unfold_pairs(self, s, fx, seat):
        """Valid ``(h2, h3)`` for unfolding ``seat``'s Monolith (spec §4.10)."""
        board, segowner = s.board, fx.segowner
        free = [board[h] < 0 and segowner[h] < 0 for h in range(19)]
        return [(a, b) for a, b in _UNFOLD_PAIRS[s.hexof[seat * 35]] if free[a] and free[b]]

    def can_unfold(self, s, fx, seat) -> bool:
        """All UNFOLD conditions of spec §4.10 for ``seat``."""
        if not (self.module and s.mono_folded[seat] and not s.unfolded and s.discarded > 0 and not s.placed
                and s.seg_hex[seat][0] >= 0):
            return False
        key = -20 - seat  # whether a pair exists depends on the position only (fx.memo)
        ok = fx.memo.get(key)
        if ok is None:
            board, segowner = s.board, fx.segowner
            free = [board[h] < 0 and segowner[h] < 0 for h in range(19)]
            ok = fx.memo[key] = any(free[a] and free[b] for a, b in _UNFOLD_PAIRS[s.hexof[seat * 35]])
        return ok

    def exception_hexes(self, s, fx, seat):
        """Hexes of own empty Monolith segments available to the exception placement (D26)."""
        if not self.module or s.mono_folded[seat] or s.exception_used:
            return []
        return [s.seg_hex[seat][k + 1] for k in (0, 1)
                if s.seg_content[seat][k] < 0 and s.board[s.seg_hex[seat][k + 1]] < 0]

    # ------------------------------------------------------------------ masks (spec §6.2)
    def teleport_rune(self, s, fx, h):
        """Instance of the Teleportation Rune the tile on ``h`` would spend, -1 for printed Teleport, None
        when it cannot teleport."""
        i = s.board[h]
        if self.tables.teleport[s.itype[i]]:
            return -1
        for r in fx.tele[h]:
            if s.tele_rune_used.count(r) < self.tables.tele_uses[s.itype[r]]:
                return r
        return None

    def _feature_rows(self, s, fx, seat) -> list:
        """``[(h, inst, maneuver, teleport, swap, rotate)]`` for the own non-netted tiles that could use a
        Feature in this position if it is unused this turn: ``teleport`` 1 = printed, 2 = through a
        Teleportation Rune (its uses left are checked per state), 0 = no (or no legal destination)."""
        tb = self.tables
        board = s.board
        module = self.module
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
            banner = i % 35 == 0
            man = not banner and fx.maneuver[h]
            tele = 0
            if not banner and (tb.teleport[t] or fx.tele[h]) and empty:
                # without a segment on h any empty hex is a destination (can_relocate)
                if not module or segowner[h] < 0 or any(can_relocate(self, s, fx, h, x) for x in range(19)):
                    tele = 1 if tb.teleport[t] else 2
            swap = False
            if tb.swap[t] and not (module and segowner[h] >= 0):
                # swap_partners(s, fx, seat, h) is not empty
                for x in fx.occ:
                    if (x != h and owner[x] == seat and not netted[x] and kind[typ[x]] == 1
                            and not (module and segowner[x] >= 0)):
                        swap = True
                        break
            rot = fx.rotate[h] and not banner
            if man or tele or swap or rot:
                out.append((h, i, man, tele, swap, rot))
        return out

    def compute_mask(self, s) -> np.ndarray:
        """``bool[n]`` legal actions of ``s`` (spec §6.2)."""
        return np.frombuffer(self._mask_bytes(s), np.bool_)

    def _mask_bytes(self, s) -> bytearray:
        """:meth:`compute_mask` as a ``bytearray`` of 0/1 (cheaper to fill than an array)."""
        o = self.off
        m = bytearray(o.n)
        if s.terminal:
            return m
        sp = s.sub_phase
        seat = s.acting_seat
        tb = self.tables
        if sp == 3:  # MAIN
            fx = get_fx(self, s)
            memo = fx.memo  # pieces that depend on the position only (keys: see _MEMO_PLACE)
            hand = s.hand[seat]
            m[o.END] = 1
            can_use = not self.reinf or s.uses < self.cap(s)  # (the cap only binds in the variant)
            unfolded = s.unfolded
            place = None
            for k in range(self.H):
                i = hand[k]
                if i < 0:
                    continue
                m[o.DISCARD + k] = 1
                if not can_use:
                    continue
                t = s.itype[i]
                kd = tb.kind[t]
                if kd == 1 or kd == 2:
                    base = o.PLACE + k * 114
                    if not unfolded:
                        if place is None:
                            place = memo.get(_MEMO_PLACE)
                            if place is None:
                                place = memo[_MEMO_PLACE] = _place_row(s.board)
                        m[base: base + 114] = place
                    elif s.fresh[seat][k]:
                        for h in self.exception_hexes(s, fx, seat):
                            m[base + h * 6: base + h * 6 + 6] = _ONES6
                elif kd == 3:
                    # the effects read the position and, for a Battle, the last-round flag only
                    key = 8 * t + 2 * seat + (1 if s.last_round else 0)
                    ok = memo.get(key)
                    if ok is None:
                        ok = memo[key] = self.effect_legal(s, fx, seat, tb.order[t])
                    if ok:
                        m[o.ORDER + k] = 1
            feats = memo.get(-2 - seat)
            if feats is None:
                feats = memo[-2 - seat] = self._feature_rows(s, fx, seat)
            if feats:
                used = s.used
                F = o.FEATURE
                for h, i, man, tele, swap, rot in feats:
                    u = used[i]
                    if man and not u & 1:
                        m[F + h] = 1
                    if tele and not u & 2 and (tele == 1 or self.teleport_rune(s, fx, h) is not None):
                        m[F + 19 + h] = 1
                    if swap and not u & 4:
                        m[F + 38 + h] = 1
                    if rot and not u & 8:
                        m[F + 57 + h] = 1
            if self.module and self.can_unfold(s, fx, seat):
                m[o.UNFOLD] = 1
            return m
        if sp == 2:  # DISCARD
            for k in range(self.H):
                if s.hand[seat][k] >= 0:
                    m[o.DISCARD + k] = 1
            return m
        if sp == 0:  # SETUP_PICK
            fi = s.factions[seat]
            off = tb.fac_offset[fi]
            deck_types = {}
            for i in s.deck[seat]:
                deck_types[s.itype[i]] = 1
            for loc in range(tb.fac_ntypes[fi]):
                t = off + loc
                if tb.kind[t] in (1, 2) and t in deck_types:
                    m[o.PICK + loc] = 1
            return m
        if sp == 1:  # SETUP_BANNER
            for h in range(19):
                if s.board[h] < 0:
                    m[o.HEX + h] = 1
            return m
        fx = None if sp in _FX_FREE_SUBS else get_fx(self, s)
        hexes = None
        rots = None
        if sp == 4:  # ORDER_MODE
            ef = tb.order[s.itype[s.p_order]]
            for k, opt in enumerate(ef.options[:5]):
                if self.effect_legal(s, fx, seat, opt):
                    m[o.MODE + k] = 1
            return m
        if sp == 5:
            hexes = self.charge_tiles(s, fx, seat)
        elif sp == 6:
            hexes = self.charge_dests(s, fx, s.p_a)
        elif sp == 7:
            rots = self.charge_facings(s, s.p_a, s.p_b)
        elif sp == 8:
            hexes = self.move_tiles(s, fx, seat)
        elif sp == 9:
            hexes = self.move_dests(s, fx, s.p_a)
        elif sp == 10:
            cur = s.facing[s.board[s.p_a]]
            rots = [f for f in range(6) if s.p_b != s.p_a or f != cur]
        elif sp == 11:
            hexes = self.push_targets(s, fx, seat)
        elif sp == 12:
            hexes = self.push_pushers(s, fx, seat, s.p_a)
        elif sp == 13:
            hexes = self.push_dests(s, fx, s.p_a, s.p_b)
        elif sp == 14:
            hexes = self.net_targets(s, fx, seat)
        elif sp == 15:
            hexes = self.wound_targets(s, fx, seat, self.effect_of(s))
        elif sp == 16:
            m[o.TRI: o.TRI + 24] = b"\x01" * 24
            return m
        elif sp == 17:
            hexes = self.entrench_targets(s, fx, seat, self.effect_of(s))
        elif sp == 18:
            hexes = self.rotate_targets(s, fx, seat, self.effect_of(s))
        elif sp == 19:
            cur = s.facing[s.board[s.p_a]]
            rots = [f for f in range(6) if f != cur]
        elif sp == 20:
            hexes = self.feature_dests(s, fx, s.p_a, s.p_effect == int(Eff.TELEPORT))
        elif sp == 21:
            if s.p_effect == int(Eff.TELEPORT):
                rots = list(range(6))
            else:
                cur = s.facing[s.board[s.p_a]]
                rots = [f for f in range(6) if s.p_b != s.p_a or f != cur]
        elif sp == 22:
            hexes = self.swap_partners(s, fx, seat, s.p_a)
        elif sp == 23:
            hexes = sorted({a for a, b in self.unfold_pairs(s, fx, seat)})
        elif sp == 24:
            hexes = [b for a, b in self.unfold_pairs(s, fx, seat) if a == s.p_a]
        elif sp == 25:
            rots = list(range(6))
        elif sp == 26:
            hexes = [h for h in range(19) if self._enemy(s, seat, h)]
        if hexes:
            for h in hexes:
                m[o.HEX + h] = 1
        if rots:
            for f in rots:
                m[o.ROT + f] = 1
        return m

    def legal_mask(self, s) -> np.ndarray:
        """Cached :meth:`compute_mask` (a fresh copy is returned)."""
        mk = s.mask_cache
        if mk is None:
            mk = self.compute_mask(s)
            s.mask_cache = mk
        return mk.copy()

    # ------------------------------------------------------------------ apply
    def illegal(self, s, a, why=None):
        """An :class:`IllegalActionError` for action ``a`` naming the reason and the legal actions."""
        lay = self.layout
        try:
            asked = lay.decode(int(a))
        except (ValueError, TypeError):
            asked = repr(a)
        mk = s.mask_cache
        if mk is None:
            mk = self.compute_mask(s)
        if why is None:
            why = (f"not legal in sub-phase {_SUB_NAMES[s.sub_phase]} for seat {s.acting_seat}"
                   if not s.terminal else "the game is over")
        legal = np.flatnonzero(mk)
        shown = ", ".join(lay.decode(int(x)) for x in legal[:12])
        if len(legal) > 12:
            shown += f", ... ({len(legal)} legal actions in all)"
        return IllegalActionError(asked, why, f"legal now: {shown}" if len(legal) else "no action is legal now")

    def do_apply(self, s, a: int) -> None:
        """Apply legal action ``a`` (already validated) to ``s`` (spec §3-§4)."""
        o = self.off
        sp = s.sub_phase
        seat = s.acting_seat
        tb = self.tables
        if sp == 3 or sp == 2:
            if o.DISCARD <= a < o.DISCARD + self.H:
                k = a - o.DISCARD
                i = s.hand[seat][k]
                s.hand[seat][k] = -1
                s.fresh[seat][k] = False
                s.loc[i] = L_DISCARD
                s.discard[seat].append(i)
                s.discarded += 1  # forced or voluntary DISCARD actions both count (§4.10, D4, D39)
                if sp == 2:
                    s.sub_phase = int(Sub.MAIN)
                dirty_mask(s)
                return
            if o.PLACE <= a < o.ORDER:
                r = a - o.PLACE
                k, h, f = r // 114, (r % 114) // 6, r % 6
                i = s.hand[seat][k]
                fx = get_fx(self, s)
                if s.unfolded:
                    s.exception_used = True
                s.hand[seat][k] = -1
                s.fresh[seat][k] = False
                place_on_board(self, s, fx, i, h, f)
                s.fx_cache = place_fx(self, s, fx, h)  # (None: recomputed by settle)
                s.uses += 1
                s.placed = True
                settle(self, s)
                if min(s.board) >= 0:  # board full
                    self.start_battle(s, 1)
                return
            if o.ORDER <= a < o.ORDER + self.H:
                k = a - o.ORDER
                i = s.hand[seat][k]
                s.hand[seat][k] = -1
                s.fresh[seat][k] = False
                s.loc[i] = L_DISCARD
                s.discard[seat].append(i)
                s.uses += 1
                s.p_order = i
                s.p_mode = -1
                ef = tb.order[s.itype[i]]
                dirty_mask(s)
                if ef.effect == "choice":
                    s.p_effect = int(Eff.CHOICE)
                    s.sub_phase = int(Sub.ORDER_MODE)
                    return
                self.begin_effect(s, ef)
                return
            if o.FEATURE <= a < o.UNFOLD:
                r = a - o.FEATURE
                kind, h = r // 19, r % 19
                i = s.board[h]
                s.p_a = h
                fx = get_fx(self, s)
                if kind == 0:
                    s.used[i] |= 1
                    s.p_effect = int(Eff.MANEUVER)
                    s.sub_phase = int(Sub.FEATURE_DEST)
                elif kind == 1:
                    r_inst = self.teleport_rune(s, fx, h)
                    s.used[i] |= 2
                    if r_inst is not None and r_inst >= 0:
                        s.tele_rune_used.append(r_inst)
                    s.p_effect = int(Eff.TELEPORT)
                    s.sub_phase = int(Sub.FEATURE_DEST)
                elif kind == 2:
                    s.used[i] |= 4
                    s.p_effect = int(Eff.SWAP)
                    s.sub_phase = int(Sub.SWAP_TARGET)
                else:
                    s.used[i] |= 8
                    s.p_effect = int(Eff.ROTATE)
                    s.sub_phase = int(Sub.ROTATE_FACING)
                dirty_mask(s)
                return
            if a == o.UNFOLD:
                s.p_effect = int(Eff.UNFOLD)
                s.sub_phase = int(Sub.UNFOLD_SEG2)
                dirty_mask(s)
                return
            if a == o.END:
                self.end_turn(s)
                return
        if sp == 0:  # SETUP_PICK
            fi = s.factions[seat]
            t = tb.fac_offset[fi] + (a - o.PICK)
            deck = s.deck[seat]
            inst = min(i for i in deck if s.itype[i] == t)
            deck.remove(inst)
            k = 0 if s.seg_content[seat][0] < 0 else 1
            s.seg_content[seat][k] = inst
            s.loc[inst] = L_MONO
            if k == 1:
                if seat + 1 < self.n:
                    s.acting_seat = seat + 1
                else:
                    s.acting_seat = 0
                    s.sub_phase = int(Sub.SETUP_BANNER)
            dirty_mask(s)
            return
        if sp == 1:  # SETUP_BANNER
            h = a - o.HEX
            b = seat * 35
            s.board[h] = b
            s.hexof[b] = h
            s.facing[b] = 0
            s.loc[b] = L_BOARD
            s.seg_hex[seat] = [h, h, h]
            s.mono_folded[seat] = True
            dirty(s)
            if seat + 1 < self.n:
                s.acting_seat = seat + 1
            else:
                self.start_turn(s, 0)
            return
        if sp == 4:  # ORDER_MODE
            s.p_mode = a - o.MODE
            self.begin_effect(s, self.effect_of(s))
            return
        x = a - o.HEX  # SELECT_HEX value (or garbage for other families)
        f = a - o.ROT
        if sp == 25:  # UNFOLD_FACING (does not read the effects of the position being unfolded)
            i = s.unfold_queue.pop(0)
            s.facing[i] = f
            if s.unfold_queue:
                s.acting_seat = s.unfold_queue[0] // 35
                dirty(s)
            else:
                self.finish_unfold(s)
            return
        fx = get_fx(self, s)
        if sp == 5:
            s.p_a = x
            s.sub_phase = int(Sub.CHARGE_DEST)
        elif sp == 6:
            s.p_b = x
            s.sub_phase = int(Sub.CHARGE_FACING)
        elif sp == 7:
            self.resolve_charge(s, fx, f)
            return
        elif sp == 8:
            s.p_a = x
            s.sub_phase = int(Sub.MOVE_DEST)
        elif sp == 9:
            s.p_b = x
            if s.board[s.p_a] % 35 == 0:
                relocate(self, s, fx, s.board[s.p_a], x)
                settle(self, s)
                self.back_to_main(s)
                return
            s.sub_phase = int(Sub.MOVE_FACING)
        elif sp in (10, 21):
            i = s.board[s.p_a]
            if s.p_b != s.p_a:
                relocate(self, s, fx, i, s.p_b)
            s.facing[i] = f
            s.fx_cache = move_fx(self, s, fx, s.p_a, s.p_b)  # (None: recomputed by settle)
            s.mask_cache = None
            settle(self, s)
            self.back_to_main(s)
            return
        elif sp == 11:
            s.p_a = x
            s.sub_phase = int(Sub.PUSH_PUSHER)
        elif sp == 12:
            s.p_b = x
            s.sub_phase = int(Sub.PUSH_DEST)
        elif sp == 13:
            s.p_c = x
            relocate(self, s, fx, s.board[s.p_a], x)
            s.fx_cache = move_fx(self, s, fx, s.p_a, x)  # (None: recomputed by settle)
            settle(self, s)
            self.back_to_main(s)
            return
        elif sp == 14:
            s.net_marker_on = s.board[x]
            dirty(s)
            settle(self, s)
            self.back_to_main(s)
            return
        elif sp == 15:
            s.p_a = x
            ef = self.effect_of(s)
            self.resolve_step(s, fx, [(x, int(ef.amount), -1, False)])
            if not self.banner_check(s):
                self.back_to_main(s)
            return
        elif sp == 16:
            tri = a - o.TRI
            ef = self.effect_of(s)
            self.resolve_step(s, fx, self.area_hits(s, seat, tri, ef))
            if not self.banner_check(s):
                self.back_to_main(s)
            return
        elif sp == 17:
            s.entrench_on = s.board[x]
            dirty(s)
            settle(self, s)
            self.back_to_main(s)
            return
        elif sp == 18:
            s.p_a = x
            s.sub_phase = int(Sub.ROTATE_FACING)
        elif sp == 19:
            s.facing[s.board[s.p_a]] = f
            s.fx_cache = move_fx(self, s, fx, s.p_a, s.p_a)  # (None: recomputed by settle)
            s.mask_cache = None
            settle(self, s)
            self.back_to_main(s)
            return
        elif sp == 20:
            s.p_b = x
            s.sub_phase = int(Sub.FEATURE_FACING)
        elif sp == 22:
            h = s.p_a
            i, j = s.board[h], s.board[x]
            s.board[h], s.board[x] = j, i
            s.hexof[i], s.hexof[j] = x, h
            s.p_b = x
            dirty(s)
            settle(self, s)
            self.back_to_main(s)
            return
        elif sp == 23:
            s.p_a = x
            s.sub_phase = int(Sub.UNFOLD_SEG3)
        elif sp == 24:
            s.p_b = x
            self.land_monolith(s, seat, s.p_a, x)
            return
        elif sp == 26:
            s.b_targets.append(x)
            if len(s.b_targets) < len(s.b_strikes):
                s.p_a = s.b_strikes[len(s.b_targets)]
                s.acting_seat = s.board[s.p_a] // 35
                dirty_mask(s)
                return
            s.sub_phase = int(Sub.MAIN)  # internal; the battle sets the next decision point
            s.acting_seat = s.turn_seat
            self.run_battle(s)
            return
        dirty_mask(s)

    def begin_effect(self, s, ef) -> None:
        """Enter the first sub-phase of Order effect ``ef`` (or resolve it at once: Battle)."""
        name = ef.effect
        table = {
            "charge": (Eff.CHARGE, Sub.CHARGE_TILE), "move": (Eff.MOVE, Sub.MOVE_TILE),
            "push_back": (Eff.PUSH_BACK, Sub.PUSH_TARGET), "net_mark": (Eff.NET_MARK, Sub.NET_TARGET),
            "wound_target": (Eff.WOUND_TARGET, Sub.WOUND_TARGET), "wound_area": (Eff.WOUND_AREA, Sub.AREA_TARGET),
            "entrench": (Eff.ENTRENCH, Sub.ENTRENCH_TARGET), "rotate_target": (Eff.ROTATE_TARGET, Sub.ROTATE_TARGET),
        }
        dirty_mask(s)
        if name == "battle":
            s.sub_phase = int(Sub.MAIN)
            self.start_battle(s, 0)
            return
        e, sub = table[name]
        s.p_effect = int(e)
        s.sub_phase = int(sub)

    def resolve_charge(self, s, fx, f: int) -> None:
        """Spec §4.8 step 2-3: move, face, resolve the charger's melee attacks, then end the turn."""
        i = s.board[s.p_a]
        relocate(self, s, fx, i, s.p_b)
        s.facing[i] = f
        dirty(s)
        fx = settle(self, s)
        h = s.p_b
        hits = []
        if s.board[h] == i and not fx.netted[h] and not fx.disarmed[h]:
            hits = self.attack_hits(s, fx, h, 1, extra_melee=fx.charge_b[h], melee_only=True)
        self.resolve_step(s, fx, hits)
        if self.banner_check(s):
            return
        self.end_turn(s)

    def land_monolith(self, s, seat: int, h2: int, h3: int) -> None:
        """Unfold ``seat``'s Monolith onto ``h2``/``h3`` (spec §4.10 steps 1-4)."""
        s.unfolded = True
        B = s.hexof[seat * 35]
        s.seg_hex[seat] = [B, h2, h3]
        s.mono_folded[seat] = False
        others, own = [], []
        for k, h in ((0, h2), (1, h3)):
            c = s.seg_content[seat][k]
            if c >= 0:
                s.board[h] = c
                s.hexof[c] = h
                s.loc[c] = L_BOARD
                s.seg_revealed[seat][k] = True
                (own if c // 35 == seat else others).append(c)
        s.unfold_queue = others + own
        dirty(s)
        if s.unfold_queue:
            s.sub_phase = int(Sub.UNFOLD_FACING)
            s.acting_seat = s.unfold_queue[0] // 35
        else:
            self.finish_unfold(s)

    def finish_unfold(self, s) -> None:
        """Spec §4.10 step 5: effects, state check, board-full check."""
        s.acting_seat = s.turn_seat
        s.sub_phase = int(Sub.MAIN)
        s.p_effect = s.p_a = s.p_b = -1
        dirty(s)
        settle(self, s)
        if min(s.board) >= 0:  # board full
            self.start_battle(s, 1)
