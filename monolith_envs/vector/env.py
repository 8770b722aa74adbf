"""``make_vec``: N independent games of one env id and config, stepped together (README "Batched
stepping").

One call steps every game once: each game's acting seat plays its action from an ``int64[N]`` array, and
the results are written in place into preallocated arrays (:class:`VecResult` holds views of them). A game
that ends starts its next game in the same step (Gymnasium's SAME_STEP autoreset), so the observation and
mask returned are always those of a game in progress. With ``workers=k`` the games are split over ``k``
processes that write into one shared-memory block.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import threading
import weakref
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from ..core.aec import MASK_IN, ResetNeededError, check_mask_in, observation_space_for
from ..core.config import ConfigError, short_repr, warn_ignored_options
from ..core.game import IllegalActionError, MonolithEnvError
from ..core.processes import local_worker_limit, worker_limit_why
from ..core.seeds import SEED_MODULUS, check_seed
from ._slots import ARRAY_FIELDS, Slots, array_shapes
from ._workers import WorkerError, WorkerPool

__all__ = ["VectorEnv", "VecResult", "make_vec", "WorkerError", "MAX_NUM_ENVS", "MASK_PLACEMENTS"]

MAX_NUM_ENVS = 65536
MAX_WORKERS = 256
MAX_ARRAY_BYTES = 4 * 2**30
MASK_PLACEMENTS = MASK_IN  # ("observation", "info"), as in the AEC env and the single-agent wrapper
#: options of :func:`monolith_envs.make` that a vector env takes only at their defaults: name -> (the default,
#: why another value is refused)
VECTOR_REFUSES = {
    "render_mode": (None, "a vector env does not render; draw one game with make(env_id, render_mode=...) and "
                          "a seed of vec.episode_seeds()"),
    "illegal_action": ("raise", "a masked-out action always raises IllegalActionError naming the game"),
    "wrapped": (True, "a vector env has no PettingZoo wrapper to leave out"),
}


#: every live vector of this process, for the fork hook below
_VECTORS: "weakref.WeakSet[VectorEnv]" = weakref.WeakSet()


def _fresh_locks_in_child() -> None:
    """In a forked child: a fresh lock for every vector (another thread of the parent may have held one while
    the process forked; that thread does not exist in the child)."""
    for vec in list(_VECTORS):
        vec._lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks_in_child)


def _one_caller(method: Any) -> Any:
    """A :class:`VectorEnv` method that refuses to run while another thread is inside one: the vector's arrays
    and its workers' pipes hold one call at a time (two threads would read each other's answers)."""

    @functools.wraps(method)
    def run(self: "VectorEnv", *args: Any, **kwargs: Any) -> Any:
        if not self._lock.acquire(blocking=False):
            raise MonolithEnvError(f"make_vec {method.__name__}: the vector env is in use by another thread (its "
                                   "step, reset or observe has not returned): use a vector from one thread at a "
                                   "time, or one vector per thread")
        try:
            return method(self, *args, **kwargs)
        finally:
            self._lock.release()

    return run


class VecResult(NamedTuple):
    """The result of :meth:`VectorEnv.reset` and :meth:`VectorEnv.step`: views of the vector's arrays,
    overwritten by the next ``reset`` or ``step`` (copy what you keep; changing them changes nothing in the
    games: ``step`` checks the actions against its own copy of the masks).

    Attributes:
        observation: ``float32[N, m]``, each game's observation from its acting seat's view (the vector
            ``env.observe(agent)["observation"]`` of the AEC env).
        action_mask: ``bool[N, n]``, the legal actions of the acting seat (never all False).
        current_seat: ``int32[N]``, the seat to act in each game.
        rewards: ``float32[N, P]``, what each seat got from this step (0 after ``reset``).
        terminated, truncated: ``bool[N]``, the game ended on this step (and the slot started its next game).
        final_returns: ``float32[N, P]``, the returns of the game that ended on this step; 0 where none did.
        final_observation: ``float32[N, m]``, where a game ended on this step (``terminated | truncated``),
            its last state from the view of the seat that just acted (the AEC env's ``observe(agent)`` of
            that seat after the step), to bootstrap a truncated game's value. Read it only there: the other rows
            are not rewritten on every step (they hold 0, unless the caller wrote into them).
    """

    observation: np.ndarray
    action_mask: np.ndarray
    current_seat: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    final_returns: np.ndarray
    final_observation: np.ndarray


def _int_arg(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ConfigError(f"make_vec: {name}={value!r} is not allowed; expected an integer from {low} to {high}")
    return int(value)


class VectorEnv:
    """N independent games of one env id and config (see :func:`make_vec` for the arguments).

    Attributes:
        env_id, num_envs, workers, game: the env id, N, the number of worker processes (0: in process) and
            the rules engine (the main process's copy).
        num_players, num_actions, obs_size: P, n and m of the arrays.
        single_observation_space, single_action_space: one game's observation space as the AEC env gives it
            under ``mask_in`` (``Dict(observation=Box(m), action_mask=Box(n, int8))`` for ``"observation"``,
            ``Box(m)`` for ``"info"``) and ``Discrete(n)``.
        observation_space, action_space: the same for all N games, as a Gymnasium vector env gives them
            (``batch_space`` of the single observation space; ``MultiDiscrete([n] * N)``).
        infos: with ``mask_in="info"``, ``{"action_mask": bool[N, n]}`` (a view of the result's mask, the
            other PettingZoo convention); ``{}`` otherwise. The result's arrays are the same in both modes:
            ``observation`` is always the plain ``float32[N, m]`` array with the mask beside it.

    One thread at a time: a ``reset``, ``step`` or ``observe`` called while another thread is inside one raises
    ``MonolithEnvError`` (use one vector per thread). With ``workers > 0`` only the process that made the vector
    uses it: in a forked child every method raises ``MonolithEnvError``, and the child's exit or garbage
    collection leaves the parent's workers running.
    """

    def __init__(self, env_id: str, num_envs: int, *, workers: int = 0, mask_in: str = "observation",
                 timeout: float = 60.0, start_method: str | None = None, **config: Any):
        from .. import game_class

        game_cls = game_class(env_id)
        self._lock = threading.Lock()  # one reset / step / observe at a time (_one_caller)
        _VECTORS.add(self)
        self.env_id = env_id
        self.num_envs = n_envs = _int_arg(num_envs, "num_envs", 1, MAX_NUM_ENVS)
        if (isinstance(workers, (int, np.integer)) and not isinstance(workers, bool)
                and n_envs < workers <= MAX_WORKERS):
            raise ConfigError(f"make_vec: workers={workers} is more processes than games: a worker runs at least one "
                              f"game, so at most num_envs={n_envs} workers")
        self.workers = _int_arg(workers, "workers", 0, min(MAX_WORKERS, n_envs))
        if self.workers > local_worker_limit():
            raise ConfigError(f"make_vec: workers={self.workers} is more processes than this machine takes: at "
                              f"most {local_worker_limit()} ({worker_limit_why()})")
        self.mask_in = check_mask_in(mask_in, "make_vec")
        methods = multiprocessing.get_all_start_methods()
        if start_method is not None and start_method not in methods:
            raise ConfigError(f"make_vec: start_method={start_method!r} is not allowed; expected None (the default) "
                              f"or one of {methods}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not (
                math.isfinite(timeout) and 0 < timeout <= 86400):
            raise ConfigError(f"make_vec: timeout={timeout!r} is not allowed; expected seconds, a number above 0 "
                              "and at most 86400")
        config = dict(config)
        refused = []
        for key, (default, why) in VECTOR_REFUSES.items():
            if key in config:
                value = config.pop(key)
                if not (value is default or (isinstance(value, str) and value == default)):
                    refused.append(f"{key}={short_repr(value)} ({why})")
        if refused:
            raise ConfigError(f"make_vec: {'; '.join(refused)}: options of make(), not config keys of {env_id}, "
                              "and a vector env takes only their defaults")
        self.game = game = game_cls(dict(config))  # validates the config (ConfigError)
        self.num_players, self.num_actions = game.num_players, game.layout.n
        self.obs_size = game.obs_spec.size
        shapes = array_shapes(n_envs, self.num_players, self.num_actions, self.obs_size)
        nbytes = sum(int(np.prod(s)) * np.dtype(ARRAY_FIELDS[k]).itemsize for k, s in shapes.items())
        if nbytes > MAX_ARRAY_BYTES:
            raise ConfigError(f"make_vec: num_envs={n_envs} needs {nbytes / 2**30:.1f} GiB of arrays for "
                              f"{env_id} (observation of {self.obs_size} floats, {self.num_players} seats); "
                              f"the limit is {MAX_ARRAY_BYTES // 2**30} GiB: use fewer games")
        self.single_observation_space = observation_space_for(game.obs_spec.space, self.num_actions, self.mask_in)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n_envs)
        self.action_space = spaces.MultiDiscrete(np.full(n_envs, self.num_actions, np.int64))
        self._pool: WorkerPool | None = None
        self._slots: Slots | None = None
        if self.workers:
            self._pool = WorkerPool(game_cls, dict(config), n_envs, self.workers, shapes, timeout, start_method)
            arrays = self._pool.arrays
        else:
            arrays = {k: np.zeros(s, ARRAY_FIELDS[k]) for k, s in shapes.items()}
            self._slots = Slots(game, 0, n_envs, n_envs, arrays)
        self._arrays = arrays
        self._result = VecResult(*(arrays[f] for f in VecResult._fields))
        # step checks the actions against its own copy of the masks it returned: the caller's view may be
        # changed in place (masking for a policy), and an illegal action let through would reach the engine
        # part way through a step and lose every game in progress
        self._legal = np.zeros_like(arrays["action_mask"])
        #: ``mask_in="info"``: ``{"action_mask": bool[N, n]}``, a view of the result's mask; else ``{}``
        self.infos: dict[str, np.ndarray] = {"action_mask": arrays["action_mask"]} if self.mask_in == "info" else {}
        self._rows = np.arange(n_envs)
        self._seed: int | None = None
        self._seed_rng: np.random.Generator | None = None  # draws the base seed of an unseeded reset()
        self._games = np.zeros(n_envs, np.int64)
        self._closed = False
        self._broken: str | None = "reset() has not been called; call reset() first"

    # ------------------------------------------------------------------ episode
    @_one_caller
    def reset(self, seed: int | None = None, options: dict | None = None) -> VecResult:
        """Start a new game in every slot: game ``i`` with seed ``seed + i`` (its later games take
        ``seed + i + N * k``; every game seed modulo 2**128, so near the largest seed they wrap to 0, 1, ...).
        Game seeds are consecutive: runs whose base seeds are close share games (base seeds 0 and 1 play
        the same games shifted by one slot), so give separate runs base seeds far apart (``run * 10**12``).
        ``seed=None`` draws the base seed from the vector's own generator, as Gymnasium's ``np_random``: the
        one the last seeded ``reset(seed=s)`` started (so ``reset(seed=s)`` then ``reset()`` reproduces), or,
        before any seeded reset, one from OS entropy. ``options`` is taken for Gymnasium's signature
        and ignored, as the AEC env's ``reset`` does (the games have no reset options; options given are
        warned about, :class:`~monolith_envs.core.config.IgnoredOptionsWarning`).

        Returns:
            the :class:`VecResult` (rewards 0, no game ended).

        Raises:
            TypeError: ``seed`` is not an integer (as the AEC env's ``reset``).
            ValueError: an integer seed below 0 or above ``2**128 - 1``.
            MonolithEnvError: the vector env is closed.
        """
        self._check_open()
        warn_ignored_options(f"make_vec({self.env_id!r})", options)
        if seed is None:
            if self._seed_rng is None:
                self._seed_rng = np.random.default_rng()  # OS entropy: no seeded reset yet
            seed = int(self._seed_rng.integers(0, 2**63 - 1))
        else:
            seed = check_seed(seed, "make_vec reset: seed")
            self._seed_rng = np.random.default_rng(seed)  # the next unseeded resets follow from this seed
        self._broken = "a previous reset() failed; call reset() again"
        if self._pool is not None:
            self._pool.send_all("reset", seed)
        else:
            self._slots.reset(seed)
        self._seed = seed
        self._games[:] = 0
        np.copyto(self._legal, self._arrays["action_mask"])
        self._broken = None
        return self._result

    @_one_caller
    def step(self, actions: Any) -> VecResult:
        """Play one action in every game: ``actions[i]`` for the acting seat of game ``i``.

        Args:
            actions: ``int64[N]`` (any integer array-like of shape ``(N,)``).

        Returns:
            the :class:`VecResult`; the slots whose game ended hold the first observation of their next game.

        Raises:
            ValueError: ``actions`` is not an integer array of shape ``(N,)`` (a list holding a bool too).
            IllegalActionError: an action out of range or masked out; the message names the first such game
                (``game_index``); nothing is played.
            ResetNeededError: ``step`` before ``reset`` or after a failed step (a ``MonolithEnvError``, as the
                AEC env raises before its first ``reset``).
            MonolithEnvError: after ``close``.
            WorkerError: a worker died or hung (the vector env is then closed).
        """
        self._check_open()
        if self._broken is not None:
            raise ResetNeededError(f"make_vec step: {self._broken}")
        acts = np.asarray(actions)
        items = acts.tolist() if acts.shape == (self.num_envs,) and acts.dtype == object else None
        seq = actions if isinstance(actions, (list, tuple)) else items or ()
        k = next((k for k, a in enumerate(seq) if isinstance(a, (bool, np.bool_))), None)
        if k is not None:  # numpy reads a True in a list of ints as action 1
            raise ValueError(f"make_vec step: actions[{k}] is {seq[k]!r}, a bool; actions are integers from 0 to "
                             f"{self.num_actions - 1}")
        if items is not None and all(isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_))
                                     for a in items):
            # integers kept as objects (one too large for int64, a mix with numpy integers, or asked to)
            items = [int(a) for a in items]
            out = next(((k, a) for k, a in enumerate(items) if not 0 <= a < self.num_actions), None)
            if out is not None:
                raise self._out_of_range(*out)
            acts = np.asarray(items, np.int64)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(f"make_vec step: actions must be an integer array of shape ({self.num_envs},), got "
                             f"{acts.dtype} of shape {acts.shape}")
        bad = (acts < 0) | (acts >= self.num_actions)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise self._out_of_range(i, int(acts[i]))
        arrays = self._arrays
        ok = self._legal[self._rows, acts]
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            if self._pool is None:
                raise self._slots.illegal(i, int(acts[i]))
            self._pool.ask(self._pool.owner(i), "illegal", (i, int(acts[i])))
        arrays["actions"][:] = acts
        self._broken = "a previous step() failed part way; call reset()"
        if self._pool is not None:
            self._pool.send_all("step")
        else:
            self._slots.step()
        self._broken = None
        self._games += arrays["terminated"] | arrays["truncated"]
        np.copyto(self._legal, arrays["action_mask"])
        return self._result

    def _out_of_range(self, i: int, action: int) -> IllegalActionError:
        """The error of ``action`` (an int outside ``0..n-1``) given to game ``i``, with the attributes of a
        masked-out action's error (``game_index``, ``action``)."""
        err = IllegalActionError(repr(action), "out of range", f"actions are 0..{self.num_actions - 1}")
        err.args = (f"game {i} of {self.num_envs}: {err}",)  # named as a masked-out action's game is
        err.game_index = i
        err.action = action
        return err

    @_one_caller
    def observe(self, seat: int) -> np.ndarray:
        """``float32[N, m]``: seat ``seat``'s observation of every game (for all-seat self-play and centralised
        critics), the same vector as the AEC env's ``observe(f"player_{seat}")["observation"]``. A view of a
        preallocated array per seat, overwritten by the next ``observe(seat)`` of the same seat.

        Raises:
            ValueError: ``seat`` is not an integer from 0 to P-1.
            ResetNeededError: before ``reset``, or after a ``step`` or ``reset`` that failed part way (a
                ``MonolithEnvError``).
            MonolithEnvError: after ``close``.
        """
        self._check_open()
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.num_players:
            raise ValueError(f"make_vec observe: seat={seat!r} is not a seat; expected an integer from 0 to "
                             f"{self.num_players - 1}")
        self._check_readable("observe")
        if self._pool is not None:
            self._pool.send_all("observe", int(seat))
        else:
            self._slots.observe(int(seat))
        return self._arrays["seat_observation"][int(seat)]

    def game_states(self) -> tuple:
        """The state of the game now in progress in each slot, to read (in process, ``workers=0``, only): for
        reward shaping with a value of the state, or a search started from it with ``vec.game``.

        The states are the vector's own objects, not copies: read them, never change them (``vec.game.clone
        (state)`` gives one to play on). Each holds until the next ``step`` or ``reset``, which plays it on
        in place or replaces it (a slot whose game ended holds its next game).

        Returns:
            a tuple of N states, entry ``i`` for game ``i`` (the game whose observation is ``observation[i]``).

        Raises:
            MonolithEnvError: the games run in worker processes (``workers > 0``), or after ``close``.
            ResetNeededError: before ``reset``, or after a ``step`` or ``reset`` that failed part way.
        """
        self._check_open()
        if self._pool is not None:
            raise MonolithEnvError(f"make_vec game_states: the games run in {self.workers} worker processes and "
                                   "their states stay there; use workers=0 to read them")
        self._check_readable("game_states")
        return tuple(self._slots.states)

    def episode_seeds(self) -> list[int]:
        """The seed of the game now in progress in each slot (``seed + i + N * k``, modulo 2**128), for replaying it in
        ``make(env_id, **config).reset(seed=...)``.

        Raises:
            ResetNeededError: before ``reset``, or after a ``step`` or ``reset`` that failed part way (a
                ``MonolithEnvError``).
            MonolithEnvError: after ``close``.
        """
        self._check_open()
        self._check_readable("episode_seeds")
        n = self.num_envs
        return [(self._seed + i + n * int(k)) % SEED_MODULUS for i, k in enumerate(self._games)]

    def _check_readable(self, what: str) -> None:
        """Reads need games in a known state: after ``reset``, and not after a ``step`` or ``reset`` that failed
        part way (some slots played on, some not)."""
        if self._seed is None:
            raise ResetNeededError(f"make_vec {what}: call reset() first")
        if self._broken is not None:
            raise ResetNeededError(f"make_vec {what}: {self._broken}")

    # ------------------------------------------------------------------ lifetime
    def _check_open(self) -> None:
        if self._closed or (self._pool is not None and self._pool.closed):
            self._closed = True
            raise MonolithEnvError("make_vec: the vector env is closed")
        if self._pool is not None and self._pool.owner_pid != os.getpid():
            raise MonolithEnvError(f"make_vec: this vector env's worker processes belong to process "
                                   f"{self._pool.owner_pid}, which made it; process {os.getpid()} is a fork of it "
                                   "and cannot use them (it would play that process's games): call make_vec in "
                                   "this process")

    def close(self) -> None:
        """End every worker process (idempotent; ``with`` and garbage collection also do it)."""
        self._closed = True
        if self._pool is not None:
            self._pool.close()

    def __reduce__(self):
        """A vector is not pickled or copied: it owns worker processes, shared memory and compiled writers.

        Raises:
            TypeError: always, naming what to do instead.
        """
        raise TypeError(f"a make_vec vector of {self.env_id} cannot be pickled or copied (it owns its worker "
                        "processes and shared memory); pass make_vec's arguments instead and build the vector "
                        "where it is used")

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"VectorEnv({self.env_id!r}, num_envs={self.num_envs}, workers={self.workers}, "
                f"players={self.num_players}, obs={self.obs_size}, actions={self.num_actions})")


