"""The agent library lives in ``monolith_envs.agents``; the repository's ``agents`` package keeps every former
import path working (the same module objects, imported lazily) and adds the terminal player ``human``."""

from __future__ import annotations

import importlib
import io
import os
import pickle
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import pytest

import agents
import monolith_envs.agents as lib
from monolith_envs.agents import AgentSpecError, make_agent, register_agent_kind
from monolith_envs.agents.model_files import ModelTrustError, RestrictedUnpickler, restricted_loads

ROOT = Path(__file__).resolve().parents[2]
ARENA = "monolith_arena_v0"


def test_former_import_paths_give_the_library_modules_themselves():
    import agents.heuristics.arena as old_arena
    import agents.mcts as old_mcts
    import monolith_envs.agents.heuristics.arena as arena
    import monolith_envs.agents.mcts as mcts
    from agents.heuristics.generic import returns_value
    from agents.ppo import TRUST_ENV_VAR

    assert old_mcts is mcts and old_arena is arena
    assert mcts.__spec__.name == "monolith_envs.agents.mcts" and arena.__name__ == "monolith_envs.agents.heuristics.arena"
    assert returns_value is lib.heuristics.generic.returns_value and TRUST_ENV_VAR == "MONOLITH_ENVS_TRUST_MODELS"
    assert agents.make_agent is lib.make_agent and agents.MCTSAgent is lib.MCTSAgent
    assert agents.mcts_for is lib.mcts_for  # a library name outside __all__
    assert agents.rllib_agent is sys.modules["monolith_envs.agents.rllib_agent"]  # attribute access imports it
    with pytest.raises(AttributeError, match="module 'agents' has no attribute 'nothing'"):
        agents.nothing  # noqa: B018
    with pytest.raises(ModuleNotFoundError, match="No module named 'agents.nothing'"):
        importlib.import_module("agents.nothing")


def test_the_repository_commands_stay_files_of_agents():
    import agents.human
    import agents.play

    assert Path(agents.play.__file__) == ROOT / "agents" / "play.py"
    assert agents.human.__name__ == "agents.human" and agents.HumanAgent is agents.human.HumanAgent
    assert agents.human.BaseAgent is lib.base.BaseAgent  # its "from .base import" gives the library's module


