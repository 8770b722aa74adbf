"""What every model-file loader of :mod:`monolith_envs.agents` shares: the trust switch, the errors, bounded reads, and a
restricted unpickler.

**Model files are untrusted by default.**  Unpickling can run any code a file names, so the loaders of
``ppo:PATH`` (:mod:`monolith_envs.agents.ppo`) and ``rllib:PATH`` (:mod:`monolith_envs.agents.rllib_agent`) decode pickles with
:class:`RestrictedUnpickler`, which only builds the classes of an explicit allow list, and refuse a file that
needs anything else with a :class:`ModelTrustError`.  ``trusted=True`` (command lines:
``--trust-model-files``; environment: ``MONOLITH_ENVS_TRUST_MODELS=1``, which spawned worker processes
inherit) lets the libraries load a file their own way, only for files you made or trust.

**Sizes are bounded before anything is allocated.**  An allowed class may be *named* by a pickle (a policy
class, an activation), but only a few can be *called* while unpickling, each through a checked factory
(:data:`CHECKED_CALLS`) that refuses arguments over the bounds before building anything: a space of more than
:data:`MAX_SPACE_ELEMENTS` values, an array not backed by the pickle's own bytes, a non-numeric dtype.  The
pickle cannot change a class or replace a method, and one load builds at most :data:`MAX_LOAD_ELEMENTS`
values and :data:`MAX_LOAD_NODES` containers and objects (shared references counted each time they are
reached), so a small file never expands into a large one.  A BUILD state is a dict of plain attribute names
whose values are walked with a depth bound before anything hashes them (:mod:`.pickle_limits`).

Every file is read only if it is a regular file under a size cap (:func:`read_capped`): a FIFO, a device or a
huge file is refused before anything is read.
"""

from __future__ import annotations

import collections
import io
import math
import os
import pickle
import stat
import types
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Mapping

import numpy as np

from .base import AgentError
from .model_kinds import mlp_params, model_kind_hint  # noqa: F401 (re-exported: their former home)
from .pickle_limits import MAX_SPACE_ELEMENTS, _dtype, _int, _shape, brief, check_build, walk
from .pickle_limits import OverBound as _OverBound

__all__ = ["CHECKED_CALLS", "MAX_LOAD_ELEMENTS", "MAX_LOAD_NODES", "MAX_PARAMS", "MAX_SPACE_ELEMENTS", "ModelFileError",
           "ModelTrustError", "NUMPY_GLOBALS", "RestrictedUnpickler", "TRUST_ENV_VAR", "TRUST_HINT", "brief",
           "add_trust_argument", "check_finite", "mlp_params", "model_kind_hint", "open_regular", "read_capped",
           "restricted_loads", "short_error", "CorruptModelError", "check_whole_pickle",
           "trust_models_from_args", "trust_models_from_env"]

#: environment variable that marks every model file as trusted (``1``); set by ``--trust-model-files``
TRUST_ENV_VAR = "MONOLITH_ENVS_TRUST_MODELS"
#: what an error says about trusting a file
TRUST_HINT = f"if you made this file or trust it, pass --trust-model-files (or set {TRUST_ENV_VAR}=1)"
#: most weights (parameters) a loaded network may have: 2**27 floats, 512 MiB in float32
MAX_PARAMS = 2**27
#: most values one restricted load may allocate through its checked factories (spaces, small arrays), and most
#: containers and objects its result may hold (shared references counted each time)
MAX_LOAD_ELEMENTS = 2**22
MAX_LOAD_NODES = 2**18
_MAX_DEPTH = 64

#: numpy arrays, dtypes and scalars, and a space's seeded generator (``space.np_random``)
NUMPY_GLOBALS: frozenset[tuple[str, str]] = frozenset(
    {("numpy", "dtype"), ("numpy", "ndarray"), ("numpy", "float32"), ("numpy", "float64"), ("numpy", "int64"),
     ("numpy", "int8"), ("numpy", "bool_"),
     ("numpy.random._pickle", "__generator_ctor"), ("numpy.random._pickle", "__bit_generator_ctor"),
     ("numpy.random._pickle", "__randomstate_ctor"), ("numpy.random._pcg64", "PCG64"),
     ("numpy.random._generator", "Generator"), ("numpy.random._mt19937", "MT19937"),
     ("numpy.random.bit_generator", "SeedSequence"), ("numpy.random.bit_generator", "__pyx_unpickle_SeedSequence")}
    | {(f"{m}.numeric", "_frombuffer") for m in ("numpy._core", "numpy.core")}
    | {(f"{m}.multiarray", n) for m in ("numpy._core", "numpy.core") for n in ("scalar", "_reconstruct")})


