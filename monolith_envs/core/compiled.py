"""The switch of the optional compiled parts (the observation builders, Strategy's TURN lists, the chance
recorder's die roll).

Each compiled part has a Python reference that gives the same values; ``MONOLITH_ENVS_PURE_PYTHON=1`` in the
environment makes every part use its reference (for checking, or profiling the Python code).
"""

from __future__ import annotations

import os

__all__ = ["PURE_PYTHON_ENV", "pure_python_requested"]

PURE_PYTHON_ENV = "MONOLITH_ENVS_PURE_PYTHON"


def pure_python_requested() -> bool:
    """True when ``MONOLITH_ENVS_PURE_PYTHON=1`` asks every compiled part to use its Python reference
    (read at each call, so a test may set it for one object)."""
    return os.environ.get(PURE_PYTHON_ENV, "") == "1"
