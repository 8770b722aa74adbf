"""monolith_envs: PettingZoo AEC environments with exact action masks for the Monolith board games.

Use ``monolith_envs.make(env_id, **config)`` or the versioned modules
(``from monolith_envs import monolith_arena_v0; env = monolith_arena_v0.env()``); ``make_vec(env_id,
num_envs, workers=0, **config)`` steps N games at once.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Callable

import numpy as np

from . import registration as _registration  # noqa: F401 - registers the Gymnasium ids
from .core.aec import ResetNeededError
from .core.compiled import NotCompiledWarning
from .core.config import ConfigError, IgnoredOptionsWarning
from .core.content import ContentError
from .core.game import IllegalActionError, InvariantError, MonolithEnvError
from .vector import make_vec

__all__ = [
    "make",
    "make_vec",
    "make_game",
    "env_module",
    "game_class",
    "available_envs",
    "register",
    "ConfigError",
    "ContentError",
    "IgnoredOptionsWarning",
    "IllegalActionError",
    "InvariantError",
    "MonolithEnvError",
    "NotCompiledWarning",
    "ResetNeededError",
    "UnknownEnvError",
]

__version__ = "0.1.0"


class UnknownEnvError(MonolithEnvError, KeyError):
    """An env id that is not registered (the message lists the registered ids)."""

    def __str__(self) -> str:
        return str(self.args[0])


# env id -> module path of a versioned env module exposing ``env``, ``raw_env`` and ``Game``.
_REGISTRY: dict[str, str | Callable[[], Any]] = {
    "monolith_arena_v0": "monolith_envs.monolith_arena_v0",
    "monolith_strategy_v0": "monolith_envs.monolith_strategy_v0",
    "the_monolith_v0": "monolith_envs.the_monolith_v0",
}
_BUILT_IN = dict(_REGISTRY)
_ENV_ID = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,99}")


def register(env_id: str, module: str | Callable[[], Any]) -> None:
    """Register an env id: a module path, or a zero-argument callable returning such a module-like object.

    The module must expose ``env(**kw)`` and ``raw_env(**kw)`` (:func:`env_module` checks both when the id is
    first used), and may expose ``Game`` (the game class; else :func:`game_class` takes ``raw_env.game_cls``). Registering an
    id again replaces its entry, except the package's own ids, which stay.

    Raises:
        ConfigError: ``env_id`` not a name of letters, digits, ``_``, ``.`` and ``-`` (starting with a letter,
            at most 100 characters, PettingZoo style ``name_v0``), one of the package's own ids, or ``module``
            neither a non-empty module path nor a callable.
    """
    if not isinstance(env_id, str) or not _ENV_ID.fullmatch(env_id):
        raise ConfigError(f"register: env id {env_id!r} is not allowed; expected a name of letters, digits, '_', "
                          "'.' and '-' that starts with a letter, at most 100 characters (e.g. 'my_game_v0')")
    if env_id in _BUILT_IN and module != _BUILT_IN[env_id]:
        raise ConfigError(f"register: {env_id!r} is an env id of the package; register yours under another id")
    if not (callable(module) or isinstance(module, str) and module.strip()):
        raise ConfigError(f"register {env_id!r}: module must be a module path such as 'my_package.my_game_v0' "
                          f"or a zero-argument callable returning the module, got {module!r}")
    _REGISTRY[env_id] = module


def available_envs() -> list[str]:
    """Ids of the registered, implemented environments."""
    return list(_REGISTRY)


def env_module(env_id: str) -> Any:
    """The versioned env module of ``env_id`` (``env``, ``raw_env``, ``Game``).

    Raises:
        UnknownEnvError: unknown env id (lists the valid ones).
        ConfigError: the registered module cannot be imported, or has no callable ``env`` / ``raw_env``.
    """
    try:
        entry = _REGISTRY[env_id]
    except (KeyError, TypeError):  # TypeError: an unhashable id such as a list
        msg = f"unknown env id {env_id!r:.80}; available: {', '.join(_REGISTRY)}"
        ids = {gym_id: aec_id for aec_id, gym_id in _registration.GYM_IDS.items()}
        if isinstance(env_id, str) and env_id in ids:
            msg += (f" ({env_id!r} is the Gymnasium id of the single-agent wrapper: gymnasium.make({env_id!r}, "
                    f"opponents=[...]); the AEC env is {ids[env_id]!r})")
        raise UnknownEnvError(msg) from None
    if not isinstance(entry, str):
        mod, source = entry(), f"the callable {entry!r:.80}, whose result"
    else:
        try:
            mod = importlib.import_module(entry)
        except ImportError as exc:
            raise ConfigError(f"env id {env_id!r} is registered to the module {entry!r}, which cannot be imported: "
                              f"{type(exc).__name__}: {exc}") from exc
        source = f"the module {entry!r}, which"
    missing = [name for name in ("env", "raw_env") if not callable(getattr(mod, name, None))]
    if missing:
        raise ConfigError(f"env id {env_id!r} is registered to {source} has no "
                          f"{' and no '.join(missing)}; an env module defines env() and raw_env() (see "
                          "monolith_envs.monolith_arena_v0)")
    return mod



def game_class(env_id: str) -> Any:
    """The game class of ``env_id``; its ``GAME_INFO`` is the game's static
    :class:`~monolith_envs.core.game.GameInfo`.

    Raises:
        UnknownEnvError: unknown env id.
        ConfigError: the registered module cannot be imported, or has no callable ``env`` / ``raw_env``.
    """
    mod = env_module(env_id)
    return getattr(mod, "Game", None) or mod.raw_env.game_cls


def make(env_id: str, *, wrapped: bool = True, render_mode: str | None = None, illegal_action: str = "raise",
         mask_in: str = "observation", **config: Any):
    """Create an AEC environment.

    Args:
        env_id: one of :func:`available_envs`.
        wrapped: True (default) returns ``env()`` (with PettingZoo's OrderEnforcingWrapper); False the bare
            ``raw_env()``.
        render_mode: None, "ansi", "human", "rgb_array" or "svg".
        illegal_action: "raise" or "penalize" (see :class:`~monolith_envs.core.aec.RulesAECEnv`).
        mask_in: "observation" (default: observations are ``{"observation", "action_mask"}``) or "info" (a
            plain ``Box`` observation, the mask in ``infos[agent]["action_mask"]``).
        **config: the game's config keys.

    Raises:
        UnknownEnvError: unknown env id (lists the valid ones).
        ConfigError: unknown config key (lists the valid ones) or bad value, ``wrapped`` not a bool, a
            ``mask_in`` other than the two, or a registered module that cannot be imported or has no ``env`` /
            ``raw_env``.
    """
    if not isinstance(wrapped, (bool, np.bool_)):
        raise ConfigError(f"make: wrapped={wrapped!r} is not allowed; expected True or False")
    mod = env_module(env_id)
    fn = mod.env if wrapped else mod.raw_env
    return fn(render_mode=render_mode, illegal_action=illegal_action, mask_in=mask_in, **config)


def make_game(env_id: str, **config: Any):
    """Create the bare rules engine (a :class:`~monolith_envs.core.game.Game`) for ``env_id``."""
    return game_class(env_id)(config)
