"""The compiled observation builder (``monolith_envs.the_monolith._fastobs``) equals the pure-Python one.

``Observer.observe`` uses the compiled builder when it is built; ``Observer.observe_python`` is the reference
it must equal, bit for bit, for every seat at every decision of seeded random games in 2p, 3p, 4p, 4p with
the shaman draft and with non-default tower weights and retention. Set ``MONOLITH_ENVS_PURE_PYTHON=1`` to run
without the extension (these tests are then skipped, and the env uses the Python builder).
"""

import copy
import os
import random

import numpy as np
import pytest

from monolith_envs.the_monolith.game import MonolithGame
from monolith_envs.the_monolith.observe import PURE_PYTHON_ENV, Observer, compiled_available
from monolith_envs.the_monolith.state import Sub, fast_clone

PURE = os.environ.get(PURE_PYTHON_ENV, "") == "1"
pure_requested = pytest.mark.skipif(PURE, reason=f"{PURE_PYTHON_ENV}=1: pure-Python observations requested")
# without the extension only test_compiled_builder_is_built_and_used fails (and says how to build it)
needs_compiled = pytest.mark.skipif(PURE or not compiled_available(), reason="the compiled builder is not used")

CONFIGS = {
    "2p": {"num_players": 2},
    "3p": {"num_players": 3},
    "4p": {"num_players": 4},
    "4p_draft": {"num_players": 4, "shaman_assignment": "draft"},
    "4p_tower": {"num_players": 4, "tower_weights": [1, 0, 3], "tower_retention": 0.4},
}
GAMES = 5


def _play(g, seed: int):
    """The state of one seeded random game at each decision (one object, advanced in place), the last one last."""
    rnd, rng = random.Random(seed), np.random.default_rng(seed)
    s = g.initial_state(rng)
    while True:
        yield s
        if g.is_terminal(s) or s.decisions >= g.max_decisions:
            return
        legal = g.legal_actions(s)
        g.apply(s, legal[rnd.randrange(len(legal))], rng)


@pure_requested
def test_compiled_builder_is_built_and_used():
    assert compiled_available(), (
        "monolith_envs.the_monolith._fastobs is not built: reinstall with a C compiler (pip install -e .), or "
        f"set {PURE_PYTHON_ENV}=1 to run on the pure-Python observation")
    g = MonolithGame({})
    assert g.observer.compiled
    assert not Observer(g, compiled=False).compiled


@needs_compiled
@pytest.mark.parametrize("name", list(CONFIGS))
def test_compiled_observation_equals_python_at_every_decision(name):
    g = MonolithGame(CONFIGS[name])
    obs = g.observer
    checked, kinds = 0, set()
    for seed in range(GAMES):
        for s in _play(g, seed):
            kinds.add(s.sub)
            for p in range(g.n):
                got, want = obs.observe(s, p), obs.observe_python(s, p)
                assert got.dtype == np.float32 and got.shape == (obs.spec.size,)
                assert got.tobytes() == want.tobytes(), (
                    f"{name} game {seed} decision {s.decisions} seat {p}: differs at "
                    f"{np.flatnonzero(got != want)[:10].tolist()}")
                checked += 1
            assert got.sum() > 10  # a real observation, not zeros
    assert checked > 300 * g.n
    assert {Sub.ORDER_CHOOSE, Sub.MARCH_STEP, Sub.ACTION_CHOOSE} <= kinds
    if name == "4p_draft":
        assert Sub.DRAFT_OPEN_BID in kinds


@needs_compiled
def test_compiled_observation_of_a_hand_built_position():
    """Held divinations change the shaman weight (control), an event sets a tunnel, the objective discards."""
    g = MonolithGame({"num_players": 4})
    s = next(st for st in _play(g, 5) if st.sub == Sub.ACTION_CHOOSE)
    s = fast_clone(s)
    weight_card = next(i for i, d in enumerate(g.divs) if d.effect.name == "shaman_control_weight")
    s.held[s.current] = [weight_card]
    tunnel_event = next(i for i, e in enumerate(g.events) if any(x.op == "set_tunnel" for x in e.reveal))
    s.events = [[tunnel_event, g.active_spaces[3]]]
    s.obj_discard = [[0, 1], [1, 0]]
    for p in range(4):
        assert g.observer.observe(s, p).tobytes() == g.observer.observe_python(s, p).tobytes()


@needs_compiled
def test_compiled_observation_returns_a_fresh_array():
    g = MonolithGame({})
    s = g.initial_state(np.random.default_rng(0))
    a = g.observe(s, 0)
    a[:] = 7.0
    assert np.array_equal(g.observe(s, 0), g.observer.observe_python(s, 0))


@needs_compiled
def test_compiled_observation_rejects_bad_input_with_named_errors():
    g = MonolithGame({"num_players": 3})
    s = g.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="observer seat 3 outside 0..2"):
        g.observer.observe(s, 3)
    bad = fast_clone(s)
    bad.living = "not a list"
    with pytest.raises(TypeError, match="living must be a list"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.held[1] = [10_000]
    with pytest.raises(ValueError, match="a held divination is 10000"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.favour = [1]
    with pytest.raises(IndexError, match="favour has 1 entries"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.favour[0] = "x"
    with pytest.raises(TypeError, match="favour holds str, expected int"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    delattr(bad, "row")
    with pytest.raises(AttributeError, match="no field row"):
        g.observer.observe(bad, 0)


@needs_compiled
def test_compiled_observation_reads_numpy_ints():
    g = MonolithGame({})
    s = g.initial_state(np.random.default_rng(1))
    t = fast_clone(s)
    t.favour = [np.int64(x + 3) for x in t.favour]
    t.committed = [np.bool_(x) for x in t.committed]
    t.current = np.int32(t.current)
    for p in range(g.n):
        assert g.observer.observe(t, p).tobytes() == g.observer.observe_python(t, p).tobytes()


def test_pure_python_switch(monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    g = MonolithGame({})
    assert not g.observer.compiled
    s = g.initial_state(np.random.default_rng(0))
    assert np.array_equal(g.observe(s, 1), g.observer.observe_python(s, 1))


def test_copied_game_observes_like_the_original():
    g = MonolithGame({"num_players": 3})
    twin = copy.deepcopy(g)
    assert twin.observer.compiled == g.observer.compiled
    for s in _play(g, 2):
        if s.decisions > 60:
            break
        for p in range(3):
            assert twin.observe(s, p).tobytes() == g.observe(s, p).tobytes()
