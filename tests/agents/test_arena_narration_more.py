"""Monolith Arena's texts, more of them: a Morlock's kill step says which tile killed which (it read
as two bare removals), and the drawing's "Last:" line says the last step of a multi-step Order or ability in
the words terminal play uses (an Assassin's strike read ``selects hex 11``; a Push Back, a move, a charge, a
swap and a rotation read ``selects hex NN`` or ``chooses the facing E``)."""

from __future__ import annotations

import numpy as np

from agents.terminal import WIDTH
from agents.terminal.arena import PIECES
from monolith_envs.arena import parse_position
from monolith_envs.arena.render_svg import status_lines
from monolith_envs.arena.words import action_words, last_move_words, move_context


def _action(game, state, label: str) -> int:
    """The legal action whose layout name is ``label`` (``game.off.ORDER`` for ``"ORDER"``)."""
    if label == "ORDER":
        return game.off.ORDER
    found = [int(a) for a in np.flatnonzero(game.legal_mask(state)) if game.layout.decode(int(a)) == label]
    assert len(found) == 1, (label, [game.layout.decode(int(a)) for a in np.flatnonzero(game.legal_mask(state))])
    return found[0]


def _play(game, state, label: str) -> list[str]:
    """Apply the action ``label`` to ``state``; its narration lines (each fits :data:`WIDTH`). The engine's
    note of the move keeps the context of the state it was played in (``words.move_context``)."""
    a = _action(game, state, label)
    before, seat, context = game.clone(state), state.acting_seat, move_context(state)
    game.apply(state, a)
    assert state.last_move == (seat, a, context)
    lines = PIECES.narrate(game, before, state, a, seat)
    assert all(len(x) <= WIDTH for line in lines for x in line.splitlines()), lines
    return lines


def _last(game, state) -> str:
    line = status_lines(game, state, None)[2]
    assert line == status_lines(game, state, int(state.last_move[0]))[2]  # its own seat sees the same line
    return line


MORLOCK = """
factions: harbingers_of_the_forest, dragon_empire
16: hf_banner
9: hf_morlock f=0
5: de_knight f=3
0: de_banner
hand P0: hf_battle
turn: P0
"""


def test_a_morlock_kill_says_who_killed_what_then_the_removals():
    game, s = parse_position(MORLOCK)
    # the Morlock's kill edge points NE, at the Knight: both go (docs/monolith_arena.md §4.7 step 2, D29)
    assert _play(game, s, "ORDER") == [
        "P0 plays the order Battle",
        "  a Battle starts",
        "  Battle:",
        "    P0 Morlock (hex 09) kills P1 Knight on hex 05",
        "    P1 Knight is removed from hex 05",  # the kill step's removals, before the initiative phases
        "    P0 Morlock is removed from hex 09",
        "  the Battle ends",
        "  now the turn of P1",
        "  P1 draws Pikeman, Pikeman, Pikeman (deck 30 left)",  # hands are public (D5): the draw is said
    ]


def test_a_kill_comes_before_the_hits_of_the_same_battle():
    # two P1 Knights: the one on 05 is killed before the initiative phases, the one on 04 then fights
    position = MORLOCK.replace("16: hf_banner", "8: hf_banner").replace("0: de_banner", "0: de_banner\n4: de_knight f=3")
    game, s = parse_position(position)
    assert _play(game, s, "ORDER")[2:12] == [
        "  Battle:",
        "    P0 Morlock (hex 09) kills P1 Knight on hex 05",
        "    P1 Knight is removed from hex 05",
        "    P0 Morlock is removed from hex 09",
        "    initiative 1:",
        "      P1 Knight (hex 04) hits P0 Banner on hex 08 for 3",
        "    initiative 0:",
        "      P0 Banner (hex 08) hits P1 Knight on hex 04 for 1",
        "    P1 Knight on hex 04 is hit: 1 wound, 1 in all (removed at 2 wounds)",
        "    P0 HP 20 -> 17 (-3)",
    ]


