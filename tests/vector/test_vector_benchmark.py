"""benchmarks.vector: the vectorised masked draw picks legal actions uniformly, the command prints its table,
and bad arguments give one error line and exit status 2."""

from __future__ import annotations

import os

import numpy as np
import pytest

import monolith_envs
from benchmarks.vector import ReadmeDraw, main, sample_masked


def test_sample_masked_is_legal_and_uniform():
    mask = np.zeros((3, 7), bool)
    mask[0, [1, 4]] = True
    mask[1, 6] = True
    mask[2, :] = True
    rng = np.random.default_rng(0)
    draws = np.array([sample_masked(mask, rng) for _ in range(7000)])
    assert mask[np.arange(3), draws].all()
    assert set(draws[:, 0]) == {1, 4} and set(draws[:, 1]) == {6}
    counts = np.bincount(draws[:, 2], minlength=7)
    assert counts.min() > 850 and counts.max() < 1150  # 1000 expected per action


def test_command_prints_the_table(capsys, tmp_path):
    out = tmp_path / "vec.json"
    assert main(["--env", "the_monolith_v0", "--num-envs", "4", "--workers", "1", "--seconds", "0.05",
                 "--repeats", "1", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "| the_monolith_v0 | 4 |" in text and "make_vec N=4 dec/s" in text
    import json

    data = json.loads(out.read_text())
    assert data["machine"]["cores"] == os.cpu_count() and data["machine"]["date"].endswith(" UTC")
    row = data["rows"][0]
    assert row["vec"]["decisions_per_s"] > 0 and row["vec_workers"]["decisions_per_s"] > 0
    assert row["vec_over_aec"] == pytest.approx(row["vec"]["decisions_per_s"] / row["aec"]["decisions_per_s"])
    assert row["aec_readme"]["decisions"] > 0 and "AEC, README draw, dec/s" in text
    assert row["vec_over_aec_readme_cpu"] == pytest.approx(
        row["vec"]["decisions_per_cpu_s"] / row["aec_readme"]["decisions_per_cpu_s"])
    assert row["engine"]["decisions"] > 0 and "bare engine dec/s" in text
    assert row["engine_over_aec_cpu"] == pytest.approx(
        row["engine"]["decisions_per_cpu_s"] / row["aec"]["decisions_per_cpu_s"])


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"])
def test_bare_engine_runner_plays_the_aec_envs_games(env_id):
    """Its games are the AEC env's games with the same seeds and the same draws (lengths one for one), and its
    buffer holds the acting seat's observation of the state it stopped at."""
    from benchmarks.loops import AecRunner
    from benchmarks.vector import BareEngineRunner

    runner = BareEngineRunner(env_id, {}, seed=5)
    game = runner.game
    played = 0
    for _ in range(200):  # until two games have ended (a few seconds at most, also on a loaded machine)
        decisions, games, _ = runner.run(0.02)
        played += games
        if played >= 2:
            break
    assert played >= 2 and runner.seed == 5 + 1 + played
    state = runner.state
    assert not game.is_terminal(state)
    assert np.array_equal(runner.out.copy(), game.observe(state, game.current_player(state)))
    # the same seeds and draws through the AEC env give games of the same lengths, one for one
    aec = AecRunner(monolith_envs.make(env_id), 5)
    while len(aec.lengths) < 2:
        aec.run(0.02)
    assert runner.lengths[:2] == aec.lengths[:2] and min(runner.lengths) > 1


def test_readme_draw_is_legal_and_reproducible():
    mask = np.zeros(9, bool)
    mask[[2, 5, 8]] = True
    a, b = ReadmeDraw(3), ReadmeDraw(3)
    draws = [a.from_mask(mask) for _ in range(300)]
    assert draws == [b.from_mask(mask) for _ in range(300)]
    assert set(draws) == {2, 5, 8} and all(type(d) is int for d in draws)


@pytest.mark.parametrize("argv,needle", [
    (["--env", "nope_v0"], "unknown env id 'nope_v0'"),
    (["--num-envs", "0"], "--num-envs"),
    (["--workers", "5", "--num-envs", "4"], "--workers 5 is more than --num-envs 4"),
    (["--seconds", "x"], "--seconds"),
    (["--seed", "-1"], "--seed"),
    (["--json", "/proc/nope/v.json"], "--json /proc/nope/v.json: its folder /proc/nope cannot be created"),
    (["--env", "the_monolith_v0", "--set", "num_players=9", "--seconds", "0.05", "--repeats", "1"], "num_players"),
])
def test_bad_arguments_exit_2_with_one_error_line(argv, needle, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_the_table_has_the_worker_columns_only_when_a_worker_run_was_measured():
    from benchmarks.vector import table

    def row(workers):
        m = {"decisions_per_s": 1000.0, "cpu_share": 1.4}
        r = {"env_id": "toy_v0", "config": {}, "players": 2, "num_envs": 4, "workers": workers, "aec": m, "vec": m,
             "vec_over_aec": 1.0, "vec_over_aec_cpu": 1.0, "aec_readme": m, "vec_over_aec_readme_cpu": 1.2,
             "engine": m, "engine_over_aec_cpu": 1.3, "vec_over_engine_cpu": 0.8}
        return dict(r, vec_workers=m, workers_over_vec=1.1, workers_over_vec_cpu=0.7) if workers else r

    with_workers, without = table([row(2)]).splitlines(), table([row(0)]).splitlines()
    assert "| workers=2 dec/s | × 1 process | × 1 process (CPU) | CPU use, workers=2 |" in with_workers[0]
    assert "workers" not in without[0] and "1 process" not in without[0]
    for lines, cols in ((with_workers, 15), (without, 11)):
        assert [line.count("|") - 1 for line in lines] == [cols] * 3  # heading, rule and row: the same columns
    assert without[2] == "| toy_v0 | 2 | 1,000 | 1,000 | 1.00 | 1.00 | 1,000 | 1.20 | 1,000 | 1.30 | 0.80 |"
