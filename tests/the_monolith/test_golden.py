"""The golden scenarios G1-G17 of docs/the_monolith.md §10, through the position format and a scripted rng."""

import numpy as np
import pytest

from monolith_envs.the_monolith import parse_position
from monolith_envs.the_monolith.board import controller
from monolith_envs.the_monolith.effects import gain
from monolith_envs.the_monolith.game import MonolithGame
from monolith_envs.the_monolith.state import Phase, Sub

from .helpers import ScriptedRng, play

NO_EVENTS = "event_discard " + " ".join(f"E{i:02d}" for i in range(1, 13))  # so the reset draws no event


def test_g1_march_solid_border_tunnels_dropoff():
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=5
        space 1: P0{3W}
        space 3: P0{2W}
        space 13: P2{1W}
    """)
    play(g, s, 1)
    assert g.legal_actions(s) == [7, 9]
    play(g, s, 7, 29)
    assert g.legal_actions(s) == [8, 9]
    play(g, s, 9)
    assert s.available[0] == 4 and s.sub == Sub.MARCH_REGROUP
    assert g.legal_actions(s) == [28, 29, 30, 31]
    play(g, s, 31)
    assert g.legal_actions(s) == [0, 6 + 1, 6 + 8, 6 + 13, 6 + 17, 6 + 18]
    assert 6 + 4 not in g.legal_actions(s)  # solid border 3-4
    play(g, s, 19)
    assert s.available[0] == 3
    play(g, s, 30, 17)
    assert s.available[0] == 2
    play(g, s, 30, 0)
    assert s.living[1][0] == 1 and s.shaman_space[0] == 1 and s.shaman_alive[0]
    assert s.living[3][0] == 0
    assert s.living[13][0] == 1 and s.living[13][2] == 1
    assert s.living[11][0] == 3 and s.shaman_space[2] == 11
    assert (s.available[0], s.spent[0]) == (2, 3)
    assert s.current == 1 and s.sub == Sub.ORDER_CHOOSE


def test_g2_control_ignores_dead_units():
    g, s = parse_position("""
        decision ACTION_CHOOSE P0
        context owed=2
        P0 board=1,0,0
        P1 committed
        P2 committed
        P3 committed
        P0 committed
        surge P1
        space 9: P0{2W,1w} P1{2W}
    """)
    assert controller(g, s, 9) == -1
    play(g, s, 95)
    assert (s.living[9][1], s.dead[9][1]) == (1, 1) and s.favour[0] == 1
    assert controller(g, s, 9) == 0
    assert gain(g, s, 0, g.objs[0].effect) == 1  # O01 Occupation
    # P0 has no heart left, so it is out; so is everyone: the rest phase ran and waits at the event draw
    assert s.phase == Phase.REST and s.sub == Sub.EVENT_PLACE


def _committed(*seats):
    return "\n".join(f"P{p} committed" for p in seats)


def test_g3_warriors_before_shaman_per_faction():
    # P0 holds O18 (Kingslayer) so that the rest phase pauses at step 2c, before the reset
    g, s = parse_position(f"""
        decision ACTION_CHOOSE P0
        context owed=4 surge_first=1
        surge P0
        {_committed(0, 1, 2, 3)}
        P0 board=3,0,0 objectives=O18
        space 0: P0{{1W}} P1{{1W,S}} P2{{S}}
        {NO_EVENTS}
    """)
    lg = g.legal_actions(s)
    assert 68 in lg and 69 in lg and 70 not in lg
    play(g, s, 68)
    assert s.favour[0] == 1 and s.living[0][1] == 0 and s.dead[0][1] == 1
    play(g, s, 68)
    assert s.favour[0] == 4 and not s.shaman_alive[1]
    play(g, s, 69)
    assert s.sub == Sub.OBJ_REVEAL and s.current == 0
    assert s.favour[0] == 7 and not s.shaman_alive[2] and s.kills_today[0] == 3
    play(g, s, 0)
    assert s.day == 2 and s.phase == Phase.ORDER
    assert s.shaman_alive[1] and s.shaman_space[1] == 6
    assert s.shaman_alive[2] and s.shaman_space[2] == 11


def test_g4_boast_lost_when_occupancy_ends():
    g, s = parse_position(f"""
        decision ACTION_CHOOSE P2
        context owed=4 surge_first=1
        surge P2
        {_committed(0, 1, 2, 3)}
        P0 out
        P3 out
        P2 board=0,0,1
        P1 board=1,0,0 objectives=O02
        space 10: P1{{2W}} P2{{1W}}
        {NO_EVENTS}
    """)
    play(g, s, 183)
    assert s.boast[10][2] == 1 and s.out[2]
    assert s.current == 1
    play(g, s, 98)
    # all out -> rest; P1's O02 (it controls scriptorium 10) pauses it at step 2c, before the boasts
    assert s.sub == Sub.OBJ_REVEAL and s.current == 1
    assert s.boast[10][2] == 0 and s.spent[2] == 1
    assert g.slots[10] - s.blood[10] - sum(s.boast[10]) == 2
    assert s.favour[1] == 1
    play(g, s, 0)
    assert s.favour[2] == 0 and s.blood[10] == 0 and s.day == 2  # P2 scores nothing at 2e


def test_g5_bid_outbid_raise_forfeit_acquire():
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        row 0: D01
        row 1: D05
        row 2: D09
        row 3: D13
        P2 committed
        P3 committed
        surge P2
        P0 available=6
        P1 available=5
    """)
    play(g, s, 4, 47, 29)
    assert s.bids[0][0] == 2 and s.available[0] == 4
    assert s.current == 1
    play(g, s, 4, 47)
    assert g.legal_actions(s) == [30, 31, 32]
    play(g, s, 30)
    assert s.current == 0 and s.sub == Sub.DIV_RAISE
    assert g.legal_actions(s) == [0, 29, 30, 31]
    play(g, s, 29)
    assert s.bids[0][0] == 4 and s.available[0] == 2
    play(g, s, 2)
    assert s.available[0] == 1
    play(g, s, 0)
    assert s.current == 1 and s.sub == Sub.DIV_RAISE
    assert g.legal_actions(s) == [0, 29]
    play(g, s, 0)
    assert s.available[1] == 5
    play(g, s, 5)
    assert s.tower_today[1] == 5
    assert s.current == 0 and s.sub == Sub.ORDER_CHOOSE
    assert s.held[0] == [0] and s.spent[0] == 5 and s.row[0] == -1
    rng = ScriptedRng([0.1] * 6)  # the lift: P0's 1 heart, P1's 5
    play(g, s, 5, rng=rng)
    assert s.phase == Phase.ACTION
    assert s.board[0] == [1, 0, 0] and s.board[1] == [5, 0, 0]


