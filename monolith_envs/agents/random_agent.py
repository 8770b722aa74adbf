"""``RandomAgent``: uniform over the legal actions of the action mask."""

from __future__ import annotations

import numpy as np

from .base import BaseAgent, masked_choice

__all__ = ["RandomAgent"]


class RandomAgent(BaseAgent):
    """Chooses uniformly among the actions with ``action_mask[a] == 1`` (uses only the mask and ``rng``).

    Raises:
        AgentError: from :meth:`act` when the mask is empty.
    """

    name = "random"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action for the acting seat (arguments as :meth:`BaseAgent.act`).

        Returns a uniformly drawn legal action.

        Raises:
            AgentError: a mask with no legal action, or ``rng`` not a numpy ``Generator``.
        """
        return masked_choice(action_mask, rng)
