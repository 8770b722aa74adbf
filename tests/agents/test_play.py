"""Terminal play (``python -m agents.play``): scripted games, staged entry, narration, commands, errors."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import monolith_envs
from agents.play import main
from agents.terminal import HELP, WIDTH, Pieces, QuitGame, StagedEntry, pieces_for
from monolith_envs.core.replay import load_log, replay_steps
from tests.toy_game import ENV_ID as TOY

ROOT = Path(__file__).resolve().parents[2]
ARENA = "monolith_arena_v0"


def scripted(answers):
    """An input function that answers the prompts from ``answers`` (then raises EOFError, as Ctrl-D)."""
    it = iter(answers)
    prompts = []

    def inp(prompt):
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    inp.prompts = prompts
    return inp


def always(answer, limit=5000):
    return scripted([answer] * limit)


def test_scripted_arena_game_narrates_every_move_and_battle_in_80_columns():
    out = []
    res = main([ARENA, "--opponents", "random", "--seed", "4"], input_fn=always("1"), output_fn=out.append)
    text = "\n".join(out)
    assert res is not None and res.winners == [1] and res.decisions == 106
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert text.startswith(f"{ARENA}, seed 4: you are P0 (player_0); opponents: P1 random")
    assert "Legend. The board has five rows of hexes" in text
    p1 = [line for line in text.splitlines() if line.startswith("P1 ")]
    assert any(line.startswith("P1 places ") and " on hex " in line and " facing " in line for line in p1)
    assert "  a Battle starts" in text and "  Battle:" in text and "  the Battle ends" in text
    assert "    P1 Morlock is removed from hex 03" in text and "    P0 HP 19 -> 16 (-3)" in text
    assert "  game over: P1 won" in text and out[-1].startswith("game over after 106 decisions: you lose")
    assert out[-2] == "why: after the final Battle: HP P0 16, P1 20"  # why, next to the result


def _main_state():
    """An Arena duel at a main-phase decision of seat 0 with two tiles to place."""
    env = monolith_envs.make(ARENA, wrapped=False)
    env.reset(seed=4)
    lay = env.game.layout
    rng = np.random.default_rng(1)
    while True:
        legal = env.legal_actions()
        places = [a for a in legal if lay.split(int(a))[0] == "PLACE"]
        if len({lay.split(int(a))[1][0] for a in places}) >= 2 and env.game_state.acting_seat == 0:
            return env
        env.step(int(rng.choice([a for a in legal if lay.split(int(a))[0] != "PLACE"] or legal)))


def test_staged_entry_asks_tile_then_hex_then_facing():
    env = _main_state()
    game, state, lay = env.game, env.game_state, env.game.layout
    mask = env._current_mask()
    slot, h, rot = next(lay.split(int(a))[1] for a in np.flatnonzero(mask) if lay.split(int(a))[0] == "PLACE")
    pieces = pieces_for(ARENA)
    tile = game.tables.name_of[state.itype[state.hand[0][slot]]]
    out = []
    from monolith_envs.arena.board import DIR_NAMES

    inp = scripted(["place", f"slot {slot + 1}", f"hex {h:02d}", DIR_NAMES[rot]])
    a = StagedEntry(game, state, mask, pieces, 0, inp, out.append).read()
    assert a == lay.index("PLACE", slot, h, rot)
    assert [p.split("> ")[0] for p in inp.prompts] == ["P0 action", "P0 tile", "P0 hex",
                                                      "P0 facing"]
    assert "choose the facing:" in "\n".join(out) and f") {DIR_NAMES[rot]}\n" in "\n".join(out) + "\n"
    assert f"slot {slot + 1}: {tile}" in "\n".join(out)


def test_illegal_input_says_why_and_commands_work():
    env = _main_state()
    game, state = env.game, env.game_state
    mask = env._current_mask()
    occupied = next(h for h in range(19) if state.board[h] >= 0)
    out = []
    explain = lambda a: str(env._explain_illegal(a, mask).why)  # noqa: E731
    inp = scripted(["help", "legend", "board", "99", "bogus", "#9999", "#-1", "#-0", "x" * 500, "UNFOLD", "place", "1",
                    f"hex {occupied:02d}", "back", "back", "back", "quit"])
    with pytest.raises(QuitGame):
        StagedEntry(game, state, mask, pieces_for(ARENA), 0, inp, out.append, explain).read()
    text = "\n".join(out)
    assert HELP in text and "Legend." in text and "tiles: " in text
    assert "99 is not one of the options: choose 1-" in text
    assert "'bogus' is not a legal action here" in text
    assert "#9999: no such action (actions are #0-#499)" in text
    assert "#-1: no such action (actions are #0-#499)" in text
    assert "#-0: no such action (actions are #0-#499)" in text
    assert all(len(line) <= WIDTH for line in text.split("\n"))  # the long line's message is wrapped too
    assert "UNFOLD is not legal now: " in text
    name = f"P{state.board[occupied] // 35} {game.tables.name_of[state.itype[state.board[occupied]]]}"
    assert (f"hex {occupied:02d} ({name}) is not a legal hex for this move: it holds {name}; a tile is placed on "
            "an empty hex") in " ".join(text.split())
    assert "nothing to undo" in text


@pytest.mark.parametrize("ending, returned, by", [(EOFError, None, "the end of P0's input"),
                                                 (KeyboardInterrupt, 130, "Ctrl-C")])
def test_ctrl_d_and_ctrl_c_end_the_game_cleanly(ending, returned, by, tmp_path):
    out = []

    def inp(prompt):
        raise ending

    rec = tmp_path / "game.json"
    assert main([ARENA, "--opponents", "random", "--seed", "4", "--record", str(rec)], input_fn=inp,
                output_fn=out.append) == returned  # 130: the exit status of an interrupt, as other commands
    assert f"game ended by {by} after 0 decisions, unfinished (no result)" in "\n".join(out)
    assert load_log(rec).actions == []


def test_sigterm_in_the_game_exits_143_and_keeps_the_record(tmp_path):
    from monolith_envs.core.interrupt import Interrupted

    def inp(prompt):
        raise Interrupted(signal.SIGTERM)  # what stop_on_signals raises at the prompt

    out, rec = [], tmp_path / "game.json"
    assert main([ARENA, "--opponents", "random", "--seed", "4", "--record", str(rec)], input_fn=inp,
                output_fn=out.append) == 143
    assert "game ended by SIGTERM after 0 decisions" in "\n".join(out)
    assert load_log(rec).actions == []


def test_a_stop_while_the_opponents_load_is_one_line_and_leaves_no_empty_record(tmp_path, monkeypatch):
    import agents
    from monolith_envs.core.interrupt import Interrupted

    def loading(*_a, **_k):
        raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(agents, "make_agent", loading)
    out, rec = [], tmp_path / "game.json"
    assert main([ARENA, "--opponents", "baseline", "--seed", "4", "--record", str(rec)], input_fn=always("quit"),
                output_fn=out.append) == 130
    assert out == ["stopped (Ctrl-C) before the game started"]
    assert not rec.exists()  # the path check created it empty; nothing was played, so it is gone


def test_an_agent_error_mid_game_still_writes_the_record(tmp_path, monkeypatch):
    import agents

    class Broken:
        name = "broken"

        def reset(self):
            pass

        def act(self, observation, action_mask, rng):
            raise RuntimeError("broken agent")

    monkeypatch.setattr(agents, "make_agent", lambda *_a, **_k: Broken())
    out, rec = [], tmp_path / "game.json"
    with pytest.raises(RuntimeError, match="broken agent"):
        main([ARENA, "--opponents", "random", "--seed", "4", "--seat", "1", "--record", str(rec)],
             input_fn=always("quit"), output_fn=out.append)
    assert "game stopped by an error after 0 decisions" in "\n".join(out)
    assert load_log(rec).actions == []  # written, not left empty


def test_terminal_eof_in_a_real_process_has_no_traceback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "agents.play", ARENA, "--opponents", "random", "--seed", "4"],
                          input="help\n1\n", capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "game ended by the end of P0's input after 2 decisions" in proc.stdout  # its banner hex, then P1's


def test_terminal_ctrl_c_in_a_real_process_exits_130_and_keeps_the_record(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    rec = tmp_path / "game.json"
    proc = subprocess.Popen([sys.executable, "-m", "agents.play", ARENA, "--opponents", "random", "--seed", "4",
                             "--record", str(rec)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        seen = ""
        while not seen.endswith("P0 hex> "):  # the first prompt: the banner hex
            ch = proc.stdout.read(1)
            assert ch, proc.stderr.read()[-2000:]
            seen += ch
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "game ended by Ctrl-C after 0 decisions" in out
    assert load_log(rec).actions == []  # the record of the game so far is written


def test_ctrl_c_before_the_agents_load_exits_130_without_a_traceback(tmp_path):
    # a --preload module that blocks stands for slow imports / env construction, before the signal handlers
    (tmp_path / "slow_preload.py").write_text("import sys, time\nprint('ready', flush=True)\ntime.sleep(60)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "agents.play", ARENA, "--opponents", "random", "--preload",
                             "slow_preload"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert proc.stdout.readline() == "ready\n", proc.stderr.read()[-2000:]  # the preload sleeps, then exits
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err[-2000:]
    assert out == "stopped (Ctrl-C) before the game started\n" and err == ""


@pytest.mark.parametrize("opponents, n, seats", [("mcts:400,heuristic", 2, "player_1"),
                                                  ("random,random,random", 3, "player_1, player_2")])
def test_wrong_number_of_opponents_is_an_error_naming_the_seats(opponents, n, seats, capsys):
    with pytest.raises(SystemExit) as exc:
        main([ARENA, "--set", f"num_players={n}", "--set", f"mode={'duel' if n == 2 else 'ffa'}", "--opponents",
              opponents], input_fn=always("quit"))
    err = capsys.readouterr().err
    wants = (f"one agent spec, for {seats}" if n == 2 else
             f"either 1 agent spec for all 2 other seats or 2 specs, one each for {seats}")
    assert exc.value.code == 2 and f"--opponents takes {wants}; got" in err and f"has {n} seats" in err


def test_one_opponent_spec_plays_every_opponent_seat(capsys):
    main([ARENA, "--set", "num_players=3", "--set", "mode=ffa", "--opponents", "random", "--seed", "3"],
         input_fn=always("quit"))
    out = " ".join(capsys.readouterr().out.split())
    assert "opponents: P1 random, P2 random" in out and "game ended by P0 quitting after 0 decisions" in out, out[:600]


@pytest.mark.parametrize("seat, partner, opponents", [(0, "P2", "P1 random, P3 random"),
                                                     (3, "P1", "P0 random, P2 random")])
def test_a_teams_game_names_the_partner_apart_from_the_opponents(seat, partner, opponents, capsys):
    """Arena's 2 v 2: seats 0 and 2 against 1 and 3; the partner is not called an opponent."""
    main([ARENA, "--set", "num_players=4", "--set", "mode=teams", "--opponents", "random", "--seed", "9",
          "--seat", str(seat)], input_fn=always("quit"))
    out = " ".join(capsys.readouterr().out.split())
    assert f"you are P{seat} (player_{seat}); partner: {partner} random; opponents: {opponents}" in out, out[:600]


