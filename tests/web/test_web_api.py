"""Browser play without a browser: the stages of a move, a game played to the end through the HTTP API, the
refusal of malformed and foreign requests, the hidden information of the page's board, and the command line."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import monolith_envs
from agents.play import main as play_main
from agents.terminal import StagedEntry, pieces_for
from agents.web import MAX_BODY, stage_tree

from .helpers import SHORT, Served, move_of


def _leaves(node: dict) -> list[int]:
    if "action" in node:
        return [node["action"]]
    return [a for o in node["options"] for a in _leaves(o["node"])]


def _path(layout, a: int) -> list:
    fam, idx = layout.split(a)
    return [fam, *idx]


def _check_tree(game, state, pieces) -> int:
    """Every node of the tree offers what terminal play's staged entry offers after the same stages."""
    mask = game.legal_mask(state)
    tree = stage_tree(game, state, mask, pieces)
    assert sorted(_leaves(tree)) == [int(a) for a in np.flatnonzero(mask)]
    entry = StagedEntry(game, state, mask, pieces, 0, input, print)
    nodes, checked = [tree], 0
    while nodes:
        node = nodes.pop()
        if "action" in node:
            continue
        paths = [_path(game.layout, a) for a in _leaves(node)]
        k = 0  # the stages chosen before this node: the common start of its leaves (a lone option is the root's)
        while len(node["options"]) > 1 and all(len(p) > k and p[k] == paths[0][k] for p in paths):
            k += 1
        title, opts = entry._options(paths[0][:k])
        assert (node["title"], [o["label"] for o in node["options"]]) == (title, [t for _, t in opts])
        for o, (v, _) in zip(node["options"], opts):
            assert o["target"] is None or o["target"].endswith(f":{v}")
        nodes.extend(o["node"] for o in node["options"])
        checked += 1
    return checked


@pytest.mark.parametrize("eid,cfg,seed", SHORT)
def test_stage_tree_offers_the_stages_of_terminal_play(eid, cfg, seed):
    env = monolith_envs.make(eid, wrapped=False, **cfg)
    game, pieces = env.game, pieces_for(eid)
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(25):
        if game.is_terminal(env.game_state):
            break
        checked += _check_tree(game, env.game_state, pieces)
        env.step(int(rng.choice(env.legal_actions())))
    assert checked >= 25


def test_stage_tree_names_board_targets_and_forced_stages():
    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    env.reset(seed=2)
    game = env.game
    tree = stage_tree(game, env.game_state, game.legal_mask(env.game_state), pieces_for("monolith_arena_v0"))
    assert tree["auto"] == ["action: select a hex (the only kind of move now)"] and tree["title"] == "hex"
    first = tree["options"][0]
    assert first["target"] == "hex:0" and first["label"] == "hex 00 (empty)"
    assert first["node"] == {"auto": [], "action": game.layout.index("SELECT_HEX", 0),
                             "name": "places its Banner on hex 00", "code": "SELECT_HEX(hex=0)", "targets": []}
    assert stage_tree(game, env.game_state, np.zeros(game.layout.n, bool), None) is None


def test_a_forced_move_names_the_board_elements_of_its_stages():
    """The only legal move (every stage forced) carries the ``data-target`` of the hexes its stages name, so
    the page outlines where it goes (it outlined nothing): e.g. a Push Back's only destination hex."""
    game = monolith_envs.make_game("monolith_arena_v0")
    pieces = pieces_for("monolith_arena_v0")
    seen = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        s = game.initial_state(rng)
        while not game.is_terminal(s) and seen < 5:
            mask = game.legal_mask(s)
            tree = stage_tree(game, s, mask, pieces)
            if "action" in tree and "hex=" in tree["code"]:
                hexes = [int(x) for x in re.findall(r"hex=(\d+)", tree["code"])]
                assert tree["targets"] == [f"hex:{h}" for h in hexes], tree
                seen += 1
            elif "action" in tree:
                assert all(t.startswith("hex:") for t in tree["targets"])
            game.apply(s, int(rng.choice(np.flatnonzero(mask))), rng)
    assert seen >= 5


