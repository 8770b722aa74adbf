"""Single-agent wrapper, self-play pool, configs, evaluation and smoke training runs."""

from __future__ import annotations

import json

import numpy as np
import pytest

import monolith_envs
from agents import RandomAgent
from agents.base import BaseAgent
from tests.toy_game import ENV_ID as TOY
from tests.toy_game import LINES
from training.config import CONFIG_DIR, TrainConfigError, apply_overrides, load_config, validate
from training.evaluate import run_tournament, wilson_interval
from training.wrapper import SingleAgentEnv


class Scripted(BaseAgent):
    """Opponent that plays a fixed preference order of cells (first legal one)."""

    def __init__(self, order):
        super().__init__()
        self.order = list(order)

    def act(self, observation, action_mask, rng):
        return next(a for a in self.order if action_mask[a])


def toy_position(env: SingleAgentEnv, marks0, marks1, player):
    s = env.game.clone(env.aec.game_state)
    s.board[:] = -1
    s.board[list(marks0)] = 0
    s.board[list(marks1)] = 1
    s.player = player
    s.decisions = len(marks0) + len(marks1)
    return env.set_state(s)


@pytest.mark.parametrize("seat", [0, 1])
def test_learner_winning_move_gives_plus_one(seat):
    env = SingleAgentEnv(TOY, [Scripted(range(9))], {"extra_turn_face": 7}, seat=seat, seed=0)
    env.reset()
    mine, theirs = [0, 1], [3, 4]
    m0, m1 = (mine, theirs) if seat == 0 else (theirs, mine)
    _, r, done = toy_position(env, m0, m1, player=seat)
    assert (r, done) == (0.0, False)
    assert env.action_masks()[2] and not env.action_masks()[0]
    _, reward, term, trunc, info = env.step(2)
    assert (reward, term, trunc) == (1.0, True, False)
    assert info["win"] == 1 and info["returns"][seat] == 1.0
    assert not env.action_masks().any()


@pytest.mark.parametrize("seat", [0, 1])
def test_loss_by_opponents_last_move_gives_minus_one(seat):
    # the opponent (other seat) completes 3-4-5 right after the learner's non-blocking move
    opp = 1 - seat
    env = SingleAgentEnv(TOY, [Scripted([5, 0, 1, 2, 6, 7, 8])], {"extra_turn_face": 7}, seat=seat, seed=0)
    env.reset()
    mine, theirs = [0, 8], [3, 4]
    m0, m1 = (mine, theirs) if seat == 0 else (theirs, mine)
    toy_position(env, m0, m1, player=seat)
    _, reward, term, _, info = env.step(1)  # does not block 5
    assert (reward, term) == (-1.0, True)
    assert info["win"] == -1 and info["returns"][opp] == 1.0


def test_episode_rewards_sum_to_final_return_and_seats_rotate():
    env = SingleAgentEnv(TOY, [RandomAgent()], seed=3)
    seats = []
    for ep in range(40):
        obs, info = env.reset()
        seats.append(info["seat"])
        total, done = 0.0, False
        rng = np.random.default_rng(ep)
        while not done:
            legal = np.flatnonzero(env.action_masks())
            assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
            obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
            total += r
            done = term or trunc
        assert total == pytest.approx(float(info["returns"][info["seat"]]))
    assert seats == [i % 2 for i in range(40)]


class MaskSpy(BaseAgent):
    """Opponent that checks it is only ever asked to act for its own seat, with that seat's mask."""

    needs_env = True

    def __init__(self):
        super().__init__()
        self.calls = 0

    def act(self, observation, action_mask, rng):
        ctx = self._require_ctx()
        seat = ctx.seat
        assert seat != self.wrapper.learner
        legal = ctx.game.legal_mask(ctx.state)
        assert ctx.game.current_player(ctx.state) == seat
        np.testing.assert_array_equal(np.asarray(action_mask, bool), legal)
        np.testing.assert_array_equal(observation, ctx.game.observe(ctx.state, seat))
        self.calls += 1
        return int(np.flatnonzero(action_mask)[rng.integers(int(np.sum(action_mask)))])


