"""A minimal single-agent Gymnasium view of any PettingZoo AEC env: one learner seat vs random opponents.

Used for the training-throughput benchmark of the reference games, and for Monolith envs when
``training.wrapper.SingleAgentEnv`` is not importable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

__all__ = ["AecSingleAgentEnv", "RandomOpponent"]


class RandomOpponent:
    """Uniform random legal action (the ``agents`` protocol: ``reset()`` and ``act(obs, mask, rng)``)."""

    name = "random"

    def reset(self) -> None:
        """Nothing to reset."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action drawn uniformly with ``rng``."""
        legal = np.flatnonzero(action_mask)
        return int(legal[rng.integers(legal.size)])


class AecSingleAgentEnv(gym.Env):
    """The learner plays one seat (rotating every episode); the other seats play uniformly at random.

    Args:
        make_aec: zero-argument factory of the AEC env (observations ``{"observation", "action_mask"}``).
        seed: seeds the episode seeds and the opponents.

    ``observation_space`` is a flat ``float32`` Box of the AEC observation's size; ``step`` returns the
    learner's reward summed over every AEC step since its previous decision; ``action_masks()`` gives the
    learner's legal actions for ``sb3_contrib.MaskablePPO``.
    """

    metadata: ClassVar[dict] = {"render_modes": []}

    def __init__(self, make_aec: Callable[[], Any], seed: int = 0):
        super().__init__()
        self.aec = make_aec()
        a0 = self.aec.possible_agents[0]
        n_obs = int(np.prod(self.aec.observation_space(a0)["observation"].shape))
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, shape=(n_obs,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(int(self.aec.action_space(a0).n))
        self._rng = np.random.default_rng(seed)
        self._episode = 0
        self._me = a0
        self._opponent = RandomOpponent()
        self._mask = np.zeros(self.action_space.n, bool)
        self._obs = np.zeros(n_obs, np.float32)
        self.opponent_steps = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """New episode; opponents move until the learner must decide. Returns ``(obs, info)``."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        aec = self.aec
        self._me = aec.possible_agents[self._episode % len(aec.possible_agents)]
        self._episode += 1
        aec.reset(seed=int(self._rng.integers(2**62)))
        _r, done = self._play_opponents()
        if done:
            return self.reset()
        return self._obs, {}

    def step(self, action: int):
        """Learner acts, then the opponents. Returns ``(obs, reward, terminated, truncated, info)``."""
        aec = self.aec
        me = self._me
        aec.step(int(action))
        reward = float(aec.rewards.get(me, 0.0))
        more, _done = self._play_opponents()
        reward += more
        terminated = bool(aec.terminations.get(me, False))
        truncated = bool(aec.truncations.get(me, False)) and not terminated
        return self._obs, reward, terminated, truncated, {}

    def action_masks(self) -> np.ndarray:
        """``bool[num_actions]``: the learner's legal actions (all False once the episode is over)."""
        return self._mask

    def _play_opponents(self) -> tuple[float, bool]:
        aec = self.aec
        me = self._me
        reward = 0.0
        while True:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                self._mask = np.zeros(self.action_space.n, bool)
                return reward, True
            obs = aec.observe(agent)
            if agent == me:
                self._mask = np.asarray(obs["action_mask"], bool)
                self._obs = np.asarray(obs["observation"], np.float32).ravel()
                return reward, False
            aec.step(self._opponent.act(obs["observation"], obs["action_mask"], self._rng))
            self.opponent_steps += 1
            reward += float(aec.rewards.get(me, 0.0))
