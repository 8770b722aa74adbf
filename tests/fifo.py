"""A reader handed a FIFO must refuse it without opening it: a regression would block the test run forever,
so the call runs on a thread and a blocked reader fails the test (after being unblocked)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable

import pytest


def fifo_error(fifo: Path, call: Callable[[], object], error: type[BaseException], seconds: float = 30) -> str:
    """Make ``fifo`` a FIFO, run ``call`` on a thread, and return the message of the ``error`` it raised.

    Fails the test when ``call`` blocks (the FIFO is then opened for writing, so the reader ends) or returns.
    """
    os.mkfifo(fifo)
    result: dict = {}

    def run() -> None:
        try:
            call()
        except error as e:
            result["error"] = str(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        pytest.fail(f"reading the FIFO {fifo} blocked")
    assert "error" in result, f"no {error.__name__} for the FIFO {fifo}"
    return result["error"]
