"""Rules checks of the_monolith_v0 derived from docs/the_monolith.md (§4.1 control, §4.6 action phase)."""

from pathlib import Path

from monolith_envs.the_monolith import parse_position
from monolith_envs.the_monolith.board import controller, controllers

DATA = Path(__file__).resolve().parents[2] / "monolith_envs" / "the_monolith" / "data"


def test_shaman_control_weight_of_a_shaman_ability_counts_without_held_cards(tmp_path):
    # a custom shaman file: Korrun's passive ability becomes shaman_control_weight 2 (docs §4.1: "the shaman's
    # weight (1, or the largest shaman_control_weight modifier)", §5.3: shaman abilities are modifiers too)
    text = (DATA / "shamans.toml").read_text()
    old = 'effect = { op = "modifier", name = "recruit_at_shaman", amount = 1 }'
    assert old in text
    path = tmp_path / "shamans.toml"
    path.write_text(text.replace(old, 'effect = { op = "modifier", name = "shaman_control_weight", amount = 2 }'))
    g, s = parse_position(f"""
        config num_players=4 shaman_assignment="fixed" shamans=[0,1,2,3] first_player=0 shaman_file="{path}"
        decision ORDER_CHOOSE P0
        P0 available=5
        space 9: P0{{1W}} P1{{1W,S}} P2{{2W}}
    """)
    # P1: 1 warrior + shaman weight 2 = 3 units > P2's 2 > P0's 1, and nobody holds a divination
    assert controller(g, s, 9) == 1
    assert controllers(g, s)[9] == 1
    g.check_invariants(s)


def test_seers_insight_as_fourth_card_discards_an_objective_before_a_divination():
    # docs §4.4 Acquire: the card goes to held, then its on_acquire effect (D23: draw 1 objective, OBJ_DISCARD
    # at 4), then the discard-down to 3 divinations. So the objective discard is decided while 4 are held.
    import json

    from monolith_envs.the_monolith.state import Sub

    from .helpers import play

    g, s = parse_position("""
        decision none
        stack TURN_START:3:0
        P0 committed
        P1 committed
        P2 committed
        surge P0
        P3 available=2 held=D01,D02,D03 objectives=O01,O02,O03
        row 0: D23 P3:2
    """)
    assert s.sub == Sub.OBJ_DISCARD and s.current == 3
    assert len(s.held[3]) == 4 and len(s.objectives[3]) == 4
    g.check_invariants(s)  # invariant 7 allows the 4th card until its discard-down
    assert json.dumps(g.to_dict(s)) == json.dumps(g.to_dict(g.from_dict(g.to_dict(s))))
    play(g, s, g.action_index("objective(0)"))
    assert s.sub == Sub.DIV_DISCARD and s.current == 3 and len(s.objectives[3]) == 3
    play(g, s, g.action_index("discard_div(0)"))
    assert len(s.held[3]) == 3 and s.sub == Sub.ORDER_CHOOSE and s.current == 3


def test_resample_for_an_opponent_at_obj_reveal_keeps_a_scoring_objective_in_its_hand():
    # P0 is shown OBJ_REVEAL, so P1 knows P0 holds an objective that scores now (docs §4.12 would have
    # passed otherwise); a resampled state must keep the decision real (invariant 12), yet redraw the hand
    import numpy as np

    g, s = parse_position("""
        phase REST
        decision OBJ_REVEAL P0
        P0 objectives=O05,O10
        space 0: P0{2W}
    """)
    rng = np.random.default_rng(0)
    hands = set()
    for _ in range(60):
        t = g.resample_hidden(s, 1, rng)
        assert g.legal_actions(t) != [0]
        g.check_invariants(t)
        hands.add(tuple(t.objectives[0]))
    assert len(hands) > 5  # really redrawn, not the true hand kept
