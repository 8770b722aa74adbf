"""The status line over The Monolith's board names the phase once, in words: ``order`` and ``action`` while
the game runs, and at the end ``game over`` with the ranking (not the raw phase name ``game_over`` before it)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

import monolith_envs

NS = "{http://www.w3.org/2000/svg}"


def _status(svg: str) -> str:
    return next(t.text for t in ET.fromstring(svg).iter(NS + "text") if (t.text or "").startswith("The Monolith ·"))


def test_status_line_says_the_phase_in_words_and_game_over_once():
    env = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=2, num_days=1)
    env.reset(seed=4)
    game, rng = env.game, np.random.default_rng(0)
    seen = set()
    while not game.is_terminal(env.game_state):
        line = _status(game.render_svg(env.game_state, 0))
        assert "_" not in line, line
        seen.add(line.split(" · ")[2])
        env.step(int(rng.choice(np.flatnonzero(game.legal_mask(env.game_state)))))
    assert {"order", "action"} <= seen
    for viewer in (None, 0, 1):
        line = _status(game.render_svg(env.game_state, viewer))
        assert line.startswith("The Monolith · day 1/1 · game over · ranking P"), line
        assert "game_over" not in line and line.count("game over") == 1
