"""The examples' options are checked before any training: output paths, seed ranges, the shaping coefficient
(one argparse ``error:`` line, exit status 2); tiny end-to-end runs at the largest accepted seed; and a Ctrl-C
ends a run with one "interrupted" line and exit status 130, without tracebacks or half-written files."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.usage import one_usage_error

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _load(name: str):
    """The example ``examples/<name>.py`` as a module (its ``__main__`` block does not run)."""
    spec = importlib.util.spec_from_file_location(f"_example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _refused(capsys, parse, argv: list[str]) -> str:
    """``parse(argv)`` ends with argparse's exit status 2; returns its one ``error:`` line."""
    return one_usage_error(capsys, lambda: parse(argv))


def _run(script: str, *args: str, timeout: float = 420) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def _interrupt(script: str, args: list[str], marker: str, delay: float) -> tuple[int, str]:
    """Run ``script`` in its own process group, wait for the line starting with ``marker``, then ``delay``
    seconds, then send SIGINT to the whole group (as a terminal's Ctrl-C does); ``(exit status, output)``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(EXAMPLES / script), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = []
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            seen.append(line)
            if not line or line.startswith(marker):
                break
        assert seen[-1].startswith(marker), "".join(seen)[-3000:]
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, "".join(seen) + out


# --- cleanrl_ppo_vec.py ---------------------------------------------------------------------------------------

TINY_CLEANRL = ["--total-decisions", "64", "--num-envs", "2", "--num-steps", "32", "--warm-states", "0",
                "--eval-games", "0"]


@pytest.fixture(scope="module")
def cleanrl():
    return _load("cleanrl_ppo_vec")


@pytest.mark.parametrize("option,path,why", [
    ("--json", "/proc/x/y.json", "cannot be created"),
    ("--json", "TMP", "is a folder"),
    ("--save", "/proc/x/y.pt", "cannot be created"),
    ("--save", "TMP", "is a folder"),
])
def test_cleanrl_output_paths_are_checked_before_training(cleanrl, capsys, tmp_path, option, path, why):
    path = str(tmp_path) if path == "TMP" else path
    line = _refused(capsys, cleanrl.parse_args, [*TINY_CLEANRL, option, path])
    assert f"error: {option} {path}: " in line and why in line


def test_cleanrl_seed_range_is_that_of_torch_manual_seed(cleanrl, capsys):
    for bad in (str(2**64), str(2**128 - 1), "-1", "1.5"):
        assert "expected an integer from 0 to 2**64-1" in _refused(capsys, cleanrl.parse_args, [f"--seed={bad}"])
    assert cleanrl.parse_args(["--seed", str(2**64 - 1)]).seed == 2**64 - 1


def test_cleanrl_runs_at_the_largest_seed_and_writes_its_outputs(tmp_path):
    out = tmp_path / "new" / "folder"
    proc = _run("cleanrl_ppo_vec.py", *TINY_CLEANRL, "--eval-games", "2", "--seed", str(2**64 - 1),
                "--json", str(out / "run.json"), "--save", str(out / "weights.pt"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "run.json").read_text())
    assert summary["seed"] == 2**64 - 1 and summary["curve"]
    import torch

    assert torch.load(out / "weights.pt", weights_only=True)
    assert sorted(p.name for p in out.iterdir()) == ["run.json", "weights.pt"]  # no temporary file left


def test_cleanrl_ctrl_c_prints_one_line_and_writes_nothing(tmp_path):
    rc, out = _interrupt("cleanrl_ppo_vec.py", ["--total-decisions", str(10**6), "--num-envs", "8", "--num-steps",
                                                "32", "--warm-states", "0", "--eval-games", "0", "--json",
                                                str(tmp_path / "run.json"), "--save", str(tmp_path / "w.pt")],
                         "update 1/", 0.5)
    assert rc == 130, out[-3000:]
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out[-3000:]
    assert out.strip().splitlines()[-1].startswith("interrupted")
    assert list(tmp_path.iterdir()) == []


# --- train_sb3.py ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sb3():
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    return _load("train_sb3")


def test_sb3_out_is_checked_before_training(sb3, capsys, tmp_path):
    assert "error: --out /proc/x: cannot be created" in _refused(capsys, sb3.parse_args, ["--out", "/proc/x"])
    a_file = tmp_path / "file"
    a_file.write_text("")
    assert "is not a folder" in _refused(capsys, sb3.parse_args, ["--out", str(a_file)])
    (tmp_path / "taken" / "model.zip").mkdir(parents=True)
    assert "is a folder" in _refused(capsys, sb3.parse_args, ["--out", str(tmp_path / "taken")])


def test_sb3_seed_range_is_that_of_numpy_legacy_seeding(sb3, capsys, tmp_path):
    for bad in (str(2**32), str(2**128 - 1), "-1", "x"):
        line = _refused(capsys, sb3.parse_args, [f"--seed={bad}", "--out", str(tmp_path)])
        assert "expected an integer from 0 to 2**32-1" in line
    assert sb3.parse_args(["--seed", str(2**32 - 1), "--out", str(tmp_path)]).seed == 2**32 - 1


def test_sb3_shaping_must_be_finite_and_in_range(sb3, capsys, tmp_path):
    for bad in ("inf", "nan", "-inf", "-1", "1e7", "x"):
        line = _refused(capsys, sb3.parse_args, [f"--shaping={bad}", "--out", str(tmp_path)])
        assert "expected a number from 0 (no shaping) to 1e6" in line
    assert sb3.parse_args(["--shaping", "1e6", "--out", str(tmp_path)]).shaping == 1e6


def test_sb3_tiny_run_at_the_largest_seed_shows_the_steps_ppo_really_runs(sb3, tmp_path):
    out = tmp_path / "model"
    proc = _run("train_sb3.py", "--steps", "1", "--warm-start", "0", "--games", "1", "--seed", str(2**32 - 1),
                "--out", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "  ppo   2,048/2,048 steps |" in proc.stdout, proc.stdout
    assert "/1 steps" not in proc.stdout
    from sb3_contrib import MaskablePPO

    assert MaskablePPO.load(out / "model.zip", device="cpu").num_timesteps == 2048
    assert [p.name for p in out.iterdir()] == ["model.zip"]


def test_sb3_ctrl_c_in_the_warm_start_prints_no_worker_traceback(sb3, tmp_path):
    rc, out = _interrupt("train_sb3.py", ["--warm-start", "40000", "--workers", "2", "--games", "1", "--out",
                                          str(tmp_path)], "warm start: fitting", 4.0)
    assert rc == 130, out[-3000:]
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out[-3000:]
    assert out.strip().splitlines()[-1] == "interrupted"


# --- torchrl_pettingzoo.py and tianshou_pettingzoo.py --------------------------------------------------------

def test_torchrl_seed_range_and_serial_zero_when_skipped(capsys):
    pytest.importorskip("torchrl", reason="torchrl is not installed")
    ex = _load("torchrl_pettingzoo")
    line = _refused(capsys, ex.main, ["--seed", str(2**128 - 1)])
    assert "expected an integer from 0 to 2**64-1" in line
    assert "--serial must be at least 1" in _refused(capsys, ex.main, ["--serial", "0", "--serial-steps", "5"])
    got = ex.main(["--games", "0", "--serial", "0", "--serial-steps", "0"])  # no SerialEnv: accepted
    assert got == {"returns": [], "decisions": [], "serial_games": 0}
    got = ex.main(["--games", "1", "--serial", "2", "--serial-steps", "10", "--seed", str(2**64 - 1)])
    assert len(got["returns"]) == 1


def test_tianshou_seed_leaves_room_for_every_env(capsys):
    pytest.importorskip("tianshou", reason="tianshou is not installed")
    ex = _load("tianshou_pettingzoo")
    line = _refused(capsys, ex.main, ["--envs", "2", "--seed", str(2**128 - 1)])
    assert "--seed must be at most 2**128-2 with --envs 2" in line
    got = ex.main(["--games", "1", "--envs", "2", "--seed", str(2**128 - 2)])  # env 1 plays seed 2**128-1
    assert len(got["returns"]) == 1
