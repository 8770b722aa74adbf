"""One person's games against agents, behind the web page: the state the page shows and the moves it sends.

:class:`WebGame` holds the env, the opponents and the person's seat.  The opponents move as soon as it is
their turn, so the state the page reads is always the person's decision or the end of the game.  Every move
(the person's and the opponents') is narrated with the game's terminal narration
(:meth:`agents.terminal.Pieces.narrate`).  A move the page sends is checked in full (the game id, its type,
its range, that it is legal now) before it touches the game; a refused move changes nothing.
"""

from __future__ import annotations

import secrets
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np

from agents.match import MatchResult, seat_verdict, start_episode
from agents.terminal import not_legal_text
from monolith_envs.core.seeds import MAX_SEED
from monolith_envs.core.words import table_text

from .staging import stage_tree

__all__ = ["WebError", "WebGame"]

_VERDICT = {"win": "you win", "draw": "a draw", "loss": "you lose", "success": "you reach the goal",
            "failure": "you miss the goal", "truncated": "the game was cut at its decision limit"}
#: finished games whose replay pages are kept (the oldest are dropped: their pages deleted, their logs kept)
KEEP_FINISHED = 20


def _shown(x: int) -> str:
    """An integer of a request as an answer says it: its first 20 digits and ``...`` when longer (not 400
    digits back)."""
    return str(x) if abs(x) < 10**20 else str(x)[:20] + "..."


