"""``MonolithGame.end_reason`` (docs/the_monolith.md §8): the favour at the end and, where the top is tied, the
seat nearest the first player clockwise, which is the winner of ``ranking``."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_favour_and_the_tie_break_name_the_winner(n):
    g = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=n).game
    tied = 0
    for seed in range(12 if n == 4 else 8):
        rng = np.random.default_rng(seed)
        s = g.initial_state(rng)
        assert g.end_reason(s) == ""
        while not g.is_terminal(s):
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
        reason = g.end_reason(s)
        favour = ", ".join(f"P{p} {s.favour[p]}" for p in range(n))
        assert reason.startswith(f"favour at the end (held objectives counted): {favour}")
        winner = g.ranking(s)[0]
        assert g.outcome(s)[winner].value == "win" and s.favour[winner] == max(s.favour)
        m = re.search(r"; tied at the top, so the seat nearest the first player \(P(\d)\) clockwise wins: P(\d)$",
                      reason)
        if s.favour.count(max(s.favour)) > 1:
            tied += 1
            assert m and int(m.group(1)) == s.first and int(m.group(2)) == winner
        else:
            assert m is None
    if n == 4:
        assert tied  # a tie at the top occurs in these seeds
