"""The content loader: reference counts (docs §3 table, §5) and errors naming file, item and field."""

import numpy as np
import pytest

from monolith_envs.core.config import ConfigError
from monolith_envs.the_monolith.content import ContentError, load_content
from monolith_envs.the_monolith.game import MonolithGame


def test_reference_content():
    c = load_content()
    assert len(c.map.spaces) == 21 and len(c.map.dashed) == 32 and len(c.map.solid) == 8
    assert (len(c.shamans), len(c.divinations), len(c.events), len(c.objectives)) == (6, 24, 12, 18)
    assert sorted(d.rating for d in c.divinations) == [1] * 6 + [2] * 10 + [3] * 6 + [4] * 2


@pytest.mark.parametrize("n,spaces,buildings,tunnels,slots", [(4, 21, 4, 4, 34), (3, 16, 3, 3, 27), (2, 11, 2, 2, 20)])
def test_numbers_per_player_count(n, spaces, buildings, tunnels, slots):
    g = MonolithGame({"num_players": n})
    act = g.active_spaces
    assert len(act) == spaces
    for b in ("temple", "mausoleum", "scriptorium"):
        assert sum(g.building[s] == b for s in act) == buildings
    assert sum(g.base_tunnel) == tunnels and sum(g.slots) == slots
    assert g.row_size == n


def test_adjacency_tables_of_the_docs():
    g4 = MonolithGame({})
    from monolith_envs.the_monolith.board import neighbours
    s = g4.initial_state(__import__("numpy").random.default_rng(0))
    assert neighbours(g4, s, 0, 3) == [1, 8, 13, 17, 18]
    assert neighbours(g4, s, 0, 0) == [4, 5, 9, 10, 14, 15, 19, 20]
    g3 = MonolithGame({"num_players": 3})
    s3 = g3.initial_state(__import__("numpy").random.default_rng(0))
    assert neighbours(g3, s3, 0, 0) == [9, 10, 14, 15, 19, 20]
    assert neighbours(g3, s3, 0, 8) == [6, 13, 18] and neighbours(g3, s3, 0, 17) == [16, 19]
    g2 = MonolithGame({"num_players": 2})
    s2 = g2.initial_state(__import__("numpy").random.default_rng(0))
    assert neighbours(g2, s2, 0, 8) == [6, 18] and neighbours(g2, s2, 0, 0) == [9, 10, 19, 20]


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


DIV = """[[card]]
id = "X1"
name = "Test"
rating = 2
window = "after_slay"
cost = "discard"
effect = { op = "extra_kill", amount = 1 }
"""


@pytest.mark.parametrize("change,needle", [
    (("rating = 2", "rating = 9"), "'card X1', field 'rating'"),
    (('op = "extra_kill"', 'op = "explode"'), "effect.op"),
    (('op = "extra_kill"', 'op = [0]'), "effect.op"),  # a list or table was hashed: TypeError
    (('op = "extra_kill"', 'op = { a = 1 }'), "effect.op"),
    (('window = "after_slay"', 'window = "march"'), "cannot be used in window"),
    (("amount = 1", "amount = 1, sel = \"event_space\""), "unknown field"),
    (('cost = "discard"', 'cost = "anger"'), "cost_amount"),
])
def test_divination_errors_name_file_item_field(tmp_path, change, needle):
    path = _write(tmp_path, "d.toml", DIV.replace(*change))
    with pytest.raises(ContentError) as e:
        load_content({"divination_file": path})
    assert path in str(e.value) and needle in str(e.value)


def test_custom_deck_is_used(tmp_path):
    path = _write(tmp_path, "d.toml", DIV)
    g = MonolithGame({"divination_file": path})
    assert g.D == 1 and g.obs_spec.size != 1587


def test_map_errors(tmp_path):
    from importlib.resources import files

    text = (files("monolith_envs.the_monolith") / "data" / "map.toml").read_text()
    bad = text.replace("boast_slots = 6", "boast_slots = 7")
    with pytest.raises(ContentError, match="'space 0', field 'boast_slots'"):
        load_content({"map_file": _write(tmp_path, "m.toml", bad)})
    one = text.replace("boast_slots = 6", "boast_slots = 1", 1)  # the Monolith space: setup puts 2 blood on it
    with pytest.raises(ContentError, match="'space 0', field 'boast_slots': the Monolith space needs at least 2"):
        load_content({"map_file": _write(tmp_path, "m1.toml", one)})
    with pytest.raises(ContentError, match="TOML syntax error"):
        load_content({"map_file": _write(tmp_path, "m2.toml", "[[space]\n")})
    with pytest.raises(ContentError, match="missing.toml"):
        load_content({"map_file": str(tmp_path / "missing.toml")})


@pytest.mark.parametrize("cfg", [{"num_players": 5}, {"tower_weights": [0, 0, 0]}, {"tower_retention": 1.5},
                                 {"shaman_assignment": "fixed", "shamans": [0, 1]}, {"shaman_pool": [0, 1, 2]},
                                 {"shaman_assignment": "draft", "draft_max_bid": 11}, {"first_player": 3, "num_players": 3},
                                 {"shaman_pool": [0, 1, 2, 9]}, {"bogus": 1}])
def test_config_errors(cfg):
    with pytest.raises(ConfigError):
        MonolithGame(cfg)


def test_an_unknown_shaman_start_role_lists_the_maps_roles(tmp_path):
    from importlib.resources import files

    text = (files("monolith_envs.the_monolith") / "data" / "shamans.toml").read_text()
    bad = text.replace('start = "role:hold"', 'start = "role:nowhere"', 1)
    with pytest.raises(ContentError, match="'role:nowhere': 'monolith' or 'role:<role>' with a role of the map's "
                                           r"spaces \(barrow, hold, hollow, scriptorium, temple; each home quadrant"):
        load_content({"shaman_file": _write(tmp_path, "s.toml", bad)})


@pytest.mark.parametrize("weights", [np.array([1.0, 1.0, 1.0]), np.array([1, 0, 3]), (np.float32(0.5), 0, np.int64(2))])
def test_tower_weights_take_numpy_arrays_and_numbers(weights):
    g = MonolithGame({"tower_weights": weights})
    assert g.config["tower_weights"] == [float(x) for x in weights]


@pytest.mark.parametrize("weights", [np.array([[1, 1, 1]]), np.array([True, True, True]), np.array([1.0, np.nan, 1.0]),
                                     np.ones(4)])
def test_tower_weights_refuse_arrays_that_are_not_three_finite_numbers(weights):
    with pytest.raises(ConfigError, match="expected 3 numbers from 0 to 1e\\+06 with a positive sum"):
        MonolithGame({"tower_weights": weights})


def test_shaman_ids_take_numpy_arrays_and_integers():
    g = MonolithGame({"num_players": 2, "shaman_assignment": "fixed", "shamans": np.array([0, 1]),
                      "shaman_pool": (np.int64(0), 1, 2, 3)})
    assert g.config["shamans"] == [0, 1] and g.config["shaman_pool"] == [0, 1, 2, 3]
    assert all(type(x) is int for x in g.config["shamans"] + g.config["shaman_pool"])
    with pytest.raises(ConfigError, match="expected a list of shaman ids"):
        MonolithGame({"shaman_pool": np.array([True, False, True, True])})
