"""Battle rules (docs/monolith_arena.md §4.6-§4.8) on hand-built positions; expected values follow the spec's §10 scenarios."""

import pytest

from monolith_envs.arena.positions import (
    effects,
    new_position,
    put_tile,
    set_hand,
    set_hp,
    set_turn,
)
from monolith_envs.arena.state import Sub
from tests.arena.scenario_support import DE, GR, HF, LA, occupied

BATTLE = {DE: "de_battle_charge", LA: "la_battle", GR: "gr_battle", HF: "hf_battle"}


def battle(game, s, seat, fac):
    set_turn(game, s, seat)
    set_hand(game, s, seat, [BATTLE[fac]])
    game.apply(s, 365)
    if s.sub_phase == Sub.ORDER_MODE:
        game.apply(s, 495)


def test_g3_edge_rotation():
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 16)
    put_tile(g, s, 0, "de_pikeman", 9, facing=1)
    put_tile(g, s, 1, "la_banner", 2)
    put_tile(g, s, 1, "la_spike", 10, facing=4)
    put_tile(g, s, 1, "la_spike", 14, facing=5)
    put_tile(g, s, 1, "la_spike", 4, facing=2)
    battle(g, s, 1, LA)
    assert occupied(s) == {2, 4, 16}
    assert s.hp == [20, 20]
    assert s.turn_seat == 0  # P1's turn ended


def test_g4_ranged_armor_and_lasting_wounds():
    g, s = new_position([DE, HF])
    put_tile(g, s, 0, "de_banner", 16)
    knight = put_tile(g, s, 0, "de_knight", 9, facing=5)
    put_tile(g, s, 1, "hf_banner", 11)
    put_tile(g, s, 1, "hf_sorcerer", 2, facing=3)
    put_tile(g, s, 1, "hf_spark", 5, facing=0)
    battle(g, s, 1, HF)
    assert s.board[9] == knight and s.wounds[knight] == 1
    battle(g, s, 1, HF)
    assert s.board[9] == -1


@pytest.mark.parametrize("with_rune", [True, False])
def test_g5_acceleration(with_rune):
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 16)
    put_tile(g, s, 0, "de_swordsman", 9, facing=0)
    put_tile(g, s, 1, "la_banner", 0)
    put_tile(g, s, 1, "la_wraith", 10, facing=4)
    if with_rune:
        put_tile(g, s, 1, "la_rune_minor_acceleration", 11, facing=4)
        assert effects(g, s)["initiatives"][10] == (3,)
    battle(g, s, 1, LA)
    assert s.board[10] == -1
    assert (s.board[9] == -1) == with_rune


def test_g6a_net():
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 16)
    put_tile(g, s, 0, "de_swordsman", 9, facing=0)
    put_tile(g, s, 1, "la_banner", 0)
    horror = put_tile(g, s, 1, "la_horror", 10, facing=4)
    assert effects(g, s)["netted"][9]
    battle(g, s, 1, LA)
    assert s.board[9] == -1 and s.board[10] == horror


def test_g6b_net_order_then_battle():
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 16)
    put_tile(g, s, 0, "de_swordsman", 9, facing=0)
    put_tile(g, s, 1, "la_banner", 0)
    put_tile(g, s, 1, "la_horror", 10, facing=4)
    set_hand(g, s, 0, ["de_net", "de_battle_charge"])
    g.apply(s, 365)
    assert s.sub_phase == Sub.NET_TARGET
    g.apply(s, 456)
    fx = effects(g, s)
    assert fx["netted"][10] and not fx["netted"][9]
    g.apply(s, 366)
    assert list(g.legal_mask(s).nonzero()[0]) == [495]
    g.apply(s, 495)
    assert s.board[10] == -1 and s.board[9] >= 0
    assert s.net_marker_on == -1
    assert s.turn_seat == 1


def test_g7_lost_toughness_bonus_kills_at_once():
    g, s = new_position([GR, LA])
    put_tile(g, s, 0, "gr_banner", 9)
    put_tile(g, s, 0, "gr_axeman", 10, facing=0, wounds=1)
    put_tile(g, s, 1, "la_banner", 18)
    assert effects(g, s)["toughness"][10] == 1
    set_turn(g, s, 1)
    set_hand(g, s, 1, ["la_nightmare"])
    g.apply(s, 49)
    assert s.board[4] >= 0 and s.board[10] == -1
    assert effects(g, s)["netted"][9]
    assert not s.b_active and s.sub_phase == Sub.MAIN


