"""``MonolithGame.end_reason`` (docs/the_monolith.md §8): the favour at the end and, for every tie, the seat
nearest the first player clockwise first: at the top the winner of ``ranking``, lower down its order."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_favour_and_the_tie_break_name_the_winner(n):
    g = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=n).game
    tied = lower_ties = 0
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
        m = re.search(r"; tied at the top, so the seat nearest the first player \(P(\d)\) clockwise wins: P(\d)(;|$)",
                      reason)
        if s.favour.count(max(s.favour)) > 1:
            tied += 1
            assert m and int(m.group(1)) == s.first and int(m.group(2)) == winner
        else:
            assert m is None
        ranking = list(g.ranking(s))
        lower = [lv for lv in sorted(set(s.favour), reverse=True)[1:] if s.favour.count(lv) > 1]
        for level in lower:  # each lower tie in the ranking's own order
            seats = " and ".join(f"P{p}" for p in ranking if s.favour[p] == level)
            assert (f"; {seats} tied at {level}, ranked in that order (nearest the first player P{s.first} "
                    "clockwise first)") in reason, reason
            lower_ties += 1
        assert reason.count("; ") == (m is not None) + len(lower)
    if n == 4:
        assert tied and lower_ties  # ties at the top and lower down occur in these seeds
