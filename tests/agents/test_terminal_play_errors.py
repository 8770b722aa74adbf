"""``agents.play`` config errors suggest the one more setting that makes the config valid."""

import pytest

from agents.play import main


@pytest.mark.parametrize("settings, hint", [
    (["num_players=3"], "with --set num_players=3, add --set mode=ffa\n"),
    (["num_players=4"], "with --set num_players=4, add --set mode=ffa or --set mode=teams\n"),
    (["mode=ffa"], "with --set mode=ffa, add --set num_players=3 or --set num_players=4\n"),
])
def test_arena_player_count_without_mode_suggests_the_mode(settings, hint, capsys):
    argv = ["monolith_arena_v0"] + [x for s in settings for x in ("--set", s)]
    with pytest.raises(SystemExit) as exc:
        main(argv, input_fn=lambda _p: "quit", output_fn=lambda *_a: None)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1] + "\n"
    assert err.startswith("python -m agents.play: error: monolith_arena_v0: mode=")
    assert err.endswith(hint)


def test_no_suggestion_when_no_single_setting_helps(capsys):
    with pytest.raises(SystemExit):
        main(["monolith_strategy_v0", "--set", "num_players=5"], input_fn=lambda _p: "quit",
             output_fn=lambda *_a: None)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == ("python -m agents.play: error: monolith_strategy_v0: config num_players=5 is not allowed; "
                   "expected one of 1, 2, 3, 4")
