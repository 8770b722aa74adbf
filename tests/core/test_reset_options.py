"""``reset(options=...)``: the games take no reset options, so options given are warned about (they were
silently ignored: a mistyped option gave no feedback) and change nothing; ``None`` and ``{}`` are silent."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.config import IgnoredOptionsWarning


def _silent(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


def test_the_aec_env_warns_about_options_and_plays_the_same_game():
    env = monolith_envs.make("monolith_arena_v0")
    _silent(lambda: env.reset(seed=3, options=None))
    first = env.observe(env.agent_selection)["observation"].copy()
    _silent(lambda: env.reset(seed=3, options={}))
    with pytest.warns(IgnoredOptionsWarning, match=r"monolith_arena_v0: reset\(options=\.\.\.\) got \['bogus'\], "
                                                   r"which changes nothing.*config keys go to make\(\)"):
        env.reset(seed=3, options={"bogus": 1})
    assert np.array_equal(env.observe(env.agent_selection)["observation"], first)


def test_make_vec_and_the_gymnasium_wrapper_warn_too():
    with monolith_envs.make_vec("monolith_strategy_v0", 2) as vec:
        plain = _silent(lambda: vec.reset(seed=5)).observation.copy()
        with pytest.warns(IgnoredOptionsWarning, match=r"make_vec\('monolith_strategy_v0'\).*got \['num_players'\]"):
            res = vec.reset(seed=5, options={"num_players": 4})
        assert np.array_equal(res.observation, plain)
    env = gym.make("monolith_envs/MonolithArena-v0", opponents=["random"])
    _silent(lambda: env.reset(seed=1, options=None))
    with pytest.warns(IgnoredOptionsWarning, match=r"monolith_arena_v0: .*got \['y'\]"):
        env.reset(seed=1, options={"y": 2})


def test_any_options_but_none_or_an_empty_mapping_warn_without_raising_at_the_users_line():
    """Options that cannot be tested for truth (a numpy array), falsy ones (0, []) and ones whose repr
    raises are warned about, never raised; the warning points at the caller's line, through PettingZoo's
    wrappers (``make()`` wraps the env) and Gymnasium's checker."""

    class Unshowable:
        def __bool__(self):
            raise RuntimeError("no truth")

        def __repr__(self):
            raise RuntimeError("no repr")

    env = monolith_envs.make("monolith_strategy_v0")  # wrapped: reset goes through PettingZoo's wrappers
    for options, shown in ((np.array([1, 2]), "array([1, 2])"), (0, "0"), ([], "[]"), (Unshowable(), "a Unshowable"),
                           ({1: 2}, "[1]")):
        with pytest.warns(IgnoredOptionsWarning) as got:
            env.reset(seed=0, options=options)
        assert f"got {shown}, which changes nothing" in str(got[0].message)
        assert got[0].filename == __file__, got[0].filename
    gym_env = gym.make("monolith_envs/MonolithStrategy-v0", opponents=["random"])
    with pytest.warns(IgnoredOptionsWarning) as got:
        gym_env.reset(seed=0, options={"k": 1})
    assert got[0].filename == __file__, got[0].filename


def test_the_warning_never_raises_on_a_mapping_that_fails():
    """``warn_ignored_options`` with a mapping whose length and keys raise still warns, naming its type."""
    import collections.abc

    from monolith_envs.core.config import warn_ignored_options

    class Broken(collections.abc.Mapping):
        def __len__(self):
            raise RuntimeError("no length")

        def __getitem__(self, key):
            raise KeyError(key)

        def __iter__(self):
            raise RuntimeError("no keys")

    with pytest.warns(IgnoredOptionsWarning, match=r"got a Broken, which changes nothing"):
        warn_ignored_options("here", Broken())
