"""``rllib:PATH`` checkpoints are untrusted by default: the weights are read without running code from the
folder, a folder whose pickles name anything else is refused (and says how to trust it), and a trusted load
goes through RLlib as before.  No Ray instance is needed: the RLModule checkpoint is written directly."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from tests.toy_game import ENV_ID

INNER = Path("learner_group") / "learner" / "rl_module" / "shared"


class _WritesFile:
    """Unpickling this calls ``pathlib.Path.write_text`` (a stand-in for any code a hostile file runs)."""

    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        import pathlib

        return (pathlib.Path.write_text, (pathlib.Path(self.target), "owned"))


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """An algorithm-checkpoint folder of training.rllib's shared module (toy game, 16-16 hidden layers)."""
    import monolith_envs
    from training.rllib import module_spec

    aec = monolith_envs.make(ENV_ID, wrapped=False)
    name = aec.possible_agents[0]
    module = module_spec({"net_arch": [16, 16]}, aec.observation_space(name), aec.action_space(name)).build()
    root = tmp_path_factory.mktemp("ckpt") / "final_checkpoint"
    module.save_to_path(str(root / INNER))
    return root


def _copy(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


def _probe(agent):
    rng = np.random.default_rng(0)
    obs = rng.random(23).astype(np.float32)
    mask = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1], np.int8)
    return agent.action_probabilities(obs, mask), mask


def test_untrusted_load_gives_the_same_policy_as_rllib(checkpoint, monkeypatch):
    from agents import make_agent
    from agents.rllib_agent import RLlibAgent

    monkeypatch.delenv("MONOLITH_ENVS_TRUST_MODELS", raising=False)
    safe = make_agent(f"rllib:{checkpoint}", ENV_ID)
    full = RLlibAgent(checkpoint, trusted=True)
    p_safe, mask = _probe(safe)
    p_full, _ = _probe(full)
    assert np.allclose(p_safe, p_full, atol=1e-7) and abs(p_safe.sum() - 1) < 1e-9 and (p_safe[mask == 0] == 0).all()
    for name, t in full.module.state_dict().items():
        assert np.array_equal(safe.module.state_dict()[name].numpy(), t.numpy()), name
    obs = np.random.default_rng(0).random(23).astype(np.float32)
    assert safe.act(obs, mask, np.random.default_rng(1)) == full.act(obs, mask, np.random.default_rng(1))
    assert mask[safe.act(obs, mask, np.random.default_rng(1))] == 1


@pytest.mark.parametrize("entry", ["class_and_ctor_args.pkl", "module_state.pkl"])
def test_crafted_checkpoint_is_refused_and_runs_nothing(checkpoint, tmp_path, monkeypatch, entry):
    from agents import make_agent
    from agents.model_files import ModelFileError, ModelTrustError
    from agents.rllib_agent import load_rllib_module

    monkeypatch.delenv("MONOLITH_ENVS_TRUST_MODELS", raising=False)
    target = tmp_path / "pwned.txt"
    bad = _copy(checkpoint, tmp_path / "bad")
    (bad / INNER / entry).write_bytes(pickle.dumps(_WritesFile(target)))
    with pytest.raises(ModelTrustError, match="--trust-model-files.*MONOLITH_ENVS_TRUST_MODELS=1") as exc:
        make_agent(f"rllib:{bad}", ENV_ID)
    assert entry in str(exc.value) and "pathlib.Path.write_text is not an allowed class" in str(exc.value)
    assert not target.exists()
    # the payload is real: RLlib's own loader (the trusted path, what every load did before) runs it
    with pytest.raises(ModelFileError):
        load_rllib_module(bad, trusted=True)
    assert target.read_text() == "owned"


