"""Text and picture renders of ``monolith_strategy_v0`` (legend: docs/monolith_strategy.md §14).

``render_text(game, state, viewer)`` shows the status line, the card grid with every socket and die, the
players (VP, gems, pool, Source and set-aside dice, Guard, hands as ``viewer`` may see them, cast cards,
private Runes), the decks and the score track with its toll stones.  The drawing (``svg`` and ``rgb_array``)
is :mod:`monolith_envs.strategy.render_svg`.
"""

from __future__ import annotations

import textwrap
from typing import Any

from ..core.drawing import check_viewer
from .board import PRIV0
from .state import Kind, Phase, StrategyState

__all__ = ["render_text", "status_line", "pool_faces", "pool_words", "socketless_words", "hand_size_words", "KIND_ASKS"]

PHASES = ("setup", "action", "resolution", "advancement", "final scoring", "over")


def _req(r: int) -> str:
    return "A" if r == 0 else str(r)


def pool_faces(counts) -> str:
    """A seat's unsocketed dice by face, lowest first (``counts[f]`` dice show ``f + 1``): ``"2 4 4"``; ``""``
    when there are none."""
    return " ".join(str(f + 1) for f in range(6) for _ in range(counts[f]))


def socketless_words(R: Any, card: Any, s: StrategyState) -> str:
    """What a card without sockets does, in a few words: Fate 3.6 dealt the second Fate at setup, on position
    13 (in solo on 7, docs §4.15), when there was one to deal; otherwise ``"no sockets"``."""
    if any(ln.op == "extra_fate" for ln in card.setup) and s.board[R.second_fate_pos] >= 0:
        return f"no sockets; at setup it dealt the second Fate, on card {R.second_fate_pos}"
    return "no sockets"


def pool_words(s: StrategyState, p: int) -> str:
    """Seat ``p``'s pool as drawn: its faces (``"2 4 4"``, ``"-"`` for none), or, before the round's Chance
    roll (setup and Advancement: the faces are not rolled yet, docs §11), ``"3 dice, not rolled yet"``."""
    n = sum(s.pool[p])
    if n and s.phase in (Phase.SETUP, Phase.ADVANCEMENT):
        return f"{n} {'die' if n == 1 else 'dice'}, not rolled yet"
    return pool_faces(s.pool[p]) or "-"


#: the open decision of each kind in a few words, after the deciding seat (docs §6.2)
KIND_ASKS = {
    Kind.BONUS: "takes a start bonus", Kind.SIDE: "chooses the Round card's side", Kind.TURN: "takes a turn",
    Kind.OPPONENT: "chooses an opponent", Kind.FACE_SRC: "chooses a pool die", Kind.FACE_NEW: "chooses the die's new face",
    Kind.SOCKET_SRC: "chooses a socketed die", Kind.SOCKET_DST: "chooses where the die goes",
    Kind.SOCKET_BLOCK: "chooses a socket to block", Kind.RUNE_PICK: "keeps a private Rune",
    Kind.PAY_OFFER: "decides whether to pay", Kind.PAY_MORE: "pays the rest", Kind.DISCARD: "discards to the hand limit",
    Kind.REVEAL_COUNT: "chooses how many gems to reveal", Kind.REVEAL_SRC: "earmarks what pays for the reveal",
}


def hand_size_words(R, s: StrategyState, p: int) -> str:
    """Seat ``p``'s hand size (docs §4.12: the cards in hand and those cast this round, the count the hand
    limit applies to), saying how many of them are cast: ``"2"``, or ``"2 (1 cast)"`` (a hand shown as empty
    next to a bare hand size of 1 read as a mistake)."""
    cast = sum(s.cast[p])
    size = R.hand_size(s, p)
    return f"{size} ({cast} cast)" if cast else str(size)


def status_line(game, s: StrategyState) -> str:
    """One line: round, phase, the open decision and its decider, the Primus holder (or the result)."""
    R = game.rules
    if s.terminal:
        if R.solo:
            res = "SUCCESS" if game.success(s) else "FAILURE"
            return f"game over after round {s.round}: {res} with {s.vp[0]} VP"
        who = f"P{s.winner} wins" if s.winner >= 0 else "no winner (tie)"
        return f"game over after round {s.round}: {who}; VP " + " ".join(map(str, s.vp))
    pd = s.pending
    dec = f"P{pd['seat']} {KIND_ASKS.get(Kind(pd['k']), Kind(pd['k']).name)}" if pd else "-"
    if pd and pd["k"] == Kind.SOCKET_SRC and pd.get("mode") == "set" and pd.get("face"):
        dec += f" to set to {pd['face']}"  # Overcharge (docs §4.8): the die becomes this face
    return f"round {s.round}/{R.content.rounds} · {PHASES[s.phase]} · {dec} · Primus P{s.primus}" + (
        " (locked)" if s.primus_locked else "")


