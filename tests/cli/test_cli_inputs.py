"""Hostile and careless input to ``fuzz``, ``replay``, ``check`` and ``benchmarks.run``: escaped log text,
bounded and streamed fuzz jobs, reserved config keys, output paths checked before the work, the one seed
bound, plain ``--stem`` names, unknown ids, an unreachable Ray address, short mismatch errors and atomic
log writes."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import monolith_envs
from monolith_envs.__main__ import main
from monolith_envs.core import fuzz as fuzz_mod
from monolith_envs.core.chance import ChanceEvent
from monolith_envs.core.game import MonolithEnvError
from monolith_envs.core.replay import EpisodeLog, LogError, load_log, replay_steps
from tests.cli.signals import ROOT

TOY = "toy_tictactoe_v0"
PIG = "toy_pig_v0"
ESC = "\x1b]0;pwned\x07\x1b[2J\x1b[31mFAKE"


def _toy_log(tmp_path, name="log.json", **fields):
    env = monolith_envs.make(TOY, wrapped=False)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while not env.terminations[env.agent_selection]:
        env.step(int(rng.choice(env.legal_actions())))
    data = env.episode_log.to_json()
    data.update(fields)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path, data


def _run(args, timeout=60, **kw):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), **kw)


def _one_error_line(text: str) -> str:
    assert "Traceback" not in text, text
    lines = [ln for ln in text.splitlines() if "error:" in ln]
    assert len(lines) == 1, text
    return lines[0]


# ------------------------------------------------------------------ escaped text (issue 19 item 4)
def test_printable_escapes_control_characters_and_bidi_overrides():
    from monolith_envs.core.replay import printable

    assert printable(ESC) == "\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mFAKE"
    assert printable("a\u202eb\x9bc\x7f") == "a\\u202eb\\x9bc\\x7f"
    assert printable("board\nrow", keep_newlines=True) == "board\nrow"
    assert printable("board\nrow") == "board\\x0arow"


def test_replay_prints_a_hostile_note_escaped(tmp_path, capsys):
    path, _ = _toy_log(tmp_path, note=ESC + "\nsecond line")
    assert main(["replay", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "note: \\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mFAKE (+1 more line in the log's note)\n" in out


def test_replay_errors_quoting_log_text_are_escaped(tmp_path, capsys):
    path, _ = _toy_log(tmp_path, env_id=ESC)
    assert main(["replay", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.count("\n") == 1 and "\\x1b]0;pwned" in err


# ------------------------------------------------------------------ fuzz jobs streamed, bounded (item 7)
class _SyncPool:
    """A stand-in for ``multiprocessing.Pool`` that runs each chunk at once and records the chunks."""

    def __init__(self):
        self.chunks = []

    def apply_async(self, fn, args, callback, error_callback):
        self.chunks.append(args[0])
        callback([fuzz_mod.RolloutResult(seed=j[0], decisions=1) for j in args[0]])


def test_fuzz_pool_reads_the_jobs_as_it_submits_them():
    pool = _SyncPool()
    endless = ((s, 8, ("invariants",), 1) for s in itertools.count())
    first = list(itertools.islice(fuzz_mod._pool_results(pool, endless, size=4, window=3), 10))
    assert [r.seed for r in first] == list(range(10))
    # a window of chunks ahead of the consumer, not the whole (endless) list
    assert len(pool.chunks) <= 3 + 2 and all(len(c) == 4 for c in pool.chunks)


def test_fuzz_of_ten_billion_games_runs_in_bounded_memory(tmp_path):
    """10^10 games start at once under a 2 GiB address-space cap (the job list is not built) and stop on a
    signal with the summary."""
    code = f"""
import os, resource, signal, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
import tests.conftest  # registers {TOY}
import monolith_envs
from monolith_envs.core.fuzz import run_fuzz
from monolith_envs.core.interrupt import Interrupted
cls = monolith_envs.game_class({TOY!r})
class StopsAfterFive(cls):
    made = 0
    def initial_state(self, rng):  # twice a game: its rollout, then the replay of its seed and actions
        StopsAfterFive.made += 1
        if StopsAfterFive.made == 11:
            os.kill(os.getpid(), signal.SIGINT)
        return super().initial_state(rng)
try:
    run_fuzz(StopsAfterFive, 10**10, 0, 1, {{}}, {str(tmp_path)!r}, progress=False)
except Interrupted as exc:
    sys.exit(exc.exit_code)
