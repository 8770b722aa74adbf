"""One local Ray instance per test module (``ray.init(num_cpus=2)``), shut down after the module.

Without Ray (a venv without the ``[distributed]`` extra) these tests are skipped, except under CI
(``CI=true``), where ``.ci/run`` installs the extra and a missing Ray is an error.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOY_PRELOAD = "tests.distributed.toy"  # the RLlib tests' env runners import it: it registers toy_tictactoe_v0
FAULTY_ID = "toy_faulty_v0"

if os.environ.get("CI", "").lower() == "true":
    import ray  # noqa: F401  (CI must have the [distributed] extra)
else:
    pytest.importorskip("ray")


@pytest.fixture()
def no_ray(monkeypatch):
    """Fail the test if the command gets as far as starting Ray or training."""
    from training import rllib

    def refuse(*_args, **_kwargs):
        raise AssertionError("the command went on to train; the config should have been refused first")

    monkeypatch.setattr(rllib, "train", refuse)
    monkeypatch.setattr(rllib, "_init_ray", refuse)


@pytest.fixture(scope="module")
def ray_local():
    """A 2-CPU local Ray instance whose workers can import this checkout (``tests.distributed.*``)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
    yield ray
    ray.shutdown()


@pytest.fixture()
def faulty_game():
    """``toy_faulty_v0`` registered in this process for one test (so that no other test's env list sees it)."""
    import monolith_envs
    from tests.distributed.faulty import faulty_module

    monolith_envs.register(FAULTY_ID, faulty_module)
    yield FAULTY_ID
    monolith_envs._REGISTRY.pop(FAULTY_ID, None)
