"""Rule coverage of the Battle (docs/monolith_arena.md §4.7): the kill step, the phases, the poison step and
the end of a Battle, one test per rule sentence that the golden scenarios do not already pin down. Hits,
Regeneration, venom, the triggers, the Charge (§4.8) and the end of game at a Banner check (§4.9) are in
test_rules_battle_hits_coverage.py.

Every position is written in the text format (§12) and read back through it and the observation (§7.1);
the expected values are derived from the rules in the comments (hex geometry: the neighbour table of §2.1;
a tile at facing f attacks from printed edge e in board direction (e + f) mod 6).
"""

from __future__ import annotations

from tests.arena.coverage_support import DE_LA, HF_LA, position

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
