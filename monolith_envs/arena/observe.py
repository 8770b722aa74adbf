"""Observation of Monolith Arena (docs/monolith_arena.md §7): ``float32[19*(76+T) + 4*H*(T+1) + 4*T + 8*(T+3) + 40 + 131]``.

Seat-relative: "me" first, then the following seats in turn order (absent seats are zero).  This module
is the only place that decides visibility: opponents never see unrevealed Monolith contents, and nobody
sees any deck order (only multisets: my deck exactly; others' deck together with their unrevealed
Monolith tiles).
"""

from __future__ import annotations

import os

import numpy as np

from ..core.observation import ObsSpec
from .effects import get_fx
from .state import INSTANCES_PER_SEAT as PER_SEAT

try:  # the compiled builder (setup.py); the pure-Python one below is the reference and the fallback
    from . import _fastobs
except ImportError:  # pragma: no cover - depends on the install
    _fastobs = None

__all__ = ["build_obs_spec", "Observer", "compiled_available"]

#: Set to ``1`` to use the pure-Python observation even when the compiled one is built.
PURE_PYTHON_ENV = "MONOLITH_ENVS_PURE_PYTHON"


def compiled_available() -> bool:
    """True when the compiled observation builder ``monolith_envs.arena._fastobs`` was built and loads."""
    return _fastobs is not None


