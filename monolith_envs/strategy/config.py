"""Configuration keys of ``monolith_strategy_v0`` (docs/monolith_strategy.md §1)."""

from __future__ import annotations

from typing import Any, Mapping

from ..core.config import ConfigKey, boolean, int_range, number_range, one_of, validate_config

__all__ = ["ENV_ID", "CONFIG_KEYS", "validate"]

ENV_ID = "monolith_strategy_v0"


def _content_check(v: Any) -> str | None:
    if isinstance(v, str) and v and len(v) < 4096:
        return None
    if hasattr(v, "__fspath__"):
        return None
    return "a content file name inside strategy/data or a path to a TOML file"


CONFIG_KEYS: tuple[ConfigKey, ...] = (
    ConfigKey("num_players", 3, "seats (1-4); 1 = the solo variant", one_of(1, 2, 3, 4)),
    ConfigKey("content", "reference.toml", "content file: a name inside strategy/data or a path", _content_check),
    ConfigKey("intro_layout", False, "multiplayer: Runes 7-12 on positions 7-12; solo: Fate 3.3 and Runes 10, 11, 14",
              boolean()),
    ConfigKey("exalted", True, "Round cards may show their Exalted side (a SIDE decision each round)", boolean()),
    ConfigKey("player_powers", False, "deal one Player Power card to each player", boolean()),
    ConfigKey("reward_mode", "win_loss", "win_loss, rank or score (docs §8)", one_of("win_loss", "rank", "score")),
    ConfigKey("score_scale", 25.0, "divisor of the score reward mode (0.001 to 1e6)", number_range(0.001, 1e6)),
    ConfigKey("max_decisions", 2000, "truncation limit (applied actions per episode)", int_range(1, 10**7)),
    ConfigKey("solo_goal_stone", 4, "solo success: end on or past this toll stone (1-4); left out: the content's "
              "[track] solo_goal_stone (4 for the reference content)", int_range(1, 4)),
)


def _cross(cfg: dict) -> None:
    cfg["num_players"] = int(cfg["num_players"])
    cfg["score_scale"] = float(cfg["score_scale"])
    cfg["content"] = str(cfg["content"])


def validate(given: Mapping[str, Any] | None) -> dict:
    """Validated config dict holding every key of :data:`CONFIG_KEYS`.

    Raises:
        ConfigError: unknown key or bad value.
    """
    return validate_config(ENV_ID, CONFIG_KEYS, given, _cross)
