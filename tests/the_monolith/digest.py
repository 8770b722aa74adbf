"""A digest of the_monolith's behaviour: sha256 over every state, mask, observation and return at every
decision of seeded random games in 2p, 3p, 4p and 4p with the shaman draft (:data:`CONFIGS`).

A refactoring or speed-up must leave every digest unchanged; a rule change regenerates them on purpose::

    python -m tests.the_monolith.digest --write      # rewrite tests/the_monolith/data/digests.json
    python -m tests.the_monolith.digest              # print the configs whose digest differs

Per decision the hash takes, in order: ``json.dumps(game.to_dict(state), sort_keys=True)``, the legal mask
(``bool`` bytes), every seat's observation (``float32`` bytes, seat order), the returns (``float32`` bytes)
and the chosen action. Actions are drawn uniformly among the legal ones by ``numpy.random.default_rng(seed)``,
which also seeds the game and serves its chance draws.
"""

from __future__ import annotations

import pathlib
import sys

from tests import digests

CONFIGS = {
    "2p": {"num_players": 2},
    "3p": {"num_players": 3},
    "4p": {"num_players": 4},
    "4p_draft": {"num_players": 4, "shaman_assignment": "draft"},
}
GAMES = 3
DIGEST_FILE = pathlib.Path(__file__).with_name("data") / "digests.json"


def config_digest(config: dict, games: int = GAMES) -> str:
    """Hex sha256 over ``games`` seeded random games of one config (:func:`tests.digests.engine_digest`)."""
    from monolith_envs.the_monolith import MonolithGame

    return digests.engine_digest(MonolithGame(config), games)


def stored() -> dict:
    """The digests stored in :data:`DIGEST_FILE`."""
    return digests.stored(DIGEST_FILE)


def main(argv: list[str]) -> int:
    """Check the digests of every config of :data:`CONFIGS` (``--write`` stores them)."""
    return digests.digest_command(argv, CONFIGS, config_digest, DIGEST_FILE)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
