"""``replay FILE --html OUT``: the page's data, and the page itself driven in headless Chromium.

The browser test talks to ``chromedriver`` over its W3C WebDriver HTTP interface (standard library only).
It is skipped when ``chromium`` / ``chromedriver`` are not installed, unless ``MONOLITH_ENVS_REQUIRE_BROWSER=1``
(set by ``.ci/run``, which installs both), where a missing browser fails.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import monolith_envs
from agents import RandomAgent, play_match
from monolith_envs.__main__ import main as cli
from monolith_envs.core.html_replay import episode_frames
from monolith_envs.core.replay import EpisodeLog, load_log


def _make(eid, **cfg):
    return monolith_envs.make(eid, wrapped=False, **cfg)


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    env = _make("monolith_arena_v0", monolith_module=True)
    res = play_match(env, [RandomAgent(), RandomAgent()], seed=3)
    path = tmp_path_factory.mktemp("log") / "game.json"
    env.episode_log.save(path)
    return path, res


@pytest.fixture(scope="module")
def page(game_log):
    path, res = game_log
    out = path.with_suffix(".html")
    assert cli(["replay", str(path), "--html", str(out)]) == 0
    return out


def _page_data(text: str) -> dict:
    tag = '<script id="frames" type="application/json">'
    start = text.index(tag) + len(tag)
    return json.loads(text[start:text.index("</script>", start)])


def _unpack(data: dict, key: str) -> list:
    """Each frame's ``key`` text rebuilt from the page's line table and splices (as the page's script does)."""
    cur, out = [], []
    for f in data["frames"]:
        for i1, i2, new in reversed(f[key]):
            cur[i1:i2] = new
        out.append("\n".join(data["lines"][n] for n in cur))
    return out


def test_page_holds_every_decision_and_the_result(game_log, page):
    path, res = game_log
    log = load_log(path)
    text = page.read_text()
    outside = text.replace("http://www.w3.org/2000/svg", "")  # the SVG namespace name, nothing fetched
    assert "http://" not in outside and "https://" not in outside and 'src="' not in text  # nothing loaded
    data = _page_data(text)
    frames = data["frames"]
    assert len(frames) == res.decisions + 1 == len(log.actions) + 1
    layout = _make(log.env_id, **log.config).game.layout
    for k, (f, a) in enumerate(zip(frames, log.actions)):
        assert (f["step"], f["action"], f["action_name"]) == (k, a, layout.decode(a))
    assert frames[-1]["action"] is None and frames[-1]["result"].startswith("game over: P0 ")
    assert f"P{res.winners[0]} win" in frames[-1]["result"] and "; returns: P0 " in frames[-1]["result"]
    assert frames[-1]["outcome"][res.winners[0]] == "win" and len(frames[-1]["returns"]) == 2
    env = _make(log.env_id, **log.config)  # the result says why the game ended, as the game does
    env.reset(seed=log.seed)
    words = []  # each action in the game's words, said in the state it was played in
    for a in log.actions:
        words.append(env.game.describe_action(env.game_state, a))
        env.step(a)
    assert [f["action_text"] for f in frames[:-1]] == words and frames[-1]["action_text"] is None
    assert any(w.startswith("places ") and " on hex " in w for w in words)  # Arena's PLACE in words
    assert not [w for w in words if w.split("(")[0].isupper()]  # no layout name (PLACE(...), END_TURN)
    assert frames[-1]["result"].endswith(f" ({env.game.end_reason(env.game_state)})")
    full = episode_frames(log, _make)
    assert _unpack(data, "svg") == [f["svg"] for f in full] and _unpack(data, "text") == [f["text"] for f in full]
    first = episode_frames(EpisodeLog(log.env_id, log.config, log.seed, log.actions[:2]), _make)
    assert [f["svg"] for f in first] == [f["svg"] for f in full[:3]]
    assert first[-1]["result"].startswith("the log ends here (not a terminal state)")


#: size in bytes of the page of this same log (Arena with the Monolith module, two random agents, seed 3,
#: 136 decisions) when it held one PNG per decision
PNG_PAGE_BYTES = 1_888_022


def test_page_is_at_most_a_fifth_of_the_png_page(game_log, page):
    path, res = game_log
    assert res.decisions == 136  # the log the stored figure was measured on
    size = page.stat().st_size
    assert size <= PNG_PAGE_BYTES / 5, size


def test_chance_events_of_each_step_are_on_the_page(tmp_path):
    from tests.toy_game import ENV_ID

    env = _make(ENV_ID)
    seed = next(s for s in range(100) if play_match(env, [RandomAgent(), RandomAgent()], seed=s) and env.episode_log.chance)
    log = env.episode_log
    frames = episode_frames(log, _make)
    for f in frames[:-1]:
        assert f["chance"] == [str(e) for e in log.chance_at(f["step"])]
    assert sum(len(f["chance"]) for f in frames) == len(log.chance) > 0, seed
    assert frames[-1]["chance"] == []


# ------------------------------------------------------------------------------------- headless Chromium
CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


def _browser():
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chrome and driver):
        if os.environ.get("MONOLITH_ENVS_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium and chromedriver are required here (apt-get install -y chromium chromium-driver)")
        pytest.skip("chromium / chromedriver not installed (apt-get install -y chromium chromium-driver)")
    return chrome, driver


