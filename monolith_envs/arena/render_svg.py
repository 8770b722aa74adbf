"""The vector drawing of Monolith Arena (docs/monolith_arena.md §7): ``render_mode="svg"`` and ``rgb_array``.

:func:`draw` builds one :class:`~monolith_envs.core.drawing.Scene`: the 19 hexes (pointy-top, rows of
docs/monolith_arena.md §2.1) with their numbers and, on an occupied hex, the tile's name in its owner's
colour, a white wedge on the front edge, melee (dark) and ranged (gold) ticks on the attack edges, grey
armour bars, its initiative, red wound pips, green poison pips, a cross-hatch when netted and the Monolith
segments outlined (an unfolded one labelled ``Sk`` on a tab in a free spot of its hex; a folded Monolith,
all its segments on one hex, by the outline alone); under the board one panel per
seat (faction, HP or team pool, hand, deck, discard and the Monolith's contents as the viewer may know them),
the status lines (the pending resolution in words) and a legend.

Hidden information follows :mod:`monolith_envs.arena.observe`: an unrevealed Monolith segment of another
seat shows as ``?`` to a seat's viewer; deck orders are never drawn (only sizes).  Each hex is a group with
``id="hex-<h>"`` and ``data-target="hex:<h>"``; its outline polygon has ``class="target-shape"`` (the shape
browser play outlines on a hex that may be clicked, not the wedge or the tabs).
"""

from __future__ import annotations

import math

from ..core.drawing import Scene, check_viewer, hex_corners, mix, text_width, wrap_text
from .board import COORDS, NUM_HEXES
from .render import _enum_name, _module, _netted, _segments, _tables, _teams
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff
from .tables import Kind
from .words import last_move_words, option_name, sub_words, tile_words

