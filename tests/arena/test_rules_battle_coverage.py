"""Rule coverage of the Battle (docs/monolith_arena.md §4.7), the Charge (§4.8) and the Battle's end of
game (§4.9): one test per rule sentence that the golden scenarios do not already pin down.

Every position is written in the text format (§12) and read back through it and the observation (§7.1);
the expected values are derived from the rules in the comments (hex geometry: the neighbour table of §2.1;
a tile at facing f attacks from printed edge e in board direction (e + f) mod 6).
"""

from __future__ import annotations

import pytest

from tests.arena.coverage_support import position

HF_LA = "factions: harbingers_of_the_forest, lords_of_the_abyss\n"


# --------------------------------------------------------------------------------------------------
# kill step (§4.7 step 2)
# --------------------------------------------------------------------------------------------------

KILL = HF_LA + """
0: hf_banner
18: la_banner
9: hf_morlock f=1 {mark}
10: la_spike f=1
{extra}
hand P0: hf_battle
"""


def test_kill_step_removes_target_and_killer():
    # Morlock 9 f=1: kill edge 0 -> E -> 10, an enemy Spike: both leave the board, without wounds
    p = position(KILL.format(mark="", extra=""))
    p.battle()
    assert p.occupied() == {0, 18}


def test_netted_morlock_does_not_kill():
    # the Net-order marker nets the Morlock: "every non-netted, non-disarmed tile with a kill edge"
    # marks its target, so nothing is marked; phase 1 (the Spike, edge 0 -> E -> 11) hits nothing
    p = position(KILL.format(mark="net", extra=""))
    assert p.netted(9)
    p.battle()
    assert p.occupied() == {0, 9, 10, 18}
    assert p.tile(10).wounds == 0


def test_disarmed_morlock_does_not_kill():
    # Rune of Disarmament (P1) at 8 f=0: connection edges 0, 1 -> NE 4, E 9: the Morlock is disarmed
    p = position(KILL.format(mark="", extra="8: la_rune_disarmament f=0"))
    assert p.disarmed(9)
    p.battle()
    assert p.occupied() == {0, 8, 9, 10, 18}


def test_morlock_never_kills_a_banner():
    # kill edge -> 10 holds the P1 Banner: not a non-Banner target, so nothing happens and the Morlock
    # stays; the Banner is netted by the marker so that phase 0 does not remove the Morlock either
    p = position(HF_LA + """
0: hf_banner
9: hf_morlock f=1
10: la_banner net
hand P0: hf_battle
""")
    p.battle()
    assert p.occupied() == {0, 9, 10}
    assert p.hp() == [20, 20]


def test_regeneration_cannot_stop_a_kill():
    # the Spike at 10 is connected to its own Regeneration Rune at 11 (f=4: edge 0 -> W -> 10); a kill
    # is not a hit, so the Rune is not consumed and stays, the Spike and the Morlock go
    p = position(KILL.format(mark="", extra="11: la_rune_regeneration f=4"))
    p.battle()
    assert p.occupied() == {0, 11, 18}


def test_every_killer_and_its_target_go_together():
    # Morlocks at 9 (f=1 -> 10) and 11 (f=4 -> W -> 10) both mark the Spike at 10: all three removed
    p = position(KILL.format(mark="", extra="11: hf_morlock f=4"))
    p.battle()
    assert p.occupied() == {0, 18}


def test_a_killer_without_a_target_stays():
    # the Morlock at 9 turned to f=2 aims its kill edge SE at 14, empty: it stays (the Spike too)
    p = position(KILL.format(mark="", extra="").replace("hf_morlock f=1", "hf_morlock f=2"))
    p.battle()
    assert p.occupied() == {0, 9, 10, 18}


def test_kill_edge_at_an_own_tile_does_nothing():
    # the kill edge points at an own Spark: not an enemy, nothing is marked
    p = position(HF_LA + """
0: hf_banner
18: la_banner
9: hf_morlock f=1
10: hf_spark f=1
hand P0: hf_battle
""")
    p.battle()
    assert p.occupied() == {0, 9, 10, 18}


