"""Terminal play of Monolith: The Strategy Game and The Monolith (``python -m agents.play``): scripted
games narrate every move in 80 columns, options say what they mean, illegal input says why, the commands
work and Ctrl-D ends the game cleanly."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import monolith_envs
from agents.play import main
from agents.terminal import HELP, WIDTH, QuitGame, StagedEntry, pieces_for
from agents.terminal.strategy import StrategyPieces
from agents.terminal.the_monolith import TheMonolithPieces
from tests.agents.test_play import always, scripted

ROOT = Path(__file__).resolve().parents[2]
STRATEGY, MONOLITH = "monolith_strategy_v0", "the_monolith_v0"


def _play(argv, answer="1"):
    out = []
    res = main(argv, input_fn=always(answer), output_fn=out.append)
    text = "\n".join(out)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    return res, text, out


def test_pieces_are_found_for_both_games():
    assert isinstance(pieces_for(STRATEGY), StrategyPieces)
    assert isinstance(pieces_for(MONOLITH), TheMonolithPieces)


def test_scripted_strategy_game_narrates_dice_resolution_and_rounds():
    res, text, out = _play([STRATEGY, "--set", "num_players=2", "--opponents", "random", "--seed", "4"])
    assert res is not None and res.winners == [1] and res.decisions == 74
    assert text.startswith(f"{STRATEGY}, seed 4: you are P0 (player_0); opponents: P1 random")
    assert "Legend. The board is 12 cards in reading order" in text
    assert "P1 takes a gem from the Source\n  P1: gems 0 -> 1" in text
    assert "P1 places a 6 in socket 45 at position 12, R7 Rune of the Hunt" in text
    assert ("  every die is placed: the cards resolve\n  then SR1 Primus Rune (each here: +1 VP): P0: VP 0 -> 1\n"
            "  then R7 Rune of the Hunt (highest: +3 VP): P1: VP 0 -> 3") in text
    assert "  round 2 begins; Round card 2 covers position 7" in text
    assert "P1 casts Nudge" in text and "P1 blocks socket 32" in text
    assert "what the cards do:\n 1 SR1: highest alone: take the Primus Token; each here: +1 VP" in text
    assert "P0's turn: 1 placement left (placing a die is compulsory while one fits)" in text
    assert "choose the socket by the option number on the left:\n   1) socket 00 at position 1, SR1 Primus Rune: needs any" in text
    assert "  game over after round 5: P1 wins; after Final Scoring: VP P0 4, P1 14" in text
    assert out[-1] == "game over after 74 decisions: you lose (returns: P0 -1, P1 +1)"


def test_scripted_solo_game_has_no_opponents_and_says_the_goal():
    res, text, out = _play([STRATEGY, "--set", "num_players=1", "--seed", "2"])
    assert res is not None and res.decisions == 30 and res.outcome[0].value == "failure"
    assert out[0] == f"{STRATEGY}, seed 2: you are P0 (player_0); you play alone (one seat)"
    assert not any(line.startswith("P1") for line in text.splitlines())
    assert out[-1] == "game over after 30 decisions: you miss the goal (returns: P0 -1)"


def test_scripted_monolith_game_narrates_orders_tower_actions_and_days():
    res, text, out = _play([MONOLITH, "--opponents", "random,random,random", "--seed", "4"])
    assert res is not None and res.winners == [0] and res.decisions == 501
    assert "Legend. One line per space of the map" in text
    assert "choose the order:\n   1) march (move warriors; 1 heart, more per extra step)" in text
    assert re.search(r"^  every seat has committed\n  the tower lifts\n(  P\d: hearts on the board: slay .*\n)+"
                     r"  the action phase starts$", text, re.M)
    assert "  day 2 begins; first player P" in text and "  day 4 begins; first player P" in text
    # the rest phase's scoring is said as such, not only as favour under the day's last move
    assert text.count("  the action phase is over: the rest phase scores") == 4
    assert re.search(r"^P[1-3] slays a unit of P[0-3] in \d+ ", text, re.M)
    assert re.search(r"^  P[0-3]: favour \d+ -> \d+", text, re.M)
    assert "  game over: ranking P0 " in text
    assert out[-1].startswith("game over after 501 decisions: you win")
    # a hidden objective is never named when an opponent discards it
    discards = re.findall(r"^P[1-3] discards an objective.*$", text, re.M)
    assert discards and set(discards) == {f"P{q} discards an objective face down" for q in (1, 2, 3)}


def _strategy_turn():
    env = monolith_envs.make(STRATEGY, wrapped=False, num_players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    while not (env.game_state.pending["k"] == 3 and env.game.current_player(env.game_state) == 0):
        env.step(int(rng.choice(env.legal_actions())))
    return env


def _entry(env, eid, answers):
    mask = env._current_mask()
    out = []
    inp = scripted(answers)
    explain = lambda a: str(env._explain_illegal(a, mask).why)  # noqa: E731
    entry = StagedEntry(env.game, env.game_state, mask, pieces_for(eid), 0, inp, out.append, explain)
    return entry, out, inp


def test_strategy_staged_entry_says_why_a_socket_is_illegal_and_commands_work():
    env = _strategy_turn()
    s = env.game_state
    assert s.pool[0][0] >= 1 and s.sock_seat[0] < 0  # a die showing 1; socket 00 (SR1, needs any) is empty
    entry, out, inp = _entry(env, STRATEGY, ["help", "legend", "board", "99", "bogus", "#9999", "x" * 5000, "place",
                                             "die showing 1", "socket 03", "socket 05", "back", "back", "back",
                                             "quit"])
    with pytest.raises(QuitGame):
        entry.read()
    text = " ".join("\n".join(out).split())
    assert HELP.split("\n")[0] in "\n".join(out) and "Legend. The board is 12 cards" in text
    assert "what the cards do:" in text
    assert "99 is not one of the options: choose 1-2" in text
    assert "'bogus' is not a legal action here" in text
    assert "#9999: no such action (actions are #0-#537)" in text
    assert ("socket 03 at position 1, SR1 Primus Rune: needs any is not a legal socket for this move: there is no such socket "
            "on an active card") in text
    assert ("socket 05 at position 2, SR2 Gem Rune: needs 2 is not a legal socket for this move: it needs a die showing 2, "
            "and yours shows 1") in text
    assert "nothing to undo" in text
    assert "that line has 5,000 characters; an answer is an option's number or name" in text
    assert "x" * 201 not in text  # not echoed
    assert [p.split("> ")[0] for p in inp.prompts][7:10] == ["P0 action", "P0 die", "P0 socket"]
    entry, out, _ = _entry(env, STRATEGY, ["place", "die showing 1", "socket 00"])
    assert entry.read() == env.game.layout.index("place", 0, 0)


def test_monolith_staged_entry_orders_and_illegal_input():
    env = monolith_envs.make(MONOLITH, wrapped=False)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    while not (env.game_state.sub == 7 and env.game_state.current == 0):  # ORDER_CHOOSE of seat 0
        env.step(int(rng.choice(env.legal_actions())))
    entry, out, inp = _entry(env, MONOLITH, ["99", "bogus", "#9999", "relent", "back", "comm"])
    assert entry.read() == env.game.action_index("order(commit)")
    text = " ".join("\n".join(out).split())
    assert "action: give an order (the only kind of move now)" in text
    assert "99 is not one of the options: choose 1-" in text and "'bogus' is not a legal order here" in text
    assert "#9999: no such action (actions are #0-#263)" in text and "relent is not legal now: " in text
    assert "5) commit (send your available hearts to the tower; you are done ordering)" in text


@pytest.mark.parametrize("env_id, extra, decisions", [(STRATEGY, ["--set", "num_players=2"], 2),
                                                      (MONOLITH, [], 12)])
def test_ctrl_d_in_a_real_process_ends_cleanly(env_id, extra, decisions, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    n = 2 if env_id == STRATEGY else 4
    cmd = [sys.executable, "-m", "agents.play", env_id, *extra, "--opponents", ",".join(["random"] * (n - 1)),
           "--seed", "4"]
    proc = subprocess.run(cmd, input="help\n1\n", capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert f"game ended by the end of P0's input after {decisions} decisions" in proc.stdout


def test_opponents_for_a_one_seat_game_is_an_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main([STRATEGY, "--set", "num_players=1", "--opponents", "random"], input_fn=always("quit"))
    assert exc.value.code == 2
    assert "has one seat (you play alone), so --opponents takes no agent specs; got 1: random" in capsys.readouterr().err


def test_help_shows_only_meaningful_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in text and "(default: [])" not in text
    assert "--seat SEAT your seat number, or 'random' (default: 0)" in text
    assert "--seed SEED match seed (default: random) --set" in text


def test_arena_hand_names_its_slots_and_a_menu_of_numbered_things_says_which_number_chooses():
    _res, text, _out = _play(["monolith_arena_v0", "--opponents", "random", "--seed", "0"])
    assert "    hand: [slot 1: Rune of Reinforcement*]  [slot 2: Push Back*]\n          [slot 3: Rune of " \
           "Regeneration*]" in text  # a slot is never split across lines
    assert not re.search(r"hand: .*\b\d\) ", text)  # no "2) Morlock" that reads like a menu entry
    assert "choose the hex by the option number on the left:\n   1) hex 00 (empty)" in text
    # a menu whose options carry no numbers of their own keeps the short heading
    assert "choose the action:\n   1) discard a tile" in text


def test_a_zero_padded_number_names_the_hex_as_the_board_labels_it():
    out = []
    main(["monolith_arena_v0", "--opponents", "random", "--seed", "1"], input_fn=scripted(["05", "00", "quit"]),
         output_fn=out.append)
    text = "\n".join(out)
    assert "P0 places its Banner on hex 05" in text  # not option 5 (hex 04)
    # where no option carries a zero-padded number (the action menu), a leading zero is just a number
    assert "0 is not one of the options: choose 1-" in text and "names no action" not in text


def test_a_negative_number_is_a_place_outside_the_list_like_zero():
    out = []
    main(["the_monolith_v0", "--opponents", "random,random,random", "--seat", "1", "--seed", "0"],
         input_fn=scripted(["0", "-1", "²", "-²", "+1", "quit"]), output_fn=out.append)
    text = "\n".join(out)
    assert "0 is not one of the options: choose 1-" in text and "-1 is not one of the options: choose 1-" in text
    assert "'-1' is not a legal" not in text
    # a digit that is not ASCII is text, not a number (no traceback); "+1" is option 1
    assert "'²' is not a legal" in text and "'-²' is not a legal" in text
    assert text.count("is not one of the options") == 2 and "P1 discards an objective" in text.split("'-²'", 1)[1]
