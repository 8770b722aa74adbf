"""RLlib training on a local Ray instance: a few hundred PPO steps on the toy game and on Arena, checkpoints
saved and reloaded, ``rllib:`` agents in evaluation, and the action mask inside the module."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.distributed.conftest import TOY_PRELOAD

TOY = "toy_tictactoe_v0"


def _cfg(tmp_path, *sets):
    from training.rllib_config import apply_overrides, load_config

    base = [f"out_dir='{tmp_path}'", "train_batch_size=200", "batch_size=100", "n_epochs=2", "eval_every=0",
            "final_eval_games=12", "eval_games=6", "checkpoint_every=0", "progress_bar=false", "net_arch=[32, 32]",
            f"preload=['{TOY_PRELOAD}']"]
    return apply_overrides(load_config(None), base + list(sets))


@pytest.fixture(scope="module")
def toy_run(ray_local, tmp_path_factory):
    """400 learner steps on the toy game with one remote env runner, every opponent role, checkpoints."""
    from training.rllib import train

    out = tmp_path_factory.mktemp("rllib")
    cfg = _cfg(out, f"env_id='{TOY}'", "total_timesteps=400", "num_env_runners=1", "snapshot_every=200",
               "checkpoint_every=200", "eval_every=400", "opponent_mix={learner = 1, self = 1, random = 1, "
               "heuristic = 1}", "name='toy'")
    return cfg, train(cfg)


def test_training_writes_the_report_checkpoints_and_metrics(toy_run):
    cfg, rep = toy_run
    run = cfg["out_dir"] + "/toy"
    from pathlib import Path

    assert rep["learner_steps"] >= 400 and set(rep["final_eval"]) == {"random", "heuristic"}
    for s in rep["final_eval"].values():  # training.train's summary shape
        assert s["games"] == 12 and s["wins"] + s["draws"] + s["losses"] == 12
        assert 0 <= s["ci95"][0] <= s["win_rate"] <= s["ci95"][1] <= 1 and s["agent"].startswith("rllib:")
    assert {"run", "env_id", "final_model", "learner_steps", "final_eval", "learning_curve", "throughput",
            "config"} <= set(rep)
    tp = rep["throughput"]
    assert tp["opponent_steps"] > 0 and tp["env_steps_per_s"] > tp["learner_steps_per_s"] > 0
    assert rep["learning_curve"][-1]["step"] == rep["learner_steps"]
    rows = [json.loads(line) for line in Path(run, "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [200, 400] and "policy_loss" in rows[-1]["ppo"]
    assert 0 <= rows[-1]["learner_win_rate"] <= 1 and "eval" in rows[-1]
    assert sorted(p.name for p in Path(run, "checkpoints").iterdir()) == ["step_200", "step_400"]
    assert json.loads(Path(run, "report.json").read_text())["learner_steps"] == rep["learner_steps"]


def test_checkpoint_reloads_into_the_same_policy_and_resumes(toy_run):
    from ray.rllib.algorithms.algorithm import Algorithm

    from agents import make_agent
    from training.rllib_env import SHARED_MODULE

    cfg, rep = toy_run
    agent = make_agent(f"rllib:{rep['final_model']}", TOY)
    algo = Algorithm.from_checkpoint(rep["final_model"])
    try:
        module = algo.get_module(SHARED_MODULE)
        rng = np.random.default_rng(0)
        for _ in range(5):
            obs = rng.random(agent.module.observation_space["observation"].shape[0]).astype(np.float32)
            mask = (rng.random(9) < 0.5).astype(np.int8)
            mask[rng.integers(9)] = 1
            p_agent = agent.action_probabilities(obs, mask)
            assert np.allclose(p_agent, module.action_probabilities(obs, mask), atol=1e-6)
            assert (p_agent[mask == 0] == 0).all() and abs(p_agent.sum() - 1) < 1e-9
        res = algo.train()  # training resumes from the checkpoint's step count
        from training.rllib_callbacks import steps_sampled

        assert steps_sampled(res) >= rep["learner_steps"] + 200
    finally:
        algo.stop()


def test_no_illegal_action_in_200_evaluation_games(toy_run):
    """Sampling (not only argmax) from the trained module, through ``training.evaluate``: 0 illegal actions."""
    import monolith_envs
    from agents import make_agent, play_match
    from agents.rllib_agent import RLlibAgent

    _, rep = toy_run
    agent = RLlibAgent(rep["final_model"], deterministic=False)
    checked = {"decisions": 0, "illegal": 0}
    inner = agent.act

    def act(obs, mask, rng):
        a = inner(obs, mask, rng)
        checked["decisions"] += 1
        checked["illegal"] += int(not mask[a])
        return a

    agent.act = act
    env = monolith_envs.make(TOY, illegal_action="penalize")  # an illegal action would be played, not raised
    for k in range(200):
        seats = [agent, make_agent("random", TOY)] if k % 2 == 0 else [make_agent("random", TOY), agent]
        play_match(env, seats, seed=k)
    assert checked["illegal"] == 0 and checked["decisions"] > 400


def test_evaluate_command_takes_rllib_agents(toy_run, tmp_path):
    from training.evaluate import main

    _, rep = toy_run
    out = main(["--env", TOY, "--agents", f"random,rllib:{rep['final_model']}", "--games", "10", "--workers", "1",
                "--out", str(tmp_path / "e.json")])
    (pair,) = out["pairs"]
    assert pair["games"] == 10 and pair["opponent"] == f"rllib:{rep['final_model']}"


def test_play_command_takes_an_rllib_opponent(toy_run):
    from agents.play import main

    _, rep = toy_run
    answers = iter(str(c) for c in [4, 0, 8, 2, 6, 1, 3, 5, 7] * 3)
    out = []

    def inp(prompt):  # the first legal cell of the list above
        return next(answers)

    res = main([TOY, "--opponents", f"rllib:{rep['final_model']}", "--seed", "3", "--seat", "0"],
               input_fn=inp, output_fn=out.append)
    assert f"opponents: P1 rllib:{rep['final_model']}" in " ".join(out[0].split()) and "game over" in out[-1]
    assert res.decisions >= 5


def test_masked_module_gives_illegal_actions_zero_probability(ray_local):
    import gymnasium as gym
    import torch
    from ray.rllib.core.columns import Columns

    from training.rllib import module_spec
    from training.rllib_module import masked_logits

    space = gym.spaces.Dict({"observation": gym.spaces.Box(0, 1, (6,), np.float32),
                             "action_mask": gym.spaces.Box(0, 1, (5,), np.int8)})
    module = module_spec({"net_arch": [8]}, space, gym.spaces.Discrete(5)).build()
    mask = torch.tensor([[1, 0, 0, 1, 0], [0, 0, 0, 0, 1]], dtype=torch.int8)
    batch = {Columns.OBS: {"observation": torch.rand(2, 6), "action_mask": mask}}
    for fwd in (module.forward_exploration, module.forward_inference, module.forward_train):
        probs = torch.softmax(fwd(dict(batch))[Columns.ACTION_DIST_INPUTS], -1)
        assert (probs[mask == 0] == 0).all() and torch.allclose(probs.sum(-1), torch.ones(2))
    assert module.compute_values(dict(batch)).shape == (2,)
    assert torch.isfinite(masked_logits(torch.tensor([[-1e30, 3.0]]), torch.tensor([[0, 1]]))).all()
    with pytest.raises(ValueError, match="observation"):
        module_spec({"net_arch": [8]}, space["observation"], gym.spaces.Discrete(5)).build()


def test_arena_trains_through_the_command_line(ray_local, tmp_path, capsys):
    from training.rllib import main

    rep = main(["--env", "monolith_arena_v0", "--num-env-runners", "0", "--set", f"out_dir='{tmp_path}'",
                "--set", "total_timesteps=300", "--set", "train_batch_size=300", "--set", "batch_size=150",
                "--set", "n_epochs=1", "--set", "final_eval_games=2", "--set", "eval_every=0",
                "--set", "progress_bar=false", "--set", "opponent_mix={learner = 1, random = 1}"])
    assert rep["learner_steps"] >= 300 and rep["final_eval"]["random"]["games"] == 2
    out, err = capsys.readouterr()
    assert "env steps/s incl. opponents" in out
    run = tmp_path / rep["run"]  # the command that evaluates the final checkpoint, as training.train prints it
    assert (f"evaluate it: python -m training.evaluate --env monolith_arena_v0 --agents "
            f"rllib:{run / 'final_checkpoint'},random --games 200") in err


def test_bad_configs_are_refused_by_name(tmp_path):
    from training.config import TrainConfigError
    from training.rllib_config import apply_overrides, load_config

    with pytest.raises(TrainConfigError, match="'features' apply to training.train only"):
        apply_overrides(load_config(None), ["features=pieces"])
    with pytest.raises(TrainConfigError, match=r"unknown config key\(s\) 'bogus'"):
        apply_overrides(load_config(None), ["bogus=1"])
    with pytest.raises(TrainConfigError, match="opponent_mix"):
        apply_overrides(load_config(None), ["opponent_mix={random = -1}"])
    with pytest.raises(TrainConfigError, match="must not exceed"):
        apply_overrides(load_config(None), ["batch_size=500", "train_batch_size=100"])
    # RLlib's minibatch is cut from its train_batch_size, not from training.train's n_steps x n_envs
    cfg = apply_overrides(load_config(None), ["batch_size=3000", "train_batch_size=4000"])
    assert cfg["batch_size"] == 3000
