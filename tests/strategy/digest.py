"""A digest of Monolith Strategy's behaviour: sha256 over every state, mask, observation and return at every
decision of seeded random games in each config of :data:`DIGEST_CONFIGS`, plus the same games played through
the AEC env (``env.last()`` of the agent to act, every agent's reward, termination and truncation, and the
episode log with its chance events at the end of each game).

A refactoring or an optimisation must leave every digest unchanged; a rule change regenerates them on
purpose::

    python -m tests.strategy.digest --write      # rewrite tests/strategy/data/digests.json
    python -m tests.strategy.digest              # print the configs whose digest differs

Per decision the engine part hashes, in order: ``json.dumps(game.to_dict(state), sort_keys=True)``, the legal
mask (``bool`` bytes), every seat's observation (``float32`` bytes, seat order), the returns (``float32``
bytes) and the chosen action. Actions are drawn uniformly among the legal ones by
``numpy.random.default_rng(seed)``, which is also the game's dice generator.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import numpy as np

from tests import digests

GAMES = 12
ENV_GAMES = 6
DIGEST_FILE = pathlib.Path(__file__).with_name("data") / "digests.json"

DIGEST_CONFIGS: dict = {
    "solo": {"num_players": 1},
    "solo_powers": {"num_players": 1, "player_powers": True, "exalted": False},
    "duel": {"num_players": 2, "exalted": False},
    "duel_powers": {"num_players": 2, "player_powers": True, "reward_mode": "score"},
    "three": {"num_players": 3, "player_powers": True, "reward_mode": "rank"},
    "four": {"num_players": 4},
    "four_powers": {"num_players": 4, "player_powers": True, "exalted": False, "intro_layout": True},
}


def game_digest(config: dict, games: int = GAMES) -> str:
    """Hex sha256 over ``games`` seeded random games played on the engine (:func:`tests.digests.engine_digest`)."""
    from monolith_envs.strategy.game import StrategyGame

    return digests.engine_digest(StrategyGame(config), games)


def env_digest(config: dict, games: int = ENV_GAMES) -> str:
    """Hex sha256 over ``games`` seeded random games played through the AEC env ``monolith_strategy_v0``."""
    from monolith_envs.monolith_strategy_v0 import raw_env

    env = raw_env(**config)
    h = hashlib.sha256()
    for seed in range(games):
        pick = np.random.default_rng(1000 + seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, rew, term, trunc, _info = env.last()
            h.update(agent.encode())
            h.update(np.asarray(obs["observation"], np.float32).tobytes())
            h.update(np.asarray(obs["action_mask"], np.int8).tobytes())
            for a in env.agents:
                h.update(f"{a}:{env.rewards[a]!r}:{env._cumulative_rewards[a]!r}:"
                         f"{env.terminations[a]}:{env.truncations[a]}".encode())
            if term or trunc:
                action = None
            else:
                action = int(pick.choice(np.flatnonzero(obs["action_mask"])))
                h.update(action.to_bytes(2, "little"))
            env.step(action)
        h.update(json.dumps(env.episode_log.to_json(), sort_keys=True).encode())
    env.close()
    return h.hexdigest()


def config_digest(config: dict) -> str:
    """``game_digest`` and ``env_digest`` of one config, joined by ``/``."""
    return game_digest(config) + "/" + env_digest(config)


def stored() -> dict:
    """The digests stored in :data:`DIGEST_FILE`."""
    return digests.stored(DIGEST_FILE)


def main(argv: list[str]) -> int:
    """Check the digests of every config of :data:`DIGEST_CONFIGS` (``--write`` stores them)."""
    return digests.digest_command(argv, DIGEST_CONFIGS, config_digest, DIGEST_FILE)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
