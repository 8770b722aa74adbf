"""Monolith Arena's terminal (and browser) texts as a new player reads them: battle lines name each tile's hex
(two tiles may share a name), every seat's hand is shown (hands are face up, docs/monolith_arena.md D5), the
status line after the end says the result instead of whose turn it was, a maneuver that stays says so, an
Order's options read as the Orders they imitate, the drawing's "Last:" line names a discarded tile and a
played Order, wound lines say what the tile can take, and an area Order that hits nothing says so."""

from __future__ import annotations

import numpy as np

from agents.play import main
from agents.terminal import WIDTH
from agents.terminal.arena import PIECES
from monolith_envs.arena import parse_position
from monolith_envs.arena.render_svg import status_lines

ARENA = "monolith_arena_v0"


def _play(game, state, action: int) -> list[str]:
    """Apply ``action`` to ``state`` and return the narration lines (each fits :data:`WIDTH`)."""
    before, seat = game.clone(state), state.acting_seat
    game.apply(state, int(action))
    lines = PIECES.narrate(game, before, state, int(action), seat)
    assert all(len(x) <= WIDTH for line in lines for x in line.splitlines()), lines
    return lines


def _action(game, state, label: str) -> int:
    """The legal action whose layout name is ``label`` (e.g. ``SELECT_HEX(hex=5)``)."""
    found = [int(a) for a in np.flatnonzero(game.legal_mask(state)) if game.layout.decode(int(a)) == label]
    assert len(found) == 1, (label, [game.layout.decode(int(a)) for a in np.flatnonzero(game.legal_mask(state))])
    return found[0]


# the reporter's case: Crossbowmen on hexes 08 and 09, the one on 08 already wounded
TWO_CROSSBOWMEN = """
factions: harbingers_of_the_forest, guardians_of_the_realm
4: hf_banner
8: gr_crossbowman f=3 w=1
9: gr_crossbowman f=3
10: gr_banner
hand P0: hf_battle
hand P1: gr_push_back, gr_wyvern
turn: P0
"""


def test_battle_lines_name_the_hex_of_every_tile():
    game, s = parse_position(TWO_CROSSBOWMEN)
    assert _play(game, s, game.off.ORDER) == [
        "P0 plays the order Battle",
        "  a Battle starts",
        "  Battle:",
        "    initiative 0:",  # the Banners' phase: hits, then the step's removals (docs §4.7)
        "      P0 Banner (hex 04) hits P1 Crossbowman on hex 08 for 1",
        "      P0 Banner (hex 04) hits P1 Crossbowman on hex 09 for 1",
        "      P1 Crossbowman is removed from hex 08",
        # toughness 1, +1 from the Banner next to it: it lives with up to 2 wounds
        "    P1 Crossbowman on hex 09 is hit: 1 wound, 1 in all (removed at 3 wounds)",
        "  the Battle ends",
        "  now the turn of P1",
        "  P1 draws Axeman (deck 29 left)",
    ]


def test_wound_line_counts_wounds_in_words_and_says_what_the_tile_can_take():
    game, s = parse_position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
16: hf_banner
9: hf_herne f=0
5: gr_golem f=0
0: gr_banner
hand P0: hf_battle
turn: P0
""")
    lines = _play(game, s, game.off.ORDER)
    assert "      P0 Herne (hex 09) hits P1 Golem on hex 05 for 2" in lines
    assert "    P1 Golem on hex 05 is hit: 2 wounds, 2 in all (removed at 3 wounds)" in lines
    assert not any("wound(s)" in line for line in lines)


def test_every_seats_hand_is_shown_to_every_viewer():
    game, s = parse_position(TWO_CROSSBOWMEN)
    for viewer in (0, 1, None):
        board = PIECES.board(game, s, viewer).splitlines()
        i0 = next(k for k, line in enumerate(board) if line.startswith("P0 "))
        i1 = next(k for k, line in enumerate(board) if line.startswith("P1 "))
        assert board[i0 + 1] == "    hand: [slot 1: Battle]", viewer
        assert board[i1 + 1] == "    hand: [slot 1: Push Back]  [slot 2: Wyvern]", viewer
    assert "its hand by slot (hands are public;" in " ".join(PIECES.legend(game).split())


def test_status_line_after_the_end_says_who_won_not_whose_turn():
    game, s = parse_position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
4: hf_banner
5: gr_banner
hp P1: 1
hand P0: hf_battle
turn: P0
""")
    lines = _play(game, s, game.off.ORDER)
    assert lines[-1] == "  game over: P0 won (P1's Banner reached 0 HP)"
    board = PIECES.board(game, s, 0).splitlines()
    assert board[-1] == "game over: P0 won"
    assert not any("turn of" in line for line in board)


