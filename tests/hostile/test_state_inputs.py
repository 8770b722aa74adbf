"""Hostile states, seats and config values: from_dict refuses what the engine cannot play, observe refuses
what is not a seat, and no float config value lets a return overflow."""

import copy
import json

import numpy as np
import pytest

from monolith_envs import make_game
from monolith_envs.core.config import ConfigError
from monolith_envs.core.state import StateError

GAMES = ("monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0")


def _played(env_id: str, steps: int, seed: int = 0, **config):
    g = make_game(env_id, **config)
    rng = np.random.default_rng(seed)
    s = g.initial_state(rng)
    for _ in range(steps):
        if g.is_terminal(s):
            break
        g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    return g, s, json.loads(json.dumps(g.to_dict(s)))


def _playable(g, s) -> bool:
    """A state the engine can play: a legal action when live, finite returns, observations in bounds."""
    mask = np.asarray(g.legal_mask(s))
    if g.is_terminal(s) == bool(mask.any()):
        return False
    spec = g.obs_spec
    obs_ok = all(np.all((o >= spec.low) & (o <= spec.high)) for o in (g.observe(s, p) for p in range(g.num_players)))
    return obs_ok and bool(np.isfinite(np.asarray(g.returns(s), np.float64)).all())


# ------------------------------------------------------------------------------------------- from_dict
@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("tag", [3, 1.5, None, ["x"]])
def test_a_class_tag_that_is_not_a_string_is_a_state_error(env_id, tag):
    g, _, data = _played(env_id, 5)
    data["__state__"] = tag
    with pytest.raises(StateError, match=r"class tag must be a string"):
        g.from_dict(data)


@pytest.mark.parametrize("key", ["__state__", "__enum__"])
def test_a_class_tag_never_imports_the_module_it_names(tmp_path, monkeypatch, key):
    """A tag of an unregistered class is refused without importing anything: a state file cannot name code
    to run, not even a ``tests.`` or ``monolith_envs.`` module found on ``sys.path``."""
    import sys

    marker = tmp_path / "ran"
    pkg = tmp_path / "hostile_pkg" / "tests"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "evil_state.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "hostile_pkg"))
    monkeypatch.delitem(sys.modules, "tests", raising=False)  # so "tests" would resolve to the file's folder
    g, _, data = _played("monolith_arena_v0", 5)
    data["p_effect"] = {key: "tests.evil_state:X", "value": 1}
    with pytest.raises(StateError, match=r"unknown state (class|enum) 'tests\.evil_state:X'"):
        g.from_dict(data)
    data["p_effect"] = {key: "monolith_envs.the_monolith.render:X", "value": 1}
    monkeypatch.delitem(sys.modules, "monolith_envs.the_monolith.render", raising=False)
    with pytest.raises(StateError, match="unknown state (class|enum)"):
        g.from_dict(data)
    assert not marker.exists() and "tests.evil_state" not in sys.modules
    assert "monolith_envs.the_monolith.render" not in sys.modules


