"""``benchmarks.distributed`` (runner counts that fit ``--cpus``, a clean stop during its Ray part, output folder,
the same decisions per update), derived seeds that wrap modulo 2**128, a repeated ``--env`` measured once, and
the wording of ``benchmarks.run`` and of the docs."""

from __future__ import annotations

import dataclasses
import json
import signal
import sys
import types
from pathlib import Path

import pytest

from benchmarks import distributed
from monolith_envs.core.interrupt import Interrupted
from monolith_envs.core.seeds import MAX_SEED
from tests.benchmarks.conftest import TINY
from tests.toy_game import ENV_ID

BENCH_DIR = Path(distributed.__file__).resolve().parent


# --- benchmarks.distributed, without Ray --------------------------------------------------------------------


@pytest.fixture
def fake_ray(monkeypatch):
    """A stand-in ``ray`` whose ``init`` installs a SIGTERM handler that exits, as Ray 2.60's does, and fake
    measurements that record their arguments."""
    calls: dict = {"init": [], "shutdown": 0, "rllib": [], "train_n_steps": [], "fuzz": 0}
    ray = types.ModuleType("ray")
    ray.__version__ = "0-fake"
    state = {"up": False}

    def init(**kw):
        calls["init"].append(kw)
        state["up"] = True
        signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(signum))

    def shutdown():
        calls["shutdown"] += 1
        state["up"] = False

    ray.init, ray.shutdown, ray.is_initialized = init, shutdown, lambda: state["up"]
    monkeypatch.setitem(sys.modules, "ray", ray)
    rate = {"steps": 512, "seconds": 1.0, "steps_per_s": 512.0, "all_seat_decisions_per_s": 1024.0}

    def training(spec, budget, vec="dummy", seed=0):
        calls["train_n_steps"].append(budget.train_n_steps)
        return dict(rate)

    def rllib(env_id, env_config, runners, steps, seed=0, **kw):
        calls["rllib"].append((runners, kw.get("batch", 512)))
        if calls.get("signal"):
            signal.raise_signal(calls["signal"])
        return {"env_runners": runners, **rate}

    def fuzz(env_id, config, workers, games, check_every, backend):
        calls["fuzz"] += 1
        return {"backend": backend, "workers": workers, "check_every": check_every, "decisions_per_s": 100.0}

    import benchmarks.train_bench as train_bench

    monkeypatch.setattr(train_bench, "measure_training", training)
    monkeypatch.setattr(distributed, "measure_rllib", rllib)
    monkeypatch.setattr(distributed, "measure_fuzz", fuzz)
    return calls


def test_distributed_measures_only_the_runner_counts_that_fit_cpus(fake_ray, tmp_path, capsys):
    res = distributed.main(["--quick", "--repeats", "1", "--cpus", "1", "--out-dir", str(tmp_path)])
    assert [n for n, _ in fake_ray["rllib"]] == [1]  # 2 runners need 2 CPUs: Ray would wait without end
    assert fake_ray["init"][0]["num_cpus"] == 1
    captured = capsys.readouterr()
    why = "training.rllib PPO with 2 env runners: needs 2 CPUs for its env runners, the Ray instance has 1 (--cpus)"
    assert f"note: not measured: {why}" in captured.err
    assert f"Not measured: {why}." in (tmp_path / "distributed-quick.md").read_text()
    assert res["meta"]["env_runners"] == [1] and res["meta"]["skipped"] == [why]
    fake_ray["rllib"].clear()
    distributed.main(["--quick", "--repeats", "1", "--cpus", "2", "--out-dir", str(tmp_path)])
    assert [n for n, _ in fake_ray["rllib"]] == [1, 2]
    assert "not measured" not in capsys.readouterr().err


