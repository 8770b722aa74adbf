"""The single-agent Gymnasium wrapper now lives in the package: :mod:`monolith_envs.wrappers`.

This module re-exports it, so ``from training.wrapper import SingleAgentEnv`` keeps working.
"""

from monolith_envs.wrappers import OpponentSampler, SingleAgentEnv

__all__ = ["OpponentSampler", "SingleAgentEnv"]
