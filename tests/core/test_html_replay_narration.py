"""The replay page says what each move did, in the game's own narration (``game.narrate``, from
``monolith_envs/<game>/narration.py``: the lines terminal and browser play print): Arena's Battle lines,
Strategy's card resolution, The Monolith's rest scoring.  A game without ``narrate`` (a user-registered
one) still gets its page, without narration."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import monolith_envs
from agents import RandomAgent, play_match
from agents.terminal import pieces_for
from monolith_envs.core.html_replay import episode_frames, render_html, write_html_replay
from monolith_envs.core.narration import WIDTH, narrator
from tests.toy_game import ENV_ID as TOY
from tests.toy_game import ToyGame, module_for


def _make(eid, **cfg):
    return monolith_envs.make(eid, wrapped=False, **cfg)


def _log(eid: str, seed: int, **cfg):
    env = _make(eid, **cfg)
    play_match(env, [RandomAgent() for _ in range(env.game.num_players)], seed=seed)
    return env.episode_log


def _page_frames(page: str) -> list[dict]:
    data = re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S).group(1)
    return json.loads(data)["frames"]


def _terminal_lines(log, step: int) -> list[str]:
    """What terminal play prints for the action of ``step`` (its pieces' ``narrate``), line by line."""
    env = _make(log.env_id, **log.config)
    env.reset(seed=log.seed)
    for a in log.actions[:step]:
        env.step(a)
    game, before, seat = env.game, env.game.clone(env.game_state), env.game.current_player(env.game_state)
    env.step(log.actions[step])
    return "\n".join(pieces_for(log.env_id).narrate(game, before, env.game_state, log.actions[step], seat)).split("\n")


@pytest.fixture(scope="module")
def arena():
    log = _log("monolith_arena_v0", 3)
    return log, episode_frames(log, _make)


def test_an_arena_battle_is_narrated_at_its_step(arena):
    log, frames = arena
    battle = next(f for f in frames if "  a Battle starts (the board is full)" in f["narration"])
    assert battle["step"] == 105
    assert battle["narration"][:3] == ["P0 places Landsknecht on hex 09 facing W", "  a Battle starts (the board is full)",
                                       "  Battle:"]
    assert "      P0 Landsknecht (hex 09) hits P1 Pupil on hex 08 for 2" in battle["narration"]
    assert "      P1 Pupil is removed from hex 08" in battle["narration"]
    assert battle["narration"][-2:] == ["    P1 HP 20 -> 18 (-2)", "  the Battle ends"]
    # the same lines as terminal (and browser) play, each of at most 80 columns
    assert battle["narration"] == _terminal_lines(log, 105)
    assert all(len(x) <= WIDTH for f in frames for x in f["narration"])
    assert all(f["narration"][0] == f"{f['player']} {f['action_text']}" for f in frames[:-1])
    assert frames[-1]["narration"] == []  # the final state: no move


def test_the_page_holds_the_narration_as_escaped_text(arena):
    log, frames = arena
    page = render_html(log, frames)
    assert [f["narration"] for f in _page_frames(page)] == [f["narration"] for f in frames]
    assert '<div id="narration" hidden></div>' in page
    assert '$("narration").textContent = said.join("\\n");' in page  # text, never markup
    # the game's lines (at most 80 columns) are not wrapped again; the box keeps one height
    assert re.search(r"#narration \{[^}]*font-family: monospace;[^}]*white-space: pre;[^}]*height: 8.5em;", page)


def test_strategy_card_resolution_is_narrated():
    log = _log("monolith_strategy_v0", 1, num_players=2)
    frames = episode_frames(log, _make)
    assert frames[5]["narration"] == [
        "P0 chooses P1",
        "  then R21 Rune of Thieves (placer: take 1 gem from a chosen opponent):",
        "      P0: gems 0 -> 1; P1: gems 1 -> 0"]
    resolves = [f for f in frames if "  every die is placed: the cards resolve" in f["narration"]]
    assert resolves and all(f["narration"] == _terminal_lines(log, f["step"]) for f in resolves[:2])


def test_the_monoliths_rest_scoring_is_narrated():
    log = _log("the_monolith_v0", 1, num_players=2, num_days=1)
    frames = episode_frames(log, _make)
    assert frames[32]["narration"] == ["P0 relents", "  the action phase is over: the rest phase scores"]
    assert frames[33]["narration"][:3] == ["P0 passes (its objectives stay hidden)",
                                           "  final scoring: +1 favour per objective still held",
                                           "  P0: favour 3 -> 4 (1 objective still held, +1 each)"]
    assert frames[33]["narration"] == _terminal_lines(log, 33)


def test_a_user_game_without_narration_gets_a_page_without_it(tmp_path):
    log = _log(TOY, 0)
    assert narrator(_make(TOY).game) is None
    frames = episode_frames(log, _make)
    assert len(frames) == len(log.actions) + 1 and all(f["narration"] == [] for f in frames)
    out = write_html_replay(log, tmp_path / "toy.html", _make)
    page = out.read_text()
    assert all(f["narration"] == [] for f in _page_frames(page)) and '<div id="narration" hidden></div>' in page


class _SaysToy(ToyGame):
    """The toy game with a narration of its own, whose lines hold markup; it fails on its third move."""

    def narrate(self, before, after, action, seat):
        if before.decisions == 2:
            raise RuntimeError("no words")
        return [f"P{seat} <b>marks</b> cell {action}", f"  {after.decisions} decisions"]


def test_a_user_games_own_narration_is_shown_and_a_failing_one_does_not_stop_the_page(tmp_path):
    module = module_for(_SaysToy, TOY)
    log = _log(TOY, 0)

    def make(eid, **cfg):
        return module.raw_env(**cfg)

    frames = episode_frames(log, make)
    assert frames[0]["narration"] == [f"P0 <b>marks</b> cell {log.actions[0]}", "  1 decisions"]
    assert frames[2]["narration"] == ["(no narration: RuntimeError: no words)"]
    page = render_html(log, frames)
    assert "<b>" not in page  # inside the page's data every "<" is escaped
    assert _page_frames(page)[0]["narration"] == frames[0]["narration"]
    assert html.escape("<b>") not in page  # and not turned into an entity either: the script sets it as text


def test_the_narration_shows_under_the_move_in_headless_chromium(arena, tmp_path):
    from tests.core.test_html_replay import WebDriver, _browser

    log, frames = arena
    out = tmp_path / "arena.html"
    out.write_text(render_html(log, frames))
    chrome, driver = _browser()
    wd = WebDriver(chrome, driver, tmp_path / "profile")
    try:
        wd.cmd("POST", "/url", {"url": out.as_uri() + "#step=105"})
        assert wd.text("#status") == f"step 105 / {len(frames) - 1}"
        shown = wd.js("return document.getElementById('narration').textContent")
        # the lines after the move's own, which the bold line above already says
        assert frames[105]["narration"][0] == wd.text("#action")
        assert shown == "\n".join(frames[105]["narration"][1:])
        assert "P0 Landsknecht (hex 09) hits P1 Pupil on hex 08 for 2" in wd.text("#narration")
        assert wd.js("return getComputedStyle(document.getElementById('narration')).whiteSpace") == "pre"
        box = "return document.getElementById('narration').getBoundingClientRect().height"
        height = wd.js(box)
        at = wd.js("const a = document.getElementById('action').getBoundingClientRect(),"
                   " n = document.getElementById('narration').getBoundingClientRect();"
                   " return [a.bottom, n.top, n.bottom, document.getElementById('head').getBoundingClientRect().bottom]")
        assert at[0] <= at[1] and at[2] <= at[3], at  # under the move, inside the sticky head
        wd.click("#last")  # the final state: no move, said in the box, of the same height (the board stays put)
        assert wd.js("return document.getElementById('narration').textContent") == (
            "(the final position: no move is played from it)")
        assert wd.js("return document.getElementById('narration').hidden") is False and wd.js(box) == height
    finally:
        wd.close()


#: run with only the package importable (``agents`` refused): every game's page holds narration
_WITHOUT_AGENTS = """
import sys

class NoAgents:
    def find_spec(self, name, path=None, target=None):
        if name == "agents" or name.startswith("agents."):
            raise ImportError("agents/ is not installed")

sys.meta_path.insert(0, NoAgents())
import numpy as np
import monolith_envs
from monolith_envs.core.html_replay import episode_frames

def make(eid, **cfg):
    return monolith_envs.make(eid, wrapped=False, **cfg)

assert monolith_envs.__file__.startswith(sys.argv[1]), monolith_envs.__file__
for eid, cfg in (("monolith_arena_v0", {}), ("monolith_strategy_v0", {"num_players": 2}),
                 ("the_monolith_v0", {"num_players": 2, "num_days": 1})):
    env = make(eid, **cfg)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(int(rng.choice(env.legal_actions())))
    frames = episode_frames(env.episode_log, make)
    assert all(f["narration"] for f in frames[:-1]), eid
    assert not any(x.startswith("(no narration") for f in frames for x in f["narration"]), eid
assert not [m for m in sys.modules if m == "agents" or m.startswith("agents.")]
print("ok")
"""


def test_the_package_narrates_without_the_repositorys_agents(tmp_path):
    """The replay page's narration is the package's own: it works where only ``monolith_envs`` is installed."""
    package = Path(__file__).resolve().parents[2] / "monolith_envs"
    (tmp_path / "monolith_envs").symlink_to(package)
    proc = subprocess.run([sys.executable, "-c", _WITHOUT_AGENTS, str(tmp_path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]
