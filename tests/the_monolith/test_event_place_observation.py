"""The seat placing a drawn event sees which event it is (docs §7, piece ``events``): during EVENT_PLACE the
drawn event is marked in play, on no space yet. Events that may go on any space gave the same observation
and the same mask, so the drawer could not tell a bonus from a kill."""

from __future__ import annotations

import numpy as np
import pytest

from monolith_envs.the_monolith.game import MonolithGame
from monolith_envs.the_monolith.observe import compiled_available
from monolith_envs.the_monolith.state import Sub


def _at_event_place(g: MonolithGame):
    for seed in range(50):
        rng, choose = np.random.default_rng(seed), np.random.default_rng(seed + 99)
        s = g.initial_state(rng)
        while not s.terminal and s.sub != Sub.EVENT_PLACE:
            g.apply(s, int(choose.choice(g.legal_actions(s))), rng)
        if s.sub == Sub.EVENT_PLACE and g.events[s.event_focus].place == "any":
            return s
    raise AssertionError("no seeded game reached an EVENT_PLACE of an event that goes on any space")


def test_the_drawn_event_is_in_play_on_no_space_and_told_apart_from_another():
    g = MonolithGame({"num_players": 4})
    s = _at_event_place(g)
    ev = s.event_focus
    o = g.obs_spec
    events = o.view(g.observe(s, s.current), "events")
    cols = g.observer.columns["events"]
    assert events[ev, cols["in_play"]] == 1 and events[ev, cols["discarded"]] == 0
    assert not events[ev, cols["space"]:cols["space"] + g.N].any()
    other = next(e for e in s.event_deck if g.events[e].place == "any")
    t = g.clone(s)
    t.event_deck[t.event_deck.index(other)] = ev
    t.event_focus = other
    t.legal_cache = None
    assert np.array_equal(g.legal_mask(s), g.legal_mask(t))  # the same choices ...
    for p in range(g.num_players):  # ... but every seat sees which event is placed (events are public)
        assert not np.array_equal(g.observe(s, p), g.observe(t, p))


@pytest.mark.skipif(not compiled_available(), reason="the compiled builder is not built")
def test_the_compiled_builder_marks_it_as_the_python_reference_does():
    g = MonolithGame({"num_players": 3})
    s = _at_event_place(g)
    for p in range(g.num_players):
        assert np.array_equal(g.observer.observe(s, p), g.observer.observe_python(s, p))
