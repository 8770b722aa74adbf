"""Audit of the Monolith Arena rules engine against its spec (``specs/monolith_arena.md``), continued: returns
(§8), visibility and the observation's normalisations (§7), and regressions of Battles and the Monolith found
later (the first part is test_audit.py).

Every test builds a position by hand and checks exact masks / outcomes derived from the spec text; the
derivation is written next to each assertion (unclipped §7 normalisations; the Monolith 'none' flag).
Action numbers and helpers: :mod:`tests.arena.scenario_support`.
"""

from __future__ import annotations

import pytest

from monolith_envs.arena.positions import effects, put_tile
from monolith_envs.arena.positions_text import parse_position
from monolith_envs.arena.state import Sub
from tests.arena.scenario_support import (
    HEX,
    MODE,
    ORDER,
    PLACE,
    ROT,
    UNFOLD,
    legal_hexes,
    legal_rots,
    tile_id,
)

# --------------------------------------------------------------------------------------------------
# §8 returns
# --------------------------------------------------------------------------------------------------

FFA3_TWO_ELIMINATIONS = """
factions: dragon_empire, lords_of_the_abyss, harbingers_of_the_forest
16: de_banner
9: de_swordsman f=0
10: la_banner
1: de_knight f=1
2: hf_banner
hp P1: 1
hp P2: 2
hand P0: de_battle_charge
"""


def test_rank_orders_eliminated_players_by_later_elimination():
    """§8 rank: phase 3 the Swordsman (9, edge 1 -> E 10) takes P1's last HP -> eliminated first; phase 1 the
    Knight (1, f=1: edge 0 -> E 2, strength 2) takes P2's 2 HP -> eliminated second; P0 is the only one left.
    Ranks: P0 1, P2 2 (later elimination), P1 3 -> 1 - 2(r-1)/2 = [1, -1, 0] - mean 0."""
    game, s = parse_position(FFA3_TWO_ELIMINATIONS, reward_mode="rank")
    game.apply(s, ORDER)
    game.apply(s, MODE + 0)
    assert s.terminal and s.winners == [0]
    assert game.returns(s).tolist() == pytest.approx([1.0, -1.0, 0.0])


def test_score_formula_ffa():
    """§8 score: per apply, (dHP_own - mean dHP_opponents) / banner_hp, plus win_loss at the end.  One apply
    (the Battle) gives d = [0, -1, -2]: P0 (0 + 1.5)/20 = 0.075, P1 (-1 + 1)/20 = 0, P2 (-2 + 0.5)/20 = -0.075;
    win_loss [1, -0.5, -0.5].  The ORDER apply (choice) changes nothing."""
    game, s = parse_position(FFA3_TWO_ELIMINATIONS, reward_mode="score")
    game.apply(s, ORDER)
    game.apply(s, MODE + 0)
    r = game.returns(s)
    assert r.tolist() == pytest.approx([1.075, -0.5, -0.575], abs=1e-6)
    assert abs(float(r.sum())) < 1e-6


# --------------------------------------------------------------------------------------------------
# §7 visibility
# --------------------------------------------------------------------------------------------------


def test_unseen_pool_loses_a_pick_once_it_is_revealed():
    """§7: others see deck ∪ unrevealed picks; a pick revealed by unfolding leaves that pool.  P0 (DE) hides
    a Knight (4 copies: 3 in the deck).  P1's view of P0's Knights: 4/4 before, 3/4 after the unfold; the
    type one-hot of P0's segment 2 is 0 before and 1 after in P1's view; P0's own pool is 3/4 throughout."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true
0: de_banner
18: la_banner
monolith P0: folded seg2=de_knight
turn: P0 discarded=1
""")
    spec = game.obs_spec
    T = game.tables.T
    knight = game.tables.gid_by_id["de_knight"]
    o1 = game.observe(s, 1)
    assert spec.view(o1, "unseen")[1, knight] == pytest.approx(1.0)
    assert spec.view(o1, "monolith")[1, 0, :T].sum() == 0 and spec.view(o1, "monolith")[1, 0, T + 1] == 1
    assert spec.view(game.observe(s, 0), "unseen")[0, knight] == pytest.approx(0.75)
    game.apply(s, UNFOLD)
    game.apply(s, HEX + 1)
    game.apply(s, HEX + 4)
    game.apply(s, ROT + 0)
    o1 = game.observe(s, 1)
    assert spec.view(o1, "unseen")[1, knight] == pytest.approx(0.75)
    assert spec.view(o1, "monolith")[1, 0, knight] == 1 and spec.view(o1, "monolith")[1, 0, T + 1] == 0


