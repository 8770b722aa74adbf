"""The observation of ``monolith_strategy_v0`` (docs/monolith_strategy.md §7): ``float32[1286 + 7K + 26C]``
(2,737 for the reference content), every value in [0, 1], seats relative to the observer.

This module is the only place that decides what a seat may see: opponents' uncast hands, deck orders,
unrevealed private Runes of others and another player's Secrecy candidates never enter it.
"""

from __future__ import annotations

import numpy as np

from ..core.observation import ObsSpec
from .board import PRIV0, Rules
from .state import Kind, StrategyState

__all__ = ["build_spec", "Observer"]


def build_spec(R: Rules) -> ObsSpec:
    K, C, X = R.K, R.C, R.X
    return ObsSpec([
        ("round", (5,), 0, 1, "round one-hot"),
        ("phase", (6,), 0, 1, "phase one-hot: setup, action, resolution, advancement, final, over"),
        ("decision", (16,), 0, 1, "decision kind one-hot (none + 15 kinds)"),
        ("seats", (3, 4), 0, 1, "rel seat one-hots: decider, Primus holder, turn player"),
        ("flags", (4,), 0, 1, "primus_locked, solo, exalted enabled, player_powers enabled"),
        ("num_players", (4,), 0, 1, "num_players one-hot"),
        ("supply", (4,), 0, 1, "source gems / 5N; skill, power, rune deck sizes / initial sizes"),
        ("discards", (K,), 0, 1, "discard count per kind / copies (Player Powers: gone flag)"),
        ("turn", (4,), 0, 1, "min(left,3)/3, socketed, mandatory_done, stack_ready"),
        ("round_card", (13 + 1 + X,), 0, 1, "covered position one-hot, Exalted side, Exalted id one-hot"),
        ("positions", (13, C + 10), 0, 1,
         "per position: card one-hot, covered-normal, covered-exalted, dice /4 and total /24 per rel seat"),
        ("sockets", (60, 15), 0, 1,
         "per socket id: exists, requirement one-hot (ANY,1-6), reserved, blocked, occupant rel seat, face/6"),
        ("players", (4, 25 + K + 2 * C), 0, 1, "per rel seat: public facts (docs §7 block P)"),
        ("my_hand", (K,), 0, 1, "my uncast hand counts per kind / 4"),
        ("my_runes", (2, C), 0, 1, "my private Runes one-hot (revealed or not)"),
        ("decision_ctx", (82 + K + 3 * C,), 0, 1, "open decision context (docs §7 block D)"),
    ])


