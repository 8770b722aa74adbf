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
    assert processes.usable_cpus() >= 1
    monkeypatch.setattr(processes, "usable_cpus", lambda: 1)
    assert processes.local_worker_limit() == 8
    assert processes.worker_limit_why() == "at least 8, else 4 per CPU; 1 CPU"
    monkeypatch.setattr(processes, "usable_cpus", lambda: 16)
    assert processes.local_worker_limit() == 64 and processes.worker_limit_why() == "4 per CPU, 16 CPUs"


@pytest.mark.parametrize("cpu_max, expected", [("max 100000", 64), ("150000 100000", 2), ("200000 100000", 2),
                                               (None, 64)])
def test_a_container_cpu_quota_lowers_the_usable_cpus(cpu_max, expected, monkeypatch):
    class FakePath:
        def __init__(self, path):
            assert path == "/sys/fs/cgroup/cpu.max"

        def read_text(self):
            if cpu_max is None:
                raise FileNotFoundError(2, "No such file")
            return cpu_max + "\n"

    monkeypatch.setattr(processes, "Path", FakePath)
    monkeypatch.setattr(processes.os, "sched_getaffinity", lambda pid: set(range(64)))
    assert processes.usable_cpus() == expected  # 1.5 CPUs of quota round up to 2


def test_fuzz_refuses_more_local_workers_than_the_machine_takes(tmp_path, monkeypatch):
    import monolith_envs.core.fuzz as fuzz

    monkeypatch.setattr(fuzz, "local_worker_limit", lambda: 8)
    monkeypatch.setattr(processes, "usable_cpus", lambda: 2)
    for games in (20, 2):  # refused whatever the number of games (it was let through when below the limit)
        with pytest.raises(MonolithEnvError) as ei:
            run_fuzz(monolith_envs.game_class(TOY), games=games, seed=0, workers=1024, config={},
                     out_dir=str(tmp_path), progress=False)
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
    run_fuzz(monolith_envs.game_class(TOY), games=2, seed=0, workers=6, config={}, out_dir=str(tmp_path),
             progress=False)  # 6 workers for 2 games: 2 processes
    assert started == [2]
    assert "games=2 " in capsys.readouterr().out


def test_make_vec_refuses_more_workers_than_the_machine_takes(monkeypatch):
    import monolith_envs.vector.env as vec_env

    monkeypatch.setattr(vec_env, "local_worker_limit", lambda: 8)
    monkeypatch.setattr(processes, "usable_cpus", lambda: 2)
    with pytest.raises(ConfigError) as ei:
        monolith_envs.make_vec(TOY, 16, workers=9)
    assert str(ei.value) == "make_vec: workers=9 is more processes than this machine takes: at most 8 (4 per CPU, 2 CPUs)"