def test_g8_regeneration_cancels_biggest_hit():
    g, s = new_position([GR, DE])
    put_tile(g, s, 0, "gr_banner", 2)
    wyv = put_tile(g, s, 0, "gr_wyvern", 9, facing=1)
    put_tile(g, s, 0, "gr_rune_regeneration", 14, facing=5)
    put_tile(g, s, 1, "de_banner", 16)
    put_tile(g, s, 1, "de_pikeman", 4, facing=2)
    put_tile(g, s, 1, "de_dragon_rider", 10, facing=4)
    battle(g, s, 0, GR)
    assert s.board[9] == wyv and s.wounds[wyv] == 1
    assert occupied(s) == {2, 9, 16}
    assert s.hp == [20, 20]


def test_g9_venom_and_poison():
    g, s = new_position([LA, GR])
    put_tile(g, s, 0, "la_banner", 11)
    put_tile(g, s, 0, "la_mygalomorph", 9, facing=0)
    put_tile(g, s, 0, "la_spike", 10, facing=2)
    put_tile(g, s, 1, "gr_banner", 15)
    golem = put_tile(g, s, 1, "gr_golem", 14, facing=0)
    assert effects(g, s)["toughness"][14] == 3
    assert effects(g, s)["venom"][10]
    battle(g, s, 0, LA)
    assert s.wounds[golem] == 2 and s.poison[golem] == 1
    assert s.hp == [19, 17] and s.poison[35] == 1
    assert s.board[10] == -1
    assert s.poison_supply == 3
    battle(g, s, 0, LA)
    assert s.board[14] == -1
    assert s.hp == [18, 15]
    assert s.poison_supply == 4


def test_g10_kill_step():
    g, s = new_position([HF, GR])
    put_tile(g, s, 0, "hf_banner", 0)
    put_tile(g, s, 0, "hf_morlock", 9, facing=1)
    m2 = put_tile(g, s, 0, "hf_morlock", 13, facing=1)
    put_tile(g, s, 1, "gr_banner", 18)
    put_tile(g, s, 1, "gr_wyvern", 10, facing=4)
    battle(g, s, 0, HF)
    assert s.board[10] == -1 and s.board[9] == -1 and s.board[13] == m2
    assert s.hp == [20, 20]


@pytest.mark.parametrize("with_rune", [True, False])
def test_g11_double_attack(with_rune):
    g, s = new_position([HF, GR])
    put_tile(g, s, 0, "hf_banner", 0)
    put_tile(g, s, 0, "hf_hunter", 12, facing=1)
    if with_rune:
        put_tile(g, s, 0, "hf_rune_double_attack", 16, facing=0)
        assert effects(g, s)["initiatives"][12] == (3, 0, 0)
    put_tile(g, s, 1, "gr_banner", 2)
    golem = put_tile(g, s, 1, "gr_golem", 14, facing=0)
    battle(g, s, 0, HF)
    if with_rune:
        assert s.board[14] == -1
    else:
        assert s.wounds[golem] == 2


def test_g14_board_full_battle_mid_turn():
    g, s = new_position([DE, HF])
    put_tile(g, s, 0, "de_banner", 0)
    for h in (1, 2, 3):
        put_tile(g, s, 0, "de_rune_regeneration", h)
    put_tile(g, s, 0, "de_rune_minor_acceleration", 4)
    put_tile(g, s, 0, "de_rune_minor_acceleration", 5)
    put_tile(g, s, 0, "de_rune_agility", 6)
    put_tile(g, s, 0, "de_rune_strength", 7)
    put_tile(g, s, 0, "de_rune_charge", 8)
    put_tile(g, s, 1, "hf_banner", 18)
    put_tile(g, s, 1, "hf_rune_accuracy", 10)
    for h in (11, 13, 14):
        put_tile(g, s, 1, "hf_rune_minor_acceleration", h)
    put_tile(g, s, 1, "hf_rune_greater_acceleration", 12)
    put_tile(g, s, 1, "hf_rune_double_attack", 15)
    put_tile(g, s, 1, "hf_rune_regeneration", 16, facing=1)
    put_tile(g, s, 1, "hf_rune_regeneration", 17, facing=1)
    set_turn(g, s, 0, discarded=1)
    set_hand(g, s, 0, ["de_pikeman", "de_swordsman"])
    g.apply(s, 78)
    assert s.board[10] == s.board[13] == s.board[14] == -1
    assert s.sub_phase == Sub.MAIN and s.turn_seat == 0 and s.uses == 1
    m = g.legal_mask(s)
    place = set(int(a) for a in m.nonzero()[0] if 23 <= a < 365)
    assert place == set(range(197, 203)) | set(range(215, 227))
    assert m[445]


