"""The RLlib module of ``training.rllib`` and of ``rllib:PATH`` agents: PPO's default torch module with the action
mask applied inside.

Observations are the PettingZoo classic dict of every Monolith env: ``{"observation": float32[obs_size],
"action_mask": int8[num_actions]}``.  The module's encoder, policy head and value head see only
``"observation"``; the action logits of every forward pass (sampling, evaluation and the PPO loss) are
replaced by the most negative float32 wherever ``action_mask`` is 0::

    logits = where(action_mask == 1, logits, float32.min)

so the softmax gives illegal actions a probability of exactly 0 (``exp(min - max)`` underflows to 0 in
float32) and the argmax of ``forward_inference`` is always legal.  ``torch.where`` is used rather than
adding ``log(mask)``: an addition can overflow to ``-inf`` and then give NaN in the entropy.

Importing this module imports torch and Ray (the ``[distributed]`` extra); nothing else in ``monolith_envs``
imports it except :mod:`monolith_envs.agents.rllib_agent`, inside the function that loads a checkpoint.
``training.rllib_module`` re-exports it (checkpoints written before the move name that path).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

from .torch_fork import guard_fork

guard_fork()  # a forked process runs the module on one thread (a multi-threaded one would hang)

__all__ = ["MaskedPPOTorchRLModule", "masked_logits", "split_obs"]

_MIN = torch.finfo(torch.float32).min


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``float32[B, n]`` logits with ``float32.min`` wherever ``mask`` (``[B, n]``, any dtype) is 0."""
    return torch.where(mask.to(torch.bool), logits, torch.full_like(logits, _MIN))


def split_obs(batch: dict) -> tuple[dict, torch.Tensor]:
    """A shallow copy of ``batch`` whose ``obs`` is the flat observation, and the action mask ``[B, n]``.

    Raises:
        ValueError: the observations are not the ``{"observation", "action_mask"}`` dict.
    """
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict) or "action_mask" not in obs or "observation" not in obs:
        raise ValueError("MaskedPPOTorchRLModule needs observations of the form {'observation': ..., "
                         f"'action_mask': ...}}, got {type(obs).__name__}"
                         + (f" with keys {sorted(obs)}" if isinstance(obs, dict) else ""))
    out = dict(batch)
    out[Columns.OBS] = obs["observation"]
    return out, obs["action_mask"]


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default MLP module over the ``"observation"`` entry, with masked action logits.

    Built from an ``RLModuleSpec`` whose ``observation_space`` is the env's ``Dict`` space; the encoder is
    sized from its ``"observation"`` box.  ``model_config`` is RLlib's ``DefaultModelConfig`` (the trainer
    sets ``fcnet_hiddens`` from ``net_arch``).

    Raises:
        ValueError: an observation space without the ``"observation"`` and ``"action_mask"`` entries.
    """

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any):
        if (not isinstance(observation_space, gym.spaces.Dict)
                or set(observation_space.spaces) != {"observation", "action_mask"}):
            raise ValueError("MaskedPPOTorchRLModule needs the Dict observation space {'observation', "
                             f"'action_mask'}}, got {observation_space}")
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        """Build the networks on the flat observation, then keep the Dict space (observation and mask)."""
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward(self, batch: dict, **kwargs: Any) -> dict:
        flat, mask = split_obs(batch)
        out = super()._forward(flat, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = masked_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        flat, mask = split_obs(batch)
        out = super()._forward_train(flat, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = masked_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def compute_values(self, batch: dict, embeddings: Any = None) -> torch.Tensor:
        """Value estimates ``float32[B]`` of a batch whose observations may still hold the mask."""
        if embeddings is None and isinstance(batch[Columns.OBS], dict):
            batch, _ = split_obs(batch)
        return super().compute_values(batch, embeddings)

    @torch.no_grad()
    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``float64[n]``: the masked policy's probabilities for one observation (0 on illegal actions)."""
        obs = {"observation": torch.as_tensor(np.asarray(observation, np.float32)[None]),
               "action_mask": torch.as_tensor(np.asarray(action_mask, np.int8)[None])}
        logits = self.forward_inference({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS][0]
        return torch.softmax(logits.double(), -1).numpy()
