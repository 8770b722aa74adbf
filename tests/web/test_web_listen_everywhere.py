"""``--host 0.0.0.0``: a server listening on every address is reached from other machines by this machine's
IP address, which it must accept (an IP address cannot be DNS-rebound), while host names other than the local
ones and other ports stay refused."""

from __future__ import annotations

import threading

import pytest

import monolith_envs
from agents import make_agent
from agents.terminal import pieces_for
from agents.web import WebGame, make_server

from .helpers import Served


@pytest.fixture
def everywhere(tmp_path):
    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    web = WebGame(env, [None, make_agent("random", "monolith_arena_v0")], 0, 2, pieces_for("monolith_arena_v0"),
                  log_dir=tmp_path)
    server = make_server(web, "0.0.0.0", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    served = Served.__new__(Served)  # its request helper, on this server
    served.web, served.server, served.thread = web, server, thread
    served.port = server.server_address[1]
    served.url = f"http://127.0.0.1:{served.port}/"
    yield served
    served.close()


def test_a_server_on_every_address_accepts_its_ip_address_as_host_and_origin(everywhere):
    port = everywhere.port
    for host in (f"192.0.2.7:{port}", f"[2001:db8::7]:{port}", f"127.0.0.1:{port}"):
        status, st = everywhere.request("GET", "/api/state", headers={"Host": host})
        assert status == 200 and st["decisions"] == 0, (host, st)
    gid = st["game_id"]
    status, st = everywhere.request("POST", "/api/new", {"game_id": gid},
                                    {"Host": f"192.0.2.7:{port}", "Origin": f"http://192.0.2.7:{port}"})
    assert status == 200 and st["game_id"] != gid
    refused = [
        ({"Host": f"rebind.example:{port}"}, "or this machine's IP address"),
        ({"Host": f"192.0.2.7:{port + 1}"}, "is not this server"),
        ({"Host": "192.0.2.7"}, "is not this server"),
        ({"Host": f"2001:db8::7:{port}"}, "is not this server"),  # an IPv6 address needs its brackets
        ({"Host": f"192.0.2.7:{port}", "Origin": f"http://192.0.2.8:{port}"}, "are not accepted"),
        ({"Host": f"192.0.2.7:{port}", "Origin": f"http://rebind.example:{port}"}, "are not accepted"),
    ]
    for headers, text in refused:
        status, err = everywhere.request("POST", "/api/new", {"game_id": st["game_id"]}, headers)
        assert status == 403 and text in err["error"], (headers, err)
    assert everywhere.web.game_id == st["game_id"]


def test_a_server_on_loopback_still_refuses_an_ip_address_host(tmp_path):
    served = Served("monolith_arena_v0", {}, 2, tmp_path)
    try:
        status, err = served.request("GET", "/api/state", headers={"Host": f"192.0.2.7:{served.port}"})
        assert status == 403 and "is not this server" in err["error"] and "IP address" not in err["error"]
    finally:
        served.close()


@pytest.mark.parametrize("host, everywhere", [("0", True), ("0x0", True), ("0.0", True), ("::0", True),
                                              ("0.0.0.0", True), ("[::]", True), ("127.0.0.1", False),
                                              ("localhost", False), ("::1", False)])
def test_every_spelling_of_every_address_is_known_as_such(tmp_path, host, everywhere):
    """``--host 0`` (or ``0x0``, ``::0``) binds every address as ``0.0.0.0`` does: the server must know it, so
    that it warns and accepts its IP address (it was judged by the text, and listened everywhere unsaid)."""
    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    web = WebGame(env, [None, make_agent("random", "monolith_arena_v0")], 0, 2, pieces_for("monolith_arena_v0"),
                  log_dir=tmp_path)
    try:
        server = make_server(web, host, 0)
    except OSError as e:  # a machine without IPv6
        pytest.skip(f"cannot listen on {host}: {e}")
    try:
        assert server.wildcard is everywhere
    finally:
        server.server_close()
