"""The tiny budget and the one benchmark run on the toy game shared by the tests of this folder."""

from __future__ import annotations

import dataclasses

import pytest

from benchmarks.run import run_benchmarks
from benchmarks.timing import BUDGETS
from tests.toy_game import ENV_ID

TINY = dataclasses.replace(
    BUDGETS["smoke"], name="tiny", loop_seconds=0.05, repeats=2, warmup_seconds=0.01, latency_states=4,
    latency_repeats=2, reset_calls=3, progress_games=2, memory_envs=2, memory_steps=3, train_steps=64,
    train_warmup_steps=32, train_n_steps=32, pair_slice_seconds=0.02, pair_rounds=3,
)


@pytest.fixture(scope="session")
def result():
    """``run_benchmarks`` on the toy tic-tac-toe env with connect four as the only reference, with training."""
    return run_benchmarks(TINY, env_ids=[ENV_ID], imports=("tests.conftest",), refs=["connect_four_v3"],
                          train=True, train_vecs=("dummy",), quiet=True)
