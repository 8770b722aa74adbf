"""What a model file looks like from outside: the parameter count of a fully connected net (checked against
:data:`~monolith_envs.agents.model_files.MAX_PARAMS` before a loader allocates one), and which agent spec a zip
of the wrong kind would play as (for the loaders' error messages)."""

from __future__ import annotations

from typing import Iterable


def mlp_params(n_in: int, hidden: Iterable[int], n_out: int) -> int:
    """Weights and biases of a fully connected net ``n_in -> hidden... -> n_out`` (an int, no allocation)."""
    total, prev = 0, int(n_in)
    for h in list(hidden) + [int(n_out)]:
        total += prev * int(h) + int(h)
        prev = int(h)
    return total


def model_kind_hint(names: Iterable[str]) -> str:
    """What a zip's entry ``names`` look like, for an error about a model file given with the wrong agent spec
    prefix: ``"; it looks like an SB3 model zip, which plays as ppo:PATH"`` (entries ``data`` and
    ``policy.pth``), ``"; it looks like a torch checkpoint: a training.az checkpoint plays as az:PATH (...)"``
    (an entry ``<name>/data.pkl``), else ``""``."""
    names = set(names)
    if {"data", "policy.pth"} <= names:
        return "; it looks like an SB3 model zip, which plays as ppo:PATH"
    if any(n.endswith("/data.pkl") for n in names):
        return ("; it looks like a torch checkpoint: a training.az checkpoint plays as az:PATH (a baseline file of "
                "training.export_baseline is not played by its path: the package's play as 'baseline')")
    return ""
