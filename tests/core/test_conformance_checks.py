"""The conformance suite passes on the toy game, and each of its checks catches a deliberately broken variant."""

import copy
import dataclasses
import re

import numpy as np
import pytest

from monolith_envs.core.aec import RulesAECEnv
from monolith_envs.core.game import ChanceMode, IllegalActionError, Outcome
from monolith_envs.core.testing import CHECKS, ConformanceError, check_env
from tests.toy_game import ToyGame, module_for

TOY = module_for(ToyGame).raw_env


def test_toy_game_passes_every_check():
    report = check_env(TOY, games=25, seed=3)
    assert report.checks == list(CHECKS)
    assert report.env_id == "toy_tictactoe_v0"
    assert report.episodes == 25
    assert all(3 <= n <= 9 for n in report.lengths)  # extra turns allow a 3-mark win
    assert sum(report.lengths) == report.decisions


def test_unknown_check_name_is_rejected():
    with pytest.raises(ValueError, match="unknown checks"):
        check_env(TOY, only=["nope"])


def test_an_env_id_instead_of_a_factory_is_refused_with_the_fix():
    with pytest.raises(TypeError, match=r"env factory .*raw_env"):
        check_env("toy_tictactoe_v0")


# ---------------------------------------------------------------- broken variants, one per check
class Float64Obs(ToyGame):
    def observe(self, s, p):
        return super().observe(s, p).astype(np.float64)


_GLOBAL_ROLLS = [0]


class GlobalDie(ToyGame):
    """Rolls from process-wide state instead of the episode's seed: the die alternates 6, 5, 6, ... over
    every call in the process. PettingZoo's seed_test steps its two equally seeded envs in lockstep, so one
    always rolls the 6 (an extra turn) where the other rolls a 5, and the transcripts part at the first
    roll (a global random die could, now and then, roll the same for both and pass)."""

    def apply(self, s, action, rng):
        _GLOBAL_ROLLS[0] += 1
        super().apply(s, action, _Fixed(6 if _GLOBAL_ROLLS[0] % 2 else 5))


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


class InfiniteReturns(ToyGame):
    """A score that overflows float32: a won game pays +inf and -inf, whose sum (NaN) the zero-sum check
    alone cannot see."""

    def returns(self, s):
        with np.errstate(over="ignore"):
            return super().returns(s).astype(np.float32) * np.float32(1e38) * np.float32(10)


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


class RollsBeforeRejecting(ToyGame):
    """Rolls its die first and only then looks at the action: a rejected action consumes a draw."""

    def apply(self, s, action, rng):
        face = int(rng.integers(1, 7))
        if s.winner != -2 or not 0 <= int(action) < 9 or s.board[int(action)] != -1:
            raise IllegalActionError(str(action), "not legal now", [])
        super().apply(s, action, _Fixed(face))


class _Fixed:
    def __init__(self, face):
        self.face = face

    def integers(self, low, high=None, size=None):
        return self.face


class OldExplainEnv(RulesAECEnv):
    """Explains a rejected action the old way: apply on a clone with the episode generator."""

    def _explain_illegal(self, a, mask):
        try:
            self.game.apply(self.game.clone(self.game_state), a, self._rng)
        except IllegalActionError as exc:
            return exc
        return IllegalActionError(str(a), "not legal now", [])


class DeclaresNoChance(ToyGame):
    GAME_INFO = dataclasses.replace(ToyGame.GAME_INFO, chance=ChanceMode.SETUP_ONLY)


class EveryoneWins(ToyGame):
    def outcome(self, s):
        return (Outcome.WIN, Outcome.WIN)


class CountsMaskCalls(ToyGame):
    """legal_mask writes into the state (a counter in the decisions field)."""

    def legal_mask(self, s):
        m = super().legal_mask(s)
        if s.winner == -2 and (s.board != -1).sum() == 2:
            s.decisions += 1
        return m


class MaskOpenAtTheEnd(ToyGame):
    def legal_mask(self, s):
        return np.ones(9, bool) if s.winner != -2 else super().legal_mask(s)


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
    ("pure_queries", CountsMaskCalls, None, {}),
    ("observe_all", ShortObsForWaiting, None, {}),
    ("dead_steps", ToyGame, NoDeadStepsEnv, {}),
    ("zero_sum", NotZeroSum, None, {}),
    ("finite", InfiniteReturns, None, {}),
    ("hidden_info", LeaksOpponentCard, None, {}),
    ("invariants", MiscountsExtraTurns, None, {}),
    ("ends", LimitTooLow, None, {}),
    ("rejected_no_draw", RollsBeforeRejecting, None, {}),
    ("chance_logged", DeclaresNoChance, None, {}),
    ("outcome", EveryoneWins, None, {}),
]


