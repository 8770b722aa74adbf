"""The observation of ``the_monolith_v0`` (docs/the_monolith.md §7): seat-relative float32, 1587 floats by
default. This module alone decides what a seat may see: its own objectives by identity, everyone
else's by count; deck orders never; face-down discards only through the discard size.

Two builders give the same values: the compiled one (``monolith_envs.the_monolith._fastobs``, used when it
is built) and the pure-Python one (:meth:`Observer.observe_python`), which is the reference
(``tests/the_monolith/test_fastobs.py`` compares them at every decision of seeded games). Set the
environment variable ``MONOLITH_ENVS_PURE_PYTHON=1`` to use the Python one everywhere."""

from __future__ import annotations

import numpy as np

from ..core.compiled import PURE_PYTHON_ENV, CompiledObserver
from ..core.observation import ObsSpec
from .board import controllers, tunnels_now
from .state import Sub

try:  # the compiled builder (setup.py); the pure-Python one below is the reference and the fallback
    from . import _fastobs
except ImportError:  # pragma: no cover - depends on the install
    _fastobs = None

__all__ = ["Observer", "compiled_available", "PURE_PYTHON_ENV"]

P = 4  # player blocks

#: Set to ``1`` to use the pure-Python observation even when the compiled one is built.

_BUILDINGS = ("scriptorium", "mausoleum", "temple")  # the columns of spaces.building
#: the column order of each piece's rows, ``(name, width)`` (docs §7): the compiled builder reads every
#: start by name (:meth:`Observer.layout_ints`).
SPACE_COLUMNS = (("active", 1), ("building", len(_BUILDINGS)), ("tunnel", 1), ("monolith", 1),
                 ("stronghold", P), ("slots", 1), ("blood", 1), ("seats", 5 * P), ("controller", P))
SEAT_COLUMNS = ("living", "dead", "shaman_alive", "shaman_dead", "boast")  # per relative seat in spaces.seats
DECK_COLUMNS = ("div_deck", "event_deck", "obj_deck", "obj_discard")
CONFIG_COLUMNS = ("slay_weight", "maneuver_weight", "boast_weight", "retention")


_PLAYER_FLAGS = ("favour", "shaman_alive", "committed", "out", "kills", "objectives", "draft_bid", "shaman", "held")
_CONTEXT_FIELDS = ("focus", "slot", "owed", "surge_first", "march_group", "march_steps", "free_steps",
                   "shaman_steps", "paid", "bonus", "free_fate", "power_used", "draft_shaman", "high_bid",
                   "high_bidder", "passed", "claimed")


def player_columns(S: int, D: int) -> tuple:
    """The columns of one relative seat's row of ``players`` (S shamans, D divinations)."""
    ones = ("present", "favour", "available", "spent", "unearned", "on_row", "tower_today", "tower_stuck")
    return (tuple((c, 1) for c in ones) + (("zones", 3),)
            + tuple((c, 1) for c in ("boast", "reserves", "anger", "limbo", "living", "dead", "shaman_alive",
                                     "committed", "out", "kills", "objectives", "draft_bid"))
            + (("shaman", S), ("held", D)))


def context_columns(N: int, R: int, S: int) -> tuple:
    """The fields of the ``context`` piece (N spaces, R row slots, S shamans)."""
    ones = ("owed", "surge_first", "march_group", "march_steps", "free_steps", "shaman_steps", "paid", "bonus",
            "free_fate")
    return ((("focus", N), ("slot", R)) + tuple((c, 1) for c in ones)
            + (("power_used", 4), ("draft_shaman", S), ("high_bid", 1), ("high_bidder", P), ("passed", P),
               ("claimed", S)))


def _starts(columns, width: int, piece: str) -> dict:
    """``{name: start}`` of ``(name, width)`` columns that must fill ``width``.

    Raises:
        ValueError: the columns do not add up to the row width.
    """
    out, at = {}, 0
    for name, w in columns:
        out[name] = at
        at += w
    if at != width:
        raise ValueError(f"observation piece {piece!r}: its columns cover {at} of {width}")
    return out


def compiled_available() -> bool:
    """True when the compiled observation builder ``monolith_envs.the_monolith._fastobs`` is built and loads."""
    return _fastobs is not None


