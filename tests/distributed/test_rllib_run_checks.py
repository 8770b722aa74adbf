"""``python -m training.rllib`` around Ray: env runners that a local instance has no CPUs for are refused before
Ray starts, ``--address`` is checked (its form up front, a head node that cannot be reached as one error line,
no run folder left behind), a stop while Ray starts or RLlib builds the algorithm is the clean stop (130 / 143),
an earlier run of the same name is moved aside, and the closing lines are worded for one runner, sub-second
runs and one-seat games.  None of these tests starts Ray: ``ray.init`` / the algorithm are stand-ins."""

from __future__ import annotations

import os
import signal
import socket
import sys

import pytest

from tests.distributed.conftest import TOY_PRELOAD

pytest.importorskip("ray")

TOY = "toy_tictactoe_v0"


def _main(tmp_path, *argv: str):
    """``training.rllib.main`` on the toy game under ``tmp_path/sub``: ``(exit status, stderr lines)``; a
    ``KeyboardInterrupt`` that escapes (a stop that is not the clean one) fails the test instead of pytest."""
    from training.rllib import main

    args = ["--env", TOY, "--preload", TOY_PRELOAD, "--set", f"out_dir='{tmp_path / 'sub'}'", "--set", "name=run",
            "--set", "total_timesteps=200", *argv]
    try:
        main(args)
    except SystemExit as e:
        return e.code
    except KeyboardInterrupt as e:  # noqa: PERF203
        pytest.fail(f"a KeyboardInterrupt escaped main: {e!r}")
    return 0


def _one_error(capsys) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# 1. env runners and CPUs

@pytest.mark.parametrize("argv, says", [
    (["--num-env-runners", "2", "--set", "ray_num_cpus=1"],
     ["--num-env-runners (2)", "'ray_num_cpus' gives it 1", "use at most 1 env runner",
      "ray_num_cpus of at least 2"]),
    (["--set", "num_env_runners=3", "--set", "ray_num_cpus=2"],
     ["config key 'num_env_runners' (3)", "'ray_num_cpus' gives it 2", "use at most 2 env runners"]),
])
def test_more_env_runners_than_local_cpus_is_refused_before_ray(no_ray, capsys, tmp_path, argv, says):
    assert _main(tmp_path, *argv) == 2
    line = _one_error(capsys)
    assert all(s in line for s in says), line
    assert not (tmp_path / "sub").exists()


def test_all_of_the_machine_cpus_are_counted_when_ray_num_cpus_is_0(no_ray, capsys, tmp_path, monkeypatch):
    from training import rllib_ray

    monkeypatch.setattr(rllib_ray, "local_cpus", lambda: 2)
    assert _main(tmp_path, "--num-env-runners", "3") == 2
    line = _one_error(capsys)
    assert "--num-env-runners (3)" in line and "this process may use 2 CPUs" in line and "at most 2" in line


def test_a_cluster_with_fewer_cpus_than_env_runners_is_an_error_once_joined(monkeypatch):
    import ray

    from training.rllib_ray import RayStartError, _init_ray

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: None)
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 1.0})
    with pytest.raises(RayStartError, match=r"'num_env_runners' \(4\) needs one CPU per env runner, but the Ray "
                                            r"cluster at 'auto' has 1 CPU: use at most 1 env runner"):
        _init_ray({"address": "auto", "ray_num_cpus": 0, "num_env_runners": 4})


def test_a_ray_already_joined_is_checked_for_cpus_too(monkeypatch):
    """A caller that joined Ray itself (training.rllib.train as a library): too few CPUs still refused."""
    import ray

    from training.rllib_ray import RayStartError, _init_ray

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 2.0})
    with pytest.raises(RayStartError, match=r"'num_env_runners' \(3\) needs one CPU per env runner, but the local "
                                            r"Ray instance has 2 CPUs: use at most 2 env runners"):
        _init_ray({"address": None, "ray_num_cpus": 0, "num_env_runners": 3})
    assert _init_ray({"address": None, "ray_num_cpus": 0, "num_env_runners": 2}) is False


