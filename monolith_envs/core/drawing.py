"""One vector drawing, two outputs: an SVG document (``render_mode="svg"``) and a Pillow picture (``rgb_array``).

A game draws its state once into a :class:`Scene` made of a few primitives (rectangles, circles, polygons,
polylines, text and groups); :meth:`Scene.to_svg` serialises it as SVG text (all text escaped, real
``<text>`` elements that can be searched and selected) and :meth:`Scene.to_rgb` paints the same primitives
with Pillow's ``ImageDraw`` and a real scalable font, so the SVG and the ``uint8[H, W, 3]`` picture agree.

Text is anchored at its vertical middle (SVG ``dominant-baseline="central"``, Pillow anchor ``?m``).  Groups
carry an optional ``title`` (hover text), ``id`` and ``data-target`` (a stable name for a clickable board
element: ``hex:5``, ``space:12``, ``socket:7``).  A shape may carry a ``cls`` (its SVG ``class``): the
outline of a clickable element is ``cls="target-shape"``, the one shape that browser play's stylesheet
outlines (not the element's other marks).  A text may carry a ``halo``: a background of that colour
(the space's own fill, say) just under it, so that a line drawn before it does not strike through it.

Fonts: DejaVu Sans when it is installed, else Pillow's own scalable default font (Pillow >= 10.1); no
system font is required.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence
from xml.sax.saxutils import escape, quoteattr

import numpy as np

__all__ = ["Scene", "Colour", "check_viewer", "hex_corners", "mix", "text_width", "wrap_text"]

Colour = tuple  # (r, g, b) with 0..255 ints
_ANCHORS = {"start": "l", "middle": "m", "end": "r"}
#: how far a text's ``halo`` reaches left and right of the text, in drawing units
HALO = 2.5
#: from a text's vertical middle to the top of its ascenders, in font sizes (DejaVu Sans: (0.928 + 0.236) / 2)
_HALF_HEIGHT = 0.582
_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
_DEJAVU = ("/usr/share/fonts/truetype/dejavu/DejaVuSans{}.ttf", "/usr/share/fonts/TTF/DejaVuSans{}.ttf",
           "/Library/Fonts/DejaVuSans{}.ttf", "C:/Windows/Fonts/DejaVuSans{}.ttf")


def mix(colour: Colour, t: float, other: Colour = (255, 255, 255)) -> Colour:
    """``colour`` moved a fraction ``t`` (0..1) towards ``other`` (white by default), as an int triple."""
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(colour, other))


def check_viewer(viewer, num_players: int) -> None:
    """The check of every game's ``render_text`` and ``render_svg``: ``viewer`` is ``None`` (omniscient) or a
    seat, an ``int`` (not a ``bool``) in ``0..num_players - 1``.

    Raises:
        ValueError: anything else (``5``, ``-1``, ``"0"``, ``1.0``, ``True``).
    """
    if viewer is not None and not (isinstance(viewer, (int, np.integer)) and not isinstance(viewer, bool)
                                   and 0 <= viewer < num_players):
        raise ValueError(f"viewer must be None or a seat 0..{num_players - 1}, got {viewer!r:.40}")


def hex_corners(cx: float, cy: float, r: float) -> list:
    """The six corners ``[(x, y), ...]`` of a pointy-top hexagon of centre-to-corner radius ``r``."""
    return [(cx + r * math.cos(math.radians(60 * k - 90)), cy + r * math.sin(math.radians(60 * k - 90)))
            for k in range(6)]


def _hex(c: Colour | None) -> str:
    if c is None:
        return "none"
    if isinstance(c, str):
        return c
    return "#%02x%02x%02x" % tuple(int(v) for v in c[:3])


def _num(v: float) -> str:
    """Compact number: at most one decimal, no trailing ``.0``."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


@dataclass
class _Item:
    kind: str
    geo: tuple
    style: dict
    children: list = field(default_factory=list)


