"""While the opponents move (a play request holds the game), the state request answers at once with the last
position, marked busy and without stages, so a reloaded page or a second tab says what is going on; and a
browser that leaves before its answer is not a traceback on the server's console."""

from __future__ import annotations

import threading
import time

import numpy as np

import monolith_envs
from agents import RandomAgent
from agents.terminal import pieces_for
from agents.web import WebGame


class SlowAgent(RandomAgent):
    """A random agent that thinks until released (one move at a time)."""

    name = "slow"

    def __init__(self):
        super().__init__()
        self.release = threading.Event()
        self.thinking = threading.Event()

    def act(self, observation, action_mask, rng):
        self.thinking.set()
        assert self.release.wait(30)
        return super().act(observation, action_mask, rng)


def test_the_state_answers_busy_while_an_opponent_thinks(tmp_path):
    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    slow = SlowAgent()
    slow.release.set()  # the game starts with player_0 (the person): nothing to wait for yet
    web = WebGame(env, [None, slow], 0, 2, pieces_for("monolith_arena_v0"), log_dir=tmp_path)
    before = web.view()
    assert before["busy"] is None and before["stages"] is not None
    done: dict = {}
    while web.raw.agent_name_mapping[web.raw.agent_selection] == 0 and not web._over():
        slow.release.clear()
        slow.thinking.clear()
        action = int(np.flatnonzero(web.raw.observe(web.raw.agent_selection)["action_mask"])[0])
        mover = threading.Thread(target=lambda a=action: done.update(view=web.play(web.game_id, a)))
        mover.start()
        if slow.thinking.wait(5):  # this move hands the turn over: the opponent thinks, holding the game
            break
        mover.join()  # the person's decision again (e.g. a Banner placed, then the next setup step)
    else:
        raise AssertionError("the opponent never got the turn")
    t0 = time.monotonic()
    busy = web.view()
    assert time.monotonic() - t0 < 2  # not held until the opponent is done
    assert busy["busy"].startswith("the opponents are moving") and busy["stages"] is None
    assert busy["game_id"] == web.game_id and busy["svg"].startswith("<svg")
    slow.release.set()
    mover.join(30)
    after = web.view()
    assert after["busy"] is None and after["decisions"] > busy["decisions"]
    assert after["decisions"] == done["view"]["decisions"] and after["stages"] is not None


def test_a_browser_that_leaves_mid_answer_prints_no_traceback(tmp_path, capsys):
    from agents.web import make_server

    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    web = WebGame(env, [None, RandomAgent()], 0, 2, pieces_for("monolith_arena_v0"), log_dir=tmp_path)
    server = make_server(web, "127.0.0.1", 0)
    try:
        for exc in (BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "reset"), ValueError("real bug"),
                    ConnectionRefusedError(111, "an agent's own connection")):
            try:
                raise exc
            except Exception:
                server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    err = capsys.readouterr().err
    assert "Broken pipe" not in err and "reset" not in err  # a closed tab is not an error
    assert "ValueError: real bug" in err and "an agent's own connection" in err  # anything else is printed


def test_a_new_game_that_opens_with_the_opponents_is_shown_busy_on_its_own_board(tmp_path):
    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    slow = SlowAgent()
    slow.release.set()
    web = WebGame(env, [slow, None], 1, 2, pieces_for("monolith_arena_v0"), log_dir=tmp_path)  # you are player_1
    first = web.view()
    assert first["decisions"] >= 1 and first["busy"] is None
    slow.release.clear()
    slow.thinking.clear()
    opener = threading.Thread(target=web.new_game, args=(first["game_id"],))
    opener.start()
    assert slow.thinking.wait(5)
    busy = web.view()
    assert busy["busy"] and busy["game_id"] != first["game_id"]  # the new game, not the previous one
    assert busy["decisions"] == 0 and busy["narration"] == [] and busy["result"] is None
    slow.release.set()
    opener.join(30)
    assert web.view()["decisions"] >= 1
