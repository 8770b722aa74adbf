"""Unit tests of the core building blocks: ActionLayout, ObsSpec, plain-data state helpers."""

import enum
import json
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from monolith_envs.core.actions import ActionLayout
from monolith_envs.core.observation import ObsSpec
from monolith_envs.core.state import StateError, clone_state, from_dict, state_class, states_equal, to_dict


def layout():
    return ActionLayout(
        [("PICK", (4,), ("kind",)), ("PLACE", (3, 19, 6), ("slot", "hex", "rot")), ("END_TURN", (), ())],
        labels={"hex": lambda h: f"H{h}"},
    )


def test_layout_offsets_follow_declared_order():
    lay = layout()
    assert lay.n == 4 + 342 + 1
    assert [f.offset for f in lay.families] == [0, 4, 346]
    assert lay.index("PLACE", 1, 9, 2) == 4 + 1 * 114 + 9 * 6 + 2
    assert lay.decode(lay.index("PLACE", 1, 9, 2)) == "PLACE(slot=1, hex=H9, rot=2)"
    assert lay.decode(346) == "END_TURN"
    assert lay.split(5) == ("PLACE", (0, 0, 1))


def test_layout_views_write_through_to_the_flat_mask():
    lay = layout()
    mask = np.zeros(lay.n, bool)
    lay.view(mask, "PLACE")[2, 18, 5] = True
    lay.view(mask, "END_TURN")[...] = True
    assert np.flatnonzero(mask).tolist() == [4 + 2 * 114 + 18 * 6 + 5, 346]
    assert lay.names(mask) == ["PLACE(slot=2, hex=H18, rot=5)", "END_TURN"]


def test_layout_errors():
    lay = layout()
    with pytest.raises(ValueError, match="hex=19 out of range 0..18"):
        lay.index("PLACE", 0, 19, 0)
    with pytest.raises(KeyError, match="families: \\['PICK', 'PLACE', 'END_TURN'\\]"):
        lay.offset("MOVE")
    with pytest.raises(ValueError, match="duplicate"):
        ActionLayout([("A", (2,), ("x",)), ("A", (2,), ("x",))])
    with pytest.raises(ValueError, match="illegal action 347: out of range: actions are integers from 0 to 346"):
        lay.decode(347)  # an IllegalActionError, which is a ValueError


def test_layout_describe_snapshot():
    assert layout().describe().splitlines() == [
        "n=347",
        "PICK shape=[4] args=['kind'] actions=0..3",
        "PLACE shape=[3, 19, 6] args=['slot', 'hex', 'rot'] actions=4..345",
        "END_TURN shape=[] args=[] actions=346..346",
    ]


def test_obs_spec_views_and_space():
    spec = ObsSpec([("board", (3, 3, 2)), ("score", (2,), -1.0, 1.0, "scaled score")])
    v = spec.zeros()
    spec.view(v, "board")[1, 2, 1] = 1.0
    spec.view(v, "score")[:] = (-1.0, 0.5)
    assert spec.size == 20 and v[1 * 6 + 2 * 2 + 1] == 1.0 and v[18] == -1.0
    assert spec.space.contains(v)
    assert spec.low[18] == -1.0 and spec.high[0] == 1.0
    assert "score shape=[2] idx=18..19 [-1,1] scaled score" in spec.describe()


def test_views_of_a_batch_or_a_short_vector_name_what_they_take():
    spec = ObsSpec([("board", (3, 3, 2)), ("score", (2,), -1.0, 1.0, "scaled score")])
    lay = layout()
    for bad, got in ((np.zeros((4, 20), np.float32), r"\(4, 20\)"), (np.zeros(10, np.float32), r"\(10,\)"),
                     ([0.0] * 20, "list")):
        with pytest.raises(ValueError, match=rf"one flat observation of 20 values \(shape \(20,\)\), got .*{got}"):
            spec.views(bad)
        with pytest.raises(ValueError, match=rf"one flat observation of 20 values .*{got}"):
            spec.view(bad, "score")
    with pytest.raises(ValueError, match=r"one flat action mask of 347 entries \(shape \(347,\)\), got an array of "
                                         r"shape \(2, 347\); for a batch, take one row"):
        lay.view(np.zeros((2, 347), bool), "PLACE")


class Phase(enum.IntEnum):
    SETUP = 0
    MAIN = 3


@state_class
@dataclass
class Inner:
    hexes: np.ndarray
    tag: tuple


@state_class
@dataclass
class Outer:
    phase: Phase
    inner: Inner
    decks: list
    owed: set
    by_seat: dict
    score: float


def make_state():
    return Outer(Phase.MAIN, Inner(np.arange(6, dtype=np.int16), (1, "a")), [[3, 1], [2]], {0, 2},
                 {0: "x", 1: None}, 0.5)


def test_state_json_round_trip_is_exact():
    s = make_state()
    back = from_dict(json.loads(json.dumps(to_dict(s))))
    assert states_equal(s, back)
    assert back.phase is Phase.MAIN and back.inner.hexes.dtype == np.int16 and back.owed == {0, 2}
    assert back.by_seat == {0: "x", 1: None} and back.inner.tag == (1, "a")


def test_clone_is_equal_and_independent():
    s = make_state()
    c = clone_state(s)
    assert states_equal(s, c)
    c.inner.hexes[0] = 99
    c.decks[0].append(7)
    c.owed.add(1)
    assert s.inner.hexes[0] == 0 and s.decks[0] == [3, 1] and s.owed == {0, 2}
    assert not states_equal(s, c)


def test_non_plain_data_is_rejected_with_its_path():
    s = make_state()
    s.decks[1] = [object()]
    with pytest.raises(StateError, match=r"state\.decks\[1\]\[0\]: a object is not plain data"):
        to_dict(s)
    with pytest.raises(StateError, match="unknown state class"):
        from_dict({"__state__": "nowhere:Nothing"})


@pytest.mark.parametrize("dtype", ["O", "<U5", "c16", "M8[s]"])
def test_from_dict_refuses_arrays_that_to_dict_would_not_write(dtype):
    with pytest.raises(StateError) as e:
        from_dict({"x": {"__ndarray__": dtype, "shape": [1], "data": [{"a": 1}] if dtype == "O" else [0]}})
    assert str(e.value).startswith(f"state['x']: array dtype {np.dtype(dtype)} is not plain data")
    back = from_dict({"x": {"__ndarray__": "<i4", "shape": [2], "data": [1, 2]}})["x"]
    assert back.dtype == np.int32 and back.tolist() == [1, 2]


def test_from_dict_of_deep_nesting_is_a_state_error():
    deep: list = []
    for _ in range(20_000):
        deep = [deep]
    with pytest.raises(StateError, match="nested too deeply"):
        from_dict(deep)


@given(st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=4),
                    lambda ch: st.lists(ch, max_size=3) | st.tuples(ch, ch) |
                    st.dictionaries(st.text(max_size=3), ch, max_size=3), max_leaves=12))
def test_round_trip_property(value):
    back = from_dict(json.loads(json.dumps(to_dict(value))))
    assert states_equal(value, back)
