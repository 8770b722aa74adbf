"""Pretrained baselines: a network per main game config, shipped in the package, played with the agent specs
``baseline`` and ``baseline+search:N[:mix=X]`` (like Pgx's baseline models).

* :mod:`~monolith_envs.agents.baselines.registry`: the list of shipped files (``monolith_envs/baselines/
  index.json``), the choice of a baseline by env id and config, checksum-checked loading;
* :mod:`~monolith_envs.agents.baselines.net`: the network in plain torch (the training piece encoder, a policy
  and a value MLP) and its file format (plain tensors, read with ``torch.load(weights_only=True)``);
* :mod:`~monolith_envs.agents.baselines.agent`: :class:`BaselineAgent`.

Importing this package does not import torch; building an agent or loading a network does (the ``[train]``
extra).  The files are made by ``python -m training.export_baseline RUN_DIR --name NAME`` from a run of
``python -m training.train`` (see ``training/README.md``, "Pretrained baselines").
"""

from __future__ import annotations

from .agent import BaselineAgent, VariantWarning, parse_baseline_options, parse_baseline_spec
from .registry import NoBaselineError, baseline_dir, find_baseline, list_baselines, load_baseline

__all__ = ["BaselineAgent", "VariantWarning", "NoBaselineError", "baseline_dir", "find_baseline", "list_baselines", "load_baseline",
           "parse_baseline_options", "parse_baseline_spec"]
