"""The vector drawing of ``monolith_strategy_v0`` (legend: docs/monolith_strategy.md §14): ``svg`` and ``rgb_array``.

:func:`draw` builds one :class:`~monolith_envs.core.drawing.Scene`: the status line; the rune-card grid
(each card with its position, id and name, the Round card on it, and its sockets: the required face or
``any``, the occupant's colour and die face, a dark cross when blocked); one panel per seat (VP, gems,
pool, Source and set-aside dice, Guard, hand, cast cards, private Runes); the score track with its toll
stones and the victory space; a legend.

Hidden information follows :mod:`monolith_envs.strategy.observe`: another seat's uncast hand shows as its
size only and its unrevealed private Runes as "hidden Rune" (no card, no sockets); deck orders are never
drawn.  Each socket is a group with ``id="socket-<sid>"`` and ``data-target="socket:<sid>"`` (board sockets
``(pos - 1) * 4 + i``, private ones from ``PRIV0``); each card ``id="card-<pos>"``.
"""

from __future__ import annotations

from ..core.drawing import Scene, check_viewer, mix, wrap_text
from .board import PRIV0
from .render import hand_size_words, pool_words, socketless_words, status_line
from .state import StrategyState

__all__ = ["draw", "render_svg", "render_rgb", "SEAT_COLOURS", "LEGEND"]

SEAT_COLOURS = ((214, 69, 65), (52, 120, 200), (60, 160, 80), (225, 170, 40))
W = 940
CW, CH = 220, 104
_BG, _INK, _GREY = (246, 242, 232), (30, 30, 30), (110, 110, 110)
#: the legend lines at the bottom of the drawing
LEGEND = ("Socket: required face (any = any face), its number at the bottom right · filled: occupant's colour with "
          "the die face · dark ×: blocked",
          "Grey card: covered by the Round card · gold card: its Exalted side · ★: Primus",
          "Track: brown = toll stone (cost to pass) · green = victory · markers in seat colours")


def _req(r: int) -> str:
    return "any" if r == 0 else str(r)


def _socket(sc: Scene, s, sid: int, req: int, x: float, y: float, occ_seat: int, face: int, blocked: bool) -> None:
    title = f"socket {sid}: needs {_req(req)}" + (f", P{occ_seat} die {face}" if occ_seat >= 0 else
                                                 ", blocked" if blocked else ", free")
    with sc.group(title=title, id=f"socket-{sid}", target=f"socket:{sid}"):
        col = SEAT_COLOURS[occ_seat] if occ_seat >= 0 else (70, 70, 70) if blocked else (232, 232, 228)
        sc.rect(x, y, 44, 44, col, (80, 80, 80), 1.5, rx=6)
        sc.text(x + 4, y + 9, _req(req), 10, (255, 255, 255) if occ_seat >= 0 or blocked else _INK)
        if occ_seat >= 0:
            sc.text(x + 22, y + 27, str(face), 20, (255, 255, 255), "middle", bold=True)
        elif blocked:
            sc.text(x + 22, y + 26, "×", 22, (255, 255, 255), "middle", bold=True)
        # the socket's number, as the options and the narration name it ("socket 07")
        sc.text(x + 41, y + 39, f"{sid:02d}", 11, (235, 235, 235) if occ_seat >= 0 or blocked else _GREY, "end")


def _card(sc: Scene, game, s: StrategyState, pos: int, x: float, y: float) -> None:
    R = game.rules
    c = R.content
    kind, obj = R.active(s, pos)
    b = s.board[pos]
    bg = (255, 255, 255) if kind == "card" else (250, 226, 160) if kind == "exalted" else (205, 205, 200)
    name = obj.exalted_name if kind == "exalted" else c.board[b].name if b >= 0 else "(empty)"
    with sc.group(title=f"card {pos}: {name}", id=f"card-{pos}"):
        sc.rect(x, y, CW, CH, bg, (90, 90, 90), 1.5, rx=6)
        sc.text(x + 8, y + 12, f"{pos} · {c.board[b].id if b >= 0 else '-'}", 11, _INK, bold=True)
        sc.text(x + 8, y + 27, name[:34], 10, (150, 60, 0) if kind == "exalted" else (70, 70, 70))
        if pos == s.rc_pos:
            sc.text(x + CW - 8, y + 12, f"Round {s.rc_round} " + ("exalted" if s.rc_side else "covers"), 10,
                    (150, 60, 0), "end", bold=True)
    if kind is None:
        return
    if kind == "card" and not obj.sockets:  # Fate 3.6: its work was done at setup
        for k, line in enumerate(wrap_text(socketless_words(R, obj, s), 10, CW - 16, indent="")[:3]):
            sc.text(x + 8, y + 50 + 14 * k, line, 10, _INK)
        return
    base = (pos - 1) * 4
    for i, req in enumerate(obj.sockets):
        sid = base + i
        _socket(sc, s, sid, req, x + 8 + i * 52, y + 44, s.sock_seat[sid], s.sock_face[sid], bool(s.blocked[sid]))


