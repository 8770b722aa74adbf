"""Golden scenarios G16-G21 of the Monolith Arena spec (§10): the Monolith module, the teams' shared pool and
a lost bonus, with exact masks and outcomes (G1-G15 are in test_golden.py).

Positions are written in the compact text format of :mod:`monolith_envs.arena.positions_text`; action numbers
and helpers are in :mod:`tests.arena.scenario_support`.
"""

from __future__ import annotations

import numpy as np

from monolith_envs.arena.positions import effects
from monolith_envs.arena.positions_text import parse_position
from monolith_envs.arena.state import Sub
from tests.arena.scenario_support import (
    HEX,
    L_MONO,
    MODE,
    ORDER,
    PLACE,
    ROT,
    UNFOLD,
    act,
    legal,
    legal_hexes,
    occupied,
    tile_id,
)

# --------------------------------------------------------------------------------------------------
# G16-G19 - the Monolith module
# --------------------------------------------------------------------------------------------------

G16 = """
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true
0: de_banner
9: la_banner
1: la_spike
3: la_spike
5: la_spike
{extra}
monolith P0: folded seg2=de_knight revealed2
hand P0: de_battle_charge, de_dragon_rider*, de_move*
turn: P0 sub=DISCARD
"""


def test_g16_unfold_and_the_empty_segment_exception():
    game, s = parse_position(G16.format(extra=""))
    knight = s.seg_content[0][0]
    act(game, s, 22)  # forced discard of the Move
    assert s.sub_phase == Sub.MAIN and UNFOLD in legal(game, s)
    act(game, s, UNFOLD)
    assert s.sub_phase == Sub.UNFOLD_SEG2 and legal_hexes(game, s) == {4, 8}
    act(game, s, HEX + 4)
    assert s.sub_phase == Sub.UNFOLD_SEG3 and legal_hexes(game, s) == {8}
    act(game, s, HEX + 8)
    assert s.sub_phase == Sub.UNFOLD_FACING and s.acting_seat == 0
    act(game, s, ROT + 2)
    assert s.sub_phase == Sub.MAIN
    assert s.board[4] == knight and s.facing[knight] == 2
    assert s.seg_hex[0] == [0, 4, 8] and not s.mono_folded[0]
    assert legal(game, s, PLACE, ORDER) == set(range(185, 191))
    assert ORDER in legal(game, s)
    act(game, s, 189)
    rider = s.board[8]
    assert tile_id(game, s, 8) == "de_dragon_rider" and s.facing[rider] == 4
    assert s.seg_content[0] == [knight, rider]
    assert legal(game, s, PLACE, ORDER) == set()


def test_g16_unfold_needs_room():
    game, s = parse_position(G16.format(extra="8: la_wraith"))
    act(game, s, 22)
    assert UNFOLD not in legal(game, s)


G17 = """
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true
9: de_banner
monolith P0: unfolded seg2=de_knight hex2=10 f2=1 seg3=de_pikeman hex3=14 f3=0
0: la_banner
{nightmare}
hand P1: la_battle
turn: P1
"""


def test_g17a_netted_content_blocks_folding():
    game, s = parse_position(G17.format(nightmare="11: la_nightmare f=4"))
    assert effects(game, s)["netted"][10]
    act(game, s, ORDER)
    assert s.hp == [20, 20] and occupied(s) == {0, 9, 10, 11, 14}
    assert not s.mono_folded[0] and s.seg_hex[0] == [9, 10, 14]
    assert effects(game, s)["netted"][10]  # the Nightmare's net holds after the Battle


def test_g17b_netted_banner_does_not_block_folding():
    game, s = parse_position(G17.format(nightmare="5: la_nightmare f=3"))
    knight, pikeman = s.board[10], s.board[14]
    assert effects(game, s)["netted"][9]
    act(game, s, ORDER)
    assert s.hp == [20, 20]
    assert s.mono_folded[0] and s.seg_hex[0] == [9, 9, 9]
    assert s.board[10] == -1 and s.board[14] == -1
    assert s.loc[knight] == L_MONO and s.loc[pikeman] == L_MONO
    assert occupied(s) == {0, 5, 9}


