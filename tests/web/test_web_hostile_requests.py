"""Requests a browser never sends, found by trying to break the server by hand: the standard library's own
refusals (a request line it cannot parse, an unknown method, a URI or header block too long) must be the same
JSON error as every other refusal, an odd ``Content-Length`` must be refused, not crash the handler, and a
move chosen in an older position (a second tab, a request sent twice) must not be played in the new one."""

from __future__ import annotations

import json
import socket

import pytest

from .helpers import SHORT, Served, move_of


@pytest.fixture
def served(tmp_path):
    s = Served(*SHORT[0], tmp_path)
    yield s
    s.close()


def _raw(served, data: bytes) -> tuple[str, dict, dict]:
    """(status line, headers, JSON body) of the answer to ``data`` sent as is."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return lines[0], headers, json.loads(body)


def _snapshot(served) -> tuple:
    status, st = served.request("GET", "/api/state")
    assert status == 200
    return st["game_id"], st["decisions"], st["svg"], len(st["narration"])


def test_requests_the_base_class_refuses_get_a_json_error_with_a_status_line(served):
    host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
    before = _snapshot(served)
    cases = [
        (b"GARBAGE\r\n\r\n", "400", "Bad request syntax"),
        (b"GET / HTTP/9.9\r\n" + host + b"\r\n", "505", "Invalid HTTP version"),
        (b"GET /\r\n\r\n", "505", "HTTP/0.9 is not served"),  # no version: it was a bare body, no status line
        (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n" + host + b"\r\n", "414", "Request-URI Too Long"),
        (b"GET / HTTP/1.1\r\n" + host + b"".join(b"X-%d: 1\r\n" % i for i in range(120)) + b"\r\n", "431",
         "Too many headers"),
        (b"FOO / HTTP/1.1\r\n" + host + b"\r\n", "501", "method 'FOO' is not supported"),
    ]
    for data, code, text in cases:
        status, headers, body = _raw(served, data)
        assert status.startswith(f"HTTP/1.0 {code} "), (data[:40], status)
        assert headers["Content-Type"] == "application/json; charset=utf-8" and text in body["error"], body
        assert _snapshot(served) == before


@pytest.mark.parametrize("length,code,text", [
    ("\xb2", 411, "a Content-Length header"),   # '²': str.isdigit() is true, int() fails
    ("\u0663", 411, "a Content-Length header"),  # Arabic-Indic three (not latin-1: sent as '?')
    ("+5", 411, "a Content-Length header"),
    ("9" * 5000, 413, "at most"),               # int() of it would exceed Python's digit limit
    ("99999999999", 413, "at most"),
])
def test_odd_content_lengths_are_refused_not_a_server_failure(served, length, code, text):
    before = _snapshot(served)
    data = (f"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n{{}}").encode("latin-1", "replace")
    status, _, body = _raw(served, data)
    assert status.startswith(f"HTTP/1.0 {code} ") and text in body["error"], (status, body)
    assert _snapshot(served) == before


def test_a_move_chosen_at_an_older_decision_is_not_played(served):
    status, st = served.request("GET", "/api/state")
    gid, at = st["game_id"], st["decisions"]
    first = move_of(st)
    status, st2 = served.request("POST", "/api/action", {"game_id": gid, "action": first, "decision": at})
    assert status == 200 and st2["decisions"] > at
    # the same request again (a second tab that still shows decision `at`, or a repeated click): refused even
    # when an action of that number is legal now, and nothing changes
    played = list(served.web.raw.episode_log.actions)
    before = _snapshot(served)
    for stale in (move_of(st2), first):
        status, err = served.request("POST", "/api/action", {"game_id": gid, "action": stale, "decision": at})
        assert status == 409 and f"chosen at decision {at}, but the game is at decision {st2['decisions']}" in (
            err["error"])
        assert _snapshot(served) == before and served.web.raw.episode_log.actions == played
    for bad in ("3", 1.0, True):
        status, err = served.request("POST", "/api/action", {"game_id": gid, "action": first, "decision": bad})
        assert status == 400 and "decision must be an integer" in err["error"], (bad, err)
    status, err = served.request("POST", "/api/action", {"game_id": gid, "action": first, "decision": -5})
    assert status == 400 and err["error"] == "decision must be a decision number, 0 or more, got -5"
    assert _snapshot(served) == before
    status, err = served.request("POST", "/api/action", {"game_id": gid, "action": first, "turn": 3})
    assert status == 400 and "optionally 'decision'" in err["error"]
    # with the current decision, or without one (scripts), the move is played
    status, st3 = served.request("POST", "/api/action",
                                 {"game_id": gid, "action": move_of(st2), "decision": st2["decisions"]})
    assert status == 200 and st3["decisions"] > st2["decisions"]
    status, st4 = served.request("POST", "/api/action", {"game_id": gid, "action": move_of(st3)})
    assert status == 200 and st4["decisions"] > st3["decisions"]


def test_connections_beyond_the_cap_get_a_503_and_the_server_goes_on(tmp_path, monkeypatch):
    """Each connection holds a thread: idle ones beyond MAX_CONNECTIONS are answered 503 at once and closed,
    and once one closes the server answers again."""
    import time

    import agents.web.server as server_mod

    monkeypatch.setattr(server_mod, "MAX_CONNECTIONS", 2)
    served = Served("monolith_arena_v0", {}, 0, tmp_path)
    idle = []
    try:
        for _ in range(2):  # two connections that send nothing: each holds its thread
            idle.append(socket.create_connection(("127.0.0.1", served.port), timeout=10))
        time.sleep(0.3)
        status, err = served.request("GET", "/api/state")
        assert status == 503 and err["error"].startswith("the server is serving 2 connections, the most it takes")
        idle.pop().close()
        for _ in range(50):  # its thread ends once the server reads the closed connection
            status, st = served.request("GET", "/api/state")
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200 and st["env_id"] == "monolith_arena_v0"
    finally:
        for c in idle:
            c.close()
        served.close()


def test_one_address_of_another_machine_cannot_take_every_connection(tmp_path, monkeypatch):
    """With --host 0.0.0.0: a client address of another machine holds at most MAX_PER_CLIENT connections, and
    LOOPBACK_RESERVE of them stay for this machine's clients."""
    import time

    import agents.web.server as server_mod

    monkeypatch.setattr(server_mod, "MAX_CONNECTIONS", 4)
    monkeypatch.setattr(server_mod, "MAX_PER_CLIENT", 1)
    monkeypatch.setattr(server_mod, "LOOPBACK_RESERVE", 2)
    served = Served("monolith_arena_v0", {}, 0, tmp_path)
    server, pairs = served.server, []

    def connect(ip: str):
        here, there = socket.socketpair()
        pairs.append((here, there))
        server.process_request(here, (ip, 40000 + len(pairs)))  # as if accepted from ``ip``
        there.settimeout(0.3)
        try:
            return there.recv(4096).decode()  # a refusal answers at once; a served connection waits
        except socket.timeout:
            return ""

    try:
        assert connect("10.0.0.5") == ""  # served: its thread waits for the request
        refused = connect("10.0.0.5")
        assert refused.startswith("HTTP/1.1 503") and "1 connections from 10.0.0.5, the most one address" in refused
        assert connect("10.0.0.6") == ""
        other = connect("10.0.0.7")  # 2 of 4 open: the other 2 are kept for loopback clients
        assert "2 connections from other machines, the most it takes" in other
        assert connect("127.0.0.1") == "" and connect("::1") == ""  # loopback: the reserved slots
        assert "4 connections, the most it takes" in connect("127.0.0.1")
        for _, there in pairs:
            there.close()
        for _ in range(50):
            if server._open == 0:
                break
            time.sleep(0.1)
        assert server._open == 0 and server._per_client == {}
    finally:
        for here, there in pairs:
            here.close()
            there.close()
        served.close()


