"""The vector drawing of Monolith Arena (docs/monolith_arena.md §7): ``render_mode="svg"`` and ``rgb_array``.

:func:`draw` builds one :class:`~monolith_envs.core.drawing.Scene`: the 19 hexes (pointy-top, rows of
docs/monolith_arena.md §2.1) with their numbers and, on an occupied hex, the tile's name in its owner's
colour, a white wedge on the front edge, melee (dark) and ranged (gold) ticks on the attack edges, grey
armour bars, its initiative, red wound pips, green poison pips, a cross-hatch when netted and the Monolith
segments outlined; under the board one panel per seat (faction, HP or team pool, hand, deck, discard and
the Monolith's contents as the viewer may know them), the status lines and a legend.

Hidden information follows :mod:`monolith_envs.arena.observe`: an unrevealed Monolith segment of another
seat shows as ``?`` to a seat's viewer; deck orders are never drawn (only sizes).  Each hex is a group with
``id="hex-<h>"`` and ``data-target="hex:<h>"``; its outline polygon has ``class="target-shape"`` (the shape
browser play outlines on a hex that may be clicked, not the wedge or the tabs).
"""

from __future__ import annotations

import math

from ..core.drawing import Scene, check_viewer, hex_corners, mix, text_width
from .board import COORDS, NUM_HEXES
from .render import _enum_name, _module, _netted, _pending_text, _segments, _tables, _teams
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Sub
from .tables import Kind

__all__ = ["draw", "render_svg", "render_rgb", "OWNER_COLOURS", "hex_center", "status_lines", "LEGEND"]

#: RGB colour per seat (seat 0 red, 1 blue, 2 green, 3 gold)
OWNER_COLOURS = ((200, 55, 55), (55, 95, 205), (45, 150, 75), (205, 160, 30))
_BG, _EMPTY, _EDGE, _DARK, _WHITE = (246, 244, 238), (214, 211, 200), (90, 88, 80), (25, 25, 25), (255, 255, 255)
_WOUND, _POISON, _RESULT = (225, 30, 30), (110, 200, 50), (170, 20, 20)
_R = 46.0  # hex centre-to-corner radius
_CX, _CY = 280.0, 236.0
W = 560
#: the legend lines under the picture
LEGEND = ("Fill: owner (pale: Rune, ring: Banner) · white wedge: front edge · upper left: hex · upper right: initiative",
          "Dark bar: melee · gold bar: ranged (longer = stronger) · grey rim bar: armour · red dots: wounds",
          "Green dots: poison · hatching: netted · thick coloured outline + Sk: Monolith segment k",
          "Dashed gold outline: the hexes chosen for the pending resolution · ▶: the seat to act")


def hex_center(h: int) -> tuple:
    """Centre ``(x, y)`` of hex ``h`` in the drawing (pointy-top layout, hex 0 top left)."""
    q, r = COORDS[h]
    return (_CX + _R * math.sqrt(3) * (q + r / 2.0), _CY + _R * 1.5 * r)


def _dir(d: int) -> tuple:
    """Unit vector of board direction ``d`` (0 north-east, then clockwise; y down)."""
    a = math.radians(-60.0 + 60.0 * d)
    return math.cos(a), math.sin(a)