class ModelFileError(AgentError):
    """A model file that cannot be loaded: missing parts, corrupt, over a size bound (names the file and why)."""


class ModelTrustError(ModelFileError):
    """A model file that cannot be loaded without running code from it (names the file and the entry)."""


class CorruptModelError(ModelFileError):
    """A pickle in a model file that is cut short or damaged (it cannot be parsed at all, so trusting the file
    would not help); names the file and the entry."""


def check_whole_pickle(data: bytes, what: str, hint: str = "") -> None:
    """Parse ``data``'s opcodes without running any (``pickletools``): a truncated or damaged pickle is a
    :class:`CorruptModelError` saying so, before an unpickler would report it as needing trust.

    Raises:
        CorruptModelError: ``data`` is not one whole pickle (``hint`` is added to the message).
    """
    import pickletools

    try:
        for _ in pickletools.genops(data):
            pass
    except Exception as e:  # noqa: BLE001  (ValueError "pickle exhausted", an unknown opcode, a bad length, ...)
        raise CorruptModelError(f"{what}: the file is corrupt or truncated, not a readable pickle "
                                f"({short_error(e, 160)}){hint}") from None


def trust_models_from_env() -> bool:
    """True when the environment marks model files as trusted (``MONOLITH_ENVS_TRUST_MODELS=1``)."""
    return os.environ.get(TRUST_ENV_VAR, "") == "1"


def add_trust_argument(ap: Any) -> None:
    """Add ``--trust-model-files`` to the ``argparse`` parser ``ap`` of a command that loads model files
    (:data:`TRUST_HINT` names it); :func:`trust_models_from_args` applies it."""
    ap.add_argument("--trust-model-files", action="store_true",
                    help="let ppo:PATH model files and rllib:CHECKPOINT folders run the code they name when "
                         "loaded (only for files you trust; by default a model is loaded without running code "
                         f"from it, or refused); the same as {TRUST_ENV_VAR}=1")


def trust_models_from_args(args: Any) -> None:
    """Set :data:`TRUST_ENV_VAR` to ``1`` when ``args.trust_model_files`` (:func:`add_trust_argument`), so
    this process's loaders and the worker processes it spawns trust model files."""
    if getattr(args, "trust_model_files", False):
        os.environ[TRUST_ENV_VAR] = "1"


def short_error(e: BaseException, limit: int = 160) -> str:
    """``"Type: message"`` of an exception on one short line: the first line of its text (for torch's long
    "Weights only load failed" text, the reason after "WeightsUnpickler error:"), cut to ``limit`` characters."""
    text = str(e)
    if "Weights only load failed" in text:  # torch's advice paragraphs around the one that says what was refused
        paras = [p.strip() for p in text.split("\n\n") if p.strip()][1:]
        paras = [p for p in paras if not p.startswith(("Check the documentation", "Please file an issue"))]
        text = paras[0] if paras else "the file needs more than plain tensors"
    if "WeightsUnpickler error:" in text:
        text = text.split("WeightsUnpickler error:", 1)[1]
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    text = lines[0] if lines else ""
    if len(lines) > 1 and text.endswith(":"):  # "Error(s) in loading state_dict for X:" + the first detail
        text = f"{text} {lines[1]}"
    text = f"{type(e).__name__}: {text}" if text else type(e).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_finite(weights: Mapping[str, Any], what: str) -> None:
    """Refuse weights (torch tensors or numpy arrays, by name) with a NaN or an infinite value.

    Raises:
        ModelFileError: ``"{what}: weight 'NAME' has values that are not finite"``.
    """
    for name, t in weights.items():
        if hasattr(t, "is_floating_point") and hasattr(t, "isfinite"):  # a torch tensor
            bad = t.is_floating_point() and not bool(t.isfinite().all())
        else:
            a = np.asarray(t)
            bad = a.dtype.kind in "fc" and not bool(np.isfinite(a).all())
        if bad:
            raise ModelFileError(f"{what}: weight {brief(name, 100)} has values that are not finite (NaN or inf)")


# --- checked factories: the only calls a restricted pickle can make ------------------------------------------

