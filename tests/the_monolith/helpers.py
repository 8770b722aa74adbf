"""Shared helpers of the_monolith tests: playing actions by index after checking they are legal."""

from __future__ import annotations

from monolith_envs.core.testing import ScriptedRng

__all__ = ["ScriptedRng", "play"]


def play(g, s, *actions, rng=None):
    """Apply each action (an index) after checking it is legal."""
    for a in actions:
        lg = g.legal_actions(s)
        assert a in lg, f"{g.action_name(a)} [{a}] not legal; legal: {[g.action_name(x) for x in lg]}"
        g.apply(s, a, rng)
