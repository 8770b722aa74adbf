"""Golden scenarios G1-G15 of the Monolith Arena spec (§10), with exact masks and outcomes; G16-G21 are in
test_golden_module.py.

Positions are written in the compact text format of :mod:`monolith_envs.arena.positions_text`; action numbers
and helpers are in :mod:`tests.arena.scenario_support`.
"""

from __future__ import annotations

import numpy as np
import pytest

from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.positions import effects, set_hand, set_turn
from monolith_envs.arena.positions_text import parse_position
from monolith_envs.arena.state import Sub
from tests.arena.scenario_support import (
    DE,
    DISCARD,
    END,
    HEX,
    HF,
    MODE,
    ORDER,
    PLACE,
    ROT,
    act,
    legal,
    legal_hexes,
    legal_rots,
    occupied,
    tile_id,
)

# --------------------------------------------------------------------------------------------------
# G1 - opening turns and forced discard
# --------------------------------------------------------------------------------------------------


def test_g1_opening_turns_and_forced_discard():
    game = ArenaGame({"factions": [DE, HF]})
    s = game.initial_state(np.random.default_rng(1))
    assert s.sub_phase == Sub.SETUP_BANNER and s.acting_seat == 0
    act(game, s, 455)  # P0 Banner on hex 9
    assert s.acting_seat == 1 and s.sub_phase == Sub.SETUP_BANNER
    assert 455 not in legal(game, s)
    act(game, s, 457)  # P1 Banner on hex 11
    # P0 turn 1: draws 1, no forced discard
    assert (s.turn_seat, s.sub_phase) == (0, Sub.MAIN)
    assert sum(i >= 0 for i in s.hand[0]) == 1 and len(s.deck[0]) == 33
    assert legal(game, s, DISCARD, DISCARD + 3) == {20}
    act(game, s, END)
    # P1 turn 1: draws 2, no forced discard
    assert (s.turn_seat, s.sub_phase) == (1, Sub.MAIN)
    assert sum(i >= 0 for i in s.hand[1]) == 2 and len(s.deck[1]) == 32
    act(game, s, END)
    # P0 turn 2: draws 2 -> 3 tiles, forced discard
    assert (s.turn_seat, s.sub_phase) == (0, Sub.DISCARD)
    assert sum(i >= 0 for i in s.hand[0]) == 3 and len(s.deck[0]) == 31
    assert legal(game, s) == {20, 21, 22}
    act(game, s, 21)
    assert s.sub_phase == Sub.MAIN and s.discarded == 1


# --------------------------------------------------------------------------------------------------
# G2 - Monolith picks stay hidden
# --------------------------------------------------------------------------------------------------


def test_g2_monolith_picks_stay_hidden():
    game = ArenaGame({"factions": [DE, HF], "monolith_module": True})
    s = game.initial_state(np.random.default_rng(2))
    assert s.sub_phase == Sub.SETUP_PICK
    act(game, s, 2, 3)  # P0: Knight (local 2) then Dragon Rider (local 3)
    assert s.acting_seat == 1
    assert 6 in legal(game, s)
    act(game, s, 6)
    assert 6 in legal(game, s)  # Assassin count 3: a second copy may be picked
    act(game, s, 6)
    assert s.sub_phase == Sub.SETUP_BANNER
    assert len(s.deck[0]) == 32 and len(s.deck[1]) == 32
    spec = game.obs_spec
    T = game.tables.T
    knight, rider = game.tables.gid_by_id["de_knight"], game.tables.gid_by_id["de_dragon_rider"]
    # P1's view: P0 is relative seat 1
    o1 = game.observe(s, 1)
    mono = spec.view(o1, "monolith")  # [4, 2, T+3]: type one-hot, empty, hidden, on board
    for k in (0, 1):
        assert mono[1, k, :T].sum() == 0
        assert mono[1, k, T] == 0 and mono[1, k, T + 1] == 1
    unseen = spec.view(o1, "unseen")
    assert unseen[1, knight] == pytest.approx(1.0) and unseen[1, rider] == pytest.approx(0.25)
    # P0's own view
    o0 = game.observe(s, 0)
    mono0 = spec.view(o0, "monolith")
    assert mono0[0, 0, knight] == 1 and mono0[0, 1, rider] == 1
    assert mono0[0, 0, :T].sum() == 1 and mono0[0, 1, :T].sum() == 1
    unseen0 = spec.view(o0, "unseen")
    assert unseen0[0, knight] == pytest.approx(0.75) and unseen0[0, rider] == 0


