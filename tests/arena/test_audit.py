"""Audit of the Monolith Arena rules engine against its spec (``specs/monolith_arena.md``): Battles (§4.6-§4.7),
teams (§4.9) and the Monolith (§4.10); returns, visibility and the observation's normalisations are in
test_audit_views.py.

Every test builds a position by hand and checks exact masks / outcomes derived from the spec text; the
derivation is written next to each assertion.  Several are regression tests of discrepancies found and
fixed (venom on consumed Regeneration runes).  Action numbers and helpers: :mod:`tests.arena.scenario_support`.
"""

from __future__ import annotations

import pytest

from monolith_envs.arena.positions import effects, put_tile
from monolith_envs.arena.positions_text import parse_position
from monolith_envs.arena.state import Sub
from monolith_envs.core.state import clear_transient as dirty
from tests.arena.scenario_support import (
    HEX,
    L_BOARD,
    L_MONO,
    L_OUT,
    MODE,
    ORDER,
    ROT,
    legal,
    legal_hexes,
    tile_id,
)

# --------------------------------------------------------------------------------------------------
# §4.7 Venom / Regeneration
# --------------------------------------------------------------------------------------------------

VENOM_RUNE = """
factions: lords_of_the_abyss, guardians_of_the_realm
11: la_banner
9: la_mygalomorph f=0
17: la_mygalomorph f=1
8: gr_rune_regeneration f=2
13: gr_golem f=0
14: gr_golem f=0
3: gr_banner p=4
hand P0: la_battle
"""


def test_venom_skips_a_consumed_regeneration_rune():
    """§4.7 Regeneration: a consumed rune is "removed at the end of the step, even if it survives";
    §4.7 Venom: a marker goes on a target only "if the target survives this step", in ascending
    (target hex, source hex) order "while the supply lasts".

    Board: the Guardians Banner at 3 carries 4 poison markers, so the supply holds 1.
    Rune of Regeneration (P1) at 8, f=2: connection edges 0,1 -> SE 13, SW 12; adjacent to the Guardians
    Banner (3 is a neighbour of 8), so its toughness is 0+1 = 1.
    Phase 3 (both Mygalomorphs, printed venom, initiative 3):
      * Mygalomorph 9 (f=0): edges 0,2,4 -> NE 5 (empty), SE 14 (Golem), W 8 (the rune): hits 14 (1) and 8 (1).
      * Mygalomorph 17 (f=1): edges -> E 18 (empty), SW off, NW 13 (Golem): hits 13 (1).
      Regeneration, targets in ascending hex order: 8 has no rune; 13 -> rune 8 cancels its hit (consumed);
      14 has no rune.  Wounds: rune 8 w=1 (<= 1, but consumed -> removed at the end of the step),
      Golem 14 w=1 (toughness 2, survives).
      Venom, ascending (target, source): (8, 9) -> the rune does not survive the step -> no marker;
      (14, 9) -> the Golem survives -> the single marker goes on it (supply 1 -> 0).
    Phases 2..0: the Banners at 11 and 3 have no enemy neighbour; nothing else acts.
    Poison step: Golem 14 takes 1 (w=2 <= 2, survives); the Guardians Banner loses 4 (HP 16).
    Expected: Golem 14 w=2 with 1 marker, supply 0.  The engine puts the marker on the doomed rune
    (it returns to the supply when the rune is removed), so Golem 14 ends with w=1, no marker, supply 1.
    """
    game, s = parse_position(VENOM_RUNE)
    assert s.poison_supply == 1
    fx = effects(game, s)
    assert fx["regen"][13] == [8] and fx["toughness"][8] == 1
    game.apply(s, ORDER)
    g14 = s.board[14]
    assert tile_id(game, s, 8) is None  # consumed rune removed
    assert s.hp == [20, 16]
    assert s.poison[g14] == 1
    assert s.wounds[g14] == 2
    assert s.poison_supply == 0


