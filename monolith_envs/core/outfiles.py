"""Output paths checked before the work, and files written atomically.

A command that writes its results at the end checks each output path first, by really creating it (a
folder and a probe file in it, or the file's folder and a probe file next to it), so that a bad path ends
the command at once with one clear error instead of losing the finished work to a traceback. ``os.access``
is not enough: it says yes to root everywhere, also under ``/proc``.

Files are written through a temporary file in the same folder and renamed over the target, so a reader, a
crash or a Ctrl-C never sees a half-written file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterator

from .game import MonolithEnvError

__all__ = ["EarlierOutput", "OutputPathError", "check_output_dir", "check_output_file", "missing_folders", "new_folders_removed_on_error",
           "remove_empty_folders", "write_text_atomic", "write_bytes_atomic"]


class OutputPathError(MonolithEnvError, ValueError):
    """An output path that cannot be written (the message names the option, the path and why)."""


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _probe(folder: Path, what: str, path: Path) -> None:
    try:
        fd, name = tempfile.mkstemp(prefix=".write-check-", dir=folder)
    except OSError as exc:
        raise OutputPathError(f"{what} {path}: cannot write in {folder} ({_why(exc)})") from None
    os.close(fd)
    try:
        os.unlink(name)
    except OSError:
        pass


def _not_folder(p: Path, exc: OSError) -> str:
    """Why the folder ``p`` cannot be created: the first part of the path that exists and is not a folder
    (``/etc/passwd`` in ``/etc/passwd/x``) when there is one, else the system's reason."""
    for q in (p, *p.parents):
        try:
            if q.exists():
                return _why(exc) if q.is_dir() else f"{q} is a file, not a folder"
        except OSError:
            break
    return _why(exc)


def _text(path: str | os.PathLike, what: str, kind: str) -> Path:
    s = os.fspath(path)
    if not isinstance(s, str):
        raise OutputPathError(f"{what}: {s!r} is not a usable path; give a {kind} path")
    if not s.strip():
        raise OutputPathError(f"{what}: the path is empty; give a {kind} path")
    if "\x00" in s:
        raise OutputPathError(f"{what}: the path contains a NUL byte; give a {kind} path")
    return Path(s)


def check_output_dir(path: str | os.PathLike, what: str = "output folder", purpose: str = "") -> Path:
    """Create the folder ``path`` (and its parents) if needed and check that a file can be created in it.

    Args:
        path: the folder.
        what: how the error names it (e.g. ``"--out"``).
        purpose: what the folder is for, said in the error (e.g. ``"the failure logs"``).

    Returns:
        The path.

    Raises:
        OutputPathError: an empty or blank path, a NUL byte, a path that exists and is not a folder, or a
            folder that cannot be created or written.
    """
    p = _text(path, what, "folder")
    for_what = f" for {purpose}" if purpose else ""
    if p.exists() and not p.is_dir():
        raise OutputPathError(f"{what} {p}: exists and is not a folder; give a folder{for_what}")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputPathError(f"{what} {p}: cannot be created as a folder ({_not_folder(p, exc)})") from None
    _probe(p, what, p)
    return p


@contextlib.contextmanager
def new_folders_removed_on_error(*folders: str | os.PathLike) -> Iterator[None]:
    """Around the checks of several outputs: when the block raises, remove again the folders on the way to each
    of ``folders`` that did not exist before it and are still empty, so that a command refused for its second
    output leaves no folder made for its first one.  Nothing else is removed; the exception propagates."""
    made = missing_folders(*folders)
    try:
        yield
    except BaseException:
        remove_empty_folders(made)
        raise


def missing_folders(*paths: str | os.PathLike) -> list[Path]:
    """The folders on the way to each of ``paths`` that do not exist yet (absolute); a path that cannot be
    looked at (a NUL byte, a name too long) adds none: its output check says why."""
    made: list[Path] = []
    for f in paths:
        try:
            # as written (a "new" of "new/../kept" is made too), but never a name through "..": it may name a
            # folder that exists ("new/../kept" is kept); then the folders of the path resolved
            for p in (Path(f).absolute(), Path(os.path.realpath(f))):
                while not p.exists() and p != p.parent:
                    if ".." not in p.parts:
                        made.append(p)
                    p = p.parent
        except (OSError, ValueError, TypeError):  # TypeError: not a path at all (its output check says so)
            continue
    return list(dict.fromkeys(made))


def remove_empty_folders(folders: list[Path]) -> None:
    """Remove ``folders``, deepest first, where they are still empty directories; anything else stays."""
    for p in sorted(set(folders), key=lambda q: len(q.parts), reverse=True):
        with contextlib.suppress(OSError):
            p.rmdir()