def test_every_agents_module_is_a_file_of_this_checkout():
    """``import agents`` and its commands load nothing from elsewhere (another checkout, an older install)."""
    code = ("import sys, agents, agents.play, agents.human, agents.terminal; "
            "print(*sorted(f'{n}={m.__file__}' for n, m in sys.modules.items() "
            "if n == 'agents' or n.startswith(('agents.', 'monolith_envs.agents'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120).stdout.split()
    files = dict(item.split("=", 1) for item in out)
    assert files["agents.base"] == files["monolith_envs.agents.base"] == str(ROOT / "monolith_envs/agents/base.py")
    assert all(Path(f).is_relative_to(ROOT) for f in files.values()), files


@pytest.mark.parametrize("module", ["agents.heuristics.the_monolith", "monolith_envs.agents.heuristics.the_monolith"])
def test_a_library_module_runs_with_python_m_under_both_paths(module):
    proc = subprocess.run([sys.executable, "-m", module, "--games", "1", "--players", "3"], capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "games =" in proc.stdout and "Traceback" not in proc.stderr


def test_import_agents_imports_no_heavy_dependency():
    code = ("import sys, agents; agents.make_agent('mcts:5', 'monolith_arena_v0'); "
            "print(*(m in sys.modules for m in ('torch', 'stable_baselines3', 'ray', 'monolith_envs.agents.rllib_module',"
            " 'training')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120).stdout.split()
    assert out == ["False"] * 5


def test_human_is_registered_by_the_repository_package(monkeypatch):
    assert type(make_agent("human", ARENA)) is agents.HumanAgent
    with pytest.raises(AgentSpecError, match="bad agent spec 'human:x': 'human' takes no options"):
        make_agent("human:x", ARENA)
    monkeypatch.setattr(lib, "_KINDS", {})  # as in an install without the repository
    with pytest.raises(AgentSpecError, match=r"'human' is the terminal player .* 'python -m agents.play'.*"
                                             r"accepted here: random .* rllib:CHECKPOINT \| baseline \| baseline\+search:N\[:mix=X\]$"):
        make_agent("human", ARENA)


def test_an_unattended_agent_refuses_a_kind_that_needs_a_person():
    assert lib._KINDS["human"][2] is True and lib._KINDS["az"][2] is False
    assert "| human" in lib.accepted_forms() and "human" not in lib.accepted_forms(unattended=True)
    assert "az:PATH[+search:N]" in lib.accepted_forms(unattended=True)
    with pytest.raises(AgentSpecError, match=r"^agent spec 'Human' asks a person for its moves, and these agents "
                                             r"play unattended; accepted here: random \| .*az:PATH\[\+search:N\]$"):
        make_agent("Human", ARENA, unattended=True)
    with pytest.raises(AgentSpecError, match=r"unknown agent spec 'nope'; accepted: random .*az:PATH\[\+search:N\]$"):
        make_agent("nope", ARENA, unattended=True)


def test_register_agent_kind_adds_a_kind_and_its_form(monkeypatch):
    monkeypatch.setattr(lib, "_KINDS", dict(lib._KINDS))
    register_agent_kind("echo", lambda rest, env_id: (rest, env_id), form="echo:WORD")
    assert make_agent("echo:hi", ARENA) == ("hi", ARENA)
    with pytest.raises(AgentSpecError, match=r"accepted: random \| heuristic .* \| echo:WORD"):
        make_agent("nope", ARENA)
    for bad in ("mcts", "", "Echo", "a-b", 3):
        with pytest.raises(ValueError, match="agent kind"):
            register_agent_kind(bad, lambda rest, env_id: None)


def test_renamed_classes_are_read_as_their_new_path_without_importing_the_old_one():
    data = b"cformer.place\nOrderedDict\n)R."  # protocol 0: GLOBAL former.place.OrderedDict, call it with ()
    renamed = {("former.place", "OrderedDict"): ("collections", "OrderedDict")}
    assert restricted_loads(data, {("collections", "OrderedDict")}, "x", renamed) == OrderedDict()
    assert "former" not in sys.modules
    with pytest.raises(ModelTrustError, match="former.place.OrderedDict is not an allowed class"):
        restricted_loads(data, {("collections", "OrderedDict")}, "x")
    with pytest.raises(pickle.UnpicklingError):  # a rename does not widen what is allowed
        RestrictedUnpickler(io.BytesIO(data), set(), renamed).load()


def test_training_rllib_module_is_the_package_module():
    pytest.importorskip("ray.rllib")
    import training.rllib_module as old
    from monolith_envs.agents import rllib_module

    assert old.MaskedPPOTorchRLModule is rllib_module.MaskedPPOTorchRLModule
    assert rllib_module.MaskedPPOTorchRLModule.__module__ == "monolith_envs.agents.rllib_module"


def test_missing_optional_dependencies_name_the_extra(monkeypatch, tmp_path):
    from monolith_envs.agents.base import AgentError

    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as without the [train] extra
    with pytest.raises(AgentError, match=r"ppo: agents need torch, stable-baselines3 and sb3-contrib .*"
                                         r"pip install 'monolith-envs\[train\]'"):
        make_agent(f"ppo:{tmp_path / 'model.zip'}", ARENA)
    (tmp_path / "module_state.pkl").write_bytes(b"")
    monkeypatch.setitem(sys.modules, "monolith_envs.agents.rllib_module", None)  # as without [distributed]
    with pytest.raises(AgentError, match=r"rllib: agents need Ray RLlib and torch .*"
                                         r"pip install 'monolith-envs\[distributed\]'"):
        make_agent(f"rllib:{tmp_path}", ARENA)
