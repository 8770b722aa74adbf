"""The ``Agent`` protocol shared by every player of a Monolith game (random, heuristic, MCTS, PPO, human).

An agent chooses one action for the seat that must act::

    action = agent.act(observation, action_mask, rng)

* ``observation``: ``float32[obs_size]``, the acting seat's view (the ``"observation"`` entry of the AEC
  observation dict).
* ``action_mask``: ``int8`` (or ``bool``) ``[num_actions]``, 1 exactly for the legal actions.
* ``rng``: a ``numpy.random.Generator``; every random choice of the agent is drawn from it, so a seeded
  match is reproducible.
* returns a Python ``int`` with ``action_mask[action] == 1``.

Context hook.  Agents that need more than the observation (search, lookahead, the terminal UI) read the
rules engine through :meth:`BaseAgent.bind`: runners call ``agent.bind(env)`` with the AEC environment once
per episode, after ``env.reset``; the agent may then read ``env.unwrapped.game`` (the rules engine),
``env.unwrapped.game_state`` and ``env.unwrapped.agent_selection``.  Search agents must only use what the
acting seat may know: they go through ``game.resample_hidden(state, viewer, rng)`` before looking at a
state (see :mod:`monolith_envs.agents.mcts`).  ``agent.reset()`` is called at the start of every episode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Agent", "AgentError", "BaseAgent", "EnvContext", "check_bound_state", "check_mask", "check_rng",
           "masked_choice", "observation_vector"]


class AgentError(RuntimeError):
    """An agent cannot act: no legal action in the mask, or a required context (``bind``) is missing."""


@runtime_checkable
class Agent(Protocol):
    """What every agent implements (see the module docstring for shapes and dtypes)."""

    name: str

    def reset(self) -> None:
        """Forget everything about the previous episode."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """Return a legal action (``action_mask[action] == 1``)."""


def rules_env(env: Any) -> Any:
    """``env.unwrapped`` when ``env`` is an AEC env of :func:`monolith_envs.make` (wrapped or not: it has the
    rules engine and the seat names), else None."""
    raw = getattr(env, "unwrapped", None)
    return raw if hasattr(raw, "game") and hasattr(raw, "agent_name_mapping") else None


class EnvContext:
    """What :meth:`BaseAgent.bind` gives an agent: the rules engine and the live state of an AEC env.

    Args:
        env: a PettingZoo AEC env built by :func:`monolith_envs.make` (wrapped or not).

    Attributes:
        env: the env as given.
        raw: ``env.unwrapped`` (a :class:`~monolith_envs.core.aec.RulesAECEnv`).
        game: the rules engine (:class:`~monolith_envs.core.game.Game`).
    """

    def __init__(self, env: Any):
        raw = rules_env(env)
        if raw is None:
            raise AgentError(f"bind() needs an env of monolith_envs.make(), got {type(env).__name__}")
        self.env = env
        self.raw = raw
        self.game = self.raw.game

    @property
    def state(self) -> Any:
        """The true current game state (omniscient: search agents must resample hidden parts)."""
        return self.raw.game_state

    @property
    def seat(self) -> int:
        """Seat index of the agent to act now (``agent_selection``)."""
        return self.raw.agent_name_mapping[self.raw.agent_selection]


class BaseAgent:
    """Convenience base class: no-op :meth:`reset`, :meth:`bind` storing an :class:`EnvContext`.

    Subclasses implement :meth:`act`.  ``needs_env`` tells runners that :meth:`bind` is required.
    """

    name = "agent"
    needs_env = False
    #: the env id this agent's knowledge is for (a heuristic, a search with its value function), or ``None``
    #: for an agent of any game; :meth:`bind` refuses an env whose game is not of that id's game class
    made_for: str | None = None

    def __init__(self) -> None:
        self.ctx: EnvContext | None = None

    def reset(self) -> None:
        """Forget everything about the previous episode (default: nothing to forget)."""

    def bind(self, env: Any) -> None:
        """Give the agent read access to the env's rules engine and state (see the module docstring).

        Raises:
            AgentError: ``env`` is not an env of :func:`monolith_envs.make`, or the agent was made for another
                game (:attr:`made_for`).
        """
        ctx = EnvContext(env)
        if self.made_for is not None:
            import monolith_envs  # the package imports this module first

            if not isinstance(ctx.game, monolith_envs.game_class(self.made_for)):  # an alias id is the same game
                raise AgentError(f"{self.name} was made for {self.made_for}, bound to a "
                                 f"{getattr(ctx.game, 'env_id', type(ctx.game).__name__)} env")
        self.ctx = ctx

    def _require_ctx(self) -> EnvContext:
        if self.ctx is None:
            raise AgentError(f"{self.name} needs the env: call agent.bind(env) after env.reset()")
        return self.ctx

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action for the acting seat.

        Args:
            observation: ``float32[m]``, the acting seat's view (the AEC env's ``observe(agent)``).
            action_mask: ``int8``/``bool`` ``[n]``; the returned action has ``action_mask[action] == 1``.
            rng: the agent's source of randomness (seeded by the caller, so a match reproduces).

        Raises:
            NotImplementedError: a subclass must implement it.
            AgentError: the agent cannot act (e.g. it needs :meth:`bind` first).
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def observation_vector(name: str, observation: Any) -> np.ndarray:
    """The flat observation a network agent reads, ``float32[obs_size]``: the vector itself (a list, a numpy
    array, a torch tensor; one row of shape ``(1, obs_size)`` is taken as the vector), or the
    ``"observation"`` entry of the AEC env's ``{"observation", "action_mask"}`` dict (what ``env.last()``
    gives).

    Raises:
        AgentError: naming the agent, for anything else: not numbers (another dict, text, ``None``), a batch
            of several rows, or values that are not finite (NaN or inf).
    """
    if isinstance(observation, Mapping) and "observation" in observation:
        observation = observation["observation"]
    if hasattr(observation, "detach") and hasattr(observation, "cpu"):  # a torch tensor
        observation = observation.detach().cpu().numpy()
    try:
        raw = np.asarray(observation)
        out = None if raw.dtype == object else raw.astype(np.float32, copy=False)
    except (TypeError, ValueError, RuntimeError):
        out = None
    if out is not None and out.ndim == 2 and out.shape[0] == 1:
        out = out[0]
    if out is None or out.ndim != 1:
        shape = getattr(out, "shape", None)
        what = type(observation).__name__ + (f" of shape {shape}" if shape and len(shape) != 1 else "")
        raise AgentError(f"{name}: the observation must be the flat vector float32[obs_size] (or the env's dict "
                         f"with 'observation' and 'action_mask'), got {what}")
    if not np.isfinite(out).all():
        raise AgentError(f"{name}: the observation holds values that are not finite (NaN or inf); the envs' "
                         "observations are finite")
    return out


def masked_choice(action_mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action.

    Args:
        action_mask: ``int8``/``bool`` ``[n]``.
        rng: source of randomness.

    Raises:
        AgentError: the mask has no legal action, or is not one row (shape ``(n,)`` or ``(1, n)``), or
            ``rng`` is not a numpy ``Generator``.
    """
    check_rng(rng)
    mask = np.asarray(action_mask)
    if mask.ndim == 0 or mask.size != mask.shape[-1]:  # (n,) or a single row such as (1, n)
        raise AgentError(f"the action mask must be one row of the game's actions, got shape {mask.shape}")
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise AgentError("the action mask has no legal action")
    return int(legal[rng.integers(legal.size)])


