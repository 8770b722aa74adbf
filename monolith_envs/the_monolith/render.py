"""Pictures of a Monolith state: ``render_text`` (docs §6.2 helpers) and ``render_rgb`` (docs §11 legend).

The rgb picture draws the map's 6x6 cell grid: each space is the union of its cells, filled by building
(temple gold, mausoleum grey-violet, scriptorium blue, the Monolith dark, others sand; locked spaces
black), with its id, a ``T`` when it is a tunnel now, blood as red squares, units as one coloured bar per
seat (height = living warriors, a white dot for a living shaman, a cross for a dead one) and boast hearts
as small hearts of the owner's colour; a thick outline in the controller's colour. A status line on top
and a legend at the bottom.
"""

from __future__ import annotations

import textwrap

import numpy as np

from ..core import raster
from .board import controllers, tunnels_now, units_text
from .state import Phase, Sub

__all__ = ["render_text", "render_rgb", "SEAT_COLOURS"]

SEAT_COLOURS = ((214, 60, 60), (60, 120, 220), (60, 170, 80), (225, 170, 40))
_BUILD_COLOUR = {"temple": (222, 196, 120), "mausoleum": (160, 145, 175), "scriptorium": (140, 175, 215),
                 "none": (215, 205, 180)}
_ZONES = ("slay", "maneuver", "boast")


def render_text(g, s, viewer: int | None = None) -> str:
    """Day, phase, decision; one line per active space; pools; row; events; the legal actions by name; every
    line at most 100 columns (a longer one continues on indented lines).
    With ``viewer`` set, other seats' objectives show as a count only, and another seat's OBJ_REVEAL
    choices are not listed (which slots may be revealed tells what its secret objectives score)."""
    lines = []
    dec = "-" if s.terminal or s.sub < 0 else f"{Sub(s.sub).name} by P{s.current}"
    lines.append(f"The Monolith  day {s.day}/{g.num_days}  phase {Phase(s.phase).name}  decision {dec}  "
                 f"first P{s.first}  surge {'-' if s.surge < 0 else f'P{s.surge}'}")
    tun = tunnels_now(g, s)
    ctrl = controllers(g, s)
    for sp in g.active_spaces:
        name = g.content.map.spaces[sp].name
        b = g.building[sp]
        boast = ",".join(f"P{p}:{h}" for p, h in enumerate(s.boast[sp]) if h) or "-"
        c = f"P{ctrl[sp]}" if ctrl[sp] >= 0 else "-"
        lines.append(f"{sp:2d} {name:<19} {b if b != 'none' else '':<11} {'T' if tun[sp] else ' '} "
                     f"slots {g.slots[sp]} blood {s.blood[sp]} boast {boast:<8} ctrl {c:<3} {units_text(s, sp)}")
    for p in range(s.n):
        sh = g.shamans[s.shaman_id[p]].name if s.shaman_id[p] >= 0 else "?"
        if viewer is None or viewer == p:
            objs = ",".join(g.objs[o].key for o in s.objectives[p]) or "-"
        else:
            objs = f"{len(s.objectives[p])} hidden"
        held = ",".join(g.divs[c].key for c in s.held[p]) or "-"
        flags = "".join((" committed" if s.committed[p] else "", " out" if s.out[p] else ""))
        lines.append(f"P{p} {sh}: favour {s.favour[p]} | hearts avail {s.available[p]} spent {s.spent[p]} "
                     f"unearned {s.unearned[p]} tower {s.tower_today[p]}+{s.tower_stuck[p]} board "
                     f"{'/'.join(map(str, s.board[p]))} | warriors reserves {s.reserves[p]} anger {s.anger[p]} "
                     f"limbo {s.limbo[p]} | held {held} | objectives {objs}{flags}")
    row = []
    for i in range(g.R):
        if s.row[i] >= 0:
            bids = ",".join(f"P{p}:{b}" for p, b in enumerate(s.bids[i]) if b)
            row.append(f"{i}:{g.divs[s.row[i]].key}" + (f"[{bids}]" if bids else ""))
    lines.append("row " + (" ".join(row) or "-"))
    ev = " ".join(g.events[e].key + (f"@{sp}" if sp >= 0 else "") for e, sp in s.events) or "-"
    lines.append(f"events {ev}  decks div {len(s.div_deck)} event {len(s.event_deck)} objective {len(s.obj_deck)}")
    if s.terminal:
        lines.append("game over: ranking " + " ".join(f"P{p}" for p in g.ranking(s)))
    elif viewer is not None and viewer != s.current and s.sub == Sub.OBJ_REVEAL:  # tells what scores
        lines.append(f"legal: P{s.current} decides")
    else:
        lines.append("legal: " + " ".join(g.action_name(a) for a in g.legal_actions(s)))
    return "\n".join(piece for line in lines for piece in _fit(line))


#: text renders fit this many columns
TEXT_WIDTH = 100


def _fit(line: str) -> list:
    """``line`` cut at spaces into lines of at most :data:`TEXT_WIDTH` columns (continuations indented)."""
    if len(line) <= TEXT_WIDTH:
        return [line]
    return textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="    ", break_long_words=True, break_on_hyphens=False)


DEAD_LEGEND = "GREY TICK OR BLACK SQUARE: DEAD"
"""Legend entry for dead warriors (grey ticks under the bar) and a dead shaman (black square)."""
CELL = 96
TOP = 28


