"""Tools read the game's per-seat outcome, never the sign of returns: the 2v2 teams regression, and one-seat
games in the single-agent wrapper, match, evaluation (success rate, 95% interval, mean score)."""

import json

import numpy as np
import pytest

import monolith_envs
from agents import RandomAgent, play_match
from agents.match import seat_verdict
from monolith_envs.core.game import Outcome
from monolith_envs.core.testing import CHECKS, ScriptedRng, check_env
from tests.conftest import _PIG
from tests.dice_toy import ENV_ID as PIG
from tests.dice_toy import HOLD, ROLL, PigGame
from training.evaluate import (
    evaluate_against,
    run_pairing,
    run_solo,
    run_tournament,
    seating,
    wilson_interval,
)
from training.wrapper import SingleAgentEnv


# ---------------------------------------------------------------- the toy solo game itself
@pytest.mark.parametrize("cfg", [{}, {"num_players": 2}])
def test_pig_passes_the_conformance_suite(cfg):
    rep = check_env(_PIG.raw_env, cfg, games=12, seed=0, api_cycles=60)
    assert rep.checks == list(CHECKS)


def test_pig_golden_turns_with_scripted_dice():
    g = PigGame({"target": 10, "max_turns": 2})
    s = g.initial_state(np.random.default_rng(0))
    rng = ScriptedRng([4, 1, 6, 5])
    g.apply(s, ROLL, rng)  # 4
    assert (s.turn_points, s.turns) == (4, 0)
    g.apply(s, ROLL, rng)  # 1: the turn's points are lost
    assert (s.turn_points, s.turns, s.bank) == (0, 1, [0])
    g.apply(s, ROLL, rng)  # 6
    g.apply(s, ROLL, rng)  # 5: 11 >= 10 ends the game at once
    rng.assert_exhausted()
    assert g.is_terminal(s) and s.bank == [11]
    assert g.outcome(s) == (Outcome.SUCCESS,) and g.returns(s).tolist() == [1.0]
    s = g.initial_state(np.random.default_rng(0))
    rng = ScriptedRng([3, 1])
    g.apply(s, ROLL, rng)
    g.apply(s, HOLD, rng)  # banks 3, turn 1 of 2 over
    g.apply(s, ROLL, rng)  # 1: the last turn is over, 3 < 10
    assert g.outcome(s) == (Outcome.FAILURE,) and g.returns(s).tolist() == [-1.0]


# ---------------------------------------------------------------- 2v2 teams: a team win is a win
def test_teams_evaluation_counts_the_heuristic_teams_wins():
    """Regression: in Arena's 2v2 a team win used to be a draw (the allies' equal returns were compared)."""
    game = monolith_envs.make_game("monolith_arena_v0", num_players=4, mode="teams")
    assert [seating(game, k) for k in range(3)] == [[0, 2], [1, 3], [0, 2]]
    pr = run_pairing("monolith_arena_v0", "heuristic", "random", 4, seed=0,
                     env_config={"num_players": 4, "mode": "teams"}, workers=1)
    assert pr.seats == [0, 1, 0, 1]
    assert (pr.wins, pr.draws, pr.losses) == (4, 0, 0), pr.summary()
    for seat, ret in zip(pr.seats, pr.returns):  # the heuristic's two seats share +0.5 each
        assert ret[seat] == ret[(seat + 2) % 4] == 0.5


def test_match_result_reads_the_outcome():
    env = monolith_envs.make("monolith_arena_v0", num_players=4, mode="teams")
    res = play_match(env, [RandomAgent() for _ in range(4)], seed=3)
    game = env.unwrapped.game
    assert res.outcome == game.outcome(env.unwrapped.game_state)
    assert res.winners == [p for p in range(4) if res.outcome[p] is Outcome.WIN]
    assert len(res.winners) in (0, 2) and seat_verdict(res, 0) == res.outcome[0].value


