"""Schema checks for states read back from JSON (``Game.from_dict``), shared by every game.

:func:`monolith_envs.core.state.from_dict` rebuilds any plain-data state; it does not know what a game's
fields may hold.  A game's ``from_dict`` calls :func:`load_state` with its state class and a schema (a
``dict`` from field name to :class:`Int`, :class:`Bool`, :class:`Float`, :class:`Choice` or :class:`List`
specs, built for the game's configuration, so list lengths and value ranges follow the player count),
then adds its own cross-field checks with :func:`state_error`.  Every problem is a
:class:`~monolith_envs.core.state.StateError` naming the field's path, e.g. ``state.board[3]``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .state import StateError, from_dict, transient_fields

__all__ = ["Bool", "Choice", "Float", "Int", "List", "Spec", "check_fields", "load_state", "state_error"]

MAX_DEPTH = 32
"""Deepest nesting of lists and dicts accepted in a serialised state (states are a few levels deep)."""


class Spec:
    """Base of the field specs; :meth:`check` raises :class:`StateError` naming ``path``."""

    def check(self, v: Any, path: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def state_error(path: str, value: Any, allowed: str) -> StateError:
    """``StateError("<path> = <value>: expected <allowed>")`` (long values shortened)."""
    r = repr(value)
    if len(r) > 60:
        r = r[:40] + f"... ({len(r)} characters)"
    return StateError(f"{path} = {r}: expected {allowed}")


def _is_int(v: Any) -> bool:
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


@dataclass(frozen=True)
class Int(Spec):
    """An ``int`` (not a bool) in ``lo .. hi``."""

    lo: int
    hi: int

    def check(self, v: Any, path: str) -> None:
        if not _is_int(v) or not self.lo <= v <= self.hi:
            raise state_error(path, v, f"an integer from {self.lo} to {self.hi}")


@dataclass(frozen=True)
class Bool(Spec):
    """``True`` or ``False``."""

    def check(self, v: Any, path: str) -> None:
        if type(v) is not bool:
            raise state_error(path, v, "true or false")


@dataclass(frozen=True)
class Float(Spec):
    """A finite ``float`` (or ``int``) in ``lo .. hi``."""

    lo: float = -math.inf
    hi: float = math.inf

    def check(self, v: Any, path: str) -> None:
        if not (isinstance(v, float) or _is_int(v)) or not math.isfinite(v) or not self.lo <= v <= self.hi:
            raise state_error(path, v, f"a finite number from {self.lo} to {self.hi}")


@dataclass(frozen=True)
class Choice(Spec):
    """One of ``values`` (ints, e.g. the values of a sub-phase ``IntEnum``; bools never match ints).

    ``names`` (optional) are shown in the message instead of the bare values.
    """

    values: tuple
    names: tuple = ()

    def check(self, v: Any, path: str) -> None:
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
