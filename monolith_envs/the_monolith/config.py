"""Configuration keys of ``the_monolith_v0`` (docs/the_monolith.md §1) and their cross checks."""

from __future__ import annotations

import os
from typing import Any, Mapping

import numpy as np

from ..core.config import (
    C_INT_MAX,
    ConfigError,
    ConfigKey,
    int_range,
    is_integral,
    number_range,
    one_of,
    validate_config,
)

__all__ = ["ENV_ID", "CONFIG_KEYS", "validate"]

ENV_ID = "the_monolith_v0"


_SHAMAN_ID = int_range(0, 63)


def _int_list(v: Any) -> str | None:
    """A list, tuple or 1-D numpy array of integers 0..63 (numpy's too, not booleans)."""
    if isinstance(v, np.ndarray) and v.ndim == 1:
        v = v.tolist()
    if isinstance(v, (list, tuple)) and all(_SHAMAN_ID(x) is None for x in v):
        return None
    return "a list of shaman ids (integers 0..63)"


MAX_WEIGHT = 1e6
"""Bound of each tower weight (only their ratios matter)."""

SCORE_SCALE_RANGE = (1e-6, 1e6)
"""Bounds of ``score_scale``: with favour below the state bound of 10**6, every ``score`` return stays below
10**12 in magnitude (finite in float32)."""


_WEIGHT = number_range(0.0, MAX_WEIGHT)


def _weights(v: Any) -> str | None:
    """A list, tuple or 1-D numpy array of 3 real numbers (numpy's too, not booleans) in range, positive sum."""
    if isinstance(v, np.ndarray) and v.shape == (3,):
        v = v.tolist()
    ok = isinstance(v, (list, tuple)) and len(v) == 3 and all(_WEIGHT(x) is None for x in v) and sum(v) > 0
    return None if ok else f"3 numbers from 0 to {MAX_WEIGHT:g} with a positive sum"


def _path(v: Any) -> str | None:
    return None if v is None or isinstance(v, str) or isinstance(v, os.PathLike) else "None or a file path"


def _first(v: Any) -> str | None:
    return None if is_integral(v) and -1 <= v <= 3 else "-1 (random) or a seat 0..3"


CONFIG_KEYS: tuple[ConfigKey, ...] = (
    ConfigKey("num_players", 4, "seats: 4, 3 (Ashen quadrant locked) or 2 (variant, §4.11)", one_of(2, 3, 4)),
    ConfigKey("shaman_assignment", "random", "random, fixed or draft (§3, §4.10)", one_of("random", "fixed", "draft")),
    ConfigKey("shamans", [], "shaman ids, one per seat, for 'fixed'", _int_list),
    ConfigKey("shaman_pool", [0, 1, 2, 3, 4, 5], "shamans that random and draft may use", _int_list),
    ConfigKey("first_player", -1, "-1 = random, else the seat", _first),
    ConfigKey("num_days", 4, "days; the game ends in the rest phase of the last", int_range(1, 8)),
    ConfigKey("div_row_size", 0, "cards dealt to the divination row each day (0 = num_players)", int_range(0, 5)),
    ConfigKey("tower_weights", [1 / 3, 1 / 3, 1 / 3], "landing weights for slay, maneuver, boast (§4.9)", _weights),
    ConfigKey("tower_retention", 0.0, "chance that a heart dropped today sticks until the next lift",
              number_range(0.0, 1.0)),
    ConfigKey("draft_max_bid", 6, "highest bid in the shaman draft", int_range(0, 10)),
    ConfigKey("reward_mode", "win_loss", "win_loss, rank or score (§8)", one_of("win_loss", "rank", "score")),
    ConfigKey("score_scale", 0.02, "scale of score rewards (1e-6 to 1e6)", number_range(*SCORE_SCALE_RANGE)),
    ConfigKey("max_decisions", 5000, "truncation limit (decisions per episode; at most 2**31-1)",
              int_range(1, C_INT_MAX)),
    ConfigKey("map_file", None, "map TOML (None = data/map.toml)", _path),
    ConfigKey("shaman_file", None, "shamans TOML (None = data/shamans.toml)", _path),
    ConfigKey("divination_file", None, "divinations TOML (None = data/divinations.toml)", _path),
    ConfigKey("event_file", None, "events TOML (None = data/events.toml)", _path),
    ConfigKey("objective_file", None, "objectives TOML (None = data/objectives.toml)", _path),
)


def _cross(cfg: dict) -> None:
    n = cfg["num_players"]
    cfg["shamans"] = [int(x) for x in cfg["shamans"]]
    cfg["shaman_pool"] = [int(x) for x in cfg["shaman_pool"]]
    cfg["tower_weights"] = [float(x) for x in cfg["tower_weights"]]
    cfg["tower_retention"] = float(cfg["tower_retention"])
    cfg["score_scale"] = float(cfg["score_scale"])
    if cfg["first_player"] >= n:
        raise ConfigError(f"{ENV_ID}: first_player={cfg['first_player']} but there are {n} seats")
    if cfg["shaman_assignment"] == "fixed":
        sh = cfg["shamans"]
        if len(sh) != n or len(set(sh)) != n:
            raise ConfigError(f"{ENV_ID}: shaman_assignment='fixed' needs shamans = {n} distinct ids, got {sh}")
    elif cfg["shamans"]:  # it would be ignored: the shamans are drawn or drafted
        raise ConfigError(f"{ENV_ID}: shamans={cfg['shamans']} sets each seat's shaman only with "
                          f"shaman_assignment='fixed' (this config is {cfg['shaman_assignment']!r}, where the "
                          "shamans are drawn or drafted from shaman_pool): add shaman_assignment='fixed' or leave "
                          "shamans out")
    pool = cfg["shaman_pool"]
    if len(set(pool)) != len(pool) or len(pool) < n:
        raise ConfigError(f"{ENV_ID}: shaman_pool needs at least {n} distinct ids, got {pool}")
    for k in ("map_file", "shaman_file", "divination_file", "event_file", "objective_file"):
        if cfg[k] is not None:
            cfg[k] = os.fspath(cfg[k])


def validate(given: Mapping[str, Any] | None) -> dict:
    """Validated config dict with every key of :data:`CONFIG_KEYS` (shaman ids are checked against the
    loaded content by the game).

    Raises:
        ConfigError: unknown key, bad value, or a bad combination.
    """
    return validate_config(ENV_ID, CONFIG_KEYS, given, _cross)
