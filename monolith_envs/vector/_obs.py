"""Writing one seat's observation into a preallocated row (``float32[obs_size]``, a row of the vector's
observation array).

The compiled observation builders of the three games (``<game>/_fastobs.c``) take an ``out`` buffer, but
the :class:`~monolith_envs.core.game.Game` method ``observe`` allocates the vector it returns. For a game
whose observer uses its compiled builder, :func:`row_writer` calls that builder on the row itself (each
builder writes every value of the row); for any other game or with the pure
Python path (``MONOLITH_ENVS_PURE_PYTHON=1``, or no C compiler) it copies ``game.observe(state, seat)``
into the row once. Both give the same values (``tests/vector/test_exactness.py`` compares them with the
AEC env at every step).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

__all__ = ["row_writer"]

RowWriter = Callable[[Any, int, np.ndarray], None]


def _copying_writer(game: Any) -> RowWriter:
    observe = game.observe

    def write(state: Any, seat: int, out: np.ndarray) -> None:
        out[...] = observe(state, seat)

    return write


def _compiled_writer(game: Any) -> RowWriter | None:
    """The direct writer of a game whose ``observer`` uses its compiled builder, or None."""
    observer = getattr(game, "observer", None)
    if observer is None or not getattr(observer, "compiled", False):
        return None
    module = importlib.import_module(type(observer).__module__)
    fast = getattr(module, "_fastobs", None)
    make_context = getattr(observer, "_make_context", None)
    if fast is None or make_context is None:
        return None
    package = module.__name__.rsplit(".", 2)[-2]
    n = int(game.num_players)

    def context() -> Any:
        ctx = observer._ctx
        if ctx is None:  # after a copy or unpickling (the observer's own rule)
            ctx = observer._ctx = make_context(observer.g) if package == "arena" else make_context()
        return ctx

    def check(seat: int) -> None:
        if not 0 <= seat < n:
            raise ValueError(f"{game.env_id}: seat {seat} is not a seat of this {n}-player game")

    if package == "arena":
        get_fx = module.get_fx

        def write(state: Any, seat: int, out: np.ndarray) -> None:  # the builder writes every value
            check(seat)
            fx = state.fx_cache
            if fx is None:
                fx = get_fx(observer.g, state)
            fast.observe(context(), state, fx, seat, False, out)

        return write
    if package in ("strategy", "the_monolith"):

        def write(state: Any, seat: int, out: np.ndarray) -> None:  # these builders clear the buffer first
            check(seat)
            fast.observe(context(), state, seat, out)

        return write
    return None


def row_writer(game: Any) -> RowWriter:
    """``write(state, seat, out)``: seat ``seat``'s observation of ``state`` written into ``out``
    (``float32[game.obs_spec.size]``, C-contiguous, e.g. a row of a 2-D array), the same values as
    ``game.observe(state, seat)``.

    Uses the game's compiled builder on ``out`` itself when the game's observer uses it, else copies
    ``game.observe`` into ``out`` (one copy per call).

    Raises (from the returned function):
        ValueError: ``seat`` is not a seat of the game.
    """
    return _compiled_writer(game) or _copying_writer(game)
