"""The vector drawing of The Monolith (legend: docs/the_monolith.md §11): ``render_mode="svg"`` and ``rgb_array``.

:func:`draw` builds one :class:`~monolith_envs.core.drawing.Scene` of the real map of ``data/map.toml``:
every space is one polygon, the union of its grid cells, filled by its building (temple gold, mausoleum
violet, scriptorium blue, the Monolith dark, others sand; locked quadrants black), with its name and kind, a
``tunnel`` badge when it is a tunnel now, the strongholds marked with their seat, blood drops, each seat's
living warriors (a coloured disc with the count), its shaman (a diamond, crossed when dead), boast hearts
(♥ with the count) and the controller's coloured outline.  Brown lines join the spaces a warrior may step
between (the dashed borders); every tunnel also joins every other tunnel; the texts on a space are drawn
over them, on a backing of the space's fill that the lines stop well short of.  On the right: the day, phase
and open decision, the favour track, and one panel per seat inside the picture's edge (hearts in the tower
and on the slay / maneuver / boast zones, warrior pools, held divinations, objectives), the divination row
with its bids and the events.  A status line on top and a legend at the bottom.

Hidden information follows :mod:`monolith_envs.the_monolith.observe`: another seat's objectives show as
a count only.  Each space is a group with ``id="space-<sid>"`` and ``data-target="space:<sid>"``; over
everything, ``id="outline-space-<sid>"`` holds its outline without a stroke, which browser play's stylesheet
colours on the spaces that may be clicked.
"""

from __future__ import annotations

import numpy as np

from ..core.drawing import Scene, check_viewer, mix, text_width
from .actions import ORDERS
from .board import controllers, tunnels_now
from .render import objectives_shown
from .state import SUB_ASKS, Phase, Sub
from .words import stop_and_step

__all__ = ["draw", "render_svg", "render_rgb", "SEAT_COLOURS", "LEGEND", "PANEL_WIDTH", "ROW_SIZE", "side_height"]

SEAT_COLOURS = ((214, 60, 60), (60, 120, 220), (60, 170, 80), (225, 170, 40))
_BUILD_COLOUR = {"temple": (232, 206, 130), "mausoleum": (186, 170, 200), "scriptorium": (160, 192, 228),
                 "none": (226, 214, 186)}
_MONO, _LOCKED, _INK, _GREY, _BG = (96, 86, 104), (52, 50, 48), (25, 25, 25), (100, 100, 100), (250, 248, 240)
_LINK, _BLOOD = (165, 125, 75), (170, 20, 20)
_ZONES = ("slay", "maneuver", "boast")
CELL = 124
_TOP = 34
_SIDE = 380
#: a seat panel's width: its right side (and its rounded corners) 14 units inside the picture's edge
PANEL_WIDTH = _SIDE - 22
#: the font size of the rows of the side column (seat panels, divination row, events) and their spacing
ROW_SIZE, _ROW = 11.0, 15.0
_TEXT_WIDTH = PANEL_WIDTH - 12  # a row wider than this (a long hand of divinations) is squeezed to fit
_MARGIN = 8  # the marks on a space keep this far inside it (the controller's outline is 6 wide)
#: the legend lines at the bottom of the drawing
LEGEND = ("● n: living warriors of a seat · ◆: its shaman (✕ dead) · ♥ n: its boast hearts · † n: its dead · "
          "red drops: blood",
          "Brown line (dots at its ends): spaces a warrior may step between; tunnels also join every other tunnel · coloured "
          "outline: controller",
          "Fill: temple gold · mausoleum violet · scriptorium blue · the Monolith dark · black: locked quadrant · "
          "T: a tunnel now · E: an event placed there")
#: the colours of an event's ``E`` badge (fill, then line and letter)
_EVENT_FILL, _EVENT_INK = (235, 225, 255), (90, 50, 140)


def _centre(cells) -> tuple:
    return (sum(c for _, c in cells) / len(cells) * CELL + CELL / 2,
            _TOP + sum(r for r, _ in cells) / len(cells) * CELL + CELL / 2)


