"""``python -m training.export_baseline``: the package's baseline network computes what the SB3 policy computes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from monolith_envs.agents.baselines import BaselineAgent  # noqa: E402
from monolith_envs.agents.baselines.net import load_baseline_file  # noqa: E402
from training.export_baseline import (  # noqa: E402
    ExportError,
    compare_with_policy,
    export_run,
    policy_logits,
    sample_observations,
)

ROOT = Path(__file__).resolve().parents[2]


def make_run(run_dir: Path, cfg_name: str = "monolith_arena_2p", features: str = "pieces", seed: int = 0):
    """A run folder like ``training.train`` writes (``final_model.zip``, ``report.json``) holding an untrained
    policy of the shipped config, its action layer scaled to a trained policy's logit range (an untrained
    policy's logits are all near 0, so their order would test nothing)."""
    from sb3_contrib import MaskablePPO

    from monolith_envs.agents import RandomAgent
    from monolith_envs.wrappers import SingleAgentEnv
    from training.config import load_config
    from training.train import policy_class, policy_kwargs

    cfg = load_config(ROOT / "training" / "configs" / f"{cfg_name}.toml")
    cfg["features"] = features
    env = SingleAgentEnv(cfg["env_id"], [RandomAgent()], env_config=cfg["env_config"])
    model = MaskablePPO(policy_class(cfg), env, n_steps=32, batch_size=32, policy_kwargs=policy_kwargs(cfg),
                        seed=seed, device="cpu")
    with torch.no_grad():
        model.policy.action_net.weight.mul_(300.0)
    run_dir.mkdir(parents=True, exist_ok=True)
    model.save(run_dir / "final_model.zip")
    report = {"run": cfg_name, "env_id": cfg["env_id"], "env_config": cfg["env_config"], "learner_steps": 0,
              "total_seconds": 12.5, "stage_seconds": {"PPO": 10.0},
              "final_eval": {"random": {"games": 4, "win_rate": 0.5, "ci95": [0.1, 0.9], "wins": 2, "draws": 0,
                                        "losses": 2}}, "config": cfg}
    (run_dir / "report.json").write_text(json.dumps(report))
    return model


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("bl") / "run"
    torch.set_num_threads(1)
    return d, make_run(d)


def test_float32_export_gives_the_sb3_logits_and_float16_the_same_actions(run, tmp_path):
    run_dir, model = run
    obs, masks = sample_observations("monolith_arena_v0", {"num_players": 2}, 300, seed=7)
    out32 = export_run(run_dir, "a32", tmp_path, dtype="float32", check_states=0)
    net32, meta = load_baseline_file(out32["path"])
    c32 = compare_with_policy(model.policy, net32, obs, masks)
    assert c32["max_logit_diff"] <= 1e-5 and c32["max_value_diff"] <= 1e-5 and c32["same_action"] == 1.0
    lp, _ = policy_logits(model.policy, obs)
    assert np.ptp(lp, axis=1).mean() > 1.0  # the logits really order the actions
    out16 = export_run(run_dir, "a16", tmp_path, dtype="float16", check_states=0)
    net16, _ = load_baseline_file(out16["path"])
    assert compare_with_policy(model.policy, net16, obs, masks)["same_action"] >= 0.99
    assert out16["bytes"] < 0.55 * out32["bytes"]
    # the agent takes the SB3 policy's deterministic action
    agent = BaselineAgent("monolith_arena_v0", env_config={"num_players": 2}, root=tmp_path)
    for o, m in zip(obs[:40], masks[:40]):
        a_sb3, _ = model.predict(o, action_masks=m, deterministic=True)
        assert agent.act(o, m.astype(np.int8), np.random.default_rng(0)) == int(a_sb3)
    assert meta["pieces"] and meta["pi_arch"] == [128] and meta["vf_arch"] == [128] and meta["activation"] == "tanh"
    assert meta["training"]["command"] == "python -m training.train --config training/configs/monolith_arena_2p.toml"
    assert meta["training"]["final_eval"]["random"]["win_rate"] == 0.5 and meta["training"]["wall_seconds"] == 12.5
    index = json.loads((tmp_path / "index.json").read_text())
    # a16 replaced a32: one baseline per env id and choosing config values
    assert [(e["name"], e["select"]) for e in index["baselines"]] == [("a16", {"num_players": 2, "mode": "duel"})]


def test_the_command_exports_and_checks_and_refuses_bad_runs_in_one_line(run, tmp_path):
    run_dir, _ = run
    cmd = [sys.executable, "-m", "training.export_baseline"]
    ok = subprocess.run(cmd + [str(run_dir), "--name", "arena_2p", "--out-dir", str(tmp_path), "--check-states", "50"],
                        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "same action 100.0%" in ok.stdout and (tmp_path / "arena_2p.pt").is_file()
    for args, why in (([str(tmp_path / "nothing"), "--name", "x"], "final_model.zip not found"),
                      ([str(run_dir), "--name", "Bad Name"], "--name must be")):
        bad = subprocess.run(cmd + args + ["--out-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                             timeout=120)
        assert bad.returncode == 2 and why in bad.stderr and "Traceback" not in bad.stderr
        assert bad.stderr.strip().splitlines()[-1].startswith("python -m training.export_baseline: error:")


def test_a_flat_policy_is_refused(tmp_path):
    make_run(tmp_path / "flat", features="flat")
    with pytest.raises(ExportError, match="piece encoder"):
        export_run(tmp_path / "flat", "flat", tmp_path / "out", check_states=0)


def test_the_training_piece_encoder_keeps_its_parameter_names():
    """Checkpoints of earlier runs load: the encoder moved into the package under the same names."""
    import gymnasium as gym

    import monolith_envs
    from training.features import PieceEncoder, piece_layout

    game = monolith_envs.make_game("monolith_arena_v0")
    layout = piece_layout(game.obs_spec)
    enc = PieceEncoder(gym.spaces.Box(0, 1, (game.obs_spec.size,), np.float32), layout)
    names = [f"encoders.{i}.0.{w}" for i in range(len(layout)) for w in ("weight", "bias")] + ["head.0.weight",
                                                                                                 "head.0.bias"]
    assert list(enc.state_dict()) == names and len(layout) >= 3
    assert enc(torch.zeros(2, game.obs_spec.size)).shape == (2, 256)


def test_an_out_dir_that_is_a_file_is_named_before_the_work(run, tmp_path):
    run_dir, _ = run
    (tmp_path / "afile").write_text("")
    with pytest.raises(ExportError, match="--out-dir .*afile: exists and is not a folder"):
        export_run(run_dir, "x", tmp_path / "afile", check_states=0)


def test_the_training_record_of_a_resumed_run_says_its_times_are_the_last_sessions(tmp_path):
    from training.export_baseline import _training_record

    report = {"run": "r", "config": {"seed": 1, "total_timesteps": 200}, "learner_steps": 200,
              "total_seconds": 34.7, "stage_seconds": {"PPO": 30.0},
              "resumed_from": {"checkpoint": "runs/r/checkpoints/ppo_100_steps.zip", "steps": 100}}
    rec = _training_record(tmp_path, report, "cmd", "m")
    assert rec["wall_seconds"] == 34.7 and rec["resumed_from"]["steps"] == 100
    assert rec["note"] == ("wall_seconds is the last session's (resumed at resumed_from.steps); stage_seconds "
                           "holds its stages and the first session's warm-start stages")
    fresh = _training_record(tmp_path, {k: v for k, v in report.items() if k != "resumed_from"}, "cmd", "m")
    assert "resumed_from" not in fresh and "note" not in fresh
