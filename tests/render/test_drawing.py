"""core/drawing.py: one Scene, serialised as SVG text and painted with Pillow."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from monolith_envs.core.drawing import Scene, hex_corners, mix

NS = "{http://www.w3.org/2000/svg}"


def _scene() -> Scene:
    sc = Scene(120, 80, (250, 250, 250), title="a <test> & more")
    with sc.group(title="hex 3: \"quoted\" <b>", id="hex-3", target="hex:3"):
        sc.rect(10, 10, 30, 20, (200, 0, 0), (0, 0, 0), 2)
        sc.text(60, 40, "Knight <&> \"x\"", 14, (0, 0, 200), "middle", bold=True)
    sc.circle(100, 60, 8, (0, 160, 0))
    sc.polygon(hex_corners(30, 60, 10), (0, 0, 160))
    sc.line(0, 79, 119, 79, (0, 0, 0), 1, dash=4)
    return sc


def test_svg_parses_escapes_text_and_keeps_group_attributes():
    svg = _scene().to_svg()
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg" and (root.get("width"), root.get("height")) == ("120", "80")
    assert root.find(NS + "title").text == "a <test> & more"
    g = root.find(NS + "g")
    assert (g.get("id"), g.get("data-target")) == ("hex-3", "hex:3")
    assert g.find(NS + "title").text == 'hex 3: "quoted" <b>'
    t = g.find(NS + "text")
    assert t.text == 'Knight <&> "x"' and t.get("text-anchor") == "middle" and t.get("font-weight") == "bold"
    assert t.get("font-size") == "14" and t.get("fill") == "#0000c8"
    assert g.find(NS + "rect").get("fill") == "#c80000" and g.find(NS + "rect").get("stroke-width") == "2"
    assert root.find(NS + "polyline").get("stroke-dasharray") == "4"
    assert "<&>" not in svg and "&lt;&amp;&gt;" in svg


def test_rgb_paints_the_same_primitives():
    img = _scene().to_rgb()
    assert img.shape == (80, 120, 3) and img.dtype == np.uint8
    assert tuple(img[0, 0]) == (250, 250, 250)
    assert tuple(img[20, 25]) == (200, 0, 0)           # inside the rect
    assert tuple(img[60, 100]) == (0, 160, 0)          # the circle's centre
    assert tuple(img[60, 30]) == (0, 0, 160)           # the hexagon's centre
    text = img[30:50, 20:100].reshape(-1, 3)
    assert ((text[:, 2] > 120) & (text[:, 0] < 120)).sum() > 20  # the blue text is drawn with a real font
    assert _scene().to_rgb(scale=2).shape == (160, 240, 3)


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="1..4096"):
        Scene(0, 10)
    with pytest.raises(ValueError, match="anchor 'left' is not one of start, middle, end"):
        Scene(10, 10).text(0, 0, "x", anchor="left")
    with pytest.raises(ValueError, match="scale"):
        Scene(10, 10).to_rgb(scale=0)
    with pytest.raises(ValueError, match="supersample"):
        Scene(10, 10).to_rgb(supersample=9)


def test_mix():
    assert mix((200, 100, 0), 0.5) == (228, 178, 128)
    assert mix((200, 100, 0), 1.0, (0, 0, 0)) == (0, 0, 0)
