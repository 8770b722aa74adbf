"""Transient state fields (core/state.py): clones, equality and JSON ignore them; clear_transient resets."""

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.state import fast_clone
from monolith_envs.core.state import (
    clear_transient,
    clone_state,
    from_dict,
    state_class,
    states_equal,
    to_dict,
    transient,
    transient_fields,
)


@state_class
@dataclass
class _Cached:
    board: list
    mask_cache: Any = transient()


def test_transient_fields_are_ignored_by_clone_equality_and_json():
    s = _Cached([1, 2, 3])
    assert s.mask_cache is None and transient_fields(_Cached) == ("mask_cache",)
    s.mask_cache = "derived"
    c = clone_state(s)
    assert c.board == [1, 2, 3] and c.board is not s.board and c.mask_cache is None
    assert states_equal(s, c)
    d = to_dict(s)
    assert "mask_cache" not in d and d["board"] == [1, 2, 3]
    back = from_dict(d)
    assert back.mask_cache is None and states_equal(back, s)
    clear_transient(s)
    assert s.mask_cache is None


def test_transient_field_before_an_ordinary_one_is_refused():
    with pytest.raises(TypeError, match="after the ordinary ones"):
        @state_class
        @dataclass
        class _Bad:
            cache: Any = transient()
            board: list = None


def test_arena_caches_are_transient():
    g = ArenaGame({})
    s = g.initial_state(np.random.default_rng(0))
    g.legal_mask(s)
    g.observer.observe_python(s, 0)  # (the Python builder caches the deck counts)
    assert s.mask_cache is not None and s.fx_cache is not None and s.deck_counts is not None
    for c in (fast_clone(s), clone_state(s), g.from_dict(g.to_dict(s))):
        assert (c.mask_cache, c.fx_cache, c.deck_counts) == (None, None, None)
        assert states_equal(c, s)
    clear_transient(s)
    assert (s.mask_cache, s.fx_cache, s.deck_counts) == (None, None, None)
