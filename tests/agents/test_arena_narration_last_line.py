"""Monolith Arena's texts as a new player reads them, continued.

The drawing's "Last:" line names a tile whose placement filled the board (the
Battle that followed removed it), each move is narrated once, the "Last:" line
shows to every viewer but for a secret Monolith setup pick, every Battle says
why it starts (the final Battle too), and a lone Order option reads as a noun
in the browser."""

from __future__ import annotations

import numpy as np

import monolith_envs
from agents.terminal.arena import PIECES
from agents.web.staging import stage_tree
from monolith_envs.arena import parse_position
from monolith_envs.arena.render_svg import status_lines
from tests.agents.test_arena_narration_more import BOARD, _action, _play  # Push Back said once: there


def test_last_line_names_a_placed_tile_that_the_board_full_battle_removed():
    # the reporter's game: default config, random legal moves from
    # default_rng(1), decision 53
    game = monolith_envs.make_game("monolith_arena_v0")
    rng = np.random.default_rng(1)
    s = game.initial_state(rng)
    while s.decisions < 53:
        game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))), rng)
    seat, action = s.last_move[:2]
    assert seat == 1 and game.layout.split(action)[0] == "PLACE"
    # the tile that filled the board fell in the Battle it started
    assert s.board[17] < 0
    # it read "Last: P1 places the tile of slot 1 on hex 17 facing E"
    want = "Last: P1 places Rune of Reinforcement on hex 17 facing E"
    assert status_lines(game, s, None)[2] == want
    assert status_lines(game, s, 0)[2] == want


def test_a_move_is_said_once_with_or_without_a_facing():
    game, s = parse_position(BOARD + "hand P1: de_move\nturn: P1\n")
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_HEX(hex=2)")
    # a Banner has no facing: it moves at once (it went on
    # "    P1 Banner moves from hex 02 to hex 06")
    assert _play(game, s, "SELECT_HEX(hex=6)") == [
        "P1 moves the tile on hex 02 (P1 Banner) to hex 06"
    ]
    game, s = parse_position(BOARD + "hand P1: de_move\nturn: P1\n")
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_HEX(hex=4)")
    assert _play(game, s, "SELECT_HEX(hex=5)") == [
        "P1 moves the tile on hex 04 (P1 Knight) to hex 05",
        "  (it stays on hex 04 until its facing is chosen, the next step)",  # the board shows it on hex 04 until then
    ]
    # the facing that ends the move: it went on
    # "    P1 Knight moves from hex 04 to hex 05"
    assert _play(game, s, "SELECT_ROT(facing=1(E))") == [
        "P1 turns the moved tile to face E"
    ]


def test_a_move_the_action_did_not_name_is_still_said():
    game, s = parse_position(BOARD + "hand P1: de_move\nturn: P1\n")
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_HEX(hex=4)")
    a = _action(game, s, "SELECT_HEX(hex=5)")
    before = game.clone(s)
    game.apply(s, a)
    # as if the move had also carried the Golem from hex 09 to hex 13
    golem = s.board[9]
    s.board[9], s.board[13], s.hexof[golem] = -1, golem, 13
    assert PIECES.narrate(game, before, s, a, 1) == [
        "P1 moves the tile on hex 04 (P1 Knight) to hex 05",
        "  (it stays on hex 04 until its facing is chosen, the next step)",
        "    P0 Golem moves from hex 09 to hex 13",
    ]


def test_a_charge_says_its_move_once():
    # a swap says its move once too: test_arena_narration_more
    game, s = parse_position(
        BOARD.replace("4: de_knight f=3", "3: de_knight f=2")
        + "hand P1: de_battle_charge\nturn: P1\n"
    )
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_MODE(mode=1)")
    _play(game, s, "SELECT_HEX(hex=3)")
    _play(game, s, "SELECT_HEX(hex=8)")
    lines = _play(game, s, "SELECT_ROT(facing=1(E))")
    assert lines[:3] == [
        "P1 turns the charger to face E",
        "  effects:",
        "    P1 Knight (hex 08) hits P0 Golem on hex 09 for 2",
    ]
    assert "    P1 Knight moves from hex 03 to hex 08" not in lines


