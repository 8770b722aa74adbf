"""Two tabs on one game, in headless Chromium: a page whose position is out of date (a move or a new game
was made elsewhere) must not play its old choice in the new position; it says why and shows the game as it
is now.  Skipped without ``chromium`` / ``chromedriver``, as the other browser tests."""

from __future__ import annotations

from .helpers import SHORT, Served, move_of
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture

ARENA = SHORT[0]


def test_a_stale_tab_does_not_play_its_old_choice_and_catches_up(driver, tmp_path):  # noqa: F811
    served = Served(*ARENA, tmp_path)
    try:
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        at = wd.js("return S.decisions")
        # "the other tab" plays the first hex; this page still offers the hexes of decision `at`
        status, st = served.request("POST", "/api/action", {"game_id": served.web.game_id,
                                                            "action": move_of(served.web.view())})
        assert status == 200 and st["decisions"] > at
        played = list(served.web.raw.episode_log.actions)
        wd.click("#options button.opt:last-child")
        assert _async(wd, WAIT_READY) == "ready"
        assert served.web.raw.episode_log.actions == played  # nothing was played from the old position
        assert f"chosen at decision {at}, but the game is at decision {st['decisions']}" in wd.text("#error")
        assert wd.js("return S.decisions") == st["decisions"]  # the page shows the game as it is now
        assert wd.text("#status").endswith(f"decision {st['decisions']}")
        # a move chosen now is played
        wd.click("#options button.opt")
        assert _async(wd, WAIT_READY) in ("ready", "over")
        assert len(served.web.raw.episode_log.actions) > len(played) or wd.js("return path.length") > 0
        # a new game started elsewhere: the page's next move is refused and the new game is shown
        gid = served.web.game_id
        status, st = served.request("POST", "/api/new", {"game_id": gid})
        assert status == 200
        for _ in range(5):  # click until a move is sent (a stage may come before it)
            wd.click("#options button.opt")
            assert _async(wd, WAIT_READY) == "ready"
            if wd.js("return !document.getElementById('error').hidden"):
                break
        # the page shows the new game already: the message says so (the server's said "reload the page")
        assert wd.text("#error") == ("a new game was started since, perhaps in another tab: this page shows it now; "
                                     "choose again")
        assert wd.js("return S.game_id") == st["game_id"] == served.web.game_id
        assert served.web.raw.num_decisions == st["decisions"]
    finally:
        served.close()
