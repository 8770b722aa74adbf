"""core/raster.py: clipped rectangles, blending, the bitmap font and pointy-top hex geometry."""

import numpy as np

from monolith_envs.core.raster import blend, canvas, fill_rect, hex_direction, hex_grid, text, text_width


def test_canvas_rect_and_blend():
    img = canvas(10, 20, (1, 2, 3))
    assert img.shape == (10, 20, 3) and img.dtype == np.uint8 and (img[5, 5] == (1, 2, 3)).all()
    fill_rect(img, 15, 8, 40, 40, (9, 9, 9))  # clipped at the right and bottom edges
    assert (img[8:, 15:] == 9).all() and (img[:8] == (1, 2, 3)).all()
    assert blend((100, 0, 200), 0.5) == (178, 128, 228)
    assert blend((100, 0, 200), 0.5, toward=(0, 0, 0)) == (50, 0, 100)


def test_text_draws_the_glyph_bits():
    img = canvas(12, 20, (0, 0, 0))
    text(img, 1, 1, "1", (255, 255, 255), scale=2)
    on = img[..., 0] > 0
    # glyph "1" = 010/110/010/010/111 scaled by 2: 1+2+1+1+3 = 8 cells of 4 pixels
    assert on.sum() == 8 * 4 and on[1:3, 3:5].all() and not on[1:3, 1:3].any()
    assert text_width("AB", 2) == 16


def test_hex_grid_centres_and_edges():
    g = hex_grid(60, 120, [(30.0, 30.0), (30.0 + 20 * np.sqrt(3), 30.0)], 20.0)
    assert g["idx"][30, 30] == 0 and g["idx"][30, int(30 + 20 * np.sqrt(3))] == 1
    assert g["idx"][0, 0] == -1
    assert abs(float(g["apothem"]) - 10 * np.sqrt(3)) < 1e-9
    x, y = hex_direction(1)
    assert abs(x - 1) < 1e-12 and abs(y) < 1e-12
