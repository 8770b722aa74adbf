"""The Ray backend of ``python -m monolith_envs fuzz ENV_ID --backend ray [--address ...]``.

The games are cut into chunks of consecutive seeds; each chunk is one Ray task (one CPU) that builds the
game once per worker process (from the game class, which Ray pickles by its module path) and plays its seeds with :func:`~monolith_envs.core.fuzz.fuzz_rollout`,
exactly as a local worker does.  At most ``2 * workers`` tasks are in flight: a campaign of 10^9
decisions never puts millions of tasks in the object store at once, and results stream back as tasks
finish (``ray.wait``), so :func:`~monolith_envs.core.fuzz.run_fuzz` prints progress, failure reports,
episode logs and reproduce commands the same way for both backends.  Ray schedules the tasks on any
node of the cluster; only the seeds go out and only :class:`~monolith_envs.core.fuzz.RolloutResult`\\ s
come back (the action list of a failure, a few numbers otherwise).

Signals: SIGINT and SIGTERM are held back while Ray's C++ core runs (``ray.init``, each ``ray.wait``) and
passed on to the handler installed before (the command's) when the call returns
(:func:`~monolith_envs.core.interrupt.signals_deferred`).  A handler that raises inside Ray's core comes
out as a bare ``KeyboardInterrupt`` (Ray's ``check_status``), past ``except Interrupted`` and its summary;
so ``ray.wait`` polls (at most :data:`_POLL_S` seconds) and a signal stops the run within that time.  Tasks
are never cancelled: a cancel racing a task that is just finishing makes Ray's core worker fail a check
("Tried to complete task that was not pending") and end this process with status 1.  An interrupted run
shuts its Ray instance down, or disconnects from the cluster, which ends its tasks.

Every node must have this package installed (and the game class's module importable). Ray is imported
here only, and only when this backend is chosen.
"""

from __future__ import annotations

import itertools
import json
import signal
import socket
from collections.abc import Iterable, Iterator
from typing import Any

from .fuzz import RolloutResult, fuzz_rollout
from .game import MonolithEnvError
from .interrupt import children_ignore_sigint, signals_deferred

__all__ = ["RayBackendError", "connect", "ray_results", "CONNECT_TIMEOUT_S"]

CONNECT_TIMEOUT_S = 10.0
"""How long ``--address HOST:PORT`` may take to answer before the command gives up (Ray itself would wait
for a missing cluster without end)."""

_GAMES: dict[str, Any] = {}


class RayBackendError(MonolithEnvError, RuntimeError):
    """Ray is not installed, or the cluster at ``address`` cannot be reached (the message says which)."""


#: longest ``ray.wait`` (seconds): a signal held back meanwhile stops the run when it returns
_POLL_S = 0.2


def _game(game_cls: Any, config: dict) -> Any:
    """The game of ``(game_cls, config)``, built once per Ray worker process."""
    key = json.dumps([game_cls.__module__, game_cls.__qualname__, config], sort_keys=True)
    if key not in _GAMES:
        _GAMES[key] = game_cls(config)
    return _GAMES[key]


def _chunk(game_cls: Any, config: dict, jobs: list[tuple]) -> list[RolloutResult]:
    game = _game(game_cls, config)
    return [fuzz_rollout(game, seed, checks, sample, every, timeout) for seed, sample, checks, every, timeout in jobs]