# §7 normalisations: the spec clips only the "wounds/3, effective toughness/3, poison/5" triple; the other
# pieces are plain ratios ("counts / 4", "strength /4", "uses/2").  The engine clips every value to 1.0.


def test_unseen_pool_is_counts_over_4_without_clipping():
    """§7 piece 3: "counts / 4: for me, my deck's multiset".  An untouched Dragon Empire deck holds all 7
    Battle/Charge Orders -> 7/4 = 1.75 (the spec clips only the wounds/toughness/poison triple)."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
16: de_banner
2: la_banner
""")
    bc = game.tables.gid_by_id["de_battle_charge"]
    assert sum(1 for i in s.deck[0] if s.itype[i] == bc) == 7
    unseen = game.obs_spec.view(game.observe(s, 0), "unseen")
    assert unseen[0, bc] == pytest.approx(7 / 4)


def test_direction_melee_strength_is_strength_over_4():
    """§7 hex block: "effective melee strength per board direction /4".  Dragon Rider (9, f=0): printed 3 on
    edge 0 -> NE; +1 from the adjacent Dragon Empire Banner (13); +1 from the Rune of Strength at 10 (f=4:
    edges 0,1,2 -> W 9, NW 5, NE 6) -> 5 -> 1.25 in direction 0."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
13: de_banner
9: de_dragon_rider f=0
10: de_rune_strength f=4
2: la_banner
""")
    assert effects(game, s)["melee"][9][0] == 5
    T = game.tables.T
    hexv = game.obs_spec.view(game.observe(s, 0), "hex")
    assert hexv[9, 32 + T + 0] == pytest.approx(5 / 4)


def test_uses_scalar_is_uses_over_2():
    """§7 global scalars: "uses/2".  Default mode has no cap (§4.2), so three placements give uses = 3 ->
    1.5."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
16: de_banner
2: la_banner
hand P0: de_pikeman, de_pikeman, de_pikeman
""")
    for slot, h in ((0, 5), (1, 6), (2, 7)):
        game.apply(s, PLACE + slot * 114 + h * 6)
    assert s.uses == 3
    scal = game.obs_spec.view(game.observe(s, 0), "scalars")
    assert scal[1] == pytest.approx(1.5)


def test_regeneration_cancels_equal_hits_by_lowest_source_hex():
    """§4.7 Regeneration: a target's hits are sorted by strength descending, then source hex ascending; the
    i-th rune cancels the i-th hit.  Golem (P1, 13) takes two 1-hits in phase 3: Wraith (8, f=2: edge 0 ->
    SE 13; initiative 2+1 from the Minor Acceleration Rune at 7, f=1: edge 0 -> E 8) without venom, and the
    Mygalomorph (12, f=1: edge 0 -> E 13) with venom.  The only rune (17, f=5: edge 0 -> NW 13) cancels the
    hit from hex 8, so the venomous hit stays: w=1 and one marker; poison step +1 -> w=2 (toughness 2)."""
    game, s = parse_position("""
factions: lords_of_the_abyss, guardians_of_the_realm
2: la_banner
8: la_wraith f=2
7: la_rune_minor_acceleration f=1
12: la_mygalomorph f=1
18: gr_banner
13: gr_golem f=0
17: gr_rune_regeneration f=5
hand P0: la_battle
""")
    fx = effects(game, s)
    assert fx["initiatives"][8] == (3,) and fx["regen"][13] == [17]
    game.apply(s, ORDER)
    golem = s.board[13]
    assert tile_id(game, s, 17) is None
    assert s.poison[golem] == 1 and s.wounds[golem] == 2 and s.poison_supply == 4


def test_double_attack_counts_once_per_source():
    """§4.6 step 5: extra_attack adds max(0, min(values) - 1) once per source.  Hunter [3, 0] with two Runes
    of Double Attack (a second instance made for the test) -> [3, 0, 0, 0]."""
    game, s = parse_position("""
factions: harbingers_of_the_forest, dragon_empire
0: hf_banner
9: hf_hunter f=0
4: hf_rune_double_attack
18: de_banner
""")
    da = game.tables.gid_by_id["hf_rune_double_attack"]
    spare = next(i for i in s.deck[0] if game.tables.id_of[s.itype[i]] == "hf_move")
    s.itype[spare] = da  # test-only second Double Attack instance
    put_tile(game, s, 0, da, 10)
    assert effects(game, s)["initiatives"][9] == (3, 0, 0, 0)


