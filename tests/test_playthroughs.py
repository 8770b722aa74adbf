"""Golden playthroughs (ARCHITECTURE §6): the stored text dumps of two seeded games per main config of every
registered env id must match a fresh play.

A rule change shows here as a diff of readable text. When the change is intended, rewrite the files and
commit them with it: ``python -m monolith_envs playthrough --regenerate`` (the registered envs), or
``MONOLITH_REGENERATE=1 python -m pytest tests/test_playthroughs.py`` (also the test-only envs).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import monolith_envs
from monolith_envs.core.playthrough import cannot_print, compare, legal_text, main_configs, regenerate

FOLDER = Path(__file__).resolve().parent / "playthroughs"
REGENERATE = os.environ.get("MONOLITH_REGENERATE") == "1"
#: the env ids registered when the tests are collected (a test may register a broken env for itself later)
ENV_IDS = monolith_envs.available_envs()


def make(env_id, **cfg):
    return monolith_envs.make(env_id, wrapped=False, **cfg)


def renderable(env_id: str) -> str | None:
    return cannot_print(env_id, make)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_stored_playthroughs_match(env_id):
    assert renderable(env_id) is None  # every registered game prints its state (the command skips one that cannot)
    if REGENERATE:
        regenerate([env_id], make, FOLDER)
    problems = compare([env_id], make, FOLDER)
    assert not problems, "\n".join(problems) + "\n(if intended: python -m monolith_envs playthrough --regenerate)"


def test_every_env_has_two_games_per_main_config():
    for env_id in ENV_IDS:
        if renderable(env_id):
            continue
        labels = [label for label, _ in main_configs(env_id, make, FOLDER)]
        files = sorted(p.name for p in (FOLDER / env_id).glob("*.txt"))
        assert files == sorted(f"{label}_seed{s}.txt" for label in labels for s in (0, 1)), env_id


def test_playthrough_shows_chance_events_of_apply():
    # the test game rolls a die inside apply after every mark that does not end the game
    text = (FOLDER / "toy_tictactoe_v0" / "default_seed0.txt").read_text(encoding="utf-8")
    chance = [line for line in text.splitlines() if line.startswith("chance: ")]
    assert chance and all(line == "chance: none" or "integers(" in line for line in chance)
    assert any("integers(" in line for line in chance)


def test_legal_text_merges_index_boxes():
    import numpy as np

    from monolith_envs.core.actions import ActionLayout

    lay = ActionLayout([("PLACE", (2, 4, 3), ("slot", "hex", "rot")), ("END", (), ())])
    mask = np.zeros(lay.n, bool)
    for slot in (0, 1):
        for h in (0, 1, 3):
            for r in range(3):
                mask[lay.index("PLACE", slot, h, r)] = True
    mask[lay.index("PLACE", 0, 2, 0)] = True
    mask[lay.index("END")] = True
    assert legal_text(lay, mask) == ["PLACE(slot=0-1, hex=0-1,3, rot=0-2)", "PLACE(slot=0, hex=2, rot=0)", "END"]
