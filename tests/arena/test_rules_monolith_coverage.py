"""Rule coverage of the Monolith module (docs/monolith_arena.md §4.10, with the parts of §4.5 and §4.9 it
changes): one test per rule sentence that the golden scenarios do not already pin down.

Positions are written in the text format (§12) and read back through it and the observation (§7.1).
Hex geometry: the neighbour table of §2.1.
"""

from __future__ import annotations

from tests.arena.coverage_support import Pos, position

DE_LA = "factions: dragon_empire, lords_of_the_abyss\nconfig: monolith_module=true\n"


def discard_once(p: Pos) -> None:
    """Make the turn seat's one discard of this turn: the forced one, or a voluntary one in ``MAIN``."""
    seat, _ = p.turn()
    slots = [k for k, t in enumerate(p.hand(seat)) if t != "-"]
    assert slots, "the hand is empty"
    p.act(p.discard(slots[-1]))


# --------------------------------------------------------------------------------------------------
# when unfolding is legal
# --------------------------------------------------------------------------------------------------


def test_unfold_needs_a_folded_monolith():
    folded = DE_LA + "9: de_banner\n0: la_banner\nmonolith P0: folded seg2=de_knight\nturn: P0 discarded=1\n"
    assert position(folded).is_legal(position(folded).unfold)
    unfolded = DE_LA + ("9: de_banner\n0: la_banner\nmonolith P0: unfolded seg2=de_knight hex2=10 hex3=14\n"
                        "turn: P0 discarded=1\n")
    p = position(unfolded)
    assert not p.is_legal(p.unfold)


def test_unfold_needs_a_discard_this_turn_and_a_voluntary_one_counts():
    p = position(DE_LA + "9: de_banner\n0: la_banner\nmonolith P0: folded seg2=de_knight\nhand P0: de_move\n")
    assert not p.is_legal(p.unfold)
    p.act(p.discard(0))  # a voluntary discard in MAIN
    assert p.turn() == (0, "MAIN") and p.is_legal(p.unfold)


def test_no_unfold_after_a_placement():
    p = position(DE_LA + "9: de_banner\n0: la_banner\nmonolith P0: folded seg2=de_knight\n"
                         "hand P0: de_pikeman, de_move\nturn: P0 discarded=1\n")
    assert p.is_legal(p.unfold)
    p.act(p.place(0, 18, 0))
    assert not p.is_legal(p.unfold)


def test_no_unfold_onto_another_players_empty_segment():
    # P1's Monolith is unfolded at 5 with empty segments at 1 and 4. They are empty hexes for placing,
    # but no segment may land on them. P0's Banner at 0 touches 1, 4, 3 only, so a valid pair must hold 3
    # and a second hex next to 0 or 3 that is neither a tile nor a segment: 7 or 8
    p = position(DE_LA + """
0: de_banner
5: la_banner
monolith P0: folded seg2=de_knight seg3=de_pikeman
monolith P1: unfolded hex2=1 hex3=4
hand P0: de_swordsman
turn: P0 discarded=1
""")
    assert p.is_legal(p.place(0, 1, 0)) and p.is_legal(p.place(0, 4, 0))
    p.act(p.unfold)
    assert p.turn() == (0, "UNFOLD_SEG2")
    assert p.legal_hexes() == {3, 7, 8}
    p.act(p.hex(3))
    assert p.legal_hexes() == {7, 8}


def test_unfolding_is_allowed_in_the_last_round():
    # P0 draws the last tile of its deck: the last round starts (the two tiles inside the Monolith are
    # not deck); unfolding stays legal after a discard
    p = position(DE_LA + "9: de_banner\n0: la_banner\nmonolith P0: folded seg2=de_knight seg3=de_pikeman\n"
                         "deck P0: de_move\nbegin: P0\n")
    assert p.last_round()
    discard_once(p)
    assert p.is_legal(p.unfold)