def test_seeded_terminal_game_shows_both_hands_and_ends_with_the_result():
    out: list[str] = []
    res = main([ARENA, "--opponents", "random", "--seed", "4"], input_fn=lambda _p: "1", output_fn=out.append)
    assert res is not None and res.decisions == 106
    text = "\n".join(out)
    lines = text.splitlines()
    seat_lines = [k for k, line in enumerate(lines) if line.startswith(("P0 (you) Guardians", "P1 Harbingers"))]
    assert len(seat_lines) > 40 and all(lines[k + 1].startswith("    hand: ") for k in seat_lines)
    assert any(lines[k].startswith("P1 ") and lines[k + 1] != "    hand: empty" for k in seat_lines)
    assert ("P1 Harbingers of the Forest: HP 20, deck 3, discard 18\n    hand: empty\ngame over: P1 won\n"
            "why: after the final Battle: HP P0 16, P1 20\n") in text
    end = text[text.rindex("  game over: P1 won"):]
    assert "turn of" not in end
    assert all(len(line) <= WIDTH for line in end.splitlines())


MANEUVER = """
factions: harbingers_of_the_forest, guardians_of_the_realm
9: hf_banner
5: hf_herne f=0
11: gr_banner
hand P0: hf_spark
turn: P0
"""


def test_a_maneuver_that_stays_says_the_tile_only_turns():
    game, s = parse_position(MANEUVER)
    assert _play(game, s, _action(game, s, "USE_FEATURE(feature=maneuver, hex=5)")) == [
        "P0 uses maneuver on hex 05 (P0 Herne)"]
    moved = game.clone(s)
    assert _play(game, s, _action(game, s, "SELECT_HEX(hex=5)")) == [
        "P0 keeps the tile on hex 05 (P0 Herne) and only turns it"]
    assert _play(game, s, _action(game, s, "SELECT_ROT(facing=1(E))")) == ["P0 turns the tile to face E"]
    assert _play(game, moved, _action(game, moved, "SELECT_HEX(hex=1)")) == [
        "P0 moves the tile on hex 05 (P0 Herne) to hex 01", "  (it stays on hex 05 until its facing is chosen, the next step)"]


def test_order_options_are_named_as_the_orders_they_imitate():
    game, s = parse_position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
9: hf_banner
5: hf_herne f=0
10: gr_banner
hand P1: gr_false_order
turn: P1
""")
    assert _play(game, s, game.off.ORDER)[0] == "P1 plays the order False Order"
    # False Order acts as Push Back, Fire Concoction or Rotation (docs/monolith_arena.md D55)
    assert [PIECES.option(game, s, "SELECT_MODE", "mode", k) for k in range(3)] == [
        "Push Back", "Fire Concoction", "Rotation"]
    assert _play(game, s, _action(game, s, "SELECT_MODE(mode=0)")) == ["P1 chooses Push Back"]


def test_last_line_of_the_drawing_names_the_discarded_tile_and_the_played_order():
    game, s = parse_position(MANEUVER)
    assert _play(game, s, game.off.DISCARD) == ["P0 discards Spark"]
    assert status_lines(game, s, 0)[2] == "Last: P0 discards Spark"
    assert status_lines(game, s, None)[2] == "Last: P0 discards Spark"
    assert "Last: P0 discards Spark" in game.render_svg(s)
    # a Battle Order that costs the seat its Spark: the Spark lies on the Battle in the discard pile
    game, s = parse_position("""
