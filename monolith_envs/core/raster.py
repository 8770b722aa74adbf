"""Small numpy picture helpers shared by the games' ``render_rgb`` (no drawing library needed).

Pictures are ``uint8[H, W, 3]`` arrays; colours are ``(r, g, b)`` tuples of ints 0-255; coordinates are
pixels, ``x`` to the right and ``y`` down.  Everything clips at the picture's edges.

* :func:`canvas`, :func:`fill_rect`, :func:`blend`: a background, clipped rectangles, lighter colours.
* :func:`text`: a 3x5 bitmap font (digits, ``A-Z``, ``/ : - . ?`` and space; other characters draw ``?``),
  scaled by an integer factor; :func:`text_width` its width.
* :func:`hex_direction`, :func:`hex_grid`: pointy-top hex boards: the unit vector of board direction ``d``
  and, for given hex centres, the per-pixel hex index with local offsets (to fill, outline or mark hexes
  with boolean masks).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["FONT", "canvas", "fill_rect", "blend", "text", "text_width", "hex_direction", "hex_grid"]

_FONT_SRC = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001010010010",
    "8": "111101111101111", "9": "111101111001111", "A": "010101111101101", "B": "110101110101110",
    "C": "011100100100011", "D": "110101101101110", "E": "111100110100111", "F": "111100110100100",
    "G": "011100101101011", "H": "101101111101101", "I": "111010010010111", "J": "001001001101010",
    "K": "101101110101101", "L": "100100100100111", "M": "101111111101101", "N": "110101101101101",
    "O": "010101101101010", "P": "110101110100100", "Q": "010101101110011", "R": "110101110101101",
    "S": "011100010001110", "T": "111010010010010", "U": "101101101101111", "V": "101101101101010",
    "W": "101101111111101", "X": "101101010101101", "Y": "101101010010010", "Z": "111001010100111",
    "/": "001001010100100", ":": "000010000010000", "-": "000000111000000", ".": "000000000000010",
    "?": "111001010000010", " ": "000000000000000",
}
#: character -> ``bool[5, 3]`` glyph (rows top to bottom)
FONT: dict[str, np.ndarray] = {c: np.array([int(b) for b in bits], dtype=bool).reshape(5, 3)
                               for c, bits in _FONT_SRC.items()}


def canvas(height: int, width: int, colour) -> np.ndarray:
    """A ``uint8[height, width, 3]`` picture filled with ``colour``."""
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = colour
    return img


def fill_rect(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, colour) -> None:
    """Fill the pixels ``x0 <= x < x1``, ``y0 <= y < y1`` of ``img`` with ``colour`` (clipped)."""
    H, W = img.shape[:2]
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(W, int(x1)), min(H, int(y1))
    if x1 > x0 and y1 > y0:
        img[y0:y1, x0:x1] = colour


def blend(colour, k: float, toward=(255, 255, 255)) -> tuple[int, int, int]:
    """``k * colour + (1 - k) * toward``, rounded (``k`` = 1 keeps the colour; default toward white)."""
    return tuple(round(v * k + w * (1 - k)) for v, w in zip(colour, toward))


def text_width(s: str, scale: int = 2) -> int:
    """Width in pixels of :func:`text` for ``s`` (4 * scale per character, the last gap included)."""
    return 4 * scale * len(s)


def text(img: np.ndarray, x: int, y: int, s: str, colour, scale: int = 2) -> None:
    """Draw ``s`` (upper-cased, 3x5 glyphs scaled by ``scale``) with its top-left corner at ``(x, y)``."""
    H, W = img.shape[:2]
    for ch in s.upper():
        g = FONT.get(ch, FONT["?"])
        big = np.kron(g, np.ones((scale, scale), dtype=bool))
        h, w = big.shape
        y0, x0 = max(0, y), max(0, x)
        y1, x1 = min(H, y + h), min(W, x + w)
        if y1 > y0 and x1 > x0:
            sub = big[y0 - y:y1 - y, x0 - x:x1 - x]
            img[y0:y1, x0:x1][sub] = colour
        x += 4 * scale


def hex_direction(d: int) -> tuple[float, float]:
    """Unit vector ``(x, y)`` (y down) of board direction ``d`` of a pointy-top hex board: 0 north-east,
    then clockwise (1 east, 2 south-east, 3 south-west, 4 west, 5 north-west)."""
    a = math.radians(-60.0 + 60.0 * d)
    return math.cos(a), math.sin(a)


def hex_grid(height: int, width: int, centres, radius: float) -> dict[str, np.ndarray]:
    """Per-pixel geometry of pointy-top hexes of centre-to-corner ``radius`` at pixel ``centres``.

    Args:
        height, width: picture size.
        centres: ``[(x, y), ...]`` one per hex (index = hex number).
        radius: centre-to-corner distance in pixels.

    Returns:
        ``idx``: ``int16[height, width]`` hex under each pixel (-1 outside every hex); ``dx``, ``dy``:
        ``float64[height, width]`` offset of the pixel from the centre of its hex; ``norm``: the pixel's hex
        distance from that centre (its largest projection on the three edge normals; ``apothem`` on the
        edges); ``apothem``: 0-d array, the centre-to-edge distance.
    """
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
    idx = np.full((height, width), -1, dtype=np.int16)
    dx = np.zeros((height, width))
    dy = np.zeros((height, width))
    norm = np.full((height, width), np.inf)
    normals = [hex_direction(d) for d in range(3)]
    for h, (cx, cy) in enumerate(centres):
        ox, oy = xx - cx, yy - cy
        n = np.max(np.stack([np.abs(ox * a + oy * b) for a, b in normals]), axis=0)
        inside = n < norm
        idx[inside] = h
        norm[inside] = n[inside]
        dx[inside] = ox[inside]
        dy[inside] = oy[inside]
    apothem = radius * math.sqrt(3) / 2.0
    idx[norm > apothem] = -1
    return {"idx": idx, "dx": dx, "dy": dy, "norm": norm, "apothem": np.array(apothem)}