# --------------------------------------------------------------------------------------------------
# unfolding, the landing and what follows
# --------------------------------------------------------------------------------------------------


def test_netted_banner_still_unfolds_and_folds_and_orders_stay_allowed():
    # the Nightmare at 4 (f=2: net edge -> SE -> 9) nets the P0 Banner. The Monolith unfolds anyway (the
    # Banner does not move), an Order is still allowed after unfolding, and at the end of its Battle the
    # Monolith folds: its contents are not netted, and a netted Banner does not hold it open
    p = position(DE_LA + """
9: de_banner
0: la_banner
4: la_nightmare f=2
monolith P0: folded seg2=de_rune_agility seg3=de_rune_strength
hand P0: de_battle_charge
turn: P0 discarded=1
""")
    assert p.netted(9) and p.is_legal(p.unfold)
    p.act(p.unfold, p.hex(10))
    assert 11 in p.legal_hexes()
    p.act(p.hex(11), p.rot(0), p.rot(0))
    m = p.monoliths()[0]
    assert not m["folded"] and (m["hex2"], m["hex3"]) == (10, 11)
    assert p.tile(9).id == "de_banner" and p.netted(9)
    assert p.is_legal(p.order(0))
    p.act(p.order(0), p.mode(0))
    assert p.monoliths()[0]["folded"]
    assert p.tile(10) is None and p.tile(11) is None and p.tile(9).id == "de_banner"


def test_unfold_filling_the_board_starts_a_battle_and_allows_no_second_unfold():
    # 17 tiles on the board and the only free hexes 10, 11: the two contents landing there fill it, a
    # Battle starts at once; at its end the Monolith folds; the player stays in MAIN and may not unfold
    # a second time this turn
    de = ["de_rune_minor_acceleration"] * 2 + ["de_rune_regeneration"] * 3 + ["de_rune_strength"] * 2
    la = ["la_rune_minor_acceleration"] * 2 + ["la_rune_teleportation"] * 2 + ["la_rune_strength"] * 2 + [
        "la_rune_regeneration", "la_rune_double_attack"]
    hexes_de, hexes_la = [0, 1, 2, 3, 4, 5, 6], [7, 8, 12, 13, 14, 15, 16, 17]
    lines = [f"{h}: {t}" for h, t in zip(hexes_de, de)] + [f"{h}: {t}" for h, t in zip(hexes_la, la)]
    p = position(DE_LA + "9: de_banner\n18: la_banner\n" + "\n".join(lines) + """
monolith P0: folded seg2=de_rune_agility seg3=de_rune_charge
turn: P0 discarded=1
""")
    assert len(p.occupied()) == 17
    p.act(p.unfold)
    assert p.legal_hexes() == {10, 11}
    p.act(p.hex(10))
    assert p.legal_hexes() == {11}
    p.act(p.hex(11), p.rot(0), p.rot(0))
    assert p.monoliths()[0]["folded"]  # a Battle ran and ended
    assert p.tile(10) is None and p.tile(11) is None
    assert p.turn() == (0, "MAIN") and not p.is_legal(p.unfold)