def test_kill_step_comes_before_the_phases():
    # Mygalomorph (P1, initiative 3) at 10 f=4: edges 0, 2, 4 -> W 9, NE 6, SE 15. The Morlock at 9
    # kills it before phase 3, so the Spark at 15 (f=1: shots E and SE, both off the board) survives
    p = position(HF_LA + """
16: hf_banner
2: la_banner
9: hf_morlock f=1
10: la_mygalomorph f=4
15: hf_spark f=1
hand P0: hf_battle
""")
    p.battle()
    assert p.occupied() == {2, 15, 16}
    assert p.tile(15).wounds == 0


def test_kill_step_is_followed_by_a_state_check():
    # Guardians (P1): Rune of Reinforcement at 11 f=4 (edges 0,1,2 -> W 10, NW 6, NE off) gives the
    # Axeman at 10 (w=1) toughness 0+1. The Morlock at 6 (f=2: kill edge -> SE -> 11) kills the Rune in
    # the kill step; the state check right after removes the Axeman (w=1 > 0) before phase 2, so its
    # attack on the Spark at 15 (Axeman f=2: edge 0 -> SE -> 15) never happens
    p = position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
0: hf_banner
17: gr_banner
6: hf_morlock f=2
11: gr_rune_reinforcement f=4
10: gr_axeman f=2 w=1
15: hf_spark f=1
hand P0: hf_battle
""")
    p.battle()
    assert p.occupied() == {0, 15, 17}
    assert p.tile(15).wounds == 0


# --------------------------------------------------------------------------------------------------
# phases (§4.7 step 3)
# --------------------------------------------------------------------------------------------------

DE_LA = "factions: dragon_empire, lords_of_the_abyss\n"


def test_only_banners_means_one_phase_0():
    # no initiative above 0: P = 0; adjacent Banners hit each other once with strength 1 (the Dragon
    # Empire aura reaches Champions only)
    p = position(DE_LA + """
9: de_banner
10: la_banner
hand P0: de_battle_charge
""")
    p.act(p.order(0), p.mode(0))
    assert p.hp() == [19, 19]


def test_a_tile_freed_of_its_net_acts_in_a_later_phase():
    # Nightmare (P1) at 4 f=2 nets the Pikeman at 9 (edge 0 -> SE -> 9). Phase 3: the Swordsman at 5
    # (f=5: edges 1, 5 -> NE 2, W 4) removes the Nightmare. Phase 2 starts with fresh effects: the
    # Pikeman (f=1: edges 0,1,2,5 -> E 10, SE 14, SW 13, NE 5) is free and removes the Spike at 10
    text = DE_LA + """
16: de_banner
0: la_banner
4: la_nightmare f=2
9: de_pikeman f=1
{sword}
10: la_spike f=1
hand P1: la_battle
turn: P1
"""
    p = position(text.format(sword="5: de_swordsman f=5"))
    assert p.netted(9)
    p.battle()
    assert p.occupied() == {0, 5, 9, 16}
    # without the Swordsman the Pikeman stays netted and the Spike (edge 0 -> E -> 11) survives
    q = position(text.format(sword=""))
    q.battle()
    assert q.occupied() == {0, 4, 9, 10, 16}


def test_a_tile_hit_in_a_phase_still_blocks_that_phases_shots():
    # phase 2: the Spark at 9 (f=1: shots E and SE) and the Herne at 6 (f=3: edge 0 -> SW -> 10) both
    # hit the Spike at 10 (1 + 2 > 0: removed); the shot E stops at 10 because hits are collected on the
    # board as it stands, so the Spike at 11 is untouched
    p = position(HF_LA + """
16: hf_banner
0: la_banner
9: hf_spark f=1
6: hf_herne f=3
10: la_spike f=0
11: la_spike f=0
hand P0: hf_battle
""")
    p.battle()
    assert p.occupied() == {0, 6, 9, 11, 16}
    assert p.tile(11).wounds == 0


def test_removal_uses_the_toughness_from_the_start_of_the_phase():
    # Nightmare (P1) at 4 f=2 nets the Guardians Banner at 9, so its aura (+1 Toughness) is off and the
    # Axeman at 5 has toughness 0. Phase 2: the Axeman (f=4: edges 0,1,5 -> W 4, NW 1, SW 9) removes the
    # Nightmare while the Wraith at 6 (f=4: edges 0, 5 -> W 5, SW 10) wounds the Axeman (w=1). Removal
    # compares with the toughness at the start of the phase (0): the Axeman goes too, although the
    # Banner's aura would be back after the Nightmare's removal
    p = position("""
