"""Text and picture renderers of Monolith Arena (docs/monolith_arena.md §7) and the position text format."""

from __future__ import annotations

import numpy as np
import pytest

from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.positions_text import PositionTextError, parse_position, position_to_text
from monolith_envs.arena.render import render_text
from monolith_envs.arena.render_svg import OWNER_COLOURS, hex_center, render_rgb
from monolith_envs.core.drawing import mix

POSITION = """
factions: dragon_empire, lords_of_the_abyss
16: de_banner
9: de_knight f=5 w=1
12: de_rune_minor_acceleration f=2
2: la_banner
10: la_horror f=4 p=2
4: la_spike f=2 net
hand P0: de_battle_charge, de_move*
hp P1: 17
"""

MODULE = """
factions: dragon_empire, harbingers_of_the_forest
config: monolith_module=true
9: de_banner
11: hf_banner
monolith P0: unfolded seg2=de_knight hex2=10 f2=1 hex3=14
monolith P1: folded seg2=hf_spark seg3=hf_assassin revealed3
turn: P0 discarded=1
"""


def test_text_tokens():
    game, s = parse_position(POSITION)
    txt = render_text(game, s)
    lines = txt.splitlines()
    # board rows of docs/monolith_arena.md §2.1 (3-4-5-4-3 hexes), each hex as owner.Name/facing+wounds
    assert [ln.count(":") for ln in lines[:5]] == [3, 4, 5, 4, 3]
    assert "09:0.Knight/NW+1" in lines[2]
    assert "16:0.Banner/NE" in lines[4]
    # a long name is shortened in its cell and written in full under the board
    assert "12:0.MinorAcce/SE" in lines[3]
    assert lines[5] == "full names: 12 Rune of Minor Acceleration"
    # the Horror nets the Knight (net edge 0 at facing 4 points W, to hex 9): N; it carries 2 poison: P2
    assert "09:0.Knight/NW+1 N" in lines[2]
    assert "10:1.Horror/W P2" in lines[2]
    # Net-order marker on the Spike: netted and marked
    assert "04:1.Spike/SE N M" in lines[1]
    assert "00:." in lines[0]
    assert max(len(ln) for ln in lines) <= 100 and "de_" not in txt and "la_" not in txt
    p0 = next(ln for ln in lines if ln.startswith("P0 "))
    p1 = next(ln for ln in lines if ln.startswith("P1 "))
    assert "Dragon Empire" in p0 and "HP 20" in p0 and "hand [Battle/Charge, Move*]" in p0
    assert "HP 17" in p1 and "hand []" in p1
    deck0 = 34 - 2 - 2  # two tiles on the board, two in the hand
    assert f"deck {deck0}" in p0
    assert "sub-phase MAIN" in txt and "acting P0" in txt


def test_text_monolith_visibility():
    game, s = parse_position(MODULE)
    omni = render_text(game, s)
    p0 = render_text(game, s, viewer=0)
    p1 = render_text(game, s, viewer=1)
    assert "10:0.Knight/E S2" in omni
    assert "14:. S3@0" in omni
    assert "seg2=Spark seg3=Assassin" in omni
    assert "seg2=? seg3=Assassin" in p0  # unrevealed segment 2 hidden from the opponent
    assert "seg2=Spark seg3=Assassin" in p1  # the owner sees both
    assert "seg2=Knight seg3=-" in p0 and "unfolded at 9/10/14" in p0
    assert "folded at 11" in p1


def test_text_pending_selection():
    game, s = parse_position("""
factions: lords_of_the_abyss, dragon_empire
0: la_banner
9: la_spike f=1
16: de_banner
10: de_knight f=0
hand P0: la_push_back
""")
    game.apply(s, 365)
    txt = render_text(game, s)
    assert "sub-phase PUSH_TARGET" in txt
    assert "pending push_back" in txt and "order=Push Back" in txt


def test_rgb_picture():
    game, s = parse_position(POSITION)
    img = render_rgb(game, s)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert 500 <= img.shape[0] <= 800 and img.shape[1] == 560
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 5
    # owner colour (full or pale for a Rune) inside an owned hex, away from its marks; empty hexes are not
    for h, seat in ((16, 0), (2, 1), (9, 0)):
        x, y = hex_center(h)
        assert tuple(img[round(y + 14), round(x - 26)]) in (OWNER_COLOURS[seat], mix(OWNER_COLOURS[seat], 0.5)), h
    x, y = hex_center(0)
    assert tuple(img[round(y + 14), round(x - 26)]) not in OWNER_COLOURS
    # the picture changes with the state
    s.wounds[s.board[9]] = 3
    assert not np.array_equal(img, render_rgb(game, s))


