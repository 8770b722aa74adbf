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
first layers, which makes PPO updates and rollouts faster.  The class lives in
:mod:`monolith_envs.agents.sb3_features` (so saved models load without this folder) and is re-exported here;
:func:`piece_layout` and the encoder's layers live in :mod:`monolith_envs.agents.baselines.net` (the pretrained
baselines share them).
"""

from __future__ import annotations

from monolith_envs.agents.baselines.net import piece_layout
from monolith_envs.agents.sb3_features import PieceEncoder

__all__ = ["PieceEncoder", "piece_layout"]