factions: guardians_of_the_realm, lords_of_the_abyss
9: gr_banner
16: la_banner
4: la_nightmare f=2
5: gr_axeman f=4
6: la_wraith f=4
hand P0: gr_battle
""")
    assert p.netted(9) and p.toughness(5) == 0
    p.battle()
    assert p.occupied() == {6, 9, 16}


def test_removal_cascade_when_a_toughness_rune_dies():
    # Guardians (P0): Rune of Reinforcement at 11 f=4 gives the Axeman at 10 (w=1) toughness 1. Phase 3:
    # the Swordsman at 6 (f=1: edges 1, 5 -> SE 11, NE off) removes the Rune; the state check after the
    # removal takes the Axeman (w=1 > 0) in the same step
    p = position("""
factions: guardians_of_the_realm, dragon_empire
16: gr_banner
0: de_banner
11: gr_rune_reinforcement f=4
10: gr_axeman f=3 w=1
6: de_swordsman f=1
hand P0: gr_battle
""")
    assert p.toughness(10) == 1
    p.battle()
    assert p.occupied() == {0, 6, 16}


def test_banner_check_stops_the_battle():
    # P1 at 1 HP. Phase 3: the Swordsman at 9 (f=0: edges 1, 5 -> E 10, NW 4) hits the P1 Banner at 10:
    # HP 0, P0 wins at once, so the Chaos at 5 (f=3: edge 0 -> SW -> 9, initiative 2) never strikes
    p = position(DE_LA + """
16: de_banner
10: la_banner
9: de_swordsman f=0
5: la_chaos f=3
hp P1: 1
hand P0: de_battle_charge
""")
    p.act(p.order(0), p.mode(0))
    assert p.over() and p.returns() == [1.0, -1.0]
    assert p.tile(9) is not None and p.tile(9).wounds == 0


# --------------------------------------------------------------------------------------------------
# poison step and end of Battle (§4.7 steps 4, 5)
# --------------------------------------------------------------------------------------------------


def test_poison_step_can_end_the_game():
    # the P1 Banner carries 2 markers and has 2 HP; no hits in the phases; the poison step takes 2 HP
    p = position("""
factions: lords_of_the_abyss, dragon_empire
0: la_banner
18: de_banner p=2
hp P1: 2
hand P0: la_battle
""")
    p.battle()
    assert p.over() and p.returns() == [1.0, -1.0]


def test_regeneration_cancels_a_poison_hit_and_the_markers_stay():
    # Rune of Regeneration (P1) at 17 f=1: edge 0 -> E -> 18, the Banner with 3 markers. The poison hit
    # of 3 is cancelled (HP stays 20), the Rune is consumed and removed, the markers stay (supply 2)
    p = position("""
factions: lords_of_the_abyss, dragon_empire
0: la_banner
18: de_banner p=3
17: de_rune_regeneration f=1
hand P0: la_battle
""")
    p.battle()
    assert p.hp() == [20, 20]
    assert p.occupied() == {0, 18}
    assert p.tile(18).poison == 3 and p.poison_supply() == 2


def test_net_order_marker_is_taken_off_at_the_end_of_a_battle():
    p = position(DE_LA + """
16: de_banner
0: la_banner
10: la_spike f=1 net
hand P1: la_battle
turn: P1
""")
    assert p.netted(10) and not p.net_marker_free()
    p.battle()
    assert p.tile(10) is not None and not p.tile(10).net_marker
    assert not p.netted(10) and p.net_marker_free()


# --------------------------------------------------------------------------------------------------
# hits (§4.7 "Hits")
# --------------------------------------------------------------------------------------------------


def test_melee_never_hits_own_tiles():
    # Pikeman at 9 f=0: edges 0,1,2,5 -> NE 5, E 10, SE 14, NW 4. The enemy Spike at 5 (f=0 -> 2) takes 1
    # and goes; the own Swordsman at 10 (f=0: edges 1, 5 -> 11, 6) is not hit
    p = position(DE_LA + """
