"""The rules-engine contract every game implements (ARCHITECTURE §2).

A *game* object holds a validated, immutable configuration and the derived lookup tables; a *state*
holds every mutable fact of one match as plain data (see :mod:`monolith_envs.core.state`).  The engine
knows nothing of PettingZoo or SB3: :class:`monolith_envs.core.aec.RulesAECEnv` adapts any object that
follows :class:`Game` to the AEC API.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from .actions import ActionLayout
from .observation import ObsSpec

__all__ = [
    "Game",
    "IllegalActionError",
    "InvariantError",
    "MonolithEnvError",
]


class MonolithEnvError(Exception):
    """Base class of every error this library raises on purpose."""


class IllegalActionError(MonolithEnvError, ValueError):
    """An action that the rules do not allow at this point, or that is not an action at all.

    The message always says what was asked, why it is illegal and what is legal now.

    Args:
        asked: readable description of the requested action (e.g. ``"place(slot=0, hex=9, rot=1)"``).
        why: the reason it is illegal (e.g. ``"hex 9 is occupied"``).
        legal: readable names of the legal actions now (a long list is shortened), or a sentence ("" adds
            nothing).
    """

    def __init__(self, asked: str, why: str, legal: Sequence[str] | str = ()):
        if isinstance(legal, str):
            legal_txt = legal
        else:
            legal = list(legal)
            shown = ", ".join(legal[:12])
            if len(legal) > 12:
                shown += f", ... ({len(legal)} legal actions in all)"
            legal_txt = f"legal now: {shown}" if legal else "no action is legal now"
        self.asked = asked
        self.why = why
        super().__init__(f"illegal action {asked}: {why}" + (f"; {legal_txt}" if legal_txt else ""))


class InvariantError(MonolithEnvError, AssertionError):
    """A game invariant (a spec's invariants section) does not hold: a bug in the rules engine."""


@runtime_checkable
class Game(Protocol):
    """A rules engine for one game and one configuration (ARCHITECTURE §2).

    Attributes:
        env_id: the registered id, e.g. ``"monolith_arena_v0"``.
        config: the validated configuration (a plain ``dict``; every key present).
        num_players: number of seats; agents are ``player_0 .. player_{n-1}``.
        layout: the :class:`ActionLayout`; ``layout.n`` actions form one ``Discrete(n)``.
        obs_spec: the :class:`ObsSpec` of ``observe``; ``obs_spec.size`` floats.
        zero_sum: True when ``returns`` always sums to 0 (checked by the conformance suite).
        max_decisions: truncation limit (number of ``apply`` calls per episode).

    Optional fast path (not part of the protocol check): ``returns_list(state) -> list[float]``, equal to
    ``returns(state).tolist()``; :class:`~monolith_envs.core.aec.RulesAECEnv` calls it after every step
    when the game defines it.

    All randomness comes from the ``rng`` arguments (``numpy.random.Generator``); states hold plain data
    only, so :mod:`monolith_envs.core.state` can clone, compare and serialise them.
    """

    env_id: str
    config: Mapping[str, Any]
    num_players: int
    layout: ActionLayout
    obs_spec: ObsSpec
    zero_sum: bool
    max_decisions: int

    def initial_state(self, rng: np.random.Generator) -> Any:
        """A fresh state at the first decision of a match (setup randomness drawn from ``rng``)."""

    def current_player(self, state: Any) -> int:
        """Seat that must act now, or -1 when the state is terminal."""

    def legal_mask(self, state: Any) -> np.ndarray:
        """``bool[layout.n]``: True exactly for the legal actions; all False when terminal."""

    def apply(self, state: Any, action: int, rng: np.random.Generator) -> None:
        """Apply ``action`` for the current player, mutating ``state`` in place.

        Raises:
            IllegalActionError: the action is not legal now.
        """

    def clone(self, state: Any) -> Any:
        """An exact, independent copy of ``state``."""

    def is_terminal(self, state: Any) -> bool:
        """True once the match is over."""

    def returns(self, state: Any) -> np.ndarray:
        """``float32[num_players]``: cumulative return of each seat so far (terminal values at the end)."""

    def observe(self, state: Any, player: int) -> np.ndarray:
        """``float32[obs_spec.size]``: what ``player`` may know, seat-relative (ARCHITECTURE §4)."""

    def state_vector(self, state: Any) -> np.ndarray:
        """``float32[m]``: an omniscient vector for centralised critics (``AECEnv.state()``)."""

    def render_text(self, state: Any, viewer: int | None = None) -> str:
        """Text picture of the state as ``viewer`` sees it (``None``: omniscient)."""

    def render_rgb(self, state: Any) -> np.ndarray:
        """``uint8[H, W, 3]`` picture of the board."""

    def resample_hidden(self, state: Any, viewer: int, rng: np.random.Generator) -> Any:
        """A copy of ``state`` in which everything ``viewer`` may not know is redrawn at random.

        Used by information-set search and by the conformance suite's leak check: the viewer's
        observation of the copy must be byte-identical to that of the original.
        """

    def check_invariants(self, state: Any) -> None:
        """Raise :class:`InvariantError` when a spec invariant does not hold."""

    def to_dict(self, state: Any) -> dict:
        """JSON-safe representation of ``state``."""

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        """Inverse of :meth:`to_dict`."""
