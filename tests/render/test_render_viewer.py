"""``render_text`` and ``render_svg`` share one check of ``viewer`` (``core.drawing.check_viewer``): ``None`` or
a seat of the game; anything else is the same ``ValueError`` from both, never a view that belongs to no seat."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs

GAMES = [("monolith_arena_v0", {}), ("monolith_strategy_v0", {"num_players": 3}), ("the_monolith_v0", {"num_players": 3})]


@pytest.mark.parametrize("eid,cfg", GAMES, ids=[e for e, _ in GAMES])
def test_a_bad_viewer_is_refused_by_text_and_drawing_alike(eid, cfg):
    env = monolith_envs.make(eid, wrapped=False, **cfg)
    env.reset(seed=0)
    game, state = env.game, env.game_state
    n = game.num_players
    for bad in (n, 5, -1, "0", 1.0, True, [0], "x" * 500):
        errors = []
        for render in (game.render_text, game.render_svg):
            with pytest.raises(ValueError, match=rf"^viewer must be None or a seat 0\.\.{n - 1}, got ") as e:
                render(state, bad)
            errors.append(str(e.value))
        assert errors[0] == errors[1] and len(errors[0]) < 100, errors
    for good in (None, 0, n - 1, np.int64(n - 1)):
        assert game.render_text(state, good) and game.render_svg(state, good).startswith("<svg")
    assert game.render_text(state, np.int64(0)) == game.render_text(state, 0)
