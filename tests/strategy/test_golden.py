"""The golden scenarios G1-G14 of docs/monolith_strategy.md §13, stated in the text position format with
forced dice."""

from monolith_envs.strategy.state import Kind

from .helpers import (
    BONUS,
    CAST,
    DECLINE,
    DISCARD,
    END_TURN,
    OPP,
    PAY_CARD,
    PAY_GEMS,
    REVEAL,
    SET_ASIDE,
    SIDE,
    ScriptedRng,
    act,
    legal,
    place,
    position,
)

ADV = [3, 4]  # the Advancement roll for the next Round card (position 7), then SIDE is open


def kind(s):
    return Kind(s.pending["k"]) if s.pending else Kind.NONE


G1 = """
players 3
vp 8 0 0
gems {g} 0 0
die 24 P0 4
die 25 P0 2
decision resolve 7
"""


def test_g1_gain_stops_at_unaffordable_toll():
    g, s, rng = position(G1.format(g=1), ADV)
    assert s.vp[0] == 9 and s.gems[0] == 1
    assert kind(s) == Kind.SIDE  # no PAY_OFFER was asked
    assert s.pool[0][3] == 1 and s.pool[0][1] == 1  # the dice went back


def test_g1_variant_pay_or_stop():
    g, s, _ = position(G1.format(g=3))
    assert kind(s) == Kind.PAY_OFFER and s.pending["seat"] == 0
    assert legal(g, s) == {DECLINE, PAY_GEMS}
    src = s.source_gems
    pay = g.clone(s)
    act(g, pay, PAY_GEMS, ADV)
    assert (pay.vp[0], pay.gems[0], pay.source_gems) == (11, 1, src + 2)
    act(g, s, DECLINE, ADV)
    assert (s.vp[0], s.gems[0]) == (9, 3)


G2A = """
players 2
round 2
primus P1
vp 11 0
gems 2 0
die 20 P0 5
die 21 P0 6
pool P1 3
hand P1 sabotage
decision turn P1
"""


def test_g2_falling_below_a_stone_means_paying_again():
    g, s, _ = position(G2A)
    assert CAST + 7 in legal(g, s)
    act(g, s, CAST + 7)
    assert kind(s) == Kind.OPPONENT and legal(g, s) == {OPP}
    act(g, s, OPP)
    assert s.vp[0] == 9
    rng = act(g, s, place(3, 32))  # P1's 3 on Rune of Lore; the turn then ends, the round resolves
    assert kind(s) == Kind.PAY_OFFER and s.pending["seat"] == 0 and s.pending["purpose"] == "toll"
    assert s.vp[0] == 9
    act(g, s, PAY_GEMS, ADV)
    assert s.vp[0] == 12 and s.gems[0] == 0
    assert not rng.remaining


G2B = """
players 2
round 3
primus P1
vp 12 0
gems 0 2
die 0 P0 6
pool P1 3
hand P1 sabotage
decision turn P1
"""


def test_g2_landing_on_a_paid_stone_needs_no_payment():
    g, s, _ = position(G2B)
    act(g, s, CAST + 7)
    act(g, s, OPP)
    assert s.vp[0] == 10  # standing on TS2
    act(g, s, place(3, 32), ADV)
    assert s.vp[0] == 11 and s.gems[0] == 0
    assert s.primus == 0  # SR1: P0 was alone, highest_unique
    assert kind(s) == Kind.SIDE


G3 = """
players 3
primus P0
gems 5 0 0
die 0 P1 6
die 1 P2 6
die 24 P0 5
die 25 P1 5
decision resolve 1
"""


def test_g3_ties_for_highest_and_no_primus_on_a_tie():
    g, s, _ = position(G3, ADV)
    assert s.source_gems == 10
    assert s.vp == [3, 4, 1]
    assert s.primus == 0


G4 = """
players 3
primus P0
gems 14 0 0
source 1
die 0 P2 6
die 1 P1 4
die 4 P1 1
die 5 P2 2
decision resolve 1
"""


def test_g4_primus_transfer_reorders_later_lines():
    g, s, _ = position(G4, ADV)
    assert s.primus == 2
    assert s.gems == [14, 0, 1] and s.source_gems == 0
    assert s.vp == [0, 1, 1]


def test_g4_without_transfer_p1_would_take_the_gem():
    text = G4.replace("die 0 P2 6", "die 0 P2 3").replace("die 1 P1 4", "die 1 P0 4")
    g, s, _ = position(text, ADV)
    assert s.primus == 0
    assert s.gems[1] == 1 and s.gems[2] == 0


