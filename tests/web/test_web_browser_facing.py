"""Arena's facing stage in browser play: an arrow for each facing on the hex chosen before, clicked on the
board like a target (there was only a list of compass names), hovering a facing's button lights its arrow."""

from __future__ import annotations

from .helpers import opened
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture

#: click the first option button whose label starts with the given text (or the first button)
_CLICK = """const want = arguments[0];
const b = [...document.querySelectorAll('#options button.opt')].find(x => x.textContent.includes(want))
          || document.querySelector('#options button.opt');
b.click(); return b.textContent;"""


def test_the_facings_are_arrows_on_the_chosen_hex_and_a_click_places_the_tile(driver, tmp_path):  # noqa: F811
    wd = driver
    with opened(wd, "monolith_arena_v0", {}, 4, tmp_path, WAIT_READY) as served:
        wd.click('#board [data-target="hex:9"]')  # the Banner
        assert _async(wd, WAIT_READY) == "ready"
        for _ in range(6):  # to a turn with a tile to place
            if wd.text("#stage-title") == "choose the action:":
                break
            wd.cmd("POST", "/execute/sync", {"script": _CLICK, "args": ["end the turn"]})
            assert _async(wd, WAIT_READY) == "ready"
        wd.cmd("POST", "/execute/sync", {"script": _CLICK, "args": ["place a tile"]})
        if wd.text("#stage-title") == "choose the tile:":
            wd.cmd("POST", "/execute/sync", {"script": _CLICK, "args": ["slot 1"]})
        assert wd.text("#stage-title") == "choose the hex:"
        hexes = wd.js("return [...document.querySelectorAll('#board .target')].map(e => e.dataset.target)")
        wd.click(f'#board [data-target="{hexes[0]}"]')
        assert wd.text("#stage-title") == "choose the facing:"
        assert "or click one of the gold arrows on the board" in wd.text("#hint")
        at = wd.js("""const h = document.querySelector('#board .chosen').getBoundingClientRect();
            const a = [...document.querySelectorAll('#facing-picks polygon.facing-pick')];
            return {hex: [h.left + h.width / 2, h.top + h.height / 2, h.width],
                    arrows: a.map(p => { const r = p.getBoundingClientRect();
                                         return [p.textContent, r.left + r.width / 2, r.top + r.height / 2]; })};""")
        names = [t.split(" (")[0] for t, _, _ in at["arrows"]]
        assert names == ["NE", "E", "SE", "SW", "W", "NW"]
        (cx, cy, w), arrow = at["hex"], {n: (x, y) for n, (_, x, y) in zip(names, at["arrows"])}
        assert arrow["E"][0] > cx + 0.2 * w and abs(arrow["E"][1] - cy) < 2  # each on its edge's side
        assert arrow["W"][0] < cx - 0.2 * w and arrow["NE"][1] < cy < arrow["SE"][1]
        wd.js("document.querySelectorAll('#options button.opt')[4].dispatchEvent(new MouseEvent('mouseenter'))")
        assert wd.js("return document.querySelector('#facing-picks [data-option=\"4\"]').classList.contains('hot')")
        before = len(served.web.raw.episode_log.actions)
        wd.click('#facing-picks [data-option="1"]')  # E
        assert _async(wd, WAIT_READY) in ("ready", "over")
        played = served.web.raw.episode_log.actions[before]
        name = served.web.game.layout.decode(played)
        assert name.startswith("PLACE(") and name.endswith("rot=1)"), name
        assert not wd.js("return document.getElementById('facing-picks')")  # gone with the stage


def test_the_stage_tree_gives_each_facing_its_edges_direction_and_other_options_none():
    """The page draws the arrows from the options' ``direction`` (degrees clockwise from east, the drawing's
    axes): NE 300, E 0, SE 60, SW 120, W 180, NW 240; hexes, tiles and families have none."""
    import numpy as np

    import monolith_envs
    from agents.terminal import pieces_for
    from agents.web.staging import stage_tree

    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    env.reset(seed=2)
    game = env.game
    while not any(game.layout.decode(int(a)).startswith("PLACE") for a in np.flatnonzero(game.legal_mask(env.game_state))):
        env.step(int(np.flatnonzero(game.legal_mask(env.game_state))[0]))
    node = stage_tree(game, env.game_state, game.legal_mask(env.game_state), pieces_for(env.env_id))
    seen = []
    while "options" in node:
        seen.append([o.get("direction") for o in node["options"]])
        node = next(o for o in node["options"] if o["label"].startswith(("place", "slot", "hex", "NE")))["node"]
    assert seen[-1] == [300.0, 0.0, 60.0, 120.0, 180.0, 240.0]
    assert all(d is None for stage in seen[:-1] for d in stage)
    assert game.layout.decode(node["action"]).endswith("rot=0)")  # NE is rot 0
