"""Browser play in headless Chromium: each game clicked through to the end against ``random``, clicks on the
board (a hex, a socket, a space), the narration and the result, and a malformed request sent from the page.

Skipped when ``chromium`` / ``chromedriver`` are not installed, unless ``MONOLITH_ENVS_REQUIRE_BROWSER=1``
(CI), where a missing browser fails (the same driver as the HTML replay's test).
"""

from __future__ import annotations

import base64
import io
import re

import numpy as np
import pytest

from tests.core.test_html_replay import WebDriver, _browser

from .helpers import SHORT, Served

#: clicks the first enabled option button whenever the page is ready, until the game is over
PLAY_TO_END = """
const done = arguments[arguments.length - 1];
const t0 = Date.now();
let clicks = 0;
(function tick() {
  const st = document.body.dataset.state;
  if (st === "over") return done({clicks: clicks});
  if (Date.now() - t0 > 40000) return done({error: "timeout", state: st, clicks: clicks});
  if (st === "ready") {
    const b = document.querySelector("#options button.opt:not([disabled])");
    if (b) { b.click(); clicks++; }
  }
  setTimeout(tick, 0);
})();
"""

WAIT_READY = """
const done = arguments[arguments.length - 1];
const t0 = Date.now();
(function tick() {
  const st = document.body.dataset.state;
  if (st === "ready" || st === "over" || Date.now() - t0 > 20000) return done(st);
  setTimeout(tick, 10);
})();
"""


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    chrome, drv = _browser()
    wd = WebDriver(chrome, drv, tmp_path_factory.mktemp("profile"))
    wd.cmd("POST", "/timeouts", {"script": 60000})
    yield wd
    wd.close()


def _async(wd, script):
    return wd.cmd("POST", "/execute/async", {"script": script, "args": []})


@pytest.mark.parametrize("eid,cfg,seed", SHORT, ids=[e for e, _, _ in SHORT])
def test_a_game_clicked_through_to_the_end_shows_the_engines_result(driver, tmp_path, eid, cfg, seed):
    served = Served(eid, cfg, seed, tmp_path)
    try:
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        assert wd.text("#status").startswith(f"{eid}, seed {seed}: you are P0; opponents: P1 random")
        assert wd.js("return document.querySelector('#board svg') !== null")
        if eid == "monolith_arena_v0":  # the first decision names a hex: click it on the board
            assert wd.text("#stage-title") == "choose the hex:"
            assert wd.text("#hint") == "or click one outlined in gold on the board"
            assert wd.js("return document.querySelectorAll('#board .target').length") == 19
            wd.click('#board [data-target="hex:9"]')
            assert _async(wd, WAIT_READY) == "ready"
            assert served.web.raw.episode_log.actions[0] == served.web.game.layout.index("SELECT_HEX", 9)
            assert "P0 places its Banner on hex 09" in wd.text("#narration")
        else:  # reach a decision that names a board element (a space, a socket), then choose it on the board
            kind = {"monolith_strategy_v0": "socket:", "the_monolith_v0": "space:"}[eid]
            for _ in range(80):
                targets = wd.js("return [...document.querySelectorAll('#board .target')].map(e => e.dataset.target)")
                if targets:
                    break
                wd.click("#options button.opt")
                assert _async(wd, WAIT_READY) == "ready"
            assert targets and all(t.startswith(kind) for t in targets), targets
            before = (served.web.raw.num_decisions, wd.text("#auto"))
            wd.click(f'#board [data-target="{targets[-1]}"]')
            assert _async(wd, WAIT_READY) in ("ready", "over")
            assert (served.web.raw.num_decisions, wd.text("#auto")) != before
        played = _async(wd, PLAY_TO_END)
        assert "error" not in played and played["clicks"] > 0, played
        web = served.web
        game, state = web.game, web.raw.game_state
        assert game.is_terminal(state)
        n = web.raw.num_decisions
        entries = wd.js("return [...document.querySelectorAll('#narration .entry')].map(e => [...e.children]"
                        ".map(ln => ln.textContent).join('\\n'))")
        assert len(entries) == n == len(web.narration)
        # one block per narrated line, its terminal wrapping undone (the panel wraps it at its own width)
        assert entries == ["\n".join(re.sub(r"\n\s*", " ", x) for x in e["lines"]) for e in web.narration]
        opp = [e for e in web.narration if e["seat"] == 1]
        assert opp and wd.js("return document.querySelectorAll('#narration .entry:not(.you)').length") == len(opp)
        outcome = game.outcome(state)
        verdict = {"win": "you win", "loss": "you lose", "draw": "a draw"}[outcome[0].value]
        assert wd.text("#verdict") == f"game over after {n} decisions: {verdict}"
        # no empty decision panel above the result (its flex display overrode the hidden attribute)
        assert wd.js("return getComputedStyle(document.getElementById('decision')).display") == "none"
        rows = wd.js("return [...document.querySelectorAll('#returns tbody tr')]"
                     ".map(r => [...r.cells].map(c => c.textContent))")
        ret = game.returns(state)
        assert rows == [[f"P{i}" + (" (you)" if i == 0 else " (random)"), outcome[i].value,
                         f"{round(float(ret[i]), 4):g}"] for i in range(len(ret))]
        hidden = web.pieces.final_reveal(game, state, 0)  # Strategy's hands and Runes, The Monolith's objectives
        assert bool(hidden) == (eid != "monolith_arena_v0")
        assert wd.js("return document.getElementById('hidden-list').hidden") is (not hidden)
        assert wd.js("return [...document.querySelectorAll('#hidden-list li')].map(e => e.textContent)") == hidden
        href = wd.js("return document.getElementById('replay-link').getAttribute('href')")
        assert href == f"/replay/{web.game_id}.html"
        wd.cmd("POST", "/url", {"url": served.url.rstrip("/") + href})
        assert wd.text("#status") == f"step 0 / {n}"
    finally:
        served.close()


