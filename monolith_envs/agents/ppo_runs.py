"""The training run beside a MaskablePPO model file: its ``config.json`` read as data (the env id and game
config the model was trained on), so that ``ppo:PATH`` can name a model of another game or seat count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .model_files import ModelFileError, read_capped

__all__ = ["MAX_RUN_CONFIG_BYTES", "run_config_of"]

#: largest config.json of a training run read beside a model file (bytes)
MAX_RUN_CONFIG_BYTES = 256 * 1024


def run_config_of(path: Path) -> dict | None:
    """``{"env_id": str, "env_config": dict}`` of the ``python -m training.train`` run that wrote the model file
    ``path``: read from the run's ``config.json`` in the model's folder, or in the folder above for a checkpoint
    (``checkpoints/model_<steps>_steps.zip``).  None when there is no such file, or it is not a run's config
    (then only the model's sizes are checked).  The file is data: JSON of at most
    :data:`MAX_RUN_CONFIG_BYTES` bytes."""
    folders = [path.parent] + ([path.parent.parent] if path.parent.name == "checkpoints" else [])
    for folder in folders:
        f = folder / "config.json"
        if not f.is_file():
            continue
        try:
            data = json.loads(read_capped(f, MAX_RUN_CONFIG_BYTES))
        except (OSError, ValueError, RecursionError, ModelFileError):  # unreadable, too large, too deep, not JSON
            return None
        if isinstance(data, dict) and isinstance(data.get("env_id"), str) and isinstance(data.get("env_config"), dict):
            return {"env_id": data["env_id"], "env_config": data["env_config"]}
        return None
    return None


def _seats_of(record: dict | None) -> tuple[str, Any, Any] | None:
    """``(env_id, num_players, mode)`` of a :func:`run_config_of` record, with the game's defaults filled in.

    A recorded config that no longer builds the game (a key renamed since, a content file moved) is read for
    its ``num_players`` and ``mode`` alone; a value that still cannot be known is None (not compared).  None
    for no record."""
    if record is None:
        return None
    from monolith_envs import make_game

    cfg = record["env_config"]
    for config in (cfg, {k: cfg[k] for k in ("num_players", "mode") if k in cfg}):
        try:
            built = make_game(record["env_id"], **config).config
        except Exception:  # noqa: BLE001  (an unknown game or config: try the seats alone, then the raw values)
            continue
        return record["env_id"], built.get("num_players"), built.get("mode")
    return record["env_id"], cfg.get("num_players"), cfg.get("mode")
