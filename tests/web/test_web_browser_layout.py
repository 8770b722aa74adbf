"""The page in a narrow window and the marking of the person's own moves, in headless Chromium (skipped
without ``chromium`` / ``chromedriver``, as the other browser tests)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from .helpers import SHORT, Served
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture


@contextmanager
def page_in_window(wd, tmp_path, game: tuple, width: int, height: int):
    """The page of a served ``game`` (``(env_id, config, seed)``) loaded in a ``width`` x ``height`` window;
    yields a function giving an element's bounding rectangle (a CSS selector) and the window's inner height.
    The window and the server are restored and closed afterwards."""
    served = Served(*game, tmp_path)
    try:
        wd.cmd("POST", "/window/rect", {"width": width, "height": height})
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        yield (lambda sel: wd.js(f"return document.querySelector({sel!r}).getBoundingClientRect().toJSON()"),
               wd.js("return window.innerHeight"))
    finally:
        wd.cmd("POST", "/window/rect", {"width": 1400, "height": 1000})
        served.close()


@pytest.mark.parametrize("game", SHORT, ids=[e for e, _, _ in SHORT])
def test_in_a_narrow_window_the_decision_is_in_view_under_the_board(driver, tmp_path, game):  # noqa: F811
    with page_in_window(driver, tmp_path, game, 700, 900) as (rect, view_h):
        board, title, first = rect("#board svg"), rect("#stage-title"), rect("#options button.opt")
        assert board["height"] > 200 and board["height"] <= 0.56 * view_h, (board, view_h)
        assert title["top"] > board["top"] and first["bottom"] <= view_h, (title, first, view_h)  # no scrolling


@pytest.mark.parametrize("game", SHORT, ids=[e for e, _, _ in SHORT])
def test_a_small_landscape_window_keeps_the_board_beside_the_decision(driver, tmp_path, game):  # noqa: F811
    """At 800x600 the board stays in its column at the window's height (one column would cap it at 55% of
    it), and the decision is in view beside it."""
    with page_in_window(driver, tmp_path, game, 800, 600) as (rect, view_h):
        board, first = rect("#board svg"), rect("#options button.opt")
        assert board["height"] > 0.7 * view_h, (board, view_h)
        assert first["left"] >= board["right"] and first["bottom"] <= view_h, (board, first, view_h)


def test_the_strategy_card_notes_scroll_in_their_box_so_the_moves_stay_in_view(driver, tmp_path):  # noqa: F811
    """At 1280x800 the Strategy Game's "what the cards do" notes (a dozen lines) pushed the Moves panel below the
    window; they now scroll in a box of at most a quarter of the window's height."""
    with page_in_window(driver, tmp_path, SHORT[1], 1280, 800) as (rect, view_h):
        notes, moves = rect("#notes"), rect("#narration")
        assert 0 < notes["height"] <= 0.25 * view_h + 1, (notes, view_h)
        assert driver.js("return document.getElementById('notes').scrollHeight") > notes["height"]  # it scrolls
        assert moves["top"] < view_h, (moves, view_h)


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


@pytest.mark.parametrize("window", [(700, 900), (800, 600)])
def test_larger_board_draws_the_board_at_least_at_its_own_width_where_the_column_is_narrower(
        driver, tmp_path, window):  # noqa: F811
    """"larger board" lifted only the height cap, so a board held by the column's width (Strategy in a narrow
    or small window, any board on a phone) did not grow: it is now drawn at least at its own width (940 px
    for Strategy), and the board's box scrolls sideways."""
    with page_in_window(driver, tmp_path, SHORT[1], *window) as (rect, _view_h):
        before = rect("#board svg")["width"]
        assert before < 900, before
        box = rect("#board svg")
        drawn = min(box["width"] / 940, box["height"] / 817)  # by the limit that holds: width or height
        assert drawn < 0.8, drawn  # drawn well under its size: the button says how small, so a player finds it
        assert driver.text("#zoom") == f"larger board (now {round(100 * drawn)}%)", driver.text("#zoom")
        if window == (800, 600):  # two columns under the header, which may wrap: the page itself does not scroll
            assert driver.js("return document.documentElement.scrollHeight <= window.innerHeight")
        driver.click("#zoom")
        after = rect("#board svg")["width"]
        assert after >= 940 - 0.5, (before, after)
        assert driver.js("const b = document.getElementById('board'); return b.scrollWidth > b.clientWidth")
        driver.click("#zoom")  # "whole board": back to the column's width
        assert abs(rect("#board svg")["width"] - before) < 1


