"""Safe reading and strict validation of content files (TOML), shared by every game's content loader.

A game's ``content.py`` reads its files with :func:`load_toml` (a path) or :func:`load_toml_resource` (a
file shipped in the package); :class:`monolith_envs.core.fields.Fields` reads one table of it (a tile, a
card, a section) for a new game's loader.  Every problem is a :class:`ContentError` naming the file, the
line (when known), the item (tile or card id) and the field.

What :func:`load_toml` refuses (each a ``ContentError``, never a hang, a ``RecursionError`` or a
``UnicodeDecodeError``): anything that is not a regular file (``/dev/zero``, a FIFO, a directory; a FIFO is
opened non-blocking, so it cannot hang), a file above ``max_bytes``, bytes that are not UTF-8, a TOML
syntax error, tables or arrays nested deeper than ``max_depth``, a dotted key (``a.b.c = 1``, ``[a.b.c]``)
of more than ``max_depth + 2`` parts or more than ``max_keys`` keys (both counted on the text, before
``tomllib`` parses it: a deep dotted key costs ``tomllib`` time and memory quadratic in its depth), any
integer outside ``-int_limit .. int_limit`` (the default fits a C ``int``) when :func:`parse_toml` is called
itself, and any control character
(U+0000-U+001F, U+007F-U+009F: terminal escape sequences) in a key or a string (a string may hold tabs and
newlines), wherever it is in the file.  A path holding a NUL byte is refused too.

:func:`load_toml` and :func:`load_toml_resource` refuse such an integer too, unless the caller passes
``refuse_big_ints=False``: the three games' content loaders do, since each bounds every integer it reads and
so refuses it with the field's own range, in the words it uses for any value out of that range
(``faction.banner_hp: -999999999999999999999 is not an integer from 1 to 999``; the file-wide limit named a
range the field does not take).  A loader of another game keeps the file-wide refusal unless it does the same.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import math
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from .config import short_repr
from .game import MonolithEnvError

__all__ = [
    "ContentError",
    "item_line",
    "INT_LIMIT",
    "MAX_DEPTH",
    "MAX_KEYS",
    "MAX_FILE_BYTES",
    "is_int",
    "TomlFile",
    "load_toml",
    "load_toml_resource",
    "parse_toml",
    "read_text",
]

MAX_FILE_BYTES = 1 << 20
"""Default size cap of a content file (1 MiB; the largest reference file is about 10 KiB)."""

MAX_DEPTH = 8
"""Default limit of nested tables and arrays (the top-level table is depth 0)."""

MAX_KEYS = 20_000
"""Default limit of keys (``key = value`` pairs and table headers) in one file, counted before parsing."""

INT_LIMIT = 2**31 - 1
"""Default bound of any integer in a content file: ``|v| <= INT_LIMIT`` (a C ``int``)."""


class ContentError(MonolithEnvError, ValueError):
    """A content file that cannot be read or breaks its schema.

    The message has the form ``"<file>:<line>: <label> '<item>', field '<field>': <problem>; allowed:
    <...>"``; parts that do not apply are left out (line 0 = unknown, empty item or field).

    Args:
        path: the file (as given, or the resource path of a shipped file).
        line: 1-based line number (0 when unknown).
        item: the id of the tile/card concerned ("" for file- or section-level problems).
        field: the offending field, dotted for nested tables (e.g. ``"faction.banner_hp"``).
        problem: what is wrong.
        allowed: what would be accepted.
        label: the word for an item in the message (``"tile"``, ``"card"``; default ``"item"``).

    Attributes:
        path, line, item, field, problem, allowed: as given; ``tile_id`` is ``item``.
    """

    def __init__(self, path: str, line: int, item: str, field: str, problem: str, allowed: str = "",
                 label: str = "item"):
        self.path = str(path)
        self.line = int(line)
        self.item = item
        self.field = field
        self.problem = problem
        self.allowed = allowed
        where = f"{self.path}:{self.line}" if line else self.path
        parts = []
        if item:
            parts.append(f"{label} '{_cut(item, 80)}'")
        if field:
            parts.append(f"field '{_cut(field, 80)}'")
        # an empty path (no file to name, e.g. an empty path given) leaves out its part, not a leading ": "
        msg = ": ".join(x for x in (where, ", ".join(parts), _cut(problem, 1000)) if x)
        if allowed:
            msg += f"; allowed: {allowed}"
        super().__init__(msg)

    @property
    def tile_id(self) -> str:
        """The item id (name used by tile-based games)."""
        return self.item


def _cut(text: str, limit: int) -> str:
    """``text`` for a one-line message: whole when it has at most ``limit`` characters, else its first
    ``limit`` characters, ``...`` and its length (an item id or key read from a file may be of any length)."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


