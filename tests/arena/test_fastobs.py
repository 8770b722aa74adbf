"""The compiled observation builder (``monolith_envs.arena._fastobs``) equals the pure-Python one.

``Observer.observe`` uses the compiled builder when it is built; ``Observer.observe_python`` is the
reference it must equal, value for value, for every seat (and the omniscient view) at every decision of
seeded random games in every named configuration.  Set ``MONOLITH_ENVS_PURE_PYTHON=1`` to run without the
extension (these tests are then skipped, and the envs use the Python builder).
"""

import os
import random
import weakref

import numpy as np
import pytest

from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.observe import PURE_PYTHON_ENV, Observer, compiled_available
from monolith_envs.arena.state import fast_clone
from tests.arena.configs import ARENA_CONFIGS

PURE = os.environ.get(PURE_PYTHON_ENV, "") == "1"
pure_requested = pytest.mark.skipif(PURE, reason=f"{PURE_PYTHON_ENV}=1: pure-Python observations requested")
# without the extension only test_compiled_builder_is_built_and_used fails (and says how to build it)
needs_compiled = pytest.mark.skipif(PURE or not compiled_available(), reason="the compiled builder is not used")
GAMES = 3


@pure_requested
def test_compiled_builder_is_built_and_used():
    assert compiled_available(), (
        "monolith_envs.arena._fastobs is not built: reinstall with a C compiler (pip install -e .), or set "
        f"{PURE_PYTHON_ENV}=1 to run on the pure-Python observation"
    )
    g = ArenaGame({})
    assert g.observer.compiled
    assert not Observer(g.rules, compiled=False).compiled


@needs_compiled
@pytest.mark.parametrize("name", list(ARENA_CONFIGS))
def test_compiled_observation_equals_python(name):
    g = ArenaGame(ARENA_CONFIGS[name])
    obs = g.observer
    rnd = random.Random(7)
    checked = 0
    for k in range(GAMES):
        s = g.initial_state(np.random.default_rng(100 + k))
        while True:
            for p in range(g.n):
                for omniscient in (False, True):
                    got = obs.observe(s, p, omniscient)
                    want = obs.observe_python(s, p, omniscient)
                    assert got.dtype == np.float32 and got.shape == (obs.size,)
                    assert np.array_equal(got, want), (
                        f"{name} game {k} decision {s.decisions} seat {p} omniscient {omniscient}: "
                        f"differs at {np.flatnonzero(got != want)[:10].tolist()}")
                    checked += 1
            if g.is_terminal(s) or s.decisions >= 1500:
                break
            legal = np.flatnonzero(g.legal_mask(s))
            g.apply(s, int(legal[rnd.randrange(legal.size)]))
    assert checked > 500


@needs_compiled
def test_compiled_builder_overwrites_every_value_of_a_dirty_buffer():
    """The builder writes all of ``out`` (make_vec hands it the row of the previous observation): a buffer
    of NaN and one of 7.0 both end as the pure-Python observation, at every decision of a seeded game."""
    from monolith_envs.arena import observe as observe_module
    from monolith_envs.arena.effects import get_fx

    g = ArenaGame({"num_players": 4, "mode": "ffa", "monolith_module": True})
    s = g.initial_state(np.random.default_rng(5))
    rnd = random.Random(5)
    checked = 0
    while not g.is_terminal(s) and s.decisions < 300:
        p = g.current_player(s)
        fx = s.fx_cache if s.fx_cache is not None else get_fx(g.rules, s)
        for fill in (np.nan, 7.0):
            out = np.full(g.observer.size, fill, np.float32)
            observe_module._fastobs.observe(g.observer._ctx, s, fx, p, False, out)
            assert np.array_equal(out, g.observer.observe_python(s, p)), f"decision {s.decisions}, fill {fill}"
            checked += 1
        legal = np.flatnonzero(g.legal_mask(s))
        g.apply(s, int(legal[rnd.randrange(legal.size)]))
    assert checked > 100


