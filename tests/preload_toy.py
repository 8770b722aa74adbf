"""A module for ``--preload``: registers the toy tic-tac-toe env at import time (as a plugin would)."""

import monolith_envs
from tests.toy_game import ENV_ID, ToyGame, module_for

_MODULE = module_for(ToyGame)
monolith_envs.register(ENV_ID, lambda: _MODULE)
