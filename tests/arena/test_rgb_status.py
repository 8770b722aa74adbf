"""rgb_array frames can be followed alone: a status panel (decision, sub-phase, seat to act or result, last
action, teams) and a legend under the board; the final frame shows the result."""

from __future__ import annotations

import numpy as np

import monolith_envs
from agents import RandomAgent, play_match
from monolith_envs.arena.render import _BG, _PANEL_Y, _RESULT, RGB_LEGEND, RGB_SIZE, status_lines
from monolith_envs.core.raster import text_width


def _env(**cfg):
    return monolith_envs.make("monolith_arena_v0", wrapped=False, render_mode="rgb_array", **cfg)


def _panel(img):
    return img[_PANEL_Y:]


def test_status_lines_follow_the_game_and_fit_the_picture():
    env = _env()
    env.reset(seed=4)
    assert status_lines(env.game, env.game_state) == ["DECISION 0  SETUP BANNER", "P0 TO ACT  TURN OF P0", ""]
    first = env.render()
    env.step(int(env.legal_actions()[0]))  # P0 puts its Banner on hex 0
    assert status_lines(env.game, env.game_state) == ["DECISION 1  SETUP BANNER", "P1 TO ACT  TURN OF P0",
                                                      "LAST: P0 SELECT HEX HEX 0"]
    img = env.render()
    assert img.shape == (*RGB_SIZE, 3) == (480, 400, 3)
    assert not np.array_equal(_panel(first), _panel(img))  # the panel shows the change
    for line in status_lines(env.game, env.game_state):
        assert 6 + text_width(line, 2) <= RGB_SIZE[1]
    assert all(6 + text_width(line, 1) <= RGB_SIZE[1] for line in RGB_LEGEND)
    legend_rows = _panel(img)[48:48 + 8 * len(RGB_LEGEND)]
    assert (np.abs(legend_rows.astype(int) - _BG).sum(axis=2) > 0).mean() > 0.05  # the legend is drawn


def test_final_frame_shows_the_result_and_teams_are_named():
    env = _env(num_players=4, mode="teams")
    res = play_match(env, [RandomAgent() for _ in range(4)], seed=1)
    lines = status_lines(env.game, env.game_state)
    won = " ".join(f"P{p}" for p in res.winners)
    assert lines[1] == (f"GAME OVER - {won} WIN  TEAMS A: P0 P2  B: P1 P3" if won else
                        "GAME OVER - DRAW  TEAMS A: P0 P2  B: P1 P3")
    img = env.render()
    assert (_panel(img) == _RESULT).all(axis=2).sum() > 50  # the result line in its own colour
    assert lines[2].startswith("LAST: P")
