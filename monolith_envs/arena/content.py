"""Monolith Arena content: faction TOML files parsed into frozen dataclasses (docs/monolith_arena.md §5,
ARCHITECTURE §5).

One TOML file per faction (schema: §5.2) names its tiles and, for Runes, Banner auras and Orders, effects
from the small vocabulary of §5.3.  :func:`load_content` reads and validates a list of such files and
assigns global type ids (faction offset + local index, faction order = order of the files).  The reference
content (§5.4) gives Dragon Empire 0-14, Lords of the Abyss 15-31, Guardians of the Realm 32-50 and
Harbingers of the Forest 51-66, so ``T = 67``.

Files are read by :mod:`monolith_envs.core.content` (regular files only, at most 1 MiB, UTF-8, nesting and
integer limits) and validated by :mod:`.content_parse` against :mod:`.content_schema` (bounds on every
number: :data:`BOUNDS`).  Every problem raises :class:`ContentError`, whose message names the file, the
line, the tile id, the field, and what is allowed there.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence

from ..core.content import TomlFile, load_toml, load_toml_resource
from .content_parse import faction_id_line, parse_faction
from .content_schema import (
    AURA_EFFECTS,
    BOARD_KINDS,
    BOUNDS,
    FEATURES,
    HAND_TILES,
    KINDS,
    MAX_CHOICE_OPTIONS,
    MAX_TYPES_PER_FACTION,
    ORDER_EFFECTS,
    REFERENCE_FILES,
    Content,
    ContentError,
    Effect,
    Faction,
    TileType,
)

# the public names: the schema's (re-exported) and the loader
__all__ = ["AURA_EFFECTS", "BOARD_KINDS", "BOUNDS", "FEATURES", "HAND_TILES", "KINDS", "MAX_CHOICE_OPTIONS",
           "MAX_TYPES_PER_FACTION", "ORDER_EFFECTS", "REFERENCE_FILES", "Content", "ContentError", "Effect",
           "Faction", "TileType", "load_content"]


@functools.lru_cache(maxsize=1)
def _reference_files() -> tuple[TomlFile, ...]:
    """The shipped reference files, read once (package data does not change while running)."""
    return tuple(load_toml_resource("monolith_envs.arena", "data", n, label="tile", refuse_big_ints=False) for n in REFERENCE_FILES)


def _build(files: tuple[TomlFile, ...]) -> Content:
    factions: list[Faction] = []
    seen_ids: dict[str, str] = {}
    seen_factions: dict[str, str] = {}
    offset = 0
    for i, file in enumerate(files):
        f = parse_faction(file, i, offset, seen_ids)
        if f.id in seen_factions:
            raise ContentError(file.path, faction_id_line(file), "", "faction.id",
                               f"duplicate faction id {f.id!r} (already in {seen_factions[f.id]})",
                               "faction ids unique across files")
        seen_factions[f.id] = file.path
        factions.append(f)
        offset += len(f.types)
    types = tuple(t for f in factions for t in f.types)
    return Content(factions=tuple(factions), types=types)


def _cached(files: tuple[TomlFile, ...]) -> Content:
    """Content of ``files``, cached on ``(path, SHA-256 of the text)`` per file (the last 32 lists)."""
    keys = tuple((f.path, f.digest) for f in files)
    hit = _CACHE.get(keys)
    if hit is None:
        hit = _build(files)
        _CACHE[keys] = hit
        while len(_CACHE) > 32:
            _CACHE.pop(next(iter(_CACHE)))
    return hit


_CACHE: dict[tuple[tuple[str, str], ...], Content] = {}


def load_content(paths: Sequence[str | os.PathLike] | None = None) -> Content:
    """Load and validate faction files (docs/monolith_arena.md §5.2-§5.4).

    Args:
        paths: TOML files, one faction each, in faction order (global type ids follow this order).
            ``None`` loads the four reference files :data:`REFERENCE_FILES` shipped in
            ``monolith_envs/arena/data`` (read via ``importlib.resources``).

    Returns:
        The :class:`Content`; cached per list of paths and file contents: the same object while the files
        are unchanged, a fresh load after a file was edited.

    Raises:
        ContentError: a file that is missing, unreadable, not a regular file (a device, a FIFO, a
            directory), above 1 MiB, not UTF-8, not TOML, nested too deeply, or holding an integer beyond
            a C int; missing ``[faction]`` keys, not exactly one banner, more than 20 types, counts not
            summing to 35, duplicate tile ids, unknown kind, field, feature, effect or parameter, a number
            outside :data:`BOUNDS`, edges outside 0-5, bad ``who``/``kinds``/``scope``, a ``choice`` with
            more than 5 options or nested, an Order without ``order`` (or a Board tile with one), a Rune
            with neither ``connect`` nor ``boundless``, a file listed twice.  The message names the file, line, tile id and
            field, and what is allowed.
    """
    if paths is None:
        return _cached(_reference_files())
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ContentError("<faction_files>", 0, "", "", "no faction files given", "at least one file")
    docs = tuple(load_toml(p, label="tile", refuse_big_ints=False) for p in paths)  # each path checked and read first
    seen: dict[str, str] = {}
    for p in paths:
        key = os.path.realpath(p)
        if key in seen:
            raise ContentError(p, 0, "", "", f"faction file listed twice ({seen[key]!r} and {p!r})",
                               "each faction file once")
        seen[key] = p
    return _cached(docs)
