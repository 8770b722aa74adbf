"""Smoke test of the benchmark harness on the toy game (structure and sanity of the results, no timing)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks.report import render_markdown, write_results
from benchmarks.single_agent import AecSingleAgentEnv
from tests.benchmarks.conftest import TINY
from tests.toy_game import ENV_ID


def _row(result, env_id):
    return next(r for r in result["rows"] if r["env_id"] == env_id)


def test_rows_and_sections(result):
    assert [r["env_id"] for r in result["rows"]] == ["connect_four_v3", ENV_ID]
    toy = _row(result, ENV_ID)
    assert toy["errors"] == []
    assert (toy["num_players"], toy["num_actions"], toy["obs_size"]) == (2, 9, 23)
    for section in ("aec", "aec_raw", "engine", "engine_obs"):
        s = toy[section]
        assert s["decisions_per_s"] > 0 and s["games_completed"] > 0
        # tic-tac-toe: a match takes 5..9 marks
        assert 5 <= s["decisions_per_game"] <= 9
    lat = toy["latency"]
    for key in ("reset_us", "initial_state_us", "clone_us", "observe_us", "observe_warm_us", "legal_mask_us",
                "json_roundtrip_us"):
        assert 0 < lat[key] < 1e5, key
    assert lat["json_roundtrip_exact"] is True
    assert 0 < toy["memory"]["env_bytes"] < 1e6 and 0 < toy["memory"]["state_bytes"] < toy["memory"]["env_bytes"]
    prog = toy["progress"]
    assert prog["games"] >= 1
    assert prog["early"]["legal_actions"] >= prog["late"]["legal_actions"]  # the board fills up


def test_ratios_and_targets(result):
    c4 = _row(result, "connect_four_v3")
    assert c4["ratios"]["aec_x_c4"] == pytest.approx(1.0)
    assert c4["targets"] is None
    toy = _row(result, ENV_ID)
    assert toy["ratios"]["aec_x_c4"] > 0
    assert set(toy["targets"]) == {"aec_x_c4", "engine_x_oschess", "clone_us", "reset_us", "env_mb"}
    assert toy["targets"]["engine_x_oschess"]["met"] is None  # OpenSpiel chess was not measured
    assert toy["targets"]["clone_us"]["met"] in (True, False)


def test_training_entries(result):
    names = {(e["env_id"], e["vec"]) for e in result["training"]}
    assert names == {(ENV_ID, "dummy"), ("connect_four_v3", "dummy")}
    for e in result["training"]:
        assert "error" not in e, e.get("error")
        assert e["steps"] >= TINY.train_steps and e["steps_per_s"] > 0
        assert e["all_seat_decisions_per_s"] >= e["steps_per_s"]


def test_report_files(result, tmp_path):
    md_path, json_path = write_results(result, tmp_path, "t")
    md = md_path.read_text()
    assert md == render_markdown(result)
    for heading in ("## Summary", "## Throughput", "## Ratios to the references", "## Per-call latency and memory", "## Targets", "## Cost by game progress",
                    "## Cost by player count", "## MaskablePPO training throughput"):
        assert heading in md
    data = json.loads(json_path.read_text())
    assert data["meta"]["cpu"] and data["meta"]["date"]
    assert isinstance(data["meta"]["compiled_modules"], list) and "ompiled modules" in md
    assert data["references"]["connect_four_v3_aec_decisions_per_s"] > 0


def test_compiled_modules_lists_the_loaded_extension():
    from benchmarks.run import compiled_modules
    from monolith_envs.arena.observe import compiled_available

    mods = compiled_modules()
    assert all(m.startswith("monolith_envs.") for m in mods)
    assert ("monolith_envs.arena._fastobs" in mods) == compiled_available()


def test_single_agent_wrapper_masks():
    from pettingzoo.classic import connect_four_v3

    env = AecSingleAgentEnv(connect_four_v3.raw_env, seed=3)
    obs, _ = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    done, steps, rng = False, 0, np.random.default_rng(0)
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = term or trunc
        steps += 1
    assert reward in (-1.0, 0.0, 1.0) and steps <= 21


def test_quick_run_never_overwrites_committed_results(result, tmp_path, monkeypatch, capsys):
    import benchmarks.run as run

    monkeypatch.setattr(run, "run_benchmarks", lambda *a, **k: result)
    committed = {p.name: p.read_bytes() for p in run.RESULTS_DIR.glob("latest-quick.*")}
    monkeypatch.chdir(tmp_path)
    run.main(["--quick", "--quiet"])
    assert sorted(p.name for p in (tmp_path / "runs" / "benchmarks").iterdir()) == ["latest-quick.json",
                                                                                   "latest-quick.md"]
    assert {p.name: p.read_bytes() for p in run.RESULTS_DIR.glob("latest-quick.*")} == committed
    published = tmp_path / "published"
    monkeypatch.setattr(run, "RESULTS_DIR", published)  # --publish writes to the committed folder
    run.main(["--quick", "--quiet", "--publish"])
    assert (published / "latest-quick.md").read_text() == render_markdown(result)
    assert "wrote runs/benchmarks/latest-quick.md" in capsys.readouterr().err


def test_the_time_left_counts_this_stage_and_names_the_one_after_it(monkeypatch):
    import benchmarks.run as run

    monkeypatch.setattr(run.time, "perf_counter", lambda: 110.0)
    then = ", then the training throughput"
    assert run._eta(100.0, 2, 5) == "; about 15 s left"
    assert run._eta(100.0, 2, 5, then) == "; about 15 s left in this stage, then the training throughput"
    assert run._eta(100.0, 0, 5, then) == "; then the training throughput after these"
    assert run._eta(100.0, 0, 5) == ""