def test_every_check_has_a_broken_variant():
    assert sorted(b[0] for b in BROKEN) == sorted(CHECKS)


@pytest.mark.parametrize("check, game_cls, aec_cls, config", BROKEN, ids=[b[0] for b in BROKEN])
def test_check_catches_broken_variant(check, game_cls, aec_cls, config):
    broken = module_for(game_cls, f"toy_broken_{check}_v0", aec_cls).raw_env
    # the real game passes this very check with the same config ...
    check_env(TOY, config, games=15, seed=0, only=[check])
    # ... and the broken variant fails it, with the check named
    with pytest.raises(ConformanceError) as info:
        check_env(broken, config, games=15, seed=0, only=[check])
    assert info.value.check == check
    assert f"[{check}]" in str(info.value)


def test_the_query_that_wrote_into_the_state_is_named():
    broken = module_for(CountsMaskCalls, "toy_counts_mask_v0").raw_env
    with pytest.raises(ConformanceError, match=r"\[pure_queries\] seed \d+, step 1, after MARK\(cell=\d\): legal_mask changed the state \(a query "
                       r"must only read it: keep derived values in a transient field\)"):
        check_env(broken, games=3, seed=0, only=["pure_queries"])


class MarksTheEnd(ToyGame):
    """is_terminal writes the same value at every call, once the game is over: no trace on a state already read."""

    def is_terminal(self, s):
        if s.winner != -2:
            s.decisions = 99
        return super().is_terminal(s)


class SortsHiddenCards(ToyGame):
    """observe sorts the hidden cards in place (state_vector's default calls observe: observe is named)."""

    def observe(self, s, p):
        s.cards.sort()
        return super().observe(s, p)


class FloatMaskAtTheEnd(ToyGame):
    def legal_mask(self, s):
        return np.zeros(9, np.float32) if s.winner != -2 else super().legal_mask(s)


@pytest.mark.parametrize("game_cls, named", [(MarksTheEnd, "is_terminal"), (SortsHiddenCards, r"observe\(state, 0\)")])
def test_a_query_that_writes_once_or_the_same_value_is_caught_by_check_env_and_fuzz(game_cls, named):
    from monolith_envs.core.fuzz import fuzz_rollout

    broken = module_for(game_cls, f"toy_{game_cls.__name__.lower()}_v0").raw_env
    with pytest.raises(ConformanceError, match=rf"\[pure_queries\] seed \d+, .*: {named} changed the state"):
        check_env(broken, games=10, seed=0)
    failures = [fuzz_rollout(game_cls(), seed) for seed in range(10)]
    assert any(r.failure == "pure_queries" and re.search(rf"{named} changed the state", r.message) for r in failures)


def test_a_broken_clone_is_named_as_clone_not_as_a_query_nor_a_round_trip():
    broken = module_for(ShallowClone, "toy_shallow_clone_all_v0").raw_env
    with pytest.raises(ConformanceError) as info:
        check_env(broken, games=5, seed=0)  # every check: clone runs before the checks that apply to clones
    assert info.value.check == "clone"


@pytest.mark.parametrize("game_cls, env_id, said", [
    (MaskOpenAtTheEnd, "toy_open_end_v0", r"the game is over but legal_mask has 9 legal actions \(MARK\(cell=0\)"),
    (FloatMaskAtTheEnd, "toy_float_end_v0", r"legal_mask must be bool\[9\], got float32\(9,\)"),
])
def test_a_wrong_mask_at_the_end_is_named(game_cls, env_id, said):
    broken = module_for(game_cls, env_id).raw_env
    with pytest.raises(ConformanceError, match=r"\[mask_nonempty\] seed 0, the end after \d+ decisions: " + said):
        check_env(broken, games=3, seed=0, only=["mask_nonempty"])


def test_fuzz_names_a_mask_left_open_at_the_end():
    from monolith_envs.core.fuzz import fuzz_rollout

    result = fuzz_rollout(MaskOpenAtTheEnd(), seed=0)
    assert result.failure == "mask_nonempty"
    assert result.message.startswith("at the end: the game is over but legal_mask has 9 legal actions")
    assert fuzz_rollout(ToyGame(), seed=0).failure is None


def test_rolling_before_rejecting_is_named_with_the_draw():
    broken = module_for(RollsBeforeRejecting, "toy_rolls_first_v0").raw_env
    with pytest.raises(ConformanceError, match=r"\[rejected_no_draw\].*drew \['integers\(1, 7\) -> \d'\] before it was rejected"):
        check_env(broken, games=3, seed=0, only=["rejected_no_draw"])


