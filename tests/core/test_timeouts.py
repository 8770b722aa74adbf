"""A game method that never returns fails ``check_env`` and ``fuzz`` as ``timeout``, naming where it was,
instead of hanging them (monolith_envs/core/deadline.py)."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from monolith_envs.__main__ import main
from monolith_envs.core.deadline import DeadlineExceeded, deadline
from monolith_envs.core.fuzz import fuzz_rollout
from monolith_envs.core.game import MonolithEnvError
from monolith_envs.core.testing import ConformanceError, check_env
from tests.cli.hangs_game import HANGS_ID, HangsOnTheCentre, hangs_module
from tests.toy_game import ToyGame, module_for

HANGS = hangs_module().raw_env


@pytest.fixture
def hangs_registered():
    """``toy_hangs_v0`` registered (by the commands' ``--preload``) for one test only: a registered game that
    hangs would hang every later test that plays each registered env."""
    import sys

    import monolith_envs

    sys.modules.pop("tests.cli.preload_hangs", None)  # each --preload imports it anew, so it registers again
    yield HANGS_ID
    monolith_envs._REGISTRY.pop(HANGS_ID, None)
    sys.modules.pop("tests.cli.preload_hangs", None)


def test_check_env_names_the_episode_and_the_method_that_never_returned():
    t0 = time.monotonic()
    with pytest.raises(ConformanceError) as info:
        check_env(HANGS, games=5, seed=0, timeout=0.5)
    assert time.monotonic() - t0 < 20
    assert info.value.check == "timeout"
    msg = str(info.value)
    assert msg.startswith("[timeout] the episode of seed ")
    assert "did not end within 0.5 s (the timeout)" in msg and "hangs_game.py" in msg and " in apply" in msg
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_check_env_without_a_timeout_is_unchanged_and_a_bad_timeout_is_refused():
    toy = module_for(ToyGame).raw_env
    assert check_env(toy, games=2, seed=0, timeout=30).episodes == 2
    for bad in (0, -1, float("inf"), 1e10, 10**400, "5", True):
        with pytest.raises(ValueError, match=r"timeout=.*expected a positive number of seconds up to 1e\+07, or None"):
            check_env(toy, games=1, timeout=bad)


def test_fuzz_rollout_fails_as_timeout_and_keeps_the_actions_to_replay():
    results = [fuzz_rollout(HangsOnTheCentre(), seed, timeout=0.3) for seed in range(4)]
    hung = [r for r in results if r.failure]
    assert hung, "random play marks the centre in most games"
    for r in hung:
        assert r.failure == "timeout"
        assert r.message.startswith("the rollout did not end within 0.3 s (the timeout); it was at ")
        assert " in apply" in r.message  # the per-step checks apply the centre to a clone at the first step
        assert r.seconds < 5
    plain = [fuzz_rollout(HangsOnTheCentre(), seed, checks=("invariants",), timeout=0.3) for seed in range(4)]
    assert [r.actions[-1] for r in plain if r.failure == "timeout"] == [4] * sum(r.failure is not None for r in plain)
    assert any(r.failure for r in plain)


def test_deadline_restores_the_previous_alarm_handler_and_is_off_outside_the_main_thread():
    def mine(*_):
        pass

    old = signal.signal(signal.SIGALRM, mine)
    try:
        with pytest.raises(DeadlineExceeded) as info:
            with deadline(0.2):
                while True:
                    pass
        assert info.value.seconds == 0.2 and " in test_deadline_restores" in info.value.where
        assert signal.getsignal(signal.SIGALRM) is mine
        # a timer of the caller's goes on after the block with the time it had left
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        with deadline(5):
            time.sleep(0.2)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 29.0 < left < 29.85
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    seen = []

    def in_thread():
        with deadline(0.01):  # no limit here: it does nothing, and raises nothing
            time.sleep(0.05)
        seen.append("done")

    t = threading.Thread(target=in_thread)
    t.start()
    t.join()
    assert seen == ["done"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_fuzz_command_reports_a_hung_rollout_and_goes_on(workers, tmp_path, capsys, hangs_registered):
    code = main(["fuzz", "toy_hangs_v0", "--games", "4", "--workers", workers, "--timeout", "0.5", "--no-progress",
                 "--out", str(tmp_path), "--preload", "tests.cli.preload_hangs"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "FAILURE [timeout] seed=" in out and "did not end within 0.5 s" in out
    assert "--timeout 0.5 --out" in out  # the reproduce command keeps the limit
    assert "games=4 " in out  # the run went on past the hung rollouts
    assert len(list(tmp_path.glob("toy_hangs_v0_seed*.json"))) == out.count("FAILURE [timeout]")


def test_check_command_reports_a_hang_on_one_line(capsys, hangs_registered):
    assert main(["check", "toy_hangs_v0", "--games", "3", "--timeout", "0.5", "--no-progress",
                 "--preload", "tests.cli.preload_hangs"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("check failed: [timeout] the episode of seed 0 did not end within 0.5 s")
    assert err.count("\n") == 1


def test_timeout_flags_refuse_a_bad_value(capsys):
    for cmd in ("fuzz", "check"):
        with pytest.raises(SystemExit) as ei:
            main([cmd, "toy_tictactoe_v0", "--timeout", "0"])
        assert ei.value.code == 2
        assert "'0' is not a positive number of seconds up to 1e+07 (or none: no limit)" in capsys.readouterr().err
    for cmd in ("fuzz", "check"):
        with pytest.raises(SystemExit):
            main([cmd, "toy_tictactoe_v0", "--timeout", "1e10"])  # past what the timer takes
        assert "'1e10' is not a positive number of seconds up to 1e+07" in capsys.readouterr().err
    with pytest.raises(MonolithEnvError, match="fuzz: timeout=-2: expected a positive number"):
        from monolith_envs.core.fuzz import run_fuzz

        run_fuzz(ToyGame, 1, 0, 1, {}, "unused", timeout=-2)


class SwallowsTheFirstTimeout(ToyGame):
    """apply catches the first interruption (a bare except: retry loop), then loops again."""

    def apply(self, s, action, rng):
        if int(action) == 4:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - the point of the test
                pass
            while True:
                pass
        super().apply(s, action, rng)


def test_a_game_that_swallows_the_first_timeout_is_interrupted_again():
    t0 = time.monotonic()
    with pytest.raises(ConformanceError, match=r"\[timeout\]"):
        check_env(module_for(SwallowsTheFirstTimeout, "toy_swallows_v0").raw_env, games=5, seed=0, timeout=0.3)
    assert time.monotonic() - t0 < 10


class SlowToBuild(ToyGame):
    def __init__(self, config=None):
        while True:
            pass


def test_building_the_game_is_under_the_limit_too(tmp_path):
    from monolith_envs.core.fuzz import run_fuzz

    with pytest.raises(ConformanceError, match=r"\[timeout\] building the env \(env_fn\(\*\*config\)\) did not end "
                                               r"within 0.3 s"):
        check_env(module_for(SlowToBuild, "toy_slow_build_v0").raw_env, games=1, timeout=0.3)
    with pytest.raises(MonolithEnvError, match=r"fuzz: building the game \(SlowToBuild\(config\)\) did not end within "
                                               r"0.3 s \(--timeout\)"):
        run_fuzz(SlowToBuild, 1, 0, 1, {}, str(tmp_path), timeout=0.3, progress=False)


def test_an_enclosing_limit_fires_inside_and_tiny_or_huge_limits_leave_no_handler():
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(DeadlineExceeded) as info:
        with deadline(0.3):
            with deadline(60):
                while True:
                    pass
    assert info.value.seconds == 0.3  # the outer one, on time
    for _ in range(200):
        try:
            with deadline(1e-7):
                pass
        except DeadlineExceeded:
            pass
    with pytest.raises(ValueError):
        with deadline(1e10):
            pass
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_game_that_never_finishes_building_in_a_worker_fails_each_rollout_as_timeout(tmp_path, capsys):
    from monolith_envs.core.fuzz import run_fuzz
    from tests.cli.hangs_game import HangsWhenBuiltInAWorker

    t0 = time.monotonic()
    assert run_fuzz(HangsWhenBuiltInAWorker, 2, 0, 2, {}, str(tmp_path), timeout=0.5, progress=False) == 2
    assert time.monotonic() - t0 < 60
    out = capsys.readouterr().out
    assert out.count("FAILURE [timeout]") == 2
    assert "building the game in a worker process (HangsWhenBuiltInAWorker(config)) did not end within 0.5 s" in out


def test_a_worker_stuck_past_every_interruption_stops_the_run_naming_the_seeds(tmp_path, monkeypatch):
    from monolith_envs.core import fuzz
    from tests.cli.hangs_game import CatchesEveryTimeout

    monkeypatch.setattr(fuzz, "STALL_GRACE_S", 2.0)
    t0 = time.monotonic()
    with pytest.raises(fuzz.StuckWorkersError, match=r"fuzz: no rollout came back for 2\.6 s although each may "
                                                     r"take 0\.3 s \(--timeout; 1 to a task.*Seeds sent that did "
                                                     r"not come back: \d"):
        fuzz.run_fuzz(CatchesEveryTimeout, 6, 0, 2, {}, str(tmp_path), timeout=0.3, progress=False)
    assert time.monotonic() - t0 < 45  # the pool was terminated, not joined


def test_an_enclosing_limit_of_the_callers_passes_through_check_env_and_fuzz_and_repeats():
    with pytest.raises(DeadlineExceeded) as info:
        with deadline(0.5) as mine:
            check_env(HANGS, games=5, seed=0, timeout=60)
    assert info.value.token is mine and info.value.seconds == 0.5
    with pytest.raises(DeadlineExceeded) as info:
        with deadline(0.5) as mine:
            for seed in range(10):
                fuzz_rollout(HangsOnTheCentre(), seed, timeout=60)
    assert info.value.token is mine
    # the outer limit fires again after code inside an inner limit swallowed its first interruption
    fired = []
    with pytest.raises(DeadlineExceeded):
        with deadline(0.3):
            with deadline(60):
                try:
                    while True:
                        pass
                except DeadlineExceeded:
                    fired.append(time.monotonic())
                while True:
                    pass
    assert len(fired) == 1


def test_a_watchdog_left_to_the_default_action_still_ends_the_process():
    import subprocess
    import sys

    code = ("import signal, time; from monolith_envs.core.deadline import deadline\n"
            "signal.alarm(1)\n"
            "with deadline(60):\n"
            "    time.sleep(20)\n")
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert r.returncode == -signal.SIGALRM and time.monotonic() - t0 < 15


def test_the_reproduce_line_keeps_no_limit_and_nan_lists_compare_equal(tmp_path, capsys):
    from monolith_envs.core.fuzz import run_fuzz
    from monolith_envs.core.state import states_equal
    from tests.distributed.faulty import FaultyToyGame

    assert run_fuzz(FaultyToyGame, 9, 0, 1, {}, str(tmp_path), timeout=None, progress=False) >= 1
    assert "--check-every 1 --timeout none --out" in capsys.readouterr().out  # not the command's default 300
    assert states_equal([float("nan"), 1], [float("nan"), 1]) and not states_equal([float("nan")], [0.0])


def test_the_fuzz_command_reports_a_stuck_pool_as_a_finding(monkeypatch, capsys):
    from monolith_envs.__main__ import main
    from monolith_envs.core import fuzz

    def stuck(*args, **kwargs):
        raise fuzz.StuckWorkersError("fuzz: no rollout came back for 61 s ...")

    monkeypatch.setattr(fuzz, "run_fuzz", stuck)
    assert main(["fuzz", "toy_tictactoe_v0", "--games", "2", "--workers", "2"]) == 1  # a hang found, not bad input
    assert capsys.readouterr().err.startswith("error: fuzz: no rollout came back for 61 s")