16: de_banner
0: la_banner
9: de_pikeman f=0
10: de_swordsman f=0
5: la_spike f=0
hand P1: la_battle
turn: P1
""")
    p.battle()
    assert p.occupied() == {0, 9, 10, 16}
    assert p.tile(10).wounds == 0


def test_ranged_passes_allied_tiles():
    # teams: Crossbowman (P2, team A) at 9 f=1 shoots E: 10 holds the allied Pikeman (P0), skipped; the
    # Spike (P1, team B) at 11 takes 1 and goes
    p = position("""
factions: dragon_empire, lords_of_the_abyss, guardians_of_the_realm, harbingers_of_the_forest
config: num_players=4 mode=teams
16: de_banner
0: la_banner
2: gr_banner
18: hf_banner
9: gr_crossbowman f=1
10: de_pikeman f=3
11: la_spike f=0
hand P1: la_battle
turn: P1
""")
    p.battle()
    assert p.occupied() == {0, 2, 9, 10, 16, 18}
    assert p.tile(10).wounds == 0


@pytest.mark.parametrize("accuracy, knight_wounds", [(False, 0), (True, 1)])
def test_armor_stops_a_weak_shot_which_still_stops(accuracy, knight_wounds):
    # Spark (P0) at 9 f=1 shoots E (and SE into 14, 18: empty). The Knight at 10 f=3 meets a shot
    # travelling E on printed edge (1 + 3 - 3) mod 6 = 1, armored: 1 - 1 = 0, no hit, but the shot stops
    # there and the Arquebusier at 11 is safe. A Rune of Accuracy (+1 ranged, all 6 edges) at 8 makes it
    # 1 + 1 - 1 = 1 wound (the Knight has toughness 1 and survives)
    p = position("""
factions: harbingers_of_the_forest, dragon_empire
16: hf_banner
0: de_banner
9: hf_spark f=1
10: de_knight f=3
11: de_arquebusier f=0
""" + ("8: hf_rune_accuracy\n" if accuracy else "") + "hand P0: hf_battle\n")
    p.battle()
    assert p.tile(10).wounds == knight_wounds
    assert p.tile(11).wounds == 0


def test_armor_never_takes_more_than_one():
    # Sorcerer (ranged 2) at 9 f=1 shoots the entrenched Knight at 10 on its armored edge 1: still only
    # 2 - 1 = 1 wound
    p = position("""
factions: harbingers_of_the_forest, dragon_empire
16: hf_banner
0: de_banner
9: hf_sorcerer f=1
10: de_knight f=3 entrench
hand P0: hf_battle
""")
    p.battle()
    assert p.tile(10).wounds == 1


def test_armor_never_reduces_melee():
    # Herne (melee 2) at 9 f=1 hits the entrenched Knight at 10 on its armored edge 1: 2 wounds > 1
    p = position("""
factions: harbingers_of_the_forest, dragon_empire
16: hf_banner
0: de_banner
9: hf_herne f=1
10: de_knight f=3 entrench
hand P0: hf_battle
""")
    p.battle()
    assert p.tile(10) is None


@pytest.mark.parametrize("target", [2, 0])
def test_strike_is_aimed_by_its_owner_ignores_armor_and_may_hit_a_banner(target):
    # Assassin (P0, initiative 3, strike 1) at 14; enemies on the board: the entrenched Dragon Rider at 2
    # (toughness 0, Armor 0,1,5) and the P1 Banner at 0
    p = position("""
factions: harbingers_of_the_forest, dragon_empire
18: hf_banner
0: de_banner
14: hf_assassin f=0
2: de_dragon_rider f=0 entrench
hand P0: hf_battle
""")
    p.battle()
    assert p.turn() == (0, "ASSASSIN_TARGET") and p.game.current_player(p.s) == 0
    assert p.legal_hexes() == {0, 2}
    p.act(p.hex(target))
    if target == 2:  # strike 1 with no Armor: w=1 > 0, removed
        assert p.tile(2) is None and p.hp() == [20, 20]
    else:
        assert p.tile(2).wounds == 0 and p.hp() == [20, 19]


def test_order_wounds_and_poison_ignore_armor():
    # Precise Shot (1 wound) on the entrenched Knight at 5: w=1; then a Battle: its Poison marker gives
    # one more hit of 1 in the poison step, also through the Entrenchment: w=2 > 1, removed
    p = position("""
