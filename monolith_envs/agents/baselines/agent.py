"""``BaselineAgent``: a shipped pretrained baseline as a player, alone or with its own PUCT search."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from ..base import AgentError, BaseAgent, check_bound_state, check_rng, observation_vector
from ..puct import FiniteOutputs, check_finite_outputs
from .registry import find_baseline, load_baseline

__all__ = ["BaselineAgent", "VariantWarning", "parse_baseline_options", "parse_baseline_spec",
           "variant_differences", "warn_variant"]


class VariantWarning(UserWarning):
    """A trained network (a baseline, an ``az:`` checkpoint) plays a rules variant it was not trained on (e.g.
    Arena's ``monolith_module=True`` for a file trained without it): it plays, weaker. Given once per process
    for each file and variant (:func:`warn_variant`)."""


#: (file, differences) already warned about in this process
_WARNED: set = set()


def warn_variant(agent: str, network: str, trained: dict, config: dict, stacklevel: int = 3) -> None:
    """Warn (:class:`VariantWarning`, once per process for each ``network`` and difference) when ``config``
    plays rules that ``trained``, the config the network was trained on, did not (:func:`variant_differences`).
    ``agent`` is the agent's name, ``network`` the words for its network (``baseline arena_2p``)."""
    differ = variant_differences(trained or {}, dict(config))
    key = (network, tuple((k, repr(t), repr(v)) for k, t, v in differ))
    if differ and key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(f"{agent}: {network} was trained with " + ", ".join(f"{k}={t!r}" for k, t, _ in differ)
                      + "; this game has " + ", ".join(f"{k}={v!r}" for k, _, v in differ)
                      + ": it plays, but on rules it never saw, so expect it to be weaker", VariantWarning,
                      stacklevel=stacklevel + 1)

#: most simulations of ``baseline+search:N``
MAX_SIMULATIONS = 10**6


def parse_baseline_options(spec: str) -> tuple[int, float]:
    """``"baseline"`` -> ``(0, 0.0)``; ``"baseline+search:N"`` -> ``(N, 0.0)``; ``"baseline+search:N:mix=X"``
    -> ``(N, X)``: the simulations per decision and the weight ``X`` (0 to 1) of the game's heuristic state
    value (``state_value`` of its heuristic module) mixed into the network's value at the search's leaves.

    Raises:
        ValueError: another form, ``N`` not an integer from 1 to :data:`MAX_SIMULATIONS`, an unknown option,
            or ``X`` not a number from 0 to 1.
    """
    s = spec.strip()
    if s.lower() == "baseline":
        return 0, 0.0
    cut = s.lower().find("+search:")
    head, sep, tail = (s[:cut], "+search:", s[cut + 8:]) if cut >= 0 else (s, "", "")
    if head.lower() != "baseline" or not sep:
        raise ValueError(f"expected 'baseline' or 'baseline+search:N[:mix=X]', got {s[:60]!r}")
    n_text, *opts = tail.split(":")
    try:
        n = int(n_text)
    except ValueError:
        raise ValueError(f"the N of baseline+search:N must be an integer, got {n_text[:40]!r}") from None
    if not 1 <= n <= MAX_SIMULATIONS:
        raise ValueError(f"the N of baseline+search:N must be from 1 to {MAX_SIMULATIONS}, got {n}")
    mix, seen = 0.0, False
    for opt in opts:
        key, eq, val = opt.partition("=")
        if not opt.strip():
            raise ValueError("an empty option (a stray ':') in baseline+search:N; the only option is mix=X (0 to 1)")
        if key.strip().lower() != "mix" or not eq:
            raise ValueError(f"unknown option {opt[:40]!r} of baseline+search:N; the only option is mix=X "
                             "(0 to 1)")
        if seen:
            raise ValueError("option mix of baseline+search:N given twice")
        seen = True
        try:
            mix = float(val)
        except ValueError:
            mix = math.nan
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix of baseline+search:N:mix=X must be a number from 0 to 1, got {val[:40]!r}")
    return n, mix


def parse_baseline_spec(spec: str) -> int:
    """``"baseline"`` -> 0, ``"baseline+search:N[:mix=X]"`` -> ``N`` (the simulations per decision); see
    :func:`parse_baseline_options`.

    Raises:
        ValueError: as :func:`parse_baseline_options`.
    """
    return parse_baseline_options(spec)[0]


#: config keys that do not change what the game is (a baseline trained with one value plays the others as well):
#: the reward, its scale and the decision cap
_NOT_RULES = frozenset({"reward_mode", "score_scale", "max_decisions"})
#: the values of a key that draw it at random per game (a baseline trained on them saw every drawn value)
_DRAWN = {"factions": "random", "first_player": -1}


def variant_differences(trained: dict, config: dict) -> list[tuple[str, Any, Any]]:
    """``[(key, trained value, value)]``: the rule options of ``config`` that differ from the config a
    baseline was ``trained`` on, leaving out the reward, its scale and the decision cap, and the keys it was
    trained on at their drawn-per-game value (Arena's ``factions = "random"``, The Monolith's
    ``first_player = -1``: every value was seen); ``[]`` when the rules are the same."""
    return [(k, t, config[k]) for k, t in trained.items()
            if k in config and k not in _NOT_RULES and not (k in _DRAWN and t == _DRAWN[k]) and config[k] != t]


class BaselineAgent(BaseAgent):
    """The shipped baseline network of a game config as a player.

    The network is chosen by the env id and the config's number of seats (and Arena's ``mode``): from
    ``env_config`` when given, else when the agent is bound to its env (``bind(env)``, which every runner
    calls after ``env.reset``).  With ``simulations == 0`` it plays the most probable legal action of the
    policy (deterministic); with ``simulations > 0`` a :class:`~monolith_envs.agents.puct.BatchedPUCT` search
    without root noise, guided by the policy (priors) and the value head (clipped to ``[-1, 1]`` for the
    acting seat; ``-v`` for the other seat with 2 players, ``-v / (n - 1)`` for each other seat with more),
    resampling hidden information before each simulation; it plays the most visited action.

    Args:
        env_id: the game.
        simulations: 0 for the policy alone, else simulations per decision.
        c_puct: the search's exploration constant (> 0).
        leaf_mix: weight (0 to 1) of the game's heuristic state value (its heuristic module's ``state_value``;
            for a game without one the engine's returns, 0 before the end, so the mix only shrinks the value
            head's) mixed into the value head's at the search's nodes (``baseline+search:N:mix=X``); 0: the
            value head alone. Needs ``simulations > 0``.
        env_config: the game config, to choose the network now (``None``: at :meth:`bind`).
        name: display name (default: the spec).
        root: folder holding ``index.json`` and the files (default: the package's).

    ``act(observation float32[obs_size], action_mask int8/bool[n_actions], rng) -> int``.

    Raises:
        NoBaselineError: no baseline for ``env_id`` (at construction) or for the config (with ``env_config``
            or at :meth:`bind`).
        AgentError: torch is missing (the ``[train]`` extra); :meth:`act` before the network is chosen, with
            search before :meth:`bind`, or with an observation or mask of other sizes than the network's;
            :meth:`act` when the network's outputs for the legal actions are not finite (its weights overflow).
        ModelFileError: a baseline file that was changed or cannot be read as plain tensors, or whose network's
            outputs overflow (see :func:`~monolith_envs.agents.baselines.net.load_baseline_file`).
        monolith_envs.ConfigError: a bad ``env_config``.
    """

    needs_env = True

    def __init__(self, env_id: str, simulations: int = 0, c_puct: float = 1.5, env_config: dict | None = None,
                 name: str | None = None, root: str | Path | None = None, leaf_mix: float = 0.0):
        super().__init__()
        try:
            import torch  # noqa: F401
        except ImportError as e:
            raise AgentError(f"baseline agents need torch ({e}): pip install 'monolith-envs[train]' "
                             "(in the repository: pip install -e '.[train]')") from None
        if int(simulations) < 0:
            raise ValueError(f"simulations must be >= 0, got {simulations}")
        if not c_puct > 0:
            raise ValueError(f"c_puct must be > 0, got {c_puct}")
        if not 0.0 <= leaf_mix <= 1.0:
            raise ValueError(f"leaf_mix must be from 0 to 1, got {leaf_mix}")
        if leaf_mix and not int(simulations):
            raise ValueError("leaf_mix mixes values in the search: it needs simulations > 0")
        self.leaf_mix = float(leaf_mix)
        self.env_id = env_id
        self.simulations = int(simulations)
        self.c_puct = float(c_puct)
        self.root = root
        self.name = name or ("baseline" + (f"+search:{self.simulations}" if self.simulations else "")
                             + (f":mix={self.leaf_mix:g}" if self.simulations and self.leaf_mix else ""))
        self.entry: dict | None = None
        self.net: Any = None
        self.meta: dict = {}
        self._search: Any = None
        if env_config is not None:
            import monolith_envs

            self._choose(monolith_envs.make_game(env_id, **env_config))
        else:
            find_baseline(env_id, None, root)  # fail now when the env id has no baseline at all

    def _choose(self, game: Any) -> None:
        entry = find_baseline(game.env_id, dict(game.config), self.root)
        net, meta = load_baseline(entry, self.root)
        if meta["obs_size"] != game.obs_spec.size or meta["n_actions"] != game.layout.n:
            raise AgentError(f"{self.name}: baseline {entry['name']} takes {meta['obs_size']} observation values and "
                             f"{meta['n_actions']} actions, this {game.env_id} config gives {game.obs_spec.size} and "
                             f"{game.layout.n} (trained on {meta.get('env_config')})")
        self.entry, self.net, self.meta = entry, net, meta
        warn_variant(self.name, f"baseline {entry['name']}", meta.get("env_config") or {}, game.config)

    def bind(self, env: Any) -> None:
        """Choose the network for the env's game config (once per config) and keep the env for the search."""
        super().bind(env)
        game = self.ctx.game
        if game.env_id != self.env_id:
            raise AgentError(f"{self.name} was made for {self.env_id}, bound to a {game.env_id} env")
        if self.entry is None or any(game.config.get(k) != v for k, v in self.entry["select"].items()) \
                or self.meta["obs_size"] != game.obs_spec.size:
            self._choose(game)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action for the acting seat (arguments as :meth:`BaseAgent.act`).

        Returns the most probable legal action of the network (or, with ``+search:N``, the search's most
        visited one).

        Raises:
            AgentError: no network chosen yet (not bound), no mask, a mask with no legal action, sizes other
                than the network's, or logits of the legal actions (with search: a prior of a legal action or a
                value) that are not finite (NaN or inf: the file's weights overflow the network).
        """
        if self.net is None:
            raise AgentError(f"{self.name}: no network chosen yet; call agent.bind(env) after env.reset() "
                             "(or build the agent with env_config)")
        if action_mask is None:
            raise AgentError(f"{self.name}.act needs the action mask")
        mask = np.asarray(action_mask).astype(bool)
        obs = observation_vector(self.name, observation)
        if mask.size != self.meta["n_actions"] or obs.size != self.meta["obs_size"]:
            raise AgentError(f"{self.name}: the network takes {self.meta['obs_size']} observation values and "
                             f"{self.meta['n_actions']} actions, got {obs.size} and {mask.size}")
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise AgentError("the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        if self.simulations == 0:
            logits = self.net.logits(obs.reshape(1, -1))[0]
            check_finite_outputs(self.name, logits[legal])
            return int(legal[int(np.argmax(logits[legal]))])
        ctx = self._require_ctx()
        check_bound_state(ctx, mask)  # the search reads the bound env's state
        check_rng(rng)  # the search draws its determinizations from it
        if self._search is None or self._search.game is not ctx.game:
            from ..heuristics import value_fn_for
            from ..puct import BatchedPUCT

            self._search = BatchedPUCT(ctx.game, self.simulations, self.c_puct, noise_frac=0.0,
                                       leaf_value_fn=value_fn_for(self.env_id) if self.leaf_mix else None,
                                       leaf_mix=self.leaf_mix)
        visits = self._search.run(FiniteOutputs(self.net, self.name), [ctx.state], [ctx.seat], [rng])[0]
        return int(legal[int(np.argmax(visits[legal]))])
