"""Every command built on ``monolith_envs.core.cli.ArgumentParser`` shows this package's warnings (e.g.
``NotCompiledWarning`` in a checkout whose C parts are not built) as one ``PROG: warning: ...`` line, as
``python -m agents.play`` did; ``monolith_envs check|replay|playthrough`` and ``training.train`` printed Python's
``/path/game.py:71: NotCompiledWarning: ...`` and a line of source."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from monolith_envs.core import compiled
from monolith_envs.core.cli import ArgumentParser
from monolith_envs.core.compiled import NotCompiledWarning
from monolith_envs.core.testing import CHECKS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def restore_showwarning():
    saved = warnings.showwarning
    yield
    warnings.showwarning = saved


def test_parsing_makes_package_warnings_one_line(capsys, restore_showwarning, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["demo"])  # the process's own (empty) command line
    ap = ArgumentParser(prog="python -m demo")
    sub = ap.add_subparsers(dest="cmd")
    sub.add_parser("check")
    passed_on = []
    warnings.showwarning = lambda *a, **k: passed_on.append(str(a[0]))  # what was shown before
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        ap.parse_args([])
        warnings.warn("not built:\n  the Python one runs", NotCompiledWarning, stacklevel=1)
        ap.parse_args(["check"])  # a sub-command's line names it
        warnings.warn("again", NotCompiledWarning, stacklevel=1)
        warnings.warn("not ours", UserWarning, stacklevel=1)
    assert capsys.readouterr().err.splitlines() == ["python -m demo: warning: not built: the Python one runs",
                                                    "python -m demo check: warning: again"]
    assert passed_on == ["not ours"]  # other warnings are shown as before


def test_an_in_process_main_with_its_own_arguments_leaves_warnings_recordable(monkeypatch, restore_showwarning):
    """``main(argv)`` from a notebook or a test: the package's warnings stay visible to ``catch_warnings`` (and
    ``pytest.warns``), and no handler is left behind."""
    monkeypatch.setattr(sys, "argv", ["pytest", "-q"])
    before = warnings.showwarning
    ap = ArgumentParser(prog="python -m demo")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        ap.parse_args([])
        warnings.warn("not built", NotCompiledWarning, stacklevel=1)
    assert [str(w.message) for w in seen] == ["not built"]
    assert warnings.showwarning is before
    with pytest.warns(NotCompiledWarning, match="again"):
        ap.parse_args([])
        warnings.warn("again", NotCompiledWarning, stacklevel=1)


CHILD = """
import sys
from monolith_envs.arena import observe
observe.Observer._extension = None  # as in a checkout whose C parts are not built
sys.argv[0] = "monolith_envs"
from monolith_envs.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_monolith_envs_check_says_not_compiled_in_one_line():
    env = {k: v for k, v in os.environ.items() if k not in (compiled.PURE_PYTHON_ENV, compiled._SAID_ENV)}
    env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run([sys.executable, "-c", CHILD, "check", "monolith_arena_v0", "--games", "1", "--no-progress"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stderr.splitlines()
    assert lines == ["python -m monolith_envs check: warning: the compiled observation builder "
                     "monolith_envs.arena._fastobs is not built: the Python one runs (the same values, about half "
                     "the speed); build it with a C compiler: pip install -e . (or python setup.py build_ext "
                     "--inplace in a checkout), or set MONOLITH_ENVS_PURE_PYTHON=1 to choose the Python builders"]
    assert f"{len(CHECKS)} checks passed over 1 game," in r.stdout
