"""Bounds on what a model file's pickle may make the loader compute, shared by the restricted unpickler
(:mod:`monolith_envs.agents.model_files`) and the ``torch.load(weights_only=True)`` loaders.

A few bytes of pickle can describe a tuple nested 60 deep whose two halves are the same object: it has 2**60
leaves, and hashing, comparing, sorting or converting it never ends (in C code that ignores signals).  So:

* every value a restricted pickle passes to a call or to a BUILD is walked first (:func:`walk`) with a
  per-load budget of visits (shared references counted each time) and a depth bound, before anything hashes,
  compares or converts it;
* a BUILD state must be a dict (or a ``(dict, dict)`` pair) of plain attribute names (:func:`check_build`),
  never a list of pairs, a dunder name (``__setstate__``), or a method of the object; a space's state is
  checked before its ``__setstate__`` allocates anything;
* before ``torch.load``, the checkpoint's ``data.pkl`` is scanned opcode by opcode (:func:`scan_torch_zip`),
  simulating only the nesting depth and size of the containers it builds, and refused when a container nests
  deeper than :data:`MAX_TORCH_DEPTH` or a dict key is more than a few values.
"""

from __future__ import annotations

import collections
import pickle
import pickletools
import types
import zipfile
from typing import Any, BinaryIO

import numpy as np

#: deepest container a restricted pickle may pass to a call or a BUILD
MAX_VALUE_DEPTH = 32
#: deepest container a torch checkpoint's data.pkl may build (state dicts are a few levels deep; metadata a
#: few more), most values of one dict key (keys are names), most opcodes and bytes of one data.pkl
MAX_TORCH_DEPTH = 32
MAX_TORCH_KEY = 64
MAX_TORCH_OPS = 2**24
MAX_TORCH_PICKLE = 2**26
#: most values of one observation or action space (a Box's elements, a Discrete's actions): the package's
#: largest game config (Arena duel with reinforcements) has 5348 observation values and 848 actions, so
#: 2**17 = 131072 leaves a margin of more than 20 times for other configs and registered games
#: (re-exported by :mod:`.model_files`)
MAX_SPACE_ELEMENTS = 2**17


class _NoData(ValueError):
    """A zip without the ``data.pkl`` of a torch checkpoint."""


class OverBound(pickle.UnpicklingError):
    """A pickle that only uses allowed classes but asks for more than the bounds allow (a size refusal)."""


def brief(value: Any, limit: int = 80) -> str:
    """A short text of an untrusted value for a message: at most ``limit`` characters, computed in bounded time
    (containers show a few items and their length; huge ints their size; other objects their type)."""
    def show(v: Any, depth: int) -> str:
        if v is None or type(v) in (bool, float):
            return repr(v)
        if type(v) is int:
            return repr(v) if v.bit_length() <= 64 else f"<int of {v.bit_length()} bits>"
        if type(v) in (str, bytes):
            return repr(v[:limit])
        if type(v) in (list, tuple, dict) or isinstance(v, (dict, collections.deque)):
            if depth >= 2:
                return f"<{type(v).__name__} of {len(v)}>"
            items = list(v.items())[:4] if isinstance(v, dict) else list(v)[:4]
            text = ", ".join(f"{show(k, depth + 1)}: {show(x, depth + 1)}" if isinstance(v, dict) else show(k, depth + 1)
                             for k, x in (items if isinstance(v, dict) else [(i, None) for i in items]))
            more = ", ..." if len(v) > 4 else "," if type(v) is tuple and len(v) == 1 else ""
            o, c = ("{", "}") if isinstance(v, dict) else ("(", ")") if type(v) is tuple else ("[", "]")
            return f"{o}{text}{more}{c}"
        if isinstance(v, (type, types.FunctionType, types.BuiltinFunctionType)):
            return f"{getattr(v, '__module__', '?')}.{getattr(v, '__qualname__', '?')}"
        return repr(v)[:limit] if isinstance(v, (np.generic, np.dtype)) else f"<{type(v).__name__}>"
    text = show(value, 0)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _int(v: Any, lo: int, hi: int, what: str) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not lo <= int(v) <= hi:
        raise OverBound(f"{what} must be an integer from {lo} to {hi}, got {brief(v)}")
    return int(v)


def _shape(v: Any, what: str, hi: int = MAX_SPACE_ELEMENTS) -> tuple[int, ...]:
    """A shape of at most 32 dimensions and ``hi`` elements (multiplied one size at a time, stopping past ``hi``:
    32 huge sizes are never multiplied together)."""
    if not (isinstance(v, (tuple, list)) and len(v) <= 32 and all(
            isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and x >= 0 for x in v)):
        raise OverBound(f"{what} must be a tuple of at most 32 sizes >= 0, got {brief(v)}")
    shape, n = tuple(int(x) for x in v), 1
    if 0 in shape:
        return shape
    for x in shape:
        n *= x
        if n > hi:
            raise OverBound(f"{what} {brief(shape)} has {brief(n) if x == shape[-1] else 'more'} elements, more than "
                            f"the {hi} allowed")
    return shape


