"""The compiled scalar draw of the chance recorder (``monolith_envs.core._fastchance``) equals ``rng.integers``.

``ChanceRecorder.integers(low, high)`` of a ``numpy.random.Generator`` draws through the compiled
``record_integers`` when it is built; ``Generator.integers`` is the reference it must equal value by value:
over every numpy bit generator, many ranges (also ranges where Lemire's method rejects often, and ranges
the compiled path hands back to numpy), with draws of the other calls in between, and at every decision of
seeded Strategy games played through the env (chance events, states and observations against a
pure-Python recorder). ``MONOLITH_ENVS_PURE_PYTHON=1`` forces ``rng.integers`` (the comparisons are then
skipped).
"""

import copy
import os
import pickle
import random
import threading

import numpy as np
import pytest

from monolith_envs.core import chance
from monolith_envs.core.aec import RulesAECEnv
from monolith_envs.core.chance import ChanceEvent, ChanceRecorder, _fastchance
from monolith_envs.core.state import states_equal
from monolith_envs.strategy.game import StrategyGame

PURE = os.environ.get(chance.PURE_PYTHON_ENV, "") == "1"
needs_compiled = pytest.mark.skipif(PURE or _fastchance is None, reason="the compiled draw is not used")

BIT_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64)
# spans high - low: dice, coins, one value (no draw), Lemire rejections about half the time (2**31 + 1),
# the widest covered range, and ranges the compiled path hands to numpy (2**32 and more)
SPANS = (6, 2, 1, 13, 2**31 + 1, 2**32 - 1, 2**32, 2**40)


class _PythonRecorder(ChanceRecorder):
    """The recorder with every draw through ``rng.integers`` (the reference)."""

    __slots__ = ()

    def __init__(self, rng, events=None):
        super().__init__(rng, events)
        self._fast = (rng, None, None, None)


@needs_compiled
def test_compiled_draw_is_used_for_a_generator_only():
    rec = ChanceRecorder(np.random.default_rng(0))
    v = rec.integers(1, 7)
    assert type(v) is int and 1 <= v <= 6
    assert rec._fast[1] is not None
    assert rec.events == [ChanceEvent(0, "integers", "integers(1, 7)", v)]
    assert type(rec.events[0]) is ChanceEvent


@needs_compiled
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS, ids=lambda c: c.__name__)
def test_compiled_draws_equal_the_generators(bit_generator):
    for seed in range(3):
        rec = ChanceRecorder(np.random.Generator(bit_generator(seed)))
        plain = np.random.Generator(bit_generator(seed))
        ref = _PythonRecorder(np.random.Generator(bit_generator(seed)))
        pick = random.Random(seed)
        for i in range(6000):
            low = pick.randrange(-6, 6)
            high = low + SPANS[pick.randrange(len(SPANS))]
            v = rec.integers(low, high)
            assert v == plain.integers(low, high) == ref.integers(low, high), (seed, i, low, high)
            if i % 5 == 0:
                assert rec.integers(high - low) == plain.integers(high - low) == ref.integers(high - low)
            if i % 7 == 0:  # the other calls read the same bit generator (PCG64 keeps half a word between them)
                assert rec.random() == plain.random() == ref.random()
            if i % 11 == 0:
                assert rec.permutation(4).tolist() == plain.permutation(4).tolist() == ref.permutation(4).tolist()
        assert rec.events == ref.events
        assert rec.random(3).tolist() == plain.random(3).tolist()  # the bit generators end in the same state


@needs_compiled
def test_import_check_accepts_this_numpy_and_refuses_wrong_numbers(monkeypatch):
    assert chance.compiled_draw_agrees()

    class Wrong:  # a compiled draw whose numbers are not numpy's (another bit generator layout)
        @staticmethod
        def record_integers(*args):
            return args[3]

    monkeypatch.setattr(chance, "_fastchance", Wrong)
    assert not chance.compiled_draw_agrees()

    class Broken:
        @staticmethod
        def record_integers(*args):
            raise ValueError("no bit generator")

    monkeypatch.setattr(chance, "_fastchance", Broken)
    assert not chance.compiled_draw_agrees()
    monkeypatch.setattr(chance, "_fastchance", None)
    assert not chance.compiled_draw_agrees()


