"""The shared choice between a compiled observation builder and its Python reference
(``monolith_envs.core.compiled.CompiledObserver``), used by the three games' observers."""

import copy
import os
import pickle

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core import compiled
from monolith_envs.core.compiled import PURE_PYTHON_ENV, CompiledObserver, NotCompiledWarning


class _Unbuilt(CompiledObserver):
    _extension = None
    _extension_name = "monolith_envs.example._fastobs"


class _Built(CompiledObserver):
    _extension = object()
    _extension_name = "monolith_envs.example._fastobs"


def test_an_unbuilt_extension_is_chosen_only_when_asked_and_then_named_in_the_error(monkeypatch):
    monkeypatch.setattr(compiled, "_WARNED", set())
    monkeypatch.setenv(compiled._SAID_ENV, "0")  # not said yet; removed again after the test
    with pytest.warns(NotCompiledWarning):
        assert _Unbuilt()._use_compiled(None) is False
    assert _Unbuilt()._use_compiled(False) is False
    with pytest.raises(RuntimeError, match=r"monolith_envs\.example\._fastobs is not built"):
        _Unbuilt()._use_compiled(True)


def test_a_missing_builder_is_said_once_per_process_unless_python_is_chosen(monkeypatch):
    """A checkout whose extensions were never built runs at about half the speed: one warning says so and
    how to build them; none when MONOLITH_ENVS_PURE_PYTHON=1 chose the Python builders."""
    import warnings

    monkeypatch.setattr(compiled, "_WARNED", set())
    monkeypatch.setenv(compiled._SAID_ENV, "0")  # not said yet; removed again after the test
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        for _ in range(3):
            _Unbuilt()._use_compiled(None)
    said = [str(w.message) for w in seen if issubclass(w.category, NotCompiledWarning)]
    assert said == ["the compiled observation builder monolith_envs.example._fastobs is not built: the Python one "
                    "runs (the same values, about half the speed); build it with a C compiler: pip install -e . (or "
                    f"python setup.py build_ext --inplace in a checkout), or set {PURE_PYTHON_ENV}=1 to choose the "
                    "Python builders"]
    assert os.environ[compiled._SAID_ENV] == "1"  # a worker process started now inherits it: no second warning
    monkeypatch.setattr(compiled, "_WARNED", set())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        _Unbuilt()._use_compiled(None)  # as in such a worker: its own _WARNED is empty
    assert not [w for w in seen if issubclass(w.category, NotCompiledWarning)]
    monkeypatch.setenv(compiled._SAID_ENV, "0")
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        _Unbuilt()._use_compiled(None)
    assert not [w for w in seen if issubclass(w.category, NotCompiledWarning)]


def test_a_built_extension_is_the_default_unless_pure_python_is_requested(monkeypatch):
    assert _Built()._use_compiled(None) is True
    assert _Built()._use_compiled(False) is False
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    assert _Built()._use_compiled(None) is False
    assert _Built()._use_compiled(True) is True


def test_unpickled_where_the_extension_is_missing_falls_back_to_python():
    obj = _Built()
    obj.compiled, obj._ctx = True, "capsule"
    state = obj.__getstate__()
    assert state["_ctx"] is None and state["compiled"] is True
    back = _Unbuilt.__new__(_Unbuilt)
    back.__setstate__(state)
    assert back.compiled is False and back._ctx is None


@pytest.mark.parametrize("env_id,config", [("monolith_arena_v0", {}), ("monolith_strategy_v0", {"num_players": 3}),
                                           ("the_monolith_v0", {"num_players": 4})])
def test_a_copied_or_unpickled_game_observes_the_same_values(env_id, config):
    game = monolith_envs.make_game(env_id, **config)
    rng = np.random.default_rng(5)
    state = game.initial_state(rng)
    for _ in range(25):
        if game.is_terminal(state):
            break
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply(state, int(legal[rng.integers(legal.size)]), rng)
    seat = game.current_player(state)
    want = np.asarray(game.observe(state, seat))
    for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert np.array_equal(np.asarray(other.observe(state, seat)), want)