REGEN_SHARED = """
factions: dragon_empire, guardians_of_the_realm
16: de_banner
6: de_knight f=4
11: de_knight f=4
18: gr_banner
9: gr_rune_regeneration f=0
5: gr_crossbowman f=0
10: gr_crossbowman f=2
hand P0: de_battle_charge
"""


def test_regeneration_shared_rune_serves_the_lowest_target_hex_first():
    """§4.7 Regeneration: targets are processed in ascending hex order; a rune connected to two targets is
    consumed by the first.  Rune (P1) at 9, f=0: edges 0,1 -> NE 5, E 10.  Phase 1: Knight 6 (f=4, edge 0 ->
    W 5) hits 5 for 2; Knight 11 (f=4 -> W 10) hits 10 for 2; the Crossbowmen (f=0 NE from 5 -> 2, off;
    f=2 SE from 10 -> 15, off) find nothing.  Target 5 first: the rune cancels its hit; target 10: no rune
    left -> w=2 > 1 -> removed; the consumed rune is removed too."""
    game, s = parse_position(REGEN_SHARED)
    game.apply(s, ORDER)
    game.apply(s, MODE + 0)  # Battle
    assert tile_id(game, s, 5) == "gr_crossbowman" and s.wounds[s.board[5]] == 0
    assert tile_id(game, s, 10) is None and tile_id(game, s, 9) is None
    assert s.hp == [20, 20]


# --------------------------------------------------------------------------------------------------
# §4.6 Nets
# --------------------------------------------------------------------------------------------------


def test_net_chain_of_three_and_the_net_order_marker():
    """§4.6 step 1 (D12): in topological order a tile is netted iff it carries the marker or some tile netting
    it is not netted.  Chain 9 (P0) -> 10 (P1) -> 11 (P0): 9 free, 10 netted, 11 free (its only netter is
    netted).  With the Net-order marker on 9: 9 netted, 10 free, 11 netted."""
    game, s = parse_position("""
factions: lords_of_the_abyss, dragon_empire
0: la_banner
18: de_banner
""")
    horror = game.tables.gid_by_id["la_horror"]
    s.itype[35 + 1] = horror  # test-only: give seat 1 a Horror instance (as tests/arena/test_rules_turns.py does)
    a = put_tile(game, s, 0, "la_horror", 9, facing=1)   # net edge 0 -> E -> 10
    put_tile(game, s, 1, horror, 10, facing=1)           # -> E -> 11
    put_tile(game, s, 0, "la_horror", 11, facing=2)      # -> SE -> off board
    fx = effects(game, s)
    assert [fx["netted"][h] for h in (9, 10, 11)] == [False, True, False]
    s.net_marker_on = a
    dirty(s)
    fx = effects(game, s)
    assert [fx["netted"][h] for h in (9, 10, 11)] == [True, False, True]


def test_net_three_cycle_in_ffa():
    """§4.6 step 1 (D12): every tile on a directed cycle is netted; 9 (P0) -> 10 (P1) -> 14 (P2) -> 9."""
    game, s = parse_position("""
factions: lords_of_the_abyss, dragon_empire, guardians_of_the_realm
0: la_banner
18: de_banner
16: gr_banner
""")
    horror = game.tables.gid_by_id["la_horror"]
    s.itype[35 + 1] = horror
    s.itype[70 + 1] = horror
    put_tile(game, s, 0, "la_horror", 9, facing=1)   # E -> 10
    put_tile(game, s, 1, horror, 10, facing=3)       # SW -> 14
    put_tile(game, s, 2, horror, 14, facing=5)       # NW -> 9
    fx = effects(game, s)
    assert fx["netted"][9] and fx["netted"][10] and fx["netted"][14]


