"""A content file's error names the line of the field that is wrong, in the three games (``core.content.
item_line`` for Strategy's and The Monolith's readers; Arena's reader finds its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

import monolith_envs
from monolith_envs.core.content import ContentError, item_line

ROOT = Path(monolith_envs.__file__).parent
STRATEGY = ROOT / "strategy" / "data" / "reference.toml"
MONOLITH = ROOT / "the_monolith" / "data"


def _broken(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text()
    assert old in text
    out = tmp_path / source.name
    out.write_text(text.replace(old, new, 1))
    return out


def _line(path: Path, n: int) -> str:
    return path.read_text().splitlines()[n - 1].strip()


@pytest.mark.parametrize("old, new, shown", [
    ("victory = 25", "victory = -25", "victory = -25"),  # a table: [track]
    ('  op = "gain_vp"\n  n = 1', '  op = "gain_vp"\n  n = 999', "n = 999"),  # a card's 2nd effect line
    ('name = "Gem Rune"', 'name = "Gem Rune"\nbogus = 1', "bogus = 1"),  # an unknown field of the 2nd card
])
def test_a_strategy_content_error_names_the_line(tmp_path, old, new, shown):
    path = _broken(tmp_path, STRATEGY, old, new)
    with pytest.raises(ContentError) as info:
        monolith_envs.make("monolith_strategy_v0", content=str(path))
    assert info.value.line > 0 and _line(path, info.value.line) == shown
    assert str(info.value).startswith(f"{path}:{info.value.line}: in ")


@pytest.mark.parametrize("key, name, old, new, shown", [
    ("shaman_file", "shamans.toml", "available = 12", "available = -11", "available = -11"),
    ("divination_file", "divinations.toml", 'rating = 2\nwindow = "rest_scoring"\ncost = "none"\ncost_amount = 0\n'
     'effect = { op = "favour_per", pred = "controlled", sel = "building:temple"',
     'rating = 99\nwindow = "rest_scoring"\ncost = "none"\ncost_amount = 0\n'
     'effect = { op = "favour_per", pred = "controlled", sel = "building:temple"', "rating = 99"),
    ("shaman_file", "shamans.toml", 'cost = "none", cost_amount = 0, effect = { op = "favour", amount = 2 }',
     'cost = "anger", cost_amount = 0, effect = { op = "favour", amount = 2 }', None),  # an inline table
])
def test_a_the_monolith_content_error_names_the_line(tmp_path, key, name, old, new, shown):
    path = _broken(tmp_path, MONOLITH / name, old, new)
    with pytest.raises(ContentError) as info:
        monolith_envs.make("the_monolith_v0", **{key: str(path)})
    assert info.value.line > 0
    if shown is None:  # the line of the inline table's key
        assert _line(path, info.value.line).startswith("ability = {") and "cost = \"anger\"" in _line(
            path, info.value.line)
    else:
        assert _line(path, info.value.line) == shown


def test_item_line_is_zero_where_it_cannot_tell(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('[[card]]\nid = "A"\nn = 1\n')
    assert item_line(str(path), "card A", "n") == 3
    assert item_line(str(path), "card B", "n") == 0  # no such card
    assert item_line(str(path), "file", "card") == 0
    assert item_line(str(tmp_path / "missing.toml"), "card A", "n") == 0
    assert item_line(str(path), "card #0", "missing_field") == 1  # the table's own line


def test_item_line_finds_the_table_of_the_items_kind_and_its_sub_tables(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('[[board_card]]\nid = "X"\nn = 1\n\n[[action_card]]\nid = "X"\nn = 2\n\n'
                    '[[round_card]]\nid = "R"\n  [[round_card.start]]\n  op = "a"\n  [[round_card.start]]\n  op = "b"\n')
    assert item_line(str(path), "action card 'X'", "n") == 7  # not the board card of the same id
    assert item_line(str(path), "board card 'X'", "n") == 3
    assert item_line(str(path), "round_card[0] start[1]", "op") == 14
    assert item_line(str(path), "quadrant 2", "role") == 0  # no [[quadrant]] table: no line rather than a wrong one


def test_item_line_reads_a_long_line_of_spaces_at_once(tmp_path):
    # a header-like line that fails to match (an element of a multi-line array) must not backtrack for ever
    path = tmp_path / "x.toml"
    path.write_text("[track]\ntolls = [\n[" + " " * 100_000 + "5, 1],\n]\nvictory = -1\n")
    assert item_line(str(path), "[track]", "victory") == 5


def test_item_line_reads_an_arrays_last_element_as_no_header(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text("[track]\ntolls = [\n  [5, 1],\n  [10, 2]\n]\nvictory = -1\n")
    assert item_line(str(path), "[track]", "victory") == 6
