"""The Game contract: GameInfo and its enums, GameBase defaults, core/returns.py against the three rules'
§8, the chance recorder and NoDrawRng, ScriptedRng."""

import dataclasses
import json

import numpy as np
import pytest

from monolith_envs.core import returns
from monolith_envs.core.base import GameBase
from monolith_envs.core.chance import ChanceError, ChanceEvent, ChanceRecorder, NoDrawRng
from monolith_envs.core.game import ChanceMode, Information, MonolithEnvError, Outcome, Utility
from monolith_envs.core.state import StateError
from monolith_envs.core.testing import ScriptedRng, ScriptedRngError
from tests.toy_game import ToyGame, ToyState

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


# ---------------------------------------------------------------- GameInfo
def test_game_info_of_the_toy_and_its_checks():
    info = ToyGame.GAME_INFO
    assert (info.env_id, info.min_players, info.max_players) == ("toy_tictactoe_v0", 2, 2)
    assert info.chance is ChanceMode.DURING_PLAY and info.utility == "zero_sum"
    assert list(info.player_counts) == [2]
    assert info.config_key("extra_turn_face").default == 6 and info.config_key("nope") is None
    with pytest.raises(ValueError, match="1 <= min_players <= max_players"):
        dataclasses.replace(info, min_players=3)
    with pytest.raises(ValueError, match="utility must be a Utility member"):
        dataclasses.replace(info, utility="zero_sum")
    with pytest.raises(ValueError, match="max_length 0"):
        dataclasses.replace(info, max_length=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.max_length = 3


def test_enums_are_strings_for_json():
    assert json.dumps([Outcome.SUCCESS, Utility.SOLO_GOAL, Information.PERFECT]) == \
        '["success", "solo_goal", "perfect"]'


# ---------------------------------------------------------------- GameBase
def test_game_base_defaults_on_the_toy():
    from monolith_envs.core.game import Game

    g = ToyGame()
    assert isinstance(g, Game)  # the protocol, with GAME_INFO, utility, teams and outcome
    assert g.env_id == "toy_tictactoe_v0"
    assert g.utility is Utility.ZERO_SUM and g.zero_sum is True
    assert g.teams == ((0,), (1,))
    s = g.initial_state(np.random.default_rng(0))
    vec = GameBase.state_vector(g, s)  # the default (the toy overrides it to show its hidden cards)
    assert vec.dtype == np.float32 and vec.shape == (2 * g.obs_spec.size,)
    assert np.array_equal(vec[g.obs_spec.size:], g.observe(s, 1))
    assert g.returns_list(s) == [0.0, 0.0]
    c = g.clone(s)
    c.board[0] = 1
    assert s.board[0] == -1
    back = g.from_dict(json.loads(json.dumps(g.to_dict(s))))
    assert isinstance(back, ToyState) and back.cards.tolist() == s.cards.tolist()
    with pytest.raises(MonolithEnvError, match="not terminal"):
        g.outcome(s)


def test_game_base_defaults_can_be_assigned_and_from_dict_checks_the_class():
    @dataclasses.dataclass
    class Other:
        x: int

    from monolith_envs.core.state import state_class, to_dict

    state_class(Other)

    class Solo(GameBase):
        GAME_INFO = dataclasses.replace(ToyGame.GAME_INFO, min_players=1)
        STATE_CLASS = ToyState

        def __init__(self):
            self.num_players = 1

    g = Solo()
    assert g.utility is Utility.SOLO_GOAL and g.zero_sum is False and g.teams == ((0,),)
    g.teams = ((0,),)
    g.zero_sum = True
    assert g.zero_sum is True
    with pytest.raises(StateError, match="expects a serialised ToyState, got a Other"):
        g.from_dict(to_dict(Other(3)))
    with pytest.raises(NotImplementedError, match="Solo must define outcome"):
        g.outcome(None)
    assert g.check_invariants(None) is None
    with pytest.raises(TypeError, match="GAME_INFO must be a GameInfo"):
        type("Bad", (GameBase,), {"GAME_INFO": {"env_id": "x"}})


# ---------------------------------------------------------------- returns (the three rules' §8)
def test_win_loss_examples_of_the_rules():
    # Arena §8: duel ±1; teams ±0.5 each; 4-player ffa winner +1, others -1/3; all drawn: 0 each
    assert returns.win_loss(2, [1]).tolist() == [-1.0, 1.0]
    assert returns.win_loss(4, [0, 2]).tolist() == [0.5, -0.5, 0.5, -0.5]
    assert np.allclose(returns.win_loss(4, [2]), [-1 / 3, -1 / 3, 1, -1 / 3])
    assert returns.win_loss(4, range(4)).tolist() == [0.0] * 4
    # Strategy / The Monolith §8: winner +1, the others -1/(N-1); nobody wins: 0
    assert np.allclose(returns.win_loss(3, [0]), [1, -0.5, -0.5])
    assert returns.win_loss(3, []).tolist() == [0.0] * 3
    assert returns.win_loss(3, [0]).dtype == np.float32
    assert returns.win_loss(3, [1], np.float64)[0] == -0.5
    with pytest.raises(ValueError, match=r"winners \[3\] are not seats 0..2"):
        returns.win_loss(3, [3])


def test_rank_examples():
    # place i (0-based) worth 1 - 2i/(N-1), ties share the mean of their places, the sum is 0
    assert returns.rank([3, 1, 2]).tolist() == [1.0, -1.0, 0.0]
    assert returns.rank([5, 5, 1]).tolist() == [0.5, 0.5, -1.0]
    assert np.allclose(returns.rank([(1, 9), (2, 0), (1, 3), (0, 0)]), [1 / 3, 1, -1 / 3, -1])
    assert returns.rank([7, 7, 7, 7]).tolist() == [0.0] * 4
    assert returns.rank([4]).tolist() == [0.0]
    r = returns.rank([1, 2, 2, 3, 0], np.float64)
    assert abs(r.sum()) < 1e-12 and r.tolist()[3] == 1.0
    with pytest.raises(ValueError, match="one key per seat"):
        returns.rank([])


def test_score_potential_examples():
    # (v_p - mean of the others) / scale
    assert returns.score_potential([10, 4, 1], 3).tolist() == pytest.approx([(10 - 2.5) / 3, (4 - 5.5) / 3, (1 - 7) / 3])
    assert returns.score_potential([3, 1], [2, 4]).tolist() == [1.0, -0.5]
    assert returns.score_potential([6], 2).tolist() == [3.0]
    before, after = np.array([20, 20, 18]), np.array([17, 20, 18])
    step = returns.score_potential(after - before, 20, np.float64)
    assert np.allclose(step, returns.score_potential(after, 20, np.float64) - returns.score_potential(before, 20, np.float64))
    with pytest.raises(ValueError, match="2 scales for 3 values"):
        returns.score_potential([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="must not be 0"):
        returns.score_potential([1, 2], 0)


def test_outcomes_from_winners_and_solo():
    assert returns.winners_outcome(4, [1, 3]) == (L, W, L, W)
    assert returns.winners_outcome(3, []) == (D, D, D)
    assert returns.winners_outcome(2, [0, 1]) == (D, D)
    assert returns.solo_outcome(True) == (Outcome.SUCCESS,)
    assert returns.solo_goal(False).tolist() == [-1.0]
    with pytest.raises(ValueError, match="solo_outcome"):
        returns.winners_outcome(1, [0])


# ---------------------------------------------------------------- the chance recorder
def test_recorder_gives_the_generators_numbers_and_logs_them():
    plain = np.random.default_rng(7)
    rec = ChanceRecorder(np.random.default_rng(7))
    rec.step = 4
    assert rec.integers(1, 7) == plain.integers(1, 7)
    assert rec.permutation(5).tolist() == plain.permutation(5).tolist()
    assert rec.choice([10, 20, 30], size=2, replace=False).tolist() == plain.choice([10, 20, 30], size=2, replace=False).tolist()
    assert rec.random() == plain.random()
    assert [e.call for e in rec.events] == ["integers", "permutation", "choice", "random"]
    assert all(e.step == 4 for e in rec.events)
    assert rec.events[0].args == "integers(1, 7)" and isinstance(rec.events[0].value, int)
    assert rec.events[2].args == "choice([10, 20, 30], size=2, replace=False)"
    assert isinstance(rec.events[1].value, list) and sorted(rec.events[1].value) == [0, 1, 2, 3, 4]
    # JSON round trip of an event
    e = ChanceEvent.from_json(json.loads(json.dumps(rec.events[0].to_json())))
    assert e == rec.events[0] and str(e).startswith("integers(1, 7) -> ")
    with pytest.raises(ValueError, match="'call' is 'shuffle'"):
        ChanceEvent.from_json({"step": 0, "call": "shuffle", "args": "", "value": 1})


def test_recorder_refuses_other_generator_calls_and_no_draw_refuses_all():
    rec = ChanceRecorder(np.random.default_rng(0))
    with pytest.raises(ChanceError, match="rng.shuffle is not recorded"):
        rec.shuffle([1, 2])
    with pytest.raises(ChanceError, match="apply drew rng.integers while rejecting"):
        NoDrawRng("while rejecting").integers(1, 7)
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(rec)).events == [] and copy.deepcopy(rec).step == 0


# ---------------------------------------------------------------- ScriptedRng
def test_scripted_rng_serves_values_in_order():
    rng = ScriptedRng([4, [1, 6], [2, 0, 1], 30, [5, 7], 0.25, "b"])
    assert rng.integers(1, 7) == 4
    assert rng.integers(1, 7, size=2).tolist() == [1, 6]
    assert rng.permutation(3).tolist() == [2, 0, 1]
    assert rng.choice([10, 20, 30]) == 30
    assert rng.choice(8, size=2, replace=False).tolist() == [5, 7]
    assert rng.random() == 0.25
    assert rng.choice(["a", "b"], p=[0.5, 0.5]) == "b"
    assert rng.remaining == []
    rng.assert_exhausted()
    assert rng.draws[0] == "integers(1, 7) -> 4"
    assert ScriptedRng([3]).integers(5) == 3  # one bound: 0 <= v < 5
    assert ScriptedRng([[9, 3, 5]]).permutation(np.array([3, 5, 9])).tolist() == [9, 3, 5]


@pytest.mark.parametrize("values, call, match", [
    ([], lambda r: r.integers(1, 7), r"draw #1 integers\(1, 7\): the script has no value left"),
    ([7], lambda r: r.integers(1, 7), r"draw #1 integers\(1, 7\): scripted value 7 is not an integer in 1..6"),
    ([2.0], lambda r: r.integers(1, 7), "not an integer"),
    ([[1]], lambda r: r.integers(1, 7, size=2), "must be a list of 2 values"),
    ([[0, 0, 1]], lambda r: r.permutation(3), r"not a permutation of \[0, 1, 2\]"),
    ([40], lambda r: r.choice([10, 20, 30]), "40 is not an element"),
    (["a"], lambda r: r.choice(["a", "b"], p=[0.0, 1.0]), "'a' has probability 0"),
    ([[1, 1]], lambda r: r.choice(4, size=2, replace=False), "drawn twice without replacement"),
    ([1.0], lambda r: r.random(), r"not a float in \[0, 1\)"),
    ([1], lambda r: r.shuffle([1]), "rng.shuffle is not one of the scripted calls"),
])
def test_scripted_rng_errors_name_the_draw(values, call, match):
    with pytest.raises(ScriptedRngError, match=match):
        call(ScriptedRng(values))


def test_scripted_rng_second_draw_and_leftovers_are_named():
    rng = ScriptedRng([2, 5, 6])
    rng.integers(1, 7)
    with pytest.raises(ScriptedRngError, match=r"draw #2 integers\(0, 3\): scripted value 5"):
        rng.integers(0, 3)
    with pytest.raises(ScriptedRngError, match=r"1 scripted value\(s\) not drawn: \[6\]"):
        rng.assert_exhausted()


def test_scripted_rng_forces_the_toy_die():
    """A golden scenario: the die of the toy is forced; a 6 gives X another move."""
    g = ToyGame()
    s = g.initial_state(np.random.default_rng(0))
    rng = ScriptedRng([6, 3])
    g.apply(s, 4, rng)
    assert s.player == 0  # rolled 6: X moves again
    g.apply(s, 0, rng)
    assert s.player == 1 and s.board[[0, 4]].tolist() == [0, 0]
    rng.assert_exhausted()
