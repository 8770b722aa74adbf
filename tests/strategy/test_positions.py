"""The text position format (docs/monolith_strategy.md §12): exact round trips over random play, clear
errors, and the hidden-information guarantees of docs §7 on hand-built positions."""

import numpy as np
import pytest

from monolith_envs.core.state import states_equal
from monolith_envs.strategy import StrategyGame, format_position, parse_position
from monolith_envs.strategy.positions import PositionError


@pytest.mark.parametrize("cfg", [{"num_players": 1, "player_powers": True},
                                 {"num_players": 4, "player_powers": True}])
def test_round_trip_over_random_play(cfg):
    g = StrategyGame(cfg)
    rng = np.random.default_rng(7)
    s = g.initial_state(rng)
    steps = 0
    while not g.is_terminal(s) and steps < 400:
        if steps % 3 == 0:
            _, back = parse_position(format_position(g, s), game=g)
            assert states_equal(s, back), steps
        legal = g.legal_list(s)
        g.apply(s, legal[int(rng.integers(len(legal)))], rng)
        steps += 1
    _, back = parse_position(format_position(g, s), game=g)
    assert states_equal(s, back)


@pytest.mark.parametrize("text,match", [
    ("players 2\nvp 1 2 3\n", "vp needs 2 numbers"),
    ("players 2\nhand P5 augment\n", "not a seat"),
    ("players 2\nhand P0 sword\n", "unknown action card"),
    ("players 2\nboard 7 R99\n", "unknown board card"),
    ("players 2\nfrobnicate 1\n", "unknown keyword"),
    ("players 2\ndecision dance\n", "unknown decision"),
    ("players 2\ndie 70 P0 3\n", "board socket id"),
    ("players 2\nprivate P1 R11\ndecision turn P0\n", r"line 2 .*R11 is placed twice \(board position 11 and private"),
    ("players 2\nprivate P0 R20\nprivate P1 R20\ndecision turn P0\n", r"line 3 .*R20 is placed twice"),
    ("players 2\nhand P0 augment\nhand P1 windfall\ndecision turn P0\n", r"line 3 .*windfall is a Player Power"),
])
def test_errors_name_the_line(text, match):
    with pytest.raises(PositionError, match=match) as e:
        parse_position(text)
    assert "position line" in str(e.value)


@pytest.mark.parametrize("text,match", [
    ("players 2\ngems 3 3\nsource 5\ndecision turn P0\n", r"invariant 1: source 5 \+ players \[3, 3\] != 10"),
    ("players 2\nhand P0 augment haste guard reroll nudge sculpt\ndecision turn P0\n",
     "invariant 10: seat 0 holds 6 cards with no DISCARD owed"),
    ("players 2\npool P0 1 2 3 4 5 6 6 6 6\ndecision turn P0\n", "invariant 2: seat 0"),
])
def test_a_position_breaking_a_section_9_invariant_is_refused(text, match):
    """docs §9: every gem, die and card counted once, hands within the limit -- a position is checked as the
    engine's states are after every action."""
    with pytest.raises(PositionError, match=match):
        parse_position(text)


def test_hidden_items_do_not_change_the_observation():
    base = ("players 3\nround 2\npool P0 3\npool P1 4\nhand P1 {h}\nprivate P1 {r}\nskill_deck {d}\n"
            "decision turn P0\n")
    g, a = parse_position(base.format(h="augment", r="R20", d="reroll shift"))
    _, b = parse_position(base.format(h="jinx", r="R25", d="shift reroll"), game=g)
    for viewer in (0, 2):
        assert g.observe(a, viewer).tobytes() == g.observe(b, viewer).tobytes()
    assert g.observe(a, 1).tobytes() != g.observe(b, 1).tobytes()
    rs = g.resample_hidden(a, 0, np.random.default_rng(1))
    assert g.observe(rs, 0).tobytes() == g.observe(a, 0).tobytes()
    assert sum(rs.hand[1]) == 1 and len(rs.priv[1]) == 1


def test_fast_clone_equals_the_generic_clone():
    from monolith_envs.core.state import clone_state

    g = StrategyGame({"num_players": 3, "player_powers": True})
    rng = np.random.default_rng(3)
    s = g.initial_state(rng)
    while not g.is_terminal(s):
        c = g.clone(s)
        assert states_equal(c, clone_state(s)) and c.legal_cache is None
        legal = g.legal_list(s)
        g.apply(c, legal[0], np.random.default_rng(0))
        assert states_equal(g.clone(s), clone_state(s))
        g.apply(s, legal[int(rng.integers(len(legal)))], rng)