def _small_array(v: Any, what: str) -> Any:
    """A scalar, or an already built array of at most :data:`MAX_SPACE_ELEMENTS` values (never a list to
    convert: nested lists can share references and expand to any size)."""
    if v is None or type(v) in (int, float, bool) or isinstance(v, np.generic):
        return v
    if isinstance(v, np.ndarray) and v.dtype.kind in "biuf" and v.size <= MAX_SPACE_ELEMENTS:
        return v
    raise _OverBound(f"{what} must be a number or a numeric array of at most {MAX_SPACE_ELEMENTS} values, got {brief(v)}")


def _seed(v: Any) -> Any:
    if v is None or (type(v) is int and v.bit_length() <= 256) or isinstance(v, np.random.Generator):
        return v
    raise _OverBound(f"a space's seed must be None or an integer, got {brief(v)}")


def _box(u: RestrictedUnpickler, real: Callable, low: Any, high: Any, shape: Any = None, dtype: Any = np.float32,
         seed: Any = None) -> Any:
    low, high = _small_array(low, "Box low"), _small_array(high, "Box high")
    n = math.prod(_shape(shape, "Box shape")) if shape is not None else max(np.size(low), np.size(high))
    u.charge(4 * n, "Box")
    return real(low, high, None if shape is None else tuple(shape), _dtype(dtype, "Box dtype"), _seed(seed))


def _discrete(u: RestrictedUnpickler, real: Callable, n: Any, seed: Any = None, start: Any = 0) -> Any:
    return real(_int(n, 1, MAX_SPACE_ELEMENTS, "Discrete n"), _seed(seed), _int(start, -2**62, 2**62, "Discrete start"))


def _multi_discrete(u: RestrictedUnpickler, real: Callable, nvec: Any, dtype: Any = np.int64, seed: Any = None,
                    start: Any = None) -> Any:
    nvec = _small_array(nvec, "MultiDiscrete nvec") if not isinstance(nvec, (list, tuple)) else \
        [_int(x, 1, 2**62, "MultiDiscrete nvec") for x in _flat(nvec, "MultiDiscrete nvec")]
    start = None if start is None else _small_array(start, "MultiDiscrete start")
    u.charge(4 * int(np.size(nvec)), "MultiDiscrete")
    return real(nvec, _dtype(dtype, "MultiDiscrete dtype"), _seed(seed), start)


def _multi_binary(u: RestrictedUnpickler, real: Callable, n: Any, seed: Any = None) -> Any:
    shape = (_int(n, 1, MAX_SPACE_ELEMENTS, "MultiBinary n"),) if not isinstance(n, (list, tuple)) else \
        _shape(n, "MultiBinary n")
    u.charge(math.prod(shape), "MultiBinary")
    return real(shape if isinstance(n, (list, tuple)) else shape[0], _seed(seed))


def _dict_space(u: RestrictedUnpickler, real: Callable, spaces: Any = None, seed: Any = None) -> Any:
    import gymnasium as gym

    items = list(spaces.items()) if isinstance(spaces, dict) else list(_flat(spaces or [], "Dict spaces", 1024))
    if len(items) > 1024 or not all(isinstance(p, tuple) and len(p) == 2 and type(p[0]) is str
                                    and isinstance(p[1], gym.spaces.Space) for p in items):
        raise _OverBound("Dict spaces must be at most 1024 (name, space) pairs")
    u.charge(len(items), "Dict")
    return real(collections.OrderedDict(items), _seed(seed))


def _flat(v: Any, what: str, hi: int = MAX_SPACE_ELEMENTS) -> list:
    if not isinstance(v, (list, tuple)) or len(v) > hi:
        raise _OverBound(f"{what} must be a list of at most {hi} items, got {brief(v)}")
    return list(v)


def _ordered_dict(u: RestrictedUnpickler, real: Callable, items: Any = ()) -> Any:
    pairs = list(items.items()) if isinstance(items, dict) else _flat(items, "OrderedDict items", 2**20)
    if not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
        raise _OverBound("OrderedDict items must be (key, value) pairs")
    _check_keys(p[0] for p in pairs)
    u.charge(len(pairs), "OrderedDict")
    return real(pairs)


def _deque(u: RestrictedUnpickler, real: Callable, items: Any = (), maxlen: Any = None) -> Any:
    items = _flat(items, "deque items", 2**20)
    u.charge(len(items), "deque")
    return real(items, None if maxlen is None else _int(maxlen, 0, 2**31, "deque maxlen"))