class WebDriver:
    """The few W3C WebDriver commands the test needs."""

    def __init__(self, chrome: str, driver: str, profile: Path, window: str = "1000,800"):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen([driver, f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self._call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chrome, "args": CHROME_ARGS + [f"--window-size={window}", f"--user-data-dir={profile}"]}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]

    def _call(self, method: str, url: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())["value"]

    def cmd(self, method: str, url: str, body: dict | None = None):
        return self._call(method, f"/session/{self.session}{url}", body)

    def element(self, css: str) -> str:
        found = self.cmd("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(found.values()))

    def click(self, css: str) -> None:
        self.cmd("POST", f"/element/{self.element(css)}/click", {})

    def text(self, css: str) -> str:
        return self.cmd("GET", f"/element/{self.element(css)}/text")

    def key(self, key: str) -> None:
        """Press and release ``key`` (a character, or a WebDriver key code such as ``"\\ue010"``, End)."""
        keys = [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        self.cmd("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": keys}]})

    def js(self, script: str):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": []})

    def close(self) -> None:
        try:
            self.cmd("DELETE", "")
        finally:
            self.proc.terminate()
            self.proc.wait(10)


def test_page_loads_steps_and_shows_pictures_in_headless_chromium(game_log, page, tmp_path):
    from PIL import Image

    chrome, driver = _browser()
    path, res = game_log
    log = load_log(path)
    layout = _make(log.env_id, **log.config).game.layout
    wd = WebDriver(chrome, driver, tmp_path / "profile")
    try:
        wd.cmd("POST", "/url", {"url": page.as_uri()})
        n = res.decisions
        assert wd.text("#status") == f"step 0 / {n}"
        assert wd.js("return document.querySelectorAll('#moves li').length") == n + 1
        frames = _page_data(page.read_text())["frames"]
        who, said = frames[1]["player"], frames[1]["action_text"]
        assert wd.js("return document.querySelectorAll('#moves li')[1].textContent") == f"{who} {said}"
        assert wd.js("return document.querySelectorAll('#moves li')[1].title") == (
            f"{layout.decode(log.actions[1])} [{log.actions[1]}]")
        assert wd.text("#action") == f"P0 {frames[0]['action_text']}"
        assert wd.text("#code") == f"{layout.decode(log.actions[0])}, action {log.actions[0]}"
        assert wd.text("#chance") == "" or wd.text("#chance").startswith("random draws (episode log): ")
        for k in range(1, 4):
            wd.click("#next")
            assert wd.text("#status") == f"step {k} / {n}"
            assert wd.text("#action").endswith(frames[k]["action_text"])
            assert wd.text("#code") == f"{layout.decode(log.actions[k])}, action {log.actions[k]}"
        wd.click("#prev")
        assert wd.text("#status") == f"step 2 / {n}" and wd.js("return document.getElementById('slider').value") == "2"
        assert wd.js("return location.hash") == "#step=2"
        wd.click("#moves li:nth-child(5)")
        assert wd.text("#status") == f"step 4 / {n}" and wd.js("return location.hash") == "#step=4"
        wd.cmd("POST", "/url", {"url": page.as_uri() + "#step=40"})
        assert wd.text("#status") == f"step 40 / {n}"
        assert wd.text("#code") == f"{layout.decode(log.actions[40])}, action {log.actions[40]}"
        svg40 = _unpack(_page_data(page.read_text()), "svg")[40]
        shown = wd.js("return [...document.querySelectorAll('#frame svg text')].map(t => t.textContent)")
        assert shown == [t.text or "" for t in ET.fromstring(svg40).iter("{http://www.w3.org/2000/svg}text")]
        assert wd.js("return document.getElementById('returns').hidden") is True
        wd.click("#last")
        assert wd.text("#status") == f"step {n} / {n}" and wd.text("#action").startswith("game over:")
        assert wd.js("return document.querySelector('#frame svg').getAttribute('width')") == "560"
        assert wd.js("return document.getElementById('returns').hidden") is False
        rows = wd.js("return [...document.querySelectorAll('#returns tbody tr')].map(r => r.textContent)")
        end = _page_data(page.read_text())["frames"][-1]
        assert rows == [f"P{i}{o}{r:g}" for i, (o, r) in enumerate(zip(end["outcome"], end["returns"]))]
        assert end["returns"] == [round(float(r), 4) for r in res.returns]
        wd.click("#play")  # at the last step, play starts again from the first
        assert wd.text("#status").startswith("step ") and int(wd.text("#status").split()[1]) < n
        wd.click("#play")  # pause
        wd.click("#last")
        shot = Image.open(io.BytesIO(base64.b64decode(wd.cmd("GET", "/screenshot")))).convert("RGB")
    finally:
        wd.close()
    w, h = shot.size
    assert 900 <= w <= 1000 and 600 <= h <= 800  # the window, less any browser chrome
    px = np.asarray(shot).reshape(-1, 3)
    background = np.array([246, 244, 238])
    assert (np.abs(px.astype(int) - background).sum(axis=1) > 30).mean() > 0.15  # the board and text are drawn
    assert len(np.unique(px, axis=0)) > 20  # owner colours, text, borders


