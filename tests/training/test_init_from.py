"""Config key ``init_from``: PPO starts from a pretrained baseline's weights (training/init_weights.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from monolith_envs.agents.baselines.registry import find_baseline, load_baseline  # noqa: E402
from training.config import TrainConfigError, apply_overrides, check_config, load_config  # noqa: E402
from training.export_baseline import compare_with_policy, sample_observations  # noqa: E402
from training.init_weights import InitFromError, apply_init, load_init  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _cfg(**overrides):
    cfg = load_config(ROOT / "training" / "configs" / "monolith_arena_2p.toml")
    cfg["pretrain_samples"] = 0
    cfg.update(overrides)
    return cfg


def _policy(cfg):
    from sb3_contrib import MaskablePPO

    from monolith_envs.agents import RandomAgent
    from monolith_envs.wrappers import SingleAgentEnv
    from training.train import policy_class, policy_kwargs

    env = SingleAgentEnv(cfg["env_id"], [RandomAgent()], env_config=cfg["env_config"])
    return MaskablePPO(policy_class(cfg), env, n_steps=32, batch_size=32, policy_kwargs=policy_kwargs(cfg),
                       seed=0, device="cpu").policy


def test_policy_computes_what_the_baseline_computes():
    torch.set_num_threads(1)
    cfg = _cfg(init_from="arena_2p")
    net, meta = load_init(cfg)
    policy = _policy(cfg)
    obs, masks = sample_observations(cfg["env_id"], cfg["env_config"], 64, seed=7)
    before = compare_with_policy(policy, net, obs, masks)
    assert before["max_logit_diff"] > 0.1  # an untrained policy is another network
    copied = apply_init(policy, net)
    # encoder (3 names in SB3 for the one shared module), 2 MLPs, 2 heads
    assert copied == len([k for k in policy.state_dict() if not k.startswith("log_std")])
    after = compare_with_policy(policy, net, obs, masks)
    assert after["max_logit_diff"] < 1e-4 and after["max_value_diff"] < 1e-4
    assert after["same_action"] == 1.0
    entry = find_baseline("monolith_arena_v0", {"num_players": 2, "mode": "duel"})
    assert load_baseline(entry)[0] is net  # the package's own file, through the checked loader


def test_a_file_path_loads_the_same_weights():
    path = ROOT / "monolith_envs" / "baselines" / "arena_2p.pt"
    net, meta = load_init(_cfg(init_from=str(path)))
    assert meta["name"] == "arena_2p"
    ref, _ = load_init(_cfg(init_from="arena_2p"))
    for (k, a), (k2, b) in zip(net.state_dict().items(), ref.state_dict().items()):
        assert k == k2 and torch.equal(a, b)


@pytest.mark.parametrize("overrides, words", [
    ({"init_from": "nope"}, ["no baseline named 'nope'", "arena_2p", "the_monolith_4p"]),
    ({"init_from": "strategy_2p"}, ["env id monolith_strategy_v0", "config: monolith_arena_v0"]),
    ({"init_from": "arena_4p"}, ["num_players 4 (config: 2)", "mode ffa (config: duel)"]),
    ({"init_from": "arena_2p", "row_dim": 16}, ["row_dim 32 (config: 16)"]),
    ({"init_from": "arena_2p", "net_arch": [64, 64]}, ["net_arch [128] (config: [64, 64])"]),
    ({"init_from": "arena_2p", "features": "flat"}, ["features 'pieces' (config: 'flat')"]),
])
def test_a_mismatch_is_a_config_error_naming_it(overrides, words):
    cfg = _cfg(**overrides)
    with pytest.raises(TrainConfigError) as err:
        check_config(cfg)
    for w in words:
        assert w in str(err.value)
    with pytest.raises(InitFromError):
        load_init(cfg)


def test_a_warm_start_and_init_from_together_are_refused(tmp_path):
    cfg = load_config(ROOT / "training" / "configs" / "monolith_arena_2p.toml")
    with pytest.raises(TrainConfigError, match="set pretrain_samples = 0"):
        apply_overrides(cfg, ["init_from=arena_2p"])
    out = apply_overrides(cfg, ["init_from=arena_2p", "pretrain_samples=0"])
    assert out["init_from"] == "arena_2p" and out["pretrain_samples"] == 0


def test_a_file_that_is_not_a_baseline_is_refused(tmp_path):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a torch file")
    with pytest.raises(InitFromError, match="could not be loaded"):
        load_init(_cfg(init_from=str(bad)))
    with pytest.raises(InitFromError, match="could not be loaded"):
        load_init(_cfg(init_from=str(tmp_path / "missing.pt")))


def test_a_short_run_starts_from_the_baseline(tmp_path):
    """The run's policy before its first update is the baseline: its report names the start, and the
    first checkpoint of a run with a tiny learning rate still plays the baseline's moves."""
    from training.train import train

    cfg = _cfg(init_from="arena_2p", total_timesteps=64, n_envs=1, n_steps=64, batch_size=64, n_epochs=1,
               vec_env="dummy", learning_rate=1e-9, eval_every=0, final_eval_games=2,
               eval_opponents=["random"], eval_workers=1, checkpoint_every=0, progress_bar=False,
               name="init", out_dir=str(tmp_path), opponent_mix={"random": 1.0}, opponent_schedule=[])
    report = train(cfg)
    assert report["pretrain"]["init_from"] == "arena_2p" and report["pretrain"]["tensors"] > 10
    assert "python -m training.train" in report["pretrain"]["baseline_training"]
    from monolith_envs.agents.ppo import load_maskable_ppo

    policy = load_maskable_ppo(Path(report["final_model"])).policy
    net, _ = load_init(cfg)
    obs, masks = sample_observations(cfg["env_id"], cfg["env_config"], 32, seed=3)
    check = compare_with_policy(policy, net, obs, masks)
    assert check["same_action"] == 1.0 and np.isfinite(check["max_logit_diff"])


