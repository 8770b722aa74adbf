"""The episode seeds of a training run's envs: rank ``r`` of a run with ``seed`` starts at ``seed * 1000 + r``
(training/README.md), so runs with nearby seeds play different episodes; a resumed run does not replay the
first session's."""

from __future__ import annotations

from monolith_envs.wrappers import SingleAgentEnv
from tests.training.test_training import _smoke_args
from training.train import env_seed_base


def test_each_env_rank_starts_at_seed_times_1000_plus_its_rank(tmp_path, monkeypatch):
    seen: list = []
    reset = SingleAgentEnv.reset

    def spy(self, *, seed=None, options=None):
        if seed is not None:
            seen.append(seed)
        return reset(self, seed=seed, options=options)

    monkeypatch.setattr(SingleAgentEnv, "reset", spy)
    from training.train import main

    main(_smoke_args("monolith_arena_v0", tmp_path, "run", games=2) + ["--set", "seed=7", "--set", "eval_every=256",
                                                                       "--set", "pretrain_samples=0"])
    assert seen[:2] == [7000, 7001]  # n_envs = 2 (SB3's own seeding gave 7 and 8: run 8's rank 0 episodes)


def test_a_resumed_run_starts_from_other_seeds_than_its_first_session():
    assert env_seed_base(7, 0) == 7000
    later = env_seed_base(7, 50_000)
    assert later % 1000 == 0 and later != 7000 and later < 2**74
    assert later == env_seed_base(7, 50_000) != env_seed_base(7, 60_000) != env_seed_base(8, 50_000)
