"""A small test-only dice game with a one-seat (solo) config: a race to a target with one die (Pig).

Rules: on its turn a player either ROLLs the die (``rng.integers(1, 7)`` inside ``apply``) or HOLDs. A 1
loses the points of the turn and ends it; any other face adds to the turn's points. HOLD (legal only with
turn points) banks them and ends the turn. Reaching ``target`` with bank + turn points ends the game at
once: that player wins (solo: SUCCESS). After ``max_turns`` turns in all the game ends: solo, FAILURE; with
two players the higher bank wins, equal banks draw. Returns: win_loss (+1 / -1; solo +1 / -1), 0 for a draw.

Observation (seat-relative, all / target): ``bank`` [2] (mine, the other's), ``turn_points`` [1],
``turns_left`` [1] (fraction of max_turns).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from monolith_envs.core.actions import ActionLayout
from monolith_envs.core.base import GameBase
from monolith_envs.core.config import ConfigKey, int_range, one_of, validate_config
from monolith_envs.core.game import ChanceMode, GameInfo, IllegalActionError, Information, Utility
from monolith_envs.core.observation import ObsSpec
from monolith_envs.core.returns import require_terminal, solo_goal, solo_outcome, win_loss, winners_outcome
from monolith_envs.core.state import state_class

ENV_ID = "toy_pig_v0"
ROLL, HOLD = 0, 1

CONFIG_KEYS = (
    ConfigKey("num_players", 1, "1 (solo) or 2", one_of(1, 2)),
    ConfigKey("target", 12, "points that win", int_range(2, 100)),
    ConfigKey("max_turns", 6, "turns in all before the game ends", int_range(1, 100)),
    ConfigKey("max_decisions", 400, "truncation limit", int_range(1)),
)


@state_class
@dataclass
class PigState:
    bank: list  # int per seat
    turn_points: int
    player: int
    turns: int  # turns finished
    over: bool
    winner: int  # -1 none / draw, else seat
    returns: list  # float per seat


class PigGame(GameBase):
    """Pig with a solo config (test-only)."""

    GAME_INFO = GameInfo(env_id=ENV_ID, name="Toy Pig", min_players=1, max_players=2, utility=Utility.ZERO_SUM,
                         chance=ChanceMode.DURING_PLAY, information=Information.PERFECT, teams=False,
                         config_keys=CONFIG_KEYS, max_length=400)
    STATE_CLASS = PigState

    def __init__(self, config=None):
        self.config = validate_config(ENV_ID, CONFIG_KEYS, config)
        self.num_players = self.config["num_players"]
        self.max_decisions = self.config["max_decisions"]
        self.layout = ActionLayout([("ROLL", (1,), ("x",)), ("HOLD", (1,), ("x",))])
        self.obs_spec = ObsSpec([
            ("bank", (2,), 0, 1, "my bank, the other's bank (/ target)"),
            ("turn_points", (1,), 0, 1, "points of this turn (/ target)"),
            ("turns_left", (1,), 0, 1, "turns left / max_turns"),
        ])

    def initial_state(self, rng):
        n = self.num_players
        return PigState([0] * n, 0, 0, 0, False, -1, [0.0] * n)

    def current_player(self, s):
        return -1 if s.over else s.player

    def is_terminal(self, s):
        return s.over

    def legal_mask(self, s):
        m = np.zeros(2, bool)
        if not s.over:
            m[ROLL] = True
            m[HOLD] = s.turn_points > 0
        return m

    def apply(self, s, action, rng):
        a = int(action)
        if s.over:
            raise IllegalActionError(str(a), "the game is over", [])
        if a not in (ROLL, HOLD) or (a == HOLD and s.turn_points == 0):
            why = "HOLD needs points this turn" if a == HOLD else f"action {a} outside 0..1"
            raise IllegalActionError(str(a), why, self.layout.names(self.legal_mask(s)))
        p = s.player
        if a == ROLL:
            face = int(rng.integers(1, 7))  # drawn only once the action is known to be legal
            if face == 1:
                s.turn_points = 0
                self._end_turn(s)
                return
            s.turn_points += face
            if s.bank[p] + s.turn_points >= self.config["target"]:
                s.bank[p] += s.turn_points
                s.turn_points = 0
                self._finish(s, p)
            return
        s.bank[p] += s.turn_points
        s.turn_points = 0
        self._end_turn(s)

    def _end_turn(self, s):
        s.turns += 1
        s.player = (s.player + 1) % self.num_players
        if s.turns >= self.config["max_turns"]:
            n = self.num_players
            if n == 1:
                self._finish(s, -1)
            else:
                best = max(s.bank)
                top = [q for q in range(n) if s.bank[q] == best]
                self._finish(s, top[0] if len(top) == 1 else -1)

    def _finish(self, s, winner):
        s.over, s.winner = True, winner
        if self.num_players == 1:
            s.returns = solo_goal(winner == 0, np.float64).tolist()
        else:
            s.returns = win_loss(self.num_players, [] if winner < 0 else [winner], np.float64).tolist()

    def returns(self, s):
        return np.asarray(s.returns, np.float32)

    def outcome(self, s):
        require_terminal(self, s)
        if self.num_players == 1:
            return solo_outcome(s.winner == 0)
        return winners_outcome(self.num_players, [] if s.winner < 0 else [s.winner])

    def observe(self, s, p):
        o = self.obs_spec.zeros()
        v = self.obs_spec.views(o)
        t = self.config["target"]
        v["bank"][0] = min(1.0, s.bank[p] / t)
        if self.num_players > 1:
            v["bank"][1] = min(1.0, s.bank[1 - p] / t)
        v["turn_points"][0] = min(1.0, s.turn_points / t)
        v["turns_left"][0] = 1.0 - s.turns / self.config["max_turns"]
        return o

    def render_text(self, s, viewer=None):
        return f"bank {s.bank}  turn points {s.turn_points}  player {s.player}  turns {s.turns}"

    def render_rgb(self, s):
        img = np.full((20, 20 * self.num_players, 3), 255, np.uint8)
        for q, b in enumerate(s.bank):
            h = min(20, b * 20 // self.config["target"])
            img[20 - h:, 20 * q:20 * q + 19] = (0, 120, 0)
        return img
