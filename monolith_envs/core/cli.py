"""Argument handling shared by every command (``monolith_envs``, ``training``, ``agents.play``, ``benchmarks``).

:class:`ArgumentParser` prints every usage error as one short line with control characters escaped (an
argument may hold a NUL byte or a terminal escape sequence), and :func:`import_modules` imports
``--preload`` / ``--import`` modules with a clear error for a name that cannot be imported.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import shlex
from typing import Any, Iterable

from .words import plural_of

#: the longest error message printed (longer ones end with "...")
MAX_ERROR_CHARS = 600


def one_line(message: object, limit: int = MAX_ERROR_CHARS) -> str:
    """``message`` on one line: whitespace runs collapsed, control characters escaped (``\\x00``, ``\\x1b``),
    at most ``limit`` characters (then ``...``)."""
    from monolith_envs.core.replay import printable

    text = printable(" ".join(str(message).split()))
    return text if len(text) <= limit else text[:limit] + "..."


class ArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one escaped, bounded ``PROG: error: ...`` line, without
    the usage that argparse prints before it (then exit status 2; ``--help`` shows the usage).

    Parsing the process's own command line (``args`` left out, or equal to ``sys.argv[1:]``) also makes this
    package's warnings one ``PROG: warning: ...`` line (:func:`plain_warnings`; e.g. the ``NotCompiledWarning``
    of a checkout whose C parts are not built), so every command shows them alike; a sub-command's line names it
    (``python -m monolith_envs check: warning: ...``).  A ``main(argv)`` called in-process with other arguments
    (a notebook, a test) leaves ``warnings.showwarning`` as it is, so ``catch_warnings(record=True)`` and
    ``pytest.warns`` still see the package's warnings.

    Sub-parsers made with ``add_subparsers().add_parser`` are of this class too."""

    def parse_known_args(self, args=None, namespace=None):  # noqa: ANN001, ANN201 - argparse's signature
        """argparse's, after :func:`plain_warnings` for this parser's ``prog`` when ``args`` is the process's
        command line (argparse parses a sub-command's arguments through its sub-parser's ``parse_known_args``,
        so its ``prog`` is named, once the top parser has installed the handler)."""
        import sys
        import warnings

        own = args is None or list(args) == sys.argv[1:]
        if own or getattr(warnings.showwarning, "plain_prog", None) is not None:
            plain_warnings(self.prog)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        """argparse's contract: print ``PROG: error: MESSAGE`` as one line on stderr and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def plain_doc(text: str) -> str:
    """A docstring's text for ``--help``, without its reStructuredText markup: double backticks dropped, a role
    such as :mod:`training.az.loop` written as its target (with a leading ``~``, its last name only)."""
    import re

    text = re.sub(r":[a-z]+:`~[\w.]*?([\w]+)`", r"\1", text)
    return re.sub(r":[a-z]+:`([^`]*)`", r"\1", text).replace("``", "")


def preload_flags(names: Iterable[str]) -> str:
    """The ``--preload`` options of a printed command (reproduce, resume, evaluate): `` --preload NAME`` for
    each module, shell-quoted; ``""`` for none."""
    return "".join(f" --preload {shlex.quote(name)}" for name in names)


def preload_worker(names: tuple[str, ...]) -> None:
    """A spawned worker's start (``functools.partial(preload_worker, names)`` as a process pool's initializer):
    ignore SIGINT, as :func:`~monolith_envs.core.interrupt.spawn_pool`'s default does, then import ``names``
    (:func:`import_modules`) so that the env ids they register exist in the worker too."""
    from .interrupt import ignore_sigint

    ignore_sigint()
    import_modules(names)


def import_modules(names: Iterable[str], flag: str = "--preload") -> None:
    """Import each module of ``names`` (e.g. one that registers envs with ``monolith_envs.register``).

    Raises:
        ImportError: a name that cannot be imported (no such module, an empty or relative name, a NUL
            byte) or a module whose code raised while importing (its exception and where), the message
            naming ``flag`` and the module.
    """
    for name in names:
        if not name or not name.isprintable() or name.startswith("."):
            raise ImportError(f"{flag} {name!r}: not a module name (give a dotted module path such as "
                              "my_package.my_envs)")
        try:
            spec = importlib.util.find_spec(name)  # finds the module without running its code (but its parents')
        except (ImportError, ValueError, TypeError, AttributeError) as exc:  # e.g. 'os..path', 'json.x.y'
            raise ImportError(f"{flag} {name!r}: cannot import it ({exc})") from None
        except (Exception, SystemExit) as exc:  # noqa: BLE001  (a parent package's code failed)
            raise ImportError(f"{flag} {name!r}: importing it raised {_raised(exc, None)}") from None
        if spec is None:
            raise ImportError(f"{flag} {name!r}: cannot import it (No module named {name!r})")
        try:
            importlib.import_module(name)
        except (Exception, SystemExit) as exc:  # noqa: BLE001  (the module's own code failed while importing)
            raise ImportError(f"{flag} {name!r}: importing it raised {_raised(exc, spec.origin)}") from None


def _raised(exc: BaseException, origin: str | None) -> str:
    """``"Type: message at FILE:LINE"``: the last traceback frame in the module's file ``origin`` (else the
    innermost one); a ``SyntaxError``'s message has its own file and line."""
    where = ""
    tb = None if isinstance(exc, SyntaxError) else exc.__traceback__
    while tb is not None:
        here = f" at {tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"
        if origin is None or tb.tb_frame.f_code.co_filename == origin or not where.startswith(f" at {origin}:"):
            where = here
        tb = tb.tb_next
    return f"{type(exc).__name__}: {exc}{where}"


