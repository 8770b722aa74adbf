"""The replay page's title comes from the episode log's note, which anyone can edit: a note that holds the
template's placeholder names, or markup, must show as that text and leave the page's data intact."""

from __future__ import annotations

import html
import json
import re

import monolith_envs
from agents import RandomAgent, play_match
from monolith_envs.core.html_replay import episode_frames, pack_frames, render_html


def _make(eid, **cfg):
    return monolith_envs.make(eid, wrapped=False, **cfg)


def test_a_note_naming_the_placeholders_or_holding_markup_is_shown_as_text():
    env = _make("the_monolith_v0", num_players=2, num_days=1)
    play_match(env, [RandomAgent(), RandomAgent()], seed=1)
    log = env.episode_log
    frames = episode_frames(log, _make)
    for note in ("__FRAMES__ and __TITLE__", "</title><script>alert(1)</script> __FRAMES__"):
        log.note = note
        page = render_html(log, frames)
        title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
        assert html.unescape(title) == f"{log.env_id} seed {log.seed}, {len(log.actions)} decisions ({note})"
        assert re.search(r"<h3>(.*?)</h3>", page, re.S).group(1) == title
        assert "<script>alert" not in page and page.count('<script id="frames"') == 1
        data = re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S).group(1)
        assert json.loads(data) == json.loads(json.dumps(pack_frames(frames)))