factions: harbingers_of_the_forest, guardians_of_the_realm
9: hf_banner
3: hf_spark f=0
7: gr_banner
hand P0: hf_battle
turn: P0
""")
    assert _play(game, s, game.off.ORDER)[3:6] == [
        "    initiative 0:", "      P1 Banner (hex 07) hits P0 Spark on hex 03 for 1",
        "      P0 Spark is removed from hex 03"]
    assert [game.tables.name_of[s.itype[i]] for i in s.discard[0]] == ["Battle", "Spark"]
    assert status_lines(game, s, 0)[2] == "Last: P0 plays the order Battle"


def test_an_area_order_that_hits_nothing_says_so():
    position = """
factions: harbingers_of_the_forest, guardians_of_the_realm
9: hf_banner
5: hf_herne f=0
10: gr_banner
hand P1: gr_fire_concoction
turn: P1
"""
    game, s = parse_position(position)
    _play(game, s, game.off.ORDER)
    # triangle 11 holds only P1's Banner; Fire Concoction wounds Champions and Runes
    assert _play(game, s, _action(game, s, "SELECT_TRIANGLE(triangle=11(6,10,11))")) == [
        "P1 selects triangle 11 (hexes 06, 10, 11)",
        "  it hits nothing: no tile there that it wounds (Champions and Runes)",
    ]
    game, s = parse_position(position)
    _play(game, s, game.off.ORDER)
    assert _play(game, s, _action(game, s, "SELECT_TRIANGLE(triangle=10(5,9,10))")) == [
        "P1 selects triangle 10 (hexes 05, 09, 10)",
        "  effects:",
        "    the order hits P0 Herne on hex 05 for 1",
        "    P0 Herne is removed from hex 05",
    ]


def test_a_battle_fought_within_one_placement_is_said_to_start_and_end():
    # the tile that fills the board starts a Battle that resolves inside the same step (docs §4.6): it was
    # headed "effects:", as if the placement itself did all of it
    from tests.agents.random_steps import random_steps

    env, before, a, seat = random_steps("monolith_arena_v0", 2, 57)
    lines = PIECES.narrate(env.game, before, env.game_state, a, seat)
    assert lines[:3] == ["P1 places Wyvern on hex 08 facing SE", "  a Battle starts (the board is full)", "  Battle:"]
    assert lines[-1] == "  the Battle ends" and "    P0 HP 20 -> 19 (-1)" in lines
    assert not before.b_active and not env.game_state.b_active


def test_a_tile_placed_and_killed_in_the_same_step_is_said_to_be_removed():
    """The placement that fills the board runs the whole Battle in its step: the placed tile, in a hand before
    the step, is hit and removed like the tiles that were on the board (it vanished without a line)."""
    env = __import__("monolith_envs").make(ARENA, num_players=4, mode="teams")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    game = env.unwrapped.game
    while True:
        mask = env.observe(env.agent_selection)["action_mask"]
        state = env.unwrapped.game_state
        before, seat = game.clone(state), state.acting_seat
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        if game.is_terminal(env.unwrapped.game_state):
            break
    lines = PIECES.narrate(game, before, env.unwrapped.game_state, action, seat)
    assert lines[0] == "P3 places Demon on hex 15 facing SW"
    assert "      P0 Banner (hex 18) hits P3 Demon on hex 15 for 1" in lines
    assert "      P3 Demon is removed from hex 15" in lines
    assert lines.index("      P3 Demon is removed from hex 15") < lines.index("    team A pool 3 -> 0 (-3)")


def test_a_placed_tile_is_not_said_to_move_from_an_unknown_hex():
    """Placing a tile put it on the board from no hex: the narration said ``moves from hex -1 to hex 18``
    under every placement. Seeded random games, every step narrated: no hex -1, and a placement says only
    where the tile goes."""
    import monolith_envs

    game = monolith_envs.make_game(ARENA)
    placements = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.initial_state(rng)
        while not game.is_terminal(state):
            action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
            placing = "places" in game.describe_action(state, action)
            text = "\n".join(_play(game, state, action))
            assert "hex -1" not in text, text
            if placing:
                placements += 1
                assert "moves from hex" not in text, text
    assert placements >= 20