@needs_compiled
def test_compiled_observation_returns_a_fresh_array():
    g = ArenaGame({})
    s = g.initial_state(np.random.default_rng(0))
    a = g.observe(s, 0)
    a[:] = 7.0
    b = g.observe(s, 0)
    assert np.array_equal(b, g.observer.observe_python(s, 0))


@needs_compiled
def test_compiled_observation_rejects_bad_input_with_named_errors():
    g = ArenaGame({})
    s = g.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="seat 5 outside 0..1"):
        g.observer.observe(s, 5)
    bad = fast_clone(s)
    bad.wounds = "not a list"
    with pytest.raises(TypeError, match="wounds must be a list or tuple"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.hand[0][0] = 10_000  # an instance id outside itype
    with pytest.raises(IndexError, match="outside itype"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.sub_phase = 99
    with pytest.raises(ValueError, match="sub_phase 99"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    delattr(bad, "turn_seat")
    with pytest.raises(AttributeError, match="no field turn_seat"):
        g.observer.observe(bad, 0)


def test_pure_python_switch(monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    g = ArenaGame({})
    assert not g.observer.compiled
    s = g.initial_state(np.random.default_rng(0))
    assert g.observe(s, 1).shape == (g.observer.size,)


def test_deepcopied_env_observes_like_the_original():
    import copy

    import monolith_envs

    env = monolith_envs.make("monolith_arena_v0", monolith_module=True)
    env.reset(seed=4)
    rnd = random.Random(4)
    for _ in range(30):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rnd.choice(np.flatnonzero(mask))))
    twin = copy.deepcopy(env)
    assert twin.unwrapped.game.observer.compiled == env.unwrapped.game.observer.compiled
    for _ in range(30):
        a, b = env.observe(env.agent_selection), twin.observe(twin.agent_selection)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        action = int(rnd.choice(np.flatnonzero(a["action_mask"])))
        env.step(action)
        twin.step(action)


@needs_compiled
def test_compiled_context_rejects_malformed_tables():
    from monolith_envs.arena import _fastobs

    g = ArenaGame({})
    obs, tb = g.observer, g.tables
    ok = obs._make_context(g.rules)
    assert ok is not None
    args = [obs.static_flat, None, tb.tough, tb.melee, tb.ranged, tb.melee_dirs, tb.ranged_dirs, tb.fac_hp,
            list(g.team), float(g.team_hp)]
    with pytest.raises(TypeError, match="layout must be a dict of named ints"):
        _fastobs.make_context(*(args[:1] + [[1, 2, 3]] + args[2:]))
    good_ints = obs.layout_ints(g.rules)
    # every offset is read by its name, the sub-fields of the pieces included
    for missing in ("hex.netted", "hex.segment", "pending_hex", "empty_row", "seats.hp", "seats.row",
                    "scalars.uses", "monolith.hidden", "hands.stride", "config.teams", "per_seat", "loc_board"):
        partial = {k: v for k, v in good_ints.items() if k != missing}
        with pytest.raises(KeyError, match=f"the layout has no {missing}"):
            _fastobs.make_context(*(args[:1] + [partial] + args[2:]))
    with pytest.raises(ValueError, match="layout scalars.uses is -1, expected a non-negative C int"):
        _fastobs.make_context(*(args[:1] + [{**good_ints, "scalars.uses": -1}] + args[2:]))
    bad = list(args)
    bad[1] = good_ints
    bad[3] = tb.melee[:-1]
    with pytest.raises(ValueError, match="melee has .* types, expected"):
        _fastobs.make_context(*bad)
    bad = list(args)
    bad[1] = good_ints
    bad[0] = obs.static_flat[:-1]
    with pytest.raises(ValueError, match="static rows must be float32"):
        _fastobs.make_context(*bad)


class _RunsPythonCode:
    """A value whose conversion would run Python code (here: empty a list the builder may be reading)."""

    def __init__(self, victim: list):
        self.victim = victim

    def __bool__(self):
        self.victim.clear()
        return True

    def __index__(self):
        self.victim.clear()
        return 1


@needs_compiled
def test_compiled_observation_refuses_values_that_run_python_code():
    g = ArenaGame({})
    s = g.initial_state(np.random.default_rng(0))
    bad = fast_clone(s)
    bad.placed = _RunsPythonCode(bad.deck[0])
    with pytest.raises(TypeError, match="placed holds _RunsPythonCode, expected int"):
        g.observer.observe(bad, 0)
    assert bad.deck[0] == s.deck[0]  # never called
    bad = fast_clone(s)
    bad.alive[1] = _RunsPythonCode(bad.deck[1])
    with pytest.raises(TypeError, match="alive holds _RunsPythonCode"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.hand[0][0] = 2**80
    with pytest.raises(ValueError, match="hand holds a int that is not a C long"):
        g.observer.observe(bad, 0)
    # C-defined wrappers that forward to Python code are refused as well
    target = _RunsPythonCode(s.deck[0])
    bad = fast_clone(s)
    bad.deck[0] = [weakref.proxy(target)] + bad.deck[0]
    with pytest.raises(TypeError, match="deck holds weakref.ProxyType, expected int"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.turn_seat = np.array(_RunsPythonCode(bad.deck[0]), dtype=object)
    with pytest.raises(TypeError, match="turn_seat holds numpy.ndarray, expected int"):
        g.observer.observe(bad, 0)
    assert s.deck[0] and bad.deck[0] == s.deck[0]
    for value in (None, 2.0, "1"):  # no silent conversion of non-ints
        bad = fast_clone(s)
        bad.poison_supply = value
        with pytest.raises(TypeError, match="poison_supply holds"):
            g.observer.observe(bad, 0)


def test_both_builders_reject_a_seat_out_of_range_and_a_bad_tile_type():
    g = ArenaGame({})
    s = g.initial_state(np.random.default_rng(0))
    for builder in (g.observer.observe, g.observer.observe_python):
        for seat in (-1, 2):
            with pytest.raises(ValueError, match=f"seat {seat} outside 0..1"):
                builder(s, seat)
    bad = fast_clone(s)
    bad.itype[bad.deck[0][0]] = 2**62  # np.bincount would try to allocate that many counters
    with pytest.raises(IndexError, match="type"):
        g.observer.observe_python(bad, 0)
    if g.observer.compiled:
        with pytest.raises(IndexError, match="type"):
            g.observer.observe(bad, 0)


def test_game_and_env_can_be_pickled():
    import pickle

    import monolith_envs

    g = ArenaGame({"monolith_module": True})
    s = g.initial_state(np.random.default_rng(5))
    g2 = pickle.loads(pickle.dumps(g))
    assert g2.observer.compiled == g.observer.compiled
    assert np.array_equal(g2.observe(s, 1), g.observe(s, 1))
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=5)
    twin = pickle.loads(pickle.dumps(env))
    assert np.array_equal(twin.observe("player_0")["observation"], env.observe("player_0")["observation"])


@needs_compiled
def test_compiled_observation_accepts_numpy_scalars_like_python():
    g = ArenaGame({"monolith_module": True})
    s = g.initial_state(np.random.default_rng(1))
    rnd = random.Random(1)
    for _ in range(40):
        legal = np.flatnonzero(g.legal_mask(s))
        g.apply(s, int(legal[rnd.randrange(legal.size)]))
    odd = fast_clone(s)
    odd.hand = [[np.int64(i) for i in h] for h in odd.hand]
    odd.fresh = [[np.bool_(f) for f in fr] for fr in odd.fresh]
    odd.alive = [np.bool_(a) for a in odd.alive]
    odd.uses = np.float32(odd.uses)
    for p in range(g.n):
        assert np.array_equal(g.observer.observe(odd, p), g.observer.observe_python(s, p))