def _dtype(v: Any, what: str = "dtype") -> np.dtype:
    """A plain numeric dtype (bool, integer, float, complex; no objects, strings or records)."""
    if not (isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic))
            or (type(v) in (str, bytes) and len(v) <= 16)):
        raise OverBound(f"{what} must be a numeric dtype, got {brief(v)}")
    try:
        dt = np.dtype(v.decode("latin1") if type(v) is bytes else v)
    except (TypeError, ValueError) as e:
        raise OverBound(f"{what} {brief(v)} is not a dtype ({e})") from None
    if dt.kind not in "biufc" or dt.fields is not None or dt.subdtype is not None or dt.itemsize > 16:
        raise OverBound(f"{what} must be a numeric dtype (bool, int, float), got {brief(dt)}")
    return dt


_LEAVES = (type(None), bool, int, float, complex, str, bytes, bytearray)


def walk(value: Any, budget: Any, what: str, max_depth: int | None = None) -> None:
    """Visit ``value``'s containers and objects without hashing or comparing anything; refuse more than
    ``budget.visits`` visits in all (shared references counted each time; the budget is spent) or a nesting
    deeper than ``max_depth`` (default :data:`MAX_VALUE_DEPTH`).

    Raises:
        OverBound: either bound is passed.
    """
    limit = MAX_VALUE_DEPTH if max_depth is None else max_depth
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if type(v) in _LEAVES or isinstance(v, (np.ndarray, np.generic, np.dtype, type, types.ModuleType,
                                                 types.FunctionType, types.BuiltinFunctionType)):
            continue
        budget.visits -= 1
        if budget.visits < 0 or depth > limit:
            raise OverBound(f"{what}: the value nests deeper than {limit} or holds too many containers "
                            "(shared references counted each time)")
        if isinstance(v, dict):
            stack.extend((x, depth + 1) for kv in v.items() for x in kv)
        elif isinstance(v, (list, tuple, set, frozenset, collections.deque)):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(getattr(v, "__dict__", None), dict):
            stack.extend((x, depth + 1) for kv in vars(v).items() for x in kv)


def _flat_items(state: Any, n: int, what: str) -> None:
    if not (type(state) is tuple and len(state) <= n and all(
            type(x) in (type(None), bool, str, bytes) and (type(x) is not str or len(x) <= 64)
            or (type(x) is int and x.bit_length() <= 64) for x in state)):
        raise OverBound(f"{what} must be a short tuple of plain values, got {brief(state)}")


def _seed_sequence_state(state: Any) -> None:
    ok = type(state) is tuple and len(state) == 5
    if ok:
        entropy, children, pool, pool_size, key = state
        ok = ((entropy is None or (type(entropy) is int and entropy.bit_length() <= 1024)
               or (type(entropy) in (tuple, list) and len(entropy) <= 64
                   and all(type(x) is int and 0 <= x < 2**64 for x in entropy)))
              and type(children) is int and 0 <= children < 2**32 and type(pool_size) is int and 0 < pool_size <= 64
              and isinstance(pool, np.ndarray) and pool.dtype.kind == "u" and pool.size <= 64
              and type(key) is tuple and len(key) <= 32 and all(type(x) is int and 0 <= x < 2**64 for x in key))
    if not ok:
        raise OverBound(f"a SeedSequence's state must be (entropy, children, pool, pool_size, spawn_key), got {brief(state)}")


def _space_state(inst: Any, d: dict) -> None:
    """A space's state, checked before its ``__setstate__`` allocates from it."""
    if d.get("_shape") is not None:
        _shape(d["_shape"], f"the shape of a {type(inst).__name__} space", MAX_SPACE_ELEMENTS)
    if d.get("dtype") is not None:
        _dtype(d["dtype"], f"a {type(inst).__name__} space's dtype")
    if "n" in d and type(d["n"]) not in (tuple, list):
        _int(d["n"], 1, MAX_SPACE_ELEMENTS, f"a {type(inst).__name__} space's n")
    for k in ("low", "high", "nvec", "start"):
        v = d.get(k)
        if v is not None and not (isinstance(v, (np.generic, int, float))
                                  or (isinstance(v, np.ndarray) and v.size <= MAX_SPACE_ELEMENTS)):
            raise OverBound(f"a space's {k} must be a number or an array of at most {MAX_SPACE_ELEMENTS} values")


