"""The main job shows what it does (stage banners, progress bars, a summary) and draws a readable curve."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tests.toy_game import ENV_ID
from training.config import load_config

TINY = ["--set", f"env_id={ENV_ID}", "--set", "env_config={}", "--set", "total_timesteps=128", "--set", "n_steps=64",
        "--set", "batch_size=64", "--set", "n_epochs=1", "--set", "n_envs=2", "--set", "net_arch=[16]",
        "--set", "features=flat", "--set", "shaping=none", "--set", "eval_every=64", "--set", "eval_games=4",
        "--set", "final_eval_games=4", "--set", "eval_workers=1", "--set", "eval_opponents=['random']",
        "--set", "pretrain_samples=32", "--set", "pretrain_epochs=1", "--set", "checkpoint_every=64",
        "--set", "name=ux"]


def test_quick_config_is_the_default_recipe_cut_down():
    quick, default = load_config("quick.toml"), load_config(None)
    same = ("env_id", "env_config", "features", "shaping", "pretrain_targets", "opponent_mix", "eval_opponents")
    assert {k: quick[k] for k in same} == {k: default[k] for k in same}
    assert quick["total_timesteps"] * 9 <= default["total_timesteps"]
    assert quick["pretrain_samples"] * 10 <= default["pretrain_samples"]


def test_main_job_announces_stages_and_ends_with_a_summary(tmp_path, capsys, monkeypatch):
    from monolith_envs.core.cli import LineProgress
    from training.train import main

    monkeypatch.setattr(LineProgress.__init__, "__defaults__", (None, 30.0, 0.0, 0))  # the first line at once

    report = main(["--quick", *TINY, "--set", f"out_dir={tmp_path}"])
    out, err = capsys.readouterr()
    run = tmp_path / "ux"
    banners = [line for line in err.splitlines() if line.startswith("== [")]
    assert [b.split(":")[0] for b in banners] == ["== [1/4] warm-start collection", "== [2/4] warm-start fit",
                                                  "== [3/4] PPO", "== [4/4] evaluation"]
    for desc in ("collect", "fit", "PPO", "games"):  # each stage's progress (on a log: lines) ran to the end
        assert re.search(rf"^{desc}: ([\d,]+) of \1 \w+ \(100%\), \d+ s$", err, re.M), (desc, err)
    assert "\r" not in err  # no tqdm redraws in a log
    s = report["final_eval"]["random"]
    lo, hi = s["ci95"]
    line = next(x for x in out.splitlines() if x.strip().startswith("vs random"))
    assert f"{s['win_rate']:.1%}  (95% CI {lo:.1%}-{hi:.1%})" in line
    for path in ("final_model.zip", "report.json", "learning_curve.png", "config.json", "checkpoints"):
        assert str(run / path) in out and (run / path).exists()
    assert f"tensorboard --logdir {run / 'tb'}" in out
    assert set(report["stage_seconds"]) == {"warm-start collection", "warm-start fit", "PPO", "evaluation"}
    assert json.loads((run / "report.json").read_text())["stage_seconds"] == report["stage_seconds"]


@pytest.mark.parametrize("config", ["monolith_strategy_2p.toml", "the_monolith_4p.toml", "monolith_arena_3p.toml"])
def test_quick_with_a_config_keeps_its_game_and_recipe_and_takes_the_quick_budget(config):
    from training.train import QUICK_BUDGET_KEYS, quick_config

    full, quick, q = load_config(config), load_config("quick.toml"), quick_config(config)
    assert q["name"] == config.removesuffix(".toml") + "_quick"
    assert {k: q[k] for k in QUICK_BUDGET_KEYS} == {k: quick[k] for k in QUICK_BUDGET_KEYS}
    rest = set(full) - set(QUICK_BUDGET_KEYS) - {"name"}
    assert {k: q[k] for k in rest} == {k: full[k] for k in rest}  # env, recipe, network unchanged
    assert q["total_timesteps"] * 9 <= full["total_timesteps"]


def test_quick_with_a_config_runs_that_game(tmp_path, capsys):
    from training.train import main

    report = main(["--quick", "--config", "monolith_strategy_solo.toml", "--set", f"out_dir={tmp_path}",
                   "--set", "total_timesteps=256", "--set", "n_steps=32", "--set", "batch_size=64",
                   "--set", "n_epochs=1", "--set", "n_envs=2", "--set", "pretrain_samples=64",
                   "--set", "pretrain_epochs=1", "--set", "eval_every=0", "--set", "final_eval_games=2",
                   "--set", "eval_workers=1", "--set", "checkpoint_every=0", "--set", "progress_bar=false"])
    assert report["env_id"] == "monolith_strategy_v0" and report["env_config"]["num_players"] == 1
    assert (tmp_path / "monolith_strategy_solo_quick" / "final_model.zip").exists()
    assert "final_model.zip --games 200 --set num_players=1 " in capsys.readouterr().out  # evaluate again: alone


def test_learning_curve_states_interval_marks_warm_start_and_keeps_legend_off_the_data(tmp_path):
    from PIL import Image

    from training.evaluate import wilson_interval
    from training.train import plot_curve

    curve = []
    for step, w in ((0, 10), (5000, 14), (10000, 18)):
        lo, hi = wilson_interval(w, 20)
        curve.append({"step": step, "random": {"win_rate": w / 20, "ci95": [lo, hi], "games": 20},
                      "heuristic": {"win_rate": 0.0, "ci95": list(wilson_interval(0, 20)), "games": 20}})
    info = plot_curve(curve, ["random", "heuristic"], tmp_path / "c.png", "run: MaskablePPO", warm_start=True)
    widest = max(100 * max(p["random"]["win_rate"] - p["random"]["ci95"][0],
                           p["random"]["ci95"][1] - p["random"]["win_rate"]) for p in curve)
    assert info["widest_ci_points"] == pytest.approx(widest) and round(widest) == 22
    assert "vs random, heuristic; 20 games per point; widest 95% interval ±22 points" in info["title"]
    assert info["legend_overlaps_axes"] is False
    img = np.asarray(Image.open(tmp_path / "c.png"))
    assert img.shape[:2] == (480, 700) and (img[..., :3] < 128).any()
    empty = plot_curve([], ["random"], tmp_path / "e.png", "run: MaskablePPO")  # eval_every = 0
    assert "no periodic evaluation in this run (eval_every = 0, or stopped before the first)" in empty["title"]
    assert "games per point" not in empty["title"]


def test_the_summary_says_when_a_session_ran_no_ppo_step(tmp_path):
    """A resume at the run's last checkpoint plays no PPO step: the summary says so instead of "0 learner
    steps/s" (and the report's rates are None, not 0)."""
    from training.progress import format_summary

    report = {"run": "r", "env_id": "monolith_arena_v0", "learner_steps": 18432, "total_seconds": 26.4,
              "stage_seconds": {"evaluation": 20.0}, "final_eval": {},
              "throughput": {"train_seconds": 1e-9, "learner_steps_per_s": None, "env_steps_per_s": None}}
    first = format_summary(report, tmp_path).splitlines()[0]
    assert first == "run r on monolith_arena_v0: 18,432 learner steps, 26 s in all (no PPO step in this session)"
    report["throughput"]["learner_steps_per_s"] = 491.4
    assert format_summary(report, tmp_path).splitlines()[0].endswith("(491 learner steps/s in PPO, evaluations not counted)")
    # a resumed session: its own time, and the stage times that include the first session's warm start
    report.update(resumed_from={"checkpoint": "c.zip", "steps": 16384},
                  stage_seconds={"warm-start collection": 22.0, "warm-start fit": 3.0, "PPO": 20.0})
    lines = format_summary(report, tmp_path).splitlines()
    assert lines[0] == ("run r on monolith_arena_v0: 18,432 learner steps, 26 s in this session, resumed at step "
                        "16,384 (491 learner steps/s in PPO, evaluations not counted)")
    assert lines[1] == ("  stages (with the warm start of the first session): warm-start collection 22 s, "
                        "warm-start fit 3 s, PPO 20 s")