def test_record_writes_a_replayable_log_and_generic_pieces_play_the_toy_game(tmp_path):
    cells = [f"cell {k}" for k in (4, 0, 8, 2, 6, 1, 3, 5, 7)] * 2
    out = []
    rec = tmp_path / "my games" / "toy.json"  # a space in the path: the printed replay command quotes it
    rec.parent.mkdir()
    res = main([TOY, "--opponents", "random", "--seed", "3", "--record", str(rec)], input_fn=scripted(cells),
               output_fn=out.append)
    assert res is not None and res.decisions >= 5
    hint = next(line for line in out if line.startswith("episode log written"))
    words = shlex.split(hint.split("(", 1)[1].rstrip(")"))
    assert words == ["python", "-m", "monolith_envs", "replay", str(rec), "--html", str(rec.with_suffix(".html"))]
    assert isinstance(pieces_for(TOY), Pieces) and type(pieces_for(TOY)) is Pieces
    log = load_log(rec)
    assert "P0=you, P1=random" in log.note and len(log.actions) == res.decisions
    *_, (_, _, env) = replay_steps(log, lambda eid, **c: monolith_envs.make(eid, wrapped=False, **c))
    assert env.game.is_terminal(env.game_state)
    assert any(line.startswith("P1: MARK(cell=") for line in out)  # the generic narration


