"""Ctrl-C / SIGTERM stop training at once (real signals to a real process), and --resume continues the run."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import group_gone

ROOT = Path(__file__).resolve().parents[2]
# a run that would take minutes: 2 subprocess envs, a 2-process evaluation pool, a checkpoint every rollout
TINY = ["--set", "env_id=monolith_arena_v0", "--set", "env_config={}", "--set", "total_timesteps=1000000",
        "--set", "n_steps=64", "--set", "batch_size=64", "--set", "n_epochs=1", "--set", "n_envs=2",
        "--set", "vec_env=subproc", "--set", "net_arch=[16]", "--set", "features=flat", "--set", "shaping=none",
        "--set", "eval_every=0", "--set", "final_eval_games=2", "--set", "eval_workers=2",
        "--set", "eval_opponents=['random']", "--set", "opponent_mix={random = 1.0}", "--set", "pretrain_samples=0",
        "--set", "checkpoint_every=128", "--set", "progress_bar=false"]
PER_ROLLOUT = 128


def _run_until_checkpoint(out_dir: Path, name: str, extra: tuple[str, ...] = ()) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "training.train", *TINY, "--set", f"out_dir={out_dir}",
                             "--set", f"name={name}", *extra], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    ckpts = out_dir / name / "checkpoints"
    deadline = time.monotonic() + 240
    while not any(f.name != "model_0_steps.zip" for f in ckpts.glob("model_*_steps.zip")):  # past step 0
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"no checkpoint appeared: {proc.communicate()[1][-2000:]}")
        time.sleep(0.3)
    time.sleep(1.0)  # a few more rollouts
    return proc


@pytest.mark.parametrize("sig, to_group, code", [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)])
def test_a_signal_stops_training_at_once_keeps_a_checkpoint_and_says_how_to_resume(tmp_path, sig, to_group, code):
    proc = _run_until_checkpoint(tmp_path, "run")
    t0 = time.monotonic()
    if to_group:  # a terminal's Ctrl-C reaches the learner and every worker process
        os.killpg(proc.pid, sig)
    else:  # SIGTERM to the learner only: it ends its workers itself
        proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == code, err[-3000:]
    assert time.monotonic() - t0 < 20
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert group_gone(proc.pid), "worker processes were left running"
    name = signal.Signals(sig).name
    assert f"interrupted by {name} during PPO at " in err and "worker processes ended" in err
    kept = [ln for ln in err.splitlines() if "kept: checkpoint" in ln]
    assert len(kept) == 1
    path = Path(kept[0].split("kept: checkpoint ", 1)[1].split(" (")[0])
    assert path.is_file() and path.parent == tmp_path / "run" / "checkpoints"
    steps = int(path.name.split("_")[1])
    assert steps % PER_ROLLOUT == 0 and steps >= PER_ROLLOUT  # a rollout boundary
    assert f"resume with: python -m training.train --resume {tmp_path / 'run'}" in err
    assert f"exit status {code}" in err
    assert not list((tmp_path / "run" / "checkpoints").glob(".*tmp*"))  # no half-written checkpoint


def test_resume_continues_the_step_count_from_the_newest_checkpoint(tmp_path, capsys):
    from training.resume import latest_checkpoint
    from training.train import main

    proc = _run_until_checkpoint(tmp_path, "run", ("--set", "pretrain_samples=40", "--set", "pretrain_epochs=1"))
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 143
    run = tmp_path / "run"
    warm = json.loads((run / "warm_start.json").read_text())
    path, steps = latest_checkpoint(run)
    total = steps + 2 * PER_ROLLOUT
    report = main(["--resume", str(run), "--set", f"total_timesteps={total}", "--set", "progress_bar=true"])
    out, err = capsys.readouterr()
    assert report["resumed_from"] == {"checkpoint": str(path), "steps": steps}
    assert report["learner_steps"] == total  # continued to the configured total, not from 0
    assert f"{2 * PER_ROLLOUT:,} more learner steps, from the checkpoint's {steps:,} to {total:,}" in err
    assert latest_checkpoint(run) == (run / "checkpoints" / f"model_{total}_steps.zip", total)
    assert (run / "checkpoints" / f"model_{steps + PER_ROLLOUT}_steps.zip").is_file()
    assert json.loads((run / "report.json").read_text())["learner_steps"] == total
    # the warm start of the interrupted session stays in the report
    assert report["pretrain"] == warm["pretrain"] and report["pretrain"]["samples"] >= 40
    assert report["stage_seconds"]["warm-start collection"] == warm["stage_seconds"]["warm-start collection"]
    assert "PPO" in report["stage_seconds"]
    assert str(run / "final_model.zip") in out
    # TensorBoard shows each step once: what the stopped session logged past its checkpoint is purged
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(run / "tb" / "ppo_1"))
    acc.Reload()
    logged = [e.step for e in acc.Scalars("time/fps")]
    assert logged == sorted(set(logged)) and logged[-1] == total, logged


def test_resume_refuses_a_folder_without_a_checkpoint_and_a_network_change(tmp_path, capsys):
    from training.train import main

    run = tmp_path / "run"
    run.mkdir()
    for args, msg in (([str(tmp_path / "nope")], "is not a run folder"),
                      ([str(run)], "is not a run folder: it has no config.json")):
        with pytest.raises(SystemExit) as ei:
            main(["--resume", *args])
        assert ei.value.code == 2 and msg in capsys.readouterr().err
    # a stored out_dir with a comma (a run from before the comma rule, since moved) is not checked: the folder is
    (run / "config.json").write_text(json.dumps({"env_id": "monolith_arena_v0", "name": "run", "out_dir": "a,b"}))
    with pytest.raises(SystemExit):
        main(["--resume", str(run)])
    assert "has no checkpoint" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--resume", str(run), "--set", "net_arch=[8]"])
    assert "'net_arch=[8]' cannot change on resume" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--resume", str(run), "--quick"])
    assert "takes no --config or --quick" in capsys.readouterr().err


def test_ctrl_c_during_the_warm_start_with_in_process_envs(tmp_path):
    """Envs in the learner process (vec_env=dummy) must not make the learner ignore Ctrl-C."""
    err_path = tmp_path / "err.txt"
    swap = {"vec_env=subproc": "vec_env=dummy", "pretrain_samples=0": "pretrain_samples=1000000",
            "progress_bar=false": "progress_bar=true"}
    args = [swap.get(a, a) for a in TINY]
    with open(err_path, "w") as err_file:
        proc = subprocess.Popen([sys.executable, "-m", "training.train", *args, "--set", "pretrain_targets=values",
                                 "--set", f"out_dir={tmp_path}", "--set", "name=warm"], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=err_file, text=True, start_new_session=True)
        deadline = time.monotonic() + 240
        while "collect:" not in err_path.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(err_path.read_text()[-2000:])
            time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=60)
        finally:
            proc.kill()
    err = err_path.read_text()
    assert proc.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert "interrupted by SIGINT during warm-start collection at 0 of 1,000,064 learner steps" in err
    assert "no checkpoint yet" in err
    assert group_gone(proc.pid)


class _SlowSaveModel:
    """Stands in for a MaskablePPO model: its save() writes in two halves and a SIGTERM arrives between them."""

    num_timesteps = 256

    def save(self, path):
        with open(path, "wb") as f:
            f.write(b"first half ")
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # the handler runs here, between the halves
            f.write(b"second half")


def _checkpointer(tmp_path, guard):
    from training.callbacks import make_callbacks

    cfg = {"n_envs": 2, "checkpoint_every": 128, "progress_bar": False, "snapshot_every": 0, "eval_every": 0}
    track: dict = {}
    cbs, _ = make_callbacks(cfg, tmp_path, [], None, 0, track, guard)
    return track["checkpointer"]


def test_a_signal_during_a_checkpoint_write_waits_for_the_write_to_end(tmp_path):
    from monolith_envs.core.interrupt import Interrupted, stop_on_signals

    with stop_on_signals() as guard:
        ckpt = _checkpointer(tmp_path, guard)
        ckpt.model = _SlowSaveModel()
        with pytest.raises(Interrupted) as ei:
            ckpt.save(256)
        ckpt.save(512)  # the held signal was raised once: a later save (the one of the stop) runs undisturbed
    assert ei.value.name == "SIGTERM"
    assert (tmp_path / "checkpoints" / "model_512_steps.zip").is_file()
    path = tmp_path / "checkpoints" / "model_256_steps.zip"
    assert path.read_bytes() == b"first half second half"  # written whole, then renamed
    assert not list(path.parent.glob(".*tmp*"))
    assert ckpt.last == 512


def test_a_signal_before_ppo_starts_keeps_no_checkpoint_and_raises_nothing_else(tmp_path):
    """Ctrl-C in the first evaluation (before the checkpointer's training start) has nothing to save."""
    ckpt = _checkpointer(tmp_path, None)
    ckpt.save_on_interrupt()  # no AttributeError: the state exists from construction
    assert (ckpt.boundary, ckpt.last, ckpt.updating) == (0, 0, False)
    assert not (tmp_path / "checkpoints").exists()


def test_a_resumed_run_evaluates_eval_every_after_its_last_curve_point(tmp_path):
    """A run stopped after its checkpoint at 6,144 steps (last evaluation at 0) and resumed evaluates at 8,192
    and 16,384, where the uninterrupted run does, not at 6,144 + 8,192."""
    from training.callbacks import make_callbacks
    from training.config import apply_overrides, load_config

    cfg = apply_overrides(load_config(None), ["eval_every=8192", "progress_bar=false"])
    for curve, start, expected in (([{"step": 0}], 6144, [8192, 16384]), ([], 0, [8192, 16384])):
        _cbs, periodic = make_callbacks(cfg, tmp_path, list(curve), None, start=start)
        seen: list[int] = []
        periodic.evaluate = lambda: seen.append(periodic.num_timesteps)  # noqa: B023 - called in this loop
        periodic.num_timesteps = start
        periodic._on_training_start()
        seen.clear()  # a fresh run's starting point (step 0) is not what this checks
        for steps in range(start + 2048, 20000, 2048):
            periodic.num_timesteps = steps
            periodic._on_step()
        assert seen == expected


def test_the_periodic_evaluation_counts_its_own_seconds(tmp_path):
    """``train_seconds`` (and so the learner's steps/s) leaves out the evaluations inside PPO: the callback
    sums the time they take."""
    import time as _time

    from training.callbacks import make_callbacks
    from training.config import apply_overrides, load_config

    cfg = apply_overrides(load_config(None), ["eval_every=8192", "progress_bar=false"])
    _cbs, periodic = make_callbacks(cfg, tmp_path, [], None)
    periodic._evaluate = lambda: _time.sleep(0.05)
    assert periodic.seconds == 0.0
    periodic.evaluate()
    periodic.evaluate()
    assert 0.1 <= periodic.seconds < 2.0


def test_a_run_whose_batch_size_no_longer_fits_one_rollout_resumes_once_an_override_fits_it(tmp_path):
    """config.json of a run made before batch_size was checked against n_steps x n_envs: refused as it is,
    with the fix named; --set batch_size=... that fits is taken (the run then goes on to its checkpoint)."""
    from training.config import TrainConfigError, load_config
    from training.resume import load_run

    run = tmp_path / "old"
    cfg = load_config("training/configs/quick.toml")
    cfg.update(n_envs=1, out_dir=str(tmp_path), name="old")  # rollout 256 x 1 under batch_size 512
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.json").write_text(json.dumps(cfg))
    (run / "checkpoints" / "model_256_steps.zip").write_bytes(b"not a zip")
    with pytest.raises(TrainConfigError, match=r"got 512: set batch_size=256 or less"):
        load_run(run, [])
    with pytest.raises(TrainConfigError, match=r"model_256_steps\.zip: not a readable SB3 model zip"):
        load_run(run, ["batch_size=256"])  # past the config: on to the checkpoint, a fake one here


def test_the_warm_started_weights_are_a_step_0_checkpoint_and_a_resume_skips_the_warm_start(tmp_path, monkeypatch):
    """A run stopped after its warm start (here: a run of 0 PPO rollouts past it, then resumed) keeps the
    warm-started weights as checkpoints/model_0_steps.zip; --resume loads them and does not collect again."""
    from training.resume import latest_checkpoint
    from training.train import main

    swap = {"pretrain_samples=0": "pretrain_samples=200", "total_timesteps=1000000": "total_timesteps=128",
            "vec_env=subproc": "vec_env=dummy", "eval_workers=2": "eval_workers=1"}
    args = [swap.get(a, a) for a in TINY] + ["--set", f"out_dir={tmp_path}", "--set", "name=w",
                                            "--set", "pretrain_targets=values", "--set", "pretrain_epochs=1"]
    main(args)
    run = tmp_path / "w"
    assert (run / "checkpoints" / "model_0_steps.zip").is_file()
    (run / "report.json").unlink()  # as a run stopped before its end: no report yet
    for f in (run / "checkpoints").glob("model_*_steps.zip"):
        if f.name != "model_0_steps.zip":
            f.unlink()
    assert latest_checkpoint(run) == (run / "checkpoints" / "model_0_steps.zip", 0)
    import training.pretrain as pretrain

    def no_second_warm_start(*_a, **_k):
        raise AssertionError("the warm start ran again")

    monkeypatch.setattr(pretrain, "collect_value_targets", no_second_warm_start)
    report = main(["--resume", str(run)])
    assert report["resumed_from"]["steps"] == 0 and report["learner_steps"] == 128
    assert report["pretrain"]["samples"] >= 200  # the first session's warm start, from warm_start.json
