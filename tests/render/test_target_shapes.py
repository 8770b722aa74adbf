"""The shapes of the clickable board elements and of The Monolith's spaces: Arena marks each hex's outline
(only it) ``class="target-shape"``, the one shape browser play's stylesheet outlines; every Monolith space
is one polygon of its cells' union (no seam between its cells at any scale), and the texts on a space are
drawn after the brown lines, on a background of the space's fill (a halo), in the SVG and the picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from monolith_envs.core.drawing import HALO, Scene, text_width
from monolith_envs.the_monolith import parse_position as monolith_position
from monolith_envs.the_monolith.render_svg import _TOP, CELL, _area, union_loops

from .test_game_drawings import ARENA, MONOLITH, arena_position

NS = "{http://www.w3.org/2000/svg}"


def _shapes(g) -> list:
    return [c for c in g if c.tag in (NS + "rect", NS + "polygon", NS + "circle")]


def test_arena_marks_only_each_hexs_outline_as_its_target_shape():
    game, s = arena_position(ARENA)
    root = ET.fromstring(game.render_svg(s))
    hexes = [g for g in root.iter(NS + "g") if g.get("data-target")]
    assert len(hexes) == 19
    for g in hexes:
        marked = [c for c in _shapes(g) if c.get("class") == "target-shape"]
        assert len(marked) == 1 and marked[0].tag == NS + "polygon" and len(marked[0].get("points").split()) == 6
        assert _shapes(g)[0] is marked[0]  # the first shape: drawn under the wedge, the bars and the tabs
    assert sum(len(_shapes(g)) > 1 for g in hexes) >= 2  # occupied hexes have other shapes, left unmarked
    assert len(root.findall(".//*[@class='target-shape']")) == 19


@pytest.mark.parametrize("cells,loops", [
    ([(0, 0)], [[(0, 0), (1, 0), (1, 1), (0, 1)]]),
    ([(2, 2), (2, 3), (3, 2), (3, 3)], [[(2, 2), (4, 2), (4, 4), (2, 4)]]),
    ([(0, 0), (1, 0), (1, 1)], [[(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (0, 2)]]),  # an L
    ([(0, 0), (1, 1)], [[(0, 0), (1, 0), (1, 1), (0, 1)], [(1, 1), (2, 1), (2, 2), (1, 2)]]),  # corners only
])
def test_union_loops_trace_the_border_of_the_cells_clockwise(cells, loops):
    got = union_loops(cells)
    assert [[((x) / CELL, (y - _TOP) / CELL) for x, y in lp] for lp in got] == loops
    assert all(_area(lp) > 0 for lp in got)


def test_union_loops_of_a_ring_has_an_anticlockwise_hole():
    ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    outer, hole = union_loops(ring)
    assert _area(outer) > 0 > _area(hole)


def test_each_monolith_space_is_one_polygon_and_its_texts_are_over_the_lines_on_a_halo():
    g, s = monolith_position(MONOLITH)
    svg = g.render_svg(s)
    root = ET.fromstring(svg)
    spaces = [sp for sp in g.content.map.spaces if sp.cells]
    for sp in spaces:
        el = root.find(f".//*[@id='space-{sp.id}']")
        shapes = _shapes(el)
        assert len(shapes) == 1 and shapes[0].tag == NS + "polygon" and shapes[0].get("class") == "target-shape"
        pts = [tuple(map(float, p.split(","))) for p in shapes[0].get("points").split()]
        rows, cols = [r for r, _ in sp.cells], [c for _, c in sp.cells]
        assert min(x for x, _ in pts) == min(cols) * CELL and max(y for _, y in pts) == _TOP + (max(rows) + 1) * CELL
    order = [el for el in root.iter()]
    last_line = max(i for i, el in enumerate(order) if el.tag == NS + "polyline" and el.get("stroke") == "#a57d4b")
    names = [el for el in root.iter(NS + "text") if el.text and el.text.startswith(f"{spaces[0].id} ")]
    for sp in spaces:
        if not g.active[sp.id]:
            continue
        name = next(el for el in root.iter(NS + "text") if el.text == f"{sp.id} {sp.name}")
        i = order.index(name)
        assert i > last_line  # drawn after every brown line
        halo = order[i - 1]  # just under it, a background of the space's own fill
        assert halo.tag == NS + "rect" and halo.get("fill") == root.find(
            f".//*[@id='space-{sp.id}']/{NS}polygon").get("fill")
        assert halo.get("stroke") is None and halo.get("class") is None
    assert names


def _line_seen(halo) -> int:
    """How many pixels of a blue line show through a text drawn over it (at a space between its words too)."""
    sc = Scene(80, 30, (255, 255, 255))
    sc.line(0, 15, 80, 15, (0, 0, 255), 2.5)
    sc.text(40, 15, "12 Cinder", 11, (20, 20, 20), "middle", bold=True, halo=halo)
    x0, x1 = 40 - text_width("12 Cinder", 11, True) / 2, 40 + text_width("12 Cinder", 11, True) / 2
    img = sc.to_rgb().astype(int)[13:18, round(x0):round(x1)]
    return int(((img[..., 2] > 150) & (img[..., 0] < 120)).sum())


def test_text_halo_in_svg_and_picture():
    sc = Scene(60, 30, (255, 255, 255))
    sc.text(30, 15, "M M", 14, (200, 0, 0), "middle", bold=True, halo=(250, 240, 230))
    sc.text(30, 15, " ", 14, (200, 0, 0), "middle", bold=True, halo=(250, 240, 230))  # nothing to show: no halo
    root = ET.fromstring(sc.to_svg())
    rect = root.findall(NS + "rect")[-1]  # after the background's
    w = text_width("M M", 14, True)
    assert rect.get("fill") == "#faf0e6" and len(root.findall(NS + "rect")) == 2
    assert float(rect.get("x")) == pytest.approx(30 - w / 2 - HALO, abs=0.06)
    assert float(rect.get("width")) == pytest.approx(w + 2 * HALO, abs=0.06)
    assert _line_seen(None) > 10 and _line_seen((255, 255, 255)) == 0