class Scene:
    """A drawing of ``width`` x ``height`` units (pixels of the ``rgb_array`` at ``scale=1``).

    Build it with :meth:`rect`, :meth:`circle`, :meth:`polygon`, :meth:`polyline`, :meth:`text` and the
    context manager :meth:`group`; read it with :meth:`to_svg` and :meth:`to_rgb`.  Colours are ``(r, g, b)``
    int triples or ``None`` (no fill / no stroke).

    Raises:
        ValueError: a non-positive or huge size (over 4096 units a side).
    """

    def __init__(self, width: int, height: int, background: Colour = (255, 255, 255), title: str = ""):
        if not (isinstance(width, int) and isinstance(height, int) and 0 < width <= 4096 and 0 < height <= 4096):
            raise ValueError(f"Scene size must be two ints in 1..4096, got {width!r} x {height!r}")
        self.width, self.height, self.background, self.title = width, height, background, title
        self._root: list = []
        self._stack: list = [self._root]

    # ------------------------------------------------------------------ primitives
    def _add(self, kind: str, geo: tuple, **style) -> None:
        self._stack[-1].append(_Item(kind, geo, style))

    def rect(self, x: float, y: float, w: float, h: float, fill: Colour | None, stroke: Colour | None = None,
             stroke_width: float = 1.0, rx: float = 0.0, cls: str | None = None) -> None:
        """An axis-aligned rectangle with top-left ``(x, y)``, optional rounded corners ``rx``."""
        self._add("rect", (x, y, w, h), fill=fill, stroke=stroke, sw=stroke_width, rx=rx, cls=cls)

    def circle(self, cx: float, cy: float, r: float, fill: Colour | None, stroke: Colour | None = None,
               stroke_width: float = 1.0, cls: str | None = None) -> None:
        """A circle of centre ``(cx, cy)`` and radius ``r``."""
        self._add("circle", (cx, cy, r), fill=fill, stroke=stroke, sw=stroke_width, cls=cls)

    def polygon(self, points: Sequence, fill: Colour | None, stroke: Colour | None = None,
                stroke_width: float = 1.0, cls: str | None = None) -> None:
        """A closed polygon through ``points`` ``[(x, y), ...]``."""
        self._add("polygon", tuple((float(x), float(y)) for x, y in points), fill=fill, stroke=stroke,
                  sw=stroke_width, cls=cls)

    def polyline(self, points: Sequence, stroke: Colour, width: float = 1.0, dash: float = 0.0) -> None:
        """An open line through ``points``; ``dash`` > 0 draws it dashed (dash and gap of that length)."""
        self._add("polyline", tuple((float(x), float(y)) for x, y in points), stroke=stroke, sw=width, dash=dash)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: Colour, width: float = 1.0,
             dash: float = 0.0) -> None:
        """A straight segment (see :meth:`polyline`)."""
        self.polyline(((x1, y1), (x2, y2)), stroke, width, dash)

    def text(self, x: float, y: float, s: str, size: float = 12, fill: Colour = (20, 20, 20),
             anchor: str = "start", bold: bool = False, max_width: float | None = None,
             halo: Colour | None = None, halo_width: float = 0.0) -> None:
        """Text ``s`` (one line) whose vertical middle is at ``y``; ``anchor`` is ``start``, ``middle`` or ``end``.

        ``max_width``: a text wider than this (measured with the drawing's font) is squeezed to that width
        (SVG ``textLength``, a smaller font in the picture) instead of running past its box.
        ``halo``: a background of this colour under the text (its box, ``halo_width`` units wider on each
        side, by default :data:`HALO`, and 1.5 units taller), which hides the lines drawn before the text
        where they cross it, between its words too.

        Raises:
            ValueError: an unknown ``anchor``.
        """
        if anchor not in _ANCHORS:
            raise ValueError(f"text anchor {anchor!r} is not one of start, middle, end")
        s = str(s)
        fit = None
        if max_width is not None and s:
            natural = text_width(s, size, bold)
            fit = float(max_width) if natural > max_width > 0 else None
        if halo is not None and s.strip():
            w = fit or text_width(s, size, bold)
            pad = float(halo_width or HALO)
            left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor] - pad
            half = _HALF_HEIGHT * size + 1.5  # from the middle to the top of the ascenders (bottom of descenders)
            self.rect(left, y - half, w + 2 * pad, 2 * half, halo)
        self._add("text", (x, y, s), size=size, fill=fill, anchor=anchor, bold=bold, fit=fit)

    class _Group:
        def __init__(self, scene: "Scene", item: _Item):
            self.scene, self.item = scene, item

        def __enter__(self):
            self.scene._stack[-1].append(self.item)
            self.scene._stack.append(self.item.children)
            return self.item

        def __exit__(self, *exc):
            self.scene._stack.pop()
            return False

    def group(self, title: str | None = None, id: str | None = None, target: str | None = None) -> "Scene._Group":
        """``with scene.group(title=..., id=..., target=...):`` groups what is drawn inside; ``title`` is the
        hover text, ``id`` the element id and ``target`` its ``data-target`` (a clickable board element)."""
        return Scene._Group(self, _Item("g", (), {"title": title, "id": id, "target": target}))

    # ------------------------------------------------------------------ SVG
    def to_svg(self) -> str:
        """The SVG document (``str``): one element a line, text escaped, sizes in user units = pixels."""
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
               f'viewBox="0 0 {self.width} {self.height}" font-family="{_FAMILY}">']
        if self.title:
            out.append(f"<title>{escape(self.title)}</title>")
        out.append(f'<rect width="{self.width}" height="{self.height}" fill="{_hex(self.background)}"/>')
        self._svg_items(self._root, out)
        out.append("</svg>")
        return "\n".join(out)

    def _svg_items(self, items: list, out: list) -> None:
        for it in items:
            st = it.style
            if it.kind == "g":
                attrs = "".join(f" {k}={quoteattr(v)}" for k, v in (("id", st["id"]), ("data-target", st["target"]))
                                if v is not None)
                out.append(f"<g{attrs}>")
                if st["title"]:
                    out.append(f"<title>{escape(st['title'])}</title>")
                self._svg_items(it.children, out)
                out.append("</g>")
                continue
            paint = ""
            if "fill" in st and it.kind != "text":
                paint += f' fill="{_hex(st["fill"])}"'
            if st.get("stroke") is not None:
                paint += f' stroke="{_hex(st["stroke"])}"'
                if st["sw"] != 1:
                    paint += f' stroke-width="{_num(st["sw"])}"'
            if st.get("cls"):
                paint += f" class={quoteattr(st['cls'])}"
            if it.kind == "rect":
                x, y, w, h = it.geo
                rx = f' rx="{_num(st["rx"])}"' if st["rx"] else ""
                out.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}"{rx}{paint}/>')
            elif it.kind == "circle":
                cx, cy, r = it.geo
                out.append(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}"{paint}/>')
            elif it.kind in ("polygon", "polyline"):
                pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in it.geo)
                extra = ' fill="none" stroke-linecap="round"' if it.kind == "polyline" else ""
                if it.kind == "polyline" and st["dash"]:
                    extra += f' stroke-dasharray="{_num(st["dash"])}"'
                out.append(f'<{it.kind} points="{pts}"{paint}{extra}/>')
            else:  # text
                x, y, s = it.geo
                a = "" if st["anchor"] == "start" else f' text-anchor="{st["anchor"]}"'
                b = ' font-weight="bold"' if st["bold"] else ""
                if st.get("fit"):
                    b += f' textLength="{_num(st["fit"])}" lengthAdjust="spacingAndGlyphs"'
                out.append(f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(st["size"])}" '
                           f'fill="{_hex(st["fill"])}" dominant-baseline="central"{a}{b}>{escape(s)}</text>')

    # ------------------------------------------------------------------ raster
    def to_rgb(self, scale: float = 1.0, supersample: int = 2) -> np.ndarray:
        """The drawing painted with Pillow: ``uint8[round(height*scale), round(width*scale), 3]``.

        ``supersample`` (1..4) draws that many times larger and scales down, which smooths the edges.

        Raises:
            ValueError: ``scale`` outside (0, 4] or ``supersample`` outside 1..4.
        """
        from PIL import Image, ImageDraw

        if not (isinstance(scale, (int, float)) and 0 < scale <= 4):
            raise ValueError(f"scale must be in (0, 4], got {scale!r}")
        if supersample not in (1, 2, 3, 4):
            raise ValueError(f"supersample must be 1, 2, 3 or 4, got {supersample!r}")
        k = scale * supersample
        size = (max(1, round(self.width * k)), max(1, round(self.height * k)))
        img = Image.new("RGB", size, tuple(self.background))
        self._paint(ImageDraw.Draw(img), self._root, k)
        if supersample > 1:
            img = img.resize((max(1, round(self.width * scale)), max(1, round(self.height * scale))),
                             Image.LANCZOS)
        return np.asarray(img, dtype=np.uint8).copy()

    def _paint(self, d, items: list, k: float) -> None:
        for it in items:
            st = it.style
            if it.kind == "g":
                self._paint(d, it.children, k)
                continue
            fill = None if st.get("fill") is None else tuple(st["fill"])
            stroke = None if st.get("stroke") is None else tuple(st["stroke"])
            w = max(1, round(st.get("sw", 1) * k))
            if it.kind == "rect":
                x, y, ww, hh = (v * k for v in it.geo)
                box = (x, y, x + max(ww, 1) - 1, y + max(hh, 1) - 1)
                if st["rx"]:
                    d.rounded_rectangle(box, radius=st["rx"] * k, fill=fill, outline=stroke,
                                        width=w if stroke else 0)
                else:
                    d.rectangle(box, fill=fill, outline=stroke, width=w if stroke else 0)
            elif it.kind == "circle":
                cx, cy, r = (v * k for v in it.geo)
                d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=stroke, width=w if stroke else 0)
            elif it.kind == "polygon":
                pts = [(x * k, y * k) for x, y in it.geo]
                d.polygon(pts, fill=fill)
                if stroke:
                    d.line(pts + [pts[0]], fill=stroke, width=w, joint="curve")
            elif it.kind == "polyline":
                if stroke is None:  # a line only a stylesheet shows (browser play's highlight)
                    continue
                pts = [(x * k, y * k) for x, y in it.geo]
                if st["dash"]:
                    for a, b in _dashes(pts, st["dash"] * k):
                        d.line([a, b], fill=stroke, width=w)
                else:
                    d.line(pts, fill=stroke, width=w, joint="curve")
            else:
                x, y, s = it.geo
                size = st["size"] * k
                if st.get("fit"):  # the largest size that fits the squeezed width
                    size *= st["fit"] / max(text_width(s, st["size"], st["bold"]), 1e-6)
                d.text((x * k, y * k), s, fill=tuple(st["fill"]), font=_font(round(size), st["bold"]),
                       anchor=_ANCHORS[st["anchor"]] + "m")


