"""A run folder belongs to one run: a new run in a used folder clears the earlier run's outputs (so
``--resume`` never continues another run's checkpoint), and ``--resume`` keeps the seed and refuses a
complete run unless ``total_timesteps`` grows."""

from __future__ import annotations

import json
import zipfile

import pytest

from training.config import TrainConfigError, load_config
from training.resume import clear_earlier_run, latest_checkpoint, load_run


def _checkpoint(run, steps):
    (run / "checkpoints").mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(run / "checkpoints" / f"model_{steps}_steps.zip", "w") as z:
        z.writestr("data", json.dumps({"num_timesteps": steps}))


def _run(tmp_path, steps=4096, total=4096, report=True):
    run = tmp_path / "run"
    run.mkdir()
    cfg = load_config(None)
    cfg.update(total_timesteps=total, out_dir=str(tmp_path), name="run")
    (run / "config.json").write_text(json.dumps(cfg))
    _checkpoint(run, steps)
    if report:
        (run / "report.json").write_text("{}")
    return run


def test_a_new_run_clears_the_earlier_runs_outputs_and_keeps_other_files(tmp_path):
    run = _run(tmp_path)
    _checkpoint(run, 2048)
    for name in ("learning_curve.json", "final_model.zip", "warm_start.json", "notes.txt"):
        (run / name).write_text("x")
    (run / "checkpoints" / "mine.zip").write_text("x")
    gone = clear_earlier_run(run)
    assert gone == ["checkpoints/model_2048_steps.zip", "checkpoints/model_4096_steps.zip", "final_model.zip",
                    "learning_curve.json", "report.json", "warm_start.json"]
    assert latest_checkpoint(run) is None
    assert (run / "notes.txt").is_file() and (run / "checkpoints" / "mine.zip").is_file()
    assert clear_earlier_run(run) == [] and clear_earlier_run(tmp_path / "new") == []


def test_resume_refuses_a_complete_run_and_says_how_to_train_it_further(tmp_path):
    run = _run(tmp_path)
    with pytest.raises(TrainConfigError) as ei:
        load_run(run)
    assert f"--resume: {run} is complete (4,096 learner steps, total_timesteps 4,096" in str(ei.value)
    assert "--set total_timesteps=N with N above 4,096" in str(ei.value)
    cfg, resume = load_run(run, ["total_timesteps=8192"])
    assert cfg["total_timesteps"] == 8192 and resume["steps"] == 4096


def test_resume_of_a_run_stopped_in_its_final_evaluation_goes_on(tmp_path):
    run = _run(tmp_path, report=False)  # every step done, the report not yet written
    cfg, resume = load_run(run)
    assert resume["steps"] == cfg["total_timesteps"] == 4096


def test_resume_keeps_the_seed(tmp_path):
    run = _run(tmp_path, steps=2048)
    with pytest.raises(TrainConfigError, match=r"'seed=7' cannot change on resume \(the keys name, out_dir, seed"):
        load_run(run, ["seed=7"])