def status_lines(game, state, viewer: int | None = None) -> list:
    """Four lines: decision number, sub-phase and the last round; the seat to act (or the result) and the
    teams; the last action (``state.last_move``) by name, shown to its own seat and the omniscient view only,
    and whose view this is; the pending resolution (effect, order, the chosen hexes A, B, C) or ``""``."""
    sub = _enum_name(Sub, state.sub_phase).replace("_", " ").lower()
    first = f"Decision {state.decisions} · {sub}" + (" · last round" if state.last_round else "")
    if state.terminal:
        won = ", ".join(f"P{p}" for p in state.winners)
        second = f"Game over: {won} win" + ("s" if len(state.winners) == 1 else "") if won else "Game over: draw"
    else:
        second = f"P{state.acting_seat} to act · turn of P{state.turn_seat}"
    if _teams(game):
        second += " · teams A: P0 P2, B: P1 P3"
    last = getattr(state, "last_move", None)
    third = ""
    if last is not None and hasattr(game, "layout") and (viewer is None or viewer == last[0]):  # a setup pick is secret
        third = f"Last: P{last[0]} {game.layout.decode(int(last[1]))}"
    view = "omniscient view" if viewer is None else f"as seen by P{viewer}"
    pend = _pending_text(_tables(game), state)  # the resolution under way; its hexes are outlined in gold
    return [first + f" · {view}", second, third, pend.replace("pending ", "Pending: ", 1) if pend else ""]


def _tile_lines(name: str) -> list:
    name = name.removeprefix("Rune of ")
    words = name.split()
    if len(name) <= 10 or len(words) == 1:
        return [name[:16]]
    half = (len(words) + 1) // 2
    return [" ".join(words[:half])[:16], " ".join(words[half:])[:16]]


#: the row of the hex number's and the initiative's tabs, this far above a hex's centre: inside every front
#: wedge and attack bar (both tabs stay clear of them whatever the facing; tests/render/test_picture_geometry.py)
TAB_Y = -14.0
_TAB_SIZE = 8.0
#: a tile's name is at most this wide, so that it ends clear of the W and E wedges (their bases 30.2 out)
NAME_WIDTH = 53.0


def tab_box(cx: float, cy: float, label: str, right: bool) -> tuple:
    """``(x, y, w, h)`` of the tab of ``label`` in the tab row of the hex centred at ``(cx, cy)``: the hex
    number's left of the middle, the initiative's (``right``) right of it."""
    w = text_width(label, _TAB_SIZE, right) + 5
    return (cx + 1 if right else cx - 1 - w), cy + TAB_Y - 4.5, w, 9.0