def _probe(address: str, timeout: float) -> None:
    """Fail fast when nothing listens at ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``)."""
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayBackendError(f"--address {address!r}: expected 'auto' or HOST:PORT of a running Ray cluster "
                              "(e.g. 10.0.0.5:6379)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or type(exc).__name__)
        raise RayBackendError(f"cannot reach the Ray cluster at {address!r} ({why} within {timeout:.0f} s); start "
                              "it with 'ray start --head' or give the head node's HOST:PORT") from None


def connect(address: str | None, workers: int, timeout: float = CONNECT_TIMEOUT_S) -> tuple[Any, bool]:
    """Connect to the Ray cluster at ``address`` or start a local instance with ``workers`` CPUs.

    Returns:
        ``(ray, started)``: the ``ray`` module and whether this call started Ray (then the caller shuts it
        down with ``ray.shutdown()``). An initialised Ray is reused as it is.

    Raises:
        RayBackendError: Ray is missing, ``address`` is malformed, or nothing answers at it within
            ``timeout`` seconds (checked before ``ray.init``, which would wait without end).
    """
    try:
        import ray
    except ImportError:
        raise RayBackendError("--backend ray needs Ray: pip install -e '.[distributed]'") from None
    if ray.is_initialized():
        return ray, False
    if address and address != "auto":
        _probe(address, timeout)
    try:
        # signals wait for ray.init (see the module doc); Ray's processes leave a terminal's Ctrl-C to this one
        with signals_deferred(), children_ignore_sigint():
            hold_sigterm = signal.getsignal(signal.SIGTERM)
            try:
                if address:
                    ray.init(address=address, log_to_driver=False)
                else:
                    ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
            except SystemExit:  # ray.init installs its own SIGTERM handlers, which exit: hold that SIGTERM too
                hold_sigterm(signal.SIGTERM, None)
    except ConnectionError as exc:
        raise RayBackendError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
    except BaseException:  # a signal held during ray.init: what it started ends before the signal is handled
        ray.shutdown()
        raise
    return ray, True


def ray_results(game_cls: Any, config: dict, jobs: Iterable[tuple], workers: int, address: str | None = None,
                chunk: int | None = None) -> Iterator[RolloutResult]:
    """Yield the :class:`RolloutResult` of every job as Ray tasks finish (unordered, like ``imap_unordered``).

    Args:
        game_cls, config: the game (``config`` as the user gave it; each worker validates it again).
        jobs: ``(seed, sample, checks, check_every, timeout)`` per game, as :func:`~monolith_envs.core.fuzz.run_fuzz`
            builds them: a list, or any iterable (read as the tasks are submitted, so a generator of 10^10
            jobs costs no memory).
        workers: tasks running at once (``2 * workers`` in flight); with no ``address`` also the CPUs of
            the local Ray instance this starts.
        address: ``"auto"`` or ``"HOST:PORT"`` of a running cluster; ``None`` starts a local instance.
        chunk: games per task (default: about 8 tasks per worker, at most 64 games; 64 for an iterable
            without a length).

    Raises:
        RayBackendError: Ray missing or the cluster unreachable.

    A Ray instance this call started is shut down when the iterator is exhausted or closed, which ends the
    tasks still running; otherwise closing it early leaves them to finish, their results dropped (the driver
    that shuts Ray down, e.g. :func:`~monolith_envs.core.fuzz.run_fuzz`, ends them).  A signal that arrives
    during a Ray call is raised (by the handler installed before) once that call returns: within
    :data:`_POLL_S` seconds while waiting for results.
    """
    ray, started = connect(address, workers)
    n = len(jobs) if hasattr(jobs, "__len__") else None
    size = chunk or (max(1, min(64, n // (workers * 8) or 1)) if n is not None else 64)
    it = iter(jobs)
    chunks = iter(lambda: list(itertools.islice(it, size)), [])
    pending: list[Any] = []
    try:
        with signals_deferred():
            task = ray.remote(num_cpus=1)(_chunk)
            cfg_ref = ray.put(dict(config))
        while True:
            with signals_deferred():  # Ray's core is never interrupted (module doc): a signal waits for the end
                while len(pending) < 2 * workers and (part := next(chunks, None)):
                    pending.append(task.remote(game_cls, cfg_ref, part))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1, timeout=_POLL_S)
                results = ray.get(done[0]) if done else []
            yield from results
    finally:
        if started:
            with signals_deferred():
                ray.shutdown()