@pytest.fixture
def served(tmp_path, request):
    eid, cfg, seed = getattr(request, "param", SHORT[0])
    s = Served(eid, cfg, seed, tmp_path)
    yield s
    s.close()


@pytest.mark.parametrize("served", SHORT, indirect=True, ids=[e for e, _, _ in SHORT])
def test_a_game_played_through_the_api_ends_with_the_engines_returns(served):
    status, st = served.request("GET", "/api/state")
    assert status == 200 and st["seat"] == 0 and st["players"][1] == "random"
    assert st["table"] == "opponents: " + ", ".join(f"P{i} random" for i in range(1, len(st["players"])))
    web = served.web
    asks = set()
    while not st["over"]:
        ask = getattr(web.pieces, "decision", None)  # what the decision asks, in words, where the game says
        assert st["ask"] == (ask(web.game, web.raw.game_state) if ask else "")
        asks.add(st["ask"])
        status, st = served.request("POST", "/api/action", {"game_id": st["game_id"], "action": move_of(st, -1)})
        assert status == 200, st
    game, state = web.game, web.raw.game_state
    assert st["decisions"] == len(st["narration"]) == len(web.raw.episode_log.actions)
    assert {e["seat"] for e in st["narration"]} == {0, 1}
    assert st["result"]["returns"] == [round(float(x), 4) for x in game.returns(state)]
    assert st["result"]["outcome"] == [o.value for o in game.outcome(state)]
    assert st["result"]["verdict"] in ("you win", "you lose", "a draw") and st["stages"] is None
    # why it ended: Arena the final Battle's HP (and tie-break) or a Banner at 0, Strategy Final Scoring or a
    # VICTORY, The Monolith the favour (and tie-break)
    start = {"monolith_arena_v0": ("after the final Battle: HP P0 ", "reached 0 HP"),
             "monolith_strategy_v0": ("after Final Scoring: VP P0 ", "reached VICTORY"),
             "the_monolith_v0": ("favour at the end (held objectives counted): P0 ",)}[web.raw.env_id]
    assert st["result"]["reason"] == game.end_reason(state) != "" and st["ask"] == ""
    assert st["svg"] == game.render_svg(state, None)  # the board shows what the result reveals, every seat's cards
    assert st["partners"] == []  # no teams in these games (the teams test names the partner)
    assert any(st["result"]["reason"].startswith(x) or x in st["result"]["reason"] for x in start)
    said = " ".join(" ".join(x.split()) for x in st["narration"][-1]["lines"])  # the last move's narration
    assert " ".join(st["result"]["reason"].split()) in said
    # what the board hid until the end, as terminal play names it: Strategy's hands and private Runes, The
    # Monolith's objectives; Arena hides nothing at the end
    assert st["result"]["hidden"] == web.pieces.final_reveal(game, state, 0)
    assert bool(st["result"]["hidden"]) == (web.raw.env_id != "monolith_arena_v0")
    # every game says what its decisions are for (the person's own, each led by P0)
    assert asks and all(a.startswith("P0") for a in asks), asks
    if web.raw.env_id == "monolith_strategy_v0":
        assert any(a.startswith("P0's turn: ") for a in asks), asks
    elif web.raw.env_id == "monolith_arena_v0":
        assert "P0: choose an empty hex for your Banner" in asks, asks
    else:
        assert "P0 chooses an objective to discard (face down)" in asks, asks
    status, page = served.request("GET", st["result"]["replay"])
    assert status == 200 and '<script id="frames"' in page and f"{len(st['narration'])} decisions" in page
    status, err = served.request("POST", "/api/action", {"game_id": st["game_id"], "action": 0})
    assert status == 409 and "the game is over" in err["error"]
    status, st2 = served.request("POST", "/api/new", {"game_id": st["game_id"]})
    assert status == 200 and st2["game_id"] != st["game_id"] and not st2["over"] and st2["seed"] == st["seed"] + 1


