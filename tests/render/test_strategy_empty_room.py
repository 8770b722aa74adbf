"""The Strategy picture keeps room for a second Fate (position 13) and for two private Runes in every
multiplayer frame (one frame size per config); where they are absent, it says so instead of an empty band."""

from __future__ import annotations

import numpy as np

from monolith_envs import make_game
from monolith_envs.strategy.render_svg import render_svg


def _state(n: int, second_fate: bool):
    g = make_game("monolith_strategy_v0", num_players=n)
    for seed in range(40):
        s = g.initial_state(np.random.default_rng(seed))
        if (s.board[13] >= 0) == second_fate:
            return g, s
    raise AssertionError(f"no seed dealt {'a' if second_fate else 'no'} second Fate")


def test_the_empty_position_13_and_private_rune_rooms_say_what_goes_there():
    g, s = _state(3, second_fate=False)
    svg = render_svg(g, s)
    assert "13 · empty" in svg and "no second Fate this game (Fate\u00a03.6</text>" in svg
    assert "deals one here at setup)" in svg
    assert svg.count("private Runes: none") == 3
    g, s = _state(3, second_fate=True)
    assert "13 · empty" not in render_svg(g, s)
    g = make_game("monolith_strategy_v0", num_players=1)  # solo: no fourth row to explain
    assert "13 · empty" not in render_svg(g, g.initial_state(np.random.default_rng(0)))


def test_the_fate_that_dealt_the_second_fate_says_so_on_its_card_and_in_the_notes():
    """Fate 3.6 has no sockets (docs §4.15): its card says what it did instead of standing blank, and the
    notes of terminal and browser play ("what the cards do") list it."""
    from agents.terminal.strategy import PIECES

    g, s = _state(2, second_fate=True)
    pos = next(p for p in range(1, 13) if s.board[p] >= 0 and g.rules.content.board[s.board[p]].id == "F3.6")
    svg = render_svg(g, s)
    card = svg.split(f'<g id="card-{pos}">')[1].split('<g id="card-')[0]  # the card and what is drawn on it
    assert "no sockets; at setup it dealt the second" in card and "Fate, on card 13" in card
    notes = PIECES.notes(g, s, 0)
    assert f"{pos:>2} F3.6: no sockets; at setup it dealt the second Fate, on card 13" in notes


def test_the_pool_says_not_rolled_before_the_chance_roll_and_shows_faces_after():
    """Dice dealt at setup (and back at Advancement) show no real face until the Chance roll (docs §11):
    the text, the picture and terminal play say "not rolled yet" instead of a pool of 1s."""
    from monolith_envs.strategy.render import render_text

    g = make_game("monolith_strategy_v0", num_players=2)
    rng = np.random.default_rng(3)
    s = g.initial_state(rng)
    assert s.phase.name == "SETUP"
    assert render_text(g, s).count("pool [3 dice, not rolled yet]") == 2
    assert render_svg(g, s).count("pool 3 dice, not rolled yet") == 2
    while s.phase.name == "SETUP":
        g.apply(s, int(np.flatnonzero(g.legal_mask(s))[0]), rng)
    assert s.phase.name == "ACTION" and "not rolled" not in render_text(g, s)
    faces = " ".join(str(f + 1) for f in range(6) for _ in range(s.pool[0][f]))
    assert f"pool [{faces}]" in render_text(g, s) and f"pool {faces}" in render_svg(g, s)


def test_a_seat_line_broken_before_its_last_part_keeps_its_comma_within_80_columns():
    from agents.terminal import WIDTH
    from agents.terminal.strategy import _parts

    parts = ["x" * 70, "y" * 8, "z" * 5]  # "x..., yyyyyyyy" is 80 columns: its comma would make 81
    lines = _parts(parts)
    assert lines == ["x" * 70 + ",", "     " + "y" * 8 + ", " + "z" * 5]
    assert all(len(x) <= WIDTH for x in lines)
    assert _parts(["x" * 70, "y" * 8]) == ["x" * 70 + ", " + "y" * 8]  # the last part: no comma to keep room for
