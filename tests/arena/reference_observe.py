"""Plain reference implementations of the Arena observation (docs/monolith_arena.md §7) and continuous effects (docs/monolith_arena.md §4.6).

Written for clarity, not speed: every value is computed per hex and per seat straight from the content
tables and the state, without caches or precomputed rows.  Tests compare the engine's optimised
``Observer.observe`` / ``compute_fx`` / masks against these, value for value.
"""

from __future__ import annotations

import numpy as np

from monolith_envs.arena.board import NB
from monolith_envs.arena.effects import Fx
from monolith_envs.arena.tables import ALLY, ENEMY, OWN

__all__ = ["reference_fx", "reference_observe"]


def _reference_nets(tb, REL, board, occ, owner, typ, fac, marker) -> list:
    """Netted flag per hex (docs/monolith_arena.md §4.6 step 1), by fixed-point iterations written from the
    rule's text, independently of the engine's cycle search:

    1. the net edges ``N -> X``: a net edge of N points at an adjacent enemy tile X;
    2. reachability by iterating ``reach = reach | reach . edges`` until it no longer grows; a tile is on a
       cycle when it reaches itself, and every tile on a cycle is netted;
    3. the others are settled in rounds: a tile whose netters are all settled is netted iff it carries the
       Net-order marker or one of its netters is not netted; repeat until every tile is settled (the tiles
       off the cycles form an acyclic graph, so every round settles at least one).
    """
    edges = {h: set() for h in occ}
    for h in occ:
        for d in tb.net_dirs[typ[h]][fac[h]]:
            x = NB[h][d]
            if x >= 0 and board[x] >= 0 and REL[owner[h]][owner[x]] == ENEMY:
                edges[h].add(x)
    reach = {h: set(edges[h]) for h in occ}
    grew = True
    while grew:
        grew = False
        for h in occ:
            more = set().union(*(reach[y] for y in reach[h])) - reach[h] if reach[h] else set()
            if more:
                reach[h] |= more
                grew = True
    netters = {x: [h for h in occ if x in edges[h]] for x in occ}
    settled = {h: True for h in occ if h in reach[h]}
    while len(settled) < len(occ):
        progress = False
        for x in occ:
            if x in settled or any(y not in settled for y in netters[x]):
                continue
            settled[x] = marker[x] or any(not settled[y] for y in netters[x])
            progress = True
        assert progress, "the tiles off the net cycles must form an acyclic graph"
    netted = list(marker)
    for h in occ:
        netted[h] = settled[h] or marker[h]
    return netted


def reference_fx(g, s) -> Fx:
    """The continuous effects of ``s``, computed from scratch (no cache). See :class:`Fx`."""
    tb = g.tables
    board, itype, facing = s.board, s.itype, s.facing
    REL = g.rules.rel
    occ = [h for h in range(19) if board[h] >= 0]
    owner = [-1] * 19
    typ = [-1] * 19
    fac = [0] * 19
    for h in occ:
        i = board[h]
        owner[h] = i // 35
        typ[h] = itype[i]
        fac[h] = facing[i]
    # 1. nets
    marker = [False] * 19
    if s.net_marker_on >= 0 and s.loc[s.net_marker_on] == 2:
        marker[s.hexof[s.net_marker_on]] = True
    netted = _reference_nets(tb, REL, board, occ, owner, typ, fac, marker)
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
    kind = tb.kind
    for h in occ:
        if netted[h]:
            continue
        effs = tb.effects[typ[h]]
        if not effs:
            continue
        o = owner[h]
        for code, amount, kmask, who, scope, feature in effs:
            if scope == 2:
                targets = [x for x in occ if owner[x] == o and x != h]
            elif scope == 1:
                targets = [x for x in NB[h] if x >= 0 and board[x] >= 0]
            else:
                targets = [x for x in (NB[h][d] for d in tb.conn_dirs[typ[h]][fac[h]]) if x >= 0 and board[x] >= 0]
            for x in targets:
                r = REL[o][owner[x]]
                if who == "enemy":
                    if r != ENEMY:
                        continue
                elif who == "any":
                    if r == ALLY:
                        continue
                elif r != OWN:
                    continue
                if not (kmask >> kind[typ[x]]) & 1:
                    continue
                if code == 0:
                    init_b[x] += amount
                elif code == 1:
                    melee_b[x] += amount
                elif code == 2:
                    ranged_b[x] += amount
                elif code == 3:
                    tough_b[x] += amount
                elif code == 4:
                    extra[x] += 1
                elif code == 5:
                    pierce[x] = True
                elif code == 6:
                    if feature == "venom":
                        venom[x] = True
                    elif feature == "maneuver":
                        maneuver[x] = True
                    elif feature == "rotate":
                        rotate[x] = True
                elif code == 7:
                    tele[x] = tele[x] + (board[h],)
                elif code == 8:
                    regen[x] = regen[x] + (h,)
                elif code == 9:
                    disarmed[x] = True
                elif code == 10:
                    charge_b[x] += amount
    inits = [()] * 19
    tough = [0] * 19
    armor = [None] * 19
    ent = s.entrench_on
    ALL6 = (True,) * 6
    for h in occ:
        t = typ[h]
        pi = tb.init[t]
        if pi:
            vals = [v + init_b[h] for v in pi]
            if extra[h]:
                m = max(0, min(vals) - 1)
                vals.extend([m] * extra[h])
            inits[h] = tuple(vals)
        tough[h] = tb.tough[t] + tough_b[h]
        if tb.venom[t]:
            venom[h] = True
        if tb.maneuver[t]:
            maneuver[h] = True
        if len(regen[h]) > 1:
            regen[h] = tuple(sorted(regen[h]))
        if len(tele[h]) > 1:
            tele[h] = tuple(sorted(tele[h], key=lambda i: s.hexof[i]))
        armor[h] = ALL6 if board[h] == ent else tb.armor[t][fac[h]]
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