def check_rng(rng: Any) -> None:
    """Raise :class:`AgentError` unless ``rng`` is a ``numpy.random.Generator`` (an agent's ``act`` draws
    from it)."""
    if not isinstance(rng, np.random.Generator):
        raise AgentError(f"act() needs rng, a numpy.random.Generator (e.g. np.random.default_rng(seed)), got "
                         f"{type(rng).__name__}")


def check_bound_state(ctx: EnvContext, action_mask: Any) -> None:
    """Raise :class:`AgentError` unless ``action_mask``'s legal actions are those of the bound env's current
    state: an agent that reads the state (heuristics, search) asked to act in another env than the one it is
    bound to would otherwise choose from that other game (bind the agent to each env before it acts there)."""
    legal = np.asarray(ctx.game.legal_mask(ctx.state), bool)
    if not np.array_equal(np.asarray(action_mask) != 0, legal):
        raise AgentError("the action mask is not the legal actions of the bound env's current state: the agent "
                         "is bound to another env (or game) than the one it acts in; call agent.bind(env) for the "
                         "env it acts in")


def check_mask(ctx: EnvContext, action_mask: Any) -> None:
    """Raise :class:`AgentError` unless ``action_mask`` is a 1-D array of the bound game's ``n`` actions."""
    n = ctx.game.layout.n
    try:
        shape = np.shape(action_mask)
    except ValueError:  # a ragged sequence
        shape = None
    if shape != (n,):
        raise AgentError(f"the action mask must have shape ({n},), one entry per action of {ctx.game.env_id}, got "
                         f"{'a ragged ' + type(action_mask).__name__ if shape is None else 'shape ' + str(shape)}")
