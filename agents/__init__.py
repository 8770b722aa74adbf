"""Agents for the Monolith games: random, per-game heuristics, (IS)MCTS, MaskablePPO, human.

Every agent follows :class:`~agents.base.Agent`: ``act(observation, action_mask, rng) -> int`` and
``reset()``; search-based agents also need ``bind(env)`` (see :mod:`agents.base`).  :func:`make_agent`
builds one from a short spec string, as used on the command lines:

========================  ====================================================================
``random``                :class:`RandomAgent`
``heuristic``             the game's heuristic (:func:`agents.heuristics.heuristic_for`)
``mcts:N[:key=val...]``   :class:`MCTSAgent` with N simulations; keys ``c``, ``rollout``
                          (``random``/``heuristic``), ``depth`` (rollout depth, ``none`` = to the end),
                          ``k`` (root actions kept after the game's prior, ``none`` = all)
``ppo:PATH``              :class:`MaskablePPOAgent` loading a saved MaskablePPO ``.zip``
``rllib:PATH``            :class:`~agents.rllib_agent.RLlibAgent`: the shared policy of a
                          ``training.rllib`` checkpoint (needs the ``[distributed]`` extra)
``az:PATH[+search:N]``    :class:`~agents.az_agent.AZAgent`: a ``training.az`` network, alone or with
                          its own search of N simulations
``human``                 :class:`HumanAgent` (terminal)
========================  ====================================================================
"""

from __future__ import annotations

from typing import Any

from .base import Agent, AgentError, BaseAgent, EnvContext, masked_choice
from .heuristics import heuristic_for, heuristic_module, prior_fn_for, rollout_policy_for, value_fn_for
from .human import HumanAgent
from .match import MatchResult, play_match
from .mcts import MCTSAgent
from .ppo import MaskablePPOAgent
from .random_agent import RandomAgent

__all__ = [
    "Agent",
    "AgentError",
    "AgentSpecError",
    "BaseAgent",
    "EnvContext",
    "HumanAgent",
    "MCTSAgent",
    "MaskablePPOAgent",
    "MatchResult",
    "RandomAgent",
    "heuristic_for",
    "make_agent",
    "masked_choice",
    "play_match",
]


class AgentSpecError(ValueError):
    """An agent spec string that cannot be parsed (the message shows the accepted forms)."""


_FORMS = ("random | heuristic | mcts:N[:c=1.4][:rollout=random|heuristic][:depth=D|none][:k=K|none] | ppo:PATH "
          "| rllib:CHECKPOINT | az:PATH[+search:N] | human")


def mcts_for(env_id: str, simulations: int, **overrides: Any) -> MCTSAgent:
    """An :class:`MCTSAgent` with the game's defaults (``MCTS_DEFAULTS`` of its heuristic module), overridden
    by ``overrides`` (``c``, ``rollout``, ``rollout_depth``)."""
    mod = heuristic_module(env_id)
    opts: dict[str, Any] = dict(getattr(mod, "MCTS_DEFAULTS", {}) or {})
    opts.update(overrides)
    rollout = opts.pop("rollout", "random")
    return MCTSAgent(
        simulations=simulations,
        rollout=rollout,
        rollout_policy=rollout_policy_for(env_id) if rollout == "heuristic" else None,
        value_fn=value_fn_for(env_id),
        prior_fn=prior_fn_for(env_id),
        **opts,
    )


def _number(text: str, kind: type, what: str, spec: str) -> Any:
    """``text`` as an ``int`` or ``float`` (``kind``); an :class:`AgentSpecError` naming ``what`` otherwise."""
    try:
        return kind(text)
    except ValueError:
        noun = "an integer" if kind is int else "a number"
        raise AgentSpecError(f"bad agent spec {spec!r}: {what} must be {noun}, got {text!r}; accepted: {_FORMS}") from None


def make_agent(spec: str, env_id: str) -> Any:
    """Build an agent from a spec string (see the module docstring) for ``env_id``.

    Raises:
        AgentSpecError: unknown agent kind or malformed options.
        FileNotFoundError: ``ppo:PATH`` / ``rllib:PATH`` with no such model or checkpoint.
    """
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "random" and not rest:
        return RandomAgent()
    if kind == "heuristic" and not rest:
        return heuristic_for(env_id)
    if kind == "human" and not rest:
        return HumanAgent()
    if kind == "ppo" and rest:
        return MaskablePPOAgent(rest, name=f"ppo:{rest}")
    if kind == "rllib" and rest:
        from .rllib_agent import RLlibAgent

        return RLlibAgent(rest, name=f"rllib:{rest}")
    if kind == "az" and rest:  # a training.az network: az:PATH or az:PATH+search:N
        from .az_agent import AZAgent, parse_az_spec

        try:
            path, sims = parse_az_spec(rest)
        except ValueError as e:
            raise AgentSpecError(f"bad agent spec {spec!r}: {e}; accepted: {_FORMS}") from None
        return AZAgent(path, sims, name=spec.strip())
    if kind == "mcts":
        parts = rest.split(":") if rest else ["200"]
        try:
            sims = _number(parts[0], int, "the number of simulations N in mcts:N", spec)
            opts: dict[str, Any] = {}
            for p in parts[1:]:
                k, _, v = p.partition("=")
                if k == "c":
                    opts["c"] = _number(v, float, "c (the exploration constant)", spec)
                elif k == "rollout":
                    opts["rollout"] = v
                elif k == "depth":
                    opts["rollout_depth"] = None if v.lower() == "none" else _number(v, int, "depth", spec)
                elif k == "k":
                    opts["root_k"] = None if v.lower() == "none" else _number(v, int, "k", spec)
                else:
                    raise AgentSpecError(f"unknown MCTS option {k!r} in {spec!r}; accepted: {_FORMS}")
            agent = mcts_for(env_id, sims, **opts)
        except AgentSpecError:
            raise
        except ValueError as e:
            raise AgentSpecError(f"bad agent spec {spec!r}: {e}; accepted: {_FORMS}") from None
        agent.name = spec.strip()
        return agent
    raise AgentSpecError(f"unknown agent spec {spec!r}; accepted: {_FORMS}")