__all__ = ["draw", "render_svg", "render_rgb", "OWNER_COLOURS", "hex_center", "status_lines", "pending_line",
           "seg_label_box", "LEGEND"]

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
          "Green dots: poison · hatching: netted · thick coloured outline: Monolith segment (Sk once unfolded)",
          "Dashed gold outline: hexes chosen for the pending resolution · ▶: the seat to act · hand *: drawn this turn")


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
    teams; the last action (``state.last_move``) in words (:func:`~.words.last_move_words`), shown to
    every viewer, but a Monolith setup pick (``PICK_TYPE``) is secret: only its own seat and the
    omniscient view see it (hands are public, D5); whose view this is; the pending resolution in words
    (:func:`pending_line`) or ``""``."""
    first = f"Decision {state.decisions} · {sub_words(state.sub_phase)}" + (" · last round" if state.last_round else "")
    if state.terminal:
        won = ", ".join(f"P{p}" for p in state.winners)
        second = f"Game over: {won} win" + ("s" if len(state.winners) == 1 else "") if won else "Game over: draw"
    else:
        second = f"P{state.acting_seat} to act · turn of P{state.turn_seat}"
    if _teams(game):
        second += " · teams A: P0 P2, B: P1 P3"
    last = getattr(state, "last_move", None)
    third = ""
    # a Monolith setup pick is secret (only its seat sees it); hands are public
    secret = last is not None and hasattr(game, "layout") and viewer not in (
        None, last[0]) and game.layout.split(int(last[1]))[0] == "PICK_TYPE"
    if last is not None and hasattr(game, "layout") and not secret:
        context = last[2] if len(last) > 2 else None  # the state it was played in (words.move_context)
        third = f"Last: P{last[0]} {last_move_words(game, state, int(last[0]), int(last[1]), context)}"
    view = "omniscient view" if viewer is None else f"as seen by P{viewer}"
    return [first + f" · {view}", second, third, pending_line(_tables(game), state)]




def pending_line(tb, state) -> str:
    """The resolution under way in words, or ``""``: the order (its owner and name, the option chosen) or
    the effect, and the hexes chosen so far with the tiles on them (outlined in gold in the drawing); an
    unfold says whose Monolith unfolds onto which hexes and whose tiles are still to be faced, in turn."""
    if state.p_effect < 0 and state.p_order < 0:
        return ""
    hexes = [(h, state.board[h]) for h in (state.p_a, state.p_b, state.p_c) if 0 <= h < NUM_HEXES]
    if state.p_effect == Eff.UNFOLD:
        where = [f"segment {k} on hex {h:02d}" for k, h in zip((2, 3), (state.p_a, state.p_b)) if 0 <= h < NUM_HEXES]
        line = f"Pending: P{state.turn_seat} unfolds the Monolith" + (": " + ", ".join(where) if where else "")
        if state.unfold_queue:
            line += " · facings still to choose: " + ", then ".join(
                f"{tile_words(tb, state, i)} on hex {state.hexof[i]:02d}" for i in state.unfold_queue)
        return line
    effect = _enum_name(Eff, state.p_effect).replace("_", " ").lower() if state.p_effect >= 0 else ""
    if state.p_order >= 0:
        name = tb.name_of[state.itype[state.p_order]]
        line = f"Pending: P{state.p_order // PER_SEAT}'s order {name}"
        option = option_name(tb, state, state.p_mode)
        if option is not None:  # the option chosen, by name (D55: False Order acts as Push Back)
            line += f", as {option}"
        elif state.p_mode >= 0:
            line += f", option {state.p_mode + 1}"
        elif effect and effect != name.lower():
            line += f" ({effect})"
    else:
        line = f"Pending: {effect}"
    if hexes:
        line += " · chosen: " + ", then ".join(f"hex {h:02d}" + (f" ({tile_words(tb, state, i)})" if i >= 0 else " (empty)")
                                               for h, i in hexes)
    return line


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
_TAB_SIZE = 9.0
#: a tile's name is at most this wide, so that it ends well clear of the W and E wedges (their bases 30.2 out)
#: and of a W or E melee bar (31.5 out), even in a browser whose font runs a little wider than DejaVu Sans
NAME_WIDTH = 50.0


def tab_box(cx: float, cy: float, label: str, right: bool) -> tuple:
    """``(x, y, w, h)`` of the tab of ``label`` in the tab row of the hex centred at ``(cx, cy)``: the hex
    number's left of the middle, the initiative's (``right``) right of it."""
    w = text_width(label, _TAB_SIZE, right) + 5
    return (cx + 1 if right else cx - 1 - w), cy + TAB_Y - 4.5, w, 9.0


#: the font sizes of a Monolith segment's label, the largest that finds a free spot; its tab's corner radius
_SEG_SIZES, _SEG_RX = (7.5, 7.0, 6.5), 2.0
#: a segment label's box keeps this far inside the hex's apothem (clear of the segment's own outline) where it
#: can, else up to the outline's middle (:data:`_SEG_ON`: on the outline, which it labels)
_SEG_INSIDE = 33.0
_SEG_ON = (_R - 4) * math.sqrt(3) / 2


def _dist_point_box(x: float, y: float, box) -> float:
    x0, y0, x1, y1 = box
    return math.hypot(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1))


def _dist_seg_box(a, b, box) -> float:
    """The distance from segment ``a``-``b`` to the box ``(x0, y0, x1, y1)`` (0 when they meet)."""
    x0, y0, x1, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0  # Liang-Barsky: the part of the segment inside the box, if any
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                t0, t1 = 1.0, 0.0
        elif p < 0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    if t0 <= t1:
        return 0.0
    ll = dx * dx + dy * dy or 1e-12

    def to_seg(px, py):
        t = max(0.0, min(1.0, ((px - a[0]) * dx + (py - a[1]) * dy) / ll))
        return math.hypot(px - a[0] - t * dx, py - a[1] - t * dy)

    return min(_dist_point_box(*a, box), _dist_point_box(*b, box),
               *(to_seg(px, py) for px in (x0, x1) for py in (y0, y1)))


def _clear_of(box, it, gap: float) -> bool:
    """Whether ``box`` keeps ``gap`` units off the primitive ``it`` (a bar, wedge, ring, pip, tab or text)."""
    st = it.style
    half = st.get("sw", 1) / 2 if st.get("stroke") is not None else 0.0
    if it.kind == "polyline":
        return all(_dist_seg_box(a, b, box) > half + gap for a, b in zip(it.geo, it.geo[1:]))
    if it.kind == "polygon":
        if len(it.geo) != 3:  # the hex's outline and the segments' outlines: kept off by _SEG_INSIDE
            return True
        xs, ys = [x for x, _ in it.geo], [y for _, y in it.geo]
        if not (box[2] + gap < min(xs) or box[0] - gap > max(xs) or box[3] + gap < min(ys) or box[1] - gap > max(ys)):
            return False  # near a wedge: its bounding box is the mark to avoid
        return True
    if it.kind == "circle":
        x, y, r = it.geo
        if st.get("fill") is None:  # a ring (the Banner's): off its stroke, inside or outside
            x0, y0, x1, y1 = box
            far = max(math.hypot(px - x, py - y) for px in (x0, x1) for py in (y0, y1))
            near = _dist_point_box(x, y, box)
            return far < r - half - gap or near > r + half + gap
        return _dist_point_box(x, y, box) > r + half + gap
    if it.kind == "rect":
        x, y, w, hh = it.geo
        other = (x - half, y - half, x + w + half, y + hh + half)
    elif it.kind == "text":
        x, y, s = it.geo
        w = it.style.get("fit") or text_width(s, it.style["size"], it.style["bold"])
        left = {"start": x, "middle": x - w / 2, "end": x - w}[it.style["anchor"]]
        other = (left, y - it.style["size"] * 0.6, left + w, y + it.style["size"] * 0.6)
    else:
        return True
    return (box[2] + gap <= other[0] or other[2] + gap <= box[0] or box[3] + gap <= other[1]
            or other[3] + gap <= box[1])


def seg_label_box(cx: float, cy: float, label: str, marks: list, gap: float = 1.0) -> tuple:
    """``(x, y, w, h, size)`` of the tab of a Monolith segment's ``label`` (``S2``) and its font size, in the
    hex centred at ``(cx, cy)``: the free spot nearest the lower right of the hex, at least ``gap`` units off
    every mark already drawn there (``marks``: the hex group's primitives; attack and armour bars, the front
    wedge, the Banner's ring, wound and poison pips, the tabs, the name) and :data:`_SEG_INSIDE` inside the
    hex's sides, so clear of the segment's outline, or else on that outline; a smaller font where the label
    fits nowhere at 7.5.  With no free spot even so (a crowded hex), the lower right spot."""
    marks = [it for it in marks if it.kind != "g"]
    normals = [_dir(d) for d in range(6)]
    for size in _SEG_SIZES:
        w, hh = text_width(label, size, True) + 2.5, 8.0
        spots = []
        for x in range(-36, 37):
            for y in range(-40, 41):
                out = max(px * ux + py * uy for px in (x - w / 2, x + w / 2) for py in (y - hh / 2, y + hh / 2)
                          for ux, uy in normals)  # how far the box reaches towards the hex's sides
                if out <= _SEG_ON:
                    spots.append((out > _SEG_INSIDE, math.hypot(x - 16.0, y - 20.0), x, y))
        for _, _, x, y in sorted(spots):
            box = (cx + x - w / 2, cy + y - hh / 2, cx + x + w / 2, cy + y + hh / 2)
            if all(_clear_of(box, it, gap) for it in marks):
                return box[0], box[1], w, hh, size
    return cx + 16 - w / 2, cy + 20 - hh / 2, w, hh, size


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
        title = f"hex {h:02d}: empty"
    else:
        t, f = state.itype[i], state.facing[i]
        title = (f"hex {h:02d}: P{i // PER_SEAT} {tb.name_of[t]}, facing {f}, wounds {state.wounds[i]}"
                 f"/{tb.tough[t]}" + (f", poison {state.poison[i]}" if state.poison[i] else "")
                 + (", netted" if netted[h] else "") + (", Net-order marker" if state.net_marker_on == i else "")
                 + (", entrenched" if state.entrench_on == i else ""))
    with sc.group(title=title, id=f"hex-{h}", target=f"hex:{h}") as grp:
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
        for p, _k in segs.get(h, ()):
            sc.polygon(hex_corners(cx, cy, _R - 4), None, mix(OWNER_COLOURS[p % 4], 0.4, (0, 0, 0)), 4)
        x0, y0, w, hh = tab_box(cx, cy, f"{h:02d}", right=False)
        if i >= 0:  # a light tab under the hex number of an occupied hex
            sc.rect(x0, y0, w, hh, (245, 245, 240), rx=3)
        sc.text(x0 + w / 2, cy + TAB_Y, f"{h:02d}", _TAB_SIZE, (40, 40, 40), "middle", bold=True)
        for p, k in segs.get(h, ()):  # last: each label keeps off every mark drawn before it
            if not state.mono_folded[p]:
                label = f"S{k}"
                x0, y0, w, hh, size = seg_label_box(cx, cy, label, grp.children)
                sc.rect(x0, y0, w, hh, (245, 245, 240), mix(OWNER_COLOURS[p % 4], 0.4, (0, 0, 0)), 1, rx=_SEG_RX)
                sc.text(x0 + w / 2, y0 + hh / 2, label, size, _DARK, "middle", bold=True)


#: rows kept for the pending resolution under the seats' panels, whatever its length, so every picture of one
#: game config has the same size (video recorders such as Gymnasium's RecordVideo need that)
PENDING_ROWS = 3


def pending_rows(line: str) -> list[str]:
    """The pending line wrapped on exactly :data:`PENDING_ROWS` rows: blank rows after a short one, and a
    longer one cut after its last whole row with ``…``."""
    rows = wrap_text(line, 12.5, W - 24)
    if len(rows) > PENDING_ROWS:
        rows = rows[:PENDING_ROWS]
        rows[-1] += " …"
    return rows + [""] * (PENDING_ROWS - len(rows))


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
    status = status_lines(game, state, viewer)
    status = status[:3] + pending_rows(status[3])
    height = top + n * (panel_h + 6) + len(status) * 18 + len(LEGEND) * 15 + 20
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
                    where = f"folded on hex {state.seg_hex[p][0]:02d}"
                else:
                    where = "unfolded on hexes " + ", ".join(f"{h:02d}" for h in state.seg_hex[p])
                sc.text(18, y + 45, f"Monolith {where} · S2: {_seg_text(tb, state, p, 0, viewer)} · "
                        f"S3: {_seg_text(tb, state, p, 1, viewer)}", 10.5, _DARK, max_width=W - 36)
        y += panel_h + 6
    for k, line in enumerate(status):
        sc.text(12, y + 9 + 18 * k, line, 12.5, _RESULT if state.terminal and k == 1 else _DARK, bold=k < 2,
                max_width=W - 24)
    y += len(status) * 18 + 4
    for k, line in enumerate(LEGEND):
        sc.text(12, y + 7 + 15 * k, line, 10, (85, 85, 85))
    return sc


def render_svg(game, state, viewer: int | None = None) -> str:
    """The SVG document (``str``) of :func:`draw`."""
    return draw(game, state, viewer).to_svg()


def render_rgb(game, state) -> "np.ndarray":  # noqa: F821
    """The omniscient drawing as ``uint8[H, 560, 3]`` (``H`` grows with the seats and the module)."""
    return draw(game, state).to_rgb()
