"""Browser play outlines only the outline of a clickable board element (in headless Chromium, skipped
without ``chromium`` / ``chromedriver``, as the other browser tests): on an Arena hex that may be clicked the
hex polygon (``class="target-shape"``) turns gold, and its front wedge, attack bars and number tabs keep their
own strokes; a chosen hex is dashed blue the same way; a Strategy socket (a drawing that marks no
``target-shape``) still gets its gold outline on its first shape."""

from __future__ import annotations

import pytest

from .helpers import Served
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture

GOLD, BLUE = "rgb(255, 194, 26)", "rgb(26, 111, 208)"

#: per clickable element: [the stroke and its width, the class] of each shape right under its group
PROBE = """
return [...document.querySelectorAll('#board [data-target].target, #board [data-target].chosen')].map(el =>
  [el.dataset.target, el.classList.contains('chosen'), [...el.children].filter(c => ['rect', 'polygon', 'circle']
    .includes(c.tagName)).map(c => [getComputedStyle(c).stroke, getComputedStyle(c).strokeWidth,
                                    c.getAttribute('class') || '', c.getAttribute('stroke') || 'none'])]);
"""
CHOOSE = """const el = document.querySelector('#board [data-target].target');
el.classList.remove('target'); el.classList.add('chosen');"""


def _reach(wd, ok, clicks: int = 120):
    """Click the second option (the first when it is the only one: the first is often "end the turn") until
    ``ok(probe)``; the last probe."""
    for _ in range(clicks):
        probe = wd.js(PROBE)
        if ok(probe):
            return probe
        wd.js("const b = document.querySelectorAll('#options button.opt'); b[Math.min(1, b.length - 1)].click();")
        assert _async(wd, WAIT_READY) == "ready"
    pytest.fail("no decision with such clickable elements")


def test_only_the_hex_outline_is_highlighted_not_its_wedge_or_tabs(driver, tmp_path):  # noqa: F811
    served = Served("monolith_arena_v0", {}, 2, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        probe = _reach(wd, lambda pr: any(len(shapes) > 2 for _, _, shapes in pr))  # an occupied hex
        wd.js(CHOOSE)  # as the page marks an element chosen at an earlier step of the same decision
        probe = wd.js(PROBE)
        assert any(chosen for _, chosen, _ in probe)
        for target, chosen, shapes in probe:
            outline = [s for s in shapes if s[2] == "target-shape"]
            assert len(outline) == 1, (target, shapes)
            assert outline[0][:2] == ([BLUE, "4px"] if chosen else [GOLD, "3.5px"]), (target, shapes)
            for stroke, width, cls, _ in shapes:
                if cls != "target-shape":  # the wedge, the tabs, the banner's ring: not restroked
                    assert stroke not in (GOLD, BLUE) and width not in ("3.5px", "4px"), (target, shapes)
    finally:
        served.close()


def test_a_strategy_socket_keeps_its_gold_outline(driver, tmp_path):  # noqa: F811
    served = Served("monolith_strategy_v0", {"num_players": 2}, 2, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        probe = _reach(wd, bool)
        for target, _, shapes in probe:
            assert target.startswith("socket:") and shapes[0][:2] == [GOLD, "3.5px"], (target, shapes)
    finally:
        served.close()


def _arena_page(wd, tmp_path) -> Served:
    """An Arena duel served (seed 2) and open in the browser, ready for a decision."""
    served = Served("monolith_arena_v0", {}, 2, tmp_path)
    wd.cmd("POST", "/url", {"url": served.url})
    assert _async(wd, WAIT_READY) == "ready"
    return served


def test_the_hint_says_what_the_dashed_blue_outline_is_and_labels_wrap_under_their_text(driver, tmp_path):  # noqa: F811
    """At a stage after a hex was chosen on the board (Arena: the facing of a tile placed there) the hint says
    what its dashed blue outline means, also where no option is on the board; a stage with gold targets and
    nothing chosen says only how to click. A wrapped option label goes on under its own text, not its number."""
    wd = driver
    served = _arena_page(wd, tmp_path)
    try:
        assert wd.text("#hint") == "or click one outlined in gold on the board"  # the Banner's hex: nothing chosen
        for _ in range(120):
            if wd.js("return document.querySelectorAll('#board [data-target].chosen').length"):
                break
            wd.js("const b = document.querySelectorAll('#options button.opt'); b[Math.min(1, b.length - 1)].click();")
            assert _async(wd, WAIT_READY) == "ready"
        else:
            pytest.fail("no stage after a board element was chosen")
        assert wd.js("return !document.getElementById('hint').hidden")
        assert wd.text("#hint").endswith("dashed blue on the board: chosen earlier in this move")
        wd.js("""const b = document.querySelector('#options button.opt');
b.lastChild.textContent = 'a label long enough to wrap '.repeat(12); document.getElementById('options').style.width = '220px';""")
        key = wd.js("return document.querySelector('#options button.opt').firstChild.getBoundingClientRect().left")
        lines = wd.js("""const b = document.querySelector('#options button.opt'), r = document.createRange();
r.selectNodeContents(b.lastChild); return [...r.getClientRects()].map(x => Math.round(x.left));""")
        assert len(lines) > 2 and len(set(lines)) == 1 and lines[0] > key + 10, (key, lines)
    finally:
        served.close()


def test_a_click_after_the_server_stopped_says_to_start_it_again(driver, tmp_path):  # noqa: F811
    """The server ended (Ctrl-C) while the page is open: a click plays nothing and says what to do. The
    browser's request fails as it does with no server (a kept-alive connection of the test's in-process server
    could still answer, so the failure is made in the page: fetch rejects as Chromium's does)."""
    wd = driver
    served = _arena_page(wd, tmp_path)
    served.close()
    wd.js("window.fetch = () => Promise.reject(new TypeError('Failed to fetch'));")
    wd.js("document.querySelector('#options button.opt').click();")
    text = _async(wd, """const done = arguments[arguments.length - 1], t0 = Date.now();
(function tick() { const e = document.getElementById('error').textContent;
  if (e || Date.now() - t0 > 30000) return done(e); setTimeout(tick, 50); })();""")
    assert text == "the server does not answer (was it stopped? start it again and reload this page): Failed to fetch"
    assert served.web.raw.episode_log.actions == []  # nothing was played
