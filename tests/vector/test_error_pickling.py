"""Every exception class of the package pickles and unpickles with its message and attributes, ``cls(err)``
copies an error (how Gymnasium's AsyncVectorEnv re-raises a worker's error), and the real message of an
illegal action arrives from an AsyncVectorEnv worker."""

from __future__ import annotations

import importlib
import pickle
import pkgutil

import gymnasium
import numpy as np
import pytest

import monolith_envs
from monolith_envs import IllegalActionError
from tests.vector.illegal_gym_env import IllegalStepEnv

# the arguments of the classes whose __init__ does not take one message
ARGS = {
    "IllegalActionError": ("place(slot=0, hex=9, rot=1)", "hex 9 is occupied", ["DISCARD(slot=0)", "END"]),
    "ContentError": ("factions/x.toml", 12, "archer", "melee.north", "must be 0..4", "0..4", "tile"),
    "ConformanceError": ("seed_test", "two resets with seed 3 differ"),
    "StepCheckFailure": ("mask", "action 4 is legal but apply refused it"),
    "Interrupted": (15,),  # a signal number (SIGTERM)
    "DeadlineExceeded": (2.5, "my_game.py:12 in apply"),
}


def _package_errors() -> list[type]:
    found = {}
    names = ["monolith_envs"] + [i.name for i in pkgutil.walk_packages(monolith_envs.__path__, "monolith_envs.")]
    for name in names:
        if name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, BaseException)
                    and value.__module__.startswith("monolith_envs")):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


ERRORS = _package_errors()


def _instance(cls: type) -> BaseException:
    exc = cls(*ARGS.get(cls.__name__, (f"a {cls.__name__} message",)))
    exc.extra_detail = {"game_index": 3}  # an attribute set after construction travels too
    return exc


def test_the_package_errors_are_found():
    names = {c.__name__ for c in ERRORS}
    assert {"MonolithEnvError", "IllegalActionError", "ConfigError", "ContentError", "PositionError",
            "PositionTextError", "LogError", "StateError", "ChanceError", "WorkerError",
            "UnknownEnvError", "InvariantError", "ScriptedRngError"} <= names
    assert len(ERRORS) >= 18


@pytest.mark.parametrize("cls", ERRORS, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_error_pickles_with_its_message_and_attributes(cls):
    exc = _instance(cls)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(exc, protocol))
        assert type(back) is cls
        assert str(back) == str(exc)
        assert back.args == exc.args
        assert vars(back) == vars(exc)


@pytest.mark.parametrize("cls", [c for c in ERRORS if issubclass(c, monolith_envs.MonolithEnvError)],
                         ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_cls_of_an_error_copies_it(cls):
    exc = _instance(cls)
    copy = cls(exc)
    assert str(copy) == str(exc) and copy.args == exc.args and vars(copy) == vars(exc)


def test_illegal_action_attributes_after_a_round_trip():
    exc = _instance(IllegalActionError)
    back = pickle.loads(pickle.dumps(exc))
    assert (back.asked, back.why) == ("place(slot=0, hex=9, rot=1)", "hex 9 is occupied")
    assert str(back) == ("illegal action place(slot=0, hex=9, rot=1): hex 9 is occupied; legal now: "
                         "DISCARD(slot=0), END")


@pytest.mark.filterwarnings("ignore::UserWarning")  # Gymnasium logs the worker's traceback as warnings
def test_illegal_action_message_arrives_from_an_async_vector_env_worker():
    probe = IllegalStepEnv()
    probe.reset(seed=4)
    bad = probe.first_illegal()
    with pytest.raises(IllegalActionError) as direct:
        probe.step(bad)
    envs = gymnasium.vector.AsyncVectorEnv([IllegalStepEnv, IllegalStepEnv])
    try:
        envs.reset(seed=[4, 4])
        with pytest.raises(IllegalActionError) as info:
            envs.step(np.array([bad, bad]))
    finally:
        envs.close(terminate=True)
    assert str(info.value) == str(direct.value)
    assert str(info.value).startswith("illegal action ")
    assert info.value.asked == direct.value.asked and info.value.why == direct.value.why