class Observer(CompiledObserver):
    """Builds the :class:`ObsSpec` of a game and its observations.

    Args:
        g: the game (:class:`~monolith_envs.the_monolith.game.MonolithGame`; its static tables).
        compiled: use the compiled builder (``monolith_envs.the_monolith._fastobs``); ``None`` (default) uses
            it when it is built and the environment variable ``MONOLITH_ENVS_PURE_PYTHON`` is not ``1``. Both
            give the same values; :meth:`observe_python` is the reference.

    Raises:
        RuntimeError: ``compiled=True`` but the extension is not built.
    """

    _extension = _fastobs
    _extension_name = "monolith_envs.the_monolith._fastobs"

    def __init__(self, g, compiled: bool | None = None):
        self.g = g
        N, R, S, D, E, O = g.N, g.R, g.S, g.D, g.E, g.O
        self.pw = sum(w for _, w in player_columns(S, D))
        self.sw = sum(w for _, w in SPACE_COLUMNS)
        self.spec = ObsSpec([
            ("phase", (5,), 0, 1, "one-hot SETUP, ORDER, ACTION, REST, GAME_OVER"),
            ("sub_phase", (24,), 0, 1, "one-hot decision kind, docs §6.2 order"),
            ("day", (g.num_days,), 0, 1, "one-hot day"),
            ("decider", (P,), 0, 1, "relative one-hot of the deciding seat"),
            ("first_player", (P,), 0, 1, "relative one-hot"),
            ("surge", (P + 1,), 0, 1, "relative one-hot of the surge holder, then 'none'"),
            ("players", (P, self.pw), 0, 100, "per relative seat: present, favour/100, heart pools/19, warrior "
             "pools/16, flags, kills/16, objectives/3, draft bid, shaman one-hot, held divinations multi-hot"),
            ("spaces", (N, self.sw), 0, 1, "per space: active, building, tunnel now, monolith, stronghold owner, "
             "slots/6, blood/6, per relative seat x5 (living/16, dead/16, shaman alive, shaman dead, boast/6), "
             "controller"),
            ("row", (R, D + P), 0, 1, "per row slot: card one-hot, bid per relative seat/19"),
            ("own_objectives", (O,), 0, 1, "multi-hot of the observer's hand"),
            ("scored_objectives", (O,), 0, 1, "multi-hot of face-up objective discards"),
            ("div_discard", (D,), 0, 1, "multi-hot"),
            ("events", (E, N + 2), 0, 1, "per event: in play, discarded, space one-hot"),
            ("deck_sizes", (4,), 0, 1, "divination deck/D, event deck/E, objective deck/O, objective discard/O"),
            ("context", (sum(w for _, w in context_columns(N, R, S)),), 0, 4, "focus space, focus slot, actions owed/4, surge first "
             "turn, march group/16, march steps/10, free steps/5, shaman steps/5, paid/19, bonus/5, free fate/5, "
             "power used (4), draft shaman, high bid, high bidder, passed, claimed"),
            ("config", (4,), 0, 1, "normalised tower weights (3), retention"),
        ])
        self.views_of = {p.name: (p.offset, p.stop, p.shape) for p in self.spec.pieces}
        self.columns = {  # piece (or "spaces.seat") -> {column: start within a row}
            "players": _starts(player_columns(S, D), self.pw, "players"),
            "spaces": _starts(SPACE_COLUMNS, self.sw, "spaces"),
            "spaces.seat": _starts(((c, 1) for c in SEAT_COLUMNS), len(SEAT_COLUMNS), "spaces.seat"),
            "row": _starts((("card", D), ("bids", P)), D + P, "row"),
            "events": _starts((("in_play", 1), ("discarded", 1), ("space", N)), N + 2, "events"),
            "deck_sizes": _starts(((c, 1) for c in DECK_COLUMNS), len(DECK_COLUMNS), "deck_sizes"),
            "context": _starts(context_columns(N, R, S), self.spec["context"].size, "context"),
            "config": _starts(((c, 1) for c in CONFIG_COLUMNS), len(CONFIG_COLUMNS), "config"),
        }
        pc = self.columns["players"]
        self._heart_at = [pc[c] for c in ("available", "spent", "unearned", "on_row", "tower_today",
                                          "tower_stuck")] + [pc["zones"] + z for z in range(3)] + [pc["boast"]]
        self._warrior_at = [pc[c] for c in ("reserves", "anger", "limbo", "living", "dead")]
        self._player_at = tuple(pc[c] for c in _PLAYER_FLAGS)
        self._context_at = tuple(self.columns["context"][c] for c in _CONTEXT_FIELDS)
        rc, ec, dc = self.columns["row"], self.columns["events"], self.columns["deck_sizes"]
        self._cards_at = (self.spec["row"].shape[-1], rc["card"], rc["bids"], self.spec["events"].shape[-1],
                          ec["in_play"], ec["space"], ec["discarded"]) + tuple(dc[c] for c in DECK_COLUMNS)
        self.dmb = max(1, g.config["draft_max_bid"])
        self.offsets = {p.name: p.offset for p in self.spec.pieces}
        self._templates: dict = {}
        self._static: dict = {}
        self._map_key = None
        self._map_val: tuple = ()
        self.inactive = [sp for sp in range(g.N) if not g.active[sp]]
        self.compiled = self._use_compiled(compiled)
        self._ctx = self._make_context() if self.compiled else None

    def layout_ints(self) -> dict:
        """The named ints the compiled builder reads once, by name, when its context is built: the offset
        (``"players"``), row width (``"players.row"``) and size (``"phase.size"``) of every piece, the start
        of every column within a row (``"players.favour"``, ``"spaces.seat.boast"``, ``"context.high_bidder"``,
        ...), the game's sizes and the decision codes the ``context`` piece depends on (``"sub.MARCH_STEP"``)."""
        g, spec = self.g, self.spec
        out = spec.offsets()
        for piece in spec.pieces:
            out[f"{piece.name}.row"] = piece.shape[-1]
            out[f"{piece.name}.size"] = piece.size
        for piece, starts in self.columns.items():
            out.update({f"{piece}.{name}": at for name, at in starts.items()})
        out["spaces.seat_width"] = len(SEAT_COLUMNS)
        out.update({f"sub.{c.name}": int(c) for c in Sub})
        out.update(n=g.n, N=g.N, R=g.R, S=g.S, D=g.D, E=g.E, O=g.O, P=P, num_days=g.num_days, size=spec.size,
                   draft_max_bid=self.dmb, monolith=g.mono)
        return out

    def tables(self) -> dict:
        """The static int tables of the compiled builder, by name: per space ``active``, ``building`` (the
        column within ``spaces.building``, -1 for none), ``slots``, ``base_tunnel``; per event
        ``event_tunnel`` (the last ``set_tunnel`` value of its reveal effects, -1 for none; docs §4.2); per
        shaman and per divination the ``shaman_control_weight`` of a passive modifier (0 for none; docs
        §4.1); per seat its stronghold ``hold``."""
        g = self.g

        def weight(window, eff) -> int:
            on = window == "passive" and eff.op == "modifier" and eff.name == "shaman_control_weight"
            return int(eff.amount) if on else 0

        tunnel = []
        for ev in g.events:
            sets = [int(bool(e.value)) for e in ev.reveal if e.op == "set_tunnel"]
            tunnel.append(sets[-1] if sets else -1)
        return {
            "active": [int(a) for a in g.active],
            "building": [_BUILDINGS.index(b) if b in _BUILDINGS else -1 for b in g.building],
            "slots": [int(x) for x in g.slots],
            "base_tunnel": [int(x) for x in g.base_tunnel],
            "event_tunnel": tunnel,
            "shaman_weight": [weight(sh.window, sh.effect) for sh in g.shamans],
            "div_weight": [weight(d.window, d.effect) for d in g.divs],
            "hold": [int(x) for x in g.hold],
        }

    def _make_context(self):
        """The compiled builder's context (a capsule) from :meth:`layout_ints`, :meth:`tables` and the config
        piece's four values (normalised tower weights and retention, as the Python builder writes them)."""
        g = self.g
        config = [g.cumw[0], g.cumw[1] - g.cumw[0], 1.0 - g.cumw[1], g.rho]
        return _fastobs.make_context(self.layout_ints(), self.tables(), config)

    def _v(self, vec, name):
        a, b, shape = self.views_of[name]
        return vec[a:b].reshape(shape)

    def _template(self, n: int, viewer: int) -> tuple:
        """The static part of seat ``viewer``'s observation in an ``n``-seat game, built once: ``(vector,
        seats, cols)`` with the present flags and the config filled in, ``seats`` the seat of each
        relative block and ``cols`` the spaces block's column order (relative column <- seat column)."""
        key = (n, viewer)
        t = self._templates.get(key)
        if t is not None:
            return t
        g = self.g
        vec = np.zeros(self.spec.size, np.float32)
        self._v(vec, "players")[:n, self.columns["players"]["present"]] = 1
        cf, cc = self._v(vec, "config"), self.columns["config"]
        cf[cc["slay_weight"]] = g.cumw[0]
        cf[cc["maneuver_weight"]] = g.cumw[1] - g.cumw[0]
        cf[cc["boast_weight"]] = 1.0 - g.cumw[1]
        cf[cc["retention"]] = g.rho
        rel = [(viewer + k) % n for k in range(n)]          # block k -> seat
        cols = np.arange(self.sw)
        sc, w = self.columns["spaces"], len(SEAT_COLUMNS)
        for k, q in enumerate(rel):
            for name in ("stronghold", "controller"):
                cols[sc[name] + k] = sc[name] + q
            a, b = sc["seats"] + w * k, sc["seats"] + w * q
            cols[a:a + w] = np.arange(b, b + w)
        t = self._templates[key] = (vec, rel, cols)
        return t

    def observe(self, s, viewer: int) -> np.ndarray:
        """``float32[spec.size]`` for seat ``viewer`` (0..n-1): the compiled builder's when it is used, else
        :meth:`observe_python` (the same values).

        Raises:
            ValueError: ``viewer`` is not a seat.
            TypeError, IndexError, ValueError, AttributeError: a malformed state (the compiled builder names
                the field).
        """
        ctx = self._ctx
        if ctx is None:
            if not self.compiled:
                return self.observe_python(s, viewer)
            ctx = self._ctx = self._make_context()  # after a copy or unpickling
        out = np.empty(self.spec.size, np.float32)
        _fastobs.observe(ctx, s, viewer, out)
        return out

    def observe_python(self, s, viewer: int) -> np.ndarray:
        """The pure-Python observation (the reference of the compiled builder): a copy of the seat's static template, the
        map block from :meth:`_map` (cached while the map is unchanged), then element writes of the
        other non-zero fields (each small numpy call costs more than tens of element writes).

        Raises:
            ValueError: ``viewer`` is not a seat.
        """
        g = self.g
        n = s.n
        if not 0 <= viewer < n:
            raise ValueError(f"observer seat {viewer} outside 0..{n - 1}")
        tmpl, rel, cols = self._template(n, viewer)
        vec = tmpl.copy()
        o = self.offsets
        vec[o["phase"] + int(s.phase)] = 1
        if s.sub >= 0:
            vec[o["sub_phase"] + int(s.sub)] = 1
        if 1 <= s.day <= g.num_days:
            vec[o["day"] + s.day - 1] = 1
        if not s.terminal and s.current >= 0:
            vec[o["decider"] + (s.current - viewer) % n] = 1
        vec[o["first_player"] + (s.first - viewer) % n] = 1
        vec[o["surge"] + ((s.surge - viewer) % n if s.surge >= 0 else P)] = 1
        block, liv, dead, boast = self._map(s)
        np.take(block, cols, axis=1, out=self._v(vec, "spaces"))
        bids = s.bids
        pw = self.pw
        dmb = self.dmb
        heart_at, warrior_at = self._heart_at, self._warrior_at
        favour, alive_, committed, out, kills, objectives_at, draft_at, shaman_at, held_at = self._player_at
        for k, q in enumerate(rel):
            b = o["players"] + k * pw
            vec[b + favour] = s.favour[q] / 100
            on_row = 0
            for r in bids:
                on_row += r[q]
            brd = s.board[q]
            for at, x in zip(heart_at, (s.available[q], s.spent[q], s.unearned[q], on_row, s.tower_today[q],
                                        s.tower_stuck[q], brd[0], brd[1], brd[2], boast[q])):
                if x:
                    vec[b + at] = x / 19
            for at, x in zip(warrior_at, (s.reserves[q], s.anger[q], s.limbo[q], liv[q], dead[q])):
                if x:
                    vec[b + at] = x / 16
            vec[b + alive_] = s.shaman_alive[q]
            vec[b + committed] = s.committed[q]
            vec[b + out] = s.out[q]
            vec[b + kills] = s.kills_today[q] / 16
            vec[b + objectives_at] = len(s.objectives[q]) / 3
            vec[b + draft_at] = s.draft_bid[q] / dmb
            if s.shaman_id[q] >= 0:
                vec[b + shaman_at + s.shaman_id[q]] = 1
            for c in s.held[q]:
                vec[b + held_at + c] = 1
        rw, card_at, bids_at, ew, in_play, space_at, discarded, div_deck, event_deck, obj_deck, obj_discard = (
            self._cards_at)
        ro = o["row"]
        for i, c in enumerate(s.row):
            b = ro + i * rw
            if c >= 0:
                vec[b + card_at + c] = 1
            r = bids[i]
            for k, q in enumerate(rel):
                if r[q]:
                    vec[b + bids_at + k] = r[q] / 19
        ov = o["own_objectives"]
        for ob in s.objectives[viewer]:
            vec[ov + ob] = 1
        so = o["scored_objectives"]
        for ob, up in s.obj_discard:
            if up:
                vec[so + ob] = 1
        dd = o["div_discard"]
        for c in s.div_discard:
            vec[dd + c] = 1
        eo = o["events"]
        for e, sp in s.events:
            vec[eo + e * ew + in_play] = 1
            if sp >= 0:
                vec[eo + e * ew + space_at + sp] = 1
        if s.sub == Sub.EVENT_PLACE and s.event_focus >= 0:  # the event drawn and being placed: in play, no space
            vec[eo + s.event_focus * ew + in_play] = 1
        for e in s.event_discard:
            vec[eo + e * ew + discarded] = 1
        ds = o["deck_sizes"]
        vec[ds + div_deck] = len(s.div_deck) / g.D
        vec[ds + event_deck] = len(s.event_deck) / g.E
        vec[ds + obj_deck] = len(s.obj_deck) / g.O
        vec[ds + obj_discard] = len(s.obj_discard) / g.O
        relof = {q: k for k, q in enumerate(rel)}                          # seat -> block
        ca, cb, _ = self.views_of["context"]
        self._context(s, vec[ca:cb], relof)
        return vec

    def _map(self, s) -> tuple:
        """The map's part of the observation, cached while the map is unchanged: ``(block, living, dead,
        boasts)``: the spaces block in absolute seat order (``float32[N, 36]``; a viewer's is a column
        permutation of it) and the per-seat totals of living warriors, dead warriors and boasts. The cache
        is keyed on copies of every state field the block reads (a content comparison, so any change of
        the state, by a rule or by hand, rebuilds it)."""
        key = self._map_key
        if key is not None and (s.living == key[0] and s.dead == key[1] and s.boast == key[2]
                                and s.blood == key[3] and s.shaman_space == key[4]
                                and s.shaman_alive == key[5] and s.events == key[6] and s.held == key[7]
                                and s.shaman_id == key[8] and s.n == key[9]):
            return self._map_val
        self._map_key = ([r[:] for r in s.living], [r[:] for r in s.dead], [r[:] for r in s.boast],
                         s.blood[:], s.shaman_space[:], s.shaman_alive[:], [e[:] for e in s.events],
                         [h[:] for h in s.held], s.shaman_id[:], s.n)
        self._map_val = self._spaces(s)
        return self._map_val

    def _static_spaces(self, n: int) -> np.ndarray:
        """The fixed fields of the spaces block in absolute seat order, flat (built once per seat count)."""
        sv = self._static.get(n)
        if sv is None:
            g = self.g
            sv = self._static[n] = np.zeros((g.N, self.sw), np.float32)
            sc = self.columns["spaces"]
            owner = {g.hold[q]: q for q in range(n)}
            for sp in g.active_spaces:
                b = sv[sp]
                b[sc["active"]] = 1
                if g.building[sp] in _BUILDINGS:
                    b[sc["building"] + _BUILDINGS.index(g.building[sp])] = 1
                b[sc["monolith"]] = sp == g.mono
                if sp in owner:
                    b[sc["stronghold"] + owner[sp]] = 1
                b[sc["slots"]] = g.slots[sp] / 6
            sv = self._static[n] = sv.reshape(-1)
        return sv

    def _spaces(self, s) -> tuple:
        """``(block, living, dead, boasts)`` of :meth:`_map`, built (docs §7 ``spaces``)."""
        g = self.g
        n = s.n
        sw = self.sw
        sv = self._static_spaces(n).copy()
        tun = tunnels_now(g, s)
        ctrl = controllers(g, s)
        liv, dead, boast = [0] * n, [0] * n, [0] * n
        seats = range(n)
        sc, uc, w = self.columns["spaces"], self.columns["spaces.seat"], len(SEAT_COLUMNS)
        tunnel, blood, controller = sc["tunnel"], sc["blood"], sc["controller"]
        unit = [sc["seats"] + w * q for q in seats]  # each seat's columns
        living_at, dead_at, boast_at = uc["living"], uc["dead"], uc["boast"]
        for sp in g.active_spaces:
            b = sp * sw
            if tun[sp]:
                sv[b + tunnel] = 1
            if s.blood[sp]:
                sv[b + blood] = s.blood[sp] / 6
            lv, dd, bo = s.living[sp], s.dead[sp], s.boast[sp]
            for q in seats:
                if lv[q]:
                    sv[b + unit[q] + living_at] = lv[q] / 16
                    liv[q] += lv[q]
                if dd[q]:
                    sv[b + unit[q] + dead_at] = dd[q] / 16
                    dead[q] += dd[q]
                if bo[q]:
                    sv[b + unit[q] + boast_at] = bo[q] / 6
                    boast[q] += bo[q]
            if ctrl[sp] >= 0:
                sv[b + controller + ctrl[sp]] = 1
        for sp in self.inactive:  # locked spaces hold nothing; the totals still count every space
            for q in seats:
                liv[q] += s.living[sp][q]
                dead[q] += s.dead[sp][q]
                boast[q] += s.boast[sp][q]
        active = g.active
        for q in seats:
            sp = s.shaman_space[q]
            if 0 <= sp < g.N and active[sp]:
                sv[sp * sw + unit[q] + uc["shaman_alive" if s.shaman_alive[q] else "shaman_dead"]] = 1
        return sv.reshape(g.N, sw), liv, dead, boast

    def _context(self, s, c, relof) -> None:
        """The ``context`` piece into ``c`` (``float32[context.size]``, zeros; ``relof``: seat -> block)."""
        sub = s.sub
        focus = -1
        if sub in (Sub.MARCH_STEP, Sub.MARCH_REGROUP):
            focus = s.march_cur
        elif sub == Sub.MARCH_GROUP:
            focus = s.march_src
        elif sub == Sub.SHAMAN_STEP:
            focus = s.shaman_space[s.current]
        elif sub == Sub.MANEUVER_DEST:
            focus = s.man_space
        elif sub in (Sub.POWER_WINDOW, Sub.EXTRA_KILL):
            focus = s.last_space if s.last_space >= 0 else s.man_space
        elif sub == Sub.EVENT_MOVE and s.event_focus >= 0:
            focus = s.events[s.event_focus][1]
        (focus_at, slot_at, owed, surge_first, group, steps, free, shaman_steps, paid, bonus, fate, used_at,
         draft_shaman, high_bid, high_bidder, passed, claimed) = self._context_at
        if focus >= 0:
            c[focus_at + focus] = 1
        if sub in (Sub.DIV_RAISE, Sub.DIV_AMOUNT) and s.focus_slot >= 0:
            c[slot_at + s.focus_slot] = 1
        c[owed] = s.owed / 4
        c[surge_first] = s.surge_first
        c[group] = s.march_group / 16
        c[steps] = min(1.0, s.march_steps / 10)
        c[free] = s.free_steps / 5
        c[shaman_steps] = s.sh_steps / 5
        c[paid] = s.rec_paid / 19
        c[bonus] = max(0, s.rec_bonus) / 5
        c[fate] = s.free_fate / 5
        used = s.win_used if sub == Sub.POWER_WINDOW else s.turn_used
        for j in range(4):
            c[used_at + j] = used[j]
        if s.d_shaman >= 0:
            c[draft_shaman + s.d_shaman] = 1
        if s.d_high >= 0:
            c[high_bid] = s.d_high / self.dmb
        if s.d_high_bidder >= 0:
            c[high_bidder + relof[s.d_high_bidder]] = 1
        for q in range(s.n):
            if s.d_passed[q]:
                c[passed + relof[q]] = 1
        for k in s.d_claimed:
            c[claimed + k] = 1
