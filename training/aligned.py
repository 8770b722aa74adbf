"""An action-aligned MaskablePPO policy: per-row action logits from a row-attention encoder.

Board games have actions that name a place on the board (Monolith Arena: ``PLACE[slot][hex][rot]``,
``SELECT_HEX[hex]``, ``USE_FEATURE[feature][hex]``) and an observation with one row per place (the ``hex``
piece, 19 rows).  A flat MLP must learn separately, for each of the 19 places, which of its inputs matter
for the logits of that place.  This policy shares that work over the places, as convolutional policy heads
do for Go or chess:

* **encoder** (:class:`RowAttentionEncoder`): the rows of the *anchor* piece become tokens
  (``Linear(width -> d)`` + a learned position embedding per row); every other observation value is encoded
  into one global vector (:class:`~training.features.PieceEncoder` over the rest) that also becomes a token;
  ``layers`` Transformer encoder layers let each place see the others.  Output: the ``R x d`` place codes and
  the global code, flattened into one feature vector.
* **head** (:class:`AlignedHead`): for every action family with an axis named like the anchor piece (and of
  the same length), the logits of place ``r`` come from a small MLP of ``[code_r, global]`` (shared by all
  places); the logits of the other families come from an MLP of ``[mean of the place codes, global]``.

The alignment is read from the game's ``ActionLayout`` axis names and ``ObsSpec`` piece names only
(:func:`alignment`), so any game whose board piece and action axes share a name can use it.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from .config import ATTENTION_HEADS
from .features import PieceEncoder

__all__ = ["AlignedHead", "AlignedMaskablePolicy", "RowAttentionEncoder", "alignment"]


def alignment(layout: Any, obs_spec: Any) -> dict:
    """The anchor piece and the per-family alignment of a game (plain ints and tuples, picklable).

    The anchor is the first observation piece of at least 2 dimensions whose name is an axis name of some
    action family and whose row count (``prod(shape[:-1])``) equals that axis's length.

    Returns:
        ``{"anchor": (offset, rows, width), "families": [(size, shape, axis), ...]}`` in layout order;
        ``axis`` is the index of the aligned axis in ``shape`` or -1.

    Raises:
        ValueError: no piece matches any action axis (use ``features = "pieces"`` for such a game).
    """
    axes = {(a, s) for f in layout.families for a, s in zip(f.args, f.shape)}
    anchor = None
    for p in obs_spec.pieces:
        if len(p.shape) >= 2:
            rows = int(p.size // p.shape[-1])
            if (p.name, rows) in axes:
                anchor = (p.name, int(p.offset), rows, int(p.shape[-1]))
                break
    if anchor is None:
        raise ValueError("no observation piece is named like an action axis of the same length; "
                         f"pieces: {[p.name for p in obs_spec.pieces]}, axes: {sorted(a for a, _ in axes)}")
    name, off, rows, width = anchor
    fams = []
    for f in layout.families:
        axis = next((k for k, (a, s) in enumerate(zip(f.args, f.shape)) if a == name and s == rows), -1)
        fams.append((int(f.size), tuple(int(s) for s in f.shape), axis))
    return {"anchor": (off, rows, width), "families": fams}


class RowAttentionEncoder(BaseFeaturesExtractor):
    """Place tokens + a global token through Transformer encoder layers (see the module docstring).

    Args:
        observation_space: flat ``Box(float32[n])``.
        anchor: ``(offset, rows, width)`` of the anchor piece.
        pieces: ``(offset, rows, width)`` tables among the other values (:func:`~training.features.piece_layout`),
            encoded by a :class:`~training.features.PieceEncoder` into the global vector.
        d: token size.  global_dim: size of the global vector.  layers, heads: Transformer encoder shape.

    ``forward(obs float32[B, n]) -> float32[B, rows * d + d + global_dim]``: the ``rows`` contextual place
    codes, the global token's output, then the global vector.
    """

    def __init__(self, observation_space: gym.spaces.Box, anchor: tuple, pieces: list, d: int = 64,
                 global_dim: int = 128, layers: int = 2, heads: int = ATTENTION_HEADS, row_dim: int = 16):
        off, rows, width = (int(x) for x in anchor)
        super().__init__(observation_space, rows * d + d + global_dim)
        n = int(observation_space.shape[0])
        self.anchor = (off, rows, width)
        keep = [i for i in range(n) if not off <= i < off + rows * width]
        self.register_buffer("rest", torch.tensor(keep, dtype=torch.long), persistent=False)
        sub = [(keep.index(o), r, w) for o, r, w in pieces if not (o < off + rows * width and off < o + r * w)]
        rest_space = gym.spaces.Box(0.0, 1.0, (len(keep),), np.float32)
        self.global_enc = PieceEncoder(rest_space, sub, row_dim=row_dim, features_dim=global_dim)
        self.row_in = nn.Linear(width, d)
        self.pos = nn.Parameter(torch.zeros(rows + 1, d))
        nn.init.normal_(self.pos, std=0.02)
        self.global_in = nn.Linear(global_dim, d)
        layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=2 * d, dropout=0.0, batch_first=True)
        self.body = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """``obs float32[B, n]`` -> ``float32[B, rows * d + d + global_dim]``: the ``rows`` contextual
        place codes, the global token's output, then the global vector."""
        off, rows, width = self.anchor
        b = obs.shape[0]
        g = self.global_enc(obs.index_select(1, self.rest))
        tok = torch.cat([self.row_in(obs[:, off:off + rows * width].reshape(b, rows, width)),
                         self.global_in(g).unsqueeze(1)], dim=1) + self.pos
        out = self.body(tok)
        return torch.cat([out.reshape(b, -1), g], dim=1)


