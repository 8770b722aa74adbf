"""``agents.play`` config errors suggest the one more setting that makes the config valid."""

import pytest

from agents.play import _setting_hint, main


@pytest.mark.parametrize("settings, advice", [
    (["num_players=3"], "needs num_players=2, got 3; with 3 players set mode='ffa' as well"),
    (["num_players=4"], "needs num_players=2, got 4; with 4 players set mode='ffa' or 'teams' as well"),
    (["mode=ffa"], "mode='ffa' needs num_players 3 or 4, got 2"),
])
def test_arena_player_count_without_mode_says_the_fix_once(settings, advice, capsys):
    argv = ["monolith_arena_v0"] + [x for s in settings for x in ("--set", s)]
    with pytest.raises(SystemExit) as exc:
        main(argv, input_fn=lambda _p: "quit", output_fn=lambda *_a: None)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("python -m agents.play: error: monolith_arena_v0: mode=")
    assert err.endswith(advice)  # the config error's own advice, not followed by the same fix in --set form


@pytest.mark.parametrize("settings, hint", [
    ({"num_players": 3}, "; with --set num_players=3, add --set mode=ffa"),
    ({"num_players": 4}, "; with --set num_players=4, add --set mode=ffa or --set mode=teams"),
    ({"mode": "ffa"}, "; with --set mode=ffa, add --set num_players=3 or --set num_players=4"),
])
def test_setting_hint_when_the_message_does_not_name_the_fix(settings, hint):
    assert _setting_hint("monolith_arena_v0", settings, "some error") == hint
    assert _setting_hint("monolith_arena_v0", settings, "mode='ffa' or 'teams' with num_players=3 or 4") == ""


def test_no_suggestion_when_no_single_setting_helps(capsys):
    with pytest.raises(SystemExit):
        main(["monolith_strategy_v0", "--set", "num_players=5"], input_fn=lambda _p: "quit",
             output_fn=lambda *_a: None)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == ("python -m agents.play: error: monolith_strategy_v0: config num_players=5 is not allowed; "
                   "expected one of 1, 2, 3, 4")
