"""The rgb picture's status line shows every seat's favour (docs §11)."""

import numpy as np

from monolith_envs.core import raster
from monolith_envs.the_monolith import parse_position
from monolith_envs.the_monolith.render import TOP


def test_status_line_names_the_favour_of_every_seat():
    g, s = parse_position("""
        decision ACTION_CHOOSE P3
        context owed=2
        P0 favour=70 committed
        P1 favour=68 committed
        P2 favour=55 committed
        P3 favour=61 board=1,0,0 committed
        surge P0
        space 9: P3{2W}
    """)
    img = g.render_rgb(s)
    status = "DAY 1/4 ACTION ACTION CHOOSE P3 FAVOUR P0:70 P1:68 P2:55 P3:61"
    want = raster.canvas(TOP, img.shape[1], (250, 248, 240))
    raster.text(want, 4, 6, status, (20, 20, 20), 2)
    assert np.array_equal(img[:TOP], want)


def test_legend_explains_dead_units():
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=5
        space 9: P0{2W,3w}
    """)
    img = g.render_rgb(s)
    ly = TOP + g.content.map.grid[0] * 96 + 6
    x = 4 + sum(18 + raster.text_width(w, 2) + 14 for w in ("TEMPLE", "TOMB", "SCRIPT", "BLOOD"))
    drawn = img.copy()
    raster.text(drawn, x, ly + 27, "GREY TICK OR BLACK SQUARE: DEAD", (20, 20, 20), 2)
    assert np.array_equal(drawn, img)  # the legend already carries exactly this text there
    assert (img[ly + 27:ly + 37, x:x + 8] == 20).all(axis=2).any()