def _trickle(port: int, head: bytes, drip: bytes, seconds: float) -> tuple[bytes, float]:
    """Send ``head``, then one byte of ``drip`` every 0.2 s (each read well within the handler's timeout)
    until the server answers or closes; (what it answered, seconds it took)."""
    import time

    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
        sock.sendall(head)
        got, i = b"", 0
        while time.monotonic() - start < seconds:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                try:
                    sock.sendall(drip[i % len(drip):i % len(drip) + 1])
                except OSError:
                    pass
                i += 1
                continue
            if not chunk:
                break
            got += chunk
    return got, time.monotonic() - start


def test_a_request_trickling_in_is_cut_at_the_request_deadline(tmp_path, monkeypatch):
    """A client sending a byte every 0.2 s never trips the per-read timeout; the whole request still has
    REQUEST_DEADLINE seconds to arrive: headers or a body still arriving then get a 408 JSON answer and the
    connection closes, and the server answers the next client."""
    import agents.web.server as server_mod

    monkeypatch.setattr(server_mod, "REQUEST_DEADLINE", 1.0)
    served = Served("monolith_arena_v0", {}, 0, tmp_path)
    host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
    try:
        got, took = _trickle(served.port, b"GET /api/state HTTP/1.1\r\n" + host, b"X-Slow: aaaaaaaaaa\r\n", 10)
        assert got.startswith(b"HTTP/1.0 408 ") or got.startswith(b"HTTP/1.1 408 "), got[:200]
        assert b"did not arrive whole within 1 s" in got and 0.9 < took < 4, (got[-200:], took)
        body = (b"POST /api/new HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
                b"Content-Length: 200\r\n\r\n")
        got, took = _trickle(served.port, body, b'{"game_id": "', 10)
        assert b" 408 " in got.split(b"\r\n", 1)[0] and b"did not arrive whole within 1 s" in got, got[:300]
        assert took < 4, took
        status, st = served.request("GET", "/api/state")
        assert status == 200 and st["env_id"] == "monolith_arena_v0"
    finally:
        served.close()


