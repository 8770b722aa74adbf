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
        n = R.n
        self.rel = [[(q - me) % n for q in range(n)] for me in range(n)]
        self.disc_kinds = [k for k in range(K) if not R.is_pp[k]]
        self.pp_list = [k for k in range(K) if R.is_pp[k]]
        self.toll_spaces = [sp for sp, _ in R.content.tolls]
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
        """``float32[size]``: the observation of seat ``me`` (docs §7). Values are gathered as (index,
        value) pairs and written with one numpy assignment; the final clip to 1 does every ratio's cap."""
        R, o = self.R, self.o
        n, K, C = R.n, R.K, R.C
        v = np.zeros(self.spec.size, np.float32)
        pd = s.pending
        kind = pd["k"] if pd else 0
        decider = pd["seat"] if pd else -1
        rel = self.rel[me]
        ix = [o["round"] + min(s.round, 5) - 1, o["phase"] + s.phase, o["decision"] + kind,
              o["seats"] + 4 + rel[s.primus], o["num_players"] + n - 1]
        va = [1.0] * 5
        b = o["seats"]
        if decider >= 0:
            ix.append(b + rel[decider])
            va.append(1.0)
        b = o["flags"]
        ix += [b, b + 1, b + 2, b + 3]
        va += [s.primus_locked, R.solo, R.exalted, R.player_powers]
        b = o["supply"]
        ix += [b, b + 1, b + 2, b + 3]
        isz = self.init_sizes
        va += [s.source_gems / R.total_gems, len(s.skill_deck) / isz[0], len(s.power_deck) / isz[1],
               len(s.rune_deck) / isz[2]]
        b = o["discards"]
        sd, pw, gone = s.skill_discard, s.power_discard, s.pp_gone
        for k in self.disc_kinds:
            d = sd[k] + pw[k]
            if d:
                ix.append(b + k)
                va.append(d / R.copies[k])
        for k in self.pp_list:
            if gone[k]:
                ix.append(b + k)
                va.append(1.0)
        if s.phase == 1:
            tn = s.turn
            b = o["turn"]
            ix += [o["seats"] + 8 + rel[tn["player"]], b, b + 1, b + 2, b + 3]
            va += [1.0, min(tn["left"], 3) / 3, tn["socketed"], tn["mandatory_done"], tn["stack_ready"]]
        # static parts of B, S and the Round card: cached per board layout and Round card
        tpl = self._tpl.get(R.geometry(s)[2])
        if tpl is None:
            tpl = self._template(s)
        v[o["round_card"]:o["players"]] = tpl
        b = o["positions"]
        br = self.brow
        ss, sf, blk = s.sock_seat, s.sock_face, s.blocked
        so = o["sockets"]
        acc: dict = {}
        on_board = [0] * n
        for sid in [i for i in range(52) if ss[i] >= 0]:
            q = ss[sid]
            on_board[q] += 1
            r = rel[q]
            row = b + (sid >> 2) * br + C
            acc[row + 2 + r] = acc.get(row + 2 + r, 0.0) + 0.25
            acc[row + 6 + r] = acc.get(row + 6 + r, 0.0) + sf[sid] / 24
            srow = so + sid * 15
            ix += [srow + 10 + r, srow + 14]
            va += [1.0, sf[sid] / 6]
        for sid in [i for i in range(52) if blk[i]]:
            ix.append(so + sid * 15 + 9)
            va.append(1.0)
        board = R.content.board
        for slot, pr in enumerate(s.priv[me]):
            for i, req in enumerate(board[pr["card"]].sockets):
                row = so + (PRIV0 + slot * 4 + i) * 15
                ix += [row, row + 1 + req]
                va += [1.0, 1.0]
                f = pr["occ"][i]
                if f:
                    ix += [row + 10, row + 14]
                    va += [1.0, f / 6]
        # P: players
        b = o["players"]
        pr_ = self.prow
        vic = R.victory
        tolls = self.toll_spaces
        nst = len(tolls)
        for q in range(n):
            row = b + rel[q] * pr_
            vq = s.vp[q]
            ix += [row, row + 1, row + 2, row + 3, row + 4]
            va += [1.0, vq / vic, sum(1 for sp in tolls if vq >= sp) / nst, s.gems[q] / 20,
                   R.hand_size(s, q) / 5]
            cast = s.cast[q]
            if any(cast):
                for k, c in enumerate(cast):
                    if c:
                        ix.append(row + 5 + k)
                        va.append(c / 4)
            r2 = row + 5 + K
            pool = s.pool[q]
            for f in range(6):
                if pool[f]:
                    ix.append(r2 + f)
                    va.append(pool[f] / 5)
            ix += [r2 + 6, r2 + 13, r2 + 14, r2 + 15, r2 + 16]
            va += [on_board[q] / 5, s.src_dice[q] / 5, s.aside[q] / 5, s.guard[q] / 3, len(s.priv[q]) / 2]
            for slot, pr in enumerate(s.priv[q]):
                for f in pr["occ"]:
                    if f:
                        key = r2 + 7 + f - 1
                        acc[key] = acc.get(key, 0.0) + 0.2
                if pr["revealed"]:
                    ix.append(r2 + 17 + slot * C + pr["card"])
                    va.append(1.0)
            ch = s.chase[q]
            if ch is not None:
                r3 = r2 + 17 + 2 * C
                ix += [r3, r3 + 1, r3 + 2]
                va += [1.0, ch[0] / vic, ch[1] / 5]
        # M: my hand and runes
        b = o["my_hand"]
        for k, c in enumerate(s.hand[me]):
            if c:
                ix.append(b + k)
                va.append(c / 4)
        b = o["my_runes"]
        for slot, pr in enumerate(s.priv[me]):
            ix.append(b + slot * C + pr["card"])
            va.append(1.0)
        if acc:
            ix += list(acc)
            va += list(acc.values())
        v[ix] = va
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
