"""Which pretrained baselines the package ships, which one plays a given config, and loading them.

The files live in ``monolith_envs/baselines/`` (package data): one ``<name>.pt`` per network (see
:mod:`monolith_envs.agents.baselines.net`) and ``index.json``, the list of them, written by
``python -m training.export_baseline``::

    {"format": "monolith-envs-baseline-index", "baselines": [
        {"name": "arena_2p", "file": "arena_2p.pt", "sha256": "...", "env_id": "monolith_arena_v0",
         "select": {"num_players": 2, "mode": "duel"}, "env_config": {...}}, ...]}

A baseline plays a game whose env id matches and whose config has the values of ``select`` (the number of
seats, and Arena's ``mode``); other config keys may differ as long as the observation and action sizes are
those of the network.  A file is loaded only when its SHA-256 is the one the index records, and then only
as plain tensors (``torch.load(weights_only=True)``).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
from pathlib import Path
from typing import Any

from ..base import AgentError
from ..model_files import ModelFileError, read_capped

__all__ = ["INDEX_FORMAT", "NoBaselineError", "SELECT_KEYS", "add_to_index", "baseline_dir", "checked_bytes", "find_baseline", "list_baselines",
           "load_baseline", "select_of"]

INDEX_FORMAT = "monolith-envs-baseline-index"
#: the config keys that choose a baseline (when the game has them)
SELECT_KEYS = ("num_players", "mode")
_MAX_INDEX_BYTES = 2**20
_CACHE: dict[tuple[str, str], tuple[Any, dict]] = {}


class NoBaselineError(AgentError):
    """No shipped baseline plays this env id and config (the message lists the configs that have one)."""


def baseline_dir() -> Path:
    """The folder of the shipped baseline files (``monolith_envs/baselines``)."""
    return Path(str(importlib.resources.files("monolith_envs").joinpath("baselines")))


def list_baselines(root: str | Path | None = None) -> list[dict]:
    """The entries of ``index.json`` in ``root`` (default: :func:`baseline_dir`); ``[]`` when there is none.

    Raises:
        ModelFileError: an index that is not a readable JSON object of this format, or an entry without a
            name, file, sha256, env id and select of the right types.
    """
    path = Path(root if root is not None else baseline_dir()) / "index.json"
    if not path.is_file():
        return []
    try:
        index = json.loads(read_capped(path, _MAX_INDEX_BYTES).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise ModelFileError(f"{path}: not a readable JSON index ({type(e).__name__})") from None
    if not (isinstance(index, dict) and index.get("format") == INDEX_FORMAT and isinstance(index.get("baselines"), list)):
        raise ModelFileError(f"{path}: not a baseline index (format {INDEX_FORMAT!r} with a 'baselines' list)")
    out = []
    for e in index["baselines"]:
        ok = (isinstance(e, dict) and all(isinstance(e.get(k), str) for k in ("name", "file", "sha256", "env_id"))
              and isinstance(e.get("select"), dict) and "/" not in e["file"] and "\\" not in e["file"]
              and not e["file"].startswith("."))
        if not ok:
            raise ModelFileError(f"{path}: an entry needs str name, file (a plain file name), sha256, env_id and "
                                 f"a select dict, got {str(e)[:120]}")
        out.append(e)
    return out


def select_of(config: dict) -> dict:
    """The values of ``config`` that choose a baseline (:data:`SELECT_KEYS` present in it)."""
    return {k: config[k] for k in SELECT_KEYS if k in config}


def _describe(entries: list[dict]) -> str:
    if not entries:
        return "none (no baseline is installed)"
    return ", ".join(f"{e['env_id']} with " + " ".join(f"{k}={v}" for k, v in e["select"].items())
                     + f" ({e['name']})" for e in entries)


def find_baseline(env_id: str, config: dict | None = None, root: str | Path | None = None) -> dict:
    """The index entry of the baseline for ``env_id`` and ``config`` (a full game config, e.g.
    ``game.config``; ``None``: any baseline of ``env_id``, the first one listed).

    Raises:
        NoBaselineError: none matches; the message names the configs that have one.
    """
    entries = list_baselines(root)
    for e in entries:
        if e["env_id"] != env_id:
            continue
        if config is None or all(config.get(k) == v for k, v in e["select"].items()):
            return e
    if config is None:
        wanted = ""
    elif chosen := select_of(config):
        wanted = " with " + " ".join(f"{k}={v}" for k, v in chosen.items())
    else:
        wanted = (f" with a config that sets none of {', '.join(SELECT_KEYS)} "
                  "(give the game's full config, game.config)")
    same = [e for e in entries if e["env_id"] == env_id]
    hint = ("" if not same else "; play one of those configs, e.g. "
            + " ".join(f"--set {k}={_toml(v)}" for k, v in same[0]["select"].items())
            + " (training.evaluate, agents.play) or make(env_id, " + ", ".join(f"{k}={v!r}" for k, v in
                                                                             same[0]["select"].items())
            + ") (in Python: the same keywords for make_vec and gymnasium.make)")
    # the baselines of this env id when it has some (the whole list of every game's ran past a one-line error)
    have = (f"{env_id} has baselines for: " + ", ".join(" ".join(f"{k}={v}" for k, v in e["select"].items())
                                                        + f" ({e['name']})" for e in same)
            if same else f"baselines exist for: {_describe(entries)}")
    raise NoBaselineError(f"no baseline for {env_id}{wanted}; {have}{hint}")


def _toml(v: Any) -> str:
    """``v`` as a ``--set`` value reads it back (TOML: ``true``, ``4``, ``teams``)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def load_baseline(entry: dict, root: str | Path | None = None) -> tuple[Any, dict]:
    """The network and metadata of an index entry (cached per file and checksum; float32, eval mode).

    Raises:
        AgentError: torch is not installed (the ``[train]`` extra).
        FileNotFoundError: the file is missing.
        ModelFileError: the file's SHA-256 differs from the index's (it was changed), or
            :func:`~monolith_envs.agents.baselines.net.load_baseline_file` refuses it.
    """
    try:
        from .net import MAX_FILE_BYTES, load_baseline_file
    except ImportError as e:
        raise AgentError(f"baseline agents need torch ({e}): pip install 'monolith-envs[train]' "
                         "(in the repository: pip install -e '.[train]')") from None
    path = Path(root if root is not None else baseline_dir()) / entry["file"]
    key = (str(path), entry["sha256"])
    if key in _CACHE:
        return _CACHE[key]
    _CACHE[key] = load_baseline_file(path, checked_bytes(entry, root, MAX_FILE_BYTES))
    return _CACHE[key]