def _np_dtype(u: RestrictedUnpickler, real: Callable, obj: Any, align: Any = False, copy: Any = False) -> Any:
    _dtype(obj)
    return real(obj, bool(align), bool(copy))


def _scalar(u: RestrictedUnpickler, real: Callable, dtype: Any, data: Any = None) -> Any:
    dt = _dtype(dtype, "scalar dtype")
    if type(data) is not bytes or len(data) != dt.itemsize:
        raise _OverBound(f"a numpy scalar needs {dt.itemsize} bytes of data")
    return real(dt, data)


def _reconstruct(u: RestrictedUnpickler, real: Callable, subtype: Any, shape: Any, dtype: Any) -> Any:
    if subtype is not np.ndarray:
        raise _OverBound(f"only numpy.ndarray can be reconstructed, got {brief(subtype)}")
    shape = _shape(shape, "an array's start shape", 1024)
    u.charge(math.prod(shape), "array")
    return real(np.ndarray, shape, _dtype(dtype))


def _frombuffer(u: RestrictedUnpickler, real: Callable, buf: Any, dtype: Any, shape: Any, order: Any = "C",
                axis_order: Any = None) -> Any:
    dt = _dtype(dtype)
    shape = _shape(shape, "an array's shape", MAX_PARAMS)
    if type(buf) not in (bytes, bytearray) or len(buf) != math.prod(shape) * dt.itemsize or order not in ("C", "F"):
        raise _OverBound("an array's data must be bytes that fit its shape and dtype")
    if axis_order is not None and (not all(type(x) is int for x in _flat(axis_order, "axis_order", 32))
                                   or sorted(axis_order) != list(range(len(shape)))):
        raise _OverBound("an array's axis order must be a permutation of its axes")
    u.charge_bytes(len(buf))
    return real(buf, dt, shape, order) if axis_order is None else real(buf, dt, shape, order, tuple(axis_order))


_BIT_GENERATORS = ("MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64")


def _bit_generator_ctor(u: RestrictedUnpickler, real: Callable, name: Any = "MT19937") -> Any:
    if not ((type(name) is str and name in _BIT_GENERATORS)
            or (isinstance(name, type) and issubclass(name, np.random.BitGenerator))):
        raise _OverBound(f"unknown bit generator {brief(name)}")
    return real(name)


def _generator_ctor(u: RestrictedUnpickler, real: Callable, name: Any = "MT19937", ctor: Any = None) -> Any:
    if isinstance(name, np.random.BitGenerator) and ctor is None:
        return real(name)
    from numpy.random import _pickle as rp

    if not (type(name) is str and name in _BIT_GENERATORS and ctor in (None, rp.__bit_generator_ctor)):
        raise _OverBound("a random generator must be made from a bit generator or its name")
    return real(name) if ctor is None else real(name, ctor)


def _unpickle_seed_sequence(u: RestrictedUnpickler, real: Callable, cls: Any, checksum: Any, state: Any = None) -> Any:
    if cls is not np.random.SeedSequence or type(checksum) is not int or state is not None:
        raise _OverBound("a SeedSequence must be rebuilt by its own pickle form")
    return real(cls, checksum, None)


#: ``(module, name)`` -> checked factory ``f(unpickler, real_callable, *args, **kwargs)``: the only globals a
#: restricted pickle may call (every other allowed global may only be named)
CHECKED_CALLS: dict[tuple[str, str], Callable[..., Any]] = {
    ("gymnasium.spaces.box", "Box"): _box, ("gymnasium.spaces.discrete", "Discrete"): _discrete,
    ("gymnasium.spaces.multi_discrete", "MultiDiscrete"): _multi_discrete,
    ("gymnasium.spaces.multi_binary", "MultiBinary"): _multi_binary, ("gymnasium.spaces.dict", "Dict"): _dict_space,
    ("collections", "OrderedDict"): _ordered_dict, ("collections", "deque"): _deque, ("numpy", "dtype"): _np_dtype,
    ("numpy.random._pickle", "__bit_generator_ctor"): _bit_generator_ctor,
    ("numpy.random._pickle", "__generator_ctor"): _generator_ctor,
    ("numpy.random._pickle", "__randomstate_ctor"): _generator_ctor,
    ("numpy.random.bit_generator", "__pyx_unpickle_SeedSequence"): _unpickle_seed_sequence,
    **{(f"{m}.multiarray", "scalar"): _scalar for m in ("numpy._core", "numpy.core")},
    **{(f"{m}.multiarray", "_reconstruct"): _reconstruct for m in ("numpy._core", "numpy.core")},
    **{(f"{m}.numeric", "_frombuffer"): _frombuffer for m in ("numpy._core", "numpy.core")},
}
_FLAT_KEYS = (str, bytes, int, float, bool, type(None))
#: the only classes a pickle may create without arguments (their state then comes by a checked BUILD)
_BARE = frozenset({"Box", "Discrete", "MultiDiscrete", "MultiBinary", "Dict", "FloatSchedule", "ConstantSchedule",
                   "LinearSchedule"})


