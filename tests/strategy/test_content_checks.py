"""Content checks (docs/monolith_strategy.md §5.8): a board card's number names one card
(positions accept a card by id or number), so a repeated number is a ContentError, not a silent pick."""

from __future__ import annotations

from importlib import resources

import pytest

from monolith_envs.strategy import ContentError, StrategyGame

BLANK = 'id = "R38"\nnumber = "38"\n'


@pytest.mark.parametrize("number", ["37", "SR1"])
def test_a_board_card_number_names_one_card(tmp_path, number):
    ref = resources.files("monolith_envs.strategy").joinpath("data", "reference.toml").read_text("utf-8")
    assert BLANK in ref
    path = tmp_path / "dup.toml"
    path.write_text(ref.replace(BLANK, f'id = "R38"\nnumber = "{number}"\n'), "utf-8")
    with pytest.raises(ContentError) as exc:
        StrategyGame({"content": str(path), "num_players": 2})
    assert exc.value.field == "number" and "R38" in str(exc.value) and number in str(exc.value)


def test_a_bare_name_not_in_data_says_how_to_name_a_local_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text("[meta]\n", "utf-8")
    with pytest.raises(ContentError) as exc:
        StrategyGame({"content": "mine.toml", "num_players": 2})
    assert "./mine.toml" in str(exc.value)