def _seg_text(tb, state, p: int, k: int, viewer) -> str:
    i = state.seg_content[p][k]
    if i < 0:
        return "-"
    if viewer is None or viewer == p or state.seg_revealed[p][k]:
        return tb.name_of[state.itype[i]] + ("" if i // PER_SEAT == p else f" (P{i // PER_SEAT})")
    return "?"


def _draw_hex(sc: Scene, game, state, tb, h: int, netted, segs) -> None:
    cx, cy = hex_center(h)
    i = state.board[h]
    corners = hex_corners(cx, cy, _R - 1)
    ap = _R * math.sqrt(3) / 2
    if i < 0:
        title = f"hex {h}: empty"
    else:
        t, f = state.itype[i], state.facing[i]
        title = (f"hex {h}: P{i // PER_SEAT} {tb.name_of[t]}, facing {f}, wounds {state.wounds[i]}"
                 f"/{tb.tough[t]}" + (f", poison {state.poison[i]}" if state.poison[i] else "")
                 + (", netted" if netted[h] else "") + (", Net-order marker" if state.net_marker_on == i else "")
                 + (", entrenched" if state.entrench_on == i else ""))
    with sc.group(title=title, id=f"hex-{h}", target=f"hex:{h}"):
        if i < 0:  # the hex's outline is the one shape that browser play outlines on a hex it may click
            sc.polygon(corners, _EMPTY, _EDGE, 1.5, cls="target-shape")
        else:
            owner, kind = i // PER_SEAT, tb.kind[t]
            col = OWNER_COLOURS[owner % 4]
            fill = mix(col, 0.5) if kind == Kind.RUNE else col
            ink = _DARK if kind == Kind.RUNE else _WHITE
            sc.polygon(corners, fill, _EDGE, 1.5, cls="target-shape")
            if kind == Kind.BANNER:
                sc.circle(cx, cy, ap * 0.62, None, _DARK, 2.5)
            for d in range(6):
                ux, uy = _dir(d)
                px, py = -uy, ux
                if tb.armor[t][f][d] or state.entrench_on == i:
                    a, b = ap * 0.93, ap * 0.5
                    sc.line(cx + ux * a - px * b, cy + uy * a - py * b, cx + ux * a + px * b, cy + uy * a + py * b,
                            (160, 160, 160), 3)
                for val, c, a in ((tb.melee[t][f][d], _DARK, ap * 0.84), (tb.ranged[t][f][d], (250, 225, 90), ap * 0.74)):
                    if val > 0:
                        b = ap * (0.12 + 0.1 * min(val, 4))
                        sc.line(cx + ux * a - px * b, cy + uy * a - py * b, cx + ux * a + px * b,
                                cy + uy * a + py * b, c, 4)
            ux, uy = _dir(f % 6)
            px, py = -uy, ux
            a0, a1, w = ap * 0.76, ap * 0.97, ap * 0.2
            sc.polygon([(cx + ux * a1, cy + uy * a1), (cx + ux * a0 + px * w, cy + uy * a0 + py * w),
                        (cx + ux * a0 - px * w, cy + uy * a0 - py * w)], _WHITE, _DARK, 1)
            if netted[h]:
                for k in range(-3, 4):
                    sc.line(cx + 9 * k - 14, cy - 14, cx + 9 * k + 14, cy + 14, _DARK, 1)
            lines = _tile_lines(tb.name_of[t])
            size = min(9.5, NAME_WIDTH / max(text_width(ln, 1.0, True) for ln in lines))  # between the W and E wedges
            for n, ln in enumerate(lines):
                sc.text(cx, cy + 1 + (10 * n - 3 if len(lines) > 1 else 0), ln, size, ink, "middle", bold=True)
            init = tb.init[t]
            if init:  # on a dark tab right of the middle of the tab row, between the NW and NE wedges
                label = "/".join(str(v) for v in init)
                x0, y0, w, hh = tab_box(cx, cy, label, right=True)
                sc.rect(x0, y0, w, hh, mix(fill, 0.45, _DARK), rx=3)
                sc.text(x0 + w / 2, cy + TAB_Y, label, _TAB_SIZE, _WHITE, "middle", bold=True)
            wounds, poison = [(_WOUND, 4.5)] * min(state.wounds[i], 6), [(_POISON, 3.2)] * min(state.poison[i], 6)
            rows = [wounds + poison] if len(wounds) + len(poison) <= 5 else [wounds, poison]
            for y, row in zip((cy + 20, cy + 29), rows):  # under the name (the tab row is above it)
                for k, (c, r) in enumerate(row):
                    sc.circle(cx - 4.75 * (len(row) - 1) + 9.5 * k, y, r, c, _DARK, 1)
        for p, k in segs.get(h, ()):
            sc.polygon(hex_corners(cx, cy, _R - 4), None, mix(OWNER_COLOURS[p % 4], 0.4, (0, 0, 0)), 4)
            if not state.mono_folded[p]:
                sc.text(cx + 18, cy + 24, f"S{k}", 9, _DARK, "middle", bold=True)
        x0, y0, w, hh = tab_box(cx, cy, str(h), right=False)
        if i >= 0:  # a light tab under the hex number of an occupied hex
            sc.rect(x0, y0, w, hh, (245, 245, 240), rx=3)
        sc.text(x0 + w / 2, cy + TAB_Y, str(h), _TAB_SIZE, (70, 70, 70), "middle")


def draw(game, state, viewer: int | None = None) -> Scene:
    """The :class:`Scene` of ``state`` as seat ``viewer`` may see it (``None``: omniscient), 560 wide.

    Raises:
        ValueError: ``viewer`` is not ``None`` or a seat of this game.
    """
    n = state.num_players
    check_viewer(viewer, n)
    tb = _tables(game)
    netted, segs = _netted(game, state), _segments(game, state)
    teams, module = _teams(game), _module(game, state)
    panel_h = 58 if module else 42
    top = 462
    height = top + n * (panel_h + 6) + 4 * 18 + len(LEGEND) * 15 + 20
    sc = Scene(W, height, _BG, title=f"Monolith Arena, decision {state.decisions}")
    sc.text(W / 2, 22, "Monolith Arena", 18, _DARK, "middle", bold=True)
    for h in range(NUM_HEXES):
        _draw_hex(sc, game, state, tb, h, netted, segs)
    for h in {v for v in (state.p_a, state.p_b, state.p_c) if 0 <= v < NUM_HEXES}:
        cx, cy = hex_center(h)
        pts = hex_corners(cx, cy, _R - 2)
        sc.polyline(pts + pts[:1], (240, 190, 20), 3, dash=6)
    y = top
    for p in range(n):
        col = OWNER_COLOURS[p % 4]
        fac = tb.content.factions[state.factions[p]].name if hasattr(tb, "content") else str(state.factions[p])
        if teams:
            hp, full = max(0, state.pool[p % 2]), max(1, getattr(game, "team_hp", 30))
        else:
            hp, full = max(0, state.hp[p]), max(1, tb.fac_hp[state.factions[p]])
        with sc.group(title=f"P{p} {fac}", id=f"seat-{p}"):
            sc.rect(10, y, W - 20, panel_h, (255, 255, 255), col, 2, rx=4)
            acting = p == state.acting_seat and not state.terminal
            sc.text(18, y + 12, f"{'▶ ' if acting else ''}P{p} {fac}" + ("" if state.alive[p] else " (eliminated)"),
                    12, col, bold=True)
            bar_x, bar_w = 250, 200
            sc.rect(bar_x, y + 6, bar_w, 12, (225, 225, 225))
            sc.rect(bar_x, y + 6, max(0.0, bar_w * min(1.0, hp / full)), 12, col if state.alive[p] else (120, 120, 120))
            sc.text(bar_x + bar_w + 8, y + 12, f"{'pool ' + 'AB'[p % 2] if teams else 'HP'} {hp}/{full}", 11, _DARK)
            hand = [tb.name_of[state.itype[i]] + ("*" if state.fresh[p][s] else "")
                    for s, i in enumerate(state.hand[p]) if i >= 0]
            sc.text(18, y + 29, f"hand: {', '.join(hand) or '-'} · deck {len(state.deck[p])} · "
                    f"discard {len(state.discard[p])}", 10.5, _DARK, max_width=W - 36)
            if module:
                if state.seg_hex[p][0] < 0:
                    where = "not placed"
                elif state.mono_folded[p]:
                    where = f"folded on hex {state.seg_hex[p][0]}"
                else:
                    where = "unfolded on hexes " + ", ".join(str(h) for h in state.seg_hex[p])
                sc.text(18, y + 45, f"Monolith {where} · S2: {_seg_text(tb, state, p, 0, viewer)} · "
                        f"S3: {_seg_text(tb, state, p, 1, viewer)}", 10.5, _DARK, max_width=W - 36)
        y += panel_h + 6
    for k, line in enumerate(status_lines(game, state, viewer)):
        sc.text(12, y + 9 + 18 * k, line, 12.5, _RESULT if state.terminal and k == 1 else _DARK, bold=k < 2,
                max_width=W - 24)
    y += 4 * 18 + 4
    for k, line in enumerate(LEGEND):
        sc.text(12, y + 7 + 15 * k, line, 10, (85, 85, 85))
    return sc


def render_svg(game, state, viewer: int | None = None) -> str:
    """The SVG document (``str``) of :func:`draw`."""
    return draw(game, state, viewer).to_svg()


def render_rgb(game, state) -> "np.ndarray":  # noqa: F821
    """The omniscient drawing as ``uint8[H, 560, 3]`` (``H`` grows with the seats and the module)."""
    return draw(game, state).to_rgb()
