"""Bad command-line arguments against every command, with a bounded, seeded budget
(tests/hostile/cli_campaign.py): each case ends with exit status 2, one escaped ``error:`` line and no
traceback, and never starts the work.  The fixed cases below are the defects the campaign found."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.cli.signals import ROOT
from tests.hostile.cli_campaign import Tally, check_output, make_files, run_campaign, run_case

SEED = 20261201
MODULES = ("monolith_envs", "training.train", "training.evaluate", "agents.play", "benchmarks.run")


def _assert_refused(module, argv, timeout=15.0):
    code, output, problem = run_case(module, argv, timeout)
    what = check_output(code, output, problem)
    assert what is None, f"{[module, *argv]!r}: {what}\n{output[-800:]}"
    return output


def test_seeded_campaign_of_bad_arguments_ends_each_case_with_one_error_line(tmp_path):
    t0 = time.perf_counter()
    t = run_campaign(Tally(), 10, SEED, tmp_path, timeout=15.0)
    assert t.tried == 10 * 7  # fuzz, replay, check, train, evaluate, play, benchmarks
    assert not t.findings, "\n".join(str(f) for f in t.findings[:5])
    assert time.perf_counter() - t0 < 120


# ------------------------------------------------------------------ the defects the campaign found
_UNKNOWN_NUL = {
    "monolith_envs": ["check", "monolith_arena_v0", "--\x00"],
    "training.train": ["--quick", "--\x1b[2J"],
    "training.evaluate": ["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--\x00"],
    "agents.play": ["monolith_arena_v0", "--\x00"],
    "benchmarks.run": ["--quick", "--env", "monolith_arena_v0\x00\x1b]0;X\x07"],
}


@pytest.mark.parametrize("module", MODULES)
def test_usage_errors_escape_control_characters(module):
    out = _assert_refused(module, _UNKNOWN_NUL[module])
    assert "\x00" not in out and "\x1b" not in out
    assert "\\x00" in out or "\\x1b" in out


@pytest.mark.parametrize("module, argv", [
    ("monolith_envs", ["fuzz", "monolith_arena_v0", "--games", "1", "--preload", ""]),
    ("training.evaluate", ["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--preload", ""]),
    ("training.evaluate", ["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--preload", "nope_mod"]),
    ("agents.play", ["monolith_arena_v0", "--preload", "..x"]),
    ("agents.play", ["monolith_arena_v0", "--preload", "nope_mod"]),
    ("benchmarks.run", ["--quick", "--no-write", "--import", ""]),
])
def test_unimportable_module_names_are_one_error_line(module, argv):
    out = _assert_refused(module, argv)
    assert "not a module name" in out or "cannot import it" in out


def test_replay_of_a_path_with_a_nul_byte_is_one_error_line():
    out = _assert_refused("monolith_envs", ["replay", "a\x00b"])
    assert "error: a\\x00b: the path contains a NUL byte" in out


def test_check_games_is_bounded():
    out = _assert_refused("monolith_envs", ["check", "monolith_arena_v0", "--games", str(2**130)], timeout=5)
    assert "expected an integer from 1 to 100_000" in out


@pytest.mark.parametrize("seat", ["\u00b2", "9" * 400, "-1", "1.5"])
def test_play_seat_must_be_a_decimal_seat_number(seat):
    out = _assert_refused("agents.play", ["monolith_arena_v0", "--seed", "1", "--seat", seat])
    assert "--seat must be 0..1 or 'random'" in out


@pytest.mark.parametrize("host", ["", " ", "[]", "[::1", "\x00", "a b", "x" * 300])
def test_play_web_host_must_be_a_host_name(host):
    out = _assert_refused("agents.play", ["monolith_arena_v0", "--web", "--port", "0", "--host", host], timeout=5)
    assert "--host: must be a host name or address" in out


@pytest.mark.parametrize("port", ["\u00b2", "\u0663", "-1", "65536", "0x50", "9" * 400])
def test_play_web_port_must_be_a_decimal_port(port):
    out = _assert_refused("agents.play", ["monolith_arena_v0", "--web", "--port", port], timeout=5)
    assert "must be a port number 0-65535" in out


def test_trust_flag_help_names_ppo_and_rllib(capsys):
    from agents.play import _parser

    for module in ("training.evaluate", "agents.play"):
        code, output, _ = run_case(module, ["--help"])
        assert code == 0
        text = " ".join(output.split())
        assert "ppo:PATH model files and rllib:CHECKPOINT folders run the code" in text, module
        assert "mcts:N" in text and ", ppo:PATH, rllib:CHECKPOINT" in text, module  # the --agents / --opponents specs
    assert _parser().prog == "python -m agents.play"


# ------------------------------------------------------------------ real processes, stdin closed
def test_real_processes_end_with_status_2_and_one_error_line(tmp_path):
    files = make_files(tmp_path)
    cases = [
        ["monolith_envs", "fuzz", "nope_v0", "--games", "1", "--out", str(tmp_path / "f")],
        ["training.train", "--config", files["fifo"]],
        ["agents.play", "monolith_arena_v0", "--seat", "\u00b2"],
        ["benchmarks.run", "--quick", "--seed", str(2**130)],
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-m", *c], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for c in cases]
    for c, p in zip(cases, procs):
        try:
            out, _ = p.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            pytest.fail(f"{c!r} still running after 90 s")
        assert check_output(p.returncode, out, None) is None, (c, p.returncode, out[-800:])


@pytest.mark.parametrize("module, argv", [
    ("monolith_envs", ["check", "monolith_strategy_v0", "--games", "1", "--config", '{"env_id": "x"}']),
    ("monolith_envs", ["fuzz", "monolith_arena_v0", "--games", "1", "--config", '{"wrapped": false}']),
    ("training.evaluate", ["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--set", "env_id=x"]),
    ("agents.play", ["the_monolith_v0", "--set", "illegal_action=raise"]),
])
def test_make_arguments_are_not_game_config_keys(module, argv):
    out = _assert_refused(module, argv)
    assert "is not a game config key" in out


def test_fuzz_address_needs_the_ray_backend():
    out = _assert_refused("monolith_envs", ["fuzz", "monolith_arena_v0", "--games", "1", "--address", "127.0.0.1:9"],
                          timeout=5)
    assert "--address is an option of --backend ray" in out


def test_evaluate_bounds_the_number_of_agents():
    specs = ",".join(["random"] + [f"mcts:{i}" for i in range(1, 3000)])
    out = _assert_refused("training.evaluate", ["--env", "monolith_arena_v0", "--agents", specs, "--games", "1"],
                          timeout=5)
    assert "--agents: 3,000 specs; at most 32" in out


@pytest.mark.parametrize("out_dir", ["", " ", "a\x00b"])
def test_benchmarks_out_dir_must_be_a_folder_path(out_dir):
    out = _assert_refused("benchmarks.run", ["--quick", "--out-dir", out_dir], timeout=5)
    assert "--out-dir: give a folder path" in out


def test_empty_output_paths_are_refused(tmp_path):
    out = _assert_refused("training.evaluate", ["--env", "monolith_arena_v0", "--agents", "random,heuristic",
                                                "--games", "1", "--out", str(tmp_path / "e.json"), "--record-dir", ""])
    assert "--record-dir: the path is empty" in out
    out = _assert_refused("agents.play", ["monolith_arena_v0", "--seed", "1", "--record", " "])
    assert "--record: the path is empty" in out


@pytest.mark.parametrize("module, argv", [
    ("training.evaluate", ["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--games", "1"]),
    ("agents.play", ["monolith_arena_v0", "--seed", "1"]),
])
def test_deeply_nested_set_values_are_one_error_line(module, argv):
    out = _assert_refused(module, argv + ["--set", "num_players=" + "[" * 50000])
    assert "nested more than 32 brackets deep" in out


@pytest.mark.parametrize("path", ["", " "])
def test_evaluate_out_must_not_be_empty(path, tmp_path):
    out = _assert_refused("training.evaluate", ["--env", "monolith_arena_v0", "--agents", "random,heuristic",
                                                "--games", "1", "--out", path])
    assert "--out: the path is empty" in out
