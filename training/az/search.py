"""The PUCT search of :mod:`training.az`: :class:`~monolith_envs.agents.puct.BatchedPUCT` and
:func:`~monolith_envs.agents.puct.visit_target`, which live in the package (the pretrained baselines search with
them too) and are re-exported here under their former path."""

from __future__ import annotations

from monolith_envs.agents.puct import BatchedPUCT, visit_target

__all__ = ["BatchedPUCT", "visit_target"]
