"""A clean install: the wheel holds only ``monolith_envs`` (no generic top-level ``agents``, ``training`` or
``benchmarks``), and the Gymnasium wrapper resolves opponent spec strings from an install without the repository.

The wheel is built from a copy of the repository's packaged files (so no stale ``build/`` folder of the checkout
can leak into it) with the C compiler switched off (the compiled builders are optional), then installed with
``--no-deps`` into a scratch venv.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: what a source distribution of the repository holds: the build files and every top-level folder that
#: could be packaged (so a find pattern that picks up agents/, training/ or benchmarks/ is caught)
_COPIED = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "monolith_envs", "agents", "training", "benchmarks")


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, Path]:
    """``{"wheel": the built wheel, "site": the scratch venv's site-packages holding it}``."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", "*.egg-info")
    for name in _COPIED:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=ignore)
        else:
            shutil.copy2(p, src / name)
    env = dict(os.environ, CC="false", PIP_DISABLE_PIP_VERSION_CHECK="1")  # no compiler: the pure-Python wheel
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
          "-w", str(tmp / "dist"), "."], cwd=src, env=env)
    (wheel,) = (tmp / "dist").glob("monolith_envs-*.whl")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    vpy = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _run([sys.executable, "-m", "pip", "--python", str(vpy), "install", "--no-deps", "--no-index", "-q",
          str(wheel)], env=env)
    site = _run([str(vpy), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    return {"wheel": wheel, "site": Path(site)}


def test_the_install_claims_only_monolith_envs(installed):
    site = installed["site"]
    top = sorted(p.name for p in site.iterdir() if not p.name.endswith(".dist-info") and p.name != "__pycache__")
    assert top == ["monolith_envs"]
    (info,) = site.glob("monolith_envs-*.dist-info")
    record = (info / "RECORD").read_text(encoding="utf-8").splitlines()
    paths = [line.split(",")[0] for line in record if line]
    assert {p.split("/")[0] for p in paths if not p.startswith("../")} == {"monolith_envs", info.name}
    assert [p.rsplit("/", 1)[1] for p in paths if p.startswith("../")] == ["monolith-envs"]  # the console script
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    for game in ("arena", "strategy", "the_monolith"):
        assert f"monolith_envs/agents/heuristics/{game}.py" in names
        assert any(n.startswith(f"monolith_envs/{game}/data/") and n.endswith(".toml") for n in names)
    for mod in ("__init__", "base", "random_agent", "mcts", "ppo", "rllib_agent", "rllib_module", "model_files",
                "match", "heuristics/generic", "puct", "baselines/__init__", "baselines/net", "baselines/agent",
                "baselines/registry"):
        assert f"monolith_envs/agents/{mod}.py" in names
    assert "monolith_envs/py.typed" in names
    # the pretrained baselines: the index and every file it lists
    index = json.loads((ROOT / "monolith_envs" / "baselines" / "index.json").read_text(encoding="utf-8"))
    assert index["baselines"]
    assert "monolith_envs/baselines/index.json" in names
    for entry in index["baselines"]:
        assert f"monolith_envs/baselines/{entry['file']}" in names
        assert f"monolith_envs/baselines/{entry['file']}" in paths  # installed, not only in the wheel
    assert f"{info.name}/licenses/LICENSE" in names
    assert not any(n.startswith(("agents/", "training/", "benchmarks/", "tests/")) for n in names)


def test_gymnasium_ids_resolve_spec_strings_without_the_repository(installed, tmp_path):
    # -S: no .pth files, so neither the checkout nor a development install of it is on the path; the
    # interpreter's own site-packages give numpy, gymnasium and pettingzoo
    deps = sysconfig.get_paths()["purelib"]
    code = (
        "import sys, gymnasium, numpy as np, monolith_envs\n"
        "env = gymnasium.make('monolith_envs/MonolithArena-v0', opponents=['heuristic'], seat=0)\n"
        "obs, info = env.reset(seed=0)\n"
        "(opp,) = env.unwrapped.opponents.values()\n"
        "mask = env.unwrapped.action_masks()\n"
        "obs, r, term, trunc, info = env.step(int(np.flatnonzero(mask)[0]))\n"
        "try:\n"
        "    import agents\n"
        "    repo = 'importable'\n"
        "except ImportError:\n"
        "    repo = 'absent'\n"
        "print(monolith_envs.__file__, type(opp).__module__, obs.shape[0] == env.observation_space.shape[0],\n"
        "      'training' in sys.modules, repo)\n"
    )
    out = _run([sys.executable, "-S", "-c", code], cwd=tmp_path,
               env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed["site"]), deps]))).stdout.split()
    assert out[0] == str(installed["site"] / "monolith_envs" / "__init__.py")
    assert out[1:] == ["monolith_envs.agents.heuristics.arena", "True", "False", "absent"]
