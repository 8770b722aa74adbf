"""Shared pieces of the browser-play tests: a WebGame behind a real server on a free local port."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

import monolith_envs
from agents import make_agent
from agents.terminal import pieces_for
from agents.web import WebGame, make_server

#: short games: (env id, config, seed) — each one ends within about 150 decisions against ``random``
SHORT = [("monolith_arena_v0", {}, 2), ("monolith_strategy_v0", {"num_players": 2}, 2),
         ("the_monolith_v0", {"num_players": 2, "num_days": 1}, 2)]


class Served:
    """A :class:`WebGame` (person at seat 0, ``random`` elsewhere) served on ``127.0.0.1:<free port>``."""

    def __init__(self, env_id: str, config: dict, seed: int, log_dir, seat: int = 0):
        env = monolith_envs.make(env_id, wrapped=False, **config)
        agents = [None if s == seat else make_agent("random", env_id) for s in range(env.game.num_players)]
        self.web = WebGame(env, agents, seat, seed, pieces_for(env_id), log_dir=log_dir)
        self.server = make_server(self.web, "127.0.0.1", 0)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def request(self, method: str, path: str, body: bytes | dict | None = None, headers: dict | None = None):
        """``(status, decoded JSON or text)`` of one request (4xx answers too)."""
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        h = {"Content-Type": "application/json"} if data is not None else {}
        h.update(headers or {})
        req = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, raw, ctype = r.status, r.read(), r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            status, raw, ctype = e.code, e.read(), e.headers.get("Content-Type", "")
        return status, json.loads(raw) if ctype.startswith("application/json") else raw.decode()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


@contextmanager
def opened(wd, env_id: str, config: dict, seed: int, tmp_path, ready: str):
    """A :class:`Served` game loaded in the browser ``wd`` (``ready``: the script that waits until the page is
    ready, which must answer ``"ready"``); yields the served game, closed afterwards."""
    served = Served(env_id, config, seed, tmp_path)
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert wd.cmd("POST", "/execute/async", {"script": ready, "args": []}) == "ready"
        yield served
    finally:
        served.close()


def played(served: Served, before: int, action: int) -> bool:
    """Wait (at most 10 s) until the game of ``served`` has gone past decision ``before``; whether the action
    played there is ``action``."""
    deadline = time.time() + 10
    while served.web.raw.num_decisions == before and time.time() < deadline:
        time.sleep(0.05)
    return served.web.raw.num_decisions > before and served.web.raw.episode_log.actions[before] == action


def move_of(st: dict, pick: int = 0) -> int:
    """The action reached by taking option ``pick`` (0: the first, -1: the last) at every stage of the person's
    decision in the state ``st`` that ``GET /api/state`` answered."""
    node = st["stages"]
    while "action" not in node:
        node = node["options"][pick]["node"]
    return node["action"]


def walk_until(served: Served, stop, what: str, limit: int, pick: int = 0) -> dict:
    """Play the person's moves through the API (:func:`move_of` with ``pick``), waiting while the opponents
    move, until ``stop(state)`` holds for the state answered, and return that state.

    Raises:
        AssertionError: the game ended first, or no such state came within ``limit`` requests (``what``
            names the state sought).
    """
    for _ in range(limit):
        _, st = served.request("GET", "/api/state")
        assert not st["over"], f"the game ended before {what}"
        if st["stages"] is None:  # the opponents are moving
            time.sleep(0.05)
            continue
        if stop(st):
            return st
        served.request("POST", "/api/action", {"game_id": st["game_id"], "action": move_of(st, pick)})
    raise AssertionError(f"{what} within {limit} requests")
