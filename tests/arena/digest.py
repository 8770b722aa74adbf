"""A digest of Arena's behaviour: sha256 over every state, mask, observation and return at every decision
of seeded games in each named config (:data:`tests.arena.configs.ARENA_CONFIGS`).

A refactoring of the engine must leave every digest unchanged; a rule change regenerates them on purpose::

    python -m tests.arena.digest --write      # rewrite tests/arena/data/digests.json
    python -m tests.arena.digest              # print the configs whose digest differs

Per decision the hash takes, in order: ``json.dumps(game.to_dict(state), sort_keys=True)``, the legal mask
(``bool`` bytes), every seat's observation (``float32`` bytes, seat order), the returns (``float32`` bytes)
and the chosen action. Actions are drawn uniformly among the legal ones by ``numpy.random.default_rng(seed)``,
which also seeds the game.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import numpy as np

from tests import digests
from tests.arena.configs import ARENA_CONFIGS

GAMES = 20
DIGEST_FILE = pathlib.Path(__file__).with_name("data") / "digests.json"


def config_digest(config: dict, games: int = GAMES) -> str:
    """Hex sha256 over ``games`` seeded random games of one config (seeds ``0..games-1``)."""
    from monolith_envs.arena.game import ArenaGame

    g = ArenaGame(config)
    h = hashlib.sha256()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        s = g.initial_state(rng)
        while True:
            h.update(json.dumps(g.to_dict(s), sort_keys=True).encode())
            m = g.legal_mask(s)
            h.update(m.tobytes())
            for p in range(g.num_players):
                h.update(np.asarray(g.observe(s, p), np.float32).tobytes())
            h.update(np.asarray(g.returns(s), np.float32).tobytes())
            if g.is_terminal(s):
                break
            a = int(rng.choice(np.flatnonzero(m)))
            h.update(a.to_bytes(2, "little"))
            g.apply(s, a)
    return h.hexdigest()


def stored() -> dict:
    """The digests stored in :data:`DIGEST_FILE`."""
    return digests.stored(DIGEST_FILE)


def main(argv: list[str]) -> int:
    """Check the digests of every config of :data:`ARENA_CONFIGS` (``--write`` stores them)."""
    return digests.digest_command(argv, ARENA_CONFIGS, config_digest, DIGEST_FILE)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