def test_the_summary_names_final_games_stopped_at_max_decisions(tmp_path):
    from training.progress import format_summary

    pair = {"games": 10, "wins": 2, "draws": 5, "losses": 3, "win_rate": 0.2, "ci95": [0.06, 0.51], "truncated": 4}
    report = {"run": "r", "env_id": "monolith_arena_v0", "learner_steps": 10, "total_seconds": 1.0,
              "stage_seconds": {}, "final_eval": {"random": pair, "heuristic": {**pair, "truncated": 0}},
              "throughput": {"learner_steps_per_s": 5.0}}
    lines = format_summary(report, tmp_path).splitlines()
    assert lines[2].endswith("2W 5D 3L of 10, 4 stopped at max_decisions") and lines[2].startswith("  vs random")
    assert lines[3].endswith("2W 5D 3L of 10") and lines[3].startswith("  vs heuristic")


def test_list_keys_says_the_defaults_are_not_the_default_recipe(capsys):
    from training.train import main

    assert main(["--list-keys"]) == {}
    out = capsys.readouterr().out
    assert "Without --config the run is training/configs/monolith_arena_2p.toml" in out
    assert "a config of your own starts from these defaults, not from that file" in out
    assert "\ntotal_timesteps      int      default=100000\n" in out


def test_a_one_seat_game_is_announced_without_opponents(tmp_path, capsys):
    """The PPO banner of Strategy solo listed an opponent mix (self 50%, random 25%, heuristic 25%) for a
    game with no opponent seat."""
    from training.train import main

    tiny = [x.replace(f"env_id={ENV_ID}", "env_id=monolith_strategy_v0").replace("env_config={}",
                                                                             "env_config.num_players=1") for x in TINY]
    main(["--quick", *tiny, "--set", "pretrain_samples=0", "--set", "eval_every=0", "--set", "final_eval_games=2",
          "--set", f"out_dir={tmp_path}"])
    banner = next(ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("== [") and "PPO" in ln)
    assert banner.endswith("on 2 envs; no opponents (a one-seat game)") and "random" not in banner