def test_opponents_act_only_with_their_own_mask():
    spy = MaskSpy()
    env = SingleAgentEnv(TOY, [spy], seed=1)
    spy.wrapper = env
    for _ep in range(30):
        _, info = env.reset()
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            assert env.aec.agent_selection == f"player_{info['seat']}"
            _, _, term, trunc, _ = env.step(int(legal[0]))
            done = term or trunc
    assert spy.calls > 60


def test_learner_illegal_action_raises():
    env = SingleAgentEnv(TOY, [RandomAgent()], seed=0, seat=0)
    env.reset()
    taken = int(np.flatnonzero(~env.action_masks())[0]) if (~env.action_masks()).any() else None
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    if taken is None:
        taken = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(monolith_envs.IllegalActionError):
        env.step(taken)


def test_opponent_pool_mix_and_snapshots():
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from training.selfplay import OpponentPool, SnapshotAgent, policy_weights

    base = SingleAgentEnv(TOY, [RandomAgent()])

    def make_policy():
        return MaskableActorCriticPolicy(base.observation_space, base.action_space, lambda _: 0.0, net_arch=[8])

    pool = OpponentPool(TOY, {"self": 1.0, "random": 1.0}, pool_size=2, make_policy=make_policy)
    rng = np.random.default_rng(0)
    assert all(isinstance(a, RandomAgent) for _ in range(20) for a in pool(rng, 1))  # no snapshot yet
    for _i in range(3):
        pool.add_snapshot(policy_weights(make_policy()))
    assert len(pool.snapshots) == 2
    kinds = [type(pool(rng, 1)[0]) for _ in range(400)]
    share = kinds.count(SnapshotAgent) / 400
    assert 0.4 < share < 0.6
    env = SingleAgentEnv(TOY, pool, seed=0)
    for _ in range(10):
        env.reset()
        done = False
        while not done:
            _, _, t, tr, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = t or tr
    with pytest.raises(ValueError, match="make_policy"):
        OpponentPool(TOY, {"self": 1.0})


