"""``python -m training.train --no-progress`` is ``--set progress_bar=false``, on a new run and on ``--resume``
(``progress_bar`` is not one of the keys fixed on resume); it used to be refused as an unknown argument."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib")

TINY = ["--set", "env_id=monolith_arena_v0", "--set", "env_config={}", "--set", "total_timesteps=128",
        "--set", "n_steps=64", "--set", "batch_size=64", "--set", "n_envs=2", "--set", "vec_env=dummy",
        "--set", "features=flat", "--set", "eval_every=0", "--set", "pretrain_samples=0"]


@pytest.fixture
def seen(monkeypatch):
    """The config ``main`` would train with (training itself is replaced)."""
    import training.train as train_module

    got: list[dict] = []
    monkeypatch.setattr(train_module, "train", lambda cfg, resume, guard, preload=(): got.append(dict(cfg)) or {})
    monkeypatch.setattr(train_module, "format_summary", lambda report, folder: "summary")
    return got


@pytest.mark.parametrize("flags, shown", [([], True), (["--no-progress"], False),
                                          (["--set", "progress_bar=true", "--no-progress"], False),
                                          (["--no-progress", "--set", "progress_bar=true"], False)])
def test_no_progress_sets_progress_bar_false(tmp_path, seen, flags, shown):
    from training.train import main

    main([*TINY, "--out-dir", str(tmp_path), "--name", "r", *flags])
    assert len(seen) == 1 and seen[0]["progress_bar"] is shown and seen[0]["name"] == "r"


def test_no_progress_applies_on_resume(tmp_path, seen, monkeypatch):
    import training.resume as resume
    from training.config import apply_overrides, load_config
    from training.train import main

    run = tmp_path / "r"
    (run / "checkpoints").mkdir(parents=True)
    cfg = apply_overrides(load_config(None), [*TINY[1::2], f"out_dir={json.dumps(str(tmp_path))}", "name=r"])
    assert cfg["progress_bar"] is True
    (run / "config.json").write_text(json.dumps(cfg))
    monkeypatch.setattr(resume, "latest_checkpoint", lambda d: (run / "checkpoints" / "model_64_steps.zip", 64))
    main(["--resume", str(run), "--no-progress"])
    assert len(seen) == 1 and seen[0]["progress_bar"] is False and seen[0]["total_timesteps"] == 128
    main(["--resume", str(run)])  # without the flag: the run's own value
    assert seen[1]["progress_bar"] is True


def test_no_progress_is_in_the_help(capsys):
    from training.train import main

    with pytest.raises(SystemExit) as ei:
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert ei.value.code == 0 and "--no-progress no stage banners, tqdm bars or interim evaluations' win rates" in out
    assert "the same as --set progress_bar=false (also with --resume)" in out