def test_old_env_explanation_consumes_the_generator_and_the_replay_check_sees_it():
    """The env-level half: explaining an illegal action with the episode generator (the old RulesAECEnv)
    shifts every later draw of an engine that rolls first; the log then fails to replay."""
    old = module_for(RollsBeforeRejecting, "toy_old_env_v0", OldExplainEnv).raw_env
    with pytest.raises(ConformanceError) as info:
        check_env(old, games=15, seed=0, only=["chance_logged"])
    assert info.value.check == "chance_logged"
    assert "does not replay" in str(info.value) or "another final state" in str(info.value)
    # the fixed env explains without drawing, so the same engine's episodes replay
    fixed = module_for(RollsBeforeRejecting, "toy_fixed_env_v0").raw_env
    check_env(fixed, games=15, seed=0, only=["chance_logged"])


def test_fuzz_reports_infinite_returns_that_the_zero_sum_check_cannot_see():
    from monolith_envs.core.fuzz import fuzz_rollout

    game = InfiniteReturns()
    results = [fuzz_rollout(game, seed) for seed in range(12)]
    failed = [r for r in results if r.failure]
    assert failed and all(r.failure == "finite" for r in failed)
    assert "are not finite" in failed[0].message and "inf" in failed[0].message
    assert not any(fuzz_rollout(ToyGame(), seed).failure for seed in range(12))


_GLOBAL_MATCHES = [0]


class PrefilledByAGlobalCounter(ToyGame):
    """Each new match starts with one cell taken, a different one per match in the process (a global counter,
    not the seed): replaying a match's actions from the same seed meets a taken cell."""

    def initial_state(self, rng):
        s = super().initial_state(rng)
        _GLOBAL_MATCHES[0] += 1
        s.board[_GLOBAL_MATCHES[0] % 9] = 1
        return s


class ListMask(ToyGame):
    def legal_mask(self, s):
        return super().legal_mask(s).tolist()


def test_a_replay_that_raises_is_the_reset_reproduces_failure_naming_the_cause():
    broken = module_for(PrefilledByAGlobalCounter, "toy_broken_replay_v0").raw_env
    with pytest.raises(ConformanceError) as info:
        check_env(broken, {}, games=3, seed=0, only=["reset_reproduces"])
    assert info.value.check == "reset_reproduces"
    assert "raised IllegalActionError" in str(info.value) and "only from the rng they are given" in str(info.value)


def test_the_checks_of_the_package_name_a_wrong_observation_or_mask_before_pettingzoos_tests_run():
    """With every check on, a float64 observation is named by observe_all (api_test would call it out of bounds),
    and a mask given as a list by mask_nonempty (the AEC env calls array methods on it)."""
    with pytest.raises(ConformanceError) as info:
        check_env(module_for(Float64Obs, "toy_broken_f64_all_v0").raw_env, {}, games=3, seed=0)
    assert info.value.check == "observe_all" and "float32" in str(info.value)
    with pytest.raises(ConformanceError) as info:
        check_env(module_for(ListMask, "toy_broken_list_mask_v0").raw_env, {}, games=3, seed=0)
    assert info.value.check == "mask_nonempty" and "must return a numpy array bool[9], got a list" in str(info.value)


def test_a_state_class_without_its_decorator_is_named_when_cloned():
    from dataclasses import dataclass as plain_dataclass

    from monolith_envs.core.state import StateError, clone_state

    @plain_dataclass
    class Undecorated:
        cells: list

    with pytest.raises(StateError, match="cannot clone a Undecorated: a state class needs the @state_class decorator"):
        clone_state(Undecorated([1, 2]))


class ApplyRaisesAfterThreeMoves(ToyGame):
    def apply(self, s, action, rng):
        if s.decisions >= 3:
            raise KeyError("a bug in apply")
        super().apply(s, action, rng)


def test_a_bug_in_the_games_code_is_one_conformance_error_naming_the_exception_and_where():
    broken = module_for(ApplyRaisesAfterThreeMoves, "toy_broken_apply_bug_v0").raw_env
    with pytest.raises(ConformanceError) as info:
        check_env(broken, {}, games=3, seed=0)  # the per-step checks run first and name the move
    assert info.value.check == "masked_actions_apply" and "raised KeyError('a bug in apply')" in str(info.value)
    with pytest.raises(ConformanceError) as info:
        check_env(broken, {}, games=3, seed=0, only=["reset_reproduces"])
    assert info.value.check == "exception"
    assert "the game raised KeyError: 'a bug in apply' during the reset_reproduces check (seed 0)" in str(info.value)
    with pytest.raises(ConformanceError, match=r"\[exception\] the game raised KeyError: 'a bug in apply' during "
                                               r"the episode of seed 0"):
        check_env(broken, {}, games=3, seed=0, only=["zero_sum"])


class NoOutcomeYet(ToyGame):
    def outcome(self, s):
        raise NotImplementedError("outcome comes later")


