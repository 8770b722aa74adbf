"""The conformance suite passes on the toy game, and each of its checks catches a deliberately broken variant."""

import copy

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.aec import RulesAECEnv
from monolith_envs.core.testing import CHECKS, ConformanceError, check_env
from tests.toy_game import ToyGame, module_for


def test_toy_game_passes_every_check():
    report = check_env("toy_tictactoe_v0", games=25, seed=3)
    assert report.checks == list(CHECKS)
    assert report.episodes == 25
    assert all(3 <= n <= 9 for n in report.lengths)  # extra turns allow a 3-mark win
    assert sum(report.lengths) == report.decisions


def test_unknown_check_name_is_rejected():
    with pytest.raises(ValueError, match="unknown checks"):
        check_env("toy_tictactoe_v0", only=["nope"])


# ---------------------------------------------------------------- broken variants, one per check
class Float64Obs(ToyGame):
    def observe(self, s, p):
        return super().observe(s, p).astype(np.float64)


class GlobalDie(ToyGame):
    def apply(self, s, action, rng):
        super().apply(s, action, np.random.default_rng(np.random.randint(1 << 30)))


class AlternatingStarter(ToyGame):
    """Keeps a counter on the game object: every match after an instance's first starts with seat 1."""

    def __init__(self, config=None):
        super().__init__(config)
        self.count = 0

    def initial_state(self, rng):
        s = super().initial_state(rng)
        s.player = 1 if self.count else 0
        self.count += 1
        return s


class ForgetsConfigEnv(RulesAECEnv):
    def reset(self, seed=None, options=None):
        self.game = self._game_cls({})
        super().reset(seed, options)


class EmptyMaskMidGame(ToyGame):
    def legal_mask(self, s):
        m = super().legal_mask(s)
        return m & False if (s.board != -1).sum() == 3 else m


class MasksTakenCells(ToyGame):
    def legal_mask(self, s):
        return np.ones(9, bool) if s.winner == -2 else np.zeros(9, bool)


class AcceptsCellFourTwice(ToyGame):
    def legal_mask(self, s):
        m = super().legal_mask(s).copy()
        m[4] = False
        return m

    def apply(self, s, action, rng):
        if int(action) == 4 and s.board[4] == -1 and s.winner == -2:
            s.board[4] = s.player
            s.decisions += 1
            s.player = 1 - s.player
            return
        super().apply(s, action, rng)


class LossyJson(ToyGame):
    def from_dict(self, d):
        s = super().from_dict(d)
        s.board[:] = -1
        return s


class ShallowClone(ToyGame):
    def clone(self, s):
        return copy.copy(s)


class ShortObsForWaiting(ToyGame):
    def observe(self, s, p):
        o = super().observe(s, p)
        return o if p == s.player else o[:-2]


class NoDeadStepsEnv(RulesAECEnv):
    def _finish(self, truncated):
        super()._finish(truncated)
        # drops the agents at once: nobody is stepped with None or sees the final reward
        self.agents = []


class NotZeroSum(ToyGame):
    def returns(self, s):
        r = super().returns(s)
        return np.maximum(r, 0.0)


class LeaksOpponentCard(ToyGame):
    def observe(self, s, p):
        o = super().observe(s, p)
        o[-1] = s.cards[1 - p] / 2.0
        return o


class MiscountsExtraTurns(ToyGame):
    def apply(self, s, action, rng):
        before = s.player
        super().apply(s, action, rng)
        if s.winner == -2 and s.player == before:
            s.decisions += 1  # double-counts an extra turn: breaks the marks == decisions invariant


class LimitTooLow(ToyGame):
    """Its truncation limit is shorter than its games."""

    def __init__(self, config=None):
        super().__init__(config)
        self.max_decisions = 4


BROKEN = [
    ("api_test", Float64Obs, None, {}),
    ("seed_test", GlobalDie, None, {}),
    ("reset_reproduces", AlternatingStarter, None, {}),
    ("config_kept", ToyGame, ForgetsConfigEnv, {"max_decisions": 30}),
    ("mask_nonempty", EmptyMaskMidGame, None, {}),
    ("masked_actions_apply", MasksTakenCells, None, {}),
    ("unmasked_actions_raise", AcceptsCellFourTwice, None, {}),
    ("mask_json_roundtrip", LossyJson, None, {}),
    ("clone", ShallowClone, None, {}),
    ("observe_all", ShortObsForWaiting, None, {}),
    ("dead_steps", ToyGame, NoDeadStepsEnv, {}),
    ("zero_sum", NotZeroSum, None, {}),
    ("hidden_info", LeaksOpponentCard, None, {}),
    ("invariants", MiscountsExtraTurns, None, {}),
    ("ends", LimitTooLow, None, {}),
]


def test_every_check_has_a_broken_variant():
    assert sorted(b[0] for b in BROKEN) == sorted(CHECKS)


@pytest.mark.parametrize("check, game_cls, aec_cls, config", BROKEN, ids=[b[0] for b in BROKEN])
def test_check_catches_broken_variant(check, game_cls, aec_cls, config):
    env_id = f"toy_broken_{check}_v0"
    mod = module_for(game_cls, env_id, aec_cls)
    monolith_envs.register(env_id, lambda: mod)
    # the real game passes this very check with the same config ...
    check_env("toy_tictactoe_v0", config, games=15, seed=0, only=[check])
    # ... and the broken variant fails it, with the check named
    with pytest.raises(ConformanceError) as info:
        check_env(env_id, config, games=15, seed=0, only=[check])
    assert info.value.check == check
    assert f"[{check}]" in str(info.value)
