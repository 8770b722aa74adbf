"""Where the drawings put things, measured in the Scene: The Monolith's unit marks stay inside their space
however many seats stand there, its tunnel and event badges keep off the space's name, the outline that browser play
lights up on a space is drawn over every mark and inside the controller's line; Arena's hex-number and
initiative tabs keep off every front wedge and attack bar, and tile names end 5 units before the W and E
wedges."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from monolith_envs.arena.positions_text import parse_position as arena_position
from monolith_envs.arena.render import _tables
from monolith_envs.arena.render_svg import NAME_WIDTH, TAB_Y, hex_center
from monolith_envs.arena.render_svg import draw as arena_draw
from monolith_envs.arena.tables import Kind
from monolith_envs.core.drawing import text_width
from monolith_envs.the_monolith import parse_position as monolith_position
from monolith_envs.the_monolith.render_svg import _TOP, CELL, SEAT_COLOURS, _centre, outline
from monolith_envs.the_monolith.render_svg import draw as monolith_draw

NS = "{http://www.w3.org/2000/svg}"


def _walk(items, group=None):
    """``(item, the nearest enclosing group's style)`` of every primitive under ``items``."""
    for it in items:
        if it.kind == "g":
            yield from _walk(it.children, it.style)
        else:
            yield it, group


def _text_box(it) -> tuple:
    x, y, s = it.geo
    w = it.style["fit"] or text_width(s, it.style["size"], it.style["bold"])
    left = {"start": x, "middle": x - w / 2, "end": x - w}[it.style["anchor"]]
    return left, y - it.style["size"] * 0.6, left + w, y + it.style["size"] * 0.6


def _box(it) -> tuple:
    """The bounding box ``(x0, y0, x1, y1)`` of a circle, polygon or text, its stroke included."""
    half = it.style.get("sw", 0) / 2 if it.style.get("stroke") else 0
    if it.kind == "circle":
        cx, cy, r = it.geo
        return cx - r - half, cy - r - half, cx + r + half, cy + r + half
    if it.kind == "text":
        return _text_box(it)
    xs, ys = [p[0] for p in it.geo], [p[1] for p in it.geo]
    return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half


def _inside_cells(box, cells) -> bool:
    """Every point of ``box`` (a grid of them) lies in one of ``cells``."""
    x0, y0, x1, y1 = box
    for i in range(9):
        for j in range(9):
            x, y = x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * j / 8
            if (int((y - _TOP) // CELL), int(x // CELL)) not in cells:
                return False
    return True


def _crowded(shaman_space: int):
    """Every seat on every space, with many living and dead warriors and boast hearts, six blood drops;
    all four shamans (one dead) on ``shaman_space``: more than a real game can hold, to find the limits."""
    g, s = monolith_position("decision ORDER_CHOOSE P0")
    for sid in range(g.N):
        s.blood[sid] = 6
        for p in range(s.n):
            s.living[sid][p], s.dead[sid][p], s.boast[sid][p] = 12, 16, 9
    for p in range(s.n):
        s.shaman_space[p] = shaman_space
    s.shaman_alive[1] = False
    return g, s


@pytest.mark.parametrize("shaman_space", [0, 1, 3, 10, 17])
def test_monolith_unit_marks_stay_inside_their_space_and_apart(shaman_space):
    g, s = _crowded(shaman_space)
    sc = monolith_draw(g, s)
    spaces = {sp.id: sp for sp in g.content.map.spaces if sp.cells}
    marks: dict = {sid: [] for sid in spaces}
    for it, grp in _walk(sc._root):
        title = (grp or {}).get("title") or ""
        if grp and grp["id"] is None and title.startswith("space "):
            marks[int(title.split(":")[0].split()[1])].append(it)
    for sid, items in marks.items():
        if not g.active[sid]:
            continue
        cells = {tuple(c) for c in spaces[sid].cells}
        discs = [it for it in items if it.kind == "circle" and it.style["fill"] in SEAT_COLOURS]
        diamonds = [it for it in items if it.kind == "polygon"]
        lows = [it for it in items if it.kind == "text" and it.geo[2].startswith("♥")]
        blood = [it for it in items if it.kind == "circle" and it not in discs]
        assert len(discs) == s.n and len(lows) == s.n and len(blood) == 6, sid
        assert len(diamonds) == (s.n if sid == shaman_space else 0), sid
        for it in discs + diamonds + lows + blood:
            assert _inside_cells(_box(it), cells), (sid, spaces[sid].name, it.kind, _box(it))
        for a in discs:  # no disc on another, and each still readable
            assert a.geo[2] >= 5, (sid, a.geo)
            for b in discs:
                if a is not b:
                    assert math.dist(a.geo[:2], b.geo[:2]) >= a.geo[2] + b.geo[2], (sid, a.geo, b.geo)
        name_bottom = max(_text_box(it)[3] for it in items if it.kind == "text" and it.style["size"] >= 9.5
                          and not it.geo[2].startswith(("♥", "†")) and not it.geo[2].isdigit())
        assert min(_box(it)[1] for it in discs) >= name_bottom - 1, sid  # under the name and kind


def test_monolith_tunnel_badge_keeps_off_the_space_name():
    g, s = monolith_position("decision ORDER_CHOOSE P0")
    g.base_tunnel = [bool(a) for a in g.active]  # every space a tunnel
    sc = monolith_draw(g, s)
    badges = [it for it, _ in _walk(sc._root) if it.kind == "text" and it.geo[2] == "T"]
    names = {it.geo[2]: it for it, _ in _walk(sc._root) if it.kind == "text"}
    assert len(badges) == sum(g.active)
    for sp in g.content.map.spaces:
        if not (sp.cells and g.active[sp.id]):
            continue
        label = names[f"{sp.id} {sp.name}"]
        lx0, ly0, lx1, ly1 = _text_box(label)
        (bx, by), = [b.geo[:2] for b in badges if _inside_cells((b.geo[0], b.geo[1]) * 2, set(sp.cells))]
        assert lx1 < bx - 9 or ly1 < by - 9 or ly0 > by + 9, (sp.name, (lx0, ly0, lx1, ly1), (bx, by))
        assert _inside_cells((bx - 9, by - 9, bx + 9, by + 9), {tuple(c) for c in sp.cells})
        # beside the badge, or under it when that is too narrow; never smaller than 7.7 here, where every
        # space is a tunnel (the name keeps 14 units from the sides, clear of the outline browser play
        # lights up on a space it may click; the narrowest long name, 15 Cinder Scriptorium, is 7.75)
        assert label.style["size"] >= 7.7, sp.name


def test_monolith_event_badge_marks_the_space_and_keeps_off_the_name_and_the_tunnel_badge():
    """docs §11: an ``E`` badge on each space with an event placed there (one a space, its title naming
    every event there), the name beside both badges or under them; here every space is a tunnel too."""
    g, s = monolith_position("decision ORDER_CHOOSE P0")
    g.base_tunnel = [bool(a) for a in g.active]
    live = [sp for sp in g.content.map.spaces if sp.cells and g.active[sp.id]]
    s.events = [[k % len(g.events), sp.id] for k, sp in enumerate(live)] + [[1, live[0].id], [2, -1]]
    sc = monolith_draw(g, s)
    items = list(_walk(sc._root))
    e_badges = [(it, grp) for it, grp in items if it.kind == "text" and it.geo[2] == "E"]
    t_badges = [it for it, _ in items if it.kind == "text" and it.geo[2] == "T"]
    names = {it.geo[2]: it for it, _ in items if it.kind == "text"}
    both = centred = 0

    def t_badges_of(sp) -> list:
        return [b.geo[:2] for b in t_badges if _inside_cells((b.geo[0], b.geo[1]) * 2, {tuple(c) for c in sp.cells})]

    assert len(e_badges) == len(live)  # one a space: two events on live[0], none for the unplaced one
    first = [grp["title"] for it, grp in e_badges if _inside_cells((it.geo[0], it.geo[1]) * 2, set(live[0].cells))]
    assert first == [f"events on space {live[0].id}: {g.events[0].name}, {g.events[1].name}"]
    for sp in live:
        cells = {tuple(c) for c in sp.cells}
        lx0, ly0, lx1, ly1 = _text_box(names[f"{sp.id} {sp.name}"])
        (ex, ey), = [it.geo[:2] for it, _ in e_badges if _inside_cells((it.geo[0], it.geo[1]) * 2, cells)]
        assert _inside_cells((ex - 9, ey - 9, ex + 9, ey + 9), cells), sp.name
        assert lx0 > ex + 9 or ly1 < ey - 9 or ly0 > ey + 9, (sp.name, (lx0, ly0, lx1, ly1), (ex, ey))
        cx = _centre(sp.cells)[0]
        if cx - (lx1 - lx0) / 2 > ex + 10 and cx + (lx1 - lx0) / 2 < min((bx for bx, _ in t_badges_of(sp)), default=math.inf) - 10:
            centred += 1  # a name that clears the badges where it is stays centred over its kind line
            assert abs((lx0 + lx1) / 2 - cx) < 0.01, sp.name
        tunnel = t_badges_of(sp)
        both += len(tunnel)
        for bx, by in tunnel:  # not every space: an event can close a tunnel (Cave-In)
            assert ex + 18 < bx - 9, sp.name  # the two badges apart
            assert lx1 < bx - 9 or ly1 < by - 9 or ly0 > by + 9, (sp.name, (lx0, ly0, lx1, ly1), (bx, by))
    assert both >= len(live) - 3  # most spaces carry both badges
    assert centred >= 5
    g.base_tunnel = [False] * len(g.active)
    s.events = []  # no event, no badge
    assert not [it for it, _ in _walk(monolith_draw(g, s)._root) if it.kind == "text" and it.geo[2] == "E"]


def test_monolith_space_names_keep_clear_of_the_clickable_outline():
    """Browser play lights up an outline 9.5 units inside a space it may click, 8 wide (5.5 to 13.5 from the
    side): a space's name and its kind line stay inside it, so no letter is hidden under it."""
    g, s = monolith_position("decision ORDER_CHOOSE P0")
    texts = [it for it, _ in _walk(monolith_draw(g, s)._root) if it.kind == "text"]
    checked = 0
    for sp in g.content.map.spaces:
        if not (sp.cells and g.active[sp.id]):
            continue
        x0 = min(c for _, c in sp.cells) * CELL
        x1 = (max(c for _, c in sp.cells) + 1) * CELL
        for it in texts:
            if it.geo[2] == f"{sp.id} {sp.name}":
                lx0, _, lx1, _ = _text_box(it)
                assert lx0 >= x0 + 13.5 and lx1 <= x1 - 13.5, (sp.name, lx0, lx1, x0, x1)
                checked += 1
    assert checked == sum(1 for sp in g.content.map.spaces if sp.cells and g.active[sp.id])


def test_outline_pieces_meet_around_any_shape():
    for cells in ([(0, 0)], [(1, 0), (2, 0)], [(0, 0), (0, 1), (1, 0)], [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]):
        segs = outline(cells, 9.5)
        ends = Counter((round(x, 6), round(y, 6)) for seg in segs for x, y in seg)
        assert set(ends.values()) == {2}, (cells, ends)  # a closed line: every end is another piece's end
        assert len(segs) == sum(((r + dr, c + dc) not in cells) for r, c in cells
                                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        for seg in segs:
            for x, y in seg:
                assert _inside_cells((x, y, x, y), set(cells)), (cells, x, y)


def test_monolith_clickable_outline_is_over_every_mark_and_inside_the_controllers_line():
    g, s = monolith_position("""
        decision ORDER_CHOOSE P0
        space 1: P0{3W}
        space 0: P1{2W} P0{1W}
        space 7: P2{2W} blood=1
    """)
    root = ET.fromstring(g.render_svg(s))
    order = {id(el): k for k, el in enumerate(root.iter())}
    groups = {el.get("id"): el for el in root.iter(NS + "g") if el.get("id")}
    controlled = 0
    for sp in g.content.map.spaces:
        if not sp.cells:
            continue
        hl = groups[f"outline-space-{sp.id}"]
        lines = list(hl.iter(NS + "polyline"))
        assert lines and all(ln.get("stroke") is None for ln in lines)  # only the page's stylesheet shows it
        assert len(list(hl.findall(NS + "polyline"))) == len(list(hl.find(NS + "g").findall(NS + "polyline")))
        marks = [el for el in root.iter(NS + "g") if (el.findtext(NS + "title") or "").startswith(f"space {sp.id}: ")]
        last_mark = max(order[id(x)] for m in marks for x in m.iter())
        assert order[id(hl)] > last_mark, sp.name  # drawn after the controller's line and every mark
        ctrl = [el for m in marks for el in m.iter(NS + "polyline") if el.get("stroke-width") == "5"]
        controlled += bool(ctrl)
        x0 = min(c for _, c in sp.cells) * CELL
        y0 = _TOP + min(r for r, _ in sp.cells) * CELL
        for ln in lines:  # 9.5 in: next to the controller's line (3 in, 5 wide), not on it
            for pt in ln.get("points").split():
                x, y = map(float, pt.split(","))
                assert _inside_cells((x - 5.5, y - 5.5, x + 5.5, y + 5.5), {tuple(c) for c in sp.cells})
                assert min(abs(x - x0 - k * CELL) for k in range(3)) >= 9.5 - 1e-6 or \
                    min(abs(y - y0 - k * CELL) for k in range(3)) >= 9.5 - 1e-6
    assert controlled >= 3


def _rect_points(x, y, w, h):
    return [(x + w * i / 12, y + h * j / 8) for i in range(13) for j in range(9)]


def _in_triangle(p, tri) -> bool:
    (x1, y1), (x2, y2), (x3, y3) = tri

    def side(ax, ay, bx, by):
        return (p[0] - bx) * (ay - by) - (ax - bx) * (p[1] - by)

    d = (side(x1, y1, x2, y2), side(x2, y2, x3, y3), side(x3, y3, x1, y1))
    return not (min(d) < 0 < max(d))


def _seg_dist(p, a, b) -> float:
    vx, vy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / (vx * vx + vy * vy)))
    return math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy)


@pytest.mark.parametrize("factions", [("lords_of_the_abyss", "dragon_empire"),
                                      ("guardians_of_the_realm", "harbingers_of_the_forest")])
def test_arena_tabs_keep_off_wedges_and_attack_bars_and_names_end_before_the_side_wedges(factions):
    game, _ = arena_position(f"factions: {', '.join(factions)}\n0: {_banner(factions[0])}\n16: {_banner(factions[1])}")
    tb = _tables(game)
    prefixes = tuple(_banner(f).split("_")[0] + "_" for f in factions)
    tiles = [k for k, i in enumerate(tb.id_of) if i.startswith(prefixes) and tb.kind[k] in (Kind.CHAMPION, Kind.RUNE)]
    hexes = [h for h in range(19) if h not in (0, 16)]
    chunks = [[(t, f) for t in tiles[k:k + len(hexes)]] for f in range(6) for k in range(0, len(tiles), len(hexes))]
    checked = Counter()
    for chunk in chunks:  # each tile once a position (a faction has few copies), every facing in turn
        f = chunk[0][1]
        lines = [f"factions: {', '.join(factions)}", f"0: {_banner(factions[0])} f={f}",
                 f"16: {_banner(factions[1])} f={(f + 3) % 6}"]
        lines += [f"{h}: {tb.id_of[t]} f={f}" for h, (t, f) in zip(hexes, chunk)]
        game, s = arena_position("\n".join(lines))
        sc = arena_draw(game, s)
        for h in [0, 16] + hexes[:len(chunk)]:
            grp = next(it for it in sc._root if it.kind == "g" and it.style["id"] == f"hex-{h}")
            items = [it for it, _ in _walk(grp.children)]
            cx, cy = hex_center(h)
            tabs = [it for it in items if it.kind == "rect" and it.style["rx"] == 3]
            wedge = [it for it in items if it.kind == "polygon" and len(it.geo) == 3]
            bars = [it for it in items if it.kind == "polyline" and it.style["sw"] == 4]
            assert tabs and len(wedge) == 1, h
            for tab in tabs:
                x, y, w, hh = tab.geo
                assert abs(y + hh / 2 - (cy + TAB_Y)) < 1e-6
                pts = _rect_points(x, y, w, hh)
                assert not any(_in_triangle(p, wedge[0].geo) for p in pts), (h, tb.id_of[s.itype[s.board[h]]])
                for bar in bars:
                    assert min(_seg_dist(p, *bar.geo) for p in pts) > bar.style["sw"] / 2, (h, bar.geo, tab.geo)
                checked["tab"] += 1
            names = [it for it in items if it.kind == "text" and it.style["bold"] and abs(it.geo[1] - cy - TAB_Y) > 1
                     and not re.fullmatch(r"S\d", it.geo[2])]  # not a Monolith segment's label
            assert names, h
            for it in names:
                x0, y0, x1, y1 = _text_box(it)
                margin = _rect_points(x0 - 5, y0 - 1, x1 - x0 + 10, y1 - y0 + 2)  # 5 units clear of the wedge
                assert not any(_in_triangle(p, wedge[0].geo) for p in margin), (h, it.geo)
                assert x1 - x0 <= NAME_WIDTH + 1e-6 and x0 >= cx - NAME_WIDTH / 2 - 1e-6 and x1 <= cx + NAME_WIDTH / 2 + 1e-6
                assert it.style["size"] >= 6, it.geo
            checked["tile"] += 1
    assert checked["tile"] >= 6 * len(tiles)
    assert checked["tab"] > checked["tile"]  # every tile, some with initiative


def _banner(faction: str) -> str:
    return {"lords_of_the_abyss": "la_banner", "dragon_empire": "de_banner", "guardians_of_the_realm": "gr_banner",
            "harbingers_of_the_forest": "hf_banner"}[faction]
