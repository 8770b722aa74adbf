"""The Ray backend of ``python -m monolith_envs fuzz ENV_ID --backend ray [--address ...]``.

The games are cut into chunks of consecutive seeds; each chunk is one Ray task (one CPU) that builds the
game once per worker process (from the game class, which Ray pickles by its module path) and plays its seeds with :func:`~monolith_envs.core.fuzz.fuzz_rollout`,
exactly as a local worker does.  At most ``2 * workers`` tasks are in flight: a campaign of 10^9
decisions never puts millions of tasks in the object store at once, and results stream back as tasks
finish (``ray.wait``), so :func:`~monolith_envs.core.fuzz.run_fuzz` prints progress, failure reports,
episode logs and reproduce commands the same way for both backends.  Ray schedules the tasks on any
node of the cluster; only the seeds go out and only :class:`~monolith_envs.core.fuzz.RolloutResult`\\ s
come back (the action list of a failure, a few numbers otherwise).

Every node must have this package installed (and the game class's module importable). Ray is imported
here only, and only when this backend is chosen.
"""

from __future__ import annotations

import itertools
import json
import socket
from collections.abc import Iterable, Iterator
from typing import Any

from .fuzz import RolloutResult, fuzz_rollout
from .game import MonolithEnvError

__all__ = ["RayBackendError", "connect", "ray_results", "CONNECT_TIMEOUT_S"]

CONNECT_TIMEOUT_S = 10.0
"""How long ``--address HOST:PORT`` may take to answer before the command gives up (Ray itself would wait
for a missing cluster without end)."""

_GAMES: dict[str, Any] = {}


class RayBackendError(MonolithEnvError, RuntimeError):
    """Ray is not installed, or the cluster at ``address`` cannot be reached (the message says which)."""


#: seconds an interrupted run waits for its tasks in flight before it shuts its local Ray instance down
_DRAIN_SECONDS = 5.0


def _game(game_cls: Any, config: dict) -> Any:
    """The game of ``(game_cls, config)``, built once per Ray worker process."""
    key = json.dumps([game_cls.__module__, game_cls.__qualname__, config], sort_keys=True)
    if key not in _GAMES:
        _GAMES[key] = game_cls(config)
    return _GAMES[key]


def _chunk(game_cls: Any, config: dict, jobs: list[tuple]) -> list[RolloutResult]:
    game = _game(game_cls, config)
    return [fuzz_rollout(game, seed, checks, sample, every) for seed, sample, checks, every in jobs]


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
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
    except ConnectionError as exc:
        raise RayBackendError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
    return ray, True


def ray_results(game_cls: Any, config: dict, jobs: Iterable[tuple], workers: int, address: str | None = None,
                chunk: int | None = None) -> Iterator[RolloutResult]:
    """Yield the :class:`RolloutResult` of every job as Ray tasks finish (unordered, like ``imap_unordered``).

    Args:
        game_cls, config: the game (``config`` as the user gave it; each worker validates it again).
        jobs: ``(seed, sample, checks, check_every)`` per game, as :func:`~monolith_envs.core.fuzz.run_fuzz`
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
    tasks still running; on a cluster it did not start, closing it early (an interrupted run) cancels them,
    forcefully.
    """
    ray, started = connect(address, workers)
    n = len(jobs) if hasattr(jobs, "__len__") else None
    size = chunk or (max(1, min(64, n // (workers * 8) or 1)) if n is not None else 64)
    task = ray.remote(num_cpus=1)(_chunk)
    cfg_ref = ray.put(dict(config))
    it = iter(jobs)
    chunks = iter(lambda: list(itertools.islice(it, size)), [])
    pending: list[Any] = []
    try:
        for part in chunks:
            pending.append(task.remote(game_cls, cfg_ref, part))
            if len(pending) >= 2 * workers:
                done, pending = ray.wait(pending, num_returns=1)
                yield from ray.get(done[0])
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        if started:
            # the instance and its workers end here; no cancel first: a forced cancel racing a task that is
            # just finishing can make Ray's core worker fail a check and end this process with status 1, and
            # so can a shutdown while task replies are still arriving: the tasks in flight (at most
            # 2 * workers chunks) are given a few seconds to finish first, their results dropped
            if pending:
                try:
                    ray.wait(pending, num_returns=len(pending), timeout=_DRAIN_SECONDS)
                except BaseException:  # noqa: BLE001 - a second signal or a failed task: shut down anyway
                    pass
            ray.shutdown()
        else:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # noqa: BLE001 - a task that just finished cannot be cancelled
                    pass
