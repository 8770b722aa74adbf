"""Declared configuration keys and their validation (unknown keys and bad values raise ``ConfigError``)."""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .game import MonolithEnvError

__all__ = ["ConfigError", "UnknownKeywordError", "ConfigKey", "validate_config", "one_of", "int_range", "number_range", "boolean",
           "C_INT_MAX", "is_integral", "parse_value", "parse_settings", "plain_int", "plain_float", "short_repr",
           "IgnoredOptionsWarning", "warn_ignored_options"]

class IgnoredOptionsWarning(UserWarning):
    """``reset(options=...)`` was given options: the games take none at reset, so they change nothing (config
    keys go to :func:`monolith_envs.make`)."""


def warn_ignored_options(where: str, options: Any) -> None:
    """Warn (:class:`IgnoredOptionsWarning`, at the first caller outside this package, PettingZoo and
    Gymnasium) when ``options`` is anything but ``None`` or an empty mapping: the ``reset`` of the AEC env,
    the Gymnasium wrapper, ``make_vec`` and the RLlib env take ``options`` for the signature of PettingZoo
    and Gymnasium and ignore it. Never raises, whatever ``options`` is."""
    if options is None:
        return
    try:
        if isinstance(options, Mapping) and len(options) == 0:
            return
        shown = short_repr(list(options) if isinstance(options, Mapping) else options)
    except Exception:  # noqa: BLE001 - a mapping or value that cannot be shown: its type is enough
        shown = f"a {type(options).__name__}"
    warnings.warn(f"{where}: reset(options=...) got {shown}, which changes nothing: the games take no reset "
                  "options; config keys go to make() (or make_vec())", IgnoredOptionsWarning,
                  stacklevel=_outside_callers())


def _outside_callers() -> int:
    """The ``stacklevel`` of the first frame outside this package, PettingZoo and Gymnasium (the user's call,
    through any wrappers), counted from the caller of this function's caller."""
    import sys

    roots = tuple(os.path.dirname(m.__file__) + os.sep for m in (sys.modules.get("monolith_envs"),
                  sys.modules.get("pettingzoo"), sys.modules.get("gymnasium")) if m is not None and m.__file__)
    try:
        frame, level = sys._getframe(2), 2
    except ValueError:  # called with no caller above it (a thread's entry point)
        return 1
    while frame is not None and frame.f_code.co_filename.startswith(roots):
        frame, level = frame.f_back, level + 1
    return level