def test_g6_committed_top_bidder_gets_card_at_settlement():
    g, s = parse_position("""
        decision ORDER_CHOOSE P1
        row 0: D04 P0:3
        row 1: D05 P2:2
        P0 committed tower_today=2
        P2 committed
        P3 committed
        surge P2
        P1 available=4
    """)
    play(g, s, 4)
    assert g.legal_actions(s) == [47, 48]
    play(g, s, 48, 30)
    assert s.available[1] == 1
    assert s.current == 1 and s.held[1] == [4] and s.spent[1] == 3 and s.available[2] == 2
    rng = ScriptedRng([0.5] * 3)
    play(g, s, 5, rng=rng)
    assert s.held[0] == [3] and s.spent[0] == 3
    assert s.available[2] == 2 and s.board[2] == [0, 0, 0]
    assert s.board[0] == [0, 2, 0] and s.board[1] == [0, 1, 0]


def test_g7_surge_first_turn_with_fewer_hearts_and_skipping():
    g, s = parse_position(f"""
        decision ACTION_CHOOSE P2
        context owed=4 surge_first=1
        surge P2
        {_committed(0, 1, 2, 3)}
        P0 out
        P2 board=3,0,0
        P3 board=2,0,0
        P1 board=2,0,0
        space 0: P0{{5W}} P1{{5W}} P2{{5W}} P3{{5W}}
        {NO_EVENTS}
    """)
    assert g.legal_actions(s) == [68, 69, 70, 194, 257]
    play(g, s, 69, 69, 70)
    assert s.favour[2] == 3 and s.out[2] and s.current == 3
    play(g, s, 68, 68)
    assert s.favour[3] == 2 and s.current == 1
    play(g, s, 68, 68)
    assert s.favour[1] == 2
    assert [s.living[0][p] for p in range(4)] == [1, 4, 3, 5]
    assert [s.dead[0][p] for p in range(4)] == [4, 1, 2, 0]
    # rest: P3 controls the Monolith (no scoring for it by default); favour unchanged by the rest
    assert s.favour == [0, 2, 3, 2]
    assert controller(g, s, 0) == 3