@pytest.mark.parametrize("bad", [["--seat", "9"], ["--set", "nope=1"]])
def test_an_argument_error_leaves_no_empty_record_file(bad, tmp_path):
    rec = tmp_path / "game.json"
    with pytest.raises(SystemExit) as ei:
        main([ARENA, "--opponents", "random", "--record", str(rec), *bad], input_fn=always("quit"))
    assert ei.value.code == 2 and not rec.exists()


def test_record_makes_missing_folders(tmp_path):
    rec = tmp_path / "new" / "deeper" / "game.json"
    assert main([ARENA, "--opponents", "random", "--seed", "4", "--record", str(rec)], input_fn=always("quit"),
                output_fn=lambda *_: None) is None  # quit: the game ends, exit status 0
    assert load_log(rec).actions == []


def test_arena_narration_says_where_a_tile_moved():
    """A Push Back, Charge, Swap or Teleport moves a tile on the board: the narration names both hexes, in
    the step that moves it or, for a move that ends with its facing, in the step before (where it goes)."""
    from monolith_envs.arena.state import Loc
    from monolith_envs.monolith_arena_v0 import raw_env

    env, pieces, moves = raw_env(num_players=2), pieces_for(ARENA), 0
    game = env.game
    for seed in range(3):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        prev = ""
        while not env.game_state.terminal:
            before, a = game.clone(env.game_state), int(rng.choice(np.flatnonzero(env._current_mask())))
            env.step(a)
            after = env.game_state
            text = "\n".join(pieces.narrate(game, before, after, a, 0))
            for i in range(len(before.loc)):
                if before.loc[i] == after.loc[i] == Loc.BOARD and before.hexof[i] != after.hexof[i]:
                    moves += 1
                    said = prev + "\n" + text
                    assert f"hex {before.hexof[i]:02d}" in said and f"hex {after.hexof[i]:02d}" in said, said
            prev = text
    assert moves >= 3


