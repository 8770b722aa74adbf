"""Configuration keys of ``monolith_arena_v0`` (docs/monolith_arena.md §1) and their cross checks."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..core.config import C_INT_MAX, ConfigError, ConfigKey, boolean, int_range, one_of, validate_config
from ..core.words import count

__all__ = ["ENV_ID", "CONFIG_KEYS", "validate"]

ENV_ID = "monolith_arena_v0"


def _factions_check(v: Any) -> str | None:
    """``"random"``, or a list, tuple or 1-D numpy array of faction ids (strings, numpy's too)."""
    if isinstance(v, str):
        return None if v == "random" else '"random" or a list of faction ids (one per seat)'
    if isinstance(v, np.ndarray) and v.ndim == 1:
        v = v.tolist()
    if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return None
    return '"random" or a list of faction ids (one per seat)'


def _paths_check(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, str) or hasattr(x, "__fspath__") for x in v):
        return None
    return "None or a non-empty list of TOML paths"


CONFIG_KEYS: tuple[ConfigKey, ...] = (
    ConfigKey("num_players", 2, "seats (2-4)", one_of(2, 3, 4)),
    ConfigKey("mode", "duel", "duel (2 players), ffa (3-4), teams (exactly 4, 2v2)", one_of("duel", "ffa", "teams")),
    ConfigKey("monolith_module", False, "enable the Monolith module (docs/monolith_arena.md §4.10)", boolean()),
    ConfigKey("reinforcement_variant", False, "hand limit 6, at most 2 tiles used per turn (docs/monolith_arena.md §4.11)", boolean()),
    ConfigKey("factions", "random", '"random" or a list of distinct faction ids, one per seat', _factions_check),
    ConfigKey("faction_files", None, "list of faction TOML paths (None = the 4 reference files)", _paths_check),
    ConfigKey("team_hp", 30, "alliance HP pool in teams mode", int_range(1, 10_000)),
    ConfigKey("reward_mode", "win_loss", "win_loss, rank or score (docs/monolith_arena.md §8)", one_of("win_loss", "rank", "score")),
    ConfigKey("max_decisions", 5000, "truncation limit (applies per episode; at most 2**31-1, a C int of the "
              "compiled observation)", int_range(1, C_INT_MAX)),
)


def _cross(cfg: dict) -> None:
    n, mode = cfg["num_players"], cfg["mode"]
    if mode == "duel" and n != 2:
        raise ConfigError(f"{ENV_ID}: mode='duel' (the default) needs num_players=2, got {n}; with {n} players "
                          f"set mode='ffa'" + (" or 'teams'" if n == 4 else "") + " as well")
    if mode == "ffa" and n not in (3, 4):
        raise ConfigError(f"{ENV_ID}: mode='ffa' needs num_players 3 or 4, got {n}")
    if mode == "teams" and n != 4:
        raise ConfigError(f"{ENV_ID}: mode='teams' needs num_players=4, got {n}")
    if mode != "teams" and cfg["team_hp"] != 30:
        raise ConfigError(f"{ENV_ID}: team_hp={cfg['team_hp']} is the alliance pool of mode='teams' (4 players); "
                          f"this config is mode={mode!r}, where every Banner has its own HP: leave team_hp out")
    f = cfg["factions"]
    if not isinstance(f, str):  # a list, tuple or array of ids: a list of Python strings from here on
        f = [str(x) for x in (f.tolist() if isinstance(f, np.ndarray) else f)]
        if len(f) != n:
            raise ConfigError(f"{ENV_ID}: factions lists {count(len(f), 'id')} for {n} players")
        if len(set(f)) != len(f):
            raise ConfigError(f"{ENV_ID}: factions must be distinct, got {f}")
        cfg["factions"] = f
    if cfg["faction_files"] is not None:
        cfg["faction_files"] = [str(p) for p in cfg["faction_files"]]


def validate(given: Mapping[str, Any] | None) -> dict:
    """Validated config dict with every key of :data:`CONFIG_KEYS` (faction ids are checked against the
    loaded content by :class:`~monolith_envs.arena.game.ArenaGame`).

    Raises:
        ConfigError: unknown key, bad value, or a bad combination (players vs mode, faction list).
    """
    return validate_config(ENV_ID, CONFIG_KEYS, given, _cross)
