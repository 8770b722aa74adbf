"""Episode logs, replay and the fuzz / check / replay command lines refuse bad input on one line with exit
status 2 (issue 11 items 5 and 6)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import numpy as np
import pytest

import monolith_envs
from monolith_envs.__main__ import main

TOY = "toy_tictactoe_v0"


def _good_log(tmp_path):
    env = monolith_envs.make(TOY, wrapped=False)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while not env.terminations[env.agent_selection]:
        env.step(int(rng.choice(env.legal_actions())))
    return env.episode_log.to_json()


def _write(tmp_path, data, name="log.json"):
    p = tmp_path / name
    if isinstance(data, bytes):
        p.write_bytes(data)
    else:
        p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def _nested(depth):
    return "[" * depth + "]" * depth


def _replay_error(path, capsys):
    code = main(["replay", path, "--quiet"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert path in err, err
    return err


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d["actions"].__setitem__(0, 9), "actions[0] = 9 is out of range"),
    (lambda d: d["actions"].__setitem__(1, -1), "actions[1] = -1 is negative"),
    (lambda d: d["actions"].__setitem__(1, 2.5), "actions[1] = 2.5"),
    (lambda d: d.update(seed=-1), "field 'seed' is -1"),
    (lambda d: d.update(seed=2**200), "field 'seed' is 16069"),
    (lambda d: d.pop("format"), "missing field 'format'"),
    (lambda d: d.update(format="other/1"), "field 'format' is 'other/1'"),
    (lambda d: d.update(note=5), "field 'note' must be a string"),
    (lambda d: d.update(extra=1), "unknown field(s) 'extra'"),
    (lambda d: d.update(config={"size": 4}), "field 'env_id' or 'config' cannot be replayed"),
    (lambda d: d.update(env_id="nope_v0"), "field 'env_id' or 'config'"),
    (lambda d: d.update(note=json.loads(_nested(40))), "nested deeper than 32"),
])
def test_malformed_log_fields(tmp_path, capsys, mutate, field):
    d = _good_log(tmp_path)
    mutate(d)
    err = _replay_error(_write(tmp_path, d), capsys)
    assert field in err, err


@pytest.mark.parametrize("content, fragment", [
    (b'{"format": "monolith_envs.episode_log/2", "note": "caf\xe9"}', "byte 54 (0xe9) is not valid UTF-8"),
    (_nested(100000), "nested deeper than Python can read"),
    ('{"format": "monolith_envs.episode_log/2", "seed": ' + "9" * 5000 + "}", "a value cannot be read"),
    ('{"format": ', "not valid JSON at line 1"),
    ("[1, 2]", "an episode log is a JSON object"),
    ('{"format": "monolith_envs.episode_log/2", "seed": 7, "seed": 8}', "the key 'seed' appears twice in one object"),
    ('{"format": "monolith_envs.episode_log/2", "actions": [' + ", ".join(["0"] * 4_000_001) + "]}",
     "more than 4,000,000 numbers"),
])
def test_malformed_log_files(tmp_path, capsys, content, fragment):
    err = _replay_error(_write(tmp_path, content), capsys)
    assert fragment in err, err


def test_fifo_directory_and_missing_log(tmp_path, capsys):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert "not a regular file" in _replay_error(str(fifo), capsys)
    assert "not a regular file" in _replay_error(str(tmp_path), capsys)
    assert "cannot read episode log" in _replay_error(str(tmp_path / "none.json"), capsys)


def test_good_log_still_replays(tmp_path, capsys):
    assert main(["replay", _write(tmp_path, _good_log(tmp_path)), "--quiet"]) == 0
    assert "end: terminal=True" in capsys.readouterr().out


@pytest.mark.parametrize("argv, fragment", [
    (["fuzz", TOY, "--games", "0"], "argument --games: 0 is below 1"),
    (["fuzz", TOY, "--workers", "0"], "argument --workers: 0 is below 1"),
    (["fuzz", TOY, "--sample", "-1"], "argument --sample: -1 is below 0"),
    (["fuzz", TOY, "--seed", "-1"], "argument --seed: expected an integer from 0 to 2**128-1, got -1"),
    (["fuzz", TOY, "--check-every", "-2"], "argument --check-every: -2 is below 0"),
    (["fuzz", TOY, "--games", "x"], "argument --games: 'x' is not an integer"),
    (["fuzz", TOY, "--config", "[1]"], "argument --config: must be a JSON object"),
    (["check", TOY, "--games", "-1"], "argument --games: -1 is below 1"),
    (["check", TOY, "--seed", "-3"], "argument --seed: expected an integer from 0 to 2**128-1, got -3"),
])
def test_arguments_are_validated(argv, fragment, capsys, tmp_path):
    if argv[0] == "fuzz":  # keep a run short and out of the working folder should the check be missing
        for opt, v in (("--games", "1"), ("--workers", "1"), ("--out", str(tmp_path))):
            if opt not in argv:
                argv = argv + [opt, v]
        argv = argv + ["--no-progress"]
    elif "--games" not in argv:
        argv = argv + ["--games", "1"]
    with pytest.raises(SystemExit) as ei:
        main(argv)
    assert ei.value.code == 2
    assert fragment in capsys.readouterr().err


def test_out_is_checked_before_the_run(tmp_path, capsys):
    blocker = tmp_path / "taken"
    blocker.write_text("x")
    code = main(["fuzz", TOY, "--games", "3", "--workers", "1", "--no-progress", "--out", str(blocker)])
    out, err = capsys.readouterr()
    assert code == 2 and "fuzz " not in out
    assert err == f"error: --out {blocker}: exists and is not a folder; give a folder for the failure logs\n"
    code = main(["fuzz", TOY, "--games", "3", "--workers", "1", "--no-progress", "--out", str(blocker / "sub")])
    assert code == 2 and "cannot be created" in capsys.readouterr().err


def test_reproduce_command_is_exact(tmp_path, capsys):
    from tests.core.test_conformance_checks import MiscountsExtraTurns
    from tests.toy_game import module_for

    mod = module_for(MiscountsExtraTurns, "toy_fuzzbad_v0")
    monolith_envs.register("toy_fuzzbad_v0", lambda: mod)
    argv = ["fuzz", "toy_fuzzbad_v0", "--games", "4", "--workers", "1", "--no-progress", "--sample", "3",
            "--check-every", "2", "--out", str(tmp_path), "--config", "{}"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    first = next(ln for ln in out.splitlines() if ln.startswith("FAILURE"))
    cmd = next(ln for ln in out.splitlines() if "reproduce:" in ln).split("reproduce: ", 1)[1]
    assert "--sample 3 --check-every 2" in cmd and "--config '{}'" in cmd
    words = shlex.split(cmd)
    assert words[:3] == ["python", "-m", "monolith_envs"]
    assert main(words[3:] + ["--no-progress"]) == 1
    again = capsys.readouterr().out
    assert first in again.splitlines() and "games=1 " in again


@pytest.mark.parametrize("cmd", ["fuzz", "check", "replay"])
def test_help_shows_every_default(cmd, capsys):
    with pytest.raises(SystemExit) as ei:
        main([cmd, "--help"])
    assert ei.value.code == 0
    text = capsys.readouterr().out
    options = text.split("options:", 1)[1]
    entries = [e for e in options.split("\n  -") if e.strip() and not e.strip().startswith("h, --help")]
    assert entries and all("(default:" in e for e in entries), text


def test_preload_registers_an_env_for_fuzz_check_and_replay(tmp_path):
    run = [sys.executable, "-m", "monolith_envs"]
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    r = subprocess.run(run + ["fuzz", TOY, "--games", "4", "--workers", "1", "--no-progress"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("error: unknown env id") and "Traceback" not in r.stderr
    r = subprocess.run(run + ["fuzz", TOY, "--games", "4", "--workers", "2", "--no-progress",
                              "--preload", "tests.preload_toy"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "games=4" in r.stdout and "failures=0" in r.stdout, r.stderr
    log = _write(tmp_path, _good_log(tmp_path))
    r = subprocess.run(run + ["replay", log, "--quiet", "--preload", "tests.preload_toy"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "end: terminal=True" in r.stdout, r.stderr
    r = subprocess.run(run + ["check", TOY, "--games", "1", "--preload", "tests.preload_toy"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "checks passed over 1 game," in r.stdout, r.stderr


def test_an_engine_exception_in_a_replay_is_a_finding_with_its_step(tmp_path, capsys, monkeypatch):
    """The log of a game whose engine raises (as fuzz writes for an exception) replays to that step: one
    ``error:`` line naming the step, the exception and the action, exit 1; ``--html`` writes the page up to it."""
    log = _write(tmp_path, _good_log(tmp_path))
    game_cls = monolith_envs.game_class(TOY)
    real = game_cls.apply

    def apply(self, state, action, rng):
        if int((state.board >= 0).sum()) >= 2:  # the third move of the game (-1: an empty cell)
            raise RuntimeError("injected failure")
        return real(self, state, action, rng)

    monkeypatch.setattr(game_cls, "apply", apply)
    assert main(["replay", log, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {log}: step 2: the engine raised RuntimeError: injected failure while playing ")
    assert err.count("\n") == 1 and "Traceback" not in err, err
    page = tmp_path / "page.html"
    assert main(["replay", log, "--html", str(page)]) == 1
    err = capsys.readouterr().err
    assert f"the page up to that step is written to {page}" in err and "Traceback" not in err, err
    text = page.read_text()
    tag = '<script id="frames" type="application/json">'
    frames = json.loads(text[text.index(tag) + len(tag):text.index("</script>", text.index(tag))])["frames"]
    assert len(frames) == 4 and frames[-1]["action"] is None and frames[-2]["step"] == 2
    assert frames[-1]["result"].startswith("the engine failed: step 2: the engine raised RuntimeError")
    assert main(["replay", log.replace("log.json", "none.json"), "--quiet"]) == 2  # a missing log is still bad input
    capsys.readouterr()


def test_a_log_of_an_unregistered_env_suggests_preload(tmp_path, capsys):
    d = _good_log(tmp_path)
    d["env_id"] = "plugin_game_v0"
    err = _replay_error(_write(tmp_path, d), capsys)
    assert "unknown env id 'plugin_game_v0'" in err and "replays with the same --preload MODULE" in err, err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_preload_that_changes_a_game_reaches_every_worker(tmp_path, workers):
    run = [sys.executable, "-m", "monolith_envs", "fuzz", TOY, "--games", "2", "--workers", workers, "--no-progress",
           "--check-every", "0", "--preload", "tests.preload_breaks_toy", "--out", str(tmp_path)]
    r = subprocess.run(run, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=os.getcwd()), timeout=120)
    assert r.returncode == 1 and "failures=2" in r.stdout, (r.stdout, r.stderr)
    assert "injected by tests.preload_breaks_toy" in r.stdout + r.stderr


def test_replay_of_a_check_failure_runs_the_check_again_at_the_last_position(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    run = [sys.executable, "-m", "monolith_envs", "fuzz", TOY, "--games", "4", "--workers", "1", "--no-progress",
           "--preload", "tests.preload_breaks_toy", "--out", str(tmp_path)]
    assert subprocess.run(run, capture_output=True, text=True, env=env, timeout=120).returncode == 1
    logs = [p for p in sorted(tmp_path.glob("*.json"))
            if json.loads(p.read_text())["note"].startswith("[masked_actions_apply]")]
    assert logs, "no masked_actions_apply failure to replay"
    replay = [sys.executable, "-m", "monolith_envs", "replay", str(logs[0]), "--quiet",
              "--preload", "tests.preload_breaks_toy"]
    r = subprocess.run(replay, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert ("the note's check [masked_actions_apply] fails again at this position" in r.stdout
            and "injected by tests.preload_breaks_toy" in r.stdout)
    # the same log against the unbroken game: the check passes there now, and the replay says so
    r = subprocess.run([*replay[:-2], "--preload", "tests.conftest"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0 and "the note's check [masked_actions_apply] passes at this position now" in r.stdout


@pytest.mark.parametrize("check, said, code", [
    ("hidden_info", "did not fail again at this position (fuzz resampled the hidden information", 0),
    ("clone", "passes at this position now (the engine changed", 0),
    ("unmasked_actions_raise", "passes at this position now, every action tried", 0),
    ("invariants", None, 0),  # not a per-step check on copies: nothing more is said
])
def test_replay_words_the_outcome_of_the_notes_check_by_check(tmp_path, capsys, check, said, code):
    from monolith_envs.core.replay import EpisodeLog

    env = monolith_envs.make(TOY)
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    log = env.unwrapped.episode_log
    path = EpisodeLog(log.env_id, log.config, log.seed, log.actions, note=f"[{check}] something",
                      chance=log.chance).save(tmp_path / "x.json")
    assert main(["replay", str(path), "--quiet"]) == code
    out = capsys.readouterr().out
    assert (f"the note's check [{check}] {said}" in out) if said else "the note's check" not in out, out


def test_check_reports_each_episode_and_says_what_was_checked_when_stopped(capsys, monkeypatch):
    import signal

    from monolith_envs.core import testing
    from monolith_envs.core.interrupt import Interrupted

    counts = []
    rep = testing.check_env(monolith_envs.env_module(TOY).raw_env, {}, games=3, seed=0,
                            progress=lambda r: counts.append((r.episodes, r.decisions)))
    assert [e for e, _ in counts] == [1, 2, 3] and counts[-1][1] == rep.decisions > 0
    real = testing.check_env

    def stopped(*args, progress=None, **kw):  # two episodes checked, then Ctrl-C
        real(*args, **dict(kw, games=2), progress=progress)
        raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(testing, "check_env", stopped)
    assert main(["check", TOY, "--games", "5", "--no-progress"]) == 130
    err = capsys.readouterr().err
    assert f"check stopped after 2 of 5 games ({counts[1][1]} decisions): no check failed in them" in err, err
    assert err.rstrip().endswith("interrupted by SIGINT") and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["fuzz", "monolith_arena_v0", "--games", "0"], "argument --games: 0 is below 1"),
    (["check", "monolith_arena_v0", "--config", "{num_players:4}"], "argument --config: not valid JSON"),
    (["fuzz", "monolith_arena_v0", "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
])
def test_a_usage_error_is_one_line_without_the_usage(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("python -m monolith_envs") and ": error: " in err and message in err