# ---------------------------------------------------------------------------------------------- configs
def test_unknown_config_key_is_named_with_valid_keys(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('env_id = "toy"\nlearning_rat = 0.1\n')
    with pytest.raises(TrainConfigError) as e:
        load_config(p)
    assert "'learning_rat'" in str(e.value) and "learning_rate" in str(e.value) and "valid keys" in str(e.value)
    with pytest.raises(TrainConfigError, match="unknown config key 'n_stepz'"):
        apply_overrides(validate({}), ["n_stepz=3"])
    with pytest.raises(TrainConfigError, match="'n_steps': expected int, got str"):
        apply_overrides(validate({}), ["n_steps=many"])
    with pytest.raises(TrainConfigError, match="not key=value"):
        apply_overrides(validate({}), ["n_steps"])


def test_a_game_config_key_given_as_a_top_level_override_says_where_it_goes():
    with pytest.raises(TrainConfigError, match=r"unknown config key 'num_players' in override 'num_players=4' "
                       r"\(num_players is a config key of the game monolith_arena_v0: --set "
                       r"env_config.num_players=4\); valid keys: "):
        apply_overrides(load_config(), ["num_players=4"])
    with pytest.raises(TrainConfigError) as e:  # not a game key either: no hint
        apply_overrides(load_config(), ["num_playerz=4"])
    assert "env_config." not in str(e.value)


def test_overrides_and_shipped_configs():
    cfg = apply_overrides(load_config(), ["env_config.reward_mode=win_loss", "learning_rate=1e-3", "n_envs=1",
                                              "batch_size=256"])  # at most one rollout: 256 x 1
    assert cfg["env_config"]["reward_mode"] == "win_loss" and cfg["env_config"]["num_players"] == 2
    assert cfg["learning_rate"] == 1e-3 and cfg["n_envs"] == 1 and cfg["name"] == "monolith_arena_2p"
    with pytest.raises(TrainConfigError, match=r"'batch_size': PPO's minibatch \(and the warm start's\), at most one rollout, n_steps x n_envs = 256 x 1 = 256 "
                                               r"steps .*got 512: set batch_size=256 or less, or more n_steps / n_envs"):
        apply_overrides(load_config(), ["n_envs=1"])
    shipped = sorted(CONFIG_DIR.glob("*.toml"))
    assert {p.name for p in shipped} >= {"monolith_arena_2p.toml", "monolith_arena_3p.toml",
                                          "monolith_arena_4p.toml"}
    from training.az.config import load_az_config

    for p in shipped:
        if p.name.startswith("az_"):  # the search-based recipe's configs (python -m training.az)
            assert load_az_config(p)["env_id"] in monolith_envs.available_envs()
            with pytest.raises(TrainConfigError, match="python -m training.az --config"):
                load_config(p)
            continue
        c = load_config(p)
        env = monolith_envs.make(c["env_id"], **c["env_config"])  # the game accepts env_config
        assert env.unwrapped.game.num_players == c["env_config"].get("num_players", 2)


def test_bad_game_config_key_is_reported(tmp_path, capsys):
    from training.train import main

    with pytest.raises(SystemExit) as ei:  # one error line before any work, no traceback
        main(["--set", f"env_id={TOY}", "--set", "env_config={colour = 1}", "--set", f"out_dir={tmp_path}"])
    assert ei.value.code == 2 and "config key 'env_config'" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------- evaluation
def test_wilson_interval_known_values():
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and round(hi, 4) == 0.1611
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_tournament_parallel_equals_serial_and_writes_json(tmp_path):
    from training.evaluate import main

    serial = run_tournament(TOY, ["random", "mcts:20"], 12, seed=5, workers=1)
    out = tmp_path / "ev.json"
    data = main(["--env", TOY, "--agents", "random,mcts:20", "--games", "12", "--seed", "5", "--workers", "2",
                 "--preload", "tests.conftest", "--out", str(out)])
    assert json.loads(out.read_text()) == json.loads(json.dumps(data))
    pair = data["pairs"][0]
    assert pair["games"] == 12 and pair["wins"] + pair["draws"] + pair["losses"] == 12
    assert [pair["wins"], pair["draws"], pair["losses"]] == [serial["pairs"][0].wins, serial["pairs"][0].draws,
                                                             serial["pairs"][0].losses]
    assert serial["pairs"][0].seats == [k % 2 for k in range(12)]
    assert data["ratings"]["mcts:20"]["mu"] > data["ratings"]["random"]["mu"]


# ---------------------------------------------------------------------------------------------- smoke runs
def _smoke_args(env_id: str, out_dir, name: str, games: int) -> list[str]:
    """``training.train`` arguments of a 256-step run with a warm start, snapshots, checkpoints and
    ``games`` games per evaluation against random, written to ``out_dir / name``."""
    return [
        "--set", f"env_id={env_id}", "--set", "env_config={}", "--set", "total_timesteps=256",
        "--set", "n_steps=128", "--set", "batch_size=64", "--set", "n_epochs=1", "--set", "n_envs=2",
        "--set", "vec_env=dummy", "--set", "net_arch=[32]", "--set", "eval_every=128", "--set", f"eval_games={games}",
        "--set", f"final_eval_games={games}", "--set", "eval_workers=1", "--set", "snapshot_every=128",
        "--set", "opponent_mix={self = 1.0, random = 1.0}", "--set", "eval_opponents=['random']",
        "--set", f"out_dir={out_dir}", "--set", f"name={name}", "--set", "progress_bar=false",
        "--set", "checkpoint_every=128", "--set", "pretrain_samples=64", "--set", "pretrain_targets=values",
        "--set", "pretrain_epochs=1",
    ]


@pytest.mark.parametrize("env_id", sorted(set(monolith_envs.available_envs()) | {TOY}))
def test_smoke_training_run(env_id, tmp_path):
    from training.train import main

    report = main(_smoke_args(env_id, tmp_path, "smoke", games=2))
    run = tmp_path / "smoke"
    assert report["learner_steps"] == 256
    assert (run / "final_model.zip").exists() and (run / "learning_curve.png").exists()
    assert any((run / "checkpoints").glob("model_*_steps.zip"))
    assert any((run / "tb").rglob("events.out.tfevents.*"))
    rep = json.loads((run / "report.json").read_text())
    label = "alone" if monolith_envs.make_game(env_id).num_players == 1 else "random"  # one seat: no opponent
    assert rep["final_eval"][label]["games"] == 2 and len(rep["learning_curve"]) >= 2
    assert rep["throughput"]["env_steps_per_s"] > 0
    assert rep["pretrain"]["targets"] == "values" and rep["pretrain"]["samples"] == 64


# ---------------------------------------------------------------------------------------------- warm start
def test_demonstrations_and_behaviour_cloning_fit_a_teacher():
    from sb3_contrib import MaskablePPO

    from training.pretrain import behaviour_cloning, collect_demonstrations

    data = collect_demonstrations(TOY, {}, 300, teacher="heuristic", opponents=["random"], seed=0, tasks=2)
    n = len(data["actions"])
    assert n >= 300 and data["obs"].shape == (n, 23) and data["masks"].shape == (n, 2)
    masks = np.unpackbits(data["masks"], axis=1, count=9).astype(bool)
    assert masks[np.arange(n), data["actions"]].all()  # every teacher action was legal
    assert np.all(np.abs(data["returns"]) <= 1.0 + 1e-6)
    # a deterministic teacher (lowest legal cell) is learnt almost perfectly
    data["actions"] = np.array([np.flatnonzero(m)[0] for m in masks])
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(TOY, [RandomAgent()]), policy_kwargs={"net_arch": [64]},
                        seed=0, device="cpu")
    info = behaviour_cloning(model.policy, data, 9, epochs=30, batch_size=64, lr=3e-3)
    assert info["accuracy"] > 0.9, info["accuracy"]
    assert info["loss"][-1] < info["loss"][0]


