"""Arena's picture numbers its hexes as its words do: two digits, ``hex 09`` in the options, the narration
and the text render, ``09`` on the board (it was ``9``)."""

from __future__ import annotations

import re

import numpy as np

from monolith_envs import make_game


def test_every_hex_is_labelled_with_two_digits_as_the_words_name_it():
    g = make_game("monolith_arena_v0")
    s = g.initial_state(np.random.default_rng(0))
    svg = g.render_svg(s)
    labels = re.findall(r'font-weight="bold">(\d+)</text>', svg)
    assert [f"{h:02d}" for h in range(19)] == [x for x in labels if len(x) == 2 and int(x) < 19][:19]
    assert not re.search(r'text-anchor="middle"[^>]*font-weight="bold">\d</text>', svg)  # no one-digit label
    mask = g.legal_mask(s)
    words = [g.describe_action(s, int(a)) for a in np.flatnonzero(mask)]
    assert any(re.search(r"\bhex 0\d\b", w) for w in words), words[:5]