def test_a_stop_after_the_last_checkpoint_says_where_a_resume_goes_on():
    """Stopped at 16,384 of 16,384 steps with the last checkpoint at 14,336: the message read as finished,
    yet --resume trained 2,048 steps more; it now says the resume goes on from the checkpoint."""
    from monolith_envs.core.interrupt import Interrupted
    from training.progress import interrupted_message

    e = Interrupted(2)
    e.info.update(stage="PPO", steps=16384, planned=16384, seconds=41.0, done={"PPO": 30.0}, run_dir="runs/r",
                  checkpoint="model_14336_steps.zip", checkpoint_steps=14336)
    lines = interrupted_message(e).splitlines()
    assert lines[2] == "  kept: checkpoint model_14336_steps.zip (14,336 learner steps)"
    assert lines[3] == ("  resume with: python -m training.train --resume runs/r (it goes on from step 14,336: the "
                        "steps after the checkpoint are played again)")
    e.info.update(checkpoint_steps=16384)
    assert interrupted_message(e).splitlines()[3] == "  resume with: python -m training.train --resume runs/r"


def test_a_stop_while_jobs_are_submitted_ends_the_ones_already_running(monkeypatch):
    """A stop part way through the submissions: the jobs already submitted are ended before the progress
    queue goes (they were left running, each to fail on the closed queue with a traceback)."""
    from concurrent.futures import Future

    import monolith_envs.core.interrupt as interrupt
    from training.progress import map_with_progress

    ended = []

    class StopsOnThirdSubmit:
        def __init__(self):
            self.submitted = []

        def submit(self, fn, job):
            if len(self.submitted) == 2:
                raise KeyboardInterrupt
            self.submitted.append(Future())  # never done: still running
            return self.submitted[-1]

    monkeypatch.setattr(interrupt, "end_executor", lambda ex: ended.append(ex))
    ex = StopsOnThirdSubmit()
    with pytest.raises(KeyboardInterrupt):
        map_with_progress(lambda job: None, [(k,) for k in range(5)], 5, "jobs", "job", ex, enabled=False)
    assert len(ex.submitted) == 2 and ended == [ex]


def test_a_collection_bar_stops_at_its_total():
    """Collection jobs finish whole episodes, so they report a few states past their share: the bar stops at
    its total (past it, tqdm shows no percentage and no ETA)."""
    import io

    from tqdm import tqdm

    from training.progress import _advance

    bar = tqdm(total=100, file=io.StringIO())
    for n in (60, 30, 25, 5):
        _advance(bar, n)
    assert bar.n == 100
    open_ended = tqdm(total=None, file=io.StringIO())
    _advance(open_ended, 7)
    assert open_ended.n == 7


def test_out_dir_and_name_flags_choose_the_run_folder_over_the_config(tmp_path, capsys):
    from training.train import main

    report = main(["--quick", *TINY, "--set", "progress_bar=false", "--out-dir", str(tmp_path / "root"), "--name", "flagged"])
    assert report["learner_steps"] >= 128
    assert (tmp_path / "root" / "flagged" / "final_model.zip").exists() and not (tmp_path / "root" / "ux").exists()
    for argv, words in ((["--name", "../up"], "config key 'name': must be 1 to 100 letters"),
                        (["--resume", str(tmp_path / "root" / "flagged"), "--name", "x"],
                         "--resume RUN_DIR keeps its outputs in RUN_DIR; it takes no --out-dir or --name")):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2 and words in capsys.readouterr().err


def test_a_stop_inside_an_evaluation_of_ppo_says_so(tmp_path, monkeypatch, capsys):
    import signal

    import training.evaluate
    from monolith_envs.core.interrupt import Interrupted
    from training.train import main

    def stop(*args, **kwargs):
        raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(training.evaluate, "evaluate_against", stop)
    args = ["--set", "env_id=monolith_arena_v0", "--set", "total_timesteps=256", "--set", "n_steps=64",
            "--set", "batch_size=64", "--set", "n_epochs=1", "--set", "n_envs=1", "--set", "vec_env=dummy",
            "--set", "net_arch=[16]", "--set", "features=flat", "--set", "shaping=none", "--set", "eval_every=64",
            "--set", "eval_games=2", "--set", "pretrain_samples=0", "--set", "progress_bar=false",
            "--set", "eval_opponents=['random']", "--set", "opponent_mix={random = 1.0}",
            "--set", f"out_dir={tmp_path}", "--set", "name=r"]
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 130
    err = capsys.readouterr().err
    assert "interrupted by SIGINT during an evaluation of PPO at 0 of 256 learner steps" in err, err[-2000:]
