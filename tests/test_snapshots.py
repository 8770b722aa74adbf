"""Snapshots of the action layout (``layout.describe()``) and the observation spec (``obs_spec.describe()``)
of every registered game, in each main config (``tests/playthroughs/configs.json``; otherwise the default
config and one per player count). A change of the numbering or of the layout fails here: it is a new env
version, or, on purpose, ``MONOLITH_REGENERATE=1 python -m pytest tests/test_snapshots.py`` rewrites
``tests/snapshots/<env_id>/<config>.txt``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import monolith_envs
from monolith_envs.core.playthrough import main_configs

ROOT = Path(__file__).resolve().parent
FOLDER = ROOT / "snapshots"
REGENERATE = os.environ.get("MONOLITH_REGENERATE") == "1"


def make(env_id, **cfg):
    return monolith_envs.make(env_id, wrapped=False, **cfg)


def cases():
    for env_id in monolith_envs.available_envs():
        for label, cfg in main_configs(env_id, make, ROOT / "playthroughs"):
            yield pytest.param(env_id, label, cfg, id=f"{env_id}-{label}")


def snapshot(env_id: str, cfg: dict) -> str:
    game = monolith_envs.make_game(env_id, **cfg)
    return (f"# {env_id} {cfg}\n## layout.describe()\n{game.layout.describe()}\n"
            f"## obs_spec.describe()\n{game.obs_spec.describe()}\n")


@pytest.mark.parametrize("env_id, label, cfg", list(cases()))
def test_layout_and_observation_spec_snapshot(env_id, label, cfg):
    path = FOLDER / env_id / f"{label}.txt"
    now = snapshot(env_id, cfg)
    if REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(now, encoding="utf-8")
    assert path.exists(), f"{path} missing: MONOLITH_REGENERATE=1 python -m pytest tests/test_snapshots.py"
    assert now == path.read_text(encoding="utf-8"), (
        f"{env_id} [{label}]: the action layout or observation spec changed (a new env version?); "
        "if intended: MONOLITH_REGENERATE=1 python -m pytest tests/test_snapshots.py")


def test_arena_snapshot_sizes():
    # docs/monolith_arena.md §6.1 and §7: 500 actions and 4532 floats with H=3, 848 and 5348 with H=6
    duel = (FOLDER / "monolith_arena_v0" / "duel.txt").read_text(encoding="utf-8")
    reinf = (FOLDER / "monolith_arena_v0" / "reinforcement.txt").read_text(encoding="utf-8")
    assert "n=500" in duel and "size=4532" in duel
    assert "n=848" in reinf and "size=5348" in reinf
