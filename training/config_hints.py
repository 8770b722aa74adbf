"""What an unknown config key in a ``--set KEY=VALUE`` override likely meant, for the error that names it
(:func:`training.config.apply_overrides`)."""

from __future__ import annotations

import difflib
from typing import Any, Mapping

__all__ = ["unknown_key_hint"]


def unknown_key_hint(cfg: Mapping[str, Any], by_name: Mapping[str, Any], key: str, text: str) -> str:
    """A hint for the unknown key ``key`` (set to ``text``) of a config ``cfg`` whose keys are ``by_name``:
    where a config key of the configured game goes (`` (num_players is a config key of the game ...:
    --set env_config.num_players=4)``), else the key it likely misspells (`` (did you mean
    'total_timesteps'?)``), else ``""``."""
    env_id = cfg.get("env_id")
    if "env_config" in by_name and isinstance(env_id, str):
        try:
            import monolith_envs

            names = {k.name for k in monolith_envs.make_game(env_id).GAME_INFO.config_keys}
        except Exception:  # noqa: BLE001  (an unknown env id is reported by validate; no hint then)
            names = set()
        if key in names:
            return f" ({key} is a config key of the game {env_id}: --set env_config.{key}={text})"
    close = difflib.get_close_matches(key, list(by_name), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""