def test_markers_are_kept_through_folding_and_nothing_folded_is_hit():
    # Guardians (P0): Monolith unfolded, Golem in segment 2 at 10 (toughness 2, +1 next to its Banner);
    # P0 entrenches it and ends the turn. Battle 1 (P1): Mygalomorph at 11 (f=4: edge 0 -> W -> 10) -> Golem w=1 and a Poison marker
    # (supply 4); poison step: w=2. The Monolith folds with the Golem: its wounds and marker stay (the
    # supply is still 4), and the content stays public. Battle 2 (P1, next round): the folded Golem is
    # neither hit nor poisoned. P0 unfolds again: the Golem comes back with w=2 and its marker
    p = position("""
factions: guardians_of_the_realm, lords_of_the_abyss
config: monolith_module=true
9: gr_banner
0: la_banner
11: la_mygalomorph f=4
monolith P0: unfolded seg2=gr_golem hex2=10 hex3=14
hand P0: gr_entrenchment
hand P1: la_battle, la_battle
""")
    p.act(p.order(0), p.hex(10), p.end)
    assert p.turn()[0] == 1
    if p.turn()[1] == "DISCARD":
        discard_once(p)
    assert p.hand(1)[0] == "la_battle"
    p.battle(0)
    assert p.monoliths()[0]["folded"] and p.tile(10) is None
    assert p.poison_supply() == 4
    spec = p.game.obs_spec
    mono = spec.view(p.game.observe(p.s, 1), "monolith")  # P1 sees P0 as relative seat 1
    (t0, t1), (hid, _) = spec["monolith"].field("type"), spec["monolith"].field("hidden")
    assert mono[1, 0, t0:t1].sum() == 1 and mono[1, 0, hid] == 0  # known type, not hidden
    assert p.turn()[0] == 0
    if p.turn()[1] == "DISCARD":
        discard_once(p)
    p.act(p.end)
    assert p.turn()[0] == 1
    if p.turn()[1] == "DISCARD":
        discard_once(p)
    assert p.hand(1)[0] == "la_battle"
    p.battle(0)
    assert p.poison_supply() == 4
    assert p.turn()[0] == 0
    discard_once(p)
    p.act(p.unfold, p.hex(10), p.hex(14), p.rot(0))
    assert p.tile(10).id == "gr_golem"
    assert p.wounds(10) == 2 and p.poison(10) == 1 and p.poison_supply() == 4
    assert p.entrenched(10) and not p.entrench_marker_free()


def test_tiles_from_a_monolith_are_state_checked_once_the_last_facing_is_set():
    # Guardians (P0): Axeman in segment 2 at 10 (toughness 0, +1 next to its Banner), Golem in segment 3
    # at 14. P1's Battle: the Spike at 11 (f=4 -> W -> 10) wounds the Axeman once (w=1 <= 1). The
    # Monolith folds. P0 unfolds with segment 2 at 12 (not next to the Banner) and segment 3 at 13: while
    # the Golem's facing is still to be chosen the Axeman stands on 12 with w=1; once it is set, the state
    # check removes the Axeman (toughness 0 there)
    p = position("""
factions: guardians_of_the_realm, lords_of_the_abyss
config: monolith_module=true
9: gr_banner
0: la_banner
11: la_spike f=4
monolith P0: unfolded seg2=gr_axeman seg3=gr_golem hex2=10 hex3=14 f2=3
hand P1: la_battle
turn: P1
""")
    assert p.toughness(10) == 1
    p.battle()
    assert p.monoliths()[0]["folded"]
    discard_once(p)
    p.act(p.unfold, p.hex(12), p.hex(13), p.rot(0))
    assert p.turn() == (0, "UNFOLD_FACING")
    assert p.tile(12).id == "gr_axeman" and p.wounds(12) == 1
    p.act(p.rot(0))
    assert p.turn() == (0, "MAIN")
    assert p.tile(12) is None and p.tile(13).id == "gr_golem"
    assert p.monoliths()[0]["seg2"] is None  # a destroyed content leaves an empty segment


# --------------------------------------------------------------------------------------------------
# contents, inseparability, folding
# --------------------------------------------------------------------------------------------------


