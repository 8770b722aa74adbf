"""The compiled TURN legal-action lists (``monolith_envs.strategy._fastmask``) equal the pure-Python ones.

``turn.turn_mask_list`` uses the compiled ``turn_legal`` when the extension is built; ``turn.turn_mask_python``
is the reference it must equal at every TURN decision of seeded random games in 1, 2, 3 and 4 players (Exalted
rounds and Player Powers on, and the intro layouts), and on perturbed copies of those states (blocked
sockets, a Stacker bump ready, the placement spent or done). ``MONOLITH_ENVS_PURE_PYTHON=1`` forces the
Python lists (these comparison tests are then skipped).
"""

import copy
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

from monolith_envs.strategy.game import StrategyGame
from monolith_envs.strategy.observe import PURE_PYTHON_ENV
from monolith_envs.strategy.state import Kind, fast_clone
from monolith_envs.strategy.turn import _fastmask, mask_context, turn_mask_list, turn_mask_python

PURE = os.environ.get(PURE_PYTHON_ENV, "") == "1"
needs_compiled = pytest.mark.skipif(PURE or _fastmask is None, reason="the compiled TURN lists are not used")

CONFIGS = {
    "solo_powers": {"num_players": 1, "player_powers": True},
    "2p_powers": {"num_players": 2, "player_powers": True},
    "3p_powers": {"num_players": 3, "player_powers": True},
    "4p_powers": {"num_players": 4, "player_powers": True},
    "2p_intro": {"num_players": 2, "intro_layout": True},
    "4p_no_exalted": {"num_players": 4, "exalted": False},
}
GAMES = {1: 12, 2: 6, 3: 4, 4: 4}


def _perturbed(s, rng):
    """Copies of ``s`` that reach the other branches: blocked sockets, a ready Stacker bump, no placement
    left, the mandatory placement done without socketing."""
    out = []
    for change in ({"stack_ready": True}, {"left": 0}, {"mandatory_done": True, "socketed": False},
                   {"mandatory_done": True, "socketed": True, "stack_ready": True}):
        c = fast_clone(s)
        c.turn = dict(c.turn, **change)
        out.append(c)
        b = fast_clone(c)
        b.blocked = [bool(x) for x in rng.random(52) < 0.3]
        out.append(b)
    return out


@needs_compiled
def test_compiled_lists_are_used():
    g = StrategyGame({})
    assert g.rules.mask_ctx is not None
    assert mask_context(g.rules, compiled=False) is None


@needs_compiled
@pytest.mark.parametrize("name", list(CONFIGS))
def test_compiled_turn_lists_equal_python(name):
    g = StrategyGame(CONFIGS[name])
    R = g.rules
    checked, casts = 0, 0
    for seed in range(GAMES[g.num_players]):
        rng = np.random.default_rng(500 + seed)
        prng = np.random.default_rng(seed)  # the perturbations' own draws: the game's are untouched
        s = g.initial_state(rng)
        while not g.is_terminal(s) and s.decisions < g.max_decisions:
            if s.pending["k"] == Kind.TURN:
                for c in [s] + _perturbed(s, prng):
                    got, want = turn_mask_list(R, c), turn_mask_python(R, c)
                    assert got == want, f"{name} game {seed} decision {s.decisions} turn {c.turn}"
                    assert all(type(a) is int for a in got)
                    casts += any(a >= R.off.CAST for a in got)
                    checked += 1
            g.apply(s, int(rng.choice(g.legal_list(s))), rng)
    assert checked > 400 and casts > 20


@needs_compiled
def test_legal_mask_from_the_compiled_bytes():
    g = StrategyGame({"num_players": 2})
    s = g.initial_state(np.random.default_rng(3))
    m = g.legal_mask(s)
    assert m.dtype == np.bool_ and m.shape == (g.layout.n,)
    assert np.flatnonzero(m).tolist() == g.legal_list(s)
    assert bytes(_fastmask.mask_of([0, 3], 5)) == b"\x01\x00\x00\x01\x00"
    with pytest.raises(IndexError, match="action 5 outside 0..4"):
        _fastmask.mask_of([5], 5)


@needs_compiled
def test_malformed_state_names_the_field():
    g = StrategyGame({"num_players": 2})
    s = g.initial_state(np.random.default_rng(0))
    bad = fast_clone(s)
    bad.turn = {"player": 0}
    with pytest.raises(KeyError, match="turn has no key left"):
        turn_mask_list(g.rules, bad)
    bad = fast_clone(s)
    bad.pool = [["x"] * 6] * 2
    with pytest.raises(TypeError, match="pool holds str"):
        turn_mask_list(g.rules, bad)
    bad = fast_clone(s)
    bad.turn = dict(bad.turn, player=7)
    with pytest.raises(IndexError, match="index 7 outside pool"):
        turn_mask_list(g.rules, bad)


@needs_compiled
def test_copied_and_pickled_games_rebuild_the_context():
    g = StrategyGame({"num_players": 2})
    s = g.initial_state(np.random.default_rng(1))
    for g2 in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert g2.rules.mask_ctx is not None and g2.rules.mask_ctx is not g.rules.mask_ctx
        assert turn_mask_list(g2.rules, s) == turn_mask_python(g.rules, s)


def test_pure_python_variable_forces_the_python_lists():
    code = ("from monolith_envs.strategy.game import StrategyGame; g = StrategyGame({}); "
            "import numpy as np; s = g.initial_state(np.random.default_rng(0)); "
            "print(g.rules.mask_ctx is None, np.flatnonzero(g.legal_mask(s)).tolist() == g.legal_list(s))")
    env = dict(os.environ, **{PURE_PYTHON_ENV: "1"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
