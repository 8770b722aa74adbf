"""Timing helpers shared by every benchmark: budgets, repeat/median logic and the random masked policy."""

from __future__ import annotations

import gc
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from time import perf_counter
from typing import Any

import numpy as np

from monolith_envs.core.seeds import SEED_MODULUS, seed_plus

__all__ = [
    "BUDGETS",
    "Budget",
    "RandomPolicy",
    "SEED_MODULUS",
    "median",
    "per_call_us",
    "seed_plus",
]

#: every seed a benchmark derives from ``--seed`` (``seed + k`` for the k-th game, ``seed + 10_000`` for the
#: reset timings, ...) wraps modulo 2**128, the rule of the package's game seeds (``seed_plus``,
#: ``SEED_MODULUS`` of :mod:`monolith_envs.core.seeds`), so any ``--seed`` from 0 to 2**128-1 gives valid seeds


@dataclass(frozen=True)
class Budget:
    """How much time each measurement may take.

    Attributes:
        name: ``"full"``, ``"quick"`` or ``"smoke"``.
        loop_seconds: wall time of one repeat of a throughput loop (AEC, engine, reference loops).
        repeats: repeats of each throughput loop; the reported figure is the median.
        warmup_seconds: untimed play before the first repeat of a loop.
        latency_states: number of sampled states on which clone / observe / JSON are timed.
        latency_repeats: timed calls on each sampled state or reset seed (after one untimed pass); the fastest call per
            state is kept and these are averaged over the states (:func:`per_call_us`).
        reset_calls: ``reset(seed=k)`` calls per timed pass.
        progress_games: random games instrumented call by call for the early / mid / late figures.
        progress_max_seconds: cap on the time spent on those games.
        memory_envs: live env instances created for the tracemalloc figure.
        memory_steps: random decisions played on each of those instances before measuring.
        train_steps: timed MaskablePPO env-steps per vec-env kind (0 skips training).
        train_warmup_steps: untimed MaskablePPO steps before timing (model build, first rollouts).
        train_n_steps: MaskablePPO ``n_steps`` (rollout length per env).
        pair_slice_seconds: wall time of one slice of the paired "× C4" measurement (each Monolith
            configuration and connect four play one slice each per round, in turn).
        pair_rounds: rounds of that paired measurement.
        secondary_loop_seconds: wall time of the one-repeat loops of a Monolith row (bare AEC, engine +
            observe); ``None``: ``loop_seconds``.
    """

    name: str
    loop_seconds: float
    repeats: int
    warmup_seconds: float
    latency_states: int
    latency_repeats: int
    reset_calls: int
    progress_games: int
    progress_max_seconds: float
    memory_envs: int
    memory_steps: int
    train_steps: int
    train_warmup_steps: int
    train_n_steps: int
    pair_slice_seconds: float = 0.25
    pair_rounds: int = 12
    secondary_loop_seconds: float | None = None

    @property
    def secondary_seconds(self) -> float:
        """Wall time of the one-repeat secondary loops (``secondary_loop_seconds`` or ``loop_seconds``)."""
        return self.loop_seconds if self.secondary_loop_seconds is None else self.secondary_loop_seconds

    def to_dict(self) -> dict:
        """Plain dict of the budget (for the JSON report)."""
        return asdict(self)


BUDGETS: dict[str, Budget] = {
    "full": Budget("full", loop_seconds=3.0, repeats=3, warmup_seconds=0.5, latency_states=48, latency_repeats=5,
                   reset_calls=60, progress_games=12, progress_max_seconds=8.0, memory_envs=16, memory_steps=60,
                   train_steps=4096, train_warmup_steps=512, train_n_steps=256,
                   pair_slice_seconds=0.25, pair_rounds=12, secondary_loop_seconds=1.5),
    "quick": Budget("quick", loop_seconds=1.0, repeats=3, warmup_seconds=0.2, latency_states=24, latency_repeats=3,
                    reset_calls=20, progress_games=4, progress_max_seconds=2.5, memory_envs=6, memory_steps=30,
                    train_steps=1024, train_warmup_steps=256, train_n_steps=128,
                    pair_slice_seconds=0.1, pair_rounds=12, secondary_loop_seconds=0.5),
    "smoke": Budget("smoke", loop_seconds=0.15, repeats=2, warmup_seconds=0.02, latency_states=6, latency_repeats=2,
                    reset_calls=5, progress_games=2, progress_max_seconds=0.5, memory_envs=2, memory_steps=5,
                    train_steps=128, train_warmup_steps=64, train_n_steps=32,
                    pair_slice_seconds=0.03, pair_rounds=3),
}


class RandomPolicy:
    """Uniform random choice among legal actions, identical for every benchmarked game.

    Uses :class:`random.Random` (cheaper per call than a numpy ``Generator``) so that the policy costs
    the same small amount in every loop and the ratios compare environments, not policies.
    """

    def __init__(self, seed: int):
        self._random = random.Random(seed).random

    def from_mask(self, mask: np.ndarray) -> int:
        """A legal action drawn uniformly from a boolean or 0/1 mask."""
        legal = np.flatnonzero(mask)
        return int(legal[int(self._random() * legal.size)])

    def from_list(self, legal: Sequence[int]) -> int:
        """A legal action drawn uniformly from a list of legal actions."""
        return legal[int(self._random() * len(legal))]

    def from_outcomes(self, outcomes: Sequence[tuple[int, float]]) -> int:
        """A chance outcome drawn from ``[(action, probability), ...]`` (OpenSpiel chance nodes)."""
        u = self._random()
        acc = 0.0
        for a, p in outcomes:
            acc += p
            if u < acc:
                return a
        return outcomes[-1][0]


def median(values: Sequence[float]) -> float | None:
    """Median of the values that are not ``None`` (``None`` when there are none)."""
    vals = [v for v in values if v is not None]
    return statistics.median(vals) if vals else None


def _timer_overhead() -> float:
    """Seconds measured by an empty ``perf_counter`` pair (subtracted from per-call timings)."""
    best = float("inf")
    for _ in range(2000):
        t0 = perf_counter()
        t1 = perf_counter()
        best = min(best, t1 - t0)
    return best


_OVERHEAD: list[float] = []


def per_call_us(fn: Callable[[Any], Any], args: Sequence[Any], repeats: int,
                fresh: Callable[[Any], Any] | None = None) -> float:
    """Microseconds per call of ``fn(x)``: for each ``x`` the fastest of ``repeats`` timed calls, averaged
    over ``args``.

    Each call is timed on its own (the timer's own cost is subtracted) after one untimed pass, so a
    scheduler preemption inflates one sample, which the per-argument minimum then discards, rather than a
    whole pass; averaging over ``args`` keeps the spread of costs between arguments (early / late states).

    Args:
        fresh: if given, every pass calls ``fn(fresh(x))`` on a new object built untimed (e.g. a clone of a
            state, so a cache attached to the state by the previous pass cannot be reused).
    """
    if not _OVERHEAD:
        _OVERHEAD.append(_timer_overhead())
    args = list(args)
    if not args:
        return float("nan")
    best = [float("inf")] * len(args)
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for r in range(repeats + 1):
            xs = [fresh(a) for a in args] if fresh is not None else args
            for j, x in enumerate(xs):
                t0 = perf_counter()
                fn(x)
                dt = perf_counter() - t0
                if r and dt < best[j]:
                    best[j] = dt
    finally:
        if gc_was:
            gc.enable()
    return max(0.0, statistics.fmean(best) - _OVERHEAD[0]) * 1e6
