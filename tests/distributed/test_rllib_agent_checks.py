"""``rllib:PATH`` agents refuse an env of other sizes before any game (``check_game``, ``bind``), and a
damaged checkpoint is reported as corrupt, not as a file to trust.  No Ray instance: the RLModule checkpoint
is written directly (as in test_rllib_trust.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.toy_game import ENV_ID

pytest.importorskip("ray")

INNER = Path("learner_group") / "learner" / "rl_module" / "shared"
ARENA = "monolith_arena_v0"


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """An algorithm-checkpoint folder of training.rllib's shared module for the toy game (23 values, 9 actions)."""
    import monolith_envs
    from training.rllib import module_spec

    aec = monolith_envs.make(ENV_ID, wrapped=False)
    name = aec.possible_agents[0]
    module = module_spec({"net_arch": [8]}, aec.observation_space(name), aec.action_space(name)).build()
    root = tmp_path_factory.mktemp("ckpt") / "final_checkpoint"
    module.save_to_path(str(root / INNER))
    return root


def test_the_agent_knows_its_sizes_and_checks_a_game(checkpoint):
    import monolith_envs
    from agents import AgentError, make_agent

    agent = make_agent(f"rllib:{checkpoint}", ENV_ID)
    assert agent.sizes() == (23, 9)
    agent.check_game(monolith_envs.make_game(ENV_ID))  # its own game: fine
    arena = monolith_envs.make_game(ARENA)
    with pytest.raises(AgentError, match=r"takes 23 observation values and 9 actions, monolith_arena_v0 \{\} "
                                         rf"gives {arena.obs_spec.size} and {arena.layout.n}"):
        agent.check_game(arena, f"{ARENA} {{}}")


def test_bind_refuses_an_env_of_other_sizes_before_the_first_move(checkpoint):
    import monolith_envs
    from agents import AgentError, make_agent

    agent = make_agent(f"rllib:{checkpoint}", ENV_ID)
    env = monolith_envs.make(ARENA)
    env.reset(seed=0)
    with pytest.raises(AgentError, match="takes 23 observation values and 9 actions, the monolith_arena_v0 env gives"):
        agent.bind(env)
    own = monolith_envs.make(ENV_ID)
    own.reset(seed=0)
    agent.bind(own)  # its own game binds
    assert 0 <= agent.act(np.zeros(23, np.float32), np.ones(9, np.int8), np.random.default_rng(0)) < 9


def test_evaluate_refuses_a_checkpoint_of_another_game_before_any_game(checkpoint, capsys, tmp_path):
    from training.evaluate import main

    with pytest.raises(SystemExit) as exc:
        main(["--env", ARENA, "--agents", f"random,rllib:{checkpoint}", "--games", "2", "--workers", "1",
              "--out", str(tmp_path / "e.json")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "takes 23 observation values" in err and "Traceback" not in err


@pytest.mark.parametrize("which", ["module_state.pkl", "class_and_ctor_args.pkl"])
@pytest.mark.parametrize("cut", [0.5, 0.99])
def test_a_truncated_checkpoint_is_reported_as_corrupt_not_as_untrusted(checkpoint, tmp_path, which, cut):
    from agents import make_agent
    from monolith_envs.agents.model_files import ModelFileError, ModelTrustError

    bad = tmp_path / "final_checkpoint"
    shutil.copytree(checkpoint, bad)
    f = bad / INNER / which
    data = f.read_bytes()
    f.write_bytes(data[:int(len(data) * cut)])
    with pytest.raises(ModelFileError) as exc:
        make_agent(f"rllib:{bad}", ENV_ID)
    msg = str(exc.value)
    assert not isinstance(exc.value, ModelTrustError)
    assert f"{f}: the file is corrupt or truncated, not a readable pickle" in msg, msg
    assert "--trust-model-files" not in msg and "trust it" not in msg
