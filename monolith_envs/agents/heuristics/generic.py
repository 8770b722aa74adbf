"""Game-independent pieces of the heuristics: state policies and a one-ply lookahead agent.

A *state policy* is a callable ``policy(game, state, seat, rng) -> int`` choosing a legal action of
``seat`` from a (determinized) state; it is what MCTS uses for heuristic rollouts.  A *value function* is a
callable ``value(game, state) -> float32[num_players]`` estimating each seat's final return in ``[-1, 1]``
from a non-terminal state; MCTS uses it to score depth-limited rollouts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import BaseAgent, check_bound_state, check_mask, check_rng, masked_choice

__all__ = ["LookaheadAgent", "StatePolicy", "StatePolicyAgent", "ValueFn", "random_policy", "returns_value"]

StatePolicy = Callable[[Any, Any, int, np.random.Generator], int]
ValueFn = Callable[[Any, Any], np.ndarray]


def returns_value(game: Any, state: Any) -> np.ndarray:
    """The default value function: the engine's ``returns`` so far (``float32[num_players]``)."""
    return np.asarray(game.returns(state), np.float32)


def random_policy(game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
    """Uniform random legal action of the current player of ``state``."""
    return masked_choice(game.legal_mask(state), rng)


class StatePolicyAgent(BaseAgent):
    """An agent that decides from the rules-engine state (through :meth:`bind`) rather than the observation.

    Before deciding, the true state is replaced by ``game.resample_hidden(state, seat, rng)``: everything the
    acting seat may not know is redrawn, so the decision never depends on hidden information.

    Subclasses implement :meth:`policy`.

    Raises:
        AgentError: :meth:`act` before :meth:`bind`.
    """

    needs_env = True

    def policy(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        """Legal action for ``seat`` (the current player of ``state``)."""
        raise NotImplementedError

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action for the acting seat (arguments as :meth:`BaseAgent.act`).

        The bound env's state is first passed through ``resample_hidden`` for the seat, then :meth:`policy`
        chooses; an action the mask refuses falls back to a uniform legal one.

        Raises:
            AgentError: not bound to an env, a mask of another size, with no legal action or not that of the
                bound env's state (bound to another env), or no ``rng``.
        """
        ctx = self._require_ctx()
        check_mask(ctx, action_mask)
        check_bound_state(ctx, action_mask)
        check_rng(rng)
        seat = ctx.seat
        state = ctx.game.resample_hidden(ctx.state, seat, rng)
        a = int(self.policy(ctx.game, state, seat, rng))
        if not action_mask[a]:  # the determinized state must offer the same legal actions
            return masked_choice(action_mask, rng)
        return a


class LookaheadAgent(StatePolicyAgent):
    """One-ply lookahead: try every legal action on a clone, score the result, keep the best.

    Args:
        value: ``value(game, state) -> float32[num_players]``; the acting seat maximises its own entry.
            Default :func:`returns_value` (takes immediate wins, avoids immediate losses).
        name: display name.

    Ties are broken uniformly at random with the agent's ``rng``.
    """

    def __init__(self, value: ValueFn | None = None, name: str = "heuristic"):
        super().__init__()
        self.value = value or returns_value
        self.name = name

    def score(self, game: Any, state: Any, seat: int, action: int, rng: np.random.Generator) -> float:
        """Value for ``seat`` of the state after ``action``."""
        s = game.clone(state)
        game.apply(s, int(action), rng)
        if game.is_terminal(s):
            return float(game.returns(s)[seat]) * 1000.0
        return float(self.value(game, s)[seat])

    def policy(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        """The legal action with the best :meth:`score` for ``seat`` (ties broken with ``rng``)."""
        legal = np.flatnonzero(game.legal_mask(state))
        scores = np.array([self.score(game, state, seat, a, rng) for a in legal])
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return int(legal[best[rng.integers(best.size)]])