def _snapshot(served) -> tuple:
    status, st = served.request("GET", "/api/state")
    assert status == 200
    return st["game_id"], st["decisions"], st["svg"], st["stages"], len(st["narration"])


def test_malformed_and_foreign_requests_get_a_json_error_and_change_nothing(served):
    before = _snapshot(served)
    gid = before[0]
    game = served.web.game
    illegal = int(np.flatnonzero(~game.legal_mask(served.web.raw.game_state))[0])
    port = served.port
    cases = [
        ("POST", "/api/action", b"{bad json", {}, 400, "not valid UTF-8 JSON"),
        ("POST", "/api/action", b"\xff\xfe", {}, 400, "not valid UTF-8 JSON"),
        ("POST", "/api/action", b'{"game_id": "x", "game_id": "y", "action": 1}', {}, 400,
         "not valid UTF-8 JSON: the key 'game_id' appears twice in one object"),
        ("POST", "/api/action", b'{"game_id": "x", "action": NaN}', {}, 400,
         "not valid UTF-8 JSON: NaN is not a JSON number"),
        ("POST", "/api/action", b"[1, 2]", {}, 400, "a JSON object with exactly the keys"),
        ("POST", "/api/action", b"[1, 2]", {}, 400, "; got a JSON array"),
        ("POST", "/api/action", b"{}", {}, 400, "; got an empty object"),
        ("POST", "/api/action", {"game_id": gid, "x": 2}, {}, 400, "; got an object with the keys 'game_id', 'x'"),
        ("POST", "/api/action", b"[" * 4000, {}, 400, "nested too deeply"),
        ("POST", "/api/action", {"game_id": gid}, {}, 400, "exactly the keys 'game_id' (string), 'action'"),
        ("POST", "/api/action", {"game_id": gid, "action": 1, "x": 2}, {}, 400, "exactly the keys"),
        ("POST", "/api/action", {"game_id": gid, "action": "1"}, {}, 400, "action must be an integer"),
        ("POST", "/api/action", {"game_id": gid, "action": 1.0}, {}, 400, "action must be an integer"),
        ("POST", "/api/action", {"game_id": gid, "action": True}, {}, 400, "action must be an integer"),
        ("POST", "/api/action", {"game_id": gid, "action": -1}, {}, 400, f"action must be 0..{game.layout.n - 1}"),
        ("POST", "/api/action", {"game_id": gid, "action": 10**30}, {}, 400, "action must be 0.."),
        ("POST", "/api/action", {"game_id": gid, "action": 10**400}, {}, 400,  # not 401 digits back
         f"action must be 0..{game.layout.n - 1}, got 1{'0' * 19}..."),
        ("POST", "/api/action", {"game_id": 5, "action": 1}, {}, 400, "game_id must be a string"),
        ("POST", "/api/action", {"game_id": "0" * 16, "action": 1}, {}, 409, "is not the current game"),
        ("POST", "/api/action", {"game_id": gid, "action": illegal}, {}, 422,
         f"{game.layout.decode(illegal)} is not legal now: "),
        ("POST", "/api/action", b"x" * (MAX_BODY + 1), {}, 413, f"at most {MAX_BODY}"),
        ("POST", "/api/action", b'{"game_id": "a", "action": 1}', {"Content-Type": "text/plain"}, 415,
         "must be application/json"),
        ("POST", "/api/action", {"game_id": gid, "action": 1}, {"Origin": "http://evil.example"}, 403,
         "the origin 'http://evil.example' are not accepted"),
        ("POST", "/api/action", {"game_id": gid, "action": 1}, {"Origin": f"http://127.0.0.1:{port + 1}"}, 403,
         "are not accepted"),
        ("GET", "/api/state", None, {"Host": f"rebind.example:{port}"}, 403, "is not this server"),
        ("POST", "/api/action", {"game_id": gid, "action": 1}, {"Sec-Fetch-Site": "cross-site"}, 403, "cross-site"),
        ("POST", "/api/new", {"game_id": gid}, {"Origin": "null"}, 403, "are not accepted"),
        ("PUT", "/api/action", {"game_id": gid, "action": 1}, {}, 405, "method PUT is not allowed"),
        ("OPTIONS", "/api/action", None, {}, 405, "method OPTIONS is not allowed"),
        ("GET", "/etc/passwd", None, {}, 404, "no page"),
        ("GET", "/replay/0123456789abcdef.html", None, {}, 404, "no finished game"),
        ("GET", f"/replay/{gid}.html", None, {}, 404, "no finished game"),  # no omniscient replay mid-game
        ("POST", "/api/state", {"game_id": gid}, {}, 404, "no action"),
    ]
    for method, path, body, headers, code, text in cases:
        status, answer = served.request(method, path, body, headers)
        assert status == code and text in answer["error"], (method, path, body, headers, status, answer)
        assert _snapshot(served) == before, (method, path, body, headers)
    status, page = served.request("GET", "/")  # the page itself, from this origin
    assert status == 200 and 'id="options"' in page
    status, _ = served.request("GET", "/api/state", headers={"Origin": f"http://localhost:{port}",
                                                             "Host": f"localhost:{port}"})
    assert status == 200