def test_an_agent_that_fails_to_load_leaves_no_folders_made_for_the_record(tmp_path, capsys):
    (tmp_path / "kept").mkdir()
    rec = tmp_path / "kept" / "new" / "deeper" / "game.json"
    with pytest.raises(SystemExit) as ei:
        main([ARENA, "--opponents", f"ppo:{tmp_path / 'missing.zip'}", "--record", str(rec)], input_fn=always("quit"))
    assert ei.value.code == 2 and "missing.zip" in capsys.readouterr().err
    assert not (tmp_path / "kept" / "new").exists() and (tmp_path / "kept").is_dir()  # only what it made goes


def test_back_at_a_heading_says_nothing_to_undo_and_odd_bytes_are_shown_readably():
    """The Banner setup has one kind of action (said as a heading): ``back`` there has nothing to undo and
    says so; bytes that are not UTF-8 are echoed as U+FFFD, not as Python's surrogate escapes."""
    lines = iter(["back", "\udcff\udcfe", "quit"])
    out: list[str] = []
    main([ARENA, "--opponents", "random", "--seed", "1"], input_fn=lambda prompt: next(lines), output_fn=out.append)
    text = "\n".join(out)
    assert "nothing to undo: this is the first stage of the move" in text
    assert "'\ufffd\ufffd' is not a legal hex here" in text and "udcff" not in text


@pytest.mark.parametrize("typed", ["hex 5", "hex5", "HEX 05", "hex 005"])
def test_a_hex_typed_without_its_leading_zero_names_it(typed):
    """The board labels hex 5 ``05``; ``hex 5`` names it by value as ``hex 05`` does (it was refused as not a
    legal hex while hex 05 was)."""
    lines = iter([typed, "quit"])
    out: list[str] = []
    main([ARENA, "--opponents", "random", "--seed", "1"], input_fn=lambda prompt: next(lines), output_fn=out.append)
    text = "\n".join(out)
    assert "P0 places its Banner on hex 05" in text and "is not a legal hex" not in text


def _transcript(env_id: str, seed: str, answers: list[str]) -> str:
    lines = iter(answers + ["quit"])
    out: list[str] = []
    main([env_id, "--opponents", "random", "--seed", seed], input_fn=lambda prompt: next(lines), output_fn=out.append)
    return "\n".join(out)


def test_a_number_typed_with_its_word_names_that_number_not_one_starting_with_it():
    # "socket 4" once matched "socket 44" by its text (socket 04 was on offer too), "hex 1" 9 hexes
    text = _transcript("monolith_strategy_v0", "11", ["1", "1", "socket 4"])
    assert "4) socket 04" in text and "socket 44" in text and "P0 places a 1 in socket 04 at position 2, SR2 Gem Rune" in text
    assert "P0 places a 1 in socket 44" not in text
    text = _transcript(ARENA, "1", ["hex 1"])
    assert "P0 places its Banner on hex 01" in text and "matches" not in text


def test_an_illegal_socket_typed_without_its_zero_gets_the_rules_reason():
    text = _transcript("monolith_strategy_v0", "1", ["1", "1", "2", "socket 5"])
    assert ("socket 05 at position 2, SR2 Gem Rune: needs 2 is not a legal socket for this move: it needs a die "
            "showing 2, and yours shows 6") in " ".join(text.split())  # as wrapped at 80 columns


