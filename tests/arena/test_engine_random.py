"""Seeded random play over every mode (docs/monolith_arena.md §9 invariants; ARCHITECTURE §6 layers 2-3).

Per game: ``check_invariants`` after every apply; sampled masked actions apply on a clone (all of them when
there are few), sampled unmasked actions raise; ``to_dict``/``from_dict`` round-trips with the same mask;
clone + same actions = same state; hidden information does not leak; returns sum to 0 and ``returns_list``
equals ``returns``; the game ends well before ``max_decisions``.
"""

import numpy as np
import pytest

from monolith_envs.arena.game import ArenaGame
from monolith_envs.core.game import IllegalActionError
from monolith_envs.core.state import states_equal
from tests.arena.configs import pick

CONFIGS = pick("duel", "ffa3", "rank_ffa4", "teams", "score_module", "reinforcement", "module_ffa3_reinf")
GAMES = 50


@pytest.mark.parametrize("name", list(CONFIGS))
def test_random_play(name):
    g = ArenaGame(CONFIGS[name])
    n_actions = g.layout.n
    for seed in range(GAMES):
        rng = np.random.default_rng(seed)
        s = g.initial_state(rng)
        g.check_invariants(s)
        deck_start = None
        steps = 0
        while not g.is_terminal(s):
            m = g.legal_mask(s)
            legal = np.flatnonzero(m)
            assert len(legal) > 0, f"no legal action at {steps} (sub-phase {s.sub_phase})"
            assert g.current_player(s) == s.acting_seat
            probe = legal if len(legal) <= 2 else rng.choice(legal, 2, replace=False)
            for a in probe:
                c = g.clone(s)
                g.apply(c, int(a))
                g.check_invariants(c)
            illegal = np.flatnonzero(~m)
            for a in rng.choice(illegal, 1):
                with pytest.raises(IllegalActionError):
                    g.apply(g.clone(s), int(a))
            if steps % 11 == 0:
                s2 = g.from_dict(g.to_dict(s))
                assert states_equal(s, s2)
                assert np.array_equal(g.legal_mask(s2), m)
                for p in range(g.num_players):
                    r = g.resample_hidden(s, p, rng)
                    assert np.array_equal(g.observe(r, p), g.observe(s, p)), "hidden information leaks"
                    o = g.observe(s, p)
                    assert o.shape == (g.obs_spec.size,) and g.obs_spec.space.contains(o)
            if deck_start is None and s.sub_phase >= 2:
                deck_start = [list(d) for d in s.deck]
            a = int(rng.choice(legal))
            hp_before = list(s.hp) + list(s.pool)
            g.apply(s, a)
            g.check_invariants(s)
            assert g.returns_list(s) == g.returns(s).tolist()  # the AEC env's fast path
            assert all(x <= y for x, y in zip(list(s.hp) + list(s.pool), hp_before)), "HP increased"
            if deck_start is not None:
                for p in range(g.num_players):  # invariant 4: decks only lose their top
                    assert s.deck[p] == deck_start[p][: len(s.deck[p])]
            steps += 1
            assert steps < g.max_decisions // 5
        assert not g.legal_mask(s).any()
        assert g.current_player(s) == -1
        assert abs(float(g.returns(s).sum())) < 1e-5
        assert 0 <= len(s.winners) <= g.num_players
    assert n_actions in (500, 848)


def test_clone_replay_determinism():
    g = ArenaGame({"monolith_module": True})
    rng = np.random.default_rng(7)
    s = g.initial_state(rng)
    c = g.clone(s)
    actions = []
    while not g.is_terminal(s):
        a = int(rng.choice(np.flatnonzero(g.legal_mask(s))))
        actions.append(a)
        g.apply(s, a)
    for a in actions:
        g.apply(c, a)
    assert states_equal(s, c)


def test_seeded_setup_is_reproducible():
    g = ArenaGame({"num_players": 4, "mode": "ffa"})
    a = g.initial_state(np.random.default_rng(11))
    b = g.initial_state(np.random.default_rng(11))
    assert states_equal(a, b)
    assert len(set(a.factions)) == 4
