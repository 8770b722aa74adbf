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
    assert [hexp.field(f)[0] for f in ("kind", "type", "facing", "wounds_tough_poison", "flags", "activations",
                                       "dir_stats", "monolith")] == [5, 8, 8 + T, 14 + T, 17 + T, 22 + T, 32 + T,
                                                                      68 + T]
    assert (obs.o_wtp, obs.o_flags, obs.o_mono) == (14 + T, 17 + T, 68 + T)
    ints = obs.layout_ints(g.rules)
    assert ints["hex.flags"] == obs.o_flags and ints["seats"] == g.obs_spec["seats"].offset
