"""Content files and configs the loader accepts must set up and play: what the setup needs is checked when the
game is built (Player Powers for every seat, the intro layout's cards, the solo goal's toll stone), and the
engine copes with what only a content file can do (a Play Anytime card that exiles the caster's own dice)."""

from __future__ import annotations

from importlib.resources import files

import pytest

from monolith_envs import ConfigError, make_game
from monolith_envs.core.fuzz import fuzz_rollout
from monolith_envs.strategy.content import ContentError

REF = (files("monolith_envs.strategy") / "data" / "reference.toml").read_text(encoding="utf-8")
ENV = "monolith_strategy_v0"


def _content(tmp_path, text: str) -> str:
    path = tmp_path / "content.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _card_block(card_id: str) -> tuple[int, int]:
    """Start and end offsets of the ``[[action_card]]`` / ``[[board_card]]`` entry with ``id = card_id``."""
    start = REF.index(f'id = "{card_id}"')
    end = REF.find("\n[[", start)
    return start, end


def _edit(card_id: str, *changes: tuple[str, str]) -> str:
    start, end = _card_block(card_id)
    block = REF[start:end]
    for old, new in changes:
        assert old in block, old
        block = block.replace(old, new)
    return REF[:start] + block + REF[end:]


def test_a_play_anytime_card_exiling_the_casters_own_dice_ends_the_turn_instead_of_a_dead_end(tmp_path):
    """docs §4.5: a player with no pool die is skipped. A Play Anytime Shift that exiles 5 of the caster's own
    dice can empty the pool before the compulsory placement; the turn then ends (before: no legal action)."""
    text = _edit("shift", ("copies = 3", "copies = 8"), ('op = "move_die"', 'op = "exile_die"\n  n = 5'))
    g = make_game(ENV, num_players=3, content=_content(tmp_path, text))
    for seed in (3, 7):
        result = fuzz_rollout(g, seed)
        assert result.failure is None, result.message


def test_player_powers_need_one_card_per_seat(tmp_path):
    pp = [a for a in make_game(ENV).rules.content.actions if a.deck == "player_power"]
    assert len(pp) >= 4
    text = REF
    for card in pp[2:]:  # keep two Player Power cards: cut the others' entries
        start = text.index(f'id = "{card.id}"')
        start = text.rindex("[[action_card]]", 0, start)
        end = text.find("\n[[", start + 1)
        text = text[:start] + (text[end + 1:] if end >= 0 else "")
    path = _content(tmp_path, text)
    assert len([k for k in make_game(ENV, content=path, num_players=2, player_powers=True).rules.pp_kinds]) == 2
    with pytest.raises(ConfigError, match="player_powers=true deals a Player Power card to each of the 3 players, "
                                          "but the content has 2 in play"):
        make_game(ENV, content=path, num_players=3, player_powers=True)


@pytest.mark.parametrize("card, change, players, missing", [
    ("R7", ('number = "7"', 'number = "7x"'), 3, "7"),
    ("R10", ("enabled = true", "enabled = true\nsolo = false"), 1, "10"),
])
def test_the_intro_layout_needs_its_cards_in_play(tmp_path, card, change, players, missing):
    path = _content(tmp_path, _edit(card, change))
    make_game(ENV, content=path, num_players=players)  # without the intro layout the content plays
    with pytest.raises(ConfigError, match=rf"intro_layout=true places the cards numbered .*, but {missing} is not "
                                          r"in play in this content"):
        make_game(ENV, content=path, num_players=players, intro_layout=True)


def test_the_solo_goal_stone_defaults_to_the_contents_own(tmp_path):
    text = REF.replace("tolls = [[5, 1], [10, 2], [15, 3], [20, 4]]\nsolo_goal_stone = 4",
                       "tolls = [[5, 1], [10, 2]]\nsolo_goal_stone = 2")
    assert text != REF
    path = _content(tmp_path, text)
    g = make_game(ENV, content=path, num_players=3)  # a game of 3 never reads the solo goal
    assert g.config["solo_goal_stone"] == 2
    assert make_game(ENV, content=path, num_players=1).solo_goal == 10
    assert make_game(ENV, content=path, num_players=1, solo_goal_stone=1).solo_goal == 5
    with pytest.raises(ConfigError, match="solo_goal_stone=4 but the content has 2 toll stones: give 1 to 2, or "
                                          r"leave it out for the content's own \(2\)"):
        make_game(ENV, content=path, num_players=1, solo_goal_stone=4)
    assert make_game(ENV).config["solo_goal_stone"] == 4  # the reference content's


def test_score_returns_with_a_small_scale_sum_to_zero_within_float32_precision():
    g = make_game(ENV, player_powers=True, reward_mode="score", score_scale=0.0011)
    result = fuzz_rollout(g, 641153, check_every=0)
    assert result.failure is None, result.message
    assert max(abs(r) for r in result.returns) > 1000  # returns in the thousands: an absolute 1e-5 was too tight


def test_a_chase_bonus_above_a_short_tracks_victory_space_round_trips(tmp_path):
    """docs §4.15: a chase record holds the marker's space (0 .. victory) and the line's bonus (1 .. 10); on a
    track of 8 spaces a bonus of 9 must still be read back by ``from_dict`` (the JSON round trip of each step)."""
    text = REF.replace("victory = 25\ntolls = [[5, 1], [10, 2], [15, 3], [20, 4]]\nsolo_goal_stone = 4",
                       "victory = 8\ntolls = [[5, 1]]\nsolo_goal_stone = 1").replace("  bonus = 3", "  bonus = 9")
    assert text.count("bonus = 9") == 1 and "victory = 8" in text
    g = make_game(ENV, num_players=3, content=_content(tmp_path, text))
    result = fuzz_rollout(g, 0)
    assert result.failure is None, result.message


def test_a_steal_in_a_round_cards_start_group_is_refused_saying_it_cannot_be_used_there(tmp_path):
    old = '  [[round_card.start]]\n  who = "all_players"\n  op = "draw"\n  deck = "skill"\n  n = 1\n'
    assert REF.count(old) >= 1
    text = REF.replace(old, '  [[round_card.start]]\n  who = "all_players"\n  op = "steal_vp"\n'
                            '  from = "chosen_opponent"\n  n = 1\n', 1)
    with pytest.raises(ContentError, match="'chosen_opponent' is not allowed in the START context; no 'from' is, so "
                                           "'steal_vp' \\(which needs one\\) cannot be used in that context"):
        make_game(ENV, content=_content(tmp_path, text))


@pytest.mark.parametrize("players, number, new_set", [(3, "7", "fate"), (1, "3.3", "rune")])
def test_the_intro_layout_needs_each_card_in_its_own_set(tmp_path, players, number, new_set):
    start = REF.index(f'number = "{number}"\n')
    end = REF.index("\n", REF.index("set = ", start))
    text = REF[:start] + REF[start:end].rsplit("set = ", 1)[0] + f'set = "{new_set}"' + REF[end:]
    with pytest.raises(ConfigError, match=f"but {number} is not in play in this content"):
        make_game(ENV, content=_content(tmp_path, text), num_players=players, intro_layout=True)