@pytest.mark.parametrize("served", SHORT, indirect=True, ids=[e for e, _, _ in SHORT])
def test_the_pages_board_shows_no_hidden_fact_of_an_opponent(served):
    """As the drawings' leak test: redraw what the person's seat may not know (``resample_hidden``); the board
    the page shows must not change, while the omniscient drawing does for some state."""
    web = served.web
    game = web.game
    rng = np.random.default_rng(5)
    changed = checked = 0
    status, st = served.request("GET", "/api/state")
    while not st["over"] and checked < 12:
        state = web.raw.game_state
        assert st["svg"] == game.render_svg(state, web.seat)
        other = game.resample_hidden(state, web.seat, rng)
        if hasattr(state, "last_move"):
            other.last_move = state.last_move
        assert game.render_svg(other, web.seat) == st["svg"]
        changed += game.render_svg(other) != game.render_svg(state)
        checked += 1
        ET.fromstring(st["svg"])
        leaves = _leaves(st["stages"])
        status, st = served.request("POST", "/api/action", {"game_id": st["game_id"], "action": leaves[0]})
    assert checked == 12
    if web.raw.env_id != "monolith_arena_v0":  # hidden hands and objectives from the start
        assert changed > 0


def test_cli_refuses_web_options_that_cannot_work(capsys):
    for argv, text in [(["monolith_arena_v0", "--port", "8000"], "--port and --host are options of --web"),
                       (["monolith_arena_v0", "--web", "--port", "70000"], "must be a port number 0-65535"),
                       (["monolith_arena_v0", "--web", "--record", "x.json"], "--record is for terminal play"),
                       (["monolith_arena_v0", "--web", "--opponents", "human"], "an opponent cannot be 'human'"),
                       (["monolith_arena_v0", "--web", "--opponents", "nosuch"], "nosuch"),
                       (["monolith_arena_v0", "--web", "--host", "203.0.113.9", "--port", "0"],
                        "--web: cannot listen on 203.0.113.9:0: ")]:
        with pytest.raises(SystemExit) as e:
            play_main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert text in err and "Traceback" not in err, (argv, err)