"""
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 130, p.stdout + p.stderr
    assert "MemoryError" not in p.stderr and "Traceback" not in p.stderr
    assert re.search(r"games=[56] decisions=\d+", p.stdout), p.stdout
    assert "stopped after" in p.stdout and "of 10000000000 games; no failure found" in p.stdout


@pytest.mark.parametrize("games, msg", [(10**12 + 1, "1000000000001"), (10**40, "an integer of 41 digits")])
def test_run_fuzz_bounds_games(games, msg, tmp_path):
    game_cls = monolith_envs.game_class(TOY)
    with pytest.raises(MonolithEnvError, match=re.escape(f"fuzz: games={msg}; expected an integer from 1 to "
                                                         "1_000_000_000_000")):
        fuzz_mod.run_fuzz(game_cls, games, 0, 1, {}, str(tmp_path), progress=False)


@pytest.mark.parametrize("argv, fragment", [
    (["--games", str(10**13)], "argument --games: 10000000000000 is above 1_000_000_000_000"),
    (["--games", "10**10"], "argument --games: '10**10' is not an integer"),
    (["--workers", "100000"], "argument --workers: 100000 is above 1_024"),
    (["--sample", str(10**7)], "argument --sample: 10000000 is above 1_000_000"),
    (["--seed", str(2**130)], "argument --seed: expected an integer from 0 to 2**128-1"),
    (["--seed", str(2**128 - 1), "--games", "2"], "error: fuzz: seeds 340282366920938463463374607431768211455 .."),
])
def test_fuzz_arguments_are_bounded(argv, fragment, tmp_path, capsys):
    args = ["fuzz", TOY, "--workers", "1", "--no-progress", "--out", str(tmp_path)] + argv
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and "Traceback" not in err, err


def test_check_seed_uses_the_one_bound(capsys):
    with pytest.raises(SystemExit) as ei:
        main(["check", TOY, "--seed", str(2**128)])
    assert ei.value.code == 2
    assert "argument --seed: expected an integer from 0 to 2**128-1, got 3402" in capsys.readouterr().err


def test_a_fuzz_log_of_the_largest_seed_replays(tmp_path, capsys):
    from tests.cli import preload_faulty  # noqa: F401  (registers toy_faulty_v0)

    seed = 2**128 - 1
    code = main(["fuzz", "toy_faulty_v0", "--games", "30", "--seed", str(seed - 29), "--workers", "1",
                 "--no-progress", "--out", str(tmp_path)])
    capsys.readouterr()
    assert code == 1
    for log in tmp_path.glob("*.json"):
        assert load_log(log).seed >= seed - 29
        assert main(["replay", str(log), "--quiet"]) == 1  # the invariant failure, not a refused seed


# ------------------------------------------------------------------ replay config keys (item 10)
@pytest.mark.parametrize("key", ["wrapped", "env_id", "render_mode", "mask_in"])
def test_replay_refuses_make_arguments_in_the_config(key, tmp_path, capsys):
    path, _ = _toy_log(tmp_path, config={key: True})
    assert main(["replay", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: field 'config' holds '{key}', which is not a game config key")
    assert err.count("\n") == 1


# ------------------------------------------------------------------ replay --html paths (items 11, 12)
@pytest.mark.parametrize("target, why", [("DIR", "is a folder"), ("/dev/full", "is not a regular file"),
                                         ("/proc/nope/page.html", "cannot be created"),
                                         ("/proc/page.html", "cannot write in /proc")])
def test_replay_html_checks_the_path_before_rendering(target, why, tmp_path, capsys, monkeypatch):
    from monolith_envs.core import html_replay

    def no_frames(*_a, **_k):
        raise AssertionError("frames were rendered before the path was checked")

    monkeypatch.setattr(html_replay, "episode_frames", no_frames)
    path, _ = _toy_log(tmp_path)
    out = str(tmp_path) if target == "DIR" else target
    assert main(["replay", str(path), "--html", out]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --html {out}: ") and why in err and err.count("\n") == 1, err


def test_html_page_keeps_two_script_elements_whatever_the_text(tmp_path):
    from monolith_envs.core.html_replay import episode_frames, pack_frames, render_html

    path, _ = _toy_log(tmp_path, note="<!--<script>x")
    log = load_log(path)
    make = lambda eid, **cfg: monolith_envs.make(eid, wrapped=False, **cfg)  # noqa: E731
    frames = episode_frames(log, make)
    frames[0]["text"] = "<!--<script>x</script><!-- -->"  # a content name as a board render could show it
    page = render_html(log, frames)
    assert page.count("<script") == 2 and page.count("</script>") == 2 and "<!--" not in page
    start = page.index(">", page.index('<script id="frames"')) + 1
    assert json.loads(page[start:page.index("</script>", start)]) == json.loads(json.dumps(pack_frames(frames)))


def test_replay_html_writes_the_page(tmp_path, capsys):
    path, _ = _toy_log(tmp_path)
    out = tmp_path / "new" / "page.html"
    assert main(["replay", str(path), "--html", str(out)]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in out.parent.iterdir()) == ["page.html"]  # no probe or temporary file left


# ------------------------------------------------------------------ output paths created first (item 13)
def test_fuzz_out_is_checked_by_creating_it_even_as_root(tmp_path, capsys):
    from tests.cli import preload_faulty  # noqa: F401

    code = main(["fuzz", "toy_faulty_v0", "--games", "40", "--workers", "1", "--no-progress",
                 "--out", "/proc/fuzz_logs"])
    out, err = capsys.readouterr()
    assert code == 2 and "FAILURE" not in out and "fuzz " not in out, out
    assert err.startswith("error: --out /proc/fuzz_logs: cannot be created as a folder") and "Traceback" not in err


def test_fuzz_out_is_created_before_the_run_and_removed_when_it_stays_empty(tmp_path, capsys, monkeypatch):
    from monolith_envs.core import fuzz

    out = tmp_path / "a" / "b"
    seen = []
    real = fuzz.check_out_dir
    monkeypatch.setattr(fuzz, "check_out_dir", lambda d: seen.append(real(d).is_dir()) or Path(d))
    assert main(["fuzz", TOY, "--games", "2", "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    assert seen == [True] and not (tmp_path / "a").exists()  # made before the run; no log went in: both went again
    out.mkdir(parents=True)  # a folder that was there before the run stays
    assert main(["fuzz", TOY, "--games", "2", "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    assert out.is_dir() and list(out.iterdir()) == []  # the probe removed
    # a path through ".." that names it: it stays too, and the folder made on the way goes
    assert main(["fuzz", TOY, "--games", "1", "--workers", "1", "--no-progress", "--out",
                 str(tmp_path / "a" / "new" / ".." / "b")]) == 0
    assert out.is_dir() and not (tmp_path / "a" / "new").exists()


def test_fuzz_shows_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path, capsys):
    """As ``check`` does: with stderr sent to a file (here captured) the bar's ``\r`` frames stay out of it."""
    assert main(["fuzz", TOY, "--games", "3", "--workers", "1", "--out", str(tmp_path / "f")]) == 0
    cap = capsys.readouterr()
    assert "fuzz " in cap.out and "failures=0" in cap.out
    assert "\r" not in cap.err and "game/s" not in cap.err


