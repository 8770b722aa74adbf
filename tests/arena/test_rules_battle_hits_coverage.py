"""Rule coverage of the Battle (docs/monolith_arena.md §4.7), continued: hits, Regeneration, wounds and venom,
the triggers, the Charge (§4.8) and the end of game at a Banner check (§4.9); the kill step and phases are in
test_rules_battle_coverage.py. One test per rule sentence that the golden scenarios do not already pin down.

Every position is written in the text format (§12) and read back through it and the observation (§7.1);
the expected values are derived from the rules in the comments (hex geometry: the neighbour table of §2.1;
a tile at facing f attacks from printed edge e in board direction (e + f) mod 6).
"""

from __future__ import annotations

import pytest

from tests.arena.coverage_support import DE_LA, HF_LA, position

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


def test_venom_uses_the_supply_of_step_4_before_the_removed_tiles_markers_return():
    # supply 0 (3 markers on the P1 Banner, 2 on the Axeman at 5). Phase 3: the Mygalomorph kills the
    # Axeman (toughness 0) and wounds the Golem at 14. Venom is step 4, the removal step 5 (§4.7): the
    # supply is still empty when the Golem's marker would go on, so it gets none; then the Axeman's 2
    # markers return. Poison step: the Banner loses 3 (HP 17), the Golem takes nothing more (w=1)
    p = position(VENOM.format(banner="p=3", targets="5: gr_axeman f=3 p=2\n14: gr_golem f=0"))
    assert p.poison_supply() == 0
    p.battle()
    assert p.tile(5) is None
    assert (p.tile(14).wounds, p.tile(14).poison) == (1, 0)
    assert p.hp() == [20, 17] and p.poison_supply() == 2


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
