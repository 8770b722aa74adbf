"""Episode logs (env id, config, seed, actions, chance events) and their exact replay (ARCHITECTURE §1
``replay.py``).

Format ``monolith_envs.episode_log/2`` adds ``chance``: the draws ``apply`` made, as
:class:`~monolith_envs.core.chance.ChanceEvent` objects ``{"step", "call", "args", "value"}``. Logs of format
``/1`` (no ``chance`` field) are still read; their draws are not checked on replay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .chance import ChanceEvent
from .game import MonolithEnvError

__all__ = ["EpisodeLog", "LogError", "load_log", "replay_steps", "LOG_FORMAT", "READ_FORMATS"]

LOG_FORMAT = "monolith_envs.episode_log/2"
#: Formats :meth:`EpisodeLog.from_json` reads (``/1``: before chance events were logged).
READ_FORMATS = ("monolith_envs.episode_log/1", LOG_FORMAT)


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
        chance: the :class:`ChanceEvent` list of the draws made by ``apply`` (``step`` = index into
            ``actions``), in draw order; ``None`` when the draws are unknown (a log of format ``/1``, or one
            built by hand): then replay does not check them.
    """

    env_id: str
    config: dict
    seed: int
    actions: list[int] = field(default_factory=list)
    note: str = ""
    chance: list[ChanceEvent] | None = None

    def chance_at(self, step: int) -> list[ChanceEvent]:
        """The chance events of decision ``step`` (empty when it drew nothing or the draws are unknown)."""
        return [e for e in (self.chance or ()) if e.step == step]

    def to_json(self) -> dict:
        """JSON-safe dict (``format`` tag included)."""
        return {
            "format": LOG_FORMAT,
            "env_id": self.env_id,
            "config": self.config,
            "seed": int(self.seed),
            "actions": [int(a) for a in self.actions],
            "chance": None if self.chance is None else [e.to_json() for e in self.chance],
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
            LogError: wrong format tag, missing or mistyped field, a malformed chance event, or a chance event
                of a step after the last action (named with ``source``).
        """
        if not isinstance(data, dict):
            raise LogError(f"{source}: an episode log is a JSON object, got {type(data).__name__}")
        if data.get("format") not in READ_FORMATS:
            raise LogError(f"{source}: field 'format' is {data.get('format')!r}, expected one of "
                           f"{', '.join(map(repr, READ_FORMATS))}")
        checks = {"env_id": str, "config": dict, "seed": int, "actions": list}
        for key, typ in checks.items():
            if key not in data:
                raise LogError(f"{source}: missing field {key!r} (fields: format, {', '.join(checks)}, note)")
            if not isinstance(data[key], typ) or isinstance(data[key], bool):
                raise LogError(f"{source}: field {key!r} must be a {typ.__name__}, got {type(data[key]).__name__}")
        for i, a in enumerate(data["actions"]):
            if not isinstance(a, int) or isinstance(a, bool):
                raise LogError(f"{source}: actions[{i}] = {a!r} is not an integer action")
        chance = None
        if data["format"] == LOG_FORMAT:
            raw = data.get("chance")
            if raw is not None and not isinstance(raw, list):
                raise LogError(f"{source}: field 'chance' must be a list of chance events or null, got "
                               f"{type(raw).__name__}")
            chance = None if raw is None else []
            for i, ev in enumerate(raw or ()):
                try:
                    e = ChanceEvent.from_json(ev, f"{source}: chance[{i}]")
                except ValueError as exc:
                    raise LogError(str(exc)) from None
                if e.step >= len(data["actions"]):
                    raise LogError(f"{source}: chance[{i}] belongs to step {e.step}, but the log has only "
                                   f"{len(data['actions'])} actions")
                chance.append(e)
        return cls(data["env_id"], data["config"], data["seed"], list(data["actions"]), str(data.get("note", "")),
                   chance)


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
        can render the state and the action about to be applied; after ``env`` has applied step ``i``, its
        ``env.episode_log.chance_at(i)`` are the draws it made.

    Raises:
        LogError: an action that is illegal at its step, actions left after the episode ended, or (format
            ``/2``) a step whose replayed draws differ from the logged chance events (naming the step, the
            logged and the replayed draws).
    """
    try:
        env = make(log.env_id, **log.config)
    except MonolithEnvError as exc:
        raise LogError(f"log cannot be replayed: {exc}") from None
    env.reset(seed=log.seed)
    logged: dict[int, list[ChanceEvent]] = {}
    for e in log.chance or ():
        logged.setdefault(e.step, []).append(e)
    seen = 0
    for i, a in enumerate(log.actions):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            raise LogError(f"step {i}: the episode ended before all {len(log.actions)} logged actions were used")
        yield i, a, env
        legal = env.legal_actions()
        if a not in legal:
            names = [env.game.layout.decode(int(x)) for x in legal[:10]]
            raise LogError(f"step {i}: logged action {a} is not legal in the replayed state; legal: {names}")
        env.step(a)
        drawn = env.episode_log.chance[seen:]
        seen += len(drawn)
        if log.chance is not None:
            want = logged.get(i, [])
            if [(e.call, e.value) for e in want] != [(e.call, e.value) for e in drawn]:
                raise LogError(f"step {i}: the replayed draws {[str(e) for e in drawn]} differ from the logged "
                               f"chance events {[str(e) for e in want]}")
    yield len(log.actions), None, env
