"""``python -m training.rllib``'s command line: every bad value is one ``error:`` line and exit status 2
before Ray starts (the checks of ``training.train`` on the keys they share, every agent spec built, the run
folder kept under ``out_dir``), the help text, and a clean stop on SIGINT / SIGTERM (Ray shut down, the
stage and the checkpoint kept named, exit status 130 / 143, no traceback)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.distributed.conftest import ROOT, TOY_PRELOAD

pytest.importorskip("ray")

TOY = "toy_tictactoe_v0"


def _refused(capsys, tmp_path, *sets: str) -> str:
    from training.rllib import main

    argv = ["--set", f"out_dir='{tmp_path / 'sub'}'"]
    for s in sets:
        argv += ["--set", s]
    t0 = time.perf_counter()
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert time.perf_counter() - t0 < 20  # no Ray start: the checks take well under a second
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("setting, message", [
    ("name='../escape'", "config key 'name': must be 1 to 100 letters, digits or _ . + = - (one folder name "
                         "under out_dir"),
    ("gamma=2", "config key 'gamma': must be a finite number above 0 and up to 1, got 2.0"),
    ("net_arch=[0]", "config key 'net_arch': must be a list of 1 to 16 layer sizes, each an integer from 1 to "
                     "4096, got [0]"),
    ("learning_rate=0", "config key 'learning_rate': must be a finite number above 0 and up to 1, got 0.0"),
    ("clip_range=-0.1", "config key 'clip_range': must be a finite number above 0 and up to 10, got -0.1"),
    ("gae_lambda=1.5", "config key 'gae_lambda': must be a finite number from 0 to 1, got 1.5"),
    ("seed=-1", "config key 'seed': must be an integer from 0 to (2**128-1) // 1000 - 64"),
    ("seat='left'", "config key 'seat': must be 'rotate', 'random' or a seat number"),
    ("seat=5", "config key 'seat': monolith_arena_v0 with this env_config has 2 seat(s); use 0 to 1"),
    ('eval_opponents=["mcts:abc"]', "config key 'eval_opponents': agent spec 'mcts:abc': bad agent spec "
                                    "'mcts:abc': the number of simulations N in mcts:N must be an integer"),
    ("opponent_mix={learner = 1, bogus = 1}", "config key 'opponent_mix': agent spec 'bogus': unknown agent spec"),
    ("opponent_mix={learner = -1}", "config key 'opponent_mix': a table of 1 to 64 agent specs"),
    ("eval_workers=0", "config key 'eval_workers': must be an integer from 1 to 64, got 0"),
    ("num_env_runners=-1", "config key 'num_env_runners': must be an integer from 0 to 10,000, got -1"),
    ("preload=['no_such_module_xyz']", "config key 'preload': cannot import 'no_such_module_xyz': "
                                       "ModuleNotFoundError"),
    ("env_config.num_players=99", "config key 'env_config':"),
    ("env_id='no_such_env_v0'", "config key 'env_id':"),
])
def test_bad_values_are_one_error_line_before_ray(no_ray, capsys, tmp_path, setting, message):
    line = _refused(capsys, tmp_path, setting)
    assert line.startswith("python -m training.rllib: error: ")
    assert message in line


def test_the_escaping_name_writes_nothing_outside_out_dir(no_ray, capsys, tmp_path):
    _refused(capsys, tmp_path, "name='../escape'")
    assert not (tmp_path / "escape").exists() and not (tmp_path / "sub").exists()


def test_the_out_dir_and_name_flags_are_the_config_keys(no_ray, capsys, tmp_path):
    from training.rllib import main

    with pytest.raises(SystemExit) as exc:
        main(["--out-dir", str(tmp_path / "sub"), "--name", "../escape"])
    assert exc.value.code == 2
    assert "config key 'name': must be 1 to 100 letters" in capsys.readouterr().err
    assert not (tmp_path / "escape").exists() and not (tmp_path / "sub").exists()


def test_an_unwritable_out_dir_is_refused_before_ray(no_ray, capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    from training.rllib import main

    with pytest.raises(SystemExit) as exc:
        main(["--set", f"out_dir='{blocker}'", "--set", "name=run"])
    assert exc.value.code == 2
    assert "config key 'out_dir': cannot write the run folder" in capsys.readouterr().err


def test_a_config_file_names_no_module_to_import(no_ray, capsys, tmp_path):
    """A config file is data: its ``preload`` would make every process import a module (``this`` prints the Zen
    of Python), so it is refused before anything is imported; ``--preload`` on the command line stays."""
    from training.rllib import main

    cfg = tmp_path / "p.toml"
    cfg.write_text(f'preload = ["this"]\nout_dir = "{tmp_path / "runs"}"\n')
    with pytest.raises(SystemExit) as exc:
        main(["--config", str(cfg)])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert "The Zen of Python" not in out + err
    assert "config key 'preload' is not read from a config file" in err and "--preload MODULE" in err


def test_rllib_own_ranges_still_hold(tmp_path):
    from training.rllib_config import apply_overrides, load_config

    cfg = apply_overrides(load_config(None), ["snapshot_every=0", f"out_dir='{tmp_path}'"])
    assert cfg["snapshot_every"] == 0  # no snapshots here (training.train needs >= 1)


def test_help_states_each_default_once(capsys):
    from training.rllib import main

    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "(default: None)" not in out and "(default: [])" not in out and "(default: False)" not in out
    options = out.split("options:")[1]
    per_option = [block for block in options.split("\n  -") if block.strip()]
    assert len(per_option) >= 8
    for block in per_option:
        assert block.count("(default:") <= 1, block
    flat = " ".join(out.split())  # the help wraps to the terminal's width
    assert "(default: the built-in defaults)" in flat and "(default: the config's num_env_runners)" in flat


def test_a_stop_before_training_says_nothing_was_started(monkeypatch, capsys, tmp_path):
    from monolith_envs.core.interrupt import Interrupted
    from training import rllib

    def stop(_cfg):
        raise Interrupted(signal.SIGTERM)

    monkeypatch.setattr(rllib, "check_config", stop)
    with pytest.raises(SystemExit) as exc:
        rllib.main(["--set", f"out_dir='{tmp_path}'"])
    assert exc.value.code == 143
    err = capsys.readouterr().err
    assert "interrupted by SIGTERM before training started; Ray was not started (exit status 143)" in err
    assert "Traceback" not in err


def test_the_stop_message_names_the_stage_and_the_checkpoint(tmp_path):
    from monolith_envs.core.interrupt import Interrupted
    from training.rllib import interrupted_message

    e = Interrupted(signal.SIGINT)
    e.info.update(stage="training", steps=1200, planned=5000, seconds=12.3, run_dir=tmp_path,
                  checkpoint=tmp_path / "checkpoints" / "step_1000", checkpoint_steps=1000, ray_shut_down=True)
    text = interrupted_message(e)
    assert text.splitlines()[0] == ("interrupted by SIGINT during training at 1,200 of 5,000 learner steps, "
                                    "after 12 s; Ray shut down")
    assert f"kept: checkpoint {tmp_path / 'checkpoints' / 'step_1000'} (1,000 learner steps" in text
    assert text.splitlines()[-1] == "  exit status 130"
    e.info.update(checkpoint=None, checkpoint_steps=0)
    assert "no checkpoint kept" in interrupted_message(e)


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130)])
def test_a_signal_during_training_stops_cleanly(tmp_path, sig, code):
    """A real run on the toy game (one local Ray instance): stopped after its first checkpoint."""
    cmd = [sys.executable, "-m", "training.rllib", "--env", TOY, "--preload", TOY_PRELOAD, "--num-env-runners", "0",
           "--set", f"out_dir='{tmp_path}'", "--set", "name=stopped", "--set", "total_timesteps=10000000",
           "--set", "train_batch_size=200", "--set", "batch_size=100", "--set", "n_epochs=1",
           "--set", "checkpoint_every=200", "--set", "eval_every=0", "--set", "net_arch=[16]",
           "--set", "ray_num_cpus=1"]
    log = tmp_path / "out.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "w") as f:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 150
        ckpt = tmp_path / "stopped" / "checkpoints"
        while time.monotonic() < deadline and proc.poll() is None:
            if ckpt.is_dir() and "train: " in log.read_text():
                break
            time.sleep(0.5)
        assert proc.poll() is None, log.read_text()
        time.sleep(1.0)
        proc.send_signal(sig)
        rc = proc.wait(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = log.read_text()
    assert rc == code, out
    assert "Traceback" not in out, out
    assert "interrupted by SIGINT during training at " in out and "; Ray shut down" in out, out
    assert f"kept: checkpoint {(tmp_path / 'stopped' / 'checkpoints').resolve() / 'step_'}" in out, out
    assert f"exit status {code}" in out
    assert not (tmp_path / "stopped" / "report.json").exists()
    kept = [p for p in Path(ckpt).iterdir() if p.name.startswith("step_")]
    assert kept


def test_no_progress_sets_progress_bar_false_after_the_set_items(tmp_path, monkeypatch, capsys):
    import training.rllib
    from training.config import TrainConfigError

    seen = []

    def stop(cfg, guard):
        seen.append(cfg["progress_bar"])
        raise TrainConfigError("stopped before Ray")

    monkeypatch.setattr(training.rllib, "train", stop)
    for extra, want in (([], True), (["--no-progress"], False), (["--set", "progress_bar=true", "--no-progress"], False)):
        with pytest.raises(SystemExit):
            training.rllib.main(["--env", "monolith_arena_v0", "--out-dir", str(tmp_path), *extra])
        assert seen[-1] is want
    assert "stopped before Ray" in capsys.readouterr().err
