"""render_text and render_rgb, through the env's render modes."""

import re

import numpy as np

from monolith_envs import the_monolith_v0
from monolith_envs.the_monolith import parse_position


def test_render_text_lists_spaces_pools_row_events_and_legal_actions():
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=3 objectives=O05
        P1 objectives=O04
        row 0: D01 P1:2
        events E03@4
        space 1: P0{3W}
        space 0: P1{1W} blood=2
    """)
    txt = g.render_text(s, viewer=1)
    assert "ORDER_CHOOSE by P0" in txt
    assert re.search(r" 4 Ashen Barrow +mausoleum +T slots", txt)
    assert "ctrl P0  P0{3W,S}" in txt and "blood 2" in txt
    assert "row 0:D01[P1:2]" in txt and "events E03@4" in txt
    assert "objectives 1 hidden" in txt and "O04" in txt and "O05" not in txt
    assert "legal: order(march) order(shaman)" in txt


def test_env_render_modes():
    env = the_monolith_v0.env(render_mode="rgb_array")
    env.reset(seed=3)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 8
    env = the_monolith_v0.env(render_mode="ansi", num_players=2)
    env.reset(seed=3)
    assert "The Monolith" in env.render()


def test_render_shows_every_hand_of_objectives_once_the_game_is_over():
    """Objectives are secret until revealed (spec §5.6); once the game is over the text and the picture show
    the objectives each seat still holds to every viewer, as the browser's result panel does."""
    from monolith_envs.the_monolith.render_svg import render_svg

    env = the_monolith_v0.env(num_players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g, s = env.unwrapped.game, env.unwrapped.game_state
    assert g.is_terminal(s)
    held = {p: [g.objs[o] for o in s.objectives[p]] for p in range(s.n)}
    assert any(held[p] for p in (1, 2)), "this seed leaves another seat with objectives in hand"
    txt = g.render_text(s, viewer=0)
    svg = render_svg(g, s, viewer=0)
    assert "hidden" not in txt and "hidden" not in svg
    for p in (1, 2):
        for ob in held[p]:
            assert ob.key in txt and ob.name in svg


def test_every_map_link_has_a_dot_at_each_end_where_it_joins_a_space():
    """A link line may pass over another space (20 to 0 and 0 to 10 read as one line through the Monolith):
    a dot marks each of its two ends, at the centres of the spaces it joins."""
    import monolith_envs
    from monolith_envs.the_monolith.render_svg import _LINK, _centre

    g = monolith_envs.make_game("the_monolith_v0", num_players=2)
    s = g.initial_state(np.random.default_rng(1))
    svg = g.render_svg(s)
    fill = "#{:02x}{:02x}{:02x}".format(*_LINK)
    spaces = g.content.map.spaces
    links = [(a, b) for a, b in g.content.map.dashed if g.active[a] and g.active[b] and spaces[a].cells and spaces[b].cells]
    assert len(links) >= 8
    for a, b in links:
        for sid in (a, b):
            x, y = _centre(spaces[sid].cells)
            assert re.search(rf'<circle cx="{x:g}" cy="{y:g}" r="4.5" fill="{fill}"', svg), (sid, x, y)