def _dashes(pts: list, n: float):
    """The ``(start, end)`` pieces of a dashed polyline with dash and gap ``n``."""
    on, left = True, n
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        seg = math.hypot(x2 - x1, y2 - y1)
        pos = 0.0
        while pos < seg - 1e-9:
            step = min(left, seg - pos)
            if on:
                t0, t1 = pos / seg, (pos + step) / seg
                yield (x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0), (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1)
            pos += step
            left -= step
            if left <= 1e-9:
                on, left = not on, n


def text_width(s: str, size: float, bold: bool = False) -> float:
    """The width of ``s`` at font ``size`` in the drawing's font (as :meth:`Scene.to_rgb` paints it)."""
    big = _font(100, bold)  # measured large and scaled: the width at any size, without rounding the size
    return big.getlength(str(s)) * size / 100


def wrap_text(s: str, size: float, width: float, bold: bool = False, indent: str = "  ") -> list:
    """``s`` cut at spaces into lines no wider than ``width`` (continuation lines start with ``indent``); a
    single word wider than ``width`` stays whole on its line."""
    lines: list = []
    cur = ""
    for word in str(s).split(" "):
        trial = f"{cur} {word}" if cur else (indent + word if lines else word)
        if cur and text_width(trial, size, bold) > width:
            lines.append(cur)
            cur = indent + word
        else:
            cur = trial
    lines.append(cur)
    return lines


@functools.lru_cache(maxsize=64)
def _font(size: int, bold: bool):
    """DejaVu Sans (bold if asked) at ``size`` pixels when installed, else Pillow's scalable default font."""
    from PIL import ImageFont

    size = max(1, size)
    for pattern in _DEJAVU:
        path = Path(pattern.format("-Bold" if bold else ""))
        if path.is_file():
            try:
                return ImageFont.truetype(str(path), size)
            except OSError:
                continue
    return ImageFont.load_default(size=size)