@pytest.mark.parametrize("argv, fragment", [
    (["--out-dir", "/proc/bench"], "error: --out-dir /proc/bench: cannot be created as a folder"),
    (["--stem", "../../x"], "error: argument --stem: '../../x' is not a plain file name"),
    (["--stem", ".hidden"], "error: argument --stem: '.hidden' is not a plain file name"),
    (["--env", "nope_v0"], "error: --env nope_v0: not a registered env id; registered: monolith_arena_v0"),
    (["--seed", "-1"], "error: argument --seed: expected an integer from 0 to 2**128-1, got -1"),
    (["--seed", str(2**130)], "error: argument --seed: expected an integer from 0 to 2**128-1"),
    (["--refs", "nope"], "error: --refs nope: unknown reference"),
])
def test_benchmarks_run_refuses_bad_arguments_before_measuring(argv, fragment, tmp_path, capsys):
    from benchmarks.run import main as bench_main

    if "--out-dir" not in argv:
        argv = argv + ["--out-dir", str(tmp_path / "out")]
    with pytest.raises(SystemExit) as ei:
        bench_main(["--budget", "smoke", "--no-train", "--no-refs", "--quiet", *argv])
    out, err = capsys.readouterr()
    assert ei.value.code == 2 and out == "", out
    assert fragment in _one_error_line(err)
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []
    assert not (tmp_path.parent / "x.md").exists()


# ------------------------------------------------------------------ Ray address (item 22)
@pytest.mark.parametrize("address, fragment", [
    ("127.0.0.1:9", "cannot reach the Ray cluster at '127.0.0.1:9' (Connection refused within 10 s)"),
    ("nohost", "--address 'nohost': expected 'auto' or HOST:PORT"),
])
def test_fuzz_ray_address_without_a_cluster_fails_fast(address, fragment, tmp_path):
    pytest.importorskip("ray")
    t0 = time.monotonic()
    p = _run(["monolith_envs", "fuzz", TOY, "--preload", "tests.preload_toy", "--backend", "ray", "--address",
              address, "--games", "2", "--no-progress", "--out", str(tmp_path)], timeout=60)
    assert time.monotonic() - t0 < 40
    assert p.returncode == 2 and fragment in _one_error_line(p.stderr), p.stderr


