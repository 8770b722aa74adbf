"""Per-game heuristics behind the :class:`~monolith_envs.agents.base.Agent` protocol, found by ``heuristic_for(env_id)``.

Lookup order for an env id:

1. an explicit :func:`register_heuristic` entry;
2. by convention, the module ``monolith_envs.agents.heuristics.<pkg>`` where ``<pkg>`` is the game's package inside
   ``monolith_envs`` (``monolith_envs.arena.*`` -> ``monolith_envs.agents.heuristics.arena``).  The module defines
   ``make_heuristic(env_id, **kw) -> Agent`` and may define ``state_value(game, state)`` (a value
   function, see :mod:`monolith_envs.agents.heuristics.generic`), ``state_policy(game, state, seat, rng)`` (a fast
   policy for MCTS rollouts), ``action_prior(game, state, seat, legal, rng)`` (scores for MCTS root
   pruning) and ``MCTS_DEFAULTS`` (default :class:`~monolith_envs.agents.mcts.MCTSAgent` options);
3. otherwise the generic one-ply :class:`~monolith_envs.agents.heuristics.generic.LookaheadAgent` on the engine's
   returns.

So a new game plugs in by adding one file here, with no change to the agents, training or evaluation.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .generic import LookaheadAgent, StatePolicy, ValueFn, returns_value

__all__ = [
    "heuristic_for",
    "heuristic_module",
    "prior_fn_for",
    "register_heuristic",
    "rollout_policy_for",
    "value_fn_for",
]

_REGISTERED: dict[str, ModuleType | Any] = {}
_FOUND: dict[str, ModuleType | None] = {}  # convention lookups, cached per env id


def register_heuristic(env_id: str, module: Any) -> None:
    """Register a heuristic module-like object (with ``make_heuristic`` and optionally ``state_value``,
    ``state_policy``) for ``env_id``; it wins over the naming convention."""
    _REGISTERED[env_id] = module


def heuristic_module(env_id: str) -> Any | None:
    """The heuristic module of ``env_id`` (registered, or found by convention), or ``None``."""
    if env_id in _REGISTERED:
        return _REGISTERED[env_id]
    if env_id in _FOUND:
        return _FOUND[env_id]
    import monolith_envs

    game = monolith_envs.make_game(env_id)
    parts = type(game).__module__.split(".")
    found = None
    if len(parts) >= 2 and parts[0] == "monolith_envs":
        try:
            found = importlib.import_module(f"{__name__}.{parts[1]}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{parts[1]}":
                raise
    _FOUND[env_id] = found
    return found


def heuristic_for(env_id: str, **kwargs: Any):
    """The heuristic agent of ``env_id`` (an :class:`~monolith_envs.agents.base.Agent` that needs ``bind(env)``).

    Args:
        env_id: a registered env id.
        **kwargs: passed to the game's ``make_heuristic`` (ignored by the generic fallback).

    Raises:
        monolith_envs.UnknownEnvError: unknown env id.  (The game's own heuristic's ``bind`` raises
            :class:`~monolith_envs.agents.base.AgentError` for an env of another game.)
    """
    mod = heuristic_module(env_id)
    if mod is not None and hasattr(mod, "make_heuristic"):
        agent = mod.make_heuristic(env_id, **kwargs)
        try:
            agent.made_for = env_id  # its bind() refuses another game's env
        except (AttributeError, TypeError):  # a plugin's agent that takes no new attribute: left unchecked
            pass
        return agent
    return LookaheadAgent(returns_value, name="heuristic")


def value_fn_for(env_id: str) -> ValueFn:
    """The game's ``state_value`` if its heuristic module defines one, else :func:`returns_value`."""
    mod = heuristic_module(env_id)
    return getattr(mod, "state_value", None) or returns_value


def prior_fn_for(env_id: str) -> Callable | None:
    """The game's ``action_prior(game, state, seat, legal, rng)`` for MCTS root pruning, or ``None``."""
    return getattr(heuristic_module(env_id), "action_prior", None)


def rollout_policy_for(env_id: str) -> StatePolicy:
    """The game's fast ``state_policy`` for rollouts, else the generic lookahead policy."""
    mod = heuristic_module(env_id)
    fn: Callable | None = getattr(mod, "state_policy", None)
    if fn is not None:
        return fn
    agent = LookaheadAgent(returns_value)
    return agent.policy
