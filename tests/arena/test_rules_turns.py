"""Setup, turn flow, Orders and relocation (docs/monolith_arena.md §3, §4.1-§4.5, §5.3); values from the spec's rules."""

import numpy as np
import pytest

from monolith_envs.arena.context import cap
from monolith_envs.arena.endgame import final_result
from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.positions import effects, new_position, put_tile, set_hand, set_turn
from monolith_envs.arena.state import Sub
from monolith_envs.core.config import ConfigError
from monolith_envs.core.game import IllegalActionError
from tests.arena.scenario_support import DE, GR, HF, LA


def legal(g, s):
    return set(int(a) for a in np.flatnonzero(g.legal_mask(s)))


def test_layout_sizes():
    assert ArenaGame().layout.n == 500
    assert ArenaGame({"reinforcement_variant": True}).layout.n == 848
    assert ArenaGame().obs_spec.size == 4532
    assert ArenaGame({"reinforcement_variant": True}).obs_spec.size == 5348


@pytest.mark.parametrize("bad", [
    {"num_players": 3},                     # duel needs 2
    {"num_players": 2, "mode": "ffa"},
    {"num_players": 3, "mode": "teams"},
    {"factions": ["dragon_empire"]},
    {"factions": ["dragon_empire", "dragon_empire"]},
    {"factions": ["dragon_empire", "nope"]},
    {"bogus": 1},
])
def test_config_errors(bad):
    with pytest.raises(ConfigError):
        ArenaGame(bad)


@pytest.mark.parametrize("n, hint", [(3, "with 3 players set mode='ffa' as well"),
                                     (4, "with 4 players set mode='ffa' or 'teams' as well")])
def test_more_players_without_a_mode_says_which_mode_to_set(n, hint):
    with pytest.raises(ConfigError) as ei:
        ArenaGame({"num_players": n})
    assert f"mode='duel' (the default) needs num_players=2, got {n}; {hint}" in str(ei.value)


@pytest.mark.parametrize("cfg", [{}, {"num_players": 4, "mode": "ffa"}])
def test_team_hp_outside_teams_mode_is_refused(cfg):
    with pytest.raises(ConfigError, match=r"team_hp=20 is the alliance pool of mode='teams' .*leave team_hp out"):
        ArenaGame({**cfg, "team_hp": 20})
    assert ArenaGame({"num_players": 4, "mode": "teams", "team_hp": 20}).team_hp == 20


def test_g1_opening_turns():
    g = ArenaGame({"factions": [DE, HF]})
    s = g.initial_state(np.random.default_rng(0))
    assert s.sub_phase == Sub.SETUP_BANNER
    g.apply(s, 455)
    g.apply(s, 457)
    assert s.board[9] == 0 and s.board[11] == 35
    assert s.turn_seat == 0 and s.sub_phase == Sub.MAIN
    assert sum(i >= 0 for i in s.hand[0]) == 1 and len(s.deck[0]) == 33
    assert {a for a in legal(g, s) if 20 <= a < 23} == {20}
    g.apply(s, 445)
    assert s.turn_seat == 1 and s.sub_phase == Sub.MAIN
    assert sum(i >= 0 for i in s.hand[1]) == 2 and len(s.deck[1]) == 32
    g.apply(s, 445)
    assert s.sub_phase == Sub.DISCARD
    assert sum(i >= 0 for i in s.hand[0]) == 3 and len(s.deck[0]) == 31
    assert legal(g, s) == {20, 21, 22}
    g.apply(s, 21)
    assert s.sub_phase == Sub.MAIN and s.discarded == 1


def test_opening_seats_2_3_forced_discard():
    g = ArenaGame({"num_players": 4, "mode": "ffa"})
    s = g.initial_state(np.random.default_rng(1))
    for h in (0, 2, 16, 18):
        g.apply(s, 446 + h)
    g.apply(s, 445)  # seat 0
    g.apply(s, 445)  # seat 1
    assert s.turn_seat == 2 and s.sub_phase == Sub.DISCARD
    assert sum(i >= 0 for i in s.hand[2]) == 3


def test_reinforcement_opening_and_cap():
    g = ArenaGame({"reinforcement_variant": True})
    s = g.initial_state(np.random.default_rng(2))
    g.apply(s, g.layout.index("SELECT_HEX", 0))
    g.apply(s, g.layout.index("SELECT_HEX", 18))
    assert s.sub_phase == Sub.DISCARD and sum(i >= 0 for i in s.hand[0]) == 6
    assert cap(g.rules, s) == 1