def test_evaluate_cli_refuses_crafted_checkpoint(checkpoint, tmp_path, capsys, monkeypatch):
    from training.evaluate import main

    monkeypatch.delenv("MONOLITH_ENVS_TRUST_MODELS", raising=False)
    target = tmp_path / "pwned.txt"
    bad = _copy(checkpoint, tmp_path / "bad")
    (bad / INNER / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(_WritesFile(target)))
    with pytest.raises(SystemExit) as exc:
        main(["--env", ENV_ID, "--agents", f"random,rllib:{bad}", "--games", "1", "--workers", "1",
              "--out", str(tmp_path / "e.json")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and not target.exists() and not (tmp_path / "e.json").exists()
    assert "Traceback" not in err and "--trust-model-files" in err.splitlines()[-1]


def _edit_ctor(path: Path, edit) -> None:
    from agents.model_files import restricted_loads
    from agents.rllib_agent import _CTOR_GLOBALS

    f = path / INNER / "class_and_ctor_args.pkl"
    info = restricted_loads(f.read_bytes(), _CTOR_GLOBALS, "test")
    edit(info["ctor_args_and_kwargs"][1])
    f.write_bytes(pickle.dumps(info))


@pytest.mark.parametrize("edit, message", [
    (lambda kw: kw["model_config"].update(fcnet_hiddens=[60000, 60000, 60000]), "weights, more than the"),
    (lambda kw: kw["model_config"].update(fcnet_hiddens=[-1]), "layer widths from 1 to"),
    (lambda kw: kw["model_config"].update(fcnet_kernel_initializer="orthogonal_"), "must be RLlib's default"),
    (lambda kw: kw.update(action_space=None), "Discrete(actions)"),
])
def test_checkpoint_with_bad_config_is_refused_before_building(checkpoint, tmp_path, edit, message):
    from agents.model_files import ModelFileError
    from agents.rllib_agent import load_rllib_module

    bad = _copy(checkpoint, tmp_path / "bad")
    _edit_ctor(bad, edit)
    with pytest.raises(ModelFileError) as exc:
        load_rllib_module(bad, trusted=False)
    assert message in str(exc.value)


def test_weights_that_do_not_fit_are_refused(checkpoint, tmp_path):
    from agents.model_files import ModelFileError, restricted_loads
    from agents.rllib_agent import _STATE_GLOBALS, load_rllib_module

    bad = _copy(checkpoint, tmp_path / "bad")
    f = bad / INNER / "module_state.pkl"
    state = restricted_loads(f.read_bytes(), _STATE_GLOBALS, "test")
    first = next(iter(state))
    state[first] = np.zeros((3, 3), np.float32)
    f.write_bytes(pickle.dumps(state))
    with pytest.raises(ModelFileError, match=f"weight '{first}' of shape .* is shape \\(3, 3\\)"):
        load_rllib_module(bad, trusted=False)


def test_float64_weights_that_overflow_the_modules_float32_are_refused(checkpoint, tmp_path):
    """1e300 is finite as float64 but inf as the module's float32: checked after the cast (the policy's
    probabilities were NaN and it played an illegal action)."""
    from agents.model_files import ModelFileError, restricted_loads
    from agents.rllib_agent import _STATE_GLOBALS, load_rllib_module

    bad = _copy(checkpoint, tmp_path / "bad")
    f = bad / INNER / "module_state.pkl"
    state = restricted_loads(f.read_bytes(), _STATE_GLOBALS, "test")
    first = next(iter(state))
    state[first] = np.full(state[first].shape, 1e300, np.float64)
    f.write_bytes(pickle.dumps(state))
    with pytest.raises(ModelFileError, match=f"read as the module's dtypes\\): weight '{first}' has values that "
                                             "are not finite"):
        load_rllib_module(bad, trusted=False)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero link", "folder", "garbage", "oversized"])
def test_unreadable_checkpoint_files_are_one_error_without_reading(checkpoint, tmp_path, monkeypatch, kind):
    import os

    from agents import rllib_agent
    from agents.model_files import ModelFileError

    bad = _copy(checkpoint, tmp_path / "bad")
    f = bad / INNER / "class_and_ctor_args.pkl"
    f.unlink()
    if kind == "fifo":
        os.mkfifo(f)  # opening it would block forever
    elif kind == "dev-zero link":
        f.symlink_to("/dev/zero")  # reading it would never end
    elif kind == "folder":
        f.mkdir()
    elif kind == "garbage":
        f.write_bytes(b"\x80\x05garbage" * 10)
    else:
        f.write_bytes(b"\x00" * 2048)
        monkeypatch.setattr(rllib_agent, "MAX_CTOR_BYTES", 1024)
    with pytest.raises(ModelFileError) as exc:
        rllib_agent.load_rllib_module(bad, trusted=False)
    says = {"fifo": "not a regular file", "dev-zero link": "not a regular file", "folder": "not a regular file",
            "garbage": "corrupt or truncated, not a readable pickle", "oversized": "2048 bytes, more than the 1024"}[kind]
    assert says in str(exc.value) and str(f) in str(exc.value)


def test_an_observation_of_another_size_is_a_clear_agent_error(checkpoint):
    from agents import AgentError, make_agent

    agent = make_agent(f"rllib:{checkpoint}", ENV_ID)
    with pytest.raises(AgentError, match="takes 23 observation values and 9 actions, the env gives 30 and 9"):
        agent.act(np.zeros(30, np.float32), np.ones(9, np.int8), np.random.default_rng(0))
