"""Text and picture renders of ``monolith_strategy_v0`` (legend: docs/monolith_strategy.md §14).

``render_text(game, state, viewer)`` shows the status line, the card grid with every socket and die, the
players (VP, gems, pool, Source and set-aside dice, Guard, hands as ``viewer`` may see them, cast cards,
private Runes), the decks and the score track with its toll stones.  ``render_rgb(game, state)`` draws
the same board as a ``uint8[H, W, 3]`` picture with a status line and a legend.
"""

from __future__ import annotations

import textwrap

import numpy as np

from ..core import raster
from .board import PRIV0
from .state import Kind, Phase, StrategyState

__all__ = ["render_text", "render_rgb", "status_line", "SEAT_COLOURS"]

SEAT_COLOURS = ((214, 69, 65), (52, 120, 200), (60, 160, 80), (225, 170, 40))
PHASES = ("setup", "action", "resolution", "advancement", "final scoring", "over")


def _req(r: int) -> str:
    return "A" if r == 0 else str(r)


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
    dec = f"{Kind(pd['k']).name} for P{pd['seat']}" if pd else "-"
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
        cell = f"{sp}{tag}"
        if who:
            cell += f"<{who}>"
        if ch:
            cell += f"(c{''.join(ch)})"
        marks.append(cell)
    tolls = ", ".join(f"T{i + 1}@{sp} costs {cost}" for i, (sp, cost) in enumerate(R.content.tolls))
    return ["track: " + " ".join(marks), f"       toll stones: {tolls}; VICTORY at {R.victory}"]


def render_text(game, s: StrategyState, viewer: int | None = None) -> str:
    """The text picture of ``s`` as seat ``viewer`` may see it (None: everything), at most 100 columns wide:
    the status line, the 4-column card grid (each card's name and sockets, wrapped in its cell), the players,
    the supply and the score track."""
    R = game.rules
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
        pool = " ".join(str(f + 1) for f in range(6) for _ in range(s.pool[p][f])) or "-"
        tag = "*" if p == s.primus else " "
        out.append(f"P{p}{tag} vp {s.vp[p]:>2}  gems {s.gems[p]}  pool [{pool}]  source {s.src_dice[p]}  "
                   f"aside {s.aside[p]}  guard {s.guard[p]}  hand size {R.hand_size(s, p)}")
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


# ---------------------------------------------------------------------------------------------- picture
W, H = 940, 640
LEGEND = (
    "LEGEND - SOCKET: A ANY FACE OR THE REQUIRED FACE - COLOUR: OCCUPANT - BIG DIGIT: ITS FACE - DARK X: BLOCKED",
    "GREY CARD: COVERED BY THE ROUND CARD - GOLD CARD: EXALTED SIDE - RN EX / RN OUT: ROUND CARD N",
    "TRACK: BROWN TOLL STONES - GREEN VICTORY - SMALL BARS: PLAYER MARKERS IN SEAT COLOURS",
    "PLAYER - POOL: FACES OF THE DICE IN THE POOL - SRC / ASIDE: DICE IN THE SOURCE / SET ASIDE",
)
CW, CH = 220, 96


def _cell_xy(pos: int) -> tuple:
    r, col = divmod(pos - 1, 4)
    return 16 + col * (CW + 8), 40 + r * (CH + 8)


_PLAIN = str.maketrans({"·": "-", "_": " ", ";": " -", "(": "- ", ")": ""})


def _glyphs(text: str) -> str:
    """``text`` with the characters the picture font lacks (core/raster.py) spelled with ones it has."""
    return text.translate(_PLAIN)