class WebError(Exception):
    """A request the game refuses; ``status`` is the HTTP status (4xx), the message says what was wrong."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class WebGame:
    """The person's current game and the finished ones.

    Args:
        env: a raw AEC env (``monolith_envs.make(..., wrapped=False)``).
        agents: one agent per seat; the person's seat's entry is ignored.
        seat: the person's seat.
        seed: the first game's seed; game ``k`` (from 0) uses ``seed + k`` (modulo ``MAX_SEED + 1``).
        pieces: the game's terminal pieces (:func:`agents.terminal.pieces_for`).
        log_dir: where finished games' episode logs and replay pages go (default: a new temporary folder).

    Thread-safe: every public method holds one lock; :meth:`view` waits for it at most 0.2 s and otherwise
    answers at once with the last position built, marked ``busy`` (a reload while an opponent thinks).
    """

    def __init__(self, env: Any, agents: list, seat: int, seed: int, pieces: Any, log_dir: str | Path | None = None):
        self.env, self.raw, self.game = env, env.unwrapped, env.unwrapped.game
        self.agents, self.seat, self.first_seed, self.pieces = agents, seat, seed, pieces
        self.log_dir = Path(log_dir) if log_dir is not None else Path(tempfile.mkdtemp(prefix="monolith_web_"))
        self._own_dir = log_dir is None
        self.lock = threading.Lock()
        self.count = 0
        self.finished: dict[str, Path] = {}  # game id -> episode log of a finished game
        self._last_view: dict | None = None  # the last view built, answered while the opponents move
        self._new()

    def close(self) -> None:
        """Remove the temporary log folder when no finished game was written into it."""
        if self._own_dir:
            try:
                self.log_dir.rmdir()  # only an empty folder goes
            except OSError:
                pass

    # ------------------------------------------------------------------ games
    def _new(self) -> None:
        self.game_id = secrets.token_hex(8)
        self.seed = (self.first_seed + self.count) % (MAX_SEED + 1)
        self.count += 1
        self.narration: list[dict] = []
        self.rngs = start_episode(self.env, self.agents, self.seed, skip=self.seat)
        if not self._over() and not self._yours():  # a second tab, while the opponents open: this game's board
            self._last_view = self._view()
        self._advance()

    def _over(self) -> bool:
        raw = self.raw
        name = raw.agent_selection
        return bool(raw.terminations[name] or raw.truncations[name])

    def _yours(self) -> bool:
        return self.raw.agent_name_mapping[self.raw.agent_selection] == self.seat

    def _step(self, a: int, s: int) -> None:
        before = self.game.clone(self.raw.game_state)
        self.env.step(int(a))
        self.narration.append({"seat": s, "lines": self.pieces.narrate(self.game, before, self.raw.game_state, a, s)})

    def _advance(self) -> None:
        """Play the opponents' moves until the person's decision or the end; save the log at the end."""
        raw = self.raw
        while not self._over():
            s = raw.agent_name_mapping[raw.agent_selection]
            if s == self.seat:
                return
            obs = raw.observe(raw.agent_selection)
            self._step(int(self.agents[s].act(obs["observation"], obs["action_mask"], self.rngs[s])), s)
        self._finish()

    def _finish(self) -> None:
        log = self.raw.episode_log
        log.note = "agents.play --web: " + ", ".join(
            f"P{i}={'you' if i == self.seat else a.name}" for i, a in enumerate(self.agents))
        path = log.save(self.log_dir / f"game{self.count}_{self.game_id}.json")
        self.finished[self.game_id] = Path(path)
        while len(self.finished) > KEEP_FINISHED:  # its episode log stays; its replay page (most of the bytes) goes
            dropped = self.finished.pop(next(iter(self.finished)))
            dropped.with_suffix(".html").unlink(missing_ok=True)

    # ------------------------------------------------------------------ requests
    def _check_id(self, game_id: Any) -> None:
        if not isinstance(game_id, str):
            raise WebError(400, f"game_id must be a string, got {type(game_id).__name__}")
        if game_id != self.game_id:
            raise WebError(409, f"game_id {game_id[:40]!r} is not the current game (a new game was started "
                                "since, perhaps in another tab); reload the page")

    def play(self, game_id: Any, action: Any, decision: Any = None) -> dict:
        """Play the person's ``action`` in game ``game_id``, then the opponents' moves; returns :meth:`view`.

        ``decision``, when given, is the decision number (:meth:`view`'s ``decisions``) of the position the
        move was chosen in: the move is played only if the game is still there, so a page left open in another
        tab, or a request sent twice, never plays an old choice in a newer position.

        Raises:
            WebError: 400 when ``game_id`` is not a string or ``action`` not an integer in ``0..n-1``; 409 when
                the game id is not the current game's, the game is over, ``decision`` is not the current
                decision or an opponent's agent failed to move; 422 when the action is not legal
                now (the message names it by its code and says why in the game's words,
                :func:`agents.terminal.not_legal_text`).  Nothing changes then.
        """
        with self.lock:
            self._check_id(game_id)
            n = self.game.layout.n
            if type(action) is not int:
                raise WebError(400, f"action must be an integer action number 0..{n - 1}, got "
                                    f"{type(action).__name__}")
            if not 0 <= action < n:
                raise WebError(400, f"action must be 0..{n - 1}, got {_shown(action)}")
            if decision is not None and type(decision) is not int:
                raise WebError(400, "decision must be an integer decision number, got "
                                    f"{type(decision).__name__}")
            if decision is not None and decision < 0:
                raise WebError(400, f"decision must be a decision number, 0 or more, got {_shown(decision)}")
            if self._over():
                raise WebError(409, "the game is over; start a new game")
            if decision is not None and decision != self.raw.num_decisions:
                raise WebError(409, f"this move was chosen at decision {_shown(decision)}, but the game is at "
                                    f"decision {self.raw.num_decisions} (played from another tab, or sent twice); "
                                    "nothing was played: choose again in the current position")
            if not self._yours():
                raise WebError(409, f"it is not your turn but {self.raw.agent_selection}'s, whose agent failed to "
                                    "move; start a new game")
            mask = self.raw.observe(self.raw.agent_selection)["action_mask"]
            if not mask[action]:
                exc = self.raw._explain_illegal(action, np.asarray(mask))
                why = getattr(exc, "why", None) or str(exc)  # the engine's; said in the game's words
                raise WebError(422, not_legal_text(self.game, self.raw.game_state, self.pieces, action, why))
            self._step(action, self.seat)
            self._advance()
            return self._view()

    def new_game(self, game_id: Any) -> dict:
        """Start the next game (from the current game ``game_id``); returns :meth:`view`.

        Raises:
            WebError: as :meth:`play` for a wrong ``game_id``.
        """
        with self.lock:
            self._check_id(game_id)
            self._new()
            return self._view()

    def view(self) -> dict:
        """What the page shows, as JSON-ready data.

        Returns:
            ``{"game_id", "env_id", "seed", "seat", "players": [str], "table": str (who sits at the table from
            the person's side: partners in a teams game, then opponents), "partners": [int] (the person's
            partners' seats in a teams game, else []), "decisions": int, "svg": str (the board as the person's
            seat sees it; at the end of a game that ended by its rules, as every seat sees it), "narration": [{"seat": int, "lines": [str]}], "stages": a
            :func:`~agents.web.staging.stage_tree` node or None, "over": bool, "result": None or {"verdict":
            str, "returns": [float], "outcome": [str] or None, "replay": str (the replay page's path), "reason": str
            (why the game ended so: the game's ``end_reason``, e.g. a tie-break; "" for a truncated game), "hidden":
            [str] (what the board hid from the person's seat until the end: the other seats' hands, objectives,
            private cards, terminal play's ``final_reveal``; [] for a truncated game or a game that hides nothing)},
            "notes": [str] (the game's notes on the position, e.g. what the cards do; may be empty), "ask": str
            (what the person's open decision asks, in words, where the game says; else ""), "busy":
            None, or while the opponents are moving (another request holds the game for more than 0.2 s) a
            sentence saying so, with the last position built and ``"stages": None``}``.
        """
        if not self.lock.acquire(timeout=0.2):  # the opponents are moving (play holds the lock): say so now
            busy = self._last_view
            if busy is None:  # the first game is still being set up
                with self.lock:
                    return self._view()
            return {**busy, "stages": None, "busy": "the opponents are moving; the page updates when they are done"}
        try:
            return self._view()
        finally:
            self.lock.release()

    def _view(self) -> dict:
        raw, game, state = self.raw, self.game, self.raw.game_state
        over = self._over()
        stages = None
        if not over and self._yours():
            mask = raw.observe(raw.agent_selection)["action_mask"]
            stages = stage_tree(game, state, mask, self.pieces)
        result = None
        if over:
            ret = np.asarray(game.returns(state), np.float32)
            truncated = not game.is_terminal(state)
            outcome = None if truncated else tuple(game.outcome(state))
            winners = [] if outcome is None else [i for i, o in enumerate(outcome) if o.value in ("win", "success")]
            res = MatchResult(ret, raw.num_decisions, truncated, winners, outcome)
            verdict = _VERDICT[seat_verdict(res, self.seat)]
            ranking = getattr(game, "ranking", None)  # a game that ranks every seat (The Monolith's favour order)
            if (not truncated and callable(ranking) and game.num_players > 2
                    and all(len(t) == 1 for t in game.teams)):
                order = list(ranking(state))
                place = order.index(self.seat) + 1
                verdict += f" ({place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th')} of {len(order)})"
            result = {"verdict": verdict,
                      "returns": [round(float(x), 4) for x in ret],
                      "outcome": None if outcome is None else [o.value for o in outcome],
                      "replay": f"/replay/{self.game_id}.html",
                      "reason": "" if truncated else game.end_reason(state),
                      "hidden": [] if truncated else self.pieces.final_reveal(game, state, self.seat)}
        players = ["you" if i == self.seat else a.name for i, a in enumerate(self.agents)]
        view = {"game_id": self.game_id, "env_id": raw.env_id, "seed": self.seed, "seat": self.seat,
                "players": players, "table": table_text(players, self.seat, game.teams),
                "partners": sorted(i for team in game.teams if self.seat in team for i in team if i != self.seat),
                # a game that ended by its rules shows every seat's hidden cards on the board too, as the
                # result lists them (a cut one keeps them hidden, as its result does)
                "decisions": raw.num_decisions,
                "svg": game.render_svg(state, None if over and game.is_terminal(state) else self.seat),
                "narration": list(self.narration), "stages": stages, "over": over, "result": result,
                "notes": self._notes(state), "ask": self._ask(state) if stages is not None else "", "busy": None}
        self._last_view = view
        return view

    def _ask(self, state: Any) -> str:
        """What the open decision asks, in words, where the game's terminal pieces say (``decision``: e.g.
        ``P0: choose an empty hex for your Banner``, or in the Strategy Game what a toll stone costs and what
        declining does), else ``""``."""
        ask = getattr(self.pieces, "decision", None)
        return str(ask(self.game, state)) if ask else ""

    def _notes(self, state: Any) -> list[str]:
        """The game's notes on the position as the person's seat sees it (terminal play's ``notes``, e.g.
        the Strategy Game's "what the cards do" lines), or ``[]`` for a game without them."""
        notes = getattr(self.pieces, "notes", None)
        return list(notes(self.game, state, self.seat)) if notes else []

    def replay_page(self, game_id: str) -> Path:
        """The replay page of finished game ``game_id`` (written on first use next to its episode log).

        Raises:
            WebError: 404 when ``game_id`` is not a finished game kept here.
        """
        import monolith_envs
        from monolith_envs.core.html_replay import write_html_replay
        from monolith_envs.core.replay import load_log

        with self.lock:
            log_path = self.finished.get(game_id)
            if log_path is None:
                raise WebError(404, "no finished game with that id here")
            page = log_path.with_suffix(".html")
            if not page.exists():
                write_html_replay(load_log(log_path), page,
                                  lambda eid, **cfg: monolith_envs.make(eid, wrapped=False, **cfg))
            return page