def test_two_host_headers_a_foreign_charset_and_a_huge_decision_are_refused_by_name(served):
    """Found by a second try to break the server: a request with two Host headers was judged by its first;
    a body declared in another charset was read as UTF-8 anyway; a 300-digit decision was cut to 20 digits
    with no sign of the cut."""
    before = _snapshot(served)
    gid = before[0]
    body = json.dumps({"game_id": gid, "action": 0}).encode()
    for first, second in ((f"127.0.0.1:{served.port}", "evil.example"), ("evil.example", f"127.0.0.1:{served.port}")):
        status, _, answer = _raw(served, (f"POST /api/action HTTP/1.1\r\nHost: {first}\r\nHost: {second}\r\n"
                                          f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
                                 .encode() + body)
        assert status.startswith("HTTP/1.0 403 ") and answer["error"] == "refused: more than one Host header"
    for ctype, ok in (("application/json; charset=latin-1", False), ('application/json; charset="ISO-8859-1"', False),
                      ("application/json; charset=UTF-8", True), ("application/json;charset=utf8", True)):
        status, _, answer = _raw(served, (f"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                                          f"Content-Type: {ctype}\r\nContent-Length: 2\r\n\r\n{{}}").encode())
        if ok:  # the charset passes; the empty object is then refused for its missing game_id
            assert status.startswith("HTTP/1.0 400 ") and "game_id" in answer["error"], answer
        else:
            assert status.startswith("HTTP/1.0 415 ") and "the body must be UTF-8 JSON, got charset" in answer["error"]
    status, err = served.request("POST", "/api/action", {"game_id": gid, "action": 0, "decision": 10**300})
    assert status == 409 and "chosen at decision 10000000000000000000..., but" in err["error"]
    assert _snapshot(served) == before


def test_dropped_finished_games_lose_their_replay_page_not_their_log(tmp_path, monkeypatch):
    """Only KEEP_FINISHED finished games keep a replay page: an older one's page is deleted from the log
    folder (the folder grew by ~170 KB a game without bound), its episode log stays."""
    import agents.web.session as session_mod

    monkeypatch.setattr(session_mod, "KEEP_FINISHED", 1)
    served = Served("monolith_arena_v0", {}, 0, tmp_path)
    try:
        pages = []
        for _ in range(2):
            status, st = served.request("GET", "/api/state")
            while not st.get("result"):
                status, st = served.request("POST", "/api/action", {"game_id": st["game_id"], "action": move_of(st)})
                assert status == 200, st
            gid = st["game_id"]
            status, _ = served.request("GET", f"/replay/{gid}.html")
            assert status == 200
            pages.append(served.web.log_dir / next(p.name for p in served.web.log_dir.glob(f"*_{gid}.html")))
            served.request("POST", "/api/new", {"game_id": gid})
        assert not pages[0].exists() and pages[0].with_suffix(".json").is_file()  # dropped: the log is kept
        assert pages[1].is_file()
        status, _ = served.request("GET", f"/replay/{pages[0].stem.split('_')[-1]}.html")
        assert status == 404
    finally:
        served.close()
