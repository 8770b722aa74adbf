"""``python -m training.az`` checks its config before any work, as ``training.train`` does: the run folder
stays one folder under ``out_dir``, every number has a range (workers at most the machine's local limit), the
opponents are built with the game config, and a MaskablePPO config is named as such."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest

from monolith_envs.core.processes import local_worker_limit
from training.az.__main__ import _checked_config
from training.az.config import validate_az
from training.config import TrainConfigError


@pytest.mark.parametrize("over, message", [
    ({"name": "../x"}, "config key 'name': must be 1 to 100 letters"),
    ({"name": "/abs/run"}, "config key 'name': must be 1 to 100 letters"),
    ({"name": ".hidden"}, "config key 'name': must be 1 to 100 letters"),
    ({"out_dir": ""}, "config key 'out_dir': must be a folder path"),
    ({"value_coef": -5.0}, "config key 'value_coef': must be in [0, 100], got -5.0"),
    ({"lr": math.nan}, "config key 'lr': must be in (0, 1]"),
    ({"concurrent": 10**8}, "config key 'concurrent': must be an integer from 1 to 4,096"),
    ({"replay_size": 10**15}, "config key 'replay_size': must be an integer from 1 to 100,000,000"),
    ({"workers": 1000}, "config key 'workers': must be an integer from 1 to 256"),
    ({"total_timesteps": 10, "n_steps": 4}, "this is a config of the MaskablePPO recipe"),
    ({"eval_opponents": ["random", "human"]}, "config key 'eval_opponents': agent spec 'human': training plays "
                                              "unattended"),
])
def test_bad_values_are_refused_naming_the_key_and_the_range(over, message):
    with pytest.raises(TrainConfigError) as e:
        validate_az(over)
    assert message in str(e.value)


def test_workers_are_bounded_by_the_machine():
    limit = min(local_worker_limit(), 256)  # 4 per CPU, and never above the key's range
    assert validate_az({"workers": limit})["workers"] == limit
    if limit < 256:
        with pytest.raises(TrainConfigError, match=f"at most {limit} worker processes on this machine"):
            validate_az({"workers": limit + 1})


def _args(tmp_path: Path, body: str, **kw) -> argparse.Namespace:
    cfg = tmp_path / "c.toml"
    cfg.write_text(body)
    base = {"config": str(cfg), "quick": False, "workers": None, "seed": None, "out_dir": str(tmp_path / "runs"),
            "name": None, "set": []}
    return argparse.Namespace(**{**base, **kw})


@pytest.mark.parametrize("body, kw, message", [
    ('env_id = "the_monolith_v0"\nenv_config = { num_players = 2 }\neval_opponents = ["baseline"]\n', {},
     "config key 'eval_opponents': agent spec 'baseline': no baseline for the_monolith_v0 with num_players=2"),
    ('eval_opponents = ["ppo:/nonexistent/model.zip"]\n', {}, "config key 'eval_opponents': agent spec"),
    ("eval_opponents = []\n", {}, "config key 'eval_opponents': empty"),
    ("seed = 0\n", {"name": ""}, "config key 'name': must not be empty"),
    ('env_config = { num_players = 9 }\n', {}, "config key 'env_config'"),
])
def test_the_command_checks_opponents_game_and_name_before_any_work(tmp_path, body, kw, message):
    with pytest.raises(TrainConfigError) as e:
        _checked_config(_args(tmp_path, body, **kw))
    assert message in str(e.value)
    assert not (tmp_path / "runs").exists()  # nothing written


def test_a_file_in_the_way_of_the_run_folder_is_named(tmp_path):
    (tmp_path / "runs").write_text("")
    with pytest.raises(TrainConfigError, match="/runs is a file, not a folder"):
        _checked_config(_args(tmp_path, "seed = 0\n", name="r"))
    assert _checked_config(_args(tmp_path, "seed = 0\n", name="r", out_dir=str(tmp_path / "ok")))["name"] == "r"
    assert (tmp_path / "ok" / "r").is_dir()


@pytest.mark.parametrize("quick_table, what", [("", "no [quick] table"), ("\n[quick]\n", "an empty [quick] table")])
def test_quick_on_a_config_without_a_quick_table_is_one_error_before_any_work(tmp_path, capsys, quick_table, what):
    """It ran the full recipe under the name ``<stem>_quick``."""
    from training.az.__main__ import main

    cfg = tmp_path / "X.toml"
    cfg.write_text("seed = 0\nwarm_games = 1\n" + quick_table)
    with pytest.raises(SystemExit) as e:
        main(["--config", str(cfg), "--quick", "--out-dir", str(tmp_path / "runs"), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 2 and len(err) == 1, err
    assert err[0].startswith(f"python -m training.az: error: --quick: config file {str(cfg)!r} has {what}, so "
                             "--quick would run the full recipe; add a [quick] table") and "or run without --quick" in err[0]
    assert not (tmp_path / "runs").exists()  # nothing run, nothing written
    assert _checked_config(_args(tmp_path, "seed = 0\n", name="r"))["name"] == "r"  # without --quick: runs


def test_set_overrides_a_key_after_quick_and_a_typo_is_named_with_the_key_meant(tmp_path):
    body = "seed = 0\nwarm_games = 5\n[quick]\nwarm_games = 2\niterations = 0\n"
    cfg = _checked_config(_args(tmp_path, body, name="r", quick=True, set=["warm_games=3", "env_config.num_players=2"]))
    assert cfg["warm_games"] == 3 and cfg["iterations"] == 0 and cfg["env_config"] == {"num_players": 2}
    with pytest.raises(TrainConfigError, match=r"unknown config key 'warm_gmes' in override 'warm_gmes=3' \(did you "
                                               r"mean 'warm_games'\?\); valid keys: "):
        _checked_config(_args(tmp_path, body, name="r", set=["warm_gmes=3"]))
    with pytest.raises(TrainConfigError, match=r"config key 'warm_games': must be an integer from 0 to"):
        _checked_config(_args(tmp_path, body, name="r", set=["warm_games=-1"]))
    with pytest.raises(TrainConfigError, match=r"^unknown config key 'iteratons' \(did you mean 'iterations' for "
                                               r"'iteratons'\?\); valid keys: "):
        _checked_config(_args(tmp_path, "iteratons = 1\n", name="r"))
