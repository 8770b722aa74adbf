"""A module for ``--preload`` that changes a game rather than registering one: it registers the toy
tic-tac-toe env (``tests.preload_toy``) and makes its engine raise on every third mark, as a user's patch or
fault injection would."""

import tests.preload_toy  # noqa: F401  (registers the toy env)
from tests.toy_game import ToyGame

_apply = ToyGame.apply


def _breaking_apply(self, state, action, rng):
    if int((state.board >= 0).sum()) >= 2:
        raise RuntimeError("injected by tests.preload_breaks_toy")
    return _apply(self, state, action, rng)


ToyGame.apply = _breaking_apply
