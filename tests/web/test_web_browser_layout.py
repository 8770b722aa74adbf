"""The page in a narrow window and the marking of the person's own moves, in headless Chromium (skipped
without ``chromium`` / ``chromedriver``, as the other browser tests)."""

from __future__ import annotations

import pytest

from .helpers import SHORT, Served
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture


@pytest.mark.parametrize("eid,cfg,seed", SHORT, ids=[e for e, _, _ in SHORT])
def test_in_a_narrow_window_the_decision_is_in_view_under_the_board(driver, tmp_path, eid, cfg, seed):  # noqa: F811
    served = Served(eid, cfg, seed, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/window/rect", {"width": 700, "height": 900})
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        view_h = wd.js("return window.innerHeight")
        board = wd.js("return document.querySelector('#board svg').getBoundingClientRect().toJSON()")
        title = wd.js("return document.getElementById('stage-title').getBoundingClientRect().toJSON()")
        first = wd.js("return document.querySelector('#options button.opt').getBoundingClientRect().toJSON()")
        assert board["height"] > 200 and board["height"] <= 0.56 * view_h, (board, view_h)
        assert title["top"] > board["top"] and first["bottom"] <= view_h, (title, first, view_h)  # no scrolling
    finally:
        wd.cmd("POST", "/window/rect", {"width": 1400, "height": 1000})
        served.close()


@pytest.mark.parametrize("eid,cfg,seed", SHORT, ids=[e for e, _, _ in SHORT])
def test_a_small_landscape_window_keeps_the_board_beside_the_decision(driver, tmp_path, eid, cfg, seed):  # noqa: F811
    """At 800x600 the board stays in its column at the window's height (one column would cap it at 55% of
    it), and the decision is in view beside it."""
    served = Served(eid, cfg, seed, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/window/rect", {"width": 800, "height": 600})
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        view_h = wd.js("return window.innerHeight")
        board = wd.js("return document.querySelector('#board svg').getBoundingClientRect().toJSON()")
        first = wd.js("return document.querySelector('#options button.opt').getBoundingClientRect().toJSON()")
        assert board["height"] > 0.7 * view_h, (board, view_h)
        assert first["left"] >= board["right"] and first["bottom"] <= view_h, (board, first, view_h)
    finally:
        wd.cmd("POST", "/window/rect", {"width": 1400, "height": 1000})
        served.close()


def test_the_strategy_card_notes_scroll_in_their_box_so_the_moves_stay_in_view(driver, tmp_path):  # noqa: F811
    """At 1280x800 the Strategy Game's "what the cards do" notes (a dozen lines) pushed the Moves panel below the
    window; they now scroll in a box of at most a quarter of the window's height."""
    served = Served(*SHORT[1], tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/window/rect", {"width": 1280, "height": 800})
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        view_h = wd.js("return window.innerHeight")
        notes = wd.js("return document.getElementById('notes').getBoundingClientRect().toJSON()")
        moves = wd.js("return document.getElementById('narration').getBoundingClientRect().toJSON()")
        assert 0 < notes["height"] <= 0.25 * view_h + 1, (notes, view_h)
        assert wd.js("return document.getElementById('notes').scrollHeight") > notes["height"]  # it scrolls
        assert moves["top"] < view_h, (moves, view_h)
    finally:
        wd.cmd("POST", "/window/rect", {"width": 1400, "height": 1000})
        served.close()


def test_the_persons_moves_are_marked_without_a_seat_colour(driver, tmp_path):  # noqa: F811
    """Every board draws player_0 in red and player_1 in blue: the person's own moves are in bold, and the
    legend names no colour that could be read as a seat's."""
    served = Served(*SHORT[0], tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        wd.click("#options button.opt")
        assert _async(wd, WAIT_READY) == "ready"
        styles = wd.js("return [...document.querySelectorAll('#narration .entry')].map(e => "
                       "[e.classList.contains('you'), getComputedStyle(e).fontWeight, getComputedStyle(e).color])")
        mine = [s for s in styles if s[0]]
        theirs = [s for s in styles if not s[0]]
        assert mine and theirs
        assert all(int(w) >= 700 for _, w, _ in mine) and all(int(w) < 700 for _, w, _ in theirs)
        assert {c for _, _, c in mine} == {c for _, _, c in theirs}  # the same ink: no seat colour implied
        legend = wd.text("#side .panel:last-child small")
        assert legend == "(yours in bold; the other seats' latest highlighted)"
    finally:
        served.close()


def test_a_solo_games_moves_legend_names_no_other_seats(driver, tmp_path):  # noqa: F811
    served = Served("monolith_strategy_v0", {"num_players": 1}, 1, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        assert wd.text("#moves-key") == "(yours in bold)"
    finally:
        served.close()