def test_disarmed_horror_still_nets():
    """§5.3 disarm: recipients make no attacks, "nets and other effects stay".  Rune of Disarmament (P0) at 14,
    f=0: edges 0,1 -> NE 10, E 15.  Horror (P1) at 10, f=4: net and melee 2 on edge 0 -> W 9.  The Horror is
    disarmed but still nets the Wraith at 9 (f=1: edges 0, 5 -> E 10, NE 5); in a Battle nobody attacks
    (Wraith netted, Horror disarmed), so nothing changes."""
    game, s = parse_position("""
factions: lords_of_the_abyss, dragon_empire
0: la_banner
16: de_banner
9: la_wraith f=1
14: la_rune_disarmament f=0
hand P0: la_battle
""")
    s.itype[35 + 1] = game.tables.gid_by_id["la_horror"]  # test-only: a Horror instance for seat 1
    put_tile(game, s, 1, "la_horror", 10, facing=4)
    fx = effects(game, s)
    assert fx["disarmed"][10] and fx["netted"][9] and not fx["netted"][10]
    game.apply(s, ORDER)
    assert tile_id(game, s, 9) == "la_wraith" and s.wounds[s.board[9]] == 0
    assert tile_id(game, s, 10) == "la_horror" and s.wounds[s.board[10]] == 0
    assert tile_id(game, s, 14) == "la_rune_disarmament"


# --------------------------------------------------------------------------------------------------
# §4.7 step 3.2 (D66) activations with extra_attack
# --------------------------------------------------------------------------------------------------


def test_d66_lost_acceleration_with_double_attack():
    """Wyrm (P0) at 9: printed [2, 1]; Rune of Minor Acceleration at 14 (+1) and Rune of Double Attack at 4
    (both connect all 6) -> [3, 2] then extra max(0, 2-1) = 1 -> [3, 2, 1].
    Phase 3: the Wyrm hits the Dragon Empire Banner at 10 (HP 19); the Swordsman at 15 (f=3: edge 1 -> W 14,
    +1 from its adjacent Banner) kills the Acceleration Rune.  Now the list is [2, 1, 0].
    Phase 2: a = 1, b = max(0, #(v >= 2) - acts) = 1 - 1 = 0 -> no activation (D66).
    Phase 1: a = 1, b = 2 - 1 = 1 -> hit (HP 18).  Phase 0: a = 1, b = 3 - 2 = 1 -> hit (HP 17); the DE
    Banner hits the Wyrm (w=1 > 0, removed).  Expected P1 HP 17."""
    game, s = parse_position("""
factions: harbingers_of_the_forest, dragon_empire
17: hf_banner
9: hf_wyrm f=0
14: hf_rune_minor_acceleration f=0
4: hf_rune_double_attack f=0
10: de_banner
15: de_swordsman f=3
hand P0: hf_battle
""")
    assert effects(game, s)["initiatives"][9] == (3, 2, 1)
    game.apply(s, ORDER)
    assert s.hp == [20, 17]
    assert tile_id(game, s, 9) is None and tile_id(game, s, 14) is None


# --------------------------------------------------------------------------------------------------
# §4.7 ranged: Armor on the presented edge, entrenchment, pierce
# --------------------------------------------------------------------------------------------------


def test_entrenched_banner_stops_a_shot_and_pierce_continues():
    """Crossbowman (P0) at 7, f=1: ranged 1 on edge 0 -> E along 8, 9, 10, 11; Rune of Penetration at 12 (f=5:
    edge 0 -> NW 7) gives pierce.  Hex 9: Harbingers Banner, entrenched -> 1 - 1 = 0: no hit (§4.7), the shot
    continues (pierce) to the Spark at 10 -> 1 > 0 -> removed.  The Spark (f=3: edges 0,1 -> SW 14, W 9 own
    Banner skipped, 8, 7) hits the Crossbowman for 1 in phase 2 (toughness 1, survives)."""
    game, s = parse_position("""
factions: guardians_of_the_realm, harbingers_of_the_forest
7: gr_crossbowman f=1
12: gr_rune_penetration f=5
16: gr_banner
9: hf_banner entrench
10: hf_spark f=3
hand P0: gr_battle
""")
    game.apply(s, ORDER)
    assert s.hp == [20, 20]
    assert tile_id(game, s, 10) is None
    assert s.wounds[s.board[7]] == 1