# 3. --address

@pytest.mark.parametrize("address", ["foo bar", "host", "host:0", "host:99999", ":80", "ray://", "a:b"])
def test_a_malformed_address_is_one_error_line_before_ray(no_ray, capsys, tmp_path, address):
    assert _main(tmp_path, "--address", address) == 2
    line = _one_error(capsys)
    assert "config key 'address' (--address): must be 'auto'" in line and "HOST:PORT" in line
    assert not (tmp_path / "sub").exists()


def test_well_formed_addresses_pass():
    from training.rllib_ray import check_address

    assert check_address("") is None and check_address("auto") is None
    assert check_address("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert check_address("head-node.example.org:6379") == ("head-node.example.org", 6379)
    assert check_address("[::1]:6379") == ("::1", 6379)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_where_nothing_listens_is_one_error_line_and_no_run_folder(capsys, tmp_path):
    port = _closed_port()
    assert _main(tmp_path, "--address", f"127.0.0.1:{port}") == 2
    line = _one_error(capsys)
    assert f"cannot reach a Ray cluster at 127.0.0.1:{port}" in line
    assert not (tmp_path / "sub").exists()  # nothing written: config.json, metrics.jsonl, tb/ come after Ray


def test_ray_num_cpus_with_an_address_is_said_to_be_ignored(capsys, tmp_path):
    port = _closed_port()
    assert _main(tmp_path, "--address", f"127.0.0.1:{port}", "--set", "ray_num_cpus=1") == 2
    err = capsys.readouterr().err
    assert ("note: config key 'ray_num_cpus' (1) is ignored with --address: the cluster's own CPUs count "
            "(checked once it is joined)") in err
    assert _main(tmp_path, "--address", f"127.0.0.1:{port}") == 2
    assert "ray_num_cpus" not in capsys.readouterr().err


def test_auto_without_a_cluster_is_one_error_line_and_no_run_folder(capsys, tmp_path, monkeypatch):
    import ray

    def no_cluster(**_kw):
        raise ConnectionError("Could not find any running Ray instance. Please specify the one to connect to")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", no_cluster)
    (tmp_path / "sub").mkdir()  # out_dir exists already: it stays, the run folder made inside it does not
    assert _main(tmp_path, "--address", "auto") == 2
    line = _one_error(capsys)
    assert "cannot join the Ray cluster at 'auto' (ConnectionError: Could not find any running Ray" in line
    assert (tmp_path / "sub").is_dir() and not (tmp_path / "sub" / "run").exists()


# 2. a stop while Ray starts or RLlib builds the algorithm

def test_sigterm_inside_ray_init_is_the_clean_stop(capsys, tmp_path, monkeypatch):
    """Ray's own SIGTERM handler (``sys.exit(15)``) is in force inside ``ray.init``."""
    import ray

    def init(**_kw):
        signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(signum))  # as ray.init does
        os.kill(os.getpid(), signal.SIGTERM)
        raise AssertionError("the signal should have stopped ray.init")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    assert _main(tmp_path, "--num-env-runners", "0") == 143
    err = capsys.readouterr().err
    assert "Traceback" not in err and "interrupted by SIGTERM during Ray start" in err, err
    assert "no outputs written" in err and err.rstrip().endswith("exit status 143")
    assert not (tmp_path / "sub").exists()


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stop_inside_ray_init_is_held_until_it_returns(capsys, tmp_path, monkeypatch, sig, code):
    """No exception is raised in the middle of Ray's start (one can hang it); the stop follows it."""
    import ray

    done = []

    def init(**_kw):
        ray._private.utils.set_sigterm_handler(lambda signum, _frame: sys.exit(signum))  # as ray.init does
        os.kill(os.getpid(), sig)
        done.append(True)

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    assert _main(tmp_path, "--num-env-runners", "0") == code
    err = capsys.readouterr().err
    assert done and "Traceback" not in err and f"interrupted by {signal.Signals(sig).name} during Ray start" in err
    assert err.rstrip().endswith(f"exit status {code}")


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stop_while_rllib_builds_the_algorithm_is_the_clean_stop(capsys, tmp_path, monkeypatch, sig, code):
    """Inside ``ray.wait`` Ray raises a plain ``KeyboardInterrupt`` in place of the handler's Interrupted."""
    from monolith_envs.core.interrupt import Interrupted
    from training import rllib

    class Config:
        def build_algo(self):
            try:
                os.kill(os.getpid(), sig)  # the stop handler raises Interrupted here
                raise AssertionError("the signal should have stopped the build")
            except Interrupted:
                raise KeyboardInterrupt from None  # as ray._raylet.check_status does

    monkeypatch.setattr(rllib, "_init_ray", lambda cfg: True)
    monkeypatch.setattr(rllib, "build_config", lambda cfg: Config())
    assert _main(tmp_path, "--num-env-runners", "0") == code
    err = capsys.readouterr().err
    name = signal.Signals(sig).name
    assert "Traceback" not in err and f"interrupted by {name} during the algorithm's start at 0 of 200" in err, err
    assert err.rstrip().endswith(f"exit status {code}")


