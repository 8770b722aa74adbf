"""The Ray fuzz backend: same results and reports as the local backend, a failure found and replayed."""

from __future__ import annotations

import re

import pytest

from monolith_envs.__main__ import main
from monolith_envs.core.fuzz import run_fuzz
from monolith_envs.core.replay import load_log
from tests.distributed.faulty import FaultyToyGame
from tests.toy_game import ToyGame


def _reports(text: str) -> list[str]:
    """The failure reports of a fuzz run without the log folder, sorted by seed."""
    blocks = re.findall(r"FAILURE .*?(?=\nFAILURE |\nfuzz |\Z)", text, re.S)
    return sorted(re.sub(r"\S*fuzz_(local|ray)\b/?", "OUT/", b) for b in blocks)


def test_ray_backend_finds_the_injected_failure_like_the_local_one(ray_local, faulty_game, tmp_path, capsys):
    n_ray = run_fuzz(FaultyToyGame, 40, 0, 2, {}, str(tmp_path / "fuzz_ray"), progress=False, backend="ray")
    ray_out = capsys.readouterr().out
    n_local = run_fuzz(FaultyToyGame, 40, 0, 1, {}, str(tmp_path / "fuzz_local"), progress=False)
    local_out = capsys.readouterr().out
    assert n_ray == n_local and n_ray > 0
    assert "on ray" in ray_out and f"failures={n_ray}" in ray_out
    assert _reports(ray_out) == _reports(local_out)  # the same seeds, steps, histories and commands
    for line in ("FAILURE [invariants] seed=", "injected failure: the centre is marked",
                 "reproduce: python -m monolith_envs fuzz toy_faulty_v0 --games 1 --seed", "replay:"):
        assert line in ray_out
    ray_logs = sorted(p.name for p in (tmp_path / "fuzz_ray").glob("*.json"))
    assert ray_logs == sorted(p.name for p in (tmp_path / "fuzz_local").glob("*.json")) and len(ray_logs) == n_ray
    for name in ray_logs:
        a, b = load_log(tmp_path / "fuzz_ray" / name), load_log(tmp_path / "fuzz_local" / name)
        assert (a.seed, a.actions, a.config, a.note) == (b.seed, b.actions, b.config, b.note)
        assert len(a.actions) == 2 and 4 in a.actions


def test_a_ray_failure_log_replays_to_the_failure(ray_local, faulty_game, tmp_path, capsys):
    run_fuzz(FaultyToyGame, 20, 0, 2, {}, str(tmp_path), progress=False, backend="ray")
    capsys.readouterr()
    log = sorted(tmp_path.glob("*.json"))[0]
    assert main(["replay", str(log), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "invariant violated at the end: injected failure" in out and out.count("--- step") == 2


def test_fuzz_command_with_the_ray_backend(ray_local, capsys):
    assert main(["fuzz", "monolith_arena_v0", "--games", "4", "--workers", "2", "--backend", "ray",
                 "--check-every", "5", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "games=4" in out and "failures=0" in out and "2 workers on ray" in out


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch):
    import sys

    from monolith_envs.core.fuzz_ray import RayBackendError, ray_results

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayBackendError, match=r"pip install -e '.\[distributed\]'"):
        next(ray_results(ToyGame, {}, [(0, 8, ("invariants",), 1)], 1))


def test_monolith_envs_does_not_import_ray():
    import subprocess
    import sys

    code = ("import sys, monolith_envs, monolith_envs.core.fuzz, monolith_envs.__main__; "
            "monolith_envs.make('monolith_arena_v0'); print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