ASSASSIN = """
factions: harbingers_of_the_forest, dragon_empire
0: hf_banner
13: hf_assassin f=0
16: de_banner
11: de_knight f=0
hand P0: hf_battle
turn: P0
"""


def test_the_last_line_says_an_assassins_strike_in_words():
    game, s = parse_position(ASSASSIN)
    _play(game, s, "ORDER")
    assert _play(game, s, "SELECT_HEX(hex=11)")[:4] == [
        "P0 strikes hex 11 (P1 Knight) with the Assassin on hex 13",
        "  Battle:",
        "    initiative 3:",
        "      P0 Assassin (hex 13) hits P1 Knight on hex 11 for 1",
    ]
    assert s.board[13] < 0  # the Assassin fell in the Battle: still named, from the board before the strike
    assert _last(game, s) == "Last: P0 strikes hex 11 (P1 Knight) with the Assassin on hex 13"
    assert "Last: P0 strikes hex 11 (P1 Knight) with the Assassin on hex 13" in game.render_svg(s)
    # without the context (an engine that does not keep it) the words stay what they were
    assert last_move_words(game, s, 0, s.last_move[1]) == "selects hex 11"
    # with a state that does not name the striking Assassin, the strike is still said in words
    game, s = parse_position(ASSASSIN)
    _play(game, s, "ORDER")
    s.p_a = -1
    assert action_words(game, s, _action(game, s, "SELECT_HEX(hex=11)")) == "has the Assassin strike hex 11 (P1 Knight)"


def test_the_engine_keeps_the_context_of_the_last_move():
    game, s = parse_position(ASSASSIN)
    game.apply(s, game.off.ORDER)
    game.apply(s, _action(game, s, "SELECT_HEX(hex=11)"))
    assert status_lines(game, s, None)[2] == "Last: P0 strikes hex 11 (P1 Knight) with the Assassin on hex 13"


BOARD = """
factions: guardians_of_the_realm, dragon_empire
16: gr_banner
9: gr_golem f=0
4: de_knight f=3
2: de_banner
"""


def test_push_back_says_which_tile_goes_where():
    game, s = parse_position(BOARD + "hand P0: gr_push_back\nturn: P0\n")
    _play(game, s, "ORDER")
    assert _play(game, s, "SELECT_HEX(hex=4)") == ["P0 pushes back hex 04 (P1 Knight)"]
    assert _last(game, s) == "Last: P0 pushes back hex 04 (P1 Knight)"
    assert _play(game, s, "SELECT_HEX(hex=9)") == ["P0 pushes with hex 09 (P0 Golem)"]
    # the push is said once: no "P1 Knight moves from hex 04 to hex 00" under it (test_arena_narration_last_line)
    assert _play(game, s, "SELECT_HEX(hex=0)") == ["P0 pushes the tile on hex 04 (P1 Knight) back to hex 00"]
    assert _last(game, s) == "Last: P0 pushes the tile on hex 04 (P1 Knight) back to hex 00"


def test_a_move_order_is_said_whole_by_its_facing():
    game, s = parse_position(BOARD + "hand P1: de_move\nturn: P1\n")
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_HEX(hex=4)")
    assert _last(game, s) == "Last: P1 picks the tile to move: hex 04 (P1 Knight)"
    # the board keeps the tile on hex 04 until its facing is chosen: the narration says so
    assert _play(game, s, "SELECT_HEX(hex=5)") == ["P1 moves the tile on hex 04 (P1 Knight) to hex 05",
                                                   "  (it stays on hex 04 until its facing is chosen, the next step)"]
    assert s.board[4] >= 0 and s.board[5] < 0
    assert _last(game, s) == "Last: P1 moves the tile on hex 04 (P1 Knight) to hex 05"
    # the step before said where it goes: no "P1 Knight moves from hex 04 to hex 05" line
    assert _play(game, s, "SELECT_ROT(facing=1(E))") == ["P1 turns the moved tile to face E"]
    assert _last(game, s) == "Last: P1 moves the tile on hex 04 (P1 Knight) to hex 05 facing E"


def test_a_maneuver_that_stays_and_a_rotation_name_the_tile_turned():
    game, s = parse_position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