def test_a_state_written_by_one_process_loads_in_a_fresh_one(tmp_path):
    """A fresh interpreter that only reads a state (its game loaded, no state written there yet) finds the
    game's enums in the loaded modules, without importing anything the file names: every game round-trips,
    Strategy's and The Monolith's enum fields included."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    states = {}
    for env_id in GAMES:
        g, s, data = _played(env_id, 30)
        states[env_id] = data
    assert sum(json.dumps(d).count("__enum__") for d in states.values()) > 0
    (tmp_path / "states.json").write_text(json.dumps(states))
    script = ("import json, sys, monolith_envs\n"
              f"data = json.load(open({str(tmp_path / 'states.json')!r}))\n"
              "for env_id, d in data.items():\n"
              "    g = monolith_envs.make_game(env_id)\n"
              "    print(env_id, json.dumps(g.to_dict(g.from_dict(d)), sort_keys=True) == json.dumps(d, sort_keys=True))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=root)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [w for env_id in GAMES for w in (env_id, "True")]


def test_a_tag_of_the_wrong_kind_is_refused():
    """A ``__state__`` tag must name a state class and an ``__enum__`` tag an enum."""
    g, s, data = _played("the_monolith_v0", 30)
    text = json.dumps(data)
    enum_tag = text.split('"__enum__": "', 1)[1].split('"', 1)[0]
    bad = copy.deepcopy(data)
    bad["__state__"] = enum_tag
    with pytest.raises(StateError, match="unknown state class"):
        g.from_dict(bad)
    field = next(k for k, v in data.items() if isinstance(v, dict) and "__enum__" in v)  # an enum field
    bad = copy.deepcopy(data)
    bad[field] = {"__enum__": data["__state__"], "value": 1}  # the state class's tag as an enum's
    with pytest.raises(StateError, match=rf"state\.{field}: unknown state enum .*: a '__enum__' tag names an enum"):
        g.from_dict(bad)


@pytest.mark.parametrize("env_id, field", [("monolith_arena_v0", "cum_reward"), ("the_monolith_v0", "cum")])
@pytest.mark.parametrize("value", [2**200, 1e300, -1e39])
def test_a_cumulative_return_out_of_reach_is_refused(env_id, field, value):
    g, _, data = _played(env_id, 5)
    data[field][0] = value
    with pytest.raises(StateError, match=rf"state\.{field}\[0\]"):
        g.from_dict(data)


@pytest.mark.parametrize("env_id, field, value", [("monolith_arena_v0", "cum_reward", 1e6),
                                                  ("the_monolith_v0", "cum", 5e3)])
def test_a_score_mode_return_within_reach_loads(env_id, field, value):
    g, _, data = _played(env_id, 5, reward_mode="score")
    data[field][0] = value
    data[field][1] = -value
    assert g.returns(g.from_dict(data))[0] == np.float32(value)


@pytest.mark.parametrize("env_id, path, values", [
    ("monolith_arena_v0", ("sub_phase",), range(0, 12)),
    ("the_monolith_v0", ("sub", "value"), range(-1, 26)),
    ("monolith_strategy_v0", ("pending", "k"), range(1, 16)),
])
def test_another_sub_phase_is_refused_or_playable(env_id, path, values):
    """Arena's sub_phase + 1 gave a live state without a legal action; every such mutant is refused now."""
    refused = 0
    for steps in (3, 12, 30):
        g, _, data = _played(env_id, steps)
        for v in values:
            d = copy.deepcopy(data)
            node = d
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = v
            try:
                s = g.from_dict(d)
            except StateError:
                refused += 1
                continue
            assert _playable(g, s), f"{env_id} {path}={v} after {steps} steps loads but cannot be played"
    assert refused > 0


def test_arena_sub_phase_without_a_legal_action_names_the_problem():
    g, s, data = _played("monolith_arena_v0", 30)
    data["sub_phase"] += 2
    with pytest.raises(StateError, match="no action is legal"):
        g.from_dict(data)


def _strategy_with_pending(kind: int):
    g = make_game("monolith_strategy_v0", num_players=2)
    rng = np.random.default_rng(0)
    s = g.initial_state(rng)
    while not (s.pending and s.pending["k"] == kind):
        g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    return g, json.loads(json.dumps(g.to_dict(s)))


