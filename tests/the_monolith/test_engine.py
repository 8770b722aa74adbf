"""Random play with the docs §9 invariants after every decision, serialisation, masks and sizes."""

import json

import numpy as np
import pytest

from monolith_envs.core.game import IllegalActionError
from monolith_envs.core.state import from_dict, states_equal, to_dict
from monolith_envs.the_monolith import format_position, parse_position
from monolith_envs.the_monolith.game import MonolithGame
from monolith_envs.the_monolith.state import Sub


def _random_game(g, seed, every=1):
    rng = np.random.default_rng(seed)
    s = g.initial_state(rng)
    k = 0
    while not s.terminal:
        legal = g.legal_actions(s)
        assert legal and legal != [0]
        mask = g.legal_mask(s)
        assert np.flatnonzero(mask).tolist() == legal
        g.apply(s, legal[int(rng.integers(len(legal)))], rng)
        k += 1
        if k % every == 0:
            g.check_invariants(s)
    g.check_invariants(s)
    return s, k


@pytest.mark.parametrize("cfg", [{}, {"num_players": 3, "shaman_assignment": "draft"}, {"num_players": 2},
                                 {"tower_weights": [1, 1, 0], "tower_retention": 0.5, "num_days": 2}])
def test_random_games_keep_invariants(cfg):
    g = MonolithGame(cfg)
    for seed in range(2):
        s, k = _random_game(g, seed)
        assert 50 < k < g.max_decisions
        assert abs(float(g.returns(s).sum())) < 1e-5


def test_sizes_match_the_formulas():
    g = MonolithGame({})
    assert g.layout.n == 42 + 10 * 21 + 6 + 6 == 264
    assert g.obs_spec.size == 1587
    assert MonolithGame({"num_players": 2}).layout.n == 264


def test_roundtrip_position_and_json_along_a_game():
    g = MonolithGame({"num_players": 3})
    rng = np.random.default_rng(2)
    s = g.initial_state(rng)
    k = 0
    while not s.terminal:
        if k % 7 == 0:
            _, s2 = parse_position(format_position(g, s))
            assert states_equal(s, s2)
            assert states_equal(from_dict(json.loads(json.dumps(to_dict(s)))), s)
        legal = g.legal_actions(s)
        g.apply(s, legal[int(rng.integers(len(legal)))], rng)
        k += 1


def test_fast_clone_equals_the_generic_clone_and_is_independent():
    from monolith_envs.core.state import clone_state

    g = MonolithGame({"shaman_assignment": "draft"})
    rng = np.random.default_rng(4)
    s = g.initial_state(rng)
    for _k in range(400):
        if s.terminal:
            break
        c = g.clone(s)
        assert states_equal(c, s) and states_equal(c, clone_state(s)) and c.legal_cache is None
        c.living[0][0] += 1
        c.stack.append([0, 0, 0])
        c.held[0].append(99)
        assert not states_equal(c, s)
        legal = g.legal_actions(s)
        g.apply(s, legal[int(rng.integers(len(legal)))], rng)


def test_illegal_action_raises_and_changes_nothing():
    g = MonolithGame({})
    s = g.initial_state(np.random.default_rng(0))
    before = g.clone(s)
    for bad in (-1, 264, 257, True, 1.5, "x"):
        with pytest.raises(IllegalActionError):
            g.apply(s, bad, np.random.default_rng(0))
    assert states_equal(s, before)


def test_the_rng_is_untouched_by_a_rejected_action():
    from .helpers import ScriptedRng

    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P1 committed
        P2 committed
        P3 committed
        surge P1
        P0 available=3
    """)
    rng = ScriptedRng([0.1, 0.5, 0.9])
    with pytest.raises(IllegalActionError):
        g.apply(s, 1, rng)  # march: P0 has no warrior on the board
    g.apply(s, 5, rng)  # commit: the lift draws three zones (a draw by the rejected action would shift them)
    assert s.board[0] == [1, 1, 1]


def test_action_names_roundtrip():
    g = MonolithGame({})
    for a in range(g.layout.n):
        assert g.action_index(g.action_name(a)) == a
    assert g.action_name(95) == "slay(s=9,o=1)"
    assert g.action_index("order(march)") == 1


def test_extra_kill_power_and_discard_cost():
    # P3 is Morvane (after_slay, anger 1: extra_kill) and holds D09 Blade Rite (after_slay, discard: extra_kill)
    g, s = parse_position("""
        decision ACTION_CHOOSE P3
        surge P3
        P0 committed
        P1 committed
        P2 committed
        P3 committed board=1,0,0 anger=1 held=D09
        space 0: P3{1W} P0{3W}
    """)
    g.apply(s, g.action_index("slay(0,1)"))
    assert s.sub == Sub.POWER_WINDOW and g.legal_actions(s) == [0, 53, 56]
    g.apply(s, 53)                       # Blade Rite
    assert s.sub == Sub.EXTRA_KILL and g.legal_actions(s) == [g.action_index("slay(0,1)")]
    g.apply(s, g.action_index("slay(0,1)"))
    assert s.held[3] == [] and s.div_discard == [8]   # discarded after the effect
    assert s.sub == Sub.POWER_WINDOW and g.legal_actions(s) == [0, 56]
    g.apply(s, 56)                       # Morvane's ability: 1 anger
    g.apply(s, g.action_index("slay(0,1)"))
    assert s.favour[3] == 3 and s.anger[3] == 0  # 3 kills (the rest phase then resets kills_today)


def test_seers_insight_as_fourth_card_draws_before_the_discard_down():
    """docs §4.4: on_acquire first (D23 draws an objective: OBJ_DISCARD at 4), then DIV_DISCARD; the seat
    holds 4 divinations in between (found by the fuzzer; invariant 7 allows it while the discard is pending)."""
    g, s = parse_position("""
        decision none
        stack TURN_START:1:0
        P1 available=2 held=D01,D02,D03 objectives=O01,O02,O03
        row 0: D23 P1:1
    """)
    assert s.sub == Sub.OBJ_DISCARD and s.current == 1 and len(s.held[1]) == 4 and len(s.objectives[1]) == 4
    g.apply(s, g.action_index("objective(0)"))
    assert s.sub == Sub.DIV_DISCARD and s.current == 1
    g.apply(s, g.action_index("discard_div(3)"))
    assert s.sub == Sub.ORDER_CHOOSE and s.held[1] == [0, 1, 2] and 22 in s.div_discard