def test_rgb_module_and_game_methods():
    game, s = parse_position(MODULE)
    img = game.render_rgb(s)
    assert img.shape == render_rgb(game, s).shape
    assert game.render_text(s, viewer=1) == render_text(game, s, 1)


def test_rgb_saved_png(tmp_path):
    pil = pytest.importorskip("PIL.Image")
    game, s = parse_position(POSITION)
    path = tmp_path / "arena.png"
    pil.fromarray(render_rgb(game, s)).save(path)
    assert path.stat().st_size > 0


ENEMY_INSIDE = """
factions: lords_of_the_abyss, harbingers_of_the_forest
config: monolith_module=true
9: la_banner
18: hf_banner
monolith P0: folded seg2=P1:hf_spark seg3=la_wraith f3=2 revealed2
hand P0: la_spike*, -, la_move
"""

TEAMS = """
factions: dragon_empire, lords_of_the_abyss, guardians_of_the_realm, harbingers_of_the_forest
config: mode=teams
0: de_banner
9: de_pikeman f=0 w=0 entrench
2: la_banner
15: la_chaos f=1
18: gr_banner
16: hf_banner
pool A: 3
pool B: 30
hand P1: la_spike
turn: P1 sub=DISCARD discarded=0
"""


def test_position_text_features():
    game, s = parse_position(ENEMY_INSIDE)
    spark, wraith = s.seg_content[0]
    assert spark // 35 == 1 and game.tables.id_of[s.itype[spark]] == "hf_spark"
    assert s.seg_revealed[0] == [True, False] and s.facing[wraith] == 2
    assert s.hand[0][1] == -1 and s.fresh[0] == [True, False, False]
    game, s = parse_position(TEAMS)
    assert game.team_mode and s.pool == [3, 30] and s.entrench_on == s.board[9]
    assert (s.turn_seat, s.acting_seat, s.sub_phase) == (1, 1, 2)
    assert "pool A=3" in render_text(game, s) and "09:0.Pikeman/NE E" in render_text(game, s)


def test_position_text_round_trip():
    for text in (POSITION, MODULE, ENEMY_INSIDE, TEAMS):
        game, s = parse_position(text)
        again = position_to_text(game, s)
        game2, s2 = parse_position(again)
        assert position_to_text(game2, s2) == again
        assert render_text(game, s) == render_text(game2, s2)


@pytest.mark.parametrize("text,needle", [
    ("16: de_banner", "factions"),
    ("factions: dragon_empire, lords_of_the_abyss\n9: de_knight f=x", "line 2"),
    ("factions: dragon_empire, lords_of_the_abyss\n9: de_elf", "de_elf"),
    ("factions: dragon_empire, lords_of_the_abyss\n9: de_knight\n9: la_spike", "occupied"),
    ("factions: dragon_empire, lords_of_the_abyss\nweather: rain", "unknown statement"),
    ("factions: dragon_empire, lords_of_the_abyss\nhand P7: de_move", "P7"),
])
def test_position_text_errors(text, needle):
    with pytest.raises(PositionTextError, match=needle):
        parse_position(text)


def test_setup_picks_hidden_in_text():
    game = ArenaGame({"factions": ["dragon_empire", "harbingers_of_the_forest"], "monolith_module": True})
    s = game.initial_state(np.random.default_rng(0))
    game.apply(s, 2)
    game.apply(s, 3)
    assert "monolith not placed seg2=? seg3=?" in render_text(game, s, viewer=1)
    assert "monolith not placed seg2=Knight seg3=Dragon Rider" in render_text(game, s, viewer=0)
    assert "sub-phase SETUP_PICK" in render_text(game, s)


@pytest.mark.parametrize("cfg", [
    {"monolith_module": True},
    {"num_players": 4, "mode": "teams", "monolith_module": True},
    {"num_players": 3, "mode": "ffa"},
])
def test_render_random_games(cfg):
    """Both renderers work on every state of a random game (setup, mid-resolution, eliminations, end)."""
    game = ArenaGame(cfg)
    rng = np.random.default_rng(7)
    s = game.initial_state(rng)
    steps = 0
    while not game.is_terminal(s) and steps < 300:
        for viewer in (None, *range(game.num_players)):
            assert render_text(game, s, viewer)
        if steps % 25 == 0:
            img = render_rgb(game, s)
            assert img.shape[1:] == (560, 3) and img.dtype == np.uint8
        game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))))
        steps += 1
    assert "sub-phase" in render_text(game, s)
    render_rgb(game, s)