def reference_observe(game, s, p: int, omniscient: bool = False) -> np.ndarray:
    """``float32[obs_spec.size]`` observation of seat ``p`` (docs/monolith_arena.md §7), computed directly."""
    g = game
    tb = g.tables
    T, H, n = tb.T, g.H, g.n
    W = 76 + T
    o_owner, o_kind, o_type, o_face = 0, 5, 8, 8 + T
    o_wtp, o_flags, o_acts, o_dir, o_mono = 14 + T, 17 + T, 22 + T, 32 + T, 68 + T
    spec = g.obs_spec
    off = {pc.name: pc.offset for pc in spec.pieces}
    out = np.zeros(spec.size, np.float32)
    rel = [(q - p) % n for q in range(n)]
    fx = reference_fx(g, s)

    # ---- hex blocks
    hexv = np.zeros((19, W), np.float32)
    for h in range(19):
        row = hexv[h]
        row[o_mono] = 1.0  # no Monolith segment (overwritten below)
        i = s.board[h]
        if i < 0:
            row[o_owner] = 1.0
            continue
        t, f = s.itype[i], s.facing[i]
        row[o_owner + 1 + rel[i // 35]] = 1.0
        k = tb.kind[t]
        if k < 3:
            row[o_kind + k] = 1.0
        row[o_type + t] = 1.0
        row[o_face + f] = 1.0
        w = s.wounds[i]
        row[o_wtp] = min(1.0, w / 3.0)
        row[o_wtp + 1] = min(1.0, fx.tough[h] / 3.0)
        row[o_wtp + 2] = s.poison[i] / 5.0
        net, dis = fx.netted[h], fx.disarmed[h]
        row[o_flags] = float(net)
        row[o_flags + 1] = float(s.net_marker_on == i)
        row[o_flags + 2] = float(dis)
        row[o_flags + 3] = float(s.entrench_on == i)
        row[o_flags + 4] = float(s.used[i] != 0)
        if not net and not dis:
            for v in fx.inits[h]:
                row[o_acts + min(v, 9)] += 0.5
        for d in range(6):
            m = tb.melee[t][f][d]
            if m > 0:
                m += fx.melee_b[h]
            row[o_dir + d] = m / 4.0
            r = tb.ranged[t][f][d]
            if r > 0:
                r = max(0, r + fx.ranged_b[h])
            row[o_dir + 6 + d] = r / 4.0
            row[o_dir + 12 + d] = 1.0 if (tb.armor[t][f][d] or s.entrench_on == i) else 0.0
            row[o_dir + 18 + d] = 1.0 if d in tb.net_dirs[t][f] else 0.0
            row[o_dir + 24 + d] = 1.0 if (k == 2 and d in tb.conn_dirs[t][f]) else 0.0
            row[o_dir + 30 + d] = 1.0 if d in tb.kill_dirs[t][f] else 0.0
    if g.module:
        for q in range(n):
            sh = s.seg_hex[q]
            if sh[0] < 0 or not s.alive[q]:
                continue
            segs = [(sh[0], 0), (sh[0], 1), (sh[0], 2)] if s.mono_folded[q] else [(sh[k], k) for k in range(3)]
            for h, k in segs:
                hexv[h, o_mono] = 0.0
                hexv[h, o_mono + 1 + rel[q]] = 1.0
                hexv[h, o_mono + 5 + k] = 1.0
    out[: 19 * W] = hexv.reshape(-1)

    # ---- hands
    for q in range(n):
        for k in range(H):
            i = s.hand[q][k]
            if i < 0:
                continue
            b = off["hands"] + (rel[q] * H + k) * (T + 1)
            out[b + s.itype[i]] = 1.0
            if s.fresh[q][k]:
                out[b + T] = 1.0

    # ---- unseen pools
    for q in range(n):
        counts = [0] * T
        for i in s.deck[q]:
            counts[s.itype[i]] += 1
        if q != p and g.module and not omniscient:
            for k in (0, 1):
                c = s.seg_content[q][k]
                if c >= 0 and not s.seg_revealed[q][k]:
                    counts[s.itype[c]] += 1
        b = off["unseen"] + rel[q] * T
        for t in range(T):
            out[b + t] = counts[t] / 4.0

    # ---- monolith contents
    if g.module:
        for q in range(n):
            if not s.alive[q]:
                continue
            for k in (0, 1):
                c = s.seg_content[q][k]
                b = off["monolith"] + (rel[q] * 2 + k) * (T + 3)
                if c < 0:
                    out[b + T] = 1.0
                    continue
                rev = s.seg_revealed[q][k]
                if q == p or rev or omniscient:
                    out[b + s.itype[c]] = 1.0
                if not rev:
                    out[b + T + 1] = 1.0
                if s.loc[c] == 2:
                    out[b + T + 2] = 1.0

    # ---- per-seat scalars
    for q in range(n):
        if g.team_mode:
            hpv = min(1.0, max(0, s.pool[g.team[q]]) / g.team_hp)
        else:
            hpv = min(1.0, max(0, s.hp[q]) / max(1, tb.fac_hp[s.factions[q]]))
        mono_f = mono_u = 0.0
        if g.module:
            mono_f = 1.0 if s.mono_folded[q] else 0.0
            hidden = sum(1 for k in (0, 1) if s.seg_content[q][k] >= 0 and not s.seg_revealed[q][k])
            mono_u = hidden / 2.0
        in_hand = sum(1 for i in s.hand[q] if i >= 0)
        ally = g.team_mode and q != p and g.team[q] == g.team[p]
        vals = [
            1.0 if s.alive[q] else 0.0, hpv, len(s.deck[q]) / 35.0, in_hand / H,
            min(1.0, len(s.discard[q]) / 35.0), 1.0 if ally else 0.0, mono_f, mono_u,
            1.0 if s.turn_seat == q else 0.0, 1.0 if s.first_turn_done[q] else 0.0,
        ]
        b = off["seats"] + rel[q] * 10
        for j, v in enumerate(vals):
            out[b + j] = v

    # ---- global pieces
    out[off["sub_phase"] + s.sub_phase] = 1.0
    if s.acting_seat >= 0:
        out[off["acting"] + rel[s.acting_seat]] = 1.0
    out[off["turn"] + rel[s.turn_seat]] = 1.0
    cap_active = g.reinf and s.turn_seat == 0 and not s.first_turn_done[0]
    scalars = [
        min(1.0, float(s.discarded)), s.uses / 2.0, float(s.placed), float(s.unfolded),
        float(s.exception_used), float(cap_active), float(s.last_round), sum(s.last_round_owed) / 3.0,
        float(s.b_active), (max(0, min(9, s.b_phase)) / 9.0) if s.b_active else 0.0,
        s.poison_supply / 5.0, float(s.net_marker_on < 0), float(s.entrench_on < 0),
        min(1.0, s.decisions / g.max_decisions),
    ]
    for j, v in enumerate(scalars):
        out[off["scalars"] + j] = v
    if s.p_effect >= 0:
        out[off["pending_effect"] + s.p_effect] = 1.0
    for k, h in enumerate((s.p_a, s.p_b, s.p_c)):
        if 0 <= h < 19:
            out[off["pending_hex"] + 19 * k + h] = 1.0
    if 0 <= s.p_mode < 5:
        out[off["pending_mode"] + s.p_mode] = 1.0
    out[off["config"]] = float(g.module)
    out[off["config"] + 1] = float(g.reinf)
    out[off["config"] + 2] = float(g.team_mode)
    return out
