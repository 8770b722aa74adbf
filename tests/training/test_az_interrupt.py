"""Ctrl-C / SIGTERM stop ``python -m training.az`` at once (real signals to a real process): a summary of the stage
reached and what was kept, the worker processes ended, no traceback, exit status 130 / 143."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.processes import group_gone

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("sig, to_group, code", [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)])
def test_a_signal_in_the_warm_start_stops_the_run_with_a_summary(tmp_path, sig, to_group, code):
    proc = subprocess.Popen([sys.executable, "-m", "training.az", "--quick", "--workers", "2", "--out-dir",
                             str(tmp_path), "--name", "run"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    err_parts: list[str] = []
    banner = threading.Event()

    def read() -> None:
        for line in proc.stderr:
            err_parts.append(line)
            if line.startswith("== [1/"):
                banner.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert banner.wait(120), "".join(err_parts)[-2000:]
        time.sleep(1.0)  # the worker processes are starting or playing
        t0 = time.monotonic()
        if to_group:  # a terminal's Ctrl-C reaches the run and every worker process
            os.killpg(proc.pid, sig)
        else:  # SIGTERM to the run only: it ends its workers itself
            proc.send_signal(sig)
        proc.wait(timeout=60)
        reader.join(10)
    finally:
        proc.kill()
    err = "".join(err_parts)
    assert proc.returncode == code, err[-3000:]
    assert time.monotonic() - t0 < 20
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert "leaked semaphore" not in err, err[-3000:]
    assert group_gone(proc.pid), "worker processes were left running"
    name = signal.Signals(sig).name
    assert f"interrupted by {name} during the warm start (" in err and "worker processes ended" in err, err[-3000:]
    run_dir = tmp_path / "run"
    if (run_dir / "checkpoints" / "iter0.pt").is_file():  # a slow signal: the warm start's checkpoint is kept
        assert f"kept: checkpoint {run_dir / 'checkpoints' / 'iter0.pt'}" in err
    else:
        assert "no checkpoint yet" in err and f"kept: {run_dir / 'config.json'}" in err
    assert f"exit status {code}" in err
    assert not list(run_dir.rglob("*.tmp"))  # no half-written checkpoint


def test_the_summary_names_the_checkpoint_kept_and_how_to_start_from_it():
    from monolith_envs.core.interrupt import Interrupted
    from training.az.loop import interrupted_message

    run_dir = Path("/x/runs/r")
    e = Interrupted(signal.SIGINT)
    e.info.update(stage="iteration 2", step="self-play", games_done=4, games_total=16, iterations=3, seconds=95,
                  done={"warm start": 40.2, "iteration 1": 30.0}, run_dir=run_dir, kept=[run_dir / "config.json"],
                  checkpoint=run_dir / "checkpoints" / "iter1.pt", checkpoint_iteration=1)
    text = interrupted_message(e, "python -m training.az --name r", "training/configs/az_arena_2p.toml",
                               continue_command="python -m training.az --config COPY --name NEW")
    assert text.splitlines()[0] == ("interrupted by SIGINT during iteration 2 of 3 (self-play: 4 of 16 games "
                                    "played), after 95 s; worker processes ended")
    assert "stages run: warm start 40 s, iteration 1 30 s" in text
    assert f"kept: checkpoint {run_dir / 'checkpoints' / 'iter1.pt'} (iteration 1)" in text
    assert f'init_checkpoint = "{run_dir / "checkpoints" / "iter1.pt"}"' in text
    assert "python -m training.az --config COPY --name NEW" in text and text.endswith("exit status 130")
    assert "init_samples" not in text  # this run wrote no samples (a file of an earlier run there is not named)
    e.info["kept"].append(run_dir / "warm_samples.npz")
    assert f'init_samples = "{run_dir / "warm_samples.npz"}"' in interrupted_message(e)
    e = Interrupted(signal.SIGTERM)
    assert interrupted_message(e) == ("interrupted by SIGTERM before the run started; nothing was written "
                                      "(exit status 143)")
