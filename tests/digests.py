"""The command and the stored file shared by every game's behaviour digest (``tests/<game>/digest.py``).

Each game's module computes ``config_digest(config) -> str`` (a sha256 over states, masks, observations and
returns at every decision of seeded games); this module stores them as ``{config name: digest}`` JSON and
runs the check-or-write command (``python -m tests.<game>.digest [--write]``).
"""

from __future__ import annotations

import json
import pathlib
from typing import Callable, Mapping


def stored(path: pathlib.Path) -> dict:
    """The ``{config name: digest}`` mapping stored in ``path``."""
    return json.loads(path.read_text())


def digest_command(argv: list[str], configs: Mapping[str, dict], config_digest: Callable[[dict], str],
                   path: pathlib.Path) -> int:
    """Compute every config's digest; with ``--write`` store them in ``path``, else compare with it.

    Returns the exit status: 0 when written or unchanged, 1 when some digest differs (their names printed).
    """
    now = {name: config_digest(cfg) for name, cfg in configs.items()}
    if "--write" in argv:
        path.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(now)} digests to {path}")
        return 0
    old = stored(path)
    diff = sorted(k for k in set(now) | set(old) if now.get(k) != old.get(k))
    print("unchanged" if not diff else "differ: " + ", ".join(diff))
    return 1 if diff else 0
