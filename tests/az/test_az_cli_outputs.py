"""``python -m training.az`` says where its outputs go: ``--help`` names the ``_quick`` suffix of a ``--quick`` run,
and a finished run ends with the path of its ``final.pt`` and a ``training.evaluate`` command that plays it."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from training import evaluate
from training.az.__main__ import main

#: a run of a few seconds on The Monolith (3 seats, 40 decisions at most); its [quick] table changes one key
TINY = """env_id = "the_monolith_v0"
env_config = { num_players = 3, max_decisions = 40 }
workers = 1
tasks = 1
hidden = [16]
warm_games = 1
warm_epochs = 1
iterations = 1
games_per_iteration = 1
concurrent = 1
simulations = 2
train_epochs = 1
eval_games = 0
final_eval_games = 1
eval_opponents = ["random"]

[quick]
final_eval_games = 2
"""


def test_help_says_that_quick_appends_to_the_run_name(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert "stem plus '_quick' with --quick" in text and "runs/az_arena_2p_quick/" in text


def test_help_says_what_config_defaults_to(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: training/configs/az_arena_2p.toml, the full Arena duel recipe; with --quick its short run)" in text


def test_a_quick_run_ends_with_its_final_model_and_the_command_that_evaluates_it(tmp_path, capsys):
    config = tmp_path / "tiny_az.toml"
    config.write_text(TINY)
    runs = tmp_path / "runs"
    report = main(["--config", str(config), "--quick", "--out-dir", str(runs), "--no-progress"])
    final = runs / "tiny_az_quick" / "final.pt"  # the file's stem, plus _quick
    assert Path(report["final_model"]) == final and final.is_file()
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-3] == f"final model: {final}"
    assert err[-2].startswith("evaluate it: python -m training.evaluate --env the_monolith_v0 --agents az:")
    assert err[-2].endswith(f" --games 200 --set num_players=3 --set max_decisions=40 --out-dir {final.parent}")
    argv = shlex.split(err[-2].removeprefix("evaluate it: "))
    assert argv[:3] == ["python", "-m", "training.evaluate"]
    assert argv[argv.index("--agents") + 1] == f"az:{final},random"
    argv[argv.index("--games") + 1] = "1"  # the printed command, shortened: it runs as printed
    out = evaluate.main(argv[3:] + ["--workers", "1"])  # its results where the command says, beside the model
    assert (final.parent / "eval_the_monolith_v0_0.json").is_file()
    evaluate.main(argv[3:] + ["--workers", "1"])  # again: a second file, the first result kept
    assert (final.parent / "eval_the_monolith_v0_0-2.json").is_file()
    assert out["agents"] == [f"az:{final}", "random"] and out["env_config"] == {"num_players": 3, "max_decisions": 40}
    assert out["pairs"][0]["games"] == 1


def test_the_evaluate_commands_play_the_model_against_each_opponent_not_the_opponents_against_each_other():
    """One command naming ``az:…,random,heuristic`` also played random against heuristic."""
    from training.az.__main__ import final_lines

    report = {"env_id": "monolith_arena_v0", "env_config": {"num_players": 2}, "final_model": "runs/r/final.pt",
              "config": {"eval_opponents": ["random", "heuristic"]}}
    lines = final_lines(report).splitlines()
    assert lines[:2] == ["final model: runs/r/final.pt", "evaluate it against each opponent (one command each):"]
    agents = [shlex.split(line)[shlex.split(line).index("--agents") + 1] for line in lines[2:4]]
    assert agents == ["az:runs/r/final.pt,random", "az:runs/r/final.pt,heuristic"]
    assert all(line.startswith("  python -m training.evaluate --env monolith_arena_v0 ") for line in lines[2:4])
    solo = dict(report, env_id="monolith_strategy_v0", env_config={"num_players": 1})
    assert final_lines(solo).splitlines()[1] == ("evaluate it: python -m training.evaluate --env monolith_strategy_v0 "
                                                 "--agents az:runs/r/final.pt --games 200 --set num_players=1 "
                                                 "--out-dir runs/r")


SOLO = """env_id = "monolith_strategy_v0"
env_config = { num_players = 1, max_decisions = 30 }
workers = 1
tasks = 1
hidden = [16]
warm_games = 0
iterations = 0
eval_games = 2
final_eval_games = 2
eval_opponents = ["random", "heuristic"]
"""


def test_a_solo_run_without_warm_start_says_so_and_reports_a_success_rate(tmp_path, capsys):
    """The banner said "0 heuristic games, behaviour cloning + values, 2 epochs" with nothing fitted, and the
    evaluation of a one-seat game "policy vs alone ... 0W 0D 2L" and "games per opponent, seats rotating"."""
    config = tmp_path / "solo.toml"
    config.write_text(SOLO)
    main(["--config", str(config), "--out-dir", str(tmp_path / "runs")])
    err = capsys.readouterr().err
    assert "] warm start: skipped (warm_games = 0): nothing is fitted, checkpoints/iter0.pt is a fresh network" in err
    assert "behaviour cloning" not in err and "vs alone" not in err and "W 0D" not in err
    assert "] final evaluation: 2 games alone, success rate" in err and "seats rotating" not in err
    alone = [line for line in err.splitlines() if line.startswith("   policy alone ")]
    assert len(alone) == 2 and all(" success  (95% CI " in line and " of 2, mean score " in line for line in alone)