def test_g15_last_round_and_final_battle():
    from monolith_envs.arena.positions import begin_turn, set_deck

    for p0hp, expect in ((12, [1.0, -1.0]), (10, [-1.0, 1.0])):
        g, s = new_position([DE, HF])
        put_tile(g, s, 0, "de_banner", 9)
        put_tile(g, s, 0, "de_swordsman", 10, facing=0)
        put_tile(g, s, 1, "hf_banner", 11)
        put_tile(g, s, 1, "hf_spark", 6, facing=3)
        set_hp(g, s, 0, p0hp)
        set_hp(g, s, 1, 12)
        set_deck(g, s, 0, ["de_pikeman"])
        set_hand(g, s, 0, ["de_battle_charge", "de_move"])
        set_deck(g, s, 1, ["hf_battle", "hf_move"])
        begin_turn(g, s, 0)
        assert s.last_round and s.last_round_owed == [False, True]
        assert s.sub_phase == Sub.DISCARD
        g.apply(s, 21)
        assert not g.legal_mask(s)[365]
        g.apply(s, 445)
        assert s.turn_seat == 1 and s.sub_phase == Sub.MAIN
        ids = [g.tables.id_of[s.itype[i]] for i in s.hand[1] if i >= 0]
        assert sorted(ids) == ["hf_battle", "hf_move"]
        assert not g.legal_mask(s)[365 + ids.index("hf_battle")]
        g.apply(s, 445)
        assert s.terminal
        assert s.hp == [p0hp, 10]
        assert list(g.returns(s)) == expect


def test_g21_lost_bonus_no_second_attack():
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 16)
    pk = put_tile(g, s, 0, "de_pikeman", 9, facing=0)
    put_tile(g, s, 0, "de_rune_minor_acceleration", 13)
    put_tile(g, s, 1, "la_banner", 5)
    put_tile(g, s, 1, "la_mygalomorph", 12, facing=1)
    battle(g, s, 0, DE)
    assert occupied(s) == {5, 16}
    assert s.hp == [20, 19]
    assert pk not in s.board


def test_g13_charge():
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 14)
    put_tile(g, s, 0, "de_knight", 17, facing=0)
    put_tile(g, s, 0, "de_rune_charge", 1)
    put_tile(g, s, 1, "la_banner", 8)
    set_hand(g, s, 0, ["de_battle_charge"])
    g.apply(s, 365)
    assert set(g.legal_mask(s).nonzero()[0]) == {495, 496}
    g.apply(s, 496)
    assert set(g.legal_mask(s).nonzero()[0]) == {463}
    g.apply(s, 463)
    assert set(g.legal_mask(s).nonzero()[0]) == {459}
    g.apply(s, 459)
    assert set(g.legal_mask(s).nonzero()[0]) == {470}
    g.apply(s, 470)
    assert s.hp == [20, 16]
    assert s.turn_seat == 1


def test_g20_teams_shared_pool():
    g, s = new_position([DE, LA, GR, HF], mode="teams")
    put_tile(g, s, 0, "de_banner", 0)
    put_tile(g, s, 0, "de_pikeman", 9, facing=0)
    put_tile(g, s, 1, "la_banner", 2)
    put_tile(g, s, 1, "la_chaos", 15, facing=1)
    put_tile(g, s, 2, "gr_banner", 18)
    put_tile(g, s, 2, "gr_axeman", 14, facing=5)
    put_tile(g, s, 3, "hf_banner", 16)
    put_tile(g, s, 3, "hf_herne", 4, facing=5)
    from monolith_envs.arena.positions import set_pool
    set_pool(g, s, 0, 3)
    battle(g, s, 1, LA)
    assert s.terminal and s.pool[0] == 0
    assert list(g.returns(s)) == [-0.5, 0.5, -0.5, 0.5]