def _box(cells) -> tuple:
    """``(x0, y0, x1, y1)``: the bounding box of ``cells`` in the drawing."""
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    return min(cols) * CELL, _TOP + min(rows) * CELL, (max(cols) + 1) * CELL, _TOP + (max(rows) + 1) * CELL


def outline(cells, inset: float) -> list:
    """The border of the union of ``cells`` moved ``inset`` inwards, as segments ``((x1, y1), (x2, y2))``:
    an edge stops ``inset`` short of a convex corner and runs ``inset`` on past a concave one, so the
    pieces meet."""
    cells = {tuple(c) for c in cells}
    out = []
    for r, c in sorted(cells):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if (r + dr, c + dc) in cells:
                continue
            tr, tc = abs(dc), abs(dr)  # along the edge
            mr, mc = r + 0.5 + dr / 2, c + 0.5 + dc / 2
            ends = []
            for sg in (-1, 1):
                nb = (r + sg * tr, c + sg * tc)
                along = -sg if nb not in cells else sg if (nb[0] + dr, nb[1] + dc) in cells else 0
                er, ec = mr + sg * tr / 2, mc + sg * tc / 2
                ends.append((ec * CELL - dc * inset + along * tc * inset,
                             _TOP + er * CELL - dr * inset + along * tr * inset))
            out.append(tuple(ends))
    return out


def union_loops(cells) -> list:
    """The border of the union of ``cells`` as closed loops of drawing points ``[[(x, y), ...], ...]``, each
    clockwise on the screen (a hole's loop anticlockwise), with no point in the middle of a straight side:
    one loop for a space whose cells are all joined edge to edge and enclose nothing."""
    cells = {tuple(c) for c in cells}
    nxt: dict = {}  # grid corner (col, row) -> the corners that the clockwise border goes on to from it
    for r, c in cells:
        for (dr, dc), a, b in (((-1, 0), (c, r), (c + 1, r)), ((0, 1), (c + 1, r), (c + 1, r + 1)),
                               ((1, 0), (c + 1, r + 1), (c, r + 1)), ((0, -1), (c, r + 1), (c, r))):
            if (r + dr, c + dc) not in cells:
                nxt.setdefault(a, []).append(b)
    loops = []
    while nxt:
        start = min(nxt)
        loop, at, came = [start], start, None
        while True:
            outs = nxt[at]
            if len(outs) > 1 and came is not None:  # two cells meet at a corner only: keep to the right
                dx, dy = at[0] - came[0], at[1] - came[1]
                outs.sort(key=lambda q: (q[0] - at[0], q[1] - at[1]) != (-dy, dx))
            to = outs.pop(0)
            if not outs:
                del nxt[at]
            came, at = at, to
            if at == start:
                break
            loop.append(at)
        pts = [q for k, q in enumerate(loop)  # drop the corners in the middle of a straight side
               if (loop[k - 1][0] - q[0]) * (loop[(k + 1) % len(loop)][1] - q[1])
               != (loop[k - 1][1] - q[1]) * (loop[(k + 1) % len(loop)][0] - q[0])]
        loops.append([(x * CELL, _TOP + y * CELL) for x, y in pts])
    return loops


def _area(loop) -> float:
    """Twice the signed area of a loop: positive when it runs clockwise on the screen (y down)."""
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(loop, loop[1:] + loop[:1]))


def _fill_space(sc: Scene, cells, fill, cls: str | None = None) -> None:
    """A space's fill as one shape: the polygon of its cells' union (a polygon for each part of a space in
    parts), so no seam shows between its cells at any scale.  A space around a hole (no map has one): its
    cells, each stroked with the fill, so that their edges still do not show."""
    loops = union_loops(cells)
    if all(_area(lp) > 0 for lp in loops):
        for lp in loops:
            sc.polygon(lp, fill, cls=cls)
        return
    for r, c in cells:
        sc.rect(c * CELL, _TOP + r * CELL, CELL, CELL, fill, fill, 1, cls=cls)


