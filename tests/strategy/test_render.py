"""Text and picture renders (docs/monolith_strategy.md §14)."""

import numpy as np

from monolith_envs import monolith_strategy_v0
from monolith_envs.strategy import parse_position

POS = """
players 3
round 2
roundcard 7 exalted
vp 9 10 0
gems 2 1 0
die 0 P1 6
die 20 P0 5
blocked 21
pool P0 1 4
pool P2 2
hand P0 augment sabotage
hand P1 jinx
private P1 R25
private P2 R13 revealed faces 3 0 0 0
decision turn P0
"""


def test_text_shows_grid_players_and_track_and_hides_hands():
    g, s = parse_position(POS)
    t = g.render_text(s, viewer=0)
    assert t.splitlines()[0].startswith("round 2/5 · action · P0 takes a turn · Primus P0")
    assert "A:P1=6" in t and "5:P0=5" in t and "6:##" in t
    assert "Round 2: Exalted Offering" in t
    assert "hand: augment sabotage" in t and "jinx" not in t
    assert "hidden Rune" in t and "R25" not in t and "R13" in t
    assert "10T2<1>" in t and "9<0>" in t and "25V" in t
    full = g.render_text(s)
    assert "jinx" in full and "R25" in full


def test_rgb_picture_and_env_render_modes():
    g, s = parse_position(POS)
    img = g.render_rgb(s)
    assert img.shape[1:] == (940, 3) and 600 <= img.shape[0] <= 900 and img.dtype == np.uint8
    assert (img[:30] == (40, 40, 48)).all(axis=2).mean() > 0.5  # the status bar
    assert (img == (214, 69, 65)).all(axis=2).any() and (img == (52, 120, 200)).all(axis=2).any()
    env = monolith_strategy_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert "round 1/5" in env.render()
    env = monolith_strategy_v0.env(num_players=1, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape[1:] == (940, 3)


def test_every_decision_kind_is_said_in_words_on_the_status_line():
    from monolith_envs.strategy.render import KIND_ASKS
    from monolith_envs.strategy.state import Kind

    assert set(KIND_ASKS) == set(Kind) - {Kind.NONE}
    g, s = parse_position(POS)
    s.pending = dict(s.pending, k=Kind.PAY_OFFER)
    assert " · P0 decides whether to pay · " in g.render_text(s).splitlines()[0]


def test_hand_size_says_its_parts_when_a_card_is_cast():
    """Cast cards count toward the hand limit (docs §4.12): with one cast and none held, the text and the
    picture say ``hand size 1 (1 cast)``, not a bare ``hand size 1`` beside ``hand: -``; in the 4-player
    picture's narrower panels too, on one line."""
    import monolith_envs
    from monolith_envs.strategy.render import hand_size_words

    for n in (2, 4):
        game = monolith_envs.make_game("monolith_strategy_v0", num_players=n)
        s = game.initial_state(np.random.default_rng(0))
        R = game.rules
        for p in range(n):
            s.gems[p] = 20 if p else 0
            s.guard[p] = 3 if p else 0
            s.hand[p] = [0] * R.K
            s.cast[p] = [0] * R.K
        assert hand_size_words(R, s, 0) == "0"
        for p in range(n):
            s.cast[p][R.gem_kinds[0]] = 1
            s.hand[p][R.gem_kinds[0]] = 5 if p else 0
        assert hand_size_words(R, s, 0) == "1 (1 cast)" and hand_size_words(R, s, 1) == "6 (1 cast)"
        assert "hand size 1 (1 cast)" in game.render_text(s, viewer=0)
        svg = game.render_svg(s, viewer=0)
        assert "hand size 1 (1\u00a0cast)</text>" in svg
        assert ">gems 20 · guard 3 · hand size 6 (1\u00a0cast)</text>" in svg  # the widest, on one line


def test_solo_marks_its_goal_on_the_track_in_text_picture_and_legend():
    """Solo success is ending on or past the goal stone (docs §4.19): the track showed only VICTORY at 25."""
    import monolith_envs
    from agents.terminal import pieces_for

    for stone, space in ((4, 20), (2, 10)):
        g = monolith_envs.make_game("monolith_strategy_v0", num_players=1, solo_goal_stone=stone)
        s = g.initial_state(np.random.default_rng(0))
        assert g.solo_goal == space
        text = " ".join(g.render_text(s).split())
        assert f" {space}T{stone}G " in text and f"solo goal (G): end on or past {space} VP" in text
        svg = g.render_svg(s)
        assert f"space {space}: toll stone, costs {stone} · the solo goal: end on or past it" in svg
        assert f"solo goal: end on or past {space} (gold frame)" in svg
    legend = " ".join(pieces_for("monolith_strategy_v0").legend(g).split())
    assert legend.startswith("Legend. The solo board is 6 cards in reading order") and "the solo goal (G)" in legend
    g3 = monolith_envs.make_game("monolith_strategy_v0", num_players=3)
    s3 = g3.initial_state(np.random.default_rng(0))
    assert "G " not in g3.render_text(s3).split("track:")[1] and "solo goal" not in g3.render_svg(s3)
    assert " ".join(pieces_for("monolith_strategy_v0").legend(g3).split()).startswith("Legend. The board is 12 cards")
