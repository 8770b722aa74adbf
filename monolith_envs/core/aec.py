"""``RulesAECEnv``: the one PettingZoo AEC adapter, generic over any :class:`~monolith_envs.core.game.Game`.

ARCHITECTURE §2.  Agents are ``player_0 .. player_{n-1}``; ``agent_selection`` follows the engine's
``current_player`` (the same player often acts several times in a row); rewards are the change of the
engine's ``returns`` since the previous step; every agent stays in ``agents`` until the match ends, then
each is stepped once with ``None`` (dead-agent step) and sees its final reward through ``last()``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .actions import coerce_action
from .chance import ChanceRecorder, NoDrawRng
from .config import ConfigError, warn_ignored_options
from .game import Game, IllegalActionError, MonolithEnvError
from .replay import EpisodeLog
from .seeds import MAX_SEED, seed_text

__all__ = ["RulesAECEnv", "ResetNeededError", "make_env_fns", "coerce_action",
           "ILLEGAL_ACTION_POLICIES", "MASK_IN", "check_mask_in", "observation_space_for"]

ILLEGAL_ACTION_POLICIES = ("raise", "penalize")
MASK_IN = ("observation", "info")  # where an env puts the action mask: PettingZoo classic's two conventions


def check_mask_in(value: Any, where: str) -> str:
    """Return ``value`` if it is one of :data:`MASK_IN`, else raise :class:`ConfigError` naming ``where``.

    ``"observation"``: observations are ``{"observation", "action_mask"}`` dicts; ``"info"``: plain
    ``float32`` observations, the mask in the info dict under ``"action_mask"``.
    """
    if not (type(value) is str and value in MASK_IN):
        raise ConfigError(f"{where}: mask_in={value!r} is not allowed; expected one of "
                          + ", ".join(map(repr, MASK_IN)))
    return value


def observation_space_for(obs_space: spaces.Box, num_actions: int, mask_in: str) -> spaces.Box | spaces.Dict:
    """The observation space of one seat under ``mask_in``: the game's ``obs_space`` (``Box(float32[m])``)
    for ``"info"``, else ``Dict(observation=obs_space, action_mask=Box(0, 1, (num_actions,), int8))``.

    Raises:
        ConfigError: ``mask_in`` is not one of :data:`MASK_IN`.
    """
    if check_mask_in(mask_in, "observation_space_for") == "info":
        return obs_space
    return spaces.Dict({"observation": obs_space,
                        "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8)})


RENDER_MODES = (None, "ansi", "human", "rgb_array", "svg")


class ResetNeededError(MonolithEnvError, AssertionError):
    """A call that needs an episode (``step``, ``last``, ``observe``, ``state``, ``render``, ``agent_iter``)
    before the first ``reset()``: the same error from the bare env and from its order-enforcing wrapper (an
    ``AssertionError`` too, as PettingZoo's wrapper raises). ``make_vec`` raises it too, before its first
    ``reset`` and after a ``step`` or ``reset`` that failed part way."""


_STEP_AFTER_END = "step() after the episode ended and every agent was stepped out with None; call reset()"
_LAST_AFTER_END = ("last() after the episode ended and every agent was stepped out with None (env.agents is "
                   "empty): there is no agent to report on; read the results from env.unwrapped.game.returns("
                   "env.unwrapped.game_state), or call reset() for a new episode")


class RulesAECEnv(AECEnv):
    """PettingZoo AEC environment for a rules engine.

    Args:
        game_cls: the game class; ``game_cls(config)`` validates ``config`` and builds a :class:`Game`.
        env_id: registered id (e.g. ``"monolith_arena_v0"``).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text), ``"human"`` (prints text) or
            ``"rgb_array"`` (``render()`` returns ``uint8[H, W, 3]``) or ``"svg"`` (``render()`` returns the
            omniscient SVG document, a ``str``; ``env.game.render_svg(env.game_state, seat)`` draws one seat's view).
        illegal_action: ``"raise"`` (default): an illegal action raises :class:`IllegalActionError` and leaves
            the state and the episode's generator unchanged. ``"penalize"``: like PettingZoo classic's ``TerminateIllegalWrapper``, the
            offender gets reward -1, the others 0, and the episode terminates (not zero-sum).
        mask_in: ``"observation"`` (default) or ``"info"``: where the action mask goes (below).
        **config: the game's configuration keys (see the game's spec §1).

    With ``mask_in="observation"``, observations are ``{"observation": float32[obs_size], "action_mask":
    int8[num_actions]}`` (a ``Dict`` space). With ``mask_in="info"`` (PettingZoo classic's other convention,
    for AgileRL and SuperSuit's observation wrappers) they are the plain ``float32[obs_size]`` vector (the
    game's ``Box``), and ``infos[agent]["action_mask"]`` holds the ``int8`` mask after every ``reset`` and ``step``
    (``last()``'s info is that dict, as PettingZoo's ``api_test`` requires: copy the mask before writing into
    it). Either way the mask is all zeros for every agent not to act.

    ``initial_state`` gets the episode generator (``numpy.random.default_rng(episode_seed)``); ``apply`` gets
    it wrapped in a :class:`~monolith_envs.core.chance.ChanceRecorder`, so its draws are the chance events
    of ``episode_log``.

    Raises:
        ConfigError: unknown config key or bad value (from the game).
        ConfigError: unknown ``render_mode``, ``illegal_action`` or ``mask_in`` (a ``ValueError``).
    """

    def __init__(
        self,
        game_cls: Callable[[dict], Game],
        env_id: str,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        mask_in: str = "observation",
        **config: Any,
    ):
        super().__init__()
        self.game: Game = game_cls(config)
        self.env_id = env_id
        self._game_cls = game_cls
        if not any(render_mode is m or (type(render_mode) is str and render_mode == m) for m in RENDER_MODES):
            raise ConfigError(f"{env_id}: render_mode={render_mode!r} is not supported; expected one of None, "
                              "'ansi', 'human', 'rgb_array', 'svg'")
        if not (type(illegal_action) is str and illegal_action in ILLEGAL_ACTION_POLICIES):
            raise ConfigError(f"{env_id}: illegal_action={illegal_action!r} is not allowed; expected one of "
                              + ", ".join(map(repr, ILLEGAL_ACTION_POLICIES)))
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.mask_in = check_mask_in(mask_in, env_id)
        self._mask_in_info = mask_in == "info"
        self.metadata = {
            "render_modes": ["ansi", "human", "rgb_array", "svg"],
            "name": env_id,
            "is_parallelizable": False,
            "render_fps": 2,
        }
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._num_actions = self.game.layout.n
        self._action_space = spaces.Discrete(self._num_actions)
        self._obs_space = observation_space_for(self.game.obs_spec.space, self._num_actions, mask_in)
        self._no_mask = np.zeros(self._num_actions, np.int8)
        self._no_mask.flags.writeable = False
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self._state_space: spaces.Box | None = None
        self._seed_rng: np.random.Generator | None = None
        self._seed_stream_seed: Any = None  # seed of the last seeded reset: the unseeded resets' stream
        self.game_state: Any = None
        self.episode_log: EpisodeLog | None = None
        self._mask: np.ndarray | None = None
        self._done = True
        fast = getattr(self.game, "returns_list", None)  # optional fast path (see Game)
        self._returns_list = fast if callable(fast) else None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict | spaces.Box:
        """The same space object for every agent and call (a ``Dict``, or the ``Box`` with
        ``mask_in="info"``).

        Raises:
            KeyError: ``agent`` is not one of ``possible_agents`` (the message lists them).
        """
        if not self._is_agent(agent):
            self._unknown_agent("observation_space", agent)
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        """The same ``Discrete(num_actions)`` object for every agent and call.

        Raises:
            KeyError: ``agent`` is not one of ``possible_agents`` (the message lists them).
        """
        if not self._is_agent(agent):
            self._unknown_agent("action_space", agent)
        return self._action_space

    def _is_agent(self, agent: Any) -> bool:
        try:
            return agent in self.agent_name_mapping
        except TypeError:  # an unhashable value such as a list
            return False

    def _unknown_agent(self, method: str, agent: Any) -> None:
        raise KeyError(f"{self.env_id}: {method}({agent!r:.80}): not an agent of this env; agents: "
                       f"{self.possible_agents}")

    @property
    def state_space(self) -> spaces.Box:
        """Box of ``state()`` vectors (omniscient, for centralised critics): the game's ``state_bounds()``, or unbounded."""
        if self._state_space is None:
            probe = self.game.initial_state(np.random.default_rng(0))
            m = int(np.asarray(self.game.state_vector(probe)).size)
            low, high = getattr(self.game, "state_bounds", lambda: None)() or (-np.inf, np.inf)
            self._state_space = spaces.Box(low, high, shape=(m,), dtype=np.float32)
        return self._state_space

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new match.

        A seeded reset reproduces the same match on any instance, also a reused one. ``reset()`` without a
        seed draws the episode seed from a stream seeded by the last seeded reset (or from OS entropy if
        there was none), so every episode is replayable from its log. The configuration is kept.

        ``options`` is taken for PettingZoo's and Gymnasium's signature and ignored: the games have no reset
        options (PettingZoo's ``api_test`` passes some); config keys go to ``make()``. Options given (not
        ``None`` or empty) are warned about once (:class:`~monolith_envs.core.config.IgnoredOptionsWarning`).

        Raises:
            TypeError, ValueError: ``seed`` is not None or an integer from 0 to 2**128-1 (a ``bool`` is not a
                seed; the message names it).
        """
        warn_ignored_options(self.env_id, options)
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise TypeError(f"{self.env_id}: reset(seed={seed!r}): a seed is a non-negative integer or None, "
                                f"not a {type(seed).__name__}")
            if not 0 <= seed <= MAX_SEED:  # the episode log (and so replay) holds seeds up to 2**128-1
                raise ValueError(f"{self.env_id}: reset(seed={seed_text(seed)}): a seed is an integer from 0 to 2**128-1 "
                                 "or None")
            # the stream of later unseeded resets is built when one needs it (a generator costs ~10 us)
            self._seed_rng = None
            self._seed_stream_seed = seed
            episode_seed = int(seed)
        else:
            if self._seed_rng is None:
                self._seed_rng = np.random.default_rng(self._seed_stream_seed)  # None: OS entropy
            episode_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self._rng = np.random.default_rng(episode_seed)
        self.game_state = self.game.initial_state(self._rng)
        self.episode_log = EpisodeLog(self.env_id, dict(self.game.config), episode_seed, [], chance=[])
        # apply draws through the recorder: same numbers as the bare generator, each logged as a chance event
        self._chance = ChanceRecorder(self._rng, self.episode_log.chance)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._prev_returns = [0.0] * self.game.num_players
        self._zero_rewards = True
        self._decisions = 0
        self._mask = None
        self._done = False
        self.agent_selection = self.possible_agents[self.game.current_player(self.game_state)]
        if self._mask_in_info:
            self._put_masks_in_infos()

    def set_game_state(self, state: Any) -> None:
        """Continue the current episode from ``state`` (hand-built positions, curricula, search).

        The reward bookkeeping restarts from ``state``'s returns (no reward is paid for the jump), the mask
        cache is dropped and ``agent_selection`` follows the engine. The episode log records the jump in its
        ``note``, since its actions no longer replay from the seed alone.

        Raises:
            MonolithEnvError: ``reset()`` was never called, the episode is over (call ``reset()``, then
                ``set_game_state``), ``state`` is not a state of this game and config (another class than the
                one ``reset()`` made, or one the game's state check refuses, e.g. of another number of seats),
                or ``state`` is terminal; the env is unchanged.
        """
        if self.episode_log is None:
            raise ResetNeededError("set_game_state() before reset(): call reset() first")
        if type(state) is not type(self.game_state):
            raise MonolithEnvError(f"{self.env_id}: set_game_state() needs a state of this game, a "
                                   f"{type(self.game_state).__name__} (a clone of env.unwrapped.game_state, or "
                                   f"game.from_dict(data)), got {type(state).__name__}")
        try:  # the game's own state check (seats, sizes, fields) on a round trip: a state of another config
            self.game.from_dict(self.game.to_dict(state))
        except Exception as exc:  # noqa: BLE001 - any failure of the check means the state does not fit
            raise MonolithEnvError(f"{self.env_id}: set_game_state(): the state does not fit this env's game "
                                   f"and config: {exc}") from None
        if self.game.is_terminal(state):
            raise MonolithEnvError("set_game_state() needs a state that is not terminal")
        if self._done or not self.agents:  # the agents' end flags and list are those of a finished episode
            raise ResetNeededError("set_game_state() after the episode ended: call reset() first, then "
                                   "set_game_state(state) (it continues the new episode from state)")
        self.game_state = state
        self._mask = None
        self._prev_returns = [float(x) for x in self.game.returns(state)]
        self.rewards = dict.fromkeys(self.possible_agents, 0.0)
        self._zero_rewards = True
        self._done = False
        self.agent_selection = self.possible_agents[self.game.current_player(state)]
        self.episode_log.note = f"state replaced after {len(self.episode_log.actions)} actions; not replayable"
        if self._mask_in_info:
            self._put_masks_in_infos()

    def _put_masks_in_infos(self) -> None:
        """``mask_in="info"``: ``infos[a]["action_mask"]`` = the legal mask for the agent to act, zeros else."""
        selected = None if self._done else self.agent_selection
        for a in self.agents:
            self.infos[a]["action_mask"] = (self._current_mask().astype(np.int8) if a == selected
                                            else self._no_mask)

    def _current_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = self.game.legal_mask(self.game_state)
        return self._mask

    def legal_actions(self) -> np.ndarray:
        """``int64[k]`` legal actions of ``agent_selection`` (empty once the match is over)."""
        if self._done:
            return np.zeros(0, np.int64)
        return np.flatnonzero(self._current_mask())

    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        """Observation of ``agent`` at any time (also when it is not to act): the dict of ``"observation"``
        and ``"action_mask"``, or the ``float32[obs_size]`` vector alone with ``mask_in="info"``.

        Raises:
            KeyError: ``agent`` is not one of ``possible_agents`` (the message lists them).
        """
        if not self._is_agent(agent):
            self._unknown_agent("observe", agent)
        p = self.agent_name_mapping[agent]
        if self.game_state is None:
            raise ResetNeededError(f"{self.env_id}: observe() before reset(): call reset() first")
        obs = self.game.observe(self.game_state, p)
        if self._mask_in_info:
            return obs
        if not self._done and agent == self.agent_selection:
            mask = self._mask
            if mask is None:
                mask = self._mask = self.game.legal_mask(self.game_state)
            mask = mask.astype(np.int8)
        else:
            mask = np.zeros(self._num_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple:
        """``(observation, cumulative reward, termination, truncation, info)`` of ``agent_selection`` (as
        PettingZoo's ``AECEnv.last``; defined here to save a call level: it runs once per decision).

        Raises:
            MonolithEnvError: ``last()`` before ``reset()``, or after the episode ended and every agent was
                stepped out with ``None`` (the message says to call ``reset()``).
        """
        state = self.game_state
        if state is None:
            raise ResetNeededError("last() before reset(): call reset() first")
        agent = self.agent_selection
        p = self.agent_name_mapping.get(agent)
        if observe and p is not None and not self._done and not self._mask_in_info:
            # the agent to act: what observe(agent) returns, without its call and its checks
            obs = self.game.observe(state, p)
            mask = self._mask
            if mask is None:
                mask = self._mask = self.game.legal_mask(state)
            return ({"observation": obs, "action_mask": mask.astype(np.int8)}, self._cumulative_rewards[agent],
                    self.terminations[agent], self.truncations[agent], self.infos[agent])
        try:
            return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                    self.terminations[agent], self.truncations[agent], self.infos[agent])
        except KeyError:
            if self.agents:
                raise
            raise MonolithEnvError(_LAST_AFTER_END) from None

    def step(self, action: Any) -> None:
        """Apply ``action`` for ``agent_selection``.

        Raises:
            MonolithEnvError: ``step`` before ``reset`` or after every agent has been stepped out.
            IllegalActionError: a wrong kind of action, out of range, not legal now (policy ``"raise"``), or
                a non-``None`` action for an agent whose episode is over.
        """
        if self.game_state is None:
            raise ResetNeededError("step() before reset(): call reset() first")
        agent = self.agent_selection
        if not self.agents:
            raise MonolithEnvError(_STEP_AFTER_END)
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(
                    repr(action), f"the episode is over for {agent}",
                    f"step(None) is the only step now (the dead-agent step that removes {agent})",
                )
            self._was_dead_step(None)
            return
        a = action if type(action) is int and 0 <= action < self._num_actions else coerce_action(
            action, self._num_actions)
        game, state = self.game, self.game_state
        mask = self._mask
        if mask is None:
            mask = self._mask = game.legal_mask(state)
        if not mask[a]:
            if self.illegal_action == "penalize":
                self._penalize(agent)
                return
            raise self._explain_illegal(a, mask)
        self._cumulative_rewards[agent] = 0.0
        self._chance.step = self._decisions
        game.apply(state, a, self._chance)
        self._mask = None
        self.episode_log.actions.append(a)
        self._decisions += 1
        ret = self._returns_list(state) if self._returns_list is not None else game.returns(state).tolist()
        names = self.possible_agents
        if ret != self._prev_returns:
            self.rewards = {names[i]: r - p for i, (r, p) in enumerate(zip(ret, self._prev_returns))}
            self._prev_returns = ret
            self._accumulate_rewards()
            self._zero_rewards = False
        elif not self._zero_rewards:
            self.rewards = dict.fromkeys(names, 0.0)
            self._zero_rewards = True
        if game.is_terminal(state):
            self._finish(truncated=False)
        elif self._decisions >= game.max_decisions:
            self._finish(truncated=True)
        else:
            self.agent_selection = names[game.current_player(state)]
        if self._mask_in_info:
            self._put_masks_in_infos()
        if self.render_mode is not None and self.render_mode == "human":
            self.render()

    def _explain_illegal(self, a: int, mask: np.ndarray) -> IllegalActionError:
        """The engine's own :class:`IllegalActionError` for masked-out ``a`` (the precise reason), got by
        applying it to a clone with a generator that refuses every draw, so the episode's generator and
        state are untouched; a generic one if the engine does not raise it."""
        game = self.game
        try:
            game.apply(game.clone(self.game_state), a, NoDrawRng("while rejecting an illegal action"))
        except IllegalActionError as exc:
            return exc
        except Exception:  # noqa: BLE001 - an engine that draws first (or fails) still gets a clear message
            pass
        return IllegalActionError(game.layout.decode(a), "not legal now", game.layout.names(mask))

    def _finish(self, truncated: bool) -> None:
        self._done = True
        for a in self.agents:
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        self.agent_selection = self.agents[0]

    def _penalize(self, agent: str) -> None:
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: (-1.0 if a == agent else 0.0) for a in self.agents}
        self._accumulate_rewards()
        self.infos[agent]["illegal_action"] = True
        self._finish(truncated=False)
        if self._mask_in_info:
            self._put_masks_in_infos()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """PettingZoo's ``agent_iter``; :class:`ResetNeededError` before ``reset()``."""
        if self.game_state is None:
            raise ResetNeededError("agent_iter() before reset(): call reset() first")
        return super().agent_iter(max_iter)

    # ------------------------------------------------------------------ views
    def render(self) -> str | np.ndarray | None:
        """Text (``"ansi"``/``"human"``), ``uint8[H, W, 3]`` (``"rgb_array"``) or SVG text (``"svg"``) of the match."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human', "
                                   "'rgb_array' or 'svg' to make()")
            return None
        if self.game_state is None:
            raise ResetNeededError("render() before reset(): call reset() first")
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.game_state)
        if self.render_mode == "svg":
            return self.game.render_svg(self.game_state)
        text = self.game.render_text(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """Omniscient ``float32`` vector of the whole match, for centralised critics.

        Raises:
            MonolithEnvError: before ``reset()``.
        """
        if self.game_state is None:
            raise ResetNeededError(f"{self.env_id}: state() before reset(): call reset() first")
        return np.asarray(self.game.state_vector(self.game_state), np.float32)

    def close(self) -> None:
        """Release what the env holds (nothing: the rules engine keeps no files, windows or processes);
        safe to call more than once."""

    @property
    def num_decisions(self) -> int:
        """Number of actions applied in the current episode."""
        return self._decisions


def make_env_fns(env_id: str, game_cls: Callable[[dict], Game]):
    """Build the PettingZoo-style ``env`` and ``raw_env`` constructors of a versioned env module.

    ``raw_env(render_mode=None, illegal_action="raise", **config)`` returns the bare :class:`RulesAECEnv`
    (``config`` may hold ``mask_in``);
    ``env(**same)`` wraps it in :class:`OrderEnforcingEnv`, PettingZoo's ``OrderEnforcingWrapper`` with fast
    attribute access (errors for calls out of order).
    """

    def raw_env(render_mode: str | None = None, illegal_action: str = "raise", **config: Any) -> RulesAECEnv:
        return RulesAECEnv(game_cls, env_id, render_mode=render_mode, illegal_action=illegal_action, **config)

    def env(render_mode: str | None = None, illegal_action: str = "raise", **config: Any):
        from .order_enforcing import OrderEnforcingEnv

        return OrderEnforcingEnv(raw_env(render_mode, illegal_action, **config))

    raw_env.game_cls = game_cls
    env.game_cls = game_cls
    raw_env.__doc__ = f"The bare ``{env_id}`` AEC environment (see RulesAECEnv)."
    env.__doc__ = f"The ``{env_id}`` AEC environment wrapped in PettingZoo's OrderEnforcingWrapper."
    return env, raw_env



def __getattr__(name: str) -> Any:
    """``OrderEnforcingEnv`` lives in :mod:`monolith_envs.core.order_enforcing` (imported on first use, as it
    reads this module's errors)."""
    if name == "OrderEnforcingEnv":
        from .order_enforcing import OrderEnforcingEnv

        return OrderEnforcingEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