# --------------------------------------------------------------------------------------------------
# G3-G11 - battles
# --------------------------------------------------------------------------------------------------

G3 = """
factions: dragon_empire, lords_of_the_abyss
16: de_banner
9: de_pikeman f=1
2: la_banner
10: la_spike f=4
14: la_spike f=5
4: la_spike f=2
hand P1: la_battle
turn: P1
"""


def test_g3_edge_rotation_melee_order():
    game, s = parse_position(G3)
    act(game, s, ORDER)
    assert occupied(s) == {2, 4, 16}
    assert s.hp == [20, 20]
    assert s.turn_seat == 0  # P1's turn ended


G4 = """
factions: dragon_empire, harbingers_of_the_forest
16: de_banner
9: de_knight f=5
11: hf_banner
2: hf_sorcerer f=3
5: hf_spark f=0
hand P1: hf_battle
turn: P1
"""


def test_g4_ranged_through_friends_armor_lasting_wounds():
    game, s = parse_position(G4)
    knight = s.board[9]
    act(game, s, ORDER)
    assert s.board[9] == knight and s.wounds[knight] == 1
    assert occupied(s) == {16, 9, 11, 2, 5}
    # a second Battle with the same board: 1 more wound, w=2 > 1, removed
    set_turn(game, s, 1)
    set_hand(game, s, 1, ["hf_battle"])
    act(game, s, ORDER)
    assert s.board[9] == -1
    assert occupied(s) == {16, 11, 2, 5}


G5 = """
factions: dragon_empire, lords_of_the_abyss
16: de_banner
9: de_swordsman f=0
0: la_banner
10: la_wraith f=4
{rune}
hand P1: la_battle
turn: P1
"""


@pytest.mark.parametrize("with_rune", [True, False])
def test_g5_acceleration_creates_simultaneity(with_rune):
    rune = "11: la_rune_minor_acceleration f=4" if with_rune else ""
    game, s = parse_position(G5.format(rune=rune))
    if with_rune:
        assert effects(game, s)["initiatives"][10] == (3,)
    act(game, s, ORDER)
    assert s.board[10] == -1
    if with_rune:
        assert s.board[9] == -1
    else:
        assert tile_id(game, s, 9) == "de_swordsman"


G6 = """
factions: dragon_empire, lords_of_the_abyss
16: de_banner
9: de_swordsman f=0
0: la_banner
10: la_horror f=4
"""


def test_g6a_net_stops_the_swordsman():
    game, s = parse_position(G6 + "hand P1: la_battle\nturn: P1\n")
    assert effects(game, s)["netted"][9]
    act(game, s, ORDER)
    assert s.board[9] == -1
    assert tile_id(game, s, 10) == "la_horror"


def test_g6b_net_order_frees_the_swordsman():
    game, s = parse_position(G6 + "hand P0: de_net, de_battle_charge\nturn: P0\n")
    act(game, s, ORDER)
    assert s.sub_phase == Sub.NET_TARGET
    assert legal_hexes(game, s) == {0, 10}  # any enemy tile on the board
    act(game, s, HEX + 10)
    assert s.sub_phase == Sub.MAIN and s.net_marker_on == s.board[10]
    fx = effects(game, s)
    assert fx["netted"][10] and not fx["netted"][9]
    act(game, s, ORDER + 1)
    assert s.sub_phase == Sub.ORDER_MODE
    assert legal(game, s) == {MODE}  # no Cavalry: only the Battle option
    act(game, s, MODE)
    assert s.board[10] == -1
    assert tile_id(game, s, 9) == "de_swordsman"
    assert s.net_marker_on == -1
    assert s.turn_seat == 1


G7 = """
factions: guardians_of_the_realm, lords_of_the_abyss
9: gr_banner
10: gr_axeman f=0 w=1
18: la_banner
hand P1: la_nightmare
turn: P1
"""


def test_g7_losing_a_toughness_bonus_kills_at_once():
    game, s = parse_position(G7)
    assert tile_id(game, s, 10) == "gr_axeman" and effects(game, s)["toughness"][10] == 1
    act(game, s, 49)  # PLACE slot 0, hex 4, facing 2
    assert tile_id(game, s, 4) == "la_nightmare"
    assert effects(game, s)["netted"][9]
    assert s.board[10] == -1
    assert s.hp == [20, 20] and not s.b_active
    assert s.sub_phase == Sub.MAIN and s.turn_seat == 1


G8 = """
factions: guardians_of_the_realm, dragon_empire
2: gr_banner
9: gr_wyvern f=1
14: gr_rune_regeneration f=5
16: de_banner
4: de_pikeman f=2
10: de_dragon_rider f=4
hand P0: gr_battle
"""


