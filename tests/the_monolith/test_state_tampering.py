"""A state read by ``from_dict`` whose "who acts now" fields were edited by hand (``current``, ``sub``,
``phase``, the turn counters) is refused there with a StateError naming the field, never accepted and
broken one move later inside the rules (monolith_envs/the_monolith/state_check.py)."""

from __future__ import annotations

import copy

import pytest

from monolith_envs.core.state import StateError
from monolith_envs.the_monolith.game import MonolithGame
from monolith_envs.the_monolith.state import Sub
from tests.state_tampering import position_after, positions_of_play, refused, round_trip_kinds

# sub-phases whose decider the state does not record: an action-phase turn passes clockwise among the seats
# not out, so (outside the surge holder's opening turn, and for a paid maneuver) any such seat may hold it
_FREE = (Sub.ACTION_CHOOSE, Sub.MANEUVER_DEST)


def _played_state(steps: int):
    return position_after("the_monolith_v0", steps)



def test_played_state_current_2_after_175_steps_is_refused():
    g, d = _played_state(175)
    assert d["current"] == 0
    g.check_state(g.from_dict(copy.deepcopy(d)))  # untampered: accepted
    d["current"] = 2
    msg = refused(g, d, "state.current = 2")
    assert "expected 0" in msg


def test_played_state_sub_as_bare_int_after_300_steps_is_refused():
    g, d = _played_state(300)
    assert d["sub"]["value"] == int(Sub.SHAMAN_STEP)
    d["sub"] = 1  # a bare int instead of the __enum__ record
    refused(g, d, "state.sub = 1")


def test_played_state_sub_of_another_phase_after_300_steps_is_refused():
    g, d = _played_state(300)
    d["sub"]["value"] = int(Sub.DRAFT_OPEN_BID)  # the right record, a sub-phase of another phase
    refused(g, d, "state.sub")


@pytest.mark.parametrize("field, value", [("phase", 2), ("sub", {"__enum__": "monolith_envs.the_monolith.state:Phase",
                                                                 "value": 1})])
def test_a_bare_int_phase_or_an_enum_of_the_wrong_kind_is_refused(field, value):
    g, d = _played_state(40)
    d[field] = value
    refused(g, d, f"state.{field}")


def _positions(games: int = 20, every: int = 10, **config):
    """(game, serialised state) at every ``every``-th decision of seeded random games, over a few configurations
    (the draft variant included)."""
    configs = [dict(num_players=4), dict(num_players=2), dict(num_players=3, shaman_assignment="draft"),
               dict(num_players=4, shaman_assignment="draft")]
    return positions_of_play([MonolithGame({**configs[gi % len(configs)], **config}) for gi in range(games)], 100,
                             lambda k, s: k % every == 0)


@pytest.fixture(scope="module")
def positions():
    return list(_positions())


def test_untampered_positions_round_trip(positions):
    """No false positive: every position of play loads and writes back unchanged."""
    subs = round_trip_kinds(positions, lambda s: s.sub)
    assert len(subs) >= 15  # the sample reaches most kinds of decision


def test_another_decider_is_refused_where_the_rules_fix_it(positions):
    """``current`` set to any other seat is refused, naming ``state.current`` (or a field the seat reads, e.g.
    ``out`` or ``committed``), wherever the rules fix the decider; in an action-phase turn (where any seat not
    out may hold the turn) a seat that is out, or another one during the surge holder's opening turn, is
    refused too."""
    fixed = free_ok = 0
    for g, d in positions:
        if d["terminal"]:
            continue
        sub = Sub(d["sub"]["value"])
        for q in range(d["n"]):
            if q == d["current"]:
                continue
            t = copy.deepcopy(d)
            t["current"] = q
            free = sub in _FREE and not d["surge_first"] and not (sub == Sub.MANEUVER_DEST and d["man_free"])
            if free and not d["out"][q]:
                try:
                    g.from_dict(t)
                    free_ok += 1
                except StateError as exc:  # e.g. seat q's observation or its mask of the pending decision
                    assert "state" in str(exc)
                continue
            with pytest.raises(StateError, match=r"state\.(current|out|surge_first|committed)|committed seat|is out"):
                g.from_dict(t)
            fixed += 1
    assert fixed > 200 and free_ok > 0


def test_the_terminal_state_keeps_no_decider(positions):
    g, d = next((g, d) for g, d in positions if d["terminal"])
    for field, value in (("current", 0), ("sub", {"__enum__": "monolith_envs.the_monolith.state:Sub", "value": 7})):
        t = copy.deepcopy(d)
        t[field] = value
        refused(g, t, f"state.{field}")


def _first(positions, pred):
    return next((g, copy.deepcopy(d)) for g, d in positions if not d["terminal"] and pred(d))


def _sub(d) -> Sub:
    return Sub(d["sub"]["value"])


@pytest.mark.parametrize("label, pred, edit, named", [
    ("phase of another sub-phase", lambda d: _sub(d) == Sub.ORDER_CHOOSE,
     lambda d: d["phase"].__setitem__("value", 2), "state.sub"),
    ("owed outside the action phase", lambda d: _sub(d) == Sub.ORDER_CHOOSE,
     lambda d: d.__setitem__("owed", 2), "state.owed"),
    ("owed 0 in an action turn", lambda d: _sub(d) == Sub.ACTION_CHOOSE,
     lambda d: d.__setitem__("owed", 0), "state.owed"),
    ("owed 3 outside the surge turn", lambda d: _sub(d) == Sub.ACTION_CHOOSE and not d["surge_first"],
     lambda d: d.__setitem__("owed", 3), "state.owed"),
    ("surge_first for another seat", lambda d: _sub(d) == Sub.ACTION_CHOOSE and not d["surge_first"]
     and d["current"] != d["surge"], lambda d: d.__setitem__("surge_first", True), "state.surge_first"),
    ("surge on an uncommitted seat", lambda d: _sub(d) == Sub.ORDER_CHOOSE and d["surge"] >= 0
     and not all(d["committed"]), lambda d: d.__setitem__("surge", d["committed"].index(False)), "state.surge"),
    ("out seat with hearts", lambda d: _sub(d) == Sub.ACTION_CHOOSE and any(
        sum(d["board"][q]) for q in range(d["n"]) if q != d["current"]),
     lambda d: d["out"].__setitem__(next(q for q in range(d["n"]) if q != d["current"] and sum(d["board"][q])),
                                    True), "state.out"),
    ("the turn's rule step dropped", lambda d: _sub(d) == Sub.MARCH_STEP,
     lambda d: d["stack"].pop(), "state.stack"),
    ("a march without its source", lambda d: _sub(d) == Sub.MARCH_STEP,
     lambda d: d.__setitem__("march_src", -1), "state.march_src"),
    ("first player of the objective reveals", lambda d: _sub(d) == Sub.OBJ_REVEAL,
     lambda d: d.__setitem__("first", (d["first"] + 1) % d["n"]), "state.current"),
    ("draft nominator", lambda d: _sub(d) == Sub.DRAFT_OPEN_BID,
     lambda d: d.__setitem__("d_nominator", (d["d_nominator"] + 1) % d["n"]), "state.d_nominator"),
    ("draft last bidder", lambda d: _sub(d) == Sub.DRAFT_RESPOND and d["n"] >= 3,
     lambda d: d.__setitem__("d_last", d["current"]), "state.current"),
])
def test_other_who_acts_fields_are_checked(positions, label, pred, edit, named):
    g, d = _first(positions, pred)
    g.from_dict(copy.deepcopy(d))
    edit(d)
    refused(g, d, named)
