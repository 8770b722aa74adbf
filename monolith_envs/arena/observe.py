"""Observation of Monolith Arena (spec §7): ``float32[19*(76+T) + 4*H*(T+1) + 4*T + 8*(T+3) + 40 + 131]``.

Seat-relative: "me" first, then the following seats in turn order (absent seats are zero).  This module
is the only place that decides visibility: opponents never see unrevealed Monolith contents, and nobody
sees any deck order (only multisets: my deck exactly; others' deck together with their unrevealed
Monolith tiles).
"""

from __future__ import annotations

import numpy as np

from ..core.observation import ObsSpec
from .rules import get_fx

__all__ = ["build_obs_spec", "Observer"]


def obs_bounds(content) -> tuple[float, float]:
    """Upper bounds ``(hex_high, unseen_high)`` of the two pieces whose values can exceed 1 (spec §7 divides
    without clipping): effective strength / 4 and activations / 2 in the hex blocks, counts / 4 in the
    unseen pools.  Derived from the content: the largest printed strength plus every strength bonus of
    the richest faction, the longest initiative list plus every ``extra_attack`` source, the largest count.
    """
    strength, acts, count = 1, 1, 1
    for fac in content.factions:
        bonus = extra = 0
        for t in fac.types:
            for e in t.effects:
                if e.effect in ("melee_bonus", "ranged_bonus"):
                    bonus += e.amount * t.count
                elif e.effect == "extra_attack":
                    extra += t.count
        for t in fac.types:
            printed = [v for _, v in t.melee] + [v for _, v in t.ranged] + [t.strike_any]
            strength = max(strength, max(printed) + bonus)
            acts = max(acts, len(t.initiative) + extra)
            count = max(count, t.count)
    return max(1.0, strength / 4.0, acts / 2.0), max(1.0, count / 4.0)


def build_obs_spec(T: int, H: int, hex_high: float = 1.0, unseen_high: float = 1.0) -> ObsSpec:
    """The :class:`ObsSpec` for ``T`` tile types and ``H`` hand slots (pieces in spec §7 order).

    ``hex_high`` and ``unseen_high`` bound the pieces whose spec normalisation can exceed 1 (see
    :func:`obs_bounds`); ``scalars`` can reach ``H / 2`` through ``uses / 2``.
    """
    return ObsSpec([
        ("hex", (19, 76 + T), 0.0, hex_high, "per hex: owner[5] kind[3] type[T] facing[6] wounds/3 tough/3 "
                                             "poison/5 flags[5] activations per initiative 0-9 /2 [10] "
                                             "dir stats[6x6] (strengths /4) monolith[8]"),
        ("hands", (4, H, T + 1), 0.0, 1.0, "per relative seat and slot: type one-hot, fresh flag"),
        ("unseen", (4, T), 0.0, unseen_high, "counts/4: my deck; others: deck + unrevealed Monolith tiles"),
        ("monolith", (4, 2, T + 3), 0.0, 1.0, "segments 2,3: type (if known), empty, hidden, on board"),
        ("seats", (4, 10), 0.0, 1.0, "alive, hp, deck/35, hand/H, discard/35, ally, folded, unrevealed/2, "
                                     "turn seat, first turn done"),
        ("sub_phase", (28,), 0.0, 1.0, "sub-phase one-hot"),
        ("acting", (4,), 0.0, 1.0, "acting seat, relative"),
        ("turn", (4,), 0.0, 1.0, "turn seat, relative"),
        ("scalars", (14,), 0.0, max(1.0, H / 2.0), "turn and game scalars (spec §7); uses/2 up to H/2"),
        ("pending_effect", (16,), 0.0, 1.0, "pending effect kind one-hot"),
        ("pending_hex", (3, 19), 0.0, 1.0, "pending hexes A, B, C"),
        ("pending_mode", (5,), 0.0, 1.0, "chosen Order option"),
        ("config", (3,), 0.0, 1.0, "monolith module, reinforcement, teams"),
    ])


_STATIC_CACHE: dict = {}


