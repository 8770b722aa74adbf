"""Fixtures of the agent tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def toy_model(tmp_path_factory):
    """Path of a small saved MaskablePPO model of the toy game (``tests.toy_game``), untrained."""
    from sb3_contrib import MaskablePPO

    from agents import RandomAgent
    from tests.toy_game import ENV_ID
    from training.wrapper import SingleAgentEnv

    model = MaskablePPO("MlpPolicy", SingleAgentEnv(ENV_ID, [RandomAgent()]), n_steps=32, batch_size=32,
                        policy_kwargs={"net_arch": [8]}, seed=0, device="cpu")
    path = tmp_path_factory.mktemp("model") / "toy.zip"
    model.save(path)
    return path
