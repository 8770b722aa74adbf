"""The observation of ``monolith_strategy_v0`` (docs/monolith_strategy.md §7): ``float32[1286 + 7K + 26C]``
(2,737 for the reference content), every value in [0, 1], seats relative to the observer.

This module is the only place that decides what a seat may see: opponents' uncast hands, deck orders,
unrevealed private Runes of others and another player's Secrecy candidates never enter it.
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from ..core.compiled import PURE_PYTHON_ENV, CompiledObserver
from ..core.observation import ObsSpec
from .board import NSOCK, PRIV0, Rules
from .state import Kind, Phase, Side, StrategyState

try:
    from . import _fastobs
except ImportError:  # not built (no C compiler at install time): the pure-Python observer is used
    _fastobs = None

__all__ = ["build_spec", "Observer", "PURE_PYTHON_ENV", "compiled_available"]

PURPOSES = ("toll", "cost", "reveal")  # decision_ctx.purpose one-hot order


def compiled_available() -> bool:
    """True when the compiled observation builder ``monolith_envs.strategy._fastobs`` was built and loads."""
    return _fastobs is not None


def build_spec(R: Rules) -> ObsSpec:
    """The observation layout (docs §7) with named sub-fields of every row (``ObsSpec.offsets()``: the
    Python observer and the compiled builder read each start by name)."""
    K, C, X = R.K, R.C, R.X
    return ObsSpec([
        ("round", (5,), 0, 1, "round one-hot"),
        ("phase", (6,), 0, 1, "phase one-hot: setup, action, resolution, advancement, final, over"),
        ("decision", (16,), 0, 1, "decision kind one-hot (none + 15 kinds)"),
        ("seats", (3, 4), 0, 1, "rel seat one-hots: decider, Primus holder, turn player"),
        ("flags", (4,), 0, 1, "primus_locked, solo, exalted enabled, player_powers enabled",
         (("primus_locked", 1), ("solo", 1), ("exalted", 1), ("player_powers", 1))),
        ("num_players", (4,), 0, 1, "num_players one-hot"),
        ("supply", (4,), 0, 1, "source gems / 5N; skill, power, rune deck sizes / initial sizes",
         (("source_gems", 1), ("skill_deck", 1), ("power_deck", 1), ("rune_deck", 1))),
        ("discards", (K,), 0, 1, "discard count per kind / copies (Player Powers: gone flag)"),
        ("turn", (4,), 0, 1, "min(left,3)/3, socketed, mandatory_done, stack_ready",
         (("left", 1), ("socketed", 1), ("mandatory_done", 1), ("stack_ready", 1))),
        ("round_card", (13 + 1 + X,), 0, 1, "covered position one-hot, Exalted side, Exalted id one-hot",
         (("covered", 13), ("exalted", 1), ("exalted_id", X))),
        ("positions", (13, C + 10), 0, 1,
         "per position: card one-hot, covered-normal, covered-exalted, dice /4 and total /24 per rel seat",
         (("card", C), ("covered_normal", 1), ("covered_exalted", 1), ("dice", 4), ("total", 4))),
        ("sockets", (NSOCK, 15), 0, 1,
         "per socket id: exists, requirement one-hot (ANY,1-6), reserved, blocked, occupant rel seat, face/6",
         (("exists", 1), ("requirement", 7), ("reserved", 1), ("blocked", 1), ("occupant", 4), ("face", 1))),
        ("players", (4, 25 + K + 2 * C), 0, 1, "per rel seat: public facts (docs §7 block P)",
         (("present", 1), ("vp", 1), ("stones", 1), ("gems", 1), ("hand_size", 1), ("cast", K), ("pool", 6),
          ("board_dice", 1), ("private_dice", 6), ("source_dice", 1), ("aside", 1), ("guard", 1), ("runes", 1),
          ("revealed", 2 * C), ("chase", 1), ("chase_marker", 1), ("chase_bonus", 1))),
        ("my_hand", (K,), 0, 1, "my uncast hand counts per kind / 4"),
        ("my_runes", (2, C), 0, 1, "my private Runes one-hot (revealed or not)"),
        ("decision_ctx", (82 + K + 3 * C,), 0, 1, "open decision context (docs §7 block D)",
         (("remaining", 1), ("purpose", 3), ("stone", 4), ("src_action", K), ("src_board", C), ("src_exalted", 5),
          ("face", 6), ("socket", NSOCK), ("owed", 1), ("reveal_target", 1), ("earmarked", 1),
          ("candidates", 2 * C))),
    ])


class Observer(CompiledObserver):
    """Builds the observations of one game: named offsets of the spec, the static blocks cached per board
    layout and Round card, and the compiled builder's context.

    Args:
        R: the game's :class:`Rules`.
        compiled: use the compiled builder (``monolith_envs.strategy._fastobs``); ``None`` (default) uses it
            when it is built and the environment variable ``MONOLITH_ENVS_PURE_PYTHON`` is not ``1``.  Both
            give the same values, bit for bit (``tests/strategy/test_fastobs.py``); :meth:`observe_python`
            is the reference.

    Raises:
        RuntimeError: ``compiled=True`` but the extension is not built.
    """

    _extension = _fastobs
    _extension_name = "monolith_envs.strategy._fastobs"

    def __init__(self, R: Rules, compiled: bool | None = None):
        self.R = R
        self.spec = sp = build_spec(R)
        self.size = sp.size
        o = self.o = sp.offsets()  # piece offsets and "piece.field" starts within a row
        self.brow, self.srow, self.prow = (sp[name].shape[-1] for name in ("positions", "sockets", "players"))
        self.seat_row = sp["seats"].shape[-1]
        # absolute starts of the single-row pieces' fields
        self.flags_at = [o["flags"] + o[f"flags.{f}"] for f in ("primus_locked", "solo", "exalted", "player_powers")]
        self.supply_at = [o["supply"] + o[f"supply.{f}"] for f in ("source_gems", "skill_deck", "power_deck",
                                                                    "rune_deck")]
        self.turn_at = [o["turn"] + o[f"turn.{f}"] for f in ("left", "socketed", "mandatory_done", "stack_ready")]
        self._tpl: dict = {}
        n, K = R.n, R.K
        self.rel = [[(q - me) % n for q in range(n)] for me in range(n)]
        self.disc_kinds = [k for k in range(K) if not R.is_pp[k]]
        self.pp_list = [k for k in range(K) if R.is_pp[k]]
        self.toll_spaces = sorted(sp for sp, _ in R.content.tolls)  # ascending, for bisect
        self.init_sizes = (max(1, R.skill_total), max(1, R.power_total), max(1, R.rune_total - (3 if R.solo else 6)))
        self.compiled = self._use_compiled(compiled)
        self._ctx = self._make_context() if self.compiled else None

    def layout_ints(self) -> dict:
        """The named ints the compiled builder reads once, by name, when its context is built: every piece
        offset and ``"piece.field"`` start of the :class:`ObsSpec` (``spec.offsets()``), the row width and
        size of every piece (``"sockets.row"``, ``"round.size"``, ...), the game's sizes and flags, the
        ratios' denominators and the phase, side and decision-kind codes it compares with."""
        R, sp = self.R, self.spec
        out = dict(self.o)
        for piece in sp.pieces:
            out[f"{piece.name}.row"] = piece.shape[-1]
            out[f"{piece.name}.size"] = piece.size
        out.update(size=sp.size, n=R.n, K=R.K, C=R.C, X=R.X, solo=int(R.solo), exalted=int(R.exalted),
                   player_powers=int(R.player_powers), total_gems=R.total_gems, victory=R.victory,
                   skill_size=self.init_sizes[0], power_size=self.init_sizes[1], rune_size=self.init_sizes[2],
                   priv0=PRIV0, phase_action=int(Phase.ACTION), side_exalted=int(Side.EXALTED),
                   kind_pay_offer=int(Kind.PAY_OFFER), kind_pay_more=int(Kind.PAY_MORE),
                   kind_reveal_src=int(Kind.REVEAL_SRC), kind_socket_dst=int(Kind.SOCKET_DST),
                   kind_discard=int(Kind.DISCARD), kind_rune_pick=int(Kind.RUNE_PICK))
        return out

    def _make_context(self):
        """The compiled builder's context (a capsule): :meth:`layout_ints` and the printed tables (sockets of
        every board card and Exalted side, reserved flags, copies per kind, Player Power flags, toll spaces)."""
        c, R = self.R.content, self.R
        return _fastobs.make_context(self.layout_ints(), [list(b.sockets) for b in c.board],
                                     [list(rc.sockets) for rc in c.round_cards],
                                     [int(rc.reserved) for rc in c.round_cards], list(R.copies),
                                     [int(x) for x in R.is_pp], list(self.toll_spaces))

    def observe(self, s: StrategyState, me: int) -> np.ndarray:
        """``float32[size]``: the observation of seat ``me`` (docs §7), from the compiled builder when it is
        used, else :meth:`observe_python`.

        Raises:
            TypeError, IndexError, ValueError, KeyError: a malformed state (the compiled builder names the field).
        """
        ctx = self._ctx
        if ctx is None:
            if not self.compiled:
                return self.observe_python(s, me)
            ctx = self._ctx = self._make_context()  # after a copy or unpickling
        out = np.empty(self.size, np.float32)  # the builder clears it first
        _fastobs.observe(ctx, s, me, out)
        return out

    def _template(self, s: StrategyState) -> np.ndarray:
        """The static part (Round card, B card one-hots and cover flags, S board socket rows) for the board
        layout and Round card of ``s``."""
        R, o = self.R, self.o
        v = np.zeros(self.spec.size, np.float32)
        b = o["round_card"]
        if s.rc_pos:
            v[b + o["round_card.covered"] + s.rc_pos - 1] = 1
            if s.rc_side == Side.EXALTED:
                v[b + o["round_card.exalted"]] = 1
                v[b + o["round_card.exalted_id"] + s.rc_round - 1] = 1
        b = o["positions"]
        card, normal, exalted = o["positions.card"], o["positions.covered_normal"], o["positions.covered_exalted"]
        for pos in range(1, 14):
            row = b + (pos - 1) * self.brow
            c = s.board[pos]
            if c >= 0:
                v[row + card + c] = 1
            if s.rc_pos == pos:
                v[row + (exalted if s.rc_side == Side.EXALTED else normal)] = 1
        so, sw = o["sockets"], self.srow
        exists, req_at, reserved = o["sockets.exists"], o["sockets.requirement"], o["sockets.reserved"]
        for sid, (req, res) in R.geometry(s)[1].items():
            row = so + sid * sw
            v[row + exists] = 1
            v[row + req_at + req] = 1
            v[row + reserved] = res
        tpl = v  # the whole vector: zeros outside the static blocks, copied by observe
        if len(self._tpl) > 256:
            self._tpl.clear()
        self._tpl[R.geometry(s)[2]] = tpl
        return tpl

    def observe_python(self, s: StrategyState, me: int) -> np.ndarray:
        """The pure-Python observation (the reference of the compiled builder; the same values, bit for bit).

        The static blocks come from a template vector cached per board layout and Round card; the other
        values are gathered as (index, value) pairs, clipped to 1 (every ratio's cap) and written with one
        numpy assignment."""
        R, o = self.R, self.o
        n = R.n
        pd = s.pending
        kind = pd["k"] if pd else 0
        decider = pd["seat"] if pd else -1
        rel = self.rel[me]
        b = o["seats"]
        sr = self.seat_row
        ix = [o["round"] + min(s.round, 5) - 1, o["phase"] + s.phase, o["decision"] + kind,
              b + sr + rel[s.primus], o["num_players"] + n - 1]
        va = [1.0] * 5
        if decider >= 0:
            ix.append(b + rel[decider])
            va.append(1.0)
        ix += self.flags_at
        va += [s.primus_locked, R.solo, R.exalted, R.player_powers]
        ix += self.supply_at
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
        if s.phase == Phase.ACTION:
            tn = s.turn
            ix.append(o["seats"] + 2 * sr + rel[tn["player"]])
            ix += self.turn_at
            va += [1.0, min(tn["left"], 3) / 3, tn["socketed"], tn["mandatory_done"], tn["stack_ready"]]
        # static parts of B, S and the Round card: cached per board layout and Round card
        tpl = self._tpl.get(R.geometry(s)[2])
        if tpl is None:
            tpl = self._template(s)
        v = tpl.copy()
        b = o["positions"]
        br = self.brow
        dice, total = o["positions.dice"], o["positions.total"]
        ss, sf, blk = s.sock_seat, s.sock_face, s.blocked
        so, sw = o["sockets"], self.srow
        s_occ, s_face, s_blocked = o["sockets.occupant"], o["sockets.face"], o["sockets.blocked"]
        s_exists, s_req = o["sockets.exists"], o["sockets.requirement"]
        acc: dict = {}
        on_board = [0] * n
        for sid, q in zip(range(52), ss):
            if q < 0:
                continue
            on_board[q] += 1
            r = rel[q]
            row = b + (sid >> 2) * br + r
            acc[row + dice] = acc.get(row + dice, 0.0) + 0.25
            f = sf[sid]
            acc[row + total] = acc.get(row + total, 0.0) + f / 24
            srow = so + sid * sw
            ix += [srow + s_occ + r, srow + s_face]
            va += [1.0, f / 6]
        if any(blk):
            for sid in [i for i in range(52) if blk[i]]:
                ix.append(so + sid * sw + s_blocked)
                va.append(1.0)
        board = R.content.board
        for slot, pr in enumerate(s.priv[me]):
            for i, req in enumerate(board[pr["card"]].sockets):
                row = so + (PRIV0 + slot * 4 + i) * sw
                ix += [row + s_exists, row + s_req + req]
                va += [1.0, 1.0]
                f = pr["occ"][i]
                if f:
                    ix += [row + s_occ, row + s_face]
                    va += [1.0, f / 6]
        # P: players
        b = o["players"]
        pr_ = self.prow
        p_vp, p_stones, p_gems, p_hand, p_cast, p_pool, p_board, p_priv, p_src, p_aside, p_guard, p_runes = (
            o[f"players.{f}"] for f in ("vp", "stones", "gems", "hand_size", "cast", "pool", "board_dice",
                                        "private_dice", "source_dice", "aside", "guard", "runes"))
        p_present, p_revealed, p_chase = o["players.present"], o["players.revealed"], o["players.chase"]
        p_marker, p_bonus, C = o["players.chase_marker"], o["players.chase_bonus"], R.C
        vic = R.victory
        tolls = self.toll_spaces
        nst = len(tolls)
        for q in range(n):
            row = b + rel[q] * pr_
            vq = s.vp[q]
            ix += [row + p_present, row + p_vp, row + p_stones, row + p_gems, row + p_hand]
            va += [1.0, vq / vic, bisect_right(tolls, vq) / nst, s.gems[q] / 20,
                   (sum(s.hand[q]) + sum(s.cast[q])) / 5]
            cast = s.cast[q]
            if any(cast):
                for k, c in enumerate(cast):
                    if c:
                        ix.append(row + p_cast + k)
                        va.append(c / 4)
            pool = s.pool[q]
            for f in range(6):
                if pool[f]:
                    ix.append(row + p_pool + f)
                    va.append(pool[f] / 5)
            ix += [row + p_board, row + p_src, row + p_aside, row + p_guard, row + p_runes]
            va += [on_board[q] / 5, s.src_dice[q] / 5, s.aside[q] / 5, s.guard[q] / 3, len(s.priv[q]) / 2]
            for slot, pr in enumerate(s.priv[q]):
                for f in pr["occ"]:
                    if f:
                        key = row + p_priv + f - 1
                        acc[key] = acc.get(key, 0.0) + 0.2
                if pr["revealed"]:
                    ix.append(row + p_revealed + slot * C + pr["card"])
                    va.append(1.0)
            ch = s.chase[q]
            if ch is not None:
                ix += [row + p_chase, row + p_marker, row + p_bonus]
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
        x = np.fromiter(va, np.float64, len(va))
        np.minimum(x, 1.0, out=x)
        v[np.fromiter(ix, np.intp, len(ix))] = x
        # D: decision context (every value already capped at 1)
        if pd:
            self._decision(v, s, pd, me, decider)
        return v

    def _decision(self, v, s, pd, me, decider):
        o, C = self.o, self.R.C
        b = o["decision_ctx"]
        kind = pd["k"]
        if kind in (Kind.PAY_OFFER, Kind.PAY_MORE, Kind.REVEAL_SRC):
            v[b + o["decision_ctx.remaining"]] = min(1.0, pd["rem"] / 10)
            v[b + o["decision_ctx.purpose"] + PURPOSES.index(pd.get("purpose", "reveal"))] = 1
            if pd.get("stone", -1) >= 0:
                v[b + o["decision_ctx.stone"] + pd["stone"]] = 1
        src = pd.get("src")
        if src:
            typ, i = src[0], src[1]
            field = "src_action" if typ == "a" else "src_board" if typ == "b" else "src_exalted"
            v[b + o[f"decision_ctx.{field}"] + i] = 1
        face = pd.get("src_face") or (pd.get("face") if kind == Kind.SOCKET_DST else 0)
        if face:
            v[b + o["decision_ctx.face"] + face - 1] = 1
        if kind == Kind.SOCKET_DST and (pd["from_sid"] < PRIV0 or me == decider):
            v[b + o["decision_ctx.socket"] + pd["from_sid"]] = 1
        if kind == Kind.DISCARD:
            v[b + o["decision_ctx.owed"]] = min(1.0, pd["owed"] / 5)
        rv = s.reveal[decider] if decider >= 0 else None
        if rv:
            v[b + o["decision_ctx.reveal_target"]] = min(1.0, rv["target"] / 6)
            v[b + o["decision_ctx.earmarked"]] = min(1.0, rv["marked"] / 6)
        if kind == Kind.RUNE_PICK and me == decider:
            cands = b + o["decision_ctx.candidates"]
            for j, c in enumerate(pd["cands"]):
                v[cands + j * C + c] = 1