def _panel(sc: Scene, game, s: StrategyState, p: int, x: float, y: float, w: float, h: float, viewer) -> None:
    R = game.rules
    c = R.content
    kinds = [a.name for a in c.actions]
    col = SEAT_COLOURS[p]
    with sc.group(title=f"P{p}", id=f"seat-{p}"):
        sc.rect(x, y, w, h, (255, 255, 255), col, 2.5, rx=6)
        sc.text(x + 8, y + 12, f"P{p}" + (" ★ Primus" if p == s.primus else ""), 13, col, bold=True)
        sc.text(x + w - 8, y + 12, f"{s.vp[p]} VP", 13, _INK, "end", bold=True)
        pool = pool_words(s, p)
        size = hand_size_words(R, s, p).replace(" cast)", "\u00a0cast)")  # "(1 cast)" is never cut in two
        rows = [f"gems {s.gems[p]} · guard {s.guard[p]} · hand size {size}",
                f"pool {pool}", f"source {s.src_dice[p]} · aside {s.aside[p]}"]
        if viewer is None or viewer == p:
            hand = [kinds[k] + (f" ×{s.hand[p][k]}" if s.hand[p][k] > 1 else "") for k in range(R.K) if s.hand[p][k]]
            rows.append("hand: " + (", ".join(hand) or "-"))
        else:
            n = sum(s.hand[p])  # cast cards are public, listed below; the hand size above counts both
            rows.append(f"hand: {n} card{'' if n == 1 else 's'}, hidden")
        cast = [kinds[k] + (f" ×{s.cast[p][k]}" if s.cast[p][k] > 1 else "") for k in range(R.K) if s.cast[p][k]]
        rows.append("cast: " + (", ".join(cast) or "-"))
        lines = [line for row in rows for line in wrap_text(row, 10, w - 16)]  # a long hand: more lines
        if len(lines) > len(rows) + 3 * (2 - len(s.priv[p])):  # no room left above the private Runes
            lines = rows
        for k, row in enumerate(lines):
            sc.text(x + 8, y + 30 + 14 * k, row, 10, _INK, max_width=w - 16)
        yy = y + 30 + 14 * len(lines)
        if not s.priv[p]:  # their room (two private Runes) stays: say it is empty
            sc.text(x + 8, yy + 4, "private Runes: none", 10, _GREY)
        for slot, pr in enumerate(s.priv[p]):
            shown = viewer is None or viewer == p or pr["revealed"]
            if not shown:
                sc.text(x + 8, yy + 4, f"private {slot}: hidden Rune", 10, _GREY)
                yy += 18
                continue
            card = c.board[pr["card"]]
            sc.text(x + 8, yy + 4, f"private {slot}: {card.name}" + ("" if pr["revealed"] else " (secret)"), 10,
                    _INK, max_width=w - 16)
            for i, req in enumerate(card.sockets):
                face = pr["occ"][i]
                sid = PRIV0 + slot * 4 + i
                with sc.group(title=f"socket {sid}: needs {_req(req)}" + (f", die {face}" if face else ", free"),
                              id=f"socket-{sid}", target=f"socket:{sid}"):
                    sc.rect(x + 8 + i * 34, yy + 12, 30, 24, col if face else (232, 232, 228), (80, 80, 80), 1, rx=4)
                    sc.text(x + 23 + i * 34, yy + 24, str(face) if face else _req(req), 11,
                            (255, 255, 255) if face else _INK, "middle", bold=bool(face))
            yy += 42


