"""Observation of Monolith Arena (docs/monolith_arena.md §7): ``float32[19*(76+T) + 4*H*(T+1) + 4*T + 8*(T+3) + 40 + 131]``.

Seat-relative: "me" first, then the following seats in turn order (absent seats are zero).  This module
is the only place that decides visibility: opponents never see unrevealed Monolith contents, and nobody
sees any deck order (only multisets: my deck exactly; others' deck together with their unrevealed
Monolith tiles).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ..core.compiled import PURE_PYTHON_ENV, CompiledObserver
from ..core.observation import ObsSpec
from .effects import get_fx
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff, Loc, Sub
from .tables import Kind

try:  # the compiled builder (setup.py); the pure-Python one below is the reference and the fallback
    from . import _fastobs
except ImportError:  # pragma: no cover - depends on the install
    _fastobs = None

__all__ = ["build_obs_spec", "Observer", "compiled_available", "PURE_PYTHON_ENV"]


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


_ON_BOARD = int(Loc.BOARD)

#: largest initiative value with its own activations slot (higher ones count at it); battle_phase / it
MAX_INITIATIVE = 9
#: the hex row's sub-fields (``None``: the type one-hot, ``T`` wide); ``HEX_ROW + T`` floats in all
_HEX_FIELDS = (("empty", 1), ("owner", 4), ("kind", 3), ("type", None), ("facing", 6),
               ("wounds", 1), ("tough", 1), ("poison", 1),
               ("netted", 1), ("net_marker", 1), ("disarmed", 1), ("entrenched", 1), ("used", 1),
               ("activations", MAX_INITIATIVE + 1),
               ("melee", 6), ("ranged", 6), ("armor", 6), ("net_dirs", 6), ("connection", 6), ("kill", 6),
               ("no_segment", 1), ("segment_owner", 4), ("segment", 3))
HEX_ROW = sum(w for _, w in _HEX_FIELDS if w is not None)
SEAT_FIELDS = ("alive", "hp", "deck", "hand", "discard", "ally", "folded", "unrevealed", "turn_seat",
               "first_turn_done")
SCALAR_FIELDS = ("discarded", "uses", "placed", "unfolded", "exception_used", "use_cap", "last_round",
                 "last_round_owed", "battle", "battle_phase", "poison_supply", "net_marker_free",
                 "entrench_free", "decisions")


def hex_fields(T: int) -> tuple:
    """The sub-fields of one hex row for ``T`` tile types: empty, owner (relative seat), kind, type, facing,
    wounds, toughness, poison, the flags (netted, Net-order marker, disarmed, entrenched, used), activations
    per initiative, the direction stats (melee, ranged, armor, net, connection, kill: 6 directions each) and
    the Monolith segment on the hex (none, its owner, its segment number)."""
    return tuple((name, T if w is None else w) for name, w in _HEX_FIELDS)


def build_obs_spec(T: int, H: int, hex_high: float = 1.0, unseen_high: float = 1.0) -> ObsSpec:
    """The :class:`ObsSpec` for ``T`` tile types and ``H`` hand slots (pieces in docs/monolith_arena.md §7 order).

    ``hex_high`` and ``unseen_high`` bound the pieces whose spec normalisation can exceed 1 (see
    :func:`obs_bounds`); ``scalars`` can reach ``H / 2`` through ``uses / 2``.
    """
    return ObsSpec([
        ("hex", (19, HEX_ROW + T), 0.0, hex_high, "per hex: empty, owner[4] kind[3] type[T] facing[6] wounds/3 "
                                                  "tough/3 poison/5 flags[5] activations per initiative 0-9 /2 [10] "
                                                  "dir stats[6x6] (strengths /4) monolith segment[8]", hex_fields(T)),
        ("hands", (4, H, T + 1), 0.0, 1.0, "per relative seat and slot: type one-hot, fresh flag",
         (("type", T), ("fresh", 1))),
        ("unseen", (4, T), 0.0, unseen_high, "counts/4: my deck; others: deck + unrevealed Monolith tiles"),
        ("monolith", (4, 2, T + 3), 0.0, 1.0, "segments 2,3: type (if known), empty, hidden, on board",
         (("type", T), ("empty", 1), ("hidden", 1), ("on_board", 1))),
        ("seats", (4, len(SEAT_FIELDS)), 0.0, 1.0,
         f"alive, hp, deck/{PER_SEAT}, hand/H, discard/{PER_SEAT}, ally, folded, unrevealed/2, turn seat, "
         "first turn done", tuple((f, 1) for f in SEAT_FIELDS)),
        ("sub_phase", (len(Sub),), 0.0, 1.0, "sub-phase one-hot"),
        ("acting", (4,), 0.0, 1.0, "acting seat, relative"),
        ("turn", (4,), 0.0, 1.0, "turn seat, relative"),
        ("scalars", (14,), 0.0, max(1.0, H / 2.0), "turn and game scalars (docs/monolith_arena.md §7); uses/2 up to H/2",
         tuple((f, 1) for f in SCALAR_FIELDS)),
        ("pending_effect", (len(Eff),), 0.0, 1.0, "pending effect kind one-hot"),
        ("pending_hex", (3, 19), 0.0, 1.0, "pending hexes A, B, C"),
        ("pending_mode", (5,), 0.0, 1.0, "chosen Order option"),
        ("config", (3,), 0.0, 1.0, "monolith module, reinforcement, teams",
         (("module", 1), ("reinforcement", 1), ("teams", 1))),
    ])


_STATIC_CACHE: dict = {}


def _static_rows(tb, spec: ObsSpec) -> np.ndarray:
    """``float32[T + 1, 6, 4, W]``: the hex row of type ``t`` at facing ``f`` owned by relative seat ``r``
    with its printed values (kind, type, facing, toughness, activations, direction stats, no Monolith
    segment); row ``t == T`` is an empty hex.  Offsets are the ``hex`` piece's fields of ``spec``.  Computed
    once per content tables and row layout and shared by every game instance (about 1 MB, so building it
    per env would cost that much memory per env)."""
    hexp = spec["hex"]
    W = hexp.shape[-1]
    key = (id(tb), hexp.fields)
    hit = _STATIC_CACHE.get(key)
    if hit is not None and hit[0] is tb:
        return hit[1]
    f_ = {name: hexp.field(name)[0] for name, _ in hexp.fields}
    o_owner, o_kind, o_type, o_face, o_tough, o_acts = (
        f_["owner"], f_["kind"], f_["type"], f_["facing"], f_["tough"], f_["activations"])
    o_melee, o_ranged, o_armor, o_net, o_conn, o_kill = (
        f_["melee"], f_["ranged"], f_["armor"], f_["net_dirs"], f_["connection"], f_["kill"])
    T = tb.T
    static = np.zeros((T + 1, 6, 4, W), np.float32)
    for t in range(T):
        k = tb.kind[t]
        cnt: dict = {}
        for v in tb.init[t]:
            v = min(v, MAX_INITIATIVE)
            cnt[v] = cnt.get(v, 0) + 1
        tg = tb.tough[t]
        for f in range(6):
            row = static[t, f]  # [4, W], one row per relative owner
            for r in range(4):
                row[r, o_owner + r] = 1.0
            if k != Kind.ORDER:  # (the kind one-hot: banner, champion, rune; Orders never stand on the board)
                row[:, o_kind + k] = 1.0
            row[:, o_type + t] = 1.0
            row[:, o_face + f] = 1.0
            row[:, o_tough] = tg / 3.0 if tg < 3 else 1.0
            for v, c in cnt.items():
                row[:, o_acts + v] = 0.5 * c
            for d in range(6):
                row[:, o_melee + d] = tb.melee[t][f][d] / 4.0
                row[:, o_ranged + d] = tb.ranged[t][f][d] / 4.0
                row[:, o_armor + d] = 1.0 if tb.armor[t][f][d] else 0.0
            for d in tb.net_dirs[t][f]:
                row[:, o_net + d] = 1.0
            if k == Kind.RUNE:
                for d in tb.conn_dirs[t][f]:
                    row[:, o_conn + d] = 1.0
            for d in tb.kill_dirs[t][f]:
                row[:, o_kill + d] = 1.0
    static[T, :, :, f_["empty"]] = 1.0
    static[:, :, :, f_["no_segment"]] = 1.0  # Monolith segment owner: 'none' unless a segment lies there
    _STATIC_CACHE[key] = (tb, static)
    return static


class Observer(CompiledObserver):
    """Builds observations for one game (precomputed static per-(type, facing, relative owner) hex rows).

    Args:
        game: the rules context (:class:`~monolith_envs.arena.context.RulesContext`) of the game.
        compiled: use the compiled builder (``monolith_envs.arena._fastobs``); ``None`` (default) uses it when
            it is built and the environment variable ``MONOLITH_ENVS_PURE_PYTHON`` is not ``1``.  Both give the
            same values (``tests/arena/test_fastobs.py``); :meth:`observe_python` is the reference.

    Raises:
        RuntimeError: ``compiled=True`` but the extension is not built.
    """

    _extension = _fastobs
    _extension_name = "monolith_envs.arena._fastobs"

    def __init__(self, game, compiled: bool | None = None):
        self.g = game
        tb = game.tables
        T = self.T = tb.T
        H = self.H = game.H
        self.spec = spec = build_obs_spec(T, H, *obs_bounds(game.content))
        self.size = spec.size
        self.W = spec["hex"].shape[-1]
        self.hx = _starts(spec["hex"])  # hex-row fields, within a row
        self.hand_f, self.mono_f, self.seat_f = _starts(spec["hands"]), _starts(spec["monolith"]), _starts(spec["seats"])
        self.scalar_at = _starts(spec["scalars"], spec["scalars"].offset)  # absolute indices
        self.seat_row, self.hand_row, self.mono_row, self.phex_row = (
            spec[name].shape[-1] for name in ("seats", "hands", "monolith", "pending_hex"))
        self.mono_seat = spec["monolith"].size // spec["monolith"].shape[0]  # floats per relative seat
        self.n_modes = spec["pending_mode"].size
        self.a_mono = spec["monolith"].offset
        self.n_acts = spec["hex"].field("activations")[1] - self.hx.activations
        self.armor_w = spec["hex"].field("armor")[1] - self.hx.armor
        self.static = static = _static_rows(tb, spec)
        self.static_flat = static.reshape(-1, self.W)
        self.empty_row = T * 24  # flat row index ((t * 6 + f) * 4 + r) of an empty hex
        n = game.n
        self.rels = [tuple((q - p) % n for q in range(n)) for p in range(n)]
        hand_seat = spec["hands"].size // spec["hands"].shape[0]
        self.hand_base = [tuple(spec["hands"].offset + r * hand_seat for r in rel) for rel in self.rels]
        self.unseen_base = [tuple(spec["unseen"].offset + r * T for r in rel) for rel in self.rels]
        self.a_seats = spec["seats"].offset
        self.order = [tuple((p + r) % n for r in range(n)) for p in range(n)]  # seats in relative order
        self.a_sub, self.a_acting, self.a_turn = spec["sub_phase"].offset, spec["acting"].offset, spec["turn"].offset
        self.a_peff, self.a_phex, self.a_pmode = (
            spec["pending_effect"].offset, spec["pending_hex"].offset, spec["pending_mode"].offset)
        self._last: tuple | None = None  # (fx, p, hex block) of the last observation
        cf = _starts(spec["config"], spec["config"].offset)
        self.config_ones = [a for a, on in ((cf.module, game.module), (cf.reinforcement, game.reinf),
                                            (cf.teams, game.team_mode)) if on]
        self.compiled = self._use_compiled(compiled)
        self._ctx = self._make_context(game) if self.compiled else None

    def layout_ints(self, game) -> dict:
        """The named ints of the compiled builder, read once when its context is built: every piece offset
        and ``"piece.field"`` start of the :class:`ObsSpec` (``spec.offsets()``: ``"hands"``, ``"hex.netted"``,
        ``"seats.hp"``, ``"scalars.uses"``, ...), the row width, size and first-axis stride of every piece
        (``"seats.row"``, ``"sub_phase.size"``, ``"hands.stride"``, ...), the game's sizes and flags and the
        codes the builder compares with."""
        spec = self.spec
        out = spec.offsets()
        for piece in spec.pieces:
            out[f"{piece.name}.row"] = piece.shape[-1]
            out[f"{piece.name}.size"] = piece.size
            out[f"{piece.name}.stride"] = piece.size // piece.shape[0]  # floats per entry of the first axis
        out.update(T=self.T, H=self.H, W=self.W, n=game.n, size=self.size, module=int(game.module),
                   reinf=int(game.reinf), teams=int(game.team_mode), max_decisions=int(game.max_decisions),
                   empty_row=self.empty_row, per_seat=PER_SEAT, max_initiative=MAX_INITIATIVE,
                   loc_board=int(Loc.BOARD))
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
            hx, W, n_acts = self.hx, self.W, self.n_acts
            o_tough, o_netted, o_disarmed, o_acts, o_melee, o_ranged = (
                hx.tough, hx.netted, hx.disarmed, hx.activations, hx.melee, hx.ranged)
            top = n_acts - 1
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
                    o[b + o_tough] = tg / 3.0 if tg < 3 else 1.0
                net = f_net[h]
                dis = f_dis[h]
                if net:
                    o[b + o_netted] = 1.0
                if dis:
                    o[b + o_disarmed] = 1.0
                vals = f_inits[h]
                if net or dis or vals != p_init[t]:
                    b2 = b + o_acts
                    block[b2:b2 + n_acts] = 0.0
                    if not net and not dis:
                        for v in vals:
                            o[b2 + (v if v < top else top)] += 0.5
                mb = f_mb[h]
                if mb:
                    mrow = melee[t][f]
                    for d in melee_dirs[t][f]:
                        o[b + o_melee + d] = (mrow[d] + mb) / 4.0
                rb = f_rb[h]
                if rb:
                    rrow = ranged[t][f]
                    for d in ranged_dirs[t][f]:
                        o[b + o_ranged + d] = max(0, rrow[d] + rb) / 4.0
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
        out = np.empty(self.size, np.float32)  # the builder writes every value
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
        hx = self.hx
        # (x.count(0) != len(x) is a fast any(x); tiles folded into a Monolith keep wounds and poison)
        if wounds.count(0) != len(wounds):
            for h in occ:
                w = wounds[board[h]]
                if w:
                    o[h * W + hx.wounds] = w / 3.0 if w < 3 else 1.0
        if poison.count(0) != len(poison):
            for h in occ:
                pz = poison[board[h]]
                if pz:
                    o[h * W + hx.poison] = pz / 5.0
        if used.count(0) != len(used):
            for h in occ:
                if used[board[h]]:
                    o[h * W + hx.used] = 1.0
        m = s.net_marker_on
        if m >= 0 and m in board:
            o[board.index(m) * W + hx.net_marker] = 1.0
        m = s.entrench_on
        if m >= 0 and m in board:
            b = board.index(m) * W
            o[b + hx.entrenched] = 1.0
            b += hx.armor
            out[b:b + self.armor_w] = 1.0
        if module:
            o_none, o_owner, o_seg = hx.no_segment, hx.segment_owner, hx.segment
            for q in range(n):
                sh = s.seg_hex[q]
                if sh[0] < 0 or not s.alive[q]:
                    continue
                r = rel[q]
                if s.mono_folded[q]:
                    b = sh[0] * W
                    o[b + o_none] = 0.0
                    o[b + o_owner + r] = 1.0
                    o[b + o_seg] = o[b + o_seg + 1] = o[b + o_seg + 2] = 1.0
                else:
                    for k in range(3):
                        b = sh[k] * W
                        o[b + o_none] = 0.0
                        o[b + o_owner + r] = 1.0
                        o[b + o_seg + k] = 1.0
        # ---- hands
        hf = self.hand_f
        h_type, h_fresh, h_row = hf.type, hf.fresh, self.hand_row
        fresh = s.fresh
        for q, b in enumerate(self.hand_base[p]):
            fq = fresh[q]
            for k, i in enumerate(s.hand[q]):
                if i >= 0:
                    o[b + h_type + itype[i]] = 1.0
                    if fq[k]:
                        o[b + h_fresh] = 1.0
                b += h_row
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
            mf, m_row, m_seat = self.mono_f, self.mono_row, self.mono_seat
            m_type, m_empty, m_hidden, m_board = mf.type, mf.empty, mf.hidden, mf.on_board
            for q in range(n):
                if not s.alive[q]:
                    continue
                b = self.a_mono + rel[q] * m_seat
                for k in (0, 1):
                    c = s.seg_content[q][k]
                    if c < 0:
                        o[b + m_empty] = 1.0
                    else:
                        rev = s.seg_revealed[q][k]
                        if q == p or rev or omniscient:
                            o[b + m_type + itype[c]] = 1.0
                        if not rev:
                            o[b + m_hidden] = 1.0
                        if s.loc[c] == _ON_BOARD:
                            o[b + m_board] = 1.0
                    b += m_row
        # ---- per-seat scalars (only the values that are not 0 are written)
        teams = g.team_mode
        alive, hand, deck, discard, done = s.alive, s.hand, s.deck, s.discard, s.first_turn_done
        hp, factions, fac_hp = s.hp, s.factions, g.tables.fac_hp
        ts = s.turn_seat
        sf = self.seat_f
        f_alive, f_hp, f_deck, f_hand, f_discard, f_ally, f_folded, f_unrev, f_turn, f_done = (
            sf.alive, sf.hp, sf.deck, sf.hand, sf.discard, sf.ally, sf.folded, sf.unrevealed, sf.turn_seat,
            sf.first_turn_done)
        b = self.a_seats
        for q in self.order[p]:
            if alive[q]:
                o[b + f_alive] = 1.0
            if teams:
                o[b + f_hp] = min(1.0, max(0, s.pool[g.team[q]]) / g.team_hp)
                if q != p and g.team[q] == g.team[p]:
                    o[b + f_ally] = 1.0
            elif hp[q] > 0:
                x = hp[q] / max(1, fac_hp[factions[q]])
                o[b + f_hp] = x if x < 1.0 else 1.0
            o[b + f_deck] = len(deck[q]) / PER_SEAT
            o[b + f_hand] = (H - hand[q].count(-1)) / H
            x = len(discard[q])
            if x:
                o[b + f_discard] = x / PER_SEAT if x < PER_SEAT else 1.0
            if module:
                if s.mono_folded[q]:
                    o[b + f_folded] = 1.0
                sc = s.seg_content[q]
                sr = s.seg_revealed[q]
                o[b + f_unrev] = ((sc[0] >= 0 and not sr[0]) + (sc[1] >= 0 and not sr[1])) / 2.0
            if ts == q:
                o[b + f_turn] = 1.0
            if done[q]:
                o[b + f_done] = 1.0
            b += self.seat_row
        # ---- global
        o[self.a_sub + s.sub_phase] = 1.0
        if s.acting_seat >= 0:
            o[self.a_acting + rel[s.acting_seat]] = 1.0
        o[self.a_turn + rel[ts]] = 1.0
        c = self.scalar_at
        x = s.discarded
        if x:
            o[c.discarded] = 1.0 if x >= 1 else float(x)
        if s.uses:
            o[c.uses] = s.uses / 2.0
        if s.placed:
            o[c.placed] = 1.0
        if s.unfolded:
            o[c.unfolded] = 1.0
        if s.exception_used:
            o[c.exception_used] = 1.0
        if g.reinf and ts == 0 and not done[0]:  # the first turn's use cap is active
            o[c.use_cap] = 1.0
        if s.last_round:
            o[c.last_round] = 1.0
        owed = sum(s.last_round_owed)
        if owed:
            o[c.last_round_owed] = owed / 3.0
        if s.b_active:
            o[c.battle] = 1.0
            o[c.battle_phase] = max(0, min(MAX_INITIATIVE, s.b_phase)) / MAX_INITIATIVE
        o[c.poison_supply] = s.poison_supply / 5.0
        if s.net_marker_on < 0:
            o[c.net_marker_free] = 1.0
        if s.entrench_on < 0:
            o[c.entrench_free] = 1.0
        x = s.decisions / g.max_decisions
        o[c.decisions] = x if x < 1.0 else 1.0
        if s.p_effect >= 0:
            o[self.a_peff + s.p_effect] = 1.0
        a, nh = self.a_phex, self.phex_row
        for h in (s.p_a, s.p_b, s.p_c):
            if 0 <= h < nh:
                o[a + h] = 1.0
            a += nh
        if 0 <= s.p_mode < self.n_modes:
            o[self.a_pmode + s.p_mode] = 1.0
        for a in self.config_ones:
            o[a] = 1.0
        return out


_STARTS_CACHE: dict = {}


def _starts(piece, base: int = 0) -> SimpleNamespace:
    """The start of each sub-field of ``piece`` within a row (plus ``base``), as attributes by field name.

    Read only; one object per layout, shared by the game instances that have it (memory per env)."""
    key = (piece.fields, base)
    hit = _STARTS_CACHE.get(key)
    if hit is None:
        hit = _STARTS_CACHE[key] = SimpleNamespace(**{name: base + piece.field(name)[0] for name, _ in piece.fields})
    return hit


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
