"""The switch of the optional compiled parts (the observation builders, Strategy's TURN lists, the chance
recorder's die roll).

Each compiled part has a Python reference that gives the same values; ``MONOLITH_ENVS_PURE_PYTHON=1`` in the
environment makes every part use its reference (for checking, or profiling the Python code).
"""

from __future__ import annotations

import os
import warnings
from typing import Any

__all__ = ["PURE_PYTHON_ENV", "CompiledObserver", "NotCompiledWarning", "pure_python_requested"]

PURE_PYTHON_ENV = "MONOLITH_ENVS_PURE_PYTHON"

#: the builders already warned about in this process
_WARNED: set = set()
#: set in the environment once the warning was given, so the worker processes a command starts (which
#: inherit the environment) do not give it again, each in Python's ``file:line`` form
_SAID_ENV = "MONOLITH_ENVS_NOT_COMPILED_SAID"


class NotCompiledWarning(UserWarning):
    """A compiled observation builder is not built (no C compiler at install, or a checkout whose extensions
    were never built), so its Python reference runs: the same values at about half the speed. Given once per
    process, and not again in the worker processes it starts; ``MONOLITH_ENVS_PURE_PYTHON=1`` chooses the
    Python builders and silences it."""


def pure_python_requested() -> bool:
    """True when ``MONOLITH_ENVS_PURE_PYTHON=1`` asks every compiled part to use its Python reference
    (read at each call, so a test may set it for one object)."""
    return os.environ.get(PURE_PYTHON_ENV, "") == "1"


class CompiledObserver:
    """Base of the three games' observation builders: the choice between the compiled builder and the Python
    reference, and copy/pickle support for the compiled context they hold.

    A subclass sets ``_extension`` (the compiled module, or ``None`` where it is not built) and
    ``_extension_name`` (its dotted name, for errors), calls :meth:`_use_compiled` in ``__init__`` and keeps
    the compiled context (a capsule, which neither copies nor pickles) in ``self._ctx``.
    """

    _extension: Any = None
    _extension_name = "of this observer"
    compiled: bool = False
    _ctx: Any = None

    def _use_compiled(self, requested: bool | None) -> bool:
        """Whether to use the compiled builder: ``requested`` (``None``: when it is built and
        ``MONOLITH_ENVS_PURE_PYTHON`` is not set).

        Raises:
            RuntimeError: ``requested`` is true but the extension is not built.
        """
        if requested is None:
            if (self._extension is None and not pure_python_requested() and self._extension_name not in _WARNED
                    and os.environ.get(_SAID_ENV) != "1"):
                _WARNED.add(self._extension_name)
                os.environ[_SAID_ENV] = "1"
                warnings.warn(f"the compiled observation builder {self._extension_name} is not built: the Python "
                              "one runs (the same values, about half the speed); build it with a C compiler: pip "
                              "install -e . (or python setup.py build_ext --inplace in a checkout), or set "
                              f"{PURE_PYTHON_ENV}=1 to choose the Python builders", NotCompiledWarning, stacklevel=3)
            return self._extension is not None and not pure_python_requested()
        if requested and self._extension is None:
            raise RuntimeError(f"the compiled observation builder {self._extension_name} is not built "
                               "(reinstall with a C compiler: pip install -e .)")
        return bool(requested)

    def __getstate__(self) -> dict:
        """Copy and pickle support: the compiled context is not copied; the first observation of the copy
        builds its own (the game may not be fully restored yet when this object is)."""
        state = self.__dict__.copy()
        state["_ctx"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if self._extension is None:  # unpickled where the extension is not built
            self.compiled = False
