"""Browser play in headless Chromium: a double click on an option makes one choice (the next stage's buttons
are drawn where the first click was, and the second click used to choose among them too), the Strategy
Game's open decision in words (``#ask``), Arena's reason for the result (``#reason``) and the board's
"larger board" switch (skipped without ``chromium`` / ``chromedriver``, as the other browser tests)."""

from __future__ import annotations

import pytest

from .helpers import Served, played
from .test_web_browser import PLAY_TO_END, WAIT_READY, _async, driver  # noqa: F401 - the fixture


def _double_click(wd, css: str) -> None:
    """Two real mouse clicks in quick succession on ``css`` (W3C actions: the second has ``detail`` 2)."""
    press = [{"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
    ref = wd.cmd("POST", "/element", {"using": "css selector", "value": css})  # the reference as the driver gave it
    wd.cmd("POST", "/actions", {"actions": [{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "origin": ref, "x": 0, "y": 0}] + press + press}]})
    wd.cmd("DELETE", "/actions")


def test_a_double_click_on_an_option_makes_one_choice(driver, tmp_path):  # noqa: F811
    served = Served("monolith_strategy_v0", {"num_players": 2}, 31, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        for _ in range(40):  # a stage whose second option leads to another stage of two or more options
            if wd.js("return node && node.options && node.options.length > 1 && "
                     "node.options[1].node.options !== undefined && node.options[1].node.options.length > 1"):
                break
            wd.click("#options button.opt")
            assert _async(wd, WAIT_READY) == "ready"
        else:
            pytest.fail("no stage of two options leading to two options")
        decisions, title, chosen = served.web.raw.num_decisions, wd.text("#stage-title"), wd.js("return path.length")
        label = wd.js("return node.title + ': ' + node.options[1].label")
        _double_click(wd, "#options button.opt:nth-child(2)")
        assert wd.js("return path.length") == chosen + 1  # the first click chose; the second chose nothing
        assert wd.text("#auto").endswith(label) and wd.text("#stage-title") != title
        assert served.web.raw.num_decisions == decisions  # no move was sent
        _double_click(wd, "#back")  # back goes one stage, not two
        assert wd.js("return path.length") == chosen and wd.text("#stage-title") == title
        _double_click(wd, "#options button.opt:nth-child(2)")
        assert wd.js("return path.length") == chosen + 1
        wd.click("#options button.opt")  # a single click still chooses
        assert wd.js("return path.length") == chosen + 2 or served.web.raw.num_decisions > decisions
    finally:
        served.close()


def test_strategy_says_what_its_decision_asks_and_arena_why_it_ended(driver, tmp_path):  # noqa: F811
    served = Served("monolith_strategy_v0", {"num_players": 2}, 2, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        ask = served.web.pieces.decision(served.web.game, served.web.raw.game_state)
        assert ask.startswith("P0") and wd.text("#ask") == ask
    finally:
        served.close()
    served = Served("monolith_arena_v0", {}, 2, tmp_path)
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        ask = served.web.pieces.decision(served.web.game, served.web.raw.game_state)  # the Banner's hex
        assert ask.startswith("P0: choose") and wd.text("#ask") == ask
        played = _async(wd, PLAY_TO_END)
        assert "error" not in played, played
        reason = served.web.game.end_reason(served.web.raw.game_state)
        assert reason and wd.text("#reason") == reason
    finally:
        served.close()


def test_the_larger_board_fills_the_column_and_scrolls_in_its_box(driver, tmp_path):  # noqa: F811
    served = Served("monolith_arena_v0", {"num_players": 4, "mode": "teams"}, 2, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/window/rect", {"width": 1366, "height": 768})
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        wd.js("zoom(false)")
        fit = wd.js("return document.querySelector('#board svg').getBoundingClientRect().toJSON()")
        view_h = wd.js("return window.innerHeight")
        # the whole board in view, at 2/3 of its size: the button says so
        assert wd.text("#zoom").startswith("larger board (now ") and fit["height"] <= view_h - 60
        wd.click("#zoom")
        wide = wd.js("return document.querySelector('#board svg').getBoundingClientRect().toJSON()")
        box = wd.js("const b = document.getElementById('board'); return [b.clientHeight, b.scrollHeight]")
        assert wd.text("#zoom") == "whole board" and wide["height"] > 1.5 * fit["height"]  # a tall board, larger
        assert box[1] > box[0] and box[0] <= view_h  # it scrolls in its own box
        wd.cmd("POST", "/refresh", {})
        assert _async(wd, WAIT_READY) == "ready"
        assert wd.js("return document.getElementById('board').classList.contains('wide')")  # the choice is kept
        wd.click("#zoom")
        assert not wd.js("return document.getElementById('board').classList.contains('wide')")
    finally:
        wd.cmd("POST", "/window/rect", {"width": 1400, "height": 1000})
        served.close()


def test_the_only_legal_move_is_outlined_where_it_goes_and_a_click_there_plays_it(driver, tmp_path):  # noqa: F811
    """A forced move whose stages name a hex (a Push Back's only destination, a placement's only hex): the hex
    is outlined in gold as any option's, and a click on it plays the move (nothing was outlined)."""
    import numpy as np

    from agents.terminal import pieces_for
    from agents.web import stage_tree

    served = Served("monolith_arena_v0", {}, 2, tmp_path)
    wd = driver
    try:
        game, pieces = served.web.game, pieces_for("monolith_arena_v0")
        node = None
        for seed in range(40):  # a seeded random game's position where seat 0's only legal move goes onto a hex
            rng = np.random.default_rng(seed)
            state = game.initial_state(rng)
            while not game.is_terminal(state):
                mask = game.legal_mask(state)
                if game.current_player(state) == 0:
                    node = stage_tree(game, state, mask, pieces)
                    if "action" in node and node["targets"]:
                        break
                game.apply(state, int(rng.choice(np.flatnonzero(mask))), rng)
            if node is not None and "action" in node and node["targets"]:
                break
        with served.web.lock:
            served.web.raw.set_game_state(state)
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        assert wd.text("#stage-title") == "the only legal move:"
        target = node["targets"][-1]
        css = f'#board [data-target="{target}"]'
        assert wd.js(f"return document.querySelector('{css}').classList.contains('target')")
        before = served.web.raw.num_decisions
        wd.click(css)
        assert played(served, before, node["action"])
    finally:
        served.close()
