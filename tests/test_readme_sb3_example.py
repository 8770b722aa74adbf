"""``examples/train_sb3.py`` (README "Train your own agent with SB3"): progress per rollout, the result with
its Wilson interval and what to expect, bad arguments refused in one line."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _example():
    spec = importlib.util.spec_from_file_location("train_sb3_example", ROOT / "examples" / "train_sb3.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_sb3_example"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_a_tiny_run_prints_progress_and_the_result_with_its_interval(tmp_path, capsys):
    ex = _example()
    s = ex.main(["--steps", "2048", "--warm-start", "64", "--games", "2", "--workers", "1",
                 "--out", str(tmp_path / "m")])
    out = capsys.readouterr().out
    assert (tmp_path / "m" / "model.zip").is_file()
    assert s["games"] == 2 and s["wins"] + s["draws"] + s["losses"] == 2
    assert re.search(r"^  ppo +2,048/2,048 steps \| +\d+ episodes won +(\d+%|-) against random \| [\d,]+ steps/s$",
                     out, flags=re.M)
    lo, hi = s["ci95"]
    assert (f"the agent won {s['wins']} of 2 games against random = {s['win_rate']:.1%} (95% Wilson interval "
            f"{lo:.1%}-{hi:.1%})") in out
    assert "expected with the defaults: about 95% against random" in out
    assert "the policy playing its most probable action (greedy)" in out
    assert "warm start done in" in out and "MaskablePPO done in" in out


def test_every_offered_game_has_a_measured_expectation_in_the_readme():
    ex = _example()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Train your own agent with SB3", 1)[1].split("\n## ", 1)[0]
    for env_id in ex.GAMES:
        assert f"`{env_id}`" in section


@pytest.mark.parametrize("argv, needle", [
    (["--steps", "0"], "argument --steps: expected a whole number >= 1, got 0"),
    (["--env", "chess"], "argument --env: invalid choice: 'chess'"),
    (["--shaping", "-1"], "argument --shaping: expected a number from 0 (no shaping) to 1e6, got '-1'"),
    (["--seed", "x"], "argument --seed"),
])
def test_bad_arguments_are_one_error_line(argv, needle, capsys):
    ex = _example()
    with pytest.raises(SystemExit) as exc:
        ex.parse_args(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("python examples/train_sb3.py: error: ")
    assert needle in err[-1]


def test_each_game_keeps_its_own_model_by_default():
    """The README runs the example for each game in turn: one run must not overwrite another's model."""
    ex = _example()
    assert ex.parse_args([]).out == "runs/sb3_example/monolith_arena_v0"
    assert ex.parse_args(["--env", "the_monolith_v0"]).out == "runs/sb3_example/the_monolith_v0"
    assert ex.parse_args(["--out", "runs/mine"]).out == "runs/mine"