@pytest.mark.parametrize("facing, survives", [(0, False), (3, True)])
def test_armor_on_the_presented_edge(facing, survives):
    """Sorcerer (P0) at 7, f=1: ranged 2 -> E -> 8 empty -> Knight at 9.  The shot travels E (d=1) and meets
    printed edge (d + 3 - f) mod 6: f=0 -> edge 4 (not armored: 2 wounds > 1, removed); f=3 -> edge 1
    (armored: 2 - 1 = 1, survives with w=1)."""
    game, s = parse_position(f"""
factions: harbingers_of_the_forest, dragon_empire
7: hf_sorcerer f=1
9: de_knight f={facing}
0: hf_banner
18: de_banner
hand P0: hf_battle
""")
    game.apply(s, ORDER)
    if survives:
        assert tile_id(game, s, 9) == "de_knight" and s.wounds[s.board[9]] == 1
    else:
        assert tile_id(game, s, 9) is None


# --------------------------------------------------------------------------------------------------
# §4.9 / D21 teams: allies never targeted
# --------------------------------------------------------------------------------------------------


def test_teams_allies_are_not_targets_of_orders():
    """Teams: P0 Guardians and P2 Lords are allies.  P0's only own tile is its Banner at 0; the Lords tiles at
    1, 3, 4 are allied.  Rotation (who=any: own or enemy) has no target -> illegal; Push Back needs an enemy
    next to an own tile -> illegal; Entrenchment (own Banner) is legal.  The Guardians Banner aura does not
    reach the allied Spike at 4 (toughness 0), the Lords Horror at 1 (f=1, net E -> 2) nets the enemy DE
    Banner at 2."""
    game, s = parse_position("""
factions: guardians_of_the_realm, dragon_empire, lords_of_the_abyss, harbingers_of_the_forest
config: mode=teams
0: gr_banner
4: la_spike f=0
1: la_horror f=1
3: la_rune_strength f=1
2: de_banner
16: la_banner
18: hf_banner
hand P0: gr_rotation, gr_push_back, gr_entrenchment
""")
    fx = effects(game, s)
    assert fx["toughness"][4] == 0
    assert fx["netted"][2]
    assert legal(game, s, ORDER, ORDER + 3) == {ORDER + 2}


# --------------------------------------------------------------------------------------------------
# §4.10 Monolith
# --------------------------------------------------------------------------------------------------


def test_exception_placement_once_counts_as_use_reinforcement():
    """Reinforcement (H=6, cap 2).  P0's folded Monolith at 0 holds nothing; P0 has discarded.  After
    unfolding to (1, 4) both segments are empty; PLACE is legal only for fresh Board tiles onto 1 or 4.
    The exception placement is a use (uses 1) and happens once; then an Order is still allowed (uses 2 = cap)
    and afterwards nothing else can be used."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true reinforcement_variant=true
0: de_banner
18: la_banner
monolith P0: folded
hand P0: de_pikeman*, de_swordsman, de_move*, de_move*
turn: P0 discarded=1
""")
    o = game.off
    assert o.UNFOLD in legal(game, s)
    game.apply(s, o.UNFOLD)
    game.apply(s, o.HEX + 1)
    game.apply(s, o.HEX + 4)
    assert s.sub_phase == Sub.MAIN and not s.mono_folded[0] and s.seg_hex[0] == [0, 1, 4]
    places = legal(game, s, o.PLACE, o.ORDER)
    expect = {o.PLACE + 0 * 114 + h * 6 + r for h in (1, 4) for r in range(6)}
    assert places == expect  # slot 1 (Swordsman, not fresh) is excluded
    game.apply(s, o.PLACE + 0 * 114 + 4 * 6 + 2)
    assert s.uses == 1 and s.exception_used and s.seg_content[0][1] == s.board[4]
    assert legal(game, s, o.PLACE, o.ORDER) == set()
    assert o.ORDER + 2 in legal(game, s)
    game.apply(s, o.ORDER + 2)  # Move
    assert s.sub_phase == Sub.MOVE_TILE
    game.apply(s, o.HEX + 4)
    game.apply(s, o.HEX + 4)
    game.apply(s, o.ROT + 0)
    assert s.uses == 2
    assert legal(game, s, o.PLACE, o.ORDER + 6) == set()


