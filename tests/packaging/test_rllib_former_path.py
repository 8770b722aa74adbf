"""An ``rllib:PATH`` checkpoint written before the masked module moved into the package names the class
``training.rllib_module.MaskedPPOTorchRLModule``: the untrusted loader reads it as the package's class without
importing ``training``."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.toy_game import ENV_ID

pytest.importorskip("ray.rllib")

INNER = Path("learner_group") / "learner" / "rl_module" / "shared"


def test_a_checkpoint_naming_the_former_module_path_loads_untrusted(tmp_path, monkeypatch):
    import monolith_envs
    from monolith_envs.agents import make_agent
    from monolith_envs.agents.rllib_module import MaskedPPOTorchRLModule
    from training.rllib import module_spec

    aec = monolith_envs.make(ENV_ID, wrapped=False)
    name = aec.possible_agents[0]
    module = module_spec({"net_arch": [8]}, aec.observation_space(name), aec.action_space(name)).build()
    new, old = tmp_path / "new", tmp_path / "old"
    module.save_to_path(str(new / INNER))
    module.save_to_path(str(old / INNER))
    ctor = old / INNER / "class_and_ctor_args.pkl"
    info = pickle.loads((new / INNER / "class_and_ctor_args.pkl").read_bytes())
    assert info["class"] is MaskedPPOTorchRLModule
    monkeypatch.setattr(MaskedPPOTorchRLModule, "__module__", "training.rllib_module")
    ctor.write_bytes(pickle.dumps(info))  # as written before the move
    monkeypatch.undo()
    assert b"training.rllib_module" in ctor.read_bytes()

    monkeypatch.delenv("MONOLITH_ENVS_TRUST_MODELS", raising=False)
    monkeypatch.setitem(sys.modules, "training.rllib_module", None)  # importing it would fail
    obs = np.random.default_rng(0).random(aec.observation_space(name)["observation"].shape[0]).astype(np.float32)
    mask = np.zeros(aec.action_space(name).n, np.int8)
    mask[[0, 2, 3]] = 1
    p_old = make_agent(f"rllib:{old}", ENV_ID).action_probabilities(obs, mask)
    p_new = make_agent(f"rllib:{new}", ENV_ID).action_probabilities(obs, mask)
    assert np.array_equal(p_old, p_new) and abs(p_old.sum() - 1) < 1e-9 and (p_old[mask == 0] == 0).all()
