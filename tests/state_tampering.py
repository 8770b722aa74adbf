"""Helpers of the state-tampering tests: a position reached by random legal play, and a refused load."""

from __future__ import annotations

from typing import Iterator

import numpy as np
import pytest

import monolith_envs as me
from monolith_envs.core.state import StateError


def position_after(env_id: str, steps: int) -> tuple:
    """``(game, to_dict of the state)`` after ``steps`` random legal actions (the AEC env reset with seed 3,
    actions drawn from ``default_rng(0)``)."""
    e = me.make(env_id, wrapped=False)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        m = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(m))))
    g = e.game
    return g, g.to_dict(e.game_state)


def refused(g, d, named: str) -> str:
    """Assert ``g.from_dict(d)`` raises a :class:`StateError` whose message has ``named``; the message."""
    with pytest.raises(StateError) as exc:
        g.from_dict(d)
    assert named in str(exc.value), str(exc.value)
    return str(exc.value)


def round_trip_kinds(positions, kind) -> set:
    """Load every ``(game, to_dict)`` of ``positions`` and check it writes back unchanged (no false positive
    of the checks); the set of ``kind(state)`` seen (the decisions the sample reached)."""
    import copy

    kinds = set()
    for g, d in positions:
        s = g.from_dict(copy.deepcopy(d))
        assert g.to_dict(s) == d
        kinds.add(kind(s))
    return kinds


def positions_of_play(games, seed: int, keep) -> Iterator[tuple]:
    """``(game, to_dict of the state)`` of seeded random games, one per game of ``games`` (game ``i`` seeded
    with ``seed + i``, a random legal action at each decision): the states where ``keep(k, state)`` holds at
    decision ``k``, and every final state."""
    for gi, g in enumerate(games):
        rng = np.random.default_rng(seed + gi)
        s = g.initial_state(rng)
        k = 0
        while not s.terminal:
            if keep(k, s):
                yield g, g.to_dict(s)
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
            k += 1
        yield g, g.to_dict(s)