# ---------------------------------------------------------------- one seat
def test_single_agent_env_plays_a_one_seat_game_without_opponents():
    env = SingleAgentEnv(PIG, None, env_config={"target": 20, "max_turns": 4}, seed=1)
    pick = np.random.default_rng(0)
    seen = set()
    for _ in range(20):
        obs, info = env.reset()
        assert info["seat"] == 0 and obs.shape == (4,)
        done = False
        total = 0.0
        while not done:
            a = HOLD if env.action_masks()[HOLD] and pick.random() < 0.5 else ROLL
            obs, r, term, trunc, info = env.step(a)
            total += r
            done = term or trunc
        assert info["outcome"] in ("success", "failure")
        assert info["win"] == (1 if info["outcome"] == "success" else -1) == total
        assert info["returns"].tolist() == [float(info["win"])]
        seen.add(info["outcome"])
    assert seen == {"success", "failure"}
    with pytest.raises(ValueError, match="at least one opponent"):
        SingleAgentEnv(PIG, [], env_config={"num_players": 2})


def test_play_match_and_solo_evaluation():
    env = monolith_envs.make(PIG)
    results = [play_match(env, [RandomAgent()], seed=k) for k in range(30)]
    wins = sum(r.outcome == (Outcome.SUCCESS,) for r in results)
    assert all(r.winners == ([0] if r.outcome[0] is Outcome.SUCCESS else []) for r in results)
    sr = run_solo(PIG, "random", 30, seed=0, workers=1)
    assert sr.successes == [int(r.outcome[0] is Outcome.SUCCESS) for r in results]
    d = sr.summary()
    assert d["successes"] == wins and d["success_rate"] == wins / 30
    assert d["ci95"] == list(wilson_interval(wins, 30))
    assert d["mean_score"] == pytest.approx(np.mean([float(r.returns[0]) for r in results]))
    assert d["mean_score"] == pytest.approx(2 * wins / 30 - 1)  # +1 success, -1 failure
    both = run_tournament(PIG, ["random", "heuristic"], 10, seed=0, workers=1)
    assert both["pairs"] == [] and [s.agent for s in both["solo"]] == ["random", "heuristic"]
    ev = evaluate_against(PIG, "random", "ignored", 30, seed=0, workers=1)
    assert (ev["opponent"], ev["wins"], ev["losses"], ev["win_rate"]) == ("alone", wins, 30 - wins, wins / 30)
    with pytest.raises(ValueError, match="one-seat configs"):
        run_solo(PIG, "random", 3, env_config={"num_players": 2}, workers=1)


def test_evaluate_cli_on_a_one_seat_game(tmp_path, capsys):
    from training.evaluate import main

    out = tmp_path / "solo.json"
    data = main(["--env", PIG, "--agents", "random", "--games", "30", "--seed", "0", "--workers", "1",
                 "--out", str(out)])
    text = capsys.readouterr().out
    assert "success rate [95% Wilson CI], mean final score" in text
    solo = json.loads(out.read_text())["solo"][0]
    assert solo == data["solo"][0] and solo["games"] == 30
    sr = run_solo(PIG, "random", 30, seed=0, workers=1).summary()
    assert solo["successes"] == sr["successes"] and f"{sr['success_rate']:5.1%}" in text


def test_evaluate_cli_says_how_many_games_max_decisions_stopped(tmp_path, capsys):
    """A game stopped at max_decisions has no winner: the table counts it a draw (alone, a failure), and a
    note under it says how many were stopped, so an all-draw table is not read as equal play."""
    from training.evaluate import main

    data = main(["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--games", "4", "--workers", "1",
                 "--set", "max_decisions=1", "--out", str(tmp_path / "cut.json")])
    text = capsys.readouterr().out
    assert ("note: games stopped at max_decisions=1 (counted as draws; raise max_decisions with --set to play "
            "them out): random vs heuristic: 4 of 4 games") in text
    pair = data["pairs"][0]
    assert pair["truncated"] == 4 and pair["draws"] == 4 and pair["wins"] == pair["losses"] == 0
    main(["--env", "monolith_strategy_v0", "--set", "num_players=1", "--agents", "random", "--games", "3",
          "--workers", "1", "--set", "max_decisions=3", "--out", str(tmp_path / "solo.json")])
    assert "(counted as failures; raise max_decisions" in capsys.readouterr().out
    full = main(["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--games", "2", "--workers", "1",
                 "--out", str(tmp_path / "full.json")])
    assert full["pairs"][0]["truncated"] == 0 and "note: games stopped" not in capsys.readouterr().out