# ---------------------------------------------------------------------------------------------- shaping
def _marks_potential(game, s):
    """Toy potential: (own marks - other marks) / 9 per seat."""
    b = np.asarray(s.board)
    d = (np.sum(b == 0) - np.sum(b == 1)) / 9.0
    return np.array([d, -d], np.float32)


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_potential_shaping_adds_gamma_phi_next_minus_phi(gamma):
    env = SingleAgentEnv(TOY, [RandomAgent()], seed=5, shaping=_marks_potential, shaping_coef=2.0,
                         shaping_gamma=gamma)
    for ep in range(30):
        env.reset()
        me = env.learner
        phi = 2.0 * _marks_potential(env.game, env.aec.game_state)[me]
        phi0, shaped_total, game_total, done = phi, 0.0, 0.0, False
        rng = np.random.default_rng(ep)
        while not done:
            _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = term or trunc
            nxt = 0.0 if done else 2.0 * _marks_potential(env.game, env.aec.game_state)[me]
            assert r - info["game_reward"] == pytest.approx(gamma * nxt - phi)
            phi = nxt
            shaped_total += r
            game_total += info["game_reward"]
        assert game_total == pytest.approx(float(info["returns"][me]))
        if gamma == 1.0:  # the shaping terms telescope: only -phi(first decision state) is left
            assert shaped_total == pytest.approx(game_total - phi0)


def test_unknown_shaping_and_features_values_are_rejected():
    with pytest.raises(TrainConfigError, match="'shaping'"):
        validate({"shaping": "magic"})
    with pytest.raises(TrainConfigError, match="'features'"):
        validate({"features": "conv"})


# ---------------------------------------------------------------------------------------------- features
def test_piece_layout_of_arena_follows_the_obs_spec():
    from training.features import piece_layout

    spec = monolith_envs.make_game("monolith_arena_v0").obs_spec
    layout = piece_layout(spec)
    hexes = spec["hex"]
    assert layout[0] == (0, 19, hexes.shape[1])
    assert (spec["hands"].offset, 12, spec["hands"].shape[-1]) in layout
    assert all(spec.size >= off + r * w for off, r, w in layout)
    assert not any(p.offset == off for p in spec.pieces if len(p.shape) == 1 for off, _, _ in layout)


