"""Command-line edge cases: a replay page that would overwrite its log, check's seed range and exit status, a
``--preload`` module that fails while importing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from monolith_envs.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "arena_episode.json"


def test_replay_html_refuses_to_overwrite_the_log_it_replays_also_through_a_link(tmp_path, capsys):
    log = tmp_path / "game.json"
    shutil.copy(LOG, log)
    before = log.read_bytes()
    assert main(["replay", str(log), "--html", str(log)]) == 2
    assert "is the episode log being replayed; give another file" in capsys.readouterr().err
    link = tmp_path / "page.html"
    link.symlink_to(log)
    assert main(["replay", str(log), "--html", str(link)]) == 2
    assert main(["replay", str(log), "--html", "  "]) == 2
    assert "--html: the path is empty" in capsys.readouterr().err
    assert log.read_bytes() == before
    assert main(["replay", str(log), "--html", str(tmp_path / "out.html")]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "out.html").read_text().startswith("<!DOCTYPE html>") and " decisions of monolith_arena_v0" in out


def test_check_refuses_seeds_past_the_largest_and_a_failed_check_exits_1(capsys):
    from tests.cli import preload_faulty  # noqa: F401  (registers toy_faulty_v0, whose invariants fail)

    with pytest.raises(SystemExit) as ei:
        main(["check", "toy_tictactoe_v0", "--seed", str(2**128 - 1), "--games", "2"])
    assert ei.value.code == 2
    assert "past the largest seed 2**128-1; give a smaller --seed or fewer --games" in capsys.readouterr().err
    assert main(["check", "toy_tictactoe_v0", "--seed", str(2**128 - 1001), "--games", "2"]) == 0
    import monolith_envs
    from monolith_envs.core.testing import check_env

    with pytest.raises(ValueError, match="seed 340282366920938463463374607431768211455 with 1 games: the check plays"):
        check_env(monolith_envs.env_module("toy_tictactoe_v0").raw_env, games=1, seed=2**128 - 1)  # before any game
    assert main(["check", "toy_faulty_v0", "--games", "20"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("check failed: ") and err.count("\n") == 1


@pytest.mark.parametrize("source, shown", [
    ("raise RuntimeError('boom at import')\n", "importing it raised RuntimeError: boom at import at "),
    ("def f(:\n", "importing it raised SyntaxError: "),
    ("import sys\nsys.exit(5)\n", "importing it raised SystemExit: 5 at "),
    ("import json\njson.loads('{bad')\n", "importing it raised JSONDecodeError: Expecting property name"),
])
def test_a_preload_module_that_fails_while_importing_is_one_error_line(source, shown, tmp_path, monkeypatch, capsys):
    name = f"preload_fails_{abs(hash(source))}"
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["list", "--preload", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --preload '{name}': {shown}") and err.count("\n") == 1 and "Traceback" not in err
    if "SyntaxError" not in shown:  # the place named is in the module's own file, not in a library it called
        assert err.rstrip().endswith(f"{tmp_path / name}.py:{source.count(chr(10))}")


def test_evaluate_names_a_spec_given_twice():
    from training.evaluate import run_tournament

    with pytest.raises(ValueError) as ei:
        run_tournament("toy_tictactoe_v0", ["random", "heuristic", "random"], 2, 0, workers=1)
    assert str(ei.value) == ("each agent spec once: 'random' is given more than once in ['random', 'heuristic', "
                             "'random'] (a spec meets every other one, seats rotating)")


def test_make_vec_names_a_bad_start_method_even_without_workers():
    import monolith_envs
    from monolith_envs.core.config import ConfigError

    for workers in (0, 1):
        with pytest.raises(ConfigError, match="make_vec: start_method='bogus' is not allowed; expected None"):
            monolith_envs.make_vec("toy_tictactoe_v0", 2, workers=workers, start_method="bogus")


def test_fuzz_shows_control_characters_of_a_failure_message_escaped(tmp_path, capsys):
    from monolith_envs.core.fuzz import run_fuzz
    from monolith_envs.core.game import InvariantError
    from tests.toy_game import ToyGame

    class EscapingGame(ToyGame):
        def check_invariants(self, s):
            super().check_invariants(s)
            if s.decisions == 3:
                raise InvariantError("broken \x1b[2J here")

    assert run_fuzz(EscapingGame, games=1, seed=0, workers=1, config={}, out_dir=str(tmp_path), progress=False,
                    env_id="toy_escaping_v0") == 1
    out = capsys.readouterr().out
    assert "broken \\x1b[2J here" in out and "\x1b" not in out


def test_replay_cuts_long_log_text_says_a_log_that_stops_early_and_names_the_log_in_html_errors(tmp_path, capsys):
    import json

    data = json.loads(LOG.read_text())
    long_cfg = tmp_path / "long.json"
    long_cfg.write_text(json.dumps({**data, "config": {**data["config"], "factions": "A" * 200_000}}))
    assert main(["replay", str(long_cfg), "--quiet"]) == 2
    head = capsys.readouterr().out.splitlines()[0]
    assert len(head) < 700 and head.endswith("actions=156") and "characters)" in head  # cut, saying how long
    short = tmp_path / "short.json"
    short.write_text(json.dumps({**data, "actions": data["actions"][:10], "chance": None,
                                 "note": "first\nsecond\nthird"}))
    assert main(["replay", str(short), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "note: first (+2 more lines in the log's note)" in out
    assert out.rstrip().endswith("(the log ends before the game does: the returns so far)")
    assert main(["replay", str(LOG), "--quiet"]) == 0  # a finished game says nothing of the kind
    assert "the log ends before" not in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**data, "actions": data["actions"][:3] + [99999], "chance": None}))
    assert main(["replay", str(bad), "--html", str(tmp_path / "bad.html")]) == 2
    assert capsys.readouterr().err == f"error: {bad}: actions[3] = 99999 is out of range: monolith_arena_v0 " \
                                      "actions are 0 to 499\n"


def test_playthrough_in_an_empty_folder_names_the_command_that_stores_them(tmp_path, capsys):
    assert main(["playthrough", "--dir", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert all(ln.endswith(": missing (regenerate the playthroughs)") for ln in lines[:-1]) and len(lines) > 3
    n = len(lines) - 1
    assert lines[-1] == (f"{n} playthrough(s) differ, {n} of them missing; after a change of the rules or texts that "
                         f"is meant, store them again: python -m monolith_envs playthrough --regenerate --dir {tmp_path}")
