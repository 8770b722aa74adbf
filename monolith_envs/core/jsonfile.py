"""JSON files read as data: through the bounded reader of content files (a regular file, a size cap, strict
UTF-8, a FIFO never blocks), then parsed, with every failure one :class:`ContentError` naming the file."""

from __future__ import annotations

import json
import os
from typing import Any

from .content import MAX_FILE_BYTES, ContentError, read_text

__all__ = ["read_json"]


def read_json(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The JSON value of the file ``path`` (at most ``max_bytes`` bytes).

    Raises:
        ContentError: the file is missing, unreadable, not a regular file (a folder, a FIFO, a device), larger
            than ``max_bytes``, not strict UTF-8, not valid JSON (naming the line), or nested too deeply for
            the parser.
    """
    try:
        text = read_text(path, max_bytes)
    except ContentError as e:  # its "allowed" names a TOML file
        raise ContentError(e.path, e.line, e.item, e.field, e.problem, e.allowed.replace("TOML", "JSON")) from None
    p = os.fsdecode(os.fspath(path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(p, exc.lineno, "", "", f"not valid JSON: {exc.msg}", "a JSON file") from None
    except RecursionError:
        raise ContentError(p, 0, "", "", "JSON nested too deeply",
                           "a JSON file nested a few hundred levels at most") from None