@pytest.mark.parametrize("game", [SHORT[1], SHORT[2]])
def test_the_moves_box_keeps_its_newest_line_in_view(driver, tmp_path, game):  # noqa: F811
    """The Moves box was scrolled to its end before the decision's panel took its height; the box then shrank
    and hid the newest lines (24-107 px at 1366x768). A box the player scrolled up stays where it is."""
    newest = "const n = document.getElementById('narration'); return n.scrollHeight - n.scrollTop - n.clientHeight"
    with page_in_window(driver, tmp_path, game, 1366, 768) as (rect, _view_h):
        for _ in range(6):
            assert driver.js(newest) <= 2, driver.js(newest)
            driver.click("#options button.opt")
            assert _async(driver, WAIT_READY) in ("ready", "over")
        driver.js("document.getElementById('narration').scrollTop = 0")  # the player scrolls up to read
        driver.js("window.dispatchEvent(new Event('resize'))")  # (after its scroll event)
        assert driver.js("return document.getElementById('narration').scrollTop") == 0


def test_a_laptop_window_says_how_small_the_board_is_drawn(driver, tmp_path):  # noqa: F811
    """At 1366x768 every board was fitted at about 2/3 of its size (Arena's tile names 4-6 px on screen) with a
    plain "larger board": the button says the size under 80%."""
    with page_in_window(driver, tmp_path, SHORT[0], 1366, 768) as (rect, _view_h):
        box = rect("#board svg")
        svg = driver.js("const s = document.querySelector('#board svg'); "
                        "return [parseFloat(s.getAttribute('width')), parseFloat(s.getAttribute('height'))]")
        drawn = min(box["width"] / svg[0], box["height"] / svg[1])
        assert drawn < 0.8 and driver.text("#zoom") == f"larger board (now {round(100 * drawn)}%)", (drawn, svg)
        assert driver.js("return document.getElementById('zoom').classList.contains('hint')")


def test_the_side_column_stays_in_the_window_with_the_moves_in_view(driver, tmp_path):  # noqa: F811
    """At 1280x800 the Strategy Game's side column (decision, card notes, Moves) was taller than the window,
    so its newest moves were below it: the column now fits the window, the Moves box shrinking to fit."""
    with page_in_window(driver, tmp_path, SHORT[1], 1280, 800) as (rect, view_h):
        newest = ("const n = document.getElementById('narration'); "
                  "return n.scrollHeight - n.scrollTop - n.clientHeight")
        for _ in range(4):
            driver.click("#options button.opt")
            assert _async(driver, WAIT_READY) in ("ready", "over")
            # the newest line in view, after the decision's panel took its height (the box shrank under it)
            assert driver.js(newest) <= 2, driver.js(newest)
        side, moves = rect("#side"), rect("#narration")
        assert side["bottom"] <= view_h + 1, (side, view_h)
        assert moves["bottom"] <= view_h and moves["height"] >= 40, (moves, view_h)


@pytest.mark.parametrize("window", [(800, 600), (1280, 450), (1280, 800)])
def test_every_option_of_a_long_decision_is_inside_its_panel_and_takes_the_click(driver, tmp_path, window):  # noqa: F811
    """The side column fits the window by shrinking its panels; the decision's panel never shrinks below its
    own lines, so no option slides under the notes (a click on it went to the notes in a low window)."""
    with page_in_window(driver, tmp_path, SHORT[1], *window) as (rect, _view_h):
        for _ in range(12):  # to a decision with many options (a die to place)
            if driver.js("return document.querySelectorAll('#options button.opt').length") >= 6:
                break
            driver.click("#options button.opt")
            assert _async(driver, WAIT_READY) == "ready"
        at = driver.js("""const d = document.getElementById('decision').getBoundingClientRect();
            const o = document.getElementById('options'); o.scrollTop = 0;
            const b = o.querySelector('button.opt').getBoundingClientRect();
            const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
            const box = o.getBoundingClientRect();
            return {panel: [d.top, d.bottom], box: [box.top, box.bottom], first: [b.top, b.bottom],
                    takes: !!(hit && hit.closest('#options button.opt'))};""")
        assert at["panel"][0] <= at["box"][0] and at["box"][1] <= at["panel"][1] + 0.5, at  # the list in its panel
        assert at["box"][1] - at["box"][0] >= 60, at  # about 4.5 lines of options at least
        assert at["takes"], at  # the first option takes its click
