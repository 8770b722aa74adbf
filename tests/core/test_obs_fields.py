"""Named sub-fields of ObsSpec pieces (core/observation.py): offsets by name, validation, describe()."""

import pytest

from monolith_envs.arena.game import ArenaGame
from monolith_envs.core.observation import ObsSpec


def test_fields_give_offsets_by_name():
    spec = ObsSpec([("board", (2, 5), 0.0, 1.0, "cells", (("owner", 3), ("height", 2))), ("turn", (1,))])
    piece = spec["board"]
    assert piece.field("owner") == (0, 3) and piece.field("height") == (3, 5)
    assert spec.offsets() == {"board": 0, "board.owner": 0, "board.height": 3, "turn": 10}
    assert "  .height 3..4" in spec.describe().splitlines()
    with pytest.raises(KeyError, match="has no field 'colour'; fields: \\['owner', 'height'\\]"):
        piece.field("colour")


def test_fields_must_cover_the_last_axis():
    with pytest.raises(ValueError, match="fields cover 4 of its last axis 5"):
        ObsSpec([("board", (2, 5), 0.0, 1.0, "cells", (("owner", 3), ("height", 1)))])
    with pytest.raises(ValueError, match="duplicate field 'owner'"):
        ObsSpec([("board", (5,), 0.0, 1.0, "cells", (("owner", 3), ("owner", 2)))])


def test_arena_hex_row_fields_match_the_observer():
    g = ArenaGame({})
    hexp, obs, T = g.obs_spec["hex"], g.observer, g.tables.T
    assert hexp.shape == (19, 76 + T)
    # the row of docs/monolith_arena.md §7.1: empty, owner[4], kind[3], type[T], facing[6], wounds, tough,
    # poison, five flags, activations[10], six direction groups of 6, no segment, segment owner[4], segment[3]
    starts = [(f, hexp.field(f)[0]) for f, _ in hexp.fields]
    assert starts == [("empty", 0), ("owner", 1), ("kind", 5), ("type", 8), ("facing", 8 + T),
                      ("wounds", 14 + T), ("tough", 15 + T), ("poison", 16 + T), ("netted", 17 + T),
                      ("net_marker", 18 + T), ("disarmed", 19 + T), ("entrenched", 20 + T), ("used", 21 + T),
                      ("activations", 22 + T), ("melee", 32 + T), ("ranged", 38 + T), ("armor", 44 + T),
                      ("net_dirs", 50 + T), ("connection", 56 + T), ("kill", 62 + T), ("no_segment", 68 + T),
                      ("segment_owner", 69 + T), ("segment", 73 + T)]
    assert (obs.hx.wounds, obs.hx.netted, obs.hx.no_segment) == (14 + T, 17 + T, 68 + T)
    ints = obs.layout_ints(g.rules)
    assert ints["hex.netted"] == obs.hx.netted and ints["seats"] == g.obs_spec["seats"].offset
    assert (ints["seats.hp"], ints["seats.row"], ints["scalars.decisions"], ints["hands.stride"]) == (
        1, 10, 13, g.H * (T + 1))
