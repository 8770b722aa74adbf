"""The README's "Train your own agent with SB3" script runs end to end (few steps, spawned workers)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_sb3_example_trains_and_evaluates_against_random(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_sb3.py"), "--steps", "256", "--warm-start", "500",
         "--games", "4", "--workers", "2", "--out", str(tmp_path / "agent")], capture_output=True, text=True,
        timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    m = re.search(r"the agent won (\d+) of 4 games against random = ", proc.stdout)
    assert m and 0 <= int(m.group(1)) <= 4, proc.stdout
    assert ("MaskablePPO: 256 learner steps (PPO collects whole rollouts of 2,048 = 8 envs x 256, so 2,048)"
            in proc.stdout)  # the rollout line then reads 2,048/256
    assert (tmp_path / "agent" / "model.zip").is_file()
    assert proc.stdout.count("the agent won") == 1  # the spawned workers did not re-run the script


def test_readme_section_names_the_script_and_the_two_pitfalls():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Train your own agent with SB3", 1)[1].split("\n## ", 1)[0]
    assert "examples/train_sb3.py" in section and 'if __name__ == "__main__":' in section
    assert '{"illegal_action": "penalize"}' in section and "spawn" in section


def test_penalized_illegal_action_ends_the_episode_as_a_loss():
    import numpy as np

    from agents import RandomAgent
    from training.wrapper import SingleAgentEnv

    env = SingleAgentEnv("monolith_arena_v0", [RandomAgent()], {"illegal_action": "penalize"}, seat=0, seed=0)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["outcome"], info["win"]) == (-1.0, True, False, "loss", -1)