def test_new_game_clicks_on_sockets_and_a_malformed_request_from_the_page(driver, tmp_path):
    from PIL import Image

    served = Served("monolith_strategy_v0", {"num_players": 2}, 2, tmp_path)
    try:
        wd = driver
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        before = served.web.raw.num_decisions, served.web.game_id
        answer = _async(wd, """
const done = arguments[arguments.length - 1];
Promise.all(['{bad', '{"game_id": 1, "action": 0}', JSON.stringify({game_id: "x", action: 0})].map(body =>
  fetch('/api/action', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: body})
    .then(r => r.json().then(d => [r.status, d.error])))).then(done);
""")
        assert [a[0] for a in answer] == [400, 400, 409]
        assert "not valid UTF-8 JSON" in answer[0][1] and "game_id must be a string" in answer[1][1]
        assert (served.web.raw.num_decisions, served.web.game_id) == before
        # reach a decision that names a socket, then choose it on the board
        for _ in range(60):
            targets = wd.js("return [...document.querySelectorAll('#board .target')].map(e => e.dataset.target)")
            if targets:
                break
            wd.click("#options button.opt")
            assert _async(wd, WAIT_READY) == "ready"
        assert targets and all(t.startswith("socket:") for t in targets), targets
        shot = Image.open(io.BytesIO(base64.b64decode(wd.cmd("GET", "/screenshot")))).convert("RGB")
        n0 = served.web.raw.num_decisions
        title = wd.text("#stage-title")
        wd.click(f'#board [data-target="{targets[0]}"]')
        assert _async(wd, WAIT_READY) in ("ready", "over")
        assert served.web.raw.num_decisions > n0 or wd.text("#stage-title") != title
        assert shot.size[0] >= 900 and len(np.unique(np.asarray(shot).reshape(-1, 3), axis=0)) > 20  # the board is drawn in colour
        assert "error" not in _async(wd, PLAY_TO_END)
        gid = served.web.game_id
        wd.click("#new-game")
        assert _async(wd, WAIT_READY) == "ready" and served.web.game_id != gid
        assert wd.js("return document.getElementById('result').hidden") is True
        assert wd.js("return document.querySelectorAll('#narration .entry').length") == len(served.web.narration)
    finally:
        served.close()