def _static_rows(tb, o_face: int, o_dir: int, o_acts: int, o_mono: int, W: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-(type, facing[, relative owner]) hex rows, computed once per content tables and shared by every
    game instance (they hold ~1 MB, so building them per env would cost that much memory per env)."""
    key = (id(tb), W)
    hit = _STATIC_CACHE.get(key)
    if hit is not None and hit[0] is tb:
        return hit[1], hit[2]
    T = tb.T
    static = np.zeros((T, 6, W), np.float32)
    for t in range(T):
        k = tb.kind[t]
        for f in range(6):
            row = static[t, f]
            if k < 3:
                row[5 + k] = 1.0
            row[8 + t] = 1.0
            row[o_face + f] = 1.0
            d0 = o_dir
            for d in range(6):
                row[d0 + 12 + d] = 1.0 if tb.armor[t][f][d] else 0.0
            for d in tb.net_dirs[t][f]:
                row[d0 + 18 + d] = 1.0
            if k == 2:
                for d in tb.conn_dirs[t][f]:
                    row[d0 + 24 + d] = 1.0
            for d in tb.kill_dirs[t][f]:
                row[d0 + 30 + d] = 1.0
    # static2[t, f, r]: the static row plus owner one-hot (relative seat r) and printed attack / initiative
    # values; row t == T is an empty hex.
    static2 = np.zeros((T + 1, 6, 4, W), np.float32)
    static2[:T] = static[:, :, None, :]
    for r in range(4):
        static2[:T, :, r, 1 + r] = 1.0
    static2[T, :, :, 0] = 1.0
    static2[:, :, :, o_mono] = 1.0  # Monolith segment owner: 'none' unless a segment lies there
    for t in range(T):
        cnt = {}
        for v in tb.init[t]:
            v = min(v, 9)
            cnt[v] = cnt.get(v, 0) + 1
        for f in range(6):
            row = static2[t, f, :, :]
            for v, c in cnt.items():
                row[:, o_acts + v] = 0.5 * c
            for d in range(6):
                row[:, o_dir + d] = tb.melee[t][f][d] / 4.0
                row[:, o_dir + 6 + d] = tb.ranged[t][f][d] / 4.0
    _STATIC_CACHE[key] = (tb, static, static2)
    return static, static2


class Observer:
    """Builds observations for one game (precomputed static per-(type, facing) hex rows)."""

    def __init__(self, game):
        self.g = game
        tb = game.tables
        T = self.T = tb.T
        H = self.H = game.H
        self.spec = build_obs_spec(T, H, *obs_bounds(game.content))
        W = self.W = 76 + T
        self.o_kind = 5
        self.o_type = 8
        self.o_face = 8 + T
        self.o_wtp = 14 + T
        self.o_flags = 17 + T
        self.o_acts = 22 + T
        self.o_dir = 32 + T
        self.o_mono = 68 + T
        static, static2 = _static_rows(tb, self.o_face, self.o_dir, self.o_acts, self.o_mono, W)
        self.static = static
        self.static2 = static2
        self.static_flat = static2.reshape(-1, W)
        pieces = self.spec
        self.sl = {p.name: (p.offset, p.stop) for p in pieces.pieces}

    def observe(self, s, p: int, omniscient: bool = False) -> np.ndarray:
        """``float32[size]`` observation of seat ``p`` (``omniscient``: also show every hidden tile)."""
        g = self.g
        tb = g.tables
        T, H, W = self.T, self.H, self.W
        n = g.n
        out = np.zeros(self.spec.size, np.float32)
        rel = [(q - p) % n for q in range(n)]
        fx = get_fx(g, s)
        I = []  # flat indices
        V = []  # values (written once at the end; later writes win)
        ia, va = I.append, V.append
        # ---- hex blocks
        board = s.board
        itype, facing, wounds, poison, used = s.itype, s.facing, s.wounds, s.poison, s.used
        o_dir, o_flags, o_acts, o_wtp, o_mono = self.o_dir, self.o_flags, self.o_acts, self.o_wtp, self.o_mono
        occ, ts, fs = [], [], []
        netm, ent = s.net_marker_on, s.entrench_on
        for h in range(19):
            i = board[h]
            if i < 0:
                continue
            occ.append(h)
            ts.append(itype[i])
            fs.append(facing[i])
        hexv = out[: 19 * W].reshape(19, W)
        rows = [T * 24] * 19  # flat index ((t * 6 + f) * 4 + r) into static2
        for h, t, f in zip(occ, ts, fs):
            rows[h] = (t * 6 + f) * 4 + rel[board[h] // 35]
        np.take(self.static_flat, rows, axis=0, out=hexv)
        inits_p = tb.init
        for h, t, f in zip(occ, ts, fs):
            i = board[h]
            b = h * W
            w = wounds[i]
            if w:
                ia(b + o_wtp); va(w / 3.0 if w < 3 else 1.0)
            tg = fx.tough[h]
            if tg:
                ia(b + o_wtp + 1); va(tg / 3.0 if tg < 3 else 1.0)
            pz = poison[i]
            if pz:
                ia(b + o_wtp + 2); va(pz / 5.0)
            net = fx.netted[h]
            dis = fx.disarmed[h]
            if net:
                ia(b + o_flags); va(1.0)
            if netm == i:
                ia(b + o_flags + 1); va(1.0)
            if dis:
                ia(b + o_flags + 2); va(1.0)
            if ent == i:
                ia(b + o_flags + 3); va(1.0)
                for d in range(6):
                    ia(b + o_dir + 12 + d); va(1.0)
            if used[i]:
                ia(b + o_flags + 4); va(1.0)
            vals = fx.inits[h]
            if net or dis or vals != inits_p[t]:
                row = hexv[h]
                row[o_acts:o_acts + 10] = 0.0
                if vals and not net and not dis:
                    cnt = {}
                    for v in vals:
                        v = v if v < 9 else 9
                        cnt[v] = cnt.get(v, 0) + 1
                    for v, c in cnt.items():
                        ia(b + o_acts + v); va(0.5 * c)
            mb = fx.melee_b[h]
            if mb:
                mrow = tb.melee[t][f]
                for d in tb.melee_dirs[t][f]:
                    x = (mrow[d] + mb) / 4.0
                    ia(b + o_dir + d); va(x)
            rb = fx.ranged_b[h]
            if rb:
                rrow = tb.ranged[t][f]
                for d in tb.ranged_dirs[t][f]:
                    x = max(0, rrow[d] + rb) / 4.0
                    ia(b + o_dir + 6 + d); va(x)
        if g.module:
            for q in range(n):
                sh = s.seg_hex[q]
                if sh[0] < 0 or not s.alive[q]:
                    continue
                r = rel[q]
                if s.mono_folded[q]:
                    b = sh[0] * W + o_mono
                    ia(b); va(0.0)
                    ia(b + 1 + r); va(1.0)
                    for k in range(3):
                        ia(b + 5 + k); va(1.0)
                else:
                    for k in range(3):
                        b = sh[k] * W + o_mono
                        ia(b); va(0.0)
                        ia(b + 1 + r); va(1.0)
                        ia(b + 5 + k); va(1.0)
        sl = self.sl
        # ---- hands
        a0 = sl["hands"][0]
        for q in range(n):
            base = a0 + rel[q] * H * (T + 1)
            hq = s.hand[q]
            fq = s.fresh[q]
            for k in range(H):
                i = hq[k]
                if i >= 0:
                    b = base + k * (T + 1)
                    ia(b + itype[i]); va(1.0)
                    if fq[k]:
                        ia(b + T); va(1.0)
        # ---- unseen pools (deck counts cached on the state per deck length; rules.dirty drops the cache)
        a0 = sl["unseen"][0]
        dc = s.__dict__.get("_deckcnt")
        if dc is None:
            dc = s.__dict__["_deckcnt"] = {}
        for q in range(n):
            deck = s.deck[q]
            e = dc.get(q)
            if e is None or e[0] != len(deck):
                arr = np.bincount(np.fromiter((itype[i] for i in deck), np.intp, len(deck)), minlength=T)
                e = dc[q] = (len(deck), arr.astype(np.float32) * 0.25)
            b = a0 + rel[q] * T
            u = out[b:b + T]
            u[:] = e[1]
            if q != p and g.module and not omniscient:
                for k in (0, 1):
                    c = s.seg_content[q][k]
                    if c >= 0 and not s.seg_revealed[q][k]:
                        u[itype[c]] += 0.25
        # ---- monolith contents
        if g.module:
            a0 = sl["monolith"][0]
            for q in range(n):
                if not s.alive[q]:
                    continue
                for k in (0, 1):
                    c = s.seg_content[q][k]
                    b = a0 + (rel[q] * 2 + k) * (T + 3)
                    if c < 0:
                        ia(b + T); va(1.0)
                        continue
                    rev = s.seg_revealed[q][k]
                    if q == p or rev or omniscient:
                        ia(b + itype[c]); va(1.0)
                    if not rev:
                        ia(b + T + 1); va(1.0)
                    if s.loc[c] == 2:
                        ia(b + T + 2); va(1.0)
        if I:
            out[I] = V
        # ---- per-seat scalars
        a0 = sl["seats"][0]
        for q in range(n):
            hq = s.hand[q]
            if g.teams:
                hpv = min(1.0, max(0, s.pool[g.team[q]]) / g.team_hp)
            else:
                hpv = min(1.0, max(0, s.hp[q]) / max(1, tb.fac_hp[s.factions[q]]))
            mono_f = mono_u = 0.0
            if g.module:
                mono_f = 1.0 if s.mono_folded[q] else 0.0
                sc = s.seg_content[q]
                sr = s.seg_revealed[q]
                mono_u = ((sc[0] >= 0 and not sr[0]) + (sc[1] >= 0 and not sr[1])) / 2.0
            b = a0 + rel[q] * 10
            out[b:b + 10] = (
                1.0 if s.alive[q] else 0.0, hpv, len(s.deck[q]) / 35.0, (H - hq.count(-1)) / H,
                min(1.0, len(s.discard[q]) / 35.0),
                1.0 if (g.teams and q != p and g.team[q] == g.team[p]) else 0.0,
                mono_f, mono_u, 1.0 if s.turn_seat == q else 0.0, 1.0 if s.first_turn_done[q] else 0.0,
            )
        # ---- global
        out[sl["sub_phase"][0] + s.sub_phase] = 1.0
        if s.acting_seat >= 0:
            out[sl["acting"][0] + rel[s.acting_seat]] = 1.0
        out[sl["turn"][0] + rel[s.turn_seat]] = 1.0
        a = sl["scalars"][0]
        cap_active = g.reinf and s.turn_seat == 0 and not s.first_turn_done[0]
        out[a:a + 14] = (
            min(1.0, float(s.discarded)), s.uses / 2.0, float(s.placed), float(s.unfolded),
            float(s.exception_used), float(cap_active), float(s.last_round), sum(s.last_round_owed) / 3.0,
            float(s.b_active), (max(0, min(9, s.b_phase)) / 9.0) if s.b_active else 0.0,
            s.poison_supply / 5.0, float(s.net_marker_on < 0), float(s.entrench_on < 0),
            min(1.0, s.decisions / g.max_decisions),
        )
        if s.p_effect >= 0:
            out[sl["pending_effect"][0] + s.p_effect] = 1.0
        a = sl["pending_hex"][0]
        for k, h in enumerate((s.p_a, s.p_b, s.p_c)):
            if 0 <= h < 19:
                out[a + 19 * k + h] = 1.0
        if 0 <= s.p_mode < 5:
            out[sl["pending_mode"][0] + s.p_mode] = 1.0
        a = sl["config"][0]
        out[a] = float(g.module)
        out[a + 1] = float(g.reinf)
        out[a + 2] = float(g.teams)
        return out
