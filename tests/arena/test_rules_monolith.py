"""The Monolith module (docs/monolith_arena.md §4.10) and its hidden information (docs/monolith_arena.md §7 visibility)."""

import numpy as np
import pytest

from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.positions import (
    effects,
    new_position,
    put_tile,
    set_hand,
    set_monolith,
    set_turn,
)
from monolith_envs.arena.state import Sub
from tests.arena.scenario_support import DE, GR, HF, LA


def legal(g, s):
    return set(int(a) for a in np.flatnonzero(g.legal_mask(s)))


def test_g2_picks_stay_hidden():
    g = ArenaGame({"monolith_module": True, "factions": [DE, HF]})
    s = g.initial_state(np.random.default_rng(3))
    assert s.sub_phase == Sub.SETUP_PICK
    for a in (2, 3, 6, 6):
        g.apply(s, a)
    assert len(s.deck[0]) == 32 and len(s.deck[1]) == 32
    assert s.sub_phase == Sub.SETUP_BANNER
    T = g.tables.T
    knight, rider = g.tables.gid_by_id["de_knight"], g.tables.gid_by_id["de_dragon_rider"]
    v1 = g.obs_spec.views(g.observe(s, 1))
    seg = v1["monolith"][1]  # P0 is "+1" for P1
    assert seg[0, :T].sum() == 0 and seg[1, :T].sum() == 0
    assert seg[0, T + 1] == 1 and seg[1, T + 1] == 1
    assert v1["unseen"][1, knight] == 1.0 and v1["unseen"][1, rider] == 0.25
    v0 = g.obs_spec.views(g.observe(s, 0))
    assert v0["monolith"][0, 0, knight] == 1 and v0["monolith"][0, 1, rider] == 1
    assert v0["unseen"][0, knight] == 0.75 and v0["unseen"][0, rider] == 0.0
    # swapping a hidden pick with a deck tile is invisible to the opponent
    s2 = g.resample_hidden(s, 1, np.random.default_rng(5))
    assert np.array_equal(g.observe(s2, 1), g.observe(s, 1))
    g.check_invariants(s2)


def _g16():
    g, s = new_position([DE, LA], monolith_module=True)
    put_tile(g, s, 0, "de_banner", 0)
    set_monolith(g, s, 0, ["de_knight", None], folded=True, revealed=(True, False))
    put_tile(g, s, 1, "la_banner", 9)
    for h in (1, 3, 5):
        put_tile(g, s, 1, "la_spike", h)
    set_turn(g, s, 0, sub_phase=Sub.DISCARD)
    set_hand(g, s, 0, ["de_battle_charge", "de_dragon_rider", "de_move"], fresh=[False, True, True])
    return g, s


def test_g16_unfold_and_exception_placement():
    g, s = _g16()
    assert legal(g, s) == {20, 21, 22}
    g.apply(s, 22)
    assert 444 in legal(g, s)
    g.apply(s, 444)
    assert legal(g, s) == {450, 454}
    g.apply(s, 450)
    assert legal(g, s) == {454}
    g.apply(s, 454)
    assert s.sub_phase == Sub.UNFOLD_FACING and s.acting_seat == 0
    g.apply(s, 467)
    assert s.sub_phase == Sub.MAIN
    place = {a for a in legal(g, s) if 23 <= a < 365}
    assert place == set(range(185, 191))
    assert 365 in legal(g, s)
    g.apply(s, 189)
    rider = s.board[8]
    assert s.seg_content[0][1] == rider and s.facing[rider] == 4
    assert not {a for a in legal(g, s) if 23 <= a < 365}


def test_g16_variant_blocked():
    g, s = _g16()
    put_tile(g, s, 1, "la_wraith", 8)
    g.apply(s, 22)
    assert 444 not in legal(g, s)


def test_g17_nets_and_folding():
    for case in ("a", "b"):
        g, s = new_position([DE, LA], monolith_module=True)
        put_tile(g, s, 0, "de_banner", 9)
        kn, pk = set_monolith(g, s, 0, ["de_knight", "de_pikeman"], folded=False, hexes=(10, 14), facings=(1, 0))
        put_tile(g, s, 1, "la_banner", 0)
        if case == "a":
            put_tile(g, s, 1, "la_nightmare", 11, facing=4)
        else:
            put_tile(g, s, 1, "la_nightmare", 5, facing=3)
        set_turn(g, s, 1)
        set_hand(g, s, 1, ["la_battle"])
        g.apply(s, 365)
        assert s.hp == [20, 20]
        if case == "a":
            assert not s.mono_folded[0] and s.board[10] == kn
        else:
            assert s.mono_folded[0] and s.board[10] == -1 and s.board[14] == -1
            assert s.loc[kn] == 3 and s.loc[pk] == 3
        g.check_invariants(s)