#: where the controls and the current move are, in the window's coordinates
_LAYOUT_JS = """
const c = document.getElementById('controls').getBoundingClientRect();
const m = document.getElementById('moves'), b = m.getBoundingClientRect();
const li = m.querySelector('li.now'), r = li.getBoundingClientRect();
return {controls: [c.top, c.bottom], box: [b.top + m.clientTop, b.top + m.clientTop + m.clientHeight],
        now: [r.top, r.bottom], index: [...m.children].indexOf(li), scrollY: window.scrollY,
        height: window.innerHeight, status: document.getElementById('status').textContent};
"""


def _assert_in_view(at: dict, k: int, n: int, page_scrolled: bool = False) -> None:
    assert at["status"] == f"step {k} / {n}" and at["index"] == k, at
    assert 0 <= at["controls"][0] and at["controls"][1] <= at["height"], at  # the controls on screen
    assert at["box"][0] - 0.5 <= at["now"][0] and at["now"][1] <= at["box"][1] + 0.5, at  # inside the list
    if not page_scrolled:
        assert at["scrollY"] == 0, at  # stepping never scrolls the page
        assert at["now"][1] <= at["height"], at  # the current move on screen


@pytest.mark.parametrize("window", ["1366,768", "1920,1080"])
def test_controls_and_current_move_stay_on_screen(game_log, page, tmp_path, window):
    """Stepping to the end (buttons, End key, slider) leaves the controls and the current move in view."""
    chrome, driver = _browser()
    n = game_log[1].decisions
    wd = WebDriver(chrome, driver, tmp_path / "profile", window=window)
    try:
        wd.cmd("POST", "/url", {"url": page.as_uri()})
        for _ in range(40):
            wd.click("#next")
        _assert_in_view(wd.js(_LAYOUT_JS), 40, n)
        wd.key("\ue010")  # End: the last step, and not also the browser's scroll to the bottom of the page
        _assert_in_view(wd.js(_LAYOUT_JS), n, n)
        wd.key("\ue011")  # Home
        _assert_in_view(wd.js(_LAYOUT_JS), 0, n)
        wd.click("#last")
        _assert_in_view(wd.js(_LAYOUT_JS), n, n)
        wd.js("const s = document.getElementById('slider'); s.value = 70; s.dispatchEvent(new Event('input'));")
        _assert_in_view(wd.js(_LAYOUT_JS), 70, n)
        wd.js("window.scrollTo(0, 300)")  # the reader scrolls the page: the controls stay at the top
        wd.click("#last")
        _assert_in_view(wd.js(_LAYOUT_JS), n, n, page_scrolled=True)
    finally:
        wd.close()


