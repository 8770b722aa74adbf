"""The picture writes only characters its font has (docs/monolith_strategy.md §14): no text drawn by
render_rgb falls back to the '?' glyph (before, the status line showed 'FACE?SRC', 'PAY?OFFER')."""

from __future__ import annotations

import numpy as np

from monolith_envs.core import raster
from monolith_envs.strategy import StrategyGame


def test_rgb_text_uses_only_font_glyphs(monkeypatch):
    drawn = []
    real = raster.text

    def spy(img, x, y, s, *a, **k):
        drawn.append(s)
        return real(img, x, y, s, *a, **k)

    monkeypatch.setattr(raster, "text", spy)
    g = StrategyGame({"num_players": 3, "player_powers": True})
    kinds, seen = set(), set()
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = g.initial_state(rng)
        i = 0
        while not g.is_terminal(s):
            kinds.add(s.pending["k"])
            if i % 7 == 0 or s.pending["k"] not in seen:
                seen.add(s.pending["k"])
                g.render_rgb(s)
            i += 1
            g.apply(s, int(rng.choice(g.legal_list(s))), rng)
        g.render_rgb(s)
    assert len(kinds) >= 8
    bad = {ch for t in drawn for ch in str(t).upper() if ch not in raster.FONT or ch == "?"}
    assert not bad, f"characters without a glyph: {sorted(bad)}"
