"""``GameBase``: the defaults of the :class:`~monolith_envs.core.game.Game` contract, so that a game's
``game.py`` holds only its rules.

A game subclasses it, sets the class attribute ``GAME_INFO`` (a :class:`~monolith_envs.core.game.GameInfo`)
and, in ``__init__``, ``config``, ``num_players``, ``layout``, ``obs_spec`` and ``max_decisions``; then it
writes ``initial_state``, ``current_player``, ``legal_mask``, ``apply``, ``is_terminal``, ``returns``,
``outcome``, ``observe``, ``render_text`` and ``render_rgb``. Everything below is a default it may override
(``utility``, ``teams``, ``zero_sum`` and ``env_id`` also by plain assignment in ``__init__``).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar, Mapping

import numpy as np

from .game import GameInfo, Utility
from .state import StateError, clear_transient, clone_state, from_dict, to_dict

__all__ = ["GameBase"]


class GameBase:
    """Defaults for a :class:`~monolith_envs.core.game.Game` (see the module docstring).

    Class attributes:
        GAME_INFO: the game's static :class:`GameInfo` (required).
        STATE_CLASS: optional; the state dataclass, so that :meth:`from_dict` rejects another class.
    """

    GAME_INFO: ClassVar[GameInfo]
    STATE_CLASS: ClassVar[type | None] = None
    num_players: int

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        info = cls.__dict__.get("GAME_INFO")
        if info is not None and not isinstance(info, GameInfo):
            raise TypeError(f"{cls.__name__}.GAME_INFO must be a GameInfo, got {type(info).__name__}")

    # ------------------------------------------------------------------ static facts per instance
    @cached_property
    def env_id(self) -> str:
        """``GAME_INFO.env_id``."""
        return self.GAME_INFO.env_id

    @cached_property
    def utility(self) -> Utility:
        """``Utility.SOLO_GOAL`` with one seat, else ``GAME_INFO.utility``."""
        return Utility.SOLO_GOAL if self.num_players == 1 else self.GAME_INFO.utility

    @cached_property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The partition of the seats into teams: each seat alone, ``((0,), (1,), ...)``."""
        return tuple((p,) for p in range(self.num_players))

    @cached_property
    def zero_sum(self) -> bool:
        """``utility is Utility.ZERO_SUM``."""
        return self.utility is Utility.ZERO_SUM

    # ------------------------------------------------------------------ plain-data state defaults
    def clone(self, state: Any) -> Any:
        """An exact, independent copy (:func:`~monolith_envs.core.state.clone_state`)."""
        return clone_state(state)

    def to_dict(self, state: Any) -> dict:
        """JSON-safe representation (:func:`~monolith_envs.core.state.to_dict`)."""
        return to_dict(state)

    def state_schema(self) -> Mapping[str, Any] | None:
        """Field -> :mod:`~monolith_envs.core.state_schema` spec of a state of this configuration, checked
        by :meth:`from_dict` (with ``STATE_CLASS`` set); ``None`` (the default): no field checks."""
        return None

    def check_state(self, state: Any) -> None:
        """Cross-field checks of a state read by :meth:`from_dict` after its schema passed (raise
        :class:`~monolith_envs.core.state.StateError` naming the field); the default checks nothing."""

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        """Inverse of :meth:`to_dict`.

        With ``STATE_CLASS`` and :meth:`state_schema` given, the data is checked by
        :func:`~monolith_envs.core.state_schema.load_state` (nesting depth, exact field set, every field's
        type and range), then by :meth:`check_state`.

        Raises:
            StateError: malformed data, or (with ``STATE_CLASS`` set) a state of another class, or a field
                that breaks the schema (named, e.g. ``state.board[3]``).
        """
        schema = self.state_schema() if self.STATE_CLASS is not None else None
        if schema is not None:
            from .state_schema import load_state

            s = load_state(data, self.STATE_CLASS, schema)
            self.check_state(s)
            clear_transient(s)  # caches the checks filled are not part of the state read
            return s
        s = from_dict(data)
        want = self.STATE_CLASS
        if want is not None and not isinstance(s, want):
            raise StateError(f"{self.env_id}: from_dict() expects a serialised {want.__name__}, "
                             f"got a {type(s).__name__}")
        return s

    def legal_mask_bytes(self, state: Any) -> bytes | bytearray:
        """The legal actions as ``layout.n`` bytes of 0/1, the bytes of :meth:`legal_mask` (``make_vec``'s
        per-step fast path: copied straight into its mask row; a game may give a cheaper one). Read it, never
        change it: a game may hand out the state's own cached bytes."""
        return np.ascontiguousarray(self.legal_mask(state), np.bool_).tobytes()

    def returns_list(self, state: Any) -> list[float]:
        """``returns(state).tolist()`` (the env's per-step fast path; a game may give a cheaper one)."""
        return np.asarray(self.returns(state), np.float32).tolist()

    def state_vector(self, state: Any) -> np.ndarray:
        """``float32[num_players * obs_spec.size]``: every seat's observation, seat 0 first.

        A game with hidden information that a centralised critic should see overrides this.
        """
        return np.concatenate([np.asarray(self.observe(state, p), np.float32) for p in range(self.num_players)])

    def state_bounds(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(low, high)``, ``float32[m]`` each: the bounds of every :meth:`state_vector` value, for the env's
        ``state_space``: the observation's bounds once per seat for this default ``state_vector``; ``None``
        (unbounded) when a subclass gives its own ``state_vector`` without its own bounds."""
        if type(self).state_vector is not GameBase.state_vector:
            return None
        spec = self.obs_spec
        return np.tile(spec.low, self.num_players), np.tile(spec.high, self.num_players)

    def resample_hidden(self, state: Any, viewer: int, rng: np.random.Generator) -> Any:
        """A clone of ``state`` (the default of a perfect-information game: nothing is hidden).

        Raises:
            ValueError: ``viewer`` is not a seat (as ``observe`` refuses it).
        """
        from .observation import check_seat

        check_seat(viewer, self.num_players)
        return self.clone(state)

    def render_svg(self, state: Any, viewer: int | None = None) -> str:
        """Default drawing: the text render (``render_text(state, viewer)``) as SVG ``<text>`` lines."""
        from .drawing import Scene

        lines = str(self.render_text(state, viewer)).splitlines()[:400] or [""]
        width = min(4096, max(200, 8 * max(len(ln) for ln in lines) + 20))
        sc = Scene(width, min(4096, 16 * len(lines) + 20), (255, 255, 255), title=self.env_id)
        for k, line in enumerate(lines):
            sc.text(10, 18 + 16 * k, line, 13, (20, 20, 20))
        return sc.to_svg()

    def end_reason(self, state: Any) -> str:
        """Why a finished game ended as it did, in words, for terminal play, browser play and the replay page
        (the three games say it: a tie-break, a Banner at 0, ...); the default, and a game still going on:
        ``""``."""
        return ""

    def describe_action(self, state: Any | None, action: int) -> str:
        """``action`` in words, without the seat (``places Knight on hex 07 facing NE``), for terminal play,
        browser play, the replay page and the drawings; ``state`` is the state it is applied in (``None``:
        said without what only that state knows). The default, for a game that does not say more: the
        layout's name of the action (``PLACE(slot=0, hex=7, rot=0)``).

        Raises:
            ValueError: ``action`` is outside the layout.
        """
        return self.layout.decode(int(action))

    def check_invariants(self, state: Any) -> None:
        """No invariant (a game overrides this with its rules' invariants, raising ``InvariantError``)."""

    # ------------------------------------------------------------------ rules (the game writes these)
    def outcome(self, state: Any) -> tuple:
        """Per-seat :class:`~monolith_envs.core.game.Outcome` of a terminal state (the game writes this;
        :func:`~monolith_envs.core.returns.winners_outcome` and ``solo_outcome`` build it)."""
        raise NotImplementedError(f"{type(self).__name__} must define outcome(state)")
