"""ArenaGame.from_dict checks the schema against the game: types, ranges, sub-phase, player counts."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.state import StateError


@pytest.fixture(scope="module")
def game_and_data():
    g = monolith_envs.make_game("monolith_arena_v0")
    s = g.initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(4)
    for _ in range(40):
        g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    return g, json.loads(json.dumps(g.to_dict(s)))


def _nested(depth):
    v = [0]
    for _ in range(depth):
        v = [v]
    return v


def _board_hex(data):
    return next(h for h, i in enumerate(data["board"]) if i >= 0)


@pytest.mark.parametrize("mutate, fragment", [
    (lambda d: d.update(num_players=4), r"state\.num_players = 4: expected one of 2"),
    (lambda d: d.update(hand_size=6), r"state\.hand_size = 6: expected one of 3"),
    (lambda d: d.update(sub_phase=99), r"state\.sub_phase = 99: expected one of 0 \(SETUP_PICK\)"),
    (lambda d: d.update(sub_phase=True), r"state\.sub_phase = True"),
    (lambda d: d["board"].__setitem__(3, -5), r"state\.board\[3\] = -5: expected an integer from -1 to 69"),
    (lambda d: d["hexof"].__setitem__(0, 19), r"state\.hexof\[0\] = 19"),
    (lambda d: d["hp"].__setitem__(0, "20"), r"state\.hp\[0\] = '20'"),
    (lambda d: d.update(decisions=True), r"state\.decisions = True"),
    (lambda d: d.update(decisions=-1), r"state\.decisions = -1"),
    (lambda d: d.update(acting_seat=2), r"state\.acting_seat = 2"),
    (lambda d: d.update(factions=[0, 1, 2]), r"state\.factions = .*a list of 2 items, not 3"),
    (lambda d: d.update(factions=[1, 1]), r"state\.factions = \[1, 1\]: expected distinct"),
    (lambda d: d["deck"][0].append(-1), r"state\.deck\[0\]\[\d+\] = -1"),
    (lambda d: d["cum_reward"].__setitem__(0, {"__float__": "nan"}), r"state\.cum_reward\[0\] = nan"),
    (lambda d: d["itype"].__setitem__(5, 66), r"state\.itype\[5\] = 66: expected \d+, the type of instance 5"),
    (lambda d: d.update(colour="red"), r"unknown field\(s\) 'colour' of ArenaState"),
    (lambda d: d.pop("hp"), r"missing field\(s\) hp of ArenaState"),
    (lambda d: d.update(winners=_nested(40)), r"nested deeper than 32"),
    (lambda d: d.update(terminal=True), r"state\.sub_phase = \d+: expected GAME_OVER exactly when"),
    (lambda d: d["board"].__setitem__(_board_hex(d), -1), r"state\.hexof\[\d+\] = \d+: expected the hex"),
])
def test_malformed_state_names_the_field(game_and_data, mutate, fragment):
    g, data = game_and_data
    d = copy.deepcopy(data)
    mutate(d)
    with pytest.raises(StateError, match=fragment):
        g.from_dict(d)


def test_not_a_state(game_and_data):
    g, _ = game_and_data
    with pytest.raises(StateError, match="a serialised ArenaState"):
        g.from_dict([1, 2])
    with pytest.raises(StateError, match="nested deeper"):
        g.from_dict({"__state__": "x", "a": _nested(5000)})


def test_a_state_of_another_config_is_refused(game_and_data):
    _, data = game_and_data
    g4 = monolith_envs.make_game("monolith_arena_v0", num_players=4, mode="ffa")
    with pytest.raises(StateError, match=r"state\.num_players = 2: expected one of 4"):
        g4.from_dict(data)


def test_round_trip_still_exact(game_and_data):
    g, data = game_and_data
    assert g.to_dict(g.from_dict(data)) == data
