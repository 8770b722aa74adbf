"""Hostile input to the_monolith_v0: tampered states, odd action values, extreme tower weights (docs §1, §2, §4.9)."""

import json

import numpy as np
import pytest

from monolith_envs.core.config import ConfigError
from monolith_envs.core.game import IllegalActionError
from monolith_envs.core.state import StateError, states_equal
from monolith_envs.the_monolith.game import MonolithGame

from .helpers import ScriptedRng


@pytest.fixture(scope="module")
def game_and_data():
    g = MonolithGame({"num_players": 4})
    s = g.initial_state(np.random.default_rng(0))
    return g, json.loads(json.dumps(g.to_dict(s)))


@pytest.mark.parametrize("path, value, named", [
    (["n"], 7, "state.n"),
    (["favour"], [1, 2, 3], "state.favour"),
    (["favour", 3], "x", "state.favour[3]"),
    (["sub"], 99, "state.sub"),
    (["current"], 9, "state.current"),
    (["first"], 8, "state.first"),
    (["phase"], 12, "state.phase"),
    (["living"], [[0] * 4] * 3, "state.living"),
    (["shaman_id", 0], 17, "state.shaman_id[0]"),
    (["blood", 0], -3, "state.blood[0]"),
    (["terminal"], "yes", "state.terminal"),
    (["stack"], [[999, 0, 0]], "state.stack[0][0]"),
    (["stack"], "x", "state.stack"),
    (["obj_discard"], [[3]], "state.obj_discard[0]"),
    (["board", 0], [1, 2], "state.board[0]"),
    (["available", 0], 12, "invariant 1"),          # 20 hearts: the invariants run after the schema
    (["objectives", 0], [5, 5], "invariant 8"),
])
def test_from_dict_rejects_tampered_state(game_and_data, path, value, named):
    g, data = game_and_data
    d = json.loads(json.dumps(data))
    x = d
    for k in path[:-1]:
        x = x[k]
    x[path[-1]] = value
    with pytest.raises(StateError, match=named.replace("[", r"\[").replace("]", r"\]")):
        g.from_dict(d)


def test_from_dict_accepts_its_own_states_through_a_game():
    g = MonolithGame({"num_players": 3, "shaman_assignment": "draft", "tower_retention": 0.5})
    rng = np.random.default_rng(5)
    s = g.initial_state(rng)
    while not g.is_terminal(s):
        assert states_equal(g.from_dict(g.to_dict(s)), s)
        g.apply(s, int(rng.choice(g.legal_actions(s))), rng)
    assert states_equal(g.from_dict(g.to_dict(s)), s)


@pytest.mark.parametrize("action", [1.5, "61", True, None, 61.0, np.array([61])])
def test_non_integer_action_is_not_named_as_an_action(action):
    g = MonolithGame({})
    s = g.initial_state(np.random.default_rng(0))
    before = g.to_dict(s)
    with pytest.raises(IllegalActionError) as e:
        g.apply(s, action, ScriptedRng([]))
    msg = str(e.value)
    assert "is not an action index" in msg and repr(action) in msg
    assert "order(" not in msg.split(":")[0] and "objective(0):" not in msg  # 1.5 is not order(march)
    assert g.to_dict(s) == before


def test_tower_weights_with_an_infinite_sum_are_refused():
    with pytest.raises(ConfigError, match="tower_weights"):
        MonolithGame({"tower_weights": [1e308, 1e308, 1e308]})


def test_zero_weight_zone_gets_no_heart_at_the_top_of_the_draw():
    # [0.1, 0.3, 0]: normalised, w0 + w1 rounds to 0.9999999999999999; the largest draw below 1 must still
    # land in maneuver (boast has weight 0), docs §4.9
    g = MonolithGame({"tower_weights": [0.1, 0.3, 0.0]})
    assert g.cumw[1] == 1.0
    u = float(np.nextafter(1.0, 0.0))
    from monolith_envs.the_monolith.orders import frame_lift
    s = g.initial_state(np.random.default_rng(0))
    s.tower_today = [1, 0, 0, 0]
    s.tower_stuck = [0] * 4
    board0 = list(s.board[0])
    frame_lift(g, s, 0, 0, ScriptedRng([u]))
    assert s.board[0] == [board0[0], board0[1] + 1, board0[2]]


def test_div_row_size_follows_the_spec_range():
    with pytest.raises(ConfigError, match="div_row_size"):
        MonolithGame({"div_row_size": 6})
    assert MonolithGame({"div_row_size": 5}).row_size == 5


def test_max_decisions_is_bounded_by_a_c_int_as_in_arena():
    # docs/the_monolith.md §config: 1..2**31-1, the range of Arena's key
    with pytest.raises(ConfigError, match=r"max_decisions=2147483648 .*from 1 to 2147483647"):
        MonolithGame({"max_decisions": 2**31})
    assert MonolithGame({"max_decisions": 2**31 - 1}).max_decisions == 2**31 - 1


@pytest.mark.parametrize("text, want", [
    ("decision ORDER_CHOOSE P0\nspace 9: P0{99W}", "warriors add up to 99"),
    ("decision ORDER_CHOOSE P0\nP0 available=30", "hearts add up to 30"),
    ("decision ORDER_CHOOSE P0\nP0 available=10 unearned=10", "hearts add up to 20"),
    ("decision ORDER_CHOOSE P0\nP0 reserves=10 limbo=10", "warriors add up to 20"),
    # a position no game reaches: the invariants of docs §9, as a PositionError too
    ("decision ACTION_CHOOSE P0\nP0 board=1,0,0\nrow 0: D02 P0:2", "invariant 6: bids on slot 0 in phase ACTION"),
    ("decision ORDER_CHOOSE P0\nP0 board=1,0,0", "invariant 6: seat 0 has board hearts in phase ORDER"),
])
def test_position_totals_name_the_listed_sum(text, want):
    from monolith_envs.the_monolith import parse_position
    from monolith_envs.the_monolith.positions import PositionError
    with pytest.raises(PositionError, match=want):
        parse_position(text)


def test_an_action_of_another_decision_says_what_the_decision_is_and_lists_the_legal_ones():
    g = MonolithGame({})
    s = g.initial_state(np.random.default_rng(0))
    relent = g.layout.index("relent")
    with pytest.raises(IllegalActionError) as e:
        g.apply(s, relent, ScriptedRng([]))
    msg = str(e.value)
    assert "not legal in OBJ_DISCARD: the decision now is discard one objective card face down" in msg
    assert msg.endswith("legal now: objective(0), objective(1)")
