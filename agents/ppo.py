"""``MaskablePPOAgent``: a trained sb3-contrib MaskablePPO policy behind the Agent protocol.

The action mask is passed to the policy on every call (``predict(..., action_masks=mask)``), so the agent
never picks an illegal action.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .base import AgentError, BaseAgent

__all__ = ["MaskablePPOAgent", "load_maskable_ppo"]


def load_maskable_ppo(path: str | Path, device: str = "cpu"):
    """Load a saved ``sb3_contrib.MaskablePPO`` model (``.zip``) on ``device``.

    Raises:
        FileNotFoundError: no such file.
    """
    from sb3_contrib import MaskablePPO

    p = Path(path)
    if not p.exists() and not Path(str(p) + ".zip").exists():
        raise FileNotFoundError(f"no MaskablePPO model at {p}")
    return MaskablePPO.load(str(p), device=device)


class MaskablePPOAgent(BaseAgent):
    """Acts with a MaskablePPO model (or anything with the same ``predict`` / ``policy`` interface).

    Args:
        model: a ``MaskablePPO`` model, or a path to a saved one.
        deterministic: True (default) takes the most probable legal action (``predict(deterministic=True)``);
            False samples from the masked action distribution with the agent's ``rng`` (reproducible).
        name: display name.

    ``act(observation float32[obs_size], action_mask int8[n], rng) -> int``.

    Raises:
        AgentError: ``act`` without a mask, or with a mask that has no legal action.
    """

    def __init__(self, model: Any, deterministic: bool = True, name: str = "ppo"):
        super().__init__()
        self.model = load_maskable_ppo(model) if isinstance(model, (str, Path)) else model
        self.deterministic = deterministic
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray | None, rng: np.random.Generator) -> int:
        if action_mask is None:
            raise AgentError("MaskablePPOAgent.act needs the action mask")
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise AgentError("the action mask has no legal action")
        if self.deterministic:
            action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
            return int(action)
        probs = self.action_probabilities(observation, mask)
        return int(rng.choice(probs.size, p=probs))

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``float64[n]`` probabilities of the masked policy (zero on illegal actions, sums to 1)."""
        import torch

        policy = self.model.policy
        obs_t, _ = policy.obs_to_tensor(observation)
        with torch.no_grad():
            dist = policy.get_distribution(obs_t, action_masks=np.asarray(action_mask, bool)[None])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs[~np.asarray(action_mask, bool)] = 0.0
        return probs / probs.sum()