class AlignedHead(nn.Module):
    """Action logits from :class:`RowAttentionEncoder` features (see the module docstring).

    Args:
        rows, d, global_dim: the encoder's shape.
        families: ``[(size, shape, axis)]`` from :func:`alignment`.
        hidden: hidden size of the per-place and the pooled MLPs.

    ``forward(latent float32[B, rows * d + d + global_dim]) -> float32[B, num_actions]``.
    """

    def __init__(self, rows: int, d: int, global_dim: int, families: list, hidden: int = 64):
        super().__init__()
        self.rows, self.d = int(rows), int(d)
        self.plan = []  # per family: (kind, size, shape, axis, index of its output block)
        place_out = pooled_out = 0
        for size, shape, axis in families:
            shape = tuple(shape)
            if axis >= 0:
                per = size // self.rows
                self.plan.append(("place", size, shape, axis, place_out, per))
                place_out += per
            else:
                self.plan.append(("pooled", size, shape, axis, pooled_out, size))
                pooled_out += size
        ctx = d + global_dim
        self.place_mlp = nn.Sequential(nn.Linear(d + ctx, hidden), nn.ReLU(), nn.Linear(hidden, max(1, place_out)))
        self.pooled_mlp = nn.Sequential(nn.Linear(d + ctx, hidden), nn.ReLU(), nn.Linear(hidden, max(1, pooled_out)))

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        """``latent float32[B, rows * d + d + global_dim]`` -> logits ``float32[B, num_actions]``, families
        in layout order (place-aligned ones from the per-place MLP, the others from the pooled MLP)."""
        b = latent.shape[0]
        rows, d = self.rows, self.d
        codes = latent[:, :rows * d].reshape(b, rows, d)
        ctx = latent[:, rows * d:]
        per_place = self.place_mlp(torch.cat([codes, ctx.unsqueeze(1).expand(b, rows, ctx.shape[1])], dim=2))
        pooled = self.pooled_mlp(torch.cat([codes.mean(dim=1), ctx], dim=1))
        out = []
        for kind, size, shape, axis, start, width in self.plan:
            if kind == "pooled":
                out.append(pooled[:, start:start + size])
                continue
            block = per_place[:, :, start:start + width]  # [B, rows, other axes in order]
            other = shape[:axis] + shape[axis + 1:]
            block = block.reshape(b, rows, *other).movedim(1, axis + 1)
            out.append(block.reshape(b, size))
        return torch.cat(out, dim=1)


class AlignedMaskablePolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` with :class:`RowAttentionEncoder` features and an :class:`AlignedHead`.

    Extra keyword argument ``head`` = ``{"rows", "d", "global_dim", "families", "hidden"}`` (from
    :func:`alignment` and the encoder settings).  The value network is the usual MLP (``net_arch["vf"]``) on
    the same features; ``net_arch["pi"]`` must be empty (the head reads the encoder's place codes).

    Raises:
        ValueError: a non-empty ``pi`` network.
    """

    def __init__(self, *args: Any, head: dict | None = None, **kwargs: Any):
        if head is None:
            raise ValueError("AlignedMaskablePolicy needs head={...} (see training.aligned.alignment)")
        self._head_cfg = dict(head)
        arch = kwargs.get("net_arch")
        if isinstance(arch, dict) and arch.get("pi"):
            raise ValueError("AlignedMaskablePolicy: net_arch['pi'] must be empty, the head reads place codes")
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        h = self._head_cfg
        self.action_net = AlignedHead(h["rows"], h["d"], h["global_dim"], h["families"], h.get("hidden", 64))
        for m in self.action_net.modules():  # small initial logits, as for the usual action net
            if isinstance(m, nn.Linear):
                nn.init.orthogonal_(m.weight, gain=np.sqrt(2))
                nn.init.zeros_(m.bias)
        for mlp in (self.action_net.place_mlp, self.action_net.pooled_mlp):
            nn.init.orthogonal_(mlp[-1].weight, gain=0.01)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        data["head"] = self._head_cfg
        return data
