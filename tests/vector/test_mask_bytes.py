"""``legal_mask_bytes`` (make_vec's per-step path to the mask, copied into its row as bytes) says exactly what
``legal_mask`` says, in every game, and reading or writing either never changes the other."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from monolith_envs.vector._slots import byte_rows, mask_byter
from tests.toy_game import ToyGame

CONFIGS = [
    ("monolith_arena_v0", {}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "teams", "monolith_module": True}),
    ("monolith_strategy_v0", {}),
    ("monolith_strategy_v0", {"num_players": 1}),
    ("the_monolith_v0", {"num_players": 4}),
]


@pytest.mark.parametrize("env_id,config", CONFIGS)
def test_mask_bytes_equal_the_mask_at_every_decision(env_id, config):
    game = monolith_envs.make_game(env_id, **config)
    rng = np.random.default_rng(11)
    checked = 0
    for k in range(3):
        s = game.initial_state(np.random.default_rng(200 + k))
        while True:
            raw = game.legal_mask_bytes(s)
            mask = game.legal_mask(s)
            assert len(raw) == game.layout.n and set(bytes(raw)) <= {0, 1}
            assert bytes(raw) == mask.tobytes(), f"game {k}, decision {checked}"
            mask[:] = True  # the array handed out is the caller's: the bytes do not change with it
            assert bytes(game.legal_mask_bytes(s)) == bytes(raw)
            checked += 1
            if game.is_terminal(s) or checked > 2000:
                break
            legal = np.flatnonzero(game.legal_mask(s))
            game.apply(s, int(rng.choice(legal)), rng)
        if game.is_terminal(s):
            assert bytes(game.legal_mask_bytes(s)) == bytes(game.layout.n)  # all zeros once over
    assert checked > 100


def test_a_game_without_mask_bytes_gets_the_bytes_of_its_mask():
    """A Game that does not subclass GameBase (no ``legal_mask_bytes``) still fills make_vec's rows."""
    game = ToyGame({})
    s = game.initial_state(np.random.default_rng(0))

    class Bare:  # only legal_mask, as the Game protocol requires
        legal_mask = staticmethod(game.legal_mask)

    assert mask_byter(Bare())(s) == game.legal_mask(s).tobytes()
    rows = np.zeros((2, game.layout.n), np.bool_)
    views = byte_rows(rows)
    views[1][:] = mask_byter(Bare())(s)
    assert not rows[0].any() and np.array_equal(rows[1], game.legal_mask(s))
