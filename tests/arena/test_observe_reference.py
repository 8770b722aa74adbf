"""The engine's observation, continuous effects and legal mask equal plain reference computations.

``Observer.observe`` (precomputed rows, caches on the state) and the cached effects and masks are checked
value for value against :mod:`tests.arena.reference_observe` and against a mask recomputed on a fresh clone
(no caches), for every seat at every decision of seeded random games, through the engine and through the
AEC env.
"""

import numpy as np
import pytest

import monolith_envs
from monolith_envs.arena.effects import Fx, get_fx
from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.state import fast_clone
from monolith_envs.arena.table import compute_mask
from tests.arena.configs import pick
from tests.arena.reference_observe import reference_fx, reference_observe

CONFIGS = pick(
    "duel", "ffa3", "ffa4", "teams", "module", "reinforcement", "module_reinf", "module_ffa3", "module_teams", "module_ffa4_reinf",
)
GAMES = 3


FX_FIELDS = ("netted", "disarmed", "marker", "inits", "melee_b", "ranged_b", "charge_b", "tough", "pierce",
             "venom", "maneuver", "rotate", "regen", "tele", "segowner", "segk", "armor")


def _check_fx(g, s, fx: Fx) -> None:
    ref = reference_fx(g, fast_clone(s))
    for k in FX_FIELDS:
        assert getattr(fx, k) == getattr(ref, k), f"cached effects differ from the reference in {k}"
    tb = g.tables
    assert fx.occ == [h for h in range(19) if s.board[h] >= 0]
    for h in range(19):
        i = s.board[h]
        assert (fx.owner[h], fx.typ[h], fx.fac[h]) == ((i // 35, s.itype[i], s.facing[i]) if i >= 0 else (-1, -1, 0))
    for h in set(fx.occ) - set(fx.touched):  # untouched tiles have their printed values
        t = fx.typ[h]
        assert not fx.netted[h] and not fx.disarmed[h] and not fx.melee_b[h] and not fx.ranged_b[h]
        assert fx.inits[h] == tb.init[t] and fx.tough[h] == tb.tough[t]


def _check_state(g, s):
    fresh = fast_clone(s)  # no caches
    assert np.array_equal(g.legal_mask(s), compute_mask(g.rules, fresh)), "cached mask differs from a fresh one"
    if not s.terminal:
        _check_fx(g, s, get_fx(g.rules, s))
    for p in range(g.num_players):
        got = g.observe(s, p)
        want = reference_observe(g, fresh, p)
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(got, want), f"seat {p}: differs at {np.flatnonzero(got != want)[:10]}"
    assert np.array_equal(g.state_vector(s), reference_observe(g, fresh, 0, omniscient=True))


@pytest.mark.parametrize("name", list(CONFIGS))
def test_engine_observation_matches_reference(name):
    g = ArenaGame(CONFIGS[name])
    decisions = 0
    for seed in range(GAMES):
        rng = np.random.default_rng(100 + seed)
        s = g.initial_state(rng)
        while True:
            _check_state(g, s)
            if g.is_terminal(s):
                break
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))))
            decisions += 1
    assert decisions >= 200


@pytest.mark.parametrize("name", ["duel", "ffa4", "module", "module_ffa4_reinf"])
def test_aec_observation_matches_reference(name):
    env = monolith_envs.make("monolith_arena_v0", **CONFIGS[name])
    raw = env.unwrapped
    g = raw.game
    rng = np.random.default_rng(7)
    steps = 0
    for seed in range(GAMES):
        env.reset(seed=200 + seed)
        for agent in env.agent_iter():
            obs, _rew, term, trunc, _info = env.last()
            s = raw.game_state
            fresh = fast_clone(s)
            want_mask = compute_mask(g.rules, fresh)
            for other in env.possible_agents:
                o = env.observe(other)
                p = raw.agent_name_mapping[other]
                assert np.array_equal(o["observation"], reference_observe(g, fresh, p))
                if other == agent and not (term or trunc):
                    assert o["action_mask"].dtype == np.int8
                    assert np.array_equal(o["action_mask"], want_mask.astype(np.int8))
                else:
                    assert not o["action_mask"].any()
            assert np.array_equal(obs["observation"], env.observe(agent)["observation"])
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    assert steps >= 200
