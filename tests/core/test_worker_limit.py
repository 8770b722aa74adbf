"""Local worker processes are bounded by the machine's CPUs (fuzz and make_vec), and never exceed the games."""

from __future__ import annotations

import pytest

import monolith_envs
from monolith_envs.core import processes
from monolith_envs.core.config import ConfigError
from monolith_envs.core.fuzz import run_fuzz
from monolith_envs.core.game import MonolithEnvError
from tests.toy_game import ENV_ID as TOY


def test_the_limit_is_four_per_usable_cpu_and_at_least_eight(monkeypatch):
    monkeypatch.setattr(processes, "usable_cpus", lambda: 2)
    assert processes.local_worker_limit() == 8
    monkeypatch.setattr(processes, "usable_cpus", lambda: 16)
    assert processes.local_worker_limit() == 64
    assert processes.usable_cpus() >= 1


def test_fuzz_refuses_more_local_workers_than_the_machine_takes(tmp_path, monkeypatch):
    import monolith_envs.core.fuzz as fuzz

    monkeypatch.setattr(fuzz, "local_worker_limit", lambda: 8)
    monkeypatch.setattr(fuzz, "usable_cpus", lambda: 2)
    with pytest.raises(MonolithEnvError) as ei:
        run_fuzz(monolith_envs.game_class(TOY), games=2, seed=0, workers=1024, config={}, out_dir=str(tmp_path),
                 progress=False)
    assert str(ei.value) == ("fuzz: workers=1024 local processes is more than this machine takes: at most 8 "
                             "(4 per CPU, 2 CPUs); give fewer workers, or --backend ray for a cluster")


def test_fuzz_starts_no_more_processes_than_games(tmp_path, capsys, monkeypatch):
    import multiprocessing

    started = []
    real = multiprocessing.get_context

    def spy(method=None):
        ctx = real(method)

        class Ctx:
            def Pool(self, n, *a, **k):  # noqa: N802  (the multiprocessing name)
                started.append(n)
                return ctx.Pool(n, *a, **k)

        return Ctx()

    monkeypatch.setattr(multiprocessing, "get_context", spy)
    run_fuzz(monolith_envs.game_class(TOY), games=2, seed=0, workers=8, config={}, out_dir=str(tmp_path),
             progress=False)
    assert started == [2]
    assert "games=2 " in capsys.readouterr().out


def test_make_vec_refuses_more_workers_than_the_machine_takes(monkeypatch):
    import monolith_envs.vector.env as vec_env

    monkeypatch.setattr(vec_env, "local_worker_limit", lambda: 8)
    monkeypatch.setattr(vec_env, "usable_cpus", lambda: 2)
    with pytest.raises(ConfigError) as ei:
        monolith_envs.make_vec(TOY, 16, workers=9)
    assert str(ei.value) == "make_vec: workers=9 is more processes than this machine takes: at most 8 (4 per CPU, 2 CPUs)"
