"""Monolith Arena (``monolith_arena_v0``): rules engine, action layout and observation.

Modules:
    board:     hex geometry (spec §2.1).
    config:    configuration keys (spec §1).
    state:     the plain-data match state (spec §2.5).
    rules:     the rules (spec §3-§4, §8) and cached content tables.
    actions:   the flat action layout (spec §6.1).
    observe:   the observation vector (spec §7).
    positions: helpers to build positions by hand (tests, scenarios, tools).
    game:      :class:`ArenaGame`, the :class:`~monolith_envs.core.game.Game` implementation.
"""

from __future__ import annotations

__all__ = ["ArenaGame"]


def __getattr__(name):  # lazy, so importing the package stays cheap
    if name == "ArenaGame":
        from .game import ArenaGame

        return ArenaGame
    raise AttributeError(name)
