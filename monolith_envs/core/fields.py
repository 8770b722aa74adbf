"""Typed, bounded readers of one table of a content file (:class:`Fields`): a new game's content loader can
read each tile, card or section through it; every problem is a :class:`~monolith_envs.core.content.ContentError`
naming the file, the line (when known), the item and the field.  The three games' loaders check their
fields with readers of their own (``arena/content_parse.py``, ``strategy/content.py``,
``the_monolith/content.py``)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .config import short_repr
from .content import INT_LIMIT, ContentError, is_int

__all__ = ["Fields", "REQUIRED"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""Default of a :class:`Fields` reader meaning "the field must be present"."""


def _int_bounds(lo: int | None, hi: int | None) -> tuple[int, int]:
    """``lo .. hi`` within ``-INT_LIMIT .. INT_LIMIT``: a content file's integers beyond a C ``int`` reach the
    readers (:func:`~monolith_envs.core.content.load_toml` leaves them to the field's own range), and a reader
    without bounds refuses them too."""
    return (-INT_LIMIT if lo is None else max(lo, -INT_LIMIT)), (INT_LIMIT if hi is None else min(hi, INT_LIMIT))


def _rng(lo: int | float | None, hi: int | float | None, what: str = "an integer") -> str:
    if lo is not None and hi is not None:
        return f"{what} from {lo} to {hi}"
    if lo is not None:
        return f"{what} >= {lo}"
    if hi is not None:
        return f"{what} <= {hi}"
    return what


