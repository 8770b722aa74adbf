"""A Strategy player's panel shows every card of a long hand: the rows were cut at 40 characters, so in a
3- or 4-player game (panels about 220 px wide) a hand of four or more skills lost its last cards, in the
person's own view of the browser page too.  Long rows now continue on the next line (or are squeezed when
the panel has no room left)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from monolith_envs.core.drawing import text_width
from monolith_envs.strategy import parse_position

NS = "{http://www.w3.org/2000/svg}"
HAND = ["augment", "sabotage", "prospect", "ascension", "foresight"]  # five: the hand limit
POSITION = f"""
players 4
round 2
hand P0 {' '.join(HAND)}
hand P1 jinx
pool P0 1 4
pool P2 2
decision turn P0
"""


def _panel_texts(svg: str, seat: int) -> list:
    group = next(g for g in ET.fromstring(svg).iter(NS + "g") if g.get("id") == f"seat-{seat}")
    return [t for t in group.iter(NS + "text")]


def test_every_card_of_a_long_hand_is_shown_inside_the_panel():
    g, s = parse_position(POSITION)
    for viewer in (None, 0):
        texts = _panel_texts(g.render_svg(s, viewer), 0)
        joined = " ".join((t.text or "").strip() for t in texts)
        for card in HAND:
            assert card.capitalize() in joined, (card, joined)
        panel = next(gr for gr in ET.fromstring(g.render_svg(s, viewer)).iter(NS + "g") if gr.get("id") == "seat-0")
        box = panel.find(NS + "rect")
        right = float(box.get("x")) + float(box.get("width"))
        for t in texts:
            width = float(t.get("textLength") or text_width(t.text or "", float(t.get("font-size")),
                                                            t.get("font-weight") == "bold"))
            left = float(t.get("x")) - (width if t.get("text-anchor") == "end" else 0)
            assert left + width <= right - 4, (t.text, left, width, right)
    assert "hand: 1 card, hidden" in [t.text for t in _panel_texts(g.render_svg(s, 0), 1)]