def render_rgb(game, s: StrategyState) -> np.ndarray:
    """``uint8[640, 940, 3]``: status line, card grid (sockets with the occupant's colour and face), players,
    the score track with its toll stones, and a legend."""
    R = game.rules
    c = R.content
    img = raster.canvas(H, W, (246, 242, 232))
    raster.fill_rect(img, 0, 0, W, 30, (40, 40, 48))
    raster.text(img, 10, 8, _glyphs(status_line(game, s))[:110], (255, 255, 255), 2)
    for pos in range(1, 14):
        if pos == 13 and s.board[13] < 0:
            continue
        x, y = _cell_xy(pos)
        kind, obj = R.active(s, pos)
        covered = pos == s.rc_pos
        bg = (255, 255, 255) if kind == "card" else (250, 226, 160) if kind == "exalted" else (200, 200, 200)
        raster.fill_rect(img, x, y, x + CW, y + CH, (90, 90, 90))
        raster.fill_rect(img, x + 2, y + 2, x + CW - 2, y + CH - 2, bg)
        b = s.board[pos]
        label = f"{pos} {c.board[b].id}" if b >= 0 else f"{pos} -"
        raster.text(img, x + 6, y + 6, label, (30, 30, 30), 2)
        if kind == "exalted":
            raster.text(img, x + 6, y + 22, obj.exalted_name[:26], (150, 60, 0), 1)
        elif b >= 0:
            raster.text(img, x + 6, y + 22, c.board[b].name[:26], (80, 80, 80), 1)
        if covered:
            raster.text(img, x + 110, y + 6, f"R{s.rc_round} " + ("EX" if s.rc_side else "OUT"), (150, 60, 0), 2)
        if kind is None:
            continue
        base = (pos - 1) * 4
        for i, req in enumerate(obj.sockets):
            sid = base + i
            sx, sy = x + 8 + i * 52, y + 40
            q = s.sock_seat[sid]
            col = SEAT_COLOURS[q] if q >= 0 else (60, 60, 60) if s.blocked[sid] else (225, 225, 225)
            raster.fill_rect(img, sx, sy, sx + 44, sy + 44, (70, 70, 70))
            raster.fill_rect(img, sx + 2, sy + 2, sx + 42, sy + 42, col)
            raster.text(img, sx + 4, sy + 4, _req(req), (20, 20, 20) if q < 0 else (255, 255, 255), 2)
            if q >= 0:
                raster.text(img, sx + 18, sy + 18, str(s.sock_face[sid]), (255, 255, 255), 3)
            elif s.blocked[sid]:
                raster.text(img, sx + 16, sy + 20, "X", (255, 255, 255), 2)
    # players
    py = 40 + 4 * (CH + 8) + 4 if s.board[13] >= 0 else 40 + 3 * (CH + 8) + 4
    for p in range(R.n):
        x = 16 + p * 228
        raster.fill_rect(img, x, py, x + 220, py + 64, SEAT_COLOURS[p])
        raster.fill_rect(img, x + 3, py + 3, x + 217, py + 61, (255, 255, 255))
        raster.text(img, x + 8, py + 8, f"P{p}{' PRIMUS' if p == s.primus else ''}", SEAT_COLOURS[p], 2)
        raster.text(img, x + 8, py + 24, f"VP {s.vp[p]} GEMS {s.gems[p]} HAND {R.hand_size(s, p)}", (30, 30, 30), 2)
        pool = "".join(str(f + 1) for f in range(6) for _ in range(s.pool[p][f])) or "-"
        raster.text(img, x + 8, py + 42, f"POOL {pool} SRC {s.src_dice[p]} ASIDE {s.aside[p]}", (30, 30, 30), 1)
        raster.text(img, x + 8, py + 52, f"GUARD {s.guard[p]} PRIVATE {len(s.priv[p])}", (30, 30, 30), 1)
    # score track
    ty = py + 80
    seg = (W - 40) / (R.victory + 1)
    stones = {sp for sp, _ in c.tolls}
    for sp in range(R.victory + 1):
        x0 = int(20 + sp * seg)
        col = (120, 90, 40) if sp in stones else (40, 140, 60) if sp == R.victory else (210, 205, 190)
        raster.fill_rect(img, x0, ty, x0 + int(seg) - 3, ty + 26, col)
        raster.text(img, x0 + 3, ty + 3, str(sp), (255, 255, 255) if sp in stones else (40, 40, 40), 1)
        for p in range(R.n):
            if s.vp[p] == sp:
                raster.fill_rect(img, x0 + 3 + p * 7, ty + 14, x0 + 9 + p * 7, ty + 24, SEAT_COLOURS[p])
    # legend
    ly = ty + 40
    for i, ln in enumerate(LEGEND):
        raster.text(img, 16, ly + 10 * i, ln, (40, 40, 40), 1)
    for p in range(R.n):
        raster.fill_rect(img, 16 + p * 60, ly + 44, 26 + p * 60, ly + 54, SEAT_COLOURS[p])
        raster.text(img, 30 + p * 60, ly + 45, f"P{p}", (40, 40, 40), 2)
    _ = Phase
    return img
