"""Self-play opponent pool: frozen snapshots of the learner's policy mixed with fixed agents.

The pool lives inside each training env (so it also works with ``SubprocVecEnv``); the trainer pushes new
snapshots with ``vec_env.env_method("add_snapshot", weights)``.  At every episode reset the wrapper asks the
pool for one opponent per opponent seat, drawn independently from the mix ``{"self": p, "random": q,
"heuristic": r, ...}``; ``"self"`` picks a snapshot uniformly from the pool (the newest ``pool_size``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from agents import make_agent
from agents.base import BaseAgent

__all__ = ["OpponentPool", "SnapshotAgent", "policy_weights"]


def policy_weights(policy: Any) -> OrderedDict[str, np.ndarray]:
    """A frozen copy of a torch policy's parameters as numpy arrays (picklable, detached from training)."""
    return OrderedDict((k, v.detach().cpu().numpy().copy()) for k, v in policy.state_dict().items())


class SnapshotAgent(BaseAgent):
    """Acts with a frozen MaskablePPO policy network (always masked), sampling with the agent's ``rng``.

    Args:
        policy: a ``MaskableActorCriticPolicy`` whose weights this agent owns.
        deterministic: take the most probable legal action instead of sampling.
        name: display name.
    """

    def __init__(self, policy: Any, deterministic: bool = False, name: str = "snapshot"):
        super().__init__()
        self.policy = policy
        self.deterministic = deterministic
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action from the frozen policy's masked distribution: sampled with ``rng`` (uniform over
        the legal actions if it gives them no mass), or its most probable when ``deterministic``."""
        import torch

        mask = np.asarray(action_mask, bool)
        with torch.no_grad():
            obs_t = torch.as_tensor(np.asarray(observation, np.float32)[None])
            dist = self.policy.get_distribution(obs_t, action_masks=mask[None])
            probs = dist.distribution.probs[0].numpy().astype(np.float64)
        probs[~mask] = 0.0
        if self.deterministic:
            return int(np.argmax(probs))
        s = probs.sum()
        if not s > 0:
            legal = np.flatnonzero(mask)
            return int(legal[rng.integers(legal.size)])
        return int(rng.choice(probs.size, p=probs / s))


class OpponentPool:
    """Opponent sampler for :class:`~training.wrapper.SingleAgentEnv`.

    Args:
        env_id: the game (fixed agents are built with :func:`agents.make_agent`).
        mix: ``{kind: weight}``; kinds are ``"self"`` (a snapshot) and any agent spec (``"random"``,
            ``"heuristic"``, ``"mcts:50"``, ...).  Weights need not sum to 1.
        pool_size: number of newest snapshots kept.
        make_policy: zero-argument callable building an untrained policy network of the learner's
            architecture (needed for ``"self"``).

    Raises:
        ValueError: empty mix, negative weights, or ``"self"`` without ``make_policy``.
    """

    def __init__(self, env_id: str, mix: Mapping[str, float], pool_size: int = 5, make_policy: Any = None):
        self.env_id = env_id
        self._make_policy = make_policy
        self.fixed: dict[str, Any] = {}
        self.counts: dict[str, int] = {}
        self.set_mix(mix)
        self.pool_size = int(pool_size)
        self.snapshots: list[Any] = []  # weights
        self._agents: list[SnapshotAgent] = []  # one reusable network per opponent seat

    def set_mix(self, mix: Mapping[str, float]) -> None:
        """Draw the next episodes' opponents from ``mix`` (the fixed agents of new kinds are built now; the
        snapshots and the counts of earlier draws stay).

        Raises:
            ValueError: empty mix, negative weights, or ``"self"`` without ``make_policy``.
        """
        if not mix or any(w < 0 for w in mix.values()) or sum(mix.values()) <= 0:
            raise ValueError(f"opponent mix needs non-negative weights with a positive sum, got {dict(mix)}")
        if mix.get("self", 0) > 0 and self._make_policy is None:
            raise ValueError("'self' in the opponent mix needs make_policy")
        kinds = list(mix)
        w = np.array([float(mix[k]) for k in kinds])
        for k in kinds:
            if k != "self" and k not in self.fixed:
                self.fixed[k] = make_agent(k, self.env_id, unattended=True)
            self.counts.setdefault(k, 0)
        self.kinds, self.probs = kinds, w / w.sum()

    def add_snapshot(self, weights: Mapping[str, np.ndarray]) -> None:
        """Add frozen weights (from :func:`policy_weights`); the oldest is dropped beyond ``pool_size``."""
        self.snapshots.append(weights)
        del self.snapshots[: max(0, len(self.snapshots) - self.pool_size)]

    def _snapshot_agent(self, slot: int, weights: Mapping[str, np.ndarray]) -> SnapshotAgent:
        import torch

        while len(self._agents) <= slot:
            pol = self._make_policy()
            pol.set_training_mode(False)
            self._agents.append(SnapshotAgent(pol, name=f"snapshot{len(self._agents)}"))
        agent = self._agents[slot]
        agent.policy.load_state_dict({k: torch.as_tensor(v) for k, v in weights.items()})
        return agent

    def __call__(self, rng: np.random.Generator, k: int) -> list[Any]:
        """``k`` opponents drawn independently from the mix (a snapshot per ``"self"`` draw)."""
        out = []
        for slot in range(k):
            kind = self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]
            if kind == "self" and not self.snapshots:
                kind = next((x for x in self.kinds if x != "self"), "self")
                if kind == "self":
                    raise RuntimeError("the opponent pool has no snapshot yet and no fixed opponent")
            self.counts[kind] += 1
            if kind == "self":
                out.append(self._snapshot_agent(slot, self.snapshots[int(rng.integers(len(self.snapshots)))]))
            else:
                out.append(self.fixed[kind])
        return out
