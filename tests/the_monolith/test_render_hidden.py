"""The text render for a viewer hides another seat's objective choices (the drawings: tests/render)."""

from monolith_envs.the_monolith import parse_position


def test_text_for_a_viewer_does_not_list_another_seats_objective_choices():
    # P0 decides OBJ_REVEAL with a secret O05 that scores now; P1's view must not show which slot scores
    g, s = parse_position("""
        phase REST
        decision OBJ_REVEAL P0
        P0 objectives=O05,O10
        space 0: P0{2W}
    """)
    assert g.action_name(g.legal_actions(s)[-1]) == "objective(0)"
    mine = g.render_text(s, viewer=0)
    theirs = g.render_text(s, viewer=1)
    assert "legal: pass objective(0)" in mine
    assert "objective(" not in theirs and "O05" not in theirs
    assert "legal: P0 decides" in theirs
