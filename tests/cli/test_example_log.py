"""The README's replay example uses ``examples/arena_episode.json``: it must exist and replay to the end.

``MONOLITH_REGENERATE=1 python -m pytest tests/cli/test_example_log.py`` records it again (after a rule
change that makes the stored game stop replaying)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

import monolith_envs
from monolith_envs.__main__ import main
from monolith_envs.core.replay import load_log

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "arena_episode.json"
ENV_ID, SEED = "monolith_arena_v0", 7


def record_example(path: Path = EXAMPLE) -> None:
    """Play a seeded game of uniformly random legal moves in the default Arena config and save its log."""
    env = monolith_envs.make(ENV_ID, wrapped=False)
    env.reset(seed=SEED)
    rng = np.random.default_rng(SEED)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(int(rng.choice(env.legal_actions())))
    log = env.episode_log
    log.note = f"example: {ENV_ID} seed {SEED}, uniformly random legal moves (tests/cli/test_example_log.py)"
    log.save(path)


def test_the_readme_example_log_replays_to_the_end(capsys):
    if os.environ.get("MONOLITH_REGENERATE") == "1":
        record_example()
    log = load_log(EXAMPLE)
    assert (log.env_id, log.seed) == (ENV_ID, SEED) and len(log.actions) > 20
    assert main(["replay", str(EXAMPLE), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("--- step ") == len(log.actions)
    assert "end: terminal=True" in out and "note: example: monolith_arena_v0 seed 7" in out
