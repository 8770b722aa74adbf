"""``opponent_schedule``: later opponent mixes of a ``training.train`` run (random first, then the heuristic)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import RandomAgent
from tests.toy_game import ENV_ID as TOY
from tests.training.test_training import _smoke_args
from training.config import CONFIG_DIR, TrainConfigError, check_config, load_config, validate
from training.selfplay import OpponentPool


def test_set_mix_changes_the_draws_and_keeps_snapshots_and_counts():
    pool = OpponentPool(TOY, {"random": 1.0})
    rng = np.random.default_rng(0)
    assert all(isinstance(pool(rng, 1)[0], RandomAgent) for _ in range(10))
    pool.add_snapshot({"w": np.zeros(1)})
    pool.set_mix({"heuristic": 3.0, "random": 1.0})
    drawn = [pool(rng, 1)[0] for _ in range(400)]
    heuristic_share = sum(a is pool.fixed["heuristic"] for a in drawn) / 400
    assert 0.68 < heuristic_share < 0.82  # 3 : 1
    assert pool.counts["random"] == 10 + 400 - round(heuristic_share * 400) and len(pool.snapshots) == 1
    with pytest.raises(ValueError, match="non-negative weights with a positive sum"):
        pool.set_mix({"random": 0.0})
    with pytest.raises(ValueError, match="'self' in the opponent mix needs make_policy"):
        pool.set_mix({"self": 1.0})
    assert pool.kinds == ["heuristic", "random"]  # a refused mix leaves the pool as it was


@pytest.mark.parametrize("schedule, message", [
    ([{"from_step": 100}], "phase 1: a table with exactly the keys from_step and mix"),
    ([{"from_step": 100, "mix": {"random": 1}, "extra": 1}], "phase 1: a table with exactly the keys"),
    ([{"from_step": 0, "mix": {"random": 1}}], "phase 1: from_step must be an integer above 0"),
    ([{"from_step": 200, "mix": {"random": 1}}, {"from_step": 200, "mix": {"self": 1}}],
     "phase 2: from_step must be an integer above 200"),
    ([{"from_step": 1.5, "mix": {"random": 1}}], "phase 1: from_step must be an integer"),
    ([{"from_step": 10, "mix": {}}], "phase 1, mix: a table of 1 to 64 agent specs"),
    ([{"from_step": 10, "mix": {"random": -1}}], "phase 1, mix: a table of 1 to 64 agent specs"),
    (["random"], "phase 1: a table with exactly the keys from_step and mix"),
])
def test_a_bad_schedule_is_named_by_its_phase(schedule, message):
    with pytest.raises(TrainConfigError, match=message):
        validate({"opponent_schedule": schedule})


def test_every_agent_spec_of_the_schedule_is_built_before_the_run():
    cfg = validate({"env_id": TOY, "env_config": {}, "eval_opponents": ["random"],
                    "opponent_schedule": [{"from_step": 10, "mix": {"mcts:abc": 1.0}}]})
    with pytest.raises(TrainConfigError, match="config key 'opponent_schedule': agent spec 'mcts:abc'"):
        check_config(cfg)


def test_the_default_config_switches_to_the_heuristic_and_quick_keeps_the_phase_share():
    from training.train import quick_config

    cfg = load_config(CONFIG_DIR / "monolith_arena_2p.toml")
    assert cfg["opponent_schedule"] == [{"from_step": 150_000, "mix": {"heuristic": 0.8, "self": 0.2}}]
    assert cfg["total_timesteps"] == 600_000 and cfg["vec_env"] == "subproc"
    quick = quick_config(CONFIG_DIR / "monolith_arena_2p.toml")
    assert quick["total_timesteps"] == 16_384 and quick["opponent_schedule"][0]["from_step"] == 4_096  # 1/4 of it
    short = load_config(CONFIG_DIR / "monolith_arena_2p_short.toml")
    assert short["opponent_schedule"] == [] and short["total_timesteps"] == 150_000


def test_a_run_switches_its_opponents_at_the_first_rollout_of_the_phase(tmp_path, capsys):
    from training.train import main

    args = _smoke_args(TOY, tmp_path, "sched", games=2)
    args += ["--set", "total_timesteps=1024", "--set", "opponent_mix={random = 1.0}",
             "--set", "opponent_schedule=[{from_step = 200, mix = {heuristic = 1.0}}, "
                      "{from_step = 700, mix = {self = 1.0, random = 1.0}}]",
             "--set", "progress_bar=true"]
    report = main(args)
    # rollouts of 128 steps x 2 envs start at 0, 256, 512 and 768: each phase at the first one at or after it
    assert report["opponent_phases"] == [{"step": 0, "mix": {"random": 1.0}},
                                         {"step": 256, "mix": {"heuristic": 1.0}},
                                         {"step": 768, "mix": {"self": 1.0, "random": 1.0}}]
    drawn = report["opponents_drawn"]  # what the envs' pools drew: every phase reached them
    assert drawn["random"] > 0 and drawn["heuristic"] > 0 and drawn["self"] > 0
    saved = json.loads((tmp_path / "sched" / "report.json").read_text())
    assert saved["opponent_phases"] == report["opponent_phases"] and saved["learner_steps"] == 1024
    err = capsys.readouterr().err
    assert ("; opponents random 100%, from step 200: heuristic 100%, from step 700: self 50%, random 50%" in err
            and "opponents from step 256: heuristic 100%" in err and "opponents from step 768: self 50%, random 50%"
            in err)


def test_a_resumed_run_starts_in_its_checkpoints_phase_and_reports_every_phase(tmp_path):
    from training.train import main

    args = _smoke_args(TOY, tmp_path, "sched", games=2)
    args += ["--set", "total_timesteps=512", "--set", "opponent_mix={random = 1.0}",
             "--set", "opponent_schedule=[{from_step = 200, mix = {heuristic = 1.0}}]"]
    first = main(args)
    assert first["opponent_phases"][1] == {"step": 256, "mix": {"heuristic": 1.0}}
    report = main(["--resume", str(tmp_path / "sched"), "--set", "total_timesteps=1024"])
    assert report["resumed_from"]["steps"] == 512 and report["learner_steps"] == 1024
    # from its first episode the resumed session draws the heuristic, the mix in force at step 512
    assert {k for k, n in report["opponents_drawn"].items() if n} == {"heuristic"}
    assert report["opponent_phases"] == first["opponent_phases"]


def test_a_schedule_written_as_json_text_says_how_to_write_toml():
    from training.config import apply_overrides

    with pytest.raises(TrainConfigError, match="that text did not read as a TOML value: write tables as"):
        apply_overrides(load_config(None), ['opponent_schedule=[{"from_step": 1, "mix": {"random": 1}}]'])
    base = load_config(CONFIG_DIR / "monolith_arena_2p.toml")
    out = apply_overrides(base, ["seed=3"])
    out["opponent_schedule"][0]["mix"]["random"] = 1.0  # the result shares no table with its input
    assert base["opponent_schedule"][0]["mix"] == {"heuristic": 0.8, "self": 0.2}


def test_self_play_alone_without_a_warm_start_plays_its_first_games_against_the_initial_policy(tmp_path, monkeypatch):
    """``opponent_mix = {self = 1.0}`` with no warm start and no fixed opponent: the pool gets the initial
    policy before the envs' first reset (it had no snapshot then and failed with a RuntimeError)."""
    from training.train import main

    args = _smoke_args(TOY, tmp_path, "selfonly", games=2)
    args[args.index("opponent_mix={self = 1.0, random = 1.0}")] = "opponent_mix={self = 1.0}"
    args[args.index("pretrain_samples=64")] = "pretrain_samples=0"
    pushes = []
    real = OpponentPool.add_snapshot
    monkeypatch.setattr(OpponentPool, "add_snapshot", lambda pool, w: (pushes.append(1), real(pool, w))[1])
    report = main(args)
    assert report["learner_steps"] == 256
    assert set(report["opponents_drawn"]) == {"self"} and report["opponents_drawn"]["self"] > 0
    # the starting weights go into each env's pool once: as many pushes as a run whose mix has a fixed opponent
    self_only = len(pushes)
    pushes.clear()
    mixed = _smoke_args(TOY, tmp_path, "mixed", games=2)  # opponent_mix {self = 1.0, random = 1.0}
    mixed[mixed.index("pretrain_samples=64")] = "pretrain_samples=0"
    main(mixed)
    assert self_only == len(pushes) > 0