#: what a BUILD state value may not be: an allowed global itself (a function or class), which the built object
#: could call later outside the checked factories (a schedule's ``value_schedule``, say)
_GLOBAL_KINDS = (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType)


def check_build(inst: Any, state: Any, budget: Any) -> None:
    """Refuse a BUILD ``state`` for ``inst`` (not an array) unless it is a dict, or a ``(dict, dict)`` pair, of
    plain attribute names (no dunder name, no method of the object) whose values pass :func:`walk`; a numpy dtype,
    a SeedSequence and a bit generator get their own pickle forms; a space's state is checked before use."""
    import gymnasium as gym

    name = type(inst).__name__
    if isinstance(inst, np.dtype):
        return _flat_items(state, 9, "a dtype's state")
    if isinstance(inst, np.random.SeedSequence):
        return _seed_sequence_state(state)
    if isinstance(inst, np.random.BitGenerator) and type(state) is tuple and len(state) == 2 \
            and (state[1] is None or isinstance(state[1], np.random.SeedSequence)):
        state = state[0]
    dicts = state if type(state) is tuple and len(state) == 2 else (state,)
    if not all(d is None or type(d) is dict for d in dicts) or all(d is None for d in dicts):
        raise OverBound(f"the state of a {name} must be a dict of attributes, got {brief(state)}")
    for d in dicts:
        for k in d or ():
            if type(k) is not str or k.startswith("__") or k in ("extend", "append", "add") \
                    or callable(getattr(type(inst), k, None)):
                raise pickle.UnpicklingError(f"the pickle may not set {brief(k)} of a {name}")
            if isinstance(d[k], _GLOBAL_KINDS):  # a named function or class the object could call later
                raise pickle.UnpicklingError(f"the pickle may not set {brief(k)} of a {name} to {brief(d[k])}")
        walk(d, budget, f"the state of a {name}")
    if isinstance(inst, gym.spaces.Space):
        for d in dicts:
            _space_state(inst, d or {})


# --- torch checkpoints: data.pkl scanned before torch.load -----------------------------------------------------

#: callables that hash their arguments' items (a list of pairs): their arguments must be flat
_HASHING = {"collections OrderedDict", "collections Counter", "collections defaultdict", "builtins dict",
            "builtins set", "builtins frozenset", "__builtin__ dict", "__builtin__ set"}


def _grow(target: list, item: Any) -> None:
    if type(target) is list:  # a mutable container's record: shared through the memo
        target[0] = max(target[0], item[0] + 1)
        target[1] = min(target[1] + item[1], 2**40)


def _combine(items: list, kind: str) -> list:
    return [1 + max((i[0] for i in items), default=0), min(1 + sum(i[1] for i in items), 2**40), kind, None]


def _keys(keys: list) -> None:
    for k in keys:
        if k[1] > MAX_TORCH_KEY or k[0] > 2:
            raise OverBound(f"a dict key of {k[1]} values nested {k[0]} deep (keys are names)")


