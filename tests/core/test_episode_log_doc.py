"""The example log of docs/episode_log.md is a real one: it loads and replays with its chance events checked
(it once showed ``"chance": []`` for a game that rolls a die, which the replay refused)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import tests.conftest  # noqa: F401  (registers toy_tictactoe_v0)
from monolith_envs.__main__ import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "episode_log.md"


def test_the_documented_example_replays(tmp_path, capsys):
    example = re.search(r"```json\n(\{\"format\".*?)\n```", DOC.read_text(), re.S).group(1)
    log = json.loads(example)
    assert log["chance"], "the toy game rolls a die after a mark that does not end the game"
    path = tmp_path / "ttt.json"
    path.write_text(example)
    assert main(["replay", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"chance events checked: {len(log['chance'])} (the replayed draws are the logged ones)" in out
