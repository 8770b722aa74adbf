"""Runners measured in turn, in short slices, so a ratio between them sees the same load of the machine.

On a shared machine the speed available to one process drifts by tens of percent over tens of seconds; two
loops measured one after the other can differ by that much for no reason of their own. Here every runner
plays one slice in each round, in turn, and each slice records its decisions, wall seconds and CPU seconds
(``time.process_time``, plus the CPU time of the runner's worker processes), so a ratio can be taken over the
same rounds, from decisions per CPU second. Used by ``benchmarks.vector`` (AEC loop against ``make_vec``) and
by ``benchmarks.run`` (each Monolith configuration against connect four, the "× C4" column).

A runner is any object with ``run(seconds) -> (decisions, completed games, wall seconds)``
(:class:`benchmarks.loops.AecRunner`, :class:`benchmarks.vector.VecRunner`, ...) and optionally
``worker_pids`` (the processes whose CPU time counts with this process's).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from .timing import median

__all__ = ["measure_interleaved", "paired_ratio", "proc_cpu_seconds"]


def proc_cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds of the processes ``pids`` (Linux ``/proc``); ``None`` where one is
    unreadable (not Linux, or a process that has ended)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _summary(slices: list[list[float]]) -> dict:
    """The figures of one runner from its slices ``[decisions, games, wall s, cpu s]``."""
    rates = [d / t if t > 0 else None for d, _g, t, _c in slices]
    cpu_rates = [d / c if c > 0 else None for d, _g, _t, c in slices]
    decisions = sum(s[0] for s in slices)
    games = sum(s[1] for s in slices)
    wall = sum(s[2] for s in slices)
    cpu = sum(s[3] for s in slices)
    return {
        "decisions_per_s": median(rates),
        "decisions_per_s_all": rates,
        "decisions_per_cpu_s": median(cpu_rates),
        "cpu_share": cpu / wall if wall else None,
        "games_per_s": games / wall if wall else None,
        "decisions": decisions,
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "slices": [{"decisions": d, "games": g, "wall_s": t, "cpu_s": c} for d, g, t, c in slices],
    }


def measure_interleaved(runners: dict[str, Any], seconds: float, repeats: int, warmup: float,
                        alternate: bool = False) -> dict[str, dict]:
    """Warm every runner up, then time ``repeats`` rounds in which each runner plays ``seconds`` in turn, so
    every figure sees the same load of the machine.

    Args:
        runners: name -> runner (see the module docstring), played in this order in each round.
        seconds: wall seconds of one slice (a runner checks its clock every few decisions, so a slice may run
            a little longer).
        repeats: rounds (at least 1).
        warmup: untimed seconds each runner plays first.
        alternate: play the runners in reverse order in every second round (A B, B A, ...), so a steady
            change of the machine's speed during the rounds favours neither.

    Returns:
        Per runner name: ``decisions_per_s`` (median of the slices), ``decisions_per_s_all`` (each slice),
        ``decisions_per_cpu_s`` (median of the slices; CPU time of this process plus the runner's
        ``worker_pids``), ``cpu_share`` (CPU seconds over wall seconds, summed over those processes),
        ``games_per_s``; the totals ``decisions``, ``wall_seconds``, ``cpu_seconds``; and ``slices``, one
        ``{"decisions", "games", "wall_s", "cpu_s"}`` per round, in round order (round k of every runner was
        played within the same round).

    Raises:
        ValueError: no runner, ``repeats`` below 1, or ``seconds`` not positive.
    """
    if not runners:
        raise ValueError("measure_interleaved: give at least one runner")
    if repeats < 1 or not seconds > 0:
        raise ValueError(f"measure_interleaved: repeats must be >= 1 and seconds > 0, got {repeats} and {seconds}")
    for runner in runners.values():
        runner.run(warmup)
    acc: dict[str, list[list[float]]] = {name: [] for name in runners}
    order = list(runners.items())
    for k in range(repeats):
        for name, runner in (order[::-1] if alternate and k % 2 else order):
            pids = list(getattr(runner, "worker_pids", []))
            c0, w0 = time.process_time(), proc_cpu_seconds(pids) if pids else 0.0
            d, g, t = runner.run(seconds)
            c = time.process_time() - c0
            w1 = proc_cpu_seconds(pids) if pids else 0.0
            if w0 is not None and w1 is not None:
                c += w1 - w0
            acc[name].append([d, g, t, c])
    return {name: _summary(slices) for name, slices in acc.items()}


def paired_ratio(num: dict, den: dict) -> dict:
    """How many times faster the runner ``num`` was than ``den`` over the same rounds of
    :func:`measure_interleaved` (each argument is one runner's entry of its result).

    Returns:
        ``x_cpu``: ``num``'s decisions per CPU second over all its slices ÷ ``den``'s over all its slices
        (total decisions ÷ total CPU seconds of each); ``x_wall``: the same with wall seconds; ``x_rounds``:
        ``{"min", "median", "max"}`` of the per-round CPU ratios (round k of ``num`` ÷ round k of ``den``),
        with ``rounds`` their count. A figure is ``None`` where a denominator is 0.
    """
    def rate(d: float, s: float) -> float | None:
        return d / s if s > 0 else None

    def ratio(a: float | None, b: float | None) -> float | None:
        return a / b if a is not None and b else None

    per_round = [ratio(rate(a["decisions"], a["cpu_s"]), rate(b["decisions"], b["cpu_s"]))
                 for a, b in zip(num["slices"], den["slices"])]
    per_round = [r for r in per_round if r is not None]
    return {
        "x_cpu": ratio(rate(num["decisions"], num["cpu_seconds"]), rate(den["decisions"], den["cpu_seconds"])),
        "x_wall": ratio(rate(num["decisions"], num["wall_seconds"]), rate(den["decisions"], den["wall_seconds"])),
        "x_rounds": {"min": min(per_round), "median": median(per_round), "max": max(per_round)} if per_round
        else {"min": None, "median": None, "max": None},
        "rounds": len(per_round),
    }
