"""``MonolithMultiAgentEnv``: any registered Monolith env as an RLlib ``MultiAgentEnv``, opponents inside.

Why not RLlib's ``PettingZooEnv``: that wrapper hands every seat to RLlib, so an opponent can only be an
RLModule.  The game's heuristic (and MCTS) decides from the rules-engine state through ``bind(env)``,
which an RLModule never sees, and the self-play pool of :mod:`training.train` plays frozen snapshots
inside the env.  This adapter keeps that design: at every reset each seat gets a role, drawn from the
``opponent_mix`` of the config:

* ``"learner"``: the live shared policy (RLlib agent ``player_<seat>``, every seat mapped to the one
  module ``"shared"``); its decisions are trained on.  At least one seat per episode is a learner seat:
  the one chosen by ``seat`` (``"rotate"``, ``"random"`` or a fixed seat), the others draw from the mix.
* ``"self"``: a frozen snapshot of the shared policy (weights pushed by the trainer with
  :meth:`add_snapshot`; the newest ``pool_size`` are kept), played inside ``step``;
* any agent spec (``"random"``, ``"heuristic"``, ``"mcts:50"``): played inside ``step``.

Only learner seats appear in the dicts RLlib sees.  The reward of a learner seat is its AEC reward summed
over every decision since its previous one (its own action and everything played after it), delivered
with its next observation or at the end; at the end every learner seat that acted gets its last
observation (an all-zero mask) with ``terminated`` (or ``truncated`` at ``max_decisions``), and its
``info["win"]``: 1 for a win (or a solo success), 0 a draw, a truncation or a first place shared with another
side, -1 a loss, from ``game.outcome``.

Spaces: every agent has ``Dict({"observation": Box(float32[obs_size]), "action_mask": Box(int8[n])})`` and
``Discrete(n)``, the AEC env's own spaces.  Importing this module imports Ray (``MultiAgentEnv``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import monolith_envs
from agents.base import BaseAgent
from monolith_envs.agents.match import seat_win
from monolith_envs.core.config import warn_ignored_options
from training.selfplay import OpponentPool

_MAX_EMPTY_EPISODES = 100

__all__ = ["LEARNER", "IllegalLearnerAction", "ModuleSnapshotAgent", "MonolithMultiAgentEnv", "SHARED_MODULE"]

LEARNER = "learner"
SHARED_MODULE = "shared"


class IllegalLearnerAction(RuntimeError):
    """RLlib sent an action the mask forbids (the masked module never should): names the seat and action."""


class ModuleSnapshotAgent(BaseAgent):
    """Plays a frozen copy of the shared RLModule, sampling from its masked distribution with ``rng``.

    Args:
        module: a :class:`~training.rllib_module.MaskedPPOTorchRLModule` this agent owns.
        name: display name.
    """

    def __init__(self, module: Any, name: str = "snapshot"):
        super().__init__()
        self.module = module
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        probs = self.module.action_probabilities(observation, action_mask)
        probs[~np.asarray(action_mask, bool)] = 0.0
        return int(rng.choice(probs.size, p=probs / probs.sum()))


class _SnapshotPool(OpponentPool):
    """:class:`~training.selfplay.OpponentPool` whose ``"self"`` opponents are RLModule snapshots."""

    def __init__(self, env_id: str, mix: Mapping[str, float], pool_size: int, make_module: Any):
        super().__init__(env_id, mix, pool_size, make_module)

    def _snapshot_agent(self, slot: int, weights: Mapping[str, np.ndarray]) -> ModuleSnapshotAgent:
        import torch

        while len(self._agents) <= slot:
            module = self._make_policy()
            module.eval()
            self._agents.append(ModuleSnapshotAgent(module, name=f"snapshot{len(self._agents)}"))
        agent = self._agents[slot]
        agent.module.load_state_dict({k: torch.as_tensor(v) for k, v in weights.items()})
        return agent


class MonolithMultiAgentEnv(MultiAgentEnv):
    """RLlib multi-agent env over ``monolith_envs.make(env_id, **env_config)`` (see the module docstring).

    Args:
        config: RLlib's ``env_config`` (an ``EnvContext`` or dict) with ``env_id``, ``env_config``,
            ``opponent_mix`` (``{role: weight}``, roles ``"learner"``, ``"self"`` and agent specs),
            ``pool_size``, ``seat``, ``seed`` and ``preload`` (modules imported first); RLlib's ``worker_index`` / ``vector_index`` give each copy
            its own seed stream.

    Raises:
        monolith_envs.UnknownEnvError / ConfigError: bad env id or game config.
        ValueError: a bad mix (negative weights, zero sum) or ``seat``.
    """

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        cfg = dict(config or {})
        for mod in cfg.get("preload") or ():
            importlib.import_module(mod)
        self.env_id = cfg["env_id"]
        self.aec = monolith_envs.make(self.env_id, wrapped=False, **dict(cfg.get("env_config") or {}))
        self.game = self.aec.game
        n = self.game.num_players
        self.seat_mode = cfg.get("seat", "rotate")
        if not (self.seat_mode in ("rotate", "random") or (isinstance(self.seat_mode, int)
                                                           and 0 <= self.seat_mode < n)):
            raise ValueError(f"seat must be 'rotate', 'random' or 0..{n - 1}, got {self.seat_mode!r}")
        mix = dict(cfg.get("opponent_mix") or {LEARNER: 1.0})
        self._learner_weight = float(mix.pop(LEARNER, 0.0))
        if self._learner_weight < 0:
            raise ValueError(f"opponent_mix weight of 'learner' must be >= 0, got {self._learner_weight}")
        self.pool = (_SnapshotPool(self.env_id, mix, int(cfg.get("pool_size", 5)), self._make_module)
                     if mix and sum(mix.values()) > 0 else None)
        self._p_learner = (1.0 if self.pool is None
                           else self._learner_weight / (self._learner_weight + sum(mix.values())))
        index = int(getattr(config, "worker_index", 0)) * 1000 + int(getattr(config, "vector_index", 0))
        self._rng = np.random.default_rng([int(cfg.get("seed", 0)), index])
        self.possible_agents = list(self.aec.possible_agents)
        self.agents = []
        space = self.aec.observation_space(self.possible_agents[0])
        act = self.aec.action_space(self.possible_agents[0])
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.observation_space, self.action_space = space, act
        self._module_factory = cfg.get("module_factory")
        self._episode = 0
        self.learners: list[int] = []
        self.opponents: dict[int, Any] = {}
        self.opponent_steps = 0
        self.learner_steps = 0
        self._pending: dict[int, float] = {}
        self._acted: set[int] = set()
        self._rngs: list[np.random.Generator] = []

    # ------------------------------------------------------------------ snapshots
    def _make_module(self) -> Any:
        if self._module_factory is None:
            raise RuntimeError("'self' in the opponent mix needs the trainer's module_factory in env_config")
        return self._module_factory()

    def add_snapshot(self, weights: Mapping[str, np.ndarray]) -> None:
        """Add frozen weights of the shared module (``{name: ndarray}``) to this env's pool."""
        if self.pool is not None:
            self.pool.add_snapshot(weights)

    # ------------------------------------------------------------------ RLlib API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Draw the seats' roles and the episode seed, play non-learner seats until a learner must act.

        ``reset(seed=s)`` reproduces an episode: the roles, opponents and episode seed are drawn from a
        generator seeded with ``s``, and ``seat="rotate"`` restarts its rotation at seat 0.  An episode that
        ends before any learner seat acted (a tiny ``max_decisions``) is replaced by the next one.

        Returns ``({"player_<seat>": obs_dict}, {"player_<seat>": {"seat": seat}})``. ``options`` is ignored
        (the games take none; options given are warned about, as the AEC env does).

        Raises:
            MonolithEnvError: 100 episodes in a row ended before a learner seat acted.
        """
        warn_ignored_options(f"{self.env_id} (RLlib)", options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._episode = 0
        for _ in range(_MAX_EMPTY_EPISODES):
            obs, infos = self._start_episode()
            if obs:
                return obs, infos
        raise monolith_envs.MonolithEnvError(
            f"{self.env_id}: {_MAX_EMPTY_EPISODES} episodes in a row ended before a learner seat acted "
            f"(max_decisions={self.game.max_decisions}?); reset() returns a decision point of a learner, so give "
            "the game room for one")

    def _start_episode(self) -> tuple[dict, dict]:
        """Start one episode (see :meth:`reset`); empty dicts when it ended before a learner seat acted."""
        n = self.game.num_players
        first = (self._episode % n if self.seat_mode == "rotate" else int(self._rng.integers(n))
                 if self.seat_mode == "random" else int(self.seat_mode))
        self._episode += 1
        roles = [LEARNER if s == first or self.pool is None or self._rng.random() < self._p_learner else None
                 for s in range(n)]
        others = [s for s in range(n) if roles[s] is None]
        agents = self.pool(self._rng, len(others)) if others else []
        self.opponents = dict(zip(others, agents))
        self.learners = [s for s in range(n) if roles[s] == LEARNER]
        episode_seed = int(self._rng.integers(2**62))
        self.aec.reset(seed=episode_seed)
        self._rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(episode_seed).spawn(n)]
        for ag in self.opponents.values():
            ag.reset()
            if hasattr(ag, "bind"):
                ag.bind(self.aec)
        self._pending = {s: 0.0 for s in self.learners}
        self._acted = set()
        self.agents = [self.possible_agents[s] for s in self.learners]
        obs, _, _, _, infos = self._advance()
        return obs, infos

    def step(self, action_dict: Mapping[str, Any]):
        """Apply the acting learner seat's action, then play the other roles until a learner must act.

        Returns RLlib's ``(obs, rewards, terminateds, truncateds, infos)`` dicts (with ``"__all__"``).

        Raises:
            IllegalLearnerAction: no action for the seat to act, or an action its mask forbids.
        """
        aec = self.aec
        agent = aec.agent_selection
        if agent not in action_dict:
            raise IllegalLearnerAction(f"{agent} must act, got actions for {sorted(action_dict)}")
        a = int(action_dict[agent])
        seat = aec.agent_name_mapping[agent]
        mask = self.game.legal_mask(aec.game_state)
        if not (0 <= a < mask.size and mask[a]):
            raise IllegalLearnerAction(f"{agent} (seat {seat}) was sent action {a}, which its mask forbids")
        aec.step(a)
        self.learner_steps += 1
        self._acted.add(seat)
        self._collect()
        return self._advance()

    # ------------------------------------------------------------------ internals
    def _collect(self) -> None:
        for s in self.learners:
            self._pending[s] += float(self.aec.rewards[self.possible_agents[s]])

    def _advance(self):
        """Play non-learner seats until a learner seat acts or the game ends; build RLlib's dicts."""
        aec = self.aec
        while True:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                return self._finish(bool(aec.truncations[agent]) and not aec.terminations[agent])
            seat = aec.agent_name_mapping[agent]
            if seat in self._pending:
                rew = {agent: self._pending[seat]}
                self._pending[seat] = 0.0
                return ({agent: aec.observe(agent)}, rew, {"__all__": False}, {"__all__": False},
                        {agent: {"seat": seat}})
            o = aec.observe(agent)
            a = self.opponents[seat].act(o["observation"], o["action_mask"], self._rngs[seat])
            aec.step(int(a))
            self.opponent_steps += 1
            self._collect()

    def _win(self, outcome: tuple | None, seat: int) -> int:
        """``infos[agent]["win"]``: 1 / 0 / -1 from the seat's outcome; a first place shared with another side
        is 0, as ``training.evaluate`` counts it (:func:`monolith_envs.agents.match.seat_win`)."""
        return seat_win(outcome, seat, self.game.teams)

    def _finish(self, truncated: bool):
        aec = self.aec
        done = [s for s in self.learners if s in self._acted]
        names = [self.possible_agents[s] for s in done]
        ret = np.asarray(self.game.returns(aec.game_state), np.float64)
        obs = {a: aec.observe(a) for a in names}
        rew = {self.possible_agents[s]: self._pending[s] for s in done}
        outcome = None if truncated else self.game.outcome(aec.game_state)
        infos = {self.possible_agents[s]: {"seat": s, "returns": ret.tolist(), "win": self._win(outcome, s)}
                 for s in done}
        term = {a: not truncated for a in names}
        trunc = {a: truncated for a in names}
        term["__all__"], trunc["__all__"] = not truncated, truncated
        self.agents = []
        return obs, rew, term, trunc, infos