def obs_bounds(content) -> tuple[float, float]:
    """Upper bounds ``(hex_high, unseen_high)`` of the two pieces whose values can exceed 1 (docs/monolith_arena.md §7 divides
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


#: the hex row's sub-fields without the type one-hot (``HEX_ROW + T`` floats in all)
_HEX_FIELDS = (("owner", 5), ("kind", 3), ("type", None), ("facing", 6), ("wounds_tough_poison", 3), ("flags", 5),
               ("activations", 10), ("dir_stats", 36), ("monolith", 8))
HEX_ROW = sum(w for _, w in _HEX_FIELDS if w is not None)
SEAT_FIELDS = ("alive", "hp", "deck", "hand", "discard", "ally", "folded", "unrevealed", "turn_seat",
               "first_turn_done")
SCALAR_FIELDS = ("discarded", "uses", "placed", "unfolded", "exception_used", "use_cap", "last_round",
                 "last_round_owed", "battle", "battle_phase", "poison_supply", "net_marker_free",
                 "entrench_free", "decisions")


def hex_fields(T: int) -> tuple:
    """The sub-fields of one hex row for ``T`` tile types: owner (0 empty, 1 + relative seat), kind, type,
    facing, wounds/toughness/poison, flags (netted, Net-order marker, disarmed, entrenched, used), activations
    per initiative, direction stats (melee, ranged, armor, net, connection, kill: 6 each) and Monolith."""
    return tuple((name, T if w is None else w) for name, w in _HEX_FIELDS)


def build_obs_spec(T: int, H: int, hex_high: float = 1.0, unseen_high: float = 1.0) -> ObsSpec:
    """The :class:`ObsSpec` for ``T`` tile types and ``H`` hand slots (pieces in docs/monolith_arena.md §7 order).

    ``hex_high`` and ``unseen_high`` bound the pieces whose spec normalisation can exceed 1 (see
    :func:`obs_bounds`); ``scalars`` can reach ``H / 2`` through ``uses / 2``.
    """
    return ObsSpec([
        ("hex", (19, HEX_ROW + T), 0.0, hex_high, "per hex: owner[5] kind[3] type[T] facing[6] wounds/3 tough/3 "
                                                  "poison/5 flags[5] activations per initiative 0-9 /2 [10] "
                                                  "dir stats[6x6] (strengths /4) monolith[8]", hex_fields(T)),
        ("hands", (4, H, T + 1), 0.0, 1.0, "per relative seat and slot: type one-hot, fresh flag",
         (("type", T), ("fresh", 1))),
        ("unseen", (4, T), 0.0, unseen_high, "counts/4: my deck; others: deck + unrevealed Monolith tiles"),
        ("monolith", (4, 2, T + 3), 0.0, 1.0, "segments 2,3: type (if known), empty, hidden, on board",
         (("type", T), ("empty", 1), ("hidden", 1), ("on_board", 1))),
        ("seats", (4, 10), 0.0, 1.0, "alive, hp, deck/35, hand/H, discard/35, ally, folded, unrevealed/2, "
                                     "turn seat, first turn done", tuple((f, 1) for f in SEAT_FIELDS)),
        ("sub_phase", (28,), 0.0, 1.0, "sub-phase one-hot"),
        ("acting", (4,), 0.0, 1.0, "acting seat, relative"),
        ("turn", (4,), 0.0, 1.0, "turn seat, relative"),
        ("scalars", (14,), 0.0, max(1.0, H / 2.0), "turn and game scalars (docs/monolith_arena.md §7); uses/2 up to H/2",
         tuple((f, 1) for f in SCALAR_FIELDS)),
        ("pending_effect", (16,), 0.0, 1.0, "pending effect kind one-hot"),
        ("pending_hex", (3, 19), 0.0, 1.0, "pending hexes A, B, C"),
        ("pending_mode", (5,), 0.0, 1.0, "chosen Order option"),
        ("config", (3,), 0.0, 1.0, "monolith module, reinforcement, teams"),
    ])


_STATIC_CACHE: dict = {}


def _static_rows(tb, o_face: int, o_wtp: int, o_dir: int, o_acts: int, o_mono: int, W: int) -> np.ndarray:
    """``float32[T + 1, 6, 4, W]``: the hex row of type ``t`` at facing ``f`` owned by relative seat ``r``
    with its printed values (kind, type, facing, toughness, activations, direction stats, no Monolith
    segment); row ``t == T`` is an empty hex.  Computed once per content tables and shared by every game
    instance (about 1 MB, so building it per env would cost that much memory per env)."""
    key = (id(tb), W)
    hit = _STATIC_CACHE.get(key)
    if hit is not None and hit[0] is tb:
        return hit[1]
    T = tb.T
    static = np.zeros((T + 1, 6, 4, W), np.float32)
    for t in range(T):
        k = tb.kind[t]
        cnt: dict = {}
        for v in tb.init[t]:
            v = min(v, 9)
            cnt[v] = cnt.get(v, 0) + 1
        tg = tb.tough[t]
        for f in range(6):
            row = static[t, f]  # [4, W], one row per relative owner
            for r in range(4):
                row[r, 1 + r] = 1.0
            if k < 3:
                row[:, 5 + k] = 1.0
            row[:, 8 + t] = 1.0
            row[:, o_face + f] = 1.0
            row[:, o_wtp + 1] = tg / 3.0 if tg < 3 else 1.0
            for v, c in cnt.items():
                row[:, o_acts + v] = 0.5 * c
            for d in range(6):
                row[:, o_dir + d] = tb.melee[t][f][d] / 4.0
                row[:, o_dir + 6 + d] = tb.ranged[t][f][d] / 4.0
                row[:, o_dir + 12 + d] = 1.0 if tb.armor[t][f][d] else 0.0
            for d in tb.net_dirs[t][f]:
                row[:, o_dir + 18 + d] = 1.0
            if k == 2:
                for d in tb.conn_dirs[t][f]:
                    row[:, o_dir + 24 + d] = 1.0
            for d in tb.kill_dirs[t][f]:
                row[:, o_dir + 30 + d] = 1.0
    static[T, :, :, 0] = 1.0
    static[:, :, :, o_mono] = 1.0  # Monolith segment owner: 'none' unless a segment lies there
    _STATIC_CACHE[key] = (tb, static)
    return static


class Observer:
    """Builds observations for one game (precomputed static per-(type, facing, relative owner) hex rows).

    Args:
        game: the rules context (:class:`~monolith_envs.arena.context.RulesContext`) of the game.
        compiled: use the compiled builder (``monolith_envs.arena._fastobs``); ``None`` (default) uses it when
            it is built and the environment variable ``MONOLITH_ENVS_PURE_PYTHON`` is not ``1``.  Both give the
            same values (``tests/arena/test_fastobs.py``); :meth:`observe_python` is the reference.

    Raises:
        RuntimeError: ``compiled=True`` but the extension is not built.
    """

    def __init__(self, game, compiled: bool | None = None):
        self.g = game
        tb = game.tables
        T = self.T = tb.T
        H = self.H = game.H
        self.spec = build_obs_spec(T, H, *obs_bounds(game.content))
        self.size = self.spec.size
        hexp = self.spec["hex"]
        W = self.W = hexp.shape[-1]
        self.o_kind = hexp.field("kind")[0]
        self.o_type = hexp.field("type")[0]
        self.o_face = hexp.field("facing")[0]
        self.o_wtp = hexp.field("wounds_tough_poison")[0]
        self.o_flags = hexp.field("flags")[0]
        self.o_acts = hexp.field("activations")[0]
        self.o_dir = hexp.field("dir_stats")[0]
        self.o_mono = hexp.field("monolith")[0]
        static = _static_rows(tb, self.o_face, self.o_wtp, self.o_dir, self.o_acts, self.o_mono, W)
        self.static = static
        self.static_flat = static.reshape(-1, W)
        self.empty_row = T * 24  # flat row index ((t * 6 + f) * 4 + r) of an empty hex
        self.sl = {p.name: (p.offset, p.stop) for p in self.spec.pieces}
        n = game.n
        self.rels = [tuple((q - p) % n for q in range(n)) for p in range(n)]
        a_hands = self.sl["hands"][0]
        a_unseen = self.sl["unseen"][0]
        a_seats = self.sl["seats"][0]
        self.hand_base = [tuple(a_hands + r * H * (T + 1) for r in rel) for rel in self.rels]
        self.unseen_base = [tuple(a_unseen + r * T for r in rel) for rel in self.rels]
        self.a_seats = a_seats
        self.order = [tuple((p + r) % n for r in range(n)) for p in range(n)]  # seats in relative order
        sl = self.sl
        self.a_sub, self.a_acting, self.a_turn, self.a_scalars = (
            sl["sub_phase"][0], sl["acting"][0], sl["turn"][0], sl["scalars"][0])
        self.a_peff, self.a_phex, self.a_pmode = sl["pending_effect"][0], sl["pending_hex"][0], sl["pending_mode"][0]
        self._last: tuple | None = None  # (fx, p, hex block) of the last observation
        a = self.sl["config"][0]
        self.config_ones = [a + k for k, on in enumerate((game.module, game.reinf, game.team_mode)) if on]
        if compiled is None:
            compiled = _fastobs is not None and os.environ.get(PURE_PYTHON_ENV, "") != "1"
        elif compiled and _fastobs is None:
            raise RuntimeError("the compiled observation builder monolith_envs.arena._fastobs is not built "
                               "(reinstall with a C compiler: pip install -e .)")
        self.compiled = bool(compiled)
        self._ctx = self._make_context(game) if self.compiled else None

    def __getstate__(self) -> dict:
        """Copy and pickle support: the compiled context (a capsule) is not copied; the first observation
        of the copy builds its own (the game may not be fully restored yet when this object is)."""
        state = self.__dict__.copy()
        state["_ctx"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if _fastobs is None:  # unpickled where the extension is not built
            self.compiled = False

    def layout_ints(self, game) -> dict:
        """The named ints of the compiled builder: the piece offsets and hex-row field offsets of the
        :class:`ObsSpec` (``spec.offsets()``: ``"hands"``, ``"hex.flags"``, ...), the sizes and the flags."""
        out = self.spec.offsets()
        out.update(T=self.T, H=self.H, W=self.W, n=game.n, size=self.size, module=int(game.module),
                   reinf=int(game.reinf), teams=int(game.team_mode), max_decisions=int(game.max_decisions),
                   empty_row=self.empty_row)
        return out

    def _make_context(self, game):
        """The compiled builder's context (a capsule): the named ints of :meth:`layout_ints` (the builder reads
        each by name) and the printed tables; it keeps a reference to the shared static rows."""
        tb = game.tables
        return _fastobs.make_context(self.static_flat, self.layout_ints(game), tb.tough, tb.melee, tb.ranged,
                                     tb.melee_dirs, tb.ranged_dirs, tb.fac_hp, list(game.team),
                                     float(game.team_hp))

    def _hex_block(self, fx, p: int) -> np.ndarray:
        """``float32[19 * W]``: the hex blocks as seat ``p`` sees the board of ``fx`` before the per-tile
        markers (wounds, poison, used, Net-order marker, entrenchment, Monolith segments): static rows plus
        the values the continuous effects change.

        The last block is kept, keyed on the identity of the :class:`~monolith_envs.arena.effects.Fx` object
        (held, so it cannot be replaced by another at the same address) and ``p``: an effects object is
        cached on one state and dropped by :func:`~monolith_envs.arena.effects.dirty` on every change of the
        board, types, facings or markers it was computed from, which are all the block depends on.
        """
        last = self._last
        if last is not None and last[0] is fx and last[1] == p:
            return last[2]
        rel = self.rels[p]
        E = self.empty_row
        rows = [E if t < 0 else (t * 6 + f) * 4 + rel[o] for t, f, o in zip(fx.typ, fx.fac, fx.owner)]
        block = self.static_flat.take(rows, 0).reshape(-1)
        touched = fx.touched
        if touched:
            tb = self.g.tables
            W, o_wtp, o_flags, o_acts, o_dir = self.W, self.o_wtp, self.o_flags, self.o_acts, self.o_dir
            p_tough, p_init, melee, ranged, melee_dirs, ranged_dirs = (
                tb.tough, tb.init, tb.melee, tb.ranged, tb.melee_dirs, tb.ranged_dirs)
            typ, fac = fx.typ, fx.fac
            f_tough, f_inits, f_net, f_dis, f_mb, f_rb = (
                fx.tough, fx.inits, fx.netted, fx.disarmed, fx.melee_b, fx.ranged_b)
            o = memoryview(block)
            for h in set(touched):
                t = typ[h]
                f = fac[h]
                b = h * W
                tg = f_tough[h]
                if tg != p_tough[t]:
                    o[b + o_wtp + 1] = tg / 3.0 if tg < 3 else 1.0
                net = f_net[h]
                dis = f_dis[h]
                if net:
                    o[b + o_flags] = 1.0
                if dis:
                    o[b + o_flags + 2] = 1.0
                vals = f_inits[h]
                if net or dis or vals != p_init[t]:
                    b2 = b + o_acts
                    block[b2:b2 + 10] = 0.0
                    if not net and not dis:
                        for v in vals:
                            o[b2 + (v if v < 9 else 9)] += 0.5
                mb = f_mb[h]
                if mb:
                    mrow = melee[t][f]
                    for d in melee_dirs[t][f]:
                        o[b + o_dir + d] = (mrow[d] + mb) / 4.0
                rb = f_rb[h]
                if rb:
                    rrow = ranged[t][f]
                    for d in ranged_dirs[t][f]:
                        o[b + o_dir + 6 + d] = max(0, rrow[d] + rb) / 4.0
        self._last = (fx, p, block)
        return block

    def observe(self, s, p: int, omniscient: bool = False) -> np.ndarray:
        """``float32[size]`` observation of seat ``p`` (``omniscient``: also show every hidden tile).

        Raises:
            ValueError: ``p`` is not a seat of this game.
            TypeError, IndexError, ValueError: a malformed state (the compiled builder names the field).
        """
        ctx = self._ctx
        if ctx is None:
            if not self.compiled:
                return self.observe_python(s, p, omniscient)
            ctx = self._ctx = self._make_context(self.g)  # after a copy or unpickling
        fx = s.fx_cache
        if fx is None:
            fx = get_fx(self.g, s)
        out = np.zeros(self.size, np.float32)
        _fastobs.observe(ctx, s, fx, p, omniscient, out)
        return out

    def observe_python(self, s, p: int, omniscient: bool = False) -> np.ndarray:
        """The pure-Python observation (the reference of the compiled builder; same values).

        Raises:
            ValueError: ``p`` is not a seat of this game.
        """
        g = self.g
        if not 0 <= p < g.n:
            raise ValueError(f"observation: seat {p} outside 0..{g.n - 1}")
        T, H, W = self.T, self.H, self.W
        n = g.n
        module = g.module
        out = np.zeros(self.size, np.float32)
        o = memoryview(out)  # single elements are written through this (values are cast to float32)
        rel = self.rels[p]
        fx = s.fx_cache
        if fx is None:
            fx = get_fx(g, s)
        itype = s.itype
        board = s.board
        # ---- hex blocks: static rows and effect-dependent values, then per-tile markers
        out[: 19 * W] = self._hex_block(fx, p)
        occ = fx.occ
        wounds, poison, used = s.wounds, s.poison, s.used
        o_wtp, o_flags = self.o_wtp, self.o_flags
        # (x.count(0) != len(x) is a fast any(x); tiles folded into a Monolith keep wounds and poison)
        if wounds.count(0) != len(wounds):
            for h in occ:
                w = wounds[board[h]]
                if w:
                    o[h * W + o_wtp] = w / 3.0 if w < 3 else 1.0
        if poison.count(0) != len(poison):
            for h in occ:
                pz = poison[board[h]]
                if pz:
                    o[h * W + o_wtp + 2] = pz / 5.0
        if used.count(0) != len(used):
            for h in occ:
                if used[board[h]]:
                    o[h * W + o_flags + 4] = 1.0
        m = s.net_marker_on
        if m >= 0 and m in board:
            o[board.index(m) * W + o_flags + 1] = 1.0
        m = s.entrench_on
        if m >= 0 and m in board:
            b = board.index(m) * W
            o[b + o_flags + 3] = 1.0
            b += self.o_dir + 12
            out[b:b + 6] = 1.0
        if module:
            o_mono = self.o_mono
            for q in range(n):
                sh = s.seg_hex[q]
                if sh[0] < 0 or not s.alive[q]:
                    continue
                r = rel[q]
                if s.mono_folded[q]:
                    b = sh[0] * W + o_mono
                    o[b] = 0.0
                    o[b + 1 + r] = 1.0
                    o[b + 5] = o[b + 6] = o[b + 7] = 1.0
                else:
                    for k in range(3):
                        b = sh[k] * W + o_mono
                        o[b] = 0.0
                        o[b + 1 + r] = 1.0
                        o[b + 5 + k] = 1.0
        # ---- hands
        T1 = T + 1
        fresh = s.fresh
        for q, b in enumerate(self.hand_base[p]):
            fq = fresh[q]
            for k, i in enumerate(s.hand[q]):
                if i >= 0:
                    o[b + itype[i]] = 1.0
                    if fq[k]:
                        o[b + T] = 1.0
                b += T1
        # ---- unseen pools (deck counts cached on the state, see _deck_counts)
        dc = s.deck_counts
        if dc is None:
            dc = s.deck_counts = {}
        ub = self.unseen_base[p]
        for q in range(n):
            deck = s.deck[q]
            e = dc.get(q)
            if e is None or e[0] != len(deck):
                e = dc[q] = _deck_counts(deck, itype, T, e)
            b = ub[q]
            out[b:b + T] = e[1]
            if q != p and module and not omniscient:
                for k in (0, 1):
                    c = s.seg_content[q][k]
                    if c >= 0 and not s.seg_revealed[q][k]:
                        o[b + itype[c]] += 0.25
        # ---- monolith contents
        if module:
            a0 = self.sl["monolith"][0]
            T3 = T + 3
            for q in range(n):
                if not s.alive[q]:
                    continue
                b = a0 + rel[q] * 2 * T3
                for k in (0, 1):
                    c = s.seg_content[q][k]
                    if c < 0:
                        o[b + T] = 1.0
                    else:
                        rev = s.seg_revealed[q][k]
                        if q == p or rev or omniscient:
                            o[b + itype[c]] = 1.0
                        if not rev:
                            o[b + T + 1] = 1.0
                        if s.loc[c] == 2:
                            o[b + T + 2] = 1.0
                    b += T3
        # ---- per-seat scalars (only the values that are not 0 are written)
        teams = g.team_mode
        alive, hand, deck, discard, done = s.alive, s.hand, s.deck, s.discard, s.first_turn_done
        hp, factions, fac_hp = s.hp, s.factions, g.tables.fac_hp
        ts = s.turn_seat
        b = self.a_seats
        for q in self.order[p]:
            if alive[q]:
                o[b] = 1.0
            if teams:
                o[b + 1] = min(1.0, max(0, s.pool[g.team[q]]) / g.team_hp)
                if q != p and g.team[q] == g.team[p]:
                    o[b + 5] = 1.0
            elif hp[q] > 0:
                x = hp[q] / max(1, fac_hp[factions[q]])
                o[b + 1] = x if x < 1.0 else 1.0
            o[b + 2] = len(deck[q]) / PER_SEAT
            o[b + 3] = (H - hand[q].count(-1)) / H
            x = len(discard[q])
            if x:
                o[b + 4] = x / PER_SEAT if x < PER_SEAT else 1.0
            if module:
                if s.mono_folded[q]:
                    o[b + 6] = 1.0
                sc = s.seg_content[q]
                sr = s.seg_revealed[q]
                o[b + 7] = ((sc[0] >= 0 and not sr[0]) + (sc[1] >= 0 and not sr[1])) / 2.0
            if ts == q:
                o[b + 8] = 1.0
            if done[q]:
                o[b + 9] = 1.0
            b += 10
        # ---- global
        o[self.a_sub + s.sub_phase] = 1.0
        if s.acting_seat >= 0:
            o[self.a_acting + rel[s.acting_seat]] = 1.0
        o[self.a_turn + rel[ts]] = 1.0
        a = self.a_scalars
        x = s.discarded
        if x:
            o[a] = 1.0 if x >= 1 else float(x)
        if s.uses:
            o[a + 1] = s.uses / 2.0
        if s.placed:
            o[a + 2] = 1.0
        if s.unfolded:
            o[a + 3] = 1.0
        if s.exception_used:
            o[a + 4] = 1.0
        if g.reinf and ts == 0 and not done[0]:  # the first turn's use cap is active
            o[a + 5] = 1.0
        if s.last_round:
            o[a + 6] = 1.0
        owed = sum(s.last_round_owed)
        if owed:
            o[a + 7] = owed / 3.0
        if s.b_active:
            o[a + 8] = 1.0
            o[a + 9] = max(0, min(9, s.b_phase)) / 9.0
        o[a + 10] = s.poison_supply / 5.0
        if s.net_marker_on < 0:
            o[a + 11] = 1.0
        if s.entrench_on < 0:
            o[a + 12] = 1.0
        x = s.decisions / g.max_decisions
        o[a + 13] = x if x < 1.0 else 1.0
        if s.p_effect >= 0:
            o[self.a_peff + s.p_effect] = 1.0
        a = self.a_phex
        for h in (s.p_a, s.p_b, s.p_c):
            if 0 <= h < 19:
                o[a + h] = 1.0
            a += 19
        if 0 <= s.p_mode < 5:
            o[self.a_pmode + s.p_mode] = 1.0
        for a in self.config_ones:
            o[a] = 1.0
        return out


def _deck_counts(deck: list, itype: list, T: int, old) -> tuple:
    """``(len(deck), float32[T] type counts / 4, copy of deck)`` for the unseen-pool piece.

    ``old`` is the previous entry for this deck (or None).  In play a deck only ever loses tiles from its
    top (docs/monolith_arena.md §9 invariant 4), so when ``deck`` is the start of the old copy the counts of the removed tiles
    are subtracted (quarters are exact in float32); otherwise (a Monolith pick during setup) they are
    recounted.  Code that edits a deck any other way drops the cache (:func:`~monolith_envs.arena.effects.dirty_decks`).
    """
    L = len(deck)
    if old is not None and L < old[0] and old[2][:L] == deck:
        arr = old[1].copy()
        for i in old[2][L:]:
            arr[itype[i]] -= 0.25
        return L, arr, old[2][:L]
    types = np.fromiter((itype[i] for i in deck), np.intp, L)
    if L and not (0 <= types.min() and types.max() < T):  # (bincount would allocate up to the largest value)
        bad = int(types.min()) if types.min() < 0 else int(types.max())
        raise IndexError(f"observation: deck holds a tile of type {bad} outside 0..{T - 1}")
    arr = np.bincount(types, minlength=T).astype(np.float32) * 0.25
    return L, arr, list(deck)