@pytest.mark.parametrize("sig,code,by", [(signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")])
def test_cli_serves_on_loopback_prints_the_url_and_stops_on_ctrl_c_or_sigterm(sig, code, by):
    proc = subprocess.Popen([sys.executable, "-m", "agents.play", "the_monolith_v0", "--set", "num_players=2",
                             "--web", "--port", "0", "--opponents", "random", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=os.getcwd())
    try:
        line = proc.stdout.readline()
        assert "open http://127.0.0.1:" in line and "Ctrl-C stops the server" in line, line
        time.sleep(0.2)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code and "Traceback" not in err and f"stopped ({by})" in out, (out, err)
    log_dir = line.rsplit("finished games' logs go to ", 1)[1].strip()
    assert "monolith_web_" in log_dir and not os.path.exists(log_dir)  # no game finished: the folder is gone


def test_a_short_body_times_out_and_a_failing_opponent_is_one_json_error(served, monkeypatch):
    import socket

    from agents.web import server as web_server

    monkeypatch.setattr(web_server._Handler, "timeout", 0.5)
    before = _snapshot(served)
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(f"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Type: application/json"
                     f"\r\nContent-Length: 100\r\n\r\n{{".encode())
        chunks = []
        while chunk := sock.recv(4096):
            chunks.append(chunk)
        answer = b"".join(chunks).decode()
    assert answer.startswith("HTTP/1.0 408") and "100 bytes were announced" in answer
    assert _snapshot(served) == before

    class Broken:
        name = "broken"

        def reset(self):
            pass

        def act(self, *args):
            raise RuntimeError("the model file went away")

    served.web.agents[1] = Broken()
    leaf = _leaves(served.web.view()["stages"])[0]
    status, err = served.request("POST", "/api/action", {"game_id": before[0], "action": leaf})
    assert status == 500 and err == {"error": "the server failed: RuntimeError: the model file went away"}
    view = served.web.view()
    assert view["stages"] is None and not view["over"]  # the opponent's options are never offered
    status, err = served.request("POST", "/api/action", {"game_id": before[0], "action": leaf})
    assert status == 409 and "whose agent failed to move; start a new game" in err["error"]
    status, st = served.request("POST", "/api/new", {"game_id": before[0]})
    assert status == 200 and st["stages"] is not None  # a new game starts with the person's decision


def test_a_person_in_the_second_seat_sees_the_first_seats_move_already_made(tmp_path):
    served = Served("monolith_arena_v0", {}, 3, tmp_path, seat=1)
    try:
        status, st = served.request("GET", "/api/state")
        assert status == 200 and st["seat"] == 1 and st["players"] == ["random", "you"]
        assert [e["seat"] for e in st["narration"]] == [0] and st["decisions"] == 1
        assert st["narration"][0]["lines"][0].startswith("P0 places its Banner on hex ")
        assert "as seen by P1" in st["svg"] and st["stages"]["title"] == "hex"
        hexes = [o["target"] for o in st["stages"]["options"]]
        taken = served.web.raw.episode_log.actions[0] - served.web.game.layout.index("SELECT_HEX", 0)
        assert f"hex:{taken}" not in hexes and len(hexes) == 18
    finally:
        served.close()


def test_a_teams_game_names_the_partner_apart_from_the_opponents(tmp_path):
    served = Served("monolith_arena_v0", {"num_players": 4, "mode": "teams"}, 9, tmp_path, seat=1)
    try:
        status, st = served.request("GET", "/api/state")
        assert status == 200 and st["table"] == "partner: P3 random; opponents: P0 random, P2 random"
        assert st["partners"] == [3]  # the result's table marks P3 "your partner"
    finally:
        served.close()


@pytest.mark.parametrize("seat", [0, 2])
def test_a_ranked_game_of_three_says_the_persons_place(tmp_path, seat):
    """The Monolith ranks every seat (favour, then turn order): 2nd and 3rd of 3 both said "you lose"; the
    verdict now gives the place. Two-seat games and teams keep the plain verdict (the other tests)."""
    served = Served("the_monolith_v0", {"num_players": 3, "num_days": 1}, 4, tmp_path, seat=seat)
    try:
        status, st = served.request("GET", "/api/state")
        while not st["over"]:
            status, st = served.request("POST", "/api/action", {"game_id": st["game_id"], "action": move_of(st)})
            assert status == 200, st
        web = served.web
        order = list(web.game.ranking(web.raw.game_state))
        place = order.index(seat) + 1
        base = "you win" if place == 1 else "you lose"
        assert st["result"]["verdict"] == f"{base} ({place}{ {1: 'st', 2: 'nd', 3: 'rd'}[place]} of 3)"
    finally:
        served.close()