#: where the board and the list of moves are, and the current move, in the window's coordinates
_SIDE_JS = """
const f = document.getElementById('frame').getBoundingClientRect();
const m = document.getElementById('moves').getBoundingClientRect();
const r = document.querySelector('#moves li.now').getBoundingClientRect();
return {frame: [f.left, f.right, f.top], moves: [m.left, m.right, m.top], now: [r.top, r.bottom],
        width: document.documentElement.clientWidth, height: window.innerHeight};
"""


def _replay_page(tmp_path, env_id: str, players: int, seed: int):
    """The HTML replay page (its path) of a random ``players``-seat game of ``env_id`` from ``seed``."""
    env = _make(env_id, num_players=players)
    play_match(env, [RandomAgent()] * players, seed=seed)
    log, out = tmp_path / "game.json", tmp_path / "game.html"
    env.episode_log.save(log)
    assert cli(["replay", str(log), "--html", str(out)]) == 0
    return out


@pytest.mark.parametrize("window,beside", [("1366,768", True), ("700,900", False)])
def test_a_wide_board_leaves_the_list_of_moves_beside_it(tmp_path, window, beside):
    """The Monolith's drawing (1125 px wide) shrinks to leave the list of moves beside it in a 1366x768
    window, its current move on screen; in a narrow window the list goes below the board."""
    out = _replay_page(tmp_path, "the_monolith_v0", 4, 1)
    chrome, driver = _browser()
    wd = WebDriver(chrome, driver, tmp_path / "profile", window=window)
    try:
        wd.cmd("POST", "/url", {"url": out.as_uri() + "#step=60"})
        at = wd.js(_SIDE_JS)
        if beside:
            assert at["frame"][1] <= at["moves"][0] and at["moves"][1] <= at["width"], at  # side by side, in the window
            assert at["frame"][1] - at["frame"][0] < 1125, at  # the board shrank to make room
            assert 0 <= at["now"][0] and at["now"][1] <= at["height"], at  # the current move on screen
        else:
            assert at["moves"][2] > at["frame"][2], at  # below the board
            assert at["moves"][1] <= at["width"] + 0.5 and at["frame"][1] <= at["width"] + 0.5, at
    finally:
        wd.close()


