"""Shared by the narration tests: an AEC env played some seeded random legal moves, with the last move's state
before it, so that a test can narrate that move as terminal play does."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

import monolith_envs


def random_steps(env_id: str, seed: int, steps: int, **config: Any) -> tuple[Any, Any, int, int]:
    """``(env, before, action, seat)``: the raw AEC env of ``env_id`` (``config``) reset with ``seed``, after
    ``steps`` moves drawn uniformly from each mask by ``np.random.default_rng(seed)``; ``before`` is a clone of
    the state before the last move, ``action`` that move and ``seat`` the seat that made it."""
    env = monolith_envs.make(env_id, wrapped=False, **config)
    env.reset(seed=seed)
    g, rng = env.game, np.random.default_rng(seed)
    before, action, seat = None, -1, -1
    for _ in range(steps):
        ag = env.agent_selection
        action = int(rng.choice(np.flatnonzero(env.observe(ag)["action_mask"])))
        before, seat = g.clone(env.game_state), env.agent_name_mapping[ag]
        env.step(action)
    return env, before, action, seat


def random_game_steps(game: Any, seeds: Iterable[int]) -> Iterator[tuple[Any, Any, int, int]]:
    """``(before, state, action, seat)`` for every move of one game of ``game`` per seed, played to its end with
    moves drawn uniformly from each mask (``np.random.default_rng(seed + 1)``; the game's own draws from
    ``np.random.default_rng(seed)``); ``before`` is a clone of the state before the move, ``state`` the live
    state right after it (read it before the next step)."""
    for seed in seeds:
        rng, choose = np.random.default_rng(seed), np.random.default_rng(seed + 1)
        s = game.initial_state(rng)
        while not game.is_terminal(s):
            a = int(choose.choice(np.flatnonzero(game.legal_mask(s))))
            before, p = game.clone(s), game.current_player(s)
            game.apply(s, a, rng)
            yield before, s, a, p