def test_g8_fate_wraps_boast_to_slay():
    g, s = parse_position(f"""
        decision ACTION_CHOOSE P1
        context owed=2
        surge P0
        {_committed(0, 1, 2, 3)}
        P0 out
        P2 out
        P3 out
        P1 board=0,0,1 anger=2 objectives=O04
        space 7: P1{{2W}} P2{{1W}}
    """)
    # P1 holds O04 (temples): the rest phase pauses at 2c, so the end of the action phase can be read
    assert g.legal_actions(s) == [67, 180, 243, 257]
    play(g, s, 67)
    assert s.board[1] == [1, 0, 0] and s.anger[1] == 1 and s.limbo[1] == 13  # 12 unlisted + 1 spent
    assert g.legal_actions(s) == [65, 89, 201, 257]
    play(g, s, 89)
    assert s.sub == Sub.OBJ_REVEAL and s.current == 1
    assert s.favour[1] == 1 and s.anger[1] == 1 and s.limbo[1] == 13 and s.spent[1] == 1
    assert controller(g, s, 7) == 1


def test_g8_limbo_exact():
    g, s = parse_position("""
        decision ACTION_CHOOSE P1
        surge P1
        P0 committed
        P1 committed board=0,0,1 anger=2
        P2 committed
        P3 committed
        P0 out
        P2 out
        P3 out
        space 7: P1{2W} P2{1W}
    """)
    before = s.limbo[1]
    play(g, s, 67)
    assert s.anger[1] == 1 and s.limbo[1] == before + 1


