"""How many local worker processes a command may start: a bound tied to this machine's CPUs.

Each worker is a Python process with numpy and the game loaded (about 100 MB), and a process beyond a few
per CPU only adds start-up time and memory. ``fuzz --workers`` (local backend) and ``make_vec(workers=k)``
refuse more than :func:`local_worker_limit` with an error naming the limit, instead of starting hundreds of
processes on a small machine.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["WORKERS_PER_CPU", "local_worker_limit", "usable_cpus", "worker_limit_why"]

#: local worker processes allowed per usable CPU (and at least 8 in all)
WORKERS_PER_CPU = 4


def usable_cpus() -> int:
    """The CPUs this process may use: its affinity mask (where the platform has one), lowered to a container's
    CPU quota (cgroup v2 ``cpu.max``, rounded up) when one is set; at least 1."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        if quota != "max":
            n = min(n, -(-int(quota) // int(period)))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota here
    return max(1, n)


def local_worker_limit() -> int:
    """The most local worker processes one command starts: ``max(8, WORKERS_PER_CPU * usable_cpus())``."""
    return max(8, WORKERS_PER_CPU * usable_cpus())


def worker_limit_why() -> str:
    """Why :func:`local_worker_limit` is what it is, for an error message (``"4 per CPU, 2 CPUs"``)."""
    n = usable_cpus()
    if WORKERS_PER_CPU * n < 8:
        return f"at least 8, else {WORKERS_PER_CPU} per CPU; {n} CPU{'s' if n != 1 else ''}"
    return f"{WORKERS_PER_CPU} per CPU, {n} CPUs"
