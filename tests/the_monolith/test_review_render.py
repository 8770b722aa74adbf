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


def test_text_for_a_viewer_does_not_list_another_seats_objective_choices():
    # P0 decides OBJ_REVEAL with a secret O05 that scores now; P1's view must not show which slot scores
    g, s = parse_position("""
        phase REST
        decision OBJ_REVEAL P0
        stack REST_END REST_SCRIPT REST_BOASTS REST_TEMPLES
        P0 objectives=O05,O10
        space 0: P0{2W}
    """)
    assert g.action_name(g.legal_actions(s)[-1]) == "objective(0)"
    mine = g.render_text(s, viewer=0)
    theirs = g.render_text(s, viewer=1)
    assert "legal: pass objective(0)" in mine
    assert "objective(" not in theirs and "O05" not in theirs
    assert "legal: P0 decides" in theirs