def test_an_empty_segment_is_an_empty_hex_for_everyone_but_segments():
    # P0's Monolith is unfolded at 2 with empty segments at 6 and 1. P1's is unfolded at 9 with its Spike
    # in segment 2 at 10 and an empty segment 3 at 14. P1 may place into P0's empty segment 6. P1's Spike
    # carries its segment: of its neighbours, 6 and 14 are segments, 11 would leave segment 2 touching
    # neither 9 nor 14, so it may stay (turning) or go to 5 or 15. At the end of P1's Battle both
    # Monoliths fold with their contents, empty, own or enemy
    p = position(DE_LA + """
2: de_banner
9: la_banner
monolith P0: unfolded hex2=6 hex3=1
monolith P1: unfolded seg2=la_spike hex2=10 hex3=14
hand P1: la_move, la_rune_strength, la_battle
turn: P1
""")
    assert p.is_legal(p.place(1, 6, 0))
    p.act(p.order(0), p.hex(10))
    assert p.legal_hexes() == {5, 10, 15}
    p.act(p.hex(10), p.rot(1))
    # the Rune (toughness 1) into P0's segment 2: P0's Banner at 2 will hit it once in phase 0
    p.act(p.place(1, 6, 0))
    assert p.monoliths()[0]["seg2"] == (1, "la_rune_strength")
    p.battle(2)
    m0, m1 = p.monoliths()[0], p.monoliths()[1]
    assert m0["folded"] and m0["seg2"] == (1, "la_rune_strength") and m0["seg3"] is None
    assert m1["folded"] and m1["seg2"] == (1, "la_spike") and m1["seg3"] is None
    assert p.occupied() == {2, 9}


def test_a_tile_in_a_segment_cannot_swap():
    # Demon (Swap) at 5; the only other own Champion, the Wraith, is the content of segment 2 at 10:
    # no partner, so no Swap; a second Wraith outside any segment is a partner
    text = """
factions: lords_of_the_abyss, dragon_empire
config: monolith_module=true
9: la_banner
0: de_banner
5: la_demon f=0
monolith P0: unfolded seg2=la_wraith hex2=10 hex3=14
{extra}
"""
    p = position(text.format(extra=""))
    assert not p.is_legal(p.feature("swap", 5))
    q = position(text.format(extra="17: la_wraith f=0"))
    q.act(q.feature("swap", 5))
    assert q.legal_hexes() == {17}


def test_moving_a_folded_banner_moves_the_stack():
    p = position(DE_LA + "9: de_banner\n0: la_banner\nmonolith P0: folded seg2=de_knight\nhand P0: de_move\n")
    p.act(p.order(0), p.hex(9), p.hex(10))
    assert p.tile(10).id == "de_banner" and p.tile(9) is None
    assert "monolith folded at 10" in p.game.render_text(p.s)


def test_a_charge_does_not_fold():
    # P0's Monolith is unfolded at 14 (segment 2 at 15 with a Rune, segment 3 at 18 empty). The Knight
    # charges 17 -> 13 and hits the Banner at 8 (2 + 1 next to its own Banner = 3): no Battle, so no
    # folding; the turn ends with the Monolith still unfolded
    p = position(DE_LA + """
14: de_banner
8: la_banner
17: de_knight f=0
monolith P0: unfolded seg2=de_rune_agility hex2=15 hex3=18
hand P0: de_battle_charge
""")
    p.act(p.order(0), p.mode(1), p.hex(17), p.hex(13), p.rot(5))
    assert p.hp() == [20, 17]
    m = p.monoliths()[0]
    assert not m["folded"] and (m["hex2"], m["hex3"]) == (15, 18)
    assert p.turn()[0] == 1


def test_final_tie_break_is_counted_after_folding():
    # P0 draws its last tile: last round; P1 (empty deck) ends its turn: final Battle, in which nothing
    # reaches anything (HP 20 each). Before folding P0 has two Runes on the board (its Monolith's contents
    # at 10 and 14) and P1 one Spike; the end-of-Battle folding takes P0's Runes off: 0 against 1, P1 wins
    p = position(DE_LA + """
9: de_banner
0: la_banner
2: la_spike f=0
monolith P0: unfolded seg2=de_rune_agility seg3=de_rune_strength hex2=10 hex3=14
deck P0: de_move
deck P1:
begin: P0
""")
    assert p.last_round()
    p.act(p.end)
    assert p.turn()[0] == 1
    p.act(p.end)
    assert p.over()
    assert p.hp() == [20, 20] and p.monoliths()[0]["folded"]
    assert p.returns() == [-1.0, 1.0]
