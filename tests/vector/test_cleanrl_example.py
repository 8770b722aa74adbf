"""examples/cleanrl_ppo_vec.py runs end to end on a tiny budget and updates its policy: every update moves it
(KL above 0) and its entropy falls over 4,096 training decisions (the win rate at that budget is noise: on
seeds 1-7 it went up on some and down on others, from 13-22 wins of 40 untrained; the example's strength is
measured by its README command, not here); the warm start (states scored with the
heuristic's state value, the policy fitted to their soft targets) puts the best-valued action first far more
often than an untrained network; the evaluation seeds never meet the training seeds; bad arguments give one
error line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "cleanrl_ppo_vec.py"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600,
                          env=env, cwd=cwd)


def test_tiny_budget_runs_and_updates_the_policy(tmp_path):
    out = tmp_path / "ppo.json"
    proc = _run(["--total-decisions", "4096", "--num-envs", "16", "--num-steps", "32", "--hidden", "64",
                 "--update-epochs", "2", "--num-minibatches", "2", "--lr", "3e-3", "--reward-mode", "win_loss",
                 "--eval-games", "40", "--workers", "2", "--warm-states", "0", "--shaping-coef", "0", "--row-dim", "0", "--json", str(out)],
                tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(out.read_text())
    before, after = summary["curve"][0], summary["curve"][-1]
    assert (before["decisions"], after["decisions"]) == (0, 4096)
    assert before["games"] == after["games"] == 40  # 40 slots, one game each
    updates = summary["updates"]
    assert len(updates) == 8 and updates[-1]["games"] > 0
    assert updates[-1]["entropy"] < updates[0]["entropy"]
    assert all(u["approx_kl"] > 0 for u in updates)
    assert proc.stdout.count("update 0:") == 1  # the workers did not run the script again


def _example_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("cleanrl_ppo_vec", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("args,needle", [
    (["--env", "nope_v0"], "unknown env id 'nope_v0'"),
    (["--num-envs", "0"], "--num-envs"),
    (["--set", "num_players=9"], "num_players"),
    (["--set", "oops"], "KEY=VALUE"),
    (["--workers", "9", "--num-envs", "4"], "--workers 9 is more than --num-envs 4"),
    (["--warm-states", "100001"], "--warm-states"),
    (["--warm-tau", "0"], "--warm-tau"),
])
def test_bad_arguments_exit_2_with_one_error_line(args, needle, capsys):
    with pytest.raises(SystemExit) as info:
        _example_module().parse_args(args)
    err = capsys.readouterr().err
    assert info.value.code == 2 and needle in err and "Traceback" not in err, err


def test_advantages_chain_each_seat_to_its_own_next_decision():
    adv = _example_module().advantages
    # one game slot, two seats alternating; the game ends on step 2 (seat 0 wins +1, seat 1 gets -1)
    rewards = np.zeros((4, 1, 2), np.float32)
    rewards[2, 0] = [1.0, -1.0]
    ended = np.array([[False], [False], [True], [False]])
    seats = np.array([[0], [1], [0], [1]])
    values = np.array([[0.5], [0.2], [0.25], [0.0]], np.float32)
    last = np.array([[0.0, 0.4]], np.float32)  # bootstrap: seat 1 continues the next game after step 3
    a = adv(rewards, ended, seats, values, last, gamma=1.0, lam=1.0)
    assert a[3, 0] == np.float32(0.4 - 0.0)          # next game, seat 1, bootstrapped
    assert a[2, 0] == np.float32(1.0 - 0.25)          # seat 0's last move: its +1
    assert a[1, 0] == np.float32(-1.0 - 0.2)          # seat 1's last move of the ended game: its -1
    assert a[0, 0] == np.float32(1.0 - 0.5)           # seat 0's earlier move chains to step 2


def test_warm_start_runs_before_ppo_and_is_reported(tmp_path):
    out = tmp_path / "ppo.json"
    proc = _run(["--total-decisions", "512", "--num-envs", "8", "--num-steps", "64", "--hidden", "32",
                 "--warm-states", "300", "--warm-epochs", "2", "--eval-games", "8", "--json", str(out)], tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(out.read_text())
    assert [c["phase"] for c in summary["curve"]] == ["untrained", "warm start", "ppo"]
    assert [c["decisions"] for c in summary["curve"]] == [0, 0, 512]
    warm = summary["warm_start"]
    assert warm["states"] == 300 and 0.0 <= warm["holdout_best"] <= 1.0 and warm["collect_seconds"] > 0
    for c in summary["curve"]:
        assert c["games"] == 8 and 0.0 <= c["wilson_low"] <= c["win_rate"] <= c["wilson_high"] <= 1.0
    assert "warm start: 300 states scored" in proc.stdout and "95% Wilson" in proc.stdout


def test_warm_states_are_scored_legal_actions_and_reproducible():
    import monolith_envs
    from monolith_envs.agents.heuristics import value_fn_for

    mod = _example_module()
    game = monolith_envs.make_game("monolith_arena_v0")
    obs, masks, values = mod.collect_warm_states(game, value_fn_for("monolith_arena_v0"), 60,
                                                 np.random.default_rng(3))
    assert obs.shape == (60, game.obs_spec.size) and obs.dtype == np.float16
    assert masks.shape == values.shape == (60, game.layout.n) and masks.dtype == bool
    assert (masks.sum(1) >= 2).all()                       # only real choices are kept
    assert (values[~masks] == 0).all()                     # illegal actions carry no score
    assert (np.abs(values[masks]) <= 1).all()              # tanh-scaled values, or the returns of an end
    assert (values.max(1) > values.min(1)).any()           # the scores rank the actions
    again = mod.collect_warm_states(game, value_fn_for("monolith_arena_v0"), 60, np.random.default_rng(3))
    assert all(np.array_equal(a, b) for a, b in zip((obs, masks, values), again))


def test_distillation_puts_the_best_valued_action_first():
    import torch

    mod = _example_module()
    rng = np.random.default_rng(0)
    n_states, m, n = 400, 12, 6
    obs = rng.normal(size=(n_states, m)).astype(np.float16)
    masks = rng.random((n_states, n)) < 0.7
    masks[:, 0] = True
    masks[np.arange(n_states), 1 + rng.integers(n - 1, size=n_states)] = True
    w = rng.normal(size=(m, n))
    values = np.where(masks, np.tanh(obs.astype(np.float64) @ w / 3), 0).astype(np.float32)
    torch.manual_seed(0)
    agent = mod.Agent(m, n, 64)
    before = mod.distill(agent, obs, masks, values, tau=0.05, epochs=0, lr=1e-2, rng=np.random.default_rng(1))
    after = mod.distill(agent, obs, masks, values, tau=0.05, epochs=60, lr=1e-2, rng=np.random.default_rng(1))
    assert before["holdout_best"] < 0.5 and after["holdout_best"] > 0.8, (before, after)
    assert after["states"] == n_states and np.isfinite(after["loss"])


@pytest.mark.parametrize("wins,games,low,high", [(0, 0, 0.0, 1.0), (80, 100, 0.7111, 0.8666),
                                                  (205, 256, 0.7476, 0.8451), (10, 10, 0.7225, 1.0)])
def test_wilson_interval(wins, games, low, high):
    lo, hi = _example_module().wilson(wins, games)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_at_no_wins_starts_at_a_plain_zero():
    lo, hi = _example_module().wilson(0, 20)
    assert f"{100 * lo:.1f}" == "0.0" and hi == pytest.approx(0.1611, abs=1e-4)  # it printed "-0.0-16.1%"


def test_evaluation_seeds_never_meet_training_seeds():
    mod = _example_module()
    base = ["--num-envs", "32", "--eval-games", "200"]
    assert mod.eval_seed(mod.parse_args(base)) == 10**6                        # the default run's fixed games
    args = mod.parse_args(base + ["--seed", "999000", "--total-decisions", "409600"])
    assert mod.eval_seed(args) == 999000 + 32 + 409600                          # moved past the training seeds
    assert mod.eval_seed(mod.parse_args(base + ["--seed", str(10**6 + 256)])) == 10**6  # training above them


def test_shaping_adds_gamma_phi_next_minus_phi_along_each_seats_chain():
    adv = _example_module().advantages
    rewards = np.zeros((4, 1, 2), np.float32)
    rewards[2, 0] = [1.0, -1.0]                        # the game ends on step 2: seat 0 wins
    ended = np.array([[False], [False], [True], [False]])
    seats = np.array([[0], [1], [0], [1]])
    values = np.zeros((4, 1), np.float32)
    last = np.zeros((1, 2), np.float32)
    phi = np.array([[0.3], [0.2], [0.5], [0.1]], np.float32)
    last_phi = np.array([[0.0, 0.7]], np.float32)      # seat 1's potential after the rollout (next game)
    a = adv(rewards, ended, seats, values, last, gamma=0.5, lam=1.0, potentials=phi, last_potentials=last_phi)
    assert a[3, 0] == pytest.approx(0.5 * 0.7 - 0.1)            # cut chain: gamma * phi(after) - phi
    assert a[2, 0] == pytest.approx(1.0 + 0.0 - 0.5)            # phi = 0 once the game is over
    assert a[1, 0] == pytest.approx(-1.0 + 0.0 - 0.2)
    assert a[0, 0] == pytest.approx((0.5 * 0.5 - 0.3) + 0.5 * a[2, 0])  # its own next decision is step 2
    plain = adv(rewards, ended, seats, values, last, gamma=0.5, lam=1.0)
    assert plain[:, 0].tolist() == pytest.approx([0.5, -1.0, 1.0, 0.0])


def test_shaping_needs_the_in_process_games(capsys):
    with pytest.raises(SystemExit) as info:
        _example_module().parse_args(["--shaping-coef", "5", "--workers", "2"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--shaping-coef" in err and "--workers 0" in err, err


def test_table_pieces_are_encoded_row_by_row_with_shared_weights():
    import torch

    import monolith_envs

    mod = _example_module()
    game = monolith_envs.make_game("monolith_arena_v0")
    pieces = mod.table_pieces(game.obs_spec)
    assert pieces[:2] == [(0, 19, 143), (2717, 12, 68)]  # the 19 hexes, the 4 x 3 hand slots
    assert all(rows >= 2 and width >= 8 for _, rows, width in pieces)
    m, n = game.obs_spec.size, game.layout.n
    torch.manual_seed(0)
    tables = mod.Agent(m, n, 64, pieces, row_dim=8)
    flat = mod.Agent(m, n, 64)
    count = lambda a: sum(p.numel() for p in a.parameters())  # noqa: E731
    assert count(tables) < count(flat) / 3
    obs = torch.from_numpy(np.stack([game.observe(game.initial_state(np.random.default_rng(s)), 0)
                                     for s in range(3)]))
    assert tables.trunk(obs).shape == (3, 64)
    # one row encoder per table: hex row 5 alone changes only its own 8 encoded values
    enc = tables.rows[0]
    rows = obs[:1, :19 * 143].reshape(1, 19, 143).clone()
    before = enc(rows)
    rows[0, 5] += 1.0
    after = enc(rows)
    changed = (after != before).any(-1)[0]
    assert changed.tolist() == [i == 5 for i in range(19)]


def test_load_of_a_file_that_is_not_these_weights_is_one_error_line(tmp_path):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a torch file")
    proc = _run(["--load", str(bad), "--total-decisions", "0", "--eval-games", "0"], tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("error: --load ") and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_load_of_a_fifo_or_a_pickle_is_refused_without_waiting_or_running_it(tmp_path):
    """--load reads a regular file only (a FIFO would block the read for ever), and a pickle naming a callable
    is refused as not weights, without PyTorch's advice to load it unsafely."""
    import torch

    fifo = tmp_path / "fifo.pt"
    os.mkfifo(fifo)
    proc = _run(["--load", str(fifo), "--total-decisions", "0", "--eval-games", "0"], tmp_path)
    assert proc.returncode == 2 and proc.stderr.strip() == f"error: --load: {fifo}: not a regular file"
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    evil = tmp_path / "evil.pt"
    torch.save({"w": Payload()}, evil)
    proc = _run(["--load", str(evil), "--total-decisions", "0", "--eval-games", "0"], tmp_path)
    assert proc.returncode == 2 and not marker.exists()
    assert proc.stderr.startswith(f"error: --load {evil}: not a saved network of this example (")
    assert "weights_only" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
