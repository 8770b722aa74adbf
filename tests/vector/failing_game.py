"""Test-only game for the vector env's error paths: tic-tac-toe whose apply raises a ContentError on the
centre cell (4) and ends its process on the corner cell 8."""

import os

from monolith_envs.core.content import ContentError
from tests.toy_game import ToyGame, module_for

ENV_ID = "toy_failing_v0"


class FailingGame(ToyGame):
    def apply(self, s, action, rng):
        if int(action) == 4:
            raise ContentError("broken.toml", 3, "centre", "cell", "the centre is broken", "0..3, 5..8")
        if int(action) == 8:
            os._exit(7)
        super().apply(s, action, rng)


MODULE = module_for(FailingGame, ENV_ID)