factions: harbingers_of_the_forest, dragon_empire
18: hf_banner
0: de_banner
5: de_knight f=0 entrench p=1
hand P0: hf_precise_shot, hf_battle
""")
    p.act(p.order(0))
    assert p.legal_hexes() == {5}
    p.act(p.hex(5))
    assert p.tile(5).wounds == 1 and p.turn() == (0, "MAIN")
    p.act(p.order(1))
    assert p.tile(5) is None and p.poison_supply() == 5


# --------------------------------------------------------------------------------------------------
# Regeneration, wounds, venom (§4.7)
# --------------------------------------------------------------------------------------------------

VENOM = """
factions: lords_of_the_abyss, guardians_of_the_realm
16: la_banner
18: gr_banner {banner}
9: la_mygalomorph f=0
{targets}
hand P0: la_battle
"""


def test_regeneration_in_an_order_step():
    # Precise Shot on the Golem at 5; its Rune of Regeneration at 6 (f=4: edge 0 -> W -> 5) cancels it
    # and is consumed (removed at the end of the step)
    p = position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
18: hf_banner
0: gr_banner
5: gr_golem f=0
6: gr_rune_regeneration f=4
hand P0: hf_precise_shot
""")
    p.act(p.order(0))
    assert p.legal_hexes() == {5, 6}
    p.act(p.hex(5))
    assert p.tile(5).wounds == 0 and p.tile(6) is None


def test_netted_regeneration_rune_does_not_cancel():
    # Mygalomorph at 9 f=0 (edges 0,2,4 -> NE 5, SE 14, W 8) hits the Golem at 5 (venom). Its Rune at 6
    # is netted: not available, so the hit lands (w=1, 1 marker) and the Rune stays
    p = position(VENOM.format(banner="", targets="5: gr_golem f=0\n6: gr_rune_regeneration f=4 net"))
    p.battle()
    # the poison step adds the marker's hit: w=2 <= 2
    assert p.tile(5).wounds == 2 and p.tile(5).poison == 1
    assert p.tile(6) is not None


def test_venom_needs_an_uncancelled_hit():
    # the same hit, cancelled by the Rune: no marker, the Rune is consumed
    p = position(VENOM.format(banner="", targets="5: gr_golem f=0\n6: gr_rune_regeneration f=4"))
    p.battle()
    assert p.tile(5).wounds == 0 and p.tile(5).poison == 0
    assert p.tile(6) is None and p.poison_supply() == 5


def test_venom_needs_a_surviving_target():
    # the Axeman at 5 (toughness 0) dies of the venom hit: no marker is placed, the supply stays 5
    p = position(VENOM.format(banner="", targets="5: gr_axeman f=3"))
    p.battle()
    assert p.tile(5) is None and p.poison_supply() == 5


def test_venom_while_the_supply_lasts_in_target_hex_order():
    # supply 1 (4 markers on the P1 Banner). The Mygalomorph hits the Golems at 5 and 14: the marker goes
    # to the lower target hex, 5. Poison step: Golem 5 takes 1 more (w=2), the Banner loses 4 (HP 16)
    p = position(VENOM.format(banner="p=4", targets="5: gr_golem f=0\n14: gr_golem f=0"))
    assert p.poison_supply() == 1
    p.battle()
    assert (p.tile(5).wounds, p.tile(5).poison) == (2, 1)
    assert (p.tile(14).wounds, p.tile(14).poison) == (1, 0)
    assert p.hp() == [20, 16] and p.poison_supply() == 0


def test_venom_comes_only_from_melee():
    # the Chaos at 10 gains Venom next to its Banner at 11; its shot (edge 2 at f=1 -> SW -> 14) wounds
    # the Golem (edge presented (3+3-1) mod 6 = 5, not armored) but leaves no marker; its melee edge 0
    # -> E -> 11 is its own Banner
    p = position("""
factions: lords_of_the_abyss, guardians_of_the_realm
11: la_banner
0: gr_banner
10: la_chaos f=1
14: gr_golem f=1
hand P0: la_battle
""")
    p.battle()
    assert (p.tile(14).wounds, p.tile(14).poison) == (1, 0)
    assert p.poison_supply() == 5