def test_g18_enemy_tile_inside_monolith():
    g, s = new_position([LA, HF], monolith_module=True)
    put_tile(g, s, 0, "la_banner", 9)
    spark, wraith = set_monolith(g, s, 0, ["hf_spark", "la_wraith"], folded=True, owners=(1, None),
                                 revealed=(True, False))
    put_tile(g, s, 1, "hf_banner", 18)
    set_turn(g, s, 0, discarded=1)
    g.apply(s, 444)
    g.apply(s, 451)
    g.apply(s, 456)
    assert s.sub_phase == Sub.UNFOLD_FACING and s.acting_seat == 1
    g.apply(s, 468)
    assert s.acting_seat == 0
    g.apply(s, 469)
    assert s.sub_phase == Sub.MAIN and s.acting_seat == 0
    assert s.facing[spark] == 3 and s.facing[wraith] == 4
    assert s.board[5] == spark and s.board[10] == wraith
    set_hand(g, s, 0, ["la_spike"], fresh=True)
    assert not {a for a in legal(g, s) if 23 <= a < 365}


def test_g19_pushes_may_not_split_a_monolith():
    g, s = new_position([GR, LA], monolith_module=True)
    put_tile(g, s, 0, "gr_banner", 16)
    put_tile(g, s, 0, "gr_axeman", 5)
    put_tile(g, s, 0, "gr_crossbowman", 6)
    put_tile(g, s, 1, "la_banner", 9)
    sp2, sp3 = set_monolith(g, s, 1, ["la_spike", "la_spike"], folded=False, hexes=(10, 11))
    set_hand(g, s, 0, ["gr_push_back"])
    g.apply(s, 365)
    assert legal(g, s) == {455, 457}
    c = g.clone(s)
    g.apply(c, 455)
    assert legal(g, c) == {451}
    g.apply(c, 451)
    assert legal(g, c) == {460}
    g.apply(s, 457)
    assert legal(g, s) == {452}
    g.apply(s, 452)
    assert legal(g, s) == {461}
    g.apply(s, 461)
    assert s.board[15] == sp3 and s.seg_hex[1] == [9, 10, 15]
    g.check_invariants(s)


def test_exception_placement_needs_fresh_tile():
    g, s = _g16()
    set_hand(g, s, 0, ["de_battle_charge", "de_dragon_rider", "de_move"], fresh=False)
    g.apply(s, 22)
    g.apply(s, 444)
    g.apply(s, 450)
    g.apply(s, 454)
    g.apply(s, 467)
    assert not {a for a in legal(g, s) if 23 <= a < 365}
    assert effects(g, s)["toughness"][4] == 1


EMPTY_SEGMENT = """
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true
16: de_banner
{tile}
0: la_banner
monolith P0: unfolded seg2=- seg3=de_knight hex2=12 hex3=17
"""


def test_position_text_rejects_a_tile_on_an_empty_segment():
    """§4.10: a tile standing on a segment's hex is that segment's content, so the position format refuses a
    board tile written on the hex of an empty segment (the error names the Monolith line)."""
    from monolith_envs.arena import parse_position
    from monolith_envs.arena.positions_text import PositionTextError

    game, s = parse_position(EMPTY_SEGMENT.format(tile=""))
    assert s.seg_content[0][0] == -1 and s.board[12] == -1 and s.seg_hex[0] == [16, 12, 17]
    game.check_invariants(s)
    with pytest.raises(PositionTextError, match=r"line 7 .*segment 2 is empty but hex 12 holds"):
        parse_position(EMPTY_SEGMENT.format(tile="12: de_pikeman"))


def test_invariant_every_empty_segment_hex_is_empty():
    """Invariant 5 (docs/monolith_arena.md §9): an empty segment's hex holds no tile."""
    from monolith_envs.arena import parse_position
    from monolith_envs.core.game import InvariantError
    from monolith_envs.core.state import clear_transient

    game, s = parse_position(EMPTY_SEGMENT.format(tile=""))
    i = next(i for i in range(1, 35) if s.loc[i] == 0)  # a deck tile of seat 0
    s.deck[0].remove(i)
    s.board[12], s.hexof[i], s.loc[i] = i, 12, 2
    clear_transient(s)
    with pytest.raises(InvariantError, match="invariant 5: segment 2 of seat 0 is empty but its hex 12 holds"):
        game.check_invariants(s)