def scan_pickle(data: bytes) -> None:
    """Simulate ``data``'s opcodes (at most :data:`MAX_TORCH_OPS`) keeping only each value's nesting depth and
    size; refuse a container deeper than :data:`MAX_TORCH_DEPTH` or a dict key of more than
    :data:`MAX_TORCH_KEY` values.  Raises :class:`OverBound` or ``ValueError`` (not a pickle)."""
    stack: list[Any] = []
    marks: list[int] = []
    memo: dict[Any, Any] = {}

    def pop_mark() -> list:
        if not marks:
            raise ValueError("MARK missing")
        i = marks.pop()
        items = stack[i:]
        del stack[i:]
        return items

    def pop(n: int = 1) -> list:
        if len(stack) < n:
            raise ValueError("stack underflow")
        items = stack[len(stack) - n:]
        del stack[len(stack) - n:]
        return items

    for count, (op, arg, _pos) in enumerate(pickletools.genops(data)):
        if count > MAX_TORCH_OPS:
            raise OverBound(f"more than {MAX_TORCH_OPS} pickle opcodes")
        n = op.name
        if n == "STOP":
            return
        if n in ("PROTO", "FRAME", "READONLY_BUFFER"):
            continue
        if n == "MARK":
            marks.append(len(stack))
        elif n == "POP":
            pop()
        elif n == "POP_MARK":
            pop_mark()
        elif n == "DUP":
            stack.extend(pop() * 2)
        elif n in ("PUT", "BINPUT", "LONG_BINPUT", "MEMOIZE"):
            if not stack:
                raise ValueError("memo of an empty stack")
            memo[len(memo) if n == "MEMOIZE" else arg] = stack[-1]
        elif n in ("GET", "BINGET", "LONG_BINGET"):
            if arg not in memo:
                raise ValueError("memo key missing")
            stack.append(memo[arg])
        elif n in ("EMPTY_LIST", "EMPTY_DICT", "EMPTY_SET", "EMPTY_TUPLE"):
            stack.append([1, 1, "d" if n == "EMPTY_DICT" else "l", None])
        elif n in ("TUPLE", "LIST", "DICT", "FROZENSET"):
            items = pop_mark()
            if n in ("DICT", "FROZENSET"):
                _keys(items[0::2] if n == "DICT" else items)
            stack.append(_combine(items, "d" if n == "DICT" else "l"))
        elif n in ("TUPLE1", "TUPLE2", "TUPLE3"):
            stack.append(_combine(pop(int(n[-1])), "l"))
        elif n in ("APPEND", "SETITEM", "BUILD"):
            items = pop(2 if n == "SETITEM" else 1)
            if n == "SETITEM":
                _keys(items[:1])
            if not stack:
                raise ValueError("stack underflow")
            if n == "BUILD" and items[0][2] == "l" and items[0][0] > 2:  # a list of pairs: keys never checked
                raise OverBound("a BUILD state that is a nested list or tuple (pairs whose keys are hashed)")
            for it in items:
                _grow(stack[-1], it)
        elif n in ("APPENDS", "SETITEMS", "ADDITEMS"):
            items = pop_mark()
            _keys(items[0::2] if n == "SETITEMS" else items if n == "ADDITEMS" else [])
            if not stack:
                raise ValueError("stack underflow")
            for it in items:
                _grow(stack[-1], it)
        elif n in ("REDUCE", "NEWOBJ", "NEWOBJ_EX", "INST", "OBJ"):
            items = pop_mark() if n in ("INST", "OBJ") else pop(3 if n == "NEWOBJ_EX" else 2)
            if items and items[0][3] in _HASHING and max((i[0] for i in items[1:]), default=0) > 2:
                raise OverBound(f"{items[0][3]} called with nested arguments (pairs whose keys are hashed)")
            stack.append([max((i[0] for i in items), default=0), min(1 + sum(i[1] for i in items), 2**40), "o",
                          None])
        elif n in ("STACK_GLOBAL", "BINPERSID"):
            names = pop(2 if n == "STACK_GLOBAL" else 1)
            stack.append((0, 1, "o", f"{names[0][3]} {names[-1][3]}" if n == "STACK_GLOBAL" else None))
        elif not op.stack_before and len(op.stack_after) == 1:  # a number, a string, None, a global, an extension
            stack.append((0, 1, "o", arg if type(arg) is str else None))
        else:
            raise ValueError(f"unsupported opcode {n}")
        if stack and stack[-1][0] > MAX_TORCH_DEPTH:
            raise OverBound(f"containers nested more than {MAX_TORCH_DEPTH} deep")
    raise ValueError("no STOP")


def scan_torch_zip(file: BinaryIO) -> None:
    """Scan each ``data.pkl`` of a ``torch.save`` zip (``file``) with :func:`scan_pickle` before ``torch.load``.

    Raises:
        OverBound: a container nested too deep, a key too large, a data.pkl over :data:`MAX_TORCH_PICKLE` bytes,
            a compressed record (``torch.save`` writes none; ``torch.load`` would inflate it whole, a zip bomb).
        ValueError, zipfile.BadZipFile: not a torch zip (no data.pkl) or not a pickle (callers catch ``Exception``).
    """
    with zipfile.ZipFile(file) as z:
        packed = next((i for i in z.infolist() if i.compress_type != zipfile.ZIP_STORED), None)
        if packed is not None:  # torch.save stores every record; torch.load would inflate a packed one whole
            raise OverBound(f"record {packed.filename[:80]!r} is compressed (torch.save stores its records "
                            "uncompressed)")
        infos = [i for i in z.infolist() if i.filename == "data.pkl" or i.filename.endswith("/data.pkl")]
        if not infos:
            raise _NoData("no data.pkl in the zip")
        for info in infos:
            if info.file_size > MAX_TORCH_PICKLE:
                raise OverBound(f"data.pkl of {info.file_size} bytes, more than the {MAX_TORCH_PICKLE} allowed")
            with z.open(info) as f:
                scan_pickle(f.read(MAX_TORCH_PICKLE + 1))


def check_torch_file(file: BinaryIO) -> str | None:
    """``None`` when :func:`scan_torch_zip` accepts ``file``, else a short reason to put in the caller's error."""
    try:
        scan_torch_zip(file)
    except OverBound as e:
        return f"over a size bound: {str(e)[:200]}"
    except _NoData as e:
        return f"not a torch zip checkpoint ({e})"
    except Exception as e:  # noqa: BLE001  (a corrupt file is a refusal)
        return f"not a torch zip checkpoint ({type(e).__name__}: {str(e)[:150]})"
    return None
