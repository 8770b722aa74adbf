"""The invariants of docs/monolith_strategy.md §9, checked after every ``apply`` by the conformance suite
and the fuzzer."""

from __future__ import annotations

from ..core.game import InvariantError
from .board import PRIV0
from .state import Kind, Phase, StrategyState

__all__ = ["check"]


def _bad(k: int, msg: str):
    raise InvariantError(f"monolith_strategy invariant {k}: {msg}")


def check(game, s: StrategyState) -> None:
    """Check the docs §9 invariants of ``s`` for ``game``; raises InvariantError naming the broken one by number."""
    R = game.rules
    n, K = R.n, R.K
    c = R.content
    # 1 gems
    if s.source_gems < 0 or any(g < 0 for g in s.gems):
        _bad(1, f"negative gems: source {s.source_gems}, players {s.gems}")
    if s.source_gems + sum(s.gems) != R.total_gems:
        _bad(1, f"source {s.source_gems} + players {s.gems} != {R.total_gems}")
    # 2 dice
    for p in range(n):
        board = sum(1 for sid in range(52) if s.sock_seat[sid] == p)
        priv = sum(1 for pr in s.priv[p] for f in pr["occ"] if f)
        tot = sum(s.pool[p]) + board + priv + s.aside[p] + s.src_dice[p]
        if tot != R.dpp or min(s.pool[p]) < 0 or s.aside[p] < 0 or s.src_dice[p] < 0:
            _bad(2, f"seat {p}: pool {s.pool[p]} + board {board} + private {priv} + aside {s.aside[p]} + "
                    f"source {s.src_dice[p]} != {R.dpp}")
    for sid in range(52):
        if (s.sock_seat[sid] >= 0) != (1 <= s.sock_face[sid] <= 6):
            _bad(2, f"socket {sid}: seat {s.sock_seat[sid]} face {s.sock_face[sid]}")
    # 3 cards
    for name, cat, deck, pile, total in (("Skill", R.is_skill, s.skill_deck, s.skill_discard, R.skill_total),
                                         ("Power", R.is_power, s.power_deck, s.power_discard, R.power_total)):
        held = sum(s.hand[p][k] + s.cast[p][k] for p in range(n) for k in range(K) if cat[k])
        if len(deck) + held + sum(pile) != total:
            _bad(3, f"{name} cards: deck {len(deck)} + held {held} + discarded {sum(pile)} != {total}")
        if any(not cat[k] for k in deck):
            _bad(3, f"{name} deck holds a card of another deck")
    held = sum(s.hand[p][k] + s.cast[p][k] for p in range(n) for k in range(K) if R.is_pp[k])
    if held + sum(s.pp_gone) + len(s.pp_out) != len(R.pp_kinds):
        _bad(3, f"Player Powers: held {held} + gone {sum(s.pp_gone)} + undealt {len(s.pp_out)} != "
                f"{len(R.pp_kinds)}")
    for p in range(n):
        if min(s.hand[p]) < 0 or min(s.cast[p]) < 0:
            _bad(3, f"seat {p} holds a negative count: hand {s.hand[p]} cast {s.cast[p]}")
    # 4 runes and fates
    pd = s.pending
    cands = pd["cands"] if pd is not None and pd["k"] == Kind.RUNE_PICK else []
    on_board = [s.board[pos] for pos in range(1, 14) if s.board[pos] >= 0 and c.board[s.board[pos]].set in
                ("rune", "blank")]
    privs = sum(len(pr) for pr in s.priv)
    if len(s.rune_deck) + len(on_board) + privs + len(cands) != R.rune_total:
        _bad(4, f"Runes: deck {len(s.rune_deck)} + board {len(on_board)} + private {privs} + candidates "
                f"{len(cands)} != {R.rune_total}")
    if len(on_board) != (3 if R.solo else 6):
        _bad(4, f"{len(on_board)} Runes on the board")
    if s.board[0] != -1:  # board positions are 1-13; slot 0 is unused (state.py)
        _bad(4, f"a card in board slot 0 ({s.board[0]}): board positions are 1-13")
    fates = [s.board[pos] for pos in range(1, 14) if s.board[pos] >= 0 and c.board[s.board[pos]].set == "fate"]
    want = 2 if s.board[3] == R.extra_fate and len(R.fates) > 1 else 1
    if len(fates) != want:
        _bad(4, f"{len(fates)} Fate cards on the board, expected {want}")
    # 5 vp
    for p in range(n):
        if not 0 <= s.vp[p] <= R.victory:
            _bad(5, f"seat {p} vp {s.vp[p]}")
        if s.vp[p] == R.victory and not (s.terminal and s.winner == p):
            _bad(5, f"seat {p} on VICTORY but the game is not won by it")
    # 6 primus
    if not 0 <= s.primus < n or (R.solo and s.primus != 0):
        _bad(6, f"primus {s.primus}")
    # 7 round card
    if s.rc_round:
        lo, hi = (1, 6) if R.solo else (2, 12)
        if not lo <= s.rc_pos <= hi:
            _bad(7, f"Round card on position {s.rc_pos}")
        if s.rc_round not in (s.round, s.round + 1):
            _bad(7, f"Round card {s.rc_round} in round {s.round}")
    # 8 sockets
    for sid in range(52):
        q = s.sock_seat[sid]
        if q < 0:
            continue
        if s.blocked[sid]:
            _bad(8, f"blocked socket {sid} holds a die")
        req, res = R.socket_req(s, sid, q)
        if req is None:
            _bad(8, f"socket {sid} holds a die but does not exist on an active card")
        if res and sid % 4 != q:
            _bad(8, f"reserved socket {sid} holds seat {q}'s die")
    # 9 private runes
    for p in range(n):
        if len(s.priv[p]) > 2:
            _bad(9, f"seat {p} has {len(s.priv[p])} private Runes")
    # 10 hand limit
    for p in range(n):
        if R.hand_size(s, p) > R.hand_limit:
            owed = (pd is not None and pd["seat"] == p and pd["k"] == Kind.DISCARD) or any(
                t["t"] == "hlimit" and t["p"] == p for t in s.tasks)
            if not owed:
                _bad(10, f"seat {p} holds {R.hand_size(s, p)} cards with no DISCARD owed")
    # 11 player powers
    q = sorted(tuple(e) for e in s.pp_queue)
    held = sorted((p, k) for p in range(n) for k in range(K) if R.is_pp[k] for _ in range(s.cast[p][k]))
    if q != held:
        _bad(11, f"pp_queue {s.pp_queue} != cast Player Powers {held}")
    # 12 turn
    if pd is not None and pd["k"] == Kind.TURN:
        tn = s.turn
        if pd["seat"] != tn["player"]:
            _bad(12, f"TURN decider {pd['seat']} != turn player {tn['player']}")
        if not tn["mandatory_done"] and not sum(s.pool[tn["player"]]):
            _bad(12, "turn player without a pool die before the mandatory placement")
        if tn["socketed"] and not tn["mandatory_done"]:
            _bad(12, "socketed without mandatory_done")
        if tn["left"] < 0:
            _bad(12, f"left {tn['left']}")
    # 13 mask
    if s.terminal:
        if pd is not None:
            _bad(13, "terminal state with an open decision")
    else:
        if pd is None:
            _bad(13, "no decision open in a live state")
        if not game.legal_list(s):
            _bad(13, f"{Kind(pd['k']).name} of seat {pd['seat']} has no legal action")
    # 15 chase
    if any(ch is not None for ch in s.chase) and s.phase != Phase.RESOLUTION and not s.terminal:
        _bad(15, f"chase markers {s.chase} outside the Resolution Phase")
    # private sockets: faces in range
    for p in range(n):
        for pr in s.priv[p]:
            if any(not 0 <= f <= 6 for f in pr["occ"]):
                _bad(2, f"seat {p} private Rune faces {pr['occ']}")
    _ = PRIV0
