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


def test_a_features_used_flag_lasts_only_its_turn():
    """The hex rows' ``used`` flag is "a Feature used this turn" (docs §7.1): set after P0's Nightmare
    teleports, cleared when P0's turn ends (it stayed set through the other seats' turns), in both
    builders; the rules never read it outside its owner's turn."""
    import numpy as np

    from monolith_envs.arena.positions_text import parse_position

    g, s = parse_position("""
factions: lords_of_the_abyss, dragon_empire
0: la_banner
9: la_nightmare f=0
18: de_banner
turn: P0
""")
    lo, _hi = g.obs_spec["hex"].field("used")

    def used_hexes(seat):
        rows = g.obs_spec.view(g.observe(s, seat), "hex")
        assert np.array_equal(g.observer.observe_python(s, seat), g.observe(s, seat))
        return [h for h in range(19) if rows[h, lo] == 1.0]

    o = g.off
    for action in (o.FEATURE + 1 * 19 + 9, o.HEX + 4, o.ROT + 2):  # teleport the Nightmare to hex 4
        g.apply(s, action)
    assert used_hexes(0) == used_hexes(1) == [4]
    g.apply(s, o.END)
    assert s.turn_seat == 1
    assert used_hexes(0) == used_hexes(1) == []