# 6. an earlier run of the same name

def test_an_earlier_run_of_the_same_name_is_moved_aside(capsys, tmp_path, monkeypatch):
    from monolith_envs.core.interrupt import Interrupted
    from training import rllib

    run = tmp_path / "sub" / "run"
    for f in ("checkpoints/step_200/algorithm_state.pkl", "final_checkpoint/algorithm_state.pkl", "report.json",
              "metrics.jsonl", "config.json", "notes.txt"):
        (run / f).parent.mkdir(parents=True, exist_ok=True)
        (run / f).write_text("earlier")

    class Config:
        def build_algo(self):
            raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(rllib, "_init_ray", lambda cfg: True)
    monkeypatch.setattr(rllib, "build_config", lambda cfg: Config())
    assert _main(tmp_path, "--num-env-runners", "0") == 130
    err = capsys.readouterr().err
    kept = run / "earlier_run"
    assert f"note: {run} held an earlier run" in err and str(kept) in err, err
    assert not (run / "checkpoints").exists() and not (run / "final_checkpoint").exists()
    assert not (run / "report.json").exists() and (run / "notes.txt").read_text() == "earlier"
    assert (kept / "checkpoints" / "step_200" / "algorithm_state.pkl").read_text() == "earlier"
    assert (kept / "final_checkpoint" / "algorithm_state.pkl").is_file() and (kept / "report.json").is_file()
    assert (kept / "config.json").read_text() == "earlier" and (run / "config.json").read_text() != "earlier"


# 7. wording

def test_seconds_are_worded_for_short_and_long_runs():
    from training.rllib import seconds_text

    assert [seconds_text(t) for t in (0.01, 0.44, 9.94, 12.3, 125)] == ["under 0.1 s", "0.4 s", "9.9 s", "12 s",
                                                                         "2 min 5 s"]


def test_the_closing_lines_use_singulars_and_a_solo_success_rate(capsys, tmp_path, monkeypatch):
    from training import rllib

    solo = {"games": 1, "successes": 0, "success_rate": 0.0, "ci95": [0.0, 0.79], "mean_score": 0.0, "wins": 0,
            "draws": 0, "losses": 1, "win_rate": 0.0, "opponent": "alone"}

    def train(cfg, guard):
        return {"run": "run", "learner_steps": 1, "final_eval": {"alone": solo},
                "throughput": {"train_seconds": 0.4, "env_steps_per_s": 2.5}}

    monkeypatch.setattr(rllib, "train", train)
    assert _main(tmp_path, "--num-env-runners", "1") == 0
    out = capsys.readouterr().out
    assert "run run: 1 learner step in 0.4 s (2 env steps/s incl. opponents, 1 env runner)" in out, out
    assert "  alone: 0.0% success  (95% CI 0.0%-79.0%)  0 of 1, mean score 0" in out, out
    assert "win rate" not in out and "0W 0D 1L" not in out
