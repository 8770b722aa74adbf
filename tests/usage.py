"""The check shared by the tests of every command's argument errors."""

from __future__ import annotations

from typing import Any, Callable

import pytest


def one_usage_error(capsys: Any, call: Callable[[], Any]) -> str:
    """``call()`` ends with argparse's exit status 2 and prints no traceback; returns its one ``PROG: error:``
    line on stderr."""
    with pytest.raises(SystemExit) as exc:
        call()
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert len(errors) == 1, err
    return errors[0]