@pytest.mark.parametrize("window,grows", [("1920,1400", True), ("1920,1080", False), ("1366,768", False)])
def test_the_board_fills_the_windows_height_and_the_move_is_said_to_be_played_from_it(page, tmp_path, window, grows):
    """The board was drawn at its own size, leaving most of a large screen empty: it now takes the window's
    height under the head (larger than drawn in a tall window, within the room beside the moves), the
    page sets a phone's viewport, and a grey label says the move is the one played from the position shown."""
    text = page.read_text()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
    chrome, driver = _browser()
    wd = WebDriver(chrome, driver, tmp_path / "profile", window=window)
    try:
        wd.cmd("POST", "/url", {"url": page.as_uri() + "#step=5"})
        at = wd.js("""const s = document.querySelector('#frame svg').getBoundingClientRect();
            const m = document.getElementById('moves').getBoundingClientRect();
            const h = document.getElementById('head').getBoundingClientRect();
            return {w: s.width, bottom: s.bottom, right: s.right, top: s.top, moves: m.left, head: h.bottom,
                    drawn: +document.querySelector('#frame svg').getAttribute('width'), height: innerHeight};""")
        assert (at["w"] > at["drawn"] + 20) == grows, at
        assert at["right"] <= at["moves"], at  # the list of moves stays beside it
        # the whole board in the window under the head, or (a low window) at least 3/4 of its drawn size
        assert at["bottom"] <= at["height"] + 1 or abs(at["w"] - 0.75 * at["drawn"]) <= 1, at
        assert at["w"] >= 0.75 * at["drawn"] - 1, at
        assert wd.text("#action-label") == "the move from this position:"
        wd.click("#last")
        assert wd.text("#action-label") == "" and wd.text("#action").startswith("game over:")
    finally:
        wd.close()


def test_the_board_keeps_its_size_from_step_to_step_and_a_phone_scrolls_the_head_away(tmp_path):
    """The head's height changes with a step's chance line; the board, sized to the room under it, took a
    new size at such steps: it now allows for the tallest head seen, so stepping never enlarges it again.
    Under 760 px wide (a phone) the head is not sticky (it covered half the screen) and the narration box is
    4 lines high."""
    out = _replay_page(tmp_path, "monolith_strategy_v0", 4, 2)
    chrome, driver = _browser()
    wd = WebDriver(chrome, driver, tmp_path / "profile", window="1280,1000")
    try:
        wd.cmd("POST", "/url", {"url": out.as_uri()})
        widths, heads = [], []
        for _ in range(40):
            widths.append(wd.js("return document.querySelector('#frame svg').getBoundingClientRect().width"))
            heads.append(wd.js("return document.getElementById('head').offsetHeight"))
            wd.click("#next")
        assert len(set(heads)) > 1, heads  # the head's height did change on the way
        assert all(b <= a for a, b in zip(widths, widths[1:])), widths  # never back up again
        assert widths[-1] == widths[-10], widths  # settled
        assert wd.js("return getComputedStyle(document.getElementById('head')).position") == "sticky"
    finally:
        wd.close()
    wd = WebDriver(chrome, driver, tmp_path / "profile2", window="700,900")
    try:
        wd.cmd("POST", "/url", {"url": out.as_uri()})
        assert wd.js("return getComputedStyle(document.getElementById('head')).position") == "static"
        box = wd.js("return [document.getElementById('narration').offsetHeight, "
                    "parseFloat(getComputedStyle(document.getElementById('narration')).fontSize)]")
        assert box[0] <= 5.5 * box[1], box
    finally:
        wd.close()



def test_a_low_window_scrolls_a_head_over_45_percent_away_and_the_returns_stay_out_of_it(tmp_path):
    """At 800x600 the sticky head with the returns table of a 4-seat game covered about half the window: the
    table is now under the head, and a head over 45% of a low window is not sticky (until the window is sized
    again)."""
    out = _replay_page(tmp_path, "monolith_strategy_v0", 4, 2)
    chrome, driver = _browser()
    position = "return getComputedStyle(document.getElementById('head')).position"
    for window, sticky in (("1000,420", False), ("1000,700", True)):
        wd = WebDriver(chrome, driver, tmp_path / f"profile{window}", window=window)
        try:
            wd.cmd("POST", "/url", {"url": out.as_uri()})
            wd.click("#last")
            share = wd.js("return document.getElementById('head').offsetHeight / innerHeight")
            assert wd.js(position) == ("sticky" if sticky else "static") and (share <= 0.45) == sticky, share
            assert wd.js("return document.getElementById('returns').hidden") is False
            assert wd.js("return document.getElementById('head').contains(document.getElementById('returns'))") is False
        finally:
            wd.close()