def test_g9_recruit_mausoleum_bonus_reserves_first():
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=4 reserves=2 anger=3
        space 1: P1{2W}
        space 4: P0{1W}
        space 9: P0{S}
        space 14: P0{1w}
    """)
    play(g, s, 3)
    assert g.legal_actions(s) == [29, 30, 31]
    play(g, s, 30)
    assert (s.rec_paid, s.rec_bonus) == (3, 2)
    assert g.legal_actions(s) == [7, 10, 15]
    play(g, s, 7)
    assert s.reserves[0] == 1
    play(g, s, 7)
    assert s.reserves[0] == 0
    play(g, s, 15)
    assert s.anger[0] == 2 and 0 in g.legal_actions(s)
    play(g, s, 10)
    assert s.anger[0] == 1
    play(g, s, 0)
    assert s.living[1][0] == 2 and s.living[1][1] == 2 and controller(g, s, 1) == -1
    assert s.living[4][0] == 2 and s.living[9][0] == 1 and s.shaman_space[0] == 9
    assert (s.reserves[0], s.anger[0], s.available[0], s.spent[0]) == (0, 1, 1, 3)


def test_g10_shaman_order_cremates_via_tunnel():
    g, s = parse_position("""
        decision ORDER_CHOOSE P3
        P3 available=2 anger=0
        space 16: P3{2w}
        space 18: P3{1w}
        space 8: P3{1w}
        space 6: P3{3w}
    """)
    play(g, s, 2)
    assert s.available[3] == 1 and s.anger[3] == 2
    assert g.legal_actions(s) == [0, 23, 24]
    play(g, s, 24)
    assert s.anger[3] == 3
    play(g, s, 14)
    assert s.anger[3] == 4
    play(g, s, 12)
    assert s.anger[3] == 7 and s.shaman_space[3] == 6 and s.shaman_alive[3]
    assert sum(s.dead[sp][3] for sp in range(21)) == 0
    assert s.current == 0  # the shaman order ended on its own (0 steps left)


def test_g11_rest_scoring_order():
    g, s = parse_position("""
        day 2
        phase REST
        decision none
        stack rest
        P0 favour=10 objectives=O05 committed
        P1 favour=8 committed
        P2 favour=9 held=D01 committed
        P3 favour=4 objectives=O04 committed
        surge P0
        space 0: P0{3W} P1{1W} blood=2 boast=P0:1,P1:1
        space 2: P0{1W}
        space 5: P0{2W} P2{2W} boast=P2:1
        space 12: P2{1W} P3{1w}
        space 15: P2{1W}
    """)
    assert s.sub == Sub.OBJ_REVEAL and s.current == 0
    assert s.blood[0] == 0
    assert s.favour == [10, 8, 11, 4]
    assert g.legal_actions(s) == [0, 61]
    play(g, s, 61)
    # P3's O04 scores 0 -> its reveal passes itself; 2d, 2e, 2f, then the reset and the event draw
    assert s.obj_discard[-1] == [4, 1]
    assert s.favour == [22, 11, 16, 4]
    assert s.blood[0] == 2 and s.blood[5] == 1
    assert len(s.objectives[2]) == 1
    assert s.sub == Sub.EVENT_PLACE and s.current == 3  # P3 has the least favour; E01 on top


def test_g12_tower_retention():
    g = MonolithGame({"tower_weights": [1, 0, 0], "tower_retention": 1.0, "shaman_assignment": "fixed",
                      "shamans": [0, 1, 2, 3], "first_player": 0})
    rng = np.random.default_rng(3)
    s = g.initial_state(rng)
    while s.sub == Sub.OBJ_DISCARD:
        play(g, s, 61, rng=rng)
    e04 = 3
    s.event_deck.remove(e04)
    s.event_deck.insert(0, e04)
    for p in (0, 1, 2, 3):
        assert s.current == p
        play(g, s, 5, rng=rng)
    assert s.surge == 0
    while s.sub == Sub.OBJ_REVEAL:
        play(g, s, 0, rng=rng)
    assert s.favour == [2, 0, 0, 0]
    assert s.day == 2 and s.first == 1
    assert s.available == [2, 2, 2, 2] and s.unearned == [6, 5, 4, 7]
    assert s.anger == [5, 6, 4, 6]
    assert s.tower_stuck == [11, 12, 13, 10]
    for p in (1, 2, 3, 0):
        assert s.current == p
        play(g, s, 5, rng=rng)
    assert s.surge == 1
    assert [b[0] for b in s.board] == [11, 12, 13, 10]
    assert s.tower_stuck == [2, 2, 2, 2]
    assert s.phase == Phase.ACTION and s.current == 1 and s.owed == 4


def test_g13_event_drawer_tie_sacred_grove():
    g, s = parse_position("""
        phase REST
        decision none
        stack REST_END
        P0 favour=5 committed
        P1 favour=3 committed
        P2 favour=3 committed
        P3 favour=7 committed
        surge P0
    """)
    assert s.first == 1
    assert s.sub == Sub.EVENT_PLACE and s.current == 2
    assert g.legal_actions(s) == list(range(6, 27))
    play(g, s, 17)
    assert s.events == [[0, 11]]
    rng = np.random.default_rng(0)
    for p in (1, 2, 3, 0):
        assert s.current == p
        play(g, s, 5, rng=rng)
    while s.phase == Phase.ACTION:
        play(g, s, 257, rng=rng)
    while s.sub == Sub.OBJ_REVEAL:
        play(g, s, 0, rng=rng)
    assert s.favour == [5, 3, 8, 7]
    assert s.events == [] and 0 in s.event_discard


def test_g14_final_scoring_and_tie_break():
    text = """
        day 4
        first P3
        phase REST
        decision none
        stack REST_END
        P0 favour=30 objectives=O06,O09 committed
        P1 favour=31 objectives=O10 committed
        P2 favour=28 objectives=O11,O13,O18 committed
        P3 favour=20 committed
        surge P3
    """
    results = {}
    for mode in ("win_loss", "rank", "score"):
        g, s = parse_position(f"config reward_mode={mode!r}\n" + text)
        assert s.terminal and s.favour == [32, 32, 31, 20]
        assert g.ranking(s) == [0, 1, 2, 3]
        results[mode] = g.returns(s)
    np.testing.assert_allclose(results["win_loss"], [1, -1 / 3, -1 / 3, -1 / 3], atol=1e-6)
    np.testing.assert_allclose(results["rank"], [1, 1 / 3, -1 / 3, -1], atol=1e-6)
    np.testing.assert_allclose(results["score"], [0.086667, 0.086667, 0.06, -0.233333], atol=1e-5)


def test_g15_thessaly_stronghold_tunnel():
    g, s = parse_position("""
        config shamans=[0,4,2,3]
        decision ACTION_CHOOSE P1
        surge P1
        P0 committed out
        P1 committed board=0,1,0
        P2 committed out
        P3 committed out
        space 6: P1{2W}
    """)
    play(g, s, 143)
    assert g.legal_actions(s) == [9, 13, 14, 19, 24]
    obs = g.observe(s, 1)
    sp = g.obs_spec.view(obs, "spaces")
    assert sp[6, 4] == 0
    play(g, s, 19)
    assert s.living[13][1] == 1
    g2, s2 = parse_position("""
        decision ACTION_CHOOSE P0
        surge P0
        P0 committed board=0,1,0
        P1 committed out
        P2 committed out
        P3 committed out
        space 6: P0{2W}
    """)
    play(g2, s2, 143)
    assert g2.legal_actions(s2) == [13, 14]


def test_g15_stronghold_is_no_tunnel_for_objectives():
    g, s = parse_position("""
        config shamans=[0,4,2,3]
        decision ORDER_CHOOSE P1
        P1 available=1
        space 6: P1{2W}
    """)
    assert gain(g, s, 1, g.objs[7].effect) == 0  # O08 Deep Roads: 6 is not a tunnel


def test_g16_shaman_draft():
    g = MonolithGame({"shaman_assignment": "draft", "first_player": 2})
    rng = np.random.default_rng(0)
    s = g.initial_state(rng)
    assert s.sub == Sub.DRAFT_NOMINATE and s.current == 2
    play(g, s, 261, 28)
    assert s.current == 3 and g.legal_actions(s) == [0, 29, 30, 31, 32, 33]
    play(g, s, 29)
    play(g, s, 0)      # P0
    play(g, s, 31)     # P1 bids 4
    assert s.current == 2 and g.legal_actions(s) == [0, 32, 33]
    play(g, s, 0, 0)   # P2, P3 pass
    assert s.shaman_id[1] == 3 and s.draft_bid[1] == 4
    assert s.current == 2
    play(g, s, 258, 27, 0, 0)
    assert s.shaman_id[2] == 0 and s.draft_bid[2] == 0
    assert s.current == 3
    play(g, s, 260, 27, 28, 0)
    assert s.shaman_id[0] == 2 and s.draft_bid[0] == 1
    assert s.current == 3 and s.sub == Sub.DRAFT_FREE_PICK
    assert g.legal_actions(s) == [259, 262, 263]
    play(g, s, 263, rng=rng)
    assert s.shaman_id[3] == 5
    assert (s.available[1], s.unearned[1]) == (6, 13)
    assert (s.available[0], s.unearned[0]) == (12, 7)
    assert (s.available[2], s.unearned[2]) == (11, 8)
    assert (s.available[3], s.unearned[3]) == (11, 8)


def test_g17_automatic_forfeit_and_order_masks():
    g, s = parse_position("""
        decision none
        stack TURN_START:0:0
        row 0: D02 P0:1 P1:3
        row 1: D03 P1:5
        row 2: D06 P2:4
        row 3: D07 P3:4
        P0 available=1 reserves=0 anger=1
        P1 available=0
        space 1: P0{14W}
    """)
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 0
    assert s.available[0] == 2 and s.bids[0][0] == 0
    assert g.legal_actions(s) == [1, 2, 5]


@pytest.mark.parametrize("bad", ["P0 available=25\ndecision ORDER_CHOOSE P0", "space 99: P0{1W}\ndecision ORDER_CHOOSE P0",
                                 "decision FOO P0", "P0 warriors=3\ndecision ORDER_CHOOSE P0"])
def test_position_errors(bad):
    from monolith_envs.the_monolith.positions import PositionError

    with pytest.raises(PositionError):
        parse_position(bad)
