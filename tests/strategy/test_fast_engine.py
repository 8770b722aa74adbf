"""The engine's shortcuts equal their plain definitions at every decision of seeded random games
(docs/monolith_strategy.md §10): every decision's legal list is strictly ascending (``apply`` finds an
action in it by binary search), ``spend_value`` without earmarks against ``spendable``, and the BOARD
selector ``each_here`` against the seats of the position's dice totals."""

import numpy as np
import pytest

from monolith_envs.core.game import IllegalActionError
from monolith_envs.strategy.effects import _totals, board_selector, ctx_of
from monolith_envs.strategy.game import StrategyGame
from monolith_envs.strategy.state import fast_clone

CONFIGS = {
    "solo": {"num_players": 1, "player_powers": True},
    "2p": {"num_players": 2, "player_powers": True},
    "4p": {"num_players": 4, "exalted": True, "player_powers": True},
}


def spend_value_walk(R, s, p):
    """Physical gems plus the printed gems of the spendable cards, as ``spendable`` lists them."""
    phys, cards = R.spendable(s, p)
    return phys + sum(R.gems_of[k] * v for k, v in cards.items())


@pytest.mark.parametrize("name", list(CONFIGS))
def test_engine_shortcuts_equal_their_definitions(name):
    g = StrategyGame(CONFIGS[name])
    R = g.rules
    checked = kinds = earmarked = here = 0
    seen = set()
    for seed in range(4):
        rng = np.random.default_rng(900 + seed)
        s = g.initial_state(rng)
        while not g.is_terminal(s):
            legal = g.legal_list(s)
            assert legal and all(a < b for a, b in zip(legal, legal[1:])), (seed, s.decisions, s.pending["k"])
            seen.add(s.pending["k"])
            for p in range(g.num_players):
                assert R.spend_value(s, p) == spend_value_walk(R, s, p)
                earmarked += bool(s.reveal[p])
            for pos in range(1, 14):
                want = [q for q in R.order(s) if q in _totals(R, s, ctx_of("BOARD", -1, pos))]
                assert board_selector(R, s, "each_here", ctx_of("BOARD", -1, pos)) == want
                here += bool(want)
            # an action between two legal ones, or past the last, is refused and changes nothing
            gaps = [a + 1 for a, b in zip(legal, legal[1:]) if b > a + 1] + [legal[-1] + 1]
            if gaps[0] < g.layout.n:
                c = fast_clone(s)
                with pytest.raises(IllegalActionError):
                    g.apply(c, gaps[0], rng)
            checked += 1
            g.apply(s, int(legal[int(rng.integers(len(legal)))]), rng)
    kinds = len(seen)
    assert checked > 150 and kinds >= 6 and earmarked > 0 and here > 0