def _cell(game, s: StrategyState, pos: int) -> list:
    R = game.rules
    c = R.content
    b = s.board[pos]
    name = f"{pos:>2} {c.board[b].id} {c.board[b].name}" if b >= 0 else f"{pos:>2} (empty)"
    lines = _fit(name, "   ")
    if pos == s.rc_pos:
        lines.append(f"   Round {s.rc_round}: " + ("exalted" if s.rc_side else "covered"))
    kind, obj = R.active(s, pos)
    socks = []
    if kind is not None:
        base = (pos - 1) * 4
        for i, req in enumerate(obj.sockets):
            sid = base + i
            if s.sock_seat[sid] >= 0:
                socks.append(f"{_req(req)}:P{s.sock_seat[sid]}={s.sock_face[sid]}")
            elif s.blocked[sid]:
                socks.append(f"{_req(req)}:##")
            else:
                socks.append(f"{_req(req)}:..")
    lines += _fit("   " + " ".join(socks), "   ") if socks else ["   (no sockets)" if kind is not None else "   (out)"]
    return lines


#: text renders fit this many columns; a board cell is _CELL_W wide (4 cells and 3 separators: 97)
TEXT_WIDTH = 100
_CELL_W = 22


def _fit(text: str, indent: str, width: int = _CELL_W) -> list:
    """``text`` cut at spaces into lines of at most ``width`` columns (continuations indented)."""
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False)


def _track(game, s: StrategyState) -> list:
    R = game.rules
    stones = {sp: i + 1 for i, (sp, _) in enumerate(R.content.tolls)}
    marks = []
    for sp in range(R.victory + 1):
        who = "".join(str(p) for p in range(R.n) if s.vp[p] == sp)
        ch = [str(p) for p in range(R.n) if s.chase[p] is not None and s.chase[p][0] == sp]
        tag = f"T{stones[sp]}" if sp in stones else ("V" if sp == R.victory else "")
        if R.n == 1 and sp == game.solo_goal:
            tag += "G"
        cell = f"{sp}{tag}"
        if who:
            cell += f"<{who}>"
        if ch:
            cell += f"(c{''.join(ch)})"
        marks.append(cell)
    tolls = ", ".join(f"T{i + 1}@{sp} costs {cost}" for i, (sp, cost) in enumerate(R.content.tolls))
    goal = [f"       solo goal (G): end on or past {game.solo_goal} VP"] if R.n == 1 else []
    return ["track: " + " ".join(marks), f"       toll stones: {tolls}; VICTORY at {R.victory}"] + goal


def render_text(game, s: StrategyState, viewer: int | None = None) -> str:
    """The text picture of ``s`` as seat ``viewer`` may see it (None: everything), at most 100 columns wide:
    the status line, the 4-column card grid (each card's name and sockets, wrapped in its cell), the players,
    the supply and the score track.

    Raises:
        ValueError: ``viewer`` is not ``None`` or a seat of this game (the check of ``render_svg``).
    """
    R = game.rules
    check_viewer(viewer, R.n)
    c = R.content
    kinds = [a.id for a in c.actions]
    out = [status_line(game, s), ""]
    rows = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13,)]
    w = _CELL_W
    for row in rows:
        if row == (13,) and s.board[13] < 0:
            continue
        cells = [_cell(game, s, p) for p in row]
        height = max(len(x) for x in cells)
        for i in range(height):
            out.append(" | ".join((x[i] if i < len(x) else "").ljust(w) for x in cells).rstrip())
        out.append("-" * (w * len(row) + 3 * (len(row) - 1)))
    if 1 <= s.rc_pos <= 13 and s.rc_side and 1 <= s.rc_round <= len(c.round_cards):
        out.append(f"Round {s.rc_round}: {c.round_cards[s.rc_round - 1].exalted_name} (on card {s.rc_pos})")
    for p in range(R.n):
        pool = pool_words(s, p)
        tag = "*" if p == s.primus else " "
        out.append(f"P{p}{tag} vp {s.vp[p]:>2}  gems {s.gems[p]}  pool [{pool}]  source {s.src_dice[p]}  "
                   f"aside {s.aside[p]}  guard {s.guard[p]}  hand size {hand_size_words(R, s, p)}")
        if viewer is None or viewer == p:
            h = [kinds[k] + (f"x{s.hand[p][k]}" if s.hand[p][k] > 1 else "") for k in range(R.K) if s.hand[p][k]]
            out.append("     hand: " + (" ".join(h) or "-"))
        cast = [kinds[k] + (f"x{s.cast[p][k]}" if s.cast[p][k] > 1 else "") for k in range(R.K) if s.cast[p][k]]
        if cast:
            out.append("     cast: " + " ".join(cast))
        for slot, pr in enumerate(s.priv[p]):
            shown = viewer is None or viewer == p or pr["revealed"]
            name = c.board[pr["card"]].id if shown else "hidden Rune"
            socks = c.board[pr["card"]].sockets if shown else ()
            dice = " ".join(f"{_req(r)}:{pr['occ'][i] or '..'}" for i, r in enumerate(socks))
            out.append(f"     private {slot} (sockets {PRIV0 + slot * 4}-{PRIV0 + slot * 4 + 3}): {name} {dice}")
    out.append(f"source gems {s.source_gems}   decks: skill {len(s.skill_deck)}, power {len(s.power_deck)}, "
               f"rune {len(s.rune_deck)}")
    out += _track(game, s)
    return "\n".join(piece for line in out for piece in _fit(line, "       ", TEXT_WIDTH))
