"""``training.train --preload``: a game registered by a module of the user's trains with worker processes (the
subprocess envs and the evaluation workers import the module too), and the printed evaluate command passes
it on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_registered_by_a_preloaded_module_trains_with_subprocess_envs_and_evaluation_workers(tmp_path):
    cmd = [sys.executable, "-m", "training.train", "--quick", "--preload", "tests.preload_toy",
           "--set", "env_id=toy_tictactoe_v0", "--set", "env_config={}", "--set", "shaping=none",
           "--set", "n_envs=2", "--set", "vec_env=subproc", "--set", "eval_workers=2",
           "--set", "total_timesteps=512", "--set", "n_steps=256", "--set", "batch_size=256",
           "--set", "pretrain_samples=200", "--set", "final_eval_games=8", "--set", "eval_games=4",
           "--set", "eval_every=512", "--set", 'eval_opponents=["random"]',
           "--out-dir", str(tmp_path), "--name", "toy", "--no-progress"]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "UnknownEnvError" not in res.stderr and "Traceback" not in res.stderr
    report = json.loads((tmp_path / "toy" / "report.json").read_text())
    assert report["env_id"] == "toy_tictactoe_v0" and report["preload"] == ["tests.preload_toy"]
    assert report["final_eval"]["random"]["games"] == 8  # played on the two spawned evaluation workers
    again = next(line for line in res.stdout.splitlines() if line.startswith("evaluate it again: "))
    assert " --env toy_tictactoe_v0 " in again and " --preload tests.preload_toy " in again


def test_a_preload_that_cannot_be_imported_is_one_error_line():
    res = subprocess.run([sys.executable, "-m", "training.train", "--quick", "--preload", "no_such_module_here"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines()[-1] == ("python -m training.train: error: --preload 'no_such_module_here': "
                                                   "cannot import it (No module named 'no_such_module_here')")


def test_resuming_a_run_of_a_preloaded_game_without_preload_says_to_give_it_again(tmp_path):
    run = tmp_path / "toy"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"env_id": "toy_tictactoe_v0", "env_config": {}}))
    res = subprocess.run([sys.executable, "-m", "training.train", "--resume", str(run)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert ("--resume: the run trained 'toy_tictactoe_v0', which is not a registered env id here; a game registered "
            "by a module of yours needs --preload MODULE again") in res.stderr