class Fields:
    """Typed, bounded reader of one TOML table (a tile, a card, a section).

    Args:
        table: the parsed table (anything else raises ``ContentError`` at construction).
        path: the file name for messages.
        item: id of the tile/card ("" for a section).
        prefix: prepended to field names in messages (e.g. ``"faction."``).
        label: the word for an item in messages (``"tile"``, ``"card"``).
        line: ``line(field) -> int`` gives the line of a field (0 = unknown); default: none known.

    Every reader takes the field name, its bounds and a ``default`` (:data:`REQUIRED`: the field must be
    present) and raises ``ContentError(path, line, item, prefix + field, problem, allowed)`` for a missing
    required field, a wrong type or a value out of bounds. Bools are never integers, and an integer beyond a C
    ``int`` (``|v| > INT_LIMIT``) is out of range wherever a reader has no bounds, in the same words.
    """

    def __init__(self, table: Any, path: str, item: str = "", prefix: str = "", label: str = "item",
                 line: Callable[[str], int] | None = None):
        self.path = path
        self.item = item
        self.prefix = prefix
        self.label = label
        self._line = line
        if not isinstance(table, dict):
            raise self.err("", f"{short_repr(table)} is not a table", "a TOML table")
        self.table = table

    def err(self, field: str, problem: str, allowed: str = "") -> ContentError:
        """The :class:`ContentError` for ``field`` of this table."""
        line = self._line(field) if self._line else 0
        name = self.prefix + field if field else self.prefix.rstrip(".")
        return ContentError(self.path, line, self.item, name, problem, allowed, self.label)

    def __contains__(self, field: str) -> bool:
        return field in self.table

    def check_keys(self, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
        """Every key is in ``allowed`` and every key of ``required`` is present."""
        allowed = tuple(allowed)
        for k in required:
            if k not in self.table:
                raise self.err(k, "missing", "required: " + ", ".join(required))
        for k in self.table:
            if k not in allowed:
                raise self.err(k, f"unknown field {k!r}", ", ".join(allowed))

    def raw(self, field: str, default: Any = REQUIRED) -> Any:
        """The value as parsed (no check), or ``default``."""
        if field in self.table:
            return self.table[field]
        if default is REQUIRED:
            raise self.err(field, "missing")
        return default

    def int(self, field: str, lo: int | None = None, hi: int | None = None, default: Any = REQUIRED) -> int:
        """An integer in ``lo .. hi``."""
        v = self.raw(field, default)
        if not is_int(v):
            raise self.err(field, f"{short_repr(v)} is not an integer", _rng(lo, hi))
        a, b = _int_bounds(lo, hi)
        if not a <= v <= b:
            raise self.err(field, f"{short_repr(v)} is out of range", _rng(a, b))
        return v

    def number(self, field: str, lo: float | None = None, hi: float | None = None, default: Any = REQUIRED) -> float:
        """A finite int or float in ``lo .. hi``, returned as a float."""
        v = self.raw(field, default)
        if not (is_int(v) or isinstance(v, float)) or (isinstance(v, float) and not math.isfinite(v)):
            raise self.err(field, f"{short_repr(v)} is not a number", _rng(lo, hi, "a number"))
        if ((lo is not None and v < lo) or (hi is not None and v > hi)
                or (is_int(v) and not -INT_LIMIT <= v <= INT_LIMIT)):  # (float() of 10**400 overflows)
            raise self.err(field, f"{short_repr(v)} is out of range", _rng(lo, hi, "a number") if (lo, hi) != (None, None)
                           else f"a number; integers from {-INT_LIMIT} to {INT_LIMIT}")
        return float(v)

    def bool(self, field: str, default: Any = REQUIRED) -> bool:
        """``true`` or ``false``."""
        v = self.raw(field, default)
        if not isinstance(v, bool):
            raise self.err(field, f"{short_repr(v)} is not a boolean", "true or false")
        return v

    def str(self, field: str, default: Any = REQUIRED, pattern: str | None = None, max_len: int = 1000,
            allowed: str = "") -> str:
        """A string of at most ``max_len`` characters, fully matching ``pattern`` when given."""
        v = self.raw(field, default)
        what = allowed or ("a string matching " + pattern if pattern else "a string")
        if not isinstance(v, str):
            raise self.err(field, f"{short_repr(v)} is not a string", what)
        if len(v) > max_len:
            raise self.err(field, f"string of {len(v)} characters is too long", f"at most {max_len} characters")
        if pattern is not None and not re.fullmatch(pattern, v):
            raise self.err(field, f"{short_repr(v)} is not allowed", what)
        return v

    def choice(self, field: str, options: Sequence[Any], default: Any = REQUIRED) -> Any:
        """One of ``options`` (compared by type and value)."""
        v = self.raw(field, default)
        if not any(type(v) is type(o) and v == o for o in options):
            raise self.err(field, f"{short_repr(v)} is not allowed", ", ".join(map(str, options)))
        return v

    def list(self, field: str, default: Any = (), min_len: int = 0, max_len: int = 64) -> list:
        """A list (items unchecked) of ``min_len .. max_len`` items."""
        v = self.raw(field, default)
        if isinstance(v, tuple):
            v = list(v)
        if not isinstance(v, list):
            raise self.err(field, f"{short_repr(v)} is not a list", f"a list of {min_len} to {max_len} items")
        if not min_len <= len(v) <= max_len:
            raise self.err(field, f"list of {len(v)} items", f"a list of {min_len} to {max_len} items")
        return v

    def int_list(self, field: str, lo: int | None = None, hi: int | None = None, default: Any = (),
                 min_len: int = 0, max_len: int = 64, unique: bool = False) -> tuple[int, ...]:
        """A list of integers in ``lo .. hi`` (``unique``: no value twice), as a tuple."""
        items = self.list(field, default, min_len, max_len)
        a, b = _int_bounds(lo, hi)
        out: list[int] = []
        for x in items:
            if not is_int(x) or not a <= x <= b:
                raise self.err(field, f"value {short_repr(x)} is out of range", "a list of " + _rng(a, b, "integers"))
            if unique and x in out:
                raise self.err(field, f"value {x} is listed twice", "each value at most once")
            out.append(x)
        return tuple(out)

    def str_list(self, field: str, options: Sequence[str] | None = None, default: Any = (), min_len: int = 0,
                 max_len: int = 64, unique: bool = False) -> tuple[str, ...]:
        """A list of strings (each one of ``options`` when given), as a tuple."""
        items = self.list(field, default, min_len, max_len)
        allowed = ", ".join(options) if options is not None else "strings"
        out: list[str] = []
        for x in items:
            if not isinstance(x, str) or (options is not None and x not in options):
                raise self.err(field, f"value {short_repr(x)} is not allowed", allowed)
            if unique and x in out:
                raise self.err(field, f"value {x!r} is listed twice", "each value at most once")
            out.append(x)
        return tuple(out)

    def table_of(self, field: str, default: Any = REQUIRED, item: str | None = None) -> Fields:
        """A nested table as its own :class:`Fields` (field names prefixed with ``field.``)."""
        v = self.raw(field, default)
        return Fields(v, self.path, self.item if item is None else item, f"{self.prefix}{field}.", self.label,
                      self._line)

    def tables(self, field: str, default: Any = (), min_len: int = 0, max_len: int = 256) -> list[dict]:
        """A list of tables (``[[field]]`` or an array of inline tables)."""
        items = self.list(field, default, min_len, max_len)
        for i, x in enumerate(items):
            if not isinstance(x, dict):
                raise self.err(field, f"entry {i} ({short_repr(x)}) is not a table", "tables")
        return items
