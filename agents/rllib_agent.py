"""``RLlibAgent``: the shared policy of a :mod:`training.rllib` checkpoint behind the Agent protocol.

``rllib:PATH`` in :func:`agents.make_agent` builds one.  ``PATH`` is an algorithm checkpoint written by
``training.rllib`` (``<run>/final_checkpoint``, ``<run>/checkpoints/step_N``) or the RLModule folder
inside it (``.../learner_group/learner/rl_module/shared``).  The module is loaded in this process, on the
CPU; no Ray instance is needed, but the ``[distributed]`` extra is (the module class is RLlib's).  The
action mask goes into the module with every observation, so an illegal action has probability 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .base import AgentError, BaseAgent

__all__ = ["RLlibAgent", "load_rllib_module", "module_dir"]

_INNER = Path("learner_group") / "learner" / "rl_module" / "shared"


def module_dir(path: str | Path) -> Path:
    """The shared RLModule's folder of an algorithm checkpoint (or ``path`` itself if it is one).

    Raises:
        FileNotFoundError: neither ``path`` nor ``path/learner_group/learner/rl_module/shared`` holds one.
    """
    p = Path(path)
    for cand in (p / _INNER, p):
        if (cand / "module_state.pt").exists() or (cand / "class_and_ctor_args.pkl").exists():
            return cand
    raise FileNotFoundError(f"no RLlib checkpoint of training.rllib at {p} (expected {p / _INNER})")


def load_rllib_module(path: str | Path) -> Any:
    """Load the shared :class:`~training.rllib_module.MaskedPPOTorchRLModule` of a checkpoint (eval mode).

    Raises:
        FileNotFoundError: no checkpoint at ``path``.
        AgentError: the ``[distributed]`` extra (Ray RLlib) is not installed.
    """
    d = module_dir(path)
    try:
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError:
        raise AgentError("rllib: agents need Ray RLlib: pip install -e '.[distributed]'") from None
    module = RLModule.from_checkpoint(str(d))
    module.eval()
    return module


class RLlibAgent(BaseAgent):
    """Acts with the shared policy of a ``training.rllib`` checkpoint.

    Args:
        module: a loaded module, or a checkpoint path (see :func:`module_dir`).
        deterministic: True (default) takes the most probable legal action; False samples from the masked
            distribution with the agent's ``rng`` (reproducible).
        name: display name.

    ``act(observation float32[obs_size], action_mask int8[n], rng) -> int``.

    Raises:
        AgentError: ``act`` with a mask that has no legal action.
    """

    def __init__(self, module: Any, deterministic: bool = True, name: str = "rllib"):
        super().__init__()
        self.module = load_rllib_module(module) if isinstance(module, (str, Path)) else module
        self.deterministic = deterministic
        self.name = name

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``float64[n]``: the masked policy's probabilities (exactly 0 on illegal actions)."""
        return self.module.action_probabilities(observation, action_mask)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise AgentError("the action mask has no legal action")
        probs = self.action_probabilities(observation, mask)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(rng.choice(probs.size, p=probs / probs.sum()))