def test_distributed_default_cpus_are_those_this_process_may_use(monkeypatch):
    """``--cpus 0`` sizes the Ray instance by the process's CPU affinity (and quota), not the machine's count:
    on a machine of 64 CPUs with 2 allowed, Ray would otherwise start runners the process cannot run."""
    monkeypatch.setattr(distributed.os, "cpu_count", lambda: 64)
    import monolith_envs.core.processes as processes
    monkeypatch.setattr(processes.os, "cpu_count", lambda: 64)
    monkeypatch.setattr(processes.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert distributed.ray_cpus(types.SimpleNamespace(cpus=0)) == min(2, processes.usable_cpus())
    assert processes.usable_cpus() <= 2
    assert distributed.ray_cpus(types.SimpleNamespace(cpus=5)) == 5


def test_distributed_quick_uses_the_same_decisions_per_update_everywhere(fake_ray, tmp_path):
    from benchmarks.train_bench import N_ENVS

    res = distributed.main(["--quick", "--repeats", "1", "--cpus", "2", "--out-dir", str(tmp_path)])
    batches = {b for _, b in fake_ray["rllib"]}
    assert {n * N_ENVS for n in fake_ray["train_n_steps"]} == batches == {distributed.DECISIONS_PER_UPDATE} == {512}
    assert res["meta"]["decisions_per_update"] == 512
    assert "Every setup: 512 decisions per PPO update." in (tmp_path / "distributed-quick.md").read_text()


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_distributed_stops_cleanly_on_a_signal_during_its_ray_part(signum, code, fake_ray, tmp_path, capsys):
    """After ``ray.init`` (which installs a SIGTERM handler that exits) a signal still ends with the clean
    message, Ray shut down and the command's handlers restored."""
    fake_ray["signal"] = signum
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as info:
        distributed.main(["--quick", "--repeats", "1", "--cpus", "2", "--out-dir", str(tmp_path / "out")])
    assert info.value.code == code
    err = capsys.readouterr().err
    assert f"interrupted by {signal.Signals(signum).name}: nothing written" in err and "Traceback" not in err
    assert fake_ray["shutdown"] == 1 and fake_ray["fuzz"] == 0
    assert list((tmp_path / "out").iterdir()) == []
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_measure_rllib_holds_a_signal_until_the_ray_call_returns(monkeypatch):
    """A signal during an RLlib iteration is raised as ``Interrupted`` after it (not inside Ray's core, where it
    would come out as a bare ``KeyboardInterrupt``), and the algorithm is stopped."""
    import training.rllib as rllib
    from monolith_envs.core.interrupt import stop_on_signals

    events = []

    class Algo:
        def train(self):
            events.append("train")
            if len(events) == 2:
                signal.raise_signal(signal.SIGINT)
                events.append("train returned")
            return {"env_runners": {"num_env_steps_sampled_lifetime": 512 * len(events)}}

        def stop(self):
            events.append("stop")

    monkeypatch.setattr(rllib, "build_config", lambda cfg: types.SimpleNamespace(build_algo=Algo))
    monkeypatch.setattr(rllib, "_opponent_steps", lambda algo: 0)
    with pytest.raises(Interrupted), stop_on_signals():
        distributed.measure_rllib("monolith_arena_v0", {}, 1, 10_000)
    assert events == ["train", "train", "train returned", "stop"]


def test_distributed_writes_under_runs_unless_published(fake_ray, tmp_path, monkeypatch):
    committed = {p.name: p.read_bytes() for p in (BENCH_DIR / "results").glob("distributed*")}
    monkeypatch.chdir(tmp_path)
    distributed.main(["--quick", "--repeats", "1", "--cpus", "2"])
    assert sorted(p.name for p in (tmp_path / "runs" / "benchmarks").iterdir()) == ["distributed-quick.json",
                                                                                   "distributed-quick.md"]
    assert not (tmp_path / "benchmarks").exists()
    published = tmp_path / "published"
    monkeypatch.setattr(distributed, "RESULTS_DIR", published)
    distributed.main(["--quick", "--repeats", "1", "--cpus", "2", "--publish"])
    assert json.loads((published / "distributed-quick.json").read_text())["meta"]["cpus"] == 2
    assert {p.name: p.read_bytes() for p in (BENCH_DIR / "results").glob("distributed*")} == committed


def test_docs_name_the_new_distributed_outputs():
    text = (BENCH_DIR / "README.md").read_text()
    assert "python -m benchmarks.distributed            # about 4 minutes -> runs/benchmarks/distributed" in text
    assert "python -m benchmarks.distributed --publish" in text
    top = (BENCH_DIR.parent / "README.md").read_text()
    assert "`python -m benchmarks.distributed --publish`; `benchmarks/results/distributed.md`" in top


# --- seeds at the top of the range ----------------------------------------------------------------------------


def test_seed_plus_wraps_modulo_2_128():
    from benchmarks.timing import SEED_MODULUS, seed_plus

    assert SEED_MODULUS == MAX_SEED + 1
    assert seed_plus(MAX_SEED, 1) == 0 and seed_plus(MAX_SEED, 10_000) == 9_999 and seed_plus(5, 2) == 7


def test_loops_wrap_their_seeds_past_2_128():
    import monolith_envs
    import tests.conftest  # noqa: F401  (registers the toy env)
    from benchmarks.loops import AecRunner, EngineRunner, aec_breakdown, play_random_steps
    from benchmarks.timing import RandomPolicy
    from benchmarks.vector import BareEngineRunner

    aec = AecRunner(monolith_envs.make(ENV_ID), MAX_SEED)
    _dec, games, _t = aec.run(0.05)
    assert games >= 2 and 0 <= aec.next_seed < 2**128
    eng = EngineRunner(monolith_envs.make_game(ENV_ID), MAX_SEED, observe=True)
    assert eng.run(0.05)[1] >= 2 and 0 <= eng.next_seed < 2**128
    bare = BareEngineRunner(ENV_ID, {}, MAX_SEED)
    assert bare.run(0.05)[1] >= 2 and 0 <= bare.seed < 2**128
    env = monolith_envs.make(ENV_ID)
    assert aec_breakdown(env, TINY, MAX_SEED - 1000)["step_us"] is not None
    play_random_steps(env, 40, RandomPolicy(0), MAX_SEED)


def test_profiling_accepts_the_largest_seed():
    import tests.conftest  # noqa: F401
    from benchmarks.profiling import profile_loop

    _stats, decisions = profile_loop(ENV_ID, {}, "aec", 0.1, MAX_SEED)
    assert decisions > 9


def test_run_with_the_largest_seed_has_no_errors():
    from benchmarks.run import run_benchmarks

    res = run_benchmarks(dataclasses.replace(TINY, train_steps=32, train_warmup_steps=32), env_ids=[ENV_ID],
                         imports=("tests.conftest",), refs=["connect_four_v3"], train=True, train_vecs=("dummy",),
                         seed=MAX_SEED, quiet=True)
    assert [e for r in res["rows"] for e in r["errors"]] == []
    assert [e["error"] for e in res["training"] if "error" in e] == []


# --- benchmarks.run: repeated ids, wording ----------------------------------------------------------------------


def test_a_repeated_env_id_is_measured_once_in_its_first_place(monkeypatch):
    import benchmarks.run as run

    seen = []
    monkeypatch.setattr(run, "monolith_specs", lambda ids, **kw: seen.append(list(ids)) or [])
    run.run_benchmarks(TINY, env_ids=["the_monolith_v0", "monolith_arena_v0", "the_monolith_v0", "monolith_arena_v0"],
                       refs=[], train=False, quiet=True)
    assert seen == [["the_monolith_v0", "monolith_arena_v0"]]


def test_interrupted_run_counts_in_the_right_number(result, monkeypatch, capsys):
    import benchmarks.run as run

    def stopped(*a, **k):
        exc = Interrupted(signal.SIGINT)
        exc.partial = dict(result, rows=result["rows"][:1], training=result["training"][:1])
        raise exc

    monkeypatch.setattr(run, "run_benchmarks", stopped)
    with pytest.raises(SystemExit) as info:
        run.main(["--quick", "--quiet", "--no-write"])
    assert info.value.code == 130
    assert "interrupted by SIGINT: 1 configuration and 1 training run measured in" in capsys.readouterr().err


def test_docs_and_docstrings_say_what_the_code_does():
    from benchmarks.timing import Budget

    text = " ".join((BENCH_DIR / "README.md").read_text().split())
    assert "--budget smoke" in text and "`smoke` (0.15 s" in text
    assert "first configuration of the same env (2p duel)" not in text
    assert "4p for `the_monolith_v0`" in text
    assert "512 decisions per update (MaskablePPO: `n_steps` 256 × 2 envs, with `--quick` too" in text
    doc = " ".join(Budget.__doc__.split())
    assert "median pass" not in doc and "the fastest call per state is kept" in doc