@needs_compiled
def test_uncovered_calls_go_to_numpy_with_its_errors():
    rec = ChanceRecorder(np.random.default_rng(1))
    with pytest.raises(ValueError, match="high <= 0|low >= high"):
        rec.integers(5, 5)
    with pytest.raises(ValueError):
        rec.integers(-3)
    big = rec.integers(0, 2**63 - 1)
    assert big == np.random.default_rng(1).integers(0, 2**63 - 1)
    assert [e.value for e in rec.events] == [int(big)]
    # the lock held by another thread (drawing without the GIL in numpy) sends the draw through numpy, which
    # waits for it: nothing is drawn or recorded here
    lock = rec.rng.bit_generator.lock
    fast = rec._fast
    held, done = threading.Event(), threading.Event()

    def hold():
        with lock:
            held.set()
            done.wait(10)

    other = threading.Thread(target=hold)
    other.start()
    try:
        assert held.wait(10)
        assert _fastchance.record_integers(fast[1], fast[2], fast[3], 1, 7, rec.events, 0, "t", ChanceEvent) is None
    finally:
        done.set()
        other.join()
    assert len(rec.events) == 1


@needs_compiled
def test_bad_arguments_raise_type_errors():
    rng = np.random.default_rng(0)
    bg = rng.bit_generator
    args = [bg.capsule, bg.lock.acquire, bg.lock.release, 1, 7, [], 0, "t", ChanceEvent]
    for i, bad, match in ((5, (), "events must be a list"), (8, dict, "event_cls must be a tuple subclass"),
                          (3, 1.5, "low and high must be ints")):
        a = list(args)
        a[i] = bad
        with pytest.raises(TypeError, match=match):
            _fastchance.record_integers(*a)
    with pytest.raises(TypeError, match="expected 9 arguments"):
        _fastchance.record_integers(*args[:8])
    with pytest.raises(ValueError):  # not the bit generator's capsule
        _fastchance.record_integers(*([object()] + args[1:]))


def test_recorder_copies_and_pickles_after_a_draw():
    rec = ChanceRecorder(np.random.default_rng(3))
    rec.integers(1, 7)
    copies = [pickle.loads(pickle.dumps(rec)), copy.deepcopy(rec)]
    nxt = rec.integers(1, 7)
    for other in copies:
        assert other.events == rec.events[:1] and other._fast is None
        assert other.integers(1, 7) == nxt and other.events == rec.events
    rec.rng = np.random.default_rng(9)  # a new generator: the handles follow it
    assert rec.integers(1, 7) == np.random.default_rng(9).integers(1, 7)


@needs_compiled
@pytest.mark.parametrize("config", [{"num_players": 1}, {"num_players": 2},
                                    {"num_players": 4, "exalted": True, "player_powers": True}],
                         ids=["solo", "2p", "4p_powers"])
def test_env_games_equal_with_the_python_draw(config, monkeypatch):
    """Seeded games through the env: the same chance events, state and observation at every decision."""
    fast = RulesAECEnv(StrategyGame, "monolith_strategy_v0", **config)
    slow = RulesAECEnv(StrategyGame, "monolith_strategy_v0", **config)
    for seed in range(3):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        slow._chance = _PythonRecorder(slow._rng, slow.episode_log.chance)
        pick = random.Random(seed)
        steps = 0
        while not (fast.terminations[fast.agent_selection] or fast.truncations[fast.agent_selection]):
            assert fast.agent_selection == slow.agent_selection
            assert states_equal(fast.game_state, slow.game_state)
            obs = fast.observe(fast.agent_selection)
            assert np.array_equal(obs["observation"], slow.observe(slow.agent_selection)["observation"])
            legal = np.flatnonzero(obs["action_mask"])
            a = int(legal[pick.randrange(legal.size)])
            fast.step(a)
            slow.step(a)
            assert fast.episode_log.chance == slow.episode_log.chance
            steps += 1
        assert states_equal(fast.game_state, slow.game_state) and fast.terminations == slow.terminations
        assert any(e.call == "integers" for e in fast.episode_log.chance) and steps > 20