def test_illegal_action_message():
    g = ArenaGame()
    s = g.initial_state(np.random.default_rng(0))
    with pytest.raises(IllegalActionError) as e:
        g.apply(s, 445)
    assert "END_TURN" in str(e.value) and "SELECT_HEX" in str(e.value)
    assert e.value.why == "not legal in SETUP_BANNER: the decision now (seat 0) is to choose an empty hex for your Banner"
    with pytest.raises(IllegalActionError):
        g.apply(s, 10_000)


def test_every_sub_phase_says_what_it_decides():
    from monolith_envs.arena.table import SUB_ASKS

    assert set(SUB_ASKS) == set(Sub) and all(text and text[0].islower() for text in SUB_ASKS.values())


def test_g12_push_back_geometry():
    g, s = new_position([LA, DE])
    put_tile(g, s, 0, "la_banner", 0)
    put_tile(g, s, 0, "la_spike", 9, facing=1)
    put_tile(g, s, 1, "de_banner", 16)
    kn = put_tile(g, s, 1, "de_knight", 10, facing=0)
    put_tile(g, s, 1, "de_pikeman", 11)
    put_tile(g, s, 1, "de_swordsman", 15)
    set_hand(g, s, 0, ["la_push_back"])
    g.apply(s, 365)
    assert legal(g, s) == {456}
    g.apply(s, 456)
    assert legal(g, s) == {455}
    g.apply(s, 455)
    assert legal(g, s) == {452}
    g.apply(s, 452)
    assert s.board[6] == kn and s.facing[kn] == 0 and s.wounds[kn] == 0
    assert s.sub_phase == Sub.MAIN


def test_g12_push_back_illegal_when_blocked():
    g, s = new_position([LA, DE])
    put_tile(g, s, 0, "la_banner", 0)
    put_tile(g, s, 0, "la_spike", 9, facing=1)
    put_tile(g, s, 1, "de_banner", 16)
    put_tile(g, s, 1, "de_knight", 10, facing=0)
    put_tile(g, s, 1, "de_pikeman", 11)
    put_tile(g, s, 1, "de_swordsman", 15)
    put_tile(g, s, 1, "de_arquebusier", 6)
    set_hand(g, s, 0, ["la_push_back"])
    assert 365 not in legal(g, s)


def test_move_order_banner_and_noop():
    g, s = new_position([DE, LA])
    b = put_tile(g, s, 0, "de_banner", 9)
    put_tile(g, s, 1, "la_banner", 0)
    set_hand(g, s, 0, ["de_move"])
    g.apply(s, 365)
    assert legal(g, s) == {446 + 9}
    g.apply(s, 446 + 9)
    # a Banner may not stay (no facing change), so its own hex is not offered
    assert legal(g, s) == {446 + x for x in (4, 5, 8, 10, 13, 14)}
    g.apply(s, 446 + 14)
    assert s.board[14] == b and s.facing[b] == 0 and s.sub_phase == Sub.MAIN


def test_maneuver_granted_by_harbinger_banner():
    g, s = new_position([HF, DE])
    put_tile(g, s, 0, "hf_banner", 9)
    put_tile(g, s, 0, "hf_spark", 10, facing=0)
    put_tile(g, s, 1, "de_banner", 0)
    fx = effects(g, s)
    assert fx["maneuver"][10]
    m = legal(g, s)
    assert 368 + 10 in m and 368 + 9 not in m  # Banners never maneuver
    g.apply(s, 368 + 10)
    assert s.sub_phase == Sub.FEATURE_DEST
    g.apply(s, 446 + 10)  # stay
    assert 465 not in legal(g, s)  # same hex + same facing = no-op
    g.apply(s, 466)
    assert 368 + 10 not in legal(g, s)  # once per turn


def test_net_cycle_and_chain():
    """D12: every tile on a net cycle is netted and its nets are inactive; a chain is resolved in order."""
    g, s = new_position([LA, DE])
    horror = g.tables.gid_by_id["la_horror"]
    for i in (35 + 1, 35 + 2):            # give seat 1 two Horror instances (test-only content swap)
        s.itype[i] = horror
    put_tile(g, s, 0, "la_banner", 0)
    put_tile(g, s, 1, "de_banner", 18)
    put_tile(g, s, 0, "la_horror", 9, facing=1)      # nets E -> 10
    put_tile(g, s, 1, horror, 10, facing=4)          # nets W -> 9: a 2-cycle
    put_tile(g, s, 0, "la_horror", 16, facing=1)     # nets E -> 17
    put_tile(g, s, 1, horror, 17, facing=0)          # nets NE -> 14 (empty)
    put_tile(g, s, 1, "de_swordsman", 5, facing=0)
    fx = effects(g, s)
    assert fx["netted"][9] and fx["netted"][10]
    assert fx["netted"][17] and not fx["netted"][16]
    assert not fx["netted"][5]


