"""Helpers of the tests that signal real processes."""

from __future__ import annotations

import os
import time


def group_gone(pgid: int, timeout: float = 10.0) -> bool:
    """True once no process of the process group ``pgid`` is left (polled every 0.2 s for up to ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False
