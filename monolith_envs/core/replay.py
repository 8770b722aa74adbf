"""Episode logs (env id, config, seed, actions, chance events) and their exact replay (ARCHITECTURE §1
``replay.py``).

Format ``monolith_envs.episode_log/2`` adds ``chance``: the draws ``apply`` made, as
:class:`~monolith_envs.core.chance.ChanceEvent` objects ``{"step", "call", "args", "value"}``. Logs of format
``/1`` (no ``chance`` field) are still read; their draws are not checked on replay.  The format is documented
in docs/episode_log.md.

Reading is strict: a regular file of at most :data:`MAX_LOG_BYTES`, UTF-8, JSON nested at most
:data:`MAX_DEPTH` deep, every field of the right type and range (a seed from 0 to :data:`MAX_SEED`, actions
from 0 to the game's last action).  Every problem is a one-line :class:`LogError` naming the file and the
field.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .chance import ChanceEvent
from .config import short_repr
from .game import MonolithEnvError
from .outfiles import write_text_atomic
from .seeds import MAX_SEED  # the one seed bound of every entry point

__all__ = ["EngineRaised", "EpisodeLog", "LogError", "load_log", "replay_steps", "printable", "LOG_FORMAT", "READ_FORMATS",
           "MAX_SEED", "MAX_LOG_BYTES", "MAX_LOG_NUMBERS", "RESERVED_CONFIG_KEYS", "unique_keys"]

LOG_FORMAT = "monolith_envs.episode_log/2"
#: Formats :meth:`EpisodeLog.from_json` reads (``/1``: before chance events were logged).
READ_FORMATS = ("monolith_envs.episode_log/1", LOG_FORMAT)
MAX_LOG_BYTES = 64 << 20
"""Size cap of an episode log file (64 MiB, room for the :data:`MAX_LOG_NUMBERS` numbers a log may hold; a
5,000-decision Arena log is about 30 KiB). Reading one takes some 6 times its size in memory."""
MAX_DEPTH = 32
"""Deepest JSON nesting accepted (a log is 4 levels deep)."""
MAX_LOG_NUMBERS = 4_000_000
"""Most numbers in one episode log (actions, seeds, chance values): each becomes a Python object of some 36
bytes, so a log of 240 MB of actions would take gigabytes to read; a 5,000-decision game holds about 10,000."""
RESERVED_CONFIG_KEYS = ("env_id", "wrapped", "render_mode", "illegal_action", "mask_in")
"""Arguments of ``monolith_envs.make`` that are not game config keys, refused in a log's ``config``."""
#: C0 and C1 control characters, DEL, the Unicode bidirectional overrides (they reorder what is shown) and
#: lone surrogates (U+D800-U+DFFF: JSON's "\ud800" reads as one, and no UTF-8 stream can print it)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_CONTROL_KEEP_NL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape_char(m: "re.Match[str]") -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every control character and lone surrogate shown as an escape (``\\x1b``, ``\\u202e``,
    ``\\ud800``), safe to print (to a terminal, or to any UTF-8 stream).

    Text read from a file (a log's note, a chance event, an env id) may hold terminal escape sequences
    that would retitle the terminal, clear the screen or fake output; printed through this function they
    are shown, not obeyed.  ``keep_newlines`` keeps ``\\n`` (for multi-line text such as a board render).
    """
    return (_CONTROL_KEEP_NL if keep_newlines else _CONTROL).sub(_escape_char, str(text))


#: JSON-reader words for the Python types of a log's fields (``an integer``, not ``a int``)
_KIND = {"int": "an integer", "str": "a string", "list": "a list", "dict": "an object", "float": "a number",
         "bool": "true or false", "NoneType": "null"}


class LogError(MonolithEnvError, ValueError):
    """An episode log that cannot be read or does not replay (names the file, field or step)."""


class EngineRaised(MonolithEnvError):
    """The engine raised an exception of its own (not an illegal action) while a log was replayed: a finding,
    like a fuzz failure, not a bad log. ``step`` is the decision whose action it was applying; the engine's
    exception is the ``__cause__``."""

    def __init__(self, message: str = "", step: int = -1):
        super().__init__(message)
        self.step = step


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
        """Write the log as JSON to ``path`` atomically (a temporary file renamed over it, so a crash or a
        Ctrl-C never leaves half a log); returns the path.

        Raises:
            OSError: the folder cannot be written.
        """
        return write_text_atomic(path, json.dumps(self.to_json(), indent=1))

    @classmethod
    def from_json(cls, data: Any, source: str = "<log>") -> "EpisodeLog":
        """Validate and build a log from parsed JSON.

        Raises:
            LogError: wrong format tag, missing or mistyped field, a malformed chance event, or a chance event
                of a step after the last action (named with ``source``).
        """
        if not isinstance(data, dict):
            raise LogError(f"{source}: an episode log is a JSON object, got {type(data).__name__}")
        _check_depth(data, source)
        if "format" not in data:
            raise LogError(f"{source}: missing field 'format' (expected {LOG_FORMAT!r})")
        if data.get("format") not in READ_FORMATS:
            raise LogError(f"{source}: field 'format' is {data.get('format')!r}, expected one of "
                           f"{', '.join(map(repr, READ_FORMATS))}")
        checks = {"env_id": str, "config": dict, "seed": int, "actions": list}
        for key, typ in checks.items():
            if key not in data:
                raise LogError(f"{source}: missing field {key!r} (fields: format, {', '.join(checks)}, note, and "
                               "chance in format /2)")
            if not isinstance(data[key], typ) or isinstance(data[key], bool):
                raise LogError(f"{source}: field {key!r} must be {_KIND.get(typ.__name__, 'a ' + typ.__name__)}, got "
                              f"{_KIND.get(type(data[key]).__name__, 'a ' + type(data[key]).__name__)}")
        if not 0 <= data["seed"] <= MAX_SEED:
            raise LogError(f"{source}: field 'seed' is {short_repr(data['seed'])}, expected an integer from 0 to 2**128-1")
        for i, a in enumerate(data["actions"]):
            if not isinstance(a, int) or isinstance(a, bool):
                raise LogError(f"{source}: actions[{i}] = {short_repr(a)} is not an integer action")
            if a < 0:
                raise LogError(f"{source}: actions[{i}] = {short_repr(a)} is negative; actions are integers >= 0")
        note = data.get("note", "")
        if not isinstance(note, str):
            raise LogError(f"{source}: field 'note' must be a string, got {type(note).__name__}")
        unknown = [k for k in data if k not in ("format", "env_id", "config", "seed", "actions", "chance", "note")]
        if unknown:
            raise LogError(f"{source}: unknown field(s) {', '.join(map(repr, unknown))} (fields: format, env_id, "
                           "config, seed, actions, chance, note)")
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
        return cls(data["env_id"], data["config"], data["seed"], list(data["actions"]), note, chance)


def load_log(path: str | Path) -> EpisodeLog:
    """Read an episode log file.

    Raises:
        LogError: a path with a NUL byte, missing or unreadable file, not a regular file (a FIFO is never waited on), above
            :data:`MAX_LOG_BYTES`, not UTF-8 (naming the byte), invalid or truncated JSON (with line and
            column), nesting deeper than :data:`MAX_DEPTH`, an integer of more digits than Python reads, a key
            twice in one object, more than :data:`MAX_LOG_NUMBERS` numbers, or bad fields (see
            :meth:`EpisodeLog.from_json`).
    """
    if "\x00" in str(path):
        raise LogError(f"{str(path)[:80]!r}: a path cannot contain a NUL byte")
    path = Path(path)
    raw = _read_regular(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"{path}: byte {exc.start} (0x{raw[exc.start]:02x}) is not valid UTF-8 "
                       "(an episode log is UTF-8 JSON)") from None
    try:
        parse_int, parse_float = _number_parsers()
        data = json.loads(text, object_pairs_hook=unique_keys, parse_int=parse_int, parse_float=parse_float)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg} "
                       "(the file may be truncated or corrupted)") from None
    except RecursionError:
        raise LogError(f"{path}: JSON nested deeper than Python can read (a log is 4 levels deep)") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise LogError(f"{path}: a value cannot be read: {exc}") from None
    return EpisodeLog.from_json(data, str(path))


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """A JSON object as a dict; a key that appears twice is refused (the reader would keep the last)."""
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k!r} appears twice in one object")
        out[k] = v
    return out


def _number_parsers() -> tuple[Callable[[str], int], Callable[[str], float]]:
    """``parse_int`` and ``parse_float`` for one :func:`json.loads` of a log: together they refuse the log
    past :data:`MAX_LOG_NUMBERS` numbers, before they take the memory."""
    count = 0

    def counted(kind: Callable[[str], Any]) -> Callable[[str], Any]:
        def parse(text: str) -> Any:
            nonlocal count
            count += 1
            if count > MAX_LOG_NUMBERS:
                raise ValueError(f"more than {MAX_LOG_NUMBERS:,} numbers (a log of one game holds far fewer)")
            return kind(text)

        return parse

    return counted(int), counted(float)


def _read_regular(path: Path) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise LogError(f"{path}: cannot read episode log ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise LogError(f"{path}: not a regular file (an episode log is a JSON file)")
        if st.st_size > MAX_LOG_BYTES:
            raise LogError(f"{path}: {st.st_size} bytes is larger than the {MAX_LOG_BYTES}-byte limit of a log")
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogError(f"{path}: cannot read episode log ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(data) > MAX_LOG_BYTES:
        raise LogError(f"{path}: larger than the {MAX_LOG_BYTES}-byte limit of a log")
    return data


def _check_depth(data: Any, source: str) -> None:
    stack = [(data, "", 0)]
    while stack:
        v, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise LogError(f"{source}: field {where!r} is nested deeper than {MAX_DEPTH} levels")
        items = v.items() if isinstance(v, dict) else enumerate(v)
        for k, x in items:
            if isinstance(x, (dict, list)):
                stack.append((x, f"{where}.{k}" if isinstance(k, str) and where else
                              (k if isinstance(k, str) else f"{where}[{k}]"), depth + 1))


def _events(events: list[ChanceEvent], limit: int = 5) -> str:
    """At most ``limit`` events as text (each cut to 80 characters), and how many more: an error stays one
    short line even for a million mismatched draws."""
    texts = [str(e) if e.args.startswith(e.call) else f"{e.call}: {e}" for e in events[:limit]]
    shown = [t if len(t) <= 80 else t[:77] + "..." for t in texts]
    more = f", ... {len(events) - limit} more" if len(events) > limit else ""
    return f"[{', '.join(map(repr, shown))}{more}]"


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
        EngineRaised: the engine raised an exception of its own while applying an action (the log of a fuzz
            failure of that kind replays to it).
    """
    bad = [k for k in log.config if not isinstance(k, str) or k in RESERVED_CONFIG_KEYS]
    if bad:
        raise LogError(f"field 'config' holds {', '.join(short_repr(k) for k in bad[:5])}, which is not a game config "
                       f"key (the config holds only the game's keys, not {', '.join(RESERVED_CONFIG_KEYS)})")
    try:
        env = make(log.env_id, **log.config)
    except MonolithEnvError as exc:
        hint = ""
        if isinstance(exc, KeyError):  # UnknownEnvError: perhaps an env registered at run time
            hint = ("; an env registered at run time (fuzz --preload MODULE) replays with the same --preload "
                    "MODULE")
        raise LogError(f"field 'env_id' or 'config' cannot be replayed: {exc}{hint}") from None
    n = env.game.layout.n
    for i, a in enumerate(log.actions):
        if not 0 <= a < n:
            raise LogError(f"actions[{i}] = {short_repr(a)} is out of range: {log.env_id} actions are 0 to {n - 1}")
    env.reset(seed=log.seed)
    logged: dict[int, list[ChanceEvent]] = {}
    for e in log.chance or ():
        logged.setdefault(e.step, []).append(e)
    seen = 0
    for i, a in enumerate(log.actions):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            how = (f"was truncated at max_decisions={env.game.max_decisions}" if env.truncations[agent]
                   else "ended")
            raise LogError(f"step {i}: the episode {how} before all {len(log.actions)} logged actions were used")
        yield i, a, env
        legal = env.legal_actions()
        if a not in legal:
            names = [env.game.layout.decode(int(x)) for x in legal[:10]]
            more = f" and {len(legal) - 10} more" if len(legal) > 10 else ""
            raise LogError(f"step {i}: logged action {a} is not legal in the replayed state; legal: {names}{more}")
        try:
            env.step(a)
        except MonolithEnvError:
            raise
        except Exception as exc:  # the engine's own failure: named with its step (the log is not at fault)
            raise EngineRaised(f"step {i}: the engine raised {type(exc).__name__}: {exc} while playing "
                               f"{env.game.layout.decode(int(a))} [{a}]", i) from exc
        drawn = env.episode_log.chance[seen:]
        seen += len(drawn)
        if log.chance is not None:
            want = logged.get(i, [])
            if [(e.call, e.args, e.value) for e in want] != [(e.call, e.args, e.value) for e in drawn]:
                raise LogError(f"step {i}: the replayed draws {_events(drawn)} differ from the logged chance "
                               f"events {_events(want)}")
    yield len(log.actions), None, env
