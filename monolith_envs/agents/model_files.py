"""What every model-file loader of :mod:`monolith_envs.agents` shares: the trust switch, the errors, bounded reads, and a
restricted unpickler.

**Model files are untrusted by default.**  Unpickling can run any code a file names, so the loaders of
``ppo:PATH`` (:mod:`monolith_envs.agents.ppo`) and ``rllib:PATH`` (:mod:`monolith_envs.agents.rllib_agent`) decode pickles with
:class:`RestrictedUnpickler`, which only builds the classes of an explicit allow list, and refuse a file that
needs anything else with a :class:`ModelTrustError`.  ``trusted=True`` (command lines:
``--trust-model-files``; environment: ``MONOLITH_ENVS_TRUST_MODELS=1``, which spawned worker processes
inherit) lets the libraries load a file their own way, only for files you made or trust.

Every file is read only if it is a regular file under a size cap (:func:`read_capped`): a FIFO, a device or a
huge file is refused before anything is read.
"""

from __future__ import annotations

import io
import os
import pickle
import stat
from pathlib import Path
from typing import Any, Iterable, Mapping

from .base import AgentError

__all__ = ["MAX_PARAMS", "ModelFileError", "ModelTrustError", "NUMPY_GLOBALS", "RestrictedUnpickler", "TRUST_ENV_VAR",
           "TRUST_HINT", "mlp_params", "read_capped", "restricted_loads", "trust_models_from_env"]

#: environment variable that marks every model file as trusted (``1``); set by ``--trust-model-files``
TRUST_ENV_VAR = "MONOLITH_ENVS_TRUST_MODELS"
#: what an error says about trusting a file
TRUST_HINT = f"if you made this file or trust it, pass --trust-model-files (or set {TRUST_ENV_VAR}=1)"
#: most weights (parameters) a loaded network may have: 2**27 floats, 512 MiB in float32
MAX_PARAMS = 2**27

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


def trust_models_from_env() -> bool:
    """True when the environment marks model files as trusted (``MONOLITH_ENVS_TRUST_MODELS=1``)."""
    return os.environ.get(TRUST_ENV_VAR, "") == "1"


class RestrictedUnpickler(pickle.Unpickler):
    """A pickle reader that builds only the ``(module, name)`` pairs of ``allowed``; nothing else is imported.

    ``renamed`` maps a former ``(module, name)`` to the allowed pair it is read as (the former module is never
    imported).

    Raises (from ``load``):
        pickle.UnpicklingError: the pickle names a class or function outside ``allowed``.
    """

    def __init__(self, file: Any, allowed: Iterable[tuple[str, str]],
                 renamed: Mapping[tuple[str, str], tuple[str, str]] | None = None):
        super().__init__(file)
        self.allowed = frozenset(allowed)
        self.renamed = dict(renamed or {})

    def find_class(self, module: str, name: str) -> Any:
        """The class ``module.name`` if it is on the allow list (after renames), else
        ``pickle.UnpicklingError``: nothing outside the list is imported or called."""
        module, name = self.renamed.get((module, name), (module, name))
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"{module}.{name} is not an allowed class")
        return super().find_class(module, name)


def restricted_loads(data: bytes, allowed: Iterable[tuple[str, str]], what: str,
                     renamed: Mapping[tuple[str, str], tuple[str, str]] | None = None) -> Any:
    """Unpickle ``data`` with :class:`RestrictedUnpickler`.

    Args:
        data: the pickle.
        allowed: the ``(module, name)`` pairs it may build.
        what: the file (and entry) for the message.
        renamed: former ``(module, name)`` pairs read as allowed ones (see :class:`RestrictedUnpickler`).

    Raises:
        ModelTrustError: the pickle needs anything outside ``allowed``, or is not a readable pickle.
    """
    try:
        return RestrictedUnpickler(io.BytesIO(data), allowed, renamed).load()
    except Exception as e:  # noqa: BLE001  (any failure of a hostile pickle is a refusal)
        raise ModelTrustError(f"{what} cannot be loaded without running code from the file "
                              f"({type(e).__name__}: {str(e)[:200]}); {TRUST_HINT}") from None


def read_capped(path: Path, cap: int) -> bytes:
    """The bytes of ``path``, a regular file (symlinks followed) of at most ``cap`` bytes.

    Raises:
        FileNotFoundError: no such file.
        ModelFileError: not a regular file (a folder, a FIFO, a device), or larger than ``cap`` bytes.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"no file {path}") from None
    except (OSError, ValueError) as e:
        raise ModelFileError(f"{path}: cannot be read ({e})") from None
    if not stat.S_ISREG(st.st_mode):
        raise ModelFileError(f"{path}: not a regular file")
    if st.st_size > cap:
        raise ModelFileError(f"{path}: {st.st_size} bytes, more than the {cap} bytes allowed")
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except OSError as e:
        raise ModelFileError(f"{path}: cannot be read ({e})") from None
    if len(data) > cap:
        raise ModelFileError(f"{path}: more than the {cap} bytes allowed")
    return data


def mlp_params(n_in: int, hidden: Iterable[int], n_out: int) -> int:
    """Weights and biases of a fully connected net ``n_in -> hidden... -> n_out`` (an int, no allocation)."""
    total, prev = 0, int(n_in)
    for h in list(hidden) + [int(n_out)]:
        total += prev * int(h) + int(h)
        prev = int(h)
    return total