# ------------------------------------------------------------------ short mismatch errors (item 26)
def test_a_mismatch_of_many_chance_events_is_one_short_line(tmp_path, capsys):
    from tests import conftest  # noqa: F401  (registers toy_pig_v0)

    env = monolith_envs.make(PIG, wrapped=False)
    env.reset(seed=1)
    env.step(0)  # ROLL: one die drawn
    real = env.episode_log.chance[0]
    fake = [ChanceEvent(0, "integers", ESC, 7 - real.value) for _ in range(100_000)]
    log = EpisodeLog(PIG, dict(env.game.config), 1, [0], chance=fake)
    make = lambda eid, **cfg: monolith_envs.make(eid, wrapped=False, **cfg)  # noqa: E731
    with pytest.raises(LogError) as ei:
        for _ in replay_steps(log, make):
            pass
    msg = str(ei.value)
    assert len(msg) < 1000 and "... 99995 more]" in msg, msg[:300]
    path = tmp_path / "many.json"
    log.save(path)
    assert main(["replay", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err) < 1200 and err.count("\n") == 1 and "\x1b" not in err


# ------------------------------------------------------------------ atomic log writes (item 27)
def test_a_failed_log_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path, data = _toy_log(tmp_path)
    before = path.read_text()
    log = load_log(path)

    def broken_fsync(_fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    log.note = "rewritten"
    with pytest.raises(OSError):
        log.save(path)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.json"]
    monkeypatch.undo()
    log.save(path)
    assert load_log(path).note == "rewritten"


def test_replay_into_a_closed_pipe_ends_without_a_traceback(tmp_path):
    err = tmp_path / "err.txt"
    p = subprocess.run(f"{sys.executable} -m monolith_envs replay examples/arena_episode.json 2>{err} | head -1",
                       shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.stdout.startswith("replay monolith_arena_v0 seed=7")
    assert err.read_text() == ""


def test_an_atomic_write_never_replaces_a_device_or_a_folder(tmp_path):
    from monolith_envs.core.outfiles import OutputPathError, write_text_atomic

    for target in ("/dev/null", str(tmp_path)):
        with pytest.raises(OutputPathError, match="is not a regular file; it is not replaced"):
            write_text_atomic(target, "x")
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "link.json").symlink_to(real)
    write_text_atomic(tmp_path / "link.json", "new")
    assert real.read_text() == "new" and (tmp_path / "link.json").is_symlink()


@pytest.mark.parametrize("module, argv, fragment", [
    ("benchmarks.profiling", ["--out", "/proc/nope/p.txt"], "error: --out /proc/nope/p.txt: its folder /proc/nope"),
    ("benchmarks.profiling", ["--seed", "-1"], "error: argument --seed: expected an integer from 0 to 2**128-1"),
    ("benchmarks.distributed", ["--out-dir", "/proc/nope"], "error: --out-dir /proc/nope: cannot be created"),
])
def test_other_benchmark_commands_check_seed_and_output_first(module, argv, fragment, capsys):
    import importlib

    if module == "benchmarks.distributed":
        pytest.importorskip("ray")
    with pytest.raises(SystemExit) as ei:
        importlib.import_module(module).main(argv)
    assert ei.value.code == 2 and fragment in _one_error_line(capsys.readouterr().err)


@pytest.mark.parametrize("path", ["", "  "])
def test_replay_of_an_empty_path_says_it_is_empty(path, capsys):
    """An empty path is not the current folder ('.: not a regular file')."""
    from monolith_envs.__main__ import main

    assert main(["replay", path]) == 2
    assert capsys.readouterr().err.strip() == ("error: the episode log's path is empty; give the log file to replay "
                                               "(FILE.json)")


def test_help_shows_defaults_but_not_empty_ones(capsys):
    from monolith_envs.__main__ import main

    with pytest.raises(SystemExit):
        main(["playthrough", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in out and "(default: [])" not in out and "(default: tests/playthroughs)" in out
    assert "env id (default: none)" not in out and "run time can be used (default: none)" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "``" not in capsys.readouterr().out
    for command in ("replay", "info", "fuzz", "check"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        positional = out[out.index("positional arguments:"):out.index("options:")]
        assert "default" not in positional, (command, positional)  # a required argument has no default


def test_playthrough_names_the_folder_and_only_speaks_of_the_default_when_it_was_used(tmp_path, monkeypatch, capsys):
    from monolith_envs.__main__ import main as cli

    assert cli(["playthrough", "toy_tictactoe_v0", "--dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert f"'{tmp_path / 'none'}' is not a folder of stored playthroughs (--dir)" in err and "default" not in err
    monkeypatch.chdir(tmp_path)  # the default folder is relative to the repository root
    assert cli(["playthrough", "toy_tictactoe_v0"]) == 2
    assert "(the default, tests/playthroughs, is relative to the repository root" in capsys.readouterr().err
