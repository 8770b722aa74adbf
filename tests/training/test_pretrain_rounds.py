"""DAgger rounds of the behaviour-cloning warm start (``pretrain_rounds``, ``pretrain_student_prob``): the policy
fitted so far plays, the teacher labels every state it reaches."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from tests.training.test_export_baseline import make_run  # noqa: E402
from training import pretrain  # noqa: E402
from training.config import TrainConfigError, validate  # noqa: E402
from training.export_baseline import policy_logits, sample_observations  # noqa: E402

ENV, CFG = "monolith_arena_v0", {"num_players": 2, "reward_mode": "win_loss"}


@pytest.fixture(scope="module")
def policy(tmp_path_factory):
    torch.set_num_threads(1)
    return make_run(tmp_path_factory.mktemp("student") / "run").policy


def test_the_student_computes_the_policys_logits(policy):
    meta, weights, prob = pretrain.student_of(policy, ENV, CFG, 0.25)
    assert prob == 0.25 and meta["n_actions"] == policy.action_net.out_features
    net = pretrain._student_net((meta, weights, prob))
    obs, _masks = sample_observations(ENV, CFG, 16, seed=3)
    want, _values = policy_logits(policy, obs)
    assert np.allclose(net.logits(obs), want, atol=1e-4)


def test_a_student_that_never_plays_changes_nothing_and_one_that_always_plays_leads_elsewhere(policy):
    def collect(student):
        return pretrain.collect_demonstrations(ENV, CFG, 120, "heuristic", ["random"], seed=4, tasks=1,
                                               student=student)

    base = collect(None)
    never = collect(pretrain.student_of(policy, ENV, CFG, 0.0))
    always = collect(pretrain.student_of(policy, ENV, CFG, 1.0))
    for k in base:
        assert np.array_equal(base[k], never[k])
    n = min(len(base["actions"]), len(always["actions"]))
    assert not np.array_equal(base["obs"][:n], always["obs"][:n])  # the student's moves lead to other states
    masks = np.unpackbits(always["masks"], axis=1, count=policy.action_net.out_features).astype(bool)
    assert masks[np.arange(len(masks)), always["actions"]].all()  # every label is the teacher's legal action


def test_a_run_with_rounds_reports_each_round(tmp_path):
    from training.train import main

    report = main(["--config", "training/configs/quick.toml", "--set", "pretrain_targets=teacher",
                   "--set", "pretrain_samples=100", "--set", "pretrain_rounds=2", "--set", "pretrain_epochs=1",
                   "--set", "total_timesteps=32", "--set", "n_steps=16", "--set", "n_envs=2", "--set", "batch_size=32",
                   "--set", "eval_every=0",
                   "--set", "final_eval_games=1", "--set", "eval_workers=1", "--set", "checkpoint_every=0",
                   "--set", "progress_bar=false", "--set", f"out_dir={tmp_path}", "--set", "name=r"])
    rounds = report["pretrain"]["rounds"]
    assert len(rounds) == 2 and rounds[0]["samples"] >= 100 and rounds[1]["samples"] >= rounds[0]["samples"] + 100
    assert report["pretrain"]["samples"] == rounds[1]["samples"]


@pytest.mark.parametrize("change, words", [({"pretrain_targets": "values"}, "pretrain_targets = 'teacher'"),
                                           ({"features": "flat"}, "features = 'pieces'"),
                                           ({"pretrain_rounds": 0}, "from 1 to 100"),
                                           ({"pretrain_student_prob": 1.5}, "pretrain_student_prob")])
def test_bad_round_settings_are_refused_by_name(change, words):
    cfg = {"env_id": ENV, "pretrain_rounds": 2, "pretrain_targets": "teacher", "features": "pieces", **change}
    with pytest.raises(TrainConfigError, match="pretrain_") as e:
        validate(cfg)
    assert words in str(e.value)


def test_a_warm_start_record_is_read_back_only_for_a_run_with_a_warm_start(tmp_path):
    import io
    import json
    import zipfile

    import torch

    from training.resume import WARM_START_FILE, load_run

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    weights = io.BytesIO()
    torch.save({"w": torch.zeros(2)}, weights)  # --resume loads the policy weights before the run
    with zipfile.ZipFile(run / "checkpoints" / "model_64_steps.zip", "w") as z:
        z.writestr("data", json.dumps({"num_timesteps": 64}))
        z.writestr("policy.pth", weights.getvalue())
    record = {"pretrain": {"samples": 40}, "stage_seconds": {"warm-start collection": 3.5}}
    (run / WARM_START_FILE).write_text(json.dumps(record))
    for samples, kept in ((40, True), (0, False)):
        (run / "config.json").write_text(json.dumps(validate({"env_id": ENV, "pretrain_samples": samples})))
        _cfg, resume = load_run(run)
        assert resume["steps"] == 64
        assert (resume.get("warm_start") == record) is kept