def test_g8_regeneration_cancels_the_biggest_hit():
    game, s = parse_position(G8)
    wyvern, rune, pikeman, rider = s.board[9], s.board[14], s.board[4], s.board[10]
    assert effects(game, s)["regen"][9] == [14]
    act(game, s, ORDER)
    assert s.board[9] == wyvern and s.wounds[wyvern] == 1
    assert occupied(s) == {2, 9, 16}
    assert rune in s.discard[0] and {pikeman, rider} <= set(s.discard[1])
    assert s.hp == [20, 20]


G9 = """
factions: lords_of_the_abyss, guardians_of_the_realm
11: la_banner
9: la_mygalomorph f=0
10: la_spike f=2
15: gr_banner
14: gr_golem f=0
hand P0: la_battle
"""


def test_g9_venom_and_poison_over_two_battles():
    game, s = parse_position(G9)
    golem, b1 = s.board[14], 35
    fx = effects(game, s)
    assert fx["venom"][10] and fx["toughness"][14] == 3
    act(game, s, ORDER)
    assert s.board[10] == -1  # the Spike was killed by the P1 Banner in phase 0
    assert s.wounds[golem] == 2 and s.poison[golem] == 1
    assert s.hp == [19, 17] and s.poison[b1] == 1
    assert s.poison_supply == 3
    # second Battle, same board
    set_turn(game, s, 0)
    set_hand(game, s, 0, ["la_battle"])
    act(game, s, ORDER)
    assert s.board[14] == -1
    assert s.poison[golem] == 0
    assert s.hp == [18, 15] and s.poison[b1] == 1 and s.poison[0] == 0
    assert s.poison_supply == 4


G10 = """
factions: harbingers_of_the_forest, guardians_of_the_realm
0: hf_banner
9: hf_morlock f=1
13: hf_morlock f=1
18: gr_banner
10: gr_wyvern f=4
hand P0: hf_battle
"""


def test_g10_kill_step():
    game, s = parse_position(G10)
    morlock13, morlock9, wyvern = s.board[13], s.board[9], s.board[10]
    act(game, s, ORDER)
    assert occupied(s) == {0, 13, 18}
    assert morlock9 in s.discard[0] and wyvern in s.discard[1]
    assert s.board[13] == morlock13
    assert s.hp == [20, 20]


G11 = """
factions: harbingers_of_the_forest, guardians_of_the_realm
0: hf_banner
12: hf_hunter f=1
{rune}
2: gr_banner
14: gr_golem f=0
hand P0: hf_battle
"""


@pytest.mark.parametrize("with_rune", [True, False])
def test_g11_double_attack(with_rune):
    game, s = parse_position(G11.format(rune="16: hf_rune_double_attack f=0" if with_rune else ""))
    golem = s.board[14]
    assert effects(game, s)["initiatives"][12] == ((3, 0, 0) if with_rune else (3, 0))
    act(game, s, ORDER)
    if with_rune:
        assert s.board[14] == -1
    else:
        assert s.board[14] == golem and s.wounds[golem] == 2


# --------------------------------------------------------------------------------------------------
# G12-G13 - Push Back and Charge
# --------------------------------------------------------------------------------------------------

G12 = """
factions: lords_of_the_abyss, dragon_empire
0: la_banner
9: la_spike f=1
16: de_banner
10: de_knight f=0
11: de_pikeman
15: de_swordsman
{extra}
hand P0: la_push_back
"""


def test_g12_push_back_geometry():
    game, s = parse_position(G12.format(extra=""))
    knight = s.board[10]
    assert ORDER in legal(game, s)
    act(game, s, ORDER)
    assert s.sub_phase == Sub.PUSH_TARGET and legal_hexes(game, s) == {10}
    act(game, s, HEX + 10)
    assert s.sub_phase == Sub.PUSH_PUSHER and legal_hexes(game, s) == {9}
    act(game, s, HEX + 9)
    assert s.sub_phase == Sub.PUSH_DEST and legal_hexes(game, s) == {6}
    act(game, s, HEX + 6)
    assert s.board[6] == knight and s.board[10] == -1
    assert s.facing[knight] == 0 and s.wounds[knight] == 0
    assert s.sub_phase == Sub.MAIN and s.turn_seat == 0


def test_g12_push_back_without_room_is_illegal():
    game, s = parse_position(G12.format(extra="6: de_pikeman f=0"))
    assert ORDER not in legal(game, s)


