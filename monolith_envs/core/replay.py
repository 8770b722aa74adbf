"""Episode logs (env id, config, seed, actions) and their exact replay (ARCHITECTURE §1 ``replay.py``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .game import MonolithEnvError

__all__ = ["EpisodeLog", "LogError", "load_log", "replay_steps", "LOG_FORMAT"]

LOG_FORMAT = "monolith_envs.episode_log/1"


class LogError(MonolithEnvError, ValueError):
    """An episode log that cannot be read or does not replay (names the file, field or step)."""


@dataclass
class EpisodeLog:
    """Everything needed to replay one episode exactly.

    Attributes:
        env_id: registered env id.
        config: the full validated game configuration.
        seed: the episode seed given to ``reset(seed=...)``.
        actions: flat action indices in the order they were applied.
        note: free text (e.g. the failure a fuzz run found).
    """

    env_id: str
    config: dict
    seed: int
    actions: list[int] = field(default_factory=list)
    note: str = ""

    def to_json(self) -> dict:
        """JSON-safe dict (``format`` tag included)."""
        return {
            "format": LOG_FORMAT,
            "env_id": self.env_id,
            "config": self.config,
            "seed": int(self.seed),
            "actions": [int(a) for a in self.actions],
            "note": self.note,
        }

    def save(self, path: str | Path) -> Path:
        """Write the log as JSON to ``path``; returns the path."""
        path = Path(path)
        path.write_text(json.dumps(self.to_json(), indent=1))
        return path

    @classmethod
    def from_json(cls, data: Any, source: str = "<log>") -> "EpisodeLog":
        """Validate and build a log from parsed JSON.

        Raises:
            LogError: wrong format tag, missing or mistyped field (named with ``source``).
        """
        if not isinstance(data, dict):
            raise LogError(f"{source}: an episode log is a JSON object, got {type(data).__name__}")
        if data.get("format") != LOG_FORMAT:
            raise LogError(f"{source}: field 'format' is {data.get('format')!r}, expected {LOG_FORMAT!r}")
        checks = {"env_id": str, "config": dict, "seed": int, "actions": list}
        for key, typ in checks.items():
            if key not in data:
                raise LogError(f"{source}: missing field {key!r} (fields: format, {', '.join(checks)}, note)")
            if not isinstance(data[key], typ) or isinstance(data[key], bool):
                raise LogError(f"{source}: field {key!r} must be a {typ.__name__}, got {type(data[key]).__name__}")
        for i, a in enumerate(data["actions"]):
            if not isinstance(a, int) or isinstance(a, bool):
                raise LogError(f"{source}: actions[{i}] = {a!r} is not an integer action")
        return cls(data["env_id"], data["config"], data["seed"], list(data["actions"]), str(data.get("note", "")))


def load_log(path: str | Path) -> EpisodeLog:
    """Read an episode log file.

    Raises:
        LogError: missing file, invalid or truncated JSON (with line and column), or bad fields.
    """
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise LogError(f"{path}: cannot read episode log ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg} "
                       "(the file may be truncated or corrupted)") from None
    return EpisodeLog.from_json(data, str(path))


def replay_steps(log: EpisodeLog, make: Callable[..., Any]) -> Iterator[tuple[int, int | None, Any]]:
    """Replay a log step by step.

    Args:
        log: the episode log.
        make: ``make(env_id, **config)`` returning a raw :class:`RulesAECEnv` (e.g. ``monolith_envs.make``
            with ``wrapped=False``).

    Yields:
        ``(step, action, env)`` before each action (``action`` is ``None`` after the last one), so a caller
        can render the state and the action about to be applied.

    Raises:
        LogError: an action that is illegal at its step, or actions left after the episode ended.
    """
    try:
        env = make(log.env_id, **log.config)
    except MonolithEnvError as exc:
        raise LogError(f"log cannot be replayed: {exc}") from None
    env.reset(seed=log.seed)
    for i, a in enumerate(log.actions):
        if env._done:
            raise LogError(f"step {i}: the episode ended before all {len(log.actions)} logged actions were used")
        yield i, a, env
        mask = env._current_mask()
        if not (0 <= a < len(mask)) or not mask[a]:
            legal = env.game.layout.names(mask)[:10]
            raise LogError(f"step {i}: logged action {a} is not legal in the replayed state; legal: {legal}")
        env.step(a)
    yield len(log.actions), None, env