# ---------------------------------------------------------------------------------------------------
# Reading files
# ---------------------------------------------------------------------------------------------------


def read_text(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most ``max_bytes`` bytes, decoded as strict UTF-8.

    Raises:
        ContentError: the file is missing or unreadable, not a regular file (device, FIFO, directory,
            socket), larger than ``max_bytes``, or not valid UTF-8 (naming the line and byte offset).
    """
    p = os.fspath(path)
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    if "\x00" in p:
        raise ContentError(p.replace("\x00", "\\x00"), 0, "", "", "the path contains a NUL byte",
                           "a path without NUL bytes")
    if not p:  # os.open("") says "No such file or directory" under an empty name
        raise ContentError("", 0, "", "", "an empty path; give a TOML file's path", "a readable regular TOML file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except (OSError, ValueError) as exc:
        raise ContentError(p, 0, "", "", f"cannot read the file: {getattr(exc, 'strerror', None) or exc}",
                           "a readable regular TOML file") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                    else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a file")
            raise ContentError(p, 0, "", "", f"not a regular file ({kind})", "a regular TOML file")
        if st.st_size > max_bytes:
            raise ContentError(p, 0, "", "", f"file of {st.st_size} bytes is too large",
                               f"at most {max_bytes} bytes")
        chunks, total = [], 0
        while True:  # read at most max_bytes + 1 even if the file grows meanwhile
            b = os.read(fd, max_bytes + 1 - total)
            if not b:
                break
            chunks.append(b)
            total += len(b)
            if total > max_bytes:
                raise ContentError(p, 0, "", "", "file is too large", f"at most {max_bytes} bytes")
    except OSError as exc:
        raise ContentError(p, 0, "", "", f"cannot read the file: {exc.strerror or exc}",
                           "a readable regular TOML file") from None
    finally:
        os.close(fd)
    return decode_utf8(b"".join(chunks), p)


def decode_utf8(data: bytes, path: str) -> str:
    """``data`` decoded as strict UTF-8 (a leading byte-order mark is dropped).

    Raises:
        ContentError: invalid UTF-8, naming the line and the byte offset.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ContentError(path, line, "", "", f"byte {exc.start} (0x{data[exc.start]:02x}) is not valid UTF-8",
                           "UTF-8 text") from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_toml(text: str, path: str, max_depth: int = MAX_DEPTH, int_limit: int = INT_LIMIT,
               label: str = "item", max_keys: int = MAX_KEYS, refuse_big_ints: bool = True) -> dict:
    """Parse TOML text and check its nesting depth, its keys, every integer and every string.

    Before ``tomllib`` runs, the text is scanned (strings and comments skipped) for bracket nesting deeper
    than ``max_depth + 2``, a dotted key of more than ``max_depth + 2`` parts and more than ``max_keys``
    keys, so no input reaches the parser's recursion limit or its quadratic cost in a dotted key's depth.

    Raises:
        ContentError: a syntax error (with its line), nesting deeper than ``max_depth``, too deep a dotted
            key, too many keys, an integer outside ``-int_limit .. int_limit`` or with too many digits, or
            a string or key holding a control character (naming the dotted key path from the nearest table
            with a string ``id``, which is named as the item with the word ``label``).  With
            ``refuse_big_ints=False`` an integer outside ``-int_limit .. int_limit`` is kept, for a loader
            that bounds every integer it reads to refuse with the field's own range (an integer too long to
            read at all is refused still).
    """
    _precheck(text, path, max_depth, max_keys)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ContentError(path, int(m.group(1)) if m else 0, "", "", f"TOML syntax error: {exc}",
                           "TOML 1.0 syntax") from None
    except RecursionError:
        raise ContentError(path, 0, "", "", "tables or arrays nested too deeply",
                           f"at most {max_depth} levels") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise ContentError(path, 0, "", "", f"value cannot be read: {exc}",
                           f"integers from {-int_limit} to {int_limit}") from None
    _check_tree(data, text, path, max_depth, int_limit if refuse_big_ints else None, label)
    return data


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+:")


def _precheck(text: str, path: str, max_depth: int, max_keys: int = MAX_KEYS) -> None:
    """Reject, on the text and before the parser runs: bracket nesting deeper than ``max_depth + 2``, a
    chain of more than ``max_depth + 2`` dotted parts (``a.b.c`` is 3; bare or quoted parts, spaces allowed
    around the dots; a float such as ``1.5`` is a chain of 2), and more than ``max_keys`` keys (each ``=``
    and each table header counts).

    Strings and comments are skipped.  This keeps the parser away from Python's recursion limit and from
    its cost quadratic in a dotted key's depth; :func:`_check_tree` applies the exact depth limit to the
    parsed data (dotted keys nest too).
    """
    limit = max_depth + 2
    depth, keys, i, n = 0, 0, 0, len(text)
    chain, dot, token, blank = 0, False, False, True  # dotted parts so far; a dot pending; in a bare part;
    #                                                   only spaces so far on this line

    def where() -> int:
        return text.count("\n", 0, i) + 1

    def part_starts() -> None:
        nonlocal chain, dot
        chain = chain + 1 if dot else 1
        dot = False
        if chain > limit:
            raise ContentError(path, where(), "", "", f"a dotted key of more than {limit} parts: tables "
                               "nested too deeply", f"at most {max_depth} levels")

    while i < n:
        ch = text[i]
        if ch in _BARE:
            if not token:
                part_starts()
                token = True
            blank = False
            i += 1
            continue
        token = False
        if ch in " \t":
            i += 1
            continue
        if ch == ".":
            dot = chain > 0
        elif ch in "\"'":
            part_starts()
            triple = text.startswith(ch * 3, i)
            close = ch * 3 if triple else ch
            j = i + len(close)
            while j < n:
                if ch == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(close, j) or (not triple and text[j] == "\n"):
                    break
                j += 1
            i = j + len(close)
            blank = False
            continue
        else:
            chain, dot = 0, False
            if ch in "[{":
                if ch == "[" and blank and depth == 0:
                    keys += 1  # a table header
                depth += 1
                if depth > limit:
                    raise ContentError(path, where(), "", "", "tables or arrays nested too deeply",
                                       f"at most {max_depth} levels")
            elif ch in "]}":
                depth = max(0, depth - 1)
            elif ch == "=":
                keys += 1
            elif ch == "#":
                j = text.find("\n", i)
                i = n if j < 0 else j
                continue
            if keys > max_keys:
                raise ContentError(path, where(), "", "", f"more than {max_keys} keys", f"at most {max_keys} keys")
        blank = ch == "\n" or (blank and ch == "[")
        i += 1


def _check_tree(data: Any, text: str, path: str, max_depth: int, int_limit: int | None, label: str) -> None:
    """Exact depth and integer limits over the parsed data (``int_limit=None``: integers unchecked); a table in
    an array (``[[tiles]]``) with a string ``id`` names the item, and the field is the key path inside it."""
    stack: list[tuple[Any, str, str, int, bool]] = [(data, "", "", 0, False)]
    while stack:
        v, item, key, depth, in_list = stack.pop()
        if isinstance(v, (dict, list)) and depth > max_depth:
            raise ContentError(path, 0, item, key, "tables or arrays nested too deeply",
                               f"at most {max_depth} levels", label)
        if isinstance(v, dict):
            if in_list and isinstance(v.get("id"), str) and not _CONTROL.search(v["id"]):
                item, key = v["id"], ""
            for k in v:
                if _CONTROL.search(k):
                    raise ContentError(path, 0, item, f"{key}.{_shown(k)}" if key else _shown(k),
                                       "the key holds a control character", _NO_CONTROL, label)
            stack.extend((x, item, f"{key}.{k}" if key else str(k), depth + 1, False) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, item, f"{key}[{i}]", depth + 1, True) for i, x in enumerate(v))
        elif (int_limit is not None and isinstance(v, int) and not isinstance(v, bool)
              and not -int_limit <= v <= int_limit):
            raise ContentError(path, _value_line(text, key, str(v)), item, key,
                               f"integer {short_repr(v)} is too {'small' if v < 0 else 'large'}",
                               f"integers from {-int_limit} to {int_limit}", label)
        elif isinstance(v, str) and _CONTROL_IN_TEXT.search(v):
            c = _CONTROL_IN_TEXT.search(v).group()
            raise ContentError(path, _value_line(text, key, ""), item, key,
                               f"the string {short_repr(v)} holds the control character U+{ord(c):04X}", _NO_CONTROL,
                               label)
        elif isinstance(v, float) and not math.isfinite(v):
            raise ContentError(path, _value_line(text, key, ""), item, key, f"{v} is not a finite number",
                               "finite numbers", label)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # a string value may hold tabs and newlines
