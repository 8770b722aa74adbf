"""``ArenaGame.end_reason``: why a finished game ended as it did (docs/monolith_arena.md §4.9), as terminal and
browser play say it at the end: a Banner or a pool at 0, the others eliminated, or the final Battle's HP and,
where the top is tied, the own Champions and Runes on the board, whose counts name the winners."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs
from monolith_envs.arena.endgame import banner_check, tile_count
from monolith_envs.arena.state import Sub


def _game(**cfg):
    return monolith_envs.make("monolith_arena_v0", wrapped=False, **cfg).game


def _random_end(g, seed):
    rng = np.random.default_rng(seed)
    s = g.initial_state(rng)
    while not s.terminal:
        g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))))
    return s


@pytest.mark.parametrize("cfg", [{}, {"num_players": 3, "mode": "ffa"}, {"num_players": 4, "mode": "ffa"}])
def test_a_tied_final_battle_names_the_tie_break_counts_that_pick_the_winners(cfg):
    g = _game(**cfg)
    tied = plain = 0
    for seed in range(40):
        s = _random_end(g, seed)
        reason = g.end_reason(s)
        if not reason.startswith("after the final Battle: "):
            continue
        alive = [p for p in range(g.num_players) if s.alive[p]]
        hp = {p: max(0, s.hp[p]) for p in alive}
        assert reason.startswith("after the final Battle: HP " + ", ".join(f"P{p} {hp[p]}" for p in alive))
        top = [p for p in alive if hp[p] == max(hp.values())]
        if len(top) == 1:
            plain += 1
            assert s.winners == top and "tie" not in reason
            continue
        tied += 1
        m = re.search(r"; tied at the top, so own Champions and Runes on the board decide: (.*)$", reason)
        assert m, reason
        counts = {int(p): int(c) for p, c in re.findall(r"P(\d) (\d+)", m.group(1))}
        assert counts == {p: tile_count(g.rules, s, p) for p in top}
        assert s.winners == sorted(p for p in top if counts[p] == max(counts.values()))
        assert reason.endswith("; still tied, so a draw") == (len(s.winners) == g.num_players)
    assert tied and plain  # both kinds of ending occur in these seeds


def test_a_banner_at_zero_and_the_teams_pool_and_ffa_eliminations():
    g = _game()
    s = g.initial_state(np.random.default_rng(0))
    assert g.end_reason(s) == ""
    s.hp[1] = 0
    assert banner_check(g.rules, s) and s.winners == [0]
    assert g.end_reason(s) == "P1's Banner reached 0 HP"
    g = _game(num_players=4, mode="teams")
    s = g.initial_state(np.random.default_rng(0))
    s.pool[0] = 0
    assert banner_check(g.rules, s) and s.winners == [1, 3]
    assert g.end_reason(s) == "team A's pool reached 0"
    g = _game(num_players=3, mode="ffa")
    s = g.initial_state(np.random.default_rng(1))
    while s.sub_phase != Sub.MAIN:  # the setup places every Banner
        g.apply(s, int(np.flatnonzero(g.legal_mask(s))[0]))
    s.hp[0] = s.hp[2] = 0
    assert banner_check(g.rules, s) and s.winners == [1]
    assert g.end_reason(s) == "every other player was eliminated"
