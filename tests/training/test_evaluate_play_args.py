"""training.evaluate and agents.play: bounded arguments and output paths checked before the work (one error
line, exit status 2), games streamed as ranges, and a clean stop of evaluate on Ctrl-C / SIGTERM."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.toy_game import ENV_ID as TOY
from training import evaluate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_games(monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("games started")

    monkeypatch.setattr(evaluate, "run_tournament", refuse)


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "argument --games: expected an integer from 1 to 100,000, got '0'"),
    (["--games", str(10**9)], "argument --games: expected an integer from 1 to 100,000, got '1000000000'"),
    (["--seed", "-1"], "argument --seed: expected an integer from 0 to 2**128-1, got -1"),
    (["--seed", str(2**130)], "argument --seed: expected an integer from 0 to 2**128-1"),
    (["--seed", str(2**128 - 1), "--games", "2"], "game k uses seed + k, which must stay at most 2**128-1"),
    (["--workers", "0"], "argument --workers: expected an integer from 1 to 64"),
    (["--games", "\u0665"], "argument --games: expected an integer from 1 to 100,000, got '\u0665'"),
    (["--games", "1_0"], "argument --games: expected an integer from 1 to 100,000, got '1_0'"),
    (["--seed", "1_0"], "argument --seed: expected an integer from 0 to 2**128-1, got '1_0'"),
    (["--out", "/proc/nope/x.json"], "error: --out /proc/nope/x.json: its folder /proc/nope cannot be created ("),
    (["--out", "/dev/full"], "error: --out /dev/full: is not a regular file; give a file path"),
    (["--out", "{tmp}"], "error: --out {tmp}: is a folder; give a file path"),
    (["--out", "{tmp}/a\x00b.json"], "error: --out: the path contains a NUL byte; give a file path"),
    (["--out", "{tmp}/ok.json", "--record-dir", "/proc/nope"], "error: --record-dir /proc/nope: cannot be created as a folder ("),
    (["--out", "{tmp}/ok.json", "--out-dir", "{tmp}"], "error: --out names the file, --out-dir the folder of the default "
                                                     "name: give one of them"),
    (["--out-dir", "/proc/nope"], "error: --out-dir /proc/nope/eval_toy_tictactoe_v0_0.json: its folder /proc/nope cannot be "
                                  "created ("),
])
def test_evaluate_refuses_bad_arguments_before_the_first_game(no_games, tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    message = message.replace("{tmp}", str(tmp_path))
    with pytest.raises(SystemExit) as ei:
        evaluate.main(["--env", TOY, "--agents", "random,mcts:5", "--preload", "tests.conftest", *args])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and message in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "ok.json").exists()  # nothing is written
    assert not list(tmp_path.glob(".write-check-*"))  # nor is a probe file left behind


def test_a_refused_record_dir_leaves_no_folder_made_for_the_output_file(no_games, tmp_path, capsys):
    (tmp_path / "afile").write_text("")
    out = tmp_path / "new" / "deeper" / "r.json"
    with pytest.raises(SystemExit) as ei:
        evaluate.main(["--env", TOY, "--agents", "random,mcts:5", "--preload", "tests.conftest", "--out", str(out),
                       "--record-dir", str(tmp_path / "afile")])
    assert ei.value.code == 2 and "--record-dir" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]  # new/ and new/deeper/ removed again


def test_evaluate_creates_its_outputs_before_playing(tmp_path, monkeypatch):
    seen = {}

    def fake(*_a, **kw):
        seen["out"] = (tmp_path / "deep").is_dir()
        seen["dir"] = (tmp_path / "logs" / "a" / "b").is_dir()
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluate, "run_tournament", fake)
    with pytest.raises(KeyboardInterrupt):
        evaluate.main(["--env", TOY, "--agents", "random,mcts:5", "--preload", "tests.conftest",
                       "--out", str(tmp_path / "deep" / "out.json"), "--record-dir", str(tmp_path / "logs" / "a" / "b")])
    assert seen == {"out": True, "dir": True}
    assert not (tmp_path / "deep" / "out.json").exists()  # no result, no file
    assert not list((tmp_path / "deep").iterdir())  # and no probe file


def test_the_default_output_never_replaces_an_earlier_result(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["--env", TOY, "--agents", "random,mcts:5", "--preload", "tests.conftest", "--games", "2",
            "--workers", "1", "--seed", "7"]
    first = evaluate.main(argv)
    second = evaluate.main(argv[:3] + ["random,mcts:6"] + argv[4:])
    folder = tmp_path / "runs" / "eval"
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"eval_{TOY}_7-2.json", f"eval_{TOY}_7.json"]
    import json

    assert json.loads((folder / f"eval_{TOY}_7.json").read_text())["agents"] == first["agents"] == ["random", "mcts:5"]
    assert json.loads((folder / f"eval_{TOY}_7-2.json").read_text())["agents"] == second["agents"]
    assert f"wrote {Path('runs') / 'eval' / f'eval_{TOY}_7-2.json'}" in capsys.readouterr().out
    # an explicit --out is replaced, as asked
    out = tmp_path / "mine.json"
    evaluate.main(argv + ["--out", str(out)])
    evaluate.main(argv[:3] + ["random,mcts:6"] + argv[4:] + ["--out", str(out)])
    assert json.loads(out.read_text())["agents"] == ["random", "mcts:6"] and not (tmp_path / "mine-2.json").exists()
    assert evaluate.free_path(folder / "nothing.json") == folder / "nothing.json"
    assert (folder / "nothing.json").is_file()  # taken at once, so a second caller gets the next name
    assert evaluate.free_path(folder / "nothing.json") == folder / "nothing-2.json"
    with pytest.raises(evaluate.OutputPathError, match="2 results named nothing-N.json are there already"):
        evaluate.free_path(folder / "nothing.json", limit=2)


def test_games_go_to_workers_as_ranges_and_are_bounded(monkeypatch):
    chunks = []
    real = evaluate._play_chunk

    def spy(args):
        chunks.append(args[5])
        return real(args)

    monkeypatch.setattr(evaluate, "_play_chunk", spy)
    res = evaluate.run_tournament(TOY, ["random", "mcts:5"], 6, seed=3, workers=1, chunk=4)
    assert [type(c) for c in chunks] == [range, range] and [list(c) for c in chunks] == [[0, 1, 2, 3], [4, 5]]
    assert res["pairs"][0].games == 6
    for bad in (0, evaluate.MAX_GAMES + 1, 10**9, 2.5, True):
        with pytest.raises(ValueError, match="games must be an integer from 1 to 100,000"):
            evaluate.run_tournament(TOY, ["random", "mcts:5"], bad, workers=1)


@pytest.mark.parametrize("sig, to_group, code", [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)])
def test_evaluate_stops_at_once_on_a_signal(tmp_path, sig, to_group, code):
    out, log = tmp_path / "ev.json", tmp_path / "stderr.txt"
    with open(log, "w") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "training.evaluate", "--env", "monolith_arena_v0", "--agents",
                                 "random,heuristic", "--games", "100000", "--workers", "2", "--out", str(out)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True, start_new_session=True)
    deadline = time.monotonic() + 120  # the progress bar says the games have started (the --out file is written
    while "games:" not in log.read_text() and proc.poll() is None and time.monotonic() < deadline:  # only at the end)
        time.sleep(0.2)
    time.sleep(4.0)  # the workers are playing
    t0 = time.monotonic()
    os.killpg(proc.pid, sig) if to_group else proc.send_signal(sig)
    try:
        proc.communicate(timeout=60)
    finally:
        proc.kill()
    err = log.read_text()
    assert proc.returncode == code, err[-2000:]
    assert time.monotonic() - t0 < 20
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert f"interrupted by {signal.Signals(sig).name} after " in err and "of 100,000 games" in err
    assert "worker processes ended; no results written" in err
    done = int(re.search(r"after ([\d,]+) of 100,000 games", err).group(1).replace(",", ""))
    if done:  # the finished games' tallies are said, not lost
        assert "the finished games (win rate, 95% Wilson interval):\n  random vs heuristic: " in err
        assert f" of {done} games: " in err
    assert not out.exists()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("worker processes were left running")


@pytest.mark.parametrize("args, message", [
    (["--seed", "-1"], "argument --seed: expected an integer from 0 to 2**128-1, got -1"),
    (["--seed", str(2**128)], "argument --seed: expected an integer from 0 to 2**128-1"),
    (["--record", "/proc/nope/game.json"], "--record /proc/nope/game.json: its folder /proc/nope cannot be created"),
    (["--record", "/dev/full"], "--record /dev/full: is not a regular file"),
    (["--record", "{tmp}/file/game.json"], "/file is a file, not a folder)"),
    (["--record", "{tmp}"], "is a folder; give a file path"),
    (["--opponents", "random,"], "--opponents 'random,': spec 2 of 2 is empty; agent specs are separated by single "
                                 "commas, with none at either end"),
])
def test_play_refuses_bad_arguments_before_the_game(tmp_path, capsys, args, message):
    from agents.play import main

    def no_input(_prompt=""):
        raise AssertionError("the game started")

    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    (tmp_path / "file").write_text("")
    with pytest.raises(SystemExit) as ei:
        main(["monolith_arena_v0", *args], input_fn=no_input, output_fn=lambda *_: None)
    err = capsys.readouterr().err
    assert ei.value.code == 2 and message in err and "Traceback" not in err


def test_play_records_with_the_largest_seed(tmp_path):
    from agents.play import main
    from monolith_envs.core.replay import load_log

    path = tmp_path / "logs" / "game.json"

    def quit_at_once(_prompt=""):
        return "quit"

    assert main(["monolith_arena_v0", "--seed", str(2**128 - 1), "--record", str(path)], input_fn=quit_at_once,
                output_fn=lambda *_: None) is None
    assert load_log(path).seed == 2**128 - 1


def test_a_tournament_of_three_or_more_sides_plays_each_pair_in_both_orders():
    # free-for-all, 3 seats: "random at one seat against two heuristics" is not "heuristic at one seat
    # against two randoms", so both orders play; each cell of the table is its own order's result
    res = evaluate.run_tournament("the_monolith_v0", ["random", "heuristic"], 3, seed=7,
                                  env_config={"num_players": 3}, workers=1)
    assert [(p.a, p.b) for p in res["pairs"]] == [("random", "heuristic"), ("heuristic", "random")]
    assert [p.games for p in res["pairs"]] == [3, 3]
    assert [p.seats for p in res["pairs"]] == [[0, 1, 2], [0, 1, 2]]  # the single agent's seat rotates
    table = evaluate.format_table(["random", "heuristic"], res["pairs"], res["ratings"], opponents=2)
    assert table.splitlines()[0].startswith("first places of row, at one seat (rotating) against 2 copies of column")
    assert "an equal share is 33%" in table.splitlines()[0]  # a 3-seat game: 33% first places is par
    rows = {line.split("|")[0].strip(): [c.strip() for c in line.split("|")[1:]] for line in table.splitlines()[2:4]}
    first = {(p.a, p.b): p.wins for p in res["pairs"]}
    assert rows["random"][1].startswith(f"{first[('random', 'heuristic')] / 3:5.1%}".strip())
    assert rows["heuristic"][0].startswith(f"{first[('heuristic', 'random')] / 3:5.1%}".strip())


def test_a_two_sided_tournament_plays_each_pair_once_as_the_seats_rotate():
    res = evaluate.run_tournament(TOY, ["random", "mcts:5"], 4, seed=3, workers=1)
    assert [(p.a, p.b) for p in res["pairs"]] == [("random", "mcts:5")]
    table = evaluate.format_table(["random", "mcts:5"], res["pairs"], res["ratings"])
    p = res["pairs"][0]
    assert f"{p.losses / 4:5.1%}".strip() in table.splitlines()[3]  # the column agent's row: the losses of the first


@pytest.mark.parametrize("agents, message", [
    ("random,RANDOM", "--agents: 'RANDOM' repeats an earlier spec of ['random', 'RANDOM']"),
    ("mcts:5,MCTS:05", "--agents: 'MCTS:05' repeats an earlier spec of ['mcts:5', 'MCTS:05']"),
    ("mcts,mcts:200", "--agents: 'mcts:200' repeats an earlier spec of ['mcts', 'mcts:200']"),
    ("random,HUMAN", "--agents 'HUMAN': evaluation plays unattended"),
])
def test_evaluate_refuses_a_spec_repeated_in_other_case_or_digits_and_any_human(no_games, capsys, agents, message):
    with pytest.raises(SystemExit) as ei:
        evaluate.main(["--env", TOY, "--agents", agents, "--preload", "tests.conftest"])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and message in err, err


def test_an_unknown_spec_lists_the_accepted_forms_less_human(no_games, capsys):
    with pytest.raises(SystemExit) as ei:
        evaluate.main(["--env", TOY, "--agents", "randm,heuristic", "--preload", "tests.conftest"])
    err = capsys.readouterr().err
    with pytest.raises(SystemExit):  # not even as a guess
        evaluate.main(["--env", TOY, "--agents", "humn,heuristic", "--preload", "tests.conftest"])
    err += capsys.readouterr().err
    assert ei.value.code == 2 and "unknown agent spec 'randm' (did you mean 'random'?); accepted: random | heuristic" in err
    assert "human" not in err


def test_spec_key_keeps_model_paths_as_written():
    assert evaluate.spec_key(" MCTS:010:c=1.50 ") == "mcts:10:c=1.50"
    assert evaluate.spec_key("ppo:runs/A/model.zip") != evaluate.spec_key("ppo:runs/a/model.zip")
    assert evaluate.spec_key("Baseline+Search:064") == "baseline+search:64"
    assert evaluate.spec_key("az:R/x.pt+SEARCH:08") == evaluate.spec_key("az:R/x.pt+search:8") == "az:R/x.pt+search:8"
    assert evaluate.spec_key("az:R/x.pt") != evaluate.spec_key("az:r/x.pt")
    assert evaluate.spec_key("onnx:Models/A_010.onnx") != evaluate.spec_key("onnx:models/a_10.onnx")  # registered


@pytest.mark.parametrize("after_write", [False, True])
def test_a_stop_after_the_last_game_says_so_and_whether_the_results_were_written(tmp_path, monkeypatch, capsys,
                                                                                after_write):
    """A real SIGINT once every game is played (while the table prints, or inside the file's write, which it
    waits for) reports "after every game", and names the file when it was written, instead of "before the
    first game"."""
    def stop_inside(real):
        def call(*args, **kwargs):
            result = real(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGINT)
            return result
        return call

    out = tmp_path / "ev.json"
    if after_write:
        monkeypatch.setattr(evaluate, "write_text_atomic", stop_inside(evaluate.write_text_atomic))
    else:
        monkeypatch.setattr(evaluate, "format_table", stop_inside(evaluate.format_table))
    with pytest.raises(SystemExit) as info:
        evaluate.main(["--env", TOY, "--agents", "random,heuristic", "--games", "2", "--workers", "1",
                       "--out", str(out)])
    assert info.value.code == 130
    err = capsys.readouterr().err
    if after_write:
        assert f"interrupted by SIGINT after every game; worker processes ended; the results were written to {out}" \
            in err and out.exists()
    else:
        assert "interrupted by SIGINT after every game; worker processes ended; no results written" in err
        assert not out.exists()
    assert "before the first game" not in err


