"""Shared helpers of the_monolith tests: a scripted rng, playing actions by index, reading masks."""

from __future__ import annotations

try:  # the core's scripted chance, once it ships
    from monolith_envs.core.testing import ScriptedRng  # noqa: F401
except ImportError:  # pragma: no cover - until then, the same contract here
    class ScriptedRngError(AssertionError):
        pass

    class ScriptedRng:
        """Returns the listed values in draw order for integers/permutation/choice/random."""

        def __init__(self, values):
            self.values = list(values)
            self.used = 0

        def _next(self, what):
            if self.used >= len(self.values):
                raise ScriptedRngError(f"scripted rng ran out at draw {self.used} ({what})")
            v = self.values[self.used]
            self.used += 1
            return v

        def integers(self, low, high=None, size=None):
            return self._next("integers")

        def permutation(self, x):
            return self._next("permutation")

        def choice(self, a, size=None, replace=True, p=None):
            return self._next("choice")

        def random(self, size=None):
            v = self._next("random")
            if not 0.0 <= v < 1.0:
                raise ScriptedRngError(f"random() value {v} outside [0, 1)")
            return v


def legal(g, s) -> list:
    return g.legal_actions(s)


def play(g, s, *actions, rng=None):
    """Apply each action (an index) after checking it is legal."""
    for a in actions:
        lg = g.legal_actions(s)
        assert a in lg, f"{g.action_name(a)} [{a}] not legal; legal: {[g.action_name(x) for x in lg]}"
        g.apply(s, a, rng)