def test_piece_encoder_shares_row_weights_and_keeps_positions():
    import torch
    from gymnasium.spaces import Box

    from training.features import PieceEncoder, piece_layout

    spec = monolith_envs.make_game(TOY).obs_spec
    layout = piece_layout(spec, min_width=2)
    assert layout == [(spec["board"].offset, 9, 2)]
    enc = PieceEncoder(Box(0, 1, (spec.size,), np.float32), layout, row_dim=4, features_dim=16)
    assert enc.rest.tolist() == list(range(spec["board"].stop, spec.size))
    torch.manual_seed(0)
    x = torch.zeros(2, spec.size)
    x[0, spec["board"].offset + 0] = 1.0  # my mark on cell 0
    x[1, spec["board"].offset + 2 * 4] = 1.0  # my mark on cell 4
    rows = x[:, :18].reshape(2, 9, 2)
    coded = enc.encoders[0](rows)
    assert torch.equal(coded[0, 0], coded[1, 4])  # the same row content gets the same code anywhere
    out = enc(x)
    assert out.shape == (2, 16) and out.dtype == torch.float32
    assert not torch.equal(out[0], out[1])  # ... but the position of the row still matters
    with pytest.raises(ValueError, match="does not fit"):
        PieceEncoder(Box(0, 1, (spec.size,), np.float32), [(10, 9, 2)])


def test_pieces_features_with_shaping_train_save_and_play(tmp_path):
    from agents import make_agent
    from training.train import main

    report = main([
        "--set", "total_timesteps=128", "--set", "n_steps=64", "--set", "batch_size=64", "--set", "n_epochs=1",
        "--set", "n_envs=2", "--set", "vec_env=dummy", "--set", "features=pieces", "--set", "row_dim=8",
        "--set", "features_dim=32", "--set", "net_arch=[16]", "--set", "shaping=heuristic",
        "--set", "eval_every=0", "--set", "final_eval_games=2", "--set", "eval_workers=1",
        "--set", "opponent_mix={random = 1.0}", "--set", "eval_opponents=['random']",
        "--set", f"out_dir={tmp_path}", "--set", "name=pieces", "--set", "progress_bar=false",
        "--set", "checkpoint_every=0", "--set", "pretrain_samples=0",
    ])
    assert report["learner_steps"] == 128
    agent = make_agent(f"ppo:{tmp_path / 'pieces' / 'final_model.zip'}", "monolith_arena_v0")
    assert type(agent.model.policy.features_extractor).__name__ == "PieceEncoder"
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=0)
    obs, *_ = env.last()
    a = agent.act(obs["observation"], obs["action_mask"], np.random.default_rng(0))
    assert obs["action_mask"][a] == 1


# ---------------------------------------------------------------------------------------------- aligned policy
def test_alignment_of_arena_actions_to_hex_rows():
    from training.aligned import alignment

    game = monolith_envs.make_game("monolith_arena_v0")
    al = alignment(game.layout, game.obs_spec)
    assert al["anchor"] == (game.obs_spec["hex"].offset, 19, game.obs_spec["hex"].shape[1])
    by_name = {f.name: a for f, (_, _, a) in zip(game.layout.families, al["families"])}
    assert by_name == {"PICK_TYPE": -1, "DISCARD": -1, "PLACE": 1, "PLAY_ORDER": -1, "USE_FEATURE": 1,
                       "UNFOLD": -1, "END_TURN": -1, "SELECT_HEX": 0, "SELECT_ROT": -1, "SELECT_TRIANGLE": -1,
                       "SELECT_MODE": -1}
    assert sum(size for size, _, _ in al["families"]) == game.layout.n


def test_alignment_needs_a_piece_named_like_an_action_axis():
    from training.aligned import alignment

    game = monolith_envs.make_game(TOY)  # obs piece "board", action axis "cell"
    with pytest.raises(ValueError, match="no observation piece is named like an action axis"):
        alignment(game.layout, game.obs_spec)
    with pytest.raises(TrainConfigError, match="does not fit toy_tictactoe_v0"):
        from training.train import policy_kwargs

        policy_kwargs(validate({"env_id": TOY, "features": "aligned"}))


