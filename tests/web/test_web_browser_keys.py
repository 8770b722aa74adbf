"""Browser play in headless Chromium: options chosen by their numbers on the keyboard, two-digit numbers
included (Arena's first decision has 19 hexes to choose from).

Skipped without ``chromium`` / ``chromedriver`` unless ``MONOLITH_ENVS_REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import re
import time

from .helpers import Served, played, walk_until
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture


def _labels(wd) -> list[str]:
    return wd.js("return [...document.querySelectorAll('#options button.opt')].map(b => b.textContent)")


def test_every_option_is_numbered_and_two_digit_numbers_choose_from_the_keyboard(driver, tmp_path):  # noqa: F811
    served = Served("monolith_arena_v0", {}, 2, tmp_path)
    try:
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        labels = _labels(wd)
        assert len(labels) == 19 and [re.match(r"(\d+)\)", x).group(1) for x in labels] == \
            [str(k + 1) for k in range(19)]
        layout = served.web.game.layout
        # "1" could go on (10-19 exist): it waits, shown in #typed; Escape forgets it and nothing is chosen
        wd.key("1")
        assert wd.js("return document.getElementById('typed').hidden") is False
        assert wd.text("#typed").startswith("option 1...")
        wd.key("\ue00c")  # Escape
        time.sleep(1.2)
        assert served.web.raw.num_decisions == 0 and wd.js("return document.getElementById('typed').hidden")
        # "1" then "2" chooses option 12 at once (no option 120)
        hex12 = int(re.search(r"hex (\d+)", labels[11]).group(1))
        wd.key("1")
        wd.key("2")
        assert _async(wd, WAIT_READY) == "ready"
        deadline = time.time() + 10
        while served.web.raw.num_decisions == 0 and time.time() < deadline:
            time.sleep(0.05)
        assert served.web.raw.episode_log.actions[0] == layout.index("SELECT_HEX", hex12)
        assert f"P0 places its Banner on hex {hex12:02d}" in wd.text("#narration")
        # a number past the last option is said and dropped; a lone digit that cannot go on chooses at once
        assert _async(wd, WAIT_READY) == "ready"
        count = len(_labels(wd))
        assert 1 < count < 10  # the next decision of seed 2 has fewer than 10 options
        wd.key("0")  # no option 0: said in #typed, nothing chosen
        assert wd.js("return document.getElementById('typed').hidden") is False
        assert wd.text("#typed") == f"no option 0: the options are 1-{count}" and served.web.raw.num_decisions == 2
        time.sleep(1.8)
        assert wd.js("return document.getElementById('typed').hidden") and served.web.raw.num_decisions == 2
        wd.key(str(count))
        deadline = time.time() + 10
        while served.web.raw.num_decisions == 2 and time.time() < deadline:
            time.sleep(0.05)
        assert served.web.raw.num_decisions > 2
    finally:
        served.close()


def test_the_only_legal_move_is_said_in_words_and_taken_with_1(driver, tmp_path):  # noqa: F811
    served = Served("monolith_strategy_v0", {"num_players": 2}, 0, tmp_path)
    try:
        # the person takes the last option of every stage until a move is forced
        node = walk_until(served, lambda st: "action" in st["stages"], "no forced move", 50, pick=-1)["stages"]
        assert node["code"] == "choose_opponent(i=1)" and node["name"] == "chooses P1"  # Sabotage's target
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        assert wd.text("#stage-title") == "the only legal move:" and _labels(wd) == ["1)chooses P1"]
        before = served.web.raw.num_decisions
        wd.key("1")
        assert played(served, before, node["action"])
    finally:
        served.close()


def test_an_option_whose_later_stages_are_forced_names_the_whole_move(driver, tmp_path):  # noqa: F811
    """A click on such an option plays the move at once: its label says which (``cast an action card (casts
    Shift)``), as terminal play says the only card before it is taken."""
    served = Served("monolith_strategy_v0", {"num_players": 2}, 5, tmp_path)
    try:
        def forced_options(st: dict) -> list:
            return [o for o in st["stages"].get("options", []) if "action" in o["node"] and o["node"]["auto"]]

        # the person takes the first option of every stage until such an option is offered
        st = walk_until(served, forced_options, "no option with forced later stages", 80)
        forced = forced_options(st)
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        labels = _labels(wd)
        for o in forced:
            k = st["stages"]["options"].index(o)
            assert labels[k] == f"{k + 1}){o['label']} ({o['node']['name']})"
        plain = [k for k, o in enumerate(st["stages"]["options"]) if o not in forced]
        assert all(labels[k] == f"{k + 1}){st['stages']['options'][k]['label']}" for k in plain)
    finally:
        served.close()


def test_two_digits_past_the_last_option_choose_nothing(driver, tmp_path):  # noqa: F811
    """With 10-18 options, "1" waits for a second digit; one that makes no option (19 of 12) is said and
    chooses nothing (it played option 9, the second digit alone: a misplay with no way back)."""
    served = Served("monolith_strategy_v0", {"num_players": 2}, 1, tmp_path)
    try:
        # the first option of every stage until the first stage has 10-18 options
        st = walk_until(served, lambda st: 10 <= len(st["stages"].get("options", [])) <= 18,
                        "no stage with 10-18 options", 400)
        count = len(st["stages"]["options"])
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        assert len(_labels(wd)) == count
        before = served.web.raw.num_decisions
        wd.key("1")
        assert wd.text("#typed").startswith("option 1...")
        wd.key("9")
        assert wd.text("#typed") == f"no option 19: the options are 1-{count}"
        time.sleep(2.0)  # past the wait for a further digit: still nothing chosen
        assert served.web.raw.num_decisions == before and len(_labels(wd)) == count
    finally:
        served.close()