def _track(sc: Scene, game, s: StrategyState, y: float) -> None:
    R = game.rules
    seg = (W - 40) / (R.victory + 1)
    stones = {sp: cost for sp, cost in R.content.tolls}
    sc.text(20, y - 10, "Score track", 11, _INK, bold=True)
    for sp in range(R.victory + 1):
        x0 = 20 + sp * seg
        col = (130, 95, 45) if sp in stones else (40, 140, 60) if sp == R.victory else (215, 210, 195)
        title = f"space {sp}" + (f": toll stone, costs {stones[sp]}" if sp in stones else
                                 ": victory" if sp == R.victory else "")
        goal = R.n == 1 and sp == game.solo_goal
        if goal:
            title += " · the solo goal: end on or past it"
        with sc.group(title=title, id=f"track-{sp}"):
            sc.rect(x0, y, seg - 2, 30, col, (205, 160, 20) if goal else None, 2.5 if goal else 1)
            light = sp in stones or sp == R.victory
            sc.text(x0 + (seg - 2) / 2, y + 8, str(sp), 9, (255, 255, 255) if light else (60, 60, 60), "middle")
            on = [p for p in range(R.n) if s.vp[p] == sp]
            for k, p in enumerate(on):
                sc.circle(x0 + (seg - 2) / 2 + (k - (len(on) - 1) / 2) * 7, y + 21, 3.5, SEAT_COLOURS[p], (255, 255, 255),
                          0.8)
    tolls = ", ".join(f"{sp} (cost {cost})" for sp, cost in R.content.tolls)
    goal = f" · solo goal: end on or past {game.solo_goal} (gold frame)" if R.n == 1 else ""
    sc.text(20, y + 42, f"toll stones at {tolls} · victory at {R.victory}{goal}", 10, _GREY)


def draw(game, s: StrategyState, viewer: int | None = None) -> Scene:
    """The :class:`Scene` of ``s`` as seat ``viewer`` may see it (``None``: omniscient), 940 wide.

    Raises:
        ValueError: ``viewer`` is not ``None`` or a seat of this game.
    """
    R = game.rules
    check_viewer(viewer, R.n)
    # position 13 (a second Fate, docs §2.2) is the fourth row; its room is kept in every multiplayer picture,
    # so the pictures of one config have one size (video recorders need that); solo never has it
    rows = 4 if R.n > 1 else 3
    grid_h = rows * (CH + 8)
    panel_h = 30 + 14 * 5 + 42 * 2 + 4
    height = 40 + grid_h + panel_h + 16 + 64 + len(LEGEND) * 15 + 16
    sc = Scene(W, height, _BG, title=f"Monolith Strategy, round {s.round}")
    sc.rect(0, 0, W, 30, (40, 40, 48))
    view = "omniscient view" if viewer is None else f"as seen by P{viewer}"
    sc.text(10, 15, f"{status_line(game, s)} · {view}"[:140], 12.5, (255, 255, 255), bold=True)
    for pos in range(1, 14):
        if pos == 13 and s.board[13] < 0:
            if R.n > 1:  # the fourth row's room, kept: say what would be there
                x0, y0 = 16, 40 + 3 * (CH + 8)
                sc.polyline([(x0, y0), (x0 + CW, y0), (x0 + CW, y0 + CH), (x0, y0 + CH), (x0, y0)], (175, 170, 155),
                            1.2, dash=5)
                sc.text(24, 40 + 3 * (CH + 8) + 12, "13 · empty", 11, _GREY, bold=True)
                why = "no second Fate this game (Fate\u00a03.6 deals one here at setup)"
                for k, line in enumerate(wrap_text(why, 10, CW - 16, indent="")):
                    sc.text(24, 40 + 3 * (CH + 8) + 27 + 13 * k, line, 10, _GREY)
            continue
        r, col = divmod(pos - 1, 4)
        _card(sc, game, s, pos, 16 + col * (CW + 8), 40 + r * (CH + 8))
    py = 40 + grid_h
    pw = (W - 32 - 8 * (R.n - 1)) / R.n if R.n > 1 else 300
    for p in range(R.n):
        _panel(sc, game, s, p, 16 + p * (pw + 8), py, pw, panel_h, viewer)
    ty = py + panel_h + 30
    _track(sc, game, s, ty)
    ly = ty + 64
    for k, line in enumerate(LEGEND):
        sc.text(16, ly + 7 + 15 * k, line, 10, (85, 85, 85))
    for p in range(R.n):
        sc.rect(W - 60 * (R.n - p) - 10, ly + 2, 12, 12, SEAT_COLOURS[p])
        sc.text(W - 60 * (R.n - p) + 6, ly + 8, f"P{p}", 11, _INK)
    _ = mix
    return sc


def render_svg(game, s: StrategyState, viewer: int | None = None) -> str:
    """The SVG document (``str``) of :func:`draw`."""
    return draw(game, s, viewer).to_svg()


def render_rgb(game, s: StrategyState):
    """The omniscient drawing as ``uint8[H, 940, 3]``."""
    return draw(game, s).to_rgb()
