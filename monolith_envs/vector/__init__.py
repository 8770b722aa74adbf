"""Batched stepping: :func:`make_vec` runs N games of one env id and config in one call per step, in this
process or in worker processes writing into shared memory (README "Batched stepping")."""

from .env import MAX_NUM_ENVS, VecResult, VectorEnv, WorkerError, make_vec

__all__ = ["make_vec", "VectorEnv", "VecResult", "WorkerError", "MAX_NUM_ENVS"]
