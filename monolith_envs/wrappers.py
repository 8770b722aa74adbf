"""``SingleAgentEnv``: one seat of an AEC game as a single-agent Gymnasium env.

Registered with Gymnasium at ``import monolith_envs`` (:mod:`monolith_envs.registration`, whose
``make_<game>`` entry points build this class):
``gymnasium.make("monolith_envs/MonolithArena-v0", opponents=["heuristic"])`` builds one, and
``gymnasium.make_vec`` a vector of them.

The learner takes one seat per episode (rotating over the seats, or drawn at random); the other seats are
played by opponent agents *inside* ``step`` until the learner must decide again or the episode ends.  A
one-seat (solo) game needs no opponents: the learner plays alone.  The
reward returned by ``step`` is the learner's own AEC reward accumulated since its previous decision (its own
action's reward plus everything the opponents' actions gave it), so a win by the learner's last move yields
+1 and a loss caused by an opponent's last move yields -1 (``win_loss`` reward modes).  ``action_masks()``
returns the learner's action mask, as ``sb3_contrib.MaskablePPO`` expects.

Optional potential-based reward shaping (Ng, Harada & Russell 1999): with a potential
``phi(s) = coef * value_fn(game, s)[learner]`` taken at the learner's decision points (``phi = 0`` once the
episode is over), each step adds ``gamma * phi(s') - phi(s)`` to the reward.  Shaping of this form leaves the
optimal policies of the game unchanged; it only makes the signal denser.  ``value_fn`` is typically the
game's heuristic ``state_value`` hook (:func:`monolith_envs.agents.heuristics.value_fn_for`).  It is a training-time
signal computed from the true state; the policy still sees only its own observation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

import monolith_envs
from monolith_envs.agents.match import seat_win
from monolith_envs.core.actions import coerce_action
from monolith_envs.core.aec import check_mask_in, observation_space_for
from monolith_envs.core.config import ConfigError, UnknownKeywordError, number_range, warn_ignored_options
from monolith_envs.core.game import IllegalActionError
from monolith_envs.core.seeds import check_seed
from monolith_envs.registration import METADATA, RENDER_MODES

__all__ = ["OpponentSampler", "SingleAgentEnv", "resolve_opponents"]

#: episodes in a row that may end before the learner's first decision before reset() gives up
_MAX_EMPTY_EPISODES = 100


_WIN_SIGN = {"win": 1, "success": 1, "draw": 0, "truncated": 0, "loss": -1, "failure": -1}

# opponent_sampler(rng, num_opponents) -> list of agents (one per opponent seat, in seat order)
OpponentSampler = Callable[[np.random.Generator, int], Sequence[Any]]


def resolve_opponents(env_id: str, opponents: Any, env_config: dict | None = None) -> list[Any]:
    """Turn a list of opponents into agent objects: spec strings go through
    :func:`monolith_envs.agents.make_agent`.

    Args:
        env_id: the env id the agents play (heuristics and MCTS defaults are per game).
        opponents: ``None``, one spec string (``"heuristic"``, ``"mcts:50"``, ``"random"``, ...) or agent
            object, or a list/tuple of them.  An agent object is anything with ``act(observation,
            action_mask, rng)`` and ``reset()``.
        env_config: the game config, given to spec strings' agents (a ``baseline`` chooses its network by it).

    Returns:
        a new list of agent objects, one per item, in order.

    Raises:
        ConfigError: an item that is neither a spec string nor an agent.
        monolith_envs.agents.AgentSpecError: a malformed spec string (a ``ValueError`` listing the accepted
            forms).
        monolith_envs.agents.NoBaselineError: ``baseline`` for a config without a shipped baseline.
    """
    if opponents is None:
        return []
    items = [opponents] if isinstance(opponents, str) or hasattr(opponents, "act") else opponents
    if not isinstance(items, (list, tuple)):
        raise ConfigError(f"opponents must be a list of agent spec strings or agents, one spec string, a "
                          f"sampler(rng, k) or None; got {type(opponents).__name__}")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            out.append(_agent_from_spec(item, env_id, env_config))
        elif isinstance(item, type):
            raise ConfigError(f"opponents[{i}] = {item.__name__} is an agent class; pass an instance, e.g. "
                              f"{item.__name__}(), or a spec string such as 'random'")
        elif callable(getattr(item, "act", None)) and callable(getattr(item, "reset", None)):
            out.append(item)
        else:
            raise ConfigError(f"opponents[{i}] = {item!r} is neither an agent spec string ('random', 'heuristic', "
                              "'mcts:N', 'ppo:PATH', ...) nor an agent with act(observation, action_mask, rng) "
                              "and reset()")
    return out


def _agent_from_spec(spec: str, env_id: str, env_config: dict | None = None) -> Any:
    """``monolith_envs.agents.make_agent(spec, env_id, env_config)``, imported only when a spec string is
    given (with the game config, a ``baseline`` spec for a config without a baseline fails here)."""
    from monolith_envs.agents import make_agent

    return make_agent(spec, env_id, env_config)


class CycledOpponents:
    """The default opponent sampler of :class:`SingleAgentEnv`: the agents of a list, cycled over the ``k``
    opponent seats of every episode (``rng`` unused).  A class, not a closure, so the env pickles."""

    def __init__(self, pool: list[Any]):
        self.pool = list(pool)

    def __call__(self, rng: np.random.Generator, k: int) -> list[Any]:
        return [self.pool[i % len(self.pool)] for i in range(k)]


#: the keywords of :class:`SingleAgentEnv` itself (besides the game's config keys and ``illegal_action``)
WRAPPER_KEYWORDS = ("opponents", "env_config", "seat", "seed", "shaping", "shaping_coef", "shaping_gamma",
                    "render_mode", "mask_in")


def _check_keywords(env_id: str, config: dict, in_env_config: frozenset = frozenset()) -> None:
    """Refuse a key that is neither a config key of ``env_id``'s game nor ``illegal_action``, naming where
    it was given (``in_env_config``: the keys that came in the ``env_config`` dict, the others as keywords),
    the game's keys, the wrapper's own keywords and the closest of them (a typo of ``opponents`` reaches
    here as a config key)."""
    import difflib

    game_keys = [k.name for k in monolith_envs.game_class(env_id).GAME_INFO.config_keys]
    unknown = [k for k in config if k not in game_keys and k != "illegal_action"]
    if not unknown:
        return
    known = list(WRAPPER_KEYWORDS) + game_keys + ["illegal_action"]
    hints = [f"{k!r}: did you mean {m[0]!r}?" for k in unknown
             if isinstance(k, str) and (m := difflib.get_close_matches(k, known, n=1))]
    where = []
    keywords = [k for k in unknown if k not in in_env_config]
    for label, keys in (("unknown config key(s) in env_config", [k for k in unknown if k in in_env_config]),
                        ("unknown keyword(s)", keywords)):
        if keys:
            where.append(f"{label} {', '.join(map(repr, keys))}")
    text = (f"{env_id}: {' and '.join(where)}" + (f" ({'; '.join(hints)})" if hints else "")
            + f"; SingleAgentEnv takes {', '.join(WRAPPER_KEYWORDS)}, illegal_action, and the game's config keys: "
            f"{', '.join(game_keys)}")
    if keywords:  # Python's own words for a keyword argument a function does not take, and its TypeError
        raise UnknownKeywordError(f"SingleAgentEnv() got an unexpected keyword argument {keywords[0]!r}"
                                  + (f" (and {', '.join(map(repr, keywords[1:]))})" if keywords[1:] else "")
                                  + f"; {text}")
    raise ConfigError(text)


class SingleAgentEnv(gym.Env):
    """Single-agent Gymnasium env around ``monolith_envs.make(env_id, **config)``.

    Args:
        env_id: registered env id.
        opponents: agents (cycled over the opponent seats; at most one per opponent seat): agent objects
            and/or agent spec strings such as ``"heuristic"``, ``"mcts:50"``, ``"random"`` (built by
            :func:`monolith_envs.agents.make_agent`, see :func:`resolve_opponents`), one spec string alone, or
            an :data:`OpponentSampler`
            ``sampler(rng, k) -> k agents`` called at every reset (self-play pools use this); may be empty
            (or ``None``) for a one-seat game.
        env_config: the game's config keys (and ``illegal_action``).
        seat: ``"rotate"`` (default: seat = (first seat + episode index) mod players; the first seat is 0, or
            drawn by ``reset(seed=...)``), ``"random"``, or a fixed seat int.
        seed: seeds the episode seeds, seat draws and the opponents' generators.
        shaping: ``value_fn(game, state) -> float[num_players]`` for potential-based shaping, ``"heuristic"``
            (the game's heuristic value function), or ``None`` / ``"none"``.
        shaping_coef: scale of the potential (reward units per unit of value), from -1e6 to 1e6.
        shaping_gamma: the learner's discount factor (must match the algorithm's ``gamma``), from 0 to 1.
        render_mode: ``None`` (``render()`` warns and returns ``None``), ``"ansi"`` (``render()`` returns the
            text), ``"human"`` (prints it after every ``reset`` and ``step``), ``"rgb_array"`` (``uint8[H, W,
            3]``) or ``"svg"`` (SVG text), as the AEC env.
        mask_in: ``"info"`` (default): the observation is the game's ``Box(float32[obs_size])`` and the mask
            is in ``info["action_mask"]`` (what SB3's ``MlpPolicy`` and SuperSuit need);
            ``"observation"``: a ``Dict`` of ``"observation"`` and ``"action_mask"`` (``int8[num_actions]``),
            as the AEC env's default.  ``action_masks()`` and ``info["action_mask"]`` are there in both.
        **config: more game config keys, merged into ``env_config`` (so ``gymnasium.make(id,
            num_players=3, mode="ffa")`` works).

    Spaces: ``observation_space`` = the game's ``Box(float32[obs_size])`` (or the ``Dict`` above);
    ``action_space`` = ``Discrete(num_actions)``.  ``info`` carries ``"seat"``, ``"action_mask"`` and, at the end,
    ``"returns"`` (``float32[num_players]``), ``"outcome"`` (the learner's ``Outcome`` value from
    ``game.outcome``: ``"win"``, ``"draw"``, ``"loss"``, ``"success"``, ``"failure"``, or ``"truncated"``) and
    ``"win"`` (1 for win or success, 0 for draw, truncation or a first place shared with another side, -1 for
    loss or failure; allies share one);
    with shaping, ``info`` also carries ``"game_reward"``, the unshaped part of the reward.  With
    ``env_config={"illegal_action": "penalize"}`` (what Gymnasium's and SB3's env checkers need, since they
    step random actions; the default of an env made from a Gymnasium id, see
    :mod:`monolith_envs.registration`) an illegal action ends the episode with reward -1 for its player, outcome
    ``"loss"`` (``"failure"`` alone) for the offender and ``"draw"`` for the others, and
    ``info["illegal_action"]`` tells whether the learner was the offender.

    Raises:
        ConfigError: bad ``seat``, ``render_mode``, ``mask_in`` or opponent, more opponents in a list than
            opponent seats, a key given both in ``env_config`` and as a keyword, or an unknown game config key
            (all ``ValueError``).
        ConfigError (a ``ValueError``): no opponent for a game with several seats.
        ValueError: a ``seed`` outside 0 to 2**128-1.
        TypeError: a ``seed`` that is not an integer.
        monolith_envs.IllegalActionError: the learner's action is illegal.
    """

    metadata: ClassVar[dict] = METADATA

    def __init__(
        self,
        env_id: str,
        opponents: Sequence[Any] | OpponentSampler | None = None,
        env_config: dict | None = None,
        seat: str | int = "rotate",
        seed: int | None = None,
        shaping: Callable[[Any, Any], Any] | None = None,
        shaping_coef: float = 1.0,
        shaping_gamma: float = 1.0,
        render_mode: str | None = None,
        mask_in: str = "info",
        **config: Any,
    ):
        super().__init__()
        self.env_id = env_id
        if env_config is not None and not isinstance(env_config, Mapping):
            raise ConfigError(f"{env_id}: env_config must be a dict of game config keys (e.g. {{'num_players': 3}}), "
                              f"got {type(env_config).__name__} {env_config!r:.80}")
        self.env_config = dict(env_config or {})
        both = sorted(set(self.env_config) & set(config))
        if both:
            raise ConfigError(f"{env_id}: {', '.join(both)} given both in env_config and as a keyword; give each once")
        self.env_config.update(config)
        if "wrapped" in self.env_config:
            raise ConfigError(f"{env_id}: wrapped is not an option of the single-agent env (it always steps the bare "
                              "AEC env, raw_env()); leave it out")
        if "mask_in" in self.env_config:  # the inner AEC env keeps its Dict; the wrapper places the mask itself
            raise ConfigError(f"{env_id}: pass mask_in to SingleAgentEnv(mask_in=...), not in env_config")
        if not (render_mode is None or (type(render_mode) is str and render_mode in RENDER_MODES)):
            raise ConfigError(f"{env_id}: render_mode={render_mode!r} is not supported; expected None or one of "
                              + ", ".join(map(repr, RENDER_MODES)))
        self.render_mode = render_mode
        self.mask_in = check_mask_in(mask_in, f"{env_id}: SingleAgentEnv")
        if seed is not None:
            seed = check_seed(seed)
        _check_keywords(env_id, self.env_config, frozenset(env_config or ()))
        self.aec = monolith_envs.make(env_id, wrapped=False, **self.env_config)
        self.game = self.aec.game
        self.num_players = self.game.num_players
        if isinstance(seat, np.integer):
            seat = int(seat)
        if not (seat in ("rotate", "random") or (type(seat) is int and 0 <= seat < self.num_players)):
            raise ConfigError(f"seat must be 'rotate', 'random' or 0..{self.num_players - 1}, got {seat!r}")
        self.seat_mode = seat
        self.action_space = gym.spaces.Discrete(self.game.layout.n)
        self.observation_space = observation_space_for(self.game.obs_spec.space, self.game.layout.n, self.mask_in)
        if callable(opponents) and not isinstance(opponents, (list, tuple, str)) and not hasattr(opponents, "act"):
            self._sampler: OpponentSampler = opponents
        else:
            pool = resolve_opponents(env_id, opponents, dict(self.game.config))
            if not pool and self.num_players > 1:
                raise ConfigError(f"{env_id} has {self.num_players} seats: at least one opponent agent is needed, "
                                  "e.g. opponents=['random'] (or 'heuristic', 'mcts:50', agent objects)")
            seats = self.num_players - 1
            if pool and seats == 0:
                raise ConfigError(f"{env_id} with 1 player is a solo game: it takes no opponents, got "
                                  f"{opponents!r:.120}; leave opponents out (or pass [])")
            if len(pool) > seats:
                # the extra agents would never play: a list is cycled over the opponent seats, not drawn from
                raise ConfigError(
                    f"{env_id} with {self.num_players} player(s) has {seats} opponent seat(s), got "
                    f"{len(pool)} opponents {opponents!r}: give at most {seats} (cycled over the opponent seats), "
                    "or a sampler(rng, k) -> k agents to draw from a larger pool at every reset")
            self._sampler = CycledOpponents(pool)
        self._rng = np.random.default_rng(seed)
        self._episode = 0
        self._rotation = 0  # seat of episode 0 in "rotate" mode (drawn by a seeded reset)
        self.learner = 0
        self.opponents: dict[int, Any] = {}
        self._opp_rngs: dict[int, np.random.Generator] = {}
        self._mask = np.zeros(self.game.layout.n, np.int8)
        self._failed: str | None = None  # what stopped the episode half-played (an opponent's error), else None
        self.opponent_steps = 0
        self._last_obs: np.ndarray | None = None
        self._shaping = _shaping_fn(env_id, shaping)
        self._shaping_coef = _finite("shaping_coef", shaping_coef, -1e6, 1e6)
        self._shaping_gamma = _finite("shaping_gamma", shaping_gamma, 0.0, 1.0)
        self._phi = 0.0

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start an episode: pick the learner's seat and opponents, let opponents act until the learner's turn.

        ``reset(seed=s)`` reproduces an episode exactly: it calls ``gymnasium.Env.reset(seed=s)`` and draws
        everything from ``self.np_random`` (so seeded with ``s``): the seat (``"rotate"`` restarts its
        rotation at a seat drawn from ``s``; ``"random"`` draws it), the opponents, the episode seed and
        the opponents' generators.  ``reset()`` without a seed continues the stream (``"rotate"`` moves to
        the next seat).

        Returns ``(observation float32[obs_size], info)``. ``options`` is ignored (the games have no reset
        options; options given are warned about, :class:`~monolith_envs.core.config.IgnoredOptionsWarning`).
        """
        warn_ignored_options(self.env_id, options)
        if seed is not None:
            seed = check_seed(seed)  # the range the constructor and the AEC env take
        for _ in range(_MAX_EMPTY_EPISODES):
            if self._start_episode(seed):
                break
            seed = None  # the next episode of the stream
        else:
            raise monolith_envs.MonolithEnvError(
                f"{self.env_id}: {_MAX_EMPTY_EPISODES} episodes in a row ended before the learner's seat "
                f"{self.learner} acted (max_decisions={self.aec.game.max_decisions}?); reset() returns a decision "
                "point of the learner, so give the game room for one")
        self._phi = self._potential(False)
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def _start_episode(self, seed: int | None) -> bool:
        """Start one episode (see :meth:`reset`) and let the opponents act; False when it ended before the
        learner's first decision."""
        super().reset(seed=seed)
        n = self.num_players
        if seed is not None:
            self._rng = self.np_random
            self._episode = 0
            self._rotation = int(self._rng.integers(n)) if self.seat_mode == "rotate" else 0
        if self.seat_mode == "rotate":
            self.learner = (self._rotation + self._episode) % n
        elif self.seat_mode == "random":
            self.learner = int(self._rng.integers(n))
        else:
            self.learner = int(self.seat_mode)
        self._episode += 1
        opp_seats = [s for s in range(n) if s != self.learner]
        self.opponents = dict(zip(opp_seats, self._sampled(len(opp_seats))))
        episode_seed = int(self._rng.integers(2**62))
        self.aec.reset(seed=episode_seed)
        self._failed = None
        streams = np.random.SeedSequence(episode_seed).spawn(n)
        self._opp_rngs = {s: np.random.default_rng(streams[s]) for s in opp_seats}
        for ag in self.opponents.values():
            ag.reset()
            if hasattr(ag, "bind"):
                ag.bind(self.aec)
        _, done = self._play_opponents()
        # an episode that ends before the learner ever acts is replaced by the next one (reset returns a
        # decision point); only a tiny max_decisions does that in these turn-based games
        return not done

    def _sampled(self, k: int) -> list[Any]:
        """The sampler's ``k`` opponents, checked: a list of exactly ``k`` agents with ``act`` and ``reset``.

        Raises:
            ConfigError: the sampler returned something else.
        """
        raw = self._sampler(self._rng, k)
        try:
            agents = list(raw)
        except TypeError:
            agents = None
        if agents is None or len(agents) != k:
            raise ConfigError(f"{self.env_id}: the opponent sampler(rng, k) must return a list of k={k} agents, "
                              f"got {raw!r:.120}")
        for ag in agents:
            if not callable(getattr(ag, "act", None)) or not callable(getattr(ag, "reset", None)):
                raise ConfigError(f"{self.env_id}: the opponent sampler returned {ag!r:.80}, not an agent (an "
                                  "object with act(observation, action_mask, rng) and reset())")
        return agents

    def step(self, action: int):
        """Apply the learner's action, then the opponents' until the learner must act or the episode ends.

        Returns ``(observation, reward, terminated, truncated, info)``; ``reward`` is the learner's reward
        summed over every AEC step since its previous decision, plus, with ``shaping``, the potential term
        ``shaping_gamma * phi(next) - phi(previous)`` (the game's own reward is then ``info["game_reward"]``).

        Raises:
            gymnasium.error.ResetNeeded: before ``reset()``, after the episode ended, or after an opponent's
                error stopped it.
            RuntimeError: the learner is not the seat to act (the AEC env was driven from outside).
            IllegalActionError: ``action`` not an integer in range, or not legal now (with
                ``illegal_action="raise"``, the default).
        """
        aec = self.aec
        if getattr(aec, "agent_selection", None) is None:
            raise gym.error.ResetNeeded(f"{self.env_id}: step() before reset(); call reset() first")
        me = aec.possible_agents[self.learner]
        if self._failed is not None:
            raise gym.error.ResetNeeded(f"{self.env_id}: step() after {self._failed}; the episode cannot go on, "
                                        "call reset()")
        if aec.terminations[me] or aec.truncations[me]:
            raise gym.error.ResetNeeded(f"{self.env_id}: step() after the episode ended (terminated or truncated); "
                                        "call reset()")
        if aec.agent_selection != me:
            raise RuntimeError(f"{self.env_id}: step() called when the learner is not to act; call reset()")
        try:
            aec.step(coerce_action(action, self.game.layout.n))  # 2.7 is refused, never truncated to 2
        except IllegalActionError as exc:
            if getattr(aec, "illegal_action", "raise") == "raise":
                exc.add_note("checkers that step random actions (gymnasium's and SB3's check_env) need "
                             "illegal_action='penalize', e.g. gymnasium.make(id, ..., illegal_action='penalize')")
            raise
        reward = float(aec.rewards[me])
        more, _ = self._play_opponents()
        reward += more
        terminated = bool(aec.terminations[me])
        truncated = bool(aec.truncations[me]) and not terminated
        info = self._info()
        if self._shaping is not None:
            info["game_reward"] = reward
            phi = self._potential(terminated or truncated)
            reward += self._shaping_gamma * phi - self._phi
            self._phi = phi
        if terminated or truncated:
            state = aec.game_state
            info["returns"] = np.asarray(self.game.returns(state), np.float32)
            outcomes = None  # the game's per-seat outcomes, where the rules finished the game
            if truncated:
                outcome = "truncated"
            elif any(aec.infos[a].get("illegal_action") for a in aec.possible_agents):
                # illegal_action="penalize" ended the episode in a state the rules did not finish
                mine = aec.infos[me].get("illegal_action", False)
                info["illegal_action"] = mine
                outcome = ("failure" if self.num_players == 1 else "loss") if mine else "draw"
            else:
                outcomes = self.game.outcome(state)
                outcome = outcomes[self.learner].value
            info["outcome"] = outcome
            info["win"] = (_WIN_SIGN[outcome] if outcomes is None  # a first place shared with another side: 0
                           else seat_win(outcomes, self.learner, self.game.teams))
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, info

    def set_state(self, state: Any) -> tuple[np.ndarray, float, bool]:
        """Replace the current game state (hand-built positions for tests and curricula).

        The opponents then act until the learner must decide.  Returns ``(observation, learner's reward
        meanwhile, episode over)``.  The AEC env's reward bookkeeping restarts from ``state``'s returns.

        Raises:
            MonolithEnvError: as the AEC env's ``set_game_state``: before ``reset()``, after the episode ended
                (``reset()``, then ``set_state``), a state of another game or config, or a terminal state.
        """
        self.aec.set_game_state(state)
        self._failed = None  # a new state: an earlier opponent's error no longer stops the episode
        reward, done = self._play_opponents()
        return self._obs(), reward, done

    def action_masks(self) -> np.ndarray:
        """``bool[num_actions]``: the learner's legal actions (all False once the episode is over, or after an
        opponent's error stopped it inside ``step``).

        Raises:
            gymnasium.error.ResetNeeded: before the first ``reset()``.
        """
        if getattr(self.aec, "agent_selection", None) is None:
            raise gym.error.ResetNeeded(f"{self.env_id}: action_masks() before reset(); call reset() first")
        return self._mask.astype(bool)

    def render(self) -> str | np.ndarray | None:
        """The current state, omniscient, as the AEC env renders it: text (``"ansi"``), printed text
        (``"human"``, returns ``None``), ``uint8[H, W, 3]`` (``"rgb_array"``) or SVG text (``"svg"``).
        Without a ``render_mode`` it warns and returns ``None`` (Gymnasium's convention).

        Raises:
            gymnasium.error.ResetNeeded: before the first ``reset()``.
        """
        if self.render_mode is None:
            gym.logger.warn(f"{self.env_id}: render() called without a render_mode; pass render_mode="
                            + ", ".join(map(repr, RENDER_MODES)) + " to the env")
            return None
        if self.aec.game_state is None:
            raise gym.error.ResetNeeded(f"{self.env_id}: render() before reset(); call reset() first")
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.aec.game_state)
        if self.render_mode == "svg":
            return self.game.render_svg(self.aec.game_state)
        text = self.game.render_text(self.aec.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ internals
    def _play_opponents(self) -> tuple[float, bool]:
        """Opponents act until the learner's turn; returns (learner's reward meanwhile, episode over)."""
        aec = self.aec
        me = aec.possible_agents[self.learner]
        reward = 0.0
        while True:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                self._mask = np.zeros(self.game.layout.n, np.int8)
                self._last_obs = None
                return reward, True
            if agent == me:
                o = aec.observe(me)
                self._mask, self._last_obs = o["action_mask"], o["observation"]
                return reward, False
            seat = aec.agent_name_mapping[agent]
            obs = aec.observe(agent)
            opponent = self.opponents[seat]
            if hasattr(opponent, "bind") and getattr(getattr(opponent, "ctx", None), "raw", None) is not aec.unwrapped:
                opponent.bind(self.aec)  # one agent object may play in several envs (gymnasium.make_vec passes
                # the same opponents to every copy): it reads the state of the env it acts in
            try:
                a = opponent.act(obs["observation"], obs["action_mask"], self._opp_rngs[seat])
                aec.step(coerce_action(a, self.game.layout.n))  # 464.99 or "464" is refused, never truncated
            except IllegalActionError as exc:
                who = f"the opponent {getattr(opponent, 'name', opponent)!r:.80} at seat {seat}"
                exc.add_note(f"the action came from {who}")
                self._fail(f"an illegal action of {who}")
                raise
            except BaseException:
                self._fail(f"an error of the opponent at seat {seat}")
                raise
            self.opponent_steps += 1
            reward += float(aec.rewards[me])

    def _potential(self, done: bool) -> float:
        """Shaping potential of the current state for the learner (0 without shaping or once done)."""
        if self._shaping is None or done:
            return 0.0
        raw = self._shaping(self.game, self.aec.game_state)
        try:
            values = np.asarray(raw, dtype=np.float64)
        except (TypeError, ValueError):
            values = None
        if values is None or values.shape != (self.num_players,) or not np.isfinite(values).all():
            raise ValueError(f"{self.env_id}: the shaping function must return {self.num_players} finite numbers "
                             f"(one value per seat), got {raw!r:.120}")
        return self._shaping_coef * float(values[self.learner])

    def _obs(self) -> np.ndarray | dict[str, np.ndarray]:
        if self._last_obs is not None:
            obs = np.asarray(self._last_obs, np.float32)
        else:
            obs = np.asarray(self.game.observe(self.aec.game_state, self.learner), np.float32)
        if self.mask_in == "observation":
            return {"observation": obs, "action_mask": self._mask.astype(np.int8)}
        return obs

    def _fail(self, what: str) -> None:
        """The episode stopped half-played inside ``step`` / ``reset``: no legal action until ``reset()``."""
        self._failed = what
        self._mask = np.zeros(self.game.layout.n, np.int8)
        self._last_obs = None

    def _info(self) -> dict:
        return {"seat": self.learner, "action_mask": self._mask.copy()}


def _shaping_fn(env_id: str, shaping: Any) -> Callable[[Any, Any], Any] | None:
    """The ``shaping`` argument of :class:`SingleAgentEnv` as a value function or None.

    Raises:
        ConfigError: anything but None, ``"none"``, ``"heuristic"`` or a callable.
    """
    if shaping is None or (isinstance(shaping, str) and shaping == "none"):
        return None
    if isinstance(shaping, str) and shaping == "heuristic":
        from monolith_envs.agents.heuristics import value_fn_for

        return value_fn_for(env_id)
    if callable(shaping):
        return shaping
    raise ConfigError(f"{env_id}: shaping must be None, 'none', 'heuristic' or a value_fn(game, state) -> "
                      f"float[num_players], got {shaping!r:.80}")


def _finite(name: str, value: Any, lo: float, hi: float) -> float:
    """``value`` as a float in ``lo .. hi`` (the game configs' :func:`number_range` check); a
    :class:`ConfigError` naming ``name`` otherwise."""
    allowed = number_range(lo, hi)(value)
    if allowed is not None:
        raise ConfigError(f"{name} must be {allowed}, got {value!r:.80}")
    return float(value)
