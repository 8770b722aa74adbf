"""The effect engine's fast paths equal their plain definitions at every decision of seeded random games
(docs/monolith_strategy.md §10): ``move_sources`` (the SOCKET_SRC options of move_die) against the socketed
dice of ``own_socketed`` filtered by ``available`` (docs §5.2), and ``has_move_source`` against it; also on
copies with nearly every socket blocked, so that few destinations are left."""

import numpy as np
import pytest

from monolith_envs.strategy.effects import has_move_source, move_sources
from monolith_envs.strategy.game import StrategyGame
from monolith_envs.strategy.state import fast_clone

CONFIGS = {
    "solo": {"num_players": 1, "player_powers": True},
    "2p": {"num_players": 2, "player_powers": True},
    "4p_intro": {"num_players": 4, "intro_layout": True},
}


def move_sources_walk(R, s, p):
    """p's non-reserved socketed dice that ``available`` (no Stacker bumps) gives another socket."""
    return [sid for sid, f in R.own_socketed(s, p) if any(d != sid for d in R.available(s, p, f, False))]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_move_sources_equal_their_definition(name):
    g = StrategyGame(CONFIGS[name])
    R = g.rules
    checked = movable = unmovable = 0
    for seed in range(4):
        rng = np.random.default_rng(700 + seed)
        prng = np.random.default_rng(seed)
        s = g.initial_state(rng)
        while not g.is_terminal(s):
            blocked = fast_clone(s)
            blocked.blocked = [bool(x) for x in prng.random(52) < 0.97]
            for c in (s, blocked):
                for p in range(g.num_players):
                    want = move_sources_walk(R, c, p)
                    assert move_sources(R, c, p) == want, f"{name} game {seed} decision {s.decisions} seat {p}"
                    assert has_move_source(R, c, p) == bool(want)
                    movable += bool(want)
                    unmovable += bool(R.own_socketed(c, p)) and not want
                    checked += 1
            g.apply(s, int(rng.choice(g.legal_list(s))), rng)
    assert checked > 200 and movable > 20 and unmovable > 0