C_INT_MAX = 2**31 - 1
"""Upper bound for integer config values that compiled code stores in a C ``int`` (e.g. ``max_decisions``)."""


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for a one-line message: whole when it has at most ``limit`` characters, else its first
    ``limit`` characters, ``...`` and its length (``'aaaa...' (10,002 characters)``)."""
    r = repr(value)
    return r if len(r) <= limit else f"{r[:limit]}... ({len(r):,} characters)"


class ConfigError(MonolithEnvError, ValueError):
    """A configuration key that does not exist, or a value that is not allowed (names key, value, allowed)."""


class UnknownKeywordError(ConfigError, TypeError):
    """A keyword argument that a constructor does not take: a :class:`ConfigError` that is also the
    ``TypeError`` Python raises for an unexpected keyword, with its words (``got an unexpected keyword argument
    'x'``), so code that retries without an optional keyword (TorchRL's ``GymEnv`` with ``frameskip``) works."""


Check = Callable[[Any], "str | None"]


@dataclass(frozen=True)
class ConfigKey:
    """One configuration key.

    Attributes:
        name: the key.
        default: value used when the key is not given.
        doc: one line for docs and error messages.
        check: returns ``None`` when a value is allowed, else a phrase saying what is allowed.
    """

    name: str
    default: Any
    doc: str = ""
    check: Check | None = None


def one_of(*values: Any) -> Check:
    """Allowed: exactly one of ``values`` (bools are not ints here)."""

    def check(v: Any) -> str | None:
        for a in values:
            if type(v) is type(a) and v == a:
                return None
            if isinstance(a, int) and not isinstance(a, bool) and is_integral(v) and v == a:
                return None
        return "one of " + ", ".join(repr(a) for a in values)

    return check


def is_integral(v: Any) -> bool:
    """Whether ``v`` is a Python or numpy integer (a ``bool`` or ``numpy.bool_`` is not)."""
    import numpy as np

    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def int_range(lo: int, hi: int | None = None) -> Check:
    """Allowed: an integer in ``lo .. hi`` (``hi=None``: no upper bound)."""

    def check(v: Any) -> str | None:
        if is_integral(v) and v >= lo and (hi is None or v <= hi):
            return None
        return f"an integer >= {lo}" if hi is None else f"an integer from {lo} to {hi}"

    return check


def number_range(lo: float, hi: float) -> Check:
    """Allowed: a finite real number (an int or a float, not a bool) in ``lo .. hi``.

    Every float config value has such a bound, chosen so that no reachable return or observation of the
    game overflows (e.g. a score scale of 1e300 would make the returns infinite)."""
    import math
    import numbers

    def check(v: Any) -> str | None:
        ok = (isinstance(v, numbers.Real) and not isinstance(v, bool) and type(v).__name__ != "bool_"
              and math.isfinite(float(v)) and lo <= float(v) <= hi)
        return None if ok else f"a number from {lo:g} to {hi:g}"

    return check


def _is_bool(v: Any) -> bool:
    import numpy as np

    return isinstance(v, (bool, np.bool_))


def boolean() -> Check:
    """Allowed: ``True`` or ``False`` (a numpy ``bool_`` too, stored as the Python bool)."""

    def check(v: Any) -> str | None:
        return None if _is_bool(v) else "True or False"

    return check


#: arguments of the package's functions that are not game config keys, and where each goes (a key given to a
#: game config by mistake is named with its place: ``make(..., render="ansi")``, ``make_vec(..., seed=3)``)
API_ARGUMENTS = {
    "render_mode": "an argument of make()", "illegal_action": "an argument of make()",
    "wrapped": "an argument of make()", "mask_in": "an argument of make() and make_vec()",
    "workers": "an argument of make_vec()", "timeout": "an argument of make_vec()",
    "start_method": "an argument of make_vec()", "num_envs": "an argument of make_vec()",
    "seed": "not a config key: seeds go to reset(seed=...)",
    "opponents": "an argument of the Gymnasium wrapper (monolith_envs.wrappers.SingleAgentEnv, gymnasium.make)",
}


def _hint(key: Any, valid: Mapping[str, Any]) -> str:
    """For an unknown config ``key``: the API argument it is (or nearly is), else the closest valid key;
    ``""`` when nothing is close."""
    import difflib

    if not isinstance(key, str):
        return ""
    if key in API_ARGUMENTS:
        return f"{key!r} is {API_ARGUMENTS[key]}"
    close = difflib.get_close_matches(key, [*valid, *API_ARGUMENTS], n=1, cutoff=0.6)
    if not close and len(key) >= 4:  # a shortened argument: render for render_mode, illegal for illegal_action
        close = [a for a in API_ARGUMENTS if a.startswith(key)][:1]
    if not close:
        return ""
    where = f" ({API_ARGUMENTS[close[0]]})" if close[0] in API_ARGUMENTS else ""
    return f"did you mean {close[0]!r} for {key!r}{where}?"


def validate_config(
    env_id: str,
    keys: Sequence[ConfigKey],
    given: Mapping[str, Any] | None,
    cross_check: Callable[[dict], None] | None = None,
) -> dict:
    """Merge ``given`` over the declared defaults and validate every value.

    Args:
        env_id: named in error messages.
        keys: the declared keys.
        given: user configuration (may be ``None``).
        cross_check: optional callable on the merged dict that raises ``ConfigError`` for bad combinations.

    Returns:
        A new ``dict`` holding every declared key (numpy integers converted to ``int``; nothing is rounded or
        truncated: a value either passes its check exactly or raises).

    Raises:
        ConfigError: an unknown key (listing the valid keys) or a disallowed value (naming the key, the value
            and what is allowed).
    """
    by_name = {k.name: k for k in keys}
    given = dict(given or {})
    unknown = [k for k in given if k not in by_name]
    if unknown:
        hints = [h for h in (_hint(k, by_name) for k in unknown) if h]
        raise ConfigError(
            f"{env_id}: unknown config key(s) {', '.join(map(repr, unknown))}; valid keys: {', '.join(by_name)}"
            + "".join(f"; {h}" for h in hints)
        )
    out = {}
    for k in keys:
        v = given.get(k.name, k.default)
        if k.check is not None and k.name in given:
            allowed = k.check(v)
            if allowed is not None:
                hint = ""
                if isinstance(v, str) and v.strip().lower() in ("true", "false") and "True or False" in allowed:
                    word = v.strip().lower()
                    hint = (f" (the boolean, not the text {v!r}: in Python {word.capitalize()}, on a command "
                            f"line --set {k.name}={word} without quotes)")
                elif isinstance(v, str) and v.lstrip().startswith("[") and "list" in allowed:
                    hint = f" ({_broken_list_hint(v)})"
                elif isinstance(v, str) and "," in v and "list" in allowed:
                    hint = f" (a list, not the text {v[:60]!r}: on a command line TOML's form, {_list_hint(k.name, v)})"
                raise ConfigError(f"{env_id}: config {k.name}={short_repr(v, 300)} is not allowed; "
                                  f"expected {allowed}{hint}")
        if is_integral(v):
            v = int(v)  # numpy integers become exact Python ints (JSON-safe in episode logs)
        elif type(v) is not bool and _is_bool(v):
            v = bool(v)  # and numpy booleans Python bools
        out[k.name] = v
    if cross_check is not None:
        cross_check(out)
    return out


def _list_hint(name: str, text: str) -> str:
    """``--set 'name=[...]'`` for comma-separated ``text``: every item, integers bare and other items as TOML
    (JSON) strings, the whole argument quoted for a POSIX shell."""
    import json
    import shlex

    items = [x.strip() for x in text[:400].split(",")]
    shown = ", ".join(x if _PLAIN_INT.fullmatch(x) else json.dumps(x) for x in items)
    return "--set " + shlex.quote(f"{name}=[{shown}]")


def _broken_list_hint(text: str) -> str:
    """For ``text`` that starts with ``[`` but did not parse: a TOML list with a syntax error, not
    comma-separated items to rewrite (splitting it on commas would suggest a wrong value)."""
    return (f"{short_repr(text)} is not valid TOML: a list like '[\"a\", \"b\"]' or '[1, 2]', strings in double "
            "quotes, closed by ]")


_PLAIN_INT = re.compile(r"[+-]?[0-9]+")
_PLAIN_FLOAT = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)", re.I)


