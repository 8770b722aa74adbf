"""A copy of the shipped baselines for tests that write baseline files (the package's are never written)."""

from __future__ import annotations

import shutil
from pathlib import Path


def copy_shipped_baselines(folder: Path) -> Path:
    """Copy every ``.pt`` file and ``index.json`` of the package's baseline folder into ``folder`` (created);
    returns ``folder``."""
    from monolith_envs.agents.baselines.registry import baseline_dir

    folder.mkdir(parents=True, exist_ok=True)
    for f in baseline_dir().iterdir():
        if f.suffix in (".pt", ".json"):
            shutil.copy(f, folder / f.name)
    return folder