def test_aligned_head_puts_each_place_logit_at_its_flat_index():
    import torch

    from training.aligned import AlignedHead

    rows, d, gdim = 3, 4, 5
    # families: A[2] (pooled), B[2][rows] (aligned on axis 1), C[rows] (aligned on axis 0)
    head = AlignedHead(rows, d, gdim, [(2, (2,), -1), (2 * rows, (2, rows), 1), (rows, (rows,), 0)], hidden=8)
    torch.manual_seed(0)
    latent = torch.randn(1, rows * d + d + gdim)
    base = head(latent)
    assert base.shape == (1, 2 + 2 * rows + rows)
    for r in range(rows):
        moved = latent.clone()
        moved[0, r * d:(r + 1) * d] += 1.0  # change place r's code only
        diff = (head(moved) - base)[0].abs() > 1e-7
        b_changed = [k * rows + q for k in range(2) for q in range(rows) if diff[2 + k * rows + q]]
        c_changed = [q for q in range(rows) if diff[2 + 2 * rows + q]]
        # place logits move only at place r; the pooled family moves through the mean of the codes
        assert b_changed == [r, rows + r] and c_changed == [r]


def test_aligned_policy_trains_saves_and_reloads(tmp_path):
    import torch

    from agents import make_agent
    from training.train import main

    main([
        "--set", "total_timesteps=128", "--set", "n_steps=64", "--set", "batch_size=64", "--set", "n_epochs=1",
        "--set", "n_envs=2", "--set", "vec_env=dummy", "--set", "features=aligned", "--set", "token_dim=16",
        "--set", "features_dim=32", "--set", "row_dim=8", "--set", "head_hidden=16", "--set", "net_arch=[16]",
        "--set", "attention_layers=1", "--set", "eval_every=0", "--set", "final_eval_games=2",
        "--set", "eval_workers=1", "--set", "opponent_mix={random = 1.0, self = 1.0}", "--set", "snapshot_every=64",
        "--set", "eval_opponents=['random']", "--set", f"out_dir={tmp_path}", "--set", "name=al",
        "--set", "progress_bar=false", "--set", "checkpoint_every=0", "--set", "pretrain_samples=0",
    ])
    agent = make_agent(f"ppo:{tmp_path / 'al' / 'final_model.zip'}", "monolith_arena_v0")
    assert type(agent.model.policy).__name__ == "AlignedMaskablePolicy"
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=1)
    obs, *_ = env.last()
    probs = agent.action_probabilities(obs["observation"], obs["action_mask"])
    assert probs.shape == (env.game.layout.n,) and probs.sum() == pytest.approx(1.0)
    assert np.all(probs[obs["action_mask"] == 0] == 0.0)
    with torch.no_grad():
        again = make_agent(f"ppo:{tmp_path / 'al' / 'final_model.zip'}", "monolith_arena_v0")
        np.testing.assert_allclose(again.action_probabilities(obs["observation"], obs["action_mask"]), probs,
                                   rtol=1e-6)


# ---------------------------------------------------------------------------------------------- value distillation
def test_value_targets_score_every_legal_action_with_the_value_hook():
    from training.pretrain import collect_value_targets

    data = collect_value_targets(TOY, {}, 200, seed=0, label_prob=0.5, tasks=2)
    n = len(data["obs"])
    assert n == 200 and data["obs"].shape == (n, 23) and data["values"].shape == (n, 9)
    masks = np.unpackbits(data["masks"], axis=1, count=9).astype(bool)
    assert (masks.sum(axis=1) > 1).all()  # only real choices are labelled
    assert np.all(data["values"][~masks] == 0)
    # the toy game has no heuristic module: the value hook is the engine's returns (+1 for a winning mark)
    assert set(np.unique(data["values"][masks]).tolist()) <= {-1.0, 0.0, 1.0}
    assert (data["values"][masks] == 1.0).any()
    for i in np.flatnonzero((data["values"] == 1.0).any(axis=1))[:10]:
        board = data["obs"][i][:18].reshape(9, 2)
        a = int(np.argmax(data["values"][i]))
        mine = set(np.flatnonzero(board[:, 0] == 1)) | {a}
        assert any(set(int(x) for x in line) <= mine for line in LINES), (i, a)  # the mark completes a line


