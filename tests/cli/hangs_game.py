"""``HangsOnTheCentre`` (``toy_hangs_v0``): the toy game (tests/toy_game.py) whose ``apply`` never returns once
the centre cell (4) is marked, for the ``--timeout`` of fuzz and check. Importing it registers nothing (a
registered game that hangs would hang every test that plays each registered env); ``tests/cli/preload_hangs.py``
registers it for ``--preload``, and the tests remove it again."""

from __future__ import annotations

import dataclasses

from tests.toy_game import ToyGame, module_for

HANGS_ID = "toy_hangs_v0"


class HangsOnTheCentre(ToyGame):
    """The toy game; marking the centre loops forever (in pure Python, so a signal can stop it)."""

    GAME_INFO = dataclasses.replace(ToyGame.GAME_INFO, env_id=HANGS_ID, name="Hanging toy tic-tac-toe")

    def apply(self, s, action, rng):
        while int(action) == 4:
            pass
        super().apply(s, action, rng)


_HANGS = module_for(HangsOnTheCentre, HANGS_ID)


def hangs_module():
    """The registry entry of ``toy_hangs_v0``."""
    return _HANGS


class HangsWhenBuiltInAWorker(ToyGame):
    """The toy game, whose construction never returns in a multiprocessing worker (it returns in the process
    that starts the workers, so the config check before them passes)."""

    def __init__(self, config=None):
        import multiprocessing

        while multiprocessing.parent_process() is not None:
            pass
        super().__init__(config)


class CatchesEveryTimeout(ToyGame):
    """The toy game; marking the centre loops forever and catches every interruption (a ``BaseException``
    included), so no time limit inside the process ends it: only a watchdog outside it does."""

    def apply(self, s, action, rng):
        while int(action) == 4:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - the point of this game
                pass
        super().apply(s, action, rng)