G5 = """
players 2
board 8 R16
pool P0 1 5 6
pool P1 2 3
decision turn P0
"""


def test_g5_immediate_extra_placement():
    g, s, _ = position(G5)
    act(g, s, place(1, 28))
    assert s.turn["left"] == 1 and s.turn["player"] == 0
    m = legal(g, s)
    assert not any(CAST <= a < CAST + 29 for a in m)
    assert END_TURN in m and place(5, 24) in m and place(6, 21) in m
    assert not any(a < 360 and a // 60 not in (4, 5) for a in m)
    act(g, s, place(6, 21))  # left is 0: end_turn is applied by itself and P1's turn starts
    assert s.pending["seat"] == 1 and kind(s) == Kind.TURN and s.turn["player"] == 1
    assert sum(s.pool[0]) == 1


def test_g5_no_second_effect_at_resolution():
    g, s, _ = position("players 2\nboard 8 R16\ndie 28 P0 1\ndecision resolve 8\n", ADV)
    assert s.vp == [0, 0] and s.gems == [0, 0]
    assert s.pool[0][0] == 1 and s.sock_seat[28] == -1


def _g6_text(g, extra=""):
    """P1 pool {2,2}, two dice on Hunt; every empty socket that a 2 could use is blocked."""
    from monolith_envs.strategy import parse_position

    base = "players 2\nround 2\npool P1 2 2\ndie 24 P1 5\ndie 25 P1 5\nsrc P1 1\n" + extra
    _, s0 = parse_position(base + "decision turn P1\n", game=g)
    blocked = [str(sid) for sid in g.rules.available(s0, 1, 2)]
    return base + "blocked " + " ".join(blocked) + "\ndecision turn P1\n"


def test_g6_set_aside_when_nothing_fits():
    from monolith_envs.strategy import StrategyGame

    g = StrategyGame({"num_players": 2})
    g, s, _ = position(_g6_text(g))
    assert legal(g, s) == {SET_ASIDE + 1}
    act(g, s, SET_ASIDE + 1)
    assert s.aside[1] == 1 and s.pending["seat"] == 1 and legal(g, s) == {SET_ASIDE + 1}
    act(g, s, SET_ASIDE + 1, ADV)  # Action Phase over: Hunt +3 for P1, then Advancement to SIDE
    assert s.vp[1] == 3
    assert sum(s.pool[1]) == 4 and s.aside[1] == 0 and s.src_dice[1] == 1
    act(g, s, SIDE, [1] * 6)  # side, then step 4 and the round-3 Chance roll (P0 1 die, P1 5 dice)
    assert sum(s.pool[1]) == 5 and s.src_dice[1] == 0


def test_g6_variant_casting_after_a_set_aside():
    from monolith_envs.strategy import StrategyGame

    g = StrategyGame({"num_players": 2})
    g, s, _ = position(_g6_text(g, "hand P1 tribute\n"))
    assert legal(g, s) == {SET_ASIDE + 1, CAST + 10}
    act(g, s, SET_ASIDE + 1)
    assert legal(g, s) == {END_TURN, CAST + 10}
    act(g, s, END_TURN)
    assert s.pending["seat"] == 1 and legal(g, s) == {SET_ASIDE + 1, CAST + 10}
    act(g, s, SET_ASIDE + 1)
    assert sum(s.pool[1]) == 0
    assert legal(g, s) == {END_TURN, CAST + 10}  # D16: casting is still allowed after a set-aside
    act(g, s, CAST + 10, ADV)
    assert s.cast[1][10] == 1
    assert s.vp[1] == 1 + 3  # Tribute, then Hunt at resolution
    assert kind(s) == Kind.SIDE


G7 = """
players 3
round 2
primus P0
vp 6 4 2
board 9 R12
board 12 R13
die 33 P2 6
pool P0 4
pool P1 3
hand P0 guard
hand P1 sabotage
decision turn P0
"""


def test_g7_guard_absorbs_the_first_attack_only():
    g, s, _ = position(G7)
    act(g, s, CAST + 2)
    assert s.guard[0] == 1
    act(g, s, place(4, 7))
    assert s.pending["seat"] == 1
    act(g, s, CAST + 7)
    assert legal(g, s) == {OPP, OPP + 1}
    act(g, s, OPP + 1)  # seat 0
    assert s.guard[0] == 0 and s.vp[0] == 6
    act(g, s, place(3, 6), ADV)
    assert s.vp == [5, 3, 3]


G8 = """
players 2
hand P0 augment augment tribute nudge
cast P0 augment
skill_deck reroll shift
die 12 P0 3
die 13 P0 2
decision resolve 4
"""


def test_g8_hand_limit_discards_the_cast_copy_first():
    g, s, _ = position(G8)
    assert kind(s) == Kind.DISCARD
    assert legal(g, s) == {DISCARD + 0, DISCARD + 3, DISCARD + 4, DISCARD + 10}
    act(g, s, DISCARD + 0)
    assert s.cast[0][0] == 0 and s.hand[0][0] == 2
    assert kind(s) == Kind.DISCARD
    act(g, s, DISCARD + 0, ADV)
    assert s.hand[0][0] == 1 and s.hand[0][10] == 1 and s.hand[0][4] == 1 and s.hand[0][3] == 1
    assert s.hand[0][12] == 1 and sum(s.hand[0]) == 5 and sum(s.cast[0]) == 0
    assert s.skill_discard[0] == 2


G9 = """
players 2
vp 2 0
gems 1 0
hand P0 wealth
board 10 R30
die 36 P0 3
decision resolve 10
"""


def test_g9_cost_paid_with_a_gem_card_then_toll_with_gems():
    g, s, _ = position(G9)
    src = s.source_gems
    assert kind(s) == Kind.PAY_OFFER and s.pending["purpose"] == "cost"
    assert legal(g, s) == {DECLINE, PAY_GEMS, PAY_CARD + 16}
    act(g, s, PAY_CARD + 16)
    assert s.power_discard[16] == 1 and s.hand[0][16] == 0
    assert kind(s) == Kind.PAY_OFFER and s.pending["purpose"] == "toll" and s.vp[0] == 4
    assert legal(g, s) == {DECLINE, PAY_GEMS}
    act(g, s, PAY_GEMS, ADV)
    assert s.vp[0] == 6 and s.gems[0] == 0 and sum(s.hand[0]) == 0 and s.source_gems == src + 1


G10 = """
players 2
round 5
primus P1
vp 13 10
gems 5 0
hand P0 augment
decision final
"""


def test_g10_final_reveal_with_toll_from_unearmarked_gems():
    g, s, _ = position(G10)
    assert s.pending["seat"] == 0 and kind(s) == Kind.REVEAL_COUNT  # P1's count was automatic (k = 0)
    assert legal(g, s) == set(range(REVEAL, REVEAL + 7))
    act(g, s, REVEAL + 2)
    assert kind(s) == Kind.REVEAL_SRC and legal(g, s) == {PAY_GEMS, PAY_CARD + 0}
    src = s.source_gems
    act(g, s, PAY_GEMS)
    assert s.vp[0] == 14 and s.source_gems == src + 1
    assert kind(s) == Kind.PAY_OFFER and legal(g, s) == {DECLINE, PAY_GEMS, PAY_CARD + 0}
    act(g, s, PAY_GEMS)
    assert s.terminal
    assert s.vp[0] == 15 and s.gems[0] == 0 and s.hand[0][0] == 1
    assert g.returns(s).tolist() == [1.0, -1.0]


G11 = """
players 3
round 5
config reward_mode={mode}
vp 12 12 9
gems 2 4 0
hand P0 wealth
hand P1 mastery foresight
decision final
"""


def test_g11_tie_break_on_gem_value_then_power_count():
    for mode, want in (("win_loss", [-0.5, 1.0, -0.5]), ("rank", [0.0, 1.0, -1.0])):
        g, s, _ = position(G11.format(mode=mode))
        act(g, s, REVEAL)  # P0 shows nothing
        act(g, s, REVEAL)  # P1 shows nothing; P2 has no gem value
        assert s.terminal and s.winner == 1
        assert g.returns(s).tolist() == want


G11B = """
players 3
config reward_mode=rank
round 2
vp 24 7 7
gems 0 1 1
pool P0 3
hand P0 tribute
cast P1 {p1_card}
decision turn P0
"""


def test_g11b_victory_mid_round_ranks_by_uncast_cards_only():
    """docs §2.3 / §8: after a VICTORY in the middle of a round, a card cast that round lies in the Action
    Pool: its gems and its Power do not count in the ranking keys of the others."""
    g, s, _ = position(G11B.format(p1_card="wealth"))
    act(g, s, CAST + 10)  # P0 casts Tribute: 24 -> 25, VICTORY
    assert s.terminal and s.winner == 0 and s.cast[1][16] == 1
    assert g.returns(s).tolist() == [1.0, -0.5, -0.5]  # P1 and P2 tie on (7, 1, 0)
    g, s, _ = position(G11B.format(p1_card="wealth").replace("cast P1", "hand P1"))
    act(g, s, CAST + 10)
    assert g.returns(s).tolist() == [1.0, 0.0, -1.0]  # the same card uncast in hand breaks the tie


def test_a_final_reveal_may_earmark_past_its_target_and_the_state_still_round_trips():
    """docs §4.18: REVEAL_SRC earmarks a whole card's gems, so the last earmark can pass the target (5 gems, then
    a 3-gem card for a target of 6: 8 earmarked); a toll on the way then opens a decision with that record, and
    ``from_dict`` accepts it (at most 5 + 6)."""
    g, s, _ = position("""
players 2
vp 10 3
gems 5 0
hand P0 wealth augment augment augment
decision final
""")
    act(g, s, REVEAL + 6)
    act(g, s, PAY_GEMS)
    act(g, s, PAY_CARD + 16)
    assert s.vp[0] == 14 and kind(s) == Kind.PAY_OFFER  # the toll stone on 15 (cost 3): three Augments may pay
    assert s.reveal[0]["marked"] == 8
    assert g.from_dict(g.to_dict(s)).reveal[0] == s.reveal[0]


G12 = """
players 2
round 3
pool P0 5
pool P1
hand P0 stacker
die 24 P1 3
decision turn P0
"""


def test_g12_stacker_bump():
    g, s, _ = position(G12)
    act(g, s, CAST + 13)
    m = legal(g, s)
    assert place(5, 24) in m and place(5, 25) in m
    act(g, s, place(5, 24))
    assert s.pool[1][2] == 1 and (s.sock_seat[24], s.sock_face[24]) == (0, 5)
    assert not s.turn["stack_ready"] or s.turn["player"] != 0
    assert s.pending["seat"] == 1 and kind(s) == Kind.TURN
    assert place(3, 25) in legal(g, s) and place(3, 24) not in legal(g, s)
    act(g, s, place(3, 25), ADV)
    assert s.vp == [3, 0]


G13 = """
players 1
round 5
vp 19
gems 5
decision final
"""


def test_g13_solo_threshold():
    g, s, _ = position(G13)
    a = g.clone(s)
    act(g, a, REVEAL + 1)
    assert kind(a) == Kind.PAY_OFFER and legal(g, a) == {DECLINE, PAY_GEMS}
    act(g, a, PAY_GEMS)
    assert a.terminal and a.vp[0] == 20 and a.gems[0] == 0
    assert g.returns(a).tolist() == [1.0]
    act(g, s, REVEAL + 2)
    assert s.terminal and s.vp[0] == 19 and s.gems[0] == 5
    assert g.returns(s).tolist() == [-1.0]


def test_g14_opening_sequence():
    from monolith_envs.strategy import StrategyGame

    g = StrategyGame({"num_players": 3})
    perms = [list(range(39)), list(range(12)), list(range(7)), list(range(31))]
    rolls = [3, 3, 2, 6, 5, 1, 6, 4, 2, 2, 2, 1, 4, 4, 4]
    rng = ScriptedRng(perms + rolls)
    s = g.initial_state(rng)
    assert s.primus == 2
    assert kind(s) == Kind.BONUS and s.pending["seat"] == 0 and legal(g, s) == {BONUS, BONUS + 1}
    act(g, s, BONUS + 1)
    assert s.gems[0] == 1 and s.source_gems == 14
    assert kind(s) == Kind.BONUS and s.pending["seat"] == 1
    top = s.skill_deck[0]
    act(g, s, BONUS, [3, 6])
    assert s.hand[1][top] == 1
    assert s.rc_pos == 9 and kind(s) == Kind.SIDE and s.pending["seat"] == 2
    assert legal(g, s) == {SIDE, SIDE + 1}
    act(g, s, SIDE, [1, 2, 3, 4, 5, 6, 1, 2, 3])
    assert kind(s) == Kind.TURN and s.pending["seat"] == 2 and s.turn["player"] == 2
    m = legal(g, s)
    assert not any(a < 360 and a % 60 in (32, 33, 34, 35) for a in m)
    assert s.pool[2] == [1, 1, 1, 0, 0, 0]  # P2 rolled first (turn order from the Primus)