def test_last_line_shows_to_every_viewer():
    game, s = parse_position(BOARD + "hand P0: gr_push_back\nturn: P0\n")
    _play(game, s, "ORDER")
    # P1 saw "" here: the line was kept from every seat but the one that moved
    said = "Last: P0 plays the order Push Back"
    for viewer in (None, 0, 1):
        assert status_lines(game, s, viewer)[2] == said
    assert said in game.render_svg(s, 1)


def test_a_monolith_setup_pick_stays_secret():
    game = monolith_envs.make_game("monolith_arena_v0", monolith_module=True)
    s = game.initial_state(np.random.default_rng(0))
    a = _action(game, s, "PICK_TYPE(local=1)")
    said = f"Last: P0 {game.describe_action(s, a)}"
    assert said.startswith("Last: P0 picks ")
    before = game.clone(s)
    game.apply(s, a)
    assert status_lines(game, s, None)[2] == said
    assert status_lines(game, s, 0)[2] == said
    assert status_lines(game, s, 1)[2] == ""
    # the narration, shown to every seat in terminal and browser play, does not name the tile (it did)
    assert PIECES.narrate(game, before, s, a, 0) == ["P0 picks a tile for its Monolith (hidden from the other seats)"]


def test_the_final_battle_says_why_it_starts():
    game, s = parse_position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
4: hf_banner
8: gr_crossbowman f=3
10: gr_banner
hand P0: -, -, -
hand P1: -, -, -
deck P0: hf_spark
deck P1: gr_wyvern
begin: P0
""")
    # P0 drew the last tile of its deck: P1 is owed one more turn
    assert s.last_round
    end = game.layout.index("END_TURN")
    assert _play(game, s, game.layout.decode(end)) == [
        "P0 ends the turn",
        "  now the turn of P1",
        "  P1 draws Wyvern (deck 0 left)",  # its last tile, in the last round P0 began: nothing more to say
    ]
    # it read "  a Battle starts"
    assert _play(game, s, game.layout.decode(end))[:2] == [
        "P1 ends the turn",
        "  a Battle starts (the final Battle: the last round is over)",
    ]
    assert s.terminal


# P1's Banner on hex 04 hits P0's Crossbowman on hex 08 in a Battle
HITS = """
factions: guardians_of_the_realm, dragon_empire
4: de_banner
8: gr_crossbowman f=3
10: gr_banner
"""


def test_a_battle_order_needs_no_reason():
    game, s = parse_position(HITS + "hand P0: gr_battle\nturn: P0\n")
    assert _play(game, s, "ORDER")[:3] == [
        "P0 plays the order Battle",
        "  a Battle starts",
        "  Battle:",
    ]


def test_a_lone_order_option_reads_as_a_noun():
    game, s = parse_position(HITS + "hand P1: de_battle_charge\nturn: P1\n")
    # no Knight to charge with: Battle is the only option
    game.apply(s, game.off.ORDER)
    tree = stage_tree(game, s, game.legal_mask(s), PIECES)
    # the browser's button read "1) chooses Battle"
    assert tree["name"] == "Battle" and tree["code"] == "SELECT_MODE(mode=0)"
    assert tree["auto"][-1] == "mode: Battle (the only choice)"
    assert PIECES.option(game, s, "SELECT_MODE", "mode", 0) == "Battle"
    # the narration still says what the seat did
    assert _play(game, s, "SELECT_MODE(mode=0)")[:2] == [
        "P1 chooses Battle",
        "  a Battle starts",
    ]


def test_the_draw_that_takes_a_decks_last_tile_says_the_last_round_begins():
    game, s = parse_position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
4: hf_banner
10: gr_banner
hand P1: -, -, -
deck P0: hf_spark
deck P1: gr_wyvern
turn: P0
""")
    assert not s.last_round  # P0's deck still holds a tile
    end = game.layout.index("END_TURN")
    lines = _play(game, s, game.layout.decode(end))
    assert lines == ["P0 ends the turn", "  now the turn of P1",
                     "  P1 draws Wyvern (deck 0 left); its last tile: the last round begins"]
    assert s.last_round and s.last_round_owed == [True, False]  # P0 owes its one more turn