class Observer:
    """Precomputed offsets for :meth:`observe`."""

    def __init__(self, R: Rules):
        self.R = R
        self.spec = build_spec(R)
        sp = self.spec
        self.o = {p.name: p.offset for p in sp.pieces}
        K, C = R.K, R.C
        self.prow = 25 + K + 2 * C
        self.brow = C + 10
        self._tpl: dict = {}
        self.init_sizes = (max(1, R.skill_total), max(1, R.power_total), max(1, R.rune_total - (3 if R.solo else 6)))

    def _template(self, s: StrategyState) -> np.ndarray:
        """The static part (Round card, B card one-hots and cover flags, S board socket rows) for the board
        layout and Round card of ``s``."""
        R, o = self.R, self.o
        C = R.C
        lo, hi = o["round_card"], o["players"]
        v = np.zeros(self.spec.size, np.float32)
        b = o["round_card"]
        if s.rc_pos:
            v[b + s.rc_pos - 1] = 1
            if s.rc_side == 1:
                v[b + 13] = 1
                v[b + 14 + s.rc_round - 1] = 1
        b = o["positions"]
        for pos in range(1, 14):
            row = b + (pos - 1) * self.brow
            c = s.board[pos]
            if c >= 0:
                v[row + c] = 1
            if s.rc_pos == pos:
                v[row + C + (1 if s.rc_side == 1 else 0)] = 1
        so = o["sockets"]
        for sid, (req, res) in R.geometry(s)[1].items():
            row = so + sid * 15
            v[row] = 1
            v[row + 1 + req] = 1
            v[row + 8] = res
        tpl = v[lo:hi].copy()
        if len(self._tpl) > 256:
            self._tpl.clear()
        self._tpl[R.geometry(s)[2]] = tpl
        return tpl

    def observe(self, s: StrategyState, me: int) -> np.ndarray:
        R, o = self.R, self.o
        n, K, C = R.n, R.K, R.C
        v = np.zeros(self.spec.size, np.float32)
        pd = s.pending
        kind = pd["k"] if pd else 0
        decider = pd["seat"] if pd else -1

        def rel(q):
            return (q - me) % n

        v[o["round"] + min(s.round, 5) - 1] = 1
        v[o["phase"] + s.phase] = 1
        v[o["decision"] + kind] = 1
        b = o["seats"]
        if decider >= 0:
            v[b + rel(decider)] = 1
        v[b + 4 + rel(s.primus)] = 1
        if s.phase == 1:
            v[b + 8 + rel(s.turn["player"])] = 1
        b = o["flags"]
        v[b] = s.primus_locked
        v[b + 1] = R.solo
        v[b + 2] = R.exalted
        v[b + 3] = R.player_powers
        v[o["num_players"] + n - 1] = 1
        b = o["supply"]
        v[b] = s.source_gems / R.total_gems
        v[b + 1] = len(s.skill_deck) / self.init_sizes[0]
        v[b + 2] = len(s.power_deck) / self.init_sizes[1]
        v[b + 3] = len(s.rune_deck) / self.init_sizes[2]
        b = o["discards"]
        for k in range(K):
            d = s.skill_discard[k] + s.power_discard[k]
            if R.is_pp[k]:
                v[b + k] = 1 if s.pp_gone[k] else 0
            elif d:
                v[b + k] = d / R.copies[k]
        b = o["turn"]
        tn = s.turn
        if s.phase == 1:
            v[b] = min(tn["left"], 3) / 3
            v[b + 1] = tn["socketed"]
            v[b + 2] = tn["mandatory_done"]
            v[b + 3] = tn["stack_ready"]
        # static parts of B, S and the Round card: cached per board layout and Round card
        key = R.geometry(s)[2]
        tpl = self._tpl.get(key)
        if tpl is None:
            tpl = self._template(s)
        lo, hi = o["round_card"], o["players"]
        v[lo:hi] = tpl
        b = o["positions"]
        br = self.brow
        ss, sf, blk = s.sock_seat, s.sock_face, s.blocked
        so = o["sockets"]
        for sid in range(52):
            q = ss[sid]
            if q >= 0:
                r = rel(q)
                row = b + (sid // 4) * br
                v[row + C + 2 + r] += 0.25
                v[row + C + 6 + r] += sf[sid] / 24
                srow = so + sid * 15
                v[srow + 10 + r] = 1
                v[srow + 14] = sf[sid] / 6
            if blk[sid]:
                v[so + sid * 15 + 9] = 1
        for slot, pr in enumerate(s.priv[me]):
            socks = R.content.board[pr["card"]].sockets
            for i, req in enumerate(socks):
                row = so + (PRIV0 + slot * 4 + i) * 15
                v[row] = 1
                v[row + 1 + req] = 1
                f = pr["occ"][i]
                if f:
                    v[row + 10] = 1
                    v[row + 14] = f / 6
        # P: players
        b = o["players"]
        pr_ = self.prow
        on_board = [0] * n
        for sid in range(52):
            if ss[sid] >= 0:
                on_board[ss[sid]] += 1
        vic = R.victory
        nst = len(R.content.tolls)
        for q in range(n):
            row = b + rel(q) * pr_
            v[row] = 1
            v[row + 1] = s.vp[q] / vic
            v[row + 2] = sum(1 for sp, _ in R.content.tolls if s.vp[q] >= sp) / nst
            v[row + 3] = min(1.0, s.gems[q] / 20)
            v[row + 4] = min(1.0, R.hand_size(s, q) / 5)
            for k in range(K):
                if s.cast[q][k]:
                    v[row + 5 + k] = min(1.0, s.cast[q][k] / 4)
            r2 = row + 5 + K
            for f in range(6):
                if s.pool[q][f]:
                    v[r2 + f] = min(1.0, s.pool[q][f] / 5)
            v[r2 + 6] = min(1.0, on_board[q] / 5)
            for pr in s.priv[q]:
                for f in pr["occ"]:
                    if f:
                        v[r2 + 7 + f - 1] += 0.2
            v[r2 + 13] = s.src_dice[q] / 5
            v[r2 + 14] = min(1.0, s.aside[q] / 5)
            v[r2 + 15] = min(1.0, s.guard[q] / 3)
            v[r2 + 16] = len(s.priv[q]) / 2
            for slot, pr in enumerate(s.priv[q]):
                if pr["revealed"]:
                    v[r2 + 17 + slot * C + pr["card"]] = 1
            r3 = r2 + 17 + 2 * C
            ch = s.chase[q]
            if ch is not None:
                v[r3] = 1
                v[r3 + 1] = ch[0] / vic
                v[r3 + 2] = min(1.0, ch[1] / 5)
        # M: my hand and runes
        b = o["my_hand"]
        for k in range(K):
            if s.hand[me][k]:
                v[b + k] = min(1.0, s.hand[me][k] / 4)
        b = o["my_runes"]
        for slot, pr in enumerate(s.priv[me]):
            v[b + slot * C + pr["card"]] = 1
        # D: decision context
        if pd:
            self._decision(v, s, pd, me, decider)
        np.minimum(v, 1.0, out=v)
        return v

    def _decision(self, v, s, pd, me, decider):
        R = self.R
        K, C = R.K, R.C
        b = self.o["decision_ctx"]
        kind = pd["k"]
        if kind in (Kind.PAY_OFFER, Kind.PAY_MORE, Kind.REVEAL_SRC):
            v[b] = min(1.0, pd["rem"] / 10)
            pur = pd.get("purpose", "reveal")
            v[b + 1 + ("toll", "cost", "reveal").index(pur)] = 1
            if pd.get("stone", -1) >= 0:
                v[b + 4 + pd["stone"]] = 1
        src = pd.get("src")
        o2 = b + 8
        if src:
            typ, i = src[0], src[1]
            if typ == "a":
                v[o2 + i] = 1
            elif typ == "b":
                v[o2 + K + i] = 1
            else:
                v[o2 + K + C + i] = 1
        o3 = o2 + K + C + 5
        face = pd.get("src_face") or (pd.get("face") if kind == Kind.SOCKET_DST else 0)
        if face:
            v[o3 + face - 1] = 1
        if kind == Kind.SOCKET_DST and (pd["from_sid"] < PRIV0 or me == decider):
            v[o3 + 6 + pd["from_sid"]] = 1
        o4 = o3 + 66
        if kind == Kind.DISCARD:
            v[o4] = min(1.0, pd["owed"] / 5)
        rv = s.reveal[decider] if decider >= 0 else None
        if rv:
            v[o4 + 1] = rv["target"] / 6
            v[o4 + 2] = min(1.0, rv["marked"] / 6)
        if kind == Kind.RUNE_PICK and me == decider:
            for j, c in enumerate(pd["cands"]):
                v[o4 + 3 + j * C + c] = 1
