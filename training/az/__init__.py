"""Search-based self-play (expert iteration in the AlphaZero family), generic over the ``Game`` protocol.

Modules: :mod:`~training.az.net` (the policy-value MLP, plain-tensor checkpoints), :mod:`~training.az.search`
(PUCT with leaves batched across games, ``resample_hidden`` before each simulation, root noise),
:mod:`~training.az.selfplay` (heuristic warm-start games, search self-play games), :mod:`~training.az.fit`
(loss, replay buffer), :mod:`~training.az.config` (``training/configs/az_*.toml``) and
:mod:`~training.az.loop` (:func:`run`). Command line: ``python -m training.az --config FILE [--quick]
[--workers N]``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["run"]


def run(cfg: dict, progress: bool = True, guard: Any = None) -> dict:
    """Run the recipe for a validated config; see :func:`training.az.loop.run`."""
    from .loop import run as _run

    return _run(cfg, progress, guard)