def test_banner_hp_is_floored_at_zero():
    # Herne (melee 2) against a Banner at 1 HP: the game ends and HP reads 0, not -1
    p = position(HF_LA + """
16: hf_banner
10: la_banner
9: hf_herne f=1
hp P1: 1
hand P0: hf_battle
""")
    p.battle()
    assert p.over() and p.returns() == [1.0, -1.0]
    seats = p.game.obs_spec.view(p.game.observe(p.s, 0), "seats")
    assert seats[1, 1] == 0.0
    assert "HP 0" in p.game.render_text(p.s)


# --------------------------------------------------------------------------------------------------
# triggers (§4.7 "Triggers")
# --------------------------------------------------------------------------------------------------


def test_a_full_board_without_a_placement_starts_no_battle():
    # 19 tiles, the two Banners adjacent (9, 10). Turning a Rune with a Move Order changes the board but
    # places nothing: no Battle (else the Banners would trade hits or a Regeneration Rune be consumed)
    de = ["de_rune_minor_acceleration"] * 2 + ["de_rune_regeneration"] * 3 + [
        "de_rune_agility", "de_rune_strength", "de_rune_strength", "de_rune_charge"]
    la = ["la_rune_minor_acceleration"] * 2 + ["la_rune_teleportation"] * 2 + ["la_rune_strength"] * 2 + [
        "la_rune_regeneration", "la_rune_double_attack"]
    lines = [f"{h}: {t}" for h, t in zip(range(9), de)] + [f"{h}: {t}" for h, t in zip(range(11, 19), la)]
    p = position(DE_LA + "9: de_banner\n10: la_banner\n" + "\n".join(lines) + "\nhand P0: de_move\n")
    assert len(p.occupied()) == 19
    p.act(p.order(0), p.hex(0), p.hex(0), p.rot(1))
    assert p.tile(0).facing == 1
    assert len(p.occupied()) == 19 and p.hp() == [20, 20] and p.turn() == (0, "MAIN")


# --------------------------------------------------------------------------------------------------
# Charge (§4.8)
# --------------------------------------------------------------------------------------------------

CHARGE = DE_LA + """
14: de_banner
17: de_knight f=0
8: la_banner p=2
2: la_spike f=0 net
{extra}
hand P0: de_battle_charge
"""


def test_charge_is_not_a_battle():
    # Knight 17 -> 13, facing 5 (edge 0 -> NW -> 8): 2 + 1 (next to its Banner at 14) = 3 on the P1
    # Banner: HP 17. No poison step (the Banner keeps 2 markers and loses no more), no hit from anything
    # else (the Banner at 8 does not answer), the Net-order marker stays on the Spike; the turn ends
    p = position(CHARGE.format(extra=""))
    p.act(p.order(0), p.mode(1), p.hex(17), p.hex(13), p.rot(5))
    assert p.hp() == [20, 17]
    assert p.tile(8).poison == 2 and p.poison_supply() == 3
    assert p.tile(13).wounds == 0
    assert p.tile(2).net_marker and p.netted(2)
    assert p.turn()[0] == 1


def test_a_charger_disarmed_at_its_new_hex_hits_nothing():
    # Rune of Disarmament (P1) at 12 f=1: edges 0, 1 -> E 13, SE 16. The Knight charges to 13 and is
    # disarmed there: no hit
    p = position(CHARGE.format(extra="12: la_rune_disarmament f=1"))
    p.act(p.order(0), p.mode(1), p.hex(17), p.hex(13))
    assert p.legal_rots() == {4, 5}  # edge 0 at the Rune (W) or at the Banner (NW)
    p.act(p.rot(5))
    assert p.hp() == [20, 20] and p.tile(12).wounds == 0
    assert p.turn()[0] == 1


# --------------------------------------------------------------------------------------------------
# §4.9 at a Banner check
# --------------------------------------------------------------------------------------------------


def test_both_team_pools_at_zero_in_one_check_is_a_draw():
    # pools 1 and 1; the P0 (team A) and P1 (team B) Banners are adjacent and trade 1 in phase 0
    p = position("""
factions: dragon_empire, lords_of_the_abyss, guardians_of_the_realm, harbingers_of_the_forest
config: num_players=4 mode=teams
9: de_banner
10: la_banner
0: gr_banner
18: hf_banner
pool A: 1
pool B: 1
hand P1: la_battle
turn: P1
""")
    p.battle()
    assert p.over() and p.returns() == [0.0, 0.0, 0.0, 0.0]