G13 = """
factions: dragon_empire, lords_of_the_abyss
14: de_banner
17: de_knight f=0
1: de_rune_charge
8: la_banner
hand P0: de_battle_charge
"""


def test_g13_charge():
    game, s = parse_position(G13)
    act(game, s, ORDER)
    assert s.sub_phase == Sub.ORDER_MODE and legal(game, s) == {495, 496}
    act(game, s, 496)
    assert s.sub_phase == Sub.CHARGE_TILE and legal_hexes(game, s) == {17}
    act(game, s, HEX + 17)
    assert s.sub_phase == Sub.CHARGE_DEST and legal_hexes(game, s) == {13}
    act(game, s, HEX + 13)
    assert s.sub_phase == Sub.CHARGE_FACING and legal_rots(game, s) == {5}
    knight = s.board[17]
    act(game, s, ROT + 5)
    assert s.board[13] == knight and s.board[17] == -1
    assert s.facing[knight] == 5 and s.wounds[knight] == 0  # nothing else acts
    assert s.hp == [20, 16]
    assert occupied(s) == {1, 8, 13, 14}
    assert s.turn_seat == 1


# --------------------------------------------------------------------------------------------------
# G14 - board full in mid-turn
# --------------------------------------------------------------------------------------------------

G14 = """
factions: dragon_empire, harbingers_of_the_forest
0: de_banner
1: de_rune_regeneration
2: de_rune_regeneration
3: de_rune_regeneration
4: de_rune_minor_acceleration
5: de_rune_minor_acceleration
6: de_rune_agility
7: de_rune_strength
8: de_rune_charge
18: hf_banner
10: hf_rune_accuracy
11: hf_rune_minor_acceleration
13: hf_rune_minor_acceleration
14: hf_rune_minor_acceleration
12: hf_rune_greater_acceleration
15: hf_rune_double_attack
16: hf_rune_regeneration f=1
17: hf_rune_regeneration f=1
hand P0: de_pikeman, de_swordsman
turn: P0 discarded=1
"""


def test_g14_board_full_in_mid_turn():
    game, s = parse_position(G14)
    assert len(occupied(s)) == 18 and s.board[9] == -1
    act(game, s, 78)  # PLACE slot 0, hex 9, facing 1 -> board full -> Battle
    assert tile_id(game, s, 9) == "de_pikeman"
    assert effects(game, s)["initiatives"][9] == (4,)
    assert s.board[10] == s.board[13] == s.board[14] == -1
    assert len(occupied(s)) == 16
    assert s.hp == [20, 20]
    assert (s.turn_seat, s.sub_phase) == (0, Sub.MAIN) and s.uses == 1
    place = legal(game, s, PLACE, ORDER)
    assert place == set(range(197, 203)) | set(range(215, 221)) | set(range(221, 227))
    assert END in legal(game, s)


# --------------------------------------------------------------------------------------------------
# G15 - last round and final Battle
# --------------------------------------------------------------------------------------------------

G15 = """
factions: dragon_empire, harbingers_of_the_forest
9: de_banner
10: de_swordsman f=0
11: hf_banner
6: hf_spark f=3
hand P0: de_battle_charge, de_move
deck P0: de_pikeman
deck P1: hf_battle, hf_move
hp P0: {hp0}
hp P1: 12
begin: P0
"""


@pytest.mark.parametrize("hp0,expected", [(12, [1.0, -1.0]), (10, [-1.0, 1.0])])
def test_g15_last_round_and_final_battle(hp0, expected):
    game, s = parse_position(G15.format(hp0=hp0))
    assert len(s.deck[0]) == 0 and sum(i >= 0 for i in s.hand[0]) == 3
    assert s.last_round and list(s.last_round_owed) == [False, True]
    assert s.sub_phase == Sub.DISCARD
    act(game, s, 21)
    assert s.sub_phase == Sub.MAIN
    assert ORDER not in legal(game, s)  # Battle forbidden in the last round, no Cavalry for a Charge
    act(game, s, END)
    assert s.turn_seat == 1 and s.sub_phase == Sub.MAIN  # 2 tiles drawn, no forced discard
    assert sum(i >= 0 for i in s.hand[1]) == 2 and len(s.deck[1]) == 0
    slot = [game.tables.id_of[s.itype[i]] if i >= 0 else None for i in s.hand[1]].index("hf_battle")
    assert ORDER + slot not in legal(game, s)
    act(game, s, END)  # final Battle
    assert s.terminal
    assert s.hp == [hp0, 10]
    assert s.board[10] == -1
    np.testing.assert_allclose(game.returns(s), expected)
    assert s.winners == ([0] if hp0 == 12 else [1])
