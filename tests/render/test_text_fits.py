"""Text that would run past its box is squeezed to fit: ``Scene.text(max_width=...)`` (SVG ``textLength``, a
smaller font in the picture).  Found in Monolith Arena with the reinforcement variant, whose hands of four or
five tiles ("Rune of Minor Acceleration", ...) ran up to 150 px past the 560 px picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

import monolith_envs
from monolith_envs.arena.render_svg import W, draw
from monolith_envs.core.drawing import Scene, text_width

NS = "{http://www.w3.org/2000/svg}"
LONG = "hand: Battle, Rune of Minor Acceleration, Battle*, Rune of Minor Acceleration · deck 3 · discard 4"


def _ink_columns(img: np.ndarray) -> np.ndarray:
    return np.flatnonzero((img < 128).any(axis=(0, 2)))


def test_a_text_wider_than_max_width_is_squeezed_in_svg_and_picture():
    assert text_width(LONG, 10.5) > 500
    sc = Scene(560, 30)
    sc.text(18, 15, LONG, 10.5, max_width=300)
    sc.text(18, 15, "short", 10.5, max_width=300)  # fits: unchanged
    texts = list(ET.fromstring(sc.to_svg()).iter(NS + "text"))
    assert texts[0].text == LONG and texts[0].get("textLength") == "300"
    assert texts[0].get("lengthAdjust") == "spacingAndGlyphs"
    assert texts[1].get("textLength") is None
    wide = Scene(560, 30)
    wide.text(18, 15, LONG, 10.5, max_width=300)
    cols = _ink_columns(wide.to_rgb())
    assert cols.min() >= 17 and cols.max() <= 18 + 300 + 2


def test_arena_panels_never_run_past_the_picture():
    env = monolith_envs.make("monolith_arena_v0", wrapped=False, monolith_module=True, reinforcement_variant=True)
    squeezed = 0
    for seed in range(2):
        env.reset(seed=seed)
        game, rng = env.game, np.random.default_rng(seed)
        while not game.is_terminal(env.game_state):
            for viewer in (None, 0):
                sc = draw(game, env.game_state, viewer)
                stack = list(sc._root)
                while stack:
                    it = stack.pop()
                    if it.kind == "g":
                        stack.extend(it.children)
                        continue
                    if it.kind != "text" or it.style["anchor"] != "start":
                        continue
                    x, _, s = it.geo
                    width = it.style.get("fit") or text_width(s, it.style["size"], it.style["bold"])
                    squeezed += bool(it.style.get("fit"))
                    assert x + width <= W - 10, (s, x, width)
            env.step(int(rng.choice(np.flatnonzero(game.legal_mask(env.game_state)))))
    assert squeezed > 0  # the long hands were met, and fitted
