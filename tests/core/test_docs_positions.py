"""The position examples of the game pages (docs/monolith_arena.md §12, docs/the_monolith.md §10) parse as
they are printed, and their positions write back to text that parses to the same text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _example(page: str, heading: str) -> str:
    text = (DOCS / page).read_text(encoding="utf-8")
    section = text[text.index(heading):]
    return re.search(r"```\n(.*?)```", section, re.S).group(1)


@pytest.mark.parametrize("page, heading, module", [
    ("monolith_arena.md", "## 12. Text position format", "monolith_envs.arena"),
    ("the_monolith.md", "## 10. Position format", "monolith_envs.the_monolith"),
])
def test_the_docs_position_example_parses_and_round_trips(page, heading, module):
    import importlib

    mod = importlib.import_module(module)
    game, state = mod.parse_position(_example(page, heading))
    written = mod.format_position(game, state)
    game2, state2 = mod.parse_position(written)
    assert mod.format_position(game2, state2) == written
    assert game.legal_mask(state).any()
