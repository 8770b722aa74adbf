"""One torch thread in a process forked from one whose agents use torch.

A process forked after torch has run a forward pass on several threads inherits a copy of the thread pool's
state but not its threads, and its next multi-threaded forward pass waits for them forever (the OpenMP
runtime's limit, not torch's own). Gymnasium's ``AsyncVectorEnv`` forks its workers on Linux, and a
single-agent env with a ``baseline`` or ``ppo:`` opponent has run the network while the template env was
built, so without this every worker would hang in its first ``reset``. :func:`guard_fork` registers, once per
process, a hook that sets ``torch.set_num_threads(1)`` in every forked child, as PyTorch's own ``DataLoader``
workers run. A forked child must stay on one thread (setting more hangs it the same way): a worker that needs
several torch threads is started with ``spawn`` or ``forkserver`` instead.
"""

from __future__ import annotations

import os

__all__ = ["guard_fork"]

_registered = False


def _one_thread_in_child() -> None:
    import torch  # already imported by the parent: a dictionary look-up

    torch.set_num_threads(1)


def guard_fork() -> None:
    """Make every process forked from this one run torch on one thread (registered once per process; imports
    torch). Called by every agent that runs a torch network (baselines, ``ppo:``, ``rllib:``, ``az:``)."""
    global _registered
    if _registered:
        return
    import torch  # noqa: F401 - the hook's import must find it loaded

    os.register_at_fork(after_in_child=_one_thread_in_child)
    _registered = True