def test_wilson_interval_ends_are_exact_at_no_and_all_wins():
    # without the exact ends, rounding gives e.g. 5.6e-17 at 0 of 3 wins and 0.9999999999999999 at 10 of 10
    for n in range(1, 201):
        assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0
    lo, hi = wilson_interval(0, 20)
    assert hi == pytest.approx(0.1611, abs=1e-4)  # 20 losses: 0.0%-16.1%
    assert wilson_interval(10, 20) == pytest.approx((0.2993, 0.7007), abs=1e-4)


def test_cross_play_table_gives_rates_and_intervals_in_percent():
    """The table's interval reads like its win rate (30.0% [14.5%-51.9%]), not as a fraction beside it."""
    from training.evaluate import PairResult, format_table, wilson_interval

    p = PairResult("baseline", "heuristic", games=20, outcomes=[1] * 6 + [0] * 2 + [-1] * 12)
    text = format_table(["baseline", "heuristic"], [p], {"baseline": {"mu": 25.0, "sigma": 5.0, "ordinal": 10.0},
                                                          "heuristic": {"mu": 25.0, "sigma": 5.0, "ordinal": 10.0}})
    lo, hi = wilson_interval(6, 20)
    lo2, hi2 = wilson_interval(12, 20)
    assert f"30.0% [{lo:.1%}-{hi:.1%}]" in text and f"60.0% [{lo2:.1%}-{hi2:.1%}]" in text


def test_cross_play_table_tells_long_specs_apart():
    """Specs longer than a column (two checkpoints under long paths) get a label ``#k``: each row shows the
    full spec after its label, each column heading the label and the spec's end, all different."""
    from training.evaluate import PairResult, format_table

    one, two = "az:/tmp/webtrial/az_run1/final.pt", "az:/tmp/webtrial/az_run2/final.pt"
    specs = [one, two, "random"]
    pairs = [PairResult(one, two, games=4, outcomes=[1, 1, 1, -1]), PairResult(one, "random", games=4,
             outcomes=[1] * 4), PairResult(two, "random", games=4, outcomes=[1, -1, -1, -1])]
    text = format_table(specs, pairs, {s: {"mu": 25.0, "sigma": 5.0, "ordinal": 10.0} for s in specs})
    lines = text.splitlines()
    assert lines[1].startswith("(column #k is the agent of row #k")
    headings = [c.strip() for c in lines[2].split("|")[1:]]
    assert headings == ["#1 ...az_run1/final.pt", "#2 ...az_run2/final.pt", "#3 random"]
    assert all(len(h) <= 22 for h in headings)
    rows = {line.split("|")[0].strip(): [c.strip() for c in line.split("|")[1:]] for line in lines[3:6]}
    assert list(rows) == [f"#1 {one}", f"#2 {two}", "#3 random"]
    assert rows[f"#1 {one}"][1].startswith("75.0%") and rows[f"#2 {two}"][0].startswith("25.0%")
    assert rows["#3 random"][1].startswith("75.0%")  # random against #2: #2's losses
    assert f"  {one}" in text and f"  {two}" in text  # the ratings: full specs
    short = format_table(["random", "heuristic"], [], {}).splitlines()
    assert short[1].split("|")[1].strip() == "random" and "#" not in "\n".join(short)  # short specs: as they are
