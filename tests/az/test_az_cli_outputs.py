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
    assert err[-2].endswith(" --games 200 --set num_players=3 --set max_decisions=40")
    argv = shlex.split(err[-2].removeprefix("evaluate it: "))
    assert argv[:3] == ["python", "-m", "training.evaluate"]
    assert argv[argv.index("--agents") + 1] == f"az:{final},random"
    argv[argv.index("--games") + 1] = "1"  # the printed command, shortened: it runs as printed
    out = evaluate.main(argv[3:] + ["--workers", "1", "--out", str(tmp_path / "eval.json")])
    assert out["agents"] == [f"az:{final}", "random"] and out["env_config"] == {"num_players": 3, "max_decisions": 40}
    assert out["pairs"][0]["games"] == 1