def test_wound_area_hits_own_and_enemy_non_banners():
    g, s = new_position([GR, DE])
    put_tile(g, s, 0, "gr_banner", 0)
    ax = put_tile(g, s, 0, "gr_golem", 4)
    put_tile(g, s, 1, "de_banner", 18)
    pk = put_tile(g, s, 1, "de_pikeman", 1)
    set_hand(g, s, 0, ["gr_fire_concoction"])
    g.apply(s, 365)
    assert s.sub_phase == Sub.AREA_TARGET
    g.apply(s, 471 + 0)  # triangle (0, 1, 4)
    assert s.board[1] == -1 and pk in s.discard[1]
    assert s.wounds[ax] == 1
    assert s.hp == [20, 20]


def test_teleport_rune_once_per_turn_and_printed_teleport():
    g, s = new_position([LA, DE])
    put_tile(g, s, 0, "la_banner", 0)
    rune = put_tile(g, s, 0, "la_rune_teleportation", 9, facing=1)   # edge 0 -> E -> 10
    sp = put_tile(g, s, 0, "la_spike", 10, facing=0)
    put_tile(g, s, 0, "la_nightmare", 18, facing=0)
    put_tile(g, s, 1, "de_banner", 16)
    m = legal(g, s)
    assert 368 + 19 + 10 in m and 368 + 19 + 18 in m
    g.apply(s, 368 + 19 + 10)
    assert s.tele_rune_used == [rune]
    g.apply(s, 446 + 2)
    g.apply(s, 465 + 3)
    assert s.board[2] == sp and s.facing[sp] == 3
    m = legal(g, s)
    assert 368 + 19 + 18 in m           # printed Teleport never spends the rune


def test_swap_demon():
    g, s = new_position([LA, DE])
    put_tile(g, s, 0, "la_banner", 0)
    dm = put_tile(g, s, 0, "la_demon", 9, facing=2)
    sp = put_tile(g, s, 0, "la_spike", 18, facing=4)
    put_tile(g, s, 1, "de_banner", 16)
    g.apply(s, 368 + 38 + 9)
    assert legal(g, s) == {446 + 18}
    g.apply(s, 446 + 18)
    assert s.board[9] == sp and s.board[18] == dm
    assert s.facing[dm] == 2 and s.facing[sp] == 4
    assert 368 + 38 + 18 not in legal(g, s)


def test_rank_returns_ffa4():
    g, s = new_position([DE, LA, GR, HF], reward_mode="rank")
    for p, (fac, h) in enumerate(((DE, 0), (LA, 2), (GR, 16), (HF, 18))):
        put_tile(g, s, p, {"dragon_empire": "de_banner", "lords_of_the_abyss": "la_banner",
                           "guardians_of_the_realm": "gr_banner", "harbingers_of_the_forest": "hf_banner"}[fac], h)
    s.hp = [20, 15, 15, 10]
    final_result(g.rules, s)
    r = g.returns(s)
    # ranks 1, 2.5, 2.5, 4 -> values 1, 0, 0, -1 (mean 0)
    assert r.tolist() == pytest.approx([1.0, 0.0, 0.0, -1.0])
    assert s.winners == [0]


def test_score_rewards_sum_to_zero():
    g, s = new_position([DE, LA], reward_mode="score")
    put_tile(g, s, 0, "de_banner", 9)
    put_tile(g, s, 1, "la_banner", 10)
    set_hand(g, s, 0, ["de_battle_charge"])
    g.apply(s, 365)
    g.apply(s, 495)
    assert s.hp == [19, 19]
    assert g.returns(s).tolist() == [0.0, 0.0]


def test_entrenchment_blocks_push_and_armors_all_sides():
    g, s = new_position([GR, LA])
    put_tile(g, s, 0, "gr_banner", 0)
    ax = put_tile(g, s, 0, "gr_axeman", 9, facing=0)
    put_tile(g, s, 1, "la_banner", 18)
    put_tile(g, s, 1, "la_spike", 10, facing=4)
    set_hand(g, s, 0, ["gr_entrenchment"])
    g.apply(s, 365)
    assert legal(g, s) == {446 + 0, 446 + 9}        # own Champion or Banner
    g.apply(s, 446 + 9)
    assert s.entrench_on == ax
    assert effects(g, s)["armor"][9] == [True] * 6
    # the Lords cannot push the entrenched Axeman
    set_turn(g, s, 1)
    set_hand(g, s, 1, ["la_push_back"])
    assert 365 not in legal(g, s)


