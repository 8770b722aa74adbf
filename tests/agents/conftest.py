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


def _piece_model(path, shared: bool):
    """A small MaskablePPO model of the toy game whose feature extractor has weights (a ``PieceEncoder`` with
    no pieces: one linear layer on the whole observation), saved to ``path`` with every weight moved by 0.5
    from its seeded start, so a weight left at its start value on load shows."""
    import torch
    from sb3_contrib import MaskablePPO

    from agents import RandomAgent
    from monolith_envs.agents.sb3_features import PieceEncoder
    from tests.toy_game import ENV_ID
    from training.wrapper import SingleAgentEnv

    kwargs = {"net_arch": [8], "features_extractor_class": PieceEncoder, "share_features_extractor": shared,
              "features_extractor_kwargs": {"pieces": [], "row_dim": 8, "features_dim": 16}}
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(ENV_ID, [RandomAgent()]), n_steps=32, batch_size=32,
                        policy_kwargs=kwargs, seed=0, device="cpu")
    with torch.no_grad():
        for w in model.policy.parameters():
            w.add_(0.5)
    model.save(path)
    return path


@pytest.fixture(scope="session")
def toy_piece_model(tmp_path_factory):
    """Path of a :func:`_piece_model` whose actor and critic share the extractor (SB3 saves its weights three
    times: shared, actor's, critic's)."""
    return _piece_model(tmp_path_factory.mktemp("model") / "toy_pieces.zip", shared=True)


@pytest.fixture(scope="session")
def toy_split_model(tmp_path_factory):
    """Path of a :func:`_piece_model` whose actor and critic each have their own extractor."""
    return _piece_model(tmp_path_factory.mktemp("model") / "toy_split.zip", shared=False)