def test_a_hex_number_with_no_such_hex_is_still_refused():
    lines = iter(["hex 50", "quit"])
    out: list[str] = []
    main([ARENA, "--opponents", "random", "--seed", "1"], input_fn=lambda prompt: next(lines), output_fn=out.append)
    text = "\n".join(out)
    assert "'hex 50' is not a legal hex here" in text and "places its Banner" not in text


def test_arena_use_a_feature_lists_only_the_kinds_with_a_legal_use():
    pieces = pieces_for(ARENA)
    game = monolith_envs.make_game(ARENA)
    lay, names = game.layout, ["maneuver", "teleport", "swap", "rotate"]
    said = set()
    for seed in range(6):
        rng, pick = np.random.default_rng(seed), np.random.default_rng([seed, 1])
        s = game.initial_state(rng)
        while not game.is_terminal(s):
            mask = game.legal_mask(s)
            kinds = [names[f] for f in range(4) if any(mask[lay.index("USE_FEATURE", f, h)] for h in range(19))]
            if kinds:
                text = pieces.family_option(game, s, "USE_FEATURE")
                assert text == f"use a feature ({', '.join(kinds)})"
                said.add(text)
            game.apply(s, int(pick.choice(np.flatnonzero(mask))), rng)
    assert len(said) >= 3  # several different sets of kinds were seen


def test_the_note_on_a_number_chosen_by_place_is_given_once_a_game_for_each_kind():
    # nearly every socket pick once printed "note: 2 chose option 2 (socket 01 ...); socket 02 ... is option 3"
    answers = iter(["1"] * 400 + ["quit"])
    out: list[str] = []
    main(["monolith_strategy_v0", "--opponents", "random", "--seed", "7"], input_fn=lambda p: next(answers),
         output_fn=out.append)
    text = "\n".join(out)
    notes = [ln for ln in text.splitlines() if ln.startswith("note: ")]
    assert text.count("P0 places a ") >= 5  # many sockets were chosen by their place in the list
    assert len(notes) == 2 and notes[0].startswith("note: 1 chose option 1 (socket 00 at position 1, ")
    assert notes[1].startswith("note: 1 chose option 1 (0 gems for 0 VP); 1 gem for 1 VP is option 2")


@pytest.mark.parametrize("env_id, settings, revealed", [
    ("monolith_strategy_v0", [], "hidden until now:\n  P1 hand: Reroll x2, Nudge, Sabotage, Shift\n"
                                 "  P2 hand: Augment, Pilfer, Prospect\n"),
    ("the_monolith_v0", ["--set", "num_players=3"],
     "hidden until now:\n  P1 objectives: O01 Occupation, O13 Braggart, O17 Wrathful\n"
     "  P2 objectives: O14 Balanced Realm, O11 Trespasser, O02 Keeper of Scrolls\n"),
])
def test_the_end_of_a_game_names_what_the_board_hid(env_id, settings, revealed):
    # after the game the other seats' hands and objectives were still "5 hidden"
    seed = "7" if env_id == "monolith_strategy_v0" else "3"
    answers = iter(["1"] * 3000 + ["quit"])
    out: list[str] = []
    main([env_id, "--opponents", "random", "--seed", seed, *settings], input_fn=lambda p: next(answers),
         output_fn=out.append)
    text = "\n".join(out) + "\n"
    assert text.count("hidden until now:") == 1 and revealed in text
    assert text.index("game over") < text.index("hidden until now:")  # only once the game is over


def test_a_game_cut_off_by_its_decision_limit_names_nothing_hidden():
    answers = iter(["1"] * 400 + ["quit"])
    out: list[str] = []
    main(["monolith_strategy_v0", "--opponents", "random", "--seed", "7", "--set", "max_decisions=20"],
         input_fn=lambda p: next(answers), output_fn=out.append)
    text = "\n".join(out)
    assert "truncated" in text and "hidden until now" not in text


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"])
def test_every_legend_line_fits_the_terminal_width(env_id):
    """The legend printed at the start of a game is laid out by hand: no line may pass WIDTH (80) columns,
    which a terminal would wrap raggedly."""
    import monolith_envs
    from agents.terminal import WIDTH, pieces_for

    legend = pieces_for(env_id).legend(monolith_envs.make_game(env_id))
    assert legend.strip() and max(len(line) for line in legend.splitlines()) <= WIDTH