def _check_keys(keys: Iterable[Any]) -> None:
    """Dict and set keys must be plain values (a tuple key of shared tuples would take exponential time to hash)."""
    for k in keys:
        if not (type(k) in _FLAT_KEYS or (type(k) is tuple and len(k) <= 16 and all(type(x) in _FLAT_KEYS for x in k))):
            raise _OverBound(f"a dict or set key must be a plain value, got {brief(k)}")


def _check_built(inst: Any) -> None:
    """After BUILD: a numpy dtype stays numeric; a space stays within :data:`MAX_SPACE_ELEMENTS` values."""
    if isinstance(inst, np.dtype):
        _dtype(inst)
        return
    import gymnasium as gym

    if isinstance(inst, gym.spaces.Space):
        shape = inst.__dict__.get("_shape")
        if shape is not None:
            _shape(shape, f"the shape of a {type(inst).__name__} space")
        n = inst.__dict__.get("n")
        if isinstance(inst, gym.spaces.Discrete):
            _int(n, 1, MAX_SPACE_ELEMENTS, "Discrete n")
        for k in ("low", "high", "nvec", "start"):
            v = inst.__dict__.get(k)
            if isinstance(v, np.ndarray) and v.size > MAX_SPACE_ELEMENTS:
                raise _OverBound(f"a space's {k} has {v.size} values, more than the {MAX_SPACE_ELEMENTS} allowed")
        sub = inst.__dict__.get("spaces")
        if sub is not None and (not hasattr(sub, "__len__") or len(sub) > 1024):
            raise _OverBound("a Dict or Tuple space holds at most 1024 spaces")