def test_duel_both_banners_zero_is_a_draw():
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 9)
    put_tile(g, s, 1, "la_banner", 10)
    set_hp(g, s, 0, 1)
    set_hp(g, s, 1, 1)
    battle(g, s, 0, DE)
    assert s.terminal and s.hp == [0, 0]
    assert list(g.returns(s)) == [0.0, 0.0]


def test_assassin_targets_chosen_by_owner():
    g, s = new_position([HF, DE])
    put_tile(g, s, 0, "hf_banner", 0)
    put_tile(g, s, 0, "hf_assassin", 18)
    put_tile(g, s, 1, "de_banner", 16)
    kn = put_tile(g, s, 1, "de_knight", 9)
    battle(g, s, 1, DE)
    assert s.sub_phase == Sub.ASSASSIN_TARGET and s.acting_seat == 0
    assert set(g.legal_mask(s).nonzero()[0]) == {446 + 9, 446 + 16}
    g.apply(s, 446 + 9)   # strike 1 at the Knight (no Armor against strikes)
    assert s.wounds[kn] == 1 and s.board[9] == kn
    assert s.turn_seat == 0


def test_ffa_elimination_and_turn_order():
    g, s = new_position([DE, LA, GR])
    put_tile(g, s, 0, "de_banner", 9)
    put_tile(g, s, 1, "la_banner", 0)
    put_tile(g, s, 2, "gr_banner", 10)
    put_tile(g, s, 2, "gr_golem", 18)
    set_hp(g, s, 2, 1)
    battle(g, s, 0, DE)
    assert s.alive == [True, True, False] and s.hp[2] == 0
    assert s.board[10] == -1 and s.board[18] == -1
    assert s.elim_order[2] == 0 and not s.terminal
    assert s.turn_seat == 1
    g.apply(s, 20)   # seat 1's forced discard
    g.apply(s, 445)  # seat 1 ends its turn: seat 2 is skipped
    assert s.turn_seat == 0
    g.check_invariants(s)


def test_regeneration_rune_protects_banner():
    g, s = new_position([GR, DE])
    put_tile(g, s, 0, "gr_banner", 10)
    put_tile(g, s, 0, "gr_rune_regeneration", 14, facing=5)   # edges 0, 1 -> NW (9), NE (10)
    put_tile(g, s, 1, "de_banner", 9)
    assert effects(g, s)["regen"][10] == [14]
    battle(g, s, 1, DE)
    # phase 0: the Banners trade 1; the hit on P0's Banner is cancelled and the Rune is consumed
    assert s.hp == [20, 19]
    assert s.board[14] == -1


VENOM_CASCADE = """
factions: guardians_of_the_realm, lords_of_the_abyss
18: gr_banner p=4
4: gr_rune_reinforcement f=0
5: gr_axeman f=3
14: gr_golem
16: la_banner
9: la_mygalomorph f=0
3: la_mygalomorph f=1
hand P1: la_battle
turn: P1
"""


def test_venom_marks_only_targets_that_survive_the_cascade():
    """§4.7 Venom: a marker goes only to a target still on the board after the step's removals and state check.

    Phase 3: the Mygalomorph on 3 (facing 1: edges 0, 2, 4 -> directions 1, 3, 5) hits the Rune of
    Reinforcement on 4; the one on 9 (facing 0 -> directions 0, 2, 4) hits the Axeman on 5 and the Golem on 14,
    all for 1 with Venom.  The Rune (toughness 0) dies; the Axeman (0 + 1 from the Rune on its connected edge)
    survives its wound until the Rune is gone, then dies in the state check's cascade; the Golem (2 + 1 from
    the adjacent Banner) survives.  The supply holds 1 marker (4 on P0's Banner): in (target hex, source hex)
    order the Axeman's hit comes first, but it dies, so the Golem gets the marker.  The poison step then
    wounds it once more (2 <= 3), and P0's Banner loses 4 HP to its own markers (20 -> 16).
    """
    from monolith_envs.arena import parse_position

    game, s = parse_position(VENOM_CASCADE)
    assert effects(game, s)["toughness"][5] == 1 and effects(game, s)["toughness"][14] == 3
    assert s.poison_supply == 1
    golem = s.board[14]
    game.apply(s, game.off.ORDER)  # PLAY_ORDER slot 0: the Battle
    assert s.board[4] == -1 and s.board[5] == -1 and s.board[14] == golem
    assert s.poison[golem] == 1 and s.poison_supply == 0
    assert s.wounds[golem] == 2
    assert s.hp == [16, 20]
    game.check_invariants(s)