def check_game_config(cfg: dict, flag: str) -> dict:
    """Return ``cfg`` (a game config from ``--config`` or ``--set``) when it holds only game keys.

    Raises:
        ValueError: a key that is an argument of ``make`` or of the env (``env_id``, ``wrapped``,
            ``render_mode``, ``illegal_action``), naming ``flag`` and the key.
    """
    from monolith_envs.core.replay import RESERVED_CONFIG_KEYS

    bad = [k for k in cfg if k in RESERVED_CONFIG_KEYS]
    if bad:
        raise ValueError(f"{flag}: {bad[0]!r} is not a game config key (a game config holds only the game's "
                         f"keys, not {', '.join(RESERVED_CONFIG_KEYS)})")
    return cfg


def game_settings(items: Iterable[str], flag: str = "--set") -> dict:
    """``--set KEY=VALUE`` options as a game config (:func:`monolith_envs.core.config.parse_settings`), with
    the checks of :func:`check_game_config`.

    Raises:
        ValueError: an item without ``=``, a value nested more than 32 brackets deep, or a ``make`` argument as a key
            (``ConfigError`` is a ``ValueError``).
    """
    from monolith_envs.core.config import parse_settings

    return check_game_config(parse_settings(list(items)), flag)


def split_specs(text: str) -> list[str]:
    """The agent specs of a comma-separated list (``--agents``, ``--opponents``), stripped.

    Raises:
        ValueError: an empty spec (two commas in a row, or a comma at either end), naming where; an empty
            list is ``[]``.
    """
    if not text.strip():
        return []
    specs = [s.strip() for s in text.split(",")]
    if "" in specs:
        k = specs.index("")
        raise ValueError(f"{text[:120]!r}: spec {k + 1} of {len(specs)} is empty; agent specs are separated by "
                         "single commas, with none at either end")
    return specs


def spec_error(exc: BaseException, text: str) -> str:
    """The one-line message of an agent spec's error; for a missing model file, when pieces of the list
    ``text`` joined again at their commas name a path that exists, it adds that a model path cannot contain a
    comma (the list is split at commas).  A plain typo gets the message alone."""
    import os

    message = str(exc)
    if not isinstance(exc, FileNotFoundError):
        return message
    parts = text.split(",")
    for i in range(len(parts)):
        for j in range(i + 2, len(parts) + 1):
            joined = ",".join(parts[i:j]).strip()
            path = joined.split(":", 1)[1] if ":" in joined else joined  # ppo:PATH, az:PATH+search:N
            path = path.split("+search:", 1)[0]
            if "," in path and os.path.exists(path):  # the comma is in the path, not between two specs
                return message + (f" (the list of agent specs is split at commas, so the path {path!r} cannot be "
                                  "named in it: rename the file or link it from a path without a comma)")
    return message


def plain_warnings(prog: str) -> None:
    """Show warnings of ``UserWarning`` subclasses defined in this package (e.g. a baseline playing a rules
    variant it was not trained on) on stderr as one line, ``"<prog>: warning: <message>"``, instead of
    Python's ``file:line`` form with a line of source; every other warning is shown as before. For the
    commands' ``main`` functions (it changes ``warnings.showwarning`` of the process); :class:`ArgumentParser`
    calls it when it parses a command line. Called again, it replaces its own handler (the newest ``prog``)."""
    import sys
    import warnings

    default = warnings.showwarning
    if getattr(default, "plain_prog", None) is not None:  # installed already (main called twice)
        default = default.default

    def show(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001 - warnings' signature
        if issubclass(category, UserWarning) and category.__module__.startswith("monolith_envs."):
            print(f"{prog}: warning: {one_line(message)}", file=file if file is not None else sys.stderr)
        else:
            default(message, category, filename, lineno, file, line)

    show.plain_prog, show.default = prog, default
    warnings.showwarning = show


def duration_text(seconds: float) -> str:
    """``seconds`` in words for a progress line: ``"48 s"``, ``"12 min"``, ``"3 h 20 min"``, ``"65 days"``."""
    s = int(round(seconds))
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    if s < 3 * 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400:,} days"


