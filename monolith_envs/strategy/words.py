"""The Strategy Game's actions in words, as terminal play, browser play and the replay page say them
(``places a 4 in socket 07: 2 SR2 Gem Rune``; docs/monolith_strategy.md §6.1, the action families)."""

from __future__ import annotations

from typing import Any

from .board import PRIV0
from .render_svg import _req  # a socket's required face as the drawing labels it: any, 1-6
from .state import Kind

__all__ = ["action_words", "socket_words"]


def socket_words(game: Any, s: Any, sid: int, seat: int) -> str:
    """Socket ``sid`` for seat ``seat``: where it is and what it needs (``socket 07: 2 SR2 Gem Rune, needs
    4``, ``, holds P1's 3`` when taken; a private Rune's socket says ``your private``: the words of the
    seat choosing it). Docs §2.2 (socket ids)."""
    R = game.rules
    c = R.content
    if sid >= PRIV0:
        slot, i = divmod(sid - PRIV0, 4)
        if slot >= len(s.priv[seat]):
            return f"socket {sid} (private Rune slot {slot}: none)"
        card = c.board[s.priv[seat][slot]["card"]]
        req = card.sockets[i] if i < len(card.sockets) else 0
        return f"socket {sid}: your private {card.id} {card.name}, needs {_req(req)}"
    pos, i = sid // 4 + 1, sid % 4
    kind, obj = R.active(s, pos)
    if kind is None:
        return f"socket {sid:02d}: position {pos} (out of play)"
    req = obj.sockets[i] if i < len(obj.sockets) else 0
    occ = f", holds P{s.sock_seat[sid]}'s {s.sock_face[sid]}" if s.sock_seat[sid] >= 0 else ""
    name = obj.exalted_name if kind == "exalted" else f"{c.board[s.board[pos]].id} {c.board[s.board[pos]].name}"
    return f"socket {sid:02d}: {pos} {name}, needs {_req(req)}{occ}"


def action_words(game: Any, state: Any | None, action: int) -> str:
    """``action`` in words (no seat: ``casts Guard``, ``declines to pay``).

    Args:
        game: a ``StrategyGame``.
        state: the state the action is applied in (for the socket's card and the open decision's kind);
            ``None`` says it without them (``places a 4 in socket 07``).
        action: an action index (``int``, 0 <= action < ``game.layout.n``).

    Raises:
        ValueError: ``action`` is outside the layout (``ActionLayout.split``).
    """
    fam, idx = game.layout.split(int(action))
    c = game.rules.content
    pd = (state.pending if state is not None else None) or {}
    seat = pd.get("seat", 0)
    if fam == "place":
        face, sid = idx
        if sid >= PRIV0:
            where = f"socket {sid} on a private Rune"
        elif state is None:
            where = f"socket {sid:02d}"
        else:
            where = socket_words(game, state, sid, seat).split(", needs")[0]
        return f"places a {face + 1} in {where}"
    if fam == "set_aside":
        return f"sets aside a die showing {idx[0] + 1}"
    if fam == "end_turn":
        return "ends the turn"
    if fam == "cast":
        return f"casts {c.actions[idx[0]].name}"
    if fam == "choose_opponent":
        if state is None:
            return f"chooses the player {idx[0] + 1} seat{'s' if idx[0] else ''} after it"
        return f"chooses P{(seat + idx[0] + 1) % game.rules.n}"
    if fam == "choose_face":
        verb = "turns the die to" if pd.get("k") == Kind.FACE_NEW else "picks its pool die showing"
        return f"{verb} {idx[0] + 1}"
    if fam == "choose_socket":
        verb = {Kind.SOCKET_BLOCK: "blocks", Kind.SOCKET_DST: "moves the die to"}.get(pd.get("k"), "picks its die in")
        return f"{verb} socket {idx[0]:02d}"
    if fam == "choose_index":
        return "keeps one of the Runes it looked at"
    if fam == "decline":
        return "declines to pay"
    if fam == "pay_gems":
        return "pays with gems"
    if fam in ("pay_card", "discard"):
        return f"{'pays with' if fam == 'pay_card' else 'discards'} {c.actions[idx[0]].name}"
    if fam == "round_side":
        return "chooses the " + ("Exalted side" if idx[0] else "normal side") + " of the Round card"
    if fam == "start_bonus":
        return "takes " + ("the top Skill card" if idx[0] == 0 else "a gem from the Source")
    if fam == "final_reveal":
        return f"reveals {idx[0]} gem" + ("" if idx[0] == 1 else "s")
    return game.layout.decode(int(action))
