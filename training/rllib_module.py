"""The masked RLlib module, kept importable under its former path: it lives in
:mod:`monolith_envs.agents.rllib_module` (``rllib:PATH`` agents load it without the repository's ``training``
package).  Checkpoints written before the move name ``training.rllib_module.MaskedPPOTorchRLModule``; RLlib's
own (trusted) loader finds it here, the untrusted loader reads that name as the package's class."""

from __future__ import annotations

from monolith_envs.agents.rllib_module import MaskedPPOTorchRLModule, masked_logits, split_obs

__all__ = ["MaskedPPOTorchRLModule", "masked_logits", "split_obs"]