def _marks(s, sid: int, p: int) -> tuple:
    """What seat ``p`` has on space ``sid``: (living, shaman here, shaman alive, the ♥/† text)."""
    low = " ".join(t for t in (f"♥{s.boast[sid][p]}" if s.boast[sid][p] else "",
                               f"†{s.dead[sid][p]}" if s.dead[sid][p] else "") if t)
    return s.living[sid][p], s.shaman_space[p] == sid, s.shaman_alive[p], low


def unit_layout(cells, marks: list, blood: int, drop: float = 0.0) -> tuple:
    """Where the seats' marks on a space go: ``(scale, [(x, y), ...], blood_y)``; ``(x, y)`` is the middle of
    a seat's disc and diamond (its ♥/† text 20 * scale below).  The marks fill rows under the name (``drop``
    lower when the name is), as many a row as fit the space's width, all smaller when the rows do not fit
    its height; the blood drops go under the last row.  Everything stays :data:`_MARGIN` inside the space's
    bounding box (tests/render/test_picture_geometry.py)."""
    x0, _, x1, y1 = _box(cells)
    cx, cy = _centre(cells)
    cy += drop
    half = max([max(20.75 if w and sh else 10.75 if w else 8.75, text_width(low, 10, True) / 2)
                for w, sh, _, low in marks], default=0.0)
    slot = 2 * half + 6
    low = any(m[3] for m in marks)
    top, bottom = 10.75, 26.0 if low else 10.75  # a mark's extent above and below its row's middle
    width = x1 - x0 - 2 * _MARGIN
    height = y1 - _MARGIN - (12 if blood else 0) - (cy - 15)
    n, k, per = len(marks), 1.0, 1
    while n:
        per = max(1, min(n, int(width // (slot * k))))
        rows = -(-n // per)
        per = -(-n // rows)  # balanced rows: 3 marks as 2 + 1, 4 as 2 + 2
        if (rows * (top + bottom + 4) - 4) * k <= height and slot * k <= width + 6 or k <= 0.3:
            break
        k -= 0.05
    y = cy - 15 + top * k
    at = []
    for i in range(n):
        row, col = divmod(i, per)
        m = min(per, n - row * per)
        at.append((cx + (col - (m - 1) / 2) * slot * k, y + row * (top + bottom + 4) * k))
    last = at[-1][1] + bottom * k if at else cy - 15
    return k, at, last + 8


def _units(sc: Scene, s, sid: int, cells, dark: bool, drop: float, halo=None) -> None:
    """The seats' discs (living count), shaman diamonds and ♥/† texts (on a ``halo``) on a space, then its
    blood drops."""
    present = [p for p in range(s.n) if s.living[sid][p] or s.shaman_space[p] == sid or s.boast[sid][p]
               or s.dead[sid][p]]
    marks = [_marks(s, sid, p) for p in present]
    k, at, blood_y = unit_layout(cells, marks, s.blood[sid], drop)
    for p, (living, shaman, alive, low), (x, y) in zip(present, marks, at):
        col = SEAT_COLOURS[p]
        both = bool(living and shaman)
        if living:
            dx = x - 10 * k if both else x
            sc.circle(dx, y, 10 * k, col, (255, 255, 255), 1.5 * k)
            sc.text(dx, y, str(living), 10.5 * k, (255, 255, 255), "middle", bold=True)
        if shaman:
            hx, d = (x + 12 * k if both else x), 8 * k
            sc.polygon([(hx, y - d), (hx + d, y), (hx, y + d), (hx - d, y)], col if alive else (40, 40, 40),
                       (255, 255, 255), 1.5 * k)
            if not alive:
                sc.text(hx, y, "✕", 9 * k, (255, 255, 255), "middle", bold=True)
        if low:  # darker on the light fills (amber on a temple's gold), lighter on the dark ones
            sc.text(x, y + 20 * k, low, 10 * k, mix(col, 0.5) if dark else mix(col, 0.35, _INK), "middle", bold=True,
                    halo=halo, halo_width=2 * k)  # narrower than the gap between two seats' texts
    x0, _, x1, _ = _box(cells)
    cx = (x0 + x1) / 2
    step = min(12.0, (x1 - x0 - 2 * _MARGIN - 8) / max(1, s.blood[sid] - 1))
    for b in range(s.blood[sid]):
        sc.circle(cx - step / 2 * (s.blood[sid] - 1) + step * b, blood_y, 4, _BLOOD)


def _fill_of(g, sid: int) -> tuple:
    """The fill of space ``sid``: black when locked, dark for the Monolith, else its building's colour."""
    return _LOCKED if not g.active[sid] else _MONO if sid == g.mono else _BUILD_COLOUR[g.building[sid]]


def _space(sc: Scene, g, s, sp, tun, ctrl, stronghold_of, events_at: dict) -> None:
    """The marks of a space (drawn over the fills and the lines): name, kind, units, hearts, blood, control;
    the texts on a halo of the space's fill, so that the brown lines under them do not strike them through.
    ``events_at``: :func:`_events_at` (the name keeps off an event's badge)."""
    sid = sp.id
    cells = sp.cells
    active = g.active[sid]
    dark = not active or sid == g.mono
    ink = (235, 235, 235) if dark else _INK
    kind = sp.role if sp.building == "none" or sp.building == sp.role else f"{sp.role}, {sp.building}"
    title = f"space {sid}: {sp.name} ({kind})" + ("" if active else ", locked")
    cx, cy = _centre(cells)
    with sc.group(title=title):
        if not active:
            sc.text(cx, cy - 8, sp.name, 10.5, (150, 150, 150), "middle")
            sc.text(cx, cy + 8, "locked", 9.5, (150, 150, 150), "middle")
            return
        label = f"{sid} {sp.name}"
        x0, y0, x1, _ = _box(cells)
        left, right, drop = x0 + _NAME_INSET, x1 - _NAME_INSET, 0.0  # clear of the browser's click outline
        size = min(11.0, (right - left) / text_width(label, 1.0, True))
        bx, by = _badge(cells)
        event = sid in events_at
        if (tun[sid] or event) and cy - 40 - 7 < by + 9:  # the name's line meets a badge: beside it, or under
            lo = _event_badge(cells)[0] + 10 if event else left
            hi = bx - 10 if tun[sid] else right
            mid, half = (left + right) / 2, text_width(label, size, True) / 2
            if lo <= mid - half and mid + half <= hi:
                pass  # centred, the name already clears the badges: it stays over its kind line
            elif min(11.0, (hi - lo) / text_width(label, 1.0, True)) >= size:
                left, right = lo, hi  # beside the badges
            else:  # a short space: the name, its kind and the marks a little lower
                drop = by + 9 + 7 - (cy - 40)
        halo = _fill_of(g, sid)
        sub = kind + (" · tunnel" if tun[sid] else "")
        if sid in stronghold_of:
            sub = f"P{stronghold_of[sid]} stronghold" + (" · tunnel" if tun[sid] else "")
        plate = _plate(cells, (left + right) / 2, cy - 40 + drop, text_width(label, size, True), size,
                       min(text_width(sub, 9.5), x1 - x0 - 2 * _NAME_INSET))
        if plate:  # one backing for both lines, wider than their halos: the brown lines stop well short of them
            sc.rect(*plate, halo)
        # the kind first: its halo meets the name's, which is drawn over it (the name's descenders stay whole)
        sc.text(cx, cy - 26 + drop, sub, 9.5, ink if not tun[sid] else (255, 250, 200) if dark else (120, 60, 0), "middle",
                max_width=x1 - x0 - 2 * _NAME_INSET, halo=halo)
        sc.text((left + right) / 2, cy - 40 + drop, label, size, ink, "middle", bold=True, halo=halo)
        _units(sc, s, sid, cells, dark, drop, halo)
        if ctrl[sid] >= 0:
            for (a, b), (e, f) in outline(cells, 3):
                sc.line(a, b, e, f, SEAT_COLOURS[ctrl[sid]], 5)


#: how far a space's name keeps from the sides of its box: inside the outline that browser play lights up on
#: a space it may click (:func:`_highlight`: 9.5 in, 8 wide, so it covers 5.5 to 13.5 from the edge)
_NAME_INSET = 14.0

#: how far the backing of a space's name and kind reaches past them: left and right, above, below
PLATE_PAD = (6.0, 4.5, 3.5)


def _plate(cells, nx: float, ny: float, name_w: float, size: float, sub_w: float):
    """``(x, y, w, h)`` of the backing under a space's name (centred at ``(nx, ny)``, ``name_w`` wide at font
    ``size``) and its kind line (14 lower, ``sub_w`` wide, centred on the space), :data:`PLATE_PAD` past both
    and 3 units inside the space's box (narrower where the space is); ``None`` when it does not lie in the
    space's cells (with 2 units to spare: off the borders between spaces)."""
    x0, _, x1, _ = _box(cells)
    cx = (x0 + x1) / 2
    pad_x, pad_top, pad_bottom = PLATE_PAD
    left = max(min(nx - name_w / 2, cx - sub_w / 2) - pad_x, x0 + 3)
    right = min(max(nx + name_w / 2, cx + sub_w / 2) + pad_x, x1 - 3)
    top, bottom = ny - 0.582 * size - pad_top, ny + 14 + 0.582 * 9.5 + pad_bottom
    inside = {tuple(c) for c in cells}
    for i in range(9):  # every point of the plate, and 2 units around it, lies in the space
        for j in range(5):
            x = left - 2 + (right - left + 4) * i / 8
            y = top - 2 + (bottom - top + 4) * j / 4
            if (int((y - _TOP) // CELL), int(x // CELL)) not in inside:
                return None
    return left, top, right - left, bottom - top


def _badge(cells) -> tuple:
    """The centre of a tunnel's ``T`` badge: the top right corner of the space, inside its outline."""
    _, y0, x1, _ = _box(cells)
    return x1 - 16, y0 + 16


def _event_badge(cells) -> tuple:
    """The centre of an event's ``E`` badge: the top left corner of the space, inside its outline."""
    x0, y0, _, _ = _box(cells)
    return x0 + 16, y0 + 16


def _highlight(sc: Scene, sp) -> None:
    """The outline that browser play lights up on a space it may click (``id="outline-space-<sid>"``, above
    every other mark): a dark line with a thinner one on it, both without a stroke here (nothing in the
    picture); the page's stylesheet gives them their colours.  It runs just inside the controller's line."""
    segs = outline(sp.cells, 9.5)
    with sc.group(id=f"outline-space-{sp.id}"):
        for (a, b), (e, f) in segs:
            sc.line(a, b, e, f, None, 8)
        with sc.group():
            for (a, b), (e, f) in segs:
                sc.line(a, b, e, f, None, 4)


def _borders(sc: Scene, g, owner: dict) -> None:
    """Thin dark lines between cells of different spaces."""
    for (r, c), sid in owner.items():
        x, y = c * CELL, _TOP + r * CELL
        if owner.get((r, c + 1), sid) != sid:
            sc.line(x + CELL, y, x + CELL, y + CELL, (70, 60, 50), 1.5)
        if owner.get((r + 1, c), sid) != sid:
            sc.line(x, y + CELL, x + CELL, y + CELL, (70, 60, 50), 1.5)


def _links(sc: Scene, g) -> None:
    spaces = g.content.map.spaces
    for a, b in g.content.map.dashed:
        if g.active[a] and g.active[b] and spaces[a].cells and spaces[b].cells:
            (x1, y1), (x2, y2) = _centre(spaces[a].cells), _centre(spaces[b].cells)
            sc.line(x1, y1, x2, y2, _LINK, 2.5)
            for x, y in ((x1, y1), (x2, y2)):  # a dot at each end: a line only passing over a space has none there
                sc.circle(x, y, 4.5, _LINK, (255, 255, 255), 1)


def _events_at(g, s) -> dict:
    """``{space: [event name, ...]}`` of the events placed on the map (``s.events``, in reveal order)."""
    placed: dict = {}
    for e, sid in s.events:
        if sid >= 0:
            placed.setdefault(sid, []).append(g.events[e].name)
    return placed


def _badges(sc: Scene, g, tun, events_at: dict) -> None:
    """The ``T`` badge of every tunnel and the ``E`` badge of every space with an event placed on it
    (``events_at``: :func:`_events_at`; docs §11), drawn after the texts, which keep off them, so no halo
    covers them."""
    spaces = g.content.map.spaces
    for sid in range(len(spaces)):
        if tun[sid] and spaces[sid].cells:
            x, y = _badge(spaces[sid].cells)
            sc.circle(x, y, 8, (255, 250, 200), _LINK, 2)
            sc.text(x, y, "T", 9, _LINK, "middle", bold=True)
    for sid, names in events_at.items():  # one badge a space, however many events lie there (its title names each)
        if sid < len(spaces) and spaces[sid].cells:
            x, y = _event_badge(spaces[sid].cells)
            with sc.group(title=("events" if len(names) > 1 else "event") + f" on space {sid}: " + ", ".join(names)):
                sc.circle(x, y, 8, _EVENT_FILL, _EVENT_INK, 2)
                sc.text(x, y, "E", 9, _EVENT_INK, "middle", bold=True)


#: the words of an action family in the list of kinds that ORDER_CHOOSE and ACTION_CHOOSE offer
_KIND_WORDS = {"use_power": "use a power", "fate": "manipulate fate"}


def offered_kinds(g, s) -> list[str]:
    """The kinds of action the open ORDER_CHOOSE or ACTION_CHOOSE decision offers now (docs §4.4, §4.6), in
    the action layout's order, as terminal and browser play list the options (docs §6.1): the orders by name
    (``["march", "commit", "use a power"]``), the other families by their words (``"use a power"``,
    ``"manipulate fate"``, ``"slay"``); ``[]`` at any other decision."""
    if s.terminal or s.sub not in (Sub.ORDER_CHOOSE, Sub.ACTION_CHOOSE):
        return []
    kinds: list[str] = []
    for a in np.flatnonzero(g.legal_mask(s)):
        family, idx = g.layout.split(int(a))
        word = ORDERS[idx[0]] if family == "order" else _KIND_WORDS.get(family, family.replace("_", " "))
        if word not in kinds:
            kinds.append(word)
    return kinds


def _decision(g, s) -> str:
    if s.terminal:
        return "game over · ranking " + " ".join(f"P{p}" for p in g.ranking(s))
    if s.sub < 0:
        return "no open decision"
    ask = SUB_ASKS[Sub(s.sub)].split(" (§")[0]
    kinds = offered_kinds(g, s)
    if kinds:  # only the kinds offered now: "the order phase: commit" when nothing else is possible
        ask = ask.split(": ")[0] + ": " + (", ".join(kinds[:-1]) + " or " if len(kinds) > 1 else "") + kinds[-1]
    if s.sub in (Sub.MARCH_STEP, Sub.SHAMAN_STEP):  # say "or stop" only where stopping is legal (§4.4)
        stop, step = stop_and_step(g, s)
        if not stop:
            ask = ask.replace(" or stop", "") + " (it may stop after its first step)"
        elif not step:
            ask = "march: stop" if s.sub == Sub.MARCH_STEP else "the shaman order: stop"
    return f"P{s.current}, {ask}"


def _ask_lines(g, s) -> list[str]:
    """The open decision (:func:`_decision`) in at most two lines of the side column at size 11, broken
    between words (a second line still too long is squeezed when drawn)."""
    words, lines = _decision(g, s).split(" "), [""]
    for w in words:
        trial = f"{lines[-1]} {w}".strip()
        if lines[-1] and len(lines) < 2 and text_width(trial, 11) > PANEL_WIDTH - 6:
            lines.append(w)
        else:
            lines[-1] = trial
    return lines


def _side(sc: Scene, g, s, x: float, viewer) -> float:
    """The side column, from ``x``: the day, phase and open decision, the favour track, one panel per seat,
    the divination row and the events; returns the ``y`` of its bottom."""
    y = _TOP + 8
    sc.text(x, y + 6, f"Day {s.day}/{g.num_days} · {Phase(s.phase).name.replace('_', ' ').lower()} phase", 13,
            _INK, bold=True)
    sc.text(x, y + 24, "Open decision:", 11, _INK, bold=True)
    ask = _ask_lines(g, s)
    for k, line in enumerate(ask):
        sc.text(x, y + 39 + 14 * k, line, 11, _INK, max_width=PANEL_WIDTH - 6)
    y += 14  # room for two lines whatever the decision, so every picture of a game has one size
    sc.text(x, y + 55, f"First P{s.first} · surge {'-' if s.surge < 0 else f'P{s.surge}'}", 10.5, _GREY)
    y += 73
    sc.text(x, y, "Favour", 11, _INK, bold=True)
    top = max(20, max(s.favour) + 2)
    for p in range(s.n):
        yy = y + 14 + 14 * p
        sc.rect(x + 30, yy - 5, _SIDE - 80, 10, (225, 222, 212))
        sc.rect(x + 30, yy - 5, (_SIDE - 80) * max(0, s.favour[p]) / top, 10, SEAT_COLOURS[p])
        sc.text(x, yy, f"P{p}", 10, SEAT_COLOURS[p], bold=True)
        sc.text(x + _SIDE - 44, yy, str(s.favour[p]), 10, _INK)
    y += 14 + 14 * s.n + 6
    for p in range(s.n):
        col = SEAT_COLOURS[p]
        sh = g.shamans[s.shaman_id[p]].name if s.shaman_id[p] >= 0 else "no shaman yet"
        if objectives_shown(s, viewer, p):
            objs = ", ".join(g.objs[o].name for o in s.objectives[p]) or "-"
        else:
            objs = f"{len(s.objectives[p])} hidden"
        held = ", ".join(g.divs[c].name for c in s.held[p]) or "-"
        flags = "".join((" · committed" if s.committed[p] else "", " · out" if s.out[p] else ""))
        rows = [f"hearts: available {s.available[p]} · spent {s.spent[p]} · unearned {s.unearned[p]}",
                f"tower: today {s.tower_today[p]} · stuck {s.tower_stuck[p]}",
                "zones: " + " · ".join(f"{z} {s.board[p][k]}" for k, z in enumerate(_ZONES)),
                f"warriors: reserves {s.reserves[p]} · anger {s.anger[p]} · limbo {s.limbo[p]}",
                f"held: {held}", f"objectives: {objs}"]
        h = _panel_height(len(rows))
        with sc.group(title=f"P{p} {sh}", id=f"seat-{p}"):
            sc.rect(x - 6, y, PANEL_WIDTH, h, (255, 255, 255), col, 2, rx=5)
            sc.text(x, y + 11, f"P{p} · {sh}{flags}", 12, col, bold=True, max_width=_TEXT_WIDTH)
            for k, row in enumerate(rows):
                sc.text(x, y + 27 + _ROW * k, row[:62], ROW_SIZE, _INK, max_width=_TEXT_WIDTH)
        y += h + 6
    row = []
    for i in range(g.R):
        if s.row[i] >= 0:
            bids = ", ".join(f"P{p} {b}" for p, b in enumerate(s.bids[i]) if b)
            row.append(f"{i}: {g.divs[s.row[i]].name}" + (f" (bids {bids})" if bids else ""))
    sc.text(x, y + 8, "Divination row", 12, _INK, bold=True)
    for k, ln in enumerate(row or ["-"]):
        sc.text(x, y + 24 + _ROW * k, ln[:62], ROW_SIZE, _INK, max_width=_TEXT_WIDTH)
    y += 24 + _ROW * max(1, g.R) + 4  # room for a full row (the picture's size does not change in a game)
    ev = [g.events[e].name + (f" @ {sp}" if sp >= 0 else "") for e, sp in s.events]
    sc.text(x, y + 4, "Events: " + (", ".join(ev) or "-"), ROW_SIZE, _INK, max_width=_TEXT_WIDTH)
    return y + 12


def _panel_height(rows: int) -> float:
    """The height of a seat's panel of ``rows`` rows."""
    return 22 + _ROW * rows


def side_height(g, s) -> float:
    """How far down the side column reaches from :data:`_TOP` (:func:`_side` draws it): its headline with
    room for two lines of the open decision, the favour track, the seats' panels of six rows each, room for a
    full divination row, and the events. It depends on the config only (seats and row size), so every
    picture of one game has the same size (video recorders need that)."""
    return 8 + 73 + 14 + 14 + 14 * s.n + 6 + s.n * (_panel_height(6) + 6) + 24 + _ROW * max(1, g.R) + 4 + 12


def draw(g, s, viewer: int | None = None) -> Scene:
    """The :class:`Scene` of ``s`` as seat ``viewer`` may see it (``None``: omniscient).

    Raises:
        ValueError: ``viewer`` is not ``None`` or a seat of this game.
    """
    check_viewer(viewer, s.n)
    rows, cols = g.content.map.grid
    map_w = cols * CELL
    width = map_w + _SIDE
    body = max(rows * CELL, 640, side_height(g, s))  # the map, or the side column where it is longer
    height = _TOP + int(body + 0.999) + 14 + 15 * len(LEGEND)
    sc = Scene(width, height, _BG, title=f"The Monolith, day {s.day}")
    view = "omniscient view" if viewer is None else f"as seen by P{viewer}"
    phase = "" if s.terminal else f"{Phase(s.phase).name.replace('_', ' ').lower()} · "  # over: said next
    status = (f"The Monolith · day {s.day}/{g.num_days} · {phase}{_decision(g, s)} · "
              f"favour " + " ".join(f"P{p} {s.favour[p]}" for p in range(s.n)) + f" · {view}")
    sc.rect(0, 0, width, _TOP - 4, (44, 40, 50))
    sc.text(10, (_TOP - 4) / 2, status, 12.5, (255, 255, 255), bold=True, max_width=width - 20)
    tun, ctrl, events_at = tunnels_now(g, s), controllers(g, s), _events_at(g, s)
    stronghold_of = {h: p for p, h in enumerate(g.hold)}
    owner = {tuple(c): sp.id for sp in g.content.map.spaces for c in sp.cells}
    spaces = [sp for sp in g.content.map.spaces if sp.cells]
    for sp in spaces:  # the clickable areas first, the lines and the marks over them
        with sc.group(title=f"space {sp.id}: {sp.name}", id=f"space-{sp.id}", target=f"space:{sp.id}"):
            _fill_space(sc, sp.cells, _fill_of(g, sp.id), cls="target-shape")
    _borders(sc, g, owner)
    _links(sc, g)
    for sp in spaces:
        _space(sc, g, s, sp, tun, ctrl, stronghold_of, events_at)
    _badges(sc, g, tun, events_at)
    for sp in spaces:  # over everything, so that no mark hides it
        _highlight(sc, sp)
    _side(sc, g, s, map_w + 14, viewer)
    ly = _TOP + int(body + 0.999) + 10
    for k, line in enumerate(LEGEND):
        sc.text(10, ly + 15 * k, line, 10, (85, 85, 85))
    return sc


def render_svg(g, s, viewer: int | None = None) -> str:
    """The SVG document (``str``) of :func:`draw`."""
    return draw(g, s, viewer).to_svg()


def render_rgb(g, s):
    """The omniscient drawing as ``uint8[H, W, 3]``."""
    return draw(g, s).to_rgb()