def test_net_order_marker_on_content_does_not_block_folding():
    """§4.10 Folding / D27: nets are checked after the Net-order marker is taken off, so content that was netted
    only by the marker folds."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true
9: de_banner
monolith P0: unfolded seg2=de_knight hex2=10 f2=1 seg3=- hex3=14
0: la_banner
hand P1: la_battle
turn: P1
""")
    knight = s.board[10]
    s.net_marker_on = knight
    dirty(s)
    assert effects(game, s)["netted"][10]
    game.apply(s, ORDER)
    assert s.mono_folded[0] and s.seg_hex[0] == [9, 9, 9]
    assert s.loc[knight] == L_MONO and s.net_marker_on == -1


def test_enemy_tile_moved_into_an_empty_segment_becomes_content():
    """§4.10 Contents / D42: an empty segment is an empty hex; a tile that enters it becomes its content.
    P1 moves its Spike (13) into P0's empty segment 3 at 14: MOVE_DEST offers the own hex and the empty
    neighbours 8, 12, 14, 16, 17 (9 holds the Banner)."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true
9: de_banner
monolith P0: unfolded seg2=de_knight hex2=10 f2=1 seg3=- hex3=14
13: la_spike f=0
0: la_banner
hand P1: la_move
turn: P1
""")
    game.apply(s, ORDER)
    assert legal_hexes(game, s) == {0, 13}
    game.apply(s, HEX + 13)
    assert legal_hexes(game, s) == {8, 12, 13, 14, 16, 17}
    game.apply(s, HEX + 14)
    game.apply(s, ROT + 3)
    spike = s.board[14]
    assert s.seg_content[0][1] == spike and s.seg_revealed[0][1]


def test_ffa_elimination_clears_monolith_contents():
    """§4.9 ffa: P1 (HP 1) is eliminated by the Swordsman (8, f=0: edges 1, 5 -> E 9 = P1 Banner, NW 3) in
    phase 3.  P1's Spike inside P0's folded Monolith leaves the game and that segment becomes empty; P1's
    Wraith in its own unfolded segment leaves; P2's Spark standing on P1's segment stays as an ordinary tile."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss, harbingers_of_the_forest
config: monolith_module=true
0: de_banner
9: la_banner
13: hf_banner
monolith P0: folded seg2=P1:la_spike seg3=de_knight revealed2
monolith P1: unfolded seg2=P2:hf_spark seg3=la_wraith hex2=10 hex3=5 f2=0 f3=0
hp P1: 1
8: de_swordsman f=0
hand P0: de_battle_charge
""")
    spike = s.seg_content[0][0]
    knight = s.seg_content[0][1]
    spark = s.board[10]
    game.apply(s, ORDER)
    game.apply(s, MODE + 0)
    assert s.alive == [True, False, True] and s.elim_order[1] == 0
    assert s.loc[spike] == L_OUT and s.seg_content[0] == [-1, knight]
    assert s.board[10] == spark and s.loc[spark] == L_BOARD
    assert tile_id(game, s, 5) is None and tile_id(game, s, 9) is None
    assert all(s.loc[i] not in (L_BOARD, L_MONO) for i in range(35, 70))
