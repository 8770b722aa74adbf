"""``OrderEnforcingEnv``: what ``<game>_v0.env()`` returns, PettingZoo's ``OrderEnforcingWrapper`` around the
bare :class:`~monolith_envs.core.aec.RulesAECEnv` with direct attribute access (ARCHITECTURE §2)."""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from .aec import _STEP_AFTER_END, ResetNeededError, RulesAECEnv
from .game import MonolithEnvError

__all__ = ["OrderEnforcingEnv"]


class OrderEnforcingEnv(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (same checks; before ``reset()`` every call raises
    :class:`ResetNeededError`, an ``AssertionError`` as PettingZoo's are) with direct access to the attributes
    read on every step (``agent_selection``, ``agents``, ``rewards``, ``terminations``, ``truncations``,
    ``infos``) and a direct ``last()``, ``step()`` and ``agent_iter()`` iterator, instead of two levels of
    ``__getattr__`` or ``super()`` calls per access: the wrapper otherwise costs about as much per decision
    as the adapter itself."""

    def _env_after_reset(self, name: str) -> RulesAECEnv:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return self.env

    agent_selection = property(lambda self: self._env_after_reset("agent_selection").agent_selection)
    agents = property(lambda self: self._env_after_reset("agents").agents)
    rewards = property(lambda self: self._env_after_reset("rewards").rewards)
    terminations = property(lambda self: self._env_after_reset("terminations").terminations)
    truncations = property(lambda self: self._env_after_reset("truncations").truncations)
    infos = property(lambda self: self._env_after_reset("infos").infos)
    _cumulative_rewards = property(lambda self: self.env._cumulative_rewards)

    def _check_reset(self, name: str) -> None:
        if not self._has_reset:  # PettingZoo's message, as the bare env's error type
            raise ResetNeededError(f"reset() needs to be called before {name}: call reset() first")

    def render(self) -> Any:
        """The env's ``render()``; :class:`ResetNeededError` before ``reset()``."""
        self._check_reset("render")
        return self.env.render()

    def observe(self, agent: Any) -> Any:
        """The env's ``observe(agent)``; :class:`ResetNeededError` before ``reset()``."""
        self._check_reset("observe")
        return self.env.observe(agent)

    def state(self) -> np.ndarray:
        """The env's ``state()``; :class:`ResetNeededError` before ``reset()``."""
        self._check_reset("state")
        return self.env.state()

    def step(self, action: Any) -> None:
        """The env's ``step``; :class:`ResetNeededError` before ``reset()``, and a step after the last agent
        left raises the bare env's :class:`MonolithEnvError` (PettingZoo's wrapper only warns)."""
        if not self._has_reset:
            self._check_reset("step")
        elif not self.env.agents:  # the same error as the bare env (not PettingZoo's mere warning)
            raise MonolithEnvError(_STEP_AFTER_END)
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> "_AgentIterable":
        """PettingZoo's order-enforcing ``agent_iter`` (same checks), with a direct ``__next__``.

        Raises:
            TypeError: ``max_iter`` is not a non-negative number (an integer, or a float such as ``1e6``).
            ResetNeededError: before ``reset()``.
        """
        if (isinstance(max_iter, bool) or not isinstance(max_iter, (int, float, np.integer, np.floating))
                or not max_iter >= 0):
            raise TypeError("agent_iter(max_iter): a non-negative number, an integer or a float such as 1e6 (the "
                            f"most agents to yield), got {max_iter!r:.40}")
        self._check_reset("agent_iter()")
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True):
        """``(observation, cumulative reward, termination, truncation, info)`` of ``agent_selection``."""
        self._check_reset("last")
        return self.env.last(observe)


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> "_AgentIterator":
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """``AECOrderEnforcingIterator`` reading the wrapped env's ``agents`` and ``agent_selection`` directly
    (the wrapper has been reset: ``agent_iter`` checks it)."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not wrapper._has_updated:  # PettingZoo asserts this; an error that `python -O` keeps
            raise MonolithEnvError("need to call step() or reset() in a loop over agent_iter: an agent was "
                                   "yielded and not stepped")
        wrapper._has_updated = False
        return env.agent_selection
