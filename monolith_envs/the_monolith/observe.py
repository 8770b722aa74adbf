"""The observation of ``the_monolith_v0`` (docs/the_monolith.md §7): seat-relative float32, 1587 floats by
default. This module alone decides what a seat may see: its own objectives by identity, everyone
else's by count; deck orders never; face-down discards only through the discard size."""

from __future__ import annotations

import numpy as np

from ..core.observation import ObsSpec
from .board import controllers, tunnels_now
from .state import Sub

__all__ = ["Observer"]

P = 4  # player blocks


class Observer:
    """Builds the :class:`ObsSpec` of a game and its observations."""

    def __init__(self, g):
        self.g = g
        N, R, S, D, E, O = g.N, g.R, g.S, g.D, g.E, g.O
        self.pw = 23 + S + D
        self.sw = 36
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
            ("row", (R, D + 4), 0, 1, "per row slot: card one-hot, bid per relative seat/19"),
            ("own_objectives", (O,), 0, 1, "multi-hot of the observer's hand"),
            ("scored_objectives", (O,), 0, 1, "multi-hot of face-up objective discards"),
            ("div_discard", (D,), 0, 1, "multi-hot"),
            ("events", (E, N + 2), 0, 1, "per event: in play, discarded, space one-hot"),
            ("deck_sizes", (4,), 0, 1, "divination deck/D, event deck/E, objective deck/O, objective discard/O"),
            ("context", (N + R + 13 + 2 * S + 9,), 0, 4, "focus space, focus slot, actions owed/4, surge first "
             "turn, march group/16, march steps/10, free steps/5, shaman steps/5, paid/19, bonus/5, free fate/5, "
             "power used (4), draft shaman, high bid, high bidder, passed, claimed"),
            ("config", (4,), 0, 1, "normalised tower weights (3), retention"),
        ])
        self.views_of = {p.name: (p.offset, p.stop, p.shape) for p in self.spec.pieces}
        self.dmb = max(1, g.config["draft_max_bid"])

    def _v(self, vec, name):
        a, b, shape = self.views_of[name]
        return vec[a:b].reshape(shape)

    def observe(self, s, viewer: int) -> np.ndarray:
        """``float32[spec.size]`` for seat ``viewer`` (0..n-1).

        Raises:
            ValueError: ``viewer`` is not a seat.
        """
        g = self.g
        n = s.n
        if not 0 <= viewer < n:
            raise ValueError(f"observer seat {viewer} outside 0..{n - 1}")
        vec = np.zeros(self.spec.size, np.float32)
        v = self._v
        rel = [(viewer + k) % n for k in range(n)]            # block k -> seat
        relof = {q: k for k, q in enumerate(rel)}             # seat -> block
        v(vec, "phase")[int(s.phase)] = 1
        if s.sub >= 0:
            v(vec, "sub_phase")[int(s.sub)] = 1
        if 1 <= s.day <= g.num_days:
            v(vec, "day")[s.day - 1] = 1
        if not s.terminal and s.current >= 0:
            v(vec, "decider")[relof[s.current]] = 1
        v(vec, "first_player")[relof[s.first]] = 1
        v(vec, "surge")[relof[s.surge] if s.surge >= 0 else P] = 1
        pl = v(vec, "players")
        on_row = [sum(s.bids[i][q] for i in range(g.R)) for q in range(n)]
        for k, q in enumerate(rel):
            b = pl[k]
            b[0] = 1
            b[1] = s.favour[q] / 100
            boast = sum(s.boast[sp][q] for sp in range(g.N))
            b[2:12] = np.array([s.available[q], s.spent[q], s.unearned[q], on_row[q], s.tower_today[q],
                                s.tower_stuck[q], s.board[q][0], s.board[q][1], s.board[q][2], boast]) / 19
            liv = sum(s.living[sp][q] for sp in range(g.N))
            dead = sum(s.dead[sp][q] for sp in range(g.N))
            b[12:17] = np.array([s.reserves[q], s.anger[q], s.limbo[q], liv, dead]) / 16
            b[17] = s.shaman_alive[q]
            b[18] = s.committed[q]
            b[19] = s.out[q]
            b[20] = s.kills_today[q] / 16
            b[21] = len(s.objectives[q]) / 3
            b[22] = s.draft_bid[q] / self.dmb
            if s.shaman_id[q] >= 0:
                b[23 + s.shaman_id[q]] = 1
            for c in s.held[q]:
                b[23 + g.S + c] = 1
        sv = v(vec, "spaces")
        tun = tunnels_now(g, s)
        ctrl = controllers(g, s)
        bidx = {"scriptorium": 1, "mausoleum": 2, "temple": 3}
        owner = {g.hold[q]: q for q in range(n)}
        for sp in range(g.N):
            if not g.active[sp]:
                continue
            b = sv[sp]
            b[0] = 1
            if g.building[sp] in bidx:
                b[bidx[g.building[sp]]] = 1
            b[4] = tun[sp]
            b[5] = sp == g.mono
            if sp in owner:
                b[6 + relof[owner[sp]]] = 1
            b[10] = g.slots[sp] / 6
            b[11] = s.blood[sp] / 6
            for k, q in enumerate(rel):
                o = 12 + 5 * k
                b[o] = s.living[sp][q] / 16
                b[o + 1] = s.dead[sp][q] / 16
                if s.shaman_space[q] == sp:
                    b[o + 2 if s.shaman_alive[q] else o + 3] = 1
                b[o + 4] = s.boast[sp][q] / 6
            if ctrl[sp] >= 0:
                b[32 + relof[ctrl[sp]]] = 1
        rv = v(vec, "row")
        for i in range(g.R):
            if s.row[i] >= 0:
                rv[i, s.row[i]] = 1
            for k, q in enumerate(rel):
                rv[i, g.D + k] = s.bids[i][q] / 19
        ov = v(vec, "own_objectives")
        for o in s.objectives[viewer]:
            ov[o] = 1
        sc = v(vec, "scored_objectives")
        for o, up in s.obj_discard:
            if up:
                sc[o] = 1
        dd = v(vec, "div_discard")
        for c in s.div_discard:
            dd[c] = 1
        ev = v(vec, "events")
        for e, sp in s.events:
            ev[e, 0] = 1
            if sp >= 0:
                ev[e, 2 + sp] = 1
        for e in s.event_discard:
            ev[e, 1] = 1
        v(vec, "deck_sizes")[:] = [len(s.div_deck) / g.D, len(s.event_deck) / g.E, len(s.obj_deck) / g.O,
                                   len(s.obj_discard) / g.O]
        self._context(s, v(vec, "context"), relof)
        cf = v(vec, "config")
        cf[0] = g.cumw[0]
        cf[1] = g.cumw[1] - g.cumw[0]
        cf[2] = 1.0 - g.cumw[1]
        cf[3] = g.rho
        return vec

    def _context(self, s, c, relof) -> None:
        g = self.g
        N, R, S = g.N, g.R, g.S
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
        if focus >= 0:
            c[focus] = 1
        if sub in (Sub.DIV_RAISE, Sub.DIV_AMOUNT) and s.focus_slot >= 0:
            c[N + s.focus_slot] = 1
        o = N + R
        c[o] = s.owed / 4
        c[o + 1] = s.surge_first
        c[o + 2] = s.march_group / 16
        c[o + 3] = min(1.0, s.march_steps / 10)
        c[o + 4] = s.free_steps / 5
        c[o + 5] = s.sh_steps / 5
        c[o + 6] = s.rec_paid / 19
        c[o + 7] = max(0, s.rec_bonus) / 5
        c[o + 8] = s.free_fate / 5
        used = s.win_used if sub == Sub.POWER_WINDOW else s.turn_used
        c[o + 9:o + 13] = used
        o += 13
        if s.d_shaman >= 0:
            c[o + s.d_shaman] = 1
        o += S
        if s.d_high >= 0:
            c[o] = s.d_high / self.dmb
        if s.d_high_bidder >= 0:
            c[o + 1 + relof[s.d_high_bidder]] = 1
        for q in range(s.n):
            if s.d_passed[q]:
                c[o + 5 + relof[q]] = 1
        o += 9
        for k in s.d_claimed:
            c[o + k] = 1
