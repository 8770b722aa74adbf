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

import pathlib
import sys

from tests import digests
from tests.arena.configs import ARENA_CONFIGS

GAMES = 20
DIGEST_FILE = pathlib.Path(__file__).with_name("data") / "digests.json"


def config_digest(config: dict, games: int = GAMES) -> str:
    """Hex sha256 over ``games`` seeded random games of one config (:func:`tests.digests.engine_digest`)."""
    from monolith_envs.arena.game import ArenaGame

    return digests.engine_digest(ArenaGame(config), games)


def stored() -> dict:
    """The digests stored in :data:`DIGEST_FILE`."""
    return digests.stored(DIGEST_FILE)


def main(argv: list[str]) -> int:
    """Check the digests of every config of :data:`ARENA_CONFIGS` (``--write`` stores them)."""
    return digests.digest_command(argv, ARENA_CONFIGS, config_digest, DIGEST_FILE)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
