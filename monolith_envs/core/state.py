"""Clone, equality and JSON (de)serialisation for plain-data game states (ARCHITECTURE §2).

A state is built from: ``None``, ``bool``, ``int``, ``float``, ``str``, ``IntEnum`` members, tuples,
lists, dicts with ``str``/``int`` keys, sets/frozensets, numpy arrays and numpy scalars, and dataclasses
registered with :func:`state_class`.  Everything else is rejected with a :class:`StateError` naming the
path of the offending value.

Transient fields: a state class may declare caches derived from its other fields with :func:`transient`
(after the ordinary fields).  They default to None; :func:`clone_state` gives the copy None,
:func:`states_equal` and :func:`to_dict` ignore them, :func:`from_dict` leaves them None, and
:func:`clear_transient` resets them all (call it after editing a state by hand).  Code reads and writes them
as ordinary attributes (never through ``state.__dict__``).
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from typing import Any

import numpy as np

from .game import MonolithEnvError

__all__ = ["StateError", "state_class", "transient", "transient_fields", "clear_transient", "clone_state",
           "states_equal", "to_dict", "from_dict"]


class StateError(MonolithEnvError, ValueError):
    """A state holds a value that is not plain data, or a serialised state is malformed."""


_CLASSES: dict[str, type] = {}
_FIELDS: dict[type, tuple[str, ...]] = {}  # the ordinary (persistent) fields of each state class
_TRANSIENT: dict[type, tuple[str, ...]] = {}
_TRANSIENT_KEY = "monolith_envs.transient"
_IMMUTABLE = (type(None), bool, int, float, str, np.integer, np.floating, np.bool_)
_JSON_SCALARS = frozenset((type(None), bool, int, str))  # encode as themselves (floats need a NaN check)


def _qualname(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def transient() -> Any:
    """A dataclass field for a cache derived from the other fields of a state (default None).

    Example::

        @state_class
        @dataclass
        class MyState:
            board: list
            mask_cache: Any = transient()
    """
    return dataclasses.field(default=None, compare=False, repr=False, metadata={_TRANSIENT_KEY: True})


def state_class(cls: type) -> type:
    """Class decorator: register a dataclass as a state node so it can be cloned and serialised.

    Raises:
        TypeError: ``cls`` is not a dataclass, or declares a :func:`transient` field before an ordinary one.
    """
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} must be a dataclass to be a state class")
    fields = dataclasses.fields(cls)
    flags = [bool(f.metadata.get(_TRANSIENT_KEY)) for f in fields]
    if any(a and not b for a, b in zip(flags, flags[1:])):
        raise TypeError(f"{cls.__name__}: declare the transient fields after the ordinary ones")
    _CLASSES[_qualname(cls)] = cls
    _FIELDS[cls] = tuple(f.name for f, tr in zip(fields, flags) if not tr)
    _TRANSIENT[cls] = tuple(f.name for f, tr in zip(fields, flags) if tr)
    return cls


def transient_fields(cls: type) -> tuple[str, ...]:
    """Names of the :func:`transient` fields of a registered state class (empty for other types)."""
    return _TRANSIENT.get(cls, ())


def clear_transient(state: Any) -> None:
    """Reset every :func:`transient` field of ``state`` (a registered state class instance) to None."""
    for name in _TRANSIENT.get(type(state), ()):
        setattr(state, name, None)


def _enum_ok(cls: type) -> type:
    _CLASSES[_qualname(cls)] = cls
    return cls


def clone_state(obj: Any) -> Any:
    """Deep, exact copy of a plain-data state (numpy arrays copied, immutables shared).

    Raises:
        StateError: a value that is not plain data (a type the copy does not know).
    """
    if isinstance(obj, _IMMUTABLE) or isinstance(obj, enum.Enum):
        return obj
    if isinstance(obj, np.ndarray):
        return obj.copy()
    t = type(obj)
    fields = _FIELDS.get(t)
    if fields is not None:
        new = object.__new__(t)
        for name in fields:
            v = getattr(obj, name)
            if not (isinstance(v, _IMMUTABLE) or isinstance(v, enum.Enum)):
                v = clone_state(v)
            object.__setattr__(new, name, v)
        for name in _TRANSIENT[t]:
            object.__setattr__(new, name, None)
        return new
    if t is list:
        return [v if isinstance(v, _IMMUTABLE) else clone_state(v) for v in obj]
    if t is tuple:
        return tuple(v if isinstance(v, _IMMUTABLE) else clone_state(v) for v in obj)
    if t is dict:
        return {k: (v if isinstance(v, _IMMUTABLE) else clone_state(v)) for k, v in obj.items()}
    if t in (set, frozenset):
        return t(obj)
    plain = "numbers, strings, enums, lists, tuples, dicts, sets, numpy arrays, @state_class objects"
    if dataclasses.is_dataclass(obj):
        raise StateError(f"cannot clone a {t.__name__}: a state class needs the @state_class decorator "
                         f"(monolith_envs.core.state), which lists its fields for clone and JSON; its fields hold "
                         f"plain data only ({plain})")
    raise StateError(f"cannot clone a {t.__name__}: states hold plain data only ({plain})")


def states_equal(a: Any, b: Any) -> bool:
    """Exact structural equality (arrays compared by dtype, shape and values)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return (a.dtype == b.dtype and a.shape == b.shape
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))  # NaN == NaN, as for floats below
    fields = _FIELDS.get(type(a))
    if fields is not None:
        return all(states_equal(getattr(a, f), getattr(b, f)) for f in fields)
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return False
        try:
            eq = a == b  # fast path: lists of scalars / nested lists compare natively
        except ValueError:  # arrays inside: compare element by element
            eq = None
        if eq is True:
            return True  # else compared element by element: a NaN in each list (a JSON round-trip makes new ones)
        return all(states_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(states_equal(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # NaN == NaN for state purposes
    return bool(a == b)


def to_dict(obj: Any, _path: str = "state") -> Any:
    """JSON-safe encoding of a plain-data state (tagged dicts for arrays, tuples, sets, enums, dataclasses).

    Raises:
        StateError: a value that is not plain data, with its path (e.g. ``state.tiles[3]``).
    """
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, enum.Enum):
        _enum_ok(type(obj))
        return {"__enum__": _qualname(type(obj)), "value": obj.value}
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, np.bool_):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        if v != v or v in (float("inf"), float("-inf")):
            return {"__float__": repr(v)}
        return v
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind not in "biuf":
            raise StateError(f"{_path}: array dtype {obj.dtype} is not plain data")
        return {"__ndarray__": obj.dtype.str, "shape": list(obj.shape), "data": obj.ravel().tolist()}
    t = type(obj)
    fields = _FIELDS.get(t)
    if fields is not None:
        return {"__state__": _qualname(t), **{f: to_dict(getattr(obj, f), f"{_path}.{f}") for f in fields}}
    if t is list:
        if all(type(v) in _JSON_SCALARS for v in obj):
            return list(obj)
        return [to_dict(v, f"{_path}[{i}]") for i, v in enumerate(obj)]
    if t is tuple:
        if all(type(v) in _JSON_SCALARS for v in obj):
            return {"__tuple__": list(obj)}
        return {"__tuple__": [to_dict(v, f"{_path}[{i}]") for i, v in enumerate(obj)]}
    if t in (set, frozenset):
        items = sorted(obj, key=repr)
        return {"__set__": [to_dict(v, f"{_path}{{}}") for v in items], "frozen": t is frozenset}
    if t is dict:
        if all(isinstance(k, str) for k in obj):
            if any(k.startswith("__") for k in obj):
                return {"__dict__": [[k, to_dict(v, f"{_path}[{k!r}]")] for k, v in obj.items()]}
            return {k: to_dict(v, f"{_path}[{k!r}]") for k, v in obj.items()}
        return {"__dict__": [[to_dict(k, _path), to_dict(v, f"{_path}[{k!r}]")] for k, v in obj.items()]}
    raise StateError(f"{_path}: a {t.__name__} is not plain data (register dataclasses with @state_class)")


def _loaded_enum(name: str) -> type | None:
    """The ``enum.Enum`` class a ``module:Qual.Name`` tag names, from a module of this package (or the test
    suite's games) that is already imported, registered for the next look-up; else None. Nothing is
    imported: game enums are registered when :func:`to_dict` meets them, so a fresh process that only reads
    a state finds them here, in its game's loaded modules."""
    mod, _, qual = name.partition(":")
    module = sys.modules.get(mod)
    if module is None or not (mod.startswith("monolith_envs.") or mod.startswith("tests.")) or not qual:
        return None
    obj: Any = module
    for part in qual.split("."):
        obj = vars(obj).get(part) if isinstance(obj, type) or obj is module else None  # no __getattr__ hooks
        if obj is None:
            return None
    if isinstance(obj, type) and issubclass(obj, enum.Enum):
        return _enum_ok(obj)
    return None


def _lookup(name: Any, path: str, kind: str) -> type:
    """The class a ``__state__`` (``kind="state"``: a registered state class) or ``__enum__`` (``kind="enum"``:
    an ``enum.Enum``) tag names, among the classes of the loaded games only."""
    if type(name) is not str:
        raise StateError(f"{path}: a class tag must be a string like 'module:Class', not {type(name).__name__} "
                         f"{str(name)[:40]}")
    # a tag never makes the loader import a module, so a state file cannot name code to run
    cls = _CLASSES.get(name)
    if cls is None and kind == "enum":
        cls = _loaded_enum(name)
    ok = cls is not None and (cls in _FIELDS if kind == "state" else issubclass(cls, enum.Enum))
    if not ok:
        what = ("state class", "a state class") if kind == "state" else ("state enum", "an enum")
        raise StateError(f"{path}: unknown {what[0]} {name!r}: a '__{kind}__' tag names {what[1]} of a loaded "
                         "game's module, as to_dict writes it (e.g. 'monolith_envs.strategy.state:Kind'); a state "
                         "is read by its game")
    return cls


def from_dict(data: Any, _path: str = "state") -> Any:
    """Inverse of :func:`to_dict`.

    Raises:
        StateError: malformed input, naming the path and what was expected (an array of a dtype that is not
            boolean, integer or float, as :func:`to_dict` writes; nesting too deep for the decoder).
    """
    try:
        return _from_dict(data, _path)
    except RecursionError:
        raise StateError(f"{_path}: nested too deeply for a serialised state") from None


def _from_dict(data: Any, _path: str) -> Any:
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [_from_dict(v, f"{_path}[{i}]") for i, v in enumerate(data)]
    if not isinstance(data, dict):
        raise StateError(f"{_path}: unexpected {type(data).__name__} in a serialised state")
    try:
        if "__ndarray__" in data:
            dtype = np.dtype(data["__ndarray__"])
            if dtype.kind not in "biuf":
                raise StateError(f"{_path}: array dtype {dtype} is not plain data (booleans, integers, floats)")
            arr = np.asarray(data["data"], dtype=dtype)
            return arr.reshape(data["shape"])
        if "__state__" in data:
            cls = _lookup(data["__state__"], _path, "state")
            kwargs = {f: _from_dict(data[f], f"{_path}.{f}") for f in _FIELDS[cls]}
            return cls(**kwargs)
        if "__enum__" in data:
            return _lookup(data["__enum__"], _path, "enum")(data["value"])
        if "__tuple__" in data:
            return tuple(_from_dict(v, f"{_path}[{i}]") for i, v in enumerate(data["__tuple__"]))
        if "__set__" in data:
            items = [_from_dict(v, f"{_path}{{}}") for v in data["__set__"]]
            return frozenset(items) if data.get("frozen") else set(items)
        if "__float__" in data:
            return float(data["__float__"])
        if "__dict__" in data:
            return {_from_dict(k, _path): _from_dict(v, f"{_path}[{k!r}]") for k, v in data["__dict__"]}
    except StateError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise StateError(f"{_path}: malformed serialised value ({exc.__class__.__name__}: {exc})") from None
    return {k: _from_dict(v, f"{_path}[{k!r}]") for k, v in data.items()}