def _short_run_cfg(tmp_path, **extra):
    return _cfg(**{"total_timesteps": 64, "n_envs": 1, "n_steps": 64, "batch_size": 64, "n_epochs": 1,
                   "vec_env": "dummy", "eval_every": 0, "final_eval_games": 2, "eval_opponents": ["random"],
                   "eval_workers": 1, "checkpoint_every": 64, "progress_bar": False, "out_dir": str(tmp_path),
                   "opponent_mix": {"random": 1.0}, "opponent_schedule": [], **extra})


def test_a_resumed_run_keeps_its_start_record_and_never_reads_the_file_again(tmp_path, capsys):
    """The resume reads neither the baseline file (moved away here) nor a changed init_from, and its report
    still says where the weights started."""
    import shutil

    from training.train import main, train

    copy = tmp_path / "copy.pt"
    shutil.copy(ROOT / "monolith_envs" / "baselines" / "arena_2p.pt", copy)
    train(_short_run_cfg(tmp_path, init_from=str(copy), name="run"))
    run = tmp_path / "run"
    copy.unlink()
    report = main(["--resume", str(run), "--set", "total_timesteps=128"])
    assert report["learner_steps"] == 128 and report["resumed_from"]["steps"] == 64
    assert report["pretrain"]["init_from"] == str(copy) and report["pretrain"]["tensors"] > 10
    for change in ("init_from=arena_2p", "init_from=", "pretrain_samples=100"):
        with pytest.raises(SystemExit) as ei:
            main(["--resume", str(run), "--set", "total_timesteps=192", "--set", change])
        assert ei.value.code == 2 and f"{change!r} cannot change on resume" in capsys.readouterr().err


def test_a_baseline_of_another_activation_or_variant(tmp_path, capsys):
    from monolith_envs.agents.baselines.net import save_baseline_file
    from training.train import train

    net, meta = load_init(_cfg(init_from="arena_2p"))
    relu = save_baseline_file(tmp_path / "relu.pt", {**meta, "activation": "relu"},
                              {k: v.float() for k, v in net.state_dict().items()}, torch.float32)
    with pytest.raises(InitFromError, match="activation 'relu' \\(the run's policy uses 'tanh'\\)"):
        load_init(_cfg(init_from=str(relu)))
    # another variant of the same game and seats: allowed, recorded and said on the console
    report = train(_short_run_cfg(tmp_path, init_from="arena_2p", name="variant", progress_bar=True,
                                  env_config={"num_players": 2, "reward_mode": "win_loss", "max_decisions": 4000}))
    assert report["pretrain"]["game_config_differences"] == ["max_decisions: baseline 5000, run 4000"]
    err = capsys.readouterr().err
    assert "start: the weights of baseline 'arena_2p'" in err and "another variant of the game (max_decisions" in err


@pytest.mark.parametrize("spec, words", [
    ("arena_2p.pt", "a baseline of the package is named without .pt: init_from = 'arena_2p'"),
    ("runs/x/final_model.zip", "export it first with python -m training.export_baseline"),
])
def test_hints_for_a_name_given_as_a_file_and_an_sb3_model(spec, words):
    with pytest.raises(InitFromError) as err:
        load_init(_cfg(init_from=spec))
    assert words in str(err.value)


def test_a_zip_without_a_torch_pickle_is_named_once(tmp_path):
    import zipfile

    fake = tmp_path / "sb3model.pt"
    with zipfile.ZipFile(fake, "w") as z:
        z.writestr("policy.pth", b"x")
    with pytest.raises(InitFromError) as err:
        load_init(_cfg(init_from=str(fake)))
    assert str(err.value).count("not a torch zip checkpoint") == 1 and "no data.pkl in the zip" in str(err.value)


def test_a_fifo_is_refused_without_blocking(tmp_path):
    from tests.fifo import fifo_error

    fifo = tmp_path / "init.pt"
    assert "not a regular file" in fifo_error(fifo, lambda: load_init(_cfg(init_from=str(fifo))), InitFromError)