class LineProgress:
    """A progress report for a log file: where tqdm draws a bar on a terminal, this prints a plain line to
    ``file``, ``"<desc>: 40 of 200 games (20%), 12 s, about 48 s left"`` (and a note set with
    :meth:`set_postfix_str`, such as ``"; 2 failures"``), once the work has run ``first_s`` seconds (wall
    time), then at most every ``every_s`` seconds, and a last one when it is closed (unless the line just
    printed says the same); work done within ``first_s`` prints nothing. The same methods as the tqdm bar that
    :func:`progress_bar` makes (``update``, ``write``, ``set_postfix_str``, ``close``), so a caller uses either
    the same way."""

    def __init__(self, total: int, desc: str, unit: str, file: Any = None, every_s: float = 30.0,
                 first_s: float = 5.0, initial: int = 0):
        import time

        self.total, self.desc, self.unit, self.every_s = int(total), desc, unit, float(every_s)
        self.file, self.n, self._clock = file, int(initial), time.monotonic
        self._start_n = self.n  # a resumed run's steps done before: the time left is from this run's rate
        self.t0 = self._clock()
        self._next = self.t0 + float(first_s)
        self._closed = False
        self._printed: tuple | None = None  # (count, note) of the last line printed
        self.note = ""

    def _line(self, last: bool = False) -> None:
        import sys

        elapsed = self._clock() - self.t0
        units = self.unit if self.total == 1 else plural_of(self.unit)
        text = (f"{self.desc}: {self.n:,} of {self.total:,} {units} "
                f"({100 * self.n // max(self.total, 1)}%), {duration_text(elapsed)}")
        done = self.n - self._start_n
        if 0 < done and self.n < self.total and not last:
            text += f", about {duration_text(elapsed * (self.total - self.n) / done)} left"
        print(text + (f"; {self.note}" if self.note else ""), file=self.file or sys.stderr, flush=True)
        self._printed = (self.n, self.note)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more units; print a line when its time has come."""
        self.n += int(n)
        now = self._clock()
        if now >= self._next:
            self._next = now + self.every_s
            self._line()

    def set_postfix_str(self, text: str) -> None:
        """A note said at the end of the next lines (``"2 failures"``), as tqdm's bar shows it."""
        self.note = text

    def write(self, text: str) -> None:
        """Print ``text`` (a finding) on stdout as its own line, as ``tqdm.write`` does."""
        print(text, flush=True)

    def close(self) -> None:
        """Print the last count (once), when a line was printed before and it said another count or note."""
        if not self._closed:
            self._closed = True
            if self._printed is not None and self._printed != (self.n, self.note):
                self._line(last=True)


def progress_bar(total: int, desc: str, unit: str, enabled: bool = True, file: Any = None, initial: int = 0) -> Any:
    """The progress display of a command: a tqdm bar with ETA when ``file`` (default ``sys.stderr``) is a
    terminal, a :class:`LineProgress` (a line after 5 s, then every 30 s) when it is not (a log file, a pipe) or
    tqdm is not installed, or None when ``enabled`` is False. ``initial``: units done before (a resumed run)."""
    import sys

    if not enabled:
        return None
    stream = file or sys.stderr
    if not (hasattr(stream, "isatty") and stream.isatty()):
        return LineProgress(total, desc, unit, file=stream, initial=initial)
    try:
        from tqdm import tqdm
    except ImportError:  # the core needs only numpy/gymnasium/pettingzoo: lines then
        return LineProgress(total, desc, unit, file=stream, initial=initial)
    return tqdm(total=total, initial=initial, desc=desc, unit=unit, file=stream, dynamic_ncols=True)


def stderr_bar(total: int, desc: str, unit: str, enabled: bool = True, initial: int = 0) -> Any:
    """:func:`progress_bar` on stderr for a long stage (training, evaluation), where a caller updates its bar
    whether it is shown or not: with ``enabled`` False a disabled tqdm bar instead of None. Both kinds have
    ``update``, ``close``, ``n`` and ``total``."""
    bar = progress_bar(total, desc, unit, enabled, initial=initial)
    if bar is None:
        from tqdm import tqdm

        bar = tqdm(total=total, initial=initial, disable=True)
    return bar
