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
"""

from __future__ import annotations

import gymnasium

__all__ = ["GYM_IDS", "register_gymnasium_ids"]

ENTRY_POINT = "monolith_envs.wrappers:SingleAgentEnv"

# monolith_envs env id -> Gymnasium id
GYM_IDS: dict[str, str] = {
    "monolith_arena_v0": "monolith_envs/MonolithArena-v0",
    "monolith_strategy_v0": "monolith_envs/MonolithStrategy-v0",
    "the_monolith_v0": "monolith_envs/TheMonolith-v0",
}


def register_gymnasium_ids() -> None:
    """Register every id of :data:`GYM_IDS` with Gymnasium (once; calling again changes nothing).

    The episode length is the game's own (``max_decisions`` truncates), so no ``TimeLimit`` is added.
    """
    for env_id, gym_id in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point=ENTRY_POINT, kwargs={"env_id": env_id})


register_gymnasium_ids()
