"""``PieceEncoder``: a features extractor that follows the game's observation pieces (``ObsSpec``).

The flat observation of a game is a concatenation of named pieces (``game.obs_spec.pieces``), several of
them tables of rows that mean the same thing (Monolith Arena: 19 hex rows of 143 features, 12 hand-slot
rows, 4 unseen-pool rows).  A plain MLP learns every row's weights separately; this extractor applies one
small shared layer to every row of a table piece (``Linear(width -> row_dim)`` + ReLU, the same weights for
each row of that piece, like a 1x1 convolution), flattens the encoded rows in order (so the position of a
row, e.g. which hex, is kept), concatenates the small pieces unchanged, and maps everything through
``Linear(-> features_dim)`` + ReLU.  It is generic: it only reads the piece layout, so it works for any
registered game.

Cost on Monolith Arena (duel, 4,532 inputs): about a quarter of the multiply-adds of a ``[256, 256]`` MLP's
first layers, which makes PPO updates and rollouts faster.  :func:`piece_layout` and the encoder's layers live in
:mod:`monolith_envs.agents.baselines.net` (the pretrained baselines share them).
"""

from __future__ import annotations

import gymnasium as gym
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from monolith_envs.agents.baselines.net import PieceEncoderMixin, piece_layout

__all__ = ["PieceEncoder", "piece_layout"]


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