@pytest.mark.parametrize("kind, key, value, named", [
    (5, "opts", [999], r"state\.pending\['opts'\]\[0\] = 999"),          # FACE_SRC: a face 1-6
    (5, "opts", [1.5], r"state\.pending\['opts'\]\[0\] = 1\.5"),
    (5, "opts", [], r"state\.pending\['opts'\]"),
    (5, "mode", "teleport", r"state\.pending\['mode'\]"),
    (11, "rem", 2**200, r"state\.pending\['rem'\]"),                     # PAY_OFFER: 1..amount
    (11, "rem", -1, r"state\.pending\['rem'\] = -1"),
    (11, "rem", 1.5, r"state\.pending\['rem'\] = 1\.5"),
    (11, "stone", 999, r"state\.pending\['stone'\] = 999"),
    (11, "purpose", "x", r"state\.pending\['purpose'\]"),
    (11, "src", [999], r"state\.pending\['src'\]"),
    (11, "then", 7, r"state\.pending\['then'\]"),
    (11, "extra", 1, r"unknown key\(s\) 'extra'"),
])
def test_strategy_malformed_pending_decision_is_refused(kind, key, value, named):
    g, data = _strategy_with_pending(kind)
    data["pending"][key] = value
    with pytest.raises(StateError, match=named):
        g.from_dict(data)


def test_strategy_rem_above_the_amount_is_refused():
    g, data = _strategy_with_pending(11)
    data["pending"]["rem"] = data["pending"]["amount"] + 1
    with pytest.raises(StateError, match=r"at most the amount"):
        g.from_dict(data)


# ------------------------------------------------------------------------------------------- observe seats
@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("player", [1.5, "0", True, np.bool_(False), -1, 9, None])
def test_observe_refuses_what_is_not_a_seat(env_id, player):
    g, s, _ = _played(env_id, 2)
    with pytest.raises(ValueError, match=r"is not a seat"):
        g.observe(s, player)


@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("viewer", [1.0, True, -1, 5])
def test_resample_hidden_refuses_what_is_not_a_seat(env_id, viewer):
    """A viewer that is no seat would redraw every seat's hidden information: refused, as observe refuses it."""
    g, s, _ = _played(env_id, 2)
    with pytest.raises(ValueError, match=r"is not a seat"):
        g.resample_hidden(s, viewer, np.random.default_rng(0))
    a = g.resample_hidden(s, np.int64(1), np.random.default_rng(3))
    b = g.resample_hidden(s, 1, np.random.default_rng(3))
    assert g.to_dict(a) == g.to_dict(b)


@pytest.mark.parametrize("env_id", GAMES)
def test_observe_takes_numpy_integer_seats(env_id):
    g, s, _ = _played(env_id, 2)
    assert np.array_equal(g.observe(s, np.int64(1)), g.observe(s, 1))


# ------------------------------------------------------------------------------------------- float config bounds
@pytest.mark.parametrize("env_id, config, named", [
    ("the_monolith_v0", {"reward_mode": "score", "score_scale": 1e300}, "score_scale"),
    ("the_monolith_v0", {"score_scale": float("nan")}, "score_scale"),
    ("the_monolith_v0", {"score_scale": float("inf")}, "score_scale"),
    ("the_monolith_v0", {"score_scale": 1e-9}, "score_scale"),
    ("the_monolith_v0", {"tower_weights": [1e300, 1, 1]}, "tower_weights"),
    ("the_monolith_v0", {"tower_retention": 1.5}, "tower_retention"),
    ("the_monolith_v0", {"tower_retention": True}, "tower_retention"),
    ("monolith_strategy_v0", {"score_scale": 1e300}, "score_scale"),
    ("monolith_strategy_v0", {"score_scale": np.bool_(True)}, "score_scale"),
])
def test_float_config_values_are_bounded(env_id, config, named):
    with pytest.raises(ConfigError, match=rf"{named}=.*expected .*from"):
        make_game(env_id, **config)


def test_the_largest_monolith_score_scale_keeps_a_whole_game_finite():
    g, s, _ = _played("the_monolith_v0", 10**6, seed=3, reward_mode="score", score_scale=1e6)
    assert g.is_terminal(s)
    r = np.asarray(g.returns(s), np.float64)
    assert np.isfinite(r).all() and abs(r.sum()) < 1e-3 * max(1.0, np.abs(r).max()) and np.abs(r).max() > 0
