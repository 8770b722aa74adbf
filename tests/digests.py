"""The command and the stored file shared by every game's behaviour digest (``tests/<game>/digest.py``).

Each game's module computes ``config_digest(config) -> str`` (a sha256 over states, masks, observations and
returns at every decision of seeded games); this module stores them as ``{config name: digest}`` JSON and
runs the check-or-write command (``python -m tests.<game>.digest [--write]``).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Callable, Mapping

import numpy as np


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


def engine_digest(game, games: int) -> str:
    """Hex sha256 over ``games`` seeded random games played on the engine ``game`` (seeds ``0..games-1``).

    Each decision adds the state (``to_dict`` as sorted JSON), the ``bool[n]`` mask, every seat's
    ``float32`` observation, the ``float32`` returns and the chosen action (2 bytes, little-endian). A game
    ends at a terminal state or after ``game.max_decisions`` applied actions (truncation). The action is
    drawn from the seed's generator, which ``apply`` also receives, so chance during play is covered.
    """
    h = hashlib.sha256()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        s = game.initial_state(rng)
        applied = 0
        while True:
            h.update(json.dumps(game.to_dict(s), sort_keys=True).encode())
            m = game.legal_mask(s)
            h.update(m.tobytes())
            for p in range(game.num_players):
                h.update(np.asarray(game.observe(s, p), np.float32).tobytes())
            h.update(np.asarray(game.returns(s), np.float32).tobytes())
            if game.is_terminal(s) or applied >= game.max_decisions:
                break
            a = int(rng.choice(np.flatnonzero(m)))
            h.update(a.to_bytes(2, "little"))
            game.apply(s, a, rng)
            applied += 1
    return h.hexdigest()
