"""Faction files the loader accepts must play by the rules: what a Banner cannot be is refused (it is never
removed by the kill step, turned, maneuvered or consumed as a Regeneration source, D7 and §4.7), the Monolith
module needs two Champions or Runes per faction, and the engine copes with what only content files can do
(an Order wounding its own Banner, Banners of different HP, many Assassin strikes in one phase)."""

from __future__ import annotations

import pytest

from monolith_envs import ConfigError, make_game
from monolith_envs.arena.content import ContentError, load_content
from monolith_envs.arena.positions_text import PositionTextError, parse_position, position_to_text
from monolith_envs.core.fuzz import fuzz_rollout
from tests.arena.test_content import BANNER, CHAMP, HEADER, write


def _faction(tmp_path, p, *, banner_extra="", champ=CHAMP, hp=20, order='order = { effect = "battle" }',
             champ_count=20, rune_count=4, order_count=10):
    """A faction file ``<p>.toml``: Banner, Champions, Runes (when ``rune_count``) and Orders (35 tiles)."""
    parts = [HEADER.replace("{fid}", p).replace("banner_hp = 20", f"banner_hp = {hp}"), BANNER + banner_extra,
             champ.replace("count = 20", f"count = {champ_count}")]
    if rune_count:
        parts.append(f'[[tiles]]\nid = "{{p}}_rune"\nkind = "rune"\ncount = {rune_count}\nconnect = [0, 1]\n')
    parts.append(f'[[tiles]]\nid = "{{p}}_order"\nkind = "order"\ncount = {order_count}\n{order}\n')
    return write(tmp_path, "\n".join(x.replace("{p}", p) for x in parts), f"{p}.toml")


@pytest.mark.parametrize("extra, field, needle", [
    ("kill = [0, 3]\n", "kill", "a Banner cannot have kill edges [0, 3]: the kill step removes its killer"),
    ('features = ["cavalry"]\n', "features", "a Banner cannot have 'cavalry': it is never turned or maneuvered"),
    ('features = ["maneuver"]\n', "features", "a Banner cannot have 'maneuver'"),
    ('effects = [{ effect = "regenerate", kinds = ["champion"] }]\n', "effects",
     "a Banner aura cannot be 'regenerate': a Regeneration source is discarded when used"),
])
def test_what_a_banner_cannot_be_is_refused(tmp_path, extra, field, needle):
    path = _faction(tmp_path, "xx", banner_extra=extra)
    with pytest.raises(ContentError) as caught:
        load_content([path])
    assert (caught.value.tile_id, caught.value.field) == ("xx_banner", field) and needle in str(caught.value)
    load_content([_faction(tmp_path, "xx", banner_extra="kill = []\n")])  # empty kill edges, as the reference


def test_the_monolith_module_needs_two_board_tiles_per_faction(tmp_path):
    few = _faction(tmp_path, "aa", champ_count=1, rune_count=0, order_count=33)
    ok = _faction(tmp_path, "bb")
    config = {"faction_files": [few, ok], "factions": ["aa", "bb"]}
    make_game("monolith_arena_v0", **config)  # without the module the faction plays
    with pytest.raises(ConfigError, match="monolith_module=true hides 2 Champion or Rune tiles of each player in "
                                          "its Monolith, but faction 'aa' has 1"):
        make_game("monolith_arena_v0", monolith_module=True, **config)


def test_an_order_that_eliminates_its_own_player_passes_the_turn_on(tmp_path):
    """3-player ffa: a 1-HP Banner and Orders wounding a Banner of any owner (``who`` defaults to own): when a
    player eliminates itself, the next living seat plays (before: the eliminated seat kept acting)."""
    files = [_faction(tmp_path, "aa", hp=1, order='order = { effect = "wound_target", amount = 1, kinds = ["banner"] }',
                      champ_count=20, rune_count=0, order_count=14),
             _faction(tmp_path, "bb"), _faction(tmp_path, "cc")]
    g = make_game("monolith_arena_v0", num_players=3, mode="ffa", faction_files=files, factions=["aa", "bb", "cc"])
    result = fuzz_rollout(g, 0)
    assert result.failure is None, result.message


def test_score_returns_sum_to_zero_with_banners_of_different_hp(tmp_path):
    files = [_faction(tmp_path, "aa", hp=10), _faction(tmp_path, "bb", hp=20)]
    g = make_game("monolith_arena_v0", faction_files=files, factions=["aa", "bb"], reward_mode="score")
    result = fuzz_rollout(g, 0)
    assert result.failure is None, result.message
    assert abs(sum(result.returns)) < 1e-5


def test_many_assassin_strikes_in_one_phase_round_trip(tmp_path):
    """A Champion with initiative [1, 1] and strike_any activates twice in phase 1: with 30 of them a phase can
    hold more than 19 pending strikes, and ``to_dict`` / ``from_dict`` must still read the state."""
    champ = CHAMP.replace("initiative = [2]", "initiative = [1, 1]").replace("toughness = 0", "toughness = 0\n"
                                                                             "strike_any = 1")
    files = [_faction(tmp_path, "aa", champ=champ, champ_count=30, rune_count=0, order_count=4),
             _faction(tmp_path, "bb")]
    g = make_game("monolith_arena_v0", faction_files=files, factions=["aa", "bb"])
    result = fuzz_rollout(g, 0)
    assert result.failure is None, result.message


def test_a_finished_game_is_written_for_reading_and_refused_when_read_back():
    import numpy as np

    g = make_game("monolith_arena_v0")
    s = g.initial_state(np.random.default_rng(0))
    pick = np.random.default_rng(100)
    while not g.is_terminal(s):
        g.apply(s, int(pick.choice(np.flatnonzero(g.legal_mask(s)))))
    text = position_to_text(g, s)
    assert text.startswith("# a finished game: parse_position cannot read it back")
    with pytest.raises(PositionTextError, match="sub=GAME_OVER cannot be played: a position is a decision to take, "
                                                "not a finished game"):
        parse_position(text)
    turn = "factions: dragon_empire, lords_of_the_abyss\n0: de_banner\n2: la_banner\nturn: P0 sub=PUSH_DEST\n"
    with pytest.raises(PositionTextError, match="sub=PUSH_DEST cannot be written as text: it needs a pending "
                                                "selection .* allowed: sub=MAIN, sub=DISCARD"):
        parse_position(turn)


def test_a_faction_file_listed_twice_is_named(tmp_path):
    path = _faction(tmp_path, "aa")
    with pytest.raises(ContentError, match="faction file listed twice"):
        load_content([path, str(tmp_path / "." / "aa.toml")])


def test_an_emptied_monolith_segment_keeps_its_revealed_flag_in_the_position_text():
    text = ("factions: dragon_empire, harbingers_of_the_forest\nconfig: monolith_module=true\n9: de_banner\n"
            "11: hf_banner\nmonolith P1: folded seg2=hf_spark revealed2 revealed3\nturn: P0\n")
    game, s = parse_position(text)
    assert s.seg_content[1][1] == -1 and s.seg_revealed[1] == [True, True]
    again = position_to_text(game, s)
    assert "monolith P1: folded seg2=hf_spark revealed2 revealed3" in again
    assert parse_position(again)[1].seg_revealed == s.seg_revealed

