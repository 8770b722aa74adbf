"""Commands write under ``runs/`` (never into the working directory or tracked files) and record games."""

from __future__ import annotations

import json

import monolith_envs
from monolith_envs.core.replay import load_log, replay_steps
from tests.toy_game import ENV_ID


def test_evaluate_writes_under_runs_and_records_every_match(tmp_path, monkeypatch, capsys):
    from training.evaluate import main

    monkeypatch.chdir(tmp_path)
    out = main(["--env", ENV_ID, "--agents", "random,heuristic", "--games", "3", "--workers", "1",
                "--record-dir", "games"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games", "runs"]  # no eval_*.json in the cwd
    written = tmp_path / "runs" / "eval" / f"eval_{ENV_ID}_0.json"
    assert json.loads(written.read_text())["pairs"] == out["pairs"]
    logs = sorted((tmp_path / "games").iterdir())
    assert [p.name for p in logs] == ["pair0_game0000.json", "pair0_game0001.json", "pair0_game0002.json"]
    for k, p in enumerate(logs):
        log = load_log(p)
        assert log.seed == k and f"random at seat {k % 2} vs heuristic" in log.note
        *_, (_, _, env) = replay_steps(log, lambda eid, **c: monolith_envs.make(eid, wrapped=False, **c))
        assert env.game.is_terminal(env.game_state)
    assert sum(len(load_log(p).actions) for p in logs) == out["pairs"][0]["mean_decisions"] * 3
    # the last lines say where the logs are and how to replay one
    assert capsys.readouterr().out.splitlines()[-1] == ("episode logs of 3 games in games; replay one: python -m "
                                                        "monolith_envs replay games/pair0_game0000.json [--html FILE.html]")


def test_a_record_dir_holding_an_earlier_evaluations_logs_is_refused(tmp_path, capsys):
    import pytest

    from training.evaluate import main

    games = tmp_path / "games"
    games.mkdir()
    main(["--env", ENV_ID, "--agents", "random,heuristic", "--games", "2", "--workers", "1",
          "--out", str(tmp_path / "a.json"), "--record-dir", str(games)])
    before = {p.name: p.read_bytes() for p in games.iterdir()}
    with pytest.raises(SystemExit) as exc:  # a second run would replace game 0 and leave the others beside it
        main(["--env", ENV_ID, "--agents", "random,heuristic", "--games", "1", "--workers", "1",
              "--out", str(tmp_path / "new" / "deep" / "b.json"), "--record-dir", str(games)])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert exc.value.code == 2 and err == (
        f"python -m training.evaluate: error: --record-dir {games}: holds 2 episode logs of an earlier evaluation "
        "(pair0_game0000.json, ...); give a new or empty folder, so the logs of two runs do not mix")
    assert {p.name: p.read_bytes() for p in games.iterdir()} == before and not (tmp_path / "new").exists()


def test_a_record_dir_holding_other_files_is_refused(tmp_path, capsys):
    """"A new or empty folder", as the help says: the logs are not scattered among a folder's own files."""
    import pytest

    from training.evaluate import main

    mine = tmp_path / "mine"
    mine.mkdir()
    for name in ("notes.txt", ".hidden", "b", "c"):
        (mine / name).write_text("mine")
    with pytest.raises(SystemExit) as exc:
        main(["--env", ENV_ID, "--agents", "random,heuristic", "--games", "1", "--workers", "1",
              "--out", str(tmp_path / "a.json"), "--record-dir", str(mine)])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert exc.value.code == 2 and err == (
        f"python -m training.evaluate: error: --record-dir {mine}: is not empty (4 entries: .hidden, b, c, ...); "
        "give a new or empty folder")
    assert sorted(p.name for p in mine.iterdir()) == [".hidden", "b", "c", "notes.txt"]
    assert not (tmp_path / "a.json").exists()


def test_evaluate_refuses_a_human_agent_and_points_to_the_play_command(capsys):
    import pytest

    from training.evaluate import main

    with pytest.raises(SystemExit) as exc:
        main(["--env", ENV_ID, "--agents", "human,random", "--games", "2", "--workers", "1"])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "--agents 'human'" in err and f"python -m agents.play {ENV_ID}" in err
