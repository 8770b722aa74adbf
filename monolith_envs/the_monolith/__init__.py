"""The Monolith (``the_monolith_v0``): rules engine, content, action layout and observation.

Modules (docs/the_monolith.md):
    content:      TOML content and its validating loader (§5).
    config:       configuration keys (§1).
    state:        the plain-data state and its named codes (§2, §6.2).
    board:        adjacency, tunnels, occupy, contest, control (§4.1, §4.2).
    effects:      the effect vocabulary and powers (§4.8, §5.3).
    opening:      setup and the shaman draft (§3, §4.10).
    orders:       the order phase, settlement and the tower lift (§4.4, §4.5, §4.9).
    action_phase: the action phase (§4.6).
    rest:         the rest phase, events, final scoring (§4.7, §8).
    table:        sub-phase -> (mask, apply), and the pending rule steps.
    narration:    what one action did, rule step by rule step, in words (80 columns).
    actions, observe, positions, invariants, render, game.
"""

from __future__ import annotations

__all__ = ["MonolithGame", "parse_position", "format_position", "ContentError"]


def __getattr__(name):  # lazy, so importing the package stays cheap
    if name == "MonolithGame":
        from .game import MonolithGame

        return MonolithGame
    if name in ("parse_position", "format_position"):
        from . import positions

        return getattr(positions, name)
    if name == "ContentError":
        from .content import ContentError

        return ContentError
    raise AttributeError(name)
