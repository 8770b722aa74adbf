"""The render-legend picture of docs/monolith_arena.md is drawn from docs/arena_legend.txt: that position
still parses and shows what the picture's caption says."""

from __future__ import annotations

from pathlib import Path

from monolith_envs.arena import parse_position

DOC = Path(__file__).resolve().parents[2] / "docs"


def test_the_legend_position_parses_and_draws_what_its_caption_says():
    game, state = parse_position((DOC / "arena_legend.txt").read_text())
    svg = game.render_svg(state)
    assert "Monolith unfolded on hexes 09, 10, 14" in svg and "Monolith folded on hex 00" in svg
    nightmare = game.tables.id_of.index("la_nightmare")
    assert state.itype[state.board[5]] == nightmare and state.net_marker_on == state.board[9]
    assert state.poison[state.board[8]] == 2 and state.wounds[state.board[12]] == 1
    assert "(arena_legend.txt)" in (DOC / "monolith_arena.md").read_text()
