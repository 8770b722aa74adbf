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


@pytest.fixture(scope="session")
def toy_piece_model(tmp_path_factory):
    """Path of a small saved MaskablePPO model of the toy game whose feature extractor has weights (a
    ``PieceEncoder`` with no pieces: one linear layer on the whole observation), untrained. SB3 keeps three
    copies of such an extractor's weights (shared, actor's, critic's)."""
    from sb3_contrib import MaskablePPO

    from agents import RandomAgent
    from monolith_envs.agents.sb3_features import PieceEncoder
    from tests.toy_game import ENV_ID
    from training.wrapper import SingleAgentEnv

    kwargs = {"net_arch": [8], "features_extractor_class": PieceEncoder,
              "features_extractor_kwargs": {"pieces": [], "row_dim": 8, "features_dim": 16}}
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(ENV_ID, [RandomAgent()]), n_steps=32, batch_size=32,
                        policy_kwargs=kwargs, seed=0, device="cpu")
    path = tmp_path_factory.mktemp("model") / "toy_pieces.zip"
    model.save(path)
    return path
