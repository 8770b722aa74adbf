"""The agent library of the Monolith games: random, per-game heuristics, (IS)MCTS, MaskablePPO, RLlib.

Every agent follows :class:`~monolith_envs.agents.base.Agent`: ``act(observation, action_mask, rng) -> int``
and ``reset()``; search-based agents also need ``bind(env)`` (see :mod:`monolith_envs.agents.base`).
:func:`make_agent` builds one from a short spec string, as used on the command lines and by the
single-agent wrapper's ``opponents``:

========================  ====================================================================
``random``                :class:`RandomAgent`
``heuristic``             the game's heuristic (:func:`monolith_envs.agents.heuristics.heuristic_for`)
``mcts:N[:key=val...]``   :class:`MCTSAgent` with N simulations (1 to 10**6); keys ``c`` (0 to 100),
                          ``rollout`` (``random``/``heuristic``), ``depth`` (rollout depth, 0 to 10**6,
                          ``none`` = to the end), ``k`` (root actions kept after the game's prior, 1 to
                          10**6, ``none`` = all); each key at most once; plain ``mcts`` is ``mcts:200``
``ppo:PATH``              :class:`MaskablePPOAgent` loading a saved MaskablePPO ``.zip`` (needs the
                          ``[train]`` extra; untrusted: see :mod:`monolith_envs.agents.model_files`)
``rllib:PATH``            :class:`~monolith_envs.agents.rllib_agent.RLlibAgent`: the shared policy of a
                          ``training.rllib`` checkpoint (needs the ``[distributed]`` extra; untrusted)
``baseline``              :class:`~monolith_envs.agents.baselines.BaselineAgent`: the shipped pretrained
                          network of the game config (chosen by env id, seats and Arena's mode when bound
                          to the env, or from ``env_config``), its most probable legal action; needs torch
``baseline+search:N``     the same network guiding a PUCT search of N simulations (1 to 10**6) per move;
                          ``:mix=X`` (0 to 1) mixes the game's heuristic state value into the leaf values
========================  ====================================================================

Other kinds are added with :func:`register_agent_kind`; the repository's ``agents`` package (the commands
next to this library) registers ``human``, the terminal player, and ``az:PATH[+search:N]`` (a
``training.az`` checkpoint), so those two work in the repository's commands (``agents.play``,
``training.evaluate``) and after ``import agents`` from the repository root, not in an installed package alone.  Nothing here imports torch, SB3 or Ray
until a ``ppo:``, ``rllib:`` or ``baseline`` agent is built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.config import plain_float, plain_int, short_repr
from .base import Agent, AgentError, BaseAgent, EnvContext, masked_choice
from .baselines import BaselineAgent, NoBaselineError, parse_baseline_options
from .heuristics import heuristic_for, heuristic_module, prior_fn_for, rollout_policy_for, value_fn_for
from .match import MatchResult, play_match
from .mcts import MCTSAgent
from .ppo import MaskablePPOAgent
from .random_agent import RandomAgent

__all__ = [
    "Agent",
    "AgentError",
    "AgentSpecError",
    "BaseAgent",
    "BaselineAgent",
    "EnvContext",
    "MCTSAgent",
    "MaskablePPOAgent",
    "MatchResult",
    "NoBaselineError",
    "RandomAgent",
    "accepted_forms",
    "heuristic_for",
    "make_agent",
    "masked_choice",
    "play_match",
    "register_agent_kind",
]


class AgentSpecError(ValueError):
    """An agent spec string that cannot be parsed (the message shows the accepted forms)."""


#: kinds that the repository's ``agents`` package registers (:func:`register_agent_kind`) when imported (its
#: ``human`` has a message of its own)
REPO_KINDS = ("az",)
#: the kinds :func:`make_agent` knows itself (``baseline+search`` is ``baseline`` with its search)
_BUILTIN_KINDS = ("random", "heuristic", "mcts", "ppo", "rllib", "baseline")
_BASE_FORMS = ("random | heuristic | mcts:N[:c=1.4][:rollout=random|heuristic][:depth=D|none][:k=K|none] "
               "| ppo:PATH | rllib:CHECKPOINT | baseline | baseline+search:N[:mix=X]")
#: kind -> (factory(rest, env_id) -> agent, the form shown in messages, whether it needs a person at the
#: terminal), added by :func:`register_agent_kind`
_KINDS: dict[str, tuple[Callable[[str, str], Any], str, bool]] = {}


def accepted_forms(unattended: bool = False) -> str:
    """The agent spec forms that :func:`make_agent` accepts, as its error messages list them: the built-in
    kinds, then the registered ones in order of registration; with ``unattended``, less the kinds registered
    with ``needs_person`` (such as the repository's ``human``)."""
    return " | ".join([_BASE_FORMS] + [f for _, f, person in _KINDS.values() if not (unattended and person)])


def register_agent_kind(kind: str, factory: Callable[[str, str], Any], form: str | None = None, *,
                        needs_person: bool = False) -> None:
    """Let :func:`make_agent` build ``kind`` specs (``kind`` or ``kind:REST``) with ``factory(rest, env_id)``.

    Args:
        kind: the lower-case word before the first ``:`` (not one of the built-in kinds).
        factory: called with the text after ``kind:`` (``""`` for a bare ``kind``) and the env id; it returns
            the agent, or raises :class:`AgentSpecError` / ``ValueError`` for a malformed rest.
        form: how the kind is written in the "accepted:" list of error messages (default: ``kind``).
        needs_person: the agent asks a person for its moves (``human``); ``make_agent(..., unattended=True)``
            refuses it and leaves it out of the accepted forms.

    Raises:
        ValueError: ``kind`` is empty, not lower-case letters, digits and ``_``, or a built-in kind.
    """
    if not (isinstance(kind, str) and kind and kind == kind.lower() and kind.replace("_", "a").isalnum()):
        raise ValueError(f"agent kind must be a lower-case word (letters, digits, _), got {kind!r}")
    if kind in _BUILTIN_KINDS:
        raise ValueError(f"agent kind {kind!r} is built in and cannot be registered again")
    _KINDS[kind] = (factory, form or kind, bool(needs_person))


def mcts_for(env_id: str, simulations: int, **overrides: Any) -> MCTSAgent:
    """An :class:`MCTSAgent` with the game's defaults (``MCTS_DEFAULTS`` of its heuristic module), overridden
    by ``overrides`` (``c``, ``rollout``, ``rollout_depth``)."""
    mod = heuristic_module(env_id)
    opts: dict[str, Any] = dict(getattr(mod, "MCTS_DEFAULTS", {}) or {})
    opts.update(overrides)
    rollout = opts.pop("rollout", "random")
    agent = MCTSAgent(
        simulations=simulations,
        rollout=rollout,
        rollout_policy=rollout_policy_for(env_id) if rollout == "heuristic" else None,
        value_fn=value_fn_for(env_id),
        prior_fn=prior_fn_for(env_id),
        **opts,
    )
    if mod is not None:  # the game's value, priors and rollouts: its bind() refuses another game's env
        agent.made_for = env_id
    return agent


def _number(text: str, kind: type, what: str, spec: str, forms: str) -> Any:
    """``text`` as an ``int`` or ``float`` (``kind``); an :class:`AgentSpecError` naming ``what`` otherwise."""
    try:
        return plain_int(text) if kind is int else plain_float(text)
    except ValueError:
        noun = "an integer" if kind is int else "a number"
        raise AgentSpecError(f"bad agent spec {short_repr(spec)}: {what} must be {noun}, got {short_repr(text)}; "
                             f"accepted: {forms}") from None


def make_agent(spec: str, env_id: str, env_config: dict | None = None, *, unattended: bool = False) -> Any:
    """Build an agent from a spec string (see the module docstring) for ``env_id``.

    ``env_config`` (optional, the game config) lets a ``baseline`` agent choose its network now, so a config
    without a baseline fails here; without it the network is chosen when the agent is bound to its env.

    Raises:
        UnknownEnvError: ``env_id`` is not a registered env id.
        ConfigError: ``env_config`` is not a mapping (or None).
        AgentSpecError: a spec that is not a string, unknown agent kind, malformed options, a number outside
            its range (the message names the range; the bounds are :class:`MCTSAgent`'s), or a path that
            cannot be looked at.
        FileNotFoundError: ``ppo:PATH`` / ``rllib:PATH`` with no such model or checkpoint.
        monolith_envs.agents.model_files.ModelFileError: a model file that cannot be loaded (``ModelTrustError``: not without
            running code from it).
        NoBaselineError: ``baseline`` for an env id (or ``env_config``) without a shipped baseline; the
            message names the configs that have one.
        AgentError: ``baseline`` without torch installed; ``ppo:PATH`` with ``env_config`` whose model takes
            other observation or action sizes than that game and config.

    With ``unattended`` (agents that play on their own, as in ``training.evaluate``) a kind registered with
    ``needs_person`` is refused, and the accepted forms in messages leave such kinds out.
    """
    forms = accepted_forms(unattended)
    if env_config is not None and not isinstance(env_config, Mapping):
        from ..core.config import ConfigError

        raise ConfigError(f"make_agent: env_config must be a dict (a mapping) of game config keys, or None; got "
                          f"{type(env_config).__name__} {short_repr(env_config)}")
    if not isinstance(spec, str):
        raise AgentSpecError(f"an agent spec is a string, got {type(spec).__name__} {short_repr(spec)}; accepted: {forms}")
    if "\x00" in spec:  # no path or option holds one (the system refuses such a path)
        raise AgentSpecError(f"bad agent spec {short_repr(spec)}: it contains a NUL character; accepted: {forms}")
    import monolith_envs  # the package imports this module first

    if env_id not in monolith_envs.available_envs():
        monolith_envs.env_module(env_id)  # UnknownEnvError naming the ids (also for agents that never look)
    kind, sep, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind in ("baseline", "baseline+search"):
        try:
            sims, mix = parse_baseline_options(spec)
        except ValueError as e:
            raise AgentSpecError(f"bad agent spec {short_repr(spec)}: {e}; accepted: {forms}") from None
        return BaselineAgent(env_id, simulations=sims, env_config=env_config, name=spec.strip(), leaf_mix=mix)
    if kind in ("random", "heuristic"):
        if sep:  # "random:", "heuristic:3"
            raise AgentSpecError(f"bad agent spec {short_repr(spec)}: {kind!r} takes no options (write it alone); "
                                 f"accepted: {forms}")
        return RandomAgent() if kind == "random" else heuristic_for(env_id)
    if kind in _KINDS and unattended and _KINDS[kind][2]:
        raise AgentSpecError(f"agent spec {short_repr(spec)} asks a person for its moves, and these agents play "
                             f"unattended; accepted here: {forms}")
    if kind in _KINDS:
        try:
            agent = _KINDS[kind][0](rest, env_id)
        except (AgentSpecError, FileNotFoundError, AgentError):
            raise
        except ValueError as e:
            raise AgentSpecError(f"bad agent spec {short_repr(spec)}: {e}; accepted: {forms}") from None
        check_game = getattr(agent, "check_game", None)
        if env_config is not None and callable(check_game):  # e.g. an az: checkpoint of another seat count
            # through make(): env_config may hold the env's own keys (illegal_action, mask_in) beside the game's
            check_game(monolith_envs.make(env_id, wrapped=False, **env_config).game, f"{env_id} {env_config}")
        return agent
    if kind == "human" and not rest:
        raise AgentSpecError("agent spec 'human' is the terminal player of the repository's commands: run "
                             "'python -m agents.play' from the repository root (it registers 'human'); "
                             f"accepted here: {forms}")
    if kind in ("ppo", "rllib") and not rest:  # "ppo", "ppo:"
        what = "a model file (ppo:PATH)" if kind == "ppo" else "a checkpoint folder (rllib:PATH)"
        raise AgentSpecError(f"bad agent spec {short_repr(spec)}: {kind} needs the path of {what}; accepted: {forms}")
    if kind in ("ppo", "rllib"):
        game = None
        if env_config is not None:  # its errors are the config's, not the path's
            from monolith_envs import make_game

            game = make_game(env_id, **env_config)
        try:
            if kind == "ppo":
                agent = MaskablePPOAgent(rest, name=f"ppo:{rest}")
            else:
                from .rllib_agent import RLlibAgent

                agent = RLlibAgent(rest, name=f"rllib:{rest}")
            if game is not None:  # a model of another game or config fails here, not at its first move
                agent.check_game(game, f"{env_id} {env_config}")
            return agent
        except (FileNotFoundError, AgentError):
            raise
        except (OSError, ValueError) as e:  # a path the system refuses to look at (too long, ...)
            raise AgentSpecError(f"bad agent spec {short_repr(spec)}: the path cannot be read "
                                 f"({getattr(e, 'strerror', None) or e})") from None
    if kind == "mcts":
        if sep and not rest:
            raise AgentSpecError(f"bad agent spec {short_repr(spec)}: the number of simulations N of mcts:N is missing "
                                 f"(plain 'mcts' means mcts:200); accepted: {forms}")
        parts = rest.split(":") if rest else ["200"]
        try:
            sims = _number(parts[0], int, "the number of simulations N in mcts:N", spec, forms)
            opts: dict[str, Any] = {}
            seen: set[str] = set()
            for p in parts[1:]:
                k, _, v = p.partition("=")
                if k in seen:
                    raise AgentSpecError(f"bad agent spec {short_repr(spec)}: option {short_repr(k)} given twice; accepted: {forms}")
                seen.add(k)
                if k == "c":
                    opts["c"] = _number(v, float, "c (the exploration constant)", spec, forms)
                elif k == "rollout":
                    opts["rollout"] = v
                elif k == "depth":
                    opts["rollout_depth"] = None if v.lower() == "none" else _number(v, int, "depth", spec, forms)
                elif k == "k":
                    opts["root_k"] = None if v.lower() == "none" else _number(v, int, "k", spec, forms)
                else:
                    raise AgentSpecError(f"unknown MCTS option {short_repr(k)} in {short_repr(spec)}; accepted: {forms}")
            agent = mcts_for(env_id, sims, **opts)
        except AgentSpecError:
            raise
        except ValueError as e:
            raise AgentSpecError(f"bad agent spec {short_repr(spec)}: {e}; accepted: {forms}") from None
        agent.name = spec.strip()
        return agent
    hint = ""
    if kind in REPO_KINDS:  # registered by the repository's agents package, which is not imported here
        hint = (f" ({kind!r} agents are added by the repository's agents package: run the repository's commands "
                "from its root, or `import agents` there first)")
    else:
        import difflib

        kinds = [*_BUILTIN_KINDS, "baseline+search"]
        kinds += [k for k, (_, _, person) in _KINDS.items() if not (unattended and person)]
        close = difflib.get_close_matches(kind, kinds, n=1, cutoff=0.75)
        if close:
            hint = f" (did you mean {close[0]!r}?)"
    raise AgentSpecError(f"unknown agent spec {short_repr(spec)}{hint}; accepted: {forms}")