def test_a_model_path_with_a_comma_is_explained(no_games, tmp_path, capsys):
    folder = tmp_path / "a,b"
    folder.mkdir()
    (folder / "m.zip").write_bytes(b"")  # the file the user meant exists
    with pytest.raises(SystemExit) as ei:
        evaluate.main(["--env", TOY, "--agents", f"ppo:{folder / 'm.zip'},random", "--preload", "tests.conftest",
                       "--out", str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and f"no MaskablePPO model at {tmp_path / 'a'}" in err
    assert "split at commas, so the path" in err and "cannot be named in it" in err
    with pytest.raises(SystemExit):  # a plain typo in a list gets the message alone
        evaluate.main(["--env", TOY, "--agents", f"ppo:{tmp_path / 'modle.zip'},random", "--preload",
                       "tests.conftest", "--out", str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert f"no MaskablePPO model at {tmp_path / 'modle.zip'}" in err and "split at commas" not in err
    with pytest.raises(SystemExit):  # an existing folder after another spec: no comma in the path, no hint
        evaluate.main(["--env", TOY, "--agents", f"random,rllib:{tmp_path}", "--preload", "tests.conftest",
                       "--out", str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert "no RLlib checkpoint" in err and "split at commas" not in err, err


def test_games_go_in_chunks_of_at_most_max_chunk_and_results_do_not_depend_on_them(monkeypatch):
    """Large --games: the progress bar and an interrupt's count follow every chunk of at most MAX_CHUNK games."""
    from training import evaluate

    sizes, real = [], evaluate._play_chunk

    def spy(args):
        sizes.append(len(args[5]))
        return real(args)

    monkeypatch.setattr(evaluate, "_play_chunk", spy)
    res = evaluate.run_tournament(TOY, ["random", "mcts:5"], 60, seed=3, workers=1)
    assert max(sizes) == evaluate.MAX_CHUNK == 8 and sum(sizes) == 60
    whole = evaluate.run_tournament(TOY, ["random", "mcts:5"], 60, seed=3, workers=1, chunk=60)
    assert res["pairs"][0].outcomes == whole["pairs"][0].outcomes and sizes[-1] == 60
    monkeypatch.undo()  # the spy cannot go to worker processes
    pooled = evaluate.run_tournament(TOY, ["random", "mcts:5"], 60, seed=3, workers=2,  # collected as they end
                                     preload=["tests.conftest"])
    assert pooled["pairs"][0].outcomes == res["pairs"][0].outcomes and pooled["pairs"][0].games == 60


def test_a_worker_builds_each_agent_once_per_evaluation(monkeypatch):
    """Chunks of one evaluation reuse the agents their process built (a model file is loaded once, not every
    MAX_CHUNK games); the next evaluation builds them again (the file may have changed)."""
    import agents as agents_module
    from training import evaluate

    built, real = [], agents_module.make_agent

    def counting(spec, env_id, *a, **k):
        built.append(spec)
        return real(spec, env_id, *a, **k)

    monkeypatch.setattr(agents_module, "make_agent", counting)
    evaluate.run_tournament(TOY, ["random", "mcts:5"], 40, seed=3, workers=1, chunk=8)
    first = sorted(built)
    assert first == ["mcts:5", "random"]  # toy game: one seat a side, five chunks
    evaluate.run_tournament(TOY, ["random", "mcts:5"], 16, seed=3, workers=1, chunk=8)
    assert sorted(built[len(first):]) == ["mcts:5", "random"]


def test_the_tallies_of_an_interrupted_evaluation_count_each_finished_game():
    from training.eval_tables import partial_lines, wilson_interval

    games = [(0, (0,), [1.0, -1.0], 50, False, ("win", "loss"), 0.1),
             (1, (1,), [1.0, -1.0], 60, False, ("win", "loss"), 0.1),  # the row agent sat at seat 1: a loss
             (2, (0,), [0.0, 0.0], 70, False, ("draw", "draw"), 0.1),
             (3, (1,), [0.0, 0.0], 80, True, None, 0.1)]  # truncated: no outcome, not a win
    lo, hi = wilson_interval(1, 4)
    assert partial_lines([("a", "b"), ("a", "c")], {0: games, 1: []}, solo=False) == [
        f"a vs b: 1W 2D 1L of 4 games: 25.0% ({lo:.1%}-{hi:.1%})"]
    solo = [(0, (0,), [1.0], 9, False, ("success",), 0.1), (1, (0,), [-1.0], 9, False, ("failure",), 0.1)]
    lo, hi = wilson_interval(1, 2)
    assert partial_lines([("a", None)], {0: solo}, solo=True) == [f"a: 1 successes of 2 games: 50.0% ({lo:.1%}-{hi:.1%})"]


def test_an_empty_agent_spec_between_commas_is_refused(no_games, capsys):
    with pytest.raises(SystemExit) as ei:
        evaluate.main(["--env", TOY, "--agents", "random,,mcts:5", "--preload", "tests.conftest"])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and "--agents 'random,,mcts:5': spec 2 of 3 is empty" in err, err


def test_evaluate_refuses_more_workers_than_the_machine_takes(no_games, capsys, monkeypatch):
    """Each worker loads the agents (torch and a model for ppo / baseline): the cap of fuzz and make_vec."""
    import monolith_envs.core.processes as processes

    monkeypatch.setattr(processes, "local_worker_limit", lambda: 8)
    monkeypatch.setattr(processes, "worker_limit_why", lambda: "4 per CPU, 2 CPUs")
    with pytest.raises(SystemExit) as ei:
        evaluate.main(["--env", TOY, "--agents", "random,heuristic", "--workers", "9", "--preload", "tests.conftest"])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and err.strip().endswith(
        "error: --workers 9: more local processes than this machine takes: at most 8 (4 per CPU, 2 CPUs)"), err


def test_no_progress_leaves_the_bar_out_and_the_results_alike(tmp_path, capsys, monkeypatch):
    """--no-progress: no progress on stderr (on a log file, as here, lines in place of the tqdm bar, whose
    updates filled it); the result is the same as with it."""
    from monolith_envs.core.cli import LineProgress

    monkeypatch.setattr(LineProgress.__init__, "__defaults__", (None, 30.0, 0.0, 0))  # the first line at once
    argv = ["--env", TOY, "--agents", "random,mcts:5", "--preload", "tests.conftest", "--games", "4",
            "--workers", "1", "--seed", "3"]
    with_bar = evaluate.main(argv + ["--out", str(tmp_path / "a.json")])
    err = capsys.readouterr().err
    assert re.search(r"^games: 4 of 4 games \(100%\), \d+ s$", err, re.M) and "\r" not in err, err
    quiet = evaluate.main(argv + ["--out", str(tmp_path / "b.json"), "--no-progress"])
    err = capsys.readouterr().err
    assert "games:" not in err and "\r" not in err, err
    drop = lambda pairs: [{k: v for k, v in p.items() if k != "seconds"} for p in pairs]  # noqa: E731
    assert drop(quiet["pairs"]) == drop(with_bar["pairs"])


def test_a_first_place_shared_with_another_side_is_not_a_win():
    """Arena's free-for-all gives every seat tied at the top WIN; the table's heading says a shared first place
    counts as a non-win, and the tallies and ratings do so."""
    from training.eval_tables import partial_lines, side_sign

    assert side_sign(("loss", "win", "loss", "win"), (1,)) == 0  # tied at the top with seat 3
    assert side_sign(("loss", "win", "loss", "loss"), (1,)) == 1
    assert side_sign(("loss", "win", "loss", "win"), (0,)) == -1
    assert side_sign(("win", "loss", "win", "loss"), (0, 2)) == 1  # allies (teams) win together
    assert side_sign(None, (0,)) == 0
    games = [(0, (1,), [0.0] * 4, 50, False, ("loss", "win", "loss", "win"), 0.1),
             (1, (2,), [0.0] * 4, 50, False, ("loss", "loss", "win", "loss"), 0.1)]
    assert partial_lines([("a", "b")], {0: games}, solo=False)[0].startswith("a vs b: 1W 1D 0L of 2 games: 50.0%")



def test_an_agent_that_cannot_go_on_mid_game_is_one_error_line(monkeypatch, capsys, tmp_path):
    """An AgentError raised during a game (a network whose output overflows on a position met in play) ends the
    command with one error line and exit status 1, and writes no results."""
    import training.evaluate as ev
    from agents import AgentError

    def fails(_task):
        raise AgentError("az:x.pt: the network's output is not finite (NaN or inf) for this observation")

    monkeypatch.setattr(ev, "_play_chunk", fails)
    out = tmp_path / "e.json"
    with pytest.raises(SystemExit) as e:
        ev.main(["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--games", "2", "--workers", "1",
                 "--no-progress", "--out", str(out)])
    err = capsys.readouterr().err
    assert e.value.code == 1 and "Traceback" not in err
    assert "error: az:x.pt: the network's output is not finite" in err and "no results written" in err
    assert not out.exists() or out.stat().st_size == 0



def test_the_wrapper_counts_a_shared_first_place_as_evaluation_does(monkeypatch):
    """The same rule everywhere a win is counted (monolith_envs.agents.match.side_sign): the Gymnasium wrapper's
    info["win"] (and the RLlib env's infos[agent]["win"]) at the end of an Arena free-for-all tied at the top."""
    import numpy as np

    from monolith_envs.agents.match import side_sign
    from monolith_envs.core.game import Outcome
    from monolith_envs.wrappers import SingleAgentEnv

    W, L = Outcome.WIN, Outcome.LOSS
    assert side_sign((L, W, L, W), (1,)) == 0 and side_sign((L, W, L, L), (1,)) == 1
    assert side_sign((W, L, W, L), (0, 2)) == 1 and side_sign((L, W, L, W), (0, 2)) == -1
    env = SingleAgentEnv("monolith_arena_v0", ["random"], {"num_players": 4, "mode": "ffa"}, seat=1, seed=0)
    env.reset(seed=0)
    monkeypatch.setattr(env.game, "outcome", lambda state: (L, W, L, W))  # tied at the top with seat 3
    rng = np.random.default_rng(0)
    term = trunc = False
    while not (term or trunc):
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert term and info["outcome"] == "win" and info["win"] == 0
