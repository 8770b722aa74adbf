"""``PieceEncoder``: the SB3 features extractor of the training recipe's ``pieces`` network, in the package so
that a ``ppo:PATH`` model trained with it loads wherever the package is installed (``training.features``
re-exports it; models saved before it moved name ``training.features.PieceEncoder`` and are read as this one).

It follows the game's observation pieces (``ObsSpec``): one small shared layer per row of a table piece, the
small pieces unchanged, then ``Linear(-> features_dim)`` + ReLU (see :mod:`training.features` for the
design and :mod:`monolith_envs.agents.baselines.net` for the layers, which the pretrained baselines share).
Needs the ``train`` extra (torch, stable-baselines3).
"""

from __future__ import annotations

import gymnasium as gym
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from monolith_envs.agents.baselines.net import PieceEncoderMixin

__all__ = ["PieceEncoder"]


class PieceEncoder(PieceEncoderMixin, BaseFeaturesExtractor):
    """Shared per-row encoders for the table pieces, then ``Linear -> features_dim`` + ReLU.

    The layers and the forward pass are the package's
    :class:`~monolith_envs.agents.baselines.net.PieceEncoderMixin`, which the pretrained baselines use too
    (``python -m training.export_baseline`` copies these weights into one without SB3).

    Args:
        observation_space: the flat ``Box(float32[n])`` observation space.
        pieces: ``[(offset, rows, width)]`` from :func:`piece_layout` (plain ints, so the model pickles).
        row_dim: encoded size of one row.
        features_dim: output size (input of the policy and value heads).

    ``forward(obs float32[batch, n]) -> float32[batch, features_dim]``.

    Raises:
        ValueError: a piece that does not fit the observation, or overlapping pieces.
    """

    def __init__(self, observation_space: gym.spaces.Box, pieces: list, row_dim: int = 32,
                 features_dim: int = 256):
        BaseFeaturesExtractor.__init__(self, observation_space, features_dim)
        self._build_pieces(int(observation_space.shape[0]), pieces, row_dim, features_dim)
