"""The TorchRL and Tianshou examples run end to end (short budgets); each is skipped only when its library is
not installed (neither is a dependency of the package: see the examples' docstrings for the install lines)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(ROOT / "examples" / script), *args], capture_output=True, text=True,
                          timeout=420, env=env, cwd=ROOT)


def test_torchrl_example_plays_masked_games_on_one_env_and_on_serial_env():
    pytest.importorskip("torchrl", reason="torchrl is not installed (pip install 'torchrl==0.14.1' "
                                          "'tensordict>=0.14.3,<0.15' after torch)")
    proc = _run("torchrl_pettingzoo.py", "--games", "1", "--serial", "2", "--serial-steps", "160")
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("monolith_arena_v0: played 1 game on PettingZooWrapper(use_mask=True), ")
    returns = lines[0].rsplit(": ", 1)[1].split()
    assert sorted(returns) in (["+0.00", "+0.00"], ["+1.00", "-1.00"])  # a duel: win/loss or a draw
    assert lines[1].startswith("SerialEnv(2): 160 steps with masked_random_policy, ")
    assert "every action legal" in lines[1]


def test_torchrl_gym_env_builds_a_registered_id_and_plays_masked_games():
    """TorchRL's GymEnv passes frameskip to gymnasium.make and drops it on Python's unexpected-keyword
    TypeError; with mask_in="observation" its ActionMask transform keeps every action legal to the end."""
    pytest.importorskip("torchrl", reason="torchrl is not installed")
    from torchrl.envs import ActionMask, GymEnv, TransformedEnv

    import monolith_envs  # noqa: F401  (registers the Gymnasium ids)

    env = TransformedEnv(GymEnv("monolith_envs/MonolithArena-v0", opponents=["random"], mask_in="observation",
                                categorical_action_encoding=True), ActionMask())
    try:
        env.set_seed(0)
        td = env.rollout(500, break_when_any_done=True)
        assert bool(td["next", "done"][-1]) and not bool(td["next", "done"][:-1].any())
        legal = td["action_mask"].gather(-1, td["action"].unsqueeze(-1))
        assert bool(legal.all()) and abs(float(td["next", "reward"].sum())) == 1.0
    finally:
        env.close()


def test_torchrl_serial_env_rand_action_ignores_the_masks_as_the_example_says():
    """The note of the example: a batched env's rand_action draws illegal actions, which the game refuses."""
    pytest.importorskip("torchrl", reason="torchrl is not installed")
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import torchrl_pettingzoo as ex
    finally:
        sys.path.remove(str(ROOT / "examples"))
    import torch
    from torchrl.envs import SerialEnv

    from monolith_envs import IllegalActionError

    torch.manual_seed(0)
    batched = SerialEnv(2, lambda: ex.make_env("monolith_arena_v0"))
    try:
        with pytest.raises(IllegalActionError, match="illegal action"):
            batched.rollout(20)
        td = batched.reset()
        td = ex.masked_random_policy(["player_0", "player_1"])(td)
        for g in ("player_0", "player_1"):
            acting = td[g, "mask"].squeeze(-1)
            actions = td[g, "action"][acting]
            assert td[g, "action_mask"][acting].gather(-1, actions.unsqueeze(-1)).all()
    finally:
        batched.close()


def test_tianshou_example_collects_masked_games():
    pytest.importorskip("tianshou", reason="tianshou is not installed (see examples/tianshou_pettingzoo.py for "
                                           "the install line)")
    proc = _run("tianshou_pettingzoo.py", "--games", "1", "--envs", "1")
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = proc.stdout.strip().splitlines()[-1]
    assert line.startswith("monolith_arena_v0: collected 1 games on DummyVectorEnv(1) with a masked random "
                           "policy per seat, ")
    assert "every action legal" in line
    assert sorted(line.rsplit(": ", 1)[1].split()) in (["+0.00", "+0.00"], ["+1.00", "-1.00"])
