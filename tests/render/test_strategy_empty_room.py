"""The Strategy picture keeps room for a second Fate (position 13) and for two private Runes in every
multiplayer frame (one frame size per config); where they are absent, it says so instead of an empty band."""

from __future__ import annotations

import numpy as np

from monolith_envs import make_game
from monolith_envs.strategy.render_svg import render_svg


def _state(n: int, second_fate: bool):
    g = make_game("monolith_strategy_v0", num_players=n)
    for seed in range(40):
        s = g.initial_state(np.random.default_rng(seed))
        if (s.board[13] >= 0) == second_fate:
            return g, s
    raise AssertionError(f"no seed dealt {'a' if second_fate else 'no'} second Fate")


def test_the_empty_position_13_and_private_rune_rooms_say_what_goes_there():
    g, s = _state(3, second_fate=False)
    svg = render_svg(g, s)
    assert "13 · no second Fate" in svg and "Fate 3.6 deals one here" in svg
    assert svg.count("private Runes: none") == 3
    g, s = _state(3, second_fate=True)
    assert "no second Fate" not in render_svg(g, s)
    g = make_game("monolith_strategy_v0", num_players=1)  # solo: no fourth row to explain
    assert "no second Fate" not in render_svg(g, g.initial_state(np.random.default_rng(0)))
