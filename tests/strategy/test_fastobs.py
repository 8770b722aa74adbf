"""The compiled observation builder (``monolith_envs.strategy._fastobs``) equals the pure-Python one, bit for bit.

``Observer.observe`` uses the compiled builder when it is built; ``Observer.observe_python`` is the reference
it must equal for every seat at every decision of seeded random games in 1, 2, 3 and 4 players with Exalted
rounds and Player Powers on, and with the intro layouts.  Set ``MONOLITH_ENVS_PURE_PYTHON=1`` to run without
the extension (these tests are then skipped, and the env uses the Python builder).
"""

import copy
import os

import numpy as np
import pytest

from monolith_envs.strategy.game import StrategyGame
from monolith_envs.strategy.observe import PURE_PYTHON_ENV, Observer, compiled_available
from monolith_envs.strategy.state import Kind, fast_clone

PURE = os.environ.get(PURE_PYTHON_ENV, "") == "1"
pure_requested = pytest.mark.skipif(PURE, reason=f"{PURE_PYTHON_ENV}=1: pure-Python observations requested")
needs_compiled = pytest.mark.skipif(PURE or not compiled_available(), reason="the compiled builder is not used")

CONFIGS = {
    "solo_powers": {"num_players": 1, "player_powers": True},
    "2p_powers": {"num_players": 2, "player_powers": True},
    "3p_powers": {"num_players": 3, "player_powers": True},
    "4p_powers": {"num_players": 4, "player_powers": True},
    "2p_intro": {"num_players": 2, "intro_layout": True},
    "4p_intro_powers": {"num_players": 4, "intro_layout": True, "player_powers": True},
    "solo_intro": {"num_players": 1, "intro_layout": True},
}
GAMES = {1: 8, 2: 3, 3: 2, 4: 2}  # seeded games per seat count (each decision checks every seat)


@pure_requested
def test_compiled_builder_is_built_and_used():
    assert compiled_available(), (
        "monolith_envs.strategy._fastobs is not built: python setup.py build_ext --inplace (or pip install -e .), "
        f"or set {PURE_PYTHON_ENV}=1 to run on the pure-Python observation")
    g = StrategyGame({})
    assert g.observer.compiled
    assert not Observer(g.rules, compiled=False).compiled


@needs_compiled
@pytest.mark.parametrize("name", list(CONFIGS))
def test_compiled_observation_equals_python(name):
    g = StrategyGame(CONFIGS[name])
    obs = g.observer
    n = g.num_players
    checked, kinds = 0, set()
    for seed in range(GAMES[n]):
        rng = np.random.default_rng(300 + seed)
        s = g.initial_state(rng)
        while True:
            for p in range(n):
                got = obs.observe(s, p)
                want = obs.observe_python(s, p)
                assert got.dtype == np.float32 and got.shape == (obs.size,)
                assert got.tobytes() == want.tobytes(), (
                    f"{name} game {seed} decision {s.decisions} seat {p}: differs at "
                    f"{np.flatnonzero(got != want)[:10].tolist()}")
                checked += 1
            if g.is_terminal(s) or s.decisions >= g.max_decisions:
                break
            kinds.add(s.pending["k"])
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    assert checked > 150
    assert Kind.TURN in kinds and len(kinds) >= 3  # several decision kinds were seen


@needs_compiled
def test_compiled_observation_of_a_fresh_state_has_its_values():
    g = StrategyGame({"num_players": 2})
    s = g.initial_state(np.random.default_rng(0))
    v = g.observe(s, 0)
    o = g.observer.o
    assert v[o["num_players"] + 1] == 1.0 and v[o["round"]] == 1.0
    assert v[o["flags"] + o["flags.exalted"]] == 1.0 and v[o["flags"] + o["flags.solo"]] == 0.0
    assert v[o["players"] + o["players.present"]] == 1.0  # the observer's own row
    assert v[o["players"] + o["players.gems"]] == np.float32(s.gems[0] / 20)
    v[:] = 7.0  # a fresh array each call
    assert g.observe(s, 0).tobytes() == g.observer.observe_python(s, 0).tobytes()


@needs_compiled
def test_compiled_observation_rejects_bad_input_with_named_errors():
    g = StrategyGame({"num_players": 2})
    s = g.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="seat 5 outside 0..1"):
        g.observer.observe(s, 5)
    bad = fast_clone(s)
    bad.sock_seat = "not a list"
    with pytest.raises(TypeError, match="sock_seat must be a list or tuple"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.vp = [1.5, 2]
    with pytest.raises(TypeError, match="vp holds float, expected int"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.board = [-1] * 5
    with pytest.raises(IndexError, match="outside board"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    bad.pending = {"seat": 0}
    with pytest.raises(KeyError, match="pending has no key k"):
        g.observer.observe(bad, 0)
    bad = fast_clone(s)
    delattr(bad, "guard")
    with pytest.raises(AttributeError, match="no field guard"):
        g.observer.observe(bad, 0)


def test_pure_python_switch(monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    g = StrategyGame({"num_players": 3})
    assert not g.observer.compiled
    s = g.initial_state(np.random.default_rng(0))
    assert g.observe(s, 1).tobytes() == g.observer.observe_python(s, 1).tobytes()


def test_copied_game_observes_like_the_original():
    g = StrategyGame({"num_players": 2, "player_powers": True})
    rng = np.random.default_rng(3)
    s = g.initial_state(rng)
    for _ in range(25):
        g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    twin = copy.deepcopy(g)
    assert twin.observer.compiled == g.observer.compiled
    for p in range(2):
        assert twin.observe(s, p).tobytes() == g.observe(s, p).tobytes()
