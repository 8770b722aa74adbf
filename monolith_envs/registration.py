"""Gymnasium ids of the single-agent wrapper, registered at ``import monolith_envs``.

==========================================  ==========================
Gymnasium id                                monolith_envs env id
==========================================  ==========================
``monolith_envs/MonolithArena-v0``          ``monolith_arena_v0``
``monolith_envs/MonolithStrategy-v0``       ``monolith_strategy_v0``
``monolith_envs/TheMonolith-v0``            ``the_monolith_v0``
==========================================  ==========================

``gymnasium.make(GYM_ID, opponents=["heuristic"], **kwargs)`` builds a
:class:`monolith_envs.wrappers.SingleAgentEnv` (every keyword of that class is accepted, game config keys
included), and ``gymnasium.make_vec(GYM_ID, num_envs=N, vectorization_mode="sync" | "async", **kwargs)``
a vector of them.  The wrapper module is imported only when an env is made.

An env made from a Gymnasium id takes ``illegal_action="penalize"`` unless told otherwise: a masked-out
action ends the episode with -1 for the offender and ``info["illegal_action"]``, so that
``env.step(env.action_space.sample())`` and the env checkers of Gymnasium and SB3 (which step unmasked
random actions) work as they do on other registered envs; a masked agent (``MaskablePPO``) never sees the
difference.  ``illegal_action="raise"`` (the default of the AEC env, ``make_vec`` and ``SingleAgentEnv``
itself) raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

from typing import Any, Callable

import gymnasium

__all__ = ["GYM_IDS", "DEFAULT_ILLEGAL_ACTION", "RENDER_MODES", "METADATA", "entry_point_name", "register_gymnasium_ids"]

# monolith_envs env id -> Gymnasium id
GYM_IDS: dict[str, str] = {
    "monolith_arena_v0": "monolith_envs/MonolithArena-v0",
    "monolith_strategy_v0": "monolith_envs/MonolithStrategy-v0",
    "the_monolith_v0": "monolith_envs/TheMonolith-v0",
}

#: what a masked-out action does in an env made from a Gymnasium id, unless ``illegal_action`` is given
DEFAULT_ILLEGAL_ACTION = "penalize"

#: the single-agent wrapper's render modes and metadata (``SingleAgentEnv.metadata`` is this dict)
RENDER_MODES = ("ansi", "human", "rgb_array", "svg")
METADATA: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}


def entry_point_name(env_id: str) -> str:
    """The name of the module-level function that ``gymnasium.make`` calls for ``env_id``'s Gymnasium id."""
    return "make_" + env_id.removesuffix("_v0")


def _entry_point(env_id: str) -> Callable[..., Any]:
    """``make_<game>(**kwargs)``: the :class:`~monolith_envs.wrappers.SingleAgentEnv` of ``env_id``; an
    ``env_id`` keyword naming another game is refused (``gymnasium.make`` lets keywords override the id's own)."""

    def make(**kwargs: Any) -> Any:
        from monolith_envs.core.config import ConfigError
        from monolith_envs.wrappers import SingleAgentEnv

        given = kwargs.pop("env_id", env_id)
        if given != env_id:
            raise ConfigError(f"{GYM_IDS[env_id]} is {env_id}; env_id={given!r:.60} names another game: use "
                              f"that game's Gymnasium id ({', '.join(GYM_IDS.values())})")
        config = kwargs.get("env_config")
        if "illegal_action" not in kwargs and not (isinstance(config, dict) and "illegal_action" in config):
            kwargs["illegal_action"] = DEFAULT_ILLEGAL_ACTION
        return SingleAgentEnv(env_id, **kwargs)

    make.__name__ = make.__qualname__ = entry_point_name(env_id)
    make.__doc__ = f"The single-agent Gymnasium env of ``{env_id}`` (``gymnasium.make({GYM_IDS[env_id]!r})``)."
    make.metadata = METADATA  # type: ignore[attr-defined] - read by gymnasium.make for render modes
    return make


for _env_id in GYM_IDS:  # module-level functions, so that vector envs' worker processes can pickle them
    globals()[entry_point_name(_env_id)] = _entry_point(_env_id)


def register_gymnasium_ids() -> None:
    """Register every id of :data:`GYM_IDS` with Gymnasium (once; calling again changes nothing).

    The episode length is the game's own (``max_decisions`` truncates), so no ``TimeLimit`` is added.
    """
    for env_id, gym_id in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point=f"{__name__}:{entry_point_name(env_id)}",
                               kwargs={"env_id": env_id})


register_gymnasium_ids()