def render_rgb(g, s) -> np.ndarray:
    """``uint8[H, W, 3]`` picture of the map (module docstring), a status line and a legend."""
    rows, cols = g.content.map.grid
    W = cols * CELL
    H = TOP + rows * CELL + 70
    img = raster.canvas(H, W, (250, 248, 240))
    tun = tunnels_now(g, s)
    ctrl = controllers(g, s)
    cells_of = {sp.id: sp.cells for sp in g.content.map.spaces}
    owner = {}
    for sid, cells in cells_of.items():
        for r, c in cells:
            owner[(r, c)] = sid
    for sid, cells in cells_of.items():
        if not cells:
            continue
        col = (30, 30, 30) if not g.active[sid] else (
            (90, 80, 95) if sid == g.mono else _BUILD_COLOUR[g.building[sid]])
        for r, c in cells:
            raster.fill_rect(img, c * CELL, TOP + r * CELL, (c + 1) * CELL, TOP + (r + 1) * CELL, col)
    # borders between different spaces, thick in the controller's colour around controlled spaces
    for (r, c), sid in owner.items():
        x0, y0 = c * CELL, TOP + r * CELL
        for dr, dc, rect in ((0, 1, (x0 + CELL - 1, y0, x0 + CELL + 1, y0 + CELL)),
                             (1, 0, (x0, y0 + CELL - 1, x0 + CELL, y0 + CELL + 1))):
            nb = owner.get((r + dr, c + dc))
            if nb is not None and nb != sid:
                raster.fill_rect(img, *rect, (60, 50, 40))
        if g.active[sid] and ctrl[sid] >= 0:
            k = 4
            for nb_dir, rect in (((-1, 0), (x0, y0, x0 + CELL, y0 + k)), ((1, 0), (x0, y0 + CELL - k, x0 + CELL, y0 + CELL)),
                                 ((0, -1), (x0, y0, x0 + k, y0 + CELL)), ((0, 1), (x0 + CELL - k, y0, x0 + CELL, y0 + CELL))):
                if owner.get((r + nb_dir[0], c + nb_dir[1])) != sid:
                    raster.fill_rect(img, *rect, SEAT_COLOURS[ctrl[sid]])
    for sid, cells in cells_of.items():
        if not cells or not g.active[sid]:
            continue
        r, c = cells[0]
        x0, y0 = c * CELL + 6, TOP + r * CELL + 6
        ink = (255, 255, 255) if sid == g.mono else (20, 20, 20)
        raster.text(img, x0, y0, str(sid) + (" T" if tun[sid] else ""), ink, 2)
        for b in range(s.blood[sid]):
            raster.fill_rect(img, x0 + 60 + 9 * (b % 3), y0 + 9 * (b // 3), x0 + 67 + 9 * (b % 3),
                             y0 + 7 + 9 * (b // 3), (170, 20, 20))
        for p in range(s.n):
            bx = x0 + 2 + 20 * p
            base = y0 + 80
            h = min(40, 4 * s.living[sid][p])
            if h:
                raster.fill_rect(img, bx, base - h, bx + 14, base, SEAT_COLOURS[p])
                raster.text(img, bx + 1, base - h - 28, str(s.living[sid][p]), SEAT_COLOURS[p], 1)
            for d in range(min(5, s.dead[sid][p])):
                raster.fill_rect(img, bx + 3 * d, base + 2, bx + 3 * d + 2, base + 5, (60, 60, 60))
            if s.shaman_space[p] == sid:
                colour = (255, 255, 255) if s.shaman_alive[p] else (0, 0, 0)
                raster.fill_rect(img, bx + 1, base - h - 16, bx + 13, base - h - 4, colour)
                raster.fill_rect(img, bx + 4, base - h - 13, bx + 10, base - h - 7, SEAT_COLOURS[p])
            for k in range(s.boast[sid][p]):
                raster.fill_rect(img, bx + 2 * k, y0 + 20, bx + 2 * k + 5, y0 + 25, SEAT_COLOURS[p])
    dec = "-" if s.terminal or s.sub < 0 else f"{Sub(s.sub).name.replace('_', ' ')} P{s.current}"
    status = f"DAY {s.day}/{g.num_days} {Phase(s.phase).name} {dec} FAVOUR " + " ".join(
        f"P{p}:{s.favour[p]}" for p in range(s.n))
    raster.text(img, 4, 6, status[: (W - 8) // raster.text_width("x", 2)], (20, 20, 20), 2)
    ly = TOP + rows * CELL + 6
    x = 4
    for p in range(s.n):
        raster.fill_rect(img, x, ly, x + 14, ly + 14, SEAT_COLOURS[p])
        raster.text(img, x + 18, ly + 1, f"P{p}", (20, 20, 20), 2)
        x += 70
    raster.text(img, x, ly + 1, "BAR: WARRIORS  SQUARE: SHAMAN", (20, 20, 20), 2)
    x = 4
    for name, col in (("TEMPLE", _BUILD_COLOUR["temple"]), ("TOMB", _BUILD_COLOUR["mausoleum"]),
                      ("SCRIPT", _BUILD_COLOUR["scriptorium"]), ("BLOOD", (170, 20, 20))):
        raster.fill_rect(img, x, ly + 26, x + 14, ly + 40, col)
        raster.text(img, x + 18, ly + 27, name, (20, 20, 20), 2)
        x += 18 + raster.text_width(name, 2) + 14
    raster.text(img, x, ly + 27, DEAD_LEGEND, (20, 20, 20), 2)
    raster.text(img, 4, ly + 50, "T: TUNNEL  OUTLINE: CONTROL  DASH: BOAST HEART", (20, 20, 20), 2)
    return img
