"""``FaultyToyGame`` (``toy_faulty_v0``): the toy game (tests/toy_game.py) with a failure injected.

Its invariants check fails when the centre cell (4) is marked after two decisions, which uniform random
play reaches in 2 games of 9 (1/9 on the first mark, 8/9 * 1/8 on the second).  The Ray fuzz tests ship
the class to the workers (Ray pickles it by this module's path); the test process registers the env id
only for the tests that use it (the ``faulty_game`` fixture), so that no other test's env list sees it.
"""

from __future__ import annotations

import dataclasses

from monolith_envs.core.game import InvariantError
from tests.toy_game import ToyGame, module_for

FAULTY_ID = "toy_faulty_v0"


class FaultyToyGame(ToyGame):
    """The toy game whose invariants reject a marked centre after two decisions."""

    GAME_INFO = dataclasses.replace(ToyGame.GAME_INFO, env_id=FAULTY_ID, name="Faulty toy tic-tac-toe")

    def check_invariants(self, s):
        super().check_invariants(s)
        if s.decisions == 2 and s.board[4] != -1:
            raise InvariantError("injected failure: the centre is marked after two decisions")


_FAULTY = module_for(FaultyToyGame, FAULTY_ID)


def faulty_module():
    """The registry entry of ``toy_faulty_v0``."""
    return _FAULTY
