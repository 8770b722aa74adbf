"""``StrategyGame.end_reason`` (docs/monolith_strategy.md §8): Final Scoring's VP and, where the top is tied, the
key that decides (gem value, then Power cards held), whose values name the winner; a VICTORY; the solo goal."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs
from monolith_envs.strategy.returns import keys


def _game(n):
    return monolith_envs.make("monolith_strategy_v0", wrapped=False, num_players=n).game


def _random_end(g, seed):
    rng = np.random.default_rng(seed)
    s = g.initial_state(rng)
    while not g.is_terminal(s):
        g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    return s


@pytest.mark.parametrize("n", [2, 4])
def test_final_scoring_names_the_key_that_picks_the_winner(n):
    g = _game(n)
    tied = 0
    for seed in range(30):
        s = _random_end(g, seed)
        reason, ks = g.end_reason(s), keys(g, s)
        assert g.end_reason(s).startswith("after Final Scoring: VP " + ", ".join(f"P{p} {s.vp[p]}" for p in range(n)))
        outcome = [o.value for o in g.outcome(s)]
        steps = re.findall(r"tied, so (gem value decides|Power cards held decide): ([^;]*)", reason)
        tied += bool(steps)
        top = [p for p in range(n) if ks[p][1] == max(k[1] for k in ks)]
        for i, (what, values) in enumerate(steps, 2):  # each step lists the seats still tied, with the key's value
            assert what == ("gem value decides" if i == 2 else "Power cards held decide")
            named = {int(p): int(v) for p, v in re.findall(r"P(\d) (-?\d+)", values)}
            assert sorted(named) == top and named == {p: ks[p][i] for p in top}
            top = [p for p in top if ks[p][i] == max(named.values())]
        if reason.endswith("tied on all three, so nobody wins"):
            assert "win" not in outcome and outcome.count("draw") == len(top) > 1
        else:
            assert len(top) == 1 and outcome[top[0]] == "win"
    assert tied  # a tie at the top occurs in these seeds


def test_a_victory_and_the_solo_goal():
    g = _game(2)
    s = g.initial_state(np.random.default_rng(0))
    assert g.end_reason(s) == ""
    s.terminal, s.winner, s.vp[1] = True, 1, g.rules.victory
    assert g.end_reason(s) == f"P1 reached VICTORY ({g.rules.victory} VP)"
    solo = _game(1)
    s = _random_end(solo, 3)
    goal = min(solo.solo_goal, solo.rules.victory)
    assert solo.end_reason(s) == f"{s.vp[0]} VP: the goal of {goal} VP is " + ("reached" if solo.success(s)
                                                                                  else "missed")