def plain_int(text: str) -> int:
    """``text`` as an ``int`` when it is written with ASCII digits only (an optional sign, no spaces, no
    ``_``): ``int()`` alone also takes ``"5_0"``, ``" 5"`` and other scripts' digits. The caller checks the range.

    Raises:
        ValueError: any other text.
    """
    if not (isinstance(text, str) and len(text) <= 4000 and _PLAIN_INT.fullmatch(text)):
        raise ValueError(f"invalid integer {text[:40]!r}")
    return int(text)


def plain_float(text: str) -> float:
    """``text`` as a ``float`` when it is a plain decimal number (``1``, ``-0.5``, ``.3``, ``1e-3``; ASCII,
    no spaces, no ``_``, at most 400 characters) or ``nan`` / ``inf`` (the caller's range check names those).

    Raises:
        ValueError: any other text.
    """
    if not (isinstance(text, str) and len(text) <= 400 and _PLAIN_FLOAT.fullmatch(text)):
        raise ValueError(f"invalid number {text[:40]!r}")
    return float(text)


def parse_value(text: str) -> Any:
    """A command-line value as TOML reads it (``4`` int, ``true`` bool, ``"a"`` / ``[1, 2]``), or the bare
    text as a string when it is not a TOML value (``teams``).  Python's ``True`` / ``False`` are booleans too.

    Raises:
        ConfigError: a value nested more than 32 brackets deep (a config value is at most 2 deep).
    """
    import tomllib

    if text.count("[") + text.count("{") > 32:
        raise ConfigError(f"a setting's value is nested more than 32 brackets deep: {text[:40]!r}...")
    if text in ("True", "False"):  # what the error of a boolean key says (and Python writes)
        return text == "True"
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_settings(items: Sequence[str]) -> dict:
    """``["num_players=4", "mode=teams"]`` -> ``{"num_players": 4, "mode": "teams"}`` (``--set`` options).

    Raises:
        ConfigError: an item without ``=`` or with an empty key (the message quotes it), or a value nested
            too deeply (:func:`parse_value`).
    """
    out: dict = {}
    for it in items:
        k, sep, v = it.partition("=")
        if not sep or not k.strip():
            raise ConfigError(f"a setting is KEY=VALUE (e.g. num_players=4), got {it!r}")
        out[k.strip()] = parse_value(v.strip())
    return out