_NO_CONTROL = "text without control characters (U+0000-U+001F but tab and newline, U+007F-U+009F)"


def _shown(text: str) -> str:
    """``text`` with control characters (and any non-ASCII character) written as escapes, safe to print."""
    return text.encode("unicode_escape").decode("ascii")[:60]


def _value_line(text: str, key: str, value: str) -> int:
    """Best-effort line of ``key = ... value`` (0 when not found)."""
    name = re.split(r"[.\[]", key.rsplit(".", 1)[-1])[0] if key else ""
    if not name:
        return 0
    pat = re.compile(rf"\s*[\"']?{re.escape(name)}[\"']?\s*=.*{re.escape(value[:30])}")
    for i, ln in enumerate(text.splitlines()):
        if pat.match(ln):
            return i + 1
    return 0


@dataclass(frozen=True, eq=False)
class TomlFile:
    """A content file read and parsed by :func:`load_toml`.

    Attributes:
        path: the file name used in messages.
        text: the decoded text.
        data: the parsed top-level table.
        digest: SHA-256 of the text (hex); caches key on ``(path, digest)`` so an edited file is reloaded.
    """

    path: str
    text: str
    data: dict
    digest: str
    lines: tuple[str, ...] = field(repr=False, default=())

    def line_of(self, key: str, start: int = 1, stop: int | None = None) -> int:
        """1-based line of the first ``key = ...`` in lines ``start .. stop-1`` (0 when not found)."""
        lines = self.lines or tuple(self.text.splitlines())
        pat = re.compile(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for i in range(max(start, 1) - 1, len(lines) if stop is None else min(stop - 1, len(lines))):
            if pat.match(lines[i]):
                return i + 1
        return 0

    def header_lines(self, name: str, array: bool = True) -> list[int]:
        """1-based lines of every ``[[name]]`` header (``array=False``: ``[name]``)."""
        lines = self.lines or tuple(self.text.splitlines())
        pat = re.compile(rf"\s*\[\[\s*{re.escape(name)}\s*\]\]" if array else rf"\s*\[\s*{re.escape(name)}\s*\]")
        return [i + 1 for i, ln in enumerate(lines) if pat.match(ln)]


def _make(path: str, text: str, max_depth: int, int_limit: int, label: str, refuse_big_ints: bool) -> TomlFile:
    data = parse_toml(text, path, max_depth, int_limit, label, refuse_big_ints=refuse_big_ints)
    return TomlFile(path, text, data, hashlib.sha256(text.encode("utf-8")).hexdigest(),
                    tuple(text.splitlines()))


def load_toml(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH,
              int_limit: int = INT_LIMIT, label: str = "item", refuse_big_ints: bool = True) -> TomlFile:
    """Read (:func:`read_text`) and parse (:func:`parse_toml`) one TOML file.

    An integer outside ``-int_limit .. int_limit`` is refused here, or with ``refuse_big_ints=False`` kept for
    a loader that bounds every integer it reads to refuse with the field's own range (see the module's text).

    Raises:
        ContentError: anything :func:`read_text` or :func:`parse_toml` refuses.
    """
    p = os.fspath(path)
    return _make(p, read_text(p, max_bytes), max_depth, int_limit, label, refuse_big_ints)


def load_toml_resource(package: str, *parts: str, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH,
                       int_limit: int = INT_LIMIT, label: str = "item", refuse_big_ints: bool = True) -> TomlFile:
    """Read and parse a TOML file shipped in ``package`` (``importlib.resources``), e.g.
    ``load_toml_resource("monolith_envs.arena", "data", "dragon_empire.toml")``.

    Raises:
        ContentError: as :func:`load_toml`.
    """
    res = importlib.resources.files(package).joinpath(*parts)
    p = str(res)
    try:
        data = res.read_bytes()
    except OSError as exc:
        raise ContentError(p, 0, "", "", f"cannot read the file: {exc.strerror or exc}", "a shipped TOML file") from None
    if len(data) > max_bytes:
        raise ContentError(p, 0, "", "", f"file of {len(data)} bytes is too large", f"at most {max_bytes} bytes")
    return _make(p, decode_utf8(data, p), max_depth, int_limit, label, refuse_big_ints)


def is_int(v: Any) -> bool:
    """Whether ``v`` is an integer as TOML or JSON gives one (an ``int``, not a ``bool``)."""
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


# ---------------------------------------------------------------------------------------------------
# Where an item's field is written (for the line of an error)
# ---------------------------------------------------------------------------------------------------

# linear: one quantifier over the name, and a name never holds a comma (an array's element is no header)
_HEADER = re.compile(r"\s*(\[\[?)([\w.\"' -]*)\]\]?\s*(?:#.*)?$")


def _table_name(line: str) -> str | None:
    """The table name of a ``[name]`` / ``[[name]]`` header line (quotes and spaces dropped), else None."""
    m = _HEADER.match(line)
    return None if m is None else m.group(2).replace('"', "").replace("'", "").replace(" ", "")


def item_line(path: str, item: str, field_name: str) -> int:
    """Best-effort 1-based line of ``field_name`` of ``item`` in the TOML file at ``path``, for the line of a
    :class:`ContentError` raised after the file was parsed; 0 when it is not found (or the file cannot be
    read again); never raises. ``item`` is an error's item as the content readers name it: ``"[track]"`` (a
    table), ``"space #3"`` or ``"board_card[3]"`` (the 4th ``[[space]]`` / ``[[board_card]]``), ``"card D06"``
    or ``"board card 'SR1'"`` (the ``[[card]]`` / ``[[board_card]]`` whose ``id`` is that), optionally
    followed by ``"effect[1]"`` (its 2nd ``[[...effect]]`` sub-table); ``field_name``'s first part (before
    ``.`` or ``[``) is looked up in that table, else the item's last word (an inline table's key), else the
    table's own line is given. An item that names no table of the file (``"quadrant 2"``, ``"file"``) is 0."""
    try:
        lines = read_text(path).splitlines()
    except (ContentError, OSError, ValueError):
        return 0
    heads = [(i, name) for i, ln in enumerate(lines) if (name := _table_name(ln)) is not None]
    tops = [(i, name) for i, name in heads if "." not in name]

    def block_end(start: int, name: str) -> int:
        return next((i for i, n in heads if i > start and not n.startswith(name + ".")), len(lines))

    start = kind = None
    if re.fullmatch(r"\[[\w.]+\]", item):
        kind = item[1:-1]
        start = next((i for i, name in heads if name == kind), None)
    elif (m := re.match(r"(\w+)\[(\d+)\]", item) or re.match(r"([\w ]+?) #(\d+)", item)):
        kind = m.group(1).strip().replace(" ", "_")
        of_kind = [i for i, name in tops if name == kind]
        start = of_kind[int(m.group(2))] if int(m.group(2)) < len(of_kind) else None
    elif item != "file" and len(item.split()) >= 2:
        quoted = re.search(r"'([^']*)'", item)
        words = item[:quoted.start()].split() if quoted else item.split()[:1]
        ident = quoted.group(1) if quoted else item.split()[1]
        kind = "_".join(words)
        pat = re.compile(rf"\s*id\s*=\s*[\"']?{re.escape(ident)}[\"']?\s*(#.*)?$")
        for top, name in tops:  # the table of that kind whose id is that
            if name == kind and any(pat.match(lines[i]) for i in range(top + 1, block_end(top, name))):
                start = top
                break
    if start is None or kind is None:
        return 0
    stop = block_end(start, kind)
    sub = re.search(r"(\w+)\[(\d+)\]\s*$", item)
    if sub and sub.start() > 0:  # the k-th sub-table of that name inside the table
        subs = [i for i, name in heads if start < i < stop and name == f"{kind}.{sub.group(1)}"]
        if int(sub.group(2)) < len(subs):
            start = subs[int(sub.group(2))]
            stop = next((i for i, _ in heads if i > start), stop)
    for key in (re.split(r"[.\[]", field_name, maxsplit=1)[0], item.split()[-1]):
        pat = re.compile(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=")
        found = next((i for i in range(start, stop) if key and pat.match(lines[i])), None)
        if found is not None:
            return found + 1
    return start + 1
