"""Schema checks for states read back from JSON (``Game.from_dict``), shared by every game.

:func:`monolith_envs.core.state.from_dict` rebuilds any plain-data state; it does not know what a game's
fields may hold.  A game's ``from_dict`` calls :func:`load_state` with its state class and a schema (a
``dict`` from field name to :class:`Int`, :class:`Bool`, :class:`Float`, :class:`Choice` or :class:`List`
specs, built for the game's configuration, so list lengths and value ranges follow the player count),
then adds its own cross-field checks with :func:`state_error`, its invariants through
:func:`check_invariants`, and ends with :func:`probe_state` (the engine can play the state: a legal action in
a live game, finite observations in bounds, finite returns).  A parsed position gets the same checks but the
invariants (:func:`check_built`).  Every problem is a :class:`~monolith_envs.core.state.StateError` naming
the field's path, e.g. ``state.board[3]``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .content import is_int
from .state import StateError, from_dict, transient_fields

__all__ = ["Bool", "Choice", "Float", "Int", "List", "Spec", "check_built", "check_fields", "check_invariants",
           "load_state", "probe_state", "state_error"]

ENGINE_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError, ZeroDivisionError,
                 RecursionError)
"""What rules code raises when it meets a record it cannot read (turned into a StateError by the checks)."""

MAX_DEPTH = 32
"""Deepest nesting of lists and dicts accepted in a serialised state (states are a few levels deep)."""


class Spec:
    """Base of the field specs; :meth:`check` raises :class:`StateError` naming ``path``."""

    def check(self, v: Any, path: str) -> None:  # pragma: no cover - abstract
        """Return when ``v`` fits this spec; raise :class:`StateError` naming ``path``, the value and what is
        allowed otherwise."""
        raise NotImplementedError


def state_error(path: str, value: Any, allowed: str) -> StateError:
    """``StateError("<path> = <value>: expected <allowed>")`` (long values shortened)."""
    r = repr(value)
    if len(r) > 60:
        r = r[:40] + f"... ({len(r)} characters)"
    return StateError(f"{path} = {r}: expected {allowed}")


@dataclass(frozen=True)
class Int(Spec):
    """An ``int`` (not a bool) in ``lo .. hi``."""

    lo: int
    hi: int

    def check(self, v: Any, path: str) -> None:
        """Raises :class:`StateError` naming ``path``, ``v`` and what is allowed when ``v`` does not fit."""
        if not is_int(v) or not self.lo <= v <= self.hi:
            raise state_error(path, v, f"an integer from {self.lo} to {self.hi}")


@dataclass(frozen=True)
class Bool(Spec):
    """``True`` or ``False``."""

    def check(self, v: Any, path: str) -> None:
        """Raises :class:`StateError` naming ``path``, ``v`` and what is allowed when ``v`` does not fit."""
        if type(v) is not bool:
            raise state_error(path, v, "true or false")


@dataclass(frozen=True)
class Float(Spec):
    """A finite ``float`` (or ``int``) in ``lo .. hi``."""

    lo: float = -math.inf
    hi: float = math.inf

    def check(self, v: Any, path: str) -> None:
        """Raises :class:`StateError` naming ``path``, ``v`` and what is allowed when ``v`` does not fit."""
        if not (isinstance(v, float) or is_int(v)) or not math.isfinite(v) or not self.lo <= v <= self.hi:
            raise state_error(path, v, f"a finite number from {self.lo} to {self.hi}")


@dataclass(frozen=True)
class Choice(Spec):
    """One of ``values`` (ints, e.g. the values of a sub-phase ``IntEnum``; bools never match ints).

    ``names`` (optional) are shown in the message instead of the bare values.
    """

    values: tuple
    names: tuple = ()

    def check(self, v: Any, path: str) -> None:
        """Raises :class:`StateError` naming ``path``, ``v`` and what is allowed when ``v`` does not fit."""
        if isinstance(v, bool) or v not in self.values or type(v) not in {type(x) for x in self.values}:
            shown = self.names or self.values
            raise state_error(path, v, "one of " + ", ".join(map(str, shown)))


@dataclass(frozen=True)
class List(Spec):
    """A ``list`` of ``item`` values, of exactly ``length`` items or ``min_len .. max_len``."""

    item: Spec
    length: int | None = None
    min_len: int = 0
    max_len: int = 1 << 16

    def check(self, v: Any, path: str) -> None:
        """Raises :class:`StateError` naming ``path``, ``v`` and what is allowed when ``v`` does not fit."""
        if type(v) is not list:
            raise state_error(path, v, "a list")
        if self.length is not None and len(v) != self.length:
            raise state_error(path, v, f"a list of {self.length} items, not {len(v)}")
        if not self.min_len <= len(v) <= self.max_len:
            raise state_error(path, v, f"a list of {self.min_len} to {self.max_len} items, not {len(v)}")
        item = self.item
        t = type(item)
        if t is Int:  # fast paths for the common flat lists; the loop below names the offender
            lo, hi = item.lo, item.hi
            if all(type(x) is int and lo <= x <= hi for x in v):
                return
        elif t is Bool:
            if all(type(x) is bool for x in v):
                return
        for i, x in enumerate(v):
            item.check(x, f"{path}[{i}]")


def check_fields(obj: Any, schema: Mapping[str, Spec], root: str = "state") -> None:
    """Check every field of ``schema`` on ``obj`` (``getattr``), in schema order.

    Raises:
        StateError: the first field that breaks its spec, with its path (``root.field[i]``).
    """
    for name, spec in schema.items():
        spec.check(getattr(obj, name), f"{root}.{name}")


def _check_depth(data: Any, root: str) -> None:
    stack = [(data, root, 0)]
    while stack:
        v, path, depth = stack.pop()
        if isinstance(v, (list, dict)):
            if depth > MAX_DEPTH:
                raise StateError(f"{path}: nested deeper than {MAX_DEPTH} levels")
            items = v.items() if isinstance(v, dict) else enumerate(v)
            stack.extend((x, f"{path}[{k!r}]", depth + 1) for k, x in items if isinstance(x, (list, dict)))


def load_state(data: Any, cls: type, schema: Mapping[str, Spec], root: str = "state") -> Any:
    """Rebuild a ``cls`` state from :func:`~monolith_envs.core.state.to_dict` output and check it.

    Checks, in order: the nesting depth (no ``RecursionError``), that ``data`` is a serialised ``cls``
    with exactly its persistent fields (none missing, none unknown), then every field of ``schema``.

    Raises:
        StateError: naming the field and what is allowed.
    """
    _check_depth(data, root)
    if not isinstance(data, Mapping) or "__state__" not in data:
        raise state_error(root, data, f"a serialised {cls.__name__} (a dict with a '__state__' tag)")
    fields = [f.name for f in dataclasses.fields(cls) if f.name not in transient_fields(cls)]
    missing = [f for f in fields if f not in data]
    if missing:
        raise StateError(f"{root}: missing field(s) {', '.join(missing)} of {cls.__name__}")
    unknown = [k for k in data if k != "__state__" and k not in fields]
    if unknown:
        raise StateError(f"{root}: unknown field(s) {', '.join(map(repr, unknown))} of {cls.__name__}")
    obj = from_dict(data, root)
    if type(obj) is not cls:
        raise state_error(root, type(obj).__name__, f"a serialised {cls.__name__}")
    check_fields(obj, schema, root)
    return obj


def probe_state(game: Any, s: Any, root: str = "state") -> None:
    """Check that the engine can read a state that passed its schema: the mask is legal (at least one legal
    action and a seat to act unless the game is over, none after), every seat's observation is finite and
    inside the observation space, the returns are finite, and the first legal action applies to a copy.

    A game's ``check_state`` calls this last, so that ``from_dict`` never returns a state that fails later
    with an ``IndexError`` deep in the rules, a ``NaN`` in an observation or a live game without a move.

    Raises:
        StateError: naming what the engine could not do with the state (the engine's own complaint for
            records that the schema could not see, e.g. a malformed pending decision).
    """
    import numpy as np

    from .game import MonolithEnvError

    n = game.num_players
    try:
        terminal = bool(game.is_terminal(s))
        cp = game.current_player(s)
        mask = np.asarray(game.legal_mask(s))
        if terminal:
            if cp != -1 or mask.any():
                raise StateError(f"{root}: the game is over, but seat {cp} has {int(mask.sum())} legal actions")
        elif not (type(cp) is int and 0 <= cp < n) or not mask.any():
            raise StateError(f"{root}: the game is not over, but no action is legal (current player {cp}); "
                             "allowed: a state where the player to act has a legal action")
        spec = game.obs_spec
        for p in range(n):
            o = np.asarray(game.observe(s, p))
            bad = np.flatnonzero(~np.isfinite(o) | (o < spec.low) | (o > spec.high))
            if bad.size:
                i = int(bad[0])
                piece = next(pc for pc in spec.pieces if pc.offset <= i < pc.stop)
                raise StateError(f"{root}: seat {p}'s observation holds {o[i]} in {piece.name!r}, outside "
                                 f"[{piece.low:g}, {piece.high:g}]")
        r = np.asarray(game.returns(s), np.float64)
        if not np.isfinite(r).all():
            raise StateError(f"{root}: returns {r.tolist()} are not finite")
        if not terminal:
            game.apply(game.clone(s), int(np.flatnonzero(mask)[0]), np.random.default_rng(0))
    except StateError:
        raise
    except MonolithEnvError as exc:
        raise StateError(f"{root}: the engine refuses this state: {exc}") from None
    except ENGINE_ERRORS as exc:
        raise StateError(f"{root}: the engine cannot read this state ({type(exc).__name__}: {exc}); allowed: "
                         "states written by to_dict") from None


def check_built(game: Any, s: Any, records: Any = None) -> None:
    """Check a state built in code (a parsed position) as :meth:`from_dict` checks a loaded one, except the
    game's invariants (a position may state a situation that play cannot reach): the field schema of
    ``game.state_schema()``, then ``records(game, s)`` when given (a game's checks of its free-form records),
    then :func:`probe_state`.

    Raises:
        StateError: naming the field, or what the engine could not do with the state.
    """
    from .state import to_dict

    load_state(to_dict(s), type(s), game.state_schema())
    if records is not None:
        records(game, s)
    probe_state(game, s)


def check_invariants(game: Any, s: Any, root: str = "state") -> None:
    """``game.check_invariants(s)`` for a state read from outside: a broken invariant, or rules code that
    cannot even read the state to check it, is a :class:`StateError`.

    Raises:
        StateError: ``"<root>: <the invariant's message>"`` or what the engine could not read.
    """
    from .game import InvariantError

    try:
        game.check_invariants(s)
    except InvariantError as exc:
        raise StateError(f"{root}: {exc}") from None
    except ENGINE_ERRORS as exc:
        raise StateError(f"{root}: the engine cannot read this state ({type(exc).__name__}: {exc}); allowed: "
                         "states written by to_dict") from None
