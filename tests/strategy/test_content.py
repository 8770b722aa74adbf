"""The content loader (docs/monolith_strategy.md §5.8): the reference file's counts, and ContentError naming
file, card and field for every kind of mistake; a content file passed through the config."""

import re
from pathlib import Path

import pytest

from monolith_envs import ConfigError
from monolith_envs.strategy import ContentError, StrategyGame, load_content

REF = Path(__file__).resolve().parents[2] / "monolith_envs" / "strategy" / "data" / "reference.toml"


def test_reference_counts():
    c = load_content()
    assert (c.C, c.K, c.X) == (48, 29, 5)
    assert sum(a.copies for a in c.actions if a.deck == "skill") == 39
    assert sum(a.copies for a in c.actions if a.deck == "power") == 12
    kws = [b.keyword for b in c.board if b.set == "rune"]
    assert (kws.count("attack"), kws.count("immediate"), kws.count("immediate_attack"), kws.count("none")) == \
        (4, 7, 4, 16)
    assert c.tolls == ((5, 1), (10, 2), (15, 3), (20, 4))


def test_solo_removals():
    g = StrategyGame({"num_players": 1})
    R = g.rules
    assert (len(R.skill_cards), len(R.power_cards), len(R.rune_pool), len(R.fates)) == (27, 8, 23, 6)
    names = {R.content.actions[k].name for k in R.pp_kinds}
    assert names == set()
    g = StrategyGame({"num_players": 1, "player_powers": True})
    assert {g.rules.content.actions[k].name for k in g.rules.pp_kinds} == {"Overcharge", "Windfall", "Triumph"}


def _write(tmp_path, old: str, new: str, count: int = 1) -> str:
    text = REF.read_text()
    assert old in text, old
    p = tmp_path / "bad.toml"
    p.write_text(text.replace(old, new, count))
    return str(p)


@pytest.mark.parametrize("old,new,card,field", [
    ('sockets = [4, 5, 6]', 'sockets = [4, 5, 7]', "SR5", "sockets"),
    ('sockets = [0, 0, 0]\nenabled = true\n\n  [[board_card.effect]]\n  who = "highest_unique"',
     'sockets = [0, 0, 0, 0, 0]\nenabled = true\n\n  [[board_card.effect]]\n  who = "highest_unique"', "SR1", "sockets"),
    ('op = "take_primus"', 'op = "take_prims"', "SR1", "op"),
    ('who = "highest_unique"', 'who = "self"', "SR1", "who"),
    ('cond = ["total_min:9"]', 'cond = ["total_min:99"]', "SR5", "cond"),
    ('cond = ["total_min:9"]', 'cond = ["shiny"]', "SR5", "cond"),
    ('copies = 4', 'copies = 40', "augment", "copies"),
    ('gems = 3', 'gems = -1', "wealth", "gems"),
    ('look = 2', 'look = 3', "secrecy", "look"),
    ('scale = "per_shared_card"', 'scale = "per_die"', "synergy", "scale"),
    ('deck = "skill"\ncopies = 4', 'deck = "sword"\ncopies = 4', "augment", "deck"),
    ('reserved = true', 'reserved = false', "round_card[1]", "start"),
    ('tolls = [[5, 1], [10, 2], [15, 3], [20, 4]]', 'tolls = [[5, 1], [4, 2]]', "[track]", "tolls"),
    ('hand_limit = 5', 'hand_limit = 50', "[meta]", "hand_limit"),
    ('id = "SR2"', 'id = "SR1"', "SR1", "id"),
])
def test_errors_name_file_card_field(tmp_path, old, new, card, field):
    path = _write(tmp_path, old, new)
    with pytest.raises(ContentError) as e:
        load_content(path)
    msg = str(e.value)
    assert "bad.toml" in msg and card in msg and repr(field) in msg, msg


def test_bad_toml_and_missing_file(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text("[meta\n")
    with pytest.raises(ContentError, match="toml|TOML"):
        load_content(str(p))
    with pytest.raises(ContentError, match="no such content file"):
        load_content("nothing_here.toml")


def test_config_content_file(tmp_path):
    path = _write(tmp_path, 'name = "Rune of the Hunt"\nkeyword = "none"\nsockets = [0, 0]',
                  'name = "Rune of the Hunt"\nkeyword = "none"\nsockets = [0, 0, 0]')
    g = StrategyGame({"num_players": 2, "content": path})
    assert g.rules.content.board[g.rules.by_id["R7"]].sockets == (0, 0, 0)
    with pytest.raises(ConfigError, match=re.escape("solo_goal_stone")):
        StrategyGame({"num_players": 1, "solo_goal_stone": 5})
    with pytest.raises(ConfigError, match="unknown config key"):
        StrategyGame({"num_player": 2})


def test_enabled_blank_rune_joins_the_deck(tmp_path):
    text = REF.read_text().replace('name = "Blank Rune 38"\nkeyword = "none"\nsockets = []\nenabled = false',
                                   'name = "Blank Rune 38"\nkeyword = "none"\nsockets = [0, 0]\nenabled = true')
    text = text.replace('id = "R38"', 'id = "R38"', 1)
    p = tmp_path / "blank.toml"
    p.write_text(text)
    g = StrategyGame({"num_players": 2, "content": str(p)})
    assert len(g.rules.rune_pool) == 32