9: hf_banner
5: hf_herne f=0
11: gr_banner
turn: P0
""")
    _play(game, s, "USE_FEATURE(feature=maneuver, hex=5)")
    assert _last(game, s) == "Last: P0 uses maneuver on hex 05 (P0 Herne)"
    _play(game, s, "SELECT_HEX(hex=5)")
    assert _last(game, s) == "Last: P0 keeps the tile on hex 05 (P0 Herne) and only turns it"
    _play(game, s, "SELECT_ROT(facing=1(E))")
    assert _last(game, s) == "Last: P0 turns the tile on hex 05 (P0 Herne) to face E"
    game, s = parse_position(BOARD + "hand P0: gr_rotation\nturn: P0\n")
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_HEX(hex=4)")
    assert _play(game, s, "SELECT_ROT(facing=1(E))") == ["P0 turns the tile to face E"]
    assert _last(game, s) == "Last: P0 turns the tile on hex 04 (P1 Knight) to face E"


def test_a_charge_names_the_option_the_charger_and_its_way():
    game, s = parse_position(BOARD.replace("4: de_knight f=3", "3: de_knight f=2")
                             + "hand P1: de_battle_charge\nturn: P1\n")
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_MODE(mode=1)")
    assert _last(game, s) == "Last: P1 chooses Charge"
    _play(game, s, "SELECT_HEX(hex=3)")
    assert _play(game, s, "SELECT_HEX(hex=8)") == ["P1 charges with the tile on hex 03 (P1 Knight) to hex 08",
                                                   "  (it stays on hex 03 until its facing is chosen, the next step)"]
    lines = _play(game, s, "SELECT_ROT(facing=1(E))")
    assert lines[:3] == ["P1 turns the charger to face E", "  effects:",
                         "    P1 Knight (hex 08) hits P0 Golem on hex 09 for 2"]
    assert _last(game, s) == "Last: P1 charges with the tile on hex 03 (P1 Knight) to hex 08 facing E"


def test_net_and_swap_say_their_tiles():
    game, s = parse_position(BOARD + "hand P1: de_net\nturn: P1\n")
    _play(game, s, "ORDER")
    _play(game, s, "SELECT_HEX(hex=9)")
    assert _last(game, s) == "Last: P1 nets hex 09 (P0 Golem)"
    game, s = parse_position("""
factions: lords_of_the_abyss, dragon_empire
16: la_banner
9: la_demon f=0
13: la_wraith f=0
2: de_banner
turn: P0
""")
    _play(game, s, "USE_FEATURE(feature=swap, hex=9)")
    # said once: no "P0 Wraith moves from hex 13 to hex 09" / "P0 Demon moves from hex 09 to hex 13" under it
    assert _play(game, s, "SELECT_HEX(hex=13)") == ["P0 swaps the tile on hex 09 (P0 Demon) with hex 13 (P0 Wraith)"]
    assert _last(game, s) == "Last: P0 swaps the tile on hex 09 (P0 Demon) with hex 13 (P0 Wraith)"


def test_the_first_turn_and_its_draw_are_said_when_the_last_banner_is_placed():
    """P1 places the last Banner and P0's first turn begins with its draw: the turn seat was P0 all through the
    setup, and the draw was not said (every other draw is; hands are public, D5)."""
    import monolith_envs

    game = monolith_envs.make_game("monolith_arena_v0")
    s = game.initial_state(np.random.default_rng(1))
    first = _play(game, s, game.layout.decode(int(np.flatnonzero(game.legal_mask(s))[0])))
    assert first == ["P0 places its Banner on hex 00"] and s.turn_seat == 0
    lines = _play(game, s, game.layout.decode(int(np.flatnonzero(game.legal_mask(s))[0])))
    hand = ", ".join(game.tables.name_of[s.itype[i]] for i in s.hand[0] if i >= 0)
    assert lines == ["P1 places its Banner on hex 01", "  now the turn of P0",
                     f"  P0 draws {hand} (deck {len(s.deck[0])} left)"] and hand