def make_vec(env_id: str, num_envs: int, *, workers: int = 0, mask_in: str = "observation",
             timeout: float = 60.0, start_method: str | None = None, **config: Any) -> VectorEnv:
    """N independent games of ``env_id`` with one config, stepped together (README "Batched stepping").

    Args:
        env_id: a registered env id (:func:`monolith_envs.available_envs`).
        num_envs: N, from 1 to 65536.
        workers: 0 (default) runs the games in this process; ``k`` (1..min(256, N), and at most 4 per CPU of
            this machine, :func:`~monolith_envs.core.processes.local_worker_limit`) splits them over ``k``
            worker processes writing into shared memory. The trajectories do not depend on ``k``.
        mask_in: ``"observation"`` (default) or ``"info"``, the two PettingZoo conventions as in the AEC env:
            it sets ``single_observation_space`` (a ``Dict`` with the mask, or the plain ``Box``) and, for
            ``"info"``, ``infos["action_mask"]``; the result's ``observation`` and ``action_mask`` arrays are
            the same in both.
        timeout: seconds to wait for a worker's answer before it is reported hung (the start-up of the
            workers gets at least 60 s).
        start_method: ``multiprocessing`` start method of the workers (default ``"forkserver"`` where
            available, else ``"spawn"``; a script that makes workers needs ``if __name__ == "__main__":``).
        **config: the game's config keys, as for :func:`monolith_envs.make`.

    Returns:
        a :class:`VectorEnv`; call ``reset(seed)`` first.

    Raises:
        UnknownEnvError: unknown env id.
        ConfigError: a bad config key or value, ``num_envs``, ``workers``, ``mask_in``, ``timeout`` or
            ``start_method`` (checked with ``workers=0`` too), or
            arrays above 4 GiB.
        WorkerError: a worker did not start.
    """
    return VectorEnv(env_id, num_envs, workers=workers, mask_in=mask_in, timeout=timeout,
                     start_method=start_method, **config)