class EarlierOutput:
    """What an earlier output of a command looks like, so that only such a file is replaced: its first
    :data:`HEAD_BYTES` bytes, decoded as UTF-8 (errors replaced) and stripped, start with ``start`` and hold
    every one of ``marks``; with ``json_keys``, the whole file (at most :data:`MAX_JSON_BYTES`) is a JSON object
    holding those keys instead.  ``kind`` names it in errors (``"an episode log"``)."""

    HEAD_BYTES = 4096
    MAX_JSON_BYTES = 64 * 2**20

    def __init__(self, kind: str, start: str, *marks: str, json_keys: tuple[str, ...] = ()):
        self.kind, self.start, self.marks, self.json_keys = kind, start, marks, json_keys

    def matches(self, path: Path) -> bool:
        """True when ``path`` reads as such an output (False when it cannot be read)."""
        try:
            with open(path, "rb") as fh:
                data = fh.read(self.MAX_JSON_BYTES + 1 if self.json_keys else self.HEAD_BYTES)
        except OSError:
            return False
        head = data[:self.HEAD_BYTES].decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
        if not (head.startswith(self.start) and all(m in head for m in self.marks)):
            return False
        if not self.json_keys:
            return True
        if len(data) > self.MAX_JSON_BYTES:
            return False
        import json

        try:
            obj = json.loads(data.decode("utf-8-sig"))
        except (ValueError, RecursionError):
            return False
        return isinstance(obj, dict) and all(k in obj for k in self.json_keys)


def check_output_file(path: str | os.PathLike, what: str = "output file", earlier: EarlierOutput | None = None) -> Path:
    """Check that the file ``path`` can be written: create its folder if needed and a probe file in it.

    An existing target must be a regular file (a folder, a device such as ``/dev/full`` or a FIFO is
    refused); it is left as it is until :func:`write_text_atomic` replaces it.  With ``earlier``, an existing
    non-empty file is replaced only when it reads as an earlier output of that kind (a model, a config or any
    other file given by mistake is refused, not overwritten).

    Raises:
        OutputPathError: naming ``what``, the path and the problem (an empty or blank path, a NUL byte, not a
            regular file, not an earlier output of the kind ``earlier`` describes, a folder that cannot be
            created or written).
    """
    p = _text(path, what, "file")
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        why = _not_folder(p.parent, exc) if isinstance(exc, NotADirectoryError) else _why(exc)
        raise OutputPathError(f"{what} {p}: cannot be used ({why})") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise OutputPathError(f"{what} {p}: is {kind}; give a file path")
    if st is not None and st.st_size > 0 and earlier is not None and not earlier.matches(p):
        raise OutputPathError(f"{what} {p}: the file exists and is not {earlier.kind}, so it is not replaced; "
                              "give a new path (or remove the file first)")
    folder = p.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputPathError(f"{what} {p}: its folder {folder} cannot be created ({_not_folder(folder, exc)})") from None
    _probe(folder, what, p)
    return p


def _umask() -> int:
    """This process's umask, read without changing it (Linux ``/proc/self/status``; else the usual 0o022,
    since setting the umask to read it would race with other threads creating files)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def _new_file_mode(target: Path) -> int:
    """The permission bits a replacing write gives: the replaced file's, else what ``open`` would give a new
    file (0o666 less the umask), so an output is never more readable than the user asked for."""
    try:
        return stat.S_IMODE(target.stat().st_mode) & 0o777  # not setuid, setgid or sticky, as open() would not
    except OSError:
        return 0o666 & ~_umask()


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename it over ``path``.

    A symbolic link is followed (its target is replaced). An existing target that is not a regular file (a
    folder, a device such as ``/dev/null``, a FIFO) is refused, never replaced. The file keeps the replaced
    file's permissions, or a new one gets what ``open`` would give it (0o666 less the umask).

    Raises:
        OutputPathError: the target exists and is not a regular file.
        OSError: the folder cannot be written (the temporary file is removed).
    """
    p = Path(path)
    if p.is_symlink():
        p = p.resolve()
    if p.exists() and not p.is_file():
        raise OutputPathError(f"{p}: is not a regular file; it is not replaced")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name[:40]}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _new_file_mode(p))
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return p


def write_text_atomic(path: str | os.PathLike, text: str) -> Path:
    """:func:`write_bytes_atomic` of ``text`` encoded as UTF-8 (a lone surrogate, which UTF-8 cannot encode,
    written as the text ``\\ud800``, not raised as a ``UnicodeEncodeError``)."""
    return write_bytes_atomic(path, text.encode("utf-8", "backslashreplace"))
