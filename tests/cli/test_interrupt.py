"""Ctrl-C (SIGINT) and SIGTERM stop ``python -m monolith_envs fuzz`` (process pool and Ray) and
``python -m benchmarks.run`` at once: a summary of what ran, exit status 130 / 143, no traceback, no
second signal needed, and no process left behind.  Each test runs the real command in a subprocess and
sends it a real signal once it is working."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from monolith_envs.core.replay import load_log
from tests.cli.signals import Command, descendants, wait_gone

FAULTY = ["--preload", "tests.cli.preload_faulty"]  # toy_faulty_v0: 2 games in 9 fail


def _fuzz(tmp_path, *extra: str) -> Command:
    return Command(["monolith_envs", "fuzz", "toy_faulty_v0", *FAULTY, "--games", "1000000000",
                    "--out", str(tmp_path / "logs"), "--no-progress", *extra])


def _found_failures(n: int):
    return lambda c: c.stdout().count("FAILURE [") >= n


def _check_fuzz_summary(cmd: Command, code: int, expected: int, name: str, tmp_path) -> None:
    out, err = cmd.stdout(), cmd.stderr()
    assert code == expected, cmd.text()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    summary = re.search(r"^fuzz toy_faulty_v0: games=(\d+) decisions=(\d+) decisions/s=\d+ failures=(\d+)", out, re.M)
    assert summary, out
    games, decisions, failures = map(int, summary.groups())
    assert games >= 1 and decisions >= 2 * games and failures >= 1
    assert failures == out.count("FAILURE [")  # every failure found so far was reported
    assert f"interrupted by {name}: stopped after {games} of 1000000000 games; failure logs" in out
    listed = re.findall(r"^  (\S+\.json)$", out, re.M)
    assert listed and len(listed) == min(failures, 20)
    for path in listed:  # each listed log is complete and replays to its failure
        log = load_log(path)
        assert log.env_id == "toy_faulty_v0" and len(log.actions) == 2 and 4 in log.actions
    assert len(list((tmp_path / "logs").glob("*.json"))) == failures
    assert not list((tmp_path / "logs").glob(".*.tmp"))  # no half-written log left
    assert err.strip().endswith(f"interrupted by {name}")


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_fuzz_pool_stops_on_a_signal_with_a_summary(sig, code, tmp_path):
    cmd = _fuzz(tmp_path, "--workers", "2")
    cmd.wait_for(_found_failures(3))
    got, below = cmd.signal(sig)
    assert len(below) >= 2  # the two workers ran
    _check_fuzz_summary(cmd, got, code, signal.Signals(sig).name, tmp_path)
    assert not wait_gone(below), "worker processes survived the command"


def test_fuzz_pool_stops_on_ctrl_c_sent_to_the_whole_group(tmp_path):
    """A terminal's Ctrl-C reaches the workers too: they leave the stopping to the parent (no tracebacks)."""
    cmd = _fuzz(tmp_path, "--workers", "2")
    cmd.wait_for(_found_failures(3))
    got, below = cmd.signal(signal.SIGINT, group=True)
    _check_fuzz_summary(cmd, got, 130, "SIGINT", tmp_path)
    assert not wait_gone(below)


