"""How many local worker processes a command may start: a bound tied to this machine's CPUs.

Each worker is a Python process with numpy and the game loaded (about 100 MB), and a process beyond a few
per CPU only adds start-up time and memory. ``fuzz --workers`` (local backend) and ``make_vec(workers=k)``
refuse more than :func:`local_worker_limit` with an error naming the limit, instead of starting hundreds of
processes on a small machine.
"""

from __future__ import annotations

import os

__all__ = ["WORKERS_PER_CPU", "local_worker_limit", "usable_cpus"]

#: local worker processes allowed per usable CPU (and at least 8 in all)
WORKERS_PER_CPU = 4


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the platform has one), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def local_worker_limit() -> int:
    """The most local worker processes one command starts: ``max(8, WORKERS_PER_CPU * usable_cpus())``."""
    return max(8, WORKERS_PER_CPU * usable_cpus())