def test_pure_queries_leaves_outcome_out_when_the_outcome_check_is_skipped():
    from monolith_envs.core.fuzz import fuzz_rollout

    game = module_for(NoOutcomeYet, "toy_no_outcome_v0").raw_env
    assert "pure_queries" in check_env(game, games=5, seed=0, skip=["outcome"]).checks
    with pytest.raises(ConformanceError, match="NotImplementedError"):
        check_env(game, games=5, seed=0)
    assert fuzz_rollout(NoOutcomeYet(), 0, checks=[c for c in CHECKS if c != "outcome"]).failure is None


@dataclasses.dataclass
class PlainState:  # not a @state_class: compared through to_dict, which leaves numpy arrays in
    board: np.ndarray
    cards: np.ndarray
    player: int
    decisions: int
    winner: int
    returns: np.ndarray


class PlainStateGame(ToyGame):
    def initial_state(self, rng):
        return PlainState(**vars(super().initial_state(rng)))

    def clone(self, s):
        return PlainState(s.board.copy(), s.cards.copy(), s.player, s.decisions, s.winner, s.returns.copy())

    def to_dict(self, s):
        return dict(vars(s))


class PlainStateSortsCards(PlainStateGame):
    def observe(self, s, p):
        s.cards.sort()
        return super().observe(s, p)


def test_a_state_whose_to_dict_keeps_arrays_is_compared_and_named():
    ok = module_for(PlainStateGame, "toy_plain_state_v0").raw_env
    bad = module_for(PlainStateSortsCards, "toy_plain_sorts_v0").raw_env
    check_env(ok, games=5, seed=0, only=["pure_queries", "clone"])
    with pytest.raises(ConformanceError, match=r"\[pure_queries\] .*observe\(state, 0\) changed the state \(a query "
                                               r"must only read it: keep derived values out of the state\)"):
        check_env(bad, games=10, seed=0, only=["pure_queries"])


class FirstGameLucky(ToyGame):
    """Rolls its die from the game object's history instead of the episode's generator: the extra-turn face on
    every roll of the first game it sets up, never after, so the same seed and actions play another game."""

    def initial_state(self, rng):
        self.games = getattr(self, "games", 0) + 1
        return super().initial_state(rng)

    def apply(self, s, action, rng):
        super().apply(s, action, _Fixed(self.config["extra_turn_face"] if self.games == 1 else 1))


def test_fuzz_replays_each_rollout_from_its_seed_and_actions():
    """A rollout's log (seed + actions) must replay to the same end, as ``replay`` replays it: an ``apply``
    that rolls from the game object's history instead of the episode's generator plays another game the
    second time, and fuzz says so (it ran no replay before); the real game, and the same broken game with the
    per-step checks off (invariants only), pass."""
    from monolith_envs.core.fuzz import fuzz_rollout, replay_failure

    result = fuzz_rollout(FirstGameLucky(), seed=0)
    assert result.failure == "chance_logged", result.message
    assert re.match(r"replaying seed 0 \+ its \d+ actions (gives another final state|: step \d+ .* raised)",
                    result.message), result.message
    assert "depends on something besides the state, the action and the episode's generator" in result.message
    assert result.actions and result.seed == 0  # the log of the failure holds the whole episode
    assert fuzz_rollout(ToyGame(), seed=0).failure is None
    assert fuzz_rollout(FirstGameLucky(), seed=0, check_every=0).failure is None
    game = ToyGame()
    rng = np.random.default_rng(7)
    s = game.initial_state(rng)
    played = []
    while not game.is_terminal(s):
        played.append(int(np.flatnonzero(game.legal_mask(s))[0]))
        game.apply(s, played[-1], rng)
    assert replay_failure(game, 7, played, s) is None
    assert replay_failure(game, 8, played, s) is not None or replay_failure(game, 7, played[:-1], s) is not None


def test_fuzz_names_a_setup_only_game_that_draws_in_apply():
    """The other half of ``chance_logged``, as ``check_env`` checks it: a game declared ``setup_only`` whose
    ``apply`` rolls (the toy's extra-turn die) fails, naming the draw and its step."""
    from monolith_envs.core.fuzz import fuzz_rollout

    seeds = [seed for seed in range(40) if fuzz_rollout(ToyGame(), seed).failure is None]
    results = [fuzz_rollout(DeclaresNoChance(), seed) for seed in seeds]
    failed = [r for r in results if r.failure]
    assert failed and all(r.failure == "chance_logged" for r in failed)
    assert re.match(r"GAME_INFO\.chance is setup_only, but apply drew \['integers\(1, 7\) -> \d'.*\] \(first at step "
                    r"\d+\)", failed[0].message), failed[0].message
