"""The rules-engine contract every game implements (ARCHITECTURE §2).

A *game* object holds a validated, immutable configuration and the derived lookup tables; a *state*
holds every mutable fact of one match as plain data (see :mod:`monolith_envs.core.state`).  The engine
knows nothing of PettingZoo or SB3: :class:`monolith_envs.core.aec.RulesAECEnv` adapts any object that
follows :class:`Game` to the AEC API.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from .actions import ActionLayout
from .observation import ObsSpec

__all__ = [
    "ChanceMode",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Information",
    "InvariantError",
    "MonolithEnvError",
    "Outcome",
    "Utility",
]


class Utility(str, Enum):
    """How the returns of the seats relate (OpenSpiel's ``GameType.utility``).

    ``ZERO_SUM``: the returns always sum to 0; ``GENERAL_SUM``: no constraint; ``SOLO_GOAL``: one seat plays
    against the game and either reaches its goal (``Outcome.SUCCESS``) or not (``Outcome.FAILURE``).
    """

    ZERO_SUM = "zero_sum"
    GENERAL_SUM = "general_sum"
    SOLO_GOAL = "solo_goal"


class ChanceMode(str, Enum):
    """When the game draws at random: only in ``initial_state`` (``SETUP_ONLY``), or also inside ``apply``
    (``DURING_PLAY``: dice, tower drops; those draws are chance events of the episode log)."""

    SETUP_ONLY = "setup_only"
    DURING_PLAY = "during_play"


class Information(str, Enum):
    """``PERFECT``: every seat may know the whole state; ``IMPERFECT``: some facts are hidden from some seat
    (hands, deck orders, secret objectives) and ``resample_hidden`` redraws them."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Outcome(str, Enum):
    """The result of one seat in a finished game: ``WIN`` / ``DRAW`` / ``LOSS`` with several seats (allies
    share one), ``SUCCESS`` / ``FAILURE`` in a one-seat game."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    SUCCESS = "success"
    FAILURE = "failure"


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, the same for every configuration (like OpenSpiel's ``GameType``).

    Every game class has one as its class attribute ``GAME_INFO``; tools (evaluation, benchmarks, the CLI)
    read it instead of trying configurations.

    Attributes:
        env_id: the registered id, e.g. ``"monolith_arena_v0"``.
        name: the game's name for people, e.g. ``"Monolith Arena"``.
        min_players, max_players: the range of ``num_players`` the config accepts (1 = a solo game exists).
        utility: :class:`Utility` of the configs with two seats or more (a one-seat config is always
            ``SOLO_GOAL``; the instance's ``utility`` says which applies).
        chance: :class:`ChanceMode`.
        information: :class:`Information`.
        teams: True when some config puts seats in teams (the instance's ``teams`` gives the partition).
        config_keys: the tuple of :class:`~monolith_envs.core.config.ConfigKey` the game accepts.
        max_length: the default ``max_decisions`` (truncation limit).

    Raises:
        ValueError: on construction, a player range that is empty or below 1, a ``max_length`` below 1, or
            a field of the wrong type (the message names it).
    """

    env_id: str
    name: str
    min_players: int
    max_players: int
    utility: Utility
    chance: ChanceMode
    information: Information
    teams: bool
    config_keys: tuple
    max_length: int

    def __post_init__(self) -> None:
        for key, typ in (("utility", Utility), ("chance", ChanceMode), ("information", Information)):
            v = getattr(self, key)
            if not isinstance(v, typ):
                raise ValueError(f"GameInfo.{key} must be a {typ.__name__} member, got {v!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"GameInfo of {self.env_id}: players {self.min_players}..{self.max_players} is not a "
                             "range with 1 <= min_players <= max_players")
        if self.max_length < 1:
            raise ValueError(f"GameInfo of {self.env_id}: max_length {self.max_length} must be >= 1")
        if not isinstance(self.config_keys, tuple):
            raise ValueError(f"GameInfo of {self.env_id}: config_keys must be a tuple of ConfigKey")

    @property
    def player_counts(self) -> range:
        """``range(min_players, max_players + 1)``."""
        return range(self.min_players, self.max_players + 1)

    def config_key(self, name: str):
        """The :class:`~monolith_envs.core.config.ConfigKey` called ``name``, or None."""
        return next((k for k in self.config_keys if k.name == name), None)


def _rebuild_error(cls: type, args: tuple, attrs: dict) -> "MonolithEnvError":
    """Unpickling helper of :meth:`MonolithEnvError.__reduce__`: the error with ``args`` and ``attrs``,
    without calling the class's ``__init__`` (whose parameters need not match ``args``)."""
    exc = cls.__new__(cls, *args)
    exc.args = tuple(args)
    exc.__dict__.update(attrs)
    return exc


def _copy_error(target: BaseException, source: BaseException) -> None:
    target.args = source.args
    target.__dict__.update(source.__dict__)


class MonolithEnvError(Exception):
    """Base class of every error this library raises on purpose.

    Every subclass pickles and unpickles with its message and attributes (``__reduce__`` does not call the
    subclass's ``__init__``, whose parameters are not the message), so an error raised in a worker process
    arrives whole in the parent. ``cls(err)``, with ``err`` an error of exactly the class ``cls``, gives a copy
    with the same message and attributes, whatever the parameters of ``cls.__init__`` (Gymnasium's
    ``AsyncVectorEnv`` re-raises a worker's error as ``type(err)(err)``).
    """

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and type(args[0]) is type(self):
            _copy_error(self, args[0])
        else:
            super().__init__(*args)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None or getattr(init, "_copies_error", False):
            return

        @functools.wraps(init)
        def __init__(self, *args: Any, **kw: Any) -> None:
            if len(args) == 1 and not kw and type(args[0]) is type(self):
                _copy_error(self, args[0])
            else:
                init(self, *args, **kw)

        __init__._copies_error = True  # type: ignore[attr-defined]
        cls.__init__ = __init__  # type: ignore[misc]

    def __reduce__(self) -> tuple:
        return (_rebuild_error, (type(self), self.args, dict(self.__dict__)))


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
        GAME_INFO: the class's static :class:`GameInfo`.
        env_id: the registered id, e.g. ``"monolith_arena_v0"``.
        config: the validated configuration (a plain ``dict``; every key present).
        num_players: number of seats; agents are ``player_0 .. player_{n-1}``.
        layout: the :class:`ActionLayout`; ``layout.n`` actions form one ``Discrete(n)``.
        obs_spec: the :class:`ObsSpec` of ``observe``; ``obs_spec.size`` floats.
        utility: the :class:`Utility` of this config (``SOLO_GOAL`` when ``num_players == 1``).
        teams: the partition of the seats into teams, a tuple of tuples of seats (each seat alone when the
            config has no teams), e.g. ``((0, 2), (1, 3))``.
        zero_sum: ``utility is Utility.ZERO_SUM`` (checked by the conformance suite).
        max_decisions: truncation limit (number of ``apply`` calls per episode).

    :class:`~monolith_envs.core.base.GameBase` gives defaults for ``clone``, ``to_dict``, ``from_dict``,
    ``state_vector``, ``state_bounds``, ``returns_list``, ``resample_hidden``, ``check_invariants``, ``end_reason``,
    ``describe_action``, ``utility``, ``teams`` and ``zero_sum``.

    Optional fast path (not part of the protocol check): ``returns_list(state) -> list[float]``, equal to
    ``returns(state).tolist()``; :class:`~monolith_envs.core.aec.RulesAECEnv` calls it after every step
    when the game defines it.

    Optional bounds (not part of the protocol check): ``state_bounds() -> (low, high) | None``, the
    ``float32[m]`` bounds of every ``state_vector`` value; ``RulesAECEnv.state_space`` uses them, and without
    them (or with ``None``) it is ``Box(-inf, inf)``.

    Optional narration (not part of the protocol check either): ``narrate(before, after, action, seat) ->
    list[str]``, what ``action`` by ``seat`` did, from the states before and after one ``apply``, in lines
    of at most 80 columns; the HTML replay page shows them at each step of a game that defines it
    (:mod:`monolith_envs.core.narration`).

    All randomness comes from the ``rng`` arguments, and only through ``rng.integers``, ``rng.permutation``,
    ``rng.choice`` and ``rng.random`` (the env passes a :class:`~monolith_envs.core.chance.ChanceRecorder`
    to ``apply``, which logs each draw as a chance event). ``apply`` draws only once it has decided that
    the action is legal: a rejected action consumes nothing and changes nothing. States hold plain data
    only, so :mod:`monolith_envs.core.state` can clone, compare and serialise them.
    """

    GAME_INFO: ClassVar[GameInfo]
    env_id: str
    config: Mapping[str, Any]
    num_players: int
    layout: ActionLayout
    obs_spec: ObsSpec
    utility: Utility
    teams: tuple
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

    def outcome(self, state: Any) -> tuple:
        """``tuple[Outcome, ...]``, one per seat, of a terminal state: WIN / DRAW / LOSS (allies share one),
        SUCCESS / FAILURE in a one-seat game.

        Raises:
            MonolithEnvError: ``state`` is not terminal.
        """

    def observe(self, state: Any, player: int) -> np.ndarray:
        """``float32[obs_spec.size]``: what ``player`` may know, seat-relative (ARCHITECTURE §2)."""

    def state_vector(self, state: Any) -> np.ndarray:
        """``float32[m]``: an omniscient vector for centralised critics (``AECEnv.state()``)."""

    def render_text(self, state: Any, viewer: int | None = None) -> str:
        """Text picture of the state as ``viewer`` sees it (``None``: omniscient)."""

    def render_rgb(self, state: Any) -> np.ndarray:
        """``uint8[H, W, 3]`` picture of the board."""

    def render_svg(self, state: Any, viewer: int | None = None) -> str:
        """SVG document of the board as ``viewer`` sees it (``None``: omniscient); hidden facts as in ``observe``."""

    def resample_hidden(self, state: Any, viewer: int, rng: np.random.Generator) -> Any:
        """A copy of ``state`` in which everything ``viewer`` may not know is redrawn at random.

        Used by information-set search and by the conformance suite's leak check: the viewer's
        observation of the copy must be byte-identical to that of the original.
        """

    def check_invariants(self, state: Any) -> None:
        """Raise :class:`InvariantError` when a spec invariant does not hold."""

    def end_reason(self, state: Any) -> str:
        """Why a finished game ended as it did, in words (``""`` while it goes on)."""

    def describe_action(self, state: Any | None, action: int) -> str:
        """``action`` in words, said in ``state`` (``None``: without it); raises ``ValueError`` outside the layout."""

    def to_dict(self, state: Any) -> dict:
        """JSON-safe representation of ``state``."""

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        """Inverse of :meth:`to_dict`."""
