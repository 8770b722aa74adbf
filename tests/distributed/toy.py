"""Registers the toy game (tests/toy_game.py) on import: the Ray workers of the RLlib tests import it
(``preload``), as the test process does through tests/conftest.py."""

import monolith_envs
from tests.toy_game import ENV_ID, ToyGame, module_for

_TOY = module_for(ToyGame)


def toy_module():
    """The registry entry of ``toy_tictactoe_v0``."""
    return _TOY


monolith_envs.register(ENV_ID, toy_module)