def checked_bytes(entry: dict, root: str | Path | None = None, limit: int | None = None) -> bytes:
    """The bytes of an index entry's file (at most ``limit`` bytes read; default the loader's
    ``MAX_FILE_BYTES``), once their SHA-256 matches the entry's: what every reader of a baseline loads from.

    Raises:
        FileNotFoundError: the file is missing.
        ModelFileError: the file is larger than ``limit``, or its SHA-256 differs from the index's (it was
            changed; nothing is loaded).
    """
    if limit is None:
        from .net import MAX_FILE_BYTES as limit
    path = Path(root if root is not None else baseline_dir()) / entry["file"]
    data = read_capped(path, limit)
    digest = hashlib.sha256(data).hexdigest()
    if digest != entry["sha256"]:
        raise ModelFileError(f"{path}: SHA-256 {digest[:16]}... differs from the {entry['sha256'][:16]}... recorded "
                             "in index.json (the file was changed); nothing was loaded")
    return data


def add_to_index(root: str | Path, entry: dict) -> Path:
    """Add ``entry`` to ``root/index.json`` (created if missing), replacing the entries with the same name or the
    same env id and ``select`` (one baseline per config); the file is rewritten whole (a temporary file, then a
    rename).  Returns the index path.

    Raises:
        ModelFileError: an existing index that cannot be read (see :func:`list_baselines`).
    """
    root = Path(root)
    entries = [e for e in list_baselines(root)
               if e["name"] != entry["name"] and not (e["env_id"] == entry["env_id"] and e["select"] == entry["select"])]
    index = {"format": INDEX_FORMAT, "baselines": sorted(entries + [dict(entry)], key=lambda e: e["name"])}
    tmp = root / "index.json.tmp"
    tmp.write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")
    return tmp.replace(root / "index.json")
