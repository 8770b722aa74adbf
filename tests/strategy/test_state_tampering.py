"""A state read by ``from_dict`` whose "who acts now" fields were edited by hand (``pending['seat']``, the
turn record, ``phase`` and ``flow``) is refused there with a StateError naming the field, never accepted and
broken a few moves later inside the rules (monolith_envs/strategy/state_check.py)."""

from __future__ import annotations

import copy

import pytest

from monolith_envs.core.state import StateError
from monolith_envs.strategy import StrategyGame
from monolith_envs.strategy.state import Flow, Kind, Phase
from tests.state_tampering import position_after, positions_of_play, refused, round_trip_kinds

# decisions inside a card line: the recipient was worked out from the line's context when the op ran, and the
# state keeps no record of it, so the decider of these is not fixed by the rest of the state
_FREE = (Kind.FACE_SRC, Kind.FACE_NEW, Kind.SOCKET_SRC, Kind.SOCKET_DST, Kind.RUNE_PICK)


def _played_state(steps: int):
    return position_after("monolith_strategy_v0", steps)



def test_played_state_turn_left_0_after_50_steps_isrefused():
    g, d = _played_state(50)
    assert d["pending"]["k"] == Kind.TURN and d["turn"]["left"] == 1 and not d["turn"]["mandatory_done"]
    g.from_dict(copy.deepcopy(d))  # untampered: accepted
    d["turn"]["left"] = 0
    refused(g, d, "state.turn['left'] = 0")


def _positions(games: int = 20, every: int = 10):
    """(game, serialised state) at every ``every``-th decision of seeded random games over a few configurations
    (Player Powers, the solo game, no Exalted side), and every third one outside a TURN decision."""
    configs = [dict(num_players=3), dict(num_players=2), dict(num_players=4, player_powers=True),
               dict(num_players=1), dict(num_players=3, exalted=False, player_powers=True)]
    return positions_of_play([StrategyGame(configs[gi % len(configs)]) for gi in range(games)], 200,
                             lambda k, s: k % every == 0 or s.pending["k"] not in (Kind.TURN,) and k % 3 == 0)


@pytest.fixture(scope="module")
def positions():
    return list(_positions())


def test_untampered_positions_round_trip(positions):
    """No false positive: every position of play loads and writes back unchanged."""
    kinds = round_trip_kinds(positions, lambda s: None if s.pending is None else s.pending["k"]) - {None}
    assert len(kinds) >= 10


def test_another_decider_is_refused_where_the_rules_fix_it(positions):
    """``pending['seat']`` set to any other seat is refused, naming the seat, wherever the rules fix the decider
    (the turn player, the Primus holder at SIDE, the bonus and Final Scoring order, the seat a payment, discard
    or block continues for, the actor that picks an opponent)."""
    fixed = 0
    for g, d in positions:
        pd = d["pending"]
        if pd is None or Kind(pd["k"]) in _FREE:
            continue
        for q in range(d["n"]):
            if q == pd["seat"]:
                continue
            t = copy.deepcopy(d)
            t["pending"]["seat"] = q
            with pytest.raises(StateError, match=r"state\.(pending|reveal|turn)|TURN decider"):
                g.from_dict(t)
            fixed += 1
    assert fixed > 200


def _first(positions, pred):
    return next((g, copy.deepcopy(d)) for g, d in positions if d["pending"] is not None and pred(d))


def _k(d) -> Kind:
    return Kind(d["pending"]["k"])


def _v(x) -> int:
    """An IntEnum field as to_dict writes it (an __enum__ record) or a plain int: its value."""
    return x["value"] if isinstance(x, dict) else x


@pytest.mark.parametrize("label, pred, edit, named", [
    ("turn player", lambda d: _k(d) == Kind.TURN and d["n"] > 1,
     lambda d: d["turn"].__setitem__("player", (d["turn"]["player"] + 1) % d["n"]), "the turn player"),
    ("turn left outside the Action Phase", lambda d: _v(d["phase"]) == Phase.RESOLUTION,
     lambda d: d["turn"].__setitem__("left", 1), "state.turn['left']"),
    ("stack_ready outside the Action Phase", lambda d: _v(d["phase"]) == Phase.RESOLUTION,
     lambda d: d["turn"].__setitem__("stack_ready", True), "state.turn['stack_ready']"),
    ("a turn without its turn task", lambda d: _v(d["phase"]) == Phase.ACTION and _v(d["flow"]) == Flow.PRE
     and _k(d) != Kind.TURN, lambda d: d["tasks"].pop(0), "state.tasks"),
    ("work under the TURN decision", lambda d: _k(d) == Kind.TURN,
     lambda d: d["tasks"].append({"t": "turn"}), "state.tasks"),
    ("flow of another phase", lambda d: _k(d) == Kind.TURN,
     lambda d: d.__setitem__("flow", int(Flow.ADVANCE_REST)), "state.flow"),
    ("flow before the turns", lambda d: _k(d) == Kind.TURN,
     lambda d: d.__setitem__("flow", int(Flow.ACTION)), "state.pending['k']"),
    ("phase of a TURN", lambda d: _k(d) == Kind.TURN,
     lambda d: d.__setitem__("phase", int(Phase.RESOLUTION)), "state.flow"),
    ("SIDE in the Action Phase", lambda d: _k(d) == Kind.TURN,
     lambda d: d["pending"].__setitem__("k", int(Kind.SIDE)), "state.pending['k']"),
    ("Primus at SIDE", lambda d: _k(d) == Kind.SIDE and d["n"] > 1,
     lambda d: d.__setitem__("primus", (d["primus"] + 1) % d["n"]), "state.pending['seat']"),
    ("a bonus task dropped", lambda d: _k(d) == Kind.BONUS and any(t["t"] == "bonus" for t in d["tasks"]),
     lambda d: d["tasks"].pop(), "state.pending['seat']"),
    ("a reveal record at REVEAL_COUNT", lambda d: _k(d) == Kind.REVEAL_COUNT,
     lambda d: d["reveal"].__setitem__(d["pending"]["seat"], {"target": 1, "marked": 0, "items": []}),
     "state.reveal"),
])
def test_other_who_acts_fields_are_checked(positions, label, pred, edit, named):
    g, d = _first(positions, pred)
    g.from_dict(copy.deepcopy(d))
    edit(d)
    refused(g, d, named)