def test_precise_shot_targets_enemy_non_banners_only():
    g, s = new_position([HF, DE])
    put_tile(g, s, 0, "hf_banner", 0)
    put_tile(g, s, 0, "hf_spark", 1)
    put_tile(g, s, 1, "de_banner", 18)
    kn = put_tile(g, s, 1, "de_knight", 14)
    set_hand(g, s, 0, ["hf_precise_shot"])
    g.apply(s, 365)
    assert legal(g, s) == {446 + 14}
    g.apply(s, 446 + 14)
    assert s.wounds[kn] == 1 and s.board[14] == kn   # toughness 1


def test_rotation_order_any_non_banner_not_netted():
    g, s = new_position([GR, LA])
    put_tile(g, s, 0, "gr_banner", 0)
    put_tile(g, s, 0, "gr_golem", 4, facing=0)
    put_tile(g, s, 1, "la_banner", 18)
    sp = put_tile(g, s, 1, "la_spike", 16, facing=0)
    set_hand(g, s, 0, ["gr_rotation"])
    g.apply(s, 365)
    assert legal(g, s) == {446 + 4, 446 + 16}
    g.apply(s, 446 + 16)
    assert legal(g, s) == {465 + f for f in range(1, 6)}
    g.apply(s, 465 + 3)
    assert s.facing[sp] == 3


def test_disarmament_rune_stops_enemy_attacks():
    g, s = new_position([LA, DE])
    put_tile(g, s, 0, "la_banner", 0)
    put_tile(g, s, 0, "la_rune_disarmament", 13, facing=1)    # edges 0, 1 -> E (14), SE (17)
    put_tile(g, s, 1, "de_banner", 18)
    sw = put_tile(g, s, 1, "de_pikeman", 14, facing=4)        # edges 0,1,2,5 -> W(13), NW(9), NE(10), SW(17)
    fx = effects(g, s)
    assert fx["disarmed"][14] and not fx["disarmed"][18]
    set_turn(g, s, 1)
    set_hand(g, s, 1, ["de_battle_charge"])
    g.apply(s, 365)
    g.apply(s, 495)
    assert s.board[13] >= 0            # the Rune was not hit by the disarmed Pikeman
    assert s.board[14] == sw


def test_charge_allowed_in_last_round_battle_not():
    g, s = new_position([DE, LA])
    put_tile(g, s, 0, "de_banner", 14)
    put_tile(g, s, 0, "de_knight", 17, facing=0)
    put_tile(g, s, 1, "la_banner", 8)
    s.last_round = True
    s.last_round_owed = [False, True]
    set_hand(g, s, 0, ["de_battle_charge"])
    g.apply(s, 365)
    assert legal(g, s) == {496}


def test_put_tile_rejects_an_order_without_touching_the_deck():
    """Regression: a rejected Order must stay in its deck (position helpers validate before mutating)."""
    import pytest as _pytest

    from monolith_envs.arena.positions import new_position, put_tile

    game, s = new_position(["dragon_empire", "lords_of_the_abyss"])
    before = game.to_dict(s)
    with _pytest.raises(ValueError, match="Orders cannot stand on the board"):
        put_tile(game, s, 0, "de_move", 9)
    with _pytest.raises(ValueError, match="poison markers left"):
        put_tile(game, s, 0, "de_knight", 9, poison=6)
    assert game.to_dict(s) == before


PUSH_NETTED = """
factions: guardians_of_the_realm, lords_of_the_abyss
16: gr_banner
8: gr_axeman f=0
9: la_mygalomorph net
{second}
2: la_banner
hand P0: gr_push_back
turn: P0
"""


def test_netted_tiles_cannot_be_pushed():
    """D9 (docs/monolith_arena.md §4.5, §5.3, §6.2 PUSH_TARGET): a netted enemy is not a Push Back target.

    The Axeman on 8 is adjacent to the Mygalomorph on 9 (netted by the Net-order marker) and, in the first
    position, to another one on 4; both have three free far hexes (9: 10, 5, 14; 4: 1, 0, 5).  Only 4 is a
    target; without it the Push Back Order has no legal resolution and cannot be played."""
    from monolith_envs.arena import parse_position

    game, s = parse_position(PUSH_NETTED.format(second="4: la_mygalomorph"))
    assert effects(game, s)["netted"][9] and not effects(game, s)["netted"][4]
    game.apply(s, game.off.ORDER)  # PLAY_ORDER slot 0: Push Back
    assert s.sub_phase == Sub.PUSH_TARGET
    mask = game.legal_mask(s)
    assert [int(a) - game.off.HEX for a in mask.nonzero()[0]] == [4]
    game, s = parse_position(PUSH_NETTED.format(second=""))
    assert not game.legal_mask(s)[game.off.ORDER]
