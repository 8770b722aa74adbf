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

import json
from collections.abc import Iterator
from typing import Any

from .fuzz import RolloutResult, fuzz_rollout

__all__ = ["RayBackendError", "ray_results"]

_GAMES: dict[str, Any] = {}


class RayBackendError(RuntimeError):
    """Ray is not installed, or the cluster at ``address`` cannot be reached (the message says which)."""


def _game(game_cls: Any, config: dict) -> Any:
    """The game of ``(game_cls, config)``, built once per Ray worker process."""
    key = json.dumps([game_cls.__module__, game_cls.__qualname__, config], sort_keys=True)
    if key not in _GAMES:
        _GAMES[key] = game_cls(config)
    return _GAMES[key]


def _chunk(game_cls: Any, config: dict, jobs: list[tuple]) -> list[RolloutResult]:
    game = _game(game_cls, config)
    return [fuzz_rollout(game, seed, checks, sample, every) for seed, sample, checks, every in jobs]


def _connect(address: str | None, workers: int) -> tuple[Any, bool]:
    try:
        import ray
    except ImportError:
        raise RayBackendError("--backend ray needs Ray: pip install -e '.[distributed]'") from None
    if ray.is_initialized():
        return ray, False
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
    except ConnectionError as exc:
        raise RayBackendError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
    return ray, True


def ray_results(game_cls: Any, config: dict, jobs: list[tuple], workers: int, address: str | None = None,
                chunk: int | None = None) -> Iterator[RolloutResult]:
    """Yield the :class:`RolloutResult` of every job as Ray tasks finish (unordered, like ``imap_unordered``).

    Args:
        game_cls, config: the game (``config`` as the user gave it; each worker validates it again).
        jobs: ``(seed, sample, checks, check_every)`` per game, as :func:`~monolith_envs.core.fuzz.run_fuzz`
            builds them.
        workers: tasks running at once (``2 * workers`` in flight); with no ``address`` also the CPUs of
            the local Ray instance this starts.
        address: ``"auto"`` or ``"HOST:PORT"`` of a running cluster; ``None`` starts a local instance.
        chunk: games per task (default: about 8 tasks per worker, at most 64 games).

    Raises:
        RayBackendError: Ray missing or the cluster unreachable.

    A Ray instance this call started is shut down when the iterator is exhausted or closed.
    """
    ray, started = _connect(address, workers)
    size = chunk or max(1, min(64, len(jobs) // (workers * 8) or 1))
    task = ray.remote(num_cpus=1)(_chunk)
    cfg_ref = ray.put(dict(config))
    chunks = (jobs[i:i + size] for i in range(0, len(jobs), size))
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
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()
