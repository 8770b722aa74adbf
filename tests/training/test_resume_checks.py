"""``--resume`` refuses, before any training, a checkpoint of another network and a damaged learning curve
(each was a traceback: the first at once, the second only after the resumed session had trained)."""

from __future__ import annotations

import json
import shutil

import pytest

pytest.importorskip("sb3_contrib")

TINY = ["--set", "env_id=monolith_arena_v0", "--set", "env_config={}", "--set", "total_timesteps=128",
        "--set", "n_steps=64", "--set", "batch_size=64", "--set", "n_epochs=1", "--set", "n_envs=2",
        "--set", "vec_env=dummy", "--set", "features=flat", "--set", "shaping=none", "--set", "eval_every=0",
        "--set", "final_eval_games=2", "--set", "eval_workers=1", "--set", "eval_opponents=['random']",
        "--set", "opponent_mix={random = 1.0}", "--set", "pretrain_samples=0", "--set", "checkpoint_every=128",
        "--set", "progress_bar=false"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two finished 128-step runs whose networks differ (net_arch [16] and [8])."""
    from training.train import main

    out = tmp_path_factory.mktemp("runs")
    for name, arch in (("a", "[16]"), ("b", "[8]")):
        main([*TINY, "--set", f"out_dir={out}", "--set", f"name={name}", "--set", f"net_arch={arch}"])
    return out


def _copy(runs, tmp_path):
    run = tmp_path / "a"
    shutil.copytree(runs / "a", run)
    return run


def test_a_checkpoint_of_another_network_is_refused_in_one_line(runs, tmp_path, capsys):
    from training.train import main

    run = _copy(runs, tmp_path)
    shutil.copy(runs / "b" / "checkpoints" / "model_128_steps.zip", run / "checkpoints" / "model_128_steps.zip")
    config = (run / "config.json").read_text()
    with pytest.raises(SystemExit) as ei:
        main(["--resume", str(run), "--set", "total_timesteps=256", "--set", "progress_bar=true"])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and "holds another network than this run builds" in err, err[-800:]
    assert "net_arch [16]" in err and "Traceback" not in err and "training a on" not in err  # no banner
    assert (run / "config.json").read_text() == config  # the refused --set did not reach the run's config
    assert not (run / "checkpoints" / "model_256_steps.zip").exists()


@pytest.mark.parametrize("point, words", [
    ({"step": 0, "random": "oops"}, "has 'random': 'oops', not a table"),
    ({"step": 0, "random": {"win_rate": "x", "ci95": [0, 1], "games": 2}}, "win_rate 'x', not a number"),
    ({"step": 0, "random": {"win_rate": 0.5, "ci95": [0.2], "games": 2}}, "ci95 [0.2], not a list of two"),
    ({"step": 0, "random": {"win_rate": 0.5, "ci95": [0.2, 0.8], "games": -1}}, "games -1, not a count"),
])
def test_a_damaged_learning_curve_is_refused_before_any_training(runs, tmp_path, capsys, point, words):
    from training.train import main

    run = _copy(runs, tmp_path)
    good = json.loads((run / "learning_curve.json").read_text()) if (run / "learning_curve.json").exists() else []
    (run / "learning_curve.json").write_text(json.dumps(good + [point]))
    with pytest.raises(SystemExit) as ei:
        main(["--resume", str(run), "--set", "total_timesteps=256"])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and words in err and "fix the file or remove it" in err, err[-800:]
    assert not (run / "checkpoints" / "model_256_steps.zip").exists()