G18 = """
factions: lords_of_the_abyss, harbingers_of_the_forest
config: monolith_module=true
9: la_banner
18: hf_banner
monolith P0: folded seg2=P1:hf_spark seg3=la_wraith revealed2
hand P0: la_spike*
turn: P0 discarded=1
"""


def test_g18_enemy_tile_inside_a_monolith():
    game, s = parse_position(G18)
    spark, wraith = s.seg_content[0]
    act(game, s, UNFOLD, HEX + 5, HEX + 10)
    assert s.sub_phase == Sub.UNFOLD_FACING and s.acting_seat == 1
    act(game, s, ROT + 3)
    assert s.sub_phase == Sub.UNFOLD_FACING and s.acting_seat == 0
    act(game, s, ROT + 4)
    assert s.sub_phase == Sub.MAIN and s.acting_seat == 0
    assert s.board[5] == spark and s.facing[spark] == 3
    assert s.board[10] == wraith and s.facing[wraith] == 4
    assert s.seg_hex[0] == [9, 5, 10] and s.seg_revealed[0] == [True, True]
    assert legal(game, s, PLACE, ORDER) == set()


G19 = """
factions: guardians_of_the_realm, lords_of_the_abyss
config: monolith_module=true
16: gr_banner
5: gr_axeman
6: gr_crossbowman
9: la_banner
monolith P1: unfolded seg2=la_spike hex2=10 seg3=la_spike hex3=11
hand P0: gr_push_back
"""


def test_g19_pushes_may_not_split_a_monolith():
    game, s = parse_position(G19)
    act(game, s, ORDER)
    assert s.sub_phase == Sub.PUSH_TARGET and legal_hexes(game, s) == {9, 11}
    # target 9 (the Banner segment): pusher {5}, destination {14}
    probe = game.clone(s)
    act(game, probe, HEX + 9)
    assert legal_hexes(game, probe) == {5}
    act(game, probe, HEX + 5)
    assert legal_hexes(game, probe) == {14}
    # target 11
    spike = s.board[11]
    act(game, s, HEX + 11)
    assert legal_hexes(game, s) == {6}
    act(game, s, HEX + 6)
    assert legal_hexes(game, s) == {15}
    act(game, s, HEX + 15)
    assert s.board[15] == spike and s.board[11] == -1
    assert s.seg_hex[1] == [9, 10, 15]


# --------------------------------------------------------------------------------------------------
# G20-G21
# --------------------------------------------------------------------------------------------------

G20 = """
factions: dragon_empire, lords_of_the_abyss, guardians_of_the_realm, harbingers_of_the_forest
config: mode=teams
0: de_banner
9: de_pikeman f=0
2: la_banner
15: la_chaos f=1
18: gr_banner
14: gr_axeman f=5
16: hf_banner
4: hf_herne f=5
pool A: 3
pool B: 30
hand P1: la_battle
turn: P1
"""


def test_g20_teams_shared_pool():
    game, s = parse_position(G20)
    act(game, s, ORDER)
    assert s.terminal
    assert max(0, s.pool[0]) == 0 and s.pool[1] == 30
    assert s.board[4] == -1  # the Pikeman removed the Herne
    assert tile_id(game, s, 14) == "gr_axeman" and tile_id(game, s, 9) == "de_pikeman"
    np.testing.assert_allclose(game.returns(s), [-0.5, 0.5, -0.5, 0.5])


G21 = """
factions: dragon_empire, lords_of_the_abyss
16: de_banner
9: de_pikeman f=0
13: de_rune_minor_acceleration
5: la_banner
12: la_mygalomorph f=1
hand P0: de_battle_charge
"""


def test_g21_a_lost_bonus_gives_no_second_attack():
    game, s = parse_position(G21)
    assert effects(game, s)["initiatives"][9] == (3,)
    act(game, s, ORDER, MODE)
    assert occupied(s) == {5, 16}
    assert s.hp == [20, 19]