_SPAWNED_MASKS = """
import json, multiprocessing as mp, os
from monolith_envs.core.interrupt import children_ignore_sigint

def blocked(pid):  # the signals blocked in a process's main thread, a set of numbers
    line = next(x for x in open(f"/proc/{pid}/status") if x.startswith("SigBlk:"))
    bits = int(line.split()[1], 16)
    return sorted(n for n in range(1, 65) if bits >> (n - 1) & 1)

if __name__ == "__main__":
    with children_ignore_sigint():
        pool = mp.get_context("spawn").Pool(2)
        inside = blocked(os.getpid())
    print(json.dumps([inside, [blocked(p.pid) for p in pool._pool], blocked(os.getpid())]))
    pool.close()
    pool.join()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID/status")
def test_spawned_pool_workers_start_with_sigint_blocked(tmp_path):
    """The first spawn Pool of a process starts multiprocessing's resource tracker, which unblocks SIGINT in
    the thread that started it; ``children_ignore_sigint`` starts the tracker first, so the workers spawned
    after it still begin with SIGINT blocked (a Ctrl-C during their imports reached them: a rare traceback in
    ``fuzz --workers 2``). A fresh interpreter, so no tracker runs yet."""
    script = tmp_path / "masks.py"
    script.write_text(_SPAWNED_MASKS)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    inside, workers, after = json.loads(out.stdout)
    assert inside == [signal.SIGINT] and workers == [[signal.SIGINT], [signal.SIGINT]], out.stdout
    assert signal.SIGINT not in after  # the parent takes Ctrl-C again once the block ends


def test_fuzz_in_process_stops_on_sigint(tmp_path):
    cmd = _fuzz(tmp_path, "--workers", "1")
    cmd.wait_for(_found_failures(3))
    got, _ = cmd.signal(signal.SIGINT)
    _check_fuzz_summary(cmd, got, 130, "SIGINT", tmp_path)


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_fuzz_ray_backend_stops_on_a_signal(sig, code, tmp_path):
    pytest.importorskip("ray")
    cmd = _fuzz(tmp_path, "--workers", "2", "--backend", "ray")
    cmd.wait_for(_found_failures(3), timeout=300)
    got, below = cmd.signal(sig, timeout=120)
    assert len(below) >= 3  # Ray's own processes and its workers
    _check_fuzz_summary(cmd, got, code, signal.Signals(sig).name, tmp_path)
    assert "Check failed" not in cmd.stderr()  # Ray's core worker was not interrupted inside a call
    assert "2 workers on ray" in cmd.stdout()
    assert not wait_gone(below, timeout=60), "Ray processes survived the command"


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_benchmarks_run_stops_on_a_signal_with_what_it_measured(sig, code, tmp_path):
    cmd = Command(["benchmarks.run", "--budget", "smoke", "--no-refs", "--no-train", "--env", "monolith_arena_v0",
                   "--out-dir", str(tmp_path)])
    # the second configuration has started: the first one is measured
    cmd.wait_for(lambda c: c.stderr().count("measuring monolith_arena_v0") >= 2)
    got, below = cmd.signal(sig)
    out, err = cmd.stdout(), cmd.stderr()
    assert got == code, cmd.text()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert out.startswith("# monolith_envs benchmarks (smoke)") and "monolith_arena_v0" in out
    name = signal.Signals(sig).name
    m = re.search(rf"interrupted by {name}: (\d+) configurations? and 0 training runs measured in \d+ s "
                  r"\(shown above\); nothing written", err)
    assert m and int(m.group(1)) >= 1, err
    assert list(tmp_path.iterdir()) == []  # a partial run replaces no result file
    assert not wait_gone(below)


def test_benchmarks_run_stops_its_training_workers_on_sigint(tmp_path):
    """During the SubprocVecEnv training measurement: its worker processes end with the command."""
    cmd = Command(["benchmarks.run", "--budget", "smoke", "--no-refs", "--import", "tests.preload_toy",
                   "--env", "toy_tictactoe_v0", "--no-write"])
    cmd.wait_for(lambda c: "(subproc;" in c.stderr() and len(descendants(c.proc.pid)) >= 2)
    got, below = cmd.signal(signal.SIGINT)
    err = cmd.stderr()
    assert got == 130 and "Traceback" not in err, cmd.text()
    assert "interrupted by SIGINT: 1 configuration and 1 training run measured" in err
    assert cmd.stdout().startswith("# monolith_envs benchmarks (smoke)")
    assert len(below) >= 2 and not wait_gone(below)


def test_signals_deferred_holds_a_signal_until_the_block_ends_then_passes_it_on():
    import os
    import signal as _signal

    from monolith_envs.core.interrupt import signals_deferred

    seen = []
    old = _signal.signal(_signal.SIGTERM, lambda signum, _frame: seen.append(("handler", signum)))
    try:
        with signals_deferred():
            os.kill(os.getpid(), _signal.SIGTERM)
            for _ in range(1000):  # bytecodes on which Python would run the handler
                pass
            seen.append("end of block")
        assert seen == ["end of block", ("handler", _signal.SIGTERM)]
        assert _signal.getsignal(_signal.SIGTERM) is not None and callable(_signal.getsignal(_signal.SIGTERM))
    finally:
        _signal.signal(_signal.SIGTERM, old)


def test_start_workers_starts_every_worker_whole_before_a_stop_is_handled():
    """A stop that arrives while a pool starts its workers waits until every worker has started (one cut in
    two printed 'EOFError: Ran out of input'); the workers start with SIGINT blocked."""
    import multiprocessing as mp
    import os
    import signal as _signal
    from concurrent.futures import ProcessPoolExecutor

    from monolith_envs.core.interrupt import Interrupted, end_executor, start_workers, stop_on_signals

    pool = ProcessPoolExecutor(2, mp_context=mp.get_context("spawn"))
    submit = pool.submit
    calls = []

    def submit_then_stop(*args, **kwargs):
        calls.append(len(pool._processes))
        if len(calls) == 1:
            os.kill(os.getpid(), _signal.SIGTERM)  # the stop arrives while the first worker starts
        return submit(*args, **kwargs)

    pool.submit = submit_then_stop
    try:
        with pytest.raises(Interrupted), stop_on_signals():
            start_workers(pool, 2)
            pytest.fail("the held stop was not raised when the start ended")
        assert calls == [0, 1] and len(pool._processes) == 2  # both workers started before the stop was raised
    finally:
        end_executor(pool)