def test_net_chain_off_a_cycle_custom_content(tmp_path):
    """§4.6 step 1 (D12): tiles netted only by cycle members are free (a cycle member's nets are inactive).
    Needs a two-edge netter, so the Horror gets net edges [0, 3] in a copy of the reference files.
    9 (P0, f=1: E 10, W 8) <-> 10 (P1, f=4: W 9, E 11) is a 2-cycle; 8 (P1) and 11 (P0) are netted only by
    cycle members -> free."""
    import pathlib

    import monolith_envs.arena as arena_pkg
    from monolith_envs.arena.positions import new_position

    data = pathlib.Path(arena_pkg.__file__).parent / "data"
    files = []
    for name in ("dragon_empire", "lords_of_the_abyss", "guardians_of_the_realm", "harbingers_of_the_forest"):
        text = (data / f"{name}.toml").read_text()
        if name == "lords_of_the_abyss":
            i = text.index('id = "la_horror"')
            j = text.index("net = [0]", i)
            text = text[:j] + "net = [0, 3]" + text[j + len("net = [0]"):]
        p = tmp_path / f"{name}.toml"
        p.write_text(text)
        files.append(str(p))
    game, s = new_position(["lords_of_the_abyss", "dragon_empire"], faction_files=files)
    horror = game.tables.gid_by_id["la_horror"]
    s.itype[35 + 1] = horror
    put_tile(game, s, 0, "la_banner", 0)
    put_tile(game, s, 1, "de_banner", 18)
    put_tile(game, s, 0, "la_horror", 9, facing=1)
    put_tile(game, s, 1, horror, 10, facing=4)
    put_tile(game, s, 1, "de_swordsman", 8, facing=0)
    put_tile(game, s, 0, "la_spike", 11, facing=0)
    fx = effects(game, s)
    assert [fx["netted"][h] for h in (8, 9, 10, 11)] == [False, True, True, False]


def test_hex_monolith_one_hot_says_none_without_the_module():
    """§7 hex block: "Monolith [8] = segment owner one-hot [5] (none, me, +1, +2, +3) and segment number
    one-hot [3]".  Without the module no hex holds a segment, so the owner one-hot is "none" (index 0) on
    every hex, as it is with the module on for hexes without segments."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss
16: de_banner
2: la_banner
""")
    T = game.tables.T
    hexv = game.obs_spec.view(game.observe(s, 0), "hex")
    assert (hexv[:, 68 + T] == 1).all()


UNFOLDED_MOVE = """
factions: dragon_empire, lords_of_the_abyss
config: monolith_module=true
9: de_banner
monolith P0: unfolded seg2=de_knight hex2=10 f2=1 seg3=- hex3=14
0: la_banner
hand P0: de_move
"""


def test_move_of_unfolded_banner_and_content_keeps_inseparability():
    """§4.5 / §4.10 Inseparability, D24, D41.  Segments: Banner 9, Knight 10, empty segment 14.
    Banner: no own hex (Banner), neighbours 5, 13 keep it next to 10 or 14; 8 and 4 would separate it; 14
    holds a segment.  Knight: own hex 10, 5 (next to 9), 15 (next to 14); 6 and 11 would separate it."""
    game, s = parse_position(UNFOLDED_MOVE)
    game.apply(s, ORDER)
    assert legal_hexes(game, s) == {9, 10}
    game.apply(s, HEX + 9)
    assert legal_hexes(game, s) == {5, 13}
    game.apply(s, HEX + 13)
    assert s.sub_phase == Sub.MAIN and s.seg_hex[0] == [13, 10, 14]  # no MOVE_FACING step for a Banner
    game, s = parse_position(UNFOLDED_MOVE)
    game.apply(s, ORDER)
    game.apply(s, HEX + 10)
    assert legal_hexes(game, s) == {5, 10, 15}
    game.apply(s, HEX + 10)
    assert legal_rots(game, s) == {0, 2, 3, 4, 5}  # same hex: the current facing 1 would be a no-op


def test_ffa_simultaneous_last_eliminations_share_the_win():
    """§4.9 ffa / D22 and §8 win_loss.  Phase 3: the Swordsman (4, f=0: edges 1, 5 -> E 5, NW 0) takes P3's last
    HP -> P3 eliminated.  Phase 0: the mutually adjacent Banners 9, 10, 14 (HP 1 each) hit each other -> all
    three reach 0 at the same check -> they share the win: +1/3 each, the earlier-eliminated P3 gets -1."""
    game, s = parse_position("""
factions: dragon_empire, lords_of_the_abyss, guardians_of_the_realm, harbingers_of_the_forest
9: de_banner
10: la_banner
14: gr_banner
0: hf_banner
4: de_swordsman f=0
hp P0: 1
hp P1: 1
hp P2: 1
hp P3: 1
hand P0: de_battle_charge
""")
    game.apply(s, ORDER)
    game.apply(s, MODE + 0)
    assert s.terminal and s.winners == [0, 1, 2]
    assert s.elim_order[3] == 0
    assert game.returns(s).tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3, -1.0])
