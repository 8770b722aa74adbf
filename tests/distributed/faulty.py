"""``toy_faulty_v0``, registered on import by the Ray workers of the fuzz tests (``preload``); the test
process registers it only for the tests that use it (the ``faulty_game`` fixture).

It is the toy game (tests/toy_game.py) with a failure injected: its invariants check fails when the
centre cell (4) is marked after two decisions, which uniform random play reaches in 2 games of 9 (1/9 on
the first mark, 8/9 * 1/8 on the second).
"""

from __future__ import annotations

import monolith_envs
from monolith_envs.core.game import InvariantError
from tests.toy_game import ToyGame, module_for

FAULTY_ID = "toy_faulty_v0"


class FaultyToyGame(ToyGame):
    """The toy game whose invariants reject a marked centre after two decisions."""

    env_id = FAULTY_ID

    def check_invariants(self, s):
        super().check_invariants(s)
        if s.decisions == 2 and s.board[4] != -1:
            raise InvariantError("injected failure: the centre is marked after two decisions")


_FAULTY = module_for(FaultyToyGame, FAULTY_ID)


def faulty_module():
    """The registry entry of ``toy_faulty_v0``."""
    return _FAULTY


monolith_envs.register(FAULTY_ID, faulty_module)