class RestrictedUnpickler(pickle._Unpickler):
    """A pickle reader that builds only the ``(module, name)`` pairs of ``allowed``; nothing else is imported.

    Pure Python (its memo is a dict, so no opcode makes it allocate by an index).  Calls go only to
    :data:`CHECKED_CALLS`; the other allowed globals may be named (a class stored as a value) but not called,
    created with arguments, given a state or have their methods replaced.  ``renamed`` maps a former
    ``(module, name)`` to the allowed pair it is read as (the former module is never imported).

    Raises (from ``load``):
        pickle.UnpicklingError: the pickle names a class or function outside ``allowed``, calls a global that
            is not a checked factory, or asks for more than the bounds (see the module docstring).
    """

    dispatch = dict(pickle._Unpickler.dispatch)

    def __init__(self, file: Any, allowed: Iterable[tuple[str, str]],
                 renamed: Mapping[tuple[str, str], tuple[str, str]] | None = None, max_bytes: int = 2**20):
        super().__init__(file)
        self.allowed = frozenset(allowed)
        self.renamed = dict(renamed or {})
        self._named: dict[int, tuple[str, str]] = {}
        self._elements = MAX_LOAD_ELEMENTS
        self.visits = 4 * MAX_LOAD_NODES  # containers walked (pickle_limits.walk) before calls and BUILDs
        self._bytes = max_bytes

    def charge(self, n: int, what: str) -> None:
        """Count ``n`` values allocated by a factory; refuse past :data:`MAX_LOAD_ELEMENTS` in one load."""
        self._elements -= int(n)
        if self._elements < 0:
            raise _OverBound(f"{what}: the pickle would build more than {MAX_LOAD_ELEMENTS} values")

    def charge_bytes(self, n: int) -> None:
        """Count array bytes copied from the pickle; more than the pickle's own size means shared data copied."""
        self._bytes -= int(n)
        if self._bytes < 0:
            raise _OverBound("the pickle's arrays hold more bytes than the file (the same data copied many times)")

    def find_class(self, module: str, name: str) -> Any:
        """The class ``module.name`` if it is on the allow list (after renames), else
        ``pickle.UnpicklingError``: nothing outside the list is imported or called."""
        module, name = self.renamed.get((module, name), (module, name))
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"{module}.{name} is not an allowed class")
        obj = super().find_class(module, name)
        self._named[id(obj)] = (module, name)
        return obj

    def _call(self, func: Any, args: Any, kwargs: Any) -> Any:
        key = self._named.get(id(func))
        factory = CHECKED_CALLS.get(key) if key is not None else None
        if factory is None:
            what = ".".join(key) if key else brief(func)
            raise pickle.UnpicklingError(f"{what} may be named in a model file but not called")
        if type(args) is not tuple or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            raise pickle.UnpicklingError(f"{'.'.join(key)}: malformed call arguments")
        return factory(self, func, *args, **kwargs)

    def _new(self, cls: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(cls, type) and self._named.get(id(cls), ("", ""))[1] in _BARE and cls.__new__ is object.__new__:
            return object.__new__(cls)  # the state comes by BUILD; __init__ never runs
        return self._call(cls, args, kwargs)

    def load_reduce(self) -> None:
        args = self.stack.pop()
        self.stack[-1] = self._call(self.stack[-1], args, {})

    def load_newobj(self) -> None:
        args = self.stack.pop()
        cls = self.stack.pop()
        self.append(self._new(cls, args, {}))

    def load_newobj_ex(self) -> None:
        kwargs = self.stack.pop()
        args = self.stack.pop()
        cls = self.stack.pop()
        self.append(self._new(cls, args, kwargs))

    def _instantiate(self, klass: Any, args: Any) -> None:
        self.append(self._new(klass, tuple(args), {}) if not args else self._call(klass, tuple(args), {}))

    def load_build(self) -> None:
        state, inst = self.stack[-1], self.stack[-2]
        if id(inst) in self._named or isinstance(inst, (type, types.ModuleType, types.FunctionType,
                                                          types.BuiltinFunctionType)):
            raise pickle.UnpicklingError(f"the pickle may not change {brief(inst)}")
        if isinstance(inst, np.ndarray):
            self._check_array_state(state)
        else:  # a dict of plain names whose values are walked; a space's state checked before __setstate__
            check_build(inst, state, self)
        pickle._Unpickler.load_build(self)
        _check_built(inst)

    def _check_array_state(self, state: Any) -> None:
        if not (type(state) is tuple and len(state) == 5 and state[0] == 1):
            raise _OverBound("an array's state must be (1, shape, dtype, fortran, bytes)")
        shape, dt, data = _shape(state[1], "an array's shape", MAX_PARAMS), _dtype(state[2]), state[4]
        if type(data) not in (bytes, bytearray) or len(data) != math.prod(shape) * dt.itemsize:
            raise _OverBound("an array's data must be bytes that fit its shape and dtype")
        self.charge_bytes(len(data))

    def load_append(self) -> None:
        if type(self.stack[-2]) not in (list, collections.deque):
            raise pickle.UnpicklingError("APPEND only to a list or a deque")
        pickle._Unpickler.load_append(self)

    def load_appends(self) -> None:
        items = self.pop_mark()
        if type(self.stack[-1]) not in (list, collections.deque):
            raise pickle.UnpicklingError("APPENDS only to a list or a deque")
        self.stack[-1].extend(items)

    def load_setitem(self) -> None:
        _check_keys([self.stack[-2]])
        if type(self.stack[-3]) not in (dict, collections.OrderedDict):
            raise pickle.UnpicklingError("SETITEM only into a dict")
        pickle._Unpickler.load_setitem(self)

    def load_setitems(self) -> None:
        items = self.pop_mark()
        _check_keys(items[0::2])
        if type(self.stack[-1]) not in (dict, collections.OrderedDict):
            raise pickle.UnpicklingError("SETITEMS only into a dict")
        for i in range(0, len(items) - 1, 2):
            self.stack[-1][items[i]] = items[i + 1]

    def load_dict(self) -> None:
        items = self.pop_mark()
        _check_keys(items[0::2])
        self.append({items[i]: items[i + 1] for i in range(0, len(items) - 1, 2)})

    def load_additems(self) -> None:
        items = self.pop_mark()
        _check_keys(items)
        if type(self.stack[-1]) is not set:
            raise pickle.UnpicklingError("ADDITEMS only into a set")
        self.stack[-1].update(items)

    def load_frozenset(self) -> None:
        items = self.pop_mark()
        _check_keys(items)
        self.append(frozenset(items))

    for _op, _fn in ((pickle.REDUCE, load_reduce), (pickle.NEWOBJ, load_newobj), (pickle.NEWOBJ_EX, load_newobj_ex),
                     (pickle.BUILD, load_build), (pickle.APPEND, load_append), (pickle.APPENDS, load_appends),
                     (pickle.SETITEM, load_setitem), (pickle.SETITEMS, load_setitems), (pickle.DICT, load_dict),
                     (pickle.ADDITEMS, load_additems), (pickle.FROZENSET, load_frozenset)):
        dispatch[_op[0]] = _fn
    del _op, _fn


def _check_expansion(obj: Any) -> Any:
    """``obj``, after refusing a result whose containers and objects, shared references counted each time they
    are reached, exceed :data:`MAX_LOAD_NODES` or nest deeper than 64 (:func:`pickle_limits.walk`): a few bytes of
    shared lists must not become a huge value for whoever prints, hashes, compares or converts it."""
    walk(obj, types.SimpleNamespace(visits=MAX_LOAD_NODES), "the pickle's data", _MAX_DEPTH)
    return obj


def restricted_loads(data: bytes, allowed: Iterable[tuple[str, str]], what: str,
                     renamed: Mapping[tuple[str, str], tuple[str, str]] | None = None, corrupt_hint: str = "") -> Any:
    """Unpickle ``data`` with :class:`RestrictedUnpickler`.

    Args:
        data: the pickle.
        allowed: the ``(module, name)`` pairs it may build.
        what: the file (and entry) for the message.
        renamed: former ``(module, name)`` pairs read as allowed ones (see :class:`RestrictedUnpickler`).
        corrupt_hint: added to the message of a corrupt pickle (what to do, e.g. write the file again).

    Raises:
        ModelTrustError: the pickle needs anything outside ``allowed`` (or calls what it may only name).
        CorruptModelError: the pickle is cut short or damaged (:func:`check_whole_pickle`).
        ModelFileError: the pickle asks for more than the size bounds (a space over :data:`MAX_SPACE_ELEMENTS`
            values, ...); the message names the bound.
    """
    check_whole_pickle(data, what, corrupt_hint)
    try:
        return _check_expansion(RestrictedUnpickler(io.BytesIO(data), allowed, renamed, max_bytes=len(data) + 2**20).load())
    except _OverBound as e:
        raise ModelFileError(f"{what}: over a size bound: {str(e)[:300]}") from None
    except (MemoryError, RecursionError) as e:
        raise ModelFileError(f"{what}: over a size bound ({type(e).__name__})") from None
    except Exception as e:  # noqa: BLE001  (any failure of a hostile pickle is a refusal)
        raise ModelTrustError(f"{what} cannot be loaded without running code from the file "
                              f"({short_error(e, 200)}); {TRUST_HINT}") from None


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for binary reading, checked on the opened file to be a regular file (symlinks followed).

    The open never waits (``O_NONBLOCK``: a FIFO put in the file's place is refused, not waited on), and
    every later read goes through this handle, so a file swapped in at the same path after the checks is
    never the one read.

    Raises:
        FileNotFoundError: no such file.
        ModelFileError: not a regular file (a folder, a FIFO, a device), or it cannot be opened.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a device is never opened (opening one can act)
            raise ModelFileError(f"{path}: not a regular file")
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileNotFoundError(f"no file {path}") from None
    except (OSError, ValueError) as e:
        raise ModelFileError(f"{path}: cannot be read ({e})") from None
    try:  # checked again on the opened file: the path may name another file by now
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ModelFileError(f"{path}: not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_capped(path: Path, cap: int) -> bytes:
    """The bytes of ``path``, a regular file (symlinks followed) of at most ``cap`` bytes, read through
    :func:`open_regular` (checked on the opened file).

    Raises:
        FileNotFoundError: no such file.
        ModelFileError: not a regular file (a folder, a FIFO, a device), or larger than ``cap`` bytes.
    """
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > cap:
            raise ModelFileError(f"{path}: {size} bytes, more than the {cap} bytes allowed")
        try:
            data = f.read(cap + 1)
        except OSError as e:
            raise ModelFileError(f"{path}: cannot be read ({e})") from None
    if len(data) > cap:
        raise ModelFileError(f"{path}: more than the {cap} bytes allowed")
    return data