def test_value_distillation_learns_a_deterministic_ranking():
    from sb3_contrib import MaskablePPO

    from training.pretrain import value_distillation

    rng = np.random.default_rng(0)
    n = 1500
    obs = np.zeros((n, 23), np.float16)
    masks = np.zeros((n, 9), bool)
    values = np.zeros((n, 9), np.float16)
    for i in range(n):
        legal = rng.random(9) < 0.6
        legal[rng.integers(9)] = True
        legal[(np.flatnonzero(legal)[0] + 1) % 9] = True
        masks[i] = legal
        obs[i, :9] = legal  # the free cells are visible
        values[i, legal] = 0.1
        values[i, np.flatnonzero(legal)[0]] = 0.5  # the lowest free cell is the best action
    data = {"obs": obs, "masks": np.packbits(masks, axis=1), "values": values}
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(TOY, [RandomAgent()]), policy_kwargs={"net_arch": [64]},
                        seed=0, device="cpu")
    info = value_distillation(model.policy, data, 9, tau=0.05, epochs=25, batch_size=64, lr=3e-3)
    assert info["samples"] == n
    assert info["holdout_agreement"] > 0.9 and info["holdout_value_gain"] > 0.9, info
    assert np.mean(info["loss"][-10:]) < np.mean(info["loss"][:10])
    with pytest.raises(TrainConfigError, match="'pretrain_targets'"):
        validate({"pretrain_targets": "oracle"})


def test_evaluate_again_command_repeats_the_run_config_and_has_no_opponent_when_alone():
    import shlex
    from pathlib import Path

    from training.progress import evaluate_command

    model = Path("runs/x/final_model.zip")
    solo = {"env_id": "monolith_strategy_v0", "env_config": {"num_players": 1, "exalted": True},
            "final_eval": {"alone": {}}}
    assert evaluate_command(solo, model) == (
        "python -m training.evaluate --env monolith_strategy_v0 --agents ppo:runs/x/final_model.zip --games 200"
        " --set num_players=1 --set exalted=true --out-dir runs/x")
    tower = {"env_id": "the_monolith_v0", "env_config": {"num_players": 4, "tower_weights": [1, 0, 3.5],
                                                         "map_file": None}, "final_eval": {"random": {}}}
    line = evaluate_command(tower, model)
    assert line.split(" --agents ")[1] == (
        "ppo:runs/x/final_model.zip,random --games 200 --set num_players=4 --set 'tower_weights=[1,0,3.5]' "
        "--out-dir runs/x")  # quoted: [ ] glob; the results beside the model
    from monolith_envs.core.config import parse_settings

    words = shlex.split(line)
    sets = words[words.index("--games") + 3:words.index("--out-dir"):2]  # the values after each --set
    assert parse_settings(sets) == {"num_players": 4, "tower_weights": [1, 0, 3.5]}  # reads back as given
    spaced = shlex.split(evaluate_command(tower, Path("my runs/x/final_model.zip")))  # a path with a space
    assert spaced[spaced.index("--agents") + 1] == "ppo:my runs/x/final_model.zip,random"
    assert spaced[spaced.index("--out-dir") + 1] == "my runs/x"


def _strip_times(obj):
    """The report without its wall-clock figures (seconds, rates), which vary from run to run."""
    if isinstance(obj, dict):
        return {k: _strip_times(v) for k, v in obj.items()
                if not any(t in k for t in ("seconds", "per_s", "time", "date"))}
    if isinstance(obj, list):
        return [_strip_times(v) for v in obj]
    return obj


def test_a_seeded_training_run_gives_the_same_report_and_weights(tmp_path):
    """Reproducibility on one machine: the same config and seed give the same report (games, win rates,
    learning curve, warm-start figures) and the same final weights."""
    import torch
    from sb3_contrib import MaskablePPO

    from training.train import main

    env_id = "monolith_arena_v0"
    reports, weights = [], []
    for name in ("a", "b"):
        out = tmp_path / name
        report = main(_smoke_args(env_id, out, "run", games=4) + ["--set", "seed=7"])
        reports.append(json.loads(json.dumps(report).replace(str(out), "OUT")))  # the same text but the folder
        policy = MaskablePPO.load(out / "run" / "final_model.zip", device="cpu").policy
        weights.append({k: v.clone() for k, v in policy.state_dict().items()})
    a, b = (_strip_times(r) for r in reports)
    assert a == b
    assert a["final_eval"]["random"]["games"] == 4
    assert weights[0].keys() == weights[1].keys()
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
