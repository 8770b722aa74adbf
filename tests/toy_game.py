"""A small test-only game that exercises every part of the core: tic-tac-toe with a hidden card and a die.

Rules: two players mark cells of a 3x3 board (player 0 first). Each player is dealt a hidden card 0-2 at
setup. After every mark that does not end the game a die is rolled (in ``apply``); on a 6 the same player
moves again. Three in a row wins (+1 / -1). A full board without a line is decided by the cards: the higher
card wins, equal cards draw (0 / 0).

Observation (seat-relative): ``board`` [9, 2] (my marks, their marks), ``my_card`` [3] one-hot,
``to_move`` [1], ``progress`` [1] = decisions / max_decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from monolith_envs.core.actions import ActionLayout
from monolith_envs.core.aec import make_env_fns
from monolith_envs.core.base import GameBase
from monolith_envs.core.config import ConfigKey, int_range, validate_config
from monolith_envs.core.game import (
    ChanceMode,
    GameInfo,
    IllegalActionError,
    Information,
    InvariantError,
    Utility,
)
from monolith_envs.core.observation import ObsSpec
from monolith_envs.core.returns import require_terminal, winners_outcome
from monolith_envs.core.state import state_class

LINES = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]])
ENV_ID = "toy_tictactoe_v0"


@state_class
@dataclass
class ToyState:
    board: np.ndarray  # int8[9]: -1 empty, else seat
    cards: np.ndarray  # int8[2]: hidden cards
    player: int
    decisions: int
    winner: int  # -2 running, -1 draw, else seat
    returns: np.ndarray  # float32[2]


CONFIG_KEYS = (
    ConfigKey("max_decisions", 40, "truncation limit", int_range(1)),
    ConfigKey("extra_turn_face", 6, "die face that gives an extra turn (7 = never)", int_range(1, 7)),
)


class ToyGame(GameBase):
    """Tic-tac-toe with hidden cards and an extra-turn die (test-only)."""

    GAME_INFO = GameInfo(env_id=ENV_ID, name="Toy tic-tac-toe", min_players=2, max_players=2,
                         utility=Utility.ZERO_SUM, chance=ChanceMode.DURING_PLAY,
                         information=Information.IMPERFECT, teams=False, config_keys=CONFIG_KEYS, max_length=40)
    STATE_CLASS = ToyState
    CONFIG_KEYS = CONFIG_KEYS
    num_players = 2

    def __init__(self, config=None):
        self.config = validate_config(self.env_id, self.CONFIG_KEYS, config)
        self.max_decisions = self.config["max_decisions"]
        self.layout = ActionLayout([("MARK", (9,), ("cell",))])
        self.obs_spec = ObsSpec([
            ("board", (9, 2), 0, 1, "my marks, their marks"),
            ("my_card", (3,), 0, 1, "one-hot of my hidden card"),
            ("to_move", (1,), 0, 1, "1 if I am to move"),
            ("progress", (1,), 0, 1, "decisions / max_decisions"),
        ])

    def initial_state(self, rng):
        cards = rng.integers(0, 3, size=2).astype(np.int8)
        return ToyState(np.full(9, -1, np.int8), cards, 0, 0, -2, np.zeros(2, np.float32))

    def current_player(self, s):
        return -1 if s.winner != -2 else s.player

    def is_terminal(self, s):
        return s.winner != -2

    def legal_mask(self, s):
        if s.winner != -2:
            return np.zeros(9, bool)
        return s.board == -1

    def apply(self, s, action, rng):
        a = int(action)
        if s.winner != -2:
            raise IllegalActionError(self.layout.decode(a), "the game is over", [])
        if not 0 <= a < 9 or s.board[a] != -1:
            why = "out of range" if not 0 <= a < 9 else f"cell {a} is taken"
            raise IllegalActionError(self.layout.decode(a) if 0 <= a < 9 else str(a), why,
                                     self.layout.names(self.legal_mask(s)))
        p = s.player
        s.board[a] = p
        s.decisions += 1
        if (s.board[LINES] == p).all(axis=1).any():
            s.winner = p
        elif (s.board != -1).all():
            c0, c1 = int(s.cards[0]), int(s.cards[1])
            s.winner = -1 if c0 == c1 else (0 if c0 > c1 else 1)
        if s.winner >= 0:
            s.returns[:] = -1.0
            s.returns[s.winner] = 1.0
        elif s.winner == -2 and int(rng.integers(1, 7)) != self.config["extra_turn_face"]:
            s.player = 1 - p

    def returns(self, s):
        return s.returns.copy()

    def outcome(self, s):
        require_terminal(self, s)
        return winners_outcome(2, [] if s.winner < 0 else [s.winner])

    def observe(self, s, p):
        o = self.obs_spec.zeros()
        v = self.obs_spec.views(o)
        v["board"][:, 0] = s.board == p
        v["board"][:, 1] = s.board == 1 - p
        v["my_card"][int(s.cards[p])] = 1.0
        v["to_move"][0] = float(s.winner == -2 and s.player == p)
        v["progress"][0] = min(1.0, s.decisions / self.max_decisions)
        return o

    def state_vector(self, s):
        return np.concatenate([self.observe(s, 0), s.cards.astype(np.float32)])

    def render_text(self, s, viewer=None):
        sym = {-1: ".", 0: "X", 1: "O"}
        rows = ["".join(sym[int(c)] for c in s.board[r * 3:r * 3 + 3]) for r in range(3)]
        return "\n".join(rows) + f"\nto move: {s.player}  decisions: {s.decisions}"

    def render_rgb(self, s):
        img = np.full((90, 90, 3), 255, np.uint8)
        for i, c in enumerate(s.board):
            if c >= 0:
                r, q = divmod(i, 3)
                img[r * 30 + 5:r * 30 + 25, q * 30 + 5:q * 30 + 25] = (200, 0, 0) if c == 0 else (0, 0, 200)
        return img

    def resample_hidden(self, s, viewer, rng):
        c = self.clone(s)
        c.cards[1 - viewer] = rng.integers(0, 3)
        return c

    def check_invariants(self, s):
        marks = int((s.board != -1).sum())
        if marks != s.decisions:
            raise InvariantError(f"{marks} marks on the board after {s.decisions} decisions")
        if s.winner == -2 and not (s.board == -1).any():
            raise InvariantError("full board but the game is not over")


def module_for(game_cls, env_id=ENV_ID, aec_cls=None):
    """A module-like registry entry (``env``, ``raw_env``, ``Game``) for a game class."""
    env, raw_env = make_env_fns(env_id, game_cls)
    if aec_cls is not None:
        from pettingzoo.utils import wrappers

        def raw_env(render_mode=None, illegal_action="raise", **config):  # noqa: F811
            return aec_cls(game_cls, env_id, render_mode=render_mode, illegal_action=illegal_action, **config)

        def env(render_mode=None, illegal_action="raise", **config):  # noqa: F811
            return wrappers.OrderEnforcingWrapper(raw_env(render_mode, illegal_action, **config))

    return SimpleNamespace(env=env, raw_env=raw_env, Game=game_cls)
