"""A new ``training.az`` run in the folder of an earlier one moves the earlier outputs aside (as
``training.train`` does) instead of mixing them, keeps a file the new run reads, and writes strict JSON."""

from __future__ import annotations

import json

import pytest

from tests.az.test_az import _tiny_cfg


def test_a_new_run_moves_the_earlier_runs_outputs_aside_and_keeps_what_it_reads(tmp_path, capsys):
    from training.az import run

    env = ("the_monolith_v0", {"num_players": 3})
    run(_tiny_cfg(tmp_path, *env, iterations=2, final_eval_games=0), progress=False)
    folder = tmp_path / "tiny"
    first = (folder / "final.pt").read_bytes()
    assert (folder / "checkpoints" / "iter2.pt").is_file()
    samples = (folder / "warm_samples.npz").read_bytes()
    # the earlier run's warm samples start the new one: they stay where the config names them (a copy goes with
    # the earlier run's other outputs)
    run(_tiny_cfg(tmp_path, *env, iterations=1, warm_games=0, init_samples=str(folder / "warm_samples.npz"),
                  final_eval_games=0), progress=False)
    err = capsys.readouterr().err
    assert f"note: {folder} held an earlier run; its 6 outputs" in err and "(1 of them copied: this run reads them)" in err
    assert f"moved to {folder / 'earlier_run'}" in err
    kept = folder / "earlier_run"
    assert sorted(p.name for p in (kept / "checkpoints").iterdir()) == ["iter0.pt", "iter1.pt", "iter2.pt"]
    assert (kept / "final.pt").read_bytes() == first and (kept / "config.json").is_file()
    assert (kept / "report.json").is_file() and (kept / "warm_samples.npz").read_bytes() == samples
    assert sorted(p.name for p in (folder / "checkpoints").iterdir()) == ["iter0.pt", "iter1.pt"]
    report = json.loads((folder / "report.json").read_text(), parse_constant=lambda c: (_ for _ in ()).throw(
        ValueError(f"not strict JSON: {c}")))
    assert len(report["iterations"]) == 1


def test_report_json_has_no_nan(tmp_path):
    from training.az import run

    # an iteration's fit of a short Arena duel keeps no held-out rows: its held-out figures were NaN
    rep = run(_tiny_cfg(tmp_path, "monolith_arena_v0", {}, iterations=1, final_eval_games=0), progress=False)
    assert rep["iterations"][0]["fit"]["holdout_top1"] != rep["iterations"][0]["fit"]["holdout_top1"]  # NaN here
    text = (tmp_path / "tiny" / "report.json").read_text()
    assert "NaN" not in text and "Infinity" not in text
    fit = json.loads(text)["iterations"][0]["fit"]
    assert fit["holdout_top1"] is None and fit["holdout_value_mse"] is None and fit["policy_loss"] > 0


def test_train_resume_of_an_az_run_says_az_has_no_resume(tmp_path, capsys):
    import pytest

    from training.az import run
    from training.train import main

    run(_tiny_cfg(tmp_path, "the_monolith_v0", {"num_players": 3}, iterations=0, final_eval_games=0), progress=False)
    with pytest.raises(SystemExit) as exc:
        main(["--resume", str(tmp_path / "tiny")])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert exc.value.code == 2 and err == (
        f"python -m training.train: error: --resume: {str(tmp_path / 'tiny')!r} is a run of python -m training.az, "
        "which has no resume: start a new run from its last checkpoint or samples (init_checkpoint, init_samples; "
        "training/README.md, 'Search-based self-play')")


@pytest.mark.parametrize("spec", ["az:{run}/final.pt", " AZ:{run}/final.pt+search:2", "az:{run}/checkpoints/iter1.pt",
                                  "az:{run}/checkpoints/iter_best.pt"])
def test_an_az_opponent_that_is_one_of_the_runs_own_outputs_is_refused(tmp_path, spec):
    """The run would write over it and then play its own network under that name (the report showed about 50%)."""
    from training.az import run
    from training.config import TrainConfigError

    folder = tmp_path / "tiny"
    with pytest.raises(TrainConfigError, match=rf"plays a file this run writes over or moves \(.* of {folder}\); copy it elsewhere"):
        run(_tiny_cfg(tmp_path, "the_monolith_v0", {"num_players": 3}, eval_opponents=[spec.format(run=folder)]),
            progress=False)
    assert not folder.exists()  # refused before anything is written


def test_an_az_opponent_kept_in_the_run_folder_stays_for_the_new_run(tmp_path):
    """An opponent file in the folder that is not one of the run's outputs (the user's own copy) is not moved."""
    import shutil

    from training.az import run

    env = ("the_monolith_v0", {"num_players": 3})
    run(_tiny_cfg(tmp_path, *env, final_eval_games=0), progress=False)
    mine = tmp_path / "tiny" / "best.pt"
    shutil.copy(tmp_path / "tiny" / "final.pt", mine)
    rep = run(_tiny_cfg(tmp_path, *env, eval_games=2, eval_opponents=["random", f"az:{mine}"], final_eval_games=0),
              progress=False)
    assert mine.is_file() and rep["iterations"][0]["eval"][f"az:{mine}"]["games"] == 2


def test_a_symlink_loop_as_the_run_folder_is_left_to_the_folder_check(tmp_path):
    from training.az.loop import check_opponent_files

    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    cfg = {"out_dir": str(tmp_path / "a"), "name": "r", "eval_opponents": [f"az:{tmp_path}/a/x.pt"]}
    assert check_opponent_files(cfg) is None  # a RuntimeError traceback before
