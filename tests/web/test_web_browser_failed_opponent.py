"""An opponent's agent that fails to move (a model file gone, a bug) leaves a game that cannot go on: the page
must say so and offer the New game button that the error message asks for, in headless Chromium (skipped
without ``chromium`` / ``chromedriver``, as the other browser tests)."""

from __future__ import annotations

from .helpers import SHORT, Served
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture


class Broken:
    name = "broken"

    def reset(self):
        pass

    def act(self, *args):
        raise RuntimeError("the model file went away")


def test_a_failed_opponent_shows_why_and_a_new_game_button(driver, tmp_path):  # noqa: F811
    served = Served(*SHORT[0], tmp_path)
    try:
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        random_agent = served.web.agents[1]
        served.web.agents[1] = Broken()
        gid = served.web.game_id
        wd.click("#options button.opt")  # the first hex: a whole move, then the opponent fails
        assert _async(wd, WAIT_READY) == "ready"
        assert "the server failed: RuntimeError: the model file went away" in wd.text("#error")
        assert wd.js("return document.getElementById('decision').hidden") is True  # no options to click
        assert wd.js("return document.getElementById('result').hidden") is False
        assert wd.text("#verdict").startswith("the game cannot go on: an opponent's agent failed to move")
        assert wd.js("return document.getElementById('returns').hidden") is True
        assert wd.js("return document.getElementById('replay-link').parentElement.hidden") is True
        served.web.agents[1] = random_agent
        wd.click("#new-game")
        assert _async(wd, WAIT_READY) == "ready"
        assert served.web.game_id != gid and wd.js("return S.game_id") == served.web.game_id
        assert wd.js("return document.getElementById('decision').hidden") is False
        assert wd.js("return document.getElementById('result').hidden") is True
        assert wd.js("return document.querySelectorAll('#options button.opt').length") > 0
    finally:
        served.close()
